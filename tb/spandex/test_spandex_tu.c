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
 * configurations the generator refuses. Suite spandex_tu_denovo: the
 * DeNovo kind's Table II requests (ReqO for stores, ReqO+data for atomics
 * and replacements, ReqWB) and every column of Table IV, through the trace
 * tool and in lockstep with the committed denovo_fpga RTL. Suite
 * spandex_tu_mesi: the MESI kind's whole-line requests, Fig. 1b and 1d at
 * the unit's ports, spec 4's four cases of external requests, X13 and X14,
 * the same way with mesi_fpga, and its random streams in lockstep. Both
 * kinds: FwdReqVs Nacked rather than take the delayed ring's last slot,
 * and forwards of a pending read's words already owned (their RspO+data
 * came, the rest of the read still to come) answered at once from the
 * entry, never delayed behind an answer the LLC sends after them; MESI: a
 * read used once writes back the words it was given owned.
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
    snprintf(path, sizeof path, "rm -rf '%.250s'", dir);
    run(path);
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
    gen_refuses("spandex-tu", "--kind mesi --denovo-rmw wtdata", "wtdata");
    gen_refuses("spandex-tu", "--kind mesi --dfr 9", "dfr");
    gen_refuses("spandex-tu", "--denovo-rmw wtdata", "wtdata");
    gen_refuses("spandex-tu", "--kind denovo --dfr 0", "dfr");
    gen_refuses("spandex-tu", "--kind denovo --dfr 9", "dfr");
    gen_refuses("spandex-tu", "--kind denovo --denovo-rmw wt", "wt");
    gen_refuses("spandex-tu", "--extra-words on", "DeNovo option");
    gen_refuses("spandex-tu", "--kind mesi --extra-words on", "DeNovo option");
    gen_refuses("spandex-tu", "--kind denovo --nack-limit 2 --extra-words on", "--nack-limit 1");
    gen_refuses("spandex-tu", "--kind denovo --extra-words yes", "yes");
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
    model_refuses("spandex-tu", "--kind denovo", "EVICT 0x1000 0x3 0x1\n", "line 1:");
    model_refuses("spandex-tu", "--kind denovo", "EVICT 0x1000 0x30 0x1\n", "line 1:");
    model_refuses("spandex-tu", "--kind denovo", "PDAT 0x1000 0x1\n", "line 1:");
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

/* ------------------------------------------------------------ DeNovo -- */
/* --extra-words on (Table II's footnote): the LLC's RspV may carry words
 * beyond the read's; the unit counts only the words the line's read waits
 * for, and gives the cache the others with the FILL of the RspV that
 * completes the read, but those an entry, the write buffer or an EVICT
 * taken holds. One read a line at a time, so a RspV names its request. */
#define XW "--config denovo_fpga --extra-words on"
Test(spandex_tu_denovo, extra_words_go_with_the_fill_but_a_word_in_an_open_request)
{
    /* a one-word read answered with the whole line: FILL of every word */
    prints(XW, "LD 0x100 0x2\nRspV 0x100 0xf 0x10 0x11 0x12 0x13\n",
           "ReqV 0x100 0x2\nFILL 0x100 0xf 0x10 0x11 0x12 0x13\n");
    /* word 1 is in the pending ReqO of a store: left out of the FILL */
    prints(XW, "ST 0x100 0x2 0x5\nLD 0x100 0x1\nRspV 0x100 0xf 0x10 0x11 0x12 0x13\nRspO 0x100 0x2\n",
           "ReqO 0x100 0x2\nReqV 0x100 0x1\nFILL 0x100 0xd 0x10 0x12 0x13\nOWN 0x100 0x2\n");
    /* extra words of a part that does not complete the read are dropped */
    prints(XW, "LD 0x100 0x3\nRspV 0x100 0x5 0x10 0x12\nRspV 0x100 0x2 0x11\n",
           "ReqV 0x100 0x3\nFILL 0x100 0x3 0x10 0x11\n");
    /* without the option the same RspV is a protocol error */
    prints("--config denovo_fpga", "LD 0x100 0x2\nRspV 0x100 0xf 0x10 0x11 0x12 0x13\n", "ReqV 0x100 0x2\nERR\n");
}

Test(spandex_tu_denovo, extra_words_one_read_a_line_and_no_response_of_extra_words_alone)
{
    /* the second read of the line waits for the first's FILL */
    prints(XW, "LD 0x100 0x1\nLD 0x100 0x2\nRspV 0x100 0x1 0x10\nRspV 0x100 0x2 0x11\n",
           "ReqV 0x100 0x1\nFILL 0x100 0x1 0x10\nReqV 0x100 0x2\nFILL 0x100 0x2 0x11\n");
    /* a RspV of no word the read waits for answers nothing: err_o */
    prints(XW, "LD 0x100 0x1\nRspV 0x100 0x2 0x10\nRspV 0x100 0x1 0x10\n",
           "ReqV 0x100 0x1\nERR\nFILL 0x100 0x1 0x10\n");
}


