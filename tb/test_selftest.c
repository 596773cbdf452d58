/*
 * cohgen --selftest (gen/selftest.c, docs/fpga.md): files, determinism,
 * rules applied, bad input. The simulation of the generated tops and their
 * place and route are in make fpga-units-sim / make fpga (too slow here);
 * make test lints the tops (make fpga-lint-units).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static unsigned sig_of(const char *json)
{
    char *t = slurp(json), *p;
    unsigned s = 0;
    cr_assert_not_null(t, "%s", json);
    p = strstr(t, "\"sig\":\"");
    cr_assert_not_null(p, "%s: no signature", json);
    s = (unsigned)strtoul(p + 7, NULL, 16);
    free(t);
    return s;
}

Test(platform_selftest, writes_the_top_its_expectation_and_the_wrong_one, .timeout = 60)
{
    char *sv, *vf, want[64];
    unsigned s1, s2, s3;
    cr_assert_eq(run("rm -rf build/t_st && build/bin/cohgen dualopt-scbu --config fpga --name "
                     "dualopt_scbu_fpga --selftest --selftest-cycles 3000 -o build/t_st/a >/dev/null"),
                 0);
    s1 = sig_of("build/t_st/a/dualopt_scbu_fpga_selftest.json");
    sv = slurp("build/t_st/a/dualopt_scbu_fpga_selftest.sv");
    vf = slurp("build/t_st/a/dualopt_scbu_fpga_selftest_wrong.vf");
    cr_assert(sv && vf);
    snprintf(want, sizeof want, "ExpSig = 32'h%08x", s1);
    cr_assert(strstr(sv, want) != NULL, "top does not carry %s", want);
    cr_assert(strstr(sv, "dualopt_scbu_fpga u_dut (") != NULL);
    snprintf(want, sizeof want, "-GExpSig=32'h%08x\n", s1 ^ 1u);
    cr_assert_str_eq(vf, want);
    free(sv);
    free(vf);
    /* deterministic; another seed or length gives another signature */
    cr_assert_eq(run("build/bin/cohgen dualopt-scbu --config fpga --name dualopt_scbu_fpga "
                     "--selftest --selftest-cycles 3000 -o build/t_st/b >/dev/null && "
                     "cmp -s build/t_st/a/dualopt_scbu_fpga_selftest.sv "
                     "build/t_st/b/dualopt_scbu_fpga_selftest.sv"),
                 0);
    cr_assert_eq(run("build/bin/cohgen dualopt-scbu --config fpga --name dualopt_scbu_fpga "
                     "--selftest --selftest-cycles 3000 --selftest-seed 7 -o build/t_st/c >/dev/null"),
                 0);
    s2 = sig_of("build/t_st/c/dualopt_scbu_fpga_selftest.json");
    cr_assert_neq(s1, s2, "seed 7 gives the signature of the default seed");
    cr_assert_eq(run("build/bin/cohgen dualopt-scbu --config fpga --name dualopt_scbu_fpga "
                     "--selftest --selftest-cycles 3001 -o build/t_st/d >/dev/null"),
                 0);
    s3 = sig_of("build/t_st/d/dualopt_scbu_fpga_selftest.json");
    cr_assert_neq(s1, s3, "one more cycle leaves the signature unchanged");
}

/* --selftest-stim: the stimulus the top generates, in the benches' --replay
 * format (the reset cycle, then one line a cycle), replayed RTL against
 * model; its first line is the reset cycle, its second the first drive */
Test(platform_selftest, writes_its_stimulus_for_the_lockstep_replay, .timeout = 60)
{
    cr_assert_eq(run("rm -rf build/t_st4 && build/bin/cohgen dualopt-scbu --config fpga --name "
                     "dualopt_scbu_fpga --selftest --selftest-cycles 3000 --selftest-stim "
                     "-o build/t_st4 >/dev/null"),
                 0);
    cr_assert_eq(run("test $(grep -c . build/t_st4/dualopt_scbu_fpga_selftest.stim) -eq 3001"), 0);
    cr_assert_eq(run("head -1 build/t_st4/dualopt_scbu_fpga_selftest.stim | grep -qx '0\\( 0\\)*' && "
                     "sed -n 2p build/t_st4/dualopt_scbu_fpga_selftest.stim | grep -q '^1 '"),
                 0, "the first line is not the reset cycle or the second not a driven one");
    cr_assert_eq(run("./tb_dualopt --unit dualopt-scbu --config dualopt_scbu_fpga --replay "
                     "build/t_st4/dualopt_scbu_fpga_selftest.stim --fail-prefix build/t_st4/fail "
                     ">build/t_st4/replay.log 2>&1 && tail -1 build/t_st4/replay.log | grep -qx PASS"),
                 0);
    /* the same run without the option writes no stimulus, with the same signature */
    cr_assert_eq(run("build/bin/cohgen dualopt-scbu --config fpga --name dualopt_scbu_fpga "
                     "--selftest --selftest-cycles 3000 -o build/t_st4/b >/dev/null && "
                     "test ! -e build/t_st4/b/dualopt_scbu_fpga_selftest.stim && "
                     "cmp -s build/t_st4/dualopt_scbu_fpga_selftest.json "
                     "build/t_st4/b/dualopt_scbu_fpga_selftest.json"),
                 0);
}

