/*
 * Lockstep bench of the REC directory: the timing shell of cmodel/rec.c and
 * a Verilated module (tb/dut.h) run cycle by cycle on the same inputs; every
 * output is compared every cycle out of reset. Used by ./tb_rec and by the
 * Criterion tests.
 */
#ifndef REC_BENCH_H
#define REC_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "dut.h"
#include "rec.h"
#include "rec_trace.h"

typedef enum {
    REC_STIM_MIXED = 0, /* constrained-random mix, back-pressure phases */
    REC_STIM_HIT = 1,   /* warm a few ranges, then remote reads that hit  */
    REC_STIM_TRACE = 2, /* requests from a text trace                     */
    REC_STIM_REPLAY = 3 /* cycle-level stimulus file                      */
} rec_stim_kind;

#define REC_RESET_CYCLES 2

typedef struct {
    const dut_ops *dut;
    rec_cfg cfg;             /* must be the configuration of dut          */
    uint64_t seed;
    uint64_t cycles;         /* random streams: total cycles to run       */
    int home;                /* -1: drawn from the seed                   */
    rec_stim_kind kind;
    const rec_treq *trace;   /* REC_STIM_TRACE                            */
    size_t ntrace;
    const uint64_t *replay;  /* REC_STIM_REPLAY: dut->n_in values a cycle */
    size_t nreplay;          /* cycles in replay                          */
    FILE *inv_out;           /* INV lines as they leave the RTL, or NULL  */
    FILE *stim_out;          /* cycle-level stimulus, or NULL             */
    FILE *log_out;           /* outputs per cycle out of reset, or NULL   */
    const char *vcd;         /* waveform path, or NULL                    */
    uint64_t vcd_from;       /* first cycle in the waveform               */
    uint64_t stop_after;     /* last cycle to run (0: no limit)           */
} rec_bench_opts;

typedef struct {
    uint64_t cycles, accepted, invs;
    uint64_t measure_cycles, measure_accepted; /* REC_STIM_HIT: after warm-up */
    unsigned home;
    rec_stats st;            /* model statistics                          */
    double seconds;
    int mismatch;            /* 0: outputs agreed every cycle             */
    uint64_t mm_cycle;
    char mm_msg[512];
    int error;               /* setup failure, message in mm_msg          */
} rec_bench_result;

void rec_bench_defaults(rec_bench_opts *o);
/* Runs the bench. Returns 0 when model and RTL agreed, 1 on a mismatch,
 * -1 on a setup error. */
int rec_bench_run(const rec_bench_opts *o, rec_bench_result *r);

/* Reads a stimulus file written through stim_out. Returns 0 or -1 with a
 * reason ("line N: ...") in err. */
int rec_stim_read(FILE *f, unsigned n_in, uint64_t **vals, size_t *cycles, char *err,
                  size_t len);

/* Finds a DUT by preset or module name in a NULL-terminated table. */
const dut_ops *rec_dut_find(const dut_ops *const *table, const char *name);
/* Configuration of a DUT (parsed from its args). Returns 0 or -1. */
int rec_dut_cfg(const dut_ops *d, rec_cfg *cfg, char *err, size_t len);

#endif
