/*
 * The STC port-level system with Verilated units (tb/stc/stc_vsys.h, docs/stc.md
 * "Verilated system"): staged substitution of the Verilated EMU and per-CU
 * epoch logic for their timing shells, every log checked by stc-check and
 * compared with the shells' log; broken Verilated units must be caught.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dut.h"
#include "stc_vsys.h"
#include "test_util.h"

extern const dut_ops *const stc_duts[];

static void sys(const vsys_opts *o, vsys_res *r)
{
    char err[300];
    int rc = vsys_run(o, stc_duts, r, err, sizeof err);
    cr_assert_eq(rc, 0, "vsys_run: %s", err);
}

static unsigned count(const char *s, const char *key)
{
    unsigned n = 0;
    for (; (s = strstr(s, key)) != NULL; s++)
        n++;
    return n;
}

static uint64_t r_cycles_of(const vsys_res *r) { return r->cycles; }

/* Every port of every block equal to the shells' system in every cycle. */
static void lockstep_equal(const vsys_opts *o, uint64_t cycles)
{
    char msg[300];
    uint64_t n;
    int rc = vsys_lockstep(o, stc_duts, &n, msg, sizeof msg);
    cr_assert_eq(rc, 0, "rtl %u: %s", o->rtl, msg);
    cr_assert_eq(n, cycles);
}

/* Shells, EMU RTL, CU RTL, both, on seeds 1-3: the checker passes on every
 * log, every log equals the shells' byte for byte, and the run exercises
 * blocking, draining, demands, conflicts and SEB changes. */
Test(stc_vsys, staged_fpga_pass_and_equal_logs, .timeout = 60)
{
    static const unsigned masks[] = {0, VSYS_RTL_EMU, VSYS_RTL_CU, VSYS_RTL_EMU | VSYS_RTL_CU};
    uint64_t seed;
    for (seed = 1; seed <= 3; seed++) {
        vsys_opts o;
        vsys_res ref;
        unsigned m;
        vsys_opts_default(&o);
        o.seed = seed;
        o.ops = 800;
        sys(&o, &ref);
        cr_assert_eq(ref.viol, 0, "seed %llu shells:\n%s", (unsigned long long)seed, ref.check);
        cr_assert(strstr(ref.check, "RESULT PASS") != NULL);
        cr_assert_eq(ref.timeout, 0);
        cr_assert_eq(ref.stores + ref.loads, 2 * 800u);
        cr_assert_eq(ref.issued, ref.stores, "every store issued");
        cr_assert_gt(ref.blocked, 50);
        cr_assert_eq(ref.drained, ref.blocked, "every blocked store drained");
        cr_assert_gt(ref.demands, 10);
        cr_assert_gt(ref.conflicts, 5);
        cr_assert_gt(ref.transitions, 10);
        cr_assert_gt(ref.seb_changes, 0);
        cr_assert_gt(count(ref.log, " CER "), 2 * 10);
        cr_assert_gt(count(ref.log, " RD "), 100);
        for (m = 1; m < 4; m++) {
            vsys_res r;
            o.rtl = masks[m];
            sys(&o, &r);
            cr_assert_eq(r.viol, 0, "seed %llu rtl %u:\n%s", (unsigned long long)seed, m, r.check);
            cr_assert_str_eq(r.log, ref.log, "seed %llu rtl %u: log differs from the shells'",
                             (unsigned long long)seed, m);
            vsys_res_free(&r);
            lockstep_equal(&o, r_cycles_of(&ref));
        }
        vsys_res_free(&ref);
    }
}

/* With the L1 between each CU and the L2: shells, EMU RTL, CU RTL, L1 RTL,
 * all three; the L1 rules now have events (hits, fills, invalidations). */
