/*
 * Directed Criterion tests of the Spandex LLC RTL for the stimulus holes of
 * `make coverage` (docs/verification.md, "Coverage"), on both committed
 * configurations (`default`, `fpga`), suite spandex_llc_cov:
 *
 * - traces run by the bench's trace mode (`./tb_spandex --unit spandex-llc
 *   --trace`: the model's output, and the RTL in lockstep with it): a dirty
 *   victim dropped at once by a whole-line ReqWT that needs no fill (the
 *   MemWr and the response of one decision, the `!j_memwr` data select),
 *   and rounds of requests deferred behind an open revocation until the
 *   deferral queue's tail wraps (`q_tail >= ...`);
 * - protocol errors, which the trace tool refuses as bad input, as
 *   cycle-level stimulus replayed into the timing shell and the RTL in
 *   lockstep (ls_run in replay mode, every output compared every cycle):
 *   an Ack, an RspRvkO and a response of another type that match no
 *   transaction (`IsDropRsp`), fill data that matches no MemRd
 *   (`IsDropMem`), and a request for words its requestor owns (X15,
 *   `rr_err`); err_o must be low before the event and high after it.
 * Run from the repository root (make unit).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lockstep.h"
#include "test_util.h"

extern const dut_ops *const spandex_duts[];

/* ------------------------------------------------------------ traces -- */

/* The bench's trace mode on `trace` under `--config preset`: model and RTL
 * agree; the model's output (malloc). */
static char *llc_trace(const char *preset, const char *trace)
{
    char dir[256], path[300], why[512], opts[64], name[64], *got = NULL;
    long n;
    snprintf(name, sizeof name, "spandex_llc_cov_%ld", (long)getpid());
    snprintf(dir, sizeof dir, "%s", fresh_dir(name));
    snprintf(path, sizeof path, "%s/t.trace", dir);
    put(path, trace);
    snprintf(opts, sizeof opts, "--config %s", preset);
    n = trace_agrees("spandex", "spandex-llc", opts, path, &got, NULL, why, sizeof why);
    cr_assert_gt(n, 0, "%s: %s\ntrace:\n%s", preset, why, trace);
    snprintf(path, sizeof path, "rm -rf '%.250s'", dir);
    run(path);
    return got;
}

/* A whole-line ReqWT of an absent line needs no fill; the LRU victim of its
 * full set is a dirty line nobody owns, dropped at once: its MemWr and the
 * RspWT come from one decision (default: 4 ways, 64 sets of 64 B lines, so
 * 0x1000 + k * 0x1000 share a set; fpga: 2 ways, 8 B lines, stride 0x200). */
Test(spandex_llc_cov, whole_line_write_drops_a_dirty_victim_default)
{
    char *got = llc_trace("default",
                          "ReqWT 1 0x1000 0x1 0x5\n"
                          "ReqV 1 0x2000 0x1\n"
                          "ReqV 1 0x3000 0x1\n"
                          "ReqV 1 0x4000 0x1\n"
                          "ReqWT 1 0x5000 0xffff 0 1 2 3 4 5 6 7 8 9 a b c d e f\n");
    const char *tail = "MemWr 0x1000 0x5 0x1004 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c 0x1020 "
                       "0x1024 0x1028 0x102c 0x1030 0x1034 0x1038 0x103c\nRspWT 1 0x5000 0xffff\n";
    size_t n = strlen(got), t = strlen(tail);
    cr_assert(n >= t && strcmp(got + n - t, tail) == 0, "the last event printed:\n%s", got);
    cr_assert_null(strstr(got, "MemRd 0x5000"), "a fill of a whole-line write:\n%s", got);
    free(got);
}

Test(spandex_llc_cov, whole_line_write_drops_a_dirty_victim_fpga)
{
    char *got = llc_trace("fpga",
                          "ReqWT 1 0x1000 0x1 0x5\n"
                          "ReqV 1 0x1200 0x1\n"
                          "ReqWT 1 0x1400 0x3 0x7 0x8\n");
    const char *tail = "MemWr 0x1000 0x5 0x1004\nRspWT 1 0x1400 0x3\n";
    size_t n = strlen(got), t = strlen(tail);
    cr_assert(n >= t && strcmp(got + n - t, tail) == 0, "the last event printed:\n%s", got);
    cr_assert_null(strstr(got, "MemRd 0x1400"), "a fill of a whole-line write:\n%s", got);
    free(got);
}

/* Rounds of: device 2 takes word 0, device 3's ReqWT+data on it revokes it
 * (the line blocked until the RspRvkO), three ReqVs of other words wait in
 * the deferral queue and replay when the RspRvkO completes the
 * transaction. Each replay advances the queue's head, so in a later round
 * head + count passes the queue's end and the tail wraps. */
