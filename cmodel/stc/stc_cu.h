/*
 * STC per-CU epoch logic with its blocked store queue: current epoch set
 * (CER, a 2^N-bit mask), SEB, demand vector (DV, the EpochDemand filter),
 * the once-per-epoch EpochConflict flag, the RUN / PREPARE phase, the
 * ReadyAck condition and the ChangeEpoch sequence.
 *
 * Paper: "Turn-based Spatiotemporal Coherence for GPUs" (TACO 2023), §4.2
 * (CER, blocked stores, four-way handshake), §4.3 (EpochDemand, demand
 * vector), §4.4 (EpochConflict, SEB with ChangeEpoch, multi-band CER).
 * Specification: section 3.3 of the STC reference; docs/stc.md (## stc-cu).
 *
 * The pending-write count PW belongs to the L1 (spec 3.3); this model keeps
 * a copy: +1 for every store issued (ISS, DRN), -1 for every write ack (WA),
 * so that it can decide ReadyAck. ReadyAck = phase PREPARE, PW = 0 and no
 * accepted store waiting to be sent (at the transaction level nothing waits;
 * the timing shell has the drain FIFO).
 *
 * ChangeEpoch(E, S), in this order (spec 3.3, reading S11): [the L1 sweeps
 * with the old CER/SEB]; CER = E, SEB = S; DV and the conflict flag cleared;
 * the BSQ scan drains the entries whose band is in E (issued, PW + 1 each,
 * in scan order) and every remaining entry whose band has DV = 0 sends a new
 * EpochDemand and sets DV (scan order); DoneAck; phase RUN.
 */
#ifndef STC_CU_H
#define STC_CU_H

#include <stddef.h>
#include <stdint.h>

#include "cohkit.h"
#include "unit.h"
#include "stc_bsq.h"

COHKIT_BEGIN_DECLS

/* Section 6 variants of the paper. */
typedef enum { STC_CU_NV = 0, STC_CU_ES = 1, STC_CU_AB = 2, STC_CU_MB = 3 } stc_cu_variant;

typedef struct {
    stc_cu_variant variant; /* default MB                                  */
    unsigned mb_max;        /* concurrent epochs (MB), 1..2^N; 0 (default):
                               min(4, 2^N), the EMU's (stc_cu_cfg_check)  */
    stc_eset epoch;     /* initial CER (default {0})                   */
    stc_bsq_cfg bsq;        /* N, SEB, SEB bounds, address width, BSQ shape */
} stc_cu_cfg;

/* Paper configuration: MB, MB_MAX 4, CER {0}, and the default BSQ. */
void stc_cu_cfg_default(stc_cu_cfg *c);
/* Presets "default" and "fpga" (BSQ 32/4/2); the options variant, mb-max,
 * epoch and the BSQ's (bsq, banks, drain, addr-bits, n, seb, seb-min,
 * seb-max); the check completes the BSQ's defaults (cmodel/unit.h). */
COHKIT_UNIT_CFG_API(stc_cu, );
/* "nv", "es", "ab", "mb". */
const char *stc_cu_variant_name(stc_cu_variant v);

/* ---------------------------------------------------------------- core -- */

typedef struct stc_cu stc_cu;

typedef enum { STC_CU_RUN = 0, STC_CU_PREPARE = 1 } stc_cu_phase;

/* A new CU in RUN with CER = cfg.epoch, SEB = cfg.bsq.seb, DV empty, BSQ
 * empty, PW 0 (NULL when out of memory). cfg must have passed
 * stc_cu_cfg_check. */
stc_cu *stc_cu_new(const stc_cu_cfg *c);
void stc_cu_free(stc_cu *cu);
void stc_cu_reset(stc_cu *cu);

/* Outcome of a store. */
typedef enum {
    STC_CU_ISSUED = 0,  /* ISS: band in CER during RUN, sent to the L1, PW+1 */
    STC_CU_BLOCKED = 1, /* BLK: address entered the BSQ                      */
    STC_CU_STALLED = 2  /* STALL: BSQ full, store refused (retry later)      */
} stc_cu_st_kind;

typedef struct {
    stc_cu_st_kind kind;
    unsigned band;      /* band(addr) under the current SEB                 */
    int demand;         /* BLOCKED only: 1 if an EpochDemand for `band` (with
                           addr) is sent now (ES/AB/MB and DV[band] was 0)  */
    unsigned slot;      /* BLOCKED only: BSQ / coalescing-buffer slot       */
} stc_cu_st_res;

/* ST addr: the epoch check of spec 3.3 (PREPARE blocks every store). */
stc_cu_st_res stc_cu_store(stc_cu *cu, uint64_t addr);

typedef struct {
    int uncached;       /* 1: Load_U (band in CER); 0: cacheable Load       */
    unsigned band;
    int conflict;       /* 1: EpochConflict(addr) sent now (AB/MB, cacheable
                           load, DV[band] = 1, first conflict this epoch)   */
} stc_cu_ld_res;

/* LD addr: never held by the epoch logic (ER4). */
stc_cu_ld_res stc_cu_load(stc_cu *cu, uint64_t addr);

/* WA: one write ack from the L1 (PW - 1). Returns 1 if this ack sends
 * ReadyAck (PREPARE, PW now 0), 0 if not, -1 (no change) if PW was 0. */
