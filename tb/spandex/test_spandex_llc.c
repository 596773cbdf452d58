/*
 * Criterion tests of the Spandex LLC functional model (cmodel/spandex):
 * every cell of the reconstructed Table III (spec 2.2), the merging rules
 * 1-7 and the readings X3, X4, X9, X10, X15, X18 (spec 8), the Fig. 1 LLC
 * traces (spec 5, 9.2), eviction (spec 3.5), deferral (spec 3.4), the ReqS
 * options and the evaluated policy (X6), the trace tool's refusals (spec
 * 9.2), the LLC1-LLC8 checker (spec 6) and long spandex-gen traces (9.3).
 *
 * Every expected output below is worked out from the specification (the
 * row names cite the cell, rule or reading). Most tests use 16-byte lines (--line 16): four 32-bit words,
 * masks 0x1..0xf, and the initial memory value of the word at byte address
 * A is A, so line 0x100 holds 0x100 0x104 0x108 0x10c. Every trace runs in
 * process through spandex_llc_trace_run with --check and --dump, so the
 * checker must stay silent on the model's output and the LINE records of
 * the resident lines end each expected output.
 * Run from the repository root (make unit).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spandex_gen.h"
#include "spandex_llc.h"
#include "spandex_llc_check.h"
#include "test_util.h"

/* ------------------------------------------------------------ helpers -- */

/* One directed trace: options of spandex-llc, the input, and the exact
 * output of `cohmodel spandex-llc OPTIONS --check --dump`. */
typedef struct {
    const char *name;
    const char *opts;
    const char *trace;
    const char *expect;
} row;

/* The configuration of an option string ("--line 16 --reqs 1"; --config
 * NAME first if present), validated as the trace tool does. */
static void mk_cfg(spandex_llc_cfg *c, const char *opts)
{
    char buf[512], err[256], *tok[32], *save = NULL, *t;
    size_t n = 0, i;
    snprintf(buf, sizeof buf, "%s", opts);
    for (t = strtok_r(buf, " ", &save); t && n < 32; t = strtok_r(NULL, " ", &save))
        tok[n++] = t;
    cr_assert_eq(n % 2, 0, "options '%s' are not name/value pairs", opts);
    spandex_llc_cfg_default(c);
    for (i = 0; i < n; i += 2)
        if (strcmp(tok[i], "--config") == 0)
            cr_assert_eq(spandex_llc_cfg_preset(c, tok[i + 1]), 0, "preset %s", tok[i + 1]);
    for (i = 0; i < n; i += 2) {
        if (strcmp(tok[i], "--config") == 0)
            continue;
        cr_assert(strncmp(tok[i], "--", 2) == 0, "'%s' is not an option", tok[i]);
        cr_assert_eq(spandex_llc_cfg_option(c, tok[i] + 2, tok[i + 1], err, sizeof err), 0,
                     "%s %s: %s", tok[i], tok[i + 1], err);
    }
    cr_assert_eq(spandex_llc_cfg_check_model(c, err, sizeof err), 0, "%s: %s", opts, err);
}

/* Runs the trace tool in process: its status, standard output and standard
 * error (malloc) in *out and *err. */
static int tool(const spandex_llc_cfg *c, int check, int dump, const char *trace, char **out,
                char **err)
{
    spandex_llc_flags fl = {dump, 0, check};
    size_t no = 0, ne = 0;
    FILE *in = *trace ? fmemopen((void *)trace, strlen(trace), "r") : fopen("/dev/null", "r");
    FILE *fo = open_memstream(out, &no), *fe = open_memstream(err, &ne);
    int rc;
    cr_assert(in && fo && fe);
    rc = spandex_llc_trace_run(c, &fl, in, "trace", fo, fe);
    fclose(in);
    fclose(fo);
    fclose(fe);
    return rc;
}

/* A row's output must be exactly the expected text, with a silent checker. */
static void run_row(const row *r)
{
    spandex_llc_cfg c;
    char *out, *err;
    int rc;
    mk_cfg(&c, r->opts);
    rc = tool(&c, 1, 1, r->trace, &out, &err);
    cr_expect_eq(rc, 0, "%s: status %d, stderr: %s", r->name, rc, err);
    cr_expect_str_eq(out, r->expect, "%s [%s]\ntrace:\n%s--- expected:\n%s--- model:\n%s", r->name, r->opts,
                     r->trace, r->expect, out);
    free(out);
    free(err);
}

#define NROWS(t) (sizeof(t) / sizeof((t)[0]))
/* One parameterized test per row of table T, in suite S. */
#define ROW_TESTS(S, T)                                                                            \
    ParameterizedTestParameters(S, rows)                                                           \
    {                                                                                              \
        static size_t idx[NROWS(T)];                                                               \
        size_t i;                                                                                  \
        for (i = 0; i < NROWS(T); i++)                                                             \
            idx[i] = i;                                                                            \
        return cr_make_param_array(size_t, idx, NROWS(T));                                         \
    }                                                                                              \
    ParameterizedTest(size_t *i, S, rows) { run_row(&T[*i]); }

/* The rows' setups (line 0x100, requestor 1 in the cells): a V line read
 * by device 3, an S line shared by device 3 (--reqs 1), words 1-2 owned
 * by device 2. */
#define L16 "--line 16"
#define L16R1 "--line 16 --reqs 1"
#define V_IN "ReqV 3 0x100 0xf\n"
#define V_OUT "MemRd 0x100\nRspV 3 0x100 0xf 0x100 0x104 0x108 0x10c\n"
#define S_IN "ReqS 3 0x100 0xf\n"
#define S_OUT "MemRd 0x100\nRspS 3 0x100 0xf 0x100 0x104 0x108 0x10c\n"
#define O_IN "ReqO+data 2 0x100 0x6\n"
#define O_OUT "MemRd 0x100\nRspO+data 2 0x100 0x6 0x104 0x108\n"
#define LV(d, own) "LINE 0x100 V sh=0x0 d=" #d " own=" own "\n"
#define FREE "-,-,-,-"

/* ------------------------------------------------- Table III (spec 2.2) -- */

/* Each request type against each word state: I (line absent), V, S, O
 * (owner 2, not the requestor 1). Words 1-2 (mask 0x6) are requested. */
static const row table3[] = {
    /* ReqV */
    {"ReqV I", L16, "ReqV 1 0x100 0x6\n", "MemRd 0x100\nRspV 1 0x100 0x6 0x104 0x108\n" LV(0, FREE)},
    {"ReqV V", L16, V_IN "ReqV 1 0x100 0x6\n", V_OUT "RspV 1 0x100 0x6 0x104 0x108\n" LV(0, FREE)},
    {"ReqV S", L16R1, S_IN "ReqV 1 0x100 0x6\n",
     S_OUT "RspV 1 0x100 0x6 0x104 0x108\nLINE 0x100 S sh=0x8 d=0 own=-,-,-,-\n"},
    {"ReqV O", L16, O_IN "ReqV 1 0x100 0x6\n", O_OUT "FwdReqV 2 0x100 0x6 1\n" LV(0, "-,2,2,-")},
    {"ReqV O and V words", L16, O_IN "ReqV 1 0x100 0xf\n",
     O_OUT "FwdReqV 2 0x100 0x6 1\nRspV 1 0x100 0x9 0x100 0x10c\n" LV(0, "-,2,2,-")},
    /* ReqS, option (1) */
    {"ReqS(1) I", L16R1, "ReqS 1 0x100 0x6\n",
     "MemRd 0x100\nRspS 1 0x100 0x6 0x104 0x108\nLINE 0x100 S sh=0x2 d=0 own=-,-,-,-\n"},
    {"ReqS(1) V", L16R1, V_IN "ReqS 1 0x100 0x6\n",
     V_OUT "RspS 1 0x100 0x6 0x104 0x108\nLINE 0x100 S sh=0x2 d=0 own=-,-,-,-\n"},
    {"ReqS(1) S", L16R1, S_IN "ReqS 1 0x100 0x6\n",
     S_OUT "RspS 1 0x100 0x6 0x104 0x108\nLINE 0x100 S sh=0xa d=0 own=-,-,-,-\n"},
    {"ReqS(1) O", L16R1, O_IN "ReqS 1 0x100 0x6\nRspRvkO 2 0x100 0x6 0x55 0x66\nReqV 0 0x100 0xf\n",
     O_OUT "FwdReqS 2 0x100 0x6 1\nRspV 0 0x100 0xf 0x100 0x55 0x66 0x10c\n"
           "LINE 0x100 S sh=0x6 d=1 own=-,-,-,-\n"},
    {"ReqS(1) O and V words", L16R1, O_IN "ReqS 1 0x100 0xf\nRspRvkO 2 0x100 0x6 0x55 0x66\n",
     O_OUT "FwdReqS 2 0x100 0x6 1\nRspS 1 0x100 0x9 0x100 0x10c\nLINE 0x100 S sh=0x6 d=1 own=-,-,-,-\n"},
    /* ReqS, option (2): S is never reached */
    {"ReqS(2) I", "--line 16 --reqs 2", "ReqS 1 0x100 0x6\n",
     "MemRd 0x100\nRspV 1 0x100 0x6 0x104 0x108\n" LV(0, FREE)},
    {"ReqS(2) V", "--line 16 --reqs 2", V_IN "ReqS 1 0x100 0x6\n",
     V_OUT "RspV 1 0x100 0x6 0x104 0x108\n" LV(0, FREE)},
    {"ReqS(2) O", "--line 16 --reqs 2", O_IN "ReqS 1 0x100 0x6\n",
     O_OUT "FwdReqV 2 0x100 0x6 1\n" LV(0, "-,2,2,-")},
    /* ReqS, option (3): as ReqO+data; S is never reached */
    {"ReqS(3) I", "--line 16 --reqs 3", "ReqS 1 0x100 0x6\n",
     "MemRd 0x100\nRspO+data 1 0x100 0x6 0x104 0x108\n" LV(0, "-,1,1,-")},
    {"ReqS(3) I whole line", "--line 16 --reqs 3", "ReqS 1 0x100 0xf\n",
     "MemRd 0x100\nRspO+data 1 0x100 0xf 0x100 0x104 0x108 0x10c\n" LV(0, "1,1,1,1")},
    {"ReqS(3) V", "--line 16 --reqs 3", V_IN "ReqS 1 0x100 0x6\n",
     V_OUT "RspO+data 1 0x100 0x6 0x104 0x108\n" LV(0, "-,1,1,-")},
    {"ReqS(3) O", "--line 16 --reqs 3", O_IN "ReqS 1 0x100 0x6\n",
     O_OUT "FwdReqO+data 2 0x100 0x6 1\n" LV(0, "-,1,1,-")},
    /* ReqWT (a ReqV of device 3 reads the words back) */
    {"ReqWT I", L16, "ReqWT 1 0x100 0x6 0x11 0x22\nReqV 3 0x100 0xf\n",
     "MemRd 0x100\nRspWT 1 0x100 0x6\nRspV 3 0x100 0xf 0x100 0x11 0x22 0x10c\n" LV(1, FREE)},
    {"ReqWT I whole line", L16, "ReqWT 1 0x100 0xf 0x1 0x2 0x3 0x4\nReqV 3 0x100 0xf\n",
     "RspWT 1 0x100 0xf\nRspV 3 0x100 0xf 0x1 0x2 0x3 0x4\n" LV(1, FREE)},
    {"ReqWT V", L16, V_IN "ReqWT 1 0x100 0x6 0x11 0x22\nReqV 3 0x100 0x6\n",
     V_OUT "RspWT 1 0x100 0x6\nRspV 3 0x100 0x6 0x11 0x22\n" LV(1, FREE)},
    {"ReqWT S", L16R1, S_IN "ReqWT 1 0x100 0x6 0x11 0x22\nAck 3 0x100\nReqV 3 0x100 0xf\n",
     S_OUT "Inv 3 0x100\nRspWT 1 0x100 0x6\nRspV 3 0x100 0xf 0x100 0x11 0x22 0x10c\n" LV(1, FREE)},
    {"ReqWT O", L16, O_IN "ReqWT 1 0x100 0x6 0x11 0x22\nReqV 3 0x100 0xf\n",
     O_OUT "FwdReqO 2 0x100 0x6 1\nRspV 3 0x100 0xf 0x100 0x11 0x22 0x10c\n" LV(1, FREE)},
    {"ReqWT O and V words", L16, O_IN "ReqWT 1 0x100 0xf 0x1 0x2 0x3 0x4\nReqV 3 0x100 0xf\n",
     O_OUT "FwdReqO 2 0x100 0x6 1\nRspWT 1 0x100 0x9\nRspV 3 0x100 0xf 0x1 0x2 0x3 0x4\n" LV(1, FREE)},
    /* ReqO */
    {"ReqO I", L16, "ReqO 1 0x100 0x6\n", "MemRd 0x100\nRspO 1 0x100 0x6\n" LV(0, "-,1,1,-")},
    {"ReqO I whole line", L16, "ReqO 1 0x100 0xf\n", "RspO 1 0x100 0xf\n" LV(0, "1,1,1,1")},
    {"ReqO V", L16, V_IN "ReqO 1 0x100 0x6\n", V_OUT "RspO 1 0x100 0x6\n" LV(0, "-,1,1,-")},
    {"ReqO S", L16R1, S_IN "ReqO 1 0x100 0x6\nAck 3 0x100\n",
     S_OUT "Inv 3 0x100\nRspO 1 0x100 0x6\n" LV(0, "-,1,1,-")},
    {"ReqO O", L16, O_IN "ReqO 1 0x100 0x6\n", O_OUT "FwdReqO 2 0x100 0x6 1\n" LV(0, "-,1,1,-")},
    {"ReqO O and V words", L16, O_IN "ReqO 1 0x100 0xf\n",
     O_OUT "FwdReqO 2 0x100 0x6 1\nRspO 1 0x100 0x9\n" LV(0, "1,1,1,1")},
    /* ReqWT+data: the response carries the values before the update */
    {"ReqWT+data I add", L16, "ReqWT+data 1 0x100 0x6 add 0x5 0x6\nReqV 3 0x100 0x6\n",
     "MemRd 0x100\nRspWT+data 1 0x100 0x6 0x104 0x108\nRspV 3 0x100 0x6 0x109 0x10e\n" LV(1, FREE)},
    {"ReqWT+data I rd whole line", L16, "ReqWT+data 1 0x100 0xf rd\n",
     "MemRd 0x100\nRspWT+data 1 0x100 0xf 0x100 0x104 0x108 0x10c\n" LV(0, FREE)},
    {"ReqWT+data V rd", L16, V_IN "ReqWT+data 1 0x100 0x6 rd\nReqV 3 0x100 0x6\n",
     V_OUT "RspWT+data 1 0x100 0x6 0x104 0x108\nRspV 3 0x100 0x6 0x104 0x108\n" LV(0, FREE)},
    {"ReqWT+data V swp", L16, V_IN "ReqWT+data 1 0x100 0x6 swp 0xaa 0xbb\nReqV 3 0x100 0x6\n",
     V_OUT "RspWT+data 1 0x100 0x6 0x104 0x108\nRspV 3 0x100 0x6 0xaa 0xbb\n" LV(1, FREE)},
    {"ReqWT+data V add", L16, V_IN "ReqWT+data 1 0x100 0x6 add 0x5 0x6\nReqV 3 0x100 0x6\n",
     V_OUT "RspWT+data 1 0x100 0x6 0x104 0x108\nRspV 3 0x100 0x6 0x109 0x10e\n" LV(1, FREE)},
    {"ReqWT+data V and", L16, V_IN "ReqWT+data 1 0x100 0x6 and 0xf0 0xf\nReqV 3 0x100 0x6\n",
     V_OUT "RspWT+data 1 0x100 0x6 0x104 0x108\nRspV 3 0x100 0x6 0x0 0x8\n" LV(1, FREE)},
    {"ReqWT+data V or", L16, V_IN "ReqWT+data 1 0x100 0x6 or 0x3 0x3\nReqV 3 0x100 0x6\n",
     V_OUT "RspWT+data 1 0x100 0x6 0x104 0x108\nRspV 3 0x100 0x6 0x107 0x10b\n" LV(1, FREE)},
    {"ReqWT+data V add wraps at the word width", L16,
     V_IN "ReqWT 1 0x100 0x1 0xffffffff\nReqWT+data 1 0x100 0x1 add 0x2\nReqV 3 0x100 0x1\n",
     V_OUT "RspWT 1 0x100 0x1\nRspWT+data 1 0x100 0x1 0xffffffff\nRspV 3 0x100 0x1 0x1\n" LV(1, FREE)},
    {"ReqWT+data S add", L16R1, S_IN "ReqWT+data 1 0x100 0x6 add 0x5 0x6\nAck 3 0x100\nReqV 3 0x100 0x6\n",
     S_OUT "Inv 3 0x100\nRspWT+data 1 0x100 0x6 0x104 0x108\nRspV 3 0x100 0x6 0x109 0x10e\n" LV(1, FREE)},
    {"ReqWT+data S rd", L16R1, S_IN "ReqWT+data 1 0x100 0x6 rd\nAck 3 0x100\n",
     S_OUT "Inv 3 0x100\nRspWT+data 1 0x100 0x6 0x104 0x108\n" LV(0, FREE)},
    {"ReqWT+data O add", L16,
     O_IN "ReqWT+data 1 0x100 0x6 add 0x5 0x6\nRspRvkO 2 0x100 0x6 0x50 0x60\nReqV 3 0x100 0x6\n",
     O_OUT "RvkO 2 0x100 0x6\nRspWT+data 1 0x100 0x6 0x50 0x60\nRspV 3 0x100 0x6 0x55 0x66\n" LV(1, FREE)},
    {"ReqWT+data O rd revokes (X18)", L16, O_IN "ReqWT+data 1 0x100 0x6 rd\nRspRvkO 2 0x100 0x6 0x50 0x60\n",
     O_OUT "RvkO 2 0x100 0x6\nRspWT+data 1 0x100 0x6 0x50 0x60\n" LV(1, FREE)},
    {"ReqWT+data O and V words swp", L16,
     O_IN "ReqWT+data 1 0x100 0xf swp 0x1 0x2 0x3 0x4\nRspRvkO 2 0x100 0x6 0x50 0x60\nReqV 3 0x100 0xf\n",
     O_OUT "RvkO 2 0x100 0x6\nRspWT+data 1 0x100 0xf 0x100 0x50 0x60 0x10c\n"
           "RspV 3 0x100 0xf 0x1 0x2 0x3 0x4\n" LV(1, FREE)},
    /* ReqO+data: a fill even for the whole line (rule 6) */
    {"ReqO+data I", L16, "ReqO+data 1 0x100 0x6\n",
     "MemRd 0x100\nRspO+data 1 0x100 0x6 0x104 0x108\n" LV(0, "-,1,1,-")},
    {"ReqO+data I whole line", L16, "ReqO+data 1 0x100 0xf\n",
     "MemRd 0x100\nRspO+data 1 0x100 0xf 0x100 0x104 0x108 0x10c\n" LV(0, "1,1,1,1")},
    {"ReqO+data V", L16, V_IN "ReqO+data 1 0x100 0x6\n",
     V_OUT "RspO+data 1 0x100 0x6 0x104 0x108\n" LV(0, "-,1,1,-")},
    {"ReqO+data S", L16R1, S_IN "ReqO+data 1 0x100 0x6\nAck 3 0x100\n",
     S_OUT "Inv 3 0x100\nRspO+data 1 0x100 0x6 0x104 0x108\n" LV(0, "-,1,1,-")},
    {"ReqO+data O", L16, O_IN "ReqO+data 1 0x100 0x6\n",
     O_OUT "FwdReqO+data 2 0x100 0x6 1\n" LV(0, "-,1,1,-")},
    /* ReqWB from the owner */
    {"ReqWB owner", L16, "ReqO+data 1 0x100 0x6\nReqWB 1 0x100 0x6 0x11 0x22\nReqV 3 0x100 0xf\n",
     "MemRd 0x100\nRspO+data 1 0x100 0x6 0x104 0x108\nRspWB 1 0x100 0x6\n"
     "RspV 3 0x100 0xf 0x100 0x11 0x22 0x10c\n" LV(1, FREE)},
    {"ReqWB owner, some words not its own", L16, O_IN "ReqWB 2 0x100 0xf 0xa 0xb 0xc 0xd\nReqV 3 0x100 0xf\n",
     O_OUT "RspWB 2 0x100 0xf\nRspV 3 0x100 0xf 0x100 0xb 0xc 0x10c\n" LV(1, FREE)},
    /* ReqWB from a non-owner: data dropped, no Inv, no allocation */
    {"ReqWB non-owner I", L16, "ReqWB 1 0x100 0x6 0x11 0x22\n", "RspWB 1 0x100 0x6\n"},
    {"ReqWB non-owner V", L16, V_IN "ReqWB 1 0x100 0x6 0x11 0x22\nReqV 3 0x100 0x6\n",
     V_OUT "RspWB 1 0x100 0x6\nRspV 3 0x100 0x6 0x104 0x108\n" LV(0, FREE)},
    {"ReqWB non-owner S (X3)", L16R1, S_IN "ReqWB 1 0x100 0x6 0x11 0x22\n",
     S_OUT "RspWB 1 0x100 0x6\nLINE 0x100 S sh=0x8 d=0 own=-,-,-,-\n"},
    {"ReqWB non-owner O", L16, O_IN "ReqWB 1 0x100 0x6 0x11 0x22\n",
     O_OUT "RspWB 1 0x100 0x6\n" LV(0, "-,2,2,-")},
};
ROW_TESTS(spandex_table3, table3)

