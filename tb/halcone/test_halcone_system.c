/*
 * Criterion tests of the HALCONE system level (docs/halcone.md): the checker
 * on hand-written logs that must fail (and one that must pass), the system
 * model on Fig. 5 (a) and (b) of the paper, every counterexample of the
 * family specification (section 5.2) under the paper rules with its fix off
 * and on, timestamp overflow at 5 and 6 bits, seeded random programs on 2
 * and 4 GPUs, the Xtreme programs, the tools' bad input.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "halcone_check.h"
#include "halcone_system.h"
#include "test_util.h"
#include "unit.h"

/* ------------------------------------------------------------ helpers -- */

/* Runs the checker on a log (one record per line; the input line of a
 * record is its line in the log). Returns the violations; the checker's
 * output in *out (malloc). */
static uint64_t check_log(const char *log, char **out, halcone_check_result *r)
{
    halcone_check *c = halcone_check_new();
    char line[512], err[200];
    const char *p = log;
    unsigned long n = 0;
    size_t len = 0;
    FILE *f;
    uint64_t bad;
    cr_assert_not_null(c);
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        memcpy(line, p, l);
        line[l] = '\0';
        n++;
        cr_assert_eq(halcone_check_feed(c, line, n, err, sizeof err), 0, "log line %lu: %s", n, err);
        p += l + (e != NULL);
    }
    f = open_memstream(out, &len);
    bad = halcone_check_finish(c, f, r);
    fclose(f);
    halcone_check_free(c);
    return bad;
}

/* Runs halcone-system (options as cohmodel takes them) on a trace. Returns
 * the exit status; stdout and stderr in *out and *err (malloc). */
static int run_sys(const char *args, int events, int fail, const char *trace, char **out,
                   char **err)
{
    const cohkit_unit_desc *u = cohkit_unit_tool_find("halcone-system");
    void *cfg;
    char e[300];
    size_t lo = 0, le = 0;
    FILE *in, *fo, *fe;
    int rc;
    cr_assert_not_null(u);
    cfg = calloc(1, u->cfg_size);
    cr_assert_eq(cohkit_unit_cfg_parse_str(u, cfg, args, e, sizeof e), 0, "%s: %s", args, e);
    in = fmemopen((void *)trace, strlen(trace), "r");
    fo = open_memstream(out, &lo);
    fe = open_memstream(err, &le);
    rc = halcone_sys_trace_run(cfg, events, fail, in, "trace", fo, fe);
    fclose(in);
    fclose(fo);
    fclose(fe);
    free(cfg);
    return rc;
}

/* The output without its # lines. */
static char *strip(const char *o)
{
    char *r = malloc(strlen(o) + 1), *q = r;
    const char *p = o;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) + 1 : strlen(p);
        if (*p != '#') {
            memcpy(q, p, l);
            q += l;
        }
        p += l;
    }
    *q = '\0';
    return r;
}

/* The number after `key` in the last summary line. */
static long summary(const char *o, const char *key)
{
    const char *p = strstr(o, "# checked loads");
    char k[64];
    cr_assert_not_null(p, "no checker summary in:\n%s", o);
    snprintf(k, sizeof k, " %s ", key);
    p = strstr(p, k);
    cr_assert_not_null(p, "no '%s' in the summary", key);
    return strtol(p + strlen(k), NULL, 10);
}

static long counter(const char *o, const char *line_key, const char *key)
{
    const char *p = strstr(o, line_key);
    char k[64];
    cr_assert_not_null(p, "no '%s' line", line_key);
    snprintf(k, sizeof k, " %s ", key);
    p = strstr(p, k);
    cr_assert_not_null(p);
    return strtol(p + strlen(k), NULL, 10);
}

/* ------------------------------------------------- the checker alone -- */

static const char fig5a_log[] = "LD 0 0 0x0 0 MM 0 0 0 0 10\n"
                                "LD 0 1 0x40 0 MM 0 0 0 0 7\n"
                                "ST 0 0 0x40 1 L2 8 8 8 8 12\n"
                                "ST 0 1 0x0 2 L2 11 11 11 11 15\n"
                                "LD 0 0 0x0 0 L1 8 8 11 0 10\n"
                                "LD 0 1 0x40 1 L2 11 11 11 11 12\n";

