/*
 * DualOpt: the GPU in every mode at cycle level (cmodel/dualopt/dualopt_sys.h;
 * docs/dualopt.md "The GPU at cycle level"). Seven blocks per GPU, driven
 * through their ports every cycle as in cmodel/dualopt/dualopt_e2e.c (the wiring
 * of the coalescing path is shared, dualopt_wire.h): BGU, SCBU, bitmask MSHR, RDMA
 * coalescer, de-coalescer, RDMA cache, decision engine. The glue (L1
 * controller tag pool and fill buffer, store splitting, RDMA engines, links,
 * home memory) is registered state of the composition.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_bgu.h"
#include "dualopt_coal.h"
#include "dualopt_de.h"
#include "dualopt_mshr.h"
#include "dualopt_rcache.h"
#include "dualopt_scbu.h"
#include "dualopt_sys.h"
#include "dualopt_wire.h"

/* -------------------------------------------------------------- state -- */

#define Q_RC_CAP 2
#define L1_LINES 64
#define ID_AT 0x4000u          /* atomic response: ID_AT | write record      */
#define ID_FETCH 0x8000u       /* RDMA cache fetch (one in flight)           */
#define WR_MAX 128             /* line writes of one store (64 lanes x 2)    */

typedef struct { unsigned op, w; uint64_t line, mask; unsigned entry; uint8_t data[DUALOPT_E2E_LINE]; } rc_item;
typedef struct { unsigned kind, hit; uint64_t mask; } de_item;
typedef struct { uint64_t t; } ack_item;
/* one line of a store or atomic */
typedef struct { uint64_t line, mask, lanes; uint8_t data[DUALOPT_E2E_LINE]; } wr_rec;

typedef struct {
    dw_path p;                 /* blocks, queues, tags, entries             */
    size_t *ops, nops, next_op, cur_load;
    wr_rec wr[WR_MAX];
    unsigned nwr, wr_next, st_pending;
    size_t st_op;
    cmp_fifo q_rc, rc_side, q_de, q_ack;
    uint64_t l1[L1_LINES];
    /* mode registers (the engine's outputs of the previous cycle) */
    unsigned mode_q, bgu_mask_q, bypass_q, mshr_mask_q, rc_en_q, en_sent;
    int fill_has;
    uint8_t fill_data[DUALOPT_E2E_LINE];
    int kern_pulse, flush_wait;
} gpu_t;

enum { PH_RUN, PH_FLUSH, PH_GAP, PH_DONE };
#define GAP_CYCLES 4 /* the engines' mode settles after kernel_i */

struct dualopt_sys {
    dualopt_sys_opts o;
    const dualopt_gpu_kernel *k;
    cmp_sys cs;
    gpu_t g[DUALOPT_E2E_GPUS_MAX];
    dw_path *path[DUALOPT_E2E_GPUS_MAX];
    uint8_t *mem;
    unsigned kern, phase, wb_inflight, gap;
    uint64_t cyc, last_progress, wbs_seen;
    uint64_t mask_all;
    int progress;
    dualopt_sys_stats t;
    dualopt_gpu_result res;
};

void dualopt_sys_opts_default(dualopt_sys_opts *o)
{
    static const dualopt_sys_opts d = {.gpus = 2, .force = DUALOPT_GPU_AUTO, .de_preset = "tiny",
                                       .link_lat = 20, .local_lat = 10, .link_cap = 4,
                                       .max_cycles = 5000000, .idle_limit = 5000};
    *o = d;
}

static uint64_t get_bits(const uint64_t *w, unsigned lo) { return cmp_bits_get(w, lo, 8); }

static void link_msg(dualopt_sys *s, unsigned bytes)
{
    s->t.bytes += bytes;
    s->t.flits += dw_flits(bytes);
}

/* ---------------------------------------------------------- lifetime -- */

static int check_cfgs(dualopt_sys *s, char *err, size_t len)
{
    const dualopt_rcache_cfg *rc = s->g[0].p.b[B_RC].c->cfg;
    const dualopt_de_cfg *dc = s->g[0].p.b[B_DE].c->cfg;
    const dualopt_mshr_cfg *mc = s->g[0].p.b[B_MSHR].c->cfg;
    if (rc->line != DUALOPT_E2E_LINE || rc->addr_bits != mc->addr_bits || dc->words != DUALOPT_E2E_WORDS ||
        mc->entries > 64) {
        snprintf(err, len, "unit configurations do not fit the composition (64-byte lines, "
                 "16-bit masks, equal address widths)");
        return -1;
    }
    return 0;
}

static int check_opts(const dualopt_sys_opts *o, const dualopt_gpu_kernel *k, char *err, size_t len)
{
    size_t i;
    if (o->gpus < 2 || o->gpus > DUALOPT_E2E_GPUS_MAX || o->gpus != k->gpus || k->kernels > 8) {
        snprintf(err, len, "gpus %u: the composition takes 2..%d GPUs (program: %u)", o->gpus,
                 DUALOPT_E2E_GPUS_MAX, k->gpus);
        return -1;
    }
    if (o->link_lat == 0 || o->local_lat == 0 || o->link_cap == 0) {
        snprintf(err, len, "latencies and the link capacity must be at least 1");
        return -1;
    }
    for (i = 0; i < k->n; i++)
        if (k->op[i].gpu >= o->gpus || k->op[i].size < 1 || k->op[i].size > 16 ||
            k->op[i].store > 2) {
            snprintf(err, len, "access %zu: gpu, size or kind out of range", i);
            return -1;
        }
    return 0;
}

