/*
 * HALCONE system model (spec 3.3, 7.4): G GPUs of C CUs, an L1 per CU, an L2
 * per GPU (optionally address-interleaved banks, each with its own cts,
 * H24), DRAM and one TSU (optionally several, address-interleaved), composed
 * from the units' functional cores: the cache timestamp unit
 * (cmodel/halcone/halcone_cache.h) for every L1 and L2 bank and the TSU
 * (cmodel/halcone/halcone_tsu.h). Transaction level: each access completes before
 * the next; physical order is trace order; one value per block (H18).
 *
 * Paper: Mojumder et al., HALCONE, sections 3.1-3.2.6 (Fig. 3-6, Alg. 1-5).
 *
 * The model writes the event log of spec 7.4; the checker
 * (cmodel/halcone/halcone_check.h), separate from the model, reads that log.
 */
#ifndef HALCONE_SYSTEM_H
#define HALCONE_SYSTEM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"
#include "halcone_cache.h"
#include "halcone_tsu.h"

COHKIT_BEGIN_DECLS

#define HALCONE_SYS_GPUS_MAX 64
#define HALCONE_SYS_CUS_MAX 256
#define HALCONE_SYS_SPLIT_MAX 64   /* L2 banks, TSUs */
#define HALCONE_SYS_SW_MAX 8       /* rule switches kept as option words */

typedef struct {
    unsigned gpus, cus;
    unsigned l1_sets, l1_ways, l2_sets, l2_ways, tsu_sets, tsu_ways;
    unsigned l2_banks, tsus;     /* powers of two; interleaved by line index */
    unsigned line, ts_bits, rd_lease, wr_lease;
    char rules[8];               /* "paper" or "safe" (default)              */
    /* the switches of spec 7.1 given explicitly (name, value), applied to
     * the units over the preset in the order given */
    unsigned nsw;
    char sw_name[HALCONE_SYS_SW_MAX][16];
    char sw_val[HALCONE_SYS_SW_MAX][16];
} halcone_sys_cfg;

void halcone_sys_cfg_default(halcone_sys_cfg *c);
/* One option (name without dashes). 0; 1 if not an option of the system;
 * -1 on a bad value with a one-line reason. */
int halcone_sys_cfg_option(halcone_sys_cfg *c, const char *name, const char *value, char *err, size_t len);
/* Validates, including the unit configurations it derives. 0 or -1. */
int halcone_sys_cfg_check(const halcone_sys_cfg *c, char *err, size_t len);

/* One command of the system trace (spec 7.4). */
typedef enum { HALCONE_SYS_LD = 0, HALCONE_SYS_ST, HALCONE_SYS_EVL1, HALCONE_SYS_EVL2 } halcone_sys_op;
typedef struct {
    halcone_sys_op op;
    unsigned gpu, cu;
    uint64_t addr, value;
    uint32_t lease;              /* 0: the TSU's lease register              */
    unsigned long lineno;
} halcone_sys_cmd;

/* Reads a whole trace. 0 with *cmds (malloc'ed) and *n, or -1 with
 * "line N: reason" in err. */
int halcone_sys_trace_read(FILE *f, const halcone_sys_cfg *c, halcone_sys_cmd **cmds, size_t *n, char *err,
                    size_t len);

typedef struct {
    uint64_t loads, stores, evl1, evl2;
    uint64_t src[4];             /* by first level hit: [1] L1 [2] L2 [3] MM  */
    uint64_t l1_exp, l2_exp;     /* coherency misses (tag, lease expired)     */
    uint64_t l1_victims, l2_victims;
    uint64_t grants, tsu_victims, removes, keeps, absents, floor_raises, wraps, resets;
    uint32_t epoch;
} halcone_sys_stats;

typedef struct halcone_sys halcone_sys;

/* Log sink: every log line of the run, in order, with the input line it
 * belongs to; `event` is 1 for the --events lines (L1VICTIM, L2VICTIM,
 * TSU ...). */
typedef void (*halcone_sys_log_fn)(void *ctx, const char *line, unsigned long lineno, int event);

/* A system for a checked configuration, in its reset state. NULL on out of
 * memory or a unit configuration error (reason in err). */
halcone_sys *halcone_sys_new(const halcone_sys_cfg *c, halcone_sys_log_fn log, void *ctx, char *err, size_t len);

