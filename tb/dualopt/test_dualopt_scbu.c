/*
 * Criterion tests of the DualOpt SCBU (cmodel/dualopt/dualopt_scbu.c,
 * gen/dualopt/dualopt_scbu_gen.c): reading D10 (half-open local range, only remote
 * reads in coalescing mode bypass), reprogramming, bad options and traces,
 * trace-mode equality of RTL and model, and the timing of the output stage
 * (one access per cycle, decision one cycle after acceptance). Lockstep of
 * every committed configuration: tb/test_registry.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_scbu.h"
#include "lockstep.h"
#include "test_util.h"
#include "unit.h"

extern const dut_ops *const dualopt_duts[];

Test(dualopt_scbu_rules, only_remote_reads_in_coalescing_mode_bypass)
{
    dualopt_scbu_cfg c;
    dualopt_scbu s;
    dualopt_scbu_res r;
    dualopt_scbu_cfg_default(&c);
    dualopt_scbu_init(&s, &c);
    r = dualopt_scbu_access(&s, DUALOPT_SCBU_RD, 0x1000);
    cr_assert(r.local && !r.bypass);
    r = dualopt_scbu_access(&s, DUALOPT_SCBU_RD, 0x100000000ull); /* end is exclusive */
    cr_assert(!r.local && r.bypass);
    r = dualopt_scbu_access(&s, DUALOPT_SCBU_RD, 0xffffffffull);
    cr_assert(r.local && !r.bypass);
    r = dualopt_scbu_access(&s, DUALOPT_SCBU_WR, 0x200000000ull);
    cr_assert(!r.local && !r.bypass, "remote writes take the L1 path");
    r = dualopt_scbu_access(&s, DUALOPT_SCBU_AT, 0x200000000ull);
    cr_assert(!r.local && !r.bypass, "remote atomics take the L1 path");
    dualopt_scbu_set_mode(&s, 0);
    r = dualopt_scbu_access(&s, DUALOPT_SCBU_RD, 0x200000000ull);
    cr_assert(!r.local && !r.bypass, "no bypass outside COALESCE");
    /* GPU 1 of a flat 4 x 4 GB space */
    dualopt_scbu_set_mode(&s, 1);
    dualopt_scbu_set_range(&s, 0x100000000ull, 0x200000000ull);
    cr_assert(dualopt_scbu_access(&s, DUALOPT_SCBU_RD, 0x100000000ull).local);
    cr_assert(dualopt_scbu_access(&s, DUALOPT_SCBU_RD, 0xffffffffull).bypass);
    cr_assert(dualopt_scbu_access(&s, DUALOPT_SCBU_RD, 0x1ffffffffull).local);
    cr_assert(dualopt_scbu_access(&s, DUALOPT_SCBU_RD, 0x200000000ull).bypass);
}

Test(dualopt_scbu_tools, trace_records_and_output_format)
{
    char *o;
    cr_assert_eq(run("printf 'RD 0x40\\nRD 0x100000000\\nWR 0x100000000\\nAT 0x100000000\\n"
                     "EN 0\\nRD 0x100000000\\nEN 1\\nCFG 0x100000000 0x200000000\\n"
                     "RD 0x40 # now remote\\nRD 100000000\\n' | build/bin/cohmodel dualopt-scbu "
                     "--stats > build/t_scbu.out"), 0);
    o = slurp("build/t_scbu.out");
    cr_assert_str_eq(o, "LOCAL 0x40 L1\nREMOTE 0x100000000 BYPASS\nREMOTE 0x100000000 L1\n"
                        "REMOTE 0x100000000 L1\nREMOTE 0x100000000 L1\nREMOTE 0x40 BYPASS\n"
                        "LOCAL 0x100000000 L1\n# accesses 7 local 2 remote 5 bypassed 2\n");
    free(o);
    cr_assert_eq(run("printf 'RD 0x0\\n' | build/bin/cohmodel dualopt-scbu --enable 0 | "
                     "grep -qx 'LOCAL 0x0 L1'"), 0);
    cr_assert_eq(run("printf 'RD 0x20000000\\n' | build/bin/cohmodel dualopt-scbu --config fpga | "
                     "grep -qx 'REMOTE 0x20000000 BYPASS'"), 0);
}

