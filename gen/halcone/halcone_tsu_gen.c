/*
 * HALCONE TSU generator: Verilog of the timestamp storage unit (Mojumder et
 * al., section 3.2.5, Fig. 6, Algorithm 3; family specification 3.1, fixes
 * S2-S4 of 5.2/5.4). The golden model is cmodel/halcone/halcone_tsu.c; the
 * microarchitecture and timing are described in docs/halcone.md.
 *
 * Pipeline over one synchronous-read RAM word per set (the ways' memts,
 * tags and valid bits, then the per-set floor): stage 0 accepts a request
 * and reads its set, stage 1 holds the word, stage 2 compares, picks the
 * victim, computes the grant, writes the set back and loads the response
 * register. Back-to-back requests to one set see each other's updates
 * through a forwarding register, as in the REC directory.
 */
#include <stdio.h>
#include <string.h>

#include "gen_unit.h"
#include "prim.h"
#include "halcone_tsu.h"

typedef struct {
    const halcone_tsu_cfg *c;
    halcone_tsu_geom g;
    unsigned sum_bits;    /* a timestamp sum with its carry: ts_bits + 1 */
    unsigned index_width; /* index ports: index_bits, at least 1         */
    unsigned floor_lo;    /* the per-set floor's offset in the set word  */
    int fglobal, fset, reset, reqcts, share, plus1;
} gctx;

/* Set word layout, field-major: memts of way i at [i*W +: W], then the
 * tags, then the valid bits, then the per-set floor (floor set). */
static unsigned memts_lo(const gctx *x, unsigned i) { return i * x->c->ts_bits; }
static unsigned tag_lo(const gctx *x, unsigned i) { return x->c->ways * x->c->ts_bits + i * x->g.tag_bits; }
static unsigned valid_bit(const gctx *x, unsigned i) { return x->c->ways * (x->c->ts_bits + x->g.tag_bits) + i; }

static void emit_state(emit_file *e, const gctx *x)
{
    prim_decl(e, 1, "clr_q, clr_d, clr_ep_q, clr_ep_d");
    prim_decl(e, x->index_width, "clr_idx_q, clr_idx_d");
    prim_decl(e, 1, "s1_valid_q, s1_valid_d, s2_valid_q, s2_valid_d");
    prim_decl(e, 2, "s1_op_q, s1_op_d, s2_op_q, s2_op_d");
    prim_decl(e, x->g.laddr_bits, "s1_addr_q, s1_addr_d, s2_addr_q, s2_addr_d");
    prim_decl(e, x->c->tag_bits, "s1_tag_q, s1_tag_d, s2_tag_q, s2_tag_d");
    prim_decl(e, x->c->ts_bits, "s1_lease_q, s1_lease_d, s2_lease_q, s2_lease_d");
    if (x->reqcts)
        prim_decl(e, x->c->ts_bits, "s1_cts_q, s1_cts_d, s2_cts_q, s2_cts_d");
    if (x->share == HALCONE_SHARE_RTS)
        prim_decl(e, x->c->ts_bits, "s1_rts_q, s1_rts_d, s2_rts_q, s2_rts_d");
    prim_decl(e, x->g.set_bits, "s2_data_q, s2_data_d");
    prim_decl(e, 1, "s2_fix_q, s2_fix_d, s2_rst_q, s2_rst_d");
    prim_decl(e, 1, "fwd_valid_q, fwd_valid_d, fwd_hit_q, fwd_hit_d");
    if (x->c->sets > 1)
        prim_decl(e, x->index_width, "fwd_idx_q, fwd_idx_d");
    prim_decl(e, x->g.set_bits, "fwd_data_q, fwd_data_d");
    prim_decl(e, 1,
              "rsp_valid_q, rsp_valid_d, rsp_victim_q, rsp_victim_d, rsp_floor_q, rsp_floor_d");
    prim_decl(e, 1, "rsp_wrap_q, rsp_wrap_d, rsp_reset_q, rsp_reset_d");
    prim_decl(e, 2, "rsp_kind_q, rsp_kind_d");
    prim_decl(e, x->g.laddr_bits, "rsp_addr_q, rsp_addr_d, rsp_vaddr_q, rsp_vaddr_d");
    prim_decl(e, x->c->tag_bits, "rsp_tag_q, rsp_tag_d");
    prim_decl(e, x->c->ts_bits,
              "rsp_wts_q, rsp_wts_d, rsp_rts_q, rsp_rts_d, rsp_vmemts_q, rsp_vmemts_d");
    prim_decl(e, x->c->ts_bits, "rsp_fval_q, rsp_fval_d");
    prim_decl(e, x->g.epoch_bits, "epoch_q, epoch_d, rsp_epoch_q, rsp_epoch_d");
    prim_decl(e, x->c->ts_bits, "rdl_q, rdl_d, wrl_q, wrl_d");
    if (x->fglobal)
        prim_decl(e, x->c->ts_bits, "floor_q, floor_d");
    if (x->share == HALCONE_SHARE_NOW)
        prim_decl(e, x->c->ts_bits, "now_q, now_d, nowg_q, nowg_d");
    emit_nl(e);
}

static void emit_control(emit_file *e, const gctx *x)
{
    emit(e, "// Stage 0: accept a request, read its set. Stage 2 fires when the");
    emit(e, "// response register is free or drains this cycle; with the epoch reset a");
    emit(e, "// grant that would pass 2^W - 1 starts the clearing sweep instead and fires");
    emit(e, "// after it, in the new epoch. Stage 1 moves on whenever stage 2 is empty");
    emit(e, "// or fires.");
    prim_decl(e, 1, "rsp_free, sweep_start, s2_fire, s1_adv, req_acc, ovf");
    if (x->c->sets > 1)
        prim_decl(e, x->index_width, "req_idx");
    emit(e, "assign rsp_free = ~rsp_valid_q | rsp_ready_i;");
    if (x->reset)
        emit(e, "assign sweep_start = s2_valid_q & ~clr_q & ovf;");
    else
        emit(e, "assign sweep_start = 1'b0;");
    emit(e, "assign s2_fire = s2_valid_q & ~clr_q & ~sweep_start & rsp_free;");
    emit(e, "assign s1_adv = ~s2_valid_q | s2_fire;");
    emit(e, "assign req_ready_o = ~clr_q & (~s1_valid_q | s1_adv);");
    emit(e, "assign req_acc = req_valid_i & req_ready_o;");
    if (x->c->sets > 1)
        emit(e, "assign req_idx = req_addr_i[%u:0];", x->g.index_bits - 1);
    emit_nl(e);
}

