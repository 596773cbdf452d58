/*
 * ./tb_dualopt --gpu: the GPU in every mode (cmodel/dualopt/dualopt_gpu.h), per
 * kernel kind the mode the decision engine chose, the link traffic and the
 * RDMA cache figures, beside the same kernel with every optimisation off,
 * and the check of every loaded byte and of the memory after every flush.
 */
#ifndef DUALOPT_GPU_TB_H
#define DUALOPT_GPU_TB_H

#include "dualopt_gpu.h"
#include "dut.h"

/* 1 when argv asks for the GPU bench (--gpu). */
int dualopt_gpu_wanted(int argc, char **argv);
/* Runs it: 0 pass, 1 fail, 2 bad option (one line on stderr, nothing on stdout). */
int dualopt_gpu_main(int argc, char **argv, const dut_ops *const *duts);
/* Replays GPU gpu's RDMA cache stream (dualopt_gpu_opts.rclog) into the Verilated
 * dualopt_rcache_default of duts. 0, or -1 with the first difference. */
int dualopt_gpu_rtl_rcache(const dut_ops *const *duts, const dualopt_gpu_rc_log *l, unsigned gpu,
                           uint64_t *cycles, char *msg, size_t len);
/* Replays GPU gpu's decision engine stream (dualopt_gpu_opts.delog) into the
 * Verilated dualopt_de_<preset>. 0, or -1 with the first difference. */
int dualopt_gpu_rtl_de(const dut_ops *const *duts, const char *preset, const dualopt_gpu_de_log *l,
                       unsigned gpu, uint64_t *cycles, char *msg, size_t len);
/* Default accesses per GPU and kernel of a kind. */
unsigned dualopt_gpu_default_ops(dualopt_gpu_kind kind);

#endif
