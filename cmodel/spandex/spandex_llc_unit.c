/*
 * The Spandex LLC as a registry unit (cmodel/unit.h): port table, timing
 * shell adapters, the stimulus of the lockstep bench and the trace tool
 * (`cohmodel spandex-llc`, spec 9.2).
 *
 * Random streams simulate the devices' side: requests from devices with at
 * most one request each in flight (2-4 in `backlog`, each on its line),
 * never for words the device owns (X15; in line mode no request but ReqWB
 * on a line it owns a word of), the Acks and RspRvkOs the LLC asks for
 * answered after random delays in random order (an RspRvkO sometimes
 * split), a memory with random latency, and back-pressure on every output.
 * The device side learns ownership from the LLC's messages as the LLC sends
 * them. The `errors` stream is `mixed` with a protocol error injected every
 * few thousand cycles (inject_*), which err_o must show. A trace run feeds
 * one event at a time, each when the LLC is idle, so its output is the
 * trace tool's.
 */
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "spandex_llc.h"
#include "spandex_llc_port.h"
#include "unit_adapt.h"
#include "unit_trace.h"

static const char *const streams[] = {"mixed", "conflict", "stream", "backlog", "errors", NULL};
enum { KIND_MIXED, KIND_CONFLICT, KIND_STREAM, KIND_BACKLOG, KIND_ERRORS, KIND_TRACE };
enum { FLAG_DUMP, FLAG_STATS, FLAG_CHECK };

COHKIT_UNIT_PORTS_BEGIN(spandex_llc_cfg, spandex_llc_geom, spandex_llc_geom_of, c)
#include "spandex_llc_ports.def"
COHKIT_UNIT_PORTS_END

COHKIT_UNIT_ADAPTERS(spandex_llc, spandex_llc_cfg, spandex_llc_tm, uint64_t, uint64_t, spandex_llc_tm_new,
                     spandex_llc_tm_free, spandex_llc_tm_reset, spandex_llc_tm_eval, spandex_llc_tm_step)

static int u_cfg_check_model(void *cfg, char *err, size_t len) { return spandex_llc_cfg_check_model(cfg, err, len); }

#define P(n) SPANDEX_LLC_P_##n
#define POOL_MAX 256
#define OWE_MAX 4096
#define FILL_MAX 64
#define INFLIGHT_MAX 4 /* requests a device has in flight (backlog: defer / devs + 1, at least 2) */

typedef struct {
    spandex_msg_kind kind; /* SPANDEX_ACK or SPANDEX_RSPRVKO */
    unsigned dev;
    uint64_t line, mask, due;
} owe;

typedef struct {
    int active;
    spandex_msg_kind kind;
    uint64_t line, remaining;
} outst;

typedef struct {
    uint64_t line;
    uint64_t v[SPANDEX_LLC_WORDS_MAX];
} memline;

typedef struct {
    cohkit_unit_stim_base b;
    spandex_llc_cfg c;
    spandex_llc_geom g;
    spandex_llc_ports p;
    const char *const *fl;
    unsigned npool, nsets;
    int *owner; /* npool x W: the registered owner as the messages say */
    memline *mem;
    size_t nmem, capmem;
    outst dev[SPANDEX_LLC_DEVS_MAX][INFLIGHT_MAX];
    unsigned depth; /* requests a device may have in flight */
    owe *ow;
    unsigned now;
    struct {
        unsigned id;
        uint64_t line, due;
    } fq[FILL_MAX];
    unsigned nfq;
    int have_req, have_rsp, idle, taken;
    spandex_msg req, rsp;
    spandex_llc_event_rec *tr;
    size_t ntr, next;
    int driving;
    uint64_t nreq[8], nmsg[SPANDEX_MSG_KINDS], valid_cyc, accepted, answers, fills, err_cycles;
    /* errors: the request or answer offered is an injected error (req_bad:
     * 1 type code 7, 2 empty mask); inj_k errors taken so far, the next due
     * at inj_next; the cycles of the first one taken and of err_o's rise */
    int req_bad, rsp_bad;
    unsigned inj_k;
    uint64_t inj_next, inj_ack, inj_req, inj_first, err_first;
} sx_stim;

