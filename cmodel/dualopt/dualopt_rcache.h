/*
 * DualOpt RDMA cache: a cache of remote data only, in front of the RDMA
 * engine (Belayneh et al., PACT 2022, section 4 intro, 4.2, 4.4, 6.1,
 * Table 1: 1.5 MB, 16 ways, write-back). Readings D21-D24 of the DualOpt
 * specification (docs/paper-notes.md): write-allocate, a partial-line
 * write miss fetches the line first, a full-line write miss does not; a
 * per-byte dirty mask and write-backs of the dirty bytes only; LRU with
 * invalid ways first (lowest index); atomics bypass the cache after the
 * line's dirty bytes are written back and the line is invalidated; at a
 * kernel boundary every dirty line is written back in ascending (set, way)
 * order and every line invalidated. Index: set = line mod sets (D22: 1,536
 * sets at the paper's size, not a power of two).
 *
 * Functional core: dualopt_rcache_new / dualopt_rcache_access / dualopt_rcache_flush (akita terms:
 * the cache sits between the RDMA engine's inside port, where remote
 * requests that missed the L1s arrive, and its outside port; a fetch and a
 * write-back leave towards the home GPU). Timing shell: rcache_tm_*, the
 * RTL's pipeline cycle by cycle (gen/dualopt/dualopt_rcache_gen.c).
 */
#ifndef DUALOPT_RCACHE_H
#define DUALOPT_RCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "cohkit.h"
#include "unit.h"

COHKIT_BEGIN_DECLS

#define DUALOPT_RCACHE_LINE_MAX 64

typedef struct {
    unsigned sets;      /* 1..65536, any value (modulo indexing)           */
    unsigned ways;      /* 1..32                                           */
    unsigned line;      /* bytes, power of two, 8..64                      */
    unsigned addr_bits; /* byte-address width, 16..63                      */
} dualopt_rcache_cfg;

typedef struct {
    unsigned lb;        /* log2(line)                                      */
    unsigned ln;        /* line-address bits: addr_bits - lb               */
    unsigned k;         /* sets = odd << k                                 */
    unsigned odd;
    unsigned ib;        /* set-index bits: clog2(sets), 0 for one set      */
    unsigned tw;        /* tag bits: ln - k (the line address above k)     */
    unsigned rb;        /* LRU rank bits: clog2(ways), 0 for one way       */
    unsigned wb;        /* way-number bits: clog2(ways), 0 for one way     */
    unsigned ew;        /* bits per way in the set word                    */
    unsigned setw;      /* set word: ways x ew                             */
    unsigned daw;       /* data RAM address bits: clog2(sets x ways)       */
    unsigned cw;        /* count bits: clog2(sets x ways + 1)              */
    unsigned dw;        /* line bits                                       */
    unsigned dww;       /* uint64 words of a line                          */
    uint64_t tag_bits, data_bits; /* RAM bits: sets x setw, sets x ways x dw */
    /* word offsets of the port values (cmodel/unit.h layout) */
    unsigned i_req_valid, i_req_op, i_req_addr, i_req_mask, i_req_data, i_rsp_ready,
        i_out_ready, i_fill_valid, i_fill_data, in_words;
    unsigned o_req_ready, o_rsp_valid, o_rsp_kind, o_rsp_line, o_rsp_wbs, o_rsp_inv,
        o_rsp_data, o_out_valid, o_out_kind, o_out_line, o_out_mask, o_out_data, o_fill_ready,
        out_words;
} dualopt_rcache_geom;

/* The paper's: 1,536 sets x 16 ways x 64 B = 1.5 MB, 48-bit addresses. */
void dualopt_rcache_cfg_default(dualopt_rcache_cfg *c);
void dualopt_rcache_geom_of(const dualopt_rcache_cfg *c, dualopt_rcache_geom *g);
/* Presets "default", "fpga" (64 x 4 x 16 B = 4 KB, 32-bit addresses),
 * "pow2" (2,048 sets x 12 ways: the paper's capacity with a power-of-two
 * index, D22) (cmodel/unit.h). */
COHKIT_UNIT_CFG_API(dualopt_rcache, const);

/* ---------------------------------------------------------------- core -- */

/* Request operations (req_op_i). */
typedef enum { DUALOPT_RCACHE_RD = 0, DUALOPT_RCACHE_WR = 1, DUALOPT_RCACHE_AT = 2, DUALOPT_RCACHE_KERNEL = 3 } dualopt_rcache_op;
/* Outcomes (rsp_kind_o). */
typedef enum {
    DUALOPT_RCACHE_HIT = 0,
    DUALOPT_RCACHE_MISS = 1,
    DUALOPT_RCACHE_WHIT = 2,
    DUALOPT_RCACHE_WMISS_FULL = 3,
    DUALOPT_RCACHE_WMISS_FETCH = 4,
    DUALOPT_RCACHE_FWD = 5,
    DUALOPT_RCACHE_FLUSH = 6
} dualopt_rcache_kind;

typedef struct {
    unsigned valid;
    uint64_t tag;
    uint64_t dirty;     /* bit i: byte i written since the line was filled  */
    unsigned rank;      /* 0 most recently used .. ways - 1 least           */
} dualopt_rcache_way;

