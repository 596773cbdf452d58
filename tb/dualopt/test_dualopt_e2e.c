/*
 * Criterion tests of the DualOpt end-to-end composition
 * (cmodel/dualopt/dualopt_e2e*.c, tb/dualopt/dualopt_e2e_tb.c): every loaded word equals
 * memory on seeded random kernels for 2 and 4 GPUs in the composition of
 * timing shells and in the composition of Verilated units (lockstep, every
 * port every cycle); traffic figures of three directed kernels equal the
 * hand-computed values; the check fails on a corrupted memory reply and on
 * a lost slot, and the lockstep fails on a corrupted RTL output; bad
 * options of ./tb_dualopt.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_e2e.h"
#include "dualopt_e2e_tb.h"
#include "lockstep.h"
#include "test_util.h"

extern const dut_ops *const dualopt_duts[];

static e2e_tb_res run_kernel(dualopt_e2e_kind kind, unsigned gpus, uint64_t seed, unsigned loads,
                             dualopt_e2e_mode mode, int rtl, dualopt_e2e_fault fault, uint64_t fault_n, int *rc)
{
    dualopt_e2e_kernel k;
    dualopt_e2e_opts o;
    e2e_tb_res r;
    char err[256];
    cr_assert_eq(dualopt_e2e_kernel_gen(&k, kind, gpus, seed, loads, err, sizeof err), 0, "%s", err);
    dualopt_e2e_opts_default(&o);
    o.gpus = gpus;
    o.mode = mode;
    o.fault = fault;
    o.fault_n = fault_n;
    o.idle_limit = 300;
    *rc = e2e_tb_run(&o, &k, rtl ? dualopt_duts : NULL, &r);
    cr_assert_geq(*rc, 0, "setup: %s", r.msg);
    dualopt_e2e_kernel_free(&k);
    return r;
}

static void expect_pass(dualopt_e2e_kind kind, unsigned gpus, uint64_t seed, unsigned loads, int rtl)
{
    int m, rc;
    for (m = 0; m < 2; m++) {
        e2e_tb_res r = run_kernel(kind, gpus, seed, loads, m ? DUALOPT_E2E_LINE_MODE : DUALOPT_E2E_COALESCE,
                                  rtl, DUALOPT_E2E_FAULT_NONE, 0, &rc);
        cr_assert_eq(rc, 0, "%s gpus %u seed %llu mode %d: %s / %s", dualopt_e2e_kind_names[kind], gpus,
                     (unsigned long long)seed, m, r.msg, r.check_msg);
        cr_assert(r.done && r.check_ok && r.check_rtl_ok && !r.mismatch);
        cr_assert_gt(r.chk.bytes, 0);
        cr_assert_eq(r.chk.bytes, r.c.lane_bytes, "every issued lane byte is checked");
        cr_assert_eq(r.c.bad_packets + r.c.stray_words, 0);
        if (m == 0) {
            cr_assert_eq(r.c.reg_packets, 0, "coalescing mode: fine-grained responses only");
            cr_assert_eq(r.c.slots, r.c.words, "every selected word travels in one slot");
        } else
            cr_assert_eq(r.c.coal_packets, 0, "line mode: regular packets only");
        if (rtl)
            cr_assert_eq(memcmp(&r.c, &r.r, sizeof r.c), 0);
    }
}

/* ------------------------------------------------ loaded words -- */

Test(dualopt_e2e, c_composition_every_word_equals_memory, .timeout = 60)
{
    unsigned seed;
    for (seed = 1; seed <= 4; seed++) {
        expect_pass(DUALOPT_E2E_K_MIXED, 2, seed, 24, 0);
        expect_pass(DUALOPT_E2E_K_MIXED, 4, seed, 24, 0);
    }
    expect_pass(DUALOPT_E2E_K_CROSSING, 4, 5, 12, 0);
    expect_pass(DUALOPT_E2E_K_SCATTER, 4, 6, 12, 0);
    expect_pass(DUALOPT_E2E_K_STRIDE, 2, 7, 12, 0);
    expect_pass(DUALOPT_E2E_K_SPARSE, 3, 8, 12, 0);
}