/* ------------------------------------------------------------- memory */
static memline *mem_line(sx_stim *s, uint64_t line)
{
    size_t i;
    unsigned w;
    for (i = 0; i < s->nmem; i++)
        if (s->mem[i].line == line)
            return &s->mem[i];
    if (cohkit_trace_grow(&s->mem, &s->capmem, s->nmem, sizeof *s->mem, 64) != 0)
        return NULL;
    s->mem[s->nmem].line = line;
    for (w = 0; w < s->g.words; w++)
        s->mem[s->nmem].v[w] = (line + (uint64_t)w * s->c.word) & cohkit_mask64(s->g.word_bits);
    return &s->mem[s->nmem++];
}

/* ---------------------------------------------------------------- new */
/* Line i of the pool: tags 0, 1, ... a set, the odd ones with the top tag
 * bit set when the tags leave it free (line 0 and every tag bit in use). */
static uint64_t pool_line(const sx_stim *s, unsigned i)
{
    uint64_t set = i % s->nsets, k = i / s->nsets, tag = k, top;
    unsigned tb = s->g.tag_bits;
    top = tb >= 2 && tb <= 63 ? 1ull << (tb - 1) : 0;
    if (top && (k & 1) && (uint64_t)(s->npool / s->nsets) < top)
        tag |= top;
    return ((tag << s->g.set_bits) | set) << s->g.line_bits;
}

static int pool_index(const sx_stim *s, uint64_t line)
{
    unsigned i;
    for (i = 0; i < s->npool; i++)
        if (pool_line(s, i) == line)
            return (int)i;
    return -1;
}

static void stim_free(void *p)
{
    sx_stim *s = p;
    if (s == NULL)
        return;
    free(s->owner);
    free(s->mem);
    free(s->ow);
    free(s->tr);
    free(s);
}

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    sx_stim *s = p;
    unsigned i, per_set;
    s->c = *(const spandex_llc_cfg *)cfg;
    spandex_llc_geom_of(&s->c, &s->g);
    spandex_llc_ports_of(&s->c, &s->p);
    s->fl = a->flags;
    if (s->b.trace) {
        if (spandex_llc_trace_read(&s->c, a->trace, &s->tr, &s->ntr, err, len) != 0)
            return cohkit_unit_stim_trace_err(a, err, len);
        return 0;
    }
    s->depth = 1;
    if (s->b.kind == KIND_BACKLOG) {
        s->depth = s->c.defer / s->c.devs + 1;
        s->depth = s->depth < 2 ? 2 : s->depth > INFLIGHT_MAX ? INFLIGHT_MAX : s->depth;
    }
    switch (s->b.kind) {
    case KIND_CONFLICT:
    case KIND_BACKLOG: s->nsets = 1; per_set = s->c.ways + 2; break;
    case KIND_STREAM: s->nsets = s->c.sets < 64 ? s->c.sets : 64; per_set = 1; break;
    default: s->nsets = s->c.sets < 4 ? s->c.sets : 4; per_set = 2 * s->c.ways; break;
    }
    s->npool = s->nsets * per_set < POOL_MAX ? s->nsets * per_set : POOL_MAX;
    s->owner = malloc((size_t)s->npool * s->g.words * sizeof *s->owner);
    s->ow = calloc(OWE_MAX, sizeof *s->ow);
    if (s->owner == NULL || s->ow == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    for (i = 0; i < s->npool * s->g.words; i++)
        s->owner[i] = -1;
    s->inj_next = s->b.kind == KIND_ERRORS ? 1000 + cohkit_unit_rnd(&s->b.rng) % 1000 : UINT64_MAX;
    return 0;
}

COHKIT_UNIT_STIM_NEW(sx_stim, 0x5350414e44455831ull)

/* -------------------------------------------------------------- drive */
static uint64_t rnd(sx_stim *s) { return cohkit_unit_rnd(&s->b.rng); }
static unsigned pct(sx_stim *s) { return cohkit_unit_pct(&s->b.rng); }

static uint64_t value(sx_stim *s)
{
    return (pct(s) < 25 ? rnd(s) : rnd(s) % 256) & cohkit_mask64(s->g.word_bits);
}

