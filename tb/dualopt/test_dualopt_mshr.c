/*
 * Criterion tests of the DualOpt bitmask MSHR (dualopt-mshr): Fig. 8's three
 * cases, the rules of spec 2.3 / 2.7 / D11, line mode as the conventional
 * MSHR, the trace tool (format and bad input), trace mode of the lockstep
 * bench against cohmodel, and the measured timing of docs/dualopt.md
 * (lockstep of every committed configuration: tb/test_registry.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_mshr.h"
#include "lockstep.h"
#include "test_util.h"
#include "unit.h"

extern const dut_ops *const dualopt_duts[];

static dualopt_mshr *mk(const char *preset, unsigned targets)
{
    dualopt_mshr_cfg c;
    char err[200];
    dualopt_mshr *m;
    cr_assert_eq(dualopt_mshr_cfg_preset(&c, preset), 0);
    c.targets = targets;
    cr_assert_eq(dualopt_mshr_cfg_check(&c, err, sizeof err), 0, "%s", err);
    m = dualopt_mshr_new(&c);
    cr_assert_not_null(m);
    return m;
}

static dualopt_mshr_result rq(dualopt_mshr *m, uint64_t byte_addr, uint64_t mask, uint32_t tag)
{
    dualopt_mshr_result r;
    cr_assert_eq(dualopt_mshr_req(m, byte_addr >> m->g.line_bits, mask, tag, &r), 0);
    return r;
}

/* ------------------------------------------------------------- Fig. 8 -- */

Test(dualopt_mshr_fig8, case_a_contained_mask_hits)
{
    /* entry 0x100 fetching word 1 (0b01000000 drawn MSB-first, D12) */
    dualopt_mshr *m = mk("default", 0);
    dualopt_mshr_result r = rq(m, 0x100, 0x0002, 1);
    cr_assert_eq(r.kind, DUALOPT_MSHR_MISS);
    r = rq(m, 0x100, 0x0002, 2);
    cr_assert_eq(r.kind, DUALOPT_MSHR_HIT);
    cr_assert_eq(r.entry, 0);
    dualopt_mshr_free(m);
}

Test(dualopt_mshr_fig8, case_b_same_line_not_contained_allocates_another_entry)
{
    dualopt_mshr *m = mk("default", 0);
    dualopt_mshr_result r = rq(m, 0x100, 0x0001, 1);
    cr_assert_eq(r.kind, DUALOPT_MSHR_MISS);
    cr_assert_eq(r.entry, 0);
    r = rq(m, 0x100, 0x0040, 2);
    cr_assert_eq(r.kind, DUALOPT_MSHR_MISS, "same line, mask not contained: a miss");
    cr_assert_eq(r.entry, 1);
    cr_assert_eq(r.line << m->g.line_bits, 0x100);
    cr_assert_eq(r.mask, 0x0040, "the request sent down carries only its own words");
    dualopt_mshr_free(m);
}

Test(dualopt_mshr_fig8, case_c_no_entry_for_the_line_allocates)
{
    dualopt_mshr *m = mk("default", 0);
    dualopt_mshr_result r = rq(m, 0x100, 0x0001, 1);
    r = rq(m, 0x2c4, 0x0002, 2);
    cr_assert_eq(r.kind, DUALOPT_MSHR_MISS);
    cr_assert_eq(r.entry, 1);
    cr_assert_eq(r.line << m->g.line_bits, 0x2c0);
    dualopt_mshr_free(m);
}

Test(dualopt_mshr_fig8, spec_trace_example_is_printed_exactly)
{
    put("build/t_mshr_fig8.trace", "REQ w0 0x100 0x0001   # Fig. 8b\nREQ w1 0x100 0x0040\n");
    cr_assert_eq(run("build/bin/cohmodel dualopt-mshr <build/t_mshr_fig8.trace "
                    ">build/t_mshr_fig8.out"),
                 0);
    char *o = slurp("build/t_mshr_fig8.out");
    cr_assert_str_eq(o, "MISS w0 0 0x100 0x0001\nMISS w1 1 0x100 0x0040\n");
    free(o);
}

