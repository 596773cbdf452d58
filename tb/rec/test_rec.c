/*
 * Criterion tests of the REC directory: configuration validation, Table 1
 * widths, the paper's worked examples (Fig. 8-10, section 4.2), every
 * protocol flow as a directed test, trace parsing, the command-line tools,
 * and model-vs-RTL lockstep on the REC streams (every committed
 * configuration on every stream: tb/test_registry.c).
 * Run from the repository root (make unit).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rec.h"
#include "lockstep.h"
#include "test_util.h"
#include "rec_trace.h"

extern const dut_ops *const rec_duts[];

/* ------------------------------------------------------------ helpers -- */

typedef struct {
    unsigned n;
    uint64_t line[256];
    uint32_t mask[256];
} invs;

static void collect(void *ctx, uint64_t line, uint32_t mask)
{
    invs *v = ctx;
    if (v->n < 256) {
        v->line[v->n] = line;
        v->mask[v->n] = mask;
    }
    v->n++;
}

static rec_dir *mk(const char *preset, unsigned home)
{
    rec_cfg c;
    char err[256];
    rec_dir *d;
    cr_assert_eq(rec_cfg_preset(&c, preset), 0);
    cr_assert_eq(rec_cfg_check(&c, err, sizeof err), 0, "%s", err);
    d = rec_dir_new(&c);
    cr_assert_not_null(d);
    d->home = home;
    return d;
}

static rec_dir *mkcfg(const rec_cfg *c, unsigned home)
{
    char err[256];
    rec_dir *d;
    cr_assert_eq(rec_cfg_check(c, err, sizeof err), 0, "%s", err);
    d = rec_dir_new(c);
    cr_assert_not_null(d);
    d->home = home;
    return d;
}

/* Byte address -> line address for 64 B lines. */
#define L64(a) ((uint64_t)(a) >> 6)

static void acc(rec_dir *d, rec_op op, uint64_t byte, unsigned src, invs *v)
{
    rec_core_access(d, op, byte >> d->g.line_bits, src, collect, v);
}

static int bit(const uint32_t *w, unsigned b) { return (int)((w[b / 32] >> (b % 32)) & 1); }

/* Entry vector of the (single) valid entry holding byte address a. */
static int find_entry(const rec_dir *d, uint64_t a, unsigned *set, unsigned *way)
{
    uint64_t base = (a >> d->g.line_bits) >> d->g.span_bits;
    unsigned s = (unsigned)(base & ((1ull << d->g.index_bits) - 1)), w;
    for (w = 0; w < d->cfg.ways; w++) {
        const rec_entry *e = &d->ent[(size_t)s * d->cfg.ways + w];
        if (e->valid && rec_entry_base(d, s, w) == base) {
            *set = s;
            *way = w;
            return 1;
        }
    }
    return 0;
}

static unsigned count_valid(const rec_dir *d)
{
    unsigned i, n = 0;
    for (i = 0; i < d->cfg.entries; i++)
        n += d->ent[i].valid;
    return n;
}


/* --------------------------------------------------------- validation -- */

static void expect_bad(rec_cfg c, const char *needle)
{
    char err[256] = "";
    cr_assert_eq(rec_cfg_check(&c, err, sizeof err), -1, "accepted a bad config (%s)", needle);
    cr_assert(strstr(err, needle) != NULL, "error '%s' does not name '%s'", err, needle);
    cr_assert(strchr(err, '\n') == NULL, "error is not one line");
}

Test(rec_cfg, rejects_bad_combinations)
{
    rec_cfg c;
    rec_cfg_default(&c);
    c.gpus = 1;
    expect_bad(c, "--gpus 1");
    rec_cfg_default(&c);
    c.gpus = 17;
    expect_bad(c, "--gpus 17");
    rec_cfg_default(&c);
    c.entries = 1000;
    expect_bad(c, "--entries 1000");
    rec_cfg_default(&c);
    c.ways = 3;
    expect_bad(c, "--ways 3");
    rec_cfg_default(&c);
    c.entries = 4;
    c.ways = 8;
    expect_bad(c, "--ways 8");
    rec_cfg_default(&c);
    c.range = 32;
    expect_bad(c, "--range 32");
    rec_cfg_default(&c);
    c.range = 1000;
    expect_bad(c, "--range 1000");
    rec_cfg_default(&c);
    c.range = 8192;
    expect_bad(c, "--range 8192");
    rec_cfg_default(&c);
    c.line = 48;
    expect_bad(c, "--line 48");
    rec_cfg_default(&c);
    c.addr_bits = 12;
    expect_bad(c, "--addr-bits 12");
    rec_cfg_default(&c);
    c.addr_bits = 16;
    c.range = 4096;
    c.entries = 1u << 20;
    expect_bad(c, "--entries");
    rec_cfg_default(&c);
    c.mode = REC_MODE_LINE;
    expect_bad(c, "--range 1024");
    rec_cfg_default(&c);
    c.mode = REC_MODE_HMG;
    c.group = 3;
    expect_bad(c, "--group 3");
}

Test(rec_cfg, presets_are_valid)
{
    const char *const *p;
    for (p = rec_preset_names(); *p; p++) {
        rec_cfg c;
        char err[256];
        cr_assert_eq(rec_cfg_preset(&c, *p), 0);
        cr_assert_eq(rec_cfg_check(&c, err, sizeof err), 0, "%s: %s", *p, err);
    }
    {
        rec_cfg c;
        cr_assert_eq(rec_cfg_preset(&c, "nonesuch"), -1);
    }
}

