/*
 * The Spandex translation unit as a registry unit (cmodel/unit.h): port
 * table, timing shell adapters and the stimulus of the lockstep bench.
 *
 * The bench plays the cache on one side and the LLC with the other devices
 * on the other. The cache presents reads, stores, atomics, ACQ, REL and
 * evictions on a small pool of lines and takes every answer under
 * back-pressure. The network side answers each request the unit sends, in
 * random parts, random order and after random delays: a ReqV by RspV words
 * or Nacks (the nack stream Nacks most), a replacement or an atomic by
 * RspWT+data, a ReqWT by RspWT or an owner's RspO (X2); it also sends stray
 * FwdReqVs and Invs, which the unit must answer with a Nack and an Ack.
 * The bench checks what the unit promises the network: never two open
 * requests on one word, every forward answered in order with the right
 * answer, and every completion the cache gets belonging to a request. The
 * `errors` stream sends, every few thousand cycles, a response nothing
 * waits for, which err_o must show; the cache and the forwards fall quiet
 * for 300 cycles before each, so the unit is idle when it arrives. After
 * the first, GPU coherence also gets stray probe answers and forwards it
 * cannot take, at busy times; DeNovo and MESI forwards of no type,
 * downgrades of a line the cache does not hold and RspWBs for open
 * requests of another kind, cache requests of no type (MESI: atomics of
 * two words), and MESI stray probe answers when no forward is owed.
 *
 * For the DeNovo kind (the functions named dn_*) the cache keeps I, V, PO
 * and O words and answers every probe; the LLC tracks which words this
 * device owns, forwards only for those (FwdReqV, FwdReqS, FwdReqO,
 * FwdReqO+data, RvkO, moving ownership when it sends a downgrade) besides
 * stray FwdReqVs and Invs, and races downgrades with pending ReqO,
 * ReqO+data and ReqWB and with an EVICT the cache presents. Its checks:
 * no request on words the device owns, answers matched to forwards by
 * line, requestor and words with the data the cache gave, FILL and VALUE
 * data equal to the LLC's, no forward left unanswered; the summary counts
 * every request, answer, probe and race column. For the MESI kind (ms_*)
 * the cache keeps whole lines in I, S or E/M and the same LLC also checks
 * that no line is E/M in the cache while another device owns one of its
 * words, and that owned words never get lost (the MESI bench's comment).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "spandex_tuhw.h"
#include "spandex_tuhw_port.h"
#include "unit_adapt.h"

static const char *const streams[] = {"mixed", "stores", "nack", "errors", NULL};
enum { KIND_MIXED, KIND_STORES, KIND_NACK, KIND_ERRORS, KIND_TRACE };

COHKIT_UNIT_PORTS_BEGIN(spandex_tuhw_cfg, spandex_tuhw_geom, spandex_tuhw_geom_of, c)
#include "spandex_tuhw_ports.def"
COHKIT_UNIT_PORTS_END

COHKIT_UNIT_ADAPTERS(spandex_tuhw, spandex_tuhw_cfg, spandex_tuhw_tm, uint64_t, uint64_t, spandex_tuhw_tm_new,
                     spandex_tuhw_tm_free, spandex_tuhw_tm_reset, spandex_tuhw_tm_eval, spandex_tuhw_tm_step)

#define P(n) SPANDEX_TUHW_P_##n
#define POOL 6
#define PEND_MAX 512
#define FWD_MAX 64
#define OPEN_MAX 64
#define QUIET_BEFORE 300 /* errors: quiet cycles before an injection     */

/* A response the network owes, due at a cycle. */
typedef struct {
    unsigned type;
    uint64_t line, mask, due;
    uint64_t x; /* DeNovo --extra-words: a RspV's extra words (Table II) */
    uint64_t v[SPANDEX_LLC_WORDS_MAX];
} pend;

/* A request of the unit not yet fully answered. */
typedef struct {
    unsigned type;
    uint64_t line, mask;
} openreq;

/* DeNovo: the bench's bounds (the cache's open loads and atomics, its
 * syncs waiting for DONE, the LLC's requests not yet processed, forwards
 * not yet fully answered) and how long a forward may stay unanswered. */
#define DN_OPEN_MAX 16
#define DN_SYNC_MAX 16
#define DN_PROC_MAX 64
#define DN_FWD_MAX 32
#define DN_STALL 20000

/* DeNovo: a load or atomic of the cache waiting for its FILL or VALUE. */
typedef struct {
    unsigned op;
    uint64_t line, mask;
    uint64_t v[SPANDEX_LLC_WORDS_MAX]; /* the atomic's operands                 */
} dn_copen;

/* DeNovo: a request of the unit the LLC has taken and processes at due. */
typedef struct {
    unsigned type;
    uint64_t line, mask, due;
} dn_proc;

/* DeNovo: a forward the LLC decided (sent once `sent`), the words still
 * to be answered: a (the answer, or a FwdReqV's Nack) and r (FwdReqS's
 * RspRvkO to the LLC); per word the last values the cache gave away since
 * it was sent (probe answers, an EVICT: gn of them, at most DN_GAVE);
 * MESI: and the last value before it was sent (v0: a write-back pending
 * when it came answers it, though the line may have come back since); rd,
 * the words a read of the cache had open when it was sent. */
#define DN_GAVE 3
typedef struct {
    unsigned type, req;
    int sent, stalled;
    uint64_t line, mask, a, r, t0, rd;
    uint64_t v0[SPANDEX_LLC_WORDS_MAX];
    uint64_t gv[SPANDEX_LLC_WORDS_MAX][DN_GAVE];
    unsigned char gn[SPANDEX_LLC_WORDS_MAX];
} dn_fwd;

/* DeNovo: the cache (per pool line its V, PO and O words, the rest I, and
 * their data; words with a load or an atomic open), the probe it took,
 * and the LLC (per pool line the words it has this device as owner, the
 * value the device last gave away per word, the data the last response
 * carried per word). */
typedef struct {
    uint64_t v[POOL], po[POOL], o[POOL], ldo[POOL], rmwo[POOL];
    uint64_t cd[POOL][SPANDEX_LLC_WORDS_MAX];
    dn_copen ld[DN_OPEN_MAX], rmw[DN_OPEN_MAX];
    unsigned nld, nrmw;
    unsigned sync[DN_SYNC_MAX], nsync;
    int prb, pdat;
    unsigned prb_down;
    uint64_t prb_line, prb_mask, prb_due, pd_mask;
    uint64_t pd_v[SPANDEX_LLC_WORDS_MAX];
    int ev_raced; /* a forward raced the EVICT presented                   */
    uint64_t own[POOL];
    uint64_t exp[POOL][SPANDEX_LLC_WORDS_MAX], rv[POOL][SPANDEX_LLC_WORDS_MAX];
    uint64_t xv[POOL][SPANDEX_LLC_WORDS_MAX]; /* the extra words' data the last RspV carried */
    uint64_t nxw, nxw_in;  /* RspVs with extra words sent; extra words installed */
    dn_proc pr[DN_PROC_MAX];
    unsigned npr;
    dn_fwd fw[DN_FWD_MAX];
    unsigned nfw;
    /* coverage: cache operations done locally (ST, RMW on owned words),
     * OWN answers, forwards decided per type and stray FwdReqVs, probes and
     * downgrade probes, races (a forward to words of a ReqO, a ReqO+data or
     * a ReqWB the unit has open, or of the EVICT the cache presents),
     * replacements, stalled forwards, broken promises per kind */
    uint64_t nlocal, nown, nfwt[6], nstray, nprb, nprb_down;
    uint64_t race_o, race_od, race_now, race_wb, race_ev, nrepl, nstall;
    uint64_t bad_req, bad_crsp, bad_out, bad_data, bad_cyc;
    const char *bad_why; /* the first broken promise                      */
} dn_state;

/* MESI: the cache (per pool line I, S or O; its request open through the
 * unit: 1 + the type, with op, mask and operands or store data) and the
 * counts and checks of the MESI bench (drive_owner). */
typedef struct {
    unsigned st[POOL], busy[POOL], op[POOL];
    uint64_t mask[POOL], v[POOL][SPANDEX_LLC_WORDS_MAX];
    uint64_t fills[3], lost_o, mode[4], resend, resend_o, wb_stale, ninv_prb, bad_own, bad_lost;
    uint64_t lost_since[POOL];
    /* the write-back state: its words per line and since when; lines that
     * entered it, releases, lines kept too long (a broken promise) */
    uint64_t wbm[POOL], w_since[POOL], nwb, nrel, bad_rel;
    int bad_o[POOL];
} ms_state;

typedef struct {
    cohkit_unit_stim_base b;
    spandex_tuhw_cfg c;
    spandex_tuhw_geom g;
    spandex_tuhw_ports p;
    uint64_t pool[POOL];
    int have_c, have_r, have_f, have_p; /* have_p: a stray probe answer (GPU, MESI) */
    int f_bad;                          /* the forward is an injected error  */
    int c_bad;                          /* the cache request is one          */
    int c_inj;                          /* one to present when c_req is free */
    int r_bad;                          /* the response is an injected error */
    unsigned c_type, c_op, r_type, f_type, f_req;
    uint64_t c_line, c_mask, r_line, r_mask, f_line, f_mask;
    uint64_t r_x; /* the response's extra words (in rsp_mask_i, not in r_mask) */
    uint64_t c_v[SPANDEX_LLC_WORDS_MAX], r_v[SPANDEX_LLC_WORDS_MAX];
    pend pd[PEND_MAX];
    unsigned npd;
    openreq op[OPEN_MAX];
    unsigned nop;
    struct {
        unsigned type, req;
        uint64_t line, mask;
    } fw[FWD_MAX];
    unsigned nfw;
    unsigned lds, rmws, syncs; /* cache requests waiting for an answer   */
    uint64_t inj_next, inj_first, err_first, err_cycles, injected, pdat_next;
    uint64_t nreq[8], nrsp[10], ncreq[6], ncrsp[3], nout[10], nfwd;
    uint64_t bad; /* broken promises (must stay 0)                           */
    /* trace mode: the records, the next to present, the one presented on
     * each channel (-1: none), the one the next waits for and since when,
     * quiet cycles, err_o seen */
    spandex_tuhw_rec *tr;
    size_t ntr, next;
    long pend[4], blocking;
    uint64_t since, quiet;
    int err_seen;
    dn_state dn; /* the DeNovo bench (its LLC and checks: the MESI bench's too) */
    ms_state ms; /* the MESI bench                                          */
} tx_stim;

/* A trace record waits this many cycles to be accepted before the next
 * one is presented (a REL waiting for responses that later records bring). */
#define TRACE_BYPASS 64
/* The next record waits until nothing moved for this many cycles (the
 * unit has sent what the last one caused: a response never comes before
 * its request). */
#define TRACE_SETTLE 6
/* The unit has drained when nothing moved for this many cycles. */
#define TRACE_QUIET 16

static void stim_free(void *p)
{
    tx_stim *s = p;
    if (s == NULL)
        return;
    free(s->tr);
    free(s);
}

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    tx_stim *s = p;
    unsigned i;
    (void)a;
    s->c = *(const spandex_tuhw_cfg *)cfg;
    spandex_tuhw_geom_of(&s->c, &s->g);
    spandex_tuhw_ports_of(&s->c, &s->p);
    s->pend[0] = s->pend[1] = s->pend[2] = s->pend[3] = s->blocking = -1;
    s->quiet = TRACE_SETTLE;
    if (s->b.trace) {
        if (spandex_tuhw_trace_read(&s->c, a->trace, &s->tr, &s->ntr, err, len) != 0)
            return cohkit_unit_stim_trace_err(a, err, len);
        return 0;
    }
    /* four lines apart, high address bits set in some; MESI: line 0 among
     * them (a free entry holds line 0: a lookup must test the valid bit) */
    for (i = 0; i < POOL; i++)
        s->pool[i] = ((uint64_t)i * 4 + (i & 1   ? cohkit_mask64(s->g.laddr_bits) - 64
                                         : s->c.kind == SPANDEX_TU_MESI ? 0
                                                                        : 16)) &
                     cohkit_mask64(s->g.laddr_bits);
    s->inj_next = s->b.kind == KIND_ERRORS ? 1000 + cohkit_unit_rnd(&s->b.rng) % 1000 : UINT64_MAX;
    return 0;
}

COHKIT_UNIT_STIM_NEW(tx_stim, 0x5350584e54553031ull)

static uint64_t rnd(tx_stim *s) { return cohkit_unit_rnd(&s->b.rng); }
static unsigned pct(tx_stim *s) { return cohkit_unit_pct(&s->b.rng); }

static uint64_t value(tx_stim *s)
{
    return (pct(s) < 25 ? rnd(s) : rnd(s) % 256) & cohkit_mask64(s->g.word_bits);
}

static uint64_t some_words(tx_stim *s, uint64_t within)
{
    uint64_t m = within & rnd(s);
    return m ? m : within & -within;
}

/* ------------------------------------------------------------ cache side */
static void make_creq(tx_stim *s)
{
    static const unsigned mixed[] = {0, 0, 0, 1, 1, 1, 1, 2, 3, 4, 4, 5};
    static const unsigned stores[] = {1, 1, 1, 1, 1, 1, 0, 2, 4};
    unsigned w, k = s->b.kind == KIND_STORES ? stores[rnd(s) % 9] : mixed[rnd(s) % 12];
    s->c_type = k;
    s->c_line = s->pool[rnd(s) % (s->b.kind == KIND_STORES ? 3 : POOL)];
    s->c_op = (unsigned)(rnd(s) % 8);
    switch (k) {
    case SPANDEX_TUHW_C_LD: s->c_mask = pct(s) < 70 ? s->g.full : some_words(s, s->g.full); break;
    case SPANDEX_TUHW_C_ST: s->c_mask = pct(s) < 70 ? 1ull << (rnd(s) % s->g.words) : some_words(s, s->g.full); break;
    case SPANDEX_TUHW_C_RMW: s->c_mask = 1ull << (rnd(s) % s->g.words); break;
    default: s->c_mask = 0; break;
    }
    for (w = 0; w < s->g.words; w++)
        s->c_v[w] = value(s);
    s->have_c = 1;
}

