/*
 * cohgen: emits the Verilog, C port header, Verilator shim and Icarus replay
 * bench of any registered unit (cmodel/units.def) from a validated
 * configuration.
 *
 *   cohgen <unit> [options] -o DIR [--harness HDIR]
 *   cohgen <unit> [options] --harness HDIR
 *   cohgen <unit> [options] --report [--json]
 *   cohgen --list [=units|=configs]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen_unit.h"
#include "parts.h"
#include "selftest.h"

static void usage(FILE *f)
{
    size_t i;
    fprintf(f,
            "usage: cohgen <unit> [options] -o DIR         write DIR/<module>.sv, _ports.h, _shim.cpp, _tb.sv\n"
            "       cohgen <unit> [options] [-o DIR] --harness HDIR   the harness (_ports.h, _shim.cpp,\n"
            "                                               _tb.sv) into HDIR; the module only with -o\n"
            "       cohgen <unit> [options] --report [--json]   print the unit's layout / cost report\n"
            "       cohgen <unit> [options] --selftest -o DIR   FPGA self-test top and its expected signature\n"
            "       cohgen <unit> --help                    the unit's options\n"
            "       cohgen --list                           every unit and its configurations\n"
            "       cohgen --list=units | --list=configs    the same, one record per line, for scripts\n"
            "units:");
    for (i = 0; cohkit_unit_registry[i]; i++)
        fprintf(f, " %s", cohkit_unit_registry[i]->name);
    fprintf(f, "\nexit status: 0 success, 2 bad options (nothing written)\n");
}

static void unit_usage(FILE *f, const cohkit_unit_desc *u)
{
    size_t i;
    fprintf(f,
            "usage: cohgen %s [options] -o DIR [--harness HDIR] | --report [--json]\n"
            "%s\n"
            "options:\n"
            "  --config NAME    start from a named configuration:",
            u->name, u->title);
    for (i = 0; u->presets[i]; i++)
        fprintf(f, " %s", u->presets[i]);
    fprintf(f, "\n");
    cohkit_unit_options_help(u, f);
    fprintf(f,
            "  --name NAME      module name (default: derived from the configuration)\n"
            "  -o DIR           output directory (created if missing): the module, and its\n"
            "                   harness (<module>_ports.h, _shim.cpp, _tb.sv) unless --harness\n"
            "  --harness HDIR   write the harness into HDIR instead (alone: only the harness)\n"
            "  --report         print the layout report instead; --json for JSON\n"
            "  --selftest       write DIR/<module>_selftest.sv instead: the FPGA self-test top\n"
            "                   around <module> (docs/fpga.md), with the signature the model\n"
            "                   predicts; --selftest-seed N (default 0x12345678),\n"
            "                   --selftest-cycles N (default 131072); --selftest-stim also\n"
            "                   writes DIR/<module>_selftest.stim, the stimulus in the\n"
            "                   benches' --replay format (reset cycle first)\n"
            "exit status: 0 success, 2 bad options (nothing written)\n");
}

static int valid_ident(const char *s)
{
    size_t i;
    if (!s || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
        return 0;
    for (i = 0; s[i]; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return 0;
    return i < 100;
}

/* mkdir -p: 0 when `path` is (now) a directory. */
static int mkdir_p(const char *path)
{
    char buf[1024];
    size_t i, n = strlen(path);
    struct stat st;
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, path, n + 1);
    for (i = 1; i <= n; i++)
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)))
                return -1;
            buf[i] = c;
        }
    return 0;
}

static int fail(const char *msg)
{
    fprintf(stderr, "cohgen: %s\n", msg);
    return 2;
}

