/*
 * DualOpt remote access coalescing end to end: the composition of the BGU,
 * SCBU, bitmask MSHR, coalescer and de-coalescer of every GPU
 * (cmodel/dualopt/dualopt_e2e.h; docs/dualopt.md "End to end").
 *
 * Each cycle: (1) every block's inputs from the composition's state, (2)
 * every block evaluated, (3) the handshakes of the cycle update the
 * composition (queues, tag and entry tables, links, home reads, lane data),
 * (4) every block clocked. The composition's own logic is the glue of the
 * paper's Fig. 7a: the L1 controller's tag pool and fill buffer, the RDMA
 * engines' request and response paths, the home's line read and word
 * selection (D18), the links.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_bgu.h"
#include "dualopt_coal.h"
#include "dualopt_e2e.h"
#include "dualopt_mshr.h"
#include "dualopt_plumb.h"
#include "dualopt_scbu.h"

/* ------------------------------------------------------------- blocks -- */

enum { B_BGU, B_SCBU, B_MSHR, B_COAL, B_DECOAL, B_N };
static const char *const blk_unit[B_N] = {"dualopt-bgu", "dualopt-scbu", "dualopt-mshr",
                                          "dualopt-coal", "dualopt-decoal"};
static const char *const blk_short[B_N] = {"bgu", "scbu", "mshr", "coal", "decoal"};

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
};

/* -------------------------------------------------------------- state -- */

#define Q_SCBU_CAP 2   /* BGU -> SCBU queue                      */
#define Q_MSHR_CAP 2   /* SCBU -> MSHR queue                     */
#define Q_COAL_CAP 4   /* home word selection -> coalescer       */
#define RESET_CYCLES 2
#define START_CYCLE (RESET_CYCLES + 2) /* SCBU programmed in cycle 2 */

typedef struct { uint64_t line, mask, lanes; size_t load; } bgu_item;
typedef struct { int live; size_t load; uint64_t line, mask, lanes; unsigned local, bypass; } tag_rec;
typedef struct { int live; unsigned local; uint64_t line, mask, have; uint8_t data[E2E_LINE]; } ent_rec;
typedef struct { unsigned src, id, fine; uint64_t line, mask, t; } req_msg;
typedef struct { unsigned entry; uint64_t t; } local_item;
typedef struct { unsigned reg, dst, id, bytes; uint64_t mask; uint8_t data[E2E_LINE]; } coal_item;
typedef struct { unsigned dst, len; uint64_t img[8]; uint64_t t; } pkt_item;
typedef struct { uint8_t line[E2E_LINE]; } line_item;

typedef struct {
    blk b[B_N];
    size_t *loads, nloads, next_load;
    size_t cur_load;                  /* the load on the BGU's input     */
    fifo q_scbu, q_side, q_mshr, q_retry, q_local, q_fill;
    int mshr_from_retry;
    tag_rec *tag;
    unsigned ntags, tags_free;
    ent_rec ent[64];
    fifo req_out[E2E_GPUS_MAX];       /* requests to home h (after lat)  */
    fifo coal_in;                     /* home: responses for the coal.   */
    fifo rsp_link;                    /* home: packets on its link       */
    fifo side[E2E_GPUS_MAX];          /* home: line data of regular rsps */
    unsigned req_rr, dec_rr, dec_src;
    int dec_has;
    uint8_t done_data[E2E_LINE];
    uint64_t done_have, done_line;
} gpu_t;

struct e2e_sys {
    e2e_opts o;
    const e2e_kernel *k;
    e2e_backend be;
    gpu_t g[E2E_GPUS_MAX];
    uint64_t cyc, last_progress, home_reads, dec_slots;
    uint64_t mask_all;
    int progress;
    e2e_traffic t;
    e2e_lanes lanes;
};

void e2e_opts_default(e2e_opts *o)
{
    memset(o, 0, sizeof *o);
    o->gpus = 4;
    o->mode = E2E_COALESCE;
    o->req_lat = 20;
    o->rsp_lat = 20;
    o->local_lat = 10;
    o->link_cap = 4;
    o->max_cycles = 2000000;
    o->idle_limit = 2000;
    o->preset = "default";
}

