/*
 * Table III of the Spandex LLC as pure functions of one line's state: see
 * spandex_llc_rules.h. Every cell of spec 2.2, merged by its rules 1-7.
 */
#include <stdio.h>
#include <string.h>

#include "bits.h"
#include "spandex_llc_rules.h"

static void set_owner(const spandex_llc_cfg *c, spandex_llc_way *w, unsigned i, unsigned d)
{
    w->owned |= 1ull << i;
    w->own[i] = d;
    if (c->owner_store == SPANDEX_LLC_OWNER_DATA)
        w->data[i] = d;
}

static void grant(const spandex_llc_cfg *c, const spandex_llc_geom *g, spandex_llc_way *w, uint64_t words, unsigned d)
{
    unsigned i;
    for (i = 0; i < g->words; i++)
        if (words >> i & 1)
            set_owner(c, w, i, d);
}

/* Stores v into word i (now unowned), dirty. */
static void store(spandex_llc_way *w, unsigned i, uint64_t v)
{
    w->owned &= ~(1ull << i);
    w->data[i] = v;
    w->dirty = 1;
}

uint64_t spandex_llc_owned_by(const spandex_llc_geom *g, const spandex_llc_way *w, unsigned d)
{
    uint64_t m = 0;
    unsigned i;
    for (i = 0; i < g->words; i++)
        if ((w->owned >> i & 1) && w->own[i] == d)
            m |= 1ull << i;
    return m;
}

void spandex_llc_way_fresh(spandex_llc_way *w)
{
    w->st = 'V';
    w->sh = 0;
    w->owned = 0;
    w->dirty = 0;
    memset(w->own, 0, sizeof w->own);
}

int spandex_llc_no_fill(const spandex_llc_geom *g, spandex_msg_kind k, uint64_t m)
{
    return m == g->full && (k == SPANDEX_REQO || k == SPANDEX_REQWT);
}

static int is_write(spandex_msg_kind k) { return k == SPANDEX_REQWT || k == SPANDEX_REQWTDATA; }

uint64_t spandex_llc_req_mask(const spandex_llc_cfg *c, const spandex_llc_geom *g, const spandex_msg *q, uint64_t own_r)
{
    if (c->gran == SPANDEX_LLC_GRAN_LINE && !is_write(q->kind) && q->kind != SPANDEX_REQWB)
        return g->full & ~own_r;
    return q->mask;
}

/* ------------------------------------------------------------- messages */
static void msgs_clear(spandex_llc_msgs *o)
{
    memset(o, 0, sizeof *o);
    o->fwd = SPANDEX_FWDREQV;
}

/* One message of kind k per owner of `words` (rule 2). */
static void forward(const spandex_llc_geom *g, const spandex_llc_way *w, spandex_llc_msgs *o, spandex_msg_kind k, uint64_t words,
                    unsigned req)
{
    unsigned i;
    o->fwd = k;
    o->fwd_words = words;
    o->fwd_req = req;
    for (i = 0; i < g->words; i++)
        o->fwd_owner[i] = words >> i & 1 ? w->own[i] : 0;
}

static void respond(const spandex_llc_geom *g, spandex_llc_msgs *o, spandex_msg_kind k, unsigned dst, uint64_t mask,
                    const uint64_t *data)
{
    unsigned i;
    o->has_rsp = 1;
    memset(&o->rsp, 0, sizeof o->rsp);
    o->rsp.kind = k;
    o->rsp.dev = dst;
    o->rsp.mask = mask;
    for (i = 0; i < g->words; i++)
        o->rsp.v[i] = data && (mask >> i & 1) ? data[i] : 0;
}

static void open_txn(spandex_llc_txn *t, spandex_llc_tx_kind k, const spandex_msg *q, uint64_t mu)
{
    memset(t, 0, sizeof *t);
    t->open = 1;
    t->kind = k;
    t->req = *q;
    t->mu = mu;
}

/* ---------------------------------------------------------------- rules */
/* The option ReqS takes (spec 2.2, X6). */
static int reqs_option(const spandex_llc_cfg *c, const spandex_llc_geom *g, const spandex_llc_way *w, uint64_t m)
{
    unsigned i;
    if (c->reqs != SPANDEX_LLC_REQS_PAPER)
        return (int)c->reqs;
    if (w->st == 'S' && (m & ~w->owned))
        return 1;
    for (i = 0; i < g->words; i++)
        if (((m & w->owned) >> i & 1) && (c->mesi >> w->own[i] & 1))
            return 1;
    return 3;
}

