/*
 * Criterion tests of the STC blocked store queue (cmodel/stc/stc_bsq.c,
 * gen/stc/stc_bsq_gen.c) and the per-CU epoch logic (cmodel/stc/stc_cu.c,
 * gen/stc/stc_cu_gen.c): spec 3.3 and 3.4 rule by rule, the pass figures of
 * spec 10 (8 / 4 / 1 cycles for 256 / 102 / 32 entries) from the core and
 * from the RTL, the paper's Fig. 2 and §4.4 A/B/C examples at the CU, bad
 * options and traces, trace-mode equality of RTL and model, and the RTL's
 * timing (lockstep of every committed configuration: tb/test_registry.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "stc_bsq.h"
#include "stc_cu.h"
#include "test_util.h"
#include "unit.h"

extern const dut_ops *const stc_duts[];

static stc_eset eset(const char *text, unsigned n)
{
    stc_eset s;
    char err[128];
    cr_assert_eq(stc_eset_parse(&s, text, n, err, sizeof err), 0, "%s", err);
    return s;
}

/* ============================================================== BSQ core */

Test(stc_bsq_core, round_robin_allocation_and_back_pressure_when_full)
{
    stc_bsq_cfg c;
    stc_bsq *q;
    stc_bsq_cfg_preset(&c, "default");
    char err[128];
    cr_assert_eq(stc_bsq_cfg_check(&c, err, sizeof err), 0, "%s", err);
    q = stc_bsq_new(&c);
    for (unsigned i = 0; i < 256; i++) {
        stc_bsq_push_res r = stc_bsq_push(q, 0x1000u + 4 * i);
        cr_assert(r.accepted);
        cr_assert_eq(r.bank, i % 16, "push %u went to bank %u", i, r.bank);
        cr_assert_eq(r.slot, (i % 16) * 16 + i / 16, "slot of push %u", i);
    }
    cr_assert(stc_bsq_full(q));
    cr_assert_eq(stc_bsq_count(q), 256);
    cr_assert_not(stc_bsq_push(q, 0x4000).accepted, "the 257th store is refused");
    cr_assert_eq(stc_bsq_count(q), 256);
    /* draining bank 3's newest slot frees exactly one place, in bank 3 */
    stc_eset all = eset("1", 4);
    stc_bsq_reset(q);
    for (unsigned i = 0; i < 256; i++)
        stc_bsq_push(q, i == 243 ? 0x1000 : 0x0);       /* 243 = bank 3, slot 15 */
    stc_bsq_scan_res s = stc_bsq_scan(q, &all, 12, NULL, NULL);
    cr_assert_eq(s.drained, 1);
    cr_assert_eq(s.left, 255);
    stc_bsq_push_res r = stc_bsq_push(q, 0x2000);
    cr_assert(r.accepted);
    cr_assert_eq(r.bank, 3, "only bank 3 has room");
    cr_assert_eq(r.slot, 3 * 16 + 15);
    stc_bsq_free(q);
}

/* Spec 10: ceil(max bank occupancy / drain) = 8 / 4 / 1 for 256 / 102 / 32
 * entries in the paper's BSQ (16 banks, 2 per bank per cycle). */
Test(stc_bsq_core, pass_cycles_8_4_1_for_256_102_32_entries)
{
    static const unsigned fill[] = {256, 102, 32, 0, 1, 17, 64};
    static const unsigned want[] = {8, 4, 1, 0, 1, 1, 2};
    stc_bsq_cfg c;
    stc_bsq_cfg_preset(&c, "default");
    stc_bsq_cfg_check(&c, (char[64]){0}, 64);
    for (unsigned k = 0; k < sizeof fill / sizeof fill[0]; k++) {
        stc_bsq *q = stc_bsq_new(&c);
        stc_eset none = eset("15", 4);
        for (unsigned i = 0; i < fill[k]; i++)
            cr_assert(stc_bsq_push(q, 0x1000).accepted); /* band 1 */
        cr_assert_eq(stc_bsq_pass_cycles(q), want[k], "%u entries", fill[k]);
        stc_bsq_scan_res s = stc_bsq_scan(q, &none, 12, NULL, NULL);
        cr_assert_eq(s.cycles, want[k]);
        cr_assert_eq(s.left, fill[k]);
        cr_assert_eq(s.drained, 0);
        stc_bsq_free(q);
    }
}

