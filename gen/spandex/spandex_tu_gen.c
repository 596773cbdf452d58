/*
 * Spandex translation unit generator (Alsop et al., ISCA 2018, Table II,
 * III-A, III-C, III-D; spec spandex.md 4). The cycle-accurate model is the
 * timing shell cmodel/spandex/spandex_tuhw_tm.c; docs/spandex.md ("The
 * translation unit in RTL") gives the ports and the micro-architecture.
 *
 * One-entry buffers take the cache's requests, the responses and the
 * forwards; registers hold each output until its handshake. Every cycle one
 * action runs, the first that can: the buffered response (merged into its
 * MSHR entry: completion, a Nack's retry or replacement), the buffered
 * forward, an entry's re-send, the write buffer's oldest line as a ReqWT,
 * the buffered cache request. Every choice is a function of the registers,
 * so no ready depends on an input of the same cycle. The module body is
 * fixed text over localparams (M, B, W, WB, LB, DB, MI, BI, KB, NACK_LIMIT;
 * DeNovo and MESI: D, DI; DeNovo: ODATA); a line's tag names the kinds it belongs
 * to: G GPU coherence, D DeNovo and MESI (the probe, the delayed requests,
 * ReqO+data, ReqWB), N DeNovo alone, M MESI alone ("@GN " GPU coherence
 * and DeNovo: the write buffer); untagged lines are every kind's.
 */
#include <stdio.h>
#include <string.h>

#include "gen_unit.h"
#include "prim.h"
#include "spandex_tuhw.h"

