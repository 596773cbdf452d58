/*
 * A GPU-coherence, DeNovo or MESI device of the cycle-level Spandex system
 * as a block of unit spandex-tu (its timing shell or the Verilated
 * spandex_tu_default, spandex_tu_denovo, spandex_tu_mesi) with a small L1
 * of its kind on its cache port (spandex_vsys.h, docs/spandex.md "Verilated
 * system"). The DeNovo and MESI L1s are described in their sections below;
 * the network side and the reporting are shared.
 *
 * The GPU L1: per word a valid bit and the data, unbounded; write-through with
 * no allocate on a store miss (a store writes the L1's copy when the word
 * is valid). It issues the device's program operations in program order
 * with the blocking rules of spec 9.4: a LD that hits completes at once; a
 * LD that misses asks the unit for the whole line (Table II: GPU coherence
 * reads lines) and blocks until its FILL, which installs the words as
 * valid; ST goes to the unit and does not block; RMW blocks until its
 * VALUE, which leaves the word invalid (III-A); ACQ blocks until its DONE,
 * then every valid word is invalidated (self-invalidation); REL blocks
 * until its DONE; EVICT drops the line's words at once and completes on
 * its DONE without blocking. The unit answers on c_rsp in the order it
 * took the requests that have an answer.
 *
 * Store completions. The unit reports no per-store completion: a store is
 * complete when its ReqWT is answered, which the cache sees only at the
 * next REL's DONE (every earlier store complete) or when the unit is idle
 * (idle_o: nothing buffered or open, so every store it took is answered).
 * The C lines of stores are written there, in program order, before the
 * REL's own C line (spec 9.5 item 3; docs/paper-notes.md).
 *
 * The network side follows spandex_vsys.h: the oldest message due at the
 * device is driven on fwd_*_i (the forward network) or rsp_*_i (any other)
 * and taken on the handshake; req_*_o and out_*_o are always ready and
 * sent through the environment.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "spandex_tuhw_port.h"
#include "spandex_vsys.h"

#define NONE ((size_t)-1)
#define P(name) SPANDEX_TUHW_P_##name

/* A line of the L1: GPU: valid words; DeNovo: V (valid), PO and O words
 * (the rest I); MESI: the line's state ms (MS_I, MS_S, MS_O: E/M) and the
 * operation whose request is open on it (mop, when mbusy). */
typedef struct {
    uint64_t line, valid, po, o;
    uint64_t data[SPANDEX_LLC_WORDS_MAX];
    unsigned ms, mbusy;
    size_t mop;
    uint64_t wbm; /* MESI, MS_W: the words kept for the ReqWB (their data) */
} vl1;

enum { MS_I = 0, MS_S = 1, MS_O = 2, MS_W = 3 };

/* DeNovo: the cache request presented (held until the unit takes it). */
typedef struct {
    int v;
    size_t op;
    unsigned type;
    uint64_t line, mask;
    uint64_t data[SPANDEX_LLC_WORDS_MAX];
} dn_creq;

/* DeNovo: the probe taken and its answer (presented from the next cycle
 * until the unit takes it; its words and data do not change meanwhile). */
typedef struct {
    int v;
    unsigned down;
    uint64_t line, mask, held;
    uint64_t data[SPANDEX_LLC_WORDS_MAX];
} dn_probe;

typedef struct {
    cmp_block *b;
    unsigned id;
    const spandex_sop *ops;
    size_t nops;
    spandex_tu_env env;
    spandex_tuhw_ports p;
    spandex_tuhw_geom g;
    unsigned line_bytes, word_bytes;
    size_t *q, qh, qt;      /* program operations queued                  */
    size_t blocked;         /* the operation the device waits for         */
    size_t *wait, wh, wt;   /* operations waiting for a c_rsp, in order   */
    size_t *st, nst;        /* stores the unit took, not yet reported     */
    vl1 *l1;
    size_t nl1, cl1;
    int net;                /* this cycle's network input: 0, 1 fwd, 2 rsp */
    int creq;               /* this cycle's c_req: 1 the queue's head     */
    int failed;
    int dn;                 /* a DeNovo device (spandex_tu_denovo)        */
    int ms;                 /* a MESI device (spandex_tu_mesi)            */
    dn_creq cr;             /* DeNovo, MESI: the c_req presented          */
    dn_probe pb;            /* DeNovo, MESI: the probe being answered     */
} vtu;

/* the DeNovo device's cycle (below; the MESI device drives as it does) */
static void dn_drive(vtu *d, spvsys *s);
static void dn_tick(vtu *d, spvsys *s);
static void ms_tick(vtu *d, spvsys *s);
static void own_issue(vtu *d);

/* ------------------------------------------------------------- the L1 */

static vl1 *l1_get(vtu *d, uint64_t line, int make)
{
    size_t i;
    for (i = 0; i < d->nl1; i++)
        if (d->l1[i].line == line)
            return &d->l1[i];
    if (!make)
        return NULL;
    if (d->nl1 == d->cl1) {
        size_t c = d->cl1 ? 2 * d->cl1 : 16;
        vl1 *p = realloc(d->l1, c * sizeof *p);
        if (p == NULL)
            return NULL;
        d->l1 = p;
        d->cl1 = c;
    }
    memset(&d->l1[d->nl1], 0, sizeof d->l1[0]);
    d->l1[d->nl1].line = line;
    return &d->l1[d->nl1++];
}

