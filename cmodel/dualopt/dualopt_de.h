/*
 * DualOpt decision engine: configuration, geometry, golden model (functional
 * core and cycle-accurate timing shell).
 *
 * Paper: Belayneh et al., "Locality-aware Optimizations for Improving Remote
 * Memory Latency in Multi-GPU Systems" (PACT 2022), section 4.3, Fig. 10-12,
 * Table 1, section 5. The engine watches the requests arriving at a GPU's L1s
 * over a monitoring window and picks no optimisation, remote access
 * coalescing or remote data caching (specification 2.6, readings D4-D9;
 * docs/paper-notes.md). Every comparison is an exact integer comparison of
 * cross products with the thresholds' numerators and denominators: there is
 * no floating point in the model or the RTL.
 */
#ifndef DUALOPT_DE_H
#define DUALOPT_DE_H

#include <stddef.h>
#include <stdint.h>

#include "cohkit.h"
#include "unit.h"

COHKIT_BEGIN_DECLS

/* Access kinds, as driven on acc_kind_i: bit 1 = remote, bit 0 = write. */
typedef enum { DUALOPT_DE_LR = 0, DUALOPT_DE_LW = 1, DUALOPT_DE_RR = 2, DUALOPT_DE_RW = 3 } dualopt_de_kind;

/* Modes (mode_o, dec_mode_o): MONITOR until the window closes. */
typedef enum { DUALOPT_DE_MONITOR = 0, DUALOPT_DE_NONE = 1, DUALOPT_DE_COALESCE = 2, DUALOPT_DE_CACHE = 3 } dualopt_de_mode;

/* An exact threshold num/den, reduced, 0 <= num <= den <= DUALOPT_DE_DEN_MAX. */
typedef struct {
    uint32_t num, den;
} dualopt_de_ratio;

#define DUALOPT_DE_DEN_MAX 65535u
#define DUALOPT_DE_WINDOW_MAX 16777215u   /* 2^24 - 1 */
#define DUALOPT_DE_CAP_MAX 4294967295ull  /* 2^32 - 1: bound on total accesses */

typedef struct {
    unsigned window;     /* remote accesses per window (Table 1: 20,000)        */
    unsigned warmup;     /* accesses ignored after a (re)start (default 0)      */
    uint64_t max_total;  /* window bound on all accesses; 0: ceil(W / remote)   */
    dualopt_de_ratio remote_th;  /* remote ratio threshold (Table 1: 2 % = 1/50)        */
    dualopt_de_ratio block_th;   /* block utilisation threshold (0.2 = 1/5)             */
    dualopt_de_ratio hit_th;     /* L1 hit-rate threshold (0.4 = 2/5)                   */
    unsigned words;      /* words per line = mask bits (16 at 4-byte words)     */
    unsigned hit_all;    /* 1: hit rate over all remote accesses (D5 option)    */
    unsigned remonitor;  /* 1: re-monitor after a kernel boundary once decided  */
} dualopt_de_cfg;

/* Every derived width, computed in one place (dualopt_de_geom_of). */
typedef struct {
    uint64_t cap;                /* effective bound on total (max_total)      */
    unsigned total_bits;         /* counter widths: total <= cap              */
    unsigned remote_bits;        /* remote <= window                          */
    unsigned reads_bits;         /* reads <= window                           */
    unsigned words_bits;         /* words <= words * window                   */
    unsigned hits_bits;          /* hits <= window                            */
    unsigned warm_bits;          /* warm-up counter (0 when warmup == 0)      */
    unsigned pop_bits;           /* popcount of a mask: bits(words)           */
    unsigned ratio_bits;         /* cross products of the remote-ratio test   */
    unsigned block_bits;         /* ... of the block-utilisation test         */
    unsigned hit_bits;           /* ... of the hit-rate test                  */
    unsigned counter_flops;      /* live counters + warm-up counter           */
} dualopt_de_geom;

void dualopt_de_cfg_default(dualopt_de_cfg *cfg);
void dualopt_de_geom_of(const dualopt_de_cfg *cfg, dualopt_de_geom *g);
const char *const *dualopt_de_preset_names(void);
/* Presets "default", "fpga", "gran8", "gran16", "kernel", "tiny"; the
 * option "remonitor-on-kernel" takes the value "1" or "0" (cmodel/unit.h). */
COHKIT_UNIT_CFG_API(dualopt_de, const);
/* Parses a threshold: a decimal ("0.02", "1", ".4") or a fraction ("1/50"),
 * exactly, into a reduced ratio in [0, 1]. 0, or -1 with a reason. */
