/*
 * STC blocked store queue (BSQ) of one CU: the addresses of stores that are
 * not in their band's epoch wait here until a ChangeEpoch grants their band.
 *
 * Paper: "Turn-based Spatiotemporal Coherence for GPUs" (TACO 2023), §4.2
 * (BSQ, coalescing buffer, back-pressure), §7.2 (16 banks, 2 entries per
 * bank per cycle, 8-cycle pass when full), Table 4 (256 x 32 bits per CU).
 * Specification: section 3.4 of the STC reference; readings in
 * docs/paper-notes.md (STC), microarchitecture in docs/stc.md (## stc-bsq).
 *
 * Organisation. `entries` slots in `banks` banks of S = entries / banks
 * slots; slot s of bank k has the global index k * S + s, which also names
 * the coalescing-buffer slot holding the store's data (1:1 link, so an entry
 * is only the 32-bit address of Table 4). A bank is a FIFO with holes: a
 * push takes the slot above the bank's highest valid slot (its "top"), a
 * drain clears a slot's valid bit, so slot order is age order. A bank is
 * full when its top is S. Allocation is round robin: the first bank at or
 * after the round-robin pointer that is not full; the pointer then moves to
 * the bank after it. All banks full: the push is refused (back-pressure).
 *
 * Scan (re-analysis at every ChangeEpoch): every bank reads one row of
 * `drain` slots per cycle, rows 0, 1, ... up to its top; cycle c (1-based)
 * examines row c - 1 of every bank. Entries whose band (SEB of the
 * ChangeEpoch) is in the new epoch set are drained. A pass takes
 * max over banks of ceil(top / drain) cycles (8 / 4 / 1 for 256 / 102 / 32
 * entries pushed into the default BSQ). Drained entries are reported in the
 * order (cycle, bank, slot), the order of the RTL's drain beats.
 */
#ifndef STC_BSQ_H
#define STC_BSQ_H

#include <stddef.h>
#include <stdint.h>

#include "cohkit.h"
#include "unit.h"
#include "stc_band.h"

COHKIT_BEGIN_DECLS

/* Epoch sets (the CER of spec 3.3, a ChangeEpoch's set) are the family's
 * one encoding, `stc_eset` of stc_band.h (a 2^N-bit mask; STC_N_MAX,
 * STC_E_MAX), parsed and printed by stc_eset_parse / stc_eset_format. */

/* band(a) = (a >> seb) & (2^n - 1), a zero-extended (spec 3.1). */
unsigned stc_bsq_band(uint64_t addr, unsigned seb, unsigned n);

typedef struct {
    unsigned entries;   /* total slots, power of two, 64..4096 (>= 2 here
                           for small test configurations: 2..4096)       */
    unsigned banks;     /* power of two, 1..entries                      */
    unsigned drain;     /* slots per bank row, power of two, 1..S        */
    unsigned addr_bits; /* 8..64 (32: Table 4)                           */
    unsigned n;         /* band bits N, 1..8                             */
    unsigned seb_min;   /* smallest SEB a ChangeEpoch may carry          */
    unsigned seb_max;   /* largest SEB (default addr_bits - n)           */
    unsigned seb;       /* initial SEB (for the trace tool's defaults)   */
} stc_bsq_cfg;

typedef struct {
    unsigned slots;     /* S = entries / banks, slots per bank           */
    unsigned rows;      /* S / drain, rows per bank RAM                  */
    unsigned row_bits;  /* drain * addr_bits, width of a bank RAM word   */
    unsigned slot_bits; /* log2(entries): coalescing-buffer index width  */
    unsigned bank_bits; /* log2(banks), 0 for one bank                   */
    unsigned rowi_bits; /* bits of a row index (at least 1)              */
    unsigned count_bits;/* bits of an occupancy count 0..entries         */
    unsigned cyc_bits;  /* bits of a pass length 0..rows                 */
    unsigned ram_bits;  /* entries * addr_bits (Table 4: 8,192)          */
} stc_bsq_geom;

/* Paper configuration: 256 entries, 16 banks, drain 2, 32-bit addresses,
 * N 4, SEB 12, SEB 12..28. */
void stc_bsq_cfg_default(stc_bsq_cfg *c);
void stc_bsq_geom_of(const stc_bsq_cfg *c, stc_bsq_geom *g);
/* Presets "default" and "fpga" (32 entries, 4 banks, drain 2); the options
 * bsq, banks, drain, addr-bits, n, seb, seb-min, seb-max; the check
 * completes seb_max when it is 0 (addr_bits - n) (cmodel/unit.h). */
COHKIT_UNIT_CFG_API(stc_bsq, );

/* ---------------------------------------------------------------- core -- */

/* The functional core. Allocate with stc_bsq_new (it sizes the slot array
 * from the configuration). */
typedef struct stc_bsq stc_bsq;

/* A new, empty queue (NULL when out of memory). cfg must have passed
 * stc_bsq_cfg_check. */
stc_bsq *stc_bsq_new(const stc_bsq_cfg *c);
void stc_bsq_free(stc_bsq *q);
/* Empties the queue and resets the round-robin pointer to bank 0. */
void stc_bsq_reset(stc_bsq *q);

/* Result of a push. */
typedef struct {
    int accepted;   /* 1: stored; 0: every bank full (back-pressure)     */
    unsigned bank;  /* bank that took it (accepted only)                 */
    unsigned slot;  /* global index bank * S + slot: coalescing buffer   */
} stc_bsq_push_res;

/* PUSH: stores addr (masked to addr_bits) in the next bank with a free
 * slot, round robin. Returns where it went, or accepted = 0 when full. */