/* The body over the localparams. */
static const char *const body[] = {
    "// ---------------------------------------------------------------- registers",
    "// input buffers (one entry per channel)",
    "logic cq_v_q, cq_v_d, rq_v_q, rq_v_d, fq_v_q, fq_v_d, pd_v_q, pd_v_d;",
    "logic [2:0] cq_type_q, cq_type_d, cq_op_q, cq_op_d, fq_type_q, fq_type_d;",
    "logic [3:0] rq_type_q, rq_type_d;",
    "logic [LB-1:0] cq_line_q, cq_line_d, rq_line_q, rq_line_d, fq_line_q, fq_line_d;",
    "logic [W-1:0] cq_mask_q, cq_mask_d, rq_mask_q, rq_mask_d, fq_mask_q, fq_mask_d;",
    "logic [W*WB-1:0] cq_data_q, cq_data_d, rq_data_q, rq_data_d;",
    "logic [DB-1:0] fq_req_q, fq_req_d;",
    "@D // the forward's step (0 fresh, 1 probe out, 2 answers leaving), replayed from a",
    "@D // slot, answers to send (bit 0 the answer, 1 RspRvkO, 2 Nack), probed, answered",
    "@D // and Nacked words, the answer's data; the probe's answer",
    "@D logic fq_rp_q, fq_rp_d;",
    "@M // (MESI: the RspWB of the line came: the cache's write-back line released after it)",
    "@M logic fq_rel_q, fq_rel_d;",
    "@D logic [1:0] fq_ph_q, fq_ph_d;",
    "@D logic [2:0] fq_todo_q, fq_todo_d;",
    "@D logic [W-1:0] fq_pm_q, fq_pm_d, fq_ans_q, fq_ans_d, fq_nack_q, fq_nack_d, pd_mask_q, pd_mask_d;",
    "@D logic [W*WB-1:0] fq_data_q, fq_data_d, pd_data_q, pd_data_d;",
    "// output registers",
    "logic ro_v_q, ro_v_d, oo_v_q, oo_v_d, co_v_q, co_v_d, oo_llc_q, oo_llc_d;",
    "logic [2:0] ro_type_q, ro_type_d, ro_op_q, ro_op_d;",
    "logic [3:0] oo_type_q, oo_type_d;",
    "logic [1:0] co_type_q, co_type_d;",
    "logic [DB-1:0] oo_dst_q, oo_dst_d;",
    "logic [LB-1:0] ro_line_q, ro_line_d, oo_line_q, oo_line_d, co_line_q, co_line_d;",
    "logic [W-1:0] ro_mask_q, ro_mask_d, oo_mask_q, oo_mask_d, co_mask_q, co_mask_d;",
    "logic [W*WB-1:0] ro_data_q, ro_data_d, co_data_q, co_data_d;",
    "@D logic pr_v_q, pr_v_d, pr_down_q, pr_down_d;",
    "@D logic [LB-1:0] pr_line_q, pr_line_d;",
    "@D logic [W-1:0] pr_mask_q, pr_mask_d, co_own_q, co_own_d;",
    "@D logic [W*WB-1:0] oo_data_q, oo_data_d;",
    "@G // MSHR: kind 0 ReqV, 1 ReqWT, 2 ReqWT+data; requested, received, to re-send",
    "@D // MSHR: kind 0 ReqV, 1 ReqWT, 2 ReqWT+data, 3 ReqO, 4 ReqO+data, 5 ReqWB;",
    "@D // requested, received, to re-send (Nacked), replaced and downgraded words;",
    "@D // Nacks seen; a re-send waiting",
    "@G // (Nacked) and replaced words; Nacks seen; a re-send waiting",
    "logic [M-1:0] e_v_q, e_v_d, e_snd_q, e_snd_d;",
    "logic [KB*M-1:0] e_kind_q, e_kind_d;",
    "logic [4*M-1:0] e_nk_q, e_nk_d;",
    "logic [M*LB-1:0] e_line_q, e_line_d;",
    "logic [M*W-1:0] e_mask_q, e_mask_d, e_recv_q, e_recv_d, e_rtr_q, e_rtr_d, e_rpw_q, e_rpw_d;",
    "@D logic [M*W-1:0] e_dn_q, e_dn_d;",
    "@M // MESI: the store's words (an atomic's word), the atomic's op and operand, flags",
    "@M // (bit 0 a word came not by RspS, 1 not by RspO+data, 2 an Inv came, 3 an atomic)",
    "@M logic [M*W-1:0] e_st_q, e_st_d;",
    "@M logic [3*M-1:0] e_op_q, e_op_d;",
    "@M logic [4*M-1:0] e_fl_q, e_fl_d;",
    "@M logic [M*WB-1:0] e_opd_q, e_opd_d;",
    "logic [M*W*WB-1:0] e_data_q, e_data_d;",
    "// line matches, registered (exact for a valid entry): an entry's line equals the",
    "// buffered response's (e_rq), cache request's (e_cq) and forward's (e_fq) line",
    "// (DeNovo, MESI: the forward's with the response's and cache request's, an entry's,",
    "// the forward's, the response's and cache request's with a delayed request's; GPU",
    "// coherence, DeNovo: a write-buffer line's with an entry's, the cache request's, and",
    "// DeNovo the forward's and a delayed request's), exact while both are valid",
    "logic [M-1:0] e_rq_q, e_rq_d, e_cq_q, e_cq_d;",
    "@D logic [M-1:0] e_fq_q, e_fq_d;",
    "@D logic [M*D-1:0] e_df_q, e_df_d;",
    "@D logic [D-1:0] df_fq_q, df_fq_d;",
    "@N logic [D-1:0] df_cq_q, df_cq_d;",
    "@M logic [D-1:0] df_rq_q, df_rq_d;",
    "@D logic fq_rq_q, fq_rq_d, fq_cq_q, fq_cq_d;",
    "@GN logic [B-1:0] b_cq_q, b_cq_d;",
    "@GN logic [M*B-1:0] e_b_q, e_b_d;",
    "@N logic [B*D-1:0] b_df_q, b_df_d;",
    "@N logic [B-1:0] b_fq_q, b_fq_d;",
    "@GN // write buffer: a ring of lines, oldest at wh, next free at wt",
    "@GN logic [B-1:0] b_v_q, b_v_d;",
    "@GN logic [B*LB-1:0] b_line_q, b_line_d;",
    "@GN logic [B*W-1:0] b_mask_q, b_mask_d;",
    "@GN logic [B*W*WB-1:0] b_data_q, b_data_d;",
    "@GN logic [BI-1:0] wh_q, wh_d, wt_q, wt_d;",
    "@D // delayed external requests: a ring, oldest at dh, next free at dt",
    "@D logic [D-1:0] df_v_q, df_v_d;",
    "@M logic [D-1:0] df_rel_q, df_rel_d; // (as fq_rel)",
    "@D logic [3*D-1:0] df_type_q, df_type_d;",
    "@D logic [DB*D-1:0] df_req_q, df_req_d;",
    "@D logic [LB*D-1:0] df_line_q, df_line_d;",
    "@D logic [W*D-1:0] df_mask_q, df_mask_d;",
    "@D logic [DI-1:0] dh_q, dh_d, dt_q, dt_d;",
    "logic err_q, err_d;",
    "",
    "// ---------------------------------------------------------------- lookups",
    "@M // an atomic's op (spec 7: rd, swp, add, and, or, xor, min, max; unsigned)",
    "@M function automatic [WB-1:0] op_apply(input [2:0] op, input [WB-1:0] old, input [WB-1:0] v);",
    "@M   case (op)",
    "@M     3'd1: op_apply = v;",
    "@M     3'd2: op_apply = old + v;",
    "@M     3'd3: op_apply = old & v;",
    "@M     3'd4: op_apply = old | v;",
    "@M     3'd5: op_apply = old ^ v;",
    "@M     3'd6: op_apply = old < v ? old : v;",
    "@M     3'd7: op_apply = old > v ? old : v;",
    "@M     default: op_apply = old;",
    "@M   endcase",
    "@M endfunction",
    "integer i, w;",
    "@GN logic free_any, cq_hit, writes_open, m_any, f_hit, s_any, h_v, wb_full;",
    "@M logic free_any, writes_open, m_any, s_any;",
    "@GM logic cq_open;",
    "logic [MI-1:0] free_idx, m_idx, s_idx;",
    "@GN logic [BI-1:0] cq_hit_idx, f_idx;",
    "@GN logic [B-1:0] m_b; // the matched entry's line is a write-buffer line's",
    "@GN logic [W-1:0] cq_busy, h_busy, h_mask, e_out, m_mask, m_recv, s_rtr;",
    "@M logic [W-1:0] e_out, m_mask, m_recv, s_rtr;",
    "@GN logic [LB-1:0] h_line, m_line, s_line;",
    "@M logic [LB-1:0] m_line, s_line;",
    "@GN logic [W*WB-1:0] m_data, m_merged, fill_data;",
    "@M logic [W*WB-1:0] m_data, m_merged;",
    "@M logic [W*WB-1:0] m_res;",
    "@M logic [M*WB-1:0] a_res;",
    "@M logic [WB-1:0] a_old, m_ares;",
    "@G logic [W*WB-1:0] h_data;",
    "logic [KB-1:0] m_kind;",
    "logic [3:0] s_nk;",
    "logic m_ok;",
    "@M logic [W-1:0] m_st, s_mask;",
    "@M logic [3:0] m_fl;",
    "@M logic [KB-1:0] s_kind;",
    "@M logic [W*WB-1:0] s_data;",
    "@N logic [W-1:0] m_rpw, m_dn, f_rmw, f_wbm, f_back, d_rmw, d_mask, h_fw, c_fw, f_own, o_m;",
    "@M logic [W-1:0] m_dn, f_rmw, f_wbm, f_back, d_rmw, d_mask, f_own, o_m;",
    "@D logic [W*WB-1:0] f_wbdata, f_owndata;",
    "@D logic [LB-1:0] d_line;",
    "@D logic [2:0] d_type;",
    "@D logic [DB-1:0] d_req;",
    "@D logic d_v, df_full, df_last;",
    "@D logic [DI-1:0] df_nt;",
    "@M logic r_back, rq_open, d_rel, f_relb;",
    "@M logic [M-1:0] e_back;",
    "@D logic [M-1:0] e_dh; // an entry's line is the oldest delayed request's",
    "@GN logic [M-1:0] e_hb; // an entry's line is the write buffer's oldest",
    "@N logic [D-1:0] h_df; // a delayed request's line is the write buffer's oldest",
    "@N logic h_fq;",
    "always @* begin",
    "  free_any = 1'b0; free_idx = '0;",
    "@M  rq_open = 1'b0; d_rel = 1'b0; f_relb = 1'b0;",
    "@GN  cq_hit = 1'b0; cq_hit_idx = '0; cq_busy = '0;",
    "@GM  cq_open = 1'b0;",
    "  writes_open = 1'b0; m_any = 1'b0; m_idx = '0; s_any = 1'b0; s_idx = '0;",
    "  e_out = '0; m_ok = 1'b0;",
    "@GN  h_v = 1'b0; h_line = '0; h_mask = '0;",
    "@G  h_data = '0;",
    "@GN  wb_full = 1'b0;",
    "@D  d_v = 1'b0; d_line = '0; d_mask = '0; d_type = '0; d_req = '0; df_full = 1'b0; f_back = '0;",
    "@N  h_fw = '0; c_fw = '0; h_df = '0; h_fq = 1'b0;",
    "@D  e_dh = '0;",
    "@GN  e_hb = '0;",
    "@GN  for (i = B - 1; i >= 0; i = i - 1) begin",
    "@GN    if (b_v_q[i] && b_cq_q[i]) begin",
    "@GN      cq_hit = 1'b1; cq_hit_idx = i[BI-1:0];",
    "@GN    end",
    "@GN    if (wh_q == i[BI-1:0]) begin",
    "@GN      h_v = b_v_q[i]; h_line = b_line_q[i*LB +: LB]; h_mask = b_mask_q[i*W +: W];",
    "@G      h_data = b_data_q[i*W*WB +: W*WB];",
    "@GN      for (w = 0; w < M; w = w + 1) e_hb[w] = e_b_q[w*B + i];",
    "@N      for (w = 0; w < D; w = w + 1) h_df[w] = b_df_q[i*D + w];",
    "@N      h_fq = b_fq_q[i];",
    "@GN    end",
    "@GN    if (wt_q == i[BI-1:0]) wb_full = b_v_q[i];",
    "@GN  end",
    "@D  // the oldest delayed request; the ring full; the words delayed on the forward's line",
    "@D  for (i = 0; i < D; i = i + 1) begin",
    "@D    if (dh_q == i[DI-1:0]) begin",
    "@D      d_v = df_v_q[i]; d_line = df_line_q[i*LB +: LB]; d_mask = df_mask_q[i*W +: W];",
    "@D      d_type = df_type_q[i*3 +: 3]; d_req = df_req_q[i*DB +: DB];",
    "@M      d_rel = df_rel_q[i];",
    "@D      for (w = 0; w < M; w = w + 1) e_dh[w] = e_df_q[w*D + i];",
    "@D    end",
    "@D    if (dt_q == i[DI-1:0]) df_full = df_v_q[i];",
    "@D    if (df_v_q[i] && df_fq_q[i]) f_back = f_back | df_mask_q[i*W +: W];",
    "@M    if (df_v_q[i] && df_rel_q[i] && df_fq_q[i]) f_relb = 1'b1;",
    "@D  end",
    "@D  // the next free slot is the last free one (kept for a downgrade)",
    "@D  df_nt = dt_q == D_LAST ? '0 : dt_q + 1'b1;",
    "@D  df_last = df_nt == dh_q;",
    "@N  // the words of the flush's and the cache request's lines a delayed or buffered forward names",
    "@N  for (i = 0; i < D; i = i + 1) begin",
    "@N    if (df_v_q[i] && h_df[i]) h_fw = h_fw | df_mask_q[i*W +: W];",
    "@N    if (df_v_q[i] && df_cq_q[i]) c_fw = c_fw | df_mask_q[i*W +: W];",
    "@N  end",
    "@N  if (fq_v_q && h_fq) h_fw = h_fw | fq_mask_q;",
    "@N  if (fq_v_q && fq_cq_q) c_fw = c_fw | fq_mask_q;",
    "@M  // MESI: a line waits behind its delayed requests (all its words); the delayed",
    "@M  // requests of the response's line keep its ReqWB entry after the RspWB",
    "@M  if (f_back != '0) f_back = '1;",
    "@M  r_back = 1'b0; e_back = '0;",
    "@M  for (i = 0; i < D; i = i + 1)",
    "@M    if (df_v_q[i] && df_rq_q[i]) r_back = 1'b1;",
    "@M  for (i = 0; i < M; i = i + 1)",
    "@M    for (w = 0; w < D; w = w + 1)",
    "@M      if (df_v_q[w] && e_df_q[i*D + w]) e_back[i] = 1'b1;",
    "  for (i = M - 1; i >= 0; i = i - 1) begin",
    "    if (!e_v_q[i]) begin",
    "      free_any = 1'b1; free_idx = i[MI-1:0];",
    "    end",
    "    if (e_v_q[i] && e_cq_q[i]) begin",
    "@GM      cq_open = 1'b1;",
    "@G      cq_busy = cq_busy | (e_mask_q[i*W +: W] & ~e_recv_q[i*W +: W]);",
    "@N      cq_busy = cq_busy | e_mask_q[i*W +: W]; // an entry's words stay busy until it completes",
    "    end",
    "    if (e_v_q[i] && e_kind_q[KB*i +: KB] != K_V) writes_open = 1'b1;",
    "@M    if (e_v_q[i] && e_rq_q[i]) rq_open = 1'b1;",
    "    if (e_v_q[i] && e_snd_q[i]) begin",
    "      s_any = 1'b1; s_idx = i[MI-1:0];",
    "    end",
    "    // the response's entry: its line, words still open, a kind it answers",
    "    e_out = e_mask_q[i*W +: W] & ~e_recv_q[i*W +: W] & ~e_rtr_q[i*W +: W];",
    "    case (rq_type_q)",
    "      4'd0, 4'd9: m_ok = e_kind_q[KB*i +: KB] == K_V && (rq_mask_q & e_rpw_q[i*W +: W]) == '0;",
    "@G      4'd4: m_ok = e_kind_q[KB*i +: KB] == K_WTD ||",
    "@G                   (e_kind_q[KB*i +: KB] == K_V && (rq_mask_q & ~e_rpw_q[i*W +: W]) == '0);",
    "@G      4'd2, 4'd3: m_ok = e_kind_q[KB*i +: KB] == K_WT;",
    "@N      4'd4: m_ok = e_kind_q[KB*i +: KB] == K_WTD ||",
    "@N                   (!ODATA && e_kind_q[KB*i +: KB] == K_V && (rq_mask_q & ~e_rpw_q[i*W +: W]) == '0);",
    "@N      4'd5: m_ok = e_kind_q[KB*i +: KB] == K_OD ||",
    "@N                   (ODATA && e_kind_q[KB*i +: KB] == K_V && (rq_mask_q & ~e_rpw_q[i*W +: W]) == '0);",
    "@N      4'd2: m_ok = e_kind_q[KB*i +: KB] == K_WT;",
    "@N      4'd3: m_ok = e_kind_q[KB*i +: KB] == K_WT || e_kind_q[KB*i +: KB] == K_O;",
    "@N      4'd6: m_ok = e_kind_q[KB*i +: KB] == K_WB && rq_mask_q == e_mask_q[i*W +: W];",
    "@M      4'd1: m_ok = e_kind_q[KB*i +: KB] == K_V && (rq_mask_q & e_rpw_q[i*W +: W]) == '0;",
    "@M      4'd4: m_ok = e_kind_q[KB*i +: KB] == K_V && (rq_mask_q & ~e_rpw_q[i*W +: W]) == '0;",
    "@M      4'd5: m_ok = e_kind_q[KB*i +: KB] == K_OD ||",
    "@M                   (e_kind_q[KB*i +: KB] == K_V && (rq_mask_q & e_rpw_q[i*W +: W]) == '0);",
    "@M      4'd6: m_ok = e_kind_q[KB*i +: KB] == K_WB && rq_mask_q == e_mask_q[i*W +: W] && !e_snd_q[i];",
    "      default: m_ok = 1'b0;",
    "    endcase",
    "    if (e_v_q[i] && e_rq_q[i] && rq_mask_q != '0 && (rq_mask_q & ~e_out) == '0 && m_ok) begin",
    "      m_any = 1'b1; m_idx = i[MI-1:0];",
    "    end",
    "  end",
    "end",
    "",
    "@X // extra words (Table II): rq_rm, the RspV's words the line's read waits for;",
    "@X // rq_x, the others the cache may take (no entry, buffered store or EVICT taken",
    "@X // holds them); cq_rd, a read open on the cache request's line",
    "@X logic cq_rd;",
    "@X logic [W-1:0] rq_rm, rq_x, x_open, x_busy;",
    "@X always @* begin",
    "@X   x_open = '0; x_busy = '0; cq_rd = 1'b0;",
    "@X   for (i = 0; i < M; i = i + 1) begin",
    "@X     if (e_v_q[i] && e_rq_q[i]) begin",
    "@X       x_busy = x_busy | e_mask_q[i*W +: W];",
    "@X       if (e_kind_q[KB*i +: KB] == K_V)",
    "@X         x_open = x_open | (e_mask_q[i*W +: W] & ~e_recv_q[i*W +: W] & ~e_rtr_q[i*W +: W]);",
    "@X     end",
    "@X     if (e_v_q[i] && e_cq_q[i] && e_kind_q[KB*i +: KB] == K_V) cq_rd = 1'b1;",
    "@X   end",
    "@X   rq_rm = rq_type_q == 4'd0 ? rq_mask_q & x_open : rq_mask_q;",
    "@X   rq_x = rq_type_q == 4'd0 ? rq_mask_q & ~rq_rm & ~x_busy : '0;",
    "@X   for (i = 0; i < B; i = i + 1)",
    "@X     if (b_v_q[i] && b_line_q[i*LB +: LB] == rq_line_q) rq_x = rq_x & ~b_mask_q[i*W +: W];",
    "@X   if (cq_v_q && cq_type_q == 3'd5 && cq_line_q == rq_line_q) rq_x = rq_x & ~cq_mask_q;",
    "@X end",
    "@X",
    "// the fields of the matched and the re-sending entry; the head's open words",
    "always @* begin",
    "  m_kind = '0; m_line = '0; m_mask = '0; m_recv = '0; m_data = '0;",
    "@N  m_rpw = '0; m_dn = '0;",
    "@GN  m_b = '0;",
    "@M  m_dn = '0;",
    "@M  m_st = '0; m_fl = '0; s_kind = '0; s_mask = '0; s_data = '0;",
    "@GN  s_line = '0; s_rtr = '0; s_nk = '0; h_busy = '0;",
    "@M  s_line = '0; s_rtr = '0; s_nk = '0;",
    "  for (i = 0; i < M; i = i + 1) begin",
    "    if (m_idx == i[MI-1:0]) begin",
    "      m_kind = e_kind_q[KB*i +: KB]; m_line = e_line_q[i*LB +: LB]; m_mask = e_mask_q[i*W +: W];",
    "      m_recv = e_recv_q[i*W +: W]; m_data = e_data_q[i*W*WB +: W*WB];",
    "@GN      for (w = 0; w < B; w = w + 1) m_b[w] = e_b_q[i*B + w];",
    "@N      m_rpw = e_rpw_q[i*W +: W]; m_dn = e_dn_q[i*W +: W];",
    "@M      m_dn = e_dn_q[i*W +: W];",
    "@M      m_st = e_st_q[i*W +: W]; m_fl = e_fl_q[i*4 +: 4];",
    "    end",
    "    if (s_idx == i[MI-1:0]) begin",
    "      s_line = e_line_q[i*LB +: LB]; s_rtr = e_rtr_q[i*W +: W]; s_nk = e_nk_q[4*i +: 4];",
    "@M      s_kind = e_kind_q[KB*i +: KB]; s_mask = e_mask_q[i*W +: W]; s_data = e_data_q[i*W*WB +: W*WB];",
    "    end",
    "@G    if (e_v_q[i] && e_hb[i])",
    "@G      h_busy = h_busy | (e_mask_q[i*W +: W] & ~e_recv_q[i*W +: W]);",
    "@N    if (e_v_q[i] && e_hb[i]) h_busy = h_busy | e_mask_q[i*W +: W];",
    "  end",
    "end",
    "@D",
    "@D // Table IV per word of the forward's line: a pending ReqO+data (an atomic, or an",
    "@D // odata replacement whose RspO+data has not come; MESI: a pending ReqS's words not",
    "@D // yet this device's), a pending read's words already owned (its own RspO+data came;",
    "@D // and their data), a pending ReqWB not yet answered or an EVICT taken (and its",
    "@D // data); the same pending ReqO+data test for the oldest delayed request's line",
    "@D always @* begin",
    "@D   f_rmw = '0; f_wbm = '0; f_wbdata = '0; d_rmw = '0; f_own = '0; f_owndata = '0; o_m = '0;",
    "@D   for (i = 0; i < M; i = i + 1) begin",
    "@D     if (e_v_q[i] && e_fq_q[i]) begin",
    "@D       if (e_kind_q[KB*i +: KB] == K_OD) f_rmw = f_rmw | e_mask_q[i*W +: W];",
    "@N       if (ODATA && e_kind_q[KB*i +: KB] == K_V)",
    "@N         f_rmw = f_rmw | (e_rpw_q[i*W +: W] & e_mask_q[i*W +: W] & ~e_recv_q[i*W +: W]);",
    "@N       o_m = ODATA && e_kind_q[KB*i +: KB] == K_V ?",
    "@N             e_rpw_q[i*W +: W] & e_mask_q[i*W +: W] & e_recv_q[i*W +: W] & ~e_dn_q[i*W +: W] : '0;",
    "@M       if (e_kind_q[KB*i +: KB] == K_V) f_rmw = f_rmw | (e_mask_q[i*W +: W] & ~(e_st_q[i*W +: W] & ~e_dn_q[i*W +: W])); // a ReqS pending",
    "@M       o_m = e_kind_q[KB*i +: KB] == K_V ? e_st_q[i*W +: W] & ~e_dn_q[i*W +: W] : '0;",
    "@D       f_own = f_own | o_m;",
    "@D       for (w = 0; w < W; w = w + 1)",
    "@D         if (o_m[w]) f_owndata[w*WB +: WB] = e_data_q[(i*W + w)*WB +: WB];",
    "@D       if (e_kind_q[KB*i +: KB] == K_WB) begin",
    "@D         f_wbm = f_wbm | (fq_mask_q & e_mask_q[i*W +: W] & ~e_dn_q[i*W +: W]);",
    "@D         for (w = 0; w < W; w = w + 1)",
    "@D           if (fq_mask_q[w] && e_mask_q[i*W + w] && !e_dn_q[i*W + w])",
    "@D             f_wbdata[w*WB +: WB] = e_data_q[(i*W + w)*WB +: WB];",
    "@D       end",
    "@D     end",
    "@D     if (e_v_q[i] && e_dh[i]) begin",
    "@D       if (e_kind_q[KB*i +: KB] == K_OD) d_rmw = d_rmw | e_mask_q[i*W +: W];",
    "@N       if (ODATA && e_kind_q[KB*i +: KB] == K_V)",
    "@N         d_rmw = d_rmw | (e_rpw_q[i*W +: W] & e_mask_q[i*W +: W] & ~e_recv_q[i*W +: W]);",
    "@M       if (e_kind_q[KB*i +: KB] == K_V) d_rmw = d_rmw | (e_mask_q[i*W +: W] & ~(e_st_q[i*W +: W] & ~e_dn_q[i*W +: W]));",
    "@D     end",
    "@D   end",
    "@D   // an EVICT the cache handed over and not yet sent counts as a pending ReqWB",
    "@D   if (cq_v_q && cq_type_q == 3'd5 && fq_cq_q) begin",
    "@D     f_wbm = f_wbm | (fq_mask_q & cq_mask_q);",
    "@D     for (w = 0; w < W; w = w + 1)",
    "@D       if (fq_mask_q[w] && cq_mask_q[w]) f_wbdata[w*WB +: WB] = cq_data_q[w*WB +: WB];",
    "@D   end",
    "@D end",
    "",
    "// the response's data merged; a read's fill with the buffered stores over it",
    "always @* begin",
    "@GN  f_hit = 1'b0; f_idx = '0;",
    "@GN  for (i = B - 1; i >= 0; i = i - 1)",
    "@GN    if (b_v_q[i] && m_b[i]) begin",
    "@GN      f_hit = 1'b1; f_idx = i[BI-1:0];",
    "@GN    end",
    "  m_merged = m_data;",
    "  for (w = 0; w < W; w = w + 1)",
    "@G    if (rq_mask_q[w] && (rq_type_q == 4'd0 || rq_type_q == 4'd4)) m_merged[w*WB +: WB] = rq_data_q[w*WB +: WB];",
    "@N    if (rq_mask_q[w] && (rq_type_q == 4'd0 || rq_type_q == 4'd4 || rq_type_q == 4'd5))",
    "@N      m_merged[w*WB +: WB] = rq_data_q[w*WB +: WB];",
    "@M    // (a store's words keep the store's data)",
    "@M    if (rq_mask_q[w] && rq_type_q != 4'd6 && rq_type_q != 4'd9 && !(m_st[w] && !m_fl[3]))",
    "@M      m_merged[w*WB +: WB] = rq_data_q[w*WB +: WB];",
    "@GN  fill_data = m_merged;",
    "@GN  for (i = 0; i < B; i = i + 1)",
    "@GN    if (f_hit && f_idx == i[BI-1:0])",
    "@GN      for (w = 0; w < W; w = w + 1)",
    "@GN        if (b_mask_q[i*W + w] && m_mask[w]) fill_data[w*WB +: WB] = b_data_q[(i*W + w)*WB +: WB];",
    "@M  // the atomic performed on the line: every entry's op on its one word (the",
    "@M  // response's if it brings the word), beside the match, the matched one's taken",
    "@M  a_res = '0; m_ares = '0;",
    "@M  for (i = 0; i < M; i = i + 1) begin",
    "@M    a_old = '0;",
    "@M    for (w = 0; w < W; w = w + 1)",
    "@M      if (e_st_q[i*W + w])",
    "@M        a_old = a_old | (rq_mask_q[w] && rq_type_q != 4'd6 && rq_type_q != 4'd9 ? rq_data_q[w*WB +: WB] :",
    "@M                         e_data_q[(i*W + w)*WB +: WB]);",
    "@M    a_res[i*WB +: WB] = op_apply(e_op_q[i*3 +: 3], a_old, e_opd_q[i*WB +: WB]);",
    "@M    if (m_idx == i[MI-1:0]) m_ares = a_res[i*WB +: WB];",
    "@M  end",
    "@M  m_res = m_merged;",
    "@M  for (w = 0; w < W; w = w + 1)",
    "@M    if (m_fl[3] && m_st[w]) m_res[w*WB +: WB] = m_ares;",
    "end",
    "",
    "// ---------------------------------------------------------------- the action",
    "logic m_done, rsp_bad, f_bad, c_bad, c_ok, probing;",
    "@GN logic can_rsp, can_fwd, can_rs, can_fl, can_cq;",
    "@M logic can_rsp, can_fwd, can_rs, can_cq;",
    "@GN logic a_pdb, a_rsp, a_fwd, a_rs, a_fl, a_cq, a_bad;",
    "@M logic a_pdb, a_rsp, a_fwd, a_rs, a_cq, a_bad;",
    "@D logic m_co, can_rp, a_rp, f_down;",
    "@D logic [W-1:0] f_now, f_later, f_ow, f_pm, f_held, f_rest, f_vnack, f_dly;",
    "@M logic m_own, m_fill, m_conv, f_wbk_go, r_rel;",
    "@M logic [3:0] m_fl2;",
    "@M logic [W-1:0] f_wbk, m_ow;",
    "always @* begin",
    "@G  probing = 1'b0;",
    "@D  probing = fq_v_q && fq_ph_q == 2'd1;",
    "  m_done = (m_recv | rq_mask_q) == m_mask;",
    "@GN  rsp_bad = !m_any;",
    "@M  // a RspWB of no entry and of no entry's line: of the ReqWB a downgrade sent (the",
    "@M  // cache keeps the line in its write-back state until this releases it)",
    "@M  r_rel = rq_type_q == 4'd6 && !m_any && !rq_open;",
    "@M  rsp_bad = !m_any && !r_rel;",
    "@G  can_rsp = rq_v_q && (rsp_bad || rq_type_q == 4'd9 || !m_done || m_kind == K_WT || !co_v_q);",
    "@G  f_bad = fq_type_q != 3'd0 && fq_type_q != 3'd5;",
    "@G  can_fwd = fq_v_q && (f_bad || !oo_v_q);",
    "@D  // a completion the cache hears of: a fill, a value, words now owned",
    "@D  m_co = m_kind == K_V || m_kind == K_WTD || m_kind == K_OD || (m_kind == K_O && (m_mask & ~m_dn) != '0);",
    "@D  // a RspWB waits for a forward that came first and takes words from the write-back",
    "@N  can_rsp = rq_v_q && !probing && (rsp_bad || rq_type_q == 4'd9 || !m_done || !m_co || !co_v_q) &&",
    "@N            !(rq_type_q == 4'd6 && fq_v_q && fq_ph_q == 2'd0 && fq_rq_q && f_wbm != '0);",
    "@M  // (a release waits for a forward of its line in the buffer; with delayed ones, it",
    "@M  // is left to the last of them)",
    "@M  can_rsp = rq_v_q && !probing && (r_rel ? !(fq_v_q && fq_rq_q) && (r_back || !co_v_q) :",
    "@M            (rsp_bad || rq_type_q == 4'd9 || !m_done || !m_co || !co_v_q) &&",
    "@M            !(rq_type_q == 4'd6 && fq_v_q && fq_ph_q == 2'd0 && fq_rq_q && f_wbm != '0));",
    "@M  // MESI completion: the flags with this response; installed O (own), a FILL",
    "@M  // (installed S or O), the entry turned into the ReqWB of the words still owned",
    "@M  m_fl2 = m_fl | (rq_type_q == 4'd1 ? 4'b0010 : rq_type_q == 4'd5 ? 4'b0001 : 4'b0011);",
    "@M  m_own = m_kind == K_OD || !m_fl2[1];",
    "@M  m_fill = m_dn == '0 && (m_kind == K_V ? m_own || (!m_fl2[0] && !m_fl2[2]) : !m_fl[3]);",
    "@M  // the words still owned: the line (E/M asked), or a ReqS's words that came by",
    "@M  // RspO+data; a ReqWB of them when the line is not installed owned",
    "@M  m_ow = (m_own ? '1 : m_st | (rq_type_q == 4'd5 ? rq_mask_q : '0)) & ~m_dn;",
    "@M  m_conv = m_co && m_ow != '0 && (m_dn != '0 || !m_own);",
    "@D  // the forward's words: from a write-back, at once on a pending ReqO+data (FwdReqO),",
    "@D  // delayed, probed; after the probe, those the cache held and the rest",
    "@D  f_down = fq_type_q != 3'd0;",
    "@D  // (a word probed stays probed: a re-send may have made it a pending ReqO+data meanwhile)",
    "@D  f_now = fq_type_q == 3'd2 ? f_rmw & fq_mask_q & ~(fq_ph_q == 2'd1 ? fq_pm_q : '0) : '0;",
    "@D  f_later = (fq_type_q == 3'd2 ? (fq_rp_q ? '0 : f_back) & fq_mask_q & ~f_rmw & ~f_wbm",
    "@D                               : (f_rmw | (fq_rp_q ? '0 : f_back)) & fq_mask_q & ~f_wbm) &",
    "@D            ~(fq_ph_q == 2'd1 ? fq_pm_q : '0);",
    "@D  // a pending read's words already owned: answered at once from the entry's data",
    "@D  f_ow = f_own & fq_mask_q & ~f_wbm & ~f_later & ~(fq_ph_q == 2'd1 ? fq_pm_q : '0);",
    "@D  f_pm = fq_ph_q == 2'd1 ? fq_pm_q : fq_mask_q & ~f_wbm & ~f_now & ~f_ow & ~f_later;",
    "@D  f_held = fq_ph_q == 2'd1 ? pd_mask_q & fq_pm_q : '0;",
    "@D  f_rest = f_pm & ~f_held;",
    "@D  // a FwdReqV that would take the ring's last free slot is Nacked instead (spec 4",
    "@D  // case 4); the slot is kept for a downgrade, so FwdReqVs never fill the ring",
    "@D  f_vnack = fq_type_q == 3'd0 && df_last ? f_later : '0;",
    "@D  f_dly = f_later & ~f_vnack;",
    "@M  // MESI: the line's other words, when the cache gave the whole line (E/M), leave by",
    "@M  // a ReqWB (not after a FwdReqS of the whole line, which leaves it Shared); words of",
    "@M  // part of the line come from the cache's write-back state and count as written back",
    "@M  f_wbk = fq_ph_q == 2'd1 ? pd_mask_q & ~fq_pm_q : '0;",
    "@M  f_wbk_go = f_down && f_held != '0 && f_wbk != '0 && pd_mask_q == '1 && !(fq_type_q == 3'd1 && f_held == '1);",
    "@D  f_bad = fq_ph_q == 2'd0 && fq_type_q > 3'd5;",
    "@D  case (fq_ph_q)",
    "@D    2'd2: can_fwd = fq_v_q && !oo_v_q;",
    "@N    2'd1: can_fwd = fq_v_q && pd_v_q;",
    "@M    // (MESI: a release to the cache, a downgrade's ReqWB may follow the answer)",
    "@M    2'd1: can_fwd = fq_v_q && pd_v_q && !(fq_rel_q && co_v_q) && !(fq_type_q >= 3'd1 && fq_type_q <= 3'd4 && ro_v_q);",
    "@N    default: can_fwd = fq_v_q && (f_bad || (fq_type_q == 3'd5 ? !oo_v_q : f_pm == '0 || (!pr_v_q && !co_v_q)));",
    "@M    // (MESI: an Inv probes too; a forward answered without a probe may release a line)",
    "@M    default: can_fwd = fq_v_q && (f_bad || (fq_type_q == 3'd5 ? !pr_v_q && !co_v_q :",
    "@M                      f_pm == '0 ? !(fq_rel_q && co_v_q) : !pr_v_q && !co_v_q));",
    "@D  endcase",
    "@D  can_rp = !fq_v_q && d_v && !co_v_q && (d_rmw & d_mask) == '0;",
    "  can_rs = !ro_v_q && s_any;",
    "@G  can_fl = h_v && !ro_v_q && free_any && (h_busy & h_mask) == '0 &&",
    "@G           !(cq_v_q && cq_type_q == 3'd1 && (cq_hit || !wb_full)) &&",
    "@G           !(cq_v_q && cq_type_q == 3'd0 && !cq_hit);",
    "@N  // a line whose stores all went with answers is dropped at once",
    "@N  can_fl = h_v && (h_mask == '0 || (!ro_v_q && free_any && (h_busy & h_mask) == '0 && (h_fw & h_mask) == '0 &&",
    "@N           !(cq_v_q && cq_type_q == 3'd1 && (cq_hit || !wb_full)) &&",
    "@N           !(cq_v_q && cq_type_q == 3'd0 && !cq_hit)));",
    "  c_bad = cq_type_q > 3'd5 || (cq_type_q <= 3'd2 && cq_mask_q == '0);",
    "@M  c_bad = c_bad || (cq_type_q == 3'd2 && (cq_mask_q & (cq_mask_q - 1'b1)) != '0); // an atomic: one word",
    "  case (cq_type_q)",
    "@G    3'd0: c_ok = !cq_hit && !cq_open && !ro_v_q && free_any;",
    "@Y    3'd0: c_ok = (cq_busy & cq_mask_q) == '0 && !ro_v_q && free_any;",
    "@X    3'd0: c_ok = (cq_busy & cq_mask_q) == '0 && !cq_rd && !ro_v_q && free_any; // one read a line",
    "@GN    3'd1: c_ok = cq_hit || !wb_full;",
    "@M    3'd0, 3'd1, 3'd2: c_ok = !cq_open && !ro_v_q && free_any; // one request a line",
    "@G    3'd2: c_ok = !h_v && (cq_busy & cq_mask_q) == '0 && !ro_v_q && free_any;",
    "@N    3'd2: c_ok = !h_v && (cq_busy & cq_mask_q) == '0 && !ro_v_q && free_any && (c_fw & cq_mask_q) == '0;",
    "@GN    3'd3: c_ok = !h_v && !co_v_q;",
    "@M    3'd3: c_ok = !co_v_q;",
    "@GN    3'd4: c_ok = !h_v && !writes_open && !co_v_q;",
    "@M    3'd4: c_ok = !writes_open && !co_v_q;",
    "@N    3'd5: c_ok = !co_v_q && (cq_mask_q == '0 || ((cq_busy & cq_mask_q) == '0 && !ro_v_q && free_any));",
    "@M    3'd5: c_ok = !co_v_q && (cq_mask_q == '0 || (!cq_open && !ro_v_q && free_any));",
    "    default: c_ok = !co_v_q;",
    "  endcase",
    "@GN  can_cq = cq_v_q && (c_bad || c_ok);",
    "@M  can_cq = cq_v_q && !probing && (c_bad || c_ok); // none taken while a probe is out",
    "  a_pdb = pd_v_q && !probing;",
    "  a_rsp = !a_pdb && can_rsp;",
    "  a_fwd = !a_pdb && !a_rsp && can_fwd;",
    "@G  a_rs = !a_pdb && !a_rsp && !a_fwd && can_rs;",
    "@G  a_fl = !a_pdb && !a_rsp && !a_fwd && !can_rs && can_fl;",
    "@G  a_cq = !a_pdb && !a_rsp && !a_fwd && !can_rs && !can_fl && can_cq;",
    "@D  a_rp = !a_pdb && !a_rsp && !a_fwd && can_rp;",
    "@D  a_rs = !a_pdb && !a_rsp && !a_fwd && !can_rp && can_rs;",
    "@N  a_fl = !a_pdb && !a_rsp && !a_fwd && !can_rp && !can_rs && can_fl;",
    "@N  a_cq = !a_pdb && !a_rsp && !a_fwd && !can_rp && !can_rs && !can_fl && can_cq;",
    "@M  a_cq = !a_pdb && !a_rsp && !a_fwd && !can_rp && !can_rs && can_cq;",
    "  a_bad = a_pdb || (a_rsp && rsp_bad) || (a_fwd && f_bad) || (a_cq && c_bad);",
    "end",
    "",
    "@G assign c_req_ready_o = (!cq_v_q || a_cq) && !probing;",
    "@D // nor in the cycle a fresh forward is handled (it may send a probe)",
    "@D assign c_req_ready_o = (!cq_v_q || a_cq) && !probing && !(a_fwd && fq_ph_q == 2'd0) && !d_v;",
    "assign rsp_ready_o = !rq_v_q || a_rsp;",
    "@G assign fwd_ready_o = !fq_v_q || a_fwd;",
    "@D // no forward taken while a delayed one comes back or every slot is taken",
    "@D assign fwd_ready_o = !fq_v_q && !can_rp && !df_full;",
    "assign c_pdat_ready_o = !pd_v_q;",
    "",
    "// ---------------------------------------------------------------- next state",
    "always @* begin",
    "  cq_v_d = cq_v_q; cq_type_d = cq_type_q; cq_line_d = cq_line_q; cq_mask_d = cq_mask_q; cq_op_d = cq_op_q;",
    "  cq_data_d = cq_data_q;",
    "  rq_v_d = rq_v_q; rq_type_d = rq_type_q; rq_line_d = rq_line_q; rq_mask_d = rq_mask_q; rq_data_d = rq_data_q;",
    "  fq_v_d = fq_v_q; fq_type_d = fq_type_q; fq_line_d = fq_line_q; fq_mask_d = fq_mask_q; fq_req_d = fq_req_q;",
    "  pd_v_d = pd_v_q;",
    "@D  fq_rp_d = fq_rp_q; fq_ph_d = fq_ph_q; fq_todo_d = fq_todo_q; fq_pm_d = fq_pm_q; fq_ans_d = fq_ans_q;",
    "@D  fq_nack_d = fq_nack_q; fq_data_d = fq_data_q; pd_mask_d = pd_mask_q; pd_data_d = pd_data_q;",
    "@D  pr_v_d = pr_v_q; pr_down_d = pr_down_q; pr_line_d = pr_line_q; pr_mask_d = pr_mask_q;",
    "@D  co_own_d = co_own_q; oo_data_d = oo_data_q; e_dn_d = e_dn_q;",
    "@M  e_st_d = e_st_q; e_op_d = e_op_q; e_fl_d = e_fl_q; e_opd_d = e_opd_q; fq_rel_d = fq_rel_q; df_rel_d = df_rel_q;",
    "@D  df_v_d = df_v_q; df_type_d = df_type_q; df_req_d = df_req_q; df_line_d = df_line_q; df_mask_d = df_mask_q;",
    "@D  dh_d = dh_q; dt_d = dt_q;",
    "  ro_v_d = ro_v_q; ro_type_d = ro_type_q; ro_line_d = ro_line_q; ro_mask_d = ro_mask_q; ro_op_d = ro_op_q;",
    "  ro_data_d = ro_data_q;",
    "  oo_v_d = oo_v_q; oo_type_d = oo_type_q; oo_llc_d = oo_llc_q; oo_dst_d = oo_dst_q; oo_line_d = oo_line_q;",
    "  oo_mask_d = oo_mask_q;",
    "  co_v_d = co_v_q; co_type_d = co_type_q; co_line_d = co_line_q; co_mask_d = co_mask_q; co_data_d = co_data_q;",
    "  e_v_d = e_v_q; e_snd_d = e_snd_q; e_kind_d = e_kind_q; e_nk_d = e_nk_q; e_line_d = e_line_q;",
    "  e_mask_d = e_mask_q; e_recv_d = e_recv_q; e_rtr_d = e_rtr_q; e_rpw_d = e_rpw_q; e_data_d = e_data_q;",
    "@GN  b_v_d = b_v_q; b_line_d = b_line_q; b_mask_d = b_mask_q; b_data_d = b_data_q; wh_d = wh_q; wt_d = wt_q;",
    "  err_d = err_q;",
    "  if (ro_v_q && req_ready_i) ro_v_d = 1'b0;",
    "  if (oo_v_q && out_ready_i) oo_v_d = 1'b0;",
    "  if (co_v_q && c_rsp_ready_i) co_v_d = 1'b0;",
    "@D  if (pr_v_q && c_prb_ready_i) pr_v_d = 1'b0;",
    "  if (a_bad) begin",
    "    err_d = 1'b1;",
    "    if (a_pdb) pd_v_d = 1'b0;",
    "@D    if (a_fwd) fq_v_d = 1'b0;",
    "@G  end else if (a_rsp) begin",
    "@G    if (rq_type_q != 4'd9 && m_done && m_kind != K_WT) begin",
    "@G      co_v_d = 1'b1; co_type_d = m_kind == K_V ? 2'd0 : 2'd1; co_line_d = m_line; co_mask_d = m_mask;",
    "@G      co_data_d = m_kind == K_V ? fill_data : m_merged;",
    "@G    end",
    "@N  end else if (a_rsp) begin",
    "@N    if (rq_type_q != 4'd9 && m_done && m_co) begin",
    "@N      // FILL (owned: odata replacements), VALUE (owned: a ReqO+data's word), OWN",
    "@N      co_v_d = 1'b1; co_line_d = m_line;",
    "@N      co_type_d = m_kind == K_V ? 2'd0 : m_kind == K_O ? 2'd3 : 2'd1;",
    "@Y      co_mask_d = m_kind == K_O ? m_mask & ~m_dn : m_mask;",
    "@X      co_mask_d = m_kind == K_O ? m_mask & ~m_dn : m_kind == K_V ? m_mask | rq_x : m_mask; // extra words",
    "@N      co_data_d = m_kind == K_V ? fill_data : m_kind == K_O ? '0 : m_merged;",
    "@N      co_own_d = m_kind == K_V ? (ODATA ? m_rpw & ~m_dn : '0) : m_kind == K_WTD ? '0 : m_mask & ~m_dn;",
    "@N    end",
    "@M  end else if (a_rsp && r_rel) begin",
    "@M    // the RspWB of a downgrade's ReqWB: the cache's write-back line released, or",
    "@M    // (delayed requests name it) after the last of them",
    "@M    if (r_back) begin",
    "@M      for (i = 0; i < D; i = i + 1)",
    "@M        if (df_v_q[i] && df_rq_q[i]) df_rel_d[i] = 1'b1;",
    "@M    end else begin",
    "@M      co_v_d = 1'b1; co_type_d = 2'd3; co_line_d = rq_line_q; co_mask_d = '0; co_data_d = '0; co_own_d = '0;",
    "@M    end",
    "@M  end else if (a_rsp) begin",
    "@M    if (rq_type_q != 4'd9 && m_done && m_co) begin",
    "@M      // FILL: the line installed S, or O (own); VALUE: the waiting operation's answer",
    "@M      // (a read used once; an atomic's old values, installed O with own, the cache",
    "@M      // applying the op; a store or atomic whose line an owner took meanwhile)",
    "@M      co_v_d = 1'b1; co_line_d = m_line; co_type_d = m_fill ? 2'd0 : 2'd1;",
    "@M      co_mask_d = m_kind == K_V || m_fill ? '1 : m_st;",
    "@M      co_data_d = m_merged; // (a store's words keep its data; an atomic's, the old value)",
    "@M      co_own_d = m_own && m_dn == '0 ? '1 : '0;",
    "@M    end",
    "    for (i = 0; i < M; i = i + 1)",
    "      if (m_idx == i[MI-1:0]) begin",
    "        if (rq_type_q == 4'd9) begin",
    "          // a Nack: its words re-sent (a retry, or the replacement)",
    "          e_rtr_d[i*W +: W] = e_rtr_q[i*W +: W] | rq_mask_q;",
    "          e_snd_d[i] = 1'b1;",
    "          if (e_nk_q[i*4 +: 4] != 4'd15) e_nk_d[i*4 +: 4] = e_nk_q[i*4 +: 4] + 4'd1;",
    "        end else if (m_done) begin",
    "          e_v_d[i] = 1'b0; e_snd_d[i] = 1'b0; e_kind_d[i*KB +: KB] = '0; e_nk_d[i*4 +: 4] = '0;",
    "          e_line_d[i*LB +: LB] = '0; e_mask_d[i*W +: W] = '0; e_recv_d[i*W +: W] = '0;",
    "          e_rtr_d[i*W +: W] = '0; e_rpw_d[i*W +: W] = '0;",
    "@D          e_dn_d[i*W +: W] = '0;",
    "@M          e_st_d[i*W +: W] = '0; e_op_d[i*3 +: 3] = '0; e_fl_d[i*4 +: 4] = '0;",
    "@M          if (m_kind == K_WB && r_back) begin",
    "@M            // answered, kept until no delayed request names the line",
    "@M            e_v_d[i] = 1'b1; e_kind_d[i*KB +: KB] = K_WB; e_line_d[i*LB +: LB] = m_line;",
    "@M            e_mask_d[i*W +: W] = m_mask; e_recv_d[i*W +: W] = m_mask; e_dn_d[i*W +: W] = m_dn; // (its data kept)",
    "@M          end",
    "@M          if (m_conv) begin",
    "@M            // the words still owned leave by ReqWB, the store or atomic performed",
    "@M            e_v_d[i] = 1'b1; e_snd_d[i] = 1'b1; e_kind_d[i*KB +: KB] = K_WB; e_line_d[i*LB +: LB] = m_line;",
    "@M            e_mask_d[i*W +: W] = m_ow;",
    "@M            for (w = 0; w < W; w = w + 1)",
    "@M              e_data_d[(i*W + w)*WB +: WB] = m_ow[w] ? m_res[w*WB +: WB] : '0;",
    "@M          end",
    "        end else begin",
    "          e_recv_d[i*W +: W] = m_recv | rq_mask_q;",
    "          e_data_d[i*W*WB +: W*WB] = m_merged;",
    "@M          e_fl_d[i*4 +: 4] = m_fl2;",
    "@M          // a ReqS's words that came by RspO+data (option 3): this device's",
    "@M          if (m_kind == K_V && rq_type_q == 4'd5) e_st_d[i*W +: W] = m_st | rq_mask_q;",
    "        end",
    "      end",
    "@G  end else if (a_fwd) begin",
    "@G    // GPU coherence owns nothing: a FwdReqV gets a Nack, an Inv an Ack",
    "@G    oo_v_d = 1'b1; oo_line_d = fq_line_q; oo_mask_d = fq_mask_q;",
    "@G    oo_type_d = fq_type_q == 3'd0 ? 4'd9 : 4'd8;",
    "@G    oo_llc_d = fq_type_q != 3'd0;",
    "@G    oo_dst_d = fq_type_q == 3'd0 ? fq_req_q : '0;",
    "@D  end else if (a_fwd && fq_ph_q == 2'd2) begin",
    "@D    // the answers leave one a cycle: the answer, RspRvkO (FwdReqS), the Nack",
    "@D    oo_v_d = 1'b1; oo_line_d = fq_line_q;",
    "@N    if (fq_todo_q[0]) begin",
    "@M    if (fq_type_q == 3'd5) begin",
    "@M      // MESI: the Inv's Ack, once its probe took the cache's Shared copy",
    "@M      oo_type_d = 4'd8; oo_llc_d = 1'b1; oo_dst_d = '0; oo_mask_d = fq_mask_q; oo_data_d = '0;",
    "@M      fq_todo_d = '0;",
    "@M    end else if (fq_todo_q[0]) begin",
    "@D      oo_mask_d = fq_ans_q; oo_data_d = fq_data_q;",
    "@D      oo_llc_d = fq_type_q == 3'd4; oo_dst_d = fq_type_q == 3'd4 ? '0 : fq_req_q;",
    "@D      case (fq_type_q)",
    "@D        3'd0: oo_type_d = 4'd0;",
    "@D        3'd1: oo_type_d = 4'd1;",
    "@D        3'd2: oo_type_d = 4'd3;",
    "@D        3'd3: oo_type_d = 4'd5;",
    "@D        default: oo_type_d = 4'd7;",
    "@D      endcase",
    "@D      fq_todo_d = fq_todo_q & 3'b110;",
    "@D    end else if (fq_todo_q[1]) begin",
    "@D      oo_type_d = 4'd7; oo_llc_d = 1'b1; oo_dst_d = '0; oo_mask_d = fq_ans_q; oo_data_d = fq_data_q;",
    "@D      fq_todo_d = fq_todo_q & 3'b100;",
    "@D    end else begin",
    "@D      oo_type_d = 4'd9; oo_llc_d = 1'b0; oo_dst_d = fq_req_q; oo_mask_d = fq_nack_q; oo_data_d = '0;",
    "@D      fq_todo_d = '0;",
    "@D    end",
    "@D    if (fq_todo_d == '0) fq_v_d = 1'b0;",
    "@D  end else if (a_fwd && fq_ph_q == 2'd0 && fq_type_q == 3'd5) begin",
    "@N    // an Inv: Ack to the LLC (DeNovo keeps no Shared data)",
    "@N    oo_v_d = 1'b1; oo_type_d = 4'd8; oo_llc_d = 1'b1; oo_dst_d = '0; oo_line_d = fq_line_q;",
    "@N    oo_mask_d = fq_mask_q; oo_data_d = '0;",
    "@N    fq_v_d = 1'b0;",
    "@M    // an Inv: the cache drops a Shared copy (the probe keeps nothing, not down)",
    "@M    pr_v_d = 1'b1; pr_line_d = fq_line_q; pr_mask_d = '0; pr_down_d = 1'b0;",
    "@M    fq_pm_d = '0; fq_ph_d = 2'd1;",
    "@D  end else if (a_fwd && fq_ph_q == 2'd0 && f_pm != '0) begin",
    "@D    // the cache is asked for the words it holds (owned, or owned pending)",
    "@N    pr_v_d = 1'b1; pr_line_d = fq_line_q; pr_mask_d = f_pm; pr_down_d = f_down;",
    "@M    // MESI: the whole line; the mask is what the cache keeps: readable, all (FwdReqV;",
    "@M    // a FwdReqS of the whole line, to S); for a downgrade, the words it keeps in its",
    "@M    // write-back state for the ReqWB of the rest (none: to I)",
    "@M    pr_v_d = 1'b1; pr_line_d = fq_line_q; pr_down_d = f_down;",
    "@M    pr_mask_d = fq_type_q == 3'd0 || (fq_type_q == 3'd1 && f_pm == '1) ? '1 : ~f_pm;",
    "@D    fq_pm_d = f_pm; fq_ph_d = 2'd1;",
    "@D  end else if (a_fwd) begin",
    "@D    // every word known: answers set, downgrades marked, the rest delayed",
    "@D    if (fq_ph_q == 2'd1) pd_v_d = 1'b0;",
    "@M    // the last forward a RspWB waited for: the cache's write-back line released",
    "@M    if (fq_rel_q && !f_relb) begin",
    "@M      co_v_d = 1'b1; co_type_d = 2'd3; co_line_d = fq_line_q; co_mask_d = '0; co_data_d = '0; co_own_d = '0;",
    "@M    end",
    "@N    if (f_down && f_rest != '0) begin",
    "@M    if (fq_type_q == 3'd5) begin",
    "@M      // the Inv's probe answered: a ReqS pending installs I (X14); the Ack leaves",
    "@M      for (i = 0; i < M; i = i + 1)",
    "@M        if (e_v_q[i] && e_kind_q[KB*i +: KB] == K_V && e_fq_q[i])",
    "@M          e_fl_d[i*4 + 2] = 1'b1;",
    "@M      fq_ans_d = fq_mask_q; fq_nack_d = '0; fq_todo_d = 3'b001; fq_ph_d = 2'd2;",
    "@M    end else if (f_down && f_rest != '0) begin",
    "@D      err_d = 1'b1; fq_v_d = 1'b0;",
    "@D    end else begin",
    "@D      for (i = 0; i < M; i = i + 1)",
    "@D        if (f_down && e_v_q[i] && e_fq_q[i]) begin",
    "@D          if (e_kind_q[KB*i +: KB] == K_WB)",
    "@D            e_dn_d[i*W +: W] = e_dn_q[i*W +: W] | (f_wbm & e_mask_q[i*W +: W]);",
    "@D          else if (e_kind_q[KB*i +: KB] == K_O || e_kind_q[KB*i +: KB] == K_OD)",
    "@D            e_dn_d[i*W +: W] = e_dn_q[i*W +: W] | ((f_held | f_now) & e_mask_q[i*W +: W]);",
    "@N          else if (e_kind_q[KB*i +: KB] == K_V)",
    "@N            e_dn_d[i*W +: W] = e_dn_q[i*W +: W] | (((f_now & e_rpw_q[i*W +: W]) | f_ow) & e_mask_q[i*W +: W]);",
    "@M          else if (e_kind_q[KB*i +: KB] == K_V)",
    "@M            e_dn_d[i*W +: W] = e_dn_q[i*W +: W] | ((f_now | f_ow) & e_mask_q[i*W +: W]);",
    "@D        end",
    "@M      // the line's other owned words leave by a ReqWB straight from the cache's answer",
    "@M      // (the cache keeps them in its write-back state until the RspWB)",
    "@M      if (f_wbk_go) begin",
    "@M        ro_v_d = 1'b1; ro_type_d = 3'd6; ro_line_d = fq_line_q; ro_mask_d = f_wbk; ro_op_d = '0;",
    "@M        for (w = 0; w < W; w = w + 1)",
    "@M          ro_data_d[w*WB +: WB] = f_wbk[w] ? pd_data_q[w*WB +: WB] : '0;",
    "@M      end",
    "@N      // a buffered store's word went with the answer",
    "@N      for (i = 0; i < B; i = i + 1)",
    "@N        if (f_down && b_v_q[i] && b_fq_q[i])",
    "@N          b_mask_d[i*W +: W] = b_mask_q[i*W +: W] & ~f_held;",
    "@D      if (f_dly != '0) begin",
    "@D        for (i = 0; i < D; i = i + 1)",
    "@D          if (dt_q == i[DI-1:0]) begin",
    "@D            df_v_d[i] = 1'b1; df_type_d[i*3 +: 3] = fq_type_q; df_req_d[i*DB +: DB] = fq_req_q;",
    "@D            df_line_d[i*LB +: LB] = fq_line_q; df_mask_d[i*W +: W] = f_dly;",
    "@M            df_rel_d[i] = 1'b0;",
    "@D          end",
    "@D        dt_d = dt_q == D_LAST ? '0 : dt_q + 1'b1;",
    "@D      end",
    "@D      fq_ans_d = f_held | f_wbm | f_now | f_ow;",
    "@D      fq_nack_d = f_down ? '0 : f_rest | f_vnack;",
    "@D      fq_todo_d = {!f_down && (f_rest | f_vnack) != '0, fq_type_q == 3'd1 && (f_held | f_wbm | f_now | f_ow) != '0,",
    "@D                   (f_held | f_wbm | f_now | f_ow) != '0};",
    "@D      for (w = 0; w < W; w = w + 1)",
    "@D        fq_data_d[w*WB +: WB] = fq_type_q == 3'd2 ? '0 :",
    "@D                                f_wbm[w] ? f_wbdata[w*WB +: WB] :",
    "@D                                f_ow[w] ? f_owndata[w*WB +: WB] :",
    "@D                                f_held[w] ? pd_data_q[w*WB +: WB] : '0;",
    "@D      fq_ph_d = 2'd2;",
    "@D      if (fq_todo_d == '0) fq_v_d = 1'b0;",
    "@D    end",
    "@D  end else if (a_rp) begin",
    "@D    // the oldest delayed request comes back as a fresh forward",
    "@D    fq_v_d = 1'b1; fq_type_d = d_type; fq_req_d = d_req; fq_line_d = d_line; fq_mask_d = d_mask;",
    "@D    fq_rp_d = 1'b1; fq_ph_d = 2'd0; fq_todo_d = '0;",
    "@M    fq_rel_d = d_rel;",
    "@D    for (i = 0; i < D; i = i + 1)",
    "@D      if (dh_q == i[DI-1:0]) begin",
    "@D        df_v_d[i] = 1'b0; df_type_d[i*3 +: 3] = '0; df_req_d[i*DB +: DB] = '0; df_line_d[i*LB +: LB] = '0;",
    "@D        df_mask_d[i*W +: W] = '0;",
    "@M        df_rel_d[i] = 1'b0;",
    "@D      end",
    "@D    dh_d = dh_q == D_LAST ? '0 : dh_q + 1'b1;",
    "  end else if (a_rs) begin",
    "    ro_v_d = 1'b1; ro_line_d = s_line; ro_mask_d = s_rtr; ro_op_d = '0; ro_data_d = '0;",
    "@G    ro_type_d = s_nk >= NACK_LIMIT ? 3'd4 : 3'd0;",
    "@N    ro_type_d = s_nk >= NACK_LIMIT ? (ODATA ? 3'd5 : 3'd4) : 3'd0;",
    "@M    // MESI: a ReqS again or its replacement; a ReqWB an answer or a completion left",
    "@M    ro_type_d = s_kind == K_WB ? 3'd6 : s_nk >= NACK_LIMIT ? 3'd4 : 3'd1;",
    "@M    if (s_kind == K_WB) begin",
    "@M      ro_mask_d = s_mask; ro_data_d = s_data;",
    "@M    end",
    "    for (i = 0; i < M; i = i + 1)",
    "      if (s_idx == i[MI-1:0]) begin",
    "        if (s_nk >= NACK_LIMIT) e_rpw_d[i*W +: W] = e_rpw_q[i*W +: W] | s_rtr;",
    "        e_rtr_d[i*W +: W] = '0; e_snd_d[i] = 1'b0;",
    "      end",
    "@GN  end else if (a_fl) begin",
    "@G    // the oldest buffered line leaves as one ReqWT",
    "@N    // the oldest buffered line leaves as one ReqO (the cache holds the data)",
    "@GN    for (i = 0; i < M; i = i + 1)",
    "@G      if (free_idx == i[MI-1:0]) begin",
    "@N      if (h_mask != '0 && free_idx == i[MI-1:0]) begin",
    "@G        e_v_d[i] = 1'b1; e_kind_d[i*KB +: KB] = K_WT; e_line_d[i*LB +: LB] = h_line; e_mask_d[i*W +: W] = h_mask;",
    "@N        e_v_d[i] = 1'b1; e_kind_d[i*KB +: KB] = K_O; e_line_d[i*LB +: LB] = h_line; e_mask_d[i*W +: W] = h_mask;",
    "@N        e_dn_d[i*W +: W] = '0;",
    "@GN        e_snd_d[i] = 1'b0; e_nk_d[i*4 +: 4] = '0; e_recv_d[i*W +: W] = '0; e_rtr_d[i*W +: W] = '0;",
    "@GN        e_rpw_d[i*W +: W] = '0;",
    "@GN      end",
    "@G    ro_v_d = 1'b1; ro_type_d = 3'd2; ro_line_d = h_line; ro_mask_d = h_mask; ro_op_d = '0; ro_data_d = h_data;",
    "@N    if (h_mask != '0) begin",
    "@N      ro_v_d = 1'b1; ro_type_d = 3'd3; ro_line_d = h_line; ro_mask_d = h_mask; ro_op_d = '0; ro_data_d = '0;",
    "@N    end",
    "@GN    for (i = 0; i < B; i = i + 1)",
    "@GN      if (wh_q == i[BI-1:0]) begin",
    "@GN        b_v_d[i] = 1'b0; b_line_d[i*LB +: LB] = '0; b_mask_d[i*W +: W] = '0;",
    "@GN      end",
    "@GN    wh_d = wh_q == B_LAST ? '0 : wh_q + 1'b1;",
    "  end else if (a_cq) begin",
    "    case (cq_type_q)",
    "@GN      3'd0, 3'd2: begin",
    "@GN        for (i = 0; i < M; i = i + 1)",
    "@GN          if (free_idx == i[MI-1:0]) begin",
    "@G            e_v_d[i] = 1'b1; e_kind_d[i*KB +: KB] = cq_type_q == 3'd0 ? K_V : K_WTD;",
    "@N            e_v_d[i] = 1'b1; e_kind_d[i*KB +: KB] = cq_type_q == 3'd0 ? K_V : ODATA ? K_OD : K_WTD;",
    "@N            e_dn_d[i*W +: W] = '0;",
    "@GN            e_line_d[i*LB +: LB] = cq_line_q; e_mask_d[i*W +: W] = cq_mask_q;",
    "@GN            e_snd_d[i] = 1'b0; e_nk_d[i*4 +: 4] = '0; e_recv_d[i*W +: W] = '0; e_rtr_d[i*W +: W] = '0;",
    "@GN            e_rpw_d[i*W +: W] = '0;",
    "@GN          end",
    "@GN        ro_v_d = 1'b1; ro_line_d = cq_line_q; ro_mask_d = cq_mask_q;",
    "@G        ro_type_d = cq_type_q == 3'd0 ? 3'd0 : 3'd4;",
    "@G        ro_op_d = cq_type_q == 3'd0 ? 3'd0 : cq_op_q;",
    "@G        ro_data_d = cq_type_q == 3'd0 ? '0 : cq_data_q;",
    "@N        ro_type_d = cq_type_q == 3'd0 ? 3'd0 : ODATA ? 3'd5 : 3'd4;",
    "@N        ro_op_d = cq_type_q == 3'd0 ? 3'd0 : cq_op_q;",
    "@N        ro_data_d = cq_type_q == 3'd0 || ODATA ? '0 : cq_data_q;",
    "@GN      end",
    "@GN      3'd1: begin",
    "@GN        for (i = 0; i < B; i = i + 1)",
    "@GN          if (cq_hit && cq_hit_idx == i[BI-1:0]) begin",
    "@GN            b_mask_d[i*W +: W] = b_mask_q[i*W +: W] | cq_mask_q;",
    "@GN            for (w = 0; w < W; w = w + 1)",
    "@GN              if (cq_mask_q[w]) b_data_d[(i*W + w)*WB +: WB] = cq_data_q[w*WB +: WB];",
    "@GN          end else if (!cq_hit && wt_q == i[BI-1:0]) begin",
    "@GN            b_v_d[i] = 1'b1; b_line_d[i*LB +: LB] = cq_line_q; b_mask_d[i*W +: W] = cq_mask_q;",
    "@GN          end",
    "@GN        if (!cq_hit) wt_d = wt_q == B_LAST ? '0 : wt_q + 1'b1;",
    "@GN      end",
    "@M      3'd0, 3'd1, 3'd2: begin",
    "@M        // a read miss by ReqS, a store or an atomic by ReqO+data, of the whole line",
    "@M        for (i = 0; i < M; i = i + 1)",
    "@M          if (free_idx == i[MI-1:0]) begin",
    "@M            e_v_d[i] = 1'b1; e_kind_d[i*KB +: KB] = cq_type_q == 3'd0 ? K_V : K_OD;",
    "@M            e_line_d[i*LB +: LB] = cq_line_q; e_mask_d[i*W +: W] = '1; e_dn_d[i*W +: W] = '0;",
    "@M            e_snd_d[i] = 1'b0; e_nk_d[i*4 +: 4] = '0; e_recv_d[i*W +: W] = '0; e_rtr_d[i*W +: W] = '0;",
    "@M            e_rpw_d[i*W +: W] = '0;",
    "@M            e_st_d[i*W +: W] = cq_type_q == 3'd0 ? '0 : cq_mask_q;",
    "@M            e_op_d[i*3 +: 3] = cq_type_q == 3'd2 ? cq_op_q : 3'd0;",
    "@M            e_fl_d[i*4 +: 4] = cq_type_q == 3'd2 ? 4'b1000 : 4'b0000;",
    "@M          end",
    "@M        ro_v_d = 1'b1; ro_line_d = cq_line_q; ro_mask_d = '1; ro_op_d = '0; ro_data_d = '0;",
    "@M        ro_type_d = cq_type_q == 3'd0 ? 3'd1 : 3'd5;",
    "@M      end",
    "@D      3'd5: begin",
    "@D        // an eviction: the owned words leave by ReqWB, kept in the entry until RspWB",
    "@D        co_v_d = 1'b1; co_type_d = 2'd2; co_line_d = cq_line_q; co_mask_d = '0; co_data_d = '0; co_own_d = '0;",
    "@D        if (cq_mask_q != '0) begin",
    "@D          for (i = 0; i < M; i = i + 1)",
    "@D            if (free_idx == i[MI-1:0]) begin",
    "@D              e_v_d[i] = 1'b1; e_kind_d[i*KB +: KB] = K_WB; e_line_d[i*LB +: LB] = cq_line_q;",
    "@D              e_mask_d[i*W +: W] = cq_mask_q; e_dn_d[i*W +: W] = '0;",
    "@D              e_snd_d[i] = 1'b0; e_nk_d[i*4 +: 4] = '0; e_recv_d[i*W +: W] = '0; e_rtr_d[i*W +: W] = '0;",
    "@D              e_rpw_d[i*W +: W] = '0;",
    "@D            end",
    "@D          ro_v_d = 1'b1; ro_type_d = 3'd6; ro_line_d = cq_line_q; ro_mask_d = cq_mask_q; ro_op_d = '0;",
    "@D          for (w = 0; w < W; w = w + 1)",
    "@D            ro_data_d[w*WB +: WB] = cq_mask_q[w] ? cq_data_q[w*WB +: WB] : '0;",
    "@D        end",
    "@D      end",
    "      default: begin",
    "        co_v_d = 1'b1; co_type_d = 2'd2; co_line_d = cq_line_q; co_mask_d = '0; co_data_d = '0;",
    "@D        co_own_d = '0;",
    "      end",
    "    endcase",
    "  end",
    "@M  // a ReqWB answered frees its entry once no delayed or buffered forward names its line",
    "@M  for (i = 0; i < M; i = i + 1)",
    "@M    if (e_v_q[i] && e_kind_q[KB*i +: KB] == K_WB && e_recv_q[i*W +: W] == e_mask_q[i*W +: W] && !e_back[i] &&",
    "@M        !(fq_v_q && e_fq_q[i])) begin",
    "@M      e_v_d[i] = 1'b0; e_snd_d[i] = 1'b0; e_kind_d[i*KB +: KB] = '0; e_nk_d[i*4 +: 4] = '0;",
    "@M      e_line_d[i*LB +: LB] = '0; e_mask_d[i*W +: W] = '0; e_recv_d[i*W +: W] = '0; e_rtr_d[i*W +: W] = '0;",
    "@M      e_rpw_d[i*W +: W] = '0; e_dn_d[i*W +: W] = '0;",
    "@M    end",
    "  // a free entry's data (MESI: and operand) is never read: it holds what a new entry",
    "  // for the buffered cache request starts with (an EVICT's words, MESI a store's;",
    "  // else zeros), so that only responses write a valid entry's; a free write-buffer",
    "  // line's data, the buffered store's words",
    "  for (i = 0; i < M; i = i + 1)",
    "    if (!e_v_q[i])",
    "      for (w = 0; w < W; w = w + 1) begin",
    "@G        e_data_d[(i*W + w)*WB +: WB] = '0;",
    "@N        e_data_d[(i*W + w)*WB +: WB] = cq_type_q == 3'd5 && cq_mask_q[w] ? cq_data_q[w*WB +: WB] : '0;",
    "@M        e_data_d[(i*W + w)*WB +: WB] = (cq_type_q == 3'd1 || cq_type_q == 3'd5) && cq_mask_q[w] ?",
    "@M                                       cq_data_q[w*WB +: WB] : '0;",
    "@M        if (w == 0) e_opd_d[i*WB +: WB] = '0;",
    "@M        if (cq_type_q == 3'd2 && cq_mask_q[w]) e_opd_d[i*WB +: WB] = cq_data_q[w*WB +: WB];",
    "      end",
    "@GN  for (i = 0; i < B; i = i + 1)",
    "@GN    if (!b_v_q[i])",
    "@GN      for (w = 0; w < W; w = w + 1)",
    "@GN        b_data_d[(i*W + w)*WB +: WB] = cq_mask_q[w] ? cq_data_q[w*WB +: WB] : '0;",
    "  if (a_rsp) rq_v_d = 1'b0;",
    "@G  if (a_fwd) fq_v_d = 1'b0;",
    "  if (a_cq) cq_v_d = 1'b0;",
    "  if (c_req_valid_i && c_req_ready_o) begin",
    "    cq_v_d = 1'b1; cq_type_d = c_req_type_i; cq_line_d = c_req_line_i; cq_mask_d = c_req_mask_i;",
    "    cq_op_d = c_req_op_i; cq_data_d = c_req_data_i;",
    "  end",
    "  if (rsp_valid_i && rsp_ready_o) begin",
    "    rq_v_d = 1'b1; rq_type_d = rsp_type_i; rq_line_d = rsp_line_i; rq_mask_d = rsp_mask_i;",
    "    rq_data_d = rsp_data_i;",
    "  end",
    "  if (fwd_valid_i && fwd_ready_o) begin",
    "    fq_v_d = 1'b1; fq_type_d = fwd_type_i; fq_line_d = fwd_line_i; fq_mask_d = fwd_mask_i; fq_req_d = fwd_req_i;",
    "@D    fq_rp_d = 1'b0; fq_ph_d = 2'd0; fq_todo_d = '0;",
    "@M    fq_rel_d = 1'b0;",
    "  end",
    "  if (c_pdat_valid_i && c_pdat_ready_o) begin",
    "    pd_v_d = 1'b1;",
    "@D    pd_mask_d = c_pdat_mask_i; pd_data_d = c_pdat_data_i;",
    "  end",
    "end",
    "",
    "// the line matches of the next cycle: a new entry takes the cache request's line",
    "// (or the flushed line), a new write-buffer line the cache request's, a new slot",
    "// the forward's; a buffer a new line (the forward buffer: or a delayed one's).",
    "// Each pair of lines is compared here from registers and inputs, and chosen after",
    "logic rq_ld, cq_ld;",
    "@D logic fq_ld;",
    "@GN integer k;",
    "always @* begin",
    "  rq_ld = rsp_valid_i && rsp_ready_o; cq_ld = c_req_valid_i && c_req_ready_o;",
    "@D  fq_ld = fwd_valid_i && fwd_ready_o;",
    "  for (i = 0; i < M; i = i + 1) begin",
    "    if (e_v_d[i] && !e_v_q[i]) begin",
    "@GN      e_rq_d[i] = a_fl ? (rq_ld ? h_line == rsp_line_i : h_line == rq_line_q) :",
    "@GN                         (rq_ld ? cq_line_q == rsp_line_i : cq_line_q == rq_line_q);",
    "@GN      e_cq_d[i] = a_fl ? (cq_ld ? h_line == c_req_line_i : h_line == cq_line_q) : (!cq_ld || cq_line_q == c_req_line_i);",
    "@N      e_fq_d[i] = a_fl ? (fq_ld ? h_line == fwd_line_i : h_line == fq_line_q) :",
    "@N                         (fq_ld ? cq_line_q == fwd_line_i : cq_line_q == fq_line_q);",
    "@N      for (w = 0; w < D; w = w + 1)",
    "@N        e_df_d[i*D + w] = a_fl ? h_line == df_line_q[w*LB +: LB] : cq_line_q == df_line_q[w*LB +: LB];",
    "@GN      for (k = 0; k < B; k = k + 1)",
    "@GN        e_b_d[i*B + k] = a_fl ? h_line == b_line_q[k*LB +: LB] : b_cq_q[k];",
    "@M      e_rq_d[i] = rq_ld ? cq_line_q == rsp_line_i : cq_line_q == rq_line_q;",
    "@M      e_cq_d[i] = !cq_ld || cq_line_q == c_req_line_i;",
    "@M      e_fq_d[i] = fq_ld ? cq_line_q == fwd_line_i : cq_line_q == fq_line_q;",
    "@M      for (w = 0; w < D; w = w + 1) e_df_d[i*D + w] = cq_line_q == df_line_q[w*LB +: LB];",
    "    end else begin",
    "      e_rq_d[i] = rq_ld ? e_line_q[i*LB +: LB] == rsp_line_i : e_rq_q[i];",
    "      e_cq_d[i] = cq_ld ? e_line_q[i*LB +: LB] == c_req_line_i : e_cq_q[i];",
    "@D      e_fq_d[i] = fq_ld ? e_line_q[i*LB +: LB] == fwd_line_i : a_rp ? e_dh[i] : e_fq_q[i];",
    "@D      for (w = 0; w < D; w = w + 1)",
    "@D        e_df_d[i*D + w] = df_v_d[w] && !df_v_q[w] ? e_fq_q[i] : e_df_q[i*D + w];",
    "@GN      for (k = 0; k < B; k = k + 1)",
    "@GN        e_b_d[i*B + k] = b_v_d[k] && !b_v_q[k] ? e_cq_q[i] : e_b_q[i*B + k];",
    "    end",
    "  end",
    "@D  // (a slot is written while the forward stays in its buffer)",
    "@D  for (w = 0; w < D; w = w + 1) begin",
    "@D    if (df_v_d[w] && !df_v_q[w]) begin",
    "@D      df_fq_d[w] = 1'b1;",
    "@N      df_cq_d[w] = cq_ld ? fq_line_q == c_req_line_i : fq_cq_q;",
    "@M      df_rq_d[w] = rq_ld ? fq_line_q == rsp_line_i : fq_rq_q;",
    "@D    end else begin",
    "@D      df_fq_d[w] = fq_ld ? df_line_q[w*LB +: LB] == fwd_line_i : a_rp ? df_line_q[w*LB +: LB] == d_line : df_fq_q[w];",
    "@N      df_cq_d[w] = cq_ld ? df_line_q[w*LB +: LB] == c_req_line_i : df_cq_q[w];",
    "@M      df_rq_d[w] = rq_ld ? df_line_q[w*LB +: LB] == rsp_line_i : df_rq_q[w];",
    "@D    end",
    "@D  end",
    "@D  if (fq_ld || a_rp) begin",
    "@D    fq_rq_d = rq_ld ? (fq_ld ? fwd_line_i == rsp_line_i : d_line == rsp_line_i) :",
    "@D                      (fq_ld ? fwd_line_i == rq_line_q : d_line == rq_line_q);",
    "@D    fq_cq_d = cq_ld ? (fq_ld ? fwd_line_i == c_req_line_i : d_line == c_req_line_i) :",
    "@D                      (fq_ld ? fwd_line_i == cq_line_q : d_line == cq_line_q);",
    "@D  end else begin",
    "@D    fq_rq_d = rq_ld ? fq_line_q == rsp_line_i : fq_rq_q;",
    "@D    fq_cq_d = cq_ld ? fq_line_q == c_req_line_i : fq_cq_q;",
    "@D  end",
    "@GN  for (k = 0; k < B; k = k + 1) begin",
    "@GN    if (b_v_d[k] && !b_v_q[k]) begin",
    "@GN      b_cq_d[k] = !cq_ld || cq_line_q == c_req_line_i;",
    "@N      b_fq_d[k] = fq_ld ? cq_line_q == fwd_line_i : fq_cq_q;",
    "@N      for (w = 0; w < D; w = w + 1) b_df_d[k*D + w] = cq_line_q == df_line_q[w*LB +: LB];",
    "@GN    end else begin",
    "@GN      b_cq_d[k] = cq_ld ? b_line_q[k*LB +: LB] == c_req_line_i : b_cq_q[k];",
    "@N      b_fq_d[k] = fq_ld ? b_line_q[k*LB +: LB] == fwd_line_i : a_rp ? b_line_q[k*LB +: LB] == d_line : b_fq_q[k];",
    "@N      for (w = 0; w < D; w = w + 1) b_df_d[k*D + w] = df_v_d[w] && !df_v_q[w] ? b_fq_q[k] : b_df_q[k*D + w];",
    "@GN    end",
    "@GN  end",
    "end",
    NULL};