/* ------------------------------------- merging rules 1-7, readings X3-X18 -- */

/* Words 0 and 2 owned by device 3, word 1 by device 2 (rule 2's order is
 * the owner's lowest word, not its ID). */
#define O2_IN "ReqO 3 0x100 0x5\nReqO 2 0x100 0x2\n"
#define O2_OUT "MemRd 0x100\nRspO 3 0x100 0x5\nRspO 2 0x100 0x2\n"
/* An S line (sharer 3) whose words 1-2 are owned by device 2 (--reqs 1). */
#define SO_IN O_IN "ReqS 3 0x100 0x9\n"
#define SO_OUT O_OUT "RspS 3 0x100 0x9 0x100 0x10c\n"
/* An S line shared by the requestor 1 and device 3 (--reqs 1). */
#define S13_IN "ReqS 1 0x100 0xf\nReqS 3 0x100 0xf\n"
#define S13_OUT "MemRd 0x100\nRspS 1 0x100 0xf 0x100 0x104 0x108 0x10c\nRspS 3 0x100 0xf 0x100 0x104 0x108 0x10c\n"

static const row rules[] = {
    {"rule 1: one response for non-adjacent unowned words", L16, "ReqO+data 2 0x100 0x5\nReqV 1 0x100 0xf\n",
     "MemRd 0x100\nRspO+data 2 0x100 0x5 0x100 0x108\nFwdReqV 2 0x100 0x5 1\nRspV 1 0x100 0xa 0x104 0x10c\n"
     LV(0, "2,-,2,-")},
    {"rule 2: ReqV, one forward per owner by lowest word", L16, O2_IN "ReqV 1 0x100 0xf\n",
     O2_OUT "FwdReqV 3 0x100 0x5 1\nFwdReqV 2 0x100 0x2 1\nRspV 1 0x100 0x8 0x10c\n" LV(0, "3,2,3,-")},
    {"rule 2: ReqO moves each owner's words", L16, O2_IN "ReqO 1 0x100 0xf\n",
     O2_OUT "FwdReqO 3 0x100 0x5 1\nFwdReqO 2 0x100 0x2 1\nRspO 1 0x100 0x8\n" LV(0, "1,1,1,1")},
    {"rule 2: ReqWT forwards and writes", L16, O2_IN "ReqWT 1 0x100 0xf 0xa 0xb 0xc 0xd\nReqV 0 0x100 0xf\n",
     O2_OUT "FwdReqO 3 0x100 0x5 1\nFwdReqO 2 0x100 0x2 1\nRspWT 1 0x100 0x8\nRspV 0 0x100 0xf 0xa 0xb 0xc 0xd\n"
     LV(1, FREE)},
    {"rule 2: ReqO+data, owners then the LLC", L16, O2_IN "ReqO+data 1 0x100 0xf\n",
     O2_OUT "FwdReqO+data 3 0x100 0x5 1\nFwdReqO+data 2 0x100 0x2 1\nRspO+data 1 0x100 0x8 0x10c\n"
     LV(0, "1,1,1,1")},
    {"rule 3: ReqWT+data revokes every owner, split answers, then one response", L16,
     O2_IN "ReqWT+data 1 0x100 0xf or 0x1000 0x1000 0x1000 0x1000\nRspRvkO 2 0x100 0x2 0x22\n"
     "RspRvkO 3 0x100 0x4 0x33\nRspRvkO 3 0x100 0x1 0x11\nReqV 0 0x100 0xf\n",
     O2_OUT "RvkO 3 0x100 0x5\nRvkO 2 0x100 0x2\nRspWT+data 1 0x100 0xf 0x11 0x22 0x33 0x10c\n"
     "RspV 0 0x100 0xf 0x1011 0x1022 0x1033 0x110c\n" LV(1, FREE)},
    {"rule 4: ReqWT forward at once, RspWT after the Ack", L16R1,
     SO_IN "ReqWT 1 0x100 0xf 0x1 0x2 0x3 0x4\nAck 3 0x100\nReqV 0 0x100 0xf\n",
     SO_OUT "Inv 3 0x100\nFwdReqO 2 0x100 0x6 1\nRspWT 1 0x100 0x9\nRspV 0 0x100 0xf 0x1 0x2 0x3 0x4\n" LV(1, FREE)},
    {"rule 4: ReqO forward at once, RspO after the Ack", L16R1, SO_IN "ReqO 1 0x100 0xf\nAck 3 0x100\n",
     SO_OUT "Inv 3 0x100\nFwdReqO 2 0x100 0x6 1\nRspO 1 0x100 0x9\n" LV(0, "1,1,1,1")},
    {"rule 4: ReqO+data forward at once, RspO+data after the Ack", L16R1, SO_IN "ReqO+data 1 0x100 0xf\nAck 3 0x100\n",
     SO_OUT "Inv 3 0x100\nFwdReqO+data 2 0x100 0x6 1\nRspO+data 1 0x100 0x9 0x100 0x10c\n" LV(0, "1,1,1,1")},
    {"rule 4: ReqWT+data waits for the RspRvkO and the Ack (Ack last)", L16R1,
     SO_IN "ReqWT+data 1 0x100 0xf add 0x1 0x1 0x1 0x1\nRspRvkO 2 0x100 0x6 0x50 0x60\nAck 3 0x100\n"
     "ReqV 0 0x100 0xf\n",
     SO_OUT "Inv 3 0x100\nRvkO 2 0x100 0x6\nRspWT+data 1 0x100 0xf 0x100 0x50 0x60 0x10c\n"
     "RspV 0 0x100 0xf 0x101 0x51 0x61 0x10d\n" LV(1, FREE)},
    {"rule 4: ReqWT+data waits for the Ack and the RspRvkO (RspRvkO last)", L16R1,
     SO_IN "ReqWT+data 1 0x100 0xf add 0x1 0x1 0x1 0x1\nAck 3 0x100\nRspRvkO 2 0x100 0x6 0x50 0x60\n",
     SO_OUT "Inv 3 0x100\nRvkO 2 0x100 0x6\nRspWT+data 1 0x100 0xf 0x100 0x50 0x60 0x10c\n" LV(1, FREE)},
    {"rule 5: a write to one S word turns the line V", L16R1,
     S_IN "ReqS 0 0x100 0xf\nReqWT 1 0x100 0x1 0x11\nAck 3 0x100\nAck 0 0x100\nReqV 2 0x100 0xf\n",
     S_OUT "RspS 0 0x100 0xf 0x100 0x104 0x108 0x10c\nInv 0 0x100\nInv 3 0x100\nRspWT 1 0x100 0x1\n"
     "RspV 2 0x100 0xf 0x11 0x104 0x108 0x10c\n" LV(1, FREE)},
    {"rule 5: ReqS(1) on unowned words turns the line S, owned words stay O", L16R1, SO_IN,
     SO_OUT "LINE 0x100 S sh=0x8 d=0 own=-,2,2,-\n"},
    {"rule 5: an owned word written back into an S line is S", L16R1,
     SO_IN "ReqWB 2 0x100 0x6 0x11 0x22\nReqV 0 0x100 0xf\nReqWT 0 0x100 0x2 0x33\nAck 3 0x100\n",
     SO_OUT "RspWB 2 0x100 0x6\nRspV 0 0x100 0xf 0x100 0x11 0x22 0x10c\nInv 3 0x100\nRspWT 0 0x100 0x2\n"
     LV(1, FREE)},
    {"rule 5: the owner written back into an S line, dump", L16R1, SO_IN "ReqWB 2 0x100 0x6 0x11 0x22\n",
     SO_OUT "RspWB 2 0x100 0x6\nLINE 0x100 S sh=0x8 d=1 own=-,-,-,-\n"},
    {"rule 6: a partial ReqWT and ReqO fill, whole-line ones do not", L16,
     "ReqWT 1 0x100 0x1 0x5\nReqO 1 0x200 0x1\nReqWT 1 0x300 0xf 0x1 0x2 0x3 0x4\nReqO 1 0x400 0xf\n",
     "MemRd 0x100\nRspWT 1 0x100 0x1\nMemRd 0x200\nRspO 1 0x200 0x1\nRspWT 1 0x300 0xf\nRspO 1 0x400 0xf\n"
     "LINE 0x100 V sh=0x0 d=1 own=-,-,-,-\nLINE 0x200 V sh=0x0 d=0 own=1,-,-,-\n"
     "LINE 0x300 V sh=0x0 d=1 own=-,-,-,-\nLINE 0x400 V sh=0x0 d=0 own=1,1,1,1\n"},
    {"rule 6: whole-line ReqV, ReqO+data and ReqWT+data fill", L16,
     "ReqV 1 0x100 0xf\nReqO+data 1 0x200 0xf\nReqWT+data 1 0x300 0xf swp 0x1 0x2 0x3 0x4\n",
     "MemRd 0x100\nRspV 1 0x100 0xf 0x100 0x104 0x108 0x10c\nMemRd 0x200\n"
     "RspO+data 1 0x200 0xf 0x200 0x204 0x208 0x20c\nMemRd 0x300\nRspWT+data 1 0x300 0xf 0x300 0x304 0x308 0x30c\n"
     "LINE 0x100 V sh=0x0 d=0 own=-,-,-,-\nLINE 0x200 V sh=0x0 d=0 own=1,1,1,1\n"
     "LINE 0x300 V sh=0x0 d=1 own=-,-,-,-\n"},
    {"rule 7: reads, ownership and rd leave the line clean", L16,
     "ReqV 1 0x100 0x1\nReqO 2 0x100 0x2\nReqO+data 3 0x100 0x4\nReqWT+data 1 0x100 0x8 rd\n"
     "ReqWB 1 0x100 0x1 0x77\n",
     "MemRd 0x100\nRspV 1 0x100 0x1 0x100\nRspO 2 0x100 0x2\nRspO+data 3 0x100 0x4 0x108\n"
     "RspWT+data 1 0x100 0x8 0x10c\nRspWB 1 0x100 0x1\n" LV(0, "-,2,3,-")},
    {"rule 7: ReqWB from the owner dirties", L16, "ReqO 2 0x100 0xf\nReqWB 2 0x100 0x2 0x77\n",
     "RspO 2 0x100 0xf\nRspWB 2 0x100 0x2\n" LV(1, "2,-,2,2")},
    {"rule 7: RspRvkO dirties (rd)", L16, "ReqO 2 0x100 0xf\nReqWT+data 1 0x100 0x2 rd\nRspRvkO 2 0x100 0x2 0x77\n",
     "RspO 2 0x100 0xf\nRvkO 2 0x100 0x2\nRspWT+data 1 0x100 0x2 0x77\n" LV(1, "2,-,2,2")},
    {"X4: a ReqWB deferred behind its revocation is dropped", L16,
     O_IN "ReqWT+data 1 0x100 0x6 add 0x5 0x6\nReqWB 2 0x100 0x6 0x77 0x88\nRspRvkO 2 0x100 0x6 0x77 0x88\n"
     "ReqV 3 0x100 0x6\n",
     O_OUT "RvkO 2 0x100 0x6\nRspWT+data 1 0x100 0x6 0x77 0x88\nRspWB 2 0x100 0x6\nRspV 3 0x100 0x6 0x7c 0x8e\n"
     LV(1, FREE)},
    {"X9: whole-line ReqO by a sharer skips its Inv", L16R1, S13_IN "ReqO 1 0x100 0xf\nAck 3 0x100\n",
     S13_OUT "Inv 3 0x100\nRspO 1 0x100 0xf\n" LV(0, "1,1,1,1")},
    {"X9: whole-line ReqO+data by a sharer skips its Inv", L16R1, S13_IN "ReqO+data 1 0x100 0xf\nAck 3 0x100\n",
     S13_OUT "Inv 3 0x100\nRspO+data 1 0x100 0xf 0x100 0x104 0x108 0x10c\n" LV(0, "1,1,1,1")},
    {"X9: whole-line ReqO by the only sharer", L16R1, "ReqS 1 0x100 0xf\nReqO 1 0x100 0xf\n",
     "MemRd 0x100\nRspS 1 0x100 0xf 0x100 0x104 0x108 0x10c\nRspO 1 0x100 0xf\n" LV(0, "1,1,1,1")},
    {"X9: partial ReqO by a sharer invalidates it too", L16R1, S13_IN "ReqO 1 0x100 0x6\nAck 3 0x100\nAck 1 0x100\n",
     S13_OUT "Inv 1 0x100\nInv 3 0x100\nRspO 1 0x100 0x6\n" LV(0, "-,1,1,-")},
    {"X9: partial ReqO+data by a sharer invalidates it too", L16R1,
     S13_IN "ReqO+data 1 0x100 0x6\nAck 1 0x100\nAck 3 0x100\n",
     S13_OUT "Inv 1 0x100\nInv 3 0x100\nRspO+data 1 0x100 0x6 0x104 0x108\n" LV(0, "-,1,1,-")},
    {"X9: whole-line ReqWT by a sharer invalidates it too", L16R1,
     S13_IN "ReqWT 1 0x100 0xf 0x1 0x2 0x3 0x4\nAck 3 0x100\nAck 1 0x100\n",
     S13_OUT "Inv 1 0x100\nInv 3 0x100\nRspWT 1 0x100 0xf\n" LV(1, FREE)},
    {"X9: whole-line ReqWT+data by a sharer invalidates it too", L16R1,
     S13_IN "ReqWT+data 1 0x100 0xf rd\nAck 3 0x100\nAck 1 0x100\n",
     S13_OUT "Inv 1 0x100\nInv 3 0x100\nRspWT+data 1 0x100 0xf 0x100 0x104 0x108 0x10c\n" LV(0, FREE)},
    {"X9: whole-line ReqO by the only sharer of an S line with an owner", L16R1, SO_IN "ReqO 3 0x100 0xf\n",
     SO_OUT "FwdReqO 2 0x100 0x6 3\nRspO 3 0x100 0x9\n" LV(0, "3,3,3,3")},
    {"X10: whole-line ReqO on I answers without a fill", L16, "ReqO 1 0x100 0xf\nReqWB 1 0x100 0x3 0x1 0x2\n"
     "ReqV 2 0x100 0x3\n",
     "RspO 1 0x100 0xf\nRspWB 1 0x100 0x3\nRspV 2 0x100 0x3 0x1 0x2\n" LV(1, "-,-,1,1")},
};
ROW_TESTS(spandex_rules, rules)