Test(rec_cfg, option_parser_names_bad_value)
{
    rec_cfg c;
    char err[256];
    rec_cfg_default(&c);
    cr_assert_eq(rec_cfg_option(&c, "gpus", "four", err, sizeof err), -1);
    cr_assert(strstr(err, "four") != NULL);
    cr_assert_eq(rec_cfg_option(&c, "repl", "random", err, sizeof err), -1);
    cr_assert(strstr(err, "random") != NULL);
    cr_assert_eq(rec_cfg_option(&c, "colour", "red", err, sizeof err), 1);
    cr_assert_eq(rec_cfg_option(&c, "ways", "16", err, sizeof err), 0);
    cr_assert_eq(c.ways, 16);
}

Test(rec_cohgen, bad_options_exit_2_and_write_nothing)
{
    static const char *const bad[] = {
        "--gpus 1",       "--gpus 17",        "--entries 100",   "--ways 32",
        "--ways 16 --entries 8", "--range 32", "--range 8192",   "--line 3",
        "--repl random",  "--mode cache",     "--addr-bits 70",  "--name 9x",
        "--mutant 99",    "--frobnicate 1",   "--gpus",          "--config nonesuch",
    };
    size_t i;
    char cmd[512];
    cr_assert_eq(run("rm -rf build/t_cohgen_bad && mkdir -p build/t_cohgen_bad"), 0);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd,
                 "build/bin/cohgen rec %s -o build/t_cohgen_bad 2>build/t_cohgen_bad.err", bad[i]);
        cr_assert_eq(run(cmd), 2, "cohgen rec %s did not exit 2", bad[i]);
        cr_assert(dir_empty("build/t_cohgen_bad"), "cohgen rec %s wrote a file", bad[i]);
        {
            char *msg = slurp("build/t_cohgen_bad.err");
            cr_assert_not_null(msg);
            cr_assert(strncmp(msg, "cohgen: ", 8) == 0, "no one-line error for %s", bad[i]);
            cr_assert(strchr(msg, '\n') == msg + strlen(msg) - 1, "error for %s is not one line", bad[i]);
            free(msg);
        }
    }
}

Test(rec_cohgen, output_is_deterministic_and_reports_table1)
{
    char *a, *b;
    cr_assert_eq(run("rm -rf build/t_det && build/bin/cohgen rec --config hmg --name m -o build/t_det/a "
                     "&& build/bin/cohgen rec --config hmg --name m -o build/t_det/b"), 0);
    cr_assert_eq(run("diff -r build/t_det/a build/t_det/b >/dev/null"), 0);
    cr_assert_eq(run("build/bin/cohgen rec --report > build/t_det/report.txt"), 0);
    a = slurp("build/t_det/report.txt");
    cr_assert_not_null(a);
    cr_assert(strstr(a, "= 103 bits per entry") != NULL, "%s", a);
    cr_assert(strstr(a, "103.00 kB") != NULL, "%s", a);
    free(a);
    cr_assert_eq(run("build/bin/cohgen rec --report --json > build/t_det/report.json"), 0);
    b = slurp("build/t_det/report.json");
    cr_assert_not_null(b);
    cr_assert(strstr(b, "\"entry_bits\":103") != NULL, "%s", b);
    free(b);
}

/* ------------------------------------------------------------ Table 1 -- */

Test(rec_table1, bits_per_entry_for_every_range)
{
    static const unsigned range[] = {64, 128, 256, 1024, 4096};
    static const unsigned base[] = {48, 41, 40, 38, 36};
    static const unsigned pos[] = {0, 2, 4, 16, 64};
    static const unsigned shr[] = {3, 6, 12, 48, 192};
    static const unsigned total[] = {52, 50, 57, 103, 293};
    unsigned i;
    for (i = 0; i < 5; i++) {
        rec_cfg c;
        rec_geom g;
        char err[256];
        rec_cfg_default(&c);
        c.range = range[i];
        cr_assert_eq(rec_cfg_check(&c, err, sizeof err), 0, "%s", err);
        rec_geom_of(&c, &g);
        cr_assert_eq(g.paper_base_bits, base[i], "range %u base %u", range[i], g.paper_base_bits);
        cr_assert_eq(g.has_pos ? g.slots : 0, pos[i], "range %u position bits", range[i]);
        cr_assert_eq(g.slots * g.sharer_bits, shr[i], "range %u sharer bits", range[i]);
        cr_assert_eq(g.paper_entry_bits, total[i], "range %u: %u bits, Table 1 says %u", range[i],
                     g.paper_entry_bits, total[i]);
    }
}

Test(rec_table1, scalability_8_and_16_gpus_and_directory_size)
{
    rec_cfg c;
    rec_geom g;
    rec_cfg_default(&c);
    c.gpus = 8;
    rec_geom_of(&c, &g);
    cr_assert_eq(g.paper_entry_bits, 167);
    c.gpus = 16;
    rec_geom_of(&c, &g);
    cr_assert_eq(g.paper_entry_bits, 295);
    cr_assert_eq(rec_cfg_preset(&c, "baseline"), 0);
    c.gpus = 8;
    rec_geom_of(&c, &g);
    cr_assert_eq(g.paper_entry_bits, 56, "8-GPU baseline entry: %u bits", g.paper_entry_bits);
    rec_cfg_default(&c);
    rec_geom_of(&c, &g);
    cr_assert_eq(g.paper_total_bits, 8192ull * 103);
    cr_assert_eq(g.paper_total_bits / 8 / 1024, 103);
    cr_assert_eq(g.packed_entry_bits, 93);
    cr_assert_eq(g.sets, 1024);
    cr_assert_eq(g.index_bits, 10);
}

/* ----------------------------------------------------- paper examples -- */

