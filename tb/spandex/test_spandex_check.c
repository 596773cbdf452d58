/*
 * Criterion tests of the Spandex system checker (cmodel/spandex/
 * spandex_check_sys.c, `cohmodel spandex-check`, spec 6 SYS1-SYS8 on the
 * log format of 9.4 and 9.5): the Fig. 1a and 1c logs of
 * tb/spandex/logs/ pass; for every rule a hand-written log that breaks it
 * is caught with its reason (and, where it helps, a corrected twin
 * passes); the SYS8 table of a known log; bad input (exit 2, file and line).
 * Every log is worked out from spec 5 and 9.4 by hand. Devices unless said
 * otherwise: 0 = MESI CPU, 1 = GPU, 2 = DeNovo accelerator; 32-byte lines
 * of eight 32-bit words. Run from the repository root (make unit).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spandex_check_sys.h"
#include "spandex_test.h"
#include "test_util.h"
#include "unit.h"

#define FIG "--dev 0:mesi --dev 1:gpu --dev 2:denovo --line 32"

typedef struct {
    int rc;
    char *out, *err;
} result;

/* Runs the checker in process: options (name/value pairs), the program and
 * the log as text; stats on. */
static result check(const char *opts, const char *prog, const char *log)
{
    spandex_sysck_cfg c;
    char buf[512], err[256], *tok[32], *save = NULL, *t;
    size_t n = 0, i, no, ne;
    result r;
    FILE *fp, *fl, *fo, *fe;
    snprintf(buf, sizeof buf, "%s", opts);
    for (t = strtok_r(buf, " ", &save); t && n < 32; t = strtok_r(NULL, " ", &save))
        tok[n++] = t;
    cr_assert_eq(n % 2, 0, "options '%s' are not name/value pairs", opts);
    spandex_sysck_cfg_default(&c);
    for (i = 0; i < n; i += 2)
        cr_assert_eq(spandex_sysck_cfg_option(&c, tok[i] + 2, tok[i + 1], err, sizeof err), 0, "%s %s: %s",
                     tok[i], tok[i + 1], err);
    cr_assert_eq(spandex_sysck_cfg_check(&c, err, sizeof err), 0, "%s", err);
    fp = fmemopen((void *)prog, strlen(prog), "r");
    fl = fmemopen((void *)log, strlen(log), "r");
    fo = open_memstream(&r.out, &no);
    fe = open_memstream(&r.err, &ne);
    cr_assert(fp && fl && fo && fe);
    r.rc = spandex_sysck_run(&c, fp, "prog", fl, "log", 1, fo, fe);
    fclose(fp);
    fclose(fl);
    fclose(fo);
    fclose(fe);
    return r;
}

static void done(result *r)
{
    free(r->out);
    free(r->err);
}

/* The last line of the output. */
static const char *verdict(const char *out)
{
    const char *p = out + strlen(out);
    if (p > out && p[-1] == '\n')
        p--;
    while (p > out && p[-1] != '\n')
        p--;
    return p;
}

static void passes(const char *opts, const char *prog, const char *log)
{
    result r = check(opts, prog, log);
    cr_expect_eq(r.rc, 0, "rc %d: %s%s", r.rc, r.out, r.err);
    cr_expect(strncmp(verdict(r.out), "PASS", 4) == 0, "%s", r.out);
    done(&r);
}

/* The run ends with "E <reason>" starting with `what` (rule and log line)
 * and containing `why`. */
static void fails(const char *opts, const char *prog, const char *log, const char *what, const char *why)
{
    result r = check(opts, prog, log);
    const char *v = verdict(r.out);
    cr_expect_eq(r.rc, 1, "rc %d: %s%s", r.rc, r.out, r.err);
    cr_expect(strncmp(v, "E ", 2) == 0 && strncmp(v + 2, what, strlen(what)) == 0, "expected E %s..., got %s",
              what, v);
    cr_expect(strstr(v, why) != NULL, "'%s' not in %s", why, v);
    cr_expect_str_empty(r.err);
    done(&r);
}

/* Bad input: exit 2, one line on err naming the file and line, nothing out. */
static void refuses(const char *opts, const char *prog, const char *log, const char *where)
{
    result r = check(opts, prog, log);
    cr_expect_eq(r.rc, 2, "rc %d: %s", r.rc, r.out);
    cr_expect_str_empty(r.out);
    cr_expect(strstr(r.err, where) != NULL, "'%s' not in %s", where, r.err);
    cr_expect_eq(line_count(r.err), 1, "%s", r.err);
    done(&r);
}


/* A log with one line replaced (`from` must occur once). */
static char *edit(const char *log, const char *from, const char *to)
{
    const char *p = strstr(log, from);
    char *s;
    cr_assert(p, "'%s' not in the log", from);
    s = malloc(strlen(log) + strlen(to) + 1);
    memcpy(s, log, (size_t)(p - log));
    strcpy(s + (p - log), to);
    strcat(s, p + strlen(from));
    return s;
}

/* ------------------------------------------------------------- Fig. 1 -- */

Test(spandex_syscheck, fig1a_and_fig1c_pass)
{
    char *pa = spandex_test_file("fig1a.prog"), *la = spandex_test_file("fig1a.log"), *pc = spandex_test_file("fig1c.prog"), *lc = spandex_test_file("fig1c.log");
    passes(FIG, pa, la);
    passes(FIG, pc, lc);
    passes(FIG " --sched fifo", pc, lc); /* 14 deliveries, far below B = 4 x 3 x 11 */
    free(pa);
    free(la);
    free(pc);
    free(lc);
}

