/*
 * Criterion tests of the Spandex LLC's timing shell (spandex_llc_tm.c, the
 * cycle model of the RTL) through the unit's registry entry: fed one event
 * at a time (the bench's trace mode) it prints exactly what the functional
 * core prints, on generated traces of every committed configuration, every
 * ReqS policy and both owner stores, under back-pressure; on the random
 * streams (devices answering in random order, memory latency, concurrent
 * requests) it never sees a protocol error and keeps accepting requests;
 * on the `errors` stream every injected error is one, and err_o rises with
 * the first (an Ack the LLC does not wait for, dropped in D).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spandex_gen.h"
#include "spandex_llc.h"
#include "unit.h"

extern const cohkit_unit_desc spandex_llc_unit;

/* A configuration of spandex-llc from option words. */
static void *cfg_of(const cohkit_unit_desc *u, const char *opts)
{
    char err[300];
    void *c = calloc(1, u->cfg_size);
    cr_assert_not_null(c);
    cr_assert_eq(cohkit_unit_cfg_parse_str(u, c, opts, err, sizeof err), 0, "%s: %s", opts, err);
    return c;
}

/* Runs the shell on the unit's stimulus (trace, or a random stream) for at
 * most `cycles`; the summary into *summary (malloc). Returns the cycles
 * run. */
static uint64_t shell_run(const cohkit_unit_desc *u, const void *cfg, FILE *trace, FILE *out, const char *stream,
                          uint64_t seed, uint64_t cycles, char **summary)
{
    cohkit_unit_layout lay;
    cohkit_unit_stim_args a;
    const char *fl[COHKIT_UNIT_FLAGS_MAX] = {0};
    char err[300];
    void *s, *tm;
    uint64_t *in, *o, cyc, limit = cycles;
    size_t len = 0;
    FILE *f;
    cr_assert_eq(cohkit_unit_layout_of(u, cfg, &lay, err, sizeof err), 0, "%s", err);
    memset(&a, 0, sizeof a);
    a.seed = seed;
    a.stream = stream;
    a.trace = trace;
    a.trace_name = "trace";
    a.out = out;
    a.flags = fl;
    s = u->stim_new(cfg, &a, err, sizeof err);
    cr_assert_not_null(s, "%s", err);
    tm = u->tm_new(cfg);
    in = calloc(lay.in_words, sizeof *in);
    o = calloc(lay.out_words, sizeof *o);
    cr_assert(tm && in && o);
    if (trace)
        limit = u->stim_limit(s);
    for (cyc = 0; cyc < limit; cyc++) {
        u->stim_drive(s, cyc, in);
        in[0] = cyc >= 2;
        u->tm_eval(tm, in, o);
        if (cyc >= 2)
            u->stim_observe(s, cyc, in, o);
        u->tm_step(tm, in);
        if (trace && cyc > 2 && u->stim_done(s, tm))
            break;
    }
    f = open_memstream(summary, &len);
    cr_assert_not_null(f);
    u->stim_summary(s, tm, cyc, f, "");
    fclose(f);
    u->stim_free(s);
    u->tm_free(tm);
    free(in);
    free(o);
    return cyc;
}

/* The number after `key` in s. */
static unsigned long long num_after(const char *s, const char *key)
{
    const char *p = strstr(s, key);
    cr_assert_not_null(p, "'%s' not in %s", key, s);
    return strtoull(p + strlen(key), NULL, 10);
}

