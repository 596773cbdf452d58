/*
 * STC L1 controller (Tabbakh et al., TACO 2023, "Turn-based Spatiotemporal
 * Coherence for GPUs", sections 4.2, 4.4 and 4.5, Table 1; kit specification
 * stc.md 3.5, S1, S3, S13, S14, S19): configuration, geometry, functional
 * core and timing shell.
 *
 * A write-through, no-write-allocate VI cache. Stable states I and V live in
 * the tag array (one valid bit, tag and LRU age per way); the transient
 * states I_V (cacheable load outstanding) and I_I (non-cacheable Load_U
 * outstanding) live in MSHR entries, each with a poison bit (S19: the line
 * is allocated when the fill returns). A load whose band (address bits
 * [SEB+N-1:SEB]) is in the current epoch set (CER) is a Load_U and is never
 * installed. A response is Data_E, never installed, when the line's band is
 * in the CER when it returns or the load was poisoned (S1: at ChangeEpoch
 * every I_V entry whose band under the new SEB is in the new CER is
 * poisoned; --no-poison keeps the paper-literal Table 1). The first demand
 * access (load or store) to a set after a ChangeEpoch invalidates the set's
 * valid lines of current bands (lazy invalidation, one touched bit per set);
 * at ChangeEpoch the sets untouched during the ending epoch are swept with
 * the old CER and SEB before the new ones are taken (3.3 step 1). PW counts
 * stores sent and not yet acknowledged (WA).
 *
 * Lines are named by their line address: the byte address of the line's
 * first byte (addr with the offset bits cleared). Epoch sets are bit masks
 * of 2^N bits (bit e = epoch e).
 */
#ifndef STC_L1_H
#define STC_L1_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"
#include "unit.h"
#include "stc_band.h"

COHKIT_BEGIN_DECLS

/* Epoch sets: the family's `stc_eset` (stc_band.h), bit e = epoch e. */

typedef struct {
    unsigned n;          /* band bits N, 1..8 (paper 4)                         */
    unsigned seb;        /* initial start epoch bit (paper 12)                  */
    unsigned seb_min;    /* lowest SEB a ChangeEpoch may carry (12)             */
    unsigned seb_max;    /* highest (default addr_bits - n; up to addr_bits, S4)*/
    unsigned addr_bits;  /* byte-address width, 16..48 (paper 32)               */
    stc_eset epoch; /* initial CER (default {0})                           */
    unsigned sets;       /* power of two, 1..1024 (paper 16, S19)               */
    unsigned ways;       /* power of two, 1..64 (paper 64)                      */
    unsigned line;       /* line bytes, power of two, 4..4096 (64, S19)         */
    unsigned mshrs;      /* outstanding loads (I_V + I_I), 1..64 (16)           */
    unsigned pw_bits;    /* PW counter width, 1..16 (8); PW saturated stalls   */
    unsigned poison;     /* 1: poison bit (default); 0: --no-poison (S1)        */
    unsigned lazy;       /* 1: lazy invalidation + sweep; 0: --no-lazy (tests)  */
} stc_l1_cfg;

typedef struct {
    unsigned epochs;      /* 2^N                                   */
    unsigned line_bits;   /* log2(line)                            */
    unsigned set_bits;    /* log2(sets)                            */
    unsigned way_bits;    /* log2(ways), >= 1 (way index width)    */
    unsigned age_bits;    /* LRU age width, >= 1                   */
    unsigned tag_bits;    /* addr_bits - line_bits - set_bits      */
    unsigned laddr_bits;  /* addr_bits - line_bits (line number)   */
    unsigned seb_bits;    /* width of an SEB value (holds seb_max) */
    unsigned mshr_bits;   /* log2 ceiling of mshrs, >= 1           */
    unsigned way_word;    /* bits per way in a set word: 2 + tag + age */
    unsigned set_word;    /* ways * way_word                       */
    uint64_t ram_bits;    /* sets * set_word (tags, state, LRU, cur) */
    uint64_t flop_bits;   /* touched bits, MSHRs, CER, SEB, PW     */
    unsigned pw_max;      /* 2^pw_bits - 1                         */
} stc_l1_geom;

void stc_l1_cfg_default(stc_l1_cfg *c);
void stc_l1_geom_of(const stc_l1_cfg *c, stc_l1_geom *g);
/* Presets "default" (64 KB, 64-way, 64 B lines: 16 sets) and "fpga" (4 sets
 * x 4 ways); the options n, seb, seb-min, seb-max, addr-bits, epoch, sets,
 * ways, line, mshrs, pw-bits, no-poison, no-lazy; the check completes
 * seb_max when 0 (cmodel/unit.h). */
COHKIT_UNIT_CFG_API(stc_l1, );

/* band(a) = (a >> seb) & (2^n - 1), zero-extended (spec 3.1). */
unsigned stc_l1_band(uint64_t addr, unsigned seb, unsigned n);

/* ---------------------------------------------------------------- core -- */

