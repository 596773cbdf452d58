/*
 * Litmus tests through a family's system model: the shapes, their
 * forbidden outcomes, the interleaving of a run, the histogram and the
 * verdicts (litmus.h). The families' tools supply one run each.
 */
#include "litmus.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define L(l, r) {'L', l, 0, r}
#define S(l, v) {'S', l, v, 0}
#define REL {'R', 0, 0, 0}
#define ACQ {'A', 0, 0, 0}
#define X 0
#define Y 1
#define ANY -1

/* The forbidden outcomes are the non-SC ones (Co*: the non-coherent). */
const cohkit_lit_test cohkit_lit_tests[] = {
    {"MP", 2, {{S(X, 1), REL, S(Y, 1)}, {L(Y, 0), ACQ, L(X, 1)}}, "", 0, {{1, 0}}, 1},
    {"SB", 2, {{S(X, 1), L(Y, 0)}, {S(Y, 1), L(X, 1)}}, "", 0, {{0, 0}}, 1},
    {"LB", 2, {{L(X, 0), S(Y, 1)}, {L(Y, 1), S(X, 1)}}, "", 0, {{1, 1}}, 1},
    {"S", 2, {{S(X, 2), S(Y, 1)}, {L(Y, 0), S(X, 1)}}, "x", 0, {{1, 2}}, 1},
    {"R", 2, {{S(X, 1), S(Y, 1)}, {S(Y, 2), L(X, 0)}}, "y", 0, {{0, 2}}, 1},
    {"2+2W", 2, {{S(X, 1), S(Y, 2)}, {S(Y, 1), S(X, 2)}}, "xy", 0, {{1, 1}}, 1},
    {"WRC", 3, {{S(X, 1)}, {L(X, 0), S(Y, 1)}, {L(Y, 1), L(X, 2)}}, "", 0, {{1, 1, 0}}, 1},
    {"IRIW", 4, {{S(X, 1)}, {S(Y, 1)}, {L(X, 0), L(Y, 1)}, {L(Y, 2), L(X, 3)}}, "", 0, {{1, 0, 1, 0}}, 1},
    {"CoRR", 2, {{S(X, 1)}, {L(X, 0), L(X, 1)}}, "", 1, {{1, 0}}, 1},
    {"CoRW", 2, {{L(X, 0), S(X, 1)}, {S(X, 2)}}, "x", 1, {{2, 2}, {1, ANY}}, 2},
    {"CoWR", 2, {{S(X, 1), L(X, 0)}, {S(X, 2)}}, "x", 1, {{0, ANY}, {2, 1}}, 2},
    {"CoWW", 1, {{S(X, 1), S(X, 2)}}, "x", 1, {{1}}, 1},
};
const unsigned cohkit_lit_ntests = sizeof cohkit_lit_tests / sizeof cohkit_lit_tests[0];

#define LIT_OUT 64 /* distinct outcomes kept per shape and variant */

static unsigned nloads(const cohkit_lit_test *t)
{
    unsigned d, k, n = 0;
    for (d = 0; d < t->nthr; d++)
        for (k = 0; k < COHKIT_LIT_OPS && t->thr[d][k].op; k++)
            if (t->thr[d][k].op == 'L' && t->thr[d][k].r + 1u > n)
                n = t->thr[d][k].r + 1u;
    return n;
}

unsigned cohkit_lit_nres(const cohkit_lit_test *t) { return nloads(t) + (unsigned)strlen(t->fin); }

