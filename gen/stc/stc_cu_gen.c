/*
 * STC per-CU epoch logic generator (paper §4.2-4.4; spec 3.3), one module
 * holding the CU's BSQ inline (the BSQ body of gen/stc/stc_bsq_gen.c; one
 * module per file): CER (2^N-bit mask), SEB, demand vector, conflict flag,
 * RUN / PREPARE / CHANGE phase, registered channels to the L1 (stores),
 * the load path and the EMU (EpochDemand, EpochConflict, ReadyAck,
 * DoneAck). Microarchitecture and timing: docs/stc.md (## stc-cu); model
 * cmodel/stc/stc_cu.c (stc_cu_tm_eval / stc_cu_tm_step, and the functional
 * core stc_cu_store / _load / _write_ack / _prepare / _change).
 */
#include <stdio.h>
#include <string.h>

#include "gen_unit.h"
#include "parts.h"
#include "prim.h"
#include "stc_bsq_gen.h"
#include "stc_cu.h"

/* The CER register and its reset value: the configuration's epochs, one
 * bit an epoch. */
static void cer_reset(const stc_cu_cfg *c, prim_regs *rl)
{
    unsigned ep = 1u << c->bsq.n, at = 0;
    char bits[STC_E_MAX + 1];
    for (unsigned i = ep; i-- > 0;)
        bits[at++] = stc_eset_has(&c->epoch, i) ? '1' : '0';
    bits[at] = '\0';
    prim_reg(rl, "cer", "%u'b%s", ep, bits);
}

static int bsq_ports(const void *cfg, cohkit_port *p, int max)
{
    return stc_bsq_cu_ports(&((const stc_cu_cfg *)cfg)->bsq, p, max);
}

static void bsq_body(emit_file *e, const void *cfg)
{
    stc_bsq_cu_body(e, &((const stc_cu_cfg *)cfg)->bsq);
}

/* The part: the BSQ of this configuration in its own file (gen/parts.h). */
const gen_part stc_cu_parts[] = {
    {"bsq", "STC blocked store queue (the stc-bsq logic in the CU's mode), part of the CU.",
     NULL, bsq_ports, bsq_body},
    {NULL, NULL, NULL, NULL, NULL},
};

/* The CU signal on a BSQ port: push_valid_i <-> q_push_valid; the epoch
 * inputs are the CU's registers. */
static const char *bsq_conn(const char *port, char *buf, size_t len)
{
    size_t n = strlen(port);
    if (strcmp(port, "cer_i") == 0 || strcmp(port, "seb_i") == 0)
        snprintf(buf, len, "%.3s_q", port);
    else
        snprintf(buf, len, "q_%.*s", (int)(n > 2 ? n - 2 : n), port);
    return buf;
}

/* What every part of the CU module reads: the configuration, the BSQ
 * part and the widths of the spec's names (A address bits, N band bits,
 * EP epochs, SW SEB bits, L drain lanes, PW pending-write bits). */
typedef struct {
    const stc_cu_cfg *c;
    const block_desc *b;
    stc_bsq_geom g;
    block_desc bsq;
    char bsq_name[192];
    unsigned A, N, EP, SW, L, PW;
    unsigned SP; /* SEB values with a band bit inside the address: min(2^SW, A) */
    int dem, conf;
} cu_gctx;