static uint64_t line_addr(const vtu *d, uint64_t a) { return a >> d->g.line_bits; }
static unsigned word_of(const vtu *d, uint64_t a) { return (unsigned)(a / d->word_bytes % d->g.words); }

/* 1 when operation i is a LD the L1 answers (its word valid). */
static int ld_hit(vtu *d, size_t i, uint64_t *v)
{
    const spandex_sop *o = &d->ops[i];
    vl1 *l = l1_get(d, line_addr(d, o->addr), 0);
    unsigned w = word_of(d, o->addr);
    if (o->kind != SPANDEX_SOP_LD || !l || !(l->valid >> w & 1))
        return 0;
    *v = l->data[w];
    return 1;
}

static void fail(vtu *d, const char *what)
{
    char b[160];
    if (d->failed)
        return;
    d->failed = 1;
    snprintf(b, sizeof b, "the spandex-tu block of device %u %s", d->id, what);
    d->env.fail(d->env.ctx, b);
}

/* ---------------------------------------------------------- the ports */

static void put(vtu *d, int port, uint64_t v) { d->b->in[d->p.off[port]] = v; }
static uint64_t get(const vtu *d, int port) { return d->b->out[d->p.off[port]]; }

/* The c_req of operation i (not a LD hit). */
static void put_creq(vtu *d, size_t i)
{
    static const unsigned types[] = {SPANDEX_TUHW_C_LD,  SPANDEX_TUHW_C_ST,  SPANDEX_TUHW_C_RMW,
                                     SPANDEX_TUHW_C_ACQ, SPANDEX_TUHW_C_REL, SPANDEX_TUHW_C_EVICT};
    const spandex_sop *o = &d->ops[i];
    uint64_t v[SPANDEX_LLC_WORDS_MAX] = {0}, mask = 0;
    unsigned w = word_of(d, o->addr);
    put(d, P(c_req_valid_i), 1);
    put(d, P(c_req_type_i), types[o->kind]);
    if (o->kind == SPANDEX_SOP_ACQ || o->kind == SPANDEX_SOP_REL)
        return;
    put(d, P(c_req_line_i), line_addr(d, o->addr));
    if (o->kind == SPANDEX_SOP_LD || o->kind == SPANDEX_SOP_EVICT)
        mask = d->g.full;
    if (o->kind == SPANDEX_SOP_ST || o->kind == SPANDEX_SOP_RMW) {
        mask = 1ull << w;
        v[w] = o->v;
    }
    put(d, P(c_req_mask_i), mask);
    put(d, P(c_req_op_i), o->kind == SPANDEX_SOP_RMW ? o->op : 0);
    spandex_ports_put_words(&d->p, d->b->in, P(c_req_data_i), v, mask);
}

/* The oldest message due at the device on fwd_*_i or rsp_*_i. */
static void put_net(vtu *d, spvsys *s)
{
    unsigned src;
    spandex_msg m;
    d->net = 0;
    if (!spvsys_peek(s, d->id, &src, &m))
        return;
    if (spandex_msg_net(m.kind) == SPANDEX_NET_FWD) {
        put(d, P(fwd_valid_i), 1);
        put(d, P(fwd_type_i), spandex_msg_code(m.kind));
        put(d, P(fwd_line_i), m.line >> d->g.line_bits);
        put(d, P(fwd_mask_i), m.mask);
        put(d, P(fwd_req_i), m.req);
        d->net = 1;
    } else {
        put(d, P(rsp_valid_i), 1);
        put(d, P(rsp_type_i), spandex_msg_code(m.kind));
        put(d, P(rsp_line_i), m.line >> d->g.line_bits);
        put(d, P(rsp_mask_i), m.mask);
        if (spandex_msg_has_data(m.kind))
            spandex_ports_put_words(&d->p, d->b->in, P(rsp_data_i), m.v, m.mask);
        d->net = 2;
    }
}

static void vtu_drive(void *dv, spvsys *s, unsigned id)
{
    vtu *d = dv;
    uint64_t v;
    (void)id;
    if (d->dn || d->ms) {
        dn_drive(d, s);
        return;
    }
    put(d, P(req_ready_i), 1);
    put(d, P(out_ready_i), 1);
    put(d, P(c_rsp_ready_i), 1);
    put_net(d, s);
    d->creq = d->blocked == NONE && d->qh < d->qt && !ld_hit(d, d->q[d->qh], &v);
    if (d->creq)
        put_creq(d, d->q[d->qh]);
}

/* The unit's request (req port) or response (out port) of the cycle. */
static void send_out(vtu *d, int req)
{
    spandex_msg m;
    unsigned dst = SPANDEX_TU_LLC;
    int k = spandex_msg_of(req ? SPANDEX_NET_REQ : SPANDEX_NET_RSP,
                    (unsigned)get(d, req ? P(req_type_o) : P(out_type_o)));
    if (k < 0) {
        fail(d, req ? "sent a request of no known type" : "sent a response of no known type");
        return;
    }
    memset(&m, 0, sizeof m);
    m.kind = (spandex_msg_kind)k;
    m.dev = d->id;
    m.line = get(d, req ? P(req_line_o) : P(out_line_o)) << d->g.line_bits;
    m.mask = get(d, req ? P(req_mask_o) : P(out_mask_o));
    if (req)
        m.op = (unsigned)get(d, P(req_op_o));
    else if (!(get(d, P(out_llc_o)) & 1))
        dst = (unsigned)get(d, P(out_dst_o));
    spandex_ports_get_words(&d->p, d->b->out, req ? P(req_data_o) : P(out_data_o), m.v);
    d->env.send(d->env.ctx, d->id, dst, &m);
}