/* Fig. 1b (RvkO, RspRvkO and ReqWB of the rest) and Fig. 1d (FwdReqO of a
 * ReqWT: the word turns V, the owner answers the writer with RspO, X2). */
Test(spandex_syscheck, fig1b_and_fig1d_pass)
{
    char *pb = spandex_test_file("fig1b.prog"), *lb = spandex_test_file("fig1b.log"), *pd = spandex_test_file("fig1d.prog"), *ld = spandex_test_file("fig1d.log");
    passes(FIG, pb, lb);
    passes(FIG, pd, ld);
    free(pb);
    free(lb);
    free(pd);
    free(ld);
}

/* SYS1 when sent: a forward to a device that is not the registered owner;
 * SYS7 at the LLC: an RspRvkO for a word that was not revoked. */
Test(spandex_syscheck, sys1_forward_to_non_owner_and_sys7_rspRvkO)
{
    char *pb = spandex_test_file("fig1b.prog"), *lb = spandex_test_file("fig1b.log"), *pd = spandex_test_file("fig1d.prog"), *ld = spandex_test_file("fig1d.log");
    char *fwd = edit(ld, "S 4 L 0 FwdReqO 0x1000 0x2 r=1", "S 4 L 2 FwdReqO 0x1000 0x2 r=1");
    char *rvk = edit(lb, "S 5 0 L RspRvkO 0x1000 0x4 0x1008", "S 5 0 L RspRvkO 0x1000 0x6 0x1004 0x1008");
    fails(FIG, pd, fwd, "SYS1 line 9: S 4 L 2 FwdReqO 0x1000 0x2 r=1",
          "word 0x1004 is registered to device 0, not device 2");
    fails(FIG, pb, rvk, "SYS7 line 13: D 5 (S 5 0 L RspRvkO 0x1000 0x6 0x1004 0x1008)",
          "words 0x2 of device 0 were not revoked");
    free(pb);
    free(lb);
    free(pd);
    free(ld);
    free(fwd);
    free(rvk);
}

/* SYS8: Fig. 1a's traffic. Header: 5 type + 43 line + 8 mask + 2 x 2
 * source/destination + 2 requestor + 3 op = 65 bits = 9 bytes. ReqV 9 +
 * RspV 9 + 8 x 4; ReqO 9 + RspO 9; ReqWT 9 + 2 x 4 + RspWT 9. */
Test(spandex_syscheck, sys8_traffic_of_fig1a)
{
    char *p = spandex_test_file("fig1a.prog"), *l = spandex_test_file("fig1a.log");
    result r = check(FIG, p, l);
    cr_expect_eq(r.rc, 0);
    cr_expect_str_eq(r.out, "# traffic header 9 bytes, word 4 bytes (SYS8; messages, bytes)\n"
                            "# traffic ReqV       2 50\n"
                            "# traffic ReqS       0 0\n"
                            "# traffic ReqWT      2 26\n"
                            "# traffic ReqO       2 18\n"
                            "# traffic ReqWT+data 0 0\n"
                            "# traffic ReqO+data  0 0\n"
                            "# traffic ReqWB      0 0\n"
                            "# traffic Probe      0 0\n"
                            "# traffic total      6 94\n"
                            "PASS SYS1-SYS8: 6 deliveries, 5 operations\n");
    done(&r);
    free(p);
    free(l);
}

/* SYS8 categories: Inv/Ack and RvkO/RspRvkO are Probe; a device-to-device
 * response and the forward count for the requestor's request. */
Test(spandex_syscheck, sys8_probe_and_forward_categories)
{
    const char *prog = "ST 2 0x1000 0x5\nDRAIN\nRMW 1 0x1000 add 0x1\n";
    const char *log = "S 1 2 L ReqO 0x1000 0x1\nD 1\nS 2 L 2 RspO 0x1000 0x1\nD 2\nC 2 1\n"
                      "S 3 1 L ReqWT+data 0x1000 0x1 add 0x1\nD 3\nS 4 L 2 RvkO 0x1000 0x1\nD 4\n"
                      "S 5 2 L RspRvkO 0x1000 0x1 0x5\nD 5\nS 6 L 1 RspWT+data 0x1000 0x1 0x5\nD 6\n"
                      "V 1 3 0x1000 0x5\n";
    result r = check(FIG, prog, log);
    cr_expect_eq(r.rc, 0, "%s", r.out);
    cr_expect(strstr(r.out, "# traffic ReqO       2 18\n"), "%s", r.out);
    cr_expect(strstr(r.out, "# traffic ReqWT+data 2 26\n"), "%s", r.out); /* 9 + 4, 9 + 4 */
    cr_expect(strstr(r.out, "# traffic Probe      2 22\n"), "%s", r.out); /* RvkO 9, RspRvkO 9 + 4 */
    done(&r);
}

/* ---------------------------------------------------------- the rules -- */

/* SYS1: the LLC grants the whole line to the CPU while the accelerator
 * still owns word 0 (it should have forwarded): two owners. */
Test(spandex_syscheck, sys1_two_owners)
{
    const char *prog = "ST 2 0x1000 0xa\nDRAIN\nST 0 0x1000 0xb\n";
    const char *log = "S 1 2 L ReqO 0x1000 0x1\nD 1\nS 2 L 2 RspO 0x1000 0x1\nD 2\nC 2 1\n"
                      "S 3 0 L ReqO+data 0x1000 0xff\nD 3\n"
                      "S 4 L 0 RspO+data 0x1000 0xff 0x1000 0x1004 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c\n"
                      "D 4\nC 0 3\n";
    fails(FIG, prog, log, "SYS1 line 7: D 3 (S 3 0 L ReqO+data 0x1000 0xff)", "device 2 holds word 0x1000 in O, the LLC registers device 0");
}

