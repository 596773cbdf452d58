/*
 * DualOpt SCBU (selective cache bypassing unit) in an L1 cache controller:
 * two registers hold the local physical range [start, end); a read outside
 * it bypasses the L1 when the GPU is in coalescing mode.
 *
 * Paper: Belayneh et al. (PACT 2022), section 4.1.2, Fig. 7c, Table 1.
 * Reading D10 of the DualOpt specification (docs/paper-notes.md): the range
 * is half-open; writes and atomics take the conventional path in every
 * mode; bypass = !local && read && coalescing.
 */
#ifndef DUALOPT_SCBU_H
#define DUALOPT_SCBU_H

#include <stddef.h>
#include <stdint.h>

#include "cohkit.h"
#include "unit.h"

COHKIT_BEGIN_DECLS

/* Operations, as driven on acc_op_i (3 is reserved and never a read). */
typedef enum { DUALOPT_SCBU_RD = 0, DUALOPT_SCBU_WR = 1, DUALOPT_SCBU_AT = 2 } dualopt_scbu_op;

typedef struct {
    unsigned addr_bits; /* physical byte-address width, 16..63              */
    uint64_t start;     /* reset value of the start register                */
    uint64_t end;       /* reset value of the end register (exclusive)      */
    unsigned enable;    /* reset value of the coalescing-mode register      */
} dualopt_scbu_cfg;

/* Range registers are addr_bits + 1 wide so that end may be 2^addr_bits. */
typedef struct {
    unsigned range_bits;
} dualopt_scbu_geom;

/* The paper's GPU 0 with 4 GB of HBM (Table 1): [0, 4 GB), 48-bit
 * addresses, coalescing mode. */
void dualopt_scbu_cfg_default(dualopt_scbu_cfg *c);
void dualopt_scbu_geom_of(const dualopt_scbu_cfg *c, dualopt_scbu_geom *g);
/* Presets "default", "fpga" (32-bit addresses, [256 MB, 512 MB))
 * (cmodel/unit.h). */
COHKIT_UNIT_CFG_API(dualopt_scbu, const);

/* ---------------------------------------------------------------- core -- */

typedef struct {
    unsigned addr_bits;
    uint64_t start, end;  /* [start, end), range_bits wide */
    unsigned coalesce;    /* mode == COALESCE              */
} dualopt_scbu;

typedef struct {
    unsigned local;       /* start <= addr < end           */
    unsigned bypass;      /* !local && read && coalescing  */
} dualopt_scbu_res;

void dualopt_scbu_init(dualopt_scbu *s, const dualopt_scbu_cfg *c);
/* Reprograms the range (the driver's register writes). */
void dualopt_scbu_set_range(dualopt_scbu *s, uint64_t start, uint64_t end);
/* The decision engine's mode: 1 in COALESCE, 0 otherwise. */
void dualopt_scbu_set_mode(dualopt_scbu *s, unsigned coalesce);
/* One access after address translation. */
dualopt_scbu_res dualopt_scbu_access(const dualopt_scbu *s, dualopt_scbu_op op, uint64_t addr);

/* -------------------------------------------------------- timing shell -- */

/* Port values: inputs rst_ni, cfg_valid_i, cfg_start_i, cfg_end_i,
 * en_valid_i, en_coalesce_i, acc_valid_i, acc_op_i, acc_addr_i,
 * res_ready_i; outputs acc_ready_o, res_valid_o, res_op_o, res_addr_o,
 * res_local_o, res_bypass_o. */
enum { DUALOPT_SCBU_I_RST, DUALOPT_SCBU_I_CFG_VALID, DUALOPT_SCBU_I_CFG_START, DUALOPT_SCBU_I_CFG_END, DUALOPT_SCBU_I_EN_VALID,
       DUALOPT_SCBU_I_EN_COALESCE, DUALOPT_SCBU_I_ACC_VALID, DUALOPT_SCBU_I_ACC_OP, DUALOPT_SCBU_I_ACC_ADDR, DUALOPT_SCBU_I_RES_READY,
       DUALOPT_SCBU_I_N };
enum { DUALOPT_SCBU_O_ACC_READY, DUALOPT_SCBU_O_RES_VALID, DUALOPT_SCBU_O_RES_OP, DUALOPT_SCBU_O_RES_ADDR, DUALOPT_SCBU_O_RES_LOCAL,
       DUALOPT_SCBU_O_RES_BYPASS, DUALOPT_SCBU_O_N };

typedef struct {
    dualopt_scbu_cfg c;
    dualopt_scbu regs;             /* range and mode registers           */
    unsigned res_valid;    /* output register stage              */
    unsigned res_op, res_local, res_bypass;
    uint64_t res_addr;
} dualopt_scbu_tm;

COHKIT_UNIT_TM_API(dualopt_scbu_tm, dualopt_scbu_cfg, dualopt_scbu_eval, dualopt_scbu_step, uint64_t,
                   uint64_t);

COHKIT_END_DECLS

#endif
