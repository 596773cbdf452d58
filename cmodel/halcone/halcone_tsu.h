/*
 * HALCONE timestamp storage unit (TSU): configuration, geometry, golden model
 * (functional core and cycle-accurate timing shell).
 *
 * Paper: Mojumder et al., "HALCONE: A Hardware-Level Timestamp-based Cache
 * Coherence Scheme for Multi-GPU systems", section 3.2.5, Fig. 6,
 * Algorithm 3 (with section 3.2.6 for overflow). The arithmetic, the fixes
 * S2-S4 and the readings H1, H8, H10-H12 are those of the family's
 * specification (section 3.1, 5.2, 5.4, 6); where the kit refines them,
 * docs/paper-notes.md says so.
 *
 * One configuration struct and one validator serve the generator (gen/), the
 * model and the benches (tb/); halcone_tsu_geom_of() derives every width once.
 *
 * Addresses in the functional core are byte addresses (any byte of the
 * block; bits at and above addr_bits are ignored); results give the block's
 * line-aligned byte address. The RTL ports carry line addresses
 * (byte address >> log2(line)).
 */
#ifndef HALCONE_TSU_H
#define HALCONE_TSU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"
#include "unit.h"

COHKIT_BEGIN_DECLS

/* Write timestamp rule (H1, V5): Fig. 5's memts + 1, or Alg. 3's memts. */
typedef enum { HALCONE_WRWTS_PLUS1 = 0, HALCONE_WRWTS_LITERAL = 1 } halcone_wrwts;
/* Floor for new entries (S2): none (new entries at memts 0), one register
 * for the TSU, or one per set. */
typedef enum { HALCONE_FLOOR_NONE = 0, HALCONE_FLOOR_GLOBAL = 1, HALCONE_FLOOR_SET = 2 } halcone_floor;
/* Overflow (S3): re-initialise the overflowing memts to 0 (paper, H12), or a
 * global epoch reset. */
typedef enum { HALCONE_OVF_REINIT = 0, HALCONE_OVF_RESET = 1 } halcone_overflow;
/* Share test of an L2 eviction notice (H10): shared iff now - memts < max
 * lease / memts > the evicted copy's rts / always / never. */
typedef enum {
    HALCONE_SHARE_NOW = 0,
    HALCONE_SHARE_RTS = 1,
    HALCONE_SHARE_KEEP = 2,
    HALCONE_SHARE_REMOVE = 3
} halcone_share;

typedef struct {
    unsigned sets;      /* power of two, 1..65536 (default 512)             */
    unsigned ways;      /* 1..16 (default 8)                                */
    unsigned line;      /* block bytes, power of two, 4..4096 (64)          */
    unsigned addr_bits; /* byte-address width, 16..64 (48)                  */
    unsigned ts_bits;   /* W: timestamp width, 4..32 (16)                   */
    unsigned tag_bits;  /* request tag returned with the response, 1..16 (8)*/
    unsigned rd_lease;  /* reset value of the RdLease register, 1..2^W-1    */
    unsigned wr_lease;  /* reset value of the WrLease register, 1..2^W-1    */
    halcone_wrwts wr_wts;
    halcone_floor floor;
    halcone_overflow overflow;
    unsigned req_cts;   /* S4: 1 = grants use the requesting L2's cts       */
    halcone_share share_test;
} halcone_tsu_cfg;

/* Every derived width, computed in one place (halcone_tsu_geom_of). */
typedef struct {
    unsigned index_bits;      /* log2(sets), 0 for one set                 */
    unsigned line_bits;       /* log2(line)                                */
    unsigned laddr_bits;      /* line-address width: addr_bits - line_bits */
    unsigned tag_bits;        /* stored tag: laddr_bits - index_bits       */
    unsigned entry_bits;      /* stored per way: valid + tag + memts       */
    unsigned floor_bits;      /* per-set floor in the set word (floor set) */
    unsigned set_bits;        /* one RAM word: ways * entry_bits + floor   */
    unsigned epoch_bits;      /* epoch counter width (16)                  */
    uint64_t ts_max;          /* 2^W - 1                                   */
    uint64_t entries;         /* sets * ways                               */
    uint64_t paper_bits;      /* paper accounting: memts only, entries * W */
    uint64_t ram_bits;        /* RTL: sets * set_bits                      */
    uint64_t reg_bits;        /* RTL registers beside the RAM: floor, now,
                                 epoch, two lease registers                */
} halcone_tsu_geom;

