/*
 * Criterion tests of the STC band function and epoch management unit
 * (cmodel/stc/stc_band.c, cmodel/stc/stc_emu.c, gen/stc/stc_band_gen.c,
 * gen/stc/stc_emu_gen.c): Fig. 4, the section 4.4 A/B/C example, Fig. 6, every
 * EMU rule of spec 3.2 (round robin, skipping, stale current demands, the
 * adaptive-band rule with its guard and bounds, multi-band order and limit,
 * the four-way handshake), bad options and traces, trace-mode equality of
 * RTL and model, and the cycle timing of both units measured on the RTL
 * (lockstep of every committed configuration: tb/test_registry.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lockstep.h"
#include "stc_band.h"
#include "stc_emu.h"
#include "test_util.h"
#include "unit.h"

extern const dut_ops *const stc_duts[];

static void expect(const char *opts, const char *trace, const char *want)
{
    char *o = model_prints(opts, trace);
    cr_assert_str_eq(o, want, "cohmodel %s on\n%s", opts, trace);
    free(o);
}

static void emu_cfg(stc_emu_cfg *c, const char *const *opts)
{
    char err[200];
    stc_emu_cfg_default(c);
    for (; opts && opts[0]; opts += 2)
        cr_assert_eq(stc_emu_cfg_option(c, opts[0], opts[1], err, sizeof err), 0, "%s", err);
    cr_assert_eq(stc_emu_cfg_check(c, err, sizeof err), 0, "%s", err);
}

/* All CUs ReadyAck and DoneAck; returns the ChangeEpoch set and SEB. */
static void handshake(stc_emu *m, stc_elist *l, unsigned *seb)
{
    unsigned k;
    for (k = 0; k + 1 < m->c.cus; k++)
        cr_assert_eq(stc_emu_ready(m, k, NULL, NULL), 0);
    cr_assert_eq(stc_emu_ready(m, m->c.cus - 1, l, seb), 1);
    for (k = 0; k + 1 < m->c.cus; k++)
        cr_assert_eq(stc_emu_done(m, k, NULL, NULL), 0);
    cr_assert_eq(stc_emu_done(m, m->c.cus - 1, NULL, NULL), 1);
}

/* ------------------------------------------------------------- band -- */

Test(stc_band, fig4_deadbeef_and_zero_extension)
{
    cr_assert_eq(stc_band(0xDEADBEEFull, 12, 4, 32), 11);
    cr_assert_eq(stc_band(0xDEADBEEFull, 4, 4, 32), 14);
    cr_assert_eq(stc_band(0xDEADBEEFull, 16, 4, 32), 13);
    cr_assert_eq(stc_band(0xDEADBEEFull, 28, 4, 32), 13);
    cr_assert_eq(stc_band(0xDEADBEEFull, 30, 4, 32), 3, "bits 33:32 are zero");
    cr_assert_eq(stc_band(0xDEADBEEFull, 32, 4, 32), 0);
    cr_assert_eq(stc_band(0x1DEADBEEFull, 32, 4, 32), 0, "bits above ADDR_W are ignored");
    cr_assert_eq(stc_band(0xDEADBEEFull, 12, 8, 32), 0xDB);
    cr_assert_eq(stc_band(0xDEADBEEFull, 12, 1, 32), 1);
}

Test(stc_band, bands_are_not_contiguous_5_6)
{
    unsigned k;
    /* at SEB 12, band 11 repeats every 64 KB */
    for (k = 0; k < 64; k++) {
        cr_assert_eq(stc_band(0xB000ull + k * 0x10000ull, 12, 4, 32), 11);
        cr_assert_eq(stc_band(0xBFFFull + k * 0x10000ull, 12, 4, 32), 11);
        cr_assert_eq(stc_band(0xC000ull + k * 0x10000ull, 12, 4, 32), 12);
    }
}

Test(stc_band, epoch_sets_grant_order_and_parse)
{
    stc_eset s;
    stc_elist l;
    char b[64], err[128];
    stc_eset_clear(&s);
    stc_eset_add(&s, 2);
    stc_eset_add(&s, 13);
    stc_eset_add(&s, 200);
    cr_assert_eq(stc_eset_count(&s), 3);
    stc_elist_of(&s, 12, 8, &l);
    stc_elist_format(&l, b, sizeof b);
    cr_assert_str_eq(b, "13,200,2", "circular after 12");
    cr_assert_eq(stc_elist_parse("3,5,7", 4, &l, err, sizeof err), 0);
    cr_assert_eq(l.n, 3);
    cr_assert_eq(stc_elist_parse("3,16", 4, &l, err, sizeof err), -1);
    cr_assert_eq(stc_elist_parse("3,3", 4, &l, err, sizeof err), -1);
    cr_assert_eq(stc_elist_parse("3, 5", 4, &l, err, sizeof err), -1);
    cr_assert_eq(stc_elist_parse("", 4, &l, err, sizeof err), -1);
    cr_assert_eq(stc_elist_parse("3,", 4, &l, err, sizeof err), -1);
}