Test(dualopt_scbu_tools, bad_traces_and_options_exit_2_with_no_output)
{
    static const char *const bad[][2] = {
        {"RD 0x0\nLD 0x0\n", "stdin: line 2: unknown record 'LD'"},
        {"RD zz\n", "line 1: address 'zz' is not hex"},
        {"RD\n", "line 1: missing address"},
        {"RD 0x1000000000000\n", "exceeds"},
        {"CFG 0x200 0x100\n", "line 1: end 0x100 is below start 0x200"},
        {"CFG 0x0\n", "line 1: missing end"},
        {"EN 2\n", "line 1: EN needs 0 or 1"},
        {"WR 0x0 0x1\n", "line 1: unexpected '0x1'"},
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        model_refuses("dualopt-scbu", "", bad[i][0], bad[i][1]);
    cr_assert_eq(run("build/bin/cohmodel dualopt-scbu --end 0x10 --start 0x20 </dev/null 2>/dev/null"), 2);
    cr_assert_eq(run("build/bin/cohmodel dualopt-scbu --enable 2 </dev/null 2>/dev/null"), 2);
    cr_assert_eq(run("build/bin/cohmodel dualopt-scbu --addr-bits 64 </dev/null 2>/dev/null"), 2);
    cr_assert_eq(run("build/bin/cohmodel dualopt-scbu --addr-bits 32 --end 0x100000001 "
                     "</dev/null 2>/dev/null"), 2);
    gen_refuses("dualopt-scbu", "--start x", "x");
}

Test(dualopt_scbu_tools, tb_trace_prints_what_cohmodel_prints, .timeout = 60)
{
    FILE *f = fopen("build/t_scbu_trace.txt", "w");
    uint64_t s = 3;
    unsigned i;
    char *a = NULL, why[1024];
    long n;
    cr_assert_not_null(f);
    for (i = 0; i < 5000; i++) {
        unsigned r;
        uint64_t addr;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        r = (unsigned)((s >> 33) % 100);
        addr = ((s >> 20) % 5) << 32 | ((s >> 8) & 0xfff);
        if (r < 2)
            fprintf(f, "CFG 0x%llx 0x%llx\n", (unsigned long long)(((s >> 40) % 3) << 32),
                    (unsigned long long)((3 + (s >> 45) % 2) << 32));
        else if (r < 4)
            fprintf(f, "EN %u\n", (unsigned)((s >> 50) & 1));
        else
            fprintf(f, "%s 0x%llx\n", r < 60 ? "RD" : r < 85 ? "WR" : "AT", (unsigned long long)addr);
    }
    fclose(f);
    n = trace_agrees("dualopt", "dualopt-scbu", "", "build/t_scbu_trace.txt", &a, NULL, why,
                     sizeof why);
    cr_assert_geq(n, 0, "%s", why);
    cr_assert_gt(n, 50000);
    cr_assert(strstr(a, "BYPASS") && strstr(a, "LOCAL") && strstr(a, "REMOTE 0x"));
    free(a);
}

/* One access per cycle; the decision of an access accepted in cycle t is on
 * the output in cycle t + 1; a range write lands at the edge (an access in
 * the same cycle sees the old range). */
Test(dualopt_scbu_lockstep, one_access_per_cycle_one_cycle_latency)
{
    const cohkit_unit_desc *u = cohkit_unit_find("dualopt-scbu");
    const dut_ops *d = ls_dut_find(dualopt_duts, u, "default");
    dualopt_scbu_cfg c;
    dualopt_scbu_tm *tm;
    uint64_t in[DUALOPT_SCBU_I_N], mo[DUALOPT_SCBU_O_N], ro[DUALOPT_SCBU_O_N];
    void *h;
    unsigned cyc, acc = 0, res = 0;
    cr_assert_not_null(d);
    dualopt_scbu_cfg_preset(&c, "default");
    tm = dualopt_scbu_tm_new(&c);
    h = d->create(1);
    for (cyc = 0; cyc < 120; cyc++) {
        memset(in, 0, sizeof in);
        in[DUALOPT_SCBU_I_RST] = cyc >= 2;
        in[DUALOPT_SCBU_I_RES_READY] = 1;
        if (cyc >= 4 && cyc < 104) {
            in[DUALOPT_SCBU_I_ACC_VALID] = 1;
            in[DUALOPT_SCBU_I_ACC_ADDR] = (uint64_t)(cyc & 1) << 33 | cyc;
        }
        /* GPU 2's range from cycle 50 on: written in cycle 49 */
        if (cyc == 49) {
            in[DUALOPT_SCBU_I_CFG_VALID] = 1;
            in[DUALOPT_SCBU_I_CFG_START] = 0x200000000ull;
            in[DUALOPT_SCBU_I_CFG_END] = 0x300000000ull;
        }
        dualopt_scbu_eval(tm, in, mo);
        d->eval(h, in, ro);
        if (cyc >= 2) {
            cr_assert_eq(memcmp(mo, ro, sizeof mo), 0, "cycle %u", cyc);
            if (ro[DUALOPT_SCBU_O_RES_VALID]) {
                unsigned from = cyc - 1; /* accepted one cycle before */
                int odd = from & 1, new_range = from >= 50;
                cr_assert_eq(ro[DUALOPT_SCBU_O_RES_ADDR], (uint64_t)odd << 33 | from);
                cr_assert_eq(ro[DUALOPT_SCBU_O_RES_LOCAL], (unsigned)(new_range ? odd : !odd), "cycle %u", cyc);
                res++;
            }
            if (in[DUALOPT_SCBU_I_ACC_VALID] && ro[DUALOPT_SCBU_O_ACC_READY])
                acc++;
        }
        dualopt_scbu_step(tm, in);
        d->tick(h);
    }
    cr_assert_eq(acc, 100, "one access per cycle");
    cr_assert_eq(res, 100);
    d->destroy(h);
    dualopt_scbu_tm_free(tm);
}
