/*
 * HALCONE TSU: the Fig. 5 grants of the specification's section 4, the 7.2
 * examples, every TSU counterexample of 5.2 as a unit-level trace (the
 * paper rules show the flaw, the safe rules do not), overflow at 5-6 bit
 * timestamps, the safe rules' invariants on seeded random traces, bad
 * options and traces, trace-mode equality of RTL and model, latency and
 * throughput (lockstep of every committed configuration: tb/test_registry.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "halcone_tsu.h"
#include "halcone_tsu_rtl.h"
#include "lockstep.h"
#include "test_util.h"
#include "unit.h"

extern const dut_ops *const halcone_duts[];

/* A configuration from option words, through the registry (as the tools). */
static void cfg_of(halcone_tsu_cfg *c, const char *args)
{
    const cohkit_unit_desc *u = cohkit_unit_find("halcone-tsu");
    static unsigned char buf[512];
    char err[256];
    cr_assert_not_null(u);
    cr_assert_leq(u->cfg_size, sizeof buf);
    cr_assert_eq(cohkit_unit_cfg_parse_str(u, buf, args, err, sizeof err), 0, "%s: %s", args, err);
    memcpy(c, buf, sizeof *c); /* the unit's wrapper starts with the cfg */
}

static halcone_tsu *tsu_of(const char *args)
{
    halcone_tsu_cfg c;
    halcone_tsu *t;
    cfg_of(&c, args);
    t = halcone_tsu_new(&c);
    cr_assert_not_null(t);
    return t;
}

#define GRANT_IS(r, w, rr)                                                                         \
    do {                                                                                           \
        cr_assert_eq((r).kind, HALCONE_TSU_GRANT);                                                 \
        cr_assert_eq((r).wts, (w), "wts %u, expected %u", (r).wts, (unsigned)(w));                 \
        cr_assert_eq((r).rts, (rr), "rts %u, expected %u", (r).rts, (unsigned)(rr));               \
    } while (0)

/* ------------------------------------------------------------ Fig. 5 -- */

/* Spec 4: the TSU's grants in Fig. 5 (a) and (b), either preset: X (0,10),
 * Y (0,7) with the per-request lease, Y written (8,12) (stated), X written
 * (11,15) (cts 11 stated), and (b)'s refetch of Y (12,22) (derived). */
Test(halcone_tsu_fig5, grants_of_fig5_in_both_presets)
{
    static const char *const cfgs[] = {"--config paper", "--config default", "--rules paper",
                                       "--rules safe"};
    unsigned i;
    for (i = 0; i < 4; i++) {
        halcone_tsu *t = tsu_of(cfgs[i]);
        halcone_tsu_result r;
        r = halcone_tsu_read(t, 0x0, 0, 0);
        GRANT_IS(r, 0, 10);
        r = halcone_tsu_read(t, 0x40, 0, 7);
        GRANT_IS(r, 0, 7);
        /* the L2's cts is 0 at I0-2 and 8 at I1-2 (Fig. 5a) */
        r = halcone_tsu_write(t, 0x40, 0, 0);
        GRANT_IS(r, 8, 12);
        r = halcone_tsu_write(t, 0x0, 8, 0);
        GRANT_IS(r, 11, 15);
        cr_assert_eq(halcone_tsu_memts(t, 0x0, NULL), 15);
        cr_assert_eq(halcone_tsu_memts(t, 0x40, NULL), 12);
        /* (b) I1-3: GPU1's L2 at cts 11 refetches Y */
        r = halcone_tsu_read(t, 0x40, 11, 0);
        GRANT_IS(r, 12, 22);
        cr_assert_eq(r.hit, 1);
        halcone_tsu_free(t);
    }
}

/* A write lease is WrLease - 1 long: Fig. 5's "lease of 5" gives (8,12). */
Test(halcone_tsu_fig5, write_lease_is_wrlease_minus_one)
{
    halcone_tsu *t = tsu_of("--rules paper --wr-lease 5");
    halcone_tsu_result r = halcone_tsu_write(t, 0x1000, 0, 0);
    GRANT_IS(r, 1, 5);
    r = halcone_tsu_write(t, 0x1000, 0, 1);
    GRANT_IS(r, 6, 6); /* a zero-length lease (WrLease 1) */
    halcone_tsu_free(t);
}

/* ------------------------------------------------------ spec 7.2 tool -- */

static void tool_expect(const char *args, const char *input, const char *want)
{
    char cmd[256];
    cmd_out r;
    snprintf(cmd, sizeof cmd, "build/bin/cohmodel halcone-tsu %s", args);
    cr_assert_eq(run_in(&r, input, cmd), 0, "%s: exit %d: %s", cmd, r.status, r.err);
    cr_assert_str_eq(r.out, want, "%s:\n%s", cmd, r.out);
    cmd_out_free(&r);
}