/* ------------------------------------------------ the cache's answers */

static void complete(vtu *d, size_t i, int has_v, uint64_t v)
{
    if (d->blocked == i)
        d->blocked = NONE;
    d->env.done(d->env.ctx, i, has_v, v);
}

/* The C lines of every store the unit took (all complete). */
static void stores_done(vtu *d)
{
    size_t k;
    for (k = 0; k < d->nst; k++)
        d->env.done(d->env.ctx, d->st[k], 0, 0);
    d->nst = 0;
}

/* A c_rsp: the answer of the oldest operation waiting for one. */
static void c_rsp(vtu *d)
{
    static const unsigned want[] = {SPANDEX_TUHW_R_FILL, 0, SPANDEX_TUHW_R_VALUE, SPANDEX_TUHW_R_DONE,
                                    SPANDEX_TUHW_R_DONE, SPANDEX_TUHW_R_DONE};
    unsigned type = (unsigned)get(d, P(c_rsp_type_o)), w;
    uint64_t v[SPANDEX_LLC_WORDS_MAX], line = get(d, P(c_rsp_line_o)), mask = get(d, P(c_rsp_mask_o));
    const spandex_sop *o;
    size_t i, k;
    vl1 *l;
    if (d->wh == d->wt || type != want[d->ops[d->wait[d->wh]].kind]) {
        fail(d, "answered the cache with nothing of that type asked");
        return;
    }
    i = d->wait[d->wh++];
    o = &d->ops[i];
    w = word_of(d, o->addr);
    spandex_ports_get_words(&d->p, d->b->out, P(c_rsp_data_o), v);
    if ((o->kind == SPANDEX_SOP_LD || o->kind == SPANDEX_SOP_RMW) &&
        (line != line_addr(d, o->addr) || !(mask >> w & 1))) {
        fail(d, "answered a load or an atomic without its word");
        return;
    }
    l = o->kind == SPANDEX_SOP_ST ? NULL : l1_get(d, line_addr(d, o->addr), o->kind == SPANDEX_SOP_LD);
    if (o->kind == SPANDEX_SOP_LD) {
        if (l == NULL) {
            fail(d, "out of memory");
            return;
        }
        for (k = 0; k < d->g.words; k++)
            if (mask >> k & 1)
                l->data[k] = v[k];
        l->valid |= mask;
        complete(d, i, 1, v[w]);
    } else if (o->kind == SPANDEX_SOP_RMW) {
        if (l)
            l->valid &= ~(1ull << w);
        complete(d, i, 1, v[w]);
    } else {
        if (o->kind == SPANDEX_SOP_ACQ)
            for (k = 0; k < d->nl1; k++)
                d->l1[k].valid = 0;
        if (o->kind == SPANDEX_SOP_REL)
            stores_done(d);
        complete(d, i, 0, 0);
    }
}

/* The queue's head taken by the unit. */
static void c_req_taken(vtu *d)
{
    size_t i = d->q[d->qh++];
    const spandex_sop *o = &d->ops[i];
    vl1 *l = l1_get(d, line_addr(d, o->addr), 0);
    unsigned w = word_of(d, o->addr);
    d->env.issued(d->env.ctx, i);
    if (o->kind == SPANDEX_SOP_ST) {
        if (l && l->valid >> w & 1)
            l->data[w] = o->v; /* write-through: the valid copy follows */
        d->st[d->nst++] = i;
        return;
    }
    if (o->kind == SPANDEX_SOP_EVICT) {
        if (l)
            l->valid = 0;
    } else {
        d->blocked = i;
    }
    d->wait[d->wt++] = i;
}

static void vtu_tick(void *dv, spvsys *s, unsigned id)
{
    vtu *d = dv;
    uint64_t v;
    (void)id;
    if (d->ms) {
        ms_tick(d, s);
        return;
    }
    if (d->dn) {
        dn_tick(d, s);
        return;
    }
    if ((d->net == 1 && (get(d, P(fwd_ready_o)) & 1)) || (d->net == 2 && (get(d, P(rsp_ready_o)) & 1)))
        spvsys_take(s, d->id);
    if (get(d, P(req_valid_o)) & 1)
        send_out(d, 1);
    if (get(d, P(out_valid_o)) & 1)
        send_out(d, 0);
    if (get(d, P(err_o)) & 1)
        fail(d, "raised err_o");
    if (d->failed)
        return;
    if (get(d, P(c_rsp_valid_o)) & 1)
        c_rsp(d);
    if (get(d, P(idle_o)) & 1) /* every store taken before this cycle answered */
        stores_done(d);
    if (d->creq && (get(d, P(c_req_ready_o)) & 1))
        c_req_taken(d);
    while (!d->failed && d->blocked == NONE && d->qh < d->qt && ld_hit(d, d->q[d->qh], &v)) {
        size_t i = d->q[d->qh++];
        d->env.issued(d->env.ctx, i);
        complete(d, i, 1, v);
    }
}

/* ------------------------------------------------------- the DeNovo L1 */

