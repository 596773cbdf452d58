/*
 * Criterion tests of the MESI translation unit of the composed Spandex
 * system (cmodel/spandex/spandex_tu.c, spec 4 "MESI TU", 2.3, X9, X13,
 * X14): Fig. 1b and 1d with the paper's message sequences, the ReqS options
 * 1, 2, 3 and the paper policy on a line in each LLC state, every case of
 * spec 4 for word-granularity requests on a MESI line (stable O, pending O,
 * pending write-back, elsewhere) in the system, the cells the system does
 * not reach under fifo on a TU alone (Inv during a ReqS fill, a Nack and
 * its replacement, protocol errors), and random heterogeneous DRF programs
 * (MESI, GPU-coherence and DeNovo devices, 3 to 8) under both schedules and
 * every ReqS option, each judged by the system checker.
 *
 * Expected logs are worked out from the specification (D lines left out;
 * fifo delivers the oldest message first). Initial memory: the word at byte
 * address A holds A. Devices: 0 and 1 MESI CPUs, 2 a DeNovo accelerator, 3
 * a GPU-coherence GPU; 32-byte lines of eight words. Run from the
 * repository root (make unit).
 */
#define _POSIX_C_SOURCE 200809L
#include "spandex_sys_test.h"

#define HET "--dev 0:mesi --dev 1:mesi --dev 2:denovo --dev 3:gpu --line 32"
#define LINE8 "0x1000 0x1004 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c"
/* device 0 takes the line in O (its own store of 0x1 in word 0) */
#define OWN0 "ST 0 0x1000 0x1\nDRAIN\n"
#define OWN0_LOG                                                                                             \
    "S 1 0 L ReqO+data 0x1000 0xff\n"                                                                        \
    "S 2 L M MemRd 0x1000 0xff\n"                                                                            \
    "S 3 L 0 RspO+data 0x1000 0xff " LINE8 "\n"                                                              \
    "C 0 1\n"
#define REST "0x1008 0x100c 0x1010 0x1014 0x1018 0x101c" /* words 2-7 */

/* ------------------------------------------------------------- Fig. 1 -- */

/* Fig. 1b: the GPU's atomic on a word of the CPU's M line: RvkO of that
 * word, RspRvkO with its data and a ReqWB of the other words ("RspRvkO for
 * the entire line"), the LLC applies the op and answers both. The log of
 * tb/spandex/logs/fig1b.log with the memory read. */
Test(spandex_mesi_fig, fig1b_rvko_answered_for_the_whole_line)
{
    char *prog = slurp("tb/spandex/logs/fig1b.prog");
    cr_assert(prog, "run from the repository root");
    expect_log("--dev 0:mesi --dev 1:gpu --dev 2:denovo --line 32", prog,
               "S 1 0 L ReqO+data 0x1000 0xff\n"
               "S 2 L M MemRd 0x1000 0xff\n"
               "S 3 L 0 RspO+data 0x1000 0xff " LINE8 "\n"
               "C 0 4\n"
               "S 4 1 L ReqWT+data 0x1000 0x4 add 0x5\n"
               "S 5 L 0 RvkO 0x1000 0x4\n"
               "S 6 0 L RspRvkO 0x1000 0x4 0x1008\n"
               "S 7 0 L ReqWB 0x1000 0xfb 0x5 0x1004 0x100c 0x1010 0x1014 0x1018 0x101c\n"
               "S 8 L 1 RspWT+data 0x1000 0x4 0x1008\n"
               "S 9 L 0 RspWB 0x1000 0xfb\n"
               "V 1 6 0x1008 0x1008\n");
    free(prog);
}

/* Fig. 1d: the GPU's ReqWT of word 1 of the CPU's M line: FwdReqO, the CPU
 * answers the GPU with RspO, leaves the line and writes the other words
 * back. */
Test(spandex_mesi_fig, fig1d_fwdreqo_line_to_i_and_writeback)
{
    char *prog = slurp("tb/spandex/logs/fig1d.prog");
    cr_assert(prog, "run from the repository root");
    expect_log("--dev 0:mesi --dev 1:gpu --dev 2:denovo --line 32", prog,
               "S 1 0 L ReqO+data 0x1000 0xff\n"
               "S 2 L M MemRd 0x1000 0xff\n"
               "S 3 L 0 RspO+data 0x1000 0xff " LINE8 "\n"
               "C 0 4\n"
               "S 4 1 L ReqWT 0x1000 0x2 0x77\n"
               "S 5 L 0 FwdReqO 0x1000 0x2 r=1\n"
               "S 6 0 1 RspO 0x1000 0x2\n"
               "S 7 0 L ReqWB 0x1000 0xfd 0x5 " REST "\n"
               "C 1 6\n"
               "S 8 L 0 RspWB 0x1000 0xfd\n");
    free(prog);
}

