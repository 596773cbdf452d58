/*
 * STC port-level system with Verilated units (tb/stc/stc_vsys.h, docs/stc.md
 * "Verilated system").
 *
 * Every cycle: the inputs of every block are computed from the state of the
 * composition at the start of the cycle (queues, pending requests, the
 * random ready draws), so no block input depends on another block's output
 * of the same cycle; then every block is evaluated, the transfers
 * (valid && ready) are taken and logged, and every block is clocked. The
 * stimulus draws the same random numbers in every cycle whatever the
 * backends, so a shell and its Verilated module, when they agree cycle by
 * cycle, give the same log byte for byte.
 */
#define _POSIX_C_SOURCE 200809L
#include "stc_vsys.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compose_rtl.h"
#include "lockstep.h"
#include "stc_band.h"
#include "stc_check.h"
#include "stc_emu.h"
#include "stc_l1.h"
#include "unit.h"

#define VSYS_CUS_MAX 32
#define VSYS_RESET 2     /* cycles of reset at the start                    */
#define VSYS_POOL 32     /* written words                                   */
#define VSYS_RPOOL 48    /* read words: the written ones and read-only bands */

void vsys_opts_default(vsys_opts *o)
{
    memset(o, 0, sizeof *o);
    o->preset = "fpga";
    o->seed = 1;
    o->ops = 400;
    o->l2_lat = 20;
    o->msg_lat = 2;
    o->max_cycles = 100000;
    o->slow_cu = -1;
}

void vsys_res_free(vsys_res *r)
{
    free(r->log);
    free(r->check);
    r->log = r->check = NULL;
}

/* ------------------------------------------------------------ blocks -- */

/* The ports the composition drives and reads, looked up once per system
 * (cmodel/compose.h handles): the EMU's, a CU's, an L1's. */
enum {
    EP_CHG_EPOCHS_O, EP_CHG_READY_I, EP_CHG_SEB_O, EP_CHG_VALID_O, EP_CONF_ADDR_I,
    EP_CONF_READY_O, EP_CONF_VALID_I, EP_CUR_O, EP_DACK_READY_I, EP_DEM_ADDR_I, EP_DEM_READY_O,
    EP_DEM_VALID_I, EP_DONE_READY_O, EP_DONE_VALID_I, EP_PHASE_O, EP_PREP_READY_I,
    EP_PREP_VALID_O, EP_PTR_O, EP_RDY_READY_O, EP_RDY_VALID_I, EP_SEB_O, EP_SLEEP_O,
    EP_TMR_EN_I, EP_WAKE_I, EP_N
};

static const char *const emu_ports[] = {
    "chg_epochs_o", "chg_ready_i", "chg_seb_o", "chg_valid_o", "conf_addr_i", "conf_ready_o",
    "conf_valid_i", "cur_o", "dack_ready_i", "dem_addr_i", "dem_ready_o", "dem_valid_i",
    "done_ready_o", "done_valid_i", "phase_o", "prep_ready_i", "prep_valid_o", "ptr_o",
    "rdy_ready_o", "rdy_valid_i", "seb_o", "sleep_o", "tmr_en_i", "wake_i", NULL};
enum {
    CP_CHG_CER_I, CP_CHG_READY_O, CP_CHG_SEB_I, CP_CHG_VALID_I, CP_CONF_ADDR_O,
    CP_CONF_READY_I, CP_CONF_VALID_O, CP_DEM_ADDR_O, CP_DEM_READY_I, CP_DEM_VALID_O,
    CP_DONE_READY_I, CP_DONE_VALID_O, CP_ISS_ADDR_O, CP_ISS_DRAIN_O, CP_ISS_READY_I,
    CP_ISS_VALID_O, CP_LD_ADDR_I, CP_LD_READY_O, CP_LD_VALID_I, CP_LDR_ADDR_O, CP_LDR_READY_I,
    CP_LDR_VALID_O, CP_PREP_READY_O, CP_PREP_VALID_I, CP_RDY_READY_I, CP_RDY_VALID_O,
    CP_ST_ADDR_I, CP_ST_BLOCKED_O, CP_ST_READY_O, CP_ST_VALID_I, CP_WA_I, CP_N
};

static const char *const cu_ports[] = {
    "chg_cer_i", "chg_ready_o", "chg_seb_i", "chg_valid_i", "conf_addr_o", "conf_ready_i",
    "conf_valid_o", "dem_addr_o", "dem_ready_i", "dem_valid_o", "done_ready_i", "done_valid_o",
    "iss_addr_o", "iss_drain_o", "iss_ready_i", "iss_valid_o", "ld_addr_i", "ld_ready_o",
    "ld_valid_i", "ldr_addr_o", "ldr_ready_i", "ldr_valid_o", "prep_ready_o", "prep_valid_i",
    "rdy_ready_i", "rdy_valid_o", "st_addr_i", "st_blocked_o", "st_ready_o", "st_valid_i",
    "wa_i", NULL};
enum {
    LP_CHG_CER_I, LP_CHG_DONE_O, LP_CHG_READY_O, LP_CHG_SEB_I, LP_CHG_VALID_I, LP_EV_ACT_O,
    LP_EV_EVENT_O, LP_EV_FROM_O, LP_EV_KIND_O, LP_EV_LINE_O, LP_EV_READY_I, LP_EV_TO_O,
    LP_EV_VALID_O, LP_REQ_ADDR_I, LP_REQ_OP_I, LP_REQ_READY_O, LP_REQ_VALID_I, LP_N
};

static const char *const l1_ports[] = {
    "chg_cer_i", "chg_done_o", "chg_ready_o", "chg_seb_i", "chg_valid_i", "ev_act_o",
    "ev_event_o", "ev_from_o", "ev_kind_o", "ev_line_o", "ev_ready_i", "ev_to_o", "ev_valid_o",
    "req_addr_i", "req_op_i", "req_ready_o", "req_valid_i", NULL};

/* ------------------------------------------------------------ queues -- */

typedef struct {
    uint64_t due, addr;
    uint32_t value;
    unsigned cu, kind;
} item;

typedef cmp_fifo queue;

static int q_push(queue *q, const item *it) { return cmp_fifo_push(q, it); }
/* The head when it is due at cycle t, else NULL. */
static item *q_due(queue *q, uint64_t t)
{
    item *h = q->n ? cmp_fifo_at(q, 0) : NULL;
    return h && h->due <= t ? h : NULL;
}
static void q_pop(queue *q) { cmp_fifo_pop(q); }
/* The oldest item due at cycle t anywhere in the queue, taken out into *it
 * (the L2's responses are not in due order: --slow-cu). 1, or 0. */
static int q_take_due(queue *q, uint64_t t, item *it)
{
    size_t i;
    for (i = 0; i < q->n; i++)
        if (((const item *)cmp_fifo_at(q, i))->due <= t) {
            *it = *(const item *)cmp_fifo_at(q, i);
            cmp_fifo_remove(q, i);
            return 1;
        }
    return 0;
}

/* --------------------------------------------------------------- rng -- */

/* ------------------------------------------------------------ system -- */

typedef struct {
    int st_v, ld_v;            /* pending request at the CU's port          */
    uint64_t st_a, ld_a;
    unsigned ops_left;
    uint64_t out_addr[VSYS_POOL]; /* stores outstanding (accepted, no WA)   */
    uint32_t out_val[VSYS_POOL];
    int out_used[VSYS_POOL];
    unsigned nout;
    queue dem, conf, rdy, done; /* CU -> EMU                                */
    queue prep, chg;            /* EMU -> CU                                */
    queue wa;                   /* L2 -> CU write acks                      */
    /* with the L1 */
    queue req;                  /* requests waiting for the L1's port       */
    queue infl;                 /* requests the L1 took, awaiting their T   */
    queue l1chg;                /* ChangeEpoch towards the L1               */
    int lvalid[VSYS_RPOOL / 4]; /* the L1's copy of each line (the data
                                   the RTL does not hold)                   */
    uint32_t lcopy[VSYS_RPOOL / 4][4], lfill[VSYS_RPOOL / 4][4];
    uint64_t lcer;              /* the ChangeEpoch the L1 took              */
    unsigned sp;                /* next script operation to look at         */
    unsigned ld_in;             /* loads the CU took and has not passed on  */
    uint32_t lseb;
} vcu;

