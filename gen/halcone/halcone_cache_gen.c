/*
 * HALCONE cache timestamp unit generator: Verilog of the L1/L2 timestamp
 * logic of Mojumder et al. (HALCONE), sections 3.2.1-3.2.2, Algorithms 1, 2,
 * 4 and 5, with the kit's readings and fixes (specification 3.2, 5.2, 5.4).
 * The golden model is cmodel/halcone/halcone_cache.c; microarchitecture and timing
 * are in docs/halcone.md (section halcone-cache).
 *
 * One lookup/update stage behind a synchronous-read set RAM: a request or a
 * fill is accepted when the stage is empty or leaves it, its set is read at
 * acceptance, and the stage classifies, updates and writes the set back when
 * its output register is free. A set written in the cycle another op of the
 * same set is accepted is forwarded (fwd_q). Valid and lock bits are
 * flip-flops (the flash invalidate clears them in one cycle).
 *
 * Combinational blocks are `always @*`, not `always_comb`: Icarus 11 runs
 * into a zero-delay loop on always_comb blocks that write vector elements
 * at variable indices (measured on this module: the replay never advances
 * past the first clock edge), while `always @*` simulates identically in
 * Verilator, Icarus and Yosys.
 */
#include <stdio.h>
#include <string.h>

#include "gen_unit.h"
#include "prim.h"
#include "halcone_cache.h"

typedef struct {
    const halcone_cache_cfg *c;
    halcone_cache_geom g;
    unsigned ent_slots; /* lock entries padded to 2^id_bits */
    unsigned idx_bits;  /* set index: set_bits, 1 (always 0) with one set */
    int is_l2;          /* role L2                          */
} gctx;

static void emit_state(emit_file *e, const gctx *x)
{
    unsigned ways = x->c->ways, ts_bits = x->c->ts_bits, way_bits = x->g.way_bits,
        id_bits = x->g.id_bits;
    unsigned laddr_bits = x->g.laddr_bits, cnt_bits = x->g.cnt_bits,
        word_bits = x->g.word_bits, pending = x->g.pending, ent_slots = x->ent_slots;

    if (x->g.lease_ext && x->g.overflow == HALCONE_CACHE_OVF_RESET)
        emit(e, "localparam logic [%u:0] TsMax = {%u{1'b1}};", ts_bits - 1, ts_bits);
    emit(e, "localparam logic [%u:0] LastSet = %u'd%u;", x->idx_bits - 1, x->idx_bits, x->c->sets - 1);
    emit_nl(e);

    emit(e, "// ---- state -----------------------------------------------------------");
    emit(e, "// Clearing sweep out of reset (the RAM holds no reset value).");
    emit(e, "logic init_q, init_d;");
    emit(e, "logic [%u:0] init_idx_q, init_idx_d;", x->idx_bits - 1);
    emit(e, "// Lookup/update stage: a request (op, line) or a fill (entry, wts, rts).");
    emit(e, "logic b_valid_q, b_valid_d, b_fill_q, b_fill_d, b_fok_q, b_fok_d;");
    emit(e, "logic [1:0] b_op_q, b_op_d;");
    emit(e, "logic [%u:0] b_line_q, b_line_d;", laddr_bits - 1);
    emit(e, "logic [%u:0] b_id_q, b_id_d;", id_bits - 1);
    emit(e, "logic [%u:0] b_wts_q, b_wts_d, b_rts_q, b_rts_d;", ts_bits - 1);
    if (x->g.l1_req_cts)
        emit(e, "logic [%u:0] b_cts_q, b_cts_d; // the requester's cts (req_cts_i)", ts_bits - 1);
    emit(e, "logic fwd_q, fwd_d;");
    emit(e, "logic [%u:0] fwd_word_q, fwd_word_d, rdata_q;", word_bits - 1);
    emit(e, "// Lock entries (the MSHR of Alg. 4/5): line, way and response kind of each");
    emit(e, "// block awaiting its fill; %u entries, ids padded to %u.", pending, ent_slots);
    emit(e, "logic [%u:0] ent_valid_q, ent_valid_d;", ent_slots - 1);
    emit(e, "logic [%u:0] ent_line_q, ent_line_d;", ent_slots * laddr_bits - 1);
    emit(e, "logic [%u:0] ent_way_q, ent_way_d;", ent_slots * way_bits - 1);
    emit(e, "logic [%u:0] ent_kind_q, ent_kind_d;", ent_slots * 4 - 1);
    emit(e, "// Valid and lock bits of every block (flip-flops: flash invalidate).");
    emit(e, "logic [%u:0] valid_q, valid_d, lock_q, lock_d;", x->c->sets * ways - 1);
    emit(e, "logic [%u:0] cts_q, cts_d;", ts_bits - 1);
    emit(e, "logic [%u:0] cnt_q, cnt_d;", cnt_bits - 1);
    emit(e, "// Output registers.");
    emit(e, "logic rsp_v_q, rsp_v_d;");
    emit(e, "logic [3:0] rsp_kind_q, rsp_kind_d;");
    emit(e, "logic [%u:0] rsp_line_q, rsp_line_d;", laddr_bits - 1);
    emit(e, "logic [%u:0] rsp_cts_q, rsp_cts_d, rsp_wts_q, rsp_wts_d, rsp_rts_q, rsp_rts_d;",
         ts_bits - 1);
    emit(e, "logic [%u:0] rsp_cnt_q, rsp_cnt_d;", cnt_bits - 1);
    emit(e, "logic dn_v_q, dn_v_d, dn_write_q, dn_write_d;");
    emit(e, "logic [%u:0] dn_line_q, dn_line_d;", laddr_bits - 1);
    emit(e, "logic [%u:0] dn_id_q, dn_id_d;", id_bits - 1);
    emit(e, "logic [%u:0] dn_cts_q, dn_cts_d;", ts_bits - 1);
    emit(e, "logic ev_v_q, ev_v_d;");
    emit(e, "logic [%u:0] ev_line_q, ev_line_d;", laddr_bits - 1);
    emit(e, "logic [%u:0] ev_wts_q, ev_wts_d, ev_rts_q, ev_rts_d;", ts_bits - 1);
    emit_nl(e);
}

