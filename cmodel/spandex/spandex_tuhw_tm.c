/*
 * Spandex translation unit timing shell: the cycle-accurate model of the
 * generated RTL (docs/spandex.md, "The translation unit in RTL").
 *
 * Each input channel (c_req, rsp, fwd) lands in a one-entry buffer; each
 * output (req, out, c_rsp) is a register that holds its message until the
 * handshake. Every cycle one action runs, the first of
 *   A  the buffered response: merged into its MSHR entry (a Nack schedules
 *      a retry, or after nack_limit Nacks the replacement); a completed read
 *      gives the cache a FILL (the write buffer's words of the line laid
 *      over it), a completed atomic a VALUE;
 *   B  the buffered forward: FwdReqV gets a Nack, Inv an Ack (GPU coherence
 *      owns nothing);
 *   C  an entry's retry or replacement request;
 *   D  the write buffer's oldest line as one ReqWT, when the cache request
 *      is not a store it can take or a read that misses the buffer;
 *   E  the buffered cache request;
 * that can go: its output register empty at the start of the cycle, an
 * MSHR entry free where it needs one, no open request on its words. Every
 * choice is a function of the registers alone, so no ready depends on an
 * input of the same cycle. A response, forward or cache request nobody
 * expects sets err_o and is dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "spandex_tuhw.h"
#include "spandex_tuhw_port.h"

#define P(n) SPANDEX_TUHW_P_##n
#define W_MAX SPANDEX_LLC_WORDS_MAX

enum { K_V = 0, K_WT = 1, K_WTD = 2 }; /* MSHR entry kinds */
enum { ACT_NONE, ACT_RSP, ACT_FWD, ACT_RESEND, ACT_FLUSH, ACT_CREQ };

typedef struct {
    int v;
    unsigned type, op, req;
    uint64_t line, mask, data[W_MAX];
} buf;

typedef struct {
    int v;
    unsigned kind, nk;
    int snd;
    uint64_t line, mask, recv, rtr, rpw;
    uint64_t data[W_MAX];
} mshr;

typedef struct {
    int v;
    uint64_t line, mask, data[W_MAX];
} wbl;

typedef struct {
    int v;
    unsigned type, op, llc, dst;
    uint64_t line, mask, data[W_MAX];
} outr;

struct spandex_tuhw_tm {
    spandex_tuhw_cfg c;
    spandex_tuhw_geom g;
    spandex_tuhw_ports p;
    buf cq, rq, fq;
    outr ro, oo, co;
    mshr e[SPANDEX_TUHW_MSHR_MAX];
    wbl wb[SPANDEX_TUHW_WB_MAX];
    unsigned wh, wt; /* write buffer: head (oldest), tail (next free)   */
    int err;
};

/* The action of a cycle and what it works on. */
typedef struct {
    int kind;
    int idx;  /* ACT_RSP: matched entry or -1; ACT_RESEND: the entry    */
    int hit;  /* ACT_CREQ: write-buffer slot of the request's line, -1  */
    int bad;  /* the input is dropped as a protocol error               */
} act;

/* ------------------------------------------------------------ helpers -- */
static uint64_t wmask(const spandex_tuhw_tm *t) { return cohkit_mask64(t->g.word_bits); }

static int free_entry(const spandex_tuhw_tm *t)
{
    unsigned i;
    for (i = 0; i < t->c.mshr; i++)
        if (!t->e[i].v)
            return (int)i;
    return -1;
}

/* Words of line with an open request (retries included). */
static uint64_t busy(const spandex_tuhw_tm *t, uint64_t line)
{
    uint64_t b = 0;
    unsigned i;
    for (i = 0; i < t->c.mshr; i++)
        if (t->e[i].v && t->e[i].line == line)
            b |= t->e[i].mask & ~t->e[i].recv;
    return b;
}

static int line_open(const spandex_tuhw_tm *t, uint64_t line)
{
    unsigned i;
    for (i = 0; i < t->c.mshr; i++)
        if (t->e[i].v && t->e[i].line == line)
            return 1;
    return 0;
}

