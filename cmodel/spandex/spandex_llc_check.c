/*
 * The Spandex LLC checker (spec 6, LLC1-LLC8): see spandex_llc_check.h.
 *
 * Its shadow, built from the trace and the LLC's messages only: per line
 * the value each word must hold (LLC7: the last value written in LLC order,
 * from its own memory image), the registered owner of each word (grants by
 * RspO/RspO+data, moves by FwdReqO/FwdReqO+data, releases by RspRvkO, ReqWB
 * from the owner and ReqWT's FwdReqO), a dirty bit, the Invs and
 * revocations outstanding; and the requests not yet fully answered, in
 * arrival order, each LLC response and forward attributed to the oldest
 * open request of its requestor on its line that it fits.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "spandex_llc_check.h"

typedef struct {
    uint64_t line;
    uint64_t val[SPANDEX_LLC_WORDS_MAX];
    int owner[SPANDEX_LLC_WORDS_MAX];
    uint64_t inv_out;  /* devices owing an Ack                               */
    uint64_t rvk_out;  /* words owing an RspRvkO                             */
    unsigned rvk_dev[SPANDEX_LLC_WORDS_MAX];
    uint64_t probe_ev; /* event that issued the outstanding probes           */
    int dirty;
} sline;

typedef struct {
    uint64_t seq;
    unsigned lineno;
    spandex_msg m;
    uint64_t remaining;
    int started;
} sreq;

struct spandex_llc_chk {
    spandex_llc_cfg c;
    spandex_llc_geom g;
    sline *ln;
    size_t nln, capln;
    uint64_t *mem_line; /* the memory image: lines written back           */
    uint64_t (*mem_val)[SPANDEX_LLC_WORDS_MAX];
    size_t nmem, capmem;
    sreq *rq;
    size_t nrq, caprq;
    uint64_t ev;
    unsigned lineno;
    char err[400];
};