static void cu_emit_head(emit_file *e, const cu_gctx *x)
{
    const block_desc *b = x->b;
    const stc_bsq_geom *g = &x->g;
    unsigned A = x->A;
    unsigned N = x->N;
    unsigned EP = x->EP;
    unsigned SW = x->SW;
    unsigned L = x->L;
    unsigned PW = x->PW;

    emit(e, "// STC per-CU epoch logic with its blocked store queue (paper 4.2-4.4, spec");
    emit(e, "// 3.3, 3.4), variant %s: CER (%u-bit mask), SEB, demand vector, conflict",
         stc_cu_variant_name(x->c->variant), EP);
    emit(e, "// flag, RUN/PREPARE/CHANGE. Stores in their band's epoch go to the L1 register;");
    emit(e, "// others enter the BSQ. ReadyAck once PW = 0 and no store waits for the L1.");
    emit(e, "// ChangeEpoch: CER/SEB updated, DV and conflict flag cleared, BSQ scan drains");
    emit(e, "// matching entries one per cycle into the L1 register and re-demands the");
    emit(e, "// bands of the entries that stay, then DoneAck. See docs/stc.md. The BSQ is");
    emit(e, "// an instance of %s (its own file).", x->bsq_name);
    if (g->rows == 1)
        emit(e, "// Storage: one row per BSQ bank, held in registers; no RAM by design.");
    prim_module_begin(e, b);
    emit(e, "localparam logic [1:0] PhRun = 2'd0, PhPrep = 2'd1, PhChg = 2'd2;");
    emit(e, "logic [%u:0] cer_q, cer_d, dv_q, dv_d;", EP - 1);
    emit(e, "logic [%u:0] seb_q, seb_d;", SW - 1);
    emit(e, "// seb_oh_q[s]: SEB = s (a copy of seb_q, one bit a value below %u), so", x->SP);
    emit(e, "// that a band is an AND-OR of address bits rather than a shifter.");
    emit(e, "logic [%u:0] seb_oh_q, seb_oh_d;", x->SP - 1);
    emit(e, "logic [1:0] phase_q, phase_d;");
    emit(e, "logic ready_sent_q, ready_sent_d, conf_sent_q, conf_sent_d;");
    emit(e, "logic [%u:0] pw_q, pw_d;", PW - 1);
    emit(e, "logic iss_valid_q, iss_valid_d, iss_drain_q, iss_drain_d;");
    emit(e, "logic ldr_valid_q, ldr_valid_d, ldr_unc_q, ldr_unc_d;");
    emit(e, "logic dem_valid_q, dem_valid_d, conf_valid_q, conf_valid_d;");
    emit(e, "logic [%u:0] iss_addr_q, iss_addr_d, ldr_addr_q, ldr_addr_d;", A - 1);
    emit(e, "logic [%u:0] dem_addr_q, dem_addr_d, conf_addr_q, conf_addr_d;", A - 1);
    emit(e, "logic [%u:0] dem_band_q, dem_band_d, conf_band_q, conf_band_d;", N - 1);
    emit(e, "logic [%u:0] served_q, served_d;", L - 1);
    emit_nl(e);
    emit(e, "// The BSQ's ports.");
    emit(e, "logic q_push_valid, q_push_ready, q_full, q_chg_valid, q_chg_ready;");
    emit(e, "logic [%u:0] q_push_addr;", A - 1);
    emit(e, "logic [%u:0] q_push_bank;", g->bank_bits ? g->bank_bits - 1 : 0);
    emit(e, "logic [%u:0] q_push_slot;", g->slot_bits - 1);
    emit(e, "logic q_drn_valid, q_drn_ready, q_done_valid, q_done_ready;");
    emit(e, "logic [%u:0] q_drn_row;", g->rowi_bits - 1);
    emit(e, "logic [%u:0] q_drn_mask, q_drn_keep;", L - 1);
    emit(e, "logic [%u:0] q_drn_addr, q_drn_data;", L * A - 1);
    emit(e, "logic [%u:0] q_drn_band;", L * N - 1);
    emit(e, "logic [%u:0] q_done_cycles;", g->cyc_bits - 1);
    emit(e, "logic [%u:0] q_count;", g->count_bits - 1);
    emit(e, "logic unused_q, unused_epoch;");
    emit(e, "assign unused_epoch = ^{dv_q, conf_sent_q}; // NV reads neither, ES no flag");
    emit(e, "assign unused_q = ^{q_push_bank, q_chg_ready, q_drn_row, q_drn_addr, q_done_cycles, q_count};");
    emit_nl(e);
}