/* Body line i for device kind k without its tag, or NULL when the line is
 * the other kind's. The text after a tag keeps its indentation; a single
 * space after the tag marks a line at the margin. X and Y: DeNovo with and
 * without --extra-words (x). */
static const char *body_line(unsigned i, spandex_tu_kind k, int x)
{
    const char *p = body[i], *t;
    int in = 0;
    if (p[0] != '@')
        return p;
    for (t = p + 1; *t && *t != ' '; t++)
        in |= (*t == 'G' && k == SPANDEX_TU_GPU) || (*t == 'D' && k != SPANDEX_TU_GPU) ||
              (*t == 'N' && k == SPANDEX_TU_DENOVO) || (*t == 'M' && k == SPANDEX_TU_MESI) ||
              (*t == 'X' && k == SPANDEX_TU_DENOVO && x) || (*t == 'Y' && k == SPANDEX_TU_DENOVO && !x);
    if (!in)
        return NULL;
    return t[0] == ' ' && t[1] != ' ' ? t + 1 : t;
}

/* --extra-words: a body line of the response's matching and merging with
 * the words the read waits for (rq_rm) for the response's mask (its data
 * still merged whole, for the extra words of the FILL). */
static void emit_extra_line(emit_file *e, const char *p)
{
    char buf[512];
    size_t n = 0;
    while (*p && n + 8 < sizeof buf) {
        if (strncmp(p, "rq_mask_q", 9) == 0) {
            memcpy(buf + n, "rq_rm", 5);
            n += 5;
            p += 9;
        } else {
            buf[n++] = *p++;
        }
    }
    buf[n] = '\0';
    emit(e, "%s", buf);
}