Test(dualopt_e2e, rtl_composition_every_word_equals_memory, .timeout = 120)
{
    expect_pass(DUALOPT_E2E_K_MIXED, 2, 11, 16, 1);
    expect_pass(DUALOPT_E2E_K_MIXED, 2, 12, 16, 1);
    expect_pass(DUALOPT_E2E_K_MIXED, 4, 13, 8, 1);
    expect_pass(DUALOPT_E2E_K_MIXED, 4, 14, 8, 1);
    expect_pass(DUALOPT_E2E_K_CROSSING, 4, 15, 4, 1);
}

/* ------------------------------------------ traffic, by hand -- */

typedef struct {
    uint64_t req, packets, slots, bytes, flits, fine_bytes, fine_flits, line_bytes, line_flits;
    uint64_t base_packets, base_bytes, base_flits;
} want_t;

static void expect_traffic(dualopt_e2e_kind kind, const want_t *w)
{
    int rc;
    e2e_tb_res c = run_kernel(kind, 2, 1, 0, DUALOPT_E2E_COALESCE, 1, DUALOPT_E2E_FAULT_NONE, 0, &rc);
    e2e_tb_res b;
    cr_assert_eq(rc, 0, "%s: %s %s", dualopt_e2e_kind_names[kind], c.msg, c.check_msg);
    cr_assert_eq(c.c.req_msgs, w->req);
    cr_assert_eq(c.c.req_bytes, 12 * w->req);
    cr_assert_eq(c.c.req_flits, w->req);
    cr_assert_eq(c.c.packets, w->packets, "%s packets %llu", dualopt_e2e_kind_names[kind],
                 (unsigned long long)c.c.packets);
    cr_assert_eq(c.c.coal_packets, w->packets);
    cr_assert_eq(c.c.slots, w->slots);
    cr_assert_eq(c.c.bytes, w->bytes, "%s bytes %llu", dualopt_e2e_kind_names[kind],
                 (unsigned long long)c.c.bytes);
    cr_assert_eq(c.c.flits, w->flits);
    cr_assert_eq(c.c.fine_bytes, w->fine_bytes);
    cr_assert_eq(c.c.fine_flits, w->fine_flits);
    cr_assert_eq(c.c.line_bytes, w->line_bytes);
    cr_assert_eq(c.c.line_flits, w->line_flits);
    b = run_kernel(kind, 2, 1, 0, DUALOPT_E2E_LINE_MODE, 1, DUALOPT_E2E_FAULT_NONE, 0, &rc);
    cr_assert_eq(rc, 0, "%s baseline: %s %s", dualopt_e2e_kind_names[kind], b.msg, b.check_msg);
    cr_assert_eq(b.c.req_msgs, w->req);
    cr_assert_eq(b.c.packets, w->base_packets);
    cr_assert_eq(b.c.reg_packets, w->base_packets);
    cr_assert_eq(b.c.bytes, w->base_bytes);
    cr_assert_eq(b.c.flits, w->base_flits);
}

/* 30 single-word responses: three full packets of 10 slots, 4 + 10 x 6 =
 * 64 B = 4 flits each; one per packet 30 x (4 + 4) B, 1 flit each; whole
 * lines 30 x 68 B, 5 flits each. */
Test(dualopt_e2e_traffic, fully_coalescible_kernel)
{
    want_t w = {30, 3, 30, 192, 12, 240, 30, 2040, 150, 30, 2040, 150};
    expect_traffic(DUALOPT_E2E_K_FULL, &w);
}

/* 11 lanes x 8 bytes at 64i + 60: 12 lines, the first and last with one
 * word, ten with two: 22 slots = packets of 10, 10 and 2 (the last after the
 * timeout): 64 + 64 + (4 + 2 x 6) = 144 B, 4 + 4 + 1 flits; one per packet
 * 2 x 8 + 10 x 12 = 136 B, 12 flits; lines 12 x 68 = 816 B, 60 flits. */