Test(spandex_tu_denovo, stores_leave_as_one_reqo_and_own_their_words_before_the_release)
{
    /* the local write at once (the cache holds the words pending), the
     * buffer's line as ReqO; parts of RspO complete it: OWN, then REL */
    prints("--config denovo_fpga", "ST 0x100 0x3 0x5 0x6\nREL\nRspO 0x100 0x1\nRspO 0x100 0x2\n",
           "ReqO 0x100 0x3\nOWN 0x100 0x3\nDONE 0x0\n");
}

Test(spandex_tu_denovo, pending_reqo_answers_at_once_with_the_caches_data_and_ends_in_i)
{
    /* Table IV, pending I->O by ReqO: FwdReqV answered from the cache's
     * (pending) word, FwdReqO answered at once; the own RspO then installs
     * nothing (no OWN: the word ends in I) */
    prints("--config denovo_fpga",
           "ST 0x100 0x1 0x5\nREL\nFwdReqV 0x100 0x1 2\nPDAT 0x100 0x1 0x5\nFwdReqO 0x100 0x1 3\n"
           "PDAT 0x100 0x1 0x5\nRspO 0x100 0x1\n",
           "ReqO 0x100 0x1\nPRB 0x100 0x1\nRspV 2 0x100 0x1 0x5\nPRB 0x100 0x1 down\nRspO 3 0x100 0x1\n"
           "DONE 0x0\n");
}

Test(spandex_tu_denovo, pending_reqo_data_delays_requests_until_its_atomic_is_done)
{
    /* Table IV, pending I->O by ReqO+data: a FwdReqV waits for the own
     * RspO+data, the VALUE makes the word owned, then the request comes back
     * and is answered from the cache (the atomic's result) */
    prints("--config denovo_fpga", "RMW 0x200 0x2 add 0x3\nFwdReqV 0x200 0x2 1\nRspO+data 0x200 0x2 0x10\n"
                                   "PDAT 0x200 0x2 0x13\n",
           "ReqO+data 0x200 0x2\nVALUE 0x200 0x2 0x10 own 0x2\nPRB 0x200 0x2\nRspV 1 0x200 0x2 0x13\n");
    prints("--config denovo_fpga",
           "RMW 0x200 0x2 add 0x3\nFwdReqO+data 0x200 0x2 1\nRspO+data 0x200 0x2 0x10\nPDAT 0x200 0x2 0x13\n",
           "ReqO+data 0x200 0x2\nVALUE 0x200 0x2 0x10 own 0x2\nPRB 0x200 0x2 down\nRspO+data 1 0x200 0x2 0x13\n");
    /* FwdReqO at once: the atomic's value stands, the word ends in I */
    prints("--config denovo_fpga", "RMW 0x200 0x2 add 0x3\nFwdReqO 0x200 0x2 2\nRspO+data 0x200 0x2 0x10\n",
           "ReqO+data 0x200 0x2\nRspO 2 0x200 0x2\nVALUE 0x200 0x2 0x10\n");
}

Test(spandex_tu_denovo, delayed_requests_come_back_in_order_and_the_last_slot_is_kept_for_a_downgrade)
{
    /* two slots, an atomic pending: the first FwdReqV is delayed; the
     * second would take the last free slot and is Nacked instead; the RvkO
     * takes it, and the ring, full, holds the next forward in the link
     * until the delayed ones came back */
    prints("--config denovo_fpga",
           "RMW 0x200 0x3 add 0x3 0x4\nFwdReqV 0x200 0x1 1\nFwdReqV 0x200 0x2 2\nRvkO 0x200 0x2\n"
           "FwdReqV 0x200 0x1 3\nRspO+data 0x200 0x3 0x10 0x20\nPDAT 0x200 0x1 0x13\nPDAT 0x200 0x2 0x24\n"
           "PDAT 0x200 0x1 0x13\n",
           "ReqO+data 0x200 0x3\nNack 2 0x200 0x2\nVALUE 0x200 0x3 0x10 0x20 own 0x3\nPRB 0x200 0x1\n"
           "RspV 1 0x200 0x1 0x13\nPRB 0x200 0x2 down\nRspRvkO L 0x200 0x2 0x24\nPRB 0x200 0x1\n"
           "RspV 3 0x200 0x1 0x13\n");
    /* one slot: every FwdReqV that would wait is Nacked */
    prints("--config denovo_fpga --dfr 1",
           "RMW 0x200 0x3 add 0x3 0x4\nFwdReqV 0x200 0x1 1\nFwdReqV 0x200 0x2 2\nRspO+data 0x200 0x3 0x10 0x20\n",
           "ReqO+data 0x200 0x3\nNack 1 0x200 0x1\nNack 2 0x200 0x2\nVALUE 0x200 0x3 0x10 0x20 own 0x3\n");
}

