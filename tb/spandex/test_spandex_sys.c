/*
 * Criterion tests of the composed Spandex system (`cohmodel spandex-system`,
 * spec 9.4, 9.5): the Fig. 1a and 1c message sequences (spec 5), every
 * reachable race column of Table IV (spec 2.3) on DeNovo owners, X2, a
 * Nacked ReqV retried and then replaced (III-C 3, X13), bad programs and
 * options, random programs on 2 and 4 devices under both schedulers, and
 * the cells no such system reaches (FwdReqS, Inv, stray requests) on a TU
 * alone.
 *
 * Expected logs are worked out from the specification; the D lines are
 * left out of the comparisons where the S, V and C lines already fix the
 * order (fifo delivers the oldest message first). Initial memory: the word
 * at byte address A holds A. Run from the repository root (make unit).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spandex_sys_test.h"

/* ------------------------------------------------------------- Fig. 1 -- */
/* Devices as in spec 5: 1 = GPU coherence cache, 2 = accelerator (DeNovo);
 * 32-byte lines (8 words) so the figure's words 4-5 exist. */
#define FIG "--dev 0:gpu --dev 1:gpu --dev 2:denovo --line 32"

Test(spandex_sys_fig, fig1a_word_reqo_and_reqwt_no_blocking)
{
    /* The line is made V by a GPU read; then ReqO(w0-1) is answered by the
     * LLC at once without data, and ReqWT(w4-5) with RspWT: no forward. */
    expect_log(FIG,
               "LD 1 0x1000\nDRAIN\nST 2 0x1000 0xa\nST 2 0x1004 0xb\nDRAIN\nST 1 0x1010 0x11\n"
               "ST 1 0x1014 0x22\nDRAIN\n",
               "S 1 1 L ReqV 0x1000 0xff\n"
               "S 2 L M MemRd 0x1000 0xff\n"
               "S 3 L 1 RspV 0x1000 0xff 0x1000 0x1004 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c\n"
               "V 1 1 0x1000 0x1000\n"
               "S 4 2 L ReqO 0x1000 0x3\n"
               "S 5 L 2 RspO 0x1000 0x3\n"
               "C 2 3\nC 2 4\n"
               "S 6 1 L ReqWT 0x1000 0x30 0x11 0x22\n"
               "S 7 L 1 RspWT 0x1000 0x30\n"
               "C 1 6\nC 1 7\n");
}

Test(spandex_sys_fig, fig1c_line_reqv_with_word_owner)
{
    /* ReqV(line) with w0-1 owned by the accelerator: the LLC answers w2-7
     * and forwards w0-1; the owner answers the GPU directly and stays O;
     * the GPU TU gives the load its word when every word arrived. */
    expect_log(FIG,
               "LD 1 0x1000\nDRAIN\nST 2 0x1000 0xa\nST 2 0x1004 0xb\nDRAIN\nACQ 1\nLD 1 0x1004\nDRAIN\n"
               "LD 2 0x1000\n",
               "S 1 1 L ReqV 0x1000 0xff\n"
               "S 2 L M MemRd 0x1000 0xff\n"
               "S 3 L 1 RspV 0x1000 0xff 0x1000 0x1004 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c\n"
               "V 1 1 0x1000 0x1000\n"
               "S 4 2 L ReqO 0x1000 0x3\n"
               "S 5 L 2 RspO 0x1000 0x3\n"
               "C 2 3\nC 2 4\n"
               "C 1 6\n"
               "S 6 1 L ReqV 0x1000 0xff\n"
               "S 7 L 2 FwdReqV 0x1000 0x3 r=1\n"
               "S 8 L 1 RspV 0x1000 0xfc 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c\n"
               "S 9 2 1 RspV 0x1000 0x3 0xa 0xb\n"
               "V 1 7 0x1004 0xb\n"
               "V 2 9 0x1000 0xa\n");
}

Test(spandex_sys_fig, fig1c_d_lines_follow_fifo_order)
{
    char *out, *err;
    cr_assert_eq(sys_run(FIG, "LD 1 0x1000\nDRAIN\nST 2 0x1000 0xa\nDRAIN\nACQ 1\nLD 1 0x1000\n", &out, &err), 0);
    /* the forward and the LLC's partial RspV leave together; the owner's
     * RspV is delivered last */
    cr_expect(strstr(out, "D 6\nS 7 L 2 FwdReqV 0x1000 0x1 r=1\nS 8 L 1 RspV 0x1000 0xfe") != NULL, "%s", out);
    cr_expect(strstr(out, "D 7\nS 9 2 1 RspV 0x1000 0x1 0xa\nD 8\nD 9\nV 1 6 0x1000 0xa\n") != NULL, "%s", out);
    free(out);
    free(err);
}

/* ------------------------------------------------ Table IV race columns */
/* Devices 0, 2, 3 DeNovo, 1 GPU coherence; 16-byte lines. Every program
 * starts with device 2 owning word 0 of line 0x1000 (value 0x5); its log
 * (messages 1-3, op# 1) is left out. Column numbers as in spec 2.3. */
