/*
 * Criterion tests of the cycle-level Spandex system with its GPU and DeNovo
 * devices as spandex-tu blocks, each with the L1 of its kind of
 * tb/spandex/spandex_vsys_tu.c on its cache port (suite spandex_vsys_tu):
 * the Verilated spandex_tu_default and spandex_tu_denovo substituted for
 * the TUs' timing shells, then the Verilated LLC as well, every port of
 * every block compared every cycle.
 * Fig. 1a and 1c, random programs and spandex-prog's data-race-free
 * programs on 2 and 4 devices pass the checker and give the shells' log
 * byte for byte; a stuck output bit of a Verilated TU is named by the port
 * comparison and, without it, fails the run; the latencies of the docs'
 * table. Run from the repository root (make unit).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spandex_test.h"

/* The system with every device a spandex-tu block. */
static void opts(spvsys_opts *o, const char *devs) { spandex_test_tu_opts(o, devs); }

/* The LLC, then the TUs, then both Verilated. */
Test(spandex_vsys_tu, fig1a_and_fig1c_one_kind_at_a_time_then_all)
{
    spvsys_opts o;
    opts(&o, "gpu,gpu,denovo");
    spandex_test_staged(&o, "fig1a", "fig1c");
}

/* Random programs (evictions, revocations, RMWs, racy words) on 2 and 4
 * devices at several latencies, some with FwdReqVs late enough to be
 * Nacked, everything Verilated. */
static void random_runs(const char *const *devs, unsigned seeds)
{
    static const unsigned lat[][3] = {{2, 10, 0}, {1, 1, 0}, {5, 20, 12}, {3, 7, 30}};
    unsigned s;
    for (s = 1; s <= seeds; s++) {
        spvsys_opts o;
        char what[96], *p;
        opts(&o, devs[s % 2]);
        o.net_lat = lat[s % 4][0];
        o.mem_lat = lat[s % 4][1];
        o.fwdv_delay = lat[s % 4][2];
        p = spvsys_random_program(&o, 400, s);
        cr_assert(p);
        snprintf(what, sizeof what, "%s seed %u", devs[s % 2], s);
        spandex_test_both(&o, SPVSYS_RTL_LLC | SPVSYS_RTL_TU, p, what);
        free(p);
    }
}

Test(spandex_vsys_tu, random_programs_2_devices)
{
    static const char *const devs[] = {"gpu,gpu", "gpu,denovo"};
    random_runs(devs, 25);
}

Test(spandex_vsys_tu, random_programs_4_devices)
{
    static const char *const devs[] = {"denovo,gpu,denovo,gpu", "gpu,gpu,gpu,denovo"};
    random_runs(devs, 25);
}

/* spandex-prog's data-race-free programs (every pattern) on 2 and 4
 * devices, everything Verilated. */
Test(spandex_vsys_tu, spandex_prog_programs)
{
    static const char *const vlist[] = {"gpu,denovo", "denovo,gpu,denovo,gpu"};
    unsigned c, seed;
    for (c = 0; c < 2; c++)
        for (seed = 1; seed <= 14; seed++) {
            spvsys_opts o;
            opts(&o, vlist[c]);
            spandex_test_prog(&o, vlist[c], seed, seed);
        }
}

/* A stuck output bit of device 1's Verilated TU: the port comparison names
 * the block and port; without it the checker or the watchdog fails the
 * run. */
Test(spandex_vsys_tu, stuck_bit_of_a_tu_caught_by_ports_then_by_checker_or_watchdog)
{
    static const spandex_stuck st[] = {{"req_mask_o", 0, 1, 0},    {"c_rsp_valid_o", 0, 0, 0},
                                       {"rsp_ready_o", 0, 0, 500}, {"c_rsp_data_o", 1, 1, 0},
                                       {"req_type_o", 2, 1, 300},  {"c_req_ready_o", 0, 0, 500}};
    char *prog;
    spvsys_opts o;
    opts(&o, "gpu,gpu,denovo,gpu");
    o.watchdog = 2000;
    o.fwdv_delay = 12;
    prog = spvsys_random_program(&o, 300, 2);
    o.rtl = SPVSYS_RTL_LLC | SPVSYS_RTL_TU;
    spandex_test_stuck(&o, "tu1", prog, st, sizeof st / sizeof st[0]);
    free(prog);
}

