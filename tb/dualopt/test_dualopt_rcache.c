/*
 * Criterion tests of the DualOpt RDMA cache (cmodel/dualopt/dualopt_rcache.c,
 * gen/dualopt/dualopt_rcache_gen.c): every rule of spec 2.5 / readings D21-D24 on
 * the functional core (hit, miss with a clean and a dirty victim, LRU,
 * full and partial write misses, atomic bypass with the line written back
 * and invalidated, kernel flush order and counts), the modulo index of
 * 1,536 sets (D22), the trace tool's format and bad input, trace-mode
 * equality of RTL and model, and the timing measured on the RTL (lockstep
 * of every committed configuration: tb/test_registry.c): hit latency, one hit
 * per cycle, requests held during a flush, write-backs held under
 * back-pressure.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_rcache.h"
#include "lockstep.h"
#include "test_util.h"
#include "unit.h"

extern const dut_ops *const dualopt_duts[];

/* ---------------------------------------------------- functional core */

typedef struct {
    unsigned fetches;
    uint64_t last_fetch;
    dualopt_rcache_wb wb[16];
    unsigned nwb;
} env_t;

static void fetch(void *ctx, uint64_t line, uint8_t *buf)
{
    env_t *e = ctx;
    unsigned i;
    e->fetches++;
    e->last_fetch = line;
    for (i = 0; i < DUALOPT_RCACHE_LINE_MAX; i++)
        buf[i] = (uint8_t)(line * 7 + i);
}

static void on_wb(void *ctx, const dualopt_rcache_wb *wb)
{
    env_t *e = ctx;
    if (e->nwb < 16)
        e->wb[e->nwb] = *wb;
    e->nwb++;
}

/* 4 sets x 2 ways x 16 B, 32-bit addresses: line L is in set L mod 4. */
static dualopt_rcache *small(void)
{
    dualopt_rcache_cfg c = {4, 2, 16, 32};
    char err[128];
    cr_assert_eq(dualopt_rcache_cfg_check(&c, err, sizeof err), 0, "%s", err);
    return dualopt_rcache_new(&c);
}

static dualopt_rcache_res acc(dualopt_rcache *rc, env_t *e, dualopt_rcache_op op, uint64_t addr, uint64_t mask, uint8_t v)
{
    dualopt_rcache_req q;
    dualopt_rcache_res r;
    unsigned i;
    memset(&q, 0, sizeof q);
    q.op = op;
    q.addr = addr;
    q.mask = mask;
    for (i = 0; i < DUALOPT_RCACHE_LINE_MAX; i++)
        q.data[i] = v;
    cr_assert_eq(dualopt_rcache_access(rc, &q, fetch, e, &r), 0);
    return r;
}

Test(dualopt_rcache_rules, read_hit_miss_clean_and_dirty_victim_lru)
{
    dualopt_rcache *rc = small();
    env_t e = {0};
    dualopt_rcache_res r;
    /* lines 0x0, 0x4 and 0x8 (byte addresses 0x0, 0x40, 0x80) share set 0 */
    r = acc(rc, &e, DUALOPT_RCACHE_RD, 0x0, 0, 0);
    cr_assert_eq(r.kind, DUALOPT_RCACHE_MISS);
    cr_assert_eq(e.fetches, 1);
    cr_assert_eq(r.rdata[5], 5, "the fetched line is served");
    r = acc(rc, &e, DUALOPT_RCACHE_RD, 0xc, 0, 0);
    cr_assert_eq(r.kind, DUALOPT_RCACHE_HIT);
    cr_assert_eq(r.line, 0);
    cr_assert_eq(e.fetches, 1, "a hit fetches nothing");
    r = acc(rc, &e, DUALOPT_RCACHE_RD, 0x40, 0, 0); /* invalid way 1 taken before any eviction */
    cr_assert_eq(r.kind, DUALOPT_RCACHE_MISS);
    cr_assert_eq(r.nwb, 0);
    cr_assert_eq(dualopt_rcache_valid_lines(rc), 2);
    acc(rc, &e, DUALOPT_RCACHE_RD, 0x0, 0, 0);       /* line 0 most recent: line 4 is LRU */
    r = acc(rc, &e, DUALOPT_RCACHE_RD, 0x80, 0, 0);  /* evicts line 4, clean: no write-back */
    cr_assert_eq(r.kind, DUALOPT_RCACHE_MISS);
    cr_assert_eq(r.nwb, 0);
    r = acc(rc, &e, DUALOPT_RCACHE_RD, 0x40, 0, 0);
    cr_assert_eq(r.kind, DUALOPT_RCACHE_MISS, "line 4 was the victim");
    /* now line 0 is LRU; dirty it partly: the write hit makes it most recent */
    r = acc(rc, &e, DUALOPT_RCACHE_WR, 0x40, 0x0f00, 0xaa);
    cr_assert_eq(r.kind, DUALOPT_RCACHE_WHIT);
    r = acc(rc, &e, DUALOPT_RCACHE_RD, 0x0, 0, 0);   /* line 8 LRU (clean), replaced */
    cr_assert_eq(r.kind, DUALOPT_RCACHE_MISS);
    cr_assert_eq(r.nwb, 0);
    r = acc(rc, &e, DUALOPT_RCACHE_RD, 0x80, 0, 0);  /* line 4 is LRU and dirty */
    cr_assert_eq(r.kind, DUALOPT_RCACHE_MISS);
    cr_assert_eq(r.nwb, 1);
    cr_assert_eq(r.wb.line, 4);
    cr_assert_eq(r.wb.mask, 0x0f00, "only the written bytes");
    cr_assert_eq(r.wb.data[8], 0xaa);
    cr_assert_eq(r.wb.data[3], (uint8_t)(4 * 7 + 3), "the rest is the fetched line");
    cr_assert_eq(rc->hits, 2);
    dualopt_rcache_free(rc);
}