static uint64_t owned_by(const sx_stim *s, int li, unsigned d)
{
    uint64_t m = 0;
    unsigned w;
    for (w = 0; w < s->g.words; w++)
        if (s->owner[(unsigned)li * s->g.words + w] == (int)d)
            m |= 1ull << w;
    return m;
}

/* Device d's request in flight on line, or NULL. */
static outst *inflight(sx_stim *s, unsigned d, uint64_t line)
{
    unsigned k;
    for (k = 0; d < SPANDEX_LLC_DEVS_MAX && k < s->depth; k++)
        if (s->dev[d][k].active && s->dev[d][k].line == line)
            return &s->dev[d][k];
    return NULL;
}

/* Device d may ask for line: it has a request to spare and none on the line
 * (a grant in flight there would make words it asks for its own, X15). */
static int may_ask(sx_stim *s, unsigned d, uint64_t line)
{
    unsigned k, n = 0;
    for (k = 0; k < s->depth; k++)
        n += s->dev[d][k].active;
    return n < s->depth && inflight(s, d, line) == NULL;
}

/* A legal request from a device with a request to spare: 1, or 0 (none now). */
static int make_req(sx_stim *s)
{
    static const spandex_msg_kind mixed[] = {SPANDEX_REQV,      SPANDEX_REQV,  SPANDEX_REQS,     SPANDEX_REQS,
                                             SPANDEX_REQWT,     SPANDEX_REQWT, SPANDEX_REQO,     SPANDEX_REQODATA,
                                             SPANDEX_REQWTDATA, SPANDEX_REQWB, SPANDEX_REQWB};
    static const spandex_msg_kind stream[] = {SPANDEX_REQV, SPANDEX_REQV, SPANDEX_REQV, SPANDEX_REQWT, SPANDEX_REQWT};
    spandex_msg *m = &s->req;
    unsigned d = (unsigned)(rnd(s) % s->c.devs), w;
    int li = (int)(rnd(s) % s->npool);
    uint64_t own;
    if (s->b.kind == KIND_BACKLOG && pct(s) < 30)
        li = 0; /* the hot line: many requests behind one blocked line */
    if (!may_ask(s, d, pool_line(s, (unsigned)li)))
        return 0;
    memset(m, 0, sizeof *m);
    m->dev = d;
    m->line = pool_line(s, (unsigned)li);
    m->kind = s->b.kind == KIND_STREAM ? stream[rnd(s) % 5] : mixed[rnd(s) % 11];
    m->mask = pct(s) < 50 ? s->g.full : rnd(s) & s->g.full;
    own = owned_by(s, li, d);
    if (m->kind == SPANDEX_REQWB && own && pct(s) < 75)
        m->mask = own & (pct(s) < 50 ? ~0ull : rnd(s));
    if (m->kind != SPANDEX_REQWB) {
        if (s->c.gran == SPANDEX_LLC_GRAN_LINE && own)
            return 0;
        m->mask &= ~own;
    }
    if (m->mask == 0)
        return 0;
    m->op = (unsigned)(rnd(s) % 8);
    for (w = 0; w < s->g.words; w++)
        if (m->mask >> w & 1)
            m->v[w] = value(s);
    return 1;
}

/* A due answer (Ack or RspRvkO, sometimes part of one): 1, or 0. */
static int make_rsp(sx_stim *s, uint64_t cyc)
{
    unsigned i, n = 0, k, w;
    owe *o;
    for (i = 0; i < s->now; i++)
        n += s->ow[i].due <= cyc;
    if (n == 0)
        return 0;
    k = (unsigned)(rnd(s) % n);
    for (i = 0; i < s->now; i++)
        if (s->ow[i].due <= cyc && k-- == 0)
            break;
    o = &s->ow[i];
    memset(&s->rsp, 0, sizeof s->rsp);
    s->rsp.kind = o->kind;
    s->rsp.dev = o->dev;
    s->rsp.line = o->line;
    s->rsp.mask = o->mask;
    if (o->kind == SPANDEX_RSPRVKO && cohkit_popcount(o->mask) > 1 && pct(s) < 30) {
        uint64_t part = o->mask & rnd(s);
        if (part && part != o->mask)
            s->rsp.mask = part;
    }
    for (w = 0; w < s->g.words; w++)
        if (s->rsp.mask >> w & 1)
            s->rsp.v[w] = value(s);
    return 1;
}