Test(halcone_check, fig5a_log_is_coherent_in_logical_time)
{
    char *o;
    halcone_check_result r;
    /* I0-3 reads the old X at 8 although I1-2 wrote it physically earlier:
     * the write is ordered at 11 */
    cr_assert_eq(check_log(fig5a_log, &o, &r), 0, "%s", o);
    cr_assert_eq(r.loads, 4);
    cr_assert_eq(r.stores, 2);
    free(o);
}

Test(halcone_check, a_load_missing_an_earlier_store_is_stale)
{
    /* V1 as logged: CU1's hit at 11 misses the store of 2 ordered at 11
     * and physically before it; its lease (11,12) was never granted and the
     * store at 11 is not above it (I2) */
    char *o;
    halcone_check_result r;
    cr_assert_eq(check_log("LD 0 0 0x80 0 MM 0 0 0 0 10\n"
                           "ST 0 0 0x80 1 L1 11 11 11 11 15\n"
                           "LD 0 1 0x0 0 MM 11 11 11 11 12\n"
                           "ST 0 0 0x0 2 MM 11 11 11 11 15\n"
                           "LD 0 1 0x0 0 L1 11 11 11 11 12\n",
                           &o, &r),
                 2, "%s", o);
    cr_assert(strstr(o, "CHECK STALE 5 0x0 0 2\n") != NULL, "%s", o);
    cr_assert(strstr(o, "# INVARIANT I2 line 4 0x0") != NULL, "%s", o);
    cr_assert_eq(r.stale, 1);
    free(o);
}

Test(halcone_check, a_load_reading_a_later_ordered_store_is_future)
{
    char *o;
    halcone_check_result r;
    cr_assert_eq(check_log("ST 1 0 0x0 1 MM 1 1 1 1 5\nLD 0 0 0x0 1 MM 0 0 0 5 15\n", &o, &r),
                 2, "%s", o);
    cr_assert(strstr(o, "CHECK FUTURE 2 0x0 1 0\n") != NULL, "%s", o);
    cr_assert(strstr(o, "# INVARIANT I3 line 2") != NULL, "%s", o);
    cr_assert_eq(r.future, 1);
    free(o);
}

Test(halcone_check, a_load_missing_a_physically_later_store_is_reorder)
{
    char *o;
    halcone_check_result r;
    /* the store at 11 also lies below the lease (21,31) read before it (I2) */
    cr_assert_eq(check_log("LD 0 0 0x0 0 MM 21 21 21 21 31\nST 1 0 0x0 2 MM 11 11 11 11 15\n",
                           &o, &r),
                 2, "%s", o);
    cr_assert_eq(r.inv[HALCONE_CHECK_I2], 1);
    cr_assert(strstr(o, "CHECK REORDER 1 0x0 0 2\n") != NULL, "%s", o);
    cr_assert_eq(r.reorder, 1);
    free(o);
}

Test(halcone_check, a_value_no_store_wrote_is_stale)
{
    char *o;
    halcone_check_result r;
    cr_assert_eq(check_log("LD 0 0 0x0 7 MM 0 0 0 0 10\n", &o, &r), 1, "%s", o);
    cr_assert(strstr(o, "CHECK STALE 1 0x0 7 0\n") != NULL, "%s", o);
    free(o);
}

Test(halcone_check, keys_order_epochs_before_timestamps)
{
    /* after RESET 1 a load at ts 1 is after the store at 20 of epoch 0 */
    char *o;
    halcone_check_result r;
    cr_assert_eq(check_log("ST 0 0 0x0 5 MM 20 20 20 20 24\n"
                           "RESET 1\n"
                           "LD 1 0 0x0 5 MM 1 1 1 0 10\n",
                           &o, &r),
                 0, "%s", o);
    cr_assert_eq(check_log("ST 0 0 0x0 5 MM 20 20 20 20 24\n"
                           "RESET 1\n"
                           "LD 1 0 0x0 0 MM 1 1 1 0 10\n",
                           &o, &r),
                 1, "%s", o);
    cr_assert(strstr(o, "CHECK STALE 3 0x0 0 5\n") != NULL, "%s", o);
    cr_assert_eq(r.epoch, 1);
    free(o);
}

