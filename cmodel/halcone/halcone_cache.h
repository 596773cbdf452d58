/*
 * HALCONE cache timestamp unit (halcone-cache): configuration, geometry,
 * functional core and cycle-accurate timing shell. One unit serves the L1
 * and the L2 roles (they differ only in the eviction notice of the L2 role).
 *
 * Paper: Mojumder et al., "HALCONE: A Hardware-Level Timestamp-based Cache
 * Coherence Scheme for Multi-GPU systems", sections 3.2.1-3.2.2, Algorithms
 * 1, 2, 4 and 5; the kit's readings are those of the HALCONE reference
 * specification (3.2, 5.2, 5.4, H4-H7, H12, H20, H23) and docs/paper-notes.md.
 *
 * Per block: tag, valid, wts, rts (timestamps W bits wide); per cache: the
 * cts register. An access is classified as
 *   HIT  tag present and cts <= rts (no wts bound, H7),
 *   EXP  tag present but cts > rts (coherency miss, refetched from below),
 *   MISS no tag.
 * Fill rule, applied to the (wts, rts) received from below on a read miss,
 * an expired read, and every write response:
 *   Bwts = max(cts, wts);
 *   Brts = max(wts + 1, rts)  with --lease-ext on (paper, H5; wts + 1 wraps
 *                             to 0 under --overflow reinit, H12, saturates
 *                             under --overflow reset)
 *   Brts = rts                with --lease-ext off (safe, fix S1);
 *   cts  = max(cts, Bwts)     on write fills always, on read fills only
 *                             with --read-cts on (H4; off is Alg. 1/2, V6).
 * Writes are write-through and write-allocate (H6): every write goes below,
 * and the block is locked (H23, V10) until its response is filled.
 * Replacement is LRU over the valid, unlocked ways; an invalid way is taken
 * first (lowest index). INV (flash invalidate, fix S3's epoch reset) clears
 * every valid bit and sets cts to 0.
 *
 * Timestamps are uint32_t (W <= 32), masked to W bits; addresses are byte
 * addresses (any byte of the block), masked to addr_bits.
 */
#ifndef HALCONE_CACHE_H
#define HALCONE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "cohkit.h"
#include "unit.h"

COHKIT_BEGIN_DECLS

typedef enum { HALCONE_CACHE_ROLE_L1 = 0, HALCONE_CACHE_ROLE_L2 = 1 } halcone_cache_role;
typedef enum { HALCONE_CACHE_RULES_SAFE = 0, HALCONE_CACHE_RULES_PAPER = 1 } halcone_cache_rules;
typedef enum { HALCONE_CACHE_OVF_REINIT = 0, HALCONE_CACHE_OVF_RESET = 1 } halcone_cache_overflow;

/* Access classes (the trace's HIT / MISS / EXP). */
typedef enum { HALCONE_CACHE_HIT = 0, HALCONE_CACHE_MISS = 1, HALCONE_CACHE_EXP = 2 } halcone_cache_class;

/* Request opcodes, as driven on req_op_i. */
typedef enum { HALCONE_CACHE_OP_RD = 0, HALCONE_CACHE_OP_WR = 1, HALCONE_CACHE_OP_EV = 2, HALCONE_CACHE_OP_INV = 3 } halcone_cache_op;

/* Response kinds, as driven on rsp_kind_o (RHIT..WEXP = op * 3 + class). */
typedef enum {
    HALCONE_CACHE_RSP_RHIT = 0, HALCONE_CACHE_RSP_RMISS = 1, HALCONE_CACHE_RSP_REXP = 2,
    HALCONE_CACHE_RSP_WHIT = 3, HALCONE_CACHE_RSP_WMISS = 4, HALCONE_CACHE_RSP_WEXP = 5,
    HALCONE_CACHE_RSP_EVICTED = 6, HALCONE_CACHE_RSP_ABSENT = 7, HALCONE_CACHE_RSP_INVALIDATED = 8
} halcone_cache_rsp_kind;

/*
 * Configuration. The rule switches are tri-state in the struct (-1: follow
 * `rules`), so that `--rules` and the switches apply in any order (spec 7.1);
 * halcone_cache_cfg_check resolves them into the halcone_cache_geom.
 */