static void cu_emit_ports(emit_file *e, const cu_gctx *x)
{
    unsigned N = x->N;
    int dem = x->dem;
    int conf = x->conf;

    emit(e, "// Epoch check of a store: to the L1 in RUN with its band in the CER,");
    emit(e, "// else into the BSQ (with an EpochDemand unless DV filters it). Every");
    emit(e, "// outcome is a vector over the %u bands, from registers and the readies", x->EP);
    emit(e, "// alone, indexed by the address's band at the end (the band extraction");
    emit(e, "// and the lookup in parallel with the rest, not in series).");
    emit(e, "logic [%u:0] st_band, ld_band;", N - 1);
    for (unsigned i = 0; i < N; i++) {
        emit(e, "assign st_band[%u] = |(seb_oh_q & %u'(st_addr_i >> %u));", i, x->SP, i);
        emit(e, "assign ld_band[%u] = |(seb_oh_q & %u'(ld_addr_i >> %u));", i, x->SP, i);
    }
    emit(e, "logic st_direct, iss_free, dem_free, st_iss, st_dem, st_open;");
    emit(e, "logic [%u:0] b_direct, b_dem, b_push, b_ready, b_iss, b_stdem;", x->EP - 1);
    emit(e, "assign iss_free = ~iss_valid_q | iss_ready_i;");
    emit(e, "assign dem_free = ~dem_valid_q | dem_ready_i;");
    emit(e, "assign st_open = phase_q != PhChg;");
    emit(e, "assign b_direct = {%u{phase_q == PhRun}} & cer_q;", x->EP);
    if (dem)
        emit(e, "assign b_dem = ~b_direct & ~dv_q;");
    else
        emit(e, "assign b_dem = '0; // NV: no demands");
    emit(e, "assign b_push = {%u{st_open}} & ~b_direct & (~b_dem | {%u{dem_free}});", x->EP, x->EP);
    emit(e, "assign b_iss = b_direct & {%u{iss_free}};", x->EP);
    emit(e, "assign b_ready = b_iss | (b_push & {%u{q_push_ready}});", x->EP);
    emit(e, "assign b_stdem = b_dem & b_push & {%u{q_push_ready}};", x->EP);
    emit(e, "assign st_direct = b_direct[st_band];");
    emit(e, "assign q_push_valid = st_valid_i & b_push[st_band];");
    emit(e, "assign q_push_addr = st_addr_i;");
    emit(e, "assign st_ready_o = b_ready[st_band];");
    emit(e, "// a store accepted to the L1 register; one accepted into the BSQ with a demand");
    emit(e, "assign st_iss = st_valid_i & b_iss[st_band];");
    emit(e, "assign st_dem = st_valid_i & b_stdem[st_band];");
    emit(e, "assign st_blocked_o = ~st_direct;");
    emit(e, "assign st_slot_o = q_push_slot;");
    emit(e, "assign bsq_full_o = q_full;");
    emit_nl(e);
    emit(e, "// Loads are never held (ER4): Load_U when the band is current, else a");
    emit(e, "// cacheable Load, with the epoch's first EpochConflict (AB/MB).");
    emit(e, "logic ld_in_cer, ld_conf, ld_fire;");
    emit(e, "logic [%u:0] b_conf, b_ldok;", x->EP - 1);
    if (conf)
        emit(e, "assign b_conf = ~cer_q & dv_q & {%u{~conf_sent_q}};", x->EP);
    else
        emit(e, "assign b_conf = '0; // NV/ES: no conflicts");
    emit(e, "assign b_ldok = {%u{~ldr_valid_q | ldr_ready_i}} & (~b_conf | {%u{~conf_valid_q | conf_ready_i}});",
         x->EP, x->EP);
    emit(e, "assign ld_in_cer = cer_q[ld_band];");
    emit(e, "assign ld_conf = b_conf[ld_band];");
    emit(e, "assign ld_ready_o = b_ldok[ld_band];");
    emit(e, "assign ld_fire = ld_valid_i & ld_ready_o;");
    emit_nl(e);
}