Test(stc_band_tools, trace_fig4_and_bad_input)
{
    static const char *const bad[][2] = {
        {"BAND 0x0\nBND 0x0\n", "stdin: line 2: unknown record 'BND'"},
        {"BAND zz\n", "line 1: address 'zz' is not hex"},
        {"BAND\n", "line 1: missing address"},
        {"BAND 0x100000000\n", "line 1: address '0x100000000' does not fit 32 bits"},
        {"BAND 0x1 33\n", "line 1: seb '33' is not a number in 0..32"},
        {"BAND 0x1 4 5\n", "line 1: unexpected '5'"},
    };
    size_t i;
    expect("stc-band", "# Fig. 4\nBAND 0xDEADBEEF\nBAND DEADBEEF 4\nBAND 0xdeadbeef 16\n"
                       "BAND 0xdeadbeef 28   # comment\n\nBAND 0xdeadbeef 30\nBAND 0xdeadbeef 32\n",
           "BAND 0xdeadbeef 11\nBAND 0xdeadbeef 14\nBAND 0xdeadbeef 13\nBAND 0xdeadbeef 13\n"
           "BAND 0xdeadbeef 3\nBAND 0xdeadbeef 0\n");
    expect("stc-band --seb 4 --n 8", "BAND 0xDEADBEEF\n", "BAND 0xdeadbeef 238\n");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        model_refuses("stc-band", "", bad[i][0], bad[i][1]);
    cr_assert_eq(run("build/bin/cohmodel stc-band --n 9 </dev/null 2>/dev/null"), 2);
    cr_assert_eq(run("build/bin/cohmodel stc-band --seb 40 </dev/null 2>/dev/null"), 2);
    cr_assert_eq(run("build/bin/cohmodel stc-band --addr-bits 64 </dev/null 2>/dev/null"), 2);
}

Test(stc_band_tools, tb_trace_prints_what_cohmodel_prints, .timeout = 60)
{
    FILE *f = fopen("build/t_stc_band_trace.txt", "w");
    uint64_t s = 11;
    unsigned i;
    char why[1024] = "short output";
    cr_assert_not_null(f);
    for (i = 0; i < 3000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        if ((s >> 60) < 4)
            fprintf(f, "BAND 0x%llx\n", (unsigned long long)((s >> 16) & 0xffffffffull));
        else
            fprintf(f, "BAND %llx %u\n", (unsigned long long)((s >> 8) & 0xffffffffull),
                    (unsigned)((s >> 50) % 33));
    }
    fclose(f);
    cr_assert_gt(trace_agrees("stc", "stc-band", "", "build/t_stc_band_trace.txt", NULL, NULL, why,
                              sizeof why),
                 40000, "%s", why);
}

/* One address per cycle; its band on the output in the next cycle. */
Test(stc_band_lockstep, one_per_cycle_one_cycle_latency)
{
    const cohkit_unit_desc *u = cohkit_unit_find("stc-band");
    const dut_ops *d = ls_dut_find(stc_duts, u, "default");
    stc_band_cfg c;
    stc_band_tm *tm;
    uint64_t in[STC_BAND_I_N], mo[STC_BAND_O_N], ro[STC_BAND_O_N];
    void *h;
    unsigned cyc, acc = 0, res = 0;
    cr_assert_not_null(d);
    stc_band_cfg_preset(&c, "default");
    tm = stc_band_tm_new(&c);
    h = d->create(1);
    for (cyc = 0; cyc < 120; cyc++) {
        memset(in, 0, sizeof in);
        in[STC_BAND_I_RST] = cyc >= 2;
        in[STC_BAND_I_OUT_READY] = 1;
        if (cyc >= 4 && cyc < 104) {
            in[STC_BAND_I_IN_VALID] = 1;
            in[STC_BAND_I_IN_ADDR] = 0xDEADBEEFull;
            in[STC_BAND_I_IN_SEB] = cyc % 33;
        }
        stc_band_eval(tm, in, mo);
        d->eval(h, in, ro);
        if (cyc >= 2) {
            cr_assert_eq(memcmp(mo, ro, sizeof mo), 0, "cycle %u", cyc);
            if (ro[STC_BAND_O_OUT_VALID]) {
                cr_assert_eq(ro[STC_BAND_O_OUT_BAND],
                             stc_band(0xDEADBEEFull, (cyc - 1) % 33, 4, 32), "cycle %u", cyc);
                res++;
            }
            if (in[STC_BAND_I_IN_VALID] && ro[STC_BAND_O_IN_READY])
                acc++;
        }
        stc_band_step(tm, in);
        d->tick(h);
    }
    cr_assert_eq(acc, 100);
    cr_assert_eq(res, 100);
    d->destroy(h);
    stc_band_tm_free(tm);
}