static void emit_ram(emit_file *e, const gctx *x)
{
    static const char *const note[] = {
        "// Entry RAM, one word per set; synchronous read, one write port. A read",
        "// of the set written in the same cycle is never used (the forwarding",
        "// register supplies it), so no read-during-write logic.", NULL};
    prim_decl(e, x->g.set_bits, "rdata_q, mem_wdata, set_new");
    prim_decl(e, 1, "mem_we");
    emit(e, "// The clearing sweep (after reset, and at an epoch reset) writes empty");
    emit(e, "// words: no valid way, memts 0, floor 0.");
    emit(e, "assign mem_we = clr_q | s2_fire;");
    emit(e, "assign mem_wdata = clr_q ? %u'd0 : set_new;", x->g.set_bits);
    prim_set_store(e, x->g.set_bits, x->c->sets, x->index_width, "clr_q", "clr_idx_q", note);
    emit_nl(e);
}

static void emit_stage1(emit_file *e, const gctx *x)
{
    emit(e, "// Stage 1: the set as read, or as last written (forwarding).");
    prim_decl(e, x->g.set_bits, "set_cur1");
    prim_decl(e, 1, "s1_same");
    emit(e, "assign set_cur1 = fwd_hit_q ? fwd_data_q : rdata_q;");
    if (x->c->sets > 1)
        emit(e, "assign s1_same = s1_addr_q[%u:0] == s2_idx;", x->g.index_bits - 1);
    else
        emit(e, "assign s1_same = 1'b1;");
    emit_nl(e);
}

static void emit_lookup(emit_file *e, const gctx *x)
{
    unsigned i;
    emit(e, "// Stage 2: lookup. The word written by the request ahead replaces the");
    emit(e, "// word read when both are of this set (s2_fix_q).");
    if (x->c->sets > 1)
        prim_decl(e, x->index_width, "s2_idx");
    prim_decl(e, x->g.tag_bits, "s2_stag");
    prim_decl(e, x->g.set_bits, "set_cur");
    if (x->c->sets > 1) {
        emit(e, "assign s2_idx = s2_addr_q[%u:0];", x->g.index_bits - 1);
        emit(e, "assign s2_stag = s2_addr_q[%u:%u];", x->g.laddr_bits - 1, x->g.index_bits);
    } else {
        emit(e, "assign s2_stag = s2_addr_q;");
    }
    emit(e, "assign set_cur = s2_fix_q ? fwd_data_q : s2_data_q;");
    prim_declv(e, x->c->ways * x->c->ts_bits, "way_memts");
    prim_declv(e, x->c->ways * x->g.tag_bits, "way_tag");
    prim_declv(e, x->c->ways, "way_valid, way_hit, first_inv, lo_oh, vsel");
    emit(e, "assign way_memts = set_cur[%u:0];", x->c->ways * x->c->ts_bits - 1);
    emit(e, "assign way_tag = set_cur[%u:%u];", tag_lo(x, x->c->ways) - 1, tag_lo(x, 0));
    emit(e, "assign way_valid = set_cur[%u:%u];", valid_bit(x, x->c->ways) - 1, valid_bit(x, 0));
    for (i = 0; i < x->c->ways; i++)
        emit(e, "assign way_hit[%u] = way_valid[%u] & (way_tag[%u:%u] == s2_stag);", i, i,
             (i + 1) * x->g.tag_bits - 1, i * x->g.tag_bits);
    prim_decl(e, 1, "hit, all_valid");
    emit(e, "assign hit = |way_hit;");
    emit(e, "assign all_valid = &way_valid;");
    emit_nl(e);
    emit(e, "// Victim (3.2.5, H11): the lowest invalid way, else the lowest memts,");
    emit(e, "// ties to the lowest way. All pairs are compared at once (lo_lt_I_J:");
    emit(e, "// way I's memts below way J's, J < I): way I is the victim when it is");
    emit(e, "// below every lower way and no higher way is below it.");
    emit(e, "assign first_inv = ~way_valid & (way_valid + %u'd1);", x->c->ways);
    if (x->c->ways == 1) {
        emit(e, "assign lo_oh = 1'b1;");
    } else {
        unsigned j;
        char nm[64];
        for (i = 1; i < x->c->ways; i++)
            for (j = 0; j < i; j++) {
                snprintf(nm, sizeof nm, "lo_lt_%u_%u", i, j);
                prim_decl(e, 1, nm);
                emit(e, "assign lo_lt_%u_%u = way_memts[%u:%u] < way_memts[%u:%u];", i, j,
                     memts_lo(x, i) + x->c->ts_bits - 1, memts_lo(x, i),
                     memts_lo(x, j) + x->c->ts_bits - 1, memts_lo(x, j));
            }
        for (i = 0; i < x->c->ways; i++) {
            char buf[1024];
            size_t k = 0;
            for (j = 0; j < i; j++)
                k += (size_t)snprintf(buf + k, sizeof buf - k, "%slo_lt_%u_%u", k ? " & " : "", i, j);
            for (j = i + 1; j < x->c->ways; j++)
                k += (size_t)snprintf(buf + k, sizeof buf - k, "%s~lo_lt_%u_%u", k ? " & " : "", j, i);
            emit(e, "assign lo_oh[%u] = %s;", i, buf);
        }
    }
    emit(e, "assign vsel = all_valid ? lo_oh : first_inv;");
    prim_decl(e, x->c->ts_bits, "hit_memts, vmemts");
    prim_decl(e, x->g.tag_bits, "vtag");
    emit(e, "always_comb begin");
    emit(e, "  hit_memts = '0;");
    emit(e, "  vmemts = '0;");
    emit(e, "  vtag = '0;");
    emit(e, "  for (int i = 0; i < %u; i++) begin", x->c->ways);
    emit(e, "    if (way_hit[i]) hit_memts = hit_memts | way_memts[i*%u +: %u];", x->c->ts_bits,
         x->c->ts_bits);
    emit(e, "    if (vsel[i]) vmemts = vmemts | way_memts[i*%u +: %u];", x->c->ts_bits, x->c->ts_bits);
    emit(e, "    if (vsel[i]) vtag = vtag | way_tag[i*%u +: %u];", x->g.tag_bits, x->g.tag_bits);
    emit(e, "  end");
    emit(e, "end");
    emit_nl(e);
}

