/*
 * Spandex LLC functional core: Table III reconstructed (spec 2.2) word by
 * word and merged by its rules 1-7, blocking transactions with deferral in
 * arrival order (spec 3.4), allocation, LRU, eviction by RvkO/Inv and
 * memory (spec 3.5). Each event is processed to completion; memory answers
 * at once. Output order per event (spec 9.2): MemWr of a victim dropped at
 * once, MemRd, Inv in ascending device order, RvkO/Fwd* one per owner in
 * ascending order of the owner's lowest word, the LLC response; an event
 * that ends a transaction prints its completion, then the output of each
 * replayed request in arrival order.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "spandex_llc.h"
#include "spandex_llc_rules.h"

typedef struct {
    int valid;
    uint64_t line;
    uint64_t lru;
    spandex_llc_way w;
    spandex_llc_txn t;
} lline;

typedef struct {
    lline *w;
    size_t n, cap; /* bounded: n = cap = ways; unbounded: grows */
} lset;

typedef struct {
    uint64_t seq;
    spandex_msg m;
} pend;

typedef struct {
    uint64_t line;
    uint64_t *v;
} memline;

struct spandex_llc {
    spandex_llc_cfg c;
    spandex_llc_geom g;
    lset *sets;
    pend *pq;
    size_t npq, cappq;
    uint64_t seq, clock;
    memline *mem; /* open addressing, cap a power of two */
    size_t nmem, capmem;
    spandex_llc_emit_fn emit;
    void *ctx;
    char *err;
    size_t errlen;
    int oom;
};

enum { DONE = 0, WAIT = 1, FAIL = -1 };

static int fail(spandex_llc *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(spandex_llc *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->err, l->errlen, fmt, ap);
    va_end(ap);
    return FAIL;
}

/* ----------------------------------------------------------------- memory */
static uint64_t mem_hash(uint64_t line) { return (line * 0x9E3779B97F4A7C15ull) >> 17; }

static memline *mem_find(const spandex_llc *l, uint64_t line)
{
    size_t i;
    if (l->capmem == 0)
        return NULL;
    for (i = mem_hash(line) & (l->capmem - 1); l->mem[i].v; i = (i + 1) & (l->capmem - 1))
        if (l->mem[i].line == line)
            return &l->mem[i];
    return NULL;
}

static int mem_grow(spandex_llc *l)
{
    size_t cap = l->capmem ? l->capmem * 2 : 64, i, j;
    memline *m = calloc(cap, sizeof *m);
    if (m == NULL)
        return -1;
    for (i = 0; i < l->capmem; i++)
        if (l->mem[i].v) {
            for (j = mem_hash(l->mem[i].line) & (cap - 1); m[j].v; j = (j + 1) & (cap - 1))
                ;
            m[j] = l->mem[i];
        }
    free(l->mem);
    l->mem = m;
    l->capmem = cap;
    return 0;
}

uint64_t spandex_llc_mem_word(const spandex_llc *l, uint64_t line, unsigned w)
{
    const memline *m = mem_find(l, line);
    return m ? m->v[w] : (line + (uint64_t)w * l->c.word) & cohkit_mask64(l->g.word_bits);
}

static void mem_write(spandex_llc *l, uint64_t line, const uint64_t *v)
{
    memline *m = mem_find(l, line);
    size_t i;
    if (m == NULL) {
        if ((l->nmem + 1) * 2 > l->capmem && mem_grow(l) != 0) {
            l->oom = 1;
            return;
        }
        for (i = mem_hash(line) & (l->capmem - 1); l->mem[i].v; i = (i + 1) & (l->capmem - 1))
            ;
        m = &l->mem[i];
        m->v = malloc(l->g.words * sizeof *m->v);
        if (m->v == NULL) {
            l->oom = 1;
            return;
        }
        m->line = line;
        l->nmem++;
    }
    memcpy(m->v, v, l->g.words * sizeof *v);
}

/* ------------------------------------------------------------------ lines */
static lset *set_of(const spandex_llc *l, uint64_t line)
{
    return &l->sets[(line >> l->g.line_bits) & (l->c.sets - 1)];
}

static lline *find(const spandex_llc *l, uint64_t line)
{
    lset *s = set_of(l, line);
    size_t i;
    for (i = 0; i < s->n; i++)
        if (s->w[i].valid && s->w[i].line == line)
            return &s->w[i];
    return NULL;
}

