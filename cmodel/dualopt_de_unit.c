/*
 * The DualOpt decision engine as a registry unit (cmodel/unit.h): port table,
 * timing-shell adapters, the constrained-random and trace stimulus sources of
 * the lockstep bench, and the trace tool (`cohmodel dualopt-de`). The model
 * itself is cmodel/dualopt_de.c.
 */
#include <stdlib.h>
#include <string.h>

#include "dualopt_de.h"
#include "dualopt_de_trace.h"
#include "unit.h"

static const char *const presets[] = {"default", "fpga", "gran8", "gran16", "kernel", "tiny", NULL};
static const char *const streams[] = {"mixed", "steady", NULL};
static const char *const bare[] = {"remonitor-on-kernel", NULL};

static int u_preset(void *cfg, const char *name) { return de_cfg_preset(cfg, name); }
static int u_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    return de_cfg_option(cfg, name, value, err, len);
}
static int u_check(void *cfg, char *err, size_t len) { return de_cfg_check(cfg, err, len); }
static void u_name(const void *cfg, char *buf, size_t len) { de_cfg_name(cfg, buf, len); }
static void u_args(const void *cfg, char *buf, size_t len) { de_cfg_args(cfg, buf, len); }

static int u_ports(const void *cfg, port_t *p, int max)
{
    const de_cfg *c = cfg;
    de_geom gg, *g = &gg;
    int n = 0;
    de_geom_of(c, g);
#define DE_PORT(pdir, pname, pwidth)                                                              \
    if (n < max) {                                                                                \
        p[n].dir = PORT_##pdir;                                                                   \
        p[n].name = #pname;                                                                       \
        p[n].width = (pwidth);                                                                    \
    }                                                                                             \
    n++;
#include "dualopt_de_ports.def"
#undef DE_PORT
    return n;
}

static void *u_tm_new(const void *cfg) { return de_tm_new(cfg); }
static void u_tm_free(void *tm) { de_tm_free(tm); }
static void u_tm_reset(void *tm) { de_tm_reset(tm); }
static void u_tm_eval(const void *tm, const uint64_t *in, uint64_t *out)
{
    de_eval(tm, (const de_in *)(const void *)in, (de_out *)(void *)out);
}
static void u_tm_step(void *tm, const uint64_t *in) { de_step(tm, (const de_in *)(const void *)in); }

/* -------------------------------------------------------------- stimulus */

enum { FLAG_STATS = 0 };
static const unit_flag flags[] = {
    {"stats", NULL, "cohmodel: '#' statistics lines after the trace output"},
    {NULL, NULL, NULL},
};

enum { KIND_MIXED, KIND_STEADY, KIND_TRACE };

/* A traffic profile of one monitoring epoch (random streams). */
typedef struct {
    unsigned remote_pm;  /* remote accesses, per mille */
    unsigned read_pct;   /* reads among remote accesses */
    unsigned pop_max;    /* mask popcount uniform in 1..pop_max */
    unsigned hit_pct;    /* L1 tag hits */
} profile;

typedef struct {
    de_cfg c;
    de_geom g;
    int kind;
    uint64_t rng;
    unsigned p_valid;
    profile pr;
    int have;                 /* an access is waiting for its handshake */
    unsigned q_kind, q_hit;
    uint64_t q_mask;
    uint64_t next_restart, next_kernel; /* random streams: event cycles */
    de_trec *trace;
    size_t ntrace, tnext;
    FILE *out;
    uint64_t last_event;      /* cycle of the last record driven        */
    uint64_t acc_at[8];       /* access index handshaken in cycle & 7   */
    uint64_t accesses, kernels, restarts, decisions, by_mode[4];
    int finished;
} de_stim;