/* -------------------------------------------------------------- EMU -- */

#define R8 "READY 0\nREADY 1\nREADY 2\nREADY 3\nREADY 4\nREADY 5\nREADY 6\nREADY 7\n"
#define D8 "DONE 0\nDONE 1\nDONE 2\nDONE 3\nDONE 4\nDONE 5\nDONE 6\nDONE 7\n"

Test(stc_emu, abc_example_mb_grants_10_and_12)
{
    /* 4.4: A = 10 and C = 12 demanded, B = 11 read-only: PREP 10,12 */
    expect("stc-emu", "DEM 0 0xa000\nDEM 3 0xc010\nDEM 5 0xa7fc\nWAKE\n" R8 D8 "WAKE\n",
           "EDACK 0 10\nEDACK 3 12\nEDACK 5 10\nPREP 10,12\nCHG 10,12 12\nEND 10,12 12\n"
           "SLEEP\n");
}

Test(stc_emu, nv_round_robin_even_when_idle)
{
    stc_emu_cfg c;
    stc_emu m;
    stc_elist l;
    unsigned i, seb;
    static const char *const o[] = {"variant", "nv", "epoch", "14", NULL};
    emu_cfg(&c, o);
    stc_emu_init(&m, &c);
    cr_assert_eq(stc_emu_demand(&m, 0, 0x3000, NULL), 0, "NV: no EpochDemandAck");
    for (i = 0; i < 40; i++) {
        cr_assert_eq(stc_emu_wake(&m, &l), STC_WAKE_PREP);
        cr_assert_eq(l.n, 1);
        cr_assert_eq(l.e[0], (15 + i) % 16);
        cr_assert_eq(stc_emu_wake(&m, NULL), STC_WAKE_BUSY);
        handshake(&m, &l, &seb);
        cr_assert_eq(l.e[0], (15 + i) % 16);
        cr_assert_eq(m.ptr, (15 + i) % 16);
    }
    cr_assert_eq(m.transitions, 40);
    cr_assert_eq(m.sleeps, 0);
}

Test(stc_emu, es_skips_sleeps_and_acks_every_demand)
{
    expect("stc-emu --variant es --cus 2",
           "WAKE\nDEM 1 0x5000\nDEM 0 0x5abc\nDEM 0 0x3000\nWAKE\nREADY 0\nREADY 1\n"
           "DONE 1\nDONE 0\nWAKE\nREADY 1\nREADY 0\nDONE 0\nDONE 1\nWAKE\n",
           "SLEEP\nEDACK 1 5\nEDACK 0 5\nEDACK 0 3\nPREP 3\nCHG 3 12\nEND 3 12\nPREP 5\n"
           "CHG 5 12\nEND 5 12\nSLEEP\n");
    /* circular search starts after the pointer: from 13, 2 comes after 14 */
    expect("stc-emu --variant es --cus 1 --epoch 13",
           "DEM 0 0x2000\nDEM 0 0xe000\nWAKE\nREADY 0\nDONE 0\nWAKE\n",
           "EDACK 0 2\nEDACK 0 14\nPREP 14\nCHG 14 12\nEND 14 12\nPREP 2\n");
}

Test(stc_emu, s5_demands_of_current_epochs_are_stale)
{
    /* a demand for the current epoch (blocked in PREPARE) is cleared at the
     * next wake-up, not re-granted */
    expect("stc-emu --variant es --cus 1",
           "DEM 0 0x4000\nWAKE\nDEM 0 0x4008\nREADY 0\nDONE 0\nWAKE\n",
           "EDACK 0 4\nPREP 4\nEDACK 0 4\nCHG 4 12\nEND 4 12\nSLEEP\n");
}