/* Cycles from a load's issue (the cycle the unit takes the L1's c_req) to
 * its V line with the Verilated TU and LLC (the docs' table): an LLC miss,
 * a ReqV served by the LLC, by an owner, Nacked and replaced (the ReqO of
 * device 2 leaves three cycles after the load's c_req, after its ReqV).
 * The RTL unit adds two cycles on the way out (c_req to req) and two on
 * the way back (rsp to c_rsp). */
static uint64_t latency(const char *devs, const char *prog, unsigned net, unsigned mem, unsigned fwdv,
                        const char *op)
{
    spvsys_opts o;
    opts(&o, devs);
    o.net_lat = net;
    o.mem_lat = mem;
    o.fwdv_delay = fwdv;
    o.rtl = SPVSYS_RTL_LLC | SPVSYS_RTL_TU;
    return spandex_test_latency(&o, prog, op);
}

Test(spandex_vsys_tu, latencies_of_the_docs_table)
{
    static const char *const served = "STEP 80\nLD 0 0x1000\nDRAIN\nLD 1 0x1000\n";
    static const char *const owner = "STEP 80\nST 1 0x1000 0xa\nREL 1\nDRAIN\nLD 0 0x1000\n";
    static const char *const nack =
        "STEP 80\nST 1 0x1000 0xa\nREL 1\nDRAIN\nLD 0 0x1000\nSTEP 3\nST 2 0x1000 0xb\nREL 2\nDRAIN\n";
    static const unsigned lat[][2] = {{1, 1}, {2, 10}, {5, 20}};
    static const uint64_t want[][4] = {{13, 9, 16, 45}, {24, 11, 19, 52}, {40, 17, 28, 73}};
    unsigned i;
    for (i = 0; i < 3; i++) {
        cr_expect_eq(latency("gpu,gpu", "STEP 80\nLD 0 0x1000\n", lat[i][0], lat[i][1], 0, "T 0 2 LD"),
                     want[i][0], "miss, net %u", lat[i][0]);
        cr_expect_eq(latency("gpu,gpu", served, lat[i][0], lat[i][1], 0, "T 1 4 LD"), want[i][1],
                     "served, net %u", lat[i][0]);
        cr_expect_eq(latency("gpu,denovo", owner, lat[i][0], lat[i][1], 0, "T 0 5 LD"), want[i][2],
                     "owner, net %u", lat[i][0]);
        cr_expect_eq(latency("gpu,denovo,denovo", nack, lat[i][0], lat[i][1], 10, "T 0 5 LD"), want[i][3],
                     "nack, net %u", lat[i][0]);
    }
}

/* ./tb_spandex --system with the TUs: --rtl tu and all, --gpu tu staged,
 * a stuck TU bit; a Nack limit the committed TU lacks is refused. */
Test(spandex_vsys_tu, tb_spandex_system_with_tus)
{
    cmd_out r;
    run_cap(&r, "./tb_spandex --system --program tb/spandex/logs/fig1c.prog --devs gpu,gpu,denovo --gpu tu");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "shell LLC, TU shells: ") &&
                  strstr(r.out, "Verilated LLC and TUs beside their shells: ") &&
                  strstr(r.out, "log = shells'; ports = shell's every cycle") && strstr(r.out, "\nPASS\n"),
              "%s", r.out);
    cmd_out_free(&r);
    run_cap(&r, "./tb_spandex --system --random 200 --devs gpu,gpu --rtl tu");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "Verilated TUs beside their shells: ") && strstr(r.out, "\nPASS\n"), "%s", r.out);
    cmd_out_free(&r);
    run_cap(&r, "./tb_spandex --system --random 200 --devs gpu,gpu --rtl all --stuck tu0.req_mask_o:0:1");
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "MISMATCH cycle") && strstr(r.out, "tu0 port req_mask_o") && strstr(r.out, "\nFAIL\n"),
              "%s", r.out);
    cmd_out_free(&r);
    run_cap(&r, "./tb_spandex --system --random 50 --devs gpu,gpu --rtl all --nack-limit 2");
    cr_assert_eq(r.status, 2, "%s%s", r.out, r.err);
    cr_assert(strstr(r.err, "nack-limit"), "%s", r.err);
    cmd_out_free(&r);
}

