/*
 * Criterion tests of the DualOpt RDMA CoDec (coalescer, de-coalescer, round
 * trip): configuration and derived figures, the specification's worked
 * examples (2.4, 4.4), the rules of 2.7 (per-destination identity, at most
 * max slots per packet, bounded wait), bad options and traces, trace-mode
 * equality RTL vs model, and the measured latency and throughput of
 * docs/dualopt.md (lockstep of every committed configuration on every
 * stream: tb/test_registry.c).
 * Run from the repository root (make unit).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_codec_stim.h"
#include "dualopt_decoal.h"
#include "lockstep.h"
#include "test_util.h"

extern const dut_ops *const dualopt_duts[];

static void cfg_of(dualopt_codec_cfg *c, const char *preset)
{
    char err[256];
    cr_assert_eq(dualopt_codec_cfg_preset(c, preset), 0, "%s", preset);
    cr_assert_eq(dualopt_codec_cfg_check(c, err, sizeof err), 0, "%s: %s", preset, err);
}

/* Packets of one functional run. */
typedef struct {
    unsigned n;
    dualopt_codec_pkt p[512];
} pkts;

static void grab(void *ctx, const dualopt_codec_pkt *p)
{
    pkts *v = ctx;
    if (v->n < 512)
        v->p[v->n] = *p;
    v->n++;
}

static void rsp1(dualopt_coal_core *k, uint64_t cyc, unsigned dst, unsigned id, uint64_t mask,
                 uint64_t base)
{
    dualopt_codec_rsp r;
    unsigned j = 0;
    uint64_t m = mask;
    memset(&r, 0, sizeof r);
    r.cycle = cyc;
    r.dst = dst;
    r.id = (uint16_t)id;
    r.mask = mask;
    for (; m; m &= m - 1, j++)
        r.w[j][0] = (base + j) & 0xffffffffu;
    cr_assert_eq(dualopt_coal_push(k, &r), 0);
}

static void drain(dualopt_coal_core *k, pkts *v)
{
    unsigned guard = 0;
    v->n = 0;
    while (!dualopt_coal_idle(k) && guard++ < 100000)
        dualopt_coal_tick(k, grab, v);
    cr_assert(dualopt_coal_idle(k), "the coalescer did not drain");
}

/* ------------------------------------------------------------- config -- */

Test(dualopt_codec_cfg, presets_and_derived_figures)
{
    static const struct {
        const char *p;
        unsigned max, nf, storage;
    } t[] = {
        {"default", 10, 3, 9216},   {"fpga", 6, 3, 9216},       {"gran8", 6, 3, 15360},
        {"gran16", 3, 3, 27648},    {"gpus8", 10, 7, 21504},    {"gpus16", 10, 15, 46080},
        {"timeout10", 10, 3, 9216}, {"timeout50", 10, 3, 9216}, {"paper-header", 7, 3, 9216},
    };
    unsigned i;
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        dualopt_codec_cfg c;
        dualopt_codec_geom g;
        cfg_of(&c, t[i].p);
        dualopt_codec_geom_of(&c, &g);
        cr_assert_eq(c.max, t[i].max, "%s: max %u", t[i].p, c.max);
        cr_assert_eq(g.nf, t[i].nf, "%s", t[i].p);
        cr_assert_eq(g.storage_bits, t[i].storage, "%s: %u bits", t[i].p, g.storage_bits);
        /* a full packet fits the packet budget: 4 + 10 x 6 = 64 B = 4 flits at the
         * default, 4 + 6 x 6 = 40 B on fpga */
        cr_assert_leq(DUALOPT_CODEC_HDR_BYTES + c.max * (c.gran + 2), c.pkt_bytes);
    }
}