Test(stc_emu, mb_first_mb_max_demanded_epochs_after_the_pointer)
{
    stc_emu_cfg c;
    stc_emu m;
    stc_elist l;
    unsigned seb;
    static const unsigned want[] = {9, 12, 15, 1};
    static const char *const o[] = {"epoch", "7", "cus", "3", NULL};
    unsigned i;
    emu_cfg(&c, o);
    stc_emu_init(&m, &c);
    /* demands for 1, 3, 9, 12, 15 (and 7, current) */
    stc_emu_demand(&m, 0, 0x1000, NULL);
    stc_emu_demand(&m, 1, 0x3000, NULL);
    stc_emu_demand(&m, 2, 0x9000, NULL);
    stc_emu_demand(&m, 0, 0xc000, NULL);
    stc_emu_demand(&m, 1, 0xf000, NULL);
    stc_emu_demand(&m, 2, 0x7000, NULL);
    cr_assert_eq(stc_emu_wake(&m, &l), STC_WAKE_PREP);
    cr_assert_eq(l.n, 4);
    for (i = 0; i < 4; i++)
        cr_assert_eq(l.e[i], want[i]);
    handshake(&m, &l, &seb);
    cr_assert_eq(m.ptr, 1, "the pointer is the last epoch granted");
    cr_assert_eq(stc_eset_count(&m.cur), 4);
    cr_assert_eq(stc_emu_wake(&m, &l), STC_WAKE_PREP);
    cr_assert_eq(l.n, 1);
    cr_assert_eq(l.e[0], 3, "the remaining demand");
    /* mb_max 1 behaves as AB */
    {
        static const char *const o1[] = {"mb-max", "1", NULL};
        emu_cfg(&c, o1);
        stc_emu_init(&m, &c);
        stc_emu_demand(&m, 0, 0x1000, NULL);
        stc_emu_demand(&m, 0, 0x2000, NULL);
        cr_assert_eq(stc_emu_wake(&m, &l), STC_WAKE_PREP);
        cr_assert_eq(l.n, 1);
        cr_assert_eq(l.e[0], 1);
    }
}

Test(stc_emu, adaptive_band_rule_s6)
{
    /* SEB 14 in 12..18: a difference in bits 13:12 moves SEB down, above
     * the band field (bit 18 and up) up, same page or same address: none */
    const char *opt = "stc-emu --variant ab --cus 1 --seb 14 --seb-min 12 --seb-max 18";
    expect(opt, "DEM 0 0x12345000\nCONF 0 0x12345000\nCONF 0 0x12345ffc\nCONF 0 0x12346000\n"
                "CONF 0 0x12347000\n",
           "EDACK 0 1\nNSEB 13\n");
    expect(opt, "DEM 0 0x12345000\nCONF 0 0x12385000\n", "EDACK 0 1\nNSEB 15\n");
    /* no valid ERV entry for the read's band: ignored; NV/ES ignore all */
    expect(opt, "DEM 0 0x12345000\nCONF 0 0x12349000\n", "EDACK 0 1\n");
    expect("stc-emu --variant es --cus 1 --seb 14 --seb-min 12 --seb-max 18",
           "DEM 0 0x12345000\nCONF 0 0x12385000\n", "EDACK 0 1\n");
    /* the first address is kept (S18) */
    expect(opt, "DEM 0 0x12345000\nDEM 0 0x12385000\nCONF 0 0x12385000\n",
           "EDACK 0 1\nEDACK 0 1\nNSEB 15\n");
    /* SEB_MAX bounds the upward step; SEB_MIN the downward (empty low field) */
    expect("stc-emu --variant ab --cus 1 --seb 18 --seb-min 12 --seb-max 18",
           "DEM 0 0x12345000\nCONF 0 0x92345000\n", "EDACK 0 13\n");
    expect("stc-emu --variant ab --cus 1", "DEM 0 0x12345000\nCONF 0 0x12344000\n"
                                           "CONF 0 0x12345004\n",
           "EDACK 0 5\n");
}

Test(stc_emu, fig6_one_step_separates_reads_and_writes)
{
    /* Fig. 6: writes at 256..511, reads at 0..255, N 4, SEB 4: one conflict
     * moves SEB to 5 (bit 8 lies above the band field) and the sets separate:
     * a further read of 0 finds no demand in its band (S6 f) */
    expect("stc-emu --variant ab --cus 1 --seb 4 --seb-min 0 --addr-bits 16 --epoch 15",
           "DEM 0 0x100\nCONF 0 0x0\nWAKE\nREADY 0\nDONE 0\nDEM 0 0x100\nCONF 0 0x0\n",
           "EDACK 0 0\nNSEB 5\nPREP 0\nCHG 0 5\nEND 0 5\nEDACK 0 8\n");
}