/* ---------------------------------------------- Fig. 1 (spec 5 and 9.2) -- */

/* Line 0x1000 of 16 words: the `...` of spec 5 are the addresses. */
#define W0_1 "0x1000 0x1004"
#define W2_15 "0x1008 0x100c 0x1010 0x1014 0x1018 0x101c 0x1020 0x1024 0x1028 0x102c 0x1030 0x1034 0x1038 0x103c"
#define W3_15 "0x100c 0x1010 0x1014 0x1018 0x101c 0x1020 0x1024 0x1028 0x102c 0x1030 0x1034 0x1038 0x103c"
#define ALL16 W0_1 " " W2_15
#define FIG "--mesi 0"
#define F1LINE(d, own) "LINE 0x1000 V sh=0x0 d=" #d " own=" own "\n"
#define OWN16 "-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-"

static const row fig1[] = {
    {"Fig. 1a: word ReqO and ReqWT on a V line", FIG,
     "ReqV 1 0x1000 0xffff\nReqO 2 0x1000 0x3\nReqWT 1 0x1000 0x30 0x11 0x22\n",
     "MemRd 0x1000\nRspV 1 0x1000 0xffff " ALL16 "\nRspO 2 0x1000 0x3\nRspWT 1 0x1000 0x30\n"
     F1LINE(1, "2,2,-,-,-,-,-,-,-,-,-,-,-,-,-,-")},
    {"Fig. 1b: word ReqWT+data on a MESI-owned line", FIG,
     "ReqO+data 0 0x1000 0xffff\nReqWT+data 1 0x1000 0x4 add 0x5\nRspRvkO 0 0x1000 0x4 0x100\n"
     "ReqWB 0 0x1000 0xfffb " W0_1 " " W3_15 "\n",
     "MemRd 0x1000\nRspO+data 0 0x1000 0xffff " ALL16 "\nRvkO 0 0x1000 0x4\nRspWT+data 1 0x1000 0x4 0x100\n"
     "RspWB 0 0x1000 0xfffb\n" F1LINE(1, OWN16)},
    {"Fig. 1b: the values after it", FIG,
     "ReqO+data 0 0x1000 0xffff\nReqWT+data 1 0x1000 0x4 add 0x5\nRspRvkO 0 0x1000 0x4 0x100\n"
     "ReqWB 0 0x1000 0xfffb " W0_1 " " W3_15 "\nReqV 2 0x1000 0xf\n",
     "MemRd 0x1000\nRspO+data 0 0x1000 0xffff " ALL16 "\nRvkO 0 0x1000 0x4\nRspWT+data 1 0x1000 0x4 0x100\n"
     "RspWB 0 0x1000 0xfffb\nRspV 2 0x1000 0xf 0x1000 0x1004 0x105 0x100c\n" F1LINE(1, OWN16)},
    {"Fig. 1c: line ReqV with word owners", FIG, "ReqV 1 0x1000 0xffff\nReqO 2 0x1000 0x3\nReqV 1 0x1000 0xffff\n",
     "MemRd 0x1000\nRspV 1 0x1000 0xffff " ALL16 "\nRspO 2 0x1000 0x3\nFwdReqV 2 0x1000 0x3 1\n"
     "RspV 1 0x1000 0xfffc " W2_15 "\n" F1LINE(0, "2,2,-,-,-,-,-,-,-,-,-,-,-,-,-,-")},
    {"Fig. 1d: word ReqWT on a MESI-owned line", FIG,
     "ReqO+data 0 0x1000 0xffff\nReqWT 1 0x1000 0x2 0x77\nReqWB 0 0x1000 0xfffd 0x1000 " W2_15 "\n",
     "MemRd 0x1000\nRspO+data 0 0x1000 0xffff " ALL16 "\nFwdReqO 0 0x1000 0x2 1\nRspWB 0 0x1000 0xfffd\n"
     F1LINE(1, OWN16)},
    {"Fig. 1d: the values after it", FIG,
     "ReqO+data 0 0x1000 0xffff\nReqWT 1 0x1000 0x2 0x77\nReqWB 0 0x1000 0xfffd 0x1000 " W2_15 "\n"
     "ReqV 2 0x1000 0x7\n",
     "MemRd 0x1000\nRspO+data 0 0x1000 0xffff " ALL16 "\nFwdReqO 0 0x1000 0x2 1\nRspWB 0 0x1000 0xfffd\n"
     "RspV 2 0x1000 0x7 0x1000 0x77 0x1008\n" F1LINE(1, OWN16)},
};
ROW_TESTS(spandex_fig1, fig1)

/* ------------------------------------------------ eviction (spec 3.5) -- */

/* One set of two ways: lines 0x100, 0x200, 0x300, 0x400 compete. */
#define EV "--line 16 --sets 1 --ways 2"
#define EVR1 "--line 16 --sets 1 --ways 2 --reqs 1"
#define RD(dev, a) "ReqV " #dev " " #a " 0xf\n"
#define RD_OUT(dev, a, w0, w1, w2, w3)                                                             \
    "MemRd " #a "\nRspV " #dev " " #a " 0xf " #w0 " " #w1 " " #w2 " " #w3 "\n"
#define R1_OUT RD_OUT(0, 0x100, 0x100, 0x104, 0x108, 0x10c)
#define R2_OUT RD_OUT(0, 0x200, 0x200, 0x204, 0x208, 0x20c)
#define R3_OUT RD_OUT(0, 0x300, 0x300, 0x304, 0x308, 0x30c)
#define LN(a, st, d, own) "LINE " #a " " #st " sh=0x0 d=" #d " own=" own "\n"

