/*
 * Criterion tests of the STC L1 controller (stc-l1): every cell of Table 1
 * (spec stc.md 3.5), stalls included, V x Store and V x Load_U through
 * --no-lazy; lazy invalidation, the end-of-epoch sweep, the poison bit (S1)
 * against the paper-literal --no-poison; the `l1` trace format and bad
 * input; trace mode of ./tb_stc against cohmodel; lockstep of the committed
 * configurations on every stream; the pipeline timing of docs/stc.md.
 *
 * Addresses: SEB 12, N 4, 64 B lines, so band(a) = a[15:12]; the CER starts
 * as {0}. Line 0x1040 is in band 1, 0x2080 in band 2, 0x0040 in band 0.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "stc_l1.h"
#include "test_util.h"
#include "unit.h"

extern const dut_ops *const stc_duts[];

static stc_l1 *mk(const char *preset, int poison, int lazy)
{
    stc_l1_cfg c;
    char err[200];
    stc_l1 *l;
    cr_assert_eq(stc_l1_cfg_preset(&c, preset), 0);
    c.poison = (unsigned)poison;
    c.lazy = (unsigned)lazy;
    cr_assert_eq(stc_l1_cfg_check(&c, err, sizeof err), 0, "%s", err);
    l = stc_l1_new(&c);
    cr_assert_not_null(l);
    return l;
}

static stc_l1_result acc(stc_l1 *l, stc_l1_op op, uint64_t a)
{
    stc_l1_result r;
    cr_assert_eq(stc_l1_access(l, op, a, &r), 0);
    return r;
}

static stc_l1_fill fill(stc_l1 *l, uint64_t a)
{
    stc_l1_fill f;
    cr_assert_eq(stc_l1_data(l, a, NULL, &f), 0, "DATA 0x%llx must be accepted",
                 (unsigned long long)a);
    return f;
}

static void chg(stc_l1 *l, unsigned epoch, stc_l1_chg_result *r)
{
    stc_eset e;
    stc_l1_chg_result tmp;
    memset(&e, 0, sizeof e);
    stc_eset_add(&e, epoch);
    cr_assert_eq(stc_l1_chg(l, &e, 12, r ? r : &tmp), 0);
}

/* line 0x1040 (band 1) made V under CER {0} */
static void make_v(stc_l1 *l, uint64_t a)
{
    stc_l1_result r = acc(l, STC_L1_OP_LD, a);
    cr_assert_eq(r.to, STC_L1_IV);
    cr_assert_eq(fill(l, a).to, STC_L1_V);
}

static void expect_t(stc_l1_result r, stc_l1_event ev, stc_l1_state from, stc_l1_state to,
                     stc_l1_action act)
{
    cr_assert_eq(r.stall, STC_L1_GO, "expected a transition, got stall %d", r.stall);
    cr_assert_eq(r.event, ev, "event %d, expected %d", r.event, ev);
    cr_assert_eq(r.from, from, "from %d, expected %d", r.from, from);
    cr_assert_eq(r.to, to, "to %d, expected %d", r.to, to);
    cr_assert_eq(r.act, act, "action %d, expected %d", r.act, act);
}

static void expect_stall(stc_l1_result r, stc_l1_event ev, stc_l1_state st, stc_l1_stall why)
{
    cr_assert_eq(r.stall, why, "stall %d, expected %d", r.stall, why);
    cr_assert_eq(r.event, ev);
    cr_assert_eq(r.from, st);
    cr_assert_eq(r.to, st);
}

/* ------------------------------------------------------ Table 1: row I -- */

Test(stc_l1_table1, I_Store_writes_through_PW_up)
{
    stc_l1 *l = mk("default", 1, 1);
    expect_t(acc(l, STC_L1_OP_ST, 0x1040), STC_L1_EV_STORE, STC_L1_I, STC_L1_I, STC_L1_ACT_STORE);
    cr_assert_eq(stc_l1_pw(l), 1);
    cr_assert_eq(stc_l1_state_of(l, 0x1040, NULL), STC_L1_I, "no write allocate");
    stc_l1_free(l);
}

Test(stc_l1_table1, I_Load_goes_I_V)
{
    stc_l1 *l = mk("default", 1, 1);
    expect_t(acc(l, STC_L1_OP_LD, 0x1040), STC_L1_EV_LOAD, STC_L1_I, STC_L1_IV, STC_L1_ACT_LOAD);
    cr_assert_eq(stc_l1_mshrs_used(l), 1);
    stc_l1_free(l);
}

