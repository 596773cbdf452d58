/*
 * The unit registry: every generated unit (REC directory, BGU, MSHR, TSU, ...)
 * is described once by a `cohkit_unit_desc`, and every tool iterates over
 * cohkit_unit_registry (cohgen, cohmodel, the lockstep engine, the family benches,
 * the Makefile fragments through `cohgen --list`). See docs/adding-a-unit.md.
 *
 * Port values. The timing shell, the lockstep engine and the Verilator shims
 * exchange port values as arrays of uint64_t in port-table order: inputs start
 * with rst_ni, then the unit's input ports; outputs are the unit's output
 * ports. A port of W bits takes ceil(W / 64) words, least significant word
 * first (the order of Verilator's wide ports), unused high bits zero.
 * clk_i is implicit: the shell's step() is the rising edge.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"

COHKIT_BEGIN_DECLS

typedef enum { COHKIT_PORT_IN, COHKIT_PORT_OUT } cohkit_port_dir;

typedef struct {
    cohkit_port_dir dir;
    const char *name;
    unsigned width; /* 1..COHKIT_UNIT_PORT_WIDTH_MAX */
} cohkit_port;

#define COHKIT_UNIT_PORTS_MAX 64
#define COHKIT_UNIT_PORT_WIDTH_MAX 4096
#define COHKIT_UNIT_WORDS(w) (((w) + 63u) / 64u)

/* Tool flags beyond the configuration (REC's --home, a coalescer's --wire):
 * accepted by cohmodel and by the family bench, passed to the unit as
 * values indexed like cohkit_unit_desc.flags (NULL when not given; "1" for a flag
 * without a value). */
typedef struct {
    const char *name;     /* without dashes                                */
    const char *arg;      /* value placeholder ("G"), or NULL: no value;
                             "[FILE]": the value may be left out (cohmodel
                             passes "-", standard output)                  */
    const char *help;
} cohkit_unit_flag;

#define COHKIT_UNIT_FLAGS_MAX 16

/* ---- option tables: one row per configuration option, from which the
 * platform derives option parsing and its messages, the --help lines, the
 * bare options and the argument round trip (cfg_args). See
 * docs/adding-a-unit.md. */
typedef enum {
    COHKIT_UNIT_OPT_UINT, /* unsigned at `off`: a decimal number (cohkit_unit_opt_table.num_*) */
    COHKIT_UNIT_OPT_HEX,  /* uint64_t at `off`: hex, "0x" optional, at most 16 digits   */
    COHKIT_UNIT_OPT_ENUM, /* int-sized field at `off`: one of `choices`                */
    COHKIT_UNIT_OPT_SET   /* `set` applies the value, `put` prints it                  */
} cohkit_unit_opt_kind;

typedef struct {
    const char *name;
    int value;
    int hidden;           /* accepted, not listed in messages or args       */
} cohkit_unit_opt_choice;

enum {
    COHKIT_UNIT_OPT_BARE = 1,    /* may stand without a value (cohkit_unit_desc.cfg_bare) */
    COHKIT_UNIT_OPT_NOARGS = 2,  /* not part of the argument round trip            */
    COHKIT_UNIT_OPT_IFSET = 4    /* ENUM: in the round trip only when the int field
                             is set (not negative)                           */
};

typedef struct {
    const char *name;     /* without dashes                                 */
    const char *arg;      /* value placeholder in --help ("N"), or NULL     */
    const char *help;     /* help text; '\n' starts a line at the column    */
    cohkit_unit_opt_kind kind;
    size_t off;           /* UINT, HEX, ENUM: the field's offset            */
    const cohkit_unit_opt_choice *choices; /* ENUM: terminated by a NULL name      */
    const char *what;     /* UINT, HEX: "--x: 'v' is not <what>" (NULL: the
                             table's num_what, or "a hex number")           */
    int (*set)(void *cfg, const char *name, const char *value, char *err, size_t len);
    void (*put)(const void *cfg, char *buf, size_t len); /* NULL: "--name" alone */
    /* Part of the round trip only when this holds (NULL: always). */
    int (*in_args)(const void *cfg);
    unsigned flags;       /* UNIT_OPT_*                                     */
    unsigned long max;    /* UINT: largest value (0: the table's num_max)   */
} cohkit_unit_opt;

typedef struct {
    const cohkit_unit_opt *opt;  /* terminated by a NULL name                      */
    const char *num_what; /* UINT: "a non-negative integer", ...            */
    unsigned long num_max;/* UINT: a larger value is not a number           */
    int num_base;         /* UINT: 10, or 0 (0x.. hex too)                  */
    int help_col;         /* column of the help text (0: 19)                */
    /* Order of the round trip's options (NULL: table order). */
    const char *const *args_order;
} cohkit_unit_opt_table;