static int bad(spandex_llc_chk *k, const char *inv, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad(spandex_llc_chk *k, const char *inv, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (k->err[0])
        return -1;
    n = snprintf(k->err, sizeof k->err, "%s line %u: ", inv, k->lineno);
    va_start(ap, fmt);
    vsnprintf(k->err + n, sizeof k->err - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

const char *spandex_llc_chk_error(const spandex_llc_chk *k) { return k->err; }

spandex_llc_chk *spandex_llc_chk_new(const spandex_llc_cfg *c)
{
    spandex_llc_chk *k = calloc(1, sizeof *k);
    if (k == NULL)
        return NULL;
    k->c = *c;
    spandex_llc_geom_of(c, &k->g);
    return k;
}

void spandex_llc_chk_free(spandex_llc_chk *k)
{
    if (k == NULL)
        return;
    free(k->ln);
    free(k->mem_line);
    free(k->mem_val);
    free(k->rq);
    free(k);
}

/* ----------------------------------------------------------------- shadow */
static int grow(void *pp, size_t *cap, size_t n, size_t size)
{
    void **p = pp;
    size_t c = *cap ? *cap * 2 : 16;
    void *q;
    if (n < *cap)
        return 0;
    q = realloc(*p, c * size);
    if (q == NULL)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static uint64_t mem_word(const spandex_llc_chk *k, uint64_t line, unsigned w)
{
    size_t i;
    for (i = 0; i < k->nmem; i++)
        if (k->mem_line[i] == line)
            return k->mem_val[i][w];
    return (line + (uint64_t)w * k->c.word) & cohkit_mask64(k->g.word_bits);
}

static int mem_store(spandex_llc_chk *k, uint64_t line, const uint64_t *v)
{
    size_t i, cap;
    for (i = 0; i < k->nmem && k->mem_line[i] != line; i++)
        ;
    if (i == k->nmem) {
        cap = k->capmem;
        if (grow(&k->mem_line, &cap, k->nmem, sizeof *k->mem_line))
            return -1;
        cap = k->capmem;
        if (grow(&k->mem_val, &cap, k->nmem, sizeof *k->mem_val))
            return -1;
        k->capmem = cap;
        k->mem_line[k->nmem++] = line;
    }
    memcpy(k->mem_val[i], v, k->g.words * sizeof *v);
    return 0;
}

/* The shadow of a line (created as never cached: memory values, no owner). */
static sline *sh(spandex_llc_chk *k, uint64_t line)
{
    size_t i;
    unsigned w;
    sline *s;
    for (i = 0; i < k->nln; i++)
        if (k->ln[i].line == line)
            return &k->ln[i];
    if (grow(&k->ln, &k->capln, k->nln, sizeof *k->ln))
        return NULL;
    s = &k->ln[k->nln++];
    memset(s, 0, sizeof *s);
    s->line = line;
    for (w = 0; w < k->g.words; w++) {
        s->val[w] = mem_word(k, line, w);
        s->owner[w] = -1;
    }
    return s;
}

static uint64_t owned_by(const spandex_llc_chk *k, const sline *s, unsigned d)
{
    uint64_t m = 0;
    unsigned w;
    for (w = 0; w < k->g.words; w++)
        if (s->owner[w] == (int)d)
            m |= 1ull << w;
    return m;
}

static uint64_t owned(const spandex_llc_chk *k, const sline *s)
{
    uint64_t m = 0;
    unsigned w;
    for (w = 0; w < k->g.words; w++)
        if (s->owner[w] >= 0)
            m |= 1ull << w;
    return m;
}

/* ----------------------------------------------------------------- inputs */
int spandex_llc_chk_input(spandex_llc_chk *k, const spandex_msg *in, unsigned lineno)
{
    sline *s;
    unsigned w;
    if (k->err[0])
        return -1;
    k->ev++;
    k->lineno = lineno;
    if ((s = sh(k, in->line)) == NULL)
        return bad(k, "LLC", "out of memory");
    if (in->kind == SPANDEX_ACK) {
        if (!(s->inv_out >> in->dev & 1))
            return bad(k, "LLC4", "Ack from device %u for 0x%llx accepted with no Inv outstanding", in->dev,
                       (unsigned long long)in->line);
        s->inv_out &= ~(1ull << in->dev);
        return 0;
    }
    if (in->kind == SPANDEX_RSPRVKO) {
        for (w = 0; w < k->g.words; w++) {
            if (!(in->mask >> w & 1))
                continue;
            if (!(s->rvk_out >> w & 1) || s->rvk_dev[w] != in->dev)
                return bad(k, "LLC4", "RspRvkO from device %u for 0x%llx word %u accepted unasked", in->dev,
                           (unsigned long long)in->line, w);
            s->val[w] = in->v[w];
            s->owner[w] = -1;
            s->dirty = 1;
        }
        s->rvk_out &= ~in->mask;
        return 0;
    }
    if (grow(&k->rq, &k->caprq, k->nrq, sizeof *k->rq))
        return bad(k, "LLC", "out of memory");
    memset(&k->rq[k->nrq], 0, sizeof k->rq[k->nrq]);
    k->rq[k->nrq].seq = k->ev;
    k->rq[k->nrq].lineno = lineno;
    k->rq[k->nrq].m = *in;
    k->rq[k->nrq].remaining = in->mask;
    k->nrq++;
    return 0;
}

/* ---------------------------------------------------------------- outputs */
static int fits(spandex_msg_kind req, spandex_msg_kind out)
{
    switch (req) {
    case SPANDEX_REQV: return out == SPANDEX_FWDREQV || out == SPANDEX_RSPV;
    case SPANDEX_REQS:
        return out == SPANDEX_FWDREQV || out == SPANDEX_RSPV || out == SPANDEX_FWDREQS || out == SPANDEX_RSPS ||
               out == SPANDEX_FWDREQODATA || out == SPANDEX_RSPODATA;
    case SPANDEX_REQO: return out == SPANDEX_FWDREQO || out == SPANDEX_RSPO;
    case SPANDEX_REQODATA: return out == SPANDEX_FWDREQODATA || out == SPANDEX_RSPODATA;
    case SPANDEX_REQWT: return out == SPANDEX_FWDREQO || out == SPANDEX_RSPWT;
    case SPANDEX_REQWTDATA: return out == SPANDEX_RSPWTDATA;
    case SPANDEX_REQWB: return out == SPANDEX_RSPWB;
    default: return 0;
    }
}

/* The open request an LLC response or forward answers (index), or -1. */
static long attribute(spandex_llc_chk *k, const spandex_msg *o, unsigned r, sline *s)
{
    size_t i;
    for (i = 0; i < k->nrq; i++) {
        sreq *q = &k->rq[i];
        if (q->m.dev != r || q->m.line != o->line || !fits(q->m.kind, o->kind))
            continue;
        if (!q->started && k->c.gran == SPANDEX_LLC_GRAN_LINE && q->m.kind != SPANDEX_REQWT &&
            q->m.kind != SPANDEX_REQWTDATA && q->m.kind != SPANDEX_REQWB)
            q->remaining = k->g.full & ~owned_by(k, s, r);
        return (long)i;
    }
    return -1;
}

/* LLC5: no request is answered while its line is blocked by probes of an
 * earlier event, or before an older request of its line. */
static int order_ok(spandex_llc_chk *k, const sreq *q, const sline *s)
{
    size_t i;
    if ((s->inv_out || s->rvk_out) && s->probe_ev < k->ev)
        return bad(k, "LLC5", "%s of line %u answered while 0x%llx is blocked", spandex_msg_name(q->m.kind),
                   q->lineno, (unsigned long long)s->line);
    for (i = 0; i < k->nrq && &k->rq[i] != q; i++)
        if (k->rq[i].m.line == q->m.line && k->rq[i].remaining)
            return bad(k, "LLC5", "%s of line %u answered before the older %s of line %u",
                       spandex_msg_name(q->m.kind), q->lineno, spandex_msg_name(k->rq[i].m.kind),
                       k->rq[i].lineno);
    return 0;
}

/* Data of an LLC read response: unowned words holding their last value. */
static int read_ok(spandex_llc_chk *k, const spandex_msg *o, const sline *s)
{
    unsigned w;
    for (w = 0; w < k->g.words; w++) {
        if (!(o->mask >> w & 1))
            continue;
        if (s->owner[w] >= 0)
            return bad(k, "LLC3", "%s %u 0x%llx answers word %u, owned by device %d",
                       spandex_msg_name(o->kind), o->dev, (unsigned long long)o->line, w, s->owner[w]);
        if (o->v[w] != s->val[w])
            return bad(k, "LLC7", "%s %u 0x%llx word %u is 0x%llx, the last value written is 0x%llx",
                       spandex_msg_name(o->kind), o->dev, (unsigned long long)o->line, w,
                       (unsigned long long)o->v[w], (unsigned long long)s->val[w]);
    }
    return 0;
}

/* The effect of an LLC response on the shadow. */
static int apply_rsp(spandex_llc_chk *k, const spandex_msg *o, const sreq *q, sline *s)
{
    unsigned w;
    if ((q->m.kind == SPANDEX_REQWB || q->m.kind == SPANDEX_REQWTDATA) && o->mask != q->m.mask)
        return bad(k, "LLC3", "%s of line %u answered for 0x%llx, not its whole mask 0x%llx",
                   spandex_msg_name(q->m.kind), q->lineno, (unsigned long long)o->mask,
                   (unsigned long long)q->m.mask);
    if ((o->kind == SPANDEX_RSPV || o->kind == SPANDEX_RSPS || o->kind == SPANDEX_RSPODATA) && read_ok(k, o, s))
        return -1;
    for (w = 0; w < k->g.words; w++) {
        if (!(o->mask >> w & 1))
            continue;
        switch (o->kind) {
        case SPANDEX_RSPO:
        case SPANDEX_RSPODATA: s->owner[w] = (int)o->dev; break;
        case SPANDEX_RSPWT:
            if (s->owner[w] >= 0)
                return bad(k, "LLC1", "RspWT %u 0x%llx word %u owned by device %d", o->dev,
                           (unsigned long long)o->line, w, s->owner[w]);
            s->val[w] = q->m.v[w];
            s->dirty = 1;
            break;
        case SPANDEX_RSPWTDATA:
            if (s->owner[w] >= 0)
                return bad(k, "LLC1", "RspWT+data %u 0x%llx word %u still owned by device %d", o->dev,
                           (unsigned long long)o->line, w, s->owner[w]);
            if (o->v[w] != s->val[w])
                return bad(k, "LLC7", "RspWT+data %u 0x%llx word %u returns 0x%llx, the last value written is 0x%llx",
                           o->dev, (unsigned long long)o->line, w, (unsigned long long)o->v[w],
                           (unsigned long long)s->val[w]);
            if (q->m.op != SPANDEX_OP_RD) {
                s->val[w] = spandex_op_apply(q->m.op, s->val[w], q->m.v[w], k->g.word_bits);
                s->dirty = 1;
            }
            break;
        case SPANDEX_RSPWB:
            if (s->owner[w] == (int)o->dev) {
                s->val[w] = q->m.v[w];
                s->owner[w] = -1;
                s->dirty = 1;
            }
            break;
        default: break;
        }
    }
    return 0;
}

/* The effect of a forward on the shadow; every word must be the
 * destination's (LLC1). */
static int apply_fwd(spandex_llc_chk *k, const spandex_msg *o, const sreq *q, sline *s)
{
    unsigned w;
    for (w = 0; w < k->g.words; w++) {
        if (!(o->mask >> w & 1))
            continue;
        if (s->owner[w] != (int)o->dev || o->dev == q->m.dev)
            return bad(k, "LLC1", "%s to device %u for 0x%llx word %u, whose owner is %d (requestor %u)",
                       spandex_msg_name(o->kind), o->dev, (unsigned long long)o->line, w, s->owner[w],
                       q->m.dev);
        if (o->kind == SPANDEX_FWDREQS) {
            if (!(s->inv_out || s->rvk_out))
                s->probe_ev = k->ev;
            if (s->rvk_out >> w & 1)
                return bad(k, "LLC4", "FwdReqS to device %u for 0x%llx word %u already being revoked", o->dev,
                           (unsigned long long)o->line, w);
            s->rvk_out |= 1ull << w;
            s->rvk_dev[w] = o->dev;
        } else if (o->kind != SPANDEX_FWDREQV && q->m.kind == SPANDEX_REQWT) {
            s->owner[w] = -1;
            s->val[w] = q->m.v[w];
            s->dirty = 1;
        } else if (o->kind != SPANDEX_FWDREQV) {
            s->owner[w] = (int)q->m.dev;
        }
    }
    return 0;
}

static int answer(spandex_llc_chk *k, const spandex_msg *o, sline *s)
{
    int fwd = spandex_msg_net(o->kind) == SPANDEX_NET_FWD;
    unsigned r = fwd ? o->req : o->dev;
    long i = attribute(k, o, r, s);
    sreq *q;
    if (i < 0)
        return bad(k, "LLC3", "%s to device %u for 0x%llx answers no open request of device %u",
                   spandex_msg_name(o->kind), o->dev, (unsigned long long)o->line, r);
    q = &k->rq[i];
    if (order_ok(k, q, s))
        return -1;
    /* Table II: a ReqV of a device of --extra-words may get more words than
     * it asked for; read_ok holds them to the same rules (unowned, latest) */
    if ((o->mask & ~q->remaining) &&
        !(o->kind == SPANDEX_RSPV && q->m.kind == SPANDEX_REQV && (k->c.extra >> o->dev & 1) &&
          (o->mask & q->remaining)))
        return bad(k, "LLC3", "%s for 0x%llx covers 0x%llx, more than what %s of line %u still waits for (0x%llx)",
                   spandex_msg_name(o->kind), (unsigned long long)o->line, (unsigned long long)o->mask,
                   spandex_msg_name(q->m.kind), q->lineno, (unsigned long long)q->remaining);
    if (fwd ? apply_fwd(k, o, q, s) : apply_rsp(k, o, q, s))
        return -1;
    q->started = 1;
    q->remaining &= ~o->mask;
    if (q->remaining == 0) {
        memmove(q, q + 1, (k->nrq - (size_t)i - 1) * sizeof *q);
        k->nrq--;
    }
    return 0;
}

static int probe(spandex_llc_chk *k, const spandex_msg *o, sline *s)
{
    unsigned w;
    if (!(s->inv_out || s->rvk_out))
        s->probe_ev = k->ev;
    if (o->kind == SPANDEX_INV) {
        if (s->inv_out >> o->dev & 1)
            return bad(k, "LLC4", "a second Inv to device %u for 0x%llx before its Ack", o->dev,
                       (unsigned long long)o->line);
        s->inv_out |= 1ull << o->dev;
        return 0;
    }
    for (w = 0; w < k->g.words; w++) {
        if (!(o->mask >> w & 1))
            continue;
        if (s->owner[w] != (int)o->dev)
            return bad(k, "LLC1", "RvkO to device %u for 0x%llx word %u, whose owner is %d", o->dev,
                       (unsigned long long)o->line, w, s->owner[w]);
        if (s->rvk_out >> w & 1)
            return bad(k, "LLC4", "RvkO to device %u for 0x%llx word %u already being revoked", o->dev,
                       (unsigned long long)o->line, w);
        s->rvk_out |= 1ull << w;
        s->rvk_dev[w] = o->dev;
    }
    return 0;
}

static int memory(spandex_llc_chk *k, const spandex_msg *o, sline *s)
{
    unsigned w;
    if (owned(k, s))
        return bad(k, "LLC2", "%s 0x%llx while words 0x%llx are owned", spandex_msg_name(o->kind),
                   (unsigned long long)o->line, (unsigned long long)owned(k, s));
    if (o->kind == SPANDEX_MEMRD) {
        if (s->dirty)
            return bad(k, "LLC7", "MemRd 0x%llx re-reads a line whose writes were never written back",
                       (unsigned long long)o->line);
        for (w = 0; w < k->g.words; w++)
            s->val[w] = mem_word(k, o->line, w);
        s->dirty = 0;
        return 0;
    }
    if (o->mask != 0 && o->mask != k->g.full)
        return bad(k, "LLC8", "MemWr 0x%llx is not the whole line", (unsigned long long)o->line);
    if (!s->dirty)
        return bad(k, "LLC8", "MemWr 0x%llx of a clean line", (unsigned long long)o->line);
    for (w = 0; w < k->g.words; w++)
        if (o->v[w] != s->val[w])
            return bad(k, "LLC7", "MemWr 0x%llx word %u is 0x%llx, the last value written is 0x%llx",
                       (unsigned long long)o->line, w, (unsigned long long)o->v[w],
                       (unsigned long long)s->val[w]);
    s->dirty = 0;
    return mem_store(k, o->line, o->v) ? bad(k, "LLC", "out of memory") : 0;
}

int spandex_llc_chk_output(spandex_llc_chk *k, const spandex_msg *o)
{
    sline *s;
    if (k->err[0])
        return -1;
    if ((s = sh(k, o->line)) == NULL)
        return bad(k, "LLC", "out of memory");
    switch (spandex_msg_net(o->kind)) {
    case SPANDEX_NET_MEM: return memory(k, o, s);
    case SPANDEX_NET_FWD:
        if (o->kind == SPANDEX_INV || o->kind == SPANDEX_RVKO)
            return probe(k, o, s);
        return answer(k, o, s);
    case SPANDEX_NET_RSP:
        if (o->kind == SPANDEX_ACK || o->kind == SPANDEX_NACK || o->kind == SPANDEX_RSPRVKO)
            return bad(k, "LLC3", "the LLC sent %s", spandex_msg_name(o->kind));
        return answer(k, o, s);
    default: return bad(k, "LLC3", "the LLC sent the request %s", spandex_msg_name(o->kind));
    }
}

/* ------------------------------------------------------------ state, end */
int spandex_llc_chk_line(spandex_llc_chk *k, const spandex_llc_line_info *x)
{
    sline *s = sh(k, x->line);
    unsigned w;
    if (s == NULL)
        return bad(k, "LLC", "out of memory");
    if (x->blocked != ((s->inv_out | s->rvk_out) != 0) || x->pend_ack != s->inv_out ||
        x->pend_rvk != s->rvk_out)
        return bad(k, "LLC4", "0x%llx: transaction %s, Acks owed 0x%llx, words owed 0x%llx; outstanding Invs 0x%llx, revocations 0x%llx",
                   (unsigned long long)x->line, x->blocked ? "open" : "closed", (unsigned long long)x->pend_ack,
                   (unsigned long long)x->pend_rvk, (unsigned long long)s->inv_out,
                   (unsigned long long)s->rvk_out);
    if (!x->blocked && x->state == 'S' && x->sharers == 0)
        return bad(k, "LLC6", "0x%llx is S with no sharer", (unsigned long long)x->line);
    for (w = 0; w < k->g.words; w++) {
        int o = x->owned >> w & 1 ? (int)x->owner[w] : -1;
        if (o != s->owner[w])
            return bad(k, "LLC1", "0x%llx word %u: the LLC registers owner %d, the messages say %d",
                       (unsigned long long)x->line, w, o, s->owner[w]);
        if (o < 0 && x->data[w] != s->val[w])
            return bad(k, "LLC7", "0x%llx word %u holds 0x%llx, the last value written is 0x%llx",
                       (unsigned long long)x->line, w, (unsigned long long)x->data[w],
                       (unsigned long long)s->val[w]);
    }
    return 0;
}

int spandex_llc_chk_state(spandex_llc_chk *k, const spandex_llc *l)
{
    size_t n, i;
    spandex_llc_line_info *x;
    spandex_llc_line_info one;
    if (k->err[0])
        return -1;
    if (l == NULL)
        return 0;
    n = spandex_llc_lines(l, NULL, 0);
    x = n ? malloc(n * sizeof *x) : NULL;
    if (n && x == NULL)
        return bad(k, "LLC", "out of memory");
    spandex_llc_lines(l, x, n);
    for (i = 0; i < n && spandex_llc_chk_line(k, &x[i]) == 0; i++)
        ;
    free(x);
    if (k->err[0])
        return -1;
    /* LLC2: owned words are resident */
    for (i = 0; i < k->nln; i++)
        if (owned(k, &k->ln[i]) && !spandex_llc_line(l, k->ln[i].line, &one))
            return bad(k, "LLC2", "0x%llx left the LLC while words 0x%llx are owned",
                       (unsigned long long)k->ln[i].line, (unsigned long long)owned(k, &k->ln[i]));
    /* every open request is blocked, held behind an older one of its line,
     * or waiting for a way */
    for (i = 0; i < k->nrq; i++) {
        const sreq *q = &k->rq[i];
        const sline *s = sh(k, q->m.line);
        size_t j;
        int behind = 0;
        for (j = 0; j < i && !behind; j++)
            behind = k->rq[j].m.line == q->m.line;
        if (behind || (s->inv_out | s->rvk_out) || !spandex_llc_line(l, q->m.line, &one))
            continue;
        return bad(k, "LLC5", "%s of line %u is left unanswered on 0x%llx, which nothing blocks",
                   spandex_msg_name(q->m.kind), q->lineno, (unsigned long long)q->m.line);
    }
    return 0;
}

int spandex_llc_chk_end(spandex_llc_chk *k, const spandex_llc *l)
{
    size_t i;
    int quiet = 1;
    if (k->err[0])
        return -1;
    for (i = 0; i < k->nln; i++)
        quiet &= (k->ln[i].inv_out | k->ln[i].rvk_out) == 0;
    if (quiet && k->nrq)
        return bad(k, "LLC3", "%s of line %u is never fully answered (0x%llx left)",
                   spandex_msg_name(k->rq[0].m.kind), k->rq[0].lineno, (unsigned long long)k->rq[0].remaining);
    (void)l;
    return 0;
}
