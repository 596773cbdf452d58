/*
 * STC blocked store queue generator (paper §4.2, §7.2, Table 4; spec 3.4).
 * Banks are inferred synchronous RAMs of rows x (drain x addr_bits) bits,
 * read one row per cycle during a scan; per-slot valid bits are flip-flops.
 * Microarchitecture and timing: docs/stc.md (## stc-bsq); model
 * cmodel/stc/stc_bsq.c (stc_bsq_tm_eval / stc_bsq_tm_step, stc_bsq_push /
 * stc_bsq_scan).
 */
#include <stdio.h>
#include <string.h>

#include "gen_unit.h"
#include "prim.h"
#include "stc_bsq_gen.h"

typedef struct {
    unsigned A, N, E, B, D, S, R, RW, L, TW, BW, SLW, RIW, RB, LB, CW, NW, SW, EP;
} bgeo;

static void geo(const stc_bsq_cfg *c, bgeo *x)
{
    stc_bsq_geom g;
    stc_bsq_geom_of(c, &g);
    x->A = c->addr_bits;
    x->N = c->n;
    x->E = c->entries;
    x->B = c->banks;
    x->D = c->drain;
    x->S = g.slots;
    x->R = g.rows;
    x->RW = g.row_bits;
    x->L = c->banks * c->drain;
    x->TW = prim_clog2(g.slots + 1);
    x->BW = g.bank_bits;
    x->SLW = g.slot_bits;
    x->RIW = g.rowi_bits;
    x->RB = prim_clog2(g.rows);
    x->LB = prim_clog2(c->drain);
    x->CW = g.cyc_bits;
    x->NW = g.count_bits;
    x->SW = stc_bsq_seb_bits(c);
    x->EP = 1u << c->n;
}

static void bsq_emit_state(emit_file *e, const bgeo *xp, int cu_mode)
{
    const bgeo x = *xp;

    emit(e, "// ---- BSQ: %u entries, %u banks of %u slots, %u rows x %u bits per bank RAM",
         x.E, x.B, x.S, x.R, x.RW);
    emit(e, "// Slot s of bank k holds store k*%u+s (its coalescing-buffer slot); a bank", x.S);
    emit(e, "// fills upwards from slot 0, so slot order is age order; top = highest");
    emit(e, "// valid slot + 1 is where the next push goes and bounds the scan.");
    emit(e, "logic [%u:0] valid_q, valid_d;", x.E - 1);
    emit(e, "logic [%u:0] q_count_q, q_count_d;", x.NW - 1);
    emit(e, "logic scanning_q, scanning_d, setup_q, setup_d, s2_valid_q, s2_valid_d;");
    emit(e, "logic q_done_q, q_done_d;");
    emit(e, "logic [%u:0] pass_q, pass_d, rd_row_q, rd_row_d;", x.CW - 1);
    emit(e, "logic [%u:0] s2_row_q, s2_row_d;", x.RIW - 1);
    emit(e, "// The beat (presented row): its data, drained%s lanes%s, loaded from", cu_mode ? " and live" : "",
         cu_mode ? " and bands" : "");
    emit(e, "// the read registers, which fetch the next row meanwhile.");
    emit(e, "logic [%u:0] pd_q, pd_d;", x.L * x.A - 1);
    emit(e, "logic [%u:0] pm_q, pm_d;", x.L - 1);
    if (cu_mode) {
        emit(e, "logic [%u:0] pl_q, pl_d;", x.L - 1);
        emit(e, "logic [%u:0] pb_q, pb_d;", x.L * x.N - 1);
    }
    if (!cu_mode) {
        emit(e, "logic [%u:0] cer_q, cer_d;", x.EP - 1);
        emit(e, "logic [%u:0] seb_q, seb_d;", x.SW - 1);
    }
    if (x.B > 1)
        emit(e, "logic [%u:0] rr_q, rr_d;", x.BW - 1);
    emit_nl(e);
}

