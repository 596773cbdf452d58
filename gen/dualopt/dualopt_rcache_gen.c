/*
 * DualOpt RDMA cache generator: Verilog of the remote-only write-back cache
 * in front of the RDMA engine (Belayneh et al., sections 4.2, 4.4, Table 1;
 * readings D21-D24). The golden model is cmodel/dualopt/dualopt_rcache.c; timing
 * and ports are in docs/dualopt.md.
 *
 * Storage: a tag/state RAM (one word per set: every way's valid bit, tag,
 * per-byte dirty mask and LRU rank) and a data RAM (one line per set and
 * way, byte-enable writes), both inferred synchronous RAMs. Lookup: stage 0
 * accepts a request and reads its set word; stage 1 compares the tags
 * (against the word written in the same cycle when the request ahead
 * updated the same set: the forwarding register), updates the set word and
 * reads or writes the data RAM; the response register follows. Hits go at
 * one per cycle; a miss, an atomic and a kernel flush hold stage 1 and run
 * their sequence (victim write-back, fetch, fill; write-back and
 * invalidation; the sweep over every set) on the same RAM ports.
 */
#include <stdio.h>
#include <string.h>

#include "dualopt_rcache.h"
#include "gen_unit.h"
#include "prim.h"
#include "selftest.h"

typedef struct {
    const dualopt_rcache_cfg *c;
    dualopt_rcache_geom g;
    /* the configuration and dualopt_rcache_geom_of's widths, named by meaning */
    unsigned ways, sets, addr_bits;
    unsigned line_bytes;    /* bytes of a line = dirty-mask bits per way     */
    unsigned line_bits;     /* data bits of a line                           */
    unsigned off_bits;      /* byte offset in a line                         */
    unsigned laddr_bits;    /* line address                                  */
    unsigned low_idx_bits;  /* set-index bits taken from the line address
                               as they are (sets = odd << low_idx_bits)      */
    unsigned idx_bits;      /* set index                                     */
    unsigned tag_width;     /* stored tag                                    */
    unsigned rank_bits;     /* LRU rank per way                              */
    unsigned way_bits;      /* way number                                    */
    unsigned set_word_bits; /* tag/state RAM word: every way of a set        */
    unsigned daddr_bits;    /* data RAM address (set, way)                   */
    unsigned cnt_bits;      /* count of valid lines                          */
    unsigned tag_lo, dirty_lo, rank_lo; /* field offsets in the set word */
} gctx;

/* A 1-bit signal zero-extended to the count width (one line: the count is
 * 1 bit). The text is valid until the next call. */
static const char *zext1(const gctx *x, const char *sig)
{
    static char b[64];
    if (x->cnt_bits == 1)
        snprintf(b, sizeof b, "%s", sig);
    else
        snprintf(b, sizeof b, "{%u'd0, %s}", x->cnt_bits - 1, sig);
    return b;
}

/* The strengthening invariants read every way of every set: model checking
 * is for small caches, and beyond this size (sets x ways) the unrolled
 * comparisons only slow the Verilog front end down. */
#define RCACHE_FORMAL_MAX_SLOTS 64u

/* Ghost views of the line the solver follows, for the invariants: its tag,
 * its set word, the ways holding it, the ways whose write-back has left
 * (the set word still dirty), the bytes the cache holds as written. */
static void emit_formal_views(emit_file *e, const gctx *x)
{
    const char *seq = "(state_q == StMfetch | state_q == StMfill | state_q == StMfull | state_q == StAinv)";
    emit(e, "logic [%u:0] f_tag;", x->tag_width - 1);
    emit(e, "logic [%u:0] f_word;", x->set_word_bits - 1);
    emit(e, "logic [%u:0] f_res, f_wbwin;", x->ways - 1);
    emit(e, "logic [%u:0] f_held;", x->line_bytes - 1);
    emit(e, "logic [%u:0] f_s1_mod;", x->laddr_bits - 1);
    emit(e, "logic f_pend_wr, f_miss, f_seq, f_flushed;");
    if (x->low_idx_bits)
        emit(e, "assign f_tag = f_line[%u:%u];", x->laddr_bits - 1, x->low_idx_bits);
    else
        emit(e, "assign f_tag = f_line;");
    emit(e, "assign f_word = tmem_q[f_set];");
    emit(e, "assign f_s1_mod = s1_line_q %% %u'd%u;", x->laddr_bits, x->sets);
    emit(e, "assign f_miss = state_q == StMwb | state_q == StMfetch | state_q == StMfill | state_q == StMfull;");
    emit(e, "assign f_seq = f_miss | state_q == StAwb | state_q == StAinv;");
    emit(e, "assign f_flushed = state_q == StFrd | state_q == StFscan | state_q == StFwb;");
    emit(e, "// a write of the line in stage 1 not yet in the set word");
    emit(e, "assign f_pend_wr = s1_valid_q & (s1_op_q == OpWr) & (s1_line_q == f_line) &");
    emit(e, "    (state_q == StLook | f_miss);");
    emit(e, "always @(*) begin");
    emit(e, "  f_held = f_pend_wr ? s1_mask_q : '0;");
    emit(e, "  for (int i = 0; i < %u; i++) begin", x->ways);
    emit(e, "    f_res[i] = f_word[i] & (f_word[%u + i*%u +: %u] == f_tag);", x->tag_lo, x->tag_width,
         x->tag_width);
    emit(e, "    f_wbwin[i] = (m_wb_q & (m_way_q == %u'(i)) & (s1_idx_q == f_set) & %s) |", x->way_bits, seq);
    emit(e, "        (fl_done_q[i] & (idx_q == f_set) & (state_q == StFscan | state_q == StFwb));");
    emit(e, "    if (f_res[i]) f_held = f_held | f_word[%u + i*%u +: %u];", x->dirty_lo, x->line_bytes,
         x->line_bytes);
    emit(e, "  end");
    emit(e, "end");
}

/* Invariants of the control: state, stage 1, the set word stage 1 works on,
 * the sequences' registers. */