/* ------------------------------------------------------------------ output */
static void send(spandex_llc *l, spandex_msg_kind k, unsigned dst, uint64_t line, uint64_t mask,
                 unsigned req, const uint64_t *v)
{
    spandex_msg m;
    unsigned w;
    m.kind = k;
    m.dev = dst;
    m.req = req;
    m.op = 0;
    m.line = line;
    m.mask = mask;
    for (w = 0; w < l->g.words; w++)
        m.v[w] = v && ((mask >> w & 1) || k == SPANDEX_MEMWR) ? v[w] : 0;
    l->emit(l->ctx, &m);
}

/* ------------------------------------------------------- allocation (3.5) */
static void fill_line(spandex_llc *l, lline *ln, uint64_t line, int fill)
{
    unsigned w;
    memset(ln, 0, sizeof *ln);
    ln->valid = 1;
    ln->line = line;
    spandex_llc_way_fresh(&ln->w);
    for (w = 0; w < l->g.words; w++)
        ln->w.data[w] = fill ? spandex_llc_mem_word(l, line, w) : 0;
}

/* A way for `line`: the line (filled from memory when `fill`), or NULL when
 * the request must wait (every line of the set is blocked, an eviction is
 * under way, or one is started now). */
static lline *alloc(spandex_llc *l, uint64_t line, int fill)
{
    lset *s = set_of(l, line);
    lline *v = NULL;
    size_t i;
    if (l->c.ways == 0) {
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 4;
            lline *w = realloc(s->w, cap * sizeof *w);
            if (w == NULL) {
                l->oom = 1;
                return NULL;
            }
            s->w = w;
            s->cap = cap;
        }
        v = &s->w[s->n++];
    } else {
        spandex_llc_msgs o;
        for (i = 0; i < s->n && v == NULL; i++)
            if (!s->w[i].valid)
                v = &s->w[i];
        if (v == NULL) {
            for (i = 0; i < s->n; i++)
                if (s->w[i].t.open && s->w[i].t.kind == SPANDEX_LLC_TX_EVICT)
                    return NULL;
            for (i = 0; i < s->n; i++)
                if (!s->w[i].t.open && (v == NULL || s->w[i].lru < v->lru))
                    v = &s->w[i];
            if (v == NULL)
                return NULL;
            if (spandex_llc_rule_evict(&l->c, &l->g, &v->w, &v->t, &o)) {
                spandex_llc_msgs_emit(&l->g, &o, v->line, l->emit, l->ctx);
                return NULL;
            }
            if (v->w.dirty) {
                send(l, SPANDEX_MEMWR, 0, v->line, l->g.full, 0, v->w.data);
                mem_write(l, v->line, v->w.data);
            }
        }
    }
    fill_line(l, v, line, fill);
    if (fill)
        send(l, SPANDEX_MEMRD, 0, line, 0, 0, NULL);
    return v;
}

/* --------------------------------------------------------------- requests */
/* One request, as if just arrived: DONE, WAIT (line blocked, or no way
 * yet) or FAIL. */
static int process(spandex_llc *l, const spandex_msg *q)
{
    lline *ln = find(l, q->line);
    spandex_llc_msgs o;
    if (ln && ln->t.open)
        return WAIT;
    if (q->kind == SPANDEX_REQWB) {
        spandex_llc_rule_wb(&l->c, &l->g, ln ? &ln->w : NULL, q, &o);
        spandex_llc_msgs_emit(&l->g, &o, q->line, l->emit, l->ctx);
        return DONE;
    }
    if (ln == NULL) {
        ln = alloc(l, q->line, !spandex_llc_no_fill(&l->g, q->kind, spandex_llc_req_mask(&l->c, &l->g, q, 0)));
        if (ln == NULL)
            return l->oom ? fail(l, "out of memory") : WAIT;
    }
    ln->lru = ++l->clock;
    if (spandex_llc_rule_request(&l->c, &l->g, &ln->w, q, &o, &ln->t, l->err, l->errlen) != 0)
        return FAIL;
    spandex_llc_msgs_emit(&l->g, &o, q->line, l->emit, l->ctx);
    return DONE;
}

/* ------------------------------------------------------ transactions (3.4) */
static void complete(spandex_llc *l, lline *ln)
{
    spandex_llc_msgs o;
    if (ln->t.kind == SPANDEX_LLC_TX_EVICT) {
        ln->t.open = 0;
        if (ln->w.dirty) {
            send(l, SPANDEX_MEMWR, 0, ln->line, l->g.full, 0, ln->w.data);
            mem_write(l, ln->line, ln->w.data);
        }
        ln->valid = 0;
        return;
    }
    spandex_llc_rule_complete(&l->c, &l->g, &ln->w, &ln->t, &o);
    spandex_llc_msgs_emit(&l->g, &o, ln->line, l->emit, l->ctx);
}

