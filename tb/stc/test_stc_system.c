/*
 * Criterion tests of the STC system level: the checker (stc-check) on
 * hand-written event logs, one per rule of specification 5.2 that must fire
 * and its corrected twin that must pass; the system model (stc-system) on
 * the Fig. 7 working example under every variant, the --no-lazy and S1
 * (--no-poison) failures, seeded random programs through system and checker
 * for every variant on 2, 4 and 8 CUs, and bad programs and logs.
 * Run from the repository root (make unit / make test-stc).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stc_check.h"
#include "stc_prog.h"
#include "stc_system.h"
#include "test_util.h"
#include "unit.h"

/* ------------------------------------------------------------ helpers -- */

/* The checker on `log` with options `opts`: its output (malloc). The
 * return value agrees with the verdict: 0 with RESULT PASS, 1 with FAIL. */
static char *check(const char *opts, const char *log)
{
    const cohkit_unit_desc *u = cohkit_unit_tool_find("stc-check");
    stc_chk_cfg c;
    char err[300], *out = NULL;
    size_t len = 0;
    FILE *in, *o;
    int rc;
    cr_assert_not_null(u);
    cr_assert_eq(cohkit_unit_cfg_parse_str(u, &c, opts, err, sizeof err), 0, "%s", err);
    in = fmemopen((void *)log, strlen(log), "r");
    o = open_memstream(&out, &len);
    cr_assert(in && o);
    rc = stc_check_run(&c, in, "log", o, stderr);
    fclose(in);
    fclose(o);
    cr_assert_eq(rc, strstr(out, "RESULT FAIL\n") ? 1 : 0, "exit %d with:\n%s", rc, out);
    return out;
}

static void fires(const char *opts, const char *log, const char *rule)
{
    char *out = check(opts, log), pat[64];
    snprintf(pat, sizeof pat, "VIOL %s @", rule);
    cr_assert(strstr(out, pat) != NULL, "rule %s did not fire:\n%s", rule, out);
    cr_assert(strstr(out, "RESULT FAIL\n") != NULL, "%s", out);
    free(out);
}

static void passes(const char *opts, const char *log)
{
    char *out = check(opts, log);
    cr_assert_str_eq(out, "RESULT PASS\n");
    free(out);
}

/* The system on program text: output (malloc), violations in *nv. */
static char *sys_run(const char *opts, const char *prog, long *nv, stc_sys_stats *st)
{
    const cohkit_unit_desc *u = cohkit_unit_tool_find("stc-system");
    stc_sys_cfg c;
    stc_prog p;
    char err[300], *out = NULL;
    size_t len = 0;
    FILE *in, *o;
    long v;
    cr_assert_not_null(u);
    cr_assert_eq(cohkit_unit_cfg_parse_str(u, &c, opts, err, sizeof err), 0, "%s", err);
    in = fmemopen((void *)prog, strlen(prog), "r");
    cr_assert_not_null(in);
    cr_assert_eq(stc_prog_read(in, c.emu.cus, c.emu.addr_bits, &p, err, sizeof err), 0, "%s", err);
    fclose(in);
    o = open_memstream(&out, &len);
    v = stc_sys_run(&c, &p, 0, o, NULL, st);
    fclose(o);
    stc_prog_free(&p);
    cr_assert_geq(v, 0);
    if (nv)
        *nv = v;
    return out;
}

/* ------------------------------------------------ checker: every rule -- */

/* A transition of 2 CUs to epoch set E at SEB 12, cycles t..t+4. */
#define TR(t, E) \
    #t " PREP\n" #t " READY 0\n" #t " READY 1\n" #t " CHG " E " 12\n" #t " CER 0 " E " 12\n" \
    #t " CER 1 " E " 12\n" #t " DONE 0\n" #t " DONE 1\n" #t " END " E " 12\n"

