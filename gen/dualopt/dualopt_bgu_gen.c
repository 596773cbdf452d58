/*
 * DualOpt BGU generator: Verilog of the bitmask generation unit beside the
 * CU coalescer (Belayneh et al., section 4.1.1, Fig. 7b). The golden model
 * is cmodel/dualopt/dualopt_bgu.c; microarchitecture and timing are in
 * docs/dualopt.md.
 *
 * A registered input stage: an accepted load lands in registers as per-lane
 * parts (a low part per active lane, a high part per line-crossing lane:
 * each part's line, the words it reads), with the line of its first part.
 * Each cycle every pending part on the registered line L is merged into the
 * request, and the line of the lowest part left becomes the next L: the
 * lane compare runs from registers only, and the loop it closes (L, compare,
 * lowest part left, its line) holds no adder. k lines take k cycles, the
 * first request leaves in the cycle after the load is accepted, and the next
 * load is accepted with the last request.
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

/* The OR-reductions over lanes are functions (a local accumulator): no
 * always_comb block reads what it writes, so event-driven simulators
 * evaluate each block once per change of its inputs. */
static void emit_funcs(emit_file *e, const gctx *x)
{
    unsigned lanes = x->c->lanes, lb = x->g.laddr_bits, words = x->g.words;
    emit(e, "// The line of the one-hot selected lane.");
    emit(e, "function automatic [%u:0] pick_line(input [%u:0] oh, input [%u:0] lines);",
         lb - 1, lanes - 1, lanes * lb - 1);
    emit(e, "  pick_line = '0;");
    emit(e, "  for (int k = 0; k < %u; k++)", lanes);
    emit(e, "    if (oh[k]) pick_line = pick_line | lines[k*%u +: %u];", lb, lb);
    emit(e, "endfunction");
    emit(e, "// The OR of the selected lanes' words.");
    emit(e, "function automatic [%u:0] or_masks(input [%u:0] sel, input [%u:0] masks);", words - 1,
         lanes - 1, lanes * words - 1);
    emit(e, "  or_masks = '0;");
    emit(e, "  for (int k = 0; k < %u; k++)", lanes);
    emit(e, "    if (sel[k]) or_masks = or_masks | masks[k*%u +: %u];", words, words);
    emit(e, "endfunction");
    emit_nl(e);
}

/* The load on the port, as the parts the registers take when it is
 * accepted: per lane its first line, that line plus one (its high part's
 * line), whether its bytes cross into it, its first and last word; and the
 * line of the load's first part (the lowest active lane's low part). */
static void emit_input(emit_file *e, const gctx *x)
{
    unsigned lanes = x->c->lanes, lb = x->g.laddr_bits, wib = x->word_idx_bits;
    unsigned end_bits = x->g.line_bits + 1; /* a lane's end offset, with its carry */
    emit(e, "// The load on the port as parts (taken when the load is accepted).");
    emit(e, "// The size port holds size - 1, so the last byte is addr + inst_size_i.");
    emit(e, "logic [%u:0] in_lo_line, in_hi_line;", lanes * lb - 1);
    emit(e, "logic [%u:0] in_w0, in_we;", lanes * wib - 1);
    emit(e, "logic [%u:0] in_cross, in_first_oh;", lanes - 1);
    emit(e, "logic [%u:0] in_end_off;", lanes * end_bits - 1);
    emit(e, "logic [%u:0] in_first_line;", lb - 1);
    emit(e, "always_comb begin");
    emit(e, "  for (int k = 0; k < %u; k++) begin", lanes);
    emit(e, "    in_end_off[k*%u +: %u] = {1'b0, inst_addr_i[k*%u +: %u]} + {%u'd0, inst_size_i};",
         end_bits, end_bits, x->c->addr_bits, x->g.line_bits, x->g.line_bits - 3);
    emit(e, "    in_lo_line[k*%u +: %u] = inst_addr_i[k*%u + %u +: %u];", lb, lb, x->c->addr_bits,
         x->g.line_bits, lb);
    emit(e, "    in_hi_line[k*%u +: %u] = inst_addr_i[k*%u + %u +: %u] + %u'd1;", lb, lb,
         x->c->addr_bits, x->g.line_bits, lb, lb);
    emit(e, "    in_w0[k*%u +: %u] = inst_addr_i[k*%u + %u +: %u];", wib, wib, x->c->addr_bits,
         x->g.gran_bits, wib);
    emit(e, "  end");
    emit(e, "end");
    emit(e, "always_comb begin");
    emit(e, "  for (int k = 0; k < %u; k++) begin", lanes);
    emit(e, "    in_cross[k] = in_end_off[k*%u + %u];", end_bits, x->g.line_bits);
    emit(e, "    in_we[k*%u +: %u] = in_end_off[k*%u + %u +: %u];", wib, wib, end_bits,
         x->g.gran_bits, wib);
    emit(e, "  end");
    emit(e, "end");
    emit(e, "assign in_first_oh = inst_active_i & (~inst_active_i + %u'd1);", lanes);
    emit(e, "assign in_first_line = pick_line(in_first_oh, in_lo_line);");
    emit_nl(e);
}