/* ------------------------------------------------- injected errors */
/* An Ack the LLC does not wait for on a line it waits for, dropped in D as
 * a protocol error: the line of an RspRvkO still owed, whose Invs all went
 * before its RvkO or FwdReqS (canonical order), so that its transaction
 * stays open and waits for an Ack from no device but those owing one; the
 * Ack comes from another device. 1, or 0 (no such line now). */
static int inject_ack(sx_stim *s)
{
    unsigned i, n = 0, k, d;
    uint64_t line, cand = 0;
    for (i = 0; i < s->now; i++)
        n += s->ow[i].kind == SPANDEX_RSPRVKO;
    if (n == 0)
        return 0;
    k = (unsigned)(rnd(s) % n);
    for (i = 0; i < s->now; i++)
        if (s->ow[i].kind == SPANDEX_RSPRVKO && k-- == 0)
            break;
    line = s->ow[i].line;
    for (d = 0; d < s->c.devs; d++)
        cand |= 1ull << d;
    for (i = 0; i < s->now; i++)
        if (s->ow[i].kind == SPANDEX_ACK && s->ow[i].line == line)
            cand &= ~(1ull << s->ow[i].dev);
    if (cand == 0)
        return 0;
    k = (unsigned)(rnd(s) % (uint64_t)cohkit_popcount(cand));
    for (d = 0; !(cand >> d & 1) || k-- != 0; d++)
        ;
    memset(&s->rsp, 0, sizeof s->rsp);
    s->rsp.kind = SPANDEX_ACK;
    s->rsp.dev = d;
    s->rsp.line = line;
    s->rsp_bad = 1;
    return 1;
}

/* A malformed request, dropped at issue as a protocol error: type code 7
 * or an empty mask, in turn. */
static int inject_req(sx_stim *s)
{
    spandex_msg *m = &s->req;
    unsigned w;
    memset(m, 0, sizeof *m);
    m->kind = SPANDEX_REQV;
    m->dev = (unsigned)(rnd(s) % s->c.devs);
    m->line = pool_line(s, (unsigned)(rnd(s) % s->npool));
    s->req_bad = s->inj_k & 2 ? 2 : 1;
    m->mask = s->req_bad == 2 ? 0 : (rnd(s) & s->g.full) | 1;
    for (w = 0; w < s->g.words; w++)
        if (m->mask >> w & 1)
            m->v[w] = value(s);
    return 1;
}

static void put_req(const sx_stim *s, uint64_t *in, const spandex_msg *m)
{
    in[s->p.off[P(req_valid_i)]] = 1;
    in[s->p.off[P(req_type_i)]] = m == &s->req && s->req_bad == 1 ? 7 : (uint64_t)(m->kind - SPANDEX_REQV);
    in[s->p.off[P(req_src_i)]] = m->dev;
    in[s->p.off[P(req_line_i)]] = m->line >> s->g.line_bits;
    in[s->p.off[P(req_mask_i)]] = m->mask;
    in[s->p.off[P(req_op_i)]] = m->op;
    spandex_ports_put_words(&s->p, in, P(req_data_i), m->v, m->mask);
}

static void put_rsp(const sx_stim *s, uint64_t *in, const spandex_msg *m)
{
    in[s->p.off[P(rsp_valid_i)]] = 1;
    in[s->p.off[P(rsp_type_i)]] = m->kind == SPANDEX_ACK ? 8 : 7;
    in[s->p.off[P(rsp_src_i)]] = m->dev;
    in[s->p.off[P(rsp_line_i)]] = m->line >> s->g.line_bits;
    in[s->p.off[P(rsp_mask_i)]] = m->mask;
    spandex_ports_put_words(&s->p, in, P(rsp_data_i), m->v, m->mask);
}

static void drive_trace(sx_stim *s, uint64_t *in)
{
    if (!s->driving && s->next < s->ntr && s->idle && pct(s) < s->b.bp.valid)
        s->driving = 1;
    if (!s->driving)
        return;
    if (s->tr[s->next].m.kind == SPANDEX_ACK || s->tr[s->next].m.kind == SPANDEX_RSPRVKO)
        put_rsp(s, in, &s->tr[s->next].m);
    else
        put_req(s, in, &s->tr[s->next].m);
}