static void cu_emit_demand(emit_file *e, const cu_gctx *x)
{
    unsigned A = x->A;
    unsigned N = x->N;
    unsigned L = x->L;
    int dem = x->dem;

    emit(e, "// Beat of the scan: drained lanes go to the L1 register one per cycle,");
    emit(e, "// kept lanes whose band has DV = 0 send an EpochDemand one per cycle");
    emit(e, "// (lowest lane first); the beat is taken when neither is pending.");
    emit(e, "logic [%u:0] pend_drn, need, first_drn, first_need;", L - 1);
    emit(e, "logic [%u:0] drn_sel_addr, need_sel_addr;", A - 1);
    emit(e, "logic [%u:0] need_sel_band;", N - 1);
    emit(e, "logic drn_take, need_take;");
    emit(e, "assign pend_drn = q_drn_mask & ~served_q;");
    emit(e, "always_comb");
    emit(e, "  for (int j = 0; j < %u; j++)", L);
    if (dem)
        emit(e, "    need[j] = q_drn_keep[j] & ~dv_q[q_drn_band[j*%u +: %u]];", N, N);
    else
        emit(e, "    need[j] = 1'b0 & q_drn_keep[j]; // NV: no re-demand");
    emit(e, "assign first_drn = pend_drn & (~pend_drn + %u'd1);", L);
    emit(e, "assign first_need = need & (~need + %u'd1);", L);
    /* AND-OR selects of the one-hot lanes (no block reads what it writes) */
    prim_and_or(e, "drn_sel_addr", "first_drn", L, "q_drn_data", A, 0, A);
    prim_and_or(e, "need_sel_addr", "first_need", L, "q_drn_data", A, 0, A);
    emit(e, "assign need_sel_band =");
    for (unsigned j = 0; j < L; j++)
        emit(e, "  ({%u{first_need[%u]}} & q_drn_band[%u:%u])%s", N, j, (j + 1) * N - 1, j * N,
             j + 1 < L ? " |" : ";");
    emit(e, "assign q_drn_ready = (pend_drn == '0) & (need == '0);");
    emit(e, "assign drn_take = q_drn_valid & (pend_drn != '0) & iss_free;");
    emit(e, "assign need_take = q_drn_valid & (need != '0) & dem_free;");
    emit_nl(e);
    emit(e, "// Four-way handshake, CU side.");
    emit(e, "logic chg_fire;");
    emit(e, "assign prep_ready_o = phase_q == PhRun;");
    emit(e, "assign rdy_valid_o = (phase_q == PhPrep) & ~ready_sent_q & (pw_q == '0) & ~iss_valid_q;");
    emit(e, "assign chg_ready_o = (phase_q == PhPrep) & ready_sent_q;");
    emit(e, "assign chg_fire = chg_valid_i & chg_ready_o;");
    emit(e, "assign q_chg_valid = chg_fire;");
    emit(e, "assign done_valid_o = q_done_valid;");
    emit(e, "assign q_done_ready = done_ready_i;");
    emit_nl(e);
    part_instance(e, &x->bsq, "u_bsq", bsq_conn);
    emit_nl(e);
}

