/*
 * The REC directory as a registry unit (cmodel/unit.h): configuration
 * wrapper, port table, timing-shell adapters, the constrained-random and
 * trace stimulus sources of the lockstep bench, and the trace tool
 * (`cohmodel rec`). The model itself is cmodel/rec/rec.c.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rec.h"
#include "rec_trace.h"
#include "unit_adapt.h"

/* The configuration with what the option parser must remember: in line and
 * hmg modes the range follows the line (and group) unless --range was given. */
typedef struct {
    rec_cfg c;
    int range_set;
} rec_ucfg;

static const char *const presets[] = {"default", "fpga", "baseline", "hmg", NULL};
static const char *const streams[] = {"mixed", "hit", "sparse", NULL};

static int u_preset(void *cfg, const char *name)
{
    rec_ucfg *u = cfg;
    u->range_set = 0;
    return rec_cfg_preset(&u->c, name);
}

static int u_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    rec_ucfg *u = cfg;
    int r = rec_cfg_option(&u->c, name, value, err, len);
    if (r == 0 && strcmp(name, "range") == 0)
        u->range_set = 1;
    return r;
}

static int u_check(void *cfg, char *err, size_t len)
{
    rec_ucfg *u = cfg;
    if (!u->range_set) {
        if (u->c.mode == REC_MODE_LINE)
            u->c.range = u->c.line;
        else if (u->c.mode == REC_MODE_HMG)
            u->c.range = u->c.line * u->c.group;
    }
    return rec_cfg_check(&u->c, err, len);
}

static void u_name(const void *cfg, char *buf, size_t len)
{
    rec_cfg_name(&((const rec_ucfg *)cfg)->c, buf, len);
}

static void u_args(const void *cfg, char *buf, size_t len)
{
    rec_cfg_args(&((const rec_ucfg *)cfg)->c, buf, len);
}

COHKIT_UNIT_PORTS_BEGIN(rec_cfg, rec_geom, rec_geom_of, c)
#include "rec_ports.def"
COHKIT_UNIT_PORTS_END

/* ---------------------------------------------------------------- timing */

COHKIT_UNIT_TM_ADAPTERS(rec_cfg, rec_tm, rec_in, rec_out, rec_tm_new, rec_tm_free,
                 rec_tm_reset, rec_eval, rec_step)

/* -------------------------------------------------------------- stimulus */

enum { FLAG_HOME = 0, FLAG_DUMP = 1, FLAG_STATS = 2 };
static const cohkit_unit_flag flags[] = {
    {"home", "G", "home GPU id (default: 0 for traces, drawn from the seed otherwise)"},
    {"dump", NULL, "cohmodel: after the trace, print every valid entry"},
    {"stats", NULL, "cohmodel: print statistics to standard error"},
    {NULL, NULL, NULL},
};

/* sparse: a few offsets of each range in a phase and many local writes, so
 * entries keep few lines and are freed, with one tag more than the ways: a
 * freed way must be the next victim (an entry left valid shows). */
enum { KIND_MIXED, KIND_HIT, KIND_SPARSE, KIND_TRACE };

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    rec_cfg c;
    rec_geom g;
    uint64_t set_pool[4], tag_pool[20], offs[2];
    unsigned nsets, ntags;
    int have;
    uint64_t q_op, q_addr, q_src;
    unsigned home;
    rec_treq *trace;
    size_t ntrace, tnext;
    uint64_t accepted, invs, warm, measure_accepted;
} rec_stim;

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static int parse_home(const char *v, unsigned gpus, unsigned *home, char *err, size_t len)
{
    char *end;
    unsigned long h;
    if (v == NULL || *v == '\0' || *v == '-' || (h = strtoul(v, &end, 10), *end) || h > 15) {
        snprintf(err, len, "--home: '%s' is not a GPU id 0..15", v ? v : "");
        return -1;
    }
    if (h >= gpus) {
        snprintf(err, len, "--home: GPU %lu is not in a %u-GPU system", h, gpus);
        return -1;
    }
    *home = (unsigned)h;
    return 0;
}

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    rec_stim *s = p;
    const char *hv = a->flags ? a->flags[FLAG_HOME] : NULL;
    unsigned i;
    uint64_t base;
    s->c = ((const rec_ucfg *)cfg)->c;
    rec_geom_of(&s->c, &s->g);
    s->nsets = s->g.sets < 4 ? s->g.sets : 4;
    /* distinct sets and tags, so that a hit-only stream never evicts */
    base = cohkit_unit_rnd(&s->b.rng);
    for (i = 0; i < s->nsets; i++)
        s->set_pool[i] = (base + i) & mask64(s->g.index_bits);
    s->ntags = s->b.kind == KIND_SPARSE ? s->c.ways + 1 : s->c.ways + 3;
    base = cohkit_unit_rnd(&s->b.rng);
    for (i = 0; i < s->c.ways + 3; i++)
        s->tag_pool[i] = (base + i * 0x9E3779B1ull) & mask64(s->g.base_bits - s->g.index_bits);
    s->b.bp = COHKIT_UNIT_BP_FULL;
    if (hv != NULL) {
        if (parse_home(hv, s->c.gpus, &s->home, err, len) != 0)
            return -1;
    } else if (!s->b.trace) {
        s->home = (unsigned)(cohkit_unit_rnd(&s->b.rng) % s->c.gpus);
    }
    if (s->b.trace && rec_trace_read(a->trace, &s->c, s->home, &s->trace, &s->ntrace, err, len) != 0)
        return cohkit_unit_stim_trace_err(a, err, len);
    return 0;
}