/* Table rows; further members (.flags, .in_args, .what) may follow. */
#define COHKIT_UNIT_OPT_NUM(nm, ar, hlp, type, field, ...)                                              \
    {.name = (nm), .arg = (ar), .help = (hlp), .kind = COHKIT_UNIT_OPT_UINT,                            \
     .off = offsetof(type, field), __VA_ARGS__}
#define COHKIT_UNIT_OPT_HEX64(nm, ar, hlp, type, field, ...)                                            \
    {.name = (nm), .arg = (ar), .help = (hlp), .kind = COHKIT_UNIT_OPT_HEX,                             \
     .off = offsetof(type, field), __VA_ARGS__}
#define COHKIT_UNIT_OPT_CHOICE(nm, ar, hlp, type, field, ch, ...)                                       \
    {.name = (nm), .arg = (ar), .help = (hlp), .kind = COHKIT_UNIT_OPT_ENUM,                            \
     .off = offsetof(type, field), .choices = (ch), __VA_ARGS__}
#define COHKIT_UNIT_OPT_FN(nm, ar, hlp, setf, putf, ...)                                                \
    {.name = (nm), .arg = (ar), .help = (hlp), .kind = COHKIT_UNIT_OPT_SET, .set = (setf),              \
     .put = (putf), __VA_ARGS__}
#define COHKIT_UNIT_OPT_END {.name = NULL}

/* Applies option `name`: 0; 1 if the table has no such option; -1 with a
 * one-line reason in err on a bad value. */
int cohkit_unit_opt_apply(const cohkit_unit_opt_table *t, void *cfg, const char *name, const char *value,
                   char *err, size_t len);
/* The --help lines of the options. */
void cohkit_unit_opt_help(const cohkit_unit_opt_table *t, FILE *f);
/* "--name value ..." that reproduces cfg. */
void cohkit_unit_opt_args(const cohkit_unit_opt_table *t, const void *cfg, char *buf, size_t len);
/* 1 if `name` may stand without a value. */
int cohkit_unit_opt_bare(const cohkit_unit_opt_table *t, const char *name);

/* ---- the interface every unit's model header declares, written once
 * (docs/adding-a-unit.md). For a unit with prefix P and configuration type
 * P##_cfg, COHKIT_UNIT_CFG_API(P, Q) declares
 *   int P_cfg_preset(P_cfg *c, const char *name);
 *       the default refined to a named configuration ("default" and the
 *       unit's presets): 0, or -1 for an unknown name;
 *   extern const cohkit_unit_opt_table P_opts;   the options, behind
 *   int P_cfg_option(P_cfg *c, const char *name, const char *value,
 *                    char *err, size_t len);
 *       one option, name without dashes: 0; 1 if not an option of the unit;
 *       -1 on a bad value with a one-line reason in err;
 *   int P_cfg_check(Q P_cfg *c, char *err, size_t len);
 *       validation: 0, or -1 with a one-line reason in err; Q is const, or
 *       empty when the check also completes derived defaults;
 *   void P_cfg_name(const P_cfg *c, char *buf, size_t len);
 *       the canonical module name;
 *   void P_cfg_args(const P_cfg *c, char *buf, size_t len);
 *       the options that reproduce c (for generated-file headers).
 * COHKIT_UNIT_TM_API(TM, CFG, EVAL, STEP, IN, OUT) declares the timing
 * shell TM of configuration type CFG:
 *   TM *TM_new(const CFG *c);   a shell in reset (NULL when out of memory)
 *   void TM_free(TM *t);  void TM_reset(TM *t);
 *   void EVAL(const TM *t, const IN *in, OUT *out);
 *       the outputs of the cycle from the state and the inputs (no effect);
 *   void STEP(TM *t, const IN *in);   the rising clock edge;
 * IN and OUT are the unit's port structs, or uint64_t for port values as
 * words (the layout above). */
#define COHKIT_UNIT_CFG_API(P, Q)                                                                  \
    int P##_cfg_preset(P##_cfg *c, const char *name);                                              \
    extern const cohkit_unit_opt_table P##_opts;                                                   \
    int P##_cfg_option(P##_cfg *c, const char *name, const char *value, char *err, size_t len);    \
    int P##_cfg_check(Q P##_cfg *c, char *err, size_t len);                                        \
    void P##_cfg_name(const P##_cfg *c, char *buf, size_t len);                                    \
    void P##_cfg_args(const P##_cfg *c, char *buf, size_t len)
