/*
 * Criterion tests of the DualOpt decision engine: exact threshold parsing,
 * counter widths, the worked example of specification 4.7, every threshold
 * boundary (exactly 2 %, 0.2, 0.4), an empty read window, the total bound,
 * warm-up, decide-once and re-monitoring, bad options and traces, trace-mode
 * equality RTL vs model, decisions in every committed configuration, and
 * the measured throughput and decision latency.
 * Run from the repository root (make unit).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_de.h"
#include "lockstep.h"
#include "test_util.h"

extern const dut_ops *const dualopt_duts[];

/* ------------------------------------------------------------ helpers -- */

static void cfg_of(dualopt_de_cfg *c, const char *preset, const char *opts)
{
    char err[256], buf[256], *save = NULL, *k, *v;
    cr_assert_eq(dualopt_de_cfg_preset(c, preset), 0);
    snprintf(buf, sizeof buf, "%s", opts ? opts : "");
    for (k = strtok_r(buf, " ", &save); k; k = strtok_r(NULL, " ", &save)) {
        v = strtok_r(NULL, " ", &save);
        cr_assert_not_null(v);
        cr_assert_eq(dualopt_de_cfg_option(c, k + 2, v, err, sizeof err), 0, "%s", err);
    }
    cr_assert_eq(dualopt_de_cfg_check(c, err, sizeof err), 0, "%s", err);
}

/* n accesses of one kind; returns the 1-based index (from *idx) of the
 * access that closed the window, or 0. */
static uint64_t feed(dualopt_de_core *d, uint64_t *idx, unsigned n, dualopt_de_kind k, unsigned hit, uint64_t mask)
{
    uint64_t closed = 0;
    unsigned i;
    for (i = 0; i < n; i++) {
        ++*idx;
        if (dualopt_de_access(d, k, hit, mask))
            closed = *idx;
    }
    return closed;
}

/* --------------------------------------------------------- validation -- */

static void ratio_is(const char *s, unsigned num, unsigned den)
{
    dualopt_de_ratio r;
    char err[200];
    cr_assert_eq(dualopt_de_ratio_parse(s, &r, err, sizeof err), 0, "%s: %s", s, err);
    cr_assert(r.num == num && r.den == den, "%s -> %u/%u, expected %u/%u", s, r.num, r.den, num, den);
}

static void ratio_bad(const char *s, const char *needle)
{
    dualopt_de_ratio r;
    char err[200] = "";
    cr_assert_eq(dualopt_de_ratio_parse(s, &r, err, sizeof err), -1, "accepted '%s'", s);
    cr_assert(strstr(err, needle) != NULL, "'%s': error '%s' lacks '%s'", s, err, needle);
}

Test(dualopt_de_cfg, thresholds_are_exact_rationals)
{
    ratio_is("0.02", 1, 50);
    ratio_is("1/50", 1, 50);
    ratio_is("2/100", 1, 50);
    ratio_is("0.2", 1, 5);
    ratio_is(".4", 2, 5);
    ratio_is("0.40", 2, 5);
    ratio_is("1", 1, 1);
    ratio_is("0", 0, 1);
    ratio_is("1/3", 1, 3);
    ratio_is("0.125", 1, 8);
    ratio_bad("1.5", "above 1");
    ratio_bad("3/2", "above 1");
    ratio_bad("1/0", "zero denominator");
    ratio_bad("1/65537", "denominator");
    ratio_bad("0.0000001", "denominator");
    ratio_bad("2%", "not a decimal");
    ratio_bad("-0.1", "not a decimal");
    ratio_bad("", "not a decimal");
    ratio_bad("1/", "not a decimal");
}

