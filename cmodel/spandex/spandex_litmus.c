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
#include "spandex_check_sys.h"
#include "spandex_sys.h"
#include "unit.h"

#define LT_OPS 6    /* operations per thread, at most            */
#define LT_THR 4    /* threads                                  */
#define LT_RES 8    /* results (loads and final values)          */
#define LT_OUT 64   /* distinct outcomes kept per test and variant */

/* One access of a thread: 'L' load into result r, 'S' store of v, 'R' the
 * MP release (REL), 'A' the MP acquire (ACQ). loc 0 is x, 1 is y. */
typedef struct {
    char op;
    unsigned char loc, v, r;
} lt_acc;

typedef struct {
    const char *name;
    unsigned nthr;
    lt_acc thr[LT_THR][LT_OPS];   /* op 0 ends a thread */
    const char *fin;              /* final values read: "x", "xy", ""    */
    int co;                       /* a coherence test: plain forbids too */
    /* the forbidden outcomes: results r0.. then the final values, -1 any */
    signed char bad[3][LT_RES];
    unsigned nbad;
} lt_test;

#define L(l, r) {'L', l, 0, r}
#define S(l, v) {'S', l, v, 0}
#define REL {'R', 0, 0, 0}
#define ACQ {'A', 0, 0, 0}
#define X 0
#define Y 1
#define N -1

/* The forbidden outcomes are the non-SC ones (for Co*: non-coherent). */
static const lt_test tests[] = {
    {"MP", 2, {{S(X, 1), REL, S(Y, 1)}, {L(Y, 0), ACQ, L(X, 1)}}, "", 0, {{1, 0}}, 1},
    {"SB", 2, {{S(X, 1), L(Y, 0)}, {S(Y, 1), L(X, 1)}}, "", 0, {{0, 0}}, 1},
    {"LB", 2, {{L(X, 0), S(Y, 1)}, {L(Y, 1), S(X, 1)}}, "", 0, {{1, 1}}, 1},
    {"S", 2, {{S(X, 2), S(Y, 1)}, {L(Y, 0), S(X, 1)}}, "x", 0, {{1, 2}}, 1},
    {"R", 2, {{S(X, 1), S(Y, 1)}, {S(Y, 2), L(X, 0)}}, "y", 0, {{0, 2}}, 1},
    {"2+2W", 2, {{S(X, 1), S(Y, 2)}, {S(Y, 1), S(X, 2)}}, "xy", 0, {{1, 1}}, 1},
    {"WRC", 3, {{S(X, 1)}, {L(X, 0), S(Y, 1)}, {L(Y, 1), L(X, 2)}}, "", 0, {{1, 1, 0}}, 1},
    {"IRIW", 4, {{S(X, 1)}, {S(Y, 1)}, {L(X, 0), L(Y, 1)}, {L(Y, 2), L(X, 3)}}, "", 0, {{1, 0, 1, 0}}, 1},
    {"CoRR", 2, {{S(X, 1)}, {L(X, 0), L(X, 1)}}, "", 1, {{1, 0}}, 1},
    {"CoRW", 2, {{L(X, 0), S(X, 1)}, {S(X, 2)}}, "x", 1, {{2, 2}, {1, N}}, 2},
    {"CoWR", 2, {{S(X, 1), L(X, 0)}, {S(X, 2)}}, "x", 1, {{0, N}, {2, 1}}, 2},
    {"CoWW", 1, {{S(X, 1), S(X, 2)}}, "x", 1, {{1}}, 1},
};
#define NTESTS (sizeof tests / sizeof tests[0])

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
    unsigned line;           /* lines written */
    unsigned res_line[LT_RES];
    unsigned nres;
} lt_prog;

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void put(lt_prog *p, const char *fmt, unsigned a, unsigned b, unsigned c)
{
    int n = snprintf(p->text + p->len, sizeof p->text - p->len, fmt, a, b, c);
    if (n > 0 && p->len + (size_t)n < sizeof p->text)
        p->len += (size_t)n;
    p->line++;
}