Test(stc_bsq_core, scan_drains_matching_bands_in_cycle_bank_age_order)
{
    stc_bsq_cfg c;
    stc_bsq *q;
    stc_bsq_entry d[32], k[32];
    stc_bsq_cfg_preset(&c, "fpga"); /* 32 entries, 4 banks of 8, drain 2 */
    stc_bsq_cfg_check(&c, (char[64]){0}, 64);
    q = stc_bsq_new(&c);
    /* 12 pushes: bank = i % 4, slot = i / 4; bands alternate 1, 2, 3 */
    for (unsigned i = 0; i < 12; i++)
        stc_bsq_push(q, ((uint64_t)(1 + i % 3) << 12) | (4 * i));
    stc_eset e = eset("1,3", 4);
    stc_bsq_scan_res s = stc_bsq_scan(q, &e, 12, d, k);
    cr_assert_eq(s.cycles, 2, "3 per bank, 2 per cycle");
    cr_assert_eq(s.drained, 8);
    cr_assert_eq(s.left, 4);
    /* expected: cycle 1 reads slots 0-1 of every bank, cycle 2 slot 2 */
    static const unsigned order[] = {0, 5, 2, 6, 3, 8, 9, 11};
    static const unsigned cyc[] = {1, 1, 1, 1, 1, 2, 2, 2};
    for (unsigned i = 0; i < 8; i++) {
        cr_assert_eq(d[i].addr & 0xfff, 4 * order[i], "drain %u: 0x%llx", i,
                     (unsigned long long)d[i].addr);
        cr_assert_eq(d[i].cycle, cyc[i]);
        cr_assert_eq(d[i].bank, order[i] % 4);
        cr_assert_eq(d[i].slot, (order[i] % 4) * 8 + order[i] / 4);
    }
    cr_assert_eq(k[0].addr & 0xfff, 4 * 4, "kept in scan order: push 4 first");
    /* a hole below a kept entry stays, a trailing one is reclaimed */
    cr_assert_eq(stc_bsq_bank_top(q, 0), 2, "bank 0 keeps slot 1 (slot 0 a hole)");
    cr_assert_eq(stc_bsq_bank_top(q, 1), 1, "bank 1 keeps slot 0 only");
    cr_assert_eq(stc_bsq_push(q, 0x5000).slot, 0 * 8 + 2, "bank 0 (round robin) above its top");
    /* the SEB of the ChangeEpoch decides the band: at SEB 13, 0x1xxx and
     * 0x3xxx lie in bands 0 and 1 */
    stc_eset z = eset("0", 4);
    s = stc_bsq_scan(q, &z, 13, d, NULL);
    cr_assert_eq(s.drained, 0);
    z = eset("1", 4);
    s = stc_bsq_scan(q, &z, 13, d, NULL);
    cr_assert_eq(s.drained, 4, "band 1 at SEB 13 holds the 0x2xxx entries");
    stc_bsq_free(q);
}

/* One slot a bank (8 entries, 8 banks, drain 1): the slot is the bank,
 * pushes go round robin, the ninth is refused, a pass takes one cycle and
 * a drained bank takes the next push. */
Test(stc_bsq_core, one_slot_a_bank)
{
    stc_bsq_cfg c;
    stc_bsq *q;
    char err[128];
    stc_bsq_cfg_preset(&c, "fpga");
    c.entries = 8;
    c.banks = 8;
    c.drain = 1;
    cr_assert_eq(stc_bsq_cfg_check(&c, err, sizeof err), 0, "%s", err);
    q = stc_bsq_new(&c);
    for (unsigned i = 0; i < 8; i++) {
        stc_bsq_push_res r = stc_bsq_push(q, ((uint64_t)(1 + i % 2) << 12) | (4 * i));
        cr_assert(r.accepted);
        cr_assert_eq(r.bank, i);
        cr_assert_eq(r.slot, i, "slot = bank");
    }
    cr_assert(stc_bsq_full(q));
    cr_assert(!stc_bsq_push(q, 0x1000).accepted, "every bank full: refused");
    cr_assert_eq(stc_bsq_pass_cycles(q), 1);
    stc_eset e = eset("2", 4);
    stc_bsq_scan_res s = stc_bsq_scan(q, &e, 12, NULL, NULL);
    cr_assert_eq(s.cycles, 1);
    cr_assert_eq(s.drained, 4);
    cr_assert_eq(stc_bsq_push(q, 0x1000).slot, 1, "bank 1 drained, the first free at rr 0");
    stc_bsq_free(q);
    c.entries = 2; /* the smallest BSQ: two banks of one slot */
    c.banks = 2;
    cr_assert_eq(stc_bsq_cfg_check(&c, err, sizeof err), 0, "%s", err);
    q = stc_bsq_new(&c);
    cr_assert(stc_bsq_push(q, 0x1000).accepted && stc_bsq_push(q, 0x2000).accepted);
    cr_assert(!stc_bsq_push(q, 0x3000).accepted);
    stc_bsq_free(q);
}

/* ============================================================ BSQ tools */

Test(stc_bsq_tools, trace_format)
{
    char *o;
    cr_assert_eq(run("printf '# fpga: 4 banks of 8, drain 2\\nPUSH 0x1000\\nPUSH 2000\\nPUSH 0x1004\\n"
                     "PUSH 0x3000\\nPUSH 0x1008\\nCHG 1,3 12\\nCHG 2 12\\nCHG 0 12\\n' | "
                     "build/bin/cohmodel stc-bsq --config fpga > build/t_stcbsq.out"), 0);
    o = slurp("build/t_stcbsq.out");
    cr_assert_str_eq(o, "ACC 0x1000 0\nACC 0x2000 1\nACC 0x1004 2\nACC 0x3000 3\nACC 0x1008 0\n"
                        "DRN 0x1000 1\nDRN 0x1008 1\nDRN 0x1004 1\nDRN 0x3000 1\nSCAN 1 1\n"
                        "DRN 0x2000 1\nSCAN 1 0\nSCAN 0 0\n");
    free(o);
    /* full: the 33rd push of the fpga BSQ is refused */
    cr_assert_eq(run("(for i in $(seq 1 33); do echo PUSH 0x4000; done) | build/bin/cohmodel "
                     "stc-bsq --config fpga | tail -1 | grep -qx 'FULL 0x4000'"), 0);
}