Test(dualopt_de_cfg, counter_widths_at_the_paper_defaults)
{
    dualopt_de_cfg c;
    dualopt_de_geom g;
    cfg_of(&c, "default", NULL);
    dualopt_de_geom_of(&c, &g);
    /* spec 2.6: 20, 15, 15, 19, 15 bits; total <= 1,000,000, words <= 320,000 */
    cr_assert_eq(g.cap, 1000000);
    cr_assert_eq(g.total_bits, 20);
    cr_assert_eq(g.remote_bits, 15);
    cr_assert_eq(g.reads_bits, 15);
    cr_assert_eq(g.words_bits, 19);
    cr_assert_eq(g.hits_bits, 15);
    cr_assert_eq(g.warm_bits, 0);
    cfg_of(&c, "fpga", "--warmup 100");
    dualopt_de_geom_of(&c, &g);
    cr_assert_eq(g.cap, 12800);
    cr_assert_eq(g.total_bits, 14);
    cr_assert_eq(g.remote_bits, 9);
    cr_assert_eq(g.words_bits, 13);
    cr_assert_eq(g.warm_bits, 7);
    cfg_of(&c, "default", "--remote-thresh 3/40");
    dualopt_de_geom_of(&c, &g);
    cr_assert_eq(g.cap, 266667, "ceil(20000 * 40 / 3)");
}

static void cfg_bad(const char *opts, const char *needle)
{
    dualopt_de_cfg c;
    char err[256] = "", buf[256], *save = NULL, *k, *v;
    int r = 0;
    dualopt_de_cfg_default(&c);
    snprintf(buf, sizeof buf, "%s", opts);
    for (k = strtok_r(buf, " ", &save); k && r == 0; k = strtok_r(NULL, " ", &save)) {
        v = strtok_r(NULL, " ", &save);
        r = dualopt_de_cfg_option(&c, k + 2, v, err, sizeof err);
    }
    if (r == 0)
        r = dualopt_de_cfg_check(&c, err, sizeof err);
    cr_assert_eq(r, -1, "accepted '%s'", opts);
    cr_assert(strstr(err, needle) != NULL, "'%s': error '%s' lacks '%s'", opts, err, needle);
    cr_assert(strchr(err, '\n') == NULL);
}

Test(dualopt_de_cfg, rejects_bad_options_naming_the_value)
{
    cfg_bad("--window 0", "--window 0");
    cfg_bad("--window 16777216", "--window");
    cfg_bad("--words 65", "--words 65");
    cfg_bad("--words 0", "--words 0");
    cfg_bad("--window 100 --max-total 99", "--max-total 99");
    cfg_bad("--remote-thresh 0", "--max-total");
    cfg_bad("--remote-thresh 1/65535 --window 16777215", "exceeds");
    cfg_bad("--hit-over some", "'some'");
    cfg_bad("--block-thresh 0.2.1", "0.2.1");
    cfg_bad("--remonitor-on-kernel 2", "'2'");
    cfg_bad("--warmup x", "'x'");
}

Test(dualopt_de_cohgen, bad_options_exit_2_and_write_nothing)
{
    gen_refuses("dualopt-de", "--window 0", "window 0");
    gen_refuses("dualopt-de", "--hit-thresh 7/5", "7/5");
    gen_refuses("dualopt-de", "--remonitor-on-kernel --warmup", "--warmup");
    cr_assert_eq(run("rm -rf build/t_de_gen"), 0);
    /* a bare --remonitor-on-kernel is accepted and reproduced in the header */
    cr_assert_eq(run("build/bin/cohgen dualopt-de --remonitor-on-kernel --window 30 --name m -o "
                     "build/t_de_gen && grep -q -- '--window 30 .*--remonitor-on-kernel' build/t_de_gen/m.sv"),
                 0);
}

Test(dualopt_de_cohgen, report_states_the_derived_widths)
{
    cr_assert_eq(run("build/bin/cohgen dualopt-de --report > build/t_de_rep.txt"), 0);
    cr_assert_eq(run("grep -q 'counter widths: total 20 (<= 1000000), remote 15, reads 15 (<= 20000), "
                     "words 19 (<= 320000), hits 15' build/t_de_rep.txt"), 0);
    cr_assert_eq(run("build/bin/cohgen dualopt-de --config fpga --report --json | "
                     "grep -q '\"counter_bits\":{\"total\":14,\"remote\":9,\"reads\":9,\"words\":13,\"hits\":9'"),
                 0);
}

/* ------------------------------------------------------ paper / spec -- */