Test(dualopt_rcache_rules, full_line_write_miss_needs_no_fetch_partial_fetches_first)
{
    dualopt_rcache *rc = small();
    env_t e = {0};
    dualopt_rcache_res r;
    r = acc(rc, &e, DUALOPT_RCACHE_WR, 0x100, 0xffff, 0x11);
    cr_assert_eq(r.kind, DUALOPT_RCACHE_WMISS_FULL);
    cr_assert_eq(e.fetches, 0);
    r = acc(rc, &e, DUALOPT_RCACHE_WR, 0x204, 0x00f0, 0x22);
    cr_assert_eq(r.kind, DUALOPT_RCACHE_WMISS_FETCH);
    cr_assert_eq(e.fetches, 1);
    cr_assert_eq(e.last_fetch, 0x20);
    r = acc(rc, &e, DUALOPT_RCACHE_RD, 0x200, 0, 0);
    cr_assert_eq(r.kind, DUALOPT_RCACHE_HIT);
    cr_assert_eq(r.rdata[4], 0x22, "written bytes merged over the fill");
    cr_assert_eq(r.rdata[0], (uint8_t)(0x20 * 7), "other bytes from the fill");
    r = acc(rc, &e, DUALOPT_RCACHE_RD, 0x100, 0, 0);
    cr_assert_eq(r.kind, DUALOPT_RCACHE_HIT);
    cr_assert_eq(r.rdata[15], 0x11);
    /* write-allocate: a write miss leaves the line dirty with its bytes */
    dualopt_rcache_flush(rc, on_wb, &e, NULL, NULL);
    cr_assert_eq(e.nwb, 2);
    cr_assert_eq(e.wb[0].line, 0x10);
    cr_assert_eq(e.wb[0].mask, 0xffff);
    cr_assert_eq(e.wb[1].line, 0x20);
    cr_assert_eq(e.wb[1].mask, 0x00f0);
    dualopt_rcache_free(rc);
}