Test(stc_check, clean_log_passes)
{
    passes("", "0 INIT 0x3040 7\n1 BLK 0 0x3040\n3 RD 1 0x3040 7\n5 FILL 1 0x3040\n"
               "6 HIT 1 0x3040 7\n6 LDV 1 0x3040 7\n10 PREP\n12 READY 0\n12 READY 1\n"
               "14 CHG 3 12\n16 INV 1 0x3040\n16 CER 0 3 12\n16 ISS 0 0x3040\n16 CER 1 3 12\n"
               "16 DONE 0\n16 DONE 1\n18 END 3 12\n20 PERF 0 0x3040 9\n30 WA 0 0x3040\n"
               "31 RD 1 0x3040 9\n32 LDV 1 0x3040 9\n40 SLEEP\n");
}

Test(stc_check, er2_store_issued_outside_its_epoch)
{
    fires("", "0 ISS 0 0x3040\n", "ER2");
    passes("", "0 ISS 0 0x0040\n1 PERF 0 0x0040 1\n2 WA 0 0x0040\n");
}

Test(stc_check, er2_store_performed_outside_the_epoch)
{
    fires("", TR(1, "3") "4 PERF 0 0x5000 1\n", "ER2");
    passes("", TR(1, "3") "3 ISS 0 0x3000\n4 PERF 0 0x3000 1\n5 WA 0 0x3000\n");
}

Test(stc_check, er3_cus_disagree_at_a_store)
{
    /* cu 1 never takes the epoch the store was performed in */
    fires("", "0 PREP\n1 READY 0\n1 READY 1\n2 CHG 3 12\n3 CER 0 3 12\n3 ISS 0 0x3040\n"
              "4 PERF 0 0x3040 1\n", "ER3");
    fires("", "0 PREP\n1 READY 0\n1 READY 1\n2 CHG 3 12\n3 CER 0 4 12\n", "ER3");
    fires("--cus 2", "0 PREP\n1 READY 0\n1 READY 1\n2 CHG 3 12\n3 CER 0 3 13\n", "ER3");
}

Test(stc_check, er1_fill_or_hit_of_a_current_band)
{
    fires("", "0 FILL 1 0x0040\n", "ER1");
    fires("", "0 FILL 1 0x5040\n" TR(2, "5") "9 HIT 1 0x5040 0\n", "ER1");
    passes("", "0 FILL 1 0x5040\n1 HIT 1 0x5040 0\n");
    /* multi-band CER: both bands are current */
    fires("--epoch 0,5", "0 FILL 1 0x5040\n", "ER1");
}

Test(stc_check, sweep_line_of_the_ending_band_survives)
{
    fires("", TR(1, "3") "5 FILL 1 0x5040\n" TR(9, "5") TR(20, "6"), "sweep");
    /* invalidated (lazily or by the sweep) before the CU leaves: clean */
    passes("", TR(1, "3") "5 FILL 1 0x5040\n" TR(9, "5") "15 INV 1 0x5040\n" TR(20, "6"));
}

Test(stc_check, sweep_uses_the_old_seb)
{
    /* line 0x5040 is band 5 at SEB 12 but band 2 at SEB 13 */
    fires("", TR(1, "3") "5 FILL 1 0x5040\n"
              "9 PREP\n9 READY 0\n9 READY 1\n9 CHG 5 12\n9 CER 0 5 12\n9 CER 1 5 12\n"
              "9 DONE 0\n9 DONE 1\n9 END 5 12\n"
              "20 PREP\n20 READY 0\n20 READY 1\n20 CHG 2 13\n20 CER 1 2 13\n", "sweep");
}

Test(stc_check, stale_hit)
{
    const char *head = "0 INIT 0x3040 1\n1 RD 1 0x3040 1\n2 FILL 1 0x3040\n" TR(3, "3")
                       "6 ISS 0 0x3040\n7 PERF 0 0x3040 2\n8 WA 0 0x3040\n" TR(9, "4");
    char log[2048];
    snprintf(log, sizeof log, "%s20 HIT 1 0x3040 1\n", head);
    fires("", log, "stale");
    /* the same hit of the value memory holds: only the sweep rule sees the line */
    snprintf(log, sizeof log, "%s20 HIT 1 0x3040 2\n", head);
    {
        char *out = check("", log);
        cr_assert(strstr(out, "VIOL stale") == NULL, "%s", out);
        free(out);
    }
}