Test(stc_vsys, staged_l1_fpga_pass_and_equal_logs, .timeout = 60)
{
    static const unsigned masks[] = {VSYS_RTL_EMU, VSYS_RTL_CU, VSYS_RTL_L1,
                                     VSYS_RTL_EMU | VSYS_RTL_CU | VSYS_RTL_L1};
    uint64_t seed;
    for (seed = 1; seed <= 3; seed++) {
        vsys_opts o;
        vsys_res ref;
        unsigned m;
        vsys_opts_default(&o);
        o.l1 = 1;
        o.seed = seed;
        o.ops = 800;
        sys(&o, &ref);
        cr_assert_eq(ref.viol, 0, "seed %llu shells:\n%s", (unsigned long long)seed, ref.check);
        cr_assert_eq(ref.l1_errs, 0);
        cr_assert_eq(ref.issued, ref.stores);
        cr_assert_gt(ref.hits, 100);
        cr_assert_gt(ref.fills, 50);
        cr_assert_gt(ref.invs, 50);
        cr_assert_gt(ref.seb_changes, 0);
        cr_assert_eq(count(ref.log, " HIT "), ref.hits);
        cr_assert_eq(count(ref.log, " FILL "), ref.fills);
        for (m = 0; m < 4; m++) {
            vsys_res r;
            o.rtl = masks[m];
            sys(&o, &r);
            cr_assert_eq(r.viol, 0, "seed %llu rtl %u:\n%s", (unsigned long long)seed, masks[m],
                         r.check);
            cr_assert_str_eq(r.log, ref.log, "seed %llu rtl %u: log differs from the shells'",
                             (unsigned long long)seed, masks[m]);
            vsys_res_free(&r);
            lockstep_equal(&o, r_cycles_of(&ref));
        }
        vsys_res_free(&ref);
    }
}

/* The paper's configuration: 8 CUs, BSQ 256/16/2, all Verilated. */
Test(stc_vsys, default_config_all_rtl, .timeout = 60)
{
    vsys_opts o;
    vsys_res ref, r;
    vsys_opts_default(&o);
    o.preset = "default";
    o.ops = 150;
    sys(&o, &ref);
    o.rtl = VSYS_RTL_EMU | VSYS_RTL_CU;
    sys(&o, &r);
    cr_assert_eq(r.viol, 0, "%s", r.check);
    cr_assert_gt(r.transitions, 3);
    cr_assert_gt(r.blocked, 50);
    cr_assert_eq(count(r.log, " CER ") % 8, 0, "every ChangeEpoch reaches the 8 CUs");
    cr_assert_str_eq(r.log, ref.log);
    vsys_res_free(&r);
    vsys_res_free(&ref);
}

Test(stc_vsys, default_config_l1_all_rtl, .timeout = 60)
{
    vsys_opts o;
    vsys_res ref, r;
    vsys_opts_default(&o);
    o.preset = "default";
    o.l1 = 1;
    o.ops = 150;
    sys(&o, &ref);
    o.rtl = VSYS_RTL_EMU | VSYS_RTL_CU | VSYS_RTL_L1;
    sys(&o, &r);
    cr_assert_eq(r.viol, 0, "%s", r.check);
    cr_assert_gt(r.hits, 10);
    cr_assert_gt(r.fills, 10);
    cr_assert_str_eq(r.log, ref.log);
    vsys_res_free(&r);
    vsys_res_free(&ref);
}

static int with_l1;

static void broken(const char *blk, const char *port, uint64_t val, uint64_t from, unsigned rtl,
                   vsys_res *r)
{
    vsys_opts o;
    vsys_opts_default(&o);
    o.l1 = with_l1;
    o.ops = 400;
    o.max_cycles = 20000;
    o.rtl = rtl;
    o.fault_blk = blk;
    o.fault_port = port;
    o.fault_val = val;
    o.fault_from = from;
    sys(&o, r);
}

/* A Verilated CU that sends ReadyAck whenever it likes. */
Test(stc_vsys_fault, cu_ready_without_prepare_caught, .timeout = 30)
{
    vsys_res r;
    broken("cu0", "rdy_valid_o", 1, 500, VSYS_RTL_CU, &r);
    cr_assert_gt(r.viol, 0);
    cr_assert(strstr(r.check, "VIOL handshake @500 cu 0 ReadyAck without PrepareEpochChange"),
              "%s", r.check);
    cr_assert(strstr(r.check, "RESULT FAIL") != NULL);
    vsys_res_free(&r);
}

/* A Verilated EMU that broadcasts ChangeEpoch without the handshake. */
Test(stc_vsys_fault, emu_change_without_prepare_caught, .timeout = 30)
{
    vsys_res r;
    broken("emu", "chg_valid_o", 1, 500, VSYS_RTL_EMU, &r);
    cr_assert(strstr(r.check, "VIOL handshake @500 ChangeEpoch without PrepareEpochChange"),
              "%s", r.check);
    vsys_res_free(&r);
}

/* A Verilated CU whose issue port is stuck valid: stores leave outside
 * their epoch and during the handshake. (From cycle 300: from some other
 * cycles, 400 among them with the EMU's wake-up search, only the progress
 * rule fires.) */