/* ------------------------------------------------ ReqS options (III-B) -- */

/* A read miss on an absent line, a second load and a store: option 1 S
 * (the second load hits, the store upgrades with ReqO+data and no Inv to
 * itself, X9); option 2 RspV used once (the second load misses again); 3
 * and the paper policy (I: option 3) O, the store is local. */
Test(spandex_mesi_reqs, line_absent)
{
    static const char *const prog = "LD 0 0x1000\nDRAIN\nLD 0 0x1004\nDRAIN\nST 0 0x1008 0x5\n";
    static const char *const head = "S 1 0 L ReqS 0x1000 0xff\nS 2 L M MemRd 0x1000 0xff\n";
    char exp[2048];
    snprintf(exp, sizeof exp,
             "%sS 3 L 0 RspS 0x1000 0xff " LINE8 "\nV 0 1 0x1000 0x1000\nV 0 3 0x1004 0x1004\n"
             "S 4 0 L ReqO+data 0x1000 0xff\nS 5 L 0 RspO+data 0x1000 0xff " LINE8 "\nC 0 5\n",
             head);
    expect_log(HET " --reqs 1", prog, exp);
    snprintf(exp, sizeof exp,
             "%sS 3 L 0 RspV 0x1000 0xff " LINE8 "\nV 0 1 0x1000 0x1000\nS 4 0 L ReqS 0x1000 0xff\n"
             "S 5 L 0 RspV 0x1000 0xff " LINE8 "\nV 0 3 0x1004 0x1004\nS 6 0 L ReqO+data 0x1000 0xff\n"
             "S 7 L 0 RspO+data 0x1000 0xff " LINE8 "\nC 0 5\n",
             head);
    expect_log(HET " --reqs 2", prog, exp);
    snprintf(exp, sizeof exp, "%sS 3 L 0 RspO+data 0x1000 0xff " LINE8 "\nV 0 1 0x1000 0x1000\nV 0 3 0x1004 0x1004\nC 0 5\n",
             head);
    expect_log(HET " --reqs 3", prog, exp);
    expect_log(HET " --reqs paper", prog, exp);
}

/* Word 0 owned by the DeNovo accelerator: option 1 FwdReqS to it (RspS to
 * the CPU, RspRvkO to the LLC); option 2 FwdReqV (RspV; used once, the
 * next load asks again); option 3 and the paper policy (owned at a
 * non-MESI device: option 3) FwdReqO+data, the CPU ends the owner. */
Test(spandex_mesi_reqs, word_owned_by_denovo)
{
    static const char *const prog = "ST 2 0x1000 0x9\nDRAIN\nLD 0 0x1004\nDRAIN\nLD 0 0x1000\n";
    static const char *const head = "S 1 2 L ReqO 0x1000 0x1\nS 2 L M MemRd 0x1000 0xff\nS 3 L 2 RspO 0x1000 0x1\n"
                                    "C 2 1\nS 4 0 L ReqS 0x1000 0xff\n";
    static const char *const w17 = "0x1004 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c";
    char exp[2048];
    snprintf(exp, sizeof exp,
             "%sS 5 L 2 FwdReqS 0x1000 0x1 r=0\nS 6 L 0 RspS 0x1000 0xfe %s\nS 7 2 0 RspS 0x1000 0x1 0x9\n"
             "S 8 2 L RspRvkO 0x1000 0x1 0x9\nV 0 3 0x1004 0x1004\nV 0 5 0x1000 0x9\n",
             head, w17);
    expect_log(HET " --reqs 1", prog, exp);
    snprintf(exp, sizeof exp,
             "%sS 5 L 2 FwdReqV 0x1000 0x1 r=0\nS 6 L 0 RspV 0x1000 0xfe %s\nS 7 2 0 RspV 0x1000 0x1 0x9\n"
             "V 0 3 0x1004 0x1004\nS 8 0 L ReqS 0x1000 0xff\nS 9 L 2 FwdReqV 0x1000 0x1 r=0\n"
             "S 10 L 0 RspV 0x1000 0xfe %s\nS 11 2 0 RspV 0x1000 0x1 0x9\nV 0 5 0x1000 0x9\n",
             head, w17, w17);
    expect_log(HET " --reqs 2", prog, exp);
    snprintf(exp, sizeof exp,
             "%sS 5 L 2 FwdReqO+data 0x1000 0x1 r=0\nS 6 L 0 RspO+data 0x1000 0xfe %s\n"
             "S 7 2 0 RspO+data 0x1000 0x1 0x9\nV 0 3 0x1004 0x1004\nV 0 5 0x1000 0x9\n",
             head, w17);
    expect_log(HET " --reqs 3", prog, exp);
    expect_log(HET " --reqs paper", prog, exp);
}

