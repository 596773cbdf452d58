/*
 * Litmus tests through a family's system model (cohkit: internal header):
 * the classic shapes, their forbidden outcomes, the randomized runs and
 * the histogram table. A family supplies one run (its program format, its
 * system, its checker); the shapes, the outcomes and the verdicts are here,
 * once. docs/verification.md, "litmus tests".
 */
#ifndef COHKIT_LITMUS_H
#define COHKIT_LITMUS_H

#include <stdint.h>
#include <stdio.h>

#define COHKIT_LIT_THR 4 /* threads of a shape, at most           */
#define COHKIT_LIT_OPS 6 /* operations of a thread, at most       */
#define COHKIT_LIT_RES 8 /* results: loads, then final values     */

/* One access: 'L' a load into result r, 'S' a store of v, 'R' a release
 * and 'A' an acquire (synchronised variant of MP only). loc 0 is x, 1 y. */
typedef struct {
    char op;
    unsigned char loc, v, r;
} cohkit_lit_acc;

typedef struct {
    const char *name;
    unsigned nthr;
    cohkit_lit_acc thr[COHKIT_LIT_THR][COHKIT_LIT_OPS]; /* op 0 ends a thread        */
    const char *fin;        /* words whose final value is a result ("x", "xy")  */
    int co;                 /* a coherence shape: racy accesses forbid too      */
    signed char bad[3][COHKIT_LIT_RES]; /* forbidden: results, -1 any          */
    unsigned nbad;
} cohkit_lit_test;

extern const cohkit_lit_test cohkit_lit_tests[];
extern const unsigned cohkit_lit_ntests;

/* Results of a shape: its loads, then its final values. */
unsigned cohkit_lit_nres(const cohkit_lit_test *t);
/* The seeded generator of the runs (splitmix64). */
uint64_t cohkit_lit_rand(uint64_t *s);

/* The interleaving of a run: every thread in program order, the threads
 * mixed at random, a delay of 1..max_delay before half of the operations
 * (delay(ctx, n)); acquire and release only when sync. */
void cohkit_lit_interleave(const cohkit_lit_test *t, int sync, uint64_t *s, unsigned max_delay,
                           void (*emit)(void *ctx, unsigned thr, const cohkit_lit_acc *a),
                           void (*delay)(void *ctx, unsigned n), void *ctx);

typedef struct {
    const char *tool;   /* "<family>-litmus", for messages                       */
    /* One run of shape t (sync: the synchronised variant) with this seed:
     * res[0..nres) the outcome (a word's initial value as 0, -1 not seen);
     * 0; 2 when the family's checker failed the run's log (the outcome is
     * kept, the reason in err); 1 when the run itself failed (err). */
    int (*run)(void *ctx, const cohkit_lit_test *t, int sync, uint64_t seed, signed char *res, char *err,
               size_t len);
    /* The run's input for the family's system tool, with a comment line
     * naming the command that runs it. */
    void (*program)(void *ctx, const cohkit_lit_test *t, int sync, uint64_t seed, FILE *out);
    int racy_plain;     /* plain accesses are racy: only Co* forbid there         */
    const char *sync_name; /* the synchronised variant's name ("sync"), NULL: none */
} cohkit_lit_family;

/* The options every litmus tool takes, from its tool flags: --test NAME,
 * --variant plain|sync|both, --runs N. 0, or 2 after a one-line message. */
typedef struct {
    const char *only;   /* NULL: every shape */
    int variants;       /* bit 0 plain, bit 1 sync */
    unsigned runs;
} cohkit_lit_opts;
int cohkit_lit_parse(const cohkit_lit_family *f, const char *test, const char *variant, const char *runs,
                     cohkit_lit_opts *o, FILE *err);

/* Prints the table (per shape and variant: each outcome seen, its count and
 * verdict; the forbidden outcomes never seen with 0) and a summary line.
 * 0 when no forbidden outcome appeared and every log passed the checker,
 * else 1 (a failed run stops the table; the first checker failure of each
 * shape and variant is named on err with its seed). `program`: print each shape's first
 * program instead. */
int cohkit_lit_main(const cohkit_lit_family *f, void *ctx, const cohkit_lit_opts *o, uint64_t seed, int program,
                    const char *devices, FILE *out, FILE *err);

#endif
