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

#define HSYS_GPUS_MAX 64
#define HSYS_CUS_MAX 256
#define HSYS_SPLIT_MAX 64   /* L2 banks, TSUs */
#define HSYS_SW_MAX 8       /* rule switches kept as option words */

typedef struct {
    unsigned gpus, cus;
    unsigned l1_sets, l1_ways, l2_sets, l2_ways, tsu_sets, tsu_ways;
    unsigned l2_banks, tsus;     /* powers of two; interleaved by line index */
    unsigned line, ts_bits, rd_lease, wr_lease;
    char rules[8];               /* "paper" or "safe" (default)              */
    /* the switches of spec 7.1 given explicitly (name, value), applied to
     * the units over the preset in the order given */
    unsigned nsw;
    char sw_name[HSYS_SW_MAX][16];
    char sw_val[HSYS_SW_MAX][16];
} hsys_cfg;

void hsys_cfg_default(hsys_cfg *c);
/* One option (name without dashes). 0; 1 if not an option of the system;
 * -1 on a bad value with a one-line reason. */
int hsys_cfg_option(hsys_cfg *c, const char *name, const char *value, char *err, size_t len);
/* Validates, including the unit configurations it derives. 0 or -1. */
int hsys_cfg_check(const hsys_cfg *c, char *err, size_t len);

/* One command of the system trace (spec 7.4). */
typedef enum { HSYS_LD = 0, HSYS_ST, HSYS_EVL1, HSYS_EVL2 } hsys_op;
typedef struct {
    hsys_op op;
    unsigned gpu, cu;
    uint64_t addr, value;
    uint32_t lease;              /* 0: the TSU's lease register              */
    unsigned long lineno;
} hsys_cmd;

/* Reads a whole trace. 0 with *cmds (malloc'ed) and *n, or -1 with
 * "line N: reason" in err. */
int hsys_trace_read(FILE *f, const hsys_cfg *c, hsys_cmd **cmds, size_t *n, char *err,
                    size_t len);

typedef struct {
    uint64_t loads, stores, evl1, evl2;
    uint64_t src[4];             /* by first level hit: [1] L1 [2] L2 [3] MM  */
    uint64_t l1_exp, l2_exp;     /* coherency misses (tag, lease expired)     */
    uint64_t l1_victims, l2_victims;
    uint64_t grants, tsu_victims, removes, keeps, absents, floor_raises, wraps, resets;
    uint32_t epoch;
} hsys_stats;

typedef struct hsys hsys;

/* Log sink: every log line of the run, in order, with the input line it
 * belongs to; `event` is 1 for the --events lines (L1VICTIM, L2VICTIM,
 * TSU ...). */
typedef void (*hsys_log_fn)(void *ctx, const char *line, unsigned long lineno, int event);

/* A system for a checked configuration, in its reset state. NULL on out of
 * memory or a unit configuration error (reason in err). */
hsys *hsys_new(const hsys_cfg *c, hsys_log_fn log, void *ctx, char *err, size_t len);

/* Substituted units (a Verilated system, tb/halcone/halcone_vsys.c): any L1, L2 bank
 * or TSU may be an object of the caller's instead of the functional core.
 * new_cache / new_tsu return the object for a unit (kind 0 L1, 1 L2 bank)
 * with the unit configuration the system derived, or NULL to keep the core
 * (a non-empty err then fails hsys_new_subst). A substituted cache exposes
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
} hsys_subst;

/* hsys_new with substituted units (sub may be NULL: hsys_new). */
hsys *hsys_new_subst(const hsys_cfg *c, hsys_log_fn log, void *ctx, const hsys_subst *sub,
                     char *err, size_t len);
/* After a failed hsys_run of a substituted system: the unit's reason. */
const char *hsys_error(const hsys *s);
void hsys_free(hsys *s);
/* Runs one command, logging its lines. 0, or -1 on an internal stall (a
 * locked block in a one-access-at-a-time model: a model bug). */
int hsys_run(hsys *s, const hsys_cmd *cmd);
const hsys_stats *hsys_stats_of(const hsys *s);

/* The trace tool (cohmodel halcone-system): the trace on `in`, the log
 * (access lines; event lines with `events`), the checker's CHECK and
 * invariant lines and the summaries on `out`. Returns 0; 1 when
 * `fail_on_violation` and the checker found a violation; 2 on bad input (one
 * line on err, `halcone-system: NAME: line N: ...`). */
int hsys_trace_run(const hsys_cfg *c, int events, int fail_on_violation, FILE *in,
                   const char *in_name, FILE *out, FILE *err);

/* halcone-gen (spec 7.5): the program and its parameters. */
typedef enum { HGEN_RANDOM = 0, HGEN_XTREME1, HGEN_XTREME2, HGEN_XTREME3 } hgen_kind;
typedef struct {
    hgen_kind kind;
    unsigned gpus, cus, line;
    unsigned elems, reps;        /* Xtreme                                    */
    unsigned ops, lines;         /* random                                    */
    uint64_t seed;               /* random                                    */
} hgen_cfg;

/* "random" (default), "xtreme1", "xtreme2", "xtreme3". 0 or -1. */
int hgen_cfg_preset(hgen_cfg *c, const char *name);
/* gpus, cus, line, elems, reps, ops, lines, seed. 0; 1 not an option; -1. */
int hgen_cfg_option(hgen_cfg *c, const char *name, const char *value, char *err, size_t len);
int hgen_cfg_check(const hgen_cfg *c, char *err, size_t len);
/* Writes the program (a system trace) on f. */
void hgen_write(const hgen_cfg *c, FILE *f);

COHKIT_END_DECLS

#endif