Test(halcone_check, hits_need_a_live_copy_of_the_epoch)
{
    char *o;
    halcone_check_result r;
    /* a copy does not survive a RESET, nor an L1 eviction */
    check_log("LD 0 0 0x0 0 MM 0 0 0 0 10\nRESET 1\nLD 0 0 0x0 0 L1 0 0 0 0 10\n", &o, &r);
    cr_assert_eq(r.inv[HALCONE_CHECK_COPY], 1, "%s", o);
    free(o);
    check_log("LD 0 0 0x0 0 MM 0 0 0 0 10\nEVL1 0 0 0x0 1\nLD 0 0 0x0 0 L1 0 0 0 0 10\n", &o, &r);
    cr_assert_eq(r.inv[HALCONE_CHECK_COPY], 1, "%s", o);
    free(o);
    check_log("LD 0 0 0x0 0 MM 0 0 0 0 10\nL2VICTIM 0 0x0\nLD 0 1 0x0 0 L2 0 0 0 0 10\n", &o,
              &r);
    cr_assert_eq(r.inv[HALCONE_CHECK_COPY], 1, "%s", o);
    free(o);
    /* an eviction report must agree with the log */
    check_log("EVL1 0 0 0x0 1\n", &o, &r);
    cr_assert_eq(r.inv[HALCONE_CHECK_COPY], 1, "%s", o);
    free(o);
    /* an L1 hit must return the copy it holds, covering its time */
    check_log("LD 0 0 0x0 0 MM 0 0 0 0 10\nLD 0 0 0x0 0 L1 0 0 0 0 12\n", &o, &r);
    cr_assert_eq(r.inv[HALCONE_CHECK_I3], 1, "%s", o);
    free(o);
}

Test(halcone_check, l1_time_bounds_and_program_order)
{
    char *o;
    halcone_check_result r;
    check_log("LD 0 0 0x0 0 MM 12 12 11 12 20\n", &o, &r);
    cr_assert_eq(r.inv[HALCONE_CHECK_I4], 1, "%s", o);
    free(o);
    /* an L1 hit does not ask the L2 (banks: the L1 may be ahead of it) */
    check_log("LD 0 0 0x0 0 MM 12 12 12 12 20\nLD 0 0 0x0 0 L1 12 12 3 12 20\n", &o, &r);
    cr_assert_eq(r.inv[HALCONE_CHECK_I4], 0, "%s", o);
    free(o);
    check_log("LD 0 0 0x0 0 MM 12 12 12 12 20\nLD 0 0 0x40 0 MM 5 5 12 0 10\n", &o, &r);
    cr_assert_eq(r.inv[HALCONE_CHECK_CTS], 1, "%s", o);
    cr_assert_eq(r.inv[HALCONE_CHECK_PO], 1, "%s", o);
    free(o);
    check_log("LD 0 0 0x0 0 MM 9 9 9 0 10\nLD 0 0 0x0 0 L1 12 12 12 0 10\n", &o, &r);
    cr_assert_geq(r.inv[HALCONE_CHECK_I3], 1, "%s", o);
    free(o);
}

Test(halcone_check, leases_above_the_tsu_memts_break_i1)
{
    char *o;
    halcone_check_result r;
    /* without a floor a dropped entry leaves M(X) = 0 under a live lease */
    check_log("TSU GRANT 0x0 0 10\nLD 0 0 0x0 0 MM 0 0 0 0 10\n"
              "TSU VICTIM 0x0 10\nTSU GRANT 0x80 0 10\nLD 0 0 0x80 0 MM 0 0 0 0 10\n",
              &o, &r);
    cr_assert_eq(r.inv[HALCONE_CHECK_I1], 1, "%s", o);
    cr_assert(strstr(o, "# INVARIANT I1 line 3 0x0: GPU0 CU0 holds (0,10) above M(X) 0") != NULL,
              "%s", o);
    free(o);
    /* the floor keeps M(X) at 10 (global, per set, per TSU) */
    cr_assert_eq(check_log("TSU GRANT 0x0 0 10\nLD 0 0 0x0 0 MM 0 0 0 0 10\n"
                           "TSU VICTIM 0x0 10\nTSU FLOOR 10\nTSU GRANT 0x80 10 20\n"
                           "LD 0 0 0x80 0 MM 10 10 10 10 20\n",
                           &o, &r),
                 0, "%s", o);
    free(o);
    cr_assert_eq(check_log("TSU 1 GRANT 0x40 0 10\nLD 0 0 0x40 0 MM 0 0 0 0 10\n"
                           "TSU 1 REMOVE 0x40 10\nTSU 1 FLOOR 10 3\n"
                           "TSU 1 GRANT 0x40 11 15\nST 0 1 0x40 4 MM 11 11 11 11 15\n",
                           &o, &r),
                 0, "%s", o);
    free(o);
    /* a lease the TSU never granted (V1's extension) */
    check_log("TSU GRANT 0x0 0 10\nLD 0 0 0x0 0 MM 11 11 11 11 12\n", &o, &r);
    cr_assert_eq(r.inv[HALCONE_CHECK_I1], 1, "%s", o);
    free(o);
}