static const unsigned sched_valid[] = {100, 70, 30}, sched_ready[] = {100, 80, 40};
static const cohkit_unit_bp_sched sched = COHKIT_UNIT_BP_SCHED(sched_valid, sched_ready);

static void stim_drive(void *p, uint64_t cyc, uint64_t *in)
{
    sx_stim *s = p;
    unsigned i;
    for (i = 1; i < s->p.in_words; i++)
        in[i] = 0;
    if (!s->b.trace && (cyc & 1023) == 0)
        cohkit_unit_bp_draw(&sched, &s->b.rng, &s->b.bp);
    if (s->b.trace) {
        drive_trace(s, in);
    } else {
        /* an injected error waits for its port to be free of a legal one
         * (Ack and malformed request in turn) */
        if (!s->have_req && cyc >= s->inj_next && (s->inj_k & 1))
            s->have_req = inject_req(s);
        if (!s->have_req && pct(s) < s->b.bp.valid)
            s->have_req = make_req(s);
        if (s->have_req)
            put_req(s, in, &s->req);
        if (!s->have_rsp && cyc >= s->inj_next && !(s->inj_k & 1))
            s->have_rsp = inject_ack(s);
        if (!s->have_rsp && pct(s) < 60)
            s->have_rsp = make_rsp(s, cyc);
        if (s->have_rsp)
            put_rsp(s, in, &s->rsp);
    }
    if (s->nfq && s->fq[0].due <= cyc) {
        memline *m = mem_line(s, s->fq[0].line);
        in[s->p.off[P(mem_rsp_valid_i)]] = 1;
        in[s->p.off[P(mem_rsp_id_i)]] = s->fq[0].id;
        if (m)
            spandex_ports_put_words(&s->p, in, P(mem_rsp_data_i), m->v, s->g.full);
    }
    in[s->p.off[P(fwd_ready_i)]] = pct(s) < s->b.bp.ready;
    in[s->p.off[P(out_ready_i)]] = pct(s) < s->b.bp.ready;
    in[s->p.off[P(mem_req_ready_i)]] = pct(s) < s->b.bp.ready;
}

/* ------------------------------------------------------------ observe */
/* The bound of an answer's delay: in backlog a quarter of the answers
 * come late, holding their lines blocked while requests pile up behind. */
static unsigned answer_delay(sx_stim *s)
{
    if (s->b.kind == KIND_CONFLICT)
        return 8;
    return s->b.kind == KIND_BACKLOG && pct(s) < 25 ? 200 : 24;
}

static void add_owe(sx_stim *s, spandex_msg_kind k, unsigned d, uint64_t line, uint64_t mask, uint64_t cyc)
{
    owe *o;
    if (s->now == OWE_MAX)
        return;
    o = &s->ow[s->now++];
    o->kind = k;
    o->dev = d;
    o->line = line;
    o->mask = mask;
    o->due = cyc + 1 + rnd(s) % answer_delay(s);
}

/* The words of requestor r's request in flight on line that a response or
 * forward answers. */
static void answered(sx_stim *s, unsigned r, uint64_t line, uint64_t mask)
{
    outst *o = inflight(s, r, line);
    if (o) {
        o->remaining &= ~mask;
        o->active = o->remaining != 0;
    }
}

static void set_owner(sx_stim *s, uint64_t line, uint64_t mask, int d, int only_if)
{
    int li = pool_index(s, line);
    unsigned w;
    if (li < 0)
        return;
    for (w = 0; w < s->g.words; w++)
        if ((mask >> w & 1) && (only_if < 0 || s->owner[(unsigned)li * s->g.words + w] == only_if))
            s->owner[(unsigned)li * s->g.words + w] = d;
}

