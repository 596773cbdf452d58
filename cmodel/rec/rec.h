/*
 * REC range-coalescing coherence directory: configuration, geometry, golden
 * model (functional core and cycle-accurate timing shell).
 *
 * Paper: Ko et al., "REC: Enhancing fine-grained cache coherence protocol in
 * multi-GPU systems": entry format of section 4.1 / Fig. 9 / Table 1, protocol
 * flows of section 4.2 / Fig. 10, baseline and HMG directories of sections 2.3
 * and 5.2. Readings of ambiguous passages are listed in docs/paper-notes.md.
 *
 * One configuration struct and one validator serve the generator (gen/), the
 * model and the benches (tb/); rec_geom_of() derives every width once.
 */
#ifndef REC_H
#define REC_H

#include <stddef.h>
#include <stdint.h>

#include "cohkit.h"
#include "unit.h"

COHKIT_BEGIN_DECLS

typedef enum { REC_MODE_REC = 0, REC_MODE_LINE = 1, REC_MODE_HMG = 2 } rec_mode;
typedef enum { REC_REPL_FIFO = 0, REC_REPL_LRU = 1 } rec_repl;
typedef enum { REC_STORE_FULL = 0, REC_STORE_PACKED = 1 } rec_store;

/* Request opcodes, as driven on req_op_i. */
typedef enum { REC_OP_RR = 0, REC_OP_LW = 1, REC_OP_RW = 2, REC_OP_NOP = 3 } rec_op;

typedef struct {
    unsigned gpus;      /* GPUs in the system, 2..16                        */
    unsigned entries;   /* directory entries, power of two                  */
    unsigned ways;      /* associativity, power of two, 1..16, <= entries   */
    unsigned range;     /* coalescing range in bytes (rec mode)             */
    unsigned line;      /* cache line in bytes, power of two, 4..4096       */
    unsigned addr_bits; /* physical byte-address width, 16..64              */
    unsigned group;     /* lines per HMG entry (hmg mode)                   */
    rec_mode mode;
    rec_repl repl;
    rec_store store;    /* full: base address stored whole (Table 1);
                           packed: set-index bits not stored in the tag     */
} rec_cfg;

/* Every derived width, computed in one place (rec_geom_of). */
typedef struct {
    unsigned sets, index_bits;     /* index_bits is 0 when sets == 1       */
    unsigned line_bits;            /* log2(line)                           */
    unsigned slots;                /* position slots per entry (S)         */
    unsigned lines_per_slot;       /* L: 1, or the HMG group               */
    unsigned lines;                /* lines covered by one entry, S*L      */
    unsigned range_bytes;          /* S*L*line                             */
    unsigned span_bits;            /* log2(S*L): line-address bits in range*/
    unsigned slot_bits;            /* log2(S)                              */
    unsigned lps_bits;             /* log2(L)                              */
    unsigned has_pos;              /* 1 when S > 1: a position bit per slot*/
    unsigned sharer_bits;          /* gpus - 1 (home GPU is not a sharer)  */
    unsigned slot_width;           /* has_pos + sharer_bits                */
    unsigned vec_bits;             /* S * slot_width                       */
    unsigned gpu_bits;             /* width of GPU id ports, >= 1          */
    unsigned laddr_bits;           /* line-address width: addr - line_bits */
    unsigned base_bits;            /* line address >> span_bits            */
    unsigned tag_bits;             /* stored tag (full: base, packed: less)*/
    unsigned entry_bits;           /* stored: valid + tag + vector         */
    unsigned rank_bits;            /* replacement rank per way, log2(ways) */
    unsigned set_bits;             /* one memory word: ways*(entry+rank)   */
    unsigned paper_base_bits;      /* Table 1 accounting                   */
    unsigned paper_entry_bits;
    unsigned packed_entry_bits;
    uint64_t paper_total_bits;     /* entries * paper_entry_bits           */
    uint64_t packed_total_bits;
    uint64_t stored_total_bits;    /* entries * entry_bits                 */
    uint64_t repl_total_bits;      /* sets * ways * rank_bits              */
} rec_geom;

/* Fills cfg with the paper's configuration (4 GPUs, 8192 entries, 8 ways,
 * 1 kB range, 64 B lines, 48-bit addresses, LRU, rec mode, full store). */
void rec_cfg_default(rec_cfg *cfg);

/* Named configurations "default", "fpga", "baseline", "hmg"; options such as
 * "gpus" and "repl"; module names such as rec_g4_e8192_w8_r1024_l64_a48_lru_full
 * (cmodel/unit.h). */
COHKIT_UNIT_CFG_API(rec, const);
const char *const *rec_preset_names(void);

