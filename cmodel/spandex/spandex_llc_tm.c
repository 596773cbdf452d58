/*
 * Spandex LLC timing shell: the cycle-accurate model of the generated RTL
 * (docs/spandex.md, "Micro-architecture"), deciding with the same Table III
 * functions as the functional core (spandex_llc_rules.c).
 *
 * Pipeline, one event per stage:
 *   I  issue: the highest-priority event that can go (an Ack or RspRvkO,
 *      then fill data, then a deferred request of a replay pass, then a new
 *      request); the meta RAM row of its set is read. An event whose set is
 *      held by the event in M, D or W waits (no forwarding);
 *   M  the row is there: tag compare, way choice; the data RAM line is read;
 *   D  decide: RAM rows, transaction table and deferral buffer updated, the
 *      event's messages handed to E, or to the next-job register k while E
 *      is busy (D waits while k is full, never on an output's ready); the data
 *      RAM line is written one cycle later (W, where a ReqWT+data's op is
 *      applied), so the set stays held for that cycle;
 *   E  emit the messages one per cycle in canonical order (MemWr of a
 *      victim, MemRd, Invs, one forward per owner, the response), each on
 *      its port (mem_req, fwd, out) under back-pressure.
 * A new request is taken only with a transaction and a deferral entry
 * free for it (counting those reserved by requests in flight); a request
 * to a blocked line, or one that waits for a way, goes into the deferral
 * buffer (FIFO) and comes back in a replay pass after the next transaction
 * completes: the buffer rotates once through the pipeline, new requests
 * held meanwhile. After reset the meta RAM is cleared, one set a cycle.
 */
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "spandex_llc.h"
#include "spandex_llc_port.h"
#include "spandex_llc_rules.h"



typedef struct {
    int valid;
    uint64_t line;
    spandex_llc_way w;
} tm_way;

typedef struct {
    int valid;
    spandex_llc_txn t;
    unsigned set, way;
    uint64_t line;
} tm_txn;

typedef struct {
    spandex_msg m;
    int way;    /* waits for a way: its line absent, not a ReqWB          */
    int stayed; /* pushed back in the current replay pass                 */
} tm_def;

enum { EV_REQ, EV_REPLAY, EV_RSP, EV_FILL };

typedef struct {
    int kind;
    spandex_msg m; /* the request, Ack/RspRvkO, or the fill data in m.v */
    unsigned set, txn;
} tm_ev;

/* The messages of one D step, in the order E sends them. */
typedef struct {
    int memwr;
    uint64_t wr_line;
    uint64_t wr_v[SPANDEX_LLC_WORDS_MAX];
    int memrd;
    uint64_t rd_line;
    unsigned rd_id;
    uint64_t line;
    spandex_llc_msgs msgs;
} tm_job;

struct spandex_llc_tm {
    spandex_llc_cfg c;
    spandex_llc_geom g;
    spandex_llc_ports p;
    tm_way *ways;   /* sets x ways: the meta and data RAMs              */
    unsigned *rank; /* sets x ways: LRU rank, 0 most recent              */
    unsigned sweep;
    int m_valid, d_valid, e_valid, k_valid;
    int w_valid;    /* W: the data RAM write of the event D decided last */
    unsigned w_set; /* cycle, which holds its set one cycle more          */
    tm_ev m, d;
    tm_job e, k; /* E's job; the next one, taken from D while E is busy */
    tm_txn *txn;
    tm_def *q;
    unsigned q_head, q_n;
    int pass_active, pass_req;
    unsigned pass_left, resv_txn, resv_def;
    int err;
};

/* ------------------------------------------------------------ port words */
static uint64_t get(const spandex_llc_tm *t, const uint64_t *in, int p) { return in[t->p.off[p]]; }

static void get_words(const spandex_llc_tm *t, const uint64_t *in, int p, uint64_t *v)
{
    spandex_ports_get_words(&t->p, in, p, v);
}

static void put(const spandex_llc_tm *t, uint64_t *out, int p, uint64_t v) { out[t->p.off[p]] = v; }

static void put_words(const spandex_llc_tm *t, uint64_t *out, int p, const uint64_t *v, uint64_t mask)
{
    spandex_ports_put_words(&t->p, out, p, v, mask);
}