static void bsq_emit_tops(emit_file *e, const bgeo *xp, int cu_mode)
{
    const bgeo x = *xp;
    unsigned k;
    (void)cu_mode;

    /* Combinational blocks never read what they write (one of the three
     * simulators re-runs such a block for ever when the value changes
     * within a run): per-bank wires, chains of assigns. */
    emit(e, "// Bank tops (priority encoders over each bank's valid bits).");
    emit(e, "logic [%u:0] tops;", x.B * x.TW - 1);
    emit(e, "logic [%u:0] bank_free;", x.B - 1);
    for (k = 0; k < x.B; k++) {
        emit(e, "logic [%u:0] top%u;", x.TW - 1, k);
        emit(e, "assign top%u =", k);
        for (unsigned sl = x.S; sl-- > 0;)
            emit(e, "  valid_q[%u] ? %u'd%u :", k * x.S + sl, x.TW, sl + 1);
        emit(e, "  %u'd0;", x.TW);
        emit(e, "assign bank_free[%u] = top%u != %u'd%u;", k, k, x.TW, x.S);
    }
    emit(e, "assign tops = {");
    for (k = x.B; k-- > 0;)
        emit(e, "  top%u%s", k, k ? "," : "");
    emit(e, "};");
    emit_nl(e);
}

static void bsq_emit_alloc(emit_file *e, const bgeo *xp, int cu_mode)
{
    const bgeo x = *xp;
    (void)cu_mode;

    emit(e, "// Allocation: the first bank with a free slot at or after rr, round robin.");
    if (x.B > 1) {
        emit(e, "logic [%u:0] push_bank;", x.BW - 1);
        emit(e, "always_comb begin");
        emit(e, "  push_bank = '0;");
        for (unsigned i = x.B; i-- > 0;)
            emit(e, "  if (bank_free[rr_q + %u'd%u]) push_bank = rr_q + %u'd%u;", x.BW, i, x.BW, i);
        emit(e, "end");
    }
    emit(e, "logic [%u:0] push_top;", x.TW - 1);
    emit(e, "logic unused_push_top;");
    emit(e, "assign unused_push_top = push_top[%u]; // only a full bank reaches it", x.TW - 1);
    if (x.B > 1)
        emit(e, "assign push_top = tops[push_bank*%u +: %u];", x.TW, x.TW);
    else
        emit(e, "assign push_top = tops;");
    emit(e, "assign q_full = ~|bank_free;");
    emit(e, "assign q_chg_ready = ~scanning_q & ~q_done_q;");
    emit(e, "assign q_push_ready = q_chg_ready & ~q_full;");
    if (x.B > 1) {
        emit(e, "assign q_push_bank = q_full ? %u'd0 : push_bank;", x.BW);
        if (x.S == 1) /* one slot a bank: the slot is the bank */
            emit(e, "assign q_push_slot = q_full ? %u'd0 : push_bank;", x.SLW);
        else
            emit(e, "assign q_push_slot = q_full ? %u'd0 : {push_bank, push_top[%u:0]};", x.SLW,
                 x.TW - 2);
    } else {
        emit(e, "assign q_push_bank = 1'b0;");
        emit(e, "assign q_push_slot = q_full ? %u'd0 : push_top[%u:0];", x.SLW, x.TW - 2);
    }
    emit(e, "logic push_fire, wr_en;");
    emit(e, "assign push_fire = q_push_valid & q_push_ready;");
    emit(e, "// The RAM takes the push port's address into the free slot a push would");
    emit(e, "// take whenever a push could be accepted, pushed or not: a slot that stays");
    emit(e, "// invalid is never read out, and the write enable then comes from");
    emit(e, "// registers only (push_valid_i reaches the valid bits, not every RAM bit).");
    emit(e, "assign wr_en = q_push_ready;");
    if (x.D > 1) {
        emit(e, "logic [%u:0] wr_lane;", x.LB - 1);
        emit(e, "assign wr_lane = push_top[%u:0];", x.LB - 1);
    }
    if (x.R > 1) {
        emit(e, "logic [%u:0] wr_row, rd_addr;", x.RB - 1);
        emit(e, "assign wr_row = push_top[%u:%u];", x.LB + x.RB - 1, x.LB);
        emit(e, "// the setup cycle reads row 0, each beat loaded reads the row after it");
        emit(e, "assign rd_addr = setup_q ? %u'd0 : %u'(rd_row_q + %u'd1);", x.RB, x.RB, x.CW);
    }
    emit_nl(e);
}

