/*
 * Criterion tests of the HALCONE cache timestamp unit (cmodel/halcone/halcone_cache.c,
 * gen/halcone/halcone_cache_gen.c): the Fig. 5 values of the specification's section
 * 4 that concern the caches (the shared L2 of 5(a), the L1s of 5(a) and 5(b),
 * the L2s of 5(b)); the cache-side counterexamples of section 5.2 as
 * unit-level traces, each failing with its fix off and passing with it on;
 * the classification, LRU, lock, eviction and flash-invalidate rules; bad
 * options and traces; trace-mode equality of RTL and model; throughput and
 * latency (lockstep of every committed configuration: tb/test_registry.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "halcone_cache.h"
#include "lockstep.h"
#include "test_util.h"
#include "unit.h"

extern const dut_ops *const halcone_duts[];

/* cohmodel halcone-cache OPTS on TRACE; its stdout (malloc), exit status 0
 * asserted. */
static char *model(const char *opts, const char *trace)
{
    char args[512];
    snprintf(args, sizeof args, "halcone-cache %s", opts);
    return model_prints(args, trace);
}

static void expect(const char *opts, const char *trace, const char *want)
{
    char *o = model(opts, trace);
    cr_assert_not_null(o);
    cr_assert_str_eq(o, want, "cohmodel halcone-cache %s", opts);
    free(o);
}

static halcone_cache *mk(const char *preset, const char *opt, const char *val)
{
    halcone_cache_cfg c;
    char err[200];
    cr_assert_eq(halcone_cache_cfg_preset(&c, preset), 0);
    if (opt)
        cr_assert_eq(halcone_cache_cfg_option(&c, opt, val, err, sizeof err), 0, "%s", err);
    cr_assert_eq(halcone_cache_cfg_check(&c, err, sizeof err), 0, "%s", err);
    return halcone_cache_new(&c);
}

/* ------------------------------------------------------------- Fig. 5 -- */

Test(halcone_cache_fig5, shared_l2_of_intra_gpu_example_both_presets)
{
    /* spec 7.3: the shared L2 of Fig. 5(a) */
    static const char tr[] = "RD 0x0 0 10\nRD 0x40 0 7\nWR 0x40 8 12\nWR 0x0 11 15\nRD 0x40 0 0\n";
    static const char want[] = "RMISS 0x0 0 0 10\nRMISS 0x40 0 0 7\nWHIT 0x40 8 8 12\n"
                               "WHIT 0x0 11 11 15\nRHIT 0x40 11 8 12\n";
    expect("--rules paper", tr, want);
    expect("--rules safe", tr, want);
    expect("--config fpga --rules paper", tr, want);
}

Test(halcone_cache_fig5, l1s_of_intra_gpu_example)
{
    /* CU0: I0-1 LD X, I0-2 ST Y (L2 answers (8,12)), I0-3 LD X hits at 8 */
    static const char cu0[] = "RD 0x0 0 10\nWR 0x40 8 12\nRD 0x0 0 0\n";
    static const char cu0_want[] = "RMISS 0x0 0 0 10\nWMISS 0x40 8 8 12\nRHIT 0x0 8 0 10\n";
    /* CU1: I1-1 LD Y lease 7, I1-2 ST X (11,15), I1-3 LD Y: coherency miss
     * (11 > 7), the L2 hit answers (8,12): L1 Y (11,12), cts 11 */
    static const char cu1[] = "RD 0x40 0 7\nWR 0x0 11 15\nRD 0x40 8 12\n";
    static const char cu1_want[] = "RMISS 0x40 0 0 7\nWMISS 0x0 11 11 15\nREXP 0x40 11 11 12\n";
    expect("--rules paper", cu0, cu0_want);
    expect("--rules safe", cu0, cu0_want);
    expect("--rules paper", cu1, cu1_want);
    expect("--rules safe", cu1, cu1_want);
}