#define COHKIT_UNIT_TM_API(TM, CFG, EVAL, STEP, IN, OUT)                                           \
    TM *TM##_new(const CFG *c);                                                                    \
    void TM##_free(TM *t);                                                                         \
    void TM##_reset(TM *t);                                                                        \
    void EVAL(const TM *t, const IN *in, OUT *out);                                                \
    void STEP(TM *t, const IN *in)

/* Arguments of a stimulus source. */
typedef struct {
    uint64_t seed;
    const char *stream;        /* random stream kind (cohkit_unit_desc.streams)  */
    FILE *trace;               /* trace mode: the unit-level text trace   */
    const char *trace_name;    /* for messages                            */
    FILE *out;                 /* trace mode: output lines (as cohmodel)  */
    const char *const *flags;  /* COHKIT_UNIT_FLAGS_MAX values, see cohkit_unit_flag    */
} cohkit_unit_stim_args;

typedef struct cohkit_unit_desc {
    const char *name;          /* "<family>" or "<family>-<unit>"         */
    const char *family;        /* its folder in cmodel/, gen/, tb/, rtl/  */
    const char *title;         /* one line, with the paper sections       */
    const char *model_ref;     /* model functions the RTL must match      */

    /* ---- configuration: an opaque struct of cfg_size bytes */
    size_t cfg_size;
    const char *const *presets;   /* NULL-terminated; [0] is the default  */
    const char *const *committed; /* presets whose RTL is committed as
                                     rtl/<family>/<module_prefix>_<preset> */
    const char *module_prefix;    /* "<family>" or "<family>_<unit>"      */
    const char *options_help;     /* usage lines of the options outside
                                     the table (before its lines), or of
                                     all when there is no table           */
    const cohkit_unit_opt_table *opts;   /* the options, described once          */
    /* Fills cfg with preset `name`. 0, or -1 for an unknown name. */
    int (*cfg_preset)(void *cfg, const char *name);
    /* Applies one option (name without dashes). 0; 1 if not an option of
     * this unit; -1 on a bad value with a one-line reason in err. */
    int (*cfg_option)(void *cfg, const char *name, const char *value, char *err, size_t len);
    /* Completes derived defaults and validates. 0, or -1 with a reason. */
    int (*cfg_check)(void *cfg, char *err, size_t len);
    void (*cfg_name)(const void *cfg, char *buf, size_t len);   /* canonical module name */
    void (*cfg_args)(const void *cfg, char *buf, size_t len);   /* options that reproduce cfg */

    /* ---- port table (clk_i and rst_ni are implicit and first) */
    int (*ports)(const void *cfg, cohkit_port *p, int max); /* returns the count */

    /* ---- timing shell (cycle-accurate, compared with the RTL every cycle) */
    void *(*tm_new)(const void *cfg);
    void (*tm_free)(void *tm);
    void (*tm_reset)(void *tm);
    void (*tm_eval)(const void *tm, const uint64_t *in, uint64_t *out);
    void (*tm_step)(void *tm, const uint64_t *in);

    /* ---- stimulus: seeded constrained-random streams and the text trace */
    const char *const *streams;   /* NULL-terminated; [0] is the default  */
    const cohkit_unit_flag *flags;       /* tool flags, NULL-terminated by name  */
    const char *trace_help;       /* trace input and output, for --help   */
    /* NULL with a one-line reason in err ("FILE: line N: ...") on bad input. */
    void *(*stim_new)(const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len);
    void (*stim_free)(void *s);
    /* Inputs of cycle `cyc` (in[0] = rst_ni is set by the engine). */
    void (*stim_drive)(void *s, uint64_t cyc, uint64_t *in);
    /* After the outputs of the cycle agreed: the handshakes that happened. */
    void (*stim_observe)(void *s, uint64_t cyc, const uint64_t *in, const uint64_t *out);
    /* Trace mode: every record driven and the shell drained. */
    int (*stim_done)(const void *s, const void *tm);
    /* Cycle bound of a trace run (after the whole trace was read). */
    uint64_t (*stim_limit)(const void *s);
    /* Text appended to the run summary's seed line ("  home GPU 2"). */
    void (*stim_note)(const void *s, char *buf, size_t len);
    /* Unit lines of the run summary, each line prefixed with `lead`. */
    void (*stim_summary)(const void *s, const void *tm, uint64_t cycles, FILE *f, const char *lead);

    /* ---- trace tool (cohmodel <unit>): the functional core on a trace.
     * Returns the exit status (0, or 2 after a one-line message on err
     * with nothing written to out). */
    int (*trace_run)(const void *cfg, const char *const *flags, FILE *in, const char *in_name,
                     FILE *out, FILE *err);

    /* Configuration options that may stand without a value (NULL-terminated
     * names, or NULL): `--name` alone means `--name 1`; a following "0" or
     * "1" is taken as its value. */
    const char *const *cfg_bare;

    /* A tool whose output is a verdict (a checker, a system model judged by
     * one): trace_run returns 1 after writing its complete output when a
     * rule was violated, and cohmodel then prints that output and exits 1.
     * Bad input keeps exit status 2 with nothing printed. 0 for every other
     * unit and tool (its output is printed on 0 only). */
    int verdict_exit;

    /* Optional (NULL: none): the functional core alone on `n` seeded
     * accesses of cfg, timed, for tb/bench_model.c; writes one line to f,
     * "N accesses in S s = R M accesses/s (...)". Returns 0, or -1 when the
     * model cannot be built. */
    int (*core_bench)(const void *cfg, uint64_t n, FILE *f);

    /* Optional (NULL: cfg_check): the validation of `cohmodel <unit>`
     * when the functional core accepts more than the RTL (the Spandex
     * LLC's unbounded sets, --ways 0). cohgen and the benches use
     * cfg_check. */
    int (*cfg_check_model)(void *cfg, char *err, size_t len);
} cohkit_unit_desc;