static void emit_formal_ctrl(emit_file *e, const gctx *x)
{
    emit(e, "    s_state: assert(state_q <= StFdone);");
    if (x->sets != 1u << x->idx_bits)
        emit(e, "    s_idx: assert(idx_q < %u'd%u);", x->idx_bits, x->sets);
    emit(e, "    s_s1_set: assert(s1_idx_q == f_s1_mod[%u:0]);", x->idx_bits - 1);
    emit(e, "    if (state_q == StInit) s_init: assert(!s1_valid_q & !rsp_valid_q & (f_wr_q == '0));");
    emit(e, "    if (state_q != StInit & state_q != StLook) s_busy: assert(s1_valid_q & !rsp_valid_q);");
    emit(e, "    if ((state_q == StLook & s1_valid_q) | f_seq) s_cur: assert(cur == tmem_q[s1_idx_q]);");
    emit(e, "    if (state_q == StFscan | state_q == StFwb) s_cur_flush: assert(cur == tmem_q[idx_q]);");
    emit(e, "    if (f_miss) s_miss: assert(!hit & |m_sel & (m_wb_q == |(m_sel & way_valid & way_dirty)));");
    emit(e, "    if (state_q == StMwb | state_q == StAwb) s_wb: assert(m_wb_q);");
    emit(e, "    if (state_q == StAwb | state_q == StAinv) s_atomic: assert((m_hit_q == hit) &");
    emit(e, "        (!m_hit_q | |(m_sel & way_hit)) & (m_wb_q == |(m_sel & way_hit & way_dirty)));");
    emit(e, "    if (state_q == StFwb) s_flush_wb: assert(|(m_sel & pend));");
    emit(e, "    if (f_miss | state_q == StMdone) s_op_rw: assert(op_rw);");
    emit(e, "    if (state_q == StAwb | state_q == StAinv) s_op_at: assert(s1_op_q == OpAt);");
    emit(e, "    if (f_flushed | state_q == StFdone) s_op_flush: assert(s1_op_q == 2'd3);");
    emit(e, "    if (s1_valid_q & (s1_op_q == OpWr) & (s1_line_q == f_line))");
    emit(e, "      s_wr_s1: assert((s1_mask_q & ~f_wr_q) == '0);");
}

/* Invariants of the set words: the swept or flushed sets empty, a valid
 * tag in the set its line maps to (sets not a power of two), LRU ranks a
 * permutation, valid tags unique in a set; and of the followed line: its
 * written bytes held dirty (or in stage 1), its dirty bytes written ones,
 * none left once its write-back has gone. */
static void emit_formal_ram(emit_file *e, const gctx *x)
{
    unsigned s, i, j;
    for (s = 0; s < x->sets; s++) {
        char w[48];
        snprintf(w, sizeof w, "tmem_q[%u]", s);
        emit(e, "    if (state_q == StInit ? idx_q > %u'd%u : (f_flushed & idx_q > %u'd%u) | state_q == StFdone)",
             x->idx_bits, s, x->idx_bits, s);
        emit(e, "      s_clear_%u: assert(%s == init_word);", s, w);
        if (x->g.odd != 1 && x->sets > 1)
            for (i = 0; i < x->ways; i++)
                emit(e, "    if (state_q != StInit) s_tagset_%u_%u: assert(!%s[%u] | (%s[%u +: %u] %% %u'd%u == %u'd%u));",
                     s, i, w, i, w, x->tag_lo + i * x->tag_width, x->tag_width, x->tag_width, x->g.odd,
                     x->tag_width, s >> x->low_idx_bits);
        if (x->ways < 2)
            continue;
        emit(e, "    if (state_q != StInit) begin");
        for (i = 0; i < x->ways; i++)
            for (j = i + 1; j < x->ways; j++) {
                if (x->rank_bits)
                    emit(e, "      s_lru_%u_%u_%u: assert(%s[%u +: %u] != %s[%u +: %u]);", s, i, j, w,
                         x->rank_lo + i * x->rank_bits, x->rank_bits, w, x->rank_lo + j * x->rank_bits,
                         x->rank_bits);
                emit(e, "      s_tag_%u_%u_%u: assert(!(%s[%u] & %s[%u]) | (%s[%u +: %u] != %s[%u +: %u]));", s,
                     i, j, w, i, w, j, w, x->tag_lo + i * x->tag_width, x->tag_width, w,
                     x->tag_lo + j * x->tag_width, x->tag_width);
            }
        if (x->rank_bits && x->ways != 1u << x->rank_bits)
            for (i = 0; i < x->ways; i++)
                emit(e, "      s_lru_%u_%u: assert(%s[%u +: %u] < %u'd%u);", s, i, w,
                     x->rank_lo + i * x->rank_bits, x->rank_bits, x->rank_bits, x->ways);
        emit(e, "    end");
    }
    emit(e, "    if (state_q != StInit) begin");
    emit(e, "      s_wr_held: assert((f_wr_q & ~f_held) == '0);");
    for (i = 0; i < x->ways; i++) {
        emit(e, "      if (f_res[%u] & !f_wbwin[%u]) s_wr_dirty_%u: assert((f_word[%u +: %u] & ~f_wr_q) == '0);",
             i, i, i, x->dirty_lo + i * x->line_bytes, x->line_bytes);
        emit(e, "      if (f_res[%u] & f_wbwin[%u]) s_wr_gone_%u: assert(f_wr_q == '0);", i, i, i);
    }
    emit(e, "    end");
}

/* Formal properties (make formal: tb/formal.txt; scripts/dualopt-rcache-formal.sh).
 * A ghost register follows
 * one line chosen by the solver: the bytes of it written by accepted writes
 * since its last write-back. p_wb_*: a write-back carries only written
 * bytes, never none; p_flush_*: when the flush leaves the line's set, when
 * it completes and when an atomic is forwarded, every written byte of the
 * line has gone home; p_hold_*:
 * payloads hold under back-pressure. s_*: the strengthening invariants that
 * make them 1-inductive (caches of at most RCACHE_FORMAL_MAX_SLOTS ways in
 * all; docs/dualopt.md). */
