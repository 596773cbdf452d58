/*
 * DualOpt: the GPU in every mode (Belayneh et al., PACT 2022, sections 4.2,
 * 4.3, 4.4, 6.1; kit specification dualopt.md sections 1, 2.5, 2.6, 5).
 *
 * A transaction-level system of 2..4 GPUs built from the units' functional
 * cores, one instance of each per GPU: the BGU (dualopt_bgu_inst), the SCBU
 * (dualopt_scbu_access), the bitmask MSHR (dualopt_mshr_req / _fill, one core in
 * mask mode and one in line mode, chosen by the mode signal), the RDMA
 * cache (dualopt_rcache_access / dualopt_rcache_flush), the decision engine (dualopt_de_access /
 * dualopt_de_kernel) and, per home GPU, the RDMA coalescer (dualopt_coal_push / dualopt_coal_tick)
 * whose packets are decoded by dualopt_decoal_parse. Each GPU monitors (baseline)
 * until its engine decides; the decision drives the mode signals: BGU mask
 * use, SCBU bypass and MSHR mask mode in COALESCE, RDMA cache enable in
 * CACHE. A kernel is a sequence of wavefront loads and stores per GPU; at
 * each kernel boundary the coalescers drain, every RDMA cache is flushed
 * (its dirty bytes written back to their home), the memory image is
 * snapshot for the check, and the engines re-monitor.
 *
 * Kernels partition the lines: in kernel k, GPU g touches only lines with
 * (line + k) mod gpus == g, so a kernel's result does not depend on the
 * interleaving of the GPUs (GPU-style: a store is visible to another GPU
 * only after the kernel boundary), and each kernel after the first reads
 * lines the previous kernel's other GPUs wrote (through their caches).
 *
 * The check (dualopt_gpu_check, cmodel/dualopt/dualopt_gpu_check.c, a separate file) replays
 * the kernel on its own image: every loaded byte, and the memory image after
 * every flush.
 */
#ifndef DUALOPT_GPU_H
#define DUALOPT_GPU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"
#include "dualopt_e2e.h"
#include "dualopt_de.h"
#include "dualopt_rcache.h"

COHKIT_BEGIN_DECLS

#define DUALOPT_GPU_WR_BYTES (DUALOPT_E2E_REQ_BYTES + DUALOPT_E2E_LINE + 8) /* write: header, line, byte mask */

typedef enum { DUALOPT_GPU_K_LOCAL = 0, DUALOPT_GPU_K_SPARSE, DUALOPT_GPU_K_REUSE, DUALOPT_GPU_K_N } dualopt_gpu_kind;
extern const char *const dualopt_gpu_kind_names[]; /* "local" "sparse" "reuse", NULL-ended */
int dualopt_gpu_kind_of(const char *name);

/* One wavefront access of GPU `gpu` in kernel `kernel`: lane i reads or
 * writes `size` bytes at addr[i] when active. store: 0 load, 1 store, 2
 * atomic exchange (lanes in ascending order load the old bytes and store
 * the new; only the cycle-level system, cmodel/dualopt/dualopt_sys.h, runs them).
 * A store's bytes are dualopt_gpu_store_byte(k, index, lane, byte). */
typedef struct {
    unsigned gpu, kernel, store;
    uint64_t active;
    uint64_t addr[DUALOPT_E2E_LANES];
    unsigned size;
} dualopt_gpu_op;

typedef struct {
    unsigned gpus, kernels;
    uint64_t seed;
    uint8_t *mem;            /* initial image: gpus * DUALOPT_E2E_REGION bytes      */
    dualopt_gpu_op *op;              /* by kernel, then GPU, in program order       */
    size_t n, cap;
} dualopt_gpu_kernel;

/* `kernels` kernels of `ops` accesses per GPU each. 0, or -1 with a reason. */
int dualopt_gpu_kernel_gen(dualopt_gpu_kernel *k, dualopt_gpu_kind kind, unsigned gpus, unsigned kernels, uint64_t seed,
                   unsigned ops, char *err, size_t len);
void dualopt_gpu_kernel_free(dualopt_gpu_kernel *k);
uint8_t dualopt_gpu_store_byte(const dualopt_gpu_kernel *k, size_t op, unsigned lane, unsigned b);
/* Offset of a byte address in an image, or -1 outside every region. */
long dualopt_gpu_mem_off(unsigned gpus, uint64_t addr);

typedef enum { DUALOPT_GPU_AUTO = 0, DUALOPT_GPU_FORCE_NONE, DUALOPT_GPU_FORCE_COALESCE, DUALOPT_GPU_FORCE_CACHE } dualopt_gpu_force;
/* Faults the check must catch: the fault_n-th RDMA cache write-back lost;
 * the kernel boundary without the RDMA cache flush (lines only invalidated). */
typedef enum { DUALOPT_GPU_FAULT_NONE = 0, DUALOPT_GPU_FAULT_DROP_WB, DUALOPT_GPU_FAULT_NO_FLUSH } dualopt_gpu_fault;