/* SYS1 allows the old owner's O while its FwdReqO is in flight (the twin
 * done right: forward, the owner answers the CPU and leaves O). */
Test(spandex_syscheck, sys1_owner_with_downgrade_in_flight_passes)
{
    const char *prog = "ST 2 0x1000 0xa\nDRAIN\nST 0 0x1000 0xb\n";
    const char *log = "S 1 2 L ReqO 0x1000 0x1\nD 1\nS 2 L 2 RspO 0x1000 0x1\nD 2\nC 2 1\n"
                      "S 3 0 L ReqO+data 0x1000 0xff\nD 3\nS 4 L 2 FwdReqO+data 0x1000 0x1 r=0\n"
                      "S 5 L 0 RspO+data 0x1000 0xfe 0x1004 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c\n"
                      "D 5\nD 4\nS 6 2 0 RspO+data 0x1000 0x1 0xa\nD 6\nC 0 3\n";
    passes(FIG, prog, log);
}

/* SYS2 machinery on a legal log: two MESI readers get RspS (ReqS option 1),
 * a GPU store to the S line invalidates both; Inv and Ack are Probe. */
Test(spandex_syscheck, sharers_invalidated_pass)
{
    const char *prog = "LD 0 0x1000\nLD 3 0x1000\nDRAIN\nST 1 0x1004 0x9\n";
    const char *log = "S 1 0 L ReqS 0x1000 0xff\nS 2 3 L ReqS 0x1000 0xff\nD 1\n"
                      "S 3 L 0 RspS 0x1000 0xff 0x1000 0x1004 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c\nD 2\n"
                      "S 4 L 3 RspS 0x1000 0xff 0x1000 0x1004 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c\nD 3\n"
                      "V 0 1 0x1000 0x1000\nD 4\nV 3 2 0x1000 0x1000\nS 5 1 L ReqWT 0x1000 0x2 0x9\nD 5\n"
                      "S 6 L 0 Inv 0x1000\nS 7 L 3 Inv 0x1000\nD 6\nS 8 0 L Ack 0x1000\nD 7\n"
                      "S 9 3 L Ack 0x1000\nD 8\nD 9\nS 10 L 1 RspWT 0x1000 0x2\nD 10\nC 1 4\n";
    result r = check(FIG " --dev 3:mesi", prog, log);
    cr_expect_eq(r.rc, 0, "%s", r.out);
    cr_expect(strstr(r.out, "# traffic ReqS       4 100\n"), "%s", r.out);
    cr_expect(strstr(r.out, "# traffic ReqWT      2 22\n"), "%s", r.out);
    cr_expect(strstr(r.out, "# traffic Probe      4 36\n"), "%s", r.out);
    done(&r);
}

/* SYS2: the CPU owner answers a FwdReqV with RspS: the reader holds S but
 * the LLC never recorded it as a sharer. */
Test(spandex_syscheck, sys2_sharer_not_recorded)
{
    const char *prog = "ST 0 0x1000 0x5\nDRAIN\nLD 3 0x1000\n";
    const char *log = "S 1 0 L ReqO+data 0x1000 0xff\nD 1\n"
                      "S 2 L 0 RspO+data 0x1000 0xff 0x1000 0x1004 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c\n"
                      "D 2\nC 0 1\nS 3 3 L ReqS 0x1000 0xff\nD 3\nS 4 L 0 FwdReqV 0x1000 0xff r=3\nD 4\n"
                      "S 5 0 3 RspS 0x1000 0xff 0x5 0x1004 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c\nD 5\n"
                      "V 3 3 0x1000 0x5\n";
    fails(FIG " --dev 3:mesi", prog, log, "SYS2 line 11: D 5 (S 5 0 3 RspS",
          "device 3 holds word 0x1000 in S, but it is not a sharer of line 0x1000");
}

/* SYS3: Fig. 1c with the last load returning the initial value: the
 * stores of the accelerator happen before it through REL, the flag and
 * ACQ. Without the ACQ the same value is a race and allowed. */
Test(spandex_syscheck, sys3_stale_after_release_acquire)
{
    char *p = spandex_test_file("fig1c.prog"), *l = spandex_test_file("fig1c.log");
    char *bad = edit(l, "V 1 15 0x1000 0xa", "V 1 15 0x1000 0x1000");
    char *noacq = edit(p, "ACQ 1\n", "LD 1 0x1044\n"), *nolog = edit(bad, "C 1 14\n", "V 1 14 0x1044 0x1044\n");
    fails(FIG, p, bad, "SYS3 line 37: V 1 15 0x1000 0x1000",
          "returned 0x1000, not 0xa, the value of the last store before it by happens-before (ST of program line 8)");
    passes(FIG, noacq, nolog);
    free(p);
    free(l);
    free(bad);
    free(noacq);
    free(nolog);
}

/* SYS3 judged again at the end: a load that read a concurrent RMW's value
 * before the RMW reported passes on its V line whatever it returned; once
 * the RMW's value is known, 0x1001 is confirmed and 0x7777 is caught. */
