/*
 * STC epoch management unit generator (TACO 2023, sections 4.2-4.4, 4.6,
 * Fig. 5, Table 4; STC specification 3.2, readings S5-S10, S18). The golden
 * model is cmodel/stc/stc_emu.c (functional core stc_emu_wake/demand/conflict/
 * ready/done, timing shell stc_emu_eval/step); timing in docs/stc.md.
 *
 * One cycle, in the order of the shell: (1) the handshake on the registered
 * phase (wake-up and target search in IDLE, ReadyAcks in PREPARE once the
 * PrepareEpochChange broadcast was taken, DoneAcks in CHANGE once the
 * ChangeEpoch broadcast was taken; the last ReadyAck takes the new set,
 * pointer, SEB and guard), (2) the EpochConflict accepted in the previous
 * cycle (its ERV address read from the RAM then, with a bypass for a demand
 * written in that cycle), (3) one EpochDemand (round robin over the CUs),
 * acknowledged one cycle later. ERV demand bits are flip-flops (the target
 * search reads all of them); ERV addresses (AB/MB) are a 2^N x ADDR_W RAM.
 * In ES/AB/MB the wake-up starts a target search of lim + 3 cycles (the ERV
 * rotated to start after the pointer, one first-set-bit extraction per
 * cycle, rotated back) and takes effect in its last cycle, as the shell's
 * stc_emu_wake() then; demands wait from its first cycle to the one before,
 * so the search reads the ERV of that cycle.
 */
#include <stdio.h>

#include "gen_unit.h"
#include "prim.h"
#include "stc_emu.h"

typedef struct {
    const stc_emu_cfg *c;
    stc_emu_geom g;
    unsigned cnt_bits; /* target count, 0..epochs: band bits + 1          */
    unsigned lim;      /* epochs a set may hold: mb_max in MB, else 1      */
    unsigned ab, nv;   /* ERV addresses and bands (AB, MB); no skipping (NV) */
    char init_hex[STC_E_MAX / 4 + 8]; /* the initial epoch set, hex digits */
} gctx;

static void geometry(gctx *x, const stc_emu_cfg *c)
{
    stc_eset init;
    unsigned nd, k = 0;
    int d;
    x->c = c;
    stc_emu_geom_of(c, &x->g);
    x->cnt_bits = c->n + 1;
    x->lim = c->variant == STC_MB ? c->mb_max : 1;
    x->ab = c->variant >= STC_AB;
    x->nv = c->variant == STC_NV;
    stc_eset_of(&c->epoch, &init);
    nd = (x->g.E + 3) / 4;
    for (d = (int)nd - 1; d >= 0; d--) {
        unsigned v = (unsigned)((init.w[(unsigned)d * 4 / 64] >> (((unsigned)d * 4) % 64)) & 15);
        x->init_hex[k++] = "0123456789abcdef"[v];
    }
    x->init_hex[k] = '\0';
}

static void emit_localparams(emit_file *e, const gctx *x)
{
    unsigned epochs = x->g.E;
    unsigned guard_bits = x->g.guard_bits;
    unsigned ab = x->ab;

    emit(e, "localparam logic [1:0] PhIdle = 2'd0, PhPrep = 2'd1, PhChg = 2'd2;");
    if (ab && x->c->seb_guard)
        emit(e, "localparam logic [%u:0] GuardFull = %u'd%u; // 2^N: the pointer went round once",
             guard_bits - 1, guard_bits, epochs);
    emit_nl(e);
}