/* ------------------------------------------------------------ new, reset */
spandex_llc_tm *spandex_llc_tm_new(const spandex_llc_cfg *c)
{
    spandex_llc_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->c = *c;
    spandex_llc_geom_of(c, &t->g);
    spandex_llc_ports_of(c, &t->p);
    t->ways = calloc((size_t)c->sets * c->ways, sizeof *t->ways);
    t->rank = calloc((size_t)c->sets * c->ways, sizeof *t->rank);
    t->txn = calloc(c->txn, sizeof *t->txn);
    t->q = calloc(c->defer, sizeof *t->q);
    if (t->ways == NULL || t->rank == NULL || t->txn == NULL || t->q == NULL) {
        spandex_llc_tm_free(t);
        return NULL;
    }
    spandex_llc_tm_reset(t);
    return t;
}

void spandex_llc_tm_free(spandex_llc_tm *t)
{
    if (t == NULL)
        return;
    free(t->ways);
    free(t->rank);
    free(t->txn);
    free(t->q);
    free(t);
}

void spandex_llc_tm_reset(spandex_llc_tm *t)
{
    unsigned s, w;
    memset(t->ways, 0, (size_t)t->c.sets * t->c.ways * sizeof *t->ways);
    for (s = 0; s < t->c.sets; s++)
        for (w = 0; w < t->c.ways; w++)
            t->rank[s * t->c.ways + w] = w;
    memset(t->txn, 0, t->c.txn * sizeof *t->txn);
    t->sweep = 0;
    t->m_valid = t->d_valid = t->e_valid = t->k_valid = t->w_valid = 0;
    t->q_head = t->q_n = 0;
    t->pass_active = t->pass_req = 0;
    t->pass_left = t->resv_txn = t->resv_def = 0;
    t->err = 0;
}

/* ------------------------------------------------------------------- E */
enum { PORT_NONE, PORT_MEM, PORT_FWD, PORT_OUT };

typedef struct {
    int port;
    spandex_msg m;
    unsigned left; /* messages of the job, this one included */
} cur_msg;

/* The owner group of the lowest forwarded word. */
static uint64_t fwd_group(const spandex_llc_tm *t, const spandex_llc_msgs *o, uint64_t left, unsigned *own)
{
    unsigned w0 = (unsigned)__builtin_ctzll(left), w;
    uint64_t mine = 0;
    *own = o->fwd_owner[w0];
    for (w = w0; w < t->g.words; w++)
        if ((left >> w & 1) && o->fwd_owner[w] == *own)
            mine |= 1ull << w;
    return mine;
}

static unsigned job_count(const spandex_llc_tm *t, const tm_job *j)
{
    unsigned n = (unsigned)j->memwr + (unsigned)j->memrd + cohkit_popcount(j->msgs.invs) + (unsigned)j->msgs.has_rsp;
    uint64_t left = j->msgs.fwd_words;
    while (left) {
        unsigned own;
        left &= ~fwd_group(t, &j->msgs, left, &own);
        n++;
    }
    return n;
}

static void e_current(const spandex_llc_tm *t, cur_msg *cm)
{
    const tm_job *j = &t->e;
    memset(cm, 0, sizeof *cm);
    if (!t->e_valid)
        return;
    cm->left = job_count(t, j);
    cm->m.line = j->line;
    if (j->memwr) {
        cm->port = PORT_MEM;
        cm->m.kind = SPANDEX_MEMWR;
        cm->m.line = j->wr_line;
        cm->m.mask = t->g.full;
        memcpy(cm->m.v, j->wr_v, sizeof j->wr_v);
    } else if (j->memrd) {
        cm->port = PORT_MEM;
        cm->m.kind = SPANDEX_MEMRD;
        cm->m.line = j->rd_line;
        cm->m.req = j->rd_id;
    } else if (j->msgs.invs) {
        cm->port = PORT_FWD;
        cm->m.kind = SPANDEX_INV;
        cm->m.dev = (unsigned)__builtin_ctzll(j->msgs.invs);
    } else if (j->msgs.fwd_words) {
        unsigned own;
        cm->port = PORT_FWD;
        cm->m.kind = j->msgs.fwd;
        cm->m.mask = fwd_group(t, &j->msgs, j->msgs.fwd_words, &own);
        cm->m.dev = own;
        cm->m.req = j->msgs.fwd == SPANDEX_RVKO ? 0 : j->msgs.fwd_req;
    } else if (j->msgs.has_rsp) {
        cm->port = PORT_OUT;
        cm->m = j->msgs.rsp;
        cm->m.line = j->line;
    }
}

