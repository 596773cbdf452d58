/*
 * DualOpt: the GPU in every mode at cycle level (cmodel/dualopt/dualopt_sys.h;
 * docs/dualopt.md "The GPU at cycle level"). Seven blocks per GPU, driven
 * through their ports every cycle as in cmodel/dualopt/dualopt_e2e.c (whose block
 * and queue plumbing this file repeats): BGU, SCBU, bitmask MSHR, RDMA
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
#include "dualopt_plumb.h"
#include "dualopt_rcache.h"
#include "dualopt_scbu.h"
#include "dualopt_sys.h"

enum { B_BGU, B_SCBU, B_MSHR, B_COAL, B_DECOAL, B_RC, B_DE, B_N };
static const char *const blk_unit[B_N] = {"dualopt-bgu", "dualopt-scbu", "dualopt-mshr",
                                          "dualopt-coal", "dualopt-decoal", "dualopt-rcache",
                                          "dualopt-de"};
static const char *const blk_short[B_N] = {"bgu", "scbu", "mshr", "coal", "decoal", "rcache", "de"};

enum { G_INST_VALID, G_INST_ACTIVE, G_INST_ADDR, G_INST_SIZE, G_REQ_READY, G_INST_READY,
       G_REQ_VALID, G_REQ_LINE, G_REQ_MASK, G_REQ_LANES, G_REQ_LAST, G_N };
enum { S_CFG_VALID, S_CFG_START, S_CFG_END, S_EN_VALID, S_EN_COALESCE, S_ACC_VALID, S_ACC_OP,
       S_ACC_ADDR, S_RES_READY, S_ACC_READY, S_RES_VALID, S_RES_OP, S_RES_ADDR, S_RES_LOCAL,
       S_RES_BYPASS, S_N };
enum { M_REQ_VALID, M_REQ_TAG, M_REQ_LINE, M_REQ_MASK, M_RSP_READY, M_FILL_VALID, M_FILL_ENTRY,
       M_DONE_READY, M_REQ_READY, M_RSP_VALID, M_RSP_KIND, M_RSP_TAG, M_RSP_ENTRY, M_RSP_LINE,
       M_RSP_MASK, M_FILL_READY, M_DONE_VALID, M_DONE_ENTRY, M_DONE_LINE, M_DONE_MASK,
       M_DONE_TAG, M_DONE_LAST, M_N };
enum { C_IN_VALID, C_IN_REG, C_IN_DST, C_IN_ID, C_IN_MASK, C_IN_DATA, C_IN_BYTES, C_PKT_READY,
       C_IN_READY, C_PKT_VALID, C_PKT_DST, C_PKT_LEN, C_PKT_DATA, C_N };
enum { D_PKT_VALID, D_PKT_SRC, D_PKT_LEN, D_PKT_DATA, D_OUT_READY, D_PKT_READY, D_OUT_VALID,
       D_OUT_REG, D_OUT_SRC, D_OUT_ID, D_OUT_DATA, D_OUT_BYTES, D_BAD, D_N };
enum { R_REQ_VALID, R_REQ_OP, R_REQ_ADDR, R_REQ_MASK, R_REQ_DATA, R_RSP_READY, R_OUT_READY,
       R_FILL_VALID, R_FILL_DATA, R_REQ_READY, R_RSP_VALID, R_RSP_KIND, R_RSP_LINE, R_RSP_WBS,
       R_RSP_INV, R_RSP_DATA, R_OUT_VALID, R_OUT_KIND, R_OUT_LINE, R_OUT_MASK, R_OUT_DATA,
       R_FILL_READY, R_N };
enum { E_ACC_VALID, E_ACC_KIND, E_ACC_HIT, E_ACC_MASK, E_KERNEL, E_RESTART, E_ACC_READY,
       E_DEC_VALID, E_DEC_MODE, E_MODE, E_BGU_MASK, E_SCBU_BYPASS, E_MSHR_MASK, E_RC_EN, E_N };

static const char *const port_names[B_N][24] = {
    {"inst_valid_i", "inst_active_i", "inst_addr_i", "inst_size_i", "req_ready_i", "inst_ready_o",
     "req_valid_o", "req_line_o", "req_mask_o", "req_lanes_o", "req_last_o", NULL},
    {"cfg_valid_i", "cfg_start_i", "cfg_end_i", "en_valid_i", "en_coalesce_i", "acc_valid_i",
     "acc_op_i", "acc_addr_i", "res_ready_i", "acc_ready_o", "res_valid_o", "res_op_o",
     "res_addr_o", "res_local_o", "res_bypass_o", NULL},
    {"req_valid_i", "req_tag_i", "req_line_i", "req_mask_i", "rsp_ready_i", "fill_valid_i",
     "fill_entry_i", "done_ready_i", "req_ready_o", "rsp_valid_o", "rsp_kind_o", "rsp_tag_o",
     "rsp_entry_o", "rsp_line_o", "rsp_mask_o", "fill_ready_o", "done_valid_o", "done_entry_o",
     "done_line_o", "done_mask_o", "done_tag_o", "done_last_o", NULL},
    {"in_valid_i", "in_reg_i", "in_dst_i", "in_id_i", "in_mask_i", "in_data_i", "in_bytes_i",
     "pkt_ready_i", "in_ready_o", "pkt_valid_o", "pkt_dst_o", "pkt_len_o", "pkt_data_o", NULL},
    {"pkt_valid_i", "pkt_src_i", "pkt_len_i", "pkt_data_i", "out_ready_i", "pkt_ready_o",
     "out_valid_o", "out_reg_o", "out_src_o", "out_id_o", "out_data_o", "out_bytes_o", "bad_o",
     NULL},
    {"req_valid_i", "req_op_i", "req_addr_i", "req_mask_i", "req_data_i", "rsp_ready_i",
     "out_ready_i", "fill_valid_i", "fill_data_i", "req_ready_o", "rsp_valid_o", "rsp_kind_o",
     "rsp_line_o", "rsp_wbs_o", "rsp_inv_o", "rsp_data_o", "out_valid_o", "out_kind_o",
     "out_line_o", "out_mask_o", "out_data_o", "fill_ready_o", NULL},
    {"acc_valid_i", "acc_kind_i", "acc_hit_i", "acc_mask_i", "kernel_i", "restart_i",
     "acc_ready_o", "dec_valid_o", "dec_mode_o", "mode_o", "bgu_mask_o", "scbu_bypass_o",
     "mshr_mask_o", "rcache_en_o", NULL},
};

/* -------------------------------------------------------------- state -- */