static void emit_set_word(emit_file *e, const gctx *x)
{
    unsigned ways = x->c->ways, tag_bits = x->g.tag_bits, ts_bits = x->c->ts_bits,
        age_bits = x->g.age_bits;
    unsigned set_bits = x->g.set_bits, laddr_bits = x->g.laddr_bits, word_bits = x->g.word_bits;
    unsigned wts_lo = ways * tag_bits, rts_lo = ways * (tag_bits + ts_bits),
        age_lo = ways * (tag_bits + 2 * ts_bits);

    emit(e, "// ---- the stage's set word ---------------------------------------------");
    emit(e, "// Layout, field-major: tags (way 0 lowest), wts, rts, LRU ages.");
    emit(e, "logic [%u:0] word;", word_bits - 1);
    emit(e, "logic [%u:0] w_tag;", wts_lo - 1);
    emit(e, "logic [%u:0] w_wts, w_rts;", ways * ts_bits - 1);
    emit(e, "logic [%u:0] w_age;", ways * age_bits - 1);
    emit(e, "assign word = fwd_q ? fwd_word_q : rdata_q;");
    emit(e, "assign w_tag = word[%u:0];", wts_lo - 1);
    emit(e, "assign w_wts = word[%u:%u];", rts_lo - 1, wts_lo);
    emit(e, "assign w_rts = word[%u:%u];", age_lo - 1, rts_lo);
    emit(e, "assign w_age = word[%u:%u];", word_bits - 1, age_lo);
    emit(e, "logic [%u:0] b_set;", x->idx_bits - 1);
    emit(e, "logic [%u:0] b_tag;", tag_bits - 1);
    if (set_bits == 0) {
        emit(e, "assign b_set = 1'b0; // one set: fully associative, the line address is the tag");
        emit(e, "assign b_tag = b_line_q;");
    } else {
        emit(e, "assign b_set = b_line_q[%u:0];", set_bits - 1);
        emit(e, "assign b_tag = b_line_q[%u:%u];", laddr_bits - 1, set_bits);
    }
    emit(e, "logic [%u:0] vset, lset;", ways - 1);
    emit(e, "assign vset = valid_q[b_set*%u +: %u];", ways, ways);
    emit(e, "assign lset = lock_q[b_set*%u +: %u];", ways, ways);
    emit_nl(e);
}

static void emit_classify(emit_file *e, const gctx *x)
{
    unsigned ways = x->c->ways, tag_bits = x->g.tag_bits, ts_bits = x->c->ts_bits,
        age_bits = x->g.age_bits, way_bits = x->g.way_bits;

    emit(e, "// ---- classification (Alg. 1, 2, 4, 5: hit iff tag and cts <= rts) -------");
    emit(e, "logic [%u:0] hitv, first_inv, oldest, tsel;", ways - 1);
    emit(e, "logic hit_any, inv_any, cls_hit, victim;");
    emit(e, "logic [%u:0] t_wts, t_rts;", ts_bits - 1);
    emit(e, "logic [%u:0] t_age;", age_bits - 1);
    emit(e, "logic [%u:0] t_tag;", tag_bits - 1);
    emit(e, "logic t_valid;");
    emit(e, "logic [%u:0] tway;", way_bits - 1);
    emit(e, "logic [%u:0] best_age;", age_bits - 1);
    emit(e, "logic found;");
    emit(e, "for (genvar w = 0; w < %u; w++) begin : g_hit", ways);
    emit(e, "  assign hitv[w] = vset[w] && (w_tag[w*%u +: %u] == b_tag);", tag_bits, tag_bits);
    emit(e, "end");
    emit(e, "assign hit_any = |hitv;");
    emit(e, "assign inv_any = ~&vset;");
    emit(e, "assign first_inv = ~vset & (vset + %u'd1);", ways);
    emit(e, "// Oldest unlocked valid way (ages of valid ways are distinct).");
    emit(e, "always @* begin");
    emit(e, "  oldest = '0;");
    emit(e, "  best_age = '0;");
    emit(e, "  found = 1'b0;");
    emit(e, "  for (int w = 0; w < %u; w++)", ways);
    emit(e, "    if (vset[w] && !lset[w] && (!found || w_age[w*%u +: %u] > best_age)) begin",
         age_bits, age_bits);
    emit(e, "      oldest = '0;");
    emit(e, "      oldest[w] = 1'b1;");
    emit(e, "      best_age = w_age[w*%u +: %u];", age_bits, age_bits);
    emit(e, "      found = 1'b1;");
    emit(e, "    end");
    emit(e, "end");
    emit(e, "// The way this op works on: the hit way, else the first invalid way,");
    emit(e, "// else the LRU victim; for a fill, its entry's way.");
    emit(e, "logic [%u:0] f_way;", way_bits - 1);
    emit(e, "assign f_way = ent_way_q[b_id_q*%u +: %u];", way_bits, way_bits);
    emit(e, "always @* begin");
    emit(e, "  if (b_fill_q) begin");
    emit(e, "    tsel = '0;");
    emit(e, "    tsel[f_way] = 1'b1;");
    emit(e, "  end else if (hit_any) tsel = hitv;");
    emit(e, "  else if (inv_any) tsel = first_inv;");
    emit(e, "  else tsel = oldest;");
    emit(e, "end");
    emit(e, "always @* begin");
    emit(e, "  tway = '0;");
    emit(e, "  t_valid = 1'b0;");
    emit(e, "  t_age = '0;");
    emit(e, "  t_wts = '0;");
    emit(e, "  t_rts = '0;");
    emit(e, "  t_tag = '0;");
    emit(e, "  for (int w = 0; w < %u; w++)", ways);
    emit(e, "    if (tsel[w]) begin");
    emit(e, "      tway = %u'(w);", way_bits);
    emit(e, "      t_valid = vset[w];");
    emit(e, "      t_age = w_age[w*%u +: %u];", age_bits, age_bits);
    emit(e, "      t_wts = w_wts[w*%u +: %u];", ts_bits, ts_bits);
    emit(e, "      t_rts = w_rts[w*%u +: %u];", ts_bits, ts_bits);
    emit(e, "      t_tag = w_tag[w*%u +: %u];", tag_bits, tag_bits);
    emit(e, "    end");
    emit(e, "end");
    emit(e, "// l_cts: the cts of the lookup; with --l1-req-cts a RD/WR first takes");
    emit(e, "// max(cts, the requester's cts) (L2 banks, H24)");
    emit(e, "logic [%u:0] l_cts;", ts_bits - 1);
    if (x->g.l1_req_cts)
        emit(e, "assign l_cts = (!b_fill_q && !b_op_q[1] && b_cts_q > cts_q) ? b_cts_q : cts_q;");
    else
        emit(e, "assign l_cts = cts_q;");
    emit(e, "assign cls_hit = hit_any && (l_cts <= t_rts);");
    emit(e, "assign victim = !hit_any && !inv_any;");
    emit_nl(e);
}