/* ReqV, ReqS(2): owned words forwarded (FwdReqV), the rest served. A ReqV
 * of a device of --extra-words (DeNovo, Table II's footnote) that is served
 * at all gets every other word of the line nobody owns with its answer. */
static void do_read(const spandex_llc_cfg *c, const spandex_llc_geom *g, spandex_llc_way *w, const spandex_msg *q,
                    uint64_t m, spandex_llc_msgs *o)
{
    uint64_t mo = m & w->owned, mu = m & ~w->owned;
    if (mo)
        forward(g, w, o, SPANDEX_FWDREQV, mo, q->dev);
    if (mu && q->kind == SPANDEX_REQV && (c->extra >> q->dev & 1))
        mu = g->full & ~w->owned;
    if (mu)
        respond(g, o, SPANDEX_RSPV, q->dev, mu, w->data);
}

/* ReqS(1): unowned words RspS at once, owned ones FwdReqS (OS). */
static void do_share(const spandex_llc_geom *g, spandex_llc_way *w, const spandex_msg *q, uint64_t m, spandex_llc_msgs *o,
                     spandex_llc_txn *t)
{
    uint64_t mo = m & w->owned, mu = m & ~w->owned, owners = 0;
    unsigned i;
    for (i = 0; i < g->words; i++)
        if (mo >> i & 1)
            owners |= 1ull << w->own[i];
    if (mo)
        forward(g, w, o, SPANDEX_FWDREQS, mo, q->dev);
    if (mu) {
        w->st = 'S';
        w->sh |= 1ull << q->dev;
        respond(g, o, SPANDEX_RSPS, q->dev, mu, w->data);
    }
    if (mo) {
        open_txn(t, SPANDEX_LLC_TX_SHARE, q, 0);
        t->pend_rvk = mo;
        t->sh_add = owners | 1ull << q->dev;
    }
}

/* ReqO, ReqO+data, ReqS(3): owned words forwarded with ownership moved at
 * once; V words granted at once; S words after every Ack (SO). */
static void do_own(const spandex_llc_cfg *c, const spandex_llc_geom *g, spandex_llc_way *w, const spandex_msg *q,
                   uint64_t m, int data, spandex_llc_msgs *o, spandex_llc_txn *t)
{
    uint64_t mo = m & w->owned, mu = m & ~w->owned, invs = 0;
    if (mu && w->st == 'S') {
        invs = w->sh;
        if (m == g->full) /* X9: a whole-line upgrade does not invalidate R */
            invs &= ~(1ull << q->dev);
    }
    o->invs = invs;
    if (mo)
        forward(g, w, o, data ? SPANDEX_FWDREQODATA : SPANDEX_FWDREQO, mo, q->dev);
    grant(c, g, w, mo, q->dev);
    if (invs) {
        open_txn(t, SPANDEX_LLC_TX_OWN, q, mu);
        t->pend_ack = invs;
        t->inv_sent = 1;
        t->req.kind = data ? SPANDEX_REQODATA : SPANDEX_REQO;
    } else if (mu) {
        respond(g, o, data ? SPANDEX_RSPODATA : SPANDEX_RSPO, q->dev, mu, data ? w->data : NULL);
        grant(c, g, w, mu, q->dev);
        if (w->st == 'S') {
            w->st = 'V';
            w->sh = 0;
        }
    }
}

/* A write (ReqWT: its values; ReqWT+data: its op) of the words mu, and its
 * response. */
static void finish_write(const spandex_llc_geom *g, spandex_llc_way *w, const spandex_msg *q, uint64_t mu, spandex_llc_msgs *o)
{
    uint64_t old[SPANDEX_LLC_WORDS_MAX] = {0};
    unsigned i;
    for (i = 0; i < g->words; i++) {
        if (!(mu >> i & 1))
            continue;
        old[i] = w->data[i];
        if (q->kind == SPANDEX_REQWT)
            store(w, i, q->v[i]);
        else if (q->op != SPANDEX_OP_RD)
            store(w, i, spandex_op_apply(q->op, old[i], q->v[i], g->word_bits));
    }
    if (q->kind == SPANDEX_REQWT)
        respond(g, o, SPANDEX_RSPWT, q->dev, mu, NULL);
    else
        respond(g, o, SPANDEX_RSPWTDATA, q->dev, mu, old);
}

