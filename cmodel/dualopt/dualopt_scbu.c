/*
 * DualOpt SCBU: configuration, functional core (dualopt_scbu_access) and timing
 * shell (range and mode registers, one registered output stage). See
 * dualopt_scbu.h and docs/dualopt.md.
 */
#include "dualopt_scbu.h"
#include "bits.h"
#include "cfg_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dualopt_scbu_cfg_default(dualopt_scbu_cfg *c)
{
    static const dualopt_scbu_cfg d = {.addr_bits = 48, .end = 0x100000000ull, .enable = 1};
    *c = d;
}

static const cohkit_cfg_preset presets[] = {
    {"default", ""},
    {"fpga", "--addr-bits 32 --start 0x10000000 --end 0x20000000"},
    {NULL, NULL},
};

static const cohkit_unit_opt_choice zero_one[] = {{"0", 0, 0}, {"1", 1, 0}, {NULL, 0, 0}};
static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_HEX64("start", "A", "reset value of the start register, hex (default 0x0)", dualopt_scbu_cfg,
                   start, .what = "a hex address"),
    COHKIT_UNIT_OPT_HEX64("end", "A",
                   "reset value of the end register (exclusive), hex\n"
                   "(default 0x100000000: GPU 0's 4 GB)",
                   dualopt_scbu_cfg, end, .what = "a hex address"),
    COHKIT_UNIT_OPT_CHOICE("enable", "0|1", "reset value of the coalescing-mode register (default 1)",
                    dualopt_scbu_cfg, enable, zero_one),
    COHKIT_UNIT_OPT_NUM("addr-bits", "N", "physical address width, 16..63 (default 48)", dualopt_scbu_cfg,
                 addr_bits),
    COHKIT_UNIT_OPT_END,
};
static const char *const args_order[] = {"addr-bits", "start", "end", "enable", NULL};
const cohkit_unit_opt_table dualopt_scbu_opts = {opts, "a decimal number", 1000, 10, 0, args_order};

COHKIT_CFG_OPT_FNS(dualopt_scbu, dualopt_scbu_cfg, presets, dualopt_scbu_cfg_default)

int dualopt_scbu_cfg_check(const dualopt_scbu_cfg *c, char *err, size_t len)
{
    uint64_t top;
    if (cohkit_cfg_in(err, len, "addr-bits", c->addr_bits, 16, 63))
        return -1;
    top = 1ull << c->addr_bits;
    if (c->start > top)
        return cohkit_cfg_fail(err, len, "--start: 0x%llx exceeds 2^%u", (unsigned long long)c->start,
                               c->addr_bits);
    if (c->end > top)
        return cohkit_cfg_fail(err, len, "--end: 0x%llx exceeds 2^%u", (unsigned long long)c->end,
                               c->addr_bits);
    if (c->end < c->start)
        return cohkit_cfg_fail(err, len, "--end: 0x%llx is below --start 0x%llx",
                               (unsigned long long)c->end, (unsigned long long)c->start);
    return 0;
}

void dualopt_scbu_geom_of(const dualopt_scbu_cfg *c, dualopt_scbu_geom *g) { g->range_bits = c->addr_bits + 1; }

void dualopt_scbu_cfg_name(const dualopt_scbu_cfg *c, char *buf, size_t len)
{
    snprintf(buf, len, "dualopt_scbu_a%u_s%llx_e%llx_en%u", c->addr_bits,
             (unsigned long long)c->start, (unsigned long long)c->end, c->enable);
}

/* ---------------------------------------------------------------- core -- */

void dualopt_scbu_init(dualopt_scbu *s, const dualopt_scbu_cfg *c)
{
    s->addr_bits = c->addr_bits;
    s->start = c->start;
    s->end = c->end;
    s->coalesce = c->enable;
}

void dualopt_scbu_set_range(dualopt_scbu *s, uint64_t start, uint64_t end)
{
    s->start = start & cohkit_mask64(s->addr_bits + 1);
    s->end = end & cohkit_mask64(s->addr_bits + 1);
}

void dualopt_scbu_set_mode(dualopt_scbu *s, unsigned coalesce) { s->coalesce = coalesce & 1; }

dualopt_scbu_res dualopt_scbu_access(const dualopt_scbu *s, dualopt_scbu_op op, uint64_t addr)
{
    dualopt_scbu_res r;
    addr &= cohkit_mask64(s->addr_bits);
    r.local = s->start <= addr && addr < s->end;
    r.bypass = !r.local && op == DUALOPT_SCBU_RD && s->coalesce;
    return r;
}

/* -------------------------------------------------------- timing shell -- */

dualopt_scbu_tm *dualopt_scbu_tm_new(const dualopt_scbu_cfg *c)
{
    dualopt_scbu_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->c = *c;
    dualopt_scbu_tm_reset(t);
    return t;
}

void dualopt_scbu_tm_free(dualopt_scbu_tm *t) { free(t); }

void dualopt_scbu_tm_reset(dualopt_scbu_tm *t)
{
    dualopt_scbu_init(&t->regs, &t->c);
    t->res_valid = 0;
    t->res_op = 0;
    t->res_local = 0;
    t->res_bypass = 0;
    t->res_addr = 0;
}

void dualopt_scbu_eval(const dualopt_scbu_tm *t, const uint64_t *in, uint64_t *out)
{
    out[DUALOPT_SCBU_O_ACC_READY] = (uint64_t)(!t->res_valid || (in[DUALOPT_SCBU_I_RES_READY] & 1));
    out[DUALOPT_SCBU_O_RES_VALID] = t->res_valid;
    out[DUALOPT_SCBU_O_RES_OP] = t->res_op;
    out[DUALOPT_SCBU_O_RES_ADDR] = t->res_addr;
    out[DUALOPT_SCBU_O_RES_LOCAL] = t->res_local;
    out[DUALOPT_SCBU_O_RES_BYPASS] = t->res_bypass;
}

void dualopt_scbu_step(dualopt_scbu_tm *t, const uint64_t *in)
{
    int ready = (int)(in[DUALOPT_SCBU_I_RES_READY] & 1);
    int acc = (int)(in[DUALOPT_SCBU_I_ACC_VALID] & 1) && (!t->res_valid || ready);
    if (!(in[DUALOPT_SCBU_I_RST] & 1)) {
        dualopt_scbu_tm_reset(t);
        return;
    }
    /* the access sees the registers of this cycle; writes land at the edge */
    if (acc) {
        unsigned op = (unsigned)(in[DUALOPT_SCBU_I_ACC_OP] & 3);
        dualopt_scbu_res r = dualopt_scbu_access(&t->regs, (dualopt_scbu_op)op, in[DUALOPT_SCBU_I_ACC_ADDR]);
        t->res_valid = 1;
        t->res_op = op;
        t->res_addr = in[DUALOPT_SCBU_I_ACC_ADDR] & cohkit_mask64(t->c.addr_bits);
        t->res_local = r.local;
        t->res_bypass = r.bypass;
    } else if (ready) {
        t->res_valid = 0;
    }
    if (in[DUALOPT_SCBU_I_CFG_VALID] & 1)
        dualopt_scbu_set_range(&t->regs, in[DUALOPT_SCBU_I_CFG_START], in[DUALOPT_SCBU_I_CFG_END]);
    if (in[DUALOPT_SCBU_I_EN_VALID] & 1)
        dualopt_scbu_set_mode(&t->regs, (unsigned)(in[DUALOPT_SCBU_I_EN_COALESCE] & 1));
}