Test(stc_l1_table1, I_Load_U_goes_I_I)
{
    stc_l1 *l = mk("default", 1, 1);
    expect_t(acc(l, STC_L1_OP_LD, 0x0040), STC_L1_EV_LOAD_U, STC_L1_I, STC_L1_II,
             STC_L1_ACT_LOAD_U);
    stc_l1_free(l);
}

Test(stc_l1_table1, I_Data_is_rejected)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_fill f;
    cr_assert_eq(stc_l1_data(l, 0x1040, NULL, &f), -1, "no load outstanding: Data impossible");
    cr_assert_eq(stc_l1_state_of(l, 0x1040, NULL), STC_L1_I);
    stc_l1_free(l);
}

Test(stc_l1_table1, I_Data_E_atomic_return_passes_through)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_result r;
    acc(l, STC_L1_OP_ST, 0x1040); /* the atomic is a store: PW+1 */
    cr_assert_eq(stc_l1_amo_data(l, 0x1040, &r), 0);
    cr_assert_eq(r.event, STC_L1_EV_DATA_E);
    cr_assert_eq(r.from, STC_L1_I);
    cr_assert_eq(r.to, STC_L1_I);
    cr_assert_eq(r.act, STC_L1_ACT_LD);
    cr_assert_eq(stc_l1_state_of(l, 0x1040, NULL), STC_L1_I, "never installed");
    cr_assert_eq(stc_l1_pw(l), 1, "the atomic's WA is separate");
    stc_l1_free(l);
}

Test(stc_l1_table1, I_WA_PW_down)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_result r;
    acc(l, STC_L1_OP_ST, 0x1040);
    acc(l, STC_L1_OP_ST, 0x2080);
    cr_assert_eq(stc_l1_wa(l, 0x1040, &r), 0);
    cr_assert_eq(r.event, STC_L1_EV_WA);
    cr_assert_eq(r.from, STC_L1_I);
    cr_assert_eq(r.to, STC_L1_I);
    cr_assert_eq(r.pw, 1);
    cr_assert_eq(stc_l1_wa(l, 0x2080, &r), 0);
    cr_assert_eq(r.pw, 0);
    cr_assert_eq(stc_l1_wa(l, 0x2080, &r), -1, "WA with PW = 0 is rejected");
    stc_l1_free(l);
}

/* ------------------------------------------------------ Table 1: row V -- */

Test(stc_l1_table1, V_Store_drops_the_copy_with_no_lazy)
{
    /* with lazy invalidation the store's first access to the set clears a
     * current-band V line first; --no-lazy reaches the cell */
    stc_l1 *l = mk("default", 1, 0);
    make_v(l, 0x1040);
    chg(l, 1, NULL);
    cr_assert_eq(stc_l1_state_of(l, 0x1040, NULL), STC_L1_V, "--no-lazy keeps the line");
    expect_t(acc(l, STC_L1_OP_ST, 0x1040), STC_L1_EV_STORE, STC_L1_V, STC_L1_I, STC_L1_ACT_STORE);
    cr_assert_eq(stc_l1_state_of(l, 0x1040, NULL), STC_L1_I);
    cr_assert_eq(stc_l1_pw(l), 1);
    stc_l1_free(l);
}

Test(stc_l1_table1, V_Store_unreachable_with_lazy)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_result r;
    make_v(l, 0x1040);
    chg(l, 1, NULL);
    r = acc(l, STC_L1_OP_ST, 0x1040);
    cr_assert_eq(r.ninv, 1);
    cr_assert_eq(r.inv[0], 0x1040);
    expect_t(r, STC_L1_EV_STORE, STC_L1_I, STC_L1_I, STC_L1_ACT_STORE);
    stc_l1_free(l);
}

Test(stc_l1_table1, V_Load_hits)
{
    stc_l1 *l = mk("default", 1, 1);
    make_v(l, 0x1040);
    expect_t(acc(l, STC_L1_OP_LD, 0x1044), STC_L1_EV_LOAD, STC_L1_V, STC_L1_V, STC_L1_ACT_HIT);
    cr_assert_eq(stc_l1_stats_of(l)->hits, 1);
    stc_l1_free(l);
}