static void emit_formal(emit_file *e, const gctx *x)
{
    int inv = x->sets * x->ways <= RCACHE_FORMAL_MAX_SLOTS;
    prim_formal_begin(e, NULL);
    prim_formal_samples(e, (const char *const[]){NULL});
    emit(e, "(* anyconst *) logic [%u:0] f_line;", x->laddr_bits - 1);
    emit(e, "logic [%u:0] f_wr_q = '0;", x->line_bytes - 1);
    emit(e, "logic f_wb_line;");
    emit(e, "logic [%u:0] f_mod;", x->laddr_bits - 1);
    emit(e, "logic [%u:0] f_set;", x->idx_bits - 1);
    emit(e, "assign f_mod = f_line %% %u'd%u;", x->laddr_bits, x->sets);
    emit(e, "assign f_set = f_mod[%u:0];", x->idx_bits - 1);
    emit(e, "assign f_wb_line = out_valid_o & out_kind_o & (out_line_o == f_line);");
    emit(e, "// the ports' last cycle, for p_hold_*");
    emit(e, "logic f_out_hold_q = 1'b0, f_rsp_hold_q = 1'b0, f_out_kind_q;");
    emit(e, "logic [%u:0] f_out_line_q, f_rsp_line_q;", x->laddr_bits - 1);
    emit(e, "logic [%u:0] f_out_mask_q;", x->line_bytes - 1);
    emit(e, "logic [%u:0] f_out_data_q, f_rsp_data_q;", x->line_bits - 1);
    emit(e, "logic [2:0] f_rsp_kind_q;");
    emit(e, "always @(posedge clk_i) begin");
    emit(e, "  f_out_hold_q <= rst_ni & out_valid_o & ~out_ready_i;");
    emit(e, "  f_rsp_hold_q <= rst_ni & rsp_valid_o & ~rsp_ready_i;");
    emit(e, "  f_out_kind_q <= out_kind_o;");
    emit(e, "  f_out_line_q <= out_line_o;");
    emit(e, "  f_out_mask_q <= out_mask_o;");
    emit(e, "  f_out_data_q <= out_data_o;");
    emit(e, "  f_rsp_kind_q <= rsp_kind_o;");
    emit(e, "  f_rsp_line_q <= rsp_line_o;");
    emit(e, "  f_rsp_data_q <= rsp_data_o;");
    emit(e, "end");
    emit(e, "always @(posedge clk_i) begin");
    emit(e, "  if (f_wb_line & out_ready_i) f_wr_q <= '0;");
    emit(e,
         "  else if (req_acc & (req_op_i == OpWr) & (req_line == f_line)) f_wr_q <= f_wr_q | req_mask_i;");
    emit(e, "end");
    if (inv) {
        emit_formal_views(e, x);
    } else {
        emit(e, "// The strengthening invariants (s_*) are emitted for caches of at most %u",
             RCACHE_FORMAL_MAX_SLOTS);
        emit(e, "// ways in all, sets x ways (this one has %u x %u).", x->sets, x->ways);
    }
    prim_formal_assume(e, "reset in the first cycle only", 1);
    emit(e, "  if (rst_ni) begin");
    emit(e, "    if (f_wb_line) p_wb_written: assert((out_mask_o & ~f_wr_q) == '0);");
    emit(e, "    if (out_valid_o & out_kind_o) p_wb_nonempty: assert(|out_mask_o);");
    emit(e,
         "    if (state_q == StFscan & ~|pend & (idx_q == f_set)) p_flush_set: assert(f_wr_q == '0);");
    emit(e, "    if (state_q == StFdone) p_flush_home: assert(f_wr_q == '0);");
    emit(e, "    if (state_q == StAinv & (s1_line_q == f_line)) p_flush_atomic: assert(f_wr_q == '0);");
    if (inv) {
        emit(e, "    // strengthening invariants for the induction (docs/dualopt.md)");
        emit_formal_ctrl(e, x);
        emit_formal_ram(e, x);
    }
    emit(e, "  end");
    if (inv)
        emit(e, "  if (!f_past_q) s_ghost: assert(f_wr_q == '0);");
    emit(e, "end");
    emit(e, "always @(*) begin");
    emit(e, "  if (f_past_q & rst_ni & f_out_hold_q) begin");
    emit(e, "    p_hold_out: assert(out_valid_o & (out_kind_o == f_out_kind_q) &");
    emit(e, "        (out_line_o == f_out_line_q) & (out_mask_o == f_out_mask_q) &");
    emit(e, "        (out_data_o == f_out_data_q));");
    emit(e, "  end");
    emit(e, "  if (f_past_q & rst_ni & f_rsp_hold_q) begin");
    emit(e, "    p_hold_rsp: assert(rsp_valid_o & (rsp_kind_o == f_rsp_kind_q) &");
    emit(e, "        (rsp_line_o == f_rsp_line_q) & (rsp_data_o == f_rsp_data_q));");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "`endif");
}

static void emit_params(emit_file *e, const gctx *x)
{
    (void)x; /* the same text in every configuration */
    emit(e, "localparam logic [3:0] StInit = 4'd%u, StLook = 4'd%u, StMwb = 4'd%u, StMfetch = 4'd%u,",
         DUALOPT_RCACHE_S_INIT, DUALOPT_RCACHE_S_LOOK, DUALOPT_RCACHE_S_MWB, DUALOPT_RCACHE_S_MFETCH);
    emit(e, "    StMfill = 4'd%u, StMdone = 4'd%u, StMfull = 4'd%u, StAwb = 4'd%u, StAinv = 4'd%u,",
         DUALOPT_RCACHE_S_MFILL, DUALOPT_RCACHE_S_MDONE, DUALOPT_RCACHE_S_MFULL, DUALOPT_RCACHE_S_AWB, DUALOPT_RCACHE_S_AINV);
    emit(e, "    StFrd = 4'd%u, StFscan = 4'd%u, StFwb = 4'd%u, StFdone = 4'd%u;", DUALOPT_RCACHE_S_FRD, DUALOPT_RCACHE_S_FSCAN,
         DUALOPT_RCACHE_S_FWB, DUALOPT_RCACHE_S_FDONE);
    emit(e, "localparam logic [1:0] OpRd = 2'd0, OpWr = 2'd1, OpAt = 2'd2;");
    emit(e, "localparam logic [2:0] KHit = 3'd0, KMiss = 3'd1, KWhit = 3'd2, KWmissFull = 3'd3,");
    emit(e, "    KWmissFetch = 3'd4, KFwd = 3'd5, KFlush = 3'd6;");
    emit_nl(e);
}

static void emit_regs_decl(emit_file *e, const gctx *x)
{
    emit(e, "// ---- registers");
    emit(e, "logic [3:0] state_q, state_d;");
    emit(e, "logic [%u:0] idx_q, idx_d;      // set counter of the clearing sweep and the flush",
         x->idx_bits - 1);
    emit(e, "logic s1_valid_q, s1_valid_d, s1_fwd_q, s1_fwd_d;");
    emit(e, "logic [1:0] s1_op_q;");
    emit(e, "logic [%u:0] s1_line_q;", x->laddr_bits - 1);
    emit(e, "logic [%u:0] s1_idx_q;", x->idx_bits - 1);
    emit(e, "logic [%u:0] s1_mask_q;", x->line_bytes - 1);
    emit(e, "logic [%u:0] s1_data_q;", x->line_bits - 1);
    emit(e, "logic [%u:0] m_way_q, m_way_d;", x->way_bits - 1);
    emit(e, "logic m_wb_q, m_wb_d, m_hit_q, m_hit_d;");
    emit(e, "logic [%u:0] fl_done_q, fl_done_d;", x->ways - 1);
    emit(e, "logic [%u:0] fl_wbs_q, fl_wbs_d, fl_inv_q, fl_inv_d;", x->cnt_bits - 1);
    emit(e, "logic rsp_valid_q, rsp_valid_d, rsp_rd_q, rsp_rd_d;");
    emit(e, "logic [2:0] rsp_kind_q, rsp_kind_d;");
    emit(e, "logic [%u:0] rsp_line_q, rsp_line_d;", x->laddr_bits - 1);
    emit(e, "logic [%u:0] rsp_wbs_q, rsp_wbs_d, rsp_inv_q, rsp_inv_d;", x->cnt_bits - 1);
    emit_nl(e);
}

