/*
 * DualOpt RDMA cache: configuration, functional core (dualopt_rcache_access,
 * dualopt_rcache_flush) and timing shell (the RTL's lookup pipeline and its miss,
 * atomic and flush sequences). See dualopt_rcache.h and docs/dualopt.md.
 */
#include "dualopt_rcache.h"
#include "bits.h"
#include "cfg_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dualopt_rcache_cfg_default(dualopt_rcache_cfg *c)
{
    static const dualopt_rcache_cfg d = {.sets = 1536, .ways = 16, .line = 64, .addr_bits = 48};
    *c = d;
}

static const cohkit_cfg_preset presets[] = {
    {"default", ""},
    {"fpga", "--sets 64 --ways 4 --line 16 --addr-bits 32"},
    {"pow2", "--sets 2048 --ways 12"},
    {NULL, NULL},
};

static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_NUM("sets", "N",
                "sets, 1..65536, any value: set = line mod N; 1 is fully associative (default 1536)",
                dualopt_rcache_cfg, sets),
    COHKIT_UNIT_OPT_NUM("ways", "N", "ways, 1..32; 1 is direct-mapped (default 16)", dualopt_rcache_cfg, ways),
    COHKIT_UNIT_OPT_NUM("line", "B", "line in bytes, power of two, 8..64 (default 64)", dualopt_rcache_cfg, line),
    COHKIT_UNIT_OPT_NUM("addr-bits", "N",
                "byte-address width, 16..63 (default 48)",
                dualopt_rcache_cfg, addr_bits),
    COHKIT_UNIT_OPT_END,
};
const cohkit_unit_opt_table dualopt_rcache_opts = {opts, "a decimal number", 1000000, 10, 0, NULL};

COHKIT_CFG_OPT_FNS(dualopt_rcache, dualopt_rcache_cfg, presets, dualopt_rcache_cfg_default)

int dualopt_rcache_cfg_check(const dualopt_rcache_cfg *c, char *err, size_t len)
{
    dualopt_rcache_geom g;
    if (cohkit_cfg_in(err, len, "sets", c->sets, 1, 65536) ||
        cohkit_cfg_in(err, len, "ways", c->ways, 1, 32) ||
        cohkit_cfg_in_pow2(err, len, "line", c->line, 8, 64) ||
        cohkit_cfg_in(err, len, "addr-bits", c->addr_bits, 16, 63))
        return -1;
    dualopt_rcache_geom_of(c, &g);
    if (g.ln < g.ib + 1)
        return cohkit_cfg_fail(err, len, "--addr-bits: %u leaves %u line-address bits for %u sets",
                               c->addr_bits, g.ln, c->sets);
    return 0;
}

void dualopt_rcache_geom_of(const dualopt_rcache_cfg *c, dualopt_rcache_geom *g)
{
    unsigned o, dww;
    memset(g, 0, sizeof *g);
    g->lb = cohkit_clog2(c->line);
    g->ln = c->addr_bits - g->lb;
    g->k = 0;
    while (!((c->sets >> g->k) & 1))
        g->k++;
    g->odd = c->sets >> g->k;
    g->ib = cohkit_clog2(c->sets);
    g->tw = g->ln - g->k;
    g->rb = cohkit_clog2(c->ways);
    g->wb = g->rb;
    g->ew = 1 + g->tw + c->line + g->rb;
    g->setw = c->ways * g->ew;
    g->daw = cohkit_clog2((uint64_t)c->sets * c->ways);
    g->cw = cohkit_clog2((uint64_t)c->sets * c->ways + 1);
    g->dw = c->line * 8;
    g->dww = dww = (g->dw + 63) / 64;
    g->tag_bits = (uint64_t)c->sets * g->setw;
    g->data_bits = (uint64_t)c->sets * c->ways * g->dw;
    /* inputs: rst_ni, req_valid_i, req_op_i, req_addr_i, req_mask_i,
     * req_data_i, rsp_ready_i, out_ready_i, fill_valid_i, fill_data_i */
    o = 1;
    g->i_req_valid = o++;
    g->i_req_op = o++;
    g->i_req_addr = o++;
    g->i_req_mask = o++;
    g->i_req_data = o;
    o += dww;
    g->i_rsp_ready = o++;
    g->i_out_ready = o++;
    g->i_fill_valid = o++;
    g->i_fill_data = o;
    o += dww;
    g->in_words = o;
    /* outputs: req_ready_o, rsp_valid_o, rsp_kind_o, rsp_line_o, rsp_wbs_o,
     * rsp_inv_o, rsp_data_o, out_valid_o, out_kind_o, out_line_o,
     * out_mask_o, out_data_o, fill_ready_o */
    o = 0;
    g->o_req_ready = o++;
    g->o_rsp_valid = o++;
    g->o_rsp_kind = o++;
    g->o_rsp_line = o++;
    g->o_rsp_wbs = o++;
    g->o_rsp_inv = o++;
    g->o_rsp_data = o;
    o += dww;
    g->o_out_valid = o++;
    g->o_out_kind = o++;
    g->o_out_line = o++;
    g->o_out_mask = o++;
    g->o_out_data = o;
    o += dww;
    g->o_fill_ready = o++;
    g->out_words = o;
}