Test(dualopt_de_paper, worked_example_of_spec_4_7)
{
    dualopt_de_cfg c;
    dualopt_de_core d;
    uint64_t idx = 0, at;
    cfg_of(&c, "default", "--window 20");
    dualopt_de_core_init(&d, &c);
    cr_assert_eq(feed(&d, &idx, 30, DUALOPT_DE_LR, 0, 0), 0);
    cr_assert_eq(feed(&d, &idx, 5, DUALOPT_DE_RR, 1, 0x1), 0);
    at = feed(&d, &idx, 15, DUALOPT_DE_RR, 0, 0x1);
    cr_assert_eq(at, 50);
    cr_assert_eq(d.mode, DUALOPT_DE_COALESCE);
    cr_assert(d.dec.total == 50 && d.dec.remote == 20 && d.dec.reads == 20 && d.dec.words == 20 &&
              d.dec.hits == 5);
    cr_assert_eq(run("{ for i in $(seq 30); do echo LR; done; for i in 1 2 3 4 5; do echo 'RR 1 0001'; "
                     "done; for i in $(seq 15); do echo 'RR 0 0x0001'; done; } > build/t_de_ex.trace && "
                     "build/bin/cohmodel dualopt-de --window 20 < build/t_de_ex.trace > build/t_de_ex.out"),
                 0);
    {
        char *o = slurp("build/t_de_ex.out");
        cr_assert_not_null(o);
        cr_assert_str_eq(o, "DECIDE 50 COALESCE 50 20 20 20 5\n");
        free(o);
    }
}

/* One window of the tiny configuration (W = 20, bound 1,000): `locals` LR,
 * then 20 remote reads, `hits` of them L1 hits, masks summing to `words`. */
static dualopt_de_mode window_of(unsigned locals, unsigned hits, unsigned words, const char *opts)
{
    dualopt_de_cfg c;
    dualopt_de_core d;
    uint64_t idx = 0;
    unsigned i;
    cfg_of(&c, "tiny", opts);
    dualopt_de_core_init(&d, &c);
    feed(&d, &idx, locals, DUALOPT_DE_LR, 0, 0);
    for (i = 0; i < 20; i++) {
        unsigned w = words / 20 + (i < words % 20);
        uint64_t m = w >= 64 ? ~0ull : (1ull << w) - 1;
        if (dualopt_de_access(&d, DUALOPT_DE_RR, i < hits, m))
            return d.mode;
    }
    return DUALOPT_DE_MONITOR;
}

Test(dualopt_de_paper, remote_ratio_of_exactly_2_percent_is_remote_dominated)
{
    dualopt_de_cfg c;
    dualopt_de_core d;
    uint64_t idx = 0;
    /* 980 local + 20 remote: 20 / 1000 = 2 % exactly, both bounds reached on
     * access 1000: remote-dominated (D7), here COALESCE */
    cr_assert_eq(window_of(980, 0, 20, NULL), DUALOPT_DE_COALESCE);
    cr_assert_eq(window_of(979, 0, 20, NULL), DUALOPT_DE_COALESCE);
    /* 981 local + 19 remote reach the bound of 1,000 first: 1.9 % -> NONE */
    cfg_of(&c, "tiny", NULL);
    dualopt_de_core_init(&d, &c);
    feed(&d, &idx, 981, DUALOPT_DE_LR, 0, 0);
    cr_assert_eq(feed(&d, &idx, 19, DUALOPT_DE_RR, 0, 1), 1000);
    cr_assert_eq(d.mode, DUALOPT_DE_NONE);
    cr_assert(d.dec.total == 1000 && d.dec.remote == 19);
}

Test(dualopt_de_paper, block_utilisation_of_exactly_0_2_caches)
{
    /* 20 reads x 16 words: 64 words = 0.2 exactly -> not below -> CACHE */
    cr_assert_eq(window_of(0, 0, 64, NULL), DUALOPT_DE_CACHE);
    cr_assert_eq(window_of(0, 0, 63, NULL), DUALOPT_DE_COALESCE);
    cr_assert_eq(window_of(0, 0, 65, NULL), DUALOPT_DE_CACHE);
}