static void bsq_emit_scan(emit_file *e, const bgeo *xp, int cu_mode)
{
    const bgeo x = *xp;
    unsigned k;

    emit(e, "// Scan: a setup cycle takes the pass length (max over banks of");
    emit(e, "// ceil(top / %u)) and reads row 0 of every bank; then one row per cycle", x.D);
    emit(e, "// moves from the read registers into the beat registers, which hold it");
    emit(e, "// until it is taken, while the read registers fetch the next row. The");
    emit(e, "// band match of a row is computed on its way into the beat registers.");
    emit(e, "logic [%u:0] pass_len;", x.CW - 1);
    for (k = 0; k < x.B; k++) {
        emit(e, "logic [%u:0] rows%u, pmax%u;", x.CW - 1, k, k);
        emit(e, "assign rows%u = %u'((top%u + %u'd%u) >> %u);", k, x.CW, k, x.TW, x.D - 1, x.LB);
        if (k == 0)
            emit(e, "assign pmax0 = rows0;");
        else
            emit(e, "assign pmax%u = rows%u > pmax%u ? rows%u : pmax%u;", k, k, k - 1, k, k - 1);
    }
    emit(e, "assign pass_len = pmax%u;", x.B - 1);
    for (k = 0; k < x.B; k++)
        emit(e, "logic [%u:0] rd%u_q;", x.RW - 1, k);
    emit(e, "logic [%u:0] f_data;", x.L * x.A - 1);
    emit(e, "logic [%u:0] f_live, f_drains;", x.L - 1);
    emit(e, "logic [%u:0] f_row;", x.RIW - 1);
    emit(e, "assign f_data = {");
    for (k = x.B; k-- > 0;)
        emit(e, "  rd%u_q%s", k, k ? "," : "");
    emit(e, "};");
    if (x.R > 1)
        emit(e, "assign f_row = %u'(rd_row_q);", x.RIW);
    else
        emit(e, "assign f_row = 1'b0;");
    emit(e, "logic [%u:0] f_band;", x.L * x.N - 1);
    emit(e, "always_comb");
    emit(e, "  for (int j = 0; j < %u; j++)", x.L);
    emit(e, "    f_live[j] = valid_q[(j / %u) * %u + 32'(f_row) * %u + (j %% %u)];", x.D, x.S, x.D,
         x.D);
    emit(e, "always_comb");
    emit(e, "  for (int j = 0; j < %u; j++)", x.L);
    emit(e, "    f_band[j*%u +: %u] = %u'(f_data[j*%u +: %u] >> %s);", x.N, x.N, x.N, x.A, x.A,
         cu_mode ? "seb_i" : "seb_q");
    emit(e, "always_comb");
    emit(e, "  for (int j = 0; j < %u; j++)", x.L);
    emit(e, "    f_drains[j] = f_live[j] & %s[f_band[j*%u +: %u]];", cu_mode ? "cer_i" : "cer_q", x.N,
         x.N);
    emit(e, "logic [%u:0] drains;", x.L - 1);
    emit(e, "assign drains = pm_q;");
    emit(e, "logic beat_valid, adv, ld_beat, rd_en;");
    if (cu_mode) {
        emit(e, "assign beat_valid = |pl_q;");
        emit(e, "assign q_drn_keep = pl_q & ~pm_q;");
        emit(e, "assign q_drn_data = pd_q;");
        emit(e, "assign q_drn_band = pb_q;");
    } else {
        emit(e, "assign beat_valid = |pm_q;");
    }
    emit(e, "assign q_drn_valid = beat_valid;");
    emit(e, "assign q_drn_mask = drains;");
    emit(e, "assign q_drn_row = s2_row_q;");
    emit(e, "always_comb");
    emit(e, "  for (int j = 0; j < %u; j++) q_drn_addr[j*%u +: %u] = drains[j] ? pd_q[j*%u +: %u] : %u'd0;",
         x.L, x.A, x.A, x.A, x.A, x.A);
    emit(e, "assign adv = ~s2_valid_q | ~beat_valid | q_drn_ready;");
    emit(e, "assign ld_beat = scanning_q & ~setup_q & adv & (rd_row_q < pass_q);");
    emit(e, "assign rd_en = (scanning_q & setup_q) | ld_beat;");
    emit(e, "assign q_done_valid = q_done_q;");
    emit(e, "assign q_done_cycles = pass_q;");
    emit(e, "assign q_count = q_count_q;");
    emit_nl(e);
}