static void emit_regs_decl(emit_file *e, const gctx *x)
{
    unsigned cus = x->c->cus, addr_bits = x->c->addr_bits, band_bits = x->c->n, epochs = x->g.E;
    unsigned seb_bits = x->g.seb_bits, cu_bits = x->g.cu_bits, wake_bits = x->g.wake_bits;
    unsigned guard_bits = x->g.guard_bits;
    unsigned ab = x->ab, nv = x->nv;

    /* ---- registers */
    emit(e, "logic [1:0] phase_q, phase_d;");
    emit(e, "logic [%u:0] cur_q, cur_d, tgt_q, tgt_d;", epochs - 1);
    emit(e, "logic [%u:0] ptr_q, ptr_d, tlast_q, tlast_d;", band_bits - 1);
    emit(e, "logic [%u:0] seb_q, seb_d, sebn_q, sebn_d;", seb_bits - 1);
    emit(e, "logic [%u:0] guard_q, guard_d;", guard_bits - 1);
    emit(e, "logic [%u:0] wcnt_q, wcnt_d;", wake_bits - 1);
    emit(e, "logic [%u:0] rdy_q, rdy_d, done_q, done_d;", cus - 1);
    emit(e, "logic prep_v_q, prep_v_d, chg_v_q, chg_v_d, sleep_q, sleep_d;");
    emit(e, "logic dack_v_q, dack_v_d;");
    emit(e, "logic [%u:0] dack_cu_q, dack_cu_d;", cu_bits - 1);
    emit(e, "logic [%u:0] dack_ep_q, dack_ep_d;", band_bits - 1);
    emit(e, "logic [%u:0] drr_q, drr_d, crr_q, crr_d;", cu_bits - 1);
    emit(e, "logic c2_v_q, c2_v_d;");
    emit(e, "logic [%u:0] c2_addr_q, c2_addr_d;", addr_bits - 1);
    if (!nv) {
        emit(e, "logic [%u:0] erv_q, erv_d;", epochs - 1);
        emit(e, "logic [%u:0] srch_q, srch_d;", x->g.search_bits - 1);
        emit(e, "logic [%u:0] srem_q, srem_d, sacc_q, sacc_d, sfin_q, sfin_d;", epochs - 1);
        emit(e, "logic [%u:0] slast_q, slast_d;", band_bits - 1);
    }
    if (ab) {
        emit(e, "logic [%u:0] c2_idx_q, c2_idx_d;", band_bits - 1);
        emit(e, "logic byp_q, byp_d;");
        emit(e, "logic [%u:0] byp_addr_q, byp_addr_d;", addr_bits - 1);
        emit(e, "logic [%u:0] erv_mem [0:%u];", addr_bits - 1, epochs - 1);
        emit(e, "logic [%u:0] erv_rd_q;", addr_bits - 1);
        emit(e, "logic erv_we;");
        emit(e, "logic [%u:0] erv_wa, erv_ra;", band_bits - 1);
        emit(e, "logic [%u:0] erv_wd;", addr_bits - 1);
    }
    emit_nl(e);
}

static void emit_broadcasts(emit_file *e, const gctx *x)
{
    (void)x; /* the same text in every configuration */
    /* ---- broadcasts and status */
    emit(e, "logic prep_fire, chg_fire;");
    emit(e, "assign prep_fire = prep_v_q & (&prep_ready_i);");
    emit(e, "assign chg_fire = chg_v_q & (&chg_ready_i);");
    emit(e, "assign prep_valid_o = prep_v_q;");
    emit(e, "assign prep_epochs_o = tgt_q;");
    emit(e, "assign chg_valid_o = chg_v_q;");
    emit(e, "assign chg_epochs_o = cur_q;");
    emit(e, "assign chg_seb_o = seb_q;");
    prim_outputs(e, "cur ptr seb");
    emit(e, "assign seb_next_o = sebn_q;");
    prim_outputs(e, "phase sleep");
    emit(e, "assign rdy_ready_o = '1;");
    emit(e, "assign done_ready_o = '1;");
    emit(e, "assign dack_valid_o = dack_v_q;");
    emit(e, "assign dack_cu_o = dack_cu_q;");
    emit(e, "assign dack_epoch_o = dack_ep_q;");
    emit_nl(e);
}

static void emit_arbiters(emit_file *e, const gctx *x)
{
    unsigned cus = x->c->cus, addr_bits = x->c->addr_bits;
    unsigned cu_bits = x->g.cu_bits;

    /* ---- arbiters */
    emit(e, "// Round-robin arbiters: the first requesting CU at or after the priority");
    emit(e, "// pointer; a demand only when the acknowledgement register is free.");
    emit(e, "logic [%u:0] dem_gnt, conf_gnt;", cus - 1);
    emit(e, "logic [%u:0] dem_idx, conf_idx;", cu_bits - 1);
    emit(e, "logic dem_fire, conf_fire, dem_ok;");
    emit(e, "logic [%u:0] dem_a, conf_a;", addr_bits - 1);
    if (x->nv) {
        emit(e, "assign dem_ok = ~dack_v_q | dack_ready_i;");
    } else {
        emit(e, "// demands wait while the wake-up target search reads the ERV");
        emit(e, "assign dem_ok = (~dack_v_q | dack_ready_i) & ((srch_q == '0) | (srch_q == %u'd%u));",
             x->g.search_bits, x->g.search);
    }
    emit(e, "// The lowest requesting CU at or after the pointer, else the lowest one.");
    emit(e, "logic [%u:0] dem_req, dem_hi, dem_v, conf_hi, conf_v;", cus - 1);
    emit(e, "assign dem_req = dem_ok ? dem_valid_i : '0;");
    emit(e, "assign dem_hi = dem_req & ({%u{1'b1}} << drr_q);", cus);
    emit(e, "assign conf_hi = conf_valid_i & ({%u{1'b1}} << crr_q);", cus);
    emit(e, "assign dem_v = (|dem_hi) ? dem_hi : dem_req;");
    emit(e, "assign conf_v = (|conf_hi) ? conf_hi : conf_valid_i;");
    emit(e, "assign dem_fire = |dem_req;");
    emit(e, "assign conf_fire = |conf_valid_i;");
    emit(e, "always_comb begin");
    emit(e, "  dem_idx = '0;");
    emit(e, "  conf_idx = '0;");
    emit(e, "  // from the highest index down: the lowest match is written last");
    emit(e, "  for (int k = 0; k < %u; k++) begin", cus);
    emit(e, "    if (dem_v[%u - k]) dem_idx = %u'(%u - k);", cus - 1, cu_bits, cus - 1);
    emit(e, "    if (conf_v[%u - k]) conf_idx = %u'(%u - k);", cus - 1, cu_bits, cus - 1);
    emit(e, "  end");
    emit(e, "end");
    emit(e, "assign dem_gnt = dem_fire ? (%u'd1 << dem_idx) : '0;", cus);
    emit(e, "assign conf_gnt = conf_fire ? (%u'd1 << conf_idx) : '0;", cus);
    emit(e, "assign dem_ready_o = dem_gnt;");
    emit(e, "assign conf_ready_o = conf_gnt;");
    emit(e, "always_comb begin");
    emit(e, "  dem_a = '0;");
    emit(e, "  conf_a = '0;");
    emit(e, "  for (int k = 0; k < %u; k++) begin", cus);
    emit(e, "    if (dem_gnt[k]) dem_a = dem_addr_i[k*%u +: %u];", addr_bits, addr_bits);
    emit(e, "    if (conf_gnt[k]) conf_a = conf_addr_i[k*%u +: %u];", addr_bits, addr_bits);
    emit(e, "  end");
    emit(e, "end");
    emit_nl(e);
}