#define RACE "--dev 0:denovo --dev 1:gpu --dev 2:denovo --dev 3:denovo --line 16"
#define OWN2 "ST 2 0x1000 0x5\nDRAIN\n"
#define OWN2_LOG                                                                                   \
    "S 1 2 L ReqO 0x1000 0x1\nS 2 L M MemRd 0x1000 0xf\nS 3 L 2 RspO 0x1000 0x1\nC 2 1\n"

typedef struct {
    const char *name, *prog, *expect;
} race;

static const race races[] = {
    /* FwdReqV, stable O: RspV, stay O (Fig. 1c); (1) pending ReqO: answer at
     * once with the own data; (1) pending ReqO+data: delayed until the own
     * RMW is done; (2) pending ReqWB: answered from the write-back buffer */
    {"FwdReqV pending ReqO", "ST 3 0x1000 0x6\nREL 3\nLD 1 0x1000\n",
     "S 4 3 L ReqO 0x1000 0x1\nS 5 1 L ReqV 0x1000 0xf\nS 6 L 2 FwdReqO 0x1000 0x1 r=3\n"
     "S 7 L 3 FwdReqV 0x1000 0x1 r=1\nS 8 L 1 RspV 0x1000 0xe 0x1004 0x1008 0x100c\n"
     "S 9 2 3 RspO 0x1000 0x1\nS 10 3 1 RspV 0x1000 0x1 0x6\nC 3 3\nC 3 4\nV 1 5 0x1000 0x6\n"},
    {"FwdReqV pending ReqO+data", "RMW 3 0x1000 add 0x1\nLD 1 0x1000\n",
     "S 4 3 L ReqO+data 0x1000 0x1\nS 5 1 L ReqV 0x1000 0xf\nS 6 L 2 FwdReqO+data 0x1000 0x1 r=3\n"
     "S 7 L 3 FwdReqV 0x1000 0x1 r=1\nS 8 L 1 RspV 0x1000 0xe 0x1004 0x1008 0x100c\n"
     "S 9 2 3 RspO+data 0x1000 0x1 0x5\nS 10 3 1 RspV 0x1000 0x1 0x6\nV 3 3 0x1000 0x5\n"
     "V 1 4 0x1000 0x6\n"},
    {"FwdReqV pending ReqWB", "LD 1 0x1000\nEVICT 2 0x1000\n",
     "S 4 1 L ReqV 0x1000 0xf\nS 5 2 L ReqWB 0x1000 0x1 0x5\nS 6 L 2 FwdReqV 0x1000 0x1 r=1\n"
     "S 7 L 1 RspV 0x1000 0xe 0x1004 0x1008 0x100c\nS 8 L 2 RspWB 0x1000 0x1\n"
     "S 9 2 1 RspV 0x1000 0x1 0x5\nC 2 4\nV 1 3 0x1000 0x5\n"},
    /* FwdReqO: stable O -> RspO, I; (1) pending ReqO: RspO at once, I when
     * the own RspO arrives; (1) pending ReqO+data: RspO at once, the RMW's
     * value stands; (2) pending ReqWB: RspO, the write-back done */
    {"FwdReqO stable O", "ST 3 0x1000 0x6\n",
     "S 4 3 L ReqO 0x1000 0x1\nS 5 L 2 FwdReqO 0x1000 0x1 r=3\nS 6 2 3 RspO 0x1000 0x1\nC 3 3\n"},
    {"FwdReqO pending ReqO", "ST 3 0x1000 0x6\nREL 3\nST 0 0x1000 0x7\nREL 0\n",
     "S 4 3 L ReqO 0x1000 0x1\nS 5 0 L ReqO 0x1000 0x1\nS 6 L 2 FwdReqO 0x1000 0x1 r=3\n"
     "S 7 L 3 FwdReqO 0x1000 0x1 r=0\nS 8 2 3 RspO 0x1000 0x1\nS 9 3 0 RspO 0x1000 0x1\n"
     "C 3 3\nC 3 4\nC 0 5\nC 0 6\n"},
    {"FwdReqO pending ReqO+data", "RMW 3 0x1000 add 0x1\nST 0 0x1000 0x7\nREL 0\n",
     "S 4 3 L ReqO+data 0x1000 0x1\nS 5 0 L ReqO 0x1000 0x1\nS 6 L 2 FwdReqO+data 0x1000 0x1 r=3\n"
     "S 7 L 3 FwdReqO 0x1000 0x1 r=0\nS 8 2 3 RspO+data 0x1000 0x1 0x5\nS 9 3 0 RspO 0x1000 0x1\n"
     "V 3 3 0x1000 0x5\nC 0 4\nC 0 5\n"},
    {"FwdReqO pending ReqWB", "ST 3 0x1000 0x6\nREL 3\nEVICT 2 0x1000\n",
     "S 4 3 L ReqO 0x1000 0x1\nS 5 2 L ReqWB 0x1000 0x1 0x5\nS 6 L 2 FwdReqO 0x1000 0x1 r=3\n"
     "S 7 L 2 RspWB 0x1000 0x1\nS 8 2 3 RspO 0x1000 0x1\nC 2 5\nC 3 3\nC 3 4\n"},
    /* FwdReqO+data: stable O; (1) pending ReqO: own data; (1) pending
     * ReqO+data: delayed, answered with the RMW's result; (2) write-back
     * data */
    {"FwdReqO+data stable O", "RMW 3 0x1000 add 0x1\n",
     "S 4 3 L ReqO+data 0x1000 0x1\nS 5 L 2 FwdReqO+data 0x1000 0x1 r=3\n"
     "S 6 2 3 RspO+data 0x1000 0x1 0x5\nV 3 3 0x1000 0x5\n"},
    {"FwdReqO+data pending ReqO", "ST 3 0x1000 0x6\nREL 3\nRMW 0 0x1000 add 0x1\n",
     "S 4 3 L ReqO 0x1000 0x1\nS 5 0 L ReqO+data 0x1000 0x1\nS 6 L 2 FwdReqO 0x1000 0x1 r=3\n"
     "S 7 L 3 FwdReqO+data 0x1000 0x1 r=0\nS 8 2 3 RspO 0x1000 0x1\nS 9 3 0 RspO+data 0x1000 0x1 0x6\n"
     "C 3 3\nC 3 4\nV 0 5 0x1000 0x6\n"},
    {"FwdReqO+data pending ReqO+data", "RMW 3 0x1000 add 0x1\nRMW 0 0x1000 add 0x10\n",
     "S 4 3 L ReqO+data 0x1000 0x1\nS 5 0 L ReqO+data 0x1000 0x1\n"
     "S 6 L 2 FwdReqO+data 0x1000 0x1 r=3\nS 7 L 3 FwdReqO+data 0x1000 0x1 r=0\n"
     "S 8 2 3 RspO+data 0x1000 0x1 0x5\nS 9 3 0 RspO+data 0x1000 0x1 0x6\nV 3 3 0x1000 0x5\n"
     "V 0 4 0x1000 0x6\n"},
    {"FwdReqO+data pending ReqWB", "RMW 3 0x1000 add 0x1\nEVICT 2 0x1000\n",
     "S 4 3 L ReqO+data 0x1000 0x1\nS 5 2 L ReqWB 0x1000 0x1 0x5\n"
     "S 6 L 2 FwdReqO+data 0x1000 0x1 r=3\nS 7 L 2 RspWB 0x1000 0x1\n"
     "S 8 2 3 RspO+data 0x1000 0x1 0x5\nC 2 4\nV 3 3 0x1000 0x5\n"},
    /* RvkO (a GPU atomic, ReqWT+data): stable O; (1) pending ReqO; (1)
     * pending ReqO+data: delayed; (2) pending ReqWB: RspRvkO with data (X4) */
    {"RvkO stable O", "RMW 1 0x1000 add 0x1\n",
     "S 4 1 L ReqWT+data 0x1000 0x1 add 0x1\nS 5 L 2 RvkO 0x1000 0x1\n"
     "S 6 2 L RspRvkO 0x1000 0x1 0x5\nS 7 L 1 RspWT+data 0x1000 0x1 0x5\nV 1 3 0x1000 0x5\n"},
    {"RvkO pending ReqO", "ST 3 0x1000 0x6\nREL 3\nRMW 1 0x1000 add 0x1\n",
     "S 4 3 L ReqO 0x1000 0x1\nS 5 1 L ReqWT+data 0x1000 0x1 add 0x1\n"
     "S 6 L 2 FwdReqO 0x1000 0x1 r=3\nS 7 L 3 RvkO 0x1000 0x1\nS 8 2 3 RspO 0x1000 0x1\n"
     "S 9 3 L RspRvkO 0x1000 0x1 0x6\nC 3 3\nC 3 4\nS 10 L 1 RspWT+data 0x1000 0x1 0x6\n"
     "V 1 5 0x1000 0x6\n"},
    {"RvkO pending ReqO+data", "RMW 3 0x1000 add 0x1\nRMW 1 0x1000 add 0x10\n",
     "S 4 3 L ReqO+data 0x1000 0x1\nS 5 1 L ReqWT+data 0x1000 0x1 add 0x10\n"
     "S 6 L 2 FwdReqO+data 0x1000 0x1 r=3\nS 7 L 3 RvkO 0x1000 0x1\n"
     "S 8 2 3 RspO+data 0x1000 0x1 0x5\nS 9 3 L RspRvkO 0x1000 0x1 0x6\nV 3 3 0x1000 0x5\n"
     "S 10 L 1 RspWT+data 0x1000 0x1 0x6\nV 1 4 0x1000 0x6\n"},
    {"RvkO pending ReqWB", "RMW 1 0x1000 add 0x1\nEVICT 2 0x1000\n",
     "S 4 1 L ReqWT+data 0x1000 0x1 add 0x1\nS 5 2 L ReqWB 0x1000 0x1 0x5\n"
     "S 6 L 2 RvkO 0x1000 0x1\nS 7 2 L RspRvkO 0x1000 0x1 0x5\nC 2 4\n"
     "S 8 L 1 RspWT+data 0x1000 0x1 0x5\nS 9 L 2 RspWB 0x1000 0x1\nV 1 3 0x1000 0x5\n"},
};