static void put_acc(lt_prog *p, const lt_acc *a, unsigned dev, int sync)
{
    unsigned addr = (unsigned)loc_addr[a->loc];
    switch (a->op) {
    case 'L':
        p->res_line[a->r] = p->line + 1;
        if (p->nres < (unsigned)a->r + 1)
            p->nres = a->r + 1u;
        put(p, sync ? "RMW %u 0x%x rd\n" : "LD %u 0x%x\n", dev, addr, 0);
        break;
    case 'S':
        put(p, sync ? "RMW %u 0x%x swp 0x%x\n" : "ST %u 0x%x 0x%x\n", dev, addr, a->v);
        break;
    case 'R':
        put(p, "REL %u\n", dev, 0, 0);
        break;
    default:
        put(p, "ACQ %u\n", dev, 0, 0);
        break;
    }
}

/* The run's program: warm-up, the threads interleaved with STEPs, the
 * final reads. sync: the MP test keeps its REL/ACQ with plain accesses,
 * the others use atomics. */
static void build(const lt_test *t, int sync, uint64_t seed, lt_prog *p)
{
    unsigned next[LT_THR] = {0}, d, left = 0, k;
    uint64_t s = seed;
    int atomics = sync && strcmp(t->name, "MP") != 0;
    memset(p, 0, sizeof *p);
    for (d = 0; d < t->nthr; d++)
        for (k = 0; k < 2; k++)
            if (rnd(&s) & 1)
                put(p, "LD %u 0x%x\n", d, (unsigned)loc_addr[k], 0);
    put(p, "DRAIN\n", 0, 0, 0);
    for (d = 0; d < t->nthr; d++)
        for (k = 0; k < LT_OPS && t->thr[d][k].op; k++)
            left++;
    while (left) {
        unsigned pick = (unsigned)(rnd(&s) % left), n = 0;
        if (rnd(&s) & 1)
            put(p, "STEP %u\n", (unsigned)(rnd(&s) % 12) + 1, 0, 0);
        for (d = 0; d < t->nthr; d++) {
            unsigned rest = 0;
            for (k = next[d]; k < LT_OPS && t->thr[d][k].op; k++)
                rest++;
            if (pick < n + rest) {
                const lt_acc *a = &t->thr[d][next[d]++];
                if (sync || (a->op != 'R' && a->op != 'A')) /* plain MP: no release, no acquire */
                    put_acc(p, a, d, atomics);
                break;
            }
            n += rest;
        }
        left--;
    }
    put(p, "DRAIN\n", 0, 0, 0);
    for (k = 0; t->fin[k]; k++) {
        put(p, "ACQ 0\n", 0, 0, 0);
        p->res_line[p->nres + k] = p->line + 1;
        put(p, "LD 0 0x%x\n", (unsigned)loc_addr[t->fin[k] == 'y'], 0, 0);
    }
}

typedef struct {
    signed char v[LT_RES];
    unsigned long n;
    uint64_t first_seed;
} lt_outcome;

typedef struct {
    const spandex_sys_cfg *base;
    int kind;      /* SPANDEX_TU_GPU.., or -1: mix */
    unsigned runs;
    uint64_t seed;
    FILE *out, *err;
    unsigned long nforbid, nruns, nchecked;
} lt_ctx;

static const char *const kind_names[] = {"gpu", "denovo", "mesi"};

/* mix: the assignment rotates with the run's seed (so --seed S --runs 1
 * repeats a run exactly) */
static int kind_of(const lt_ctx *x, unsigned d, uint64_t seed)
{
    return x->kind >= 0 ? x->kind : (int)((d + seed) % 3);
}

static void dev_list(const lt_ctx *x, const lt_test *t, uint64_t seed, char *s, size_t len)
{
    unsigned d;
    size_t o = 0;
    s[0] = 0;
    for (d = 0; d < (t->nthr < 2 ? 2 : t->nthr) && o < len; d++) {
        int n = snprintf(s + o, len - o, "%s--dev %u:%s", d ? " " : "", d, kind_names[kind_of(x, d, seed)]);
        if (n < 0)
            break;
        o += (size_t)n;
    }
}