/* NULL-terminated, in registration order (cmodel/units.def). */
extern const cohkit_unit_desc *const cohkit_unit_registry[];

const cohkit_unit_desc *cohkit_unit_find(const char *name);

/* Model-only trace tools (cmodel/units.def `TOOL(entry)`): a system model or
 * a checker with no RTL and no timing shell. Only name, family, title,
 * model_ref, the configuration (cfg_size, presets, cfg_preset, cfg_option,
 * cfg_check, cfg_bare), flags, options_help, trace_help and trace_run are
 * set; everything else is NULL. `cohmodel <name>` runs them; the iterators
 * over cohkit_unit_registry[] never see them. NULL-terminated. */
extern const cohkit_unit_desc *const cohkit_unit_tools[];
/* The tool named `name`, or NULL. */
const cohkit_unit_desc *cohkit_unit_tool_find(const char *name);
/* The --help lines of u's options (its table, or options_help). */
void cohkit_unit_options_help(const cohkit_unit_desc *u, FILE *f);
/* Index of flag `name` in u->flags, or -1. */
int cohkit_unit_flag_index(const cohkit_unit_desc *u, const char *name);

/* A configuration with its unit: parsed from "--config P --opt V ..." words.
 * cohkit_unit_cfg_parse applies --config first (anywhere in argv) so options refine
 * it, then the options in order, then cfg_check. Words it does not know are
 * left to the caller when `rest` is given (their indices are stored, count
 * returned in *nrest), else they are an error. Returns 0, or -1 with a
 * one-line reason in err. cfg must hold u->cfg_size bytes. */
int cohkit_unit_cfg_parse(const cohkit_unit_desc *u, void *cfg, int argc, char *const *argv, int *rest,
                   int *nrest, char *err, size_t len);
/* Same from one string of blank-separated words (a shim's args). */
int cohkit_unit_cfg_parse_str(const cohkit_unit_desc *u, void *cfg, const char *args, char *err, size_t len);

/* Port layout of a configuration: counts and word offsets. */
typedef struct {
    cohkit_port p[COHKIT_UNIT_PORTS_MAX];
    int n;
    unsigned n_in, n_out;          /* input ports include rst_ni           */
    unsigned in_words, out_words;  /* uint64_t words of the value arrays   */
} cohkit_unit_layout;
int cohkit_unit_layout_of(const cohkit_unit_desc *u, const void *cfg, cohkit_unit_layout *l, char *err, size_t len);

/* Hex of a multi-word value without leading zeros ("0" for zero). */
void cohkit_unit_hex_put(FILE *f, const uint64_t *w, unsigned nwords);
/* Parses hex (no 0x) into nwords words; -1 if empty, not hex or wider. */
int cohkit_unit_hex_get(const char **p, uint64_t *w, unsigned nwords, unsigned width);

/* The stimulus sources' pseudo-random numbers (xorshift64*): the next value
 * of the state *s (never 0), and a percentage 0..99 drawn from it. */
static inline uint64_t cohkit_unit_rnd(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}
static inline unsigned cohkit_unit_pct(uint64_t *s) { return (unsigned)(cohkit_unit_rnd(s) % 100); }
/* splitmix64 (the program generators'): the next value, any state allowed */
static inline uint64_t cohkit_unit_splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

COHKIT_END_DECLS

#endif