Test(halcone_check, malformed_log_records_are_refused)
{
    halcone_check *c = halcone_check_new();
    char err[200];
    cr_assert_eq(halcone_check_feed(c, "LD 0 0 0x0 0 XX 0 0 0 0 10", 1, err, sizeof err), -1);
    cr_assert(strstr(err, "LD") != NULL, "%s", err);
    cr_assert_eq(halcone_check_feed(c, "LD 0 0 0x0 0 MM 0 0 0 0", 2, err, sizeof err), -1);
    cr_assert_eq(halcone_check_feed(c, "FOO 1", 3, err, sizeof err), -1);
    cr_assert(strstr(err, "FOO") != NULL, "%s", err);
    cr_assert_eq(halcone_check_feed(c, "TSU GRANT 0x0 1", 4, err, sizeof err), -1);
    cr_assert_eq(halcone_check_feed(c, "TSU BLAH 0x0", 5, err, sizeof err), -1);
    cr_assert_eq(halcone_check_feed(c, "# a summary", 6, err, sizeof err), 0);
    cr_assert_eq(halcone_check_feed(c, "CHECK STALE 1 0x0 0 1", 7, err, sizeof err), 0);
    halcone_check_free(c);
}

/* ----------------------------------------------------- the system model -- */

Test(halcone_system, fig5a_intra_gpu_line_for_line_in_both_presets)
{
    const char *tr = "LD 0 0 0x0\nLD 0 1 0x40 lease=7\nST 0 0 0x40 1\nST 0 1 0x0 2\n"
                     "LD 0 0 0x0\nLD 0 1 0x40\n";
    const char *rules[] = {"--rules paper", "--rules safe"};
    int i;
    for (i = 0; i < 2; i++) {
        char args[64], *o, *e, *s;
        snprintf(args, sizeof args, "--gpus 1 --cus 2 %s", rules[i]);
        cr_assert_eq(run_sys(args, 0, 1, tr, &o, &e), 0, "%s\n%s", o, e);
        s = strip(o);
        cr_assert_str_eq(s, fig5a_log, "%s", args);
        cr_assert_eq(summary(o, "violations"), 0);
        free(o);
        free(e);
        free(s);
    }
}

Test(halcone_system, fig5b_inter_gpu_line_for_line_in_both_presets)
{
    const char *tr = "LD 0 0 0x0\nLD 1 0 0x40 lease=7\nST 0 0 0x40 1\nST 1 0 0x0 2\n"
                     "LD 0 0 0x0\nLD 1 0 0x40\n";
    const char *want = "LD 0 0 0x0 0 MM 0 0 0 0 10\n"
                       "LD 1 0 0x40 0 MM 0 0 0 0 7\n"
                       "ST 0 0 0x40 1 MM 8 8 8 8 12\n"
                       "ST 1 0 0x0 2 MM 11 11 11 11 15\n"
                       "LD 0 0 0x0 0 L1 8 8 8 0 10\n"
                       "LD 1 0 0x40 1 MM 12 12 12 12 22\n";
    const char *rules[] = {"--rules paper", "--rules safe"};
    int i;
    for (i = 0; i < 2; i++) {
        char args[64], *o, *e, *s;
        snprintf(args, sizeof args, "--gpus 2 --cus 1 %s", rules[i]);
        cr_assert_eq(run_sys(args, 0, 1, tr, &o, &e), 0, "%s\n%s", o, e);
        s = strip(o);
        cr_assert_str_eq(s, want, "%s", args);
        free(o);
        free(e);
        free(s);
    }
}

/* One counterexample of spec 5.2: the paper rules with `opts` fail with the
 * quoted CHECK line (and access line, if given); `fixed` (the paper rules
 * with the fix on, or safe) passes. */
typedef struct {
    const char *name, *opts, *fixed, *trace, *check, *line;
} vcase;