Test(stc_bsq_tools, bad_traces_and_options_exit_2_with_no_output)
{
    static const char *const bad[][2] = {
        {"PUSH 0x0\nPOP 0x0\n", "stdin: line 2: unknown record 'POP'"},
        {"PUSH zz\n", "line 1: address 'zz' is not hex"},
        {"PUSH\n", "line 1: missing address"},
        {"PUSH 0x100000000\n", "line 1: address '0x100000000' exceeds 32 bits"},
        {"CHG 16 12\n", "line 1: epoch 16 is not below 2^4"},
        {"CHG 1,1 12\n", "line 1: epoch 1 repeated"},
        {"CHG 1 11\n", "line 1: seb '11' is not a number in 12..28"},
        {"CHG 1\n", "line 1: missing seb"},
        {"CHG 1, 12\n", "line 1: '1,' is not an epoch list"},
        {"PUSH 0x0 0x1\n", "line 1: unexpected '0x1'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        model_refuses("stc-bsq", "", bad[i][0], bad[i][1]);
    static const char *const opts[] = {"--bsq 100", "--bsq 1", "--banks 0", "--banks 256", "--banks 512",
                                       "--drain 3", "--drain 32", "--n 9", "--n 0",
                                       "--addr-bits 7", "--seb 30", "--seb-min 20 --seb 12",
                                       "--banks 64 --drain 2 --bsq 512"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        model_refuses("stc-bsq", opts[i], "", "");
    gen_refuses("stc-bsq", "--drain 3", "3");
}

Test(stc_bsq_tools, report_puts_table_4_beside_the_rtl_bits)
{
    char *o;
    cr_assert_eq(run("build/bin/cohgen stc-bsq --report > build/t_stcbsq_rep.txt && "
                     "build/bin/cohgen stc-bsq --report --json > build/t_stcbsq_rep.json"), 0);
    o = slurp("build/t_stcbsq_rep.txt");
    cr_assert(strstr(o, "RAM bits:      8192 (paper Table 4: 256 x 32 = 8192 bits per CU"), "%s", o);
    cr_assert(strstr(o, "full pass:     8 cycles"), "%s", o);
    free(o);
    o = slurp("build/t_stcbsq_rep.json");
    cr_assert(strstr(o, "\"ram_bits\":8192") && strstr(o, "\"bsq_bits_per_cu\":8192"), "%s", o);
    cr_assert(strstr(o, "\"rtl_memories\":[[8,64],[8,64],"), "%s", o);
    free(o);
}

Test(stc_bsq_tools, tb_trace_prints_what_cohmodel_prints, .timeout = 60)
{
    FILE *f = fopen("build/t_stcbsq_trace.txt", "w");
    uint64_t s = 11;
    char *a = NULL, why[1024];
    cr_assert_not_null(f);
    for (unsigned i = 0; i < 3000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        unsigned r = (unsigned)((s >> 33) % 100);
        if (r < 4)
            fprintf(f, "CHG %u,%u %u\n", (unsigned)(s >> 40) % 8, 8 + (unsigned)(s >> 44) % 8,
                    12 + (unsigned)((s >> 50) % 3));
        else
            fprintf(f, "PUSH 0x%llx\n", (unsigned long long)((s >> 20) & 0xffffc));
    }
    fclose(f);
    cr_assert_geq(trace_agrees("stc", "stc-bsq", "--config fpga", "build/t_stcbsq_trace.txt", &a,
                               NULL, why, sizeof why),
                  0, "%s", why);
    cr_assert(strstr(a, "FULL 0x") && strstr(a, "DRN 0x") && strstr(a, "SCAN 4 "), "all outcomes");
    free(a);
}

/* ========================================================= BSQ lockstep */

/* The RTL's figures: one push per cycle; a ChangeEpoch accepted in cycle t
 * presents its row beats in cycles t + 3 .. t + 2 + P with the drain port
 * always ready, and done in t + 3 + P (setup cycle, first read, P beats);
 * P = 8 / 4 / 1 for 256 / 102 / 32 entries. */
Test(stc_bsq_lockstep, rtl_pass_takes_8_4_1_cycles_for_256_102_32_entries, .timeout = 60)
{
    static const unsigned fill[] = {256, 102, 32};
    static const unsigned want[] = {8, 4, 1};
    const cohkit_unit_desc *u = cohkit_unit_find("stc-bsq");
    const dut_ops *d = ls_dut_find(stc_duts, u, "default");
    stc_bsq_cfg c;
    stc_bsq_layout l;
    cr_assert_not_null(d);
    stc_bsq_cfg_preset(&c, "default");
    stc_bsq_cfg_check(&c, (char[64]){0}, 64);
    stc_bsq_port_layout(&c, &l);
    for (unsigned k = 0; k < 3; k++) {
        stc_bsq_tm *tm = stc_bsq_tm_new(&c);
        void *h = d->create(1);
        uint64_t in[64], mo[64], ro[64];
        unsigned pushes = 0, chg_at = 0, beats = 0, first_beat = 0, done_at = 0, drained = 0;
        for (unsigned cyc = 0; cyc < 400 && !done_at; cyc++) {
            memset(in, 0, sizeof in);
            in[l.in_word[STC_BSQ_I_RST]] = cyc >= 2;
            in[l.in_word[STC_BSQ_I_DRN_READY]] = 1;
            in[l.in_word[STC_BSQ_I_DONE_READY]] = 1;
            if (cyc >= 3 && pushes < fill[k]) {
                in[l.in_word[STC_BSQ_I_PUSH_VALID]] = 1;
                /* every other entry in band 1 (drains), the rest band 2 */
                in[l.in_word[STC_BSQ_I_PUSH_ADDR]] = ((uint64_t)(1 + (pushes & 1)) << 12) | pushes;
            } else if (cyc >= 3 && !chg_at) {
                in[l.in_word[STC_BSQ_I_CHG_VALID]] = 1;
                in[l.in_word[STC_BSQ_I_CHG_CER]] = 1u << 1;
                in[l.in_word[STC_BSQ_I_CHG_SEB]] = 12;
            }
            stc_bsq_tm_eval(tm, in, mo);
            d->eval(h, in, ro);
            if (cyc >= 2) {
                cr_assert_eq(memcmp(mo, ro, l.out_words * sizeof *mo), 0, "cycle %u", cyc);
                if (in[l.in_word[STC_BSQ_I_PUSH_VALID]]) {
                    cr_assert(ro[l.out_word[STC_BSQ_O_PUSH_READY]], "one push a cycle");
                    pushes++;
                }
                if (in[l.in_word[STC_BSQ_I_CHG_VALID]] && ro[l.out_word[STC_BSQ_O_CHG_READY]])
                    chg_at = cyc;
                if (ro[l.out_word[STC_BSQ_O_DRN_VALID]]) {
                    beats++;
                    first_beat = first_beat ? first_beat : cyc;
                    drained += (unsigned)__builtin_popcountll(ro[l.out_word[STC_BSQ_O_DRN_MASK]]);
                }
                if (ro[l.out_word[STC_BSQ_O_DONE_VALID]]) {
                    done_at = cyc;
                    cr_assert_eq(ro[l.out_word[STC_BSQ_O_DONE_CYCLES]], want[k]);
                    cr_assert_eq(ro[l.out_word[STC_BSQ_O_COUNT]], fill[k] - fill[k] / 2);
                }
            }
            stc_bsq_tm_step(tm, in);
            d->tick(h);
        }
        cr_assert_eq(beats, want[k], "%u entries: %u beats", fill[k], beats);
        cr_assert_eq(first_beat, chg_at + 3);
        cr_assert_eq(done_at, chg_at + 3 + want[k], "%u entries", fill[k]);
        cr_assert_eq(drained, fill[k] / 2);
        d->destroy(h);
        stc_bsq_tm_free(tm);
    }
}

/* =============================================================== CU core */

static stc_cu *cu_new(const char *variant, const char *epoch)
{
    stc_cu_cfg c;
    char err[128];
    stc_cu_cfg_preset(&c, "default");
    cr_assert_eq(stc_cu_cfg_option(&c, "variant", variant, err, sizeof err), 0, "%s", err);
    cr_assert_eq(stc_cu_cfg_option(&c, "epoch", epoch, err, sizeof err), 0, "%s", err);
    cr_assert_eq(stc_cu_cfg_check(&c, err, sizeof err), 0, "%s", err);
    return stc_cu_new(&c);
}

static stc_cu_chg_res chg(stc_cu *cu, const char *e, unsigned seb, stc_bsq_entry *d,
                          stc_cu_demand *m)
{
    stc_eset s = eset(e, 4);
    return stc_cu_change(cu, &s, seb, d, m);
}

/* Fig. 2 (spec 4): A = 10, B = 11, D = 13 at SEB 12, seen from one CU. */
Test(stc_cu_core, fig2_epoch_a_to_b)
{
    stc_cu *cu = cu_new("es", "10");
    stc_bsq_entry d[256];
    stc_cu_demand m[16];
    cr_assert(stc_cu_load(cu, 0xA040).uncached, "A1 in epoch A: not cached (ER1)");
    cr_assert_not(stc_cu_load(cu, 0xB040).uncached, "B1 cacheable in A");
    stc_cu_st_res s = stc_cu_store(cu, 0xA0C0);
    cr_assert_eq(s.kind, STC_CU_ISSUED, "store to A3 issued in A");
    s = stc_cu_store(cu, 0xB0C0);
    cr_assert_eq(s.kind, STC_CU_BLOCKED, "store to B3 blocked in A (ER2)");
    cr_assert_eq(s.band, 11);
    cr_assert(s.demand);
    cr_assert_eq(stc_cu_prepare(cu), 0, "A3 outstanding: no ReadyAck yet");
    cr_assert_eq(stc_cu_write_ack(cu), 1, "A3's ack sends ReadyAck");
    stc_cu_chg_res r = chg(cu, "11", 12, d, m);
    cr_assert(r.ok);
    cr_assert_eq(r.drained, 1);
    cr_assert_eq(d[0].addr, 0xB0C0, "B3 unblocked at B");
    cr_assert_eq(r.demands, 0);
    cr_assert_eq(stc_cu_pw(cu), 1, "the drained store is outstanding");
    cr_assert(stc_cu_load(cu, 0xA040).uncached == 0, "A cacheable again");
    cr_assert_eq(stc_cu_store(cu, 0xD0C0).kind, STC_CU_BLOCKED, "D3 blocked in B");
    stc_cu_free(cu);
}

Test(stc_cu_core, demand_filter_one_per_band_per_epoch_none_in_nv)
{
    stc_cu *cu = cu_new("mb", "0");
    cr_assert(stc_cu_store(cu, 0x3000).demand);
    cr_assert_not(stc_cu_store(cu, 0x3004).demand, "DV[3] filters the second");
    cr_assert(stc_cu_store(cu, 0x5000).demand);
    cr_assert(stc_cu_dv(cu, 3) && stc_cu_dv(cu, 5) && !stc_cu_dv(cu, 4));
    cr_assert_eq(stc_cu_prepare(cu), 1);
    stc_cu_demand m[16];
    stc_cu_chg_res r = chg(cu, "5", 12, NULL, m);
    cr_assert_eq(r.drained, 1);
    cr_assert_eq(r.demands, 1, "DV cleared at ChangeEpoch; band 3 re-demanded");
    cr_assert_eq(m[0].addr, 0x3000, "with the first queued store's address");
    cr_assert_eq(m[0].band, 3);
    cr_assert_not(stc_cu_store(cu, 0x3008).demand, "re-demand set DV[3]");
    stc_cu_free(cu);
    cu = cu_new("nv", "0");
    cr_assert_eq(stc_cu_store(cu, 0x3000).kind, STC_CU_BLOCKED);
    cr_assert_not(stc_cu_store(cu, 0x4000).demand, "NV sends no EpochDemand");
    cr_assert_eq(stc_cu_prepare(cu), 1);
    cr_assert_eq(chg(cu, "1", 12, NULL, NULL).demands, 0);
    stc_cu_free(cu);
}

Test(stc_cu_core, one_conflict_per_epoch_in_ab_and_mb_only)
{
    static const char *const v[] = {"nv", "es", "ab", "mb"};
    for (unsigned i = 0; i < 4; i++) {
        stc_cu *cu = cu_new(v[i], "0");
        int want = i >= 2;
        cr_assert_eq(stc_cu_load(cu, 0x3040).conflict, 0, "%s: no blocked write yet", v[i]);
        stc_cu_store(cu, 0x3000);
        cr_assert_eq(stc_cu_load(cu, 0x3040).conflict, want, "%s", v[i]);
        cr_assert_eq(stc_cu_load(cu, 0x3080).conflict, 0, "%s: once per epoch", v[i]);
        stc_cu_store(cu, 0x4000);
        cr_assert_eq(stc_cu_load(cu, 0x4040).conflict, 0, "%s: once per CU, not per band", v[i]);
        cr_assert_eq(stc_cu_load(cu, 0x0040).conflict, 0, "%s: current band: Load_U", v[i]);
        cr_assert_eq(stc_cu_prepare(cu), 1);
        chg(cu, "1", 12, NULL, NULL);
        cr_assert_eq(stc_cu_load(cu, 0x3040).conflict, want, "%s: flag cleared at ChangeEpoch", v[i]);
        stc_cu_free(cu);
    }
}

Test(stc_cu_core, prepare_blocks_every_store_and_ready_waits_for_pw_zero)
{
    stc_cu *cu = cu_new("mb", "0");
    cr_assert_eq(stc_cu_store(cu, 0x0040).kind, STC_CU_ISSUED);
    cr_assert_eq(stc_cu_store(cu, 0x0080).kind, STC_CU_ISSUED);
    cr_assert_eq(stc_cu_pw(cu), 2);
    cr_assert_eq(stc_cu_prepare(cu), 0);
    cr_assert_eq(stc_cu_prepare(cu), -1, "PREP during a transition");
    stc_cu_st_res s = stc_cu_store(cu, 0x00c0);
    cr_assert_eq(s.kind, STC_CU_BLOCKED, "PREPARE blocks the current band too (S17)");
    cr_assert(s.demand, "and demands it");
    cr_assert(stc_cu_load(cu, 0x0040).uncached, "loads are never held (ER4)");
    cr_assert_not(stc_cu_change(cu, &(stc_eset){{1}}, 12, NULL, NULL).ok, "CHG before READY");
    cr_assert_eq(stc_cu_write_ack(cu), 0);
    cr_assert_eq(stc_cu_write_ack(cu), 1, "ReadyAck with the last ack");
    cr_assert_eq(stc_cu_write_ack(cu), -1, "WA with nothing outstanding");
    stc_cu_chg_res r = chg(cu, "0", 12, NULL, NULL);
    cr_assert(r.ok);
    cr_assert_eq(r.drained, 1, "the store blocked in PREPARE drains in its epoch");
    cr_assert_eq(stc_cu_phase_of(cu), STC_CU_RUN);
    stc_cu_free(cu);
}

/* §4.4 A/B/C with MB: A = 10, C = 12 granted together, B = 11 stays
 * cacheable; an SEB change remaps queued stores (re-demand, S6). */
Test(stc_cu_core, multi_band_cer_and_seb_change)
{
    stc_cu *cu = cu_new("mb", "0");
    stc_bsq_entry d[256];
    stc_cu_demand m[16];
    stc_cu_store(cu, 0xA000);
    stc_cu_store(cu, 0xC000);
    stc_cu_store(cu, 0x30000); /* band 0 at SEB 12 is current: issued */
    cr_assert_eq(stc_cu_pw(cu), 1);
    stc_cu_prepare(cu);
    stc_cu_write_ack(cu);
    stc_cu_chg_res r = chg(cu, "10,12", 12, d, m);
    cr_assert_eq(r.drained, 2);
    cr_assert_eq(d[0].addr, 0xA000);
    cr_assert_eq(d[1].addr, 0xC000);
    cr_assert_eq(stc_cu_store(cu, 0xA004).kind, STC_CU_ISSUED);
    cr_assert_eq(stc_cu_store(cu, 0xC004).kind, STC_CU_ISSUED);
    cr_assert_eq(stc_cu_store(cu, 0xB004).kind, STC_CU_BLOCKED);
    cr_assert_not(stc_cu_load(cu, 0xB040).uncached, "B stays cacheable");
    /* SEB 12 -> 13: 0xB004 (band 11 at 12) is band 5 at 13 */
    stc_cu_store(cu, 0x1B000); /* band 11 at SEB 12 (filtered), band 13 at SEB 13 */
    stc_cu_prepare(cu);
    for (unsigned i = 0; i < 4; i++)
        stc_cu_write_ack(cu);
    r = chg(cu, "13", 13, d, m);
    cr_assert(r.ok);
    cr_assert_eq(stc_cu_seb(cu), 13);
    cr_assert_eq(r.drained, 1);
    cr_assert_eq(d[0].addr, 0x1B000);
    cr_assert_eq(r.demands, 1);
    cr_assert_eq(m[0].addr, 0xB004);
    cr_assert_eq(m[0].band, 5, "re-demand under the new SEB");
    stc_cu_free(cu);
}

/* ============================================================= CU tools */

Test(stc_cu_tools, trace_format)
{
    char *o;
    cr_assert_eq(run("printf 'ST 0x1000\\nST 0x40\\nST 0x1004\\nLD 0x1040\\nLD 0x80\\nPREP\\n"
                     "ST 0x100\\nWA\\nCHG 1,3 12\\nEDACK 1\\nLD 0x2000\\n' | "
                     "build/bin/cohmodel stc-cu > build/t_stccu.out"), 0);
    o = slurp("build/t_stccu.out");
    cr_assert_str_eq(o, "BLK 0x1000 1\nDEM 0x1000 1\nISS 0x40\nBLK 0x1004 1\nLDC 0x1040\n"
                        "CONF 0x1040 1\nLDU 0x80\nBLK 0x100 0\nDEM 0x100 0\nREADY\n"
                        "DRN 0x1000\nDRN 0x1004\nDEM 0x100 0\nDONE\nLDC 0x2000\n");
    free(o);
    cr_assert_eq(run("(for i in $(seq 1 33); do echo ST 0x4000; done) | build/bin/cohmodel "
                     "stc-cu --config fpga | tail -1 | grep -qx 'STALL 0x4000'"), 0);
    cr_assert_eq(run("printf 'ST 0x3000\\nLD 0x3040\\n' | build/bin/cohmodel stc-cu --variant es | "
                     "tr '\\n' ' ' | grep -qx 'BLK 0x3000 3 DEM 0x3000 3 LDC 0x3040 '"), 0);
}

Test(stc_cu_tools, bad_traces_and_options_exit_2_with_no_output)
{
    static const char *const bad[][3] = {
        {"", "ST 0x40\nWA\nWA\n", "stdin: line 3: WA with no store outstanding"},
        {"", "PREP\nPREP\n", "line 2: PREP during a transition"},
        {"", "ST 0x40\nPREP\nCHG 1 12\n", "line 3: CHG before READY"},
        {"", "CHG 1 12\n", "line 1: CHG before READY"},
        {"", "PREP\nCHG 1,2,3,4,5 12\n", "line 2: 5 epochs, variant mb allows 4"},
        {"--variant es", "PREP\nCHG 1,2 12\n", "line 2: 2 epochs, variant es allows 1"},
        {"--variant es", "PREP\nCHG 1 13\n", "line 2: seb 13: variant es keeps seb 12"},
        {"", "PREP\nCHG 16 12\n", "line 2: epoch 16 is not below 2^4"},
        {"", "EDACK 16\n", "line 1: epoch '16' is not a number in 0..15"},
        {"", "ST 0x40\nSTORE 0x40\n", "line 2: unknown record 'STORE'"},
        {"", "LD 0xg\n", "line 1: address '0xg' is not hex"},
        {"", "WA 1\n", "line 1: unexpected '1'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[200];
        snprintf(cmd, sizeof cmd, "build/bin/cohmodel stc-cu %s", bad[i][0]);
        refused_on(cmd, bad[i][1], bad[i][2]);
    }
    static const char *const opts[] = {"--variant xx", "--n 1 --mb-max 3", "--mb-max 17",
                                       "--epoch 16", "--epoch 1,2,3,4,5", "--variant es --epoch 1,2",
                                       "--epoch ''", "--bsq 48"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        model_refuses("stc-cu", opts[i], "", "");
}

/* A legal random trace (the core decides when WA, PREP and CHG may come),
 * run through cohmodel and through the RTL in trace mode. */
static void write_cu_trace(const char *path, const char *config, uint64_t seed, unsigned n)
{
    stc_cu_cfg c;
    stc_cu *cu;
    FILE *f = fopen(path, "w");
    uint64_t s = seed;
    cr_assert_not_null(f);
    stc_cu_cfg_preset(&c, config);
    stc_cu_cfg_check(&c, (char[64]){0}, 64);
    cu = stc_cu_new(&c);
    for (unsigned i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        unsigned r = (unsigned)((s >> 33) % 100);
        uint64_t a = ((s >> 12) & 0x3f0fc) | ((s >> 40) & 3) << 12;
        if (r < 35) {
            fprintf(f, "ST 0x%llx\n", (unsigned long long)a);
            stc_cu_store(cu, a);
        } else if (r < 60) {
            fprintf(f, "LD 0x%llx\n", (unsigned long long)a);
            stc_cu_load(cu, a);
        } else if (r < 80 && stc_cu_pw(cu) > 0) {
            fprintf(f, "WA\n");
            stc_cu_write_ack(cu);
        } else if (r < 85 && stc_cu_phase_of(cu) == STC_CU_RUN) {
            fprintf(f, "PREP\n");
            stc_cu_prepare(cu);
        } else if (r < 95 && stc_cu_ready_sent(cu)) {
            stc_eset e;
            char buf[64];
            unsigned seb = stc_cu_seb(cu);
            stc_eset_clear(&e);
            stc_eset_add(&e, (unsigned)(s >> 45) % 4);
            stc_eset_add(&e, (unsigned)(s >> 50) % 16);
            if ((s >> 55) % 4 == 0)
                seb = seb == 12 ? 13 : 12;
            fprintf(f, "CHG %s %u\n", stc_eset_format(&e, buf, sizeof buf), seb);
            stc_cu_change(cu, &e, seb, NULL, NULL);
        } else {
            fprintf(f, "EDACK %u\n", (unsigned)(s >> 45) % 16);
        }
    }
    fclose(f);
    stc_cu_free(cu);
}

Test(stc_cu_tools, tb_trace_prints_what_cohmodel_prints, .timeout = 90)
{
    static const char *const cfgs[] = {"fpga", "default"};
    for (unsigned k = 0; k < 2; k++) {
        char opts[32], why[1024], *a = NULL;
        write_cu_trace("build/t_stccu_trace.txt", cfgs[k], 21 + k, 1500);
        snprintf(opts, sizeof opts, "--config %s", cfgs[k]);
        cr_assert_geq(trace_agrees("stc", "stc-cu", opts, "build/t_stccu_trace.txt", &a, NULL, why,
                                   sizeof why),
                      0, "%s", why);
        static const char *const kinds[] = {"ISS 0x", "BLK 0x", "DEM 0x", "LDU 0x", "LDC 0x",
                                            "CONF 0x", "READY", "DRN 0x", "DONE"};
        for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
            cr_assert(strstr(a, kinds[i]), "%s: no '%s' line", cfgs[k], kinds[i]);
        if (k == 0)
            cr_assert(strstr(a, "STALL 0x"), "the fpga BSQ fills");
        free(a);
    }
}

Test(stc_cu_tools, report_puts_table_4_beside_the_rtl_bits)
{
    char *o;
    cr_assert_eq(run("build/bin/cohgen stc-cu --report > build/t_stccu_rep.txt"), 0);
    o = slurp("build/t_stccu_rep.txt");
    cr_assert(strstr(o, "BSQ RAM bits:    8192 in 16 banks of 8 x 64 (paper Table 4: 8,192 bits per CU)"),
              "%s", o);
    free(o);
}

/* ========================================================== CU lockstep */

/* RTL timing (fpga: 4 banks of 8, drain 2): a store in its epoch reaches
 * the L1 register the cycle after it is accepted, one store per cycle;
 * ReadyAck the cycle after PREP when nothing is outstanding; a ChangeEpoch
 * accepted in cycle t over 32 queued stores of band 1 that stay (P = 4
 * rows) re-demands band 1 once (one extra cycle on the first beat) and
 * offers DoneAck in t + P + 3 + 1. */
Test(stc_cu_lockstep, rtl_latencies, .timeout = 60)
{
    const cohkit_unit_desc *u = cohkit_unit_find("stc-cu");
    const dut_ops *d = ls_dut_find(stc_duts, u, "fpga");
    stc_cu_cfg c;
    stc_cu_layout l;
    stc_cu_tm *tm;
    void *h;
    uint64_t in[64], mo[64], ro[64];
    unsigned direct = 0, blocked = 0, owed = 0, acked = 0, first_iss = 0, st_first = 0,
             prep_at = 0, rdy_at = 0, chg_at = 0, done_at = 0, dems = 0;
    cr_assert_not_null(d);
    stc_cu_cfg_preset(&c, "fpga");
    stc_cu_cfg_check(&c, (char[64]){0}, 64);
    stc_cu_port_layout(&c, &l);
    tm = stc_cu_tm_new(&c);
    h = d->create(2);
    for (unsigned cyc = 0; cyc < 300 && !done_at; cyc++) {
        memset(in, 0, sizeof in);
        in[l.in_word[STC_CU_I_RST]] = cyc >= 2;
        in[l.in_word[STC_CU_I_ISS_READY]] = 1;
        in[l.in_word[STC_CU_I_DEM_READY]] = 1;
        in[l.in_word[STC_CU_I_RDY_READY]] = 1;
        in[l.in_word[STC_CU_I_DONE_READY]] = 1;
        if (cyc >= 4 && direct < 10) { /* band 0: current */
            in[l.in_word[STC_CU_I_ST_VALID]] = 1;
            in[l.in_word[STC_CU_I_ST_ADDR]] = 0x40u * direct;
        } else if (cyc >= 4 && blocked < 32) { /* band 1: blocked */
            in[l.in_word[STC_CU_I_ST_VALID]] = 1;
            in[l.in_word[STC_CU_I_ST_ADDR]] = 0x1000u + 4 * blocked;
        } else if (cyc >= 4 && acked == 10 && !prep_at) {
            in[l.in_word[STC_CU_I_PREP_VALID]] = 1;
        } else if (rdy_at && !chg_at) {
            in[l.in_word[STC_CU_I_CHG_VALID]] = 1;
            in[l.in_word[STC_CU_I_CHG_CER]] = 1u << 2;
            in[l.in_word[STC_CU_I_CHG_SEB]] = 12;
        }
        in[l.in_word[STC_CU_I_WA]] = owed > 0; /* the L1 acks one store a cycle */
        stc_cu_tm_eval(tm, in, mo);
        d->eval(h, in, ro);
        if (cyc >= 2) {
            cr_assert_eq(memcmp(mo, ro, l.out_words * sizeof *mo), 0, "cycle %u", cyc);
            if (in[l.in_word[STC_CU_I_ST_VALID]]) {
                cr_assert(ro[l.out_word[STC_CU_O_ST_READY]], "cycle %u: one store a cycle", cyc);
                if (ro[l.out_word[STC_CU_O_ST_BLOCKED]])
                    blocked++;
                else {
                    st_first = st_first ? st_first : cyc;
                    direct++;
                }
            }
            if (owed > 0)
                owed--, acked++;
            if (ro[l.out_word[STC_CU_O_ISS_VALID]]) {
                first_iss = first_iss ? first_iss : cyc;
                owed++;
            }
            if (ro[l.out_word[STC_CU_O_DEM_VALID]])
                dems++;
            if (in[l.in_word[STC_CU_I_PREP_VALID]] && ro[l.out_word[STC_CU_O_PREP_READY]])
                prep_at = cyc;
            if (ro[l.out_word[STC_CU_O_RDY_VALID]] && !rdy_at)
                rdy_at = cyc;
            if (in[l.in_word[STC_CU_I_CHG_VALID]] && ro[l.out_word[STC_CU_O_CHG_READY]])
                chg_at = cyc;
            if (ro[l.out_word[STC_CU_O_DONE_VALID]])
                done_at = cyc;
        }
        stc_cu_tm_step(tm, in);
        d->tick(h);
    }
    cr_assert_eq(direct, 10);
    cr_assert_eq(blocked, 32);
    cr_assert_eq(first_iss, st_first + 1, "L1 register the cycle after acceptance");
    cr_assert_eq(rdy_at, prep_at + 1, "ReadyAck the cycle after PREP with PW = 0");
    cr_assert_gt(chg_at, 0);
    cr_assert_eq(done_at, chg_at + 4 + 3 + 1, "DoneAck: P + 3 + one re-demand");
    cr_assert_eq(dems, 2, "one demand at the first blocked store, one re-demand");
    d->destroy(h);
    stc_cu_tm_free(tm);
}

/* RTL timing of a full BSQ (default: 256 entries, 16 banks of 16, drain 2):
 * 256 stores of band 1 blocked, then a ChangeEpoch granting band 1, the
 * issue port always ready. Measured: the scan reads P = 8 rows, each row a
 * beat of 32 drained stores (16 banks x 2) that leave through the issue port
 * one per cycle, one idle cycle between beats: the first store at t + 4,
 * the last at t + 266 (256 stores in 263 cycles), DoneAck at t + 267.
 * docs/stc.md, stc-cu timing. */
Test(stc_cu_lockstep, rtl_full_bsq_drains_256_stores_one_per_cycle, .timeout = 60)
{
    const cohkit_unit_desc *u = cohkit_unit_find("stc-cu");
    const dut_ops *d = ls_dut_find(stc_duts, u, "default");
    stc_cu_cfg c;
    stc_cu_layout l;
    stc_cu_tm *tm;
    void *h;
    uint64_t in[64], mo[64], ro[64];
    unsigned blocked = 0, owed = 0, prep_at = 0, rdy_at = 0, chg_at = 0, done_at = 0,
             first_iss = 0, last_iss = 0, issued = 0, full_seen = 0;
    cr_assert_not_null(d);
    stc_cu_cfg_preset(&c, "default");
    stc_cu_cfg_check(&c, (char[64]){0}, 64);
    stc_cu_port_layout(&c, &l);
    tm = stc_cu_tm_new(&c);
    h = d->create(2);
    for (unsigned cyc = 0; cyc < 2000 && !done_at; cyc++) {
        memset(in, 0, sizeof in);
        in[l.in_word[STC_CU_I_RST]] = cyc >= 2;
        in[l.in_word[STC_CU_I_ISS_READY]] = 1;
        in[l.in_word[STC_CU_I_DEM_READY]] = 1;
        in[l.in_word[STC_CU_I_RDY_READY]] = 1;
        in[l.in_word[STC_CU_I_DONE_READY]] = 1;
        if (cyc >= 4 && blocked < 256) {
            in[l.in_word[STC_CU_I_ST_VALID]] = 1;
            in[l.in_word[STC_CU_I_ST_ADDR]] = 0x1000u + 4 * blocked;
        } else if (cyc >= 4 && !prep_at) {
            in[l.in_word[STC_CU_I_PREP_VALID]] = 1;
        } else if (rdy_at && !chg_at) {
            in[l.in_word[STC_CU_I_CHG_VALID]] = 1;
            in[l.in_word[STC_CU_I_CHG_CER]] = 1u << 1;
            in[l.in_word[STC_CU_I_CHG_SEB]] = 12;
        }
        in[l.in_word[STC_CU_I_WA]] = owed > 0;
        stc_cu_tm_eval(tm, in, mo);
        d->eval(h, in, ro);
        if (cyc >= 2) {
            cr_assert_eq(memcmp(mo, ro, l.out_words * sizeof *mo), 0, "cycle %u", cyc);
            if (in[l.in_word[STC_CU_I_ST_VALID]] && ro[l.out_word[STC_CU_O_ST_READY]]) {
                cr_assert(ro[l.out_word[STC_CU_O_ST_BLOCKED]]);
                blocked++;
            }
            full_seen |= (unsigned)ro[l.out_word[STC_CU_O_BSQ_FULL]];
            if (owed > 0)
                owed--;
            if (ro[l.out_word[STC_CU_O_ISS_VALID]]) {
                first_iss = first_iss ? first_iss : cyc;
                last_iss = cyc;
                issued++;
                owed++;
            }
            if (in[l.in_word[STC_CU_I_PREP_VALID]] && ro[l.out_word[STC_CU_O_PREP_READY]])
                prep_at = cyc;
            if (ro[l.out_word[STC_CU_O_RDY_VALID]] && !rdy_at)
                rdy_at = cyc;
            if (in[l.in_word[STC_CU_I_CHG_VALID]] && ro[l.out_word[STC_CU_O_CHG_READY]])
                chg_at = cyc;
            if (ro[l.out_word[STC_CU_O_DONE_VALID]])
                done_at = cyc;
        }
        stc_cu_tm_step(tm, in);
        d->tick(h);
    }
    cr_log_info("full BSQ: ChangeEpoch @%u, first drained store @%u, last @%u, DoneAck @%u",
                chg_at, first_iss, last_iss, done_at);
    cr_assert_eq(blocked, 256);
    cr_assert(full_seen, "bsq_full_o after 256 stores");
    cr_assert_eq(issued, 256);
    cr_assert_eq(last_iss - first_iss, 255 + 7, "one drained store a cycle, 7 beat bubbles");
    cr_assert_eq(first_iss, chg_at + 4, "first drained store");
    cr_assert_eq(done_at, chg_at + 267, "DoneAck");
    d->destroy(h);
    stc_cu_tm_free(tm);
}