/* --------------------------------------------------------- spec rules -- */

Test(dualopt_mshr_rules, hit_only_on_containment_and_lowest_index)
{
    dualopt_mshr *m = mk("default", 0);
    dualopt_mshr_result r;
    rq(m, 0x100, 0x0003, 1);           /* entry 0: words 0-1 */
    rq(m, 0x100, 0x000c, 2);           /* entry 1: words 2-3 */
    rq(m, 0x100, 0x000f, 3);           /* entry 2: words 0-3 */
    r = rq(m, 0x100, 0x0006, 4);       /* words 1-2: only entry 2 contains */
    cr_assert_eq(r.kind, DUALOPT_MSHR_HIT);
    cr_assert_eq(r.entry, 2, "a union of entries 0 and 1 covers it, but containment is per entry");
    r = rq(m, 0x100, 0x0001, 5);       /* entries 0 and 2 contain: lowest */
    cr_assert_eq(r.entry, 0);
    r = rq(m, 0x100, 0x0010, 6);       /* partial/no overlap: new entry, own mask */
    cr_assert_eq(r.kind, DUALOPT_MSHR_MISS);
    cr_assert_eq(r.entry, 3);
    cr_assert_eq(m->e[0].mask, 0x0003, "an in-flight entry's mask is never widened");
    r = rq(m, 0x140, 0x0001, 7);       /* other line, same words */
    cr_assert_eq(r.kind, DUALOPT_MSHR_MISS);
    r = rq(m, 0x100, 0x001f, 8);       /* superset of every entry: miss */
    cr_assert_eq(r.kind, DUALOPT_MSHR_MISS);
    dualopt_mshr_free(m);
}

Test(dualopt_mshr_rules, targets_full_and_entries_full_stall)
{
    dualopt_mshr *m = mk("fpga", 2); /* 8 entries, 2 targets */
    dualopt_mshr_result r;
    unsigned i;
    rq(m, 0x100, 0x0001, 1);
    cr_assert_eq(rq(m, 0x100, 0x0001, 2).kind, DUALOPT_MSHR_HIT);
    r = rq(m, 0x100, 0x0001, 3);
    cr_assert_eq(r.kind, DUALOPT_MSHR_STALL_TGT);
    cr_assert_eq(r.entry, 0);
    cr_assert_eq(m->e[0].n, 2, "a stalled request is not recorded");
    for (i = 1; i < 8; i++)
        cr_assert_eq(rq(m, 0x1000 + 0x40 * i, 0x0001, 10 + i).kind, DUALOPT_MSHR_MISS);
    r = rq(m, 0x2000, 0x0001, 30);
    cr_assert_eq(r.kind, DUALOPT_MSHR_STALL_FULL);
    cr_assert_eq(m->st.stall_full, 1);
    cr_assert_eq(m->st.stall_targets, 1);
    dualopt_mshr_free(m);
}

Test(dualopt_mshr_rules, fill_releases_exactly_the_named_entry_in_arrival_order)
{
    dualopt_mshr *m = mk("default", 0);
    uint64_t line, mask;
    const uint32_t *t;
    unsigned n;
    rq(m, 0x100, 0x0001, 10);  /* entry 0 */
    rq(m, 0x100, 0x0040, 11);  /* entry 1, same line */
    rq(m, 0x104, 0x0040, 12);  /* hit 1 */
    rq(m, 0x13c, 0x0040, 13);  /* hit 1 (same word of the line) */
    cr_assert_eq(dualopt_mshr_fill(m, 1, &line, &mask, &t, &n), 0);
    cr_assert_eq(line << m->g.line_bits, 0x100);
    cr_assert_eq(mask, 0x0040);
    cr_assert_eq(n, 3);
    cr_assert(t[0] == 11 && t[1] == 12 && t[2] == 13, "targets in arrival order");
    cr_assert(m->e[0].valid && !m->e[1].valid, "the other entry of the line stays");
    cr_assert_eq(dualopt_mshr_fill(m, 1, &line, &mask, &t, &n), -1, "a free entry has no fill");
    cr_assert_eq(dualopt_mshr_fill(m, 40, &line, &mask, &t, &n), -1);
    cr_assert_eq(rq(m, 0x100, 0x0040, 14).entry, 1, "the freed entry is the lowest free");
    dualopt_mshr_free(m);
}