Test(stc_vsys_fault, cu_issue_stuck_caught, .timeout = 30)
{
    vsys_res r;
    broken("cu1", "iss_valid_o", 1, 300, VSYS_RTL_EMU | VSYS_RTL_CU, &r);
    cr_assert_gt(count(r.check, "VIOL ER2 "), 0, "%s", r.check);
    cr_assert_gt(count(r.check, "VIOL handshake "), 0);
    vsys_res_free(&r);
}

/* A Verilated EMU whose ChangeEpoch payload is stuck at epoch 0: blocked
 * stores never drain (the progress rule, and the run does not finish). */
Test(stc_vsys_fault, emu_wrong_epochs_caught, .timeout = 30)
{
    vsys_res r;
    broken("emu", "chg_epochs_o", 1, 300, VSYS_RTL_EMU, &r);
    cr_assert_gt(count(r.check, "VIOL progress "), 0, "%s", r.check);
    cr_assert_eq(r.timeout, 1);
    vsys_res_free(&r);
}

/* A Verilated L1 that reports every response as installed (Data_E lines
 * of current bands kept): fills of current bands, then a CER with them. */
Test(stc_vsys_fault, l1_installs_current_band_caught, .timeout = 30)
{
    vsys_res r;
    with_l1 = 1;
    broken("l1_0", "ev_to_o", 1, 300, VSYS_RTL_L1, &r);
    with_l1 = 0;
    cr_assert_gt(count(r.check, "VIOL ER1 "), 0, "%s", r.check);
    cr_assert_gt(count(r.check, "VIOL sweep "), 0, "%s", r.check);
    vsys_res_free(&r);
}

/* A Verilated L1 that never finishes a ChangeEpoch: its CU keeps the old
 * epochs while the other moves on. */
Test(stc_vsys_fault, l1_change_never_done_caught, .timeout = 30)
{
    vsys_res r;
    with_l1 = 1;
    broken("l1_1", "chg_done_o", 0, 300, VSYS_RTL_L1, &r);
    with_l1 = 0;
    cr_assert_gt(count(r.check, "VIOL ER3 "), 0, "%s", r.check);
    cr_assert_eq(r.timeout, 1);
    vsys_res_free(&r);
}

/* A Verilated L1 whose event kind is stuck at T: its INV events read as
 * transitions, so lines it dropped are hit (the hit rule), and stale. */
Test(stc_vsys_fault, l1_event_kind_stuck_caught, .timeout = 30)
{
    vsys_res r;
    with_l1 = 1;
    broken("l1_0", "ev_kind_o", 0, 400, VSYS_RTL_L1 | VSYS_RTL_CU, &r);
    with_l1 = 0;
    cr_assert_gt(count(r.check, "VIOL hit ") + count(r.check, "VIOL stale "), 0, "%s", r.check);
    vsys_res_free(&r);
}

/* A fault no rule sees (the BLK report of CU 0 lost: the store still waits
 * in the BSQ and drains) passes the checker; the comparison with the
 * shells' log catches it. */
Test(stc_vsys_fault, blocked_flag_lost_seen_by_log_compare, .timeout = 30)
{
    vsys_opts o;
    vsys_res ref, r;
    vsys_opts_default(&o);
    o.ops = 400;
    sys(&o, &ref);
    o.rtl = VSYS_RTL_CU;
    o.fault_blk = "cu0";
    o.fault_port = "st_blocked_o";
    sys(&o, &r);
    cr_assert_eq(r.viol, 0, "%s", r.check);
    cr_assert_lt(r.blocked, ref.blocked);
    cr_assert(strcmp(r.log, ref.log) != 0);
    vsys_res_free(&r);
    vsys_res_free(&ref);
}

/* Port faults no rule and no log line sees are named by the port lockstep
 * at their first cycle: an L1's pw_o (the composition does not read it). */
Test(stc_vsys_fault, port_lockstep_names_the_port, .timeout = 30)
{
    vsys_opts o;
    char msg[300];
    uint64_t n;
    vsys_res r;
    vsys_opts_default(&o);
    o.l1 = 1;
    o.rtl = VSYS_RTL_L1;
    o.fault_blk = "l1_0";
    o.fault_port = "pw_o";
    o.fault_val = 0;
    o.fault_from = 200;
    sys(&o, &r);
    cr_assert_eq(r.viol, 0, "%s", r.check); /* the checker cannot see it */
    vsys_res_free(&r);
    cr_assert_eq(vsys_lockstep(&o, stc_duts, &n, msg, sizeof msg), 1);
    cr_assert_eq(n, 200);
    cr_assert(strstr(msg, "MISMATCH cycle 200 l1_0 port pw_o: shells' system 0x") != NULL, "%s",
              msg);
    o.l1 = 0;
    o.rtl = VSYS_RTL_CU;
    o.fault_blk = "cu1";
    o.fault_port = "st_blocked_o";
    o.fault_from = 0;
    cr_assert_eq(vsys_lockstep(&o, stc_duts, &n, msg, sizeof msg), 1);
    cr_assert(strstr(msg, "cu1 port st_blocked_o: shells' system 0x1, this one 0x0") != NULL, "%s",
              msg);
}