#define Q_SCBU_CAP 2
#define Q_MSHR_CAP 2
#define Q_COAL_CAP 4
#define Q_RC_CAP 2
#define RESET_CYCLES 2
#define START_CYCLE (RESET_CYCLES + 2)
#define L1_LINES 64
#define ID_AT 0x4000u          /* atomic response: ID_AT | write record      */
#define ID_FETCH 0x8000u       /* RDMA cache fetch (one in flight)           */
#define WR_MAX 128             /* line writes of one store (64 lanes x 2)    */

enum { OP_RD = 0, OP_WR = 1, OP_AT = 2 };
enum { MSG_READ, MSG_WRITE, MSG_WB, MSG_AT };

typedef struct { unsigned op, w; uint64_t line, mask, lanes; size_t load; } acc_item;
typedef struct { int live; size_t load; uint64_t line, mask, lanes; unsigned local, bypass; } tag_rec;
typedef struct { int live; unsigned local; uint64_t line, mask, have; uint8_t data[E2E_LINE]; } ent_rec;
typedef struct { unsigned kind, src, id, fine; uint64_t line, mask, t; uint8_t data[E2E_LINE]; } req_msg;
typedef struct { unsigned entry; uint64_t t; } local_item;
typedef struct { unsigned reg, dst, id, bytes; uint64_t mask; uint8_t data[E2E_LINE]; } coal_item;
typedef struct { unsigned dst, len; uint64_t img[8]; uint64_t t; } pkt_item;
typedef struct { uint8_t line[E2E_LINE]; } line_item;
typedef struct { unsigned op, w; uint64_t line, mask; unsigned entry; uint8_t data[E2E_LINE]; } rc_item;
typedef struct { unsigned kind, hit; uint64_t mask; } de_item;
typedef struct { uint64_t t; } ack_item;
/* one line of a store or atomic */
typedef struct { uint64_t line, mask, lanes; uint8_t data[E2E_LINE]; } wr_rec;

typedef struct {
    blk b[B_N];
    size_t *ops, nops, next_op, cur_load;
    wr_rec wr[WR_MAX];
    unsigned nwr, wr_next, st_pending;
    size_t st_op;
    fifo q_scbu, q_side, q_mshr, q_retry, q_local, q_fill, q_rc, rc_side, q_de, q_ack;
    int mshr_from_retry;
    tag_rec *tag;
    unsigned ntags, tags_free;
    ent_rec ent[64];
    fifo req_out[E2E_GPUS_MAX];
    fifo coal_in, rsp_link;
    fifo side[E2E_GPUS_MAX];
    unsigned req_rr, dec_rr, dec_src;
    uint8_t done_data[E2E_LINE];
    uint64_t done_have, done_line;
    uint64_t l1[L1_LINES];
    /* mode registers (the engine's outputs of the previous cycle) */
    unsigned mode_q, bgu_mask_q, bypass_q, mshr_mask_q, rc_en_q, en_sent;
    int fill_has;
    uint8_t fill_data[E2E_LINE];
    int kern_pulse, flush_wait;
} gpu_t;

enum { PH_RUN, PH_FLUSH, PH_GAP, PH_DONE };
#define GAP_CYCLES 4 /* the engines' mode settles after kernel_i */

struct sys_sys {
    sys_opts o;
    const gpu_kernel *k;
    e2e_backend be;
    gpu_t g[E2E_GPUS_MAX];
    uint8_t *mem;
    unsigned kern, phase, wb_inflight, gap;
    uint64_t cyc, last_progress, wbs_seen;
    uint64_t mask_all;
    int progress;
    sys_stats t;
    gpu_result res;
};

void sys_opts_default(sys_opts *o)
{
    memset(o, 0, sizeof *o);
    o->gpus = 2;
    o->force = GPU_AUTO;
    o->de_preset = "tiny";
    o->link_lat = 20;
    o->local_lat = 10;
    o->link_cap = 4;
    o->max_cycles = 5000000;
    o->idle_limit = 5000;
}

static unsigned popc(uint64_t x)
{
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}
static uint64_t flits(uint64_t bytes) { return (bytes + E2E_FLIT - 1) / E2E_FLIT; }
static void put_bits(uint64_t *w, unsigned lo, unsigned n, uint64_t v) { codec_bits_put(w, lo, n, v); }
static uint64_t get_bits(const uint64_t *w, unsigned lo) { return (w[lo / 64] >> (lo % 64)) & 0xff; }

static void link_msg(sys_sys *s, unsigned bytes)
{
    s->t.bytes += bytes;
    s->t.flits += flits(bytes);
}

/* ---------------------------------------------------------- lifetime -- */

