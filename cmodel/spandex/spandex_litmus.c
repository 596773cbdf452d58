/*
 * `cohmodel spandex-litmus`: the classic litmus shapes through the composed
 * Spandex system (spandex_sys_run), each run many times under randomized
 * timing, with the histogram of outcomes and the outcomes the consistency
 * model forbids (docs/spandex.md, "Litmus tests").
 *
 * A run is a program in the spandex-system format (spec 9.4): a warm-up in
 * which each thread's device loads a random subset of the test's locations
 * (stale V copies, Shared MESI lines) and DRAIN; then the threads' operations
 * interleaved at random (each thread in program order) with random STEP n
 * lines between them (delays before and within each thread); DRAIN; then
 * device 0 reads the locations whose final value the test names (ACQ, LD).
 * Outcomes write a word's initial value (its byte address, 9.5) as 0.
 * The scheduler is --sched random with the run's seed (the base seed + the
 * run's index: `--seed S+i --runs 1` repeats run i). Every log also goes
 * through the separate checker (spandex-check, SYS1-SYS8).
 *
 * Variants: plain (LD and ST: racy programs, on which SC-for-DRF promises
 * only per-location coherence, so only the Co* tests have forbidden
 * outcomes) and sync (the family's synchronisation: MP as the release and
 * acquire of spec 9.5 item 6, every other test with each access an atomic,
 * RMW rd / RMW swp; every non-SC outcome is forbidden).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_check.h"
#include "litmus.h"
#include "spandex_check_sys.h"
#include "spandex_sys.h"
#include "unit.h"

static const uint64_t loc_addr[2] = {0x1000, 0x2040}; /* x and y: different lines and sets */

enum { LF_TEST, LF_VARIANT, LF_KIND, LF_RUNS, LF_PROGRAM };
static const cohkit_unit_flag lt_flags[] = {
    {"test", "NAME", "one test (MP SB LB S R 2+2W WRC IRIW CoRR CoRW CoWR CoWW; all)"},
    {"variant", "V", "plain|sync|both (both)"},
    {"kind", "K", "the devices: gpu|denovo|mesi|mix (mix: GPU, DeNovo and MESI devices in turn,\n"
                  "    the assignment rotated from run to run; mix)"},
    {"runs", "N", "runs per test and variant (200; 1..1000000)"},
    {"program", NULL, "print the program of the first run of each test and variant after a comment\n"
                      "    line with its spandex-system command, do not run"},
    {NULL, NULL, NULL},
};

typedef struct {
    char text[4096];
    size_t len;
    unsigned line;                    /* lines written */
    unsigned res_line[COHKIT_LIT_RES];
    int atomics;
} lt_prog;

static void put(lt_prog *p, const char *fmt, unsigned a, unsigned b, unsigned c)
{
    int n = snprintf(p->text + p->len, sizeof p->text - p->len, fmt, a, b, c);
    if (n > 0 && p->len + (size_t)n < sizeof p->text)
        p->len += (size_t)n;
    p->line++;
}

static void put_acc(void *ctx, unsigned dev, const cohkit_lit_acc *a)
{
    lt_prog *p = ctx;
    unsigned addr = (unsigned)loc_addr[a->loc];
    switch (a->op) {
    case 'L':
        p->res_line[a->r] = p->line + 1;
        put(p, p->atomics ? "RMW %u 0x%x rd\n" : "LD %u 0x%x\n", dev, addr, 0);
        break;
    case 'S':
        put(p, p->atomics ? "RMW %u 0x%x swp 0x%x\n" : "ST %u 0x%x 0x%x\n", dev, addr, a->v);
        break;
    case 'R':
        put(p, "REL %u\n", dev, 0, 0);
        break;
    default:
        put(p, "ACQ %u\n", dev, 0, 0);
        break;
    }
}

static void put_step(void *ctx, unsigned n) { put(ctx, "STEP %u\n", n, 0, 0); }

/* The run's program: warm-up, the threads interleaved with STEPs, the
 * final reads. sync: MP keeps its REL/ACQ with plain accesses, the other
 * shapes use atomics. */
static void build(const cohkit_lit_test *t, int sync, uint64_t seed, lt_prog *p)
{
    unsigned d, k, nl = cohkit_lit_nres(t) - (unsigned)strlen(t->fin);
    uint64_t s = seed;
    memset(p, 0, sizeof *p);
    p->atomics = sync && strcmp(t->name, "MP") != 0;
    for (d = 0; d < t->nthr; d++)
        for (k = 0; k < 2; k++)
            if (cohkit_lit_rand(&s) & 1)
                put(p, "LD %u 0x%x\n", d, (unsigned)loc_addr[k], 0);
    put(p, "DRAIN\n", 0, 0, 0);
    cohkit_lit_interleave(t, sync, &s, 12, put_acc, put_step, p);
    put(p, "DRAIN\n", 0, 0, 0);
    for (k = 0; t->fin[k]; k++) {
        put(p, "ACQ 0\n", 0, 0, 0);
        p->res_line[nl + k] = p->line + 1;
        put(p, "LD 0 0x%x\n", (unsigned)loc_addr[t->fin[k] == 'y'], 0, 0);
    }
}