static void emit_target(emit_file *e, const gctx *x)
{
    unsigned band_bits = x->c->n, epochs = x->g.E;
    unsigned lim = x->lim, sb = x->g.search_bits, L = x->g.search;

    /* ---- target search */
    emit(e, "// Wake-up target: %s.",
         x->nv ? "the epoch after the pointer"
               : "the first demanded epochs circularly after the pointer (ERV bits of current epochs are stale, S5)");
    emit(e, "logic [%u:0] tgt_c;", epochs - 1);
    emit(e, "logic [%u:0] last_c;", band_bits - 1);
    emit(e, "logic found_c, srch_busy, wake_take, wake_fire;");
    if (x->nv) {
        emit(e, "assign srch_busy = 1'b0;");
        emit(e, "always_comb begin");
        emit(e, "  last_c = ptr_q + %u'd1;", band_bits);
        emit(e, "  tgt_c = '0;");
        emit(e, "  tgt_c[last_c] = 1'b1;");
        emit(e, "  found_c = 1'b1;");
        emit(e, "end");
        emit_nl(e);
        return;
    }
    emit(e, "// Over %u cycles after the wake-up (srch_q 1..%u, the ERV, set and pointer",
         L, L);
    emit(e, "// frozen): 1 rotate the live ERV to start after the pointer; 2..%u take", lim + 1);
    emit(e, "// its first set bit, one per cycle; %u rotate back, find the last epoch;", lim + 2);
    emit(e, "// %u the wake-up takes effect.", L);
    emit(e, "logic [%u:0] erv_live, srch_low, srch_first, srch_fin;", epochs - 1);
    emit(e, "logic [%u:0] srch_rot, srch_back;", 2 * epochs - 1);
    emit(e, "logic [%u:0] srch_sh;", band_bits - 1);
    emit(e, "logic [%u:0] srch_hi;", band_bits - 1);
    emit(e, "logic unused_srch;");
    emit(e, "assign erv_live = erv_q & ~cur_q;");
    emit(e, "assign srch_sh = ptr_q + %u'd1;", band_bits);
    emit(e, "assign srch_rot = {erv_live, erv_live} >> srch_sh;");
    emit(e, "assign srch_back = {sacc_q, sacc_q} << srch_sh;");
    emit(e, "assign srch_first = srch_rot[%u:0];", epochs - 1);
    emit(e, "assign srch_fin = srch_back[%u:%u];", 2 * epochs - 1, epochs);
    emit(e, "assign unused_srch = ^{srch_rot[%u:%u], srch_back[%u:0]};", 2 * epochs - 1, epochs,
         epochs - 1);
    emit(e, "assign srch_low = srem_q & (~srem_q + %u'd1);", epochs);
    emit(e, "always_comb begin");
    emit(e, "  srch_hi = '0;");
    emit(e, "  for (int i = 0; i < %u; i++) begin", epochs);
    emit(e, "    if (sacc_q[i]) srch_hi = %u'(i);", band_bits);
    emit(e, "  end");
    emit(e, "end");
    emit(e, "assign srch_busy = srch_q != '0;");
    emit(e, "assign wake_take = srch_q == %u'd%u;", sb, L);
    emit(e, "always_comb begin");
    emit(e, "  srch_d = srch_q;");
    emit(e, "  srem_d = srem_q;");
    emit(e, "  sacc_d = sacc_q;");
    emit(e, "  sfin_d = sfin_q;");
    emit(e, "  slast_d = slast_q;");
    emit(e, "  if (wake_take) srch_d = '0;");
    emit(e, "  else if (srch_busy | wake_fire) srch_d = srch_q + %u'd1;", sb);
    emit(e, "  if (srch_q == %u'd1) begin", sb);
    emit(e, "    srem_d = srch_first;");
    emit(e, "    sacc_d = '0;");
    emit(e, "  end");
    emit(e, "  if (srch_q >= %u'd2 && srch_q <= %u'd%u) begin", sb, sb, lim + 1);
    emit(e, "    srem_d = srem_q & ~srch_low;");
    emit(e, "    sacc_d = sacc_q | srch_low;");
    emit(e, "  end");
    emit(e, "  if (srch_q == %u'd%u) begin", sb, lim + 2);
    emit(e, "    sfin_d = srch_fin;");
    emit(e, "    slast_d = srch_sh + srch_hi;");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "assign tgt_c = sfin_q;");
    emit(e, "assign last_c = slast_q;");
    emit(e, "assign found_c = |sfin_q;");
    emit_nl(e);
}

