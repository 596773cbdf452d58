/*
 * Registry-driven tests: every unit of cohkit_unit_registry[] (cmodel/units.def)
 *  - runs in lockstep with its Verilated RTL in every committed preset on
 *    every random stream, and its run summaries meet the unit's rows of
 *    `expect` below (functional checks at zero, every outcome reached);
 *  - in trace mode (tb_<family> --trace) prints what cohmodel prints, on
 *    every example trace tb/<family>/traces/<unit>[.<name>].trace;
 *  - makes cohgen, cohmodel and tb_<family> refuse a bad option value, an
 *    unknown option and a malformed trace line: exit status 2, one line on
 *    standard error naming the value or the line, nothing written.
 * A new unit is covered by registering it; what its summaries must show is
 * added as rows of `expect`. Unit-specific directed tests stay in
 * tb/<family>/test_<unit>.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "test_util.h"
#include "unit.h"

/* Every family's table of Verilated DUTs (build/<family>_duts.c); the
 * Makefile passes TEST_FAMILIES as FAMILY(rec) FAMILY(dualopt) ... */
#ifndef TEST_FAMILIES
#error "TEST_FAMILIES must be defined (see the Makefile)"
#endif
#define FAMILY(f) extern const dut_ops *const f##_duts[];
TEST_FAMILIES
#undef FAMILY
#define FAMILY(f) {#f, f##_duts},
static const struct {
    const char *family;
    const dut_ops *const *duts;
} dut_tables[] = {TEST_FAMILIES{NULL, NULL}};
#undef FAMILY

#define LS_CYCLES 20000 /* cycles of every lockstep run */

static const dut_ops *const *duts_of(const char *family)
{
    size_t i;
    for (i = 0; dut_tables[i].family; i++)
        if (strcmp(dut_tables[i].family, family) == 0)
            return dut_tables[i].duts;
    return NULL;
}

/* ------------------------------------------------ summary expectations -- */

/* A number of a run: the one after `key` in the unit's summary lines, or
 * with key "xfers:<channel>" the transfers of that channel. */
typedef struct {
    const char *unit;
    const char *preset; /* NULL: every committed preset */
    const char *stream; /* NULL: every stream */
    char op;            /* '=' equal, '>' greater, '<' at most, 'd' 0 <= key - key2 <= value,
                           'c' the channels are named `key` (space-separated) */
    const char *key;
    unsigned long long value;
    const char *key2;   /* with '=': equal to this number instead of value */
} expect_row;

