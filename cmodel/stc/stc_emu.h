/*
 * STC epoch management unit (EMU): configuration, functional core and timing
 * shell.
 *
 * Paper: "Turn-based Spatiotemporal Coherence for GPUs" (TACO 2023), sections
 * 4.2 (Fig. 5, four-way handshake), 4.3 (epoch skipping), 4.4 (adaptive and
 * multiple bands), 4.6 and Table 4; STC specification 3.2, readings S5-S10,
 * S18 (docs/paper-notes.md, docs/stc.md).
 *
 * The functional core is transaction level: one call per message the EMU
 * receives (the `cohmodel stc-emu` trace records WAKE, DEM, CONF, READY,
 * DONE), the EMU's answer returned as a value. The system model calls it
 * directly; the timing shell (and the RTL) perform the same calls in a fixed
 * order within a cycle (docs/stc.md, "stc-emu").
 *
 * Epoch sets use the family encoding of stc_band.h: stc_eset (2^N-bit mask)
 * and stc_elist (grant order).
 */
#ifndef STC_EMU_H
#define STC_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "cohkit.h"
#include "unit.h"
#include "stc_band.h"

COHKIT_BEGIN_DECLS

#define STC_CUS_MAX 32u

/* Section 6 variants: no optimisation, epoch skipping, adaptive bands (ES +
 * SEB moves), multiple bands (AB + up to mb_max concurrent epochs). */
typedef enum { STC_NV = 0, STC_ES = 1, STC_AB = 2, STC_MB = 3 } stc_variant;

/* EMU phase: idle (wake-up counter running), PREPARE (PrepareEpochChange
 * sent, collecting ReadyAcks), CHANGE (ChangeEpoch sent, collecting
 * DoneAcks). */
typedef enum { STC_IDLE = 0, STC_PREP = 1, STC_CHG = 2 } stc_phase;

typedef struct {
    stc_variant variant; /* --variant nv|es|ab|mb (mb)                        */
    unsigned n;          /* --n: band bits, 1..8 (4)                          */
    unsigned seb;        /* --seb: initial SEB (12)                           */
    unsigned seb_min;    /* --seb-min (12)                                    */
    unsigned seb_max;    /* --seb-max (0: addr_bits - n)                      */
    unsigned addr_bits;  /* --addr-bits, 8..63 (32)                           */
    unsigned cus;        /* --cus: CUs, 1..32 (8)                             */
    unsigned mb_max;     /* --mb-max: concurrent epochs in mb, 1..2^n (0:
                            min(4, 2^n), completed by cfg_check)              */
    unsigned seb_guard;  /* --seb-guard 0|1: AB/MB progress guard, S6 (1)     */
    unsigned wake;       /* --wake: wake-up period in cycles, 1..65535 (100)  */
    stc_elist epoch;     /* --epoch LIST: initial epoch set, grant order (0);
                            the pointer starts at its last epoch              */
} stc_emu_cfg;

void stc_emu_cfg_default(stc_emu_cfg *c);
/* Presets "default" (the paper's: MB, N 4, SEB 12, 8 CUs, MB_MAX 4, wake
 * 100) and "fpga" (2 CUs); the options variant, n, seb, seb-min, seb-max,
 * addr-bits, cus, mb-max, seb-guard, wake, epoch; the check completes
 * seb_max (0 -> addr_bits - n) and mb_max (0 -> min(4, 2^n))
 * (cmodel/unit.h). */
COHKIT_UNIT_CFG_API(stc_emu, );
/* "nv", "es", "ab", "mb". */
const char *stc_variant_name(stc_variant v);
/* The C7 bound of spec 5.3 in ChangeEpochs: 2^n + 1 for NV and ES,
 * 2^(n+1) + 1 for AB and MB with the guard, 0 (no bound) without it. */
unsigned stc_emu_progress_k(const stc_emu_cfg *c);

/* ---------------------------------------------------------------- core -- */

/* Every field is readable (state of spec 3.2 / Table 4); change it only
 * through the calls below. */
typedef struct {
    stc_emu_cfg c;
    stc_phase phase;
    stc_eset cur;        /* current epoch set (the CUs' CER after CHG)        */
    stc_elist cur_list;  /* the same, grant order                             */
    unsigned ptr;        /* epoch pointer: last epoch granted                 */
    unsigned seb;        /* SEB in force                                      */
    unsigned seb_next;   /* pending SEB (== seb: no step pending)             */
    unsigned guard;      /* pointer advance since the last SEB change, 0..2^n */
    stc_eset erv;        /* ERV demand bits                                   */
    uint64_t erv_addr[STC_E_MAX]; /* ERV addresses (AB/MB; valid with bit)    */
    stc_elist tgt;       /* target of the transition in progress              */
    uint32_t rdy_got;    /* ReadyAcks received in PREPARE (bit per CU)        */
    uint32_t done_got;   /* DoneAcks received in CHANGE                       */
    /* counters */
    uint64_t transitions, sleeps, seb_changes, demands, conflicts;
} stc_emu;