Test(halcone_cache_fig5, inter_gpu_example_l1_and_l2_of_gpu1)
{
    /* Fig. 5(b): GPU1's L2 and its CU0's L1 see the same commands; I1-3's
     * lease (0,7) expired at cts 11, memory grants (12,22): cts 12 (H16) */
    static const char g1[] = "RD 0x40 0 7\nWR 0x0 11 15\nRD 0x40 12 22\n";
    static const char g1_want[] = "RMISS 0x40 0 0 7\nWMISS 0x0 11 11 15\nREXP 0x40 12 12 22\n";
    /* GPU0: I0-2 misses its L2 (H17), granted (8,12); I0-3 hits in L1 at 8 */
    static const char g0[] = "RD 0x0 0 10\nWR 0x40 8 12\nRD 0x0 0 0\n";
    static const char g0_want[] = "RMISS 0x0 0 0 10\nWMISS 0x40 8 8 12\nRHIT 0x0 8 0 10\n";
    expect("--rules paper", g1, g1_want);
    expect("--rules safe", g1, g1_want);
    expect("--rules paper --role l2", g0, g0_want);
    expect("--rules safe --role l2", g0, g0_want);
}

/* ----------------------------------------------- counterexamples (5.2) -- */

/* V1: a cache whose cts is ahead of the grant extends the lease. The L2 at
 * cts 11 receives the TSU's (0,10) and keeps (11,10); the L1 below it then
 * computes max(11 + 1, 10) = 12 > 10, a lease the TSU never granted, and
 * hits on it at cts 11. S1 (Brts = rts): the L1 keeps (11,10), expired. */
Test(halcone_cache_v1, lease_extension_outlives_the_grant_paper_only)
{
    static const char l2[] = "RD 0x80 0 10\nWR 0x80 11 15\nRD 0x0 0 10\n";
    static const char l2_want[] = "RMISS 0x80 0 0 10\nWHIT 0x80 11 11 15\nRMISS 0x0 11 11 10\n";
    static const char l1[] = "RD 0x0 11 10\nRD 0x0 0 0\n";
    expect("--rules paper --role l2", l2, l2_want);
    expect("--rules safe --role l2", l2, l2_want);
    /* flaw: rts 12 above the granted 10, and a hit on it */
    expect("--rules paper", l1, "RMISS 0x0 11 11 12\nRHIT 0x0 11 11 12\n");
    expect("--rules paper --lease-ext on --rules safe", l1,
           "RMISS 0x0 11 11 12\nRHIT 0x0 11 11 12\n");
    /* fixed: rts as granted; the copy is expired on arrival */
    expect("--rules safe", l1, "RMISS 0x0 11 11 10\nREXP 0x0 11 11 0\n");
    expect("--rules paper --lease-ext off", l1, "RMISS 0x0 11 11 10\nREXP 0x0 11 11 0\n");
}

/* V1, zero-length variant (WrLease 1): wts = rts = 5 at one level; the
 * paper's fill makes it (5,6). */
Test(halcone_cache_v1, zero_length_write_lease_extended_paper_only)
{
    static const char tr[] = "WR 0x0 5 5\nRD 0x0 0 0\n";
    expect("--rules paper", tr, "WMISS 0x0 5 5 6\nRHIT 0x0 5 5 6\n");
    expect("--rules safe", tr, "WMISS 0x0 5 5 5\nRHIT 0x0 5 5 5\n");
    {
        /* P4 on the functional core: with S1 a filled block's rts equals the
         * rts received, on many random fills */
        halcone_cache *p = mk("paper", NULL, NULL), *s = mk("safe", NULL, NULL);
        unsigned i, ext = 0;
        uint64_t x = 88172645463325252ull;
        for (i = 0; i < 4000; i++) {
            halcone_cache_result rp, rs;
            uint32_t w, r;
            uint64_t a;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            a = (x & 0x3f) << 6;
            w = (uint32_t)(x >> 20) % 200 + i / 8;
            r = w + (uint32_t)(x >> 40) % 4 - 1;
            cr_assert_eq(halcone_cache_access(p, (x >> 8) & 1, a, w, r, &rp), 0);
            cr_assert_eq(halcone_cache_access(s, (x >> 8) & 1, a, w, r, &rs), 0);
            if (rs.kind != HALCONE_CACHE_RSP_RHIT)
                cr_assert_eq(rs.rts, r & 0xffff, "safe: fill rts %u, received %u", rs.rts, r);
            if (rp.kind != HALCONE_CACHE_RSP_RHIT && rp.rts != (r & 0xffff))
                ext++;
        }
        cr_assert_gt(ext, 100, "paper: the extension should show often (%u)", ext);
        halcone_cache_free(p);
        halcone_cache_free(s);
    }
}