Test(spandex_tu_denovo, fwdreqvs_of_a_replaced_word_already_owned_are_answered_from_the_entry)
{
    /* a read's words replaced at different times: w0's ReqO+data makes the
     * device its owner and its RspO+data came, w1 is replaced later; the
     * LLC answers that replacement behind the FwdReqVs it sent to the
     * owner (an ordered link). Table IV asks only for the own RspO+data:
     * the FwdReqVs of w0 are answered at once from the entry's data (they
     * once waited for the whole read and could fill the ring), and w0
     * stays owned */
    prints("--config denovo_fpga",
           "LD 0x200 0x3\nNack 0x200 0x1\nRspO+data 0x200 0x1 0x9\nFwdReqV 0x200 0x1 1\nFwdReqV 0x200 0x1 2\n"
           "FwdReqV 0x200 0x1 3\nNack 0x200 0x2\nRspO+data 0x200 0x2 0x7\n",
           "ReqV 0x200 0x3\nReqO+data 0x200 0x1\nRspV 1 0x200 0x1 0x9\nRspV 2 0x200 0x1 0x9\nRspV 3 0x200 0x1 0x9\n"
           "ReqO+data 0x200 0x2\nFILL 0x200 0x3 0x9 0x7 own 0x3\n");
}

Test(spandex_tu_denovo, a_revocation_of_a_read_word_already_owned_never_waits_for_the_rest_of_the_read)
{
    /* w0 Nacked and replaced, its RspO+data came, w1 still to come: a RvkO
     * of w0 blocks the line at the LLC until its RspRvkO (spec 3.4), which
     * defers the request w1 waits for; it is answered at once from the
     * entry's data, and the FILL gives w0 the RspO+data's value, valid and
     * no longer owned (the load was ordered before the revocation) */
    prints("--config denovo_fpga",
           "LD 0x200 0x3\nNack 0x200 0x1\nRspO+data 0x200 0x1 0x9\nRvkO 0x200 0x1\nRspV 0x200 0x2 0x7\n",
           "ReqV 0x200 0x3\nReqO+data 0x200 0x1\nRspRvkO L 0x200 0x1 0x9\nFILL 0x200 0x3 0x9 0x7\n");
    /* FwdReqS (option 1), FwdReqO+data and FwdReqO the same way */
    prints("--config denovo_fpga",
           "LD 0x200 0xf\nNack 0x200 0x7\nRspO+data 0x200 0x7 0xa 0xb 0xc\nFwdReqS 0x200 0x1 1\n"
           "FwdReqO+data 0x200 0x2 2\nFwdReqO 0x200 0x4 3\nRspV 0x200 0x8 0xd\n",
           "ReqV 0x200 0xf\nReqO+data 0x200 0x7\nRspS 1 0x200 0x1 0xa\nRspRvkO L 0x200 0x1 0xa\n"
           "RspO+data 2 0x200 0x2 0xb\nRspO 3 0x200 0x4\nFILL 0x200 0xf 0xa 0xb 0xc 0xd\n");
}

Test(spandex_tu_denovo, downgrades_of_read_words_already_owned_never_fill_the_ring)
{
    /* three words replaced and owned, the fourth still to come, and three
     * downgrades (which cannot be Nacked) for a ring of two slots: none
     * waits, so the forward link never stops with the answer behind it */
    prints("--config denovo_fpga",
           "LD 0x200 0xf\nNack 0x200 0x7\nRspO+data 0x200 0x7 0xa 0xb 0xc\nRvkO 0x200 0x1\n"
           "FwdReqO+data 0x200 0x2 1\nRvkO 0x200 0x4\nRspV 0x200 0x8 0xd\n",
           "ReqV 0x200 0xf\nReqO+data 0x200 0x7\nRspRvkO L 0x200 0x1 0xa\nRspO+data 1 0x200 0x2 0xb\n"
           "RspRvkO L 0x200 0x4 0xc\nFILL 0x200 0xf 0xa 0xb 0xc 0xd\n");
}

Test(spandex_tu_denovo, pending_reqwb_answers_from_its_data)
{
    /* Table IV, pending O->I by ReqWB: the eviction's data answers
     * FwdReqO+data and RvkO (with data); the ReqWB goes on to its RspWB */
    prints("--config denovo_fpga", "EVICT 0x300 0x5 0x7 0x8\nFwdReqO+data 0x300 0x1 2\nRvkO 0x300 0x4\nRspWB 0x300 0x5\n",
           "DONE 0x300\nReqWB 0x300 0x5 0x7 0x8\nRspO+data 2 0x300 0x1 0x7\nRspRvkO L 0x300 0x4 0x8\n");
}

Test(spandex_tu_denovo, two_write_backs_of_a_line_answer_a_forward_from_the_right_one)
{
    /* w0 evicted (its ReqWB pending), w1 stored, owned and evicted too: two
     * ReqWB entries of the line; a downgrade of w0 takes w0's data from the
     * first, not the second's empty lane (the random bench never builds
     * two write-backs of one line) */
    prints("--config denovo_fpga",
           "EVICT 0x300 0x1 0x7\nST 0x300 0x2 0x5\nRspO 0x300 0x2\nEVICT 0x300 0x2 0x5\nFwdReqO+data 0x300 0x1 2\n"
           "RspWB 0x300 0x1\nRspWB 0x300 0x2\n",
           "DONE 0x300\nReqWB 0x300 0x1 0x7\nReqO 0x300 0x2\nOWN 0x300 0x2\nDONE 0x300\nReqWB 0x300 0x2 0x5\n"
           "RspO+data 2 0x300 0x1 0x7\n");
}