/* The DeNovo cache (docs/spandex.md "The DeNovo kind"): per word I, V, PO
 * or O with the data. The device issues its operations in program order:
 * a LD of a V, PO or O word, a ST to an O word and an RMW on an O word
 * are done in the cache at once (a ST to a PO word too: it completes with
 * that word's ReqO); the others go to the unit as the cache request,
 * presented until the unit takes it. LD asks for the line's I words and
 * blocks until its FILL (V, the words of `own` O); ST writes the word and
 * marks it PO, completing on the OWN naming it; RMW blocks until its
 * VALUE (the old value; the word O with the result when in `own`, else
 * I); an RMW on a PO word waits until it is O (or I after a downgrade);
 * ACQ blocks until its DONE, then the V words are dropped; REL blocks
 * until its DONE (every earlier store complete); EVICT waits while the
 * line has PO words, then hands the unit the O words with their data
 * (the line leaves the cache when the unit takes it) and completes on its
 * DONE without blocking. Nothing on the line of a probe being answered
 * changes in the cache but by a LD hit. A store whose word was taken away
 * before its OWN completes at the next REL's DONE or when the unit is idle
 * (every ReqO answered). */

/* The pending stores to words of mask in line complete (program order). */
static void dn_owned(vtu *d, uint64_t line, uint64_t mask)
{
    size_t k, n = 0;
    for (k = 0; k < d->nst; k++) {
        const spandex_sop *o = &d->ops[d->st[k]];
        if (line_addr(d, o->addr) == line && (mask >> word_of(d, o->addr) & 1))
            d->env.done(d->env.ctx, d->st[k], 0, 0);
        else
            d->st[n++] = d->st[k];
    }
    d->nst = n;
}

typedef enum { DN_WAIT, DN_LOCAL, DN_CREQ } dn_how;

/* How operation i goes now; DN_CREQ fills d->cr (not yet valid). */
static dn_how dn_how_of(vtu *d, size_t i)
{
    static const unsigned types[] = {SPANDEX_TUHW_C_LD,  SPANDEX_TUHW_C_ST,  SPANDEX_TUHW_C_RMW,
                                     SPANDEX_TUHW_C_ACQ, SPANDEX_TUHW_C_REL, SPANDEX_TUHW_C_EVICT};
    const spandex_sop *o = &d->ops[i];
    uint64_t line = line_addr(d, o->addr), b = 1ull << word_of(d, o->addr);
    vl1 *l = l1_get(d, line, 0);
    uint64_t v = l ? l->valid : 0, po = l ? l->po : 0, ow = l ? l->o : 0;
    int probed = d->pb.v && d->pb.line == line && o->kind != SPANDEX_SOP_ACQ && o->kind != SPANDEX_SOP_REL;
    if (o->kind == SPANDEX_SOP_LD && ((v | po | ow) & b))
        return DN_LOCAL;
    if (probed || (o->kind == SPANDEX_SOP_RMW && (po & b)) || (o->kind == SPANDEX_SOP_EVICT && po))
        return DN_WAIT;
    if ((o->kind == SPANDEX_SOP_ST && ((po | ow) & b)) || (o->kind == SPANDEX_SOP_RMW && (ow & b)))
        return DN_LOCAL;
    memset(&d->cr, 0, sizeof d->cr);
    d->cr.op = i;
    d->cr.type = types[o->kind];
    d->cr.line = line;
    if (o->kind == SPANDEX_SOP_LD)
        d->cr.mask = d->g.full & ~(v | po | ow);
    else if (o->kind == SPANDEX_SOP_ST || o->kind == SPANDEX_SOP_RMW) {
        d->cr.mask = b;
        d->cr.data[word_of(d, o->addr)] = o->v;
    } else if (o->kind == SPANDEX_SOP_EVICT && l) {
        d->cr.mask = ow;
        memcpy(d->cr.data, l->data, sizeof d->cr.data);
    }
    return DN_CREQ;
}

/* Operation i done in the cache. */
static void dn_local(vtu *d, size_t i)
{
    const spandex_sop *o = &d->ops[i];
    unsigned w = word_of(d, o->addr);
    vl1 *l = l1_get(d, line_addr(d, o->addr), 0);
    uint64_t old = l->data[w];
    d->env.issued(d->env.ctx, i);
    if (o->kind == SPANDEX_SOP_LD) {
        complete(d, i, 1, old);
    } else if (o->kind == SPANDEX_SOP_ST) {
        l->data[w] = o->v;
        if (l->o >> w & 1)
            complete(d, i, 0, 0);
        else
            d->st[d->nst++] = i; /* with its word's ReqO */
    } else {
        l->data[w] = spandex_op_apply(o->op, old, o->v, d->g.word_bits);
        complete(d, i, 1, old);
    }
}


static void dn_drive(vtu *d, spvsys *s)
{
    put(d, P(req_ready_i), 1);
    put(d, P(out_ready_i), 1);
    put(d, P(c_rsp_ready_i), 1);
    put(d, P(c_prb_ready_i), !d->pb.v);
    put_net(d, s);
    if (d->pb.v) {
        put(d, P(c_pdat_valid_i), 1);
        put(d, P(c_pdat_mask_i), d->pb.held);
        spandex_ports_put_words(&d->p, d->b->in, P(c_pdat_data_i), d->pb.data, d->pb.held);
    }
    if (d->cr.v) {
        put(d, P(c_req_valid_i), 1);
        put(d, P(c_req_type_i), d->cr.type);
        if (d->cr.type == SPANDEX_TUHW_C_ACQ || d->cr.type == SPANDEX_TUHW_C_REL)
            return;
        put(d, P(c_req_line_i), d->cr.line);
        put(d, P(c_req_mask_i), d->cr.mask);
        put(d, P(c_req_op_i), d->cr.type == SPANDEX_TUHW_C_RMW ? d->ops[d->cr.op].op : 0);
        spandex_ports_put_words(&d->p, d->b->in, P(c_req_data_i), d->cr.data, d->cr.mask);
    }
}