/* The paper policy on a line a MESI CPU owns (option 1: FwdReqS of the
 * whole line; the owner answers RspS and RspRvkO and keeps the line in S,
 * its next load hits) and on an S line (option 1: RspS from the LLC); a
 * GPU write then invalidates both sharers before its RspWT. */
Test(spandex_mesi_reqs, paper_policy_mesi_owner_and_s_line)
{
    expect_log(HET " --reqs paper",
               "ST 1 0x1000 0x9\nDRAIN\nLD 0 0x1004\nDRAIN\nLD 1 0x1000\nLD 2 0x1000\nDRAIN\nLD 3 0x1008\nDRAIN\n"
               "ST 3 0x1008 0x7\n",
               "S 1 1 L ReqO+data 0x1000 0xff\n"
               "S 2 L M MemRd 0x1000 0xff\n"
               "S 3 L 1 RspO+data 0x1000 0xff " LINE8 "\n"
               "C 1 1\n"
               "S 4 0 L ReqS 0x1000 0xff\n"
               "S 5 L 1 FwdReqS 0x1000 0xff r=0\n"
               "S 6 1 0 RspS 0x1000 0xff 0x9 0x1004 " REST "\n"
               "S 7 1 L RspRvkO 0x1000 0xff 0x9 0x1004 " REST "\n"
               "V 0 3 0x1004 0x1004\n"
               "V 1 5 0x1000 0x9\n"
               "S 8 2 L ReqV 0x1000 0xff\n"
               "S 9 L 2 RspV 0x1000 0xff 0x9 0x1004 " REST "\n"
               "V 2 6 0x1000 0x9\n"
               "S 10 3 L ReqV 0x1000 0xff\n"
               "S 11 L 3 RspV 0x1000 0xff 0x9 0x1004 " REST "\n"
               "V 3 8 0x1008 0x1008\n"
               "S 12 3 L ReqWT 0x1000 0x4 0x7\n"
               "S 13 L 0 Inv 0x1000 0xff\n"
               "S 14 L 1 Inv 0x1000 0xff\n"
               "S 15 0 L Ack 0x1000 0xff\n"
               "S 16 1 L Ack 0x1000 0xff\n"
               "S 17 L 3 RspWT 0x1000 0x4\n"
               "C 3 10\n");
}

/* -------------------------------------- spec 4 cases on a MESI line -- */

/* Case 1, stable O: a FwdReqV is answered with RspV and the line stays O
 * (the next store is local); a FwdReqO+data of one word is answered and
 * the other words are written back (Fig. 1d with data). */
Test(spandex_mesi_case, stable_o_fwdreqv_stays_fwdreqodata_leaves)
{
    expect_log(HET, OWN0 "LD 2 0x1004\nDRAIN\nST 0 0x1004 0x2\n",
               OWN0_LOG "S 4 2 L ReqV 0x1000 0xff\n"
                        "S 5 L 0 FwdReqV 0x1000 0xff r=2\n"
                        "S 6 0 2 RspV 0x1000 0xff 0x1 0x1004 " REST "\n"
                        "V 2 3 0x1004 0x1004\n"
                        "C 0 5\n");
    expect_log(HET, OWN0 "RMW 2 0x1004 add 0x10\n",
               OWN0_LOG "S 4 2 L ReqO+data 0x1000 0x2\n"
                        "S 5 L 0 FwdReqO+data 0x1000 0x2 r=2\n"
                        "S 6 0 2 RspO+data 0x1000 0x2 0x1004\n"
                        "S 7 0 L ReqWB 0x1000 0xfd 0x1 " REST "\n"
                        "V 2 3 0x1004 0x1004\n"
                        "S 8 L 0 RspWB 0x1000 0xfd\n");
}

/* Case 2, pending O: CPU 1's store asks the line (owner CPU 0); before
 * the line arrives a FwdReqO (the GPU's ReqWT of word 1) is answered at
 * once with RspO; the line then arrives, the store is performed, and the
 * line goes to I with a ReqWB of the words not downgraded (word 0 with the
 * store's value). */
Test(spandex_mesi_case, pending_o_fwdreqo_at_once_then_i_and_writeback)
{
    expect_log(HET, OWN0 "ST 1 0x1000 0x2\nST 3 0x1004 0x3\n",
               OWN0_LOG "S 4 1 L ReqO+data 0x1000 0xff\n"
                        "S 5 3 L ReqWT 0x1000 0x2 0x3\n"
                        "S 6 L 0 FwdReqO+data 0x1000 0xff r=1\n"
                        "S 7 L 1 FwdReqO 0x1000 0x2 r=3\n"
                        "S 8 0 1 RspO+data 0x1000 0xff 0x1 0x1004 " REST "\n"
                        "S 9 1 3 RspO 0x1000 0x2\n"
                        "S 10 1 L ReqWB 0x1000 0xfd 0x2 " REST "\n"
                        "C 1 3\n"
                        "C 3 4\n"
                        "S 11 L 1 RspWB 0x1000 0xfd\n");
}

