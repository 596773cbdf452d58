/*
 * The Verilated HALCONE TSU at transaction level (halcone_tsu_rtl.h): the
 * RTL and the timing shell are driven with the same inputs and compared on
 * every output every cycle.
 */
#define _POSIX_C_SOURCE 200809L
#include "halcone_tsu_rtl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compose_rtl.h"
#include "lockstep.h"
#include "unit.h"

struct halcone_tsu_rtl {
    cmp_pair p;                /* the shell and, with a DUT, the RTL       */
    const dut_ops *tab[2];     /* the DUT as a table for the RTL backend   */
    cmp_rtl rtl;
    unsigned char ucfg[512];   /* the unit's configuration wrapper */
    halcone_tsu_cfg c;
    halcone_tsu_geom g;
    halcone_tsu_in in;
    uint64_t uncounted;        /* reset cycles of a DUT (not in its count) */
    char err[320];
};

/* Cycles so far (a DUT's reset cycles are not counted). */
static uint64_t cycles(const halcone_tsu_rtl *r) { return r->p.cycles - r->uncounted; }

/* One cycle: settle both with r->in, compare, clock both (the platform's
 * pair, cmodel/compose.h). Sets *o to the outputs of the cycle. 0, or -1
 * on a mismatch. */
static int cycle(halcone_tsu_rtl *r, halcone_tsu_out *o)
{
    const uint64_t *out;
    memcpy(r->p.ref.in, &r->in, sizeof r->in);
    if (cmp_pair_cycle(&r->p, &out) != 0) {
        snprintf(r->err, sizeof r->err, "%s", r->p.err);
        return -1;
    }
    memcpy(o, out, sizeof *o);
    return 0;
}

/* Idle cycles until req_ready_o (the sweep is over). */
static int settle(halcone_tsu_rtl *r)
{
    halcone_tsu_out o;
    uint64_t limit = cycles(r) + r->c.sets + 16;
    memset(&r->in, 0, sizeof r->in);
    r->in.rst_ni = 1;
    for (;;) {
        memcpy(r->p.ref.in, &r->in, sizeof r->in);
        memcpy(&o, cmp_pair_peek(&r->p), sizeof o);
        if (o.req_ready_o)
            return 0;
        if (cycles(r) > limit) {
            snprintf(r->err, sizeof r->err, "req_ready_o low for %u cycles", r->c.sets + 16);
            return -1;
        }
        if (cycle(r, &o) != 0)
            return -1;
    }
}

/* The shell of r->ucfg (and the DUT d), reset, swept. */
static halcone_tsu_rtl *open_pair(halcone_tsu_rtl *r, const dut_ops *d, char *err, size_t len)
{
    cmp_backend be;
    halcone_tsu_out o;
    unsigned k;
    memcpy(&r->c, r->ucfg, sizeof r->c); /* the wrapper starts with the cfg */
    halcone_tsu_geom_of(&r->c, &r->g);
    if (d) {
        r->tab[0] = d;
        cmp_rtl_init(&r->rtl, r->tab, "all");
        be = cmp_rtl_backend(&r->rtl);
    }
    if (cmp_pair_open(&r->p, "halcone-tsu", r->ucfg, d ? d->module : "halcone-tsu",
                      d ? d->module : "default", 1, d ? &be : NULL, err, len) != 0) {
        free(r);
        return NULL;
    }
    if (r->p.ref.l.in_words != sizeof(halcone_tsu_in) / 8 ||
        r->p.ref.l.out_words != sizeof(halcone_tsu_out) / 8) {
        snprintf(err, len, "%s: port layout differs from halcone_tsu_in/out", r->p.ref.name);
        halcone_tsu_rtl_free(r);
        return NULL;
    }
    memset(&r->in, 0, sizeof r->in);
    for (k = 0; k < LS_RESET_CYCLES; k++)
        cycle(r, &o);
    r->uncounted = d ? LS_RESET_CYCLES : 0;
    if (settle(r) != 0) {
        snprintf(err, len, "%s", r->err);
        halcone_tsu_rtl_free(r);
        return NULL;
    }
    return r;
}

