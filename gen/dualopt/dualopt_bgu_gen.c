/*
 * DualOpt BGU generator: Verilog of the bitmask generation unit beside the
 * CU coalescer (Belayneh et al., section 4.1.1, Fig. 7b). The golden model
 * is cmodel/dualopt/dualopt_bgu.c; microarchitecture and timing are in
 * docs/dualopt.md.
 *
 * The load stays on the input port until its last request is accepted; a
 * pending vector of 2 x lanes parts (a low part per active lane, a high part
 * per line-crossing lane) records what was already requested. Each cycle the
 * lowest pending part seeds the line and every pending part of that line is
 * merged into the request: k lines take k cycles, the first request leaves
 * in the cycle the load is presented.
 */
#include <stdio.h>
#include <string.h>

#include "dualopt_bgu.h"
#include "gen_unit.h"
#include "prim.h"
#include "selftest.h"

typedef struct {
    const dualopt_bgu_cfg *c;
    dualopt_bgu_geom g;
    unsigned word_idx_bits; /* log2(words): a word index */
} gctx;

/* Per lane: the line of its first byte, whether its bytes cross into the
 * next line, and the words it reads on each side. One always_comb over the
 * lanes with indexed part-selects (fast in event-driven simulators). */
static void emit_lanes(emit_file *e, const gctx *x)
{
    unsigned end_bits = x->g.line_bits + 1; /* a lane's end offset, with its carry */
    emit(e, "// Per lane: line of the first byte, carry into the next line, words read.");
    emit(e, "// The size port holds size - 1, so the last byte is addr + inst_size_i.");
    emit(e, "logic [%u:0] lo_line;", x->c->lanes * x->g.laddr_bits - 1);
    emit(e, "logic [%u:0] lo_mask, hi_mask;", x->c->lanes * x->g.words - 1);
    emit(e, "logic [%u:0] crosses;", x->c->lanes - 1);
    emit(e, "logic [%u:0] end_off;", x->c->lanes * end_bits - 1);
    emit(e, "logic [%u:0] from_first, to_last;", x->g.words - 1);
    emit(e, "always_comb begin");
    emit(e, "  from_first = '0;");
    emit(e, "  to_last = '0;");
    emit(e, "  for (int k = 0; k < %u; k++) begin", x->c->lanes);
    emit(e, "    end_off[k*%u +: %u] = {1'b0, inst_addr_i[k*%u +: %u]} + {%u'd0, inst_size_i};",
         end_bits, end_bits, x->c->addr_bits, x->g.line_bits, x->g.line_bits - 3);
    emit(e, "    lo_line[k*%u +: %u] = inst_addr_i[k*%u + %u +: %u];", x->g.laddr_bits,
         x->g.laddr_bits, x->c->addr_bits, x->g.line_bits, x->g.laddr_bits);
    emit(e, "    crosses[k] = end_off[k*%u + %u];", end_bits, x->g.line_bits);
    emit(e, "    from_first = {%u{1'b1}} << inst_addr_i[k*%u + %u +: %u];", x->g.words,
         x->c->addr_bits, x->g.gran_bits, x->g.line_bits - x->g.gran_bits);
    emit(e, "    to_last = {%u{1'b1}} >> (%u'd%u - end_off[k*%u + %u +: %u]);", x->g.words,
         x->word_idx_bits, x->g.words - 1, end_bits, x->g.gran_bits,
         x->g.line_bits - x->g.gran_bits);
    emit(e, "    lo_mask[k*%u +: %u] = crosses[k] ? from_first : from_first & to_last;", x->g.words,
         x->g.words);
    emit(e, "    hi_mask[k*%u +: %u] = to_last;", x->g.words, x->g.words);
    emit(e, "  end");
    emit(e, "end");
    emit_nl(e);
}

/* Pending parts, the seed (lowest pending part: lanes ascending, low part
 * before high part) and the merge of every pending part of the seed's line. */