/* ---------------------------------------------------------- network side */
static void add_pend(tx_stim *s, unsigned type, uint64_t line, uint64_t mask, uint64_t due)
{
    pend *d;
    unsigned w;
    if (s->npd == PEND_MAX) {
        s->bad++;
        return;
    }
    d = &s->pd[s->npd++];
    d->type = type;
    d->line = line;
    d->mask = mask;
    d->x = 0;
    d->due = due;
    for (w = 0; w < s->g.words; w++)
        d->v[w] = value(s);
}

/* The answers of a request, in up to three parts. */
static void answer(tx_stim *s, unsigned rtype, uint64_t line, uint64_t mask, uint64_t cyc)
{
    uint64_t left = mask;
    unsigned nackp = s->b.kind == KIND_NACK ? 70 : 15;
    while (left) {
        uint64_t part = pct(s) < 50 ? left : some_words(s, left);
        unsigned t;
        switch (rtype) {
        case 0: t = pct(s) < nackp ? 9 : 0; break; /* ReqV: RspV or Nack      */
        case 2: t = pct(s) < 20 ? 3 : 2; break;    /* ReqWT: RspWT or RspO    */
        default: t = 4; break;                     /* ReqWT+data: RspWT+data  */
        }
        add_pend(s, t, line, part, cyc + 2 + rnd(s) % (pct(s) < 10 ? 60 : 12));
        left &= ~part;
    }
}

static int take_pend(tx_stim *s, uint64_t cyc)
{
    unsigned i, n = 0, k;
    for (i = 0; i < s->npd; i++)
        n += s->pd[i].due <= cyc;
    if (n == 0)
        return 0;
    k = (unsigned)(rnd(s) % n);
    for (i = 0; i < s->npd; i++)
        if (s->pd[i].due <= cyc && k-- == 0)
            break;
    s->r_type = s->pd[i].type;
    s->r_line = s->pd[i].line;
    s->r_mask = s->pd[i].mask;
    s->r_x = s->pd[i].x;
    memcpy(s->r_v, s->pd[i].v, sizeof s->r_v);
    s->pd[i] = s->pd[--s->npd];
    return 1;
}

/* A response to a line and words nothing waits for (errors stream). */
static int inject_rsp(tx_stim *s)
{
    unsigned i;
    uint64_t line = s->pool[0] ^ 2; /* never in the pool */
    for (i = 0; i < s->nop; i++)
        if (s->op[i].line == line)
            return 0;
    s->r_type = 0;
    s->r_line = line;
    s->r_mask = 1;
    s->r_x = 0;
    memset(s->r_v, 0, sizeof s->r_v);
    return 1;
}

/* The cache request, response and forward the bench presents, on their
 * ports (both kinds). */
static void put_creq(const tx_stim *s, uint64_t *in)
{
    in[s->p.off[P(c_req_valid_i)]] = 1;
    in[s->p.off[P(c_req_type_i)]] = s->c_type;
    in[s->p.off[P(c_req_line_i)]] = s->c_line;
    in[s->p.off[P(c_req_mask_i)]] = s->c_mask;
    in[s->p.off[P(c_req_op_i)]] = s->c_op;
    spandex_ports_put_words(&s->p, in, P(c_req_data_i), s->c_v, s->g.full);
}

static void put_rsp(const tx_stim *s, uint64_t *in)
{
    in[s->p.off[P(rsp_valid_i)]] = 1;
    in[s->p.off[P(rsp_type_i)]] = s->r_type;
    in[s->p.off[P(rsp_line_i)]] = s->r_line;
    in[s->p.off[P(rsp_mask_i)]] = s->r_mask | s->r_x;
    spandex_ports_put_words(&s->p, in, P(rsp_data_i), s->r_v, s->g.full);
}

static void put_fwd(const tx_stim *s, uint64_t *in)
{
    in[s->p.off[P(fwd_valid_i)]] = 1;
    in[s->p.off[P(fwd_type_i)]] = s->f_type;
    in[s->p.off[P(fwd_line_i)]] = s->f_line;
    in[s->p.off[P(fwd_mask_i)]] = s->f_mask;
    in[s->p.off[P(fwd_req_i)]] = s->f_req;
}

/* errors stream: a response nothing waits for, every 2,000-4,000 cycles,
 * and after the first now and then a stray probe answer, a forward, a
 * response or (MESI) a cache request the unit must refuse. */
static void inject(tx_stim *s, uint64_t cyc)
{
    /* GPU coherence, after the first injection: now and then, while the
     * unit is busy, a probe answer with no probe out or a forward GPU
     * coherence cannot take (FwdReqO, FwdReqO+data, RvkO), in turn (a
     * DeNovo cache answers probes itself and owns words) */
    if (s->c.kind == SPANDEX_TU_GPU && s->inj_first && !s->have_p && !s->have_f && cyc >= s->pdat_next) {
        if (s->injected & 1) {
            s->have_p = 1;
        } else {
            s->have_f = s->f_bad = 1;
            s->f_type = 2 + (unsigned)(rnd(s) % 3);
            s->f_line = s->pool[rnd(s) % POOL];
            s->f_mask = 1;
            s->f_req = 0;
        }
        s->pdat_next = cyc + 1000 + rnd(s) % 1000;
        s->injected++;
    }
    /* MESI, one time in eight: a probe answer with no probe out, when no
     * forward is owed (none can be probing or about to probe: the unit
     * takes the stray answer before any forward of the cycle) */
    if (s->c.kind == SPANDEX_TU_MESI && s->inj_first && (s->injected & 7) == 5 && cyc >= s->pdat_next) {
        if (!s->have_p && !s->have_f && !s->dn.nfw && !s->dn.prb && !s->dn.pdat) {
            s->have_p = 1;
            s->pdat_next = cyc + 1000 + rnd(s) % 1000;
            s->injected++;
        }
    }
    /* DeNovo and MESI, one time in eight: a cache request the unit drops
     * with err_o, presented as soon as the cache's port is free
     * (drive_owner, inject_creq) */
    else if (s->c.kind != SPANDEX_TU_GPU && s->inj_first && (s->injected & 7) == 3 && cyc >= s->pdat_next) {
        s->c_inj = 1;
        s->pdat_next = cyc + 1000 + rnd(s) % 1000;
        s->injected++;
    }
    /* DeNovo and MESI, the same way: a forward of no defined type, a
     * downgrade of a line the cache does not hold, or a RspWB with the
     * line and words of an open request that is not a ReqWB */
    else if (s->c.kind != SPANDEX_TU_GPU && s->inj_first && !s->have_f && !s->have_r && cyc >= s->pdat_next) {
        unsigned i, k = s->nop ? (unsigned)(rnd(s) % s->nop) : 0;
        if (s->injected & 1) { /* of no type, or a downgrade of words not held */
            s->have_f = s->f_bad = 1;
            s->f_type = s->injected & 2 ? 6 + (unsigned)(rnd(s) % 2) : 1 + (unsigned)(rnd(s) % 4);
            s->f_line = s->injected & 2 ? s->pool[rnd(s) % POOL] : s->pool[0] ^ 2;
            s->f_mask = 1;
            s->f_req = 0;
        } else {
            for (i = 0; i < s->nop && !s->have_r; i++, k = k + 1 == s->nop ? 0 : k + 1)
                if (s->op[k].type != 6) {
                    s->have_r = s->r_bad = 1;
                    s->r_type = 6;
                    s->r_line = s->op[k].line;
                    s->r_mask = s->op[k].mask;
                    s->r_x = 0;
                    memset(s->r_v, 0, sizeof s->r_v);
                }
            if (!s->have_r && s->c.kind != SPANDEX_TU_MESI)
                return; /* nothing open: another cycle */
        }
        if (s->have_r || s->have_f) { /* (MESI, nothing open: the response */
            s->pdat_next = cyc + 1000 + rnd(s) % 1000; /* injection below, so */
            s->injected++;                             /* the cache wakes)    */
        }
    }
    if (!s->have_r && cyc >= s->inj_next && (s->have_r = inject_rsp(s)) != 0) {
        s->inj_next = cyc + 2000 + rnd(s) % 2000;
        s->injected++;
        if (!s->inj_first) {
            s->inj_first = cyc;
            s->pdat_next = cyc + 500;
        }
    }
}


/* errors stream, DeNovo and MESI: the cache request to refuse: MESI an
 * atomic of two words (the cache's contract allows one; lines of one
 * word: as DeNovo), DeNovo a request of no type. */
static void inject_creq(tx_stim *s)
{
    int two = s->c.kind == SPANDEX_TU_MESI && s->g.words > 1;
    s->c_inj = 0;
    s->have_c = s->c_bad = 1;
    s->c_type = two ? SPANDEX_TUHW_C_RMW : 6 + (unsigned)(rnd(s) % 2);
    s->c_line = s->pool[rnd(s) % POOL];
    s->c_mask = two ? 3 : 1;
    s->c_op = two ? 2 : 0;
}

static void make_fwd(tx_stim *s)
{
    s->f_type = pct(s) < 50 ? 0 : 5;
    s->f_line = s->pool[rnd(s) % POOL];
    s->f_mask = some_words(s, s->g.full);
    s->f_req = (unsigned)(rnd(s) % s->c.devs);
    s->have_f = 1;
}

/* Trace mode: records are presented in order, each on its channel, the
 * next when the last was accepted (or waited TRACE_BYPASS cycles); every
 * output is always ready. */
static void drive_trace(tx_stim *s, uint64_t cyc, uint64_t *in)
{
    int ch;
    if (s->blocking >= 0 && cyc - s->since >= TRACE_BYPASS)
        s->blocking = -1;
    if (s->next < s->ntr && s->blocking < 0 && s->quiet >= TRACE_SETTLE && s->pend[s->tr[s->next].ch] < 0) {
        s->pend[s->tr[s->next].ch] = (long)s->next;
        s->blocking = (long)s->next++;
        s->since = cyc;
    }
    for (ch = 0; ch < 4; ch++) {
        const spandex_tuhw_rec *r;
        static const int valid[] = {P(c_req_valid_i), P(rsp_valid_i), P(fwd_valid_i), P(c_pdat_valid_i)};
        static const int type[] = {P(c_req_type_i), P(rsp_type_i), P(fwd_type_i), -1};
        static const int line[] = {P(c_req_line_i), P(rsp_line_i), P(fwd_line_i), -1};
        static const int mask[] = {P(c_req_mask_i), P(rsp_mask_i), P(fwd_mask_i), P(c_pdat_mask_i)};
        if (s->pend[ch] < 0)
            continue;
        r = &s->tr[s->pend[ch]];
        in[s->p.off[valid[ch]]] = 1;
        if (type[ch] >= 0) {
            in[s->p.off[type[ch]]] = r->type;
            in[s->p.off[line[ch]]] = r->line;
        }
        in[s->p.off[mask[ch]]] = r->mask;
        if (ch == 0) {
            in[s->p.off[P(c_req_op_i)]] = r->op;
            spandex_ports_put_words(&s->p, in, P(c_req_data_i), r->v, r->mask);
        } else if (ch == 1) {
            spandex_ports_put_words(&s->p, in, P(rsp_data_i), r->v, r->mask);
        } else if (ch == 2) {
            in[s->p.off[P(fwd_req_i)]] = r->req;
        } else {
            spandex_ports_put_words(&s->p, in, P(c_pdat_data_i), r->v, r->mask);
        }
    }
    in[s->p.off[P(req_ready_i)]] = 1;
    in[s->p.off[P(out_ready_i)]] = 1;
    in[s->p.off[P(c_rsp_ready_i)]] = 1;
    in[s->p.off[P(c_prb_ready_i)]] = 1;
}

/* Trace mode: the handshakes of the cycle, their output lines. */
static void observe_trace(tx_stim *s, const uint64_t *in, const uint64_t *out)
{
    static const int ready[] = {P(c_req_ready_o), P(rsp_ready_o), P(fwd_ready_o), P(c_pdat_ready_o)};
    uint64_t v[SPANDEX_LLC_WORDS_MAX];
    int ch, moved = 0;
    for (ch = 0; ch < 4; ch++)
        if (s->pend[ch] >= 0 && (out[s->p.off[ready[ch]]] & 1)) {
            if (s->blocking == s->pend[ch])
                s->blocking = -1;
            s->pend[ch] = -1;
            moved = 1;
        }
    if (out[s->p.off[P(c_rsp_valid_o)]] & 1) {
        spandex_ports_get_words(&s->p, out, P(c_rsp_data_o), v);
        spandex_tuhw_print(&s->c, s->b.out, 0, (unsigned)out[s->p.off[P(c_rsp_type_o)]], 0, 0, 0,
                           out[s->p.off[P(c_rsp_line_o)]], out[s->p.off[P(c_rsp_mask_o)]],
                           out[s->p.off[P(c_rsp_own_o)]], v);
        moved = 1;
    }
    if (out[s->p.off[P(c_prb_valid_o)]] & 1) {
        spandex_tuhw_print(&s->c, s->b.out, 3, 0, 0, (unsigned)(out[s->p.off[P(c_prb_down_o)]] & 1), 0,
                           out[s->p.off[P(c_prb_line_o)]], out[s->p.off[P(c_prb_mask_o)]], 0, v);
        moved = 1;
    }
    if (out[s->p.off[P(req_valid_o)]] & 1) {
        spandex_ports_get_words(&s->p, out, P(req_data_o), v);
        spandex_tuhw_print(&s->c, s->b.out, 1, (unsigned)out[s->p.off[P(req_type_o)]],
                           (unsigned)out[s->p.off[P(req_op_o)]], 0, 0, out[s->p.off[P(req_line_o)]],
                           out[s->p.off[P(req_mask_o)]], 0, v);
        moved = 1;
    }
    if (out[s->p.off[P(out_valid_o)]] & 1) {
        spandex_ports_get_words(&s->p, out, P(out_data_o), v);
        spandex_tuhw_print(&s->c, s->b.out, 2, (unsigned)out[s->p.off[P(out_type_o)]], 0,
                           (unsigned)out[s->p.off[P(out_llc_o)]], (unsigned)out[s->p.off[P(out_dst_o)]],
                           out[s->p.off[P(out_line_o)]], out[s->p.off[P(out_mask_o)]], 0, v);
        moved = 1;
    }
    if ((out[s->p.off[P(err_o)]] & 1) && !s->err_seen) {
        s->err_seen = 1;
        if (s->b.out != NULL)
            fprintf(s->b.out, "ERR\n");
    }
    (void)in;
    s->quiet = moved ? 0 : s->quiet + 1;
}