Test(stc_check, handshake_order)
{
    fires("", "0 ISS 0 0x0040\n1 PREP\n2 READY 0\n", "handshake");        /* store outstanding */
    fires("", "0 PREP\n1 READY 0\n2 CHG 3 12\n", "handshake");            /* ReadyAck missing */
    fires("", "0 PREP\n1 READY 0\n2 ISS 0 0x0040\n", "handshake");        /* store after ReadyAck */
    fires("", "0 READY 0\n", "handshake");                               /* no PrepareEpochChange */
    fires("", "0 PREP\n1 READY 0\n1 READY 1\n2 CHG 3 12\n3 END 3 12\n", "handshake"); /* DoneAcks */
    passes("", "0 ISS 0 0x0040\n1 PREP\n2 PERF 0 0x0040 5\n3 WA 0 0x0040\n4 READY 0\n4 READY 1\n"
               "5 CHG 3 12\n5 CER 0 3 12\n5 CER 1 3 12\n6 DONE 1\n6 DONE 0\n7 END 3 12\n");
}

Test(stc_check, progress_bound_of_change_epochs)
{
    /* ES, N = 2: K = 2^2 + 1 = 5 ChangeEpochs */
    char log[4096] = "0 BLK 0 0x3040\n";
    int i;
    for (i = 1; i <= 6; i++) {
        char tr[256];
        snprintf(tr, sizeof tr, "%d PREP\n%d READY 0\n%d READY 1\n%d CHG 1 12\n%d CER 0 1 12\n"
                 "%d CER 1 1 12\n%d DONE 0\n%d DONE 1\n%d END 1 12\n",
                 10 * i, 10 * i, 10 * i, 10 * i, 10 * i, 10 * i, 10 * i, 10 * i, 10 * i);
        strcat(log, tr);
        if (i == 5) {
            char *out = check("--variant es --n 2", log);
            cr_assert(strstr(out, "VIOL progress @50") != NULL, "%s", out); /* left at the end */
            free(out);
        }
    }
    {
        char *out = check("--variant es --n 2", log);
        cr_assert(strstr(out, "VIOL progress @60 cu 0 store 0x3040 blocked @0 still blocked after 5")
                  != NULL, "%s", out);
        free(out);
    }
    /* AB with the guard: K = 2 * 2^2 + 1 = 9, so six are within the bound */
    strcat(log, "70 ISS 0 0x3040\n");
    {
        char *out = check("--variant ab --n 2 --epoch 0", log);
        cr_assert(strstr(out, "progress") == NULL, "%s", out);
        free(out);
    }
    /* without the guard there is no bound, only the end-of-run check */
    fires("--variant ab --seb-guard 0", "0 BLK 0 0x3040\n", "progress");
}

Test(stc_check, l2_read_of_a_wrong_value)
{
    fires("", "0 INIT 0x40 5\n1 RD 0 0x40 6\n", "L2");
    passes("", "0 INIT 0x40 5\n1 RD 0 0x40 5\n");
}

Test(stc_check, hit_on_a_line_never_filled)
{
    fires("", "0 HIT 0 0x1040 0\n", "hit");
    fires("", "0 FILL 0 0x1040\n1 INV 0 0x1040\n2 HIT 0 0x1044 0\n", "hit");
    passes("", "0 FILL 0 0x1040\n2 HIT 0 0x107c 0\n");
}

Test(stc_check, violations_sorted_by_cycle_then_rule)
{
    char *out = check("", "0 HIT 0 0x0040 3\n0 ISS 1 0x3040\n1 RD 0 0x40 9\n");
    cr_assert_str_eq(out,
                     "VIOL ER1 @0 cu 0 hits 0x40 (band 0) in CER 0 seb 12\n"
                     "VIOL ER2 @0 cu 1 issues 0x3040 (band 3) outside CER 0 seb 12\n"
                     "VIOL hit @0 cu 0 hits 0x40 in line 0x40, not valid\n"
                     "VIOL stale @0 cu 0 hits 0x40 = 3, L2 holds 0\n"
                     "VIOL L2 @1 cu 0 reads 0x40 = 9, L2 holds 0\n"
                     "RESULT FAIL\n");
    free(out);
}

