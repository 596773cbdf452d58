/*
 * Throughput of a unit's golden model alone (its functional core, timed by
 * the unit's core_bench in the registry) for a named configuration:
 *   bench_model UNIT [CONFIG [ACCESSES]]    one line, "model CONFIG: ..."
 *   bench_model --list                      the units that have one
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

int main(int argc, char **argv)
{
    const cohkit_unit_desc *u;
    const char *preset = argc > 2 ? argv[2] : NULL;
    uint64_t n = argc > 3 ? strtoull(argv[3], NULL, 10) : 20000000;
    char err[256];
    void *cfg;
    int rc;
    size_t i;

    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (i = 0; cohkit_unit_registry[i]; i++)
            if (cohkit_unit_registry[i]->core_bench != NULL)
                printf("%s\n", cohkit_unit_registry[i]->name);
        return 0;
    }
    u = argc > 1 ? cohkit_unit_find(argv[1]) : NULL;
    if (u == NULL || u->core_bench == NULL) {
        fprintf(stderr, "bench_model: '%s' is not a unit with a model benchmark (bench_model --list)\n",
                argc > 1 ? argv[1] : "");
        return 2;
    }
    if (preset == NULL)
        preset = u->presets[0];
    cfg = calloc(1, u->cfg_size);
    if (cfg == NULL || u->cfg_preset(cfg, preset) != 0 || u->cfg_check(cfg, err, sizeof err) != 0) {
        fprintf(stderr, "bench_model: unknown configuration '%s'\n", preset);
        free(cfg);
        return 2;
    }
    printf("model %s: ", preset);
    fflush(stdout);
    rc = u->core_bench(cfg, n, stdout) == 0 ? 0 : 2;
    free(cfg);
    return rc;
}