static const vcase vcases[] = {
    {"V1", "--rules paper --gpus 1 --cus 2", "--rules paper --gpus 1 --cus 2 --lease-ext off",
     "LD 0 0 0x80\nST 0 0 0x80 1\nLD 0 1 0x0\nST 0 0 0x0 2\nLD 0 1 0x0\n",
     "CHECK STALE 5 0x0 0 2\n", "LD 0 1 0x0 0 L1 11 11 11 11 12\n"},
    {"V1 zero-length lease", "--rules paper --wr-lease 1 --req-cts on",
     "--rules paper --wr-lease 1 --req-cts on --lease-ext off",
     "LD 1 0 0x40 lease=2\nST 0 0 0x0 1\nLD 0 0 0x40\nST 1 0 0x0 2\nLD 0 0 0x0\n", "CHECK STALE 5",
     NULL},
    {"V2", "--rules paper --gpus 2 --cus 1 --tsu-sets 1 --tsu-ways 2",
     "--rules paper --gpus 2 --cus 1 --tsu-sets 1 --tsu-ways 2 --floor global",
     "LD 0 0 0x0\nLD 0 0 0x40 lease=20\nLD 0 0 0x80\nST 1 0 0x0 2\nST 0 0 0xc0 7\nLD 0 0 0x0\n",
     "CHECK STALE 6 0x0 0 2\n", "LD 0 0 0x0 0 L1 1 1 1 0 10\n"},
    {"V3", "--rules paper --gpus 1 --cus 2", "--rules paper --gpus 1 --cus 2 --floor global",
     "LD 0 0 0x0\nLD 0 1 0x40 lease=30\nEVL2 0 0x0\nST 0 1 0x0 2\nST 0 0 0x80 3\nLD 0 0 0x0\n",
     "CHECK STALE 6 0x0 0 2\n", "EVL2 0 0x0 1\n"},
    {"V4", "--rules paper --gpus 2 --cus 1 --ts-bits 5",
     "--rules paper --gpus 2 --cus 1 --ts-bits 5 --overflow reset",
     "LD 0 0 0x0\nST 1 0 0x0 1\nST 1 0 0x0 2\nST 1 0 0x0 3\nST 1 0 0x0 4\nST 1 0 0x0 5\n"
     "ST 0 0 0x40 9\nLD 0 0 0x0\n",
     "CHECK STALE 8 0x0 0 5\n", "LD 0 0 0x0 0 L1 1 1 1 0 10\n"},
    {"V5", "--rules paper --wr-wts literal", "--rules paper --wr-wts plus1",
     "LD 0 0 0x0\nLD 1 0 0x40\nST 1 0 0x0 1\nST 0 0 0x40 2\nLD 0 0 0x0\n",
     "CHECK STALE 5 0x0 0 1\n", NULL},
    {"V6", "--rules paper --read-cts off", "--rules paper --read-cts on",
     "ST 1 0 0x0 1\nLD 0 0 0x0\n", "CHECK FUTURE 2 0x0 1 0\n", NULL},
    {"V7", "--rules paper --lease-ext off", "--rules paper --lease-ext off --req-cts on",
     "LD 1 0 0x80\nLD 0 0 0x80\nST 0 0 0x80 1\nLD 0 0 0x0\nST 1 0 0x0 2\n",
     "CHECK REORDER 4 0x0 0 2\n", NULL},
};

Test(halcone_system, every_counterexample_fails_with_its_fix_off_and_passes_with_it_on)
{
    size_t i;
    for (i = 0; i < sizeof vcases / sizeof vcases[0]; i++) {
        const vcase *v = &vcases[i];
        char *o, *e, safe[160];
        cr_assert_eq(run_sys(v->opts, 0, 1, v->trace, &o, &e), 1, "%s: no violation\n%s", v->name,
                     o);
        cr_assert(strstr(o, v->check) != NULL, "%s: want %s in\n%s", v->name, v->check, o);
        cr_assert(v->line == NULL || strstr(o, v->line) != NULL, "%s: want %s in\n%s", v->name,
                  v->line, o);
        free(o);
        free(e);
        /* the fix alone removes the stale value (with S4 still off the
         * checker may report V7's invariant I3, not a failing load) */
        run_sys(v->fixed, 0, 0, v->trace, &o, &e);
        cr_assert_eq(summary(o, "stale") + summary(o, "reorder") + summary(o, "future"), 0,
                     "%s fixed: %s\n%s", v->name, v->fixed, o);
        free(o);
        free(e);
        /* the safe preset with the same geometry passes too, unless the case
         * is a literal-algorithm switch (V5, V6: fixed in both presets) */
        snprintf(safe, sizeof safe, "%s --rules safe", v->opts);
        if (strstr(v->opts, "literal") == NULL && strstr(v->opts, "read-cts") == NULL) {
            cr_assert_eq(run_sys(safe, 0, 1, v->trace, &o, &e), 0, "%s safe:\n%s", v->name, o);
            free(o);
            free(e);
        }
    }
}