Test(stc_l1_table1, V_Load_U_drops_the_copy_with_no_lazy)
{
    stc_l1 *l = mk("default", 1, 0);
    make_v(l, 0x1040);
    chg(l, 1, NULL);
    expect_t(acc(l, STC_L1_OP_LD, 0x1040), STC_L1_EV_LOAD_U, STC_L1_V, STC_L1_II,
             STC_L1_ACT_LOAD_U);
    cr_assert_eq(stc_l1_state_of(l, 0x1040, NULL), STC_L1_II);
    stc_l1_free(l);
}

Test(stc_l1_table1, V_Data_and_V_Data_E_are_rejected_or_pass_through)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_fill f;
    stc_l1_result r;
    make_v(l, 0x1040);
    cr_assert_eq(stc_l1_data(l, 0x1040, NULL, &f), -1, "no load outstanding on a V line");
    cr_assert_eq(stc_l1_amo_data(l, 0x1040, &r), 0);
    cr_assert_eq(r.from, STC_L1_V);
    cr_assert_eq(r.to, STC_L1_V);
    cr_assert_eq(stc_l1_state_of(l, 0x1040, NULL), STC_L1_V);
    stc_l1_free(l);
}

Test(stc_l1_table1, V_WA_PW_down_line_stays_V)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_result r;
    acc(l, STC_L1_OP_ST, 0x2080);
    make_v(l, 0x1040);
    cr_assert_eq(stc_l1_wa(l, 0x1040, &r), 0);
    cr_assert_eq(r.from, STC_L1_V);
    cr_assert_eq(r.to, STC_L1_V);
    cr_assert_eq(r.pw, 0);
    stc_l1_free(l);
}

/* ---------------------------------------------------- Table 1: row I_V -- */

Test(stc_l1_table1, I_V_Store_Load_Load_U_stall)
{
    stc_l1 *l = mk("default", 1, 1);
    acc(l, STC_L1_OP_LD, 0x1040);
    expect_stall(acc(l, STC_L1_OP_ST, 0x1048), STC_L1_EV_STORE, STC_L1_IV, STC_L1_STALL_BUSY);
    expect_stall(acc(l, STC_L1_OP_LD, 0x1044), STC_L1_EV_LOAD, STC_L1_IV, STC_L1_STALL_BUSY);
    chg(l, 1, NULL); /* the line's band is current now: a Load_U */
    expect_stall(acc(l, STC_L1_OP_LD, 0x1044), STC_L1_EV_LOAD_U, STC_L1_IV, STC_L1_STALL_BUSY);
    cr_assert_eq(stc_l1_pw(l), 0, "a stalled store sends nothing");
    stc_l1_free(l);
}

Test(stc_l1_table1, I_V_Data_installs_V)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_fill f;
    acc(l, STC_L1_OP_LD, 0x1040);
    f = fill(l, 0x1040);
    cr_assert_eq(f.event, STC_L1_EV_DATA);
    cr_assert_eq(f.from, STC_L1_IV);
    cr_assert_eq(f.to, STC_L1_V);
    cr_assert_eq(stc_l1_mshrs_used(l), 0);
    stc_l1_free(l);
}

Test(stc_l1_table1, I_V_Data_E_not_installed)
{
    stc_l1 *l = mk("default", 0, 1); /* without poison: Data_E by the CER alone */
    stc_l1_fill f;
    acc(l, STC_L1_OP_LD, 0x1040);
    chg(l, 1, NULL);
    f = fill(l, 0x1040);
    cr_assert_eq(f.event, STC_L1_EV_DATA_E);
    cr_assert_eq(f.from, STC_L1_IV);
    cr_assert_eq(f.to, STC_L1_I);
    cr_assert_eq(stc_l1_state_of(l, 0x1040, NULL), STC_L1_I);
    stc_l1_free(l);
}

Test(stc_l1_table1, I_V_WA_PW_down)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_result r;
    acc(l, STC_L1_OP_ST, 0x2080);
    acc(l, STC_L1_OP_LD, 0x1040);
    cr_assert_eq(stc_l1_wa(l, 0x1040, &r), 0);
    cr_assert_eq(r.from, STC_L1_IV);
    cr_assert_eq(r.to, STC_L1_IV);
    cr_assert_eq(r.pw, 0);
    stc_l1_free(l);
}

/* ---------------------------------------------------- Table 1: row I_I -- */

