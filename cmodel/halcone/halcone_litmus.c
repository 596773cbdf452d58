/*
 * `cohmodel halcone-litmus`: the litmus shapes (cmodel/litmus.c) through
 * the HALCONE system model (halcone_sys_trace_run), each run many times
 * with randomized timing, judged by the system's checker (STALE, REORDER,
 * FUTURE loads and the invariants); docs/halcone.md, "Litmus tests".
 *
 * A thread is a (GPU, CU) pair (--layout). A run is a trace in the
 * halcone-system format (spec 7.4): a warm-up in which each thread loads a
 * random subset of the shape's words (copies whose leases are still
 * running), then the threads' accesses interleaved at random, each thread
 * in program order, one access in three with a random lease override, and
 * before half of them a perturbation: an L1 or L2 eviction of x or y or a
 * load of another word with a random lease (it moves an L1's time). The
 * final values are read by a GPU that took no part (its caches are empty,
 * so it reads memory, where the last write of each block is).
 *
 * Under the safe rules every access is sequentially consistent in logical
 * time (spec 5.1, argued there): every non-SC outcome is forbidden, under
 * the paper's rules and the safe rules alike; the paper's rules are known
 * to break the invariants (docs/halcone.md, Counterexamples).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_check.h"
#include "halcone_system.h"
#include "litmus.h"
#include "unit.h"

static const uint64_t loc_addr[3] = {0x0, 0x1040, 0x2080}; /* x, y, and the word the perturbations load */

enum { HF_TEST, HF_RUNS, HF_LAYOUT, HF_PROGRAM };
static const cohkit_unit_flag hl_flags[] = {
    {"test", "NAME", "one test (MP SB LB S R 2+2W WRC IRIW CoRR CoRW CoWR CoWW; all)"},
    {"runs", "N", "runs per test (200; 1..1000000)"},
    {"layout", "L", "where the threads run: intra (CUs of GPU 0), inter (CU 0 of GPUs 0..),\n"
                    "    grid (thread i on GPU i mod 2, CU i / 2; the default)"},
    {"program", NULL, "print the trace of the first run of each test after a comment line with\n"
                      "    its halcone-system command, do not run"},
    {NULL, NULL, NULL},
};

enum { LAY_GRID, LAY_INTRA, LAY_INTER };
static const char *const lay_names[] = {"grid", "intra", "inter"};

typedef struct {
    const halcone_sys_cfg *base;
    int layout;
} hl_ctx;

typedef struct {
    char text[4096];
    size_t len;
    unsigned nld;                        /* LD lines written            */
    unsigned res_ld[COHKIT_LIT_RES];     /* the LD (0-based) of a result */
    int layout;
    unsigned nthr, observer;             /* the observing GPU            */
    uint64_t s;
} hl_prog;

static void where(int layout, unsigned thr, unsigned *g, unsigned *c)
{
    *g = layout == LAY_INTRA ? 0 : layout == LAY_INTER ? thr : thr % 2;
    *c = layout == LAY_INTRA ? thr : layout == LAY_INTER ? 0 : thr / 2;
}

static void geometry(int layout, unsigned nthr, unsigned *gpus, unsigned *cus)
{
    /* one more GPU, the observer */
    *gpus = (layout == LAY_INTRA ? 1 : layout == LAY_INTER ? nthr : 2) + 1;
    *cus = layout == LAY_INTRA ? nthr : layout == LAY_INTER ? 1 : 2;
    if (*cus < 2 && layout == LAY_INTRA)
        *cus = 2;
}