/* Runs one program; fills the results (-1: no V line). 0, or 1 with the
 * reason in err (a model error or a checker violation). */
static int run_one(const lt_ctx *x, const lt_test *t, const lt_prog *p, uint64_t seed,
                   signed char *res, char *err, size_t len)
{
    spandex_sys_cfg c = *x->base;
    spandex_sysck_cfg kc;
    spandex_sop *ops = NULL;
    size_t n, loglen = 0, outlen = 0;
    char *log = NULL, *ck = NULL, val[32], buf[32];
    FILE *in, *lf, *pf, *cf;
    unsigned d, nres = p->nres + (unsigned)strlen(t->fin), i;
    int rc = 1;
    spandex_sysck_cfg_default(&kc);
    for (d = 0; d < (t->nthr < 2 ? 2 : t->nthr); d++) {
        snprintf(val, sizeof val, "%u:%s", d, kind_names[kind_of(x, d, seed)]);
        if (spandex_sys_cfg_option(&c, "dev", val, err, len) || spandex_sysck_cfg_option(&kc, "dev", val, err, len))
            return 1;
    }
    snprintf(val, sizeof val, "%" PRIu64, seed);
    snprintf(buf, sizeof buf, "%u", c.nack_limit);
    if (spandex_sys_cfg_option(&c, "sched", "random", err, len) || spandex_sys_cfg_option(&c, "seed", val, err, len) ||
        spandex_sys_cfg_check(&c, err, len))
        return 1;
    snprintf(val, sizeof val, "%u", c.llc.line);
    if (spandex_sysck_cfg_option(&kc, "line", val, err, len) || spandex_sysck_cfg_option(&kc, "nack-limit", buf, err, len))
        return 1;
    snprintf(val, sizeof val, "%u", c.llc.word);
    if (spandex_sysck_cfg_option(&kc, "word", val, err, len) || spandex_sysck_cfg_check(&kc, err, len))
        return 1;
    in = fmemopen((void *)p->text, p->len, "r");
    if (!in || spandex_sys_prog_read(&c, in, &ops, &n, err, len) != 0) {
        if (in)
            fclose(in);
        return 1;
    }
    fclose(in);
    lf = open_memstream(&log, &loglen);
    if (!lf) {
        free(ops);
        return 1;
    }
    rc = spandex_sys_run(&c, ops, n, lf, err, len);
    fclose(lf);
    free(ops);
    for (i = 0; i < nres; i++)
        res[i] = -1;
    if (rc == 0) {
        /* the separate checker on the log */
        pf = fmemopen((void *)p->text, p->len, "r");
        lf = fmemopen(log, loglen ? loglen : 1, "r");
        cf = open_memstream(&ck, &outlen);
        if (pf && lf && cf && spandex_sysck_run(&kc, pf, "program", lf, "log", 0, cf, cf) == 0)
            rc = 0;
        else
            rc = 1;
        if (pf)
            fclose(pf);
        if (lf)
            fclose(lf);
        if (cf)
            fclose(cf);
        if (rc || !ck || strncmp(ck, "PASS", 4) != 0) {
            snprintf(err, len, "spandex-check: %.200s", ck ? ck : "no verdict");
            rc = 1;
        }
        free(ck);
    } else if (rc == 1) {
        snprintf(err, len, "the system stopped: %.200s", log ? (strstr(log, "\nE ") ? strstr(log, "\nE ") + 1 : log) : "");
    }
    for (char *l = log; rc == 0 && l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        unsigned dev, op;
        unsigned long long a, v;
        if (sscanf(l, "V %u %u %llx %llx", &dev, &op, &a, &v) == 4)
            for (i = 0; i < nres; i++)
                if (p->res_line[i] == op)
                    res[i] = (signed char)(v == a ? 0 : v); /* a word's initial value is its address */
    }
    free(log);
    return rc;
}