static int pend_add(spandex_llc *l, const spandex_msg *q)
{
    if (l->npq == l->cappq) {
        size_t cap = l->cappq ? l->cappq * 2 : 16;
        pend *p = realloc(l->pq, cap * sizeof *p);
        if (p == NULL)
            return fail(l, "out of memory");
        l->pq = p;
        l->cappq = cap;
    }
    l->pq[l->npq].seq = l->seq;
    l->pq[l->npq++].m = *q;
    return DONE;
}

/* 1 when a waiting request holds back a new request q: one for q's line,
 * or (q needing a way) one waiting for a way in q's set. */
static int held_back(const spandex_llc *l, const spandex_msg *q)
{
    const lset *s = set_of(l, q->line);
    int needs_way = q->kind != SPANDEX_REQWB && find(l, q->line) == NULL;
    size_t i;
    for (i = 0; i < l->npq; i++) {
        const spandex_msg *p = &l->pq[i].m;
        if (p->line == q->line)
            return 1;
        if (needs_way && set_of(l, p->line) == s && p->kind != SPANDEX_REQWB && find(l, p->line) == NULL)
            return 1;
    }
    return 0;
}

/* Replays the waiting requests in arrival order, each as if just arrived;
 * one still waiting holds back the later ones of its line (and, waiting
 * for a way, those needing a way in its set). */
static int replay(spandex_llc *l)
{
    uint64_t *lines = NULL;
    const lset **sets = NULL;
    size_t nl = 0, ns = 0, i = 0, j;
    int rc = DONE;
    if (l->npq) {
        lines = malloc(l->npq * sizeof *lines);
        sets = malloc(l->npq * sizeof *sets);
        if (lines == NULL || sets == NULL) {
            free(lines);
            free(sets);
            return fail(l, "out of memory");
        }
    }
    while (i < l->npq) {
        spandex_msg q = l->pq[i].m;
        const lset *s = set_of(l, q.line);
        int absent = find(l, q.line) == NULL, held = 0, r;
        for (j = 0; j < nl && !held; j++)
            held = lines[j] == q.line;
        for (j = 0; j < ns && !held && absent && q.kind != SPANDEX_REQWB; j++)
            held = sets[j] == s;
        r = held ? WAIT : process(l, &q);
        if (r == FAIL) {
            rc = FAIL;
            break;
        }
        if (r == DONE) {
            memmove(&l->pq[i], &l->pq[i + 1], (l->npq - i - 1) * sizeof *l->pq);
            l->npq--;
            continue;
        }
        lines[nl++] = q.line;
        if (absent && q.kind != SPANDEX_REQWB)
            sets[ns++] = s;
        i++;
    }
    free(lines);
    free(sets);
    return rc;
}

/* Ack and RspRvkO: the open transaction of the line must expect them. */
static int response(spandex_llc *l, const spandex_msg *q)
{
    lline *ln = find(l, q->line);
    spandex_llc_txn none;
    int done;
    memset(&none, 0, sizeof none);
    if (spandex_llc_rule_answer(&l->c, &l->g, ln ? &ln->w : NULL, ln ? &ln->t : &none, q, &done, l->err, l->errlen))
        return FAIL;
    if (!done)
        return DONE;
    complete(l, ln);
    return replay(l);
}

int spandex_llc_event(spandex_llc *l, const spandex_msg *in, spandex_llc_emit_fn emit, void *ctx, char *err,
                      size_t len)
{
    int r;
    char dummy[8];
    l->emit = emit;
    l->ctx = ctx;
    l->err = err ? err : dummy;
    l->errlen = err ? len : sizeof dummy;
    l->seq++;
    if (in->kind == SPANDEX_ACK || in->kind == SPANDEX_RSPRVKO)
        r = response(l, in);
    else if (spandex_msg_net(in->kind) != SPANDEX_NET_REQ)
        r = fail(l, "%s is not an input of the LLC", spandex_msg_name(in->kind));
    else if (held_back(l, in))
        r = pend_add(l, in);
    else if ((r = process(l, in)) == WAIT)
        r = pend_add(l, in);
    if (r == DONE && l->oom)
        r = fail(l, "out of memory");
    return r == FAIL ? -1 : 0;
}

/* ------------------------------------------------------------- new, state */
spandex_llc *spandex_llc_new(const spandex_llc_cfg *c)
{
    spandex_llc *l = calloc(1, sizeof *l);
    size_t i;
    if (l == NULL)
        return NULL;
    l->c = *c;
    spandex_llc_geom_of(c, &l->g);
    l->sets = calloc(c->sets, sizeof *l->sets);
    if (l->sets == NULL) {
        free(l);
        return NULL;
    }
    for (i = 0; c->ways && i < c->sets; i++) {
        l->sets[i].w = calloc(c->ways, sizeof *l->sets[i].w);
        if (l->sets[i].w == NULL) {
            spandex_llc_free(l);
            return NULL;
        }
        l->sets[i].n = l->sets[i].cap = c->ways;
    }
    return l;
}

