/*
 * Spandex LLC controller generator (Alsop et al., ISCA 2018, Table III,
 * III-B, III-C, III-F; spec spandex.md 2.2, 3, 7). The cycle-accurate model
 * is the timing shell cmodel/spandex/spandex_llc_tm.c; Table III is
 * cmodel/spandex/spandex_llc_rules.c, of which the decide stage is the
 * combinational equivalent.
 *
 * Pipeline, one event per stage:
 *   I  issue: an Ack or RspRvkO, then fill data, then a replayed request,
 *      then a new request; the meta RAM row of its set is read (registered
 *      read port). An event whose set is held by M, D or W waits.
 *   M  the row is there: tag compare, free way, LRU victim among the ways
 *      no transaction holds; the data RAM line of the chosen way is read;
 *      the event's transaction entry and request selected, its line's
 *      blocking and deferral found (registered for D).
 *   D  decide: Table III on the way's state, the transaction table and the
 *      deferral FIFO updated, the row written back, a source chosen for
 *      each word of the line, the event's messages handed to E or, while E
 *      is busy, to the next-job register k (D waits while k is full).
 *   W  the line written to the data RAM (a ReqWT+data's op applied here).
 *   E  one message a cycle in canonical order: MemWr of a victim, MemRd,
 *      Invs in ascending device order, one forward per owner (the owner of
 *      the lowest remaining word, with every remaining word it owns), the
 *      response.
 * No event of a set is in M, D or W while another of the same set is, so
 * the row and the line read for an event are current when it decides (no
 * forwarding). Combinational blocks are `always @*` (Icarus 11 and
 * always_comb blocks that write vector elements at variable indices).
 */
#include <stdio.h>
#include <string.h>

#include "gen_unit.h"
#include "prim.h"
#include "spandex_llc.h"

typedef struct {
    const spandex_llc_cfg *c;
    spandex_llc_geom g;
    unsigned n, db, w, wb, dw; /* devices, ID bits, words, word bits, line bits   */
    unsigned lb, sb, tb;       /* line address, set index, tag bits            */
    unsigned wi, sib, dab;     /* way, set and data RAM index widths (>= 1)    */
    unsigned xb, qb;           /* transaction index, deferral slot index       */
    unsigned tcb, qcb, swb;    /* txn and deferral counters, sweep counter     */
    unsigned pw, rw;           /* meta bits per way, per set row               */
    unsigned o_sh, o_tag, o_rank, o_own; /* field offsets in a way's meta    */
    int line, array;           /* line granularity, owner array            */
} gctx;

/* Transaction kinds (spandex_llc_tx_kind) and request codes (spec 7). */
enum { TX_EVICT, TX_SHARE, TX_OWN, TX_WRITE, TX_ATOMIC, TX_FILL };
/* Event kinds of the M and D stages. */
enum { EV_REQ, EV_REPLAY, EV_RSP, EV_FILL };

static unsigned max1(unsigned v) { return v ? v : 1; }

/* The set index of a line-address expression. */
static const char *set_of(char *buf, size_t len, const gctx *x, const char *line)
{
    if (x->sb == 0)
        snprintf(buf, len, "1'b0");
    else
        snprintf(buf, len, "%s[%u:0]", line, x->sb - 1);
    return buf;
}

/* The set index of line i of a flat vector of line addresses. */
static const char *set_at(char *buf, size_t len, const gctx *x, const char *vec, const char *i)
{
    if (x->sb == 0)
        snprintf(buf, len, "1'b0");
    else
        snprintf(buf, len, "%s[%s*%u +: %u]", vec, i, x->lb, x->sb);
    return buf;
}

/* The tag of a line-address expression. */
static const char *tag_of(char *buf, size_t len, const gctx *x, const char *line)
{
    snprintf(buf, len, "%s[%u:%u]", line, x->lb - 1, x->sb);
    return buf;
}

/* A line address from a tag and a set-index expression. */
static const char *line_of(char *buf, size_t len, const gctx *x, const char *tag, const char *set)
{
    if (x->sb == 0)
        snprintf(buf, len, "%s", tag);
    else
        snprintf(buf, len, "{%s, %s}", tag, set);
    return buf;
}

/* The data RAM address {set, way}. */
static const char *daddr(char *buf, size_t len, const gctx *x, const char *set, const char *way)
{
    if (x->sb && x->g.way_bits)
        snprintf(buf, len, "{%s, %s}", set, way);
    else if (x->sb)
        snprintf(buf, len, "%s", set);
    else if (x->g.way_bits)
        snprintf(buf, len, "%s", way);
    else
        snprintf(buf, len, "1'b0");
    return buf;
}

/* ------------------------------------------------------------ registers */
/* The fields of the event's transaction entry M selects for D (d_<d> from
 * t_<t>), and their widths: a number of bits, or 'D' (device ID bits), 'W'
 * (words), 'N' (devices). */
static const struct {
    const char *d, *t;
    char w;
} txn_sel[] = {{"d_tk", "t_kind", 3},    {"d_trk", "t_rkind", 3},   {"d_trop", "t_rop", 3},
               {"d_trdev", "t_rdev", 'D'}, {"d_tmu", "t_mu", 'W'},     {"d_tpack", "t_pack", 'N'},
               {"d_tprvk", "t_prvk", 'W'}, {"d_tshadd", "t_shadd", 'N'}, {"d_tinv", "t_inv", 1}};

static unsigned sel_w(const gctx *x, char w)
{
    return w == 'D' ? x->db : w == 'W' ? x->w : w == 'N' ? x->n : (unsigned)w;
}

typedef struct {
    const char *name;
    unsigned w;
} reg_def;

/* Every register of the module (all reset to 0), in declaration order. */
static unsigned reg_table(const gctx *x, reg_def *r)
{
    unsigned n = 0, t = x->c->txn, q = x->c->defer;
    const unsigned W = x->w, N = x->n, DB = x->db, DW = x->dw, LB = x->lb;
#define R(nm, width) (r[n].name = (nm), r[n].w = (width), n++)
    R("sw", x->swb);
    R("m_valid", 1), R("m_kind", 2), R("m_rk", 3), R("m_dev", DB), R("m_op", 3), R("m_line", LB);
    R("m_mask", W), R("m_v", DW), R("m_txn", x->xb);
    R("d_valid", 1), R("d_kind", 2), R("d_rk", 3), R("d_dev", DB), R("d_op", 3), R("d_line", LB);
    R("d_mask", W), R("d_v", DW), R("d_txn", x->xb);
    R("d_hit", 1), R("d_way", x->wi), R("d_free", 1), R("d_vok", 1), R("d_row", x->rw);
    for (size_t i = 0; i < sizeof txn_sel / sizeof txn_sel[0]; i++)
        R(txn_sel[i].d, sel_w(x, txn_sel[i].w));
    R("d_qk", 3), R("d_qdev", DB), R("d_qop", 3), R("d_qmask", W), R("d_blk", 1), R("d_held", 1);
    R("w_valid", 1), R("w_set", x->sib), R("w_addr", x->dab), R("w_a", DW), R("w_b", DW), R("w_isop", W);
    R("w_op", 3);
    R("e_memwr", 1), R("e_wrline", LB), R("e_memrd", 1), R("e_rdid", x->xb), R("e_line", LB);
    R("e_invs", N), R("e_fwd", 3), R("e_fwords", W), R("e_freq", DB), R("e_fown", W * DB);
    R("e_rsp", 1), R("e_rkind", 4), R("e_rdev", DB), R("e_rmask", W), R("e_data", DW);
    R("k_valid", 1), R("k_memwr", 1), R("k_wrline", LB), R("k_memrd", 1), R("k_rdid", x->xb), R("k_line", LB);
    R("k_invs", N), R("k_fwd", 3), R("k_fwords", W), R("k_freq", DB), R("k_fown", W * DB);
    R("k_rsp", 1), R("k_rkind", 4), R("k_rdev", DB), R("k_rmask", W), R("k_data", DW);
    R("t_valid", t), R("t_kind", 3 * t), R("t_line", LB * t), R("t_way", x->wi * t);
    R("t_rkind", 3 * t), R("t_rdev", DB * t), R("t_rop", 3 * t), R("t_rmask", W * t), R("t_rv", DW * t);
    R("t_mu", W * t), R("t_pack", N * t), R("t_prvk", W * t), R("t_shadd", N * t), R("t_inv", t);
    R("q_val", q), R("q_stay", q), R("q_way", q), R("q_kind", 3 * q), R("q_dev", DB * q);
    R("q_op", 3 * q), R("q_line", LB * q), R("q_mask", W * q), R("q_v", DW * q);
    R("q_head", x->qb), R("q_n", x->qcb);
    R("pass_act", 1), R("pass_req", 1), R("pass_left", x->qcb), R("resv_t", x->tcb), R("resv_q", x->qcb);
    R("err", 1);
#undef R
    return n;
}

static void emit_state(emit_file *e, const gctx *x)
{
    reg_def r[PRIM_REGS_MAX];
    unsigned n = reg_table(x, r), i;
    char b[160];
    emit(e, "// ---- state ---------------------------------------------------------------");
    emit(e, "// sw: the reset sweep (one set a cycle); m_/d_: the M and D stages (kind:");
    emit(e, "// request, replay, answer, fill; rk: the request's type, an answer's Ack");
    emit(e, "// bit); d_row: the event's meta row; w_: W, the data RAM write of the");
    emit(e, "// event D decided (a ReqWT+data op applied there); e_: the job E sends; k_:");
    emit(e, "// the next job, taken from D while E is busy (so that D never waits on an");
    emit(e, "// output's ready in the same cycle); t_: the");
    emit(e, "// transaction table; q_: the deferral FIFO; pass_: replay passes; resv_:");
    emit(e, "// entries reserved by requests in flight; err: sticky protocol error.");
    for (i = 0; i < n; i++) {
        snprintf(b, sizeof b, "%s_q, %s_d", r[i].name, r[i].name);
        prim_declv(e, r[i].w, b);
    }
    emit_nl(e);
    emit(e, "function automatic [%u:0] lanes(input [%u:0] m);", x->dw - 1, x->w - 1);
    emit(e, "  for (int i = 0; i < %u; i++) lanes[i*%u +: %u] = {%u{m[i]}};", x->w, x->wb, x->wb, x->wb);
    emit(e, "endfunction");
    emit(e, "// ReqWT+data operations (spec 7), truncated to the word");
    emit(e, "function automatic [%u:0] op_apply(input [2:0] op, input [%u:0] old, input [%u:0] v);", x->wb - 1,
         x->wb - 1, x->wb - 1);
    emit(e, "  case (op)");
    emit(e, "    3'd1: op_apply = v;");
    emit(e, "    3'd2: op_apply = old + v;");
    emit(e, "    3'd3: op_apply = old & v;");
    emit(e, "    3'd4: op_apply = old | v;");
    emit(e, "    3'd5: op_apply = old ^ v;");
    emit(e, "    3'd6: op_apply = old < v ? old : v;");
    emit(e, "    3'd7: op_apply = old > v ? old : v;");
    emit(e, "    default: op_apply = old;");
    emit(e, "  endcase");
    emit(e, "endfunction");
    emit_nl(e);
}

/* ------------------------------------------------------------------- E */
static void emit_e_stage(emit_file *e, const gctx *x)
{
    unsigned W = x->w, N = x->n, DB = x->db;
    emit(e, "// ---- E: the job's current message and its handshake -----------------------");
    emit(e, "logic e_valid, e_wr, e_rd, e_inv, e_fw, e_rs, e_acc, e_last, e_free;");
    prim_declv(e, W, "e_grp");
    prim_declv(e, DB, "e_gown, e_idst");
    prim_declv(e, N, "e_rest");
    emit(e, "always @* begin");
    emit(e, "  e_valid = e_memwr_q || e_memrd_q || e_invs_q != '0 || e_fwords_q != '0 || e_rsp_q;");
    emit(e, "  e_wr = e_memwr_q;");
    emit(e, "  e_rd = !e_memwr_q && e_memrd_q;");
    emit(e, "  e_inv = !e_memwr_q && !e_memrd_q && e_invs_q != '0;");
    emit(e, "  e_fw = !e_memwr_q && !e_memrd_q && e_invs_q == '0 && e_fwords_q != '0;");
    emit(e, "  e_rs = !e_memwr_q && !e_memrd_q && e_invs_q == '0 && e_fwords_q == '0 && e_rsp_q;");
    emit(e, "  // the owner of the lowest remaining word, and every word it owns");
    emit(e, "  e_gown = '0;");
    emit(e, "  for (int i = %u; i >= 0; i--)", W - 1);
    emit(e, "    if (e_fwords_q[i]) e_gown = e_fown_q[i*%u +: %u];", DB, DB);
    emit(e, "  for (int i = 0; i < %u; i++) e_grp[i] = e_fwords_q[i] && e_fown_q[i*%u +: %u] == e_gown;", W,
         DB, DB);
    emit(e, "  e_idst = '0;");
    emit(e, "  for (int i = %u; i >= 0; i--)", N - 1);
    emit(e, "    if (e_invs_q[i]) e_idst = %u'(i);", DB);
    emit(e, "  e_rest = e_invs_q & (e_invs_q - %u'd1);", N);
    emit(e, "  e_acc = ((e_wr || e_rd) && mem_req_ready_i) || ((e_inv || e_fw) && fwd_ready_i) ||");
    emit(e, "          (e_rs && out_ready_i);");
    emit(e, "  if (e_wr) e_last = !e_memrd_q && e_invs_q == '0 && e_fwords_q == '0 && !e_rsp_q;");
    emit(e, "  else if (e_rd) e_last = e_invs_q == '0 && e_fwords_q == '0 && !e_rsp_q;");
    emit(e, "  else if (e_inv) e_last = e_rest == '0 && e_fwords_q == '0 && !e_rsp_q;");
    emit(e, "  else if (e_fw) e_last = (e_fwords_q & ~e_grp) == '0 && !e_rsp_q;");
    emit(e, "  else e_last = 1'b1;");
    emit(e, "  e_free = !e_valid || (e_last && e_acc);");
    emit(e, "end");
    emit(e, "assign mem_req_valid_o = e_wr || e_rd;");
    emit(e, "assign mem_req_wr_o = e_wr;");
    emit(e, "assign mem_req_id_o = e_rd ? e_rdid_q : '0;");
    emit(e, "assign mem_req_line_o = e_wr ? e_wrline_q : e_rd ? e_line_q : '0;");
    emit(e, "assign mem_req_data_o = e_wr ? e_data_q : '0;");
    emit(e, "assign fwd_valid_o = e_inv || e_fw;");
    emit(e, "assign fwd_type_o = e_inv ? 3'd5 : e_fw ? e_fwd_q : 3'd0;");
    emit(e, "assign fwd_dst_o = e_inv ? e_idst : e_fw ? e_gown : '0;");
    emit(e, "assign fwd_line_o = (e_inv || e_fw) ? e_line_q : '0;");
    emit(e, "assign fwd_mask_o = e_fw ? e_grp : '0;");
    emit(e, "assign fwd_req_o = (e_fw && e_fwd_q != 3'd4) ? e_freq_q : '0;");
    emit(e, "assign out_valid_o = e_rs;");
    emit(e, "assign out_type_o = e_rs ? e_rkind_q : '0;");
    emit(e, "assign out_dst_o = e_rs ? e_rdev_q : '0;");
    emit(e, "assign out_line_o = e_rs ? e_line_q : '0;");
    emit(e, "assign out_mask_o = e_rs ? e_rmask_q : '0;");
    emit(e, "// RspV, RspS, RspWT+data, RspO+data carry data");
    emit(e, "assign out_data_o = (e_rs && (e_rkind_q == 4'd0 || e_rkind_q == 4'd1 || e_rkind_q == 4'd4 ||");
    emit(e, "                     e_rkind_q == 4'd5)) ? e_data_q : '0;");
    emit(e, "// the stages advance: D when the next-job register is empty, M when D does");
    emit(e, "logic d_adv, m_adv, slot;");
    emit(e, "assign d_adv = d_valid_q && !k_valid_q;");
    emit(e, "assign m_adv = m_valid_q && (!d_valid_q || d_adv);");
    emit(e, "assign slot = !m_valid_q || m_adv;");
    emit_nl(e);
}