Test(spandex_sys_race, table_iv_columns)
{
    size_t i;
    char prog[512], exp[2048];
    for (i = 0; i < sizeof races / sizeof races[0]; i++) {
        snprintf(prog, sizeof prog, "%s%s", OWN2, races[i].prog);
        snprintf(exp, sizeof exp, "%s%s", OWN2_LOG, races[i].expect);
        expect_log(RACE, prog, exp);
    }
}

Test(spandex_sys_race, x2_reqwt_answered_by_llc_and_owner)
{
    /* X2: a GPU ReqWT over an owned and an unowned word; the LLC answers
     * the unowned word with RspWT and forwards the owned one (FwdReqO), the
     * owner answers the writer with RspO and leaves O (X16); the stores and
     * the REL complete on both. */
    char prog[256], exp[1024];
    snprintf(prog, sizeof prog, "%s%s", OWN2, "ST 1 0x1000 0x9\nST 1 0x1004 0x8\nREL 1\nDRAIN\nLD 2 0x1000\n");
    snprintf(exp, sizeof exp, "%s%s", OWN2_LOG,
             "S 4 1 L ReqWT 0x1000 0x3 0x9 0x8\nS 5 L 2 FwdReqO 0x1000 0x1 r=1\nS 6 L 1 RspWT 0x1000 0x2\n"
             "S 7 2 1 RspO 0x1000 0x1\nC 1 3\nC 1 4\nC 1 5\nS 8 2 L ReqV 0x1000 0xf\n"
             "S 9 L 2 RspV 0x1000 0xf 0x9 0x8 0x1008 0x100c\nV 2 7 0x1000 0x9\n");
    expect_log(RACE, prog, exp);
}