typedef struct {
    const vsys_opts *o;
    unsigned k, n, a;          /* CUs, band bits, address bits              */
    cmp_sys cs;                 /* emu, cu0..cuK-1, l1_0..l1_K-1            */
    cmp_rtl rtl;                /* the units run as RTL (vsys_opts.rtl)     */
    cmp_block *emu, *cu[VSYS_CUS_MAX], *l1[VSYS_CUS_MAX];
    cmp_port ep[EP_N], cp[CP_N], lp[LP_N];
    unsigned lbits;            /* log2(L1 line)                             */
    vcu c[VSYS_CUS_MAX];
    queue l2;                   /* PERF / RD events                         */
    uint64_t pool[VSYS_POOL], rpool[VSYS_RPOOL];
    uint32_t mem[VSYS_RPOOL];   /* the L2's words (rpool order)             */
    uint64_t rng, t;
    uint32_t next_val;
    unsigned last_phase;
    FILE *log;
    char *logbuf;
    size_t logn;
    vsys_res *r;
    vsys_res own;               /* r of a system run by the lockstep        */
} vsys;

enum { L2_PERF, L2_RD, L2_RDF, L2_DATA, L2_WA };
enum { RQ_LD = 0, RQ_ST = 1, RQ_DATA = 2, RQ_WA = 3 };

static unsigned mem_idx(const vsys *s, uint64_t a)
{
    unsigned i;
    for (i = 0; i < VSYS_RPOOL; i++)
        if (s->rpool[i] == a)
            return i;
    return 0;
}

/* Index of the pool line holding line number `line`, or -1. */
static int line_idx(const vsys *s, uint64_t line)
{
    unsigned i;
    for (i = 0; i < VSYS_RPOOL; i += 4)
        if (s->rpool[i] >> s->lbits == line)
            return (int)(i / 4);
    return -1;
}

static void fmt_set(const vsys *s, uint64_t mask, unsigned after, char *buf, size_t len)
{
    stc_eset e;
    stc_elist l;
    unsigned i;
    stc_eset_clear(&e);
    for (i = 0; i < (1u << s->n); i++)
        if ((mask >> i) & 1)
            stc_eset_add(&e, i);
    stc_elist_of(&e, after, s->n, &l);
    stc_elist_format(&l, buf, len);
}

static void cu_out_del(vcu *c, uint64_t a, uint32_t *v)
{
    unsigned i;
    for (i = 0; i < VSYS_POOL; i++)
        if (c->out_used[i] && c->out_addr[i] == a) {
            c->out_used[i] = 0;
            c->nout--;
            *v = c->out_val[i];
            return;
        }
    *v = 0;
}
static int cu_out_has(const vcu *c, uint64_t a)
{
    unsigned i;
    for (i = 0; i < VSYS_POOL; i++)
        if (c->out_used[i] && c->out_addr[i] == a)
            return 1;
    return 0;
}
static void cu_out_add(vcu *c, uint64_t a, uint32_t v)
{
    unsigned i;
    for (i = 0; i < VSYS_POOL; i++)
        if (!c->out_used[i]) {
            c->out_used[i] = 1;
            c->out_addr[i] = a;
            c->out_val[i] = v;
            c->nout++;
            return;
        }
}

/* New requests at the CUs' ports (after the clock edge). The draws are the
 * same every cycle whatever happened. */
static void stimulus(vsys *s)
{
    unsigned k;
    if (s->o->script) {
        for (k = 0; k < s->k; k++) {
            vcu *c = &s->c[k];
            const struct vsys_op *op;
            while (c->sp < s->o->n_script && s->o->script[c->sp].cu != k)
                c->sp++;
            if (c->sp >= s->o->n_script || c->st_v || c->ld_v)
                continue;
            op = &s->o->script[c->sp];
            if (op->cycle > s->t || (op->store && cu_out_has(c, op->addr)))
                continue;
            if (op->store) {
                c->st_v = 1;
                c->st_a = op->addr;
            } else {
                c->ld_v = 1;
                c->ld_a = op->addr;
            }
            c->ops_left--;
            c->sp++;
        }
        return;
    }
    for (k = 0; k < s->k; k++) {
        vcu *c = &s->c[k];
        uint64_t r1 = cohkit_unit_rnd(&s->rng), r2 = cohkit_unit_rnd(&s->rng), r3 = cohkit_unit_rnd(&s->rng);
        if (c->ops_left == 0)
            continue;
        if (!c->st_v && (r1 & 7) < 2) {
            uint64_t a = s->pool[r2 % VSYS_POOL];
            if (!cu_out_has(c, a)) {
                c->st_v = 1;
                c->st_a = a;
                c->ops_left--;
            }
        } else if (!c->ld_v && (r1 & 7) == 2 && c->ops_left) {
            c->ld_v = 1;
            c->ld_a = s->rpool[r3 % VSYS_RPOOL];
            c->ops_left--;
        }
    }
}

static int quiet(const vsys *s)
{
    unsigned k;
    if (s->l2.n || s->last_phase != 0)
        return 0;
    for (k = 0; k < s->k; k++) {
        const vcu *c = &s->c[k];
        if (c->ops_left || c->st_v || c->ld_v || c->ld_in || c->nout || c->dem.n || c->conf.n ||
            c->rdy.n || c->done.n || c->prep.n || c->chg.n || c->wa.n || c->req.n || c->infl.n ||
            c->l1chg.n)
            return 0;
    }
    return 1;
}

/* The L1 of CU k after its evaluation: requests and ChangeEpoch taken,
 * chg_done_o, the event. -1 out of memory. */