/* V6: Alg. 1/2 literally (no cts update on read fills): the cache reads at
 * logical time 0 a value written at 5, and then hits with wts > cts (the H7
 * assertion wts <= cts <= rts fails). Fix: cts := max(cts, Bwts). */
Test(halcone_cache_v6, read_fill_without_cts_update_reads_the_future)
{
    static const char tr[] = "RD 0x0 5 15\nRD 0x0 0 0\n";
    expect("--rules paper --read-cts off", tr, "RMISS 0x0 0 5 15\nRHIT 0x0 0 5 15\n");
    expect("--rules paper", tr, "RMISS 0x0 5 5 15\nRHIT 0x0 5 5 15\n");
    expect("--rules safe", tr, "RMISS 0x0 5 5 15\nRHIT 0x0 5 5 15\n");
    /* writes update cts either way */
    expect("--rules paper --read-cts off", "WR 0x0 5 9\n", "WMISS 0x0 5 5 9\n");
}

/* V4/V8 at the cache: after the TSU re-initialises to 0 (paper), a cache
 * whose cts is near 2^W - 1 keeps missing: every fill (1,5) is dead on
 * arrival at cts 30. With S3 the epoch reset's flash invalidate (INV) zeroes
 * cts first and the block hits again. 5-bit timestamps. */
Test(halcone_cache_v8, cts_near_the_top_never_hits_again_without_the_epoch_reset)
{
    static const char paper[] = "WR 0x0 30 31\nRD 0x40 1 5\nRD 0x40 1 5\nRD 0x40 1 5\n";
    static const char safe[] = "WR 0x0 30 31\nINV\nRD 0x40 1 5\nRD 0x40 1 5\n";
    expect("--rules paper --ts-bits 5", paper,
           "WMISS 0x0 30 30 31\nRMISS 0x40 30 30 5\nREXP 0x40 30 30 5\nREXP 0x40 30 30 5\n");
    expect("--rules safe --ts-bits 5", safe,
           "WMISS 0x0 30 30 31\nINVALIDATED 1\nRMISS 0x40 1 1 5\nRHIT 0x40 1 1 5\n");
}

/* H12: under the paper rules wts + 1 at 2^W - 1 wraps to 0 (the extension
 * then does nothing); with --overflow reset it saturates. */
Test(halcone_cache_v8, wts_plus_one_wraps_under_reinit_saturates_under_reset)
{
    expect("--rules paper --ts-bits 5 --stats", "RD 0x0 31 20\n",
           "RMISS 0x0 31 31 20\n# reads hit 0 miss 1 exp 0  writes hit 0 miss 0 exp 0\n"
           "# victims 0 evicted 0 absent 0 invalidates 0 wraps 1 cts 31\n");
    expect("--rules paper --overflow reset --ts-bits 5", "RD 0x0 31 20\n", "RMISS 0x0 31 31 31\n");
    expect("--rules paper --ts-bits 5", "RD 0x0 30 20\n", "RMISS 0x0 30 30 31\n");
}