static int forbidden(const lt_test *t, int sync, const signed char *v, unsigned nres)
{
    unsigned b, i;
    if (!sync && !t->co)
        return 0;
    for (b = 0; b < t->nbad; b++) {
        for (i = 0; i < nres; i++)
            if (t->bad[b][i] != N && t->bad[b][i] != v[i])
                break;
        if (i == nres)
            return 1;
    }
    return 0;
}

static void outcome_text(const lt_test *t, const signed char *v, unsigned nload, char *s, size_t len)
{
    size_t o = 0;
    unsigned i;
    s[0] = 0;
    for (i = 0; i < nload + strlen(t->fin) && o < len; i++) {
        int n;
        if (i < nload)
            n = snprintf(s + o, len - o, "%sr%u=%d", i ? " " : "", i, v[i]);
        else
            n = snprintf(s + o, len - o, "%s%c=%d", i ? " " : "", t->fin[i - nload], v[i]);
        if (n < 0)
            break;
        o += (size_t)n;
    }
}

/* The runs of one test and variant, and its rows of the table. */
static int one_test(lt_ctx *x, const lt_test *t, int sync)
{
    lt_outcome oc[LT_OUT];
    unsigned noc = 0, r, i, nres = 0, nload;
    char err[400], text[128];
    lt_prog p;
    memset(oc, 0, sizeof oc);
    for (r = 0; r < x->runs; r++) {
        signed char v[LT_RES];
        uint64_t seed = x->seed + r;
        build(t, sync, seed, &p);
        nres = p.nres + (unsigned)strlen(t->fin);
        if (run_one(x, t, &p, seed, v, err, sizeof err) != 0) {
            fprintf(x->err, "cohmodel: spandex-litmus: %s %s run %u (--seed %" PRIu64 " --runs 1): %s\n", t->name,
                    sync ? "sync" : "plain", r, seed, err);
            return 1;
        }
        x->nruns++;
        x->nchecked++;
        for (i = 0; i < noc; i++)
            if (memcmp(oc[i].v, v, nres) == 0)
                break;
        if (i == noc && noc < LT_OUT) {
            memcpy(oc[noc].v, v, nres);
            oc[noc].first_seed = seed;
            noc++;
        }
        if (i < LT_OUT)
            oc[i].n++;
    }
    nload = nres - (unsigned)strlen(t->fin);
    for (i = 0; i < noc; i++) {
        int f = forbidden(t, sync, oc[i].v, nres);
        outcome_text(t, oc[i].v, nload, text, sizeof text);
        fprintf(x->out, "%-5s %-5s %-26s %7lu  %s", t->name, sync ? "sync" : "plain", text, oc[i].n,
                f ? "FORBIDDEN" : (sync || t->co) ? "allowed" : "allowed (racy)");
        if (f)
            fprintf(x->out, " (first: --seed %" PRIu64 " --runs 1)", oc[i].first_seed);
        fprintf(x->out, "\n");
        if (f)
            x->nforbid += oc[i].n;
    }
    /* the forbidden outcomes never seen, listed with 0 */
    for (i = 0; i < t->nbad && (sync || t->co); i++) {
        unsigned j, k;
        for (j = 0; j < noc; j++) {
            for (k = 0; k < nres; k++)
                if (t->bad[i][k] != N && t->bad[i][k] != oc[j].v[k])
                    break;
            if (k == nres)
                break;
        }
        if (j < noc)
            continue;
        outcome_text(t, t->bad[i], nload, text, sizeof text);
        for (char *q = strstr(text, "=-1"); q; q = strstr(q, "=-1"))
            memcpy(q, "=* ", 3);
        fprintf(x->out, "%-5s %-5s %-26s %7d  forbidden, never seen\n", t->name, sync ? "sync" : "plain", text, 0);
    }
    return 0;
}

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
    /* the options with two devices of each kind (the runs set their own) */
    if (spandex_sys_cfg_option(&c, "dev", "0:gpu", e, sizeof e) || spandex_sys_cfg_option(&c, "dev", "1:denovo", e, sizeof e))
        return cohkit_cfg_fail(err, len, "%s", e);
    return spandex_sys_cfg_check(&c, err, len);
}