static int writes_open(const spandex_tuhw_tm *t)
{
    unsigned i;
    for (i = 0; i < t->c.mshr; i++)
        if (t->e[i].v && t->e[i].kind != K_V)
            return 1;
    return 0;
}

static int wb_hit(const spandex_tuhw_tm *t, uint64_t line)
{
    unsigned i;
    for (i = 0; i < t->c.wb; i++)
        if (t->wb[i].v && t->wb[i].line == line)
            return (int)i;
    return -1;
}

static unsigned wb_next(const spandex_tuhw_tm *t, unsigned i) { return i + 1 == t->c.wb ? 0 : i + 1; }

/* 1 when response type `type` with mask m may answer entry e. */
static int compat(const mshr *e, unsigned type, uint64_t m)
{
    switch (type) {
    case 0: /* RspV */
    case 9: /* Nack */
        return e->kind == K_V && !(m & e->rpw);
    case 4: /* RspWT+data */
        return e->kind == K_WTD || (e->kind == K_V && !(m & ~e->rpw));
    case 2: /* RspWT */
    case 3: /* RspO (X2: an owner completes ReqWT words) */
        return e->kind == K_WT;
    default: return 0;
    }
}

static int rsp_match(const spandex_tuhw_tm *t)
{
    unsigned i;
    const buf *r = &t->rq;
    for (i = 0; i < t->c.mshr; i++) {
        const mshr *e = &t->e[i];
        if (e->v && e->line == r->line && r->mask && !(r->mask & ~(e->mask & ~e->recv & ~e->rtr)) &&
            compat(e, r->type, r->mask))
            return (int)i;
    }
    return -1;
}

/* ------------------------------------------------------ the choice -- */
static int can_rsp(const spandex_tuhw_tm *t, act *a)
{
    const mshr *e;
    int i;
    if (!t->rq.v)
        return 0;
    i = rsp_match(t);
    a->kind = ACT_RSP;
    a->idx = i;
    a->bad = i < 0;
    if (i < 0)
        return 1;
    e = &t->e[i];
    if (t->rq.type != 9 && (e->recv | t->rq.mask) == e->mask && e->kind != K_WT && t->co.v)
        return 0;
    return 1;
}

static int can_fwd(const spandex_tuhw_tm *t, act *a)
{
    if (!t->fq.v)
        return 0;
    a->kind = ACT_FWD;
    a->bad = t->fq.type != 0 && t->fq.type != 5;
    return a->bad || !t->oo.v;
}

static int can_resend(const spandex_tuhw_tm *t, act *a)
{
    unsigned i;
    if (t->ro.v)
        return 0;
    for (i = 0; i < t->c.mshr; i++)
        if (t->e[i].v && t->e[i].snd) {
            a->kind = ACT_RESEND;
            a->idx = (int)i;
            return 1;
        }
    return 0;
}

static int can_flush(const spandex_tuhw_tm *t, act *a, int hit)
{
    const wbl *h = &t->wb[t->wh];
    const buf *q = &t->cq;
    if (!h->v || t->ro.v || free_entry(t) < 0 || (busy(t, h->line) & h->mask))
        return 0;
    if (q->v && q->type == SPANDEX_TUHW_C_ST && (hit >= 0 || !t->wb[t->wt].v))
        return 0;
    if (q->v && q->type == SPANDEX_TUHW_C_LD && hit < 0)
        return 0;
    a->kind = ACT_FLUSH;
    return 1;
}