static unsigned popc(uint64_t x)
{
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static uint64_t flits(uint64_t bytes) { return (bytes + E2E_FLIT - 1) / E2E_FLIT; }

/* ---------------------------------------------------------- lifetime -- */

static int blk_open(e2e_sys *s, blk *b, unsigned kind, unsigned gpu, char *err, size_t len)
{
    const char *preset = s->o.preset;
    char args[64];
    unsigned k, i, w;
    unsigned in_off[UNIT_PORTS_MAX], out_off[UNIT_PORTS_MAX], ki = 0, ko = 0;
    if (kind == B_MSHR && s->o.mode == E2E_LINE_MODE)
        preset = "line";
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
    /* word offsets: inputs start with rst_ni */
    in_off[0] = 0;
    for (i = 0, w = 1, ki = 0; i < (unsigned)b->l.n; i++)
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
    (void)ki;
    (void)ko;
    b->in = calloc(b->l.in_words, sizeof *b->in);
    b->out = calloc(b->l.out_words + 1, sizeof *b->out);
    if (b->in == NULL || b->out == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    b->h = s->be.open(s->be.ctx, b->u, preset, b->cfg, gpu, err, len);
    return b->h ? 0 : -1;
}

static int check_cfgs(e2e_sys *s, char *err, size_t len)
{
    const bgu_cfg *bc = s->g[0].b[B_BGU].cfg;
    const scbu_cfg *sc = s->g[0].b[B_SCBU].cfg;
    const dualopt_mshr_cfg *mc = s->g[0].b[B_MSHR].cfg;
    const codec_cfg *cc = s->g[0].b[B_COAL].cfg, *dc = s->g[0].b[B_DECOAL].cfg;
    if (bc->lanes != E2E_LANES || bc->line != E2E_LINE || bc->gran != E2E_GRAN ||
        mc->line != E2E_LINE || mc->gran != E2E_GRAN || cc->line != E2E_LINE ||
        cc->gran != E2E_GRAN || dc->line != E2E_LINE || dc->gran != E2E_GRAN) {
        snprintf(err, len, "configuration '%s': the composition needs 64 lanes, 64-byte lines and "
                 "4-byte words in every unit", s->o.preset);
        return -1;
    }
    if (bc->addr_bits != mc->addr_bits || sc->addr_bits != bc->addr_bits ||
        bc->addr_bits <= E2E_SPAN_BITS + 2 || cc->gpus < s->o.gpus || dc->gpus < s->o.gpus ||
        cc->self != 0 || mc->entries > 64 || cc->pkt_bytes > 64) {
        snprintf(err, len, "configuration '%s': address widths, GPU counts or sizes do not fit "
                 "a %u-GPU composition", s->o.preset, s->o.gpus);
        return -1;
    }
    return 0;
}

e2e_sys *e2e_new(const e2e_opts *o, const e2e_kernel *k, const e2e_backend *b, char *err,
                 size_t len)
{
    e2e_sys *s;
    unsigned g, j;
    size_t i;
    if (o->gpus < 2 || o->gpus > E2E_GPUS_MAX || o->gpus != k->gpus) {
        snprintf(err, len, "gpus %u: the composition takes 2..%d GPUs (kernel: %u)", o->gpus,
                 E2E_GPUS_MAX, k->gpus);
        return NULL;
    }
    if (o->req_lat == 0 || o->rsp_lat == 0 || o->local_lat == 0 || o->link_cap == 0) {
        snprintf(err, len, "latencies and the link capacity must be at least 1");
        return NULL;
    }
    s = calloc(1, sizeof *s);
    if (s == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    s->o = *o;
    if (s->o.preset == NULL)
        s->o.preset = "default";
    s->k = k;
    s->be = b ? *b : shell_backend;
    for (g = 0; g < o->gpus; g++) {
        gpu_t *G = &s->g[g];
        fifo_init(&G->q_scbu, sizeof(bgu_item));
        fifo_init(&G->q_side, sizeof(bgu_item));
        fifo_init(&G->q_mshr, sizeof(unsigned));
        fifo_init(&G->q_retry, sizeof(unsigned));
        fifo_init(&G->q_local, sizeof(local_item));
        fifo_init(&G->q_fill, sizeof(unsigned));
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
                e2e_free(s);
                return NULL;
            }
    if (check_cfgs(s, err, len) != 0) {
        e2e_free(s);
        return NULL;
    }
    {
        const dualopt_mshr_cfg *mc = s->g[0].b[B_MSHR].cfg;
        s->mask_all = (1ull << (E2E_LINE / E2E_GRAN)) - 1;
        for (g = 0; g < o->gpus; g++) {
            gpu_t *G = &s->g[g];
            G->ntags = 1u << mc->tag_bits;
            G->tags_free = G->ntags;
            G->tag = calloc(G->ntags, sizeof *G->tag);
            G->loads = calloc(k->n + 1, sizeof *G->loads);
            if (G->tag == NULL || G->loads == NULL) {
                snprintf(err, len, "out of memory");
                e2e_free(s);
                return NULL;
            }
            for (i = 0; i < k->n; i++)
                if (k->ld[i].gpu == g)
                    G->loads[G->nloads++] = i;
        }
    }
    for (i = 0; i < k->n; i++)
        if (k->ld[i].gpu >= o->gpus || k->ld[i].size < 1 || k->ld[i].size > 16) {
            snprintf(err, len, "load %zu: gpu %u or size %u out of range", i, k->ld[i].gpu,
                     k->ld[i].size);
            e2e_free(s);
            return NULL;
        }
    s->lanes.n = k->n;
    s->lanes.data = calloc(k->n + 1, sizeof *s->lanes.data);
    s->lanes.writes = calloc(k->n + 1, sizeof *s->lanes.writes);
    if (s->lanes.data == NULL || s->lanes.writes == NULL) {
        snprintf(err, len, "out of memory");
        e2e_free(s);
        return NULL;
    }
    return s;
}

void e2e_free(e2e_sys *s)
{
    unsigned g, j;
    if (s == NULL)
        return;
    for (g = 0; g < E2E_GPUS_MAX; g++) {
        gpu_t *G = &s->g[g];
        for (j = 0; j < B_N; j++) {
            if (G->b[j].h)
                s->be.close(G->b[j].h);
            free(G->b[j].cfg);
            free(G->b[j].in);
            free(G->b[j].out);
        }
        fifo_free(&G->q_scbu);
        fifo_free(&G->q_side);
        fifo_free(&G->q_mshr);
        fifo_free(&G->q_retry);
        fifo_free(&G->q_local);
        fifo_free(&G->q_fill);
        fifo_free(&G->coal_in);
        fifo_free(&G->rsp_link);
        for (j = 0; j < E2E_GPUS_MAX; j++) {
            fifo_free(&G->req_out[j]);
            fifo_free(&G->side[j]);
        }
        free(G->tag);
        free(G->loads);
    }
    free(s->lanes.data);
    free(s->lanes.writes);
    free(s);
}

/* ------------------------------------------------------------ inputs -- */

static void put_bits(uint64_t *w, unsigned lo, unsigned n, uint64_t v) { codec_bits_put(w, lo, n, v); }

static void drive(e2e_sys *s, unsigned g)
{
    gpu_t *G = &s->g[g];
    blk *b;
    unsigned n = s->o.gpus, h;
    int started = s->cyc >= START_CYCLE;

    /* BGU: the GPU's next load, once its cycle has come */
    b = &G->b[B_BGU];
    if (started && G->next_load < G->nloads) {
        const e2e_load *ld = &s->k->ld[G->loads[G->next_load]];
        if (s->cyc >= START_CYCLE + ld->cycle) {
            const bgu_cfg *bc = b->cfg;
            unsigned lane;
            G->cur_load = G->loads[G->next_load];
            PI(b, G_INST_VALID)[0] = 1;
            PI(b, G_INST_ACTIVE)[0] = ld->active;
            for (lane = 0; lane < bc->lanes; lane++)
                put_bits(PI(b, G_INST_ADDR), lane * bc->addr_bits, bc->addr_bits, ld->addr[lane]);
            PI(b, G_INST_SIZE)[0] = ld->size - 1;
        }
    }
    PI(b, G_REQ_READY)[0] = G->q_scbu.n < Q_SCBU_CAP;

    /* SCBU: programmed once, then the BGU's requests as line reads */
    b = &G->b[B_SCBU];
    if (s->cyc == RESET_CYCLES) {
        PI(b, S_CFG_VALID)[0] = 1;
        PI(b, S_CFG_START)[0] = (uint64_t)g << E2E_SPAN_BITS;
        PI(b, S_CFG_END)[0] = (uint64_t)(g + 1) << E2E_SPAN_BITS;
        PI(b, S_EN_VALID)[0] = 1;
        PI(b, S_EN_COALESCE)[0] = s->o.mode == E2E_COALESCE;
    }
    if (G->q_scbu.n) {
        const bgu_item *it = fifo_at(&G->q_scbu, 0);
        PI(b, S_ACC_VALID)[0] = 1;
        PI(b, S_ACC_OP)[0] = 0;
        PI(b, S_ACC_ADDR)[0] = it->line * E2E_LINE;
    }
    PI(b, S_RES_READY)[0] = G->q_mshr.n < Q_MSHR_CAP && G->tags_free > 0;

    /* MSHR: retried requests first */
    b = &G->b[B_MSHR];
    G->mshr_from_retry = G->q_retry.n > 0;
    if (G->q_retry.n || G->q_mshr.n) {
        unsigned t = *(unsigned *)fifo_at(G->q_retry.n ? &G->q_retry : &G->q_mshr, 0);
        const tag_rec *r = &G->tag[t];
        PI(b, M_REQ_VALID)[0] = 1;
        PI(b, M_REQ_TAG)[0] = t;
        PI(b, M_REQ_LINE)[0] = r->line;
        PI(b, M_REQ_MASK)[0] = r->bypass ? r->mask : s->mask_all;
    }
    PI(b, M_RSP_READY)[0] = 1;
    if (G->q_fill.n) {
        PI(b, M_FILL_VALID)[0] = 1;
        PI(b, M_FILL_ENTRY)[0] = *(unsigned *)fifo_at(&G->q_fill, 0);
    }
    PI(b, M_DONE_READY)[0] = 1;

    /* coalescer of this GPU as a home: GPU ids relative to this one */
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

    /* de-coalescer of this GPU as a requester: round robin over the homes
     * whose link holds a packet for it at its head */
    b = &G->b[B_DECOAL];
    G->dec_has = 0;
    for (h = 0; h < n; h++) {
        unsigned src = (G->dec_rr + h) % n;
        const gpu_t *H = &s->g[src];
        const pkt_item *p;
        if (src == g || H->rsp_link.n == 0)
            continue;
        p = fifo_at(&H->rsp_link, 0);
        if (p->dst != g || p->t > s->cyc)
            continue;
        G->dec_has = 1;
        G->dec_src = src;
        PI(b, D_PKT_VALID)[0] = 1;
        PI(b, D_PKT_SRC)[0] = src;
        PI(b, D_PKT_LEN)[0] = p->len;
        memcpy(PI(b, D_PKT_DATA), p->img, sizeof p->img);
        break;
    }
    PI(b, D_OUT_READY)[0] = 1;
}

/* ------------------------------------------------------- handshakes -- */

static void deliver(e2e_sys *s, gpu_t *G, const tag_rec *r)
{
    const e2e_load *ld = &s->k->ld[r->load];
    unsigned lane, b;
    for (lane = 0; lane < E2E_LANES; lane++) {
        if (!((r->lanes >> lane) & 1))
            continue;
        for (b = 0; b < ld->size; b++) {
            uint64_t a = ld->addr[lane] + b;
            unsigned off = (unsigned)(a % E2E_LINE);
            if (a / E2E_LINE != r->line || !((G->done_have >> (off / E2E_GRAN)) & 1))
                continue;
            s->lanes.data[r->load][lane][b] = G->done_data[off];
            if (s->lanes.writes[r->load][lane][b] < 255)
                s->lanes.writes[r->load][lane][b]++;
        }
    }
}

static void read_line(const e2e_sys *s, uint64_t line, uint8_t *d)
{
    unsigned j;
    for (j = 0; j < E2E_LINE; j++) {
        int v = e2e_mem_byte(s->k, line * E2E_LINE + j);
        d[j] = (uint8_t)(v < 0 ? 0 : v);
    }
}

static void entry_done(gpu_t *G, unsigned e) { fifo_push(&G->q_fill, &e); }

static void observe(e2e_sys *s, unsigned g)
{
    gpu_t *G = &s->g[g];
    unsigned n = s->o.gpus;
    blk *b;

    /* BGU */
    b = &G->b[B_BGU];
    if (PO(b, G_REQ_VALID)[0] && PI(b, G_REQ_READY)[0]) {
        bgu_item it;
        it.line = PO(b, G_REQ_LINE)[0];
        it.mask = PO(b, G_REQ_MASK)[0];
        it.lanes = PO(b, G_REQ_LANES)[0];
        it.load = G->cur_load;
        fifo_push(&G->q_scbu, &it);
        s->t.requests++;
        s->progress = 1;
    }
    if (PI(b, G_INST_VALID)[0] && PO(b, G_INST_READY)[0]) {
        const e2e_load *ld = &s->k->ld[G->cur_load];
        G->next_load++;
        s->t.loads++;
        s->t.lanes += popc(ld->active);
        s->t.lane_bytes += (uint64_t)popc(ld->active) * ld->size;
        s->progress = 1;
    }

    /* SCBU */
    b = &G->b[B_SCBU];
    if (PI(b, S_ACC_VALID)[0] && PO(b, S_ACC_READY)[0]) {
        fifo_push(&G->q_side, fifo_at(&G->q_scbu, 0));
        fifo_pop(&G->q_scbu);
    }
    if (PO(b, S_RES_VALID)[0] && PI(b, S_RES_READY)[0]) {
        const bgu_item *it = fifo_at(&G->q_side, 0);
        unsigned t;
        for (t = 0; t < G->ntags && G->tag[t].live; t++)
            ;
        G->tag[t].live = 1;
        G->tag[t].load = it->load;
        G->tag[t].line = it->line;
        G->tag[t].mask = it->mask;
        G->tag[t].lanes = it->lanes;
        G->tag[t].local = (unsigned)PO(b, S_RES_LOCAL)[0];
        G->tag[t].bypass = (unsigned)PO(b, S_RES_BYPASS)[0];
        G->tags_free--;
        if (G->tag[t].local)
            s->t.local++;
        else
            s->t.remote++;
        s->t.bypassed += G->tag[t].bypass;
        fifo_pop(&G->q_side);
        fifo_push(&G->q_mshr, &t);
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
                s->t.stray_words++; /* an entry reallocated while waiting */
            memset(E, 0, sizeof *E);
            E->live = 1;
            E->local = G->tag[t].local;
            E->line = PO(b, M_RSP_LINE)[0];
            E->mask = PO(b, M_RSP_MASK)[0];
            if (E->local) {
                local_item li = {e, s->cyc + s->o.local_lat};
                fifo_push(&G->q_local, &li);
            } else {
                req_msg m;
                unsigned home = (unsigned)((E->line * E2E_LINE) >> E2E_SPAN_BITS);
                m.src = g;
                m.id = e;
                m.fine = G->tag[t].bypass;
                m.line = E->line;
                m.mask = E->mask;
                m.t = s->cyc + s->o.req_lat;
                if (home >= n || home == g)
                    s->t.stray_words++;
                else
                    fifo_push(&G->req_out[home], &m);
                s->t.req_msgs++;
                s->t.req_bytes += E2E_REQ_BYTES;
                s->t.req_flits += flits(E2E_REQ_BYTES);
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
        s->t.fills++;
        s->progress = 1;
    }
    if (PO(b, M_DONE_VALID)[0]) {
        unsigned t = (unsigned)PO(b, M_DONE_TAG)[0];
        if (t < G->ntags && G->tag[t].live && PO(b, M_DONE_LINE)[0] == G->tag[t].line &&
            G->done_line == G->tag[t].line) {
            deliver(s, G, &G->tag[t]);
            G->tag[t].live = 0;
            G->tags_free++;
        } else
            s->t.stray_words++;
        s->progress = 1;
    }

    /* coalescer (home side) */
    b = &G->b[B_COAL];
    if (PI(b, C_IN_VALID)[0] && PO(b, C_IN_READY)[0]) {
        const coal_item *c = fifo_at(&G->coal_in, 0);
        s->t.responses++;
        if (c->reg) {
            s->t.fine_bytes += c->bytes;
            s->t.fine_flits += flits(c->bytes);
            s->t.line_bytes += c->bytes;
            s->t.line_flits += flits(c->bytes);
        } else {
            unsigned k = popc(c->mask), fb = CODEC_HDR_BYTES + k * E2E_GRAN;
            s->t.fine_responses++;
            s->t.words += k;
            s->t.fine_bytes += fb;
            s->t.fine_flits += flits(fb);
            s->t.line_bytes += E2E_LINE_RSP_BYTES;
            s->t.line_flits += flits(E2E_LINE_RSP_BYTES);
        }
        fifo_pop(&G->coal_in);
        s->progress = 1;
    }
    if (PO(b, C_PKT_VALID)[0] && PI(b, C_PKT_READY)[0]) {
        pkt_item p;
        const uint8_t *img;
        memset(&p, 0, sizeof p);
        p.dst = (unsigned)(PO(b, C_PKT_DST)[0] + g) % n;
        p.len = (unsigned)PO(b, C_PKT_LEN)[0];
        memcpy(p.img, PO(b, C_PKT_DATA), sizeof p.img);
        p.t = s->cyc + s->o.rsp_lat;
        fifo_push(&G->rsp_link, &p);
        img = (const uint8_t *)p.img; /* little-endian host: byte 0 in bits [7:0] */
        s->t.packets++;
        s->t.bytes += p.len;
        s->t.flits += flits(p.len);
        if (((p.img[0] >> 4) & 0xf) == 1) {
            s->t.coal_packets++;
            s->t.slots += (p.img[0] >> 8) & 0xf;
        } else
            s->t.reg_packets++;
        (void)img;
        s->progress = 1;
    }

    /* de-coalescer (requester side) */
    b = &G->b[B_DECOAL];
    if (PI(b, D_PKT_VALID)[0] && PO(b, D_PKT_READY)[0]) {
        gpu_t *H = &s->g[G->dec_src];
        fifo_pop(&H->rsp_link);
        G->dec_rr = (G->dec_src + 1) % n;
        s->progress = 1;
    }
    if (PO(b, D_BAD)[0])
        s->t.bad_packets++;
    if (PO(b, D_OUT_VALID)[0]) {
        unsigned src = (unsigned)PO(b, D_OUT_SRC)[0], e = (unsigned)PO(b, D_OUT_ID)[0];
        ent_rec *E = e < 64 ? &G->ent[e] : NULL;
        s->progress = 1;
        s->dec_slots++;
        if (s->o.fault == E2E_FAULT_DROP && s->dec_slots == s->o.fault_n) {
            s->t.faults++; /* the output is lost, with a regular response's line */
            if (PO(b, D_OUT_REG)[0] && src < n && s->g[src].side[g].n)
                fifo_pop(&s->g[src].side[g]);
        } else if (PO(b, D_OUT_REG)[0]) {
            if (src < n && src != g && s->g[src].side[g].n && E && E->live && !E->local &&
                E->have == 0) {
                const line_item *li = fifo_at(&s->g[src].side[g], 0);
                memcpy(E->data, li->line, E2E_LINE);
                E->have = s->mask_all;
                fifo_pop(&s->g[src].side[g]);
                entry_done(G, e);
            } else
                s->t.stray_words++;
        } else {
            if (E && E->live && !E->local && (E->mask & ~E->have)) {
                uint64_t rest = E->mask & ~E->have, bit = rest & (~rest + 1);
                unsigned w = 0, j;
                uint64_t d = PO(b, D_OUT_DATA)[0];
                while (!((bit >> w) & 1))
                    w++;
                for (j = 0; j < E2E_GRAN; j++)
                    E->data[w * E2E_GRAN + j] = (uint8_t)(d >> (8 * j));
                E->have |= bit;
                if (E->have == E->mask)
                    entry_done(G, e);
            } else
                s->t.stray_words++;
        }
    }
}

/* the composition's own cycle work: local reads, home reads */
static void internal(e2e_sys *s, unsigned g)
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
    /* home: one request a cycle from the requesters, round robin */
    if (G->coal_in.n < Q_COAL_CAP)
        for (i = 0; i < n; i++) {
            unsigned src = (G->req_rr + i) % n;
            fifo *q = &s->g[src].req_out[g];
            const req_msg *m;
            coal_item c;
            uint8_t line[E2E_LINE];
            unsigned j, k = 0;
            if (src == g || q->n == 0)
                continue;
            m = fifo_at(q, 0);
            if (m->t > s->cyc)
                continue;
            read_line(s, m->line, line);
            s->home_reads++;
            if (s->o.fault == E2E_FAULT_MEM && s->home_reads == s->o.fault_n) {
                for (j = 0; j < E2E_LINE; j++)
                    line[j] ^= 1;
                s->t.faults++;
            }
            memset(&c, 0, sizeof c);
            c.dst = src;
            c.id = m->id;
            if (m->fine) {
                c.mask = m->mask;
                for (j = 0; j < E2E_WORDS; j++)
                    if ((m->mask >> j) & 1)
                        memcpy(c.data + E2E_GRAN * k++, line + E2E_GRAN * j, E2E_GRAN);
            } else {
                line_item li;
                c.reg = 1;
                c.bytes = E2E_LINE_RSP_BYTES;
                memcpy(li.line, line, E2E_LINE);
                fifo_push(&G->side[src], &li);
            }
            fifo_push(&G->coal_in, &c);
            fifo_pop(q);
            G->req_rr = (src + 1) % n;
            s->progress = 1;
            break;
        }
}

static int idle(const e2e_sys *s)
{
    unsigned g, j;
    for (g = 0; g < s->o.gpus; g++) {
        const gpu_t *G = &s->g[g];
        if (G->next_load < G->nloads || G->tags_free != G->ntags || G->q_scbu.n || G->q_side.n ||
            G->q_mshr.n || G->q_retry.n || G->q_local.n || G->q_fill.n || G->coal_in.n ||
            G->rsp_link.n)
            return 0;
        for (j = 0; j < E2E_GPUS_MAX; j++)
            if (G->req_out[j].n || G->side[j].n)
                return 0;
        for (j = 0; j < 64; j++)
            if (G->ent[j].live)
                return 0;
    }
    return 1;
}

int e2e_cycle(e2e_sys *s)
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
    }
    for (g = 0; g < n; g++)
        for (j = 0; j < B_N; j++)
            s->be.step(s->g[g].b[j].h, s->g[g].b[j].in);
    if (s->progress || s->cyc < START_CYCLE)
        s->last_progress = s->cyc;
    s->cyc++;
    s->t.cycles = s->cyc;
    return s->cyc > START_CYCLE && idle(s);
}

int e2e_stuck(e2e_sys *s)
{
    /* a kernel with loads far in the future is not stuck */
    unsigned g;
    for (g = 0; g < s->o.gpus; g++) {
        const gpu_t *G = &s->g[g];
        if (G->next_load < G->nloads &&
            s->k->ld[G->loads[G->next_load]].cycle + START_CYCLE > s->cyc)
            s->last_progress = s->cyc;
    }
    return s->cyc >= s->o.max_cycles || s->cyc - s->last_progress > s->o.idle_limit;
}

int e2e_run(e2e_sys *s)
{
    while (!e2e_cycle(s))
        if (e2e_stuck(s))
            return 1;
    return 0;
}

const e2e_traffic *e2e_traffic_of(const e2e_sys *s) { return &s->t; }
const e2e_lanes *e2e_lanes_of(const e2e_sys *s) { return &s->lanes; }

unsigned e2e_outstanding(const e2e_sys *s)
{
    unsigned g, n = 0;
    for (g = 0; g < s->o.gpus; g++)
        n += s->g[g].ntags - s->g[g].tags_free;
    return n;
}

unsigned e2e_blocks(const e2e_sys *s) { return s->o.gpus * B_N; }
static const blk *blk_of(const e2e_sys *s, unsigned i) { return &s->g[i / B_N].b[i % B_N]; }
const char *e2e_block_name(const e2e_sys *s, unsigned i) { return blk_of(s, i)->name; }
const unit_layout *e2e_block_layout(const e2e_sys *s, unsigned i) { return &blk_of(s, i)->l; }
const uint64_t *e2e_block_in(const e2e_sys *s, unsigned i) { return blk_of(s, i)->in; }
const uint64_t *e2e_block_out(const e2e_sys *s, unsigned i) { return blk_of(s, i)->out; }
int e2e_in_reset(const e2e_sys *s) { return s->cyc <= RESET_CYCLES; }

void e2e_print(FILE *f, const char *lead, const e2e_opts *o, const e2e_traffic *t)
{
    fprintf(f, "%se2e %u GPUs, %s: %llu cycles, %llu loads, %llu lanes, %llu lane bytes\n", lead,
            o->gpus, o->mode == E2E_COALESCE ? "coalescing" : "baseline (line mode)",
            (unsigned long long)t->cycles, (unsigned long long)t->loads,
            (unsigned long long)t->lanes, (unsigned long long)t->lane_bytes);
    fprintf(f, "%se2e requests %llu: local %llu, remote %llu (bypassed %llu); MSHR hits %llu "
            "misses %llu stalls %llu fills %llu\n",
            lead, (unsigned long long)t->requests, (unsigned long long)t->local,
            (unsigned long long)t->remote, (unsigned long long)t->bypassed,
            (unsigned long long)t->mshr_hits, (unsigned long long)t->mshr_misses,
            (unsigned long long)t->mshr_stalls, (unsigned long long)t->fills);
    fprintf(f, "%se2e request link: %llu requests, %llu bytes, %llu flits\n", lead,
            (unsigned long long)t->req_msgs, (unsigned long long)t->req_bytes,
            (unsigned long long)t->req_flits);
    fprintf(f, "%se2e response link: %llu packets (%llu coalesced, %llu regular), %llu slots, "
            "%llu bytes, %llu flits\n",
            lead, (unsigned long long)t->packets, (unsigned long long)t->coal_packets,
            (unsigned long long)t->reg_packets, (unsigned long long)t->slots,
            (unsigned long long)t->bytes, (unsigned long long)t->flits);
    fprintf(f, "%se2e same %llu responses (%llu fine-grained, %llu words): one per packet %llu "
            "bytes %llu flits; whole lines %llu bytes %llu flits\n",
            lead, (unsigned long long)t->responses, (unsigned long long)t->fine_responses,
            (unsigned long long)t->words, (unsigned long long)t->fine_bytes,
            (unsigned long long)t->fine_flits, (unsigned long long)t->line_bytes,
            (unsigned long long)t->line_flits);
    if (t->bad_packets || t->stray_words || t->faults)
        fprintf(f, "%se2e anomalies: %llu bad packets, %llu unmatched words or tags, %llu faults "
                "injected\n",
                lead, (unsigned long long)t->bad_packets, (unsigned long long)t->stray_words,
                (unsigned long long)t->faults);
}
