/*
 * Criterion tests of the cycle-level Spandex system (tb/spandex/
 * spandex_vsys.c): the LLC at its ports - its timing shell, then the
 * committed Verilated spandex_llc_default beside its shell, every port
 * compared every cycle - with the C translation units. The Fig. 1a and 1c
 * programs and random programs on 2 and 4 devices pass the separate
 * checker (spandex-check) and give the shells' log byte for byte; a stuck
 * output bit of the Verilated LLC is caught by the port comparison and,
 * without it, by the checker or the watchdog; the latencies of the
 * docs' table. Run from the repository root (make unit).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spandex_test.h"

Test(spandex_vsys, fig1a_and_fig1c_pass_with_the_verilated_llc)
{
    spvsys_opts o;
    char *a = spandex_test_file("fig1a.prog"), *c = spandex_test_file("fig1c.prog");
    spandex_test_opts(&o, "gpu,gpu,denovo");
    spandex_test_both(&o, SPVSYS_RTL_LLC, a, "fig1a");
    spandex_test_both(&o, SPVSYS_RTL_LLC, c, "fig1c");
    free(a);
    free(c);
}

/* Random programs (evictions, revocations, write-backs, RMWs, racy words)
 * on 2 and 4 devices, at several latencies, some with FwdReqVs late
 * enough to be Nacked. */
static void random_runs(const char *devs, unsigned seeds)
{
    static const unsigned lat[][3] = {{2, 10, 0}, {1, 1, 0}, {5, 20, 12}, {3, 7, 30}};
    unsigned s;
    for (s = 1; s <= seeds; s++) {
        spvsys_opts o;
        char what[96], *p;
        spandex_test_opts(&o, devs);
        o.net_lat = lat[s % 4][0];
        o.mem_lat = lat[s % 4][1];
        o.fwdv_delay = lat[s % 4][2];
        o.sys.nack_limit = 1 + s % 2;
        p = spvsys_random_program(&o, 400, s);
        cr_assert(p);
        snprintf(what, sizeof what, "%s seed %u", devs, s);
        spandex_test_both(&o, SPVSYS_RTL_LLC, p, what);
        free(p);
    }
}

Test(spandex_vsys, random_programs_2_devices) { random_runs("gpu,denovo", 25); }
Test(spandex_vsys, random_programs_4_devices) { random_runs("denovo,gpu,denovo,gpu", 25); }

/* A stuck output bit of the Verilated LLC: the port comparison names the
 * port; without it the checker (or the system's watchdog) fails the run. */
Test(spandex_vsys, stuck_bit_caught_by_ports_then_by_checker_or_watchdog)
{
    static const spandex_stuck st[] = {{"out_mask_o", 0, 1, 0}, {"fwd_valid_o", 0, 0, 0}, {"out_data_o", 1, 1, 0},
                                       {"req_ready_o", 0, 0, 500}};
    char *prog;
    spvsys_opts o;
    spandex_test_opts(&o, "denovo,gpu,denovo,gpu");
    o.watchdog = 2000;
    prog = spvsys_random_program(&o, 300, 2);
    o.rtl = SPVSYS_RTL_LLC;
    spandex_test_stuck(&o, NULL, prog, st, sizeof st / sizeof st[0]);
    free(prog);
}

/* The latency table of docs/spandex.md ("Verilated system"): a ReqV served
 * by the LLC, by an owner, and a Nacked one with its replacement, at
 * --net-lat 2 --mem-lat 10 (--fwdv-delay 10 for the Nack). */
static uint64_t latency(const char *devs, const char *prog, unsigned fwdv, const char *op)
{
    spvsys_opts o;
    spandex_test_opts(&o, devs);
    o.fwdv_delay = fwdv;
    o.rtl = 1;
    return spandex_test_latency(&o, prog, op);
}

Test(spandex_vsys, latencies_of_the_docs_table)
{
    cr_expect_eq(latency("gpu,gpu", "STEP 80\nLD 0 0x1000\n", 0, "T 0 2 LD"), 20);
    cr_expect_eq(latency("gpu,gpu", "STEP 80\nLD 0 0x1000\nDRAIN\nLD 1 0x1000\n", 0, "T 1 4 LD"), 7);
    cr_expect_eq(latency("gpu,denovo", "STEP 80\nST 1 0x1000 0xa\nREL 1\nDRAIN\nLD 0 0x1000\n", 0,
                         "T 0 5 LD"),
                 9);
    cr_expect_eq(latency("gpu,denovo,denovo",
                         "STEP 80\nST 1 0x1000 0xa\nREL 1\nDRAIN\nLD 0 0x1000\nST 2 0x1000 0xb\nREL 2\nDRAIN\n",
                         10, "T 0 5 LD"),
                 33);
}