/* Reset state: IDLE, cur = cfg epoch list, ptr = its last epoch, SEB = cfg
 * seb, no step pending, guard = 2^n, ERV empty. c must have passed
 * stc_emu_cfg_check. */
void stc_emu_init(stc_emu *m, const stc_emu_cfg *c);

/* Wake-up (the counter fired, or trace `WAKE`).
 * Returns STC_WAKE_BUSY when not IDLE (nothing happens), STC_WAKE_SLEEP when
 * ES/AB/MB found no demand (ERV bits of current epochs are cleared first,
 * S5; the EMU stays IDLE), STC_WAKE_PREP with *target (grant order) when it
 * broadcasts PrepareEpochChange: NV the next epoch after the pointer; ES/AB
 * the first demanded epoch circularly after the pointer; MB the first mb_max
 * of them (S7). Their ERV bits are cleared; phase PREPARE. target may be
 * NULL. */
typedef enum { STC_WAKE_BUSY = -1, STC_WAKE_SLEEP = 0, STC_WAKE_PREP = 1 } stc_wake_res;
stc_wake_res stc_emu_wake(stc_emu *m, stc_elist *target);

/* EpochDemand from `cu` for a store to `addr` (trace `DEM`), in any phase.
 * Returns 1 with *epoch = band(addr) under the EMU's SEB when an
 * EpochDemandAck is sent (ES/AB/MB; the ERV bit is set, and in AB/MB the
 * address kept if the entry was empty, S18); 0 in NV (ignored, no ack).
 * epoch may be NULL. */
int stc_emu_demand(stc_emu *m, unsigned cu, uint64_t addr, unsigned *epoch);

/* EpochConflict from `cu`, read address `addr` (trace `CONF`), in any phase.
 * Returns 1 with *seb_next when it sets a pending SEB step (AB/MB, the rule
 * of spec 3.2 / S6: a step pending, the guard, an empty ERV entry, or no
 * separating bit ignore it), else 0. seb_next may be NULL. */
int stc_emu_conflict(stc_emu *m, unsigned cu, uint64_t addr, unsigned *seb_next);

/* ReadyAck from `cu` (trace `READY`). Returns 1 when it was the last one:
 * ChangeEpoch is broadcast with *epochs (grant order) and *seb, and the EMU
 * takes them now (current set, pointer = last epoch granted, guard; a pending
 * step applies: SEB changes, every ERV entry is cleared, guard = 0); phase
 * CHANGE. 0 when counted and others are missing; -1 when ignored (not in
 * PREPARE, or a duplicate). epochs and seb may be NULL. */
int stc_emu_ready(stc_emu *m, unsigned cu, stc_elist *epochs, unsigned *seb);

/* DoneAck from `cu` (trace `DONE`). Returns 1 when it was the last one (the
 * transition ends: *epochs, *seb as in force; phase IDLE), 0 when counted,
 * -1 when ignored (not in CHANGE, or a duplicate). epochs, seb may be NULL. */
int stc_emu_done(stc_emu *m, unsigned cu, stc_elist *epochs, unsigned *seb);

/* ERV entry e: 1 with *addr (AB/MB: the first demanding address; ES/NV: 0)
 * when its demand bit is set, else 0. */
int stc_emu_erv(const stc_emu *m, unsigned e, uint64_t *addr);

/* "IDLE", "PREP", "CHG" (the --dump spelling). */
const char *stc_phase_name(stc_phase p);

/* -------------------------------------------------------- timing shell -- */

/* Geometry of a configuration (every width in one place). */
typedef struct {
    unsigned E;          /* epochs, 2^n                                       */
    unsigned seb_bits;   /* SEB registers and ports: hold 0..addr_bits        */
    unsigned cu_bits;    /* CU index on the EpochDemandAck channel (>= 1)     */
    unsigned wake_bits;  /* wake-up counter: 0..wake-1 (>= 1)                 */
    unsigned guard_bits; /* guard counter: 0..2^n                             */
    unsigned erv_addr_bits; /* ERV address field per entry (AB/MB; else 0)    */
    unsigned search;     /* wake-up target search, cycles from the wake-up to
                            the one that takes its result: 0 in NV (at once),
                            else lim + 3 (rotate, lim extractions of the
                            first demanded epoch, rotate back; lim = mb_max
                            in MB, else 1)                                    */
    unsigned search_bits; /* its step counter: 0..search (0 in NV)           */
    unsigned state_bits; /* every flip-flop of the RTL (without the ERV RAM)  */
} stc_emu_geom;
void stc_emu_geom_of(const stc_emu_cfg *c, stc_emu_geom *g);