Test(spandex_tm, trace_mode_prints_what_the_core_prints, .timeout = 120)
{
    static const char *const presets[] = {"default", "paper", "fpga", "line"};
    static const char *const reqs[] = {"1", "2", "3", "paper"};
    const cohkit_unit_desc *u = &spandex_llc_unit;
    unsigned p, r, st, runs = 0;
    cr_assert_not_null(u);
    for (p = 0; p < 4; p++)
        for (r = 0; r < 4; r++)
            for (st = 0; st < 2; st++) {
                char opts[160], gerr[300], *tr = NULL, *want = NULL, *got = NULL, *sum = NULL;
                size_t ntr = 0, nwant = 0, ngot = 0;
                spandex_gen_cfg g;
                FILE *f, *in, *out;
                void *cfg;
                snprintf(opts, sizeof opts, "--config %s --reqs %s --owner-store %s", presets[p], reqs[r],
                         st ? "array" : "data");
                cfg = cfg_of(u, opts);
                spandex_gen_cfg_preset(&g, presets[p]);
                g.llc = *(const spandex_llc_cfg *)cfg;
                g.seed = 11 + p * 8 + r * 2 + st;
                g.events = 600;
                f = open_memstream(&tr, &ntr);
                cr_assert_eq(spandex_gen_write(&g, f, gerr, sizeof gerr), 0, "%s: %s", opts, gerr);
                fclose(f);
                in = fmemopen(tr, ntr, "r");
                out = open_memstream(&want, &nwant);
                cr_assert_eq(u->trace_run(cfg, (const char *const[COHKIT_UNIT_FLAGS_MAX]){0}, in, "t", out, stderr), 0);
                fclose(in);
                fclose(out);
                in = fmemopen(tr, ntr, "r");
                out = open_memstream(&got, &ngot);
                shell_run(u, cfg, in, out, NULL, g.seed, 0, &sum);
                fclose(in);
                fclose(out);
                cr_expect_str_eq(got, want, "%s: the shell's trace output differs from the core's", opts);
                cr_expect(strstr(sum, "protocol errors (err_o cycles) 0") != NULL, "%s: %s", opts, sum);
                runs++;
                free(tr);
                free(want);
                free(got);
                free(sum);
                free(cfg);
            }
    cr_assert_eq(runs, 32);
}

Test(spandex_tm, random_streams_run_without_protocol_errors, .timeout = 120)
{
    static const char *const presets[] = {"default", "paper", "fpga", "line"};
    static const char *const streams[] = {"mixed", "conflict", "stream", "backlog"};
    const cohkit_unit_desc *u = &spandex_llc_unit;
    unsigned p, k;
    for (p = 0; p < 4; p++)
        for (k = 0; k < 4; k++) {
            char opts[64], *sum = NULL;
            void *cfg;
            snprintf(opts, sizeof opts, "--config %s", presets[p]);
            cfg = cfg_of(u, opts);
            shell_run(u, cfg, NULL, NULL, streams[k], 5 + p, 30000, &sum);
            cr_expect_eq(num_after(sum, "protocol errors (err_o cycles) "), 0, "%s %s: %s", opts, streams[k], sum);
            cr_expect_gt(num_after(sum, "requests "), 2000, "%s %s: %s", opts, streams[k], sum);
            if (k != 2)
                cr_expect_gt(num_after(sum, "answers "), 100, "%s %s: %s", opts, streams[k], sum);
            free(sum);
            free(cfg);
        }
}

/* The errors stream: an Ack from a device the LLC does not wait for and a
 * malformed request in turn, each a protocol error; err_o, sticky, rises
 * with the first, the Ack, which goes through I and M and is dropped in D
 * (three cycles at least after its handshake; a drop at issue shows in the
 * next cycle), and stays high. */
Test(spandex_tm, error_injection_raises_err_o, .timeout = 120)
{
    static const char *const presets[] = {"default", "paper", "fpga", "line"};
    const cohkit_unit_desc *u = &spandex_llc_unit;
    unsigned p;
    for (p = 0; p < 4; p++) {
        char opts[64], *sum = NULL;
        unsigned long long first, rise;
        uint64_t cycles;
        void *cfg;
        snprintf(opts, sizeof opts, "--config %s", presets[p]);
        cfg = cfg_of(u, opts);
        cycles = shell_run(u, cfg, NULL, NULL, "errors", 5 + p, 30000, &sum);
        cr_expect_gt(num_after(sum, "(Acks not waited for "), 1, "%s: %s", opts, sum);
        cr_expect_gt(num_after(sum, "malformed requests "), 1, "%s: %s", opts, sum);
        first = num_after(sum, "the first taken in cycle ");
        rise = num_after(sum, "err_o first high in cycle ");
        cr_expect(first > 0 && rise >= first + 3 && rise <= first + 64, "%s: %s", opts, sum);
        cr_expect_eq(num_after(sum, "protocol errors (err_o cycles) "), cycles - rise, "%s: %s", opts, sum);
        cr_expect_gt(num_after(sum, "requests "), 2000, "%s: %s", opts, sum);
        free(sum);
        free(cfg);
    }
}

/* ------------------------------------------------------------ latency -- */

/* The shell with every output ready and a memory that answers a MemRd in
 * the cycle after its handshake; events driven one at a time. */