Test(spandex_sys_race, nacked_reqv_retried_then_replaced)
{
    /* The owner lost the word before the forwarded ReqV arrived (FwdReqV is
     * ordered with nothing under --sched random): Nack, a second ReqV
     * (--nack-limit 2) Nacked by the next owner, then the replacement
     * ReqWT+data(rd), which the LLC orders and never Nacks. */
    char *out, *err;
    int rc = sys_run("--dev 0:gpu --dev 1:gpu --dev 2:denovo --dev 3:denovo --line 16 --nack-limit 2 "
                     "--sched random --seed 316",
                     "ST 2 0x1000 0x5\nDRAIN\nLD 1 0x1000\nEVICT 2 0x1000\nST 3 0x1000 0x6\nSTEP 3\n"
                     "EVICT 3 0x1000\nST 2 0x1000 0x7\nSTEP 3\nEVICT 2 0x1000\nDRAIN\n",
                     &out, &err);
    cr_assert_eq(rc, 0, "%s%s", out, err);
    cr_expect(strstr(out, "S 7 L 2 FwdReqV 0x1000 0x1 r=1\n") != NULL, "%s", out);
    cr_expect(strstr(out, "D 7\nS 17 2 1 Nack 0x1000 0x1\nD 17\nS 18 1 L ReqV 0x1000 0x1\n") != NULL, "%s", out);
    cr_expect(strstr(out, "S 19 L 3 FwdReqV 0x1000 0x1 r=1\n") != NULL, "%s", out);
    cr_expect(strstr(out, "D 19\nS 21 3 1 Nack 0x1000 0x1\nD 21\nS 22 1 L ReqWT+data 0x1000 0x1 rd\n") != NULL,
              "%s", out);
    cr_expect(strstr(out, "S 23 L 1 RspWT+data 0x1000 0x1 0x6\nD 23\nV 1 3 0x1000 0x6\n") != NULL, "%s", out);
    free(out);
    free(err);
}

Test(spandex_sys_race, nack_limit_1_replaces_at_once_denovo_reqodata)
{
    /* --nack-limit 1 (the evaluation): the first Nack already brings the
     * replacement; a DeNovo requestor replaces with ReqO+data (default). */
    char *out, *err;
    unsigned seed, found = 0;
    for (seed = 1; seed <= 400 && !found; seed++) {
        char opts[200];
        snprintf(opts, sizeof opts,
                 "--dev 0:denovo --dev 1:denovo --dev 2:denovo --line 16 --sched random --seed %u", seed);
        cr_assert_eq(sys_run(opts, "ST 2 0x1000 0x5\nDRAIN\nLD 1 0x1000\nEVICT 2 0x1000\nDRAIN\n", &out, &err), 0,
                     "%s", out);
        if (strstr(out, " Nack ")) {
            found = 1;
            cr_expect(strstr(out, "1 L ReqO+data 0x1000 0x1\n") != NULL, "%s", out);
            cr_expect(strstr(out, "V 1 3 0x1000 0x5\n") != NULL, "%s", out);
            cr_expect(strstr(out, "1 L ReqV 0x1000 0x1\n") == NULL, "no retry before the replacement\n%s", out);
        }
        free(out);
        free(err);
    }
    cr_expect(found, "no seed of 1..400 Nacked the ReqV");
}