/* the request's decode, the share test, the floor and M */
static void emit_decode(emit_file *e, const gctx *x)
{
    unsigned i, ts_bits = x->c->ts_bits;
    emit(e, "// Request decode; the floor (S2) and M, the memts the grant starts from:");
    emit(e, "// the entry's, else the floor raised by the victim it replaces.");
    prim_decl(e, 1,
              "is_rd, is_wr, is_ev, is_gr, alloc, evict, ev_hit, shared, remove, drop, floor_up, vup");
    prim_decl(e, ts_bits, "floor_cur, floor_new, drop_m, m_eff, lease, cts_eff, lmax");
    emit(e, "assign is_rd = s2_op_q == 2'd0;");
    emit(e, "assign is_wr = s2_op_q == 2'd1;");
    emit(e, "assign is_ev = s2_op_q == 2'd2;");
    emit(e, "assign is_gr = is_rd | is_wr;");
    emit(e, "assign alloc = is_gr & ~hit;");
    emit(e, "assign evict = alloc & all_valid;");
    emit(e, "assign ev_hit = is_ev & hit;");
    emit(e, "assign lmax = rdl_q > wrl_q ? rdl_q : wrl_q;");
    switch (x->share) {
    case HALCONE_SHARE_NOW:
        emit(e, "// Share test now (H10): shared iff now - memts < max(RdLease, WrLease).");
        emit(e, "// now is max(now_q, nowg_q): nowg_q is the last grant's rts, folded");
        emit(e, "// into now_q when the next request fires.");
        prim_decl(e, x->sum_bits, "sh_sum");
        emit(e, "assign sh_sum = {1'b0, hit_memts} + {1'b0, lmax};");
        emit(e, "assign shared = (sh_sum > {1'b0, now_q}) & (sh_sum > {1'b0, nowg_q});");
        break;
    case HALCONE_SHARE_RTS:
        emit(e, "// Share test rts (H10): shared iff memts > the evicted copy's rts.");
        emit(e, "assign shared = hit_memts > s2_rts_q;");
        break;
    case HALCONE_SHARE_KEEP:
        emit(e, "assign shared = 1'b1;  // share test keep");
        break;
    default:
        emit(e, "assign shared = 1'b0;  // share test remove");
        break;
    }
    emit(e, "assign remove = ev_hit & ~shared;");
    emit(e, "assign drop = evict | remove;");
    emit(e, "assign drop_m = evict ? vmemts : hit_memts;");
    if (x->fglobal)
        emit(e, "assign floor_cur = floor_q;");
    else if (x->fset)
        emit(e, "assign floor_cur = set_cur[%u:%u];", x->floor_lo + ts_bits - 1, x->floor_lo);
    else
        emit(e, "assign floor_cur = %u'd0;", ts_bits);
    if (x->fglobal || x->fset) {
        /* an evicted victim's memts against the floor, way by way beside the
         * victim choice (vsel is one-hot) */
        emit(e, "// floor_up = drop & (drop_m > floor_cur), the victim's compare done");
        emit(e, "// way by way beside the victim choice (vsel is one-hot)");
        prim_declv(e, x->c->ways, "way_fgt");
        for (i = 0; i < x->c->ways; i++)
            emit(e, "assign way_fgt[%u] = way_memts[%u:%u] > floor_cur;", i,
                 memts_lo(x, i) + ts_bits - 1, memts_lo(x, i));
        emit(e, "assign floor_up = drop & (evict ? |(vsel & way_fgt) : hit_memts > floor_cur);");
        emit(e, "assign vup = evict & |(vsel & way_fgt);  // an eviction raises it");
    } else {
        emit(e, "assign floor_up = 1'b0;  // no floor: a dropped memts is lost (paper)");
        emit(e, "assign vup = 1'b0;");
    }
    emit(e, "assign floor_new = floor_up ? drop_m : floor_cur;");
    emit(e, "// (a miss raises the floor only by an eviction: floor_new is vmemts)");
    emit(e, "assign m_eff = hit ? hit_memts : vup ? vmemts : floor_cur;");
    emit(e, "assign lease = (s2_lease_q != %u'd0) ? s2_lease_q : (is_wr ? wrl_q : rdl_q);", ts_bits);
    if (x->reqcts)
        emit(e, "assign cts_eff = s2_rst_q ? %u'd0 : s2_cts_q;  // S4; 0 in a new epoch", ts_bits);
    else
        emit(e, "assign cts_eff = %u'd0;  // the requester's time is not used", ts_bits);
    emit_nl(e);
}