static void emit_stage0(emit_file *e, const gctx *x)
{
    emit(e, "// ---- stage 0: accept, set index (set = line mod %u), read the set word", x->sets);
    emit(e, "logic req_acc, s1_adv, rsp_free, op_rw, hit;");
    emit(e, "logic [%u:0] req_line;", x->laddr_bits - 1);
    emit(e, "logic [%u:0] req_idx;", x->idx_bits - 1);
    emit(e, "logic unused_req_off;");
    emit(e, "assign req_line = req_addr_i[%u:%u];", x->addr_bits - 1, x->off_bits);
    emit(e, "assign unused_req_off = ^req_addr_i[%u:0]; // the byte offset selects nothing",
         x->off_bits - 1);
    if (x->sets == 1) {
        emit(e, "assign req_idx = 1'b0; // one set: fully associative, the whole line address is the tag");
    } else if (x->g.odd == 1) {
        emit(e, "assign req_idx = req_line[%u:0];", x->idx_bits - 1);
    } else {
        emit(e, "// %u sets = %u x 2^%u: the line address above bit %u modulo %u (D22)", x->sets,
             x->g.odd, x->low_idx_bits, x->low_idx_bits, x->g.odd);
        emit(e, "logic [%u:0] req_hi, req_mod;", x->tag_width - 1);
        emit(e, "logic unused_req_mod;");
        emit(e, "assign req_hi = req_line[%u:%u];", x->laddr_bits - 1, x->low_idx_bits);
        emit(e, "assign req_mod = req_hi %% %u'd%u;", x->tag_width, x->g.odd);
        if (x->tag_width > x->idx_bits - x->low_idx_bits)
            emit(e, "assign unused_req_mod = ^req_mod[%u:%u]; // below %u", x->tag_width - 1,
                 x->idx_bits - x->low_idx_bits, x->g.odd);
        else
            emit(e, "assign unused_req_mod = 1'b0;");
        if (x->low_idx_bits)
            emit(e, "assign req_idx = {req_mod[%u:0], req_line[%u:0]};",
                 x->idx_bits - x->low_idx_bits - 1, x->low_idx_bits - 1);
        else
            emit(e, "assign req_idx = req_mod[%u:0];", x->idx_bits - 1);
    }
    emit(e, "assign req_ready_o = (state_q != StInit) & (~s1_valid_q | s1_adv);");
    emit(e, "assign req_acc = req_valid_i & req_ready_o;");
    emit(e, "assign rsp_free = ~rsp_valid_q | rsp_ready_i;");
    emit(e, "assign op_rw = ~s1_op_q[1];");
    emit_nl(e);
}

static void emit_tag_ram(emit_file *e, const gctx *x)
{
    emit(e, "// Tag/state RAM: one word per set, field-major: valid bits [%u:0], tags",
         x->ways - 1);
    emit(e, "// [%u:%u], dirty byte masks [%u:%u], LRU ranks [%u:%u] (0 = most recent).",
         x->dirty_lo - 1, x->tag_lo, x->rank_lo - 1, x->dirty_lo, x->set_word_bits - 1, x->rank_lo);
    emit(e, "// A read of the set written in the same cycle is never used (the");
    emit(e, "// forwarding register supplies it), so no read-during-write logic.");
    emit(e, "logic tmem_re, tmem_we;");
    emit(e, "logic [%u:0] tmem_raddr, tmem_waddr;", x->idx_bits - 1);
    emit(e, "logic [%u:0] tmem_wdata, trdata_q, fwd_q, cur, upd_word, init_word;",
         x->set_word_bits - 1);
    emit(e, "(* no_rw_check *)");
    prim_ram_decl(e, "tmem_q", x->set_word_bits, x->sets);
    prim_ram_ports(e, &(prim_ram){"tmem_q", "tmem_we", "tmem_waddr", "tmem_wdata", "tmem_re", "trdata_q",
                                  "tmem_raddr", 0});
    emit(e, "// Forwarding register: the last set word written.");
    emit(e, "always_ff @(posedge clk_i) begin");
    emit(e, "  if (tmem_we) fwd_q <= tmem_wdata;");
    emit(e, "end");
    emit(e, "assign tmem_re = req_acc | (state_q == StFrd);");
    emit(e, "assign tmem_raddr = (state_q == StFrd) ? idx_q : req_idx;");
    emit_nl(e);
}

static void emit_stage1(emit_file *e, const gctx *x)
{
    unsigned i;

    emit(e, "// ---- stage 1: the set word as read, or as written in the cycle it was read");
    emit(e,
         "logic [%u:0] way_valid, way_hit, way_old, first_inv, vsel, way_dirty, m_sel, t_sel, "
         "pend, psel;",
         x->ways - 1);
    emit(e, "logic [%u:0] s1_tag, m_tag;", x->tag_width - 1);
    emit(e, "logic [%u:0] m_dirty, wr_be, full_be;", x->line_bytes - 1);
    emit(e, "logic [%u:0] hway, vway, pway;", x->way_bits - 1);
    if (x->rank_bits)
        emit(e, "logic [%u:0] t_rank;", x->rank_bits - 1);
    emit(e, "logic [%u:0] vcount;", x->cnt_bits - 1);
    emit(e, "logic vdirty, hdirty, wr_full, %sst_install;", x->rank_bits ? "do_touch, " : "");
    emit(e, "assign cur = s1_fwd_q ? fwd_q : trdata_q;");
    if (x->low_idx_bits)
        emit(e, "assign s1_tag = s1_line_q[%u:%u];", x->laddr_bits - 1, x->low_idx_bits);
    else
        emit(e, "assign s1_tag = s1_line_q;");
    emit(e, "assign way_valid = cur[%u:0];", x->ways - 1);
    for (i = 0; i < x->ways; i++) {
        emit(e, "assign way_hit[%u] = way_valid[%u] & (cur[%u:%u] == s1_tag);", i, i,
             x->tag_lo + (i + 1) * x->tag_width - 1, x->tag_lo + i * x->tag_width);
        emit(e, "assign way_dirty[%u] = |cur[%u:%u];", i, x->dirty_lo + (i + 1) * x->line_bytes - 1,
             x->dirty_lo + i * x->line_bytes);
        if (x->rank_bits == 0)
            emit(e, "assign way_old[%u] = 1'b1; // one way: no LRU rank", i);
        else
            emit(e, "assign way_old[%u] = cur[%u:%u] == %u'd%u;", i,
                 x->rank_lo + (i + 1) * x->rank_bits - 1, x->rank_lo + i * x->rank_bits,
                 x->rank_bits, x->ways - 1);
        emit(e, "assign m_sel[%u] = m_way_q == %u'd%u;", i, x->way_bits, i);
    }
    emit(e, "assign hit = |way_hit;");
}