Test(stc_l1_table1, I_I_Store_Load_Load_U_stall)
{
    stc_l1 *l = mk("default", 1, 1);
    acc(l, STC_L1_OP_LD, 0x0040); /* band 0 current: Load_U */
    expect_stall(acc(l, STC_L1_OP_ST, 0x0040), STC_L1_EV_STORE, STC_L1_II, STC_L1_STALL_BUSY);
    expect_stall(acc(l, STC_L1_OP_LD, 0x0044), STC_L1_EV_LOAD_U, STC_L1_II, STC_L1_STALL_BUSY);
    chg(l, 1, NULL); /* band 0 not current: a Load */
    expect_stall(acc(l, STC_L1_OP_LD, 0x0044), STC_L1_EV_LOAD, STC_L1_II, STC_L1_STALL_BUSY);
    stc_l1_free(l);
}

Test(stc_l1_table1, I_I_Data_goes_I)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_fill f;
    acc(l, STC_L1_OP_LD, 0x0040);
    chg(l, 1, NULL); /* returns outside its band's epoch: Data, still not installed */
    f = fill(l, 0x0040);
    cr_assert_eq(f.event, STC_L1_EV_DATA);
    cr_assert_eq(f.from, STC_L1_II);
    cr_assert_eq(f.to, STC_L1_I);
    cr_assert_eq(stc_l1_state_of(l, 0x0040, NULL), STC_L1_I);
    stc_l1_free(l);
}

Test(stc_l1_table1, I_I_Data_E_goes_I)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_fill f;
    acc(l, STC_L1_OP_LD, 0x0040);
    f = fill(l, 0x0040);
    cr_assert_eq(f.event, STC_L1_EV_DATA_E);
    cr_assert_eq(f.from, STC_L1_II);
    cr_assert_eq(f.to, STC_L1_I);
    stc_l1_free(l);
}

Test(stc_l1_table1, I_I_WA_PW_down)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_result r;
    acc(l, STC_L1_OP_ST, 0x2080);
    acc(l, STC_L1_OP_LD, 0x0040);
    cr_assert_eq(stc_l1_wa(l, 0x0040, &r), 0);
    cr_assert_eq(r.from, STC_L1_II);
    cr_assert_eq(r.to, STC_L1_II);
    cr_assert_eq(r.pw, 0);
    stc_l1_free(l);
}

Test(stc_l1_table1, structural_stalls_MSHRs_full_and_PW_saturated)
{
    stc_l1 *l = mk("fpga", 1, 1); /* 4 MSHRs, 4-bit PW */
    unsigned i;
    for (i = 0; i < 4; i++)
        acc(l, STC_L1_OP_LD, 0x1000 + 0x40 * i);
    expect_stall(acc(l, STC_L1_OP_LD, 0x1100), STC_L1_EV_LOAD, STC_L1_I, STC_L1_STALL_MSHR);
    expect_stall(acc(l, STC_L1_OP_LD, 0x0100), STC_L1_EV_LOAD_U, STC_L1_I, STC_L1_STALL_MSHR);
    for (i = 0; i < 15; i++)
        expect_t(acc(l, STC_L1_OP_ST, 0x2000), STC_L1_EV_STORE, STC_L1_I, STC_L1_I,
                 STC_L1_ACT_STORE);
    expect_stall(acc(l, STC_L1_OP_ST, 0x2000), STC_L1_EV_STORE, STC_L1_I, STC_L1_STALL_PW);
    cr_assert_eq(stc_l1_pw(l), 15);
    stc_l1_free(l);
}

/* -------------------------------------------------- lazy, sweep, LRU -- */

Test(stc_l1_rules, lazy_invalidation_once_per_set_per_epoch)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_result r;
    make_v(l, 0x1040); /* set 1, band 1 */
    make_v(l, 0x11040); /* set 1, band 1 */
    make_v(l, 0x2040); /* set 1, band 2 */
    chg(l, 1, NULL);
    cr_assert_eq(stc_l1_touched(l, 1), 0);
    r = acc(l, STC_L1_OP_LD, 0x2044); /* first access to set 1: lazy INV of band 1 */
    cr_assert_eq(r.ninv, 2);
    cr_assert_eq(r.inv[0], 0x1040);
    cr_assert_eq(r.inv[1], 0x11040, "ascending");
    expect_t(r, STC_L1_EV_LOAD, STC_L1_V, STC_L1_V, STC_L1_ACT_HIT);
    cr_assert_eq(stc_l1_touched(l, 1), 1);
    r = acc(l, STC_L1_OP_LD, 0x2048);
    cr_assert_eq(r.ninv, 0, "once per set per epoch");
    stc_l1_free(l);
}