static int list(const char *what)
{
    size_t i, k;
    for (i = 0; cohkit_unit_registry[i]; i++) {
        const cohkit_unit_desc *u = cohkit_unit_registry[i];
        if (what == NULL) {
            printf("%-14s %s\n", u->name, u->title);
            printf("%-14s configurations:", "");
            for (k = 0; u->presets[k]; k++)
                printf(" %s", u->presets[k]);
            printf("\n%-14s committed RTL:", "");
            for (k = 0; u->committed[k]; k++)
                printf(" rtl/%s/%s_%s.sv", u->family, u->module_prefix, u->committed[k]);
            printf("\n");
        } else if (strcmp(what, "units") == 0) {
            printf("%s %s %s\n", u->name, u->family, u->module_prefix);
        } else {
            for (k = 0; u->committed[k]; k++)
                printf("%s %s %s_%s %s\n", u->name, u->family, u->module_prefix, u->committed[k],
                       u->committed[k]);
        }
    }
    return 0;
}

/* The module into `out` (unless NULL) and its harness (port header,
 * Verilator shim, Icarus replay bench) into `harness` (NULL: beside the
 * module), all or nothing. Returns 0, or -1 with a message in err. */
static int write_unit(const cohkit_unit_desc *u, const gen_unit *gu, void *cfg, const char *name,
                      const char *out, const char *harness, char *err, size_t len)
{
    static const char *const suffix[4] = {".sv", "_ports.h", "_shim.cpp", "_tb.sv"};
    char args[1024], params[2048], fn[192];
    block_desc b;
    emit_file f[4 + PARTS_MAX];
    int i, first = out != NULL ? 0 : 1, n = 0, nparts = 0;

    memset(&b, 0, sizeof b);
    b.unit = u->name;
    b.family = u->family;
    b.module = name;
    u->cfg_args(cfg, args, sizeof args);
    b.args = args;
    gu->params(cfg, params, sizeof params);
    b.params = params;
    b.model = u->model_ref;
    b.n = u->ports(cfg, b.ports, PORTS_MAX);
    if (b.n > PORTS_MAX) {
        snprintf(err, len, "%s: more than %d ports", u->name, PORTS_MAX);
        return -1;
    }
    for (i = first; i < 4; i++, n++) {
        const char *dir = i == 0 || harness == NULL ? out : harness;
        snprintf(fn, sizeof fn, "%s%s", name, suffix[i]);
        if (emit_open(&f[n], dir, fn) != 0) {
            emit_abort(f, n + 1);
            snprintf(err, len, "%s: cannot write in '%s'", dir == out ? "-o" : "--harness", dir);
            return -1;
        }
    }
    /* a composite's part modules, each in its own file beside it (gen/parts.h) */
    if (first == 0 && (nparts = parts_write(u->name, cfg, &b, out, f + n, PARTS_MAX, err, len)) < 0) {
        emit_abort(f, n);
        return -1;
    }
    if (first == 0)
        gu->emit(&f[0], cfg, &b);
    ports_c_header(&f[1 - first], &b);
    ports_shim(&f[2 - first], &b);
    ports_iverilog_tb(&f[3 - first], &b);
    return emit_commit(f, n + nparts, err, len);
}

