/*
 * ./tb_<family>: the lockstep bench of one family's units. Built once per
 * family (TB_FAMILY_NAME, TB_DUTS) by its Makefile fragment; everything else
 * comes from the registry (cmodel/unit.h) and the engine (tb/lockstep.h).
 * Options behave the same in every family; see README.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"

#ifndef TB_FAMILY_NAME
#error "TB_FAMILY_NAME and TB_DUTS must be defined"
#endif

extern const dut_ops *const TB_DUTS[];

static const char *prog = "tb_" TB_FAMILY_NAME;

#ifdef TB_FAMILY_HOOK
/* A family's extension of its bench (runs before the options are read; sets
 * *handled when it ran), and its lines of --help. Weak: a one-configuration
 * bench (scripts/unit-bench.sh) links without them and runs as any family. */
int TB_FAMILY_HOOK(int argc, char **argv, int *handled, const dut_ops *const *duts,
                   int (*run_unit)(int argc, char **argv)) __attribute__((weak));
void TB_FAMILY_HELP(FILE *f) __attribute__((weak));
#endif

static const cohkit_unit_desc *default_unit(void)
{
    size_t i;
    for (i = 0; cohkit_unit_registry[i]; i++)
        if (strcmp(cohkit_unit_registry[i]->family, TB_FAMILY_NAME) == 0)
            return cohkit_unit_registry[i];
    return NULL;
}

static const char *short_name(const cohkit_unit_desc *u)
{
    size_t l = strlen(u->family);
    return strncmp(u->name, u->family, l) == 0 && u->name[l] == '-' ? u->name + l + 1 : u->name;
}

static const cohkit_unit_desc *family_unit(const char *name)
{
    size_t i;
    for (i = 0; cohkit_unit_registry[i]; i++) {
        const cohkit_unit_desc *u = cohkit_unit_registry[i];
        if (strcmp(u->family, TB_FAMILY_NAME) == 0 &&
            (strcmp(u->name, name) == 0 || strcmp(short_name(u), name) == 0))
            return u;
    }
    return NULL;
}

static void usage(FILE *f, const cohkit_unit_desc *u)
{
    size_t i;
    fprintf(f, "usage: %s [options]\n  --unit U         unit of the %s family (default %s):", prog,
            TB_FAMILY_NAME, short_name(u));
    for (i = 0; cohkit_unit_registry[i]; i++)
        if (strcmp(cohkit_unit_registry[i]->family, TB_FAMILY_NAME) == 0)
            fprintf(f, " %s", short_name(cohkit_unit_registry[i]));
    fprintf(f, "\n  --config NAME    configuration of the unit (default: default):");
    for (i = 0; TB_DUTS[i]; i++) {
        size_t l = strlen(u->module_prefix);
        if (strcmp(TB_DUTS[i]->unit, u->name) != 0)
            continue;
        fprintf(f, " %s",
                strncmp(TB_DUTS[i]->module, u->module_prefix, l) == 0 && TB_DUTS[i]->module[l] == '_'
                    ? TB_DUTS[i]->module + l + 1
                    : TB_DUTS[i]->module);
    }
    fprintf(f,
            "\n"
            "  --seed N         random seed (default 1)\n"
            "  --cycles N       cycles to run (default 1000000)\n"
            "  --stream S       random stream:");
    for (i = 0; u->streams[i]; i++)
        fprintf(f, " %s%s", u->streams[i], i ? "" : " (default)");
    fprintf(f,
            "\n"
            "  --trace FILE     drive the records of a text trace ('-' = stdin) and print the\n"
            "                   unit's output lines, as cohmodel %s does:\n", u->name);
    {
        const char *p = u->trace_help;
        while (p && *p) {
            const char *nl = strchr(p, '\n');
            int n = nl ? (int)(nl - p) : (int)strlen(p);
            fprintf(f, "                   %.*s\n", n, p);
            p += n + (nl != NULL);
        }
    }
    for (i = 0; u->flags && u->flags[i].name; i++)
        fprintf(f, "  --%s%s%-*s %s\n", u->flags[i].name, u->flags[i].arg ? " " : "",
                (int)(14 - strlen(u->flags[i].name) - (u->flags[i].arg ? 1 + strlen(u->flags[i].arg) : 0)),
                u->flags[i].arg ? u->flags[i].arg : "", u->flags[i].help);
    fprintf(f,
            "  --replay FILE    drive a cycle-level stimulus file written by --stim-out\n"
            "  --stim-out FILE  write the cycle-level stimulus of this run\n"
            "  --log FILE       write the RTL outputs of every cycle out of reset\n"
            "  --vcd FILE       write a waveform of the whole run\n"
            "  --rtl-only       run the Verilated RTL alone (no model, nothing compared)\n"
            "  --fail-prefix P  on a mismatch write P.stim and P.vcd (default %s_fail)\n"
            "  --help           this text\n"
            "exit status: 0 PASS, 1 mismatch, 2 bad input\n",
            prog);
#ifdef TB_FAMILY_HOOK
    if (TB_FAMILY_HELP)
        TB_FAMILY_HELP(f);
#endif
}