static char *defer_rounds(const char *preset, unsigned rounds, unsigned *last)
{
    char trace[4096];
    size_t o = 0;
    unsigned r;
    for (r = 0; r < rounds; r++)
        o += (size_t)snprintf(trace + o, sizeof trace - o,
                              "ReqO 2 0x1000 0x1\n"
                              "ReqWT+data 3 0x1000 0x1 add 0x1\n"
                              "ReqV 3 0x1000 0x2\n"
                              "ReqV 1 0x1000 0x2\n"
                              "ReqV 0 0x1000 0x2\n"
                              "RspRvkO 2 0x1000 0x1 0x%x\n",
                              0x100u * (r + 1));
    cr_assert_lt(o, sizeof trace);
    *last = 0x100u * rounds;
    return llc_trace(preset, trace);
}

static void defer_wraps(const char *preset, unsigned rounds)
{
    unsigned last, k = 0;
    char want[256], *got = defer_rounds(preset, rounds, &last), *p;
    /* the last round's RspRvkO: the op on the revoked value, then the three
     * deferred ReqVs answered in arrival order */
    snprintf(want, sizeof want,
             "RspWT+data 3 0x1000 0x1 0x%x\nRspV 3 0x1000 0x2 0x1004\nRspV 1 0x1000 0x2 0x1004\n"
             "RspV 0 0x1000 0x2 0x1004\n",
             last);
    {
        size_t n = strlen(got), t = strlen(want);
        cr_assert(n >= t && strcmp(got + n - t, want) == 0, "%s: the last round printed:\n%s", preset,
                  got);
    }
    for (p = got; (p = strstr(p, "RspV ")) != NULL; p++)
        k++;
    cr_assert_eq(k, 3 * rounds, "%s: %u RspVs, not %u:\n%s", preset, k, 3 * rounds, got);
    free(got);
}

Test(spandex_llc_cov, deferral_queue_tail_wraps_default) { defer_wraps("default", 4); }

Test(spandex_llc_cov, deferral_queue_tail_wraps_fpga) { defer_wraps("fpga", 3); }

/* ---------------------------------------------------- protocol errors -- */

/* One cycle of the LLC's inputs, in port order (rst_ni first). Readies
 * are always high. */
typedef struct {
    unsigned rst, rv, rt, rs;
    unsigned long long rl, rm;
    unsigned rop;
    const char *rd;
    unsigned sv, st, ss;
    unsigned long long sl, sm;
    const char *sd;
    unsigned mv, mid;
    const char *md;
} llc_in;

static size_t put_cycle(char *b, size_t len, const llc_in *c)
{
    return (size_t)snprintf(b, len, "%x %x %x %x %llx %llx %x %s %x %x %x %llx %llx %s %x %x %s 1 1 1\n",
                            c->rst, c->rv, c->rt, c->rs, c->rl, c->rm, c->rop, c->rd ? c->rd : "0",
                            c->sv, c->st, c->ss, c->sl, c->sm, c->sd ? c->sd : "0", c->mv, c->mid,
                            c->md ? c->md : "0");
}

/* Replays: 2 reset cycles, 100 idle ones (the RTL's init pass writes
 * every set first: 64 cycles), then the events (one cycle each,
 * followed by `gap` idle cycles), then 20 idle cycles, into the timing
 * shell and the RTL of `preset` in lockstep: they must agree every cycle.
 * Returns err_o's value in the cycle before the first event and in the
 * last cycle (bit 0 and bit 1). */