typedef struct {
    unsigned sets;       /* power of two, 1..65536                          */
    unsigned ways;       /* 1..32                                           */
    unsigned line;       /* block bytes, power of two, 4..4096              */
    unsigned addr_bits;  /* byte-address width, 8..64                       */
    unsigned ts_bits;    /* W, 4..32                                        */
    unsigned pending;    /* lock entries (outstanding fills), 1..ways, <= 16 */
    halcone_cache_role role;
    halcone_cache_rules rules;
    int lease_ext;       /* -1, 0, 1: Brts = max(wts + 1, rts) (paper)      */
    int read_cts;        /* -1, 0, 1: cts update on read fills              */
    int overflow;        /* -1, HALCONE_CACHE_OVF_REINIT, HALCONE_CACHE_OVF_RESET         */
    int req_cts;         /* -1, 0, 1: requests below carry the cts (S4)     */
    int l1_req_cts;      /* -1, 0, 1: requests from above carry the
                            requester's cts (req_cts_i), taken as
                            cts := max(cts, it) before the lookup (the
                            system's --l1-req-cts: L2 banks, H24)          */
} halcone_cache_cfg;

/* Every derived width and the resolved switches (halcone_cache_geom_of). */
typedef struct {
    unsigned off_bits;      /* log2(line)                                   */
    unsigned set_bits;      /* log2(sets), 0 for one set                    */
    unsigned tag_bits;      /* addr_bits - off_bits - set_bits, >= 1        */
    unsigned laddr_bits;    /* addr_bits - off_bits                         */
    unsigned age_bits;      /* LRU age per way, log2(ways) (>= 1 stored)    */
    unsigned way_bits;      /* >= 1                                         */
    unsigned id_bits;       /* lock-entry id width, >= 1                    */
    unsigned cnt_bits;      /* width of the valid-block count               */
    unsigned word_bits;     /* one RAM word: ways * (tag + 2W + age)        */
    uint32_t ts_max;        /* 2^W - 1                                      */
    int lease_ext, read_cts, overflow, req_cts; /* resolved 0/1             */
    int l1_req_cts;         /* resolved 0/1 (safe: 1)                       */
    unsigned pending;       /* lock entries (resolved: 0 -> min(4, ways))   */
} halcone_cache_geom;

/* Named configurations: "default" (= safe: L1 role, 64 sets x 4 ways, the
 * paper's 16 KB 4-way L1), "paper" (the same with the paper rules),
 * "fpga" (L2 role, 16 sets x 2 ways, 16-bit addresses, W 8, safe), "safe",
 * "l2" (the paper's L2 bank, 256 x 16, safe); the options sets, ways, line,
 * addr-bits, ts-bits, pending, role, rules, lease-ext, read-cts, overflow,
 * req-cts, l1-req-cts; module names such as
 * halcone_cache_l1_s64_w4_l64_a32_t16_p4_safe (cmodel/unit.h). */
COHKIT_UNIT_CFG_API(halcone_cache, const);
const char *const *halcone_cache_preset_names(void);

/* Derives the widths and resolves the switches; cfg must have passed the
 * check. */
void halcone_cache_geom_of(const halcone_cache_cfg *cfg, halcone_cache_geom *g);

/* "RHIT", "RMISS", ..., "INVALIDATED". */
const char *halcone_cache_rsp_str(halcone_cache_rsp_kind k);

/* ---------------------------------------------------------------- core -- */

/* The cache (opaque; state: blocks, cts, locks, statistics). */
typedef struct halcone_cache halcone_cache;

/* Result of one transaction. All timestamps are after the transaction. */
typedef struct {
    halcone_cache_rsp_kind kind; /* RHIT..WEXP, EVICTED, ABSENT, INVALIDATED */
    halcone_cache_class cls;     /* RD/WR: HIT, MISS or EXP                  */
    uint64_t line;               /* line-aligned byte address               */
    uint32_t cts;                /* the cache's cts after the transaction   */
    uint32_t wts, rts;           /* the block's timestamps after it (what
                                    the L2 role answers upward); EVICTED:
                                    the evicted block's; else 0             */
    uint32_t req_cts;            /* cts at lookup: the request's cts below
                                    under S4 (RD/WR)                        */
    int victim;                  /* 1: a valid block was replaced (LRU)     */
    uint64_t victim_line;        /* its line and timestamps (in the L2 role */
    uint32_t victim_wts, victim_rts; /* the notice to the TSU)              */
    int pending;                 /* request(): 1 if the block is now locked
                                    awaiting fill(); 0 when complete        */
    unsigned count;              /* INVALIDATED: valid blocks cleared       */
} halcone_cache_result;

