/*
 * The Verilated counterpart of the DualOpt end-to-end composition and the
 * ./tb_dualopt hook that runs it (tb/dualopt/dualopt_e2e_tb.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "dualopt_e2e_tb.h"
#include "dualopt_gpu_tb.h"
#include "dualopt_sys_tb.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compose_rtl.h"
#include "lockstep.h"

/* ------------------------------------------------------ the lockstep -- */

typedef struct {
    const dualopt_e2e_opts *o;
    const dualopt_e2e_kernel *k;
} e2e_arg;

static void *f_make(void *arg, const cmp_backend *be, char *err, size_t len)
{
    const e2e_arg *a = arg;
    return dualopt_e2e_new(a->o, a->k, be, err, len);
}
static int f_cycle(void *s) { return dualopt_e2e_cycle(s); }
static int f_stuck(void *s) { return dualopt_e2e_stuck(s); }
static const cmp_sys *f_blocks(const void *s) { return dualopt_e2e_blocks((dualopt_e2e_sys *)s); }
static int f_in_reset(const void *s) { return dualopt_e2e_in_reset(s); }
static void f_free(void *s) { dualopt_e2e_free(s); }
static const cmp_family e2e_family = {f_make, f_cycle, f_stuck, f_blocks, f_in_reset, f_free};

int e2e_tb_run(const dualopt_e2e_opts *o, const dualopt_e2e_kernel *k, const dut_ops *const *dut_table,
               e2e_tb_res *r)
{
    cmp_lockstep_opts lo;
    cmp_lockstep_defaults(&lo);
    lo.rtl.duts = dut_table;
    return e2e_tb_run_ls(o, k, &lo, r);
}

int e2e_tb_run_ls(const dualopt_e2e_opts *o, const dualopt_e2e_kernel *k, const cmp_lockstep_opts *lso,
                  e2e_tb_res *r)
{
    e2e_arg arg = {o, k};
    cmp_lockstep_opts lo = *lso;
    cmp_lockstep_res lr;
    dualopt_e2e_sys *sc, *sr;
    memset(r, 0, sizeof *r);
    r->rtl = lo.rtl.duts != NULL;
    lo.la = "C composition";
    lo.lb = "RTL composition";
    if (cmp_lockstep(&e2e_family, &arg, &lo, &lr) != 0) {
        snprintf(r->msg, sizeof r->msg, "%s", lr.msg);
        return -1;
    }
    sc = lr.ref;
    sr = lr.sub;
    r->done = lr.done;
    r->mismatch = lr.mismatch;
    r->seconds = lr.seconds;
    snprintf(r->msg, sizeof r->msg, "%s", lr.msg);
    if (lr.stuck)
        snprintf(r->msg, sizeof r->msg,
                 "stuck: %u requests outstanding after %llu cycles (no progress for %llu)",
                 dualopt_e2e_outstanding(sc), (unsigned long long)lr.cycles,
                 (unsigned long long)o->idle_limit);
    r->c = *dualopt_e2e_traffic_of(sc);
    r->check_ok = dualopt_e2e_check(k, dualopt_e2e_lanes_of(sc), &r->chk, r->check_msg, sizeof r->check_msg) == 0;
    r->check_rtl_ok = r->check_ok;
    if (sr) {
        char m2[400];
        r->r = *dualopt_e2e_traffic_of(sr);
        r->check_rtl_ok = dualopt_e2e_check(k, dualopt_e2e_lanes_of(sr), &r->chk_rtl, m2, sizeof m2) == 0;
        if (!r->mismatch && memcmp(&r->c, &r->r, sizeof r->c) != 0) {
            snprintf(r->msg, sizeof r->msg, "traffic figures of the C and RTL compositions differ");
            r->mismatch = 1;
        }
        if (!r->mismatch && r->check_ok != r->check_rtl_ok) {
            snprintf(r->msg, sizeof r->msg, "the check of the RTL composition: %s", m2);
            r->mismatch = 1;
        }
    }
    cmp_lockstep_free(&e2e_family, &lr);
    return r->mismatch || !r->done || !r->check_ok || !r->check_rtl_ok ? 1 : 0;
}

/* ---------------------------------------------------- ./tb_dualopt -- */

static int bad(const char *fmt, const char *v) { return ls_bad_arg("tb_dualopt", fmt, v); }

static int num(const char *s, unsigned long long *v) { return ls_num_arg(s, v); }

static void pct(char *buf, size_t len, uint64_t a, uint64_t b)
{
    if (b)
        snprintf(buf, len, "%.1f %%", 100.0 * (double)a / (double)b);
    else
        snprintf(buf, len, "-");
}