halcone_tsu_rtl *halcone_tsu_rtl_new(const dut_ops *d, char *err, size_t len)
{
    const cohkit_unit_desc *u = cohkit_unit_find("halcone-tsu");
    halcone_tsu_rtl *r;
    if (u == NULL || d == NULL || strcmp(d->unit, "halcone-tsu") != 0) {
        snprintf(err, len, "not a halcone-tsu DUT");
        return NULL;
    }
    if (d->in_words != sizeof(halcone_tsu_in) / 8 || d->out_words != sizeof(halcone_tsu_out) / 8 ||
        u->cfg_size > sizeof r->ucfg) {
        snprintf(err, len, "%s: port layout differs from halcone_tsu_in/out", d->module);
        return NULL;
    }
    r = calloc(1, sizeof *r);
    if (r == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    if (ls_dut_cfg(u, d, r->ucfg, err, len) != 0) {
        free(r);
        return NULL;
    }
    return open_pair(r, d, err, len);
}

halcone_tsu_rtl *halcone_tsu_rtl_new_shell(const halcone_tsu_cfg *c, char *err, size_t len)
{
    const cohkit_unit_desc *u = cohkit_unit_find("halcone-tsu");
    halcone_tsu_rtl *r = calloc(1, sizeof *r);
    if (r == NULL || u == NULL || u->cfg_size > sizeof r->ucfg) {
        snprintf(err, len, "out of memory");
        free(r);
        return NULL;
    }
    memcpy(r->ucfg, c, sizeof *c); /* the wrapper starts with the cfg */
    return open_pair(r, NULL, err, len);
}

void halcone_tsu_rtl_free(halcone_tsu_rtl *r)
{
    if (r == NULL)
        return;
    cmp_pair_close(&r->p);
    free(r);
}

const halcone_tsu_cfg *halcone_tsu_rtl_cfg(const halcone_tsu_rtl *r) { return &r->c; }
uint64_t halcone_tsu_rtl_cycles(const halcone_tsu_rtl *r) { return cycles(r); }
const char *halcone_tsu_rtl_error(const halcone_tsu_rtl *r) { return r->err; }

static void decode(const halcone_tsu_rtl *r, const halcone_tsu_out *o, halcone_tsu_result *res)
{
    unsigned lb = r->g.line_bits;
    memset(res, 0, sizeof *res);
    res->kind = (halcone_tsu_kind)o->rsp_kind_o;
    res->addr = o->rsp_addr_o << lb;
    if (res->kind == HALCONE_TSU_GRANT) {
        res->wts = (uint32_t)o->rsp_wts_o;
        res->rts = (uint32_t)o->rsp_rts_o;
    } else if (res->kind != HALCONE_TSU_ABSENT) {
        res->memts = (uint32_t)o->rsp_rts_o;
    }
    res->victim = (unsigned)o->rsp_victim_o;
    res->victim_addr = o->rsp_vaddr_o << lb;
    res->victim_memts = (uint32_t)o->rsp_vmemts_o;
    res->floor_raised = (unsigned)o->rsp_floor_o;
    res->floor = (uint32_t)o->rsp_fval_o;
    if (r->c.floor == HALCONE_FLOOR_SET)
        res->floor_set = (unsigned)(o->rsp_addr_o & (r->c.sets - 1));
    res->wrap = (unsigned)o->rsp_wrap_o;
    res->reset = (unsigned)o->rsp_reset_o;
    res->epoch = (uint32_t)o->rsp_epoch_o;
}

int halcone_tsu_rtl_request(halcone_tsu_rtl *r, halcone_tsu_op op, uint64_t addr, uint32_t cts,
                            uint32_t lease, uint32_t rts, halcone_tsu_result *res)
{
    const halcone_tsu_geom *g = &r->g;
    halcone_tsu_out o;
    uint64_t limit = cycles(r) + 2ull * r->c.sets + 64, tag = (cycles(r) + 1) & ((1ull << r->c.tag_bits) - 1);
    int accepted = 0;
    memset(res, 0, sizeof *res);
    memset(&r->in, 0, sizeof r->in);
    r->in.rst_ni = 1;
    r->in.req_valid_i = 1;
    r->in.req_op_i = (unsigned)op & 3;
    r->in.req_addr_i = (addr & (g->laddr_bits + g->line_bits >= 64 ? ~0ull
                                : (1ull << (g->laddr_bits + g->line_bits)) - 1)) >> g->line_bits;
    r->in.req_tag_i = tag;
    r->in.req_cts_i = cts & g->ts_max;
    r->in.req_lease_i = lease & g->ts_max;
    r->in.req_rts_i = rts & g->ts_max;
    r->in.rsp_ready_i = 1;
    while (cycles(r) <= limit) {
        halcone_tsu_in now = r->in;
        if (cycle(r, &o) != 0)
            return -1;
        if (now.req_valid_i && o.req_ready_o) {
            accepted = 1;
            r->in.req_valid_i = 0;
            r->in.req_op_i = 0;
            r->in.req_addr_i = r->in.req_tag_i = r->in.req_cts_i = 0;
            r->in.req_lease_i = r->in.req_rts_i = 0;
            if (op == HALCONE_TSU_NOP)
                return settle(r) == 0 ? 1 : -1;
        }
        if (accepted && o.rsp_valid_o && now.rsp_ready_i) {
            if (o.rsp_tag_o != tag) {
                snprintf(r->err, sizeof r->err, "response tag 0x%llx, request tag 0x%llx",
                         (unsigned long long)o.rsp_tag_o, (unsigned long long)tag);
                return -1;
            }
            decode(r, &o, res);
            return settle(r);
        }
    }
    snprintf(r->err, sizeof r->err, "no response within %u cycles", 2u * r->c.sets + 64);
    return -1;
}

int halcone_tsu_rtl_epoch_reset(halcone_tsu_rtl *r)
{
    halcone_tsu_out o;
    memset(&r->in, 0, sizeof r->in);
    r->in.rst_ni = 1;
    r->in.epoch_rst_i = 1;
    if (cycle(r, &o) != 0)
        return -1;
    return settle(r);
}

int halcone_tsu_rtl_set_leases(halcone_tsu_rtl *r, uint32_t rd_lease, uint32_t wr_lease)
{
    halcone_tsu_out o;
    unsigned k;
    for (k = 0; k < 2; k++) {
        memset(&r->in, 0, sizeof r->in);
        r->in.rst_ni = 1;
        r->in.cfg_we_i = (k ? wr_lease : rd_lease) != 0;
        r->in.cfg_sel_i = k;
        r->in.cfg_data_i = (k ? wr_lease : rd_lease) & r->g.ts_max;
        if (cycle(r, &o) != 0)
            return -1;
    }
    return 0;
}