static void emit_select(emit_file *e, const gctx *x)
{
    unsigned lanes = x->c->lanes, laddr_bits = x->g.laddr_bits, words = x->g.words;
    unsigned cands = 2 * x->c->lanes; /* candidate lines: two per lane */
    emit(e, "// Pending parts; part 2k is lane k's low part, 2k+1 its high part.");
    emit(e, "logic [%u:0] done_lo_q, done_lo_d, done_hi_q, done_hi_d;", lanes - 1);
    emit(e, "logic [%u:0] pend_lo, pend_hi, match_lo, match_hi, sel_lo, sel_hi;", lanes - 1);
    emit(e, "logic [%u:0] pend_all, seed_oh;", cands - 1);
    emit(e, "assign pend_lo = inst_active_i & ~done_lo_q;");
    emit(e, "assign pend_hi = inst_active_i & crosses & ~done_hi_q;");
    emit(e, "always_comb begin");
    emit(e, "  for (int k = 0; k < %u; k++) begin", lanes);
    emit(e, "    pend_all[2*k] = pend_lo[k];");
    emit(e, "    pend_all[2*k+1] = pend_hi[k];");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "// lowest set bit: the seed, one-hot");
    emit(e, "assign seed_oh = pend_all & (~pend_all + %u'd1);", cands);
    emit(e, "always_comb begin");
    emit(e, "  for (int k = 0; k < %u; k++) begin", lanes);
    emit(e, "    sel_lo[k] = seed_oh[2*k];");
    emit(e, "    sel_hi[k] = seed_oh[2*k+1];");
    emit(e, "  end");
    emit(e, "end");
    emit_nl(e);
    emit(e, "// The seed's line L (one-hot select); a high part lies on L when its");
    emit(e, "// lane's first line is L - 1 (addresses wrap). Then the merge: every");
    emit(e, "// pending part on L; the request's word mask is the OR of theirs.");
    emit(e, "logic [%u:0] seed_lane_line, seed_line, seed_line_m1;", laddr_bits - 1);
    emit(e, "logic [%u:0] mask;", words - 1);
    emit(e, "logic seed_hi;");
    emit(e, "assign seed_hi = |sel_hi;");
    emit(e, "always_comb begin");
    emit(e, "  seed_lane_line = '0;");
    emit(e, "  for (int k = 0; k < %u; k++)", lanes);
    emit(e, "    if (sel_lo[k] | sel_hi[k]) seed_lane_line = seed_lane_line | lo_line[k*%u +: %u];",
         laddr_bits, laddr_bits);
    emit(e, "end");
    emit(e, "assign seed_line = seed_lane_line + {%u'd0, seed_hi};", laddr_bits - 1);
    emit(e, "assign seed_line_m1 = seed_hi ? seed_lane_line : seed_lane_line - %u'd1;", laddr_bits);
    emit(e, "always_comb begin");
    emit(e, "  mask = '0;");
    emit(e, "  for (int k = 0; k < %u; k++) begin", lanes);
    emit(e, "    match_lo[k] = pend_lo[k] & (lo_line[k*%u +: %u] == seed_line);", laddr_bits,
         laddr_bits);
    emit(e, "    match_hi[k] = pend_hi[k] & (lo_line[k*%u +: %u] == seed_line_m1);", laddr_bits,
         laddr_bits);
    emit(e, "    if (match_lo[k]) mask = mask | lo_mask[k*%u +: %u];", words, words);
    emit(e, "    if (match_hi[k]) mask = mask | hi_mask[k*%u +: %u];", words, words);
    emit(e, "  end");
    emit(e, "end");
    emit_nl(e);
}