typedef struct {
    const cohkit_unit_desc *u;
    void *cfg, *tm;
    cohkit_unit_layout lay;
    uint64_t *in, *out, cyc;
    int fill_due;
    unsigned fill_id;
    uint64_t fill_line;
} bench;

static unsigned port_off(const bench *b, const char *name)
{
    unsigned i, off_in = 1, off_out = 0;
    for (i = 0; i < (unsigned)b->lay.n; i++) {
        unsigned w = COHKIT_UNIT_WORDS(b->lay.p[i].width);
        if (strcmp(b->lay.p[i].name, name) == 0)
            return b->lay.p[i].dir == COHKIT_PORT_IN ? off_in : off_out;
        if (b->lay.p[i].dir == COHKIT_PORT_IN)
            off_in += w;
        else
            off_out += w;
    }
    cr_assert_fail("no port %s", name);
    return 0;
}

static void bench_new(bench *b, const char *opts)
{
    char err[300];
    memset(b, 0, sizeof *b);
    b->u = &spandex_llc_unit;
    b->cfg = cfg_of(b->u, opts);
    cr_assert_eq(cohkit_unit_layout_of(b->u, b->cfg, &b->lay, err, sizeof err), 0, "%s", err);
    b->tm = b->u->tm_new(b->cfg);
    b->in = calloc(b->lay.in_words, sizeof *b->in);
    b->out = calloc(b->lay.out_words, sizeof *b->out);
    cr_assert(b->tm && b->in && b->out);
}

static void bench_free(bench *b)
{
    b->u->tm_free(b->tm);
    free(b->in);
    free(b->out);
    free(b->cfg);
}

/* One cycle with the inputs set by the caller (valid bits, payloads);
 * readies and the fill are added here. Returns the output words. */
static const uint64_t *cycle(bench *b)
{
    b->in[0] = b->cyc >= 2;
    b->in[port_off(b, "fwd_ready_i")] = 1;
    b->in[port_off(b, "out_ready_i")] = 1;
    b->in[port_off(b, "mem_req_ready_i")] = 1;
    b->in[port_off(b, "mem_rsp_valid_i")] = b->fill_due;
    b->in[port_off(b, "mem_rsp_id_i")] = b->fill_id;
    b->u->tm_eval(b->tm, b->in, b->out);
    if (b->fill_due && (b->out[port_off(b, "mem_rsp_ready_o")] & 1))
        b->fill_due = 0;
    if ((b->out[port_off(b, "mem_req_valid_o")] & 1) && !(b->out[port_off(b, "mem_req_wr_o")] & 1)) {
        b->fill_due = 1;
        b->fill_id = (unsigned)b->out[port_off(b, "mem_req_id_o")];
    }
    b->u->tm_step(b->tm, b->in);
    b->cyc++;
    return b->out;
}

/* Drives a request (port "req") or an answer ("rsp") until taken: the
 * cycle of its handshake. */
static uint64_t drive(bench *b, const char *port, unsigned type, unsigned src, uint64_t line, uint64_t mask)
{
    char nm[32];
    for (;;) {
        uint64_t c = b->cyc;
        const uint64_t *o;
        snprintf(nm, sizeof nm, "%s_valid_i", port);
        b->in[port_off(b, nm)] = 1;
        snprintf(nm, sizeof nm, "%s_type_i", port);
        b->in[port_off(b, nm)] = type;
        snprintf(nm, sizeof nm, "%s_src_i", port);
        b->in[port_off(b, nm)] = src;
        snprintf(nm, sizeof nm, "%s_line_i", port);
        b->in[port_off(b, nm)] = line;
        snprintf(nm, sizeof nm, "%s_mask_i", port);
        b->in[port_off(b, nm)] = mask;
        o = cycle(b);
        snprintf(nm, sizeof nm, "%s_ready_o", port);
        if (o[port_off(b, nm)] & 1) {
            snprintf(nm, sizeof nm, "%s_valid_i", port);
            b->in[port_off(b, nm)] = 0;
            return c;
        }
        cr_assert_lt(b->cyc, 100000, "%s never taken", port);
    }
}

/* Runs until output channel `ch` ("fwd", "out", "mem_req") is valid with
 * type `type`: that cycle. */