/* Case 2: a FwdReqV waits for the line and is answered with the store's
 * value, the line stays O; an RvkO waits, is answered with data, and the
 * line goes to I with a ReqWB of the other words. */
Test(spandex_mesi_case, pending_o_delays_fwdreqv_and_rvko)
{
    expect_log(HET, OWN0 "ST 1 0x1000 0x2\nLD 2 0x1004\nDRAIN\nST 1 0x1008 0x4\n",
               OWN0_LOG "S 4 1 L ReqO+data 0x1000 0xff\n"
                        "S 5 2 L ReqV 0x1000 0xff\n"
                        "S 6 L 0 FwdReqO+data 0x1000 0xff r=1\n"
                        "S 7 L 1 FwdReqV 0x1000 0xff r=2\n"
                        "S 8 0 1 RspO+data 0x1000 0xff 0x1 0x1004 " REST "\n"
                        "S 9 1 2 RspV 0x1000 0xff 0x2 0x1004 " REST "\n"
                        "C 1 3\n"
                        "V 2 4 0x1004 0x1004\n"
                        "C 1 6\n");
    expect_log(HET, OWN0 "ST 1 0x1000 0x2\nRMW 3 0x1004 add 0x3\n",
               OWN0_LOG "S 4 1 L ReqO+data 0x1000 0xff\n"
                        "S 5 3 L ReqWT+data 0x1000 0x2 add 0x3\n"
                        "S 6 L 0 FwdReqO+data 0x1000 0xff r=1\n"
                        "S 7 L 1 RvkO 0x1000 0x2\n"
                        "S 8 0 1 RspO+data 0x1000 0xff 0x1 0x1004 " REST "\n"
                        "S 9 1 L RspRvkO 0x1000 0x2 0x1004\n"
                        "S 10 1 L ReqWB 0x1000 0xfd 0x2 " REST "\n"
                        "C 1 3\n"
                        "S 11 L 3 RspWT+data 0x1000 0x2 0x1004\n"
                        "S 12 L 1 RspWB 0x1000 0xfd\n"
                        "V 3 4 0x1004 0x1004\n");
}

/* Case 3, pending write-back: the replacement's ReqWB is in flight when a
 * FwdReqV arrives (answered from the buffer, the EVICT completes on the
 * RspWB) or a FwdReqO (answered with RspO; the word counts as written
 * back). */
Test(spandex_mesi_case, pending_writeback_answers_from_the_buffer)
{
    expect_log(HET, OWN0 "LD 2 0x1004\nEVICT 0 0x1000\n",
               OWN0_LOG "S 4 2 L ReqV 0x1000 0xff\n"
                        "S 5 0 L ReqWB 0x1000 0xff 0x1 0x1004 " REST "\n"
                        "S 6 L 0 FwdReqV 0x1000 0xff r=2\n"
                        "S 7 L 0 RspWB 0x1000 0xff\n"
                        "S 8 0 2 RspV 0x1000 0xff 0x1 0x1004 " REST "\n"
                        "C 0 4\n"
                        "V 2 3 0x1004 0x1004\n");
    expect_log(HET, OWN0 "ST 3 0x1004 0x5\nREL 3\nEVICT 0 0x1000\n",
               OWN0_LOG "S 4 3 L ReqWT 0x1000 0x2 0x5\n"
                        "S 5 0 L ReqWB 0x1000 0xff 0x1 0x1004 " REST "\n"
                        "S 6 L 0 FwdReqO 0x1000 0x2 r=3\n"
                        "S 7 L 0 RspWB 0x1000 0xff\n"
                        "S 8 0 3 RspO 0x1000 0x2\n"
                        "C 0 5\n"
                        "C 3 3\n"
                        "C 3 4\n");
}

/* Replacement: S is silent (option 1), E is written back (Table II: clean
 * E too, its words are owned at the LLC). */
Test(spandex_mesi_case, eviction_of_s_silent_of_e_writeback)
{
    expect_log(HET " --reqs 1", "LD 0 0x1000\nDRAIN\nEVICT 0 0x1000\nLD 0 0x1004\n",
               "S 1 0 L ReqS 0x1000 0xff\n"
               "S 2 L M MemRd 0x1000 0xff\n"
               "S 3 L 0 RspS 0x1000 0xff " LINE8 "\n"
               "V 0 1 0x1000 0x1000\n"
               "C 0 3\n"
               "S 4 0 L ReqS 0x1000 0xff\n"
               "S 5 L 0 RspS 0x1000 0xff " LINE8 "\n"
               "V 0 4 0x1004 0x1004\n");
    expect_log(HET, "LD 0 0x1000\nDRAIN\nEVICT 0 0x1000\n",
               "S 1 0 L ReqS 0x1000 0xff\n"
               "S 2 L M MemRd 0x1000 0xff\n"
               "S 3 L 0 RspO+data 0x1000 0xff " LINE8 "\n"
               "V 0 1 0x1000 0x1000\n"
               "S 4 0 L ReqWB 0x1000 0xff " LINE8 "\n"
               "S 5 L 0 RspWB 0x1000 0xff\n"
               "C 0 3\n");
}