static const unsigned sched_valid[] = {100, 70, 30}, sched_ready[] = {100, 80, 40};
static const cohkit_unit_bp_sched sched = COHKIT_UNIT_BP_SCHED(sched_valid, sched_ready);

/* ------------------------------------------------- DeNovo: the bench -- */
/* The DeNovo bench's cache keeps per word I, V, PO (a store sent to the
 * unit, ownership pending) or O with its data, and obeys the cache-side
 * contract: loads of I and V words, stores and atomics on I and V words
 * with no load open through the unit (on PO and O words in the cache
 * itself; a word with a load open waits for its FILL), evictions of
 * lines without PO words or open atomics (their O words and data), every
 * probe answered once with the probed words it holds. Its LLC tracks per
 * word whether this device owns it: a ReqO or ReqO+data makes it the owner
 * when the LLC processes the request, a downgrade (FwdReqS, FwdReqO,
 * FwdReqO+data, RvkO) moves the ownership away when the LLC sends it, a
 * processed ReqWB clears it. Forwards go only to owned words (FwdReqV
 * keeps the ownership), often right when the LLC processes a ReqO or
 * ReqO+data (before its responses) or takes a ReqWB (before processing
 * it); stray FwdReqVs go to words not owned, Invs anywhere. The bench
 * checks each answer against its forward (kind, requestor, words) and the
 * data against what the cache last gave away. */

static void dn_bad(tx_stim *s, uint64_t cyc, uint64_t *kind, const char *why)
{
    if (s->bad++ == 0) {
        s->dn.bad_cyc = cyc;
        s->dn.bad_why = why;
    }
    (*kind)++;
}

static int dn_li(const tx_stim *s, uint64_t line)
{
    int i;
    for (i = 0; i < POOL; i++)
        if (s->pool[i] == line)
            return i;
    return -1;
}

/* The cache gave the words of mask away (a probe answer, an EVICT) with
 * values v: what an answer to a forward may carry. */
static void dn_gave(tx_stim *s, int li, uint64_t mask, const uint64_t *v)
{
    dn_state *d = &s->dn;
    unsigned i, w;
    for (w = 0; w < s->g.words; w++) {
        if (!(mask >> w & 1))
            continue;
        d->exp[li][w] = v[w];
        for (i = 0; i < d->nfw; i++) {
            dn_fwd *f = &d->fw[i];
            if (!f->sent || f->line != s->pool[li] || !((f->a | f->r) >> w & 1))
                continue;
            if (f->gn[w] == DN_GAVE) {
                memmove(&f->gv[w][0], &f->gv[w][1], (DN_GAVE - 1) * sizeof f->gv[w][0]);
                f->gn[w]--;
            }
            f->gv[w][f->gn[w]++] = v[w];
        }
    }
}

/* 1 when v is what forward f may carry for word w: a value the cache gave
 * since f was sent, or, when it gave none, the last value before. */
static int dn_gave_ok(const tx_stim *s, const dn_fwd *f, int li, unsigned w, uint64_t v)
{
    unsigned k;
    if (f->gn[w] == 0)
        return v == s->dn.exp[li][w];
    if (s->c.kind == SPANDEX_TU_MESI && v == f->v0[w])
        return 1;
    for (k = 0; k < f->gn[w]; k++)
        if (f->gv[w][k] == v)
            return 1;
    return 0;
}

/* Words of line under a downgrade not fully answered (a FwdReqV keeps
 * the ownership: another forward may follow it on its words). */
static uint64_t dn_fwd_busy(const tx_stim *s, uint64_t line)
{
    uint64_t m = 0;
    unsigned i;
    for (i = 0; i < s->dn.nfw; i++)
        if (s->dn.fw[i].line == line && s->dn.fw[i].type != 5 && s->dn.fw[i].type != 0)
            m |= s->dn.fw[i].mask;
    return m;
}

/* Words of line in an open request of type t. */
static uint64_t dn_open(const tx_stim *s, uint64_t line, unsigned t)
{
    uint64_t m = 0;
    unsigned i;
    for (i = 0; i < s->nop; i++)
        if (s->op[i].line == line && s->op[i].type == t)
            m |= s->op[i].mask;
    return m;
}

/* A FwdReqV of requestor req not fully answered names a word of mask. */
static int dn_fwdv_open(const tx_stim *s, unsigned req, uint64_t line, uint64_t mask)
{
    unsigned i;
    for (i = 0; i < s->dn.nfw; i++) {
        const dn_fwd *f = &s->dn.fw[i];
        if (f->type == 0 && f->req == req && f->line == line && (f->a & mask))
            return 1;
    }
    return 0;
}

/* The LLC decides a forward: a downgrade moves the ownership away now. A
 * FwdReqV comes from a requestor with no other FwdReqV open on its words
 * (one open request a word a device, spec 4), the next free one after the
 * drawn one, or none is sent: the unit answers a FwdReqV that would take
 * the delayed ring's last slot at once, before one it delayed, and the
 * answers are matched to forwards by requestor and words. */
static void dn_fwd_add(tx_stim *s, unsigned type, uint64_t line, uint64_t mask, uint64_t cyc)
{
    dn_state *d = &s->dn;
    dn_fwd *f;
    int li = dn_li(s, line);
    unsigned req, k;
    if (!mask || li < 0 || d->nfw == DN_FWD_MAX)
        return;
    req = (unsigned)(rnd(s) % s->c.devs);
    for (k = 0; type == 0 && k < s->c.devs && dn_fwdv_open(s, req, line, mask); k++)
        req = req + 1 == s->c.devs ? 0 : req + 1;
    if (k == s->c.devs)
        return;
    if (type < 5 && (mask & d->own[li])) {
        d->race_o += (mask & dn_open(s, line, 3)) != 0;
        /* (MESI: a ReqS may be answered as ownership: a pending line too) */
        if (mask & (dn_open(s, line, 5) | (s->c.kind == SPANDEX_TU_MESI ? dn_open(s, line, 1) : 0))) {
            if (type == 2)
                d->race_now++;
            else
                d->race_od++;
        }
        d->race_wb += (mask & dn_open(s, line, 6)) != 0;
        d->race_ev += s->have_c && s->c_type == SPANDEX_TUHW_C_EVICT && s->c_line == line && (mask & s->c_mask);
    }
    f = &d->fw[d->nfw++];
    memset(f, 0, sizeof *f);
    f->type = type;
    f->req = req;
    f->line = line;
    f->mask = mask;
    f->a = mask;
    f->r = type == 1 ? mask : 0;
    f->t0 = cyc;
    d->nfwt[type]++;
    if (type >= 1 && type <= 4)
        d->own[li] &= ~mask;
}

/* A forward to some of the owned words of `within` (percent p of the
 * time): any of the five kinds, four of them downgrades. */
static void dn_race(tx_stim *s, uint64_t line, uint64_t within, uint64_t cyc, unsigned p)
{
    int li = dn_li(s, line);
    uint64_t m;
    if (li < 0 || pct(s) >= p)
        return;
    m = within & s->dn.own[li] & ~dn_fwd_busy(s, line);
    if (m)
        dn_fwd_add(s, (unsigned)(rnd(s) % 5), line, some_words(s, m), cyc);
}

/* A forward out of the blue: to owned words, an Inv, or a stray FwdReqV
 * to words the device does not own. */
static void dn_make_fwd(tx_stim *s, uint64_t cyc)
{
    dn_state *d = &s->dn;
    unsigned li = (unsigned)(rnd(s) % (s->b.kind == KIND_STORES ? 3 : POOL)), k = pct(s);
    uint64_t line = s->pool[li], free = s->g.full & ~dn_fwd_busy(s, line), m;
    if (k < 60 && (d->own[li] & free)) {
        dn_fwd_add(s, (unsigned)(rnd(s) % 5), line, some_words(s, d->own[li] & free), cyc);
    } else if (k < 80) {
        dn_fwd_add(s, 5, line, some_words(s, s->g.full), cyc);
    } else if ((m = free & ~d->own[li]) != 0) {
        d->nstray++;
        dn_fwd_add(s, 0, line, some_words(s, m), cyc);
    }
}

/* The answers of a processed request, in up to three parts (a ReqWB: one
 * RspWB). */
static void dn_answer(tx_stim *s, unsigned rtype, uint64_t line, uint64_t mask, uint64_t cyc)
{
    int li = dn_li(s, line);
    uint64_t left = mask, free = li < 0 ? 0 : s->g.full & ~mask & ~s->dn.own[li];
    unsigned nackp = s->b.kind == KIND_NACK ? 70 : 15;
    while (left) {
        uint64_t part = rtype == 6 || pct(s) < 50 ? left : some_words(s, left);
        unsigned t = rtype == 0 && pct(s) < nackp ? 9 : rtype;
        add_pend(s, t, line, part, cyc + 1 + rnd(s) % (pct(s) < 10 ? 60 : 12));
        /* --extra-words: a RspV may add words of the line the device does
         * not own (Table II's "any available up-to-date data") */
        if (s->c.extra && t == 0 && free && pct(s) < 60) {
            s->pd[s->npd - 1].x = some_words(s, free);
            s->dn.nxw++;
        }
        left &= ~part;
    }
}

/* The LLC processes the requests due: ReqV by RspV or Nack parts, ReqO and
 * ReqO+data register this device as owner (and may forward a downgrade
 * from another device at once, before any response), ReqWT+data by
 * RspWT+data, ReqWB clears the ownership it still has. */
static void dn_process(tx_stim *s, uint64_t cyc, int quiet)
{
    dn_state *d = &s->dn;
    unsigned i = 0;
    while (i < d->npr) {
        dn_proc p = d->pr[i];
        int li = dn_li(s, p.line);
        if (p.due > cyc) {
            i++;
            continue;
        }
        d->pr[i] = d->pr[--d->npr];
        if (p.type == 3 || p.type == 5) {
            d->own[li] |= p.mask;
            if (!quiet)
                dn_race(s, p.line, p.mask, cyc, p.type == 3 ? 40 : 50);
        } else if (p.type == 6) {
            d->own[li] &= ~p.mask;
        }
        dn_answer(s, p.type, p.line, p.mask, cyc);
    }
}

/* The cache's next operation: through the unit (c_req), or on words it
 * owns in the cache itself. */
static void dn_make_creq(tx_stim *s)
{
    static const unsigned mixed[] = {0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 4, 5, 5};
    static const unsigned stores[] = {1, 1, 1, 1, 1, 1, 0, 2, 4, 5};
    dn_state *d = &s->dn;
    unsigned k = s->b.kind == KIND_STORES ? stores[rnd(s) % 10] : mixed[rnd(s) % 13];
    unsigned li = (unsigned)(rnd(s) % (s->b.kind == KIND_STORES ? 3 : POOL)), op = (unsigned)(rnd(s) % 8), w;
    uint64_t held = d->po[li] | d->o[li], m, mask = 0;
    /* no write in the cache to the words of the probe answer it presents */
    uint64_t blocked = d->pdat && d->prb_line == s->pool[li] ? s->g.full : 0;
    for (w = 0; w < s->g.words; w++)
        s->c_v[w] = value(s);
    switch (k) {
    case SPANDEX_TUHW_C_LD:
        m = s->g.full & ~held & ~d->ldo[li] & ~d->rmwo[li];
        if (!m)
            return;
        mask = pct(s) < 70 ? m : some_words(s, m);
        break;
    case SPANDEX_TUHW_C_ST:
        m = (pct(s) < 70 ? 1ull << (rnd(s) % s->g.words) : some_words(s, s->g.full)) & ~d->rmwo[li] & ~d->ldo[li];
        for (w = 0; w < s->g.words; w++)
            if ((m & held & ~blocked) >> w & 1) {
                d->cd[li][w] = s->c_v[w];
                d->nlocal++;
            }
        mask = m & ~held;
        if (!mask)
            return;
        break;
    case SPANDEX_TUHW_C_RMW:
        m = 1ull << (rnd(s) % s->g.words);
        if (m & (d->rmwo[li] | d->ldo[li]))
            return;
        if (m & held) {
            w = cohkit_ilog2(m);
            if (!(m & blocked)) {
                d->cd[li][w] = spandex_op_apply(op, d->cd[li][w], s->c_v[w], s->g.word_bits);
                d->nlocal++;
            }
            return;
        }
        mask = m;
        break;
    case SPANDEX_TUHW_C_EVICT:
        if (d->po[li] || d->rmwo[li] || d->ldo[li])
            return;
        mask = d->o[li];
        memcpy(s->c_v, d->cd[li], sizeof s->c_v);
        d->ev_raced = 0;
        break;
    default: break;
    }
    s->c_type = k;
    s->c_line = s->pool[li];
    s->c_mask = mask;
    s->c_op = op;
    s->have_c = 1;
}