Test(halcone_tsu_trace, spec_72_examples_exactly)
{
    static const char *const fig5 = "GRANT 0x0 0 10\nGRANT 0x40 0 7\nGRANT 0x40 8 12\n"
                                    "GRANT 0x0 11 15\nGRANT 0x40 12 22\n";
    tool_expect("--rules paper", "RD 0x0\nRD 0x40 lease=7\nWR 0x40\nWR 0x0\nRD 0x40\n", fig5);
    tool_expect("--rules safe", "RD 0x0\nRD 0x40 lease=7\nWR 0x40\nWR 0x0\nRD 0x40\n", fig5);
    tool_expect("--rules safe", "RD 0x0 cts=21\nWR 0x0 cts=3\nWR 0x0 cts=40\nRD 0x40 cts=2 lease=7\n",
                "GRANT 0x0 0 31\nGRANT 0x0 32 36\nGRANT 0x0 40 44\nGRANT 0x40 0 9\n");
    tool_expect("--sets 1 --ways 2", "RD 0x0\nRD 0x40 lease=20\nRD 0x80\nWR 0x0\n",
                "GRANT 0x0 0 10\nGRANT 0x40 0 20\nVICTIM 0x0 10\nFLOOR 10\nGRANT 0x80 10 20\n"
                "VICTIM 0x80 20\nFLOOR 20\nGRANT 0x0 21 25\n");
    tool_expect("--ts-bits 5", "WR 0x0\nWR 0x0\nWR 0x0\nWR 0x0\nWR 0x0\nWR 0x0\nWR 0x0\n",
                "GRANT 0x0 1 5\nGRANT 0x0 6 10\nGRANT 0x0 11 15\nGRANT 0x0 16 20\n"
                "GRANT 0x0 21 25\nGRANT 0x0 26 30\nRESET 1\nGRANT 0x0 1 5\n");
}

Test(halcone_tsu_trace, notices_dump_and_any_byte_of_a_block)
{
    /* share test now: now 30; X (memts 10) is old (30 - 10 >= 10), Y is not */
    tool_expect("--rules safe --dump",
                "# comment\n\nRD 0x3f # any byte of block 0\nRD 0x40 lease=30\nEV 0x0\nEV 0x7f\n"
                "EV 0x80\nRD 0x4\n",
                "GRANT 0x0 0 10\nGRANT 0x40 0 30\nREMOVE 0x0 10\nFLOOR 10\nKEEP 0x40 30\n"
                "ABSENT 0x80\nGRANT 0x0 10 20\nENTRY 0 0 0x0 20\nENTRY 1 0 0x40 30\n"
                "REG floor 10\nREG now 30\nREG epoch 0\n");
    /* per-set floor, share test rts */
    tool_expect("--floor set --share-test rts --dump", "RD 0x40\nEV 0x40 rts=10\nWR 0x40\n",
                "GRANT 0x40 0 10\nREMOVE 0x40 10\nFLOOR 10 1\nGRANT 0x40 11 15\n"
                "ENTRY 1 0 0x40 15\nREG floor[1] 10\nREG now 15\nREG epoch 0\n");
    /* memts 10 above the evicted copy's rts 9: another copy was granted later */
    tool_expect("--share-test rts", "RD 0x40\nEV 0x40 rts=9\n", "GRANT 0x40 0 10\nKEEP 0x40 10\n");
    tool_expect("--share-test keep", "RD 0x40\nEV 0x40\n", "GRANT 0x40 0 10\nKEEP 0x40 10\n");
    tool_expect("--share-test remove --floor none", "RD 0x40\nEV 0x40\n",
                "GRANT 0x40 0 10\nREMOVE 0x40 10\n");
}

/* ------------------------------------------- counterexamples of 5.2 -- */

/* A unit-level checker of the invariants the TSU owes the caches (spec 5.1):
 * I2: a write's wts is above every rts granted for the block earlier in the
 * epoch; I1 at the TSU: M(X) stays at or above every rts granted for X;
 * I3 at the TSU (with the requester's cts): a read's lease covers the cts
 * it is performed at, a write is not ordered before the writer's time. */
typedef struct {
    uint64_t addr[64];
    uint64_t max_rts[64];
    unsigned n;
    unsigned i1, i2, i3, resets, wraps;
} tsu_check;

static uint64_t *max_rts_of(tsu_check *k, uint64_t addr)
{
    unsigned i;
    for (i = 0; i < k->n; i++)
        if (k->addr[i] == addr)
            return &k->max_rts[i];
    cr_assert_lt(k->n, 64);
    k->addr[k->n] = addr;
    k->max_rts[k->n] = 0;
    return &k->max_rts[k->n++];
}