static const row evict[] = {
    {"clean V dropped silently", EV, RD(0, 0x100) RD(0, 0x200) RD(0, 0x300),
     R1_OUT R2_OUT R3_OUT LN(0x200, V, 0, FREE) LN(0x300, V, 0, FREE)},
    {"dirty V written back before the fill", EV,
     "ReqWT 0 0x100 0x1 0x55\n" RD(0, 0x200) RD(0, 0x300) "ReqV 1 0x100 0x1\n",
     "MemRd 0x100\nRspWT 0 0x100 0x1\n" R2_OUT "MemWr 0x100 0x55 0x104 0x108 0x10c\n" R3_OUT
     "MemRd 0x100\nRspV 1 0x100 0x1 0x55\n" LN(0x100, V, 0, FREE) LN(0x300, V, 0, FREE)},
    {"S line: Inv to every sharer, the fill after the last Ack", EVR1,
     "ReqS 1 0x100 0xf\nReqS 2 0x100 0xf\n" RD(0, 0x200) RD(0, 0x300) "Ack 2 0x100\nAck 1 0x100\n",
     "MemRd 0x100\nRspS 1 0x100 0xf 0x100 0x104 0x108 0x10c\nRspS 2 0x100 0xf 0x100 0x104 0x108 0x10c\n" R2_OUT
     "Inv 1 0x100\nInv 2 0x100\n" R3_OUT LN(0x200, V, 0, FREE) LN(0x300, V, 0, FREE)},
    {"dirty S line: Inv, Ack, MemWr, fill", EVR1,
     "ReqWT 1 0x100 0x1 0x55\nReqS 2 0x100 0xf\n" RD(0, 0x200) RD(0, 0x300) "Ack 2 0x100\n",
     "MemRd 0x100\nRspWT 1 0x100 0x1\nRspS 2 0x100 0xf 0x55 0x104 0x108 0x10c\n" R2_OUT "Inv 2 0x100\n"
     "MemWr 0x100 0x55 0x104 0x108 0x10c\n" R3_OUT LN(0x200, V, 0, FREE) LN(0x300, V, 0, FREE)},
    {"owned line: RvkO, split RspRvkO, MemWr, fill", EV,
     "ReqO+data 1 0x100 0x6\n" RD(0, 0x200) RD(0, 0x300) "RspRvkO 1 0x100 0x2 0x11\nRspRvkO 1 0x100 0x4 0x22\n"
     "ReqV 2 0x100 0xf\n",
     "MemRd 0x100\nRspO+data 1 0x100 0x6 0x104 0x108\n" R2_OUT "RvkO 1 0x100 0x6\n"
     "MemWr 0x100 0x100 0x11 0x22 0x10c\n" R3_OUT "MemRd 0x100\nRspV 2 0x100 0xf 0x100 0x11 0x22 0x10c\n"
     LN(0x100, V, 0, FREE) LN(0x300, V, 0, FREE)},
    {"owned S line: Inv and one RvkO per owner", EVR1,
     "ReqO 2 0x100 0x1\nReqO 1 0x100 0x2\nReqS 3 0x100 0xc\n" RD(0, 0x200) RD(0, 0x300)
     "RspRvkO 1 0x100 0x2 0x11\nAck 3 0x100\nRspRvkO 2 0x100 0x1 0x22\n",
     "MemRd 0x100\nRspO 2 0x100 0x1\nRspO 1 0x100 0x2\nRspS 3 0x100 0xc 0x108 0x10c\n" R2_OUT
     "Inv 3 0x100\nRvkO 2 0x100 0x1\nRvkO 1 0x100 0x2\nMemWr 0x100 0x22 0x11 0x108 0x10c\n" R3_OUT
     LN(0x200, V, 0, FREE) LN(0x300, V, 0, FREE)},
    {"a line owned whole without a fill is revoked and written back", EV,
     "ReqO 1 0x100 0xf\n" RD(0, 0x200) RD(0, 0x300) "RspRvkO 1 0x100 0xf 0xa 0xb 0xc 0xd\n",
     "RspO 1 0x100 0xf\n" R2_OUT "RvkO 1 0x100 0xf\nMemWr 0x100 0xa 0xb 0xc 0xd\n" R3_OUT
     LN(0x200, V, 0, FREE) LN(0x300, V, 0, FREE)},
    {"LRU: a hit makes the line recent", EV, RD(0, 0x100) RD(0, 0x200) "ReqV 1 0x100 0x1\n" RD(0, 0x300),
     R1_OUT R2_OUT "RspV 1 0x100 0x1 0x100\n" R3_OUT LN(0x100, V, 0, FREE) LN(0x300, V, 0, FREE)},
    {"LRU: a forwarded request makes the line recent", EV,
     "ReqO 1 0x100 0xf\n" RD(0, 0x200) "ReqV 2 0x100 0x1\n" RD(0, 0x300),
     "RspO 1 0x100 0xf\n" R2_OUT "FwdReqV 1 0x100 0x1 2\n" R3_OUT LN(0x100, V, 0, "1,1,1,1") LN(0x300, V, 0, FREE)},
    {"LRU: an owner's ReqWB does not make the line recent", EV,
     "ReqO+data 1 0x100 0x1\n" RD(0, 0x200) "ReqWB 1 0x100 0x1 0x55\n" RD(0, 0x300),
     "MemRd 0x100\nRspO+data 1 0x100 0x1 0x100\n" R2_OUT "RspWB 1 0x100 0x1\n"
     "MemWr 0x100 0x55 0x104 0x108 0x10c\n" R3_OUT LN(0x200, V, 0, FREE) LN(0x300, V, 0, FREE)},
    {"LRU: a non-owner's ReqWB does not make the line recent", EV,
     RD(0, 0x100) RD(0, 0x200) "ReqWB 1 0x100 0x1 0x55\n" RD(0, 0x300),
     R1_OUT R2_OUT "RspWB 1 0x100 0x1\n" R3_OUT LN(0x200, V, 0, FREE) LN(0x300, V, 0, FREE)},
    {"a ReqWB to an absent line takes no way", EV, RD(0, 0x100) RD(0, 0x200) "ReqWB 1 0x300 0x1 0x55\n",
     R1_OUT R2_OUT "RspWB 1 0x300 0x1\n" LN(0x100, V, 0, FREE) LN(0x200, V, 0, FREE)},
    {"every line blocked: the request waits without an eviction", EVR1,
     "ReqS 1 0x100 0xf\nReqWT 0 0x100 0x1 0x5\nReqS 1 0x200 0xf\nReqWT 0 0x200 0x1 0x6\nReqV 2 0x300 0xf\n"
     "Ack 1 0x200\nAck 1 0x100\n",
     "MemRd 0x100\nRspS 1 0x100 0xf 0x100 0x104 0x108 0x10c\nInv 1 0x100\n"
     "MemRd 0x200\nRspS 1 0x200 0xf 0x200 0x204 0x208 0x20c\nInv 1 0x200\n"
     "RspWT 0 0x200 0x1\nMemWr 0x200 0x6 0x204 0x208 0x20c\nMemRd 0x300\nRspV 2 0x300 0xf 0x300 0x304 0x308 0x30c\n"
     "RspWT 0 0x100 0x1\n" LN(0x100, V, 1, FREE) LN(0x300, V, 0, FREE)},
    {"requests for a way wait in a per-set FIFO", EV,
     "ReqO+data 1 0x100 0xf\nReqO+data 1 0x200 0xf\n" RD(0, 0x300) RD(2, 0x400) "ReqV 3 0x200 0x1\n"
     "RspRvkO 1 0x100 0xf 0xa 0xb 0xc 0xd\nRspRvkO 1 0x200 0xf 0xe 0xf 0x10 0x11\n",
     "MemRd 0x100\nRspO+data 1 0x100 0xf 0x100 0x104 0x108 0x10c\n"
     "MemRd 0x200\nRspO+data 1 0x200 0xf 0x200 0x204 0x208 0x20c\nRvkO 1 0x100 0xf\nFwdReqV 1 0x200 0x1 3\n"
     "MemWr 0x100 0xa 0xb 0xc 0xd\n" R3_OUT "RvkO 1 0x200 0xf\nMemWr 0x200 0xe 0xf 0x10 0x11\n"
     RD_OUT(2, 0x400, 0x400, 0x404, 0x408, 0x40c) LN(0x300, V, 0, FREE) LN(0x400, V, 0, FREE)},
    {"requests behind a way keep their arrival order", EV,
     "ReqO+data 1 0x100 0xf\n" RD(0, 0x200) RD(0, 0x300) "ReqWT 2 0x300 0x1 0x77\nReqV 2 0x100 0xf\n"
     "RspRvkO 1 0x100 0xf 0xa 0xb 0xc 0xd\n",
     "MemRd 0x100\nRspO+data 1 0x100 0xf 0x100 0x104 0x108 0x10c\n" R2_OUT "RvkO 1 0x100 0xf\n"
     "MemWr 0x100 0xa 0xb 0xc 0xd\n" R3_OUT "RspWT 2 0x300 0x1\nMemRd 0x100\nRspV 2 0x100 0xf 0xa 0xb 0xc 0xd\n"
     LN(0x100, V, 0, FREE) LN(0x300, V, 1, FREE)},
    {"the victim is the least recent line without a transaction", EVR1,
     "ReqS 1 0x100 0xf\nReqWT 0 0x100 0x1 0x5\n" RD(0, 0x200) RD(0, 0x300) "Ack 1 0x100\n",
     "MemRd 0x100\nRspS 1 0x100 0xf 0x100 0x104 0x108 0x10c\nInv 1 0x100\n" R2_OUT R3_OUT "RspWT 0 0x100 0x1\n"
     LN(0x100, V, 1, FREE) LN(0x300, V, 0, FREE)},
    {"an owner's ReqWB deferred behind the eviction finds the line gone (X4)", EV,
     "ReqO+data 1 0x100 0x6\n" RD(0, 0x200) RD(0, 0x300) "ReqWB 1 0x100 0x6 0x11 0x22\n"
     "RspRvkO 1 0x100 0x6 0x11 0x22\n",
     "MemRd 0x100\nRspO+data 1 0x100 0x6 0x104 0x108\n" R2_OUT "RvkO 1 0x100 0x6\n"
     "MemWr 0x100 0x100 0x11 0x22 0x10c\n" R3_OUT "RspWB 1 0x100 0x6\n" LN(0x200, V, 0, FREE) LN(0x300, V, 0, FREE)},
    {"a whole-line ReqWT after a dirty victim: MemWr, no MemRd", EV,
     "ReqWT 0 0x100 0x1 0x55\n" RD(0, 0x200) "ReqWT 0 0x300 0xf 0x1 0x2 0x3 0x4\n",
     "MemRd 0x100\nRspWT 0 0x100 0x1\n" R2_OUT "MemWr 0x100 0x55 0x104 0x108 0x10c\nRspWT 0 0x300 0xf\n"
     LN(0x200, V, 0, FREE) LN(0x300, V, 1, FREE)},
    /* two sets: line 0x110 of set 1 unblocks while set 0 waits for a way */
    {"a replay for another set does not start the next eviction", "--line 16 --sets 2 --ways 2 --reqs 1",
     "ReqO+data 1 0x100 0xf\nReqO+data 2 0x200 0xf\nReqS 3 0x110 0xf\nReqWT 0 0x110 0x1 0x5\n" RD(0, 0x300)
     RD(3, 0x400) "Ack 3 0x110\nRspRvkO 1 0x100 0xf 0xa 0xb 0xc 0xd\nRspRvkO 2 0x200 0xf 0xe 0xf 0x10 0x11\n",
     "MemRd 0x100\nRspO+data 1 0x100 0xf 0x100 0x104 0x108 0x10c\nMemRd 0x200\n"
     "RspO+data 2 0x200 0xf 0x200 0x204 0x208 0x20c\nMemRd 0x110\nRspS 3 0x110 0xf 0x110 0x114 0x118 0x11c\n"
     "Inv 3 0x110\nRvkO 1 0x100 0xf\nRspWT 0 0x110 0x1\nMemWr 0x100 0xa 0xb 0xc 0xd\n" R3_OUT "RvkO 2 0x200 0xf\n"
     "MemWr 0x200 0xe 0xf 0x10 0x11\n" RD_OUT(3, 0x400, 0x400, 0x404, 0x408, 0x40c)
     LN(0x110, V, 1, FREE) LN(0x300, V, 0, FREE) LN(0x400, V, 0, FREE)},
    {"a ReqWB waits behind its line's request for a way", "--line 16 --sets 2 --ways 2 --reqs 1",
     "ReqO+data 1 0x100 0xf\n" RD(0, 0x200) "ReqS 3 0x110 0xf\nReqWT 0 0x110 0x1 0x5\n" RD(0, 0x300)
     "ReqWB 1 0x300 0x1 0x5\nAck 3 0x110\nRspRvkO 1 0x100 0xf 0xa 0xb 0xc 0xd\n",
     "MemRd 0x100\nRspO+data 1 0x100 0xf 0x100 0x104 0x108 0x10c\n" R2_OUT
     "MemRd 0x110\nRspS 3 0x110 0xf 0x110 0x114 0x118 0x11c\nInv 3 0x110\nRvkO 1 0x100 0xf\nRspWT 0 0x110 0x1\n"
     "MemWr 0x100 0xa 0xb 0xc 0xd\n" R3_OUT "RspWB 1 0x300 0x1\n"
     LN(0x110, V, 1, FREE) LN(0x200, V, 0, FREE) LN(0x300, V, 0, FREE)},
};
ROW_TESTS(spandex_evict, evict)

/* ------------------------------------------------ deferral (spec 3.4) -- */

static const row defer[] = {
    {"replayed in arrival order after the unblocking Ack, other lines served meanwhile", L16R1,
     S_IN "ReqWT 1 0x100 0x1 0x11\nReqV 2 0x100 0xf\nReqV 0 0x200 0xf\nReqWT 0 0x100 0x2 0x22\nAck 3 0x100\n",
     S_OUT "Inv 3 0x100\nMemRd 0x200\nRspV 0 0x200 0xf 0x200 0x204 0x208 0x20c\nRspWT 1 0x100 0x1\n"
     "RspV 2 0x100 0xf 0x11 0x104 0x108 0x10c\nRspWT 0 0x100 0x2\n"
     LV(1, FREE) "LINE 0x200 V sh=0x0 d=0 own=-,-,-,-\n"},
    {"a replayed request that blocks again holds the later ones back", L16R1,
     S_IN "ReqWT 1 0x100 0x1 0x11\nReqS 3 0x100 0xf\nReqWT 2 0x100 0x2 0x22\nReqV 0 0x100 0xf\nAck 3 0x100\n"
     "ReqV 1 0x100 0x1\nAck 3 0x100\n",
     S_OUT "Inv 3 0x100\nRspWT 1 0x100 0x1\nRspS 3 0x100 0xf 0x11 0x104 0x108 0x10c\nInv 3 0x100\n"
     "RspWT 2 0x100 0x2\nRspV 0 0x100 0xf 0x11 0x22 0x108 0x10c\nRspV 1 0x100 0x1 0x11\n" LV(1, FREE)},
    {"a replayed request sees the state the transaction left", L16,
     O_IN "ReqWT+data 1 0x100 0x2 add 0x1\nReqV 3 0x100 0x6\nRspRvkO 2 0x100 0x2 0x50\n",
     O_OUT "RvkO 2 0x100 0x2\nRspWT+data 1 0x100 0x2 0x50\nFwdReqV 2 0x100 0x4 3\nRspV 3 0x100 0x2 0x51\n"
     LV(1, "-,-,2,-")},
    {"a request deferred behind ReqS(1) meets the new sharers", L16R1,
     O_IN "ReqS 1 0x100 0x6\nReqWT 3 0x100 0x2 0x99\nRspRvkO 2 0x100 0x6 0x55 0x66\nAck 2 0x100\nAck 1 0x100\n",
     O_OUT "FwdReqS 2 0x100 0x6 1\nInv 1 0x100\nInv 2 0x100\nRspWT 3 0x100 0x2\n" LV(1, FREE)},
    {"the split RspRvkO's first part does not unblock", L16,
     O_IN "ReqWT+data 1 0x100 0x6 rd\nReqV 3 0x100 0x1\nRspRvkO 2 0x100 0x4 0x66\nReqV 0 0x100 0x1\n"
     "RspRvkO 2 0x100 0x2 0x55\n",
     O_OUT "RvkO 2 0x100 0x6\nRspWT+data 1 0x100 0x6 0x55 0x66\nRspV 3 0x100 0x1 0x100\nRspV 0 0x100 0x1 0x100\n"
     LV(1, FREE)},
    {"an eviction blocks its line; a request to it waits", "--line 16 --sets 1 --ways 1",
     "ReqO 1 0x100 0x1\nReqV 0 0x200 0xf\nReqV 2 0x100 0x2\nRspRvkO 1 0x100 0x1 0x7\n",
     "MemRd 0x100\nRspO 1 0x100 0x1\nRvkO 1 0x100 0x1\nMemWr 0x100 0x7 0x104 0x108 0x10c\n"
     "MemRd 0x200\nRspV 0 0x200 0xf 0x200 0x204 0x208 0x20c\nMemRd 0x100\nRspV 2 0x100 0x2 0x104\n"
     "LINE 0x100 V sh=0x0 d=0 own=-,-,-,-\n"},
    {"an owner's ReqWB deferred behind an Inv keeps its words", L16R1,
     SO_IN "ReqWT 1 0x100 0x1 0x11\nReqWB 2 0x100 0x6 0x77 0x88\nAck 3 0x100\nReqV 0 0x100 0xf\n",
     SO_OUT "Inv 3 0x100\nRspWT 1 0x100 0x1\nRspWB 2 0x100 0x6\nRspV 0 0x100 0xf 0x11 0x77 0x88 0x10c\n" LV(1, FREE)},
};
ROW_TESTS(spandex_defer, defer)

