/*
 * The BSQ logic of the BSQ module (gen/stc/stc_bsq_gen.c) and of the BSQ
 * part the CU module instantiates (gen/stc/stc_cu_gen.c, gen/parts.h).
 * Internal signals are named q_*; see stc_bsq_emit_core.
 */
#ifndef STC_BSQ_GEN_H
#define STC_BSQ_GEN_H

#include "emit.h"
#include "prim.h"
#include "unit.h"
#include "stc_bsq.h"

/* Emits the bank RAMs, valid bits, round-robin allocation and the scan.
 * Inputs the caller drives: q_push_valid, q_push_addr, q_chg_valid,
 * q_drn_ready, q_done_ready, and (cu_mode) the epoch registers cer_q, seb_q.
 * Outputs: q_push_ready, q_push_bank, q_push_slot, q_chg_ready, q_drn_valid,
 * q_drn_row, q_drn_mask (drained lanes), q_drn_addr, q_done_valid,
 * q_done_cycles, q_count, q_full; in cu_mode also q_drn_keep (lanes that
 * stay), q_drn_data (every live lane's address) and q_drn_band (their
 * bands), and the epoch is read from the ports cer_i / seb_i. Standalone,
 * the core captures chg_cer_i / chg_seb_i into its own cer_q / seb_q. The caller
 * emits the register block of the registers stc_bsq_regs lists. */
void stc_bsq_emit_core(emit_file *e, const stc_bsq_cfg *c, int cu_mode);
/* Adds the core's registers and their reset values to l (the caller's
 * register block, prim_regs). */
void stc_bsq_regs(const stc_bsq_cfg *c, int cu_mode, prim_regs *l);
/* Bits of the core's beat registers (the presented row, its lane masks and,
 * in cu_mode, bands; the stage's row and valid), for the reports' bounds. */
unsigned stc_bsq_beat_bits(const stc_bsq_cfg *c, int cu_mode);
/* The bank RAMs' always_ff (no reset). */
void stc_bsq_emit_rams(emit_file *e, const stc_bsq_cfg *c);
/* The CU's BSQ part: its port table and its logic (cu_mode, with the
 * strengthening invariants the CU's formal induction needs). */
int stc_bsq_cu_ports(const stc_bsq_cfg *c, cohkit_port *p, int max);
void stc_bsq_cu_body(emit_file *e, const stc_bsq_cfg *c);

#endif
