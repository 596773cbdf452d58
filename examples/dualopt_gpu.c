/*
 * A DualOpt multi-GPU system through libcohkit (docs/model-api.md): the
 * transaction-level GPU model (BGU, SCBU, bitmask MSHR, RDMA cache,
 * decision engine and coalescer per GPU) runs a generated kernel sequence,
 * prints the link traffic and the modes the decision engines chose, and
 * checks every loaded byte with dualopt_gpu_check.
 *
 * The decision engines' input streams are written to TRACE as one
 * dualopt-de trace (GPU after GPU, RESET between), first line the cohmodel
 * command that replays it, and the example prints the DECIDE lines the
 * engines made; `make examples` requires them to equal
 * `cohmodel dualopt-de` on that trace (scripts/example-check.sh).
 *
 *   cc -std=c11 $(pkg-config --cflags cohkit) dualopt_gpu.c $(pkg-config --libs cohkit)
 *   ./dualopt_gpu TRACE
 */
#include <cohkit/dualopt_de_trace.h>
#include <cohkit/dualopt_gpu.h>

#include <stdio.h>
#include <string.h>

#define GPUS 4
#define KERNELS 3
#define OPS 300
#define SEED 7

/* The GPU model's decision engine runs the committed RTL's preset, "kernel"
 * (dualopt_gpu_opts_default); the trace names it for cohmodel. */

/* One engine's stream as trace lines (kinds 0 LR, 1 LW, 2 RR, 3 RW). */
static void write_stream(FILE *f, const dualopt_gpu_de_log *l)
{
    size_t i;
    for (i = 0; i < l->n; i++) {
        const dualopt_gpu_de_ev *e = &l->ev[i];
        if (e->kernel)
            fprintf(f, "KERNEL\n");
        else if (e->kind == DUALOPT_DE_RR)
            fprintf(f, "RR %u %llx\n", e->hit, (unsigned long long)e->mask);
        else if (e->kind == DUALOPT_DE_RW)
            fprintf(f, "RW %u\n", e->hit);
        else
            fprintf(f, "%s\n", e->kind == DUALOPT_DE_LW ? "LW" : "LR");
    }
}

/* The decisions of GPU g's engine, numbered as the trace numbers accesses:
 * *base accesses precede its stream; each kernel decides at most once, at
 * its decided_at-th access. */
static void print_decisions(const dualopt_gpu_de_log *l, const dualopt_gpu_stats *st,
                            unsigned g, uint64_t *base)
{
    uint64_t kbase = *base;
    size_t i, d = 0;
    unsigned kk = 0;
    for (i = 0; i < l->n; i++) {
        if (!l->ev[i].kernel) {
            (*base)++;
            continue;
        }
        if (st->decided_at[g][kk] && d < l->nd) {
            dualopt_de_trace_print_decide(stdout, kbase + st->decided_at[g][kk], l->mode[d],
                                          &l->dec[d]);
            d++;
        }
        kk++;
        kbase = *base;
    }
}

static void print_traffic(const dualopt_gpu_stats *st)
{
    printf("requests %llu (local %llu, remote %llu, bypassed %llu); link %llu bytes, %llu flits: "
           "read requests %llu, line responses %llu, coalesced packets %llu with %llu slots, "
           "writes %llu; RDMA cache hits %llu misses %llu, write-backs %llu\n",
           (unsigned long long)st->requests, (unsigned long long)st->local,
           (unsigned long long)st->remote, (unsigned long long)st->bypassed,
           (unsigned long long)st->bytes, (unsigned long long)st->flits,
           (unsigned long long)st->req_msgs, (unsigned long long)st->rd_line_rsp,
           (unsigned long long)st->packets, (unsigned long long)st->slots,
           (unsigned long long)st->wr_msgs, (unsigned long long)st->rc_hits,
           (unsigned long long)st->rc_misses, (unsigned long long)st->rc_wbs);
}

/* Runs one kernel sequence of `kind`; appends the engines' streams to the
 * trace (RESET before every stream but the trace's first). 0, or 1. */
static int run_kind(const char *kind, FILE *trace, uint64_t *base)
{
    dualopt_gpu_de_log logs[DUALOPT_E2E_GPUS_MAX];
    dualopt_gpu_kernel k;
    dualopt_gpu_opts o;
    dualopt_gpu_stats st;
    dualopt_gpu_result r;
    dualopt_gpu_check_res c;
    char err[256];
    unsigned g, kk;
    int rc = 0;
    if (dualopt_gpu_kernel_gen(&k, (dualopt_gpu_kind)dualopt_gpu_kind_of(kind), GPUS, KERNELS,
                               SEED, OPS, err, sizeof err) != 0) {
        fprintf(stderr, "dualopt_gpu: %s\n", err);
        return 1;
    }
    memset(logs, 0, sizeof logs);
    dualopt_gpu_opts_default(&o);
    o.delog = logs;
    if (dualopt_gpu_run(&o, &k, &st, &r, err, sizeof err) != 0) {
        fprintf(stderr, "dualopt_gpu: %s\n", err);
        dualopt_gpu_kernel_free(&k);
        return 1;
    }
    printf("# %s: %u GPUs, %u kernels of %u accesses per GPU (seed %u)\n", kind, GPUS, KERNELS,
           OPS, SEED);
    for (kk = 0; kk < KERNELS; kk++) {
        printf("kernel %u modes:", kk);
        for (g = 0; g < GPUS; g++)
            printf(" %s", dualopt_de_mode_str((dualopt_de_mode)st.mode[g][kk]));
        printf("\n");
    }
    print_traffic(&st);
    if (dualopt_gpu_check(&k, &r, &c, err, sizeof err) != 0) {
        printf("check FAIL: %s\n", err);
        rc = 1;
    } else {
        printf("check PASS: %llu lanes, %llu bytes loaded; %llu image bytes after the flushes\n",
               (unsigned long long)c.lanes, (unsigned long long)c.bytes,
               (unsigned long long)c.image_bytes);
    }
    for (g = 0; g < GPUS; g++) {
        if (*base > 0)
            fprintf(trace, "RESET\n");
        write_stream(trace, &logs[g]);
        print_decisions(&logs[g], &st, g, base);
    }
    for (g = 0; g < DUALOPT_E2E_GPUS_MAX; g++)
        dualopt_gpu_de_log_free(&logs[g]);
    dualopt_gpu_result_free(&r);
    dualopt_gpu_kernel_free(&k);
    return rc;
}

int main(int argc, char **argv)
{
    static const char *const kinds[] = {"sparse", "reuse"}; /* coalescing, then caching */
    uint64_t base = 0;
    unsigned i;
    int rc = 0;
    FILE *f;
    if (argc != 2) {
        fprintf(stderr, "usage: %s TRACE\n", argv[0]);
        return 2;
    }
    f = fopen(argv[1], "w");
    if (f == NULL) {
        perror(argv[1]);
        return 1;
    }
    fprintf(f, "# cohmodel dualopt-de --config kernel\n");
    for (i = 0; i < sizeof kinds / sizeof kinds[0] && rc == 0; i++)
        rc = run_kind(kinds[i], f, &base);
    fclose(f);
    return rc;
}
