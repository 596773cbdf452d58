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
 * Functional core: rcache_new / rcache_access / rcache_flush (akita terms:
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

#define RCACHE_LINE_MAX 64

typedef struct {
    unsigned sets;      /* 2..65536, any value (modulo indexing)           */
    unsigned ways;      /* 2..32                                           */
    unsigned line;      /* bytes, power of two, 8..64                      */
    unsigned addr_bits; /* byte-address width, 16..63                      */
} rcache_cfg;

typedef struct {
    unsigned lb;        /* log2(line)                                      */
    unsigned ln;        /* line-address bits: addr_bits - lb               */
    unsigned k;         /* sets = odd << k                                 */
    unsigned odd;
    unsigned ib;        /* set-index bits: clog2(sets)                     */
    unsigned tw;        /* tag bits: ln - k (the line address above k)     */
    unsigned rb;        /* LRU rank bits: clog2(ways)                      */
    unsigned wb;        /* way-number bits: clog2(ways)                    */
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
} rcache_geom;

/* The paper's: 1,536 sets x 16 ways x 64 B = 1.5 MB, 48-bit addresses. */
void rcache_cfg_default(rcache_cfg *c);
/* "default", "fpga" (64 x 4 x 16 B = 4 KB, 32-bit addresses), "pow2"
 * (2,048 sets x 12 ways: the paper's capacity with a power-of-two index,
 * D22). 0 or -1. */
int rcache_cfg_preset(rcache_cfg *c, const char *name);
/* The options (cmodel/unit.h), behind rcache_cfg_option and rcache_cfg_args. */
extern const unit_opt_table rcache_opts;
int rcache_cfg_option(rcache_cfg *c, const char *name, const char *value, char *err, size_t len);
int rcache_cfg_check(const rcache_cfg *c, char *err, size_t len);
void rcache_geom_of(const rcache_cfg *c, rcache_geom *g);
void rcache_cfg_name(const rcache_cfg *c, char *buf, size_t len);
void rcache_cfg_args(const rcache_cfg *c, char *buf, size_t len);

/* ---------------------------------------------------------------- core -- */

/* Request operations (req_op_i). */
typedef enum { RC_RD = 0, RC_WR = 1, RC_AT = 2, RC_KERNEL = 3 } rcache_op;
/* Outcomes (rsp_kind_o). */
typedef enum {
    RC_HIT = 0,
    RC_MISS = 1,
    RC_WHIT = 2,
    RC_WMISS_FULL = 3,
    RC_WMISS_FETCH = 4,
    RC_FWD = 5,
    RC_FLUSH = 6
} rcache_kind;

typedef struct {
    unsigned valid;
    uint64_t tag;
    uint64_t dirty;     /* bit i: byte i written since the line was filled  */
    unsigned rank;      /* 0 most recently used .. ways - 1 least           */
} rcache_way;

typedef struct {
    rcache_cfg c;
    rcache_geom g;
    rcache_way *way;    /* sets x ways                                      */
    uint8_t *data;      /* sets x ways x line bytes                         */
    uint64_t hits, misses, whits, wmiss_full, wmiss_fetch, fwds, wbs, flushes;
} rcache;

typedef struct {
    rcache_op op;
    uint64_t addr;      /* byte address (any byte of the line)              */
    uint64_t mask;      /* WR: byte enables of the line (bit i = byte i)    */
    uint8_t data[RCACHE_LINE_MAX]; /* WR: the line's bytes at their offsets */
} rcache_req;

typedef struct {
    uint64_t line;      /* line address (byte address >> log2(line))        */
    uint64_t mask;      /* dirty bytes                                      */
    uint8_t data[RCACHE_LINE_MAX];
} rcache_wb;

typedef struct {
    rcache_kind kind;
    uint64_t line;
    unsigned nwb;       /* 0 or 1: the dirty victim (RD/WR) or line (AT)     */
    rcache_wb wb;
    unsigned inv;       /* AT: the line was present and is now invalid      */
    uint8_t rdata[RCACHE_LINE_MAX]; /* RD: the line                          */
} rcache_res;

/* Reads line `line` from its home GPU into buf (line bytes). */
typedef void (*rcache_fetch_fn)(void *ctx, uint64_t line, uint8_t *buf);
/* One write-back towards the home GPU, in issue order. */
typedef void (*rcache_wb_fn)(void *ctx, const rcache_wb *wb);

rcache *rcache_new(const rcache_cfg *c);
void rcache_free(rcache *rc);
/* Every line invalid, ranks in way order, counters zero. */
void rcache_reset(rcache *rc);
/* One RD, WR or AT (KERNEL: use rcache_flush). fetch is called on a read
 * miss and a partial-line write miss. Returns 0, -1 for another op. */
int rcache_access(rcache *rc, const rcache_req *q, rcache_fetch_fn fetch, void *ctx,
                  rcache_res *r);
/* Kernel boundary: every dirty line written back through wb in ascending
 * (set, way) order, every line invalidated. *nwb: lines written back,
 * *ninv: valid lines invalidated. */
void rcache_flush(rcache *rc, rcache_wb_fn wb, void *ctx, unsigned *nwb, unsigned *ninv);
/* Set and tag of a line address; the line address of (set, tag). */
unsigned rcache_set_of(const rcache *rc, uint64_t line);
uint64_t rcache_tag_of(const rcache *rc, uint64_t line);
uint64_t rcache_line_of(const rcache *rc, unsigned set, uint64_t tag);
/* Dirty lines, valid lines. */
unsigned rcache_dirty_lines(const rcache *rc);
unsigned rcache_valid_lines(const rcache *rc);

/* -------------------------------------------------------- timing shell -- */

/* Pipeline states (the RTL's state_q). */
enum {
    RCS_INIT, RCS_LOOK, RCS_MWB, RCS_MFETCH, RCS_MFILL, RCS_MDONE, RCS_MFULL, RCS_AWB,
    RCS_AINV, RCS_FRD, RCS_FSCAN, RCS_FWB, RCS_FDONE
};

typedef struct {
    rcache core;        /* the RAM contents: tag/state RAM and data RAM     */
    unsigned state;
    unsigned idx;       /* init / flush set counter                         */
    unsigned s1_valid, s1_op;
    uint64_t s1_addr, s1_mask;
    uint8_t s1_data[RCACHE_LINE_MAX];
    unsigned m_way, m_wb, m_hit;
    unsigned fl_done;   /* ways of the flushed set already written back     */
    unsigned fl_wbs, fl_inv;
    uint8_t d_rdata[RCACHE_LINE_MAX]; /* data RAM read register              */
    unsigned rsp_valid, rsp_kind, rsp_rd, rsp_wbs, rsp_inv;
    uint64_t rsp_line;
} rcache_tm;

rcache_tm *rcache_tm_new(const rcache_cfg *c);
void rcache_tm_free(rcache_tm *t);
void rcache_tm_reset(rcache_tm *t);
void rcache_eval(const rcache_tm *t, const uint64_t *in, uint64_t *out);
void rcache_step(rcache_tm *t, const uint64_t *in);

COHKIT_END_DECLS

#endif