/* The held load: its pending parts on the registered line L are this
 * cycle's request; each part's words come from its registered first and
 * last word (two shifters of an all-ones mask, beside the compare). */
static void emit_match(emit_file *e, const gctx *x)
{
    unsigned lanes = x->c->lanes, lb = x->g.laddr_bits, words = x->g.words;
    unsigned wib = x->word_idx_bits;
    emit(e, "// The held load: pending parts (a low part per active lane, a high part");
    emit(e, "// per line-crossing lane), each part's line and words, and L, the line");
    emit(e, "// of this cycle's request. Every pending part on L is merged into it.");
    emit(e, "logic [%u:0] pend_lo_q, pend_lo_d, pend_hi_q, pend_hi_d, cross_q, cross_d;", lanes - 1);
    emit(e, "logic [%u:0] lo_line_q, lo_line_d, hi_line_q, hi_line_d;", lanes * lb - 1);
    emit(e, "logic [%u:0] w0_q, w0_d, we_q, we_d;", lanes * wib - 1);
    emit(e, "logic [%u:0] line_q, line_d;", lb - 1);
    emit(e, "logic [%u:0] match_lo, match_hi, rem_lo, rem_hi;", lanes - 1);
    emit(e, "logic [%u:0] lo_mask, hi_mask;", lanes * words - 1);
    emit(e, "logic [%u:0] mask;", words - 1);
    emit(e, "always_comb begin");
    emit(e, "  for (int k = 0; k < %u; k++) begin", lanes);
    emit(e, "    match_lo[k] = pend_lo_q[k] & (lo_line_q[k*%u +: %u] == line_q);", lb, lb);
    emit(e, "    match_hi[k] = pend_hi_q[k] & (hi_line_q[k*%u +: %u] == line_q);", lb, lb);
    emit(e, "    hi_mask[k*%u +: %u] = {%u{1'b1}} >> (%u'd%u - we_q[k*%u +: %u]);", words, words,
         words, wib, words - 1, wib, wib);
    emit(e, "    lo_mask[k*%u +: %u] = ({%u{1'b1}} << w0_q[k*%u +: %u]) &", words, words, words, wib,
         wib);
    emit(e, "        (cross_q[k] ? {%u{1'b1}} : {%u{1'b1}} >> (%u'd%u - we_q[k*%u +: %u]));", words,
         words, wib, words - 1, wib, wib);
    emit(e, "  end");
    emit(e, "end");
    emit(e, "assign mask = or_masks(match_lo, lo_mask) | or_masks(match_hi, hi_mask);");
    emit(e, "assign rem_lo = pend_lo_q & ~match_lo;");
    emit(e, "assign rem_hi = pend_hi_q & ~match_hi;");
    emit_nl(e);
}