typedef enum { STC_L1_I = 0, STC_L1_V = 1, STC_L1_IV = 2, STC_L1_II = 3 } stc_l1_state;
typedef enum {
    STC_L1_EV_STORE = 0,
    STC_L1_EV_LOAD = 1,
    STC_L1_EV_LOAD_U = 2,
    STC_L1_EV_DATA = 3,
    STC_L1_EV_DATA_E = 4,
    STC_L1_EV_WA = 5
} stc_l1_event;
typedef enum {
    STC_L1_ACT_HIT = 0,    /* load served from the line               */
    STC_L1_ACT_LOAD = 1,   /* req=Load sent to the L2 (cacheable)     */
    STC_L1_ACT_LOAD_U = 2, /* req=Load_U sent (non-cacheable)         */
    STC_L1_ACT_STORE = 3,  /* req=Store sent (write through), PW++    */
    STC_L1_ACT_LD = 4,     /* load done (data delivered)              */
    STC_L1_ACT_PW = 5      /* write ack: PW--                         */
} stc_l1_action;
typedef enum {
    STC_L1_GO = 0,         /* the transition happened                  */
    STC_L1_STALL_BUSY = 1, /* line in I_V / I_I (Table 1 blank, S13)   */
    STC_L1_STALL_MSHR = 2, /* load on I: every MSHR entry in use       */
    STC_L1_STALL_PW = 3    /* store: PW at its maximum                 */
} stc_l1_stall;
typedef enum { STC_L1_OP_LD = 0, STC_L1_OP_ST = 1 } stc_l1_op;

/* Maximum lines one call reports (lazy: ways; sweep: sets * ways). */
typedef struct {
    stc_l1_stall stall;  /* GO, or why the request must be retried     */
    stc_l1_event event;  /* Load, Load_U or Store (access); WA; Data.. */
    uint64_t line;       /* line address                                */
    stc_l1_state from;   /* state before (after lazy invalidation)      */
    stc_l1_state to;     /* state after (== from on a stall)            */
    stc_l1_action act;   /* meaningful when stall == GO                 */
    unsigned pw;         /* PW after the call                           */
    unsigned ninv;       /* access: lines invalidated lazily, ascending */
    const uint64_t *inv; /* ... valid until the next call on the cache  */
    const uint32_t *data;/* hit: the line's words given at its fill, or
                            NULL when the fill gave none                */
} stc_l1_result;

typedef struct {
    stc_l1_event event;  /* Data or Data_E                               */
    uint64_t line;
    stc_l1_state from;   /* I_V or I_I                                   */
    stc_l1_state to;     /* V (installed) or I                           */
    int poisoned;        /* the MSHR entry carried the poison bit        */
    int evicted;         /* a valid line was evicted to make room        */
    uint64_t victim;     /* ... its line address                         */
} stc_l1_fill;

typedef struct {
    unsigned nsweep;        /* lines invalidated by the end-of-epoch sweep */
    const uint64_t *sweep;  /* ascending set, then ascending line          */
    unsigned npoison;       /* outstanding I_V loads poisoned              */
    const uint64_t *poison; /* ascending                                   */
} stc_l1_chg_result;        /* arrays valid until the next call            */

typedef struct {
    uint64_t loads, load_us, hits, stores, stalls, fills, fills_e, lazy_inv, sweep_inv,
        evictions, poisoned, was, chgs;
} stc_l1_stats;

typedef struct stc_l1 stc_l1; /* opaque: allocated by stc_l1_new */

/* A checked configuration. NULL on out-of-memory. */
stc_l1 *stc_l1_new(const stc_l1_cfg *c);
void stc_l1_free(stc_l1 *l);
/* Empty cache, no MSHR in use, PW 0, CER/SEB from the configuration, all
 * sets untouched, statistics zero. */
void stc_l1_reset(stc_l1 *l);

/* A demand access (Table 1 columns Store, Load / Load_U). The load is a
 * Load_U when band(addr) is in the CER. First the lazy invalidation of the
 * set when it is untouched in this epoch (listed in r->inv, also on a
 * stall; the set becomes touched), then the transition: Store on I or V ->
 * I, req=Store, PW+1; Load on V -> hit (LRU updated, r->data); Load on I ->
 * I_V, req=Load; Load_U on I or V -> I_I (copy dropped), req=Load_U; any
 * request on I_V / I_I -> STALL_BUSY. A load on I without a free MSHR
 * entry -> STALL_MSHR; a store with PW at its maximum -> STALL_PW.
 * Returns 0 (a stall is a result, not an error). */
int stc_l1_access(stc_l1 *l, stc_l1_op op, uint64_t addr, stc_l1_result *r);

/* The load response of the line of addr (Table 1 columns Data, Data_E):
 * Data_E when the line's band (current SEB) is in the CER or the entry is
 * poisoned, else Data. I_V x Data -> V: installed in an invalid way (lowest
 * first) or the LRU way (f->evicted, f->victim); words (line / 4 words, or
 * NULL) are kept for hits. Every other case -> I, nothing installed. Frees
 * the MSHR entry; no lazy invalidation (a fill is not a demand access).
 * Returns 0, or -1 when no load of that line is outstanding (nothing
 * changes). */