static int accepted(const spandex_llc_tm *t, const uint64_t *in, const cur_msg *cm)
{
    switch (cm->port) {
    case PORT_MEM: return get(t, in, SPANDEX_LLC_P_mem_req_ready_i) & 1;
    case PORT_FWD: return get(t, in, SPANDEX_LLC_P_fwd_ready_i) & 1;
    case PORT_OUT: return get(t, in, SPANDEX_LLC_P_out_ready_i) & 1;
    default: return 0;
    }
}

static void e_consume(spandex_llc_tm *t)
{
    tm_job *j = &t->e;
    if (j->memwr)
        j->memwr = 0;
    else if (j->memrd)
        j->memrd = 0;
    else if (j->msgs.invs)
        j->msgs.invs &= j->msgs.invs - 1;
    else if (j->msgs.fwd_words) {
        unsigned own;
        j->msgs.fwd_words &= ~fwd_group(t, &j->msgs, j->msgs.fwd_words, &own);
    } else
        j->msgs.has_rsp = 0;
    t->e_valid = job_count(t, j) != 0;
}

/* ---------------------------------------------------------------- I */
enum { IS_NONE, IS_RSP, IS_FILL, IS_REPLAY, IS_REQ, IS_DROP_RSP, IS_DROP_MEM, IS_DROP_REQ };

typedef struct {
    int what;
    tm_ev ev;
    int d_adv, m_adv;
    cur_msg cm;
} step_dec;

static unsigned set_of(const spandex_llc_tm *t, uint64_t line)
{
    return (unsigned)((line >> t->g.line_bits) & (t->c.sets - 1));
}

static unsigned txn_free(const spandex_llc_tm *t)
{
    unsigned i, n = 0;
    for (i = 0; i < t->c.txn; i++)
        n += !t->txn[i].valid;
    return n;
}

static int conflict(const spandex_llc_tm *t, unsigned set)
{
    return (t->m_valid && t->m.set == set) || (t->d_valid && t->d.set == set) || (t->w_valid && t->w_set == set);
}

/* The open transaction an Ack or RspRvkO for `line` answers, or -1. */
static int txn_of_line(const spandex_llc_tm *t, uint64_t line)
{
    unsigned i;
    for (i = 0; i < t->c.txn; i++)
        if (t->txn[i].valid && t->txn[i].t.kind != SPANDEX_LLC_TX_FILL && t->txn[i].line == line)
            return (int)i;
    return -1;
}

static void read_msg(const spandex_llc_tm *t, const uint64_t *in, int rsp, spandex_msg *m)
{
    memset(m, 0, sizeof *m);
    if (rsp) {
        m->kind = (get(t, in, SPANDEX_LLC_P_rsp_type_i) & 15) == 8 ? SPANDEX_ACK : SPANDEX_RSPRVKO;
        m->dev = (unsigned)get(t, in, SPANDEX_LLC_P_rsp_src_i);
        m->line = get(t, in, SPANDEX_LLC_P_rsp_line_i) << t->g.line_bits;
        m->mask = get(t, in, SPANDEX_LLC_P_rsp_mask_i);
        get_words(t, in, SPANDEX_LLC_P_rsp_data_i, m->v);
        if (m->kind == SPANDEX_ACK)
            m->mask = 0;
    } else {
        m->kind = (spandex_msg_kind)(SPANDEX_REQV + (get(t, in, SPANDEX_LLC_P_req_type_i) & 7));
        m->dev = (unsigned)get(t, in, SPANDEX_LLC_P_req_src_i);
        m->line = get(t, in, SPANDEX_LLC_P_req_line_i) << t->g.line_bits;
        m->mask = get(t, in, SPANDEX_LLC_P_req_mask_i);
        m->op = (unsigned)get(t, in, SPANDEX_LLC_P_req_op_i) & 7;
        get_words(t, in, SPANDEX_LLC_P_req_data_i, m->v);
    }
    m->mask &= t->g.full;
}

static void issue_rsp(const spandex_llc_tm *t, const uint64_t *in, int slot, step_dec *s)
{
    unsigned type = (unsigned)get(t, in, SPANDEX_LLC_P_rsp_type_i) & 15;
    int x;
    read_msg(t, in, 1, &s->ev.m);
    x = txn_of_line(t, s->ev.m.line);
    if ((type != 7 && type != 8) || s->ev.m.dev >= t->c.devs || x < 0 || (type == 7 && s->ev.m.mask == 0)) {
        s->what = IS_DROP_RSP;
        return;
    }
    s->ev.kind = EV_RSP;
    s->ev.txn = (unsigned)x;
    s->ev.set = t->txn[x].set;
    if (slot && !conflict(t, s->ev.set))
        s->what = IS_RSP;
}