Test(halcone_system, small_timestamps_overflow_within_a_short_run)
{
    /* 5 and 6 bits: safe resets the epoch and stays coherent; paper wraps
     * and returns stale data (V4) */
    const char *bits[] = {"5", "6"};
    int i;
    for (i = 0; i < 2; i++) {
        char tr[2048], args[128], *o, *e;
        size_t n = 0;
        int k;
        n += (size_t)snprintf(tr + n, sizeof tr - n, "LD 0 0 0x0\n");
        for (k = 1; k <= 14; k++)
            n += (size_t)snprintf(tr + n, sizeof tr - n, "ST 1 0 0x0 %d\n", k);
        n += (size_t)snprintf(tr + n, sizeof tr - n, "ST 0 0 0x40 99\nLD 0 0 0x0\n");
        snprintf(args, sizeof args, "--gpus 2 --cus 1 --ts-bits %s", bits[i]);
        cr_assert_eq(run_sys(args, 0, 1, tr, &o, &e), 0, "%s\n%s", args, o);
        cr_assert(strstr(o, "RESET 1\n") != NULL, "%s: no reset\n%s", args, o);
        cr_assert_geq(counter(o, "# tsu", "resets"), 1);
        free(o);
        free(e);
        snprintf(args, sizeof args, "--gpus 2 --cus 1 --ts-bits %s --rules paper", bits[i]);
        cr_assert_eq(run_sys(args, 0, 1, tr, &o, &e), 1, "%s\n%s", args, o);
        cr_assert_geq(counter(o, "# tsu", "wraps"), 1);
        cr_assert(strstr(o, "CHECK STALE 17 0x0") != NULL, "%s", o);
        free(o);
        free(e);
    }
}

static char *gen(const char *args)
{
    const cohkit_unit_desc *u = cohkit_unit_tool_find("halcone-gen");
    void *cfg = calloc(1, u->cfg_size);
    char e[300], *o;
    size_t n = 0;
    FILE *f = open_memstream(&o, &n);
    cr_assert_eq(cohkit_unit_cfg_parse_str(u, cfg, args, e, sizeof e), 0, "%s: %s", args, e);
    cr_assert_eq(u->trace_run(cfg, NULL, stdin, "-", f, stderr), 0);
    fclose(f);
    free(cfg);
    return o;
}

Test(halcone_system, random_programs_pass_under_safe_and_fail_under_paper, .timeout = 60)
{
    /* tiny caches and TSU (victims, floors, notices), lease overrides,
     * forced evictions, 6- and 16-bit timestamps, 2 and 4 GPUs; several
     * seeds; TSUs interleaved */
    static const char *const geo[] = {
        "--l1-sets 2 --l1-ways 1 --l2-sets 2 --l2-ways 2 --tsu-sets 2 --tsu-ways 2",
        "--l1-sets 2 --l1-ways 1 --l2-sets 2 --l2-ways 2 --tsu-sets 2 --tsu-ways 2 --ts-bits 6",
        "--l1-sets 2 --l1-ways 2 --l2-sets 4 --l2-ways 2 --tsu-sets 1 --tsu-ways 4 --tsus 2",
        "--l1-sets 2 --l1-ways 1 --l2-sets 2 --l2-ways 2 --tsu-sets 2 --tsu-ways 2 --floor set",
    };
    long stale = 0, reorder = 0, future = 0, resets = 0, floors = 0;
    unsigned g, s, k;
    for (g = 2; g <= 4; g += 2)
        for (s = 1; s <= 3; s++)
            for (k = 0; k < sizeof geo / sizeof geo[0]; k++) {
                char a[256], *p, *o, *e;
                snprintf(a, sizeof a, "--config random --gpus %u --cus 2 --ops 300 --lines 10 "
                         "--seed %u", g, s);
                p = gen(a);
                snprintf(a, sizeof a, "--gpus %u --cus 2 %s", g, geo[k]);
                cr_assert_eq(run_sys(a, 0, 1, p, &o, &e), 0, "safe %s seed %u:\n%s", a, s, o);
                resets += counter(o, "# tsu", "resets");
                floors += counter(o, "# tsu", "floor");
                free(o);
                free(e);
                strcat(a, " --rules paper");
                cr_assert_eq(run_sys(a, 0, 1, p, &o, &e), 1, "paper %s seed %u passed", a, s);
                stale += summary(o, "stale");
                reorder += summary(o, "reorder");
                future += summary(o, "future");
                free(o);
                free(e);
                free(p);
            }
    cr_assert_gt(resets, 0, "no run reached overflow");
    cr_assert_gt(floors, 0, "no run raised a floor");
    cr_assert(stale > 0 && reorder > 0 && future > 0,
              "paper: stale %ld reorder %ld future %ld (all three kinds expected)", stale,
              reorder, future);
}

