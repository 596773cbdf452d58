/*
 * DualOpt remote access coalescing end to end (Belayneh et al., PACT 2022,
 * section 4.1, Fig. 7a; kit specification dualopt.md sections 1, 2.1-2.4
 * and 5 "End-to-end bench"): the composition of the units' timing shells
 *
 *   lanes -> BGU -> SCBU -> MSHR -> requester RDMA -> link -> home word
 *   selection -> coalescer -> link -> de-coalescer -> MSHR fill -> lane data
 *
 * for 2..4 GPUs, one instance of every unit per GPU, each driven cycle by
 * cycle through its port values (cmodel/unit.h). Between the units sit
 * registered queues of the composition (the L1 controller, the RDMA engines,
 * the links, the home's line read), so every unit input is a function of
 * the composition's state at the start of the cycle: there is no
 * combinational path from one unit to another, and any block with the same
 * ports (the Verilated RTL, tb/dualopt/dualopt_e2e_tb.c) can replace a timing shell
 * through the block backend (cmodel/compose.h).
 *
 * The kernel (dualopt_e2e_kernel) holds the memory image and the wavefront loads;
 * the composition writes every lane's bytes into dualopt_e2e_lanes; the check
 * (dualopt_e2e_check, a separate file) compares them with the memory image.
 */
#ifndef DUALOPT_E2E_H
#define DUALOPT_E2E_H

#include <stddef.h>
#include <stdint.h>

#include "cohkit.h"
#include "unit.h"

COHKIT_BEGIN_DECLS

/* The blocks of a composition and their backend (cmodel/compose.h, internal
 * to the kit): opaque here. */
struct cmp_backend;
struct cmp_sys;

#define DUALOPT_E2E_GPUS_MAX 4
#define DUALOPT_E2E_LANES 64
#define DUALOPT_E2E_SPAN_BITS 32          /* GPU g owns [g << 32, (g + 1) << 32)    */
#define DUALOPT_E2E_REGION (64u * 1024u)  /* bytes of each GPU's memory in the image */
#define DUALOPT_E2E_LINE 64
#define DUALOPT_E2E_GRAN 4
#define DUALOPT_E2E_WORDS (DUALOPT_E2E_LINE / DUALOPT_E2E_GRAN)
#define DUALOPT_E2E_REQ_BYTES 12          /* akita read request                     */
#define DUALOPT_E2E_LINE_RSP_BYTES 68     /* akita data response: 64 + 4            */
#define DUALOPT_E2E_FLIT 16

/* ------------------------------------------------------------- kernel -- */

/* One wavefront load of GPU `gpu`, presented to its BGU no earlier than
 * `cycle` (counted from the first cycle loads may issue), after the GPU's
 * previous load. Lane i reads `size` bytes at addr[i] when active. */
typedef struct {
    unsigned gpu;
    uint64_t cycle;
    uint64_t active;
    uint64_t addr[DUALOPT_E2E_LANES];
    unsigned size;
} dualopt_e2e_load;

typedef enum {
    DUALOPT_E2E_K_MIXED = 0,  /* every pattern below, sizes 1..16, local and remote */
    DUALOPT_E2E_K_STRIDE,     /* unit-stride 4-byte lanes: whole lines              */
    DUALOPT_E2E_K_SCATTER,    /* one word per lane, lines spread over the region    */
    DUALOPT_E2E_K_CROSSING,   /* 8/12/16-byte lanes across line boundaries          */
    DUALOPT_E2E_K_SPARSE,     /* one to three lanes, loads far apart (timeouts)     */
    DUALOPT_E2E_K_FULL,       /* directed: GPU 0 reads one word of each of 30 lines
                         of GPU 1 (three full packets)                      */
    DUALOPT_E2E_K_CROSS11,    /* directed: 11 lanes of GPU 0 read 8 bytes across the
                         boundaries of 12 lines of GPU 1                    */
    DUALOPT_E2E_K_LONE,       /* directed: 5 single-word loads of GPU 0 from GPU 1,
                         200 cycles apart (one lone slot each)              */
    DUALOPT_E2E_K_N
} dualopt_e2e_kind;

extern const char *const dualopt_e2e_kind_names[]; /* DUALOPT_E2E_K_N names, NULL-ended */
/* Kind by name, or -1. */
int dualopt_e2e_kind_of(const char *name);

typedef struct {
    unsigned gpus;
    uint8_t *mem;            /* gpus * DUALOPT_E2E_REGION bytes: the memory image   */
    dualopt_e2e_load *ld;
    size_t n, cap;
} dualopt_e2e_kernel;

/* A seeded kernel of `loads` loads per GPU (directed kinds ignore `loads`
 * and `seed` for the loads; the memory image always follows the seed).
 * 0, or -1 with a reason. */
int dualopt_e2e_kernel_gen(dualopt_e2e_kernel *k, dualopt_e2e_kind kind, unsigned gpus, uint64_t seed, unsigned loads,
                   char *err, size_t len);
/* An empty kernel (memory image from the seed, no loads) and one load. */
int dualopt_e2e_kernel_init(dualopt_e2e_kernel *k, unsigned gpus, uint64_t seed);
int dualopt_e2e_kernel_add(dualopt_e2e_kernel *k, const dualopt_e2e_load *ld);
void dualopt_e2e_kernel_free(dualopt_e2e_kernel *k);
/* The byte of the memory image at a byte address, or -1 outside it. */
int dualopt_e2e_mem_byte(const dualopt_e2e_kernel *k, uint64_t addr);

/* ------------------------------------------------------- lane results -- */