static void issue_fill(const spandex_llc_tm *t, const uint64_t *in, int slot, step_dec *s)
{
    uint64_t id = get(t, in, SPANDEX_LLC_P_mem_rsp_id_i);
    if (id >= t->c.txn || !t->txn[id].valid || t->txn[id].t.kind != SPANDEX_LLC_TX_FILL) {
        s->what = IS_DROP_MEM;
        return;
    }
    memset(&s->ev.m, 0, sizeof s->ev.m);
    get_words(t, in, SPANDEX_LLC_P_mem_rsp_data_i, s->ev.m.v);
    s->ev.kind = EV_FILL;
    s->ev.txn = (unsigned)id;
    s->ev.set = t->txn[id].set;
    if (slot && !conflict(t, s->ev.set))
        s->what = IS_FILL;
}

static int in_flight(const spandex_llc_tm *t, int kind)
{
    return (t->m_valid && t->m.kind == kind) || (t->d_valid && t->d.kind == kind);
}

static int fill_open(const spandex_llc_tm *t)
{
    unsigned i;
    for (i = 0; i < t->c.txn; i++)
        if (t->txn[i].valid && t->txn[i].t.kind == SPANDEX_LLC_TX_FILL)
            return 1;
    return 0;
}

/* Everything the clock edge does, decided from the state and the inputs
 * (no effect): E's message and its handshake, whether D and M advance and
 * what I issues. */
static void decide(const spandex_llc_tm *t, const uint64_t *in, step_dec *s)
{
    int slot, free_room = txn_free(t) > t->resv_txn;
    memset(s, 0, sizeof *s);
    e_current(t, &s->cm);
    s->d_adv = t->d_valid && !t->k_valid;
    s->m_adv = t->m_valid && (!t->d_valid || s->d_adv);
    slot = !t->m_valid || s->m_adv;
    if (t->sweep < t->c.sets || !(in[0] & 1))
        return;
    if (get(t, in, SPANDEX_LLC_P_rsp_valid_i) & 1) {
        issue_rsp(t, in, slot, s);
    } else if (get(t, in, SPANDEX_LLC_P_mem_rsp_valid_i) & 1) {
        issue_fill(t, in, slot, s);
    } else if (t->pass_active) {
        /* one replayed request at a time, its fill included: the pass
         * sends what the functional core sends, in the same order */
        if (t->pass_left && t->q_n && free_room && !in_flight(t, EV_REPLAY) && !fill_open(t)) {
            s->ev.kind = EV_REPLAY;
            s->ev.m = t->q[t->q_head].m;
            s->ev.set = set_of(t, s->ev.m.line);
            if (slot && !conflict(t, s->ev.set))
                s->what = IS_REPLAY;
        }
    } else if (!t->pass_req && (get(t, in, SPANDEX_LLC_P_req_valid_i) & 1)) {
        read_msg(t, in, 0, &s->ev.m);
        if ((get(t, in, SPANDEX_LLC_P_req_type_i) & 7) == 7 || s->ev.m.dev >= t->c.devs || s->ev.m.mask == 0) {
            s->what = IS_DROP_REQ;
            return;
        }
        s->ev.kind = EV_REQ;
        s->ev.set = set_of(t, s->ev.m.line);
        if (free_room && t->resv_def < t->c.defer - t->q_n && slot && !conflict(t, s->ev.set))
            s->what = IS_REQ;
    }
}

/* ---------------------------------------------------------------- D */
static tm_way *way_at(spandex_llc_tm *t, unsigned set, unsigned w) { return &t->ways[set * t->c.ways + w]; }

static void touch(spandex_llc_tm *t, unsigned set, unsigned v)
{
    unsigned *r = &t->rank[set * t->c.ways], u, old = r[v];
    for (u = 0; u < t->c.ways; u++)
        if (r[u] < old)
            r[u]++;
    r[v] = 0;
}

static unsigned txn_open(spandex_llc_tm *t, const spandex_llc_txn *x, unsigned set, unsigned way, uint64_t line)
{
    unsigned i;
    for (i = 0; i < t->c.txn && t->txn[i].valid; i++)
        ;
    t->txn[i].valid = 1;
    t->txn[i].t = *x;
    t->txn[i].set = set;
    t->txn[i].way = way;
    t->txn[i].line = line;
    return i;
}

