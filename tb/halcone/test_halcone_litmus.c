/*
 * `cohmodel halcone-litmus` (cmodel/halcone/halcone_litmus.c): the litmus
 * shapes through the HALCONE system model. The safe rules never give a
 * non-SC outcome, on every thread layout; the paper's rules and the
 * multi-bank system without the L1 time on L2 requests do, and the
 * checker fails their logs; bad options exit 2.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "test_util.h"

/* The line of an outcome row "<test> <variant> <outcome> ..." (NULL: absent). */
static const char *row(const char *out, const char *test, const char *outcome)
{
    char key[128];
    snprintf(key, sizeof key, "\n%-5s %-5s %-26s", test, "plain", outcome);
    return strstr(out, key);
}

Test(halcone_litmus, safe_rules_give_no_forbidden_outcome_on_any_layout, .timeout = 120)
{
    static const char *const runs[] = {"--layout grid", "--layout intra", "--layout inter", "--ts-bits 6",
                                       "--l2-banks 2 --tsus 2"};
    unsigned i;
    for (i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        cmd_out r;
        run_cap(&r, "build/bin/cohmodel halcone-litmus --runs 100 %s", runs[i]);
        cr_expect_eq(r.status, 0, "%s: exit %d\n%s%s", runs[i], r.status, r.out, r.err);
        cr_expect(strstr(r.out, "halcone-litmus: 1200 runs, 0 failed the checker; 0 with a forbidden outcome\n") !=
                      NULL,
                  "%s:\n%s", runs[i], r.out);
        {
            const char *m = row(r.out, "MP", "r0=1 r1=0");
            cr_expect(m && strncmp(strchr(m + 1, '\n') - 21, "forbidden, never seen", 21) == 0, "%s:\n%s",
                      runs[i], r.out);
        }
        cmd_out_free(&r);
    }
}

Test(halcone_litmus, the_unsafe_rules_show_where_they_fail, .timeout = 120)
{
    /* the paper's rules (spec 5.2) and two L2 banks without --l1-req-cts:
     * non-SC outcomes of MP, SB or R, and the checker's failures */
    static const char *const runs[] = {"--rules paper", "--l2-banks 2 --l1-req-cts off"};
    unsigned i;
    for (i = 0; i < 2; i++) {
        cmd_out r;
        run_cap(&r, "build/bin/cohmodel halcone-litmus --runs 300 %s", runs[i]);
        cr_expect_eq(r.status, 1, "%s: exit %d\n%s", runs[i], r.status, r.out);
        cr_expect(strstr(r.out, "FORBIDDEN (first: --seed ") != NULL, "%s:\n%s", runs[i], r.out);
        cr_expect(strstr(r.err, "the checker: ") != NULL, "%s: %s", runs[i], r.err);
        cr_expect_null(strstr(r.out, " 0 failed the checker"), "%s:\n%s", runs[i], r.out);
        cmd_out_free(&r);
    }
}

Test(halcone_litmus, bad_options_exit_2_with_one_line)
{
    static const char *const bad[] = {"--gpus 4", "--cus 2", "--layout ring", "--variant sync", "--runs 0",
                                      "--test IRIW2", "--rules none"};
    unsigned i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cmd_out r;
        run_cap(&r, "build/bin/cohmodel halcone-litmus %s", bad[i]);
        cr_expect_eq(r.status, 2, "%s: exit %d", bad[i], r.status);
        cr_expect_eq(line_count(r.err), 1, "%s: %s", bad[i], r.err);
        cr_expect_str_eq(r.out, "", "%s: %s", bad[i], r.out);
        cmd_out_free(&r);
    }
}