static const expect_row expect[] = {
    /* REC: the stream evicts and write-invalidates; every INV the model
     * emitted left the port, but those queued at the end (one entry's) */
    {"rec", NULL, NULL, 'c', "req inv", 0, NULL},
    {"rec", NULL, "mixed", '>', "requests accepted ", 4000, NULL},
    {"rec", NULL, "mixed", '>', "evictions ", 300, NULL},
    {"rec", NULL, "mixed", '>', "(write ", 100, NULL},
    {"rec", NULL, NULL, 'd', "invalidations ", 64, "xfers:inv"}, /* REC_JOB_MAX */
    {"dualopt-mshr", NULL, NULL, 'c', "req fill rsp done", 0, NULL},
    {"dualopt-mshr", NULL, NULL, '>', "hits ", 300, NULL},
    {"dualopt-mshr", NULL, NULL, '>', "misses ", 500, NULL},
    {"dualopt-mshr", NULL, NULL, '>', "fills ", 500, NULL},
    {"dualopt-mshr", "fpga", NULL, '>', "stalls full ", 100, NULL},
    {"dualopt-mshr", "fpga", NULL, '>', "stalls targets ", 100, NULL},
    {"dualopt-de", NULL, NULL, 'c', "acc dec", 0, NULL},
    {"dualopt-de", NULL, NULL, '>', "xfers:acc", 10000, NULL},
    {"dualopt-bgu", NULL, NULL, 'c', "inst req", 0, NULL},
    {"dualopt-bgu", NULL, NULL, '=', "requests against dualopt_bgu_inst(), ", 0, NULL},
    {"dualopt-bgu", NULL, NULL, '>', "xfers:req", 3000, NULL},
    {"dualopt-bgu", NULL, "mixed", '>', "line-crossing ", 100, NULL},
    {"dualopt-scbu", NULL, NULL, 'c', "cfg en acc res", 0, NULL},
    {"dualopt-scbu", NULL, NULL, '=', "results against dualopt_scbu_access(), ", 0, NULL},
    {"dualopt-scbu", NULL, NULL, '>', "bypassed ", 1000, NULL},
    {"dualopt-scbu", NULL, NULL, '>', "local ", 1000, NULL},
    {"dualopt-scbu", NULL, NULL, '>', "range writes ", 100, NULL},
    {"dualopt-coal", NULL, NULL, '=', "scoreboard: ", 0, NULL},
    {"dualopt-coal", NULL, NULL, '>', "xfers:in", 100, NULL},
    {"dualopt-decoal", NULL, NULL, '>', "injected ", 10, NULL},
    {"dualopt-decoal", NULL, NULL, '=', "injected ", 0, "rejected (bad_o) "},
    {"dualopt-decoal", NULL, NULL, '>', "xfers:pkt", 100, NULL},
    {"dualopt-codec", NULL, NULL, '=', "round trip: ", 0, NULL},
    {"dualopt-codec", NULL, NULL, '>', "xfers:in", 100, NULL},
    {"dualopt-rcache", NULL, NULL, 'c', "req fill rsp out", 0, NULL},
    {"dualopt-rcache", NULL, NULL, '=', "against dualopt_rcache_access(), ", 0, NULL},
    {"dualopt-rcache", NULL, NULL, '=', "; data ", 0, NULL},
    {"dualopt-rcache", NULL, NULL, '=', "write-back masks ", 0, NULL},
    {"dualopt-rcache", NULL, NULL, '=', "after flush/atomic ", 0, NULL},
    {"dualopt-rcache", NULL, "mixed", '>', ": hit ", 300, NULL},
    {"dualopt-rcache", NULL, "mixed", '>', "whit ", 200, NULL},
    {"dualopt-rcache", NULL, "mixed", '>', "wmiss-full ", 40, NULL},
    {"dualopt-rcache", NULL, "mixed", '>', "wmiss-fetch ", 50, NULL},
    {"dualopt-rcache", NULL, "mixed", '>', "fwd ", 100, NULL},
    {"dualopt-rcache", NULL, "mixed", '>', "flush ", 0, NULL},
    {"dualopt-rcache", NULL, "mixed", '>', "write-backs ", 150, NULL},
    {"stc-l1", NULL, NULL, 'c', "req chg ev", 0, NULL},
    {"stc-l1", NULL, NULL, '>', "T ", 1000, NULL},
    {"stc-l1", NULL, NULL, '>', "STALL ", 100, NULL},
    {"stc-l1", NULL, "mixed", '>', "lazy ", 10, NULL},
    {"stc-l1", NULL, "mixed", '>', "sweep ", 10, NULL},
    {"stc-l1", NULL, "mixed", '>', "POISON ", 10, NULL},
    {"stc-l1", "fpga", NULL, '>', "evict ", 100, NULL},
    {"stc-band", NULL, NULL, '=', "results against stc_band(), ", 0, NULL},
    {"stc-band", NULL, NULL, '>', "bands ", 8000, NULL},
    {"stc-band", NULL, NULL, '>', "SEB >= addr bits: ", 100, NULL},
    {"stc-emu", NULL, NULL, 'c', "dem conf rdy done dack prep chg", 0, NULL},
    {"stc-emu", NULL, NULL, '=', "handshake check: ", 0, NULL},
    {"stc-emu", NULL, "idle", '=', "prepares ", 0, NULL},
    {"stc-emu", NULL, "idle", '>', "sleeps ", 200, NULL},
    {"stc-emu", NULL, "mixed", '>', "changes ", 100, NULL},
    {"stc-emu", NULL, "conflict", '>', "changes ", 100, NULL},
    {"stc-emu", NULL, "mixed", '>', "demands ", 3000, NULL},
    {"stc-emu", NULL, "conflict", '>', "demands ", 3000, NULL},
    {"stc-emu", NULL, "mixed", 'd', "demands ", 1, "acks "},
    {"stc-emu", NULL, "conflict", 'd', "demands ", 1, "acks "},
    {"stc-emu", NULL, "mixed", '>', "seb changes ", 10, NULL},
    {"stc-emu", NULL, "conflict", '>', "seb changes ", 10, NULL},
    {"stc-emu", NULL, "mixed", '=', "max epochs ", 4, NULL},
    {"stc-emu", NULL, "conflict", '=', "max epochs ", 4, NULL},
    {"stc-bsq", NULL, NULL, 'c', "push chg drn done", 0, NULL},
    {"stc-bsq", NULL, NULL, '=', "stc_bsq_push/scan, ", 0, NULL},
    {"stc-cu", NULL, NULL, 'c', "st ld prep chg iss ldr dem conf rdy done", 0, NULL},
    {"stc-cu", NULL, NULL, '=', "stc_cu_*, ", 0, NULL},
    {"halcone-tsu", NULL, NULL, 'c', "req rsp", 0, NULL},
    {"halcone-tsu", NULL, NULL, '>', "xfers:rsp", 150, NULL},
    {"halcone-tsu", "paper", "wrap", '>', "wraps ", 10, NULL},
    {"halcone-tsu", "paper", "mixed", '>', "resets ", 3, NULL},
    {"halcone-tsu", "fpga", "wrap", '>', "resets ", 2, NULL},
    {"halcone-tsu", "default", "wrap", '>', "resets ", 2, NULL},
    {"halcone-tsu", NULL, "mixed", '>', "victims ", 0, NULL},
    {"halcone-tsu", NULL, "hot", '>', "victims ", 0, NULL},
    {"halcone-cache", NULL, NULL, 'c', "req fill rsp dn ev", 0, NULL},
    {"halcone-cache", NULL, NULL, '>', "requests ", 2000, NULL},
    {"halcone-cache", NULL, NULL, '>', "invariants: hits ", 20, NULL},
    {"halcone-cache", NULL, NULL, '=', "rts violated ", 0, NULL},
    {"halcone-cache", NULL, NULL, '=', "cts decreases ", 0, NULL},
    {"halcone-cache", NULL, "mixed", '>', "REXP ", 100, NULL},
    {"halcone-cache", NULL, "full", '>', "REXP ", 100, NULL},
    {"halcone-cache", NULL, "mixed", '>', "WHIT ", 20, NULL},
    {"halcone-cache", NULL, "full", '>', "WHIT ", 20, NULL},
    {"halcone-cache", NULL, "mixed", '>', "INVALIDATED ", 5, NULL},
    {"halcone-cache", NULL, "full", '>', "INVALIDATED ", 5, NULL},
    {"halcone-cache", NULL, "mixed", '>', "victims ", 200, NULL},
    {"halcone-cache", NULL, "full", '>', "victims ", 200, NULL},
    /* Spandex LLC: the device side never breaks the protocol, requests of
     * every kind go through, probes are answered, lines are evicted; the
     * errors stream injects protocol errors of both kinds, and err_o rises
     * with the first and stays high */
    {"spandex-llc", NULL, NULL, 'c', "req rsp mem_rsp fwd out mem_req", 0, NULL},
    {"spandex-llc", NULL, "mixed", '=', "protocol errors (err_o cycles) ", 0, NULL},
    {"spandex-llc", NULL, "conflict", '=', "protocol errors (err_o cycles) ", 0, NULL},
    {"spandex-llc", NULL, "stream", '=', "protocol errors (err_o cycles) ", 0, NULL},
    {"spandex-llc", NULL, "backlog", '=', "protocol errors (err_o cycles) ", 0, NULL},
    {"spandex-llc", NULL, "errors", '>', "protocol errors (err_o cycles) ", 10000, NULL},
    {"spandex-llc", NULL, "errors", '>', "(Acks not waited for ", 0, NULL},
    {"spandex-llc", NULL, "errors", '>', "malformed requests ", 0, NULL},
    {"spandex-llc", NULL, "errors", 'd', "err_o first high in cycle ", 61, "the first taken in cycle "},
    {"spandex-llc", NULL, NULL, '>', "requests ", 1000, NULL},
    {"spandex-llc", NULL, "mixed", '>', "answers ", 100, NULL},
    {"spandex-llc", NULL, "conflict", '>', "answers ", 100, NULL},
    {"spandex-llc", NULL, "backlog", '>', "answers ", 100, NULL},
    {"spandex-llc", NULL, "mixed", '>', "ReqWT+data ", 50, NULL},
    {"spandex-llc", NULL, "mixed", '>', "MemWr ", 100, NULL},
    {"spandex-llc", NULL, "mixed", '>', "RvkO ", 100, NULL},
    {"spandex-llc", "paper", "mixed", '>', "Inv ", 10, NULL},
    {"spandex-llc", "paper", "conflict", '>', "FwdReqS ", 10, NULL},
    {"spandex-llc", NULL, "stream", '>', "requests ", 4000, NULL},
    /* the translation unit, both kinds: no broken promise to the network
     * (DeNovo: nor to the cache), no protocol error on the legal streams,
     * every kind of answer reached; DeNovo: probes, owned words and the
     * race columns of Table IV */
    {"spandex-tu", NULL, NULL, '=', "broken promises ", 0, NULL},
    {"spandex-tu", NULL, "mixed", '=', "protocol errors (err_o cycles) ", 0, NULL},
    {"spandex-tu", NULL, "stores", '=', "protocol errors (err_o cycles) ", 0, NULL},
    {"spandex-tu", NULL, "nack", '=', "protocol errors (err_o cycles) ", 0, NULL},
    {"spandex-tu", NULL, "errors", 'd', "err_o first high in cycle ", 3, "the first in cycle "},
    {"spandex-tu", "default", NULL, '>', "ReqWT ", 300, NULL},
    {"spandex-tu", "fpga", NULL, '>', "ReqWT ", 300, NULL},
    {"spandex-tu", NULL, NULL, 'c', "c_req c_pdat fwd rsp c_rsp c_prb req out", 0, NULL},
    {"spandex-tu", NULL, "errors", '>', "injected errors ", 3, NULL},
    {"spandex-tu", NULL, NULL, '>', "FILL ", 100, NULL},
    {"spandex-tu", NULL, "mixed", '>', "VALUE ", 100, NULL},
    {"spandex-tu", NULL, "stores", '>', "VALUE ", 100, NULL},
    {"spandex-tu", NULL, "nack", '>', "VALUE ", 100, NULL},
    /* the errors stream spends part of its cache requests on ones to refuse */
    {"spandex-tu", NULL, "errors", '>', "VALUE ", 40, NULL},
    {"spandex-tu", NULL, NULL, '>', "DONE ", 100, NULL},
    {"spandex-tu", NULL, "nack", '>', "Nack ", 300, NULL},
    {"spandex-tu", NULL, "mixed", '>', "RspO ", 10, NULL},
    {"spandex-tu", NULL, NULL, '>', "forwards ", 100, NULL},
    {"spandex-tu", "denovo", NULL, '>', "probes ", 100, NULL},
    {"spandex-tu", "denovo", NULL, '>', "OWN ", 100, NULL},
    {"spandex-tu", "denovo", "mixed", '>', "of pending ReqO+data words ", 5, NULL},
    {"spandex-tu", "denovo", "mixed", '>', "of ReqWB words ", 5, NULL},
    {"spandex-tu", "denovo_fpga", NULL, '>', "probes ", 100, NULL},
    {"spandex-tu", "denovo_fpga", NULL, '>', "OWN ", 100, NULL},
    {"spandex-tu", "denovo_fpga", "mixed", '>', "of pending ReqO+data words ", 5, NULL},
    {"spandex-tu", "denovo_fpga", "mixed", '>', "of ReqWB words ", 5, NULL},
    {"spandex-tu", "mesi", NULL, '>', "probes ", 100, NULL},
    {"spandex-tu", "mesi", "mixed", '>', "installed by reads S ", 5, NULL},
    {"spandex-tu", "mesi", "mixed", '>', "used once ", 5, NULL},
    {"spandex-tu", "mesi", "mixed", '>', "or ReqS line ", 5, NULL},
    {"spandex-tu", "mesi", "mixed", '>', "delayed and ", 2, NULL},
    {"spandex-tu", "mesi", "mixed", '>', "of ReqWB words ", 5, NULL},
    {"spandex-tu", "mesi", "nack", '>', "ReqWT+data ", 5, NULL},
    {"spandex-tu", "mesi_fpga", NULL, '>', "probes ", 100, NULL},
    {"spandex-tu", "mesi_fpga", "mixed", '>', "installed by reads S ", 5, NULL},
    {"spandex-tu", "mesi_fpga", "mixed", '>', "used once ", 5, NULL},
    {"spandex-tu", "mesi_fpga", "mixed", '>', "or ReqS line ", 5, NULL},
    {"spandex-tu", "mesi_fpga", "mixed", '>', "delayed and ", 2, NULL},
    {"spandex-tu", "mesi_fpga", "mixed", '>', "of ReqWB words ", 5, NULL},
    {"spandex-tu", "mesi_fpga", "nack", '>', "ReqWT+data ", 5, NULL},
};

