/*
 * DualOpt SCBU generator: Verilog of the selective cache bypassing unit of
 * an L1 cache controller (Belayneh et al., section 4.1.2, Fig. 7c, Table 1):
 * two range registers and a comparator, plus the mode bit. The golden model
 * is cmodel/dualopt/dualopt_scbu.c; timing is in docs/dualopt.md.
 *
 * The check itself is combinational; a registered output stage (full
 * throughput: one access per cycle, one cycle of latency) carries the access
 * and its decision on a valid/ready stream, so the unit sits in a pipeline
 * and the bench can measure it. Register writes land at the clock edge: an
 * access accepted in the same cycle sees the previous values.
 */
#include <stdio.h>
#include <string.h>

#include "dualopt_scbu.h"
#include "gen_unit.h"
#include "prim.h"
#include "selftest.h"

static void emit_scbu(emit_file *e, const void *cfg, const block_desc *b)
{
    static const prim_sfield res[] = {{"res_op", "acc_op_i", 1},      {"res_addr", "acc_addr_i", 1},
                                      {"res_local", "local_c", 1},    {"res_bypass", "bypass_c", 1},
                                      {NULL, NULL, 0}};
    const dualopt_scbu_cfg *c = cfg;
    unsigned aw = c->addr_bits, rw = c->addr_bits + 1;
    emit(e, "// DualOpt SCBU (Belayneh et al., section 4.1.2, Fig. 7c): local = start <= addr");
    emit(e, "// < end; bypass = !local && read && coalescing mode. See docs/dualopt.md.");
    emit(e, "// Storage: range and mode registers and one output stage; no RAM by design.");
    prim_module_begin(e, b);
    emit(e, "localparam logic [1:0] OpRead = 2'd0;");
    emit_nl(e);
    emit(e, "// Range [start, end) and mode: %u-bit registers so that end may be 2^%u.", rw, aw);
    emit(e, "logic [%u:0] start_q, start_d, end_q, end_d;", rw - 1);
    emit(e, "logic coal_q, coal_d;");
    emit_begin(e, "always_comb begin");
    prim_hold(e, "start end coal");
    emit(e, "if (cfg_valid_i) begin");
    emit(e, "  start_d = cfg_start_i;");
    emit(e, "  end_d = cfg_end_i;");
    emit(e, "end");
    emit(e, "if (en_valid_i) coal_d = en_coalesce_i;");
    emit_end(e, "end");
    emit_nl(e);
    emit(e, "// The check: two comparators on the zero-extended address.");
    emit(e, "logic [%u:0] addr_x;", rw - 1);
    emit(e, "logic local_c, bypass_c;");
    emit(e, "assign addr_x = {1'b0, acc_addr_i};");
    emit(e, "assign local_c = (addr_x >= start_q) & (addr_x < end_q);");
    emit(e, "assign bypass_c = ~local_c & (acc_op_i == OpRead) & coal_q;");
    emit_nl(e);
    emit(e, "// Output stage: one access per cycle, decision one cycle after acceptance.");
    emit(e, "logic res_valid_q, res_valid_d, res_local_q, res_local_d, res_bypass_q, res_bypass_d;");
    emit(e, "logic [1:0] res_op_q, res_op_d;");
    emit(e, "logic [%u:0] res_addr_q, res_addr_d;", aw - 1);
    prim_out_stage(e, "acc", "res", res);
    emit_nl(e);
    prim_regs rl = {0};
    prim_reg(&rl, "start", "%u'h%llx", rw, (unsigned long long)c->start);
    prim_reg(&rl, "end", "%u'h%llx", rw, (unsigned long long)c->end);
    prim_reg(&rl, "coal", "1'b%u", c->enable);
    prim_regs_list(&rl, "res_valid=1'b0 res_op=2'd0 res_addr='0 res_local=1'b0 res_bypass=1'b0");
    prim_regs_block(e, &rl);
    emit_nl(e);
    prim_formal_begin(e, "// SCBU bypasses only remote reads, and only in coalescing mode (spec 2.7).");
    prim_formal_samples(e, (const char *const[]){NULL});
    prim_formal_assume(e, "reset in the first cycle only", 1);
    emit(e, "  if (rst_ni && res_valid_o && res_bypass_o) begin");
    emit(e, "    assert(!res_local_o);");
    emit(e, "    assert(res_op_o == OpRead);");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "`endif");
    prim_module_end(e);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    const dualopt_scbu_cfg *c = cfg;
    snprintf(buf, len, "addr_bits=%u start=0x%llx end=0x%llx enable=%u\nrange_register_bits=%u",
             c->addr_bits, (unsigned long long)c->start, (unsigned long long)c->end, c->enable,
             c->addr_bits + 1);
}