static int line_blocked(const spandex_llc_tm *t, uint64_t line)
{
    unsigned i;
    for (i = 0; i < t->c.txn; i++)
        if (t->txn[i].valid && t->txn[i].line == line)
            return 1;
    return 0;
}

/* A deferred request holds q back: one of q's line, or (q needing a way)
 * one waiting for a way in q's set; a replayed q looks only at the
 * requests pushed back before it in this pass. */
static int held(const spandex_llc_tm *t, const spandex_msg *q, int needs_way, int replay)
{
    unsigned i;
    for (i = 0; i < t->q_n; i++) {
        const tm_def *e = &t->q[(t->q_head + i) % t->c.defer];
        if (replay && !e->stayed)
            continue;
        if (e->m.line == q->line || (needs_way && e->way && set_of(t, e->m.line) == set_of(t, q->line)))
            return 1;
    }
    return 0;
}

static void push(spandex_llc_tm *t, const spandex_msg *q, int way, int stayed)
{
    tm_def *e = &t->q[(t->q_head + t->q_n) % t->c.defer];
    e->m = *q;
    e->way = way;
    e->stayed = stayed;
    t->q_n++;
}

/* The way an absent line gets: a free way (-1 when the request waits). A
 * victim that cannot be dropped starts its eviction (job). */
static int d_alloc(spandex_llc_tm *t, unsigned set, tm_job *job)
{
    unsigned w, i;
    int v = -1;
    spandex_llc_txn x;
    for (w = 0; w < t->c.ways; w++)
        if (!way_at(t, set, w)->valid)
            return (int)w;
    for (i = 0; i < t->c.txn; i++)
        if (t->txn[i].valid && t->txn[i].set == set && t->txn[i].t.kind == SPANDEX_LLC_TX_EVICT)
            return -1;
    for (w = 0; w < t->c.ways; w++) {
        int busy = 0;
        for (i = 0; i < t->c.txn; i++)
            busy |= t->txn[i].valid && t->txn[i].set == set && t->txn[i].way == w;
        if (!busy && (v < 0 || t->rank[set * t->c.ways + w] > t->rank[set * t->c.ways + (unsigned)v]))
            v = (int)w;
    }
    if (v < 0)
        return -1;
    if (spandex_llc_rule_evict(&t->c, &t->g, &way_at(t, set, (unsigned)v)->w, &x, &job->msgs)) {
        job->line = way_at(t, set, (unsigned)v)->line;
        txn_open(t, &x, set, (unsigned)v, job->line);
        return -1;
    }
    if (way_at(t, set, (unsigned)v)->w.dirty) {
        job->memwr = 1;
        job->wr_line = way_at(t, set, (unsigned)v)->line;
        memcpy(job->wr_v, way_at(t, set, (unsigned)v)->w.data, sizeof job->wr_v);
    }
    return v;
}

static void d_request(spandex_llc_tm *t, const tm_ev *ev, tm_job *job)
{
    const spandex_msg *q = &ev->m;
    unsigned set = ev->set, w;
    int h = -1, replay = ev->kind == EV_REPLAY, needs_way;
    spandex_llc_txn x;
    char err[200];
    t->resv_txn--;
    t->resv_def--;
    for (w = 0; w < t->c.ways && h < 0; w++)
        if (way_at(t, set, w)->valid && way_at(t, set, w)->line == q->line)
            h = (int)w;
    needs_way = h < 0 && q->kind != SPANDEX_REQWB;
    if (line_blocked(t, q->line) || held(t, q, needs_way, replay)) {
        push(t, q, needs_way, replay);
        return;
    }
    job->line = q->line;
    if (q->kind == SPANDEX_REQWB) {
        spandex_llc_rule_wb(&t->c, &t->g, h >= 0 ? &way_at(t, set, (unsigned)h)->w : NULL, q, &job->msgs);
        return;
    }
    if (h < 0) {
        int fill = !spandex_llc_no_fill(&t->g, q->kind, spandex_llc_req_mask(&t->c, &t->g, q, 0));
        tm_way *a;
        h = d_alloc(t, set, job);
        if (h < 0) {
            push(t, q, 1, replay);
            return;
        }
        a = way_at(t, set, (unsigned)h);
        a->valid = 1;
        a->line = q->line;
        spandex_llc_way_fresh(&a->w);
        touch(t, set, (unsigned)h);
        if (fill) {
            memset(&x, 0, sizeof x);
            x.open = 1;
            x.kind = SPANDEX_LLC_TX_FILL;
            x.req = *q;
            job->memrd = 1;
            job->rd_line = q->line;
            job->rd_id = txn_open(t, &x, set, (unsigned)h, q->line);
            return;
        }
        memset(a->w.data, 0, sizeof a->w.data);
    } else {
        touch(t, set, (unsigned)h);
    }
    job->line = q->line;
    if (spandex_llc_rule_request(&t->c, &t->g, &way_at(t, set, (unsigned)h)->w, q, &job->msgs, &x, err,
                                 sizeof err) != 0) {
        t->err = 1;
        return;
    }
    if (x.open)
        txn_open(t, &x, set, (unsigned)h, q->line);
}

