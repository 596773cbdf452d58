/*
 * Criterion tests of the DualOpt BGU (cmodel/dualopt/dualopt_bgu.c, gen/
 * dualopt_bgu_gen.c): the paper's Fig. 7b example, the rules of reading D13
 * (multi-word and line-crossing lane accesses, first-touch order, wrap), bad
 * options and traces, trace-mode equality of RTL and model on random
 * traces, and the timing claim (k cycles for k lines, first request in the
 * cycle after the load is accepted). Lockstep of every committed configuration:
 * tb/test_registry.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_bgu.h"
#include "lockstep.h"
#include "test_util.h"
#include "unit.h"

extern const dut_ops *const dualopt_duts[];

static unsigned reqs_of(const dualopt_bgu_cfg *c, unsigned size, const uint64_t *addr, unsigned n,
                        dualopt_bgu_req *out)
{
    dualopt_bgu_load ld;
    unsigned i;
    memset(&ld, 0, sizeof ld);
    ld.size = size;
    for (i = 0; i < n; i++)
        if (addr[i] != ~0ull) {
            ld.active |= 1ull << i;
            ld.addr[i] = addr[i];
        }
    return dualopt_bgu_inst(c, &ld, out);
}

#define NONE (~0ull)

Test(dualopt_bgu_paper, fig7b_merges_0x100_and_0x104_into_mask_0x0003)
{
    /* spec 4.1: four threads, threads 2 and 3 read 0x100 and 0x104 */
    dualopt_bgu_cfg c;
    dualopt_bgu_req r[8];
    const uint64_t a[] = {0x2c0, 0x1f0, 0x100, 0x104};
    dualopt_bgu_cfg_default(&c);
    c.lanes = 4;
    cr_assert_eq(reqs_of(&c, 4, a, 4, r), 3);
    cr_assert(r[0].line << 6 == 0x2c0 && r[0].mask == 0x0001 && r[0].lanes == 0x1);
    cr_assert(r[1].line << 6 == 0x1c0 && r[1].mask == 0x1000 && r[1].lanes == 0x2);
    cr_assert(r[2].line << 6 == 0x100 && r[2].mask == 0x0003 && r[2].lanes == 0xc);
    cr_assert_eq(run("printf 'LD 4 0x2c0 0x1f0 0x100 0x104\\n' | build/bin/cohmodel dualopt-bgu "
                     "--lanes 4 > build/t_bgu_fig7b.out"), 0);
    {
        char *o = slurp("build/t_bgu_fig7b.out");
        cr_assert_str_eq(o, "REQ 0 0x2c0 0x0001 0x1\nREQ 0 0x1c0 0x1000 0x2\nREQ 0 0x100 0x0003 0xc\n");
        free(o);
    }
}

Test(dualopt_bgu_rules, multi_word_and_sub_word_accesses_set_every_word_they_overlap)
{
    dualopt_bgu_cfg c;
    dualopt_bgu_req r[8];
    const uint64_t a16[] = {0x104}, a12[] = {0x108}, a1[] = {0x103}, a2[] = {0x103}, a8[] = {0x13c - 4};
    dualopt_bgu_cfg_default(&c);
    c.lanes = 1;
    cr_assert_eq(reqs_of(&c, 16, a16, 1, r), 1);
    cr_assert_eq(r[0].mask, 0x001e, "16 B at 0x104: words 1..4, got 0x%llx", (unsigned long long)r[0].mask);
    cr_assert_eq(reqs_of(&c, 12, a12, 1, r), 1);
    cr_assert_eq(r[0].mask, 0x001c);
    cr_assert_eq(reqs_of(&c, 1, a1, 1, r), 1);
    cr_assert_eq(r[0].mask, 0x0001);
    cr_assert_eq(reqs_of(&c, 2, a2, 1, r), 1);
    cr_assert_eq(r[0].mask, 0x0003, "2 B at 0x103 straddle words 0 and 1");
    cr_assert_eq(reqs_of(&c, 8, a8, 1, r), 1);
    cr_assert_eq(r[0].mask, 0xc000);
}

Test(dualopt_bgu_rules, line_crossing_lane_feeds_two_requests)
{
    dualopt_bgu_cfg c;
    dualopt_bgu_req r[8];
    const uint64_t a[] = {0x13e, 0x140};
    dualopt_bgu_cfg_default(&c);
    c.lanes = 2;
    /* lane 0: bytes 0x13e..0x141 (word 15 of 0x100, word 0 of 0x140);
     * lane 1 merges into the second request */
    cr_assert_eq(reqs_of(&c, 4, a, 2, r), 2);
    cr_assert(r[0].line == 0x100 >> 6 && r[0].mask == 0x8000 && r[0].lanes == 1);
    cr_assert(r[1].line == 0x140 >> 6 && r[1].mask == 0x0001 && r[1].lanes == 3);
}