Test(dualopt_de_paper, hit_rate_of_exactly_0_4_caches)
{
    cr_assert_eq(window_of(0, 8, 20, NULL), DUALOPT_DE_CACHE);     /* 8 / 20 = 0.4 */
    cr_assert_eq(window_of(0, 7, 20, NULL), DUALOPT_DE_COALESCE);
    /* other thresholds given as fractions and decimals, also exact */
    cr_assert_eq(window_of(0, 5, 20, "--hit-thresh 1/4"), DUALOPT_DE_CACHE);
    cr_assert_eq(window_of(0, 4, 20, "--hit-thresh 0.25"), DUALOPT_DE_COALESCE);
    cr_assert_eq(window_of(0, 0, 80, "--block-thresh 1/4"), DUALOPT_DE_CACHE);
    cr_assert_eq(window_of(0, 0, 79, "--block-thresh 0.25"), DUALOPT_DE_COALESCE);
}

Test(dualopt_de_paper, window_without_remote_reads_caches)
{
    dualopt_de_cfg c;
    dualopt_de_core d;
    uint64_t idx = 0;
    cfg_of(&c, "tiny", NULL);
    dualopt_de_core_init(&d, &c);
    cr_assert_eq(feed(&d, &idx, 20, DUALOPT_DE_RW, 0, 0), 20);
    cr_assert_eq(d.mode, DUALOPT_DE_CACHE);
    cr_assert_eq(d.dec.reads, 0);
    /* hit rate over all remote accesses (D5 option): writes' hits count */
    cfg_of(&c, "tiny", "--hit-over all");
    dualopt_de_core_init(&d, &c);
    idx = 0;
    feed(&d, &idx, 10, DUALOPT_DE_RW, 1, 0);
    cr_assert_eq(feed(&d, &idx, 10, DUALOPT_DE_RR, 0, 1), 20);
    cr_assert_eq(d.dec.hits, 10);
    cr_assert_eq(d.mode, DUALOPT_DE_CACHE, "10 / 20 remote hits >= 0.4");
}

Test(dualopt_de_paper, local_dominated_run_decides_at_the_bound)
{
    dualopt_de_cfg c;
    dualopt_de_core d;
    uint64_t idx = 0, at;
    cfg_of(&c, "default", NULL);
    dualopt_de_core_init(&d, &c);
    /* 1 % remote: the window closes on total = 1,000,000 (D6) */
    at = 0;
    while (at == 0 && idx < 2000000) {
        at = feed(&d, &idx, 99, DUALOPT_DE_LW, 0, 0);
        if (at == 0)
            at = feed(&d, &idx, 1, DUALOPT_DE_RR, 0, 0xffff);
    }
    cr_assert_eq(at, 1000000);
    cr_assert_eq(d.mode, DUALOPT_DE_NONE);
    cr_assert_eq(d.dec.remote, 10000);
}

Test(dualopt_de_paper, warm_up_decide_once_and_re_monitoring)
{
    dualopt_de_cfg c;
    dualopt_de_core d;
    uint64_t idx = 0;
    cfg_of(&c, "tiny", "--warmup 7");
    dualopt_de_core_init(&d, &c);
    cr_assert_eq(feed(&d, &idx, 7, DUALOPT_DE_RR, 1, 0xffff), 0, "warm-up accesses are ignored");
    cr_assert_eq(d.c.total, 0);
    cr_assert_eq(feed(&d, &idx, 20, DUALOPT_DE_RR, 0, 1), 27);
    cr_assert_eq(d.mode, DUALOPT_DE_COALESCE);
    /* decided once: later accesses and kernel boundaries change nothing */
    cr_assert_eq(feed(&d, &idx, 100, DUALOPT_DE_RR, 1, 0xffff), 0);
    cr_assert_eq(dualopt_de_kernel(&d), 0);
    cr_assert_eq(d.mode, DUALOPT_DE_COALESCE);
    /* with re-monitoring, a kernel boundary restarts monitoring (warm-up too) */
    cfg_of(&c, "tiny", "--warmup 7 --remonitor-on-kernel 1");
    dualopt_de_core_init(&d, &c);
    idx = 0;
    cr_assert_eq(dualopt_de_kernel(&d), 0, "no re-arm while monitoring");
    cr_assert_eq(feed(&d, &idx, 27, DUALOPT_DE_RR, 0, 1), 27);
    cr_assert_eq(dualopt_de_kernel(&d), 1);
    cr_assert_eq(d.mode, DUALOPT_DE_MONITOR);
    cr_assert_eq(feed(&d, &idx, 27, DUALOPT_DE_RR, 1, 0xffff), 54);
    cr_assert_eq(d.mode, DUALOPT_DE_CACHE);
    /* a reset restarts monitoring in any mode */
    dualopt_de_core_restart(&d);
    cr_assert_eq(d.mode, DUALOPT_DE_MONITOR);
    cr_assert_eq(d.c.total, 0);
}