static int can_creq(const spandex_tuhw_tm *t, act *a, int hit)
{
    const buf *q = &t->cq;
    int empty = !t->wb[t->wh].v;
    if (!q->v)
        return 0;
    a->kind = ACT_CREQ;
    a->hit = hit;
    a->bad = q->type > SPANDEX_TUHW_C_EVICT || (q->type <= SPANDEX_TUHW_C_RMW && q->mask == 0);
    if (a->bad)
        return 1;
    switch (q->type) {
    case SPANDEX_TUHW_C_LD: return hit < 0 && !line_open(t, q->line) && !t->ro.v && free_entry(t) >= 0;
    case SPANDEX_TUHW_C_ST: return hit >= 0 || !t->wb[t->wt].v;
    case SPANDEX_TUHW_C_RMW:
        return empty && !(busy(t, q->line) & q->mask) && !t->ro.v && free_entry(t) >= 0;
    case SPANDEX_TUHW_C_ACQ:
    case SPANDEX_TUHW_C_EVICT: return (q->type == SPANDEX_TUHW_C_EVICT || empty) && !t->co.v;
    default: return empty && !writes_open(t) && !t->co.v; /* REL */
    }
}

static act choose(const spandex_tuhw_tm *t)
{
    act a = {ACT_NONE, -1, -1, 0};
    int hit = t->cq.v ? wb_hit(t, t->cq.line) : -1;
    if (can_rsp(t, &a) || can_fwd(t, &a) || can_resend(t, &a) || can_flush(t, &a, hit) || can_creq(t, &a, hit))
        return a;
    a.kind = ACT_NONE;
    a.bad = 0;
    return a;
}

/* ------------------------------------------------------------ actions -- */
static void load_out(outr *o, unsigned type, unsigned llc, unsigned dst, uint64_t line, uint64_t mask,
                     const uint64_t *data)
{
    memset(o, 0, sizeof *o);
    o->v = 1;
    o->type = type;
    o->llc = llc;
    o->dst = dst;
    o->line = line;
    o->mask = mask;
    if (data)
        memcpy(o->data, data, sizeof o->data);
}

static void do_rsp(spandex_tuhw_tm *t, const act *a)
{
    mshr *e = &t->e[a->idx];
    const buf *r = &t->rq;
    unsigned w;
    if (r->type == 9) {
        e->rtr |= r->mask;
        e->snd = 1;
        if (e->nk < 15)
            e->nk++;
        return;
    }
    if (r->type == 0 || r->type == 4)
        for (w = 0; w < t->g.words; w++)
            if (r->mask >> w & 1)
                e->data[w] = r->data[w];
    e->recv |= r->mask;
    if (e->recv != e->mask)
        return;
    if (e->kind == K_V) {
        uint64_t d[W_MAX];
        int k = wb_hit(t, e->line);
        memcpy(d, e->data, sizeof d);
        if (k >= 0)
            for (w = 0; w < t->g.words; w++)
                if ((t->wb[k].mask & e->mask) >> w & 1)
                    d[w] = t->wb[k].data[w];
        load_out(&t->co, SPANDEX_TUHW_R_FILL, 0, 0, e->line, e->mask, d);
    } else if (e->kind == K_WTD) {
        load_out(&t->co, SPANDEX_TUHW_R_VALUE, 0, 0, e->line, e->mask, e->data);
    }
    memset(e, 0, sizeof *e);
}

static void do_fwd(spandex_tuhw_tm *t)
{
    const buf *f = &t->fq;
    if (f->type == 0)
        load_out(&t->oo, 9, 0, f->req, f->line, f->mask, NULL); /* Nack to the requestor */
    else
        load_out(&t->oo, 8, 1, 0, f->line, f->mask, NULL);      /* Ack to the LLC */
}

static void do_resend(spandex_tuhw_tm *t, int i)
{
    mshr *e = &t->e[i];
    int repl = e->nk >= t->c.nack_limit;
    load_out(&t->ro, repl ? 4 : 0, 0, 0, e->line, e->rtr, NULL);
    if (repl)
        e->rpw |= e->rtr;
    e->rtr = 0;
    e->snd = 0;
}

static mshr *alloc(spandex_tuhw_tm *t, unsigned kind, uint64_t line, uint64_t mask)
{
    mshr *e = &t->e[free_entry(t)];
    memset(e, 0, sizeof *e);
    e->v = 1;
    e->kind = kind;
    e->line = line;
    e->mask = mask;
    return e;
}

