/*
 * Helpers shared by the Spandex Criterion tests: the files of
 * tb/spandex/logs/, and the cycle-level system run on the shells and then
 * with Verilated blocks beside them (tb/spandex/spandex_vsys.h).
 */
#ifndef SPANDEX_TEST_H
#define SPANDEX_TEST_H

#include <criterion/criterion.h>
#include <stdio.h>

#include "spandex_vsys.h"
#include "test_util.h"

extern const dut_ops *const spandex_duts[];

/* A file of tb/spandex/logs/ (malloc). Run from the repository root. */
static inline char *spandex_test_file(const char *name)
{
    char path[256], *b;
    snprintf(path, sizeof path, "tb/spandex/logs/%s", name);
    b = slurp(path);
    cr_assert_not_null(b, "cannot read %s (run from the repository root)", path);
    return b;
}

/* The system's defaults with the devices of `devs` (e.g. "gpu,denovo"). */
static inline void spandex_test_opts(spvsys_opts *o, const char *devs)
{
    char err[200];
    spvsys_opts_default(o);
    cr_assert_eq(spvsys_opts_devs(o, devs, err, sizeof err), 0, "%s", err);
}

/* prog on the shells, then with the blocks of `rtl` (SPVSYS_RTL_*)
 * Verilated beside them: both pass the checker, the ports agree every
 * cycle, the logs are equal. */
static inline void spandex_test_both(const spvsys_opts *base, int rtl, const char *prog, const char *what)
{
    spvsys_opts o = *base;
    spvsys_res ref, r;
    char err[300];
    o.rtl = 0;
    cr_assert_eq(spvsys_run(&o, NULL, prog, &ref, err, sizeof err), 0, "%s: %s", what, err);
    cr_assert(ref.pass && !ref.e_line, "%s: shells: %s\n%s", what, ref.check, ref.log);
    o.rtl = rtl;
    cr_assert_eq(spvsys_run(&o, spandex_duts, prog, &r, err, sizeof err), 0, "%s: %s", what, err);
    cr_assert(!r.mismatch, "%s: %s", what, r.msg);
    cr_assert_eq(r.cmp_cycles, r.cycles, "%s", what);
    cr_assert(r.pass, "%s: Verilated: %s", what, r.check);
    cr_assert_str_eq(r.log, ref.log, "%s: the log differs from the shells'", what);
    cr_assert_gt(r.messages, 0);
    spvsys_res_free(&r);
    spvsys_res_free(&ref);
}

#endif