/* The registers of the body: every NAME_q its "logic" lines declare, each
 * reset to 0 (the timing shell's reset state). */
static void body_regs(prim_regs *l, spandex_tu_kind k, int x)
{
    unsigned i;
    memset(l, 0, sizeof *l);
    for (i = 0; body[i] != NULL; i++) {
        const char *p = body_line(i, k, x), *end;
        if (p == NULL)
            continue;
        if (strncmp(p, "logic", 5) != 0)
            continue;
        p += 5;
        if ((end = strchr(p, ']')) != NULL)
            p = end + 1;
        end = strchr(p, ';');
        while (p < end) {
            size_t n;
            p += strspn(p, " ,");
            n = strcspn(p, " ,;");
            if (n > 2 && n < 64 && strncmp(p + n - 2, "_q", 2) == 0) {
                char name[64];
                snprintf(name, sizeof name, "%.*s", (int)(n - 2), p);
                prim_reg(l, name, "'0");
            }
            p += n;
        }
    }
}

/* Formal properties (make formal-long, tb/formal-long.txt; docs/spandex.md):
 * p_hold_*: an output held under back-pressure keeps its valid and payload
 * (DeNovo: the probe too); p_word_*: one open request a word (spec 4's MSHR
 * rule), between every two entries of a line; p_ent_*: an entry's received,
 * re-sent and replaced words (DeNovo: and downgraded ones) are among its
 * requested ones, received and re-sent apart, a re-send pending exactly
 * when words wait for it; p_dfr_* (DeNovo): a delayed request names words,
 * and the ring is never full of FwdReqVs alone (emit_formal_ring);
 * p_err: err_o is sticky. MESI: p_own_* (no answer waits for the cache while a
 * probe is out or awaited, so a downgrade never overtakes the line it takes;
 * a line whose pending request lost words to a downgrade is never given
 * owned; a read not installed owned leaves the words it was given owned
 * to a ReqWB), p_wbk_* (a downgrade's probe tells the cache to keep, in its
 * write-back state, exactly the words it does not ask for; every word of the
 * whole line the cache gave a downgrade leaves by the forward's answer or by
 * the ReqWB of the rest, sent at once with the cache's data). */