/* The cache request the unit took. */
static void dn_taken(vtu *d)
{
    size_t i = d->cr.op;
    vl1 *l = l1_get(d, d->cr.line, d->cr.type == SPANDEX_TUHW_C_ST);
    d->cr.v = 0;
    d->qh++;
    d->env.issued(d->env.ctx, i);
    switch (d->cr.type) {
    case SPANDEX_TUHW_C_ST:
        if (l == NULL) {
            fail(d, "out of memory");
            return;
        }
        l->data[word_of(d, d->ops[i].addr)] = d->ops[i].v;
        l->po |= d->cr.mask;
        l->valid &= ~d->cr.mask;
        d->st[d->nst++] = i;
        return;
    case SPANDEX_TUHW_C_LD:
    case SPANDEX_TUHW_C_RMW: d->blocked = i; return;
    case SPANDEX_TUHW_C_EVICT:
        if (l) /* the line leaves the cache */
            l->valid = l->po = l->o = 0;
        break;
    default: d->blocked = i; break;
    }
    d->wait[d->wt++] = i;
}

/* A FILL or VALUE: the answer of the blocked LD or RMW. */
static void dn_fill(vtu *d, unsigned type, uint64_t line, uint64_t mask, uint64_t own, const uint64_t *v)
{
    size_t i = d->blocked;
    const spandex_sop *o = i == NONE ? NULL : &d->ops[i];
    unsigned w, k;
    vl1 *l;
    if (o == NULL || o->kind != (type == SPANDEX_TUHW_R_FILL ? SPANDEX_SOP_LD : SPANDEX_SOP_RMW) ||
        line != line_addr(d, o->addr) || !(mask >> (w = word_of(d, o->addr)) & 1) || (own & ~mask)) {
        fail(d, "answered the cache with a FILL or VALUE nothing waits for");
        return;
    }
    if ((l = l1_get(d, line, 1)) == NULL) {
        fail(d, "out of memory");
        return;
    }
    for (k = 0; k < d->g.words; k++) {
        uint64_t b = 1ull << k;
        if (!(mask & b) || (type == SPANDEX_TUHW_R_FILL && ((l->po | l->o) & b)))
            continue; /* a word the cache holds keeps its data */
        l->valid &= ~b;
        l->data[k] = type == SPANDEX_TUHW_R_FILL ? v[k] : spandex_op_apply(o->op, v[k], o->v, d->g.word_bits);
        if (own & b)
            l->o |= b;
        else if (type == SPANDEX_TUHW_R_FILL)
            l->valid |= b;
    }
    complete(d, i, 1, type == SPANDEX_TUHW_R_FILL ? l->data[w] : v[w]);
}

/* A c_rsp of the DeNovo unit. */
static void dn_crsp(vtu *d)
{
    unsigned type = (unsigned)get(d, P(c_rsp_type_o));
    uint64_t v[SPANDEX_LLC_WORDS_MAX], line = get(d, P(c_rsp_line_o)), mask = get(d, P(c_rsp_mask_o));
    vl1 *l = l1_get(d, line, 0);
    size_t i, k;
    spandex_ports_get_words(&d->p, d->b->out, P(c_rsp_data_o), v);
    if (type == SPANDEX_TUHW_R_OWN) { /* PO words now O */
        if (l == NULL || (mask & ~l->po)) {
            fail(d, "sent OWN for a word the cache does not hold PO");
            return;
        }
        l->o |= mask;
        l->po &= ~mask;
        dn_owned(d, line, mask);
        return;
    }
    if (type != SPANDEX_TUHW_R_DONE) {
        dn_fill(d, type, line, mask, get(d, P(c_rsp_own_o)), v);
        return;
    }
    if (d->wh == d->wt) {
        fail(d, "answered the cache with a DONE nothing waits for");
        return;
    }
    i = d->wait[d->wh++];
    if (d->ops[i].kind == SPANDEX_SOP_ACQ) /* self-invalidation */
        for (k = 0; k < d->nl1; k++)
            d->l1[k].valid = 0;
    if (d->ops[i].kind == SPANDEX_SOP_REL)
        stores_done(d);
    complete(d, i, 0, 0);
}

/* The probe answer taken (a downgrade's words go to I), a new probe. */
static void dn_probe_io(vtu *d)
{
    vl1 *l;
    unsigned k;
    if (d->pb.v && (get(d, P(c_pdat_ready_o)) & 1)) {
        if (d->pb.down && (l = l1_get(d, d->pb.line, 0)) != NULL) {
            l->po &= ~d->pb.held;
            l->o &= ~d->pb.held;
        }
        d->pb.v = 0;
        return; /* c_prb_ready_i was 0 */
    }
    if (d->pb.v || !(get(d, P(c_prb_valid_o)) & 1))
        return;
    memset(&d->pb, 0, sizeof d->pb);
    d->pb.v = 1;
    d->pb.line = get(d, P(c_prb_line_o));
    d->pb.mask = get(d, P(c_prb_mask_o));
    d->pb.down = (unsigned)(get(d, P(c_prb_down_o)) & 1);
    if ((l = l1_get(d, d->pb.line, 0)) == NULL)
        return;
    d->pb.held = d->pb.mask & (l->po | l->o);
    for (k = 0; k < d->g.words; k++)
        if (d->pb.held >> k & 1)
            d->pb.data[k] = l->data[k];
}