static void dn_stalls(tx_stim *s, uint64_t cyc)
{
    unsigned i;
    for (i = 0; i < s->dn.nfw; i++) {
        dn_fwd *f = &s->dn.fw[i];
        if (f->sent && !f->stalled && cyc - f->t0 > DN_STALL) {
            f->stalled = 1;
            dn_bad(s, cyc, &s->dn.nstall, "a forward not answered");
        }
    }
}

static int dn_first_unsent(const tx_stim *s)
{
    unsigned i;
    for (i = 0; i < s->dn.nfw; i++)
        if (!s->dn.fw[i].sent)
            return (int)i;
    return -1;
}

/* The LLC's link to the device is ordered (spec 9.4): a RspWB does not
 * overtake a downgrade of its words the LLC sent before it processed the
 * ReqWB (a FwdReqV may be overtaken: it is ordered with nothing). */
static int dn_wb_held(const tx_stim *s, const pend *r)
{
    unsigned i;
    for (i = 0; i < s->dn.nfw; i++) {
        const dn_fwd *f = &s->dn.fw[i];
        if (!f->sent && f->type >= 1 && f->type <= 4 && f->line == r->line && (f->mask & r->mask))
            return 1;
    }
    return 0;
}

/* take_pend, the RspWBs a downgrade holds back aside. */
static int dn_take_pend(tx_stim *s, uint64_t cyc)
{
    unsigned i, n = 0, k;
    for (i = 0; i < s->npd; i++)
        n += s->pd[i].due <= cyc && !(s->pd[i].type == 6 && dn_wb_held(s, &s->pd[i]));
    if (n == 0)
        return 0;
    k = (unsigned)(rnd(s) % n);
    for (i = 0; i < s->npd; i++)
        if (s->pd[i].due <= cyc && !(s->pd[i].type == 6 && dn_wb_held(s, &s->pd[i])) && k-- == 0)
            break;
    s->r_type = s->pd[i].type;
    s->r_line = s->pd[i].line;
    s->r_mask = s->pd[i].mask;
    s->r_x = s->pd[i].x;
    memcpy(s->r_v, s->pd[i].v, sizeof s->r_v);
    s->pd[i] = s->pd[--s->npd];
    return 1;
}

static void ms_process(tx_stim *s, uint64_t cyc, int quiet);
static void ms_make_creq(tx_stim *s);

/* The probe's answer of the MESI cache: the whole line when it holds it in
 * E/M (an EVICT presented counts), else nothing. */
static void ms_probe_answer(tx_stim *s);

/* The DeNovo and MESI benches: the cache of the kind, the ownership-
 * tracking LLC, the forwards and the probe answered a few cycles later. */
static void drive_owner(tx_stim *s, uint64_t cyc, uint64_t *in)
{
    dn_state *d = &s->dn;
    int quiet, k, mesi = s->c.kind == SPANDEX_TU_MESI;
    if ((cyc & 1023) == 0) {
        cohkit_unit_bp_draw(&sched, &s->b.rng, &s->b.bp);
        dn_stalls(s, cyc);
    }
    quiet = s->b.kind == KIND_ERRORS && cyc + QUIET_BEFORE >= s->inj_next;
    (mesi ? ms_process : dn_process)(s, cyc, quiet);
    if (!s->have_c && s->c_inj)
        inject_creq(s);
    else if (!s->have_c && !quiet && pct(s) < s->b.bp.valid)
        (mesi ? ms_make_creq : dn_make_creq)(s);
    if (s->have_c) {
        put_creq(s, in);
        /* the EVICT presented meets a downgrade of its words */
        if (s->c_type == SPANDEX_TUHW_C_EVICT && s->c_mask && !d->ev_raced && !quiet) {
            d->ev_raced = 1;
            dn_race(s, s->c_line, s->c_mask, cyc, 30);
        }
    }
    inject(s, cyc);
    if (!s->have_r && pct(s) < 70)
        s->have_r = dn_take_pend(s, cyc);
    if (s->have_r)
        put_rsp(s, in);
    if (!quiet && d->nfw + 1 < DN_FWD_MAX && pct(s) < 4)
        dn_make_fwd(s, cyc);
    if (!s->have_f && (k = dn_first_unsent(s)) >= 0 && pct(s) < 70) {
        s->f_type = d->fw[k].type;
        s->f_req = d->fw[k].req;
        s->f_line = d->fw[k].line;
        s->f_mask = d->fw[k].mask;
        s->have_f = 1;
    }
    if (s->have_f)
        put_fwd(s, in);
    /* the probe: taken under back-pressure, answered a few cycles later
     * (the answer, once presented, holds its words and data) */
    in[s->p.off[P(c_prb_ready_i)]] = !d->prb && pct(s) < s->b.bp.ready;
    if (d->prb && !d->pdat && cyc >= d->prb_due && pct(s) < s->b.bp.valid) {
        int li = dn_li(s, d->prb_line);
        unsigned w;
        d->pdat = 1;
        if (mesi) {
            ms_probe_answer(s);
        } else {
            d->pd_mask = li < 0 ? 0 : d->prb_mask & (d->po[li] | d->o[li]);
            memset(d->pd_v, 0, sizeof d->pd_v);
            for (w = 0; w < s->g.words; w++)
                if (d->pd_mask >> w & 1)
                    d->pd_v[w] = d->cd[li][w];
        }
    }
    if (s->have_p && !d->pdat) { /* MESI errors: a stray probe answer */
        in[s->p.off[P(c_pdat_valid_i)]] = 1;
        in[s->p.off[P(c_pdat_mask_i)]] = s->g.full;
    }
    if (d->pdat) {
        in[s->p.off[P(c_pdat_valid_i)]] = 1;
        in[s->p.off[P(c_pdat_mask_i)]] = d->pd_mask;
        spandex_ports_put_words(&s->p, in, P(c_pdat_data_i), d->pd_v, d->pd_mask);
    }
    in[s->p.off[P(req_ready_i)]] = pct(s) < s->b.bp.ready;
    in[s->p.off[P(out_ready_i)]] = pct(s) < s->b.bp.ready;
    in[s->p.off[P(c_rsp_ready_i)]] = pct(s) < s->b.bp.ready;
}

static void stim_drive(void *p, uint64_t cyc, uint64_t *in)
{
    tx_stim *s = p;
    unsigned i;
    int quiet;
    for (i = 1; i < s->p.in_words; i++)
        in[i] = 0;
    if (s->b.trace) {
        if (in[0] & 1)
            drive_trace(s, cyc, in);
        return;
    }
    if (s->c.kind == SPANDEX_TU_DENOVO || s->c.kind == SPANDEX_TU_MESI) {
        drive_owner(s, cyc, in);
        return;
    }
    if ((cyc & 1023) == 0)
        cohkit_unit_bp_draw(&sched, &s->b.rng, &s->b.bp);
    /* errors: the cache and the LLC fall quiet before an injection, so the
     * unit is idle when the stray response arrives (idle_o must drop) */
    quiet = s->b.kind == KIND_ERRORS && cyc + QUIET_BEFORE >= s->inj_next;
    if (!s->have_c && !quiet && pct(s) < s->b.bp.valid)
        make_creq(s);
    if (s->have_c) {
        put_creq(s, in);
    }
    inject(s, cyc);
    if (s->have_p) {
        in[s->p.off[P(c_pdat_valid_i)]] = 1;
        in[s->p.off[P(c_pdat_mask_i)]] = 1;
    }
    if (!s->have_r && pct(s) < 70)
        s->have_r = take_pend(s, cyc);
    if (s->have_r)
        put_rsp(s, in);
    if (!s->have_f && !quiet && s->nfw + 1 < FWD_MAX && pct(s) < 3)
        make_fwd(s);
    if (s->have_f)
        put_fwd(s, in);
    in[s->p.off[P(req_ready_i)]] = pct(s) < s->b.bp.ready;
    in[s->p.off[P(out_ready_i)]] = pct(s) < s->b.bp.ready;
    in[s->p.off[P(c_rsp_ready_i)]] = pct(s) < s->b.bp.ready;
}

/* ------------------------------------------------------------ observe */
static uint64_t pv(const tx_stim *s, const uint64_t *a, int port) { return a[s->p.off[port]]; }

/* A request of the unit: no open request on its words, then owed. */
static void on_req(tx_stim *s, const uint64_t *out, uint64_t cyc)
{
    unsigned i, type = (unsigned)pv(s, out, P(req_type_o));
    uint64_t line = pv(s, out, P(req_line_o)), mask = pv(s, out, P(req_mask_o));
    s->nreq[type & 7]++;
    for (i = 0; i < s->nop; i++)
        if (s->op[i].line == line && (s->op[i].mask & mask))
            s->bad++;
    if (!mask || (type != 0 && type != 2 && type != 4) || s->nop == OPEN_MAX) {
        s->bad++;
        return;
    }
    s->op[s->nop].type = type;
    s->op[s->nop].line = line;
    s->op[s->nop++].mask = mask;
    answer(s, type, line, mask, cyc);
}

/* A response taken by the unit: its words are no longer open (a Nack's
 * words come back as a retry or a replacement). */
static void on_rsp(tx_stim *s)
{
    unsigned i;
    s->nrsp[s->r_type < 10 ? s->r_type : 9]++;
    for (i = 0; i < s->nop; i++)
        if (s->op[i].line == s->r_line && (s->op[i].mask & s->r_mask)) {
            s->op[i].mask &= ~s->r_mask;
            if (!s->op[i].mask)
                s->op[i] = s->op[--s->nop];
            return;
        }
}

static void on_out(tx_stim *s, const uint64_t *out)
{
    unsigned type = (unsigned)pv(s, out, P(out_type_o)), i;
    int llc = (int)(pv(s, out, P(out_llc_o)) & 1);
    s->nout[type < 10 ? type : 9]++;
    if (s->nfw == 0) {
        s->bad++;
        return;
    }
    if (s->fw[0].line != pv(s, out, P(out_line_o)) || s->fw[0].mask != pv(s, out, P(out_mask_o)) ||
        (s->fw[0].type == 0 ? type != 9 || llc || pv(s, out, P(out_dst_o)) != s->fw[0].req : type != 8 || !llc))
        s->bad++;
    for (i = 1; i < s->nfw; i++)
        s->fw[i - 1] = s->fw[i];
    s->nfw--;
}

static void on_crsp(tx_stim *s, const uint64_t *out)
{
    unsigned type = (unsigned)pv(s, out, P(c_rsp_type_o));
    unsigned *n = type == SPANDEX_TUHW_R_FILL ? &s->lds : type == SPANDEX_TUHW_R_VALUE ? &s->rmws : &s->syncs;
    s->ncrsp[type < 3 ? type : 2]++;
    if (type > 2 || *n == 0)
        s->bad++;
    else
        (*n)--;
}

/* DeNovo: the cache request the unit took. */
static void dn_accept(tx_stim *s, uint64_t cyc)
{
    dn_state *d = &s->dn;
    int li = dn_li(s, s->c_line);
    unsigned w;
    dn_copen *o;
    s->ncreq[s->c_type]++;
    switch (s->c_type) {
    case SPANDEX_TUHW_C_LD:
    case SPANDEX_TUHW_C_RMW:
        if (s->c_type == SPANDEX_TUHW_C_LD ? d->nld == DN_OPEN_MAX : d->nrmw == DN_OPEN_MAX) {
            dn_bad(s, cyc, &d->bad_crsp, "too many open loads or atomics");
            return;
        }
        o = s->c_type == SPANDEX_TUHW_C_LD ? &d->ld[d->nld++] : &d->rmw[d->nrmw++];
        o->op = s->c_op;
        o->line = s->c_line;
        o->mask = s->c_mask;
        memcpy(o->v, s->c_v, sizeof o->v);
        if (s->c_type == SPANDEX_TUHW_C_LD)
            d->ldo[li] |= s->c_mask;
        else
            d->rmwo[li] |= s->c_mask;
        return;
    case SPANDEX_TUHW_C_ST:
        for (w = 0; w < s->g.words; w++)
            if (s->c_mask >> w & 1)
                d->cd[li][w] = s->c_v[w];
        d->po[li] |= s->c_mask;
        d->v[li] &= ~s->c_mask;
        return;
    default: break;
    }
    if (d->nsync == DN_SYNC_MAX) {
        dn_bad(s, cyc, &d->bad_crsp, "too many syncs");
        return;
    }
    d->sync[d->nsync++] = s->c_type;
    if (s->c_type == SPANDEX_TUHW_C_EVICT) { /* the line leaves the cache */
        dn_gave(s, li, s->c_mask, s->c_v);
        d->v[li] = d->po[li] = d->o[li] = 0;
    }
}

/* DeNovo: an open load or atomic with exactly this line and mask, taken
 * off its list; NULL when none. */
static int dn_take_open(dn_copen *l, unsigned *n, uint64_t line, uint64_t mask, int extra, dn_copen *got)
{
    unsigned i;
    for (i = 0; i < *n; i++) /* (extra words: a FILL may name more words than its read) */
        if (l[i].line == line && (l[i].mask == mask || (extra && !(l[i].mask & ~mask)))) {
            *got = l[i];
            memmove(&l[i], &l[i + 1], (*n - i - 1) * sizeof *l);
            (*n)--;
            return 1;
        }
    return 0;
}

