/*
 * ./tb_dualopt --sys: the cycle-level GPU, C composition and Verilated
 * composition in lockstep (tb/dualopt/dualopt_sys_tb.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "dualopt_sys_tb.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compose_rtl.h"
#include "lockstep.h"

typedef struct {
    const dualopt_sys_opts *o;
    const dualopt_gpu_kernel *k;
} sys_arg;

static void *f_make(void *arg, const cmp_backend *be, char *err, size_t len)
{
    const sys_arg *a = arg;
    return dualopt_sys_new(a->o, a->k, be, err, len);
}
static int f_cycle(void *s) { return dualopt_sys_cycle(s); }
static int f_stuck(void *s) { return dualopt_sys_stuck(s); }
static const cmp_sys *f_blocks(const void *s) { return dualopt_sys_blocks((dualopt_sys *)s); }
static int f_in_reset(const void *s) { return dualopt_sys_in_reset(s); }
static void f_free(void *s) { dualopt_sys_free(s); }
static const cmp_family sys_family = {f_make, f_cycle, f_stuck, f_blocks, f_in_reset, f_free};

int sys_tb_run(const dualopt_sys_opts *o, const dualopt_gpu_kernel *k, const dut_ops *const *duts,
               const sys_stuck_bit *stuck, sys_tb_res *r)
{
    cmp_lockstep_opts lo;
    char bname[32];
    cmp_lockstep_defaults(&lo);
    lo.rtl.duts = duts;
    if (stuck && stuck->on) { /* "dualopt-rcache" of GPU 1: block gpu1.rcache */
        const char *dash = strchr(stuck->unit, '-');
        snprintf(bname, sizeof bname, "gpu%u.%s", stuck->gpu, dash ? dash + 1 : stuck->unit);
        lo.stuck.block = bname;
        lo.stuck.port = stuck->port;
        lo.stuck.bit = stuck->bit;
        lo.stuck.value = stuck->value;
    }
    return sys_tb_run_ls(o, k, &lo, r);
}

int sys_tb_run_ls(const dualopt_sys_opts *o, const dualopt_gpu_kernel *k, const cmp_lockstep_opts *lso,
                  sys_tb_res *r)
{
    sys_arg arg = {o, k};
    cmp_lockstep_opts lo = *lso;
    cmp_lockstep_res lr;
    memset(r, 0, sizeof *r);
    r->rtl = lo.rtl.duts != NULL;
    lo.la = "C composition";
    lo.lb = "RTL composition";
    if (cmp_lockstep(&sys_family, &arg, &lo, &lr) != 0) {
        snprintf(r->msg, sizeof r->msg, "%s", lr.msg);
        return -1;
    }
    r->done = lr.done;
    r->mismatch = lr.mismatch;
    r->seconds = lr.seconds;
    r->cycles = lr.cycles;
    snprintf(r->msg, sizeof r->msg, "%s", lr.msg);
    if (lr.stuck)
        snprintf(r->msg, sizeof r->msg, "stuck after %llu cycles", (unsigned long long)lr.cycles);
    r->c = *dualopt_sys_stats_of(lr.ref);
    if (r->done)
        r->check_ok = dualopt_gpu_check(k, dualopt_sys_result_of(lr.ref), &r->chk, r->check_msg,
                                sizeof r->check_msg) == 0;
    else
        snprintf(r->check_msg, sizeof r->check_msg, "not checked: the run did not complete");
    r->check_rtl_ok = r->check_ok;
    if (lr.sub) {
        dualopt_gpu_check_res c2;
        char m2[400];
        r->r = *dualopt_sys_stats_of(lr.sub);
        if (r->done)
            r->check_rtl_ok = dualopt_gpu_check(k, dualopt_sys_result_of(lr.sub), &c2, m2, sizeof m2) == 0;
        if (!r->mismatch && memcmp(&r->c, &r->r, sizeof r->c) != 0) {
            snprintf(r->msg, sizeof r->msg, "statistics of the C and RTL compositions differ");
            r->mismatch = 1;
        }
    }
    cmp_lockstep_free(&sys_family, &lr);
    return r->mismatch || !r->done || !r->check_ok || !r->check_rtl_ok ? 1 : 0;
}