Test(rec_paper, fig9_remote_read_sets_bits_52_and_53)
{
    rec_dir *d = mk("default", 0);
    invs v = {0};
    unsigned s, w, b;
    uint32_t words[8];
    acc(d, REC_OP_RR, 0x340, 1, &v);
    cr_assert_eq(v.n, 0);
    cr_assert(find_entry(d, 0x340, &s, &w));
    cr_assert_eq(rec_entry_vector(d, s, w, words, 8), 103);
    for (b = 0; b < 64; b++)
        cr_assert_eq(bit(words, b), b == 52 || b == 53, "vector bit %u", b);
    cr_assert_eq(bit(words, 102), 1, "valid bit");
    for (b = 64; b < 102; b++)
        cr_assert_eq(bit(words, b), 0, "base bit %u of range 0", b);
    /* The same read again: bitwise OR, nothing changes. */
    acc(d, REC_OP_RR, 0x37f, 1, &v);
    cr_assert_eq(v.n, 0);
    cr_assert_eq(count_valid(d), 1);
    rec_dir_free(d);
}

Test(rec_paper, fig10_remote_write_sets_58_clears_59_invalidates_gpu3)
{
    rec_dir *d = mk("default", 0);
    invs v = {0};
    unsigned s, w;
    uint32_t words[8];
    uint64_t a = 0x2000 + 14 * 64; /* offset slot 14: position bit 56 */
    acc(d, REC_OP_RR, a, 3, &v);
    cr_assert(find_entry(d, a, &s, &w));
    rec_entry_vector(d, s, w, words, 8);
    cr_assert(bit(words, 56) && bit(words, 59) && !bit(words, 58));
    acc(d, REC_OP_RW, a, 2, &v);
    rec_entry_vector(d, s, w, words, 8);
    cr_assert_eq(bit(words, 56), 1);
    cr_assert_eq(bit(words, 58), 1, "GPU2 added");
    cr_assert_eq(bit(words, 59), 0, "GPU3 cleared");
    cr_assert_eq(v.n, 1);
    cr_assert_eq(v.line[0], L64(a));
    cr_assert_eq(v.mask[0], 0x8, "invalidation to GPU3 only, got 0x%x", v.mask[0]);
    cr_assert_eq(bit(words, 102), 1, "entry stays valid");
    rec_dir_free(d);
}

Test(rec_paper, fig10_local_write_clears_bits_0_1_then_frees_entry)
{
    rec_dir *d = mk("default", 0);
    invs v = {0};
    unsigned s, w;
    uint32_t words[8];
    acc(d, REC_OP_RR, 0x4000, 1, &v);           /* slot 0: bits 0, 1   */
    acc(d, REC_OP_RR, 0x4000 + 14 * 64, 2, &v); /* slot 14: bits 56, 58 */
    cr_assert(find_entry(d, 0x4000, &s, &w));
    rec_entry_vector(d, s, w, words, 8);
    cr_assert(bit(words, 0) && bit(words, 1));
    acc(d, REC_OP_LW, 0x4010, 0, &v);
    cr_assert_eq(v.n, 1);
    cr_assert_eq(v.line[0], L64(0x4000));
    cr_assert_eq(v.mask[0], 0x2);
    rec_entry_vector(d, s, w, words, 8);
    cr_assert(!bit(words, 0) && !bit(words, 1), "bits 0 and 1 cleared");
    cr_assert(bit(words, 56) && bit(words, 58), "other offset kept");
    cr_assert_eq(bit(words, 102), 1, "entry valid while another offset is tracked");
    acc(d, REC_OP_LW, 0x4000 + 14 * 64, 0, &v);
    cr_assert_eq(v.n, 2);
    cr_assert_eq(v.mask[1], 0x4);
    cr_assert_eq(count_valid(d), 0, "last offset cleared: entry invalid");
    cr_assert_eq(d->st.entry_frees, 1);
    rec_dir_free(d);
}

Test(rec_paper, fig8_baseline_evicts_rec_coalesces)
{
    rec_cfg c;
    rec_dir *base, *rec;
    invs vb = {0}, vr = {0};
    static const uint64_t seq[] = {0x1000, 0x1040, 0x1080, 0x1000};
    unsigned i;
    cr_assert_eq(rec_cfg_preset(&c, "baseline"), 0);
    c.entries = 2;
    c.ways = 2;
    base = mkcfg(&c, 0);
    rec_cfg_default(&c);
    c.entries = 2;
    c.ways = 2;
    rec = mkcfg(&c, 0);
    for (i = 0; i < 4; i++) {
        acc(base, REC_OP_RR, seq[i], 1, &vb);
        acc(rec, REC_OP_RR, seq[i], 1, &vr);
    }
    /* baseline: 0x1080 evicts 0x1000 (FIFO), 0x1000 then evicts 0x1040 */
    cr_assert_eq(vb.n, 2);
    cr_assert_eq(vb.line[0], L64(0x1000));
    cr_assert_eq(vb.mask[0], 0x2);
    cr_assert_eq(vb.line[1], L64(0x1040));
    /* REC: one entry, three coalesced lines, no invalidation */
    cr_assert_eq(vr.n, 0);
    cr_assert_eq(count_valid(rec), 1);
    cr_assert_eq(__builtin_popcountll(rec->ent[0].valid ? rec->ent[0].pos : rec->ent[1].pos), 3);
    rec_dir_free(base);
    rec_dir_free(rec);
}

/* ------------------------------------------------- section 4.2 flows -- */

/* A small REC directory: 2 sets x 2 ways, 256 B range (4 slots), 4 GPUs. */
static rec_dir *small(rec_repl repl, unsigned home)
{
    rec_cfg c;
    rec_cfg_default(&c);
    c.entries = 4;
    c.ways = 2;
    c.range = 256;
    c.repl = repl;
    return mkcfg(&c, home);
}

