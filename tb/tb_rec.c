/*
 * tb_rec: runs the REC directory RTL (Verilated) in lockstep with the golden
 * model, on seeded constrained-random stimulus, a text trace, or a recorded
 * cycle-level stimulus file. See README.md and docs/rec.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_bench.h"

extern const dut_ops *const rec_duts[];

static void usage(FILE *f)
{
    size_t i;
    fprintf(f,
            "usage: tb_rec [options]\n"
            "  --config NAME    configuration (default: default):");
    for (i = 0; rec_duts[i]; i++)
        fprintf(f, " %s", strncmp(rec_duts[i]->module, "rec_", 4) == 0 ? rec_duts[i]->module + 4
                                                                       : rec_duts[i]->module);
    fprintf(f,
            "\n"
            "  --seed N         random seed (default 1)\n"
            "  --cycles N       cycles to run (default 1000000)\n"
            "  --stream S       mixed (default) or hit (hit-heavy remote reads, for throughput)\n"
            "  --trace FILE     drive the requests of a text trace (RR/LW/RW lines, '-' = stdin)\n"
            "                   and print one 'INV <line-addr> <gpu-mask>' per invalidation\n"
            "  --home G         home GPU id (default: drawn from the seed; 0 with --trace)\n"
            "  --replay FILE    drive a cycle-level stimulus file written by --stim-out\n"
            "  --stim-out FILE  write the cycle-level stimulus of this run\n"
            "  --log FILE       write the RTL outputs of every cycle out of reset\n"
            "  --vcd FILE       write a waveform of the whole run\n"
            "  --fail-prefix P  on a mismatch write P.stim and P.vcd (default tb_rec_fail)\n"
            "  --help           this text\n"
            "exit status: 0 PASS, 1 mismatch, 2 bad input\n");
}

static int bad(const char *fmt, const char *v)
{
    fprintf(stderr, "tb_rec: ");
    fprintf(stderr, fmt, v);
    fputc('\n', stderr);
    return 2;
}

static int parse_u64(const char *s, unsigned long long *v)
{
    char *end;
    if (s == NULL || *s == '\0' || *s == '-')
        return -1;
    *v = strtoull(s, &end, 0);
    return *end ? -1 : 0;
}

int main(int argc, char **argv)
{
    rec_bench_opts o;
    rec_bench_result r;
    const char *config = "default", *trace = NULL, *replay = NULL, *stim = NULL, *logp = NULL,
               *vcd = NULL, *prefix = "tb_rec_fail", *stream = "mixed";
    unsigned long long v;
    char err[256];
    int i, rc;
    rec_treq *reqs = NULL;
    uint64_t *rvals = NULL;
    FILE *fs = NULL, *fl = NULL;

    rec_bench_defaults(&o);
    o.cycles = 1000000;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (val == NULL)
            return bad("%s needs a value (see --help)", a);
        i++;
        if (strcmp(a, "--seed") == 0) {
            if (parse_u64(val, &v) != 0)
                return bad("--seed: '%s' is not a non-negative integer", val);
            o.seed = v;
        } else if (strcmp(a, "--cycles") == 0) {
            if (parse_u64(val, &v) != 0 || v == 0)
                return bad("--cycles: '%s' is not a positive integer", val);
            o.cycles = v;
        } else if (strcmp(a, "--home") == 0) {
            if (parse_u64(val, &v) != 0 || v > 15)
                return bad("--home: '%s' is not a GPU id 0..15", val);
            o.home = (int)v;
        } else if (strcmp(a, "--config") == 0)
            config = val;
        else if (strcmp(a, "--stream") == 0)
            stream = val;
        else if (strcmp(a, "--trace") == 0)
            trace = val;
        else if (strcmp(a, "--replay") == 0)
            replay = val;
        else if (strcmp(a, "--stim-out") == 0)
            stim = val;
        else if (strcmp(a, "--log") == 0)
            logp = val;
        else if (strcmp(a, "--vcd") == 0)
            vcd = val;
        else if (strcmp(a, "--fail-prefix") == 0)
            prefix = val;
        else
            return bad("unknown option '%s' (see --help)", a);
    }
    o.dut = rec_dut_find(rec_duts, config);
    if (o.dut == NULL)
        return bad("--config: '%s' is not a configuration of this build (see --help)", config);
    if (rec_dut_cfg(o.dut, &o.cfg, err, sizeof err) != 0)
        return bad("%s", err);
    if (o.home >= (int)o.cfg.gpus) {
        snprintf(err, sizeof err, "%d", o.home);
        return bad("--home: GPU %s is not in this configuration", err);
    }
    if (strcmp(stream, "mixed") == 0)
        o.kind = REC_STIM_MIXED;
    else if (strcmp(stream, "hit") == 0)
        o.kind = REC_STIM_HIT;
    else
        return bad("--stream: '%s' is not mixed or hit", stream);
    if (trace && replay)
        return bad("%s", "--trace and --replay exclude each other");
    if (trace) {
        FILE *f = strcmp(trace, "-") == 0 ? stdin : fopen(trace, "r");
        size_t n;
        if (f == NULL)
            return bad("--trace: cannot read '%s'", trace);
        if (o.home < 0)
            o.home = 0;
        rc = rec_trace_read(f, &o.cfg, (unsigned)o.home, &reqs, &n, err, sizeof err);
        if (f != stdin)
            fclose(f);
        if (rc != 0) {
            fprintf(stderr, "tb_rec: %s: %s\n", trace, err);
            return 2;
        }
        o.kind = REC_STIM_TRACE;
        o.trace = reqs;
        o.ntrace = n;
        o.inv_out = stdout;
    }
    if (replay) {
        FILE *f = fopen(replay, "r");
        size_t n;
        if (f == NULL)
            return bad("--replay: cannot read '%s'", replay);
        rc = rec_stim_read(f, o.dut->n_in, &rvals, &n, err, sizeof err);
        fclose(f);
        if (rc != 0) {
            fprintf(stderr, "tb_rec: %s: %s\n", replay, err);
            return 2;
        }
        o.kind = REC_STIM_REPLAY;
        o.replay = rvals;
        o.nreplay = n;
    }
    if (stim && (fs = fopen(stim, "w")) == NULL)
        return bad("--stim-out: cannot write '%s'", stim);
    if (logp && (fl = fopen(logp, "w")) == NULL) {
        if (fs)
            fclose(fs);
        return bad("--log: cannot write '%s'", logp);
    }
    o.stim_out = fs;
    o.log_out = fl;
    o.vcd = vcd;

    rc = rec_bench_run(&o, &r);
    if (fs)
        fclose(fs);
    if (fl)
        fclose(fl);
    {
        const char *c = trace ? "# " : "";
        double cps = r.seconds > 0 ? (double)r.cycles / r.seconds : 0;
        printf("%sconfig %s (%s)\n", c, o.dut->module, o.dut->args);
        printf("%sseed %llu  home GPU %u\n", c, (unsigned long long)o.seed, r.home);
        printf("%scycles %llu  requests accepted %llu  (%.3f per cycle)\n", c,
               (unsigned long long)r.cycles, (unsigned long long)r.accepted,
               r.cycles ? (double)r.accepted / (double)r.cycles : 0.0);
        if (o.kind == REC_STIM_HIT)
            printf("%shit-heavy stream after warm-up: %llu requests in %llu cycles = %.3f per cycle\n",
                   c, (unsigned long long)r.measure_accepted, (unsigned long long)r.measure_cycles,
                   r.measure_cycles ? (double)r.measure_accepted / (double)r.measure_cycles : 0.0);
        printf("%sinvalidations %llu (write %llu, eviction %llu)  evictions %llu  "
               "mean coalesced lines per evicted entry %.2f\n",
               c, (unsigned long long)r.st.invalidations, (unsigned long long)r.st.write_invs,
               (unsigned long long)r.st.evict_invs, (unsigned long long)r.st.evictions,
               r.st.evictions ? (double)r.st.evicted_lines / (double)r.st.evictions : 0.0);
        printf("%ssimulated cycles per second %.0f (model + RTL lockstep)\n", c, cps);
    }
    if (rc < 0) {
        fprintf(stderr, "tb_rec: %s\n", r.mm_msg);
        return 2;
    }
    if (rc > 0) {
        char sp[1024], vp[1024];
        FILE *f;
        rec_bench_result r2;
        printf("%s\n", r.mm_msg);
        snprintf(sp, sizeof sp, "%s.stim", prefix);
        snprintf(vp, sizeof vp, "%s.vcd", prefix);
        f = fopen(sp, "w");
        /* re-run the same deterministic stimulus up to the failing cycle,
         * recording it and a waveform of the last 2000 cycles */
        o.stim_out = f;
        o.log_out = NULL;
        o.inv_out = NULL;
        o.vcd = vp;
        o.vcd_from = r.mm_cycle > 2000 ? r.mm_cycle - 2000 : 0;
        o.stop_after = r.mm_cycle;
        rec_bench_run(&o, &r2);
        if (f)
            fclose(f);
        printf("FAIL: replay with ./tb_rec --config %s --replay %s ; waveform %s\n", config, sp, vp);
        free(reqs);
        free(rvals);
        return 1;
    }
    printf("%sPASS\n", trace ? "# " : "");
    free(reqs);
    free(rvals);
    return 0;
}
