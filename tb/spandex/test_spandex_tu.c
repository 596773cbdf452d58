/*
 * Criterion tests of the Spandex translation unit (unit spandex-tu, GPU
 * coherence): Table II's requests and the response collector through the
 * trace tool (a read miss answered in parts by the LLC and an owner, a
 * Nacked word replaced by ReqWT+data(rd) after --nack-limit Nacks, stores
 * coalesced per line in the write buffer and laid over a fill, a release
 * waiting for every earlier write, an atomic's value, the answers to stray
 * forwards), the same in lockstep with the RTL in trace mode, the random
 * streams in lockstep on both committed configurations with back-pressure
 * on every port, the latencies the documentation states, and the
 * configurations the generator refuses.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compose.h"
#include "lockstep.h"
#include "test_util.h"

extern const dut_ops *const spandex_duts[];

/* The trace tool's output for `trace` under `opts`, which must equal want,
 * and with a committed configuration (opts "--config P") the lockstep
 * bench's trace mode the same (model and RTL). */
static void prints(const char *opts, const char *trace, const char *want)
{
    char dir[256], path[300], why[512], args[200], name[64], *got = NULL;
    /* a folder of this test's own: Criterion runs tests in parallel */
    snprintf(name, sizeof name, "spandex_tu_trace_%ld", (long)getpid());
    snprintf(dir, sizeof dir, "%s", fresh_dir(name));
    snprintf(path, sizeof path, "%s/t.trace", dir);
    put(path, trace);
    if (strncmp(opts, "--config ", 9) == 0 && strchr(opts + 9, ' ') == NULL) {
        long n = trace_agrees("spandex", "spandex-tu", opts, path, &got, NULL, why, sizeof why);
        cr_assert_gt(n, 0, "%s", why);
    } else {
        snprintf(args, sizeof args, "spandex-tu %s", opts);
        got = model_prints(args, trace);
    }
    cr_expect_str_eq(got, want, "[%s]\n%s--- expected:\n%s--- model:\n%s", opts, trace, want, got);
    free(got);
}

Test(spandex_tu, read_miss_collects_parts_and_replaces_a_nacked_word)
{
    /* parts from the LLC and an owner in any order; the Nacked word comes
     * back as the replacement ReqWT+data(rd) (nack limit 1), whose value
     * fills it */
    prints("--config fpga",
           "LD 0x1000 0xf\nRspV 0x1000 0x6 0x11 0x22\nNack 0x1000 0x1\nRspWT+data 0x1000 0x1 0x33\n"
           "RspV 0x1000 0x8 0x44\n",
           "ReqV 0x1000 0xf\nReqWT+data 0x1000 0x1 rd\nFILL 0x1000 0xf 0x33 0x11 0x22 0x44\n");
}

Test(spandex_tu, nack_limit_retries_before_the_replacement)
{
    /* --nack-limit 3: two retries (ReqV of the Nacked words), the third
     * Nack gets the replacement */
    prints("--config fpga --nack-limit 3",
           "LD 0x40 0x3\nNack 0x40 0x3\nNack 0x40 0x1\nRspV 0x40 0x2 0x7\nNack 0x40 0x1\n"
           "RspWT+data 0x40 0x1 0x9\n",
           "ReqV 0x40 0x3\nReqV 0x40 0x3\nReqV 0x40 0x1\nReqWT+data 0x40 0x1 rd\nFILL 0x40 0x3 0x9 0x7\n");
}

Test(spandex_tu, stores_coalesce_behind_an_open_read_and_overlay_its_fill)
{
    prints("--config fpga",
           "LD 0x1000 0xf\nST 0x1004 0x2 0x99\nST 0x1008 0x4 0x98\nRspV 0x1000 0xf 0xa 0xb 0xc 0xd\n"
           "RspWT 0x1000 0x6\n",
           "ReqV 0x1000 0xf\nFILL 0x1000 0xf 0xa 0x99 0x98 0xd\nReqWT 0x1000 0x6 0x99 0x98\n");
}

Test(spandex_tu, release_waits_for_every_earlier_write)
{
    /* the ReqWT's words complete by the LLC's RspWT and an owner's RspO
     * (X2); REL's DONE comes only after both */
    prints("--config fpga", "ST 0x80 0x3 0x1 0x2\nREL\nRspWT 0x80 0x1\nRspO 0x80 0x2\n",
           "ReqWT 0x80 0x3 0x1 0x2\nDONE 0x0\n");
    prints("--config fpga", "ST 0x80 0x3 0x1 0x2\nREL\nRspWT 0x80 0x1\n", "ReqWT 0x80 0x3 0x1 0x2\n");
}

Test(spandex_tu, atomic_returns_the_llc_value_and_acquire_flushes_the_buffer)
{
    prints("--config fpga", "ST 0x100 0x1 0x5\nRMW 0x200 0x2 add 0x3\nRspWT+data 0x200 0x2 0x10\n",
           "ReqWT 0x100 0x1 0x5\nReqWT+data 0x200 0x2 add 0x3\nVALUE 0x200 0x2 0x10\n");
    prints("--config fpga", "ACQ\n", "DONE 0x0\n");
}