static void cu_emit_phase(emit_file *e, const cu_gctx *x)
{
    unsigned EP = x->EP;
    unsigned PW = x->PW;

    emit(e, "// Next state of the epoch logic.");
    emit(e, "logic iss_fire;");
    emit(e, "logic [%u:0] dv_set;", EP - 1);
    emit(e, "assign dv_set = (st_dem ? %u'd1 << st_band : %u'd0) |", EP, EP);
    emit(e, "                (need_take ? %u'd1 << need_sel_band : %u'd0);", EP, EP);
    emit(e, "assign iss_fire = iss_valid_q & iss_ready_i;");
    emit_begin(e, "always_comb begin");
    prim_hold(e, "cer seb seb_oh");
    emit(e, "dv_d = dv_q | dv_set;");
    prim_hold(e, "phase ready_sent conf_sent served");
    emit(e, "iss_valid_d = iss_valid_q & ~iss_ready_i;");
    prim_hold(e, "iss_addr iss_drain");
    emit(e, "dem_valid_d = dem_valid_q & ~dem_ready_i;");
    prim_hold(e, "dem_addr dem_band");
    emit(e, "ldr_valid_d = ldr_valid_q & ~ldr_ready_i;");
    prim_hold(e, "ldr_addr ldr_unc");
    emit(e, "conf_valid_d = conf_valid_q & ~conf_ready_i;");
    prim_hold(e, "conf_addr conf_band");
    emit(e, "pw_d = pw_q + {%u'd0, iss_fire} - {%u'd0, wa_i};", PW - 1, PW - 1);
    emit(e, "if (st_iss) begin");
    emit(e, "  iss_valid_d = 1'b1;");
    emit(e, "  iss_addr_d = st_addr_i;");
    emit(e, "  iss_drain_d = 1'b0;");
    emit(e, "end");
    emit(e, "if (drn_take) begin");
    emit(e, "  iss_valid_d = 1'b1;");
    emit(e, "  iss_addr_d = drn_sel_addr;");
    emit(e, "  iss_drain_d = 1'b1;");
    emit(e, "  served_d = served_q | first_drn;");
    emit(e, "end");
    emit(e, "if (q_drn_valid & q_drn_ready) served_d = '0;");
    emit(e, "if (st_dem) begin");
    emit(e, "  dem_valid_d = 1'b1;");
    emit(e, "  dem_addr_d = st_addr_i;");
    emit(e, "  dem_band_d = st_band;");
    emit(e, "end");
    emit(e, "if (need_take) begin");
    emit(e, "  dem_valid_d = 1'b1;");
    emit(e, "  dem_addr_d = need_sel_addr;");
    emit(e, "  dem_band_d = need_sel_band;");
    emit(e, "end");
    emit(e, "if (ld_fire) begin");
    emit(e, "  ldr_valid_d = 1'b1;");
    emit(e, "  ldr_addr_d = ld_addr_i;");
    emit(e, "  ldr_unc_d = ld_in_cer;");
    emit(e, "  if (ld_conf) begin");
    emit(e, "    conf_valid_d = 1'b1;");
    emit(e, "    conf_addr_d = ld_addr_i;");
    emit(e, "    conf_band_d = ld_band;");
    emit(e, "    conf_sent_d = 1'b1;");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "if (prep_valid_i & prep_ready_o) begin");
    emit(e, "  phase_d = PhPrep;");
    emit(e, "  ready_sent_d = 1'b0;");
    emit(e, "end");
    emit(e, "if (rdy_valid_o & rdy_ready_i) ready_sent_d = 1'b1;");
    emit(e, "if (chg_fire) begin");
    emit(e, "  cer_d = chg_cer_i;");
    emit(e, "  seb_d = chg_seb_i;");
    emit(e, "  seb_oh_d = %u'd1 << chg_seb_i;", x->SP);
    emit(e, "  dv_d = '0;");
    emit(e, "  conf_sent_d = 1'b0;");
    emit(e, "  ready_sent_d = 1'b0;");
    emit(e, "  phase_d = PhChg;");
    emit(e, "end");
    emit(e, "if (q_done_valid & q_done_ready) phase_d = PhRun;");
    emit_end(e, "end");
    emit_nl(e);
}