Test(dualopt_rcache_rules, atomic_writes_back_and_invalidates_the_line_then_bypasses)
{
    dualopt_rcache *rc = small();
    env_t e = {0};
    dualopt_rcache_res r;
    acc(rc, &e, DUALOPT_RCACHE_WR, 0x40, 0x3, 0x5a);      /* line 4, bytes 0-1 dirty */
    acc(rc, &e, DUALOPT_RCACHE_RD, 0x80, 0, 0);           /* line 8, clean */
    r = acc(rc, &e, DUALOPT_RCACHE_AT, 0x41, 0, 0);
    cr_assert_eq(r.kind, DUALOPT_RCACHE_FWD);
    cr_assert_eq(r.nwb, 1);
    cr_assert_eq(r.wb.line, 4);
    cr_assert_eq(r.wb.mask, 0x3);
    cr_assert_eq(r.wb.data[1], 0x5a);
    cr_assert_eq(r.inv, 1);
    r = acc(rc, &e, DUALOPT_RCACHE_AT, 0x80, 0, 0);
    cr_assert_eq(r.kind, DUALOPT_RCACHE_FWD);
    cr_assert_eq(r.nwb, 0, "clean line: no write-back");
    cr_assert_eq(r.inv, 1);
    r = acc(rc, &e, DUALOPT_RCACHE_AT, 0xc0, 0, 0);
    cr_assert_eq(r.kind, DUALOPT_RCACHE_FWD);
    cr_assert_eq(r.nwb + r.inv, 0, "absent line: forwarded only");
    cr_assert_eq(dualopt_rcache_valid_lines(rc), 0);
    cr_assert_eq(e.fetches, 2, "an atomic never fills the cache");
    r = acc(rc, &e, DUALOPT_RCACHE_RD, 0x40, 0, 0);
    cr_assert_eq(r.kind, DUALOPT_RCACHE_MISS, "the line is gone after the atomic");
    dualopt_rcache_free(rc);
}

Test(dualopt_rcache_rules, kernel_flush_writes_back_dirty_lines_in_set_way_order)
{
    dualopt_rcache *rc = small();
    env_t e = {0};
    unsigned nwb = 99, ninv = 99;
    /* set 3 way 0, set 1 way 0, set 1 way 1 (dirty), set 2 clean, set 0 dirty */
    acc(rc, &e, DUALOPT_RCACHE_WR, 0x30, 0x8000, 1);   /* line 3: set 3 way 0 */
    acc(rc, &e, DUALOPT_RCACHE_WR, 0x10, 0x0001, 2);   /* line 1: set 1 way 0 */
    acc(rc, &e, DUALOPT_RCACHE_WR, 0x50, 0xffff, 3);   /* line 5: set 1 way 1 */
    acc(rc, &e, DUALOPT_RCACHE_RD, 0x20, 0, 0);        /* line 2: set 2, clean */
    acc(rc, &e, DUALOPT_RCACHE_WR, 0x0, 0x0ff0, 4);    /* line 0: set 0 way 0 */
    cr_assert_eq(dualopt_rcache_dirty_lines(rc), 4);
    dualopt_rcache_flush(rc, on_wb, &e, &nwb, &ninv);
    cr_assert_eq(nwb, 4);
    cr_assert_eq(ninv, 5);
    cr_assert_eq(e.nwb, 4);
    cr_assert_eq(e.wb[0].line, 0);
    cr_assert_eq(e.wb[0].mask, 0x0ff0);
    cr_assert_eq(e.wb[1].line, 1);
    cr_assert_eq(e.wb[1].mask, 0x0001);
    cr_assert_eq(e.wb[2].line, 5);
    cr_assert_eq(e.wb[3].line, 3);
    cr_assert_eq(e.wb[3].mask, 0x8000);
    cr_assert_eq(dualopt_rcache_valid_lines(rc), 0, "no line valid after the flush");
    cr_assert_eq(dualopt_rcache_dirty_lines(rc), 0);
    dualopt_rcache_flush(rc, on_wb, &e, &nwb, &ninv);
    cr_assert_eq(nwb + ninv, 0, "a second flush finds nothing");
    dualopt_rcache_free(rc);
}

/* One way (direct-mapped): a line evicts the other line of its set, dirty
 * bytes go home first. One set (fully associative): any `ways` lines stay,
 * the LRU one leaves. One set of one way: a single line. */
