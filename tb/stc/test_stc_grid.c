/*
 * Criterion tests of scripts/sweep-grid.py (make sweep-grid, docs/hardware-cost.md
 * "Sweeps over the papers' parameters") on a tiny grid of the STC band
 * function, the smallest unit: its rows and columns in CSV, JSON and
 * Markdown, a failed configuration (Yosys made to fail on one of them) as a
 * FAIL row with its command and exit 1, and a bad grid line refused with
 * its file and line, nothing written.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

static char *file_in(const char *dir, const char *name)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return slurp(path);
}

/* line k (from 0) of s, copied into buf */
static const char *line_of(const char *s, int k, char *buf, size_t len)
{
    const char *e;
    for (; k > 0 && s; k--)
        s = (s = strchr(s, '\n')) ? s + 1 : NULL;
    cr_assert_not_null(s, "too few lines");
    e = strchr(s, '\n');
    snprintf(buf, len, "%.*s", (int)(e ? e - s : (long)strlen(s)), s);
    return buf;
}

/* a yosys that fails on the files of configuration `name`, else the real one */
static void failing_yosys(const char *dir, const char *name)
{
    char path[700], text[1200];
    cmd_out r;
    run_cap(&r, "command -v yosys");
    cr_assert_eq(r.status, 0, "no yosys");
    r.out[strcspn(r.out, "\n")] = 0;
    snprintf(path, sizeof path, "%s/bin/yosys", dir);
    snprintf(text, sizeof text,
             "#!/bin/sh\ncase \"$*\" in *%s*) echo 'injected failure' >&2; exit 1 ;; esac\nexec %s \"$@\"\n",
             name, r.out);
    cmd_out_free(&r);
    run_cap(&r, "mkdir -p %s/bin", dir);
    cmd_out_free(&r);
    put(path, text);
    run_cap(&r, "chmod +x %s", path);
    cmd_out_free(&r);
}

static void check_csv(const char *d)
{
    char *csv = file_in(d, "out/stc.csv"), l[2000];
    cr_assert_not_null(csv, "no stc.csv");
    cr_assert_eq(line_count(csv), 3, "a header and a row a configuration: %s", csv);
    cr_assert_str_eq(line_of(csv, 0, l, sizeof l),
                     "unit,name,n,seb,addr-bits,storage_bits,ffs,gates,mem_bits,rams,bram_min,lut4,bram,"
                     "fmax_mhz,lockstep,status,seconds,failed_step,command");
    line_of(csv, 1, l, sizeof l);
    cr_assert_eq(strncmp(l, "stc-band,n2_a16,2,12,16,", 24), 0, "row 1: %s", l);
    cr_assert_not_null(strstr(l, ",-,-,-,PASS,PASS,"), "row 1: no iCE40, lockstep and result PASS: %s", l);
    {
        unsigned long ffs = 0, gates = 0;
        char *p = l;
        for (int k = 0; k < 6; k++)
            p = strchr(p, ',') + 1;
        cr_assert_eq(sscanf(p, "%lu,%lu", &ffs, &gates), 2, "row 1: FFs and gates not numbers: %s", l);
        cr_assert(gates > 0, "row 1: no gates: %s", l);
    }
    line_of(csv, 2, l, sizeof l);
    cr_assert_eq(strncmp(l, "stc-band,n3_a20,3,-,20,", 23), 0, "row 2 (its default SEB as '-'): %s", l);
    cr_assert_not_null(strstr(l, ",-,-,-,-,FAIL,"), "row 2: a FAIL row, no lockstep run: %s", l);
    cr_assert_not_null(strstr(l, ",build,scripts/unit-bench.sh "), "row 2: its step and command: %s", l);
    cr_assert_not_null(strstr(l, " n3_a20 stc-band --n 3 --addr-bits 20"), "row 2: its command's arguments: %s", l);
    free(csv);
}

