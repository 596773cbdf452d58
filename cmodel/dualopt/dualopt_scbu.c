/*
 * DualOpt SCBU: configuration, functional core (scbu_access) and timing
 * shell (range and mode registers, one registered output stage). See
 * dualopt_scbu.h and docs/dualopt.md.
 */
#include "dualopt_scbu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

void scbu_cfg_default(scbu_cfg *c)
{
    c->addr_bits = 48;
    c->start = 0;
    c->end = 0x100000000ull;
    c->enable = 1;
}

int scbu_cfg_preset(scbu_cfg *c, const char *name)
{
    scbu_cfg_default(c);
    if (strcmp(name, "default") == 0)
        return 0;
    if (strcmp(name, "fpga") == 0) {
        c->addr_bits = 32;
        c->start = 0x10000000ull;
        c->end = 0x20000000ull;
        return 0;
    }
    return -1;
}

static const unit_opt_choice zero_one[] = {{"0", 0, 0}, {"1", 1, 0}, {NULL, 0, 0}};
static const unit_opt opts[] = {
    UNIT_OPT_HEX64("start", "A", "reset value of the start register, hex (default 0x0)", scbu_cfg,
                   start, .what = "a hex address"),
    UNIT_OPT_HEX64("end", "A",
                   "reset value of the end register (exclusive), hex\n"
                   "(default 0x100000000: GPU 0's 4 GB)",
                   scbu_cfg, end, .what = "a hex address"),
    UNIT_OPT_CHOICE("enable", "0|1", "reset value of the coalescing-mode register (default 1)",
                    scbu_cfg, enable, zero_one),
    UNIT_OPT_NUM("addr-bits", "N", "physical address width, 16..63 (default 48)", scbu_cfg,
                 addr_bits),
    UNIT_OPT_END,
};
static const char *const args_order[] = {"addr-bits", "start", "end", "enable", NULL};
const unit_opt_table scbu_opts = {opts, "a decimal number", 1000, 10, 0, args_order};

int scbu_cfg_option(scbu_cfg *c, const char *name, const char *value, char *err, size_t len)
{
    return unit_opt_apply(&scbu_opts, c, name, value, err, len);
}

int scbu_cfg_check(const scbu_cfg *c, char *err, size_t len)
{
    uint64_t top;
    if (c->addr_bits < 16 || c->addr_bits > 63) {
        snprintf(err, len, "--addr-bits: %u is not in 16..63", c->addr_bits);
        return -1;
    }
    top = 1ull << c->addr_bits;
    if (c->start > top) {
        snprintf(err, len, "--start: 0x%llx exceeds 2^%u", (unsigned long long)c->start,
                 c->addr_bits);
        return -1;
    }
    if (c->end > top) {
        snprintf(err, len, "--end: 0x%llx exceeds 2^%u", (unsigned long long)c->end, c->addr_bits);
        return -1;
    }
    if (c->end < c->start) {
        snprintf(err, len, "--end: 0x%llx is below --start 0x%llx", (unsigned long long)c->end,
                 (unsigned long long)c->start);
        return -1;
    }
    return 0;
}

void scbu_geom_of(const scbu_cfg *c, scbu_geom *g) { g->range_bits = c->addr_bits + 1; }

void scbu_cfg_name(const scbu_cfg *c, char *buf, size_t len)
{
    snprintf(buf, len, "dualopt_scbu_a%u_s%llx_e%llx_en%u", c->addr_bits,
             (unsigned long long)c->start, (unsigned long long)c->end, c->enable);
}

void scbu_cfg_args(const scbu_cfg *c, char *buf, size_t len)
{
    unit_opt_args(&scbu_opts, c, buf, len);
}

/* ---------------------------------------------------------------- core -- */

void scbu_init(scbu *s, const scbu_cfg *c)
{
    s->addr_bits = c->addr_bits;
    s->start = c->start;
    s->end = c->end;
    s->coalesce = c->enable;
}

void scbu_set_range(scbu *s, uint64_t start, uint64_t end)
{
    s->start = start & mask64(s->addr_bits + 1);
    s->end = end & mask64(s->addr_bits + 1);
}

void scbu_set_mode(scbu *s, unsigned coalesce) { s->coalesce = coalesce & 1; }

scbu_res scbu_access(const scbu *s, scbu_op op, uint64_t addr)
{
    scbu_res r;
    addr &= mask64(s->addr_bits);
    r.local = s->start <= addr && addr < s->end;
    r.bypass = !r.local && op == SCBU_RD && s->coalesce;
    return r;
}

/* -------------------------------------------------------- timing shell -- */

scbu_tm *scbu_tm_new(const scbu_cfg *c)
{
    scbu_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->c = *c;
    scbu_tm_reset(t);
    return t;
}

void scbu_tm_free(scbu_tm *t) { free(t); }

void scbu_tm_reset(scbu_tm *t)
{
    scbu_init(&t->regs, &t->c);
    t->res_valid = 0;
    t->res_op = 0;
    t->res_local = 0;
    t->res_bypass = 0;
    t->res_addr = 0;
}

void scbu_eval(const scbu_tm *t, const uint64_t *in, uint64_t *out)
{
    out[SCBU_O_ACC_READY] = (uint64_t)(!t->res_valid || (in[SCBU_I_RES_READY] & 1));
    out[SCBU_O_RES_VALID] = t->res_valid;
    out[SCBU_O_RES_OP] = t->res_op;
    out[SCBU_O_RES_ADDR] = t->res_addr;
    out[SCBU_O_RES_LOCAL] = t->res_local;
    out[SCBU_O_RES_BYPASS] = t->res_bypass;
}

void scbu_step(scbu_tm *t, const uint64_t *in)
{
    int ready = (int)(in[SCBU_I_RES_READY] & 1);
    int acc = (int)(in[SCBU_I_ACC_VALID] & 1) && (!t->res_valid || ready);
    if (!(in[SCBU_I_RST] & 1)) {
        scbu_tm_reset(t);
        return;
    }
    /* the access sees the registers of this cycle; writes land at the edge */
    if (acc) {
        unsigned op = (unsigned)(in[SCBU_I_ACC_OP] & 3);
        scbu_res r = scbu_access(&t->regs, (scbu_op)op, in[SCBU_I_ACC_ADDR]);
        t->res_valid = 1;
        t->res_op = op;
        t->res_addr = in[SCBU_I_ACC_ADDR] & mask64(t->c.addr_bits);
        t->res_local = r.local;
        t->res_bypass = r.bypass;
    } else if (ready) {
        t->res_valid = 0;
    }
    if (in[SCBU_I_CFG_VALID] & 1)
        scbu_set_range(&t->regs, in[SCBU_I_CFG_START], in[SCBU_I_CFG_END]);
    if (in[SCBU_I_EN_VALID] & 1)
        scbu_set_mode(&t->regs, (unsigned)(in[SCBU_I_EN_COALESCE] & 1));
}