/* V7 needs the TSU (the system shows the REORDER); the cache's part of S4
 * is the cts on every request below: dn_cts_o exists exactly under safe. */
Test(halcone_cache_v7, request_cts_port_only_with_s4)
{
    const cohkit_unit_desc *u = cohkit_unit_find("halcone-cache");
    halcone_cache_cfg c;
    cohkit_port p[COHKIT_UNIT_PORTS_MAX];
    char err[200];
    int n, i, found;
    const char *const presets[] = {"paper", "safe"};
    unsigned k;
    cr_assert_not_null(u);
    for (k = 0; k < 2; k++) {
        cr_assert_eq(halcone_cache_cfg_preset(&c, presets[k]), 0);
        cr_assert_eq(halcone_cache_cfg_check(&c, err, sizeof err), 0);
        n = u->ports(&c, p, COHKIT_UNIT_PORTS_MAX);
        for (found = 0, i = 0; i < n; i++)
            found |= strcmp(p[i].name, "dn_cts_o") == 0;
        cr_assert_eq(found, (int)k, "%s: dn_cts_o", presets[k]);
    }
    {
        /* the request's cts is the cache's cts at lookup */
        halcone_cache *h = mk("safe", NULL, NULL);
        halcone_cache_result r;
        cr_assert_eq(halcone_cache_access(h, HALCONE_CACHE_OP_WR, 0x80, 21, 25, &r), 0);
        cr_assert_eq(halcone_cache_request(h, HALCONE_CACHE_OP_RD, 0x0, &r), 0);
        cr_assert_eq(r.pending, 1);
        cr_assert_eq(r.req_cts, 21);
        cr_assert_eq(halcone_cache_fill(h, 0x0, 0, 10, &r), 0);
        cr_assert_eq(r.kind, HALCONE_CACHE_RSP_RMISS);
        cr_assert_eq(r.cts, 21);
        halcone_cache_free(h);
    }
}

/* ------------------------------------------------------------ rules -- */

Test(halcone_cache_rules, lru_victims_evict_and_invalidate)
{
    /* fpga-like: one set of 2 ways (sets 2, line 64: 0x0, 0x80, 0x100 share
     * set 0); reads of 0x0 keep it young, 0x80 is the victim */
    static const char tr[] = "RD 0x0 0 50\nRD 0x80 1 50\nRD 0x0 0 0\nRD 0x100 2 60\n"
                             "EV 0x80\nEV 0x0\nEV 0x100\nRD 0x40 3 9\nINV\nRD 0x40 4 9\n";
    expect("--sets 2 --ways 2 --role l2", tr,
           "RMISS 0x0 0 0 50\nRMISS 0x80 1 1 50\nRHIT 0x0 1 0 50\nVICTIM 0x80 1 50\n"
           "RMISS 0x100 2 2 60\nABSENT 0x80\nEVICTED 0x0 0 50\nEVICTED 0x100 2 60\n"
           "RMISS 0x40 3 3 9\nINVALIDATED 1\nRMISS 0x40 4 4 9\n");
}

/* One set (fully associative): lines of any address share the set, so
 * 0x40, the least recently used, is the victim of 0x80; with two sets it
 * would lie in the other set. */
Test(halcone_cache_rules, one_set_is_fully_associative)
{
    static const char tr[] = "RD 0x0 0 50\nRD 0x40 1 50\nRD 0x0 0 0\nRD 0x80 2 60\nEV 0x40\nEV 0x0\n";
    expect("--sets 1 --ways 2 --role l2", tr,
           "RMISS 0x0 0 0 50\nRMISS 0x40 1 1 50\nRHIT 0x0 1 0 50\nVICTIM 0x40 1 50\n"
           "RMISS 0x80 2 2 60\nABSENT 0x40\nEVICTED 0x0 0 50\n");
    halcone_cache_free(mk("default", "sets", "1"));
}