/* One kernel on one GPU count, both modes; prints the traffic lines. */
static int run_kernel(const cmp_lockstep_opts *lo, dualopt_e2e_kind kind, unsigned gpus, uint64_t seed,
                      unsigned loads, int modes, int rtl)
{
    dualopt_e2e_kernel k;
    char err[256];
    int m, fail = 0;
    dualopt_e2e_traffic tr[2];
    memset(tr, 0, sizeof tr);
    if (dualopt_e2e_kernel_gen(&k, kind, gpus, seed, loads, err, sizeof err) != 0)
        return bad("%s", err);
    printf("composition: kernel %s, seed %llu, %u GPUs, %zu loads, units at their default "
           "configuration (%s)\n",
           dualopt_e2e_kind_names[kind], (unsigned long long)seed, gpus, k.n,
           rtl ? "Verilated RTL in lockstep with the timing shells" : "timing shells");
    for (m = 0; m < 2; m++) {
        dualopt_e2e_opts o;
        e2e_tb_res r;
        int rc;
        if (!((modes >> m) & 1))
            continue;
        dualopt_e2e_opts_default(&o);
        o.gpus = gpus;
        o.mode = m ? DUALOPT_E2E_LINE_MODE : DUALOPT_E2E_COALESCE;
        rc = e2e_tb_run_ls(&o, &k, lo, &r);
        if (rc < 0) {
            fprintf(stderr, "tb_dualopt: %s\n", r.msg);
            dualopt_e2e_kernel_free(&k);
            return 2;
        }
        tr[m] = r.c;
        dualopt_e2e_print(stdout, "  ", &o, &r.c);
        printf("  check: %s (%llu lanes, %llu bytes; wrong %llu, missing %llu, repeated %llu)\n",
               r.check_ok && r.check_rtl_ok ? "every loaded word equals memory" : r.check_msg,
               (unsigned long long)r.chk.lanes, (unsigned long long)r.chk.bytes,
               (unsigned long long)r.chk.wrong, (unsigned long long)r.chk.missing,
               (unsigned long long)r.chk.extra);
        if (rtl)
            printf("  lockstep: %u blocks, %s; %.0f cycles per second\n", gpus * 5,
                   r.mismatch ? r.msg : "every port of every block equal every cycle, traffic equal",
                   r.seconds > 0 ? (double)r.c.cycles / r.seconds : 0.0);
        if (!r.done && !r.mismatch)
            printf("  %s\n", r.msg);
        if (rc)
            fail = 1;
    }
    if (modes == 3) {
        char b1[32], b2[32], b3[32];
        pct(b1, sizeof b1, tr[0].bytes, tr[1].bytes);
        pct(b2, sizeof b2, tr[0].flits, tr[1].flits);
        pct(b3, sizeof b3, tr[0].flits, tr[0].line_flits);
        printf("  response traffic, coalescing vs baseline: bytes %s, flits %s (vs the same "
               "responses as whole lines: flits %s)\n",
               b1, b2, b3);
    }
    dualopt_e2e_kernel_free(&k);
    return fail;
}