static int l1_cycle(vsys *s, unsigned k, char *buf, size_t len)
{
    const vsys_opts *o = s->o;
    vcu *c = &s->c[k];
    cmp_block *l = s->l1[k];
    uint64_t t = s->t;
    item it, *x;
    int err = 0;
    if (cmp_get(l, s->lp[LP_REQ_VALID_I]) && cmp_get(l, s->lp[LP_REQ_READY_O])) {
        x = q_due(&c->req, t);
        it = *x;
        q_pop(&c->req);
        err |= q_push(&c->infl, &it);
        if (it.kind == RQ_WA) { /* the CU's write ack follows the L1's */
            it.due = t + 1;
            err |= q_push(&c->wa, &it);
        }
    }
    if ((x = q_due(&c->l1chg, t)) != NULL && cmp_get(l, s->lp[LP_CHG_READY_O])) {
        c->lcer = x->addr;
        c->lseb = x->value;
        q_pop(&c->l1chg);
    }
    if (cmp_get(l, s->lp[LP_CHG_DONE_O])) {
        /* the sweep is over: the new CER and SEB are the L1's; the CU's
         * epoch logic takes the ChangeEpoch next */
        memset(&it, 0, sizeof it);
        it.due = t + 1;
        it.addr = c->lcer;
        it.value = c->lseb;
        fmt_set(s, it.addr, (unsigned)cmp_get(s->emu, s->ep[EP_PTR_O]), buf, len);
        fprintf(s->log, "%" PRIu64 " CER %u %s %u\n", t, k, buf, it.value);
        err |= q_push(&c->chg, &it);
    }
    if (cmp_get(l, s->lp[LP_EV_VALID_O])) {
        unsigned kind = (unsigned)cmp_get(l, s->lp[LP_EV_KIND_O]);
        unsigned ev = (unsigned)cmp_get(l, s->lp[LP_EV_EVENT_O]);
        unsigned from = (unsigned)cmp_get(l, s->lp[LP_EV_FROM_O]);
        unsigned to = (unsigned)cmp_get(l, s->lp[LP_EV_TO_O]);
        unsigned act = (unsigned)cmp_get(l, s->lp[LP_EV_ACT_O]);
        uint64_t line = cmp_get(l, s->lp[LP_EV_LINE_O]), la = line << s->lbits;
        int li = line_idx(s, line);
        item h;
        memset(&h, 0, sizeof h);
        if (kind == STC_L1_K_T || kind == STC_L1_K_STALL) {
            if (c->infl.n == 0) {
                s->r->l1_errs++;
                return err;
            }
            h = *(const item *)cmp_fifo_at(&c->infl, 0);
            q_pop(&c->infl);
        }
        if (li < 0 && kind != STC_L1_K_ERR) {
            s->r->l1_errs++;
            return err;
        }
        switch (kind) {
        case STC_L1_K_STALL: /* retried */
            s->r->stalls++;
            h.due = 0;
            err |= q_push(&c->req, &h);
            break;
        case STC_L1_K_INV_LAZY:
        case STC_L1_K_INV_EVICT:
        case STC_L1_K_INV_SWEEP:
            fprintf(s->log, "%" PRIu64 " INV %u 0x%" PRIx64 "\n", t, k, la);
            c->lvalid[li] = 0;
            s->r->invs++;
            break;
        case STC_L1_K_POISON:
            break;
        case STC_L1_K_T:
            if (from == STC_L1_V && to != STC_L1_V) { /* the copy dropped */
                fprintf(s->log, "%" PRIu64 " INV %u 0x%" PRIx64 "\n", t, k, la);
                c->lvalid[li] = 0;
            }
            if (ev == STC_L1_EV_STORE && act == STC_L1_ACT_STORE) {
                unsigned i;
                memset(&it, 0, sizeof it);
                it.due = t + o->l2_lat / 2;
                it.addr = h.addr;
                it.cu = k;
                it.kind = L2_PERF;
                for (i = 0; i < VSYS_POOL; i++)
                    if (c->out_used[i] && c->out_addr[i] == h.addr)
                        it.value = c->out_val[i];
                err |= q_push(&s->l2, &it);
            } else if ((ev == STC_L1_EV_LOAD || ev == STC_L1_EV_LOAD_U) && act == STC_L1_ACT_HIT) {
                unsigned w = mem_idx(s, h.addr) % 4;
                fprintf(s->log, "%" PRIu64 " HIT %u 0x%" PRIx64 " %" PRIu32 "\n", t, k, h.addr,
                        c->lcopy[li][w]);
                s->r->hits++;
            } else if (act == STC_L1_ACT_LOAD || act == STC_L1_ACT_LOAD_U) {
                memset(&it, 0, sizeof it);
                it.due = t + o->l2_lat / 2;
                it.addr = h.addr;
                it.cu = k;
                it.kind = L2_RDF;
                err |= q_push(&s->l2, &it);
            } else if ((ev == STC_L1_EV_DATA || ev == STC_L1_EV_DATA_E) && to == STC_L1_V) {
                fprintf(s->log, "%" PRIu64 " FILL %u 0x%" PRIx64 "\n", t, k, la);
                memcpy(c->lcopy[li], c->lfill[li], sizeof c->lcopy[li]);
                c->lvalid[li] = 1;
                s->r->fills++;
            }
            break;
        default:
            s->r->l1_errs++;
            break;
        }
    }
    return err;
}

/* The inputs of every block from the state at the start of the cycle;
 * rdy_draw: the L2 side's ready of every CU this cycle. */
static void drive_inputs(vsys *s, unsigned *rdy_draw)
{
    const vsys_opts *o = s->o;
    uint64_t t = s->t, allk = (s->k >= 64 ? ~0ULL : (1ULL << s->k) - 1);
    int live = t >= VSYS_RESET;
    unsigned k;
    cmp_block *e = s->emu;

    e->in[0] = (uint64_t)live;
    cmp_set(e, s->ep[EP_TMR_EN_I], 1);
    cmp_set(e, s->ep[EP_WAKE_I], 0);
    cmp_set(e, s->ep[EP_DACK_READY_I], 1);
    cmp_set(e, s->ep[EP_PREP_READY_I], allk);
    cmp_set(e, s->ep[EP_CHG_READY_I], allk);
    for (k = 0; k < s->k; k++) {
        vcu *c = &s->c[k];
        cmp_block *b = s->cu[k];
        item *d = q_due(&c->dem, t), *cf = q_due(&c->conf, t), *p, *ch;
        cmp_set_bits(e, s->ep[EP_DEM_VALID_I], k, 1, d != NULL);
        cmp_set_bits(e, s->ep[EP_DEM_ADDR_I], k * s->a, s->a, d ? d->addr : 0);
        cmp_set_bits(e, s->ep[EP_CONF_VALID_I], k, 1, cf != NULL);
        cmp_set_bits(e, s->ep[EP_CONF_ADDR_I], k * s->a, s->a, cf ? cf->addr : 0);
        cmp_set_bits(e, s->ep[EP_RDY_VALID_I], k, 1, q_due(&c->rdy, t) != NULL);
        cmp_set_bits(e, s->ep[EP_DONE_VALID_I], k, 1, q_due(&c->done, t) != NULL);
        rdy_draw[k] = (unsigned)(cohkit_unit_rnd(&s->rng) & 3) != 0; /* the L2 side takes 3 of 4 */
        b->in[0] = (uint64_t)live;
        cmp_set(b, s->cp[CP_ST_VALID_I], c->st_v);
        cmp_set(b, s->cp[CP_ST_ADDR_I], c->st_v ? c->st_a : 0);
        cmp_set(b, s->cp[CP_ISS_READY_I], rdy_draw[k]);
        cmp_set(b, s->cp[CP_WA_I], q_due(&c->wa, t) != NULL);
        cmp_set(b, s->cp[CP_LD_VALID_I], c->ld_v);
        cmp_set(b, s->cp[CP_LD_ADDR_I], c->ld_v ? c->ld_a : 0);
        cmp_set(b, s->cp[CP_LDR_READY_I], 1);
        cmp_set(b, s->cp[CP_DEM_READY_I], 1);
        cmp_set(b, s->cp[CP_CONF_READY_I], 1);
        p = q_due(&c->prep, t);
        cmp_set(b, s->cp[CP_PREP_VALID_I], p != NULL);
        cmp_set(b, s->cp[CP_RDY_READY_I], 1);
        ch = q_due(&c->chg, t);
        cmp_set(b, s->cp[CP_CHG_VALID_I], ch != NULL);
        cmp_set(b, s->cp[CP_CHG_CER_I], ch ? ch->addr : 0);
        cmp_set(b, s->cp[CP_CHG_SEB_I], ch ? ch->value : 0);
        cmp_set(b, s->cp[CP_DONE_READY_I], 1);
        if (o->l1) {
            cmp_block *l = s->l1[k];
            item *lc = q_due(&c->l1chg, t), *rq = q_due(&c->req, t);
            l->in[0] = (uint64_t)live;
            /* a ChangeEpoch waiting at the L1 holds new requests back (it is
             * taken only with the pipeline empty) */
            cmp_set(l, s->lp[LP_REQ_VALID_I], rq != NULL && lc == NULL);
            cmp_set(l, s->lp[LP_REQ_OP_I], rq && lc == NULL ? rq->kind : 0);
            cmp_set(l, s->lp[LP_REQ_ADDR_I], rq && lc == NULL ? rq->addr : 0);
            cmp_set(l, s->lp[LP_CHG_VALID_I], lc != NULL);
            cmp_set(l, s->lp[LP_CHG_CER_I], lc ? lc->addr : 0);
            cmp_set(l, s->lp[LP_CHG_SEB_I], lc ? lc->value : 0);
            cmp_set(l, s->lp[LP_EV_READY_I], 1);
        }
    }
}

