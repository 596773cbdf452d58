/*
 * HALCONE system with Verilated units (docs/halcone.md "Verilated system"):
 * the system model (cmodel/halcone/halcone_system.c) with its TSUs and its caches
 * (every L1 and L2 bank) substituted by port-level units: the timing shells
 * alone, or the committed Verilated modules run in lockstep with their
 * shells (every output compared every cycle). The run writes the event log
 * of spec 7.4 (with the event lines); the verdict comes from the separate
 * checker (cmodel/halcone/halcone_check.h) run on that log, and the log must equal
 * the log of the all-functional-model system.
 */
#ifndef HALCONE_VSYS_H
#define HALCONE_VSYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dut.h"
#include "halcone_system.h"

/* Which unit kinds run as Verilated RTL (the others as timing shells). */
enum { HVSYS_RTL_TSU = 1, HVSYS_RTL_CACHE = 2 };

typedef struct {
    const char *rules;     /* "safe" (committed default) or "paper"           */
    unsigned rtl;          /* HVSYS_RTL_* mask                                */
    int model;             /* 1: functional cores only (the reference run)    */
    unsigned gpus, cus, l2_banks, tsus;
    uint64_t seed;         /* back-pressure and fill delays                   */
    /* A broken unit (tests): output port fault_port of the Verilated cache
     * fault_unit ("l1_<i>" or "l2_<i>", i the system's index) has the bits
     * fault_mask forced to fault_val from cycle fault_from of that unit on;
     * fault_cmp 0: no per-cycle comparison with its shell. */
    const char *fault_unit, *fault_port;
    uint64_t fault_mask, fault_val, fault_from;
    int fault_cmp;
} hvsys_opts;

void hvsys_opts_default(hvsys_opts *o);

typedef struct {
    char *log;             /* the event log, with event lines (malloc'ed)     */
    char *check;           /* the checker's CHECK / INVARIANT lines           */
    uint64_t violations;   /* the checker's count                             */
    uint64_t loads, stores, cycles; /* cycles: summed over the port-level units */
    uint64_t victims;      /* L1 and L2 LRU victims and TSU notices seen      */
    int failed;            /* a unit failed (mismatch, protocol, no answer)   */
    char why[300];
} hvsys_res;

/* The system configuration a run uses (the committed units' geometry:
 * L1 and L2 banks 64 x 4, TSU 512 x 8, W 16). */
void hvsys_cfg(const hvsys_opts *o, halcone_sys_cfg *c);

/* Runs cmds on the system of o. 0 (res filled), or -1 with a reason in err
 * (configuration, no Verilated module). duts may be NULL without RTL. */
int hvsys_run(const hvsys_opts *o, const dut_ops *const *duts, const halcone_sys_cmd *cmds, size_t n,
              hvsys_res *res, char *err, size_t len);
void hvsys_res_free(hvsys_res *r);

/* A random program (halcone-gen random) whose lines alias in the units'
 * sets (LRU victims in the L1s and L2 banks, eviction notices). */
int hvsys_program(const hvsys_opts *o, unsigned ops, unsigned lines, uint64_t seed,
                  halcone_sys_cmd **cmds, size_t *n, char *err, size_t len);

/* ./tb_halcone's family hook (tb/tb_main.c) and its --help lines. */
int halcone_tb_hook(int argc, char **argv, int *handled, const dut_ops *const *duts,
                    int (*run_unit)(int argc, char **argv));
void halcone_tb_help(FILE *f);

#endif