/* Statistics, counted by the core. */
typedef struct {
    uint64_t rd[3], wr[3];   /* reads / writes by class (HIT, MISS, EXP)  */
    uint64_t victims;        /* LRU replacements of a valid block         */
    uint64_t evicted, absent;/* EV outcomes                               */
    uint64_t invalidates;    /* INV transactions                          */
    uint64_t wraps;          /* wts + 1 wrapped to 0 (lease-ext, reinit)  */
} halcone_cache_stats;

/* One block as stored (halcone_cache_block). */
typedef struct {
    int valid;               /* tag present                                */
    int locked;              /* awaiting its fill (write or read refetch)  */
    uint64_t line;           /* line-aligned byte address (valid only)     */
    uint32_t wts, rts;
    unsigned age;            /* LRU age among the set's valid ways, 0 MRU  */
} halcone_cache_blk;

/* Allocates an empty cache (cts 0) for a checked cfg. NULL on out-of-memory. */
halcone_cache *halcone_cache_new(const halcone_cache_cfg *cfg);
void halcone_cache_free(halcone_cache *c);
/* Empties every block and lock, cts := 0, statistics cleared. */
void halcone_cache_reset(halcone_cache *c);

/* Classification of an access without side effects. Returns the class
 * (HIT, MISS, EXP) and fills *r (if non-NULL) with the line, the current
 * cts (as req_cts and cts) and, for HIT and EXP, the block's (wts, rts).
 * Returns -1 if the block is locked (the access would stall, H23). */
int halcone_cache_probe(const halcone_cache *c, uint64_t addr, halcone_cache_result *r);
/* The same at max(cts, up): the classification an access carrying the
 * requester's cts `up` gets (--l1-req-cts on), without side effects. */
int halcone_cache_probe_at(const halcone_cache *c, uint64_t addr, uint32_t up,
                           halcone_cache_result *r);

/* A whole transaction, as the trace tool runs it: op RD or WR at addr;
 * (wts, rts) is what the level below answers (used unless RD hits).
 * RD hit: LRU touch, result RHIT with the stored block. Otherwise the block
 * is allocated (MISS: LRU victim reported in r->victim*; EXP: same way),
 * the fill rule is applied and r has RMISS/REXP/WHIT/WMISS/WEXP with the
 * cache's cts and the block's new (wts, rts). op EV: halcone_cache_evict;
 * op INV: halcone_cache_invalidate. Returns 0, or -1 if the block is locked
 * (nothing changed) or op is out of range. */
int halcone_cache_access(halcone_cache *c, halcone_cache_op op, uint64_t addr, uint32_t wts,
                         uint32_t rts, halcone_cache_result *r);

/* First half of a split transaction (what the RTL does at lookup): RD or WR.
 * RD hit completes (r->pending 0, kind RHIT). Otherwise the block is
 * allocated or kept, locked, LRU-touched, r->pending 1, r->kind the final
 * kind (RMISS..WEXP), r->req_cts the cts to send below, r->victim* the
 * replaced block; cts and timestamps in r are those before the fill.
 * Returns 0, or -1 if the block is already locked (stall; nothing changed),
 * or -2 if no way of the set can be allocated (every way locked). */
int halcone_cache_request(halcone_cache *c, halcone_cache_op op, uint64_t addr,
                          halcone_cache_result *r);

/* Second half: the response from below for a locked block. Applies the fill
 * rule, updates cts, unlocks. r as for halcone_cache_access. Returns 0, or
 * -1 if the block is not locked. */
int halcone_cache_fill(halcone_cache *c, uint64_t addr, uint32_t wts, uint32_t rts,
                       halcone_cache_result *r);

