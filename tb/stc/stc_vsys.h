/*
 * STC port-level system with Verilated units (docs/stc.md "Verilated
 * system"): the EMU and K per-CU epoch-logic blocks (with their BSQ inline),
 * each either the unit's timing shell (cmodel unit descriptor tm_eval /
 * tm_step) or the committed Verilated module (dut_ops), connected through
 * their valid/ready ports by message queues of the composition, with a
 * write-through L2 behind each CU. The run writes the specification 7.4
 * event log; the verdict comes from the separate checker (stc_check.h) run
 * on that log text.
 */
#ifndef STC_VSYS_H
#define STC_VSYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dut.h"
#include "unit.h"

/* Which unit kinds run as Verilated RTL (the others as timing shells). */
enum { VSYS_RTL_EMU = 1, VSYS_RTL_CU = 2, VSYS_RTL_L1 = 4 };

typedef struct {
    const char *preset;   /* configuration of every unit: "fpga" or "default" */
    unsigned rtl;         /* VSYS_RTL_* mask                                  */
    int l1;               /* 1: an L1 controller (stc-l1) between each CU and
                             the L2; 0: the CU's ports go to the L2 directly */
    uint64_t seed;        /* stimulus seed                                    */
    unsigned ops;         /* stores + loads per CU                            */
    unsigned l2_lat;      /* L2 round trip (PERF / RD at half of it)          */
    unsigned msg_lat;     /* CU <-> EMU message latency, 1..                  */
    uint64_t max_cycles;  /* give up (the log ends there: progress VIOLs)     */
    /* A broken unit (tests): from cycle fault_from on, output port
     * fault_port of block fault_blk ("emu", "cu0", "cu1", ...) is forced to
     * fault_val. NULL: none. */
    const char *fault_blk, *fault_port;
    uint64_t fault_val, fault_from;
    int slow_cu;          /* load responses (line data) to this CU take
                             slow_d cycles longer (-1: none)                  */
    unsigned slow_d;
    const char *l1_opts;  /* more generator options of the L1 (timing shells
                             only, e.g. "--no-poison"); NULL: the preset     */
    /* Directed stimulus (instead of the random one): n_script operations
     * in cycle order; each is presented at its CU's port from its cycle on,
     * after the CU's previous one of the script. */
    const struct vsys_op { uint64_t cycle; unsigned cu; int store; uint64_t addr; } *script;
    unsigned n_script;
} vsys_opts;

void vsys_opts_default(vsys_opts *o);

typedef struct {
    uint64_t cycles;
    uint64_t stores, loads, issued, blocked, drained, demands, conflicts;
    uint64_t transitions, sleeps, seb_changes;
    uint64_t hits, fills, invs, stalls, l1_errs; /* L1 events (l1 = 1)        */
    unsigned final_seb;
    int timeout;
    size_t viol;          /* the checker's violations, +1 on a timeout       */
    char *log;            /* the event log (malloc'ed)                       */
    char *check;          /* the checker's output (VIOL lines, RESULT)       */
} vsys_res;

/* Runs the system. 0 (res filled, the verdict in res->viol), or -1 with a
 * one-line reason in err (no Verilated module, out of memory). duts may be
 * NULL when rtl is 0. */
int vsys_run(const vsys_opts *o, const dut_ops *const *duts, vsys_res *r, char *err, size_t len);
void vsys_res_free(vsys_res *r);

/* Port lockstep of the system of o (o->rtl) against the all-shell system
 * (no fault there), side by side on the platform (tb/compose_rtl.h): every
 * port of every block compared every cycle; the first difference names the
 * cycle, the block, the port and both values. 0 equal (*cycles compared),
 * 1 differ (msg, *cycles: the cycle), -1 error (msg). */
int vsys_lockstep(const vsys_opts *o, const dut_ops *const *duts, uint64_t *cycles, char *msg,
                  size_t len);

/* ./tb_stc's family hook (tb/tb_main.c) and its --help lines. */
int stc_tb_hook(int argc, char **argv, int *handled, const dut_ops *const *duts,
                int (*run_unit)(int argc, char **argv));
void stc_tb_help(FILE *f);

#endif