/* ------------------------------------------------------------------- I */
static void emit_issue_lookup(emit_file *e, const gctx *x)
{
    unsigned T = x->c->txn, LB = x->lb, XB = x->xb;
    emit(e, "// ---- I: the transaction an answer is for, the fill's entry, free entries ---");
    prim_declv(e, XB, "i_rx");
    prim_declv(e, LB, "i_fline");
    prim_declv(e, x->tcb, "i_tfree");
    emit(e, "logic i_rfound, i_fok, i_fill_open;");
    emit(e, "always @* begin");
    emit(e, "  i_rx = '0;");
    emit(e, "  i_rfound = 1'b0;");
    emit(e, "  i_fok = 1'b0;");
    emit(e, "  i_fline = '0;");
    emit(e, "  i_fill_open = 1'b0;");
    emit(e, "  i_tfree = '0;");
    emit(e, "  for (int i = %u; i >= 0; i--) begin", T - 1);
    emit(e, "    if (t_valid_q[i] && t_kind_q[i*3 +: 3] != 3'd%u && t_line_q[i*%u +: %u] == rsp_line_i) begin", TX_FILL,
         LB, LB);
    emit(e, "      i_rx = %u'(i);", XB);
    emit(e, "      i_rfound = 1'b1;");
    emit(e, "    end");
    emit(e, "    if (mem_rsp_id_i == %u'(i)) begin", XB);
    emit(e, "      i_fok = t_valid_q[i] && t_kind_q[i*3 +: 3] == 3'd%u;", TX_FILL);
    emit(e, "      i_fline = t_line_q[i*%u +: %u];", LB, LB);
    emit(e, "    end");
    emit(e, "    if (t_valid_q[i] && t_kind_q[i*3 +: 3] == 3'd%u) i_fill_open = 1'b1;", TX_FILL);
    emit(e, "    if (!t_valid_q[i]) i_tfree = i_tfree + %u'd1;", x->tcb);
    emit(e, "  end");
    emit(e, "end");
    emit_nl(e);
}

/* go = the issue slot is free and set `set` is not held by M, D or W. */
static void emit_set_free(emit_file *e, const char *go, const char *set)
{
    emit(e, "  %s = slot && !(m_valid_q && m_set == %s) && !(d_valid_q && d_set == %s) &&", go, set, set);
    emit(e, "         !(w_valid_q && w_set_q == %s);", set);
}

static void emit_issue(emit_file *e, const gctx *x)
{
    unsigned N = x->n, DB = x->db, sib = x->sib;
    char b1[96], b2[96], b3[96], b4[96], b5[96];
    const char *src_bad_r = "1'b0", *src_bad_q = "1'b0";
    char rb[64], qb[64];
    if (N < (1u << DB)) {
        snprintf(rb, sizeof rb, "rsp_src_i >= %u'd%u", DB, N);
        snprintf(qb, sizeof qb, "req_src_i >= %u'd%u", DB, N);
        src_bad_r = rb;
        src_bad_q = qb;
    }
    emit(e, "// ---- I: what issues (priority: answer, fill, replay, request; drops) ------");
    emit(e, "localparam logic [2:0] IsNone = 3'd0, IsRsp = 3'd1, IsFill = 3'd2, IsReplay = 3'd3,");
    emit(e, "                       IsReq = 3'd4, IsDropRsp = 3'd5, IsDropMem = 3'd6, IsDropReq = 3'd7;");
    emit(e, "logic [2:0] i_what;");
    prim_declv(e, sib, "i_set, m_set, d_set");
    emit(e, "logic i_go_r, i_go_f, i_go_p, i_go_q, i_iss, swept, infl_req, infl_rep, room_t, room_q, p_start, p_end;");
    emit(e, "// the set of each candidate must not be held by M, D or W (no forwarding),");
    emit(e, "// compared for the four candidates in parallel");
    emit(e, "assign m_set = %s;", set_of(b1, sizeof b1, x, "m_line_q"));
    emit(e, "assign d_set = %s;", set_of(b1, sizeof b1, x, "d_line_q"));
    emit(e, "assign swept = sw_q == %u'd%u;", x->swb, x->c->sets);
    emit(e, "assign infl_req = (m_valid_q && m_kind_q == 2'd%u) || (d_valid_q && d_kind_q == 2'd%u);", EV_REQ,
         EV_REQ);
    emit(e, "assign infl_rep = (m_valid_q && m_kind_q == 2'd%u) || (d_valid_q && d_kind_q == 2'd%u);", EV_REPLAY,
         EV_REPLAY);
    emit(e, "assign room_t = i_tfree > resv_t_q;");
    emit(e, "assign room_q = resv_q_q < %u'd%u - q_n_q;", x->qcb, x->c->defer);
    emit(e, "assign p_start = !pass_act_q && pass_req_q && !infl_req && !infl_rep;");
    emit(e, "assign p_end = pass_act_q && pass_left_q == '0 && !infl_rep;");
    emit(e, "always @* begin");
    emit(e, "  if (rsp_valid_i) i_set = %s;", set_of(b2, sizeof b2, x, "rsp_line_i"));
    emit(e, "  else if (mem_rsp_valid_i) i_set = %s;", set_of(b3, sizeof b3, x, "i_fline"));
    emit(e, "  else if (pass_act_q) i_set = %s;", set_at(b4, sizeof b4, x, "q_line_q", "q_head_q"));
    emit(e, "  else i_set = %s;", set_of(b5, sizeof b5, x, "req_line_i"));
    emit_set_free(e, "i_go_r", set_of(b2, sizeof b2, x, "rsp_line_i"));
    emit_set_free(e, "i_go_f", set_of(b3, sizeof b3, x, "i_fline"));
    emit_set_free(e, "i_go_p", set_at(b4, sizeof b4, x, "q_line_q", "q_head_q"));
    emit_set_free(e, "i_go_q", set_of(b5, sizeof b5, x, "req_line_i"));
    emit(e, "  i_what = IsNone;");
    emit(e, "  if (!swept) i_what = IsNone;");
    emit(e, "  else if (rsp_valid_i) begin");
    emit(e, "    if ((rsp_type_i != 4'd7 && rsp_type_i != 4'd8) || %s || !i_rfound ||", src_bad_r);
    emit(e, "        (rsp_type_i == 4'd7 && rsp_mask_i == '0)) i_what = IsDropRsp;");
    emit(e, "    else if (i_go_r) i_what = IsRsp;");
    emit(e, "  end else if (mem_rsp_valid_i) begin");
    emit(e, "    if (!i_fok) i_what = IsDropMem;");
    emit(e, "    else if (i_go_f) i_what = IsFill;");
    emit(e, "  end else if (pass_act_q) begin");
    emit(e, "    // one replayed request at a time, its fill included");
    emit(e, "    if (pass_left_q != '0 && q_n_q != '0 && room_t && !infl_rep && !i_fill_open && i_go_p)");
    emit(e, "      i_what = IsReplay;");
    emit(e, "  end else if (!pass_req_q && req_valid_i) begin");
    emit(e, "    if (req_type_i == 3'd7 || %s || req_mask_i == '0) i_what = IsDropReq;", src_bad_q);
    emit(e, "    else if (room_t && room_q && i_go_q) i_what = IsReq;");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "assign i_iss = i_what == IsRsp || i_what == IsFill || i_what == IsReplay || i_what == IsReq;");
    emit(e, "assign req_ready_o = i_what == IsReq || i_what == IsDropReq;");
    emit(e, "assign rsp_ready_o = i_what == IsRsp || i_what == IsDropRsp;");
    emit(e, "assign mem_rsp_ready_o = i_what == IsFill || i_what == IsDropMem;");
    emit(e, "assign idle_o = swept && !m_valid_q && !d_valid_q && !e_valid && !k_valid_q && !pass_act_q &&");
    emit(e, "                !pass_req_q && !i_fill_open;");
    emit(e, "assign err_o = err_q;");
    emit_nl(e);
}

/* The event I hands to M. */
static void emit_issue_event(emit_file *e, const gctx *x)
{
    unsigned DB = x->db, LB = x->lb, W = x->w, DW = x->dw;
    emit(e, "// ---- I: the event M receives ------------------------------------------------");
    emit(e, "logic [1:0] i_kind;");
    emit(e, "logic [2:0] i_rk, i_op;");
    prim_declv(e, DB, "i_dev");
    prim_declv(e, LB, "i_line");
    prim_declv(e, W, "i_mask");
    prim_declv(e, DW, "i_v");
    prim_declv(e, x->xb, "i_txn");
    emit(e, "always @* begin");
    emit(e, "  i_kind = 2'd%u;", EV_REQ);
    emit(e, "  i_rk = req_type_i;");
    emit(e, "  i_dev = req_src_i;");
    emit(e, "  i_op = req_op_i;");
    emit(e, "  i_line = req_line_i;");
    emit(e, "  i_mask = req_mask_i;");
    emit(e, "  i_v = req_data_i;");
    emit(e, "  i_txn = '0;");
    emit(e, "  if (i_what == IsRsp) begin");
    emit(e, "    i_kind = 2'd%u;", EV_RSP);
    emit(e, "    i_rk = {2'b00, rsp_type_i == 4'd8};");
    emit(e, "    i_dev = rsp_src_i;");
    emit(e, "    i_op = 3'd0;");
    emit(e, "    i_line = rsp_line_i;");
    emit(e, "    i_mask = rsp_type_i == 4'd8 ? '0 : rsp_mask_i;");
    emit(e, "    i_v = rsp_data_i;");
    emit(e, "    i_txn = i_rx;");
    emit(e, "  end else if (i_what == IsFill) begin");
    emit(e, "    i_kind = 2'd%u;", EV_FILL);
    emit(e, "    i_rk = 3'd0;");
    emit(e, "    i_dev = '0;");
    emit(e, "    i_op = 3'd0;");
    emit(e, "    i_line = i_fline;");
    emit(e, "    i_mask = '0;");
    emit(e, "    i_v = mem_rsp_data_i;");
    emit(e, "    i_txn = mem_rsp_id_i;");
    emit(e, "  end else if (i_what == IsReplay) begin");
    emit(e, "    i_kind = 2'd%u;", EV_REPLAY);
    emit(e, "    i_rk = q_kind_q[q_head_q*3 +: 3];");
    emit(e, "    i_dev = q_dev_q[q_head_q*%u +: %u];", DB, DB);
    emit(e, "    i_op = q_op_q[q_head_q*3 +: 3];");
    emit(e, "    i_line = q_line_q[q_head_q*%u +: %u];", LB, LB);
    emit(e, "    i_mask = q_mask_q[q_head_q*%u +: %u];", W, W);
    emit(e, "    i_v = q_v_q[q_head_q*%u +: %u];", DW, DW);
    emit(e, "  end");
    emit(e, "end");
    emit_nl(e);
}