void spandex_llc_free(spandex_llc *l)
{
    size_t i;
    if (l == NULL)
        return;
    for (i = 0; i < l->c.sets; i++)
        free(l->sets[i].w);
    for (i = 0; i < l->capmem; i++)
        free(l->mem[i].v);
    free(l->mem);
    free(l->sets);
    free(l->pq);
    free(l);
}

static void info_of(const spandex_llc *l, const lline *ln, spandex_llc_line_info *x)
{
    unsigned w;
    size_t i;
    memset(x, 0, sizeof *x);
    x->line = ln->line;
    x->state = ln->w.st;
    x->sharers = ln->w.sh;
    x->dirty = ln->w.dirty;
    x->owned = ln->w.owned;
    for (w = 0; w < l->g.words; w++) {
        x->owner[w] = ln->w.owned >> w & 1 ? ln->w.own[w] : 0;
        x->data[w] = ln->w.data[w];
    }
    x->blocked = ln->t.open;
    x->pend_ack = ln->t.open ? ln->t.pend_ack : 0;
    x->pend_rvk = ln->t.open ? ln->t.pend_rvk : 0;
    for (i = 0; i < l->npq; i++)
        x->queued += l->pq[i].m.line == ln->line;
}

int spandex_llc_line(const spandex_llc *l, uint64_t line, spandex_llc_line_info *info)
{
    const lline *ln = find(l, line);
    if (ln == NULL)
        return 0;
    info_of(l, ln, info);
    return 1;
}

static int cmp_line(const void *a, const void *b)
{
    uint64_t x = ((const spandex_llc_line_info *)a)->line, y = ((const spandex_llc_line_info *)b)->line;
    return x < y ? -1 : x > y;
}

size_t spandex_llc_lines(const spandex_llc *l, spandex_llc_line_info *out, size_t n)
{
    size_t i, j, k = 0;
    for (i = 0; i < l->c.sets; i++)
        for (j = 0; j < l->sets[i].n; j++)
            if (l->sets[i].w[j].valid) {
                if (k < n)
                    info_of(l, &l->sets[i].w[j], &out[k]);
                k++;
            }
    if (out && n)
        qsort(out, k < n ? k : n, sizeof *out, cmp_line);
    return k;
}

int spandex_llc_owner(const spandex_llc *l, uint64_t line, unsigned w)
{
    const lline *ln = find(l, line);
    return ln && (ln->w.owned >> w & 1) ? (int)ln->w.own[w] : -1;
}

unsigned spandex_llc_waiting(const spandex_llc *l, uint64_t line, unsigned dev)
{
    const lline *ln = find(l, line);
    size_t i;
    unsigned n = ln && ln->t.open && ln->t.kind != SPANDEX_LLC_TX_EVICT && ln->t.req.dev == dev;
    for (i = 0; i < l->npq; i++)
        n += l->pq[i].m.line == line && l->pq[i].m.dev == dev;
    return n;
}

unsigned spandex_llc_waiting_all(const spandex_llc *l) { return (unsigned)l->npq; }

unsigned spandex_llc_open(const spandex_llc *l)
{
    size_t i, j;
    unsigned n = 0;
    for (i = 0; i < l->c.sets; i++)
        for (j = 0; j < l->sets[i].n; j++)
            n += l->sets[i].w[j].valid && l->sets[i].w[j].t.open;
    return n;
}

void spandex_llc_dump(const spandex_llc *l, FILE *f)
{
    size_t n = spandex_llc_lines(l, NULL, 0), i;
    spandex_llc_line_info *x = n ? malloc(n * sizeof *x) : NULL;
    unsigned w;
    if (n && x == NULL)
        return;
    spandex_llc_lines(l, x, n);
    for (i = 0; i < n; i++) {
        fprintf(f, "LINE 0x%llx %c sh=0x%llx d=%d own=", (unsigned long long)x[i].line, x[i].state,
                (unsigned long long)x[i].sharers, x[i].dirty);
        for (w = 0; w < l->g.words; w++) {
            if (w)
                fputc(',', f);
            if (x[i].owned >> w & 1)
                fprintf(f, "%u", x[i].owner[w]);
            else
                fputc('-', f);
        }
        if (x[i].blocked)
            fprintf(f, " blk");
        if (x[i].queued)
            fprintf(f, " q=%u", x[i].queued);
        fputc('\n', f);
    }
    free(x);
}