static int listed(const char *const *list, const char *name)
{
    for (; *list; list++)
        if (strcmp(*list, name) == 0)
            return 1;
    return 0;
}

Test(registry_expect, every_row_names_a_unit_committed_preset_and_stream)
{
    size_t i;
    for (i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        const expect_row *e = &expect[i];
        const cohkit_unit_desc *u = cohkit_unit_find(e->unit);
        cr_assert_not_null(u, "row %zu: no unit %s", i, e->unit);
        cr_assert(e->preset == NULL || listed(u->committed, e->preset), "row %zu: %s %s", i,
                  e->unit, e->preset);
        cr_assert(e->stream == NULL || listed(u->streams, e->stream), "row %zu: %s %s", i,
                  e->unit, e->stream);
        cr_assert(strchr("=><dc", e->op) != NULL, "row %zu: op %c", i, e->op);
    }
}

static unsigned long long num(const ls_result *r, const char *key, const char *what)
{
    const char *p;
    unsigned k;
    if (strncmp(key, "xfers:", 6) == 0) {
        for (k = 0; k < r->nchan; k++)
            if (strcmp(r->chan_name[k], key + 6) == 0)
                return r->chan_xfers[k];
        cr_assert_fail("%s: no channel %s", what, key + 6);
    }
    p = r->summary ? strstr(r->summary, key) : NULL;
    cr_assert_not_null(p, "%s: no '%s' in the summary:\n%s", what, key, r->summary);
    return strtoull(p + strlen(key), NULL, 10);
}

