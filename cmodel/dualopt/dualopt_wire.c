/*
 * The wiring both DualOpt compositions share (dualopt_wire.h).
 */
#include "dualopt_wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_bgu.h"
#include "dualopt_coal.h"
#include "dualopt_mshr.h"

static const char *const wire_unit[B_N] = {"dualopt-bgu", "dualopt-scbu", "dualopt-mshr",
                                           "dualopt-coal", "dualopt-decoal", "dualopt-rcache",
                                           "dualopt-de"};
static const char *const wire_short[B_N] = {"bgu", "scbu", "mshr", "coal", "decoal", "rcache",
                                            "de"};

static const char *const wire_ports[B_N][DW_PORTS_MAX] = {
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

/* ---------------------------------------------------------- lifetime -- */

void dualopt_wire_init(dw_path *P)
{
    unsigned j;
    cmp_fifo_init(&P->q_scbu, sizeof(acc_item));
    cmp_fifo_init(&P->q_side, sizeof(acc_item));
    cmp_fifo_init(&P->q_mshr, sizeof(unsigned));
    cmp_fifo_init(&P->q_retry, sizeof(unsigned));
    cmp_fifo_init(&P->q_local, sizeof(local_item));
    cmp_fifo_init(&P->q_fill, sizeof(unsigned));
    cmp_fifo_init(&P->coal_in, sizeof(coal_item));
    cmp_fifo_init(&P->rsp_link, sizeof(pkt_item));
    for (j = 0; j < DUALOPT_E2E_GPUS_MAX; j++) {
        cmp_fifo_init(&P->req_out[j], sizeof(req_msg));
        cmp_fifo_init(&P->side[j], sizeof(line_item));
    }
}

void dualopt_wire_free(dw_path *P)
{
    cmp_fifo *qs[] = {&P->q_scbu, &P->q_side,  &P->q_mshr,   &P->q_retry,
                      &P->q_local, &P->q_fill, &P->coal_in, &P->rsp_link};
    unsigned j;
    for (j = 0; j < sizeof qs / sizeof *qs; j++)
        cmp_fifo_free(qs[j]);
    for (j = 0; j < DUALOPT_E2E_GPUS_MAX; j++) {
        cmp_fifo_free(&P->req_out[j]);
        cmp_fifo_free(&P->side[j]);
    }
    free(P->tag);
    P->tag = NULL;
}

int dualopt_wire_open(cmp_sys *cs, dw_path *P, unsigned nb, unsigned g,
                      const char *const *presets, char *err, size_t len)
{
    const dualopt_mshr_cfg *mc;
    unsigned j;
    for (j = 0; j < nb; j++) {
        char name[32];
        snprintf(name, sizeof name, "gpu%u.%s", g, wire_short[j]);
        P->b[j].c = cmp_sys_add(cs, wire_unit[j], name, presets[j], NULL, g + 1, err, len);
        if (P->b[j].c == NULL ||
            cmp_offsets_bind(P->b[j].c, wire_ports[j], P->b[j].off, err, len) != 0)
            return -1;
    }
    mc = P->b[B_MSHR].c->cfg;
    if (mc->entries > 64 || mc->tag_bits > 16) {
        snprintf(err, len, "MSHR configuration '%s': more than 64 entries or 16 tag bits",
                 presets[B_MSHR]);
        return -1;
    }
    P->ntags = 1u << mc->tag_bits;
    P->tags_free = P->ntags;
    P->tag = calloc(P->ntags, sizeof *P->tag);
    if (P->tag == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    return 0;
}

void dualopt_wire_cycle(cmp_sys *cs, unsigned n, uint64_t cyc, const dw_steps *st, void *ctx)
{
    uint64_t rst = cyc >= RESET_CYCLES;
    unsigned g;
    cmp_sys_clear(cs, rst);
    for (g = 0; rst && g < n; g++)
        st->drive(ctx, g);
    cmp_sys_eval(cs);
    if (rst) {
        for (g = 0; g < n; g++)
            st->observe(ctx, g);
        for (g = 0; g < n; g++)
            st->internal(ctx, g);
        if (st->after)
            st->after(ctx);
    }
    cmp_sys_step(cs);
}

int dualopt_wire_idle(const dw_path *P)
{
    unsigned j;
    if (P->bgu_busy || P->tags_free != P->ntags || P->q_scbu.n || P->q_side.n || P->q_mshr.n || P->q_retry.n ||
        P->q_local.n || P->q_fill.n || P->coal_in.n || P->rsp_link.n)
        return 0;
    for (j = 0; j < DUALOPT_E2E_GPUS_MAX; j++)
        if (P->req_out[j].n || P->side[j].n)
            return 0;
    for (j = 0; j < 64; j++)
        if (P->ent[j].live)
            return 0;
    return 1;
}

/* ------------------------------------------------------------ inputs -- */

void dualopt_wire_drive_load(dw_path *P, uint64_t active, const uint64_t *addr, unsigned size)
{
    dw_blk *b = &P->b[B_BGU];
    const dualopt_bgu_cfg *bc = b->c->cfg;
    unsigned lane;
    PI(b, G_INST_VALID)[0] = 1;
    PI(b, G_INST_ACTIVE)[0] = active;
    for (lane = 0; lane < bc->lanes; lane++)
        cmp_bits_put(PI(b, G_INST_ADDR), lane * bc->addr_bits, bc->addr_bits, addr[lane]);
    PI(b, G_INST_SIZE)[0] = size - 1;
}

void dualopt_wire_drive_bgu_ready(dw_path *P)
{
    PI(&P->b[B_BGU], G_REQ_READY)[0] = P->q_scbu.n < Q_SCBU_CAP;
}

void dualopt_wire_drive_scbu(dw_path *P, unsigned g, int cfg, int en, unsigned coalesce)
{
    dw_blk *b = &P->b[B_SCBU];
    if (cfg) {
        PI(b, S_CFG_VALID)[0] = 1;
        PI(b, S_CFG_START)[0] = (uint64_t)g << DUALOPT_E2E_SPAN_BITS;
        PI(b, S_CFG_END)[0] = (uint64_t)(g + 1) << DUALOPT_E2E_SPAN_BITS;
    }
    if (en) {
        PI(b, S_EN_VALID)[0] = 1;
        PI(b, S_EN_COALESCE)[0] = coalesce;
    }
    if (P->q_scbu.n) {
        const acc_item *it = cmp_fifo_at(&P->q_scbu, 0);
        PI(b, S_ACC_VALID)[0] = 1;
        PI(b, S_ACC_OP)[0] = it->op;
        PI(b, S_ACC_ADDR)[0] = it->line * DUALOPT_E2E_LINE;
    }
    PI(b, S_RES_READY)[0] = P->q_mshr.n < Q_MSHR_CAP && P->tags_free > 0;
}

void dualopt_wire_drive_mshr(dw_path *P, int use_mask, uint64_t mask_all)
{
    dw_blk *b = &P->b[B_MSHR];
    P->mshr_from_retry = P->q_retry.n > 0;
    if (P->q_retry.n || P->q_mshr.n) { /* retried requests first */
        unsigned t = *(unsigned *)cmp_fifo_at(P->q_retry.n ? &P->q_retry : &P->q_mshr, 0);
        const tag_rec *r = &P->tag[t];
        PI(b, M_REQ_VALID)[0] = 1;
        PI(b, M_REQ_TAG)[0] = t;
        PI(b, M_REQ_LINE)[0] = r->line;
        PI(b, M_REQ_MASK)[0] = r->bypass && use_mask ? r->mask : mask_all;
    }
    PI(b, M_RSP_READY)[0] = 1;
    if (P->q_fill.n) {
        PI(b, M_FILL_VALID)[0] = 1;
        PI(b, M_FILL_ENTRY)[0] = *(unsigned *)cmp_fifo_at(&P->q_fill, 0);
    }
    PI(b, M_DONE_READY)[0] = 1;
}

/* the coalescer of this GPU as a home: GPU ids relative to this one */
void dualopt_wire_drive_coal(dw_path *P, unsigned g, unsigned n, unsigned link_cap)
{
    dw_blk *b = &P->b[B_COAL];
    if (P->coal_in.n) {
        const coal_item *c = cmp_fifo_at(&P->coal_in, 0);
        PI(b, C_IN_VALID)[0] = 1;
        PI(b, C_IN_REG)[0] = c->reg;
        PI(b, C_IN_DST)[0] = (c->dst + n - g) % n;
        PI(b, C_IN_ID)[0] = c->id;
        if (c->reg)
            PI(b, C_IN_BYTES)[0] = c->bytes;
        else {
            unsigned j, bytes = cohkit_popcount(c->mask) * DUALOPT_E2E_GRAN;
            PI(b, C_IN_MASK)[0] = c->mask;
            for (j = 0; j < bytes; j++)
                cmp_bits_put(PI(b, C_IN_DATA), 8 * j, 8, c->data[j]);
        }
    }
    PI(b, C_PKT_READY)[0] = P->rsp_link.n < link_cap;
}

void dualopt_wire_drive_decoal(dw_path *const *all, unsigned g, unsigned n, uint64_t cyc)
{
    dw_path *P = all[g];
    dw_blk *b = &P->b[B_DECOAL];
    unsigned h;
    for (h = 0; h < n; h++) {
        unsigned src = (P->dec_rr + h) % n;
        const dw_path *H = all[src];
        const pkt_item *p;
        if (src == g || H->rsp_link.n == 0)
            continue;
        p = cmp_fifo_at(&H->rsp_link, 0);
        if (p->dst != g || p->t > cyc)
            continue;
        P->dec_src = src;
        PI(b, D_PKT_VALID)[0] = 1;
        PI(b, D_PKT_SRC)[0] = src;
        PI(b, D_PKT_LEN)[0] = p->len;
        memcpy(PI(b, D_PKT_DATA), p->img, sizeof p->img);
        break;
    }
    PI(b, D_OUT_READY)[0] = 1;
}

/* -------------------------------------------------------- handshakes -- */

int dualopt_wire_bgu_request(dw_path *P, size_t load)
{
    dw_blk *b = &P->b[B_BGU];
    acc_item it;
    int req = PO(b, G_REQ_VALID)[0] && PI(b, G_REQ_READY)[0];
    if (req) {
        memset(&it, 0, sizeof it);
        it.op = OP_RD;
        it.line = PO(b, G_REQ_LINE)[0];
        it.mask = PO(b, G_REQ_MASK)[0];
        it.lanes = PO(b, G_REQ_LANES)[0];
        it.load = P->bgu_load;
        cmp_fifo_push(&P->q_scbu, &it);
        if (PO(b, G_REQ_LAST)[0])
            P->bgu_busy = 0;
    }
    if (PI(b, G_INST_VALID)[0] && PO(b, G_INST_READY)[0]) {
        P->bgu_load = load;
        P->bgu_busy = PI(b, G_INST_ACTIVE)[0] != 0;
    }
    return req;
}

const acc_item *dualopt_wire_scbu(dw_path *P, unsigned *local, unsigned *bypass)
{
    dw_blk *b = &P->b[B_SCBU];
    if (PI(b, S_ACC_VALID)[0] && PO(b, S_ACC_READY)[0]) {
        cmp_fifo_push(&P->q_side, cmp_fifo_at(&P->q_scbu, 0));
        cmp_fifo_pop(&P->q_scbu);
    }
    if (!(PO(b, S_RES_VALID)[0] && PI(b, S_RES_READY)[0]))
        return NULL;
    *local = (unsigned)PO(b, S_RES_LOCAL)[0];
    *bypass = (unsigned)PO(b, S_RES_BYPASS)[0];
    return cmp_fifo_at(&P->q_side, 0);
}

unsigned dualopt_wire_tag(dw_path *P, size_t load, uint64_t line, uint64_t mask, uint64_t lanes,
                          unsigned local, unsigned bypass)
{
    unsigned t;
    for (t = 0; t < P->ntags && P->tag[t].live; t++)
        ;
    P->tag[t].live = 1;
    P->tag[t].load = load;
    P->tag[t].line = line;
    P->tag[t].mask = mask;
    P->tag[t].lanes = lanes;
    P->tag[t].local = local;
    P->tag[t].bypass = bypass;
    P->tags_free--;
    cmp_fifo_push(&P->q_mshr, &t);
    return t;
}

void dualopt_wire_mshr_taken(dw_path *P)
{
    cmp_fifo_pop(P->mshr_from_retry ? &P->q_retry : &P->q_mshr);
}

ent_rec *dualopt_wire_miss(dw_path *P, unsigned t, unsigned e, int *reused)
{
    ent_rec *E = &P->ent[e];
    *reused = E->live; /* an entry reallocated while waiting */
    memset(E, 0, sizeof *E);
    E->live = 1;
    E->local = P->tag[t].local;
    E->line = PO(&P->b[B_MSHR], M_RSP_LINE)[0];
    E->mask = PO(&P->b[B_MSHR], M_RSP_MASK)[0];
    return E;
}

int dualopt_wire_fill(dw_path *P)
{
    dw_blk *b = &P->b[B_MSHR];
    unsigned e;
    if (!(PI(b, M_FILL_VALID)[0] && PO(b, M_FILL_READY)[0]))
        return 0;
    e = *(unsigned *)cmp_fifo_at(&P->q_fill, 0);
    cmp_fifo_pop(&P->q_fill);
    memcpy(P->done_data, P->ent[e].data, DUALOPT_E2E_LINE);
    P->done_have = P->ent[e].have;
    P->done_line = P->ent[e].line;
    P->ent[e].live = 0;
    return 1;
}

int dualopt_wire_word(dw_path *P, unsigned id, uint64_t d)
{
    ent_rec *E = id < 64 ? &P->ent[id] : NULL;
    uint64_t rest, bit;
    unsigned w = 0, j;
    if (!(E && E->live && !E->local && (E->mask & ~E->have)))
        return 0;
    rest = E->mask & ~E->have;
    bit = rest & (~rest + 1);
    while (!((bit >> w) & 1))
        w++;
    for (j = 0; j < DUALOPT_E2E_GRAN; j++)
        E->data[w * DUALOPT_E2E_GRAN + j] = (uint8_t)(d >> (8 * j));
    E->have |= bit;
    if (E->have == E->mask)
        dualopt_wire_entry_done(P, id);
    return 1;
}

int dualopt_wire_packet(dw_path *P, unsigned g, unsigned n, uint64_t t, pkt_item *p)
{
    dw_blk *b = &P->b[B_COAL];
    if (!(PO(b, C_PKT_VALID)[0] && PI(b, C_PKT_READY)[0]))
        return 0;
    memset(p, 0, sizeof *p);
    p->dst = (unsigned)(PO(b, C_PKT_DST)[0] + g) % n;
    p->len = (unsigned)PO(b, C_PKT_LEN)[0];
    memcpy(p->img, PO(b, C_PKT_DATA), sizeof p->img);
    p->t = t;
    cmp_fifo_push(&P->rsp_link, p);
    return 1;
}

int dualopt_wire_decoal_took(dw_path *const *all, unsigned g, unsigned n)
{
    dw_path *P = all[g];
    dw_blk *b = &P->b[B_DECOAL];
    if (!(PI(b, D_PKT_VALID)[0] && PO(b, D_PKT_READY)[0]))
        return 0;
    cmp_fifo_pop(&all[P->dec_src]->rsp_link);
    P->dec_rr = (P->dec_src + 1) % n;
    return 1;
}

void dualopt_wire_observe_mshr(dw_path *P, dw_miss_fn *miss, dw_done_fn *deliver, void *sys,
                               unsigned g, uint64_t *hits, uint64_t *stalls, uint64_t *fills,
                               uint64_t *stray, int *progress)
{
    dw_blk *b = &P->b[B_MSHR];
    if (PI(b, M_REQ_VALID)[0] && PO(b, M_REQ_READY)[0])
        dualopt_wire_mshr_taken(P);
    if (PO(b, M_RSP_VALID)[0]) {
        unsigned kind = (unsigned)PO(b, M_RSP_KIND)[0], t = (unsigned)PO(b, M_RSP_TAG)[0];
        *progress = 1;
        if (kind == DUALOPT_MSHR_HIT)
            ++*hits;
        else if (kind == DUALOPT_MSHR_MISS)
            miss(sys, g, t, (unsigned)PO(b, M_RSP_ENTRY)[0]);
        else {
            ++*stalls;
            cmp_fifo_push(&P->q_retry, &t);
        }
    }
    if (dualopt_wire_fill(P)) {
        if (fills)
            ++*fills;
        *progress = 1;
    }
    if (PO(b, M_DONE_VALID)[0]) {
        unsigned t = (unsigned)PO(b, M_DONE_TAG)[0];
        tag_rec *r = t < P->ntags ? &P->tag[t] : NULL;
        if (r && r->live && PO(b, M_DONE_LINE)[0] == r->line && P->done_line == r->line) {
            deliver(sys, g, r);
            r->live = 0;
            P->tags_free++;
        } else
            ++*stray;
        *progress = 1;
    }
}

int dualopt_wire_local(dw_path *P, uint64_t cyc, uint64_t mask_all,
                       void (*read)(void *ctx, uint64_t line, uint8_t *d), void *ctx)
{
    const local_item *li = P->q_local.n ? cmp_fifo_at(&P->q_local, 0) : NULL;
    ent_rec *E;
    if (li == NULL || li->t > cyc)
        return 0;
    E = &P->ent[li->entry];
    read(ctx, E->line, E->data);
    E->have = mask_all;
    dualopt_wire_entry_done(P, li->entry);
    cmp_fifo_pop(&P->q_local);
    return 1;
}

int dualopt_wire_home(dw_path *const *all, unsigned g, unsigned n, uint64_t cyc,
                      void (*answer)(void *sys, unsigned g, unsigned src, const req_msg *m),
                      void *sys)
{
    dw_path *P = all[g];
    unsigned i;
    if (P->coal_in.n >= Q_COAL_CAP)
        return 0;
    for (i = 0; i < n; i++) {
        unsigned src = (P->req_rr + i) % n;
        cmp_fifo *q = &all[src]->req_out[g];
        const req_msg *m;
        if (src == g || q->n == 0)
            continue;
        m = cmp_fifo_at(q, 0);
        if (m->t > cyc)
            continue;
        answer(sys, g, src, m);
        cmp_fifo_pop(q);
        P->req_rr = (src + 1) % n;
        return 1;
    }
    return 0;
}

void dualopt_wire_entry_done(dw_path *P, unsigned e) { cmp_fifo_push(&P->q_fill, &e); }

void dualopt_wire_select(const uint8_t *line, uint64_t mask, coal_item *c)
{
    unsigned j, k = 0;
    c->mask = mask;
    for (j = 0; j < DUALOPT_E2E_WORDS; j++)
        if ((mask >> j) & 1)
            memcpy(c->data + DUALOPT_E2E_GRAN * k++, line + DUALOPT_E2E_GRAN * j, DUALOPT_E2E_GRAN);
}