/* ------------------------------------------------- checker: bad input -- */

Test(stc_check, bad_logs_exit_2_with_the_line_and_no_output)
{
    static const struct {
        const char *log, *needle;
    } bad[] = {
        {"0 PREP\n1 FOO 1\n", "line 2: unknown event 'FOO'"},
        {"0 READY 2\n", "line 1: READY: bad CU '2'"},
        {"5 PREP\n# c\n\n4 PREP\n", "line 4: cycle 4 before cycle 5"},
        {"0 CHG 3,3 12\n", "line 1: CHG: bad epoch set '3,3'"},
        {"0 CHG 16 12\n", "line 1: CHG: bad epoch set '16'"},
        {"0 INIT 0x40 4294967296\n", "line 1: INIT: bad value"},
        {"0 INIT 0x100000000 1\n", "line 1: INIT: bad address"},
        {"0 ISS 0\n", "line 1: ISS: missing field"},
        {"0 WA 0 0x40 7\n", "line 1: WA: unexpected '7'"},
        {"x PREP\n", "line 1: bad cycle 'x'"},
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        model_refuses("stc-check", "", bad[i].log, bad[i].needle);
    model_refuses("stc-check", "--variant xx", "", "xx");
    model_refuses("stc-check", "--epoch 16", "", "16");
}

/* The verdict is the exit status too (docs/stc.md "Checker"): 0 PASS,
 * 1 FAIL with the whole output, 2 bad input with none. */
Test(stc_check, exit_status_0_pass_1_fail_with_its_output)
{
    FILE *f = fopen("build/t_stc_rc.log", "w");
    char *o;
    cr_assert_not_null(f);
    fputs("0 INIT 0x40 1\n2 RD 1 0x40 2\n3 ISS 0 0x3040\n", f);
    fclose(f);
    cr_assert_eq(run("build/bin/cohmodel stc-check < build/t_stc_rc.log > build/t_stc_rc.out "
                     "2> build/t_stc_rc.err"), 1);
    o = slurp("build/t_stc_rc.out");
    cr_assert_str_eq(o, "VIOL L2 @2 cu 1 reads 0x40 = 2, L2 holds 1\n"
                        "VIOL ER2 @3 cu 0 issues 0x3040 (band 3) outside CER 0 seb 12\n"
                        "RESULT FAIL\n");
    free(o);
    o = slurp("build/t_stc_rc.err");
    cr_assert_str_eq(o, "");
    free(o);
    f = fopen("build/t_stc_rc.log", "w");
    cr_assert_not_null(f);
    fputs("0 INIT 0x40 1\n2 RD 1 0x40 1\n3 ISS 0 0x0040\n", f);
    fclose(f);
    cr_assert_eq(run("build/bin/cohmodel stc-check < build/t_stc_rc.log > build/t_stc_rc.out"), 0);
    o = slurp("build/t_stc_rc.out");
    cr_assert_str_eq(o, "RESULT PASS\n");
    free(o);
    /* the system model: its verdict (the checker's on its log) likewise */
    cr_assert_eq(run("build/bin/cohmodel stc-system --variant es --l2-lat 20 --mem-lat 20 --no-lazy "
                     "< tb/stc/fig7.prog > build/t_stc_rc.out"), 1);
    o = slurp("build/t_stc_rc.out");
    cr_assert(strstr(o, "LDV 1 4 0x3040 0\n") && strstr(o, "VIOL stale @") &&
              strstr(o, "RESULT FAIL\n# transitions="), "%s", o);
    free(o);
    cr_assert_eq(run("build/bin/cohmodel stc-system --variant es --l2-lat 20 --mem-lat 20 "
                     "< tb/stc/fig7.prog > build/t_stc_rc.out"), 0);
    o = slurp("build/t_stc_rc.out");
    cr_assert(strstr(o, "RESULT PASS\n# transitions="), "%s", o);
    free(o);
    remove("build/t_stc_rc.log");
    remove("build/t_stc_rc.out");
    remove("build/t_stc_rc.err");
}

/* ------------------------------------------- system: the working example -- */

/* Fig. 7 (spec 4 and 10): U 0x3040, V 0x2080, W 0x10C0, X 0x5100. */
static const char fig7[] =
    "0 ST 0x3040 1\n0 ST 0x2080 1\n0 ST 0x10C0 1\n0 STREL 0x5100 1\n"
    "1 LD 0x3040\n1 LD 0x2080\n1 LD 0x10C0\n1 LDACQ 0x5100 1\n"
    "1 LD 0x3040\n1 LD 0x2080\n1 LD 0x10C0\n";

static const char fig7_values[] =
    "LDV 1 0 0x3040 0\nLDV 1 1 0x2080 0\nLDV 1 2 0x10c0 0\nLDV 1 3 0x5100 1\n"
    "LDV 1 4 0x3040 1\nLDV 1 5 0x2080 1\nLDV 1 6 0x10c0 1\n"
    "MEM 0x10c0 1\nMEM 0x2080 1\nMEM 0x3040 1\nMEM 0x5100 1\nRESULT PASS\n";

Test(stc_system, fig7_outcome_in_every_variant)
{
    static const struct {
        const char *v, *epochs;
    } w[] = {
        {"nv", "EPOCH 1 12\nEPOCH 2 12\nEPOCH 3 12\nEPOCH 4 12\nEPOCH 5 12\n"},
        {"es", "EPOCH 1 12\nEPOCH 2 12\nEPOCH 3 12\nEPOCH 5 12\n"},
        {"ab", "EPOCH 1 12\nEPOCH 2 12\nEPOCH 3 12\nEPOCH 5 12\n"},
        {"mb", "EPOCH 1,2,3 12\nEPOCH 5 12\n"},
    };
    size_t i;
    for (i = 0; i < 4; i++) {
        char opts[128], want[1024], *out, *hash;
        long nv;
        snprintf(opts, sizeof opts, "--variant %s --l2-lat 20 --mem-lat 20", w[i].v);
        out = sys_run(opts, fig7, &nv, NULL);
        hash = strstr(out, "# transitions=");
        cr_assert_not_null(hash, "%s", out);
        *hash = '\0';
        snprintf(want, sizeof want, "%s%s", w[i].epochs, fig7_values);
        cr_assert_str_eq(out, want, "variant %s", w[i].v);
        cr_assert_eq(nv, 0);
        free(out);
    }
}

Test(stc_system, fig7_stores_complete_w_v_u)
{
    /* the event log: PERF of W, then V, then U, though issued U, V, W */
    char *log;
    const char *w, *v, *u;
    cr_assert_eq(run("build/bin/cohmodel stc-system --variant es --l2-lat 20 --mem-lat 20 "
                     "--log build/t_stc_fig7.log < tb/stc/fig7.prog > build/t_stc_fig7.out"), 0);
    log = slurp("build/t_stc_fig7.log");
    cr_assert_not_null(log);
    w = strstr(log, "PERF 0 0x10c0 1");
    v = strstr(log, "PERF 0 0x2080 1");
    u = strstr(log, "PERF 0 0x3040 1");
    cr_assert(w && v && u && w < v && v < u, "%s", log);
    /* both lazy invalidation and the sweep remove cache 1's copies */
    cr_assert(strstr(log, " INV 1 0x10c0\n") && strstr(log, " INV 1 0x2080\n") &&
              strstr(log, " INV 1 0x3040\n"));
    free(log);
    /* the separate checker on the system's log agrees with the system */
    cr_assert_eq(run("build/bin/cohmodel stc-check < build/t_stc_fig7.log > build/t_stc_fig7.chk"), 0);
    log = slurp("build/t_stc_fig7.chk");
    cr_assert_str_eq(log, "RESULT PASS\n");
    free(log);
}

/* The specification's bare --log prints the event log in place of the
 * output: the same log as --log FILE, and stc-check reads it from a pipe.
 * N = 1 needs no --mb-max (the CU's default follows the EMU's, min(4, 2^N)). */
Test(stc_system, bare_log_prints_the_event_log_and_n1_needs_no_mb_max)
{
    char *a, *b;
    cr_assert_eq(run("build/bin/cohmodel stc-system --variant es --l2-lat 20 --mem-lat 20 "
                     "--log build/t_stc_log_file.log < tb/stc/fig7.prog > /dev/null"), 0);
    cr_assert_eq(run("build/bin/cohmodel stc-system --variant es --l2-lat 20 --mem-lat 20 "
                     "--log < tb/stc/fig7.prog > build/t_stc_log_bare.log"), 0);
    cr_assert_eq(run("build/bin/cohmodel stc-system --log --variant es --l2-lat 20 --mem-lat 20 "
                     "< tb/stc/fig7.prog > build/t_stc_log_first.log"), 0);
    a = slurp("build/t_stc_log_file.log");
    b = slurp("build/t_stc_log_bare.log");
    cr_assert(a && b && strstr(b, " PERF 0 0x10c0 1"), "%s", b);
    cr_assert_str_eq(a, b);
    free(b);
    b = slurp("build/t_stc_log_first.log");
    cr_assert_str_eq(a, b, "--log before the options");
    free(a);
    free(b);
    cr_assert_eq(run("build/bin/cohmodel stc-system --variant es --log < tb/stc/fig7.prog | "
                     "build/bin/cohmodel stc-check > build/t_stc_log_pipe.chk"), 0);
    a = slurp("build/t_stc_log_pipe.chk");
    cr_assert_str_eq(a, "RESULT PASS\n");
    free(a);
    cr_assert_eq(run("build/bin/cohmodel stc-system --n 1 < tb/stc/fig7.prog "
                     "> build/t_stc_n1.out 2>&1"), 0, "N = 1 without --mb-max");
    a = slurp("build/t_stc_n1.out");
    cr_assert(strstr(a, "RESULT PASS"), "%s", a);
    free(a);
}

Test(stc_system, fig7_without_lazy_invalidation_reads_stale_zeros)
{
    long nv;
    char *out = sys_run("--variant es --l2-lat 20 --mem-lat 20 --no-lazy", fig7, &nv, NULL);
    cr_assert(strstr(out, "LDV 1 4 0x3040 0\nLDV 1 5 0x2080 0\nLDV 1 6 0x10c0 0\n"), "%s", out);
    cr_assert(strstr(out, "VIOL stale @") && strstr(out, "VIOL sweep @"), "%s", out);
    cr_assert(strstr(out, "RESULT FAIL\n"));
    cr_assert_gt(nv, 0);
    free(out);
}

/* ------------------------------------------------- system: S1 (poison) -- */

/* CU 1 loads X (band 3) cacheably in epoch 0; the load reads the old value
 * at the L2, and its response (CU 1 is slow) returns only after epoch 3 (the
 * store of X performs) and epoch 4. */
static const char s1[] = "0 ST 0x3000 1\n0 ST 0x4000 1\n1 LD 0x3000\n1 LD 0x3000\n";
#define S1_OPTS "--variant es --l2-lat 20 --mem-lat 20 --slow-cu 1:300"

Test(stc_system, s1_stale_value_without_poison_none_with_it)
{
    long nv;
    char *out = sys_run(S1_OPTS " --no-poison", s1, &nv, NULL);
    cr_assert(strstr(out, "EPOCH 3 12\nEPOCH 4 12\n"), "%s", out);
    cr_assert(strstr(out, "LDV 1 1 0x3000 0\n"), "%s", out);   /* stale */
    cr_assert(strstr(out, "MEM 0x3000 1\n"), "%s", out);
    cr_assert(strstr(out, "VIOL stale @320 cu 1 hits 0x3000 = 0, L2 holds 1\n"), "%s", out);
    cr_assert_eq(nv, 1);
    free(out);
    out = sys_run(S1_OPTS, s1, &nv, NULL);
    cr_assert(strstr(out, "EPOCH 3 12\nEPOCH 4 12\n"), "%s", out);
    cr_assert(strstr(out, "LDV 1 1 0x3000 1\n"), "%s", out);   /* fresh */
    cr_assert(strstr(out, "RESULT PASS\n"), "%s", out);
    cr_assert_eq(nv, 0);
    free(out);
    /* with one fixed latency (no slow CU) the literal Table 1 is safe */
    out = sys_run("--variant es --l2-lat 20 --mem-lat 20 --no-poison", s1, &nv, NULL);
    cr_assert_eq(nv, 0, "%s", out);
    free(out);
}

/* ------------------------------------------ system: random programs -- */

Test(stc_system, random_programs_pass_the_checker_in_every_variant, .timeout = 60)
{
    static const char *const var[] = {"nv", "es", "ab", "mb"};
    static const unsigned cus[] = {2, 4, 8};
    uint64_t seb_moves = 0, seb_up_down = 0;
    size_t v, k;
    uint64_t seed;
    for (v = 0; v < 4; v++)
        for (k = 0; k < 3; k++)
            for (seed = 1; seed <= 3; seed++) {
                stc_gen_cfg g;
                stc_prog p;
                char *txt = NULL, *out, opts[160];
                size_t len = 0;
                long nv;
                stc_sys_stats st;
                FILE *f = open_memstream(&txt, &len);
                stc_gen_cfg_default(&g);
                g.cus = cus[k];
                cr_assert_eq(stc_prog_random(&g, seed * 7919 + k, &p), 0);
                stc_prog_write(&p, f);
                fclose(f);
                stc_prog_free(&p);
                snprintf(opts, sizeof opts,
                         "--variant %s --cus %u --wake 30 --l2-lat 20 --mem-lat 40", var[v], cus[k]);
                out = sys_run(opts, txt, &nv, &st);
                cr_assert_eq(nv, 0, "%s seed %llu:\n%s\nprogram:\n%s", opts,
                             (unsigned long long)seed, out, txt);
                cr_assert(!st.timeout);
                if (v >= 2) {
                    seb_moves += st.seb_changes;
                    seb_up_down += st.seb_changes >= 2;
                } else {
                    cr_assert_eq(st.seb_changes, 0);
                }
                free(out);
                free(txt);
            }
    /* conflicts whose pairs differ above the band field move SEB (spec 8) */
    cr_assert_gt(seb_moves, 0);
    cr_assert_gt(seb_up_down, 0);
}

Test(stc_system, random_programs_catch_the_literal_table_1_and_no_lazy)
{
    /* the same generator, run on broken units: the checker must object */
    stc_gen_cfg g;
    stc_prog p;
    char *txt = NULL, *out;
    size_t len = 0;
    long nv;
    uint64_t seed, fails = 0;
    for (seed = 1; seed <= 4; seed++) {
        FILE *f = open_memstream(&txt, &len);
        stc_gen_cfg_default(&g);
        g.cus = 4;
        cr_assert_eq(stc_prog_random(&g, seed, &p), 0);
        stc_prog_write(&p, f);
        fclose(f);
        stc_prog_free(&p);
        out = sys_run("--variant es --cus 4 --wake 30 --l2-lat 20 --mem-lat 40 --no-lazy", txt, &nv,
                      NULL);
        fails += nv > 0;
        free(out);
        free(txt);
        txt = NULL;
    }
    cr_assert_gt(fails, 0);
}

Test(stc_system, generator_is_deterministic_and_readable)
{
    stc_gen_cfg g;
    stc_prog a, b;
    char *ta = NULL, *tb = NULL, err[200];
    size_t la = 0, lb = 0;
    FILE *f;
    stc_gen_cfg_default(&g);
    g.cus = 3;
    cr_assert_eq(stc_prog_random(&g, 42, &a), 0);
    cr_assert_eq(stc_prog_random(&g, 42, &b), 0);
    f = open_memstream(&ta, &la);
    stc_prog_write(&a, f);
    fclose(f);
    f = open_memstream(&tb, &lb);
    stc_prog_write(&b, f);
    fclose(f);
    cr_assert_str_eq(ta, tb);
    stc_prog_free(&b);
    f = fmemopen(ta, la, "r");
    cr_assert_eq(stc_prog_read(f, 3, 32, &b, err, sizeof err), 0, "%s", err);
    fclose(f);
    cr_assert_eq(b.nops[0], a.nops[0]);
    cr_assert_eq(b.nmem, a.nmem);
    stc_prog_free(&a);
    stc_prog_free(&b);
    free(ta);
    free(tb);
    /* the tool's --gen prints the same program */
    cr_assert_eq(run("build/bin/cohmodel stc-system --cus 3 --gen 42 | grep -v '^#' > build/t_stc_gen.prog"), 0);
}

/* ------------------------------------------------ system: bad programs -- */

Test(stc_system, bad_programs_exit_2_with_the_line_and_no_output)
{
    static const struct {
        const char *prog, *needle;
    } bad[] = {
        {"0 ST 0x40 1\n2 LD 0x40\n", "line 2: bad CU '2'"},
        {"# c\n0 JMP 0x40\n", "line 2: unknown operation 'JMP'"},
        {"0 ST 0x42 1\n", "line 1: ST: bad address '0x42'"},
        {"0 ST 0x40 4294967296\n", "line 1: ST: bad value '4294967296'"},
        {"0 ST 0x40\n", "line 1: ST: bad value ''"},
        {"0 LD 0x40 5\n", "line 1: LD: unexpected '5'"},
        {"0 WAIT 3\n", "line 1: WAIT: unexpected '3'"},
        {"0 NOP\n", "line 1: NOP: bad cycle count ''"},
        {"MEM 0x40\n", "line 1: MEM: bad value ''"},
        {"0 LDACQ 0x100000000 1\n", "line 1: LDACQ: bad address"},
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        model_refuses("stc-system", "--log build/t_stc_bad_prog.log", bad[i].prog, bad[i].needle);
    model_refuses("stc-system", "--variant zz", "", "zz");
    model_refuses("stc-system", "--slow-cu 5:10", "", "--slow-cu: CU 5");
    model_refuses("stc-system", "--gen x", "", "x");
}

Test(stc_system, timeout_is_a_violation)
{
    long nv;
    /* the acquire waits for a value nobody writes */
    char *out = sys_run("--max-cycles 500", "0 LDACQ 0x40 7\n", &nv, NULL);
    cr_assert(strstr(out, "VIOL timeout @500 "), "%s", out);
    cr_assert(strstr(out, "RESULT FAIL\n"));
    cr_assert_eq(nv, 1);
    free(out);
}

/* Spec 10: on an idle GPU NV makes one transition per wake-up period plus a
 * handshake, ES none. 8 CUs (tb/stc/bench/idle.prog: every CU NOP 20000),
 * message latency 2: PrepareEpochChange to the last DoneAck is 4 messages,
 * 8 cycles, in every transition; 20,000 / (100 + 8) -> 185 transitions. */
Test(stc_system, idle_gpu_nv_handshake_8_cycles_at_8_cus_es_none)
{
    char *log, *p;
    unsigned long prep = 0, n = 0, t;
    char ev[16];
    cr_assert_eq(run("build/bin/cohmodel stc-system --cus 8 --variant nv --log build/t_stc_idle.log "
                     "< tb/stc/bench/idle.prog > build/t_stc_idle.out"), 0);
    log = slurp("build/t_stc_idle.log");
    cr_assert_not_null(log);
    for (p = log; sscanf(p, "%lu %15s", &t, ev) == 2; p = strchr(p, '\n') + 1) {
        if (strcmp(ev, "PREP") == 0)
            prep = t;
        else if (strcmp(ev, "END") == 0) {
            cr_assert_eq(t - prep, 8, "handshake at %lu", prep);
            n++;
        }
        if (strchr(p, '\n') == NULL)
            break;
    }
    free(log);
    cr_assert_eq(n, 185);
    log = slurp("build/t_stc_idle.out");
    cr_assert(strstr(log, "# transitions=185 sleeps=0 "), "%s", log);
    free(log);
    cr_assert_eq(run("build/bin/cohmodel stc-system --cus 8 --variant es "
                     "< tb/stc/bench/idle.prog > build/t_stc_idle.out"), 0);
    log = slurp("build/t_stc_idle.out");
    cr_assert(strstr(log, "# transitions=0 sleeps=200 "), "%s", log);
    free(log);
    remove("build/t_stc_idle.log");
    remove("build/t_stc_idle.out");
}
