/*
 * What a unit's registry adapter (cmodel/<family>/<unit>_unit.c) is built
 * from, so that it states only what is particular to the unit:
 *
 *  - COHKIT_UNIT_CFG_ADAPTERS / COHKIT_UNIT_TM_ADAPTERS define the registry's
 *    configuration and timing-shell functions from the model's typed ones;
 *    UNIT_ADAPTER_FIELDS fills them into the cohkit_unit_desc.
 *  - COHKIT_UNIT_PORT puts one row of the unit's <unit>_ports.def X-macro table
 *    (direction, name, width as an expression of the configuration) into a
 *    cohkit_port array: every unit's port table is a .def file.
 *  - The stimulus helpers: cohkit_unit_stim_seed (the random state of a stimulus
 *    source), cohkit_unit_stim_kind (the registry's streams looked up by index,
 *    trace mode after them) and one back-pressure type, cohkit_unit_bp, with the
 *    schedules of random runs as data (cohkit_unit_bp_sched).
 *
 * See docs/adding-a-unit.md.
 */
#ifndef UNIT_ADAPT_H
#define UNIT_ADAPT_H

#include "unit.h"

COHKIT_BEGIN_DECLS

/* ------------------------------------------------------ configuration */

/* u_preset, u_option, u_check, u_args over pfx##_cfg_preset, _option,
 * _check and _args taking CFG *. */