Test(halcone_system, l2_banks_need_the_l1_cts_on_l2_requests, .timeout = 60)
{
    /* H24: with several banks an L1's cts may run ahead of a bank; an L2 hit
     * then returns a copy whose lease ends before the L1's time. The safe
     * preset carries the L1's cts to the bank (--l1-req-cts on); with it off
     * the checker finds stale loads. */
    long bad_off = 0;
    unsigned g, s;
    for (g = 2; g <= 4; g += 2)
        for (s = 1; s <= 3; s++) {
            char a[256], *p, *o, *e;
            snprintf(a, sizeof a, "--config random --gpus %u --cus 2 --ops 300 --lines 12 "
                     "--seed %u", g, s);
            p = gen(a);
            snprintf(a, sizeof a, "--gpus %u --cus 2 --l1-sets 2 --l1-ways 1 --l2-sets 2 "
                     "--l2-ways 2 --tsu-sets 2 --tsu-ways 2 --l2-banks %u --tsus 2", g, g);
            cr_assert_eq(run_sys(a, 0, 1, p, &o, &e), 0, "safe %s seed %u:\n%s", a, s, o);
            free(o);
            free(e);
            strcat(a, " --l1-req-cts off");
            run_sys(a, 0, 1, p, &o, &e);
            bad_off += summary(o, "stale") + summary(o, "reorder") + summary(o, "future");
            free(o);
            free(e);
            free(p);
        }
    cr_assert_gt(bad_off, 0, "banks without the L1's cts never failed");
}

Test(halcone_system, xtreme_programs_count_coherency_misses_and_stay_coherent)
{
    int k;
    for (k = 1; k <= 3; k++) {
        char a[64], *p, *o, *e;
        snprintf(a, sizeof a, "--config xtreme%d", k);
        p = gen(a);
        cr_assert_eq(run_sys("--gpus 2 --cus 2", 0, 1, p, &o, &e), 0, "xtreme%d safe:\n%s", k, o);
        cr_assert_gt(counter(o, "# coherency misses", "L1"), 0);
        free(o);
        free(e);
        /* short Xtreme runs return no stale value under the paper rules */
        run_sys("--gpus 2 --cus 2 --rules paper", 0, 0, p, &o, &e);
        cr_assert_eq(summary(o, "stale") + summary(o, "reorder") + summary(o, "future"), 0,
                     "xtreme%d paper:\n%s", k, o);
        free(o);
        free(e);
        free(p);
    }
    {
        /* a long Xtreme1 at 8 bits wraps under paper, resets under safe */
        char *p = gen("--config xtreme1 --gpus 1 --cus 1 --reps 40"), *o, *e;
        cr_assert_eq(run_sys("--gpus 1 --cus 1 --ts-bits 8", 0, 1, p, &o, &e), 0, "%s", o);
        cr_assert_geq(counter(o, "# tsu", "resets"), 1);
        free(o);
        free(e);
        cr_assert_eq(run_sys("--gpus 1 --cus 1 --ts-bits 8 --rules paper", 0, 1, p, &o, &e), 1);
        cr_assert_geq(counter(o, "# tsu", "wraps"), 1);
        free(o);
        free(e);
        free(p);
    }
}