/* ---------------------------------------------------- ./tb_dualopt -- */

static int bad(const char *fmt, const char *v) { return ls_bad_arg("tb_dualopt", fmt, v); }

static int num(const char *s, unsigned long long *v) { return ls_num_arg(s, v); }

int dualopt_sys_wanted(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--sys") == 0)
            return 1;
    return 0;
}

void dualopt_sys_help(FILE *f)
{
    fprintf(f,
            "  --sys            the GPU at cycle level: BGU, SCBU, MSHR, CoDec, RDMA cache and\n"
            "                   decision engine per GPU, Verilated in lockstep with the timing\n"
            "                   shells, monitoring, decision, kernel boundaries with flushes\n"
            "  --kernel KIND    local sparse reuse or all (default); --gpus N (2..4, default 2)\n"
            "  --kernels N      1..8 (default 2); --ops N accesses per GPU and kernel (default\n"
            "                   1200 local, 120 others); --atomics P (%% of stores, default 25)\n"
            "  --link-lat N     cycles on the link in each direction (default 20)\n"
            "  --de tiny|kernel engine configuration (default tiny: window 20, decided once)\n"
            "  --force M        auto (default), none, coalesce or cache; --seed N; --c-only\n"
            "  --fault drop-wb[:N]  the N-th write-back (default 1st) lost in the composition:\n"
            "                   the check against the reference must fail\n");
    cmp_lockstep_help(f);
}

static const char *const mode_names[] = {"MONITOR", "NONE", "COALESCE", "CACHE"};

