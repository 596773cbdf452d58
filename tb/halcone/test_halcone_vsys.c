/*
 * Criterion tests of the Verilated HALCONE system (tb/halcone/halcone_vsys.c): the
 * system model with its TSUs and caches at their ports - timing shells,
 * then the committed Verilated units in lockstep with their shells - on
 * random programs (2 GPUs; 4 GPUs with two L2 banks and two TSUs) and the
 * L2-bank counterexample; every log equal to the functional model's, the
 * separate checker passing under `safe` and failing under `paper`; an
 * injected fault (a stuck output bit of a Verilated cache) caught by the
 * port comparison and, without it, by the log comparison and the checker.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "halcone_vsys.h"

extern const dut_ops *const halcone_duts[];

static halcone_sys_cmd *program(const hvsys_opts *o, unsigned ops, uint64_t seed, size_t *n)
{
    halcone_sys_cmd *c = NULL;
    char err[300];
    cr_assert_eq(hvsys_program(o, ops, 40, seed, &c, n, err, sizeof err), 0, "%s", err);
    cr_assert_gt(*n, ops / 2);
    return c;
}

/* Every stage (shells; Verilated TSU; Verilated caches; both) against the
 * functional model: equal logs; the checker's violations in *viol. */
static void staged(const hvsys_opts *base, const halcone_sys_cmd *c, size_t n, uint64_t *viol,
                   uint64_t *victims)
{
    hvsys_opts o = *base;
    hvsys_res ref, r;
    char err[300];
    unsigned st;
    o.model = 1;
    cr_assert_eq(hvsys_run(&o, halcone_duts, c, n, &ref, err, sizeof err), 0, "%s", err);
    cr_assert(!ref.failed, "%s", ref.why);
    *viol = ref.violations;
    *victims = ref.victims;
    o.model = 0;
    for (st = 0; st < 4; st++) {
        o.rtl = st;
        cr_assert_eq(hvsys_run(&o, halcone_duts, c, n, &r, err, sizeof err), 0, "%s", err);
        cr_assert(!r.failed, "rtl %u: %s", st, r.why);
        cr_assert_gt(r.cycles, 100);
        cr_assert_str_eq(r.log, ref.log, "rtl mask %u: log differs from the model's", st);
        cr_assert_eq(r.violations, ref.violations, "rtl mask %u", st);
        hvsys_res_free(&r);
    }
    hvsys_res_free(&ref);
}

Test(halcone_vsys, safe_random_programs_every_stage_equals_the_model_and_passes, .timeout = 60)
{
    static const struct {
        unsigned gpus, banks, tsus;
    } k[] = {{2, 1, 1}, {4, 2, 2}};
    unsigned i;
    for (i = 0; i < 2; i++) {
        hvsys_opts o;
        halcone_sys_cmd *c;
        size_t n;
        uint64_t viol, vict;
        hvsys_opts_default(&o);
        o.gpus = k[i].gpus;
        o.l2_banks = k[i].banks;
        o.tsus = k[i].tsus;
        o.seed = 3 + i;
        c = program(&o, 250, 7 + i, &n);
        staged(&o, c, n, &viol, &vict);
        cr_assert_eq(viol, 0, "%u GPUs: safe rules violate", k[i].gpus);
        cr_assert_gt(vict, 20, "%u GPUs: evictions %llu", k[i].gpus, (unsigned long long)vict);
        free(c);
    }
}

Test(halcone_vsys, paper_rules_fail_the_checker_with_the_rtl_too, .timeout = 60)
{
    hvsys_opts o;
    halcone_sys_cmd *c;
    size_t n;
    uint64_t viol, vict;
    hvsys_opts_default(&o);
    o.rules = "paper";
    c = program(&o, 250, 9, &n);
    staged(&o, c, n, &viol, &vict);
    cr_assert_gt(viol, 0, "paper rules passed the checker");
    free(c);
}

/* The L2-bank counterexample (H24): the committed safe RTL carries the L1's
 * cts to the bank and passes; the paper RTL does not and returns the stale
 * value, as the model does. */