/* DeNovo: an answer the cache took. */
static void dn_crsp(tx_stim *s, const uint64_t *out, uint64_t cyc)
{
    dn_state *d = &s->dn;
    unsigned type = (unsigned)pv(s, out, P(c_rsp_type_o)), w;
    uint64_t line = pv(s, out, P(c_rsp_line_o)), mask = pv(s, out, P(c_rsp_mask_o));
    uint64_t own = pv(s, out, P(c_rsp_own_o)), v[SPANDEX_LLC_WORDS_MAX];
    int li = dn_li(s, line);
    dn_copen o;
    spandex_ports_get_words(&s->p, out, P(c_rsp_data_o), v);
    if (type == SPANDEX_TUHW_R_OWN)
        d->nown++;
    else
        s->ncrsp[type]++;
    if (type == SPANDEX_TUHW_R_DONE) {
        if (d->nsync == 0) {
            dn_bad(s, cyc, &d->bad_crsp, "DONE nothing waits for");
            return;
        }
        if (d->sync[0] == SPANDEX_TUHW_C_ACQ) /* self-invalidation */
            memset(d->v, 0, sizeof d->v);
        memmove(&d->sync[0], &d->sync[1], (d->nsync - 1) * sizeof d->sync[0]);
        d->nsync--;
        return;
    }
    if (li < 0 || (own & ~mask) || (s->c.wtdata && own && type != SPANDEX_TUHW_R_OWN)) {
        dn_bad(s, cyc, &d->bad_crsp, "answer to a line not in the pool or own outside the mask");
        return;
    }
    if (type == SPANDEX_TUHW_R_OWN) { /* PO words now O */
        if (mask & ~d->po[li] & ~d->o[li])
            dn_bad(s, cyc, &d->bad_crsp, "OWN of a word the cache does not hold PO");
        d->o[li] |= mask & d->po[li];
        d->po[li] &= ~mask;
        return;
    }
    if (type == SPANDEX_TUHW_R_FILL && dn_take_open(d->ld, &d->nld, line, mask, s->c.extra, &o)) {
        d->ldo[li] &= ~o.mask;
        for (w = 0; w < s->g.words; w++) {
            uint64_t b = 1ull << w;
            if (!(mask & b) || ((d->po[li] | d->o[li]) & b))
                continue; /* a word the cache wrote meanwhile keeps its data */
            if (!(o.mask & b)) { /* an extra word: installed V where the cache holds I */
                if ((d->v[li] | d->ldo[li] | d->rmwo[li]) & b)
                    continue;
                if (v[w] != d->xv[li][w] || (own & b))
                    dn_bad(s, cyc, &d->bad_data, "an extra word of a FILL not the response's, or owned");
                d->cd[li][w] = v[w];
                d->v[li] |= b;
                d->nxw_in++;
                continue;
            }
            /* (an atomic sent after this word arrived has its own response) */
            if (v[w] != d->rv[li][w] && !(d->rmwo[li] & b))
                dn_bad(s, cyc, &d->bad_data, "FILL data not the response's");
            d->cd[li][w] = v[w];
            if (own & b)
                d->o[li] |= b;
            else
                d->v[li] |= b;
        }
        return;
    }
    if (type == SPANDEX_TUHW_R_VALUE && dn_take_open(d->rmw, &d->nrmw, line, mask, 0, &o)) {
        d->rmwo[li] &= ~mask;
        for (w = 0; w < s->g.words; w++) {
            uint64_t b = 1ull << w;
            if (!(mask & b))
                continue;
            if (v[w] != d->rv[li][w])
                dn_bad(s, cyc, &d->bad_data, "VALUE not the response's old value");
            d->v[li] &= ~b;
            if (own & b) {
                d->o[li] |= b;
                d->cd[li][w] = spandex_op_apply(o.op, v[w], o.v[w], s->g.word_bits);
            }
        }
        return;
    }
    dn_bad(s, cyc, &d->bad_crsp, "FILL or VALUE nothing waits for");
}

/* DeNovo: the probe answer the unit took; a downgrade's words leave. */
static void dn_pdat_done(tx_stim *s)
{
    dn_state *d = &s->dn;
    int li = dn_li(s, d->prb_line);
    d->nprb++;
    d->prb = d->pdat = 0;
    if (li < 0)
        return;
    dn_gave(s, li, d->pd_mask, d->pd_v);
    if (d->prb_down) {
        d->nprb_down++;
        d->po[li] &= ~d->pd_mask;
        d->o[li] &= ~d->pd_mask;
    }
}

/* DeNovo: a response the unit took (its data noted for the FILL or VALUE
 * it completes). */
static void dn_on_rsp(tx_stim *s)
{
    unsigned i, w;
    int li = dn_li(s, s->r_line);
    s->nrsp[s->r_type < 10 ? s->r_type : 9]++;
    if (li >= 0 && (s->r_type == 0 || s->r_type == 1 || s->r_type == 4 || s->r_type == 5)) {
        for (w = 0; w < s->g.words; w++) {
            if (s->r_mask >> w & 1)
                s->dn.rv[li][w] = s->r_v[w];
            else if (s->r_x >> w & 1)
                s->dn.xv[li][w] = s->r_v[w];
        }
    }
    for (i = 0; i < s->nop; i++)
        if (s->op[i].line == s->r_line && (s->op[i].mask & s->r_mask) && (s->op[i].type == 6) == (s->r_type == 6)) {
            s->op[i].mask &= ~s->r_mask;
            if (!s->op[i].mask)
                s->op[i] = s->op[--s->nop];
            return;
        }
}

/* DeNovo: a request of the unit. ReqV never to words this device owns,
 * ReqO for the cache's PO words, ReqWB with the data the cache evicted;
 * no open request on its words; the LLC processes it a few cycles later
 * (a ReqWB may meet a downgrade of its words before). */
static void dn_on_req(tx_stim *s, const uint64_t *out, uint64_t cyc)
{
    dn_state *d = &s->dn;
    unsigned i, w, type = (unsigned)pv(s, out, P(req_type_o)), op = (unsigned)pv(s, out, P(req_op_o));
    uint64_t line = pv(s, out, P(req_line_o)), mask = pv(s, out, P(req_mask_o)), v[SPANDEX_LLC_WORDS_MAX];
    int li = dn_li(s, line);
    dn_proc *p;
    s->nreq[type & 7]++;
    spandex_ports_get_words(&s->p, out, P(req_data_o), v);
    for (i = 0; i < s->nop; i++)
        if (s->op[i].line == line && (s->op[i].mask & mask))
            dn_bad(s, cyc, &d->bad_req, "a second open request on a word");
    if (li < 0 || !mask || s->nop == OPEN_MAX || d->npr == DN_PROC_MAX ||
        (type != 0 && type != 3 && type != 6 && type != (s->c.wtdata ? 4u : 5u))) {
        dn_bad(s, cyc, &d->bad_req, "a request of a wrong type, line or mask");
        return;
    }
    if (type == 0 && (mask & d->own[li]))
        dn_bad(s, cyc, &d->bad_req, "ReqV of a word this device owns");
    if (type == 3 && (mask & ~d->po[li]))
        dn_bad(s, cyc, &d->bad_req, "ReqO of a word the cache does not hold PO");
    if ((type == 3 || type == 5) && (mask & d->own[li]))
        dn_bad(s, cyc, &d->bad_req, "ReqO or ReqO+data of a word this device owns");
    if ((type == 4 || type == 5) && (mask & ~d->rmwo[li])) { /* a Nacked ReqV's replacement */
        d->nrepl++;
        if ((mask & ~d->ldo[li]) || op != 0)
            dn_bad(s, cyc, &d->bad_req, "a replacement of words no load waits for, or not rd");
    }
    if (type == 6)
        for (w = 0; w < s->g.words; w++)
            if ((mask >> w & 1) && v[w] != d->exp[li][w])
                dn_bad(s, cyc, &d->bad_data, "ReqWB data not the evicted data");
    s->op[s->nop].type = type;
    s->op[s->nop].line = line;
    s->op[s->nop++].mask = mask;
    p = &d->pr[d->npr++];
    p->type = type;
    p->line = line;
    p->mask = mask;
    p->due = cyc + 1 + rnd(s) % (pct(s) < 10 ? 40 : 8);
    if (type == 6 && !(s->b.kind == KIND_ERRORS && cyc + QUIET_BEFORE >= s->inj_next))
        dn_race(s, line, mask, cyc, 40);
}

/* MESI: 1 when v is word w of line li's pending result: the responses'
 * data with the store or the atomic the cache waits for performed (a line
 * an owner took words of, answered from its ReqWB before the cache took
 * its answer). */
static int ms_res_ok(const tx_stim *s, int li, unsigned w, uint64_t v)
{
    const ms_state *m = &s->ms;
    unsigned b;
    uint64_t res;
    if (s->c.kind != SPANDEX_TU_MESI || li < 0 || !m->busy[li])
        return 0;
    b = m->busy[li] - 1;
    res = b == SPANDEX_TUHW_C_LD || !(m->mask[li] >> w & 1) ? s->dn.rv[li][w]
          : b == SPANDEX_TUHW_C_ST ? m->v[li][w]
                                   : spandex_op_apply(m->op[li], s->dn.rv[li][w], m->v[li][w], s->g.word_bits);
    return v == res;
}

/* The words of line a read of the cache has open (DeNovo: its load's
 * words; MESI: the whole line). */
static uint64_t dn_rd_words(const tx_stim *s, uint64_t line)
{
    int li = dn_li(s, line);
    if (li < 0)
        return 0;
    if (s->c.kind == SPANDEX_TU_MESI)
        return s->ms.busy[li] == 1 + SPANDEX_TUHW_C_LD ? s->g.full : 0;
    return s->dn.ldo[li];
}

/* DeNovo: an answer of the unit to a forward: the forward it belongs to
 * (line, kind, requestor, words not yet answered), the data a value the
 * cache gave away for it (dn_gave_ok) or, for a word a read had open when
 * the forward came, the response's (the unit answers a pending read's
 * words it already owns from its entry). */
static void dn_on_out(tx_stim *s, const uint64_t *out, uint64_t cyc)
{
    dn_state *d = &s->dn;
    unsigned i, w, type = (unsigned)pv(s, out, P(out_type_o)), dst = (unsigned)pv(s, out, P(out_dst_o));
    int llc = (int)(pv(s, out, P(out_llc_o)) & 1), li;
    uint64_t line = pv(s, out, P(out_line_o)), mask = pv(s, out, P(out_mask_o)), v[SPANDEX_LLC_WORDS_MAX];
    dn_fwd *f = NULL;
    s->nout[type < 10 ? type : 9]++;
    spandex_ports_get_words(&s->p, out, P(out_data_o), v);
    /* the first forward the answer fits; on a MESI unit, which may answer
     * a later FwdReqV of a requestor from a write-back before an earlier
     * one delayed, the first whose words left it names exactly */
    for (i = 0; i < d->nfw && mask; i++) {
        dn_fwd *g = &d->fw[i];
        int to_req = !llc && dst == g->req;
        if (!g->sent || g->line != line)
            continue;
        if (s->c.kind == SPANDEX_TU_MESI && type == 0 && g->type == 0 && to_req && mask == g->a) {
            f = g;
            break;
        }
    }
    for (i = 0; i < d->nfw && mask && f == NULL; i++) {
        dn_fwd *g = &d->fw[i];
        int to_req = !llc && dst == g->req, in_a = !(mask & ~g->a);
        if (!g->sent || g->line != line)
            continue;
        if ((type == 8 && g->type == 5 && llc && mask == g->a) ||
            ((type == 0 || type == 9) && g->type == 0 && to_req && in_a) ||
            (type == 1 && g->type == 1 && to_req && in_a) || (type == 3 && g->type == 2 && to_req && in_a) ||
            (type == 5 && g->type == 3 && to_req && in_a) || (type == 7 && llc && g->type == 4 && in_a) ||
            (type == 7 && llc && g->type == 1 && !(mask & ~g->r))) {
            f = g;
            break;
        }
    }
    if (f == NULL) {
        dn_bad(s, cyc, &d->bad_out, "an answer no forward waits for");
        return;
    }
    if (type == 7 && f->type == 1)
        f->r &= ~mask;
    else
        f->a &= ~mask;
    li = dn_li(s, line);
    if (type == 0 || type == 1 || type == 5 || type == 7)
        for (w = 0; w < s->g.words; w++)
            if ((mask >> w & 1) && !dn_gave_ok(s, f, li, w, v[w]) && !ms_res_ok(s, li, w, v[w]) &&
                !((f->rd >> w & 1) && v[w] == d->rv[li][w]))
                dn_bad(s, cyc, &d->bad_data, "forward answered with data the cache did not give");
    if (!f->a && !f->r) {
        memmove(f, f + 1, (size_t)(&d->fw[d->nfw] - (f + 1)) * sizeof *f);
        d->nfw--;
    }
}

static void observe_denovo(tx_stim *s, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    dn_state *d = &s->dn;
    int k;
    if (s->have_c && (pv(s, out, P(c_req_ready_o)) & 1) && s->c_bad) {
        s->have_c = s->c_bad = 0; /* dropped as an error: no answer owed */
    } else if (s->have_c && (pv(s, out, P(c_req_ready_o)) & 1)) {
        s->have_c = 0;
        dn_accept(s, cyc);
    }
    if ((pv(s, out, P(c_rsp_valid_o)) & 1) && (pv(s, in, P(c_rsp_ready_i)) & 1))
        dn_crsp(s, out, cyc);
    if (d->pdat && (pv(s, out, P(c_pdat_ready_o)) & 1))
        dn_pdat_done(s);
    if ((pv(s, out, P(c_prb_valid_o)) & 1) && (pv(s, in, P(c_prb_ready_i)) & 1)) {
        d->prb = 1;
        d->prb_line = pv(s, out, P(c_prb_line_o));
        d->prb_mask = pv(s, out, P(c_prb_mask_o));
        d->prb_down = (unsigned)(pv(s, out, P(c_prb_down_o)) & 1);
        d->prb_due = cyc + 1 + rnd(s) % 4;
    }
    if (s->have_r && (pv(s, out, P(rsp_ready_o)) & 1) && s->r_bad) {
        s->have_r = s->r_bad = 0; /* dropped as an error */
    } else if (s->have_r && (pv(s, out, P(rsp_ready_o)) & 1)) {
        s->have_r = 0;
        dn_on_rsp(s);
    }
    if (s->have_f && (pv(s, out, P(fwd_ready_o)) & 1) && s->f_bad) {
        s->have_f = s->f_bad = 0; /* dropped as an error: no answer owed */
    } else if (s->have_f && (pv(s, out, P(fwd_ready_o)) & 1) && (k = dn_first_unsent(s)) >= 0) {
        s->have_f = 0;
        s->nfwd++;
        d->fw[k].sent = 1;
        d->fw[k].rd = dn_rd_words(s, d->fw[k].line);
    }
    if ((pv(s, out, P(req_valid_o)) & 1) && (pv(s, in, P(req_ready_i)) & 1))
        dn_on_req(s, out, cyc);
    if ((pv(s, out, P(out_valid_o)) & 1) && (pv(s, in, P(out_ready_i)) & 1))
        dn_on_out(s, out, cyc);
    if ((pv(s, out, P(err_o)) & 1) && s->err_cycles++ == 0)
        s->err_first = cyc;
}