/* DeNovo, MESI: the delayed ring is never full of FwdReqVs alone (p_dfr_dg:
 * a FwdReqV that would take the last free slot is Nacked, the slot kept for
 * a downgrade), with the invariants that make it inductive: the valid slots
 * are dh..dt-1 (all or none when dh == dt), and a forward not yet settled
 * has a free slot. */
static void emit_formal_ring(emit_file *e, const spandex_tuhw_cfg *c, const spandex_tuhw_geom *g)
{
    char all[1024];
    size_t n = 0;
    unsigned i, DI = g->dfr_bits;
    emit(e, "    s_dfr_ptr: assert(dh_q <= D_LAST && dt_q <= D_LAST);");
    for (i = 0; i < c->dfr; i++)
        emit(e, "    s_dfr_slot_%u: assert(df_v_q[%u] == (dh_q == dt_q ? d_v : dh_q < dt_q ? %u'd%u >= dh_q && "
                "%u'd%u < dt_q : %u'd%u >= dh_q || %u'd%u < dt_q));",
             i, i, DI, i, DI, i, DI, i, DI, i);
    emit(e, "    if (fq_v_q && fq_ph_q != 2'd2) s_dfr_room: assert(!df_full);");
    for (i = 0; i < c->dfr && n + 40 < sizeof all; i++)
        n += (size_t)snprintf(all + n, sizeof all - n, " && df_type_q[%u +: 3] == 3'd0", i * 3);
    emit(e, "    p_dfr_dg: assert(!(df_v_q == '1%s));", all);
}

