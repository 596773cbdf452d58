/*
 * The Verilated counterpart of the cycle-level GPU (cmodel/dualopt/dualopt_sys.h):
 * the same composition with every block run by its Verilated RTL (tb/dut.h:
 * seven per GPU), in lockstep with the composition of timing shells, every
 * port of every block compared every cycle; then the statistics, and the
 * check (dualopt_gpu_check) of both: every loaded byte and the memory image after
 * every flush. ./tb_dualopt --sys and the Criterion tests use it.
 */
#ifndef DUALOPT_SYS_TB_H
#define DUALOPT_SYS_TB_H

#include <stdio.h>

#include "compose_rtl.h"
#include "dualopt_sys.h"
#include "dut.h"

/* A stuck output bit of one Verilated block (tests). */
typedef struct {
    int on;
    unsigned gpu;
    const char *unit;        /* "dualopt-rcache" ...                         */
    const char *port;        /* an output port                               */
    unsigned bit, value;     /* bit of the port stuck at value               */
} sys_stuck_bit;

typedef struct {
    int rtl, done, mismatch, check_ok, check_rtl_ok;
    char msg[512], check_msg[512];
    dualopt_sys_stats c, r;
    dualopt_gpu_check_res chk;
    uint64_t cycles;
    double seconds;
} sys_tb_res;

/* 0: completed, equal, check passed; 1: otherwise; -1: setup error. */
int sys_tb_run(const dualopt_sys_opts *o, const dualopt_gpu_kernel *k, const dut_ops *const *duts,
               const sys_stuck_bit *stuck, sys_tb_res *r);
/* The same with the platform's lockstep options (tb/compose_rtl.h). */
int sys_tb_run_ls(const dualopt_sys_opts *o, const dualopt_gpu_kernel *k, const cmp_lockstep_opts *lo,
                  sys_tb_res *r);

int dualopt_sys_wanted(int argc, char **argv);
int dualopt_sys_main(int argc, char **argv, const dut_ops *const *duts);
void dualopt_sys_help(FILE *f);

#endif