int stc_l1_data(stc_l1 *l, uint64_t addr, const uint32_t *words, stc_l1_fill *f);

/* The return value of a value-returning atomic (Table 1 I x Data_E, S13):
 * passes through, the line's state and the cache are not changed;
 * r->event = Data_E, r->from = r->to = the line's state, r->act = LD.
 * (The atomic itself is a Store access: PW+1, WA later.) Returns 0. */
int stc_l1_amo_data(stc_l1 *l, uint64_t addr, stc_l1_result *r);

/* Write ack (Table 1 column WA): PW-1; the line's state is reported and
 * unchanged (r->event = WA, r->act = PW). Returns 0, or -1 when PW = 0. */
int stc_l1_wa(stc_l1 *l, uint64_t addr, stc_l1_result *r);

/* ChangeEpoch(cer, seb) (spec 3.3 steps 1-2): unless --no-lazy, the sweep
 * of the sets untouched during the ending epoch with the old CER/SEB; then
 * CER = cer, SEB = seb, every touched bit cleared; unless --no-poison, the
 * outstanding I_V loads whose band under the new SEB is in the new CER are
 * poisoned. Returns 0, or -1 when seb is outside seb_min..seb_max or cer
 * names an epoch >= 2^N (nothing changes). */
int stc_l1_chg(stc_l1 *l, const stc_eset *cer, unsigned seb, stc_l1_chg_result *r);

/* Queries (no side effect). */
stc_l1_state stc_l1_state_of(const stc_l1 *l, uint64_t addr, int *poisoned);
unsigned stc_l1_pw(const stc_l1 *l);
unsigned stc_l1_seb(const stc_l1 *l);
const stc_eset *stc_l1_cer(const stc_l1 *l);
/* band(addr) under the current SEB is in the CER. */
int stc_l1_current(const stc_l1 *l, uint64_t addr);
int stc_l1_touched(const stc_l1 *l, unsigned set);
unsigned stc_l1_mshrs_used(const stc_l1 *l);
const stc_l1_stats *stc_l1_stats_of(const stc_l1 *l);
const stc_l1_cfg *stc_l1_cfg_of(const stc_l1 *l);
/* The trace's --dump lines: `LINE <line> V` for valid lines, then `LINE
 * <line> I_V|I_I [poison]` for MSHR entries (each ascending), `PW <n>`. */
void stc_l1_dump(const stc_l1 *l, FILE *f);

/* -------------------------------------------------------- timing shell -- */

/* Port values in port-table order (cmodel/stc/stc_l1_ports.def); chg_cer_i is
 * the last input and takes ceil(2^N / 64) of its 4 words. */
typedef struct {
    uint64_t rst_ni;
    uint64_t req_valid_i, req_op_i, req_addr_i, chg_valid_i, chg_seb_i, ev_ready_i;
    uint64_t chg_cer_i[4];
} stc_l1_in;
typedef struct {
    uint64_t req_ready_o, chg_ready_o, chg_done_o, ev_valid_o, ev_kind_o, ev_event_o, ev_line_o,
        ev_from_o, ev_to_o, ev_act_o, ev_pw_o, pw_o;
} stc_l1_out;

/* ev_kind_o values */
enum {
    STC_L1_K_T = 0,
    STC_L1_K_STALL = 1,
    STC_L1_K_INV_LAZY = 2,
    STC_L1_K_INV_EVICT = 3,
    STC_L1_K_INV_SWEEP = 4,
    STC_L1_K_POISON = 5,
    STC_L1_K_ERR = 6
};
/* req_op_i values */
enum { STC_L1_REQ_LD = 0, STC_L1_REQ_ST = 1, STC_L1_REQ_DATA = 2, STC_L1_REQ_WA = 3 };

/* The RTL's pipeline (docs/stc.md, stc-l1): after reset `sets` cycles
 * clear the RAM; a request read its set in the cycle it is accepted and is
 * resolved the next cycle, one event a cycle (lazy INVs, an eviction, then
 * its T/STALL line); the next request is accepted in the cycle the last
 * event leaves, with the written set word forwarded to it. ChangeEpoch:
 * one cycle per set for the sweep (plus one per INV), one per POISON, one
 * to take the new CER. */
typedef struct stc_l1_tm stc_l1_tm;
COHKIT_UNIT_TM_API(stc_l1_tm, stc_l1_cfg, stc_l1_eval, stc_l1_step, stc_l1_in, stc_l1_out);
/* Shell state for the bench: PW, MSHR entries in use, RAM initialised. */
unsigned stc_l1_tm_pw(const stc_l1_tm *t);
int stc_l1_tm_idle(const stc_l1_tm *t);
/* The shell's RAM, MSHRs and PW in stc_l1_dump's format (trace --dump). */
void stc_l1_tm_dump(const stc_l1_tm *t, FILE *f);

COHKIT_END_DECLS

#endif