static void emit_victim_flush(emit_file *e, const gctx *x)
{
    unsigned i;

    emit(e, "// Victim: the lowest invalid way, else the least recently used.");
    emit(e, "assign first_inv = ~way_valid & (way_valid + %u'd1);", x->ways);
    emit(e, "assign vsel = (&way_valid) ? way_old : first_inv;");
    emit(e, "assign vdirty = |(vsel & way_valid & way_dirty);");
    emit(e, "assign hdirty = |(way_hit & way_dirty);");
    emit(e, "// Flush: the lowest valid dirty way not yet written back.");
    emit(e, "assign pend = way_valid & way_dirty & ~fl_done_q;");
    emit(e, "assign psel = pend & (~pend + %u'd1);", x->ways);
    emit(e, "assign full_be = '1;");
    emit(e, "assign wr_be = (s1_op_q == OpWr) ? s1_mask_q : '0;");
    emit(e, "assign wr_full = (s1_op_q == OpWr) & (&s1_mask_q);");
    emit(e, "always @(*) begin");
    emit(e, "  hway = '0;");
    emit(e, "  vway = '0;");
    emit(e, "  pway = '0;");
    emit(e, "  m_tag = '0;");
    emit(e, "  m_dirty = '0;");
    if (x->rank_bits)
        emit(e, "  t_rank = '0;");
    emit(e, "  vcount = '0;");
    for (i = 0; i < x->ways; i++) {
        emit(e, "  if (way_hit[%u]) hway = hway | %u'd%u;", i, x->way_bits, i);
        emit(e, "  if (vsel[%u]) vway = vway | %u'd%u;", i, x->way_bits, i);
        emit(e, "  if (psel[%u]) pway = pway | %u'd%u;", i, x->way_bits, i);
    }
    emit(e, "  for (int i = 0; i < %u; i++) begin", x->ways);
    emit(e, "    if (m_sel[i]) m_tag = m_tag | cur[%u + i*%u +: %u];", x->tag_lo, x->tag_width,
         x->tag_width);
    emit(e, "    if (m_sel[i]) m_dirty = m_dirty | cur[%u + i*%u +: %u];", x->dirty_lo,
         x->line_bytes, x->line_bytes);
    if (x->rank_bits)
        emit(e, "    if (t_sel[i]) t_rank = t_rank | cur[%u + i*%u +: %u];", x->rank_lo, x->rank_bits,
             x->rank_bits);
    emit(e, "    vcount = vcount + %s;", zext1(x, "way_valid[i]"));
    emit(e, "  end");
    emit(e, "end");
    emit_nl(e);
}

/* The LRU touch of the set word's ranks (none with one way). */
static void emit_rank_touch(emit_file *e, const gctx *x)
{
    emit(e, "    if (do_touch) begin");
    emit(e, "      if (t_sel[i]) upd_word[%u + i*%u +: %u] = '0;", x->rank_lo, x->rank_bits,
         x->rank_bits);
    emit(e, "      else if (cur[%u + i*%u +: %u] < t_rank)", x->rank_lo, x->rank_bits, x->rank_bits);
    emit(e, "        upd_word[%u + i*%u +: %u] = cur[%u + i*%u +: %u] + %u'd1;", x->rank_lo, x->rank_bits, x->rank_bits,
         x->rank_lo, x->rank_bits, x->rank_bits, x->rank_bits);
    emit(e, "    end");
}

static void emit_set_update(emit_file *e, const gctx *x)
{
    emit(e, "// Set word update: LRU touch of t_sel (hit or installed way), dirty bytes,");
    emit(e, "// installation of a fetched or fully written line, invalidation.");
    emit(e, "assign t_sel = (state_q == StLook) ? way_hit : m_sel;");
    emit(e, "assign st_install = (state_q == StMfill) | (state_q == StMfull);");
    if (x->rank_bits)
        emit(e, "assign do_touch = (state_q == StLook) | st_install;");
    emit(e, "always @(*) begin");
    emit(e, "  upd_word = cur;");
    emit(e, "  for (int i = 0; i < %u; i++) begin", x->ways);
    if (x->rank_bits)
        emit_rank_touch(e, x);
    emit(e, "    if (t_sel[i]) begin");
    emit(e, "      if (st_install) begin");
    emit(e, "        upd_word[i] = 1'b1;");
    emit(e, "        upd_word[%u + i*%u +: %u] = s1_tag;", x->tag_lo, x->tag_width, x->tag_width);
    emit(e, "        upd_word[%u + i*%u +: %u] = wr_be;", x->dirty_lo, x->line_bytes,
         x->line_bytes);
    emit(e, "      end else if (state_q == StAinv) begin");
    emit(e, "        upd_word[i] = 1'b0;");
    emit(e, "        upd_word[%u + i*%u +: %u] = '0;", x->dirty_lo, x->line_bytes, x->line_bytes);
    emit(e, "      end else begin");
    emit(e, "        upd_word[%u + i*%u +: %u] = cur[%u + i*%u +: %u] | wr_be;", x->dirty_lo,
         x->line_bytes, x->line_bytes, x->dirty_lo, x->line_bytes, x->line_bytes);
    emit(e, "      end");
    emit(e, "    end");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "// The empty set word: every way invalid and clean, ranks in way order.");
    {
        static char hx[16384];
        unsigned nib = (x->set_word_bits + 3) / 4, k;
        for (k = 0; k < nib; k++) {
            unsigned v = 0, bb;
            for (bb = 0; bb < 4; bb++) {
                unsigned bit = (nib - 1 - k) * 4 + bb, w;
                for (w = 0; w < x->ways; w++) {
                    unsigned at = x->rank_lo + w * x->rank_bits;
                    if (bit >= at && bit < at + x->rank_bits && ((w >> (bit - at)) & 1))
                        v |= 1u << bb;
                }
            }
            hx[k] = "0123456789abcdef"[v];
        }
        hx[nib] = '\0';
        emit(e, "assign init_word = %u'h%s;", x->set_word_bits, hx);
    }
    emit(e, "assign tmem_we = (state_q == StInit) | (state_q == StLook & s1_adv) |");
    emit(e, "    (state_q == StMfill & fill_valid_i) | (state_q == StMfull) |");
    emit(e, "    (state_q == StAinv & m_hit_q) | (state_q == StFscan & ~|pend);");
    emit(e, "assign tmem_waddr = (state_q == StInit | state_q == StFscan) ? idx_q : s1_idx_q;");
    emit(e, "assign tmem_wdata = (state_q == StInit | state_q == StFscan) ? init_word : upd_word;");
    emit_nl(e);
}