static void emit_handshake(emit_file *e, const gctx *x)
{
    unsigned cus = x->c->cus, epochs = x->g.E;
    unsigned seb_bits = x->g.seb_bits, wake_bits = x->g.wake_bits;
    unsigned guard_bits = x->g.guard_bits;
    unsigned nv = x->nv;

    /* ---- handshake */
    emit(e, "// (1) Handshake on the registered phase.");
    emit(e, "logic last_rdy, last_done, step_now;");
    emit(e, "logic [%u:0] rdy_acc, done_acc;", cus - 1);
    emit(e, "logic [%u:0] gap, adv;", guard_bits - 1);
    emit(e, "logic [%u:0] seb_hs;", seb_bits - 1);
    emit(e, "logic [%u:0] guard_hs;", guard_bits - 1);
    if (!nv)
        emit(e, "logic [%u:0] erv_hs;", epochs - 1);
    emit(e, "assign wake_fire = (phase_q == PhIdle) & ~srch_busy & (wake_i | (tmr_en_i & (wcnt_q == %u'd%u)));",
         wake_bits, x->c->wake - 1);
    if (nv)
        emit(e, "assign wake_take = wake_fire;");
    emit(e, "assign rdy_acc = (phase_q == PhPrep && !prep_v_q) ? rdy_valid_i : '0;");
    emit(e, "assign done_acc = (phase_q == PhChg && !chg_v_q) ? done_valid_i : '0;");
    emit(e, "assign last_rdy = (phase_q == PhPrep) & ~prep_v_q & (&(rdy_q | rdy_acc));");
    emit(e, "assign last_done = (phase_q == PhChg) & ~chg_v_q & (&(done_q | done_acc));");
    emit(e, "assign step_now = last_rdy & (sebn_q != seb_q);");
    emit(e, "assign gap = {1'b0, tlast_q - ptr_q};");
    emit(e, "assign adv = (gap == '0) ? %u'd%u : gap;", guard_bits, epochs);
    emit(e, "assign seb_hs = step_now ? sebn_q : seb_q;");
    emit(e, "always_comb begin");
    emit(e, "  guard_hs = guard_q;");
    emit(e, "  if (step_now) guard_hs = '0;");
    emit(e, "  else if (last_rdy) guard_hs = (%u'(guard_q) + %u'(adv) > %u'd%u) ? %u'd%u : guard_q + adv;",
         guard_bits + 1, guard_bits + 1, guard_bits + 1, epochs, guard_bits, epochs);
    emit(e, "end");
    if (!nv)
        emit(e, "assign erv_hs = step_now ? '0 : wake_take ? (erv_live & ~tgt_c) : erv_q;");
    emit_begin(e, "always_comb begin");
    prim_hold(e, "phase cur tgt ptr tlast wcnt rdy done");
    emit(e, "prep_v_d = prep_v_q & ~prep_fire;");
    emit(e, "chg_v_d = chg_v_q & ~chg_fire;");
    emit(e, "sleep_d = 1'b0;");
    emit(e, "if (phase_q == PhIdle) begin");
    emit(e, "  if (wake_fire) wcnt_d = '0;");
    emit(e, "  else if (tmr_en_i & ~srch_busy) wcnt_d = wcnt_q + %u'd1;", wake_bits);
    emit(e, "  if (wake_take) begin");
    emit(e, "    if (found_c) begin");
    emit(e, "      phase_d = PhPrep;");
    emit(e, "      prep_v_d = 1'b1;");
    emit(e, "      tgt_d = tgt_c;");
    emit(e, "      tlast_d = last_c;");
    emit(e, "      rdy_d = '0;");
    emit(e, "    end else begin");
    emit(e, "      sleep_d = 1'b1;");
    emit(e, "    end");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "if (last_rdy) begin");
    emit(e, "  phase_d = PhChg;");
    emit(e, "  chg_v_d = 1'b1;");
    emit(e, "  cur_d = tgt_q;");
    emit(e, "  ptr_d = tlast_q;");
    emit(e, "  done_d = '0;");
    emit(e, "end else begin");
    emit(e, "  rdy_d = rdy_d | rdy_acc;");
    emit(e, "end");
    emit(e, "if (last_done) begin");
    emit(e, "  phase_d = PhIdle;");
    emit(e, "  wcnt_d = '0;");
    emit(e, "end else if (!last_rdy) begin");
    emit(e, "  done_d = done_d | done_acc;");
    emit(e, "end");
    emit_end(e, "end");
    emit_nl(e);
}