Test(platform_selftest, rules_drive_their_fields_and_the_port_names_the_rest, .timeout = 60)
{
    char *sv;
    /* MSHR: counted tags, non-zero masks (gen/dualopt/dualopt_mshr_gen.c) */
    cr_assert_eq(run("rm -rf build/t_st2 && build/bin/cohgen dualopt-mshr --config fpga --name m "
                     "--selftest --selftest-cycles 2000 -o build/t_st2 >/dev/null"),
                 0);
    sv = slurp("build/t_st2/m_selftest.sv");
    cr_assert_not_null(sv);
    cr_assert(strstr(sv, "assign d_req_tag_i = seq0_q;") != NULL);
    cr_assert(strstr(sv, "if (d_req_valid_i && d_req_ready_o) seq0_d = seq0_q + 6'd1;") != NULL);
    cr_assert(strstr(sv, "req_mask_i: generator 1; [0+:16] range 1..ffff") != NULL);
    free(sv);
    /* de-coalescer: the length follows the header's count */
    cr_assert_eq(run("build/bin/cohgen dualopt-decoal --config fpga --name d --selftest "
                     "--selftest-cycles 2000 -o build/t_st2 >/dev/null && "
                     "grep -q 'pkt_len_i: generator 1; \\[0+:16\\] linear 6 \\* pkt_data_i\\[8+:4\\] + 4' "
                     "build/t_st2/d_selftest.sv"),
                 0);
    /* REC: one rule (home strap); the channel and the free ready found by name */
    cr_assert_eq(run("build/bin/cohgen rec --config fpga --name r --selftest --selftest-cycles 2000 "
                     "-o build/t_st2 >/dev/null && grep -q '\"channels\":\\[\"req_valid_i\"\\]' "
                     "build/t_st2/r_selftest.json && "
                     "grep -q 'inv_ready_i: generator 0; \\[0+:1\\] varying probability' "
                     "build/t_st2/r_selftest.sv && grep -q 'assign d_home_i = 2.h1;' "
                     "build/t_st2/r_selftest.sv"),
                 0);
}

Test(platform_selftest, bad_input_exits_2_and_writes_nothing, .timeout = 60)
{
    static const char *const bad[] = {
        "dualopt-scbu --config fpga --selftest --selftest-cycles 0",
        "dualopt-scbu --config fpga --selftest --selftest-cycles 16777216",
        "dualopt-scbu --config fpga --selftest --selftest-seed 0",
        "dualopt-scbu --config fpga --selftest --selftest-seed x12",
        "dualopt-scbu --config fpga --selftest --selftest-seed -1",
        "dualopt-scbu --config fpga --selftest --selftest-seed",
        "dualopt-scbu --config fpga --selftest-stim",
        /* 8 entries x 4 targets + 2 > 2^5 tags: counted tags would repeat */
        "dualopt-mshr --config fpga --tag-bits 5 --selftest",
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof *bad; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf build/t_st3 && build/bin/cohgen %s -o build/t_st3 "
                                  ">build/t_st3.out 2>build/t_st3.err", bad[i]);
        cr_assert_eq(run(cmd), 2, "%s", bad[i]);
        cr_assert_eq(run("test $(wc -l <build/t_st3.err) -eq 1 && test ! -s build/t_st3.out"), 0,
                     "%s: not one line on stderr", bad[i]);
        cr_assert_eq(run("test -z \"$(ls -A build/t_st3 2>/dev/null)\""), 0, "%s: wrote files",
                     bad[i]);
    }
    cr_assert_eq(run("grep -q 'tags must stay unique' build/t_st3.err"), 0);
}