/* ------------------------------------ ReqS options and the paper policy -- */

#define PAPER "--line 16 --reqs paper --mesi 0"

static const row reqs[] = {
    {"paper: I takes option 3", PAPER, "ReqS 1 0x100 0x6\n",
     "MemRd 0x100\nRspO+data 1 0x100 0x6 0x104 0x108\n" LV(0, "-,1,1,-")},
    {"paper: V takes option 3", PAPER, V_IN "ReqS 1 0x100 0x6\n",
     V_OUT "RspO+data 1 0x100 0x6 0x104 0x108\n" LV(0, "-,1,1,-")},
    {"paper: owned by a non-MESI device takes option 3", PAPER, "ReqO 2 0x100 0x6\nReqS 1 0x100 0x6\n",
     "MemRd 0x100\nRspO 2 0x100 0x6\nFwdReqO+data 2 0x100 0x6 1\n" LV(0, "-,1,1,-")},
    {"paper: owned by a MESI device takes option 1", PAPER,
     "ReqO+data 0 0x100 0xf\nReqS 1 0x100 0xf\nRspRvkO 0 0x100 0xf 0xa 0xb 0xc 0xd\n",
     "MemRd 0x100\nRspO+data 0 0x100 0xf 0x100 0x104 0x108 0x10c\nFwdReqS 0 0x100 0xf 1\n"
     "LINE 0x100 S sh=0x3 d=1 own=-,-,-,-\n"},
    {"paper: S takes option 1", PAPER,
     "ReqO+data 0 0x100 0xf\nReqS 1 0x100 0xf\nRspRvkO 0 0x100 0xf 0xa 0xb 0xc 0xd\nReqS 2 0x100 0x6\n",
     "MemRd 0x100\nRspO+data 0 0x100 0xf 0x100 0x104 0x108 0x10c\nFwdReqS 0 0x100 0xf 1\n"
     "RspS 2 0x100 0x6 0xb 0xc\nLINE 0x100 S sh=0x7 d=1 own=-,-,-,-\n"},
    {"paper: one MESI-owned word decides for the request", PAPER,
     "ReqO 0 0x100 0x2\nReqO 2 0x100 0x4\nReqS 1 0x100 0xf\nRspRvkO 2 0x100 0x4 0x22\nRspRvkO 0 0x100 0x2 0x11\n"
     "ReqV 3 0x100 0xf\n",
     "MemRd 0x100\nRspO 0 0x100 0x2\nRspO 2 0x100 0x4\nFwdReqS 0 0x100 0x2 1\nFwdReqS 2 0x100 0x4 1\n"
     "RspS 1 0x100 0x9 0x100 0x10c\nRspV 3 0x100 0xf 0x100 0x11 0x22 0x10c\nLINE 0x100 S sh=0x7 d=1 own=-,-,-,-\n"},
    {"paper: a MESI-owned word not requested does not count", PAPER, "ReqO 0 0x100 0x2\nReqS 1 0x100 0x9\n",
     "MemRd 0x100\nRspO 0 0x100 0x2\nRspO+data 1 0x100 0x9 0x100 0x10c\n" LV(0, "1,0,-,1")},
    {"paper: an S line's word owned by a non-MESI device takes option 3", PAPER,
     "ReqO 2 0x100 0x2\nReqO+data 0 0x100 0x4\nReqS 3 0x100 0x4\nRspRvkO 0 0x100 0x4 0x33\nReqS 1 0x100 0x2\n",
     "MemRd 0x100\nRspO 2 0x100 0x2\nRspO+data 0 0x100 0x4 0x108\nFwdReqS 0 0x100 0x4 3\n"
     "FwdReqO+data 2 0x100 0x2 1\nLINE 0x100 S sh=0x9 d=1 own=-,1,-,-\n"},
    {"paper: an S word decides for the request", PAPER,
     "ReqO 2 0x100 0x2\nReqO+data 0 0x100 0x4\nReqS 3 0x100 0x4\nRspRvkO 0 0x100 0x4 0x33\nReqS 1 0x100 0x3\n"
     "RspRvkO 2 0x100 0x2 0x44\n",
     "MemRd 0x100\nRspO 2 0x100 0x2\nRspO+data 0 0x100 0x4 0x108\nFwdReqS 0 0x100 0x4 3\n"
     "FwdReqS 2 0x100 0x2 1\nRspS 1 0x100 0x1 0x100\nLINE 0x100 S sh=0xf d=1 own=-,-,-,-\n"},
    {"paper without MESI devices: always option 3", "--line 16",
     "ReqO+data 0 0x100 0xf\nReqS 1 0x100 0xf\n",
     "MemRd 0x100\nRspO+data 0 0x100 0xf 0x100 0x104 0x108 0x10c\nFwdReqO+data 0 0x100 0xf 1\n" LV(0, "1,1,1,1")},
    {"paper: MESI list 1-2", "--line 16 --mesi 1-2", "ReqO 2 0x100 0x1\nReqO 3 0x100 0x2\nReqS 0 0x100 0x2\n"
     "ReqS 1 0x100 0x1\nRspRvkO 2 0x100 0x1 0x5\n",
     "MemRd 0x100\nRspO 2 0x100 0x1\nRspO 3 0x100 0x2\nFwdReqO+data 3 0x100 0x2 0\nFwdReqS 2 0x100 0x1 1\n"
     "LINE 0x100 S sh=0x6 d=1 own=-,0,-,-\n"},
    {"option 1 with an owner and a sharer", L16R1,
     S_IN "ReqO 2 0x100 0x1\nAck 3 0x100\nReqS 3 0x100 0x3\nRspRvkO 2 0x100 0x1 0x9\n",
     S_OUT "Inv 3 0x100\nRspO 2 0x100 0x1\nFwdReqS 2 0x100 0x1 3\nRspS 3 0x100 0x2 0x104\n"
     "LINE 0x100 S sh=0xc d=1 own=-,-,-,-\n"},
};
ROW_TESTS(spandex_reqs, reqs)

/* ------------------------------------------- the trace format (spec 9.2) -- */

static const row format[] = {
    {"any byte of the line, 0x optional, comments, blank lines, upper-case hex", L16,
     "# a comment\n\nReqV 1 10C 0x6\nReqWT 1 0x10f 0x1 0XAB   # trailing comment\n  ReqV 2 100 0x1\n",
     "MemRd 0x100\nRspV 1 0x100 0x6 0x104 0x108\nRspWT 1 0x100 0x1\nRspV 2 0x100 0x1 0xab\n" LV(1, FREE)},
    {"64-bit words: values and wrap-around", "--line 32 --word 8",
     "ReqWT 1 0x100 0x1 0xffffffffffffffff\nReqWT+data 1 0x100 0x3 add 0x2 0x1\nReqV 2 0x100 0xf\n",
     "MemRd 0x100\nRspWT 1 0x100 0x1\nRspWT+data 1 0x100 0x3 0xffffffffffffffff 0x108\n"
     "RspV 2 0x100 0xf 0x1 0x109 0x110 0x118\nLINE 0x100 V sh=0x0 d=1 own=-,-,-,-\n"},
    {"initial memory truncated to the word", "--line 16 --addr-bits 40", "ReqV 1 0x12345678f0 0xf\n",
     "MemRd 0x12345678f0\nRspV 1 0x12345678f0 0xf 0x345678f0 0x345678f4 0x345678f8 0x345678fc\n"
     "LINE 0x12345678f0 V sh=0x0 d=0 own=-,-,-,-\n"},
    {"64 devices: Inv in ascending order, a 64-bit sharer vector", "--line 16 --devs 64 --reqs 1",
     "ReqS 63 0x100 0xf\nReqS 0 0x100 0xf\nReqS 40 0x100 0x1\nReqWT 5 0x100 0x1 0x9\nAck 63 0x100\nAck 0 0x100\n"
     "Ack 40 0x100\nReqS 63 0x100 0x1\n",
     "MemRd 0x100\nRspS 63 0x100 0xf 0x100 0x104 0x108 0x10c\nRspS 0 0x100 0xf 0x100 0x104 0x108 0x10c\n"
     "RspS 40 0x100 0x1 0x100\nInv 0 0x100\nInv 40 0x100\nInv 63 0x100\nRspWT 5 0x100 0x1\nRspS 63 0x100 0x1 0x9\n"
     "LINE 0x100 S sh=0x8000000000000000 d=1 own=-,-,-,-\n"},
    {"an empty trace prints nothing", L16, "", ""},
};
ROW_TESTS(spandex_format, format)

/* ------------------------------------- the line baseline (--gran line) -- */

/* Every request's coherence mask widened to the line, but the words the
 * requestor owns; writes recall an owned line (RvkO) before writing
 * (docs/paper-notes.md, the Spandex readings 1). */
#define LG "--line 16 --gran line"
#define LO_IN "ReqO+data 2 0x100 0x1\n"
#define LO_OUT "MemRd 0x100\nRspO+data 2 0x100 0xf 0x100 0x104 0x108 0x10c\n"
static const row line_rows[] = {
    {"line: ReqV on I widened to the line", LG, "ReqV 1 0x100 0x2\n",
     "MemRd 0x100\nRspV 1 0x100 0xf 0x100 0x104 0x108 0x10c\n" LV(0, FREE)},
    {"line: ReqO on V widened, owned whole", LG, V_IN "ReqO 1 0x100 0x1\n", V_OUT "RspO 1 0x100 0xf\n" LV(0, "1,1,1,1")},
    {"line: a widened ReqO on I allocates without a fill", LG, "ReqO 1 0x100 0x1\n", "RspO 1 0x100 0xf\n" LV(0, "1,1,1,1")},
    {"line: ReqO+data owns the line, ReqV forwarded whole", LG, LO_IN "ReqV 1 0x100 0x1\n",
     LO_OUT "FwdReqV 2 0x100 0xf 1\n" LV(0, "2,2,2,2")},
    {"line: ReqWT on an owned line recalls it, then writes", LG,
     LO_IN "ReqWT 1 0x100 0x2 0x55\nRspRvkO 2 0x100 0xf 0xa 0xb 0xc 0xd\nReqV 3 0x100 0xf\n",
     LO_OUT "RvkO 2 0x100 0xf\nRspWT 1 0x100 0x2\nRspV 3 0x100 0xf 0xa 0x55 0xc 0xd\n" LV(1, FREE)},
    {"line: ReqWT on an S line invalidates every sharer", "--line 16 --gran line --reqs 1",
     S_IN "ReqWT 1 0x100 0x2 0x55\nAck 3 0x100\n", S_OUT "Inv 3 0x100\nRspWT 1 0x100 0x2\n" LV(1, FREE)},
    {"line: ReqWT+data revokes every word of the owner", LG,
     LO_IN "ReqWT+data 1 0x100 0x1 add 0x1\nRspRvkO 2 0x100 0xf 0x10 0x11 0x12 0x13\n",
     LO_OUT "RvkO 2 0x100 0xf\nRspWT+data 1 0x100 0x1 0x10\n" LV(1, FREE)},
    {"line: ReqWB keeps its mask", LG, LO_IN "ReqWB 2 0x100 0x3 0x7 0x8\n",
     LO_OUT "RspWB 2 0x100 0x3\n" LV(1, "-,-,2,2")},
    {"line: the widening leaves out the requestor's words (no X15)", LG,
     LO_IN "ReqWB 2 0x100 0x3 0x7 0x8\nReqS 2 0x100 0x1\n",
     LO_OUT "RspWB 2 0x100 0x3\nRspO+data 2 0x100 0x3 0x7 0x8\n" LV(1, "2,2,2,2")},
    {"word: the same ReqWT+data revokes the requested word only", L16,
     "ReqO+data 2 0x100 0xf\nReqWT+data 1 0x100 0x1 add 0x1\nRspRvkO 2 0x100 0x1 0x10\n",
     LO_OUT "RvkO 2 0x100 0x1\nRspWT+data 1 0x100 0x1 0x10\n" LV(1, "-,2,2,2")},
};
ROW_TESTS(spandex_line, line_rows)

/* Extra words (Table II's DeNovo footnote, --extra-words): a served ReqV of
 * a listed device gets every word of the line nobody owns; an unlisted
 * device, a ReqV served by owners only and a ReqS(2) get what they asked. */