Test(spandex_syscheck, sys3_again_when_rmw_values_known)
{
    const char *prog = "RMW 0 0x1000 add 0x1\nLD 1 0x1000\n";
    const char *log = "S 1 0 L ReqWT+data 0x1000 0x1 add 0x1\nS 2 1 L ReqV 0x1000 0xff\nD 1\n"
                      "S 3 L 0 RspWT+data 0x1000 0x1 0x1000\nD 2\n"
                      "S 4 L 1 RspV 0x1000 0xff 0x1001 0x1004 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c\nD 4\n"
                      "V 1 2 0x1000 0x1001\nD 3\nV 0 1 0x1000 0x1000\n";
    char *bad = edit(log, "V 1 2 0x1000 0x1001", "V 1 2 0x1000 0x7777");
    passes(FIG, prog, log);
    fails(FIG, prog, bad, "SYS3 line 8: V 1 2 0x1000 0x7777", "not the initial 0x1000 or a concurrent store's value");
    free(bad);
}

/* SYS4: two GPU atomics add 1 to the same word and both return the
 * initial value: a lost update, not one chain. The twin returns 0x1001. */
Test(spandex_syscheck, sys4_broken_rmw_chain)
{
    const char *prog = "RMW 0 0x1000 add 0x1\nRMW 1 0x1000 add 0x1\n";
    const char *log = "S 1 0 L ReqWT+data 0x1000 0x1 add 0x1\nS 2 1 L ReqWT+data 0x1000 0x1 add 0x1\nD 1\n"
                      "S 3 L 0 RspWT+data 0x1000 0x1 0x1000\nD 2\nS 4 L 1 RspWT+data 0x1000 0x1 0x1000\nD 3\n"
                      "V 0 1 0x1000 0x1000\nD 4\nV 1 2 0x1000 0x1000\n";
    char *good = edit(log, "V 1 2 0x1000 0x1000", "V 1 2 0x1000 0x1001");
    fails("--dev 0:gpu --dev 1:gpu --line 32", prog, log, "SYS4 line 10: V 1 2 0x1000 0x1000",
          "already returned: not one chain");
    passes("--dev 0:gpu --dev 1:gpu --line 32", prog, good);
    free(good);
}

/* SYS4 with a value left twice: 0x1000 and 0x8 leaves 0, 0 and 0x3 leaves
 * 0 again, 0 or 0x3 leaves 3; two RMWs return 0, each from its own write
 * (the one of 0 and 0x3 included), reported in any order: one chain. */
Test(spandex_syscheck, sys4_value_left_twice_is_one_chain)
{
    const char *prog = "RMW 0 0x1000 and 0x8\nRMW 1 0x1000 and 0x3\nRMW 2 0x1000 or 0x3\n";
    const char *log = "S 1 0 L ReqWT+data 0x1000 0x1 and 0x8\nS 2 1 L ReqWT+data 0x1000 0x1 and 0x3\n"
                      "S 3 2 L ReqWT+data 0x1000 0x1 or 0x3\nD 1\nS 4 L 0 RspWT+data 0x1000 0x1 0x1000\nD 2\n"
                      "S 5 L 1 RspWT+data 0x1000 0x1 0x0\nD 3\nS 6 L 2 RspWT+data 0x1000 0x1 0x0\nD 4\n"
                      "V 0 1 0x1000 0x1000\nD 6\nV 2 3 0x1000 0x0\nD 5\nV 1 2 0x1000 0x0\n";
    char *lost = edit(log, "S 6 L 2 RspWT+data 0x1000 0x1 0x0\nD 4\nV 0 1 0x1000 0x1000\nD 6\nV 2 3 0x1000 0x0",
                      "S 6 L 2 RspWT+data 0x1000 0x1 0x1000\nD 4\nV 0 1 0x1000 0x1000\nD 6\nV 2 3 0x1000 0x1000");
    passes("--dev 0:gpu --dev 1:gpu --dev 2:gpu --line 32", prog, log);
    fails("--dev 0:gpu --dev 1:gpu --dev 2:gpu --line 32", prog, lost, "SYS4 line 13: V 2 3 0x1000 0x1000",
          "not one chain");
    free(lost);
}

/* SYS5: under FIFO delivery (--sched fifo) device 0's ReqV stays open while
 * 50 other messages are delivered; B = 4 x 2 x (2 + 4) = 48 for two
 * devices and four words. The same log passes as a random schedule. */
Test(spandex_syscheck, sys5_fifo_bound)
{
    char prog[4096], log[16384];
    size_t pl = 0, ll = 0;
    unsigned i, id = 3;
    pl += (size_t)snprintf(prog + pl, sizeof prog - pl, "LD 0 0x1000\n");
    ll += (size_t)snprintf(log + ll, sizeof log - ll,
                           "S 1 0 L ReqV 0x1000 0xf\nD 1\nS 2 L 0 RspV 0x1000 0xf 0x1000 0x1004 0x1008 0x100c\n");
    for (i = 0; i < 25; i++) {
        unsigned a = 0x2000 + 16 * i;
        pl += (size_t)snprintf(prog + pl, sizeof prog - pl, "LD 1 0x%x\n", a);
        ll += (size_t)snprintf(log + ll, sizeof log - ll,
                               "S %u 1 L ReqV 0x%x 0xf\nD %u\nS %u L 1 RspV 0x%x 0xf 0x%x 0x%x 0x%x 0x%x\nD %u\n"
                               "V 1 %u 0x%x 0x%x\n",
                               id, a, id, id + 1, a, a, a + 4, a + 8, a + 12, id + 1, i + 2, a, a);
        id += 2;
    }
    snprintf(log + ll, sizeof log - ll, "D 2\nV 0 1 0x1000 0x1000\n");
    fails("--dev 0:gpu --dev 1:gpu --line 16 --sched fifo", prog, log, "SYS5 line 122: D 50 (S 50 L 1 RspV 0x2170",
          "the request of log line 1 (S 1 0 L ReqV 0x1000 0xf) is open after 49 deliveries (bound B = 4 x N x "
          "(N + W) = 48)");
    passes("--dev 0:gpu --dev 1:gpu --line 16", prog, log);
}