Test(halcone_cache_rules, a_pending_write_locks_its_block_only)
{
    halcone_cache *h = mk("default", NULL, NULL);
    halcone_cache_result r;
    cr_assert_eq(halcone_cache_access(h, HALCONE_CACHE_OP_RD, 0x0, 0, 10, &r), 0);
    cr_assert_eq(halcone_cache_request(h, HALCONE_CACHE_OP_WR, 0x0, &r), 0);
    cr_assert_eq(r.kind, HALCONE_CACHE_RSP_WHIT);
    cr_assert_eq(r.pending, 1);
    /* V10/H23: every lookup of the locked block stalls */
    cr_assert_eq(halcone_cache_probe(h, 0x8, &r), -1);
    cr_assert_eq(halcone_cache_request(h, HALCONE_CACHE_OP_RD, 0x0, &r), -1);
    cr_assert_eq(halcone_cache_evict(h, 0x0, &r), -1);
    cr_assert_eq(halcone_cache_invalidate(h), -1);
    /* other blocks are served */
    cr_assert_eq(halcone_cache_access(h, HALCONE_CACHE_OP_RD, 0x40, 0, 10, &r), 0);
    cr_assert_eq(r.kind, HALCONE_CACHE_RSP_RMISS);
    cr_assert_eq(halcone_cache_fill(h, 0x0, 11, 15, &r), 0);
    cr_assert_eq(r.kind, HALCONE_CACHE_RSP_WHIT);
    cr_assert(r.cts == 11 && r.wts == 11 && r.rts == 15);
    cr_assert_eq(halcone_cache_probe(h, 0x0, &r), HALCONE_CACHE_HIT);
    cr_assert_eq(halcone_cache_fill(h, 0x0, 1, 2, &r), -1, "not locked any more");
    cr_assert_eq(halcone_cache_invalidate(h), 2);
    cr_assert_eq(halcone_cache_cts(h), 0);
    halcone_cache_free(h);
}

/* The lock in the timing shell (the RTL's behaviour, lockstep-checked): a
 * read of a block with a pending write is not accepted until its fill; a
 * read of another block is. */
Test(halcone_cache_rules, shell_stalls_a_locked_block_until_its_fill)
{
    halcone_cache_cfg c;
    halcone_cache_tm *t;
    uint64_t in[16], out[24];
    char err[200];
    unsigned cyc;
    cr_assert_eq(halcone_cache_cfg_preset(&c, "fpga"), 0);
    cr_assert_eq(halcone_cache_cfg_check(&c, err, sizeof err), 0);
    t = halcone_cache_tm_new(&c);
    memset(in, 0, sizeof in);
    in[0] = 1;
    in[8] = in[9] = in[10] = 1; /* rsp, dn, ev ready */
    for (cyc = 0; cyc < 40; cyc++) /* clearing sweep */
        halcone_cache_tm_step(t, in);
    in[1] = 1;
    in[2] = HALCONE_CACHE_OP_WR;
    in[3] = 0x40;
    halcone_cache_tm_eval(t, in, out);
    cr_assert_eq(out[0], 1, "write accepted");
    halcone_cache_tm_step(t, in);
    in[2] = HALCONE_CACHE_OP_RD;
    for (cyc = 0; cyc < 6; cyc++) {
        halcone_cache_tm_eval(t, in, out);
        cr_assert_eq(out[0], 0, "read of the locked block accepted at cycle %u", cyc);
        halcone_cache_tm_step(t, in);
    }
    in[3] = 0x80;
    halcone_cache_tm_eval(t, in, out);
    cr_assert_eq(out[0], 1, "read of another block stalled");
    halcone_cache_tm_step(t, in);
    in[1] = 0;
    in[4] = 1; /* fill id 0: (3, 9) */
    in[5] = 0;
    in[6] = 3;
    in[7] = 9;
    halcone_cache_tm_eval(t, in, out);
    cr_assert_eq(out[1], 1);
    halcone_cache_tm_step(t, in);
    in[4] = 0;
    in[1] = 1;
    in[3] = 0x40;
    for (cyc = 0; cyc < 4; cyc++) {
        halcone_cache_tm_eval(t, in, out);
        if (out[0])
            break;
        halcone_cache_tm_step(t, in);
    }
    cr_assert_lt(cyc, 4, "read of the unlocked block still stalled");
    halcone_cache_tm_free(t);
}