/* The next L: the line of the lowest part left (lanes ascending, a lane's
 * low part before its high part), a one-hot select of registered lines. */
static void emit_next(emit_file *e, const gctx *x)
{
    unsigned lanes = x->c->lanes, lb = x->g.laddr_bits, parts = 2 * lanes;
    emit(e, "// The next L: the line of the lowest part left; part 2k is lane k's low");
    emit(e, "// part, 2k+1 its high part.");
    emit(e, "logic [%u:0] rem_all, next_oh;", parts - 1);
    emit(e, "logic [%u:0] next_oh_lo, next_oh_hi;", lanes - 1);
    emit(e, "logic [%u:0] next_line;", lb - 1);
    emit(e, "always_comb begin");
    emit(e, "  for (int k = 0; k < %u; k++) begin", lanes);
    emit(e, "    rem_all[2*k] = rem_lo[k];");
    emit(e, "    rem_all[2*k+1] = rem_hi[k];");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "assign next_oh = rem_all & (~rem_all + %u'd1);", parts);
    emit(e, "always_comb begin");
    emit(e, "  for (int k = 0; k < %u; k++) begin", lanes);
    emit(e, "    next_oh_lo[k] = next_oh[2*k];");
    emit(e, "    next_oh_hi[k] = next_oh[2*k+1];");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "assign next_line = pick_line(next_oh_lo, lo_line_q) | pick_line(next_oh_hi, hi_line_q);");
    emit_nl(e);
}

static void emit_ports_and_state(emit_file *e, const gctx *x)
{
    (void)x; /* the same text in every configuration */
    prim_regs rl = {0};
    prim_regs_list(&rl, "pend_lo='0 pend_hi='0 line='0");
    emit(e, "// The request of this cycle; a load is accepted while the unit holds");
    emit(e, "// none or with the held load's last request.");
    emit(e, "logic any_pend, last, take;");
    emit(e, "assign any_pend = |pend_lo_q | |pend_hi_q;");
    emit(e, "assign last = (rem_lo | rem_hi) == '0;");
    emit(e, "assign req_valid_o = any_pend;");
    emit(e, "assign req_line_o = line_q;");
    emit(e, "assign req_mask_o = mask;");
    emit(e, "assign req_lanes_o = match_lo | match_hi;");
    emit(e, "assign req_last_o = last;");
    emit(e, "assign inst_ready_o = ~any_pend | (req_ready_i & last);");
    emit(e, "assign take = inst_valid_i & inst_ready_o;");
    emit_nl(e);
    emit_begin(e, "always_comb begin");
    prim_regs_holds(e, &rl);
    emit(e, "cross_d = cross_q;");
    emit(e, "lo_line_d = lo_line_q;");
    emit(e, "hi_line_d = hi_line_q;");
    emit(e, "w0_d = w0_q;");
    emit(e, "we_d = we_q;");
    emit(e, "if (take) begin");
    emit(e, "  pend_lo_d = inst_active_i;");
    emit(e, "  pend_hi_d = inst_active_i & in_cross;");
    emit(e, "  line_d = in_first_line;");
    emit(e, "  cross_d = in_cross;");
    emit(e, "  lo_line_d = in_lo_line;");
    emit(e, "  hi_line_d = in_hi_line;");
    emit(e, "  w0_d = in_w0;");
    emit(e, "  we_d = in_we;");
    emit(e, "end else if (any_pend & req_ready_i) begin");
    emit(e, "  pend_lo_d = rem_lo;");
    emit(e, "  pend_hi_d = rem_hi;");
    emit(e, "  line_d = next_line;");
    emit(e, "end");
    emit_end(e, "end");
    emit_nl(e);
    prim_regs_block(e, &rl);
    emit(e, "// the parts' fields are read only while the part is pending: no reset");
    emit(e, "always_ff @(posedge clk_i) begin");
    emit(e, "  cross_q <= cross_d;");
    emit(e, "  lo_line_q <= lo_line_d;");
    emit(e, "  hi_line_q <= hi_line_d;");
    emit(e, "  w0_q <= w0_d;");
    emit(e, "  we_q <= we_d;");
    emit(e, "end");
}