static void check_row(const expect_row *e, const ls_result *r, const char *what)
{
    char names[LS_CHAN_MAX * 49] = "";
    unsigned long long a, b;
    unsigned k;
    if (e->op == 'c') {
        for (k = 0; k < r->nchan; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? " " : "",
                     r->chan_name[k]);
        cr_assert_str_eq(names, e->key, "%s: channels", what);
        return;
    }
    a = num(r, e->key, what);
    b = e->key2 ? num(r, e->key2, what) : e->value;
    if (e->op == '=')
        cr_assert_eq(a, b, "%s: '%s' %llu, expected %llu", what, e->key, a, b);
    else if (e->op == '>')
        cr_assert_gt(a, b, "%s: '%s' %llu, expected more than %llu", what, e->key, a, b);
    else if (e->op == '<')
        cr_assert_leq(a, b, "%s: '%s' %llu, expected at most %llu", what, e->key, a, b);
    else
        cr_assert(a >= b && a - b <= e->value, "%s: '%s' %llu against '%s' %llu", what, e->key,
                  a, e->key2, b);
}

/* ------------------------------------------------------------ lockstep -- */

/* Whatever the unit: the run agreed every cycle for the cycles asked, and
 * every channel is a valid/ready pair of the DUT's ports. */
static void check_run(const ls_result *r, const dut_ops *d, const char *what)
{
    unsigned k, j;
    uint64_t moved = 0;
    cr_assert_eq(r->mismatch, 0, "%s: %s", what, r->mm_msg);
    cr_assert_eq(r->cycles, LS_CYCLES, "%s: %llu cycles", what, (unsigned long long)r->cycles);
    cr_assert_not_null(r->summary, "%s: no summary", what);
    cr_assert_geq(r->nchan, 1, "%s: no valid/ready channel", what);
    for (k = 0; k < r->nchan; k++) {
        char vi[64], vo[64];
        int found = 0;
        snprintf(vi, sizeof vi, "%s_valid_i", r->chan_name[k]);
        snprintf(vo, sizeof vo, "%s_valid_o", r->chan_name[k]);
        for (j = 0; j < d->n_in; j++)
            found |= strcmp(d->in_names[j], vi) == 0;
        for (j = 0; j < d->n_out; j++)
            found |= strcmp(d->out_names[j], vo) == 0;
        cr_assert(found, "%s: channel %s has no valid port", what, r->chan_name[k]);
        moved += r->chan_xfers[k];
    }
    cr_assert_geq(moved, LS_CYCLES / 100, "%s: %llu transfers", what, (unsigned long long)moved);
}