static halcone_tsu_result req(halcone_tsu *t, tsu_check *k, halcone_tsu_op op, uint64_t addr,
                              uint32_t cts, uint32_t lease)
{
    halcone_tsu_result r = halcone_tsu_request(t, op, addr, cts, lease, 0);
    uint64_t *m;
    unsigned i;
    if (r.reset) {
        k->resets++;
        for (i = 0; i < k->n; i++)
            k->max_rts[i] = 0; /* a new epoch: every copy was invalidated */
    }
    k->wraps += r.wrap;
    if (r.kind != HALCONE_TSU_GRANT)
        return r;
    m = max_rts_of(k, r.addr);
    if (op == HALCONE_TSU_WR && *m > 0 && r.wts <= *m)
        k->i2++;
    if (!r.reset && ((op == HALCONE_TSU_RD && r.rts < cts) || (op == HALCONE_TSU_WR && r.wts < cts)))
        k->i3++;
    if (r.rts > *m)
        *m = r.rts;
    for (i = 0; i < k->n; i++)
        if (halcone_tsu_memts(t, k->addr[i], NULL) < k->max_rts[i])
            k->i1++;
    return r;
}

/* V2: a full TSU evicts X (memts 10, the lowest) and X comes back at 0: the
 * write gets wts 1 inside X's live lease [0,10]. S2 (floor) fixes it. */
Test(halcone_tsu_counterexamples, v2_capacity_eviction_needs_the_floor)
{
    unsigned p;
    for (p = 0; p < 2; p++) {
        halcone_tsu *t = tsu_of(p ? "--rules safe --sets 1 --ways 2" : "--rules paper --sets 1 --ways 2");
        tsu_check k;
        halcone_tsu_result r;
        memset(&k, 0, sizeof k);
        req(t, &k, HALCONE_TSU_RD, 0x0, 0, 0);
        req(t, &k, HALCONE_TSU_RD, 0x40, 0, 20);
        r = req(t, &k, HALCONE_TSU_RD, 0x80, 0, 0);
        cr_assert(r.victim && r.victim_addr == 0x0 && r.victim_memts == 10);
        r = req(t, &k, HALCONE_TSU_WR, 0x0, 0, 0);
        if (p == 0) {
            GRANT_IS(r, 1, 5);
            cr_assert_gt(k.i2, 0, "paper: the write must land inside the live lease");
        } else {
            cr_assert_eq(r.floor_raised, 1);
            GRANT_IS(r, 21, 25);
            cr_assert_eq(k.i1 + k.i2 + k.i3, 0, "safe: invariant broken");
        }
        halcone_tsu_free(t);
    }
}

/* V3: an eviction notice judged "not shared" (now 30 - memts 10 >= 10)
 * removes X while CU0's L1 still holds [0,10]; the next write gets wts 1. */
Test(halcone_tsu_counterexamples, v3_notice_removal_needs_the_floor)
{
    unsigned p;
    for (p = 0; p < 2; p++) {
        halcone_tsu *t = tsu_of(p ? "--rules safe" : "--rules paper");
        tsu_check k;
        halcone_tsu_result r;
        memset(&k, 0, sizeof k);
        req(t, &k, HALCONE_TSU_RD, 0x0, 0, 0);
        req(t, &k, HALCONE_TSU_RD, 0x40, 0, 30);
        r = halcone_tsu_evict(t, 0x0, 0);
        cr_assert_eq(r.kind, HALCONE_TSU_REMOVE);
        cr_assert_eq(r.memts, 10);
        cr_assert_eq(r.floor_raised, p);
        r = req(t, &k, HALCONE_TSU_WR, 0x0, 0, 0);
        if (p == 0) {
            GRANT_IS(r, 1, 5);
            cr_assert_gt(k.i2, 0);
        } else {
            GRANT_IS(r, 11, 15);
            cr_assert_eq(k.i1 + k.i2 + k.i3, 0);
        }
        halcone_tsu_free(t);
    }
}

/* V4: at 5 bits, X read (0,10) then written 4 times (11, 16, 21, 26); the
 * fifth write overflows: paper re-initialises (WRAP, (1,5): inside the
 * lease [0,10] GPU0 still holds), safe resets the epoch first (RESET 1). */