Test(dualopt_bgu_rules, first_touch_order_and_top_of_space_wrap)
{
    dualopt_bgu_cfg c;
    dualopt_bgu_req r[8];
    const uint64_t a[] = {0x1000, 0x0, NONE, 0x1004};
    const uint64_t w[] = {0xfffffffffffeull};
    dualopt_bgu_cfg_default(&c);
    c.lanes = 4;
    cr_assert_eq(reqs_of(&c, 4, a, 4, r), 2);
    cr_assert(r[0].line == 0x40 && r[0].lanes == 0x9 && r[0].mask == 0x3);
    cr_assert(r[1].line == 0 && r[1].lanes == 0x2);
    cr_assert_eq(reqs_of(&c, 4, w, 1, r), 2);
    cr_assert(r[0].line == 0xffffffffffc0ull >> 6 && r[0].mask == 0x8000);
    cr_assert(r[1].line == 0 && r[1].mask == 0x0001, "the access wraps to line 0");
    cr_assert_eq(reqs_of(&c, 4, a, 0, r), 0, "no active lane, no request");
}

Test(dualopt_bgu_rules, granularity_8_and_16_give_8_and_4_bit_masks)
{
    dualopt_bgu_cfg c;
    dualopt_bgu_req r[8];
    const uint64_t a[] = {0x100, 0x104, 0x13c};
    cr_assert_eq(dualopt_bgu_cfg_preset(&c, "gran8"), 0);
    c.lanes = 3;
    cr_assert_eq(reqs_of(&c, 4, a, 3, r), 1);
    cr_assert_eq(r[0].mask, 0x81);
    cr_assert_eq(dualopt_bgu_cfg_preset(&c, "gran16"), 0);
    c.lanes = 3;
    cr_assert_eq(reqs_of(&c, 4, a, 3, r), 1);
    cr_assert_eq(r[0].mask, 0x9);
    cr_assert_eq(run("printf 'LD 4 0x100 0x13c\\n' | build/bin/cohmodel dualopt-bgu --config gran16 "
                     "| grep -qx 'REQ 0 0x100 0x9 0x0000000000000003'"), 0);
}

Test(dualopt_bgu_rules, a_full_wavefront_of_unit_stride_words_is_four_lines)
{
    dualopt_bgu_cfg c;
    dualopt_bgu_req r[128];
    uint64_t a[64];
    unsigned i;
    dualopt_bgu_cfg_default(&c);
    for (i = 0; i < 64; i++)
        a[i] = 0x10000 + 4 * i;
    cr_assert_eq(reqs_of(&c, 4, a, 64, r), 4);
    for (i = 0; i < 4; i++)
        cr_assert(r[i].mask == 0xffff && r[i].lanes == 0xffffull << (16 * i));
    for (i = 0; i < 64; i++)
        a[i] = 0x10000 + 64 * 7 * i + 60; /* 8 B each: every lane crosses */
    cr_assert_eq(reqs_of(&c, 8, a, 64, r), 128);
}

Test(dualopt_bgu_cfg, presets_validate_and_bad_values_are_named)
{
    static const char *const bad[][3] = {
        {"lanes", "0", "--lanes: 0"},          {"lanes", "65", "--lanes: 65"},
        {"gran", "5", "--gran: 5"},            {"line", "48", "--line: 48"},
        {"line", "16", "--line: 16"},          {"addr-bits", "70", "--addr-bits: 70"},
        {"line", "1024", "exceeds 64"},        {"lanes", "x", "'x'"},
    };
    const cohkit_unit_desc *u = cohkit_unit_find("dualopt-bgu");
    size_t i;
    cr_assert_not_null(u);
    for (i = 0; u->presets[i]; i++) {
        dualopt_bgu_cfg c;
        char err[200];
        cr_assert_eq(dualopt_bgu_cfg_preset(&c, u->presets[i]), 0);
        cr_assert_eq(dualopt_bgu_cfg_check(&c, err, sizeof err), 0, "%s: %s", u->presets[i], err);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dualopt_bgu_cfg c;
        char err[200] = "";
        int r;
        dualopt_bgu_cfg_default(&c);
        r = dualopt_bgu_cfg_option(&c, bad[i][0], bad[i][1], err, sizeof err);
        if (r == 0)
            r = dualopt_bgu_cfg_check(&c, err, sizeof err);
        cr_assert_eq(r, -1, "--%s %s accepted", bad[i][0], bad[i][1]);
        cr_assert(strstr(err, bad[i][2]) != NULL, "'%s' lacks '%s'", err, bad[i][2]);
    }
    gen_refuses("dualopt-bgu", "--lanes 99", "99");
}