Test(dualopt_rcache_rules, direct_mapped_fully_associative_and_one_line)
{
    static const dualopt_rcache_cfg dm = {4, 1, 16, 32}, fa = {1, 3, 16, 32}, one = {1, 1, 8, 16};
    dualopt_rcache_geom g;
    dualopt_rcache *rc;
    env_t e = {0};
    dualopt_rcache_res r;
    char err[128];
    cr_assert_eq(dualopt_rcache_cfg_check(&dm, err, sizeof err), 0, "%s", err);
    cr_assert_eq(dualopt_rcache_cfg_check(&fa, err, sizeof err), 0, "%s", err);
    cr_assert_eq(dualopt_rcache_cfg_check(&one, err, sizeof err), 0, "%s", err);
    dualopt_rcache_geom_of(&dm, &g);
    cr_assert_eq(g.rb, 0, "one way keeps no LRU rank");
    cr_assert_eq(g.setw, 1 + 26 + 16);
    rc = dualopt_rcache_new(&dm);
    acc(rc, &e, DUALOPT_RCACHE_WR, 0x10, 0x3, 0x5a);       /* line 1 (set 1), partly dirty */
    r = acc(rc, &e, DUALOPT_RCACHE_RD, 0x20, 0, 0);        /* line 2: set 2, no conflict */
    cr_assert_eq(r.nwb, 0);
    r = acc(rc, &e, DUALOPT_RCACHE_RD, 0x50, 0, 0);        /* line 5: set 1, evicts line 1 */
    cr_assert_eq(r.kind, DUALOPT_RCACHE_MISS);
    cr_assert_eq(r.nwb, 1);
    cr_assert_eq(r.wb.line, 1);
    cr_assert_eq(r.wb.mask, 0x3);
    cr_assert_eq(acc(rc, &e, DUALOPT_RCACHE_RD, 0x20, 0, 0).kind, DUALOPT_RCACHE_HIT);
    dualopt_rcache_free(rc);
    dualopt_rcache_geom_of(&fa, &g);
    cr_assert_eq(g.ib, 0);
    cr_assert_eq(g.tw, 28, "the whole line address is the tag");
    rc = dualopt_rcache_new(&fa);
    cr_assert_eq(dualopt_rcache_set_of(rc, 0xfffffff), 0);
    acc(rc, &e, DUALOPT_RCACHE_RD, 0x000, 0, 0);
    acc(rc, &e, DUALOPT_RCACHE_RD, 0x130, 0, 0);
    acc(rc, &e, DUALOPT_RCACHE_RD, 0xfff0, 0, 0);
    cr_assert_eq(dualopt_rcache_valid_lines(rc), 3, "any three lines stay");
    cr_assert_eq(acc(rc, &e, DUALOPT_RCACHE_RD, 0x000, 0, 0).kind, DUALOPT_RCACHE_HIT);
    acc(rc, &e, DUALOPT_RCACHE_RD, 0x500, 0, 0);           /* evicts 0x130, the LRU */
    cr_assert_eq(acc(rc, &e, DUALOPT_RCACHE_RD, 0x130, 0, 0).kind, DUALOPT_RCACHE_MISS);
    cr_assert_eq(acc(rc, &e, DUALOPT_RCACHE_RD, 0x000, 0, 0).kind, DUALOPT_RCACHE_HIT);
    dualopt_rcache_free(rc);
    rc = dualopt_rcache_new(&one);
    acc(rc, &e, DUALOPT_RCACHE_WR, 0x8, 0xff, 1);          /* full-line write miss */
    r = acc(rc, &e, DUALOPT_RCACHE_RD, 0x10, 0, 0);
    cr_assert_eq(r.nwb, 1);
    cr_assert_eq(r.wb.line, 1);
    cr_assert_eq(r.wb.mask, 0xff);
    cr_assert_eq(dualopt_rcache_valid_lines(rc), 1);
    dualopt_rcache_free(rc);
}

Test(dualopt_rcache_rules, paper_geometry_1536_sets_modulo_index)
{
    dualopt_rcache_cfg c;
    dualopt_rcache_geom g;
    dualopt_rcache *rc;
    char err[128];
    cr_assert_eq(dualopt_rcache_cfg_preset(&c, "default"), 0);
    cr_assert_eq(dualopt_rcache_cfg_check(&c, err, sizeof err), 0);
    dualopt_rcache_geom_of(&c, &g);
    cr_assert_eq((unsigned long long)c.sets * c.ways * c.line, 1536ull * 1024, "1.5 MB");
    cr_assert_eq(g.k, 9);
    cr_assert_eq(g.odd, 3);
    cr_assert_eq(g.ib, 11);
    cr_assert_eq(g.tw, 33);
    cr_assert_eq(g.setw, 16 * (1 + 33 + 64 + 4));
    cr_assert_eq(g.data_bits, 1536ull * 16 * 512);
    rc = dualopt_rcache_new(&c);
    cr_assert_eq(dualopt_rcache_set_of(rc, 1535), 1535);
    cr_assert_eq(dualopt_rcache_set_of(rc, 1536), 0);
    cr_assert_eq(dualopt_rcache_set_of(rc, 1536 * 5 + 700), 700);
    cr_assert_eq(dualopt_rcache_line_of(rc, dualopt_rcache_set_of(rc, 123456789), dualopt_rcache_tag_of(rc, 123456789)),
                 123456789);
    dualopt_rcache_free(rc);
    cr_assert_eq(dualopt_rcache_cfg_preset(&c, "fpga"), 0);
    cr_assert_eq((unsigned long long)c.sets * c.ways * c.line, 4096, "4 KB");
}

