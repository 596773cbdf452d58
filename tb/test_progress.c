/*
 * Criterion tests of the progress line of long commands: scripts/progress.sh
 * (bash) and scripts/progress.py (Python) print the same line by the same
 * rules, with the clock given (no test here depends on the machine's speed),
 * and a script that uses them prints done of total.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* Both helpers driven through the same schedule "TOTAL WHAT T0 DONE@NOW...
 * [end@NOW]" with the environment env; each one's standard error must be
 * `want` and its standard output empty. */
static void both_print(const char *env, const char *sched, const char *want)
{
    static const char *const drivers[] = {
        "bash -c '. scripts/progress.sh; progress_start \"$1\" \"$2\" \"$3\"; shift 3; for a; do "
        "if [ \"${a%%@*}\" = end ]; then progress_end \"${a#*@}\"; "
        "else progress_step \"${a%%@*}\" \"${a#*@}\"; fi; done' _",
        "python3 scripts/progress.py",
    };
    for (size_t k = 0; k < sizeof drivers / sizeof *drivers; k++) {
        cmd_out r;
        run_cap(&r, "%s %s %s", env, drivers[k], sched);
        cr_assert_eq(r.status, 0, "%s %s: exit %d: %s", drivers[k], sched, r.status, r.err);
        cr_assert_str_eq(r.out, "", "%s: the line is not on standard error", drivers[k]);
        cr_assert_str_eq(r.err, want, "%s %s %s:\n%s\nnot\n%s", env, drivers[k], sched, r.err, want);
        cmd_out_free(&r);
    }
}

/* In a log (not a terminal), PROGRESS_SECONDS=0: a plain line an item, the
 * wording of a long lockstep run's line; a step that does no item prints nothing. */
Test(platform_progress, a_log_line_gives_done_of_total_elapsed_and_time_left)
{
    both_print("PROGRESS_TTY=0 PROGRESS_SECONDS=0", "4 runs 100 1@102 3@112 4@116 end@117",
               "progress: 1 of 4 runs (25.0 %), 2 s elapsed, about 6 s left\n"
               "progress: 3 of 4 runs (75.0 %), 12 s elapsed, about 4 s left\n"
               "progress: 4 of 4 runs (100.0 %), 16 s elapsed, about 0 s left\n");
    both_print("PROGRESS_TTY=0 PROGRESS_SECONDS=0", "3 programs 50 0@51 1@60 2@61",
               "progress: 1 of 3 programs (33.3 %), 10 s elapsed, about 20 s left\n"
               "progress: 2 of 3 programs (66.7 %), 11 s elapsed, about 6 s left\n");
    /* nothing done yet (shown on a terminal only): no estimate */
    both_print("PROGRESS_TTY=1", "3 programs 50 0@51",
               "\rprogress: 0 of 3 programs (0.0 %), 1 s elapsed\033[K");
}

/* In a log: a line when PROGRESS_SECONDS have passed since the last one and
 * an item has been done since (never two lines for one item); nothing at
 * the end (the command's summary follows). */
Test(platform_progress, a_log_gets_at_most_one_line_every_progress_seconds)
{
    both_print("PROGRESS_TTY=0 PROGRESS_SECONDS=30",
               "10 mutants 1000 1@1005 2@1029 3@1030 3@1061 3@1070 4@1071 5@1080 6@1100 7@1101 end@1102",
               "progress: 3 of 10 mutants (30.0 %), 30 s elapsed, about 70 s left\n"
               "progress: 4 of 10 mutants (40.0 %), 71 s elapsed, about 107 s left\n"
               "progress: 7 of 10 mutants (70.0 %), 101 s elapsed, about 43 s left\n");
    /* the default is 30 s */
    both_print("PROGRESS_TTY=0", "10 mutants 1000 1@1005 2@1029 3@1030 4@1059 end@1060",
               "progress: 3 of 10 mutants (30.0 %), 30 s elapsed, about 70 s left\n");
}