static void bsq_emit_next(emit_file *e, const bgeo *xp, int cu_mode)
{
    const bgeo x = *xp;

    emit(e, "// Next state of the queue (whole-vector updates: no variable-index");
    emit(e, "// assignment inside always_comb, which one of the simulators re-triggers on).");
    emit(e, "logic [%u:0] drained_n;", x.NW - 1);
    emit(e, "logic [%u:0] push_set, drain_clr;", x.E - 1);
    emit(e, "assign push_set = push_fire ? %u'd1 << q_push_slot : %u'd0;", x.E, x.E);
    emit(e, "// slot s = bank * %u + row * %u + lane is cleared when its lane drains", x.S, x.D);
    emit(e, "always_comb");
    emit(e, "  for (int s = 0; s < %u; s++)", x.E);
    emit(e, "    drain_clr[s] = beat_fire & (32'(s2_row_q) == (s %% %u) / %u) & drains[(s / %u) * %u + (s %% %u)];",
         x.S, x.D, x.S, x.D, x.D);
    {
        char buf[64];
        emit_raw(e, "%*sassign drained_n = ", e->indent * 2, "");
        for (unsigned j = 0; j < x.L; j++) {
            snprintf(buf, sizeof buf, "%s%u'(drain_clr_lane[%u])", j ? " + " : "", x.NW, j);
            emit_raw(e, "%s", buf);
        }
        emit_raw(e, ";\n");
    }
    emit(e, "logic beat_fire;");
    emit(e, "logic [%u:0] drain_clr_lane;", x.L - 1);
    emit(e, "assign beat_fire = scanning_q & ~setup_q & s2_valid_q & beat_valid & q_drn_ready;");
    emit(e, "assign drain_clr_lane = beat_fire ? drains : %u'd0;", x.L);
    emit_begin(e, "always_comb begin");
    emit(e, "valid_d = (valid_q | push_set) & ~drain_clr;");
    emit(e, "q_count_d = q_count_q + %u'(push_fire) - drained_n;", x.NW);
    prim_hold(e, "scanning setup pass rd_row s2_valid s2_row pd pm%s", cu_mode ? " pl pb" : "");
    emit(e, "q_done_d = q_done_q & ~q_done_ready;");
    prim_hold(e, "%s%s", cu_mode ? "" : "cer seb ", x.B > 1 ? "rr" : "");
    if (x.B > 1)
        emit(e, "if (push_fire) rr_d = push_bank + %u'd1;", x.BW);
    emit(e, "if (q_chg_valid & q_chg_ready) begin");
    emit(e, "  scanning_d = 1'b1;");
    emit(e, "  setup_d = 1'b1;");
    emit(e, "  s2_valid_d = 1'b0;");
    if (!cu_mode) {
        emit(e, "  cer_d = q_chg_cer;");
        emit(e, "  seb_d = q_chg_seb;");
    }
    emit(e, "end");
    emit(e, "if (scanning_q & setup_q) begin");
    emit(e, "  setup_d = 1'b0;");
    emit(e, "  pass_d = pass_len;");
    emit(e, "  rd_row_d = '0;");
    emit(e, "end");
    emit(e, "if (scanning_q & ~setup_q & adv) begin");
    emit(e, "  if (rd_row_q < pass_q) begin");
    emit(e, "    s2_row_d = f_row;");
    emit(e, "    s2_valid_d = 1'b1;");
    emit(e, "    rd_row_d = rd_row_q + %u'd1;", x.CW);
    emit(e, "    pd_d = f_data;");
    emit(e, "    pm_d = f_drains;");
    if (cu_mode) {
        emit(e, "    pl_d = f_live;");
        emit(e, "    pb_d = f_band;");
    }
    emit(e, "  end else begin");
    emit(e, "    s2_valid_d = 1'b0;");
    emit(e, "    pm_d = '0;");
    if (cu_mode)
        emit(e, "    pl_d = '0;");
    emit(e, "    scanning_d = 1'b0;");
    emit(e, "    q_done_d = 1'b1;");
    emit(e, "  end");
    emit(e, "end");
    emit_end(e, "end");
    emit_nl(e);
}