/* MESI's sampled events of the formal block: a completion given to the cache
 * with downgraded words, a read used once with words given owned, a
 * downgrade's probe answer */
static void emit_formal_ms_samples(emit_file *e, const spandex_tuhw_geom *g)
{
    /* MESI: a completion given to the cache with downgraded words; a downgrade's
     * probe answer classified (the line, what the cache gave) */
    static const char *const samples_ms[] = {
        "f_fdn_q <= !a_bad && a_rsp && m_any && rq_type_q != 4'd9 && m_done && m_co && m_dn != '0",
        "f_dg_q <= !a_bad && a_fwd && fq_ph_q == 2'd1 && fq_type_q >= 3'd1 && fq_type_q <= 3'd4 && f_rest == '0",
        "f_dg_line_q <= fq_line_q",
        "f_dg_pd_q <= pd_mask_q",
        "f_dg_pdd_q <= pd_data_q",
        "f_fwb_q <= !a_bad && a_rsp && m_any && rq_type_q != 4'd9 && m_done && m_kind == K_V && "
        "!(m_own && m_dn == '0) && ((m_own ? '1 : m_st | (rq_type_q == 4'd5 ? rq_mask_q : '0)) & ~m_dn) != '0",
        "f_fwb_m_q <= (m_own ? '1 : m_st | (rq_type_q == 4'd5 ? rq_mask_q : '0)) & ~m_dn",
        "f_fwb_i_q <= m_idx",
        NULL};
    unsigned W = g->words, LB = g->laddr_bits, DW = g->words * g->word_bits, i;
    emit(e, "logic f_fdn_q, f_dg_q, f_fwb_q;");
    prim_decl(e, W, "f_fwb_m_q");
    prim_decl(e, g->mshr_bits, "f_fwb_i_q");
    prim_decl(e, LB, "f_dg_line_q");
    prim_decl(e, W, "f_dg_pd_q");
    prim_decl(e, DW, "f_dg_pdd_q");
    emit(e, "always @(posedge clk_i) begin");
    for (i = 0; samples_ms[i] != NULL; i++)
        emit(e, "  %s;", samples_ms[i]);
    emit(e, "end");
}

/* MESI's probe properties (p_own_prb, p_wbk_keep) and their strengthening
 * invariants */
static void emit_formal_ms_invariants(emit_file *e, const spandex_tuhw_cfg *c, const spandex_tuhw_geom *g)
{
    unsigned W = g->words, LB = g->laddr_bits, i, j;
    emit(e, "    // (a) no answer waits for the cache while a probe is out or its answer awaited:");
    emit(e, "    // the cache takes an owned line before a downgrade's probe asks for it");
    emit(e, "    if (fq_v_q && fq_ph_q == 2'd1) p_own_prb: assert(!c_rsp_valid_o);");
    emit(e, "    // (b) a downgrade's probe asks for words and has the cache keep the others in its");
    emit(e, "    // write-back state (all of them readable after a FwdReqS of the whole line)");
    emit(e, "    if (fq_v_q && fq_ph_q == 2'd1 && fq_type_q >= 3'd1 && fq_type_q <= 3'd4) "
            "p_wbk_keep: assert(fq_pm_q != '0 && pr_down_q && "
            "pr_line_q == fq_line_q && pr_mask_q == (fq_type_q == 3'd1 && fq_pm_q == '1 ? '1 : ~fq_pm_q));");
    /* strengthening invariants: a forward of a defined type probes; one entry a line
     * (so p_word); a ReqS or ReqO+data
     * entry asks the whole line; a downgrade probed finds no such entry of its line,
     * and a ReqWB entry of it means an empty probe answer */
    emit(e, "    if (fq_v_q && fq_ph_q == 2'd1) s_prb_type: assert(fq_type_q <= 3'd5);");
    for (i = 0; i < c->mshr; i++)
        for (j = i + 1; j < c->mshr; j++)
            emit(e, "    s_line_%u_%u: assert(!(e_v_q[%u] && e_v_q[%u] && e_line_q[%u +: %u] == e_line_q[%u +: %u]));",
                 i, j, i, j, i * LB, LB, j * LB, LB);
    for (i = 0; i < c->mshr; i++) {
        emit(e, "    if (e_v_q[%u] && e_kind_q[%u +: 3] != K_WB) s_full_%u: assert(e_mask_q[%u +: %u] == '1 && "
                "(e_kind_q[%u +: 3] == K_V || e_kind_q[%u +: 3] == K_OD));",
             i, i * 3, i, i * W, W, i * 3, i * 3);
        emit(e, "    if (fq_v_q && fq_ph_q == 2'd1 && fq_type_q >= 3'd1 && fq_type_q <= 3'd4 && e_v_q[%u] && "
                "e_line_q[%u +: %u] == fq_line_q)",
             i, i * LB, LB);
        emit(e, "      s_prb_%u: assert(e_kind_q[%u +: 3] == K_WB && (!pd_v_q || pd_mask_q == '0));", i, i * 3);
    }
}

/* The registered line matches (e_rq, e_cq, ...) equal the comparison of the
 * lines while both are valid: invariants the induction needs, since every
 * use of a match is qualified by the valid bits. */