/* Ranges that share set 0 of small(): base multiples of 2 (256 B units). */
#define R(k) ((uint64_t)(k) * 2 * 256)

Test(rec_flows, remote_read_allocates_and_coalesces)
{
    rec_dir *d = small(REC_REPL_LRU, 0);
    invs v = {0};
    acc(d, REC_OP_RR, R(1), 1, &v);
    acc(d, REC_OP_RR, R(1) + 64, 2, &v);
    acc(d, REC_OP_RR, R(1) + 192, 3, &v);
    acc(d, REC_OP_RR, R(1) + 64, 3, &v);
    cr_assert_eq(v.n, 0);
    cr_assert_eq(count_valid(d), 1);
    cr_assert_eq(d->st.allocs, 1);
    cr_assert_eq(d->st.hits, 3);
    {
        unsigned s, w;
        const rec_entry *e;
        cr_assert(find_entry(d, R(1), &s, &w));
        e = &d->ent[s * 2 + w];
        cr_assert_eq(e->pos, 0xb);
        cr_assert_eq(e->sh[0], 0x1);
        cr_assert_eq(e->sh[1], 0x6, "GPU2 and GPU3 at slot 1: 0x%x", e->sh[1]);
        cr_assert_eq(e->sh[3], 0x4);
    }
    rec_dir_free(d);
}

Test(rec_flows, eviction_reconstructs_every_line_with_its_sharers_lru)
{
    rec_dir *d = small(REC_REPL_LRU, 0);
    invs v = {0};
    acc(d, REC_OP_RR, R(1) + 0, 1, &v);
    acc(d, REC_OP_RR, R(1) + 128, 2, &v);
    acc(d, REC_OP_RR, R(1) + 128, 3, &v);
    acc(d, REC_OP_RR, R(2) + 64, 1, &v);
    acc(d, REC_OP_RR, R(1) + 192, 1, &v); /* touch R(1): R(2) becomes the LRU */
    cr_assert_eq(v.n, 0);
    acc(d, REC_OP_RR, R(3), 2, &v); /* set full: evict R(2) under LRU */
    cr_assert_eq(v.n, 1);
    cr_assert_eq(v.line[0], L64(R(2) + 64));
    cr_assert_eq(v.mask[0], 0x2);
    acc(d, REC_OP_RR, R(4), 2, &v); /* now R(1) is the oldest: 3 lines */
    cr_assert_eq(v.n, 4);
    cr_assert_eq(v.line[1], L64(R(1)));
    cr_assert_eq(v.mask[1], 0x2);
    cr_assert_eq(v.line[2], L64(R(1) + 128));
    cr_assert_eq(v.mask[2], 0xc);
    cr_assert_eq(v.line[3], L64(R(1) + 192));
    cr_assert_eq(v.mask[3], 0x2);
    cr_assert_eq(d->st.evictions, 2);
    cr_assert_eq(d->st.evicted_lines, 4);
    rec_dir_free(d);
}

Test(rec_flows, fifo_ignores_hits_when_choosing_the_victim)
{
    rec_dir *d = small(REC_REPL_FIFO, 0);
    invs v = {0};
    acc(d, REC_OP_RR, R(1), 1, &v);
    acc(d, REC_OP_RR, R(2), 1, &v);
    acc(d, REC_OP_RR, R(1) + 64, 1, &v); /* a hit: FIFO order unchanged */
    acc(d, REC_OP_RR, R(3), 1, &v);
    cr_assert_eq(v.n, 2, "R(1), the oldest, is evicted with both lines");
    cr_assert_eq(v.line[0], L64(R(1)));
    cr_assert_eq(v.line[1], L64(R(1) + 64));
    rec_dir_free(d);
}

Test(rec_flows, invalid_ways_are_filled_before_evicting)
{
    rec_dir *d = small(REC_REPL_LRU, 0);
    invs v = {0};
    acc(d, REC_OP_RR, R(1), 1, &v);
    acc(d, REC_OP_RR, R(2), 1, &v);
    acc(d, REC_OP_LW, R(1), 0, &v); /* frees R(1) */
    cr_assert_eq(v.n, 1);
    acc(d, REC_OP_RR, R(3), 1, &v); /* takes the free way, no eviction */
    cr_assert_eq(v.n, 1);
    cr_assert_eq(d->st.evictions, 0);
    cr_assert_eq(count_valid(d), 2);
    rec_dir_free(d);
}

Test(rec_flows, local_write_miss_or_absent_offset_does_nothing)
{
    rec_dir *d = small(REC_REPL_LRU, 0);
    invs v = {0};
    acc(d, REC_OP_LW, R(1), 0, &v);
    cr_assert_eq(count_valid(d), 0);
    acc(d, REC_OP_RR, R(1), 1, &v);
    acc(d, REC_OP_LW, R(1) + 64, 0, &v);
    cr_assert_eq(v.n, 0);
    cr_assert_eq(count_valid(d), 1);
    rec_dir_free(d);
}

Test(rec_flows, remote_write_absent_offset_adds_it_like_a_read)
{
    rec_dir *d = small(REC_REPL_LRU, 0);
    invs v = {0};
    unsigned s, w;
    acc(d, REC_OP_RR, R(1), 1, &v);
    acc(d, REC_OP_RW, R(1) + 64, 2, &v);
    cr_assert_eq(v.n, 0);
    cr_assert(find_entry(d, R(1), &s, &w));
    cr_assert_eq(d->ent[s * 2 + w].pos, 0x3);
    cr_assert_eq(d->ent[s * 2 + w].sh[1], 0x2);
    rec_dir_free(d);
}

