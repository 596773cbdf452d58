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

/* What an open transaction does when its last Ack and RspRvkO are in. */
typedef enum {
    TX_EVICT,  /* OWB, SWB, SI: MemWr if dirty, free the way               */
    TX_SHARE,  /* OS: ReqS(1) on owned words: line S, owners join sharers  */
    TX_OWN,    /* SO: ReqO, ReqO+data, ReqS(3) on S words: RspO(+data)     */
    TX_WRITE,  /* SV: ReqWT on S words (line mode: also on owned words)    */
    TX_ATOMIC  /* OV/SV: ReqWT+data: apply op, RspWT+data(old)             */
} tx_kind;

typedef struct {
    int open;
    tx_kind kind;
    spandex_msg req;   /* the blocked request (kind, dev, op, values)       */
    uint64_t mu;       /* the words answered at the end                     */
    uint64_t pend_ack; /* devices owing an Ack                              */
    uint64_t pend_rvk; /* words owing an RspRvkO                            */
    uint64_t sh_add;   /* TX_SHARE: devices joining the sharers             */
    int inv_sent;      /* the line goes V at the end (sharers invalidated)  */
} txn;

typedef struct {
    int valid;
    uint64_t line;
    int st; /* 'V' or 'S' */
    uint64_t sh, owned;
    int dirty;
    uint64_t lru;
    unsigned own[SPANDEX_LLC_WORDS_MAX];  /* owner_store array            */
    uint64_t data[SPANDEX_LLC_WORDS_MAX]; /* owner_store data: owned words
                                              hold their owner's ID        */
    txn t;
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

static unsigned owner_of(const spandex_llc *l, const lline *ln, unsigned w)
{
    return l->c.owner_store == SPANDEX_LLC_OWNER_DATA ? (unsigned)ln->data[w] : ln->own[w];
}

static void set_owner(const spandex_llc *l, lline *ln, unsigned w, unsigned d)
{
    ln->owned |= 1ull << w;
    if (l->c.owner_store == SPANDEX_LLC_OWNER_DATA)
        ln->data[w] = d;
    else
        ln->own[w] = d;
}

/* Words of ln owned by device d. */
static uint64_t owned_by(const spandex_llc *l, const lline *ln, unsigned d)
{
    uint64_t m = 0;
    unsigned w;
    for (w = 0; w < l->g.words; w++)
        if ((ln->owned >> w & 1) && owner_of(l, ln, w) == d)
            m |= 1ull << w;
    return m;
}

/* Stores v into the unowned (or now released) word w. */
static void store(lline *ln, unsigned w, uint64_t v)
{
    ln->owned &= ~(1ull << w);
    ln->data[w] = v;
    ln->dirty = 1;
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

static void send_invs(spandex_llc *l, uint64_t line, uint64_t devs)
{
    unsigned d;
    for (d = 0; d < l->c.devs; d++)
        if (devs >> d & 1)
            send(l, SPANDEX_INV, d, line, 0, 0, NULL);
}

/* One message of kind k per owner of `words`, in ascending order of each
 * owner's lowest word (rule 2): its words, requestor req. */
static void send_per_owner(spandex_llc *l, lline *ln, spandex_msg_kind k, uint64_t words, unsigned req)
{
    uint64_t left = words;
    while (left) {
        unsigned w0 = (unsigned)__builtin_ctzll(left), o = owner_of(l, ln, w0), w;
        uint64_t mine = 0;
        for (w = w0; w < l->g.words; w++)
            if ((left >> w & 1) && owner_of(l, ln, w) == o)
                mine |= 1ull << w;
        send(l, k, o, ln->line, mine, req, NULL);
        left &= ~mine;
    }
}

/* ------------------------------------------------------- allocation (3.5) */
static void fill_line(spandex_llc *l, lline *ln, uint64_t line, int fill)
{
    unsigned w;
    memset(ln, 0, sizeof *ln);
    ln->valid = 1;
    ln->line = line;
    ln->st = 'V';
    for (w = 0; w < l->g.words; w++)
        ln->data[w] = fill ? spandex_llc_mem_word(l, line, w) : 0;
}

/* Starts the eviction of ln: RvkO to each owner, Inv to every sharer. */
static void start_evict(spandex_llc *l, lline *ln)
{
    txn *t = &ln->t;
    memset(t, 0, sizeof *t);
    t->open = 1;
    t->kind = TX_EVICT;
    t->pend_ack = ln->st == 'S' ? ln->sh : 0;
    t->pend_rvk = ln->owned;
    send_invs(l, ln->line, t->pend_ack);
    send_per_owner(l, ln, SPANDEX_RVKO, ln->owned, 0);
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
        for (i = 0; i < s->n && v == NULL; i++)
            if (!s->w[i].valid)
                v = &s->w[i];
        if (v == NULL) {
            for (i = 0; i < s->n; i++)
                if (s->w[i].t.open && s->w[i].t.kind == TX_EVICT)
                    return NULL;
            for (i = 0; i < s->n; i++)
                if (!s->w[i].t.open && (v == NULL || s->w[i].lru < v->lru))
                    v = &s->w[i];
            if (v == NULL)
                return NULL;
            if (v->owned || (v->st == 'S' && v->sh)) {
                start_evict(l, v);
                return NULL;
            }
            if (v->dirty)
                send(l, SPANDEX_MEMWR, 0, v->line, l->g.full, 0, v->data);
            if (v->dirty)
                mem_write(l, v->line, v->data);
        }
    }
    fill_line(l, v, line, fill);
    if (fill)
        send(l, SPANDEX_MEMRD, 0, line, 0, 0, NULL);
    return v;
}

/* --------------------------------------------------------- requests (2.2) */
static int is_write_kind(spandex_msg_kind k) { return k == SPANDEX_REQWT || k == SPANDEX_REQWTDATA; }

/* The option ReqS takes on ln for mask m (spec 2.2, X6). */
static int reqs_option(const spandex_llc *l, const lline *ln, uint64_t m)
{
    unsigned w;
    if (l->c.reqs != SPANDEX_LLC_REQS_PAPER)
        return (int)l->c.reqs;
    if (ln->st == 'S' && (m & ~ln->owned))
        return 1;
    for (w = 0; w < l->g.words; w++)
        if ((m & ln->owned) >> w & 1 && (l->c.mesi >> owner_of(l, ln, w) & 1))
            return 1;
    return 3;
}

static txn *open_txn(lline *ln, tx_kind k, const spandex_msg *q, uint64_t mu)
{
    txn *t = &ln->t;
    memset(t, 0, sizeof *t);
    t->open = 1;
    t->kind = k;
    t->req = *q;
    t->mu = mu;
    return t;
}

/* ReqV, and ReqS under option 2: owned words forwarded, the rest served. */
static void do_read(spandex_llc *l, lline *ln, const spandex_msg *q, uint64_t m, spandex_msg_kind fwd,
                    spandex_msg_kind rsp)
{
    uint64_t mo = m & ln->owned, mu = m & ~ln->owned;
    send_per_owner(l, ln, fwd, mo, q->dev);
    if (mu)
        send(l, rsp, q->dev, ln->line, mu, 0, ln->data);
}

/* ReqS under option 1: unowned words RspS at once, owned ones FwdReqS and
 * the line blocked until every RspRvkO (OS). */
static void do_share(spandex_llc *l, lline *ln, const spandex_msg *q, uint64_t m)
{
    uint64_t mo = m & ln->owned, mu = m & ~ln->owned, owners = 0;
    unsigned w;
    for (w = 0; w < l->g.words; w++)
        if (mo >> w & 1)
            owners |= 1ull << owner_of(l, ln, w);
    send_per_owner(l, ln, SPANDEX_FWDREQS, mo, q->dev);
    if (mu) {
        ln->st = 'S';
        ln->sh |= 1ull << q->dev;
        send(l, SPANDEX_RSPS, q->dev, ln->line, mu, 0, ln->data);
    }
    if (mo) {
        txn *t = open_txn(ln, TX_SHARE, q, 0);
        t->pend_rvk = mo;
        t->sh_add = owners | 1ull << q->dev;
    }
}

static void grant(spandex_llc *l, lline *ln, uint64_t words, unsigned d)
{
    unsigned w;
    for (w = 0; w < l->g.words; w++)
        if (words >> w & 1)
            set_owner(l, ln, w, d);
}

/* ReqO, ReqO+data and ReqS(3): owned words forwarded with ownership moved
 * at once; V words granted at once; S words after every Ack (SO). */
static void do_own(spandex_llc *l, lline *ln, const spandex_msg *q, uint64_t m, int data)
{
    uint64_t mo = m & ln->owned, mu = m & ~ln->owned, invs = 0;
    spandex_msg_kind rsp = data ? SPANDEX_RSPODATA : SPANDEX_RSPO;
    if (mu && ln->st == 'S') {
        invs = ln->sh;
        if (m == l->g.full) /* X9: a whole-line upgrade does not invalidate R */
            invs &= ~(1ull << q->dev);
    }
    send_invs(l, ln->line, invs);
    send_per_owner(l, ln, data ? SPANDEX_FWDREQODATA : SPANDEX_FWDREQO, mo, q->dev);
    grant(l, ln, mo, q->dev);
    if (invs) {
        txn *t = open_txn(ln, TX_OWN, q, mu);
        t->pend_ack = invs;
        t->inv_sent = 1;
        t->req.kind = data ? SPANDEX_REQODATA : SPANDEX_REQO;
    } else if (mu) {
        send(l, rsp, q->dev, ln->line, mu, 0, data ? ln->data : NULL);
        grant(l, ln, mu, q->dev);
        if (ln->st == 'S') {
            ln->st = 'V';
            ln->sh = 0;
        }
    }
}

/* Applies a write (ReqWT: the values; ReqWT+data: the op) to the words of
 * mu and sends the response. */
static void finish_write(spandex_llc *l, lline *ln, const spandex_msg *q, uint64_t mu)
{
    uint64_t old[SPANDEX_LLC_WORDS_MAX];
    unsigned w;
    for (w = 0; w < l->g.words; w++) {
        if (!(mu >> w & 1))
            continue;
        old[w] = ln->data[w];
        if (q->kind == SPANDEX_REQWT)
            store(ln, w, q->v[w]);
        else if (q->op != SPANDEX_OP_RD)
            store(ln, w, spandex_op_apply(q->op, old[w], q->v[w], l->g.word_bits));
    }
    if (q->kind == SPANDEX_REQWT)
        send(l, SPANDEX_RSPWT, q->dev, ln->line, mu, 0, NULL);
    else
        send(l, SPANDEX_RSPWTDATA, q->dev, ln->line, mu, 0, old);
}

/* ReqWT and ReqWT+data. Word mode: ReqWT writes owned words at once and
 * forwards FwdReqO to their owners; ReqWT+data revokes them. Line mode
 * (coherence widened to the line) revokes every other owner's word. S
 * words: Inv to every sharer, R too (SV). */
static void do_write(spandex_llc *l, lline *ln, const spandex_msg *q, uint64_t own_r)
{
    uint64_t m = q->mask, mo = m & ln->owned, mu = m & ~ln->owned, invs = 0, rvk;
    int line = l->c.gran == SPANDEX_LLC_GRAN_LINE;
    unsigned w;
    if (ln->st == 'S' && (mu || line))
        invs = ln->sh;
    if (line)
        rvk = ln->owned & ~own_r;
    else
        rvk = q->kind == SPANDEX_REQWTDATA ? mo : 0;
    send_invs(l, ln->line, invs);
    if (rvk)
        send_per_owner(l, ln, SPANDEX_RVKO, rvk, 0);
    if (!line && q->kind == SPANDEX_REQWT && mo) {
        send_per_owner(l, ln, SPANDEX_FWDREQO, mo, q->dev);
        for (w = 0; w < l->g.words; w++)
            if (mo >> w & 1)
                store(ln, w, q->v[w]);
        m = mu;
    }
    if (invs || rvk) {
        txn *t = open_txn(ln, q->kind == SPANDEX_REQWT ? TX_WRITE : TX_ATOMIC, q, m);
        t->pend_ack = invs;
        t->pend_rvk = rvk;
        t->inv_sent = invs != 0;
    } else if (m) {
        finish_write(l, ln, q, m);
    }
}

/* ReqWB: words R owns are stored, the rest dropped (X3); RspWB always. */
static void do_wb(spandex_llc *l, lline *ln, const spandex_msg *q)
{
    unsigned w;
    if (ln)
        for (w = 0; w < l->g.words; w++)
            if ((q->mask >> w & 1) && (ln->owned >> w & 1) && owner_of(l, ln, w) == q->dev)
                store(ln, w, q->v[w]);
    send(l, SPANDEX_RSPWB, q->dev, q->line, q->mask, 0, NULL);
}

/* One request, as if just arrived: DONE, WAIT (line blocked, or no way
 * yet) or FAIL. */
static int process(spandex_llc *l, const spandex_msg *q)
{
    lline *ln = find(l, q->line);
    uint64_t m = q->mask, own_r = 0;
    int line = l->c.gran == SPANDEX_LLC_GRAN_LINE;
    if (ln && ln->t.open)
        return WAIT;
    if (q->kind == SPANDEX_REQWB) {
        do_wb(l, ln, q);
        return DONE;
    }
    if (ln) {
        own_r = owned_by(l, ln, q->dev);
        if (line && !is_write_kind(q->kind))
            m = l->g.full & ~own_r;
        if (m & own_r)
            return fail(l, "%s from device %u for 0x%llx asks for words 0x%llx it owns",
                        spandex_msg_name(q->kind), q->dev, (unsigned long long)q->line,
                        (unsigned long long)(m & own_r));
    } else {
        int whole;
        if (line && !is_write_kind(q->kind))
            m = l->g.full;
        whole = m == l->g.full && (q->kind == SPANDEX_REQO || q->kind == SPANDEX_REQWT);
        ln = alloc(l, q->line, !whole);
        if (ln == NULL)
            return l->oom ? fail(l, "out of memory") : WAIT;
    }
    ln->lru = ++l->clock;
    switch (q->kind) {
    case SPANDEX_REQV: do_read(l, ln, q, m, SPANDEX_FWDREQV, SPANDEX_RSPV); break;
    case SPANDEX_REQS:
        switch (reqs_option(l, ln, m)) {
        case 1: do_share(l, ln, q, m); break;
        case 2: do_read(l, ln, q, m, SPANDEX_FWDREQV, SPANDEX_RSPV); break;
        default: do_own(l, ln, q, m, 1); break;
        }
        break;
    case SPANDEX_REQO: do_own(l, ln, q, m, 0); break;
    case SPANDEX_REQODATA: do_own(l, ln, q, m, 1); break;
    default: do_write(l, ln, q, own_r); break;
    }
    return DONE;
}

/* ------------------------------------------------------ transactions (3.4) */
static void complete(spandex_llc *l, lline *ln)
{
    txn t = ln->t;
    ln->t.open = 0;
    switch (t.kind) {
    case TX_EVICT:
        if (ln->dirty) {
            send(l, SPANDEX_MEMWR, 0, ln->line, l->g.full, 0, ln->data);
            mem_write(l, ln->line, ln->data);
        }
        ln->valid = 0;
        break;
    case TX_SHARE:
        ln->st = 'S';
        ln->sh |= t.sh_add;
        break;
    case TX_OWN:
        send(l, t.req.kind == SPANDEX_REQODATA ? SPANDEX_RSPODATA : SPANDEX_RSPO, t.req.dev, ln->line, t.mu,
             0, t.req.kind == SPANDEX_REQODATA ? ln->data : NULL);
        grant(l, ln, t.mu, t.req.dev);
        ln->st = 'V';
        ln->sh = 0;
        break;
    default:
        finish_write(l, ln, &t.req, t.mu);
        if (t.inv_sent) {
            ln->st = 'V';
            ln->sh = 0;
        }
        break;
    }
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
    txn *t = ln ? &ln->t : NULL;
    unsigned w;
    if (q->kind == SPANDEX_ACK) {
        if (t == NULL || !t->open || !(t->pend_ack >> q->dev & 1))
            return fail(l, "Ack from device %u for 0x%llx: no transaction waits for it", q->dev,
                        (unsigned long long)q->line);
        t->pend_ack &= ~(1ull << q->dev);
        ln->sh &= ~(1ull << q->dev);
    } else {
        if (t == NULL || !t->open || (q->mask & ~t->pend_rvk) || (q->mask & ~owned_by(l, ln, q->dev)))
            return fail(l, "RspRvkO from device %u for 0x%llx 0x%llx: no transaction waits for these words",
                        q->dev, (unsigned long long)q->line, (unsigned long long)q->mask);
        for (w = 0; w < l->g.words; w++)
            if (q->mask >> w & 1)
                store(ln, w, q->v[w]);
        t->pend_rvk &= ~q->mask;
    }
    if (t->pend_ack || t->pend_rvk)
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
    x->state = ln->st;
    x->sharers = ln->sh;
    x->dirty = ln->dirty;
    x->owned = ln->owned;
    for (w = 0; w < l->g.words; w++) {
        x->owner[w] = ln->owned >> w & 1 ? owner_of(l, ln, w) : 0;
        x->data[w] = ln->data[w];
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
    return ln && (ln->owned >> w & 1) ? (int)owner_of(l, ln, w) : -1;
}

unsigned spandex_llc_waiting(const spandex_llc *l, uint64_t line, unsigned dev)
{
    const lline *ln = find(l, line);
    size_t i;
    unsigned n = ln && ln->t.open && ln->t.kind != TX_EVICT && ln->t.req.dev == dev;
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
