/*
 * The parser fuzzing harnesses (make fuzz, make fuzz-replay; docs/verification.md,
 * "Fuzzing"). One binary holds every harness; `--harness=NAME` (the name of
 * its corpus folder, tb/fuzz/corpus/NAME/) selects one:
 *   cohgen          cohgen's command line (gen/cohgen.c's main)
 *   trace-FAMILY    every unit trace of a family through cohmodel's main and,
 *                   for committed configurations, the family bench's --trace
 *                   path (the lockstep engine with the timing shell as DUT)
 *   tool-TOOL       a model-only tool's input (system programs, event logs)
 *   replay          stimulus files of --replay (tb/lockstep.c)
 *   and the family harnesses of tb/fuzz/harnesses.def.
 * A harness feeds one input to the code under test and checks the tools'
 * bad-input promise where it applies: a rejected input gives one line on
 * standard error naming the offending line ("line N" of the input, and the
 * same line when the input is cut after it), exit status 2 and nothing on
 * standard output. A broken promise aborts with the reason, which libFuzzer
 * records as a crash with its input.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dut.h"
#include "unit.h"

/* The selected harness's name (for messages). */
extern const char *fuzz_name;

/* Reports a broken promise ("fuzz NAME: why") on standard error and aborts. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* ---- text */
/* Lines of s[0..n) (a last line without '\n' counts). */
unsigned fuzz_lines(const char *s, size_t n);
/* Bytes of s[0..n) up to and including line `line` (its '\n'). */
size_t fuzz_prefix(const char *s, size_t n, unsigned line);
/* N of the first "line N" in msg after "NAME: " (name NULL: anywhere), or 0. */
unsigned fuzz_msg_line(const char *msg, const char *name);
/* 1 when s is exactly one non-empty line ending in '\n'. */
int fuzz_one_line(const char *s);
/* Splits s in place at blanks into at most max words: how many (-1: more). */
int fuzz_words(char *s, char **w, int max);
/* 1 when no word is a decimal number above max (the harnesses keep
 * configurations and run lengths small: a valid large one is slow, not bad). */
int fuzz_small(char *const *w, int n, unsigned long max);

/* ---- a tool's main in-process: argv, `in` (n bytes) as standard input,
 * standard output and error captured (malloc'ed, NUL-terminated). */
typedef struct {
    int rc;
    char *out, *err;
    size_t out_len, err_len;
} fuzz_run;
int fuzz_call(int (*main_fn)(int, char **), int argc, char **argv, const char *in, size_t n,
              fuzz_run *r);
void fuzz_run_free(fuzz_run *r);
/* The bad-input promise of a run that exited 2: one line on standard error,
 * nothing on standard output. Aborts otherwise. */
void fuzz_check_refusal(const fuzz_run *r, const char *what);

/* The tools' mains (tb/fuzz/fuzz_tools.c). */
int fuzz_cohmodel_main(int argc, char **argv);
int fuzz_cohgen_main(int argc, char **argv);

/* ---- a scratch folder of this process ($TMPDIR or /tmp): its path, made
 * on first use; whether it holds a file; emptied. */
const char *fuzz_scratch(void);
int fuzz_scratch_empty(void);
void fuzz_scratch_clear(void);

/* ---- a unit's timing shell in place of its Verilated RTL (tb/dut.h), for
 * the lockstep engine without Verilator. */
typedef struct {
    dut_ops ops;
    cohkit_unit_layout l;
    const char *in_names[COHKIT_UNIT_PORTS_MAX + 1];
    unsigned in_widths[COHKIT_UNIT_PORTS_MAX + 1];
    const char *out_names[COHKIT_UNIT_PORTS_MAX];
    unsigned out_widths[COHKIT_UNIT_PORTS_MAX];
} fuzz_shell;
/* The DUT of unit u at configuration cfg (which must outlive it); 0, or -1
 * with the reason. One shell DUT is in use at a time (its create() takes
 * no context). */
int fuzz_shell_init(fuzz_shell *s, const cohkit_unit_desc *u, const void *cfg, char *err,
                    size_t len);

/* ---- the harnesses: init (the part of NAME after the prefix; 0, or -1
 * when it names nothing) and one input. */
int fuzz_cohgen_init(const char *arg);
void fuzz_cohgen_one(const uint8_t *data, size_t size);
int fuzz_trace_init(const char *arg);
int fuzz_tool_init(const char *arg);
void fuzz_trace_one(const uint8_t *data, size_t size);
int fuzz_replay_init(const char *arg);
void fuzz_replay_one(const uint8_t *data, size_t size);
#define FUZZ_HARNESS(name, init, one)                                                              \
    int init(const char *arg);                                                                     \
    void one(const uint8_t *data, size_t size);
#include "harnesses.def"
#undef FUZZ_HARNESS

#endif