Test(halcone_cache_bad, traces_exit_2_with_the_line_and_no_output)
{
    model_refuses("halcone-cache", "", "RD 0x0 0 10\nLD 0x0 0 1\n", "line 2: unknown command 'LD'");
    model_refuses("halcone-cache", "", "RD 0x0 0 10\n\n# c\nRD 0x40 0\n",
                  "line 4: RD needs <addr> <wts> <rts>");
    model_refuses("halcone-cache", "", "EV\n", "line 1: EV needs <addr>");
    model_refuses("halcone-cache", "", "INV 3\n", "line 1: extra field '3'");
    model_refuses("halcone-cache", "", "WR 0x0 1 2 3\n", "line 1: extra field '3'");
    model_refuses("halcone-cache", "", "RD 0xzz 0 1\n", "line 1: '0xzz' is not a hex address");
    model_refuses("halcone-cache", "", "RD 0x100000000 0 1\n",
                  "line 1: address '0x100000000' exceeds 32 bits");
    model_refuses("halcone-cache", "", "RD 0x0 -1 1\n", "line 1: wts '-1' is not a decimal number");
    model_refuses("halcone-cache", "--ts-bits 5", "RD 0x0 0 32\n",
                  "line 1: rts '32' exceeds 31 (--ts-bits 5)");
    model_refuses("halcone-cache", "", "RD 0x0 0 99999999999999999999999\n", "line 1: rts");
    model_refuses("halcone-cache", "", "RD 0x0 0 1 cts=x\n",
                  "line 1: cts 'x' is not a decimal number 0..65535");
    model_refuses("halcone-cache", "--ts-bits 5", "WR 0x0 0 1 cts=32\n", "line 1: cts '32'");
    model_refuses("halcone-cache", "", "EV 0x0 cts=1\n", "line 1: extra field 'cts=1'");
    model_refuses("halcone-cache", "", "RD 0x0 0 1 cts=1 cts=2\n", "line 1: extra field 'cts=2'");
}

static void bad_opt(const char *opts, const char *msg)
{
    model_refuses("halcone-cache", opts, "RD 0x0 0 1\n", msg);
}

Test(halcone_cache_bad, options_name_the_offending_value)
{
    bad_opt("--rules strict", "--rules: 'strict' is not paper or safe");
    bad_opt("--lease-ext maybe", "--lease-ext: 'maybe' is not on or off");
    bad_opt("--overflow wrap", "--overflow: 'wrap' is not reinit or reset");
    bad_opt("--l1-req-cts yes", "--l1-req-cts: 'yes' is not on or off");
    bad_opt("--role l3", "--role: 'l3' is not l1 or l2");
    bad_opt("--sets 3", "--sets 3");
    bad_opt("--ways 64", "--ways 64");
    bad_opt("--ts-bits 3", "--ts-bits 3");
    bad_opt("--ts-bits 33", "--ts-bits 33");
    bad_opt("--pending 5", "--pending 5");
    bad_opt("--line 2", "--line 2");
    bad_opt("--addr-bits 12 --sets 64", "--addr-bits 12");
    gen_refuses("halcone-cache", "--ts-bits 40", "40");
}

/* ------------------------------------------------------ RTL and model -- */

/* A random trace: few sets and tags (hits, expirations, victims), fills
 * around a rising time with short, empty, inverted and top-of-range leases,
 * evictions and flash invalidates. */