Test(halcone_tsu_counterexamples, v4_overflow_reinit_vs_epoch_reset)
{
    unsigned p, i;
    for (p = 0; p < 2; p++) {
        halcone_tsu *t = tsu_of(p ? "--rules safe --ts-bits 5" : "--rules paper --ts-bits 5");
        tsu_check k;
        halcone_tsu_result r;
        memset(&k, 0, sizeof k);
        r = req(t, &k, HALCONE_TSU_RD, 0x0, 0, 0);
        GRANT_IS(r, 0, 10);
        for (i = 0; i < 4; i++) {
            r = req(t, &k, HALCONE_TSU_WR, 0x0, 0, 0);
            GRANT_IS(r, 11 + 5 * i, 15 + 5 * i);
        }
        r = req(t, &k, HALCONE_TSU_WR, 0x0, 0, 0);
        GRANT_IS(r, 1, 5);
        cr_assert_eq(r.wrap, p == 0);
        cr_assert_eq(r.reset, p == 1);
        if (p == 0) {
            cr_assert_gt(k.i2, 0);
            cr_assert_eq(t->epoch, 0);
        } else {
            cr_assert_eq(r.epoch, 1);
            cr_assert_eq(t->epoch, 1);
            cr_assert_eq(k.i1 + k.i2 + k.i3, 0);
        }
        halcone_tsu_free(t);
    }
}

/* V5: Alg. 3 literally (write wts = memts) ties with the last rts: the write
 * at 10 is not after the read lease [0,10]. Fig. 5's + 1 fixes it. */
Test(halcone_tsu_counterexamples, v5_literal_write_ties_with_the_lease)
{
    static const char *const cfgs[] = {"--rules paper --wr-wts literal", "--rules paper",
                                       "--rules safe"};
    unsigned p;
    for (p = 0; p < 3; p++) {
        halcone_tsu *t = tsu_of(cfgs[p]);
        tsu_check k;
        halcone_tsu_result r;
        memset(&k, 0, sizeof k);
        req(t, &k, HALCONE_TSU_RD, 0x0, 0, 0);
        req(t, &k, HALCONE_TSU_RD, 0x40, 0, 0);
        r = req(t, &k, HALCONE_TSU_WR, 0x0, 0, 0);
        if (p == 0) {
            GRANT_IS(r, 10, 15);
            cr_assert_gt(k.i2, 0);
        } else {
            GRANT_IS(r, 11, 15);
            cr_assert_eq(k.i2, 0);
        }
        halcone_tsu_free(t);
    }
}

/* V7: the TSU ignores the requester's time. GPU0's L2 is at cts 21 after
 * its write of Z; its read of X is granted (0,10) and performed at 21, and
 * GPU1's later write of X gets wts 11 < 21. S4 grants (0,31) and (32,36). */
Test(halcone_tsu_counterexamples, v7_requester_cts_orders_grants)
{
    unsigned p;
    for (p = 0; p < 2; p++) {
        halcone_tsu *t = tsu_of(p ? "--rules safe" : "--rules paper");
        tsu_check k;
        halcone_tsu_result r;
        memset(&k, 0, sizeof k);
        req(t, &k, HALCONE_TSU_RD, 0x80, 0, 0);  /* GPU1 */
        req(t, &k, HALCONE_TSU_RD, 0x80, 0, 0);  /* GPU0: (10,20), GPU0 cts 10 */
        r = req(t, &k, HALCONE_TSU_WR, 0x80, 10, 0);
        GRANT_IS(r, 21, 25); /* GPU0 cts 21 */
        r = req(t, &k, HALCONE_TSU_RD, 0x0, 21, 0);
        if (p == 0) {
            GRANT_IS(r, 0, 10);
            cr_assert_gt(k.i3, 0, "paper: the read's lease ends before its time");
        } else {
            GRANT_IS(r, 0, 31);
        }
        r = req(t, &k, HALCONE_TSU_WR, 0x0, 0, 0); /* GPU1, cts 0 */
        if (p == 0) {
            GRANT_IS(r, 11, 15); /* below the read at 21 */
        } else {
            GRANT_IS(r, 32, 36);
            cr_assert_eq(k.i1 + k.i2 + k.i3, 0);
        }
        halcone_tsu_free(t);
    }
}

/* Seeded random traces over a tiny TSU at 5, 6 and 16 bits, with notices,
 * lease overrides and cts values: the safe rules keep I1-I3 on every grant
 * and overflow by epoch resets; the paper rules break them and wrap. */
static void random_run(const char *args, uint64_t seed, unsigned n, tsu_check *k)
{
    halcone_tsu *t = tsu_of(args);
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    uint32_t cts[4] = {0, 0, 0, 0}; /* four requesting L2s */
    unsigned i;
    memset(k, 0, sizeof *k);
    for (i = 0; i < n; i++) {
        unsigned r, g;
        uint64_t addr;
        halcone_tsu_result res;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        r = (unsigned)((s >> 33) % 100);
        g = (unsigned)((s >> 40) & 3);
        addr = ((s >> 45) % 12) * 0x40;
        if (r < 15) {
            halcone_tsu_evict(t, addr, (uint32_t)((s >> 20) & 31));
            continue;
        }
        res = req(t, k, r < 55 ? HALCONE_TSU_RD : HALCONE_TSU_WR, addr, cts[g],
                  (s >> 52) % 4 == 0 ? (uint32_t)(1 + (s >> 56) % 9) : 0);
        if (res.reset)
            memset(cts, 0, sizeof cts);
        /* the L2 moves its cts to the grant's wts (a fill) */
        if (res.wts > cts[g])
            cts[g] = res.wts;
    }
    halcone_tsu_free(t);
}

