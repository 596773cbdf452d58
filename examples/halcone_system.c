/*
 * The HALCONE system with its checker through libcohkit
 * (docs/model-api.md): a random program (the halcone-gen generator) for 2
 * GPUs of 4 CUs with two L2 banks runs through the system model (an L1 per
 * CU, L2 banks, TSU, DRAM), one command at a time; every line the system
 * logs is fed to the checker, which judges the run in logical time, as it
 * would judge a log written by a simulator of its own.
 *
 * TRACE receives the program (first line the cohmodel command that runs
 * it). Output: the access lines, the checker's CHECK and invariant lines
 * and its summary, which `make examples` requires to equal
 * `cohmodel halcone-system` on TRACE (scripts/example-check.sh).
 *
 *   cc -std=c11 $(pkg-config --cflags cohkit) halcone_system.c $(pkg-config --libs cohkit)
 *   ./halcone_system TRACE
 */
#include <cohkit/halcone_check.h>
#include <cohkit/halcone_system.h>

#include <stdio.h>
#include <stdlib.h>

static const char *const system_opts[][2] = {
    {"gpus", "2"}, {"cus", "4"}, {"l2-banks", "2"}, {"l1-req-cts", "on"}};
static const char *const program_opts[][2] = {
    {"gpus", "2"}, {"cus", "4"}, {"ops", "400"}, {"lines", "12"}, {"seed", "5"}};

typedef struct {
    halcone_check *chk;
    int bad;
} sink;

/* Every logged line goes to the checker; access lines (not the events of
 * --events) are printed as cohmodel prints them. */
static void on_log(void *ctx, const char *line, unsigned long lineno, int event)
{
    sink *k = ctx;
    char err[256];
    if (!k->bad && halcone_check_feed(k->chk, line, lineno, err, sizeof err) != 0) {
        fprintf(stderr, "halcone_system: checker: %s\n", err);
        k->bad = 1;
    }
    if (!event)
        printf("%s\n", line);
}

/* The system's configuration, and the program written to `path`. */
static int setup(const char *path, halcone_sys_cfg *c, char *err, size_t len)
{
    halcone_gen_cfg g;
    FILE *f;
    size_t i;
    halcone_sys_cfg_default(c);
    for (i = 0; i < sizeof system_opts / sizeof system_opts[0]; i++)
        if (halcone_sys_cfg_option(c, system_opts[i][0], system_opts[i][1], err, len) != 0)
            return -1;
    if (halcone_gen_cfg_preset(&g, "random") != 0)
        return -1;
    for (i = 0; i < sizeof program_opts / sizeof program_opts[0]; i++)
        if (halcone_gen_cfg_option(&g, program_opts[i][0], program_opts[i][1], err, len) != 0)
            return -1;
    if (halcone_sys_cfg_check(c, err, len) != 0 || halcone_gen_cfg_check(&g, err, len) != 0)
        return -1;
    f = fopen(path, "w");
    if (f == NULL)
        return snprintf(err, len, "cannot write %s", path), -1;
    fprintf(f, "# cohmodel halcone-system");
    for (i = 0; i < sizeof system_opts / sizeof system_opts[0]; i++)
        fprintf(f, " --%s %s", system_opts[i][0], system_opts[i][1]);
    fprintf(f, "\n");
    halcone_gen_write(&g, f);
    return fclose(f);
}

/* Runs every command of the program in `path` with the checker. */
static int run(const char *path, const halcone_sys_cfg *c, sink *k, char *err, size_t len)
{
    halcone_sys_cmd *cmds = NULL;
    halcone_sys *s;
    size_t n = 0, i;
    int rc = 0;
    FILE *f = fopen(path, "r");
    if (f == NULL || halcone_sys_trace_read(f, c, &cmds, &n, err, len) != 0) {
        if (f)
            fclose(f);
        return -1;
    }
    fclose(f);
    s = halcone_sys_new(c, on_log, k, err, len);
    for (i = 0; s != NULL && i < n && rc == 0; i++)
        rc = halcone_sys_run(s, &cmds[i]);
    if (s == NULL || rc != 0)
        rc = -1;
    halcone_sys_free(s);
    free(cmds);
    return rc;
}

int main(int argc, char **argv)
{
    halcone_sys_cfg c;
    halcone_check_result r;
    sink k = {NULL, 0};
    char err[256] = "out of memory";
    uint64_t bad, inv = 0;
    int j;
    if (argc != 2) {
        fprintf(stderr, "usage: %s TRACE\n", argv[0]);
        return 2;
    }
    k.chk = halcone_check_new();
    if (k.chk == NULL || setup(argv[1], &c, err, sizeof err) != 0 ||
        run(argv[1], &c, &k, err, sizeof err) != 0) {
        fprintf(stderr, "halcone_system: %s\n", err);
        halcone_check_free(k.chk);
        return 1;
    }
    bad = halcone_check_finish(k.chk, stdout, &r);
    for (j = 0; j < HALCONE_CHECK_NINV; j++)
        inv += r.inv[j];
    printf("# checked loads %llu stale %llu reorder %llu future %llu invariants %llu violations "
           "%llu\n", (unsigned long long)r.loads, (unsigned long long)r.stale,
           (unsigned long long)r.reorder, (unsigned long long)r.future, (unsigned long long)inv,
           (unsigned long long)bad);
    halcone_check_free(k.chk);
    return k.bad;
}