Test(dualopt_e2e_traffic, line_crossing_kernel)
{
    want_t w = {12, 3, 22, 144, 9, 136, 12, 816, 60, 12, 816, 60};
    expect_traffic(DUALOPT_E2E_K_CROSS11, &w);
}

/* 5 loads of one word, 200 cycles apart: every slot leaves alone after the
 * timeout: 5 x (4 + 6) = 50 B, 5 flits; one per packet 5 x 8 = 40 B; lines
 * 5 x 68 = 340 B, 25 flits. */
Test(dualopt_e2e_traffic, sparse_kernel)
{
    want_t w = {5, 5, 5, 50, 5, 40, 5, 340, 25, 5, 340, 25};
    expect_traffic(DUALOPT_E2E_K_LONE, &w);
}

/* ----------------------------------------- the check can fail -- */

Test(dualopt_e2e_faults, corrupted_memory_reply_is_caught, .timeout = 60)
{
    int rtl, m, rc;
    for (rtl = 0; rtl < 2; rtl++)
        for (m = 0; m < 2; m++) {
            e2e_tb_res r = run_kernel(DUALOPT_E2E_K_MIXED, rtl ? 2 : 4, 3, 8,
                                      m ? DUALOPT_E2E_LINE_MODE : DUALOPT_E2E_COALESCE, rtl, DUALOPT_E2E_FAULT_MEM, 5,
                                      &rc);
            cr_assert_eq(r.c.faults, 1);
            cr_assert_eq(rc, 1);
            cr_assert(r.done, "the run completes: only data is wrong");
            cr_assert(!r.check_ok && !r.mismatch, "%s", r.msg);
            cr_assert_gt(r.chk.wrong, 0);
            cr_assert_eq(r.chk.missing + r.chk.extra, 0);
            cr_assert(strstr(r.check_msg, "wrong value") != NULL, "%s", r.check_msg);
        }
}

Test(dualopt_e2e_faults, dropped_slot_is_caught, .timeout = 60)
{
    int rtl, rc;
    for (rtl = 0; rtl < 2; rtl++) {
        e2e_tb_res r = run_kernel(DUALOPT_E2E_K_MIXED, rtl ? 2 : 4, 4, 8, DUALOPT_E2E_COALESCE, rtl,
                                  DUALOPT_E2E_FAULT_DROP, 7, &rc);
        cr_assert_eq(r.c.faults, 1);
        cr_assert_eq(rc, 1);
        cr_assert(!r.done, "the entry missing a slot never fills");
        cr_assert(!r.check_ok);
        cr_assert_gt(r.chk.missing, 0);
        cr_assert(strstr(r.check_msg, "never delivered") != NULL, "%s", r.check_msg);
    }
    /* a lost line response in the baseline */
    {
        e2e_tb_res r = run_kernel(DUALOPT_E2E_K_FULL, 2, 1, 0, DUALOPT_E2E_LINE_MODE, 0, DUALOPT_E2E_FAULT_DROP, 3, &rc);
        cr_assert_eq(rc, 1);
        cr_assert_eq(r.chk.missing, 4, "one lane's word");
    }
}

/* The fault-free reference of the two tests above passes (so the failures
 * come from the faults). */
Test(dualopt_e2e_faults, same_kernels_without_faults_pass, .timeout = 60)
{
    expect_pass(DUALOPT_E2E_K_MIXED, 4, 3, 8, 0);
    expect_pass(DUALOPT_E2E_K_MIXED, 4, 4, 8, 0);
    expect_pass(DUALOPT_E2E_K_MIXED, 2, 3, 8, 1);
    expect_pass(DUALOPT_E2E_K_MIXED, 2, 4, 8, 1);
}

/* The lockstep of the two compositions catches one wrong RTL output bit:
 * the de-coalescer of GPU 0 returns its 5th word with bit 0 flipped. */
static const dut_ops *real_decoal;
static dut_ops bad_decoal;
static unsigned bad_words;

static int out_word(const dut_ops *d, const char *name)
{
    unsigned k, w = 0;
    for (k = 0; k < d->n_out; k++) {
        if (strcmp(d->out_names[k], name) == 0)
            return (int)w;
        w += COHKIT_UNIT_WORDS(d->out_widths[k]);
    }
    return -1;
}