static void on_fwd(sx_stim *s, const spandex_msg *m, uint64_t cyc)
{
    switch (m->kind) {
    case SPANDEX_INV: add_owe(s, SPANDEX_ACK, m->dev, m->line, 0, cyc); return;
    case SPANDEX_RVKO: add_owe(s, SPANDEX_RSPRVKO, m->dev, m->line, m->mask, cyc); return;
    case SPANDEX_FWDREQS: add_owe(s, SPANDEX_RSPRVKO, m->dev, m->line, m->mask, cyc); break;
    case SPANDEX_FWDREQO: {
        const outst *o = inflight(s, m->req, m->line);
        set_owner(s, m->line, m->mask, o && o->kind == SPANDEX_REQWT ? -1 : (int)m->req, -1);
        break;
    }
    case SPANDEX_FWDREQODATA: set_owner(s, m->line, m->mask, (int)m->req, -1); break;
    default: break;
    }
    answered(s, m->req, m->line, m->mask);
}

static void on_out(sx_stim *s, const spandex_msg *m)
{
    if (m->kind == SPANDEX_RSPO || m->kind == SPANDEX_RSPODATA)
        set_owner(s, m->line, m->mask, (int)m->dev, -1);
    if (m->kind == SPANDEX_RSPWB)
        set_owner(s, m->line, m->mask, -1, (int)m->dev);
    answered(s, m->dev, m->line, m->mask);
}

static void on_mem(sx_stim *s, const spandex_msg *m, uint64_t cyc)
{
    if (m->kind == SPANDEX_MEMWR) {
        memline *l = mem_line(s, m->line);
        if (l)
            memcpy(l->v, m->v, sizeof l->v);
    } else if (s->nfq < FILL_MAX) {
        s->fq[s->nfq].id = m->req;
        s->fq[s->nfq].line = m->line;
        s->fq[s->nfq].due = cyc + 1 + (s->b.trace ? 2 : rnd(s) % 8);
        s->nfq++;
    }
    s->fills += m->kind == SPANDEX_MEMRD;
}

/* The message on an output channel in a handshake this cycle (0: none). */
static int out_msg(const sx_stim *s, const uint64_t *in, const uint64_t *out, int ch, spandex_msg *m)
{
    memset(m, 0, sizeof *m);
    if (ch == 0 && (out[s->p.off[P(mem_req_valid_o)]] & 1) && (in[s->p.off[P(mem_req_ready_i)]] & 1)) {
        m->kind = out[s->p.off[P(mem_req_wr_o)]] & 1 ? SPANDEX_MEMWR : SPANDEX_MEMRD;
        m->line = out[s->p.off[P(mem_req_line_o)]] << s->g.line_bits;
        m->req = (unsigned)out[s->p.off[P(mem_req_id_o)]];
        spandex_ports_get_words(&s->p, out, P(mem_req_data_o), m->v);
        return 1;
    }
    if (ch == 1 && (out[s->p.off[P(fwd_valid_o)]] & 1) && (in[s->p.off[P(fwd_ready_i)]] & 1)) {
        m->kind = (spandex_msg_kind)(SPANDEX_FWDREQV + (out[s->p.off[P(fwd_type_o)]] & 7));
        m->dev = (unsigned)out[s->p.off[P(fwd_dst_o)]];
        m->line = out[s->p.off[P(fwd_line_o)]] << s->g.line_bits;
        m->mask = out[s->p.off[P(fwd_mask_o)]];
        m->req = (unsigned)out[s->p.off[P(fwd_req_o)]];
        return m->kind <= SPANDEX_INV;
    }
    if (ch == 2 && (out[s->p.off[P(out_valid_o)]] & 1) && (in[s->p.off[P(out_ready_i)]] & 1)) {
        m->kind = (spandex_msg_kind)(SPANDEX_RSPV + (out[s->p.off[P(out_type_o)]] & 15));
        m->dev = (unsigned)out[s->p.off[P(out_dst_o)]];
        m->line = out[s->p.off[P(out_line_o)]] << s->g.line_bits;
        m->mask = out[s->p.off[P(out_mask_o)]];
        spandex_ports_get_words(&s->p, out, P(out_data_o), m->v);
        return m->kind <= SPANDEX_NACK;
    }
    return 0;
}

/* An answer taken: the owe it settles (all of it, or the words sent). */
static void answer_taken(sx_stim *s, const spandex_msg *m)
{
    unsigned i;
    for (i = 0; i < s->now; i++) {
        owe *o = &s->ow[i];
        if (o->kind != m->kind || o->dev != m->dev || o->line != m->line || (m->mask & ~o->mask))
            continue;
        o->mask &= ~m->mask;
        if (o->kind == SPANDEX_ACK || o->mask == 0)
            s->ow[i] = s->ow[--s->now];
        break;
    }
    if (m->kind == SPANDEX_RSPRVKO)
        set_owner(s, m->line, m->mask, -1, -1);
    s->answers++;
}

