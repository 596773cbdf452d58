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
    o->capture_blk = -1;
    o->slow_cu = -1;
}

void vsys_res_free(vsys_res *r)
{
    free(r->log);
    free(r->check);
    free(r->hash);
    r->log = r->check = NULL;
    r->hash = NULL;
}

/* ------------------------------------------------------------ blocks -- */

typedef struct {
    const unit_desc *u;
    void *cfg;
    unit_layout l;
    unsigned off[UNIT_PORTS_MAX];   /* word offset in in[] or out[]         */
    void *tm;                       /* shell                                */
    const dut_ops *d;               /* or RTL                               */
    void *h;
    uint64_t *in, *out;
    char name[16];
    int fault_port;                 /* port index forced, -1 none            */
} blk;

static int blk_open(blk *b, const char *unit, const char *preset, const char *extra, int rtl,
                    const dut_ops *const *duts, unsigned seed, char *err, size_t len)
{
    char args[300];
    unsigned wi = 1, wo = 0;
    int k;
    memset(b, 0, sizeof *b);
    b->fault_port = -1;
    b->u = unit_find(unit);
    if (b->u == NULL) {
        snprintf(err, len, "%s: not in the registry", unit);
        return -1;
    }
    b->cfg = calloc(1, b->u->cfg_size);
    if (b->cfg == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    snprintf(args, sizeof args, "--config %s %s", preset, extra ? extra : "");
    if (rtl && extra && *extra) {
        snprintf(err, len, "%s: options beyond the preset ('%s') apply to timing shells only",
                 unit, extra);
        return -1;
    }
    if (unit_cfg_parse_str(b->u, b->cfg, args, err, len) != 0 ||
        unit_layout_of(b->u, b->cfg, &b->l, err, len) != 0)
        return -1;
    for (k = 0; k < b->l.n; k++) {
        if (b->l.p[k].dir == PORT_IN) {
            b->off[k] = wi;
            wi += UNIT_WORDS(b->l.p[k].width);
        } else {
            b->off[k] = wo;
            wo += UNIT_WORDS(b->l.p[k].width);
        }
    }
    b->in = calloc(b->l.in_words + 1, sizeof *b->in);
    b->out = calloc(b->l.out_words + 1, sizeof *b->out);
    if (b->in == NULL || b->out == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    if (rtl) {
        void *cfg2;
        b->d = duts ? ls_dut_find(duts, b->u, preset) : NULL;
        if (b->d == NULL) {
            snprintf(err, len, "no Verilated %s_%s in this build", b->u->module_prefix, preset);
            return -1;
        }
        cfg2 = calloc(1, b->u->cfg_size);
        if (cfg2 == NULL || ls_dut_cfg(b->u, b->d, cfg2, err, len) != 0) {
            free(cfg2);
            return -1;
        }
        free(cfg2);
        if ((b->h = b->d->create(seed)) == NULL) {
            snprintf(err, len, "%s: cannot create", b->d->module);
            return -1;
        }
    } else if ((b->tm = b->u->tm_new(b->cfg)) == NULL) {
        snprintf(err, len, "%s: out of memory", b->u->name);
        return -1;
    }
    return 0;
}

static void blk_close(blk *b)
{
    if (b->h)
        b->d->destroy(b->h);
    if (b->tm)
        b->u->tm_free(b->tm);
    free(b->cfg);
    free(b->in);
    free(b->out);
    memset(b, 0, sizeof *b);
}

static int blk_port(const blk *b, const char *name)
{
    int k;
    for (k = 0; k < b->l.n; k++)
        if (strcmp(b->l.p[k].name, name) == 0)
            return k;
    fprintf(stderr, "stc_vsys: %s has no port %s\n", b->u->name, name);
    abort();
}

/* Field [lo, lo + w) of a port. */
static uint64_t pget(const blk *b, const char *name, unsigned lo, unsigned w)
{
    int k = blk_port(b, name);
    const uint64_t *base = (b->l.p[k].dir == PORT_IN ? b->in : b->out) + b->off[k];
    return stc_port_get(base, lo, w);
}
static uint64_t oget(const blk *b, const char *name) { return pget(b, name, 0, b->l.p[blk_port(b, name)].width > 64 ? 64 : b->l.p[blk_port(b, name)].width); }
static void pput(blk *b, const char *name, unsigned lo, unsigned w, uint64_t v)
{
    int k = blk_port(b, name);
    stc_port_put(b->in + b->off[k], lo, w, v);
}
static void iput(blk *b, const char *name, uint64_t v)
{
    unsigned w = b->l.p[blk_port(b, name)].width;
    pput(b, name, 0, w > 64 ? 64 : w, v);
}

static uint64_t iget_in(const blk *b, const char *name)
{
    unsigned w = b->l.p[blk_port(b, name)].width;
    return pget(b, name, 0, w > 64 ? 64 : w);
}

static void blk_eval(blk *b, uint64_t cyc, const vsys_opts *o)
{
    if (b->h)
        b->d->eval(b->h, b->in, b->out);
    else
        b->u->tm_eval(b->tm, b->in, b->out);
    if (b->fault_port >= 0 && cyc >= o->fault_from) {
        unsigned w = b->l.p[b->fault_port].width;
        stc_port_put(b->out + b->off[b->fault_port], 0, w > 64 ? 64 : w, o->fault_val);
    }
}

static void blk_step(blk *b)
{
    if (b->h)
        b->d->tick(b->h);
    else
        b->u->tm_step(b->tm, b->in);
}

/* ------------------------------------------------------------ queues -- */

typedef struct {
    uint64_t due, addr;
    uint32_t value;
    unsigned cu, kind;
} item;

typedef struct {
    item *v;
    size_t head, n, cap;
} queue;

static int q_push(queue *q, const item *it)
{
    if (q->head + q->n == q->cap) {
        if (q->head > 0) {
            memmove(q->v, q->v + q->head, q->n * sizeof *q->v);
            q->head = 0;
        } else {
            size_t nc = q->cap ? 2 * q->cap : 16;
            item *nv = realloc(q->v, nc * sizeof *nv);
            if (nv == NULL)
                return -1;
            q->v = nv;
            q->cap = nc;
        }
    }
    q->v[q->head + q->n++] = *it;
    return 0;
}
/* The head when it is due at cycle t, else NULL. */
static item *q_due(queue *q, uint64_t t) { return q->n && q->v[q->head].due <= t ? &q->v[q->head] : NULL; }
static void q_pop(queue *q) { q->head++, q->n--; }
/* The oldest item due at cycle t anywhere in the queue, taken out into *it
 * (the L2's responses are not in due order: --slow-cu). 1, or 0. */
static int q_take_due(queue *q, uint64_t t, item *it)
{
    size_t i;
    for (i = 0; i < q->n; i++)
        if (q->v[q->head + i].due <= t) {
            *it = q->v[q->head + i];
            memmove(&q->v[q->head + i], &q->v[q->head + i + 1], (q->n - i - 1) * sizeof *q->v);
            q->n--;
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
    blk emu, cu[VSYS_CUS_MAX], l1[VSYS_CUS_MAX];
    unsigned lbits;            /* log2(L1 line)                             */
    vcu c[VSYS_CUS_MAX];
    queue l2;                   /* PERF / RD events                         */
    uint64_t pool[VSYS_POOL], rpool[VSYS_RPOOL];
    uint32_t mem[VSYS_RPOOL];   /* the L2's words (rpool order)             */
    uint64_t rng, t;
    uint32_t next_val;
    unsigned last_phase;
    FILE *log;
    vsys_res *r;
    size_t hcap;
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
        uint64_t r1 = unit_rnd(&s->rng), r2 = unit_rnd(&s->rng), r3 = unit_rnd(&s->rng);
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

static blk *blk_at(vsys *s, unsigned i)
{
    return i == 0 ? &s->emu : i <= s->k ? &s->cu[i - 1] : &s->l1[i - 1 - s->k];
}

static uint64_t fnv(uint64_t h, const uint64_t *w, unsigned n)
{
    unsigned i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < 8; j++)
            h = (h ^ ((w[i] >> (8 * j)) & 0xff)) * 0x100000001b3ULL;
    return h;
}

/* The port values of this cycle (after evaluation): hashes, capture. */
static int port_record(vsys *s)
{
    const vsys_opts *o = s->o;
    vsys_res *r = s->r;
    unsigned i, nb = r->nblk;
    if (o->port_hash) {
        if ((s->t + 1) * nb > s->hcap) {
            size_t nc = s->hcap ? 2 * s->hcap : 4096 * nb;
            uint64_t *nh = realloc(r->hash, nc * sizeof *nh);
            if (nh == NULL)
                return -1;
            r->hash = nh;
            s->hcap = nc;
        }
        for (i = 0; i < nb; i++) {
            blk *b = blk_at(s, i);
            uint64_t h = fnv(0xcbf29ce484222325ULL, b->in, b->l.in_words);
            /* outputs out of reset only (unreset state differs) */
            r->hash[s->t * nb + i] = s->t >= VSYS_RESET ? fnv(h, b->out, b->l.out_words) : h;
        }
    }
    if (o->capture_blk >= 0 && s->t == o->capture_cycle && (unsigned)o->capture_blk < nb) {
        blk *b = blk_at(s, (unsigned)o->capture_blk);
        r->captured = 1;
        r->cap_l = b->l;
        memcpy(r->cap_in, b->in, b->l.in_words * sizeof *b->in);
        memcpy(r->cap_out, b->out, b->l.out_words * sizeof *b->out);
    }
    return 0;
}

/* The L1 of CU k after its evaluation: requests and ChangeEpoch taken,
 * chg_done_o, the event. -1 out of memory. */
static int l1_cycle(vsys *s, unsigned k, char *buf, size_t len)
{
    const vsys_opts *o = s->o;
    vcu *c = &s->c[k];
    blk *l = &s->l1[k];
    uint64_t t = s->t;
    item it, *x;
    int err = 0;
    if (iget_in(l, "req_valid_i") && oget(l, "req_ready_o")) {
        x = q_due(&c->req, t);
        it = *x;
        q_pop(&c->req);
        err |= q_push(&c->infl, &it);
        if (it.kind == RQ_WA) { /* the CU's write ack follows the L1's */
            it.due = t + 1;
            err |= q_push(&c->wa, &it);
        }
    }
    if ((x = q_due(&c->l1chg, t)) != NULL && oget(l, "chg_ready_o")) {
        c->lcer = x->addr;
        c->lseb = x->value;
        q_pop(&c->l1chg);
    }
    if (oget(l, "chg_done_o")) {
        /* the sweep is over: the new CER and SEB are the L1's; the CU's
         * epoch logic takes the ChangeEpoch next */
        memset(&it, 0, sizeof it);
        it.due = t + 1;
        it.addr = c->lcer;
        it.value = c->lseb;
        fmt_set(s, it.addr, (unsigned)oget(&s->emu, "ptr_o"), buf, len);
        fprintf(s->log, "%" PRIu64 " CER %u %s %u\n", t, k, buf, it.value);
        err |= q_push(&c->chg, &it);
    }
    if (oget(l, "ev_valid_o")) {
        unsigned kind = (unsigned)oget(l, "ev_kind_o"), ev = (unsigned)oget(l, "ev_event_o");
        unsigned from = (unsigned)oget(l, "ev_from_o"), to = (unsigned)oget(l, "ev_to_o");
        unsigned act = (unsigned)oget(l, "ev_act_o");
        uint64_t line = oget(l, "ev_line_o"), la = line << s->lbits;
        int li = line_idx(s, line);
        item h;
        memset(&h, 0, sizeof h);
        if (kind == STC_L1_K_T || kind == STC_L1_K_STALL) {
            if (c->infl.n == 0) {
                s->r->l1_errs++;
                return err;
            }
            h = c->infl.v[c->infl.head];
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

/* One cycle. -1 out of memory. */
static int cycle(vsys *s)
{
    const vsys_opts *o = s->o;
    uint64_t t = s->t, allk = (s->k >= 64 ? ~0ULL : (1ULL << s->k) - 1);
    int live = t >= VSYS_RESET;
    unsigned k, rdy_draw[VSYS_CUS_MAX];
    char buf[1100];
    item it;
    int err = 0;
    blk *e = &s->emu;

    /* ---- inputs from the state at the start of the cycle */
    e->in[0] = (uint64_t)live;
    iput(e, "tmr_en_i", 1);
    iput(e, "wake_i", 0);
    iput(e, "dack_ready_i", 1);
    iput(e, "prep_ready_i", allk);
    iput(e, "chg_ready_i", allk);
    for (k = 0; k < s->k; k++) {
        vcu *c = &s->c[k];
        blk *b = &s->cu[k];
        item *d = q_due(&c->dem, t), *cf = q_due(&c->conf, t), *p, *ch;
        pput(e, "dem_valid_i", k, 1, d != NULL);
        pput(e, "dem_addr_i", k * s->a, s->a, d ? d->addr : 0);
        pput(e, "conf_valid_i", k, 1, cf != NULL);
        pput(e, "conf_addr_i", k * s->a, s->a, cf ? cf->addr : 0);
        pput(e, "rdy_valid_i", k, 1, q_due(&c->rdy, t) != NULL);
        pput(e, "done_valid_i", k, 1, q_due(&c->done, t) != NULL);
        rdy_draw[k] = (unsigned)(unit_rnd(&s->rng) & 3) != 0; /* the L2 side takes 3 of 4 */
        b->in[0] = (uint64_t)live;
        iput(b, "st_valid_i", c->st_v);
        iput(b, "st_addr_i", c->st_v ? c->st_a : 0);
        iput(b, "iss_ready_i", rdy_draw[k]);
        iput(b, "wa_i", q_due(&c->wa, t) != NULL);
        iput(b, "ld_valid_i", c->ld_v);
        iput(b, "ld_addr_i", c->ld_v ? c->ld_a : 0);
        iput(b, "ldr_ready_i", 1);
        iput(b, "dem_ready_i", 1);
        iput(b, "conf_ready_i", 1);
        p = q_due(&c->prep, t);
        iput(b, "prep_valid_i", p != NULL);
        iput(b, "rdy_ready_i", 1);
        ch = q_due(&c->chg, t);
        iput(b, "chg_valid_i", ch != NULL);
        iput(b, "chg_cer_i", ch ? ch->addr : 0);
        iput(b, "chg_seb_i", ch ? ch->value : 0);
        iput(b, "done_ready_i", 1);
        if (o->l1) {
            blk *l = &s->l1[k];
            item *lc = q_due(&c->l1chg, t), *rq = q_due(&c->req, t);
            l->in[0] = (uint64_t)live;
            /* a ChangeEpoch waiting at the L1 holds new requests back (it is
             * taken only with the pipeline empty) */
            iput(l, "req_valid_i", rq != NULL && lc == NULL);
            iput(l, "req_op_i", rq && lc == NULL ? rq->kind : 0);
            iput(l, "req_addr_i", rq && lc == NULL ? rq->addr : 0);
            iput(l, "chg_valid_i", lc != NULL);
            iput(l, "chg_cer_i", lc ? lc->addr : 0);
            iput(l, "chg_seb_i", lc ? lc->value : 0);
            iput(l, "ev_ready_i", 1);
        }
    }
    blk_eval(e, t, o);
    for (k = 0; k < s->k; k++) {
        blk_eval(&s->cu[k], t, o);
        if (o->l1)
            blk_eval(&s->l1[k], t, o);
    }

    if (o->port_hash || o->capture_blk >= 0)
        err |= port_record(s);
    if (live) {
        unsigned n1 = s->n, ph;
        /* ---- the L2: stores perform and loads read at half the round trip */
        item lv, *l = &lv;
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
        /* ---- the write acks taken this cycle */
        for (k = 0; k < s->k; k++) {
            item *w = q_due(&s->c[k].wa, t);
            if (w) {
                uint32_t v;
                fprintf(s->log, "%" PRIu64 " WA %u 0x%" PRIx64 "\n", t, k, w->addr);
                cu_out_del(&s->c[k], w->addr, &v);
                q_pop(&s->c[k].wa);
            }
        }
        /* ---- the EMU */
        if (oget(e, "sleep_o")) {
            fprintf(s->log, "%" PRIu64 " SLEEP\n", t);
            s->r->sleeps++;
        }
        if (oget(e, "prep_valid_o")) {
            fprintf(s->log, "%" PRIu64 " PREP\n", t);
            memset(&it, 0, sizeof it);
            it.due = t + o->msg_lat;
            for (k = 0; k < s->k; k++)
                err |= q_push(&s->c[k].prep, &it);
        }
        if (oget(e, "chg_valid_o")) {
            uint64_t set = oget(e, "chg_epochs_o");
            unsigned seb = (unsigned)oget(e, "chg_seb_o");
            fmt_set(s, set, (unsigned)oget(e, "ptr_o"), buf, sizeof buf);
            fprintf(s->log, "%" PRIu64 " CHG %s %u\n", t, buf, seb);
            s->r->transitions++;
            memset(&it, 0, sizeof it);
            it.due = t + o->msg_lat;
            it.addr = set;
            it.value = seb;
            for (k = 0; k < s->k; k++)
                err |= q_push(o->l1 ? &s->c[k].l1chg : &s->c[k].chg, &it);
        }
        ph = (unsigned)oget(e, "phase_o");
        if (s->last_phase == 2 && ph == 0) {
            unsigned seb = (unsigned)oget(e, "seb_o");
            fmt_set(s, oget(e, "cur_o"), (unsigned)oget(e, "ptr_o"), buf, sizeof buf);
            fprintf(s->log, "%" PRIu64 " END %s %u\n", t, buf, seb);
            if (seb != s->r->final_seb)
                s->r->seb_changes++;
            s->r->final_seb = seb;
        }
        s->last_phase = ph;
        (void)n1;
        /* ---- the CUs */
        for (k = 0; k < s->k; k++) {
            vcu *c = &s->c[k];
            blk *b = &s->cu[k];
            item *x;
            if (pget(e, "dem_ready_o", k, 1) && q_due(&c->dem, t))
                q_pop(&c->dem);
            if (pget(e, "conf_ready_o", k, 1) && q_due(&c->conf, t))
                q_pop(&c->conf);
            if (pget(e, "rdy_ready_o", k, 1) && q_due(&c->rdy, t))
                q_pop(&c->rdy);
            if (pget(e, "done_ready_o", k, 1) && q_due(&c->done, t))
                q_pop(&c->done);
            if ((x = q_due(&c->prep, t)) != NULL && oget(b, "prep_ready_o"))
                q_pop(&c->prep);
            if ((x = q_due(&c->chg, t)) != NULL && oget(b, "chg_ready_o")) {
                if (!o->l1) { /* with the L1: when the L1 takes it */
                    fmt_set(s, x->addr, (unsigned)oget(e, "ptr_o"), buf, sizeof buf);
                    fprintf(s->log, "%" PRIu64 " CER %u %s %u\n", t, k, buf, x->value);
                }
                q_pop(&c->chg);
            }
            if (oget(b, "rdy_valid_o")) {
                fprintf(s->log, "%" PRIu64 " READY %u\n", t, k);
                memset(&it, 0, sizeof it);
                it.due = t + o->msg_lat;
                err |= q_push(&c->rdy, &it);
            }
            if (oget(b, "done_valid_o")) {
                fprintf(s->log, "%" PRIu64 " DONE %u\n", t, k);
                memset(&it, 0, sizeof it);
                it.due = t + o->msg_lat;
                err |= q_push(&c->done, &it);
            }
            if (c->st_v && oget(b, "st_ready_o")) {
                if (oget(b, "st_blocked_o")) {
                    fprintf(s->log, "%" PRIu64 " BLK %u 0x%" PRIx64 "\n", t, k, c->st_a);
                    s->r->blocked++;
                }
                cu_out_add(c, c->st_a, ++s->next_val);
                s->r->stores++;
                c->st_v = 0;
            }
            if (oget(b, "iss_valid_o") && rdy_draw[k]) {
                uint64_t a = oget(b, "iss_addr_o");
                unsigned i;
                fprintf(s->log, "%" PRIu64 " ISS %u 0x%" PRIx64 "\n", t, k, a);
                s->r->issued++;
                s->r->drained += oget(b, "iss_drain_o") != 0;
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
            if (c->ld_v && oget(b, "ld_ready_o")) {
                c->ld_v = 0;
                c->ld_in++;
                s->r->loads++;
            }
            if (oget(b, "ldr_valid_o")) {
                c->ld_in--;
                memset(&it, 0, sizeof it);
                it.due = t + o->l2_lat / 2;
                it.addr = oget(b, "ldr_addr_o");
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
            if (oget(b, "dem_valid_o")) {
                memset(&it, 0, sizeof it);
                it.due = t + o->msg_lat;
                it.addr = oget(b, "dem_addr_o");
                err |= q_push(&c->dem, &it);
                s->r->demands++;
            }
            if (oget(b, "conf_valid_o")) {
                memset(&it, 0, sizeof it);
                it.due = t + o->msg_lat;
                it.addr = oget(b, "conf_addr_o");
                err |= q_push(&c->conf, &it);
                s->r->conflicts++;
            }
        }
    }
    if (live && o->l1)
        for (k = 0; k < s->k; k++)
            err |= l1_cycle(s, k, buf, sizeof buf);
    blk_step(e);
    for (k = 0; k < s->k; k++) {
        blk_step(&s->cu[k]);
        if (o->l1)
            blk_step(&s->l1[k]);
    }
    if (live)
        stimulus(s);
    s->t++;
    return err ? -1 : 0;
}

int vsys_run(const vsys_opts *o, const dut_ops *const *duts, vsys_res *r, char *err, size_t len)
{
    vsys *s = calloc(1, sizeof *s);
    char *logbuf = NULL, *chkbuf = NULL;
    size_t logn = 0, chkn = 0;
    const stc_emu_cfg *ec;
    unsigned k, i;
    int rc = -1;
    memset(r, 0, sizeof *r);
    if (s == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    s->o = o;
    s->r = r;
    if (blk_open(&s->emu, "stc-emu", o->preset, NULL, (o->rtl & VSYS_RTL_EMU) != 0, duts, 1, err,
                 len) != 0)
        goto out;
    ec = s->emu.cfg;
    s->k = ec->cus;
    s->n = ec->n;
    s->a = ec->addr_bits;
    r->final_seb = ec->seb;
    if (s->k > VSYS_CUS_MAX || s->n > 6 || s->a > 32 || o->msg_lat == 0 || o->l2_lat < 2) {
        snprintf(err, len, "configuration outside the system (CUs <= 32, N <= 6, 32-bit "
                 "addresses, --msg-lat >= 1, --l2-lat >= 2)");
        goto out;
    }
    snprintf(s->emu.name, sizeof s->emu.name, "emu");
    for (k = 0; k < s->k; k++) {
        if (blk_open(&s->cu[k], "stc-cu", o->preset, NULL, (o->rtl & VSYS_RTL_CU) != 0, duts, k + 2,
                     err, len) != 0)
            goto out;
        snprintf(s->cu[k].name, sizeof s->cu[k].name, "cu%u", k);
        if (o->l1) {
            if (blk_open(&s->l1[k], "stc-l1", o->preset, o->l1_opts, (o->rtl & VSYS_RTL_L1) != 0, duts,
                         k + 40, err, len) != 0)
                goto out;
            snprintf(s->l1[k].name, sizeof s->l1[k].name, "l1_%u", k);
            for (s->lbits = 0; (1u << s->lbits) < ((const stc_l1_cfg *)s->l1[k].cfg)->line;)
                s->lbits++;
            if (s->lbits < 4 || s->lbits > 6) {
                snprintf(err, len, "the L1 line must hold 16..64 bytes (4 pool words)");
                goto out;
            }
        }
        s->c[k].ops_left = o->ops;
        if (o->script) {
            s->c[k].ops_left = 0;
            for (i = 0; i < o->n_script; i++)
                s->c[k].ops_left += o->script[i].cu == k;
        }
    }
    if (o->fault_blk && o->fault_port) {
        blk *fb = strcmp(o->fault_blk, "emu") == 0 ? &s->emu : NULL;
        for (k = 0; k < s->k && fb == NULL; k++)
            if (strcmp(o->fault_blk, s->cu[k].name) == 0)
                fb = &s->cu[k];
            else if (o->l1 && strcmp(o->fault_blk, s->l1[k].name) == 0)
                fb = &s->l1[k];
        if (fb == NULL) {
            snprintf(err, len, "--fault: no block '%s' (emu, cu0..cu%u)", o->fault_blk, s->k - 1);
            goto out;
        }
        for (i = 0; i < (unsigned)fb->l.n; i++)
            if (fb->l.p[i].dir == PORT_OUT && strcmp(fb->l.p[i].name, o->fault_port) == 0)
                fb->fault_port = (int)i;
        if (fb->fault_port < 0) {
            snprintf(err, len, "--fault: %s has no output port '%s'", o->fault_blk, o->fault_port);
            goto out;
        }
    }
    r->nblk = 1 + s->k * (o->l1 ? 2u : 1u);
    for (i = 0; i < r->nblk; i++)
        snprintf(r->blk_names[i], sizeof r->blk_names[i], "%s", blk_at(s, i)->name);
    /* written words: bands 0..3 at the initial SEB, two rows above the band
     * field (conflicts that move SEB up), four words each; read-only: bands
     * 5 and 6 (their words are 0 forever) */
    for (i = 0; i < VSYS_POOL; i++)
        s->pool[i] = s->rpool[i] = ((uint64_t)(i / 8) << ec->seb) |
                                   ((uint64_t)((i / 4) & 1) << (ec->seb + s->n)) | (i % 4) * 4;
    for (i = VSYS_POOL; i < VSYS_RPOOL; i++)
        s->rpool[i] = ((uint64_t)(5 + (i - VSYS_POOL) / 8) << ec->seb) | ((i - VSYS_POOL) % 8) * 4;
    s->rng = o->seed * 0x9E3779B97F4A7C15ULL + 1;
    s->log = open_memstream(&logbuf, &logn);
    if (s->log == NULL) {
        snprintf(err, len, "out of memory");
        goto out;
    }
    for (i = 0; i < VSYS_RPOOL; i++)
        fprintf(s->log, "0 INIT 0x%" PRIx64 " 0\n", s->rpool[i]);
    for (;;) {
        if (cycle(s) != 0) {
            snprintf(err, len, "out of memory");
            goto out;
        }
        if (s->t > VSYS_RESET + 1 && quiet(s))
            break;
        if (s->t >= o->max_cycles) {
            r->timeout = 1;
            break;
        }
    }
    r->cycles = s->t;
    fclose(s->log);
    s->log = NULL;
    /* the verdict: the separate checker on the log text */
    {
        stc_chk_cfg cc;
        FILE *in = fmemopen(logbuf, logn, "r"), *ck = open_memstream(&chkbuf, &chkn),
             *er = tmpfile();
        char why[200];
        const char *p;
        stc_chk_cfg_default(&cc);
        cc.cus = s->k;
        cc.n = s->n;
        cc.seb = ec->seb;
        cc.addr_bits = s->a;
        cc.guard = ec->seb_guard;
        cc.variant = (stc_chk_variant)ec->variant;
        stc_eset_of(&ec->epoch, &cc.epoch);
        if (in == NULL || ck == NULL || er == NULL) {
            if (in)
                fclose(in);
            if (ck)
                fclose(ck);
            if (er)
                fclose(er);
            snprintf(err, len, "out of memory");
            goto out;
        }
        /* 0 PASS, 1 FAIL (VIOL lines counted below), 2 the log does not parse */
        if (stc_check_run(&cc, in, "system log", ck, er) == 2) {
            rewind(er);
            if (fgets(why, sizeof why, er) == NULL)
                why[0] = '\0';
            why[strcspn(why, "\n")] = '\0';
            fclose(in);
            fclose(ck);
            fclose(er);
            snprintf(err, len, "the log does not parse: %s", why);
            goto out;
        }
        fclose(in);
        fclose(ck);
        fclose(er);
        for (p = chkbuf; (p = strstr(p, "VIOL ")) != NULL; p++)
            r->viol++;
        r->viol += (size_t)r->timeout; /* the run did not finish */
        r->viol += (size_t)r->l1_errs; /* an L1 event the composition cannot place */
    }
    r->log = logbuf;
    r->check = chkbuf;
    logbuf = chkbuf = NULL;
    rc = 0;
out:
    if (s->log)
        fclose(s->log);
    free(logbuf);
    free(chkbuf);
    blk_close(&s->emu);
    for (k = 0; k < VSYS_CUS_MAX; k++) {
        vcu *c = &s->c[k];
        if (s->cu[k].u)
            blk_close(&s->cu[k]);
        if (s->l1[k].u)
            blk_close(&s->l1[k]);
        free(c->req.v), free(c->infl.v), free(c->l1chg.v);
        free(c->dem.v), free(c->conf.v), free(c->rdy.v), free(c->done.v);
        free(c->prep.v), free(c->chg.v), free(c->wa.v);
    }
    free(s->l2.v);
    free(s);
    return rc;
}

int vsys_lockstep(const vsys_opts *o, const dut_ops *const *duts, uint64_t *cycles, char *msg,
                  size_t len)
{
    vsys_opts a = *o, b = *o;
    vsys_res ra, rb;
    uint64_t n, t;
    unsigned i, nb;
    int k, rc = 0;
    a.rtl = 0;
    a.fault_blk = a.fault_port = NULL;
    a.port_hash = b.port_hash = 1;
    a.capture_blk = b.capture_blk = -1;
    if (vsys_run(&a, duts, &ra, msg, len) != 0)
        return -1;
    if (vsys_run(&b, duts, &rb, msg, len) != 0) {
        vsys_res_free(&ra);
        return -1;
    }
    nb = ra.nblk;
    n = ra.cycles < rb.cycles ? ra.cycles : rb.cycles;
    *cycles = n;
    for (t = 0; t < n; t++)
        for (i = 0; i < nb; i++)
            if (ra.hash[t * nb + i] != rb.hash[t * nb + i])
                goto differ;
    if (ra.cycles != rb.cycles) {
        snprintf(msg, len, "the shells' system ran %llu cycles, this one %llu",
                 (unsigned long long)ra.cycles, (unsigned long long)rb.cycles);
        rc = 1;
    }
    vsys_res_free(&ra);
    vsys_res_free(&rb);
    return rc;
differ:
    *cycles = t;
    snprintf(msg, len, "cycle %llu %s: ports differ", (unsigned long long)t, ra.blk_names[i]);
    vsys_res_free(&ra);
    vsys_res_free(&rb);
    /* run both again to that cycle and name the first port */
    a.port_hash = b.port_hash = 0;
    a.capture_blk = b.capture_blk = (int)i;
    a.capture_cycle = b.capture_cycle = t;
    a.max_cycles = b.max_cycles = t + 1;
    if (vsys_run(&a, duts, &ra, msg, len) != 0)
        return -1;
    if (vsys_run(&b, duts, &rb, msg, len) != 0) {
        vsys_res_free(&ra);
        return -1;
    }
    if (ra.captured && rb.captured) {
        unsigned wi = 1, wo = 0;
        if (ra.cap_in[0] != rb.cap_in[0])
            snprintf(msg, len, "cycle %llu %s: rst_ni differs", (unsigned long long)t,
                     ra.blk_names[i]);
        for (k = 0; k < ra.cap_l.n; k++) {
            const port_t *p = &ra.cap_l.p[k];
            unsigned nw = UNIT_WORDS(p->width);
            const uint64_t *x = p->dir == PORT_IN ? ra.cap_in + wi : ra.cap_out + wo;
            const uint64_t *y = p->dir == PORT_IN ? rb.cap_in + wi : rb.cap_out + wo;
            if (p->dir == PORT_IN)
                wi += nw;
            else
                wo += nw;
            if (memcmp(x, y, nw * sizeof *x) != 0) {
                snprintf(msg, len, "MISMATCH cycle %llu %s port %s: shells' system 0x%llx, this "
                         "one 0x%llx", (unsigned long long)t, ra.blk_names[i], p->name,
                         (unsigned long long)x[0], (unsigned long long)y[0]);
                break;
            }
        }
    }
    vsys_res_free(&ra);
    vsys_res_free(&rb);
    return 1;
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

static int vbad(const char *fmt, const char *v)
{
    fprintf(stderr, "tb_stc: ");
    fprintf(stderr, fmt, v);
    fputc('\n', stderr);
    return 2;
}

static int vnum(const char *s, unsigned long long *v)
{
    char *end;
    if (s == NULL || *s == '\0' || *s == '-')
        return -1;
    *v = strtoull(s, &end, 0);
    return *end ? -1 : 0;
}

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

int stc_tb_hook(int argc, char **argv, int *handled, const dut_ops *const *duts,
                int (*run_unit)(int argc, char **argv))
{
    vsys_opts o;
    unsigned long long seed = 1, cycles = 200000, v;
    int i, all, sys = 0, fail = 0, stage = -1, rc;
    const char *log_path = NULL;
    static char fblk[32], fport[64];
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--system") == 0)
            sys = 1;
    all = !sys;
    for (i = 1; all && i < argc; i++) /* only --seed and --cycles go with "every unit" */
        if (strcmp(argv[i], "--seed") != 0 && strcmp(argv[i], "--cycles") != 0)
            all = 0;
        else
            i++;
    if (!sys && !all)
        return 0;
    *handled = 1;
    vsys_opts_default(&o);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--system") == 0)
            continue;
        if (strcmp(a, "--l1") == 0) {
            o.l1 = 1;
            continue;
        }
        if (val == NULL)
            return vbad("%s needs a value (see --help)", a);
        i++;
        if (strcmp(a, "--seed") == 0) {
            if (vnum(val, &seed) != 0)
                return vbad("--seed: '%s' is not a non-negative integer", val);
            o.seed = seed;
        } else if (strcmp(a, "--cycles") == 0) {
            if (vnum(val, &cycles) != 0 || cycles == 0)
                return vbad("--cycles: '%s' is not a positive integer", val);
        } else if (strcmp(a, "--ops") == 0) {
            if (vnum(val, &v) != 0 || v == 0 || v > 100000)
                return vbad("--ops: '%s' is not an operation count (1..100000)", val);
            o.ops = (unsigned)v;
        } else if (strcmp(a, "--l2-lat") == 0) {
            if (vnum(val, &v) != 0 || v < 2 || v > 10000)
                return vbad("--l2-lat: '%s' is not a latency (2..10000)", val);
            o.l2_lat = (unsigned)v;
        } else if (strcmp(a, "--msg-lat") == 0) {
            if (vnum(val, &v) != 0 || v < 1 || v > 10000)
                return vbad("--msg-lat: '%s' is not a latency (1..10000)", val);
            o.msg_lat = (unsigned)v;
        } else if (strcmp(a, "--max-cycles") == 0) {
            if (vnum(val, &v) != 0 || v == 0)
                return vbad("--max-cycles: '%s' is not a positive integer", val);
            o.max_cycles = v;
        } else if (strcmp(a, "--sys-config") == 0) {
            if (strcmp(val, "fpga") != 0 && strcmp(val, "default") != 0)
                return vbad("--sys-config: '%s' is not fpga or default", val);
            o.preset = strcmp(val, "fpga") == 0 ? "fpga" : "default";
        } else if (strcmp(a, "--rtl") == 0) {
            if (strcmp(val, "none") == 0)
                stage = 0;
            else if (strcmp(val, "emu") == 0)
                stage = 1;
            else if (strcmp(val, "cu") == 0)
                stage = 2;
            else if (strcmp(val, "all") == 0)
                stage = -2; /* resolved below: with or without the L1 */
            else if (strcmp(val, "l1") == 0)
                stage = 4;
            else if (strcmp(val, "staged") == 0)
                stage = -1;
            else
                return vbad("--rtl: '%s' is not none, emu, cu, l1, all or staged", val);
        } else if (strcmp(a, "--fault") == 0) {
            const char *c1 = strchr(val, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
            const char *at = c2 ? strchr(c2 + 1, '@') : NULL;
            char num[32];
            size_t nl;
            if (c1 == NULL || c2 == NULL || (size_t)(c1 - val) >= sizeof fblk ||
                (size_t)(c2 - c1 - 1) >= sizeof fport)
                return vbad("--fault: '%s' is not BLOCK:PORT:VALUE[@CYCLE]", val);
            nl = at ? (size_t)(at - c2 - 1) : strlen(c2 + 1);
            if (nl == 0 || nl >= sizeof num)
                return vbad("--fault: '%s' is not BLOCK:PORT:VALUE[@CYCLE]", val);
            memcpy(num, c2 + 1, nl);
            num[nl] = '\0';
            if (vnum(num, &v) != 0)
                return vbad("--fault: '%s' has no numeric VALUE", val);
            o.fault_val = v;
            if (at && vnum(at + 1, &v) != 0)
                return vbad("--fault: '%s' has no numeric CYCLE", val);
            o.fault_from = at ? v : 0;
            memcpy(fblk, val, (size_t)(c1 - val));
            fblk[c1 - val] = '\0';
            memcpy(fport, c1 + 1, (size_t)(c2 - c1 - 1));
            fport[c2 - c1 - 1] = '\0';
            o.fault_blk = fblk;
            o.fault_port = fport;
        } else if (strcmp(a, "--slow-cu") == 0) {
            char *end;
            unsigned long c = strtoul(val, &end, 10), d;
            if (end == val || *end != ':' || end[1] == '\0' || end[1] == '-' || c >= VSYS_CUS_MAX)
                return vbad("--slow-cu: '%s' is not C:D (a CU and a delay)", val);
            d = strtoul(end + 1, &end, 10);
            if (*end || d > 100000)
                return vbad("--slow-cu: '%s' is not C:D (a CU and a delay)", val);
            o.slow_cu = (int)c;
            o.slow_d = (unsigned)d;
        } else if (strcmp(a, "--l1-opt") == 0) {
            o.l1_opts = val;
        } else if (strcmp(a, "--log") == 0) {
            log_path = val;
        } else
            return vbad("unknown option '%s' with --system (see --help)", a);
    }
    if (log_path) { /* a bad path before any output */
        FILE *f = fopen(log_path, "w");
        if (f == NULL)
            return vbad("--log: cannot write '%s'", log_path);
        fclose(f);
    }
    if (stage == -2)
        stage = o.l1 ? 5 : 3;
    if (stage == 4 && !o.l1)
        return vbad("--rtl: '%s' needs --l1", "l1");
    if (o.l1_opts && (!o.l1 || stage < 0 || stage >= 4))
        return vbad("--l1-opt: '%s' needs --l1 and timing-shell L1s (--rtl none, emu or cu)",
                    o.l1_opts);
    if (all) {
        size_t u;
        char cbuf[32], sbuf[32];
        snprintf(cbuf, sizeof cbuf, "%llu", cycles);
        snprintf(sbuf, sizeof sbuf, "%llu", seed);
        for (u = 0; unit_registry[u]; u++) {
            char *av[] = {argv[0], "--unit", (char *)unit_registry[u]->name, "--cycles", cbuf,
                          "--seed", sbuf, NULL};
            if (strcmp(unit_registry[u]->family, "stc") != 0)
                continue;
            printf("== %s\n", unit_registry[u]->name);
            fflush(stdout);
            rc = run_unit(7, av);
            fflush(stdout);
            if (rc == 2)
                return 2;
            fail |= rc != 0;
        }
        printf("== system (stc-emu, stc-cu per CU: timing shells, then Verilated)\n");
    }
    rc = run_system(&o, duts, stage, log_path);
    fflush(stdout);
    if (rc == 2)
        return 2;
    fail |= rc != 0;
    if (all) { /* and with the L1 between each CU and the L2 */
        o.l1 = 1;
        rc = run_system(&o, duts, -1, NULL);
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