/* A GPU's accesses and its mode registers when the modes are forced. */
static int gpu_setup(dualopt_sys *s, gpu_t *G, unsigned g)
{
    size_t i;
    G->ops = calloc(s->k->n + 1, sizeof *G->ops);
    if (G->ops == NULL)
        return -1;
    for (i = 0; i < s->k->n; i++)
        if (s->k->op[i].gpu == g)
            G->ops[G->nops++] = i;
    if (s->o.force != DUALOPT_GPU_AUTO) {
        G->mode_q = s->o.force == DUALOPT_GPU_FORCE_NONE       ? DUALOPT_DE_NONE
                    : s->o.force == DUALOPT_GPU_FORCE_COALESCE ? DUALOPT_DE_COALESCE
                                                       : DUALOPT_DE_CACHE;
        G->bgu_mask_q = G->bypass_q = G->mshr_mask_q = G->mode_q == DUALOPT_DE_COALESCE;
        G->rc_en_q = G->mode_q == DUALOPT_DE_CACHE;
    }
    return 0;
}

static int open_gpus(dualopt_sys *s, char *err, size_t len)
{
    const char *pre[B_N] = {"default", "default", "default", "default",
                            "default", "default", s->o.de_preset};
    const dualopt_gpu_kernel *k = s->k;
    unsigned g;
    for (g = 0; g < s->o.gpus; g++)
        if (dualopt_wire_open(&s->cs, &s->g[g].p, B_N, g, pre, err, len) != 0)
            return -1;
    if (check_cfgs(s, err, len) != 0)
        return -1;
    s->mem = malloc((size_t)k->gpus * DUALOPT_E2E_REGION);
    s->res.n = k->n;
    s->res.data = calloc(k->n + 1, sizeof *s->res.data);
    s->res.writes = calloc(k->n + 1, sizeof *s->res.writes);
    s->res.image = calloc((size_t)k->kernels * k->gpus, DUALOPT_E2E_REGION);
    if (!s->mem || !s->res.data || !s->res.writes || !s->res.image)
        return -1;
    memcpy(s->mem, k->mem, (size_t)k->gpus * DUALOPT_E2E_REGION);
    for (g = 0; g < s->o.gpus; g++)
        if (gpu_setup(s, &s->g[g], g) != 0)
            return -1;
    return 0;
}