static void lockstep_one(const cohkit_unit_desc *u, const dut_ops *const *table, const char *preset,
                         const char *stream, uint64_t seed)
{
    ls_result r;
    char what[160];
    size_t i;
    snprintf(what, sizeof what, "%s %s %s seed %llu", u->name, preset, stream,
             (unsigned long long)seed);
    ls_stream(&r, table, u->name, preset, stream, LS_CYCLES, seed);
    check_run(&r, ls_dut_find(table, u, preset), what);
    for (i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        const expect_row *e = &expect[i];
        if (strcmp(e->unit, u->name) == 0 && (!e->preset || strcmp(e->preset, preset) == 0) &&
            (!e->stream || strcmp(e->stream, stream) == 0))
            check_row(e, &r, what);
    }
    ls_result_free(&r);
}

static size_t nunits(void)
{
    size_t n = 0;
    while (cohkit_unit_registry[n])
        n++;
    return n;
}

ParameterizedTestParameters(registry, lockstep)
{
    static size_t idx[256];
    size_t i, n = nunits();
    cr_assert_leq(n, sizeof idx / sizeof idx[0]);
    for (i = 0; i < n; i++)
        idx[i] = i;
    return cr_make_param_array(size_t, idx, n);
}

ParameterizedTest(size_t *ui, registry, lockstep, .timeout = 120)
{
    const cohkit_unit_desc *u = cohkit_unit_registry[*ui];
    const dut_ops *const *table = duts_of(u->family);
    size_t k, s;
    cr_assert_not_null(table, "%s: no DUT table for family %s", u->name, u->family);
    cr_assert_not_null(u->committed[0], "%s: no committed preset", u->name);
    for (k = 0; u->committed[k]; k++)
        for (s = 0; u->streams[s]; s++)
            lockstep_one(u, table, u->committed[k], u->streams[s], 1 + 7 * k + s);
}