static void emit_action(emit_file *e, const gctx *x)
{
    emit(e, "// ---- what the stage does, and whether it can leave ---------------------");
    emit(e, "logic op_rd, op_wr, op_ev, b_alloc, b_mayal, b_rdhit, b_fill_ok, b_fire, b_free;");
    emit(e, "logic rsp_free, dn_free, ev_free;");
    emit(e, "assign op_rd = b_op_q == 2'd0;");
    emit(e, "assign op_wr = b_op_q == 2'd1;");
    emit(e, "assign op_ev = b_op_q == 2'd2;");
    emit(e, "assign rsp_free = !rsp_v_q || rsp_ready_i;");
    emit(e, "assign dn_free = !dn_v_q || dn_ready_i;");
    if (x->is_l2)
        emit(e, "assign ev_free = !ev_v_q || ev_ready_i;");
    else
        emit(e, "assign ev_free = 1'b1; // L1: silent eviction, the victim port only informs");
    emit(e, "assign b_rdhit = !b_fill_q && op_rd && cls_hit;");
    emit(e, "assign b_alloc = b_valid_q && !b_fill_q && (op_wr || (op_rd && !cls_hit));");
    emit(e, "// a fill counts only if its entry is in use after the edge that accepts");
    emit(e, "// it (its line is read then); it stays in use until this fill frees it");
    emit(e, "assign b_fill_ok = b_fill_q && b_fok_q;");
    emit(e, "// Whether the stage leaves, and so whether it takes the next request or");
    emit(e, "// fill, is decided from registers only, not from the lookup of the set");
    emit(e, "// word just read: a read or write leaves when every port it may use is");
    emit(e, "// free (the response, the request down, and the eviction notice when its");
    emit(e, "// set has no invalid way).");
    emit(e, "assign b_mayal = b_valid_q && !b_fill_q && (op_wr || op_rd);");
    emit(e, "assign b_fire = b_valid_q && (b_mayal ? (rsp_free && dn_free && (inv_any || ev_free)) : rsp_free);");
    emit(e, "assign b_free = !b_valid_q || b_fire;");
    emit_nl(e);
}

static void emit_fill_rule(emit_file *e, const gctx *x)
{
    unsigned ts_bits = x->c->ts_bits;

    emit(e, "// ---- fill rule (spec 3.2): Bwts = max(cts, wts); Brts = rts (S1) or");
    emit(e, "// max(wts + 1, rts) (paper, H5); cts = max(cts, Bwts) (H4)");
    emit(e, "logic [%u:0] f_bw, f_w1, f_br, f_cts;", ts_bits - 1);
    emit(e, "logic f_is_wr;");
    emit(e, "logic [3:0] f_kind;");
    emit(e, "assign f_kind = ent_kind_q[b_id_q*4 +: 4];");
    emit(e, "assign f_is_wr = f_kind >= 4'd3;");
    emit(e, "assign f_bw = (cts_q > b_wts_q) ? cts_q : b_wts_q;");
    if (x->g.lease_ext) {
        if (x->g.overflow == HALCONE_CACHE_OVF_REINIT)
            emit(e, "assign f_w1 = b_wts_q + %u'd1; // wraps to 0 at TsMax (H12)", ts_bits);
        else
            emit(e, "assign f_w1 = (b_wts_q == TsMax) ? TsMax : b_wts_q + %u'd1;", ts_bits);
        emit(e, "assign f_br = (f_w1 > b_rts_q) ? f_w1 : b_rts_q;");
    } else {
        emit(e, "assign f_w1 = b_wts_q;");
        emit(e, "assign f_br = b_rts_q;");
    }
    if (x->g.read_cts)
        emit(e, "assign f_cts = (f_bw > cts_q) ? f_bw : cts_q;");
    else
        emit(e, "assign f_cts = (f_is_wr && f_bw > cts_q) ? f_bw : cts_q;");
    emit_nl(e);
}

