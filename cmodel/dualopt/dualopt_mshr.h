/*
 * DualOpt bitmask MSHR (Belayneh et al., PACT 2022, section 4.1.2, Fig. 8
 * with footnote 1, Table 1; kit specification dualopt.md 2.3 and D11, D12,
 * D14, D27): configuration, geometry, functional core and timing shell.
 *
 * Each entry tracks one in-flight fetch {line, word mask} and the targets
 * (requester tags) waiting for it. A request hits the lowest-index entry of
 * its line whose mask contains the request's mask; otherwise it allocates
 * the lowest free entry with its whole mask (partial overlap refetches the
 * overlap, Fig. 8b). A fill names its entry (one line may own several) and
 * delivers every target in arrival order. In `line` mode every mask is
 * all-ones, which is the conventional MSHR (D14).
 */
#ifndef DUALOPT_MSHR_H
#define DUALOPT_MSHR_H

#include <stddef.h>
#include <stdint.h>

#include "cohkit.h"
#include "unit.h"

COHKIT_BEGIN_DECLS

typedef enum { DUALOPT_MSHR_BITMASK = 0, DUALOPT_MSHR_LINE = 1 } dualopt_mshr_mode;

/* Lookup outcomes, as driven on rsp_kind_o. */
typedef enum {
    DUALOPT_MSHR_HIT = 0,        /* target appended to an entry          */
    DUALOPT_MSHR_MISS = 1,       /* entry allocated, request sent down   */
    DUALOPT_MSHR_STALL_FULL = 2, /* no matching entry and none free      */
    DUALOPT_MSHR_STALL_TGT = 3   /* matching entry's target list is full */
} dualopt_mshr_kind;

typedef struct {
    unsigned entries;   /* MSHR entries, 1..64 (Table 1: 32)                 */
    unsigned targets;   /* targets per entry, 0 = no per-entry limit, ..1024 */
    unsigned line;      /* line in bytes, power of two, 4..4096              */
    unsigned gran;      /* mask granularity in bytes (4, 8, 16), line/gran <= 64 */
    unsigned addr_bits; /* byte-address width, 16..64                        */
    unsigned tag_bits;  /* requester tag width, 1..16 (RTL target store)     */
    dualopt_mshr_mode mode;
} dualopt_mshr_cfg;

typedef struct {
    unsigned mask_bits;  /* line / gran                                       */
    uint64_t mask_all;   /* all-ones mask                                     */
    unsigned line_bits;  /* log2(line)                                        */
    unsigned laddr_bits; /* line-address width: addr_bits - line_bits         */
    unsigned entry_bits; /* width of entry ids, >= 1                          */
    unsigned count_bits; /* per-entry target counter, 0 when targets == 0     */
    unsigned tags;       /* 2^tag_bits: nodes of the target store             */
    uint64_t flop_bits;  /* per-entry state in flip-flops                     */
    uint64_t ram_bits;   /* target store (next-target RAM)                    */
    uint64_t mask_store_bits; /* entries * mask_bits (Table 4's extension)    */
} dualopt_mshr_geom;

void dualopt_mshr_cfg_default(dualopt_mshr_cfg *c);
void dualopt_mshr_geom_of(const dualopt_mshr_cfg *c, dualopt_mshr_geom *g);
/* Presets "default", "fpga", "line", "gran8", "gran16" (cmodel/unit.h). */
COHKIT_UNIT_CFG_API(dualopt_mshr, const);

/* ---------------------------------------------------------------- core -- */

typedef struct {
    uint8_t valid;
    uint64_t line;      /* line address (byte address >> line_bits) */
    uint64_t mask;
    unsigned n, cap;    /* targets held, allocated                  */
    uint32_t *tgt;      /* targets in arrival order                 */
} dualopt_mshr_entry;

typedef struct {
    uint64_t hits, misses, stall_full, stall_targets, fills;
} dualopt_mshr_stats;

typedef struct {
    dualopt_mshr_cfg cfg;
    dualopt_mshr_geom g;
    dualopt_mshr_entry *e;
    dualopt_mshr_stats st;
} dualopt_mshr;

typedef struct {
    dualopt_mshr_kind kind;
    unsigned entry;     /* HIT, MISS, STALL_TGT: the entry; STALL_FULL: 0 */
    uint64_t line;      /* the request's line address                     */
    uint64_t mask;      /* the request's mask (all-ones in line mode)     */
} dualopt_mshr_result;

/* A checked configuration. NULL on out-of-memory. */
dualopt_mshr *dualopt_mshr_new(const dualopt_mshr_cfg *c);
void dualopt_mshr_free(dualopt_mshr *m);
void dualopt_mshr_reset(dualopt_mshr *m);
/* One lookup (spec 2.3 steps 1-2): line address, word mask (ignored in line
 * mode), requester tag (opaque to the core: any 32-bit value, delivered back
 * by dualopt_mshr_fill). Returns 0, or -1 on out-of-memory. */
int dualopt_mshr_req(dualopt_mshr *m, uint64_t line, uint64_t mask, uint32_t tag,
                     dualopt_mshr_result *r);
/* Fill by entry id (step 3): the entry's line, mask and targets (valid until
 * the next call on m), then the entry is free. -1 when the entry is free or
 * out of range (nothing changes). */
int dualopt_mshr_fill(dualopt_mshr *m, unsigned entry, uint64_t *line, uint64_t *mask,
                      const uint32_t **tags, unsigned *n);

/* -------------------------------------------------------- timing shell -- */

/* Port values in port-table order (cmodel/dualopt/dualopt_mshr_ports.def). */
#define DUALOPT_MSHR_PORT_IN(n) uint64_t n;
#define DUALOPT_MSHR_PORT_OUT(n)
#define DUALOPT_MSHR_PORT(d, n, w) DUALOPT_MSHR_PORT_##d(n)
typedef struct {
    uint64_t rst_ni;
#include "dualopt_mshr_ports.def"
} dualopt_mshr_in;
#undef DUALOPT_MSHR_PORT_IN
#undef DUALOPT_MSHR_PORT_OUT
#define DUALOPT_MSHR_PORT_IN(n)
#define DUALOPT_MSHR_PORT_OUT(n) uint64_t n;
typedef struct {
#include "dualopt_mshr_ports.def"
} dualopt_mshr_out;
#undef DUALOPT_MSHR_PORT_IN
#undef DUALOPT_MSHR_PORT_OUT
#undef DUALOPT_MSHR_PORT

typedef struct {
    dualopt_mshr *m;
    /* request stage: a request accepted in cycle t is looked up from t+1 */
    unsigned rq_valid;
    uint64_t rq_tag, rq_line, rq_mask;
    /* response register (one lookup a cycle, answered the next cycle) */
    unsigned rsp_valid, rsp_kind;
    uint64_t rsp_tag, rsp_entry, rsp_line, rsp_mask;
    /* DONE stream: one target a cycle from the filled entry's list */
    unsigned dn_valid;
    uint64_t dn_entry, dn_line, dn_mask, dn_tag, dn_tail;
    unsigned dn_n, dn_idx, dn_cap;
    uint32_t *dn_tags;
} dualopt_mshr_tm;

COHKIT_UNIT_TM_API(dualopt_mshr_tm, dualopt_mshr_cfg, dualopt_mshr_eval, dualopt_mshr_step,
                   dualopt_mshr_in, dualopt_mshr_out);

COHKIT_END_DECLS

#endif