Test(stc_l1_rules, sweep_clears_untouched_sets_with_the_old_CER)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_chg_result cr;
    make_v(l, 0x1040);  /* set 1, band 1 */
    make_v(l, 0x1080);  /* set 2, band 1 */
    make_v(l, 0x2080);  /* set 2, band 2 */
    chg(l, 1, &cr);     /* epoch 1 begins: nothing of band 0 to sweep */
    cr_assert_eq(cr.nsweep, 0);
    acc(l, STC_L1_OP_LD, 0x2084); /* touches set 2: lazy INV 0x1080 */
    chg(l, 2, &cr);     /* epoch 1 ends: set 1 untouched, its band-1 line swept */
    cr_assert_eq(cr.nsweep, 1);
    cr_assert_eq(cr.sweep[0], 0x1040);
    cr_assert_eq(stc_l1_state_of(l, 0x2080, NULL), STC_L1_V, "band 2 line kept by the sweep");
    cr_assert_eq(stc_l1_touched(l, 2), 0, "touched bits clear after ChangeEpoch");
    stc_l1_free(l);
}

Test(stc_l1_rules, no_lazy_keeps_current_band_lines)
{
    stc_l1 *l = mk("default", 1, 0);
    stc_l1_chg_result cr;
    stc_l1_result r;
    make_v(l, 0x1040);
    chg(l, 1, &cr);
    chg(l, 2, &cr);
    cr_assert_eq(cr.nsweep, 0);
    r = acc(l, STC_L1_OP_LD, 0x1040);
    cr_assert_eq(r.ninv, 0);
    cr_assert_eq(r.act, STC_L1_ACT_HIT, "the unsafe test mode keeps the copy");
    stc_l1_free(l);
}

Test(stc_l1_rules, fill_evicts_the_LRU_way)
{
    stc_l1 *l = mk("fpga", 1, 1); /* 4 sets x 4 ways */
    stc_l1_fill f;
    unsigned i;
    for (i = 0; i < 4; i++)
        make_v(l, 0x1000 + 0x100 * i); /* set 0, ways 0..3 */
    acc(l, STC_L1_OP_LD, 0x1000); /* hit: 0x1000 most recent, 0x1100 oldest */
    acc(l, STC_L1_OP_LD, 0x1400);
    f = fill(l, 0x1400);
    cr_assert(f.evicted);
    cr_assert_eq(f.victim, 0x1100);
    cr_assert_eq(stc_l1_state_of(l, 0x1000, NULL), STC_L1_V);
    stc_l1_free(l);
}

/* --------------------------------------------------------- poison (S1) -- */

/* A load of band 1 issued in epoch 0, in flight while epoch 1 (its band:
 * a store may perform) and then epoch 2 are granted, returns in epoch 2. */
static const char *const s1_trace = "LD 0x1040\n"
                                    "CHG 1 12\n"
                                    "CHG 2 12\n"
                                    "DATA 0x1040\n"
                                    "LD 0x1040\n";

Test(stc_l1_poison, default_never_installs_the_stale_fill)
{
    char *out;
    put("build/t_stc_l1_s1.trace", s1_trace);
    cr_assert_eq(run("build/bin/cohmodel stc-l1 <build/t_stc_l1_s1.trace >build/t_stc_l1_s1.out"),
                 0);
    out = slurp("build/t_stc_l1_s1.out");
    cr_assert_not_null(out);
    cr_assert_str_eq(out, "T Load 0x1040 I I_V req=Load\n"
                          "POISON 0x1040\n"
                          "T Data_E 0x1040 I_V I ld\n"
                          "T Load 0x1040 I I_V req=Load\n");
    free(out);
}

Test(stc_l1_poison, no_poison_installs_the_stale_fill_and_hits_it)
{
    char *out;
    put("build/t_stc_l1_s1n.trace", s1_trace);
    cr_assert_eq(run("build/bin/cohmodel stc-l1 --no-poison <build/t_stc_l1_s1n.trace "
                     ">build/t_stc_l1_s1n.out"),
                 0);
    out = slurp("build/t_stc_l1_s1n.out");
    cr_assert_not_null(out);
    cr_assert_str_eq(out, "T Load 0x1040 I I_V req=Load\n"
                          "T Data 0x1040 I_V V ld\n"
                          "T Load 0x1040 V V hit\n");
    free(out);
}

