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
 *   B  the buffered forward: GPU coherence owns nothing, so FwdReqV gets
 *      a Nack and Inv an Ack. DeNovo answers per Table IV in steps: words
 *      of a pending ReqWB from the entry, FwdReqO on a pending ReqO+data at
 *      once, other requests on it delayed into a slot (a FwdReqV Nacked
 *      when it would take the last free slot, kept for a downgrade, which
 *      cannot be Nacked: FwdReqVs never fill the ring); the rest is probed
 *      (c_prb; A waits while a probe is out) and answered from the cache's
 *      words (c_pdat), then the answers leave one a cycle;
 *      MESI works the same way on whole lines (the probe asks for the
 *      line; a downgrade of a held line sends the ReqWB of the other words
 *      from the cache's answer, the cache keeping them in its write-back
 *      state until the RspWB, which releases them; a pending ReqS or
 *      ReqO+data delays; an Inv probes, so the cache's Shared copy goes
 *      before the Ack);
 *   R  (DeNovo, MESI) the oldest delayed request back into the forward buffer,
 *      once its ReqO+data is done and the cache took the VALUE;
 *   C  an entry's retry or replacement request (MESI: or its ReqWB);
 *   D  the write buffer's oldest line as one ReqWT (DeNovo: ReqO), when
 *      the cache request is not a store it can take or a read that misses
 *      the buffer;
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

/* MSHR entry kinds: ReqV (MESI: ReqS), ReqWT, ReqWT+data; DeNovo ReqO,
 * ReqO+data, ReqWB; MESI ReqO+data (a store or an atomic), ReqWB */
enum { K_V = 0, K_WT = 1, K_WTD = 2, K_O = 3, K_OD = 4, K_WB = 5 };
/* MESI entry flags: a word came by another response than RspS (no S), than
 * RspO+data (no O); an Inv came during a ReqS (X14); the entry is an atomic */
enum { F_NOS = 1, F_NOO = 2, F_INV = 4, F_RMW = 8 };
enum { ACT_NONE, ACT_PDAT_BAD, ACT_RSP, ACT_FWD, ACT_REPLAY, ACT_RESEND, ACT_FLUSH, ACT_CREQ };
/* Forward steps (fq.ph): fresh, probe out, answers leaving. */
enum { PH_FRESH = 0, PH_PROBE = 1, PH_SEND = 2 };
/* Answers still to leave (fq.todo): the answer, RspRvkO (FwdReqS), Nack. */
enum { TODO_A = 1, TODO_R = 2, TODO_N = 4 };

typedef struct {
    int v;
    unsigned type, op, req;
    uint64_t line, mask, data[W_MAX];
    /* the forward buffer (DeNovo): step, replayed from a slot, probed
     * words, answers to send, answered and Nacked words; MESI: the RspWB
     * of a line the cache keeps in its write-back state waits for it */
    unsigned ph, rp, todo, rel;
    uint64_t pm, ans, nack;
} buf;

typedef struct {
    int v;
    unsigned kind, nk;
    int snd;
    uint64_t line, mask, recv, rtr, rpw;
    uint64_t dn; /* DeNovo: words downgraded while pending (lost; ReqWB: answered) */
    uint64_t data[W_MAX];
    /* MESI: the store's words (an atomic's word; a ReqS: the words that
     * came by RspO+data, this device's), the atomic's op and operand, the
     * flags F_* */
    uint64_t st, opd;
    unsigned op, fl;
} mshr;

/* A delayed external request (DeNovo; MESI: rel, the RspWB of its line
 * came, the cache's write-back line is released after it). */
typedef struct {
    int v;
    unsigned type, req, rel;
    uint64_t line, mask;
} dfr;

typedef struct {
    int v;
    uint64_t line, mask;
    unsigned down;
} prb;

typedef struct {
    int v;
    uint64_t line, mask, data[W_MAX];
} wbl;

typedef struct {
    int v;
    unsigned type, op, llc, dst;
    uint64_t line, mask, own, data[W_MAX];
} outr;