static unsigned replay(const char *preset, const llc_in *ev, unsigned nev, unsigned gap)
{
    static uint64_t cfg[8192];
    static char stim[65536];
    llc_in idle = {.rst = 1};
    ls_opts o;
    ls_result r;
    uint64_t *vals;
    size_t n, o2 = 0, loglen = 0;
    char err[300], *log = NULL, *line, *save;
    unsigned i, k, first = 2 + 100, before = 2, after = 2;
    FILE *f, *lf;
    llc_in rst = {0};
    for (i = 0; i < 2; i++)
        o2 += put_cycle(stim + o2, sizeof stim - o2, &rst);
    for (i = 0; i < 100; i++)
        o2 += put_cycle(stim + o2, sizeof stim - o2, &idle);
    for (k = 0; k < nev; k++) {
        llc_in e = ev[k];
        e.rst = 1;
        o2 += put_cycle(stim + o2, sizeof stim - o2, &e);
        for (i = 0; i < gap; i++)
            o2 += put_cycle(stim + o2, sizeof stim - o2, &idle);
    }
    for (i = 0; i < 20; i++)
        o2 += put_cycle(stim + o2, sizeof stim - o2, &idle);
    cr_assert_lt(o2, sizeof stim);
    ls_preset(&o, cfg, sizeof cfg, spandex_duts, "spandex-llc", preset);
    f = fmemopen(stim, o2, "r");
    cr_assert_not_null(f);
    cr_assert_eq(ls_stim_read(f, o.dut, &vals, &n, err, sizeof err), 0, "%s: %s\n%s", preset, err, stim);
    fclose(f);
    lf = open_memstream(&log, &loglen);
    cr_assert_not_null(lf);
    o.replay = vals;
    o.nreplay = n;
    o.cycles = n;
    o.log_out = lf;
    memset(&r, 0, sizeof r);
    cr_assert_eq(ls_run(&o, &r, ""), 0, "%s: model and RTL differ in cycle %llu: %s\nstimulus:\n%s", preset,
                 (unsigned long long)r.mm_cycle, r.mm_msg, stim);
    fclose(lf);
    /* each log line: the cycle, then the outputs; err_o is the last */
    for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        unsigned long long cyc = strtoull(line, NULL, 10);
        const char *last = strrchr(line, ' ');
        unsigned v = last ? (unsigned)strtoul(last + 1, NULL, 16) : 2;
        if (cyc == first - 1)
            before = v;
        after = v;
    }
    cr_assert_eq(r.cycles, n, "%s: %llu cycles run of %zu", preset, (unsigned long long)r.cycles, n);
    free(log);
    free(vals);
    ls_result_free(&r);
    cr_assert_leq(before, 1, "%s: no log line of cycle %u", preset, first - 1);
    return before | after << 1;
}

/* line address of byte address 0x1000 */
static unsigned long long l1000(const char *preset) { return strcmp(preset, "fpga") == 0 ? 0x200 : 0x40; }

static void stray_rsp(const char *preset, unsigned type, unsigned long long mask)
{
    llc_in e = {.sv = 1, .st = type, .ss = 1, .sl = l1000(preset), .sm = mask, .sd = mask ? "1" : "0"};
    unsigned v = replay(preset, &e, 1, 0);
    cr_assert_eq(v, 2, "%s: response type %u matching nothing: err_o %u before, %u after", preset, type, v & 1,
                 v >> 1);
}

/* IsDropRsp: an Ack (8), an RspRvkO (7) and a Nack (9) with no transaction */
Test(spandex_llc_cov, stray_responses_are_errors_default)
{
    stray_rsp("default", 8, 0);
    stray_rsp("default", 7, 1);
    stray_rsp("default", 9, 1);
}

Test(spandex_llc_cov, stray_responses_are_errors_fpga)
{
    stray_rsp("fpga", 8, 0);
    stray_rsp("fpga", 7, 1);
    stray_rsp("fpga", 9, 1);
}

/* IsDropMem: fill data with no MemRd outstanding */
static void stray_fill(const char *preset)
{
    llc_in e = {.mv = 1, .mid = 0, .md = "1234"};
    unsigned v = replay(preset, &e, 1, 0);
    cr_assert_eq(v, 2, "%s: stray fill data: err_o %u before, %u after", preset, v & 1, v >> 1);
}

Test(spandex_llc_cov, stray_fill_data_is_an_error_default) { stray_fill("default"); }

Test(spandex_llc_cov, stray_fill_data_is_an_error_fpga) { stray_fill("fpga"); }

/* X15: device 2 takes the whole line with ReqO (no fill: a whole-line
 * ReqO), then asks for word 0 again, which it owns (rr_err). The first
 * request alone leaves err_o low. */
static void own_words(const char *preset)
{
    unsigned long long full = strcmp(preset, "fpga") == 0 ? 0x3 : 0xffff;
    llc_in ev[2] = {{.rv = 1, .rt = 3, .rs = 2, .rl = l1000(preset), .rm = full},
                    {.rv = 1, .rt = 3, .rs = 2, .rl = l1000(preset), .rm = 0x1}};
    unsigned v = replay(preset, ev, 1, 10);
    cr_assert_eq(v, 0, "%s: a legal whole-line ReqO: err_o %u before, %u after", preset, v & 1, v >> 1);
    v = replay(preset, ev, 2, 10);
    cr_assert_eq(v, 2, "%s: a ReqO of an owned word: err_o %u before, %u after", preset, v & 1, v >> 1);
}

Test(spandex_llc_cov, request_for_owned_words_is_an_error_default) { own_words("default"); }

Test(spandex_llc_cov, request_for_owned_words_is_an_error_fpga) { own_words("fpga"); }