/* DeNovo devices as blocks beside GPU ones: Fig. 1a and 1c (the owners
 * DeNovo blocks, probed for their words), then seeded random programs
 * (stores owned, atomics on owned words in the cache, forwards probing
 * the cache, evictions of owned words, self-invalidation) on mixes with
 * two and four DeNovo blocks, at two latency settings, some FwdReqVs late
 * enough to be Nacked: the shells' and the Verilated logs pass the checker
 * and are equal, the ports agree every cycle. */
Test(spandex_vsys_tu, denovo_blocks_fig1_and_random_programs)
{
    static const char *const devs[] = {"denovo,gpu,denovo,gpu", "denovo,denovo", "gpu,denovo,denovo,denovo"};
    static const unsigned lat[][3] = {{2, 10, 0}, {1, 1, 12}};
    spvsys_opts o;
    char *a = spandex_test_file("fig1a.prog"), *c = spandex_test_file("fig1c.prog"), what[96], *p;
    unsigned s;
    opts(&o, "denovo,gpu,denovo");
    spandex_test_both(&o, SPVSYS_RTL_TU, a, "fig1a denovo,gpu,denovo");
    spandex_test_both(&o, SPVSYS_RTL_LLC | SPVSYS_RTL_TU, c, "fig1c denovo,gpu,denovo");
    free(a);
    free(c);
    for (s = 1; s <= 6; s++) {
        opts(&o, devs[s % 3]);
        o.net_lat = lat[s % 2][0];
        o.mem_lat = lat[s % 2][1];
        o.fwdv_delay = lat[s % 2][2];
        p = spvsys_random_program(&o, 400, 100 + s);
        cr_assert(p);
        snprintf(what, sizeof what, "%s seed %u", devs[s % 3], 100 + s);
        spandex_test_both(&o, SPVSYS_RTL_LLC | SPVSYS_RTL_TU, p, what);
        free(p);
    }
}

/* A stuck output bit of device 0's Verilated spandex_tu_denovo (its cache
 * side: the owned words of an answer, the probe and its answer, the
 * data): the port comparison names the block and port; without it the
 * L1's check of the unit's answers, err_o, the watchdog or the checker
 * fails the run; ./tb_spandex --system does the same from its options. */
Test(spandex_vsys_tu, stuck_bit_of_a_denovo_tu_caught_by_ports_then_by_checker)
{
    static const spandex_stuck st[] = {{"c_rsp_own_o", 0, 1, 0},
                                       {"c_pdat_ready_o", 0, 0, 300},
                                       {"c_prb_valid_o", 0, 0, 300},
                                       {"c_prb_down_o", 0, 0, 0},
                                       {"c_rsp_data_o", 1, 1, 0}};
    char *prog;
    spvsys_opts o;
    cmd_out r;
    opts(&o, "denovo,gpu,denovo,gpu");
    o.watchdog = 2000;
    o.fwdv_delay = 12;
    prog = spvsys_random_program(&o, 300, 2);
    o.rtl = SPVSYS_RTL_LLC | SPVSYS_RTL_TU;
    spandex_test_stuck(&o, "tu0", prog, st, sizeof st / sizeof st[0]);
    free(prog);
    run_cap(&r, "./tb_spandex --system --random 200 --devs denovo,gpu --rtl tu");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "Verilated TUs beside their shells: ") && strstr(r.out, "\nPASS\n"), "%s", r.out);
    cmd_out_free(&r);
    run_cap(&r, "./tb_spandex --system --random 300 --seed 2 --devs denovo,gpu,denovo,gpu --rtl all "
                "--stuck tu0.c_prb_down_o:0:0");
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "tu0 port c_prb_down_o") && strstr(r.out, "\nFAIL\n"), "%s", r.out);
    cmd_out_free(&r);
    run_cap(&r, "./tb_spandex --system --random 50 --devs denovo,gpu --rtl tu --denovo-rmw wtdata");
    cr_assert_eq(r.status, 2, "%s%s", r.out, r.err);
    cr_assert(strstr(r.err, "denovo-rmw"), "%s", r.err);
    cmd_out_free(&r);
}