static void emit_conflict(emit_file *e, const gctx *x)
{
    const stc_emu_cfg *c = x->c;
    unsigned cus = c->cus, addr_bits = c->addr_bits, band_bits = c->n;
    unsigned seb_bits = x->g.seb_bits, cu_bits = x->g.cu_bits;
    unsigned ab = x->ab;

    /* ---- conflicts */
    emit(e, "// (2) The conflict registered last cycle, on the state after (1).");
    if (ab) {
        emit(e, "logic [%u:0] w_c, d_c;", addr_bits - 1);
        emit(e, "logic low_c, high_c, pend_c, guard_ok, valid_c, set_dn, set_up;");
        emit(e, "// the fields below and above the band under both SEBs the cycle may");
        emit(e, "// use (a step applied in (1) or not), from registers only");
        emit(e, "logic [%u:0] low_m, high_m, lown_m, highn_m;", addr_bits - 1);
        emit(e, "assign w_c = byp_q ? byp_addr_q : erv_rd_q;");
        emit(e, "assign d_c = c2_addr_q ^ w_c;");
        emit(e, "always_comb begin");
        emit(e, "  low_m = '0;");
        emit(e, "  high_m = '0;");
        emit(e, "  lown_m = '0;");
        emit(e, "  highn_m = '0;");
        emit(e, "  for (int i = 0; i < %u; i++) begin", addr_bits);
        emit(e, "    if (i >= %u && %u'(i) < %u'(seb_q)) low_m[i] = 1'b1;", c->seb_min,
             seb_bits + 1, seb_bits + 1);
        emit(e, "    if (%u'(i) >= %u'(seb_q) + %u'd%u) high_m[i] = 1'b1;", seb_bits + 1, seb_bits + 1,
             seb_bits + 1, band_bits);
        emit(e, "    if (i >= %u && %u'(i) < %u'(sebn_q)) lown_m[i] = 1'b1;", c->seb_min,
             seb_bits + 1, seb_bits + 1);
        emit(e, "    if (%u'(i) >= %u'(sebn_q) + %u'd%u) highn_m[i] = 1'b1;", seb_bits + 1, seb_bits + 1,
             seb_bits + 1, band_bits);
        emit(e, "  end");
        emit(e, "end");
        emit(e, "assign low_c = step_now ? |(d_c & lown_m) : |(d_c & low_m);");
        emit(e, "assign high_c = step_now ? |(d_c & highn_m) : |(d_c & high_m);");
        emit(e, "assign pend_c = sebn_q != seb_hs;");
        emit(e, "assign guard_ok = %s;", c->seb_guard ? "(guard_hs == GuardFull)" : "1'b1");
        emit(e, "assign valid_c = erv_hs[c2_idx_q];");
        emit(e, "assign set_dn = c2_v_q & ~pend_c & guard_ok & valid_c & low_c;");
        emit(e, "assign set_up = c2_v_q & ~pend_c & guard_ok & valid_c & ~low_c & high_c & "
                "(seb_hs < %u'd%u);",
             seb_bits, c->seb_max);
        emit(e, "always_comb begin");
        emit(e, "  sebn_d = sebn_q;");
        emit(e, "  if (set_dn) sebn_d = seb_hs - %u'd1;", seb_bits);
        emit(e, "  else if (set_up) sebn_d = seb_hs + %u'd1;", seb_bits);
        emit(e, "end");
    } else {
        emit(e, "// %s: conflicts are accepted and ignored; SEB never moves.",
             stc_variant_name(c->variant));
        emit(e, "assign sebn_d = sebn_q;");
        emit(e, "logic unused_c2;");
        emit(e, "assign unused_c2 = ^{c2_v_q, c2_addr_q};");
    }
    emit(e, "assign seb_d = seb_hs;");
    emit(e, "assign guard_d = guard_hs;");
    emit(e, "assign c2_v_d = conf_fire;");
    emit(e, "assign c2_addr_d = conf_fire ? conf_a : c2_addr_q;");
    emit(e, "assign crr_d = conf_fire ? ((conf_idx == %u'd%u) ? '0 : conf_idx + %u'd1) : crr_q;", cu_bits,
         cus - 1, cu_bits);
    emit_nl(e);
}