/* ---------------------------------------------------------- the tools */

Test(dualopt_rcache_tools, trace_records_and_output_format)
{
    char *o;
    cr_assert_eq(run("printf 'RD 0x1000\\nRD 0x1004 # hit\\nWR 0x1008 4\\nWR 0x2000 64\\n"
                     "AT 0x1000\\nAT 0x2000\\nAT 0x3000\\nWR 0x40 8\\nKERNEL\\n"
                     "RD 0x0\\nWR 0x60000 4\\nRD 0xc0000\\nRD 0x40\\nWR 0x44 1\\nKERNEL\\n' | "
                     "build/bin/cohmodel dualopt-rcache --stats > build/t_rc.out"),
                 0);
    o = slurp("build/t_rc.out");
    cr_assert_str_eq(o, "MISS 0x1000\nHIT 0x1000\nWHIT 0x1000\nWMISS 0x2000 FULL\n"
                        "WB 0x1000 0x0000000000000f00\nINVL 0x1000\nFWD 0x1000\n"
                        "WB 0x2000 0xffffffffffffffff\nINVL 0x2000\nFWD 0x2000\nFWD 0x3000\n"
                        "WMISS 0x40 FETCH\nWB 0x40 0x00000000000000ff\nFLUSH 1 1\n"
                        "MISS 0x0\nWMISS 0x60000 FETCH\nMISS 0xc0000\nMISS 0x40\n"
                        "WHIT 0x40\nWB 0x60000 0x000000000000000f\nWB 0x40 0x0000000000000010\n"
                        "FLUSH 2 4\n"
                        "# reads 5 hits 1 misses 4 writes 5 whits 2 wmiss-full 1 wmiss-fetch 2 "
                        "atomics 3 write-backs 5 flushes 2\n");
    free(o);
    /* two ways: the dirty LRU victim is written back after the MISS line */
    cr_assert_eq(run("printf 'WR 0x0 4\\nRD 0x1000\\nRD 0x2000\\n' | build/bin/cohmodel "
                     "dualopt-rcache --sets 64 --ways 2 > build/t_rc2.out"), 0);
    o = slurp("build/t_rc2.out");
    cr_assert_str_eq(o, "WMISS 0x0 FETCH\nMISS 0x1000\nMISS 0x2000\nWB 0x0 0x000000000000000f\n");
    free(o);
    cr_assert_eq(run("printf 'WR 0x10 16\\nKERNEL\\n' | build/bin/cohmodel dualopt-rcache "
                     "--config fpga | tr '\\n' '|' | grep -qx 'WMISS 0x10 FULL|WB 0x10 0xffff|FLUSH 1 1|'"),
                 0);
    cr_assert_eq(run("rm -f build/t_rc.out build/t_rc2.out"), 0);
}

Test(dualopt_rcache_tools, bad_traces_and_options_exit_2_with_no_output)
{
    static const char *const bad[][2] = {
        {"RD 0x0\nLD 0x0\n", "stdin: line 2: unknown record 'LD'"},
        {"RD zz\n", "line 1: address 'zz' is not hex"},
        {"RD\n", "line 1: missing address"},
        {"RD 0x0\n\nAT 0x1000000000000\n", "line 3: address '0x1000000000000' exceeds"},
        {"WR 0x0\n", "line 1: missing size"},
        {"WR 0x0 0\n", "line 1: size '0' is not in 1..64"},
        {"WR 0x0 65\n", "line 1: size '65' is not in 1..64"},
        {"RD 0x0\nWR 0x3c 8\n", "line 2: 8 bytes at 0x3c cross the 64-byte line"},
        {"KERNEL now\n", "line 1: unexpected 'now'"},
        {"AT 0x0 0x1\n", "line 1: unexpected '0x1'"},
    };
    static const char *const badopt[] = {"--sets 0", "--sets 65537", "--ways 0", "--ways 33",
                                         "--line 12", "--line 128", "--addr-bits 64",
                                         "--sets x", "--addr-bits 16 --sets 65536"};
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        model_refuses("dualopt-rcache", "", bad[i][0], bad[i][1]);
        model_refuses("dualopt-rcache", "", bad[i][0], "cohmodel: ");
    }
    for (i = 0; i < sizeof badopt / sizeof badopt[0]; i++)
        model_refuses("dualopt-rcache", badopt[i], "", "");
    gen_refuses("dualopt-rcache", "--ways 40", "40");
    refused_on("./tb_dualopt --unit rcache --trace -", "RD 0x0\nBAD\n", "line 2");
}