static void summary_denovo(const tx_stim *s, FILE *f, const char *lead)
{
    const dn_state *d = &s->dn;
    fprintf(f, "%scache local ST/RMW %llu  answers OWN %llu\n", lead, (unsigned long long)d->nlocal,
            (unsigned long long)d->nown);
    fprintf(f,
            "%srequests ReqV %llu ReqO %llu ReqO+data %llu ReqWT+data %llu ReqWB %llu (replacements %llu)  "
            "responses RspV %llu Nack %llu RspO %llu RspO+data %llu RspWT+data %llu RspWB %llu\n",
            lead, (unsigned long long)s->nreq[0], (unsigned long long)s->nreq[3], (unsigned long long)s->nreq[5],
            (unsigned long long)s->nreq[4], (unsigned long long)s->nreq[6], (unsigned long long)d->nrepl,
            (unsigned long long)s->nrsp[0], (unsigned long long)s->nrsp[9], (unsigned long long)s->nrsp[3],
            (unsigned long long)s->nrsp[5], (unsigned long long)s->nrsp[4], (unsigned long long)s->nrsp[6]);
    if (s->c.extra)
        fprintf(f, "%sextra words: RspVs with extra words %llu, extra words installed by the cache %llu\n", lead,
                (unsigned long long)d->nxw, (unsigned long long)d->nxw_in);
    fprintf(f,
            "%sforwards %llu: FwdReqV %llu (stray %llu) FwdReqS %llu FwdReqO %llu FwdReqO+data %llu RvkO %llu "
            "Inv %llu\n",
            lead, (unsigned long long)s->nfwd, (unsigned long long)d->nfwt[0], (unsigned long long)d->nstray,
            (unsigned long long)d->nfwt[1], (unsigned long long)d->nfwt[2], (unsigned long long)d->nfwt[3],
            (unsigned long long)d->nfwt[4], (unsigned long long)d->nfwt[5]);
    fprintf(f,
            "%sraces: downgrades of pending ReqO words %llu, of pending ReqO+data words %llu delayed and %llu "
            "FwdReqO at once, of ReqWB words %llu, of an EVICT presented %llu\n",
            lead, (unsigned long long)d->race_o, (unsigned long long)d->race_od, (unsigned long long)d->race_now,
            (unsigned long long)d->race_wb, (unsigned long long)d->race_ev);
    fprintf(f,
            "%sprobes %llu (down %llu)  answers RspV %llu Nack %llu RspS %llu RspO %llu RspO+data %llu "
            "RspRvkO %llu Ack %llu\n",
            lead, (unsigned long long)d->nprb, (unsigned long long)d->nprb_down, (unsigned long long)s->nout[0],
            (unsigned long long)s->nout[9], (unsigned long long)s->nout[1], (unsigned long long)s->nout[3],
            (unsigned long long)s->nout[5], (unsigned long long)s->nout[7], (unsigned long long)s->nout[8]);
    fprintf(f, "%sbroken promises %llu (requests %llu, cache answers %llu, forward answers %llu, data %llu, "
               "forwards unanswered %llu)",
            lead, (unsigned long long)s->bad, (unsigned long long)d->bad_req, (unsigned long long)d->bad_crsp,
            (unsigned long long)d->bad_out, (unsigned long long)d->bad_data, (unsigned long long)d->nstall);
    if (s->bad)
        fprintf(f, ", the first in cycle %llu: %s", (unsigned long long)d->bad_cyc, d->bad_why);
    fprintf(f, "\n");
}


/* -------------------------------------------------- MESI: the bench -- */
/* The MESI bench's cache keeps per pool line I, S or O (E/M) with the
 * line's data and obeys the MESI cache-side contract (docs/spandex.md, "The
 * MESI kind"): one request a line through the unit, LD of an I line, ST
 * and RMW (one word) of an I or S line, loads, stores and atomics on an O
 * line in the cache itself, EVICT of an O line with its data or of an S
 * line with no words, every probe answered once (the whole line when it
 * holds it in O, the words of its write-back state in W; then, with down,
 * an O line goes to S when the probe keeps the whole line readable, to I
 * when it keeps nothing, else to W keeping the probe's words until the
 * release (c_rsp type 3), a W line keeps those of its words the probe
 * names; not down and keeping nothing, an S line goes to I).
 * Its LLC tracks which words this device owns: a ReqO+data, or a ReqS it
 * answers as ownership (option 3), makes it the owner when processed; a
 * downgrade moves the words away when the LLC sends it; a processed ReqWB
 * clears them. ReqS is answered by RspS (option 1), RspO+data (option 3)
 * or RspV and Nack (option 2; mostly in the nack stream). The checks
 * besides the DeNovo bench's (answers matched to forwards, their data
 * what the cache gave, forwards answered, no request on words owned):
 * the cache never holds a line in O while the LLC has another owner for
 * one of its words outside a downgrade in flight, and every word the LLC
 * counts as this device's is, within MS_LOST cycles, in the cache's O line,
 * an open request or a downgrade in flight (a downgrade ends with the line
 * written back or answered). */
#define MS_LOST 3000
/* W: the write-back state (the words a downgrade left to a ReqWB, kept
 * until the RspWB releases them; no request on the line meanwhile) */
enum { MS_I = 0, MS_S = 1, MS_O = 2, MS_W = 3 };

static uint64_t ms_fwd_busy_all(const tx_stim *s, uint64_t line)
{
    uint64_t m = 0;
    unsigned i;
    for (i = 0; i < s->dn.nfw; i++)
        if (s->dn.fw[i].line == line && s->dn.fw[i].type >= 1 && s->dn.fw[i].type <= 4)
            m |= s->dn.fw[i].mask;
    return m;
}

/* The LLC processes the requests due. */
static void ms_process(tx_stim *s, uint64_t cyc, int quiet)
{
    dn_state *d = &s->dn;
    unsigned i = 0;
    while (i < d->npr) {
        dn_proc p = d->pr[i];
        int li = dn_li(s, p.line);
        uint64_t left = p.mask;
        unsigned mode;
        if (p.due > cyc) {
            i++;
            continue;
        }
        d->pr[i] = d->pr[--d->npr];
        switch (p.type) {
        case 1: /* ReqS: option 1, 3 or 2, one decision a request (the nack
                 * stream answers a re-sent part as ownership half the time) */
            if (p.mask != s->g.full && s->b.kind == KIND_NACK)
                mode = pct(s) < 50 ? 3 : 2;
            else
                mode = s->b.kind == KIND_NACK ? (pct(s) < 85 ? 2 : 1) : pct(s) < 40 ? 1 : pct(s) < 75 ? 3 : 2;
            s->ms.mode[mode]++;
            s->ms.resend_o += p.mask != s->g.full && mode == 3;
            if (mode == 3) {
                d->own[li] |= p.mask;
                if (!quiet)
                    dn_race(s, p.line, p.mask, cyc, 40);
            }
            while (left) {
                uint64_t part = pct(s) < 50 ? left : some_words(s, left);
                unsigned t = mode == 1 ? 1 : mode == 3 ? 5 : pct(s) < (s->b.kind == KIND_NACK ? 80u : 20u) ? 9 : 0;
                add_pend(s, t, p.line, part, cyc + 1 + rnd(s) % (pct(s) < 10 ? 60 : 12));
                left &= ~part;
            }
            break;
        case 5: /* ReqO+data */
            d->own[li] |= p.mask;
            if (!quiet)
                dn_race(s, p.line, p.mask, cyc, 50);
            dn_answer(s, 5, p.line, p.mask, cyc);
            break;
        case 6:
            d->own[li] &= ~p.mask;
            dn_answer(s, 6, p.line, p.mask, cyc);
            break;
        default: /* ReqWT+data(rd), the replacement */
            dn_answer(s, p.type, p.line, p.mask, cyc);
            break;
        }
    }
}

/* The cache's next operation: through the unit, or on an O line itself. */
static void ms_make_creq(tx_stim *s)
{
    static const unsigned mixed[] = {0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 4, 5, 5};
    static const unsigned stores[] = {1, 1, 1, 1, 1, 0, 2, 2, 4, 5};
    static const unsigned nack[] = {0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4, 5, 5, 5}; /* reads, lines leaving */
    dn_state *d = &s->dn;
    ms_state *m = &s->ms;
    unsigned k = s->b.kind == KIND_STORES ? stores[rnd(s) % 10]
                 : s->b.kind == KIND_NACK ? nack[rnd(s) % 14]
                                          : mixed[rnd(s) % 13];
    unsigned li = (unsigned)(rnd(s) % (s->b.kind == KIND_STORES ? 3 : POOL)), op = (unsigned)(rnd(s) % 8), w;
    int blocked = d->pdat && d->prb_line == s->pool[li]; /* its probe answer presented */
    uint64_t mask = 0;
    for (w = 0; w < s->g.words; w++)
        s->c_v[w] = value(s);
    if (m->busy[li] && k <= SPANDEX_TUHW_C_RMW && m->st[li] != MS_O)
        return;
    if (m->st[li] == MS_W && k != SPANDEX_TUHW_C_ACQ && k != SPANDEX_TUHW_C_REL)
        return; /* no request on a line in write-back until its release */
    switch (k) {
    case SPANDEX_TUHW_C_LD:
        if (m->st[li] != MS_I)
            return;
        mask = s->g.full;
        break;
    case SPANDEX_TUHW_C_ST:
        mask = pct(s) < 70 ? 1ull << (rnd(s) % s->g.words) : some_words(s, s->g.full);
        if (m->st[li] == MS_O) {
            for (w = 0; w < s->g.words && !blocked; w++)
                if (mask >> w & 1)
                    d->cd[li][w] = s->c_v[w];
            d->nlocal += !blocked;
            return;
        }
        break;
    case SPANDEX_TUHW_C_RMW:
        mask = 1ull << (rnd(s) % s->g.words);
        if (m->st[li] == MS_O) {
            w = cohkit_ilog2(mask);
            if (!blocked) {
                d->cd[li][w] = spandex_op_apply(op, d->cd[li][w], s->c_v[w], s->g.word_bits);
                d->nlocal++;
            }
            return;
        }
        break;
    case SPANDEX_TUHW_C_EVICT:
        if (m->st[li] == MS_I || m->busy[li] || blocked)
            return;
        mask = m->st[li] == MS_O ? s->g.full : 0;
        memcpy(s->c_v, d->cd[li], sizeof s->c_v);
        d->ev_raced = 0;
        break;
    default: break;
    }
    s->c_type = k;
    s->c_line = s->pool[li];
    s->c_mask = mask;
    s->c_op = op;
    s->have_c = 1;
}

/* The cache request the unit took. */
static void ms_accept(tx_stim *s, uint64_t cyc)
{
    dn_state *d = &s->dn;
    ms_state *m = &s->ms;
    int li = dn_li(s, s->c_line);
    s->ncreq[s->c_type]++;
    if (s->c_type <= SPANDEX_TUHW_C_RMW) {
        if (m->busy[li])
            dn_bad(s, cyc, &d->bad_crsp, "a second cache request on a line");
        m->busy[li] = 1 + s->c_type;
        m->op[li] = s->c_op;
        m->mask[li] = s->c_mask;
        memcpy(m->v[li], s->c_v, sizeof m->v[li]);
        return;
    }
    if (d->nsync == DN_SYNC_MAX) {
        dn_bad(s, cyc, &d->bad_crsp, "too many syncs");
        return;
    }
    d->sync[d->nsync++] = s->c_type;
    if (s->c_type == SPANDEX_TUHW_C_EVICT) { /* the line leaves the cache */
        dn_gave(s, li, s->c_mask, s->c_v);
        m->st[li] = MS_I;
    }
}