Test(halcone_tsu_counterexamples, random_traces_safe_keeps_invariants_paper_does_not)
{
    static const char *const widths[] = {"--ts-bits 5", "--ts-bits 6", "--ts-bits 16"};
    unsigned w, seed;
    for (w = 0; w < 3; w++) {
        unsigned paper_bad = 0, paper_wraps = 0, safe_resets = 0;
        for (seed = 1; seed <= 20; seed++) {
            char a[128];
            tsu_check k;
            snprintf(a, sizeof a, "--rules safe --sets 2 --ways 2 %s", widths[w]);
            random_run(a, seed, 400, &k);
            cr_assert_eq(k.i1 + k.i2 + k.i3, 0, "safe %s seed %u: I1 %u I2 %u I3 %u", widths[w],
                         seed, k.i1, k.i2, k.i3);
            cr_assert_eq(k.wraps, 0);
            safe_resets += k.resets;
            snprintf(a, sizeof a, "--rules paper --sets 2 --ways 2 %s", widths[w]);
            random_run(a, seed, 400, &k);
            paper_bad += k.i2 + k.i3;
            paper_wraps += k.wraps;
            cr_assert_eq(k.resets, 0);
        }
        cr_assert_gt(paper_bad, 0, "paper %s: no violation in 20 runs", widths[w]);
        if (w < 2) {
            cr_assert_gt(safe_resets, 0, "%s: no overflow in a short run", widths[w]);
            cr_assert_gt(paper_wraps, 0, "%s: no wrap in a short run", widths[w]);
        }
    }
}

/* Each safe fix alone: with one switch back at the paper value, the safe
 * rules fail again on its counterexample family (spec 5.4). */
Test(halcone_tsu_counterexamples, each_fix_is_its_own_switch)
{
    halcone_tsu *t;
    tsu_check k;
    halcone_tsu_result r;
    /* --floor none under safe: V2 returns */
    t = tsu_of("--rules safe --floor none --sets 1 --ways 2");
    memset(&k, 0, sizeof k);
    req(t, &k, HALCONE_TSU_RD, 0x0, 0, 0);
    req(t, &k, HALCONE_TSU_RD, 0x40, 0, 20);
    req(t, &k, HALCONE_TSU_RD, 0x80, 0, 0);
    r = req(t, &k, HALCONE_TSU_WR, 0x0, 0, 0);
    GRANT_IS(r, 1, 5);
    halcone_tsu_free(t);
    /* --overflow reinit under safe: V4 returns */
    t = tsu_of("--ts-bits 5 --overflow reinit");
    r = halcone_tsu_write(t, 0x0, 0, 31);
    GRANT_IS(r, 1, 31);
    r = halcone_tsu_write(t, 0x0, 0, 0);
    cr_assert_eq(r.wrap, 1);
    GRANT_IS(r, 1, 5);
    halcone_tsu_free(t);
    /* --req-cts off under safe: V7 returns; order of --rules and switch free */
    t = tsu_of("--req-cts off --rules safe");
    r = halcone_tsu_read(t, 0x0, 21, 0);
    GRANT_IS(r, 0, 10);
    halcone_tsu_free(t);
    /* --floor global under paper */
    t = tsu_of("--floor global --rules paper --sets 1 --ways 1");
    halcone_tsu_read(t, 0x0, 0, 0);
    r = halcone_tsu_read(t, 0x40, 0, 0);
    cr_assert(r.victim && r.floor_raised);
    GRANT_IS(r, 10, 20);
    halcone_tsu_free(t);
}

/* Lease registers: reset values, programming, per-request override. */
Test(halcone_tsu_fig5, lease_registers_and_override)
{
    halcone_tsu *t = tsu_of("--rd-lease 3 --wr-lease 7");
    halcone_tsu_result r = halcone_tsu_read(t, 0x0, 0, 0);
    GRANT_IS(r, 0, 3);
    halcone_tsu_set_leases(t, 20, 0); /* 0 keeps WrLease */
    r = halcone_tsu_read(t, 0x0, 0, 0);
    GRANT_IS(r, 3, 23);
    r = halcone_tsu_write(t, 0x0, 0, 0);
    GRANT_IS(r, 24, 30);
    r = halcone_tsu_write(t, 0x0, 0, 2);
    GRANT_IS(r, 31, 32);
    halcone_tsu_reset(t);
    cr_assert_eq(t->rd_lease, 3);
    cr_assert_eq(t->wr_lease, 7);
    halcone_tsu_free(t);
}