static void emit_data_ram(emit_file *e, const gctx *x)
{
    emit(e, "// Data RAM: one line per (set, way), byte-enable writes, one access a cycle.");
    emit(e, "logic dmem_re, dmem_we;");
    emit(e, "logic [%u:0] dmem_addr;", x->daddr_bits - 1);
    if (x->sets > 1)
        emit(e, "logic [%u:0] dset;", x->idx_bits - 1);
    if (x->ways > 1)
        emit(e, "logic [%u:0] dway;", x->way_bits - 1);
    emit(e, "logic [%u:0] dmem_be;", x->line_bytes - 1);
    emit(e, "logic [%u:0] dmem_wdata, fill_merge, drdata_q;", x->line_bits - 1);
    emit(e, "(* no_rw_check *)");
    emit(e, "logic [%u:0] dmem_q [0:%u];", x->line_bits - 1, x->sets * x->ways - 1);
    emit(e, "always_ff @(posedge clk_i) begin");
    emit(e, "  if (dmem_re) drdata_q <= dmem_q[dmem_addr];");
    emit(e, "end");
    emit(e, "always_ff @(posedge clk_i) begin");
    emit(e, "  for (int i = 0; i < %u; i++)", x->line_bytes);
    emit(e, "    if (dmem_we & dmem_be[i]) dmem_q[dmem_addr][i*8 +: 8] <= dmem_wdata[i*8 +: 8];");
    emit(e, "end");
    if (x->sets > 1)
        emit(e, "assign dset = (state_q == StFscan) ? idx_q : s1_idx_q;");
    if (x->ways > 1) {
        emit(e, "assign dway = (state_q == StLook) ? (hit ? hway : vway) :");
        emit(e, "    (state_q == StFscan) ? pway : m_way_q;");
    }
    if (x->sets == 1 && x->ways == 1)
        emit(e, "assign dmem_addr = 1'b0; // one line");
    else if (x->sets == 1)
        emit(e, "assign dmem_addr = dway; // one set");
    else if (x->ways == 1)
        emit(e, "assign dmem_addr = dset; // one way");
    else if ((x->ways & (x->ways - 1)) == 0)
        emit(e, "assign dmem_addr = {dset, dway};");
    else
        emit(e, "assign dmem_addr = {%u'd0, dset} * %u'd%u + {%u'd0, dway};",
             x->daddr_bits - x->idx_bits, x->daddr_bits, x->ways, x->daddr_bits - x->way_bits);
    emit(e, "always @(*) begin");
    emit(e, "  for (int i = 0; i < %u; i++)", x->line_bytes);
    emit(e, "    fill_merge[i*8 +: 8] = wr_be[i] ? s1_data_q[i*8 +: 8] : fill_data_i[i*8 +: 8];");
    emit(e, "end");
    emit(e, "assign dmem_re = (state_q == StLook & s1_valid_q &");
    emit(e, "       ((s1_op_q == OpRd & hit & rsp_free) |");
    emit(e, "        (op_rw & ~hit & ~rsp_valid_q & vdirty) |");
    emit(e, "        (s1_op_q == OpAt & hdirty & ~rsp_valid_q))) |");
    emit(e, "    (state_q == StMdone & s1_op_q == OpRd) | (state_q == StFscan & |pend);");
    emit(e, "assign dmem_we = (state_q == StLook & s1_valid_q & s1_op_q == OpWr & hit & rsp_free) |");
    emit(e, "    (state_q == StMfill & fill_valid_i) | (state_q == StMfull);");
    emit(e, "assign dmem_be = (state_q == StLook) ? s1_mask_q : full_be;");
    emit(e, "assign dmem_wdata = (state_q == StMfill) ? fill_merge : s1_data_q;");
    emit_nl(e);
}