Test(stc_l1_poison, only_I_V_loads_of_the_new_bands_and_once)
{
    stc_l1 *l = mk("default", 1, 1);
    stc_l1_chg_result cr;
    int p;
    acc(l, STC_L1_OP_LD, 0x1040); /* I_V band 1 */
    acc(l, STC_L1_OP_LD, 0x2040); /* I_V band 2 */
    acc(l, STC_L1_OP_LD, 0x0080); /* I_I band 0 */
    chg(l, 1, &cr);
    cr_assert_eq(cr.npoison, 1);
    cr_assert_eq(cr.poison[0], 0x1040);
    cr_assert_eq(stc_l1_state_of(l, 0x1040, &p), STC_L1_IV);
    cr_assert(p);
    chg(l, 1, &cr);
    cr_assert_eq(cr.npoison, 0, "an entry is poisoned once");
    stc_l1_free(l);
}

/* ---------------------------------------------------------- trace tool -- */

Test(stc_l1_trace, format_of_every_line_kind)
{
    char *out;
    put("build/t_stc_l1_fmt.trace", "# comment\n"
                                    "ST 0x2080\n"
                                    "LD 0X1040   # upper-case prefix\n"
                                    "DATA 1044\n"
                                    "WA 0x2080\n"
                                    "LD 0x0040\n"
                                    "LD 0x0044\n"
                                    "CHG 1,3 12\n"
                                    "LD 0x1040\n");
    cr_assert_eq(run("build/bin/cohmodel stc-l1 --dump <build/t_stc_l1_fmt.trace "
                     ">build/t_stc_l1_fmt.out"),
                 0);
    out = slurp("build/t_stc_l1_fmt.out");
    cr_assert_not_null(out);
    cr_assert_str_eq(out, "T Store 0x2080 I I req=Store pw=1\n"
                          "T Load 0x1040 I I_V req=Load\n"
                          "T Data 0x1040 I_V V ld\n"
                          "T WA 0x2080 I I pw=0\n"
                          "T Load_U 0x40 I I_I req=Load_U\n"
                          "STALL Load_U 0x40 I_I\n"
                          "INV 0x1040 lazy\n"
                          "T Load_U 0x1040 I I_I req=Load_U\n"
                          "LINE 0x40 I_I\n"
                          "LINE 0x1040 I_I\n"
                          "PW 0\n");
    free(out);
}

Test(stc_l1_trace, bad_records_exit_2_with_the_line_number)
{
    model_refuses("stc-l1", "", "LD 0x40\nDATA 0x80\n", "line 2: DATA 0x80");
    model_refuses("stc-l1", "", "ST 0x40\nWA 0x40\nWA 0x40\n", "line 3: WA");
    model_refuses("stc-l1", "", "LD 0x40\nFOO 1\n", "line 2: unknown record 'FOO'");
    model_refuses("stc-l1", "", "\nLD\n", "line 2: expected 'LD <addr>'");
    model_refuses("stc-l1", "", "LD 0x1ffffffff\n", "line 1: address '0x1ffffffff'");
    model_refuses("stc-l1", "", "LD 0xzz\n", "line 1: address '0xzz'");
    model_refuses("stc-l1", "", "CHG 16 12\n", "line 1: epoch set '16'");
    model_refuses("stc-l1", "", "CHG 1 12 13\n", "line 1: expected 'CHG <epochs> <seb>'");
    model_refuses("stc-l1", "", "CHG 1 11\n", "line 1: SEB '11'");
    model_refuses("stc-l1", "", "CHG 1 29\n", "line 1: SEB '29'");
    model_refuses("stc-l1", "", "# ok\nCHG 1;2 12\n", "line 2: epoch set '1;2'");
}

Test(stc_l1_trace, bad_options_exit_2)
{
    model_refuses("stc-l1", "--ways 3", "", "--ways 3");
    model_refuses("stc-l1", "--sets 2048", "", "--sets 2048");
    model_refuses("stc-l1", "--n 9", "", "--n 9");
    model_refuses("stc-l1", "--epoch 16", "", "--epoch");
    model_refuses("stc-l1", "--mshrs 0", "", "--mshrs 0");
    model_refuses("stc-l1", "--seb 8", "", "--seb 8");
    model_refuses("stc-l1", "--no-poison 2", "", "unexpected argument '2'");
}

/* ---------------------------------------------- lockstep and trace mode -- */