typedef struct {
    dualopt_rcache_cfg c;
    dualopt_rcache_geom g;
    dualopt_rcache_way *way;    /* sets x ways                                      */
    uint8_t *data;      /* sets x ways x line bytes                         */
    uint64_t hits, misses, whits, wmiss_full, wmiss_fetch, fwds, wbs, flushes;
} dualopt_rcache;

typedef struct {
    dualopt_rcache_op op;
    uint64_t addr;      /* byte address (any byte of the line)              */
    uint64_t mask;      /* WR: byte enables of the line (bit i = byte i)    */
    uint8_t data[DUALOPT_RCACHE_LINE_MAX]; /* WR: the line's bytes at their offsets */
} dualopt_rcache_req;

typedef struct {
    uint64_t line;      /* line address (byte address >> log2(line))        */
    uint64_t mask;      /* dirty bytes                                      */
    uint8_t data[DUALOPT_RCACHE_LINE_MAX];
} dualopt_rcache_wb;

typedef struct {
    dualopt_rcache_kind kind;
    uint64_t line;
    unsigned nwb;       /* 0 or 1: the dirty victim (RD/WR) or line (AT)     */
    dualopt_rcache_wb wb;
    unsigned inv;       /* AT: the line was present and is now invalid      */
    uint8_t rdata[DUALOPT_RCACHE_LINE_MAX]; /* RD: the line                          */
} dualopt_rcache_res;

/* Reads line `line` from its home GPU into buf (line bytes). */
typedef void (*dualopt_rcache_fetch_fn)(void *ctx, uint64_t line, uint8_t *buf);
/* One write-back towards the home GPU, in issue order. */
typedef void (*dualopt_rcache_wb_fn)(void *ctx, const dualopt_rcache_wb *wb);

dualopt_rcache *dualopt_rcache_new(const dualopt_rcache_cfg *c);
void dualopt_rcache_free(dualopt_rcache *rc);
/* Every line invalid, ranks in way order, counters zero. */
void dualopt_rcache_reset(dualopt_rcache *rc);
/* One RD, WR or AT (KERNEL: use dualopt_rcache_flush). fetch is called on a read
 * miss and a partial-line write miss. Returns 0, -1 for another op. */
int dualopt_rcache_access(dualopt_rcache *rc, const dualopt_rcache_req *q, dualopt_rcache_fetch_fn fetch, void *ctx,
                  dualopt_rcache_res *r);
/* Kernel boundary: every dirty line written back through wb in ascending
 * (set, way) order, every line invalidated. *nwb: lines written back,
 * *ninv: valid lines invalidated. */
void dualopt_rcache_flush(dualopt_rcache *rc, dualopt_rcache_wb_fn wb, void *ctx, unsigned *nwb, unsigned *ninv);
/* Set and tag of a line address; the line address of (set, tag). */
unsigned dualopt_rcache_set_of(const dualopt_rcache *rc, uint64_t line);
uint64_t dualopt_rcache_tag_of(const dualopt_rcache *rc, uint64_t line);
uint64_t dualopt_rcache_line_of(const dualopt_rcache *rc, unsigned set, uint64_t tag);
/* Dirty lines, valid lines. */
unsigned dualopt_rcache_dirty_lines(const dualopt_rcache *rc);
unsigned dualopt_rcache_valid_lines(const dualopt_rcache *rc);

/* -------------------------------------------------------- timing shell -- */

/* Pipeline states (the RTL's state_q). */
enum {
    DUALOPT_RCACHE_S_INIT, DUALOPT_RCACHE_S_LOOK, DUALOPT_RCACHE_S_MWB, DUALOPT_RCACHE_S_MFETCH, DUALOPT_RCACHE_S_MFILL, DUALOPT_RCACHE_S_MDONE, DUALOPT_RCACHE_S_MFULL, DUALOPT_RCACHE_S_AWB,
    DUALOPT_RCACHE_S_AINV, DUALOPT_RCACHE_S_FRD, DUALOPT_RCACHE_S_FSCAN, DUALOPT_RCACHE_S_FWB, DUALOPT_RCACHE_S_FDONE
};

typedef struct {
    dualopt_rcache core;        /* the RAM contents: tag/state RAM and data RAM     */
    unsigned state;
    unsigned idx;       /* init / flush set counter                         */
    unsigned s1_valid, s1_op;
    uint64_t s1_addr, s1_mask;
    uint8_t s1_data[DUALOPT_RCACHE_LINE_MAX];
    unsigned m_way, m_wb, m_hit;
    unsigned fl_done;   /* ways of the flushed set already written back     */
    unsigned fl_wbs, fl_inv;
    uint8_t d_rdata[DUALOPT_RCACHE_LINE_MAX]; /* data RAM read register              */
    unsigned rsp_valid, rsp_kind, rsp_rd, rsp_wbs, rsp_inv;
    uint64_t rsp_line;
} dualopt_rcache_tm;

COHKIT_UNIT_TM_API(dualopt_rcache_tm, dualopt_rcache_cfg, dualopt_rcache_eval, dualopt_rcache_step,
                   uint64_t, uint64_t);

COHKIT_END_DECLS

#endif