static void emit_lru(emit_file *e, const gctx *x)
{
    unsigned ways = x->c->ways, age_bits = x->g.age_bits;

    emit(e, "// ---- LRU ages: valid ways hold a permutation of 0..k-1 ---------------");
    emit(e, "logic [%u:0] age_touch, age_drop;", ways * age_bits - 1);
    emit(e, "always @* begin");
    emit(e, "  age_touch = w_age;");
    emit(e, "  age_drop = w_age;");
    emit(e, "  for (int w = 0; w < %u; w++) begin", ways);
    emit(e, "    if (tsel[w]) age_touch[w*%u +: %u] = '0;", age_bits, age_bits);
    emit(e, "    else if (vset[w] && (!t_valid || w_age[w*%u +: %u] < t_age))", age_bits, age_bits);
    emit(e, "      age_touch[w*%u +: %u] = w_age[w*%u +: %u] + %u'd1;", age_bits, age_bits,
         age_bits, age_bits, age_bits);
    emit(e, "    if (!tsel[w] && vset[w] && w_age[w*%u +: %u] > t_age)", age_bits, age_bits);
    emit(e, "      age_drop[w*%u +: %u] = w_age[w*%u +: %u] - %u'd1;", age_bits, age_bits, age_bits,
         age_bits, age_bits);
    emit(e, "  end");
    emit(e, "end");
    emit_nl(e);
}

static void emit_new_word(emit_file *e, const gctx *x)
{
    unsigned ways = x->c->ways, tag_bits = x->g.tag_bits, ts_bits = x->c->ts_bits,
        age_bits = x->g.age_bits;
    unsigned word_bits = x->g.word_bits;
    unsigned wts_lo = ways * tag_bits;

    emit(e, "// ---- the updated set word -------------------------------------------");
    emit(e, "logic [%u:0] n_tag;", wts_lo - 1);
    emit(e, "logic [%u:0] n_wts, n_rts;", ways * ts_bits - 1);
    emit(e, "logic [%u:0] n_age;", ways * age_bits - 1);
    emit(e, "logic [%u:0] new_word;", word_bits - 1);
    emit(e, "always @* begin");
    emit(e, "  n_tag = w_tag;");
    emit(e, "  n_wts = w_wts;");
    emit(e, "  n_rts = w_rts;");
    emit(e, "  n_age = w_age;");
    emit(e, "  if (b_fill_ok) begin");
    emit(e, "    n_wts[tway*%u +: %u] = f_bw;", ts_bits, ts_bits);
    emit(e, "    n_rts[tway*%u +: %u] = f_br;", ts_bits, ts_bits);
    emit(e, "  end else if (!b_fill_q && (op_rd || op_wr)) begin");
    emit(e, "    n_tag[tway*%u +: %u] = b_tag;", tag_bits, tag_bits);
    emit(e, "    n_age = age_touch;");
    emit(e, "  end else if (!b_fill_q && op_ev && hit_any) begin");
    emit(e, "    n_age = age_drop;");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "assign new_word = {n_age, n_rts, n_wts, n_tag};");
    emit_nl(e);
}

static void emit_ram(emit_file *e, const gctx *x)
{
    unsigned set_bits = x->g.set_bits, laddr_bits = x->g.laddr_bits, word_bits = x->g.word_bits;

    emit(e, "// ---- set RAM: synchronous read at acceptance, written when the stage");
    emit(e, "// leaves (and by the clearing sweep). A read of the set written in the");
    emit(e, "// same cycle is never used: fwd_q selects the written word instead.");
    emit(e, "logic acc_fill, acc_req, acc;");
    emit(e, "logic [%u:0] acc_line, req_line, fill_line;", laddr_bits - 1);
    emit(e, "logic [%u:0] acc_set;", x->idx_bits - 1);
    emit(e, "logic mem_we;");
    emit(e, "logic [%u:0] mem_waddr;", x->idx_bits - 1);
    emit(e, "logic [%u:0] mem_wdata;", word_bits - 1);
    emit(e, "assign req_line = req_addr_i[%u:%u];", x->c->addr_bits - 1, x->g.off_bits);
    emit(e, "assign fill_line = ent_line_q[fill_id_i*%u +: %u];", laddr_bits, laddr_bits);
    emit(e, "assign acc_line = acc_fill ? fill_line : req_line;");
    if (set_bits)
        emit(e, "assign acc_set = acc_line[%u:0];", set_bits - 1);
    else
        emit(e, "assign acc_set = 1'b0;");
    emit(e, "assign acc = acc_fill || acc_req;");
    emit(e, "assign mem_we = init_q || b_fire;");
    emit(e, "assign mem_waddr = init_q ? init_idx_q : b_set;");
    emit(e, "assign mem_wdata = init_q ? '0 : new_word;");
    emit(e, "(* no_rw_check *)");
    prim_ram_decl(e, "mem_q", word_bits, x->c->sets);
    prim_ram_ports(e, &(prim_ram){"mem_q", "mem_we", "mem_waddr", "mem_wdata", "acc", "rdata_q",
                   "acc_set", 0});
    emit_nl(e);
}