/* ReqWT and ReqWT+data. Word mode: ReqWT writes owned words at once and
 * forwards FwdReqO to their owners; ReqWT+data revokes them. Line mode
 * revokes every other owner's word. S words: Inv to every sharer, R too. */
static void do_write(const spandex_llc_cfg *c, const spandex_llc_geom *g, spandex_llc_way *w, const spandex_msg *q,
                     uint64_t own_r, spandex_llc_msgs *o, spandex_llc_txn *t)
{
    uint64_t m = q->mask, mo = m & w->owned, mu = m & ~w->owned, invs = 0, rvk;
    int line = c->gran == SPANDEX_LLC_GRAN_LINE;
    unsigned i;
    if (w->st == 'S' && (mu || line))
        invs = w->sh;
    rvk = line ? w->owned & ~own_r : q->kind == SPANDEX_REQWTDATA ? mo : 0;
    o->invs = invs;
    if (rvk)
        forward(g, w, o, SPANDEX_RVKO, rvk, 0);
    if (!line && q->kind == SPANDEX_REQWT && mo) {
        forward(g, w, o, SPANDEX_FWDREQO, mo, q->dev);
        for (i = 0; i < g->words; i++)
            if (mo >> i & 1)
                store(w, i, q->v[i]);
        m = mu;
    }
    if (invs || rvk) {
        open_txn(t, q->kind == SPANDEX_REQWT ? SPANDEX_LLC_TX_WRITE : SPANDEX_LLC_TX_ATOMIC, q, m);
        t->pend_ack = invs;
        t->pend_rvk = rvk;
        t->inv_sent = invs != 0;
    } else if (m) {
        finish_write(g, w, q, m, o);
    }
}

int spandex_llc_rule_request(const spandex_llc_cfg *c, const spandex_llc_geom *g, spandex_llc_way *w, const spandex_msg *q,
                     spandex_llc_msgs *o, spandex_llc_txn *t, char *err, size_t len)
{
    uint64_t own_r = spandex_llc_owned_by(g, w, q->dev), m = spandex_llc_req_mask(c, g, q, own_r);
    msgs_clear(o);
    t->open = 0;
    if (m & own_r) {
        snprintf(err, len, "%s from device %u for 0x%llx asks for words 0x%llx it owns", spandex_msg_name(q->kind),
                 q->dev, (unsigned long long)q->line, (unsigned long long)(m & own_r));
        return -1;
    }
    switch (q->kind) {
    case SPANDEX_REQV: do_read(c, g, w, q, m, o); break;
    case SPANDEX_REQS:
        switch (reqs_option(c, g, w, m)) {
        case 1: do_share(g, w, q, m, o, t); break;
        case 2: do_read(c, g, w, q, m, o); break;
        default: do_own(c, g, w, q, m, 1, o, t); break;
        }
        break;
    case SPANDEX_REQO: do_own(c, g, w, q, m, 0, o, t); break;
    case SPANDEX_REQODATA: do_own(c, g, w, q, m, 1, o, t); break;
    default: do_write(c, g, w, q, own_r, o, t); break;
    }
    if (o->has_rsp)
        o->rsp.line = q->line;
    return 0;
}

void spandex_llc_rule_wb(const spandex_llc_cfg *c, const spandex_llc_geom *g, spandex_llc_way *w, const spandex_msg *q, spandex_llc_msgs *o)
{
    unsigned i;
    (void)c;
    msgs_clear(o);
    if (w)
        for (i = 0; i < g->words; i++)
            if ((q->mask >> i & 1) && (w->owned >> i & 1) && w->own[i] == q->dev)
                store(w, i, q->v[i]);
    respond(g, o, SPANDEX_RSPWB, q->dev, q->mask, NULL);
    o->rsp.line = q->line;
}