/* ------------------------------------------------------- a TU alone -- */

/* X14: an Inv during a ReqS fill is Acked; the fill serves the waiting
 * load and the line stays I (the next load asks again). An S line takes
 * an Inv to I. */
Test(spandex_mesi_tu, inv_during_fill_used_once_and_s_to_i)
{
    static const spandex_sop ops[] = {{SPANDEX_SOP_LD, 1, 2, 0x1004, 0, 0},
                                      {SPANDEX_SOP_LD, 2, 2, 0x1008, 0, 0},
                                      {SPANDEX_SOP_LD, 3, 2, 0x100c, 0, 0},
                                      {SPANDEX_SOP_LD, 4, 2, 0x1000, 0, 0}};
    rec r;
    spandex_tu *t = mk_tu(SPANDEX_TU_MESI, ops, 4, &r);
    spandex_msg m;
    spandex_tu_push(t, 0);
    spandex_tu_pump(t, 0);
    cr_assert_eq(r.n, 1);
    cr_expect(r.m[0].kind == SPANDEX_REQS && r.m[0].mask == 0xf && r.dst[0] == SPANDEX_TU_LLC);
    tu_recv_llc(t, SPANDEX_INV, 0, 0);
    cr_assert_eq(r.n, 2);
    cr_expect(r.m[1].kind == SPANDEX_ACK);
    m = msg(SPANDEX_RSPS, 0, 0xf);
    m.v[1] = 0x44;
    spandex_tu_recv(t, SPANDEX_TU_LLC, &m);
    cr_assert_eq(r.ndone, 1);
    cr_expect_eq(r.v[0], 0x44);
    spandex_tu_push(t, 1);
    spandex_tu_pump(t, 0);
    cr_assert_eq(r.n, 3, "X14: the line stayed I");
    cr_expect(r.m[2].kind == SPANDEX_REQS);
    m = msg(SPANDEX_RSPS, 0, 0xf);
    m.v[2] = 0x88;
    spandex_tu_recv(t, SPANDEX_TU_LLC, &m);
    cr_assert_eq(r.ndone, 2);
    cr_expect_eq(r.v[1], 0x88);
    spandex_tu_push(t, 2);
    spandex_tu_pump(t, 0);
    cr_expect_eq(r.n, 3, "S: the load hits");
    cr_expect_eq(r.ndone, 3);
    tu_recv_llc(t, SPANDEX_INV, 0, 0);
    spandex_tu_push(t, 3);
    spandex_tu_pump(t, 0);
    cr_assert_eq(r.n, 5);
    cr_expect(r.m[3].kind == SPANDEX_ACK && r.m[4].kind == SPANDEX_REQS, "S to I on the Inv");
    cr_expect_str_empty(r.fail);
    spandex_tu_free(t);
}

/* Option 2 (X13): a Nacked ReqS word is replaced once by ReqWT+data(rd)
 * (nack limit 1); the load takes its value and the line stays I. */
Test(spandex_mesi_tu, option2_nack_replaced_by_reqwtdata_rd)
{
    static const spandex_sop ops[] = {{SPANDEX_SOP_LD, 1, 2, 0x1000, 0, 0}, {SPANDEX_SOP_LD, 2, 2, 0x1004, 0, 0}};
    rec r;
    spandex_tu *t = mk_tu(SPANDEX_TU_MESI, ops, 2, &r);
    spandex_msg m;
    spandex_tu_push(t, 0);
    spandex_tu_pump(t, 0);
    tu_recv_llc(t, SPANDEX_RSPV, 0, 0xe);
    m = msg(SPANDEX_NACK, 0, 0x1);
    spandex_tu_recv(t, 3, &m);
    cr_assert_eq(r.n, 2);
    cr_expect(r.m[1].kind == SPANDEX_REQWTDATA && r.m[1].op == SPANDEX_OP_RD && r.m[1].mask == 0x1);
    cr_expect_eq(r.ndone, 0);
    m = msg(SPANDEX_RSPWTDATA, 0, 0x1);
    m.v[0] = 0x31;
    spandex_tu_recv(t, SPANDEX_TU_LLC, &m);
    cr_assert_eq(r.ndone, 1);
    cr_expect_eq(r.v[0], 0x31);
    spandex_tu_push(t, 1);
    spandex_tu_pump(t, 0);
    cr_assert_eq(r.n, 3, "used once: the next load asks again");
    cr_expect(r.m[2].kind == SPANDEX_REQS && r.m[2].mask == 0xf);
    cr_expect_str_empty(r.fail);
    spandex_tu_free(t);
}