#define COHKIT_UNIT_CFG_ADAPTERS(pfx, CFG)                                                              \
    static int u_preset(void *cfg, const char *name) { return pfx##_cfg_preset((CFG *)cfg, name); } \
    static int u_option(void *cfg, const char *name, const char *value, char *err, size_t len)  \
    {                                                                                            \
        return pfx##_cfg_option((CFG *)cfg, name, value, err, len);                              \
    }                                                                                            \
    static int u_check(void *cfg, char *err, size_t len) { return pfx##_cfg_check((CFG *)cfg, err, len); } \
    static void u_args(const void *cfg, char *buf, size_t len)                                   \
    {                                                                                            \
        pfx##_cfg_args((const CFG *)cfg, buf, len);                                              \
    }
/* u_name over pfx##_cfg_name taking const CFG *. */
#define COHKIT_UNIT_CFG_NAME_ADAPTER(pfx, CFG)                                                          \
    static void u_name(const void *cfg, char *buf, size_t len)                                   \
    {                                                                                            \
        pfx##_cfg_name((const CFG *)cfg, buf, len);                                              \
    }

/* u_tm_new .. u_tm_step over the timing shell's functions. CFG is the
 * type tm_new takes (the registry's configuration, or its first member),
 * TM the shell's type, IN and OUT the types of its port value arrays
 * (uint64_t, or structs of one word per port). */
#define COHKIT_UNIT_TM_ADAPTERS(CFG, TM, IN, OUT, tm_new_f, tm_free_f, tm_reset_f, eval_f, step_f)      \
    static void *u_tm_new(const void *cfg) { return tm_new_f((const CFG *)cfg); }                \
    static void u_tm_free(void *tm) { tm_free_f((TM *)tm); }                                     \
    static void u_tm_reset(void *tm) { tm_reset_f((TM *)tm); }                                   \
    static void u_tm_eval(const void *tm, const uint64_t *in, uint64_t *out)                     \
    {                                                                                            \
        eval_f((const TM *)tm, (const IN *)(const void *)in, (OUT *)(void *)out);                \
    }                                                                                            \
    static void u_tm_step(void *tm, const uint64_t *in)                                          \
    {                                                                                            \
        step_f((TM *)tm, (const IN *)(const void *)in);                                          \
    }

/* The three above for a unit whose configuration functions take CFG. */
#define COHKIT_UNIT_ADAPTERS(pfx, CFG, TM, IN, OUT, tm_new_f, tm_free_f, tm_reset_f, eval_f, step_f)     \
    COHKIT_UNIT_CFG_ADAPTERS(pfx, CFG)                                                           \
    COHKIT_UNIT_CFG_NAME_ADAPTER(pfx, CFG)                                                       \
    COHKIT_UNIT_TM_ADAPTERS(CFG, TM, IN, OUT, tm_new_f, tm_free_f, tm_reset_f, eval_f, step_f)

/* The cohkit_unit_desc members the adapter macros define. */
#define COHKIT_UNIT_CFG_FIELDS                                                                          \
    .cfg_preset = u_preset, .cfg_option = u_option, .cfg_check = u_check, .cfg_name = u_name,    \
    .cfg_args = u_args
#define COHKIT_UNIT_TM_FIELDS                                                                           \
    .tm_new = u_tm_new, .tm_free = u_tm_free, .tm_reset = u_tm_reset, .tm_eval = u_tm_eval,      \
    .tm_step = u_tm_step

/* The cohkit_unit_desc members of a unit's stimulus and trace tool, over
 * its `streams` and its functions of the same names (stim_note, optional,
 * is set apart). */
#define COHKIT_UNIT_STIM_FIELDS                                                                         \
    .streams = streams, .stim_new = stim_new, .stim_free = stim_free, .stim_drive = stim_drive,  \
    .stim_observe = stim_observe, .stim_done = stim_done, .stim_limit = stim_limit,              \
    .stim_summary = stim_summary, .trace_run = trace_run

/* --------------------------------------------------------------- ports */

/* The unit's port function, `static int u_ports(const void *cfg,
 * cohkit_port *p, int max)`, around its port table:
 *   COHKIT_UNIT_PORTS_BEGIN(<cfg type>, <geometry type>, <geometry function>, <its argument>)
 *   #include "<unit>_ports.def"
 *   COHKIT_UNIT_PORTS_END
 * The widths of the table see c (const CFG *, the registry's configuration
 * or its first member) and g (the geometry geom_of(GEOM_ARG, g) fills). A
 * port table defaults its entry macro to COHKIT_UNIT_PORT (and its _IF form
 * to COHKIT_UNIT_PORT_IF) and undefines it at its end. */
#define COHKIT_UNIT_PORTS_BEGIN(CFG, GEOM, geom_of, GEOM_ARG)                                           \
    static int u_ports(const void *cfg, cohkit_port *p, int max)                                 \
    {                                                                                            \
        const CFG *c = cfg;                                                                      \
        GEOM gg, *g = &gg;                                                                       \
        int n = 0;                                                                               \
        geom_of(GEOM_ARG, g);                                                                    \
        (void)c;                                                                                 \
        (void)g;
/* The same for a unit whose widths need no geometry. */
#define COHKIT_UNIT_PORTS_BEGIN_CFG(CFG)                                                                \
    static int u_ports(const void *cfg, cohkit_port *p, int max)                                 \
    {                                                                                            \
        const CFG *c = cfg;                                                                      \
        int n = 0;                                                                               \
        (void)c;
#define COHKIT_UNIT_PORTS_END                                                                           \
    return n;                                                                                    \
    }

static inline void cohkit_unit_port_put(cohkit_port *p, int max, int *n, cohkit_port_dir dir, const char *name,
                                 unsigned width)
{
    if (*n < max) {
        p[*n].dir = dir;
        p[*n].name = name;
        p[*n].width = width;
    }
    (*n)++;
}
/* One row of a .def port table, inside a ports function with `p`, `max`
 * and the count `n` in scope:
 *   #define MYUNIT_PORT COHKIT_UNIT_PORT
 *   #include "<family>_<unit>_ports.def"  */
#define COHKIT_UNIT_PORT(pdir, pname, pwidth) cohkit_unit_port_put(p, max, &n, COHKIT_PORT_##pdir, #pname, (unsigned)(pwidth));
/* A row present only in configurations where `cond` holds. */
#define COHKIT_UNIT_PORT_IF(cond, pdir, pname, pwidth)                                                  \
    if (cond)                                                                                    \
        COHKIT_UNIT_PORT(pdir, pname, pwidth)

/* ------------------------------------------------------------ stimulus */

/* The random state of a stimulus source: the run's seed spread by the
 * golden ratio plus the unit's own salt, never 0 (xorshift64* state). */
static inline uint64_t cohkit_unit_stim_seed(uint64_t seed, uint64_t salt)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + salt;
    return s ? s : 1;
}
/* A second state independent of the first (the CoDec units' jitter). */
static inline uint64_t cohkit_unit_stim_seed2(uint64_t seed)
{
    uint64_t s = seed * 0xD1B54A32D192ED03ull + 0x2545F4914F6CDD1Dull;
    return s ? s : 1;
}

/* The stimulus kind of a run: the index of a->stream in `streams` (the
 * unit's cohkit_unit_desc.streams; NULL selects [0]), or the number of streams for
 * a trace run (a->trace set). -1 with "--stream: 'x' is not a, b or c" in
 * err for an unknown stream. */
int cohkit_unit_stim_kind(const char *const *streams, const cohkit_unit_stim_args *a, char *err, size_t len);

/* Back-pressure: the percentages of cycles in which the stimulus offers a
 * request (valid) and accepts a result (ready). */
typedef struct {
    unsigned valid, ready;
} cohkit_unit_bp;
/* Every cycle. */
#define COHKIT_UNIT_BP_FULL ((cohkit_unit_bp){100, 100})
/* Trace runs: records offered in 85 % of cycles, results taken in 75 %. */
#define COHKIT_UNIT_BP_TRACE ((cohkit_unit_bp){85, 75})

/* What every stimulus source holds first: its kind (the index of its
 * stream in the unit's streams, their number for a trace run), its random
 * state, its back-pressure, and where a trace run prints its results. */
typedef struct {
    int kind;
    int trace; /* a trace run                                             */
    uint64_t rng;
    cohkit_unit_bp bp;
    FILE *out; /* a trace run: a->out                                     */
} cohkit_unit_stim_base;

/* A zeroed stimulus source of `size` bytes whose first member is a
 * cohkit_unit_stim_base: kind (cohkit_unit_stim_kind), rng from the run's
 * seed and the unit's salt, bp COHKIT_UNIT_BP_FULL, or for a trace run
 * COHKIT_UNIT_BP_TRACE and out. NULL with the reason in err. */
void *cohkit_unit_stim_alloc(size_t size, const char *const *streams, const cohkit_unit_stim_args *a,
                             uint64_t salt, char *err, size_t len);

/* The unit's part of a new stimulus source s (allocated as above): 0, or
 * -1 with the reason in err (s is then freed by the unit's stim_free). */
typedef int (*cohkit_unit_stim_init_fn)(void *s, const void *cfg, const cohkit_unit_stim_args *a,
                                        char *err, size_t len);

/* A unit's stim_new: cohkit_unit_stim_alloc, then init; on failure
 * stim_free(s) and NULL. */
void *cohkit_unit_stim_new(size_t size, const char *const *streams, uint64_t salt,
                           cohkit_unit_stim_init_fn init, void (*stim_free)(void *s),
                           const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len);

/* Defines the unit's `static void *stim_new(...)` on cohkit_unit_stim_new
 * with its `streams`, `stim_init` and `stim_free`. */
#define COHKIT_UNIT_STIM_NEW(STIM, SALT)                                                           \
    static void *stim_new(const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)  \
    {                                                                                              \
        return cohkit_unit_stim_new(sizeof(STIM), streams, SALT, stim_init, stim_free, cfg, a,     \
                                    err, len);                                                     \
    }

/* The trace's name ("trace" without one) and ": " put before the reason
 * in err: -1, for a stim_init whose trace does not read. */
int cohkit_unit_stim_trace_err(const cohkit_unit_stim_args *a, char *err, size_t len);

/* The schedule of random runs: every so many cycles valid and then ready
 * are drawn from these tables (one cohkit_unit_rnd() each, modulo the length). */
typedef struct {
    const unsigned *valid;
    unsigned nvalid;
    const unsigned *ready;
    unsigned nready;
} cohkit_unit_bp_sched;
#define COHKIT_UNIT_BP_SCHED(v, r) {(v), sizeof(v) / sizeof(v)[0], (r), sizeof(r) / sizeof(r)[0]}

static inline void cohkit_unit_bp_draw(const cohkit_unit_bp_sched *s, uint64_t *rng, cohkit_unit_bp *bp)
{
    bp->valid = s->valid[cohkit_unit_rnd(rng) % s->nvalid];
    bp->ready = s->ready[cohkit_unit_rnd(rng) % s->nready];
}

COHKIT_END_DECLS

#endif