/* The cycle's handshakes in the bench's order (spandex_tuhw_unit.c): the
 * cache request before the answer, then the probe. */
static void dn_tick(vtu *d, spvsys *s)
{
    if ((d->net == 1 && (get(d, P(fwd_ready_o)) & 1)) || (d->net == 2 && (get(d, P(rsp_ready_o)) & 1)))
        spvsys_take(s, d->id);
    if (get(d, P(req_valid_o)) & 1)
        send_out(d, 1);
    if (get(d, P(out_valid_o)) & 1)
        send_out(d, 0);
    if (get(d, P(err_o)) & 1)
        fail(d, "raised err_o");
    if (d->failed)
        return;
    if (get(d, P(idle_o)) & 1) /* every ReqO of a store taken before answered */
        stores_done(d);
    if (d->cr.v && (get(d, P(c_req_ready_o)) & 1))
        dn_taken(d);
    if (!d->failed && (get(d, P(c_rsp_valid_o)) & 1))
        dn_crsp(d);
    if (!d->failed)
        dn_probe_io(d);
    own_issue(d);
}

/* --------------------------------------------------------- the MESI L1 */

/* The MESI cache (docs/spandex.md "The MESI kind"): whole lines in I, S or
 * O (E/M) with their data; one request a line through the unit. The device
 * issues its operations in program order; an operation on a line with a
 * request open waits for its answer. LD of an S or O line, ST and RMW of
 * an O line are done in the cache at once; a LD of an I line asks the
 * unit for the line and blocks until the answer (FILL: S, or O when `own`
 * is the line; VALUE: the line used once, it stays I); ST of an I or S
 * line presents the store's word and does not block: the store completes
 * on its answer (FILL with `own`: the line O with the store; VALUE: the
 * line I, an owner took words meanwhile); RMW of an I or S line blocks
 * until its VALUE (the old values; the line O with op(old, operand) when
 * `own` is the line, else I); ACQ blocks until its DONE (the cache stays
 * coherent by the unit's probes: nothing to drop); REL waits until every
 * earlier store completed, then blocks until its DONE; EVICT of an O line
 * hands the unit the line and its data, of an S line nothing (silent); the
 * line leaves on the take and the EVICT completes on its DONE without
 * blocking; EVICT of an I line completes at once. Probes: the answer is
 * the whole line and its data when the cache holds it O (an EVICT
 * presented and not taken still counts: the line leaves on the take),
 * the words of its write-back state (W), else nothing; when the unit takes
 * it, a `down` probe sends an O line to S (the probe keeps the whole line
 * readable), I (it keeps nothing) or W (it keeps the words its mask names,
 * those of the ReqWB the unit sends, invisible to the device's operations,
 * which wait, until the unit's WBDONE releases the line to I); a `down`
 * probe of a W line keeps those of its words the mask names; a probe
 * neither `down` nor keeping anything sends an S line to I. While a probe
 * of a line is answered, no operation but a LD hit touches that line. */

/* How operation i goes now; DN_CREQ fills d->cr (not yet valid). */
static dn_how ms_how_of(vtu *d, size_t i)
{
    static const unsigned types[] = {SPANDEX_TUHW_C_LD,  SPANDEX_TUHW_C_ST,  SPANDEX_TUHW_C_RMW,
                                     SPANDEX_TUHW_C_ACQ, SPANDEX_TUHW_C_REL, SPANDEX_TUHW_C_EVICT};
    const spandex_sop *o = &d->ops[i];
    uint64_t line = line_addr(d, o->addr);
    vl1 *l = l1_get(d, line, 0);
    unsigned st = l ? l->ms : MS_I, w = word_of(d, o->addr);
    int sync = o->kind == SPANDEX_SOP_ACQ || o->kind == SPANDEX_SOP_REL;
    if (!sync) {
        if (l && (l->mbusy || l->ms == MS_W))
            return DN_WAIT;
        if (o->kind == SPANDEX_SOP_LD && st != MS_I)
            return DN_LOCAL;
        if (d->pb.v && d->pb.line == line)
            return DN_WAIT;
        if ((st == MS_O && o->kind != SPANDEX_SOP_EVICT) || (st == MS_I && o->kind == SPANDEX_SOP_EVICT))
            return DN_LOCAL;
    } else if (o->kind == SPANDEX_SOP_REL && d->nst) {
        return DN_WAIT;
    }
    memset(&d->cr, 0, sizeof d->cr);
    d->cr.op = i;
    d->cr.type = types[o->kind];
    d->cr.line = line;
    if (o->kind == SPANDEX_SOP_LD)
        d->cr.mask = d->g.full;
    else if (o->kind == SPANDEX_SOP_ST || o->kind == SPANDEX_SOP_RMW) {
        d->cr.mask = 1ull << w;
        d->cr.data[w] = o->v;
    } else if (o->kind == SPANDEX_SOP_EVICT && st == MS_O) {
        d->cr.mask = d->g.full;
        memcpy(d->cr.data, l->data, sizeof d->cr.data);
    }
    return DN_CREQ;
}