Test(dualopt_mshr_rules, fine_grained_request_hits_a_conventional_entry)
{
    dualopt_mshr *m = mk("default", 0);
    rq(m, 0x100, 0xffff, 1); /* D14: a conventional request, all-ones */
    cr_assert_eq(rq(m, 0x108, 0x0004, 2).kind, DUALOPT_MSHR_HIT);
    cr_assert_eq(rq(m, 0x100, 0x8001, 3).kind, DUALOPT_MSHR_HIT);
    dualopt_mshr_free(m);
}

/* Line mode is the conventional MSHR: the same outcomes as the bitmask MSHR
 * fed with all-ones masks, whatever masks it is given. */
Test(dualopt_mshr_rules, line_mode_equals_bitmask_mode_with_all_ones_masks)
{
    dualopt_mshr *a = mk("default", 3), *b = mk("line", 3);
    uint64_t x = 88172645463325252ull;
    unsigned i, hits = 0, fills = 0, stalls = 0;
    for (i = 0; i < 20000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if (x % 100 < 65) {
            dualopt_mshr_result ra, rb;
            uint64_t line = (x >> 8) % 40;
            cr_assert_eq(dualopt_mshr_req(a, line, 0xffff, i, &ra), 0);
            cr_assert_eq(dualopt_mshr_req(b, line, (x >> 20) & 0xffff, i, &rb), 0);
            cr_assert(ra.kind == rb.kind && ra.entry == rb.entry && ra.line == rb.line &&
                          rb.mask == 0xffff,
                      "request %u differs", i);
            hits += ra.kind == DUALOPT_MSHR_HIT;
            stalls += ra.kind >= DUALOPT_MSHR_STALL_FULL;
        } else {
            uint64_t la, ma, lb, mb;
            const uint32_t *ta, *tb;
            unsigned na, nb, e = (unsigned)((x >> 9) % 32);
            int fa = dualopt_mshr_fill(a, e, &la, &ma, &ta, &na);
            int fb = dualopt_mshr_fill(b, e, &lb, &mb, &tb, &nb);
            cr_assert_eq(fa, fb);
            if (fa == 0) {
                cr_assert(la == lb && ma == mb && na == nb && memcmp(ta, tb, na * sizeof *ta) == 0);
                fills++;
            }
        }
    }
    cr_assert(hits > 1000 && fills > 1000 && stalls > 100, "hits %u fills %u stalls %u", hits,
              fills, stalls);
    dualopt_mshr_free(a);
    dualopt_mshr_free(b);
}

Test(dualopt_mshr_trace, bad_records_exit_2_with_the_line_number)
{
    model_refuses("dualopt-mshr", "", "REQ a 0x100 1\nREQ b 0x100\n", "cohmodel: stdin: line 2:");
    model_refuses("dualopt-mshr", "", "REQ a 0x100 1\n\n# c\nLOAD 0x100\n",
                  "line 4: unknown record 'LOAD'");
    model_refuses("dualopt-mshr", "", "REQ a 0xzz 1\n", "line 1: address '0xzz'");
    model_refuses("dualopt-mshr", "", "REQ a 0x1000000000000 1\n", "line 1: address");
    model_refuses("dualopt-mshr", "", "REQ a 0x100 0x10000\n", "line 1: mask '0x10000'");
    model_refuses("dualopt-mshr", "--gran 16", "REQ a 0x100 0x10\n", "line 1: mask '0x10'");
    model_refuses("dualopt-mshr", "", "REQ a 0x100 0\n", "line 1: mask '0' requests no word");
    model_refuses("dualopt-mshr", "", "REQ a 0x100 1 2\n", "line 1: expected");
    model_refuses("dualopt-mshr", "", "REQ a 0x100 1\nFILL 0\nFILL 0\n",
                  "line 3: FILL 0: entry 0 is free");
    model_refuses("dualopt-mshr", "", "FILL 32\n", "line 1: entry '32' is not 0..31");
    model_refuses("dualopt-mshr", "", "FILL x\n", "line 1: entry 'x'");
}