Test(dualopt_codec_cfg, rejects_bad_values_with_a_reason)
{
    static const char *const bad[][2] = {
        {"gpus", "1"},      {"gpus", "17"},        {"gran", "2"},       {"line", "48"},
        {"buf", "48"},      {"buf", "8"},          {"timeout", "0"},    {"count-bits", "5"},
        {"max", "11"},      {"pkt-bytes", "8"},    {"reg-depth", "0"},  {"self", "4"},
    };
    unsigned i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dualopt_codec_cfg c;
        char err[256] = "";
        dualopt_codec_cfg_preset(&c, "default");
        cr_assert_eq(dualopt_codec_cfg_option(&c, bad[i][0], bad[i][1], err, sizeof err), 0);
        cr_assert_eq(dualopt_codec_cfg_check(&c, err, sizeof err), -1, "--%s %s accepted", bad[i][0],
                     bad[i][1]);
        cr_assert(strstr(err, bad[i][1]) != NULL, "reason '%s' does not name %s", err, bad[i][1]);
    }
    {
        dualopt_codec_cfg c;
        char err[256];
        dualopt_codec_cfg_preset(&c, "default");
        cr_assert_eq(dualopt_codec_cfg_option(&c, "gpus", "x4", err, sizeof err), -1);
        cr_assert_eq(dualopt_codec_cfg_option(&c, "nonesuch", "1", err, sizeof err), 1);
    }
    gen_refuses("dualopt-coal", "--gran 3", "3");
    model_refuses("dualopt-decoal", "--count-bits 9", "", "9");
}

/* ---------------------------------------------------------- paper / spec -- */

Test(dualopt_codec_paper, ten_single_words_leave_as_one_64_byte_packet_in_cycle_9)
{
    dualopt_codec_cfg c;
    dualopt_coal_core *k;
    pkts v;
    unsigned i;
    cfg_of(&c, "default");
    k = dualopt_coal_new(&c);
    for (i = 0; i < 10; i++)
        rsp1(k, i, 2, 0x100 + i, 1u << i, 0xa0 + i);
    drain(k, &v);
    cr_assert_eq(v.n, 1);
    cr_assert_eq(v.p[0].cycle, 9);
    cr_assert_eq(v.p[0].n, 10);
    cr_assert_eq(v.p[0].len, 64);
    cr_assert_eq(k->st.flits, 4);
    cr_assert_eq(k->st.fine_flits, 10, "ten responses alone: one flit each");
    cr_assert_eq(k->st.line_flits, 50, "ten 68-byte line responses: five flits each");
    for (i = 0; i < 10; i++)
        cr_assert(v.p[0].s[i].id == 0x100 + i && v.p[0].s[i].d[0] == 0xa0 + i);
    dualopt_coal_free(k);
}

Test(dualopt_codec_paper, lone_response_leaves_after_the_timeout)
{
    static const struct {
        const char *p;
        unsigned to;
    } t[] = {{"default", 30}, {"timeout10", 10}, {"timeout50", 50}};
    unsigned i;
    for (i = 0; i < 3; i++) {
        dualopt_codec_cfg c;
        dualopt_coal_core *k;
        pkts v;
        cfg_of(&c, t[i].p);
        k = dualopt_coal_new(&c);
        rsp1(k, 5, 3, 1, 0x8, 5);
        drain(k, &v);
        cr_assert_eq(v.n, 1);
        cr_assert_eq(v.p[0].cycle, 5 + t[i].to, "%s: cycle %llu", t[i].p,
                     (unsigned long long)v.p[0].cycle);
        cr_assert_eq(k->st.timeouts, 1);
        dualopt_coal_free(k);
    }
}

Test(dualopt_codec_paper, wire_example_of_section_2_4)
{
    dualopt_codec_cfg c;
    dualopt_coal_core *k;
    pkts v;
    static const uint8_t want[16] = {0x11, 0x02, 0, 0, 0x11, 0x11, 0x11, 0x11,
                                     0x02, 0x01, 0x22, 0x22, 0x22, 0x22, 0x02, 0x01};
    dualopt_codec_rsp r;
    dualopt_codec_pkt back;
    char why[160];
    cfg_of(&c, "default");
    k = dualopt_coal_new(&c);
    memset(&r, 0, sizeof r);
    r.dst = 1;
    r.id = 0x0102;
    r.mask = 0x3;
    r.w[0][0] = 0x11111111;
    r.w[1][0] = 0x22222222;
    dualopt_coal_push(k, &r);
    drain(k, &v);
    cr_assert_eq(v.n, 1);
    cr_assert_eq(v.p[0].len, 16);
    cr_assert_eq(memcmp(v.p[0].img, want, 16), 0);
    cr_assert_eq(dualopt_decoal_parse(&c, v.p[0].img, 16, &back, why, sizeof why), 0, "%s", why);
    cr_assert(back.n == 2 && back.s[0].id == 0x0102 && back.s[1].d[0] == 0x22222222);
    dualopt_coal_free(k);
    /* the same through the tools, as the spec prints it */
    cr_assert_eq(run("echo 'RSP 0 1 0x0102 0x0003 0x11111111 0x22222222' | build/bin/cohmodel "
                     "dualopt-coal --wire | grep -qx 'WIRE 30 1 11020000111111110201222222220201'"),
                 0);
    cr_assert_eq(run("echo 'RSP 7 1 0xbeef 0x0400 0x12345678' | build/bin/cohmodel dualopt-coal | "
                     "grep -qx 'PKT 37 1 1 0xbeef:0x12345678'"), 0);
}