Test(dualopt_bgu_tools, bad_traces_exit_2_with_the_line_and_no_output)
{
    static const char *const bad[][2] = {
        {"LD 4 0x0\nST 4 0x0\n", "line 2: unknown record 'ST'"},
        {"LD 3 0x0\n", "line 1: size '3'"},
        {"\nLD 4 0x0 zz\n", "line 2: lane 1: 'zz' is not a hex address"},
        {"LD 4 0 1 2 3 4 5 6 7 8\n", "line 1: more than 8 lane addresses"},
        {"LD 4 0x100000000\n", "exceeds 32 bits"},
        {"LD\n", "line 1: LD needs a size"},
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        /* one extra LD line ahead of the case: its line number is one more */
        char want[120], in[120];
        const char *ln = strstr(bad[i][1], "line ");
        if (ln)
            snprintf(want, sizeof want, "cohmodel: stdin: line %d%s", atoi(ln + 5) + 1,
                     strchr(ln + 5, ':'));
        else
            snprintf(want, sizeof want, "%s", bad[i][1]);
        snprintf(in, sizeof in, "LD 4 0x40\n%s", bad[i][0]);
        model_refuses("dualopt-bgu", "--config fpga", in, want);
    }
    cr_assert_eq(run("printf 'LD 4 0x0\\n' | ./tb_dualopt --unit bgu --trace - --config fpga "
                     "--lanes 9 >/dev/null 2>&1"), 2);
    refused_on("./tb_dualopt --unit bgu --trace -", "LD 5 0x0\n", "line 1: size '5'");
}

/* A random trace of loads of up to `lanes` lanes with addresses below 2^32:
 * unit stride, clustered, scattered and line-crossing. */
static void write_trace(const char *path, unsigned lanes, uint64_t seed, unsigned loads)
{
    FILE *f = fopen(path, "w");
    uint64_t s = seed;
    unsigned i, k;
    static const unsigned sizes[] = {1, 2, 4, 8, 12, 16};
    cr_assert_not_null(f);
    fprintf(f, "# random loads: unit stride, clustered, scattered, crossing\n");
    for (i = 0; i < loads; i++) {
        unsigned pat, nl;
        uint64_t base;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        pat = (unsigned)((s >> 33) % 4);
        nl = 1 + (unsigned)((s >> 40) % lanes);
        base = ((s >> 8) % 64) << 8;
        fprintf(f, "LD %u", sizes[(s >> 50) % 6]);
        for (k = 0; k < nl; k++) {
            uint64_t a;
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            if ((s >> 60) == 0) {
                fprintf(f, " -");
                continue;
            }
            a = pat == 0 ? base + 4 * k : pat == 1 ? base + ((s >> 20) % 512)
                : pat == 2 ? (s >> 16) & 0xffffffffull : base + 64 * k + 60 + (s >> 30) % 4;
            fprintf(f, " 0x%llx", (unsigned long long)a);
        }
        fprintf(f, "\n");
    }
    fclose(f);
}

Test(dualopt_bgu_tools, tb_trace_prints_what_cohmodel_prints, .timeout = 120)
{
    unsigned i;
    for (i = 0; i < 2; i++) {
        char opts[64], why[1024];
        long n;
        write_trace("build/t_bgu_trace.txt", i ? 64 : 8, 11 + i, i ? 300 : 1500);
        snprintf(opts, sizeof opts, "--config %s", i ? "default" : "fpga");
        n = trace_agrees("dualopt", "dualopt-bgu", opts, "build/t_bgu_trace.txt", NULL, NULL, why,
                         sizeof why);
        cr_assert_geq(n, 0, "%s", why);
        cr_assert_gt(n, 20000, "too few requests");
    }
}

/* ------------------------------------------------------------ lockstep -- */

static void lockstep(const char *name, const char *stream, uint64_t cycles, uint64_t seed,
                     ls_result *r)
{
    ls_stream(r, dualopt_duts, "dualopt-bgu", name, stream, cycles, seed);
}

Test(dualopt_bgu_lockstep, k_lines_take_k_cycles_first_request_next_cycle, .timeout = 120)
{
    static const char *const names[] = {"fpga", "default"};
    unsigned i;
    for (i = 0; i < 2; i++) {
        ls_result r;
        unsigned long long timed, exact, first0, loads;
        lockstep(names[i], "full", 8000, 9, &r);
        loads = field(r.summary, "loads ");
        timed = field(r.summary, "throughput: ");
        exact = field(r.summary, "back-pressured: ");
        first0 = field(r.summary, "for k lines, ");
        cr_assert_gt(loads, 200);
        cr_assert_eq(timed + 1 >= loads, 1, "%s: %llu of %llu loads timed", names[i], timed, loads);
        cr_assert_eq(exact, timed, "%s: %llu of %llu loads took max(k,1) cycles", names[i], exact, timed);
        cr_assert_eq(first0, timed, "%s: first request latency", names[i]);
        cr_assert_eq(field(r.summary, "differ"), 0);
        ls_result_free(&r);
    }
}