static void emit_ports_and_state(emit_file *e, const gctx *x)
{
    (void)x; /* the same text in every configuration */
    prim_regs rl = {0};
    prim_regs_list(&rl, "done_lo='0 done_hi='0");
    emit(e, "// The request of this cycle; the load is accepted with its last request");
    emit(e, "// (or at once when no lane is active).");
    emit(e, "logic any_pend, last;");
    emit(e, "assign any_pend = |pend_lo | |pend_hi;");
    emit(e, "assign last = ((pend_lo & ~match_lo) | (pend_hi & ~match_hi)) == '0;");
    emit(e, "assign req_valid_o = inst_valid_i & any_pend;");
    emit(e, "assign req_line_o = seed_line;");
    emit(e, "assign req_mask_o = mask;");
    emit(e, "assign req_lanes_o = match_lo | match_hi;");
    emit(e, "assign req_last_o = last;");
    emit(e, "assign inst_ready_o = ~any_pend | (req_ready_i & last);");
    emit_nl(e);
    emit_begin(e, "always_comb begin");
    prim_regs_holds(e, &rl);
    emit(e, "if (inst_valid_i & inst_ready_o) begin");
    emit(e, "  done_lo_d = '0;");
    emit(e, "  done_hi_d = '0;");
    emit(e, "end else if (req_valid_o & req_ready_i) begin");
    emit(e, "  done_lo_d = done_lo_q | match_lo;");
    emit(e, "  done_hi_d = done_hi_q | match_hi;");
    emit(e, "end");
    emit_end(e, "end");
    emit_nl(e);
    prim_regs_block(e, &rl);
}

/* Interface properties (make formal): the request port holds its payload
 * under back-pressure while the load is held, and every request serves at
 * least one lane with at least one word. */
static void emit_formal(emit_file *e, const gctx *x)
{
    static const char *const samples[] = {
        "f_stall_q <= req_valid_o & ~req_ready_i", "f_line_q <= req_line_o",
        "f_mask_q <= req_mask_o",    "f_lanes_q <= req_lanes_o", "f_active_q <= inst_active_i",
        "f_addr_q <= inst_addr_i",   "f_size_q <= inst_size_i",  NULL};
    emit_nl(e);
    prim_formal_begin(e, NULL);
    emit(e, "logic f_stall_q;");
    emit(e, "logic [%u:0] f_line_q;", x->g.laddr_bits - 1);
    emit(e, "logic [%u:0] f_mask_q;", x->g.words - 1);
    emit(e, "logic [%u:0] f_lanes_q, f_active_q;", x->c->lanes - 1);
    emit(e, "logic [%u:0] f_addr_q;", x->c->lanes * x->c->addr_bits - 1);
    emit(e, "logic [3:0] f_size_q;");
    prim_formal_samples(e, samples);
    prim_formal_assume(e, NULL, 0);
    emit(e, "  // the upstream holds a load it presented until it is accepted");
    emit(e, "  if (rst_ni && f_past_q && f_stall_q) begin");
    emit(e, "    assume(inst_valid_i);");
    emit(e, "    assume(inst_active_i == f_active_q && inst_addr_i == f_addr_q && "
            "inst_size_i == f_size_q);");
    emit(e, "    assert(req_valid_o);");
    emit(e, "    assert(req_line_o == f_line_q && req_mask_o == f_mask_q && "
            "req_lanes_o == f_lanes_q);");
    emit(e, "  end");
    emit(e, "  if (rst_ni && req_valid_o) begin");
    emit(e, "    assert(req_mask_o != '0);");
    emit(e, "    assert(req_lanes_o != '0);");
    emit(e, "    assert((req_lanes_o & ~inst_active_i) == '0);");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "`endif");
}