static int blk_open(sys_sys *s, blk *b, unsigned kind, unsigned gpu, char *err, size_t len)
{
    const char *preset = kind == B_DE ? s->o.de_preset : "default";
    char args[64];
    unsigned k, i, w;
    unsigned in_off[UNIT_PORTS_MAX], out_off[UNIT_PORTS_MAX];
    b->u = unit_find(blk_unit[kind]);
    snprintf(b->name, sizeof b->name, "gpu%u.%s", gpu, blk_short[kind]);
    if (b->u == NULL) {
        snprintf(err, len, "unit %s is not registered", blk_unit[kind]);
        return -1;
    }
    b->cfg = calloc(1, b->u->cfg_size);
    if (b->cfg == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    snprintf(args, sizeof args, "--config %s", preset);
    if (unit_cfg_parse_str(b->u, b->cfg, args, err, len) != 0 ||
        unit_layout_of(b->u, b->cfg, &b->l, err, len) != 0)
        return -1;
    for (i = 0, w = 1; i < (unsigned)b->l.n; i++)
        if (b->l.p[i].dir == PORT_IN) {
            in_off[i] = w;
            w += UNIT_WORDS(b->l.p[i].width);
        }
    for (i = 0, w = 0; i < (unsigned)b->l.n; i++)
        if (b->l.p[i].dir == PORT_OUT) {
            out_off[i] = w;
            w += UNIT_WORDS(b->l.p[i].width);
        }
    for (k = 0; port_names[kind][k]; k++) {
        for (i = 0; i < (unsigned)b->l.n; i++)
            if (strcmp(b->l.p[i].name, port_names[kind][k]) == 0)
                break;
        if (i == (unsigned)b->l.n) {
            snprintf(err, len, "%s has no port %s", b->u->name, port_names[kind][k]);
            return -1;
        }
        b->off[k] = b->l.p[i].dir == PORT_IN ? in_off[i] : out_off[i];
    }
    b->in = calloc(b->l.in_words, sizeof *b->in);
    b->out = calloc(b->l.out_words + 1, sizeof *b->out);
    if (b->in == NULL || b->out == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    b->h = s->be.open(s->be.ctx, b->u, preset, b->cfg, gpu, err, len);
    return b->h ? 0 : -1;
}

static int check_cfgs(sys_sys *s, char *err, size_t len)
{
    const rcache_cfg *rc = s->g[0].b[B_RC].cfg;
    const de_cfg *dc = s->g[0].b[B_DE].cfg;
    const dualopt_mshr_cfg *mc = s->g[0].b[B_MSHR].cfg;
    if (rc->line != E2E_LINE || rc->addr_bits != mc->addr_bits || dc->words != E2E_WORDS ||
        mc->entries > 64) {
        snprintf(err, len, "unit configurations do not fit the composition (64-byte lines, "
                 "16-bit masks, equal address widths)");
        return -1;
    }
    return 0;
}

sys_sys *sys_new(const sys_opts *o, const gpu_kernel *k, const e2e_backend *b, char *err,
                 size_t len)
{
    sys_sys *s;
    unsigned g, j;
    size_t i;
    if (o->gpus < 2 || o->gpus > E2E_GPUS_MAX || o->gpus != k->gpus || k->kernels > 8) {
        snprintf(err, len, "gpus %u: the composition takes 2..%d GPUs (program: %u)", o->gpus,
                 E2E_GPUS_MAX, k->gpus);
        return NULL;
    }
    if (o->link_lat == 0 || o->local_lat == 0 || o->link_cap == 0) {
        snprintf(err, len, "latencies and the link capacity must be at least 1");
        return NULL;
    }
    s = calloc(1, sizeof *s);
    if (s == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    s->o = *o;
    if (s->o.de_preset == NULL)
        s->o.de_preset = "tiny";
    s->k = k;
    s->be = b ? *b : shell_backend;
    for (g = 0; g < o->gpus; g++) {
        gpu_t *G = &s->g[g];
        fifo_init(&G->q_scbu, sizeof(acc_item));
        fifo_init(&G->q_side, sizeof(acc_item));
        fifo_init(&G->q_mshr, sizeof(unsigned));
        fifo_init(&G->q_retry, sizeof(unsigned));
        fifo_init(&G->q_local, sizeof(local_item));
        fifo_init(&G->q_fill, sizeof(unsigned));
        fifo_init(&G->q_rc, sizeof(rc_item));
        fifo_init(&G->rc_side, sizeof(rc_item));
        fifo_init(&G->q_de, sizeof(de_item));
        fifo_init(&G->q_ack, sizeof(ack_item));
        fifo_init(&G->coal_in, sizeof(coal_item));
        fifo_init(&G->rsp_link, sizeof(pkt_item));
        for (j = 0; j < E2E_GPUS_MAX; j++) {
            fifo_init(&G->req_out[j], sizeof(req_msg));
            fifo_init(&G->side[j], sizeof(line_item));
        }
    }
    for (g = 0; g < o->gpus; g++)
        for (j = 0; j < B_N; j++)
            if (blk_open(s, &s->g[g].b[j], j, g, err, len) != 0) {
                sys_free(s);
                return NULL;
            }
    if (check_cfgs(s, err, len) != 0) {
        sys_free(s);
        return NULL;
    }
    s->mask_all = (1ull << E2E_WORDS) - 1;
    s->mem = malloc((size_t)k->gpus * E2E_REGION);
    s->res.n = k->n;
    s->res.data = calloc(k->n + 1, sizeof *s->res.data);
    s->res.writes = calloc(k->n + 1, sizeof *s->res.writes);
    s->res.image = calloc((size_t)k->kernels * k->gpus, E2E_REGION);
    if (!s->mem || !s->res.data || !s->res.writes || !s->res.image) {
        snprintf(err, len, "out of memory");
        sys_free(s);
        return NULL;
    }
    memcpy(s->mem, k->mem, (size_t)k->gpus * E2E_REGION);
    for (g = 0; g < o->gpus; g++) {
        gpu_t *G = &s->g[g];
        const dualopt_mshr_cfg *mc = G->b[B_MSHR].cfg;
        G->ntags = 1u << mc->tag_bits;
        G->tags_free = G->ntags;
        G->tag = calloc(G->ntags, sizeof *G->tag);
        G->ops = calloc(k->n + 1, sizeof *G->ops);
        if (G->tag == NULL || G->ops == NULL) {
            snprintf(err, len, "out of memory");
            sys_free(s);
            return NULL;
        }
        for (i = 0; i < k->n; i++)
            if (k->op[i].gpu == g)
                G->ops[G->nops++] = i;
        if (o->force != GPU_AUTO) {
            G->mode_q = o->force == GPU_FORCE_NONE ? DE_NONE
                        : o->force == GPU_FORCE_COALESCE ? DE_COALESCE : DE_CACHE;
            G->bgu_mask_q = G->bypass_q = G->mshr_mask_q = G->mode_q == DE_COALESCE;
            G->rc_en_q = G->mode_q == DE_CACHE;
        }
    }
    for (i = 0; i < k->n; i++)
        if (k->op[i].gpu >= o->gpus || k->op[i].size < 1 || k->op[i].size > 16 ||
            k->op[i].store > 2) {
            snprintf(err, len, "access %zu: gpu, size or kind out of range", i);
            sys_free(s);
            return NULL;
        }
    return s;
}

void sys_free(sys_sys *s)
{
    unsigned g, j;
    if (s == NULL)
        return;
    for (g = 0; g < E2E_GPUS_MAX; g++) {
        gpu_t *G = &s->g[g];
        fifo *qs[] = {&G->q_scbu, &G->q_side, &G->q_mshr, &G->q_retry, &G->q_local, &G->q_fill,
                      &G->q_rc, &G->rc_side, &G->q_de, &G->q_ack, &G->coal_in, &G->rsp_link};
        for (j = 0; j < B_N; j++) {
            if (G->b[j].h)
                s->be.close(G->b[j].h);
            free(G->b[j].cfg);
            free(G->b[j].in);
            free(G->b[j].out);
        }
        for (j = 0; j < sizeof qs / sizeof *qs; j++)
            fifo_free(qs[j]);
        for (j = 0; j < E2E_GPUS_MAX; j++) {
            fifo_free(&G->req_out[j]);
            fifo_free(&G->side[j]);
        }
        free(G->tag);
        free(G->ops);
    }
    free(s->mem);
    gpu_result_free(&s->res);
    free(s);
}

/* ------------------------------------------------------------ memory -- */

static uint8_t *mem_at(sys_sys *s, uint64_t addr)
{
    long off = gpu_mem_off(s->k->gpus, addr);
    return off < 0 ? NULL : s->mem + off;
}

static void read_line(sys_sys *s, uint64_t line, uint8_t *d)
{
    unsigned j;
    for (j = 0; j < E2E_LINE; j++) {
        const uint8_t *p = mem_at(s, line * E2E_LINE + j);
        d[j] = p ? *p : 0;
    }
}

static void write_line(sys_sys *s, uint64_t line, uint64_t mask, const uint8_t *d)
{
    unsigned j;
    for (j = 0; j < E2E_LINE; j++) {
        uint8_t *p = (mask >> j) & 1 ? mem_at(s, line * E2E_LINE + j) : NULL;
        if (p)
            *p = d[j];
    }
}

static unsigned home_of(uint64_t line) { return (unsigned)((line * E2E_LINE) >> E2E_SPAN_BITS); }

/* the lanes of op `op` in `line` get the bytes of `d` (old bytes of an
 * atomic, or a load's line as far as `have` covers it) */
static void deliver_line(sys_sys *s, size_t op, uint64_t lanes, uint64_t line, uint64_t have,
                         const uint8_t *d)
{
    const gpu_op *o = &s->k->op[op];
    unsigned lane, b;
    for (lane = 0; lane < E2E_LANES; lane++) {
        if (!((lanes >> lane) & 1))
            continue;
        for (b = 0; b < o->size; b++) {
            uint64_t a = o->addr[lane] + b;
            unsigned off = (unsigned)(a % E2E_LINE);
            if (a / E2E_LINE != line || !((have >> (off / E2E_GRAN)) & 1))
                continue;
            s->res.data[op][lane][b] = d[off];
            if (s->res.writes[op][lane][b] < 255)
                s->res.writes[op][lane][b]++;
        }
    }
}

/* a store or atomic split into line writes (lanes in ascending order) */
static void split_store(sys_sys *s, gpu_t *G, size_t op)
{
    const gpu_op *o = &s->k->op[op];
    unsigned lane, b, i;
    G->nwr = 0;
    G->wr_next = 0;
    for (lane = 0; lane < E2E_LANES; lane++) {
        if (!((o->active >> lane) & 1))
            continue;
        for (b = 0; b < o->size; b++) {
            uint64_t a = o->addr[lane] + b, line = a / E2E_LINE;
            for (i = 0; i < G->nwr && G->wr[i].line != line; i++)
                ;
            if (i == G->nwr) {
                if (G->nwr == WR_MAX)
                    continue;
                memset(&G->wr[i], 0, sizeof G->wr[i]);
                G->wr[i].line = line;
                G->nwr++;
            }
            G->wr[i].mask |= 1ull << (a % E2E_LINE);
            G->wr[i].lanes |= 1ull << lane;
            G->wr[i].data[a % E2E_LINE] = gpu_store_byte(s->k, op, lane, b);
        }
    }
    G->st_pending = G->nwr;
    G->st_op = op;
}

/* ------------------------------------------------------------ inputs -- */

static int loads_idle(const gpu_t *G)
{
    return G->tags_free == G->ntags && !G->q_scbu.n && !G->q_side.n && !G->q_mshr.n &&
           !G->q_retry.n;
}

static void drive(sys_sys *s, unsigned g)
{
    gpu_t *G = &s->g[g];
    blk *b;
    unsigned n = s->o.gpus, h;
    int started = s->cyc >= START_CYCLE && s->phase == PH_RUN;

    /* op issue: loads to the BGU; stores and atomics split into line writes */
    b = &G->b[B_BGU];
    if (started && G->st_pending == 0 && G->next_op < G->nops &&
        s->k->op[G->ops[G->next_op]].kernel == s->kern) {
        size_t op = G->ops[G->next_op];
        const gpu_op *o = &s->k->op[op];
        if (!o->store) {
            const bgu_cfg *bc = b->cfg;
            unsigned lane;
            G->cur_load = op;
            PI(b, G_INST_VALID)[0] = 1;
            PI(b, G_INST_ACTIVE)[0] = o->active;
            for (lane = 0; lane < bc->lanes; lane++)
                put_bits(PI(b, G_INST_ADDR), lane * bc->addr_bits, bc->addr_bits, o->addr[lane]);
            PI(b, G_INST_SIZE)[0] = o->size - 1;
        }
    }
    PI(b, G_REQ_READY)[0] = G->q_scbu.n < Q_SCBU_CAP;

    /* SCBU: programmed once; its mode register follows the engine */
    b = &G->b[B_SCBU];
    if (s->cyc == RESET_CYCLES) {
        PI(b, S_CFG_VALID)[0] = 1;
        PI(b, S_CFG_START)[0] = (uint64_t)g << E2E_SPAN_BITS;
        PI(b, S_CFG_END)[0] = (uint64_t)(g + 1) << E2E_SPAN_BITS;
    }
    if (s->cyc == RESET_CYCLES || G->bypass_q != G->en_sent) {
        PI(b, S_EN_VALID)[0] = 1;
        PI(b, S_EN_COALESCE)[0] = G->bypass_q;
    }
    if (G->q_scbu.n) {
        const acc_item *it = fifo_at(&G->q_scbu, 0);
        PI(b, S_ACC_VALID)[0] = 1;
        PI(b, S_ACC_OP)[0] = it->op;
        PI(b, S_ACC_ADDR)[0] = it->line * E2E_LINE;
    }
    PI(b, S_RES_READY)[0] = G->q_mshr.n < Q_MSHR_CAP && G->tags_free > 0;

    /* MSHR */
    b = &G->b[B_MSHR];
    G->mshr_from_retry = G->q_retry.n > 0;
    if (G->q_retry.n || G->q_mshr.n) {
        unsigned t = *(unsigned *)fifo_at(G->q_retry.n ? &G->q_retry : &G->q_mshr, 0);
        const tag_rec *r = &G->tag[t];
        PI(b, M_REQ_VALID)[0] = 1;
        PI(b, M_REQ_TAG)[0] = t;
        PI(b, M_REQ_LINE)[0] = r->line;
        PI(b, M_REQ_MASK)[0] = r->bypass && G->mshr_mask_q && G->bgu_mask_q ? r->mask : s->mask_all;
    }
    PI(b, M_RSP_READY)[0] = 1;
    if (G->q_fill.n) {
        PI(b, M_FILL_VALID)[0] = 1;
        PI(b, M_FILL_ENTRY)[0] = *(unsigned *)fifo_at(&G->q_fill, 0);
    }
    PI(b, M_DONE_READY)[0] = 1;

    /* coalescer (home side) */
    b = &G->b[B_COAL];
    if (G->coal_in.n) {
        const coal_item *c = fifo_at(&G->coal_in, 0);
        PI(b, C_IN_VALID)[0] = 1;
        PI(b, C_IN_REG)[0] = c->reg;
        PI(b, C_IN_DST)[0] = (c->dst + n - g) % n;
        PI(b, C_IN_ID)[0] = c->id;
        if (c->reg)
            PI(b, C_IN_BYTES)[0] = c->bytes;
        else {
            unsigned j, bytes = popc(c->mask) * E2E_GRAN;
            PI(b, C_IN_MASK)[0] = c->mask;
            for (j = 0; j < bytes; j++)
                put_bits(PI(b, C_IN_DATA), 8 * j, 8, c->data[j]);
        }
    }
    PI(b, C_PKT_READY)[0] = G->rsp_link.n < s->o.link_cap;

    /* de-coalescer (requester side) */
    b = &G->b[B_DECOAL];
    for (h = 0; h < n; h++) {
        unsigned src = (G->dec_rr + h) % n;
        const gpu_t *H = &s->g[src];
        const pkt_item *p;
        if (src == g || H->rsp_link.n == 0)
            continue;
        p = fifo_at(&H->rsp_link, 0);
        if (p->dst != g || p->t > s->cyc)
            continue;
        G->dec_src = src;
        PI(b, D_PKT_VALID)[0] = 1;
        PI(b, D_PKT_SRC)[0] = src;
        PI(b, D_PKT_LEN)[0] = p->len;
        memcpy(PI(b, D_PKT_DATA), p->img, sizeof p->img);
        break;
    }
    PI(b, D_OUT_READY)[0] = 1;

    /* RDMA cache */
    b = &G->b[B_RC];
    if (G->q_rc.n) {
        const rc_item *r = fifo_at(&G->q_rc, 0);
        unsigned j;
        PI(b, R_REQ_VALID)[0] = 1;
        PI(b, R_REQ_OP)[0] = r->op;
        PI(b, R_REQ_ADDR)[0] = r->line * E2E_LINE;
        if (r->op == RC_WR) {
            PI(b, R_REQ_MASK)[0] = r->mask;
            for (j = 0; j < E2E_LINE; j++)
                put_bits(PI(b, R_REQ_DATA), 8 * j, 8, r->data[j]);
        }
    }
    PI(b, R_RSP_READY)[0] = 1;
    PI(b, R_OUT_READY)[0] = 1;
    if (G->fill_has) {
        unsigned j;
        PI(b, R_FILL_VALID)[0] = 1;
        for (j = 0; j < E2E_LINE; j++)
            put_bits(PI(b, R_FILL_DATA), 8 * j, 8, G->fill_data[j]);
    }

    /* decision engine */
    b = &G->b[B_DE];
    if (G->q_de.n) {
        const de_item *d = fifo_at(&G->q_de, 0);
        PI(b, E_ACC_VALID)[0] = 1;
        PI(b, E_ACC_KIND)[0] = d->kind;
        PI(b, E_ACC_HIT)[0] = d->hit;
        PI(b, E_ACC_MASK)[0] = d->mask;
    }
    PI(b, E_KERNEL)[0] = G->kern_pulse;
}

/* ------------------------------------------------------- handshakes -- */

static void entry_done(gpu_t *G, unsigned e) { fifo_push(&G->q_fill, &e); }

static void to_home(sys_sys *s, unsigned g, req_msg *m, unsigned bytes)
{
    unsigned home = home_of(m->line);
    m->src = g;
    m->t = s->cyc + s->o.link_lat;
    link_msg(s, bytes);
    if (home >= s->o.gpus || home == g)
        s->t.stray++;
    else
        fifo_push(&s->g[g].req_out[home], m);
}

static void l1_event(sys_sys *s, gpu_t *G, unsigned op, unsigned local, uint64_t line,
                     uint64_t mask, unsigned bypass)
{
    de_item d;
    unsigned slot = (unsigned)(line % L1_LINES);
    d.kind = (local ? 0 : 2) | (op != OP_RD);
    d.hit = G->l1[slot] == line + 1;
    d.mask = op == OP_RD ? mask : 0;
    if (op == OP_RD && !bypass)
        G->l1[slot] = line + 1;
    fifo_push(&G->q_de, &d);
    s->t.de_events++;
}

/* the store or atomic line w of GPU g at the L1 controller, after the SCBU */
static void store_line(sys_sys *s, unsigned g, unsigned w, unsigned op, unsigned local)
{
    gpu_t *G = &s->g[g];
    wr_rec *W = &G->wr[w];
    if (local) {
        if (op == OP_AT) {
            uint8_t old[E2E_LINE];
            read_line(s, W->line, old);
            deliver_line(s, G->st_op, W->lanes, W->line, s->mask_all, old);
        }
        write_line(s, W->line, W->mask, W->data);
        G->st_pending--;
    } else if (G->rc_en_q) {
        rc_item r;
        memset(&r, 0, sizeof r);
        r.op = op == OP_AT ? RC_AT : RC_WR;
        r.w = w;
        r.line = W->line;
        r.mask = W->mask;
        memcpy(r.data, W->data, E2E_LINE);
        fifo_push(&G->q_rc, &r);
    } else {
        req_msg m;
        memset(&m, 0, sizeof m);
        m.kind = op == OP_AT ? MSG_AT : MSG_WRITE;
        m.id = w;
        m.line = W->line;
        m.mask = W->mask;
        memcpy(m.data, W->data, E2E_LINE);
        if (op == OP_AT)
            s->t.at_msgs++;
        else
            s->t.wr_msgs++;
        to_home(s, g, &m, GPU_WR_BYTES);
    }
}

static void observe(sys_sys *s, unsigned g)
{
    gpu_t *G = &s->g[g];
    unsigned n = s->o.gpus;
    blk *b;

    /* BGU */
    b = &G->b[B_BGU];
    if (PO(b, G_REQ_VALID)[0] && PI(b, G_REQ_READY)[0]) {
        acc_item it;
        memset(&it, 0, sizeof it);
        it.op = OP_RD;
        it.line = PO(b, G_REQ_LINE)[0];
        it.mask = PO(b, G_REQ_MASK)[0];
        it.lanes = PO(b, G_REQ_LANES)[0];
        it.load = G->cur_load;
        fifo_push(&G->q_scbu, &it);
        s->t.requests++;
        s->progress = 1;
    }
    if (PI(b, G_INST_VALID)[0] && PO(b, G_INST_READY)[0]) {
        G->next_op++;
        s->t.loads++;
        s->progress = 1;
    }
    /* a store or atomic: once the loads before it completed, its line writes
     * go to the SCBU one a cycle */
    if (s->phase == PH_RUN && s->cyc >= START_CYCLE && G->st_pending == 0 &&
        G->next_op < G->nops && loads_idle(G)) {
        size_t op = G->ops[G->next_op];
        const gpu_op *o = &s->k->op[op];
        if (o->store && o->kernel == s->kern && !PI(b, G_INST_VALID)[0]) {
            split_store(s, G, op);
            G->next_op++;
            if (o->store == 2)
                s->t.atomics++;
            else
                s->t.stores++;
            s->progress = 1;
        }
    }
    if (G->wr_next < G->nwr && G->q_scbu.n < Q_SCBU_CAP && G->st_pending) {
        acc_item it;
        memset(&it, 0, sizeof it);
        it.op = s->k->op[G->st_op].store == 2 ? OP_AT : OP_WR;
        it.w = G->wr_next++;
        it.line = G->wr[it.w].line;
        fifo_push(&G->q_scbu, &it);
        s->t.requests++;
    }

    /* SCBU */
    b = &G->b[B_SCBU];
    if (PI(b, S_EN_VALID)[0])
        G->en_sent = (unsigned)PI(b, S_EN_COALESCE)[0];
    if (PI(b, S_ACC_VALID)[0] && PO(b, S_ACC_READY)[0]) {
        fifo_push(&G->q_side, fifo_at(&G->q_scbu, 0));
        fifo_pop(&G->q_scbu);
    }
    if (PO(b, S_RES_VALID)[0] && PI(b, S_RES_READY)[0]) {
        const acc_item *it = fifo_at(&G->q_side, 0);
        unsigned local = (unsigned)PO(b, S_RES_LOCAL)[0], bypass = (unsigned)PO(b, S_RES_BYPASS)[0];
        if (local)
            s->t.local++;
        else
            s->t.remote++;
        l1_event(s, G, it->op, local, it->line, it->mask, bypass);
        if (it->op == OP_RD) {
            unsigned t;
            for (t = 0; t < G->ntags && G->tag[t].live; t++)
                ;
            G->tag[t].live = 1;
            G->tag[t].load = it->load;
            G->tag[t].line = it->line;
            G->tag[t].mask = it->mask;
            G->tag[t].lanes = it->lanes;
            G->tag[t].local = local;
            G->tag[t].bypass = bypass;
            G->tags_free--;
            s->t.bypassed += bypass;
            fifo_push(&G->q_mshr, &t);
        } else
            store_line(s, g, it->w, it->op, local);
        fifo_pop(&G->q_side);
        s->progress = 1;
    }

    /* MSHR */
    b = &G->b[B_MSHR];
    if (PI(b, M_REQ_VALID)[0] && PO(b, M_REQ_READY)[0])
        fifo_pop(G->mshr_from_retry ? &G->q_retry : &G->q_mshr);
    if (PO(b, M_RSP_VALID)[0]) {
        unsigned kind = (unsigned)PO(b, M_RSP_KIND)[0], t = (unsigned)PO(b, M_RSP_TAG)[0];
        unsigned e = (unsigned)PO(b, M_RSP_ENTRY)[0];
        s->progress = 1;
        if (kind == DUALOPT_MSHR_HIT)
            s->t.mshr_hits++;
        else if (kind == DUALOPT_MSHR_MISS) {
            ent_rec *E = &G->ent[e];
            s->t.mshr_misses++;
            if (E->live)
                s->t.stray++;
            memset(E, 0, sizeof *E);
            E->live = 1;
            E->local = G->tag[t].local;
            E->line = PO(b, M_RSP_LINE)[0];
            E->mask = PO(b, M_RSP_MASK)[0];
            if (E->local) {
                local_item li = {e, s->cyc + s->o.local_lat};
                fifo_push(&G->q_local, &li);
            } else if (G->rc_en_q) {
                rc_item r;
                memset(&r, 0, sizeof r);
                r.op = RC_RD;
                r.line = E->line;
                r.entry = e;
                fifo_push(&G->q_rc, &r);
            } else {
                req_msg m;
                memset(&m, 0, sizeof m);
                m.kind = MSG_READ;
                m.id = e;
                m.fine = E->mask != s->mask_all;
                m.line = E->line;
                m.mask = E->mask;
                s->t.req_msgs++;
                to_home(s, g, &m, E2E_REQ_BYTES);
            }
        } else {
            s->t.mshr_stalls++;
            fifo_push(&G->q_retry, &t);
        }
    }
    if (PI(b, M_FILL_VALID)[0] && PO(b, M_FILL_READY)[0]) {
        unsigned e = *(unsigned *)fifo_at(&G->q_fill, 0);
        fifo_pop(&G->q_fill);
        memcpy(G->done_data, G->ent[e].data, E2E_LINE);
        G->done_have = G->ent[e].have;
        G->done_line = G->ent[e].line;
        G->ent[e].live = 0;
        s->progress = 1;
    }
    if (PO(b, M_DONE_VALID)[0]) {
        unsigned t = (unsigned)PO(b, M_DONE_TAG)[0];
        if (t < G->ntags && G->tag[t].live && PO(b, M_DONE_LINE)[0] == G->tag[t].line &&
            G->done_line == G->tag[t].line) {
            deliver_line(s, G->tag[t].load, G->tag[t].lanes, G->tag[t].line, G->done_have,
                         G->done_data);
            G->tag[t].live = 0;
            G->tags_free++;
        } else
            s->t.stray++;
        s->progress = 1;
    }

    /* coalescer (home side) */
    b = &G->b[B_COAL];
    if (PI(b, C_IN_VALID)[0] && PO(b, C_IN_READY)[0]) {
        fifo_pop(&G->coal_in);
        s->progress = 1;
    }
    if (PO(b, C_PKT_VALID)[0] && PI(b, C_PKT_READY)[0]) {
        pkt_item p;
        memset(&p, 0, sizeof p);
        p.dst = (unsigned)(PO(b, C_PKT_DST)[0] + g) % n;
        p.len = (unsigned)PO(b, C_PKT_LEN)[0];
        memcpy(p.img, PO(b, C_PKT_DATA), sizeof p.img);
        p.t = s->cyc + s->o.link_lat;
        fifo_push(&G->rsp_link, &p);
        s->t.packets++;
        link_msg(s, p.len);
        if (((p.img[0] >> 4) & 0xf) == 1) {
            s->t.coal_packets++;
            s->t.slots += (p.img[0] >> 8) & 0xf;
        } else
            s->t.reg_packets++;
        s->progress = 1;
    }

    /* de-coalescer (requester side) */
    b = &G->b[B_DECOAL];
    if (PI(b, D_PKT_VALID)[0] && PO(b, D_PKT_READY)[0]) {
        fifo_pop(&s->g[G->dec_src].rsp_link);
        G->dec_rr = (G->dec_src + 1) % n;
        s->progress = 1;
    }
    if (PO(b, D_BAD)[0])
        s->t.stray++;
    if (PO(b, D_OUT_VALID)[0]) {
        unsigned src = (unsigned)PO(b, D_OUT_SRC)[0], id = (unsigned)PO(b, D_OUT_ID)[0];
        ent_rec *E = id < 64 ? &G->ent[id] : NULL;
        s->progress = 1;
        if (PO(b, D_OUT_REG)[0]) {
            if (src < n && src != g && s->g[src].side[g].n) {
                const line_item *li = fifo_at(&s->g[src].side[g], 0);
                if (id == ID_FETCH && !G->fill_has) {
                    G->fill_has = 1;
                    memcpy(G->fill_data, li->line, E2E_LINE);
                } else if ((id & ~0xfffu) == ID_AT && (id & 0xfffu) < G->nwr) {
                    wr_rec *W = &G->wr[id & 0xfffu];
                    deliver_line(s, G->st_op, W->lanes, W->line, s->mask_all, li->line);
                    G->st_pending--;
                } else if (E && E->live && !E->local && E->have == 0) {
                    memcpy(E->data, li->line, E2E_LINE);
                    E->have = s->mask_all;
                    entry_done(G, id);
                } else
                    s->t.stray++;
                fifo_pop(&s->g[src].side[g]);
            } else
                s->t.stray++;
        } else if (E && E->live && !E->local && (E->mask & ~E->have)) {
            uint64_t rest = E->mask & ~E->have, bit = rest & (~rest + 1);
            unsigned w = 0, j;
            uint64_t d = PO(b, D_OUT_DATA)[0];
            while (!((bit >> w) & 1))
                w++;
            for (j = 0; j < E2E_GRAN; j++)
                E->data[w * E2E_GRAN + j] = (uint8_t)(d >> (8 * j));
            E->have |= bit;
            if (E->have == E->mask)
                entry_done(G, id);
        } else
            s->t.stray++;
    }

    /* RDMA cache */
    b = &G->b[B_RC];
    if (PI(b, R_REQ_VALID)[0] && PO(b, R_REQ_READY)[0]) {
        fifo_push(&G->rc_side, fifo_at(&G->q_rc, 0));
        fifo_pop(&G->q_rc);
        s->progress = 1;
    }
    if (PO(b, R_RSP_VALID)[0]) {
        unsigned kind = (unsigned)PO(b, R_RSP_KIND)[0];
        const rc_item *r = G->rc_side.n ? fifo_at(&G->rc_side, 0) : NULL;
        s->progress = 1;
        if (r == NULL)
            s->t.stray++;
        else {
            if ((kind == RC_HIT || kind == RC_MISS) && r->op == RC_RD) {
                ent_rec *E = &G->ent[r->entry];
                unsigned j;
                for (j = 0; j < E2E_LINE; j++)
                    E->data[j] = (uint8_t)get_bits(PO(b, R_RSP_DATA), 8 * j);
                E->have = s->mask_all;
                entry_done(G, r->entry);
                if (kind == RC_HIT)
                    s->t.rc_hits++;
                else
                    s->t.rc_misses++;
            } else if (kind >= RC_WHIT && kind < RC_FWD && r->op == RC_WR) {
                G->st_pending--;
                if (kind == RC_WHIT)
                    s->t.rc_whits++;
                else
                    s->t.rc_wmiss++;
            } else if (kind == RC_FWD && r->op == RC_AT) {
                req_msg m; /* the atomic goes on, behind the line's write-back */
                wr_rec *W = &G->wr[r->w];
                memset(&m, 0, sizeof m);
                m.kind = MSG_AT;
                m.id = r->w;
                m.line = W->line;
                m.mask = W->mask;
                memcpy(m.data, W->data, E2E_LINE);
                s->t.at_msgs++;
                s->t.rc_fwd++;
                to_home(s, g, &m, GPU_WR_BYTES);
            } else if (kind == RC_FLUSH && r->op == RC_KERNEL) {
                s->t.rc_flush_wbs += PO(b, R_RSP_WBS)[0];
                G->flush_wait = 0;
            } else
                s->t.stray++;
            fifo_pop(&G->rc_side);
        }
    }
    if (PO(b, R_OUT_VALID)[0] && PI(b, R_OUT_READY)[0]) {
        req_msg m;
        unsigned j;
        memset(&m, 0, sizeof m);
        m.line = PO(b, R_OUT_LINE)[0];
        s->progress = 1;
        if (PO(b, R_OUT_KIND)[0]) {
            m.kind = MSG_WB;
            m.mask = PO(b, R_OUT_MASK)[0];
            for (j = 0; j < E2E_LINE; j++)
                m.data[j] = (uint8_t)get_bits(PO(b, R_OUT_DATA), 8 * j);
            s->t.rc_wbs++;
            s->wbs_seen++;
            if (s->o.fault == SYS_FAULT_DROP_WB && s->wbs_seen == s->o.fault_n) {
                s->t.faults++;
                link_msg(s, GPU_WR_BYTES);
            } else {
                s->t.wb_msgs++;
                s->wb_inflight++;
                to_home(s, g, &m, GPU_WR_BYTES);
            }
        } else {
            m.kind = MSG_READ;
            m.id = ID_FETCH;
            m.mask = s->mask_all;
            s->t.req_msgs++;
            to_home(s, g, &m, E2E_REQ_BYTES);
        }
    }
    if (PI(b, R_FILL_VALID)[0] && PO(b, R_FILL_READY)[0]) {
        G->fill_has = 0;
        s->progress = 1;
    }

    /* decision engine: its outputs are the mode registers of the next cycle */
    b = &G->b[B_DE];
    if (PI(b, E_ACC_VALID)[0] && PO(b, E_ACC_READY)[0])
        fifo_pop(&G->q_de);
    G->kern_pulse = 0;
    if (PO(b, E_DEC_VALID)[0] && !s->t.decided_at[g])
        s->t.decided_at[g] = s->cyc;
    if (s->o.force == GPU_AUTO) {
        G->mode_q = (unsigned)PO(b, E_MODE)[0];
        G->bgu_mask_q = (unsigned)PO(b, E_BGU_MASK)[0];
        G->bypass_q = (unsigned)PO(b, E_SCBU_BYPASS)[0];
        G->mshr_mask_q = (unsigned)PO(b, E_MSHR_MASK)[0];
        G->rc_en_q = (unsigned)PO(b, E_RC_EN)[0];
    }
}

/* the composition's own work: local reads, acknowledgements, homes */
static void internal(sys_sys *s, unsigned g)
{
    gpu_t *G = &s->g[g];
    unsigned n = s->o.gpus, i;

    if (G->q_local.n) {
        const local_item *li = fifo_at(&G->q_local, 0);
        if (li->t <= s->cyc) {
            ent_rec *E = &G->ent[li->entry];
            read_line(s, E->line, E->data);
            E->have = s->mask_all;
            entry_done(G, li->entry);
            fifo_pop(&G->q_local);
            s->progress = 1;
        }
    }
    if (G->q_ack.n && ((const ack_item *)fifo_at(&G->q_ack, 0))->t <= s->cyc) {
        fifo_pop(&G->q_ack);
        G->st_pending--;
        s->progress = 1;
    }
    /* home: one request a cycle from the requesters, round robin */
    if (G->coal_in.n < Q_COAL_CAP)
        for (i = 0; i < n; i++) {
            unsigned src = (G->req_rr + i) % n, j, k = 0;
            fifo *q = &s->g[src].req_out[g];
            const req_msg *m;
            coal_item c;
            line_item li;
            if (src == g || q->n == 0)
                continue;
            m = fifo_at(q, 0);
            if (m->t > s->cyc)
                continue;
            memset(&c, 0, sizeof c);
            c.dst = src;
            c.id = m->id;
            if (m->kind == MSG_WRITE || m->kind == MSG_WB) {
                write_line(s, m->line, m->mask, m->data);
                if (m->kind == MSG_WB)
                    s->wb_inflight--;
                else { /* write-done, 4 bytes */
                    ack_item a = {s->cyc + s->o.link_lat};
                    fifo_push(&s->g[src].q_ack, &a);
                    s->t.acks++;
                    link_msg(s, 4);
                }
            } else if (m->kind == MSG_AT) {
                read_line(s, m->line, li.line);
                write_line(s, m->line, m->mask, m->data);
                c.reg = 1;
                c.id = ID_AT | m->id;
                c.bytes = E2E_LINE_RSP_BYTES;
                fifo_push(&G->side[src], &li);
                fifo_push(&G->coal_in, &c);
            } else {
                read_line(s, m->line, li.line);
                if (m->fine) {
                    c.mask = m->mask;
                    for (j = 0; j < E2E_WORDS; j++)
                        if ((m->mask >> j) & 1)
                            memcpy(c.data + E2E_GRAN * k++, li.line + E2E_GRAN * j, E2E_GRAN);
                } else {
                    c.reg = 1;
                    c.bytes = E2E_LINE_RSP_BYTES;
                    fifo_push(&G->side[src], &li);
                }
                fifo_push(&G->coal_in, &c);
            }
            fifo_pop(q);
            G->req_rr = (src + 1) % n;
            s->progress = 1;
            break;
        }
}

static int gpu_idle(const gpu_t *G)
{
    unsigned j;
    if (!loads_idle(G) || G->st_pending || G->q_local.n || G->q_fill.n || G->q_rc.n ||
        G->rc_side.n || G->q_ack.n || G->coal_in.n || G->rsp_link.n || G->fill_has)
        return 0;
    for (j = 0; j < E2E_GPUS_MAX; j++)
        if (G->req_out[j].n || G->side[j].n)
            return 0;
    for (j = 0; j < 64; j++)
        if (G->ent[j].live)
            return 0;
    return 1;
}

/* kernel end: every GPU issued its accesses of the kernel and is empty ->
 * flush every RDMA cache; every flush answered and every write-back home ->
 * snapshot, engines told, next kernel */
static void boundary(sys_sys *s)
{
    unsigned g, n = s->o.gpus;
    size_t img = (size_t)n * E2E_REGION;
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
            r.op = RC_KERNEL;
            fifo_push(&s->g[g].q_rc, &r);
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

int sys_cycle(sys_sys *s)
{
    unsigned g, j, n = s->o.gpus;
    uint64_t rst = s->cyc >= RESET_CYCLES;
    for (g = 0; g < n; g++)
        for (j = 0; j < B_N; j++) {
            blk *b = &s->g[g].b[j];
            memset(b->in, 0, b->l.in_words * sizeof *b->in);
            b->in[0] = rst;
        }
    if (rst)
        for (g = 0; g < n; g++)
            drive(s, g);
    for (g = 0; g < n; g++)
        for (j = 0; j < B_N; j++)
            s->be.eval(s->g[g].b[j].h, s->g[g].b[j].in, s->g[g].b[j].out);
    s->progress = 0;
    if (rst) {
        for (g = 0; g < n; g++)
            observe(s, g);
        for (g = 0; g < n; g++)
            internal(s, g);
        if (s->cyc >= START_CYCLE)
            boundary(s);
    }
    for (g = 0; g < n; g++)
        for (j = 0; j < B_N; j++)
            s->be.step(s->g[g].b[j].h, s->g[g].b[j].in);
    if (s->progress || s->cyc < START_CYCLE)
        s->last_progress = s->cyc;
    s->cyc++;
    s->t.cycles = s->cyc;
    return s->phase == PH_DONE;
}

int sys_stuck(sys_sys *s)
{
    return s->cyc >= s->o.max_cycles || s->cyc - s->last_progress > s->o.idle_limit;
}

const sys_stats *sys_stats_of(const sys_sys *s) { return &s->t; }
const gpu_result *sys_result_of(const sys_sys *s) { return &s->res; }
unsigned sys_blocks(const sys_sys *s) { return s->o.gpus * B_N; }
static const blk *blk_of(const sys_sys *s, unsigned i) { return &s->g[i / B_N].b[i % B_N]; }
const char *sys_block_name(const sys_sys *s, unsigned i) { return blk_of(s, i)->name; }
const unit_layout *sys_block_layout(const sys_sys *s, unsigned i) { return &blk_of(s, i)->l; }
const uint64_t *sys_block_in(const sys_sys *s, unsigned i) { return blk_of(s, i)->in; }
const uint64_t *sys_block_out(const sys_sys *s, unsigned i) { return blk_of(s, i)->out; }
int sys_in_reset(const sys_sys *s) { return s->cyc <= RESET_CYCLES; }

static const char *const mode_names[] = {"MONITOR", "NONE", "COALESCE", "CACHE"};

void sys_print(FILE *f, const char *lead, const sys_opts *o, const gpu_kernel *k,
               const sys_stats *t)
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

void gpu_kernel_atomics(gpu_kernel *k, unsigned pct)
{
    uint64_t r = k->seed * 0x9e3779b97f4a7c15ull + 0x5851f42d4c957f2dull;
    size_t i;
    for (i = 0; i < k->n; i++) {
        gpu_op *o = &k->op[i];
        unsigned a, b;
        int disjoint = 1;
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        if (o->store != 1 || r % 100 >= pct)
            continue;
        for (a = 0; a < E2E_LANES && disjoint; a++)
            for (b = a + 1; b < E2E_LANES && ((o->active >> a) & 1); b++)
                if (((o->active >> b) & 1) && o->addr[a] < o->addr[b] + o->size &&
                    o->addr[b] < o->addr[a] + o->size) {
                    disjoint = 0;
                    break;
                }
        if (disjoint)
            o->store = 2;
    }
}