static void stim_free(void *p)
{
    rec_stim *s = p;
    if (s) {
        free(s->trace);
        free(s);
    }
}

COHKIT_UNIT_STIM_NEW(rec_stim, 0x1234567ull)

static void rand_request(rec_stim *s, int hit_only)
{
    const rec_cfg *c = &s->c;
    const rec_geom *g = &s->g;
    unsigned r = cohkit_unit_pct(&s->b.rng);
    uint64_t base, line;
    if (hit_only)
        s->q_op = REC_OP_RR;
    else if (s->b.kind == KIND_SPARSE)
        s->q_op = r < 45 ? REC_OP_RR : r < 55 ? REC_OP_RW : REC_OP_LW;
    else
        s->q_op = r < 55 ? REC_OP_RR : r < 75 ? REC_OP_RW : r < 97 ? REC_OP_LW : REC_OP_NOP;
    /* a remote requester other than home; now and then the home GPU or an
     * out-of-range id, which the directory must ignore */
    r = cohkit_unit_pct(&s->b.rng);
    if (!hit_only && r < 2)
        s->q_src = s->home;
    else if (!hit_only && r < 4)
        s->q_src = cohkit_unit_rnd(&s->b.rng) & mask64(g->gpu_bits);
    else {
        unsigned k = (unsigned)(cohkit_unit_rnd(&s->b.rng) % (c->gpus - 1));
        s->q_src = k >= s->home ? k + 1 : k;
    }
    if (s->b.kind == KIND_SPARSE) {
        base = (s->tag_pool[cohkit_unit_rnd(&s->b.rng) % s->ntags] << g->index_bits) |
               s->set_pool[cohkit_unit_rnd(&s->b.rng) % s->nsets];
        line = (base << g->span_bits) | s->offs[cohkit_unit_rnd(&s->b.rng) & 1];
    } else if (!hit_only && cohkit_unit_pct(&s->b.rng) < 8) {
        line = cohkit_unit_rnd(&s->b.rng) & mask64(g->laddr_bits);
    } else {
        unsigned ntags = hit_only ? (c->ways < s->ntags ? c->ways : s->ntags) : s->ntags;
        base = (s->tag_pool[cohkit_unit_rnd(&s->b.rng) % ntags] << g->index_bits) |
               s->set_pool[cohkit_unit_rnd(&s->b.rng) % s->nsets];
        line = (base << g->span_bits) | (cohkit_unit_rnd(&s->b.rng) & mask64(g->span_bits));
    }
    s->q_addr = line & mask64(g->laddr_bits);
}

static const unsigned sched_valid[] = {100, 80, 50, 20}, sched_ready[] = {100, 70, 30};
static const cohkit_unit_bp_sched sched = COHKIT_UNIT_BP_SCHED(sched_valid, sched_ready);