/* ./tb_stc --system: the staged runs and the verdict; a broken unit makes
 * it exit 1; bad options exit 2 with one line. */
Test(stc_vsys_tools, tb_stc_system, .timeout = 60)
{
    char *out;
    cr_assert_eq(run("./tb_stc --system --seed 2 > build/t_stc_vsys.out"), 0);
    out = slurp("build/t_stc_vsys.out");
    cr_assert(out != NULL);
    cr_assert_eq(count(out, "RESULT PASS"), 4, "%s", out);
    cr_assert_eq(count(out, "log = shells'"), 3, "%s", out);
    cr_assert_eq(count(out, "ports = shells' in all"), 3, "%s", out);
    cr_assert(strstr(out, "\nPASS\n") != NULL);
    free(out);
    cr_assert_eq(run("./tb_stc --system --l1 > build/t_stc_vsys_l1.out"), 0);
    out = slurp("build/t_stc_vsys_l1.out");
    cr_assert_eq(count(out, "RESULT PASS"), 5, "%s", out);
    cr_assert_eq(count(out, "log = shells'"), 4, "%s", out);
    cr_assert_eq(count(out, "ports = shells' in all"), 4, "%s", out);
    cr_assert(strstr(out, "system fpga+l1 EMU+CU+L1 RTL: l1 hits=") != NULL, "%s", out);
    free(out);
    cr_assert_eq(run("./tb_stc --system --rtl cu --fault cu0:rdy_valid_o:1@500 "
                     "--max-cycles 5000 > build/t_stc_vsys_f.out"), 1);
    out = slurp("build/t_stc_vsys_f.out");
    cr_assert(strstr(out, "RESULT FAIL") && strstr(out, "\nFAIL\n"), "%s", out);
    free(out);
    cr_assert_eq(run("./tb_stc --system --rtl all --log build/t_stc_vsys.log > /dev/null"), 0);
    cr_assert_eq(run("build/bin/cohmodel stc-check < build/t_stc_vsys.log "
                     "> build/t_stc_vsys.chk"), 0);
    out = slurp("build/t_stc_vsys.chk");
    cr_assert_str_eq(out, "RESULT PASS\n");
    free(out);
}

Test(stc_vsys_tools, bad_options)
{
    cr_assert_eq(run("./tb_stc --system --rtl foo > build/t_stc_vsys_b.out "
                     "2> build/t_stc_vsys_b.err"), 2);
    {
        char *o = slurp("build/t_stc_vsys_b.out"), *e = slurp("build/t_stc_vsys_b.err");
        cr_assert_str_eq(o, "");
        cr_assert_str_eq(e, "tb_stc: --rtl: 'foo' is not none, emu, cu, l1, all or staged\n");
        free(o), free(e);
    }
    cr_assert_eq(run("./tb_stc --system --fault cu9:rdy_valid_o:1 >/dev/null 2>&1"), 2);
    cr_assert_eq(run("./tb_stc --system --fault cu0:nope_o:1 >/dev/null 2>&1"), 2);
    cr_assert_eq(run("./tb_stc --system --ops 0 >/dev/null 2>&1"), 2);
    cr_assert_eq(run("./tb_stc --system --sys-config big >/dev/null 2>&1"), 2);
    cr_assert_eq(run("./tb_stc --system --rtl l1 >/dev/null 2>&1"), 2);
    cr_assert_eq(run("./tb_stc --system --slow-cu 1 >/dev/null 2>&1"), 2);
    cr_assert_eq(run("./tb_stc --system --slow-cu x:5 >/dev/null 2>&1"), 2);
    cr_assert_eq(run("./tb_stc --system --l1 --rtl all --l1-opt --no-poison > "
                     "build/t_stc_vsys_b.out 2> build/t_stc_vsys_b.err"), 2);
    {
        char *o = slurp("build/t_stc_vsys_b.out"), *e = slurp("build/t_stc_vsys_b.err");
        cr_assert_str_eq(o, "");
        cr_assert_str_eq(e, "tb_stc: --l1-opt: '--no-poison' needs --l1 and timing-shell L1s "
                            "(--rtl none, emu or cu)\n");
        free(o), free(e);
    }
    cr_assert_eq(run("./tb_stc --system --log /nonexistent-dir/x.log > build/t_stc_vsys_b.out "
                     "2>/dev/null"), 2);
    {
        char *o = slurp("build/t_stc_vsys_b.out");
        cr_assert_str_eq(o, "");
        free(o);
    }
    cr_assert_eq(run("./tb_stc --system --fault l1_0:ev_to_o:1 >/dev/null 2>&1"), 2);
}