/* The RDMA cache stream of one GPU as the composition ran it, for replay
 * into the Verilated cache: each RD / WR with its outcome and the line a
 * fetch returned, each KERNEL (flush) with its write-backs (wb[wb0 ..
 * wb0 + nwb - 1]) and counts. */
typedef struct {
    dualopt_rcache_op op;
    uint64_t addr, mask;
    uint8_t data[DUALOPT_E2E_LINE];
    unsigned fetched;
    uint8_t fill[DUALOPT_E2E_LINE];
    dualopt_rcache_res res;
    size_t wb0;
    unsigned nwb, ninv;
} dualopt_gpu_rc_ev;

typedef struct {
    dualopt_gpu_rc_ev *ev;
    size_t n, cap;
    dualopt_rcache_wb *wb;
    size_t nw, capw;
} dualopt_gpu_rc_log;

void dualopt_gpu_rc_log_free(dualopt_gpu_rc_log *l);

/* The decision engine's input stream of one GPU (accesses and kernel
 * boundaries, in order) and the decisions the core made on it, for replay
 * into the Verilated engine. */
typedef struct {
    uint8_t kernel;          /* 1: a kernel boundary, else an access        */
    uint8_t kind, hit;
    uint64_t mask;
} dualopt_gpu_de_ev;

typedef struct {
    dualopt_gpu_de_ev *ev;
    size_t n, cap;
    dualopt_de_counts *dec;
    unsigned *mode;
    size_t nd, capd;
} dualopt_gpu_de_log;

void dualopt_gpu_de_log_free(dualopt_gpu_de_log *l);

typedef struct {
    dualopt_gpu_force force;         /* AUTO: the decision engine's mode            */
    const char *de_preset;   /* "kernel" (committed RTL), then window /
                                max_total when not 0                        */
    unsigned window;
    uint64_t max_total;
    unsigned per_cycle;      /* requests a GPU's L1 takes per cycle         */
    unsigned l1_lines;       /* L1 tags (direct mapped) for the engine's hit */
    dualopt_gpu_fault fault;
    uint64_t fault_n;
    dualopt_gpu_rc_log *rclog;       /* NULL, or one log per GPU (DUALOPT_E2E_GPUS_MAX)     */
    dualopt_gpu_de_log *delog;       /* NULL, or one log per GPU (DUALOPT_E2E_GPUS_MAX)     */
} dualopt_gpu_opts;

void dualopt_gpu_opts_default(dualopt_gpu_opts *o);

typedef struct {
    unsigned mode[DUALOPT_E2E_GPUS_MAX][8];   /* per kernel: dualopt_de_mode at its end       */
    uint64_t decided_at[DUALOPT_E2E_GPUS_MAX][8]; /* requests of the kernel when decided (0: never) */
    uint64_t cycles, requests, local, remote, bypassed;
    uint64_t mshr_hits, mshr_misses, mshr_stalls;
    uint64_t req_msgs, rd_line_rsp, wr_msgs, packets, slots;
    uint64_t bytes, flits;            /* every message on the links           */
    uint64_t rc_hits, rc_misses, rc_whits, rc_wmiss, rc_wbs, rc_flush_wbs;
    uint64_t faults;
} dualopt_gpu_stats;

/* Per op (loads only) and lane: the bytes delivered and how many times. */
typedef struct {
    size_t n;
    uint8_t (*data)[DUALOPT_E2E_LANES][16];
    uint8_t (*writes)[DUALOPT_E2E_LANES][16];
    uint8_t *image;          /* kernels * gpus * DUALOPT_E2E_REGION: after each flush */
} dualopt_gpu_result;

/* Runs the whole kernel sequence. 0, or -1 with a reason (bad option, stuck). */
int dualopt_gpu_run(const dualopt_gpu_opts *o, const dualopt_gpu_kernel *k, dualopt_gpu_stats *st, dualopt_gpu_result *res, char *err,
            size_t len);
void dualopt_gpu_result_free(dualopt_gpu_result *r);
/* Op `op` of k receives bytes of `line` (64-byte line number): every byte of
 * its lanes in `lanes` that lies in the line, in a granule (DUALOPT_E2E_GRAN)
 * set in `mask`, takes d[its offset]; r counts the writes of each byte (up
 * to 255). */
void dualopt_gpu_deliver(dualopt_gpu_result *r, const dualopt_gpu_kernel *k, size_t op,
                         uint64_t lanes, uint64_t line, uint64_t mask, const uint8_t *d);

typedef struct {
    uint64_t lanes, bytes, wrong, missing, extra;
    uint64_t image_bytes, lost;   /* image bytes compared, differing          */
} dualopt_gpu_check_res;

/* Every loaded byte equals the reference (own stores of the kernel seen in
 * program order), delivered once; after every flush the image equals the
 * reference. 0, or -1 with the first failure in msg. */
int dualopt_gpu_check(const dualopt_gpu_kernel *k, const dualopt_gpu_result *r, dualopt_gpu_check_res *c, char *msg, size_t len);

COHKIT_END_DECLS

#endif
