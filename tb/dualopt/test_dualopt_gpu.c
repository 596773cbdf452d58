/*
 * Criterion tests of the GPU in every mode (cmodel/dualopt/dualopt_gpu*.c,
 * tb/dualopt/dualopt_gpu_tb.c): the decision engine picks NONE, COALESCE and CACHE
 * on the local-heavy, sparse-remote and reuse-heavy kernels, after a
 * monitoring phase run as the baseline; every loaded word equals memory in
 * every mode (forced and decided) and across the switch and the kernel
 * boundaries; no dirty byte is lost at the RDMA cache flush; each mode pays
 * off where the paper says (section 6.1); a dropped write-back, a missing
 * flush and corrupted lane results are caught by the check; bad options of
 * ./tb_dualopt --gpu.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_de.h"
#include "dualopt_gpu.h"
#include "dualopt_gpu_tb.h"
#include "dut.h"
#include "test_util.h"

/* Runs kind on gpus with the given forcing and fault; returns the check's
 * verdict, stats and check result. */
static unsigned run_ops; /* accesses per GPU and kernel; 0: the kind's default */

static int sim(dualopt_gpu_kind kind, unsigned gpus, uint64_t seed, dualopt_gpu_force force, dualopt_gpu_fault fault,
               uint64_t fault_n, dualopt_gpu_stats *st, dualopt_gpu_check_res *c, char *msg, size_t len)
{
    dualopt_gpu_kernel k;
    dualopt_gpu_opts o;
    dualopt_gpu_result r;
    char err[256];
    int rc;
    cr_assert_eq(dualopt_gpu_kernel_gen(&k, kind, gpus, 2, seed,
                                run_ops ? run_ops : dualopt_gpu_default_ops(kind), err,
                                sizeof err),
                 0, "%s", err);
    dualopt_gpu_opts_default(&o);
    o.force = force;
    o.fault = fault;
    o.fault_n = fault_n;
    cr_assert_eq(dualopt_gpu_run(&o, &k, st, &r, err, sizeof err), 0, "%s", err);
    rc = dualopt_gpu_check(&k, &r, c, msg, len);
    dualopt_gpu_result_free(&r);
    dualopt_gpu_kernel_free(&k);
    return rc;
}

Test(dualopt_gpu, engine_picks_the_mode_per_kernel_kind_after_monitoring)
{
    static const dualopt_de_mode want[DUALOPT_GPU_K_N] = {DUALOPT_DE_NONE, DUALOPT_DE_COALESCE, DUALOPT_DE_CACHE};
    unsigned kind, gpus, kk, g;
    uint64_t seed;
    for (kind = 0; kind < DUALOPT_GPU_K_N; kind++)
        for (gpus = 2; gpus <= 4; gpus++)
            for (seed = gpus; seed <= gpus; seed++) { /* seeds 2, 3, 4 */
                dualopt_gpu_stats st;
                dualopt_gpu_check_res c;
                char msg[512];
                int rc = sim((dualopt_gpu_kind)kind, gpus, seed, DUALOPT_GPU_AUTO, DUALOPT_GPU_FAULT_NONE, 0, &st, &c,
                             msg, sizeof msg);
                cr_assert_eq(rc, 0, "%s, %u GPUs, seed %llu: %s", dualopt_gpu_kind_names[kind], gpus,
                             (unsigned long long)seed, msg);
                cr_assert_gt(c.bytes, 1000);
                for (kk = 0; kk < 2; kk++)
                    for (g = 0; g < gpus; g++) {
                        cr_assert_eq(st.mode[g][kk], (unsigned)want[kind],
                                     "%s, %u GPUs, seed %llu, kernel %u, gpu %u: %s",
                                     dualopt_gpu_kind_names[kind], gpus, (unsigned long long)seed, kk, g,
                                     dualopt_de_mode_str((dualopt_de_mode)st.mode[g][kk]));
                        /* decided inside the kernel: monitoring (the baseline) first, then
                           the mode, in every kernel (re-monitoring after the boundary) */
                        cr_assert_gt(st.decided_at[g][kk], 0);
                    }
            }
}