/* An Ack or RspRvkO; 1 when it completes its transaction. */
static int d_answer(spandex_llc_tm *t, const tm_ev *ev, tm_job *job)
{
    tm_txn *x = &t->txn[ev->txn];
    tm_way *a = way_at(t, x->set, x->way);
    spandex_msg q = ev->m;
    char err[200];
    int done;
    q.line = x->line;
    if (spandex_llc_rule_answer(&t->c, &t->g, &a->w, &x->t, &q, &done, err, sizeof err) != 0) {
        t->err = 1;
        return 0;
    }
    if (!done)
        return 0;
    job->line = x->line;
    if (x->t.kind == SPANDEX_LLC_TX_EVICT) {
        if (a->w.dirty) {
            job->memwr = 1;
            job->wr_line = x->line;
            memcpy(job->wr_v, a->w.data, sizeof job->wr_v);
        }
        a->valid = 0;
    } else {
        spandex_llc_rule_complete(&t->c, &t->g, &a->w, &x->t, &job->msgs);
    }
    x->valid = 0;
    return 1;
}

/* Fill data: the waiting request on the fresh line. */
static void d_fill(spandex_llc_tm *t, const tm_ev *ev, tm_job *job)
{
    tm_txn *x = &t->txn[ev->txn];
    tm_way *a = way_at(t, x->set, x->way);
    spandex_llc_txn y;
    char err[200];
    memcpy(a->w.data, ev->m.v, sizeof a->w.data);
    job->line = x->line;
    if (spandex_llc_rule_request(&t->c, &t->g, &a->w, &x->t.req, &job->msgs, &y, err, sizeof err) != 0)
        t->err = 1;
    x->valid = 0;
}

/* D's event: the state updated, the job filled; 1 when a transaction
 * completed (a replay pass follows). */
static int d_step(spandex_llc_tm *t, tm_job *job)
{
    memset(job, 0, sizeof *job);
    job->msgs.fwd = SPANDEX_FWDREQV;
    switch (t->d.kind) {
    case EV_RSP: return d_answer(t, &t->d, job);
    case EV_FILL: d_fill(t, &t->d, job); return 1;
    default: d_request(t, &t->d, job); return 0;
    }
}

static int job_empty(const spandex_llc_tm *t, const tm_job *j) { return job_count(t, j) == 0; }