static void cu_emit_outputs(emit_file *e, const cu_gctx *x)
{
    unsigned N = x->N;
    unsigned SW = x->SW;

    prim_regs rl = {0};
    cer_reset(x->c, &rl);
    prim_reg(&rl, "seb", "%u'd%u", SW, x->c->bsq.seb);
    if (x->c->bsq.seb < x->SP)
        prim_reg(&rl, "seb_oh", "%u'h%llx", x->SP, 1ull << x->c->bsq.seb);
    else
        prim_reg(&rl, "seb_oh", "'0");
    prim_regs_list(&rl, "dv='0 phase='0 ready_sent='0 conf_sent='0 pw='0 iss_valid='0 iss_drain='0 "
                        "iss_addr='0 ldr_valid='0 ldr_unc='0 ldr_addr='0 dem_valid='0 dem_addr='0 "
                        "dem_band='0 conf_valid='0 conf_addr='0 conf_band='0 served='0");
    prim_regs_block(e, &rl);
    emit_nl(e);
    prim_outputs(e, "iss_valid iss_addr iss_drain ldr_valid ldr_addr");
    emit(e, "assign ldr_uncached_o = ldr_unc_q;");
    prim_outputs(e, "dem_valid dem_addr dem_band conf_valid conf_addr conf_band cer seb phase pw");
    emit_nl(e);
    prim_formal_begin(e, "// p_epoch: a store is on its way to the L1 only while its band is current,\n"
                         "// and never between ReadyAck and ChangeEpoch (spec 5.2 C1, C6);\n"
                         "// p_ready: ReadyAck only with PW = 0 and no store waiting for the L1.\n"
                         "// s_scan_chg: strengthening invariant for the induction (docs/stc.md): the\n"
                         "// BSQ scans or reports done (it is not ready for a change) only in CHANGE;\n"
                         "// s_seb_oh: the one-hot SEB copy names seb_q;\n"
                         "// its own invariants are in the FORMAL block of its part.");
    emit(e, "logic [%u:0] f_iss_band;", N - 1);
    emit(e, "assign f_iss_band = %u'(iss_addr_q >> seb_q);", N);
    prim_formal_samples(e, (const char *const[]){NULL});
    prim_formal_assume(e, NULL, 0);
    emit(e, "  if (rst_ni) begin");
    emit(e, "    if (iss_valid_q) p_epoch_band: assert(cer_q[f_iss_band]);");
    emit(e, "    if (iss_valid_q) p_epoch_prep: assert(!(phase_q == PhPrep && ready_sent_q));");
    emit(e, "    if (rdy_valid_o) p_ready_pw: assert(pw_q == '0 && !iss_valid_q);");
    emit(e, "    if (!q_chg_ready) s_scan_chg: assert(phase_q == PhChg);");
    emit(e, "    s_seb_oh: assert(seb_oh_q == %u'd1 << seb_q);", x->SP);
    emit(e, "  end");
    emit(e, "end");
    emit(e, "`endif");
    prim_module_end(e);
}

static void emit_cu(emit_file *e, const void *cfg, const block_desc *b)
{
    const stc_cu_cfg *c = cfg;
    cu_gctx x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.b = b;
    x.A = c->bsq.addr_bits;
    x.N = c->bsq.n;
    x.EP = 1u << c->bsq.n;
    x.SW = stc_bsq_seb_bits(&c->bsq);
    x.PW = STC_CU_PW_BITS;
    x.SP = (1u << x.SW) < x.A ? 1u << x.SW : x.A;
    x.dem = c->variant != STC_CU_NV;
    x.conf = c->variant == STC_CU_AB || c->variant == STC_CU_MB;
    stc_bsq_geom_of(&c->bsq, &x.g);
    x.L = c->bsq.banks * c->bsq.drain;
    if (part_block(&x.bsq, x.bsq_name, sizeof x.bsq_name, b, &stc_cu_parts[0], cfg) != 0) {
        e->err = 1;
        return;
    }
    PRIM_STAGES(e, cu_gctx, &x, cu_emit_head, cu_emit_ports, cu_emit_demand, cu_emit_phase,
                cu_emit_outputs);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    const stc_cu_cfg *c = cfg;
    stc_bsq_geom g;
    char ep[1024];
    stc_bsq_geom_of(&c->bsq, &g);
    snprintf(buf, len,
             "variant=%s mb_max=%u epoch=%s n=%u seb=%u seb_min=%u seb_max=%u addr_bits=%u\n"
             "bsq_entries=%u banks=%u drain=%u rows_per_bank=%u bank_word_bits=%u ram_bits=%u",
             stc_cu_variant_name(c->variant), c->mb_max, stc_eset_format(&c->epoch, ep, sizeof ep),
             c->bsq.n, c->bsq.seb, c->bsq.seb_min, c->bsq.seb_max, c->bsq.addr_bits,
             c->bsq.entries, c->bsq.banks, c->bsq.drain, g.rows, g.row_bits, g.ram_bits);
}