Test(dualopt_codec_paper, slots_per_packet_by_granularity_and_header)
{
    static const struct {
        const char *p;
        unsigned max, len;
    } t[] = {{"gran8", 6, 64}, {"gran16", 3, 58}, {"paper-header", 7, 46}};
    unsigned i, j;
    for (i = 0; i < 3; i++) {
        dualopt_codec_cfg c;
        dualopt_coal_core *k;
        pkts v;
        cfg_of(&c, t[i].p);
        k = dualopt_coal_new(&c);
        for (j = 0; j < 2 * t[i].max; j++)
            rsp1(k, 0, 1, j, 1, j);
        drain(k, &v);
        cr_assert_eq(v.n, 2, "%s", t[i].p);
        cr_assert_eq(v.p[0].n, t[i].max);
        cr_assert_eq(v.p[0].len, t[i].len, "%s: %u bytes", t[i].p, v.p[0].len);
        cr_assert_eq(v.p[0].cycle, t[i].max - 1, "full packets leave at once");
        dualopt_coal_free(k);
    }
}

/* ------------------------------------------------------------- rules 2.7 */

Test(dualopt_codec_rules, a_response_straddles_two_packets_in_order)
{
    dualopt_codec_cfg c;
    dualopt_coal_core *k;
    pkts v;
    unsigned j;
    cfg_of(&c, "default");
    k = dualopt_coal_new(&c);
    rsp1(k, 0, 1, 0x77, 0xffff, 0x1000);
    drain(k, &v);
    cr_assert_eq(v.n, 2);
    cr_assert(v.p[0].n == 10 && v.p[1].n == 6);
    cr_assert_eq(v.p[0].cycle, 0);
    cr_assert_eq(v.p[1].cycle, 30, "the rest waits for the idle timer");
    for (j = 0; j < 16; j++) {
        const dualopt_codec_slot *s = j < 10 ? &v.p[0].s[j] : &v.p[1].s[j - 10];
        cr_assert(s->id == 0x77 && s->d[0] == 0x1000 + j, "slot %u", j);
    }
    dualopt_coal_free(k);
}

Test(dualopt_codec_rules, worst_wait_with_the_idle_timer_is_262_cycles)
{
    dualopt_codec_cfg c;
    dualopt_coal_core *k;
    pkts v;
    unsigned i;
    cfg_of(&c, "default");
    k = dualopt_coal_new(&c);
    for (i = 0; i < 9; i++)
        rsp1(k, 29 * i, 1, i, 1, i);
    drain(k, &v);
    cr_assert_eq(v.n, 1);
    cr_assert_eq(v.p[0].n, 9);
    cr_assert_eq(v.p[0].cycle, 262, "the first slot waited %llu cycles",
                 (unsigned long long)v.p[0].cycle);
    dualopt_coal_free(k);
    /* a tenth arrival at 261 fills the packet: it leaves at once */
    k = dualopt_coal_new(&c);
    for (i = 0; i < 9; i++)
        rsp1(k, 29 * i, 1, i, 1, i);
    rsp1(k, 261, 1, 9, 1, 9);
    drain(k, &v);
    cr_assert(v.n == 1 && v.p[0].n == 10 && v.p[0].cycle == 261);
    dualopt_coal_free(k);
}