/* An answer the cache took: the line installed as it says. */
static void ms_crsp(tx_stim *s, const uint64_t *out, uint64_t cyc)
{
    dn_state *d = &s->dn;
    ms_state *m = &s->ms;
    unsigned type = (unsigned)pv(s, out, P(c_rsp_type_o)), w, b;
    uint64_t line = pv(s, out, P(c_rsp_line_o)), mask = pv(s, out, P(c_rsp_mask_o));
    uint64_t own = pv(s, out, P(c_rsp_own_o)), v[SPANDEX_LLC_WORDS_MAX], want;
    int li = dn_li(s, line);
    spandex_ports_get_words(&s->p, out, P(c_rsp_data_o), v);
    if (type < 3)
        s->ncrsp[type]++;
    if (type == SPANDEX_TUHW_R_OWN) { /* the release of a line in write-back */
        unsigned i;
        if (li < 0 || m->st[li] != MS_W) {
            dn_bad(s, cyc, &d->bad_crsp, "a release of a line not in write-back");
            return;
        }
        for (i = 0; i < s->nop; i++)
            if (s->op[i].line == line && s->op[i].type == 6)
                dn_bad(s, cyc, &d->bad_crsp, "a release before the line's RspWB");
        m->st[li] = MS_I;
        m->wbm[li] = 0;
        m->nrel++;
        return;
    }
    if (type == SPANDEX_TUHW_R_DONE) {
        if (d->nsync == 0) {
            dn_bad(s, cyc, &d->bad_crsp, "DONE nothing waits for");
            return;
        }
        memmove(&d->sync[0], &d->sync[1], (d->nsync - 1) * sizeof d->sync[0]);
        d->nsync--;
        return;
    }
    if (li < 0 || !m->busy[li] || type > 1 || (own && own != s->g.full)) {
        dn_bad(s, cyc, &d->bad_crsp, "an answer no cache request waits for, or a partial own");
        return;
    }
    b = m->busy[li] - 1;
    m->busy[li] = 0;
    if (b == SPANDEX_TUHW_C_LD) {
        if (mask != s->g.full) {
            dn_bad(s, cyc, &d->bad_crsp, "a read answered with part of the line");
            return;
        }
        for (w = 0; w < s->g.words; w++)
            if (v[w] != d->rv[li][w])
                dn_bad(s, cyc, &d->bad_data, "FILL or VALUE data not the responses'");
        memcpy(d->cd[li], v, sizeof d->cd[li]);
        m->st[li] = type == SPANDEX_TUHW_R_VALUE ? MS_I : own ? MS_O : MS_S;
        if (type == SPANDEX_TUHW_R_VALUE) /* owned with words taken: the rest leaves by ReqWB */
            dn_gave(s, li, s->g.full, v);
        m->fills[m->st[li]]++;
        return;
    }
    /* a store or an atomic: the line with the store, or the old values */
    for (w = 0; w < s->g.words; w++) {
        want = d->rv[li][w];
        if (b == SPANDEX_TUHW_C_ST && (m->mask[li] >> w & 1))
            want = m->v[li][w];
        if (v[w] != want && (type == SPANDEX_TUHW_R_FILL || (mask >> w & 1)))
            dn_bad(s, cyc, &d->bad_data, "a store's or an atomic's answer not the responses' data");
        d->cd[li][w] = want;
        if (b == SPANDEX_TUHW_C_RMW && (m->mask[li] >> w & 1))
            d->cd[li][w] = spandex_op_apply(m->op[li], d->rv[li][w], m->v[li][w], s->g.word_bits);
    }
    if ((type == SPANDEX_TUHW_R_FILL) != (b == SPANDEX_TUHW_C_ST && own) ||
        (type == SPANDEX_TUHW_R_VALUE && mask != m->mask[li])) {
        dn_bad(s, cyc, &d->bad_crsp, "a store's or an atomic's answer of a wrong kind");
        return;
    }
    m->st[li] = own ? MS_O : MS_I;
    if (!own) { /* an owner took words meanwhile: the rest leaves by ReqWB */
        m->lost_o++;
        dn_gave(s, li, s->g.full, d->cd[li]);
    }
}

/* The probe answer the unit took. */
static void ms_pdat_done(tx_stim *s, uint64_t cyc)
{
    dn_state *d = &s->dn;
    ms_state *m = &s->ms;
    int li = dn_li(s, d->prb_line);
    d->nprb++;
    d->prb = d->pdat = 0;
    if (li < 0)
        return;
    dn_gave(s, li, d->pd_mask, d->pd_v);
    if (d->prb_down) {
        d->nprb_down++;
        if (m->st[li] == MS_W) {
            m->wbm[li] &= d->prb_mask;
        } else if (m->st[li] == MS_O && d->prb_mask && d->prb_mask != s->g.full && d->pd_mask == s->g.full) {
            m->st[li] = MS_W;
            m->wbm[li] = d->prb_mask;
            m->w_since[li] = cyc;
            m->nwb++;
        } else if (m->st[li] == MS_O) { /* (an EVICT presented: to I) */
            m->st[li] = d->prb_mask == s->g.full ? MS_S : MS_I;
        }
    } else if (d->prb_mask == 0) {
        m->ninv_prb++;
        if (m->st[li] == MS_S)
            m->st[li] = MS_I;
    }
}

/* A request of the unit: ReqS and ReqO+data of whole lines the device
 * owns no word of, a ReqS of part of a line re-sending Nacked words of a
 * read (--nack-limit above 1), ReqWT+data(rd) replacing words of an open
 * ReqS, ReqWB of words it owns with the data the cache gave. */
static void ms_on_req(tx_stim *s, const uint64_t *out, uint64_t cyc)
{
    dn_state *d = &s->dn;
    ms_state *m = &s->ms;
    unsigned i, w, type = (unsigned)pv(s, out, P(req_type_o)), op = (unsigned)pv(s, out, P(req_op_o));
    uint64_t line = pv(s, out, P(req_line_o)), mask = pv(s, out, P(req_mask_o)), v[SPANDEX_LLC_WORDS_MAX];
    int li = dn_li(s, line);
    dn_proc *p;
    s->nreq[type & 7]++;
    spandex_ports_get_words(&s->p, out, P(req_data_o), v);
    for (i = 0; i < s->nop; i++)
        if (s->op[i].line == line && (s->op[i].mask & mask))
            dn_bad(s, cyc, &d->bad_req, "a second open request on a word");
    if (li < 0 || !mask || s->nop == OPEN_MAX || d->npr == DN_PROC_MAX ||
        (type != 1 && type != 4 && type != 5 && type != 6)) {
        dn_bad(s, cyc, &d->bad_req, "a request of a wrong type, line or mask");
        return;
    }
    if ((type == 5 || (type == 1 && s->c.nack_limit == 1)) && mask != s->g.full)
        dn_bad(s, cyc, &d->bad_req, "ReqS or ReqO+data not of a whole line, or a ReqS re-sent under limit 1");
    if ((type == 1 || type == 5) && (d->own[li] & mask))
        dn_bad(s, cyc, &d->bad_req, "ReqS or ReqO+data of words this device owns");
    if ((type == 1 && m->busy[li] - 1 != SPANDEX_TUHW_C_LD) ||
        (type == 5 && m->busy[li] - 1 != SPANDEX_TUHW_C_ST && m->busy[li] - 1 != SPANDEX_TUHW_C_RMW))
        dn_bad(s, cyc, &d->bad_req, "a request no cache request asked for");
    if (type == 1 && mask != s->g.full)
        m->resend++;
    if (type == 4) {
        d->nrepl++;
        if (m->busy[li] - 1 != SPANDEX_TUHW_C_LD || op != 0)
            dn_bad(s, cyc, &d->bad_req, "a replacement no read waits for, or not rd");
    }
    if (type == 6) {
        if (mask & ~d->own[li] & ~ms_fwd_busy_all(s, line))
            m->wb_stale++;
        for (w = 0; w < s->g.words; w++) {
            /* what the cache gave, or the pending result (ms_res_ok) */
            if ((mask >> w & 1) && v[w] != d->exp[li][w] && !ms_res_ok(s, li, w, v[w]))
                dn_bad(s, cyc, &d->bad_data, "ReqWB data not what the cache gave");
        }
    }
    s->op[s->nop].type = type;
    s->op[s->nop].line = line;
    s->op[s->nop++].mask = mask;
    p = &d->pr[d->npr++];
    p->type = type;
    p->line = line;
    p->mask = mask;
    p->due = cyc + 1 + rnd(s) % (pct(s) < 10 ? 40 : 8);
    if (type == 6 && !(s->b.kind == KIND_ERRORS && cyc + QUIET_BEFORE >= s->inj_next))
        dn_race(s, line, mask, cyc, 40);
}

/* The ownership checks, every cycle. */
static void ms_check(tx_stim *s, uint64_t cyc)
{
    dn_state *d = &s->dn;
    ms_state *m = &s->ms;
    unsigned li, i;
    for (li = 0; li < POOL; li++) {
        uint64_t line = s->pool[li], fl = ms_fwd_busy_all(s, line), covered = fl;
        if (m->st[li] == MS_O && (s->g.full & ~d->own[li] & ~fl) && !m->bad_o[li]) {
            m->bad_o[li] = 1;
            dn_bad(s, cyc, &m->bad_own, "the cache holds a line in O the LLC gives another owner");
        } else if (m->st[li] != MS_O) {
            m->bad_o[li] = 0;
        }
        if (m->st[li] == MS_O || (s->have_c && s->c_type == SPANDEX_TUHW_C_EVICT && s->c_line == line))
            covered |= s->g.full;
        for (i = 0; i < s->nop; i++)
            if (s->op[i].line == line)
                covered |= s->op[i].type == 6 ? s->op[i].mask : s->g.full;
        if (m->busy[li])
            covered |= s->g.full;
        for (i = 0; i < d->npr; i++)
            if (d->pr[i].line == line)
                covered |= s->g.full;
        if (m->st[li] == MS_W && cyc - m->w_since[li] > DN_STALL) {
            m->w_since[li] = cyc;
            dn_bad(s, cyc, &m->bad_rel, "a line kept in write-back, never released");
        }
        if (d->own[li] & ~covered) {
            if (!m->lost_since[li])
                m->lost_since[li] = cyc;
            else if (cyc - m->lost_since[li] > MS_LOST) {
                m->lost_since[li] = 0;
                dn_bad(s, cyc, &m->bad_lost, "owned words neither in the cache, written back nor answered");
            }
        } else {
            m->lost_since[li] = 0;
        }
    }
}

static void ms_probe_answer(tx_stim *s)
{
    dn_state *d = &s->dn;
    int li = dn_li(s, d->prb_line);
    int ev = s->have_c && s->c_type == SPANDEX_TUHW_C_EVICT && s->c_line == d->prb_line && s->c_mask;
    unsigned w;
    d->pd_mask = li >= 0 && (s->ms.st[li] == MS_O || ev) ? s->g.full : li >= 0 && s->ms.st[li] == MS_W ? s->ms.wbm[li] : 0;
    /* a downgrade of part of a line whose EVICT is presented: only the words
     * asked for (the EVICT's ReqWB writes the others back) */
    if (ev && d->prb_down && d->prb_mask && d->prb_mask != s->g.full)
        d->pd_mask = s->g.full & ~d->prb_mask;
    memset(d->pd_v, 0, sizeof d->pd_v);
    for (w = 0; w < s->g.words; w++)
        if (d->pd_mask >> w & 1)
            d->pd_v[w] = d->cd[li][w];
}

static void observe_mesi(tx_stim *s, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    dn_state *d = &s->dn;
    int k;
    if (s->have_c && (pv(s, out, P(c_req_ready_o)) & 1) && s->c_bad) {
        s->have_c = s->c_bad = 0; /* dropped as an error: no answer owed */
    } else if (s->have_c && (pv(s, out, P(c_req_ready_o)) & 1)) {
        s->have_c = 0;
        ms_accept(s, cyc);
    }
    if ((pv(s, out, P(c_rsp_valid_o)) & 1) && (pv(s, in, P(c_rsp_ready_i)) & 1))
        ms_crsp(s, out, cyc);
    if (d->pdat && (pv(s, out, P(c_pdat_ready_o)) & 1))
        ms_pdat_done(s, cyc);
    else if (s->have_p && (pv(s, out, P(c_pdat_ready_o)) & 1))
        s->have_p = 0; /* the stray answer taken (an error) */
    if ((pv(s, out, P(c_prb_valid_o)) & 1) && (pv(s, in, P(c_prb_ready_i)) & 1)) {
        d->prb = 1;
        d->prb_line = pv(s, out, P(c_prb_line_o));
        d->prb_mask = pv(s, out, P(c_prb_mask_o));
        d->prb_down = (unsigned)(pv(s, out, P(c_prb_down_o)) & 1);
        d->prb_due = cyc + 1 + rnd(s) % 4;
    }
    if (s->have_r && (pv(s, out, P(rsp_ready_o)) & 1) && s->r_bad) {
        s->have_r = s->r_bad = 0;
    } else if (s->have_r && (pv(s, out, P(rsp_ready_o)) & 1)) {
        s->have_r = 0;
        dn_on_rsp(s);
    }
    if (s->have_f && (pv(s, out, P(fwd_ready_o)) & 1) && s->f_bad) {
        s->have_f = s->f_bad = 0;
    } else if (s->have_f && (pv(s, out, P(fwd_ready_o)) & 1) && (k = dn_first_unsent(s)) >= 0) {
        s->have_f = 0;
        s->nfwd++;
        d->fw[k].sent = 1;
        d->fw[k].rd = dn_rd_words(s, d->fw[k].line);
        if (dn_li(s, d->fw[k].line) >= 0)
            memcpy(d->fw[k].v0, d->exp[dn_li(s, d->fw[k].line)], sizeof d->fw[k].v0);
    }
    if ((pv(s, out, P(req_valid_o)) & 1) && (pv(s, in, P(req_ready_i)) & 1))
        ms_on_req(s, out, cyc);
    if ((pv(s, out, P(out_valid_o)) & 1) && (pv(s, in, P(out_ready_i)) & 1))
        dn_on_out(s, out, cyc);
    if ((pv(s, out, P(err_o)) & 1) && s->err_cycles++ == 0)
        s->err_first = cyc;
    ms_check(s, cyc);
}