/* Operation i done in the cache (a LD of an S or O line, a ST or an RMW of
 * an O line, an EVICT of an I line). */
static void ms_local(vtu *d, size_t i)
{
    const spandex_sop *o = &d->ops[i];
    unsigned w = word_of(d, o->addr);
    vl1 *l = l1_get(d, line_addr(d, o->addr), 0);
    uint64_t old = l ? l->data[w] : 0;
    d->env.issued(d->env.ctx, i);
    if (o->kind == SPANDEX_SOP_EVICT)
        complete(d, i, 0, 0);
    else if (o->kind == SPANDEX_SOP_LD)
        complete(d, i, 1, old);
    else if (o->kind == SPANDEX_SOP_ST) {
        l->data[w] = o->v;
        complete(d, i, 0, 0);
    } else {
        l->data[w] = spandex_op_apply(o->op, old, o->v, d->g.word_bits);
        complete(d, i, 1, old);
    }
}

/* Issues what a DeNovo or MESI device can: operations done in its cache,
 * and the next cache request. */
static void own_issue(vtu *d)
{
    while (!d->failed && !d->cr.v && d->blocked == NONE && d->qh < d->qt) {
        size_t i = d->q[d->qh];
        dn_how h = d->ms ? ms_how_of(d, i) : dn_how_of(d, i);
        if (h == DN_WAIT)
            break;
        if (h == DN_CREQ) {
            d->cr.v = 1;
            break;
        }
        d->qh++;
        if (d->ms)
            ms_local(d, i);
        else
            dn_local(d, i);
    }
}

/* The cache request the unit took. */
static void ms_taken(vtu *d)
{
    size_t i = d->cr.op;
    unsigned type = d->cr.type;
    vl1 *l = l1_get(d, d->cr.line, type <= SPANDEX_TUHW_C_RMW);
    d->cr.v = 0;
    d->qh++;
    d->env.issued(d->env.ctx, i);
    if (type <= SPANDEX_TUHW_C_RMW) {
        if (l == NULL) {
            fail(d, "out of memory");
            return;
        }
        l->mbusy = 1;
        l->mop = i;
        if (type == SPANDEX_TUHW_C_ST)
            d->st[d->nst++] = i;
        else
            d->blocked = i;
        return;
    }
    if (type == SPANDEX_TUHW_C_EVICT) {
        if (l) /* the line leaves the cache */
            l->ms = MS_I;
    } else {
        d->blocked = i;
    }
    d->wait[d->wt++] = i;
}

/* The store i answered: complete. */
static void ms_store_done(vtu *d, size_t i)
{
    size_t k, n = 0;
    for (k = 0; k < d->nst; k++)
        if (d->st[k] != i)
            d->st[n++] = d->st[k];
    d->nst = n;
    complete(d, i, 0, 0);
}

/* A FILL or VALUE: the answer of the request open on its line. */
static void ms_fill(vtu *d, unsigned type, uint64_t line, uint64_t mask, uint64_t own, const uint64_t *v)
{
    vl1 *l = l1_get(d, line, 0);
    const spandex_sop *o = l && l->mbusy ? &d->ops[l->mop] : NULL;
    int fill = type == SPANDEX_TUHW_R_FILL, owned = own == d->g.full;
    unsigned w = o ? word_of(d, o->addr) : 0;
    size_t i;
    if (o == NULL || !(mask >> w & 1) || (own && !owned) || (fill && o->kind == SPANDEX_SOP_RMW) ||
        (fill && o->kind == SPANDEX_SOP_ST && !owned) || (!fill && owned && o->kind != SPANDEX_SOP_RMW) ||
        (o->kind == SPANDEX_SOP_LD && mask != d->g.full)) {
        fail(d, "answered the cache with a FILL or VALUE nothing waits for");
        return;
    }
    i = l->mop;
    l->mbusy = 0;
    if (fill) { /* a LD's line S or O, a ST's line O with the store */
        memcpy(l->data, v, sizeof l->data);
        l->ms = owned ? MS_O : MS_S;
    } else if (owned) { /* an RMW's line O with the result */
        memcpy(l->data, v, sizeof l->data);
        l->data[w] = spandex_op_apply(o->op, v[w], o->v, d->g.word_bits);
        l->ms = MS_O;
    } else {
        l->ms = MS_I;
    }
    if (o->kind == SPANDEX_SOP_ST)
        ms_store_done(d, i);
    else
        complete(d, i, 1, v[w]);
}

/* A c_rsp of the MESI unit. */
static void ms_crsp(vtu *d)
{
    unsigned type = (unsigned)get(d, P(c_rsp_type_o));
    uint64_t v[SPANDEX_LLC_WORDS_MAX], line = get(d, P(c_rsp_line_o)), mask = get(d, P(c_rsp_mask_o));
    size_t i;
    spandex_ports_get_words(&d->p, d->b->out, P(c_rsp_data_o), v);
    if (type == SPANDEX_TUHW_R_FILL || type == SPANDEX_TUHW_R_VALUE) {
        ms_fill(d, type, line, mask, get(d, P(c_rsp_own_o)), v);
        return;
    }
    if (type == SPANDEX_TUHW_R_OWN) { /* WBDONE: the write-back line released */
        vl1 *l = l1_get(d, line, 0);
        if (l == NULL || l->ms != MS_W) {
            fail(d, "released a line not in write-back");
            return;
        }
        l->ms = MS_I;
        l->wbm = 0;
        return;
    }
    if (type != SPANDEX_TUHW_R_DONE || d->wh == d->wt) {
        fail(d, "answered the cache with a DONE nothing waits for");
        return;
    }
    i = d->wait[d->wh++];
    complete(d, i, 0, 0);
}