static uint64_t maskw(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* Profiles straddle every threshold of the paper's configuration: remote
 * ratio around 2 %, utilisation around 0.2, hit rate around 0.4. */
static void new_profile(de_stim *s)
{
    static const unsigned rm[] = {0, 10, 19, 20, 21, 60, 300, 900, 1000};
    static const unsigned rd[] = {0, 50, 90, 100};
    static const unsigned hp[] = {0, 30, 39, 40, 41, 60, 95};
    unsigned pm[] = {1, 2, 3, 4, 6, s->c.words};
    s->pr.remote_pm = rm[unit_rnd(&s->rng) % 9];
    s->pr.read_pct = rd[unit_rnd(&s->rng) % 4];
    s->pr.pop_max = pm[unit_rnd(&s->rng) % 6];
    if (s->pr.pop_max > s->c.words)
        s->pr.pop_max = s->c.words;
    s->pr.hit_pct = hp[unit_rnd(&s->rng) % 7];
}

/* Cycle of the next random reset: epochs on the scale of the access bound
 * (local-dominated windows can close) or of the window (they cannot). */
static uint64_t epoch(de_stim *s, uint64_t cyc)
{
    uint64_t span = unit_rnd(&s->rng) & 1 ? 2 * s->g.cap : 12ull * s->c.window;
    return cyc + 200 + unit_rnd(&s->rng) % (span + 2000);
}

static void new_steady(de_stim *s)
{
    s->pr.remote_pm = 1000;
    s->pr.read_pct = 100;
}

static void *stim_new(const void *cfg, const unit_stim_args *a, char *err, size_t len)
{
    de_stim *s = calloc(1, sizeof *s);
    if (s == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    s->c = *(const de_cfg *)cfg;
    de_geom_of(&s->c, &s->g);
    s->rng = a->seed * 0x9E3779B97F4A7C15ull + 0x5eedull;
    if (s->rng == 0)
        s->rng = 1;
    s->p_valid = 100;
    if (a->trace != NULL) {
        char e2[256];
        s->kind = KIND_TRACE;
        s->out = a->out;
        if (de_trace_read(a->trace, &s->c, &s->trace, &s->ntrace, e2, sizeof e2) != 0) {
            snprintf(err, len, "%s: %s", a->trace_name ? a->trace_name : "trace", e2);
            free(s);
            return NULL;
        }
    } else if (a->stream == NULL || strcmp(a->stream, "mixed") == 0) {
        s->kind = KIND_MIXED;
    } else if (strcmp(a->stream, "steady") == 0) {
        s->kind = KIND_STEADY;
    } else {
        snprintf(err, len, "--stream: '%s' is not mixed or steady", a->stream);
        free(s);
        return NULL;
    }
    new_profile(s);
    if (s->kind == KIND_STEADY) /* remote reads only: windows close back to back */
        new_steady(s);
    s->next_restart = s->kind == KIND_MIXED ? epoch(s, 0) : ~0ull;
    s->next_kernel = s->kind == KIND_MIXED ? 500 + unit_rnd(&s->rng) % 20000 : ~0ull;
    return s;
}

static void stim_free(void *p)
{
    de_stim *s = p;
    if (s) {
        free(s->trace);
        free(s);
    }
}

static void rand_access(de_stim *s)
{
    unsigned remote = (unsigned)(unit_rnd(&s->rng) % 1000) < s->pr.remote_pm;
    unsigned read = unit_pct(&s->rng) < (remote ? s->pr.read_pct : 60);
    unsigned k, pop = 1 + (unsigned)(unit_rnd(&s->rng) % s->pr.pop_max);
    uint64_t m = 0;
    s->q_kind = (remote ? 2u : 0u) | (read ? 0u : 1u);
    s->q_hit = unit_pct(&s->rng) < s->pr.hit_pct;
    /* pop distinct random words (or an arbitrary mask now and then) */
    if (unit_pct(&s->rng) < 3)
        m = unit_rnd(&s->rng) & maskw(s->c.words);
    else
        for (k = 0; k < pop; k++) {
            unsigned w = (unsigned)(unit_rnd(&s->rng) % s->c.words);
            while (m >> w & 1)
                w = (w + 1) % s->c.words;
            m |= 1ull << w;
        }
    s->q_mask = m;
}

static void stim_drive(void *p, uint64_t cyc, uint64_t *inw)
{
    de_stim *s = p;
    de_in *in = (de_in *)(void *)inw;
    int out_of_reset = (int)(inw[0] & 1);
    in->kernel_i = 0;
    in->restart_i = 0;
    if (s->kind == KIND_TRACE) {
        if (out_of_reset && !s->have && s->tnext < s->ntrace && unit_pct(&s->rng) < 85) {
            const de_trec *t = &s->trace[s->tnext++];
            s->last_event = cyc;
            if (t->op == DE_T_KERNEL)
                in->kernel_i = 1;
            else if (t->op == DE_T_RESET)
                in->restart_i = 1;
            else {
                s->q_kind = t->op;
                s->q_hit = t->hit;
                s->q_mask = t->mask;
                s->have = 1;
            }
        }
    } else {
        if ((cyc & 2047) == 0 && s->kind == KIND_MIXED) {
            static const unsigned pv[] = {100, 90, 50, 20};
            s->p_valid = pv[unit_rnd(&s->rng) % 4];
        }
        if (!s->have && unit_pct(&s->rng) < s->p_valid) {
            rand_access(s);
            s->have = 1;
        }
        if (out_of_reset && cyc >= s->next_kernel) {
            in->kernel_i = 1;
            s->next_kernel = cyc + 1 + unit_rnd(&s->rng) % 30000;
        }
        if (out_of_reset && cyc >= s->next_restart) {
            in->restart_i = 1;
            new_profile(s);
            if (s->kind == KIND_STEADY)
                new_steady(s);
            s->next_restart = s->kind == KIND_MIXED ? epoch(s, cyc) : ~0ull;
        }
    }
    in->acc_valid_i = (uint64_t)s->have;
    in->acc_kind_i = s->have ? s->q_kind : 0;
    in->acc_hit_i = s->have ? s->q_hit : 0;
    in->acc_mask_i = s->have ? s->q_mask : 0;
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *inw, const uint64_t *outw)
{
    de_stim *s = p;
    const de_in *in = (const de_in *)(const void *)inw;
    const de_out *o = (const de_out *)(const void *)outw;
    s->acc_at[cyc & 7] = 0;
    if (in->acc_valid_i && o->acc_ready_o) {
        s->accesses++;
        s->acc_at[cyc & 7] = s->accesses;
        s->have = 0;
        if (s->kind == KIND_TRACE)
            s->last_event = cyc;
    }
    s->kernels += in->kernel_i & 1;
    s->restarts += in->restart_i & 1;
    if (o->dec_valid_o) {
        de_counts c = {o->dec_total_o, o->dec_remote_o, o->dec_reads_o, o->dec_words_o,
                       o->dec_hits_o};
        s->decisions++;
        s->by_mode[o->dec_mode_o & 3]++;
        if (s->out)
            de_trace_print_decide(s->out, s->acc_at[(cyc - DE_DECIDE_LATENCY) & 7],
                                  (unsigned)o->dec_mode_o, &c);
        if (s->kind != KIND_TRACE) {
            /* after a decision: soon a reset (sometimes while the next
             * decision is still in the pipeline) and a new profile */
            static const uint64_t d[] = {0, 1, 2, 3, 50, 400, 3000};
            uint64_t t = cyc + 1 + d[unit_rnd(&s->rng) % 7];
            if (t < s->next_restart)
                s->next_restart = t;
        }
    }
    if (s->kind == KIND_TRACE && !s->finished && s->tnext == s->ntrace && !s->have &&
        cyc >= s->last_event + DE_DECIDE_LATENCY + 1) {
        if (o->mode_o == DE_MONITOR && s->out) {
            de_counts c = {o->cnt_total_o, o->cnt_remote_o, o->cnt_reads_o, o->cnt_words_o,
                           o->cnt_hits_o};
            de_trace_print_undecided(s->out, &c);
        }
        s->finished = 1;
    }
}

static int stim_done(const void *p, const void *tm)
{
    (void)tm;
    return ((const de_stim *)p)->finished;
}

static uint64_t stim_limit(const void *p)
{
    const de_stim *s = p;
    return 64 + (s->ntrace + 1) * 8;
}

static void stim_note(const void *p, char *buf, size_t len)
{
    const de_stim *s = p;
    snprintf(buf, len, "  window %u, bound %llu", s->c.window, (unsigned long long)s->g.cap);
}

static void stim_summary(const void *p, const void *tm, uint64_t cycles, FILE *f, const char *l)
{
    const de_stim *s = p;
    (void)tm;
    fprintf(f, "%scycles %llu  accesses accepted %llu  (%.3f per cycle)\n", l,
            (unsigned long long)cycles, (unsigned long long)s->accesses,
            cycles ? (double)s->accesses / (double)cycles : 0.0);
    fprintf(f, "%sdecisions %llu (none %llu, coalesce %llu, cache %llu)  resets %llu  kernels %llu\n",
            l, (unsigned long long)s->decisions, (unsigned long long)s->by_mode[DE_NONE],
            (unsigned long long)s->by_mode[DE_COALESCE], (unsigned long long)s->by_mode[DE_CACHE],
            (unsigned long long)s->restarts, (unsigned long long)s->kernels);
}

/* ------------------------------------------------------------ trace tool */

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    de_trec *t = NULL;
    size_t n = 0, i;
    char err[300];
    de_core d;
    uint64_t idx = 0;
    if (de_trace_read(in, cfg, &t, &n, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name ? in_name : "trace", err);
        return 2;
    }
    de_core_init(&d, cfg);
    for (i = 0; i < n; i++) {
        if (t[i].op == DE_T_KERNEL)
            de_kernel(&d);
        else if (t[i].op == DE_T_RESET)
            de_core_restart(&d);
        else if (idx++, de_access(&d, (de_kind)t[i].op, t[i].hit, t[i].mask))
            de_trace_print_decide(out, idx, d.mode, &d.dec);
    }
    if (d.phase != DE_PH_DONE)
        de_trace_print_undecided(out, &d.c);
    if (fl && fl[FLAG_STATS])
        fprintf(out, "# accesses %llu  decisions %llu  resets %llu  re-monitorings %llu  mode %s\n",
                (unsigned long long)d.accesses, (unsigned long long)d.decisions,
                (unsigned long long)d.restarts, (unsigned long long)d.rearms,
                de_mode_str(d.mode));
    free(t);
    return 0;
}

const unit_desc dualopt_de_unit = {
    .name = "dualopt-de",
    .family = "dualopt",
    .title = "DualOpt decision engine (Belayneh et al., 4.3, Fig. 10-12, Table 1)",
    .model_ref = "cmodel/dualopt_de.c de_eval() / de_step() (timing), de_access() (function)",
    .cfg_size = sizeof(de_cfg),
    .presets = presets,
    .committed = presets,
    .module_prefix = "dualopt_de",
    .options_help =
        "  --window N       remote accesses per monitoring window (default 20000)\n"
        "  --warmup N       accesses ignored after reset / re-monitoring (default 0)\n"
        "  --max-total N    window bound on all accesses (default 0: ceil(window / remote-thresh))\n"
        "  --remote-thresh T  remote-ratio threshold, decimal or fraction (default 0.02 = 1/50)\n"
        "  --block-thresh T block-utilisation threshold (default 0.2)\n"
        "  --hit-thresh T   L1 hit-rate threshold (default 0.4)\n"
        "  --words N        words per line = mask bits, 1..64 (default 16)\n"
        "  --hit-over H     reads (hit rate of remote reads) or all (of remote accesses)\n"
        "  --remonitor-on-kernel [1|0]  monitor again after each kernel boundary once decided\n",
    .cfg_preset = u_preset,
    .cfg_option = u_option,
    .cfg_check = u_check,
    .cfg_name = u_name,
    .cfg_args = u_args,
    .ports = u_ports,
    .tm_new = u_tm_new,
    .tm_free = u_tm_free,
    .tm_reset = u_tm_reset,
    .tm_eval = u_tm_eval,
    .tm_step = u_tm_step,
    .streams = streams,
    .flags = flags,
    .trace_help = "LR | LW | RR <hit 0|1> <hex mask> | RW [<hit>] | KERNEL | RESET, '#' comments;\n"
                  "output: 'DECIDE <n> NONE|COALESCE|CACHE <total> <remote> <reads> <words> <hits>'\n"
                  "when the window closes (n: 1-based access index), 'UNDECIDED <counters>' at the end",
    .stim_new = stim_new,
    .stim_free = stim_free,
    .stim_drive = stim_drive,
    .stim_observe = stim_observe,
    .stim_done = stim_done,
    .stim_limit = stim_limit,
    .stim_note = stim_note,
    .stim_summary = stim_summary,
    .trace_run = trace_run,
    .cfg_bare = bare,
};