/* On a terminal: one line redrawn in place (\r, the line, erase to its end),
 * at most once a second whatever PROGRESS_SECONDS says, ended with a
 * newline by the end. */
Test(platform_progress, a_terminal_gets_one_updating_line)
{
    both_print("PROGRESS_TTY=1 PROGRESS_SECONDS=30", "4 runs 100 1@102 2@102 3@103 4@110 end@111",
               "\rprogress: 1 of 4 runs (25.0 %), 2 s elapsed, about 6 s left\033[K"
               "\rprogress: 3 of 4 runs (75.0 %), 3 s elapsed, about 1 s left\033[K"
               "\rprogress: 4 of 4 runs (100.0 %), 10 s elapsed, about 0 s left\033[K"
               "\rprogress: 4 of 4 runs (100.0 %), 11 s elapsed, about 0 s left\033[K\n");
    /* nothing shown, nothing to end */
    both_print("PROGRESS_TTY=1", "4 runs 100 end@101", "");
}

Test(platform_progress, a_bad_progress_seconds_is_refused)
{
    refused("PROGRESS_SECONDS=soon bash -c '. scripts/progress.sh; progress_start 3 runs; echo ran'",
            "'soon'");
    refused("PROGRESS_SECONDS=soon python3 scripts/progress.py 3 runs 0 1@1", "'soon'");
}

/* A real script: scripts/sysprog.sh counts programs done of the total, one
 * line an entry with PROGRESS_SECONDS=0, on standard error; its own lines
 * on standard output are unchanged. */
Test(platform_progress, sysprog_prints_programs_done_of_total, .timeout = 120)
{
    cmd_out r;
    const char *d = fresh_dir("progress_sp");
    char list[600];
    cr_assert_not_null(d);
    snprintf(list, sizeof list, "%s/list.txt", d);
    put(list, "a 2 true\nb 3 true\nc !1 exit 1\n");
    run_cap(&r, "PROGRESS_TTY=0 PROGRESS_SECONDS=0 scripts/sysprog.sh --jobs 2 %s/out %s", d, list);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.err, "progress: 2 of 6 programs (33.3 %), "), "%s", r.err);
    cr_assert_not_null(strstr(r.err, "progress: 5 of 6 programs (83.3 %), "), "%s", r.err);
    cr_assert_not_null(strstr(r.err, "progress: 6 of 6 programs (100.0 %), "), "%s", r.err);
    cr_assert_eq(line_count(r.err), 3, "one line an entry: %s", r.err);
    cr_assert_null(strstr(r.out, "progress:"), "progress on standard output: %s", r.out);
    cr_assert_not_null(strstr(r.out, "sysprog: 6 programs, 0 failed, 1 controls caught of 1\n"), "%s", r.out);
    cmd_out_free(&r);
}

/* scripts/jobs.sh (docs/cluster.md) counts tasks ended with the same line:
 * at most one line a task, the last one all of them. */
Test(platform_progress, jobs_prints_tasks_done_of_total, .timeout = 60)
{
    cmd_out r;
    const char *d = fresh_dir("progress_jobs");
    char list[600];
    cr_assert_not_null(d);
    snprintf(list, sizeof list, "%s/list.txt", d);
    put(list, "true\ntrue\nexit 3\n");
    run_cap(&r, "PROGRESS_TTY=0 PROGRESS_SECONDS=0 JOBS=1 scripts/jobs.sh %s %s/out", list, d);
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.err, "progress: 3 of 3 tasks (100.0 %), "), "%s", r.err);
    cr_assert_leq(line_count(r.err), 3, "more lines than tasks: %s", r.err);
    cr_assert_eq(strncmp(r.err, "progress: ", 10), 0, "%s", r.err);
    cr_assert_null(strstr(r.out, "progress:"), "progress on standard output: %s", r.out);
    cr_assert_not_null(strstr(r.out, "jobs: 3 tasks, 1 failed\n"), "%s", r.out);
    cmd_out_free(&r);
}