static void emit_bgu(emit_file *e, const void *cfg, const block_desc *b)
{
    gctx x;
    GEN_CTX_INIT(x, cfg, dualopt_bgu_geom);
    x.word_idx_bits = prim_log2_floor(x.g.words);
    emit(e, "// DualOpt BGU beside the CU coalescer (Belayneh et al., section 4.1.1, Fig. 7b):");
    emit(e, "// one request per distinct line of a wavefront load, first-touch order, with");
    emit(e, "// its word mask and lane mask; one request per cycle. See docs/dualopt.md.");
    emit(e, "// Storage: a pending-part vector of 2 x lanes flip-flops; no RAM by design.");
    PRIM_MODULE(e, b, gctx, &x, emit_lanes, emit_select, emit_ports_and_state, emit_formal);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(dualopt_bgu_cfg, dualopt_bgu_geom);
    snprintf(buf, len,
             "lanes=%u line=%u gran=%u addr_bits=%u\n"
             "mask_bits=%u line_addr_bits=%u addr_port_bits=%u state_bits=%u",
             c->lanes, c->line, c->gran, c->addr_bits, g.words, g.laddr_bits, g.addr_port,
             2 * c->lanes);
}

static void gen_report(FILE *f, const void *cfg, int json)
{
    GEN_CFG_GEOM(dualopt_bgu_cfg, dualopt_bgu_geom);
    if (json) {
        fprintf(f,
                "{\"unit\":\"dualopt-bgu\",\"lanes\":%u,\"line\":%u,\"gran\":%u,\"addr_bits\":%u,"
                "\"mask_bits\":%u,\"line_addr_bits\":%u,\"addr_port_bits\":%u,"
                "\"state_bits\":%u,\"rtl_memories\":[],"
                "\"paper\":{\"area_um2\":964.99,\"power_mW\":0.43,\"node_nm\":28},"
                "\"storage_bits\":%u,\"paper_area_um2\":964.99,\"paper_note\":\"Table 4: BGU "
                "964.99 um^2, 0.43 mW per CU (28 nm); storage bits = the pending-part vector\"}\n",
                c->lanes, c->line, c->gran, c->addr_bits, g.words, g.laddr_bits, g.addr_port,
                2 * c->lanes, 2 * c->lanes);
        return;
    }
    fprintf(f, "DualOpt BGU: %u lanes, %u B lines, %u B words (%u-bit mask), %u-bit addresses\n",
            c->lanes, c->line, c->gran, g.words, c->addr_bits);
    fprintf(f, "  ports: %u-bit address vector, %u-bit line address out, %u-bit lane mask\n",
            g.addr_port, g.laddr_bits, c->lanes);
    fprintf(f, "  state: %u flip-flops (pending low/high part per lane); no RAM\n", 2 * c->lanes);
    fprintf(f, "  timing: a load touching k lines takes max(k,1) cycles, first request in the "
               "cycle it is presented\n");
    fprintf(f, "  paper (Table 4): 964.99 um^2, 0.43 mW per CU at 28 nm\n");
}

/* FPGA self-test stimulus (gen/selftest.h): per lane, the address bits
 * above two lines' worth of offset take one of four values next to the top
 * of the address space, so the lanes of a load share lines, cross lines and
 * wrap; active lanes and sizes stay random. */
int dualopt_bgu_selftest(const void *cfg, st_rule *r, int max, char *err, size_t len)
{
    const dualopt_bgu_cfg *c = cfg;
    unsigned lo = 0, hw;
    while ((1u << lo) < c->line)
        lo++;
    lo += 2;
    hw = c->addr_bits - lo;
    if (max < 1 || c->addr_bits <= lo + 2 || hw > 64)
        return snprintf(err, len, "dualopt-bgu: no self-test for %u-bit addresses", c->addr_bits), -1;
    r[0] = (st_rule){.port = "inst_addr_i", .lo = lo, .width = hw, .repeat = c->lanes,
                     .stride = c->addr_bits, .kind = ST_RANGE,
                     .a = (hw >= 64 ? ~0ull : (1ull << hw) - 1) - 3,
                     .b = hw >= 64 ? ~0ull : (1ull << hw) - 1};
    return 1;
}

const gen_unit dualopt_bgu_gen_unit = {"dualopt-bgu", emit_bgu, gen_params, gen_report,
                                       dualopt_bgu_selftest};