#define XW "--line 16 --extra-words 1"
static const row extra_rows[] = {
    {"extra: a one-word ReqV on I gets the whole line", XW, "ReqV 1 0x100 0x2\n",
     "MemRd 0x100\nRspV 1 0x100 0xf 0x100 0x104 0x108 0x10c\n" LV(0, FREE)},
    {"extra: owned words are forwarded or left out", XW, O_IN "ReqV 1 0x100 0x1\n",
     O_OUT "RspV 1 0x100 0x9 0x100 0x10c\n" LV(0, "-,2,2,-")},
    {"extra: a ReqV served by its owner alone gets no extra words", XW, O_IN "ReqV 1 0x100 0x2\n",
     O_OUT "FwdReqV 2 0x100 0x2 1\n" LV(0, "-,2,2,-")},
    {"extra: a device not listed gets its words only", XW, O_IN "ReqV 3 0x100 0x1\n",
     O_OUT "RspV 3 0x100 0x1 0x100\n" LV(0, "-,2,2,-")},
    {"extra: a written-back word is up to date again", XW, O_IN "ReqWB 2 0x100 0x2 0x55\nReqV 1 0x100 0x8\n",
     O_OUT "RspWB 2 0x100 0x2\nRspV 1 0x100 0xb 0x100 0x55 0x10c\n" LV(1, "-,-,2,-")},
    {"extra: S words are up to date", "--line 16 --extra-words 1 --reqs 1", S_IN "ReqV 1 0x100 0x4\n",
     S_OUT "RspV 1 0x100 0xf 0x100 0x104 0x108 0x10c\nLINE 0x100 S sh=0x8 d=0 own=" FREE "\n"},
    {"extra: a ReqS served as a ReqV (option 2) gets its words only", "--line 16 --extra-words 1 --reqs 2",
     "ReqS 1 0x100 0x1\n", "MemRd 0x100\nRspV 1 0x100 0x1 0x100\n" LV(0, FREE)},
    {"extra: the line baseline asks whole lines anyway", "--line 16 --gran line --extra-words 1", O_IN "ReqV 1 0x100 0x1\n",
     "MemRd 0x100\nRspO+data 2 0x100 0xf 0x100 0x104 0x108 0x10c\nFwdReqV 2 0x100 0xf 1\n" LV(0, "2,2,2,2")},
};
ROW_TESTS(spandex_extra, extra_rows)

/* Every directed row again with the owner IDs in a separate array
 * (--owner-store array): the messages must not change. */
Test(spandex_cfg, owner_store_array_prints_the_same)
{
    static const struct {
        const row *t;
        size_t n;
    } tabs[] = {{table3, NROWS(table3)}, {rules, NROWS(rules)}, {fig1, NROWS(fig1)},
                {evict, NROWS(evict)},   {defer, NROWS(defer)}, {reqs, NROWS(reqs)}};
    size_t i, j;
    for (i = 0; i < NROWS(tabs); i++)
        for (j = 0; j < tabs[i].n; j++) {
            row r = tabs[i].t[j];
            char opts[256];
            snprintf(opts, sizeof opts, "%s --owner-store array", r.opts);
            r.opts = opts;
            run_row(&r);
        }
}

/* ----------------------------------------------- refusals (spec 9.2, X15) -- */

/* A trace the tool must refuse: status 2, nothing on standard output, one
 * line on standard error naming the input line `lineno`. */
typedef struct {
    const char *opts;
    const char *trace;
    unsigned lineno;
} refusal;

static const refusal bad_traces[] = {
    /* malformed lines */
    {L16, "ReqV 1\n", 1},
    {L16, "ReqV 1 0x100\n", 1},
    {L16, "ReqV one 0x100 0x1\n", 1},
    {L16, "ReqV 1 0xzz 0x1\n", 1},
    {L16, "Ack 1\n", 1},
    {L16, "ReqV 1 0x100 0x1\nReqV 1 0x100 0x1 extra\n", 2},
    /* unknown events and ops: outputs are not inputs */
    {L16, "ReqX 1 0x100 0x1\n", 1},
    {L16, "RspV 1 0x100 0x1 0x5\n", 1},
    {L16, "Inv 1 0x100\n", 1},
    {L16, "MemRd 0x100\n", 1},
    {L16, "Nack 1 0x100 0x1\n", 1},
    {L16, "ReqWT+data 1 0x100 0x1 xor 0x1\n", 1},
    {L16, "ReqWT+data 1 0x100 0x1 max 0x1\n", 1},
    {L16, "ReqWT+data 1 0x100 0x1\n", 1},
    /* devices */
    {L16, "ReqV 4 0x100 0x1\n", 1},
    {"--line 16 --devs 2", "ReqV 2 0x100 0x1\n", 1},
    {L16, "ReqV -1 0x100 0x1\n", 1},
    {L16, "Ack 4 0x100\n", 1},
    /* masks */
    {L16, "ReqV 1 0x100 0x0\n", 1},
    {L16, "ReqV 1 0x100 0x10\n", 1},
    {"", "ReqV 1 0x100 0x10000\n", 1},
    {L16, "ReqV 1 0x100 zz\n", 1},
    {L16, "RspRvkO 1 0x100 0x0\n", 1},
    /* values */
    {L16, "ReqWT 1 0x100 0x3 0x1\n", 1},
    {L16, "ReqWT 1 0x100 0x1\n", 1},
    {L16, "ReqWT 1 0x100 0x1 0x1 0x2\n", 1},
    {L16, "ReqWB 1 0x100 0x3 0x1 0x2 0x3\n", 1},
    {L16, "ReqV 1 0x100 0x1 0x5\n", 1},
    {L16, "ReqO 1 0x100 0x1 0x5\n", 1},
    {L16, "ReqWT+data 1 0x100 0x1 rd 0x5\n", 1},
    {L16, "ReqWT+data 1 0x100 0x1 add\n", 1},
    {L16, "ReqWT+data 1 0x100 0x3 swp 0x1\n", 1},
    {L16, "ReqWT 1 0x100 0x1 0xq\n", 1},
    {L16, "ReqWT 1 0x100 0x1 0x100000000\n", 1},
    {"--line 32 --word 8", "ReqWT 1 0x100 0x1 0x10000000000000000\n", 1},
    {L16, "ReqO 1 0x100 0x1\nRspRvkO 1 0x100 0x1 0x100000000\n", 2},
    {L16, "Ack 1 0x100 0x1\n", 1},
    /* addresses */
    {L16, "ReqV 1 0x1000000000000 0x1\n", 1},
    {"--line 16 --addr-bits 16", "ReqV 1 0x10000 0x1\n", 1},
    {"--line 16 --addr-bits 16", "ReqV 1 0xfff0 0x1\nAck 1 0x10000\n", 2},
    /* answers nobody waits for */
    {L16, "Ack 1 0x100\n", 1},
    {L16, "ReqV 1 0x100 0x1\nAck 1 0x100\n", 2},
    {L16, "# a comment\n\nAck 1 0x100\n", 3},
    {L16, "RspRvkO 1 0x100 0x1 0x5\n", 1},
    {L16R1, S_IN "ReqWT 1 0x100 0x1 0x5\nAck 2 0x100\n", 3},
    {L16R1, S_IN "ReqWT 1 0x100 0x1 0x5\nAck 3 0x200\n", 3},
    {L16R1, S_IN "ReqWT 1 0x100 0x1 0x5\nAck 3 0x100\nAck 3 0x100\n", 4},
    {L16R1, S_IN "ReqS 1 0x100 0xf\n\nAck 1 0x100\n", 4},
    {L16, O_IN "ReqWT+data 1 0x100 0x2 rd\nRspRvkO 3 0x100 0x2 0x5\n", 3},
    {L16, O_IN "ReqWT+data 1 0x100 0x2 rd\nRspRvkO 2 0x100 0x4 0x5\n", 3},
    {L16, O_IN "ReqWT+data 1 0x100 0x2 rd\nRspRvkO 2 0x100 0x3 0x5 0x6\n", 3},
    {L16, O_IN "ReqWT+data 1 0x100 0x2 rd\nRspRvkO 2 0x100 0x2 0x5\nRspRvkO 2 0x100 0x2 0x5\n", 4},
    {L16, O_IN "RspRvkO 2 0x100 0x2 0x5\n", 2},
    {L16R1, O_IN "ReqS 1 0x100 0x6\nRspRvkO 2 0x100 0x6 0x5 0x6\nRspRvkO 2 0x100 0x6 0x5 0x6\n", 4},
    {L16, O_IN "ReqO 3 0x100 0x1\nReqWT+data 1 0x100 0x7 rd\nRspRvkO 3 0x100 0x3 0x5 0x6\n", 4},
    /* a request for words the requestor owns (X15) */
    {L16, O_IN "ReqV 2 0x100 0x2\n", 2},
    {L16R1, O_IN "ReqS 2 0x100 0xf\n", 2},
    {"--line 16 --reqs 3", O_IN "ReqS 2 0x100 0x2\n", 2},
    {L16, O_IN "ReqWT 2 0x100 0x4 0x5\n", 2},
    {L16, O_IN "ReqO 2 0x100 0x6\n", 2},
    {L16, O_IN "ReqO+data 2 0x100 0xf\n", 2},
    {L16, O_IN "ReqWT+data 2 0x100 0x2 rd\n", 2},
    {L16, "ReqO 1 0x100 0xf\nReqV 0 0x100 0x1\nReqO 1 0x100 0x8\n", 3},
};

/* In process (with and without --check) and through `cohmodel
 * spandex-llc`: nothing on standard output, whichever line is refused. */
Test(spandex_errors, bad_traces_refused_with_the_line)
{
    size_t i;
    for (i = 0; i < NROWS(bad_traces); i++) {
        const refusal *b = &bad_traces[i];
        spandex_llc_cfg c;
        char *out, *err, want[32];
        int rc, check;
        mk_cfg(&c, b->opts);
        snprintf(want, sizeof want, "line %u:", b->lineno);
        for (check = 0; check < 2; check++) {
            rc = tool(&c, check, 1, b->trace, &out, &err);
            cr_expect_eq(rc, 2, "[%s] %s: status %d (stdout: %s)", b->opts, b->trace, rc, out);
            cr_expect_eq(line_count(err), 1, "[%s] %s: not one line: %s", b->opts, b->trace, err);
            cr_expect(strstr(err, want) != NULL, "[%s] %s: '%s' not named: %s", b->opts, b->trace, want, err);
            cr_expect_str_empty(out, "[%s] %s: output on a refusal: %s", b->opts, b->trace, out);
            free(out);
            free(err);
        }
        model_refuses("spandex-llc", b->opts, b->trace, want);
    }
}

/* The refusal names what is wrong. */
Test(spandex_errors, reasons_name_the_culprit)
{
    static const struct {
        const char *trace, *word;
    } named[] = {
        {"ReqX 1 0x100 0x1\n", "ReqX"},
        {"ReqWT+data 1 0x100 0x1 xor 0x1\n", "xor"},
        {"ReqWT 1 0x100 0x1 0x100000000\n", "0x100000000"},
        {"ReqWT 1 0x100 0x1 0xq\n", "0xq"},
    };
    size_t i;
    spandex_llc_cfg c;
    mk_cfg(&c, L16);
    for (i = 0; i < NROWS(named); i++) {
        char *out, *err;
        int rc = tool(&c, 0, 0, named[i].trace, &out, &err);
        cr_expect_eq(rc, 2, "%s", named[i].trace);
        cr_expect(strstr(err, named[i].word) != NULL, "%s: '%s' not named: %s", named[i].trace, named[i].word,
                  err);
        free(out);
        free(err);
    }
}

/* The command-line tools refuse the same way (exit 2, one line). */
Test(spandex_errors, cohmodel_refuses)
{
    model_refuses("spandex-llc", "--line 16", "ReqV 1 0x100 0x1\nAck 1 0x100\n", "line 2:");
    model_refuses("spandex-llc", "--line 16", "ReqO 1 0x100 0x1\nReqV 1 0x100 0x1\n", "line 2:");
    model_refuses("spandex-llc", "--word 5", "", "5");
    model_refuses("spandex-llc", "--mesi 9", "", "9");
    model_refuses("spandex-llc", "--reqs 4", "", "4");
    model_refuses("spandex-llc", "--ways 3", "", "3");
    model_refuses("spandex-llc", "--frobnicate 1", "", "frobnicate");
    model_refuses("spandex-gen", "--events x", "", "x");
    model_refuses("spandex-gen", "--word 5", "", "5");
}

/* ------------------------------------------------ the checker (spec 6) -- */

/* One 9.2 line, an input event or an LLC message, as a message of a
 * configuration with `words` words (MemWr: every word). */
static void parse_msg(const char *text, unsigned words, spandex_msg *m)
{
    char buf[512], *tok[80], *save = NULL, *t;
    unsigned n = 0, i = 4, w;
    int k;
    snprintf(buf, sizeof buf, "%s", text);
    for (t = strtok_r(buf, " ", &save); t && n < 80; t = strtok_r(NULL, " ", &save))
        tok[n++] = t;
    memset(m, 0, sizeof *m);
    cr_assert(n >= 2, "'%s'", text);
    k = spandex_msg_find(tok[0]);
    cr_assert(k >= 0, "'%s': unknown message", text);
    m->kind = (spandex_msg_kind)k;
    if (k == SPANDEX_MEMRD || k == SPANDEX_MEMWR) {
        m->line = strtoull(tok[1], NULL, 16);
        m->mask = k == SPANDEX_MEMWR ? (words < 64 ? (1ull << words) - 1 : ~0ull) : 0;
        for (w = 0; k == SPANDEX_MEMWR && w < words && 2 + w < n; w++)
            m->v[w] = strtoull(tok[2 + w], NULL, 16);
        return;
    }
    cr_assert(n >= 3, "'%s'", text);
    m->dev = (unsigned)strtoul(tok[1], NULL, 10);
    m->line = strtoull(tok[2], NULL, 16);
    if (k == SPANDEX_INV || k == SPANDEX_ACK)
        return;
    cr_assert(n >= 4, "'%s'", text);
    m->mask = strtoull(tok[3], NULL, 16);
    if (spandex_msg_net(m->kind) == SPANDEX_NET_FWD && k != SPANDEX_RVKO)
        m->req = (unsigned)strtoul(tok[i++], NULL, 10);
    if (k == SPANDEX_REQWTDATA) {
        cr_assert(i < n, "'%s': no op", text);
        for (m->op = 0; m->op < 8 && strcmp(spandex_op_name(m->op), tok[i]) != 0; m->op++)
            ;
        i++;
        if (m->op == SPANDEX_OP_RD)
            return;
    }
    for (w = 0; spandex_msg_has_data(m->kind) && w < words; w++)
        if (m->mask >> w & 1) {
            cr_assert(i < n, "'%s': too few values", text);
            m->v[w] = strtoull(tok[i++], NULL, 16);
        }
}