static void gen_report(FILE *f, const void *cfg, int json)
{
    const stc_cu_cfg *c = cfg;
    stc_bsq_geom g;
    unsigned A = c->bsq.addr_bits, N = c->bsq.n, EP = 1u << N, L;
    unsigned epoch_bits, chan_bits, bsq_regs;
    stc_bsq_geom_of(&c->bsq, &g);
    L = c->bsq.banks * c->bsq.drain;
    /* CER, DV, SEB and its one-hot copy, phase, ready/conflict flags, PW */
    epoch_bits = 2 * EP + stc_bsq_seb_bits(&c->bsq) + (1u << stc_bsq_seb_bits(&c->bsq)) /* one-hot SEB */ +
                 2 + 2 + STC_CU_PW_BITS;
    /* L1 store register, load result, demand, conflict, served mask */
    chan_bits = (2 + A) + (2 + A) + (1 + A + N) + (1 + A + N) + L;
    bsq_regs = c->bsq.entries + g.count_bits + 2 * g.cyc_bits + g.rowi_bits + 4 + g.bank_bits;
    if (json) {
        fprintf(f,
                "{\"unit\":\"stc-cu\",\"variant\":\"%s\",\"n\":%u,\"mb_max\":%u,"
                "\"bsq_entries\":%u,\"banks\":%u,\"drain\":%u,\"bsq_ram_bits\":%u,"
                "\"epoch_logic_bits\":%u,\"channel_bits\":%u,\"bsq_register_bits\":%u,"
                "\"read_register_bits\":%u,\"rtl_memories\":[",
                stc_cu_variant_name(c->variant), N, c->mb_max, c->bsq.entries, c->bsq.banks,
                c->bsq.drain, g.ram_bits, epoch_bits, chan_bits, bsq_regs, c->bsq.banks * g.row_bits);
        for (unsigned k = 0; k < c->bsq.banks; k++)
            fprintf(f, "%s[%u,%u]", k ? "," : "", g.rows, g.row_bits);
        fprintf(f, "],\"flop_array_bits\":%u,\"ff_bound\":%u,"
                   "\"paper\":{\"bsq_bits_per_cu\":8192,\"cer_bits\":4}}\n",
                c->bsq.entries, epoch_bits + chan_bits + bsq_regs + c->bsq.banks * g.row_bits +
                                    stc_bsq_beat_bits(&c->bsq, 1) + 512);
        return;
    }
    fprintf(f, "STC CU epoch logic (%s, N %u, MB_MAX %u) with BSQ %u/%u/%u\n",
            stc_cu_variant_name(c->variant), N, c->mb_max, c->bsq.entries, c->bsq.banks,
            c->bsq.drain);
    fprintf(f, "  BSQ RAM bits:    %u in %u banks of %u x %u (paper Table 4: 8,192 bits per CU)\n",
            g.ram_bits, c->bsq.banks, g.rows, g.row_bits);
    fprintf(f, "  epoch logic:     %u bits (CER %u, DV %u, SEB, phase, flags, PW %u); paper: 4-bit CER\n",
            epoch_bits, EP, EP, STC_CU_PW_BITS);
    fprintf(f, "  channel regs:    %u bits (L1 store, load result, demand, conflict, served mask)\n",
            chan_bits);
    fprintf(f, "  BSQ registers:   %u bits (valid %u, scan control) + %u read-register bits\n",
            bsq_regs, c->bsq.entries, c->bsq.banks * g.row_bits);
}

const gen_unit stc_cu_gen_unit = {"stc-cu", emit_cu, gen_params, gen_report, NULL};