Test(halcone_system, events_lines_come_before_their_access)
{
    char *o, *e;
    cr_assert_eq(run_sys("--gpus 1 --cus 2 --l1-sets 2 --l1-ways 1", 1, 0,
                         "LD 0 0 0x0\nLD 0 0 0x80\nEVL2 0 0x0\n", &o, &e),
                 0);
    cr_assert(strstr(o, "TSU GRANT 0x0 0 10\nLD 0 0 0x0 0 MM 0 0 0 0 10\n") != NULL, "%s", o);
    cr_assert(strstr(o, "L1VICTIM 0 0 0x0\nLD 0 0 0x80") != NULL, "%s", o);
    cr_assert(strstr(o, "TSU KEEP 0x0 10\nEVL2 0 0x0 1\n") != NULL, "%s", o);
    free(o);
    free(e);
    cr_assert_eq(run_sys("--gpus 1 --cus 2", 0, 0, "LD 0 0 0x0\nEVL2 0 0x0\n", &o, &e), 0);
    cr_assert(strstr(o, "TSU") == NULL, "%s", o);
    free(o);
    free(e);
}

Test(halcone_gen, a_seed_always_gives_the_same_program)
{
    char *a = gen("--config random --seed 7"), *b = gen("--config random --seed 7"),
         *c = gen("--config random --seed 8");
    cr_assert_str_eq(a, b);
    cr_assert_str_neq(a, c);
    cr_assert(strstr(a, "lease=") && strstr(a, "EVL1") && strstr(a, "EVL2") && strstr(a, "ST "),
              "a random program mixes every command");
    free(a);
    free(b);
    free(c);
    a = gen("--config xtreme3 --gpus 2 --cus 2 --elems 1 --reps 1");
    /* step 2 writes A3, the slice of GPU 1 CU 1 (block 3 of A) */
    cr_assert(strstr(a, "ST 0 0 0xc0 ") != NULL, "%s", a);
    free(a);
}

/* ------------------------------------------------------------ the tools -- */

Test(halcone_system, tools_run_from_cohmodel_and_bad_input_exits_2_with_nothing_printed)
{
    struct {
        const char *cmd, *msg;
    } bad[] = {
        {"printf 'LD 0 0 0x0\\nLX 0 0 0x0\\n' | build/bin/cohmodel halcone-system", "line 2"},
        {"printf 'LD 0 0 0x0\\nLD 2 0 0x0\\n' | build/bin/cohmodel halcone-system", "line 2: GPU 2"},
        {"printf '\\n# c\\nLD 0 5 0x0\\n' | build/bin/cohmodel halcone-system", "line 3: CU 5"},
        {"printf 'LD 0 0 0x0 lease=0\\n' | build/bin/cohmodel halcone-system", "line 1: bad lease"},
        {"printf 'LD 0 0 0xzz\\n' | build/bin/cohmodel halcone-system", "line 1: bad address"},
        {"printf 'ST 0 0 0x0\\n' | build/bin/cohmodel halcone-system", "line 1: ST"},
        {"printf 'ST 0 0 0x0 1 2\\n' | build/bin/cohmodel halcone-system", "line 1: unexpected"},
        {"build/bin/cohmodel halcone-system --rules strict </dev/null", "strict"},
        {"build/bin/cohmodel halcone-system --floor some </dev/null", "some"},
        {"build/bin/cohmodel halcone-system --l2-banks 3 </dev/null", "--l2-banks 3"},
        {"build/bin/cohmodel halcone-system --ts-bits 40 </dev/null", "40"},
        {"build/bin/cohmodel halcone-system --bogus 1 </dev/null", "--bogus"},
        {"build/bin/cohmodel halcone-gen xtreme4", "xtreme4"},
        {"build/bin/cohmodel halcone-gen random --ops 0", "--ops"},
        {"build/bin/cohmodel halcone-gen xtreme3 --gpus 1", "--gpus 1"},
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        refused(bad[i].cmd, bad[i].msg);
    cr_assert_eq(run("build/bin/cohmodel halcone-gen xtreme2 --elems 2 --reps 3 >build/t_hs.trace"),
                 0);
    cr_assert_eq(run("build/bin/cohmodel halcone-system --fail-on-violation --events "
                     "<build/t_hs.trace | tail -1 | grep -q ' violations 0$'"),
                 0);
    cr_assert_eq(run("build/bin/cohmodel halcone-system --rules paper --fail-on-violation "
                     "<build/t_hs.trace >/dev/null"),
                 1);
    cr_assert_eq(run("build/bin/cohmodel halcone-system --help | grep -q -- --l2-banks"), 0);
}