/* Substituted units (a Verilated system, tb/halcone/halcone_vsys.c): any L1, L2 bank
 * or TSU may be an object of the caller's instead of the functional core.
 * new_cache / new_tsu return the object for a unit (kind 0 L1, 1 L2 bank)
 * with the unit configuration the system derived, or NULL to keep the core
 * (a non-empty err then fails halcone_sys_new_subst). A substituted cache exposes
 * its functional state (core(): the lockstep shell's, for the probes the
 * transaction-level system makes before it acts) and performs every state
 * change itself: access() is a whole RD/WR transaction carrying the
 * requester's cts `up` (req_cts_i, --l1-req-cts), evict() an EV,
 * invalidate() an INV. A substituted TSU serves request() (op 0 RD, 1 WR,
 * 2 EV as halcone_tsu_op) and epoch_reset(). Every call returns 0, or -1 on
 * a failure (an RTL/model mismatch: the run stops, reason from error()). */
typedef struct {
    void *ctx;
    void *(*new_cache)(void *ctx, int kind, unsigned index, const void *cache_cfg, char *err,
                       size_t len);
    void *(*new_tsu)(void *ctx, unsigned index, const void *tsu_cfg, char *err, size_t len);
    void (*free_unit)(void *ctx, void *u, int is_tsu);
    const halcone_cache *(*core)(void *u);
    int (*access)(void *u, int op, uint64_t addr, uint32_t up, uint32_t wts, uint32_t rts,
                  halcone_cache_result *r);
    int (*evict)(void *u, uint64_t addr, halcone_cache_result *r);
    int (*invalidate)(void *u);
    int (*request)(void *u, int op, uint64_t addr, uint32_t cts, uint32_t lease, uint32_t rts,
                   halcone_tsu_result *r);
    int (*epoch_reset)(void *u);
    const char *(*error)(void *u, int is_tsu);
} halcone_sys_subst;

/* halcone_sys_new with substituted units (sub may be NULL: halcone_sys_new). */
halcone_sys *halcone_sys_new_subst(const halcone_sys_cfg *c, halcone_sys_log_fn log, void *ctx, const halcone_sys_subst *sub,
                     char *err, size_t len);
/* After a failed halcone_sys_run of a substituted system: the unit's reason. */
const char *halcone_sys_error(const halcone_sys *s);
void halcone_sys_free(halcone_sys *s);
/* Runs one command, logging its lines. 0, or -1 on an internal stall (a
 * locked block in a one-access-at-a-time model: a model bug). */
int halcone_sys_run(halcone_sys *s, const halcone_sys_cmd *cmd);
const halcone_sys_stats *halcone_sys_stats_of(const halcone_sys *s);

/* The trace tool (cohmodel halcone-system): the trace on `in`, the log
 * (access lines; event lines with `events`), the checker's CHECK and
 * invariant lines and the summaries on `out`. Returns 0; 1 when
 * `fail_on_violation` and the checker found a violation; 2 on bad input (one
 * line on err, `halcone-system: NAME: line N: ...`). */
int halcone_sys_trace_run(const halcone_sys_cfg *c, int events, int fail_on_violation, FILE *in,
                   const char *in_name, FILE *out, FILE *err);

/* halcone-gen (spec 7.5): the program and its parameters. */
typedef enum { HALCONE_GEN_RANDOM = 0, HALCONE_GEN_XTREME1, HALCONE_GEN_XTREME2, HALCONE_GEN_XTREME3 } halcone_gen_kind;
typedef struct {
    halcone_gen_kind kind;
    unsigned gpus, cus, line;
    unsigned elems, reps;        /* Xtreme                                    */
    unsigned ops, lines;         /* random                                    */
    uint64_t seed;               /* random                                    */
} halcone_gen_cfg;

/* "random" (default), "xtreme1", "xtreme2", "xtreme3". 0 or -1. */
int halcone_gen_cfg_preset(halcone_gen_cfg *c, const char *name);
/* gpus, cus, line, elems, reps, ops, lines, seed. 0; 1 not an option; -1. */
int halcone_gen_cfg_option(halcone_gen_cfg *c, const char *name, const char *value, char *err, size_t len);
int halcone_gen_cfg_check(const halcone_gen_cfg *c, char *err, size_t len);
/* Writes the program (a system trace) on f. */
void halcone_gen_write(const halcone_gen_cfg *c, FILE *f);

COHKIT_END_DECLS

#endif
