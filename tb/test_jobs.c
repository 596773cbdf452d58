/*
 * Criterion tests of scripts/jobs.sh, the task-list runner of long work
 * (docs/cluster.md), on this machine (SCHED=local); make slurm-selftest runs
 * it against a real Slurm.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

/* A fresh folder build/t_<name> with the task list `tasks` in list.txt. */
static const char *task_list(const char *name, const char *tasks)
{
    static char dir[512];
    char path[600];
    const char *d = fresh_dir(name);
    cr_assert_not_null(d);
    snprintf(dir, sizeof dir, "%s", d);
    snprintf(path, sizeof path, "%s/list.txt", dir);
    put(path, tasks);
    return dir;
}

static char *file_in(const char *dir, const char *name)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return slurp(path);
}

Test(platform_jobs, a_failed_task_is_reported_with_its_command, .timeout = 60)
{
    const char *d = task_list("jobs_fail", "echo first\necho on-err >&2; exit 3\nfalse | true\necho last\n");
    cmd_out r;
    char *rep, *s;
    run_cap(&r, "JOBS=2 scripts/jobs.sh %s/list.txt %s/out", d, d);
    cr_assert_eq(r.status, 1, "exit %d, not 1 (two tasks fail): %s%s", r.status, r.out, r.err);
    cr_assert_not_null(strstr(r.out, "jobs: 4 tasks, 2 failed\n"), "no summary: %s", r.out);
    cr_assert_not_null(strstr(r.out, "jobs: task 2 failed (exit 3): echo on-err >&2; exit 3\n"),
                       "task 2 not named with its command: %s", r.out);
    cr_assert_not_null(strstr(r.out, "jobs: task 3 failed (exit 1): false | true\n"),
                       "a failed stage of a pipeline fails its task: %s", r.out);
    cr_assert_null(strstr(r.out, "task 1 failed"), "%s", r.out);
    cr_assert_null(strstr(r.out, "task 4 failed"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "    on-err\n"), "the failed task's standard error is not shown: %s", r.out);
    /* each task's outputs and status; the report file is the printed report */
    s = file_in(d, "out/task-1.out");
    cr_assert_str_eq(s ? s : "", "first\n");
    free(s);
    s = file_in(d, "out/task-2.err");
    cr_assert_str_eq(s ? s : "", "on-err\n");
    free(s);
    s = file_in(d, "out/task-2.rc");
    cr_assert_str_eq(s ? s : "", "3\n");
    free(s);
    s = file_in(d, "out/task-4.rc");
    cr_assert_str_eq(s ? s : "", "0\n");
    free(s);
    rep = file_in(d, "out/report.txt");
    cr_assert_not_null(rep);
    cr_assert_eq(strncmp(r.out, rep, strlen(rep)), 0, "report.txt is not what was printed: %s", rep);
    cr_assert_eq(line_count(rep), 3, "report.txt: %s", rep);
    free(rep);
    cmd_out_free(&r);
}

Test(platform_jobs, every_task_passing_exits_0_and_old_results_go, .timeout = 60)
{
    const char *d = task_list("jobs_pass", "true\necho 2\n");
    cmd_out r;
    char path[600];
    snprintf(path, sizeof path, "%s/out/task-9.rc", d);
    run_cap(&r, "mkdir -p %s/out", d);
    cmd_out_free(&r);
    put(path, "1\n");
    run_cap(&r, "scripts/jobs.sh %s/list.txt %s/out", d, d);
    cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert_str_eq(r.out, "jobs: 2 tasks, 0 failed\n");
    cr_assert_eq(access(path, F_OK), -1, "a result of an earlier run is left: %s", path);
    cmd_out_free(&r);
}

Test(platform_jobs, bad_input_is_refused_in_one_line, .timeout = 60)
{
    const char *d = task_list("jobs_bad", "true\n");
    char cmd[800], path[600];
    snprintf(cmd, sizeof cmd, "SCHED=pbs scripts/jobs.sh %s/list.txt %s/out", d, d);
    refused(cmd, "'pbs'");
    snprintf(cmd, sizeof cmd, "JOBS=zero scripts/jobs.sh %s/list.txt %s/out", d, d);
    refused(cmd, "'zero'");
    snprintf(cmd, sizeof cmd, "scripts/jobs.sh %s/nonesuch.txt %s/out", d, d);
    refused(cmd, "nonesuch.txt");
    snprintf(path, sizeof path, "%s/empty.txt", d);
    put(path, "");
    snprintf(cmd, sizeof cmd, "scripts/jobs.sh %s %s/out", path, d);
    refused(cmd, "empty");
    snprintf(path, sizeof path, "%s/blank.txt", d);
    put(path, "true\n\ntrue\n");
    snprintf(cmd, sizeof cmd, "scripts/jobs.sh %s %s/out", path, d);
    refused(cmd, "line 2");
    snprintf(cmd, sizeof cmd, "scripts/jobs.sh %s/list.txt", d);
    refused(cmd, "usage");
    cr_assert(dir_empty("build/t_jobs_bad/out"), "a refused list ran a task");
    /* the long work that hands its tasks to jobs.sh refuses a bad SCHED too */
    refused("SCHED=pbs scripts/mutate.py --all", "'pbs'");
    refused("SCHED=pbs scripts/regress.sh", "'pbs'");
    refused("scripts/mutate.py --unit x --config y --part 3/2", "'3/2'");
}