/* -------------------------------------------------------------- trace -- */

static void trace_bad(const char *text, const char *needle)
{
    char cmd[512];
    char *o, *e;
    snprintf(cmd, sizeof cmd,
             "printf '%s' | build/bin/cohmodel dualopt-de --window 2 >build/t_de_bad.out "
             "2>build/t_de_bad.err",
             text);
    cr_assert_eq(run(cmd), 2, "%s", text);
    o = slurp("build/t_de_bad.out");
    e = slurp("build/t_de_bad.err");
    cr_assert(o && e);
    cr_assert_eq(strlen(o), 0, "partial output: %s", o);
    cr_assert(strstr(e, needle) != NULL, "'%s' gave '%s', expected '%s'", text, e, needle);
    cr_assert(strncmp(e, "cohmodel: stdin: line ", 22) == 0, "%s", e);
    free(o);
    free(e);
}

Test(dualopt_de_trace, rejects_malformed_records_with_their_line)
{
    /* the first two records decide: the error must still leave no output */
    trace_bad("RR 0 1\\nRR 0 1\\n# c\\n\\nRR 2 1\\n", "line 5: hit '2'");
    trace_bad("RR 1\\n", "line 1: RR needs");
    trace_bad("LR\\nRR 1 10000\\n", "line 2: mask '10000'");
    trace_bad("RR 1 0xg\\n", "mask '0xg'");
    trace_bad("LR x\\n", "LR takes no operand");
    trace_bad("RW 1 2\\n", "RW takes at most one operand");
    trace_bad("RW x\\n", "hit 'x'");
    trace_bad("KERNEL 1\\n", "KERNEL takes no operand");
    trace_bad("LR\\nFOO\\n", "line 2: unknown record 'FOO'");
    trace_bad("RR 0 1 2\\n", "RR takes two operands");
    cr_assert_eq(run("build/bin/cohmodel dualopt-de --window x </dev/null 2>/dev/null"), 2);
}

Test(dualopt_de_trace, undecided_kernel_and_reset_records)
{
    cr_assert_eq(run("printf 'LR\\nRR 1 3 # c\\nRW\\nRW 1\\n' | build/bin/cohmodel dualopt-de "
                     "> build/t_de_u.out"), 0);
    {
        char *o = slurp("build/t_de_u.out");
        cr_assert_str_eq(o, "UNDECIDED 4 3 1 2 1\n");
        free(o);
    }
    /* decide, KERNEL (re-monitoring), decide again, RESET right after */
    cr_assert_eq(run("printf 'RR 0 1\\nRR 0 1\\nKERNEL\\nLR\\nRW\\nRR 1 ffff\\nRESET\\nLW\\n' | "
                     "build/bin/cohmodel dualopt-de --window 2 --remonitor-on-kernel > build/t_de_k.out"),
                 0);
    {
        char *o = slurp("build/t_de_k.out");
        cr_assert_str_eq(o, "DECIDE 2 COALESCE 2 2 2 2 0\nDECIDE 5 CACHE 3 2 1 16 1\nUNDECIDED 1 0 0 0 0\n");
        free(o);
    }
}

/* ------------------------------------------------------------- tools -- */