/* Evicts the block of addr if present: EVICTED with its (wts, rts), or
 * ABSENT. The L1 eviction is silent; in the L2 role the caller sends the
 * notice. Returns 0, or -1 if the block is locked (nothing changed). */
int halcone_cache_evict(halcone_cache *c, uint64_t addr, halcone_cache_result *r);

/* Flash invalidate (epoch reset, S3): clears every valid bit and sets cts
 * to 0. Returns the number of valid blocks cleared, or -1 if a block is
 * locked (the RTL waits for the fills first; nothing changed). */
int halcone_cache_invalidate(halcone_cache *c);

/* The cache's cts. */
uint32_t halcone_cache_cts(const halcone_cache *c);
/* cts := max(cts, v) (v masked to W bits): what a RD/WR carrying the
 * requester's cts does before its lookup with --l1-req-cts on (the RTL's
 * req_cts_i). With L2 banks an L1's request carries its cts to its bank, so
 * an L2 hit covers the L1's time (spec 5.1 I4 with several banks, H24;
 * docs/halcone.md). */
void halcone_cache_advance(halcone_cache *c, uint32_t v);
/* Block (set, way); 0, or -1 if out of range. */
int halcone_cache_block(const halcone_cache *c, unsigned set, unsigned way, halcone_cache_blk *b);
/* Number of valid blocks. */
unsigned halcone_cache_count(const halcone_cache *c);
const halcone_cache_stats *halcone_cache_stats_of(const halcone_cache *c);
/* The configuration and derived geometry the cache was built with. */
const halcone_cache_cfg *halcone_cache_cfg_of(const halcone_cache *c);
const halcone_cache_geom *halcone_cache_geom_get(const halcone_cache *c);

/* -------------------------------------------------------- timing shell -- */

/* Cycle-accurate model of the generated RTL (opaque). Port values are
 * uint64_t words in port-table order (halcone_cache_ports; inputs start with
 * rst_ni), as in cmodel/unit.h. */
typedef struct halcone_cache_tm halcone_cache_tm;

COHKIT_UNIT_TM_API(halcone_cache_tm, halcone_cache_cfg, halcone_cache_tm_eval, halcone_cache_tm_step,
                   uint64_t, uint64_t);
/* The shell's cache (its functional state). */
const halcone_cache *halcone_cache_tm_core(const halcone_cache_tm *t);

/* Word indices of the timing shell's port values (the port table's order),
 * inputs from rst_ni: ev_ready_i (HALCONE_CACHE_I_EV_READY) exists in an L2
 * only, and req_cts_i (with --l1-req-cts) is the last input; outputs: after
 * HALCONE_CACHE_O_DN_ID come dn_cts_o (with --req-cts), ev_valid_o,
 * ev_line_o, ev_wts_o and ev_rts_o. */
enum {
    HALCONE_CACHE_I_RST, HALCONE_CACHE_I_REQ_VALID, HALCONE_CACHE_I_REQ_OP, HALCONE_CACHE_I_REQ_ADDR,
    HALCONE_CACHE_I_FILL_VALID, HALCONE_CACHE_I_FILL_ID, HALCONE_CACHE_I_FILL_WTS,
    HALCONE_CACHE_I_FILL_RTS, HALCONE_CACHE_I_RSP_READY, HALCONE_CACHE_I_DN_READY,
    HALCONE_CACHE_I_EV_READY
};
enum {
    HALCONE_CACHE_O_REQ_READY, HALCONE_CACHE_O_FILL_READY, HALCONE_CACHE_O_RSP_VALID,
    HALCONE_CACHE_O_RSP_KIND, HALCONE_CACHE_O_RSP_LINE, HALCONE_CACHE_O_RSP_CTS,
    HALCONE_CACHE_O_RSP_WTS, HALCONE_CACHE_O_RSP_RTS, HALCONE_CACHE_O_RSP_COUNT,
    HALCONE_CACHE_O_DN_VALID, HALCONE_CACHE_O_DN_WRITE, HALCONE_CACHE_O_DN_LINE,
    HALCONE_CACHE_O_DN_ID
};

COHKIT_END_DECLS

#endif