dualopt_sys *dualopt_sys_new(const dualopt_sys_opts *o, const dualopt_gpu_kernel *k, const struct cmp_backend *b,
                 char *err, size_t len)
{
    dualopt_sys *s;
    unsigned g;
    if (check_opts(o, k, err, len) != 0)
        return NULL;
    s = calloc(1, sizeof *s);
    if (s == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    s->o = *o;
    if (s->o.de_preset == NULL)
        s->o.de_preset = "tiny";
    s->k = k;
    s->mask_all = (1ull << DUALOPT_E2E_WORDS) - 1;
    cmp_sys_init(&s->cs, b);
    for (g = 0; g < DUALOPT_E2E_GPUS_MAX; g++) {
        gpu_t *G = &s->g[g];
        dualopt_wire_init(&G->p);
        cmp_fifo_init(&G->q_rc, sizeof(rc_item));
        cmp_fifo_init(&G->rc_side, sizeof(rc_item));
        cmp_fifo_init(&G->q_de, sizeof(de_item));
        cmp_fifo_init(&G->q_ack, sizeof(ack_item));
        s->path[g] = &G->p;
    }
    err[0] = '\0';
    if (open_gpus(s, err, len) != 0) {
        if (err[0] == '\0')
            snprintf(err, len, "out of memory");
        dualopt_sys_free(s);
        return NULL;
    }
    return s;
}

void dualopt_sys_free(dualopt_sys *s)
{
    unsigned g;
    if (s == NULL)
        return;
    cmp_sys_free(&s->cs);
    for (g = 0; g < DUALOPT_E2E_GPUS_MAX; g++) {
        gpu_t *G = &s->g[g];
        dualopt_wire_free(&G->p);
        cmp_fifo_free(&G->q_rc);
        cmp_fifo_free(&G->rc_side);
        cmp_fifo_free(&G->q_de);
        cmp_fifo_free(&G->q_ack);
        free(G->ops);
    }
    free(s->mem);
    dualopt_gpu_result_free(&s->res);
    free(s);
}

/* ------------------------------------------------------------ memory -- */

static uint8_t *mem_at(dualopt_sys *s, uint64_t addr)
{
    long off = dualopt_gpu_mem_off(s->k->gpus, addr);
    return off < 0 ? NULL : s->mem + off;
}

static void read_line(dualopt_sys *s, uint64_t line, uint8_t *d)
{
    unsigned j;
    for (j = 0; j < DUALOPT_E2E_LINE; j++) {
        const uint8_t *p = mem_at(s, line * DUALOPT_E2E_LINE + j);
        d[j] = p ? *p : 0;
    }
}

static void write_line(dualopt_sys *s, uint64_t line, uint64_t mask, const uint8_t *d)
{
    unsigned j;
    for (j = 0; j < DUALOPT_E2E_LINE; j++) {
        uint8_t *p = (mask >> j) & 1 ? mem_at(s, line * DUALOPT_E2E_LINE + j) : NULL;
        if (p)
            *p = d[j];
    }
}

static unsigned home_of(uint64_t line) { return (unsigned)((line * DUALOPT_E2E_LINE) >> DUALOPT_E2E_SPAN_BITS); }

/* the lanes of op `op` in `line` get the bytes of `d` (old bytes of an
 * atomic, or a load's line as far as `have` covers it) */
static void deliver_line(dualopt_sys *s, size_t op, uint64_t lanes, uint64_t line, uint64_t have,
                         const uint8_t *d)
{
    dualopt_gpu_deliver(&s->res, s->k, op, lanes, line, have, d);
}

/* a store or atomic split into line writes (lanes in ascending order) */
static void split_store(dualopt_sys *s, gpu_t *G, size_t op)
{
    const dualopt_gpu_op *o = &s->k->op[op];
    unsigned lane, b, i;
    G->nwr = 0;
    G->wr_next = 0;
    for (lane = 0; lane < DUALOPT_E2E_LANES; lane++) {
        if (!((o->active >> lane) & 1))
            continue;
        for (b = 0; b < o->size; b++) {
            uint64_t a = o->addr[lane] + b, line = a / DUALOPT_E2E_LINE;
            for (i = 0; i < G->nwr && G->wr[i].line != line; i++)
                ;
            if (i == G->nwr) {
                if (G->nwr == WR_MAX)
                    continue;
                memset(&G->wr[i], 0, sizeof G->wr[i]);
                G->wr[i].line = line;
                G->nwr++;
            }
            G->wr[i].mask |= 1ull << (a % DUALOPT_E2E_LINE);
            G->wr[i].lanes |= 1ull << lane;
            G->wr[i].data[a % DUALOPT_E2E_LINE] = dualopt_gpu_store_byte(s->k, op, lane, b);
        }
    }
    G->st_pending = G->nwr;
    G->st_op = op;
}

/* ------------------------------------------------------------ inputs -- */

static int loads_idle(const gpu_t *G)
{
    return !G->p.bgu_busy && G->p.tags_free == G->p.ntags && !G->p.q_scbu.n && !G->p.q_side.n && !G->p.q_mshr.n &&
           !G->p.q_retry.n;
}

/* op issue: loads to the BGU (stores and atomics are split into line
 * writes when observed) */
static void drive_bgu(dualopt_sys *s, gpu_t *G)
{
    if (s->cyc >= START_CYCLE && s->phase == PH_RUN && G->st_pending == 0 &&
        G->next_op < G->nops && s->k->op[G->ops[G->next_op]].kernel == s->kern) {
        size_t op = G->ops[G->next_op];
        const dualopt_gpu_op *o = &s->k->op[op];
        if (!o->store) {
            G->cur_load = op;
            dualopt_wire_drive_load(&G->p, o->active, o->addr, o->size);
        }
    }
    dualopt_wire_drive_bgu_ready(&G->p);
}

static void drive_rc(gpu_t *G)
{
    dw_blk *b = &G->p.b[B_RC];
    unsigned j;
    if (G->q_rc.n) {
        const rc_item *r = cmp_fifo_at(&G->q_rc, 0);
        PI(b, R_REQ_VALID)[0] = 1;
        PI(b, R_REQ_OP)[0] = r->op;
        PI(b, R_REQ_ADDR)[0] = r->line * DUALOPT_E2E_LINE;
        if (r->op == DUALOPT_RCACHE_WR) {
            PI(b, R_REQ_MASK)[0] = r->mask;
            for (j = 0; j < DUALOPT_E2E_LINE; j++)
                cmp_bits_put(PI(b, R_REQ_DATA), 8 * j, 8, r->data[j]);
        }
    }
    PI(b, R_RSP_READY)[0] = 1;
    PI(b, R_OUT_READY)[0] = 1;
    if (G->fill_has) {
        PI(b, R_FILL_VALID)[0] = 1;
        for (j = 0; j < DUALOPT_E2E_LINE; j++)
            cmp_bits_put(PI(b, R_FILL_DATA), 8 * j, 8, G->fill_data[j]);
    }
}

static void drive_de(gpu_t *G)
{
    dw_blk *b = &G->p.b[B_DE];
    if (G->q_de.n) {
        const de_item *d = cmp_fifo_at(&G->q_de, 0);
        PI(b, E_ACC_VALID)[0] = 1;
        PI(b, E_ACC_KIND)[0] = d->kind;
        PI(b, E_ACC_HIT)[0] = d->hit;
        PI(b, E_ACC_MASK)[0] = d->mask;
    }
    PI(b, E_KERNEL)[0] = G->kern_pulse;
}

static void drive(dualopt_sys *s, unsigned g)
{
    gpu_t *G = &s->g[g];
    drive_bgu(s, G);
    /* SCBU: programmed once; its mode register follows the engine */
    dualopt_wire_drive_scbu(&G->p, g, s->cyc == RESET_CYCLES,
                            s->cyc == RESET_CYCLES || G->bypass_q != G->en_sent, G->bypass_q);
    dualopt_wire_drive_mshr(&G->p, G->mshr_mask_q && G->bgu_mask_q, s->mask_all);
    dualopt_wire_drive_coal(&G->p, g, s->o.gpus, s->o.link_cap);
    dualopt_wire_drive_decoal(s->path, g, s->o.gpus, s->cyc);
    drive_rc(G);
    drive_de(G);
}

/* ------------------------------------------------------- handshakes -- */

static void entry_done(gpu_t *G, unsigned e) { dualopt_wire_entry_done(&G->p, e); }

static void to_home(dualopt_sys *s, unsigned g, req_msg *m, unsigned bytes)
{
    unsigned home = home_of(m->line);
    m->src = g;
    m->t = s->cyc + s->o.link_lat;
    link_msg(s, bytes);
    if (home >= s->o.gpus || home == g)
        s->t.stray++;
    else
        cmp_fifo_push(&s->g[g].p.req_out[home], m);
}

static void l1_event(dualopt_sys *s, gpu_t *G, unsigned op, unsigned local, uint64_t line,
                     uint64_t mask, unsigned bypass)
{
    de_item d;
    unsigned slot = (unsigned)(line % L1_LINES);
    d.kind = (local ? 0 : 2) | (op != OP_RD);
    d.hit = G->l1[slot] == line + 1;
    d.mask = op == OP_RD ? mask : 0;
    if (op == OP_RD && !bypass)
        G->l1[slot] = line + 1;
    cmp_fifo_push(&G->q_de, &d);
    s->t.de_events++;
}

/* the store or atomic line w of GPU g at the L1 controller, after the SCBU */
static void store_line(dualopt_sys *s, unsigned g, unsigned w, unsigned op, unsigned local)
{
    gpu_t *G = &s->g[g];
    wr_rec *W = &G->wr[w];
    if (local) {
        if (op == OP_AT) {
            uint8_t old[DUALOPT_E2E_LINE];
            read_line(s, W->line, old);
            deliver_line(s, G->st_op, W->lanes, W->line, s->mask_all, old);
        }
        write_line(s, W->line, W->mask, W->data);
        G->st_pending--;
    } else if (G->rc_en_q) {
        rc_item r;
        memset(&r, 0, sizeof r);
        r.op = op == OP_AT ? DUALOPT_RCACHE_AT : DUALOPT_RCACHE_WR;
        r.w = w;
        r.line = W->line;
        r.mask = W->mask;
        memcpy(r.data, W->data, DUALOPT_E2E_LINE);
        cmp_fifo_push(&G->q_rc, &r);
    } else {
        req_msg m;
        memset(&m, 0, sizeof m);
        m.kind = op == OP_AT ? MSG_AT : MSG_WRITE;
        m.id = w;
        m.line = W->line;
        m.mask = W->mask;
        memcpy(m.data, W->data, DUALOPT_E2E_LINE);
        if (op == OP_AT)
            s->t.at_msgs++;
        else
            s->t.wr_msgs++;
        to_home(s, g, &m, DUALOPT_GPU_WR_BYTES);
    }
}

/* a store or atomic: once the loads before it completed, its line writes
 * go to the SCBU one a cycle */
static void issue_store(dualopt_sys *s, gpu_t *G)
{
    if (s->phase == PH_RUN && s->cyc >= START_CYCLE && G->st_pending == 0 &&
        G->next_op < G->nops && loads_idle(G)) {
        size_t op = G->ops[G->next_op];
        const dualopt_gpu_op *o = &s->k->op[op];
        if (o->store && o->kernel == s->kern && !PI(&G->p.b[B_BGU], G_INST_VALID)[0]) {
            split_store(s, G, op);
            G->next_op++;
            if (o->store == 2)
                s->t.atomics++;
            else
                s->t.stores++;
            s->progress = 1;
        }
    }
    if (G->wr_next < G->nwr && G->p.q_scbu.n < Q_SCBU_CAP && G->st_pending) {
        acc_item it;
        memset(&it, 0, sizeof it);
        it.op = s->k->op[G->st_op].store == 2 ? OP_AT : OP_WR;
        it.w = G->wr_next++;
        it.line = G->wr[it.w].line;
        cmp_fifo_push(&G->p.q_scbu, &it);
        s->t.requests++;
    }
}

static void observe_bgu(dualopt_sys *s, gpu_t *G)
{
    dw_blk *b = &G->p.b[B_BGU];
    if (dualopt_wire_bgu_request(&G->p, G->cur_load)) {
        s->t.requests++;
        s->progress = 1;
    }
    if (PI(b, G_INST_VALID)[0] && PO(b, G_INST_READY)[0]) {
        G->next_op++;
        s->t.loads++;
        s->progress = 1;
    }
    issue_store(s, G);
}

static void observe_scbu(dualopt_sys *s, gpu_t *G, unsigned g)
{
    dw_blk *b = &G->p.b[B_SCBU];
    unsigned local, bypass;
    const acc_item *it;
    if (PI(b, S_EN_VALID)[0])
        G->en_sent = (unsigned)PI(b, S_EN_COALESCE)[0];
    if ((it = dualopt_wire_scbu(&G->p, &local, &bypass)) != NULL) {
        if (local)
            s->t.local++;
        else
            s->t.remote++;
        l1_event(s, G, it->op, local, it->line, it->mask, bypass);
        if (it->op == OP_RD) {
            dualopt_wire_tag(&G->p, it->load, it->line, it->mask, it->lanes, local, bypass);
            s->t.bypassed += bypass;
        } else
            store_line(s, g, it->w, it->op, local);
        cmp_fifo_pop(&G->p.q_side);
        s->progress = 1;
    }
}

/* a miss: the line from the local memory, the RDMA cache or its home */
static void mshr_miss(void *sys, unsigned g, unsigned t, unsigned e)
{
    dualopt_sys *s = sys;
    gpu_t *G = &s->g[g];
    int reused;
    ent_rec *E = dualopt_wire_miss(&G->p, t, e, &reused);
    s->t.mshr_misses++;
    s->t.stray += (uint64_t)reused;
    if (E->local) {
        local_item li = {e, s->cyc + s->o.local_lat};
        cmp_fifo_push(&G->p.q_local, &li);
    } else if (G->rc_en_q) {
        rc_item r;
        memset(&r, 0, sizeof r);
        r.op = DUALOPT_RCACHE_RD;
        r.line = E->line;
        r.entry = e;
        cmp_fifo_push(&G->q_rc, &r);
    } else {
        req_msg m;
        memset(&m, 0, sizeof m);
        m.kind = MSG_READ;
        m.id = e;
        m.fine = E->mask != s->mask_all;
        m.line = E->line;
        m.mask = E->mask;
        s->t.req_msgs++;
        to_home(s, g, &m, DUALOPT_E2E_REQ_BYTES);
    }
}

/* the done beat of a load's line: its lanes get the bytes */
static void tag_done(void *sys, unsigned g, const tag_rec *r)
{
    dualopt_sys *s = sys;
    deliver_line(s, r->load, r->lanes, r->line, s->g[g].p.done_have, s->g[g].p.done_data);
}

static void observe_mshr(dualopt_sys *s, gpu_t *G, unsigned g)
{
    dualopt_wire_observe_mshr(&G->p, mshr_miss, tag_done, s, g, &s->t.mshr_hits,
                              &s->t.mshr_stalls, NULL, &s->t.stray, &s->progress);
}

/* coalescer (home side) */
static void observe_coal(dualopt_sys *s, gpu_t *G, unsigned g)
{
    dw_blk *b = &G->p.b[B_COAL];
    pkt_item p;
    if (PI(b, C_IN_VALID)[0] && PO(b, C_IN_READY)[0]) {
        cmp_fifo_pop(&G->p.coal_in);
        s->progress = 1;
    }
    if (dualopt_wire_packet(&G->p, g, s->o.gpus, s->cyc + s->o.link_lat, &p)) {
        s->t.packets++;
        link_msg(s, p.len);
        if (((p.img[0] >> 4) & 0xf) == 1) {
            s->t.coal_packets++;
            s->t.slots += (p.img[0] >> 8) & 0xf;
        } else
            s->t.reg_packets++;
        s->progress = 1;
    }
}

/* a regular response: a fetch for the RDMA cache, an atomic's old line or
 * an MSHR entry's line */
static void decoal_line(dualopt_sys *s, gpu_t *G, unsigned g, unsigned src, unsigned id)
{
    ent_rec *E = id < 64 ? &G->p.ent[id] : NULL;
    const line_item *li;
    if (!(src < s->o.gpus && src != g && s->g[src].p.side[g].n)) {
        s->t.stray++;
        return;
    }
    li = cmp_fifo_at(&s->g[src].p.side[g], 0);
    if (id == ID_FETCH && !G->fill_has) {
        G->fill_has = 1;
        memcpy(G->fill_data, li->line, DUALOPT_E2E_LINE);
    } else if ((id & ~0xfffu) == ID_AT && (id & 0xfffu) < G->nwr) {
        wr_rec *W = &G->wr[id & 0xfffu];
        deliver_line(s, G->st_op, W->lanes, W->line, s->mask_all, li->line);
        G->st_pending--;
    } else if (E && E->live && !E->local && E->have == 0) {
        memcpy(E->data, li->line, DUALOPT_E2E_LINE);
        E->have = s->mask_all;
        entry_done(G, id);
    } else
        s->t.stray++;
    cmp_fifo_pop(&s->g[src].p.side[g]);
}

/* de-coalescer (requester side) */
static void observe_decoal(dualopt_sys *s, gpu_t *G, unsigned g)
{
    dw_blk *b = &G->p.b[B_DECOAL];
    if (dualopt_wire_decoal_took(s->path, g, s->o.gpus))
        s->progress = 1;
    if (PO(b, D_BAD)[0])
        s->t.stray++;
    if (PO(b, D_OUT_VALID)[0]) {
        unsigned src = (unsigned)PO(b, D_OUT_SRC)[0], id = (unsigned)PO(b, D_OUT_ID)[0];
        s->progress = 1;
        if (PO(b, D_OUT_REG)[0])
            decoal_line(s, G, g, src, id);
        else if (!dualopt_wire_word(&G->p, id, PO(b, D_OUT_DATA)[0]))
            s->t.stray++;
    }
}

/* an answer of the RDMA cache to the request at the head of rc_side */
static void rc_answer(dualopt_sys *s, gpu_t *G, unsigned g, unsigned kind, const rc_item *r)
{
    dw_blk *b = &G->p.b[B_RC];
    if ((kind == DUALOPT_RCACHE_HIT || kind == DUALOPT_RCACHE_MISS) && r->op == DUALOPT_RCACHE_RD) {
        ent_rec *E = &G->p.ent[r->entry];
        unsigned j;
        for (j = 0; j < DUALOPT_E2E_LINE; j++)
            E->data[j] = (uint8_t)get_bits(PO(b, R_RSP_DATA), 8 * j);
        E->have = s->mask_all;
        entry_done(G, r->entry);
        if (kind == DUALOPT_RCACHE_HIT)
            s->t.rc_hits++;
        else
            s->t.rc_misses++;
    } else if (kind >= DUALOPT_RCACHE_WHIT && kind < DUALOPT_RCACHE_FWD && r->op == DUALOPT_RCACHE_WR) {
        G->st_pending--;
        if (kind == DUALOPT_RCACHE_WHIT)
            s->t.rc_whits++;
        else
            s->t.rc_wmiss++;
    } else if (kind == DUALOPT_RCACHE_FWD && r->op == DUALOPT_RCACHE_AT) {
        req_msg m; /* the atomic goes on, behind the line's write-back */
        wr_rec *W = &G->wr[r->w];
        memset(&m, 0, sizeof m);
        m.kind = MSG_AT;
        m.id = r->w;
        m.line = W->line;
        m.mask = W->mask;
        memcpy(m.data, W->data, DUALOPT_E2E_LINE);
        s->t.at_msgs++;
        s->t.rc_fwd++;
        to_home(s, g, &m, DUALOPT_GPU_WR_BYTES);
    } else if (kind == DUALOPT_RCACHE_FLUSH && r->op == DUALOPT_RCACHE_KERNEL) {
        s->t.rc_flush_wbs += PO(b, R_RSP_WBS)[0];
        G->flush_wait = 0;
    } else
        s->t.stray++;
}

/* a write-back or a fetch of the RDMA cache to the line's home */
static void rc_out(dualopt_sys *s, gpu_t *G, unsigned g)
{
    dw_blk *b = &G->p.b[B_RC];
    req_msg m;
    unsigned j;
    memset(&m, 0, sizeof m);
    m.line = PO(b, R_OUT_LINE)[0];
    s->progress = 1;
    if (PO(b, R_OUT_KIND)[0]) {
        m.kind = MSG_WB;
        m.mask = PO(b, R_OUT_MASK)[0];
        for (j = 0; j < DUALOPT_E2E_LINE; j++)
            m.data[j] = (uint8_t)get_bits(PO(b, R_OUT_DATA), 8 * j);
        s->t.rc_wbs++;
        s->wbs_seen++;
        if (s->o.fault == DUALOPT_SYS_FAULT_DROP_WB && s->wbs_seen == s->o.fault_n) {
            s->t.faults++;
            link_msg(s, DUALOPT_GPU_WR_BYTES);
        } else {
            s->t.wb_msgs++;
            s->wb_inflight++;
            to_home(s, g, &m, DUALOPT_GPU_WR_BYTES);
        }
    } else {
        m.kind = MSG_READ;
        m.id = ID_FETCH;
        m.mask = s->mask_all;
        s->t.req_msgs++;
        to_home(s, g, &m, DUALOPT_E2E_REQ_BYTES);
    }
}

static void observe_rc(dualopt_sys *s, gpu_t *G, unsigned g)
{
    dw_blk *b = &G->p.b[B_RC];
    if (PI(b, R_REQ_VALID)[0] && PO(b, R_REQ_READY)[0]) {
        cmp_fifo_push(&G->rc_side, cmp_fifo_at(&G->q_rc, 0));
        cmp_fifo_pop(&G->q_rc);
        s->progress = 1;
    }
    if (PO(b, R_RSP_VALID)[0]) {
        s->progress = 1;
        if (G->rc_side.n == 0)
            s->t.stray++;
        else {
            rc_answer(s, G, g, (unsigned)PO(b, R_RSP_KIND)[0], cmp_fifo_at(&G->rc_side, 0));
            cmp_fifo_pop(&G->rc_side);
        }
    }
    if (PO(b, R_OUT_VALID)[0] && PI(b, R_OUT_READY)[0])
        rc_out(s, G, g);
    if (PI(b, R_FILL_VALID)[0] && PO(b, R_FILL_READY)[0]) {
        G->fill_has = 0;
        s->progress = 1;
    }
}

/* decision engine: its outputs are the mode registers of the next cycle */
static void observe_de(dualopt_sys *s, gpu_t *G, unsigned g)
{
    dw_blk *b = &G->p.b[B_DE];
    if (PI(b, E_ACC_VALID)[0] && PO(b, E_ACC_READY)[0])
        cmp_fifo_pop(&G->q_de);
    G->kern_pulse = 0;
    if (PO(b, E_DEC_VALID)[0] && !s->t.decided_at[g])
        s->t.decided_at[g] = s->cyc;
    if (s->o.force == DUALOPT_GPU_AUTO) {
        G->mode_q = (unsigned)PO(b, E_MODE)[0];
        G->bgu_mask_q = (unsigned)PO(b, E_BGU_MASK)[0];
        G->bypass_q = (unsigned)PO(b, E_SCBU_BYPASS)[0];
        G->mshr_mask_q = (unsigned)PO(b, E_MSHR_MASK)[0];
        G->rc_en_q = (unsigned)PO(b, E_RC_EN)[0];
    }
}

static void observe(dualopt_sys *s, unsigned g)
{
    gpu_t *G = &s->g[g];
    observe_bgu(s, G);
    observe_scbu(s, G, g);
    observe_mshr(s, G, g);
    observe_coal(s, G, g);
    observe_decoal(s, G, g);
    observe_rc(s, G, g);
    observe_de(s, G, g);
}

/* the home's answer to one message: a write performed (and acknowledged
 * unless a write-back), an atomic's old line, the selected words or the
 * line of a read */
static void home_msg(void *sys, unsigned g, unsigned src, const req_msg *m)
{
    dualopt_sys *s = sys;
    gpu_t *G = &s->g[g];
    coal_item c;
    line_item li;
    memset(&c, 0, sizeof c);
    c.dst = src;
    c.id = m->id;
    if (m->kind == MSG_WRITE || m->kind == MSG_WB) {
        write_line(s, m->line, m->mask, m->data);
        if (m->kind == MSG_WB)
            s->wb_inflight--;
        else { /* write-done, 4 bytes */
            ack_item a = {s->cyc + s->o.link_lat};
            cmp_fifo_push(&s->g[src].q_ack, &a);
            s->t.acks++;
            link_msg(s, 4);
        }
        return;
    }
    read_line(s, m->line, li.line);
    if (m->kind == MSG_AT)
        write_line(s, m->line, m->mask, m->data);
    if (m->kind == MSG_READ && m->fine)
        dualopt_wire_select(li.line, m->mask, &c);
    else {
        c.reg = 1;
        c.id = m->kind == MSG_AT ? ID_AT | m->id : m->id;
        c.bytes = DUALOPT_E2E_LINE_RSP_BYTES;
        cmp_fifo_push(&G->p.side[src], &li);
    }
    cmp_fifo_push(&G->p.coal_in, &c);
}

static void read_local(void *ctx, uint64_t line, uint8_t *d) { read_line(ctx, line, d); }

/* the composition's own work: local reads, acknowledgements, homes */
static void internal(dualopt_sys *s, unsigned g)
{
    gpu_t *G = &s->g[g];
    if (dualopt_wire_local(&G->p, s->cyc, s->mask_all, read_local, s))
        s->progress = 1;
    if (G->q_ack.n && ((const ack_item *)cmp_fifo_at(&G->q_ack, 0))->t <= s->cyc) {
        cmp_fifo_pop(&G->q_ack);
        G->st_pending--;
        s->progress = 1;
    }
    if (dualopt_wire_home(s->path, g, s->o.gpus, s->cyc, home_msg, s))
        s->progress = 1;
}

static int gpu_idle(const gpu_t *G)
{
    return dualopt_wire_idle(&G->p) && !G->st_pending && !G->q_rc.n && !G->rc_side.n &&
           !G->q_ack.n && !G->fill_has;
}

/* kernel end: every GPU issued its accesses of the kernel and is empty ->
 * flush every RDMA cache; every flush answered and every write-back home ->
 * snapshot, engines told, next kernel */
static void boundary(dualopt_sys *s)
{
    unsigned g, n = s->o.gpus;
    size_t img = (size_t)n * DUALOPT_E2E_REGION;
    if (s->phase == PH_RUN) {
        for (g = 0; g < n; g++) {
            const gpu_t *G = &s->g[g];
            if ((G->next_op < G->nops && s->k->op[G->ops[G->next_op]].kernel == s->kern) ||
                !gpu_idle(G))
                return;
        }
        for (g = 0; g < n; g++) {
            rc_item r;
            memset(&r, 0, sizeof r);
            r.op = DUALOPT_RCACHE_KERNEL;
            cmp_fifo_push(&s->g[g].q_rc, &r);
            s->g[g].flush_wait = 1;
        }
        s->t.flushes++;
        s->phase = PH_FLUSH;
        s->progress = 1;
        return;
    }
    if (s->phase == PH_GAP) {
        if (--s->gap == 0)
            s->phase = PH_RUN;
        s->progress = 1;
        return;
    }
    if (s->phase != PH_FLUSH || s->wb_inflight)
        return;
    for (g = 0; g < n; g++)
        if (s->g[g].flush_wait || !gpu_idle(&s->g[g]))
            return;
    memcpy(s->res.image + (size_t)s->kern * img, s->mem, img);
    for (g = 0; g < n; g++) {
        s->t.mode[g][s->kern] = s->g[g].mode_q;
        s->g[g].kern_pulse = 1;
        memset(s->g[g].l1, 0, sizeof s->g[g].l1);
    }
    s->kern++;
    s->phase = s->kern == s->k->kernels ? PH_DONE : PH_GAP;
    s->gap = GAP_CYCLES;
    s->progress = 1;
}

static void step_drive(void *s, unsigned g) { drive(s, g); }
static void step_observe(void *s, unsigned g) { observe(s, g); }
static void step_internal(void *s, unsigned g) { internal(s, g); }
static void step_after(void *p)
{
    dualopt_sys *s = p;
    if (s->cyc >= START_CYCLE)
        boundary(s);
}
static const dw_steps sys_steps = {step_drive, step_observe, step_internal, step_after};

int dualopt_sys_cycle(dualopt_sys *s)
{
    s->progress = 0;
    dualopt_wire_cycle(&s->cs, s->o.gpus, s->cyc, &sys_steps, s);
    if (s->progress || s->cyc < START_CYCLE)
        s->last_progress = s->cyc;
    s->t.cycles = ++s->cyc;
    return s->phase == PH_DONE;
}

int dualopt_sys_stuck(dualopt_sys *s)
{
    return s->cyc >= s->o.max_cycles || s->cyc - s->last_progress > s->o.idle_limit;
}

const dualopt_sys_stats *dualopt_sys_stats_of(const dualopt_sys *s) { return &s->t; }
const dualopt_gpu_result *dualopt_sys_result_of(const dualopt_sys *s) { return &s->res; }
cmp_sys *dualopt_sys_blocks(dualopt_sys *s) { return &s->cs; }
int dualopt_sys_in_reset(const dualopt_sys *s) { return s->cyc <= RESET_CYCLES; }

static const char *const mode_names[] = {"MONITOR", "NONE", "COALESCE", "CACHE"};

void dualopt_sys_print(FILE *f, const char *lead, const dualopt_sys_opts *o, const dualopt_gpu_kernel *k,
               const dualopt_sys_stats *t)
{
    unsigned g, kk;
#define U(x) ((unsigned long long)(x))
    fprintf(f, "%ssys %u GPUs, %u kernels, link %u cycles each way: %llu cycles; loads %llu "
            "stores %llu atomics %llu\n",
            lead, o->gpus, k->kernels, o->link_lat, U(t->cycles), U(t->loads), U(t->stores),
            U(t->atomics));
    for (g = 0; g < o->gpus; g++) {
        fprintf(f, "%ssys gpu%u modes:", lead, g);
        for (kk = 0; kk < k->kernels; kk++)
            fprintf(f, " %s", mode_names[t->mode[g][kk] & 3]);
        if (t->decided_at[g])
            fprintf(f, " (decided in cycle %llu)", U(t->decided_at[g]));
        fputc('\n', f);
    }
    fprintf(f, "%ssys L1 requests %llu: local %llu remote %llu bypassed %llu; engine events %llu; "
            "MSHR hits %llu misses %llu stalls %llu\n",
            lead, U(t->requests), U(t->local), U(t->remote), U(t->bypassed), U(t->de_events),
            U(t->mshr_hits), U(t->mshr_misses), U(t->mshr_stalls));
    fprintf(f, "%ssys link: %llu bytes %llu flits; reads %llu writes %llu atomics %llu "
            "write-backs %llu acks %llu; packets %llu (%llu coalesced, %llu slots; %llu regular)\n",
            lead, U(t->bytes), U(t->flits), U(t->req_msgs), U(t->wr_msgs), U(t->at_msgs),
            U(t->wb_msgs), U(t->acks), U(t->packets), U(t->coal_packets), U(t->slots),
            U(t->reg_packets));
    fprintf(f, "%ssys rcache: read hits %llu misses %llu; write hits %llu misses %llu; atomics "
            "forwarded %llu; write-backs %llu (%llu at %llu flushes)\n",
            lead, U(t->rc_hits), U(t->rc_misses), U(t->rc_whits), U(t->rc_wmiss), U(t->rc_fwd),
            U(t->rc_wbs), U(t->rc_flush_wbs), U(t->flushes));
    if (t->stray || t->faults)
        fprintf(f, "%ssys anomalies: %llu unmatched, %llu faults injected\n", lead, U(t->stray),
                U(t->faults));
#undef U
}

/* ----------------------------------------------------------- atomics -- */

void dualopt_gpu_kernel_atomics(dualopt_gpu_kernel *k, unsigned pct)
{
    uint64_t r = k->seed * 0x9e3779b97f4a7c15ull + 0x5851f42d4c957f2dull;
    size_t i;
    for (i = 0; i < k->n; i++) {
        dualopt_gpu_op *o = &k->op[i];
        unsigned a, b;
        int disjoint = 1;
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        if (o->store != 1 || r % 100 >= pct)
            continue;
        for (a = 0; a < DUALOPT_E2E_LANES && disjoint; a++)
            for (b = a + 1; b < DUALOPT_E2E_LANES && ((o->active >> a) & 1); b++)
                if (((o->active >> b) & 1) && o->addr[a] < o->addr[b] + o->size &&
                    o->addr[b] < o->addr[a] + o->size) {
                    disjoint = 0;
                    break;
                }
        if (disjoint)
            o->store = 2;
    }
}
