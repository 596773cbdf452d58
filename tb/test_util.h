/* Helpers shared by the Criterion test files (tb/test_*.c, tb/<family>/test_*.c). */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <stddef.h>

#include "lockstep.h"

/* Runs a shell command; its exit status, or -1 if it did not exit. */
int run(const char *cmd);
/* A whole file as a NUL-terminated string (malloc), or NULL. */
char *slurp(const char *path);

/* A command's exit status (-1 if it did not exit) with its standard output
 * and standard error (malloc, NUL-terminated). */
typedef struct {
    int status;
    char *out;
    char *err;
} cmd_out;
/* Runs the shell command made from fmt (printf), capturing both streams. */
int run_cap(cmd_out *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for cmd with `input` (text) on its standard input. */
int run_in(cmd_out *r, const char *input, const char *cmd);
void cmd_out_free(cmd_out *r);

/* Lines in s (a last line without '\n' counts). */
size_t line_count(const char *s);
/* A fresh empty folder build/t_<name> (removed first); its path, static
 * until the next call. NULL if it could not be made. */
const char *fresh_dir(const char *name);
/* 1 when the folder has no entry (or does not exist). */
int dir_empty(const char *path);

/* Trace mode against the trace tool: `cohmodel <unit> <opts> < trace` and
 * `tb_<family> --unit <unit> <opts> --trace trace` must both exit 0, the
 * bench must end with "# PASS", and its lines other than '#' comments must
 * be the model's output byte for byte. Returns the length of the model's
 * output, or -1 with the reason in why. The model's output and the
 * bench's (malloc) in *model_out and *bench_out when they are not NULL. */
long trace_agrees(const char *family, const char *unit, const char *opts, const char *trace,
                  char **model_out, char **bench_out, char *why, size_t len);

/* The helpers below fail the calling Criterion test on what they check. */

/* The output of `cohmodel <args>` reading `input`, which must exit 0
 * (malloc). */
char *model_prints(const char *args, const char *input);
/* Writes text to path. */
void put(const char *path, const char *text);
/* The number right after `key` in s (a run summary). */
unsigned long long field(const char *s, const char *key);
/* The options of a lockstep run of `preset` of `unit`: ls_defaults, the
 * unit, its DUT from the family's table `duts` and the DUT's configuration,
 * parsed into cfg (cfg_len bytes). */
void ls_preset(ls_opts *o, void *cfg, size_t cfg_len, const dut_ops *const *duts,
               const char *unit, const char *preset);
/* A lockstep run of `preset` of `unit` on a random stream (NULL: the
 * unit's default); model and RTL must agree every cycle. The result in r
 * (ls_result_free it). */
void ls_stream(ls_result *r, const dut_ops *const *duts, const char *unit, const char *preset,
               const char *stream, uint64_t cycles, uint64_t seed);
/* A refusal: cmd exits 2 with nothing on standard output and one line on
 * standard error that contains `word`. */
void refused(const char *cmd, const char *word);
/* The same with `input` (text) on cmd's standard input. */
void refused_on(const char *cmd, const char *input, const char *word);
/* `cohgen <unit> <args>` refuses and writes nothing into its -o folder. */
void gen_refuses(const char *unit, const char *args, const char *word);
/* The same for `cohmodel <unit> <args>` reading `input`. */
void model_refuses(const char *unit, const char *args, const char *input, const char *word);

#endif