/* the grant from M, cts and the lease (spec 3.1), and its overflow */
static void emit_grant(emit_file *e, const gctx *x)
{
    unsigned i;
    unsigned ts_bits = x->c->ts_bits, sum_bits = x->sum_bits;
    emit(e, "// Grant (spec 3.1), in W+1 bits: a result above 2^W - 1 is an overflow.");
    emit(e, "// Read: wts = M, rts = max(M, cts) + lease. Write: wts = max(M%s, cts),",
         x->plus1 ? " + 1" : "");
    emit(e, "// rts = wts + lease%s. M + lease and M against cts are formed for each", x->plus1 ? " - 1" : "");
    emit(e, "// candidate M at once (the hit memts, every way for the victim, the");
    emit(e, "// floor) and picked as M is; cts + lease beside them; the overflow is");
    emit(e, "// then the carry of M + lease or of cts + lease%s.", x->plus1 ? " (a write: - 1)" : "");
    prim_decl(e, sum_bits, "m_x, c_x, l_x, s_ml, s_cl, wb_x, g_wts, g_rts, h_ml, v_ml, f_ml");
    prim_declv(e, x->c->ways * sum_bits, "way_ml");
    prim_decl(e, 1, x->plus1 ? "m_gt, m_ge, m_c, c_c" : "m_gt, m_c, c_c");
    prim_decl(e, ts_bits, "f_wts, f_rts");
    prim_decl(e, 1, "wrap");
    emit(e, "assign m_x = {1'b0, m_eff};");
    emit(e, "assign c_x = {1'b0, cts_eff};");
    emit(e, "assign l_x = {1'b0, lease};");
    for (i = 0; i < x->c->ways; i++)
        emit(e, "assign way_ml[%u:%u] = {1'b0, way_memts[%u:%u]} + l_x;", (i + 1) * sum_bits - 1,
             i * sum_bits, memts_lo(x, i) + ts_bits - 1, memts_lo(x, i));
    emit(e, "always_comb begin");
    emit(e, "  v_ml = '0;");
    emit(e, "  for (int i = 0; i < %u; i++)", x->c->ways);
    emit(e, "    if (vsel[i]) v_ml = v_ml | way_ml[i*%u +: %u];", sum_bits, sum_bits);
    emit(e, "end");
    emit(e, "assign h_ml = {1'b0, hit_memts} + l_x;");
    if (x->fglobal || x->fset)
        emit(e, "assign f_ml = {1'b0, floor_cur} + l_x;");
    else
        emit(e, "assign f_ml = l_x;");
    emit(e, "assign s_ml = hit ? h_ml : vup ? v_ml : f_ml;  // M + lease");
    emit(e, "assign s_cl = c_x + l_x;");
    if (x->reqcts) {
        int fl = x->fglobal || x->fset;
        prim_declv(e, x->c->ways, x->plus1 ? "way_cgt, way_cge" : "way_cgt");
        for (i = 0; i < x->c->ways; i++) {
            emit(e, "assign way_cgt[%u] = way_memts[%u:%u] > cts_eff;", i,
                 memts_lo(x, i) + ts_bits - 1, memts_lo(x, i));
            if (x->plus1)
                emit(e, "assign way_cge[%u] = way_memts[%u:%u] >= cts_eff;", i,
                     memts_lo(x, i) + ts_bits - 1, memts_lo(x, i));
        }
        emit(e, "assign m_gt = hit ? hit_memts > cts_eff : vup ? |(vsel & way_cgt) : %s;",
             fl ? "floor_cur > cts_eff" : "1'b0");
        if (x->plus1)
            emit(e, "assign m_ge = hit ? hit_memts >= cts_eff : vup ? |(vsel & way_cge) : %s;  // M + 1 > cts",
                 fl ? "floor_cur >= cts_eff" : "cts_eff == 0");
    } else {
        emit(e, "assign m_gt = m_x > c_x;");
        if (x->plus1)
            emit(e, "assign m_ge = 1'b1;  // M + 1 > cts, which is 0");
    }
    if (x->plus1) {
        emit(e, "assign wb_x = m_ge ? m_x + %u'd1 : c_x;", sum_bits);
        emit(e, "assign g_wts = is_wr ? wb_x : m_x;");
        emit(e, "assign g_rts = is_wr ? (m_ge ? s_ml : s_cl - %u'd1) : (m_gt ? s_ml : s_cl);",
             sum_bits);
    } else {
        emit(e, "assign wb_x = m_gt ? m_x : c_x;  // literal Alg. 3: write wts = max(M, cts)");
        emit(e, "assign g_wts = is_wr ? wb_x : m_x;");
        emit(e, "assign g_rts = m_gt ? s_ml : s_cl;");
    }
    emit(e, "assign m_c = s_ml[%u];", ts_bits);
    if (x->plus1)
        emit(e, "assign c_c = is_wr ? s_cl > %u'd%llu : s_cl[%u];", sum_bits, 1ull << ts_bits, ts_bits);
    else
        emit(e, "assign c_c = s_cl[%u];", ts_bits);
    emit(e, "assign ovf = is_gr & (m_c | c_c);");
    if (x->reset) {
        emit(e, "// Overflow: epoch reset (sweep_start); the grant fires after it.");
        emit(e, "assign wrap = 1'b0;");
        emit(e, "assign f_wts = g_wts[%u:0];", ts_bits - 1);
        emit(e, "assign f_rts = g_rts[%u:0];", ts_bits - 1);
    } else {
        emit(e, "// Overflow (3.2.6, H12): the memts restarts at 0 and so does the");
        emit(e, "// requester's time: the grant of memts 0, cts 0.");
        emit(e, "assign wrap = ovf;");
        if (x->plus1)
            emit(e, "assign f_wts = wrap ? {%u'd0, is_wr} : g_wts[%u:0];", ts_bits - 1, ts_bits - 1);
        else
            emit(e, "assign f_wts = wrap ? %u'd0 : g_wts[%u:0];", ts_bits, ts_bits - 1);
        emit(e, "assign f_rts = wrap ? lease : g_rts[%u:0];", ts_bits - 1);
    }
    emit_nl(e);
}