/* The victim: invalid ways first, else the lowest memts, ties lowest way. */
Test(halcone_tsu_fig5, lowest_memts_victim_ties_to_lowest_way)
{
    halcone_tsu *t = tsu_of("--sets 1 --ways 4 --floor none");
    halcone_tsu_result r;
    halcone_tsu_read(t, 0x000, 0, 9);
    halcone_tsu_read(t, 0x040, 0, 4);
    halcone_tsu_read(t, 0x080, 0, 4);
    halcone_tsu_read(t, 0x0c0, 0, 6);
    r = halcone_tsu_read(t, 0x100, 0, 0);
    cr_assert(r.victim && r.victim_addr == 0x040 && r.victim_memts == 4);
    /* share test now: now is 10; kept while memts + max lease > now */
    r = halcone_tsu_evict(t, 0x080, 0);
    cr_assert_eq(r.kind, HALCONE_TSU_KEEP);
    halcone_tsu_read(t, 0x100, 0, 25); /* now 35 */
    r = halcone_tsu_evict(t, 0x080, 0);
    cr_assert_eq(r.kind, HALCONE_TSU_REMOVE);
    cr_assert_eq(r.memts, 4);
    cr_assert_eq(r.floor_raised, 0); /* no floor */
    r = halcone_tsu_evict(t, 0x080, 0);
    cr_assert_eq(r.kind, HALCONE_TSU_ABSENT);
    /* the freed way is taken before any valid one */
    r = halcone_tsu_read(t, 0x140, 0, 0);
    cr_assert_eq(r.victim, 0);
    halcone_tsu_free(t);
}

/* ---------------------------------------------------------- bad input -- */

Test(halcone_tsu_bad_input, malformed_trace_lines_exit_2_with_line_and_no_output)
{
    static const struct {
        const char *args, *in, *msg;
    } bad[] = {
        {"", "RD 0x0\nXX 0x0\n", "stdin: line 2: unknown command 'XX'"},
        {"", "RD\n", "line 1: RD needs an address"},
        {"", "RD 0xg0\n", "line 1: '0xg0' is not a hex address"},
        {"", "RD 0x1000000000000\n", "line 1: address 0x1000000000000 exceeds 48 bits"},
        {"", "\nRD 0x0 lease=0\n", "line 2: lease '0' is not 1..65535"},
        {"", "WR 0x0 lease=65536\n", "line 1: lease '65536' is not 1..65535"},
        {"--ts-bits 5", "WR 0x0 cts=32\n", "line 1: cts '32' is not 0..31"},
        {"", "RD 0x0 cts=1 cts=2\n", "line 1: unexpected or repeated 'cts='"},
        {"", "RD 0x0 rts=1\n", "line 1: unexpected or repeated 'rts='"},
        {"", "EV 0x0 lease=3\n", "line 1: unexpected or repeated 'lease='"},
        {"", "EV 0x0 junk\n", "line 1: unexpected 'junk'"},
        {"--share-test rts", "EV 0x0\n", "line 1: EV needs rts=<r> with --share-test rts"},
        {"", "RD 0x0 cts=-1\n", "line 1: cts '-1' is not 0..65535"},
    };
    unsigned i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "build/bin/cohmodel halcone-tsu %s", bad[i].args);
        refused_on(cmd, bad[i].in, bad[i].msg);
    }
}

Test(halcone_tsu_bad_input, bad_options_exit_2_naming_the_value)
{
    static const struct {
        const char *args, *msg;
    } bad[] = {
        {"--ts-bits 3", "--ts-bits 3: must be 4..32"},
        {"--ts-bits 33", "--ts-bits 33"},
        {"--sets 3", "--sets 3: must be a power of two"},
        {"--ways 17", "--ways 17: must be 1..16"},
        {"--ways 0", "--ways 0"},
        {"--rd-lease 0", "--rd-lease 0: must be 1..65535"},
        {"--ts-bits 5 --wr-lease 32", "--wr-lease 32: must be 1..31"},
        {"--rules fast", "--rules: 'fast' is not paper or safe"},
        {"--floor tall", "--floor: 'tall' is not none, global or set"},
        {"--overflow wrap", "--overflow: 'wrap' is not reinit or reset"},
        {"--req-cts yes", "--req-cts: 'yes' is not on or off"},
        {"--share-test maybe", "--share-test: 'maybe' is not now, rts, keep or remove"},
        {"--wr-wts plus2", "--wr-wts: 'plus2' is not literal or plus1"},
        {"--lease-ext maybe", "--lease-ext: 'maybe' is not on or off"},
        {"--sets x", "--sets: 'x' is not a non-negative decimal integer"},
        {"--addr-bits 16 --line 4096 --sets 16", "--sets 16: needs more index bits"},
        {"--config huge", "huge"},
    };
    unsigned i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "build/bin/cohmodel halcone-tsu %s", bad[i].args);
        refused_on(cmd, "RD 0x0\n", bad[i].msg);
    }
    /* the generator too: exit 2, no file written */
    gen_refuses("halcone-tsu", "--ts-bits 40", "--ts-bits 40");
}