/* ------------------------------------------------------ bad programs -- */
typedef struct {
    const char *prog, *reason;
} badp;

static const badp bads[] = {
    {"LD 0 0x1000\nFOO 1\n", "line 2: unknown operation 'FOO'"},
    {"# a comment\n\nLD 5 0x1000\n", "line 3: device 5: not given by --dev (0..1)"},
    {"ST 0 0x1002 0x1\n", "line 1: address '0x1002' is not word-aligned"},
    {"ST 0 0x1000 0x100000000\n", "line 1: value '0x100000000' is wider than a word"},
    {"ST 0 0x1000\n", "line 1: ST takes 3 arguments, not 2"},
    {"RMW 0 0x1000 xor 0x1\n", "line 1: RMW: 'xor' is not rd|swp|add|and|or"},
    {"RMW 0 0x1000 rd 0x1\n", "line 1: RMW takes 3 arguments, not 4"},
    {"RMW 0 0x1000 add\n", "line 1: RMW takes 4 arguments, not 3"},
    {"LD 0 zz\n", "line 1: 'zz' is not a hex number"},
    {"STEP x\n", "line 1: 'x' is not a decimal number"},
    {"DRAIN 1\n", "line 1: DRAIN takes 0 arguments, not 1"},
    {"ACQ\n", "line 1: ACQ takes 1 argument, not 0"},
};

Test(spandex_sys_bad, refused_with_the_line_and_nothing_written)
{
    size_t i;
    for (i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        char *out, *err;
        int rc = sys_run("--dev 0:gpu --dev 1:denovo", bads[i].prog, &out, &err);
        cr_expect_eq(rc, 2, "%s: status %d", bads[i].prog, rc);
        cr_expect_str_eq(out, "", "%s: wrote %s", bads[i].prog, out);
        cr_expect(strstr(err, bads[i].reason) != NULL, "%s: stderr '%s', not '%s'", bads[i].prog, err,
                  bads[i].reason);
        free(out);
        free(err);
    }
}

Test(spandex_sys_bad, cohmodel_exit_2_nothing_on_stdout)
{
    cmd_out r;
    run_in(&r, "LD 0 0x1000\nST 1 0x1000\n", "build/bin/cohmodel spandex-system --dev 0:gpu --dev 1:denovo");
    cr_expect_eq(r.status, 2);
    cr_expect_str_eq(r.out, "");
    cr_expect(strstr(r.err, "line 2: ST takes 3 arguments, not 2") != NULL, "%s", r.err);
    cmd_out_free(&r);
}

Test(spandex_sys_bad, options_refused)
{
    static const char *const opts[][2] = {
        {"--dev 0:gpu --dev 1:mesi --mesi 1", "--mesi: give the devices with --dev ID:gpu|denovo|mesi"},
        {"--dev 0:gpu --dev 2:denovo", "the IDs must be 0..1, each once"},
        {"--dev 0:gpu --dev 0:denovo", "device 0 given twice"},
        {"--dev 0:cpu", "not ID:gpu|denovo|mesi"},
        {"--line 16", "no devices"},
        {"--dev 0:gpu --sched lifo", "must be fifo or random"},
        {"--dev 0:gpu --denovo-rmw x", "must be odata or wtdata"},
        {"--dev 0:gpu --dev 1:denovo --gran cube", "--gran: 'cube' is not word or line"},
        {"--dev 0:gpu --dev 1:denovo --extra-words 0", "--extra-words: device 0 is not a DeNovo device"},
        {"--dev 0:mesi --dev 1:denovo --extra-words 0-1", "--extra-words: device 0 is not a DeNovo device"},
        {"--dev 0:gpu --dev 1:denovo --extra-words 2", "--extra-words: device 2 is not a DeNovo device"},
        {"--dev 0:gpu --dev 1:denovo --extra-words x", "--extra-words: 'x' is not a list of device IDs"},
    };
    size_t i;
    for (i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        cmd_out r;
        char cmd[300];
        snprintf(cmd, sizeof cmd, "build/bin/cohmodel spandex-system %s", opts[i][0]);
        run_in(&r, "DRAIN\n", cmd);
        cr_expect_eq(r.status, 2, "%s: status %d", opts[i][0], r.status);
        cr_expect_str_eq(r.out, "", "%s", opts[i][0]);
        cr_expect(strstr(r.err, opts[i][1]) != NULL, "%s: '%s'", opts[i][0], r.err);
        cmd_out_free(&r);
    }
}