int spandex_llc_rule_answer(const spandex_llc_cfg *c, const spandex_llc_geom *g, spandex_llc_way *w, spandex_llc_txn *t,
                    const spandex_msg *q, int *done, char *err, size_t len)
{
    unsigned i;
    (void)c;
    *done = 0;
    if (q->kind == SPANDEX_ACK) {
        if (!t->open || !(t->pend_ack >> q->dev & 1)) {
            snprintf(err, len, "Ack from device %u for 0x%llx: no transaction waits for it", q->dev,
                     (unsigned long long)q->line);
            return -1;
        }
        t->pend_ack &= ~(1ull << q->dev);
        w->sh &= ~(1ull << q->dev);
    } else {
        if (!t->open || (q->mask & ~t->pend_rvk) || (q->mask & ~spandex_llc_owned_by(g, w, q->dev))) {
            snprintf(err, len, "RspRvkO from device %u for 0x%llx 0x%llx: no transaction waits for these words",
                     q->dev, (unsigned long long)q->line, (unsigned long long)q->mask);
            return -1;
        }
        for (i = 0; i < g->words; i++)
            if (q->mask >> i & 1)
                store(w, i, q->v[i]);
        t->pend_rvk &= ~q->mask;
    }
    *done = t->pend_ack == 0 && t->pend_rvk == 0;
    return 0;
}

void spandex_llc_rule_complete(const spandex_llc_cfg *c, const spandex_llc_geom *g, spandex_llc_way *w, spandex_llc_txn *t, spandex_llc_msgs *o)
{
    msgs_clear(o);
    t->open = 0;
    switch (t->kind) {
    case SPANDEX_LLC_TX_SHARE:
        w->st = 'S';
        w->sh |= t->sh_add;
        break;
    case SPANDEX_LLC_TX_OWN: {
        int data = t->req.kind == SPANDEX_REQODATA;
        respond(g, o, data ? SPANDEX_RSPODATA : SPANDEX_RSPO, t->req.dev, t->mu, data ? w->data : NULL);
        grant(c, g, w, t->mu, t->req.dev);
        w->st = 'V';
        w->sh = 0;
        break;
    }
    default:
        finish_write(g, w, &t->req, t->mu, o);
        if (t->inv_sent) {
            w->st = 'V';
            w->sh = 0;
        }
        break;
    }
    if (o->has_rsp)
        o->rsp.line = t->req.line;
}

int spandex_llc_rule_evict(const spandex_llc_cfg *c, const spandex_llc_geom *g, const spandex_llc_way *w, spandex_llc_txn *t, spandex_llc_msgs *o)
{
    (void)c;
    msgs_clear(o);
    if (!w->owned && !(w->st == 'S' && w->sh))
        return 0;
    memset(t, 0, sizeof *t);
    t->open = 1;
    t->kind = SPANDEX_LLC_TX_EVICT;
    t->pend_ack = w->st == 'S' ? w->sh : 0;
    t->pend_rvk = w->owned;
    o->invs = t->pend_ack;
    if (w->owned)
        forward(g, w, o, SPANDEX_RVKO, w->owned, 0);
    return 1;
}

/* ---------------------------------------------------------------- emit */
static void emit_one(const spandex_llc_geom *g, spandex_msg_kind k, unsigned dst, uint64_t line, uint64_t mask,
                     unsigned req, spandex_llc_emit_fn emit, void *ctx)
{
    spandex_msg m;
    memset(&m, 0, sizeof m);
    (void)g;
    m.kind = k;
    m.dev = dst;
    m.req = req;
    m.line = line;
    m.mask = mask;
    emit(ctx, &m);
}

void spandex_llc_msgs_emit(const spandex_llc_geom *g, const spandex_llc_msgs *o, uint64_t line, spandex_llc_emit_fn emit, void *ctx)
{
    uint64_t left = o->fwd_words;
    unsigned d;
    for (d = 0; d < 64; d++)
        if (o->invs >> d & 1)
            emit_one(g, SPANDEX_INV, d, line, 0, 0, emit, ctx);
    while (left) {
        unsigned w0 = (unsigned)__builtin_ctzll(left), own = o->fwd_owner[w0], i;
        uint64_t mine = 0;
        for (i = w0; i < g->words; i++)
            if ((left >> i & 1) && o->fwd_owner[i] == own)
                mine |= 1ull << i;
        emit_one(g, o->fwd, own, line, mine, o->fwd == SPANDEX_RVKO ? 0 : o->fwd_req, emit, ctx);
        left &= ~mine;
    }
    if (o->has_rsp)
        emit(ctx, &o->rsp);
}