/* SYS5 at the end of the log: an operation that never completed. */
Test(spandex_syscheck, sys5_operation_never_completes)
{
    char *p = spandex_test_file("fig1a.prog"), *l = spandex_test_file("fig1a.log");
    char *cut = edit(l, "C 1 8\n", "");
    fails(FIG, p, cut, "SYS5 end of log", "ST of device 1 (program line 8) never completed");
    free(p);
    free(l);
    free(cut);
}

/* SYS6: the GPU's load of word 0 is Nacked, retried, and Nacked again: two
 * Nacks beyond --nack-limit 1 (the retry should have been the
 * replacement ReqWT+data rd). With --nack-limit 2 the replacement after
 * the second Nack passes. */
Test(spandex_syscheck, sys6_second_nack)
{
    const char *prog = "ST 2 0x1000 0x5\nDRAIN\nLD 1 0x1000\n";
    const char *head = "S 1 2 L ReqO 0x1000 0x1\nD 1\nS 2 L 2 RspO 0x1000 0x1\nD 2\nC 2 1\n"
                       "S 3 1 L ReqV 0x1000 0xff\nD 3\nS 4 L 2 FwdReqV 0x1000 0x1 r=1\n"
                       "S 5 L 1 RspV 0x1000 0xfe 0x1004 0x1008 0x100c 0x1010 0x1014 0x1018 0x101c\n"
                       "D 4\nS 6 2 1 Nack 0x1000 0x1\nD 5\nD 6\nS 7 1 L ReqV 0x1000 0x1\nD 7\n"
                       "S 8 L 2 FwdReqV 0x1000 0x1 r=1\nD 8\nS 9 2 1 Nack 0x1000 0x1\nD 9\n";
    const char *tail = "S 10 1 L ReqWT+data 0x1000 0x1 rd\nD 10\nS 11 L 2 RvkO 0x1000 0x1\nD 11\n"
                       "S 12 2 L RspRvkO 0x1000 0x1 0x5\nD 12\nS 13 L 1 RspWT+data 0x1000 0x1 0x5\nD 13\n"
                       "V 1 3 0x1000 0x5\n";
    char log[4096];
    snprintf(log, sizeof log, "%s%s", head, tail);
    fails(FIG, prog, log, "SYS6 line 19: D 9 (S 9 2 1 Nack 0x1000 0x1)",
          "word 0x1000 of device 1 Nacked 2 times (nack limit 1)");
    passes(FIG " --nack-limit 2", prog, log);
}

/* SYS7: a response for no open request (a second RspWT after Fig. 1a), an
 * Ack nobody asked for, and a response for words not requested. */
Test(spandex_syscheck, sys7_response_without_request)
{
    char *p = spandex_test_file("fig1a.prog"), *l = spandex_test_file("fig1a.log");
    char *extra = edit(l, "C 1 8\n", "C 1 8\nS 7 L 1 RspWT 0x1000 0x30\nD 7\n");
    char *ack = edit(l, "C 1 8\n", "C 1 8\nS 7 1 L Ack 0x1000\nD 7\n");
    char *words = edit(l, "S 5 L 2 RspO 0x1000 0x3", "S 5 L 2 RspO 0x1000 0x7");
    fails(FIG, p, extra, "SYS7 line 20: D 7 (S 7 L 1 RspWT 0x1000 0x30)",
          "device 1 has no open request waiting for words 0x30 of line 0x1000 that a RspWT answers");
    fails(FIG, p, ack, "SYS7 line 20: D 7 (S 7 1 L Ack 0x1000)", "an Ack from device 1, which owes none");
    fails(FIG, p, words, "SYS7 line 13: D 5 (S 5 L 2 RspO 0x1000 0x7)", "no open request waiting for words 0x7");
    free(p);
    free(l);
    free(extra);
    free(ack);
    free(words);
}

/* A violation the run itself reported (an E line) ends the check too. */
Test(spandex_syscheck, e_line_of_the_log)
{
    fails(FIG, "LD 1 0x1000\n", "S 1 1 L ReqV 0x1000 0xff\nE watchdog\n", "line 2:",
          "the log reports a violation: E watchdog");
}

/* ---------------------------------------------------------- bad input -- */