static void emit_accept(emit_file *e, const gctx *x)
{
    unsigned id_bits = x->g.id_bits;
    unsigned laddr_bits = x->g.laddr_bits, pending = x->g.pending;

    emit(e, "// ---- acceptance: fills first; a request waits while its block is");
    emit(e, "// locked (H23, V10), while no lock entry is free, and an INV until no");
    emit(e, "// block is locked (the epoch reset quiesces).");
    emit(e, "logic [%u:0] used;", id_bits);
    emit(e, "logic lock_hit, req_ok;");
    emit(e, "logic [%u:0] free_id;", id_bits - 1);
    emit(e, "always @* begin");
    emit(e, "  used = '0;");
    emit(e, "  lock_hit = 1'b0;");
    emit(e, "  free_id = '0;");
    emit(e, "  for (int i = %u; i >= 0; i = i - 1) begin", pending - 1);
    emit(e, "    used = used + {%u'd0, ent_valid_q[i]};", id_bits);
    emit(e, "    if (ent_valid_q[i] && ent_line_q[i*%u +: %u] == req_line) lock_hit = 1'b1;",
         laddr_bits, laddr_bits);
    emit(e, "    if (!ent_valid_q[i]) free_id = %u'(i);", id_bits);
    emit(e, "  end");
    emit(e, "  if (b_alloc && b_fire && b_line_q == req_line) lock_hit = 1'b1;");
    emit(e, "end");
    emit(e, "always @* begin");
    emit(e, "  if (req_op_i == 2'd3) req_ok = (used == '0) && !b_alloc;");
    emit(e, "  else if (req_op_i == 2'd2) req_ok = !lock_hit;");
    emit(e, "  else req_ok = !lock_hit && (%u'd%u - used > {%u'd0, b_alloc && b_fire});",
         id_bits + 1, pending, id_bits);
    emit(e, "end");
    emit(e, "assign fill_ready_o = !init_q && b_free;");
    emit(e, "assign req_ready_o = !init_q && b_free && !fill_valid_i && req_ok;");
    emit(e, "assign acc_fill = fill_valid_i && fill_ready_o;");
    emit(e, "assign acc_req = req_valid_i && req_ready_o;");
    emit_nl(e);
}

static void emit_valid_lock(emit_file *e, const gctx *x)
{
    unsigned ways = x->c->ways;

    emit(e, "// ---- next state --------------------------------------------------------");
    emit(e, "logic [%u:0] vnew, lnew;", ways - 1);
    emit(e, "always @* begin");
    emit(e, "  vnew = vset;");
    emit(e, "  lnew = lset;");
    emit(e, "  if (b_fill_ok) lnew[tway] = 1'b0;");
    emit(e, "  else if (b_alloc) begin");
    emit(e, "    vnew[tway] = 1'b1;");
    emit(e, "    lnew[tway] = 1'b1;");
    emit(e, "  end else if (!b_fill_q && op_ev && hit_any) vnew[tway] = 1'b0;");
    emit(e, "end");
}

static void emit_next_state(emit_file *e, const gctx *x)
{
    unsigned ways = x->c->ways, way_bits = x->g.way_bits;
    unsigned laddr_bits = x->g.laddr_bits, cnt_bits = x->g.cnt_bits;

    emit_begin(e, "always @* begin");
    prim_hold(e, "init init_idx");
    emit(e, "if (init_q) begin");
    emit(e, "  if (init_idx_q == LastSet) init_d = 1'b0;");
    emit(e, "  else init_idx_d = init_idx_q + %u'd1;", x->idx_bits);
    emit(e, "end");
    emit(e, "b_valid_d = b_valid_q && !b_fire;");
    prim_hold(e, "b_fill b_fok b_op b_line b_id b_wts b_rts%s fwd fwd_word",
              x->g.l1_req_cts ? " b_cts" : "");
    emit(e, "if (acc) begin");
    emit(e, "  b_valid_d = 1'b1;");
    emit(e, "  b_fill_d = acc_fill;");
    emit(e, "  b_line_d = acc_line;");
    emit(e, "  fwd_d = b_fire && (b_set == acc_set);");
    emit(e, "  fwd_word_d = new_word;");
    emit(e, "  if (acc_fill) begin");
    emit(e, "    b_id_d = fill_id_i;");
    emit(e, "    b_fok_d = ent_valid_q[fill_id_i] && !(b_fire && b_fill_ok && b_id_q == fill_id_i);");
    emit(e, "    b_wts_d = fill_wts_i;");
    emit(e, "    b_rts_d = fill_rts_i;");
    emit(e, "  end else begin");
    emit(e, "    b_op_d = req_op_i;");
    if (x->g.l1_req_cts)
        emit(e, "    b_cts_d = req_cts_i;");
    emit(e, "  end");
    emit(e, "end");
    prim_hold(e, "ent_valid ent_line ent_way ent_kind valid lock cts cnt");
    emit(e, "rsp_v_d = rsp_v_q && !rsp_ready_i;");
    prim_hold(e, "rsp_kind rsp_line rsp_cts rsp_wts rsp_rts rsp_cnt");
    emit(e, "dn_v_d = dn_v_q && !dn_ready_i;");
    prim_hold(e, "dn_write dn_line dn_id dn_cts");
    emit(e, "ev_v_d = %s;", x->is_l2 ? "ev_v_q && !ev_ready_i" : "1'b0");
    prim_hold(e, "ev_line ev_wts ev_rts");
    emit(e, "if (b_fire) begin");
    emit(e, "  valid_d[b_set*%u +: %u] = vnew;", ways, ways);
    emit(e, "  lock_d[b_set*%u +: %u] = lnew;", ways, ways);
    emit(e, "  if (b_fill_q) begin");
    emit(e, "    if (b_fill_ok) begin");
    emit(e, "      ent_valid_d[b_id_q] = 1'b0;");
    emit(e, "      cts_d = f_cts;");
    emit(e, "      rsp_v_d = 1'b1;");
    emit(e, "      rsp_kind_d = f_kind;");
    emit(e, "      rsp_line_d = b_line_q;");
    emit(e, "      rsp_cts_d = f_cts;");
    emit(e, "      rsp_wts_d = f_bw;");
    emit(e, "      rsp_rts_d = f_br;");
    emit(e, "      rsp_cnt_d = '0;");
    emit(e, "    end");
    emit(e, "  end else if (b_alloc) begin");
    emit(e, "    ent_valid_d[free_id] = 1'b1;");
    emit(e, "    ent_line_d[free_id*%u +: %u] = b_line_q;", laddr_bits, laddr_bits);
    emit(e, "    ent_way_d[free_id*%u +: %u] = tway;", way_bits, way_bits);
    emit(e,
         "    ent_kind_d[free_id*4 +: 4] = (op_wr ? 4'd3 : 4'd0) + (!hit_any ? 4'd1 : cls_hit ? 4'd0 : 4'd2);");
    emit(e, "    cts_d = l_cts;");
    emit(e, "    if (!t_valid) cnt_d = cnt_q + %u'd1;", cnt_bits);
    emit(e, "    dn_v_d = 1'b1;");
    emit(e, "    dn_write_d = op_wr;");
    emit(e, "    dn_line_d = b_line_q;");
    emit(e, "    dn_id_d = free_id;");
    emit(e, "    dn_cts_d = l_cts;");
    emit(e, "    if (victim) begin");
    emit(e, "      ev_v_d = 1'b1;");
    emit(e, "      ev_line_d = %s;", x->g.set_bits ? "{t_tag, b_set}" : "t_tag");
    emit(e, "      ev_wts_d = t_wts;");
    emit(e, "      ev_rts_d = t_rts;");
    emit(e, "    end");
    emit(e, "  end else begin");
    emit(e, "    rsp_v_d = 1'b1;");
    emit(e, "    rsp_line_d = b_line_q;");
    emit(e, "    rsp_cts_d = l_cts;");
    emit(e, "    rsp_wts_d = '0;");
    emit(e, "    rsp_rts_d = '0;");
    emit(e, "    rsp_cnt_d = '0;");
    emit(e, "    if (b_rdhit) begin");
    emit(e, "      cts_d = l_cts;");
    emit(e, "      rsp_kind_d = 4'd0;");
    emit(e, "      rsp_wts_d = t_wts;");
    emit(e, "      rsp_rts_d = t_rts;");
    emit(e, "    end else if (op_ev && hit_any) begin");
    emit(e, "      rsp_kind_d = 4'd6;");
    emit(e, "      rsp_wts_d = t_wts;");
    emit(e, "      rsp_rts_d = t_rts;");
    emit(e, "      cnt_d = cnt_q - %u'd1;", cnt_bits);
    emit(e, "    end else if (op_ev) begin");
    emit(e, "      rsp_kind_d = 4'd7;");
    emit(e, "    end else begin");
    emit(e, "      // flash invalidate (S3): every valid bit, cts and the count cleared");
    emit(e, "      rsp_kind_d = 4'd8;");
    emit(e, "      rsp_line_d = '0;");
    emit(e, "      rsp_cts_d = '0;");
    emit(e, "      rsp_cnt_d = cnt_q;");
    emit(e, "      valid_d = '0;");
    emit(e, "      cts_d = '0;");
    emit(e, "      cnt_d = '0;");
    emit(e, "    end");
    emit(e, "  end");
    emit(e, "end");
    emit_end(e, "end");
    emit_nl(e);
}