Test(dualopt_codec_rules, round_robin_over_buffers_and_pass_through)
{
    dualopt_codec_cfg c;
    dualopt_coal_core *k;
    pkts v;
    unsigned i;
    dualopt_codec_rsp r;
    cfg_of(&c, "default");
    k = dualopt_coal_new(&c);
    /* three full buffers and a regular response become ready in cycle 9:
     * one packet per cycle, in ring order from the pointer (buffer of GPU 1) */
    for (i = 0; i < 10; i++) {
        rsp1(k, 0, 3, i, 1, i);
        rsp1(k, 0, 2, i, 1, i);
    }
    for (i = 0; i < 10; i++)
        rsp1(k, 0, 1, i, 1, i);
    memset(&r, 0, sizeof r);
    r.reg = 1;
    r.dst = 2;
    r.id = 0x55;
    r.bytes = 68;
    dualopt_coal_push(k, &r);
    drain(k, &v);
    cr_assert_eq(v.n, 4);
    /* GPU 3 fills first (cycle 18), GPU 2 in 19, GPU 1 in 29, the regular
     * one is admitted in cycle 30 */
    cr_assert(v.p[0].dst == 3 && v.p[0].cycle == 18);
    cr_assert(v.p[1].dst == 2 && v.p[1].cycle == 19);
    cr_assert(v.p[2].dst == 1 && v.p[2].cycle == 29);
    cr_assert(v.p[3].reg && v.p[3].cycle == 30 && v.p[3].id == 0x55 && v.p[3].len == 68);
    for (i = 0; i < 3; i++)
        cr_assert_eq(v.p[i].n, 10);
    dualopt_coal_free(k);
}

Test(dualopt_codec_rules, a_full_buffer_back_pressures_its_input)
{
    dualopt_codec_cfg c;
    dualopt_coal_tm *t;
    dualopt_coal_layout l;
    uint64_t in[64], out[64];
    unsigned cyc, acc = 0, stalled = 0;
    dualopt_codec_rsp r;
    cfg_of(&c, "default");
    t = dualopt_coal_tm_new(&c);
    l = t->l;
    memset(in, 0, sizeof in);
    memset(&r, 0, sizeof r);
    r.dst = 1;
    r.mask = 0xffff; /* 16 slots a response: the buffer holds four */
    for (cyc = 0; cyc < 12; cyc++) {
        in[0] = cyc >= 1;
        in[l.pkt_ready] = 0; /* the link is busy: nothing leaves */
        in[l.in_valid] = 1;
        dualopt_codec_drive_rsp(&c, &l, &r, in);
        dualopt_coal_tm_eval(t, in, out);
        if (in[0] && (out[l.in_ready] & 1))
            acc++;
        else if (in[0])
            stalled++;
        dualopt_coal_tm_step(t, in);
    }
    /* one packet went into the output register, then the link held it */
    cr_assert_eq(acc, 4, "%u responses accepted", acc);
    cr_assert_gt(stalled, 0);
    cr_assert_eq(t->k->count[0] + (t->v_valid ? 10u : 0u), 64u);
    dualopt_coal_tm_free(t);
}

/* Random traces (seeded): the round trip is the identity on every
 * destination's slot stream, also through the byte format. */
static void write_trace(const char *path, unsigned n, unsigned seed, unsigned gpus)
{
    FILE *f = fopen(path, "w");
    uint64_t s = seed, cyc = 0;
    unsigned i, j;
    cr_assert_not_null(f);
    fprintf(f, "# random coalescer trace\n");
    for (i = 0; i < n; i++) {
        unsigned r, dst, words;
        uint64_t mask;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        cyc += (s >> 60) & 7;
        r = (unsigned)((s >> 33) % 100);
        dst = 1 + (unsigned)((s >> 20) % (gpus - 1));
        if (r < 8) {
            fprintf(f, "REG %llu %u 0x%x %u\n", (unsigned long long)cyc, dst,
                    (unsigned)(s >> 8) & 0xffff, 4 + (unsigned)(s >> 50) % 64);
            continue;
        }
        mask = r < 60 ? 1ull << ((s >> 40) % 16) : (s >> 24) & 0xffff;
        if (mask == 0)
            mask = 1;
        fprintf(f, "RSP %llu %u %x 0x%llx", (unsigned long long)cyc, dst, i & 0xffff,
                (unsigned long long)mask);
        for (j = 0, words = __builtin_popcountll(mask); j < words; j++)
            fprintf(f, " %x", (unsigned)(i * 16 + j));
        fprintf(f, "\n");
    }
    fclose(f);
}