void stc_bsq_emit_core(emit_file *e, const stc_bsq_cfg *c, int cu_mode)
{
    bgeo x;
    geo(c, &x);
    bsq_emit_state(e, &x, cu_mode);
    bsq_emit_tops(e, &x, cu_mode);
    bsq_emit_alloc(e, &x, cu_mode);
    bsq_emit_scan(e, &x, cu_mode);
    bsq_emit_next(e, &x, cu_mode);
}

void stc_bsq_emit_rams(emit_file *e, const stc_bsq_cfg *c)
{
    bgeo x;
    geo(c, &x);
    emit(e, "// Bank RAMs: a push writes one lane of a row, a scan reads a row.");
    /* a bank of one row is a register, not a RAM */
    for (unsigned k = 0; k < x.B; k++)
        if (x.R > 1)
            emit(e, "logic [%u:0] bank%u_mem [0:%u];", x.RW - 1, k, x.R - 1);
        else
            emit(e, "logic [%u:0] bank%u_mem;", x.RW - 1, k);
    emit(e, "always_ff @(posedge clk_i) begin");
    for (unsigned k = 0; k < x.B; k++) {
        const char *cond_bank = "";
        char cb[64];
        if (x.B > 1) {
            snprintf(cb, sizeof cb, " && push_bank == %u'd%u", x.BW, k);
            cond_bank = cb;
        }
        /* one write port with a lane enable (a byte-enable RAM), so that
         * a bank stays a simple dual-port memory */
        const char *row = x.R > 1 ? "[wr_row]" : "";
        if (x.D > 1)
            emit(e, "  if (wr_en%s) bank%u_mem%s[32'(wr_lane) * %u +: %u] <= q_push_addr;",
                 cond_bank, k, row, x.A, x.A);
        else
            emit(e, "  if (wr_en%s) bank%u_mem%s <= q_push_addr;", cond_bank, k, row);
        if (x.R > 1)
            emit(e, "  if (rd_en) rd%u_q <= bank%u_mem[rd_addr];", k, k);
        else
            emit(e, "  if (rd_en) rd%u_q <= bank%u_mem;", k, k);
    }
    emit(e, "end");
    emit_nl(e);
}

unsigned stc_bsq_beat_bits(const stc_bsq_cfg *c, int cu_mode)
{
    bgeo x;
    geo(c, &x);
    /* pd, pm, (pl, pb), s2_valid, s2_row: bsq_emit_state's declarations */
    return x.L * x.A + x.L + (cu_mode ? x.L + x.L * x.N : 0) + 1 + x.RIW;
}