Test(stc_emu, one_pending_step_applied_at_change_epoch_then_guard)
{
    stc_emu_cfg c;
    stc_emu m;
    stc_elist l;
    unsigned seb, v, i;
    uint64_t a;
    static const char *const o[] = {"variant", "ab", "cus", "2", NULL};
    emu_cfg(&c, o);
    stc_emu_init(&m, &c);
    cr_assert_eq(m.guard, 16, "reset: the guard allows a step");
    stc_emu_demand(&m, 0, 0x00013000, &v);
    cr_assert_eq(v, 3);
    cr_assert_eq(stc_emu_conflict(&m, 1, 0x00023000, &v), 1);
    cr_assert_eq(v, 13);
    cr_assert_eq(stc_emu_conflict(&m, 1, 0x00033000, NULL), 0, "one step per transition");
    cr_assert_eq(m.seb, 12, "pending until ChangeEpoch");
    cr_assert_eq(stc_emu_wake(&m, &l), STC_WAKE_PREP);
    stc_emu_demand(&m, 0, 0x00017000, NULL); /* demand for 7 during PREPARE */
    cr_assert(stc_emu_erv(&m, 7, &a));
    handshake(&m, &l, &seb);
    cr_assert_eq(seb, 13, "ChangeEpoch carries the new SEB");
    cr_assert_eq(m.seb, 13);
    for (i = 0; i < 16; i++)
        cr_assert(!stc_emu_erv(&m, i, NULL), "ERV cleared at the SEB change");
    cr_assert_eq(m.guard, 0);
    cr_assert_eq(m.seb_changes, 1);
    /* guard: no step until the pointer has advanced 16 positions */
    stc_emu_demand(&m, 0, 0x00016000, &v);
    cr_assert_eq(v, 11, "mapped with the EMU's new SEB");
    cr_assert_eq(stc_emu_conflict(&m, 1, 0x00036000, NULL), 0, "guard");
    cr_assert_eq(stc_emu_wake(&m, &l), STC_WAKE_PREP);
    handshake(&m, &l, &seb);
    cr_assert_eq(m.guard, 8, "3 -> 11");
    stc_emu_demand(&m, 0, 0x00014000, &v); /* 10 */
    cr_assert_eq(stc_emu_wake(&m, &l), STC_WAKE_PREP);
    handshake(&m, &l, &seb);
    cr_assert_eq(m.guard, 16, "11 -> 10 is 15 more: saturates at 16");
    stc_emu_demand(&m, 0, 0x00016000, &v);
    cr_assert_eq(stc_emu_conflict(&m, 1, 0x00056000, &v), 1, "guard expired");
    cr_assert_eq(v, 14);
    /* without the guard the step is taken at once */
    {
        static const char *const o2[] = {"variant", "ab", "cus", "1", "seb-guard", "0", NULL};
        emu_cfg(&c, o2);
        stc_emu_init(&m, &c);
        stc_emu_demand(&m, 0, 0x00013000, NULL);
        cr_assert_eq(stc_emu_conflict(&m, 0, 0x00023000, NULL), 1);
        cr_assert_eq(stc_emu_wake(&m, &l), STC_WAKE_PREP);
        handshake(&m, &l, &seb);
        stc_emu_demand(&m, 0, 0x00016000, NULL);
        cr_assert_eq(stc_emu_conflict(&m, 0, 0x00036000, NULL), 1);
    }
    cr_assert_eq(stc_emu_progress_k(&c), 0);
    emu_cfg(&c, o);
    cr_assert_eq(stc_emu_progress_k(&c), 33);
}

Test(stc_emu, handshake_duplicates_and_wrong_phase_ignored)
{
    expect("stc-emu --variant nv --cus 3",
           "READY 0\nDONE 0\nWAKE\nWAKE\nREADY 2\nREADY 2\nDONE 2\nREADY 0\nREADY 1\n"
           "READY 1\nWAKE\nDONE 1\nDONE 1\nDONE 0\nDONE 2\nDONE 2\nREADY 0\n",
           "PREP 1\nCHG 1 12\nEND 1 12\n");
    {
        stc_emu_cfg c;
        stc_emu m;
        static const char *const o[] = {"cus", "2", NULL};
        emu_cfg(&c, o);
        stc_emu_init(&m, &c);
        cr_assert_eq(stc_emu_ready(&m, 0, NULL, NULL), -1, "IDLE");
        stc_emu_demand(&m, 0, 0x5000, NULL);
        cr_assert_eq(stc_emu_wake(&m, NULL), STC_WAKE_PREP);
        cr_assert_eq(stc_emu_ready(&m, 0, NULL, NULL), 0);
        cr_assert_eq(stc_emu_ready(&m, 0, NULL, NULL), -1, "duplicate");
        cr_assert_eq(stc_emu_done(&m, 0, NULL, NULL), -1, "PREPARE");
        cr_assert_eq(stc_emu_ready(&m, 2, NULL, NULL), -1, "no such CU");
        cr_assert_eq(stc_emu_ready(&m, 1, NULL, NULL), 1);
        cr_assert_eq(m.phase, STC_CHG);
    }
}

Test(stc_emu, dump_and_initial_epoch_set)
{
    expect("stc-emu --dump --epoch 3,9 --cus 1",
           "DEM 0 0xa004\nDEM 0 0x5000\nDEM 0 0x3000\nCONF 0 0x1000\nWAKE\n",
           "EDACK 0 10\nEDACK 0 5\nEDACK 0 3\nPREP 10,5\nSTATE cur=3,9 seb=12 ptr=9 "
           "phase=PREP\n");
    expect("stc-emu --dump --variant ab --cus 1", "DEM 0 0xa004\nDEM 0 0xa008\n",
           "EDACK 0 10\nEDACK 0 10\nERV 10 0xa004\nSTATE cur=0 seb=12 ptr=0 phase=IDLE\n");
}

