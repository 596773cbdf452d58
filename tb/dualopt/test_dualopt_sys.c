/*
 * Criterion tests of the GPU at cycle level (cmodel/dualopt/dualopt_sys.c,
 * tb/dualopt/dualopt_sys_tb.c): with every block Verilated in lockstep, the engine
 * picks NONE, COALESCE and CACHE on the local, sparse and reuse kernels
 * after monitoring, every port of every block is equal every cycle, every
 * loaded byte and the memory after every flush equal the reference; every
 * forced mode passes the check with loads, stores and atomics; the link
 * latency is a parameter; a dropped write-back, a stuck output bit of a
 * Verilated RDMA cache and of a Verilated engine are caught; bad options of
 * ./tb_dualopt --sys.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_de.h"
#include "dualopt_sys_tb.h"
#include "test_util.h"

extern const dut_ops *const dualopt_duts[];

static unsigned small_ops(dualopt_gpu_kind kind) { return kind == DUALOPT_GPU_K_LOCAL ? 400 : 60; }

static int run_kernel(dualopt_gpu_kind kind, unsigned gpus, uint64_t seed, dualopt_gpu_force force, unsigned lat,
               dualopt_sys_fault fault, uint64_t fault_n, int rtl, const sys_stuck_bit *stuck,
               sys_tb_res *r)
{
    dualopt_gpu_kernel k;
    dualopt_sys_opts o;
    char err[256];
    int rc;
    cr_assert_eq(dualopt_gpu_kernel_gen(&k, kind, gpus, 2, seed, small_ops(kind), err, sizeof err), 0,
                 "%s", err);
    dualopt_gpu_kernel_atomics(&k, 25);
    dualopt_sys_opts_default(&o);
    o.gpus = gpus;
    o.force = force;
    o.link_lat = lat;
    o.fault = fault;
    o.fault_n = fault_n;
    rc = sys_tb_run(&o, &k, rtl ? dualopt_duts : NULL, stuck, r);
    dualopt_gpu_kernel_free(&k);
    cr_assert_geq(rc, 0, "setup: %s", r->msg);
    return rc;
}

Test(dualopt_sys, engine_picks_the_mode_and_the_verilated_gpu_equals_the_model, .timeout = 120)
{
    static const unsigned want[DUALOPT_GPU_K_N] = {DUALOPT_DE_NONE, DUALOPT_DE_COALESCE, DUALOPT_DE_CACHE};
    unsigned kind, g;
    for (kind = 0; kind < DUALOPT_GPU_K_N; kind++) {
        sys_tb_res r;
        int rc = run_kernel((dualopt_gpu_kind)kind, 2, 1, DUALOPT_GPU_AUTO, 20, DUALOPT_SYS_FAULT_NONE, 0, 1, NULL, &r);
        cr_assert_eq(rc, 0, "%s: %s / %s", dualopt_gpu_kind_names[kind], r.msg, r.check_msg);
        cr_assert(r.done && !r.mismatch && r.check_ok && r.check_rtl_ok);
        cr_assert_eq(r.chk.wrong + r.chk.missing + r.chk.extra + r.chk.lost, 0);
        cr_assert_gt(r.chk.image_bytes, 0);
        cr_assert_eq(r.c.flushes, 2);
        cr_assert_gt(r.c.atomics, 0, "%s: no atomics", dualopt_gpu_kind_names[kind]);
        cr_assert_eq(r.c.stray, 0);
        for (g = 0; g < 2; g++) {
            cr_assert_eq(r.c.mode[g][0], want[kind], "%s gpu%u kernel 0: mode %u",
                         dualopt_gpu_kind_names[kind], g, r.c.mode[g][0]);
            cr_assert_eq(r.c.mode[g][1], want[kind]);
            cr_assert_gt(r.c.decided_at[g], 0);
        }
        if (kind == DUALOPT_GPU_K_SPARSE)
            cr_assert(r.c.coal_packets > 0 && r.c.bypassed > 0 && r.c.rc_hits + r.c.rc_misses == 0);
        if (kind == DUALOPT_GPU_K_REUSE) {
            cr_assert_gt(r.c.rc_hits, r.c.rc_misses);
            cr_assert(r.c.rc_whits > 0 && r.c.rc_fwd > 0 && r.c.rc_flush_wbs > 0);
            cr_assert_eq(r.c.coal_packets, 0);
        }
        if (kind == DUALOPT_GPU_K_LOCAL)
            cr_assert(r.c.rc_hits + r.c.rc_misses + r.c.coal_packets == 0);
    }
}

/* A two-kernel program whose kernels differ: kernel 0 of `a`'s kind, kernel 1
 * of `b`'s (both generated for two kernels with one seed, so the initial
 * image is the same and each kernel's lines are those of its index). */