static void emit_control(emit_file *e, const gctx *x)
{
    emit(e, "// ---- control: hits complete in stage 1; misses, atomics and flushes run");
    emit(e, "// their sequence there (only with the response register empty).");
    emit(e, "assign s1_adv = (state_q == StLook & s1_valid_q & op_rw & hit & rsp_free) |");
    emit(e,
         "    (state_q == StMfull) | (state_q == StMdone) | (state_q == StAinv) | (state_q == StFdone);");
    emit_begin(e, "always @(*) begin");
    prim_hold(e, "state idx m_way m_wb m_hit fl_done fl_wbs fl_inv");
    emit(e, "rsp_valid_d = rsp_valid_q & ~rsp_ready_i;");
    prim_hold(e, "rsp_kind rsp_line rsp_rd rsp_wbs rsp_inv");
    emit(e, "case (state_q)");
    emit(e, "  StInit: begin");
    emit(e, "    if (idx_q == %u'd%u) begin", x->idx_bits, x->sets - 1);
    emit(e, "      idx_d = '0;");
    emit(e, "      state_d = StLook;");
    emit(e, "    end else idx_d = idx_q + %u'd1;", x->idx_bits);
    emit(e, "  end");
    emit(e, "  StLook: begin");
    emit(e, "    if (s1_valid_q & op_rw & hit) begin");
    emit(e, "      if (rsp_free) begin");
    emit(e, "        rsp_valid_d = 1'b1;");
    emit(e, "        rsp_kind_d = (s1_op_q == OpRd) ? KHit : KWhit;");
    emit(e, "        rsp_line_d = s1_line_q;");
    emit(e, "        rsp_rd_d = s1_op_q == OpRd;");
    emit(e, "        rsp_wbs_d = '0;");
    emit(e, "        rsp_inv_d = '0;");
    emit(e, "      end");
    emit(e, "    end else if (s1_valid_q & ~rsp_valid_q) begin");
    emit(e, "      if (op_rw) begin");
    emit(e, "        m_way_d = vway;");
    emit(e, "        m_wb_d = vdirty;");
    emit(e, "        state_d = vdirty ? StMwb : wr_full ? StMfull : StMfetch;");
    emit(e, "      end else if (s1_op_q == OpAt) begin");
    emit(e, "        m_hit_d = hit;");
    emit(e, "        m_way_d = hway;");
    emit(e, "        m_wb_d = hdirty;");
    emit(e, "        state_d = hdirty ? StAwb : StAinv;");
    emit(e, "      end else begin");
    emit(e, "        idx_d = '0;");
    emit(e, "        fl_wbs_d = '0;");
    emit(e, "        fl_inv_d = '0;");
    emit(e, "        state_d = StFrd;");
    emit(e, "      end");
    emit(e, "    end");
    emit(e, "  end");
    emit(e, "  StMwb: if (out_ready_i) state_d = wr_full ? StMfull : StMfetch;");
    emit(e, "  StMfetch: if (out_ready_i) state_d = StMfill;");
    emit(e, "  StMfill: if (fill_valid_i) state_d = StMdone;");
    emit(e, "  StMdone, StMfull: begin");
    emit(e, "    rsp_valid_d = 1'b1;");
    emit(e,
         "    rsp_kind_d = (state_q == StMfull) ? KWmissFull : (s1_op_q == OpRd) ? KMiss : KWmissFetch;");
    emit(e, "    rsp_line_d = s1_line_q;");
    emit(e, "    rsp_rd_d = (state_q == StMdone) & (s1_op_q == OpRd);");
    emit(e, "    rsp_wbs_d = %s;", zext1(x, "m_wb_q"));
    emit(e, "    rsp_inv_d = '0;");
    emit(e, "    state_d = StLook;");
    emit(e, "  end");
    emit(e, "  StAwb: if (out_ready_i) state_d = StAinv;");
    emit(e, "  StAinv: begin");
    emit(e, "    rsp_valid_d = 1'b1;");
    emit(e, "    rsp_kind_d = KFwd;");
    emit(e, "    rsp_line_d = s1_line_q;");
    emit(e, "    rsp_rd_d = 1'b0;");
    emit(e, "    rsp_wbs_d = %s;", zext1(x, "m_wb_q"));
    emit(e, "    rsp_inv_d = %s;", zext1(x, "m_hit_q"));
    emit(e, "    state_d = StLook;");
    emit(e, "  end");
    emit(e, "  StFrd: begin");
    emit(e, "    fl_done_d = '0;");
    emit(e, "    state_d = StFscan;");
    emit(e, "  end");
    emit(e, "  StFscan: begin");
    emit(e, "    if (|pend) begin");
    emit(e, "      m_way_d = pway;");
    emit(e, "      state_d = StFwb;");
    emit(e, "    end else begin");
    emit(e, "      fl_inv_d = fl_inv_q + vcount;");
    emit(e, "      if (idx_q == %u'd%u) begin", x->idx_bits, x->sets - 1);
    emit(e, "        idx_d = '0;");
    emit(e, "        state_d = StFdone;");
    emit(e, "      end else begin");
    emit(e, "        idx_d = idx_q + %u'd1;", x->idx_bits);
    emit(e, "        state_d = StFrd;");
    emit(e, "      end");
    emit(e, "    end");
    emit(e, "  end");
    emit(e, "  StFwb: if (out_ready_i) begin");
    emit(e, "    fl_done_d = fl_done_q | m_sel;");
    emit(e, "    fl_wbs_d = fl_wbs_q + %u'd1;", x->cnt_bits);
    emit(e, "    state_d = StFscan;");
    emit(e, "  end");
    emit(e, "  StFdone: begin");
    emit(e, "    rsp_valid_d = 1'b1;");
    emit(e, "    rsp_kind_d = KFlush;");
    emit(e, "    rsp_line_d = '0;");
    emit(e, "    rsp_rd_d = 1'b0;");
    emit(e, "    rsp_wbs_d = fl_wbs_q;");
    emit(e, "    rsp_inv_d = fl_inv_q;");
    emit(e, "    fl_wbs_d = '0;");
    emit(e, "    fl_inv_d = '0;");
    emit(e, "    state_d = StLook;");
    emit(e, "  end");
    emit(e, "  default: state_d = StLook;");
    emit(e, "endcase");
    emit_end(e, "end");
    emit(e, "assign s1_valid_d = req_acc | (s1_valid_q & ~s1_adv);");
    emit(e, "// A request accepted while the set word of its set is written reads the");
    emit(e, "// old word: stage 1 takes the forwarding register instead.");
    emit(e, "assign s1_fwd_d = req_acc ? (tmem_we & (tmem_waddr == req_idx)) :");
    emit(e, "    (state_q == StFrd) ? 1'b0 : s1_fwd_q;");
    emit_nl(e);
}

static void emit_outputs(emit_file *e, const gctx *x)
{
    emit(e, "// ---- outputs");
    emit(e, "logic out_wb;");
    emit(e, "assign out_wb = (state_q == StMwb) | (state_q == StAwb) | (state_q == StFwb);");
    emit(e, "assign out_valid_o = out_wb | (state_q == StMfetch);");
    emit(e, "assign out_kind_o = out_wb;");
    if (x->low_idx_bits) {
        emit(e, "// the written-back line: its tag above the set's low %u bits", x->low_idx_bits);
        emit(e, "logic [%u:0] wb_set;", x->low_idx_bits - 1);
        emit(e, "assign wb_set = (state_q == StFwb) ? idx_q[%u:0] : s1_idx_q[%u:0];",
             x->low_idx_bits - 1, x->low_idx_bits - 1);
    }
    if (x->low_idx_bits)
        emit(e,
             "assign out_line_o = out_wb ? {m_tag, wb_set} : (state_q == StMfetch) ? s1_line_q : '0;");
    else
        emit(e, "assign out_line_o = out_wb ? m_tag : (state_q == StMfetch) ? s1_line_q : '0;");
    emit(e, "assign out_mask_o = out_wb ? m_dirty : '0;");
    emit(e, "assign out_data_o = out_wb ? drdata_q : '0;");
    emit(e, "assign fill_ready_o = state_q == StMfill;");
    prim_outputs(e, "rsp_valid rsp_kind rsp_line rsp_wbs rsp_inv");
    emit(e, "assign rsp_data_o = (rsp_valid_q & rsp_rd_q) ? drdata_q : '0;");
    emit_nl(e);
}

static void emit_regs(emit_file *e, const gctx *x)
{
    (void)x; /* the same text in every configuration */
    /* the request payload s1_* loads only on an accepted request */
    prim_regs head = {0}, req = {0}, rest = {0};
    prim_regs_list(&head, "state=StInit idx='0 s1_valid=1'b0 s1_fwd=1'b0");
    prim_regs_list(&req, "s1_op=2'd0 s1_line='0 s1_idx='0 s1_mask='0 s1_data='0");
    prim_regs_list(&rest, "m_way='0 m_wb=1'b0 m_hit=1'b0 fl_done='0 fl_wbs='0 fl_inv='0 "
                          "rsp_valid=1'b0 rsp_kind=3'd0 rsp_line='0 rsp_rd=1'b0 rsp_wbs='0 "
                          "rsp_inv='0");
    prim_regs_open(e);
    prim_regs_resets(e, &head);
    prim_regs_resets(e, &req);
    prim_regs_resets(e, &rest);
    prim_regs_else(e);
    prim_regs_updates(e, &head);
    emit(e, "    if (req_acc) begin");
    emit(e, "      s1_op_q <= req_op_i;");
    emit(e, "      s1_line_q <= req_line;");
    emit(e, "      s1_idx_q <= req_idx;");
    emit(e, "      s1_mask_q <= req_mask_i;");
    emit(e, "      s1_data_q <= req_data_i;");
    emit(e, "    end");
    prim_regs_updates(e, &rest);
    prim_regs_close(e);
    emit_nl(e);
}