static void emit_demand(emit_file *e, const gctx *x)
{
    unsigned cus = x->c->cus, addr_bits = x->c->addr_bits, band_bits = x->c->n, epochs = x->g.E;
    unsigned cu_bits = x->g.cu_bits;
    unsigned ab = x->ab, nv = x->nv;

    /* ---- demands */
    emit(e, "// (3) One demand: ERV bit%s, acknowledgement register.",
         ab ? ", first address into the RAM" : "");
    emit(e, "logic [%u:0] dem_e;", band_bits - 1);
    emit(e, "// bands under both SEBs the cycle may use, chosen by the step of (1)");
    emit(e, "logic [%u:0] dem_sh, dem_shn;", addr_bits + band_bits - 1);
    emit(e, "logic unused_dem_sh;");
    emit(e, "assign dem_sh = {%u'd0, dem_a} >> seb_q;", band_bits);
    emit(e, "assign dem_shn = {%u'd0, dem_a} >> sebn_q;", band_bits);
    emit(e, "assign dem_e = step_now ? dem_shn[%u:0] : dem_sh[%u:0];", band_bits - 1, band_bits - 1);
    emit(e, "assign unused_dem_sh = ^{dem_sh[%u:%u], dem_shn[%u:%u]};", addr_bits + band_bits - 1,
         band_bits, addr_bits + band_bits - 1, band_bits);
    if (!nv)
        emit(e, "assign erv_d = erv_hs | (dem_fire ? (%u'd1 << dem_e) : '0);", epochs);
    emit(e, "assign dack_v_d = %s;", nv ? "1'b0" : "dem_fire | (dack_v_q & ~dack_ready_i)");
    if (nv) {
        emit(e, "// nv: demands are taken and dropped (no ERV, no acknowledgement)");
        emit(e, "assign dack_cu_d = dack_cu_q;");
        emit(e, "assign dack_ep_d = dack_ep_q;");
    } else {
        emit(e, "assign dack_cu_d = dem_fire ? dem_idx : dack_cu_q;");
        emit(e, "assign dack_ep_d = dem_fire ? dem_e : dack_ep_q;");
    }
    emit(e, "assign drr_d = dem_fire ? ((dem_idx == %u'd%u) ? '0 : dem_idx + %u'd1) : drr_q;", cu_bits,
         cus - 1, cu_bits);
    if (ab) {
        emit(e, "assign erv_we = dem_fire & ~erv_hs[dem_e];");
        emit(e, "assign erv_wa = dem_e;");
        emit(e, "assign erv_wd = dem_a;");
        emit(e, "logic [%u:0] conf_sh, conf_shn;", addr_bits + band_bits - 1);
        emit(e, "logic unused_conf_sh;");
        emit(e, "assign conf_sh = {%u'd0, conf_a} >> seb_q;", band_bits);
        emit(e, "assign conf_shn = {%u'd0, conf_a} >> sebn_q;", band_bits);
        emit(e, "assign erv_ra = step_now ? conf_shn[%u:0] : conf_sh[%u:0];", band_bits - 1, band_bits - 1);
        emit(e, "assign unused_conf_sh = ^{conf_sh[%u:%u], conf_shn[%u:%u]};", addr_bits + band_bits - 1,
             band_bits, addr_bits + band_bits - 1, band_bits);
        emit(e, "assign c2_idx_d = conf_fire ? erv_ra : c2_idx_q;");
        emit(e, "assign byp_d = erv_we & (erv_wa == erv_ra);");
        emit(e, "assign byp_addr_d = erv_wd;");
        emit_nl(e);
        emit(e, "// ERV address RAM: one write (a demand into an empty entry), one read");
        emit(e, "// (the conflict's entry) per cycle.");
        prim_ram_ports(
            e, &(prim_ram){"erv_mem", "erv_we", "erv_wa", "erv_wd", NULL, "erv_rd_q", "erv_ra", 0});
    } else if (nv) {
        emit(e, "logic unused_dem;");
        emit(e, "assign unused_dem = ^dem_e;");
    }
    emit_nl(e);
}