/* The L2: stores perform and loads read at half the round trip. -1 out of
 * memory. */
static int l2_cycle(vsys *s)
{
    const vsys_opts *o = s->o;
    uint64_t t = s->t;
    item it, lv, *l = &lv;
    int err = 0;
    while (q_take_due(&s->l2, t, &lv)) {
        unsigned i = mem_idx(s, l->addr);
        if (l->kind == L2_PERF) {
            s->mem[i] = l->value;
            fprintf(s->log, "%" PRIu64 " PERF %u 0x%" PRIx64 " %" PRIu32 "\n", t, l->cu,
                    l->addr, l->value);
            memset(&it, 0, sizeof it);
            it.due = t + o->l2_lat - o->l2_lat / 2;
            it.addr = l->addr;
            if (o->l1) { /* the write ack goes through the L1 (PW) */
                it.cu = l->cu;
                it.kind = L2_WA;
                err |= q_push(&s->l2, &it);
            } else {
                err |= q_push(&s->c[l->cu].wa, &it);
            }
        } else if (l->kind == L2_WA || l->kind == L2_DATA) {
            memset(&it, 0, sizeof it);
            it.addr = l->addr;
            it.kind = l->kind == L2_WA ? RQ_WA : RQ_DATA;
            err |= q_push(&s->c[l->cu].req, &it);
        } else if (l->kind == L2_RDF) { /* a fill: the whole line as read now */
            unsigned j, li = i / 4;
            fprintf(s->log, "%" PRIu64 " RD %u 0x%" PRIx64 " %" PRIu32 "\n", t, l->cu,
                    l->addr, s->mem[i]);
            for (j = 0; j < 4; j++)
                s->c[l->cu].lfill[li][j] = s->mem[li * 4 + j];
            memset(&it, 0, sizeof it);
            it.due = t + o->l2_lat - o->l2_lat / 2 +
                     ((int)l->cu == o->slow_cu ? o->slow_d : 0);
            it.addr = l->addr >> s->lbits << s->lbits;
            it.cu = l->cu;
            it.kind = L2_DATA;
            err |= q_push(&s->l2, &it);
        } else {
            fprintf(s->log, "%" PRIu64 " RD %u 0x%" PRIx64 " %" PRIu32 "\n", t, l->cu,
                    l->addr, s->mem[i]);
        }
    }
    return err;
}

/* The write acks taken this cycle. */
static void wa_cycle(vsys *s)
{
    uint64_t t = s->t;
    unsigned k;
    for (k = 0; k < s->k; k++) {
        item *w = q_due(&s->c[k].wa, t);
        if (w) {
            uint32_t v;
            fprintf(s->log, "%" PRIu64 " WA %u 0x%" PRIx64 "\n", t, k, w->addr);
            cu_out_del(&s->c[k], w->addr, &v);
            q_pop(&s->c[k].wa);
        }
    }
}

/* The EMU's outputs: sleeps, PrepareEpoch, ChangeEpoch, the end of a
 * transition. -1 out of memory. */
static int emu_cycle(vsys *s, char *buf, size_t len)
{
    const vsys_opts *o = s->o;
    const cmp_block *e = s->emu;
    uint64_t t = s->t;
    unsigned k, ph;
    item it;
    int err = 0;
    if (cmp_get(e, s->ep[EP_SLEEP_O])) {
        fprintf(s->log, "%" PRIu64 " SLEEP\n", t);
        s->r->sleeps++;
    }
    if (cmp_get(e, s->ep[EP_PREP_VALID_O])) {
        fprintf(s->log, "%" PRIu64 " PREP\n", t);
        memset(&it, 0, sizeof it);
        it.due = t + o->msg_lat;
        for (k = 0; k < s->k; k++)
            err |= q_push(&s->c[k].prep, &it);
    }
    if (cmp_get(e, s->ep[EP_CHG_VALID_O])) {
        uint64_t set = cmp_get(e, s->ep[EP_CHG_EPOCHS_O]);
        unsigned seb = (unsigned)cmp_get(e, s->ep[EP_CHG_SEB_O]);
        fmt_set(s, set, (unsigned)cmp_get(e, s->ep[EP_PTR_O]), buf, len);
        fprintf(s->log, "%" PRIu64 " CHG %s %u\n", t, buf, seb);
        s->r->transitions++;
        memset(&it, 0, sizeof it);
        it.due = t + o->msg_lat;
        it.addr = set;
        it.value = seb;
        for (k = 0; k < s->k; k++)
            err |= q_push(o->l1 ? &s->c[k].l1chg : &s->c[k].chg, &it);
    }
    ph = (unsigned)cmp_get(e, s->ep[EP_PHASE_O]);
    if (s->last_phase == 2 && ph == 0) {
        unsigned seb = (unsigned)cmp_get(e, s->ep[EP_SEB_O]);
        fmt_set(s, cmp_get(e, s->ep[EP_CUR_O]), (unsigned)cmp_get(e, s->ep[EP_PTR_O]), buf, len);
        fprintf(s->log, "%" PRIu64 " END %s %u\n", t, buf, seb);
        if (seb != s->r->final_seb)
            s->r->seb_changes++;
        s->r->final_seb = seb;
    }
    s->last_phase = ph;
    return err;
}

/* CU k's handshakes with the EMU, the stimulus, the L2 or its L1. -1 out
 * of memory. */