Test(spandex_tu_denovo, stable_o_is_probed_and_other_states_nack_or_raise_err)
{
    /* stable O: FwdReqS gives RspS and RspRvkO, the words go to I; a
     * FwdReqV of words partly held: RspV for those, Nack for the rest (III-C
     * 3); Inv gets an Ack */
    prints("--config denovo_fpga",
           "FwdReqS 0x400 0x3 1\nPDAT 0x400 0x3 0xa 0xb\nFwdReqV 0x400 0x6 2\nPDAT 0x400 0x4 0xc\nInv 0x400 0x1\n",
           "PRB 0x400 0x3 down\nRspS 1 0x400 0x3 0xa 0xb\nRspRvkO L 0x400 0x3 0xa 0xb\nPRB 0x400 0x6\n"
           "RspV 2 0x400 0x4 0xc\nNack 2 0x400 0x2\nAck L 0x400 0x1\n");
    /* a downgrade of words the device does not hold, an answer nobody
     * asked for, a probe answer with no probe out */
    prints("--config denovo_fpga", "FwdReqO 0x600 0x1 1\nPDAT 0x600 0x0\n", "PRB 0x600 0x1 down\nERR\n");
    prints("--config denovo_fpga", "RspWB 0x300 0x5\n", "ERR\n");
    prints("--config denovo_fpga", "PDAT 0x300 0x5 0x1 0x2\n", "ERR\n");
}

Test(spandex_tu_denovo, a_nacked_read_is_replaced_by_reqo_data_or_reqwt_data)
{
    prints("--config denovo_fpga", "LD 0x500 0x3\nNack 0x500 0x1\nRspV 0x500 0x2 0x7\nRspO+data 0x500 0x1 0x9\n",
           "ReqV 0x500 0x3\nReqO+data 0x500 0x1\nFILL 0x500 0x3 0x9 0x7 own 0x1\n");
    /* --denovo-rmw wtdata (the SDG option): atomics and replacements by
     * ReqWT+data, nothing becomes owned */
    prints("--config denovo_fpga --denovo-rmw wtdata",
           "RMW 0x200 0x2 add 0x3\nRspWT+data 0x200 0x2 0x10\nLD 0x500 0x1\nNack 0x500 0x1\n"
           "RspWT+data 0x500 0x1 0x9\n",
           "ReqWT+data 0x200 0x2 add 0x3\nVALUE 0x200 0x2 0x10\nReqV 0x500 0x1\nReqWT+data 0x500 0x1 rd\n"
           "FILL 0x500 0x1 0x9\n");
}

/* -------------------------------------------------------------- MESI -- */
/* The MESI kind (docs/spandex.md, "The MESI kind"): whole-line ReqS,
 * ReqO+data and ReqWB (Table II), spec 4's four cases of external
 * requests, X13 and X14, through the trace tool and in lockstep with the
 * committed mesi_fpga RTL. */
Test(spandex_tu_mesi, a_read_installs_s_or_o_or_is_used_once)
{
    /* all RspS: S (FILL without own); all RspO+data (option 3): O; RspV
     * (option 2): VALUE, the line stays I */
    prints("--config mesi_fpga", "LD 0x1000 0xf\nRspS 0x1000 0x3 0x10 0x11\nRspS 0x1000 0xc 0x12 0x13\n",
           "ReqS 0x1000 0xf\nFILL 0x1000 0xf 0x10 0x11 0x12 0x13\n");
    prints("--config mesi_fpga", "LD 0x1000 0xf\nRspO+data 0x1000 0xf 0x10 0x11 0x12 0x13\n",
           "ReqS 0x1000 0xf\nFILL 0x1000 0xf 0x10 0x11 0x12 0x13 own 0xf\n");
    prints("--config mesi_fpga", "LD 0x1000 0x1\nRspV 0x1000 0xf 0x10 0x11 0x12 0x13\n",
           "ReqS 0x1000 0xf\nVALUE 0x1000 0xf 0x10 0x11 0x12 0x13\n");
}