static void emit_regs(emit_file *e, const gctx *x)
{
    /* b_cts (with l1-req-cts) is reset after b_rts but updated last */
    prim_regs rl = {0}, cts = {0}, rest = {0};
    prim_regs_list(&rl, "init=1'b1 init_idx='0 b_valid=1'b0 b_fill=1'b0 b_fok=1'b0 b_op='0 "
                        "b_line='0 b_id='0 b_wts='0 b_rts='0");
    if (x->g.l1_req_cts)
        prim_regs_list(&cts, "b_cts='0");
    prim_regs_list(&rest, "fwd=1'b0 fwd_word='0 ent_valid='0 ent_line='0 ent_way='0 ent_kind='0 "
                          "valid='0 lock='0 cts='0 cnt='0 rsp_v=1'b0 rsp_kind='0 rsp_line='0 "
                          "rsp_cts='0 rsp_wts='0 rsp_rts='0 rsp_cnt='0 dn_v=1'b0 dn_write=1'b0 "
                          "dn_line='0 dn_id='0 dn_cts='0 ev_v=1'b0 ev_line='0 ev_wts='0 ev_rts='0");
    prim_regs_open(e);
    prim_regs_resets(e, &rl);
    prim_regs_resets(e, &cts);
    prim_regs_resets(e, &rest);
    prim_regs_else(e);
    prim_regs_updates(e, &rl);
    prim_regs_updates(e, &rest);
    prim_regs_updates(e, &cts);
    prim_regs_close(e);
    emit_nl(e);
}

static void emit_outputs(emit_file *e, const gctx *x)
{
    emit(e, "// ---- outputs -------------------------------------------------------------");
    emit(e, "assign rsp_valid_o = rsp_v_q;");
    emit(e, "assign rsp_kind_o = rsp_kind_q;");
    emit(e, "assign rsp_line_o = {rsp_line_q, %u'd0};", x->g.off_bits);
    emit(e, "assign rsp_cts_o = rsp_cts_q;");
    emit(e, "assign rsp_wts_o = rsp_wts_q;");
    emit(e, "assign rsp_rts_o = rsp_rts_q;");
    emit(e, "assign rsp_count_o = rsp_cnt_q;");
    emit(e, "assign dn_valid_o = dn_v_q;");
    emit(e, "assign dn_write_o = dn_write_q;");
    emit(e, "assign dn_line_o = {dn_line_q, %u'd0};", x->g.off_bits);
    emit(e, "assign dn_id_o = dn_id_q;");
    if (x->g.req_cts)
        emit(e, "assign dn_cts_o = dn_cts_q;");
    emit(e, "assign ev_valid_o = ev_v_q;");
    emit(e, "assign ev_line_o = {ev_line_q, %u'd0};", x->g.off_bits);
    emit(e, "assign ev_wts_o = ev_wts_q;");
    emit(e, "assign ev_rts_o = ev_rts_q;");
    emit_nl(e);
}