static void put(hl_prog *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(hl_prog *p, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(p->text + p->len, sizeof p->text - p->len, fmt, ap);
    va_end(ap);
    if (n > 0 && p->len + (size_t)n < sizeof p->text)
        p->len += (size_t)n;
}

static void lease(hl_prog *p)
{
    if (cohkit_lit_rand(&p->s) % 3 == 0)
        put(p, " lease=%u", (unsigned)(cohkit_lit_rand(&p->s) % 15) + 1);
    put(p, "\n");
}

static void put_acc(void *ctx, unsigned thr, const cohkit_lit_acc *a)
{
    hl_prog *p = ctx;
    unsigned g, c;
    where(p->layout, thr, &g, &c);
    if (a->op == 'L') {
        p->res_ld[a->r] = p->nld++;
        put(p, "LD %u %u 0x%" PRIx64, g, c, loc_addr[a->loc]);
    } else if (a->op == 'S') {
        put(p, "ST %u %u 0x%" PRIx64 " %u", g, c, loc_addr[a->loc], a->v);
    } else {
        return; /* no release or acquire: every access is ordered */
    }
    lease(p);
}

static void perturb(void *ctx, unsigned n)
{
    hl_prog *p = ctx;
    unsigned g, c, thr = (unsigned)(cohkit_lit_rand(&p->s) % p->nthr);
    where(p->layout, thr, &g, &c);
    if (n % 3 == 0) {
        put(p, "EVL1 %u %u 0x%" PRIx64 "\n", g, c, loc_addr[cohkit_lit_rand(&p->s) & 1]);
    } else if (n % 3 == 1) {
        put(p, "EVL2 %u 0x%" PRIx64 "\n", g, loc_addr[cohkit_lit_rand(&p->s) & 1]);
    } else {
        p->nld++;
        put(p, "LD %u %u 0x%" PRIx64 " lease=%u\n", g, c, loc_addr[2], n);
    }
}

static void build(const cohkit_lit_test *t, int layout, uint64_t seed, hl_prog *p)
{
    unsigned d, k, g, c, gpus, cus, nl = cohkit_lit_nres(t) - (unsigned)strlen(t->fin);
    memset(p, 0, sizeof *p);
    p->layout = layout;
    p->nthr = t->nthr;
    p->s = seed;
    geometry(layout, t->nthr, &gpus, &cus);
    p->observer = gpus - 1;
    for (d = 0; d < t->nthr; d++)
        for (k = 0; k < 2; k++)
            if (cohkit_lit_rand(&p->s) & 1) {
                where(layout, d, &g, &c);
                p->nld++;
                put(p, "LD %u %u 0x%" PRIx64 "\n", g, c, loc_addr[k]);
            }
    cohkit_lit_interleave(t, 0, &p->s, 15, put_acc, perturb, p);
    for (k = 0; t->fin[k]; k++) {
        p->res_ld[nl + k] = p->nld++;
        put(p, "LD %u 0 0x%" PRIx64 "\n", p->observer, loc_addr[t->fin[k] == 'y']);
    }
}

static int configure(const hl_ctx *x, const cohkit_lit_test *t, halcone_sys_cfg *c, char *err, size_t len)
{
    unsigned gpus, cus;
    char v[16];
    *c = *x->base;
    geometry(x->layout, t->nthr, &gpus, &cus);
    snprintf(v, sizeof v, "%u", gpus);
    if (halcone_sys_cfg_option(c, "gpus", v, err, len))
        return 1;
    snprintf(v, sizeof v, "%u", cus);
    return halcone_sys_cfg_option(c, "cus", v, err, len) || halcone_sys_cfg_check(c, err, len);
}

static int hl_one(void *ctx, const cohkit_lit_test *t, int sync, uint64_t seed, signed char *res, char *err,
                  size_t len)
{
    const hl_ctx *x = ctx;
    halcone_sys_cfg c;
    hl_prog p;
    char *out = NULL, *eb = NULL, *l;
    size_t outlen = 0, elen = 0;
    unsigned ld = 0, i, nres = cohkit_lit_nres(t);
    FILE *in, *of, *ef;
    int rc;
    (void)sync;
    build(t, x->layout, seed, &p);
    if (configure(x, t, &c, err, len))
        return 1;
    in = fmemopen(p.text, p.len, "r");
    of = open_memstream(&out, &outlen);
    ef = open_memstream(&eb, &elen);
    rc = in && of && ef ? halcone_sys_trace_run(&c, 0, 1, in, "trace", of, ef) : 2;
    if (in)
        fclose(in);
    if (of)
        fclose(of);
    if (ef)
        fclose(ef);
    if (rc == 2)
        snprintf(err, len, "%.300s", eb && *eb ? eb : "the run failed");
    else if (rc == 1)
        snprintf(err, len, "the checker: %.300s", out && strstr(out, "CHECK ") ? strstr(out, "CHECK ") :
                                                  out && strstr(out, "# INVARIANT") ? strstr(out, "# INVARIANT") : "violations");
    for (l = out; rc != 2 && l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        unsigned g, cu;
        unsigned long long a, v;
        if (sscanf(l, "LD %u %u %llx %llu", &g, &cu, &a, &v) == 4) {
            for (i = 0; i < nres; i++)
                if (p.res_ld[i] == ld)
                    res[i] = (signed char)v;
            ld++;
        }
    }
    if (err[0] && strchr(err, '\n'))
        *strchr(err, '\n') = 0;
    free(out);
    free(eb);
    return rc == 2 ? 1 : rc == 1 ? 2 : 0;
}

static void hl_program(void *ctx, const cohkit_lit_test *t, int sync, uint64_t seed, FILE *out)
{
    const hl_ctx *x = ctx;
    unsigned gpus, cus;
    hl_prog p;
    (void)sync;
    build(t, x->layout, seed, &p);
    geometry(x->layout, t->nthr, &gpus, &cus);
    fprintf(out, "# %s: halcone-system --gpus %u --cus %u --fail-on-violation (and the options given)\n%s", t->name,
            gpus, cus, p.text);
}

static const cohkit_lit_family hl_family = {"halcone-litmus", hl_one, hl_program, 0, NULL};

static int hl_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    if (!strcmp(name, "gpus") || !strcmp(name, "cus"))
        return cohkit_cfg_fail(err, len, "--%s: halcone-litmus places the threads itself (--layout)", name);
    return halcone_sys_cfg_option(cfg, name, value, err, len);
}