/* A slot of device d for its request taken (may_ask left one free). */
static outst *free_slot(sx_stim *s, unsigned d)
{
    unsigned k;
    for (k = 0; k + 1 < s->depth && s->dev[d][k].active; k++)
        ;
    return &s->dev[d][k];
}

/* An injected error taken: counted, and the next one drawn. */
static void inject_taken(sx_stim *s, uint64_t cyc, uint64_t *count)
{
    if (s->inj_k++ == 0)
        s->inj_first = cyc;
    (*count)++;
    s->inj_next = cyc + 4000 + rnd(s) % 4000;
}

static void observe_inputs(sx_stim *s, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    int req_taken = (in[s->p.off[P(req_valid_i)]] & 1) && (out[s->p.off[P(req_ready_o)]] & 1);
    int rsp_taken = (in[s->p.off[P(rsp_valid_i)]] & 1) && (out[s->p.off[P(rsp_ready_o)]] & 1);
    if (in[s->p.off[P(req_valid_i)]] & 1)
        s->valid_cyc++;
    /* fill data taken: the oldest of the fill queue answered (a replayed
     * stimulus may offer fill data nothing asked for: the queue is empty) */
    if ((in[s->p.off[P(mem_rsp_valid_i)]] & 1) && (out[s->p.off[P(mem_rsp_ready_o)]] & 1) && s->nfq > 0) {
        memmove(&s->fq[0], &s->fq[1], (s->nfq - 1) * sizeof s->fq[0]);
        s->nfq--;
    }
    if (s->b.trace) {
        s->taken = s->driving && (req_taken || rsp_taken);
        if (s->taken) {
            s->driving = 0;
            s->next++;
        }
        return;
    }
    if (req_taken && s->req_bad) {
        inject_taken(s, cyc, &s->inj_req);
        s->req_bad = 0;
        s->have_req = 0;
    } else if (req_taken) {
        outst *o = free_slot(s, s->req.dev);
        int widened = s->c.gran == SPANDEX_LLC_GRAN_LINE && s->req.kind != SPANDEX_REQWT &&
                      s->req.kind != SPANDEX_REQWTDATA && s->req.kind != SPANDEX_REQWB;
        o->active = 1;
        o->kind = s->req.kind;
        o->line = s->req.line;
        o->remaining = widened ? s->g.full : s->req.mask;
        s->nreq[s->req.kind - SPANDEX_REQV]++;
        s->accepted++;
        s->have_req = 0;
    }
    if (rsp_taken && s->rsp_bad)
        inject_taken(s, cyc, &s->inj_ack);
    else if (rsp_taken)
        answer_taken(s, &s->rsp);
    if (rsp_taken) {
        s->rsp_bad = 0;
        s->have_rsp = 0;
    }
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    sx_stim *s = p;
    spandex_msg m;
    int ch;
    observe_inputs(s, cyc, in, out);
    for (ch = 0; ch < 3; ch++) {
        if (!out_msg(s, in, out, ch, &m))
            continue;
        s->nmsg[m.kind]++;
        if (s->b.out)
            spandex_msg_print(&m, s->g.words, s->b.out);
        if (ch == 0)
            on_mem(s, &m, cyc);
        else if (!s->b.trace && ch == 1)
            on_fwd(s, &m, cyc);
        else if (!s->b.trace)
            on_out(s, &m);
    }
    /* idle_o of this cycle says nothing of an event taken in it */
    s->idle = (int)(out[s->p.off[P(idle_o)]] & 1) && !s->taken;
    if ((out[s->p.off[P(err_o)]] & 1) && s->err_cycles++ == 0)
        s->err_first = cyc;
}

/* ------------------------------------------------------------ summary */
static int stim_done(const void *p, const void *tm)
{
    const sx_stim *s = p;
    return s->next == s->ntr && !s->driving && s->nfq == 0 && spandex_llc_tm_idle(tm);
}