int dualopt_tb_hook(int argc, char **argv, int *handled, const dut_ops *const *duts,
                    int (*run_unit)(int argc, char **argv))
{
    int i, e2e = 0, rtl = 1, modes = 3, kind = -1, fail = 0, all;
    unsigned long long v, seed = 1, loads = 16, gpus = 0, cycles = 200000;
    const char *unit = NULL;
    cmp_lockstep_opts lo;
    char err[256];
    *handled = 0;
    cmp_lockstep_defaults(&lo);
    if (dualopt_sys_wanted(argc, argv)) {
        *handled = 1;
        return dualopt_sys_main(argc, argv, duts);
    }
    if (dualopt_gpu_wanted(argc, argv)) {
        *handled = 1;
        return dualopt_gpu_main(argc, argv, duts);
    }
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--e2e") == 0 || strcmp(argv[i], "--gpus") == 0 ||
            strcmp(argv[i], "--kernel") == 0 || strcmp(argv[i], "--mode") == 0 ||
            strcmp(argv[i], "--loads") == 0 || strcmp(argv[i], "--c-only") == 0 ||
            strcmp(argv[i], "--rtl") == 0 || strcmp(argv[i], "--stuck") == 0)
            e2e = 1;
        else if (strcmp(argv[i], "--unit") == 0)
            unit = argv[i];
    all = !e2e && unit == NULL;
    for (i = 1; all && i < argc; i++) /* only --seed and --cycles go with "every unit" */
        if (strcmp(argv[i], "--seed") != 0 && strcmp(argv[i], "--cycles") != 0)
            all = 0;
        else
            i++;
    if (!e2e && !all)
        return 0;
    *handled = 1;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--e2e") == 0)
            continue;
        if (strcmp(a, "--c-only") == 0) {
            rtl = 0;
            continue;
        }
        if (val == NULL)
            return bad("%s needs a value (see --help)", a);
        i++;
        if (strcmp(a, "--seed") == 0) {
            if (num(val, &seed) != 0)
                return bad("--seed: '%s' is not a non-negative integer", val);
        } else if (strcmp(a, "--cycles") == 0) {
            if (num(val, &cycles) != 0 || cycles == 0)
                return bad("--cycles: '%s' is not a positive integer", val);
        } else if (strcmp(a, "--gpus") == 0) {
            if (num(val, &v) != 0 || v < 2 || v > DUALOPT_E2E_GPUS_MAX)
                return bad("--gpus: '%s' is not a GPU count of the composition (2..4)", val);
            gpus = v;
        } else if (strcmp(a, "--loads") == 0) {
            if (num(val, &loads) != 0 || loads == 0 || loads > 100000)
                return bad("--loads: '%s' is not a load count (1..100000)", val);
        } else if (strcmp(a, "--kernel") == 0) {
            if ((kind = dualopt_e2e_kind_of(val)) < 0)
                return bad("--kernel: '%s' is not a kernel kind (mixed stride scatter crossing "
                           "sparse full cross11 lone)", val);
        } else if (strcmp(a, "--mode") == 0) {
            if (strcmp(val, "coalesce") == 0)
                modes = 1;
            else if (strcmp(val, "line") == 0)
                modes = 2;
            else if (strcmp(val, "both") == 0)
                modes = 3;
            else
                return bad("--mode: '%s' is not coalesce, line or both", val);
        } else {
            int lr = cmp_lockstep_option(&lo, a, val, err, sizeof err);
            if (lr < 0)
                return bad("%s", err);
            if (lr > 0)
                return bad("unknown option '%s' with the composition (see --help)", a);
        }
    }
    lo.rtl.duts = rtl ? duts : NULL;
    if (all) {
        if ((fail = cmp_bench_units("dualopt", argv[0], cycles, seed, NULL, run_unit)) == 2)
            return 2;
        printf("== end to end (dualopt-bgu, -scbu, -mshr, -coal, -decoal per GPU)\n");
    }
    {
        unsigned g0 = gpus ? (unsigned)gpus : 2, g1 = gpus ? (unsigned)gpus : 4, g;
        for (g = g0; g <= g1; g += 2) {
            int rc = run_kernel(&lo, kind < 0 ? DUALOPT_E2E_K_MIXED : (dualopt_e2e_kind)kind, g, seed,
                                (unsigned)loads, modes, rtl);
            if (rc == 2)
                return 2;
            fail |= rc != 0;
        }
    }
    printf("%s\n", fail ? "FAIL" : "PASS");
    return fail ? 1 : 0;
}

void dualopt_tb_help(FILE *f)
{
    fprintf(f,
            "without options: every unit of the family in lockstep (200000 cycles each, --cycles\n"
            "and --seed apply), then the end-to-end composition on 2 and 4 GPUs\n"
            "end to end (the composition only):\n"
            "  --e2e            run the composition of the Verilated units in lockstep with the\n"
            "                   composition of timing shells, checked against memory\n"
            "  --gpus N         2, 3 or 4 GPUs (default: 2, then 4)\n"
            "  --kernel KIND    mixed (default) stride scatter crossing sparse, or the directed\n"
            "                   full cross11 lone\n"
            "  --loads N        loads per GPU of a random kernel (default 16)\n"
            "  --mode M         coalesce, line (the baseline) or both (default)\n"
            "  --seed N         kernel and memory image seed (default 1)\n"
            "  --c-only         the composition of timing shells alone\n");
    cmp_lockstep_help(f);
    fprintf(f,
            "the GPU in every mode (decision engine, RDMA cache; functional cores):\n"
            "  --gpu            seeded kernels through monitoring, the decision and the chosen\n"
            "                   mode, across kernel boundaries with RDMA cache flushes\n"
            "  --kernel KIND    local sparse reuse or all (default)\n"
            "  --gpus N         2, 3 or 4 GPUs (default 4); --kernels N (1..8, default 2)\n"
            "  --ops N          accesses per GPU and kernel (default 4000 local, 400 others)\n"
            "  --force M        auto (the engine decides, default; compared with none), none,\n"
            "                   coalesce or cache; --c-only: without the replay of every\n"
            "                   GPU's RDMA cache and engine streams into the Verilated units\n");
    fprintf(f, "the GPU at cycle level (every block Verilated in lockstep):\n");
    dualopt_sys_help(f);
}