static void random_trace(const char *path, unsigned n, unsigned seed, unsigned line,
                         unsigned sets)
{
    FILE *f = fopen(path, "w");
    uint64_t s = seed;
    unsigned i;
    cr_assert_not_null(f);
    for (i = 0; i < n; i++) {
        unsigned r, set, j;
        uint64_t addr;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        r = (unsigned)((s >> 33) % 1000);
        set = (unsigned)((s >> 20) % 3);
        set = set == 2 ? sets - 1 : set;
        j = (unsigned)((s >> 40) % 20);
        addr = ((uint64_t)set + (uint64_t)j * sets) * line + ((s >> 50) % line);
        if (r < 3)
            fprintf(f, "KERNEL\n");
        else if (r < 450)
            fprintf(f, "RD 0x%llx\n", (unsigned long long)addr);
        else if (r < 900) {
            unsigned sz = r < 600 ? line : 1 + (unsigned)((s >> 8) % line);
            addr -= addr % line;
            addr += (s >> 12) % (line - sz + 1);
            fprintf(f, "WR 0x%llx %u\n", (unsigned long long)addr, sz);
        } else
            fprintf(f, "AT 0x%llx\n", (unsigned long long)addr);
    }
    fclose(f);
}

Test(dualopt_rcache_tools, tb_trace_prints_what_cohmodel_prints, .timeout = 120)
{
    static const char *const cfg[] = {"fpga", "default"};
    static const unsigned line[] = {16, 64}, sets[] = {64, 1536}, n[] = {6000, 1500};
    unsigned k;
    for (k = 0; k < 2; k++) {
        char opts[32], why[1024], *a = NULL, *b = NULL;
        random_trace("build/t_rc_trace.txt", n[k], 7 + k, line[k], sets[k]);
        snprintf(opts, sizeof opts, "--config %s", cfg[k]);
        cr_assert_geq(trace_agrees("dualopt", "dualopt-rcache", opts, "build/t_rc_trace.txt", &a,
                                   &b, why, sizeof why),
                      0, "%s", why);
        cr_assert(strstr(b, " 0 differ; data 0 wrong; write-back masks 0 wrong; lines not home "
                            "after flush/atomic 0\n") != NULL, "%s: %s", cfg[k], b);
        cr_assert(strstr(a, "WB 0x") && strstr(a, "FLUSH ") && strstr(a, "INVL ") &&
                  strstr(a, " FETCH\n") && strstr(a, " FULL\n") && strstr(a, "HIT ") &&
                  strstr(a, "WHIT "), "%s: the trace covers every record kind", cfg[k]);
        free(a);
        free(b);
    }
    cr_assert_eq(run("rm -f build/t_rc_trace.txt"), 0);
}

/* ------------------------------------------------------------ lockstep */

static void lockstep(const char *name, const char *stream, uint64_t cycles, uint64_t seed,
                     ls_result *r)
{
    ls_stream(r, dualopt_duts, "dualopt-rcache", name, stream, cycles, seed);
    cr_assert_eq(field(r->summary, "against dualopt_rcache_access(), "), 0, "%s", r->summary);
    cr_assert_eq(field(r->summary, "; data "), 0, "%s", r->summary);
    cr_assert_eq(field(r->summary, "write-back masks "), 0, "%s", r->summary);
    cr_assert_eq(field(r->summary, "after flush/atomic "), 0, "%s", r->summary);
}

/* Hit latency and throughput, measured on the RTL in lockstep: after the
 * warm-up misses, requests (reads and writes to a few sets, back to back
 * to one set often) are accepted every cycle and every hit answers two
 * cycles after its acceptance. */