static void do_flush(spandex_tuhw_tm *t)
{
    wbl *h = &t->wb[t->wh];
    mshr *e = alloc(t, K_WT, h->line, h->mask);
    load_out(&t->ro, 2, 0, 0, h->line, h->mask, h->data);
    (void)e;
    memset(h, 0, sizeof *h);
    t->wh = wb_next(t, t->wh);
}

static void do_creq(spandex_tuhw_tm *t, const act *a)
{
    const buf *q = &t->cq;
    unsigned w;
    wbl *b;
    switch (q->type) {
    case SPANDEX_TUHW_C_LD:
        alloc(t, K_V, q->line, q->mask);
        load_out(&t->ro, 0, 0, 0, q->line, q->mask, NULL);
        return;
    case SPANDEX_TUHW_C_ST:
        if (a->hit >= 0) {
            b = &t->wb[a->hit];
        } else {
            b = &t->wb[t->wt];
            memset(b, 0, sizeof *b);
            b->v = 1;
            b->line = q->line;
            t->wt = wb_next(t, t->wt);
        }
        b->mask |= q->mask;
        for (w = 0; w < t->g.words; w++)
            if (q->mask >> w & 1)
                b->data[w] = q->data[w];
        return;
    case SPANDEX_TUHW_C_RMW:
        alloc(t, K_WTD, q->line, q->mask);
        load_out(&t->ro, 4, 0, 0, q->line, q->mask, q->data);
        t->ro.op = q->op;
        return;
    default: load_out(&t->co, SPANDEX_TUHW_R_DONE, 0, 0, q->line, 0, NULL); return;
    }
}

/* ------------------------------------------------------- ports, cycle -- */
static uint64_t get(const spandex_tuhw_tm *t, const uint64_t *in, int p) { return in[t->p.off[p]]; }

static void put(const spandex_tuhw_tm *t, uint64_t *out, int p, uint64_t v) { out[t->p.off[p]] = v; }

static int idle(const spandex_tuhw_tm *t)
{
    unsigned i;
    if (t->cq.v || t->rq.v || t->fq.v || t->ro.v || t->oo.v || t->co.v || t->wb[t->wh].v)
        return 0;
    for (i = 0; i < t->c.mshr; i++)
        if (t->e[i].v)
            return 0;
    return 1;
}

/* Which buffers the action of the cycle empties (their inputs may load). */
static void readies(const spandex_tuhw_tm *t, const act *a, int *cq, int *rq, int *fq)
{
    *rq = !t->rq.v || a->kind == ACT_RSP;
    *fq = !t->fq.v || a->kind == ACT_FWD;
    *cq = !t->cq.v || a->kind == ACT_CREQ;
}

void spandex_tuhw_tm_eval(const spandex_tuhw_tm *t, const uint64_t *in, uint64_t *out)
{
    act a = choose(t);
    int cq, rq, fq;
    (void)in;
    memset(out, 0, t->p.out_words * sizeof *out);
    readies(t, &a, &cq, &rq, &fq);
    put(t, out, P(c_req_ready_o), (uint64_t)cq);
    put(t, out, P(rsp_ready_o), (uint64_t)rq);
    put(t, out, P(fwd_ready_o), (uint64_t)fq);
    put(t, out, P(c_rsp_valid_o), (uint64_t)t->co.v);
    put(t, out, P(c_rsp_type_o), t->co.type);
    put(t, out, P(c_rsp_line_o), t->co.line);
    put(t, out, P(c_rsp_mask_o), t->co.mask);
    spandex_tuhw_put_words(&t->p, out, P(c_rsp_data_o), t->co.data, t->g.full);
    put(t, out, P(req_valid_o), (uint64_t)t->ro.v);
    put(t, out, P(req_type_o), t->ro.type);
    put(t, out, P(req_line_o), t->ro.line);
    put(t, out, P(req_mask_o), t->ro.mask);
    put(t, out, P(req_op_o), t->ro.op);
    spandex_tuhw_put_words(&t->p, out, P(req_data_o), t->ro.data, t->g.full);
    put(t, out, P(out_valid_o), (uint64_t)t->oo.v);
    put(t, out, P(out_type_o), t->oo.type);
    put(t, out, P(out_llc_o), t->oo.llc);
    put(t, out, P(out_dst_o), t->oo.dst);
    put(t, out, P(out_line_o), t->oo.line);
    put(t, out, P(out_mask_o), t->oo.mask);
    spandex_tuhw_put_words(&t->p, out, P(out_data_o), t->oo.data, 0);
    put(t, out, P(idle_o), (uint64_t)idle(t));
    put(t, out, P(err_o), (uint64_t)t->err);
}