/* Feeds a sequence to a fresh checker: "< " lines are input events, "> "
 * lines the LLC's messages; the state is checked from the messages alone
 * (no core) after each event's messages, and the end after the last. The
 * first report (malloc, "" when none). */
static char *checker_says(const char *opts, const char *seq)
{
    spandex_llc_cfg c;
    spandex_llc_chk *k;
    char buf[4096], *line, *save = NULL, *r;
    unsigned lineno = 0, words;
    int rc = 0;
    mk_cfg(&c, opts);
    words = c.line / c.word;
    k = spandex_llc_chk_new(&c);
    cr_assert_not_null(k);
    snprintf(buf, sizeof buf, "%s", seq);
    for (line = strtok_r(buf, "\n", &save); line && rc == 0; line = strtok_r(NULL, "\n", &save)) {
        spandex_msg m;
        cr_assert(line[0] && line[1] == ' ' && (line[0] == '<' || line[0] == '>'), "'%s'", line);
        parse_msg(line + 2, words, &m);
        if (line[0] == '<') {
            rc = lineno ? spandex_llc_chk_state(k, NULL) : 0;
            if (rc == 0)
                rc = spandex_llc_chk_input(k, &m, ++lineno);
        } else
            rc = spandex_llc_chk_output(k, &m);
    }
    if (rc == 0)
        rc = spandex_llc_chk_state(k, NULL);
    if (rc == 0)
        rc = spandex_llc_chk_end(k, NULL);
    r = strdup(rc ? spandex_llc_chk_error(k) : "");
    cr_assert(rc == 0 || r[0], "the checker failed without a report");
    spandex_llc_chk_free(k);
    return r;
}

typedef struct {
    const char *inv; /* "LLC1".."LLC8", or "" for a correct sequence */
    const char *opts;
    const char *seq;
} crafted;

#define SEQ_O "< ReqO+data 2 0x100 0x6\n> MemRd 0x100\n> RspO+data 2 0x100 0x6 0x104 0x108\n"
#define SEQ_S "< ReqS 3 0x100 0xf\n> MemRd 0x100\n> RspS 3 0x100 0xf 0x100 0x104 0x108 0x10c\n"
#define SEQ_V "< ReqV 0 0x100 0xf\n> MemRd 0x100\n> RspV 0 0x100 0xf 0x100 0x104 0x108 0x10c\n"

static const crafted crafted_seqs[] = {
    /* correct sequences (each one a row of the tables above) */
    {"", L16, SEQ_O "< ReqV 1 0x100 0xf\n> FwdReqV 2 0x100 0x6 1\n> RspV 1 0x100 0x9 0x100 0x10c\n"},
    {"", L16, SEQ_O "< ReqWT+data 1 0x100 0x6 add 0x5 0x6\n> RvkO 2 0x100 0x6\n< RspRvkO 2 0x100 0x6 0x50 0x60\n"
              "> RspWT+data 1 0x100 0x6 0x50 0x60\n< ReqV 3 0x100 0x6\n> RspV 3 0x100 0x6 0x55 0x66\n"},
    {"", L16R1, SEQ_S "< ReqWT 1 0x100 0x1 0x11\n> Inv 3 0x100\n< ReqV 2 0x100 0xf\n< Ack 3 0x100\n"
                "> RspWT 1 0x100 0x1\n> RspV 2 0x100 0xf 0x11 0x104 0x108 0x10c\n"},
    {"", EV, "< ReqWT 0 0x100 0x1 0x55\n> MemRd 0x100\n> RspWT 0 0x100 0x1\n" "< ReqV 0 0x200 0xf\n> MemRd 0x200\n> RspV 0 0x200 0xf 0x200 0x204 0x208 0x20c\n"
             "< ReqV 0 0x300 0xf\n> MemWr 0x100 0x55 0x104 0x108 0x10c\n> MemRd 0x300\n"
             "> RspV 0 0x300 0xf 0x300 0x304 0x308 0x30c\n"},
    /* extra words (--extra-words 1): legal only on a listed device's ReqV, unowned and latest */
    {"", XW, SEQ_O "< ReqV 1 0x100 0x1\n> RspV 1 0x100 0x9 0x100 0x10c\n"},
    {"LLC3", XW, SEQ_O "< ReqV 3 0x100 0x1\n> RspV 3 0x100 0x9 0x100 0x10c\n"},
    {"LLC3", XW, SEQ_O "< ReqV 1 0x100 0x1\n> RspV 1 0x100 0xb 0x100 0x104 0x10c\n"},
    {"LLC7", XW, "< ReqWT 0 0x100 0x2 0x5\n> MemRd 0x100\n> RspWT 0 0x100 0x2\n< ReqV 1 0x100 0x1\n"
                 "> RspV 1 0x100 0x3 0x100 0x104\n"},
    /* LLC1: owners */
    {"LLC1", L16, SEQ_O "< ReqV 1 0x100 0x6\n> FwdReqV 3 0x100 0x6 1\n"},
    {"LLC1", L16, SEQ_O "< ReqV 1 0x100 0x6\n> FwdReqV 1 0x100 0x6 1\n"},
    {"LLC1", L16, SEQ_O "< ReqWT 1 0x100 0x2 0x5\n> RspWT 1 0x100 0x2\n"},
    {"LLC1", L16, SEQ_V "< ReqWT+data 1 0x100 0x1 rd\n> RvkO 2 0x100 0x1\n"},
    {"LLC1", L16, SEQ_O "< ReqWT+data 1 0x100 0x2 rd\n> RspWT+data 1 0x100 0x2 0x104\n"},
    /* LLC2: owned words stay resident */
    {"LLC2", L16, SEQ_O "< ReqV 0 0x200 0xf\n> MemWr 0x100 0x100 0x104 0x108 0x10c\n"},
    {"LLC2", L16, SEQ_O "< ReqV 0 0x200 0xf\n> MemRd 0x100\n"},
    /* LLC3: the response and the forwards partition the mask */
    {"LLC3", L16, "< ReqV 1 0x100 0x3\n> MemRd 0x100\n> RspV 1 0x100 0x7 0x100 0x104 0x108\n"},
    {"LLC3", L16, "< ReqV 1 0x100 0x3\n> MemRd 0x100\n> RspV 1 0x100 0x3 0x100 0x104\n> RspV 1 0x100 0x1 0x100\n"},
    {"LLC3", L16, "< ReqV 1 0x100 0x3\n> MemRd 0x100\n> RspV 1 0x100 0x1 0x100\n"},
    {"LLC3", L16, SEQ_O "< ReqV 1 0x100 0xf\n> FwdReqV 2 0x100 0x6 1\n> RspV 1 0x100 0xf 0x100 0x104 0x108 0x10c\n"},
    {"LLC3", L16, "< ReqWT+data 1 0x100 0x3 rd\n> MemRd 0x100\n> RspWT+data 1 0x100 0x1 0x100\n"},
    {"LLC3", L16, "< ReqWB 1 0x100 0x3 0x1 0x2\n> RspWB 1 0x100 0x1\n"},
    {"LLC3", L16, "< ReqV 1 0x100 0x1\n> MemRd 0x100\n> RspS 1 0x100 0x1 0x100\n"},
    {"LLC3", L16, "< ReqV 1 0x100 0x1\n> MemRd 0x100\n> Nack 1 0x100 0x1\n"},
    {"LLC3", L16, "< ReqV 1 0x100 0x1\n> MemRd 0x100\n> RspV 2 0x100 0x1 0x100\n"},
    /* LLC4: Acks and revocations match the probes */
    {"LLC4", L16, "< Ack 1 0x100\n"},
    {"LLC4", L16, "< RspRvkO 1 0x100 0x1 0x5\n"},
    {"LLC4", L16, SEQ_O "< ReqWT+data 1 0x100 0x2 rd\n> RvkO 2 0x100 0x2\n< RspRvkO 2 0x100 0x4 0x5\n"},
    {"LLC4", L16R1, SEQ_S "< ReqWT 1 0x100 0x1 0x11\n> Inv 3 0x100\n> Inv 3 0x100\n"},
    {"LLC4", L16R1, SEQ_S "< ReqWT 1 0x100 0x1 0x11\n> Inv 3 0x100\n< Ack 2 0x100\n"},
    /* LLC5: blocked lines answer nothing; deferred requests in order */
    {"LLC5", L16R1, SEQ_S "< ReqWT 1 0x100 0x1 0x11\n> Inv 3 0x100\n< ReqV 2 0x100 0xf\n"
                    "> RspV 2 0x100 0xf 0x100 0x104 0x108 0x10c\n"},
    {"LLC5", L16R1, SEQ_S "< ReqWT 1 0x100 0x1 0x11\n> Inv 3 0x100\n< ReqV 2 0x100 0x2\n< ReqV 0 0x100 0x2\n"
                    "< Ack 3 0x100\n> RspWT 1 0x100 0x1\n> RspV 0 0x100 0x2 0x104\n"},
    {"LLC5", L16, SEQ_O "< ReqWT+data 1 0x100 0x2 rd\n> RvkO 2 0x100 0x2\n< ReqV 3 0x100 0x1\n"
                  "> RspV 3 0x100 0x1 0x100\n"},
    /* LLC7: values */
    {"LLC7", L16, "< ReqV 1 0x100 0x1\n> MemRd 0x100\n> RspV 1 0x100 0x1 0x999\n"},
    {"LLC7", L16, "< ReqWT 1 0x100 0x1 0x5\n> MemRd 0x100\n> RspWT 1 0x100 0x1\n< ReqV 2 0x100 0x1\n"
                  "> RspV 2 0x100 0x1 0x100\n"},
    {"LLC7", L16, "< ReqWT 1 0x100 0x1 0x5\n> MemRd 0x100\n> RspWT 1 0x100 0x1\n< ReqV 2 0x200 0x1\n"
                  "> MemWr 0x100 0x6 0x104 0x108 0x10c\n"},
    {"LLC7", L16, "< ReqWT 1 0x100 0x1 0x5\n> MemRd 0x100\n> RspWT 1 0x100 0x1\n< ReqV 2 0x100 0x1\n"
                  "> MemRd 0x100\n"},
    {"LLC7", L16, SEQ_V "< ReqWT+data 1 0x100 0x1 add 0x1\n> RspWT+data 1 0x100 0x1 0x101\n"},
    {"LLC7", L16, SEQ_O "< ReqWT+data 1 0x100 0x2 rd\n> RvkO 2 0x100 0x2\n< RspRvkO 2 0x100 0x2 0x50\n"
                  "> RspWT+data 1 0x100 0x2 0x104\n"},
    /* LLC8: write-backs */
    {"LLC8", L16, SEQ_V "< ReqV 0 0x200 0xf\n> MemWr 0x100 0x100 0x104 0x108 0x10c\n"},
    {"LLC8", L16, "< ReqWT 1 0x100 0x1 0x5\n> MemRd 0x100\n> RspWT 1 0x100 0x1\n< ReqV 2 0x200 0x1\n"
                  "> MemWr 0x100 0x5 0x104 0x108 0x10c\n> MemWr 0x100 0x5 0x104 0x108 0x10c\n"},
};

Test(spandex_check, crafted_sequences_name_the_invariant)
{
    size_t i;
    for (i = 0; i < NROWS(crafted_seqs); i++) {
        const crafted *x = &crafted_seqs[i];
        char *r = checker_says(x->opts, x->seq);
        if (!x->inv[0])
            cr_expect_str_empty(r, "a correct sequence reported: %s\n%s", r, x->seq);
        else
            cr_expect(strncmp(r, x->inv, 4) == 0 && r[4] == ' ', "expected %s, got '%s' on\n%s", x->inv, r,
                      x->seq);
        free(r);
    }
}

static void chk_emit(void *ctx, const spandex_msg *m)
{
    cr_expect_eq(spandex_llc_chk_output(ctx, m), 0, "%s", spandex_llc_chk_error(ctx));
}

/* A core and a checker fed the same trace (every event checked). */
static void fed(const spandex_llc_cfg *c, const char *trace, spandex_llc **l, spandex_llc_chk **k)
{
    char buf[2048], *line, *save = NULL, err[256];
    unsigned lineno = 0;
    *l = spandex_llc_new(c);
    *k = spandex_llc_chk_new(c);
    cr_assert(*l && *k);
    snprintf(buf, sizeof buf, "%s", trace);
    for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        spandex_msg m;
        parse_msg(line, c->line / c->word, &m);
        cr_assert_eq(spandex_llc_chk_input(*k, &m, ++lineno), 0, "%s", spandex_llc_chk_error(*k));
        cr_assert_eq(spandex_llc_event(*l, &m, chk_emit, *k, err, sizeof err), 0, "%s: %s", line, err);
        cr_assert_eq(spandex_llc_chk_state(*k, *l), 0, "%s", spandex_llc_chk_error(*k));
    }
}

/* A resident line's record, altered by `how`, must be reported as `inv`. */
static void line_reported(const char *trace, uint64_t line, int how, const char *inv)
{
    spandex_llc_cfg c;
    spandex_llc *l;
    spandex_llc_chk *k;
    spandex_llc_line_info x;
    mk_cfg(&c, L16R1);
    fed(&c, trace, &l, &k);
    cr_assert_eq(spandex_llc_line(l, line, &x), 1);
    switch (how) {
    case 0: break;                                        /* unaltered */
    case 1: x.state = 'S', x.sharers = 0; break;          /* S, no sharer */
    case 2: x.owned |= 1, x.owner[0] = 1; break;          /* an unknown owner */
    case 3: x.blocked = 1, x.pend_ack = 1ull << 3; break; /* a transaction nobody opened */
    case 4: x.data[0] ^= 1; break;                        /* a value never written */
    case 5: x.owned = 0; break;                           /* owners forgotten */
    default: break;
    }
    if (how == 0)
        cr_expect_eq(spandex_llc_chk_line(k, &x), 0, "%s", spandex_llc_chk_error(k));
    else {
        cr_expect_eq(spandex_llc_chk_line(k, &x), -1, "%s: case %d not reported", inv, how);
        cr_expect(strncmp(spandex_llc_chk_error(k), inv, 4) == 0, "%s expected: %s", inv,
                  spandex_llc_chk_error(k));
    }
    spandex_llc_chk_free(k);
    spandex_llc_free(l);
}