Test(rec_flows, remote_write_present_offset_writer_becomes_only_sharer)
{
    rec_dir *d = small(REC_REPL_LRU, 0);
    invs v = {0};
    unsigned s, w;
    acc(d, REC_OP_RR, R(1), 1, &v);
    acc(d, REC_OP_RR, R(1), 2, &v);
    acc(d, REC_OP_RR, R(1), 3, &v);
    acc(d, REC_OP_RW, R(1), 2, &v);
    cr_assert_eq(v.n, 1);
    cr_assert_eq(v.mask[0], 0xa, "GPUs 1 and 3 invalidated, got 0x%x", v.mask[0]);
    cr_assert(find_entry(d, R(1), &s, &w));
    cr_assert_eq(d->ent[s * 2 + w].sh[0], 0x2);
    acc(d, REC_OP_RW, R(1), 2, &v); /* sole sharer writes again: no message */
    cr_assert_eq(v.n, 1);
    rec_dir_free(d);
}

Test(rec_flows, remote_write_miss_allocates_and_may_evict)
{
    rec_dir *d = small(REC_REPL_LRU, 0);
    invs v = {0};
    acc(d, REC_OP_RW, R(1), 1, &v);
    acc(d, REC_OP_RW, R(2), 1, &v);
    cr_assert_eq(count_valid(d), 2);
    acc(d, REC_OP_RW, R(3), 2, &v);
    cr_assert_eq(v.n, 1);
    cr_assert_eq(v.line[0], L64(R(1)));
    cr_assert_eq(d->st.evictions, 1);
    rec_dir_free(d);
}

Test(rec_flows, home_gpu_is_not_a_sharer_and_masks_skip_it)
{
    rec_dir *d = small(REC_REPL_LRU, 2);
    invs v = {0};
    unsigned s, w;
    acc(d, REC_OP_RR, R(1), 3, &v);
    acc(d, REC_OP_RR, R(1), 1, &v);
    acc(d, REC_OP_RR, R(1), 0, &v);
    cr_assert(find_entry(d, R(1), &s, &w));
    cr_assert_eq(d->ent[s * 2 + w].sh[0], 0x7, "sharer bits 0,1 = GPU0,1 and 2 = GPU3");
    acc(d, REC_OP_LW, R(1), 0, &v);
    cr_assert_eq(v.n, 1);
    cr_assert_eq(v.mask[0], 0xb, "GPUs 0, 1, 3; got 0x%x", v.mask[0]);
    /* remote requests from the home GPU itself are ignored */
    acc(d, REC_OP_RR, R(1), 2, &v);
    cr_assert_eq(count_valid(d), 0);
    cr_assert_eq(d->st.ignored, 1);
    rec_dir_free(d);
}

Test(rec_flows, hmg_write_invalidates_the_whole_group)
{
    rec_dir *d = mk("hmg", 0);
    invs v = {0};
    acc(d, REC_OP_RR, 0x8000, 1, &v);      /* line 0 of the group */
    acc(d, REC_OP_RR, 0x8000 + 128, 2, &v); /* line 2: same entry  */
    cr_assert_eq(count_valid(d), 1);
    acc(d, REC_OP_LW, 0x8000 + 64, 0, &v); /* line 1, never read   */
    cr_assert_eq(v.n, 4, "every line of the group, false positives included");
    for (unsigned i = 0; i < 4; i++) {
        cr_assert_eq(v.line[i], L64(0x8000) + i);
        cr_assert_eq(v.mask[i], 0x6);
    }
    cr_assert_eq(count_valid(d), 0);
    acc(d, REC_OP_RR, 0x9000, 1, &v);
    acc(d, REC_OP_RR, 0x9040, 3, &v);
    acc(d, REC_OP_RW, 0x90c0, 3, &v);
    cr_assert_eq(v.n, 8, "remote write: the other sharer, on all 4 lines");
    cr_assert_eq(v.mask[4], 0x2);
    cr_assert_eq(count_valid(d), 1);
    rec_dir_free(d);
}

Test(rec_flows, line_mode_tracks_one_line_per_entry)
{
    rec_dir *d = mk("baseline", 0);
    invs v = {0};
    acc(d, REC_OP_RR, 0x1000, 1, &v);
    acc(d, REC_OP_RR, 0x1040, 1, &v);
    cr_assert_eq(count_valid(d), 2);
    acc(d, REC_OP_RW, 0x1000, 2, &v);
    cr_assert_eq(v.n, 1);
    cr_assert_eq(v.mask[0], 0x2);
    acc(d, REC_OP_LW, 0x1000, 0, &v);
    cr_assert_eq(v.n, 2);
    cr_assert_eq(v.mask[1], 0x4);
    cr_assert_eq(count_valid(d), 1);
    rec_dir_free(d);
}

Test(rec_flows, packed_tags_behave_like_full_tags)
{
    rec_cfg c;
    rec_dir *a, *b;
    invs va = {0}, vb = {0};
    uint64_t s = 99;
    unsigned i;
    rec_cfg_default(&c);
    c.entries = 64;
    c.ways = 4;
    a = mkcfg(&c, 1);
    c.store = REC_STORE_PACKED;
    b = mkcfg(&c, 1);
    for (i = 0; i < 20000; i++) {
        uint64_t line;
        rec_op op;
        unsigned src;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        line = (s >> 20) & 0xffff;
        op = (rec_op)((s >> 40) % 3);
        src = (unsigned)((s >> 50) % 4);
        va.n = vb.n = 0;
        rec_core_access(a, op, line, src, collect, &va);
        rec_core_access(b, op, line, src, collect, &vb);
        cr_assert_eq(va.n, vb.n, "request %u", i);
        cr_assert_eq(memcmp(va.line, vb.line, sizeof(uint64_t) * (va.n < 256 ? va.n : 256)), 0);
        cr_assert_eq(memcmp(va.mask, vb.mask, sizeof(uint32_t) * (va.n < 256 ? va.n : 256)), 0);
    }
    cr_assert_gt(a->st.evictions, 100);
    rec_dir_free(a);
    rec_dir_free(b);
}

