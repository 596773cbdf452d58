/*
 * Criterion tests of the Spandex LLC's timing shell (spandex_llc_tm.c, the
 * cycle model of the RTL) through the unit's registry entry: fed one event
 * at a time (the bench's trace mode) it prints exactly what the functional
 * core prints, on generated traces of every committed configuration, every
 * ReqS policy and both owner stores, under back-pressure; on the random
 * streams (devices answering in random order, memory latency, concurrent
 * requests) it never sees a protocol error and keeps accepting requests.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spandex_gen.h"
#include "spandex_llc.h"
#include "unit.h"

extern const cohkit_unit_desc spandex_llc_unit;

/* A configuration of spandex-llc from option words. */
static void *cfg_of(const cohkit_unit_desc *u, const char *opts)
{
    char err[300];
    void *c = calloc(1, u->cfg_size);
    cr_assert_not_null(c);
    cr_assert_eq(cohkit_unit_cfg_parse_str(u, c, opts, err, sizeof err), 0, "%s: %s", opts, err);
    return c;
}

/* Runs the shell on the unit's stimulus (trace, or a random stream) for at
 * most `cycles`; the summary into *summary (malloc). Returns the cycles
 * run. */
static uint64_t shell_run(const cohkit_unit_desc *u, const void *cfg, FILE *trace, FILE *out, const char *stream,
                          uint64_t seed, uint64_t cycles, char **summary)
{
    cohkit_unit_layout lay;
    cohkit_unit_stim_args a;
    const char *fl[COHKIT_UNIT_FLAGS_MAX] = {0};
    char err[300];
    void *s, *tm;
    uint64_t *in, *o, cyc, limit = cycles;
    size_t len = 0;
    FILE *f;
    cr_assert_eq(cohkit_unit_layout_of(u, cfg, &lay, err, sizeof err), 0, "%s", err);
    memset(&a, 0, sizeof a);
    a.seed = seed;
    a.stream = stream;
    a.trace = trace;
    a.trace_name = "trace";
    a.out = out;
    a.flags = fl;
    s = u->stim_new(cfg, &a, err, sizeof err);
    cr_assert_not_null(s, "%s", err);
    tm = u->tm_new(cfg);
    in = calloc(lay.in_words, sizeof *in);
    o = calloc(lay.out_words, sizeof *o);
    cr_assert(tm && in && o);
    if (trace)
        limit = u->stim_limit(s);
    for (cyc = 0; cyc < limit; cyc++) {
        u->stim_drive(s, cyc, in);
        in[0] = cyc >= 2;
        u->tm_eval(tm, in, o);
        if (cyc >= 2)
            u->stim_observe(s, cyc, in, o);
        u->tm_step(tm, in);
        if (trace && cyc > 2 && u->stim_done(s, tm))
            break;
    }
    f = open_memstream(summary, &len);
    cr_assert_not_null(f);
    u->stim_summary(s, tm, cyc, f, "");
    fclose(f);
    u->stim_free(s);
    u->tm_free(tm);
    free(in);
    free(o);
    return cyc;
}

/* The number after `key` in s. */
static unsigned long long num_after(const char *s, const char *key)
{
    const char *p = strstr(s, key);
    cr_assert_not_null(p, "'%s' not in %s", key, s);
    return strtoull(p + strlen(key), NULL, 10);
}

Test(spandex_tm, trace_mode_prints_what_the_core_prints, .timeout = 120)
{
    static const char *const presets[] = {"default", "paper", "fpga", "line"};
    static const char *const reqs[] = {"1", "2", "3", "paper"};
    const cohkit_unit_desc *u = &spandex_llc_unit;
    unsigned p, r, st, runs = 0;
    cr_assert_not_null(u);
    for (p = 0; p < 4; p++)
        for (r = 0; r < 4; r++)
            for (st = 0; st < 2; st++) {
                char opts[160], gerr[300], *tr = NULL, *want = NULL, *got = NULL, *sum = NULL;
                size_t ntr = 0, nwant = 0, ngot = 0;
                spandex_gen_cfg g;
                FILE *f, *in, *out;
                void *cfg;
                snprintf(opts, sizeof opts, "--config %s --reqs %s --owner-store %s", presets[p], reqs[r],
                         st ? "array" : "data");
                cfg = cfg_of(u, opts);
                spandex_gen_cfg_preset(&g, presets[p]);
                g.llc = *(const spandex_llc_cfg *)cfg;
                g.seed = 11 + p * 8 + r * 2 + st;
                g.events = 600;
                f = open_memstream(&tr, &ntr);
                cr_assert_eq(spandex_gen_write(&g, f, gerr, sizeof gerr), 0, "%s: %s", opts, gerr);
                fclose(f);
                in = fmemopen(tr, ntr, "r");
                out = open_memstream(&want, &nwant);
                cr_assert_eq(u->trace_run(cfg, (const char *const[COHKIT_UNIT_FLAGS_MAX]){0}, in, "t", out, stderr), 0);
                fclose(in);
                fclose(out);
                in = fmemopen(tr, ntr, "r");
                out = open_memstream(&got, &ngot);
                shell_run(u, cfg, in, out, NULL, g.seed, 0, &sum);
                fclose(in);
                fclose(out);
                cr_expect_str_eq(got, want, "%s: the shell's trace output differs from the core's", opts);
                cr_expect(strstr(sum, "protocol errors (err_o cycles) 0") != NULL, "%s: %s", opts, sum);
                runs++;
                free(tr);
                free(want);
                free(got);
                free(sum);
                free(cfg);
            }
    cr_assert_eq(runs, 32);
}

Test(spandex_tm, random_streams_run_without_protocol_errors, .timeout = 120)
{
    static const char *const presets[] = {"default", "paper", "fpga", "line"};
    static const char *const streams[] = {"mixed", "conflict", "stream"};
    const cohkit_unit_desc *u = &spandex_llc_unit;
    unsigned p, k;
    for (p = 0; p < 4; p++)
        for (k = 0; k < 3; k++) {
            char opts[64], *sum = NULL;
            void *cfg;
            snprintf(opts, sizeof opts, "--config %s", presets[p]);
            cfg = cfg_of(u, opts);
            shell_run(u, cfg, NULL, NULL, streams[k], 5 + p, 30000, &sum);
            cr_expect_eq(num_after(sum, "protocol errors (err_o cycles) "), 0, "%s %s: %s", opts, streams[k], sum);
            cr_expect_gt(num_after(sum, "requests "), 2000, "%s %s: %s", opts, streams[k], sum);
            if (k != 2)
                cr_expect_gt(num_after(sum, "answers "), 100, "%s %s: %s", opts, streams[k], sum);
            free(sum);
            free(cfg);
        }
}