static void emit_update(emit_file *e, const gctx *x)
{
    unsigned i, ts_bits = x->c->ts_bits;
    emit(e, "// The set written back: a granted way takes memts := rts, a new entry");
    emit(e, "// its tag too, a removed entry loses its valid bit.");
    prim_declv(e, x->c->ways, "w_upd, w_alloc, w_rm");
    emit(e, "assign w_upd = way_hit & {%u{is_gr}};", x->c->ways);
    emit(e, "assign w_alloc = vsel & {%u{alloc}};", x->c->ways);
    emit(e, "assign w_rm = way_hit & {%u{remove}};", x->c->ways);
    for (i = 0; i < x->c->ways; i++)
        emit(e, "assign set_new[%u:%u] = (w_upd[%u] | w_alloc[%u]) ? f_rts : way_memts[%u:%u];",
             memts_lo(x, i) + ts_bits - 1, memts_lo(x, i), i, i, memts_lo(x,
                      i) + ts_bits - 1, memts_lo(x, i));
    for (i = 0; i < x->c->ways; i++)
        emit(e, "assign set_new[%u:%u] = w_alloc[%u] ? s2_stag : way_tag[%u:%u];",
             tag_lo(x, i) + x->g.tag_bits - 1, tag_lo(x,
                    i), i, (i + 1) * x->g.tag_bits - 1, i * x->g.tag_bits);
    for (i = 0; i < x->c->ways; i++)
        emit(e, "assign set_new[%u] = w_alloc[%u] | (way_valid[%u] & ~w_rm[%u]);", valid_bit(x, i),
             i, i, i);
    if (x->fset)
        emit(e, "assign set_new[%u:%u] = floor_new;", x->floor_lo + ts_bits - 1, x->floor_lo);
    emit_nl(e);
}

static void emit_next_fire(emit_file *e, const gctx *x)
{
    emit(e, "// Next state.");
    emit_begin(e, "always_comb begin");
    prim_hold(e, "clr clr_idx clr_ep epoch%s%s s2_rst fwd_valid%s fwd_data fwd_hit s2_fix",
              x->fglobal ? " floor" : "", x->share == HALCONE_SHARE_NOW ? " now nowg" : "",
              x->c->sets > 1 ? " fwd_idx" : "");
    emit(e, "// stage 2 fires: write back, forward, global registers, response");
    emit(e, "if (s2_fire) begin");
    emit(e, "  fwd_valid_d = 1'b1;");
    if (x->c->sets > 1)
        emit(e, "  fwd_idx_d = s2_idx;");
    emit(e, "  fwd_data_d = set_new;");
    if (x->fglobal)
        emit(e, "  floor_d = floor_new;");
    if (x->share == HALCONE_SHARE_NOW) {
        emit(e, "  now_d = nowg_q > now_q ? nowg_q : now_q;");
        emit(e, "  nowg_d = is_gr ? f_rts : %u'd0;", x->c->ts_bits);
    }
    emit(e, "  s2_rst_d = 1'b0;");
    emit(e, "end");
}

static void emit_next_sweep(emit_file *e, const gctx *x)
{
    emit(e, "// the clearing sweep; at its end an epoch reset clears the registers and");
    emit(e, "// restarts stage 2 in the new epoch; every set is empty, so both stages");
    emit(e, "// take the empty word from the forwarding register");
    emit(e, "if (clr_q) begin");
    if (x->c->sets > 1) {
        emit(e, "  if (clr_idx_q == %u'd%u) begin", x->index_width, x->c->sets - 1);
    } else {
        emit(e, "  begin");
    }
    emit(e, "    clr_d = 1'b0;");
    emit(e, "    clr_idx_d = '0;");
    emit(e, "    clr_ep_d = 1'b0;");
    emit(e, "    fwd_data_d = '0;");
    emit(e, "    fwd_hit_d = 1'b1;");
    emit(e, "    s2_fix_d = 1'b1;");
    emit(e, "    if (clr_ep_q) begin");
    emit(e, "      epoch_d = epoch_q + %u'd1;", x->g.epoch_bits);
    if (x->fglobal)
        emit(e, "      floor_d = '0;");
    if (x->share == HALCONE_SHARE_NOW) {
        emit(e, "      now_d = '0;");
        emit(e, "      nowg_d = '0;");
    }
    emit(e, "      s2_rst_d = 1'b1;");
    emit(e, "    end");
    if (x->c->sets > 1) {
        emit(e, "  end else begin");
        emit(e, "    clr_idx_d = clr_idx_q + %u'd1;", x->index_width);
        emit(e, "  end");
    } else {
        emit(e, "  end");
    }
    emit(e, "end");
    emit(e, "// an epoch reset of its own (overflow) or of another TSU (S3 is global)");
    emit(e, "if (sweep_start | (epoch_rst_i & ~clr_q)) begin");
    emit(e, "  clr_d = 1'b1;");
    emit(e, "  clr_idx_d = '0;");
    emit(e, "  clr_ep_d = 1'b1;");
    emit(e, "end");
    emit_nl(e);
}

static void emit_next_stages(emit_file *e, const gctx *x)
{
    int rts = x->share == HALCONE_SHARE_RTS;
    const prim_sfield s1[] = {{"s1_op", "req_op_i", 1},        {"s1_addr", "req_addr_i", 1},
                              {"s1_tag", "req_tag_i", 1},      {"s1_lease", "req_lease_i", 1},
                              {"s1_cts", "req_cts_i", x->reqcts}, {"s1_rts", "req_rts_i", rts},
                              {NULL, NULL, 0}};
    const prim_sfield s2[] = {{"s2_op", "s1_op_q", 1},        {"s2_addr", "s1_addr_q", 1},
                              {"s2_tag", "s1_tag_q", 1},      {"s2_lease", "s1_lease_q", 1},
                              {"s2_cts", "s1_cts_q", x->reqcts}, {"s2_rts", "s1_rts_q", rts},
                              {"s2_data", "set_cur1", 1},     {NULL, NULL, 0}};

    prim_stage(e, "s1_valid", NULL, "s1_adv", "req_acc", s1);
    emit(e, "  // forwarding match against the write-back of this same cycle");
    if (x->c->sets > 1)
        emit(e, "  fwd_hit_d = fwd_valid_d && (fwd_idx_d == req_idx);");
    else
        emit(e, "  fwd_hit_d = fwd_valid_d;");
    emit(e, "end");
    prim_stage(e, "s2_valid", NULL, "s2_fire", "s1_valid_q & s1_adv", s2);
    emit(e, "  // during a clearing sweep the word read is stale: take the forwarding");
    emit(e, "  // register, which holds the empty word when the sweep ends");
    emit(e, "  s2_fix_d = (s2_fire & s1_same) | clr_q;");
    emit(e, "  s2_rst_d = 1'b0;");
    emit(e, "end");
    emit_nl(e);
}