Test(spandex_sys_bad, watchdog_bound)
{
    spandex_sys_cfg c;
    char err[200];
    spandex_sys_cfg_default(&c);
    cr_assert_eq(spandex_sys_cfg_option(&c, "dev", "0:gpu", err, sizeof err), 0);
    cr_assert_eq(spandex_sys_cfg_option(&c, "dev", "1:denovo", err, sizeof err), 0);
    cr_assert_eq(spandex_sys_cfg_check(&c, err, sizeof err), 0, "%s", err);
    cr_expect_eq(spandex_sys_bound(&c), 4u * 2 * (2 + 16)); /* SYS5: 4 x N x (N + W) */
}

/* ----------------------------------------------------- random programs */
/* A random program over two lines: device d's private words (word d and
 * d + 4 of each line, so lines are falsely shared) and, when `shared`, any
 * word (racy). Returns the expected value of each LD/RMW for private
 * programs in exp[op#] (program order per word is the only order). */
static void rnd_prog(uint64_t seed, unsigned ndev, int shared, char *buf, size_t len, uint64_t *exp, size_t nexp)
{
    uint64_t s = seed, mem[16];
    unsigned i, lineno = 0;
    size_t n = 0;
    for (i = 0; i < 16; i++)
        mem[i] = 0x1000 + 4 * i;
    for (i = 0; i < 70; i++) {
        unsigned d = (unsigned)(cohkit_unit_splitmix(&s) % ndev), k = (unsigned)(cohkit_unit_splitmix(&s) % 100);
        unsigned w = shared ? (unsigned)(cohkit_unit_splitmix(&s) % 16)
                            : (unsigned)(d + 4 * (cohkit_unit_splitmix(&s) % 2) + 8 * (cohkit_unit_splitmix(&s) % 2));
        unsigned a = 0x1000 + 4 * w, v = (unsigned)(cohkit_unit_splitmix(&s) % 0x10000);
        lineno++;
        if (k < 30) {
            n += (size_t)snprintf(buf + n, len - n, "LD %u 0x%x\n", d, a);
            if (lineno < nexp)
                exp[lineno] = mem[w];
        } else if (k < 55) {
            n += (size_t)snprintf(buf + n, len - n, "ST %u 0x%x 0x%x\n", d, a, v);
            mem[w] = v;
        } else if (k < 65) {
            n += (size_t)snprintf(buf + n, len - n, "RMW %u 0x%x add 0x%x\n", d, a, v & 0xf);
            if (lineno < nexp)
                exp[lineno] = mem[w];
            mem[w] = (mem[w] + (v & 0xf)) & 0xffffffffu;
        } else if (k < 70) {
            n += (size_t)snprintf(buf + n, len - n, "ACQ %u\n", d);
        } else if (k < 75) {
            n += (size_t)snprintf(buf + n, len - n, "REL %u\n", d);
        } else if (k < 83) {
            n += (size_t)snprintf(buf + n, len - n, "EVICT %u 0x%x\n", d, a);
        } else if (k < 97) {
            n += (size_t)snprintf(buf + n, len - n, "STEP %u\n", 1 + v % 5);
        } else {
            n += (size_t)snprintf(buf + n, len - n, "DRAIN\n");
        }
    }
}

/* Every V line's value against exp (private programs). */
static void check_values(const char *out, const uint64_t *exp, const char *what)
{
    const char *p = out;
    while ((p = strstr(p, "V ")) != NULL) {
        unsigned dev, op;
        unsigned long long a, v;
        if ((p == out || p[-1] == '\n') && sscanf(p, "V %u %u %llx %llx", &dev, &op, &a, &v) == 4)
            cr_expect_eq(v, exp[op], "%s: op# %u returned 0x%llx, not 0x%llx", what, op, v,
                         (unsigned long long)exp[op]);
        p += 2;
    }
}

static void rnd_runs(unsigned ndev, int shared)
{
    static const char *const kinds[] = {"gpu", "denovo"};
    uint64_t seed;
    for (seed = 1; seed <= 40; seed++) {
        char prog[4096], opts[300], what[512];
        uint64_t exp[80];
        unsigned d, sched;
        size_t n = 0;
        rnd_prog(seed, ndev, shared, prog, sizeof prog, exp, 80);
        for (d = 0; d < ndev; d++)
            n += (size_t)snprintf(opts + n, sizeof opts - n, "--dev %u:%s ", d, kinds[(seed >> d) & 1]);
        n += (size_t)snprintf(opts + n, sizeof opts - n, "--line 32%s%s",
                              seed % 3 == 0 ? " --denovo-rmw wtdata" : "",
                              seed % 4 == 0 ? " --sets 1 --ways 1 --wb 1 --nack-limit 2" : "");
        for (sched = 0; sched < 2; sched++) {
            char o2[400], *out, *err;
            int rc;
            snprintf(o2, sizeof o2, "%s --sched %s --seed %llu", opts, sched ? "random" : "fifo",
                     (unsigned long long)seed);
            rc = sys_run(o2, prog, &out, &err);
            snprintf(what, sizeof what, "[%s]", o2);
            cr_expect_eq(rc, 0, "%s status %d\n%s%s", what, rc, prog, err);
            cr_expect(strstr(out, "\nE ") == NULL && strncmp(out, "E ", 2) != 0, "%s\n%s", what, out);
            if (!shared)
                check_values(out, exp, what);
            free(out);
            free(err);
        }
    }
}