/* ./tb_stc without options: every unit's lockstep bench, then the system
 * without and with the L1. */
Test(stc_vsys_tools, tb_stc_everything, .timeout = 60)
{
    char *out;
    cr_assert_eq(run("./tb_stc --cycles 20000 > build/t_stc_vsys_all.out"), 0);
    out = slurp("build/t_stc_vsys_all.out");
    cr_assert(strstr(out, "== stc-l1\n") && strstr(out, "== stc-cu\n") &&
              strstr(out, "== stc-emu\n"), "%s", out);
    cr_assert_eq(count(out, "RESULT PASS"), 4 + 5, "%s", out);
    cr_assert(strstr(out, "\nPASS\n") != NULL);
    free(out);
}

/* Specification S1 at the ports: CU 1's cacheable load of 0x3000 (band 3)
 * reads 0 at the L2; its response is 300 cycles late; meanwhile CU 0's
 * store of 0x3000 is blocked, demands band 3, drains in epoch {3} and
 * performs; a store to band 2 ends epoch 3. Without the poison bit (a
 * timing-shell L1 with --no-poison) the late response installs 0 and CU 1's
 * second load hits it: the checker's stale rule. With the committed L1
 * (poison), shells and Verilated alike, the response is Data_E and the run
 * passes. */
static const struct vsys_op s1_script[] = {
    {10, 1, 0, 0x3000}, {12, 0, 1, 0x3000}, {150, 0, 1, 0x2000}, {600, 1, 0, 0x3000},
};

static void s1_opts(vsys_opts *o)
{
    vsys_opts_default(o);
    o->l1 = 1;
    o->script = s1_script;
    o->n_script = sizeof s1_script / sizeof s1_script[0];
    o->slow_cu = 1;
    o->slow_d = 300;
}

Test(stc_vsys_s1, no_poison_hits_stale, .timeout = 30)
{
    vsys_opts o;
    vsys_res r;
    s1_opts(&o);
    o.l1_opts = "--no-poison";
    sys(&o, &r);
    cr_assert(strstr(r.check, "VIOL stale @") != NULL, "%s\n%s", r.check, r.log);
    cr_assert(strstr(r.check, "cu 1 hits 0x3000 = 0, L2 holds 1") != NULL, "%s", r.check);
    cr_assert_eq(count(r.log, " HIT 1 0x3000 0\n"), 1, "%s", r.log);
    vsys_res_free(&r);
    o.rtl = VSYS_RTL_L1; /* the Verilated L1 is the committed preset */
    {
        char err[300];
        cr_assert_eq(vsys_run(&o, stc_duts, &r, err, sizeof err), -1);
        cr_assert(strstr(err, "timing shells only") != NULL, "%s", err);
    }
}

Test(stc_vsys_s1, poison_passes_shells_and_rtl, .timeout = 30)
{
    vsys_opts o;
    vsys_res ref, r;
    char msg[300];
    uint64_t n;
    s1_opts(&o);
    sys(&o, &ref);
    cr_assert_eq(ref.viol, 0, "%s\n%s", ref.check, ref.log);
    /* the late response is not installed; the second load misses, reads 1
     * and installs that */
    cr_assert_eq(count(ref.log, " FILL 1 0x3000\n"), 1, "%s", ref.log);
    cr_assert_eq(count(ref.log, " HIT 1 0x3000 0\n"), 0, "%s", ref.log);
    cr_assert_eq(count(ref.log, " RD 1 0x3000 1\n"), 1, "the second load reads 1 at the L2:\n%s",
                 ref.log);
    o.rtl = VSYS_RTL_EMU | VSYS_RTL_CU | VSYS_RTL_L1;
    sys(&o, &r);
    cr_assert_eq(r.viol, 0, "%s", r.check);
    cr_assert_str_eq(r.log, ref.log);
    cr_assert_eq(vsys_lockstep(&o, stc_duts, &n, msg, sizeof msg), 0, "%s", msg);
    vsys_res_free(&r);
    vsys_res_free(&ref);
}