Test(stc_emu_tools, bad_options_and_traces_exit_2_with_no_output)
{
    static const char *const bad[][2] = {
        {"WAKE\nWAIT\n", "stdin: line 2: unknown record 'WAIT'"},
        {"DEM 8 0x0\n", "line 1: cu '8' is not a number in 0..7"},
        {"DEM 0\n", "line 1: missing address"},
        {"DEM x 0x0\n", "line 1: cu 'x' is not a number in 0..7"},
        {"CONF 0 0xg\n", "line 1: address '0xg' is not hex"},
        {"CONF 0 0x100000000\n", "line 1: address '0x100000000' does not fit 32 bits"},
        {"READY\n", "line 1: missing cu"},
        {"WAKE 1\n", "line 1: unexpected '1'"},
        {"DONE 0 0\n", "line 1: unexpected '0'"},
    };
    static const char *const badopt[] = {
        "--variant xx", "--n 9", "--n 0", "--cus 33", "--cus 0", "--mb-max 17",
        "--variant es --epoch 1,2", "--epoch 16", "--epoch 1,1", "--seb 11", "--seb 29",
        "--seb-min 20 --seb-max 16 --seb 18", "--wake 0", "--seb-guard 2", "--addr-bits 64",
        "--epoch 1,2,3,4,5",
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        /* the bad record is line 3 after the two good ones */
        char want[200], in[200];
        const char *p = strstr(bad[i][1], "line 1:");
        snprintf(want, sizeof want, "%s%s", p ? "line 3:" : bad[i][1], p ? p + 7 : "");
        if (strncmp(bad[i][1], "stdin: line 2", 13) == 0)
            snprintf(want, sizeof want, "stdin: line 4: unknown record 'WAIT'");
        snprintf(in, sizeof in, "DEM 0 0x0\nWAKE\n%s", bad[i][0]);
        model_refuses("stc-emu", "", in, want);
    }
    for (i = 0; i < sizeof badopt / sizeof badopt[0]; i++)
        model_refuses("stc-emu", badopt[i], "WAKE\n", "");
    gen_refuses("stc-emu", "--variant q", "q");
}

/* A random trace of legal handshakes with demands and conflicts of every
 * kind (some moving SEB), written for `cus` CUs. */
static void random_emu_trace(const char *path, unsigned cus, unsigned n, uint64_t s)
{
    FILE *f = fopen(path, "w");
    unsigned i, k, phase = 0;
    uint64_t hot = 0x13000;
    cr_assert_not_null(f);
    for (i = 0; i < n; i++) {
        unsigned r;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        r = (unsigned)((s >> 33) % 100);
        if (r < 30) {
            uint64_t a = ((s >> 12) & 0xfffff000ull) | ((s >> 40) & 0xffc);
            if ((s >> 20) % 4 == 0)
                a = (s >> 16) % 16 << 12 | ((s >> 24) % 8) << 16;
            hot = a;
            fprintf(f, "DEM %u 0x%llx\n", (unsigned)((s >> 50) % cus), (unsigned long long)a);
        } else if (r < 45) {
            unsigned b = 12 + (unsigned)((s >> 44) % 20);
            fprintf(f, "CONF %u 0x%llx\n", (unsigned)((s >> 50) % cus),
                    (unsigned long long)((hot ^ (1ull << b)) & 0xffffffffull));
        } else if (r < 60 || phase == 0) {
            fprintf(f, "WAKE\n");
            phase = 1;
        } else {
            /* every CU in a random order, with duplicates and strays */
            const char *what = (s >> 58) & 1 ? "READY" : "DONE";
            for (k = 0; k < cus; k++) {
                unsigned cu = (unsigned)((k * 5 + (s >> 30)) % cus);
                fprintf(f, "%s %u\n", what, cu);
                if ((s >> (k % 60)) % 7 == 0)
                    fprintf(f, "%s %u\n", what, cu);
            }
        }
    }
    fclose(f);
}

static void trace_equal(const char *cfgname, unsigned cus, unsigned n, uint64_t seed,
                        const char *needle)
{
    char opts[32], why[1024] = "short output", *a = NULL;
    random_emu_trace("build/t_stc_emu_trace.txt", cus, n, seed);
    snprintf(opts, sizeof opts, "--config %s", cfgname);
    cr_assert_gt(trace_agrees("stc", "stc-emu", opts, "build/t_stc_emu_trace.txt", &a, NULL, why,
                              sizeof why),
                 2000, "%s", why);
    cr_assert(strstr(a, "PREP ") && strstr(a, "CHG ") && strstr(a, "END ") && strstr(a, "EDACK "));
    cr_assert(strstr(a, needle), "no '%s' in the model's output", needle);
    free(a);
}