static int cu_cycle(vsys *s, unsigned k, const unsigned *rdy_draw, char *buf, size_t len)
{
    const vsys_opts *o = s->o;
    const cmp_block *e = s->emu;
    uint64_t t = s->t;
    item it;
    int err = 0;
    vcu *c = &s->c[k];
    cmp_block *b = s->cu[k];
    item *x;
    if (cmp_get_bits(e, s->ep[EP_DEM_READY_O], k, 1) && q_due(&c->dem, t))
        q_pop(&c->dem);
    if (cmp_get_bits(e, s->ep[EP_CONF_READY_O], k, 1) && q_due(&c->conf, t))
        q_pop(&c->conf);
    if (cmp_get_bits(e, s->ep[EP_RDY_READY_O], k, 1) && q_due(&c->rdy, t))
        q_pop(&c->rdy);
    if (cmp_get_bits(e, s->ep[EP_DONE_READY_O], k, 1) && q_due(&c->done, t))
        q_pop(&c->done);
    if ((x = q_due(&c->prep, t)) != NULL && cmp_get(b, s->cp[CP_PREP_READY_O]))
        q_pop(&c->prep);
    if ((x = q_due(&c->chg, t)) != NULL && cmp_get(b, s->cp[CP_CHG_READY_O])) {
        if (!o->l1) { /* with the L1: when the L1 takes it */
            fmt_set(s, x->addr, (unsigned)cmp_get(e, s->ep[EP_PTR_O]), buf, len);
            fprintf(s->log, "%" PRIu64 " CER %u %s %u\n", t, k, buf, x->value);
        }
        q_pop(&c->chg);
    }
    if (cmp_get(b, s->cp[CP_RDY_VALID_O])) {
        fprintf(s->log, "%" PRIu64 " READY %u\n", t, k);
        memset(&it, 0, sizeof it);
        it.due = t + o->msg_lat;
        err |= q_push(&c->rdy, &it);
    }
    if (cmp_get(b, s->cp[CP_DONE_VALID_O])) {
        fprintf(s->log, "%" PRIu64 " DONE %u\n", t, k);
        memset(&it, 0, sizeof it);
        it.due = t + o->msg_lat;
        err |= q_push(&c->done, &it);
    }
    if (c->st_v && cmp_get(b, s->cp[CP_ST_READY_O])) {
        if (cmp_get(b, s->cp[CP_ST_BLOCKED_O])) {
            fprintf(s->log, "%" PRIu64 " BLK %u 0x%" PRIx64 "\n", t, k, c->st_a);
            s->r->blocked++;
        }
        cu_out_add(c, c->st_a, ++s->next_val);
        s->r->stores++;
        c->st_v = 0;
    }
    if (cmp_get(b, s->cp[CP_ISS_VALID_O]) && rdy_draw[k]) {
        uint64_t a = cmp_get(b, s->cp[CP_ISS_ADDR_O]);
        unsigned i;
        fprintf(s->log, "%" PRIu64 " ISS %u 0x%" PRIx64 "\n", t, k, a);
        s->r->issued++;
        s->r->drained += cmp_get(b, s->cp[CP_ISS_DRAIN_O]) != 0;
        memset(&it, 0, sizeof it);
        if (o->l1) {
            it.addr = a;
            it.kind = RQ_ST;
            err |= q_push(&c->req, &it);
            goto issued;
        }
        it.due = t + o->l2_lat / 2;
        it.addr = a;
        it.cu = k;
        it.kind = L2_PERF;
        for (i = 0; i < VSYS_POOL; i++)
            if (c->out_used[i] && c->out_addr[i] == a)
                it.value = c->out_val[i];
        err |= q_push(&s->l2, &it);
    }
issued:
    if (c->ld_v && cmp_get(b, s->cp[CP_LD_READY_O])) {
        c->ld_v = 0;
        c->ld_in++;
        s->r->loads++;
    }
    if (cmp_get(b, s->cp[CP_LDR_VALID_O])) {
        c->ld_in--;
        memset(&it, 0, sizeof it);
        it.due = t + o->l2_lat / 2;
        it.addr = cmp_get(b, s->cp[CP_LDR_ADDR_O]);
        it.cu = k;
        it.kind = L2_RD;
        if (o->l1) {
            it.due = 0;
            it.kind = RQ_LD;
            err |= q_push(&c->req, &it);
        } else {
            err |= q_push(&s->l2, &it);
        }
    }
    if (cmp_get(b, s->cp[CP_DEM_VALID_O])) {
        memset(&it, 0, sizeof it);
        it.due = t + o->msg_lat;
        it.addr = cmp_get(b, s->cp[CP_DEM_ADDR_O]);
        err |= q_push(&c->dem, &it);
        s->r->demands++;
    }
    if (cmp_get(b, s->cp[CP_CONF_VALID_O])) {
        memset(&it, 0, sizeof it);
        it.due = t + o->msg_lat;
        it.addr = cmp_get(b, s->cp[CP_CONF_ADDR_O]);
        err |= q_push(&c->conf, &it);
        s->r->conflicts++;
    }
    return err;
}

/* One cycle. -1 out of memory. */
static int cycle(vsys *s)
{
    unsigned k, rdy_draw[VSYS_CUS_MAX];
    char buf[1100];
    int err = 0, live = s->t >= VSYS_RESET;
    drive_inputs(s, rdy_draw);
    cmp_sys_eval(&s->cs);
    if (live) {
        err |= l2_cycle(s);
        wa_cycle(s);
        err |= emu_cycle(s, buf, sizeof buf);
        for (k = 0; k < s->k; k++)
            err |= cu_cycle(s, k, rdy_draw, buf, sizeof buf);
    }
    if (live && s->o->l1)
        for (k = 0; k < s->k; k++)
            err |= l1_cycle(s, k, buf, sizeof buf);
    cmp_sys_step(&s->cs);
    if (live)
        stimulus(s);
    s->t++;
    return err ? -1 : 0;
}

/* ------------------------------------------------------------ system -- */

/* The queues of CU c into qs (VCU_QUEUES of them). */
#define VCU_QUEUES 10
static void vcu_queues(vcu *c, queue **qs)
{
    queue *all[VCU_QUEUES] = {&c->req, &c->infl, &c->l1chg, &c->dem, &c->conf,
                              &c->rdy, &c->done, &c->prep, &c->chg, &c->wa};
    memcpy(qs, all, sizeof all);
}

static void vsys_free(vsys *s)
{
    unsigned k;
    if (s == NULL)
        return;
    if (s->log)
        fclose(s->log);
    free(s->logbuf);
    cmp_sys_free(&s->cs);
    for (k = 0; k < VSYS_CUS_MAX; k++) {
        queue *qs[VCU_QUEUES];
        unsigned j;
        vcu_queues(&s->c[k], qs);
        for (j = 0; j < VCU_QUEUES; j++)
            cmp_fifo_free(qs[j]);
    }
    cmp_fifo_free(&s->l2);
    if (s->r == &s->own)
        vsys_res_free(&s->own);
    free(s);
}

static void queues_init(vsys *s)
{
    unsigned k, j;
    for (k = 0; k < VSYS_CUS_MAX; k++) {
        queue *qs[VCU_QUEUES];
        vcu_queues(&s->c[k], qs);
        for (j = 0; j < VCU_QUEUES; j++)
            cmp_fifo_init(qs[j], sizeof(item));
    }
    cmp_fifo_init(&s->l2, sizeof(item));
}

/* The substituted units of o->rtl on the backend of s. */
static void rtl_units(cmp_rtl *r, const dut_ops *const *duts, unsigned rtl)
{
    cmp_rtl_init(r, duts, NULL);
    r->all = 0;
    r->check_cfg = 0;
    if (rtl & VSYS_RTL_EMU)
        cmp_rtl_add(r, "stc-emu");
    if (rtl & VSYS_RTL_CU)
        cmp_rtl_add(r, "stc-cu");
    if (rtl & VSYS_RTL_L1)
        cmp_rtl_add(r, "stc-l1");
}

/* The blocks (emu, cu0.., l1_0..) and their port handles. */
static int open_blocks(vsys *s, char *err, size_t len)
{
    const vsys_opts *o = s->o;
    const stc_emu_cfg *ec;
    char name[16];
    unsigned k;
    if ((s->emu = cmp_sys_add(&s->cs, "stc-emu", "emu", o->preset, NULL, 1, err, len)) == NULL ||
        cmp_ports_bind(s->emu, emu_ports, s->ep, err, len) != 0)
        return -1;
    ec = s->emu->cfg;
    s->k = ec->cus;
    s->n = ec->n;
    s->a = ec->addr_bits;
    s->r->final_seb = ec->seb;
    if (s->k > VSYS_CUS_MAX || s->n > 6 || s->a > 32 || o->msg_lat == 0 || o->l2_lat < 2) {
        snprintf(err, len, "configuration outside the system (CUs <= 32, N <= 6, 32-bit "
                 "addresses, --msg-lat >= 1, --l2-lat >= 2)");
        return -1;
    }
    for (k = 0; k < s->k; k++) {
        snprintf(name, sizeof name, "cu%u", k);
        if ((s->cu[k] = cmp_sys_add(&s->cs, "stc-cu", name, o->preset, NULL, k + 2, err, len)) ==
                NULL ||
            cmp_ports_bind(s->cu[k], cu_ports, s->cp, err, len) != 0)
            return -1;
    }
    for (k = 0; o->l1 && k < s->k; k++) {
        snprintf(name, sizeof name, "l1_%u", k);
        if ((s->l1[k] = cmp_sys_add(&s->cs, "stc-l1", name, o->preset, o->l1_opts, k + 40, err,
                                    len)) == NULL ||
            cmp_ports_bind(s->l1[k], l1_ports, s->lp, err, len) != 0)
            return -1;
        for (s->lbits = 0; (1u << s->lbits) < ((const stc_l1_cfg *)s->l1[k]->cfg)->line;)
            s->lbits++;
        if (s->lbits < 4 || s->lbits > 6) {
            snprintf(err, len, "the L1 line must hold 16..64 bytes (4 pool words)");
            return -1;
        }
    }
    return 0;
}