static int parse_flags(const char *const *fl, lt_ctx *x, int *variants, const char **only, FILE *errf)
{
    unsigned i;
    char *end;
    *variants = 3;
    *only = fl && fl[LF_TEST] && strcmp(fl[LF_TEST], "all") ? fl[LF_TEST] : NULL;
    x->kind = -1;
    x->runs = 200;
    if (*only) {
        for (i = 0; i < NTESTS && strcmp(tests[i].name, *only); i++)
            ;
        if (i == NTESTS) {
            fprintf(errf, "cohmodel: spandex-litmus: --test '%s': no such test (MP SB LB S R 2+2W WRC IRIW CoRR CoRW CoWR CoWW all)\n", *only);
            return 2;
        }
    }
    if (fl && fl[LF_VARIANT]) {
        const char *v = fl[LF_VARIANT];
        *variants = !strcmp(v, "plain") ? 1 : !strcmp(v, "sync") ? 2 : !strcmp(v, "both") ? 3 : 0;
        if (!*variants) {
            fprintf(errf, "cohmodel: spandex-litmus: --variant '%s': plain, sync or both\n", v);
            return 2;
        }
    }
    if (fl && fl[LF_KIND] && strcmp(fl[LF_KIND], "mix")) {
        for (i = 0; i < 3 && strcmp(fl[LF_KIND], kind_names[i]); i++)
            ;
        if (i == 3) {
            fprintf(errf, "cohmodel: spandex-litmus: --kind '%s': gpu, denovo, mesi or mix\n", fl[LF_KIND]);
            return 2;
        }
        x->kind = (int)i;
    }
    if (fl && fl[LF_RUNS]) {
        unsigned long n = strtoul(fl[LF_RUNS], &end, 10);
        if (*end || end == fl[LF_RUNS] || n < 1 || n > 1000000) {
            fprintf(errf, "cohmodel: spandex-litmus: --runs '%s': a count 1..1000000\n", fl[LF_RUNS]);
            return 2;
        }
        x->runs = (unsigned)n;
    }
    return 0;
}

static int lt_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name, FILE *out, FILE *errf)
{
    lt_ctx x;
    const char *only;
    int variants, v, rc;
    unsigned i;
    (void)in;
    (void)in_name;
    memset(&x, 0, sizeof x);
    x.base = cfg;
    x.seed = ((const spandex_sys_cfg *)cfg)->seed;
    x.out = out;
    x.err = errf;
    rc = parse_flags(fl, &x, &variants, &only, errf);
    if (rc)
        return rc;
    if (fl && fl[LF_PROGRAM]) {
        lt_prog p;
        for (i = 0; i < NTESTS; i++)
            for (v = 0; v < 2; v++)
                if ((!only || !strcmp(only, tests[i].name)) && (variants >> v & 1)) {
                    char devs[200];
                    build(&tests[i], v, x.seed, &p);
                    dev_list(&x, &tests[i], x.seed, devs, sizeof devs);
                    /* one comment line: the run's op# are one less than the lines below */
                    fprintf(out, "# %s %s: spandex-system %s --sched random --seed %" PRIu64 "\n%s", tests[i].name,
                            v ? "sync" : "plain", devs, x.seed, p.text);
                }
        return 0;
    }
    fprintf(out, "# spandex-litmus: devices %s, %u runs a test and variant, seeds %" PRIu64 "..%" PRIu64 "\n",
            x.kind < 0 ? "mix (gpu, denovo, mesi in turn)" : kind_names[x.kind], x.runs, x.seed, x.seed + x.runs - 1);
    fprintf(out, "%-5s %-5s %-26s %7s  %s\n", "test", "var", "outcome", "runs", "verdict");
    for (i = 0; i < NTESTS; i++)
        for (v = 0; v < 2; v++)
            if ((!only || !strcmp(only, tests[i].name)) && (variants >> v & 1) && one_test(&x, &tests[i], v))
                return 1;
    fprintf(out, "spandex-litmus: %lu runs, every log passed spandex-check; %lu with a forbidden outcome\n", x.nruns,
            x.nforbid);
    return x.nforbid ? 1 : 0;
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