/* --------------------------------------------------- RTL against model -- */

Test(halcone_tsu_rtl, trace_mode_prints_what_cohmodel_prints, .timeout = 120)
{
    FILE *f = fopen("build/t_tsu_trace.txt", "w");
    uint64_t s = 11;
    unsigned i;
    cr_assert_not_null(f);
    fprintf(f, "# random TSU trace: few sets, leases large enough to overflow\n");
    for (i = 0; i < 3000; i++) {
        unsigned r;
        uint64_t addr;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        r = (unsigned)((s >> 33) % 100);
        /* 11 tags in sets 0, 1, 2 of both the 64-set and the 512-set TSU */
        addr = ((((s >> 8) % 11) << 9 | ((s >> 20) % 3)) << 6) | ((s >> 50) & 63);
        if (r < 45)
            fprintf(f, "RD 0x%llx", (unsigned long long)addr);
        else if (r < 85)
            fprintf(f, "WR %llx", (unsigned long long)addr);
        else
            fprintf(f, "EV 0x%llx\n", (unsigned long long)addr);
        if (r < 85) {
            if ((s >> 40) % 3 == 0)
                fprintf(f, " cts=%u", (unsigned)((s >> 42) % 2000));
            if ((s >> 44) % 4 == 0)
                fprintf(f, " lease=%u", 1 + (unsigned)((s >> 46) % ((s >> 60) > 3 ? 40 : 30000)));
            fprintf(f, "\n");
        }
    }
    fclose(f);
    for (i = 0; i < 3; i++) {
        static const char *const cfg[] = {"fpga", "paper", "default"};
        char opts[32], why[1024] = "too little output", *a = NULL;
        snprintf(opts, sizeof opts, "--config %s", cfg[i]);
        cr_assert_gt(trace_agrees("halcone", "halcone-tsu", opts, "build/t_tsu_trace.txt", &a, NULL,
                                  why, sizeof why),
                     30000, "%s: %s", cfg[i], why);
        cr_assert_not_null(strstr(a, "VICTIM"));
        cr_assert_not_null(strstr(a, i == 1 ? "WRAP" : "RESET"), "%s: no overflow in the trace", cfg[i]);
        cr_assert_not_null(strstr(a, "REMOVE"));
        free(a);
    }
}

static void lockstep(const char *name, const char *stream, uint64_t cycles, uint64_t seed,
                     ls_result *r)
{
    ls_stream(r, halcone_duts, "halcone-tsu", name, stream, cycles, seed);
}

/* One request per cycle and a response 3 cycles after acceptance, with
 * back-to-back requests to two sets (forwarding every cycle). */
Test(halcone_tsu_rtl, one_request_per_cycle_latency_3, .timeout = 120)
{
    static const char *const names[] = {"fpga", "default"};
    static const unsigned sets[] = {64, 512};
    unsigned i;
    for (i = 0; i < 2; i++) {
        ls_result r;
        unsigned long long acc;
        const char *lat;
        lockstep(names[i], "full", 20000, 21, &r);
        acc = field(r.summary, "requests accepted ");
        /* every cycle after reset and the clearing sweep accepts a request */
        cr_assert_eq(acc, 20000ull - sets[i] - LS_RESET_CYCLES, "%s: %llu accepted", names[i], acc);
        cr_assert_eq(field(r.summary, "resets "), 0);
        lat = strstr(r.summary, "to response transfer ");
        cr_assert_not_null(lat);
        cr_assert_eq(strncmp(lat + strlen("to response transfer "), "3.00\n", 5), 0,
                     "%s: mean latency %s", names[i], lat);
        ls_result_free(&r);
    }
}

/* The Verilated TSU at transaction level (tb/halcone/halcone_tsu_rtl.c), as a system
 * model substitutes it for the functional core: Fig. 5 on the RTL, then
 * seeded random requests (notices, overrides, cts, lease programming,
 * external epoch resets) whose results equal the core's. */
static int same_result(const halcone_tsu_result *a, const halcone_tsu_result *b)
{
    halcone_tsu_result x = *a, y = *b;
    if (x.kind == HALCONE_TSU_GRANT) {
        x.hit = y.hit = 0;  /* not on the ports */
        x.memts = y.memts = 0;
    }
    return memcmp(&x, &y, sizeof x) == 0;
}