static void write_random_trace(const char *path, uint64_t seed, unsigned n)
{
    FILE *f = fopen(path, "w");
    uint64_t s = seed;
    unsigned i, prof_remote = 300, prof_read = 50, prof_hit = 40, prof_pop = 2;
    cr_assert_not_null(f);
    fprintf(f, "# random decision-engine trace\n");
    for (i = 0; i < n; i++) {
        unsigned r;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        r = (unsigned)((s >> 33) % 1000);
        if (r < 3) {
            static const unsigned rm[] = {0, 20, 50, 300, 1000};
            prof_remote = rm[(s >> 20) % 5];
            prof_read = (unsigned)((s >> 24) % 101);
            prof_hit = (unsigned)((s >> 28) % 101);
            prof_pop = 1 + (unsigned)((s >> 40) % 16);
        }
        if (r < 4)
            fprintf(f, "RESET\n");
        else if (r < 10)
            fprintf(f, "KERNEL\n");
        else if ((s >> 10) % 1000 < prof_remote) {
            if ((s >> 45) % 100 < prof_read) {
                unsigned k, pop = 1 + (unsigned)((s >> 50) % prof_pop);
                uint64_t m = 0;
                for (k = 0; k < pop; k++)
                    m |= 1ull << ((s >> (4 * k)) % 16);
                fprintf(f, "RR %u %s%llx\n", (unsigned)((s >> 56) % 100) < prof_hit,
                        (s >> 60) & 1 ? "0x" : "", (unsigned long long)m);
            } else
                fprintf(f, (s >> 57) & 1 ? "RW 1\n" : "RW\n");
        } else
            fprintf(f, (s >> 58) & 1 ? "LR\n" : "LW  # local\n");
    }
    fclose(f);
}

Test(dualopt_de_tools, tb_trace_prints_what_the_model_prints, .timeout = 120)
{
    static const char *const cfgs[] = {"tiny", "fpga", "kernel"};
    unsigned i;
    write_random_trace("build/t_de_r.trace", 11, 40000);
    for (i = 0; i < 3; i++) {
        char opts[64], why[1024], *out = NULL;
        snprintf(opts, sizeof opts, "--config %s", cfgs[i]);
        cr_assert_geq(trace_agrees("dualopt", "dualopt-de", opts, "build/t_de_r.trace", &out, NULL,
                                   why, sizeof why),
                      0, "%s", why);
        cr_assert(strstr(out, "DECIDE") != NULL, "%s: no decision in the trace", cfgs[i]);
        free(out);
    }
    /* the worked example through the RTL (the tiny configuration: W = 20) */
    cr_assert_eq(run("{ for i in $(seq 30); do echo LR; done; for i in 1 2 3 4 5; do echo 'RR 1 0001'; "
                     "done; for i in $(seq 15); do echo 'RR 0 0001'; done; } > build/t_de_ex2.trace && "
                     "./tb_dualopt --unit de --config tiny --trace build/t_de_ex2.trace > build/t_de_ex2.out && "
                     "[ \"$(grep -v '^#' build/t_de_ex2.out)\" = 'DECIDE 50 COALESCE 50 20 20 20 5' ]"),
                 0);
}

Test(dualopt_de_tools, tb_rejects_bad_trace)
{
    cr_assert_eq(run("printf 'LR\\nRR 5 1\\n' | ./tb_dualopt --unit de --config tiny --trace - "
                     ">build/t_de_tb.out 2>&1"),
                 2);
    cr_assert_eq(run("grep -q 'line 2' build/t_de_tb.out"), 0);
}

/* ---------------------------------------------------------- lockstep -- */

static void lockstep(const char *name, const char *stream, uint64_t cycles, uint64_t seed,
                     ls_result *r)
{
    ls_stream(r, dualopt_duts, "dualopt-de", name, stream, cycles, seed);
}

static void decisions_of(const ls_result *r, unsigned long long v[4])
{
    const char *p = r->summary ? strstr(r->summary, "decisions ") : NULL;
    cr_assert_not_null(p, "no decisions line: %s", r->summary);
    cr_assert_eq(sscanf(p, "decisions %llu (none %llu, coalesce %llu, cache %llu)", &v[0], &v[1],
                        &v[2], &v[3]),
                 4);
}

/* The decision engine decides in every committed configuration, every
 * mode among the small ones (the windows of the large ones take 200,000
 * cycles of the steady stream to close). */