/* Reads "RSP <cycle> <gpu> <id> <data>..." lines (input or output) and checks
 * that, per GPU, the (id, data) sequences of a and b are equal. */
static void same_streams(const char *a, const char *b)
{
    FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
    char line[4096];
    static char sa[16][200000], sb[16][200000];
    unsigned g;
    size_t la[16] = {0}, lb[16] = {0}, total = 0;
    cr_assert(fa && fb);
    while (fgets(line, sizeof line, fa)) {
        unsigned gpu, id;
        char *tok, *save = NULL;
        unsigned k = 0;
        if (strncmp(line, "RSP ", 4) != 0)
            continue;
        gpu = id = 0;
        for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save), k++) {
            if (k == 2)
                gpu = (unsigned)strtoul(tok, NULL, 10);
            else if (k == 3)
                id = (unsigned)strtoul(tok, NULL, 16);
            else if (k >= 5) {
                la[gpu] += (size_t)snprintf(sa[gpu] + la[gpu], sizeof sa[gpu] - la[gpu],
                                            "%04x:%08llx ", id, strtoull(tok, NULL, 16));
                total++;
            }
        }
    }
    while (fgets(line, sizeof line, fb)) {
        unsigned long long cyc, w;
        unsigned gpu, id;
        if (sscanf(line, "RSP %llu %u %x %llx", &cyc, &gpu, &id, &w) != 4)
            continue;
        lb[gpu] += (size_t)snprintf(sb[gpu] + lb[gpu], sizeof sb[gpu] - lb[gpu], "%04x:%08llx ",
                                    id, w);
    }
    fclose(fa);
    fclose(fb);
    cr_assert_gt(total, 500, "too few slots in the trace");
    for (g = 0; g < 16; g++)
        cr_assert(la[g] == lb[g] && memcmp(sa[g], sb[g], la[g]) == 0,
                  "GPU %u: the slot streams differ", g);
}

Test(dualopt_codec_rules, round_trip_is_the_identity_per_destination, .timeout = 60)
{
    write_trace("build/t_codec_in.trace", 1500, 11, 4);
    cr_assert_eq(run("build/bin/cohmodel dualopt-coal --wire < build/t_codec_in.trace | "
                     "build/bin/cohmodel dualopt-decoal > build/t_codec_wire.out"), 0);
    same_streams("build/t_codec_in.trace", "build/t_codec_wire.out");
    cr_assert_eq(run("build/bin/cohmodel dualopt-coal < build/t_codec_in.trace | "
                     "build/bin/cohmodel dualopt-decoal > build/t_codec_pkt.out"), 0);
    same_streams("build/t_codec_in.trace", "build/t_codec_pkt.out");
    cr_assert_eq(run("build/bin/cohmodel dualopt-codec < build/t_codec_in.trace > "
                     "build/t_codec_rt.out"), 0);
    same_streams("build/t_codec_in.trace", "build/t_codec_rt.out");
    /* the RTL's round trip prints the same */
    cr_assert_eq(run("./tb_dualopt --unit codec --trace build/t_codec_in.trace > build/t_codec_rtl.out"
                     " && grep -q '^# PASS' build/t_codec_rtl.out && grep -E '^(RSP|REG) ' "
                     "build/t_codec_rtl.out | cmp -s - build/t_codec_rt.out"), 0);
}

/* ---------------------------------------------------------- bad input -- */

static void bad_trace(const char *unit, const char *text, const char *want)
{
    model_refuses(unit, "", text, want);
    model_refuses(unit, "", text, "cohmodel: stdin: line ");
}