/* ------------------------------------------------------------- traces -- */

static int parse(const char *text, unsigned home, char *err, size_t *n)
{
    rec_cfg c;
    rec_treq *r = NULL;
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    int rc;
    rec_cfg_default(&c);
    rc = rec_trace_read(f, &c, home, &r, n, err, 256);
    fclose(f);
    free(r);
    return rc;
}

Test(rec_trace, accepts_comments_and_any_byte_of_a_line)
{
    char err[256];
    size_t n;
    cr_assert_eq(parse("# header\nRR 0x1234 1\n\nRW 1240 2 # trailing\n  LW 0x0000ABCD\n", 0, err, &n),
                 0, "%s", err);
    cr_assert_eq(n, 3);
}

Test(rec_trace, rejects_malformed_lines_with_their_number)
{
    static const struct {
        const char *text, *needle;
    } bad[] = {
        {"RR 0x40 1\nXX 0x40 1\n", "line 2: unknown request 'XX'"},
        {"RR zz 1\n", "line 1: 'zz' is not a hex address"},
        {"RR 0x40\n", "line 1: RR needs a source GPU"},
        {"RR 0x40 4\n", "line 1: GPU 4 out of range"},
        {"RR 0x40 0\n", "line 1: GPU 0 is the home GPU"},
        {"LW 0x40 1\n", "line 1: unexpected '1'"},
        {"RR 0x1000000000000 1\n", "exceeds 48 bits"},
        {"RR 0x40 -1\n", "is not a decimal GPU id"},
        {"\n\nRW\n", "line 3: RW needs an address"},
    };
    size_t i, n;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[256] = "";
        cr_assert_eq(parse(bad[i].text, 0, err, &n), -1, "accepted: %s", bad[i].text);
        cr_assert(strstr(err, bad[i].needle) != NULL, "'%s' lacks '%s'", err, bad[i].needle);
    }
}

Test(rec_tools, cohmodel_rejects_bad_trace_with_no_output)
{
    model_refuses("rec", "", "RR 0x40 1\nLW 0x40\nRR 0x80 9\n", "line 3");
    model_refuses("rec", "--gpus 40", "", "40");
    model_refuses("rec", "--home 7", "", "7");
}

Test(rec_tools, tb_rec_trace_prints_the_same_invs_as_the_model, .timeout = 120)
{
    FILE *f = fopen("build/t_trace.txt", "w");
    uint64_t s = 5;
    unsigned i;
    cr_assert_not_null(f);
    fprintf(f, "# random trace over a few ranges\n");
    for (i = 0; i < 4000; i++) {
        unsigned r;
        uint64_t addr;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        r = (unsigned)((s >> 33) % 100);
        addr = (((s >> 8) % 24) << 20) | ((s >> 40) & 0x3ff);
        if (r < 65)
            fprintf(f, "RR 0x%llx %u\n", (unsigned long long)addr, 1 + (unsigned)((s >> 50) % 3));
        else if (r < 85)
            fprintf(f, "RW %llx %u\n", (unsigned long long)addr, 1 + (unsigned)((s >> 50) % 3));
        else
            fprintf(f, "LW 0x%llx\n", (unsigned long long)addr);
    }
    fclose(f);
    for (i = 0; i < 2; i++) {
        const char *cfg = i ? "--config hmg" : "--config fpga";
        char why[1024] = "the trace produced too few invalidations";
        cr_assert_gt(trace_agrees("rec", "rec", cfg, "build/t_trace.txt", NULL, NULL, why,
                                  sizeof why),
                     1000, "%s: %s", cfg, why);
    }
}

Test(rec_tools, tb_rec_rejects_bad_options)
{
    cr_assert_eq(run("./tb_rec --cycles -5 >/dev/null 2>&1"), 2);
    cr_assert_eq(run("printf 'RR 0x40 0\\n' | ./tb_rec --trace - >/dev/null 2>&1"), 2);
    cr_assert_eq(run("./tb_rec --help >/dev/null"), 0);
}

/* make cost-table: rewrites only the marked README section from the two
 * reports; a malformed report or README is rejected (exit 2, file untouched). */
