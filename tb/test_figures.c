/* make figures' check (scripts/figures.py): the committed figures and
 * README's Results section equal a regeneration from the committed CSVs
 * under results/, a changed value or figure is named, and a malformed CSV
 * line is refused (one line naming the file and line, exit 2, nothing
 * written). The tests work on copies in build/t_fig*; no family is named:
 * the first family CSV of results/ is the one changed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define FIG "python3 scripts/figures.py"

/* A copy of results/ in dir/results; the name (no folder) of its first
 * family CSV (not a paper's) into name. */
static void copy_results(const char *dir, char *name, size_t len)
{
    cmd_out r;
    cr_assert_eq(run_cap(&r, "mkdir -p %s/results && cp results/*.csv %s/results/ && "
                             "ls results/*.csv | grep -v '/paper-' | head -1 | xargs -n1 basename",
                         dir, dir), 0, "%s", r.err);
    cr_assert_gt(strlen(r.out), 5, "no family CSV under results/");
    snprintf(name, len, "%.*s", (int)strcspn(r.out, "\n"), r.out);
    cmd_out_free(&r);
}

Test(platform_figures, check_passes_on_the_committed_data_and_names_a_changed_value, .timeout = 120)
{
    char name[256], d[256];
    const char *dir = fresh_dir("fig_value");
    cr_assert_not_null(dir);
    snprintf(d, sizeof d, "%s", dir);
    copy_results(d, name, sizeof name);
    cmd_out r;
    cr_assert_eq(run_cap(&r, FIG " --check --results %s/results", d), 0, "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.out, "equal a regeneration"), "%s", r.out);
    cmd_out_free(&r);
    /* the last field of the first data row (after the header), one more
     * digit: still a number, another value */
    cr_assert_eq(run_cap(&r, "cd %s/results && awk -F, -v OFS=, '!/^#/ && h++ == 1 { $NF = $NF \"7\" } "
                             "{ print }' %s >t && ! cmp -s t %s && mv t %s",
                         d, name, name, name), 0, "%s", r.err);
    cmd_out_free(&r);
    cr_assert_eq(run_cap(&r, FIG " --check --results %s/results", d), 1, "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.out, "README.md (Results section) differs"), "%s", r.out);
    cmd_out_free(&r);
}

Test(platform_figures, check_names_a_committed_figure_that_differs, .timeout = 120)
{
    char name[256], d[256], png[300];
    const char *dir = fresh_dir("fig_png");
    cr_assert_not_null(dir);
    snprintf(d, sizeof d, "%s", dir);
    copy_results(d, name, sizeof name);
    snprintf(png, sizeof png, "%.*s.png", (int)(strlen(name) - 4), name);
    /* the committed figures with one byte of one changed */
    cmd_out r;
    cr_assert_eq(run_cap(&r, "cp -r docs/figures %s/figures && cd %s/figures && "
                             "printf 'x' | dd of=%s bs=1 seek=200 conv=notrunc status=none && "
                             "! cmp -s %s ../../../docs/figures/%s",
                         d, d, png, png, png), 0, "%s", r.err);
    cmd_out_free(&r);
    cr_assert_eq(run_cap(&r, FIG " --check --results %s/results --figures %s/figures", d, d), 1,
                 "%s%s", r.out, r.err);
    cr_assert_not_null(strstr(r.out, png), "%s", r.out);
    cr_assert_eq(line_count(r.out), 1, "only the changed figure is named: %s", r.out);
    cmd_out_free(&r);
    /* the committed ones pass */
    cr_assert_eq(run_cap(&r, FIG " --check --results %s/results --figures docs/figures", d), 0,
                 "%s%s", r.out, r.err);
    cmd_out_free(&r);
}

Test(platform_figures, a_malformed_line_is_refused_with_its_file_and_line_and_nothing_written,
     .timeout = 120)
{
    char name[256], d[256], cmd[1024], where[300];
    const char *dir = fresh_dir("fig_bad");
    cr_assert_not_null(dir);
    snprintf(d, sizeof d, "%s", dir);
    copy_results(d, name, sizeof name);
    cmd_out r;
    cr_assert_eq(run_cap(&r, "cp README.md %s/README.md && cd %s/results && echo 'a,b' >>%s && "
                             "wc -l <%s",
                         d, d, name, name), 0, "%s", r.err);
    snprintf(where, sizeof where, "results/%s:%ld:", name, strtol(r.out, NULL, 10));
    cmd_out_free(&r);
    snprintf(cmd, sizeof cmd,
             FIG " --write --results %s/results --figures %s/out --readme %s/README.md", d, d, d);
    refused(cmd, where);
    cr_assert(dir_empty(strcat(strcpy(where, d), "/out")), "a figure was written");
    cr_assert_eq(run_cap(&r, "cmp -s README.md %s/README.md", d), 0, "README was changed");
    cmd_out_free(&r);
    /* a non-number in a numeric column (the second data row): the same refusal */
    cr_assert_eq(run_cap(&r, "cd %s/results && cp ../../../results/%s %s && "
                             "awk -F, -v OFS=, '!/^#/ && h++ == 2 { $NF = \"x\" } { print }' %s >t && "
                             "mv t %s && grep -n ',x$' %s | cut -d: -f1",
                         d, name, name, name, name, name), 0, "%s", r.err);
    snprintf(where, sizeof where, "results/%s:%ld: column", name, strtol(r.out, NULL, 10));
    cmd_out_free(&r);
    refused(cmd, where);
    cr_assert(dir_empty(strcat(strcpy(where, d), "/out")), "a figure was written");
}
