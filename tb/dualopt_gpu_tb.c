/*
 * ./tb_dualopt --gpu [--kernel local|sparse|reuse|all] [--gpus N] [--ops N]
 * [--kernels N] [--seed N] [--force auto|none|coalesce|cache]
 * (see tb/dualopt_gpu_tb.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_de.h"
#include "dualopt_gpu_tb.h"

static int bad(const char *fmt, const char *v)
{
    fprintf(stderr, "tb_dualopt: ");
    fprintf(stderr, fmt, v);
    fputc('\n', stderr);
    return 2;
}

static int num(const char *s, unsigned long long *v)
{
    char *end;
    if (s == NULL || *s == '\0' || *s == '-')
        return -1;
    *v = strtoull(s, &end, 0);
    return *end ? -1 : 0;
}

int dualopt_gpu_wanted(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--gpu") == 0)
            return 1;
    return 0;
}

unsigned dualopt_gpu_default_ops(gpu_kind kind)
{
    return kind == GPU_K_LOCAL ? 1000 : 400;
}

static const char *const force_names[] = {"auto", "none", "coalesce", "cache", NULL};

static void modes(char *buf, size_t len, const gpu_kernel *k, const gpu_stats *st)
{
    size_t n = 0;
    unsigned kk, g;
    buf[0] = '\0';
    for (kk = 0; kk < k->kernels; kk++) {
        n += (size_t)snprintf(buf + n, len - n, "%skernel %u:", kk ? "; " : "", kk);
        for (g = 0; g < k->gpus && n < len; g++)
            n += (size_t)snprintf(buf + n, len - n, " %s", de_mode_str((de_mode)st->mode[g][kk]));
        if (n >= len)
            break;
    }
}

static void print_stats(const char *what, const gpu_stats *st)
{
    printf("  %s: %llu cycles, requests %llu (local %llu, remote %llu, bypassed %llu); MSHR "
           "hits %llu misses %llu stalls %llu\n",
           what, (unsigned long long)st->cycles, (unsigned long long)st->requests,
           (unsigned long long)st->local, (unsigned long long)st->remote,
           (unsigned long long)st->bypassed, (unsigned long long)st->mshr_hits,
           (unsigned long long)st->mshr_misses, (unsigned long long)st->mshr_stalls);
    printf("  %s: link %llu bytes, %llu flits (read requests %llu, line responses %llu, "
           "coalesced packets %llu with %llu slots, writes %llu)\n",
           what, (unsigned long long)st->bytes, (unsigned long long)st->flits,
           (unsigned long long)st->req_msgs, (unsigned long long)st->rd_line_rsp,
           (unsigned long long)st->packets, (unsigned long long)st->slots,
           (unsigned long long)st->wr_msgs);
    printf("  %s: RDMA cache hits %llu misses %llu, write hits %llu misses %llu, write-backs "
           "%llu (%llu at the flushes)\n",
           what, (unsigned long long)st->rc_hits, (unsigned long long)st->rc_misses,
           (unsigned long long)st->rc_whits, (unsigned long long)st->rc_wmiss,
           (unsigned long long)st->rc_wbs, (unsigned long long)st->rc_flush_wbs);
}

static int run(gpu_kind kind, unsigned gpus, unsigned kernels, unsigned ops, uint64_t seed,
               int force, int compare)
{
    gpu_kernel k;
    gpu_opts o;
    gpu_stats st, base;
    gpu_result r;
    gpu_check_res c;
    char err[512], mb[512];
    int fail = 0;
    if (gpu_kernel_gen(&k, kind, gpus, kernels, seed, ops, err, sizeof err) != 0) {
        fprintf(stderr, "tb_dualopt: %s\n", err);
        return 1;
    }
    gpu_opts_default(&o);
    o.force = (gpu_force)force;
    printf("gpu: kernel %s, seed %llu, %u GPUs, %u kernels of %u accesses per GPU, mode %s\n",
           gpu_kind_names[kind], (unsigned long long)seed, gpus, kernels, ops, force_names[force]);
    if (gpu_run(&o, &k, &st, &r, err, sizeof err) != 0) {
        printf("  run: %s\n", err);
        gpu_kernel_free(&k);
        return 1;
    }
    modes(mb, sizeof mb, &k, &st);
    printf("  modes per GPU: %s\n", mb);
    print_stats(force_names[force], &st);
    if (gpu_check(&k, &r, &c, err, sizeof err) != 0) {
        printf("  check: FAIL: %s (wrong %llu, missing %llu, repeated %llu, image bytes lost "
               "%llu)\n",
               err, (unsigned long long)c.wrong, (unsigned long long)c.missing,
               (unsigned long long)c.extra, (unsigned long long)c.lost);
        fail = 1;
    } else {
        printf("  check: every loaded word equals memory (%llu lanes, %llu bytes), memory after "
               "every flush equals the stores (%llu bytes compared)\n",
               (unsigned long long)c.lanes, (unsigned long long)c.bytes,
               (unsigned long long)c.image_bytes);
    }
    gpu_result_free(&r);
    if (compare && !fail) {
        o.force = GPU_FORCE_NONE;
        if (gpu_run(&o, &k, &base, &r, err, sizeof err) != 0) {
            printf("  baseline run: %s\n", err);
            fail = 1;
        } else {
            print_stats("none", &base);
            if (gpu_check(&k, &r, &c, err, sizeof err) != 0) {
                printf("  baseline check: FAIL: %s\n", err);
                fail = 1;
            }
            printf("  link flits, %s vs none: %llu / %llu = %.1f %%\n", force_names[force],
                   (unsigned long long)st.flits, (unsigned long long)base.flits,
                   base.flits ? 100.0 * (double)st.flits / (double)base.flits : 0.0);
            gpu_result_free(&r);
        }
    }
    gpu_kernel_free(&k);
    return fail;
}

int dualopt_gpu_main(int argc, char **argv)
{
    int i, kind = -1, force = 0, fail = 0, kd;
    unsigned long long gpus = 4, kernels = 2, ops = 0, seed = 1, v;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--gpu") == 0)
            continue;
        if (val == NULL)
            return bad("%s needs a value (see --help)", a);
        i++;
        if (strcmp(a, "--kernel") == 0) {
            if (strcmp(val, "all") == 0)
                kind = -1;
            else if ((kind = gpu_kind_of(val)) < 0)
                return bad("--kernel: '%s' is not a kernel kind of --gpu (local sparse reuse all)",
                           val);
        } else if (strcmp(a, "--gpus") == 0) {
            if (num(val, &gpus) != 0 || gpus < 2 || gpus > E2E_GPUS_MAX)
                return bad("--gpus: '%s' is not a GPU count (2..4)", val);
        } else if (strcmp(a, "--kernels") == 0) {
            if (num(val, &kernels) != 0 || kernels < 1 || kernels > 8)
                return bad("--kernels: '%s' is not a kernel count (1..8)", val);
        } else if (strcmp(a, "--ops") == 0) {
            if (num(val, &ops) != 0 || ops < 1 || ops > 100000)
                return bad("--ops: '%s' is not an access count (1..100000)", val);
        } else if (strcmp(a, "--seed") == 0) {
            if (num(val, &seed) != 0)
                return bad("--seed: '%s' is not a non-negative integer", val);
        } else if (strcmp(a, "--force") == 0) {
            for (force = 0; force_names[force] && strcmp(force_names[force], val) != 0; force++)
                ;
            if (!force_names[force])
                return bad("--force: '%s' is not auto, none, coalesce or cache", val);
        } else
            return bad("unknown option '%s' with --gpu (see --help)", a);
    }
    (void)v;
    for (kd = 0; kd < GPU_K_N; kd++) {
        if (kind >= 0 && kd != kind)
            continue;
        fail |= run((gpu_kind)kd, (unsigned)gpus, (unsigned)kernels,
                    ops ? (unsigned)ops : dualopt_gpu_default_ops((gpu_kind)kd), seed, force,
                    force != GPU_FORCE_NONE);
    }
    printf("%s\n", fail ? "FAIL" : "PASS");
    return fail;
}