int stc_cu_write_ack(stc_cu *cu);

/* PrepareEpochChange: phase PREPARE. Returns 1 if ReadyAck is sent at once
 * (PW = 0), 0 if it waits for write acks, -1 (no change) if the CU is
 * already in a transition (PREPARE). */
int stc_cu_prepare(stc_cu *cu);

/* One re-demand of a ChangeEpoch. */
typedef struct {
    uint64_t addr;      /* the first queued store of the band (scan order)  */
    unsigned band;      /* under the new SEB                                */
} stc_cu_demand;

/* Result of a ChangeEpoch. */
typedef struct {
    int ok;             /* 0: refused (no ReadyAck sent since PREPARE), no
                           state changed; 1: done, DoneAck sent             */
    unsigned drained;   /* entries drained (issued, PW + drained)           */
    unsigned demands;   /* EpochDemands sent (ES/AB/MB)                     */
    unsigned cycles;    /* BSQ pass length (stc_bsq_scan)                   */
} stc_cu_chg_res;

/* ChangeEpoch(cer, seb) in the order of the header comment. drn (may be
 * NULL) receives the drained entries in scan order and must hold
 * cfg.bsq.entries; dem (may be NULL) receives the re-demands in scan order
 * and must hold 2^N. The caller validates cer (non-empty, at most mb_max
 * epochs, each < 2^N) and seb (within the bounds). */
stc_cu_chg_res stc_cu_change(stc_cu *cu, const stc_eset *cer, unsigned seb,
                             stc_bsq_entry *drn, stc_cu_demand *dem);

/* EpochDemandAck(epoch): notification only (reading S20); no effect. */
void stc_cu_demand_ack(stc_cu *cu, unsigned epoch);

/* Observers. */
stc_cu_phase stc_cu_phase_of(const stc_cu *cu);
/* 1 once ReadyAck was sent in the current PREPARE. */
int stc_cu_ready_sent(const stc_cu *cu);
const stc_eset *stc_cu_cer(const stc_cu *cu);
unsigned stc_cu_seb(const stc_cu *cu);
unsigned stc_cu_pw(const stc_cu *cu);
/* 1 if DV[band] is set. */
int stc_cu_dv(const stc_cu *cu, unsigned band);
/* 1 if the EpochConflict of this epoch was sent. */
int stc_cu_conflict_sent(const stc_cu *cu);
/* The CU's BSQ (read-only). */
const stc_bsq *stc_cu_bsq(const stc_cu *cu);
const stc_cu_cfg *stc_cu_config(const stc_cu *cu);

/* -------------------------------------------------------- timing shell -- */

/* Cycle-accurate model of the RTL (ports in docs/stc.md, ## stc-cu).
 * Port values as in cmodel/unit.h; stc_cu_port_layout gives each port's
 * width and first word, indexed by the enums below (inputs with rst_ni). */
typedef struct stc_cu_tm stc_cu_tm;

enum { STC_CU_I_RST, STC_CU_I_ST_VALID, STC_CU_I_ST_ADDR, STC_CU_I_ISS_READY, STC_CU_I_WA,
       STC_CU_I_LD_VALID, STC_CU_I_LD_ADDR, STC_CU_I_LDR_READY, STC_CU_I_DEM_READY,
       STC_CU_I_CONF_READY, STC_CU_I_PREP_VALID, STC_CU_I_RDY_READY, STC_CU_I_CHG_VALID,
       STC_CU_I_CHG_CER, STC_CU_I_CHG_SEB, STC_CU_I_DONE_READY, STC_CU_I_N };
enum { STC_CU_O_ST_READY, STC_CU_O_ST_BLOCKED, STC_CU_O_ST_SLOT, STC_CU_O_BSQ_FULL,
       STC_CU_O_ISS_VALID, STC_CU_O_ISS_ADDR, STC_CU_O_ISS_DRAIN, STC_CU_O_LD_READY,
       STC_CU_O_LDR_VALID, STC_CU_O_LDR_ADDR, STC_CU_O_LDR_UNCACHED, STC_CU_O_DEM_VALID,
       STC_CU_O_DEM_ADDR, STC_CU_O_DEM_BAND, STC_CU_O_CONF_VALID, STC_CU_O_CONF_ADDR,
       STC_CU_O_CONF_BAND, STC_CU_O_PREP_READY, STC_CU_O_RDY_VALID, STC_CU_O_CHG_READY,
       STC_CU_O_DONE_VALID, STC_CU_O_CER, STC_CU_O_SEB, STC_CU_O_PHASE, STC_CU_O_PW,
       STC_CU_O_N };

/* Width of the pending-write counter pw_o (the trace tool refuses more
 * outstanding stores). */
#define STC_CU_PW_BITS 16

typedef struct {
    unsigned in_width[STC_CU_I_N], in_word[STC_CU_I_N], in_words;
    unsigned out_width[STC_CU_O_N], out_word[STC_CU_O_N], out_words;
} stc_cu_layout;
void stc_cu_port_layout(const stc_cu_cfg *c, stc_cu_layout *l);

COHKIT_UNIT_TM_API(stc_cu_tm, stc_cu_cfg, stc_cu_tm_eval, stc_cu_tm_step, uint64_t, uint64_t);

COHKIT_END_DECLS

#endif