Test(dualopt_rcache_lockstep, one_hit_per_cycle_two_cycle_latency, .timeout = 60)
{
    static const char *const names[] = {"default", "fpga"};
    unsigned i;
    for (i = 0; i < 2; i++) {
        ls_result r;
        unsigned long long acc, cyc;
        lockstep(names[i], "hits", 20000, 3, &r);
        cr_assert_eq(field(r.summary, "hit latency min "), 2, "%s", r.summary);
        cr_assert_eq(field(r.summary, " max "), 2, "%s", r.summary);
        acc = field(r.summary, "steady hits: ");
        cyc = field(r.summary, "requests accepted in ");
        cr_assert_eq(acc, cyc, "one hit per cycle: %s", r.summary);
        cr_assert_gt(cyc, 18000);
        ls_result_free(&r);
    }
}

/* Directed, on the fpga RTL against the timing shell: three dirty lines in
 * sets 0, 1 and 2, a kernel flush with the write-back port stalled three
 * cycles per write-back (the payload must hold), and a read presented right
 * behind the flush that must wait until the flush completes. */
Test(dualopt_rcache_lockstep, kernel_flush_order_backpressure_and_waiting_requests)
{
    const cohkit_unit_desc *u = cohkit_unit_find("dualopt-rcache");
    const dut_ops *d = ls_dut_find(dualopt_duts, u, "fpga");
    dualopt_rcache_cfg c;
    dualopt_rcache_geom g;
    dualopt_rcache_tm *tm;
    uint64_t in[64], mo[64], ro[64], held_line = 0, held_mask = 0, wb_lines[8];
    void *h;
    unsigned cyc, step = 0, nwb = 0, stall = 0, stalls = 0, fill_pending = 0;
    int kernel_acc = -1, flush_rsp = -1, rd_acc = -1, rd_rsp_kind = -1, held = 0;
    static const struct {
        unsigned op;
        uint64_t addr, mask;
    } seq[] = {
        {DUALOPT_RCACHE_WR, 0x000, 0xffff}, {DUALOPT_RCACHE_WR, 0x010, 0x0003}, {DUALOPT_RCACHE_WR, 0x420, 0x8000},
        {DUALOPT_RCACHE_RD, 0x030, 0},      {DUALOPT_RCACHE_KERNEL, 0, 0},      {DUALOPT_RCACHE_RD, 0x000, 0},
    };
    cr_assert_not_null(d);
    dualopt_rcache_cfg_preset(&c, "fpga");
    dualopt_rcache_geom_of(&c, &g);
    cr_assert(g.in_words <= 64 && g.out_words <= 64);
    tm = dualopt_rcache_tm_new(&c);
    h = d->create(1);
    for (cyc = 0; cyc < 400; cyc++) {
        memset(in, 0, sizeof in);
        in[0] = cyc >= 2;
        in[g.i_rsp_ready] = 1;
        if (step < 6) {
            in[g.i_req_valid] = 1;
            in[g.i_req_op] = seq[step].op;
            in[g.i_req_addr] = seq[step].addr;
            in[g.i_req_mask] = seq[step].mask;
            in[g.i_req_data] = 0x0123456789abcdefull + step;
            in[g.i_req_data + 1] = 0xfedcba9876543210ull;
        }
        in[g.i_fill_valid] = fill_pending;
        in[g.i_fill_data] = 0x1111111111111111ull;
        dualopt_rcache_eval(tm, in, mo);
        d->eval(h, in, ro);
        /* the write-back port is stalled three cycles for every write-back */
        if (ro[g.o_out_valid] && ro[g.o_out_kind]) {
            if (!held) {
                held = 1;
                stall = 3;
                held_line = ro[g.o_out_line];
                held_mask = ro[g.o_out_mask];
            }
            cr_assert_eq(ro[g.o_out_line], held_line, "payload held under back-pressure");
            cr_assert_eq(ro[g.o_out_mask], held_mask);
        }
        in[g.i_out_ready] = !(held && stall > 0);
        dualopt_rcache_eval(tm, in, mo);
        d->eval(h, in, ro);
        if (cyc < 2) { /* reset: the RTL's outputs are not defined yet */
            dualopt_rcache_step(tm, in);
            d->tick(h);
            continue;
        }
        cr_assert_eq(memcmp(mo, ro, g.out_words * sizeof *ro), 0, "cycle %u", cyc);
        if (held && stall > 0) {
            stall--;
            stalls++;
        } else if (held && in[g.i_out_ready]) {
            if (nwb < 8)
                wb_lines[nwb] = held_line;
            nwb++;
            held = 0;
        }
        if (ro[g.o_out_valid] && !ro[g.o_out_kind] && in[g.i_out_ready])
            fill_pending = 1;
        else if (fill_pending && ro[g.o_fill_ready])
            fill_pending = 0;
        if (ro[g.o_rsp_valid] && ro[g.o_rsp_kind] == DUALOPT_RCACHE_FLUSH) {
            flush_rsp = (int)cyc;
            cr_assert_eq(ro[g.o_rsp_wbs], 3, "wbs %llu", (unsigned long long)ro[g.o_rsp_wbs]);
            cr_assert_eq(ro[g.o_rsp_inv], 4, "inv %llu", (unsigned long long)ro[g.o_rsp_inv]);
        }
        if (ro[g.o_rsp_valid] && flush_rsp >= 0 && (int)cyc > flush_rsp && rd_rsp_kind < 0)
            rd_rsp_kind = (int)ro[g.o_rsp_kind];
        if (kernel_acc >= 0 && flush_rsp < 0 && step == 5 && (int)cyc > kernel_acc &&
            ro[g.o_req_ready] && rd_acc < 0)
            rd_acc = (int)cyc;
        if (in[g.i_req_valid] && ro[g.o_req_ready]) {
            if (seq[step].op == DUALOPT_RCACHE_KERNEL)
                kernel_acc = (int)cyc;
            else if (step == 5 && rd_acc < 0)
                rd_acc = (int)cyc;
            step++;
        }
        dualopt_rcache_step(tm, in);
        d->tick(h);
    }
    cr_assert_eq(nwb, 3);
    cr_assert_eq(wb_lines[0], 0x00, "set 0 first");
    cr_assert_eq(wb_lines[1], 0x01);
    cr_assert_eq(wb_lines[2], 0x42, "set 2 last");
    cr_assert_eq(stalls, 9);
    cr_assert_gt(kernel_acc, 0);
    cr_assert_gt(flush_rsp, 0);
    /* the flush: two cycles in stage 1 (the read ahead of it still holds the
     * response register in the first: a miss, atomic or flush starts only
     * with that register empty), then 2 cycles a set (read, scan), 2 a dirty
     * line plus its stall cycles, the completion cycle, then the response
     * register */
    cr_assert_eq(flush_rsp - kernel_acc, 3 + 2 * 64 + 2 * 3 + 9 + 1, "flush took %d cycles",
                 flush_rsp - kernel_acc);
    cr_assert_eq(rd_acc, flush_rsp - 1, "the read waits for the flush (accepted with its completion)");
    cr_assert_eq(rd_rsp_kind, DUALOPT_RCACHE_MISS, "everything was invalidated");
    d->destroy(h);
    dualopt_rcache_tm_free(tm);
}