Test(spandex_tu_mesi, fig1d_a_forwarded_reqo_on_an_m_line_writes_back_the_other_words)
{
    /* Fig. 1d at the unit: the store's ReqO+data fills the line in M; the
     * GPU's ReqWT(w1) comes as FwdReqO(w1): the probe has the cache keep
     * the other words in its write-back state, RspO to the GPU, ReqWB of
     * the other words (with the store) from the cache's answer; the RspWB
     * releases the cache's line (WBDONE) */
    prints("--config mesi_fpga",
           "ST 0x1000 0x1 0x55\nRspO+data 0x1000 0xf 0x10 0x11 0x12 0x13\nFwdReqO 0x1000 0x2 1\n"
           "PDAT 0x1000 0xf 0x55 0x11 0x12 0x13\nRspWB 0x1000 0xd\n",
           "ReqO+data 0x1000 0xf\nFILL 0x1000 0xf 0x55 0x11 0x12 0x13 own 0xf\nPRB 0x1000 0xd down\n"
           "ReqWB 0x1000 0xd 0x55 0x12 0x13\nRspO 1 0x1000 0x2\nWBDONE 0x1000\n");
}

Test(spandex_tu_mesi, fig1b_a_revocation_answers_its_word_and_writes_back_the_line)
{
    /* Fig. 1b: RvkO(w2) of an owned line: RspRvkO(w2, data) to the LLC and
     * ReqWB of the other words ("RspRvkO for the entire line") */
    prints("--config mesi_fpga",
           "LD 0x1000 0xf\nRspO+data 0x1000 0xf 0x10 0x11 0x12 0x13\nRvkO 0x1000 0x4\n"
           "PDAT 0x1000 0xf 0x10 0x11 0x12 0x13\nRspWB 0x1000 0xb\n",
           "ReqS 0x1000 0xf\nFILL 0x1000 0xf 0x10 0x11 0x12 0x13 own 0xf\nPRB 0x1000 0xb down\n"
           "ReqWB 0x1000 0xb 0x10 0x11 0x13\nRspRvkO L 0x1000 0x4 0x12\nWBDONE 0x1000\n");
}

Test(spandex_tu_mesi, case1_stable_o_answers_reads_in_place_and_a_whole_line_fwdreqs_leaves_s)
{
    /* FwdReqV: RspV, the line stays O (the probe keeps every word); a
     * FwdReqS of the whole line: RspS and RspRvkO, the line to S, no ReqWB */
    prints("--config mesi_fpga",
           "LD 0x1000 0xf\nRspO+data 0x1000 0xf 0x10 0x11 0x12 0x13\nFwdReqV 0x1000 0x3 2\n"
           "PDAT 0x1000 0xf 0x10 0x11 0x12 0x13\nFwdReqS 0x1000 0xf 2\nPDAT 0x1000 0xf 0x10 0x11 0x12 0x13\n",
           "ReqS 0x1000 0xf\nFILL 0x1000 0xf 0x10 0x11 0x12 0x13 own 0xf\nPRB 0x1000 0xf\n"
           "RspV 2 0x1000 0x3 0x10 0x11\nPRB 0x1000 0xf down\nRspS 2 0x1000 0xf 0x10 0x11 0x12 0x13\n"
           "RspRvkO L 0x1000 0xf 0x10 0x11 0x12 0x13\n");
}

Test(spandex_tu_mesi, case2_pending_o_delays_requests_and_answers_fwdreqo_at_once)
{
    /* a store's ReqO+data pending: FwdReqV delayed, FwdReqO answered at
     * once; the line arrives: the store is done, the line stays I (VALUE
     * without own), the other words leave by ReqWB with the store, and
     * the delayed FwdReqV is answered from the write-back */
    prints("--config mesi_fpga",
           "ST 0x1000 0x1 0x55\nFwdReqV 0x1000 0x4 2\nFwdReqO 0x1000 0x2 1\n"
           "RspO+data 0x1000 0xf 0x10 0x11 0x12 0x13\nRspWB 0x1000 0xd\n",
           "ReqO+data 0x1000 0xf\nRspO 1 0x1000 0x2\nVALUE 0x1000 0x1 0x55\nReqWB 0x1000 0xd 0x55 0x12 0x13\n"
           "RspV 2 0x1000 0x4 0x12\n");
    /* an atomic pending and a revocation: the atomic is done (its old
     * value, the line installed O), then the revocation is answered with
     * its result and the other words are written back */
    prints("--config mesi_fpga",
           "RMW 0x1000 0x1 add 0x5\nRvkO 0x1000 0x1\nRspO+data 0x1000 0xf 0x10 0x11 0x12 0x13\n"
           "PDAT 0x1000 0xf 0x15 0x11 0x12 0x13\nRspWB 0x1000 0xe\n",
           "ReqO+data 0x1000 0xf\nVALUE 0x1000 0x1 0x10 own 0xf\nPRB 0x1000 0xe down\nReqWB 0x1000 0xe 0x11 0x12 0x13\n"
           "RspRvkO L 0x1000 0x1 0x15\nWBDONE 0x1000\n");
}