stc_bsq_push_res stc_bsq_push(stc_bsq *q, uint64_t addr);

/* One entry reported by a scan. */
typedef struct {
    uint64_t addr;
    unsigned slot;  /* global index (coalescing-buffer slot)             */
    unsigned bank;
    unsigned cycle; /* scan cycle that examined it, 1-based              */
} stc_bsq_entry;

/* Result of a scan. */
typedef struct {
    unsigned cycles;  /* pass length: max over banks ceil(top / drain)   */
    unsigned drained; /* entries drained (written to drn)                */
    unsigned left;    /* entries still queued (written to keep)          */
} stc_bsq_scan_res;

/* CHG: re-analysis under the new epoch set cer and start bit seb. Entries
 * whose band is in cer are removed and written to drn (when not NULL) in
 * scan order (cycle, bank, slot); the others stay and are written to keep
 * (when not NULL) in the same scan order. drn and keep must each hold
 * cfg.entries entries. Returns the counts and the pass length. */
stc_bsq_scan_res stc_bsq_scan(stc_bsq *q, const stc_eset *cer, unsigned seb,
                              stc_bsq_entry *drn, stc_bsq_entry *keep);

/* Entries queued. */
unsigned stc_bsq_count(const stc_bsq *q);
/* 1 when a push would be refused. */
int stc_bsq_full(const stc_bsq *q);
/* Top (highest valid slot + 1) of bank k: its rows to scan are
 * ceil(top / drain). */
unsigned stc_bsq_bank_top(const stc_bsq *q, unsigned k);
/* Pass length a scan would take now: max over banks ceil(top / drain). */
unsigned stc_bsq_pass_cycles(const stc_bsq *q);
const stc_bsq_cfg *stc_bsq_config(const stc_bsq *q);

/* -------------------------------------------------------- timing shell -- */

/* Cycle-accurate model of the RTL (ports in docs/stc.md, ## stc-bsq).
 * Port values as in cmodel/unit.h: one uint64_t word per port of up to 64
 * bits, ceil(W / 64) words (least significant first) for the wide ones;
 * stc_bsq_port_layout gives each port's first word. Inputs: rst_ni,
 * push_valid_i, push_addr_i [A], chg_valid_i, chg_cer_i [2^N], chg_seb_i,
 * drn_ready_i, done_ready_i. Outputs: push_ready_o, push_bank_o,
 * push_slot_o, chg_ready_o, drn_valid_o, drn_row_o, drn_mask_o [B x D],
 * drn_addr_o [B x D x A] (lane j = bank * D + l), done_valid_o,
 * done_cycles_o, count_o, full_o. */
typedef struct stc_bsq_tm stc_bsq_tm;

enum { STC_BSQ_I_RST, STC_BSQ_I_PUSH_VALID, STC_BSQ_I_PUSH_ADDR, STC_BSQ_I_CHG_VALID,
       STC_BSQ_I_CHG_CER, STC_BSQ_I_CHG_SEB, STC_BSQ_I_DRN_READY, STC_BSQ_I_DONE_READY,
       STC_BSQ_I_N };
enum { STC_BSQ_O_PUSH_READY, STC_BSQ_O_PUSH_BANK, STC_BSQ_O_PUSH_SLOT, STC_BSQ_O_CHG_READY,
       STC_BSQ_O_DRN_VALID, STC_BSQ_O_DRN_ROW, STC_BSQ_O_DRN_MASK, STC_BSQ_O_DRN_ADDR,
       STC_BSQ_O_DONE_VALID, STC_BSQ_O_DONE_CYCLES, STC_BSQ_O_COUNT, STC_BSQ_O_FULL,
       STC_BSQ_O_N };

/* Widths and first words of the ports of configuration c (indices as the
 * enums above; inputs include rst_ni). */
typedef struct {
    unsigned in_width[STC_BSQ_I_N], in_word[STC_BSQ_I_N], in_words;
    unsigned out_width[STC_BSQ_O_N], out_word[STC_BSQ_O_N], out_words;
} stc_bsq_layout;
void stc_bsq_port_layout(const stc_bsq_cfg *c, stc_bsq_layout *l);
/* One port of `width` bits appended to a word layout (width and first word
 * at index *i, *words counting the words so far). */
static inline void stc_layout_put(unsigned *width_of, unsigned *word_of, unsigned *i,
                                  unsigned *words, unsigned width)
{
    width_of[*i] = width;
    word_of[*i] = *words;
    *words += (width + 63) / 64;
    (*i)++;
}
/* The BSQ held inline in the CU's RTL: with keep_beats = 1 a scan presents
 * every row that has a live lane (drained or kept), because the CU demands
 * the bands of the kept entries; stc_bsq_tm_new is keep_beats = 0. */
stc_bsq_tm *stc_bsq_tm_new_ex(const stc_bsq_cfg *c, int keep_beats);
/* Lane j (bank * drain + l) of the beat on the drain port: 0 empty, 1 drains,
 * 2 stays (keep_beats only counts these for the beat's valid); *addr gets
 * the lane's address. */
int stc_bsq_tm_lane(const stc_bsq_tm *t, unsigned j, uint64_t *addr);
/* Width of the chg_seb_i port: bits of seb_max (at least 1). */
unsigned stc_bsq_seb_bits(const stc_bsq_cfg *c);

COHKIT_UNIT_TM_API(stc_bsq_tm, stc_bsq_cfg, stc_bsq_tm_eval, stc_bsq_tm_step, uint64_t, uint64_t);

COHKIT_END_DECLS

#endif