void stc_bsq_regs(const stc_bsq_cfg *c, int cu_mode, prim_regs *l)
{
    prim_regs_list(l, "valid='0 q_count='0 scanning='0 setup='0 s2_valid='0 q_done='0 pass='0 "
                      "rd_row='0 s2_row='0 pd='0 pm='0");
    if (cu_mode)
        prim_regs_list(l, "pl='0 pb='0");
    if (!cu_mode)
        prim_regs_list(l, "cer='0 seb='0");
    if (c->banks > 1)
        prim_regs_list(l, "rr='0");
}

/* The module's logic: internal q_* signals driven from the ports, the core,
 * the RAMs and registers, the output ports. cu_mode: the CU's part (the
 * epoch registers are the CU's, inputs cer_i / seb_i; beats carry every
 * live lane). */
static void bsq_body(emit_file *e, const stc_bsq_cfg *c, int cu_mode)
{
    static const char *const out[][2] = {
        {"push_ready_o", "q_push_ready"}, {"push_bank_o", "q_push_bank"},
        {"push_slot_o", "q_push_slot"},   {"chg_ready_o", "q_chg_ready"},
        {"drn_valid_o", "q_drn_valid"},   {"drn_row_o", "q_drn_row"},
        {"drn_mask_o", "q_drn_mask"},     {"drn_addr_o", "q_drn_addr"},
        {"done_valid_o", "q_done_valid"}, {"done_cycles_o", "q_done_cycles"},
        {"count_o", "q_count"},           {"full_o", "q_full"},
        {"drn_keep_o", "q_drn_keep"},     {"drn_data_o", "q_drn_data"},
        {"drn_band_o", "q_drn_band"}};
    prim_regs rl = {0};
    bgeo x;
    geo(c, &x);
    emit(e, "logic q_push_valid, q_push_ready, q_full, q_chg_valid, q_chg_ready;");
    emit(e, "logic [%u:0] q_push_addr;", x.A - 1);
    emit(e, "logic [%u:0] q_push_bank;", x.BW ? x.BW - 1 : 0);
    emit(e, "logic [%u:0] q_push_slot;", x.SLW - 1);
    if (!cu_mode) {
        emit(e, "logic [%u:0] q_chg_cer;", x.EP - 1);
        emit(e, "logic [%u:0] q_chg_seb;", x.SW - 1);
    }
    emit(e, "logic q_drn_valid, q_drn_ready, q_done_valid, q_done_ready;");
    emit(e, "logic [%u:0] q_drn_row;", x.RIW - 1);
    emit(e, "logic [%u:0] q_drn_mask%s;", x.L - 1, cu_mode ? ", q_drn_keep" : "");
    emit(e, "logic [%u:0] q_drn_addr%s;", x.L * x.A - 1, cu_mode ? ", q_drn_data" : "");
    if (cu_mode)
        emit(e, "logic [%u:0] q_drn_band;", x.L * x.N - 1);
    emit(e, "logic [%u:0] q_done_cycles;", x.CW - 1);
    emit(e, "logic [%u:0] q_count;", x.NW - 1);
    emit(e, "assign q_push_valid = push_valid_i;");
    emit(e, "assign q_push_addr = push_addr_i;");
    emit(e, "assign q_chg_valid = chg_valid_i;");
    if (!cu_mode) {
        emit(e, "assign q_chg_cer = chg_cer_i;");
        emit(e, "assign q_chg_seb = chg_seb_i;");
    }
    emit(e, "assign q_drn_ready = drn_ready_i;");
    emit(e, "assign q_done_ready = done_ready_i;");
    emit_nl(e);
    stc_bsq_emit_core(e, c, cu_mode);
    stc_bsq_emit_rams(e, c);
    stc_bsq_regs(c, cu_mode, &rl);
    prim_regs_block(e, &rl);
    emit_nl(e);
    for (unsigned i = 0; i < (cu_mode ? 15u : 12u); i++)
        emit(e, "assign %s = %s;", out[i][0], out[i][1]);
}