void dualopt_rcache_cfg_name(const dualopt_rcache_cfg *c, char *buf, size_t len)
{
    snprintf(buf, len, "dualopt_rcache_s%u_w%u_l%u_a%u", c->sets, c->ways, c->line, c->addr_bits);
}

/* ---------------------------------------------------------------- core -- */

dualopt_rcache *dualopt_rcache_new(const dualopt_rcache_cfg *c)
{
    dualopt_rcache *rc = calloc(1, sizeof *rc);
    size_t n = (size_t)c->sets * c->ways;
    if (rc == NULL)
        return NULL;
    rc->c = *c;
    dualopt_rcache_geom_of(c, &rc->g);
    rc->way = calloc(n, sizeof *rc->way);
    rc->data = calloc(n, c->line);
    if (rc->way == NULL || rc->data == NULL) {
        dualopt_rcache_free(rc);
        return NULL;
    }
    dualopt_rcache_reset(rc);
    return rc;
}

void dualopt_rcache_free(dualopt_rcache *rc)
{
    if (rc) {
        free(rc->way);
        free(rc->data);
        free(rc);
    }
}

static void set_clear(dualopt_rcache *rc, unsigned set)
{
    unsigned w;
    for (w = 0; w < rc->c.ways; w++) {
        dualopt_rcache_way *x = &rc->way[(size_t)set * rc->c.ways + w];
        x->valid = 0;
        x->tag = 0;
        x->dirty = 0;
        x->rank = w;
    }
}

void dualopt_rcache_reset(dualopt_rcache *rc)
{
    unsigned s;
    for (s = 0; s < rc->c.sets; s++)
        set_clear(rc, s);
    rc->hits = rc->misses = rc->whits = rc->wmiss_full = rc->wmiss_fetch = 0;
    rc->fwds = rc->wbs = rc->flushes = 0;
}

unsigned dualopt_rcache_set_of(const dualopt_rcache *rc, uint64_t line)
{
    uint64_t hi = line >> rc->g.k, lo = line & cohkit_mask64(rc->g.k);
    return (unsigned)(((hi % rc->g.odd) << rc->g.k) | lo);
}

uint64_t dualopt_rcache_tag_of(const dualopt_rcache *rc, uint64_t line) { return line >> rc->g.k; }

uint64_t dualopt_rcache_line_of(const dualopt_rcache *rc, unsigned set, uint64_t tag)
{
    return (tag << rc->g.k) | ((uint64_t)set & cohkit_mask64(rc->g.k));
}

static dualopt_rcache_way *way_at(const dualopt_rcache *rc, unsigned set, unsigned w)
{
    return &rc->way[(size_t)set * rc->c.ways + w];
}

static uint8_t *data_at(const dualopt_rcache *rc, unsigned set, unsigned w)
{
    return &rc->data[((size_t)set * rc->c.ways + w) * rc->c.line];
}

/* The way holding tag, or -1. */
static int lookup(const dualopt_rcache *rc, unsigned set, uint64_t tag)
{
    unsigned w;
    for (w = 0; w < rc->c.ways; w++) {
        const dualopt_rcache_way *x = way_at(rc, set, w);
        if (x->valid && x->tag == tag)
            return (int)w;
    }
    return -1;
}

