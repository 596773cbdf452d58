/*
 * DualOpt: the GPU in every mode at cycle level (Belayneh et al., PACT 2022,
 * sections 4.1-4.4; kit specification dualopt.md sections 1, 2 and 5).
 *
 * The end-to-end composition of cmodel/dualopt/dualopt_e2e.h (BGU, SCBU, bitmask
 * MSHR, coalescer, de-coalescer per GPU, driven through their ports every
 * cycle) extended with two blocks per GPU: the RDMA cache (dualopt-rcache
 * `default`, in front of the RDMA engine, remote traffic only) and the
 * decision engine (dualopt-de, `tiny` or `kernel`), whose mode outputs drive
 * the composition: BGU mask use and MSHR mask mode (fine-grained masks into
 * the MSHR), SCBU bypass (its mode register is written whenever the engine's
 * scbu_bypass_o changes), RDMA cache enable (remote requests go through the
 * cache). Every request at the L1s (the SCBU's results) is an engine event;
 * the composition keeps a direct-mapped L1 tag array for the hit input.
 *
 * The program is a dualopt_gpu_kernel (cmodel/dualopt/dualopt_gpu.h): wavefront loads,
 * stores and atomics (exchange: the lanes get the old bytes) per GPU and
 * kernel. A store or atomic waits until the GPU's loads have completed and
 * completes (every line acknowledged) before the GPU's next access. At the
 * end of a kernel every GPU's RDMA cache is flushed (KERNEL request), every
 * write-back reaches its home, the memory image is snapshot for the check
 * (dualopt_gpu_check), the engines get a kernel_i pulse and the next kernel starts.
 *
 * Like the end-to-end composition, every unit input is a function of the
 * composition's registered state, so a block can be replaced by anything
 * with the same ports (the Verilated RTL, tb/dualopt/dualopt_gpu_tb.c).
 */
#ifndef DUALOPT_SYS_H
#define DUALOPT_SYS_H

#include "dualopt_e2e.h"
#include "dualopt_gpu.h"

COHKIT_BEGIN_DECLS

typedef enum { DUALOPT_SYS_FAULT_NONE = 0, DUALOPT_SYS_FAULT_DROP_WB } dualopt_sys_fault;

typedef struct {
    unsigned gpus;           /* 2..4 (the program's)                         */
    dualopt_gpu_force force;         /* AUTO: the engine's mode; else forced modes   */
    const char *de_preset;   /* "tiny" (window 20, decided once) or "kernel" */
    unsigned link_lat;       /* cycles on the link, each direction           */
    unsigned local_lat;      /* local line read                              */
    unsigned link_cap;       /* packets a home's response link holds         */
    uint64_t max_cycles, idle_limit;
    dualopt_sys_fault fault;         /* DROP_WB: the fault_n-th write-back lost      */
    uint64_t fault_n;
} dualopt_sys_opts;

void dualopt_sys_opts_default(dualopt_sys_opts *o);

typedef struct {
    uint64_t cycles;
    unsigned mode[DUALOPT_E2E_GPUS_MAX][8];     /* per kernel: the engine's mode at its end */
    uint64_t decided_at[DUALOPT_E2E_GPUS_MAX];  /* cycle of the first decision (0: none)    */
    uint64_t loads, stores, atomics;    /* wavefront accesses                        */
    uint64_t requests, local, remote, bypassed, de_events;
    uint64_t mshr_hits, mshr_misses, mshr_stalls;
    uint64_t req_msgs, wr_msgs, at_msgs, wb_msgs, acks;  /* messages on the links */
    uint64_t packets, coal_packets, reg_packets, slots;
    uint64_t bytes, flits;              /* every message, both directions            */
    uint64_t rc_hits, rc_misses, rc_whits, rc_wmiss, rc_fwd, rc_wbs, rc_flush_wbs, flushes;
    uint64_t stray, faults;
} dualopt_sys_stats;

typedef struct dualopt_sys dualopt_sys;

/* NULL backend: the units' timing shells (cmodel/compose.h). */
dualopt_sys *dualopt_sys_new(const dualopt_sys_opts *o, const dualopt_gpu_kernel *k, const struct cmp_backend *b,
                 char *err, size_t len);
void dualopt_sys_free(dualopt_sys *s);
int dualopt_sys_cycle(dualopt_sys *s);      /* 1 once every kernel ran and was flushed */
int dualopt_sys_stuck(dualopt_sys *s);
const dualopt_sys_stats *dualopt_sys_stats_of(const dualopt_sys *s);
/* The lanes' bytes and the image after every flush, for dualopt_gpu_check. */
const dualopt_gpu_result *dualopt_sys_result_of(const dualopt_sys *s);

/* The blocks ("gpu0.de", ...) and 1 while in reset (outputs not compared). */
struct cmp_sys *dualopt_sys_blocks(dualopt_sys *s);
int dualopt_sys_in_reset(const dualopt_sys *s);

void dualopt_sys_print(FILE *f, const char *lead, const dualopt_sys_opts *o, const dualopt_gpu_kernel *k,
               const dualopt_sys_stats *t);

/* Turns about pct % of the stores whose lanes touch disjoint bytes into
 * atomics (exchange), deterministically from the kernel's seed. */
void dualopt_gpu_kernel_atomics(dualopt_gpu_kernel *k, unsigned pct);

COHKIT_END_DECLS

#endif