Test(rec_tools, cost_table_rewrites_its_section_only)
{
    FILE *f;
    cr_assert_eq(run("mkdir -p build/t_cost"), 0);
    f = fopen("build/t_cost/synth.json", "w");
    cr_assert_not_null(f);
    fprintf(f, "{\"meta\":{\"yosys\":\"Yosys X\"},\"configs\":[{\"name\":\"cfg_one\","
               "\"role\":\"r\",\"report\":{\"entries\":512,\"ways\":4,\"paper\":"
               "{\"entry_bits\":103,\"total_kB\":6.44}},\"synth\":{\"mem_bits\":50176,"
               "\"ffs\":7,\"gates\":8,\"cmos_transistors\":9,\"ice40\":{\"lut4\":10,"
               "\"bram\":25}}}]}\n");
    fclose(f);
    f = fopen("build/t_cost/fpga.json", "w");
    cr_assert_not_null(f);
    fprintf(f, "{\"tools\":{\"nextpnr\":\"nextpnr X\"},\"unit_results\":[{\"module\":"
               "\"var_one\",\"unit\":\"rec\",\"options\":\"--mode rec\",\"device\":\"hx8k\","
               "\"fits\":true,\"fmax_mhz\":66.5,\"fmax_seeds\":{\"1\":66.5,\"2\":60.25},"
               "\"lc\":{\"used\":1,\"available\":2},\"bram\":{\"used\":3,\"available\":4},"
               "\"selftest\":{\"sig\":\"abcd1234\"}}]}\n");
    fclose(f);
    cr_assert_eq(run("printf 'head\\n<!-- cost:begin -->\\nold\\n<!-- cost:end -->\\ntail\\n' "
                     "> build/t_cost/R.md && cp build/t_cost/R.md build/t_cost/R0.md"), 0);
#define COST "python3 scripts/cost-table.py --synth build/t_cost/synth.json --readme build/t_cost/R.md "
    cr_assert_eq(run(COST "--fpga build/t_cost/fpga.json >/dev/null"), 0);
    cr_assert_eq(run("grep -q '^head$' build/t_cost/R.md && grep -q '^tail$' build/t_cost/R.md && "
                     "! grep -q '^old$' build/t_cost/R.md && "
                     "grep -q '| cfg_one | r | 512 | 4 | 103 | 6.44 | 50,176 | 7 | 8 | 9 | 10 | 25 |' "
                     "build/t_cost/R.md && grep -q '| var_one | rec --mode rec | hx8k | 66.50 | "
                     "1: 66.50, 2: 60.25 | 1 / 2 | 3 / 4 | abcd1234 |' "
                     "build/t_cost/R.md && grep -q 'Yosys X; nextpnr X' build/t_cost/R.md"), 0,
                 "cost-table output:\n%s", "see build/t_cost/R.md");
    /* bad inputs: exit 2, one line on stderr, README unchanged */
    cr_assert_eq(run("cp build/t_cost/R.md build/t_cost/R1.md && echo '{' > build/t_cost/bad.json"), 0);
    cr_assert_eq(run(COST "--fpga build/t_cost/bad.json 2>build/t_cost/err"), 2);
    cr_assert_eq(run("[ $(wc -l < build/t_cost/err) -eq 1 ] && grep -q 'bad.json' build/t_cost/err"), 0);
    cr_assert_eq(run(COST "--fpga build/t_cost/missing.json 2>/dev/null"), 2);
    cr_assert_eq(run("echo '{\"tools\":{}}' > build/t_cost/short.json"), 0);
    cr_assert_eq(run(COST "--fpga build/t_cost/short.json 2>/dev/null"), 2);
    cr_assert_eq(run("cmp -s build/t_cost/R.md build/t_cost/R1.md"), 0);
    cr_assert_eq(run("cp build/t_cost/R0.md build/t_cost/R.md && sed -i '/cost:end/d' build/t_cost/R.md"), 0);
    cr_assert_eq(run(COST "--fpga build/t_cost/fpga.json 2>/dev/null"), 2);
#undef COST
}

/* ------------------------------------------------------------ lockstep -- */

typedef struct {
    ls_result r;
    rec_stats st;
    uint64_t accepted;
} rec_run;

static void grab(void *ctx, const void *stim, const void *tm)
{
    (void)stim;
    ((rec_run *)ctx)->st = ((const rec_tm *)tm)->dir->st;
}

/* One lockstep run of a committed configuration through the engine. */
static void lockstep_run(const char *name, const char *stream, uint64_t cycles, uint64_t seed,
                         FILE *stim_out, FILE *log_out, const uint64_t *replay, size_t nreplay,
                         rec_run *x)
{
    static uint64_t cfg[64];
    ls_opts o;
    int rc;
    ls_preset(&o, cfg, sizeof cfg, rec_duts, "rec", name);
    o.stream = stream;
    o.cycles = cycles;
    o.seed = seed;
    o.stim_out = stim_out;
    o.log_out = log_out;
    o.replay = replay;
    o.nreplay = nreplay;
    o.inspect = grab;
    o.inspect_ctx = x;
    rc = ls_run(&o, &x->r, "");
    cr_assert_eq(rc, 0, "%s seed %llu: %s", name, (unsigned long long)seed, x->r.mm_msg);
    cr_assert_eq(x->r.nchan, 2, "REC has two valid/ready channels");
    cr_assert_str_eq(x->r.chan_name[0], "req");
    x->accepted = x->r.chan_xfers[0];
}

/* The sparse stream (mutation testing, docs/mutation.md): entries keep few
 * lines and local writes free them, under eviction pressure. */
Test(rec_lockstep, sparse_stream_frees_entries, .timeout = 300)
{
    static const char *const names[] = {"fpga", "hmg", "default"};
    unsigned i;
    for (i = 0; i < 3; i++) {
        rec_run x, m;
        lockstep_run(names[i], "sparse", 200000, 31 + i, NULL, NULL, NULL, 0, &x);
        lockstep_run(names[i], "mixed", 200000, 31 + i, NULL, NULL, NULL, 0, &m);
        cr_assert_gt(2 * x.st.entry_frees, 3 * m.st.entry_frees + 2000,
                     "%s: %llu entries freed (mixed stream: %llu)", names[i],
                     (unsigned long long)x.st.entry_frees, (unsigned long long)m.st.entry_frees);
        cr_assert_gt(x.st.evictions, 100, "%s: the stream must evict", names[i]);
        ls_result_free(&x.r);
        ls_result_free(&m.r);
    }
}