/* FPGA self-test rules (dualopt_rcache_selftest, gen/dualopt/dualopt_rcache_gen.c):
 * op bit 1 rare (AT and KERNEL 1 in 256 each), the address bits between the
 * line's low two bits and the top three 0; with them the top transfers far
 * more than the 4,761 inputs of random payloads (a flush every fourth
 * request). The top's PASS/FAIL simulation is make fpga-units-sim. */
Test(dualopt_rcache_tools, selftest_rules_keep_flushes_rare_and_lines_few, .timeout = 60)
{
    char *sv, *js, *p;
    cr_assert_eq(run("rm -rf build/t_rc_st && build/bin/cohgen dualopt-rcache --config fpga "
                     "--name r --selftest -o build/t_rc_st >/dev/null"),
                 0);
    sv = slurp("build/t_rc_st/r_selftest.sv");
    js = slurp("build/t_rc_st/r_selftest.json");
    cr_assert(sv && js);
    cr_assert(strstr(sv, "req_op_i: generator 1; [0+:1] random, [1+:1] probability 512/65536") !=
              NULL);
    cr_assert(strstr(sv, "req_addr_i: generator 1; [0+:6] random, [6+:23] constant 0, [29+:3] "
                         "random") != NULL);
    p = strstr(js, "\"in_xfers\":");
    cr_assert_not_null(p);
    cr_assert_gt(strtoul(p + 11, NULL, 10), 20000, "%s", js);
    free(sv);
    free(js);
    cr_assert_eq(run("rm -rf build/t_rc_st"), 0);
}