Test(spandex_sys_random, private_words_2_devices) { rnd_runs(2, 0); }
Test(spandex_sys_random, private_words_4_devices) { rnd_runs(4, 0); }
Test(spandex_sys_random, racy_words_2_devices_complete) { rnd_runs(2, 1); }
Test(spandex_sys_random, racy_words_4_devices_complete) { rnd_runs(4, 1); }

/* ------------------------------------------- one TU through its API -- */
/* The cells no GPU/DeNovo system reaches (only MESI devices issue ReqS, so
 * no FwdReqS and no Inv): a TU alone, its messages recorded
 * (spandex_sys_test.h). */
Test(spandex_sys_tu, gpu_acks_a_stray_inv_nacks_a_stray_fwdreqv_refuses_a_downgrade)
{
    rec r;
    spandex_tu *t = mk_tu(SPANDEX_TU_GPU, NULL, 0, &r);
    spandex_msg m = msg(SPANDEX_INV, 0, 0);
    spandex_tu_recv(t, SPANDEX_TU_LLC, &m);
    tu_recv_llc(t, SPANDEX_FWDREQV, 3, 0x6);
    cr_assert_eq(r.n, 2);
    cr_expect(r.m[0].kind == SPANDEX_ACK && r.dst[0] == SPANDEX_TU_LLC && r.m[0].dev == 2);
    cr_expect(r.m[1].kind == SPANDEX_NACK && r.dst[1] == 3 && r.m[1].mask == 0x6);
    cr_expect_str_empty(r.fail);
    tu_recv_llc(t, SPANDEX_FWDREQO, 3, 0x1);
    cr_expect(strstr(r.fail, "GPU coherence cache received FwdReqO") != NULL, "%s", r.fail);
    spandex_tu_free(t);
}

Test(spandex_sys_tu, denovo_fwdreqs_stable_and_pending_and_other)
{
    /* op 0: ST word 0 (buffered, ReqO when idle); op 1: LD word 0 */
    static const spandex_sop ops[] = {{SPANDEX_SOP_ST, 1, 2, 0x1000, 0, 0x77},
                                      {SPANDEX_SOP_LD, 2, 2, 0x1000, 0, 0}};
    rec r;
    spandex_tu *t = mk_tu(SPANDEX_TU_DENOVO, ops, 2, &r);
    spandex_msg m;
    spandex_tu_push(t, 0);
    spandex_tu_pump(t, 0);
    cr_expect_eq(r.n, 0, "the store waits in the buffer");
    spandex_tu_pump(t, 1);
    cr_assert_eq(r.n, 1);
    cr_expect(r.m[0].kind == SPANDEX_REQO && r.m[0].mask == 0x1 && r.dst[0] == SPANDEX_TU_LLC);
    /* FwdReqS while the ReqO is pending: RspS to the requestor and RspRvkO
     * to the LLC with the own data; the word ends I when the RspO arrives */
    tu_recv_llc(t, SPANDEX_FWDREQS, 0, 0x1);
    cr_assert_eq(r.n, 3);
    cr_expect(r.m[1].kind == SPANDEX_RSPS && r.dst[1] == 0 && r.m[1].v[0] == 0x77);
    cr_expect(r.m[2].kind == SPANDEX_RSPRVKO && r.dst[2] == SPANDEX_TU_LLC && r.m[2].v[0] == 0x77);
    tu_recv_llc(t, SPANDEX_RSPO, 0, 0x1);
    cr_assert_eq(r.ndone, 1);
    cr_expect_eq(r.done[0], 0);
    /* the word is I: a FwdReqV is Nacked (column 3), the load misses */
    tu_recv_llc(t, SPANDEX_FWDREQV, 3, 0x1);
    cr_expect(r.m[3].kind == SPANDEX_NACK && r.dst[3] == 3);
    spandex_tu_push(t, 1);
    spandex_tu_pump(t, 0);
    cr_assert_eq(r.n, 5);
    cr_expect(r.m[4].kind == SPANDEX_REQV && r.m[4].mask == 0xf);
    /* the fill installs V and gives the load its word; an Inv is Acked
     * without a change (Table IV column 3) */
    m = msg(SPANDEX_RSPV, 0, 0xf);
    m.v[0] = 0x99;
    spandex_tu_recv(t, SPANDEX_TU_LLC, &m);
    cr_assert_eq(r.ndone, 2);
    cr_expect_eq(r.v[1], 0x99);
    tu_recv_llc(t, SPANDEX_INV, 0, 0);
    cr_expect(r.m[5].kind == SPANDEX_ACK);
    /* a downgrade for a word it does not own: protocol error */
    tu_recv_llc(t, SPANDEX_FWDREQS, 0, 0x2);
    cr_expect(strstr(r.fail, "FwdReqS for words it does not own") != NULL, "%s", r.fail);
    spandex_tu_free(t);
}

