/*
 * cohmodel: runs a unit's golden model (functional core) alone on a text
 * trace.   cohmodel <unit> [--config NAME] [options] [tool flags] < trace
 * The trace and output formats are the unit's (cohmodel <unit> --help).
 * Also runs the model-only tools (cohkit_unit_tools[]: system models, checkers).
 *   cohmodel --list=streams   one line a unit: its name, then its random
 *                             streams, the default first (for scripts)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

static void usage(FILE *f)
{
    size_t i;
    fprintf(f, "usage: cohmodel <unit> [options] < trace     (cohmodel <unit> --help)\n"
               "       cohmodel --list=streams   each unit's random streams, the default first\nunits:");
    for (i = 0; cohkit_unit_registry[i]; i++)
        fprintf(f, " %s", cohkit_unit_registry[i]->name);
    fprintf(f, "\nmodel-only tools:");
    for (i = 0; cohkit_unit_tools[i]; i++)
        fprintf(f, " %s", cohkit_unit_tools[i]->name);
    fprintf(f, "\nexit status: 0 success, 2 bad options or trace (nothing printed); 1 when a\n"
               "rule is violated, with the whole output, for the verdict tools:");
    for (i = 0; cohkit_unit_tools[i]; i++)
        if (cohkit_unit_tools[i]->verdict_exit)
            fprintf(f, " %s", cohkit_unit_tools[i]->name);
    fprintf(f, "\n");
}

/* "unit stream..." per registered unit, [0] (the default) first. */
static int list_streams(void)
{
    size_t i, k;
    for (i = 0; cohkit_unit_registry[i]; i++) {
        printf("%s", cohkit_unit_registry[i]->name);
        for (k = 0; cohkit_unit_registry[i]->streams[k]; k++)
            printf(" %s", cohkit_unit_registry[i]->streams[k]);
        printf("\n");
    }
    return 0;
}

static void unit_usage(FILE *f, const cohkit_unit_desc *u)
{
    size_t i;
    const char *p = u->trace_help;
    fprintf(f, "usage: cohmodel %s [options] < trace\n%s\n  --config NAME    ", u->name, u->title);
    for (i = 0; u->presets[i]; i++)
        fprintf(f, "%s%s", i ? ", " : "", u->presets[i]);
    fprintf(f, " (then refined by options)\n");
    cohkit_unit_options_help(u, f);
    for (i = 0; u->flags && u->flags[i].name; i++)
        fprintf(f, "  --%s%s%s  %s\n", u->flags[i].name, u->flags[i].arg ? " " : "",
                u->flags[i].arg ? u->flags[i].arg : "", u->flags[i].help);
    fprintf(f, "trace:\n");
    while (p && *p) {
        const char *nl = strchr(p, '\n');
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        fprintf(f, "  %.*s\n", n, p);
        p += n + (nl != NULL);
    }
    if (u->verdict_exit)
        fprintf(f, "exit status: 0 PASS, 1 FAIL (a rule violated; the whole output printed),\n"
                   "2 bad options or input (nothing printed)\n");
    else
        fprintf(f, "exit status: 0 success, 2 bad options or trace (nothing printed)\n");
}

int main(int argc, char **argv)
{
    const cohkit_unit_desc *u;
    const char *fl[COHKIT_UNIT_FLAGS_MAX] = {0};
    int rest[256], nrest = 0, i, rc, a0 = 2;
    char err[300];
    void *cfg;
    char *obuf = NULL;
    size_t olen = 0;
    FILE *out;
    cohkit_unit_desc model_desc;

    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--list=streams") == 0)
        return list_streams();
    u = cohkit_unit_find(argv[1]);
    if (u == NULL)
        u = cohkit_unit_tool_find(argv[1]);
    if (u == NULL) {
        fprintf(stderr, "cohmodel: unknown unit '%s' (cohgen --list names every unit)\n", argv[1]);
        return 2;
    }
    for (i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            unit_usage(stdout, u);
            return 0;
        }
    if (argc - 2 > 256) {
        fprintf(stderr, "cohmodel: too many arguments\n");
        return 2;
    }
    cfg = calloc(1, u->cfg_size);
    if (cfg == NULL) {
        fprintf(stderr, "cohmodel: out of memory\n");
        return 2;
    }
    /* A model-only tool may name its configuration first, without --config
     * (cohmodel <tool> <preset> ...). */
    if (argc > 2 && cohkit_unit_find(argv[1]) == NULL && strncmp(argv[2], "--", 2) != 0 &&
        u->cfg_preset(cfg, argv[2]) == 0) {
        argv[1] = (char *)"--config";
        a0 = 1;
    }
    if (u->cfg_check_model) {
        /* the trace tool's own validation (the core accepts more) */
        model_desc = *u;
        model_desc.cfg_check = u->cfg_check_model;
        u = &model_desc;
    }
    if (cohkit_unit_cfg_parse(u, cfg, argc - a0, argv + a0, rest, &nrest, err, sizeof err) != 0) {
        fprintf(stderr, "cohmodel: %s\n", err);
        free(cfg);
        return 2;
    }
    for (i = 0; i < nrest; i++) {
        const char *a = argv[a0 + rest[i]];
        int fi = strncmp(a, "--", 2) == 0 ? cohkit_unit_flag_index(u, a + 2) : -1;
        if (fi < 0) {
            fprintf(stderr, "cohmodel: %s '%s' (see cohmodel %s --help)\n",
                    strncmp(a, "--", 2) ? "unexpected argument" : "unknown option", a, u->name);
            free(cfg);
            return 2;
        }
        if (u->flags[fi].arg == NULL) {
            fl[fi] = "1";
            continue;
        }
        /* "[FILE]": the value may be left out ("-": standard output) */
        if (u->flags[fi].arg[0] == '[' &&
            (i + 1 >= nrest || rest[i + 1] != rest[i] + 1 ||
             strncmp(argv[a0 + rest[i + 1]], "--", 2) == 0)) {
            fl[fi] = "-";
            continue;
        }
        if (i + 1 >= nrest || rest[i + 1] != rest[i] + 1) {
            fprintf(stderr, "cohmodel: %s needs a value\n", a);
            free(cfg);
            return 2;
        }
        fl[fi] = argv[a0 + rest[++i]];
    }
    /* Output is buffered so that a bad record late in the trace leaves
     * nothing on stdout; a verdict tool's FAIL (1) is printed too. */
    out = open_memstream(&obuf, &olen);
    if (out == NULL) {
        fprintf(stderr, "cohmodel: out of memory\n");
        free(cfg);
        return 2;
    }
    rc = u->trace_run(cfg, fl, stdin, "stdin", out, stderr);
    fclose(out);
    if (rc == 0 || (rc == 1 && u->verdict_exit))
        fwrite(obuf, 1, olen, stdout);
    free(obuf);
    free(cfg);
    return rc;
}