Test(spandex_syscheck, bad_input_exit_2_with_file_and_line)
{
    char *p = spandex_test_file("fig1a.prog"), *l = spandex_test_file("fig1a.log");
    refuses(FIG, p, "S 1 1 L ReqV 0x1000 0xff\n\nS 2 1 L ReqX 0x1000 0xff\n", "log: line 3: unknown message 'ReqX'");
    refuses(FIG, "LD 1 0x1000\nLOAD 1 0x1000\n", l, "prog: line 2: unknown operation 'LOAD'");
    refuses(FIG, "LD 7 0x1000\n", l, "prog: line 1: LD: bad or missing device (0..2)");
    refuses(FIG, "RMW 1 0x1000 mul 0x1\n", l, "prog: line 1: expected RMW");
    refuses(FIG, p, "S 1 1 L ReqV 0x1001 0xff\n", "log: line 1: bad line address '0x1001'");
    refuses(FIG, p, "S 1 1 L ReqWT 0x1000 0x3 0x1\n", "log: line 1: ReqWT carries 1 values, not 2");
    refuses(FIG, p, "S 1 L 1 ReqV 0x1000 0xff\n", "log: line 1: ReqV cannot go from L to 1");
    refuses(FIG, p, "S 1 L 2 FwdReqV 0x1000 0x1\n", "log: line 1: FwdReqV without r=<requestor>");
    refuses(FIG, p, "S 1 1 L ReqV 0x1000 0xff\nD 2\n", "log: line 2: D 2: no such message in flight");
    refuses(FIG, p, "S 1 1 L ReqV 0x1000 0xff\nS 1 1 L ReqV 0x1000 0xff\n", "log: line 2: message 1 sent twice");
    refuses(FIG, p, "C 1 3\n", "log: line 1: C: program line 3 is no ST, ACQ, REL or EVICT of device 1");
    refuses(FIG, p, "V 1 3 0x1004 0x1\n", "log: line 1: V: program line 3 loads 0x1000, not 0x1004");
    refuses(FIG, p, "X 1\n", "log: line 1: unknown log line 'X'");
    free(p);
    free(l);
}

Test(spandex_syscheck, options)
{
    spandex_sysck_cfg c;
    char err[256];
    spandex_sysck_cfg_default(&c);
    cr_expect_eq(spandex_sysck_cfg_check(&c, err, sizeof err), -1);
    cr_expect(strstr(err, "no device given"), "%s", err);
    cr_expect_eq(spandex_sysck_cfg_option(&c, "dev", "1:gpu", err, sizeof err), 0);
    cr_expect_eq(spandex_sysck_cfg_check(&c, err, sizeof err), -1);
    cr_expect(strstr(err, "device 0 missing"), "%s", err);
    cr_expect_eq(spandex_sysck_cfg_option(&c, "dev", "0:tpu", err, sizeof err), -1);
    cr_expect_eq(spandex_sysck_cfg_option(&c, "dev", "0:mesi", err, sizeof err), 0);
    cr_expect_eq(spandex_sysck_cfg_option(&c, "sched", "lifo", err, sizeof err), -1);
    cr_expect_eq(spandex_sysck_cfg_option(&c, "reqs", "paper", err, sizeof err), 0); /* spandex-system's */
    cr_expect_eq(spandex_sysck_cfg_option(&c, "bogus", "1", err, sizeof err), 1);
    cr_expect_eq(spandex_sysck_cfg_check(&c, err, sizeof err), 0, "%s", err);
    cr_expect_eq(c.devs, 2);
    cr_expect_eq(spandex_sysck_bound(&c), 4 * 2 * (2 + 16));
}

/* The tool through cohmodel: --program, the log on stdin, exit statuses. */
Test(spandex_syscheck, cohmodel_tool)
{
    cmd_out r;
    run_cap(&r, "build/bin/cohmodel spandex-check " FIG " --program tb/spandex/logs/fig1c.prog "
                "< tb/spandex/logs/fig1c.log");
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect_str_eq(r.out, "PASS SYS1-SYS8: 14 deliveries, 8 operations\n");
    cmd_out_free(&r);
    run_cap(&r, "build/bin/cohmodel spandex-check " FIG " < tb/spandex/logs/fig1c.log");
    cr_expect_eq(r.status, 2);
    cr_expect_str_empty(r.out);
    cr_expect(strstr(r.err, "--program FILE is required"), "%s", r.err);
    cmd_out_free(&r);
}

/* ------------------------------------------- logs of the system model -- */

/* A random program (spec 9.4) of `ops` lines over a few words of three
 * lines: loads, stores, RMWs, ACQ, REL, EVICT, STEP and DRAIN, racy. */
static void random_program(uint64_t seed, unsigned ndev, char *buf, size_t len)
{
    static const char *const ops[] = {"add", "swp", "or", "and"};
    uint64_t st = seed;
    size_t n = 0;
    unsigned i, lines = 5 + (unsigned)(cohkit_unit_splitmix(&st) % 36);
    buf[0] = 0;
    for (i = 0; i < lines && n + 64 < len; i++) {
        unsigned d = (unsigned)(cohkit_unit_splitmix(&st) % ndev), k = (unsigned)(cohkit_unit_splitmix(&st) % 100);
        unsigned w = (unsigned)(cohkit_unit_splitmix(&st) % 9), v = 1 + (unsigned)(cohkit_unit_splitmix(&st) % 49);
        unsigned a = w < 6 ? 0x1000 + 4 * w : w < 8 ? 0x1040 + 4 * (w - 6) : 0x2000;
        if (k < 30)
            n += (size_t)snprintf(buf + n, len - n, "LD %u 0x%x\n", d, a);
        else if (k < 55)
            n += (size_t)snprintf(buf + n, len - n, "ST %u 0x%x 0x%x\n", d, a, v);
        else if (k < 65)
            n += (size_t)snprintf(buf + n, len - n, "RMW %u 0x%x %s 0x%x\n", d, a, ops[v % 4], v % 9 + 1);
        else if (k < 70)
            n += (size_t)snprintf(buf + n, len - n, "RMW %u 0x%x rd\n", d, a);
        else if (k < 77)
            n += (size_t)snprintf(buf + n, len - n, "ACQ %u\n", d);
        else if (k < 84)
            n += (size_t)snprintf(buf + n, len - n, "REL %u\n", d);
        else if (k < 88)
            n += (size_t)snprintf(buf + n, len - n, "EVICT %u 0x%x\n", d, a);
        else if (k < 96)
            n += (size_t)snprintf(buf + n, len - n, "STEP %u\n", 1 + v % 5);
        else
            n += (size_t)snprintf(buf + n, len - n, "DRAIN\n");
    }
}