/* ---------------------------------------------------------- trace mode -- */

/* The example traces of a unit: <unit>.trace and <unit>.<name>.trace. */
static void example_traces(const cohkit_unit_desc *u, glob_t *g)
{
    char pat[256];
    memset(g, 0, sizeof *g);
    snprintf(pat, sizeof pat, "tb/%s/traces/%s.trace", u->family, u->name);
    glob(pat, 0, NULL, g);
    snprintf(pat, sizeof pat, "tb/%s/traces/%s.*.trace", u->family, u->name);
    glob(pat, g->gl_pathc ? GLOB_APPEND : 0, NULL, g);
}

Test(registry, trace_mode_prints_what_cohmodel_prints, .timeout = 120)
{
    size_t i, k, n = 0;
    for (i = 0; cohkit_unit_registry[i]; i++) {
        const cohkit_unit_desc *u = cohkit_unit_registry[i];
        glob_t g;
        example_traces(u, &g);
        for (k = 0; k < g.gl_pathc; k++) {
            char why[1024];
            long len =
                trace_agrees(u->family, u->name, "", g.gl_pathv[k], NULL, NULL, why, sizeof why);
            cr_assert_gt(len, 0, "%s", len < 0 ? why : "no output");
            n++;
        }
        globfree(&g);
    }
    cr_assert_geq(n, 10, "%zu example traces", n);
}

/* ----------------------------------------------------------- bad input -- */

/* `opt value` refused by cohgen and cohmodel (cfg), by cohmodel and the
 * bench (flag), or by the bench (tb) */