Test(dualopt_gpu, every_loaded_word_equals_memory_in_every_mode)
{
    unsigned kind, gpus, f, seed;
    run_ops = 1000; /* the local kernel stays in monitoring (the baseline) in auto */
    for (kind = 0; kind < DUALOPT_GPU_K_N; kind++)
        for (gpus = 2; gpus <= 4; gpus++)
            for (f = DUALOPT_GPU_AUTO; f <= DUALOPT_GPU_FORCE_CACHE; f++)
                for (seed = gpus + f; seed <= gpus + f; seed++) { /* a seed per case */
                dualopt_gpu_stats st;
                dualopt_gpu_check_res c;
                char msg[512];
                int rc = sim((dualopt_gpu_kind)kind, gpus, seed, (dualopt_gpu_force)f, DUALOPT_GPU_FAULT_NONE, 0, &st,
                             &c, msg, sizeof msg);
                cr_assert_eq(rc, 0, "%s, %u GPUs, force %u: %s", dualopt_gpu_kind_names[kind], gpus, f,
                             msg);
                cr_assert_eq(c.wrong + c.missing + c.extra + c.lost, 0);
                cr_assert_eq(c.image_bytes, 2ull * gpus * DUALOPT_E2E_REGION);
                /* the mode really ran: its own traffic appears */
                if (f == DUALOPT_GPU_FORCE_COALESCE && kind != DUALOPT_GPU_K_LOCAL)
                    cr_assert_gt(st.slots, 0);
                if (f == DUALOPT_GPU_FORCE_CACHE)
                    cr_assert_gt(st.rc_hits + st.rc_misses, 0);
                if (f == DUALOPT_GPU_FORCE_NONE)
                    cr_assert_eq(st.slots + st.rc_hits + st.rc_misses + st.bypassed, 0);
            }
}

Test(dualopt_gpu, each_mode_pays_off_where_the_paper_says)
{
    dualopt_gpu_stats a, n, c2, k2;
    dualopt_gpu_check_res c;
    char msg[512];
    /* reuse-heavy: the RDMA cache removes most remote accesses */
    cr_assert_eq(sim(DUALOPT_GPU_K_REUSE, 4, 1, DUALOPT_GPU_AUTO, DUALOPT_GPU_FAULT_NONE, 0, &a, &c, msg, sizeof msg), 0);
    cr_assert_eq(sim(DUALOPT_GPU_K_REUSE, 4, 1, DUALOPT_GPU_FORCE_NONE, DUALOPT_GPU_FAULT_NONE, 0, &n, &c, msg, sizeof msg),
                 0);
    cr_assert_lt(a.flits * 2, n.flits, "reuse: %llu vs %llu flits", (unsigned long long)a.flits,
                 (unsigned long long)n.flits);
    cr_assert_gt(a.rc_hits, 10 * a.rc_misses);
    cr_assert_gt(a.rc_flush_wbs, 0);
    /* sparse-remote: coalescing beats both the baseline and the cache */
    cr_assert_eq(sim(DUALOPT_GPU_K_SPARSE, 4, 1, DUALOPT_GPU_AUTO, DUALOPT_GPU_FAULT_NONE, 0, &a, &c, msg, sizeof msg), 0);
    cr_assert_eq(sim(DUALOPT_GPU_K_SPARSE, 4, 1, DUALOPT_GPU_FORCE_NONE, DUALOPT_GPU_FAULT_NONE, 0, &n, &c, msg,
                     sizeof msg),
                 0);
    cr_assert_eq(sim(DUALOPT_GPU_K_SPARSE, 4, 1, DUALOPT_GPU_FORCE_CACHE, DUALOPT_GPU_FAULT_NONE, 0, &k2, &c, msg,
                     sizeof msg),
                 0);
    cr_assert_eq(sim(DUALOPT_GPU_K_SPARSE, 4, 1, DUALOPT_GPU_FORCE_COALESCE, DUALOPT_GPU_FAULT_NONE, 0, &c2, &c, msg,
                     sizeof msg),
                 0);
    cr_assert_lt(a.flits, n.flits);
    cr_assert_lt(c2.flits, k2.flits);
    cr_assert_gt(a.packets, 0);
    /* local-heavy: no optimisation, the traffic of the baseline */
    cr_assert_eq(sim(DUALOPT_GPU_K_LOCAL, 4, 1, DUALOPT_GPU_AUTO, DUALOPT_GPU_FAULT_NONE, 0, &a, &c, msg, sizeof msg), 0);
    cr_assert_eq(sim(DUALOPT_GPU_K_LOCAL, 4, 1, DUALOPT_GPU_FORCE_NONE, DUALOPT_GPU_FAULT_NONE, 0, &n, &c, msg, sizeof msg),
                 0);
    cr_assert_eq(a.flits, n.flits);
    cr_assert_eq(a.bytes, n.bytes);
}