static void check_json_md(const char *d)
{
    char *json = file_in(d, "out/stc.json"), *md = file_in(d, "out/stc.md"), *rep = file_in(d, "out/report.md");
    cr_assert_not_null(json, "no stc.json");
    cr_assert_not_null(md, "no stc.md");
    cr_assert_not_null(rep, "no report.md");
    cr_assert_not_null(strstr(json, "\"params\": [\n  \"n\",\n  \"seb\",\n  \"addr-bits\"\n ]"), "%s", json);
    cr_assert_not_null(strstr(json, "\"name\": \"n2_a16\""), "%s", json);
    cr_assert_not_null(strstr(json, "\"status\": \"PASS\""), "%s", json);
    cr_assert_not_null(strstr(json, "\"failed_step\": \"build\""), "%s", json);
    cr_assert_not_null(strstr(md, "| unit | name | --n | --seb | --addr-bits | storage bits | FFs | gates |"), "%s", md);
    cr_assert_not_null(strstr(md, "\n| stc-band | n2_a16 | 2 | 12 | 16 | "), "%s", md);
    cr_assert_not_null(strstr(md, " | - | - | - | PASS | PASS |\n"), "%s", md);
    cr_assert_not_null(strstr(md, " | FAIL |\n"), "%s", md);
    cr_assert_not_null(strstr(md, "2 configurations, 1 failed"), "%s", md);
    cr_assert_not_null(strstr(md, "- stc-band n3_a20: build: `scripts/unit-bench.sh "), "%s", md);
    cr_assert_not_null(strstr(rep, md), "report.md does not hold stc.md: %s", rep);
    free(json);
    free(md);
    free(rep);
}

Test(stc_grid, rows_columns_and_a_failed_configuration, .timeout = 120)
{
    const char *d0 = fresh_dir("stc_grid");
    char d[512], grid[600];
    cmd_out r;
    cr_assert_not_null(d0);
    snprintf(d, sizeof d, "%s", d0);
    snprintf(grid, sizeof grid, "%s/grid.txt", d);
    put(grid, "# a tiny grid\n"
              "stc-band n2_a16  --n 2 --seb 12 --addr-bits 16\n"
              "\n"
              "stc-band n3_a20  --n 3 --addr-bits 20   # Yosys fails on it\n");
    failing_yosys(d, "n3_a20");
    run_cap(&r, "PATH=%s/bin:$PATH JOBS=2 PROGRESS_SECONDS=0 scripts/sweep-grid.py --out %s/out %s", d, d, grid);
    cr_assert_eq(r.status, 1, "exit %d, not 1 (a configuration failed): %s%s", r.status, r.out, r.err);
    cr_assert_not_null(strstr(r.out, "sweep-grid: stc: 2 configurations, 1 failed"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "sweep-grid: FAIL stc-band n3_a20 (build): scripts/unit-bench.sh "),
                       "%s", r.out);
    cr_assert_not_null(strstr(r.out, "jobs: 2 tasks, 1 failed"), "not run as a task list: %s", r.out);
    cr_assert_not_null(strstr(r.err, "progress: "), "no progress line: %s", r.err);
    cmd_out_free(&r);
    check_csv(d);
    check_json_md(d);
}

Test(stc_grid, a_bad_line_is_refused_with_its_file_and_line, .timeout = 60)
{
    static const struct {
        const char *line, *word;
    } bad[] = {
        {"stc-band n9 --n 9", "grid.txt:3: cohgen refuses '--n 9'"},
        {"stc-band", "grid.txt:3: 'stc-band': not"},
        {"stc-nonesuch n1 --n 1", "grid.txt:3: unit 'stc-nonesuch'"},
        {"stc-band n2 --n 3", "grid.txt:3: name 'n2' is already line 2's"},
        {"stc-band bad-name --n 3", "grid.txt:3: name 'bad-name'"},
        {"rec r1 --gpus 4", "grid.txt:3: unit 'rec' is not of the grid's family stc"},
        {"stc-band n3 --n 3 --name x", "grid.txt:3: option '--name'"},
    };
    const char *d0 = fresh_dir("stc_grid_bad");
    char d[512], grid[600], text[300], cmd[1400];
    cr_assert_not_null(d0);
    snprintf(d, sizeof d, "%s", d0);
    snprintf(grid, sizeof grid, "%s/grid.txt", d);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(text, sizeof text, "# grid\nstc-band n2 --n 2\n%s\nstc-band n4 --n 4\n", bad[k].line);
        put(grid, text);
        snprintf(cmd, sizeof cmd, "scripts/sweep-grid.py --out %s/out %s", d, grid);
        refused(cmd, bad[k].word);
        cr_assert(dir_empty("build/t_stc_grid_bad/out"), "a refused grid wrote its output folder (%s)", bad[k].line);
    }
    put(grid, "# only comments\n\n");
    refused(cmd, "no configuration");
    snprintf(cmd, sizeof cmd, "SCHED=pbs scripts/sweep-grid.py --out %s/out tb/stc/grid.txt", d);
    refused(cmd, "'pbs'");
    cr_assert(dir_empty("build/t_stc_grid_bad/out"), "a refused run wrote its output folder");
}
