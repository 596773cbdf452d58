/*
 * The Verilated counterpart of the DualOpt end-to-end composition
 * (cmodel/dualopt/dualopt_e2e.h): the same composition with every unit instance run
 * by its Verilated RTL (tb/dut.h, one instance per unit per GPU), in
 * lockstep with the composition of timing shells; every port value of every
 * block is compared every cycle, and the traffic figures and lane data at
 * the end. Used by ./tb_dualopt (--e2e) and the Criterion tests.
 */
#ifndef DUALOPT_E2E_TB_H
#define DUALOPT_E2E_TB_H

#include <stdio.h>

#include "compose_rtl.h"
#include "dualopt_e2e.h"
#include "dut.h"

typedef struct {
    int rtl;                  /* 1: Verilated composition beside the C one    */
    int done;                 /* every load served, system empty              */
    int mismatch;             /* RTL and C composition differed               */
    char msg[512];            /* the first mismatch or setup error            */
    dualopt_e2e_traffic c, r;         /* traffic of the C and the RTL composition     */
    dualopt_e2e_check_res chk;        /* check of the C composition's lanes           */
    dualopt_e2e_check_res chk_rtl;    /* ... and of the RTL composition's             */
    int check_ok, check_rtl_ok;
    char check_msg[512];
    double seconds;
} e2e_tb_res;

/* Runs the composition on kernel k: the C shells alone (dut_table NULL) or
 * the Verilated units of dut_table beside them. Returns 0 when the run
 * completed, the compositions agreed and the check passed; 1 otherwise
 * (mismatch, stuck run or failed check); -1 on a setup error. */
int e2e_tb_run(const dualopt_e2e_opts *o, const dualopt_e2e_kernel *k, const dut_ops *const *dut_table,
               e2e_tb_res *r);
/* The same with the platform's lockstep options (tb/compose_rtl.h): the
 * units substituted, a stuck bit, the failing window's files. */
int e2e_tb_run_ls(const dualopt_e2e_opts *o, const dualopt_e2e_kernel *k, const cmp_lockstep_opts *lo,
                  e2e_tb_res *r);

/* ./tb_dualopt's family hook (tb/tb_main.c): without arguments, every unit's
 * lockstep bench then the composition; with --e2e, --gpus, --kernel, --mode
 * or --loads, the composition alone. Sets *handled when it ran. */
int dualopt_tb_hook(int argc, char **argv, int *handled, const dut_ops *const *duts,
                    int (*run_unit)(int argc, char **argv));
/* Its lines of ./tb_dualopt --help. */
void dualopt_tb_help(FILE *f);

#endif