Test(dualopt_gpu_flush, dropped_write_back_and_missing_flush_are_caught)
{
    dualopt_gpu_stats st;
    dualopt_gpu_check_res c;
    char msg[512];
    uint64_t n;
    /* clean: the flush writes back, nothing is lost */
    cr_assert_eq(sim(DUALOPT_GPU_K_REUSE, 2, 5, DUALOPT_GPU_AUTO, DUALOPT_GPU_FAULT_NONE, 0, &st, &c, msg, sizeof msg), 0,
                 "%s", msg);
    cr_assert_gt(st.rc_flush_wbs, 0);
    for (n = 1; n <= 3; n++) {
        int rc = sim(DUALOPT_GPU_K_REUSE, 2, 5, DUALOPT_GPU_AUTO, DUALOPT_GPU_FAULT_DROP_WB, n * 7, &st, &c, msg,
                     sizeof msg);
        cr_assert_eq(st.faults, 1);
        cr_assert_eq(rc, -1, "write-back %llu dropped, not caught", (unsigned long long)(n * 7));
        cr_assert_gt(c.lost, 0);
        cr_assert(strstr(msg, "dirty byte lost") != NULL || strstr(msg, "wrong value") != NULL,
                  "%s", msg);
    }
    cr_assert_eq(sim(DUALOPT_GPU_K_REUSE, 2, 5, DUALOPT_GPU_FORCE_CACHE, DUALOPT_GPU_FAULT_NO_FLUSH, 0, &st, &c, msg,
                     sizeof msg),
                 -1);
    cr_assert_gt(st.faults, 0);
    cr_assert_gt(c.lost, 0);
    /* the next kernel's other GPUs read the lost lines: wrong values too */
    cr_assert_gt(c.wrong, 0);
}