Test(spandex_vsys, bad_program_and_too_many_devices_refused)
{
    spvsys_opts o;
    spvsys_res r;
    char err[300];
    spandex_test_opts(&o, "gpu,gpu");
    cr_assert_eq(spvsys_run(&o, NULL, "LD 5 0x1000\n", &r, err, sizeof err), -1);
    cr_assert(strstr(err, "line 1"), "%s", err);
    spandex_test_opts(&o, "gpu,gpu,gpu,gpu,gpu");
    cr_assert_eq(spvsys_run(&o, NULL, "LD 0 0x1000\n", &r, err, sizeof err), -1);
    cr_assert(strstr(err, "device IDs"), "%s", err);
}

/* A ReqV of a line whose words 0-2 devices 1-3 own, and device 3's ReqWB
 * of word 2 sent in the same cycle: the LLC takes the write-back while the
 * third FwdReqV has still to leave; the log places the ReqWB's D line with
 * its RspWB (docs/paper-notes.md), so the checker passes. */
Test(spandex_vsys, writeback_beside_older_forwards)
{
    static const char *const prog = "STEP 80\nST 1 0x1000 0xa\nST 2 0x1004 0xb\nST 3 0x1008 0xc\n"
                                     "REL 1\nREL 2\nREL 3\nDRAIN\nLD 0 0x1000\nEVICT 3 0x1000\nDRAIN\n"
                                     "LD 0 0x1008\n";
    unsigned lat;
    for (lat = 1; lat <= 3; lat++) {
        spvsys_opts o;
        char what[32];
        const char *fwd, *wb;
        spvsys_res r;
        char err[300];
        spandex_test_opts(&o, "gpu,denovo,denovo,denovo");
        o.net_lat = lat;
        snprintf(what, sizeof what, "net-lat %u", lat);
        spandex_test_both(&o, SPVSYS_RTL_LLC, prog, what);
        o.rtl = 0;
        cr_assert_eq(spvsys_run(&o, NULL, prog, &r, err, sizeof err), 0, "%s", err);
        fwd = strstr(r.log, " L 3 FwdReqV 0x1000 0x4 ");
        wb = strstr(r.log, " L 3 RspWB ");
        cr_assert(fwd && wb && fwd < wb, "%s\n%s", what, r.log);
        spvsys_res_free(&r);
    }
}

/* ./tb_spandex --system: one line per run, PASS; bad options exit 2. */
Test(spandex_vsys, tb_spandex_system_runs_and_refuses)
{
    cmd_out r;
    run_cap(&r, "./tb_spandex --system --program tb/spandex/logs/fig1c.prog --devs gpu,gpu,denovo --times");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "shell LLC: ") && strstr(r.out, "log = shells'; ports = shell's every cycle"),
              "%s", r.out);
    cr_assert(strstr(r.out, "\nT 1 15 LD issued ") && strstr(r.out, "\nPASS\n"), "%s", r.out);
    cmd_out_free(&r);
    run_cap(&r, "./tb_spandex --system --random 100 --rtl llc --stuck out_mask_o:0:1");
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "MISMATCH cycle") && strstr(r.out, "\nFAIL\n"), "%s", r.out);
    cmd_out_free(&r);
    run_cap(&r, "./tb_spandex --system --devs gpu,cpu");
    cr_assert_eq(r.status, 2, "%s%s", r.out, r.err);
    cr_assert(strstr(r.err, "'1:cpu'") && r.out[0] == 0, "%s|%s", r.out, r.err);
    cmd_out_free(&r);
    /* MESI devices beside GPU and DeNovo ones, every device a Verilated
     * block (the MESI device at ID 3 outside the LLC's MESI list: its
     * owned words answered to a ReqS by option 3) */
    run_cap(&r, "./tb_spandex --system --devs gpu,mesi,denovo,mesi --random 200 --rtl all");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "checker: PASS SYS1-SYS8") && strstr(r.out, "\nPASS\n"), "%s", r.out);
    cmd_out_free(&r);
    run_cap(&r, "./tb_spandex --system --stuck out_mask_o:0:1 --rtl none");
    cr_assert_eq(r.status, 2, "%s%s", r.out, r.err);
    cmd_out_free(&r);
}