int dualopt_sys_main(int argc, char **argv, const dut_ops *const *duts)
{
    unsigned long long gpus = 2, kernels = 2, ops = 0, seed = 1, atomics = 25, lat = 20, fault_n = 0;
    int kind = -1, i, c_only = 0, fails = 0, k0, k1, kk;
    const char *de = "tiny";
    dualopt_gpu_force force = DUALOPT_GPU_AUTO;
    cmp_lockstep_opts lo;
    char err[256];
    cmp_lockstep_defaults(&lo);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--sys") == 0)
            continue;
        if (strcmp(a, "--c-only") == 0) {
            c_only = 1;
            continue;
        }
        if (val == NULL)
            return bad("%s needs a value (see --help)", a);
        i++;
        if (strcmp(a, "--kernel") == 0) {
            if (strcmp(val, "all") == 0)
                kind = -1;
            else if ((kind = dualopt_gpu_kind_of(val)) < 0)
                return bad("--kernel: '%s' is not local, sparse, reuse or all", val);
        } else if (strcmp(a, "--gpus") == 0) {
            if (num(val, &gpus) || gpus < 2 || gpus > 4)
                return bad("--gpus: '%s' is not 2, 3 or 4", val);
        } else if (strcmp(a, "--kernels") == 0) {
            if (num(val, &kernels) || kernels < 1 || kernels > 8)
                return bad("--kernels: '%s' is not 1..8", val);
        } else if (strcmp(a, "--ops") == 0) {
            if (num(val, &ops) || ops < 1 || ops > 100000)
                return bad("--ops: '%s' is not 1..100000", val);
        } else if (strcmp(a, "--seed") == 0) {
            if (num(val, &seed))
                return bad("--seed: '%s' is not a non-negative integer", val);
        } else if (strcmp(a, "--atomics") == 0) {
            if (num(val, &atomics) || atomics > 100)
                return bad("--atomics: '%s' is not a percentage 0..100", val);
        } else if (strcmp(a, "--link-lat") == 0) {
            if (num(val, &lat) || lat < 1 || lat > 10000)
                return bad("--link-lat: '%s' is not 1..10000 cycles", val);
        } else if (strcmp(a, "--de") == 0) {
            if (strcmp(val, "tiny") != 0 && strcmp(val, "kernel") != 0)
                return bad("--de: '%s' is not tiny or kernel", val);
            de = strcmp(val, "tiny") == 0 ? "tiny" : "kernel";
        } else if (strcmp(a, "--force") == 0) {
            if (strcmp(val, "auto") == 0)
                force = DUALOPT_GPU_AUTO;
            else if (strcmp(val, "none") == 0)
                force = DUALOPT_GPU_FORCE_NONE;
            else if (strcmp(val, "coalesce") == 0)
                force = DUALOPT_GPU_FORCE_COALESCE;
            else if (strcmp(val, "cache") == 0)
                force = DUALOPT_GPU_FORCE_CACHE;
            else
                return bad("--force: '%s' is not auto, none, coalesce or cache", val);
        } else if (strcmp(a, "--fault") == 0) {
            /* drop-wb or drop-wb:N: the N-th write-back lost, for the checker to catch */
            fault_n = 1;
            if (strncmp(val, "drop-wb", 7) != 0 ||
                (val[7] != '\0' && (val[7] != ':' || num(val + 8, &fault_n) || fault_n < 1)))
                return bad("--fault: '%s' is not drop-wb or drop-wb:N (N from 1)", val);
        } else {
            int lr = cmp_lockstep_option(&lo, a, val, err, sizeof err);
            if (lr < 0)
                return bad("%s", err);
            if (lr > 0)
                return bad("unknown option '%s' with --sys (see --help)", a);
        }
    }
    lo.rtl.duts = c_only ? NULL : duts;
    k0 = kind < 0 ? 0 : kind;
    k1 = kind < 0 ? DUALOPT_GPU_K_N - 1 : kind;
    for (kk = k0; kk <= k1; kk++) {
        dualopt_gpu_kernel k;
        dualopt_sys_opts o;
        sys_tb_res r;
        char err[256];
        unsigned n = ops ? (unsigned)ops : kk == DUALOPT_GPU_K_LOCAL ? 1200 : 120, g;
        int rc;
        if (dualopt_gpu_kernel_gen(&k, (dualopt_gpu_kind)kk, (unsigned)gpus, (unsigned)kernels, seed, n, err,
                           sizeof err) != 0) {
            fprintf(stderr, "tb_dualopt: %s\n", err);
            return 2;
        }
        dualopt_gpu_kernel_atomics(&k, (unsigned)atomics);
        dualopt_sys_opts_default(&o);
        o.gpus = (unsigned)gpus;
        o.force = force;
        o.de_preset = de;
        o.link_lat = (unsigned)lat;
        if (fault_n) {
            o.fault = DUALOPT_SYS_FAULT_DROP_WB;
            o.fault_n = fault_n;
        }
        printf("sys: kernel %s, seed %llu, %llu GPUs, %llu kernels of %u accesses per GPU, "
               "%s engine, %s\n",
               dualopt_gpu_kind_names[kk], seed, gpus, kernels, n, de,
               c_only ? "timing shells only" : "Verilated RTL in lockstep with the timing shells");
        rc = sys_tb_run_ls(&o, &k, &lo, &r);
        if (rc < 0) {
            printf("  setup: %s\n", r.msg);
            dualopt_gpu_kernel_free(&k);
            return 1;
        }
        dualopt_sys_print(stdout, "  ", &o, &k, &r.c);
        printf("  check: %s (%llu lanes, %llu bytes loaded; wrong %llu missing %llu repeated "
               "%llu; %llu image bytes after %u flushes, %llu differ)\n",
               r.check_ok ? "every loaded byte and the memory after every flush equal the "
                            "reference" : r.check_msg,
               (unsigned long long)r.chk.lanes, (unsigned long long)r.chk.bytes,
               (unsigned long long)r.chk.wrong, (unsigned long long)r.chk.missing,
               (unsigned long long)r.chk.extra, (unsigned long long)r.chk.image_bytes,
               k.kernels, (unsigned long long)r.chk.lost);
        if (r.rtl)
            printf("  lockstep: %u blocks, %s; %.0f cycles per second\n", (unsigned)gpus * 7,
                   r.mismatch ? r.msg : "every port of every block equal every cycle, statistics "
                                        "equal",
                   r.seconds > 0 ? (double)r.cycles / r.seconds : 0.0);
        else if (!r.done)
            printf("  %s\n", r.msg);
        for (g = 0; g < gpus; g++)
            (void)mode_names;
        fails += rc != 0;
        dualopt_gpu_kernel_free(&k);
    }
    printf("%s\n", fails ? "FAIL" : "PASS");
    return fails ? 1 : 0;
}