Test(spandex_tu_mesi, case3_pending_write_back_answers_from_its_data)
{
    /* an EVICT's ReqWB, kept in its entry until the RspWB */
    prints("--config mesi_fpga", "EVICT 0x1000 0xf 0x20 0x21 0x22 0x23\nFwdReqO+data 0x1000 0x1 3\nRspWB 0x1000 0xf\n",
           "DONE 0x1000\nReqWB 0x1000 0xf 0x20 0x21 0x22 0x23\nRspO+data 3 0x1000 0x1 0x20\n");
    /* a downgrade's ReqWB, its words in the cache's write-back state: a
     * later downgrade of one of them is probed, the cache answers the words
     * it keeps (part of the line), the forward is answered from them and no
     * second ReqWB leaves; the cache keeps the rest until the RspWB */
    prints("--config mesi_fpga",
           "LD 0x1000 0xf\nRspO+data 0x1000 0xf 0x10 0x11 0x12 0x13\nFwdReqO 0x1000 0x2 1\n"
           "PDAT 0x1000 0xf 0x10 0x11 0x12 0x13\nFwdReqO+data 0x1000 0x4 3\nPDAT 0x1000 0xd 0x10 0x12 0x13\n"
           "RspWB 0x1000 0xd\n",
           "ReqS 0x1000 0xf\nFILL 0x1000 0xf 0x10 0x11 0x12 0x13 own 0xf\nPRB 0x1000 0xd down\n"
           "ReqWB 0x1000 0xd 0x10 0x12 0x13\nRspO 1 0x1000 0x2\nPRB 0x1000 0xb down\nRspO+data 3 0x1000 0x4 0x12\n"
           "WBDONE 0x1000\n");
    /* a word of the write-back already answered: not held, err_o */
    prints("--config mesi_fpga",
           "LD 0x1000 0xf\nRspO+data 0x1000 0xf 0x10 0x11 0x12 0x13\nFwdReqO 0x1000 0x2 1\n"
           "PDAT 0x1000 0xf 0x10 0x11 0x12 0x13\nFwdReqO 0x1000 0x2 3\nPDAT 0x1000 0xd 0x10 0x12 0x13\n",
           "ReqS 0x1000 0xf\nFILL 0x1000 0xf 0x10 0x11 0x12 0x13 own 0xf\nPRB 0x1000 0xd down\n"
           "ReqWB 0x1000 0xd 0x10 0x12 0x13\nRspO 1 0x1000 0x2\nPRB 0x1000 0xd down\nERR\n");
}

Test(spandex_tu_mesi, a_rspwb_behind_a_delayed_forward_releases_the_line_after_it)
{
    /* stores to 0x1000 and 0x2000 pending: FwdReqS(w0) of each delayed,
     * FwdReqV(w1) of 0x1000 delayed behind its line's. 0x1000 completes:
     * its FwdReqS leaves the line in write-back (ReqWB of w1-w3); its RspWB
     * comes while the FwdReqV waits behind 0x2000's FwdReqS, so the release
     * waits too (the response buffer does not): 0x2000 completes, and the
     * FwdReqV, answered from the cache's write-back words, releases 0x1000 */
    prints("--config mesi_fpga",
           "ST 0x1000 0x1 0x55\nST 0x2000 0x1 0x66\nFwdReqS 0x1000 0x1 2\nFwdReqS 0x2000 0x1 2\n"
           "FwdReqV 0x1000 0x2 3\nRspO+data 0x1000 0xf 0x10 0x11 0x12 0x13\nPDAT 0x1000 0xf 0x55 0x11 0x12 0x13\n"
           "RspWB 0x1000 0xe\nRspO+data 0x2000 0xf 0x20 0x21 0x22 0x23\nPDAT 0x2000 0xf 0x66 0x21 0x22 0x23\n"
           "PDAT 0x1000 0xe 0x11 0x12 0x13\nRspWB 0x2000 0xe\n",
           "ReqO+data 0x1000 0xf\nReqO+data 0x2000 0xf\nFILL 0x1000 0xf 0x55 0x11 0x12 0x13 own 0xf\n"
           "PRB 0x1000 0xe down\nReqWB 0x1000 0xe 0x11 0x12 0x13\nRspS 2 0x1000 0x1 0x55\nRspRvkO L 0x1000 0x1 0x55\n"
           "FILL 0x2000 0xf 0x66 0x21 0x22 0x23 own 0xf\nPRB 0x2000 0xe down\nReqWB 0x2000 0xe 0x21 0x22 0x23\n"
           "RspS 2 0x2000 0x1 0x66\nRspRvkO L 0x2000 0x1 0x66\nPRB 0x1000 0xf\nWBDONE 0x1000\nRspV 3 0x1000 0x2 0x11\n"
           "WBDONE 0x2000\n");
}