static void mixed_program(dualopt_gpu_kernel *k, dualopt_gpu_kind a, dualopt_gpu_kind b, unsigned gpus, uint64_t seed,
                          unsigned ops)
{
    dualopt_gpu_kernel ka, kb;
    char err[256];
    size_t i;
    cr_assert_eq(dualopt_gpu_kernel_gen(&ka, a, gpus, 2, seed, ops, err, sizeof err), 0, "%s", err);
    cr_assert_eq(dualopt_gpu_kernel_gen(&kb, b, gpus, 2, seed, ops, err, sizeof err), 0, "%s", err);
    cr_assert_eq(memcmp(ka.mem, kb.mem, (size_t)gpus * DUALOPT_E2E_REGION), 0);
    memset(k, 0, sizeof *k);
    k->gpus = gpus;
    k->kernels = 2;
    k->seed = seed;
    k->mem = ka.mem;
    ka.mem = NULL;
    k->op = malloc((ka.n + kb.n) * sizeof *k->op);
    cr_assert_not_null(k->op);
    for (i = 0; i < ka.n; i++)
        if (ka.op[i].kernel == 0)
            k->op[k->n++] = ka.op[i];
    for (i = 0; i < kb.n; i++)
        if (kb.op[i].kernel == 1)
            k->op[k->n++] = kb.op[i];
    k->cap = ka.n + kb.n;
    cr_assert_eq(k->n, (size_t)gpus * ops * 2);
    dualopt_gpu_kernel_free(&ka);
    dualopt_gpu_kernel_free(&kb);
}

/* --de kernel: the engine (window 256 remote accesses, warm-up 64,
 * re-monitoring on kernel boundaries) decides CACHE on a reuse kernel, the
 * boundary restarts monitoring, and it decides COALESCE on the sparse kernel
 * that follows; every block Verilated, equal every cycle, the check passes.
 * With --de tiny (decided once) the same program keeps CACHE in kernel 1. */
Test(dualopt_sys, kernel_boundary_remonitors_and_the_mode_follows_the_kernel, .timeout = 120)
{
    static const char *const de[] = {"kernel", "tiny"};
    unsigned i, g;
    for (i = 0; i < 2; i++) {
        dualopt_gpu_kernel k;
        dualopt_sys_opts o;
        sys_tb_res r;
        int rc;
        mixed_program(&k, DUALOPT_GPU_K_REUSE, DUALOPT_GPU_K_SPARSE, 2, 5, 300);
        dualopt_gpu_kernel_atomics(&k, 25);
        dualopt_sys_opts_default(&o);
        o.gpus = 2;
        o.de_preset = de[i];
        rc = sys_tb_run(&o, &k, i == 0 ? dualopt_duts : NULL, NULL, &r);
        dualopt_gpu_kernel_free(&k);
        cr_assert_eq(rc, 0, "--de %s: %s / %s", de[i], r.msg, r.check_msg);
        cr_log_info("--de %s: %llu cycles, cache hits %llu misses %llu, coalesced packets %llu, "
                    "first decision gpu0 %llu gpu1 %llu", de[i], (unsigned long long)r.c.cycles,
                    (unsigned long long)r.c.rc_hits, (unsigned long long)r.c.rc_misses,
                    (unsigned long long)r.c.coal_packets, (unsigned long long)r.c.decided_at[0],
                    (unsigned long long)r.c.decided_at[1]);
        cr_assert(r.done && !r.mismatch && r.check_ok);
        cr_assert(i != 0 || r.check_rtl_ok);
        cr_assert_eq(r.chk.wrong + r.chk.missing + r.chk.extra + r.chk.lost, 0);
        cr_assert_eq(r.c.flushes, 2);
        cr_assert_gt(r.c.rc_hits, 0, "--de %s: the reuse kernel was not cached", de[i]);
        for (g = 0; g < 2; g++) {
            cr_assert_eq(r.c.mode[g][0], DUALOPT_DE_CACHE, "--de %s gpu%u kernel 0: mode %u", de[i], g,
                         r.c.mode[g][0]);
            cr_assert_eq(r.c.mode[g][1], i == 0 ? DUALOPT_DE_COALESCE : DUALOPT_DE_CACHE,
                         "--de %s gpu%u kernel 1: mode %u", de[i], g, r.c.mode[g][1]);
        }
        if (i == 0)
            cr_assert_gt(r.c.coal_packets, 0, "the sparse kernel was not coalesced");
    }
}

Test(dualopt_sys, every_forced_mode_passes_the_check_with_stores_and_atomics, .timeout = 120)
{
    static const dualopt_gpu_force f[] = {DUALOPT_GPU_FORCE_NONE, DUALOPT_GPU_FORCE_COALESCE, DUALOPT_GPU_FORCE_CACHE};
    unsigned kind, i;
    for (kind = 1; kind < DUALOPT_GPU_K_N; kind++)
        for (i = 0; i < 3; i++) {
            sys_tb_res r;
            int rc = run_kernel((dualopt_gpu_kind)kind, 3, 2 + i, f[i], 20, DUALOPT_SYS_FAULT_NONE, 0, 0, NULL, &r);
            cr_assert_eq(rc, 0, "%s force %u: %s / %s", dualopt_gpu_kind_names[kind], i, r.msg,
                         r.check_msg);
            cr_assert(r.c.stores > 0 && r.c.atomics > 0);
            if (f[i] == DUALOPT_GPU_FORCE_CACHE)
                cr_assert(r.c.rc_hits + r.c.rc_misses > 0 && r.c.rc_fwd > 0);
            else
                cr_assert_eq(r.c.rc_hits + r.c.rc_misses + r.c.rc_fwd, 0);
            if (f[i] == DUALOPT_GPU_FORCE_COALESCE) /* reuse reads whole lines: line requests */
                cr_assert(kind == DUALOPT_GPU_K_REUSE || r.c.coal_packets > 0);
        }
}