/* Case 2 on a TU alone, every external request during a pending ReqO+data:
 * FwdReqO answered at once, FwdReqV, RvkO and FwdReqS delayed and answered
 * after the store, in arrival order; then I and a ReqWB of the words not
 * downgraded. Case 4: a FwdReqV on an I line is Nacked; a downgrade of a
 * line not held is a protocol error. */
Test(spandex_mesi_tu, pending_o_every_request_then_elsewhere)
{
    static const spandex_sop ops[] = {{SPANDEX_SOP_ST, 1, 2, 0x1000, 0, 0x77}};
    rec r;
    spandex_tu *t = mk_tu(SPANDEX_TU_MESI, ops, 1, &r);
    spandex_msg m;
    unsigned i;
    spandex_tu_push(t, 0);
    spandex_tu_pump(t, 0);
    cr_assert_eq(r.n, 1);
    cr_expect(r.m[0].kind == SPANDEX_REQODATA && r.m[0].mask == 0xf);
    tu_recv_llc(t, SPANDEX_FWDREQV, 3, 0x1);
    tu_recv_llc(t, SPANDEX_FWDREQO, 4, 0x2);
    tu_recv_llc(t, SPANDEX_RVKO, 0, 0x4);
    cr_assert_eq(r.n, 2, "only the FwdReqO is answered at once");
    cr_expect(r.m[1].kind == SPANDEX_RSPO && r.dst[1] == 4 && r.m[1].mask == 0x2);
    m = msg(SPANDEX_RSPODATA, 0, 0xf);
    for (i = 0; i < 4; i++)
        m.v[i] = 0x100 + i;
    spandex_tu_recv(t, 1, &m);
    cr_assert_eq(r.n, 5);
    cr_expect(r.m[2].kind == SPANDEX_RSPV && r.dst[2] == 3 && r.m[2].v[0] == 0x77, "after the store");
    cr_expect(r.m[3].kind == SPANDEX_RSPRVKO && r.dst[3] == SPANDEX_TU_LLC && r.m[3].v[2] == 0x102);
    cr_expect(r.m[4].kind == SPANDEX_REQWB && r.m[4].mask == 0x9 && r.m[4].v[0] == 0x77 && r.m[4].v[3] == 0x103,
              "the words not downgraded");
    cr_assert_eq(r.ndone, 1, "the store completes on the grant");
    tu_recv_llc(t, SPANDEX_FWDREQV, 5, 0x2);
    cr_expect(r.m[5].kind == SPANDEX_NACK && r.dst[5] == 5 && r.m[5].mask == 0x2, "case 4");
    tu_recv_llc(t, SPANDEX_FWDREQO, 5, 0x2);
    cr_expect(strstr(r.fail, "FwdReqO for words it does not own") != NULL, "%s", r.fail);
    spandex_tu_free(t);
}

/* Case 1 with a FwdReqS: RspS to the requestor and RspRvkO to the LLC;
 * covering every owned word the line goes to S (the next load hits); a
 * part of the line leaves it I with a ReqWB of the rest. */
Test(spandex_mesi_tu, stable_o_fwdreqs_whole_line_to_s_part_to_i)
{
    static const spandex_sop ops[] = {{SPANDEX_SOP_ST, 1, 2, 0x1000, 0, 0x5}, {SPANDEX_SOP_LD, 2, 2, 0x1004, 0, 0}};
    rec r;
    spandex_tu *t = mk_tu(SPANDEX_TU_MESI, ops, 2, &r);
    spandex_tu_push(t, 0);
    spandex_tu_pump(t, 0);
    tu_recv_llc(t, SPANDEX_RSPODATA, 0, 0xf);
    cr_assert_eq(r.ndone, 1);
    tu_recv_llc(t, SPANDEX_FWDREQS, 1, 0xf);
    cr_assert_eq(r.n, 3);
    cr_expect(r.m[1].kind == SPANDEX_RSPS && r.dst[1] == 1 && r.m[1].v[0] == 0x5);
    cr_expect(r.m[2].kind == SPANDEX_RSPRVKO && r.m[2].mask == 0xf);
    spandex_tu_push(t, 1);
    spandex_tu_pump(t, 0);
    cr_expect_eq(r.n, 3, "S: the load hits");
    cr_expect_eq(r.ndone, 2);
    spandex_tu_free(t);
    t = mk_tu(SPANDEX_TU_MESI, ops, 1, &r);
    spandex_tu_push(t, 0);
    spandex_tu_pump(t, 0);
    tu_recv_llc(t, SPANDEX_RSPODATA, 0, 0xf);
    tu_recv_llc(t, SPANDEX_FWDREQS, 1, 0x3);
    cr_assert_eq(r.n, 4);
    cr_expect(r.m[3].kind == SPANDEX_REQWB && r.m[3].mask == 0xc);
    cr_expect_str_empty(r.fail);
    spandex_tu_free(t);
}