/* The checker accepts what `cohmodel spandex-system` prints: the Fig. 1a
 * and 1c programs and 60 random programs on four GPU and DeNovo devices,
 * then 20 on eight, each under fifo and random delivery (the checker told
 * the schedule). */
Test(spandex_syscheck, system_model_logs_pass)
{
    static const char *const cfg4 = "--dev 0:denovo --dev 1:gpu --dev 2:denovo --dev 3:gpu --line 16";
    static const char *const cfg8 = "--dev 0:denovo --dev 1:gpu --dev 2:denovo --dev 3:gpu --dev 4:denovo "
                                    "--dev 5:gpu --dev 6:denovo --dev 7:gpu --line 16";
    static const char *const scheds[] = {"fifo", "random"};
    char dir[256], prog[4096], path[300];
    unsigned seed, s;
    cmd_out r;
    snprintf(dir, sizeof dir, "%s", fresh_dir("spandex_check_sys"));
    snprintf(path, sizeof path, "%s/p.txt", dir);
    /* (make sysprog runs 1,000 programs a family; here a sample) */
    for (seed = 0; seed < 32; seed++) {
        const char *cfg = seed < 24 ? cfg4 : cfg8;
        if (seed < 2) {
            char *f = spandex_test_file(seed ? "fig1c.prog" : "fig1a.prog");
            snprintf(prog, sizeof prog, "%s", f);
            free(f);
        } else {
            random_program(seed, seed < 24 ? 4 : 8, prog, sizeof prog);
        }
        put(path, prog);
        for (s = 0; s < 2; s++) {
            run_cap(&r, "build/bin/cohmodel spandex-system %s --sched %s --seed %u < %s > %s/l.txt", cfg, scheds[s],
                    seed, path, dir);
            cr_assert_eq(r.status, 0, "seed %u %s: spandex-system: %s%s", seed, scheds[s], r.out, r.err);
            cmd_out_free(&r);
            run_cap(&r, "build/bin/cohmodel spandex-check %s --sched %s --program %s < %s/l.txt", cfg, scheds[s],
                    path, dir);
            cr_expect_eq(r.status, 0, "seed %u %s: %s%s", seed, scheds[s], r.out, r.err);
            cr_expect(strncmp(r.out, "PASS SYS1-SYS8", 14) == 0, "seed %u %s: %s", seed, scheds[s], r.out);
            cmd_out_free(&r);
        }
    }
}

/* A fault injected into the model (`spandex-system --fault`) is caught by
 * the checker on the model's log: a RspV with stale data read after a
 * release/acquire synchronisation (SYS3), a lost RspO (the store and its
 * release never complete: SYS5 at the end of the log), a lost RspRvkO (the
 * atomic that revoked the owner never completes: SYS5). Without the fault
 * the same program passes. The model's own E line (a lost message leaves
 * it stuck) is removed from the log first. */
Test(spandex_syscheck, injected_model_faults_are_caught)
{
    static const struct {
        const char *cfg, *fault, *prog, *rule;
    } c[] = {
        {"--dev 0:gpu --dev 1:gpu", "stale-rspv:2",
         "ST 1 0x1000 0x5\nREL 1\nST 1 0x2000 0x1\nDRAIN\nLD 0 0x2000\nACQ 0\nLD 0 0x1000\n", "E SYS3"},
        {"--dev 0:gpu --dev 1:denovo", "drop-rspo", "ST 1 0x1000 0x5\nREL 1\nLD 0 0x2000\n", "E SYS5"},
        {"--dev 0:gpu --dev 1:denovo", "drop-ack", "ST 1 0x1000 0x5\nREL 1\nDRAIN\nRMW 0 0x1000 add 0x1\n",
         "E SYS5"},
    };
    char dir[256], path[300];
    size_t i;
    int f;
    cmd_out r;
    snprintf(dir, sizeof dir, "%s", fresh_dir("spandex_check_fault"));
    snprintf(path, sizeof path, "%s/p.txt", dir);
    for (i = 0; i < sizeof c / sizeof c[0]; i++) {
        put(path, c[i].prog);
        for (f = 0; f < 2; f++) {
            run_cap(&r, "build/bin/cohmodel spandex-system %s --line 16 %s%s < %s > %s/l.txt", c[i].cfg,
                    f ? "--fault " : "", f ? c[i].fault : "", path, dir);
            /* a lost message leaves the model itself stuck (its own E line) */
            cr_assert_eq(r.status, f && strncmp(c[i].fault, "drop", 4) == 0 ? 1 : 0, "%s: spandex-system: %s%s",
                         c[i].fault, r.out, r.err);
            cmd_out_free(&r);
            /* the model's own E line left out: the checker must find the fault itself */
            run_cap(&r,
                    "grep -v '^E' %s/l.txt | "
                    "build/bin/cohmodel spandex-check %s --line 16 --sched fifo --program %s",
                    dir, c[i].cfg, path);
            if (f) {
                cr_expect_eq(r.status, 1, "%s: %s%s", c[i].fault, r.out, r.err);
                cr_expect(strstr(r.out, c[i].rule) != NULL, "%s: expected %s: %s", c[i].fault, c[i].rule, r.out);
            } else {
                cr_expect_eq(r.status, 0, "%s (no fault): %s%s", c[i].fault, r.out, r.err);
            }
            cmd_out_free(&r);
        }
    }
}