/* Lowest invalid way, else the least recently used. */
static unsigned victim(const dualopt_rcache *rc, unsigned set)
{
    unsigned w;
    for (w = 0; w < rc->c.ways; w++)
        if (!way_at(rc, set, w)->valid)
            return w;
    for (w = 0; w < rc->c.ways; w++)
        if (way_at(rc, set, w)->rank == rc->c.ways - 1)
            return w;
    return 0;
}

static void touch(dualopt_rcache *rc, unsigned set, unsigned w)
{
    unsigned r = way_at(rc, set, w)->rank, i;
    for (i = 0; i < rc->c.ways; i++) {
        dualopt_rcache_way *x = way_at(rc, set, i);
        if (i == w)
            x->rank = 0;
        else if (x->rank < r)
            x->rank++;
    }
}

static void merge(uint8_t *dst, const uint8_t *src, uint64_t mask, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++)
        if ((mask >> i) & 1)
            dst[i] = src[i];
}

static void fill_wb(const dualopt_rcache *rc, unsigned set, unsigned w, dualopt_rcache_wb *wb)
{
    const dualopt_rcache_way *x = way_at(rc, set, w);
    wb->line = dualopt_rcache_line_of(rc, set, x->tag);
    wb->mask = x->dirty;
    memset(wb->data, 0, sizeof wb->data);
    memcpy(wb->data, data_at(rc, set, w), rc->c.line);
}

int dualopt_rcache_access(dualopt_rcache *rc, const dualopt_rcache_req *q, dualopt_rcache_fetch_fn fetch, void *ctx,
                  dualopt_rcache_res *r)
{
    uint64_t line = (q->addr & cohkit_mask64(rc->c.addr_bits)) >> rc->g.lb;
    uint64_t full = cohkit_mask64(rc->c.line), wmask = q->mask & full;
    unsigned set = dualopt_rcache_set_of(rc, line);
    uint64_t tag = dualopt_rcache_tag_of(rc, line);
    int hw = lookup(rc, set, tag);
    memset(r, 0, sizeof *r);
    r->line = line;
    if (q->op == DUALOPT_RCACHE_AT) {
        r->kind = DUALOPT_RCACHE_FWD;
        rc->fwds++;
        if (hw >= 0) {
            dualopt_rcache_way *x = way_at(rc, set, (unsigned)hw);
            if (x->dirty) {
                fill_wb(rc, set, (unsigned)hw, &r->wb);
                r->nwb = 1;
                rc->wbs++;
            }
            r->inv = 1;
            x->valid = 0;
            x->dirty = 0;
        }
        return 0;
    }
    if (q->op != DUALOPT_RCACHE_RD && q->op != DUALOPT_RCACHE_WR)
        return -1;
    if (hw >= 0) {
        unsigned w = (unsigned)hw;
        touch(rc, set, w);
        if (q->op == DUALOPT_RCACHE_RD) {
            r->kind = DUALOPT_RCACHE_HIT;
            rc->hits++;
            memcpy(r->rdata, data_at(rc, set, w), rc->c.line);
        } else {
            r->kind = DUALOPT_RCACHE_WHIT;
            rc->whits++;
            merge(data_at(rc, set, w), q->data, wmask, rc->c.line);
            way_at(rc, set, w)->dirty |= wmask;
        }
        return 0;
    } else {
        unsigned w = victim(rc, set);
        dualopt_rcache_way *x = way_at(rc, set, w);
        uint8_t *d = data_at(rc, set, w);
        if (x->valid && x->dirty) {
            fill_wb(rc, set, w, &r->wb);
            r->nwb = 1;
            rc->wbs++;
        }
        if (q->op == DUALOPT_RCACHE_WR && wmask == full) {
            r->kind = DUALOPT_RCACHE_WMISS_FULL;
            rc->wmiss_full++;
            memcpy(d, q->data, rc->c.line);
        } else {
            uint8_t buf[DUALOPT_RCACHE_LINE_MAX];
            memset(buf, 0, sizeof buf);
            if (fetch)
                fetch(ctx, line, buf);
            memcpy(d, buf, rc->c.line);
            if (q->op == DUALOPT_RCACHE_WR) {
                r->kind = DUALOPT_RCACHE_WMISS_FETCH;
                rc->wmiss_fetch++;
                merge(d, q->data, wmask, rc->c.line);
            } else {
                r->kind = DUALOPT_RCACHE_MISS;
                rc->misses++;
                memcpy(r->rdata, d, rc->c.line);
            }
        }
        x->valid = 1;
        x->tag = tag;
        x->dirty = q->op == DUALOPT_RCACHE_WR ? wmask : 0;
        touch(rc, set, w);
        return 0;
    }
}