struct spandex_tuhw_tm {
    spandex_tuhw_cfg c;
    spandex_tuhw_geom g;
    spandex_tuhw_ports p;
    int dn;          /* DeNovo or MESI (the probe, the delayed requests)   */
    int ms;          /* MESI                                            */
    buf cq, rq, fq, pd;
    outr ro, oo, co;
    prb pr;
    mshr e[SPANDEX_TUHW_MSHR_MAX];
    wbl wb[SPANDEX_TUHW_WB_MAX];
    unsigned wh, wt; /* write buffer: head (oldest), tail (next free)   */
    dfr df[SPANDEX_TUHW_DFR_MAX];
    unsigned dh, dt; /* delayed requests: a ring, oldest at dh          */
    int err;
    spandex_tuhw_tm_stats st;
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

/* Words of line with an open request (retries included; a ReqWB's words
 * until its RspWB). */
static uint64_t busy(const spandex_tuhw_tm *t, uint64_t line)
{
    uint64_t b = 0;
    unsigned i;
    for (i = 0; i < t->c.mshr; i++)
        if (t->e[i].v && t->e[i].line == line)
            b |= t->e[i].mask & (t->dn ? ~0ull : ~t->e[i].recv);
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

static int read_open(const spandex_tuhw_tm *t, uint64_t line)
{
    unsigned i;
    for (i = 0; i < t->c.mshr; i++)
        if (t->e[i].v && t->e[i].kind == K_V && t->e[i].line == line)
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
static unsigned df_next(const spandex_tuhw_tm *t, unsigned i) { return i + 1 == t->c.dfr ? 0 : i + 1; }
/* The ring's next free slot is its last free one (a forward is taken only
 * while a slot is free, so one always is when a forward settles). */
static int df_last(const spandex_tuhw_tm *t) { return df_next(t, t->dt) == t->dh; }

/* DeNovo: a replaced word of a ReqV goes by ReqO+data (odata). */
static int repl_odata(const spandex_tuhw_tm *t) { return t->dn && !t->ms && !t->c.wtdata; }

/* 1 when response type `type` with mask m may answer entry e. */
static int compat(const spandex_tuhw_tm *t, const mshr *e, unsigned type, uint64_t m)
{
    if (t->ms)
        switch (type) {
        case 0: /* RspV (option 2) */
        case 1: /* RspS */
        case 9: /* Nack */
            return e->kind == K_V && !(m & e->rpw);
        case 5: /* RspO+data: a ReqS as ownership (option 3), a ReqO+data */
            return (e->kind == K_V && !(m & e->rpw)) || e->kind == K_OD;
        case 4: /* RspWT+data: the replacement ReqWT+data(rd) */
            return e->kind == K_V && !(m & ~e->rpw);
        case 6: /* RspWB: the whole write-back, once sent */
            return e->kind == K_WB && m == e->mask && !e->snd;
        default: return 0;
        }
    switch (type) {
    case 0: /* RspV */
    case 9: /* Nack */
        return e->kind == K_V && !(m & e->rpw);
    case 4: /* RspWT+data */
        return e->kind == K_WTD || (e->kind == K_V && !repl_odata(t) && !(m & ~e->rpw));
    case 5: /* RspO+data */
        return e->kind == K_OD || (e->kind == K_V && repl_odata(t) && !(m & ~e->rpw));
    case 2: /* RspWT */
        return e->kind == K_WT;
    case 3: /* RspO (X2: an owner completes ReqWT words) */
        return e->kind == K_WT || e->kind == K_O;
    case 6: /* RspWB: the whole write-back */
        return e->kind == K_WB && m == e->mask;
    default: return 0;
    }
}

static uint64_t hold_ev(const spandex_tuhw_tm *t, uint64_t line, uint64_t m);

/* The words of the buffered response its request waits for: all of them,
 * but under --extra-words a RspV's words beyond the open words of the
 * line's ReqV entries (extra words, Table II) are left out. */
static uint64_t rsp_req(const spandex_tuhw_tm *t)
{
    const buf *r = &t->rq;
    uint64_t open = 0;
    unsigned i;
    if (!t->c.extra || r->type != 0)
        return r->mask;
    for (i = 0; i < t->c.mshr; i++) {
        const mshr *e = &t->e[i];
        if (e->v && e->kind == K_V && e->line == r->line)
            open |= e->mask & ~e->recv & ~e->rtr;
    }
    return r->mask & open;
}

/* The extra words of the buffered RspV the cache may take (the FILL's words
 * beyond the read's): none an entry, the write buffer or an EVICT taken
 * holds. */
static uint64_t rsp_extra(const spandex_tuhw_tm *t)
{
    const buf *r = &t->rq;
    int k = wb_hit(t, r->line);
    uint64_t x = r->mask & ~rsp_req(t) & ~busy(t, r->line) & ~hold_ev(t, r->line, r->mask);
    return k >= 0 ? x & ~t->wb[k].mask : x;
}

static int rsp_match(const spandex_tuhw_tm *t)
{
    unsigned i;
    const buf *r = &t->rq;
    uint64_t m = rsp_req(t);
    for (i = 0; i < t->c.mshr; i++) {
        const mshr *e = &t->e[i];
        if (e->v && e->line == r->line && m && !(m & ~(e->mask & ~e->recv & ~e->rtr)) && compat(t, e, r->type, m))
            return (int)i;
    }
    return -1;
}

/* ------------------------------------------- DeNovo: Table IV columns -- */
/* Words of line held by a pending ReqWB (not yet answered by a downgrade),
 * its entry in *k. */
static uint64_t hold_wb(const spandex_tuhw_tm *t, uint64_t line, uint64_t m, int *k)
{
    unsigned i;
    uint64_t h = 0;
    for (i = 0; i < t->c.mshr; i++) {
        const mshr *e = &t->e[i];
        if (e->v && e->kind == K_WB && e->line == line && (m & e->mask & ~e->dn)) {
            h |= m & e->mask & ~e->dn;
            if (k)
                *k = (int)i;
        }
    }
    return h;
}

/* Words of m the cache handed over in the EVICT buffered in cq (not yet
 * sent as a ReqWB): answered from its data like a pending ReqWB's. */
static uint64_t hold_ev(const spandex_tuhw_tm *t, uint64_t line, uint64_t m)
{
    const buf *q = &t->cq;
    return q->v && q->type == SPANDEX_TUHW_C_EVICT && q->line == line ? m & q->mask : 0;
}

/* Words of line in a pending ReqO+data (an atomic, or an odata
 * replacement of a ReqV whose RspO+data has not come) or a pending ReqS
 * (MESI: its words not yet this device's by RspO+data). */
static uint64_t hold_rmw(const spandex_tuhw_tm *t, uint64_t line)
{
    unsigned i;
    uint64_t h = 0;
    for (i = 0; i < t->c.mshr; i++) {
        const mshr *e = &t->e[i];
        if (!e->v || e->line != line)
            continue;
        if (e->kind == K_OD)
            h |= e->mask;
        else if (t->ms && e->kind == K_V) /* (a word a downgrade took waits */
            h |= e->mask & ~(e->st & ~e->dn); /* with the line: never probed) */
        else if (e->kind == K_V && repl_odata(t))
            h |= e->rpw & e->mask & ~e->recv;
    }
    return h;
}

/* Words of a pending read the device already owns: its own RspO+data came
 * (an odata replacement's, a re-sent part's answered by option 3), no
 * downgrade took them, the rest of the read is still to come. Table IV
 * asks only for the own RspO+data: their forwards are answered at once
 * from the entry's data (into d when d is not NULL). */
static uint64_t hold_own(const spandex_tuhw_tm *t, uint64_t line, uint64_t *d)
{
    unsigned i, w;
    uint64_t h = 0, m;
    for (i = 0; i < t->c.mshr; i++) {
        const mshr *e = &t->e[i];
        if (!e->v || e->line != line || e->kind != K_V)
            continue;
        m = t->ms ? e->st & ~e->dn : repl_odata(t) ? e->rpw & e->mask & e->recv & ~e->dn : 0;
        h |= m;
        for (w = 0; d && w < t->g.words; w++)
            if (m >> w & 1)
                d[w] = e->data[w];
    }
    return h;
}

/* Words of line named by a delayed request. */
static uint64_t held_back(const spandex_tuhw_tm *t, uint64_t line)
{
    unsigned i;
    uint64_t h = 0;
    for (i = 0; i < t->c.dfr; i++)
        if (t->df[i].v && t->df[i].line == line)
            h |= t->df[i].mask;
    return h;
}

/* MESI: a delayed request names line (with rel: one the RspWB waits for). */
static int line_back(const spandex_tuhw_tm *t, uint64_t line, int rel)
{
    unsigned i;
    for (i = 0; i < t->c.dfr; i++)
        if (t->df[i].v && t->df[i].line == line && (!rel || t->df[i].rel))
            return 1;
    return 0;
}

/* How the forward in fq splits: from pending write-backs or the EVICT
 * taken (wbm), answered at once on a pending ReqO+data (now: FwdReqO),
 * from a pending read's words already owned (own), delayed, and probed. */
typedef struct {
    uint64_t wbm, now, own, later, pm;
} split;

static split split_of(const spandex_tuhw_tm *t)
{
    const buf *f = &t->fq;
    split s;
    uint64_t rmw = hold_rmw(t, f->line) & f->mask, back = f->rp ? 0 : held_back(t, f->line) & f->mask;
    if (t->ms && !f->rp && held_back(t, f->line)) /* MESI: a line waits behind its delayed requests */
        back = f->mask;
    s.wbm = hold_wb(t, f->line, f->mask, NULL) | hold_ev(t, f->line, f->mask);
    if (f->type == 2) { /* FwdReqO */
        s.now = rmw;
        s.later = back & ~rmw & ~s.wbm;
    } else {
        s.now = 0;
        s.later = (rmw | back) & ~s.wbm;
    }
    s.own = hold_own(t, f->line, NULL) & f->mask & ~s.wbm & ~s.later;
    s.pm = f->mask & ~s.wbm & ~s.now & ~s.own & ~s.later;
    return s;
}

static uint64_t fwd_words(const spandex_tuhw_tm *t, uint64_t line)
{
    return held_back(t, line) | (t->fq.v && t->fq.line == line ? t->fq.mask : 0);
}

static int probing(const spandex_tuhw_tm *t) { return t->fq.v && t->fq.ph == PH_PROBE; }

/* ------------------------------------------------------ the choice -- */
static int needs_co(const spandex_tuhw_tm *t, const mshr *e, uint64_t recv)
{
    if (recv != e->mask)
        return 0;
    switch (e->kind) {
    case K_V:
    case K_WTD:
    case K_OD: return 1;
    case K_O: return (e->mask & ~e->dn) != 0;
    default: return 0;
    }
    (void)t;
}

/* MESI: a RspWB no entry waits for, of a line with no entry: the ReqWB a
 * downgrade sent from the cache's answer; the cache keeps the line in its
 * write-back state until released. */
static int rsp_rel(const spandex_tuhw_tm *t)
{
    return t->ms && t->rq.type == 6 && rsp_match(t) < 0 && !line_open(t, t->rq.line);
}

static int can_rsp(const spandex_tuhw_tm *t, act *a)
{
    const mshr *e;
    int i;
    if (!t->rq.v || probing(t))
        return 0;
    if (rsp_rel(t)) { /* after the forwards of the line that came first */
        a->kind = ACT_RSP;
        a->idx = -1;
        return !(t->fq.v && t->fq.line == t->rq.line) && (line_back(t, t->rq.line, 0) || !t->co.v);
    }
    if (t->dn && t->rq.type == 6 && t->fq.v && t->fq.ph == PH_FRESH && t->fq.line == t->rq.line &&
        (hold_wb(t, t->fq.line, t->fq.mask, NULL) | hold_ev(t, t->fq.line, t->fq.mask)))
        return 0; /* a forward that came first takes its words from the entry */
    i = rsp_match(t);
    a->kind = ACT_RSP;
    a->idx = i;
    a->bad = i < 0;
    if (i < 0)
        return 1;
    e = &t->e[i];
    if (t->rq.type != 9 && needs_co(t, e, e->recv | rsp_req(t)) && t->co.v)
        return 0;
    return 1;
}

static int can_fwd_gpu(const spandex_tuhw_tm *t, act *a)
{
    a->kind = ACT_FWD;
    a->bad = t->fq.type != 0 && t->fq.type != 5;
    return a->bad || !t->oo.v;
}

static int can_fwd_denovo(const spandex_tuhw_tm *t, act *a)
{
    const buf *f = &t->fq;
    split s;
    a->kind = ACT_FWD;
    if (f->ph == PH_SEND)
        return !t->oo.v;
    if (f->ph == PH_PROBE) /* (MESI: a release, a ReqWB may follow) */
        return t->pd.v && !(t->ms && f->rel && t->co.v) && !(t->ms && f->type >= 1 && f->type <= 4 && t->ro.v);
    if (f->type > 5) {
        a->bad = 1;
        return 1;
    }
    if (f->type == 5) /* Inv (MESI: the cache's Shared copy goes first) */
        return t->ms ? !t->pr.v && !t->co.v : !t->oo.v;
    s = split_of(t);
    if (s.pm)
        return !t->pr.v && !t->co.v;
    return !(t->ms && f->rel && t->co.v);
}

static int can_fwd(const spandex_tuhw_tm *t, act *a)
{
    if (!t->fq.v)
        return 0;
    return t->dn ? can_fwd_denovo(t, a) : can_fwd_gpu(t, a);
}

static int can_replay(const spandex_tuhw_tm *t, act *a)
{
    const dfr *d = &t->df[t->dh];
    if (t->fq.v || !d->v || t->co.v || (hold_rmw(t, d->line) & d->mask))
        return 0;
    a->kind = ACT_REPLAY;
    return 1;
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
    if (h->v && h->mask == 0) { /* DeNovo: its stores all went with answers */
        a->kind = ACT_FLUSH;
        return 1;
    }
    if (!h->v || t->ro.v || free_entry(t) < 0 || (busy(t, h->line) & h->mask) ||
        (t->dn && (fwd_words(t, h->line) & h->mask)))
        return 0;
    if (q->v && q->type == SPANDEX_TUHW_C_ST && (hit >= 0 || !t->wb[t->wt].v))
        return 0;
    if (q->v && q->type == SPANDEX_TUHW_C_LD && hit < 0)
        return 0;
    a->kind = ACT_FLUSH;
    return 1;
}

/* MESI: one request a line at a time; none taken while a probe is out. */
static int can_creq_mesi(const spandex_tuhw_tm *t, act *a)
{
    const buf *q = &t->cq;
    int go = !line_open(t, q->line) && !t->ro.v && free_entry(t) >= 0;
    if (probing(t))
        return 0;
    a->kind = ACT_CREQ;
    a->bad = q->type > SPANDEX_TUHW_C_EVICT || (q->type <= SPANDEX_TUHW_C_RMW && q->mask == 0) ||
             (q->type == SPANDEX_TUHW_C_RMW && (q->mask & (q->mask - 1)));
    if (a->bad)
        return 1;
    switch (q->type) {
    case SPANDEX_TUHW_C_LD:
    case SPANDEX_TUHW_C_ST:
    case SPANDEX_TUHW_C_RMW: return go;
    case SPANDEX_TUHW_C_ACQ: return !t->co.v;
    case SPANDEX_TUHW_C_EVICT: return !t->co.v && (q->mask == 0 || go);
    default: return !writes_open(t) && !t->co.v; /* REL */
    }
}

static int can_creq(const spandex_tuhw_tm *t, act *a, int hit)
{
    const buf *q = &t->cq;
    int empty = !t->wb[t->wh].v;
    if (!q->v)
        return 0;
    if (t->ms)
        return can_creq_mesi(t, a);
    a->kind = ACT_CREQ;
    a->hit = hit;
    a->bad = q->type > SPANDEX_TUHW_C_EVICT || (q->type <= SPANDEX_TUHW_C_RMW && q->mask == 0);
    if (a->bad)
        return 1;
    switch (q->type) {
    case SPANDEX_TUHW_C_LD:
        if (t->dn) /* --extra-words: one read a line, so a RspV names its request */
            return !(busy(t, q->line) & q->mask) && !(t->c.extra && read_open(t, q->line)) && !t->ro.v &&
                   free_entry(t) >= 0;
        return hit < 0 && !line_open(t, q->line) && !t->ro.v && free_entry(t) >= 0;
    case SPANDEX_TUHW_C_ST: return hit >= 0 || !t->wb[t->wt].v;
    case SPANDEX_TUHW_C_RMW:
        return empty && !(busy(t, q->line) & q->mask) && !t->ro.v && free_entry(t) >= 0 &&
               !(t->dn && (fwd_words(t, q->line) & q->mask));
    case SPANDEX_TUHW_C_ACQ: return empty && !t->co.v;
    case SPANDEX_TUHW_C_EVICT:
        if (!t->dn || q->mask == 0)
            return !t->co.v;
        return !t->co.v && !(busy(t, q->line) & q->mask) && !t->ro.v && free_entry(t) >= 0;
    default: return empty && !writes_open(t) && !t->co.v; /* REL */
    }
}

static act choose(const spandex_tuhw_tm *t)
{
    act a = {ACT_NONE, -1, -1, 0};
    int hit = t->cq.v ? wb_hit(t, t->cq.line) : -1;
    if (t->pd.v && !probing(t)) {
        a.kind = ACT_PDAT_BAD;
        a.bad = 1;
        return a;
    }
    if (can_rsp(t, &a) || can_fwd(t, &a) || can_replay(t, &a) || can_resend(t, &a) || can_flush(t, &a, hit) ||
        can_creq(t, &a, hit))
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

/* MESI: a ReqS or ReqO+data complete. The line goes to the cache as a
 * FILL (installed: S, or O with own = the line) or a VALUE (the answer of
 * the waiting operation only, installed owned when own is the line: an
 * atomic, which the cache then applies). Words a downgrade took while the
 * request was pending (dn) leave the line in I: the answer is a VALUE
 * without own and the entry turns into the ReqWB of the words still
 * owned, with the store or the atomic performed (spec 4, MESI case 2). So
 * does a ReqS that ends used once with words that came by RspO+data (a
 * re-sent part answered by option 3): the LLC made the device their
 * owner, and the ReqWB gives them back. */
static void done_mesi(spandex_tuhw_tm *t, mshr *e)
{
    uint64_t res[W_MAX], ow;
    unsigned w;
    int own;
    memcpy(res, e->data, sizeof res);
    if (e->kind == K_OD && (e->fl & F_RMW))
        for (w = 0; w < t->g.words; w++)
            if (e->st >> w & 1)
                res[w] = spandex_op_apply(e->op, e->data[w], e->opd, t->g.word_bits);
    if (e->kind == K_V) {
        own = !(e->fl & F_NOO);
        if (own && !e->dn)
            load_out(&t->co, SPANDEX_TUHW_R_FILL, 0, 0, e->line, t->g.full, e->data);
        else if (!own && !(e->fl & (F_NOS | F_INV)) && !e->dn)
            load_out(&t->co, SPANDEX_TUHW_R_FILL, 0, 0, e->line, t->g.full, e->data);
        else
            load_out(&t->co, SPANDEX_TUHW_R_VALUE, 0, 0, e->line, t->g.full, e->data);
        if (own && !e->dn)
            t->co.own = t->g.full;
    } else {
        own = 1;
        if (e->dn)
            load_out(&t->co, SPANDEX_TUHW_R_VALUE, 0, 0, e->line, e->st, (e->fl & F_RMW) ? e->data : res);
        else if (e->fl & F_RMW)
            load_out(&t->co, SPANDEX_TUHW_R_VALUE, 0, 0, e->line, e->st, e->data);
        else
            load_out(&t->co, SPANDEX_TUHW_R_FILL, 0, 0, e->line, t->g.full, res);
        if (!e->dn)
            t->co.own = t->g.full;
    }
    ow = (own ? t->g.full : e->st) & ~e->dn;
    if (ow && (e->dn || !own)) { /* the ReqWB of the words still owned */
        uint64_t line = e->line, m = ow;
        memset(e, 0, sizeof *e);
        e->v = 1;
        e->kind = K_WB;
        e->line = line;
        e->mask = m;
        e->snd = 1;
        for (w = 0; w < t->g.words; w++)
            if (m >> w & 1)
                e->data[w] = res[w];
        return;
    }
    memset(e, 0, sizeof *e);
}

static void do_rsp_mesi(spandex_tuhw_tm *t, mshr *e)
{
    const buf *r = &t->rq;
    unsigned w;
    if (r->type == 9) {
        e->rtr |= r->mask;
        e->snd = 1;
        if (e->nk < 15)
            e->nk++;
        return;
    }
    if (r->type != 6)
        for (w = 0; w < t->g.words; w++)
            if ((r->mask & ~(e->fl & F_RMW ? 0 : e->st)) >> w & 1)
                e->data[w] = r->data[w];
    e->fl |= r->type == 1 ? F_NOO : r->type == 5 ? F_NOS : F_NOS | F_NOO;
    if (e->kind == K_V && r->type == 5) /* this device's words (option 3) */
        e->st |= r->mask;
    e->recv |= r->mask;
    if (e->recv != e->mask)
        return;
    if (e->kind != K_WB)
        done_mesi(t, e);
    else if (!held_back(t, e->line))
        memset(e, 0, sizeof *e);
    /* else the entry stays, answered, until no delayed request names its
     * line (they are answered from its data: spandex_tuhw_tm_step) */
}

/* MESI: the RspWB of a write-back the cache holds: the line released now,
 * or after the delayed requests that name it (they came first and are
 * answered from the cache's write-back line). */
static void do_rel(spandex_tuhw_tm *t)
{
    unsigned i;
    if (!line_back(t, t->rq.line, 0)) {
        load_out(&t->co, SPANDEX_TUHW_R_OWN, 0, 0, t->rq.line, 0, NULL);
        return;
    }
    for (i = 0; i < t->c.dfr; i++)
        if (t->df[i].v && t->df[i].line == t->rq.line)
            t->df[i].rel = 1;
}

static void do_rsp(spandex_tuhw_tm *t, const act *a)
{
    mshr *e;
    const buf *r = &t->rq;
    unsigned w;
    if (a->idx < 0) {
        do_rel(t);
        return;
    }
    e = &t->e[a->idx];
    if (t->ms) {
        do_rsp_mesi(t, e);
        return;
    }
    if (r->type == 9) {
        e->rtr |= r->mask;
        e->snd = 1;
        if (e->nk < 15)
            e->nk++;
        return;
    }
    uint64_t req = rsp_req(t), x = r->type == 0 ? rsp_extra(t) : 0;
    if (r->type == 0 || r->type == 4 || r->type == 5)
        for (w = 0; w < t->g.words; w++)
            if (r->mask >> w & 1)
                e->data[w] = r->data[w];
    e->recv |= req;
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
        /* the extra words of the completing RspV go with the FILL */
        load_out(&t->co, SPANDEX_TUHW_R_FILL, 0, 0, e->line, e->mask | x, d);
        if (repl_odata(t))
            t->co.own = e->rpw & ~e->dn;
    } else if (e->kind == K_WTD || e->kind == K_OD) {
        load_out(&t->co, SPANDEX_TUHW_R_VALUE, 0, 0, e->line, e->mask, e->data);
        if (e->kind == K_OD)
            t->co.own = e->mask & ~e->dn;
    } else if (e->kind == K_O && (e->mask & ~e->dn)) {
        load_out(&t->co, SPANDEX_TUHW_R_OWN, 0, 0, e->line, e->mask & ~e->dn, NULL);
        t->co.own = e->mask & ~e->dn;
    }
    memset(e, 0, sizeof *e);
}

/* Into d, the data of the words wbm of forward f that a pending ReqWB
 * still holds (case 3) and of those an EVICT taken and not yet sent holds. */
static void wb_words(const spandex_tuhw_tm *t, const buf *f, uint64_t wbm, uint64_t *d)
{
    unsigned w, i;
    for (w = 0; w < t->g.words; w++)
        if (wbm >> w & 1)
            for (i = 0; i < t->c.mshr; i++) {
                const mshr *e = &t->e[i];
                if (e->v && e->kind == K_WB && e->line == f->line && ((e->mask & ~e->dn) >> w & 1))
                    d[w] = e->data[w];
            }
    for (w = 0; w < t->g.words; w++)
        if (hold_ev(t, f->line, f->mask) >> w & 1)
            d[w] = t->cq.data[w];
}

/* Into d, the data of the words own of forward f that a pending read
 * already owns (its entry's data). */
static void own_words(const spandex_tuhw_tm *t, const buf *f, uint64_t own, uint64_t *d)
{
    uint64_t v[W_MAX];
    unsigned w;
    hold_own(t, f->line, v);
    for (w = 0; w < t->g.words; w++)
        if (own >> w & 1)
            d[w] = v[w];
}

static void do_fwd_gpu(spandex_tuhw_tm *t)
{
    const buf *f = &t->fq;
    if (f->type == 0)
        load_out(&t->oo, 9, 0, f->req, f->line, f->mask, NULL); /* Nack to the requestor */
    else
        load_out(&t->oo, 8, 1, 0, f->line, f->mask, NULL);      /* Ack to the LLC */
    t->fq.v = 0;
}

/* The response type answering forward type f (spec 7 codes). */
static unsigned answer_type(unsigned f)
{
    static const unsigned a[] = {0, 1, 3, 5, 7}; /* RspV RspS RspO RspO+data RspRvkO */
    return a[f];
}

/* The words of a FwdReqV that would take the ring's last free slot: Nacked
 * instead (spec 4 case 4: a FwdReqV may always be Nacked; its requestor
 * re-sends or replaces it). The last slot is kept for a downgrade, which
 * cannot be Nacked, so a forward in the buffer always finds a slot and
 * FwdReqVs, which move no ownership and of which the LLC may send any
 * number, never fill the ring and stop the forwards behind them. */
static uint64_t later_nacked(spandex_tuhw_tm *t, const buf *f, split *s)
{
    uint64_t n = 0;
    if (f->type == 0 && s->later && df_last(t)) {
        n = s->later;
        s->later = 0;
        t->st.nack_full++;
    }
    return n;
}

/* A delayed request into the ring's next free slot. */
static void dfr_put(spandex_tuhw_tm *t, const buf *f, uint64_t later)
{
    dfr *q = &t->df[t->dt];
    unsigned n = 0, i;
    q->v = 1;
    q->type = f->type;
    q->req = f->req;
    q->line = f->line;
    q->mask = later;
    q->rel = 0;
    t->dt = df_next(t, t->dt);
    t->st.delayed++;
    for (i = 0; i < t->c.dfr; i++)
        n += t->df[i].v != 0;
    if (n > t->st.peak)
        t->st.peak = n;
}

/* DeNovo: the forward's words are known (from the entries and the probe's
 * answer in pd): set the answers, mark the downgrades, delay what waits. */
static void fwd_settle(spandex_tuhw_tm *t)
{
    buf *f = &t->fq;
    split s = split_of(t);
    uint64_t held = 0, rest, ans;
    int down = f->type != 0;
    unsigned i, w;
    uint64_t d[W_MAX];
    memset(d, 0, sizeof d);
    if (f->ph == PH_PROBE) {
        held = t->pd.mask & f->pm;
        for (w = 0; w < t->g.words; w++)
            if (held >> w & 1)
                d[w] = t->pd.data[w];
        t->pd.v = 0;
        s.pm = f->pm;
        s.later &= ~f->pm; /* a word probed stays probed (a re-send may have */
                           /* made it a pending ReqO+data meanwhile)       */
        s.now &= ~f->pm;
        s.own &= ~f->pm;
    }
    rest = s.pm & ~held;
    if (down && rest) { /* a downgrade of words the device does not hold */
        t->err = 1;
        f->v = 0;
        return;
    }
    rest |= later_nacked(t, f, &s);
    wb_words(t, f, s.wbm, d);
    own_words(t, f, s.own, d);
    ans = held | s.wbm | s.now | s.own;
    if (down)
        for (i = 0; i < t->c.mshr; i++) {
            mshr *e = &t->e[i];
            if (!e->v || e->line != f->line)
                continue;
            if (e->kind == K_WB)
                e->dn |= s.wbm & e->mask;
            else if (e->kind == K_O || e->kind == K_OD)
                e->dn |= (held | s.now) & e->mask;
            else if (e->kind == K_V) /* (own: the FILL leaves them unowned) */
                e->dn |= ((s.now & e->rpw) | s.own) & e->mask;
        }
    if (down && held) { /* a buffered store's word went with the answer */
        for (i = 0; i < t->c.wb; i++)
            if (t->wb[i].v && t->wb[i].line == f->line)
                t->wb[i].mask &= ~held;
    }
    if (s.later)
        dfr_put(t, f, s.later);
    f->ans = ans;
    f->nack = down ? 0 : rest;
    f->todo = (ans ? TODO_A : 0) | (ans && f->type == 1 ? TODO_R : 0) | (f->nack ? TODO_N : 0);
    if (f->type == 2)
        memset(d, 0, sizeof d); /* RspO carries no data */
    memcpy(f->data, d, sizeof f->data);
    f->ph = PH_SEND;
    if (!f->todo)
        f->v = 0;
}

/* MESI: the forward's words are known. The cache's answer (pd) holds the
 * whole line when the cache had it in O (spec 4 case 1): the forward's
 * probed words are answered from it and, for a downgrade, the other words
 * of the line leave by a ReqWB sent at once (the cache keeps them in its
 * write-back state) unless the line went to S (a FwdReqS of the whole
 * line). An answer of part of the line comes from the cache's write-back
 * state (case 3): those words are answered and count as written back.
 * Words of a pending ReqWB entry (an EVICT's, case 3) are answered from it, FwdReqO words of a pending
 * ReqO+data or ReqS at once (case 2), the rest of a pending line delayed.
 * An Inv's probe took the cache's Shared copy: Ack, and a ReqS pending
 * installs I (X14). */
static void fwd_settle_mesi(spandex_tuhw_tm *t)
{
    buf *f = &t->fq;
    split s = split_of(t);
    uint64_t held = 0, rest, ans, back = 0, d[W_MAX], line[W_MAX];
    int down = f->type != 0;
    unsigned i, w;
    memset(d, 0, sizeof d);
    memset(line, 0, sizeof line);
    if (f->ph == PH_PROBE) {
        held = t->pd.mask & f->pm;
        /* the cache's answer: the whole line (E/M), or the words of a line
         * in its write-back state (which count as written back) */
        back = t->pd.mask == t->g.full ? t->g.full & ~f->pm : 0;
        memcpy(d, t->pd.data, sizeof d);
        memcpy(line, t->pd.data, sizeof line);
        t->pd.v = 0;
        s.pm = f->pm;
        s.later &= ~f->pm;
        s.now &= ~f->pm;
        s.own &= ~f->pm;
    }
    if (f->rel && !line_back(t, f->line, 1)) /* the last forward the RspWB waited for */
        load_out(&t->co, SPANDEX_TUHW_R_OWN, 0, 0, f->line, 0, NULL);
    if (f->type == 5) {
        for (i = 0; i < t->c.mshr; i++)
            if (t->e[i].v && t->e[i].kind == K_V && t->e[i].line == f->line)
                t->e[i].fl |= F_INV;
        f->ans = f->mask;
        f->nack = 0;
        f->todo = TODO_A;
        f->ph = PH_SEND;
        return;
    }
    rest = s.pm & ~held;
    if (down && rest) { /* a downgrade of a line the cache does not own */
        t->err = 1;
        f->v = 0;
        return;
    }
    rest |= later_nacked(t, f, &s);
    wb_words(t, f, s.wbm, d);
    own_words(t, f, s.own, d);
    ans = held | s.wbm | s.now | s.own;
    if (down)
        for (i = 0; i < t->c.mshr; i++) {
            mshr *e = &t->e[i];
            if (!e->v || e->line != f->line)
                continue;
            if (e->kind == K_WB)
                e->dn |= s.wbm & e->mask;
            else
                e->dn |= (s.now | s.own) & e->mask;
        }
    if (down && held && back && !(f->type == 1 && held == t->g.full)) {
        uint64_t v[W_MAX];
        memset(v, 0, sizeof v);
        for (w = 0; w < t->g.words; w++)
            if (back >> w & 1)
                v[w] = line[w]; /* the cache's line, whatever the answer took from entries */
        load_out(&t->ro, 6, 0, 0, f->line, back, v); /* the cache keeps them until the RspWB */
    }
    if (s.later)
        dfr_put(t, f, s.later);
    f->ans = ans;
    f->nack = down ? 0 : rest;
    f->todo = (ans ? TODO_A : 0) | (ans && f->type == 1 ? TODO_R : 0) | (f->nack ? TODO_N : 0);
    for (w = 0; w < t->g.words; w++)
        if (f->type == 2 || !(ans >> w & 1))
            d[w] = 0; /* RspO carries no data; only the answered words */
    memcpy(f->data, d, sizeof f->data);
    f->ph = PH_SEND;
    if (!f->todo)
        f->v = 0;
}

static void do_fwd_denovo(spandex_tuhw_tm *t)
{
    buf *f = &t->fq;
    if (f->ph == PH_SEND) {
        if (t->ms && f->type == 5) { /* MESI: the Inv's Ack after its probe */
            load_out(&t->oo, 8, 1, 0, f->line, f->mask, NULL);
            f->todo = 0;
        } else if (f->todo & TODO_A) {
            if (f->type == 4)
                load_out(&t->oo, 7, 1, 0, f->line, f->ans, f->data);
            else
                load_out(&t->oo, answer_type(f->type), 0, f->req, f->line, f->ans, f->data);
            f->todo &= ~(unsigned)TODO_A;
        } else if (f->todo & TODO_R) {
            load_out(&t->oo, 7, 1, 0, f->line, f->ans, f->data);
            f->todo &= ~(unsigned)TODO_R;
        } else {
            load_out(&t->oo, 9, 0, f->req, f->line, f->nack, NULL);
            f->todo = 0;
        }
        if (!f->todo)
            f->v = 0;
        return;
    }
    if (f->ph == PH_FRESH && f->type == 5 && t->ms) {
        /* MESI: the cache drops a Shared copy (probe: not down, keeps none) */
        t->pr.v = 1;
        t->pr.line = f->line;
        t->pr.mask = 0;
        t->pr.down = 0;
        f->pm = 0;
        f->ph = PH_PROBE;
        return;
    }
    if (f->ph == PH_FRESH && f->type == 5) {
        load_out(&t->oo, 8, 1, 0, f->line, f->mask, NULL); /* Ack to the LLC */
        f->v = 0;
        return;
    }
    if (f->ph == PH_FRESH) {
        split s = split_of(t);
        if (s.pm) {
            t->pr.v = 1;
            t->pr.line = f->line;
            t->pr.mask = s.pm;
            t->pr.down = f->type != 0;
            /* MESI: the probe asks for the whole line; its mask is what the
             * cache keeps: readable, all (FwdReqV; a FwdReqS of the whole
             * line, to S); for a downgrade, the words it keeps in its
             * write-back state for the ReqWB of the rest (none: to I) */
            if (t->ms)
                t->pr.mask = f->type == 0 || (f->type == 1 && s.pm == t->g.full) ? t->g.full : t->g.full & ~s.pm;
            f->pm = s.pm;
            f->ph = PH_PROBE;
            return;
        }
    }
    if (t->ms)
        fwd_settle_mesi(t);
    else
        fwd_settle(t);
}

static void do_replay(spandex_tuhw_tm *t)
{
    dfr *d = &t->df[t->dh];
    buf *f = &t->fq;
    memset(f, 0, sizeof *f);
    f->v = 1;
    f->type = d->type;
    f->req = d->req;
    f->line = d->line;
    f->mask = d->mask;
    f->rp = 1;
    f->rel = d->rel;
    memset(d, 0, sizeof *d);
    t->dh = df_next(t, t->dh);
}

static void do_resend(spandex_tuhw_tm *t, int i)
{
    mshr *e = &t->e[i];
    int repl = e->nk >= t->c.nack_limit;
    if (t->ms && e->kind == K_WB) { /* MESI: a ReqWB an answer or a completion left */
        load_out(&t->ro, 6, 0, 0, e->line, e->mask, e->data);
        e->snd = 0;
        return;
    }
    load_out(&t->ro, repl ? (repl_odata(t) ? 5 : 4) : t->ms ? 1 : 0, 0, 0, e->line, e->rtr, NULL);
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
    if (h->mask == 0) {
        memset(h, 0, sizeof *h);
        t->wh = wb_next(t, t->wh);
        return;
    }
    alloc(t, t->dn ? K_O : K_WT, h->line, h->mask);
    load_out(&t->ro, t->dn ? 3 : 2, 0, 0, h->line, h->mask, t->dn ? NULL : h->data);
    memset(h, 0, sizeof *h);
    t->wh = wb_next(t, t->wh);
}

/* MESI: a read miss by ReqS, a store or an atomic by ReqO+data, always of
 * the whole line (Table II); an eviction of an owned line by ReqWB. */
static void do_creq_mesi(spandex_tuhw_tm *t)
{
    const buf *q = &t->cq;
    unsigned w;
    mshr *e;
    switch (q->type) {
    case SPANDEX_TUHW_C_LD:
        alloc(t, K_V, q->line, t->g.full);
        load_out(&t->ro, 1, 0, 0, q->line, t->g.full, NULL);
        return;
    case SPANDEX_TUHW_C_ST:
    case SPANDEX_TUHW_C_RMW:
        e = alloc(t, K_OD, q->line, t->g.full);
        e->st = q->mask;
        if (q->type == SPANDEX_TUHW_C_RMW) {
            e->fl = F_RMW;
            e->op = q->op;
            e->opd = q->data[cohkit_ilog2(q->mask)];
        } else {
            for (w = 0; w < t->g.words; w++)
                if (q->mask >> w & 1)
                    e->data[w] = q->data[w];
        }
        load_out(&t->ro, 5, 0, 0, q->line, t->g.full, NULL);
        return;
    case SPANDEX_TUHW_C_EVICT:
        if (q->mask) {
            e = alloc(t, K_WB, q->line, q->mask);
            for (w = 0; w < t->g.words; w++)
                if (q->mask >> w & 1)
                    e->data[w] = q->data[w];
            load_out(&t->ro, 6, 0, 0, q->line, q->mask, e->data);
        }
        load_out(&t->co, SPANDEX_TUHW_R_DONE, 0, 0, q->line, 0, NULL);
        return;
    default: load_out(&t->co, SPANDEX_TUHW_R_DONE, 0, 0, q->line, 0, NULL); return;
    }
}

static void do_creq(spandex_tuhw_tm *t, const act *a)
{
    const buf *q = &t->cq;
    unsigned w;
    wbl *b;
    mshr *e;
    if (t->ms) {
        do_creq_mesi(t);
        return;
    }
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
        if (repl_odata(t)) {
            alloc(t, K_OD, q->line, q->mask);
            load_out(&t->ro, 5, 0, 0, q->line, q->mask, NULL);
        } else {
            alloc(t, K_WTD, q->line, q->mask);
            load_out(&t->ro, 4, 0, 0, q->line, q->mask, q->data);
        }
        t->ro.op = q->op;
        return;
    case SPANDEX_TUHW_C_EVICT:
        if (t->dn && q->mask) {
            e = alloc(t, K_WB, q->line, q->mask);
            for (w = 0; w < t->g.words; w++)
                if (q->mask >> w & 1)
                    e->data[w] = q->data[w];
            load_out(&t->ro, 6, 0, 0, q->line, q->mask, e->data);
        }
        load_out(&t->co, SPANDEX_TUHW_R_DONE, 0, 0, q->line, 0, NULL);
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
    if (t->cq.v || t->rq.v || t->fq.v || t->pd.v || t->ro.v || t->oo.v || t->co.v || t->pr.v ||
        t->wb[t->wh].v || t->df[t->dh].v)
        return 0;
    for (i = 0; i < t->c.mshr; i++)
        if (t->e[i].v)
            return 0;
    return 1;
}

/* Which buffers may load this cycle: those empty, or emptied by the
 * action of the cycle (the GPU forward; a DeNovo forward waits a cycle).
 * No cache request is taken while a probe is out or a request waits
 * delayed (an EVICT taken then could lose, at its RspWB, the words the
 * delayed request will ask for), nor a forward while a delayed one can
 * come back or every slot is taken (so the forward in the buffer always
 * finds a slot, and a delayed one comes back as soon as it may). */
typedef struct {
    int cq, rq, fq, pd;
} rdy;

static rdy readies(const spandex_tuhw_tm *t, const act *a)
{
    rdy r;
    r.rq = !t->rq.v || a->kind == ACT_RSP;
    act ra;
    r.fq = t->dn ? !t->fq.v && !can_replay(t, &ra) && !t->df[t->dt].v : !t->fq.v || a->kind == ACT_FWD;
    r.cq = (!t->cq.v || a->kind == ACT_CREQ) && !probing(t) &&
           !(t->dn && ((a->kind == ACT_FWD && t->fq.ph == PH_FRESH) || t->df[t->dh].v));
    r.pd = !t->pd.v;
    return r;
}

void spandex_tuhw_tm_eval(const spandex_tuhw_tm *t, const uint64_t *in, uint64_t *out)
{
    act a = choose(t);
    rdy r = readies(t, &a);
    (void)in;
    memset(out, 0, t->p.out_words * sizeof *out);
    put(t, out, P(c_req_ready_o), (uint64_t)r.cq);
    put(t, out, P(rsp_ready_o), (uint64_t)r.rq);
    put(t, out, P(fwd_ready_o), (uint64_t)r.fq);
    put(t, out, P(c_pdat_ready_o), (uint64_t)r.pd);
    put(t, out, P(c_rsp_valid_o), (uint64_t)t->co.v);
    put(t, out, P(c_rsp_type_o), t->co.type);
    put(t, out, P(c_rsp_line_o), t->co.line);
    put(t, out, P(c_rsp_mask_o), t->co.mask);
    put(t, out, P(c_rsp_own_o), t->co.own);
    spandex_ports_put_words(&t->p, out, P(c_rsp_data_o), t->co.data, t->g.full);
    put(t, out, P(c_prb_valid_o), (uint64_t)t->pr.v);
    put(t, out, P(c_prb_line_o), t->pr.line);
    put(t, out, P(c_prb_mask_o), t->pr.mask);
    put(t, out, P(c_prb_down_o), (uint64_t)t->pr.down);
    put(t, out, P(req_valid_o), (uint64_t)t->ro.v);
    put(t, out, P(req_type_o), t->ro.type);
    put(t, out, P(req_line_o), t->ro.line);
    put(t, out, P(req_mask_o), t->ro.mask);
    put(t, out, P(req_op_o), t->ro.op);
    spandex_ports_put_words(&t->p, out, P(req_data_o), t->ro.data, t->g.full);
    put(t, out, P(out_valid_o), (uint64_t)t->oo.v);
    put(t, out, P(out_type_o), t->oo.type);
    put(t, out, P(out_llc_o), t->oo.llc);
    put(t, out, P(out_dst_o), t->oo.dst);
    put(t, out, P(out_line_o), t->oo.line);
    put(t, out, P(out_mask_o), t->oo.mask);
    spandex_ports_put_words(&t->p, out, P(out_data_o), t->oo.data, t->dn ? t->g.full : 0);
    put(t, out, P(idle_o), (uint64_t)idle(t));
    put(t, out, P(err_o), (uint64_t)t->err);
}

static void load_buf(const spandex_tuhw_tm *t, const uint64_t *in, buf *b, int type, int line, int mask, int op,
                     int data, int req)
{
    memset(b, 0, sizeof *b);
    b->v = 1;
    b->type = type >= 0 ? (unsigned)get(t, in, type) : 0;
    b->line = line >= 0 ? get(t, in, line) : 0;
    b->mask = get(t, in, mask) & t->g.full;
    b->op = op >= 0 ? (unsigned)get(t, in, op) : 0;
    b->req = req >= 0 ? (unsigned)get(t, in, req) : 0;
    if (data >= 0) {
        unsigned w;
        spandex_ports_get_words(&t->p, in, data, b->data);
        for (w = 0; w < t->g.words; w++)
            b->data[w] &= wmask(t);
    }
}

void spandex_tuhw_tm_step(spandex_tuhw_tm *t, const uint64_t *in)
{
    act a;
    rdy r;
    int gone[SPANDEX_TUHW_MSHR_MAX];
    unsigned i;
    if (!in[0]) {
        spandex_tuhw_tm_reset(t);
        return;
    }
    a = choose(t);
    r = readies(t, &a);
    /* MESI: a ReqWB answered frees its entry once no delayed or buffered
     * forward names its line */
    for (i = 0; i < t->c.mshr; i++) {
        const mshr *e = &t->e[i];
        gone[i] = t->ms && e->v && e->kind == K_WB && e->recv == e->mask && !held_back(t, e->line) &&
                  !(t->fq.v && t->fq.line == e->line);
    }
    if (t->ro.v && get(t, in, P(req_ready_i)))
        t->ro.v = 0;
    if (t->oo.v && get(t, in, P(out_ready_i)))
        t->oo.v = 0;
    if (t->co.v && get(t, in, P(c_rsp_ready_i)))
        t->co.v = 0;
    if (t->pr.v && get(t, in, P(c_prb_ready_i)))
        t->pr.v = 0;
    if (a.bad) {
        t->err = 1;
        if (a.kind == ACT_FWD)
            t->fq.v = 0;
        else if (a.kind == ACT_PDAT_BAD)
            t->pd.v = 0;
    } else if (a.kind == ACT_RSP)
        do_rsp(t, &a);
    else if (a.kind == ACT_FWD && t->dn)
        do_fwd_denovo(t);
    else if (a.kind == ACT_FWD)
        do_fwd_gpu(t);
    else if (a.kind == ACT_REPLAY)
        do_replay(t);
    else if (a.kind == ACT_RESEND)
        do_resend(t, a.idx);
    else if (a.kind == ACT_FLUSH)
        do_flush(t);
    else if (a.kind == ACT_CREQ)
        do_creq(t, &a);
    if (a.kind == ACT_RSP)
        t->rq.v = 0;
    if (a.kind == ACT_CREQ)
        t->cq.v = 0;
    for (i = 0; i < t->c.mshr; i++)
        if (gone[i])
            memset(&t->e[i], 0, sizeof t->e[i]);
    if (r.cq && get(t, in, P(c_req_valid_i)))
        load_buf(t, in, &t->cq, P(c_req_type_i), P(c_req_line_i), P(c_req_mask_i), P(c_req_op_i),
                 P(c_req_data_i), -1);
    if (r.rq && get(t, in, P(rsp_valid_i)))
        load_buf(t, in, &t->rq, P(rsp_type_i), P(rsp_line_i), P(rsp_mask_i), -1, P(rsp_data_i), -1);
    if (r.fq && get(t, in, P(fwd_valid_i)))
        load_buf(t, in, &t->fq, P(fwd_type_i), P(fwd_line_i), P(fwd_mask_i), -1, -1, P(fwd_req_i));
    if (r.pd && get(t, in, P(c_pdat_valid_i)))
        load_buf(t, in, &t->pd, -1, -1, P(c_pdat_mask_i), -1, P(c_pdat_data_i), -1);
}

/* ------------------------------------------------------------ new, reset */
spandex_tuhw_tm *spandex_tuhw_tm_new(const spandex_tuhw_cfg *c)
{
    spandex_tuhw_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->c = *c;
    t->dn = c->kind != SPANDEX_TU_GPU;
    t->ms = c->kind == SPANDEX_TU_MESI;
    spandex_tuhw_geom_of(c, &t->g);
    spandex_tuhw_ports_of(c, &t->p);
    return t;
}

void spandex_tuhw_tm_free(spandex_tuhw_tm *t) { free(t); }

const spandex_tuhw_tm_stats *spandex_tuhw_tm_stats_of(const spandex_tuhw_tm *t) { return &t->st; }

void spandex_tuhw_tm_reset(spandex_tuhw_tm *t)
{
    spandex_tuhw_cfg c = t->c;
    spandex_tuhw_geom g = t->g;
    spandex_tuhw_ports p = t->p;
    memset(t, 0, sizeof *t);
    t->c = c;
    t->dn = c.kind != SPANDEX_TU_GPU;
    t->ms = c.kind == SPANDEX_TU_MESI;
    t->g = g;
    t->p = p;
}