static int bad(const char *fmt, const char *v) { return ls_bad_arg(prog, fmt, v); }

static int parse_u64(const char *s, unsigned long long *v) { return ls_num_arg(s, v); }

static void print_summary(const ls_opts *o, const ls_result *r, const char *c)
{
    double cps = r->seconds > 0 ? (double)r->cycles / r->seconds : 0;
    unsigned k;
    printf("%sconfig %s (%s)\n", c, o->dut->module, o->dut->args);
    printf("%sseed %llu%s\n", c, (unsigned long long)o->seed, r->note);
    if (r->summary && *r->summary)
        fputs(r->summary, stdout);
    else
        printf("%scycles %llu\n", c, (unsigned long long)r->cycles);
    if (r->nchan) {
        printf("%stransfers per cycle:", c);
        for (k = 0; k < r->nchan; k++)
            printf(" %s %.3f", r->chan_name[k],
                   r->cycles ? (double)r->chan_xfers[k] / (double)r->cycles : 0.0);
        printf("\n");
    }
    printf("%ssimulated cycles per second %.0f (%s)\n", c, cps,
           o->rtl_only ? "RTL alone" : "model + RTL lockstep");
    /* the same per second of this process's CPU time: one core's rate even
     * when the machine is shared */
    printf("%ssimulated cycles per CPU second %.0f\n", c,
           r->cpu_seconds > 0 ? (double)r->cycles / r->cpu_seconds : 0.0);
}

/* What the command line of a unit run asks for. */
typedef struct {
    const cohkit_unit_desc *u;
    const char *config, *trace, *replay, *stim, *logp, *vcd, *prefix, *stream, *unit_arg;
    const char *fl[COHKIT_UNIT_FLAGS_MAX];
    char prefix_buf[64];
    int help;
} run_args;