void dualopt_rcache_flush(dualopt_rcache *rc, dualopt_rcache_wb_fn wb, void *ctx, unsigned *nwb, unsigned *ninv)
{
    unsigned s, w, nw = 0, ni = 0;
    for (s = 0; s < rc->c.sets; s++) {
        for (w = 0; w < rc->c.ways; w++) {
            const dualopt_rcache_way *x = way_at(rc, s, w);
            if (x->valid && x->dirty) {
                dualopt_rcache_wb b;
                fill_wb(rc, s, w, &b);
                if (wb)
                    wb(ctx, &b);
                nw++;
            }
            ni += x->valid;
        }
        set_clear(rc, s);
    }
    rc->wbs += nw;
    rc->flushes++;
    if (nwb)
        *nwb = nw;
    if (ninv)
        *ninv = ni;
}

unsigned dualopt_rcache_dirty_lines(const dualopt_rcache *rc)
{
    size_t i, n = (size_t)rc->c.sets * rc->c.ways;
    unsigned d = 0;
    for (i = 0; i < n; i++)
        d += rc->way[i].valid && rc->way[i].dirty;
    return d;
}

unsigned dualopt_rcache_valid_lines(const dualopt_rcache *rc)
{
    size_t i, n = (size_t)rc->c.sets * rc->c.ways;
    unsigned v = 0;
    for (i = 0; i < n; i++)
        v += rc->way[i].valid;
    return v;
}

/* -------------------------------------------------------- timing shell -- */

dualopt_rcache_tm *dualopt_rcache_tm_new(const dualopt_rcache_cfg *c)
{
    dualopt_rcache_tm *t = calloc(1, sizeof *t);
    dualopt_rcache *rc;
    if (t == NULL)
        return NULL;
    rc = dualopt_rcache_new(c);
    if (rc == NULL) {
        free(t);
        return NULL;
    }
    t->core = *rc;
    free(rc); /* the arrays now belong to t->core */
    dualopt_rcache_tm_reset(t);
    return t;
}

void dualopt_rcache_tm_free(dualopt_rcache_tm *t)
{
    if (t) {
        free(t->core.way);
        free(t->core.data);
        free(t);
    }
}

void dualopt_rcache_tm_reset(dualopt_rcache_tm *t)
{
    /* the RAMs are not reset: the sweep out of reset clears the tag RAM */
    t->state = DUALOPT_RCACHE_S_INIT;
    t->idx = 0;
    t->s1_valid = t->s1_op = 0;
    t->s1_addr = t->s1_mask = 0;
    memset(t->s1_data, 0, sizeof t->s1_data);
    t->m_way = t->m_wb = t->m_hit = 0;
    t->fl_done = 0;
    t->fl_wbs = t->fl_inv = 0;
    t->rsp_valid = t->rsp_kind = t->rsp_rd = t->rsp_wbs = t->rsp_inv = 0;
    t->rsp_line = 0;
}

static void get_line(uint8_t *dst, const uint64_t *w, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++)
        dst[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
}

static void put_line(uint64_t *w, const uint8_t *src, unsigned n, unsigned dww)
{
    unsigned i;
    memset(w, 0, dww * sizeof *w);
    if (src)
        for (i = 0; i < n; i++)
            w[i / 8] |= (uint64_t)src[i] << (8 * (i % 8));
}

/* The combinational decisions of a cycle (the RTL's stage-1 logic). */
typedef struct {
    unsigned s1_line_set;
    uint64_t s1_line, s1_tag;
    int hw;             /* hit way or -1 (RD/WR/AT in LOOK)                 */
    unsigned rsp_free, adv, req_ready;
    unsigned out_valid, out_kind;
    uint64_t out_line, out_mask;
    unsigned fill_ready;
} rc_comb;