static void emit_module(emit_file *e, const void *cfg, const block_desc *b)
{
    const dualopt_rcache_cfg *c = cfg;
    gctx x;
    GEN_CTX_INIT(x, cfg, dualopt_rcache_geom);
    x.ways = c->ways;
    x.line_bytes = c->line;
    x.line_bits = x.g.dw;
    x.addr_bits = c->addr_bits;
    x.off_bits = x.g.lb;
    x.laddr_bits = x.g.ln;
    x.low_idx_bits = x.g.k;
    x.idx_bits = x.g.ib ? x.g.ib : 1; /* one set: a 1-bit index, always 0 */
    x.tag_width = x.g.tw;
    x.rank_bits = x.g.rb;
    x.way_bits = x.g.wb ? x.g.wb : 1; /* one way: a 1-bit way number, always 0 */
    x.set_word_bits = x.g.setw;
    x.daddr_bits = x.g.daw ? x.g.daw : 1;
    x.cnt_bits = x.g.cw;
    x.sets = c->sets;
    x.tag_lo = x.ways;
    x.dirty_lo = x.tag_lo + x.ways * x.tag_width;
    x.rank_lo = x.dirty_lo + x.ways * x.line_bytes;
    emit(e, "// DualOpt RDMA cache (Belayneh et al., sections 4.2, 4.4, Table 1; readings");
    emit(e, "// D21-D24): remote data only, write-back, write-allocate, per-byte dirty masks,");
    emit(e, "// LRU, atomics bypass after the line is written back and invalidated, a kernel");
    emit(e, "// flush writes back every dirty line and invalidates all. See docs/dualopt.md.");
    emit(e, "// Storage: tag/state RAM %u x %u bits, data RAM %u x %u bits (inferred).", c->sets,
         x.set_word_bits, c->sets * c->ways, x.line_bits);
    PRIM_MODULE(e, b, gctx, &x, emit_params, emit_regs_decl, emit_stage0, emit_tag_ram, emit_stage1,
                emit_victim_flush, emit_set_update, emit_data_ram, emit_control, emit_outputs,
                emit_regs, emit_formal);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(dualopt_rcache_cfg, dualopt_rcache_geom);
    snprintf(buf, len,
             "sets=%u ways=%u line=%u addr_bits=%u capacity_bytes=%llu\n"
             "index_bits=%u tag_bits=%u rank_bits=%u set_word_bits=%u data_addr_bits=%u count_bits=%u",
             c->sets, c->ways, c->line, c->addr_bits,
             (unsigned long long)c->sets * c->ways * c->line, g.ib, g.tw, g.rb, g.setw, g.daw, g.cw);
}

static void gen_report(FILE *f, const void *cfg, int json)
{
    const dualopt_rcache_cfg *c = cfg;
    dualopt_rcache_geom g;
    unsigned long long cap = (unsigned long long)c->sets * c->ways * c->line;
    dualopt_rcache_geom_of(c, &g);
    /* storage by kind: tags, state (valid, per-byte dirty, LRU rank), data */
    unsigned long long tags = (unsigned long long)c->sets * c->ways * g.tw;
    unsigned long long state = (unsigned long long)c->sets * c->ways * (1 + c->line + g.rb);
    if (json) {
        fprintf(f,
                "{\"unit\":\"dualopt-rcache\",\"sets\":%u,\"ways\":%u,\"line\":%u,\"addr_bits\":%u,"
                "\"capacity_bytes\":%llu,\"tag_bits\":%u,\"set_word_bits\":%u,"
                "\"tag_ram_bits\":%llu,\"data_ram_bits\":%llu,"
                "\"rtl_memories\":[[%u,%u],[%u,%u]],"
                "\"storage_bits\":%llu,\"storage_parts\":{\"tags\":%llu,\"state\":%llu,"
                "\"data\":%llu},"
                "\"paper_note\":\"no cost in the paper (D28); storage = tags + state (valid, "
                "per-byte dirty, LRU rank) + data\"}\n",
                c->sets, c->ways, c->line, c->addr_bits, cap, g.tw, g.setw,
                (unsigned long long)g.tag_bits, (unsigned long long)g.data_bits, c->sets, g.setw,
                c->sets * c->ways, g.dw, tags + state + (unsigned long long)g.data_bits, tags,
                state, (unsigned long long)g.data_bits);
        return;
    }
    fprintf(f, "DualOpt RDMA cache: %u sets x %u ways x %u B = %llu bytes, %u-bit addresses\n",
            c->sets, c->ways, c->line, cap, c->addr_bits);
    fprintf(f, "  index: set = line mod %u (%u x 2^%u); tag %u bits (line address above bit %u)\n",
            c->sets, g.odd, g.k, g.tw, g.k);
    fprintf(f, "  tag/state RAM: %u x %u bits = %llu bits (per way: valid 1, tag %u, dirty %u, "
               "rank %u)\n",
            c->sets, g.setw, (unsigned long long)g.tag_bits, g.tw, c->line, g.rb);
    fprintf(f, "  data RAM: %u x %u bits = %llu bits\n", c->sets * c->ways, g.dw,
            (unsigned long long)g.data_bits);
    fprintf(f, "  storage: tags %llu + state %llu (valid, dirty, rank) + data %llu = %llu bits\n",
            tags, state, (unsigned long long)g.data_bits,
            tags + state + (unsigned long long)g.data_bits);
    fprintf(f, "  timing: hit response 2 cycles after acceptance, one hit per cycle; misses block\n");
}

/* FPGA self-test stimulus (gen/selftest.h): requests are RD and WR with
 * AT and KERNEL each 1 in 256 (op bit 1 set with probability 1/128: random
 * ops would flush every fourth request); addresses keep the low two bits
 * of the line address and the top three bits of the address random, the
 * bits between them 0: 32 lines, 8 to a set when the sets are a power of
 * two, so requests hit, miss, evict dirty victims and hit the top of the
 * address space. Masks, data and fills stay random. */
int dualopt_rcache_selftest(const void *cfg, st_rule *r, int max, char *err, size_t len)
{
    GEN_CFG_GEOM(dualopt_rcache_cfg, dualopt_rcache_geom);
    if (max < 2 || c->addr_bits < g.lb + 2 + 3 + 1)
        return snprintf(err, len, "dualopt-rcache: no self-test with fewer than %u address bits",
                        g.lb + 6), -1;
    r[0] = (st_rule){.port = "req_op_i", .lo = 1, .width = 1, .kind = ST_PROB, .a = 512};
    r[1] = (st_rule){.port = "req_addr_i", .lo = g.lb + 2, .width = c->addr_bits - 3 - g.lb - 2,
                     .kind = ST_CONST, .a = 0};
    return 2;
}

const gen_unit dualopt_rcache_gen_unit = {"dualopt-rcache", emit_module, gen_params, gen_report,
                                          dualopt_rcache_selftest};