static void emit_formal(emit_file *e, const gctx *x)
{
    static const char *const samples[] = {"f_armed_q <= f_past_q", "f_cts_q <= cts_q",
                                          "f_inv_q <= b_fire && !b_fill_q && b_op_q == 2'd3",
                                          NULL};
    unsigned ways = x->c->ways, tag_bits = x->g.tag_bits, ts_bits = x->c->ts_bits,
        way_bits = x->g.way_bits, id_bits = x->g.id_bits;
    unsigned set_bits = x->g.set_bits, laddr_bits = x->g.laddr_bits, pending = x->g.pending;
    unsigned wts_lo = ways * tag_bits;

    prim_formal_begin(e,
                      "// Properties (make formal, tb/formal.txt): P2 cts never decreases except\n"
                      "// at the flash invalidate;%s",
                      x->g.read_cts ? " P1 on a read hit wts <= cts <= rts." : "");
    emit(e, "logic f_armed_q = 1'b0;");
    emit(e, "logic f_inv_q;");
    emit(e, "logic [%u:0] f_cts_q;", ts_bits - 1);
    prim_formal_samples(e, samples);
    prim_formal_assume(e, "reset in the first cycle only", 0);
    emit(e, "  if (rst_ni && f_armed_q && !f_inv_q) p_cts_mono: assert(cts_q >= f_cts_q);");
    if (x->g.read_cts)
        emit(e,
             "  if (rst_ni && b_valid_q && b_rdhit) p_hit_lease: assert(t_wts <= l_cts && l_cts <= t_rts);");
    emit(e, "end");
    if (x->g.read_cts && x->c->sets * ways <= 16) {
        /* strengthening invariants for the k-induction of P1 (docs/halcone.md,
         * Formal): the stage's word is its set's RAM word; a request in the
         * stage targets no locked block and (RD/WR) has a free lock entry;
         * an INV waits with no entry; a counted fill names its entry; every
         * valid locked block has an entry; every valid unlocked block has
         * wts <= cts. RAM-wide, so only for caches of at most 16 blocks (the formal
         * configurations; the committed RTL has none). */
        emit(e, "always @(*) begin");
        emit(e, "  if (rst_ni && f_past_q) begin");
        emit(e, "    if (init_q) s_init: assert(!b_valid_q && valid_q == '0 && ent_valid_q == '0);");
        emit(e, "    if (b_valid_q) s_word: assert(word == mem_q[b_set]);");
        emit(e,
             "    if (b_valid_q && !b_fill_q && b_op_q != 2'd3) s_free: assert(!b_op_q[1] ? used < %u'd%u : 1'b1);", id_bits + 1, pending);
        emit(e, "    if (b_valid_q && !b_fill_q && b_op_q == 2'd3) s_inv: assert(ent_valid_q == '0);");
        emit(e,
             "    if (b_valid_q && b_fill_q && b_fok_q) s_fill: assert(ent_valid_q[b_id_q] && ent_line_q[b_id_q*%u +: %u] == b_line_q);", laddr_bits, laddr_bits);
        emit(e, "  end");
        emit(e, "end");
        {
            unsigned i, si, wi;
            emit(e, "always @(*)");
            emit(e, "  if (rst_ni && f_past_q && b_valid_q && !b_fill_q && b_op_q != 2'd3) begin");
            for (i = 0; i < pending; i++)
                emit(e, "    s_unl_%u: assert(!(ent_valid_q[%u] && ent_line_q[%u +: %u] == b_line_q));", i,
                     i, i * laddr_bits, laddr_bits);
            emit(e, "  end");
            emit(e, "logic [%u:0] s_has;", x->c->sets * ways - 1);
            emit(e, "always @(*) begin");
            emit(e, "  s_has = '0;");
            emit(e, "  for (int i = 0; i < %u; i++) begin", pending);
            for (si = 0; si < x->c->sets; si++)
                for (wi = 0; wi < ways; wi++) {
                    char set_lo[32] = ""; /* the set's low line-address bits (none with one set) */
                    if (set_bits)
                        snprintf(set_lo, sizeof set_lo, ", %u'd%u", set_bits, si);
                    emit(e, "    if (ent_valid_q[i] && ent_line_q[i*%u +: %u] == {mem_q[%u][%u +: %u]%s} && "
                            "ent_way_q[i*%u +: %u] == %u'd%u) s_has[%u] = 1'b1;",
                         laddr_bits, laddr_bits, si, wi * tag_bits, tag_bits, set_lo, way_bits, way_bits, way_bits, wi, si * ways + wi);
                }
            emit(e, "  end");
            emit(e, "  if (rst_ni && f_past_q) begin");
            for (si = 0; si < x->c->sets; si++)
                for (wi = 0; wi < ways; wi++) {
                    unsigned k = si * ways + wi;
                    emit(e, "    if (valid_q[%u] && lock_q[%u]) s_lock_%u_%u: assert(s_has[%u]);",
                         k, k, si, wi, k);
                    emit(e, "    if (valid_q[%u] && !lock_q[%u]) s_wts_%u_%u: assert(mem_q[%u][%u +: %u] <= cts_q);",
                         k, k, si, wi, si, wts_lo + wi * ts_bits, ts_bits);
                }
            emit(e, "  end");
            emit(e, "end");
        }
    }
    emit(e, "`endif");
    emit(e, "logic unused_ok;");
    emit(e, "assign unused_ok = ^{req_addr_i[%u:0], f_is_wr, f_w1, %s1'b0};",
         x->g.off_bits - 1, x->g.req_cts ? "" : "dn_cts_q, ");
}