/* The probe answer taken (the line's new state), a new probe. */
static void ms_probe_io(vtu *d)
{
    vl1 *l;
    if (d->pb.v && (get(d, P(c_pdat_ready_o)) & 1)) {
        if ((l = l1_get(d, d->pb.line, 0)) != NULL) {
            if (d->pb.down && l->ms == MS_W) {
                l->wbm &= d->pb.mask;
            } else if (d->pb.down && l->ms == MS_O && d->pb.mask && d->pb.held == d->g.full &&
                       d->pb.mask != d->g.full) {
                l->ms = MS_W;
                l->wbm = d->pb.mask;
            } else if (d->pb.down && l->ms == MS_O)
                l->ms = d->pb.mask == d->g.full ? MS_S : MS_I;
            else if (!d->pb.down && d->pb.mask == 0 && l->ms == MS_S)
                l->ms = MS_I;
        }
        d->pb.v = 0;
        return; /* c_prb_ready_i was 0 */
    }
    if (d->pb.v || !(get(d, P(c_prb_valid_o)) & 1))
        return;
    memset(&d->pb, 0, sizeof d->pb);
    d->pb.v = 1;
    d->pb.line = get(d, P(c_prb_line_o));
    d->pb.mask = get(d, P(c_prb_mask_o));
    d->pb.down = (unsigned)(get(d, P(c_prb_down_o)) & 1);
    if ((l = l1_get(d, d->pb.line, 0)) != NULL && (l->ms == MS_O || l->ms == MS_W)) {
        unsigned w;
        d->pb.held = l->ms == MS_O ? d->g.full : l->wbm;
        /* a downgrade of part of a line whose EVICT is presented: only the
         * words asked for (the EVICT's ReqWB writes the others back) */
        if (l->ms == MS_O && d->cr.v && d->cr.type == SPANDEX_TUHW_C_EVICT && d->cr.line == d->pb.line &&
            d->pb.down && d->pb.mask && d->pb.mask != d->g.full)
            d->pb.held = d->g.full & ~d->pb.mask;
        for (w = 0; w < d->g.words; w++)
            if (d->pb.held >> w & 1)
                d->pb.data[w] = l->data[w];
    }
}

/* The cycle's handshakes in the DeNovo device's order. */
static void ms_tick(vtu *d, spvsys *s)
{
    if ((d->net == 1 && (get(d, P(fwd_ready_o)) & 1)) || (d->net == 2 && (get(d, P(rsp_ready_o)) & 1)))
        spvsys_take(s, d->id);
    if (get(d, P(req_valid_o)) & 1)
        send_out(d, 1);
    if (get(d, P(out_valid_o)) & 1)
        send_out(d, 0);
    if (get(d, P(err_o)) & 1)
        fail(d, "raised err_o");
    if (d->failed)
        return;
    if (d->cr.v && (get(d, P(c_req_ready_o)) & 1))
        ms_taken(d);
    if (!d->failed && (get(d, P(c_rsp_valid_o)) & 1))
        ms_crsp(d);
    if (!d->failed)
        ms_probe_io(d);
    own_issue(d);
}

static void vtu_push(void *dv, size_t op)
{
    vtu *d = dv;
    d->q[d->qt++] = op;
    if (d->dn || d->ms)
        own_issue(d);
}

static int vtu_busy(const void *dv)
{
    const vtu *d = dv;
    return d->qh < d->qt || d->blocked != NONE || d->wh < d->wt || d->nst || d->cr.v || d->pb.v ||
           !(get(d, P(idle_o)) & 1);
}

static void vtu_free(void *dv)
{
    vtu *d = dv;
    if (d == NULL)
        return;
    free(d->q);
    free(d->wait);
    free(d->st);
    free(d->l1);
    free(d);
}

const spvsys_dev_ops spvsys_tu_ops = {vtu_drive, vtu_tick, vtu_push, vtu_busy, vtu_free};

void *spvsys_tu_new(struct cmp_block *b, unsigned id, const spandex_sop *ops, size_t nops,
                    const spandex_tu_env *env, char *err, size_t len)
{
    const spandex_tuhw_cfg *c = b->cfg;
    vtu *d = calloc(1, sizeof *d);
    size_t n = nops ? nops : 1;
    if (d == NULL || !(d->q = calloc(n, sizeof *d->q)) || !(d->wait = calloc(n, sizeof *d->wait)) ||
        !(d->st = calloc(n, sizeof *d->st))) {
        vtu_free(d);
        snprintf(err, len, "out of memory");
        return NULL;
    }
    d->b = b;
    d->id = id;
    d->ops = ops;
    d->nops = nops;
    d->env = *env;
    d->blocked = NONE;
    d->dn = c->kind == SPANDEX_TU_DENOVO;
    d->ms = c->kind == SPANDEX_TU_MESI;
    d->line_bytes = c->line;
    d->word_bytes = c->word;
    spandex_tuhw_geom_of(c, &d->g);
    spandex_tuhw_ports_of(c, &d->p);
    return d;
}