static void emit_next_rsp(emit_file *e, const gctx *x)
{
    unsigned ts_bits = x->c->ts_bits;
    char wts[32], rts[48], vaddr[48], vmemts[32], fval[40];
    const prim_sfield rsp[] = {
        {"rsp_kind", "is_gr ? 2'd0 : ~hit ? 2'd3 : shared ? 2'd2 : 2'd1", 1},
        {"rsp_addr", "s2_addr_q", 1},
        {"rsp_tag", "s2_tag_q", 1},
        {"rsp_wts", wts, 1},
        {"rsp_rts", rts, 1},
        {"rsp_victim", "evict", 1},
        {"rsp_vaddr", vaddr, 1},
        {"rsp_vmemts", vmemts, 1},
        {"rsp_floor", "floor_up", 1},
        {"rsp_fval", fval, 1},
        {"rsp_wrap", "wrap", 1},
        {"rsp_reset", "s2_rst_q", 1},
        {"rsp_epoch", "epoch_q", 1},
        {NULL, NULL, 0}};
    snprintf(wts, sizeof wts, "is_gr ? f_wts : %u'd0", ts_bits);
    snprintf(rts, sizeof rts, "is_gr ? f_rts : ev_hit ? hit_memts : %u'd0", ts_bits);
    snprintf(vaddr, sizeof vaddr, "evict ? %s : %u'd0", x->c->sets > 1 ? "{vtag, s2_idx}" : "vtag",
             x->g.laddr_bits);
    snprintf(vmemts, sizeof vmemts, "evict ? vmemts : %u'd0", ts_bits);
    snprintf(fval, sizeof fval, "floor_up ? floor_new : %u'd0", ts_bits);

    emit(e, "// lease registers (a 0 is ignored: leases are at least 1)");
    prim_hold(e, "rdl wrl");
    emit(e, "if (cfg_we_i && cfg_data_i != %u'd0) begin", ts_bits);
    emit(e, "  if (cfg_sel_i) wrl_d = cfg_data_i;");
    emit(e, "  else rdl_d = cfg_data_i;");
    emit(e, "end");
    emit_nl(e);
    emit(e, "// response register: loaded when stage 2 fires (not for a NOP)");
    prim_stage(e, "rsp_valid", "rsp_valid_q & ~rsp_ready_i", NULL, "s2_fire && s2_op_q != 2'd3",
               rsp);
    emit(e, "end");
    emit_end(e, "end");
    emit_nl(e);
}

/* Next state: one always_comb block, emitted in four parts. */
static void emit_next(emit_file *e, const gctx *x)
{
    PRIM_STAGES(e, gctx, x, emit_next_fire, emit_next_sweep, emit_next_stages, emit_next_rsp);
}

static void emit_regs(emit_file *e, const gctx *x)
{
    static const char *const rst0[] = {
        "clr_ep", "s1_valid", "s2_valid", "s2_rst", "fwd_valid", "rsp_valid", "rsp_victim",
        "rsp_floor", "rsp_wrap", "rsp_reset", "rsp_kind", "rsp_addr", "rsp_tag", "rsp_wts",
        "rsp_rts", "rsp_vaddr", "rsp_vmemts", "rsp_fval", "epoch", "rsp_epoch", "clr_idx",
        "fwd_data", NULL};
    static const char *const plain[] = {"s1_op_q", "s1_addr_q", "s1_tag_q", "s1_lease_q",
                                        "s2_op_q", "s2_addr_q", "s2_tag_q", "s2_lease_q",
                                        "s2_data_q", NULL};
    prim_regs r = {0};
    unsigned i;
    prim_reg(&r, "clr", "1'b1");
    prim_reg(&r, "fwd_hit", "1'b1");
    prim_reg(&r, "s2_fix", "1'b1");
    for (i = 0; rst0[i]; i++)
        prim_reg(&r, rst0[i], "'0");
    prim_reg(&r, "rdl", "%u'd%u", x->c->ts_bits, x->c->rd_lease);
    prim_reg(&r, "wrl", "%u'd%u", x->c->ts_bits, x->c->wr_lease);
    if (x->fglobal)
        prim_reg(&r, "floor", "'0");
    if (x->share == HALCONE_SHARE_NOW) {
        prim_reg(&r, "now", "'0");
        prim_reg(&r, "nowg", "'0");
    }
    prim_regs_block(e, &r);
    emit(e, "// payload registers: no reset needed (qualified by their valid bits)");
    emit(e, "always_ff @(posedge clk_i) begin");
    for (i = 0; plain[i]; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "%s", plain[i]);
        nm[strlen(nm) - 1] = 'd';
        emit(e, "  %s <= %s;", plain[i], nm);
    }
    if (x->reqcts) {
        emit(e, "  s1_cts_q <= s1_cts_d;");
        emit(e, "  s2_cts_q <= s2_cts_d;");
    }
    if (x->share == HALCONE_SHARE_RTS) {
        emit(e, "  s1_rts_q <= s1_rts_d;");
        emit(e, "  s2_rts_q <= s2_rts_d;");
    }
    if (x->c->sets > 1)
        emit(e, "  fwd_idx_q <= fwd_idx_d;");
    emit(e, "end");
    emit_nl(e);
    prim_outputs(e, "rsp_valid rsp_kind rsp_addr rsp_tag rsp_wts rsp_rts rsp_victim rsp_vaddr "
                    "rsp_vmemts rsp_floor rsp_fval rsp_wrap rsp_reset rsp_epoch");
    {
        char buf[256] = "";
        size_t k = 0;
        if (!x->reqcts)
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%s^req_cts_i", k ? " ^ " : "");
        if (x->share != HALCONE_SHARE_RTS)
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%s^req_rts_i", k ? " ^ " : "");
        if (x->share != HALCONE_SHARE_NOW)
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%s^lmax", k ? " ^ " : "");
        if (!x->fglobal && !x->fset)
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%sdrop", k ? " ^ " : "");
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%sg_wts[%u] ^ g_rts[%u]", k ? " ^ " : "",
                              x->c->ts_bits, x->c->ts_bits);
        emit(e, "// inputs and bits this configuration does not use");
        prim_decl(e, 1, "unused_ok");
        emit(e, "assign unused_ok = %s;", buf);
    }
}