typedef struct {
    const spandex_sys_cfg *base;
    int kind; /* SPANDEX_TU_GPU.., or -1: mix */
} lt_ctx;

static const char *const kind_names[] = {"gpu", "denovo", "mesi"};

/* mix: the assignment rotates with the run's seed (so --seed S --runs 1
 * repeats a run exactly) */
static int kind_of(const lt_ctx *x, unsigned d, uint64_t seed)
{
    return x->kind >= 0 ? x->kind : (int)((d + seed) % 3);
}

static unsigned ndevs(const cohkit_lit_test *t) { return t->nthr < 2 ? 2 : t->nthr; }

static void dev_list(const lt_ctx *x, const cohkit_lit_test *t, uint64_t seed, char *s, size_t len)
{
    unsigned d;
    size_t o = 0;
    s[0] = 0;
    for (d = 0; d < ndevs(t) && o < len; d++) {
        int n = snprintf(s + o, len - o, "%s--dev %u:%s", d ? " " : "", d, kind_names[kind_of(x, d, seed)]);
        if (n < 0)
            break;
        o += (size_t)n;
    }
}

/* The system's and the checker's configurations of a run. */
static int configure(const lt_ctx *x, const cohkit_lit_test *t, uint64_t seed, spandex_sys_cfg *c,
                     spandex_sysck_cfg *kc, char *err, size_t len)
{
    char val[32], nl[16];
    unsigned d;
    *c = *x->base;
    spandex_sysck_cfg_default(kc);
    for (d = 0; d < ndevs(t); d++) {
        snprintf(val, sizeof val, "%u:%s", d, kind_names[kind_of(x, d, seed)]);
        if (spandex_sys_cfg_option(c, "dev", val, err, len) || spandex_sysck_cfg_option(kc, "dev", val, err, len))
            return 1;
    }
    snprintf(val, sizeof val, "%" PRIu64, seed);
    snprintf(nl, sizeof nl, "%u", c->nack_limit);
    if (spandex_sys_cfg_option(c, "sched", "random", err, len) || spandex_sys_cfg_option(c, "seed", val, err, len) ||
        spandex_sys_cfg_check(c, err, len))
        return 1;
    snprintf(val, sizeof val, "%u", c->llc.line);
    if (spandex_sysck_cfg_option(kc, "line", val, err, len) || spandex_sysck_cfg_option(kc, "nack-limit", nl, err, len))
        return 1;
    snprintf(val, sizeof val, "%u", c->llc.word);
    return spandex_sysck_cfg_option(kc, "word", val, err, len) || spandex_sysck_cfg_check(kc, err, len);
}

/* The separate checker on a run's log: 0 on PASS, else 2 with its verdict. */
static int judge(const spandex_sysck_cfg *kc, const lt_prog *p, char *log, size_t loglen, char *err, size_t len)
{
    char *ck = NULL;
    size_t outlen = 0;
    FILE *pf = fmemopen((void *)p->text, p->len, "r"), *lf = fmemopen(log, loglen ? loglen : 1, "r");
    FILE *cf = open_memstream(&ck, &outlen);
    int rc = pf && lf && cf && spandex_sysck_run(kc, pf, "program", lf, "log", 0, cf, cf) == 0 ? 0 : 1;
    if (pf)
        fclose(pf);
    if (lf)
        fclose(lf);
    if (cf)
        fclose(cf);
    if (rc || !ck || strncmp(ck, "PASS", 4) != 0) {
        snprintf(err, len, "spandex-check: %.200s", ck ? ck : "no verdict");
        rc = 2;
    }
    free(ck);
    return rc;
}

static int lt_one(void *ctx, const cohkit_lit_test *t, int sync, uint64_t seed, signed char *res, char *err,
                  size_t len)
{
    const lt_ctx *x = ctx;
    spandex_sys_cfg c;
    spandex_sysck_cfg kc;
    spandex_sop *ops = NULL;
    size_t n, loglen = 0;
    char *log = NULL, *l;
    unsigned i, nres = cohkit_lit_nres(t);
    lt_prog p;
    FILE *in, *lf;
    int rc;
    build(t, sync, seed, &p);
    if (configure(x, t, seed, &c, &kc, err, len))
        return 1;
    in = fmemopen(p.text, p.len, "r");
    if (!in || spandex_sys_prog_read(&c, in, &ops, &n, err, len) != 0) {
        if (in)
            fclose(in);
        return 1;
    }
    fclose(in);
    lf = open_memstream(&log, &loglen);
    rc = lf ? spandex_sys_run(&c, ops, n, lf, err, len) : 2;
    if (lf)
        fclose(lf);
    free(ops);
    if (rc == 1)
        snprintf(err, len, "the system stopped: %.200s",
                 log ? (strstr(log, "\nE ") ? strstr(log, "\nE ") + 1 : log) : "");
    else if (rc == 0)
        rc = judge(&kc, &p, log, loglen, err, len);
    for (l = log; rc != 1 && l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        unsigned dev, op;
        unsigned long long a, v;
        if (sscanf(l, "V %u %u %llx %llx", &dev, &op, &a, &v) == 4)
            for (i = 0; i < nres; i++)
                if (p.res_line[i] == op)
                    res[i] = (signed char)(v == a ? 0 : v); /* a word's initial value is its address */
    }
    free(log);
    return rc == 2 ? 2 : rc ? 1 : 0;
}

