/*
 * Helpers shared by the Spandex Criterion tests: the files of
 * tb/spandex/logs/, and the cycle-level system run on the shells and then
 * with Verilated blocks beside them (tb/spandex/spandex_vsys.h).
 */
#ifndef SPANDEX_TEST_H
#define SPANDEX_TEST_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "spandex_prog.h"
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

/* A stuck output bit of a Verilated block. */
typedef struct {
    const char *port;
    unsigned bit, val;
    uint64_t from; /* the cycle it sticks from */
} spandex_stuck;

/* Each stuck bit of st[0..n) in block `block` ("tuN", or NULL: the LLC) on
 * prog with the blocks of o->rtl Verilated: the port comparison names the
 * block and port; without it the run fails (the checker, the watchdog or a
 * device's check). */
static inline void spandex_test_stuck(const spvsys_opts *base, const char *block, const char *prog,
                                      const spandex_stuck *st, size_t n)
{
    spvsys_opts o = *base;
    size_t i;
    for (i = 0; i < n; i++) {
        spvsys_res r;
        char err[300], name[80];
        o.stuck_block = block;
        o.stuck_port = st[i].port;
        o.stuck_bit = st[i].bit;
        o.stuck_val = st[i].val;
        o.stuck_from = st[i].from;
        o.port_cmp = 1;
        cr_assert_eq(spvsys_run(&o, spandex_duts, prog, &r, err, sizeof err), 0, "%s", err);
        snprintf(name, sizeof name, "%s port %s", block ? block : "llc", st[i].port);
        cr_assert(r.mismatch && strstr(r.msg, name), "%s: %s", st[i].port, r.msg);
        spvsys_res_free(&r);
        o.port_cmp = 0;
        cr_assert_eq(spvsys_run(&o, spandex_duts, prog, &r, err, sizeof err), 0, "%s", err);
        cr_assert(!r.pass, "%s stuck at %u: the checker passed\n%s", st[i].port, st[i].val, r.check);
        spvsys_res_free(&r);
    }
}

/* spandex-prog's program (seed, pattern) on the devices of `kinds`
 * ("mesi,gpu": device i of the i-th kind) through spandex_test_both with the
 * LLC and the translation units Verilated; o holds the same devices. */
static inline void spandex_test_prog(const spvsys_opts *o, const char *kinds, unsigned seed, unsigned pattern)
{
    spandex_prog_cfg pc;
    char err[256], v[32], what[128], *p = NULL, list[64], *k, *save = NULL;
    unsigned d = 0;
    size_t len;
    FILE *f;
    spandex_prog_cfg_default(&pc);
    snprintf(list, sizeof list, "%s", kinds);
    for (k = strtok_r(list, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        snprintf(v, sizeof v, "%u:%s", d++, k);
        cr_assert_eq(spandex_prog_cfg_option(&pc, "dev", v, err, sizeof err), 0, "%s", err);
    }
    snprintf(v, sizeof v, "%u", seed);
    cr_assert_eq(spandex_prog_cfg_option(&pc, "seed", v, err, sizeof err), 0, "%s", err);
    pc.pattern = pattern % SPANDEX_PROG_PATTERNS;
    cr_assert_eq(spandex_prog_cfg_check(&pc, err, sizeof err), 0, "%s", err);
    f = open_memstream(&p, &len);
    cr_assert(f);
    cr_assert_eq(spandex_prog_write(&pc, f, err, sizeof err), 0, "%s", err);
    fclose(f);
    snprintf(what, sizeof what, "spandex-prog %s seed %u %s", kinds, seed, spandex_prog_pattern_name(pc.pattern));
    spandex_test_both(o, SPVSYS_RTL_LLC | SPVSYS_RTL_TU, p, what);
    free(p);
}

/* prog on the system of o (its devices, latencies and Verilated blocks):
 * it passes with the ports equal, and the time of operation `op` (a
 * "T <dev> <op#> <OP>" line of its times) from issue to completion. */
static inline uint64_t spandex_test_latency(const spvsys_opts *o, const char *prog, const char *op)
{
    spvsys_res r;
    char err[300];
    const char *t;
    unsigned long long iss, done;
    cr_assert_eq(spvsys_run(o, spandex_duts, prog, &r, err, sizeof err), 0, "%s", err);
    cr_assert(r.pass && !r.mismatch, "%s %s", r.check, r.msg);
    t = strstr(r.times, op);
    cr_assert(t, "%s not in\n%s", op, r.times);
    cr_assert_eq(sscanf(t + strlen(op), " issued %llu done %llu", &iss, &done), 2);
    spvsys_res_free(&r);
    return done - iss;
}

/* The system with every device a spandex-tu block. */
static inline void spandex_test_tu_opts(spvsys_opts *o, const char *devs)
{
    spandex_test_opts(o, devs);
    o->tu_block = 1;
}

/* Two programs of tb/spandex/logs/ (".prog" added) through
 * spandex_test_both with the Verilated LLC, then the TUs, then both. */
static inline void spandex_test_staged(const spvsys_opts *o, const char *f1, const char *f2)
{
    static const int rtl[] = {SPVSYS_RTL_LLC, SPVSYS_RTL_TU, SPVSYS_RTL_LLC | SPVSYS_RTL_TU};
    const char *const f[2] = {f1, f2};
    unsigned i, k;
    for (k = 0; k < 2; k++) {
        char name[64], *b;
        snprintf(name, sizeof name, "%s.prog", f[k]);
        b = spandex_test_file(name);
        for (i = 0; i < 3; i++)
            spandex_test_both(o, rtl[i], b, f[k]);
        free(b);
    }
}

#endif