/* ------------------------------------------- random heterogeneous DRF -- */

/* Seeded DRF programs of spandex-prog on MESI, GPU-coherence and DeNovo
 * devices together (3 to 8), every ReqS option, nack limits 1 to 3, both
 * schedules, the last four on the line baseline: spandex-check --drf says
 * PASS on every log. */
Test(spandex_mesi_random, heterogeneous_drf_programs_pass_the_checker, .timeout = 120)
{
    static const char *const mixes[] = {
        "--dev 0:mesi --dev 1:gpu --dev 2:denovo",
        "--dev 0:mesi --dev 1:mesi --dev 2:gpu --dev 3:denovo",
        "--dev 0:denovo --dev 1:gpu --dev 2:mesi --dev 3:denovo --dev 4:mesi --dev 5:gpu",
        "--dev 0:mesi --dev 1:mesi --dev 2:mesi --dev 3:mesi --dev 4:denovo --dev 5:gpu --dev 6:denovo --dev 7:mesi"};
    static const char *const reqs[] = {"1", "2", "3", "paper"};
    static const char *const scheds[] = {"fifo", "random"};
    char dir[256], path[300], opts[400];
    unsigned seed, s;
    cmd_out r;
    snprintf(dir, sizeof dir, "%s", fresh_dir("spandex_mesi_drf"));
    snprintf(path, sizeof path, "%s/p.txt", dir);
    for (seed = 1; seed <= 20; seed++) {
        const char *mix = mixes[seed % 4];
        snprintf(opts, sizeof opts, "%s --reqs %s --nack-limit %u%s%s", mix, reqs[(seed / 4) % 4], 1 + seed % 3,
                 seed % 5 == 0 ? " --denovo-rmw wtdata" : "", seed > 16 ? " --gran line" : "");
        run_cap(&r, "build/bin/cohmodel spandex-prog %s --seed %u --ops 300%s > %s", mix, seed,
                seed % 2 ? " --line 32" : "", path);
        cr_assert_eq(r.status, 0, "%s", r.err);
        cmd_out_free(&r);
        if (seed % 2)
            strcat(opts, " --line 32");
        for (s = 0; s < 2; s++) {
            run_cap(&r, "build/bin/cohmodel spandex-system %s --sched %s --seed %u < %s > %s/l.txt", opts, scheds[s],
                    seed, path, dir);
            cr_assert_eq(r.status, 0, "[%s] seed %u %s: spandex-system: %s%s", opts, seed, scheds[s], r.out, r.err);
            cmd_out_free(&r);
            run_cap(&r, "build/bin/cohmodel spandex-check %s --sched %s --drf --program %s < %s/l.txt", opts,
                    scheds[s], path, dir);
            cr_expect_eq(r.status, 0, "[%s] seed %u %s: %s%s", opts, seed, scheds[s], r.out, r.err);
            cr_expect(strncmp(r.out, "PASS SYS1-SYS8 (data-race-free)", 31) == 0, "%s", r.out);
            cmd_out_free(&r);
        }
    }
}

/* ----------------------------------------- the line baseline (--gran) -- */

/* On the line baseline every read asks the whole line: a GPU load with a
 * buffered store in the line sends ReqV(line) and keeps the buffered word
 * (the fill does not undo it); a DeNovo store takes the line with
 * ReqO+data(line), its later loads and stores are local (also after its
 * ACQ: owned data stays), a GPU read of the line is forwarded to it, and
 * after the GPU's ACQ the GPU reads the new value. */
Test(spandex_mesi_line, devices_ask_whole_lines)
{
    expect_log("--gran line --dev 0:gpu --dev 1:denovo --line 32", "ST 0 0x1000 0x5\nLD 0 0x1004\nLD 0 0x1000\n",
               "S 1 0 L ReqV 0x1000 0xff\n"
               "S 2 L M MemRd 0x1000 0xff\n"
               "S 3 L 0 RspV 0x1000 0xff " LINE8 "\n"
               "V 0 2 0x1004 0x1004\n"
               "V 0 3 0x1000 0x5\n"
               "S 4 0 L ReqWT 0x1000 0x1 0x5\n"
               "S 5 L 0 RspWT 0x1000 0x1\n"
               "C 0 1\n");
    expect_log("--gran line --dev 0:gpu --dev 1:denovo --line 32",
               "ST 1 0x1004 0x6\nDRAIN\nLD 0 0x1008\nDRAIN\nACQ 1\nLD 1 0x100c\nST 1 0x1004 0x7\nDRAIN\nACQ 0\n"
               "LD 0 0x1004\n",
               "S 1 1 L ReqO+data 0x1000 0xff\n"
               "S 2 L M MemRd 0x1000 0xff\n"
               "S 3 L 1 RspO+data 0x1000 0xff " LINE8 "\n"
               "C 1 1\n"
               "S 4 0 L ReqV 0x1000 0xff\n"
               "S 5 L 1 FwdReqV 0x1000 0xff r=0\n"
               "S 6 1 0 RspV 0x1000 0xff 0x1000 0x6 " REST "\n"
               "V 0 3 0x1008 0x1008\n"
               "C 1 5\n"
               "V 1 6 0x100c 0x100c\n"
               "C 1 7\n"
               "C 0 9\n"
               "S 7 0 L ReqV 0x1000 0xff\n"
               "S 8 L 1 FwdReqV 0x1000 0xff r=0\n"
               "S 9 1 0 RspV 0x1000 0xff 0x1000 0x7 " REST "\n"
               "V 0 10 0x1004 0x7\n");
}