Test(spandex_tu_mesi, downgrades_beyond_the_slots_never_wait_for_a_rspwb)
{
    /* the liveness gap of a bounded buffer for write-backs: two entries,
     * four delayed-request slots, seven lines E/M; the LLC downgrades all
     * seven before it answers any of their ReqWBs (its link to the device
     * is ordered: the RspWBs come after the downgrades). Each downgrade is
     * answered and its ReqWB sent from the cache's answer, the cache
     * keeping the words; only then do the RspWBs come and release them */
    char in[4096] = "", want[4096] = "", *p = in, *q = want;
    unsigned i;
    for (i = 0; i < 7; i++) {
        p += sprintf(p, "LD 0x%x 0xf\nRspO+data 0x%x 0xf 0x%x 0x%x 0x%x 0x%x\n", 0x1000 * (i + 1), 0x1000 * (i + 1),
                     16 * i, 16 * i + 1, 16 * i + 2, 16 * i + 3);
        q += sprintf(q, "ReqS 0x%x 0xf\nFILL 0x%x 0xf 0x%x 0x%x 0x%x 0x%x own 0xf\n", 0x1000 * (i + 1),
                     0x1000 * (i + 1), 16 * i, 16 * i + 1, 16 * i + 2, 16 * i + 3);
    }
    for (i = 0; i < 7; i++) {
        p += sprintf(p, "FwdReqO 0x%x 0x1 1\nPDAT 0x%x 0xf 0x%x 0x%x 0x%x 0x%x\n", 0x1000 * (i + 1), 0x1000 * (i + 1),
                     16 * i, 16 * i + 1, 16 * i + 2, 16 * i + 3);
        q += sprintf(q, "PRB 0x%x 0xe down\nReqWB 0x%x 0xe 0x%x 0x%x 0x%x\nRspO 1 0x%x 0x1\n", 0x1000 * (i + 1),
                     0x1000 * (i + 1), 16 * i + 1, 16 * i + 2, 16 * i + 3, 0x1000 * (i + 1));
    }
    for (i = 0; i < 7; i++) {
        p += sprintf(p, "RspWB 0x%x 0xe\n", 0x1000 * (i + 1));
        q += sprintf(q, "WBDONE 0x%x\n", 0x1000 * (i + 1));
    }
    prints("--config mesi_fpga", in, want);
}

Test(spandex_tu_mesi, fwdreqvs_of_a_resent_part_owned_are_answered_from_the_entry)
{
    /* --nack-limit 3: the ReqS is Nacked in two parts; the first part's
     * re-send is answered by option 3 (w0, w1 now this device's), the
     * second part is re-sent later, and the LLC answers it behind the
     * FwdReqVs it sent for w0 and w1 (an ordered link; they move no
     * ownership, so it may send any number). They are answered at once
     * from the entry's data (they once waited for the whole line and
     * could fill the ring); the ReqS completes all by RspO+data and the
     * line is installed owned */
    prints("--config mesi_fpga --nack-limit 3",
           "LD 0x1000 0xf\nNack 0x1000 0x3\nRspO+data 0x1000 0x3 0x10 0x11\nNack 0x1000 0xc\n"
           "FwdReqV 0x1000 0x1 1\nFwdReqV 0x1000 0x2 2\nFwdReqV 0x1000 0x1 3\nFwdReqV 0x1000 0x2 1\n"
           "FwdReqV 0x1000 0x3 2\nRspO+data 0x1000 0xc 0x12 0x13\n",
           "ReqS 0x1000 0xf\nReqS 0x1000 0x3\nReqS 0x1000 0xc\nRspV 1 0x1000 0x1 0x10\nRspV 2 0x1000 0x2 0x11\n"
           "RspV 3 0x1000 0x1 0x10\nRspV 1 0x1000 0x2 0x11\nRspV 2 0x1000 0x3 0x10 0x11\n"
           "FILL 0x1000 0xf 0x10 0x11 0x12 0x13 own 0xf\n");
}

Test(spandex_tu_mesi, downgrades_of_read_words_already_owned_are_answered_and_the_rest_written_back)
{
    /* w0 and w1 came by RspO+data (option 3), w2 and w3 are still to come:
     * a RvkO of w0 (which blocks the line at the LLC, deferring what the
     * rest waits for) is answered at once from the entry's data, a FwdReqV
     * of w1 too; the line cannot be installed E/M with w0 gone, so the
     * read is used once (VALUE) and w1, still this device's, leaves by a
     * ReqWB (spec 4's stable O case: the requested words answered, the
     * line to I, the other owned words written back) */
    prints("--config mesi_fpga",
           "LD 0x1000 0xf\nRspO+data 0x1000 0x3 0x10 0x11\nRvkO 0x1000 0x1\nFwdReqV 0x1000 0x2 2\n"
           "RspS 0x1000 0xc 0x12 0x13\nRspWB 0x1000 0x2\n",
           "ReqS 0x1000 0xf\nRspRvkO L 0x1000 0x1 0x10\nRspV 2 0x1000 0x2 0x11\n"
           "VALUE 0x1000 0xf 0x10 0x11 0x12 0x13\nReqWB 0x1000 0x2 0x11\n");
    /* FwdReqS (option 1) and FwdReqO+data take both: nothing left to write back */
    prints("--config mesi_fpga",
           "LD 0x1000 0xf\nRspO+data 0x1000 0x3 0x10 0x11\nFwdReqS 0x1000 0x1 1\nFwdReqO+data 0x1000 0x2 2\n"
           "RspV 0x1000 0xc 0x12 0x13\n",
           "ReqS 0x1000 0xf\nRspS 1 0x1000 0x1 0x10\nRspRvkO L 0x1000 0x1 0x10\nRspO+data 2 0x1000 0x2 0x11\n"
           "VALUE 0x1000 0xf 0x10 0x11 0x12 0x13\n");
}