Test(dualopt_codec_tools, bad_traces_exit_2_with_the_line_and_no_output)
{
    bad_trace("dualopt-coal", "RSP 0 1 1 1 5\nRSP 1 0 1 1 5\n", "line 2");
    bad_trace("dualopt-coal", "RSP 5 1 1 1 5\nRSP 4 1 1 1 5\n", "line 2: cycle 4");
    bad_trace("dualopt-coal", "RSP 0 1 1 0x3 5\n", "needs 2 words");
    bad_trace("dualopt-coal", "# c\n\nRSP 0 1 1 0x10000 5\n", "line 3");
    bad_trace("dualopt-coal", "RSP 0 1 0x10000 1 5\n", "16-bit");
    bad_trace("dualopt-coal", "REG 0 1 1 2\n", "message size");
    bad_trace("dualopt-coal", "PKT 0 1 1 1:1\n", "unknown record");
    bad_trace("dualopt-codec", "RSP 0 9 1 1 5\n", "line 1");
    bad_trace("dualopt-decoal", "PKT 0 1 11 " "1:1 1:1 1:1 1:1 1:1 1:1 1:1 1:1 1:1 1:1 1:1\n",
              "count 11");
    bad_trace("dualopt-decoal", "PKT 0 1 0\n", "count 0");
    bad_trace("dualopt-decoal", "WIRE 0 1 1101000011111111020100\n", "bytes for 1 slots");
    bad_trace("dualopt-decoal", "WIRE 0 1 11110000111111110201\n", "reserved");
    bad_trace("dualopt-decoal", "WIRE 0 1 12010000111111110201\n", "message type 2");
    bad_trace("dualopt-decoal", "WIRE 0 1 31010000111111110201\n", "compression 3");
    bad_trace("dualopt-decoal", "PKT 0 1 1 1:1\nWIRE 1 1 1101000111111111020\n", "line 2");
    /* 3-bit count (paper-header): bit 11 is reserved, 8 slots are too many */
    cr_assert_eq(run("echo 'WIRE 0 1 11090000111111110201' | build/bin/cohmodel dualopt-decoal "
                     "--config paper-header >/dev/null 2>&1"), 2);
    cr_assert_eq(run("echo 'WIRE 0 1 11010000111111110201' | build/bin/cohmodel dualopt-decoal "
                     "--config paper-header | grep -qx 'RSP 0 1 0x0102 0x11111111'"), 0);
    cr_assert_eq(run("printf 'RSP 0 0 1 1 1\\n' | ./tb_dualopt --unit coal --trace - "
                     ">/dev/null 2>&1"), 2);
}

/* --------------------------------------------------- RTL vs model traces -- */

Test(dualopt_codec_tools, trace_mode_prints_what_the_model_prints, .timeout = 120)
{
    /* the coalescer's packets, on the wire too, and the de-coalescer fed
     * with the coalescer's wire output */
    static const char *const cfgs[] = {"default", "paper_header"};
    unsigned i, k;
    write_trace("build/t_dc_tr.trace", 1200, 3, 4);
    for (k = 0; k < 2; k++)
        for (i = 0; i < 3; i++) {
            char opts[96], cmd[256], why[1024];
            long n;
            snprintf(opts, sizeof opts, "--config %s%s", cfgs[k], i == 1 ? " --wire" : "");
            if (i == 2) {
                snprintf(cmd, sizeof cmd, "build/bin/cohmodel dualopt-coal %s --wire "
                         "<build/t_dc_tr.trace >build/t_dc_w.out", opts);
                cr_assert_eq(run(cmd), 0, "%s", cmd);
            }
            n = trace_agrees("dualopt", i == 2 ? "dualopt-decoal" : "dualopt-coal", opts,
                             i == 2 ? "build/t_dc_w.out" : "build/t_dc_tr.trace", NULL, NULL, why,
                             sizeof why);
            cr_assert_geq(n, 0, "%s", why);
            cr_assert_gt(n, 2000, "%s %s: short output", cfgs[k], i == 2 ? "decoal" : "coal");
        }
}

/* ---------------------------------------------------------- lockstep -- */

/* docs/dualopt.md: the coalescer's added latency in the RTL, measured on the
 * packet port (ready always): a full packet leaves on the port the cycle
 * after its last slot is accepted; a lone slot TIMEOUT + 1 cycles after. */
