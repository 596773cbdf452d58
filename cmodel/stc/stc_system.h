/*
 * STC system model (docs/stc.md "System model"; specification 7.3, 7.4): K
 * CUs, each with a thread, the epoch logic with its BSQ (stc_cu.h) and an L1
 * (stc_l1.h); the EMU (stc_emu.h); a shared L2 and memory. Composed from
 * the units' functional cores; this file adds only what lies between them:
 * the threads (program order, coalescer rule), message latencies, the drain
 * FIFO into the L1, the L2 / memory timing and the event log.
 */
#ifndef STC_SYSTEM_H
#define STC_SYSTEM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"
#include "stc_check.h"
#include "stc_cu.h"
#include "stc_emu.h"
#include "stc_l1.h"
#include "stc_prog.h"

COHKIT_BEGIN_DECLS

typedef struct {
    stc_emu_cfg emu;     /* variant, n, seb, bounds, addr-bits, cus, mb-max,
                            seb-guard, wake, epoch                            */
    stc_cu_cfg cu;       /* the same, and bsq, banks, drain                   */
    stc_l1_cfg l1;       /* sets, ways, line, mshrs, no-poison, no-lazy       */
    unsigned l2_lat;     /* --l2-lat: L2 round trip in cycles, 2.. (160)      */
    unsigned mem_lat;    /* --mem-lat: round trip of an L2 miss (260)         */
    unsigned msg_lat;    /* --msg-lat: CU <-> EMU message latency, 1.. (2)    */
    int slow_cu;         /* --slow-cu C:D: responses to CU C take D cycles
                            longer (-1: none)                                 */
    unsigned slow_d;
    uint64_t max_cycles; /* --max-cycles (200000)                             */
} stc_sys_cfg;

/* The specification's defaults, 2 CUs. */
void stc_sys_cfg_default(stc_sys_cfg *c);
/* "default" (2 CUs, the paper's units), "fpga" (2 CUs, the units' fpga
 * presets). 0, or -1. */
int stc_sys_cfg_preset(stc_sys_cfg *c, const char *name);
/* One option (name without dashes); the units' options reach every unit
 * that has them. 0; 1 not an option; -1 with a one-line reason. */
int stc_sys_cfg_option(stc_sys_cfg *c, const char *name, const char *value, char *err,
                       size_t len);
int stc_sys_cfg_check(stc_sys_cfg *c, char *err, size_t len);
void stc_sys_cfg_args(const stc_sys_cfg *c, char *buf, size_t len);

/* The checker's configuration for the logs of system c (the one stc_sys_run
 * judges them with; stc-check options: cus, n, seb, line, addr-bits,
 * seb-guard, variant, epoch). */
void stc_sys_chk_cfg(const stc_sys_cfg *c, stc_chk_cfg *k);

/* Result of a run. */
typedef struct {
    uint64_t cycles;       /* last cycle simulated                           */
    int timeout;           /* max_cycles reached before the program finished */
    uint64_t transitions, sleeps, seb_changes;
    unsigned final_seb;
    unsigned max_bsq;      /* largest BSQ occupancy of any CU                */
} stc_sys_stats;

/* Runs program p. Writes the specification 7.3 output to out (EPOCH lines,
 * `@<cycle>` when `cycles`; LDV, AMOV, MEM; the checker's VIOL lines, a
 * timeout VIOL; RESULT; the statistics comment) and, when log is not NULL,
 * the 7.4 event log. The RESULT comes from stc-check run on the log
 * (stc_check.h): the system does not judge itself. Returns the number of
 * violations (0: PASS), or -1 when out of memory. st may be NULL. */
long stc_sys_run(const stc_sys_cfg *c, const stc_prog *p, int cycles, FILE *out, FILE *log,
                 stc_sys_stats *st);

COHKIT_END_DECLS

#endif