/* ------------------------------------------------------- meta RAM and M */
/* A way's meta field at offset off (width w) of row `row`, way expression. */
static void emit_meta_ram(emit_file *e, const gctx *x)
{
    unsigned w, ways = x->c->ways;
    char b[96];
    emit(e, "// ---- meta RAM: one row per set, way w at [w*%u +: %u] =", x->pw, x->pw);
    emit(e, "// {%srank, tag, sharers, owned, dirty, S, valid}; read at issue, written by", x->array ? "owners, " : "");
    emit(e, "// D and by the reset sweep (every way invalid, ranks = way index)");
    prim_declv(e, x->rw, "meta_rd_q, meta_wdata, n_row");
    prim_declv(e, x->sib, "meta_waddr");
    emit(e, "logic meta_we;");
    emit(e, "assign meta_we = !swept || d_adv;");
    if (x->sb)
        emit(e, "assign meta_waddr = !swept ? sw_q[%u:0] : d_set;", x->sb - 1);
    else
        emit(e, "assign meta_waddr = 1'b0;");
    emit_raw(e, "  assign meta_wdata = !swept ? {");
    for (w = ways; w-- > 0;) {
        if (x->array)
            emit_raw(e, "%u'd0, ", x->w * x->db);
        emit_raw(e, "%u'd%u, %u'd0%s", x->wi, w, x->o_rank, w ? ", " : "");
    }
    emit_raw(e, "} : n_row;\n");
    emit(e, "(* no_rw_check *)");
    prim_ram_decl(e, "meta_q", x->rw, x->c->sets);
    prim_ram_ports(e, &(prim_ram){"meta_q", "meta_we", "meta_waddr", "meta_wdata", "i_iss", "meta_rd_q", "i_set", 0});
    emit(e, "// ---- data RAM: one line per (set, way); read at M, written by W");
    prim_declv(e, x->dw, "dmem_rd_q, n_data");
    prim_declv(e, x->dab, "dmem_waddr, dmem_raddr");
    emit(e, "assign dmem_waddr = %s;", daddr(b, sizeof b, x, "d_set", "d_way_q"));
    emit(e, "assign dmem_raddr = %s;", daddr(b, sizeof b, x, "m_set", "m_way"));
    emit(e, "(* no_rw_check *)");
    prim_ram_decl(e, "dmem_q", x->dw, x->c->sets * ways);
    prim_ram_ports(e, &(prim_ram){"dmem_q", "w_valid_q", "w_addr_q", "n_data", "m_adv", "dmem_rd_q", "dmem_raddr", 0});
    emit_nl(e);
}

static void emit_m_stage(emit_file *e, const gctx *x)
{
    unsigned ways = x->c->ways, T = x->c->txn, wi = x->wi, PW = x->pw, LB = x->lb;
    char b[96], tg[96];
    emit(e, "// ---- M: tag compare, free way, LRU victim; the way whose line is read ----");
    prim_declv(e, wi, "m_way, m_hway, m_fway, m_vway, m_tway, m_vrank");
    prim_declv(e, ways, "m_busy");
    emit(e, "logic m_hit, m_free, m_vany, m_evs;");
    emit(e, "always @* begin");
    emit(e, "  m_busy = '0;");
    emit(e, "  m_evs = 1'b0;");
    emit(e, "  m_tway = '0;");
    emit(e, "  for (int i = 0; i < %u; i++) begin", T);
    emit(e, "    if (t_valid_q[i] && %s == m_set) begin", set_at(b, sizeof b, x, "t_line_q", "i"));
    emit(e, "      if (t_kind_q[i*3 +: 3] == 3'd%u) m_evs = 1'b1;", TX_EVICT);
    emit(e, "      for (int w = 0; w < %u; w++)", ways);
    emit(e, "        if (t_way_q[i*%u +: %u] == %u'(w)) m_busy[w] = 1'b1;", wi, wi, wi);
    emit(e, "    end");
    emit(e, "    if (m_txn_q == %u'(i)) m_tway = t_way_q[i*%u +: %u];", x->xb, wi, wi);
    emit(e, "  end");
    emit(e, "  m_hit = 1'b0;");
    emit(e, "  m_hway = '0;");
    emit(e, "  m_free = 1'b0;");
    emit(e, "  m_fway = '0;");
    emit(e, "  for (int w = %u; w >= 0; w--) begin", ways - 1);
    emit(e, "    if (meta_rd_q[w*%u] && meta_rd_q[w*%u+%u +: %u] == %s) begin", PW, PW, x->o_tag, x->tb,
         tag_of(tg, sizeof tg, x, "m_line_q"));
    emit(e, "      m_hit = 1'b1;");
    emit(e, "      m_hway = %u'(w);", wi);
    emit(e, "    end");
    emit(e, "    if (!meta_rd_q[w*%u]) begin", PW);
    emit(e, "      m_free = 1'b1;");
    emit(e, "      m_fway = %u'(w);", wi);
    emit(e, "    end");
    emit(e, "  end");
    emit(e, "  // the victim: the least recently used way no transaction holds");
    emit(e, "  m_vany = 1'b0;");
    emit(e, "  m_vway = '0;");
    emit(e, "  m_vrank = '0;");
    emit(e, "  for (int w = 0; w < %u; w++)", ways);
    emit(e, "    if (!m_busy[w] && (!m_vany || meta_rd_q[w*%u+%u +: %u] > m_vrank)) begin", PW, x->o_rank, wi);
    emit(e, "      m_vany = 1'b1;");
    emit(e, "      m_vway = %u'(w);", wi);
    emit(e, "      m_vrank = meta_rd_q[w*%u+%u +: %u];", PW, x->o_rank, wi);
    emit(e, "    end");
    emit(e, "  if (m_kind_q[1]) m_way = m_tway;");
    emit(e, "  else if (m_hit) m_way = m_hway;");
    emit(e, "  else if (m_free) m_way = m_fway;");
    emit(e, "  else m_way = m_vway;");
    emit(e, "end");
    (void)LB;
    emit_nl(e);
}

/* Whether M's line is blocked by a transaction or held by a deferred request
 * (of its line, or waiting for a way in its set when this one needs one; a
 * replayed request looks only at those pushed back in this pass). Found in
 * M for D: neither can change meanwhile, since the event in D (the only one
 * that opens, closes or pushes) is of another set, and an entry a replay
 * pass issues is too. */
static void emit_m_held(emit_file *e, const gctx *x)
{
    unsigned T = x->c->txn, Q = x->c->defer, LB = x->lb;
    char b[96];
    emit(e, "logic m_blk, m_held, m_nway;");
    emit(e, "assign m_nway = !m_hit && m_rk_q != 3'd6;");
    emit(e, "always @* begin");
    emit(e, "  m_blk = 1'b0;");
    emit(e, "  for (int i = 0; i < %u; i++)", T);
    emit(e, "    if (t_valid_q[i] && t_line_q[i*%u +: %u] == m_line_q) m_blk = 1'b1;", LB, LB);
    emit(e, "  m_held = 1'b0;");
    emit(e, "  for (int i = 0; i < %u; i++)", Q);
    emit(e, "    if (q_val_q[i] && (m_kind_q != 2'd%u || q_stay_q[i]) && (q_line_q[i*%u +: %u] == m_line_q ||",
         EV_REPLAY, LB, LB);
    emit(e, "        (m_nway && q_way_q[i] && %s == m_set))) m_held = 1'b1;", set_at(b, sizeof b, x, "q_line_q", "i"));
    emit(e, "end");
    emit_nl(e);
}

/* ------------------------------------------------------------- D inputs */
static void emit_d_way(emit_file *e, const gctx *x)
{
    unsigned W = x->w, N = x->n, DB = x->db, PW = x->pw, T = x->c->txn;
    emit(e, "// ---- D: the way the event works on (cw_), the request Table III sees");
    emit(e, "// (rq_) on which state (ri_: the way, a fresh line, or the filled line)");
    prim_declv(e, PW, "cw");
    emit(e, "logic cw_valid, cw_st, cw_dirty, ri_fresh, ri_st, ri_dirty;");
    prim_declv(e, W, "cw_owned, ri_owned, rq_mask");
    prim_declv(e, N, "cw_sh, ri_sh");
    prim_declv(e, x->tb, "cw_tag");
    prim_declv(e, x->wi, "cw_rank");
    prim_declv(e, W * DB, "cw_own, ri_own, dm_own");
    prim_declv(e, x->dw, "ri_data, rq_v");
    emit(e, "logic [2:0] rq_kind, rq_op;");
    prim_declv(e, DB, "rq_dev");
    emit(e, "assign cw = d_row_q[d_way_q*%u +: %u];", PW, PW);
    emit(e, "assign cw_valid = cw[0];");
    emit(e, "assign cw_st = cw[1];");
    emit(e, "assign cw_dirty = cw[2];");
    emit(e, "assign cw_owned = cw[3 +: %u];", W);
    emit(e, "assign cw_sh = cw[%u +: %u];", x->o_sh, N);
    emit(e, "assign cw_tag = cw[%u +: %u];", x->o_tag, x->tb);
    emit(e, "assign cw_rank = cw[%u +: %u];", x->o_rank, x->wi);
    emit(e, "assign ri_fresh = !d_kind_q[1] && !d_hit_q;");
    emit(e, "assign ri_st = !ri_fresh && cw_st;");
    emit(e, "assign ri_dirty = !ri_fresh && cw_dirty;");
    emit(e, "assign ri_owned = ri_fresh ? '0 : cw_owned;");
    emit(e, "assign ri_sh = ri_fresh ? '0 : cw_sh;");
    emit(e, "assign ri_data = ri_fresh ? '0 : d_kind_q == 2'd%u ? d_v_q : dmem_rd_q;", EV_FILL);
    if (x->array) {
        emit(e, "// owner IDs from the meta row's owner array");
        emit(e, "assign cw_own = cw[%u +: %u];", x->o_own, W * DB);
        emit(e, "assign ri_own = ri_fresh ? '0 : cw_own;");
        emit(e, "assign dm_own = '0;");
    } else {
        emit(e, "// owner IDs in the data field of an owned word (III-F)");
        emit(e, "always @* begin");
        emit(e, "  for (int i = 0; i < %u; i++) begin", W);
        emit(e, "    dm_own[i*%u +: %u] = dmem_rd_q[i*%u +: %u];", DB, DB, x->wb, DB);
        emit(e, "    ri_own[i*%u +: %u] = ri_data[i*%u +: %u];", DB, DB, x->wb, DB);
        emit(e, "  end");
        emit(e, "end");
        emit(e, "assign cw_own = dm_own;");
    }
    emit(e, "// the transaction an answer or a fill is for");
    emit(e, "logic [2:0] tx_kind, tx_rkind, tx_rop;");
    emit(e, "logic tx_inv;");
    prim_declv(e, DB, "tx_rdev");
    prim_declv(e, W, "tx_mu, tx_prvk");
    prim_declv(e, N, "tx_pack, tx_shadd");
    prim_declv(e, x->dw, "tx_rv");
    emit(e, "// (the entry's fields and the request were selected in M: the entry cannot");
    emit(e, "// change meanwhile, since D's event is of another set)");
    emit(e, "assign tx_kind = d_tk_q;");
    emit(e, "assign tx_rkind = d_trk_q;");
    emit(e, "assign tx_rop = d_trop_q;");
    emit(e, "assign tx_rdev = d_trdev_q;");
    emit(e, "assign tx_rv = t_rv_q[d_txn_q*%u +: %u];", x->dw, x->dw);
    emit(e, "assign tx_mu = d_tmu_q;");
    emit(e, "assign tx_pack = d_tpack_q;");
    emit(e, "assign tx_prvk = d_tprvk_q;");
    emit(e, "assign tx_shadd = d_tshadd_q;");
    emit(e, "assign tx_inv = d_tinv_q;");
    emit(e, "assign rq_kind = d_qk_q;");
    emit(e, "assign rq_dev = d_qdev_q;");
    emit(e, "assign rq_op = d_qop_q;");
    emit(e, "assign rq_mask = d_qmask_q;");
    emit(e, "assign rq_v = d_kind_q == 2'd%u ? tx_rv : d_v_q;", EV_FILL);
    emit(e, "// the line is blocked by a transaction, or held by a deferred request (both");
    emit(e, "// found in M: emit_m_held)");
    emit(e, "logic c_blk, c_nway, c_held;");
    prim_declv(e, x->xb, "c_tidx");
    emit(e, "assign c_nway = !d_hit_q && d_rk_q != 3'd6;");
    emit(e, "assign c_blk = d_blk_q;");
    emit(e, "assign c_held = d_held_q;");
    emit(e, "always @* begin");
    emit(e, "  c_tidx = '0;");
    emit(e, "  for (int i = %u; i >= 0; i--)", T - 1);
    emit(e, "    if (!t_valid_q[i]) c_tidx = %u'(i);", x->xb);
    emit(e, "end");
    emit_nl(e);
}

/* ------------------------------------------------------- Table III pieces */
/* Words of `words` granted to device `dev` (prefix p: the block's way). */
static void emit_grant(emit_file *e, const gctx *x, const char *p, const char *words, const char *dev,
                       const char *src, const char *ind)
{
    emit(e, "%s%s_owned = %s_owned | %s;", ind, p, p, words);
    emit(e, "%sfor (int i = 0; i < %u; i++)", ind, x->w);
    emit(e, "%s  if (%s[i]) begin", ind, words);
    emit(e, "%s    %s_own[i*%u +: %u] = %s;", ind, p, x->db, x->db, dev);
    if (!x->array)
        emit(e, "%s    %s_src[i*4 +: 4] = %s; // the owner's ID in the data field", ind, p, src);
    emit(e, "%s  end", ind);
}

/* Word i (unowned from now) takes the value of source src, the line dirty. */
static void emit_store(emit_file *e, const char *p, const char *src, const char *ind)
{
    emit(e, "%s%s_owned[i] = 1'b0;", ind, p);
    emit(e, "%s%s_src[i*4 +: 4] = %s;", ind, p, src);
    emit(e, "%s%s_dirty = 1'b1;", ind, p);
}

/* finish_write: the write of the words mu (ReqWT: its values, source vsrc;
 * ReqWT+data: its op's results, source osrc, the op applied in W) and its
 * response, whose data (a ReqWT+data's old values) are the words' values
 * before the write: the mask `p`_rdm of `p`_base. */
static void emit_finish(emit_file *e, const gctx *x, const char *p, const char *kind, const char *op,
                        const char *vsrc, const char *osrc, const char *mu, const char *ind)
{
    char i2[32];
    snprintf(i2, sizeof i2, "%s      ", ind);
    emit(e, "%sfor (int i = 0; i < %u; i++)", ind, x->w);
    emit(e, "%s  if (%s[i]) begin", ind, mu);
    emit(e, "%s    if (%s == 3'd2) begin", ind, kind);
    emit_store(e, p, vsrc, i2);
    emit(e, "%s    end else if (%s != 3'd0) begin", ind, op);
    emit_store(e, p, osrc, i2);
    emit(e, "%s    end", ind);
    emit(e, "%s  end", ind);
    emit(e, "%s%s_rsp = 1'b1;", ind, p);
    emit(e, "%s%s_rkind = %s == 3'd2 ? 4'd2 : 4'd4;", ind, p, kind);
    emit(e, "%s%s_rmask = %s;", ind, p, mu);
    emit(e, "%s%s_rdm = %s == 3'd2 ? '0 : %s;", ind, p, kind, mu);
}