/* The "safe" preset with the spec's parameters: 512 sets x 8 ways, 64 B
 * blocks, 48-bit addresses, 16-bit timestamps, 8-bit tags, RdLease 10,
 * WrLease 5; plus1, floor global, overflow reset, req-cts on, share now. */
void halcone_tsu_cfg_default(halcone_tsu_cfg *c);
/* Switches of a rule preset ("paper" or "safe") applied to c, geometry
 * untouched. 0, or -1 for an unknown name. */
int halcone_tsu_cfg_rules(halcone_tsu_cfg *c, const char *rules);
/* Derives widths; c must have passed halcone_tsu_cfg_check. */
void halcone_tsu_geom_of(const halcone_tsu_cfg *c, halcone_tsu_geom *g);
/* Named configurations "default" (= safe), "paper", "fpga" (small, safe);
 * the options sets, ways, line, addr-bits, ts-bits, tag-bits, rd-lease,
 * wr-lease, wr-wts, floor, overflow, req-cts, share-test (--rules is handled
 * by the registry entry: switches given explicitly win over it in any
 * order); module names such as
 * halcone_tsu_s512_w8_l64_a48_t16_q8_r10_w5_p1_fg_or_c1_sn (cmodel/unit.h). */
COHKIT_UNIT_CFG_API(halcone_tsu, const);

const char *halcone_wrwts_str(halcone_wrwts v);
const char *halcone_floor_str(halcone_floor v);
const char *halcone_overflow_str(halcone_overflow v);
const char *halcone_share_str(halcone_share v);

/* ---------------------------------------------------------------- core -- */

/* Request opcodes, as driven on req_op_i. NOP is accepted and answers
 * nothing (an idle slot of the memory controller). */
typedef enum {
    HALCONE_TSU_RD = 0,
    HALCONE_TSU_WR = 1,
    HALCONE_TSU_EV = 2,
    HALCONE_TSU_NOP = 3
} halcone_tsu_op;

/* What an eviction notice did: the entry was removed, kept (judged shared),
 * or there was none. For RD/WR the kind is HALCONE_TSU_GRANT. Values are
 * those of rsp_kind_o. */
typedef enum {
    HALCONE_TSU_GRANT = 0,
    HALCONE_TSU_REMOVE = 1,
    HALCONE_TSU_KEEP = 2,
    HALCONE_TSU_ABSENT = 3
} halcone_tsu_kind;

/* The result of one request: everything the trace prints for it (spec 7.2:
 * VICTIM, FLOOR, WRAP, RESET, then GRANT; or REMOVE [FLOOR] / KEEP /
 * ABSENT), as values. Fields not named by the kind or by a set flag are 0. */
typedef struct {
    halcone_tsu_kind kind;
    uint64_t addr;         /* the block, line-aligned byte address         */
    uint32_t wts, rts;     /* GRANT: the lease (Mwts, Mrts); memts := rts  */
    uint32_t memts;        /* REMOVE/KEEP: the entry's memts; GRANT: memts
                              before the request (the floor for a new entry,
                              0 after a wrap or reset)                     */
    unsigned hit;          /* GRANT: the block had an entry                */
    unsigned victim;       /* GRANT: a capacity eviction of another entry  */
    uint64_t victim_addr;  /*   its block                                  */
    uint32_t victim_memts; /*   its memts                                  */
    unsigned floor_raised; /* the floor rose (victim or removal, S2)       */
    uint32_t floor;        /*   its new value                              */
    unsigned floor_set;    /*   the set whose floor rose (floor set), or 0 */
    unsigned wrap;         /* GRANT: paper overflow, served from memts 0    */
    unsigned reset;        /* GRANT: epoch reset before the grant (S3): the
                              caches must flash-invalidate and zero cts
                              before using it                               */
    uint32_t epoch;        /* the epoch after the request (the new one
                              after a reset)                               */
} halcone_tsu_result;

