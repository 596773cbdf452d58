/*
 * ./tb_dualopt --gpu: the GPU in every mode (cmodel/dualopt_gpu.h), per
 * kernel kind the mode the decision engine chose, the link traffic and the
 * RDMA cache figures, beside the same kernel with every optimisation off,
 * and the check of every loaded byte and of the memory after every flush.
 */
#ifndef DUALOPT_GPU_TB_H
#define DUALOPT_GPU_TB_H

#include "dualopt_gpu.h"

/* 1 when argv asks for the GPU bench (--gpu). */
int dualopt_gpu_wanted(int argc, char **argv);
/* Runs it: 0 pass, 1 fail, 2 bad option (one line on stderr, nothing on stdout). */
int dualopt_gpu_main(int argc, char **argv);
/* Default accesses per GPU and kernel of a kind. */
unsigned dualopt_gpu_default_ops(gpu_kind kind);

#endif