/* ReqV and ReqS(2): owned words forwarded (FwdReqV), the rest served; a
 * ReqV of a device of --extra-words (reqv) that is served at all gets every
 * other word of the line nobody owns (Table II's DeNovo footnote). */
static void emit_do_read(emit_file *e, const gctx *x, int reqv, const char *ind)
{
    emit(e, "%sif (rl_mo != '0) begin", ind);
    emit(e, "%s  rr_fwd = 3'd0;", ind);
    emit(e, "%s  rr_fwords = rl_mo;", ind);
    emit(e, "%send", ind);
    emit(e, "%sif (rl_mu != '0) begin", ind);
    emit(e, "%s  rr_rsp = 1'b1;", ind);
    emit(e, "%s  rr_rkind = 4'd0;", ind);
    emit(e, "%s  rr_rmask = rl_mu;", ind);
    emit(e, "%s  rr_rdm = rl_mu;", ind);
    if (reqv && x->c->extra) {
        emit(e, "%s  // extra words: the requestor is a DeNovo device of --extra-words", ind);
        emit(e, "%s  if (((%u'h%llx >> rq_dev) & %u'd1) != '0) begin", ind, x->n, (unsigned long long)x->c->extra,
             x->n);
        emit(e, "%s    rr_rmask = ~ri_owned;", ind);
        emit(e, "%s    rr_rdm = ~ri_owned;", ind);
        emit(e, "%s  end", ind);
    }
    emit(e, "%send", ind);
}

/* ReqS(1): unowned words RspS at once, owned ones FwdReqS (SHARE). */
static void emit_do_share(emit_file *e, const gctx *x, const char *ind)
{
    unsigned N = x->n;
    emit(e, "%sif (rl_mo != '0) begin", ind);
    emit(e, "%s  rr_fwd = 3'd1;", ind);
    emit(e, "%s  rr_fwords = rl_mo;", ind);
    emit(e, "%send", ind);
    emit(e, "%sif (rl_mu != '0) begin", ind);
    emit(e, "%s  rr_st = 1'b1;", ind);
    emit(e, "%s  rr_sh = rr_sh | (%u'd1 << rq_dev);", ind, N);
    emit(e, "%s  rr_rsp = 1'b1;", ind);
    emit(e, "%s  rr_rkind = 4'd1;", ind);
    emit(e, "%s  rr_rmask = rl_mu;", ind);
    emit(e, "%s  rr_rdm = rl_mu;", ind);
    emit(e, "%send", ind);
    emit(e, "%sif (rl_mo != '0) begin", ind);
    emit(e, "%s  rr_open = 1'b1;", ind);
    emit(e, "%s  rr_tkind = 3'd%u;", ind, TX_SHARE);
    emit(e, "%s  rr_prvk = rl_mo;", ind);
    emit(e, "%s  rr_shadd = rl_owners | (%u'd1 << rq_dev);", ind, N);
    emit(e, "%send", ind);
}

/* ReqO, ReqO+data, ReqS(3): owned words forwarded with ownership moved at
 * once; V words granted at once; S words after every Ack (OWN). */
static void emit_do_own(emit_file *e, const gctx *x, int data, const char *ind)
{
    char i2[32];
    snprintf(i2, sizeof i2, "%s  ", ind);
    emit(e, "%sif (rl_mu != '0 && ri_st) begin", ind);
    emit(e, "%s  rl_invs = ri_sh;", ind);
    emit(e, "%s  // X9: a whole-line upgrade does not invalidate the requestor", ind);
    emit(e, "%s  if (&rl_m) rl_invs = rl_invs & ~(%u'd1 << rq_dev);", ind, x->n);
    emit(e, "%send", ind);
    emit(e, "%srr_invs = rl_invs;", ind);
    emit(e, "%sif (rl_mo != '0) begin", ind);
    emit(e, "%s  rr_fwd = 3'd%u;", ind, data ? 3 : 2);
    emit(e, "%s  rr_fwords = rl_mo;", ind);
    emit(e, "%send", ind);
    emit_grant(e, x, "rr", "rl_mo", "rq_dev", "SrcRqdev", ind);
    emit(e, "%sif (rl_invs != '0) begin", ind);
    emit(e, "%s  rr_open = 1'b1;", ind);
    emit(e, "%s  rr_tkind = 3'd%u;", ind, TX_OWN);
    emit(e, "%s  rr_mu = rl_mu;", ind);
    emit(e, "%s  rr_pack = rl_invs;", ind);
    emit(e, "%s  rr_inv = 1'b1;", ind);
    emit(e, "%s  rr_treq = 3'd%u;", ind, data ? 5 : 3);
    emit(e, "%send else if (rl_mu != '0) begin", ind);
    emit(e, "%s  rr_rsp = 1'b1;", ind);
    emit(e, "%s  rr_rkind = 4'd%u;", ind, data ? 5 : 3);
    emit(e, "%s  rr_rmask = rl_mu;", ind);
    emit(e, "%s  rr_rdm = %s;", ind, data ? "rl_mu" : "'0");
    emit_grant(e, x, "rr", "rl_mu", "rq_dev", "SrcRqdev", i2);
    emit(e, "%s  if (ri_st) begin", ind);
    emit(e, "%s    rr_st = 1'b0;", ind);
    emit(e, "%s    rr_sh = '0;", ind);
    emit(e, "%s  end", ind);
    emit(e, "%send", ind);
}

/* ReqWT and ReqWT+data: word mode writes owned words of a ReqWT at once
 * (FwdReqO) and revokes those of a ReqWT+data; line mode revokes every
 * other owner's word. S words: Inv to every sharer. */
static void emit_do_write(emit_file *e, const gctx *x, const char *ind)
{
    char i2[32];
    snprintf(i2, sizeof i2, "%s    ", ind);
    emit(e, "%sif (ri_st && %s) rl_invs = ri_sh;", ind, x->line ? "1'b1" : "rl_mu != '0");
    if (x->line)
        emit(e, "%srl_rvk = ri_owned & ~rl_ownr;", ind);
    else
        emit(e, "%srl_rvk = rq_kind == 3'd4 ? rl_mo : '0;", ind);
    emit(e, "%srr_invs = rl_invs;", ind);
    emit(e, "%sif (rl_rvk != '0) begin", ind);
    emit(e, "%s  rr_fwd = 3'd4;", ind);
    emit(e, "%s  rr_fwords = rl_rvk;", ind);
    emit(e, "%send", ind);
    if (!x->line) {
        emit(e, "%sif (rq_kind == 3'd2 && rl_mo != '0) begin", ind);
        emit(e, "%s  rr_fwd = 3'd2;", ind);
        emit(e, "%s  rr_fwords = rl_mo;", ind);
        emit(e, "%s  for (int i = 0; i < %u; i++)", ind, x->w);
        emit(e, "%s    if (rl_mo[i]) begin", ind);
        emit_store(e, "rr", "SrcRqv", i2);
        emit(e, "%s    end", ind);
        emit(e, "%s  rl_m2 = rl_mu;", ind);
        emit(e, "%send", ind);
    }
    emit(e, "%sif (rl_invs != '0 || rl_rvk != '0) begin", ind);
    emit(e, "%s  rr_open = 1'b1;", ind);
    emit(e, "%s  rr_tkind = rq_kind == 3'd2 ? 3'd%u : 3'd%u;", ind, TX_WRITE, TX_ATOMIC);
    emit(e, "%s  rr_mu = rl_m2;", ind);
    emit(e, "%s  rr_pack = rl_invs;", ind);
    emit(e, "%s  rr_prvk = rl_rvk;", ind);
    emit(e, "%s  rr_inv = rl_invs != '0;", ind);
    emit(e, "%send else if (rl_m2 != '0) begin", ind);
    snprintf(i2, sizeof i2, "%s  ", ind);
    emit_finish(e, x, "rr", "rq_kind", "rq_op", "SrcRqv", "SrcRrop", "rl_m2", i2);
    emit(e, "%send", ind);
}

/* The source codes of the words D writes, and rb_base: the words' values
 * before a transaction's completion (a RspRvkO's words carry the owner's). */
static void emit_srcdefs(emit_file *e, const gctx *x)
{
    unsigned WB = x->wb;
    emit(e, "// ---- D: where each word written comes from (the decision picks a source per");
    emit(e, "// word: the data are selected after it; a ReqWT+data op is applied in W), and");
    emit(e, "// E's data");
    emit(e, "localparam logic [3:0] SrcDmem = 4'd0, SrcRi = 4'd1, SrcDv = 4'd2, SrcRqv = 4'd3, SrcTxv = 4'd4,");
    if (x->array)
        emit(e, "                       SrcRrop = 4'd5, SrcRbop = 4'd6;");
    else
        emit(e, "                       SrcRrop = 4'd5, SrcRbop = 4'd6, SrcRqdev = 4'd7, SrcTxdev = 4'd8;");
    emit(e, "localparam logic [2:0] JdNone = 3'd0, JdRr = 3'd1, JdRb = 3'd2, JdVict = 3'd3, JdRbAll = 3'd4;");
    prim_declv(e, x->dw, "rb_base");
    emit(e, "always @* begin");
    emit(e, "  for (int i = 0; i < %u; i++)", x->w);
    emit(e, "    rb_base[i*%u +: %u] = (!d_rk_q[0] && d_mask_q[i]) ? d_v_q[i*%u +: %u] : dmem_rd_q[i*%u +: %u];", WB,
         WB, WB, WB, WB, WB);
    emit(e, "end");
    emit_nl(e);
}

static void emit_rule_decls(emit_file *e, const gctx *x)
{
    unsigned W = x->w, N = x->n;
    emit(e, "// ---- D: Table III, a request on a present line (spandex_llc_rule_request) --");
    emit(e, "logic rr_st, rr_dirty, rr_rsp, rr_open, rr_inv, rr_err, rl_mesi;");
    prim_declv(e, N, "rr_sh, rr_invs, rr_pack, rr_shadd, rl_owners, rl_invs");
    prim_declv(e, W, "rr_owned, rr_fwords, rr_rmask, rr_mu, rr_prvk, rl_ownr, rl_m, rl_mo, rl_mu, rl_m2, rl_rvk");
    prim_declv(e, W * x->db, "rr_own");
    prim_declv(e, W * 4, "rr_src");
    prim_declv(e, W, "rr_rdm");
    emit(e, "logic [2:0] rr_fwd, rr_tkind, rr_treq;");
    emit(e, "logic [3:0] rr_rkind;");
}

/* The ReqS option (spec 2.2, X6). */
static void emit_reqs(emit_file *e, const gctx *x)
{
    switch (x->c->reqs) {
    case SPANDEX_LLC_REQS_1: emit_do_share(e, x, "      "); break;
    case SPANDEX_LLC_REQS_2: emit_do_read(e, x, 0, "      "); break;
    case SPANDEX_LLC_REQS_3: emit_do_own(e, x, 1, "      "); break;
    default:
        emit(e, "      // option 1 if a requested word is S or owned by a MESI device, else 3");
        emit(e, "      if ((ri_st && rl_mu != '0) || rl_mesi) begin");
        emit_do_share(e, x, "        ");
        emit(e, "      end else begin");
        emit_do_own(e, x, 1, "        ");
        emit(e, "      end");
        break;
    }
}

static void emit_rule(emit_file *e, const gctx *x)
{
    unsigned W = x->w, DB = x->db, N = x->n;
    emit_srcdefs(e, x);
    emit_rule_decls(e, x);
    emit(e, "always @* begin");
    emit(e, "  rr_st = ri_st;");
    emit(e, "  rr_sh = ri_sh;");
    emit(e, "  rr_owned = ri_owned;");
    emit(e, "  rr_dirty = ri_dirty;");
    emit(e, "  rr_own = ri_own;");
    emit(e, "  rr_src = {%u{SrcRi}};", W);
    emit(e, "  rr_invs = '0;");
    emit(e, "  rr_fwd = 3'd0;");
    emit(e, "  rr_fwords = '0;");
    emit(e, "  rr_rsp = 1'b0;");
    emit(e, "  rr_rkind = 4'd0;");
    emit(e, "  rr_rmask = '0;");
    emit(e, "  rr_rdm = '0;");
    emit(e, "  rr_open = 1'b0;");
    emit(e, "  rr_tkind = 3'd0;");
    emit(e, "  rr_treq = rq_kind;");
    emit(e, "  rr_mu = '0;");
    emit(e, "  rr_pack = '0;");
    emit(e, "  rr_prvk = '0;");
    emit(e, "  rr_shadd = '0;");
    emit(e, "  rr_inv = 1'b0;");
    emit(e, "  rl_invs = '0;");
    emit(e, "  rl_rvk = '0;");
    emit(e, "  rl_owners = '0;");
    emit(e, "  rl_mesi = 1'b0;");
    emit(e, "  for (int i = 0; i < %u; i++) begin", W);
    emit(e, "    rl_ownr[i] = ri_owned[i] && ri_own[i*%u +: %u] == rq_dev;", DB, DB);
    emit(e, "  end");
    if (x->line) {
        emit(e, "  // line mode: ReqV, ReqS, ReqO, ReqO+data cover the line but the requestor's words");
        emit(e, "  rl_m = (rq_kind == 3'd0 || rq_kind == 3'd1 || rq_kind == 3'd3 || rq_kind == 3'd5) ?");
        emit(e, "         ~rl_ownr : rq_mask;");
    } else {
        emit(e, "  rl_m = rq_mask;");
    }
    emit(e, "  rr_err = (rl_m & rl_ownr) != '0; // X15: a request for words R owns");
    emit(e, "  rl_mo = rl_m & ri_owned;");
    emit(e, "  rl_mu = rl_m & ~ri_owned;");
    emit(e, "  rl_m2 = rl_m;");
    emit(e, "  for (int i = 0; i < %u; i++)", W);
    emit(e, "    if (rl_mo[i]) begin");
    emit(e, "      rl_owners = rl_owners | (%u'd1 << ri_own[i*%u +: %u]);", N, DB, DB);
    if (x->c->reqs == SPANDEX_LLC_REQS_PAPER)
        emit(e, "      if (((%u'h%llx >> ri_own[i*%u +: %u]) & %u'd1) != '0) rl_mesi = 1'b1;", N,
             (unsigned long long)x->c->mesi, DB, DB, N);
    emit(e, "    end");
    emit(e, "  if (!rr_err) begin");
    emit(e, "    case (rq_kind)");
    emit(e, "    3'd0: begin");
    emit_do_read(e, x, 1, "      ");
    emit(e, "    end");
    emit(e, "    3'd1: begin");
    emit_reqs(e, x);
    emit(e, "    end");
    emit(e, "    3'd3: begin");
    emit_do_own(e, x, 0, "      ");
    emit(e, "    end");
    emit(e, "    3'd5: begin");
    emit_do_own(e, x, 1, "      ");
    emit(e, "    end");
    emit(e, "    3'd2, 3'd4: begin");
    emit_do_write(e, x, "      ");
    emit(e, "    end");
    emit(e, "    default: ;");
    emit(e, "    endcase");
    emit(e, "  end");
    emit(e, "end");
    emit_nl(e);
}