typedef struct {
    uint64_t reads, writes, notices;
    uint64_t hits, allocs, victims;
    uint64_t removes, keeps, absents;
    uint64_t floor_raises, wraps, resets;
} halcone_tsu_stats;

typedef struct {
    uint8_t valid;
    uint64_t tag;          /* laddr >> index_bits                          */
    uint32_t memts;
} halcone_tsu_entry;

typedef struct {
    halcone_tsu_cfg cfg;
    halcone_tsu_geom g;
    halcone_tsu_entry *ent;   /* sets * ways, set-major                    */
    uint32_t *set_floor;      /* per set (floor set); else unused          */
    uint32_t floor;           /* global floor (floor global)               */
    uint32_t now;             /* largest memts issued (share test now)     */
    uint32_t epoch;           /* epoch count (epoch_bits wide)             */
    uint32_t rd_lease, wr_lease; /* the programmable lease registers       */
    halcone_tsu_stats st;
} halcone_tsu;

/* Allocates a TSU for a checked cfg, in its reset state. NULL when out of
 * memory. */
halcone_tsu *halcone_tsu_new(const halcone_tsu_cfg *cfg);
void halcone_tsu_free(halcone_tsu *t);
/* Reset state (rst_ni): no entries, floor 0, now 0, epoch 0, lease
 * registers at cfg.rd_lease / cfg.wr_lease, statistics cleared. */
void halcone_tsu_reset(halcone_tsu *t);

/* Read request from an L2 (Alg. 3 read; spec 3.1). cts: the requesting L2's
 * cts (used only with req_cts; masked to W bits); lease: the per-request
 * override, 0 = the RdLease register (masked to W bits). Returns the grant:
 * wts = M, rts = M + lease (with req_cts: max(M, cts) + lease), where M is
 * the entry's memts or, for a new entry, the floor (0 without one); on
 * overflow of 2^W - 1 the request is served from M = 0, cts = 0 after a wrap
 * (reinit) or an epoch reset (reset). */
halcone_tsu_result halcone_tsu_read(halcone_tsu *t, uint64_t addr, uint32_t cts, uint32_t lease);
/* Write request from an L2. Returns the grant: plus1 wts = M + 1 (with
 * req_cts max(M + 1, cts)), rts = wts + lease - 1; literal wts = M (with
 * req_cts max(M, cts)), rts = wts + lease. lease 0 = the WrLease register.
 * Overflow as for reads. */
halcone_tsu_result halcone_tsu_write(halcone_tsu *t, uint64_t addr, uint32_t cts, uint32_t lease);
/* L2 eviction notice. rts: the evicted copy's rts (used by share test rts).
 * Returns kind REMOVE (entry dropped, memts given; the floor may rise), KEEP
 * (judged shared, memts given) or ABSENT. */
halcone_tsu_result halcone_tsu_evict(halcone_tsu *t, uint64_t addr, uint32_t rts);
/* Any of the three by opcode (NOP: changes nothing, returns kind ABSENT with
 * addr 0); the timing shell calls this. rts is used by EV only, cts and
 * lease by RD/WR only. */
halcone_tsu_result halcone_tsu_request(halcone_tsu *t, halcone_tsu_op op, uint64_t addr,
                                       uint32_t cts, uint32_t lease, uint32_t rts);

/* Global epoch reset from outside (another TSU of the system reset: S3 is
 * global): clears every entry, the floors and now, and advances the epoch.
 * Returns the new epoch. */
uint32_t halcone_tsu_epoch_reset(halcone_tsu *t);
/* Programs the lease registers (the cfg port); a 0 leaves a register as it
 * is. Values are masked to W bits. */
void halcone_tsu_set_leases(halcone_tsu *t, uint32_t rd_lease, uint32_t wr_lease);

/* M(X) of spec 5.1: the memts of addr's entry, or the floor that a new entry
 * would start at. *present (if not NULL) tells which. No side effects. */