Test(spandex_sys_tu, denovo_fwdreqs_stable_o_answers_twice_and_leaves)
{
    static const spandex_sop ops[] = {{SPANDEX_SOP_ST, 1, 2, 0x1004, 0, 0x55}};
    rec r;
    spandex_tu *t = mk_tu(SPANDEX_TU_DENOVO, ops, 1, &r);
    spandex_tu_push(t, 0);
    spandex_tu_pump(t, 1);
    tu_recv_llc(t, SPANDEX_RSPO, 0, 0x2);
    cr_assert_eq(r.ndone, 1);
    tu_recv_llc(t, SPANDEX_FWDREQS, 1, 0x2);
    cr_assert_eq(r.n, 3);
    cr_expect(r.m[1].kind == SPANDEX_RSPS && r.dst[1] == 1 && r.m[1].mask == 0x2 && r.m[1].v[1] == 0x55);
    cr_expect(r.m[2].kind == SPANDEX_RSPRVKO && r.dst[2] == SPANDEX_TU_LLC && r.m[2].v[1] == 0x55);
    tu_recv_llc(t, SPANDEX_FWDREQV, 3, 0x2);
    cr_expect(r.m[3].kind == SPANDEX_NACK, "DeNovo has no S: the word left for I");
    cr_expect_str_empty(r.fail);
    spandex_tu_free(t);
}

/* Extra words (Table II's footnote, spandex_tu_extra_words): a DeNovo read
 * miss asks its word; the LLC's RspV of more words completes it, and the
 * extra words go into the L1 as V but one a pending ReqO names, so a later
 * load of one hits with no message. GPU coherence takes the words its
 * request waits for and drops the rest, without a protocol error. */
Test(spandex_sys_tu, denovo_installs_extra_words_gpu_drops_them)
{
    static const spandex_sop ops[] = {{SPANDEX_SOP_ST, 1, 2, 0x100c, 0, 0x77},
                                      {SPANDEX_SOP_LD, 2, 2, 0x1000, 0, 0},
                                      {SPANDEX_SOP_LD, 3, 2, 0x1004, 0, 0},
                                      {SPANDEX_SOP_LD, 4, 2, 0x100c, 0, 0}};
    rec r;
    spandex_tu *t = mk_tu(SPANDEX_TU_DENOVO, ops, 4, &r);
    spandex_msg m;
    unsigned w;
    spandex_tu_extra_words(t, 1);
    spandex_tu_push(t, 0);
    spandex_tu_pump(t, 1);
    cr_assert_eq(r.n, 1);
    cr_expect(r.m[0].kind == SPANDEX_REQO && r.m[0].mask == 0x8);
    spandex_tu_push(t, 1);
    spandex_tu_pump(t, 0);
    cr_assert_eq(r.n, 2);
    cr_expect(r.m[1].kind == SPANDEX_REQV && r.m[1].mask == 0x1, "a read asks its word: 0x%llx",
              (unsigned long long)r.m[1].mask);
    m = msg(SPANDEX_RSPV, 0, 0xf);
    for (w = 0; w < 4; w++)
        m.v[w] = 0x10 + w;
    spandex_tu_recv(t, SPANDEX_TU_LLC, &m);
    cr_expect_str_empty(r.fail);
    cr_assert_eq(r.ndone, 1);
    cr_expect(r.done[0] == 1 && r.v[0] == 0x10);
    /* word 1 came as an extra word: the load hits */
    spandex_tu_push(t, 2);
    spandex_tu_pump(t, 0);
    cr_expect_eq(r.n, 2, "a load of an extra word sent a message");
    cr_assert_eq(r.ndone, 2);
    cr_expect(r.done[1] == 2 && r.v[1] == 0x11);
    /* word 3 was not installed: the load sees its own store, then the RspO */
    spandex_tu_push(t, 3);
    spandex_tu_pump(t, 0);
    cr_assert_eq(r.ndone, 3);
    cr_expect(r.done[2] == 3 && r.v[2] == 0x77, "word 3: 0x%llx", (unsigned long long)r.v[2]);
    tu_recv_llc(t, SPANDEX_RSPO, 0, 0x8);
    cr_expect_eq(r.ndone, 4);
    cr_expect_str_empty(r.fail);
    spandex_tu_free(t);

    /* GPU coherence: a buffered store keeps word 3 out of the read */
    t = mk_tu(SPANDEX_TU_GPU, ops, 2, &r);
    spandex_tu_push(t, 0);
    spandex_tu_push(t, 1);
    spandex_tu_pump(t, 0);
    cr_assert_eq(r.n, 1);
    cr_expect(r.m[0].kind == SPANDEX_REQV && r.m[0].mask == 0x7);
    m = msg(SPANDEX_RSPV, 0, 0xf);
    spandex_tu_recv(t, SPANDEX_TU_LLC, &m);
    cr_expect_str_empty(r.fail);
    cr_expect_eq(r.ndone, 1);
    spandex_tu_free(t);
}