/* A random trace reaching every line kind: ./tb_stc --trace --dump prints
 * exactly what cohmodel --dump prints (the dump from the shell's state). */
static void write_random_trace(const char *path, const char *preset, unsigned nrec, uint64_t seed)
{
    stc_l1 *l = mk(preset, 1, 1);
    FILE *f = fopen(path, "w");
    uint64_t x = seed * 2654435761u + 1, pend[64];
    unsigned i, np = 0;
    cr_assert_not_null(f);
    for (i = 0; i < nrec; i++) {
        unsigned r;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        r = (unsigned)(x % 100);
        if (r < 25 && np > 0) {
            unsigned k = (unsigned)((x >> 8) % np);
            stc_l1_fill fl;
            fprintf(f, "DATA 0x%llx\n", (unsigned long long)pend[k]);
            cr_assert_eq(stc_l1_data(l, pend[k], NULL, &fl), 0);
            pend[k] = pend[--np];
        } else if (r < 33 && stc_l1_pw(l) > 0) {
            stc_l1_result res;
            fprintf(f, "WA 0x%llx\n", (unsigned long long)((x >> 8) % 0x8000));
            stc_l1_wa(l, (x >> 8) % 0x8000, &res);
        } else if (r < 36) {
            unsigned e1 = (unsigned)((x >> 8) % 4), e2 = (unsigned)((x >> 12) % 4);
            stc_eset e;
            stc_l1_chg_result cr;
            memset(&e, 0, sizeof e);
            stc_eset_add(&e, e1);
            stc_eset_add(&e, e2);
            if (e1 == e2)
                fprintf(f, "CHG %u 12\n", e1);
            else
                fprintf(f, "CHG %u,%u 12\n", e1 < e2 ? e1 : e2, e1 < e2 ? e2 : e1);
            cr_assert_eq(stc_l1_chg(l, &e, 12, &cr), 0);
        } else {
            /* sets 0..3, up to 6 lines per set, bands 0..3 */
            uint64_t a = ((x >> 8) % 4) * 0x40 + ((x >> 12) % 6) * 0x400 + ((x >> 20) % 4) * 0x1000;
            stc_l1_result res;
            int ld = (x >> 24) % 10 < 7;
            fprintf(f, "%s 0x%llx\n", ld ? "LD" : "ST", (unsigned long long)a);
            stc_l1_access(l, ld ? STC_L1_OP_LD : STC_L1_OP_ST, a, &res);
            if (res.stall == STC_L1_GO &&
                (res.act == STC_L1_ACT_LOAD || res.act == STC_L1_ACT_LOAD_U) && np < 64)
                pend[np++] = a;
        }
    }
    fclose(f);
    stc_l1_free(l);
}

Test(stc_l1_lockstep, trace_mode_prints_what_cohmodel_prints, .timeout = 120)
{
    static const char *const names[] = {"default", "fpga"};
    unsigned i;
    for (i = 0; i < 2; i++) {
        char opts[48], why[1024], *want = NULL;
        write_random_trace("build/t_stc_l1_rand.trace", names[i], 2500, 21 + i);
        snprintf(opts, sizeof opts, "--config %s --dump", names[i]);
        cr_assert_geq(trace_agrees("stc", "stc-l1", opts, "build/t_stc_l1_rand.trace", &want, NULL,
                                   why, sizeof why),
                      0, "%s", why);
        cr_assert(strstr(want, " lazy\n") && strstr(want, " sweep\n") && strstr(want, "POISON ") &&
                      strstr(want, "STALL ") && strstr(want, " hit\n") &&
                      strstr(want, "T Data_E ") && strstr(want, "T WA ") &&
                      strstr(want, "\nLINE ") && strstr(want, "\nPW "),
                  "%s: the trace must reach every line kind", names[i]);
        if (i == 1)
            cr_assert_not_null(strstr(want, " evict\n"));
        free(want);
    }
}

/* ------------------------------------------------- timing (docs/stc.md) -- */

static void tm_cycle(stc_l1_tm *t, stc_l1_in *in, stc_l1_out *o)
{
    stc_l1_eval(t, in, o);
    stc_l1_step(t, in);
}