static void emit_regs(emit_file *e, const gctx *x)
{
    const stc_emu_cfg *c = x->c;
    unsigned band_bits = c->n, epochs = x->g.E;
    unsigned seb_bits = x->g.seb_bits;
    unsigned guard_bits = x->g.guard_bits;
    unsigned ab = x->ab, nv = x->nv;
    const char *init_hex = x->init_hex;

    prim_regs rl = {0};
    prim_regs_list(&rl, "phase=PhIdle");
    prim_reg(&rl, "cur", "%u'h%s", epochs, init_hex);
    prim_regs_list(&rl, "tgt='0");
    prim_reg(&rl, "ptr", "%u'd%u", band_bits, (unsigned)c->epoch.e[c->epoch.n - 1]);
    prim_regs_list(&rl, "tlast='0");
    prim_reg(&rl, "seb", "%u'd%u", seb_bits, c->seb);
    prim_reg(&rl, "sebn", "%u'd%u", seb_bits, c->seb);
    prim_reg(&rl, "guard", "%u'd%u", guard_bits, epochs);
    prim_regs_list(&rl, "wcnt='0 rdy='0 done='0 prep_v=1'b0 chg_v=1'b0 sleep=1'b0 dack_v=1'b0 "
                        "dack_cu='0 dack_ep='0 drr='0 crr='0 c2_v=1'b0 c2_addr='0");
    if (!nv)
        prim_regs_list(&rl, "erv='0 srch='0 srem='0 sacc='0 sfin='0 slast='0");
    if (ab) {
        prim_regs_list(&rl, "c2_idx='0 byp=1'b0 byp_addr='0");
    }
    prim_regs_block(e, &rl);
    emit_nl(e);
}

static void emit_formal(emit_file *e, const gctx *x)
{
    static const char *const samples[] = {
        "f_chg_q <= chg_v_q",
        "f_seen_q <= (phase_q == PhPrep && !prep_v_q) ? (f_seen_q | rdy_valid_i) : '0",
        "f_allrdy_q <= (phase_q == PhPrep) && !prep_v_q && ((f_seen_q | rdy_valid_i) == '1)", NULL};
    const stc_emu_cfg *c = x->c;
    unsigned cus = c->cus, epochs = x->g.E;
    unsigned cnt_bits = x->cnt_bits, lim = x->lim;

    prim_formal_begin(e,
                      "// p_hs: ChangeEpoch only after every CU's ReadyAck (counted by an\n"
                      "// independent monitor), broadcasts only in their phase; p_cer: the current\n"
                      "// set holds 1..%u epochs. s_*: strengthening invariants for the induction\n"
                      "// (docs/stc.md): the monitor's ReadyAcks equal rdy_q in PREPARE, rdy_q is\n"
                      "// empty while PrepareEpochChange waits, the target set holds 1..%u\n"
                      "// epochs in PREPARE%s.",
                      lim, lim,
                      x->nv ? ""
                            : "; in the wake-up target search at most k epochs\n"
                              "// taken after k extractions, its result at most MB_MAX epochs");
    emit(e, "logic f_chg_q, f_allrdy_q;");
    emit(e, "logic [%u:0] f_seen_q;", cus - 1);
    emit(e, "logic [%u:0] f_cnt, f_tcnt, f_acnt, f_fcnt;", cnt_bits);
    prim_formal_samples(e, samples);
    emit(e, "always @(*) begin");
    emit(e, "  f_cnt = '0;");
    emit(e, "  f_tcnt = '0;");
    emit(e, "  f_acnt = '0;");
    emit(e, "  f_fcnt = '0;");
    emit(e, "  for (int i = 0; i < %u; i++) begin", epochs);
    emit(e, "    f_cnt = f_cnt + {%u'd0, cur_q[i]};", cnt_bits);
    emit(e, "    f_tcnt = f_tcnt + {%u'd0, tgt_q[i]};", cnt_bits);
    if (!x->nv) {
        emit(e, "    f_acnt = f_acnt + {%u'd0, sacc_q[i]};", cnt_bits);
        emit(e, "    f_fcnt = f_fcnt + {%u'd0, sfin_q[i]};", cnt_bits);
    }
    emit(e, "  end");
    emit(e, "end");
    prim_formal_assume(e, "reset in the first cycle only", 1);
    emit(e, "  if (rst_ni && f_past_q) begin");
    emit(e, "    if (chg_v_q && !f_chg_q) p_hs_all_ready: assert(f_allrdy_q);");
    emit(e, "    if (prep_v_q) p_hs_prep_phase: assert(phase_q == PhPrep);");
    emit(e, "    if (chg_v_q) p_hs_chg_phase: assert(phase_q == PhChg);");
    emit(e, "    p_cer_count: assert(f_cnt >= %u'd1 && f_cnt <= %u'd%u);", cnt_bits + 1,
         cnt_bits + 1, lim);
    emit(e, "    if (phase_q == PhPrep) s_seen: assert(f_seen_q == rdy_q);");
    emit(e, "    if (prep_v_q) s_prep_rdy: assert(rdy_q == '0);");
    emit(e, "    if (phase_q == PhPrep) s_tgt: assert(f_tcnt >= %u'd1 && f_tcnt <= %u'd%u);",
         cnt_bits + 1, cnt_bits + 1, lim);
    if (!x->nv) {
        unsigned sb = x->g.search_bits;
        emit(e, "    if (srch_q >= %u'd2 && srch_q <= %u'd%u) s_srch_acc: assert(f_acnt <= %u'(srch_q) - %u'd2);",
             sb, sb, lim + 2, cnt_bits + 1, cnt_bits + 1);
        emit(e, "    if (srch_q == %u'd%u) s_srch_fin: assert(f_fcnt <= %u'd%u);", sb, x->g.search,
             cnt_bits + 1, lim);
    }
    emit(e, "  end");
    emit(e, "end");
    emit(e, "`endif");
}

