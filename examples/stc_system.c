/*
 * The STC system with its checker through libcohkit (docs/model-api.md):
 * a constrained-random program for four CUs runs through the system model
 * (epoch logic, BSQ and L1 per CU, EMU, L2 and memory), which writes its
 * event log; the example then judges that log with the rule checker
 * (stc_check_run), as a simulator of its own would have its log judged.
 *
 * Files: TRACE, the program (first line the cohmodel command that runs
 * it), and TRACE.log, the event log (first line the cohmodel command that
 * checks it). Output: the system's (as `cohmodel stc-system`), then
 * "# checker ..." and the checker's VIOL and RESULT lines. `make examples`
 * requires all of it to equal cohmodel's (scripts/example-check.sh).
 *
 *   cc -std=c11 $(pkg-config --cflags cohkit) stc_system.c $(pkg-config --libs cohkit)
 *   ./stc_system TRACE
 */
#include <cohkit/stc_check.h>
#include <cohkit/stc_prog.h>
#include <cohkit/stc_system.h>

#include <stdio.h>
#include <string.h>

#define SEED 11
#define OPS 60

/* The checker's options for the logs of system c (stc_sys_chk_cfg). */
static void checker_args(const stc_chk_cfg *k, char *args, size_t len)
{
    char es[128];
    snprintf(args, len, "--cus %u --n %u --seb %u --line %u --addr-bits %u --seb-guard %u "
             "--variant %s --epoch %s", k->cus, k->n, k->seb, k->line, k->addr_bits, k->guard,
             stc_variant_name((stc_variant)k->variant), stc_eset_format(&k->epoch, es, sizeof es));
}

int main(int argc, char **argv)
{
    stc_sys_cfg c;
    stc_chk_cfg k;
    stc_gen_cfg g;
    stc_prog p;
    char err[256], args[512], kargs[256], logname[4096];
    FILE *f, *log;
    long nv;
    int rc;
    if (argc != 2) {
        fprintf(stderr, "usage: %s TRACE\n", argv[0]);
        return 2;
    }
    stc_sys_cfg_default(&c);
    if (stc_sys_cfg_option(&c, "cus", "4", err, sizeof err) != 0 ||
        stc_sys_cfg_check(&c, err, sizeof err) != 0) {
        fprintf(stderr, "stc_system: %s\n", err);
        return 2;
    }
    stc_gen_cfg_default(&g);
    g.cus = c.emu.cus;
    g.n = c.emu.n;
    g.seb = c.emu.seb;
    g.seb_min = c.emu.seb_min;
    g.addr_bits = c.emu.addr_bits;
    g.line = c.l1.line;
    g.ops = OPS;
    if (stc_prog_random(&g, SEED, &p) != 0)
        return 1;
    stc_sys_cfg_args(&c, args, sizeof args);
    stc_sys_chk_cfg(&c, &k);
    checker_args(&k, kargs, sizeof kargs);
    snprintf(logname, sizeof logname, "%s.log", argv[1]);
    f = fopen(argv[1], "w");
    log = fopen(logname, "w+");
    if (f == NULL || log == NULL) {
        perror(f == NULL ? argv[1] : logname);
        return 1;
    }
    fprintf(f, "# cohmodel stc-system %s\n", args);
    stc_prog_write(&p, f);
    fclose(f);
    fprintf(log, "# cohmodel stc-check %s\n", kargs);
    nv = stc_sys_run(&c, &p, 0, stdout, log, NULL);
    printf("# checker (stc-check %s) on the event log\n", kargs);
    /* The checker reads the log as it would read any simulator's: 0 PASS,
     * 1 FAIL (both with the VIOL and RESULT lines), 2 a malformed log. */
    rewind(log);
    rc = nv < 0 ? 2 : stc_check_run(&k, log, logname, stdout, stderr);
    fclose(log);
    stc_prog_free(&p);
    return rc == 2;
}