static void emit_formal_matches(emit_file *e, const spandex_tuhw_cfg *c, const spandex_tuhw_geom *g)
{
    int dn = c->kind != SPANDEX_TU_GPU, ms = c->kind == SPANDEX_TU_MESI, wb = !ms;
    unsigned LB = g->laddr_bits, i, j;
    for (i = 0; i < c->mshr; i++) {
        emit(e, "    if (e_v_q[%u]) s_lm_%u: assert(e_rq_q[%u] == (e_line_q[%u +: %u] == rq_line_q) && e_cq_q[%u] == "
                "(e_line_q[%u +: %u] == cq_line_q));",
             i, i, i, i * LB, LB, i, i * LB, LB);
        if (dn)
            emit(e, "    if (e_v_q[%u]) s_lmf_%u: assert(e_fq_q[%u] == (e_line_q[%u +: %u] == fq_line_q));", i, i, i,
                 i * LB, LB);
        for (j = 0; dn && j < c->dfr; j++)
            emit(e, "    if (e_v_q[%u] && df_v_q[%u]) s_lmd_%u_%u: assert(e_df_q[%u] == (e_line_q[%u +: %u] == "
                    "df_line_q[%u +: %u]));",
                 i, j, i, j, i * c->dfr + j, i * LB, LB, j * LB, LB);
        for (j = 0; wb && j < c->wb; j++)
            emit(e, "    if (e_v_q[%u] && b_v_q[%u]) s_lmb_%u_%u: assert(e_b_q[%u] == (e_line_q[%u +: %u] == "
                    "b_line_q[%u +: %u]));",
                 i, j, i, j, i * c->wb + j, i * LB, LB, j * LB, LB);
    }
    for (j = 0; dn && j < c->dfr; j++) {
        emit(e, "    if (df_v_q[%u]) s_lmdf_%u: assert(df_fq_q[%u] == (df_line_q[%u +: %u] == fq_line_q));", j, j, j,
             j * LB, LB);
        if (ms)
            emit(e, "    if (df_v_q[%u] && rq_v_q) s_lmdr_%u: assert(df_rq_q[%u] == (df_line_q[%u +: %u] == rq_line_q));",
                 j, j, j, j * LB, LB);
        else
            emit(e, "    if (df_v_q[%u] && cq_v_q) s_lmdc_%u: assert(df_cq_q[%u] == (df_line_q[%u +: %u] == cq_line_q));",
                 j, j, j, j * LB, LB);
    }
    if (dn) {
        emit(e, "    if (fq_v_q && rq_v_q) s_lmfr: assert(fq_rq_q == (fq_line_q == rq_line_q));");
        emit(e, "    if (fq_v_q && cq_v_q) s_lmfc: assert(fq_cq_q == (fq_line_q == cq_line_q));");
    }
    for (i = 0; wb && i < c->wb; i++) {
        emit(e, "    if (b_v_q[%u]) s_lmbc_%u: assert(b_cq_q[%u] == (b_line_q[%u +: %u] == cq_line_q));", i, i, i, i * LB,
             LB);
        if (!dn)
            continue;
        emit(e, "    if (b_v_q[%u] && fq_v_q) s_lmbf_%u: assert(b_fq_q[%u] == (b_line_q[%u +: %u] == fq_line_q));", i, i,
             i, i * LB, LB);
        for (j = 0; j < c->dfr; j++)
            emit(e, "    if (b_v_q[%u] && df_v_q[%u]) s_lmbd_%u_%u: assert(b_df_q[%u] == (b_line_q[%u +: %u] == "
                    "df_line_q[%u +: %u]));",
                 i, j, i, j, i * c->dfr + j, i * LB, LB, j * LB, LB);
    }
}

static void emit_formal(emit_file *e, const spandex_tuhw_cfg *c, const spandex_tuhw_geom *g)
{
    static const char *const samples[] = {
        "f_req_stall_q <= req_valid_o & ~req_ready_i",
        "f_req_q <= {req_type_o, req_line_o, req_mask_o, req_op_o, req_data_o}",
        "f_out_stall_q <= out_valid_o & ~out_ready_i",
        "f_out_q <= {out_type_o, out_llc_o, out_dst_o, out_line_o, out_mask_o, out_data_o}",
        "f_crsp_stall_q <= c_rsp_valid_o & ~c_rsp_ready_i",
        "f_crsp_q <= {c_rsp_type_o, c_rsp_line_o, c_rsp_mask_o, c_rsp_own_o, c_rsp_data_o}",
        "f_prb_stall_q <= c_prb_valid_o & ~c_prb_ready_i",
        "f_prb_q <= {c_prb_line_o, c_prb_mask_o, c_prb_down_o}",
        "f_err_q <= err_o",
        NULL};
    int dn = c->kind != SPANDEX_TU_GPU, ms = c->kind == SPANDEX_TU_MESI;
    unsigned W = g->words, LB = g->laddr_bits, DW = g->words * g->word_bits, i, j;
    emit_nl(e);
    prim_formal_begin(e, "// Properties checked by make formal (tb/formal.txt); see docs/spandex.md.");
    emit(e, "logic f_req_stall_q, f_out_stall_q, f_crsp_stall_q, f_prb_stall_q, f_err_q;");
    prim_decl(e, 3 + LB + W + 3 + DW, "f_req_q");
    prim_decl(e, 4 + 1 + g->dev_bits + LB + W + DW, "f_out_q");
    prim_decl(e, 2 + LB + W + W + DW, "f_crsp_q");
    prim_decl(e, LB + W + 1, "f_prb_q");
    if (ms)
        emit_formal_ms_samples(e, g);
    prim_formal_samples(e, samples);
    prim_formal_assume(e, "reset in the first cycle only", 0);
    for (i = 0; ms && i < c->mshr; i++) {
        /* MESI: the cache's contract on c_pdat (docs/spandex.md): a line with a ReqWB entry
         * (evicted, or downgraded to I) is not held, so a probe of it is answered empty */
        if (i == 0)
            emit(e, "  // MESI: the cache holds no line that has a ReqWB entry (c_pdat answers it empty)");
        emit(e, "  if (fq_v_q && e_v_q[%u] && e_kind_q[%u +: 3] == K_WB && e_line_q[%u +: %u] == fq_line_q)", i,
             i * 3, i * LB, LB);
        emit(e, "    assume(!c_pdat_valid_i || c_pdat_mask_i == '0);");
    }
    emit(e, "  if (rst_ni && f_past_q) begin");
    emit(e, "    if (f_req_stall_q)");
    emit(e, "      p_hold_req: assert(req_valid_o && {req_type_o, req_line_o, req_mask_o, req_op_o, req_data_o} == f_req_q);");
    emit(e, "    if (f_out_stall_q)");
    emit(e, "      p_hold_out: assert(out_valid_o && {out_type_o, out_llc_o, out_dst_o, out_line_o, out_mask_o, "
            "out_data_o} == f_out_q);");
    emit(e, "    if (f_crsp_stall_q)");
    emit(e, "      p_hold_crsp: assert(c_rsp_valid_o && {c_rsp_type_o, c_rsp_line_o, c_rsp_mask_o, c_rsp_own_o, "
            "c_rsp_data_o} == f_crsp_q);");
    if (dn) {
        emit(e, "    if (f_prb_stall_q)");
        emit(e, "      p_hold_prb: assert(c_prb_valid_o && {c_prb_line_o, c_prb_mask_o, c_prb_down_o} == f_prb_q);");
    }
    emit(e, "    if (f_err_q) p_err: assert(err_o);");
    if (ms) {
        emit(e, "    // (a) a line whose pending request lost words to a downgrade is not given owned");
        emit(e, "    if (f_fdn_q) p_own_dn: assert(c_rsp_valid_o && c_rsp_own_o == '0);");
        emit(e, "    // (c) a read not installed owned never drops the words it was given owned (by");
        emit(e, "    // RspO+data) that no downgrade took: its entry turns into their ReqWB");
        for (i = 0; i < c->mshr; i++)
            emit(e, "    if (f_fwb_q && f_fwb_i_q == %u'd%u) p_own_wb_%u: assert(e_v_q[%u] && e_kind_q[%u +: 3] == K_WB && "
                    "e_mask_q[%u +: %u] == f_fwb_m_q && e_snd_q[%u]);",
                 g->mshr_bits, i, i, i, i * 3, i * W, W, i);
        emit(e, "    // (b) the whole line the cache gave a downgrade: in the answer, or in the ReqWB of");
        emit(e, "    // the rest, in the request register (the line, the words the probe had the cache");
        emit(e, "    // keep, the cache's data)");
        emit(e, "    if (f_dg_q && f_dg_pd_q == '1)");
        emit(e, "      p_wbk: assert(fq_ans_q == '1 || (req_valid_o && req_type_o == 3'd6 && req_line_o == f_dg_line_q && "
                "req_mask_o == ~fq_pm_q && (fq_ans_q | req_mask_o) == '1));");
        for (j = 0; j < W; j++)
            emit(e, "    if (f_dg_q && f_dg_pd_q == '1 && !fq_ans_q[%u]) p_wbk_%u: assert(req_data_o[%u +: %u] == "
                    "f_dg_pdd_q[%u +: %u]);",
                 j, j, j * g->word_bits, g->word_bits, j * g->word_bits, g->word_bits);
    }
    emit(e, "  end");
    emit(e, "  if (rst_ni) begin");
    for (i = 0; i < c->mshr; i++)
        for (j = i + 1; j < c->mshr; j++)
            emit(e, "    p_word_%u_%u: assert(!(e_v_q[%u] && e_v_q[%u] && e_line_q[%u +: %u] == e_line_q[%u +: %u] && "
                    "((e_mask_q[%u +: %u] & ~e_recv_q[%u +: %u]) & (e_mask_q[%u +: %u] & ~e_recv_q[%u +: %u])) != '0));",
                 i, j, i, j, i * LB, LB, j * LB, LB, i * W, W, i * W, W, j * W, W, j * W, W);
    for (i = 0; i < c->mshr; i++) {
        char snd[96];
        /* (MESI: a ReqWB entry waits to be sent with no word to re-send) */
        if (ms)
            snprintf(snd, sizeof snd, "(e_snd_q[%u] == (e_rtr_q[%u +: %u] != '0) || e_kind_q[%u +: 3] == K_WB)", i,
                     i * W, W, i * 3);
        else
            snprintf(snd, sizeof snd, "e_snd_q[%u] == (e_rtr_q[%u +: %u] != '0)", i, i * W, W);
        emit(e, "    if (e_v_q[%u]) p_ent_%u: assert((e_recv_q[%u +: %u] & ~e_mask_q[%u +: %u]) == '0 && (e_rtr_q[%u +: %u] "
                "& ~(e_mask_q[%u +: %u] & ~e_recv_q[%u +: %u])) == '0 && (e_rpw_q[%u +: %u] & ~e_mask_q[%u +: %u]) == '0 "
                "&& %s);",
             i, i, i * W, W, i * W, W, i * W, W, i * W, W, i * W, W, i * W, W, i * W, W, snd);
    }
    emit_formal_matches(e, c, g);
    for (i = 0; dn && i < c->mshr; i++)
        emit(e, "    if (e_v_q[%u]) p_ent_dn_%u: assert((e_dn_q[%u +: %u] & ~e_mask_q[%u +: %u]) == '0);", i, i, i * W,
             W, i * W, W);
    for (i = 0; dn && i < c->dfr; i++)
        emit(e, "    if (df_v_q[%u]) p_dfr_%u: assert(df_mask_q[%u +: %u] != '0);", i, i, i * W, W);
    if (dn)
        emit_formal_ring(e, c, g);
    if (ms)
        emit_formal_ms_invariants(e, c, g);
    emit(e, "  end");
    emit(e, "end");
    emit(e, "`endif");
}

static void emit_tu(emit_file *e, const void *cfg, const block_desc *b)
{
    GEN_CFG_GEOM(spandex_tuhw_cfg, spandex_tuhw_geom);
    prim_regs l;
    unsigned i;
    int dn = c->kind != SPANDEX_TU_GPU, ms = c->kind == SPANDEX_TU_MESI;
    body_regs(&l, c->kind, (int)c->extra);
    prim_module_begin(e, b);
    if (ms) {
        emit(e, "// Spandex translation unit, MESI (Alsop et al., ISCA 2018, Table II, Table IV, III-C,");
        emit(e, "// III-D; docs/spandex.md): %u words of %u bits, %u MSHR entries, %u delayed-request slots,",
             g.words, g.word_bits, c->mshr, c->dfr);
        emit(e, "// ReqS, ReqO+data and ReqWB of whole lines, a read replaced by ReqWT+data(rd) after %u Nack%s.",
             c->nack_limit, c->nack_limit == 1 ? "" : "s");
    } else if (dn) {
        emit(e, "// Spandex translation unit, DeNovo (Alsop et al., ISCA 2018, Table II, Table IV, III-A,");
        emit(e, "// III-C; docs/spandex.md): %u words of %u bits, %u MSHR entries, %u write-buffer lines,",
             g.words, g.word_bits, c->mshr, c->wb);
        emit(e, "// %u delayed-request slots, atomics and replacements by %s after %u Nack%s.", c->dfr,
             c->wtdata ? "ReqWT+data" : "ReqO+data", c->nack_limit, c->nack_limit == 1 ? "" : "s");
    } else {
        emit(e, "// Spandex translation unit, GPU coherence (Alsop et al., ISCA 2018, Table II, III-A,");
        emit(e, "// III-C; docs/spandex.md): %u words of %u bits, %u MSHR entries, %u write-buffer lines,",
             g.words, g.word_bits, c->mshr, c->wb);
        emit(e, "// replacement after %u Nack%s.", c->nack_limit, c->nack_limit == 1 ? "" : "s");
    }
    emit(e, "// Storage: MSHR entries and write-buffer lines in flip-flops (a few lines), no RAM by design (lint: no memory).");
    if (ms) { /* (no write buffer) */
        emit(e, "localparam integer M = %u, W = %u, WB = %u, LB = %u, DB = %u, MI = %u, KB = 3;", c->mshr, g.words,
             g.word_bits, g.laddr_bits, g.dev_bits, g.mshr_bits);
        emit(e, "localparam [3:0] NACK_LIMIT = 4'd%u;", c->nack_limit);
    } else {
        emit(e, "localparam integer M = %u, B = %u, W = %u, WB = %u, LB = %u, DB = %u, MI = %u, BI = %u, KB = %u;",
             c->mshr, c->wb, g.words, g.word_bits, g.laddr_bits, g.dev_bits, g.mshr_bits, g.wb_bits, dn ? 3 : 2);
        emit(e, "localparam [3:0] NACK_LIMIT = 4'd%u;", c->nack_limit);
        emit(e, "localparam [BI-1:0] B_LAST = %u'd%u;", g.wb_bits, c->wb - 1);
    }
    if (dn) {
        emit(e, "localparam integer D = %u, DI = %u;", c->dfr, g.dfr_bits);
        emit(e, "localparam [DI-1:0] D_LAST = %u'd%u;", g.dfr_bits, c->dfr - 1);
        if (!ms) /* (MESI replaces a read by ReqWT+data) */
            emit(e, "localparam ODATA = 1'b%u; // atomics and replacements by ReqO+data", c->wtdata ? 0 : 1);
        if (ms) /* (MESI has no ReqWT) */
            emit(e, "localparam [KB-1:0] K_V = 3'd0, K_WTD = 3'd2, K_O = 3'd3, K_OD = 3'd4, K_WB = 3'd5;");
        else
            emit(e, "localparam [KB-1:0] K_V = 3'd0, K_WT = 3'd1, K_WTD = 3'd2, K_O = 3'd3, K_OD = 3'd4, K_WB = 3'd5;");
    } else {
        emit(e, "localparam [KB-1:0] K_V = 2'd0, K_WT = 2'd1, K_WTD = 2'd2;");
    }
    emit_nl(e);
    for (i = 0; body[i] != NULL; i++) {
        const char *p = body_line(i, c->kind, (int)c->extra);
        if (p != NULL && c->extra && strstr(p, "rq_mask_q") && !strstr(p, "rq_mask_d") && !strstr(p, "rq_mask_q[w]") &&
            !strstr(p, "rq_rm"))
            emit_extra_line(e, p);
        else if (p != NULL)
            emit(e, "%s", p);
    }
    emit_nl(e);
    prim_regs_block(e, &l);
    emit_nl(e);

    emit(e, "assign c_rsp_valid_o = co_v_q;");
    emit(e, "assign c_rsp_type_o = co_type_q;");
    emit(e, "assign c_rsp_line_o = co_line_q;");
    emit(e, "assign c_rsp_mask_o = co_mask_q;");
    emit(e, "assign c_rsp_data_o = co_data_q;");
    if (dn) {
        emit(e, "assign c_rsp_own_o = co_own_q;");
        emit(e, "assign c_prb_valid_o = pr_v_q;");
        emit(e, "assign c_prb_line_o = pr_line_q;");
        emit(e, "assign c_prb_mask_o = pr_mask_q;");
        emit(e, "assign c_prb_down_o = pr_down_q;");
    } else {
        emit(e, "// GPU coherence owns nothing: no owned words, no probes; c_pdat_mask_i and");
        emit(e, "// c_pdat_data_i are not read (an answer with no probe out is an error)");
        emit(e, "assign c_rsp_own_o = '0;");
        emit(e, "assign c_prb_valid_o = 1'b0;");
        emit(e, "assign c_prb_line_o = '0;");
        emit(e, "assign c_prb_mask_o = '0;");
        emit(e, "assign c_prb_down_o = 1'b0;");
        emit(e, "logic unused_probe;");
        emit(e, "assign unused_probe = ^{c_prb_ready_i, c_pdat_mask_i, c_pdat_data_i};");
    }
    emit(e, "assign req_valid_o = ro_v_q;");
    emit(e, "assign req_type_o = ro_type_q;");
    emit(e, "assign req_line_o = ro_line_q;");
    emit(e, "assign req_mask_o = ro_mask_q;");
    emit(e, "assign req_op_o = ro_op_q;");
    emit(e, "assign req_data_o = ro_data_q;");
    emit(e, "assign out_valid_o = oo_v_q;");
    emit(e, "assign out_type_o = oo_type_q;");
    emit(e, "assign out_llc_o = oo_llc_q;");
    emit(e, "assign out_dst_o = oo_dst_q;");
    emit(e, "assign out_line_o = oo_line_q;");
    emit(e, "assign out_mask_o = oo_mask_q;");
    if (ms) {
        emit(e, "assign out_data_o = oo_data_q;");
        emit(e, "assign idle_o = !cq_v_q && !rq_v_q && !fq_v_q && !pd_v_q && !ro_v_q && !oo_v_q && !co_v_q && !pr_v_q "
                "&& !d_v && e_v_q == '0;");
    } else if (dn) {
        emit(e, "assign out_data_o = oo_data_q;");
        emit(e, "assign idle_o = !cq_v_q && !rq_v_q && !fq_v_q && !pd_v_q && !ro_v_q && !oo_v_q && !co_v_q && !pr_v_q "
                "&& !h_v && !d_v && e_v_q == '0;");
    } else {
        emit(e, "assign out_data_o = '0; // GPU coherence answers carry no data");
        emit(e, "assign idle_o = !cq_v_q && !rq_v_q && !fq_v_q && !pd_v_q && !ro_v_q && !oo_v_q && !co_v_q && !h_v && "
                "e_v_q == '0;");
    }
    emit(e, "assign err_o = err_q;");
    emit_formal(e, c, &g);
    prim_module_end(e);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(spandex_tuhw_cfg, spandex_tuhw_geom);
    if (c->kind == SPANDEX_TU_MESI)
        snprintf(buf, len,
                 "kind=mesi devs=%u words=%u word_bits=%u mshr=%u nack_limit=%u addr_bits=%u dfr=%u\n"
                 "laddr_bits=%u dev_bits=%u",
                 c->devs, g.words, g.word_bits, c->mshr, c->nack_limit, c->addr_bits, c->dfr, g.laddr_bits,
                 g.dev_bits);
    else if (c->kind == SPANDEX_TU_DENOVO)
        snprintf(buf, len,
                 "kind=denovo devs=%u words=%u word_bits=%u mshr=%u wb=%u nack_limit=%u addr_bits=%u dfr=%u "
                 "rmw=%s\nladdr_bits=%u dev_bits=%u",
                 c->devs, g.words, g.word_bits, c->mshr, c->wb, c->nack_limit, c->addr_bits, c->dfr,
                 c->wtdata ? "wtdata" : "odata", g.laddr_bits, g.dev_bits);
    else
        snprintf(buf, len,
                 "kind=gpu devs=%u words=%u word_bits=%u mshr=%u wb=%u nack_limit=%u addr_bits=%u\n"
                 "laddr_bits=%u dev_bits=%u",
                 c->devs, g.words, g.word_bits, c->mshr, c->wb, c->nack_limit, c->addr_bits, g.laddr_bits,
                 g.dev_bits);
}