static void stim_drive(void *p, uint64_t cyc, uint64_t *inw)
{
    rec_stim *s = p;
    rec_in *in = (rec_in *)(void *)inw;
    if (s->b.kind == KIND_TRACE) {
        if (!s->have && s->tnext < s->ntrace && cohkit_unit_pct(&s->b.rng) < COHKIT_UNIT_BP_TRACE.valid) {
            const rec_treq *t = &s->trace[s->tnext++];
            s->q_op = t->op;
            s->q_addr = t->line;
            s->q_src = t->src;
            s->have = 1;
        }
        in->inv_ready_i = cohkit_unit_pct(&s->b.rng) < COHKIT_UNIT_BP_TRACE.ready;
    } else {
        if ((cyc & 2047) == 0 && s->b.kind != KIND_HIT) {
            cohkit_unit_bp_draw(&sched, &s->b.rng, &s->b.bp);
            if (s->b.kind == KIND_SPARSE) {
                s->offs[0] = cohkit_unit_rnd(&s->b.rng) & mask64(s->g.span_bits);
                s->offs[1] = cohkit_unit_rnd(&s->b.rng) & mask64(s->g.span_bits);
            }
        }
        if (!s->have && cohkit_unit_pct(&s->b.rng) < s->b.bp.valid) {
            rand_request(s, s->b.kind == KIND_HIT);
            s->have = 1;
        }
        in->inv_ready_i = cohkit_unit_pct(&s->b.rng) < s->b.bp.ready;
    }
    in->home_i = s->home;
    in->req_valid_i = (uint64_t)s->have;
    in->req_op_i = s->have ? s->q_op : 0;
    in->req_addr_i = s->have ? s->q_addr : 0;
    in->req_src_i = s->have ? s->q_src : 0;
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *inw, const uint64_t *outw)
{
    rec_stim *s = p;
    const rec_in *in = (const rec_in *)(const void *)inw;
    const rec_out *o = (const rec_out *)(const void *)outw;
    if (in->req_valid_i && o->req_ready_o) {
        s->accepted++;
        s->have = 0;
        if (s->b.kind == KIND_HIT && s->warm == 0 && s->accepted == 4ull * s->c.ways * 16) {
            s->warm = cyc + 1;
            s->measure_accepted = 0;
        } else if (s->warm) {
            s->measure_accepted++;
        }
    }
    if (o->inv_valid_o && in->inv_ready_i) {
        s->invs++;
        if (s->b.out)
            rec_trace_print_inv(s->b.out, &s->c, o->inv_addr_o, (uint32_t)o->inv_mask_o);
    }
}

static int stim_done(const void *p, const void *tmp)
{
    const rec_stim *s = p;
    const rec_tm *tm = tmp;
    return s->tnext == s->ntrace && !s->have && !tm->s1_valid && !tm->s2_valid &&
           tm->job_head == tm->job_n && !tm->init_busy;
}

static uint64_t stim_limit(const void *p)
{
    const rec_stim *s = p;
    return 2 + s->g.sets + (s->ntrace + 1) * (REC_JOB_MAX + 8) + 16;
}

static void stim_summary(const void *p, const void *tmp, uint64_t cycles, FILE *f, const char *c)
{
    const rec_stim *s = p;
    const rec_stats *st = &((const rec_tm *)tmp)->dir->st;
    uint64_t mc = s->warm ? cycles - s->warm : 0;
    fprintf(f, "%scycles %llu  requests accepted %llu  (%.3f per cycle)\n", c,
            (unsigned long long)cycles, (unsigned long long)s->accepted,
            cycles ? (double)s->accepted / (double)cycles : 0.0);
    if (s->b.kind == KIND_HIT)
        fprintf(f, "%shit-heavy stream after warm-up: %llu requests in %llu cycles = %.3f per cycle\n",
                c, (unsigned long long)s->measure_accepted, (unsigned long long)mc,
                mc ? (double)s->measure_accepted / (double)mc : 0.0);
    fprintf(f,
            "%sinvalidations %llu (write %llu, eviction %llu)  evictions %llu  "
            "mean coalesced lines per evicted entry %.2f\n",
            c, (unsigned long long)st->invalidations, (unsigned long long)st->write_invs,
            (unsigned long long)st->evict_invs, (unsigned long long)st->evictions,
            st->evictions ? (double)st->evicted_lines / (double)st->evictions : 0.0);
}

static void stim_note(const void *p, char *buf, size_t len)
{
    snprintf(buf, len, "  home GPU %u", ((const rec_stim *)p)->home);
}

/* ------------------------------------------------------------ trace tool */

static void print_inv(void *ctx, uint64_t line, uint32_t mask)
{
    const rec_stim *s = ctx;
    rec_trace_print_inv(s->b.out, &s->c, line, mask);
}