static void write_trace(const char *path, unsigned tsbits, unsigned sets, uint64_t seed, unsigned n)
{
    FILE *f = fopen(path, "w");
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    uint32_t m = (1u << tsbits) - 1, now = 0;
    unsigned i;
    cr_assert_not_null(f);
    for (i = 0; i < n; i++) {
        unsigned r, set, tag;
        uint32_t w, t;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        r = (unsigned)(x % 100);
        set = (unsigned)(x >> 8) % 3;
        tag = (unsigned)(x >> 16) % 6;
        if ((x >> 24) % 4 == 0)
            now++;
        w = (now + (uint32_t)(x >> 30) % 3) & m;
        t = (x >> 40) % 10 == 0 ? w : (w + 1 + (uint32_t)(x >> 44) % 8);
        if ((x >> 50) % 20 == 0)
            w = m, t = m - 1;
        t &= m;
        /* one access in five carries a requester's cts (--l1-req-cts):
         * behind or ahead of the time */
        if (r < 85 && (x >> 36) % 5 == 0) {
            char up[24];
            snprintf(up, sizeof up, " cts=%u", (now + (uint32_t)(x >> 52) % 16 - 4) & m);
            if (r < 50)
                fprintf(f, "RD 0x%x %u %u%s\n", (tag * sets + set) * 64, w, t, up);
            else
                fprintf(f, "WR 0x%x %u %u%s\n", (tag * sets + set) * 64, w, t, up);
        } else if (r < 50)
            fprintf(f, "RD 0x%x %u %u\n", (tag * sets + set) * 64 + (unsigned)(x >> 56) % 64, w, t);
        else if (r < 85)
            fprintf(f, "WR 0x%x %u %u # store\n", (tag * sets + set) * 64, w, t);
        else if (r < 97)
            fprintf(f, "EV %x\n", (tag * sets + set) * 64);
        else
            fprintf(f, "INV\n");
    }
    fclose(f);
}

Test(halcone_cache_tools, tb_trace_prints_what_cohmodel_prints, .timeout = 120)
{
    static const char *const cfgs[] = {"fpga", "paper", "default"};
    unsigned i;
    for (i = 0; i < 3; i++) {
        char opts[48], why[1024] = "too short", *a = NULL;
        write_trace("build/t_hc_trace.txt", i == 0 ? 8 : 16, i == 0 ? 16 : 64, 5 + i, 400);
        snprintf(opts, sizeof opts, "--config %s --dump", cfgs[i]);
        cr_assert_gt(trace_agrees("halcone", "halcone-cache", opts, "build/t_hc_trace.txt", &a,
                                  NULL, why, sizeof why),
                     6000, "%s: %s", cfgs[i], why);
        cr_assert(strstr(a, "VICTIM") && strstr(a, "REXP") && strstr(a, "WHIT") &&
                  strstr(a, "EVICTED") && strstr(a, "INVALIDATED") && strstr(a, "BLOCK"));
        free(a);
    }
}

/* ------------------------------------------- the requester's cts (H24) -- */

/* The L2-bank counterexample of docs/halcone.md at the unit: a bank at cts
 * 0 holds X (0,10); an L1 whose cts went to 21 through another bank reads
 * X through this bank. Without the L1's cts the bank answers RHIT (0,10)
 * and the L1 reads at 21 on a lease that ended at 10; with it (safe,
 * req_cts_i) the bank's lookup is at 21: REXP, refetched. The committed RTL
 * of both presets prints what the model prints. */
