/*
 * DualOpt BGU (bitmask generation unit) beside the CU coalescer: one
 * wavefront load becomes one request per distinct line, in first-touch
 * order, each with the mask of the words its lanes read and the mask of the
 * lanes it serves.
 *
 * Paper: Belayneh et al., "Locality-aware Optimizations for Improving Remote
 * Memory Latency in Multi-GPU Systems" (PACT 2022), section 4.1.1, Fig. 7b,
 * Table 1. Reading D13 of the DualOpt specification (docs/paper-notes.md):
 * every G-byte word a lane's bytes overlap is set, a line-crossing lane
 * access feeds two requests.
 *
 * One configuration struct and one validator serve the generator, the model
 * and the benches; dualopt_bgu_geom_of() derives every width once.
 */
#ifndef DUALOPT_BGU_H
#define DUALOPT_BGU_H

#include <stddef.h>
#include <stdint.h>

#include "cohkit.h"
#include "unit.h"

COHKIT_BEGIN_DECLS

#define DUALOPT_BGU_LANES_MAX 64

typedef struct {
    unsigned lanes;     /* lanes per wavefront, 1..64 (GCN: 64)             */
    unsigned line;      /* line in bytes, power of two, 32..1024            */
    unsigned gran;      /* mask granularity G in bytes: 4, 8 or 16          */
    unsigned addr_bits; /* byte-address width, 16..64                       */
} dualopt_bgu_cfg;

typedef struct {
    unsigned line_bits;   /* log2(line)                                      */
    unsigned gran_bits;   /* log2(gran)                                      */
    unsigned words;       /* mask width: line / gran, 2..64                  */
    unsigned laddr_bits;  /* line-address width: addr_bits - line_bits       */
    unsigned addr_port;   /* lanes * addr_bits: the address vector port      */
    unsigned addr_words;  /* uint64_t words of that port                     */
    /* word offsets of the port values (cmodel/unit.h layout) */
    unsigned in_valid, in_active, in_addr, in_size, in_ready, in_words;
} dualopt_bgu_geom;

/* The paper's parameters: 64 lanes, 64-byte lines, 4-byte words, 48-bit
 * addresses. */
void dualopt_bgu_cfg_default(dualopt_bgu_cfg *c);
void dualopt_bgu_geom_of(const dualopt_bgu_cfg *c, dualopt_bgu_geom *g);
/* Presets "default", "fpga", "gran8", "gran16"; module names such as
 * dualopt_bgu_n64_l64_g4_a48 (cmodel/unit.h). */
COHKIT_UNIT_CFG_API(dualopt_bgu, const);

/* ---------------------------------------------------------------- core -- */

/* One wavefront load: lane i is active when bit i of `active` is set, with
 * byte address addr[i]; every lane reads `size` bytes (1..16). */
typedef struct {
    uint64_t active;
    uint64_t addr[DUALOPT_BGU_LANES_MAX];
    unsigned size;
} dualopt_bgu_load;

/* One request: line address (byte address >> line_bits), word mask (bit i =
 * word i of the line), lane mask (bit i = lane i). */
typedef struct {
    uint64_t line;
    uint64_t mask;
    uint64_t lanes;
} dualopt_bgu_req;

/* Functional core (dualopt_bgu_inst): the requests of one load in first-touch
 * order (lane ascending, then the lane's words ascending). Writes at most
 * 2 * lanes requests to out; returns their count. Addresses wrap at
 * addr_bits. */
unsigned dualopt_bgu_inst(const dualopt_bgu_cfg *c, const dualopt_bgu_load *ld, dualopt_bgu_req *out);

/* -------------------------------------------------------- timing shell -- */

/* Port values (cmodel/unit.h): inputs rst_ni, inst_valid_i, inst_active_i,
 * inst_addr_i (lanes x addr_bits, lane 0 least significant, addr_words
 * words), inst_size_i (size - 1), req_ready_i; outputs in the order below. */
enum { DUALOPT_BGU_O_INST_READY, DUALOPT_BGU_O_REQ_VALID, DUALOPT_BGU_O_REQ_LINE, DUALOPT_BGU_O_REQ_MASK, DUALOPT_BGU_O_REQ_LANES,
       DUALOPT_BGU_O_REQ_LAST, DUALOPT_BGU_O_N };

/* The registered input stage: the accepted load as parts (a low part per
 * active lane, a high part per line-crossing lane), each with its line and
 * words, the parts not yet requested and `line`, the line of the request
 * (the lowest pending part's). */
typedef struct {
    dualopt_bgu_cfg c;
    dualopt_bgu_geom g;
    uint64_t pend_lo, pend_hi; /* parts of the held load not yet requested */
    uint64_t line;             /* the request's line (a register)          */
    uint64_t lo_line[DUALOPT_BGU_LANES_MAX], hi_line[DUALOPT_BGU_LANES_MAX];
    uint64_t lo_mask[DUALOPT_BGU_LANES_MAX], hi_mask[DUALOPT_BGU_LANES_MAX];
} dualopt_bgu_tm;

COHKIT_UNIT_TM_API(dualopt_bgu_tm, dualopt_bgu_cfg, dualopt_bgu_eval, dualopt_bgu_step, uint64_t,
                   uint64_t);
/* Packs a load into the input words (valid, active, addresses, size). */
void dualopt_bgu_pack(const dualopt_bgu_tm *t, const dualopt_bgu_load *ld, uint64_t *in);

COHKIT_END_DECLS

#endif