static uint64_t wait_for(bench *b, const char *ch, unsigned type)
{
    char v[32], t[32];
    snprintf(v, sizeof v, "%s_valid_o", ch);
    snprintf(t, sizeof t, strcmp(ch, "mem_req") == 0 ? "%s_wr_o" : "%s_type_o", ch);
    for (;;) {
        uint64_t c = b->cyc;
        const uint64_t *o = cycle(b);
        if ((o[port_off(b, v)] & 1) && o[port_off(b, t)] == type)
            return c;
        cr_assert_lt(b->cyc, 100000, "no %s of type %u", ch, type);
    }
}

static void settle(bench *b)
{
    while (!(cycle(b)[port_off(b, "idle_o")] & 1))
        cr_assert_lt(b->cyc, 100000, "never idle");
}

/* The figures of docs/spandex.md ("Latency and throughput"), default
 * configuration: request and answer handshakes at cycle t, the first
 * output cycle after it. */
Test(spandex_tm, latency_of_a_hit_a_forward_a_transaction_and_an_eviction)
{
    bench b;
    uint64_t t, r;
    bench_new(&b, "--config default --reqs 1 --sets 1 --ways 2");
    settle(&b);
    /* a miss: MemRd, the fill the next cycle, then the response */
    t = drive(&b, "req", 0, 1, 0x40, 0xffff);
    cr_expect_eq(wait_for(&b, "mem_req", 0) - t, 3);
    cr_expect_eq(wait_for(&b, "out", 0) - t, 7);
    settle(&b);
    /* a V hit (RspV) */
    t = drive(&b, "req", 0, 2, 0x40, 0x3);
    cr_expect_eq(wait_for(&b, "out", 0) - t, 3);
    settle(&b);
    /* a forward: ReqO by 3 of words 0-1, then ReqV by 2: FwdReqV, RspV */
    drive(&b, "req", 3, 3, 0x40, 0x3);
    settle(&b);
    t = drive(&b, "req", 0, 2, 0x40, 0xf);
    cr_expect_eq(wait_for(&b, "fwd", 0) - t, 3);
    cr_expect_eq(wait_for(&b, "out", 0) - t, 4);
    settle(&b);
    /* an Inv/Ack transaction: ReqS(1) by 2 of word 4, ReqWT by 1: Inv to
     * 2, the Ack, RspWT */
    drive(&b, "req", 1, 2, 0x40, 0x10);
    settle(&b);
    t = drive(&b, "req", 2, 1, 0x40, 0x10);
    cr_expect_eq(wait_for(&b, "fwd", 5) - t, 3);
    settle(&b);
    r = drive(&b, "rsp", 8, 2, 0x40, 0);
    cr_expect_eq(wait_for(&b, "out", 2) - r, 3);
    settle(&b);
    /* the eviction of an owned line: line 0x40 (words 0-1 owned by 3) and
     * 0x80 fill the set; 0xc0 evicts the LRU 0x40: RvkO, then after the
     * RspRvkO the MemWr, the replayed request's MemRd, its RspV */
    drive(&b, "req", 0, 1, 0x80, 0x1);
    settle(&b);
    t = drive(&b, "req", 0, 1, 0xc0, 0x1);
    cr_expect_eq(wait_for(&b, "fwd", 4) - t, 3);
    settle(&b);
    r = drive(&b, "rsp", 7, 3, 0x40, 0x3);
    cr_expect_eq(wait_for(&b, "mem_req", 1) - r, 3);
    cr_expect_eq(wait_for(&b, "mem_req", 0) - r, 7);
    cr_expect_eq(wait_for(&b, "out", 0) - r, 11);
    bench_free(&b);
}

Test(spandex_tm, one_request_a_cycle_on_distinct_sets)
{
    bench b;
    uint64_t first, last = 0, s;
    unsigned n = 0;
    bench_new(&b, "--config default");
    settle(&b);
    /* fill 64 lines (one per set), then read them back to back */
    for (s = 0; s < 64; s++)
        drive(&b, "req", 0, 1, 0x1000 + s, 0xffff);
    settle(&b);
    first = drive(&b, "req", 0, 2, 0x1000, 0xffff);
    for (s = 1; s < 64; s++) {
        last = drive(&b, "req", 0, 2, 0x1000 + s, 0xffff);
        n++;
    }
    cr_expect_eq(last - first, n, "64 hits on distinct sets in %llu cycles", (unsigned long long)(last - first + 1));
    bench_free(&b);
}
