/*
 * The lockstep engine: a unit's timing shell (cmodel/unit.h) and its
 * Verilated RTL (tb/dut.h) run cycle by cycle on the same inputs, from the
 * unit's stimulus source or a recorded stimulus file; every output port is
 * compared every cycle out of reset (valid/ready included). Nothing here
 * knows a unit: the port table, the stimulus and the summary come from the
 * registry. Used by every ./tb_<family> binary and the Criterion tests.
 */
#ifndef LOCKSTEP_H
#define LOCKSTEP_H

#include <stdint.h>
#include <stdio.h>

#include "dut.h"
#include "unit.h"

#define LS_RESET_CYCLES 2
#define LS_CHAN_MAX 16

typedef struct {
    const cohkit_unit_desc *unit;
    const void *cfg;           /* configuration of dut (ls_dut_cfg)          */
    const dut_ops *dut;
    uint64_t seed;
    uint64_t cycles;           /* random streams: cycles to run              */
    const char *stream;        /* random stream kind, NULL: the default      */
    FILE *trace;               /* trace mode: the unit's text trace          */
    const char *trace_name;
    FILE *trace_out;           /* trace mode: output lines                   */
    const char *const *flags;  /* COHKIT_UNIT_FLAGS_MAX tool-flag values, or NULL   */
    const uint64_t *replay;    /* replay mode: dut->in_words values a cycle  */
    size_t nreplay;            /* cycles in replay                           */
    FILE *stim_out;            /* cycle-level stimulus, or NULL              */
    FILE *log_out;             /* RTL outputs per cycle out of reset, or NULL*/
    const char *vcd;           /* waveform path, or NULL                     */
    uint64_t vcd_from;         /* first cycle in the waveform                */
    uint64_t stop_after;       /* last cycle to run (0: no limit)            */
    int rtl_only;              /* run the RTL alone (no model, no compare)   */
    /* Called at the end of a run with the stimulus source and the timing
     * shell, before they are freed (tests read unit statistics). */
    void (*inspect)(void *ctx, const void *stim, const void *tm);
    void *inspect_ctx;
} ls_opts;

typedef struct {
    uint64_t cycles;
    unsigned nchan;                       /* valid/ready channels            */
    char chan_name[LS_CHAN_MAX][48];
    uint64_t chan_xfers[LS_CHAN_MAX];     /* transfers (valid && ready), every lane of a vector valid */
    double seconds;
    double cpu_seconds; /* process CPU time of the cycle loop (CLOCK_PROCESS_CPUTIME_ID) */
    int mismatch;                         /* 0: outputs agreed every cycle   */
    uint64_t mm_cycle;
    char mm_msg[768];
    int error;                            /* setup failure, message in mm_msg*/
    char note[128];                       /* unit's seed-line note           */
    char *summary;                        /* unit's summary lines (malloc)   */
} ls_result;

void ls_defaults(ls_opts *o);
/* Runs the bench. Returns 0 when model and RTL agreed, 1 on a mismatch (or
 * a trace that did not drain), -1 on a setup error or bad stimulus input.
 * The unit's summary lines, each prefixed with `lead`, are in r->summary
 * (free it with ls_result_free). */
int ls_run(const ls_opts *o, ls_result *r, const char *lead);
void ls_result_free(ls_result *r);
/* The progress line a run of more than 10 M cycles prints on stderr about
 * once a second: cycles done of the total, the percentage, elapsed seconds
 * and the seconds left at the rate so far; on a terminal (tty) it starts
 * with a carriage return and clears the rest of the line, else it ends with
 * a newline. Returns what snprintf returns. */
int ls_progress_line(char *buf, size_t len, uint64_t cyc, uint64_t limit, double elapsed, int tty);
/* The lines of s that do not start with '#' (a trace-mode bench's comment
 * lines), in order (malloc; NULL when out of memory). */
char *ls_uncommented(const char *s);

/* Reads a stimulus file written through stim_out: one line per cycle, one
 * hex value per input port (rst_ni first). Returns 0 (*vals malloc'ed, not
 * NULL even for a file of no cycle), or -1 with "line N: ..." in err. */
int ls_stim_read(FILE *f, const dut_ops *d, uint64_t **vals, size_t *cycles, char *err,
                 size_t len);

/* A DUT of a family table by configuration name: the module name itself,
 * or <unit's module prefix>_<name>; with unit NULL, any unit. */
const dut_ops *ls_dut_find(const dut_ops *const *table, const cohkit_unit_desc *unit, const char *name);
/* The configuration of a DUT, parsed from its args; cfg holds
 * unit->cfg_size bytes. Also checks the port table against the DUT's.
 * Returns 0 or -1 with a reason. */
int ls_dut_cfg(const cohkit_unit_desc *unit, const dut_ops *d, void *cfg, char *err, size_t len);

/* The benches' bad options: "PROG: " and fmt (one %s, v) on stderr: 2, the
 * exit status of bad input. */
int ls_bad_arg(const char *prog, const char *fmt, const char *v);
/* A number option (decimal, 0x hex, no sign) into *v: 0; -1 when s is not
 * one. */
int ls_num_arg(const char *s, unsigned long long *v);

#endif