/* Interface properties (make formal): the request port holds its payload
 * under back-pressure, and every request serves at least one lane with at
 * least one word. */
static void emit_formal(emit_file *e, const gctx *x)
{
    static const char *const samples[] = {
        "f_stall_q <= req_valid_o & ~req_ready_i", "f_line_q <= req_line_o",
        "f_mask_q <= req_mask_o", "f_lanes_q <= req_lanes_o", "f_last_q <= req_last_o", NULL};
    emit_nl(e);
    prim_formal_begin(e, NULL);
    emit(e, "logic f_stall_q, f_last_q;");
    emit(e, "logic [%u:0] f_line_q;", x->g.laddr_bits - 1);
    emit(e, "logic [%u:0] f_mask_q;", x->g.words - 1);
    emit(e, "logic [%u:0] f_lanes_q;", x->c->lanes - 1);
    prim_formal_samples(e, samples);
    prim_formal_assume(e, NULL, 0);
    emit(e, "  // a stalled request holds, and no load is accepted under it");
    emit(e, "  if (rst_ni && f_past_q && f_stall_q) begin");
    emit(e, "    assert(req_valid_o);");
    emit(e, "    assert(req_line_o == f_line_q && req_mask_o == f_mask_q && "
            "req_lanes_o == f_lanes_q && req_last_o == f_last_q);");
    emit(e, "  end");
    emit(e, "  if (rst_ni && req_valid_o) begin");
    emit(e, "    assert(req_mask_o != '0);");
    emit(e, "    assert(req_lanes_o != '0);");
    emit(e, "  end");
    emit(e, "  if (rst_ni && req_valid_o && !req_ready_i) assert(!inst_ready_o);");
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
    emit(e, "// Storage: flip-flops only, no RAM by design: a registered input stage");
    emit(e, "// (per lane two lines and two word indices, pending parts; the request's");
    emit(e, "// line).");
    PRIM_MODULE(e, b, gctx, &x, emit_funcs, emit_input, emit_match, emit_next,
                emit_ports_and_state, emit_formal);
}

/* Flip-flops: per lane two lines, two word indices, pending low and high
 * part and the crossing bit; the request's line. */
static unsigned state_bits(const dualopt_bgu_cfg *c, const dualopt_bgu_geom *g)
{
    return c->lanes * (2 * g->laddr_bits + 2 * prim_log2_floor(g->words) + 3) + g->laddr_bits;
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(dualopt_bgu_cfg, dualopt_bgu_geom);
    snprintf(buf, len,
             "lanes=%u line=%u gran=%u addr_bits=%u\n"
             "mask_bits=%u line_addr_bits=%u addr_port_bits=%u state_bits=%u",
             c->lanes, c->line, c->gran, c->addr_bits, g.words, g.laddr_bits, g.addr_port,
             state_bits(c, &g));
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
                "964.99 um^2, 0.43 mW per CU (28 nm); storage bits = the registered input stage\"}\n",
                c->lanes, c->line, c->gran, c->addr_bits, g.words, g.laddr_bits, g.addr_port,
                state_bits(c, &g), state_bits(c, &g));
        return;
    }
    fprintf(f, "DualOpt BGU: %u lanes, %u B lines, %u B words (%u-bit mask), %u-bit addresses\n",
            c->lanes, c->line, c->gran, g.words, c->addr_bits);
    fprintf(f, "  ports: %u-bit address vector, %u-bit line address out, %u-bit lane mask\n",
            g.addr_port, g.laddr_bits, c->lanes);
    fprintf(f, "  state: %u flip-flops (registered input stage: per lane two lines, two word "
               "indices, pending parts; the request's line); no RAM\n",
            state_bits(c, &g));
    fprintf(f, "  timing: a load touching k lines takes max(k,1) cycles, first request in the "
               "cycle after it is accepted\n");
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