uint64_t cohkit_lit_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void cohkit_lit_interleave(const cohkit_lit_test *t, int sync, uint64_t *s, unsigned max_delay,
                           void (*emit)(void *ctx, unsigned thr, const cohkit_lit_acc *a),
                           void (*delay)(void *ctx, unsigned n), void *ctx)
{
    unsigned next[COHKIT_LIT_THR] = {0}, d, k, left = 0;
    for (d = 0; d < t->nthr; d++)
        for (k = 0; k < COHKIT_LIT_OPS && t->thr[d][k].op; k++)
            left++;
    while (left) {
        unsigned pick = (unsigned)(cohkit_lit_rand(s) % left), n = 0;
        if (max_delay && (cohkit_lit_rand(s) & 1))
            delay(ctx, (unsigned)(cohkit_lit_rand(s) % max_delay) + 1);
        for (d = 0; d < t->nthr; d++) {
            unsigned rest = 0;
            for (k = next[d]; k < COHKIT_LIT_OPS && t->thr[d][k].op; k++)
                rest++;
            if (pick < n + rest) {
                const cohkit_lit_acc *a = &t->thr[d][next[d]++];
                if (sync || (a->op != 'R' && a->op != 'A')) /* racy MP: no release, no acquire */
                    emit(ctx, d, a);
                break;
            }
            n += rest;
        }
        left--;
    }
}

static int matches(const cohkit_lit_test *t, unsigned b, const signed char *v, unsigned nres)
{
    unsigned i;
    for (i = 0; i < nres; i++)
        if (t->bad[b][i] != ANY && t->bad[b][i] != v[i])
            return 0;
    return 1;
}

static int forbids(const cohkit_lit_family *f, const cohkit_lit_test *t, int sync)
{
    return sync || t->co || !f->racy_plain;
}

static void outcome_text(const cohkit_lit_test *t, const signed char *v, char *s, size_t len)
{
    unsigned i, nl = nloads(t), n = cohkit_lit_nres(t);
    size_t o = 0;
    s[0] = 0;
    for (i = 0; i < n && o < len; i++) {
        char val[8];
        int w;
        if (v[i] < 0)
            snprintf(val, sizeof val, "*");
        else
            snprintf(val, sizeof val, "%d", v[i]);
        if (i < nl)
            w = snprintf(s + o, len - o, "%sr%u=%s", i ? " " : "", i, val);
        else
            w = snprintf(s + o, len - o, "%s%c=%s", i ? " " : "", t->fin[i - nl], val);
        if (w < 0)
            break;
        o += (size_t)w;
    }
}

typedef struct {
    signed char v[COHKIT_LIT_RES];
    unsigned long n;
    uint64_t first_seed;
} lit_outcome;

typedef struct {
    const cohkit_lit_family *f;
    void *ctx;
    FILE *out, *err;
    unsigned long runs, forbidden, failed;
} lit_run;

static void print_rows(lit_run *x, const cohkit_lit_test *t, int sync, const lit_outcome *oc, unsigned noc)
{
    const char *var = sync ? x->f->sync_name : "plain";
    unsigned i, b, nres = cohkit_lit_nres(t);
    char text[128];
    for (i = 0; i < noc; i++) {
        int bad = 0;
        for (b = 0; b < t->nbad && forbids(x->f, t, sync); b++)
            bad |= matches(t, b, oc[i].v, nres);
        outcome_text(t, oc[i].v, text, sizeof text);
        fprintf(x->out, "%-5s %-5s %-26s %7lu  %s", t->name, var, text, oc[i].n,
                bad ? "FORBIDDEN" : forbids(x->f, t, sync) ? "allowed" : "allowed (racy)");
        if (bad) {
            fprintf(x->out, " (first: --seed %" PRIu64 " --runs 1)", oc[i].first_seed);
            x->forbidden += oc[i].n;
        }
        fprintf(x->out, "\n");
    }
    for (b = 0; b < t->nbad && forbids(x->f, t, sync); b++) {
        for (i = 0; i < noc && !matches(t, b, oc[i].v, nres); i++)
            ;
        if (i == noc) {
            outcome_text(t, t->bad[b], text, sizeof text);
            fprintf(x->out, "%-5s %-5s %-26s %7d  forbidden, never seen\n", t->name, var, text, 0);
        }
    }
}