static void emit_bsq(emit_file *e, const void *cfg, const block_desc *b)
{
    const stc_bsq_cfg *c = cfg;
    bgeo x;
    geo(c, &x);
    emit(e, "// STC blocked store queue (paper 4.2, 7.2, Table 4; spec 3.4): addresses of");
    emit(e, "// stores outside their band's epoch, %u banks of inferred RAM, re-scanned at", x.B);
    emit(e, "// every ChangeEpoch %u entries per bank per cycle. See docs/stc.md.", x.D);
    if (x.R == 1)
        emit(e, "// Storage: one row per bank, held in registers; no RAM by design.");
    prim_module_begin(e, b);
    bsq_body(e, c, 0);
    prim_module_end(e);
}

/* The CU's BSQ part: its logic, then the strengthening invariants the CU's
 * formal induction needs of it. */
void stc_bsq_cu_body(emit_file *e, const stc_bsq_cfg *c)
{
    bsq_body(e, c, 1);
    emit_nl(e);
    bgeo x;
    geo(c, &x);
    emit(e, "`ifdef FORMAL");
    emit(e, "// s_*: strengthening invariants of the CU's induction (docs/stc.md): never");
    emit(e, "// scanning and reporting done at once; a beat only while scanning; no");
    emit(e, "// lane of an empty beat live or drained, only live lanes drained, and a");
    emit(e, "// drained lane's band (under the epoch registers) in the CER.");
    emit(e, "logic [%u:0] f_pm_ok;", x.L - 1);
    emit(e, "always_comb");
    emit(e, "  for (int j = 0; j < %u; j++)", x.L);
    emit(e, "    f_pm_ok[j] = ~pm_q[j] | cer_i[%u'(pd_q[j*%u +: %u] >> seb_i)];", x.N, x.A, x.A);
    emit(e, "always @(*) begin");
    emit(e, "  if (rst_ni) begin");
    emit(e, "    s_scan_done: assert(!(scanning_q && q_done_q));");
    emit(e, "    if (s2_valid_q) s_scan_beat: assert(scanning_q);");
    emit(e, "    if (!s2_valid_q) s_beat_idle: assert(pl_q == '0);");
    emit(e, "    s_beat_live: assert((pm_q & ~pl_q) == '0);");
    emit(e, "    s_beat_drn: assert(&f_pm_ok);");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "`endif");
}

int stc_bsq_cu_ports(const stc_bsq_cfg *c, cohkit_port *p, int max)
{
    bgeo x;
    geo(c, &x);
    const cohkit_port t[] = {
        {COHKIT_PORT_IN, "push_valid_i", 1},         {COHKIT_PORT_IN, "push_addr_i", x.A},
        {COHKIT_PORT_OUT, "push_ready_o", 1},        {COHKIT_PORT_OUT, "push_bank_o", x.BW ? x.BW : 1},
        {COHKIT_PORT_OUT, "push_slot_o", x.SLW},     {COHKIT_PORT_IN, "chg_valid_i", 1},
        {COHKIT_PORT_OUT, "chg_ready_o", 1},         {COHKIT_PORT_IN, "cer_i", x.EP},
        {COHKIT_PORT_IN, "seb_i", x.SW},             {COHKIT_PORT_OUT, "drn_valid_o", 1},
        {COHKIT_PORT_IN, "drn_ready_i", 1},          {COHKIT_PORT_OUT, "drn_row_o", x.RIW},
        {COHKIT_PORT_OUT, "drn_mask_o", x.L},        {COHKIT_PORT_OUT, "drn_keep_o", x.L},
        {COHKIT_PORT_OUT, "drn_addr_o", x.L * x.A},  {COHKIT_PORT_OUT, "drn_data_o", x.L * x.A},
        {COHKIT_PORT_OUT, "drn_band_o", x.L * x.N},  {COHKIT_PORT_OUT, "done_valid_o", 1},
        {COHKIT_PORT_IN, "done_ready_i", 1},         {COHKIT_PORT_OUT, "done_cycles_o", x.CW},
        {COHKIT_PORT_OUT, "count_o", x.NW},          {COHKIT_PORT_OUT, "full_o", 1}};
    int n = (int)(sizeof t / sizeof t[0]);
    for (int i = 0; i < n && i < max; i++)
        p[i] = t[i];
    return n;
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    const stc_bsq_cfg *c = cfg;
    stc_bsq_geom g;
    stc_bsq_geom_of(c, &g);
    snprintf(buf, len,
             "entries=%u banks=%u drain=%u addr_bits=%u n=%u seb_min=%u seb_max=%u\n"
             "slots_per_bank=%u rows_per_bank=%u bank_word_bits=%u ram_bits=%u valid_bits=%u",
             c->entries, c->banks, c->drain, c->addr_bits, c->n, c->seb_min, c->seb_max, g.slots,
             g.rows, g.row_bits, g.ram_bits, c->entries);
}