/* --fault: the block's output port forced from fault_from on. */
static int set_fault(vsys *s, char *err, size_t len)
{
    const vsys_opts *o = s->o;
    cmp_block *fb = cmp_sys_find(&s->cs, o->fault_blk);
    if (fb == NULL) {
        snprintf(err, len, "--fault: no block '%s' (emu, cu0..cu%u)", o->fault_blk, s->k - 1);
        return -1;
    }
    if (cmp_block_force(fb, o->fault_port, ~0ull, o->fault_val, o->fault_from, err, len) != 0) {
        snprintf(err, len, "--fault: %s has no output port '%s'", o->fault_blk, o->fault_port);
        return -1;
    }
    return 0;
}

/* The stimulus: operations per CU, the address pools, the seed; the log
 * starts with the pool's initial values. */
static int stim_setup(vsys *s, char *err, size_t len)
{
    const vsys_opts *o = s->o;
    const stc_emu_cfg *ec = s->emu->cfg;
    unsigned k, i;
    for (k = 0; k < s->k; k++) {
        s->c[k].ops_left = o->ops;
        if (o->script) {
            s->c[k].ops_left = 0;
            for (i = 0; i < o->n_script; i++)
                s->c[k].ops_left += o->script[i].cu == k;
        }
    }
    /* written words: bands 0..3 at the initial SEB, two rows above the band
     * field (conflicts that move SEB up), four words each; read-only: bands
     * 5 and 6 (their words are 0 forever) */
    for (i = 0; i < VSYS_POOL; i++)
        s->pool[i] = s->rpool[i] = ((uint64_t)(i / 8) << ec->seb) |
                                   ((uint64_t)((i / 4) & 1) << (ec->seb + s->n)) | (i % 4) * 4;
    for (i = VSYS_POOL; i < VSYS_RPOOL; i++)
        s->rpool[i] = ((uint64_t)(5 + (i - VSYS_POOL) / 8) << ec->seb) | ((i - VSYS_POOL) % 8) * 4;
    s->rng = o->seed * 0x9E3779B97F4A7C15ULL + 1;
    s->log = open_memstream(&s->logbuf, &s->logn);
    if (s->log == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    for (i = 0; i < VSYS_RPOOL; i++)
        fprintf(s->log, "0 INIT 0x%" PRIx64 " 0\n", s->rpool[i]);
    return 0;
}

/* A system of o on backend be (NULL: the units of o->rtl from duts) with
 * its results in r (NULL: its own). NULL with a reason. */
static vsys *vsys_new(const vsys_opts *o, const dut_ops *const *duts, const cmp_backend *be,
                      vsys_res *r, char *err, size_t len)
{
    vsys *s = calloc(1, sizeof *s);
    cmp_backend own;
    if (s == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    s->o = o;
    s->r = r ? r : &s->own;
    memset(s->r, 0, sizeof *s->r);
    queues_init(s);
    if (be == NULL) {
        rtl_units(&s->rtl, duts, o->rtl);
        own = cmp_rtl_backend(&s->rtl);
        be = &own;
    }
    cmp_sys_init(&s->cs, be);
    if ((o->rtl & VSYS_RTL_L1) && o->l1_opts && *o->l1_opts) {
        snprintf(err, len, "stc-l1: options beyond the preset ('%s') apply to timing shells only",
                 o->l1_opts);
        vsys_free(s);
        return NULL;
    }
    if (open_blocks(s, err, len) != 0 ||
        (o->fault_blk && o->fault_port && set_fault(s, err, len) != 0) ||
        stim_setup(s, err, len) != 0) {
        vsys_free(s);
        return NULL;
    }
    return s;
}

/* One cycle; 1 when the system is quiet, or at max_cycles (timeout), 0
 * otherwise, -1 out of memory. */
static int vsys_step(vsys *s)
{
    if (cycle(s) != 0)
        return -1;
    if (s->t > VSYS_RESET + 1 && quiet(s))
        return 1;
    if (s->t >= s->o->max_cycles) {
        s->r->timeout = 1;
        return 1;
    }
    return 0;
}

/* The checker's configuration: the EMU's. */
static void check_cfg(const vsys *s, stc_chk_cfg *cc)
{
    const stc_emu_cfg *ec = s->emu->cfg;
    stc_chk_cfg_default(cc);
    cc->cus = s->k;
    cc->n = s->n;
    cc->seb = ec->seb;
    cc->addr_bits = s->a;
    cc->guard = ec->seb_guard;
    cc->variant = (stc_chk_variant)ec->variant;
    stc_eset_of(&ec->epoch, &cc->epoch);
}

/* The verdict: the separate checker on the log text. 0, or -1. */
static int vsys_finish(vsys *s, char *err, size_t len)
{
    vsys_res *r = s->r;
    char *chkbuf = NULL, why[200];
    size_t chkn = 0;
    const char *p;
    stc_chk_cfg cc;
    FILE *in, *ck, *er;
    int rc;
    r->cycles = s->t;
    fclose(s->log);
    s->log = NULL;
    check_cfg(s, &cc);
    in = fmemopen(s->logbuf, s->logn, "r");
    ck = open_memstream(&chkbuf, &chkn);
    er = tmpfile();
    /* 0 PASS, 1 FAIL (VIOL lines counted below), 2 the log does not parse */
    rc = in && ck && er ? stc_check_run(&cc, in, "system log", ck, er) : -1;
    why[0] = '\0';
    if (rc == 2) {
        rewind(er);
        if (fgets(why, sizeof why, er) == NULL)
            why[0] = '\0';
        why[strcspn(why, "\n")] = '\0';
    }
    if (in)
        fclose(in);
    if (ck)
        fclose(ck);
    if (er)
        fclose(er);
    if (rc < 0 || rc == 2) {
        free(chkbuf);
        if (rc < 0)
            snprintf(err, len, "out of memory");
        else
            snprintf(err, len, "the log does not parse: %s", why);
        return -1;
    }
    for (p = chkbuf; (p = strstr(p, "VIOL ")) != NULL; p++)
        r->viol++;
    r->viol += (size_t)r->timeout; /* the run did not finish */
    r->viol += (size_t)r->l1_errs; /* an L1 event the composition cannot place */
    r->log = s->logbuf;
    r->check = chkbuf;
    s->logbuf = NULL;
    return 0;
}

int vsys_run(const vsys_opts *o, const dut_ops *const *duts, vsys_res *r, char *err, size_t len)
{
    vsys *s = vsys_new(o, duts, NULL, r, err, len);
    int rc;
    if (s == NULL)
        return -1;
    while ((rc = vsys_step(s)) == 0)
        ;
    if (rc < 0)
        snprintf(err, len, "out of memory");
    rc = rc < 0 ? -1 : vsys_finish(s, err, len);
    vsys_free(s);
    return rc;
}

/* ------------------------------------------------- the port lockstep -- */

/* The lockstep runs the system twice: the reference on timing shells
 * without the fault, and the system of the options. */
typedef struct {
    vsys_opts ref, sub;
    const dut_ops *const *duts;
} lk_arg;

static void *lk_make(void *arg, const cmp_backend *be, char *err, size_t len)
{
    const lk_arg *a = arg;
    return vsys_new(be ? &a->sub : &a->ref, a->duts, be, NULL, err, len);
}
static int lk_cycle(void *s) { return vsys_step(s) != 0; }
static int lk_stuck(void *s)
{
    (void)s;
    return 0;
}
static const cmp_sys *lk_blocks(const void *s) { return &((const vsys *)s)->cs; }
static int lk_in_reset(const void *s) { return ((const vsys *)s)->t <= VSYS_RESET; }
static void lk_free(void *s) { vsys_free(s); }
static const cmp_family lk_family = {lk_make, lk_cycle, lk_stuck, lk_blocks, lk_in_reset, lk_free};

int vsys_lockstep(const vsys_opts *o, const dut_ops *const *duts, uint64_t *cycles, char *msg,
                  size_t len)
{
    lk_arg a;
    cmp_lockstep_opts lo;
    cmp_lockstep_res lr;
    int rc;
    a.ref = a.sub = *o;
    a.ref.rtl = 0;
    a.ref.fault_blk = a.ref.fault_port = NULL;
    a.duts = duts;
    cmp_lockstep_defaults(&lo);
    rtl_units(&lo.rtl, duts, o->rtl);
    lo.la = "shells' system";
    lo.lb = "this one";
    if (cmp_lockstep(&lk_family, &a, &lo, &lr) != 0) {
        snprintf(msg, len, "%s", lr.msg);
        return -1;
    }
    *cycles = lr.cycles;
    rc = lr.mismatch;
    if (rc)
        snprintf(msg, len, "%s", lr.msg);
    cmp_lockstep_free(&lk_family, &lr);
    return rc;
}

/* ------------------------------------------------------ ./tb_stc hook -- */

static const char *const vsys_rules[] = {"ER1", "ER2",      "ER3",      "sweep", "stale",
                                         "handshake", "progress", "L2", "hit", NULL};

static const char *const stage_names[] = {"shells",    "EMU RTL",       "CU RTL",
                                          "EMU+CU RTL", "L1 RTL", "EMU+CU+L1 RTL"};

/* First line where two logs differ (1-based), 0 when equal. */
static unsigned log_diff(const char *a, const char *b)
{
    unsigned line = 1;
    for (; *a && *a == *b; a++, b++)
        line += *a == '\n';
    return *a == *b ? 0 : line;
}

static void print_res(const char *lead, const vsys_res *r, const char *same)
{
    unsigned i;
    const char *p;
    printf("%s: cycles=%" PRIu64 " stores=%" PRIu64 " loads=%" PRIu64 " issued=%" PRIu64
           " blocked=%" PRIu64 " drained=%" PRIu64 " demands=%" PRIu64 " conflicts=%" PRIu64
           " transitions=%" PRIu64 " sleeps=%" PRIu64 " seb_changes=%" PRIu64 " final_seb=%u%s\n",
           lead, r->cycles, r->stores, r->loads, r->issued, r->blocked, r->drained, r->demands,
           r->conflicts, r->transitions, r->sleeps, r->seb_changes, r->final_seb, same);
    if (r->hits + r->fills + r->invs + r->stalls + r->l1_errs)
        printf("%s: l1 hits=%" PRIu64 " fills=%" PRIu64 " invs=%" PRIu64 " stalls=%" PRIu64
               " unplaced_events=%" PRIu64 "\n",
               lead, r->hits, r->fills, r->invs, r->stalls, r->l1_errs);
    printf("%s: rules", lead);
    for (i = 0; vsys_rules[i]; i++) {
        char key[32];
        unsigned n = 0;
        snprintf(key, sizeof key, "VIOL %s ", vsys_rules[i]);
        for (p = r->check; (p = strstr(p, key)) != NULL; p++)
            n++;
        printf(" %s=%u", vsys_rules[i], n);
    }
    printf(" timeout=%d\n", r->timeout);
    for (i = 0, p = r->check; p && *p && i < 5; i++) { /* the first VIOL lines */
        const char *nl = strchr(p, '\n');
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        if (strncmp(p, "VIOL", 4) == 0)
            printf("%s:   %.*s\n", lead, n, p);
        p += n + (nl != NULL);
    }
    printf("%s: RESULT %s\n", lead, r->viol ? "FAIL" : "PASS");
}

static int vbad(const char *fmt, const char *v) { return ls_bad_arg("tb_stc", fmt, v); }

static int vnum(const char *s, unsigned long long *v) { return ls_num_arg(s, v); }

/* The staged runs: shells, then each unit kind Verilated, then all; every
 * log checked, and every log compared with the shells'. 0 PASS, 1 FAIL, 2. */
static int run_system(const vsys_opts *base, const dut_ops *const *duts, int stage,
                      const char *log_path)
{
    vsys_res ref, r;
    vsys_opts o = *base;
    char err[300];
    int fail = 0, s;
    unsigned rtls[6] = {0,           VSYS_RTL_EMU, VSYS_RTL_CU, VSYS_RTL_EMU | VSYS_RTL_CU,
                        VSYS_RTL_L1, VSYS_RTL_EMU | VSYS_RTL_CU | VSYS_RTL_L1};
    /* without the L1: shells, EMU, CU, both; with it: shells, EMU, CU, L1,
     * all three */
    static const int order0[] = {0, 1, 2, 3, -1}, order1[] = {0, 1, 2, 4, 5, -1};
    const int *order = base->l1 ? order1 : order0;
    int j;
    o.rtl = 0;
    {
        vsys_opts c = o; /* the reference: shells, no fault */
        c.fault_blk = c.fault_port = NULL;
        if (vsys_run(&c, duts, &ref, err, sizeof err) != 0)
            return vbad("system: %s", err);
    }
    for (j = 0; order[j] >= 0; j++) {
        char lead[64], same[80];
        unsigned d;
        s = order[j];
        if (stage >= 0 && s != stage)
            continue;
        o.rtl = rtls[s];
        if (vsys_run(&o, duts, &r, err, sizeof err) != 0) {
            vsys_res_free(&ref);
            return vbad("system: %s", err);
        }
        d = log_diff(ref.log, r.log);
        if (d)
            snprintf(same, sizeof same, " log DIFFERS from the shells' at line %u", d);
        else
            snprintf(same, sizeof same, s ? " log = shells'" : "");
        snprintf(lead, sizeof lead, "system %s%s %s", o.preset, o.l1 ? "+l1" : "",
                 stage_names[s]);
        print_res(lead, &r, same);
        fail |= r.viol != 0 || d != 0 || r.timeout;
        if (s) { /* and every port of every block, every cycle */
            uint64_t n;
            int lr = vsys_lockstep(&o, duts, &n, err, sizeof err);
            if (lr < 0) {
                vsys_res_free(&r);
                vsys_res_free(&ref);
                return vbad("system: %s", err);
            }
            if (lr == 0)
                printf("%s: ports = shells' in all %" PRIu64 " cycles\n", lead, n);
            else
                printf("%s: %s\n", lead, err);
            fail |= lr != 0;
        }
        if (log_path && (stage >= 0 || order[j + 1] < 0)) {
            FILE *f = fopen(log_path, "w");
            if (f == NULL) {
                vsys_res_free(&r);
                vsys_res_free(&ref);
                return vbad("--log: cannot write '%s'", log_path);
            }
            fputs(r.log, f);
            fclose(f);
        }
        vsys_res_free(&r);
    }
    vsys_res_free(&ref);
    return fail;
}

/* What ./tb_stc runs. */
typedef struct {
    vsys_opts o;
    unsigned long long seed, cycles;
    int stage;
    const char *log_path;
    char fblk[32], fport[64];
} stc_args;

/* --fault B:P:V[@C]. 0, or 2 after the message. */
static int parse_fault(stc_args *x, const char *val)
{
    unsigned long long v;
    const char *at;
    char num[32];
    if (cmp_spec_split(val, x->fblk, sizeof x->fblk, x->fport, sizeof x->fport, num, sizeof num,
                       &at) != 0)
        return vbad("--fault: '%s' is not BLOCK:PORT:VALUE[@CYCLE]", val);
    if (vnum(num, &v) != 0)
        return vbad("--fault: '%s' has no numeric VALUE", val);
    x->o.fault_val = v;
    if (at && vnum(at, &v) != 0)
        return vbad("--fault: '%s' has no numeric CYCLE", val);
    x->o.fault_from = at ? v : 0;
    x->o.fault_blk = x->fblk;
    x->o.fault_port = x->fport;
    return 0;
}

/* --rtl R: the stage. 0, or 2. */
static int parse_stage(stc_args *x, const char *val)
{
    static const char *const names[] = {"none", "emu", "cu", "all", "l1", "staged"};
    static const int stages[] = {0, 1, 2, -2 /* with or without the L1 */, 4, -1};
    unsigned i;
    for (i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(val, names[i]) == 0) {
            x->stage = stages[i];
            return 0;
        }
    return vbad("--rtl: '%s' is not none, emu, cu, l1, all or staged", val);
}

/* --slow-cu C:D. 0, or 2. */
static int parse_slow(vsys_opts *o, const char *val)
{
    char *end;
    unsigned long c = strtoul(val, &end, 10), d;
    if (end == val || *end != ':' || end[1] == '\0' || end[1] == '-' || c >= VSYS_CUS_MAX)
        return vbad("--slow-cu: '%s' is not C:D (a CU and a delay)", val);
    d = strtoul(end + 1, &end, 10);
    if (*end || d > 100000)
        return vbad("--slow-cu: '%s' is not C:D (a CU and a delay)", val);
    o->slow_cu = (int)c;
    o->slow_d = (unsigned)d;
    return 0;
}

/* A numeric option lo..hi into *v. 0, or 2. */
static int parse_num(const char *a, const char *val, unsigned long long lo, unsigned long long hi,
                     const char *what, unsigned long long *v)
{
    char fmt[128];
    if (vnum(val, v) == 0 && *v >= lo && *v <= hi)
        return 0;
    snprintf(fmt, sizeof fmt, "%s: '%%s' is not %s", a, what);
    return vbad(fmt, val);
}

/* One option with its value. 0, or 2 after the message. */
static int parse_opt(stc_args *x, const char *a, const char *val)
{
    vsys_opts *o = &x->o;
    unsigned long long v;
    int rc = 0;
    if (strcmp(a, "--seed") == 0) {
        rc = parse_num(a, val, 0, ~0ull, "a non-negative integer", &x->seed);
        o->seed = x->seed;
    } else if (strcmp(a, "--cycles") == 0)
        rc = parse_num(a, val, 1, ~0ull, "a positive integer", &x->cycles);
    else if (strcmp(a, "--ops") == 0) {
        rc = parse_num(a, val, 1, 100000, "an operation count (1..100000)", &v);
        o->ops = (unsigned)v;
    } else if (strcmp(a, "--l2-lat") == 0) {
        rc = parse_num(a, val, 2, 10000, "a latency (2..10000)", &v);
        o->l2_lat = (unsigned)v;
    } else if (strcmp(a, "--msg-lat") == 0) {
        rc = parse_num(a, val, 1, 10000, "a latency (1..10000)", &v);
        o->msg_lat = (unsigned)v;
    } else if (strcmp(a, "--max-cycles") == 0) {
        rc = parse_num(a, val, 1, ~0ull, "a positive integer", &v);
        o->max_cycles = v;
    } else if (strcmp(a, "--sys-config") == 0) {
        if (strcmp(val, "fpga") != 0 && strcmp(val, "default") != 0)
            return vbad("--sys-config: '%s' is not fpga or default", val);
        o->preset = strcmp(val, "fpga") == 0 ? "fpga" : "default";
    } else if (strcmp(a, "--rtl") == 0)
        rc = parse_stage(x, val);
    else if (strcmp(a, "--fault") == 0)
        rc = parse_fault(x, val);
    else if (strcmp(a, "--slow-cu") == 0)
        rc = parse_slow(o, val);
    else if (strcmp(a, "--l1-opt") == 0)
        o->l1_opts = val;
    else if (strcmp(a, "--log") == 0)
        x->log_path = val;
    else
        return vbad("unknown option '%s' with --system (see --help)", a);
    return rc;
}

/* The options, then the checks between them. 0, or 2. */
static int parse_args(stc_args *x, int argc, char **argv)
{
    int i, rc;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--system") == 0)
            continue;
        if (strcmp(a, "--l1") == 0) {
            x->o.l1 = 1;
            continue;
        }
        if (val == NULL)
            return vbad("%s needs a value (see --help)", a);
        i++;
        if ((rc = parse_opt(x, a, val)) != 0)
            return rc;
    }
    if (x->log_path) { /* a bad path before any output */
        FILE *f = fopen(x->log_path, "w");
        if (f == NULL)
            return vbad("--log: cannot write '%s'", x->log_path);
        fclose(f);
    }
    if (x->stage == -2)
        x->stage = x->o.l1 ? 5 : 3;
    if (x->stage == 4 && !x->o.l1)
        return vbad("--rtl: '%s' needs --l1", "l1");
    if (x->o.l1_opts && (!x->o.l1 || x->stage < 0 || x->stage >= 4))
        return vbad("--l1-opt: '%s' needs --l1 and timing-shell L1s (--rtl none, emu or cu)",
                    x->o.l1_opts);
    return 0;
}

int stc_tb_hook(int argc, char **argv, int *handled, const dut_ops *const *duts,
                int (*run_unit)(int argc, char **argv))
{
    stc_args x;
    int mode = cmp_bench_mode(argc, argv, "--system"), all = mode == 1, fail = 0, rc;
    if (mode == 0)
        return 0;
    *handled = 1;
    memset(&x, 0, sizeof x);
    vsys_opts_default(&x.o);
    x.seed = 1;
    x.cycles = 200000;
    x.stage = -1;
    if ((rc = parse_args(&x, argc, argv)) != 0)
        return rc;
    if (all) {
        if ((fail = cmp_bench_units("stc", argv[0], x.cycles, x.seed, NULL, run_unit)) == 2)
            return 2;
        printf("== system (stc-emu, stc-cu per CU: timing shells, then Verilated)\n");
    }
    rc = run_system(&x.o, duts, x.stage, x.log_path);
    fflush(stdout);
    if (rc == 2)
        return 2;
    fail |= rc != 0;
    if (all) { /* and with the L1 between each CU and the L2 */
        x.o.l1 = 1;
        rc = run_system(&x.o, duts, -1, NULL);
        fflush(stdout);
        if (rc == 2)
            return 2;
        fail |= rc != 0;
    }
    printf("%s\n", fail ? "FAIL" : "PASS");
    return fail ? 1 : 0;
}

void stc_tb_help(FILE *f)
{
    fprintf(f,
            "without options: every unit of the family in lockstep (200000 cycles each, --cycles\n"
            "and --seed apply), then the system staged as with --system, then with --l1\n"
            "the system (docs/stc.md \"Verilated system\"; the system only):\n"
            "  --system         the EMU and the per-CU epoch logic (BSQ inline) at their ports,\n"
            "                   timing shells, then the Verilated EMU, the Verilated CUs, both;\n"
            "                   every event log checked by stc-check and compared with the\n"
            "                   shells' log, every port of every block with the shells' system\n"
            "  --l1             an L1 controller (stc-l1) between each CU and the L2\n"
            "  --rtl R          one stage: none, emu, cu, l1 (with --l1), all (default staged:\n"
            "                   shells, EMU, CU, [L1,] all)\n"
            "  --sys-config C   fpga (default, 2 CUs) or default (8 CUs)\n"
            "  --ops N          stores and loads per CU (default 400)\n"
            "  --l2-lat N       L2 round trip (default 20), --msg-lat N (default 2)\n"
            "  --max-cycles N   end the run there (default 100000)\n"
            "  --fault B:P:V[@C] force output port P of block B (emu, cu0, ..., l1_0, ...) to V\n"
            "                   from"
            " cycle C on (a broken unit; the checks must catch it)\n"
            "  --slow-cu C:D    load responses to CU C D cycles later (with --l1)\n"
            "  --l1-opt \"OPTS\"  more options of the L1 (timing shells only: --rtl none),\n"
            "                   e.g. \"--no-poison\" (specification S1)\n"
            "  --log FILE       write the event log of the last run (spec 7.4)\n"
            "  --seed N         stimulus seed (default 1)\n");
}