static void dump(FILE *f, const rec_dir *d)
{
    unsigned s, w, k, nwords = (d->g.paper_entry_bits + 31) / 32;
    uint32_t words[128];
    fprintf(f,
            "# valid entries: set way base-address entry-vector (Fig. 9: [%u] valid, "
            "[%u:%u] base, then per slot position bit + %u sharer bits from bit 0)\n",
            d->g.paper_entry_bits - 1, d->g.paper_entry_bits - 2, d->g.vec_bits,
            d->g.sharer_bits);
    for (s = 0; s < d->g.sets; s++)
        for (w = 0; w < d->cfg.ways; w++) {
            if (!d->ent[(size_t)s * d->cfg.ways + w].valid)
                continue;
            rec_entry_vector(d, s, w, words, nwords);
            fprintf(f, "ENTRY %u %u 0x%llx 0x", s, w,
                    (unsigned long long)(rec_entry_base(d, s, w)
                                         << (d->g.span_bits + d->g.line_bits)));
            for (k = nwords; k-- > 0;)
                fprintf(f, k == nwords - 1 ? "%x" : "%08x", words[k]);
            fprintf(f, "\n");
        }
}

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    cohkit_unit_stim_args a;
    rec_stim *s;
    rec_dir *d;
    char err[300];
    size_t i;
    memset(&a, 0, sizeof a);
    a.trace = in;
    a.trace_name = in_name;
    a.out = out;
    a.flags = fl;
    s = stim_new(cfg, &a, err, sizeof err);
    if (s == NULL) {
        fprintf(errf, "cohmodel: %s\n", err);
        return 2;
    }
    d = rec_dir_new(&s->c);
    if (d == NULL) {
        fprintf(errf, "cohmodel: out of memory\n");
        stim_free(s);
        return 2;
    }
    d->home = s->home;
    for (i = 0; i < s->ntrace; i++)
        rec_core_access(d, s->trace[i].op, s->trace[i].line, s->trace[i].src, print_inv, s);
    if (fl[FLAG_DUMP])
        dump(out, d);
    if (fl[FLAG_STATS])
        fprintf(errf,
                "requests %zu  hits %llu  misses %llu  evictions %llu  invalidations %llu "
                "(write %llu, eviction %llu)  mean coalesced lines per evicted entry %.2f\n",
                s->ntrace, (unsigned long long)d->st.hits, (unsigned long long)d->st.misses,
                (unsigned long long)d->st.evictions, (unsigned long long)d->st.invalidations,
                (unsigned long long)d->st.write_invs, (unsigned long long)d->st.evict_invs,
                d->st.evictions ? (double)d->st.evicted_lines / (double)d->st.evictions : 0.0);
    rec_dir_free(d);
    stim_free(s);
    return 0;
}

static void bench_sink(void *ctx, uint64_t line, uint32_t mask)
{
    *(uint64_t *)ctx += line ^ mask;
}

/* make bench: the functional core on a seeded random stream over a working
 * set larger than the directory. */
static int core_bench(const void *cfg, uint64_t n, FILE *f)
{
    const rec_cfg *c = cfg;
    rec_dir *d = rec_dir_new(c);
    uint64_t i, s = 1, chk = 0;
    struct timespec t0, t1;
    double sec;
    if (d == NULL)
        return -1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 0; i < n; i++) {
        unsigned r, src;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        r = (unsigned)(s % 100);
        src = 1 + (unsigned)((s >> 32) % (c->gpus - 1));
        /* 16 K ranges of 16 lines: twice the default directory's reach */
        rec_core_access(d, r < 70 ? REC_OP_RR : r < 85 ? REC_OP_RW : REC_OP_LW,
                        (s >> 12) & 0x3ffff, src, bench_sink, &chk);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    fprintf(f, "%llu accesses in %.2f s = %.1f M accesses/s (evictions %llu, invalidations %llu, check %llx)\n",
            (unsigned long long)n, sec, (double)n / sec / 1e6, (unsigned long long)d->st.evictions,
            (unsigned long long)d->st.invalidations, (unsigned long long)chk);
    rec_dir_free(d);
    return 0;
}

const cohkit_unit_desc rec_unit = {
    .name = "rec",
    .family = "rec",
    .title = "REC range-coalescing coherence directory (Ko et al., 4.1-4.2; baselines 2.3, 5.2)",
    .model_ref = "cmodel/rec/rec.c rec_eval() / rec_step() (timing), rec_core_access() (function)",
    .cfg_size = sizeof(rec_ucfg),
    .presets = presets,
    .committed = presets,
    .module_prefix = "rec",
    .opts = &rec_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "RR <hex-addr> <gpu> | RW <hex-addr> <gpu> | LW <hex-addr>, '#' comments;\n"
                  "output: one 'INV <line-addr> <gpu-mask>' per invalidation",
    COHKIT_UNIT_STIM_FIELDS,
    .stim_note = stim_note,
    .core_bench = core_bench,
};