/* ------------------------------------------ Table V presets (spec 12) -- */

/* The named presets are the devices they name: the same log as the
 * options spelled out (sdg: DeNovo CPUs with ReqWT+data atomics), and
 * spandex-prog and spandex-check take them too; an unknown name is
 * refused with the list. */
Test(spandex_mesi_presets, presets_are_their_options)
{
    static const char *const names[] = {"smg", "smd", "sdg", "sdd", "hmg_line", "hmd_line"};
    static const char *const opts[] = {
        "--dev 0:mesi --dev 1:mesi --dev 2:gpu --dev 3:gpu",
        "--dev 0:mesi --dev 1:mesi --dev 2:denovo --dev 3:denovo",
        "--dev 0:denovo --dev 1:denovo --dev 2:gpu --dev 3:gpu --denovo-rmw wtdata",
        "--dev 0:denovo --dev 1:denovo --dev 2:denovo --dev 3:denovo",
        "--gran line --dev 0:mesi --dev 1:mesi --dev 2:gpu --dev 3:gpu",
        "--gran line --dev 0:mesi --dev 1:mesi --dev 2:denovo --dev 3:denovo"};
    char dir[256], path[300];
    unsigned i;
    cmd_out a, b;
    snprintf(dir, sizeof dir, "%s", fresh_dir("spandex_mesi_presets"));
    snprintf(path, sizeof path, "%s/p.txt", dir);
    for (i = 0; i < 6; i++) {
        run_cap(&a, "build/bin/cohmodel spandex-prog --config %s --pattern mixed --seed %u --ops 200 > %s", names[i],
                i + 1, path);
        cr_assert_eq(a.status, 0, "%s", a.err);
        cmd_out_free(&a);
        run_cap(&a, "build/bin/cohmodel spandex-system --config %s --sched random --seed 3 < %s", names[i], path);
        run_cap(&b, "build/bin/cohmodel spandex-system %s --sched random --seed 3 < %s", opts[i], path);
        cr_assert_eq(a.status, 0, "%s: %s", names[i], a.err);
        cr_expect_str_eq(a.out, b.out, "--config %s is not %s", names[i], opts[i]);
        cr_expect(strstr(a.out, "\nS ") != NULL);
        cmd_out_free(&a);
        cmd_out_free(&b);
        run_cap(&a, "build/bin/cohmodel spandex-system --config %s < %s > %s/l.txt", names[i], path, dir);
        cmd_out_free(&a);
        run_cap(&a, "build/bin/cohmodel spandex-check --config %s --drf --program %s < %s/l.txt", names[i], path, dir);
        cr_expect_eq(a.status, 0, "%s: %s", names[i], a.out);
        cr_expect(strncmp(a.out, "PASS", 4) == 0, "%s", a.out);
        cmd_out_free(&a);
    }
    run_cap(&a, "build/bin/cohmodel spandex-system --config hmg < /dev/null");
    cr_expect_eq(a.status, 2);
    cr_expect(strstr(a.err, "'hmg'") && strstr(a.err, "smg, smd, sdg, sdd, hmg_line, hmd_line"), "%s", a.err);
    cr_expect_str_eq(a.out, "");
    cmd_out_free(&a);
}

/* scripts/spandex-presets.sh: every program under every preset, each log
 * judged PASS (the script stops otherwise), a row of traffic per pair. */
Test(spandex_mesi_presets, comparison_script_runs)
{
    cmd_out r;
    const char *p;
    unsigned rows = 0;
    run_cap(&r, "scripts/spandex-presets.sh --ops 150 --seed 2");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    for (p = r.out; (p = strstr(p, "\n| ")) != NULL; p++)
        rows += strncmp(p, "\n|---", 5) != 0;
    cr_expect_eq(rows, 7 * 6, "%s", r.out);
    cr_expect(strstr(r.out, "| counter | sdg | 0 / 0 |") != NULL, "%s", r.out);
    cmd_out_free(&r);
}