Test(spandex_tu_mesi, a_read_used_once_writes_back_the_words_it_was_given_owned)
{
    /* --nack-limit 2: w1 Nacked and re-sent as a ReqS, the rest answered
     * by option 2 (RspV), the re-send by option 3 (RspO+data): the LLC made
     * the device w1's owner, the line is used once (VALUE), so w1 leaves
     * by a ReqWB (never dropped with the LLC counting it this device's) */
    prints("--config mesi_fpga --nack-limit 2",
           "LD 0x1000 0xf\nNack 0x1000 0x2\nRspV 0x1000 0xd 0x10 0x12 0x13\nRspO+data 0x1000 0x2 0x11\n"
           "RspWB 0x1000 0x2\n",
           "ReqS 0x1000 0xf\nReqS 0x1000 0x2\nVALUE 0x1000 0xf 0x10 0x11 0x12 0x13\nReqWB 0x1000 0x2 0x11\n");
    /* the same mix in one answer, in lockstep with the RTL */
    prints("--config mesi_fpga", "LD 0x1000 0xf\nRspV 0x1000 0xd 0x10 0x12 0x13\nRspO+data 0x1000 0x2 0x11\nRspWB 0x1000 0x2\n",
           "ReqS 0x1000 0xf\nVALUE 0x1000 0xf 0x10 0x11 0x12 0x13\nReqWB 0x1000 0x2 0x11\n");
}

Test(spandex_tu_mesi, case4_a_fwdreqv_elsewhere_is_nacked_and_a_downgrade_raises_err)
{
    prints("--config mesi_fpga", "FwdReqV 0x1000 0x3 2\nPDAT 0x1000 0x0\n", "PRB 0x1000 0xf\nNack 2 0x1000 0x3\n");
    prints("--config mesi_fpga", "FwdReqO 0x1000 0x1 2\nPDAT 0x1000 0x0\n", "PRB 0x1000 0xe down\nERR\n");
    /* an atomic of two words: the cache-side contract allows one */
    prints("--config mesi_fpga", "RMW 0x1000 0x3 add 0x1 0x2\n", "ERR\n");
}

Test(spandex_tu_mesi, x13_a_nacked_read_is_replaced_and_used_once)
{
    prints("--config mesi_fpga",
           "LD 0x1000 0xf\nNack 0x1000 0x2\nRspV 0x1000 0xd 0x10 0x12 0x13\nRspWT+data 0x1000 0x2 0x11\n",
           "ReqS 0x1000 0xf\nReqWT+data 0x1000 0x2 rd\nVALUE 0x1000 0xf 0x10 0x11 0x12 0x13\n");
}

Test(spandex_tu_mesi, x14_an_inv_during_a_reqs_fill_leaves_the_line_i)
{
    /* the Inv probes the cache (a Shared copy goes), is Acked, and the
     * fill that follows is used once: VALUE, not an S FILL; an Inv of an
     * S line takes it from the cache */
    prints("--config mesi_fpga", "LD 0x1000 0xf\nInv 0x1000 0xf\nPDAT 0x1000 0x0\nRspS 0x1000 0xf 0x10 0x11 0x12 0x13\n",
           "ReqS 0x1000 0xf\nPRB 0x1000 0x0\nAck L 0x1000 0xf\nVALUE 0x1000 0xf 0x10 0x11 0x12 0x13\n");
    prints("--config mesi_fpga",
           "LD 0x1000 0xf\nRspS 0x1000 0xf 0x10 0x11 0x12 0x13\nInv 0x1000 0xf\nPDAT 0x1000 0x0\nEVICT 0x1000\n",
           "ReqS 0x1000 0xf\nFILL 0x1000 0xf 0x10 0x11 0x12 0x13\nPRB 0x1000 0x0\nAck L 0x1000 0xf\nDONE 0x1000\n");
}

Test(spandex_tu_mesi, random_streams_in_lockstep_keep_every_promise, .timeout = 240)
{
    static const char *const presets[] = {"mesi", "mesi_fpga"};
    static const char *const streams[] = {"mixed", "stores", "nack", "errors"};
    unsigned p, s;
    for (p = 0; p < 2; p++)
        for (s = 0; s < 4; s++) {
            ls_result r;
            ls_stream(&r, spandex_duts, "spandex-tu", presets[p], streams[s], 30000, 60 + p * 4 + s);
            cr_expect_eq(field(r.summary, "broken promises "), 0, "%s %s: %s", presets[p], streams[s], r.summary);
            if (s != 3)
                cr_expect_eq(field(r.summary, "protocol errors (err_o cycles) "), 0, "%s %s", presets[p],
                             streams[s]);
            cr_expect_gt(field(r.summary, "probes "), 100, "%s", r.summary);
            ls_result_free(&r);
        }
}