Test(stc_emu_tools, tb_trace_prints_what_cohmodel_prints, .timeout = 120)
{
    trace_equal("default", 8, 3000, 7, "NSEB 13");
    trace_equal("fpga", 2, 3000, 9, "SLEEP");
}

/* ---- cycle timing on the RTL (with the shell compared every cycle) -- */

typedef struct {
    const dut_ops *d;
    void *h;
    stc_emu_tm *tm;
    uint64_t in[64], mo[64], ro[64];
    unsigned cyc;
} emu_bench;

static void eb_init(emu_bench *b, const char *cfgname)
{
    const cohkit_unit_desc *u = cohkit_unit_find("stc-emu");
    stc_emu_cfg c;
    char err[200];
    memset(b, 0, sizeof *b);
    b->d = ls_dut_find(stc_duts, u, cfgname);
    cr_assert_not_null(b->d);
    cr_assert_eq(ls_dut_cfg(u, b->d, &c, err, sizeof err), 0, "%s", err);
    b->tm = stc_emu_tm_new(&c);
    cr_assert(b->tm->in_words <= 64 && b->tm->out_words <= 64);
    b->h = b->d->create(1);
}

static void eb_free(emu_bench *b)
{
    b->d->destroy(b->h);
    stc_emu_tm_free(b->tm);
}

#define EI(b, x) (b)->in[(b)->tm->in_off[x]]
#define EO(b, x) (b)->ro[(b)->tm->out_off[x]]

/* Evaluates the cycle (shell and RTL agree), then the edge. */
static void eb_eval(emu_bench *b)
{
    EI(b, STC_EMU_I_RST) = b->cyc >= 2;
    stc_emu_eval(b->tm, b->in, b->mo);
    b->d->eval(b->h, b->in, b->ro);
    if (b->cyc >= 2)
        cr_assert_eq(memcmp(b->mo, b->ro, b->tm->out_words * sizeof(uint64_t)), 0, "cycle %u",
                     b->cyc);
}

static void eb_edge(emu_bench *b)
{
    stc_emu_step(b->tm, b->in);
    b->d->tick(b->h);
    b->cyc++;
}

/* Handshake with CUs answering at once: wake-up in cycle t, the target
 * search (MB_MAX + 3 = 7 cycles) taking effect in t+7, PREP t+8, ReadyAcks
 * t+9, ChangeEpoch t+10, DoneAcks t+11, IDLE t+12; the wake-up counter
 * fires after `wake` idle cycles. */
Test(stc_emu_timing, handshake_cycles_and_wake_period)
{
    emu_bench b;
    unsigned t_prep = 0, t_chg = 0, t_idle = 0, t_first = 0, n = 0, t_end = 0;
    eb_init(&b, "default");
    cr_assert_eq(b.tm->g.search, 7, "the search: rotate, 4 extractions, rotate back, take");
    while (b.cyc < 2000) {
        memset(b.in, 0, sizeof b.in);
        EI(&b, STC_EMU_I_TMR_EN) = 1;
        EI(&b, STC_EMU_I_PREP_READY) = 0xff;
        EI(&b, STC_EMU_I_CHG_READY) = 0xff;
        EI(&b, STC_EMU_I_DACK_READY) = 1;
        /* a CU answers in the cycle after it took a broadcast */
        if (t_prep && b.cyc == t_prep + 1)
            EI(&b, STC_EMU_I_RDY_VALID) = 0xff;
        if (t_chg && b.cyc == t_chg + 1)
            EI(&b, STC_EMU_I_DONE_VALID) = 0xff;
        /* a demand from CU 3 for epoch 5 before every wake-up */
        if (EO(&b, STC_EMU_O_PHASE) == STC_IDLE && b.cyc >= 3) {
            EI(&b, STC_EMU_I_DEM_VALID) = 1u << 3;
            stc_port_put(b.in + b.tm->in_off[STC_EMU_I_DEM_ADDR], 3 * 32, 32, 0x5000 + (n % 2) * 0x1000);
        }
        eb_eval(&b);
        if (b.cyc < 2) { /* in reset: registers not yet defined in the RTL */
            eb_edge(&b);
            continue;
        }
        if (EO(&b, STC_EMU_O_PREP_VALID)) {
            if (!t_first)
                t_first = b.cyc;
            if (t_end)
                cr_assert_eq(b.cyc - t_end, 101 + 7,
                             "the counter restarts at the end: 100 idle cycles, the search, then PREP");
            t_prep = b.cyc;
        }
        if (EO(&b, STC_EMU_O_CHG_VALID)) {
            cr_assert_eq(b.cyc, t_prep + 2, "ChangeEpoch one cycle after the last ReadyAck");
            t_chg = b.cyc;
        }
        if (t_chg && b.cyc == t_chg + 2) {
            cr_assert_eq(EO(&b, STC_EMU_O_PHASE), STC_IDLE, "idle one cycle after the last DoneAck");
            t_idle = b.cyc;
            t_end = b.cyc - 1;
            n++;
            cr_assert_eq(t_idle - t_prep, 4, "PREP to IDLE: 4 cycles");
        }
        eb_edge(&b);
    }
    cr_assert_eq(t_first, 2 + 100 + 7, "idle from cycle 2 (out of reset): PREP 100 + 7 cycles later");
    cr_assert_gt(n, 15);
    eb_free(&b);
}