Test(spandex_tu, stray_forwards_are_answered_and_errors_raise_err)
{
    prints("--config fpga", "FwdReqV 0x300 0x5 3\nInv 0x300 0x2\n", "Nack 3 0x300 0x5\nAck L 0x300 0x2\n");
    /* a response nothing waits for, a forward GPU coherence cannot get */
    prints("--config fpga", "RspV 0x2000 0x1 0x1\n", "ERR\n");
    prints("--config fpga", "RvkO 0x300 0x1\n", "ERR\n");
}

Test(spandex_tu, random_streams_in_lockstep_with_backpressure, .timeout = 120)
{
    static const char *const presets[] = {"default", "fpga"};
    static const char *const streams[] = {"mixed", "stores", "nack"};
    unsigned p, s;
    for (p = 0; p < 2; p++)
        for (s = 0; s < 3; s++) {
            ls_result r;
            ls_stream(&r, spandex_duts, "spandex-tu", presets[p], streams[s], 30000, 40 + p * 3 + s);
            cr_expect_eq(field(r.summary, "broken promises "), 0, "%s %s", presets[p], streams[s]);
            cr_expect_eq(field(r.summary, "protocol errors (err_o cycles) "), 0, "%s %s", presets[p], streams[s]);
            cr_expect_gt(field(r.summary, "FILL "), 100, "%s", r.summary);
            ls_result_free(&r);
        }
}

Test(spandex_tu, bad_configurations_are_refused)
{
    gen_refuses("spandex-tu", "--kind denovo", "denovo");
    gen_refuses("spandex-tu", "--kind mesi", "mesi");
    gen_refuses("spandex-tu", "--kind cpu", "cpu");
    gen_refuses("spandex-tu", "--mshr 0", "mshr");
    gen_refuses("spandex-tu", "--wb 17", "wb");
    gen_refuses("spandex-tu", "--nack-limit 0", "nack-limit");
    gen_refuses("spandex-tu", "--word 8 --line 512 --mshr 3", "--mshr 3");
    gen_refuses("spandex-tu", "--word 2", "--word 2");
    gen_refuses("spandex-tu", "--devs 65", "devs");
    model_refuses("spandex-tu", "", "LD 0x1000 0x0\n", "line 1:");
    model_refuses("spandex-tu", "", "RMW 0x1000 0x1 nand 0x1\n", "line 1:");
    model_refuses("spandex-tu", "", "ST 0x1000 0x3 0x1\n", "line 1:");
}

/* Cycles from a handshake in cycle 0 until output port `valid` is high
 * (the inputs held at 0 meanwhile, every output ready). */
static unsigned cycles_to(cmp_block *b, cmp_port valid)
{
    unsigned k;
    for (k = 1; k < 20; k++) {
        cmp_block_eval(b);
        if (cmp_get(b, valid))
            return k;
        cmp_block_step(b);
    }
    return k;
}

Test(spandex_tu, a_miss_leaves_two_cycles_after_its_request_and_fills_two_after_its_response)
{
    static const char *const names[] = {"c_req_valid_i", "c_req_ready_o", "c_req_type_i", "c_req_line_i",
                                        "c_req_mask_i",  "req_valid_o",   "req_ready_i",  "rsp_valid_i",
                                        "rsp_ready_o",   "rsp_type_i",    "rsp_line_i",   "rsp_mask_i",
                                        "c_rsp_valid_o", "c_rsp_ready_i", "out_ready_i",  NULL};
    enum { CV, CR, CT, CL, CM, QV, QR, RV, RR, RT, RL, RM, AV, AR, OR };
    cmp_block b;
    cmp_port p[15];
    char err[300];
    unsigned i;
    memset(&b, 0, sizeof b);
    cr_assert_eq(cmp_block_open(&b, "spandex-tu", "tu", "fpga", "", 1, NULL, err, sizeof err), 0, "%s", err);
    cr_assert_eq(cmp_ports_bind(&b, names, p, err, sizeof err), 0, "%s", err);
    for (i = 0; i < 3; i++) { /* reset */
        b.in[0] = 0;
        cmp_block_eval(&b);
        cmp_block_step(&b);
    }
    b.in[0] = 1;
    cmp_set(&b, p[QR], 1);
    cmp_set(&b, p[AR], 1);
    cmp_set(&b, p[OR], 1);
    /* a read miss of four words taken in cycle 0: its ReqV on req in cycle 2 */
    cmp_set(&b, p[CV], 1);
    cmp_set(&b, p[CT], 0);
    cmp_set(&b, p[CL], 5);
    cmp_set(&b, p[CM], 0xf);
    cmp_block_eval(&b);
    cr_assert_eq(cmp_get(&b, p[CR]), 1);
    cmp_block_step(&b);
    cmp_set(&b, p[CV], 0);
    cr_expect_eq(cycles_to(&b, p[QV]), 2);
    cmp_block_step(&b);
    /* its last response (RspV of every word) taken in cycle 0: the FILL on
     * c_rsp in cycle 2 */
    cmp_set(&b, p[RV], 1);
    cmp_set(&b, p[RT], 0);
    cmp_set(&b, p[RL], 5);
    cmp_set(&b, p[RM], 0xf);
    cmp_block_eval(&b);
    cr_assert_eq(cmp_get(&b, p[RR]), 1);
    cmp_block_step(&b);
    cmp_set(&b, p[RV], 0);
    cr_expect_eq(cycles_to(&b, p[AV]), 2);
    cmp_block_close(&b);
}