Test(dualopt_mshr_trace, bad_options_exit_2)
{
    model_refuses("dualopt-mshr", "--entries 0", "", "--entries 0");
    model_refuses("dualopt-mshr", "--entries 65", "", "--entries 65");
    model_refuses("dualopt-mshr", "--gran 3", "", "--gran 3");
    model_refuses("dualopt-mshr", "--line 64 --gran 0", "", "--gran 0");
    model_refuses("dualopt-mshr", "--line 128 --gran 1", "", "128 mask bits, at most 64");
    model_refuses("dualopt-mshr", "--mode word", "", "--mode: 'word'");
    model_refuses("dualopt-mshr", "--targets -1", "", "--targets");
    model_refuses("dualopt-mshr", "--tag-bits 17", "", "--tag-bits 17");
    model_refuses("dualopt-mshr", "--config paper", "", "--config: 'paper'");
    gen_refuses("dualopt-mshr", "--entries 99", "99");
}

Test(dualopt_mshr_trace, line_mode_ignores_masks_and_prints_all_ones)
{
    put("build/t_mshr_line.trace", "REQ a 0x100\nREQ b 0x104 0x4\nFILL 0\n");
    cr_assert_eq(run("build/bin/cohmodel dualopt-mshr --mode line <build/t_mshr_line.trace "
                    ">build/t_mshr_line.out"),
                 0);
    char *o = slurp("build/t_mshr_line.out");
    cr_assert_str_eq(o, "MISS a 0 0x100 0xffff\nHIT b 0\nDONE 0 0x100 0xffff a b\n");
    free(o);
}

Test(dualopt_mshr_trace, stall_lines_and_stats)
{
    put("build/t_mshr_st.trace",
        "REQ a 0x0 1\nREQ b 0x0 1\nREQ c 0x0 1\nREQ d 0x40 1\nREQ e 0x80 2\nFILL 0\n");
    cr_assert_eq(run("build/bin/cohmodel dualopt-mshr --entries 2 --targets 2 --stats "
                    "<build/t_mshr_st.trace >build/t_mshr_st.out"),
                 0);
    char *o = slurp("build/t_mshr_st.out");
    cr_assert_str_eq(o, "MISS a 0 0x0 0x0001\nHIT b 0\nSTALL c targets 0\nMISS d 1 0x40 0x0001\n"
                        "STALL e full\nDONE 0 0x0 0x0001 a b\n"
                        "# hits 1 misses 2 stalls-full 1 stalls-targets 1 fills 1\n");
    free(o);
}

/* ---------------------------------------------- lockstep and trace mode -- */

typedef struct {
    dualopt_mshr_stats st;
    uint64_t offered, accepted;
} mshr_run;

static void grab(void *ctx, const void *stim, const void *tm)
{
    mshr_run *x = ctx;
    (void)stim;
    x->st = ((const dualopt_mshr_tm *)tm)->m->st;
}

/* One lockstep run; cfg_override (when not NULL) replaces the DUT's own
 * configuration in the model. Returns ls_run's status. */
