/*
 * `cohmodel stc-litmus` (cmodel/stc/stc_litmus.c): the litmus shapes through
 * the STC system model, every log judged by stc-check. No forbidden outcome
 * under NV, ES, AB or MB; the racy SB outcome appears without the fence and
 * not with it; the paper's literal Table 1 (--no-poison) gives a forbidden MP
 * outcome and a stale hit on a run the poison bit keeps correct; a model
 * fault (--no-lazy) fails the checker; bad options exit 2.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* The count of an outcome row "<test> <variant> <outcome> <n> ..." (-1: absent). */
static long row(const char *out, const char *test, const char *var, const char *outcome)
{
    char key[128];
    const char *p;
    snprintf(key, sizeof key, "\n%-5s %-5s %-26s", test, var, outcome);
    p = strstr(out, key);
    return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

Test(stc_litmus, every_variant_gives_no_forbidden_outcome, .timeout = 60)
{
    static const char *const v[] = {"nv", "es", "ab", "mb"};
    static const char *const racy[] = {"MP", "SB", "LB", "S", "R", "2+2W", "WRC", "IRIW"};
    unsigned k, i;
    for (k = 0; k < 4; k++) {
        cmd_out r;
        run_cap(&r, "build/bin/cohmodel stc-litmus --stc-variant %s --runs 6 --seed %u", v[k], 100 * k + 1);
        cr_assert_eq(r.status, 0, "%s: exit %d\n%s%s", v[k], r.status, r.out, r.err);
        cr_expect(strstr(r.out, "stc-litmus: 144 runs, 0 failed the checker; 0 with a forbidden outcome\n") != NULL,
                  "%s:\n%s", v[k], r.out);
        cr_expect_null(strstr(r.out, "FORBIDDEN"), "%s:\n%s", v[k], r.out);
        /* every forbidden outcome listed, never seen: synchronised shapes and
         * the coherence shapes in both variants */
        cr_expect_eq(row(r.out, "MP", "sync", "r0=1 r1=0"), 0, "%s:\n%s", v[k], r.out);
        cr_expect_eq(row(r.out, "SB", "sync", "r0=0 r1=0"), 0, "%s", v[k]);
        cr_expect_eq(row(r.out, "IRIW", "sync", "r0=1 r1=0 r2=1 r3=0"), 0, "%s", v[k]);
        cr_expect_eq(row(r.out, "2+2W", "sync", "x=1 y=1"), 0, "%s", v[k]);
        cr_expect_eq(row(r.out, "CoRR", "plain", "r0=1 r1=0"), 0, "%s", v[k]);
        cr_expect_eq(row(r.out, "CoRW", "plain", "r0=1 x=*"), 0, "%s", v[k]);
        cr_expect_eq(row(r.out, "CoWR", "plain", "r0=0 x=*"), 0, "%s", v[k]);
        cr_expect_eq(row(r.out, "CoWW", "sync", "x=1"), 0, "%s", v[k]);
        /* racy plain shapes forbid nothing (release consistency) */
        for (i = 0; i < sizeof racy / sizeof racy[0]; i++) {
            char key[32];
            snprintf(key, sizeof key, "\n%-5s plain ", racy[i]);
            cr_expect(strstr(r.out, key) != NULL, "%s %s:\n%s", v[k], racy[i], r.out);
        }
        cr_expect_neq(row(r.out, "MP", "plain", "r0=1 r1=0"), 0, "plain MP forbids nothing:\n%s", r.out);
        cmd_out_free(&r);
    }
}

Test(stc_litmus, the_racy_store_buffering_outcome_needs_no_fence_and_the_fence_removes_it, .timeout = 30)
{
    /* stores wait in the BSQ for their band's epoch while later loads go on:
     * plain SB reads 0, 0; with s_waitcnt after each store never */
    cmd_out r;
    run_cap(&r, "build/bin/cohmodel stc-litmus --test SB --runs 40");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect_gt(row(r.out, "SB", "plain", "r0=0 r1=0"), 0, "%s", r.out);
    cr_expect_eq(row(r.out, "SB", "sync", "r0=0 r1=0"), 0, "%s", r.out);
    cr_expect(strstr(r.out, "\nSB    plain r0=0 r1=0 ") && strstr(strstr(r.out, "\nSB    plain r0=0 r1=0 "),
                                                                  "allowed (racy)"), "%s", r.out);
    cmd_out_free(&r);
}

Test(stc_litmus, the_paper_table_1_fails_where_the_poison_bit_does_not, .timeout = 30)
{
    /* seed 608 (NV): the reader's cacheable load of x is outstanding (slow CU)
     * across x's epoch and the next ChangeEpoch; the literal Table 1 installs
     * the old value (S1), the acquire then sees y = 1 and the hit returns
     * x = 0 */
    cmd_out r;
    run_cap(&r, "build/bin/cohmodel stc-litmus --test MP --variant sync --no-poison --seed 608 --runs 1");
    cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect_eq(row(r.out, "MP", "sync", "r0=1 r1=0"), 1, "%s", r.out);
    cr_expect(strstr(r.out, "FORBIDDEN (first: --seed 608 --runs 1)") != NULL, "%s", r.out);
    cr_expect(strstr(r.err, "stc-check: VIOL stale @") != NULL, "%s", r.err);
    cr_expect(strstr(r.out, "stc-litmus: 1 runs, 1 failed the checker; 1 with a forbidden outcome\n") != NULL,
              "%s", r.out);
    cmd_out_free(&r);
    run_cap(&r, "build/bin/cohmodel stc-litmus --test MP --variant sync --seed 608 --runs 1");
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect_eq(row(r.out, "MP", "sync", "r0=1 r1=1"), 1, "%s", r.out);
    cr_expect_str_eq(r.err, "");
    cmd_out_free(&r);
}

Test(stc_litmus, a_model_fault_fails_the_checker_and_names_its_seed, .timeout = 30)
{
    /* no lazy invalidation and no sweep: copies of a band survive its epoch */
    cmd_out r;
    run_cap(&r, "build/bin/cohmodel stc-litmus --no-lazy --test MP --variant plain --runs 5");
    cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect(strstr(r.err, "--runs 1): stc-check: VIOL ") != NULL, "%s", r.err);
    cr_expect_null(strstr(r.out, " 0 failed the checker"), "%s", r.out);
    cmd_out_free(&r);
}

Test(stc_litmus, a_run_repeats_from_its_seed_and_its_program_runs_in_stc_system)
{
    cmd_out a, b;
    run_cap(&a, "build/bin/cohmodel stc-litmus --test IRIW --seed 7 --runs 3");
    run_cap(&b, "build/bin/cohmodel stc-litmus --test IRIW --seed 7 --runs 3");
    cr_assert_eq(a.status, 0, "%s%s", a.out, a.err);
    cr_expect_str_eq(a.out, b.out);
    cmd_out_free(&a);
    cmd_out_free(&b);
    run_cap(&a, "build/bin/cohmodel stc-litmus --test MP --variant sync --program --seed 3");
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_expect(strncmp(a.out, "# MP sync: stc-system --variant ", 32) == 0, "%s", a.out);
    cr_expect(strstr(a.out, " STREL ") != NULL && strstr(a.out, " LDACQ ") != NULL, "%s", a.out);
    cmd_out_free(&a);
    /* the printed program and command give the outcome the table counts */
    run_cap(&a, "p=$(build/bin/cohmodel stc-litmus --test MP --variant sync --program --seed 3); "
                "o=$(echo \"$p\" | head -1 | sed 's/.*stc-system //; s/ (and.*//'); "
                "echo \"$p\" | build/bin/cohmodel stc-system $o");
    cr_expect_eq(a.status, 0, "%s%s", a.out, a.err);
    cr_expect(strstr(a.out, "RESULT PASS\n") != NULL, "%s", a.out);
    cr_expect(strstr(a.out, "\nMEM 0x1000 1\n") != NULL, "%s", a.out);
    cmd_out_free(&a);
}

Test(stc_litmus, bad_options_exit_2_with_one_line)
{
    static const char *const bad[] = {"--test XX", "--variant nv", "--stc-variant ms", "--runs 0",
                                      "--runs 5x", "--seed -1", "--cus 4", "--epoch 1", "--l2-lat 20",
                                      "--slow-cu 1:300", "--wake 50", "--n 0", "--config big"};
    unsigned i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cmd_out r;
        run_cap(&r, "build/bin/cohmodel stc-litmus %s", bad[i]);
        cr_expect_eq(r.status, 2, "%s: exit %d", bad[i], r.status);
        cr_expect_eq(line_count(r.err), 1, "%s: %s", bad[i], r.err);
        cr_expect_str_eq(r.out, "", "%s: %s", bad[i], r.out);
        cmd_out_free(&r);
    }
}