Test(spandex_check, line_records)
{
    const char *s = S_IN "ReqWT 1 0x100 0x2 0x11\nAck 3 0x100\nReqS 2 0x100 0xf\n";
    const char *o = O_IN "ReqS 3 0x100 0x9\n";
    int how;
    for (how = 0; how < 5; how++)
        line_reported(s, 0x100, how, how == 1 ? "LLC6" : how == 2 ? "LLC1" : how == 3 ? "LLC4" : "LLC7");
    line_reported(o, 0x100, 0, "");
    line_reported(o, 0x100, 5, "LLC1");
    line_reported(o, 0x100, 3, "LLC4");
}

/* LLC8: a MemWr that is not the whole line. */
Test(spandex_check, partial_write_back)
{
    spandex_llc_cfg c;
    spandex_llc_chk *k;
    spandex_msg m;
    mk_cfg(&c, L16);
    k = spandex_llc_chk_new(&c);
    cr_assert_not_null(k);
    parse_msg("ReqWT 1 0x100 0x1 0x5", 4, &m);
    cr_assert_eq(spandex_llc_chk_input(k, &m, 1), 0);
    parse_msg("MemRd 0x100", 4, &m);
    cr_assert_eq(spandex_llc_chk_output(k, &m), 0);
    parse_msg("RspWT 1 0x100 0x1", 4, &m);
    cr_assert_eq(spandex_llc_chk_output(k, &m), 0);
    parse_msg("ReqV 2 0x200 0x1", 4, &m);
    cr_assert_eq(spandex_llc_chk_input(k, &m, 2), 0);
    parse_msg("MemWr 0x100 0x5 0x104 0x108 0x10c", 4, &m);
    m.mask = 0x3;
    cr_assert_eq(spandex_llc_chk_output(k, &m), -1);
    cr_expect(strncmp(spandex_llc_chk_error(k), "LLC8", 4) == 0, "%s", spandex_llc_chk_error(k));
    spandex_llc_chk_free(k);
}

/* ------------------------------------------ random traces (spec 9.3) -- */

/* Every preset with every ReqS policy and both owner stores, then a few
 * corners (one set of one or two ways, unbounded sets, 64-bit words,
 * many devices). */
static const char *const rnd_presets[] = {"default", "paper", "fpga", "line"};
static const char *const rnd_reqs[] = {"1", "2", "3", "paper"};
static const char *const rnd_stores[] = {"data", "array"};
static const char *const rnd_extra[] = {
    "--line 16 --sets 1 --ways 2", "--line 16 --sets 1 --ways 1 --reqs 1", "--ways 0 --reqs 1",
    "--word 8 --line 32 --reqs 1 --mesi 0,2", "--devs 64 --reqs paper --mesi 0-31", "--devs 2 --line 8 --reqs 1",
    "--line 16 --sets 1 --ways 2 --extra-words 0-2", "--mesi 2-3 --extra-words 0-1",
};
#define RND_COMBOS (NROWS(rnd_presets) * NROWS(rnd_reqs) * NROWS(rnd_stores))
#define RND_EVENTS 20000

/* The options of random case i. */
static void rnd_opts(size_t i, char *buf, size_t len)
{
    if (i < RND_COMBOS)
        snprintf(buf, len, "--config %s --reqs %s --owner-store %s", rnd_presets[i / 8], rnd_reqs[i / 2 % 4],
                 rnd_stores[i % 2]);
    else
        snprintf(buf, len, "%s", rnd_extra[i - RND_COMBOS]);
}

/* A spandex-gen trace of `events` events for the options (malloc). */
static char *gen_trace(const char *opts, uint64_t seed, unsigned events, spandex_llc_cfg *llc)
{
    spandex_gen_cfg g;
    char buf[512], err[256], *tok[32], *save = NULL, *t, *text = NULL;
    size_t n = 0, i, len = 0;
    FILE *f;
    snprintf(buf, sizeof buf, "%s", opts);
    for (t = strtok_r(buf, " ", &save); t && n < 32; t = strtok_r(NULL, " ", &save))
        tok[n++] = t;
    spandex_gen_cfg_default(&g);
    for (i = 0; i + 1 < n; i += 2)
        if (strcmp(tok[i], "--config") == 0)
            cr_assert_eq(spandex_gen_cfg_preset(&g, tok[i + 1]), 0);
    for (i = 0; i + 1 < n; i += 2)
        if (strcmp(tok[i], "--config") != 0)
            cr_assert_eq(spandex_gen_cfg_option(&g, tok[i] + 2, tok[i + 1], err, sizeof err), 0, "%s", err);
    g.seed = seed;
    g.events = events;
    cr_assert_eq(spandex_gen_cfg_check(&g, err, sizeof err), 0, "%s: %s", opts, err);
    f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    cr_assert_eq(spandex_gen_write(&g, f, err, sizeof err), 0, "%s: %s", opts, err);
    fclose(f);
    *llc = g.llc;
    return text;
}

ParameterizedTestParameters(spandex_random, checked)
{
    static size_t idx[RND_COMBOS + NROWS(rnd_extra)];
    size_t i;
    for (i = 0; i < NROWS(idx); i++)
        idx[i] = i;
    return cr_make_param_array(size_t, idx, NROWS(idx));
}

/* No invariant violated, every request answered, every line drained. */
ParameterizedTest(size_t *ip, spandex_random, checked, .timeout = 120)
{
    char opts[256], *trace, *out, *err, *p;
    spandex_llc_cfg c;
    int rc;
    rnd_opts(*ip, opts, sizeof opts);
    trace = gen_trace(opts, 1000 + *ip, RND_EVENTS, &c);
    cr_assert_gt(line_count(trace), RND_EVENTS, "%s: a short trace", opts);
    rc = tool(&c, 1, 1, trace, &out, &err);
    cr_assert_eq(rc, 0, "%s: status %d: %s%s", opts, rc, err, strstr(out, "CHECK") ? strstr(out, "CHECK") : "");
    cr_expect(strstr(out, "CHECK") == NULL, "%s", opts);
    /* " blk" and " q=" appear only in the LINE records */
    p = strstr(out, " blk") ? strstr(out, " blk") : strstr(out, " q=");
    cr_expect(p == NULL, "%s: a line is not drained: %.60s", opts, p ? p : "");
    free(trace);
    free(out);
    free(err);
}

/* ---------------------------------------- configuration (spec 3.1, 7, 9.2) -- */

Test(spandex_cfg, presets_are_valid)
{
    const char *const *p;
    for (p = spandex_llc_preset_names; *p; p++) {
        spandex_llc_cfg c;
        char err[256];
        cr_assert_eq(spandex_llc_cfg_preset(&c, *p), 0, "%s", *p);
        cr_expect_eq(spandex_llc_cfg_check(&c, err, sizeof err), 0, "%s: %s", *p, err);
    }
    {
        spandex_llc_cfg c;
        cr_expect_eq(spandex_llc_cfg_preset(&c, "nonesuch"), -1);
    }
}

/* 9.2's defaults and the presets' parameters (spec 3.1, Table VI). */
Test(spandex_cfg, defaults_and_presets)
{
    spandex_llc_cfg c;
    mk_cfg(&c, "");
    cr_expect(c.devs == 4 && c.line == 64 && c.word == 4 && c.reqs == SPANDEX_LLC_REQS_PAPER && c.mesi == 0);
    cr_expect(c.owner_store == SPANDEX_LLC_OWNER_DATA && c.gran == SPANDEX_LLC_GRAN_WORD);
    mk_cfg(&c, "--config paper");
    cr_expect(c.devs == 24 && c.mesi == 0xff && c.line == 64, "paper: 8 MESI CPUs of 24 devices");
    mk_cfg(&c, "--config fpga");
    cr_expect(c.line == 8 && c.word == 4, "fpga: two 32-bit words a line (fits an HX8K)");
    mk_cfg(&c, "--config line");
    cr_expect_eq(c.gran, SPANDEX_LLC_GRAN_LINE);
    mk_cfg(&c, "--mesi 0-2,5 --devs 8");
    cr_expect_eq(c.mesi, 0x27);
    mk_cfg(&c, "--mesi none");
    cr_expect_eq(c.mesi, 0);
}

/* Spec 7's field widths for the default and paper configurations. */
Test(spandex_cfg, field_widths)
{
    spandex_llc_cfg c;
    spandex_llc_geom g;
    mk_cfg(&c, "");
    spandex_llc_geom_of(&c, &g);
    cr_expect(g.laddr_bits == 42 && g.words == 16 && g.word_bits == 32 && g.node_bits == 3 && g.dev_bits == 2,
              "default: %u %u %u %u %u", g.laddr_bits, g.words, g.word_bits, g.node_bits, g.dev_bits);
    cr_expect_eq(g.full, 0xffff);
    mk_cfg(&c, "--config paper");
    spandex_llc_geom_of(&c, &g);
    cr_expect(g.laddr_bits == 42 && g.node_bits == 5 && g.dev_bits == 5, "paper: %u %u %u", g.laddr_bits,
              g.node_bits, g.dev_bits);
    mk_cfg(&c, "--owner-store array");
    spandex_llc_geom_of(&c, &g);
    cr_expect_eq(g.owner_bits, 16 * 2, "W x log2 N bits of owner array");
}

/* Bad values are refused with one line naming the value. */
Test(spandex_cfg, bad_options_name_the_value)
{
    static const struct {
        const char *opts, *word;
    } bad[] = {
        {"--word 5", "5"},          {"--word 2", "2"},           {"--devs 1", "1"},
        {"--devs 65", "65"},        {"--line 24", "24"},         {"--line 2", "2"},
        {"--line 512", "512"},      {"--sets 3", "3"},           {"--sets 0", "0"},
        {"--ways 3", "3"},          {"--ways 32", "32"},         {"--reqs 4", "4"},
        {"--reqs one", "one"},      {"--owner-store x", "x"},    {"--gran byte", "byte"},
        {"--txn 0", "0"},           {"--txn 17", "17"},          {"--defer 0", "0"},
        {"--defer 65", "65"},       {"--addr-bits 15", "15"},    {"--addr-bits 65", "65"},
        {"--mesi 9", "9"},          {"--mesi 4", "4"},           {"--mesi x", "x"},
        {"--mesi 3-1", "3-1"},      {"--mesi 64", "64"},         {"--devs 2 --mesi 0-3", "2"},
        {"--sets 1048576 --addr-bits 26", "26"}, {"--devs four", "four"},
    };
    size_t i;
    for (i = 0; i < NROWS(bad); i++) {
        spandex_llc_cfg c;
        char buf[128], err[256] = "", *tok[8], *save = NULL, *t;
        size_t n = 0, j;
        int rc = 0;
        snprintf(buf, sizeof buf, "%s", bad[i].opts);
        for (t = strtok_r(buf, " ", &save); t && n < 8; t = strtok_r(NULL, " ", &save))
            tok[n++] = t;
        spandex_llc_cfg_default(&c);
        for (j = 0; j + 1 < n && rc == 0; j += 2)
            rc = spandex_llc_cfg_option(&c, tok[j] + 2, tok[j + 1], err, sizeof err);
        if (rc == 0)
            rc = spandex_llc_cfg_check_model(&c, err, sizeof err);
        cr_expect_eq(rc, -1, "%s accepted", bad[i].opts);
        cr_expect(strstr(err, bad[i].word) != NULL && strchr(err, '\n') == NULL, "%s: '%s' not named: %s",
                  bad[i].opts, bad[i].word, err);
    }
}

/* Unbounded sets exist in the trace tool only (spec 9.2: W = 0). */
Test(spandex_cfg, unbounded_ways_model_only)
{
    spandex_llc_cfg c;
    char err[256];
    spandex_llc_cfg_default(&c);
    cr_assert_eq(spandex_llc_cfg_option(&c, "ways", "0", err, sizeof err), 0);
    cr_expect_eq(spandex_llc_cfg_check_model(&c, err, sizeof err), 0, "%s", err);
    cr_expect_eq(spandex_llc_cfg_check(&c, err, sizeof err), -1);
}

/* --dump marks a line with an open transaction and the requests waiting
 * for it (spec 9.2: blk, q=<n>). */
Test(spandex_cfg, dump_marks_blocked_lines)
{
    spandex_llc_cfg c;
    char *out, *err;
    mk_cfg(&c, L16R1);
    cr_assert_eq(tool(&c, 1, 1, S_IN "ReqWT 1 0x100 0x1 0x5\nReqV 2 0x100 0xf\nReqV 0 0x100 0x1\n", &out, &err), 0,
                 "%s", err);
    cr_expect(strstr(out, S_OUT "Inv 3 0x100\nLINE 0x100 ") == out, "%s", out);
    cr_expect(strstr(out, " blk q=2\n") != NULL && strcmp(strstr(out, " blk q=2\n"), " blk q=2\n") == 0, "%s", out);
    free(out);
    free(err);
}

/* --stats counts every message kind read and sent (Fig. 1b). */
Test(spandex_cfg, stats_count_messages)
{
    spandex_llc_cfg c;
    spandex_llc_flags fl = {0, 1, 0};
    const char *trace = fig1[1].trace;
    char *out = NULL;
    size_t n = 0;
    FILE *in = fmemopen((void *)trace, strlen(trace), "r"), *fo = open_memstream(&out, &n);
    mk_cfg(&c, FIG);
    cr_assert_eq(spandex_llc_trace_run(&c, &fl, in, "trace", fo, stderr), 0);
    fclose(in);
    fclose(fo);
    cr_expect(strstr(out, "# count ReqO+data 1\n") && strstr(out, "# count ReqWT+data 1\n") &&
                  strstr(out, "# count RvkO 1\n") && strstr(out, "# count RspRvkO 1\n") &&
                  strstr(out, "# count ReqWB 1\n") && strstr(out, "# count RspWB 1\n") &&
                  strstr(out, "# count MemRd 1\n") && !strstr(out, "MemWr"),
              "%s", out);
    free(out);
}