Test(dualopt_de_lockstep, every_committed_configuration_decides, .timeout = 300)
{
    static const char *const small[] = {"tiny", "fpga", "kernel"};
    static const char *const big[] = {"default", "gran8", "gran16"};
    unsigned i;
    unsigned long long v[4], sum[4] = {0, 0, 0, 0};
    for (i = 0; i < 3; i++) {
        ls_result r;
        unsigned k;
        lockstep(small[i], "mixed", 400000, 31 + i, &r);
        decisions_of(&r, v);
        cr_assert_gt(v[0], 10, "%s: %llu decisions", small[i], v[0]);
        for (k = 0; k < 4; k++)
            sum[k] += v[k];
        ls_result_free(&r);
    }
    cr_assert(sum[1] > 0 && sum[2] > 0 && sum[3] > 0, "every mode: none %llu coalesce %llu cache %llu",
              sum[1], sum[2], sum[3]);
    for (i = 0; i < 3; i++) {
        ls_result r;
        lockstep(big[i], "steady", 200000, 41 + i, &r);
        decisions_of(&r, v);
        cr_assert_geq(v[0], 5, "%s: %llu decisions", big[i], v[0]);
        ls_result_free(&r);
    }
}

/* The edge stream (mutation testing, docs/mutation.md): windows whose
 * counters compare equal products in each threshold test, where a '<' that
 * became '<=' changes the decision; random windows almost never land there;
 * and resets in the cycle of the access that closes a window. */
Test(dualopt_de_lockstep, edge_stream_lands_on_every_threshold, .timeout = 120)
{
    static const char *const cfgs[] = {"fpga", "tiny"};
    unsigned i;
    for (i = 0; i < 2; i++) {
        ls_result r;
        unsigned long long v[4], eq[4];
        const char *p;
        lockstep(cfgs[i], "edge", 200000, 3, &r);
        decisions_of(&r, v);
        p = r.summary ? strstr(r.summary, "equal product: ") : NULL;
        cr_assert_not_null(p, "no equal-product line: %s", r.summary);
        cr_assert_eq(sscanf(p, "equal product: ratio %llu, block %llu, hit %llu; resets with the closing "
                               "access %llu", &eq[0], &eq[1], &eq[2], &eq[3]),
                     4);
        cr_assert(eq[0] > 0 && eq[1] > 0 && eq[2] > 0 && eq[3] > 0,
                  "%s: equal ratio %llu block %llu hit %llu; cancelling resets %llu", cfgs[i], eq[0],
                  eq[1], eq[2], eq[3]);
        cr_assert(v[2] > 0 && v[3] > 0, "%s: coalesce %llu cache %llu", cfgs[i], v[2], v[3]);
        ls_result_free(&r);
    }
}

/* One access per cycle: with valid held high the port accepts every cycle
 * but the first after reset. */
Test(dualopt_de_lockstep, one_access_per_cycle)
{
    ls_result r;
    lockstep("default", "steady", 50000, 5, &r);
    cr_assert_eq(r.chan_xfers[0], r.cycles - LS_RESET_CYCLES - 1, "%llu accesses in %llu cycles",
                 (unsigned long long)r.chan_xfers[0], (unsigned long long)r.cycles);
    ls_result_free(&r);
}

/* docs/dualopt.md: the access that closes the window is handshaken in cycle
 * t; dec_valid_o and the new mode signals appear in cycle
 * t + DUALOPT_DE_DECIDE_LATENCY, in the RTL and in the timing shell; the mode then
 * holds through later accesses and (without re-monitoring) kernel
 * boundaries, and a reset returns it to MONITOR. */