/* Parses the options of a unit run into a and o. 0, or the exit status. */
static int parse_run_args(int argc, char **argv, run_args *a, ls_opts *o)
{
    unsigned long long v;
    int i;
    memset(a, 0, sizeof *a);
    a->u = default_unit();
    a->config = "default";
    if (a->u == NULL)
        return bad("%s", "no unit of this family is registered");
    for (i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--unit") == 0)
            a->unit_arg = argv[i + 1];
    if (a->unit_arg && (a->u = family_unit(a->unit_arg)) == NULL)
        return bad("--unit: '%s' is not a unit of the " TB_FAMILY_NAME " family (see --help)",
                   a->unit_arg);
    snprintf(a->prefix_buf, sizeof a->prefix_buf, "%s_fail", prog);
    a->prefix = a->prefix_buf;
    ls_defaults(o);
    o->cycles = 1000000;
    for (i = 1; i < argc; i++) {
        const char *k = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int fi;
        if (strcmp(k, "--help") == 0 || strcmp(k, "-h") == 0) {
            a->help = 1;
            return 0;
        }
        if (strcmp(k, "--rtl-only") == 0) {
            o->rtl_only = 1;
            continue;
        }
        if (strncmp(k, "--", 2) == 0 && (fi = cohkit_unit_flag_index(a->u, k + 2)) >= 0) {
            if (a->u->flags[fi].arg == NULL) {
                a->fl[fi] = "1";
                continue;
            }
            if (val == NULL)
                return bad("%s needs a value (see --help)", k);
            a->fl[fi] = val;
            i++;
            continue;
        }
        if (val == NULL)
            return bad("%s needs a value (see --help)", k);
        i++;
        if (strcmp(k, "--seed") == 0) {
            if (parse_u64(val, &v) != 0)
                return bad("--seed: '%s' is not a non-negative integer", val);
            o->seed = v;
        } else if (strcmp(k, "--cycles") == 0) {
            if (parse_u64(val, &v) != 0 || v == 0)
                return bad("--cycles: '%s' is not a positive integer", val);
            o->cycles = v;
        } else if (strcmp(k, "--unit") == 0)
            ;
        else if (strcmp(k, "--config") == 0)
            a->config = val;
        else if (strcmp(k, "--stream") == 0)
            a->stream = val;
        else if (strcmp(k, "--trace") == 0)
            a->trace = val;
        else if (strcmp(k, "--replay") == 0)
            a->replay = val;
        else if (strcmp(k, "--stim-out") == 0)
            a->stim = val;
        else if (strcmp(k, "--log") == 0)
            a->logp = val;
        else if (strcmp(k, "--vcd") == 0)
            a->vcd = val;
        else if (strcmp(k, "--fail-prefix") == 0)
            a->prefix = val;
        else
            return bad("unknown option '%s' (see --help)", k);
    }
    return 0;
}

/* Files and buffers a unit run holds; closed by run_close. */
typedef struct {
    void *cfg;
    uint64_t *rvals;
    FILE *fs, *fg, *ft;
} run_res;

static void run_close(run_res *rr)
{
    if (rr->ft && rr->ft != stdin)
        fclose(rr->ft);
    if (rr->fs)
        fclose(rr->fs);
    if (rr->fg)
        fclose(rr->fg);
    free(rr->rvals);
    free(rr->cfg);
    memset(rr, 0, sizeof *rr);
}

/* The DUT, configuration, stream and files of a run. 0, or the exit
 * status after a message (rr closed by the caller). */
static int open_run(const run_args *a, ls_opts *o, run_res *rr)
{
    char err[512];
    int rc;
    o->unit = a->u;
    o->dut = ls_dut_find(TB_DUTS, a->u, a->config);
    if (o->dut == NULL)
        return bad("--config: '%s' is not a configuration of this build (see --help)",
                   a->config);
    if ((rr->cfg = calloc(1, a->u->cfg_size)) == NULL)
        return bad("%s", "out of memory");
    if (ls_dut_cfg(a->u, o->dut, rr->cfg, err, sizeof err) != 0)
        return bad("%s", err);
    o->cfg = rr->cfg;
    o->flags = a->fl;
    if (a->stream) {
        size_t k;
        for (k = 0; a->u->streams[k] && strcmp(a->u->streams[k], a->stream) != 0; k++)
            ;
        if (a->u->streams[k] == NULL)
            return bad("--stream: '%s' is not a stream of this unit (see --help)", a->stream);
        o->stream = a->stream;
    }
    if (a->trace && a->replay)
        return bad("%s", "--trace and --replay exclude each other");
    if (a->trace) {
        rr->ft = strcmp(a->trace, "-") == 0 ? stdin : fopen(a->trace, "r");
        if (rr->ft == NULL)
            return bad("--trace: cannot read '%s'", a->trace);
        o->trace = rr->ft;
        o->trace_name = strcmp(a->trace, "-") == 0 ? "stdin" : a->trace;
        o->trace_out = stdout;
    }
    if (a->replay) {
        FILE *f = fopen(a->replay, "r");
        size_t n;
        if (f == NULL)
            return bad("--replay: cannot read '%s'", a->replay);
        rc = ls_stim_read(f, o->dut, &rr->rvals, &n, err, sizeof err);
        fclose(f);
        if (rc != 0) {
            fprintf(stderr, "%s: %s: %s\n", prog, a->replay, err);
            return 2;
        }
        o->replay = rr->rvals;
        o->nreplay = n;
    }
    if (a->stim && (rr->fs = fopen(a->stim, "w")) == NULL)
        return bad("--stim-out: cannot write '%s'", a->stim);
    if (a->logp && (rr->fg = fopen(a->logp, "w")) == NULL)
        return bad("--log: cannot write '%s'", a->logp);
    o->stim_out = rr->fs;
    o->log_out = rr->fg;
    o->vcd = a->vcd;
    return 0;
}

/* After a mismatch: re-runs the same deterministic stimulus up to the
 * failing cycle, recording it and a waveform of the last 2000 cycles, and
 * prints how to replay it. */
static void record_failure(const run_args *a, ls_opts *o, const ls_result *r)
{
    char sp[1024], vp[1024], uopt[96] = "";
    FILE *f, *ft = NULL;
    ls_result r2;
    printf("%s\n", r->mm_msg);
    snprintf(sp, sizeof sp, "%s.stim", a->prefix);
    snprintf(vp, sizeof vp, "%s.vcd", a->prefix);
    if (a->unit_arg)
        snprintf(uopt, sizeof uopt, "--unit %s ", short_name(a->u));
    if (a->trace) {
        /* the trace was consumed: a named file is read again; stdin cannot be */
        ft = strcmp(a->trace, "-") == 0 ? NULL : fopen(a->trace, "r");
        o->trace = ft;
        o->trace_out = NULL;
    }
    f = fopen(sp, "w");
    o->stim_out = f;
    o->log_out = NULL;
    o->vcd = vp;
    o->vcd_from = r->mm_cycle > 2000 ? r->mm_cycle - 2000 : 0;
    o->stop_after = r->mm_cycle;
    if (!a->trace || o->trace) {
        ls_run(o, &r2, "");
        ls_result_free(&r2);
    }
    if (f)
        fclose(f);
    if (ft)
        fclose(ft);
    printf("FAIL: replay with ./%s %s--config %s --replay %s ; waveform %s\n", prog, uopt,
           a->config, sp, vp);
}

static int run_unit(int argc, char **argv)
{
    ls_opts o;
    ls_result r;
    run_args a;
    run_res rr = {0};
    int rc = parse_run_args(argc, argv, &a, &o);
    if (rc != 0)
        return rc;
    if (a.help) {
        usage(stdout, a.u);
        return 0;
    }
    if ((rc = open_run(&a, &o, &rr)) != 0) {
        run_close(&rr);
        return rc;
    }
    rc = ls_run(&o, &r, a.trace ? "# " : "");
    if (rr.ft && rr.ft != stdin)
        fclose(rr.ft);
    rr.ft = NULL;
    if (rr.fs)
        fclose(rr.fs);
    if (rr.fg)
        fclose(rr.fg);
    rr.fs = rr.fg = NULL;
    if (rc < 0) {
        fprintf(stderr, "%s: %s\n", prog, r.mm_msg);
        ls_result_free(&r);
        run_close(&rr);
        return 2;
    }
    print_summary(&o, &r, a.trace ? "# " : "");
    if (rc > 0)
        record_failure(&a, &o, &r);
    else
        printf("%sPASS\n", a.trace ? "# " : "");
    ls_result_free(&r);
    run_close(&rr);
    return rc > 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
#ifdef TB_FAMILY_HOOK
    if (TB_FAMILY_HOOK) {
        int handled = 0, rc = TB_FAMILY_HOOK(argc, argv, &handled, TB_DUTS, run_unit);
        if (handled)
            return rc;
    }
#endif
    return run_unit(argc, argv);
}