static unsigned port_latency(const char *cfgname, unsigned nresp, unsigned *first_acc)
{
    const dut_ops *d = ls_dut_find(dualopt_duts, cohkit_unit_find("dualopt-coal"), cfgname);
    dualopt_codec_cfg c;
    dualopt_coal_layout l;
    uint64_t in[64], out[64];
    dualopt_codec_rsp r;
    void *h;
    unsigned cyc, acc = 0, last_acc = 0, got = 0;
    char err[256];
    cr_assert_not_null(d);
    cr_assert_eq(ls_dut_cfg(cohkit_unit_find("dualopt-coal"), d, &c, err, sizeof err), 0, "%s", err);
    dualopt_coal_layout_of(&c, &l);
    h = d->create(1);
    memset(in, 0, sizeof in);
    memset(&r, 0, sizeof r);
    r.dst = 2;
    r.mask = 1;
    for (cyc = 0; cyc < 200 && !got; cyc++) {
        in[0] = cyc >= 2;
        in[l.pkt_ready] = 1;
        in[l.in_valid] = cyc >= 4 && acc < nresp;
        r.id = (uint16_t)acc;
        r.w[0][0] = acc;
        dualopt_codec_drive_rsp(&c, &l, &r, in);
        d->eval(h, in, out);
        if (in[0] && (in[l.in_valid] & 1) && (out[l.in_ready] & 1)) {
            if (acc == 0)
                *first_acc = cyc;
            last_acc = cyc;
            acc++;
        }
        if (in[0] && (out[l.pkt_valid] & 1))
            got = cyc;
        d->tick(h);
    }
    d->destroy(h);
    cr_assert_neq(got, 0, "no packet");
    return got - last_acc;
}

Test(dualopt_codec_lockstep, coalescer_added_latency_on_the_rtl)
{
    unsigned first = 0;
    cr_assert_eq(port_latency("default", 10, &first), 1, "full packet");
    cr_assert_eq(port_latency("default", 1, &first), 31, "lone slot: timeout + 1");
    cr_assert_eq(port_latency("timeout10", 1, &first), 11);
    cr_assert_eq(port_latency("paper_header", 7, &first), 1);
}

/* docs/dualopt.md: the de-coalescer hands out one slot per cycle and takes
 * the next packet in the cycle of the last slot (no bubble): 10 full packets
 * give 100 slots in 100 cycles, on the RTL and the model alike. */
Test(dualopt_codec_lockstep, decoalescer_one_slot_per_cycle)
{
    const dut_ops *d = ls_dut_find(dualopt_duts, cohkit_unit_find("dualopt-decoal"), "default");
    dualopt_codec_cfg c;
    dualopt_decoal_tm *t;
    dualopt_decoal_layout l;
    uint64_t in[64], ro[64], mo[64];
    dualopt_codec_pkt p;
    void *h;
    unsigned cyc, b, j, sent = 0, slots = 0, first = 0, last = 0;
    char err[256];
    cr_assert_not_null(d);
    cr_assert_eq(ls_dut_cfg(cohkit_unit_find("dualopt-decoal"), d, &c, err, sizeof err), 0, "%s", err);
    dualopt_decoal_layout_of(&c, &l);
    t = dualopt_decoal_tm_new(&c);
    h = d->create(2);
    memset(&p, 0, sizeof p);
    p.n = c.max;
    for (j = 0; j < p.n; j++) {
        p.s[j].id = (uint16_t)j;
        p.s[j].d[0] = 0x1000 + j;
    }
    dualopt_codec_pkt_image(&c, &p);
    for (cyc = 0; cyc < 400 && slots < 100; cyc++) {
        memset(in, 0, sizeof in);
        in[0] = cyc >= 2;
        in[l.out_ready] = 1;
        in[l.pkt_valid] = cyc >= 4 && sent < 10;
        in[l.pkt_len] = p.len;
        for (b = 0; b < c.pkt_bytes; b++)
            in[l.pkt_data + b / 8] |= (uint64_t)p.img[b] << (8 * (b % 8));
        d->eval(h, in, ro);
        dualopt_decoal_tm_eval(t, in, mo);
        if (in[0]) {
            cr_assert_eq(memcmp(ro, mo, l.out_words * sizeof *ro), 0, "cycle %u", cyc);
            if ((in[l.pkt_valid] & 1) && (ro[l.pkt_ready] & 1))
                sent++;
            if (ro[l.out_valid] & 1) {
                cr_assert_eq(ro[l.out_id], slots % 10);
                if (slots == 0)
                    first = cyc;
                last = cyc;
                slots++;
            }
        }
        dualopt_decoal_tm_step(t, in);
        d->tick(h);
    }
    cr_assert_eq(slots, 100);
    cr_assert_eq(last - first + 1, 100, "100 slots in %u cycles", last - first + 1);
    d->destroy(h);
    dualopt_decoal_tm_free(t);
}
