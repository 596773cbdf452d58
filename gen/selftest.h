/*
 * Generic FPGA self-test of any registered unit (cohgen <unit> --selftest):
 * a top module around the unit with an on-chip pseudo-random stimulus on
 * every input port, a MISR signature over every output port every cycle,
 * and the expected signature, computed here by running the unit's timing
 * shell (cohkit_unit_desc.tm_eval / tm_step) on the same stimulus. See
 * docs/fpga.md.
 *
 * Stimulus, derived from the port table alone:
 *  - a *channel* is an input X_valid_i with an output X_ready_o; its payload
 *    is every other input named X_*. A channel has its own generator, which
 *    advances only when !(valid && !ready): valid and payload stay stable
 *    under back-pressure by construction.
 *  - every other input is driven from a free-running generator; 1-bit
 *    inputs named *_ready_i or *_valid_i (no ready) and every channel valid
 *    take a probability that changes every 1024 cycles (256, 192, 112 or 40
 *    in 256), so back-pressure comes and goes.
 *  - payload bits are random unless a unit states a rule (st_rule) for a
 *    field: a unit states its rules in its gen_unit.selftest (gen/gen_unit.h).
 */
#ifndef SELFTEST_H
#define SELFTEST_H

#include <stdint.h>
#include <stdio.h>

#include "unit.h"

typedef enum {
    ST_RAND,   /* random bits (the default of every bit)                    */
    ST_CONST,  /* the value a                                               */
    ST_RANGE,  /* a value in a..b (b - a + 1 values, near uniform)          */
    ST_PROB,   /* 1-bit field: 1 with probability a / 65536 (a <= 65536)    */
    ST_SEQ,    /* counts the channel's handshakes (tags, sequence numbers)  */
    ST_LINEAR, /* a * (field src_lo, src_width of input `src`) + b          */
    ST_PICK    /* one of the n values v[0..n-1] (n a power of two, 2..16): */
               /* log2(n) random bits pick it (weights by repeats), or the */
               /* field src_lo, log2(n) bits of input `src` (two picks of  */
               /* one source draw a pair: a type and a mask that fits it)  */
} st_kind;

/* A rule for a field of an input port: bits lo .. lo + width - 1 (width 0:
 * the whole port), again every `stride` bits, `repeat` times in all (0 or
 * 1: once). Non-random fields are at most 64 bits wide; rules of a port do
 * not overlap; ST_LINEAR's source is an input of the same channel (or both
 * free) and is not itself ST_LINEAR or an ST_PICK with a source; so for
 * ST_PICK's source, which is also another port than its own (the top would
 * have a combinational loop); ST_PICK's values fit the field. */
#define ST_PICK_MAX 16

typedef struct {
    const char *port;
    unsigned lo, width;
    unsigned repeat, stride;
    st_kind kind;
    uint64_t a, b;
    const char *src;
    unsigned src_lo, src_width;
    unsigned n;                 /* ST_PICK: n values v[0..n-1]              */
    uint64_t v[ST_PICK_MAX];
} st_rule;

#define ST_RULES_MAX 64

/* A unit's rules for configuration cfg: fills r, returns the count (or -1
 * with a reason in err when the configuration cannot be self-tested). */
typedef int (*st_rules_fn)(const void *cfg, st_rule *r, int max, char *err, size_t len);

/* The rules of a unit (gen_unit.selftest), or NULL: random payloads. */
st_rules_fn selftest_rules_of(const char *unit);

typedef struct {
    uint32_t seed, cycles;
    uint32_t sig, in_xfers, out_xfers;
    int write_stim; /* also DIR/<module>_selftest.stim: the stimulus, reset
                     * cycle first, in the benches' --replay format      */
} st_result;

/* Runs the stimulus through the unit's timing shell (res->seed and
 * res->cycles given) and writes DIR/<module>_selftest.sv (expected values
 * as parameter defaults), DIR/<module>_selftest.json and
 * DIR/<module>_selftest_wrong.vf (a Verilator -G option with the signature
 * one bit off: the top must then light FAIL). Returns 0, or -1 with a
 * one-line reason in err (nothing written). */
int selftest_write(const cohkit_unit_desc *u, const void *cfg, const char *module, const char *dir,
                   st_result *res, char *err, size_t len);

#endif