Test(halcone_cache_l1_req_cts, bank_counterexample_rtl_equals_model_both_presets, .timeout = 60)
{
    static const char *const tr = "RD 0x0 0 10\n"
                                  "RD 0x0 21 31 cts=21\n"
                                  "RD 0x0 0 0 cts=3\n"
                                  "WR 0x40 30 34 cts=40\n"
                                  "RD 0x40 0 0\n";
    static const struct {
        const char *cfg, *want;
    } k[] = {
        {"fpga", "RMISS 0x0 0 0 10\nREXP 0x0 21 21 31\nRHIT 0x0 21 21 31\n"
                 "WMISS 0x40 40 40 34\nREXP 0x40 40 40 0\n"},
        {"default", "RMISS 0x0 0 0 10\nREXP 0x0 21 21 31\nRHIT 0x0 21 21 31\n"
                    "WMISS 0x40 40 40 34\nREXP 0x40 40 40 0\n"},
        {"paper", "RMISS 0x0 0 0 10\nRHIT 0x0 0 0 10\nRHIT 0x0 0 0 10\n"
                  "WMISS 0x40 30 30 34\nRHIT 0x40 30 30 34\n"},
    };
    char in[64];
    unsigned i;
    snprintf(in, sizeof in, "build/t_hc_uq.%d.trace", (int)getpid());
    put(in, tr);
    for (i = 0; i < 3; i++) {
        char *m = NULL, opts[64], why[1024];
        snprintf(opts, sizeof opts, "--config %s", k[i].cfg);
        cr_assert_geq(trace_agrees("halcone", "halcone-cache", opts, in, &m, NULL, why, sizeof why),
                      0, "%s", why);
        cr_assert_str_eq(m, k[i].want, "cohmodel %s", k[i].cfg);
        free(m);
    }
    /* the switch alone decides: safe with it off hits like the paper */
    {
        char *m = model("--config fpga --l1-req-cts off", "RD 0x0 0 10\nRD 0x0 21 31 cts=21\n");
        cr_assert_str_eq(m, "RMISS 0x0 0 0 10\nRHIT 0x0 0 0 10\n");
        free(m);
    }
    remove(in);
}

/* ------------------------------------------------------------ lockstep -- */

static void lockstep(const char *name, const char *stream, uint64_t cycles, uint64_t seed,
                     ls_result *r)
{
    ls_stream(r, halcone_duts, "halcone-cache", name, stream, cycles, seed);
}

/* One request per cycle: on the hits stream (valid and ready always high,
 * blocks leased to the end of time) every cycle after the clearing sweep and
 * the first misses accepts a request. */
Test(halcone_cache_lockstep, one_read_hit_per_cycle, .timeout = 120)
{
    static const char *const names[] = {"fpga", "default"};
    unsigned i;
    for (i = 0; i < 2; i++) {
        ls_result r;
        unsigned long long req, b2b, hits;
        lockstep(names[i], "hits", 10000, 3, &r);
        req = field(r.summary, "requests ");
        b2b = field(r.summary, "(back-to-back ");
        hits = field(r.summary, "RHIT ");
        cr_assert_gt(req, 9800, "%s: %llu requests in 10000 cycles", names[i], req);
        cr_assert_gt(b2b + 40, req, "%s: %llu of %llu back to back", names[i], b2b, req);
        cr_assert_gt(hits + 40, req, "%s: %llu hits", names[i], hits);
        ls_result_free(&r);
    }
}

/* A read hit answers two cycles after its acceptance (measured in trace
 * mode: rsp_valid_o in the second cycle after the request handshake). */
Test(halcone_cache_lockstep, read_hit_latency_is_two_cycles, .timeout = 60)
{
    char *o;
    write_trace("build/t_hc_lat.txt", 8, 16, 21, 300);
    cr_assert_eq(run("./tb_halcone --unit halcone-cache --config fpga --trace build/t_hc_lat.txt "
                     "> build/t_hc_lat.out"), 0);
    o = slurp("build/t_hc_lat.out");
    cr_assert_not_null(o);
    cr_assert(strstr(o, "# PASS"));
    cr_assert_eq(field(o, "read-hit latency (request handshake to response valid) min "), 2);
    cr_assert_eq(field(o, " max "), 2);
    cr_assert_gt(field(o, "cycles over "), 5);
    free(o);
}
