/*
 * The FPGA self-test tops of the translation unit's kinds (tu_selftest in
 * gen/spandex/spandex_tu_gen.c, docs/fpga.md): the MESI kind's rules of its
 * own keep the unit moving for the whole run (under the rules the three
 * kinds shared, its top stopped after 15 output transfers of 131,072
 * cycles), and the GPU and DeNovo kinds keep the rules and signatures their
 * committed FPGA figures were measured with. The counts are the model's
 * (the timing shell run by cohgen --selftest); the Verilated tops' PASS
 * and FAIL are make fpga-sim.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* cohgen spandex-tu --config CFG --selftest [--selftest-seed SEED] -o DIR
 * (one DIR a test: the suites run in parallel): the JSON's signature and
 * transfer counts. */
static void tu_selftest_run(const char *dir, const char *cfg, const char *seed, unsigned *sig, unsigned long *in,
                            unsigned long *out)
{
    char cmd[512], js_path[128], *js, *p;
    snprintf(cmd, sizeof cmd,
             "rm -rf %s && build/bin/cohgen spandex-tu --config %s --name t --selftest %s%s -o %s >/dev/null", dir,
             cfg, seed ? "--selftest-seed " : "", seed ? seed : "", dir);
    cr_assert_eq(run(cmd), 0, "%s", cmd);
    snprintf(js_path, sizeof js_path, "%s/t_selftest.json", dir);
    js = slurp(js_path);
    cr_assert_not_null(js);
    cr_assert_not_null(p = strstr(js, "\"sig\":\""), "%s", js);
    *sig = (unsigned)strtoul(p + 7, NULL, 16);
    cr_assert_not_null(p = strstr(js, "\"in_xfers\":"), "%s", js);
    *in = strtoul(p + 11, NULL, 10);
    cr_assert_not_null(p = strstr(js, "\"out_xfers\":"), "%s", js);
    *out = strtoul(p + 12, NULL, 10);
    free(js);
}

/* Measured with the rules: 12,270 output transfers at the default seed and
 * 10,191 to 16,675 at seeds 1-11; the threshold is half the lowest. */
Test(spandex_tu_selftest, the_mesi_top_keeps_moving_for_the_whole_run, .timeout = 60)
{
    static const char *const seeds[] = {NULL, "1", "2", "3"};
    unsigned sig, i;
    unsigned long in, out;
    char *sv;
    for (i = 0; i < sizeof seeds / sizeof *seeds; i++) {
        tu_selftest_run("build/t_tu_st_ms", "mesi_fpga", seeds[i], &sig, &in, &out);
        cr_assert_gt(out, 5000, "seed %s: only %lu output transfers (%lu input)", seeds[i] ? seeds[i] : "default",
                     out, in);
    }
    /* the rules the top says it drives: type and mask drawn together, the
     * forward's mask by its type, probe answers of the whole line or none */
    sv = slurp("build/t_tu_st_ms/t_selftest.sv");
    cr_assert_not_null(sv);
    cr_assert(strstr(sv, "c_req_type_i: generator 1; [0+:3] pick 0,0,0,1,1,1,1,2,2,2,2,5,5,5,3,4 by "
                         "c_req_data_i[0+:4]") != NULL);
    cr_assert(strstr(sv, "c_req_mask_i: generator 1; [0+:4] pick f,f,1,f,1,6,8,1,2,4,8,f,f,0,f,f by "
                         "c_req_data_i[0+:4]") != NULL);
    cr_assert(strstr(sv, "fwd_mask_i: generator 3; [0+:4] pick 2,f,f,f,f,1,f,f by fwd_type_i[0+:3]") != NULL);
    cr_assert(strstr(sv, "c_pdat_mask_i: generator 2; [0+:4] pick f,f,f,0") != NULL);
    cr_assert(strstr(sv, "assign fr1 = d_c_req_data_i[3:0];") != NULL);
    free(sv);
    cr_assert_eq(run("rm -rf build/t_tu_st_ms"), 0);
}

/* The GPU and DeNovo tops keep their rules: the signatures of their
 * committed FPGA figures (docs/spandex.md). */
Test(spandex_tu_selftest, the_gpu_and_denovo_tops_keep_their_signatures, .timeout = 60)
{
    unsigned sig;
    unsigned long in, out;
    tu_selftest_run("build/t_tu_st_gd", "fpga", NULL, &sig, &in, &out);
    cr_assert_eq(sig, 0xa9e3326fu, "GPU coherence: %08x", sig);
    cr_assert_eq(out, 6606);
    tu_selftest_run("build/t_tu_st_gd", "denovo_fpga", NULL, &sig, &in, &out);
    cr_assert_eq(sig, 0x3613a4f3u, "DeNovo: %08x", sig);
    cr_assert_eq(out, 11446);
    cr_assert_eq(run("rm -rf build/t_tu_st_gd"), 0);
}