static int gen_unit_main(const cohkit_unit_desc *u, const gen_unit *gu, int argc, char **argv)
{
    void *cfg = calloc(1, u->cfg_size);
    const char *out = NULL, *name = NULL;
    const char *harness = NULL;
    int report = 0, json = 0, selftest = 0, i, rest[128], nrest = 0, rc = 2;
    st_result st = {0x12345678u, 131072u, 0, 0, 0, 0};
    char err[300], modname[160];

    if (cfg == NULL)
        return fail("out of memory");
    for (i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            unit_usage(stdout, u);
            free(cfg);
            return 0;
        }
    if (argc > 128) {
        free(cfg);
        return fail("too many arguments");
    }
    if (cohkit_unit_cfg_parse(u, cfg, argc, argv, rest, &nrest, err, sizeof err) != 0)
        goto out;
    for (i = 0; i < nrest; i++) {
        int k = rest[i];
        const char *a = argv[k];
        if (strcmp(a, "--report") == 0)
            report = 1;
        else if (strcmp(a, "--json") == 0)
            json = 1;
        else if (strcmp(a, "--selftest") == 0)
            selftest = 1;
        else if (strcmp(a, "--selftest-stim") == 0)
            st.write_stim = 1;
        else if ((strcmp(a, "--selftest-seed") == 0 || strcmp(a, "--selftest-cycles") == 0) &&
                 i + 1 < nrest && rest[i + 1] == k + 1) {
            const char *v = argv[rest[++i]];
            char *end;
            unsigned long long x = strtoull(v, &end, 0);
            if (*v == '\0' || *v == '-' || *end != '\0' || x > 0xffffffffull) {
                snprintf(err, sizeof err, "%s '%s': not a 32-bit unsigned number", a, v);
                goto out;
            }
            if (a[11] == 's')
                st.seed = (uint32_t)x;
            else
                st.cycles = (uint32_t)x;
        }
        else if ((strcmp(a, "-o") == 0 || strcmp(a, "--name") == 0 ||
                  strcmp(a, "--harness") == 0) &&
                 (i + 1 >= nrest || rest[i + 1] != k + 1)) {
            /* its value is the next word, which the parser also left */
            snprintf(err, sizeof err, "%s needs a value", a);
            goto out;
        } else if (strcmp(a, "-o") == 0)
            out = argv[rest[++i]];
        else if (strcmp(a, "--name") == 0)
            name = argv[rest[++i]];
        else if (strcmp(a, "--harness") == 0)
            harness = argv[rest[++i]];
        else if (strncmp(a, "--", 2) == 0 && k + 1 >= argc) {
            snprintf(err, sizeof err, "%s needs a value", a);
            goto out;
        } else if (strncmp(a, "--", 2) == 0) {
            snprintf(err, sizeof err, "unknown option '%s' (see cohgen %s --help)", a, u->name);
            goto out;
        } else {
            snprintf(err, sizeof err, "unexpected argument '%s' (see cohgen %s --help)", a,
                     u->name);
            goto out;
        }
    }
    if (st.write_stim && !selftest) {
        snprintf(err, sizeof err, "--selftest-stim needs --selftest");
        goto out;
    }
    if (report) {
        gu->report(stdout, cfg, json);
        rc = 0;
        goto done;
    }
    if (out == NULL && (harness == NULL || selftest)) {
        snprintf(err, sizeof err, "no output: give -o DIR, --harness DIR or --report");
        goto out;
    }
    if (name != NULL && !valid_ident(name)) {
        snprintf(err, sizeof err, "--name: '%s' is not a Verilog identifier", name);
        goto out;
    }
    if (name == NULL) {
        u->cfg_name(cfg, modname, sizeof modname);
        name = modname;
    }
    for (i = 0; i < 2; i++) {
        const char *dir = i == 0 ? out : harness;
        if (dir != NULL && mkdir_p(dir) != 0) {
            snprintf(err, sizeof err, "%s: cannot create directory '%s'", i == 0 ? "-o" : "--harness",
                     dir);
            goto out;
        }
    }
    if (selftest) {
        if (selftest_write(u, cfg, name, out, &st, err, sizeof err) != 0)
            goto out;
        printf("selftest: %s_selftest: signature %08x, %u input and %u output transfers "
               "(seed 0x%08x, %u cycles)\n",
               name, st.sig, st.in_xfers, st.out_xfers, st.seed, st.cycles);
        rc = 0;
        goto done;
    }
    if (write_unit(u, gu, cfg, name, out, harness, err, sizeof err) != 0)
        goto out;
    rc = 0;
    goto done;
out:
    fail(err);
done:
    free(cfg);
    return rc;
}

int main(int argc, char **argv)
{
    const cohkit_unit_desc *u;
    const gen_unit *gu;
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("cohgen %s\n", COHGEN_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "--list") == 0)
        return list(NULL);
    if (strcmp(argv[1], "--list=units") == 0)
        return list("units");
    if (strcmp(argv[1], "--list=configs") == 0)
        return list("configs");
    u = cohkit_unit_find(argv[1]);
    gu = u ? gen_find(u->name) : NULL;
    if (u == NULL || gu == NULL) {
        char err[256];
        snprintf(err, sizeof err, "unknown unit '%s' (cohgen --list names every unit)", argv[1]);
        return fail(err);
    }
    return gen_unit_main(u, gu, argc - 2, argv + 2);
}