/* The port table (clk_i, rst_ni implicit), in order; widths from the
 * configuration. K = cus, A = addr_bits, E = 2^n, S = seb_bits:
 *   in  tmr_en_i 1        wake-up counter runs (a CSR; 0 in trace mode)
 *   in  wake_i 1          wake up now (ignored unless IDLE)
 *   in  dem_valid_i K, dem_addr_i K*A   out dem_ready_o K   EpochDemand
 *   in  conf_valid_i K, conf_addr_i K*A out conf_ready_o K  EpochConflict
 *   in  rdy_valid_i K     out rdy_ready_o K (all ones)      ReadyAck
 *   in  done_valid_i K    out done_ready_o K (all ones)     DoneAck
 *   out dack_valid_o 1, dack_cu_o cu_bits, dack_epoch_o n   in dack_ready_i 1
 *   out prep_valid_o 1, prep_epochs_o E                     in prep_ready_i K
 *   out chg_valid_o 1, chg_epochs_o E, chg_seb_o S          in chg_ready_i K
 *   out cur_o E, ptr_o n, seb_o S, seb_next_o S, phase_o 2, sleep_o 1 (status)
 * CU k's field of a vector port is bits [k*W +: W]. The broadcasts (prep,
 * chg) transfer in the cycle every CU's ready bit is high: all CUs take
 * them in the same cycle (S2). */
typedef struct {
    int out;             /* 1: output of the EMU                              */
    const char *name;
    unsigned width;
} stc_emu_port;
#define STC_EMU_PORTS 29
/* Fills p (at least STC_EMU_PORTS entries); returns the count. */
int stc_emu_port_table(const stc_emu_cfg *c, stc_emu_port *p);

/* The shell: the RTL's registers around the core. tm_eval gives the outputs
 * of a cycle from the state and the inputs, tm_step the clock edge. Port
 * values in unit.h layout (inputs rst_ni first, in table order; multi-word
 * ports least significant word first). */
typedef struct {
    stc_emu_cfg c;
    stc_emu_geom g;
    unsigned in_off[STC_EMU_PORTS + 1], out_off[STC_EMU_PORTS]; /* word offsets */
    unsigned in_words, out_words;
    stc_emu m;           /* the core: phase, sets, SEB, ERV, ack vectors      */
    unsigned wcnt;       /* wake-up counter                                   */
    unsigned srch;       /* target search step, 1..g.search; 0: none          */
    unsigned prep_v, chg_v, sleep_q;
    unsigned dack_v, dack_cu, dack_epoch;
    unsigned drr, crr;   /* round-robin priority of the demand/conflict arbiters */
    unsigned c2_v, c2_cu; /* conflict register (evaluated the next cycle)     */
    uint64_t c2_addr;
} stc_emu_tm;

COHKIT_UNIT_TM_API(stc_emu_tm, stc_emu_cfg, stc_emu_eval, stc_emu_step, uint64_t, uint64_t);

/* Port indices of the table (inputs count rst_ni as 0). */
enum { STC_EMU_I_RST, STC_EMU_I_TMR_EN, STC_EMU_I_WAKE, STC_EMU_I_DEM_VALID, STC_EMU_I_DEM_ADDR,
       STC_EMU_I_CONF_VALID, STC_EMU_I_CONF_ADDR, STC_EMU_I_RDY_VALID, STC_EMU_I_DONE_VALID,
       STC_EMU_I_DACK_READY, STC_EMU_I_PREP_READY, STC_EMU_I_CHG_READY, STC_EMU_I_N };
enum { STC_EMU_O_DEM_READY, STC_EMU_O_CONF_READY, STC_EMU_O_RDY_READY, STC_EMU_O_DONE_READY,
       STC_EMU_O_DACK_VALID, STC_EMU_O_DACK_CU, STC_EMU_O_DACK_EPOCH, STC_EMU_O_PREP_VALID,
       STC_EMU_O_PREP_EPOCHS, STC_EMU_O_CHG_VALID, STC_EMU_O_CHG_EPOCHS, STC_EMU_O_CHG_SEB,
       STC_EMU_O_CUR, STC_EMU_O_PTR, STC_EMU_O_SEB, STC_EMU_O_SEB_NEXT, STC_EMU_O_PHASE,
       STC_EMU_O_SLEEP, STC_EMU_O_N };

/* Field helpers on port words (bit `lo`, `w` <= 64 bits). */
uint64_t stc_port_get(const uint64_t *words, unsigned lo, unsigned w);
void stc_port_put(uint64_t *words, unsigned lo, unsigned w, uint64_t v);

COHKIT_END_DECLS

#endif