static void refused_by(const cohkit_unit_desc *u, const char *dir, const char *opt, const char *value,
                       const char *word, int cfg, int tb)
{
    char cmd[512];
    if (cfg) {
        snprintf(cmd, sizeof cmd, "build/bin/cohgen %s %s %s -o %s/out", u->name, opt, value, dir);
        refused(cmd, word);
    }
    if (cfg || !tb) {
        snprintf(cmd, sizeof cmd, "build/bin/cohmodel %s %s %s </dev/null", u->name, opt, value);
        refused(cmd, word);
    }
    if (tb || !cfg) {
        snprintf(cmd, sizeof cmd, "./tb_%s --unit %s %s %s", u->family, u->name, opt, value);
        refused(cmd, word);
    }
}

/* The options of the three tools, with a bad value each: the
 * configuration options (the option table's and options_help's) to cohgen
 * and cohmodel, the unit's
 * flags that take a value to cohmodel and the bench, the bench's own
 * (it takes configurations by name only); an unknown option to all. */
static void bad_options(const cohkit_unit_desc *u, const char *dir)
{
    static const char *const tb_opts[] = {"--config", "--seed", "--cycles", "--stream", NULL};
    const char *p = u->options_help;
    size_t k;
    for (; p && (p = strstr(p, "--")) != NULL; p += 2) {
        char opt[64];
        size_t n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
        if (n == 0 || n + 3 > sizeof opt)
            continue;
        snprintf(opt, sizeof opt, "--%.*s", (int)n, p + 2);
        refused_by(u, dir, opt, "zz9", "zz9", 1, 0);
    }
    for (k = 0; u->opts && u->opts->opt[k].name; k++)
        if (!(u->opts->opt[k].flags & COHKIT_UNIT_OPT_BARE)) {
            char opt[64];
            snprintf(opt, sizeof opt, "--%s", u->opts->opt[k].name);
            refused_by(u, dir, opt, "zz9", "zz9", 1, 0);
        }
    for (k = 0; u->flags && u->flags[k].name; k++)
        if (u->flags[k].arg) {
            char opt[64];
            snprintf(opt, sizeof opt, "--%s", u->flags[k].name);
            refused_by(u, dir, opt, "zz9", "zz9", 0, 0);
        }
    for (k = 0; tb_opts[k]; k++)
        refused_by(u, dir, tb_opts[k], "zz9", "zz9", 0, 1);
    refused_by(u, dir, "--nonesuch", "1", "--nonesuch", 1, 1);
    cr_assert(dir_empty(dir), "%s: cohgen wrote into %s on a refusal", u->name, dir);
}

/* A malformed line after a valid record (the first of the unit's example
 * trace, when it has one), a comment and a blank line. */
static void bad_traces(const cohkit_unit_desc *u, const char *dir)
{
    char path[300], first[512] = "", want[32], cmd[700];
    glob_t g;
    FILE *f;
    int line = 3;
    example_traces(u, &g);
    if (g.gl_pathc && (f = fopen(g.gl_pathv[0], "r")) != NULL) {
        while (fgets(first, sizeof first, f) && (first[0] == '#' || first[0] == '\n'))
            ;
        fclose(f);
        line = 4;
    }
    globfree(&g);
    snprintf(path, sizeof path, "%s/bad.trace", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "%s# a comment\n\nZZBAD 1 2\n", line == 4 ? first : "");
    fclose(f);
    snprintf(want, sizeof want, "line %d:", line);
    snprintf(cmd, sizeof cmd, "build/bin/cohmodel %s <%s", u->name, path);
    refused(cmd, want);
    snprintf(cmd, sizeof cmd, "./tb_%s --unit %s --trace %s", u->family, u->name, path);
    refused(cmd, want);
}

ParameterizedTestParameters(registry, bad_input)
{
    static size_t idx[256];
    size_t i, n = nunits();
    for (i = 0; i < n; i++)
        idx[i] = i;
    return cr_make_param_array(size_t, idx, n);
}

ParameterizedTest(size_t *ui, registry, bad_input, .timeout = 60)
{
    const cohkit_unit_desc *u = cohkit_unit_registry[*ui];
    char name[96];
    const char *dir;
    snprintf(name, sizeof name, "registry_%s", u->name);
    dir = fresh_dir(name);
    cr_assert_not_null(dir);
    bad_options(u, dir);
    bad_traces(u, dir);
}