/* ------------------------------------------- D: an Ack or RspRvkO, completion */
static void emit_answer(emit_file *e, const gctx *x)
{
    unsigned W = x->w, N = x->n, DB = x->db;
    emit(e, "// ---- D: an Ack or RspRvkO for its transaction (spandex_llc_rule_answer), and");
    emit(e, "// the transaction's completion when it was the last (rule_complete, eviction)");
    emit(e, "logic rb_valid, rb_st, rb_dirty, rb_err, rb_done, rb_memwr, rb_rsp;");
    prim_declv(e, N, "rb_sh, rb_pack");
    prim_declv(e, W, "rb_owned, rb_prvk, rb_rmask, rb_ownd");
    prim_declv(e, W * DB, "rb_own");
    prim_declv(e, W * 4, "rb_src");
    prim_declv(e, W, "rb_rdm");
    emit(e, "logic [3:0] rb_rkind;");
    emit(e, "always @* begin");
    emit(e, "  rb_valid = cw_valid;");
    emit(e, "  rb_st = cw_st;");
    emit(e, "  rb_sh = cw_sh;");
    emit(e, "  rb_owned = cw_owned;");
    emit(e, "  rb_dirty = cw_dirty;");
    emit(e, "  rb_own = cw_own;");
    emit(e, "  rb_src = {%u{SrcDmem}};", W);
    emit(e, "  rb_pack = tx_pack;");
    emit(e, "  rb_prvk = tx_prvk;");
    emit(e, "  rb_err = 1'b0;");
    emit(e, "  rb_memwr = 1'b0;");
    emit(e, "  rb_rsp = 1'b0;");
    emit(e, "  rb_rkind = 4'd0;");
    emit(e, "  rb_rmask = '0;");
    emit(e, "  rb_rdm = '0;");
    emit(e, "  for (int i = 0; i < %u; i++) rb_ownd[i] = cw_owned[i] && cw_own[i*%u +: %u] == d_dev_q;", W, DB, DB);
    emit(e, "  if (d_rk_q[0]) begin");
    emit(e, "    if ((tx_pack & (%u'd1 << d_dev_q)) == '0) rb_err = 1'b1;", N);
    emit(e, "    else begin");
    emit(e, "      rb_pack = rb_pack & ~(%u'd1 << d_dev_q);", N);
    emit(e, "      rb_sh = rb_sh & ~(%u'd1 << d_dev_q);", N);
    emit(e, "    end");
    emit(e, "  end else if ((d_mask_q & ~tx_prvk) != '0 || (d_mask_q & ~rb_ownd) != '0) begin");
    emit(e, "    rb_err = 1'b1;");
    emit(e, "  end else begin");
    emit(e, "    for (int i = 0; i < %u; i++)", W);
    emit(e, "      if (d_mask_q[i]) begin");
    emit_store(e, "rb", "SrcDv", "        ");
    emit(e, "      end");
    emit(e, "    rb_prvk = rb_prvk & ~d_mask_q;");
    emit(e, "  end");
    emit(e, "  rb_done = !rb_err && rb_pack == '0 && rb_prvk == '0;");
    emit(e, "  if (rb_done)");
    emit(e, "    case (tx_kind)");
    emit(e, "    3'd%u: begin // MemWr if dirty, the way freed", TX_EVICT);
    emit(e, "      rb_memwr = rb_dirty;");
    emit(e, "      rb_valid = 1'b0;");
    emit(e, "    end");
    emit(e, "    3'd%u: begin // the owners join the sharers", TX_SHARE);
    emit(e, "      rb_st = 1'b1;");
    emit(e, "      rb_sh = rb_sh | tx_shadd;");
    emit(e, "    end");
    emit(e, "    3'd%u: begin // RspO(+data), the S words granted", TX_OWN);
    emit(e, "      rb_rsp = 1'b1;");
    emit(e, "      rb_rkind = tx_rkind == 3'd5 ? 4'd5 : 4'd3;");
    emit(e, "      rb_rmask = tx_mu;");
    emit(e, "      rb_rdm = tx_rkind == 3'd5 ? tx_mu : '0;");
    emit_grant(e, x, "rb", "tx_mu", "tx_rdev", "SrcTxdev", "      ");
    emit(e, "      rb_st = 1'b0;");
    emit(e, "      rb_sh = '0;");
    emit(e, "    end");
    emit(e, "    default: begin // the write (its op) and its response");
    emit_finish(e, x, "rb", "tx_rkind", "tx_rop", "SrcTxv", "SrcRbop", "tx_mu", "      ");
    emit(e, "      if (tx_inv) begin");
    emit(e, "        rb_st = 1'b0;");
    emit(e, "        rb_sh = '0;");
    emit(e, "      end");
    emit(e, "    end");
    emit(e, "    endcase");
    emit(e, "end");
    emit_nl(e);
}

/* ------------------------------------------------------------ D: the step */
static void emit_step_decls(emit_file *e, const gctx *x)
{
    unsigned W = x->w, N = x->n, DB = x->db;
    emit(e, "// ---- D: what the event does (spandex_llc_tm d_step): the way (a_), the job");
    emit(e, "// for E (j_), the transaction opened (x_), closed or updated, the push");
    emit(e, "logic a_valid, a_st, a_dirty, a_touch, j_memwr, j_memrd, j_rsp, x_open, x_close, x_upd;");
    emit(e, "logic p_en, p_way, c_err, c_done, c_fill;");
    prim_declv(e, x->tb, "a_tag");
    prim_declv(e, N, "a_sh, j_invs, x_pack, x_shadd");
    prim_declv(e, W, "a_owned, j_fwords, j_rmask, x_mu, x_prvk");
    prim_declv(e, W * DB, "a_own, j_fown");
    prim_declv(e, W * 4, "a_src");
    prim_declv(e, x->dw, "j_data");
    emit(e, "logic [2:0] j_dsel;");
    prim_declv(e, x->lb, "j_wrline, j_line, x_line, d_vline");
    prim_declv(e, x->xb, "j_rdid");
    prim_declv(e, DB, "j_freq, j_rdev");
    emit(e, "logic [2:0] j_fwd, x_kind, x_treq;");
    emit(e, "logic [3:0] j_rkind;");
    emit(e, "logic x_inv, j_any;");
    emit(e, "assign d_vline = %s;", line_of((char[96]){0}, 96, x, "cw_tag", "d_set"));
    emit(e, "// the job has a message");
    emit(e, "assign j_any = j_memwr || j_memrd || j_invs != '0 || j_fwords != '0 || j_rsp;");
    emit(e, "// a miss allocates without a fill for a whole-line ReqO or ReqWT");
    emit(e, "assign c_fill = !((d_rk_q == 3'd3 && (%s)) || (d_rk_q == 3'd2 && (&d_mask_q)));",
         x->line ? "1'b1" : "&d_mask_q");
}

/* The request rule's result taken (rr_): the way, the messages, its
 * transaction. */
static void emit_take_rule(emit_file *e, const char *ind)
{
    emit(e, "%sif (rr_err) c_err = 1'b1;", ind);
    emit(e, "%selse begin", ind);
    emit(e, "%s  a_st = rr_st;", ind);
    emit(e, "%s  a_sh = rr_sh;", ind);
    emit(e, "%s  a_owned = rr_owned;", ind);
    emit(e, "%s  a_dirty = rr_dirty;", ind);
    emit(e, "%s  a_own = rr_own;", ind);
    emit(e, "%s  a_src = rr_src;", ind);
    emit(e, "%s  j_invs = rr_invs;", ind);
    emit(e, "%s  j_fwd = rr_fwd;", ind);
    emit(e, "%s  j_fwords = rr_fwords;", ind);
    emit(e, "%s  j_fown = ri_own;", ind);
    emit(e, "%s  j_freq = rq_dev;", ind);
    emit(e, "%s  j_rsp = rr_rsp;", ind);
    emit(e, "%s  j_rkind = rr_rkind;", ind);
    emit(e, "%s  j_rdev = rq_dev;", ind);
    emit(e, "%s  j_rmask = rr_rmask;", ind);
    emit(e, "%s  if (!j_memwr) j_dsel = JdRr;", ind);
    emit(e, "%s  x_open = rr_open;", ind);
    emit(e, "%s  x_kind = rr_tkind;", ind);
    emit(e, "%s  x_treq = rr_treq;", ind);
    emit(e, "%s  x_mu = rr_mu;", ind);
    emit(e, "%s  x_pack = rr_pack;", ind);
    emit(e, "%s  x_prvk = rr_prvk;", ind);
    emit(e, "%s  x_shadd = rr_shadd;", ind);
    emit(e, "%s  x_inv = rr_inv;", ind);
    emit(e, "%send", ind);
}

static void emit_step_defaults(emit_file *e, const gctx *x)
{
    emit(e, "  a_valid = cw_valid;");
    emit(e, "  a_tag = cw_tag;");
    emit(e, "  a_st = cw_st;");
    emit(e, "  a_sh = cw_sh;");
    emit(e, "  a_owned = cw_owned;");
    emit(e, "  a_dirty = cw_dirty;");
    emit(e, "  a_own = cw_own;");
    emit(e, "  a_src = {%u{SrcDmem}};", x->w);
    emit(e, "  a_touch = 1'b0;");
    emit(e, "  j_memwr = 1'b0;");
    emit(e, "  j_wrline = '0;");
    emit(e, "  j_memrd = 1'b0;");
    emit(e, "  j_rdid = '0;");
    emit(e, "  j_line = d_line_q;");
    emit(e, "  j_invs = '0;");
    emit(e, "  j_fwd = 3'd0;");
    emit(e, "  j_fwords = '0;");
    emit(e, "  j_fown = '0;");
    emit(e, "  j_freq = '0;");
    emit(e, "  j_rsp = 1'b0;");
    emit(e, "  j_rkind = 4'd0;");
    emit(e, "  j_rdev = '0;");
    emit(e, "  j_rmask = '0;");
    emit(e, "  j_dsel = JdNone;");
    emit(e, "  x_open = 1'b0;");
    emit(e, "  x_kind = 3'd0;");
    emit(e, "  x_treq = d_rk_q;");
    emit(e, "  x_line = d_line_q;");
    emit(e, "  x_mu = '0;");
    emit(e, "  x_pack = '0;");
    emit(e, "  x_prvk = '0;");
    emit(e, "  x_shadd = '0;");
    emit(e, "  x_inv = 1'b0;");
    emit(e, "  x_close = 1'b0;");
    emit(e, "  x_upd = 1'b0;");
    emit(e, "  p_en = 1'b0;");
    emit(e, "  p_way = 1'b0;");
    emit(e, "  c_err = 1'b0;");
    emit(e, "  c_done = 1'b0;");
}

/* A request or a replayed one (spandex_llc_tm d_request, d_alloc). */
static void emit_step_request(emit_file *e, const gctx *x)
{
    char tg[96];
    emit(e, "  default: begin");
    emit(e, "    if (c_blk || c_held) begin");
    emit(e, "      p_en = 1'b1;");
    emit(e, "      p_way = c_nway;");
    emit(e, "    end else if (d_rk_q == 3'd6) begin");
    emit(e, "      // ReqWB: the words R owns stored; RspWB");
    emit(e, "      if (d_hit_q)");
    emit(e, "        for (int i = 0; i < %u; i++)", x->w);
    emit(e, "          if (d_mask_q[i] && cw_owned[i] && cw_own[i*%u +: %u] == d_dev_q) begin", x->db, x->db);
    emit_store(e, "a", "SrcDv", "            ");
    emit(e, "          end");
    emit(e, "      j_rsp = 1'b1;");
    emit(e, "      j_rkind = 4'd6;");
    emit(e, "      j_rdev = d_dev_q;");
    emit(e, "      j_rmask = d_mask_q;");
    emit(e, "    end else if (d_hit_q) begin");
    emit(e, "      a_touch = 1'b1;");
    emit_take_rule(e, "      ");
    emit(e, "    end else if (!d_free_q && !d_vok_q) begin");
    emit(e, "      p_en = 1'b1; // no way: an eviction under way in the set, or every way held");
    emit(e, "      p_way = 1'b1;");
    emit(e, "    end else if (!d_free_q && (cw_owned != '0 || (cw_st && cw_sh != '0))) begin");
    emit(e, "      // the victim's eviction starts: RvkO to each owner, Inv to every sharer");
    emit(e, "      x_open = 1'b1;");
    emit(e, "      x_kind = 3'd%u;", TX_EVICT);
    emit(e, "      x_treq = 3'd0;");
    emit(e, "      x_line = d_vline;");
    emit(e, "      x_pack = cw_st ? cw_sh : '0;");
    emit(e, "      x_prvk = cw_owned;");
    emit(e, "      j_line = d_vline;");
    emit(e, "      j_invs = cw_st ? cw_sh : '0;");
    emit(e, "      j_fwd = 3'd4;");
    emit(e, "      j_fwords = cw_owned;");
    emit(e, "      j_fown = cw_own;");
    emit(e, "      p_en = 1'b1;");
    emit(e, "      p_way = 1'b1;");
    emit(e, "    end else begin");
    emit(e, "      if (!d_free_q && cw_dirty) begin");
    emit(e, "        j_memwr = 1'b1;");
    emit(e, "        j_wrline = d_vline;");
    emit(e, "        j_dsel = JdVict;");
    emit(e, "      end");
    emit(e, "      a_valid = 1'b1;");
    emit(e, "      a_tag = %s;", tag_of(tg, sizeof tg, x, "d_line_q"));
    emit(e, "      a_touch = 1'b1;");
    emit(e, "      if (c_fill) begin");
    emit(e, "        a_st = 1'b0;");
    emit(e, "        a_sh = '0;");
    emit(e, "        a_owned = '0;");
    emit(e, "        a_dirty = 1'b0;");
    emit(e, "        a_own = '0;");
    emit(e, "        x_open = 1'b1;");
    emit(e, "        x_kind = 3'd%u;", TX_FILL);
    emit(e, "        j_memrd = 1'b1;");
    emit(e, "        j_rdid = c_tidx;");
    emit(e, "      end else begin");
    emit_take_rule(e, "        ");
    emit(e, "      end");
    emit(e, "    end");
    emit(e, "  end");
}