static void summary_mesi(const tx_stim *s, FILE *f, const char *lead)
{
    const dn_state *d = &s->dn;
    const ms_state *m = &s->ms;
    fprintf(f, "%scache local ST/RMW %llu  installed by reads S %llu O %llu used once %llu  stores and "
               "atomics whose line an owner took %llu\n",
            lead, (unsigned long long)d->nlocal, (unsigned long long)m->fills[MS_S],
            (unsigned long long)m->fills[MS_O], (unsigned long long)m->fills[MS_I], (unsigned long long)m->lost_o);
    fprintf(f,
            "%sresponses RspS %llu RspO+data %llu RspV %llu Nack %llu RspWT+data %llu RspWB %llu  ReqS answered "
            "as option 1 %llu, 3 %llu, 2 %llu\n",
            lead, (unsigned long long)s->nrsp[1], (unsigned long long)s->nrsp[5], (unsigned long long)s->nrsp[0],
            (unsigned long long)s->nrsp[9], (unsigned long long)s->nrsp[4], (unsigned long long)s->nrsp[6],
            (unsigned long long)m->mode[1], (unsigned long long)m->mode[3], (unsigned long long)m->mode[2]);
    fprintf(f,
            "%sanswers RspO %llu RspV %llu Nack %llu RspS %llu RspO+data %llu RspRvkO %llu Ack %llu  requests "
            "ReqS %llu (retries %llu, answered as ownership %llu) ReqO+data %llu ReqWB %llu (of words moved %llu) "
            "ReqWT+data %llu\n",
            lead, (unsigned long long)s->nout[3], (unsigned long long)s->nout[0], (unsigned long long)s->nout[9],
            (unsigned long long)s->nout[1], (unsigned long long)s->nout[5], (unsigned long long)s->nout[7],
            (unsigned long long)s->nout[8], (unsigned long long)s->nreq[1], (unsigned long long)m->resend, (unsigned long long)m->resend_o,
            (unsigned long long)s->nreq[5], (unsigned long long)s->nreq[6], (unsigned long long)m->wb_stale,
            (unsigned long long)s->nreq[4]);
    fprintf(f,
            "%sforwards %llu: FwdReqV %llu (stray %llu) FwdReqS %llu FwdReqO %llu FwdReqO+data %llu RvkO %llu "
            "Inv %llu\n",
            lead, (unsigned long long)s->nfwd, (unsigned long long)d->nfwt[0], (unsigned long long)d->nstray,
            (unsigned long long)d->nfwt[1], (unsigned long long)d->nfwt[2], (unsigned long long)d->nfwt[3],
            (unsigned long long)d->nfwt[4], (unsigned long long)d->nfwt[5]);
    fprintf(f,
            "%sraces: downgrades of a pending ReqO+data or ReqS line %llu delayed and %llu FwdReqO at once, of "
            "ReqWB words %llu, of an EVICT presented %llu  probes %llu (down %llu, Inv %llu)\n",
            lead, (unsigned long long)d->race_od, (unsigned long long)d->race_now, (unsigned long long)d->race_wb,
            (unsigned long long)d->race_ev, (unsigned long long)d->nprb, (unsigned long long)d->nprb_down,
            (unsigned long long)m->ninv_prb);
    fprintf(f,
            "%swrite-back lines %llu, released %llu\n",
            lead, (unsigned long long)m->nwb, (unsigned long long)m->nrel);
    fprintf(f,
            "%sbroken promises %llu (requests %llu, cache answers %llu, forward answers %llu, data %llu, "
            "forwards unanswered %llu, O beside another owner %llu, ownership lost %llu, write-back kept %llu)",
            lead, (unsigned long long)s->bad, (unsigned long long)d->bad_req, (unsigned long long)d->bad_crsp,
            (unsigned long long)d->bad_out, (unsigned long long)d->bad_data, (unsigned long long)d->nstall,
            (unsigned long long)m->bad_own, (unsigned long long)m->bad_lost, (unsigned long long)m->bad_rel);
    if (s->bad)
        fprintf(f, ", the first in cycle %llu: %s", (unsigned long long)d->bad_cyc, d->bad_why);
    fprintf(f, "\n");
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    tx_stim *s = p;
    if (s->b.trace) {
        observe_trace(s, in, out);
        return;
    }
    if (s->c.kind == SPANDEX_TU_DENOVO) {
        observe_denovo(s, cyc, in, out);
        return;
    }
    if (s->c.kind == SPANDEX_TU_MESI) {
        observe_mesi(s, cyc, in, out);
        return;
    }
    if (s->have_c && (pv(s, out, P(c_req_ready_o)) & 1)) {
        s->have_c = 0;
        s->ncreq[s->c_type]++;
        if (s->c_type == SPANDEX_TUHW_C_LD)
            s->lds++;
        else if (s->c_type == SPANDEX_TUHW_C_RMW)
            s->rmws++;
        else if (s->c_type >= SPANDEX_TUHW_C_ACQ)
            s->syncs++;
    }
    if (s->have_r && (pv(s, out, P(rsp_ready_o)) & 1)) {
        s->have_r = 0;
        on_rsp(s);
    }
    if (s->have_p && (pv(s, out, P(c_pdat_ready_o)) & 1))
        s->have_p = 0;
    if (s->have_f && (pv(s, out, P(fwd_ready_o)) & 1) && s->f_bad) {
        s->have_f = s->f_bad = 0; /* dropped as an error: no answer owed */
    } else if (s->have_f && (pv(s, out, P(fwd_ready_o)) & 1)) {
        s->have_f = 0;
        s->nfwd++;
        s->fw[s->nfw].type = s->f_type;
        s->fw[s->nfw].req = s->f_req;
        s->fw[s->nfw].line = s->f_line;
        s->fw[s->nfw++].mask = s->f_mask;
    }
    if ((pv(s, out, P(req_valid_o)) & 1) && (pv(s, in, P(req_ready_i)) & 1))
        on_req(s, out, cyc);
    if ((pv(s, out, P(out_valid_o)) & 1) && (pv(s, in, P(out_ready_i)) & 1))
        on_out(s, out);
    if ((pv(s, out, P(c_rsp_valid_o)) & 1) && (pv(s, in, P(c_rsp_ready_i)) & 1))
        on_crsp(s, out);
    if ((pv(s, out, P(err_o)) & 1) && s->err_cycles++ == 0)
        s->err_first = cyc;
}

/* ------------------------------------------------------------ summary */
static int stim_done(const void *p, const void *tm)
{
    const tx_stim *s = p;
    (void)tm;
    return s->next == s->ntr && s->pend[0] < 0 && s->pend[1] < 0 && s->pend[2] < 0 && s->pend[3] < 0 &&
           s->quiet >= TRACE_QUIET;
}

static uint64_t stim_limit(const void *p)
{
    const tx_stim *s = p;
    return 200 + (uint64_t)(s->ntr + 1) * (TRACE_BYPASS + 16);
}

static void summary_gpu(const tx_stim *s, FILE *f, const char *lead)
{
    fprintf(f, "%srequests ReqV %llu ReqWT %llu ReqWT+data %llu  responses RspV %llu Nack %llu RspWT %llu "
               "RspO %llu RspWT+data %llu\n",
            lead, (unsigned long long)s->nreq[0], (unsigned long long)s->nreq[2], (unsigned long long)s->nreq[4],
            (unsigned long long)s->nrsp[0], (unsigned long long)s->nrsp[9], (unsigned long long)s->nrsp[2],
            (unsigned long long)s->nrsp[3], (unsigned long long)s->nrsp[4]);
    fprintf(f, "%sforwards %llu  answers Nack %llu Ack %llu\n", lead, (unsigned long long)s->nfwd,
            (unsigned long long)s->nout[9], (unsigned long long)s->nout[8]);
    fprintf(f, "%sbroken promises %llu\n", lead, (unsigned long long)s->bad);
}

/* DeNovo, MESI: the delayed ring, from the timing shell (the RTL equals it
 * on every port every cycle): forwards delayed, the most slots held at
 * once, FwdReqVs Nacked because they would have taken the last free slot,
 * which is kept for a downgrade. */
static void summary_ring(const tx_stim *s, const void *tm, FILE *f, const char *lead)
{
    const spandex_tuhw_tm_stats *st = spandex_tuhw_tm_stats_of(tm);
    fprintf(f, "%sdelayed ring: forwards delayed %llu, most slots held %u of %u, FwdReqVs Nacked at the last "
               "free slot %llu\n",
            lead, (unsigned long long)st->delayed, st->peak, s->c.dfr, (unsigned long long)st->nack_full);
}

static void stim_summary(const void *p, const void *tm, uint64_t cycles, FILE *f, const char *lead)
{
    static const char *const cn[] = {"LD", "ST", "RMW", "ACQ", "REL", "EVICT"};
    static const char *const rn[] = {"FILL", "VALUE", "DONE"};
    const tx_stim *s = p;
    unsigned k;
    fprintf(f, "%scycles %llu  cache requests", lead, (unsigned long long)cycles);
    for (k = 0; k < 6; k++)
        fprintf(f, " %s %llu", cn[k], (unsigned long long)s->ncreq[k]);
    fprintf(f, "  answers");
    for (k = 0; k < 3; k++)
        fprintf(f, " %s %llu", rn[k], (unsigned long long)s->ncrsp[k]);
    fprintf(f, "\n");
    if (s->c.kind == SPANDEX_TU_DENOVO)
        summary_denovo(s, f, lead);
    else if (s->c.kind == SPANDEX_TU_MESI)
        summary_mesi(s, f, lead);
    else
        summary_gpu(s, f, lead);
    if (s->c.kind != SPANDEX_TU_GPU)
        summary_ring(s, tm, f, lead);
    fprintf(f, "%sprotocol errors (err_o cycles) %llu\n", lead, (unsigned long long)s->err_cycles);
    if (s->b.kind == KIND_ERRORS)
        fprintf(f, "%sinjected errors %llu, the first in cycle %llu; err_o first high in cycle %llu\n", lead,
                (unsigned long long)s->injected, (unsigned long long)s->inj_first,
                (unsigned long long)s->err_first);
}

/* The input line of the first record the unit has not taken, or of the
 * last record when it took them all. */
static unsigned waiting_line(const tx_stim *s)
{
    long first = s->next < s->ntr ? (long)s->next : -1;
    int ch;
    for (ch = 0; ch < 4; ch++)
        if (s->pend[ch] >= 0 && (first < 0 || s->pend[ch] < first))
            first = s->pend[ch];
    return first >= 0 ? s->tr[first].lineno : s->ntr ? s->tr[s->ntr - 1].lineno : 0;
}

/* The trace tool: the timing shell driven as the bench's trace mode drives
 * it (records in order, every output ready), its outputs printed. */
static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name, FILE *out, FILE *err)
{
    cohkit_unit_stim_args a;
    char msg[300], *obuf = NULL;
    size_t olen = 0;
    tx_stim *s;
    spandex_tuhw_tm *tm = NULL;
    uint64_t *iv = NULL, *ov = NULL, cyc, limit;
    int rc = 0;
    memset(&a, 0, sizeof a);
    a.trace = in;
    a.trace_name = in_name;
    a.flags = fl;
    a.out = open_memstream(&obuf, &olen);
    if (a.out == NULL) {
        fprintf(err, "cohmodel: out of memory\n");
        return 2;
    }
    s = stim_new(cfg, &a, msg, sizeof msg);
    if (s == NULL) {
        fprintf(err, "cohmodel: %s\n", msg);
        fclose(a.out);
        free(obuf);
        return 2;
    }
    tm = spandex_tuhw_tm_new(cfg);
    iv = calloc(s->p.in_words, sizeof *iv);
    ov = calloc(s->p.out_words + 1, sizeof *ov);
    if (tm == NULL || iv == NULL || ov == NULL) {
        fprintf(err, "cohmodel: out of memory\n");
        rc = 2;
    }
    limit = stim_limit(s);
    for (cyc = 0; rc == 0 && cyc < limit && !stim_done(s, tm); cyc++) {
        iv[0] = 1;
        stim_drive(s, cyc, iv);
        spandex_tuhw_tm_eval(tm, iv, ov);
        stim_observe(s, cyc, iv, ov);
        spandex_tuhw_tm_step(tm, iv);
    }
    if (rc == 0 && !stim_done(s, tm)) {
        fprintf(err, "cohmodel: %s: line %u: %s within %llu cycles\n", in_name, waiting_line(s),
                s->next < s->ntr || s->pend[0] >= 0 || s->pend[1] >= 0 || s->pend[2] >= 0 || s->pend[3] >= 0
                    ? "the unit does not take this record"
                    : "the unit does not settle after this last record",
                (unsigned long long)limit);
        rc = 2;
    }
    fclose(a.out);
    if (rc == 0)
        fwrite(obuf, 1, olen, out);
    free(obuf);
    free(iv);
    free(ov);
    spandex_tuhw_tm_free(tm);
    stim_free(s);
    return rc;
}

static const cohkit_unit_flag flags[] = {{NULL, NULL, NULL}};

const cohkit_unit_desc spandex_tuhw_unit = {
    .name = "spandex-tu",
    .family = "spandex",
    .title = "Spandex translation unit, GPU coherence, DeNovo and MESI: Table II requests, the response "
             "collector, Nack retry and replacement, Table IV answers (Alsop et al., III-A, III-C, III-D; spec 4)",
    .model_ref = "cmodel/spandex/spandex_tuhw_tm.c spandex_tuhw_tm_eval() / _step() (timing)",
    .cfg_size = sizeof(spandex_tuhw_cfg),
    .presets = spandex_tuhw_preset_names,
    .committed = spandex_tuhw_preset_names, /* every preset is committed */
    .module_prefix = "spandex_tu",
    .opts = &spandex_tuhw_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "LD <addr> <mask>   ST <addr> <mask> <v>...   RMW <addr> <mask> <op> <v>...\n"
                  "ACQ   REL   EVICT <addr> [<mask> <v>...]   PDAT <addr> <mask> [<v>...]   (the cache)\n"
                  "Rsp*|Nack <addr> <mask> [<v>...]   Fwd* <addr> <mask> <req>   RvkO|Inv <addr> <mask>\n"
                  "output: Req* lines, Rsp*|Nack <dst>|L, Ack L, FILL, VALUE, OWN, DONE, PRB, ERR lines\n"
                  "(docs/spandex.md, \"The translation unit in RTL\")",
    COHKIT_UNIT_STIM_FIELDS,
};