static void comb(const dualopt_rcache_tm *t, const uint64_t *in, rc_comb *x)
{
    const dualopt_rcache *rc = &t->core;
    const dualopt_rcache_geom *g = &rc->g;
    unsigned rsp_ready = (unsigned)(in[g->i_rsp_ready] & 1);
    memset(x, 0, sizeof *x);
    x->s1_line = (t->s1_addr & cohkit_mask64(rc->c.addr_bits)) >> g->lb;
    x->s1_line_set = dualopt_rcache_set_of(rc, x->s1_line);
    x->s1_tag = dualopt_rcache_tag_of(rc, x->s1_line);
    x->hw = lookup(rc, x->s1_line_set, x->s1_tag);
    x->rsp_free = !t->rsp_valid || rsp_ready;
    switch (t->state) {
    case DUALOPT_RCACHE_S_LOOK:
        x->adv = t->s1_valid && (t->s1_op == DUALOPT_RCACHE_RD || t->s1_op == DUALOPT_RCACHE_WR) && x->hw >= 0 &&
                 x->rsp_free;
        break;
    case DUALOPT_RCACHE_S_MFULL:
    case DUALOPT_RCACHE_S_MDONE:
    case DUALOPT_RCACHE_S_AINV:
    case DUALOPT_RCACHE_S_FDONE:
        x->adv = 1;
        break;
    default:
        break;
    }
    x->req_ready = t->state != DUALOPT_RCACHE_S_INIT && (!t->s1_valid || x->adv);
    if (t->state == DUALOPT_RCACHE_S_MWB || t->state == DUALOPT_RCACHE_S_AWB || t->state == DUALOPT_RCACHE_S_FWB) {
        unsigned set = t->state == DUALOPT_RCACHE_S_FWB ? t->idx : x->s1_line_set;
        const dualopt_rcache_way *w = way_at(rc, set, t->m_way);
        x->out_valid = 1;
        x->out_kind = 1;
        x->out_line = dualopt_rcache_line_of(rc, set, w->tag);
        x->out_mask = w->dirty;
    } else if (t->state == DUALOPT_RCACHE_S_MFETCH) {
        x->out_valid = 1;
        x->out_line = x->s1_line;
    }
    x->fill_ready = t->state == DUALOPT_RCACHE_S_MFILL;
}

void dualopt_rcache_eval(const dualopt_rcache_tm *t, const uint64_t *in, uint64_t *out)
{
    const dualopt_rcache_geom *g = &t->core.g;
    unsigned n = t->core.c.line;
    rc_comb x;
    comb(t, in, &x);
    memset(out, 0, g->out_words * sizeof *out);
    out[g->o_req_ready] = x.req_ready;
    out[g->o_rsp_valid] = t->rsp_valid;
    out[g->o_rsp_kind] = t->rsp_kind;
    out[g->o_rsp_line] = t->rsp_line;
    out[g->o_rsp_wbs] = t->rsp_wbs;
    out[g->o_rsp_inv] = t->rsp_inv;
    put_line(out + g->o_rsp_data, t->rsp_valid && t->rsp_rd ? t->d_rdata : NULL, n, g->dww);
    out[g->o_out_valid] = x.out_valid;
    out[g->o_out_kind] = x.out_kind;
    out[g->o_out_line] = x.out_line;
    out[g->o_out_mask] = x.out_mask;
    put_line(out + g->o_out_data, x.out_kind ? t->d_rdata : NULL, n, g->dww);
    out[g->o_fill_ready] = x.fill_ready;
}

static void respond(dualopt_rcache_tm *t, unsigned kind, uint64_t line, unsigned rd, unsigned wbs,
                    unsigned inv)
{
    t->rsp_valid = 1;
    t->rsp_kind = kind;
    t->rsp_line = line;
    t->rsp_rd = rd;
    t->rsp_wbs = wbs;
    t->rsp_inv = inv;
}

static void install(dualopt_rcache_tm *t, const rc_comb *x)
{
    dualopt_rcache *rc = &t->core;
    dualopt_rcache_way *w = way_at(rc, x->s1_line_set, t->m_way);
    w->valid = 1;
    w->tag = x->s1_tag;
    w->dirty = t->s1_op == DUALOPT_RCACHE_WR ? t->s1_mask & cohkit_mask64(rc->c.line) : 0;
    touch(rc, x->s1_line_set, t->m_way);
}