static void gen_report(FILE *f, const void *cfg, int json)
{
    const stc_bsq_cfg *c = cfg;
    stc_bsq_geom g;
    unsigned paper = 256 * 32, regs;
    stc_bsq_geom_of(c, &g);
    /* valid bits, count, scan control, epoch registers, rr */
    regs = c->entries + g.count_bits + 2 * g.cyc_bits + g.rowi_bits + 4 + (1u << c->n) +
           stc_bsq_seb_bits(c) + g.bank_bits;
    if (json) {
        fprintf(f,
                "{\"unit\":\"stc-bsq\",\"entries\":%u,\"banks\":%u,\"drain\":%u,\"addr_bits\":%u,"
                "\"ram_bits\":%u,\"valid_bits\":%u,\"register_bits\":%u,"
                "\"read_register_bits\":%u,\"full_pass_cycles\":%u,\"rtl_memories\":[",
                c->entries, c->banks, c->drain, c->addr_bits, g.ram_bits, c->entries, regs,
                c->banks * g.row_bits, g.rows);
        for (unsigned k = 0; k < c->banks; k++)
            fprintf(f, "%s[%u,%u]", k ? "," : "", g.rows, g.row_bits);
        fprintf(f, "],\"flop_array_bits\":%u,\"ff_bound\":%u,"
                   "\"paper\":{\"bsq_bits_per_cu\":%u,\"entries\":256,\"entry_bits\":32,"
                   "\"storage\":\"logic cells (4.6)\"}}\n",
                c->entries, regs + c->banks * g.row_bits + stc_bsq_beat_bits(c, 0) + 512, paper);
        return;
    }
    fprintf(f, "STC BSQ: %u entries x %u bits, %u banks x (%u rows x %u bits) RAM, drain %u per bank per cycle\n",
            c->entries, c->addr_bits, c->banks, g.rows, g.row_bits, c->drain);
    fprintf(f, "  RAM bits:      %u (paper Table 4: 256 x 32 = %u bits per CU, in logic cells, 4.6)\n",
            g.ram_bits, paper);
    fprintf(f, "  flip-flops:    %u valid bits + %u control/epoch bits + %u read-register bits + %u beat bits\n",
            c->entries, regs - c->entries, c->banks * g.row_bits, stc_bsq_beat_bits(c, 0));
    fprintf(f, "  full pass:     %u cycles (ceil(%u / %u)); CHG accepted -> done %u cycles when full\n",
            g.rows, g.slots, c->drain, g.rows + 3);
    fprintf(f, "  push:          one per cycle (not during a scan)\n");
}

const gen_unit stc_bsq_gen_unit = {"stc-bsq", emit_bsq, gen_params, gen_report, NULL};