Test(stc_l1_timing, init_pass_latency_throughput_and_chg_cycles)
{
    static const char *const names[] = {"default", "fpga"};
    unsigned i;
    for (i = 0; i < 2; i++) {
        stc_l1_cfg c;
        char err[200];
        stc_l1_tm *t;
        stc_l1_in in;
        stc_l1_out o;
        unsigned cyc, k, accepted = 0, events = 0;
        cr_assert_eq(stc_l1_cfg_preset(&c, names[i]), 0);
        cr_assert_eq(stc_l1_cfg_check(&c, err, sizeof err), 0);
        t = stc_l1_tm_new(&c);
        cr_assert_not_null(t);
        memset(&in, 0, sizeof in);
        in.rst_ni = 1;
        in.ev_ready_i = 1;
        in.req_valid_i = 1;
        /* the init pass: one set a cycle, then ready */
        for (cyc = 0;; cyc++) {
            stc_l1_eval(t, &in, &o);
            if (o.req_ready_o)
                break;
            stc_l1_step(t, &in);
            cr_assert(cyc < 5000);
        }
        cr_assert_eq(cyc, c.sets, "%s: init takes sets cycles", names[i]);
        /* back-to-back loads to one set (forwarding): one a cycle, each
         * answered the cycle after it is accepted */
        for (k = 0; k < 200; k++) {
            in.req_op_i = STC_L1_REQ_LD;
            in.req_addr_i = 0x1000 + 0x40 * c.sets * (k % 3); /* set 0, band 1: Load, then hits */
            tm_cycle(t, &in, &o);
            accepted += (unsigned)o.req_ready_o;
            events += (unsigned)o.ev_valid_o;
            if (k > 0)
                cr_assert(o.ev_valid_o, "%s: an event every cycle after the first", names[i]);
        }
        cr_assert_eq(accepted, 200, "%s: one request a cycle", names[i]);
        cr_assert_eq(events, 199);
        /* ChangeEpoch with nothing to sweep or poison: accepted once the
         * stage drains, chg_done_o sets + 1 cycles later */
        in.req_valid_i = 0;
        tm_cycle(t, &in, &o); /* last event leaves */
        in.chg_valid_i = 1;
        in.chg_cer_i[0] = 1 << 5;
        in.chg_seb_i = 12;
        stc_l1_eval(t, &in, &o);
        cr_assert(o.chg_ready_o);
        stc_l1_step(t, &in);
        in.chg_valid_i = 0;
        for (cyc = 1;; cyc++) {
            stc_l1_eval(t, &in, &o);
            if (o.chg_done_o)
                break;
            stc_l1_step(t, &in);
            cr_assert(cyc < 5000);
        }
        cr_assert_eq(cyc, c.sets + 1, "%s: sweep of sets sets, then the new CER", names[i]);
        stc_l1_tm_free(t);
    }
}

/* ------------------------------------- INV evict on the default preset -- */

/* The default preset's 64 ways of set 0 filled by Load + Data of 64 lines
 * of non-current bands (CER {0}, band a[15:12]; set a[9:6]), then a 65th:
 * its Data (not Data_E, not I_I) finds no invalid way, so the LRU line,
 * the first filled, is evicted first (`INV <line> evict`, the RTL's
 * INV-evict report) and the fill installed. Trace mode: model and RTL
 * agree. */
Test(stc_l1_lockstep, trace_mode_inv_evict_default, .timeout = 120)
{
    const char *path = "build/t_stc_l1_evict_default.trace";
    char why[1024], *want = NULL, line[64];
    const char *tail = "T Load 0x12000 I I_V req=Load\nINV 0x1000 evict\nT Data 0x12000 I_V V ld\n";
    unsigned n = 0, a = 0;
    size_t len, t = strlen(tail);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    while (n < 65) {
        a += 0x400;
        if ((a >> 12 & 15) == 0)
            continue; /* band 0 is current: a Load_U */
        fprintf(f, "LD 0x%x\nDATA 0x%x\n", a, a);
        n++;
    }
    cr_assert_eq(fclose(f), 0);
    cr_assert_geq(trace_agrees("stc", "stc-l1", "--config default", path, &want, NULL, why, sizeof why), 0,
                  "%s", why);
    len = strlen(want);
    cr_assert(len >= t && strcmp(want + len - t, tail) == 0, "the 65th fill of set 0:\n%s",
              len > 400 ? want + len - 400 : want);
    snprintf(line, sizeof line, " evict\n");
    cr_assert_eq(strstr(want, line), want + len - t + strlen("T Load 0x12000 I I_V req=Load\nINV 0x1000"),
                 "an eviction before the set was full");
    free(want);
    remove(path);
}