static int mshr_ls(const char *name, const char *stream, uint64_t cycles, uint64_t seed,
                   const dualopt_mshr_cfg *cfg_override, mshr_run *x, ls_result *r)
{
    static dualopt_mshr_cfg cfg;
    ls_opts o;
    int rc;
    const char *p;
    ls_preset(&o, &cfg, sizeof cfg, dualopt_duts, "dualopt-mshr", name);
    if (cfg_override)
        cfg = *cfg_override;
    o.stream = stream;
    o.cycles = cycles;
    o.seed = seed;
    o.inspect = grab;
    o.inspect_ctx = x;
    rc = ls_run(&o, r, "");
    p = r->summary ? strstr(r->summary, "lookups offered ") : NULL;
    if (p)
        sscanf(p, "lookups offered %llu accepted %llu", (unsigned long long *)&x->offered,
               (unsigned long long *)&x->accepted);
    return rc;
}

/* The bench can fail: the fpga RTL (4 targets per entry) against a model
 * told 3 targets must mismatch. */
Test(dualopt_mshr_lockstep, a_different_model_configuration_is_caught)
{
    dualopt_mshr_cfg c;
    mshr_run x;
    ls_result r;
    dualopt_mshr_cfg_preset(&c, "fpga");
    c.targets = 3;
    cr_assert_eq(mshr_ls("fpga", "mixed", 60000, 3, &c, &x, &r), 1);
    cr_assert_not_null(strstr(r.mm_msg, "MISMATCH cycle"), "%s", r.mm_msg);
    ls_result_free(&r);
}

/* docs/dualopt.md: one lookup per cycle; rsp_ready high keeps req_ready high. */
Test(dualopt_mshr_lockstep, one_lookup_per_cycle)
{
    mshr_run x;
    ls_result r;
    cr_assert_eq(mshr_ls("default", "rate", 50000, 5, NULL, &x, &r), 0, "%s", r.mm_msg);
    cr_assert_gt(x.offered, 40000);
    cr_assert_eq(x.accepted, x.offered, "%llu of %llu offered lookups accepted",
                 (unsigned long long)x.accepted, (unsigned long long)x.offered);
    cr_assert_eq(r.chan_xfers[0], x.accepted);
    ls_result_free(&r);
}

/* Timing of docs/dualopt.md, in the RTL and the shell alike: a request
 * accepted in cycle t is looked up in t+1 and answered in t+2; a fill accepted in t streams its
 * k targets in t+1..t+k and the next fill is accepted in t+k+1. */
Test(dualopt_mshr_lockstep, response_and_fill_timing)
{
    const dut_ops *d = ls_dut_find(dualopt_duts, cohkit_unit_find("dualopt-mshr"), "fpga");
    dualopt_mshr_cfg c;
    dualopt_mshr_tm *tm;
    dualopt_mshr_in in;
    dualopt_mshr_out mo, ro;
    void *h;
    unsigned cyc, acc_at = 0, rsp_at = 0, fill_at = 0, beats = 0, last_at = 0, refill_at = 0;
    cr_assert_not_null(d);
    dualopt_mshr_cfg_preset(&c, "fpga");
    tm = dualopt_mshr_tm_new(&c);
    h = d->create(1);
    for (cyc = 0; cyc < 40; cyc++) {
        memset(&in, 0, sizeof in);
        in.rst_ni = cyc >= 2;
        in.rsp_ready_i = 1;
        in.done_ready_i = 1;
        /* three requests to one line in cycles 3, 4, 5 (tags 7, 8, 9) */
        if (cyc >= 3 && cyc <= 5) {
            in.req_valid_i = 1;
            in.req_tag_i = 4 + cyc;
            in.req_line_i = 0x40;
            in.req_mask_i = 1;
        }
        if (cyc == 10 || (cyc >= 11 && refill_at == 0 && fill_at)) {
            in.fill_valid_i = 1;
            in.fill_entry_i = cyc == 10 ? 0 : 5; /* entry 5 is free: ignored */
        }
        dualopt_mshr_eval(tm, &in, &mo);
        d->eval(h, (const uint64_t *)&in, (uint64_t *)&ro);
        if (in.rst_ni) {
            cr_assert_eq(memcmp(&mo, &ro, sizeof mo), 0, "cycle %u: RTL and shell differ", cyc);
            if (in.req_valid_i && mo.req_ready_o && acc_at == 0)
                acc_at = cyc;
            if (mo.rsp_valid_o && rsp_at == 0)
                rsp_at = cyc;
            if (in.fill_valid_i && mo.fill_ready_o) {
                if (fill_at == 0)
                    fill_at = cyc;
                else if (refill_at == 0)
                    refill_at = cyc;
            }
            if (mo.done_valid_o) {
                cr_assert_eq(mo.done_tag_o, 7 + beats, "targets in arrival order");
                beats++;
                if (mo.done_last_o)
                    last_at = cyc;
            }
        }
        dualopt_mshr_step(tm, &in);
        d->tick(h);
    }
    cr_assert_eq(acc_at, 3);
    cr_assert_eq(rsp_at, acc_at + 2, "request stage, then the response register");
    cr_assert_eq(fill_at, 10);
    cr_assert_eq(beats, 3);
    cr_assert_eq(last_at, fill_at + 3);
    cr_assert_eq(refill_at, fill_at + 3 + 1);
    d->destroy(h);
    dualopt_mshr_tm_free(tm);
}