Test(rec_lockstep, one_request_per_cycle_on_hits)
{
    rec_run x;
    unsigned long long acc = 0, cyc = 0;
    const char *p;
    lockstep_run("default", "hit", 60000, 3, NULL, NULL, NULL, 0, &x);
    p = x.r.summary ? strstr(x.r.summary, "after warm-up: ") : NULL;
    cr_assert_not_null(p, "no hit-stream line in the summary: %s", x.r.summary);
    cr_assert_eq(sscanf(p, "after warm-up: %llu requests in %llu cycles", &acc, &cyc), 2);
    cr_assert_gt(cyc, 50000);
    cr_assert_eq(x.st.invalidations, 0);
    cr_assert_eq(acc, cyc, "%llu requests in %llu cycles", acc, cyc);
    ls_result_free(&x.r);
}

/* docs/rec.md: a request accepted in cycle t has its first invalidation on
 * the port in cycle t + REC_INV_LATENCY, in the RTL and in the timing shell. */
Test(rec_lockstep, invalidation_latency)
{
    const dut_ops *d = ls_dut_find(rec_duts, cohkit_unit_find("rec"), "fpga");
    rec_cfg c;
    rec_tm *tm;
    rec_in in;
    rec_out mo, ro;
    void *h;
    unsigned phase, cyc, acc_at = 0, inv_at = 0, n;
    cr_assert_not_null(d);
    rec_cfg_preset(&c, "fpga");
    tm = rec_tm_new(&c);
    h = d->create(1);
    cr_assert(tm != NULL && h != NULL);
    memset(&in, 0, sizeof in);
    in.home_i = 0;
    in.inv_ready_i = 1;
    /* reset, then a remote read by GPU 1 (no INV), then a local write to
     * the same line: one INV, whose latency is measured */
    for (phase = 0, cyc = 0, n = 0; cyc < 2000 && inv_at == 0; cyc++) {
        /* a falling reset edge (cycles 1-2): the asynchronous reset fires */
        in.rst_ni = cyc == 0 || cyc >= 3;
        in.req_valid_i = phase < 2 && cyc >= 3;
        in.req_op_i = phase == 0 ? REC_OP_RR : REC_OP_LW;
        in.req_src_i = 1;
        in.req_addr_i = 0x1234;
        d->eval(h, (const uint64_t *)&in, (uint64_t *)&ro);
        rec_eval(tm, &in, &mo);
        if (cyc < 3) {
            rec_step(tm, &in);
            d->tick(h);
            continue;
        }
        cr_assert_eq(memcmp(&mo, &ro, sizeof mo), 0, "model and RTL differ at cycle %u", cyc);
        if (ro.inv_valid_o) {
            cr_assert_eq(phase, 2, "INV before the local write");
            cr_assert_eq(ro.inv_addr_o, 0x1234);
            cr_assert_eq(ro.inv_mask_o, 0x2);
            inv_at = cyc;
        }
        if (in.req_valid_i && ro.req_ready_o) {
            if (phase == 1)
                acc_at = cyc;
            phase++;
        }
        rec_step(tm, &in);
        d->tick(h);
        n++;
    }
    cr_assert_neq(inv_at, 0, "no INV within %u cycles", n);
    cr_assert_eq(inv_at - acc_at, REC_INV_LATENCY, "accepted at %u, first INV at %u", acc_at,
                 inv_at);
    d->destroy(h);
    rec_tm_free(tm);
}

Test(rec_lockstep, recorded_stimulus_replays_identically)
{
    rec_run x1, x2;
    char err[256], *l1, *l2;
    FILE *s, *g1, *g2;
    uint64_t *vals;
    size_t n;
    const dut_ops *d = ls_dut_find(rec_duts, cohkit_unit_find("rec"), "fpga");
    cr_assert_not_null(d);
    s = fopen("build/t_replay.stim", "w");
    g1 = fopen("build/t_replay1.log", "w");
    lockstep_run("fpga", NULL, 20000, 77, s, g1, NULL, 0, &x1);
    fclose(s);
    fclose(g1);
    s = fopen("build/t_replay.stim", "r");
    cr_assert_eq(ls_stim_read(s, d, &vals, &n, err, sizeof err), 0, "%s", err);
    fclose(s);
    cr_assert_eq(n, 20000);
    g2 = fopen("build/t_replay2.log", "w");
    lockstep_run("fpga", NULL, 20000, 77, NULL, g2, vals, n, &x2);
    fclose(g2);
    free(vals);
    l1 = slurp("build/t_replay1.log");
    l2 = slurp("build/t_replay2.log");
    cr_assert_not_null(l1);
    cr_assert_not_null(l2);
    cr_assert_gt(strlen(l1), 20000);
    cr_assert_str_eq(l1, l2);
    cr_assert_eq(x1.r.chan_xfers[1], x2.r.chan_xfers[1]);
    free(l1);
    free(l2);
    ls_result_free(&x1.r);
    ls_result_free(&x2.r);
}

Test(rec_lockstep, stimulus_reader_rejects_bad_lines)
{
    char err[256];
    uint64_t *v = NULL;
    size_t n;
    const dut_ops *d = ls_dut_find(rec_duts, cohkit_unit_find("rec"), "fpga");
    const char *text = "# header\n1 0 1 0 40 1 1\n1 0 1 0 zz 1 1\n";
    const char *wide = "1 0 1 0 40000000000000000 1 1\n";
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    cr_assert_eq(ls_stim_read(f, d, &v, &n, err, sizeof err), -1);
    cr_assert(strstr(err, "line 3") != NULL, "%s", err);
    fclose(f);
    /* a value wider than its port (req_addr_i) is rejected */
    f = fmemopen((void *)wide, strlen(wide), "r");
    cr_assert_eq(ls_stim_read(f, d, &v, &n, err, sizeof err), -1);
    cr_assert(strstr(err, "req_addr_i") != NULL, "%s", err);
    fclose(f);
}