/* Derives widths; cfg must have passed rec_cfg_check. */
void rec_geom_of(const rec_cfg *cfg, rec_geom *g);

const char *rec_mode_str(rec_mode m);
const char *rec_repl_str(rec_repl r);
const char *rec_op_str(rec_op op);

/* ---------------------------------------------------------------- core -- */

typedef struct {
    uint8_t valid;
    uint8_t rank;          /* replacement rank: 0 newest .. ways-1 oldest */
    uint64_t tag;          /* stored tag                                   */
    uint64_t pos;          /* position bit per slot (bit s = slot s)       */
    uint16_t *sh;          /* S sharer vectors, bit j = j-th non-home GPU  */
} rec_entry;

typedef struct {
    uint64_t req[4];           /* requests seen, by rec_op               */
    uint64_t hits, misses;     /* remote ops and local writes, by lookup */
    uint64_t allocs, evictions, evicted_lines;
    uint64_t invalidations;    /* INV messages emitted                   */
    uint64_t write_invs, evict_invs;
    uint64_t entry_frees;      /* entries freed by a local write         */
    uint64_t ignored;          /* remote ops from the home or a bad GPU  */
} rec_stats;

typedef struct {
    rec_cfg cfg;
    rec_geom g;
    unsigned home;             /* home GPU id (the home_i strap)          */
    rec_entry *ent;            /* sets * ways, set-major                  */
    uint16_t *sh_store;
    rec_stats st;
} rec_dir;

/* Invalidation sink: one call per INV message, in emission order. line is
 * a line address (byte address >> line_bits), mask bit g stands for GPU g. */
typedef void (*rec_emit_fn)(void *ctx, uint64_t line, uint32_t mask);

/* Allocates a directory for a checked cfg. Returns NULL on out-of-memory. */
rec_dir *rec_dir_new(const rec_cfg *cfg);
void rec_dir_free(rec_dir *d);
/* Empties every entry, restores replacement order, clears statistics. */
void rec_dir_reset(rec_dir *d);

/* Functional core: one transaction at line address `line` from GPU `src`
 * (ignored for REC_OP_LW), following section 4.2. Invalidations go to emit
 * in ascending line order. */
void rec_core_access(rec_dir *d, rec_op op, uint64_t line, unsigned src,
                     rec_emit_fn emit, void *ctx);

/* Fig. 9 entry vector of (set, way): {valid, base address, S slots of
 * [position, sharers]} packed little-endian into words[] (32-bit words, the
 * Verilator order). Returns the width in bits (paper accounting). */
unsigned rec_entry_vector(const rec_dir *d, unsigned set, unsigned way,
                          uint32_t *words, unsigned nwords);
/* Base address (line address >> span_bits) of a valid (set, way). */
uint64_t rec_entry_base(const rec_dir *d, unsigned set, unsigned way);

/* -------------------------------------------------------- timing shell -- */

/* Port values, one uint64_t per port in port-table order (rst_ni first,
 * then cmodel/rec/rec_ports.def): the field names are those of the RTL ports,
 * and a struct can be read as an array of uint64_t by the benches. */
#define REC_PORT_IN(n) uint64_t n;
#define REC_PORT_OUT(n)
#define REC_PORT(d, n, w) REC_PORT_##d(n)
typedef struct {
    uint64_t rst_ni;
#include "rec_ports.def"
} rec_in;
#undef REC_PORT_IN
#undef REC_PORT_OUT
#define REC_PORT_IN(n)
#define REC_PORT_OUT(n) uint64_t n;
typedef struct {
#include "rec_ports.def"
} rec_out;
#undef REC_PORT_IN
#undef REC_PORT_OUT
#undef REC_PORT

#define REC_JOB_MAX 64

typedef struct {
    rec_dir *dir;
    unsigned home_q;                       /* home_i sampled each cycle    */
    unsigned init_busy, init_idx;          /* memory-clearing sweep        */
    unsigned s1_valid;                     /* compare stage                */
    unsigned s1_op, s1_src;
    uint64_t s1_addr;
    unsigned s2_valid;                     /* update stage                 */
    unsigned s2_op, s2_src;
    uint64_t s2_addr;
    unsigned job_n, job_head;              /* invalidation stream          */
    uint64_t job_line[REC_JOB_MAX];
    uint32_t job_mask[REC_JOB_MAX];
} rec_tm;

/* The timing shell owns its directory; its reset is what rst_ni low
 * produces (cmodel/unit.h). */
COHKIT_UNIT_TM_API(rec_tm, rec_cfg, rec_eval, rec_step, rec_in, rec_out);

/* Latency in cycles from request acceptance to its first INV on the port. */
#define REC_INV_LATENCY 3

COHKIT_END_DECLS

#endif