static void load_buf(const spandex_tuhw_tm *t, const uint64_t *in, buf *b, int type, int line, int mask, int op,
                     int data, int req)
{
    memset(b, 0, sizeof *b);
    b->v = 1;
    b->type = (unsigned)get(t, in, type);
    b->line = get(t, in, line);
    b->mask = get(t, in, mask) & t->g.full;
    b->op = op >= 0 ? (unsigned)get(t, in, op) : 0;
    b->req = req >= 0 ? (unsigned)get(t, in, req) : 0;
    if (data >= 0) {
        unsigned w;
        spandex_tuhw_get_words(&t->p, in, data, b->data);
        for (w = 0; w < t->g.words; w++)
            b->data[w] &= wmask(t);
    }
}

void spandex_tuhw_tm_step(spandex_tuhw_tm *t, const uint64_t *in)
{
    act a;
    int cq, rq, fq;
    if (!in[0]) {
        spandex_tuhw_tm_reset(t);
        return;
    }
    a = choose(t);
    readies(t, &a, &cq, &rq, &fq);
    if (t->ro.v && get(t, in, P(req_ready_i)))
        t->ro.v = 0;
    if (t->oo.v && get(t, in, P(out_ready_i)))
        t->oo.v = 0;
    if (t->co.v && get(t, in, P(c_rsp_ready_i)))
        t->co.v = 0;
    if (a.bad)
        t->err = 1;
    else if (a.kind == ACT_RSP)
        do_rsp(t, &a);
    else if (a.kind == ACT_FWD)
        do_fwd(t);
    else if (a.kind == ACT_RESEND)
        do_resend(t, a.idx);
    else if (a.kind == ACT_FLUSH)
        do_flush(t);
    else if (a.kind == ACT_CREQ)
        do_creq(t, &a);
    if (a.kind == ACT_RSP)
        t->rq.v = 0;
    if (a.kind == ACT_FWD)
        t->fq.v = 0;
    if (a.kind == ACT_CREQ)
        t->cq.v = 0;
    if (cq && get(t, in, P(c_req_valid_i)))
        load_buf(t, in, &t->cq, P(c_req_type_i), P(c_req_line_i), P(c_req_mask_i), P(c_req_op_i),
                 P(c_req_data_i), -1);
    if (rq && get(t, in, P(rsp_valid_i)))
        load_buf(t, in, &t->rq, P(rsp_type_i), P(rsp_line_i), P(rsp_mask_i), -1, P(rsp_data_i), -1);
    if (fq && get(t, in, P(fwd_valid_i)))
        load_buf(t, in, &t->fq, P(fwd_type_i), P(fwd_line_i), P(fwd_mask_i), -1, -1, P(fwd_req_i));
}

/* ------------------------------------------------------------ new, reset */
spandex_tuhw_tm *spandex_tuhw_tm_new(const spandex_tuhw_cfg *c)
{
    spandex_tuhw_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->c = *c;
    spandex_tuhw_geom_of(c, &t->g);
    spandex_tuhw_ports_of(c, &t->p);
    return t;
}

void spandex_tuhw_tm_free(spandex_tuhw_tm *t) { free(t); }

void spandex_tuhw_tm_reset(spandex_tuhw_tm *t)
{
    spandex_tuhw_cfg c = t->c;
    spandex_tuhw_geom g = t->g;
    spandex_tuhw_ports p = t->p;
    memset(t, 0, sizeof *t);
    t->c = c;
    t->g = g;
    t->p = p;
}