static void emit_step(emit_file *e, const gctx *x)
{
    emit_step_decls(e, x);
    emit(e, "always @* begin");
    emit_step_defaults(e, x);
    emit(e, "  case (d_kind_q)");
    emit(e, "  2'd%u: begin", EV_RSP);
    emit(e, "    if (rb_err) c_err = 1'b1;");
    emit(e, "    else begin");
    emit(e, "      a_valid = rb_valid;");
    emit(e, "      a_st = rb_st;");
    emit(e, "      a_sh = rb_sh;");
    emit(e, "      a_owned = rb_owned;");
    emit(e, "      a_dirty = rb_dirty;");
    emit(e, "      a_own = rb_own;");
    emit(e, "      a_src = rb_src;");
    emit(e, "      j_memwr = rb_memwr;");
    emit(e, "      j_wrline = rb_memwr ? d_line_q : '0;");
    emit(e, "      j_rsp = rb_rsp;");
    emit(e, "      j_rkind = rb_rkind;");
    emit(e, "      j_rdev = tx_rdev;");
    emit(e, "      j_rmask = rb_rmask;");
    emit(e, "      j_dsel = rb_memwr ? JdRbAll : JdRb;");
    emit(e, "      x_close = rb_done;");
    emit(e, "      x_upd = !rb_done;");
    emit(e, "      c_done = rb_done;");
    emit(e, "    end");
    emit(e, "  end");
    emit(e, "  2'd%u: begin // fill data: the waiting request on the filled line", EV_FILL);
    emit(e, "    a_src = {%u{SrcDv}};", x->w);
    emit_take_rule(e, "    ");
    emit(e, "    x_open = 1'b0;");
    emit(e, "    x_close = 1'b1;");
    emit(e, "    c_done = 1'b1;");
    emit(e, "  end");
    emit_step_request(e, x);
    emit(e, "  endcase");
    emit(e, "end");
    emit_nl(e);
}

/* Word i of w_a_n from the source vector vec (case arm of code). */
static void emit_src(emit_file *e, const gctx *x, const char *vec, const char *code)
{
    emit(e, "      %s: w_a_n[i*%u +: %u] = %s[i*%u +: %u];", code, x->wb, x->wb, vec, x->wb, x->wb);
}

/* The row and the line D writes back: the way's new state, LRU ranks. */
static void emit_writeback(emit_file *e, const gctx *x)
{
    unsigned PW = x->pw, wi = x->wi, ro = x->o_rank;
    emit(e, "// ---- D: the row and the line written back (ranks: the touched way most");
    emit(e, "// recent, the more recent ones one older) -----------------------------------");
    prim_declv(e, PW, "a_word");
    emit(e, "always @* begin");
    emit(e, "  a_word = cw;");
    emit(e, "  a_word[0] = a_valid;");
    emit(e, "  a_word[1] = a_st;");
    emit(e, "  a_word[2] = a_dirty;");
    emit(e, "  a_word[3 +: %u] = a_owned;", x->w);
    emit(e, "  a_word[%u +: %u] = a_sh;", x->o_sh, x->n);
    emit(e, "  a_word[%u +: %u] = a_tag;", x->o_tag, x->tb);
    if (x->array)
        emit(e, "  a_word[%u +: %u] = a_own;", x->o_own, x->w * x->db);
    emit(e, "  n_row = d_row_q;");
    emit(e, "  n_row[d_way_q*%u +: %u] = a_word;", PW, PW);
    emit(e, "  if (a_touch)");
    emit(e, "    for (int w = 0; w < %u; w++)", x->c->ways);
    emit(e, "      if (d_way_q == %u'(w)) n_row[w*%u+%u +: %u] = '0;", wi, PW, ro, wi);
    emit(e, "      else if (d_row_q[w*%u+%u +: %u] < cw_rank)", PW, ro, wi);
    emit(e, "        n_row[w*%u+%u +: %u] = d_row_q[w*%u+%u +: %u] + %u'd1;", PW, ro, wi, PW, ro, wi, wi);
    emit(e, "end");
    emit(e, "// W's operands: per word the value written (or a ReqWT+data's old value)");
    emit(e, "// and the op's operand; E's data");
    prim_declv(e, x->dw, "w_a_n");
    prim_declv(e, x->w, "w_isop_n");
    emit(e, "always @* begin");
    emit(e, "  for (int i = 0; i < %u; i++) begin", x->w);
    emit(e, "    w_isop_n[i] = a_src[i*4 +: 4] == SrcRrop || a_src[i*4 +: 4] == SrcRbop;");
    emit(e, "    case (a_src[i*4 +: 4])");
    emit_src(e, x, "ri_data", "SrcRi");
    emit_src(e, x, "d_v_q", "SrcDv");
    emit_src(e, x, "rq_v", "SrcRqv");
    emit_src(e, x, "tx_rv", "SrcTxv");
    emit_src(e, x, "ri_data", "SrcRrop");
    emit_src(e, x, "rb_base", "SrcRbop");
    if (!x->array) {
        emit(e, "      SrcRqdev: w_a_n[i*%u +: %u] = %u'(rq_dev);", x->wb, x->wb, x->wb);
        emit(e, "      SrcTxdev: w_a_n[i*%u +: %u] = %u'(tx_rdev);", x->wb, x->wb, x->wb);
    }
    emit(e, "      default: w_a_n[i*%u +: %u] = dmem_rd_q[i*%u +: %u];", x->wb, x->wb, x->wb, x->wb);
    emit(e, "    endcase");
    emit(e, "  end");
    emit(e, "  case (j_dsel)");
    emit(e, "    JdRr: j_data = ri_data & lanes(rr_rdm);");
    emit(e, "    JdRb: j_data = rb_base & lanes(rb_rdm);");
    emit(e, "    JdVict: j_data = dmem_rd_q;");
    emit(e, "    JdRbAll: j_data = rb_base;");
    emit(e, "    default: j_data = '0;");
    emit(e, "  endcase");
    emit(e, "end");
    emit(e, "// ---- W: the line written (a ReqWT+data's words: the op on the old value)");
    emit(e, "always @* begin");
    emit(e, "  for (int i = 0; i < %u; i++)", x->w);
    emit(e, "    n_data[i*%u +: %u] = w_isop_q[i] ? op_apply(w_op_q, w_a_q[i*%u +: %u], w_b_q[i*%u +: %u])", x->wb,
         x->wb, x->wb, x->wb, x->wb, x->wb);
    emit(e, "                                 : w_a_q[i*%u +: %u];", x->wb, x->wb);
    emit(e, "end");
    emit_nl(e);
}

/* A job's fields from src (e_, k_: registers; j_: D's job) into dst_d. */
static void emit_job_copy(emit_file *e, const char *dst, const char *src)
{
    static const char *const f[] = {"memwr", "wrline", "memrd", "rdid", "line", "invs", "fwd", "fwords",
                                    "freq",  "fown",   "rsp",   "rkind", "rdev", "rmask", "data"};
    int reg = src[0] != 'j';
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        emit(e, "        %s_%s_d = %s_%s%s;", dst, f[i], src, f[i], reg ? "_q" : "");
}

/* Next state of E, D and M. */
static void emit_next_pipe(emit_file *e, const gctx *x)
{
    const unsigned W = x->w, DB = x->db;
    emit(e, "  if (!swept) sw_d = sw_q + 1'b1;");
    emit(e, "  // E: the message sent leaves the job; D's job replaces it");
    emit(e, "  if (e_acc) begin");
    emit(e, "    if (e_wr) e_memwr_d = 1'b0;");
    emit(e, "    else if (e_rd) e_memrd_d = 1'b0;");
    emit(e, "    else if (e_inv) e_invs_d = e_rest;");
    emit(e, "    else if (e_fw) e_fwords_d = e_fwords_q & ~e_grp;");
    emit(e, "    else e_rsp_d = 1'b0;");
    emit(e, "  end");
    emit(e, "  // E takes the next job when it is free, else D's; D's job waits in k_");
    emit(e, "  if (e_free && k_valid_q) begin");
    emit_job_copy(e, "e", "k");
    emit(e, "    k_valid_d = 1'b0;");
    emit(e, "  end");
    emit(e, "  // (a job without a message leaves E empty, or k_ empty)");
    emit(e, "  if (d_adv) begin");
    emit(e, "    d_valid_d = 1'b0;");
    emit(e, "    if (e_free && !k_valid_q) begin");
    emit_job_copy(e, "e", "j");
    emit(e, "    end else begin");
    emit_job_copy(e, "k", "j");
    emit(e, "      k_valid_d = j_any;");
    emit(e, "    end");
    emit(e, "  end");
    emit(e, "  if (m_adv) begin");
    emit(e, "    d_valid_d = 1'b1;");
    emit(e, "    d_kind_d = m_kind_q;");
    emit(e, "    d_rk_d = m_rk_q;");
    emit(e, "    d_dev_d = m_dev_q;");
    emit(e, "    d_op_d = m_op_q;");
    emit(e, "    d_line_d = m_line_q;");
    emit(e, "    d_mask_d = m_mask_q;");
    emit(e, "    d_v_d = m_v_q;");
    emit(e, "    d_txn_d = m_txn_q;");
    emit(e, "    d_hit_d = m_hit;");
    emit(e, "    d_way_d = m_way;");
    emit(e, "    d_free_d = m_free;");
    emit(e, "    d_vok_d = m_vany && !m_evs;");
    emit(e, "    d_row_d = meta_rd_q;");
    emit(e, "    d_blk_d = m_blk;");
    emit(e, "    d_held_d = m_held;");
    for (size_t i = 0; i < sizeof txn_sel / sizeof txn_sel[0]; i++) {
        unsigned w = sel_w(x, txn_sel[i].w);
        if (w == 1)
            emit(e, "    %s_d = %s_q[m_txn_q];", txn_sel[i].d, txn_sel[i].t);
        else
            emit(e, "    %s_d = %s_q[m_txn_q*%u +: %u];", txn_sel[i].d, txn_sel[i].t, w, w);
    }
    emit(e, "    // the request Table III sees: a fill's is its transaction's");
    emit(e, "    d_qk_d = m_kind_q == 2'd%u ? t_rkind_q[m_txn_q*3 +: 3] : m_rk_q;", EV_FILL);
    emit(e, "    d_qdev_d = m_kind_q == 2'd%u ? t_rdev_q[m_txn_q*%u +: %u] : m_dev_q;", EV_FILL, DB, DB);
    emit(e, "    d_qop_d = m_kind_q == 2'd%u ? t_rop_q[m_txn_q*3 +: 3] : m_op_q;", EV_FILL);
    emit(e, "    d_qmask_d = m_kind_q == 2'd%u ? t_rmask_q[m_txn_q*%u +: %u] : m_mask_q;", EV_FILL, W, W);
    emit(e, "    m_valid_d = 1'b0;");
    emit(e, "  end");
    emit(e, "  if (i_iss) begin");
    emit(e, "    m_valid_d = 1'b1;");
    emit(e, "    m_kind_d = i_kind;");
    emit(e, "    m_rk_d = i_rk;");
    emit(e, "    m_dev_d = i_dev;");
    emit(e, "    m_op_d = i_op;");
    emit(e, "    m_line_d = i_line;");
    emit(e, "    m_mask_d = i_mask;");
    emit(e, "    m_v_d = i_v;");
    emit(e, "    m_txn_d = i_txn;");
    emit(e, "  end");
}

/* Next state of W: the data RAM write of the event D decides. */
static void emit_next_w(emit_file *e)
{
    emit(e, "  w_valid_d = d_adv;");
    emit(e, "  if (d_adv) begin");
    emit(e, "    w_set_d = d_set;");
    emit(e, "    w_addr_d = dmem_waddr;");
    emit(e, "    w_a_d = w_a_n;");
    emit(e, "    w_isop_d = w_isop_n;");
    emit(e, "    w_b_d = d_kind_q == 2'd%u ? tx_rv : rq_v;", EV_RSP);
    emit(e, "    w_op_d = d_kind_q == 2'd%u ? tx_rop : rq_op;", EV_RSP);
    emit(e, "  end");
}