/* Formal properties (`ifdef FORMAL`), checked by `make formal` with
 * yosys-smtbmc and z3 on the small configurations of tb/formal.txt (bounded
 * model checks). Labels p_<group>_*; one negative control per group in
 * tb/formal-controls.txt. Groups: iface (the response holds under
 * back-pressure, nothing is accepted during a clearing sweep), grant (spec 8
 * P3: a grant starts above the memts it replaces, a write's wts above it;
 * with req-cts the grant covers the requester's cts), floor (P5: the floor
 * never decreases except at an epoch reset), lease (the lease registers are
 * never 0). */
static void emit_formal(emit_file *e, const gctx *x)
{
    const char *samples[] = {"f_stall_q <= rsp_valid_o & ~rsp_ready_i",
                             "f_kind_q <= rsp_kind_o",
                             "f_addr_q <= rsp_addr_o",
                             "f_wts_q <= rsp_wts_o",
                             "f_rts_q <= rsp_rts_o",
                             "f_epoch_q <= epoch_q",
                             x->fglobal ? "f_floor_q <= floor_q" : NULL,
                             NULL};
    emit_nl(e);
    prim_formal_begin(e, "// Properties checked by make formal (tb/formal.txt); see docs/halcone.md.");
    emit(e, "logic f_stall_q;");
    prim_decl(e, 2, "f_kind_q");
    prim_decl(e, x->g.laddr_bits, "f_addr_q");
    prim_decl(e, x->c->ts_bits, "f_wts_q, f_rts_q");
    prim_decl(e, x->g.epoch_bits, "f_epoch_q");
    if (x->fglobal)
        prim_decl(e, x->c->ts_bits, "f_floor_q");
    prim_formal_samples(e, samples);
    prim_formal_assume(e, "reset in the first cycle only", 0);
    emit(e, "  if (rst_ni && f_past_q && f_stall_q) begin");
    emit(e, "    p_iface_hold: assert(rsp_valid_o);");
    emit(e, "    p_iface_kind: assert(rsp_kind_o == f_kind_q);");
    emit(e, "    p_iface_addr: assert(rsp_addr_o == f_addr_q);");
    emit(e, "    p_iface_wts: assert(rsp_wts_o == f_wts_q);");
    emit(e, "    p_iface_rts: assert(rsp_rts_o == f_rts_q);");
    emit(e, "  end");
    emit(e, "  if (rst_ni && clr_q) p_iface_sweep: assert(!req_ready_o);");
    emit(e, "  // the overflow formed beside the grant is the grant's carry");
    emit(e, "  if (rst_ni) p_grant_ovf: assert(ovf == (is_gr & g_rts[%u]));", x->c->ts_bits);
    emit(e, "  if (rst_ni && s2_fire && is_gr && !wrap) begin");
    emit(e, "    p_grant_rts: assert(f_rts > m_eff);");
    emit(e, "    if (is_wr) p_grant_wts: assert(f_wts > m_eff);");
    if (x->reqcts) {
        emit(e, "    if (is_wr) p_grant_cts_w: assert(f_wts >= cts_eff);");
        emit(e, "    if (is_rd) p_grant_cts_r: assert(f_rts >= cts_eff);");
    }
    emit(e, "  end");
    if (x->fglobal) {
        emit(e, "  if (rst_ni && f_past_q && epoch_q == f_epoch_q)");
        emit(e, "    p_floor_mono: assert(floor_q >= f_floor_q);");
    }
    emit(e, "  if (rst_ni) begin");
    emit(e, "    p_lease_rd: assert(rdl_q != %u'd0);", x->c->ts_bits);
    emit(e, "    p_lease_wr: assert(wrl_q != %u'd0);", x->c->ts_bits);
    emit(e, "  end");
    emit(e, "end");
    emit(e, "`endif");
}