Test(halcone_tsu_rtl, transaction_level_rtl_equals_the_core, .timeout = 120)
{
    static const char *const names[] = {"fpga", "paper", "default"};
    const cohkit_unit_desc *u = cohkit_unit_find("halcone-tsu");
    unsigned i;
    for (i = 0; i < 3; i++) {
        char err[256];
        const dut_ops *d = ls_dut_find(halcone_duts, u, names[i]);
        halcone_tsu_rtl *r = halcone_tsu_rtl_new(d, err, sizeof err);
        halcone_tsu *t;
        halcone_tsu_result a, b;
        uint64_t s = 77 + i;
        unsigned n, resets = 0, wraps = 0, victims = 0, removes = 0;
        cr_assert_not_null(r, "%s: %s", names[i], err);
        t = halcone_tsu_new(halcone_tsu_rtl_cfg(r));
        cr_assert_not_null(t);
        cr_assert_eq(halcone_tsu_rtl_request(r, HALCONE_TSU_RD, 0x0, 0, 0, 0, &a), 0);
        GRANT_IS(a, 0, 10);
        cr_assert_eq(halcone_tsu_rtl_request(r, HALCONE_TSU_RD, 0x40, 0, 7, 0, &a), 0);
        GRANT_IS(a, 0, 7);
        cr_assert_eq(halcone_tsu_rtl_request(r, HALCONE_TSU_WR, 0x40, 0, 0, 0, &a), 0);
        GRANT_IS(a, 8, 12);
        cr_assert_eq(halcone_tsu_rtl_request(r, HALCONE_TSU_WR, 0x0, 8, 0, 0, &a), 0);
        GRANT_IS(a, 11, 15);
        halcone_tsu_read(t, 0x0, 0, 0);
        halcone_tsu_read(t, 0x40, 0, 7);
        halcone_tsu_write(t, 0x40, 0, 0);
        halcone_tsu_write(t, 0x0, 8, 0);
        for (n = 0; n < 3000; n++) {
            unsigned k, op;
            uint64_t addr;
            uint32_t cts, lease, rts;
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            k = (unsigned)((s >> 33) % 1000);
            if (k < 3) {
                cr_assert_eq(halcone_tsu_rtl_epoch_reset(r), 0, "%s: %s", names[i], halcone_tsu_rtl_error(r));
                halcone_tsu_epoch_reset(t);
                continue;
            }
            if (k < 8) {
                uint32_t rl = (uint32_t)((s >> 20) % 30), wl = (uint32_t)((s >> 40) % 30);
                cr_assert_eq(halcone_tsu_rtl_set_leases(r, rl, wl), 0);
                halcone_tsu_set_leases(t, rl, wl);
                continue;
            }
            op = k < 450 ? HALCONE_TSU_RD : k < 850 ? HALCONE_TSU_WR : k < 990 ? HALCONE_TSU_EV : HALCONE_TSU_NOP;
            addr = ((((s >> 8) % 11) << 9) | ((s >> 20) % 3)) << 6;
            cts = (s >> 44) % 5 == 0 ? (uint32_t)((s >> 46) % 65536) : (uint32_t)((s >> 46) % 50);
            lease = (s >> 50) % 3 == 0 ? (uint32_t)(1 + (s >> 14) % 30000) : 0;
            rts = (uint32_t)((s >> 24) % 200);
            cr_assert_geq(halcone_tsu_rtl_request(r, (halcone_tsu_op)op, addr, cts, lease, rts, &a), 0,
                          "%s request %u: %s", names[i], n, halcone_tsu_rtl_error(r));
            if (op == HALCONE_TSU_NOP)
                continue;
            b = halcone_tsu_request(t, (halcone_tsu_op)op, addr, cts, lease, rts);
            cr_assert(same_result(&a, &b), "%s request %u: RTL %u %llx %u %u, core %u %llx %u %u",
                      names[i], n, a.kind, (unsigned long long)a.addr, a.wts, a.rts, b.kind,
                      (unsigned long long)b.addr, b.wts, b.rts);
            resets += a.reset;
            wraps += a.wrap;
            victims += a.victim;
            removes += a.kind == HALCONE_TSU_REMOVE;
        }
        /* an overflow of its own: an epoch reset (safe) or a wrap (paper) */
        cr_assert_gt(i == 1 ? wraps : resets, 0, "%s: no overflow", names[i]);
        cr_assert_gt(victims, 0, "%s: no victim", names[i]);
        cr_assert_gt(removes, 0, "%s: no removal", names[i]);
        halcone_tsu_free(t);
        halcone_tsu_rtl_free(r);
    }
}
