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
 * for 300 cycles before each, so the unit is idle when it arrives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "spandex_tuhw.h"
#include "spandex_tuhw_port.h"
#include "unit_adapt.h"

static const char *const committed[] = {"default", "fpga", "denovo", "denovo_fpga", NULL};
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
    uint64_t v[SPANDEX_LLC_WORDS_MAX];
} pend;

/* A request of the unit not yet fully answered. */
typedef struct {
    unsigned type;
    uint64_t line, mask;
} openreq;

typedef struct {
    cohkit_unit_stim_base b;
    spandex_tuhw_cfg c;
    spandex_tuhw_geom g;
    spandex_tuhw_ports p;
    uint64_t pool[POOL];
    int have_c, have_r, have_f;
    unsigned c_type, c_op, r_type, f_type, f_req;
    uint64_t c_line, c_mask, r_line, r_mask, f_line, f_mask;
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
    uint64_t inj_next, inj_first, err_first, err_cycles, injected;
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
    for (i = 0; i < POOL; i++) /* four lines apart, high address bits set in some */
        s->pool[i] = ((uint64_t)i * 4 + (i & 1 ? cohkit_mask64(s->g.laddr_bits) - 64 : 16)) &
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
    memset(s->r_v, 0, sizeof s->r_v);
    return 1;
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
            spandex_tuhw_put_words(&s->p, in, P(c_req_data_i), r->v, r->mask);
        } else if (ch == 1) {
            spandex_tuhw_put_words(&s->p, in, P(rsp_data_i), r->v, r->mask);
        } else if (ch == 2) {
            in[s->p.off[P(fwd_req_i)]] = r->req;
        } else {
            spandex_tuhw_put_words(&s->p, in, P(c_pdat_data_i), r->v, r->mask);
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
        spandex_tuhw_get_words(&s->p, out, P(c_rsp_data_o), v);
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
        spandex_tuhw_get_words(&s->p, out, P(req_data_o), v);
        spandex_tuhw_print(&s->c, s->b.out, 1, (unsigned)out[s->p.off[P(req_type_o)]],
                           (unsigned)out[s->p.off[P(req_op_o)]], 0, 0, out[s->p.off[P(req_line_o)]],
                           out[s->p.off[P(req_mask_o)]], 0, v);
        moved = 1;
    }
    if (out[s->p.off[P(out_valid_o)]] & 1) {
        spandex_tuhw_get_words(&s->p, out, P(out_data_o), v);
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
    if ((cyc & 1023) == 0)
        cohkit_unit_bp_draw(&sched, &s->b.rng, &s->b.bp);
    /* errors: the cache and the LLC fall quiet before an injection, so the
     * unit is idle when the stray response arrives (idle_o must drop) */
    quiet = s->b.kind == KIND_ERRORS && cyc + QUIET_BEFORE >= s->inj_next;
    if (!s->have_c && !quiet && pct(s) < s->b.bp.valid)
        make_creq(s);
    if (s->have_c) {
        in[s->p.off[P(c_req_valid_i)]] = 1;
        in[s->p.off[P(c_req_type_i)]] = s->c_type;
        in[s->p.off[P(c_req_line_i)]] = s->c_line;
        in[s->p.off[P(c_req_mask_i)]] = s->c_mask;
        in[s->p.off[P(c_req_op_i)]] = s->c_op;
        spandex_tuhw_put_words(&s->p, in, P(c_req_data_i), s->c_v, s->g.full);
    }
    if (!s->have_r && cyc >= s->inj_next && (s->have_r = inject_rsp(s)) != 0) {
        s->inj_next = cyc + 2000 + rnd(s) % 2000;
        s->injected++;
        if (!s->inj_first)
            s->inj_first = cyc;
    }
    if (!s->have_r && pct(s) < 70)
        s->have_r = take_pend(s, cyc);
    if (s->have_r) {
        in[s->p.off[P(rsp_valid_i)]] = 1;
        in[s->p.off[P(rsp_type_i)]] = s->r_type;
        in[s->p.off[P(rsp_line_i)]] = s->r_line;
        in[s->p.off[P(rsp_mask_i)]] = s->r_mask;
        spandex_tuhw_put_words(&s->p, in, P(rsp_data_i), s->r_v, s->g.full);
    }
    if (!s->have_f && !quiet && s->nfw + 1 < FWD_MAX && pct(s) < 3)
        make_fwd(s);
    if (s->have_f) {
        in[s->p.off[P(fwd_valid_i)]] = 1;
        in[s->p.off[P(fwd_type_i)]] = s->f_type;
        in[s->p.off[P(fwd_line_i)]] = s->f_line;
        in[s->p.off[P(fwd_mask_i)]] = s->f_mask;
        in[s->p.off[P(fwd_req_i)]] = s->f_req;
    }
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

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    tx_stim *s = p;
    if (s->b.trace) {
        observe_trace(s, in, out);
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
    if (s->have_f && (pv(s, out, P(fwd_ready_o)) & 1)) {
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

static void stim_summary(const void *p, const void *tm, uint64_t cycles, FILE *f, const char *lead)
{
    static const char *const cn[] = {"LD", "ST", "RMW", "ACQ", "REL", "EVICT"};
    static const char *const rn[] = {"FILL", "VALUE", "DONE"};
    const tx_stim *s = p;
    unsigned k;
    (void)tm;
    fprintf(f, "%scycles %llu  cache requests", lead, (unsigned long long)cycles);
    for (k = 0; k < 6; k++)
        fprintf(f, " %s %llu", cn[k], (unsigned long long)s->ncreq[k]);
    fprintf(f, "  answers");
    for (k = 0; k < 3; k++)
        fprintf(f, " %s %llu", rn[k], (unsigned long long)s->ncrsp[k]);
    fprintf(f, "\n%srequests ReqV %llu ReqWT %llu ReqWT+data %llu  responses RspV %llu Nack %llu RspWT %llu "
               "RspO %llu RspWT+data %llu\n",
            lead, (unsigned long long)s->nreq[0], (unsigned long long)s->nreq[2], (unsigned long long)s->nreq[4],
            (unsigned long long)s->nrsp[0], (unsigned long long)s->nrsp[9], (unsigned long long)s->nrsp[2],
            (unsigned long long)s->nrsp[3], (unsigned long long)s->nrsp[4]);
    fprintf(f, "%sforwards %llu  answers Nack %llu Ack %llu\n", lead, (unsigned long long)s->nfwd,
            (unsigned long long)s->nout[9], (unsigned long long)s->nout[8]);
    fprintf(f, "%sbroken promises %llu\n", lead, (unsigned long long)s->bad);
    fprintf(f, "%sprotocol errors (err_o cycles) %llu\n", lead, (unsigned long long)s->err_cycles);
    if (s->b.kind == KIND_ERRORS)
        fprintf(f, "%sinjected errors %llu, the first in cycle %llu; err_o first high in cycle %llu\n", lead,
                (unsigned long long)s->injected, (unsigned long long)s->inj_first,
                (unsigned long long)s->err_first);
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
        fprintf(err, "cohmodel: %s: not every record was accepted within %llu cycles\n", in_name,
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
    .title = "Spandex translation unit: Table II requests, the response collector, Nack retry and "
             "replacement, Table IV answers (Alsop et al., III-A, III-C, III-D; spec 4)",
    .model_ref = "cmodel/spandex/spandex_tuhw_tm.c spandex_tuhw_tm_eval() / _step() (timing)",
    .cfg_size = sizeof(spandex_tuhw_cfg),
    .presets = spandex_tuhw_preset_names,
    .committed = committed,
    .module_prefix = "spandex_tu",
    .opts = &spandex_tuhw_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "LD <addr> <mask>   ST <addr> <mask> <v>...   RMW <addr> <mask> <op> <v>...\n"
                  "ACQ   REL   EVICT <addr>   (the cache)\n"
                  "Rsp*|Nack <addr> <mask> [<v>...]   Fwd* <addr> <mask> <req>   RvkO|Inv <addr> <mask>\n"
                  "output: ReqV, ReqWT, ReqWT+data, Nack <dst>, Ack L, FILL, VALUE, DONE, ERR lines\n"
                  "(docs/spandex.md, \"The translation unit in RTL\")",
    COHKIT_UNIT_STIM_FIELDS,
};