static void lt_program(void *ctx, const cohkit_lit_test *t, int sync, uint64_t seed, FILE *out)
{
    char devs[200];
    lt_prog p;
    build(t, sync, seed, &p);
    dev_list(ctx, t, seed, devs, sizeof devs);
    /* one comment line: the run's op# are one less than the lines below */
    fprintf(out, "# %s %s: spandex-system %s --sched random --seed %" PRIu64 "\n%s", t->name, sync ? "sync" : "plain",
            devs, seed, p.text);
}

static const cohkit_lit_family lt_family = {"spandex-litmus", lt_one, lt_program, 1, "sync"};

static int lt_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    if (!strcmp(name, "dev") || !strcmp(name, "sched"))
        return cohkit_cfg_fail(err, len, "--%s: spandex-litmus chooses the devices (--kind) and the random "
                                         "scheduler itself", name);
    return spandex_sys_cfg_option(cfg, name, value, err, len);
}

static int lt_preset(void *cfg, const char *name)
{
    spandex_sys_cfg_default(cfg);
    return strcmp(name, "default") == 0 ? 0 : -1;
}

static int lt_check(void *cfg, char *err, size_t len)
{
    spandex_sys_cfg c = *(spandex_sys_cfg *)cfg;
    char e[200];
    /* the options with two devices (the runs set their own) */
    if (spandex_sys_cfg_option(&c, "dev", "0:gpu", e, sizeof e) || spandex_sys_cfg_option(&c, "dev", "1:denovo", e, sizeof e))
        return cohkit_cfg_fail(err, len, "%s", e);
    return spandex_sys_cfg_check(&c, err, len);
}

static int lt_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name, FILE *out, FILE *errf)
{
    lt_ctx x = {cfg, -1};
    cohkit_lit_opts o;
    const char *kind = fl ? fl[LF_KIND] : NULL;
    char devs[64];
    (void)in;
    (void)in_name;
    if (cohkit_lit_parse(&lt_family, fl ? fl[LF_TEST] : NULL, fl ? fl[LF_VARIANT] : NULL, fl ? fl[LF_RUNS] : NULL, &o,
                         errf))
        return 2;
    if (kind && strcmp(kind, "mix")) {
        for (x.kind = 0; x.kind < 3 && strcmp(kind, kind_names[x.kind]); x.kind++)
            ;
        if (x.kind == 3) {
            fprintf(errf, "cohmodel: spandex-litmus: --kind '%s': gpu, denovo, mesi or mix\n", kind);
            return 2;
        }
    }
    snprintf(devs, sizeof devs, "devices %s", x.kind < 0 ? "mix (gpu, denovo, mesi in turn)" : kind_names[x.kind]);
    return cohkit_lit_main(&lt_family, &x, &o, ((const spandex_sys_cfg *)cfg)->seed, fl && fl[LF_PROGRAM], devs, out,
                           errf);
}

static const char *const lt_presets[] = {"default", NULL};

const cohkit_unit_desc spandex_litmus_tool = {
    .name = "spandex-litmus",
    .family = "spandex",
    .title = "Spandex litmus tests: MP SB LB S R 2+2W WRC IRIW and CoRR/CoRW/CoWR/CoWW through the composed "
             "system under randomized timing, outcome histograms and forbidden outcomes",
    .model_ref = "spandex_sys_run (cmodel/spandex/spandex_sys.c), judged by spandex_sysck_run",
    .cfg_size = sizeof(spandex_sys_cfg),
    .presets = lt_presets,
    .options_help = "  --seed S (the first run's seed, 1)  and spandex-system's options but --dev and --sched\n"
                    "  (--reqs, --nack-limit, --denovo-rmw, --wb, --line, --word, --sets, --ways)\n",
    .cfg_preset = lt_preset,
    .cfg_option = lt_option,
    .cfg_check = lt_check,
    .flags = lt_flags,
    .trace_help = "no input; prints per test and variant the outcomes (loads r0.. in program order of the\n"
                  "threads, then the final values) with their counts; exit 1 when a forbidden outcome\n"
                  "appears or a log fails spandex-check",
    .trace_run = lt_run,
    .verdict_exit = 1,
};