Test(dualopt_sys, link_latency_is_a_parameter, .timeout = 60)
{
    sys_tb_res a, b;
    cr_assert_eq(run_kernel(DUALOPT_GPU_K_SPARSE, 2, 3, DUALOPT_GPU_AUTO, 1, DUALOPT_SYS_FAULT_NONE, 0, 0, NULL, &a), 0, "%s",
                 a.check_msg);
    cr_assert_eq(run_kernel(DUALOPT_GPU_K_SPARSE, 2, 3, DUALOPT_GPU_AUTO, 80, DUALOPT_SYS_FAULT_NONE, 0, 0, NULL, &b), 0, "%s",
                 b.check_msg);
    cr_assert_gt(b.c.cycles, a.c.cycles + 1000, "%llu vs %llu", (unsigned long long)b.c.cycles,
                 (unsigned long long)a.c.cycles);
}

Test(dualopt_sys_fault, dropped_write_back_is_caught_by_the_check, .timeout = 60)
{
    sys_tb_res r;
    int rc = run_kernel(DUALOPT_GPU_K_REUSE, 2, 1, DUALOPT_GPU_FORCE_CACHE, 20, DUALOPT_SYS_FAULT_DROP_WB, 3, 1, NULL, &r);
    cr_assert_eq(rc, 1);
    cr_assert_eq(r.c.faults, 1);
    cr_assert(!r.mismatch, "%s", r.msg); /* both compositions lose it: the check tells */
    cr_assert(!r.check_ok);
    cr_assert_gt(r.chk.lost + r.chk.wrong, 0, "%s", r.check_msg);
    cr_assert_eq(run_kernel(DUALOPT_GPU_K_REUSE, 2, 1, DUALOPT_GPU_FORCE_CACHE, 20, DUALOPT_SYS_FAULT_NONE, 0, 0, NULL, &r), 0);
}

Test(dualopt_sys_fault, stuck_output_bits_of_verilated_blocks_are_caught, .timeout = 60)
{
    sys_stuck_bit s1 = {1, 1, "dualopt-rcache", "out_mask_o", 0, 0};
    sys_stuck_bit s2 = {1, 0, "dualopt-de", "rcache_en_o", 0, 1};
    sys_tb_res r;
    cr_assert_eq(run_kernel(DUALOPT_GPU_K_REUSE, 2, 1, DUALOPT_GPU_AUTO, 20, DUALOPT_SYS_FAULT_NONE, 0, 1, &s1, &r), 1);
    cr_assert(r.mismatch);
    cr_assert(strstr(r.msg, "gpu1.rcache port out_mask_o") != NULL, "%s", r.msg);
    cr_assert_eq(run_kernel(DUALOPT_GPU_K_SPARSE, 2, 1, DUALOPT_GPU_AUTO, 20, DUALOPT_SYS_FAULT_NONE, 0, 1, &s2, &r), 1);
    cr_assert(r.mismatch);
    cr_assert(strstr(r.msg, "gpu0.de port rcache_en_o") != NULL, "%s", r.msg);
}

Test(dualopt_sys_tool, runs_and_rejects_bad_options, .timeout = 60)
{
    static const char *const badv[] = {"--sys --gpus 5", "--sys --kernel mixed",
                                       "--sys --atomics 101", "--sys --link-lat 0",
                                       "--sys --de default", "--sys --force lines",
                                       "--sys --bogus 1", "--sys --ops", "--sys --fault drop-wb:0",
                                       "--sys --fault drop"};
    char cmd[256];
    unsigned i;
    FILE *f;
    cr_assert_eq(run("./tb_dualopt --sys --kernel sparse --ops 40 --link-lat 5 "
                    ">build/t_sys_tool.out 2>&1"), 0);
    f = fopen("build/t_sys_tool.out", "r");
    cr_assert_not_null(f);
    {
        char buf[8192];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        cr_assert(strstr(buf, "every port of every block equal every cycle") != NULL, "%s", buf);
        cr_assert(strstr(buf, "PASS") != NULL);
    }
    fclose(f);
    for (i = 0; i < sizeof badv / sizeof *badv; i++) {
        snprintf(cmd, sizeof cmd, "./tb_dualopt %s >build/t_sys_bad.out 2>build/t_sys_bad.err",
                 badv[i]);
        cr_assert_eq(run(cmd), 2, "%s", badv[i]);
        f = fopen("build/t_sys_bad.out", "r");
        cr_assert_not_null(f);
        cr_assert_eq(fgetc(f), EOF, "%s wrote to stdout", badv[i]);
        fclose(f);
    }
    remove("build/t_sys_tool.out");
    remove("build/t_sys_bad.out");
    remove("build/t_sys_bad.err");
}