Test(halcone_vsys, l2_bank_counterexample_rtl_safe_passes_paper_stale, .timeout = 30)
{
    static const char tr[] = "LD 0 0 0x0\nLD 1 0 0x40 lease=20\nST 0 0 0x40 1\n"
                             "ST 1 0 0x0 2\nLD 0 0 0x0\n";
    unsigned p;
    for (p = 0; p < 2; p++) {
        hvsys_opts o;
        halcone_sys_cfg cfg;
        halcone_sys_cmd *c = NULL;
        size_t n = 0;
        hvsys_res r, ref;
        char err[300];
        FILE *f = fmemopen((void *)tr, strlen(tr), "r");
        hvsys_opts_default(&o);
        o.rules = p ? "paper" : "safe";
        o.gpus = 2;
        o.cus = 1;
        o.l2_banks = 2;
        hvsys_cfg(&o, &cfg);
        cr_assert_eq(halcone_sys_trace_read(f, &cfg, &c, &n, err, sizeof err), 0, "%s", err);
        fclose(f);
        o.model = 1;
        cr_assert_eq(hvsys_run(&o, halcone_duts, c, n, &ref, err, sizeof err), 0, "%s", err);
        o.model = 0;
        o.rtl = HVSYS_RTL_TSU | HVSYS_RTL_CACHE;
        cr_assert_eq(hvsys_run(&o, halcone_duts, c, n, &r, err, sizeof err), 0, "%s", err);
        cr_assert(!r.failed, "%s", r.why);
        cr_assert_str_eq(r.log, ref.log);
        if (p) {
            cr_assert(strstr(r.check, "CHECK STALE 5 0x0 0 2") != NULL, "%s", r.check);
            cr_assert(strstr(r.log, "LD 0 0 0x0 0 L2 21 21 0 21 10") != NULL, "%s", r.log);
        } else {
            cr_assert_eq(r.violations, 0, "%s", r.check);
            cr_assert(strstr(r.log, "LD 0 0 0x0 2 MM 21 21 21 21 31") != NULL, "%s", r.log);
        }
        hvsys_res_free(&r);
        hvsys_res_free(&ref);
        free(c);
    }
}

/* A stuck output bit of one Verilated L2 bank: the per-cycle comparison with
 * its shell names the port; without that comparison the run's log differs
 * from the model's and the checker reports violations. */
Test(halcone_vsys, stuck_output_bit_is_caught, .timeout = 30)
{
    hvsys_opts o;
    halcone_sys_cmd *c;
    size_t n;
    hvsys_res r, ref;
    char err[300];
    hvsys_opts_default(&o);
    c = program(&o, 200, 11, &n);
    o.model = 1;
    cr_assert_eq(hvsys_run(&o, halcone_duts, c, n, &ref, err, sizeof err), 0, "%s", err);
    cr_assert_eq(ref.violations, 0);
    o.model = 0;
    o.rtl = HVSYS_RTL_CACHE;
    o.fault_unit = "l2_0";
    o.fault_port = "rsp_wts_o";
    o.fault_mask = o.fault_val = 1ull << 3;
    cr_assert_eq(hvsys_run(&o, halcone_duts, c, n, &r, err, sizeof err), 0, "%s", err);
    cr_assert(r.failed);
    cr_assert(strstr(r.why, "MISMATCH cycle") != NULL && strstr(r.why, "l2_0 port rsp_wts_o: model 0x") != NULL,
              "%s", r.why);
    hvsys_res_free(&r);
    o.fault_cmp = 0;
    cr_assert_eq(hvsys_run(&o, halcone_duts, c, n, &r, err, sizeof err), 0, "%s", err);
    cr_assert(!r.failed, "%s", r.why);
    cr_assert_str_neq(r.log, ref.log);
    cr_assert_gt(r.violations, 0, "the checker missed a stuck rsp_wts_o bit");
    hvsys_res_free(&r);
    /* the same fault on a unit the run does not use as RTL is no fault */
    o.rtl = HVSYS_RTL_TSU;
    cr_assert_eq(hvsys_run(&o, halcone_duts, c, n, &r, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(r.log, ref.log);
    hvsys_res_free(&r);
    hvsys_res_free(&ref);
    free(c);
}

Test(halcone_vsys, tb_halcone_system_option_errors_exit_2_without_output, .timeout = 30)
{
    static const char *const bad[] = {
        "--system --rtl some", "--system --rules strict", "--system --gpus 0",
        "--system --l2-banks 3", "--system --fault l2_0:nope_o:1", "--system --fault l2_7:rsp_wts_o:1",
        "--system --fault l2_0:rsp_wts_o:1 --rtl tsu", "--system --ops x", "--system --bogus 1"};
    unsigned i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[300];
        int st;
        FILE *p;
        size_t got;
        char buf[64];
        snprintf(cmd, sizeof cmd, "./tb_halcone %s 2>/dev/null", bad[i]);
        p = popen(cmd, "r");
        cr_assert_not_null(p);
        got = fread(buf, 1, sizeof buf, p);
        st = pclose(p);
        cr_assert_eq(got, 0, "%s: output before the error", bad[i]);
        cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s: exit status %d", bad[i], st);
    }
}