static void gen_report(FILE *f, const void *cfg, int json)
{
    const dualopt_scbu_cfg *c = cfg;
    unsigned regs = 2 * (c->addr_bits + 1) + 1, stage = 1 + 2 + c->addr_bits + 2;
    if (json) {
        fprintf(f,
                "{\"unit\":\"dualopt-scbu\",\"addr_bits\":%u,\"start\":%llu,\"end\":%llu,"
                "\"enable\":%u,\"range_register_bits\":%u,\"register_bits\":%u,"
                "\"output_stage_bits\":%u,\"rtl_memories\":[],"
                "\"paper\":{\"area_um2\":202.94,\"power_mW\":0.27,\"node_nm\":28},"
                "\"storage_bits\":%u,\"paper_area_um2\":202.94,\"paper_note\":\"Table 4: SCBU "
                "202.94 um^2, 0.27 mW per cache controller (28 nm); storage bits = range and mode "
                "registers\"}\n",
                c->addr_bits, (unsigned long long)c->start, (unsigned long long)c->end, c->enable,
                c->addr_bits + 1, regs, stage, regs);
        return;
    }
    fprintf(f, "DualOpt SCBU: %u-bit addresses, reset range [0x%llx, 0x%llx), coalescing %s\n",
            c->addr_bits, (unsigned long long)c->start, (unsigned long long)c->end,
            c->enable ? "on" : "off");
    fprintf(f, "  state: 2 x %u-bit range registers + mode bit = %u bits; output stage %u bits\n",
            c->addr_bits + 1, regs, stage);
    fprintf(f, "  timing: one access per cycle, decision one cycle after acceptance\n");
    fprintf(f, "  paper (Table 4): 202.94 um^2, 0.27 mW per cache controller at 28 nm\n");
}

/* FPGA self-test stimulus (gen/selftest.h): the range is reprogrammed now
 * and then (about every 64 cycles) with values aligned to 1/16 of the
 * address space, 1 in 16 beyond it; the mode now and then. */
int dualopt_scbu_selftest(const void *cfg, st_rule *r, int max, char *err, size_t len)
{
    const dualopt_scbu_cfg *c = cfg;
    unsigned a = c->addr_bits, k;
    if (max < 6 || a < 8)
        return snprintf(err, len, "dualopt-scbu: no self-test"), -1;
    r[0] = (st_rule){.port = "cfg_valid_i", .kind = ST_PROB, .a = 1024};
    r[1] = (st_rule){.port = "en_valid_i", .kind = ST_PROB, .a = 512};
    for (k = 0; k < 2; k++) {
        const char *p = k ? "cfg_end_i" : "cfg_start_i";
        r[2 + 2 * k] = (st_rule){.port = p, .width = a - 4, .kind = ST_CONST};
        r[3 + 2 * k] = (st_rule){.port = p, .lo = a, .width = 1, .kind = ST_PROB, .a = 4096};
    }
    return 6;
}

const gen_unit dualopt_scbu_gen_unit = {"dualopt-scbu", emit_scbu, gen_params, gen_report,
                                        dualopt_scbu_selftest};