Test(dualopt_de_lockstep, decision_latency_and_mode_hold)
{
    const dut_ops *d = ls_dut_find(dualopt_duts, cohkit_unit_find("dualopt-de"), "tiny");
    dualopt_de_cfg c;
    dualopt_de_tm *tm;
    dualopt_de_in in;
    dualopt_de_out mo, ro;
    void *h;
    unsigned cyc, acc = 0, close_at = 0, dec_at = 0, mode_at = 0, pulses = 0;
    cr_assert_not_null(d);
    cfg_of(&c, "tiny", NULL);
    tm = dualopt_de_tm_new(&c);
    h = d->create(1);
    cr_assert(tm != NULL && h != NULL);
    memset(&in, 0, sizeof in);
    for (cyc = 0; cyc < 200; cyc++) {
        in.rst_ni = cyc >= 2;
        in.acc_valid_i = cyc >= 2 && acc < 60;
        in.acc_kind_i = DUALOPT_DE_RR;
        in.acc_mask_i = 0x1;
        in.kernel_i = cyc == 120;
        in.restart_i = cyc == 150;
        d->eval(h, (const uint64_t *)&in, (uint64_t *)&ro);
        dualopt_de_eval(tm, &in, &mo);
        if (cyc >= 2) {
            cr_assert_eq(memcmp(&mo, &ro, sizeof mo), 0, "model and RTL differ at cycle %u", cyc);
            if (in.acc_valid_i && ro.acc_ready_o && ++acc == 20)
                close_at = cyc;
            if (ro.dec_valid_o) {
                pulses++;
                dec_at = cyc;
                cr_assert_eq(ro.dec_mode_o, DUALOPT_DE_COALESCE);
                cr_assert_eq(ro.dec_total_o, 20);
            }
            if (ro.mode_o == DUALOPT_DE_COALESCE && mode_at == 0) {
                mode_at = cyc;
                cr_assert(ro.bgu_mask_o && ro.scbu_bypass_o && ro.mshr_mask_o && !ro.rcache_en_o);
            }
            if (mode_at && cyc < 152)
                cr_assert_eq(ro.mode_o, DUALOPT_DE_COALESCE, "mode changed at cycle %u", cyc);
            if (cyc >= 154)
                cr_assert_eq(ro.mode_o, DUALOPT_DE_MONITOR, "a reset returns to MONITOR (cycle %u)", cyc);
        }
        dualopt_de_step(tm, &in);
        d->tick(h);
    }
    cr_assert_eq(pulses, 1, "one decision per window, %u pulses", pulses);
    cr_assert_eq(dec_at - close_at, DUALOPT_DE_DECIDE_LATENCY, "closing access at %u, decision at %u",
                 close_at, dec_at);
    cr_assert_eq(mode_at, dec_at);
    d->destroy(h);
    dualopt_de_tm_free(tm);
}

/* The threshold boundaries through the RTL (tiny: W = 20, bound 1,000), one
 * window per case, separated by resets. */
static void window_records(FILE *f, unsigned locals, unsigned remotes, unsigned hits, unsigned words)
{
    unsigned i;
    for (i = 0; i < locals; i++)
        fprintf(f, "LR\n");
    for (i = 0; i < remotes; i++) {
        unsigned w = words / remotes + (i < words % remotes);
        fprintf(f, "RR %u %x\n", i < hits, (1u << w) - 1);
    }
    fprintf(f, "RESET\n");
}

Test(dualopt_de_tools, rtl_threshold_boundaries, .timeout = 60)
{
    FILE *f = fopen("build/t_de_bnd.trace", "w");
    char *o;
    unsigned i;
    cr_assert_not_null(f);
    window_records(f, 980, 20, 0, 20); /* exactly 2 %: remote-dominated  */
    window_records(f, 981, 19, 0, 19); /* bound first, 1.9 %: NONE       */
    window_records(f, 0, 20, 0, 64);   /* utilisation exactly 0.2: CACHE */
    window_records(f, 0, 20, 0, 63);   /* just below: COALESCE           */
    window_records(f, 0, 20, 8, 20);   /* hit rate exactly 0.4: CACHE    */
    window_records(f, 0, 20, 7, 20);   /* just below: COALESCE           */
    for (i = 0; i < 20; i++)           /* no remote reads: CACHE         */
        fprintf(f, "RW 1\n");
    fclose(f);
    cr_assert_eq(run("./tb_dualopt --unit de --config tiny --trace build/t_de_bnd.trace | "
                     "grep -v '^#' > build/t_de_bnd.out"), 0);
    o = slurp("build/t_de_bnd.out");
    cr_assert_not_null(o);
    cr_assert_str_eq(o, "DECIDE 1000 COALESCE 1000 20 20 20 0\n"
                        "DECIDE 2000 NONE 1000 19 19 19 0\n"
                        "DECIDE 2020 CACHE 20 20 20 64 0\n"
                        "DECIDE 2040 COALESCE 20 20 20 63 0\n"
                        "DECIDE 2060 CACHE 20 20 20 20 8\n"
                        "DECIDE 2080 COALESCE 20 20 20 20 7\n"
                        "DECIDE 2100 CACHE 20 20 0 0 0\n");
    free(o);
    cr_assert_eq(run("build/bin/cohmodel dualopt-de --config tiny < build/t_de_bnd.trace | "
                     "cmp -s - build/t_de_bnd.out"), 0);
}
