/*
 * shell_run: every registered unit's stimulus sources and timing shell, with
 * no RTL, for every named configuration and random stream. Built under
 * ASan/UBSan by make sanitize (memory errors in a model or a stimulus source
 * stop it).   shell_run [CYCLES]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

static int run(const cohkit_unit_desc *u, const char *preset, const char *stream, uint64_t cycles)
{
    void *cfg = calloc(1, u->cfg_size), *tm = NULL, *st = NULL;
    cohkit_unit_layout l;
    uint64_t *in = NULL, *out = NULL, c, sum = 0;
    cohkit_unit_stim_args a;
    char err[300];
    const char *argv[2] = {"--config", preset};
    int rc = 1;
    unsigned k;
    if (cfg == NULL || cohkit_unit_cfg_parse(u, cfg, 2, (char *const *)argv, NULL, NULL, err, sizeof err) ||
        cohkit_unit_layout_of(u, cfg, &l, err, sizeof err)) {
        fprintf(stderr, "shell_run: %s %s: %s\n", u->name, preset, cfg ? err : "out of memory");
        free(cfg);
        return 1;
    }
    memset(&a, 0, sizeof a);
    a.seed = 7;
    a.stream = stream;
    st = u->stim_new(cfg, &a, err, sizeof err);
    tm = u->tm_new(cfg);
    in = calloc(l.in_words, sizeof *in);
    out = calloc(l.out_words + 1, sizeof *out);
    if (st == NULL || tm == NULL || in == NULL || out == NULL) {
        fprintf(stderr, "shell_run: %s %s %s: %s\n", u->name, preset, stream,
                st ? "out of memory" : err);
        goto done;
    }
    for (c = 0; c < cycles; c++) {
        in[0] = c >= 2;
        u->stim_drive(st, c, in);
        u->tm_eval(tm, in, out);
        if (in[0])
            u->stim_observe(st, c, in, out);
        for (k = 0; k < l.out_words; k++)
            sum += out[k];
        u->tm_step(tm, in);
    }
    printf("shell_run: %s %s %s: %llu cycles (output checksum %llx)\n", u->name, preset, stream,
           (unsigned long long)cycles, (unsigned long long)sum);
    rc = 0;
done:
    if (st)
        u->stim_free(st);
    if (tm)
        u->tm_free(tm);
    free(in);
    free(out);
    free(cfg);
    return rc;
}

int main(int argc, char **argv)
{
    uint64_t cycles = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000;
    size_t i, p, s;
    int fail = 0, n = 0;
    for (i = 0; cohkit_unit_registry[i]; i++)
        for (p = 0; cohkit_unit_registry[i]->presets[p]; p++)
            for (s = 0; cohkit_unit_registry[i]->streams[s]; s++, n++)
                fail |= run(cohkit_unit_registry[i], cohkit_unit_registry[i]->presets[p],
                            cohkit_unit_registry[i]->streams[s], cycles);
    printf("shell_run: %d runs, %s\n", n, fail ? "FAILED" : "all completed");
    return fail;
}