int dualopt_de_ratio_parse(const char *s, dualopt_de_ratio *r, char *err, size_t len);
const char *dualopt_de_mode_str(dualopt_de_mode m);

/* ---------------------------------------------------------------- core -- */

typedef struct {
    uint64_t total, remote, reads, words, hits;
} dualopt_de_counts;

/* Fig. 11 with exact comparisons (specification 2.6 step 4):
 * remote * rd < rn * total -> NONE; else reads > 0 and
 * words * bd < bn * words_per_line * reads and hits * hd < hn * base ->
 * COALESCE (base = reads, or remote with hit_all); else CACHE. */
dualopt_de_mode dualopt_de_decide(const dualopt_de_cfg *cfg, const dualopt_de_counts *c);

enum { DUALOPT_DE_PH_WARMUP = 0, DUALOPT_DE_PH_MONITOR = 1, DUALOPT_DE_PH_DONE = 2 };

typedef struct {
    dualopt_de_cfg cfg;
    dualopt_de_geom g;
    unsigned phase;       /* DE_PH_*                                          */
    uint64_t warm;        /* accesses ignored so far in this warm-up          */
    dualopt_de_counts c;          /* live counters of the window                      */
    dualopt_de_mode mode;         /* mode driven to the GPU                           */
    dualopt_de_counts dec;        /* counters the last decision was made on           */
    uint64_t accesses, decisions, restarts, rearms;
} dualopt_de_core;

/* A core for a checked cfg, after reset. */
void dualopt_de_core_init(dualopt_de_core *d, const dualopt_de_cfg *cfg);
/* GPU reset: counters cleared, mode MONITOR, monitoring restarts (warm-up). */
void dualopt_de_core_restart(dualopt_de_core *d);
/* One request arriving at the L1s: kind, L1 tag hit, BGU word mask (used for
 * remote reads). Returns 1 when this access closed the window (the decision
 * is then d->mode, made on d->dec), else 0. */
int dualopt_de_access(dualopt_de_core *d, dualopt_de_kind kind, unsigned hit, uint64_t mask);
/* Kernel boundary: with re-monitoring, a decided engine starts monitoring
 * again (as after a reset); otherwise nothing. Returns 1 when it re-armed. */
int dualopt_de_kernel(dualopt_de_core *d);

/* -------------------------------------------------------- timing shell -- */

/* Port values, one uint64_t per port in port-table order (rst_ni first, then
 * cmodel/dualopt/dualopt_de_ports.def). */
#define DUALOPT_DE_PORT_IN(n) uint64_t n;
#define DUALOPT_DE_PORT_OUT(n)
#define DUALOPT_DE_PORT(d, n, w) DUALOPT_DE_PORT_##d(n)
typedef struct {
    uint64_t rst_ni;
#include "dualopt_de_ports.def"
} dualopt_de_in;
#undef DUALOPT_DE_PORT_IN
#undef DUALOPT_DE_PORT_OUT
#define DUALOPT_DE_PORT_IN(n)
#define DUALOPT_DE_PORT_OUT(n) uint64_t n;
typedef struct {
#include "dualopt_de_ports.def"
} dualopt_de_out;
#undef DUALOPT_DE_PORT_IN
#undef DUALOPT_DE_PORT_OUT
#undef DUALOPT_DE_PORT

/* One stage of the decision pipeline: the counters a decision is made on. */
typedef struct {
    unsigned valid, live;   /* live: no reset / re-arm since the close */
    dualopt_de_counts c;
} dualopt_de_stage;

typedef struct {
    dualopt_de_cfg cfg;
    dualopt_de_geom g;
    unsigned ready;                       /* acc_ready_o                     */
    /* input stage: the access and boundary events of the previous cycle */
    unsigned a_valid, a_kind, a_hit, a_pop, a_kern, a_rst;
    /* counting stage */
    unsigned phase;
    uint64_t warm;
    dualopt_de_counts c;
    /* decision pipeline: s1 snapshot, s2 cross products, then the output */
    dualopt_de_stage s1, s2;
    unsigned dec_valid, dec_mode;
    dualopt_de_counts dec;
    unsigned mode;                        /* mode_o and the mode signals     */
} dualopt_de_tm;

/* Cycles from the handshake of the access that closes the window to
 * dec_valid_o (input register, counting/close, cross products, compare). */
#define DUALOPT_DE_DECIDE_LATENCY 4

COHKIT_UNIT_TM_API(dualopt_de_tm, dualopt_de_cfg, dualopt_de_eval, dualopt_de_step, dualopt_de_in,
                   dualopt_de_out);

COHKIT_END_DECLS

#endif