static uint64_t stim_limit(const void *p)
{
    const sx_stim *s = p;
    return 1000 + (uint64_t)s->c.sets + (uint64_t)(s->ntr + 1) * 400;
}

static void stim_summary(const void *p, const void *tm, uint64_t cycles, FILE *f, const char *lead)
{
    const sx_stim *s = p;
    unsigned k;
    (void)tm;
    fprintf(f, "%scycles %llu  requests %llu (", lead, (unsigned long long)cycles, (unsigned long long)s->accepted);
    for (k = 0; k < 7; k++)
        fprintf(f, "%s%s %llu", k ? " " : "", spandex_msg_name((spandex_msg_kind)(SPANDEX_REQV + k)),
                (unsigned long long)s->nreq[k]);
    fprintf(f, ")  answers %llu  fills %llu\n", (unsigned long long)s->answers, (unsigned long long)s->fills);
    fprintf(f, "%smessages", lead);
    for (k = SPANDEX_FWDREQV; k < SPANDEX_MSG_KINDS; k++)
        if (k != SPANDEX_RSPRVKO && k != SPANDEX_ACK && k != SPANDEX_NACK)
            fprintf(f, " %s %llu", spandex_msg_name((spandex_msg_kind)k), (unsigned long long)s->nmsg[k]);
    fprintf(f, "\n%sprotocol errors (err_o cycles) %llu\n", lead, (unsigned long long)s->err_cycles);
    if (s->b.kind == KIND_ERRORS)
        fprintf(f,
                "%sinjected errors %llu (Acks not waited for %llu, malformed requests %llu), the first "
                "taken in cycle %llu; err_o first high in cycle %llu\n",
                lead, (unsigned long long)(s->inj_ack + s->inj_req), (unsigned long long)s->inj_ack,
                (unsigned long long)s->inj_req, (unsigned long long)s->inj_first,
                (unsigned long long)s->err_first);
    fprintf(f, "%srequests accepted per cycle with a request presented %.3f\n", lead,
            s->valid_cyc ? (double)s->accepted / (double)s->valid_cyc : 0.0);
}

/* ------------------------------------------------------------ trace tool */
static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name, FILE *out, FILE *err)
{
    spandex_llc_flags f = {fl && fl[FLAG_DUMP], fl && fl[FLAG_STATS], fl && fl[FLAG_CHECK]};
    return spandex_llc_trace_run(cfg, &f, in, in_name, out, err);
}

static const cohkit_unit_flag flags[] = {
    {"dump", NULL, "cohmodel: LINE lines of every resident line after the trace"},
    {"stats", NULL, "cohmodel: '# count <msg> <n>' lines, every message kind read and sent"},
    {"check", NULL, "cohmodel: LLC1-LLC8 after every event; the first violation\n"
                    "prints 'CHECK LLCn line N: ...' and exits 1"},
    {NULL, NULL, NULL},
};

const cohkit_unit_desc spandex_llc_unit = {
    .name = "spandex-llc",
    .family = "spandex",
    .title = "Spandex LLC: word ownership over line state, Table III, transactions, deferral, "
             "eviction (Alsop et al., III-B, III-F; spec 2.2, 3)",
    .model_ref = "cmodel/spandex/spandex_llc_tm.c spandex_llc_tm_eval() / _step() (timing), "
                 "spandex_llc_event() (function), spandex_llc_rule_*() (Table III, both)",
    .cfg_size = sizeof(spandex_llc_cfg),
    .presets = spandex_llc_preset_names,
    .committed = spandex_llc_preset_names, /* every preset is committed */
    .module_prefix = "spandex_llc",
    .opts = &spandex_llc_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "ReqV|ReqS|ReqO|ReqO+data <dev> <addr> <mask>\n"
                  "ReqWT|ReqWB <dev> <addr> <mask> <v>...\n"
                  "ReqWT+data <dev> <addr> <mask> rd|swp|add|and|or [<v>...]\n"
                  "Ack <dev> <addr>      RspRvkO <dev> <addr> <mask> <v>...\n"
                  "output: MemRd, MemWr, Inv, RvkO, Fwd*, Rsp* lines in canonical order (docs/spandex.md)",
    COHKIT_UNIT_STIM_FIELDS,
    .verdict_exit = 1,
    .cfg_check_model = u_cfg_check_model,
};