static void emit_tsu(emit_file *e, const void *cfg, const block_desc *b)
{
    const halcone_tsu_cfg *c = cfg;
    gctx x;
    GEN_CTX_INIT(x, cfg, halcone_tsu_geom);
    x.sum_bits = c->ts_bits + 1;
    x.index_width = x.g.index_bits ? x.g.index_bits : 1;
    x.floor_lo = c->ways * x.g.entry_bits;
    x.fglobal = c->floor == HALCONE_FLOOR_GLOBAL;
    x.fset = c->floor == HALCONE_FLOOR_SET;
    x.reset = c->overflow == HALCONE_OVF_RESET;
    x.reqcts = c->req_cts != 0;
    x.share = (int)c->share_test;
    x.plus1 = c->wr_wts == HALCONE_WRWTS_PLUS1;

    emit(e, "// HALCONE timestamp storage unit (Mojumder et al., 3.2.5, Fig. 6, Alg. 3):");
    emit(e, "// a set-associative store of {tag, memts} granting leases to L2 requests;");
    emit(e, "// three-stage pipeline over a synchronous set RAM with same-set forwarding,");
    emit(e, "// one request per cycle, responses in acceptance order. See docs/halcone.md.");
    emit(e, "// Rules: wr-wts %s, floor %s, overflow %s, req-cts %s, share-test %s.",
         halcone_wrwts_str(c->wr_wts), halcone_floor_str(c->floor),
         halcone_overflow_str(c->overflow), c->req_cts ? "on" : "off",
         halcone_share_str(c->share_test));
    PRIM_MODULE(e, b, gctx, &x, emit_state, emit_control, emit_lookup, emit_ram, emit_stage1,
                emit_decode, emit_grant, emit_update, emit_next, emit_regs, emit_formal);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(halcone_tsu_cfg, halcone_tsu_geom);
    snprintf(buf, len,
             "sets=%u ways=%u line=%u addr_bits=%u ts_bits=%u tag_bits=%u rd_lease=%u wr_lease=%u\n"
             "wr_wts=%s floor=%s overflow=%s req_cts=%s share_test=%s\n"
             "index_bits=%u line_addr_bits=%u stored_tag_bits=%u entry_bits=%u set_word_bits=%u "
             "epoch_bits=%u",
             c->sets, c->ways, c->line, c->addr_bits, c->ts_bits, c->tag_bits, c->rd_lease,
             c->wr_lease, halcone_wrwts_str(c->wr_wts), halcone_floor_str(c->floor),
             halcone_overflow_str(c->overflow), c->req_cts ? "on" : "off",
             halcone_share_str(c->share_test), g.index_bits, g.laddr_bits, g.tag_bits,
             g.entry_bits, g.set_bits, g.epoch_bits);
}

static void gen_report(FILE *f, const void *cfg, int json)
{
    const halcone_tsu_cfg *c = cfg;
    halcone_tsu_geom g;
    uint64_t valid_bits, tag_bits, memts_bits, floor_bits;
    halcone_tsu_geom_of(c, &g);
    valid_bits = g.entries;
    tag_bits = g.entries * g.tag_bits;
    memts_bits = g.entries * c->ts_bits;
    floor_bits = (uint64_t)c->sets * g.floor_bits;
    if (json) {
        fprintf(f,
                "{\"unit\":\"halcone-tsu\",\"sets\":%u,\"ways\":%u,\"line\":%u,\"addr_bits\":%u,"
                "\"ts_bits\":%u,\"tag_bits\":%u,\"rd_lease\":%u,\"wr_lease\":%u,"
                "\"wr_wts\":\"%s\",\"floor\":\"%s\",\"overflow\":\"%s\",\"req_cts\":\"%s\","
                "\"share_test\":\"%s\",\"entries\":%llu,"
                "\"paper\":{\"memts_bits\":%llu,\"kB\":%.2f},"
                "\"rtl\":{\"valid_bits\":%llu,\"tag_bits\":%llu,\"memts_bits\":%llu,"
                "\"set_floor_bits\":%llu,\"ram_bits\":%llu,\"set_word_bits\":%u,"
                "\"register_bits\":%llu,\"kB\":%.2f},"
                "\"rtl_memories\":[[%u,%u]],\"latency_cycles\":%d,\"requests_per_cycle\":1}\n",
                c->sets, c->ways, c->line, c->addr_bits, c->ts_bits, c->tag_bits, c->rd_lease,
                c->wr_lease, halcone_wrwts_str(c->wr_wts), halcone_floor_str(c->floor),
                halcone_overflow_str(c->overflow), c->req_cts ? "on" : "off",
                halcone_share_str(c->share_test), (unsigned long long)g.entries,
                (unsigned long long)g.paper_bits, g.paper_bits / 8.0 / 1024.0,
                (unsigned long long)valid_bits, (unsigned long long)tag_bits,
                (unsigned long long)memts_bits, (unsigned long long)floor_bits,
                (unsigned long long)g.ram_bits, g.set_bits, (unsigned long long)g.reg_bits,
                (g.ram_bits + g.reg_bits) / 8.0 / 1024.0, c->sets, g.set_bits, HALCONE_TSU_LATENCY);
        return;
    }
    fprintf(f, "HALCONE TSU: %u sets x %u ways = %llu entries, %u B blocks, %u-bit addresses, "
               "%u-bit timestamps, RdLease %u, WrLease %u\n",
            c->sets, c->ways, (unsigned long long)g.entries, c->line, c->addr_bits, c->ts_bits,
            c->rd_lease, c->wr_lease);
    fprintf(f, "  rules: wr-wts %s, floor %s, overflow %s, req-cts %s, share-test %s\n",
            halcone_wrwts_str(c->wr_wts), halcone_floor_str(c->floor),
            halcone_overflow_str(c->overflow), c->req_cts ? "on" : "off",
            halcone_share_str(c->share_test));
    fprintf(f, "  paper accounting (3.2.5, memts only): %llu x %u bits = %llu bits = %.2f kB "
               "(the paper's 64 kB per GPU is 32768 entries: one per 64 B block of a 2 MB L2)\n",
            (unsigned long long)g.entries, c->ts_bits, (unsigned long long)g.paper_bits,
            g.paper_bits / 8.0 / 1024.0);
    fprintf(f, "  RTL RAM: valid %llu + tag %llu (%u per entry) + memts %llu + per-set floor %llu "
               "= %llu bits (%u-bit word per set) = %.2f kB\n",
            (unsigned long long)valid_bits, (unsigned long long)tag_bits, g.tag_bits,
            (unsigned long long)memts_bits, (unsigned long long)floor_bits,
            (unsigned long long)g.ram_bits, g.set_bits, g.ram_bits / 8.0 / 1024.0);
    fprintf(f, "  RTL registers beside the RAM: %llu bits (floor, now, epoch, two lease "
               "registers; pipeline registers not counted)\n",
            (unsigned long long)g.reg_bits);
    fprintf(f, "  timing: one request per cycle; response %d cycles after acceptance; an epoch "
               "reset adds a %u-cycle clearing sweep\n",
            HALCONE_TSU_LATENCY, c->sets);
}

const gen_unit halcone_tsu_gen_unit = {"halcone-tsu", emit_tsu, gen_params, gen_report, NULL};