/* ------------------------------------------------------------ eval, step */
void spandex_llc_tm_eval(const spandex_llc_tm *t, const uint64_t *in, uint64_t *out)
{
    step_dec s;
    unsigned i;
    decide(t, in, &s);
    for (i = 0; i < t->p.out_words; i++)
        out[i] = 0;
    put(t, out, SPANDEX_LLC_P_req_ready_o, s.what == IS_REQ || s.what == IS_DROP_REQ);
    put(t, out, SPANDEX_LLC_P_rsp_ready_o, s.what == IS_RSP || s.what == IS_DROP_RSP);
    put(t, out, SPANDEX_LLC_P_mem_rsp_ready_o, s.what == IS_FILL || s.what == IS_DROP_MEM);
    put(t, out, SPANDEX_LLC_P_idle_o, spandex_llc_tm_idle(t));
    put(t, out, SPANDEX_LLC_P_err_o, (uint64_t)t->err);
    switch (s.cm.port) {
    case PORT_MEM:
        put(t, out, SPANDEX_LLC_P_mem_req_valid_o, 1);
        put(t, out, SPANDEX_LLC_P_mem_req_wr_o, s.cm.m.kind == SPANDEX_MEMWR);
        put(t, out, SPANDEX_LLC_P_mem_req_id_o, s.cm.m.kind == SPANDEX_MEMRD ? s.cm.m.req : 0);
        put(t, out, SPANDEX_LLC_P_mem_req_line_o, s.cm.m.line >> t->g.line_bits);
        put_words(t, out, SPANDEX_LLC_P_mem_req_data_o, s.cm.m.v, s.cm.m.kind == SPANDEX_MEMWR ? t->g.full : 0);
        break;
    case PORT_FWD:
        put(t, out, SPANDEX_LLC_P_fwd_valid_o, 1);
        put(t, out, SPANDEX_LLC_P_fwd_type_o, spandex_msg_code(s.cm.m.kind));
        put(t, out, SPANDEX_LLC_P_fwd_dst_o, s.cm.m.dev);
        put(t, out, SPANDEX_LLC_P_fwd_line_o, s.cm.m.line >> t->g.line_bits);
        put(t, out, SPANDEX_LLC_P_fwd_mask_o, s.cm.m.mask);
        put(t, out, SPANDEX_LLC_P_fwd_req_o, s.cm.m.req);
        break;
    case PORT_OUT:
        put(t, out, SPANDEX_LLC_P_out_valid_o, 1);
        put(t, out, SPANDEX_LLC_P_out_type_o, spandex_msg_code(s.cm.m.kind));
        put(t, out, SPANDEX_LLC_P_out_dst_o, s.cm.m.dev);
        put(t, out, SPANDEX_LLC_P_out_line_o, s.cm.m.line >> t->g.line_bits);
        put(t, out, SPANDEX_LLC_P_out_mask_o, s.cm.m.mask);
        put_words(t, out, SPANDEX_LLC_P_out_data_o, s.cm.m.v, spandex_msg_has_data(s.cm.m.kind) ? s.cm.m.mask : 0);
        break;
    default: break;
    }
}

void spandex_llc_tm_step(spandex_llc_tm *t, const uint64_t *in)
{
    step_dec s;
    int start, end, done = 0;
    unsigned i;
    if (!(in[0] & 1)) {
        spandex_llc_tm_reset(t);
        return;
    }
    decide(t, in, &s);
    start = !t->pass_active && t->pass_req && !in_flight(t, EV_REQ) && !in_flight(t, EV_REPLAY);
    end = t->pass_active && t->pass_left == 0 && !in_flight(t, EV_REPLAY);
    if (s.cm.port && accepted(t, in, &s.cm))
        e_consume(t);
    if (!t->e_valid && t->k_valid) {
        t->e = t->k;
        t->e_valid = 1;
        t->k_valid = 0;
    }
    t->w_valid = s.d_adv;
    if (s.d_adv) {
        tm_job job;
        t->w_set = t->d.set;
        done = d_step(t, &job);
        t->d_valid = 0;
        if (!job_empty(t, &job) && !t->e_valid) {
            t->e = job;
            t->e_valid = 1;
        } else if (!job_empty(t, &job)) {
            t->k = job;
            t->k_valid = 1;
        }
    }
    if (s.m_adv) {
        t->d = t->m;
        t->d_valid = 1;
        t->m_valid = 0;
    }
    switch (s.what) {
    case IS_REPLAY:
        t->q_head = (t->q_head + 1) % t->c.defer;
        t->q_n--;
        t->pass_left--;
        /* fall through */
    case IS_REQ:
        t->resv_txn++;
        t->resv_def++;
        /* fall through */
    case IS_RSP:
    case IS_FILL:
        t->m = s.ev;
        t->m_valid = 1;
        break;
    case IS_DROP_RSP:
    case IS_DROP_MEM:
    case IS_DROP_REQ: t->err = 1; break;
    default: break;
    }
    if (start) {
        t->pass_active = 1;
        t->pass_left = t->q_n;
        for (i = 0; i < t->c.defer; i++)
            t->q[i].stayed = 0;
    }
    if (end)
        t->pass_active = 0;
    t->pass_req = (t->pass_req && !start) || done;
    if (t->sweep < t->c.sets)
        t->sweep++;
}

int spandex_llc_tm_idle(const spandex_llc_tm *t)
{
    return !(t->sweep < t->c.sets || t->m_valid || t->d_valid || t->e_valid || t->k_valid || t->pass_active ||
             t->pass_req || fill_open(t));
}