static void emit_emu(emit_file *e, const void *cfg, const block_desc *b)
{
    const stc_emu_cfg *c = cfg;
    gctx x;
    geometry(&x, c);
    emit(e, "// STC epoch management unit, variant %s (TACO 2023, 4.2-4.4, Fig. 5, Table 4):",
         stc_variant_name(c->variant));
    emit(e, "// four-way handshake, %s. See docs/stc.md.",
         x.nv ? "round robin over all epochs" : c->variant == STC_ES ? "epoch skipping"
         : c->variant == STC_AB ? "epoch skipping and adaptive bands"
                                : "epoch skipping, adaptive bands and multiple bands");
    if (x.ab)
        emit(e, "// Storage: flip-flops, and the ERV address RAM (%u x %u bits).", x.g.E, c->addr_bits);
    else
        emit(e, "// Storage: flip-flops only (no ERV addresses in %s); no RAM by design.",
             stc_variant_name(c->variant));
    PRIM_MODULE(e, b, gctx, &x, emit_localparams, emit_regs_decl, emit_broadcasts, emit_arbiters,
                emit_target, emit_handshake, emit_conflict, emit_demand, emit_regs, emit_formal);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(stc_emu_cfg, stc_emu_geom);
    snprintf(buf, len,
             "variant=%s n=%u epochs=%u seb=%u seb_min=%u seb_max=%u addr_bits=%u cus=%u "
             "mb_max=%u seb_guard=%u wake=%u\nseb_bits=%u cu_bits=%u wake_bits=%u guard_bits=%u "
             "state_bits=%u erv_ram_bits=%u",
             stc_variant_name(c->variant), c->n, g.E, c->seb, c->seb_min, c->seb_max, c->addr_bits,
             c->cus, c->mb_max, c->seb_guard, c->wake, g.seb_bits, g.cu_bits, g.wake_bits,
             g.guard_bits, g.state_bits, g.E * g.erv_addr_bits);
}

static void gen_report(FILE *f, const void *cfg, int json)
{
    const stc_emu_cfg *c = cfg;
    stc_emu_geom g;
    unsigned paper, ram;
    char mem[32] = "";
    stc_emu_geom_of(c, &g);
    /* Table 4: epoch counter N + wake-up counter 8 + ERV 2^N x 33 + ETV 2^N */
    paper = c->n + 8 + g.E * 33 + g.E;
    ram = g.E * g.erv_addr_bits;
    if (ram)
        snprintf(mem, sizeof mem, "[%u,%u]", g.E, g.erv_addr_bits);
    if (json) {
        fprintf(f,
                "{\"unit\":\"stc-emu\",\"variant\":\"%s\",\"n\":%u,\"epochs\":%u,\"cus\":%u,"
                "\"mb_max\":%u,\"wake\":%u,\"state_bits\":%u,\"erv_ram_bits\":%u,"
                "\"rtl_bits\":%u,\"rtl_memories\":[%s],"
                "\"paper\":{\"table4_bits\":%u,\"epoch_counter\":%u,\"wakeup_counter\":8,"
                "\"erv_bits\":%u,\"etv_bits\":%u}}\n",
                stc_variant_name(c->variant), c->n, g.E, c->cus, c->mb_max, c->wake, g.state_bits,
                ram, g.state_bits + ram, mem, paper, c->n, g.E * 33, g.E);
        return;
    }
    fprintf(f, "STC EMU (%s): N %u (%u epochs), %u CUs, %u-bit addresses, mb_max %u, wake %u\n",
            stc_variant_name(c->variant), c->n, g.E, c->cus, c->addr_bits, c->mb_max, c->wake);
    fprintf(f, "  RTL: %u flip-flop bits + ERV address RAM %u x %u = %u bits; total %u\n",
            g.state_bits, g.E, g.erv_addr_bits, ram, g.state_bits + ram);
    fprintf(f, "  paper (Table 4, STC-AB): %u-bit epoch counter + 8-bit wake-up counter + ERV "
               "%u x 33 + ETV %u x 1 = %u bits\n",
            c->n, g.E, g.E, paper);
    fprintf(f, "  beyond Table 4 (S9): SEB and pending SEB, phase, current and target sets,\n"
               "  ReadyAck/DoneAck vectors, guard counter, arbiters, ack and conflict registers;\n"
               "  no ETV (S8)\n");
}

const gen_unit stc_emu_gen_unit = {"stc-emu", emit_emu, gen_params, gen_report, NULL};
