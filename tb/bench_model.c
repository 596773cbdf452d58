/*
 * Throughput of the golden model alone (functional core): accesses per
 * second on a seeded random stream over a working set larger than the
 * directory, for a named configuration.  bench_model [CONFIG [ACCESSES]]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rec.h"

static void sink(void *ctx, uint64_t line, uint32_t mask)
{
    *(uint64_t *)ctx += line ^ mask;
}

int main(int argc, char **argv)
{
    rec_cfg c;
    char err[256];
    rec_dir *d;
    uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 20000000, i, s = 1, chk = 0;
    struct timespec t0, t1;
    double sec;
    if (rec_cfg_preset(&c, argc > 1 ? argv[1] : "default") != 0 || rec_cfg_check(&c, err, sizeof err)) {
        fprintf(stderr, "bench_model: unknown configuration '%s'\n", argc > 1 ? argv[1] : "");
        return 2;
    }
    d = rec_dir_new(&c);
    if (d == NULL)
        return 2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 0; i < n; i++) {
        unsigned r, src;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        r = (unsigned)(s % 100);
        src = 1 + (unsigned)((s >> 32) % (c.gpus - 1));
        /* 16 K ranges of 16 lines: twice the default directory's reach */
        rec_core_access(d, r < 70 ? REC_OP_RR : r < 85 ? REC_OP_RW : REC_OP_LW,
                        (s >> 12) & 0x3ffff, src, sink, &chk);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("model %s: %llu accesses in %.2f s = %.1f M accesses/s (evictions %llu, invalidations %llu, check %llx)\n",
           argc > 1 ? argv[1] : "default", (unsigned long long)n, sec, (double)n / sec / 1e6,
           (unsigned long long)d->st.evictions, (unsigned long long)d->st.invalidations,
           (unsigned long long)chk);
    rec_dir_free(d);
    return 0;
}