/* Next state of the transaction table. */
static void emit_next_txn(emit_file *e, const gctx *x)
{
    unsigned W = x->w, N = x->n, DB = x->db, LB = x->lb, DW = x->dw, wi = x->wi;
    emit(e, "  if (d_adv && x_open) begin");
    emit(e, "    t_valid_d[c_tidx] = 1'b1;");
    emit(e, "    t_kind_d[c_tidx*3 +: 3] = x_kind;");
    emit(e, "    t_line_d[c_tidx*%u +: %u] = x_line;", LB, LB);
    emit(e, "    t_way_d[c_tidx*%u +: %u] = d_way_q;", wi, wi);
    emit(e, "    t_rkind_d[c_tidx*3 +: 3] = x_treq;");
    emit(e, "    t_rdev_d[c_tidx*%u +: %u] = d_dev_q;", DB, DB);
    emit(e, "    t_rop_d[c_tidx*3 +: 3] = d_op_q;");
    emit(e, "    t_rmask_d[c_tidx*%u +: %u] = d_mask_q;", W, W);
    emit(e, "    t_rv_d[c_tidx*%u +: %u] = d_v_q;", DW, DW);
    emit(e, "    t_mu_d[c_tidx*%u +: %u] = x_mu;", W, W);
    emit(e, "    t_pack_d[c_tidx*%u +: %u] = x_pack;", N, N);
    emit(e, "    t_prvk_d[c_tidx*%u +: %u] = x_prvk;", W, W);
    emit(e, "    t_shadd_d[c_tidx*%u +: %u] = x_shadd;", N, N);
    emit(e, "    t_inv_d[c_tidx] = x_inv;");
    emit(e, "  end");
    emit(e, "  if (d_adv && x_close) t_valid_d[d_txn_q] = 1'b0;");
    emit(e, "  if (d_adv && x_upd) begin");
    emit(e, "    t_pack_d[d_txn_q*%u +: %u] = rb_pack;", N, N);
    emit(e, "    t_prvk_d[d_txn_q*%u +: %u] = rb_prvk;", W, W);
    emit(e, "  end");
}

/* Next state of the deferral FIFO, the replay passes and the reservations. */
static void emit_next_defer(emit_file *e, const gctx *x)
{
    unsigned W = x->w, DB = x->db, LB = x->lb, DW = x->dw, Q = x->c->defer, qb = x->qb, qcb = x->qcb;
    emit(e, "  // D pushes at the tail, I pops the head of a replay pass");
    emit(e, "  q_tail = %u'(q_head_q) + %u'(q_n_q);", qb + 1, qb + 1);
    emit(e, "  if (q_tail >= %u'd%u) q_tail = q_tail - %u'd%u;", qb + 1, Q, qb + 1, Q);
    emit(e, "  if (d_adv && p_en) begin");
    emit(e, "    q_val_d[q_tail[%u:0]] = 1'b1;", qb - 1);
    emit(e, "    q_stay_d[q_tail[%u:0]] = d_kind_q == 2'd%u;", qb - 1, EV_REPLAY);
    emit(e, "    q_way_d[q_tail[%u:0]] = p_way;", qb - 1);
    emit(e, "    q_kind_d[q_tail[%u:0]*3 +: 3] = d_rk_q;", qb - 1);
    emit(e, "    q_dev_d[q_tail[%u:0]*%u +: %u] = d_dev_q;", qb - 1, DB, DB);
    emit(e, "    q_op_d[q_tail[%u:0]*3 +: 3] = d_op_q;", qb - 1);
    emit(e, "    q_line_d[q_tail[%u:0]*%u +: %u] = d_line_q;", qb - 1, LB, LB);
    emit(e, "    q_mask_d[q_tail[%u:0]*%u +: %u] = d_mask_q;", qb - 1, W, W);
    emit(e, "    q_v_d[q_tail[%u:0]*%u +: %u] = d_v_q;", qb - 1, DW, DW);
    emit(e, "    q_n_d = q_n_d + %u'd1;", qcb);
    emit(e, "  end");
    emit(e, "  if (d_adv && !d_kind_q[1]) begin");
    emit(e, "    resv_t_d = resv_t_d - %u'd1;", x->tcb);
    emit(e, "    resv_q_d = resv_q_d - %u'd1;", qcb);
    emit(e, "  end");
    emit(e, "  if (d_adv && c_err) err_d = 1'b1;");
    emit(e, "  if (i_what == IsReplay) begin");
    emit(e, "    q_val_d[q_head_q] = 1'b0;");
    emit(e, "    q_head_d = q_head_q == %u'd%u ? '0 : q_head_q + %u'd1;", qb, Q - 1, qb);
    emit(e, "    q_n_d = q_n_d - %u'd1;", qcb);
    emit(e, "    pass_left_d = pass_left_q - %u'd1;", qcb);
    emit(e, "  end");
    emit(e, "  if (i_what == IsReplay || i_what == IsReq) begin");
    emit(e, "    resv_t_d = resv_t_d + %u'd1;", x->tcb);
    emit(e, "    resv_q_d = resv_q_d + %u'd1;", qcb);
    emit(e, "  end");
    emit(e, "  if (i_what == IsDropRsp || i_what == IsDropMem || i_what == IsDropReq) err_d = 1'b1;");
    emit(e, "  // a replay pass: every deferred request once through the pipeline");
    emit(e, "  if (p_start) begin");
    emit(e, "    pass_act_d = 1'b1;");
    emit(e, "    pass_left_d = q_n_d;");
    emit(e, "    q_stay_d = '0;");
    emit(e, "  end");
    emit(e, "  if (p_end) pass_act_d = 1'b0;");
    emit(e, "  pass_req_d = (pass_req_q && !p_start) || (d_adv && c_done);");
}

static void emit_next(emit_file *e, const gctx *x)
{
    reg_def r[PRIM_REGS_MAX];
    unsigned n = reg_table(x, r), i;
    emit(e, "// ---- next state ----------------------------------------------------------");
    prim_declv(e, x->qb + 1, "q_tail");
    emit(e, "always @* begin");
    for (i = 0; i < n; i++)
        emit(e, "  %s_d = %s_q;", r[i].name, r[i].name);
    emit_next_pipe(e, x);
    emit_next_w(e);
    emit_next_txn(e, x);
    emit_next_defer(e, x);
    emit(e, "end");
    emit_nl(e);
}

static void emit_regs(emit_file *e, const gctx *x)
{
    reg_def r[PRIM_REGS_MAX];
    unsigned n = reg_table(x, r), i;
    prim_regs rl = {0};
    for (i = 0; i < n; i++)
        prim_reg(&rl, r[i].name, "'0");
    prim_regs_block(e, &rl);
    emit_nl(e);
}

static void emit_unused(emit_file *e, const gctx *x)
{
    emit(e, "// bits a configuration does not read");
    emit(e, "logic unused_ok;");
    emit(e, "assign unused_ok = ^{cw_valid, ri_owned, ri_sh, %s%s%sm_vrank, d_row_q, 1'b0};",
         x->array ? "dm_own, " : "a_own, ", x->c->reqs != SPANDEX_LLC_REQS_PAPER ? "rl_mesi, " : "",
         x->c->reqs == SPANDEX_LLC_REQS_2 || x->c->reqs == SPANDEX_LLC_REQS_3 ? "rl_owners, " : "");
}

/* ------------------------------------------------------------- formal */
/* Formal properties (make formal, scripts/formal.sh; docs/spandex.md,
 * "Formal properties"). Ghost wires per transaction entry i: f_tl<i> (its
 * line), f_ts<i> (its set), f_tw<i> (its way), f_tk<i> (its kind), f_tm<i>
 * (the meta word of that way in the meta RAM: valid, S, dirty, owned,
 * sharers, tag); f_blk (D's line has an open transaction), f_tfree (free
 * entries). */
static void emit_formal_wires(emit_file *e, const gctx *x)
{
    unsigned T = x->c->txn, LB = x->lb, wi = x->wi, PW = x->pw, i;
    char nm[32], b[96];
    for (i = 0; i < T; i++) {
        snprintf(nm, sizeof nm, "f_tl%u", i);
        prim_declv(e, LB, nm);
        emit(e, "assign f_tl%u = t_line_q[%u +: %u];", i, i * LB, LB);
        emit(e, "logic [%u:0] f_ts%u;", x->sib - 1, i);
        emit(e, "assign f_ts%u = %s;", i, set_of(b, sizeof b, x, nm));
        emit(e, "logic [%u:0] f_tw%u;", wi - 1, i);
        emit(e, "assign f_tw%u = t_way_q[%u +: %u];", i, i * wi, wi);
        emit(e, "logic [2:0] f_tk%u;", i);
        emit(e, "assign f_tk%u = t_kind_q[%u +: 3];", i, i * 3);
        emit(e, "logic [%u:0] f_row%u, f_tm%u;", x->rw - 1, i, i);
        emit(e, "assign f_row%u = meta_q[f_ts%u];", i, i);
        emit(e, "assign f_tm%u = f_row%u >> (f_tw%u*%u);", i, i, i, PW);
    }
    emit(e, "logic f_blk;");
    prim_declv(e, x->tcb, "f_tfree");
    emit(e, "always @* begin");
    emit(e, "  f_blk = 1'b0;");
    emit(e, "  f_tfree = '0;");
    for (i = 0; i < T; i++) {
        emit(e, "  if (t_valid_q[%u] && f_tl%u == d_line_q) f_blk = 1'b1;", i, i);
        emit(e, "  if (!t_valid_q[%u]) f_tfree = f_tfree + %u'd1;", i, x->tcb);
    }
    emit(e, "end");
}

/* LLC1 (p_own_*): no two open transactions of one line; a transaction's way
 * holds its line; a forward never goes to its requestor. LLC2 (p_res_*): a
 * way is freed only without owned words; a victim dropped at once has no
 * owned words and no sharers, and no open transaction holds it. */
static void emit_formal_own(emit_file *e, const gctx *x)
{
    unsigned T = x->c->txn, i, j;
    char nm[32], b[96];
    emit(e, "    // LLC1: one open transaction a line; its way holds the line (valid, tag)");
    for (i = 0; i < T; i++)
        for (j = i + 1; j < T; j++)
            emit(e, "    p_own_uniq_%u_%u: assert(!(t_valid_q[%u] && t_valid_q[%u] && f_tl%u == f_tl%u));", i, j, i,
                 j, i, j);
    for (i = 0; i < T; i++) {
        snprintf(nm, sizeof nm, "f_tl%u", i);
        emit(e, "    if (t_valid_q[%u]) p_own_way_%u: assert(f_tm%u[0] && f_tm%u[%u +: %u] == %s);", i, i, i, i,
             x->o_tag, x->tb, tag_of(b, sizeof b, x, nm));
    }
    emit(e, "    // a forward (FwdReq*) never goes to the requestor of its request");
    emit(e, "    if (fwd_valid_o && fwd_type_o != 3'd4 && fwd_type_o != 3'd5)");
    emit(e, "      p_own_fwd: assert(fwd_dst_o != fwd_req_o);");
    emit(e, "    // LLC2: a way freed has no owned words; a victim dropped at once (a new tag");
    emit(e, "    // over a valid way) had no owned words, no sharers and no open transaction");
    emit(e, "    if (d_adv && cw_valid && !a_valid) p_res_free: assert(a_owned == '0);");
    emit(e, "    if (d_adv && cw_valid && a_valid && a_tag != cw_tag) begin");
    emit(e, "      p_res_drop: assert(cw_owned == '0 && !(cw_st && cw_sh != '0));");
    for (i = 0; i < T; i++)
        emit(e, "      p_res_busy_%u: assert(!(t_valid_q[%u] && f_ts%u == d_set && f_tw%u == d_way_q));", i, i, i, i);
    emit(e, "    end");
}

/* LLC4 (p_ack_*): an open transaction other than a fill waits for an Ack or
 * a revocation; its pending revocations are owned words of its way, its
 * pending Acks sharers of its S line. LLC5 (p_blk_*): a request or replay of
 * a line with an open transaction is deferred and changes nothing; the
 * deferral count and the reservations stay within the free entries. */
static void emit_formal_ack(emit_file *e, const gctx *x)
{
    unsigned T = x->c->txn, W = x->w, N = x->n, Q = x->c->defer, i;
    emit(e, "    // LLC4: pending sets of an open transaction");
    for (i = 0; i < T; i++) {
        emit(e, "    if (t_valid_q[%u] && f_tk%u != 3'd%u)", i, i, TX_FILL);
        emit(e, "      p_ack_open_%u: assert(t_pack_q[%u +: %u] != '0 || t_prvk_q[%u +: %u] != '0);", i, i * N, N,
             i * W, W);
        emit(e, "    if (t_valid_q[%u]) p_ack_rvk_%u: assert((t_prvk_q[%u +: %u] & ~f_tm%u[3 +: %u]) == '0);", i, i,
             i * W, W, i, W);
        emit(e, "    if (t_valid_q[%u] && t_pack_q[%u +: %u] != '0)", i, i * N, N);
        emit(e, "      p_ack_pack_%u: assert(f_tm%u[1] && (t_pack_q[%u +: %u] & ~f_tm%u[%u +: %u]) == '0);", i, i,
             i * N, N, i, x->o_sh, N);
    }
    emit(e, "    // LLC5: a request on a blocked line is deferred, nothing else");
    emit(e, "    if (d_adv && !d_kind_q[1] && f_blk)");
    emit(e, "      p_blk_defer: assert(p_en && !x_open && !j_memwr && !j_memrd && j_invs == '0 &&");
    emit(e, "                          j_fwords == '0 && !j_rsp && n_row == d_row_q);");
    emit(e, "    p_blk_count: assert(q_n_q <= %u'd%u);", x->qcb, Q);
    emit(e, "    p_blk_resv: assert(resv_t_q <= f_tfree && {1'b0, resv_q_q} + {1'b0, q_n_q} <= %u'd%u);", x->qcb + 1,
         Q);
}

/* A message's payload as one concatenation (hold properties). */
static void emit_formal_hold(emit_file *e, const char *port, const char *fields)
{
    emit(e, "    if ($past(%s_valid_o && !%s_ready_i))", port, port);
    emit(e, "      p_hold_%s: assert(%s_valid_o && {%s} == $past({%s}));", port, port, fields, fields);
}

/* LLC4 on the cycle after: an entry closes only by its fill or by the
 * answer that empties both pending sets, and either closes it;
 * every valid output holds its payload until it is taken (p_hold_*). */