static void emit_cache(emit_file *e, const void *cfg, const block_desc *b)
{
    const halcone_cache_cfg *c = cfg;
    gctx x;
    GEN_CTX_INIT(x, cfg, halcone_cache_geom);
    x.ent_slots = 1u << x.g.id_bits;
    x.idx_bits = x.g.set_bits ? x.g.set_bits : 1;
    x.is_l2 = c->role == HALCONE_CACHE_ROLE_L2;
    emit(e, "// HALCONE cache timestamp unit (Mojumder et al., 3.2.1-3.2.2, Alg. 1, 2, 4, 5),");
    emit(e, "// %s role, %s rules: lease extension %s, cts on read fills %s, wts + 1 %s,",
         x.is_l2 ? "L2" : "L1", c->rules == HALCONE_CACHE_RULES_PAPER ? "paper" : "safe",
         x.g.lease_ext ? "on (paper)" : "off (S1)", x.g.read_cts ? "on" : "off (Alg. 1/2)",
         x.g.overflow == HALCONE_CACHE_OVF_REINIT ? "wraps (H12)" : "saturates");
    emit(e, "// requests below %s the cts (S4), requests from above %s the requester's",
         x.g.req_cts ? "carry" : "do not carry", x.g.l1_req_cts ? "carry" : "do not carry");
    emit(e, "// cts (--l1-req-cts). See docs/halcone.md.");
    emit(e, "// Storage: set RAM %u x %u bits (tags, wts, rts, LRU ages); %u valid and %u lock",
         c->sets, x.g.word_bits, c->sets * c->ways, c->sets * c->ways);
    emit(e, "// flip-flops; %u lock entries.", x.g.pending);
    PRIM_MODULE(e, b, gctx, &x, emit_state, emit_set_word, emit_classify, emit_action,
                emit_fill_rule, emit_lru, emit_new_word, emit_ram, emit_accept, emit_valid_lock,
                emit_next_state, emit_regs, emit_outputs, emit_formal);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(halcone_cache_cfg, halcone_cache_geom);
    snprintf(buf, len,
             "role=%s sets=%u ways=%u line=%u addr_bits=%u ts_bits=%u pending=%u\n"
             "lease_ext=%d read_cts=%d overflow=%s req_cts=%d l1_req_cts=%d\n"
             "tag_bits=%u age_bits=%u set_word_bits=%u id_bits=%u",
             c->role == HALCONE_CACHE_ROLE_L2 ? "l2" : "l1", c->sets, c->ways, c->line, c->addr_bits,
             c->ts_bits, g.pending, g.lease_ext, g.read_cts,
             g.overflow == HALCONE_CACHE_OVF_REINIT ? "reinit" : "reset", g.req_cts, g.l1_req_cts, g.tag_bits,
             g.age_bits, g.word_bits, g.id_bits);
}

/* Storage: the paper's accounting (wts + rts per block, cts; section 3.2.6,
 * H13) beside the RTL's bits. */
static void gen_report(FILE *f, const void *cfg, int json)
{
    const halcone_cache_cfg *c = cfg;
    halcone_cache_geom g;
    unsigned long long blocks, paper_bits, ram_bits, ff_valid, ff_ent, ff_other;
    halcone_cache_geom_of(c, &g);
    blocks = (unsigned long long)c->sets * c->ways;
    paper_bits = blocks * 2ull * c->ts_bits;
    ram_bits = (unsigned long long)c->sets * g.word_bits;
    ff_valid = 2ull * blocks;
    ff_ent = (unsigned long long)(1u << g.id_bits) * (1ull + g.laddr_bits + g.way_bits + 4ull);
    ff_other = (unsigned long long)c->ts_bits + g.cnt_bits;
    if (json) {
        fprintf(f,
                "{\"unit\":\"halcone-cache\",\"role\":\"%s\",\"sets\":%u,\"ways\":%u,"
                "\"line\":%u,\"ts_bits\":%u,\"blocks\":%llu,\"paper_ts_bits\":%llu,"
                "\"paper_cts_bits\":64,\"ram_bits\":%llu,\"set_word_bits\":%u,"
                "\"valid_lock_ff\":%llu,\"lock_entry_ff\":%llu,\"cts_count_ff\":%llu,"
                "\"flop_array_bits\":%llu,\"rtl_memories\":[[%u,%u]]}\n",
                c->role == HALCONE_CACHE_ROLE_L2 ? "l2" : "l1", c->sets, c->ways, c->line, c->ts_bits,
                blocks, paper_bits, ram_bits, g.word_bits, ff_valid, ff_ent, ff_other, ff_valid,
                c->sets, g.word_bits);
        return;
    }
    fprintf(f, "HALCONE cache timestamp unit (%s role): %u sets x %u ways of %u B (%llu KB of "
               "data outside), W = %u\n",
            c->role == HALCONE_CACHE_ROLE_L2 ? "L2" : "L1", c->sets, c->ways, c->line,
            blocks * c->line / 1024, c->ts_bits);
    fprintf(f, "  paper accounting (3.2.6): wts + rts %llu bits = %llu B per cache, plus a "
               "64-bit cts\n",
            paper_bits, paper_bits / 8);
    fprintf(f, "  RTL: set RAM %u x %u bits = %llu bits (tag %u, wts %u, rts %u, age %u per "
               "way)\n",
            c->sets, g.word_bits, ram_bits, g.tag_bits, c->ts_bits, c->ts_bits, g.age_bits);
    fprintf(f, "       flip-flops: %llu valid + lock, %llu in %u lock entries, %llu cts + "
               "count\n",
            ff_valid, ff_ent, g.pending, ff_other);
    fprintf(f, "  timing: a read hit answers 2 cycles after acceptance; one request or fill "
               "per cycle\n");
}

const gen_unit halcone_cache_gen_unit = {"halcone-cache", emit_cache, gen_params, gen_report, NULL};