/* A random trace with every outcome: ./tb_dualopt --trace prints exactly
 * what cohmodel prints, on the default and fpga configurations. */
static void write_random_trace(const char *path, const char *preset, unsigned nrec, uint64_t seed)
{
    dualopt_mshr *m = mk(preset, strcmp(preset, "fpga") == 0 ? 4 : 0);
    FILE *f = fopen(path, "w");
    uint64_t x = seed * 2654435761u + 1;
    unsigned i, outstanding = 0;
    cr_assert_not_null(f);
    for (i = 0; i < nrec; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if (x % 100 < 60 && outstanding < 40) {
            dualopt_mshr_result r;
            uint64_t addr = ((x >> 8) % 12) * 64 + ((x >> 16) % 64);
            uint64_t mask = (x >> 24) % 4 == 0 ? 0xffff : 1ull << ((x >> 30) % 16);
            fprintf(f, "REQ t%u 0x%llx 0x%llx\n", i, (unsigned long long)addr,
                    (unsigned long long)mask);
            cr_assert_eq(dualopt_mshr_req(m, addr >> 6, mask, i, &r), 0);
            outstanding += r.kind <= DUALOPT_MSHR_MISS;
        } else {
            unsigned e = (unsigned)((x >> 9) % m->cfg.entries), k;
            for (k = 0; k < m->cfg.entries && !m->e[e].valid; k++)
                e = (e + 1) % m->cfg.entries;
            if (m->e[e].valid) {
                uint64_t l, mk2;
                const uint32_t *t;
                unsigned n;
                fprintf(f, "FILL %u  # release\n", e);
                dualopt_mshr_fill(m, e, &l, &mk2, &t, &n);
                outstanding -= n;
            }
        }
    }
    fclose(f);
    dualopt_mshr_free(m);
}

Test(dualopt_mshr_lockstep, trace_mode_prints_what_cohmodel_prints, .timeout = 60)
{
    static const char *const names[] = {"default", "fpga"};
    unsigned i;
    for (i = 0; i < 2; i++) {
        char opts[32], why[1024], *want = NULL;
        write_random_trace("build/t_mshr_rand.trace", names[i], 3000, 11 + i);
        snprintf(opts, sizeof opts, "--config %s", names[i]);
        cr_assert_geq(trace_agrees("dualopt", "dualopt-mshr", opts, "build/t_mshr_rand.trace",
                                   &want, NULL, why, sizeof why),
                      0, "%s", why);
        cr_assert_not_null(strstr(want, "\nHIT "));
        cr_assert_not_null(strstr(want, "\nDONE "));
        if (i == 1)
            cr_assert(strstr(want, " full\n") && strstr(want, " targets "),
                      "fpga trace must stall both ways");
        free(want);
    }
}
