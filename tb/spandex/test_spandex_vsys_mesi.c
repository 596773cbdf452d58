/*
 * Criterion tests of the cycle-level Spandex system with MESI devices as
 * spandex-tu blocks (suite spandex_vsys_mesi): the MESI L1 of
 * tb/spandex/spandex_vsys_tu.c on the cache ports of spandex_tu_mesi
 * (timing shell, then Verilated), beside GPU and DeNovo blocks and the
 * LLC (spandex_llc_default: devices 0 and 1 MESI for the paper's ReqS
 * policy), every port of every block compared every cycle.
 * Fig. 1b and 1d, random programs and spandex-prog's data-race-free
 * programs pass the checker and give the shells' log byte for byte; a
 * stuck output bit of a Verilated MESI unit is named by the port
 * comparison and, without it, fails the run; the latencies of the docs'
 * text. Run from the repository root (make unit).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spandex_test.h"

/* The system with every device a spandex-tu block. */
static void opts(spvsys_opts *o, const char *devs) { spandex_test_tu_opts(o, devs); }

/* Fig. 1b and 1d (the CPU, device 0, a MESI block): the Verilated LLC,
 * then the TUs, then both. */
Test(spandex_vsys_mesi, fig1b_and_fig1d_one_kind_at_a_time_then_all)
{
    spvsys_opts o;
    opts(&o, "mesi,gpu");
    spandex_test_staged(&o, "fig1b", "fig1d");
}

/* Random programs (loads and stores sharing lines, RMWs, evictions,
 * ACQ/REL, racy words) on MESI, GPU and DeNovo blocks at several latencies,
 * some FwdReqVs late enough to be Nacked, everything Verilated. */
Test(spandex_vsys_mesi, random_programs_mesi_gpu_denovo)
{
    static const char *const devs[] = {"mesi,mesi,gpu,denovo", "mesi,gpu", "mesi,mesi", "mesi,denovo,gpu",
                                       "denovo,mesi,gpu,mesi"};
    static const unsigned lat[][3] = {{2, 10, 0}, {1, 1, 0}, {5, 20, 12}, {3, 7, 30}};
    unsigned s;
    for (s = 1; s <= 10; s++) {
        spvsys_opts o;
        char what[96], *p;
        opts(&o, devs[s % 5]);
        o.net_lat = lat[s % 4][0];
        o.mem_lat = lat[s % 4][1];
        o.fwdv_delay = lat[s % 4][2];
        p = spvsys_random_program(&o, 400, 200 + s);
        cr_assert(p);
        snprintf(what, sizeof what, "%s seed %u", devs[s % 5], 200 + s);
        spandex_test_both(&o, SPVSYS_RTL_LLC | SPVSYS_RTL_TU, p, what);
        free(p);
    }
}

/* spandex-prog's data-race-free programs (every pattern) on MESI, GPU and
 * DeNovo blocks, everything Verilated. */
Test(spandex_vsys_mesi, spandex_prog_programs)
{
    static const char *const vlist[] = {"mesi,mesi,gpu,denovo", "mesi,gpu"};
    unsigned c, seed;
    for (c = 0; c < 2; c++)
        for (seed = 1; seed <= 6; seed++) {
            spvsys_opts o;
            opts(&o, vlist[c]);
            spandex_test_prog(&o, vlist[c], seed, seed + c);
        }
}

/* A stuck output bit of device 0's Verilated spandex_tu_mesi (its cache
 * side: the owned line of an answer, the probe and its answer, the data;
 * its requests): the port comparison names the block and port; without it
 * the L1's check of the unit's answers, err_o, the watchdog or the checker
 * fails the run; ./tb_spandex --system does the same from its options. */
Test(spandex_vsys_mesi, stuck_bit_of_a_mesi_tu_caught_by_ports_then_by_checker)
{
    static const spandex_stuck st[] = {{"c_rsp_own_o", 0, 1, 0},    {"c_pdat_ready_o", 0, 0, 300},
                                       {"c_prb_valid_o", 0, 0, 300}, {"c_prb_down_o", 0, 0, 0},
                                       {"c_rsp_data_o", 1, 1, 0},    {"req_type_o", 0, 1, 300}};
    char *prog;
    spvsys_opts o;
    cmd_out r;
    opts(&o, "mesi,mesi,gpu,denovo");
    o.watchdog = 2000;
    o.fwdv_delay = 12;
    prog = spvsys_random_program(&o, 300, 2);
    o.rtl = SPVSYS_RTL_LLC | SPVSYS_RTL_TU;
    spandex_test_stuck(&o, "tu0", prog, st, sizeof st / sizeof st[0]);
    free(prog);
    run_cap(&r, "./tb_spandex --system --random 200 --devs mesi,mesi,gpu,denovo --rtl tu");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "Verilated TUs beside their shells: ") && strstr(r.out, "\nPASS\n"), "%s", r.out);
    cmd_out_free(&r);
    run_cap(&r, "./tb_spandex --system --random 300 --seed 2 --devs mesi,mesi,gpu,denovo --rtl all "
                "--stuck tu0.c_prb_down_o:0:0");
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "tu0 port c_prb_down_o") && strstr(r.out, "\nFAIL\n"), "%s", r.out);
    cmd_out_free(&r);
}

/* Cycles from an operation's issue (the cycle the unit takes the L1's
 * c_req) to its V or C line with the Verilated TUs and LLC on mesi,mesi
 * (the docs' figures): a ReqS missing in the LLC, served by the LLC, and
 * forwarded to the MESI owner (option 1, FwdReqS); a store to the owned
 * line (FwdReqO+data). */
static uint64_t latency(const char *prog, unsigned net, unsigned mem, const char *op)
{
    spvsys_opts o;
    opts(&o, "mesi,mesi");
    o.net_lat = net;
    o.mem_lat = mem;
    o.rtl = SPVSYS_RTL_LLC | SPVSYS_RTL_TU;
    return spandex_test_latency(&o, prog, op);
}

Test(spandex_vsys_mesi, latencies_of_the_docs_text)
{
    static const char *const served = "STEP 80\nLD 1 0x1000\nDRAIN\nEVICT 1 0x1000\nDRAIN\nLD 0 0x1000\n";
    static const char *const owner = "STEP 80\nST 1 0x1000 0xa\nREL 1\nDRAIN\nLD 0 0x1000\n";
    static const char *const store = "STEP 80\nST 1 0x1000 0xa\nREL 1\nDRAIN\nST 0 0x1004 0xb\n";
    static const unsigned lat[][2] = {{1, 1}, {2, 10}, {5, 20}};
    static const uint64_t want[][4] = {{13, 9, 16, 16}, {24, 11, 19, 19}, {40, 17, 28, 28}};
    unsigned i;
    for (i = 0; i < 3; i++) {
        cr_expect_eq(latency("STEP 80\nLD 0 0x1000\n", lat[i][0], lat[i][1], "T 0 2 LD"), want[i][0], "miss, net %u",
                     lat[i][0]);
        cr_expect_eq(latency(served, lat[i][0], lat[i][1], "T 0 6 LD"), want[i][1], "served, net %u", lat[i][0]);
        cr_expect_eq(latency(owner, lat[i][0], lat[i][1], "T 0 5 LD"), want[i][2], "owner, net %u", lat[i][0]);
        cr_expect_eq(latency(store, lat[i][0], lat[i][1], "T 0 5 ST"), want[i][3], "store, net %u", lat[i][0]);
    }
}
