/*
 * `cohmodel spandex-litmus` (cmodel/spandex/spandex_litmus.c): the litmus
 * shapes through the composed system under randomized timing. The forbidden
 * outcomes never appear on any device kind; the racy shapes do show weak
 * outcomes (so the runs reach the timings where a forbidden one would
 * appear); a model fault is caught; bad options exit 2.
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

Test(spandex_litmus, no_forbidden_outcome_on_any_device_kind, .timeout = 120)
{
    static const char *const kinds[] = {"gpu", "denovo", "mesi", "mix"};
    unsigned k;
    for (k = 0; k < 4; k++) {
        cmd_out r;
        run_cap(&r, "build/bin/cohmodel spandex-litmus --kind %s --runs 50 --seed %u", kinds[k], 11 + k);
        cr_assert_eq(r.status, 0, "%s: exit %d\n%s%s", kinds[k], r.status, r.out, r.err);
        cr_expect(strstr(r.out, "spandex-litmus: 1200 runs, 0 failed the checker; 0 with a forbidden outcome\n") != NULL, "%s:\n%s", kinds[k], r.out);
        cr_expect_null(strstr(r.out, "FORBIDDEN"), "%s:\n%s", kinds[k], r.out);
        /* every forbidden outcome is listed, each never seen */
        cr_expect_eq(row(r.out, "MP", "sync", "r0=1 r1=0"), 0, "%s:\n%s", kinds[k], r.out);
        cr_expect_eq(row(r.out, "IRIW", "sync", "r0=1 r1=0 r2=1 r3=0"), 0, "%s", kinds[k]);
        cr_expect_eq(row(r.out, "CoRR", "plain", "r0=1 r1=0"), 0, "%s", kinds[k]);
        cr_expect_eq(row(r.out, "CoWW", "plain", "x=1"), 0, "%s", kinds[k]);
        cr_expect_eq(row(r.out, "CoWR", "plain", "r0=0 x=*"), 0, "%s", kinds[k]);
        cr_expect_eq(row(r.out, "2+2W", "sync", "x=1 y=1"), 0, "%s", kinds[k]);
        cmd_out_free(&r);
    }
}

Test(spandex_litmus, racy_shapes_show_weak_outcomes_that_synchronisation_removes, .timeout = 60)
{
    /* self-invalidating caches keep stale words until an acquire: plain MP
     * reads the new flag and the old data, IRIW's readers disagree on the
     * order of two writes, and SB's stores wait behind the loads; with the
     * release and acquire (MP) or atomics (SB, IRIW) never */
    cmd_out r;
    run_cap(&r, "build/bin/cohmodel spandex-litmus --kind gpu --runs 300 --test MP");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect_gt(row(r.out, "MP", "plain", "r0=1 r1=0"), 0, "%s", r.out);
    cr_expect_eq(row(r.out, "MP", "sync", "r0=1 r1=0"), 0, "%s", r.out);
    cmd_out_free(&r);
    run_cap(&r, "build/bin/cohmodel spandex-litmus --kind denovo --runs 300 --test IRIW");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect_gt(row(r.out, "IRIW", "plain", "r0=1 r1=0 r2=1 r3=0"), 0, "%s", r.out);
    cr_expect_eq(row(r.out, "IRIW", "sync", "r0=1 r1=0 r2=1 r3=0"), 0, "%s", r.out);
    cmd_out_free(&r);
    run_cap(&r, "build/bin/cohmodel spandex-litmus --kind mesi --runs 300 --test SB");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect_gt(row(r.out, "SB", "plain", "r0=0 r1=0"), 0, "%s", r.out);
    cr_expect_eq(row(r.out, "SB", "sync", "r0=0 r1=0"), 0, "%s", r.out);
    cmd_out_free(&r);
}

Test(spandex_litmus, a_model_fault_fails_the_run_and_names_its_seed)
{
    /* a RspV with stale words: the checker's SYS3 or a forbidden outcome;
     * a lost Ack: the system's own deadlock report */
    cmd_out r;
    run_cap(&r, "build/bin/cohmodel spandex-litmus --kind gpu --runs 40 --fault stale-rspv");
    cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect(strstr(r.err, "--runs 1)") != NULL || strstr(r.out, "FORBIDDEN") != NULL, "%s%s", r.out, r.err);
    cmd_out_free(&r);
    run_cap(&r, "build/bin/cohmodel spandex-litmus --kind mix --runs 40 --fault drop-ack");
    cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect(strstr(r.err, "E deadlock") != NULL, "%s", r.err);
    cmd_out_free(&r);
}

Test(spandex_litmus, a_run_repeats_from_its_seed_and_prints_its_program)
{
    cmd_out a, b;
    run_cap(&a, "build/bin/cohmodel spandex-litmus --test IRIW --variant sync --seed 7 --runs 1");
    run_cap(&b, "build/bin/cohmodel spandex-litmus --test IRIW --variant sync --seed 7 --runs 1");
    cr_assert_eq(a.status, 0, "%s%s", a.out, a.err);
    cr_expect_str_eq(a.out, b.out);
    cmd_out_free(&a);
    cmd_out_free(&b);
    run_cap(&a, "build/bin/cohmodel spandex-litmus --test MP --variant plain --program --seed 3 --kind gpu");
    cr_assert_eq(a.status, 0, "%s", a.err);
    {
        const char *head = "# MP plain: spandex-system --dev 0:gpu --dev 1:gpu --sched random --seed 3\n";
        cr_expect(strncmp(a.out, head, strlen(head)) == 0, "%s", a.out);
    }
    cr_expect_null(strstr(a.out, "REL"), "plain MP has no release:\n%s", a.out);
    cr_expect_null(strstr(a.out, "RMW"), "%s", a.out);
    cr_expect(strstr(a.out, "\nDRAIN\n") != NULL, "%s", a.out);
    cmd_out_free(&a);
    /* the printed program runs through spandex-system */
    run_cap(&a, "build/bin/cohmodel spandex-litmus --test MP --variant sync --program --seed 3 --kind gpu | "
                "build/bin/cohmodel spandex-system --dev 0:gpu --dev 1:gpu --sched random --seed 3");
    cr_expect_eq(a.status, 0, "%s%s", a.out, a.err);
    cr_expect(strstr(a.out, "\nV 1 ") != NULL, "%s", a.out);
    cmd_out_free(&a);
}

Test(spandex_litmus, bad_options_exit_2_with_one_line)
{
    static const char *const bad[] = {"--test XX", "--variant racy", "--kind cpu", "--runs 0", "--runs 5x",
                                      "--dev 0:gpu", "--sched fifo"};
    unsigned i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cmd_out r;
        run_cap(&r, "build/bin/cohmodel spandex-litmus %s", bad[i]);
        cr_expect_eq(r.status, 2, "%s: exit %d", bad[i], r.status);
        cr_expect_eq(line_count(r.err), 1, "%s: %s", bad[i], r.err);
        cr_expect_str_eq(r.out, "", "%s: %s", bad[i], r.out);
        cmd_out_free(&r);
    }
}