/* Every CU demanding every cycle: one demand accepted per cycle, round
 * robin (each CU once every K cycles), each acknowledged in the next cycle,
 * none dropped; conflicts likewise, one per cycle. */
Test(stc_emu_timing, arbitration_one_per_cycle_round_robin_no_drop)
{
    emu_bench b;
    unsigned got[8] = {0}, acks[8] = {0}, conf = 0, last = 99, k, pend_ack = 0;
    eb_init(&b, "default");
    while (b.cyc < 802) {
        memset(b.in, 0, sizeof b.in);
        EI(&b, STC_EMU_I_DACK_READY) = 1;
        if (b.cyc >= 2) {
            EI(&b, STC_EMU_I_DEM_VALID) = 0xff;
            EI(&b, STC_EMU_I_CONF_VALID) = 0xff;
            for (k = 0; k < 8; k++) {
                stc_port_put(b.in + b.tm->in_off[STC_EMU_I_DEM_ADDR], k * 32, 32, (k + 1) << 12);
                stc_port_put(b.in + b.tm->in_off[STC_EMU_I_CONF_ADDR], k * 32, 32, (k + 1) << 12);
            }
        }
        eb_eval(&b);
        if (b.cyc >= 2 && EO(&b, STC_EMU_O_DACK_VALID)) {
            unsigned cu = (unsigned)EO(&b, STC_EMU_O_DACK_CU);
            cr_assert_eq(EO(&b, STC_EMU_O_DACK_EPOCH), cu + 1);
            cr_assert_eq(cu, pend_ack, "acknowledged the cycle after acceptance");
            acks[cu]++;
        }
        if (b.cyc >= 2) {
            uint64_t g = EO(&b, STC_EMU_O_DEM_READY), gc = EO(&b, STC_EMU_O_CONF_READY);
            cr_assert_eq(__builtin_popcountll(g), 1, "one demand per cycle");
            cr_assert_eq(__builtin_popcountll(gc), 1, "one conflict per cycle");
            k = (unsigned)__builtin_ctzll(g);
            if (last != 99)
                cr_assert_eq(k, (last + 1) % 8, "round robin");
            last = k;
            got[k]++;
            pend_ack = k;
            conf++;
        }
        eb_edge(&b);
    }
    for (k = 0; k < 8; k++) {
        cr_assert_eq(got[k], 100);
        cr_assert(acks[k] == 100 || (acks[k] == 99 && k == last));
    }
    cr_assert_eq(conf, 800);
    eb_free(&b);
}

/* A conflict accepted in cycle t sets the pending SEB visible in t + 2. */
Test(stc_emu_timing, conflict_step_two_cycles_after_acceptance)
{
    emu_bench b;
    unsigned t_conf = 0, seen = 0;
    eb_init(&b, "default");
    while (b.cyc < 40) {
        memset(b.in, 0, sizeof b.in);
        EI(&b, STC_EMU_I_DACK_READY) = 1;
        if (b.cyc == 5) {
            EI(&b, STC_EMU_I_DEM_VALID) = 1u << 2;
            stc_port_put(b.in + b.tm->in_off[STC_EMU_I_DEM_ADDR], 2 * 32, 32, 0x00013000);
        }
        if (b.cyc == 9) {
            EI(&b, STC_EMU_I_CONF_VALID) = 1u << 6;
            stc_port_put(b.in + b.tm->in_off[STC_EMU_I_CONF_ADDR], 6 * 32, 32, 0x00053000);
        }
        eb_eval(&b);
        if (b.cyc == 9) {
            cr_assert_eq(EO(&b, STC_EMU_O_CONF_READY), 1u << 6);
            t_conf = b.cyc;
        }
        if (b.cyc >= 2 && !seen && EO(&b, STC_EMU_O_SEB_NEXT) != EO(&b, STC_EMU_O_SEB)) {
            cr_assert_eq(EO(&b, STC_EMU_O_SEB_NEXT), 13);
            cr_assert_eq(b.cyc, t_conf + 2);
            seen = 1;
        }
        eb_edge(&b);
    }
    cr_assert(seen);
    eb_free(&b);
}