static int one_shape(lit_run *x, const cohkit_lit_test *t, int sync, unsigned runs, uint64_t seed)
{
    lit_outcome oc[LIT_OUT];
    unsigned noc = 0, r, i, nres = cohkit_lit_nres(t), failed = 0;
    char err[400];
    memset(oc, 0, sizeof oc);
    for (r = 0; r < runs; r++) {
        signed char v[COHKIT_LIT_RES];
        uint64_t s = seed + r;
        memset(v, -1, sizeof v);
        int rc = x->f->run(x->ctx, t, sync, s, v, err, sizeof err);
        if (rc == 1 || (rc == 2 && !failed++))
            fprintf(x->err, "cohmodel: %s: %s %s run %u (--seed %" PRIu64 " --runs 1): %s\n", x->f->tool, t->name,
                    sync ? x->f->sync_name : "plain", r, s, err);
        if (rc == 1)
            return 1;
        x->failed += rc == 2;
        x->runs++;
        for (i = 0; i < noc && memcmp(oc[i].v, v, nres) != 0; i++)
            ;
        if (i == noc && noc < LIT_OUT) {
            memcpy(oc[noc].v, v, nres);
            oc[noc++].first_seed = s;
        }
        if (i < noc)
            oc[i].n++;
    }
    print_rows(x, t, sync, oc, noc);
    return 0;
}

int cohkit_lit_parse(const cohkit_lit_family *f, const char *test, const char *variant, const char *runs,
                     cohkit_lit_opts *o, FILE *err)
{
    unsigned i;
    o->only = test && strcmp(test, "all") ? test : NULL;
    o->variants = f->sync_name ? 3 : 1;
    o->runs = 200;
    if (o->only) {
        for (i = 0; i < cohkit_lit_ntests && strcmp(cohkit_lit_tests[i].name, o->only); i++)
            ;
        if (i == cohkit_lit_ntests) {
            fprintf(err, "cohmodel: %s: --test '%s': no such test (MP SB LB S R 2+2W WRC IRIW CoRR CoRW CoWR CoWW all)\n",
                    f->tool, o->only);
            return 2;
        }
    }
    if (variant) {
        o->variants = !strcmp(variant, "plain") ? 1
                      : f->sync_name && !strcmp(variant, f->sync_name) ? 2
                      : f->sync_name && !strcmp(variant, "both") ? 3 : 0;
        if (!o->variants) {
            fprintf(err, "cohmodel: %s: --variant '%s': %s\n", f->tool, variant,
                    f->sync_name ? "plain, sync or both" : "plain (the family has no synchronised variant)");
            return 2;
        }
    }
    if (runs) {
        char *end;
        unsigned long n = strtoul(runs, &end, 10);
        if (*end || end == runs || n < 1 || n > 1000000) {
            fprintf(err, "cohmodel: %s: --runs '%s': a count 1..1000000\n", f->tool, runs);
            return 2;
        }
        o->runs = (unsigned)n;
    }
    return 0;
}

int cohkit_lit_main(const cohkit_lit_family *f, void *ctx, const cohkit_lit_opts *o, uint64_t seed, int program,
                    const char *devices, FILE *out, FILE *err)
{
    lit_run x = {f, ctx, out, err, 0, 0, 0};
    unsigned i;
    int v;
    for (i = 0; program && i < cohkit_lit_ntests; i++)
        for (v = 0; v < 2; v++)
            if ((!o->only || !strcmp(o->only, cohkit_lit_tests[i].name)) && (o->variants >> v & 1))
                f->program(ctx, &cohkit_lit_tests[i], v, seed, out);
    if (program)
        return 0;
    fprintf(out, "# %s: %s, %u runs a test and variant, seeds %" PRIu64 "..%" PRIu64 "\n", f->tool, devices, o->runs,
            seed, seed + o->runs - 1);
    fprintf(out, "%-5s %-5s %-26s %7s  %s\n", "test", "var", "outcome", "runs", "verdict");
    for (i = 0; i < cohkit_lit_ntests; i++)
        for (v = 0; v < 2; v++)
            if ((!o->only || !strcmp(o->only, cohkit_lit_tests[i].name)) && (o->variants >> v & 1) &&
                one_shape(&x, &cohkit_lit_tests[i], v, o->runs, seed))
                return 1;
    fprintf(out, "%s: %lu runs, %lu failed the checker; %lu with a forbidden outcome\n", f->tool, x.runs, x.failed,
            x.forbidden);
    return x.forbidden || x.failed ? 1 : 0;
}