static void emit_formal_past(emit_file *e, const gctx *x)
{
    unsigned T = x->c->txn, i;
    const char *done = "d_kind_q == 2'd2 && !rb_err && rb_pack == '0 && rb_prvk == '0";
    emit(e, "always @(posedge clk_i) begin");
    emit(e, "  if (f_past_q && rst_ni && $past(rst_ni)) begin");
    for (i = 0; i < T; i++) {
        emit(e, "    if ($past(t_valid_q[%u]) && !t_valid_q[%u])", i, i);
        emit(e, "      p_ack_close_%u: assert($past(d_adv && d_txn_q == %u'd%u && (d_kind_q == 2'd%u ||", i, x->xb,
             i, EV_FILL);
        emit(e, "                           (%s))));", done);
        emit(e, "    if ($past(d_adv && d_txn_q == %u'd%u && (d_kind_q == 2'd%u || (%s))))", x->xb, i, EV_FILL, done);
        emit(e, "      p_ack_done_%u: assert(!t_valid_q[%u]);", i, i);
    }
    emit_formal_hold(e, "fwd", "fwd_type_o, fwd_dst_o, fwd_line_o, fwd_mask_o, fwd_req_o");
    emit_formal_hold(e, "out", "out_type_o, out_dst_o, out_line_o, out_mask_o, out_data_o");
    emit_formal_hold(e, "mem_req", "mem_req_wr_o, mem_req_id_o, mem_req_line_o, mem_req_data_o");
    emit(e, "  end");
    emit(e, "end");
}

static void emit_formal(emit_file *e, const gctx *x)
{
    prim_formal_begin(e, "// Formal properties (docs/spandex.md, \"Formal properties\"): LLC1 p_own_*,\n"
                         "// LLC2 p_res_*, LLC4 p_ack_*, LLC5 p_blk_*, payloads held p_hold_*.");
    prim_formal_samples(e, (const char *const[]){NULL});
    emit_formal_wires(e, x);
    prim_formal_assume(e, "reset in the first cycle only", 1);
    emit(e, "  if (rst_ni && swept) begin");
    emit_formal_own(e, x);
    emit_formal_ack(e, x);
    emit(e, "  end");
    emit(e, "end");
    emit_formal_past(e, x);
    emit(e, "`endif");
}

/* ------------------------------------------------------------------ unit */
static void gctx_init(gctx *x)
{
    const spandex_llc_cfg *c = x->c;
    const spandex_llc_geom *g = &x->g;
    x->n = c->devs;
    x->db = g->dev_bits;
    x->w = g->words;
    x->wb = g->word_bits;
    x->dw = g->words * g->word_bits;
    x->lb = g->laddr_bits;
    x->sb = g->set_bits;
    x->tb = g->tag_bits;
    x->wi = max1(g->way_bits);
    x->sib = max1(g->set_bits);
    x->dab = max1(g->set_bits + g->way_bits);
    x->xb = g->txn_bits;
    x->qb = max1(prim_clog2(c->defer));
    x->tcb = prim_clog2(c->txn + 3);
    x->qcb = prim_clog2(c->defer + 3);
    x->swb = max1(prim_clog2(c->sets + 1));
    x->o_sh = 3 + x->w;
    x->o_tag = x->o_sh + x->n;
    x->o_rank = x->o_tag + x->tb;
    x->o_own = x->o_rank + x->wi;
    x->array = c->owner_store == SPANDEX_LLC_OWNER_ARRAY;
    x->line = c->gran == SPANDEX_LLC_GRAN_LINE;
    x->pw = x->o_own + (x->array ? x->w * x->db : 0);
    x->rw = x->pw * c->ways;
}

static void emit_llc(emit_file *e, const void *cfg, const block_desc *b)
{
    const spandex_llc_cfg *c = cfg;
    gctx x;
    GEN_CTX_INIT(x, cfg, spandex_llc_geom);
    gctx_init(&x);
    emit(e, "// Spandex LLC controller (Alsop et al., ISCA 2018, Table III, III-B, III-C,");
    emit(e, "// III-F; docs/spandex.md): %u devices, %u words of %u bits, %u sets x %u ways,", c->devs, x.w, x.wb,
         c->sets, c->ways);
    emit(e, "// ReqS %s, owner IDs in %s, %s granularity; %u transactions, %u deferred.",
         c->reqs == SPANDEX_LLC_REQS_PAPER ? "paper policy" : c->reqs == 1 ? "option 1" : c->reqs == 2 ? "option 2"
                                                                                               : "option 3",
         x.array ? "an owner array" : "the data field", x.line ? "line" : "word", c->txn, c->defer);
    emit(e, "// Storage: meta RAM %u x %u bits, data RAM %u x %u bits; transaction table,", c->sets, x.rw,
         c->sets * c->ways, x.dw);
    emit(e, "// deferral FIFO and pipeline stages in flip-flops.");
    PRIM_MODULE(e, b, gctx, &x, emit_state, emit_e_stage, emit_issue_lookup, emit_issue, emit_issue_event,
                emit_meta_ram, emit_m_stage, emit_m_held, emit_d_way, emit_rule, emit_answer, emit_step, emit_writeback,
                emit_next, emit_regs, emit_unused, emit_formal);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(spandex_llc_cfg, spandex_llc_geom);
    snprintf(buf, len,
             "devs=%u words=%u word_bits=%u sets=%u ways=%u reqs=%d mesi=0x%llx\n"
             "owner_store=%s gran=%s txn=%u defer=%u addr_bits=%u\n"
             "laddr_bits=%u tag_bits=%u dev_bits=%u txn_bits=%u meta_bits=%u owner_bits=%u",
             c->devs, g.words, g.word_bits, c->sets, c->ways, (int)c->reqs, (unsigned long long)c->mesi,
             c->owner_store == SPANDEX_LLC_OWNER_ARRAY ? "array" : "data",
             c->gran == SPANDEX_LLC_GRAN_LINE ? "line" : "word", c->txn, c->defer, c->addr_bits, g.laddr_bits,
             g.tag_bits, g.dev_bits, g.txn_bits, g.meta_bits, g.owner_bits);
}

/* The registers kept by design beside the RAMs (synth-check's flip-flop
 * bound): the transaction table (request with its data, pending sets),
 * the deferral buffer (requests with their data), the events of M and D
 * (with their data), D's copy of the meta row and E's job (a victim line,
 * the forwards' owners, the response's data). */
static unsigned long long flop_arrays(const gctx *x)
{
    const spandex_llc_cfg *c = x->c;
    const spandex_llc_geom *g = &x->g;
    unsigned long long data = (unsigned long long)g->words * g->word_bits;
    unsigned long long ev = 8 + g->dev_bits + g->laddr_bits + g->words + data + g->txn_bits + g->set_bits;
    unsigned long long txn = 8 + g->set_bits + g->way_bits + g->laddr_bits + ev + 2ull * g->words + 2ull * c->devs;
    unsigned long long job = 2 + 3ull * g->laddr_bits + g->txn_bits + c->devs + 8 + g->words +
                             2ull * g->dev_bits + (unsigned long long)g->words * g->dev_bits + g->words + 2 * data;
    return c->txn * txn + c->defer * (ev + 2) + 2 * ev + x->rw + job;
}

/* Storage: the paper's per-line directory bits (III-F) beside the RTL's. */
static void gen_report(FILE *f, const void *cfg, int json)
{
    const spandex_llc_cfg *c = cfg;
    gctx x;
    unsigned long long lines, paper_bits, meta_bits, data_bits, flops;
    memset(&x, 0, sizeof x);
    x.c = c;
    spandex_llc_geom_of(c, &x.g);
    gctx_init(&x);
    lines = (unsigned long long)c->sets * c->ways;
    paper_bits = lines * (x.g.meta_bits + x.g.owner_bits);
    flops = flop_arrays(&x);
    meta_bits = (unsigned long long)c->sets * x.rw;
    data_bits = lines * x.dw;
    if (json) {
        fprintf(f,
                "{\"unit\":\"spandex-llc\",\"devs\":%u,\"words\":%u,\"sets\":%u,\"ways\":%u,"
                "\"owner_store\":\"%s\",\"gran\":\"%s\",\"dev_bits\":%u,\"tag_bits\":%u,"
                "\"paper_dir_bits\":%llu,\"line_dir_bits\":%llu,\"meta_ram_bits\":%llu,"
                "\"data_ram_bits\":%llu,\"storage_bits\":%llu,\"rtl_memories\":[[%u,%u],[%llu,%u]],"
                "\"flop_array_bits\":%llu,",
                c->devs, x.w, c->sets, c->ways, x.array ? "array" : "data", x.line ? "line" : "word", x.g.dev_bits,
                x.g.tag_bits, paper_bits, lines * x.g.line_dir_bits, meta_bits, data_bits, meta_bits + data_bits,
                c->sets, x.rw, lines, x.dw, flops);
        /* Per line (III-F): the paper's directory bits, a line-granularity
         * MESI entry, the difference (W + 1, plus W x log2 N with the owner
         * array), and the RTL's meta bits per way (+ the LRU rank). */
        fprintf(f,
                "\"per_line\":{\"paper_bits\":%u,\"line_mesi_bits\":%u,\"overhead_bits\":%u,"
                "\"owner_bits\":%u,\"rtl_meta_bits\":%u,\"rank_bits\":%u},"
                "\"paper_note\":\"III-F: W + 1 = %u bits per line over a line-granularity MESI directory "
                "(%u with the owner array); %.2f %% of the data array\"}\n",
                x.g.meta_bits + x.g.owner_bits, x.g.line_dir_bits,
                x.g.meta_bits + x.g.owner_bits - x.g.line_dir_bits, x.g.owner_bits, x.pw, x.wi,
                x.w + 1, x.w + 1 + x.w * x.g.dev_bits,
                100.0 * (x.g.meta_bits + x.g.owner_bits - x.g.line_dir_bits) / x.dw);
        return;
    }
    fprintf(f, "Spandex LLC: %u sets x %u ways of %u words (%u bits), %u devices\n", c->sets, c->ways, x.w, x.wb,
            c->devs);
    fprintf(f, "  directory (III-F): %u bits per line (%u with the owner array), %llu bits\n", x.g.meta_bits,
            x.g.meta_bits + x.g.owner_bits, paper_bits);
    fprintf(f, "  RTL: meta RAM %u x %u bits (%u per way: valid, S, dirty, owned, sharers, tag, rank%s)\n",
            c->sets, x.rw, x.pw, x.array ? ", owners" : "");
    fprintf(f, "       data RAM %llu x %u bits\n", lines, x.dw);
    fprintf(f, "  timing: issue, lookup, decide, then one message a cycle\n");
}

/* The line fields of a request or response port: two sets (set index 0..1)
 * of ways + 1 tags each, so lines are shared, evicted and answered. */
static int line_rules(const spandex_llc_cfg *c, const spandex_llc_geom *g, const char *port, st_rule *r)
{
    uint64_t tags = (c->ways ? c->ways : 1) + 1ull;
    int n = 0;
    if (g->set_bits)
        r[n++] = (st_rule){.port = port, .lo = 0, .width = g->set_bits, .kind = ST_RANGE, .a = 0, .b = 1};
    if (g->tag_bits < 64 && tags > (1ull << g->tag_bits))
        tags = 1ull << g->tag_bits;
    r[n++] = (st_rule){.port = port, .lo = g->set_bits, .width = g->tag_bits, .kind = ST_RANGE, .a = 0,
                       .b = tags - 1};
    return n;
}

/* FPGA self-test payloads (docs/fpga.md): requests of the seven types from
 * devices below N with non-zero masks; RspRvkOs (code 7) and, one in four,
 * Acks (8) from devices below N, each mask word set with probability 1/W;
 * fills with ids of the transaction table; lines from a small range
 * (line_rules). Responses that no transaction waits for (wrong line, device
 * or words), and fills for ids without one, are still dropped as protocol
 * errors (err_o): the model drops them the same way. */
#define ACK_P 16384 /* in 65536 */
static int llc_selftest(const void *cfg, st_rule *r, int max, char *err, size_t len)
{
    GEN_CFG_GEOM(spandex_llc_cfg, spandex_llc_geom);
    int n = 0;
    if (max < 14 || g.tag_bits == 0 || g.laddr_bits > 64)
        return snprintf(err, len, "spandex-llc: no self-test without tag bits or with line addresses over 64 "
                        "bits"), -1;
    r[n++] = (st_rule){.port = "req_type_i", .kind = ST_RANGE, .a = 0, .b = 6};
    r[n++] = (st_rule){.port = "req_src_i", .kind = ST_RANGE, .a = 0, .b = c->devs - 1};
    n += line_rules(c, &g, "req_line_i", r + n);
    r[n++] = (st_rule){.port = "req_mask_i", .kind = ST_RANGE, .a = 1, .b = g.full};
    /* the type is 7 + bit 0 of the data (1 with probability ACK_P): RspRvkO
     * or Ack (an Ack's data is ignored; a RspRvkO's word 0 is then always
     * even). The coin is another port's bit: a field of the type port itself
     * would be a combinational loop of the port in the top. */
    r[n++] = (st_rule){.port = "rsp_data_i", .lo = 0, .width = 1, .kind = ST_PROB, .a = ACK_P};
    r[n++] = (st_rule){.port = "rsp_type_i", .kind = ST_LINEAR, .a = 1, .b = 7, .src = "rsp_data_i",
                       .src_lo = 0, .src_width = 1};
    r[n++] = (st_rule){.port = "rsp_src_i", .kind = ST_RANGE, .a = 0, .b = c->devs - 1};
    n += line_rules(c, &g, "rsp_line_i", r + n);
    /* each word with probability 1/W: mostly one or two words, so that a
     * RspRvkO's words are often among those its device owns */
    r[n++] = (st_rule){.port = "rsp_mask_i", .width = 1, .repeat = g.words, .stride = 1, .kind = ST_PROB,
                       .a = 65536 / g.words};
    r[n++] = (st_rule){.port = "mem_rsp_id_i", .kind = ST_RANGE, .a = 0, .b = c->txn - 1};
    return n;
}

const gen_unit spandex_llc_gen_unit = {"spandex-llc", emit_llc, gen_params, gen_report, llc_selftest};