uint32_t halcone_tsu_memts(const halcone_tsu *t, uint64_t addr, int *present);
/* The floor that applies to addr's set (global floor, per-set floor, or 0). */
uint32_t halcone_tsu_floor_of(const halcone_tsu *t, uint64_t addr);

/* Prints a result as the spec 7.2 trace lines (VICTIM, FLOOR, WRAP, RESET,
 * GRANT; or REMOVE, FLOOR / KEEP / ABSENT). A NOP's result prints as
 * ABSENT 0x0: do not print it. */
void halcone_tsu_print(FILE *f, const halcone_tsu *t, const halcone_tsu_result *r);
/* The same from the configuration alone (a result rebuilt from the ports). */
void halcone_tsu_print_cfg(FILE *f, const halcone_tsu_cfg *c, const halcone_tsu_result *r);
/* Prints the --dump lines: ENTRY <set> <way> <line> <memts> per valid entry,
 * REG floor, REG floor[<s>] (nonzero per-set floors), REG now, REG epoch. */
void halcone_tsu_dump(FILE *f, const halcone_tsu *t);

/* -------------------------------------------------------- timing shell -- */

/* Port values (cmodel/unit.h layout), one uint64_t per port in port-table
 * order: rst_ni first, then cmodel/halcone/halcone_tsu_ports.def. Field names are
 * the RTL port names. */
#define HALCONE_TSU_PORT_IN(n) uint64_t n;
#define HALCONE_TSU_PORT_OUT(n)
#define HALCONE_TSU_PORT(d, n, w) HALCONE_TSU_PORT_##d(n)
typedef struct {
    uint64_t rst_ni;
#include "halcone_tsu_ports.def"
} halcone_tsu_in;
#undef HALCONE_TSU_PORT_IN
#undef HALCONE_TSU_PORT_OUT
#define HALCONE_TSU_PORT_IN(n)
#define HALCONE_TSU_PORT_OUT(n) uint64_t n;
typedef struct {
#include "halcone_tsu_ports.def"
} halcone_tsu_out;
#undef HALCONE_TSU_PORT_IN
#undef HALCONE_TSU_PORT_OUT
#undef HALCONE_TSU_PORT

/* Pipeline: stage 0 accepts and reads the set, stage 1 holds the word,
 * stage 2 looks up, grants, writes back and loads the response register.
 * The shell applies halcone_tsu_request() when stage 2 fires, so its state
 * is the core's. An epoch reset (own overflow, or epoch_rst_i from another
 * TSU) is a clearing sweep of `sets` cycles ending in
 * halcone_tsu_epoch_reset(); the request then in stage 2 is served at cts 0
 * and its response carries the reset. */
typedef struct {
    halcone_tsu *tsu;
    unsigned clr_busy, clr_idx;       /* clearing sweep (reset, epoch)      */
    unsigned clr_epoch;               /* the sweep is an epoch reset        */
    unsigned s1_valid, s2_valid;
    unsigned s1_op, s2_op;
    uint64_t s1_addr, s2_addr;        /* line addresses                     */
    uint64_t s1_tag, s2_tag;
    uint32_t s1_cts, s2_cts, s1_lease, s2_lease, s1_rts, s2_rts;
    unsigned s2_rst;                  /* stage 2 restarts after a reset     */
    unsigned rsp_valid;
    halcone_tsu_result rsp;           /* the response register              */
    uint64_t rsp_tag;
} halcone_tsu_tm;

/* The timing shell owns its TSU (tm->tsu); its reset is what rst_ni low
 * produces (cmodel/unit.h). */
COHKIT_UNIT_TM_API(halcone_tsu_tm, halcone_tsu_cfg, halcone_tsu_eval, halcone_tsu_step,
                   halcone_tsu_in, halcone_tsu_out);

/* Cycles from acceptance to the response on rsp_*_o with rsp_ready_i high
 * and no reset sweep: accepted at edge k, response valid after edge k + 3. */
#define HALCONE_TSU_LATENCY 3

COHKIT_END_DECLS

#endif