/* Extra words (Table II's DeNovo footnote, spandex-system --extra-words
 * denovo): a DeNovo read miss asks its word, the LLC answers with every
 * other word of the line nobody owns, the TU installs those it holds in I
 * with no request open. Random programs on DeNovo, GPU and MESI devices
 * (nack limits 1 and 2) under fifo and random delivery: every log passes
 * the checker, which judges every load (SYS3) and every extra word when
 * sent (SYS1: nobody owns it; SYS7: DeNovo destinations only). */
Test(spandex_syscheck, extra_words_system_logs_pass, .timeout = 120)
{
    static const char *const cfgs[] = {
        "--dev 0:denovo --dev 1:gpu --dev 2:denovo --dev 3:mesi --line 16",
        "--dev 0:denovo --dev 1:denovo --dev 2:denovo --dev 3:denovo --line 16 --nack-limit 2",
    };
    static const char *const scheds[] = {"fifo", "random"};
    char dir[256], prog[4096], path[300];
    unsigned seed, s, extra = 0;
    cmd_out r;
    snprintf(dir, sizeof dir, "%s", fresh_dir("spandex_check_extra"));
    snprintf(path, sizeof path, "%s/p.txt", dir);
    for (seed = 0; seed < 24; seed++) {
        const char *cfg = cfgs[seed % 2];
        random_program(500 + seed, 4, prog, sizeof prog);
        put(path, prog);
        for (s = 0; s < 2; s++) {
            run_cap(&r, "build/bin/cohmodel spandex-system %s --extra-words denovo --sched %s --seed %u < %s > %s/l.txt",
                    cfg, scheds[s], seed, path, dir);
            cr_assert_eq(r.status, 0, "seed %u %s: spandex-system: %s%s", seed, scheds[s], r.out, r.err);
            cmd_out_free(&r);
            /* DeNovo devices 0 and 2 ask one word: an LLC RspV of more carries extra words */
            run_cap(&r, "awk '$3 == \"L\" && ($4 == 0 || $4 == 2) && $5 == \"RspV\" && $7 !~ /^0x(1|2|4|8)$/ {n++} "
                        "END {print n + 0}' %s/l.txt",
                    dir);
            extra += (unsigned)atoi(r.out);
            cmd_out_free(&r);
            run_cap(&r, "build/bin/cohmodel spandex-check %s --sched %s --program %s < %s/l.txt", cfg, scheds[s], path,
                    dir);
            cr_expect_eq(r.status, 0, "seed %u %s: %s%s", seed, scheds[s], r.out, r.err);
            cr_expect(strncmp(r.out, "PASS SYS1-SYS8", 14) == 0, "seed %u %s: %s", seed, scheds[s], r.out);
            cmd_out_free(&r);
        }
    }
    cr_expect_gt(extra, 50, "only %u LLC RspVs of more than one word", extra);
}

/* The checker refuses extra words that are not legal: a word some device
 * owns when the LLC sends it (stale: SYS1), and extra words to a device
 * that is not DeNovo (SYS7); the log of the model itself passes. */
Test(spandex_syscheck, extra_words_stale_or_not_denovo_fail)
{
    static const char *const prog = "ST 0 0x1004 0x5\nREL 0\nDRAIN\nLD 1 0x1000\nLD 1 0x1004\nST 1 0x1008 0x7\n"
                                    "EVICT 1 0x1000\nDRAIN\nLD 2 0x1000\nLD 2 0x1008\n";
    char dir[256], path[300];
    cmd_out r;
    snprintf(dir, sizeof dir, "%s", fresh_dir("spandex_check_extra_bad"));
    snprintf(path, sizeof path, "%s/p.txt", dir);
    put(path, prog);
    run_cap(&r, "build/bin/cohmodel spandex-system --config sdd --line 16 --extra-words denovo < %s > %s/l.txt", path,
            dir);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cmd_out_free(&r);
    run_cap(&r, "grep -c '^S 12 L 2 RspV 0x1000 0x9 0x1000 0x100c$' %s/l.txt", dir);
    cr_assert_eq(atoi(r.out), 1, "the model's log changed: %s", r.out);
    cmd_out_free(&r);
    run_cap(&r, "build/bin/cohmodel spandex-check --config sdd --line 16 --program %s < %s/l.txt", path, dir);
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    cmd_out_free(&r);
    /* word 1 (0x1004) is device 0's when the LLC answers device 2 */
    run_cap(&r,
            "sed 's/^S 12 L 2 RspV 0x1000 0x9 0x1000 0x100c$/S 12 L 2 RspV 0x1000 0xb 0x1000 0x1004 0x100c/' %s/l.txt | "
            "build/bin/cohmodel spandex-check --config sdd --line 16 --program %s",
            dir, path);
    cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect(strstr(r.out, "E SYS1 line 29") && strstr(r.out, "extra word 0x1004 is owned by device 0"), "%s", r.out);
    cmd_out_free(&r);
    /* device 2 is a GPU under sdg */
    run_cap(&r, "build/bin/cohmodel spandex-check --config sdg --line 16 --program %s < %s/l.txt", path, dir);
    cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect(strstr(r.out, "E SYS7 line 29") && strstr(r.out, "not a DeNovo device"), "%s", r.out);
    cmd_out_free(&r);
}