/* Per load and lane: the bytes delivered and how many times each was
 * written (exactly once when the composition is right). */
typedef struct {
    size_t n;                /* loads                                      */
    uint8_t (*data)[DUALOPT_E2E_LANES][16];
    uint8_t (*writes)[DUALOPT_E2E_LANES][16];
} dualopt_e2e_lanes;

/* ------------------------------------------------------ composition -- */

typedef enum { DUALOPT_E2E_COALESCE = 0, DUALOPT_E2E_LINE_MODE = 1 } dualopt_e2e_mode;

/* Faults the check must catch (tests). */
typedef enum { DUALOPT_E2E_FAULT_NONE = 0, DUALOPT_E2E_FAULT_MEM, DUALOPT_E2E_FAULT_DROP } dualopt_e2e_fault;

typedef struct {
    unsigned gpus;           /* 2..4                                        */
    dualopt_e2e_mode mode;           /* COALESCE: bitmask MSHR, SCBU bypass, fine
                                requests; LINE_MODE: MSHR --mode line, SCBU
                                off, line responses (the baseline)          */
    unsigned req_lat;        /* request link + home line read, cycles       */
    unsigned rsp_lat;        /* response link, cycles                       */
    unsigned local_lat;      /* local line read, cycles                     */
    unsigned link_cap;       /* packets a home's response link holds        */
    uint64_t max_cycles;     /* give up after this many cycles              */
    uint64_t idle_limit;     /* ... or this many cycles without progress    */
    dualopt_e2e_fault fault;         /* NONE; MEM: bit 0 of every byte of the
                                fault_n-th home line read flipped; DROP:
                                the fault_n-th de-coalescer output (a slot
                                or a regular response) lost (1-based)       */
    uint64_t fault_n;
    const char *preset;      /* configuration of every unit ("default")     */
} dualopt_e2e_opts;

void dualopt_e2e_opts_default(dualopt_e2e_opts *o);

typedef struct {
    uint64_t cycles;
    uint64_t loads, lanes, lane_bytes;     /* issued loads, active lanes      */
    uint64_t requests, local, remote;      /* BGU requests, by the SCBU       */
    uint64_t bypassed;
    uint64_t mshr_hits, mshr_misses, mshr_stalls, fills;
    uint64_t req_msgs, req_bytes, req_flits;  /* requests on the links       */
    uint64_t responses, fine_responses, words; /* into the coalescers        */
    uint64_t packets, coal_packets, reg_packets, slots, bytes, flits;
    uint64_t fine_bytes, fine_flits;       /* the same responses, one each   */
    uint64_t line_bytes, line_flits;       /* the same responses as lines    */
    uint64_t bad_packets, stray_words;     /* de-coalescer bad_o, unmatched  */
    uint64_t faults;                       /* faults injected                */
} dualopt_e2e_traffic;

typedef struct dualopt_e2e_sys dualopt_e2e_sys;

/* Every block (one unit instance, cmodel/compose.h) runs on backend b:
 * NULL for the timing shells, or anything with the same ports (the
 * Verilated RTL, tb/compose_rtl.h). NULL with a reason on a bad option or
 * a unit configuration the composition cannot use. The kernel must outlive
 * the system. */
dualopt_e2e_sys *dualopt_e2e_new(const dualopt_e2e_opts *o, const dualopt_e2e_kernel *k, const struct cmp_backend *b,
                 char *err, size_t len);
void dualopt_e2e_free(dualopt_e2e_sys *s);
/* One clock cycle. Returns 1 once every load was served and the system is
 * empty, 0 otherwise. */
int dualopt_e2e_cycle(dualopt_e2e_sys *s);
/* Cycles until done (0), or until max_cycles / idle_limit (1: stuck). */
int dualopt_e2e_run(dualopt_e2e_sys *s);
/* After dualopt_e2e_cycle returned 0: 1 when max_cycles or idle_limit is reached. */
int dualopt_e2e_stuck(dualopt_e2e_sys *s);
const dualopt_e2e_traffic *dualopt_e2e_traffic_of(const dualopt_e2e_sys *s);
const dualopt_e2e_lanes *dualopt_e2e_lanes_of(const dualopt_e2e_sys *s);
/* In-flight requester tags (0 when done). */
unsigned dualopt_e2e_outstanding(const dualopt_e2e_sys *s);

/* The blocks ("gpu1.mshr", ...), for a bench that compares two systems
 * every cycle, and 1 while the last cycle was in reset (outputs are not
 * compared). */
struct cmp_sys *dualopt_e2e_blocks(dualopt_e2e_sys *s);
int dualopt_e2e_in_reset(const dualopt_e2e_sys *s);

/* The traffic lines of a run ("lead" prefixes every line). */
void dualopt_e2e_print(FILE *f, const char *lead, const dualopt_e2e_opts *o, const dualopt_e2e_traffic *t);

/* ------------------------------------------------------------ check -- */

typedef struct {
    uint64_t lanes, bytes;   /* active lanes and bytes checked              */
    uint64_t wrong;          /* bytes delivered with another value          */
    uint64_t missing;        /* bytes never delivered                       */
    uint64_t extra;          /* bytes delivered more than once              */
} dualopt_e2e_check_res;

/* Every byte every active lane loads equals the memory image, delivered
 * exactly once. Returns 0, or -1 with the first failure in msg. */
int dualopt_e2e_check(const dualopt_e2e_kernel *k, const dualopt_e2e_lanes *l, dualopt_e2e_check_res *r, char *msg, size_t len);

COHKIT_END_DECLS

#endif