void dualopt_rcache_step(dualopt_rcache_tm *t, const uint64_t *in)
{
    dualopt_rcache *rc = &t->core;
    const dualopt_rcache_geom *g = &rc->g;
    unsigned n = rc->c.line, i;
    uint64_t full = cohkit_mask64(n);
    rc_comb x;
    int req_acc;
    unsigned rsp_v;
    if (!(in[0] & 1)) {
        dualopt_rcache_tm_reset(t);
        return;
    }
    comb(t, in, &x);
    req_acc = (in[g->i_req_valid] & 1) && x.req_ready;
    rsp_v = t->rsp_valid;
    if (t->rsp_valid && (in[g->i_rsp_ready] & 1))
        t->rsp_valid = 0;
    switch (t->state) {
    case DUALOPT_RCACHE_S_INIT:
        set_clear(rc, t->idx);
        if (t->idx == rc->c.sets - 1) {
            t->idx = 0;
            t->state = DUALOPT_RCACHE_S_LOOK;
        } else {
            t->idx++;
        }
        break;
    case DUALOPT_RCACHE_S_LOOK:
        if (!t->s1_valid)
            break;
        if (t->s1_op == DUALOPT_RCACHE_RD || t->s1_op == DUALOPT_RCACHE_WR) {
            if (x.hw >= 0) {
                unsigned w = (unsigned)x.hw;
                if (!x.rsp_free)
                    break;
                touch(rc, x.s1_line_set, w);
                if (t->s1_op == DUALOPT_RCACHE_RD) {
                    memcpy(t->d_rdata, data_at(rc, x.s1_line_set, w), n);
                    respond(t, DUALOPT_RCACHE_HIT, x.s1_line, 1, 0, 0);
                } else {
                    merge(data_at(rc, x.s1_line_set, w), t->s1_data, t->s1_mask, n);
                    way_at(rc, x.s1_line_set, w)->dirty |= t->s1_mask & full;
                    respond(t, DUALOPT_RCACHE_WHIT, x.s1_line, 0, 0, 0);
                }
            } else if (!rsp_v) {
                unsigned v = victim(rc, x.s1_line_set);
                const dualopt_rcache_way *vw = way_at(rc, x.s1_line_set, v);
                t->m_way = v;
                t->m_wb = vw->valid && vw->dirty;
                if (t->m_wb) {
                    memcpy(t->d_rdata, data_at(rc, x.s1_line_set, v), n);
                    t->state = DUALOPT_RCACHE_S_MWB;
                } else if (t->s1_op == DUALOPT_RCACHE_WR && (t->s1_mask & full) == full) {
                    t->state = DUALOPT_RCACHE_S_MFULL;
                } else {
                    t->state = DUALOPT_RCACHE_S_MFETCH;
                }
            }
        } else if (t->s1_op == DUALOPT_RCACHE_AT) {
            if (!rsp_v) {
                t->m_hit = x.hw >= 0;
                t->m_way = x.hw >= 0 ? (unsigned)x.hw : 0;
                t->m_wb = x.hw >= 0 && way_at(rc, x.s1_line_set, t->m_way)->dirty != 0;
                if (t->m_wb) {
                    memcpy(t->d_rdata, data_at(rc, x.s1_line_set, t->m_way), n);
                    t->state = DUALOPT_RCACHE_S_AWB;
                } else {
                    t->state = DUALOPT_RCACHE_S_AINV;
                }
            }
        } else if (!rsp_v) {
            t->idx = 0;
            t->fl_wbs = 0;
            t->fl_inv = 0;
            t->state = DUALOPT_RCACHE_S_FRD;
        }
        break;
    case DUALOPT_RCACHE_S_MWB:
        if (in[g->i_out_ready] & 1)
            t->state = (t->s1_op == DUALOPT_RCACHE_WR && (t->s1_mask & full) == full) ? DUALOPT_RCACHE_S_MFULL
                                                                          : DUALOPT_RCACHE_S_MFETCH;
        break;
    case DUALOPT_RCACHE_S_MFETCH:
        if (in[g->i_out_ready] & 1)
            t->state = DUALOPT_RCACHE_S_MFILL;
        break;
    case DUALOPT_RCACHE_S_MFILL:
        if (in[g->i_fill_valid] & 1) {
            uint8_t *d = data_at(rc, x.s1_line_set, t->m_way);
            get_line(d, in + g->i_fill_data, n);
            if (t->s1_op == DUALOPT_RCACHE_WR)
                merge(d, t->s1_data, t->s1_mask, n);
            install(t, &x);
            t->state = DUALOPT_RCACHE_S_MDONE;
        }
        break;
    case DUALOPT_RCACHE_S_MDONE:
        if (t->s1_op == DUALOPT_RCACHE_RD) {
            memcpy(t->d_rdata, data_at(rc, x.s1_line_set, t->m_way), n);
            respond(t, DUALOPT_RCACHE_MISS, x.s1_line, 1, t->m_wb, 0);
        } else {
            respond(t, DUALOPT_RCACHE_WMISS_FETCH, x.s1_line, 0, t->m_wb, 0);
        }
        t->state = DUALOPT_RCACHE_S_LOOK;
        break;
    case DUALOPT_RCACHE_S_MFULL:
        memcpy(data_at(rc, x.s1_line_set, t->m_way), t->s1_data, n);
        install(t, &x);
        respond(t, DUALOPT_RCACHE_WMISS_FULL, x.s1_line, 0, t->m_wb, 0);
        t->state = DUALOPT_RCACHE_S_LOOK;
        break;
    case DUALOPT_RCACHE_S_AWB:
        if (in[g->i_out_ready] & 1)
            t->state = DUALOPT_RCACHE_S_AINV;
        break;
    case DUALOPT_RCACHE_S_AINV:
        if (t->m_hit) {
            dualopt_rcache_way *w = way_at(rc, x.s1_line_set, t->m_way);
            w->valid = 0;
            w->dirty = 0;
        }
        respond(t, DUALOPT_RCACHE_FWD, x.s1_line, 0, t->m_wb, t->m_hit);
        t->state = DUALOPT_RCACHE_S_LOOK;
        break;
    case DUALOPT_RCACHE_S_FRD:
        t->fl_done = 0;
        t->state = DUALOPT_RCACHE_S_FSCAN;
        break;
    case DUALOPT_RCACHE_S_FSCAN: {
        unsigned pend = 0, valid = 0;
        for (i = 0; i < rc->c.ways; i++) {
            const dualopt_rcache_way *w = way_at(rc, t->idx, i);
            if (w->valid && w->dirty && !((t->fl_done >> i) & 1))
                pend |= 1u << i;
            valid += w->valid;
        }
        if (pend) {
            unsigned w = 0;
            while (!((pend >> w) & 1))
                w++;
            t->m_way = w;
            memcpy(t->d_rdata, data_at(rc, t->idx, w), n);
            t->state = DUALOPT_RCACHE_S_FWB;
        } else {
            set_clear(rc, t->idx);
            t->fl_inv += valid;
            if (t->idx == rc->c.sets - 1) {
                t->idx = 0;
                t->state = DUALOPT_RCACHE_S_FDONE;
            } else {
                t->idx++;
                t->state = DUALOPT_RCACHE_S_FRD;
            }
        }
        break;
    }
    case DUALOPT_RCACHE_S_FWB:
        if (in[g->i_out_ready] & 1) {
            t->fl_done |= 1u << t->m_way;
            t->fl_wbs++;
            t->state = DUALOPT_RCACHE_S_FSCAN;
        }
        break;
    case DUALOPT_RCACHE_S_FDONE:
        respond(t, DUALOPT_RCACHE_FLUSH, 0, 0, t->fl_wbs, t->fl_inv);
        t->fl_wbs = 0;
        t->fl_inv = 0;
        t->state = DUALOPT_RCACHE_S_LOOK;
        break;
    default:
        break;
    }
    if (req_acc) {
        t->s1_valid = 1;
        t->s1_op = (unsigned)(in[g->i_req_op] & 3);
        t->s1_addr = in[g->i_req_addr] & cohkit_mask64(rc->c.addr_bits);
        t->s1_mask = in[g->i_req_mask] & full;
        get_line(t->s1_data, in + g->i_req_data, n);
    } else if (x.adv) {
        t->s1_valid = 0;
    }
}