static void flip_eval(void *h, const uint64_t *in, uint64_t *out)
{
    int v = out_word(real_decoal, "out_valid_o"), dt = out_word(real_decoal, "out_data_o");
    real_decoal->eval(h, in, out);
    if ((in[0] & 1) && (out[v] & 1) && ++bad_words == 5) /* GPU 0's only: GPU 1 receives nothing */
        out[dt] ^= 1;
}

Test(dualopt_e2e_faults, lockstep_catches_a_wrong_rtl_output, .timeout = 60)
{
    const dut_ops *table[64];
    size_t i, n = 0;
    dualopt_e2e_kernel k;
    dualopt_e2e_opts o;
    e2e_tb_res r;
    char err[128];
    int rc;
    real_decoal = ls_dut_find(dualopt_duts, cohkit_unit_find("dualopt-decoal"), "default");
    cr_assert_not_null(real_decoal);
    bad_decoal = *real_decoal;
    bad_decoal.eval = flip_eval;
    for (i = 0; dualopt_duts[i] && n + 1 < 64; i++)
        table[n++] = dualopt_duts[i] == real_decoal ? &bad_decoal : dualopt_duts[i];
    table[n] = NULL;
    bad_words = 0;
    cr_assert_eq(dualopt_e2e_kernel_gen(&k, DUALOPT_E2E_K_FULL, 2, 1, 0, err, sizeof err), 0);
    dualopt_e2e_opts_default(&o);
    o.gpus = 2;
    rc = e2e_tb_run(&o, &k, table, &r);
    dualopt_e2e_kernel_free(&k);
    cr_assert_eq(rc, 1);
    cr_assert(r.mismatch);
    cr_assert(strstr(r.msg, "gpu0.decoal port out_data_o") != NULL, "%s", r.msg);
}

/* ------------------------------------------------- ./tb_dualopt -- */

Test(dualopt_e2e_tool, bench_runs_the_composition)
{
    char *o;
    FILE *f;
    long n;
    cr_assert_eq(run("./tb_dualopt --e2e --gpus 2 --kernel cross11 >build/t_e2e.out 2>&1"), 0);
    f = fopen("build/t_e2e.out", "r");
    cr_assert_not_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    o = calloc(1, (size_t)n + 1);
    cr_assert_eq(fread(o, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    cr_assert(strstr(o, "response link: 3 packets (3 coalesced, 0 regular), 22 slots, 144 bytes, "
                        "9 flits") != NULL, "%s", o);
    cr_assert(strstr(o, "one per packet 136 bytes 12 flits; whole lines 816 bytes 60 flits"));
    cr_assert(strstr(o, "response link: 12 packets (0 coalesced, 12 regular), 0 slots, 816 bytes"));
    cr_assert(strstr(o, "every port of every block equal every cycle") != NULL);
    cr_assert(strstr(o, "\nPASS\n") != NULL);
    free(o);
}

Test(dualopt_e2e_tool, bad_options_exit_2_with_nothing_on_stdout)
{
    static const char *const bad[] = {"--gpus 5", "--gpus 1", "--kernel nope", "--mode half",
                                      "--loads 0", "--e2e --seed x", "--e2e --frob 1",
                                      "--gpus"};
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[256];
        FILE *f;
        long n;
        snprintf(cmd, sizeof cmd, "./tb_dualopt %s >build/t_e2e_bad.out 2>build/t_e2e_bad.err",
                 bad[i]);
        cr_assert_eq(run(cmd), 2, "%s", cmd);
        f = fopen("build/t_e2e_bad.out", "r");
        cr_assert_not_null(f);
        fseek(f, 0, SEEK_END);
        n = ftell(f);
        fclose(f);
        cr_assert_eq(n, 0, "%s wrote to stdout", bad[i]);
        cr_assert_eq(run("test $(wc -l <build/t_e2e_bad.err) -eq 1"), 0, "%s: one line", bad[i]);
    }
}