/* Directed, on the Verilated fpga DUT and the shell together: eight lanes in
 * eight lines, accepted at once into the empty unit, give eight consecutive
 * requests from the next cycle; under back-pressure the request holds; a
 * second load presented behind it is accepted with its last request. */
Test(dualopt_bgu_lockstep, eight_lines_eight_cycles_and_stable_under_back_pressure)
{
    const cohkit_unit_desc *u = cohkit_unit_find("dualopt-bgu");
    const dut_ops *d = ls_dut_find(dualopt_duts, u, "fpga");
    dualopt_bgu_cfg c;
    dualopt_bgu_tm *tm;
    dualopt_bgu_load ld, ld2;
    uint64_t in[16], mo[8], ro[8], prev_line = 0;
    void *h;
    unsigned cyc, i, nreq = 0, acc_at = 0, acc2_at = 0, first_at = 0, last_at = 0, stalls = 0;
    cr_assert_not_null(d);
    dualopt_bgu_cfg_preset(&c, "fpga");
    tm = dualopt_bgu_tm_new(&c);
    h = d->create(1);
    cr_assert(tm && h && tm->g.in_words <= 16);
    memset(&ld, 0, sizeof ld);
    ld.size = 4;
    ld.active = 0xff;
    for (i = 0; i < 8; i++)
        ld.addr[i] = 0x1000 + 0x40 * (7 - i) + 4 * i; /* lines in descending order */
    ld2 = ld;
    ld2.active = 0x01;
    for (cyc = 0; cyc < 40 && acc2_at == 0; cyc++) {
        memset(in, 0, sizeof in);
        in[0] = cyc >= 2;
        if (cyc >= 4)
            dualopt_bgu_pack(tm, acc_at ? &ld2 : &ld, in);
        /* ready low in cycles 6 and 7 */
        in[tm->g.in_ready] = !(cyc == 6 || cyc == 7);
        dualopt_bgu_eval(tm, in, mo);
        d->eval(h, in, ro);
        if (cyc >= 2) {
            cr_assert_eq(memcmp(mo, ro, DUALOPT_BGU_O_N * sizeof *mo), 0, "cycle %u", cyc);
            if (ro[DUALOPT_BGU_O_REQ_VALID] && !in[tm->g.in_ready]) {
                if (stalls++)
                    cr_assert_eq(ro[DUALOPT_BGU_O_REQ_LINE], prev_line, "request changed under back-pressure");
                prev_line = ro[DUALOPT_BGU_O_REQ_LINE];
                cr_assert_eq(ro[DUALOPT_BGU_O_INST_READY], 0);
            }
            if (ro[DUALOPT_BGU_O_REQ_VALID] && in[tm->g.in_ready]) {
                cr_assert_eq(ro[DUALOPT_BGU_O_REQ_LINE], (0x1000 + 0x40 * (7 - nreq)) >> 6);
                cr_assert_eq(ro[DUALOPT_BGU_O_REQ_LANES], 1u << nreq);
                cr_assert_eq(ro[DUALOPT_BGU_O_REQ_MASK], 1u << nreq);
                cr_assert_eq(ro[DUALOPT_BGU_O_REQ_LAST], nreq == 7);
                if (nreq == 0)
                    first_at = cyc;
                if (nreq == 7)
                    last_at = cyc;
                nreq++;
            }
            if (in[tm->g.in_valid] && ro[DUALOPT_BGU_O_INST_READY]) {
                if (acc_at)
                    acc2_at = cyc;
                else
                    acc_at = cyc;
            }
        }
        dualopt_bgu_step(tm, in);
        d->tick(h);
    }
    cr_assert_eq(nreq, 8);
    cr_assert_eq(stalls, 2);
    cr_assert_eq(acc_at, 4, "presented in cycle 4 to the empty unit: accepted at once");
    cr_assert_eq(first_at, 5, "first request in the cycle after acceptance");
    cr_assert_eq(last_at, 4 + 8 + 2, "8 requests + 2 stall cycles");
    cr_assert_eq(acc2_at, last_at, "the next load is accepted with the last request");
    d->destroy(h);
    dualopt_bgu_tm_free(tm);
}