Test(dualopt_gpu_flush, corrupted_lane_results_are_caught)
{
    dualopt_gpu_kernel k;
    dualopt_gpu_opts o;
    dualopt_gpu_stats st;
    dualopt_gpu_result r;
    dualopt_gpu_check_res c;
    char err[256];
    size_t i;
    unsigned lane;
    cr_assert_eq(dualopt_gpu_kernel_gen(&k, DUALOPT_GPU_K_SPARSE, 2, 2, 9, 200, err, sizeof err), 0);
    dualopt_gpu_opts_default(&o);
    cr_assert_eq(dualopt_gpu_run(&o, &k, &st, &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(dualopt_gpu_check(&k, &r, &c, err, sizeof err), 0, "%s", err);
    for (i = 0; i < k.n && (k.op[i].store || k.op[i].kernel == 0); i++)
        ;
    cr_assert_lt(i, k.n);
    lane = (unsigned)__builtin_ctzll(k.op[i].active);
    r.data[i][lane][1] ^= 0x10;
    cr_assert_eq(dualopt_gpu_check(&k, &r, &c, err, sizeof err), -1);
    cr_assert_eq(c.wrong, 1);
    cr_assert(strstr(err, "wrong value") != NULL, "%s", err);
    r.data[i][lane][1] ^= 0x10;
    r.writes[i][lane][3] = 0;
    cr_assert_eq(dualopt_gpu_check(&k, &r, &c, err, sizeof err), -1);
    cr_assert_eq(c.missing, 1);
    r.writes[i][lane][3] = 2;
    cr_assert_eq(dualopt_gpu_check(&k, &r, &c, err, sizeof err), -1);
    cr_assert_eq(c.extra, 1);
    r.writes[i][lane][3] = 1;
    r.image[100] ^= 1;
    cr_assert_eq(dualopt_gpu_check(&k, &r, &c, err, sizeof err), -1);
    cr_assert_eq(c.lost, 1);
    dualopt_gpu_result_free(&r);
    dualopt_gpu_kernel_free(&k);
}

Test(dualopt_gpu_tool, runs_every_kind_and_rejects_bad_options)
{
    static const char *const bad[] = {"--gpu --kernel nope", "--gpu --gpus 5", "--gpu --ops 0",
                                      "--gpu --kernels 9", "--gpu --force half",
                                      "--gpu --seed x", "--gpu --frob 1", "--gpu --ops"};
    size_t i;
    char *o = NULL;
    size_t n = 0;
    FILE *f;
    cr_assert_eq(run("./tb_dualopt --gpu --gpus 2 >build/t_gpu_tool.out 2>&1"), 0);
    f = fopen("build/t_gpu_tool.out", "r");
    cr_assert_not_null(f);
    cr_assert_gt(getdelim(&o, &n, '\0', f), 0);
    fclose(f);
    cr_assert(strstr(o, "kernel 0: NONE NONE; kernel 1: NONE NONE") != NULL, "%s", o);
    cr_assert(strstr(o, "kernel 0: COALESCE COALESCE; kernel 1: COALESCE COALESCE") != NULL);
    cr_assert(strstr(o, "kernel 0: CACHE CACHE; kernel 1: CACHE CACHE") != NULL);
    cr_assert(strstr(o, "\nPASS\n") != NULL);
    free(o);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[256];
        long len;
        snprintf(cmd, sizeof cmd, "./tb_dualopt %s >build/t_gpu_bad.out 2>build/t_gpu_bad.err",
                 bad[i]);
        cr_assert_eq(run(cmd), 2, "%s", cmd);
        f = fopen("build/t_gpu_bad.out", "r");
        cr_assert_not_null(f);
        fseek(f, 0, SEEK_END);
        len = ftell(f);
        fclose(f);
        cr_assert_eq(len, 0, "%s wrote to stdout", bad[i]);
        cr_assert_eq(run("test $(wc -l <build/t_gpu_bad.err) -eq 1"), 0, "%s: one line", bad[i]);
    }
}

extern const dut_ops *const dualopt_duts[];

/* The RDMA cache stream of every GPU, replayed into the Verilated cache,
 * equals the functional core's; a changed write-back byte, outcome or
 * fetched line in the log is reported. */
Test(dualopt_gpu_rtl, rcache_streams_replay_equal_and_differences_caught)
{
    static const dualopt_gpu_force forces[] = {DUALOPT_GPU_AUTO, DUALOPT_GPU_FORCE_CACHE};
    dualopt_gpu_kernel k;
    dualopt_gpu_opts o;
    dualopt_gpu_stats st;
    dualopt_gpu_result r;
    dualopt_gpu_rc_log logs[DUALOPT_E2E_GPUS_MAX];
    char err[512];
    unsigned f, g, kind;
    uint64_t cyc;
    for (kind = 0; kind < DUALOPT_GPU_K_N; kind++)
        for (f = 0; f < 2; f++) {
            uint64_t evs = 0, wbs = 0;
            cr_assert_eq(dualopt_gpu_kernel_gen(&k, (dualopt_gpu_kind)kind, 3, 2, 11, kind == DUALOPT_GPU_K_LOCAL ? 1000 : 300,
                                        err, sizeof err),
                         0);
            dualopt_gpu_opts_default(&o);
            o.force = forces[f];
            memset(logs, 0, sizeof logs);
            o.rclog = logs;
            cr_assert_eq(dualopt_gpu_run(&o, &k, &st, &r, err, sizeof err), 0, "%s", err);
            dualopt_gpu_result_free(&r);
            for (g = 0; g < 3; g++) {
                cr_assert_eq(dualopt_gpu_rtl_rcache(dualopt_duts, &logs[g], g, &cyc, err,
                                                    sizeof err),
                             0, "%s, force %u: %s", dualopt_gpu_kind_names[kind], f, err);
                evs += logs[g].n;
                wbs += logs[g].nw;
            }
            cr_assert_geq(evs, 6); /* a flush per GPU and kernel at least */
            if (forces[f] == DUALOPT_GPU_FORCE_CACHE || kind == DUALOPT_GPU_K_REUSE)
                cr_assert_gt(wbs, 0);
            if (kind == DUALOPT_GPU_K_REUSE && forces[f] == DUALOPT_GPU_FORCE_CACHE) {
                size_t i;
                /* a flush write-back byte changed */
                logs[0].wb[0].data[5] ^= 0x40;
                cr_assert_eq(dualopt_gpu_rtl_rcache(dualopt_duts, &logs[0], 0, &cyc, err,
                                                    sizeof err),
                             -1);
                cr_assert(strstr(err, "write-back") != NULL, "%s", err);
                logs[0].wb[0].data[5] ^= 0x40;
                /* an outcome changed: the first hit said to miss */
                for (i = 0; i < logs[0].n && logs[0].ev[i].res.kind != DUALOPT_RCACHE_HIT; i++)
                    ;
                cr_assert_lt(i, logs[0].n);
                logs[0].ev[i].res.kind = DUALOPT_RCACHE_MISS;
                cr_assert_eq(dualopt_gpu_rtl_rcache(dualopt_duts, &logs[0], 0, &cyc, err,
                                                    sizeof err),
                             -1);
                logs[0].ev[i].res.kind = DUALOPT_RCACHE_HIT;
                /* a fetched line changed: the RTL then serves other data */
                for (i = 0; i < logs[0].n && !(logs[0].ev[i].fetched && logs[0].ev[i].op == DUALOPT_RCACHE_RD);
                     i++)
                    ;
                cr_assert_lt(i, logs[0].n);
                logs[0].ev[i].fill[0] ^= 1;
                cr_assert_eq(dualopt_gpu_rtl_rcache(dualopt_duts, &logs[0], 0, &cyc, err,
                                                    sizeof err),
                             -1);
                cr_assert(strstr(err, "data differs") != NULL, "%s", err);
            }
            for (g = 0; g < DUALOPT_E2E_GPUS_MAX; g++)
                dualopt_gpu_rc_log_free(&logs[g]);
            dualopt_gpu_kernel_free(&k);
        }
}

/* The decision engine stream of every GPU, replayed into the Verilated
 * dualopt_de_kernel (the composition's engine configuration), makes the
 * core's decisions; a changed hit bit or a lost kernel boundary is caught. */
Test(dualopt_gpu_rtl, de_streams_replay_equal_and_differences_caught)
{
    dualopt_gpu_kernel k;
    dualopt_gpu_opts o;
    dualopt_gpu_stats st;
    dualopt_gpu_result r;
    dualopt_gpu_de_log logs[DUALOPT_E2E_GPUS_MAX];
    char err[512];
    unsigned g, kind;
    uint64_t cyc;
    for (kind = 0; kind < DUALOPT_GPU_K_N; kind++) {
        size_t nd = 0, i;
        cr_assert_eq(dualopt_gpu_kernel_gen(&k, (dualopt_gpu_kind)kind, 2, 2, 13, dualopt_gpu_default_ops(kind),
                                    err, sizeof err),
                     0);
        dualopt_gpu_opts_default(&o);
        memset(logs, 0, sizeof logs);
        o.delog = logs;
        cr_assert_eq(dualopt_gpu_run(&o, &k, &st, &r, err, sizeof err), 0, "%s", err);
        dualopt_gpu_result_free(&r);
        for (g = 0; g < 2; g++) {
            cr_assert_eq(dualopt_gpu_rtl_de(dualopt_duts, o.de_preset, &logs[g], g, &cyc, err,
                                            sizeof err),
                         0, "%s: %s", dualopt_gpu_kind_names[kind], err);
            nd += logs[g].nd;
        }
        cr_assert_eq(nd, 4, "%s: a decision per GPU and kernel", dualopt_gpu_kind_names[kind]);
        if (kind == DUALOPT_GPU_K_REUSE) {
            /* the hit bit of the first remote read after the warm-up (64 accesses)
               flipped: the counters of the first decision differ */
            for (i = 80; i < logs[0].n && !(logs[0].ev[i].kind == 2 && !logs[0].ev[i].kernel);
                 i++)
                ;
            cr_assert_lt(i, logs[0].n);
            logs[0].ev[i].hit ^= 1;
            cr_assert_eq(dualopt_gpu_rtl_de(dualopt_duts, o.de_preset, &logs[0], 0, &cyc, err,
                                            sizeof err),
                         -1);
            cr_assert(strstr(err, "differs") != NULL, "%s", err);
            logs[0].ev[i].hit ^= 1;
            /* the first kernel boundary lost: no re-monitoring, one decision too few */
            for (i = 0; i < logs[0].n && !logs[0].ev[i].kernel; i++)
                ;
            cr_assert_lt(i, logs[0].n);
            logs[0].ev[i].kernel = 0;
            logs[0].ev[i].kind = 0;
            cr_assert_eq(dualopt_gpu_rtl_de(dualopt_duts, o.de_preset, &logs[0], 0, &cyc, err,
                                            sizeof err),
                         -1);
        }
        for (g = 0; g < DUALOPT_E2E_GPUS_MAX; g++)
            dualopt_gpu_de_log_free(&logs[g]);
        dualopt_gpu_kernel_free(&k);
    }
}
