/*
 * cohgen: emits the Verilog, C port header, Verilator shim and Icarus replay
 * bench of a block from a validated configuration.
 *
 *   cohgen rec [options] -o DIR
 *   cohgen rec [options] --report [--json]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rec_gen.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cohgen rec [options] -o DIR        write DIR/<module>.sv, _ports.h, _shim.cpp, _tb.sv\n"
            "       cohgen rec [options] --report [--json]   print the entry layout\n"
            "options:\n"
            "  --config NAME    start from a named configuration: default, fpga, baseline, hmg\n"
            "  --mode M         rec (range coalescing), line (one line per entry), hmg (groups)\n"
            "  --gpus N         GPUs, 2..16 (default 4)\n"
            "  --entries N      directory entries, power of two (default 8192)\n"
            "  --ways N         associativity, power of two, 1..16 (default 8)\n"
            "  --range B        coalescing range in bytes (rec mode; default 1024)\n"
            "  --line B         cache line in bytes (default 64)\n"
            "  --addr-bits N    physical address width, 16..64 (default 48)\n"
            "  --group N        lines per HMG entry (hmg mode; default 4)\n"
            "  --repl P         fifo or lru (default lru)\n"
            "  --store S        full (Table 1: whole base stored) or packed (no index bits)\n"
            "  --name NAME      module name (default: derived from the configuration)\n"
            "  -o DIR           output directory (created if missing)\n"
            "  --report         print the entry layout instead; --json for JSON\n"
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

static int gen_rec(int argc, char **argv)
{
    rec_cfg cfg;
    const char *out = NULL, *name = NULL;
    int report = 0, json = 0, i, range_set = 0;
    char err[256], modname[128], args[512], params[1024];
    block_desc b;
    emit_file f[4];

    rec_cfg_default(&cfg);
    /* A named configuration comes first so that options refine it. */
    for (i = 2; i < argc; i++)
        if (strcmp(argv[i], "--config") == 0) {
            if (i + 1 >= argc || rec_cfg_preset(&cfg, argv[i + 1]) != 0) {
                snprintf(err, sizeof err, "--config: '%s' is not default, fpga, baseline or hmg",
                         i + 1 < argc ? argv[i + 1] : "");
                return fail(err);
            }
        }
    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--report") == 0) {
            report = 1;
            continue;
        }
        if (strcmp(a, "--json") == 0) {
            json = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0 && strcmp(a, "-o") != 0) {
            snprintf(err, sizeof err, "unexpected argument '%s' (see --help)", a);
            return fail(err);
        }
        if (i + 1 >= argc) {
            snprintf(err, sizeof err, "%s needs a value", a);
            return fail(err);
        }
        if (strcmp(a, "-o") == 0)
            out = argv[++i];
        else if (strcmp(a, "--name") == 0)
            name = argv[++i];
        else if (strcmp(a, "--config") == 0)
            i++;
        else {
            int r = rec_cfg_option(&cfg, a + 2, argv[i + 1], err, sizeof err);
            if (r < 0)
                return fail(err);
            if (r > 0) {
                snprintf(err, sizeof err, "unknown option '%s' (see --help)", a);
                return fail(err);
            }
            if (strcmp(a, "--range") == 0)
                range_set = 1;
            i++;
        }
    }
    /* line and hmg modes have a fixed span; follow it unless --range was given. */
    if (!range_set) {
        if (cfg.mode == REC_MODE_LINE)
            cfg.range = cfg.line;
        else if (cfg.mode == REC_MODE_HMG)
            cfg.range = cfg.line * cfg.group;
    }
    if (rec_cfg_check(&cfg, err, sizeof err) != 0)
        return fail(err);
    if (report) {
        rec_report(stdout, &cfg, json);
        return 0;
    }
    if (out == NULL)
        return fail("no output: give -o DIR or --report");
    if (name != NULL && !valid_ident(name)) {
        snprintf(err, sizeof err, "--name: '%s' is not a Verilog identifier", name);
        return fail(err);
    }
    if (name == NULL) {
        rec_cfg_name(&cfg, modname, sizeof modname);
        name = modname;
    }
    if (mkdir_p(out) != 0) {
        snprintf(err, sizeof err, "-o: cannot create directory '%s'", out);
        return fail(err);
    }
    rec_block_desc(&cfg, name, &b, args, sizeof args, params, sizeof params);
    {
        char fn[4][160];
        snprintf(fn[0], sizeof fn[0], "%s.sv", name);
        snprintf(fn[1], sizeof fn[1], "%s_ports.h", name);
        snprintf(fn[2], sizeof fn[2], "%s_shim.cpp", name);
        snprintf(fn[3], sizeof fn[3], "%s_tb.sv", name);
        for (i = 0; i < 4; i++)
            if (emit_open(&f[i], out, fn[i]) != 0) {
                emit_abort(f, i + 1);
                snprintf(err, sizeof err, "-o: cannot write in '%s'", out);
                return fail(err);
            }
    }
    rec_emit_verilog(&f[0], &cfg, &b);
    ports_c_header(&f[1], &b);
    ports_shim(&f[2], &b);
    ports_iverilog_tb(&f[3], &b);
    if (emit_commit(f, 4, err, sizeof err) != 0)
        return fail(err);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("cohgen %s\n", COHGEN_VERSION);
        return 0;
    }
    /* stand-in until the unit registry: <unit> <family> <module_prefix> */
    if (strcmp(argv[1], "--list=units") == 0) {
        printf("rec rec rec\n");
        return 0;
    }
    if (strcmp(argv[1], "rec") == 0)
        return gen_rec(argc, argv);
    fprintf(stderr, "cohgen: unknown block family '%s' (known: rec)\n", argv[1]);
    return 2;
}