static int hl_preset(void *cfg, const char *name)
{
    halcone_sys_cfg_default(cfg);
    return strcmp(name, "default") == 0 ? 0 : -1;
}

static int hl_check(void *cfg, char *err, size_t len) { return halcone_sys_cfg_check(cfg, err, len); }

static int hl_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name, FILE *out, FILE *errf)
{
    hl_ctx x = {cfg, LAY_GRID};
    cohkit_lit_opts o;
    const char *lay = fl ? fl[HF_LAYOUT] : NULL;
    char desc[96];
    uint64_t seed = 1;
    (void)in;
    (void)in_name;
    if (cohkit_lit_parse(&hl_family, fl ? fl[HF_TEST] : NULL, NULL, fl ? fl[HF_RUNS] : NULL, &o, errf))
        return 2;
    if (lay) {
        for (x.layout = 0; x.layout < 3 && strcmp(lay, lay_names[x.layout]); x.layout++)
            ;
        if (x.layout == 3) {
            fprintf(errf, "cohmodel: halcone-litmus: --layout '%s': grid, intra or inter\n", lay);
            return 2;
        }
    }
    snprintf(desc, sizeof desc, "threads %s, rules %s", lay_names[x.layout], ((const halcone_sys_cfg *)cfg)->rules);
    return cohkit_lit_main(&hl_family, &x, &o, seed, fl && fl[HF_PROGRAM], desc, out, errf);
}

static const char *const hl_presets[] = {"default", NULL};

const cohkit_unit_desc halcone_litmus_tool = {
    .name = "halcone-litmus",
    .family = "halcone",
    .title = "HALCONE litmus tests: MP SB LB S R 2+2W WRC IRIW and CoRR/CoRW/CoWR/CoWW through the system "
             "model with randomized leases and evictions, outcome histograms and forbidden (non-SC) outcomes",
    .model_ref = "halcone_sys_trace_run (cmodel/halcone/halcone_system.c), judged by its checker",
    .cfg_size = sizeof(halcone_sys_cfg),
    .presets = hl_presets,
    .options_help = "  halcone-system's options but --gpus and --cus (--rules paper|safe, the rule switches,\n"
                    "  cache and TSU geometry, --l2-banks, --tsus, --ts-bits, --rd-lease, --wr-lease)\n",
    .cfg_preset = hl_preset,
    .cfg_option = hl_option,
    .cfg_check = hl_check,
    .flags = hl_flags,
    .trace_help = "no input; prints per test the outcomes (loads r0.. in program order of the threads, then\n"
                  "the final values) with their counts; exit 1 when a forbidden outcome appears or a log\n"
                  "fails the checker",
    .trace_run = hl_run,
    .verdict_exit = 1,
};