/* Storage, all flip-flops by design: the MSHR (per entry: valid, re-send,
 * kind, Nack count, line, four word masks (DeNovo five), data), the write
 * buffer (valid, line, mask, data; head and tail), the input buffers, the
 * output registers and, for DeNovo, the probe register, the forward's
 * answer state and the delayed-request ring (synth-check bounds the
 * flip-flops by this sum). */
static void gen_report(FILE *f, const void *cfg, int json)
{
    GEN_CFG_GEOM(spandex_tuhw_cfg, spandex_tuhw_geom);
    int dn = c->kind != SPANDEX_TU_GPU, ms = c->kind == SPANDEX_TU_MESI;
    const char *kn = ms ? "mesi" : dn ? "denovo" : "gpu";
    unsigned long long data = (unsigned long long)g.words * g.word_bits, lw = g.laddr_bits + g.words;
    /* (MESI: an entry also keeps the store's words, the atomic's op and operand and four flags) */
    unsigned long long ent = 1 + 1 + (dn ? 3 : 2) + 4 + g.laddr_bits + (dn ? 5ull : 4ull) * g.words + data +
                             (ms ? g.words + 3 + g.word_bits + 4ull : 0);
    unsigned long long wbl = 1 + g.laddr_bits + g.words + data;
    unsigned long long bufs = (1 + 3 + lw + 3 + data) + (1 + 4 + lw + data) + (1 + 3 + lw + g.dev_bits) + 1;
    unsigned long long outs = (1 + 3 + lw + 3 + data) + (1 + 4 + 1 + g.dev_bits + lw) + (1 + 2 + lw + data);
    /* (MESI: a slot and the forward buffer also keep a bit: a RspWB waits for it) */
    unsigned long long dfl = 1 + 3 + g.dev_bits + lw + (ms ? 1 : 0), extra = 0, total;
    if (dn) /* fq step/answers + pd, pr, co_own, oo_data, the ring */
        extra = (1 + 2 + 3 + 3ull * g.words + data + (ms ? 1 : 0)) + (g.words + data) + (2 + lw) + g.words + data +
                c->dfr * dfl + 2ull * g.dfr_bits;
    total = c->mshr * ent + (ms ? 0 : c->wb * wbl + 2ull * g.wb_bits) + bufs + outs + extra + 1;
    if (json) {
        fprintf(f,
                "{\"unit\":\"spandex-tu\",\"kind\":\"%s\",\"words\":%u,\"word_bits\":%u,\"mshr\":%u,\"wb\":%u,"
                "\"dfr\":%u,\"mshr_entry_bits\":%llu,\"wb_line_bits\":%llu,\"rtl_memories\":[],"
                "\"flop_array_bits\":%llu}\n",
                kn, g.words, g.word_bits, c->mshr, c->wb, dn ? c->dfr : 0, ent, wbl, total);
        return;
    }
    fprintf(f, "spandex-tu (%s): %u words of %u bits\n", kn, g.words, g.word_bits);
    if (ms)
        fprintf(f, "  MSHR: %u entries x %llu bits; no write buffer; buffers and outputs %llu bits\n", c->mshr, ent,
                bufs + outs);
    else
        fprintf(f, "  MSHR: %u entries x %llu bits; write buffer: %u lines x %llu bits; buffers and outputs %llu bits\n",
                c->mshr, ent, c->wb, wbl, bufs + outs);
    if (dn)
        fprintf(f, "  delayed requests: %u slots x %llu bits; probe and answer state %llu bits\n", c->dfr, dfl,
                extra - c->dfr * dfl - 2ull * g.dfr_bits);
    fprintf(f, "  %llu bits in flip-flops, no RAM\n", total);
    fprintf(f, "  timing: one action a cycle (response, forward, %sre-send%s, cache request)\n",
            dn ? "delayed forward, " : "", ms ? " or ReqWB" : ", write-buffer flush");
}

/* The MESI kind's self-test payloads. Its requests ask whole lines, an entry
 * ends only when responses of the right kinds cover its line, a REL waits
 * for every open write, and a downgrade that needs an entry waits in the
 * delayed ring while the entries wait for that ring: under the shared rules
 * (responses of types 0-4, random masks) the top stopped after 15 output
 * transfers. Each rule below says which of those it keeps moving. Masks
 * name words min(i, W-1) (w(i)); with W <= 4 every word has a one-word
 * response, so any part of a line still open can be completed; wider lines
 * get parts that complement each other (word 0 and the rest). */
static int tu_selftest_mesi(const spandex_tuhw_cfg *c, const spandex_tuhw_geom *g, st_rule *r)
{
    int n = 0;
    uint64_t f = g->full, w[4];
    unsigned i;
    for (i = 0; i < 4; i++)
        w[i] = 1ull << (i < g->words ? i : g->words - 1);
    /* cache requests: type and mask drawn together from c_req_data_i[3:0]
     * (an ST's or RMW's low data bits follow them), so that every type gets
     * a mask of the contract: an RMW one word (else refused), an EVICT the
     * whole line (E/M: its ReqWB covers the line, so no downgrade of its
     * words needs a probe and an entry while it is open; EVICTs of one word
     * stopped the top as the partial downgrades below do) or none (S,
     * silent), loads and stores whole lines or words; ACQ and REL rare (a
     * REL waits for every open write) */
    r[n++] = (st_rule){.port = "c_req_type_i", .kind = ST_PICK, .src = "c_req_data_i", .src_lo = 0, .n = 16,
                       .v = {0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 5, 5, 5, 3, 4}};
    r[n++] = (st_rule){.port = "c_req_mask_i", .kind = ST_PICK, .src = "c_req_data_i", .src_lo = 0, .n = 16,
                       .v = {f, f, w[0], f, w[0], w[1] | w[2], w[3], w[0], w[1], w[2], w[3], f, f, 0, f, f}};
    /* two lines for requests and responses: a response names the open
     * entry's line half the time, and one line can write back while the
     * other is read */
    r[n++] = (st_rule){.port = "c_req_line_i", .kind = ST_RANGE, .a = 0, .b = 1};
    r[n++] = (st_rule){.port = "rsp_line_i", .kind = ST_RANGE, .a = 0, .b = 1};
    /* responses: mostly RspO+data (it completes a ReqO+data and answers a
     * ReqS as ownership), RspS and RspV (installed S, used once), RspWB
     * (frees a ReqWB's entry), a Nack and RspWT+data (the ReqS retried,
     * then replaced, X13: without RspWT+data a replaced word never
     * completes); 1 in 4 cycles, since a response that matches nothing is
     * dropped as an error and takes the cycle's one action */
    r[n++] = (st_rule){.port = "rsp_type_i", .kind = ST_PICK, .n = 16,
                       .v = {5, 5, 5, 5, 5, 5, 5, 5, 1, 1, 0, 9, 6, 6, 6, 4}};
    /* response masks: the whole line mostly (a ReqS, ReqO+data or EVICT
     * entry in one part), the line but a word and single words (parts, and
     * the ReqWB a downgrade leaves, which a RspWB must name exactly) */
    if (g->words <= 4)
        r[n++] = (st_rule){.port = "rsp_mask_i", .kind = ST_PICK, .n = 16,
                           .v = {f, f, f, f, f, f, f, f, f, f, f & ~w[0], f & ~w[2], w[0], w[1], w[2], w[3]}};
    else /* a part of the line and the rest: every part has its complement */
        r[n++] = (st_rule){.port = "rsp_mask_i", .kind = ST_PICK, .n = 16,
                           .v = {f, f, f, f, f, f, f, f, f, f, f, f, f & ~w[0], f & ~w[0], w[0], w[0]}};
    r[n++] = (st_rule){.port = "rsp_valid_i", .kind = ST_PROB, .a = 16384};
    /* forwards: every type, FwdReqV and Inv twice as often (they never
     * leave a ReqWB); four lines (two of them the requests'), so that they
     * race pending requests and probe lines the unit has no entry for */
    r[n++] = (st_rule){.port = "fwd_type_i", .kind = ST_PICK, .n = 8, .v = {0, 1, 2, 3, 4, 5, 0, 5}};
    r[n++] = (st_rule){.port = "fwd_line_i", .kind = ST_RANGE, .a = 0, .b = 3};
    /* forward masks by type (fwd_type_i indexes the list): downgrades name
     * the whole line. A downgrade of part of a line (of words the LLC would
     * not think this device owns) leaves a ReqWB of the rest; the next
     * downgrade of that line then needs a probe and an entry and waits in
     * the delayed ring, which the answered ReqWBs wait for: with such masks
     * (FwdReqO of one word) the top stopped within 8,500 cycles at each of
     * four seeds. FwdReqV and Inv: one word */
    r[n++] = (st_rule){.port = "fwd_mask_i", .kind = ST_PICK, .src = "fwd_type_i", .src_lo = 0, .n = 8,
                       .v = {w[1], f, f, f, f, w[0], f, f}};
    r[n++] = (st_rule){.port = "fwd_req_i", .kind = ST_RANGE, .a = 0, .b = c->devs - 1};
    /* probe answers: the whole line (held E/M: downgrades answered from the
     * cache's data) 3 in 4, else none; an answer with no probe out is
     * dropped as an error ahead of every other action, so 1 in 2 cycles */
    r[n++] = (st_rule){.port = "c_pdat_mask_i", .kind = ST_PICK, .n = 4, .v = {f, f, f, 0}};
    r[n++] = (st_rule){.port = "c_pdat_valid_i", .kind = ST_PROB, .a = 32768};
    return n;
}

/* FPGA self-test payloads (docs/fpga.md) of the GPU and DeNovo kinds (the
 * MESI kind has rules of its own, tu_selftest_mesi): cache requests of the
 * six types with non-zero masks on a few lines, responses of the types the
 * unit takes (RspV, RspWT, RspO, RspWT+data, Nack) on the same lines,
 * forwards FwdReqV and Inv. Responses that match no open request are
 * dropped as protocol errors (err_o), as the model drops them. */
static int tu_selftest(const void *cfg, st_rule *r, int max, char *err, size_t len)
{
    GEN_CFG_GEOM(spandex_tuhw_cfg, spandex_tuhw_geom);
    int n = 0;
    if (max < 13)
        return snprintf(err, len, "spandex-tu: too few self-test rules"), -1;
    if (c->kind == SPANDEX_TU_MESI) /* rules of its own (above) */
        return tu_selftest_mesi(c, &g, r);
    r[n++] = (st_rule){.port = "c_req_type_i", .kind = ST_RANGE, .a = 0, .b = 5};
    r[n++] = (st_rule){.port = "c_req_line_i", .kind = ST_RANGE, .a = 0, .b = 3};
    r[n++] = (st_rule){.port = "c_req_mask_i", .kind = ST_RANGE, .a = 1, .b = g.full};
    r[n++] = (st_rule){.port = "rsp_line_i", .kind = ST_RANGE, .a = 0, .b = 3};
    r[n++] = (st_rule){.port = "rsp_type_i", .kind = ST_RANGE, .a = 0, .b = 4};
    r[n++] = (st_rule){.port = "rsp_mask_i", .width = 1, .repeat = g.words, .stride = 1, .kind = ST_PROB,
                       .a = 65536 / g.words};
    r[n++] = (st_rule){.port = "fwd_line_i", .kind = ST_RANGE, .a = 0, .b = 3};
    r[n++] = (st_rule){.port = "fwd_type_i", .kind = ST_RANGE, .a = 0, .b = 5};
    r[n++] = (st_rule){.port = "fwd_mask_i", .kind = ST_RANGE, .a = 1, .b = g.full};
    r[n++] = (st_rule){.port = "fwd_req_i", .kind = ST_RANGE, .a = 0, .b = c->devs - 1};
    return n;
}

const gen_unit spandex_tu_gen_unit = {"spandex-tu", emit_tu, gen_params, gen_report, tu_selftest};
