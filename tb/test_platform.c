/*
 * Criterion tests of the platform: the unit registry (cmodel/unit.h), the
 * lockstep engine (tb/lockstep.h) and the registry-driven tools.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "test_util.h"
#include "unit.h"

extern const dut_ops *const rec_duts[];
extern const dut_ops *const stc_duts[];


Test(platform_registry, every_unit_is_complete_and_consistent)
{
    size_t i, k, j;
    cr_assert_not_null(cohkit_unit_registry[0], "no unit registered");
    for (i = 0; cohkit_unit_registry[i]; i++) {
        const cohkit_unit_desc *u = cohkit_unit_registry[i];
        size_t fl = strlen(u->family);
        cr_assert(strcmp(u->name, u->family) == 0 ||
                      (strncmp(u->name, u->family, fl) == 0 && u->name[fl] == '-'),
                  "%s: unit names are <family> or <family>-<unit>", u->name);
        cr_assert_eq(cohkit_unit_find(u->name), u);
        cr_assert(u->cfg_preset && u->cfg_option && u->cfg_check && u->cfg_name && u->cfg_args &&
                      u->ports && u->tm_new && u->tm_free && u->tm_reset && u->tm_eval &&
                      u->tm_step && u->stim_new && u->stim_free && u->stim_drive &&
                      u->stim_observe && u->stim_done && u->stim_limit && u->trace_run,
                  "%s: a registry function is missing", u->name);
        cr_assert_not_null(u->presets[0], "%s has no configuration", u->name);
        cr_assert_not_null(u->streams[0], "%s has no random stream", u->name);
        for (k = 0; u->committed[k]; k++) {
            for (j = 0; u->presets[j] && strcmp(u->presets[j], u->committed[k]); j++)
                ;
            cr_assert_not_null(u->presets[j], "%s: committed '%s' is not a preset", u->name,
                               u->committed[k]);
        }
        for (j = 0; j < i; j++)
            cr_assert_str_neq(cohkit_unit_registry[j]->name, u->name, "unit %s registered twice", u->name);
    }
    cr_assert_null(cohkit_unit_find("no-such-unit"));
}

Test(platform_registry, every_preset_validates_and_round_trips_through_its_args)
{
    size_t i, k;
    for (i = 0; cohkit_unit_registry[i]; i++) {
        const cohkit_unit_desc *u = cohkit_unit_registry[i];
        for (k = 0; u->presets[k]; k++) {
            void *a = calloc(1, u->cfg_size), *b = calloc(1, u->cfg_size);
            char err[300], args[1024], n1[192], n2[192];
            const char *argv[2] = {"--config", u->presets[k]};
            cohkit_unit_layout l;
            cr_assert_eq(cohkit_unit_cfg_parse(u, a, 2, (char *const *)argv, NULL, NULL, err, sizeof err),
                         0, "%s %s: %s", u->name, u->presets[k], err);
            u->cfg_args(a, args, sizeof args);
            cr_assert_eq(cohkit_unit_cfg_parse_str(u, b, args, err, sizeof err), 0, "%s: %s", args, err);
            u->cfg_name(a, n1, sizeof n1);
            u->cfg_name(b, n2, sizeof n2);
            cr_assert_str_eq(n1, n2, "%s %s: its args give another configuration", u->name,
                             u->presets[k]);
            cr_assert_eq(cohkit_unit_layout_of(u, a, &l, err, sizeof err), 0, "%s", err);
            cr_assert_geq(l.n_in, 2);
            cr_assert_geq(l.n_out, 1);
            free(a);
            free(b);
        }
    }
}

Test(platform_registry, option_parser_reports_the_offending_word)
{
    const cohkit_unit_desc *u = cohkit_unit_find("rec");
    void *c = calloc(1, u->cfg_size);
    char err[300];
    const char *a1[] = {"--config", "nonesuch"};
    const char *a2[] = {"--gpus", "4", "--bogus", "1"};
    const char *a3[] = {"--gpus"};
    const char *a4[] = {"--gpus", "99"};
    /* --config comes first wherever it is, options refine it */
    const char *a5[] = {"--ways", "2", "--config", "fpga"};
    void *r = calloc(1, u->cfg_size), *p = calloc(1, u->cfg_size);
    char n1[192], n2[192];
    cr_assert_eq(cohkit_unit_cfg_parse(u, c, 2, (char *const *)a1, NULL, NULL, err, sizeof err), -1);
    cr_assert(strstr(err, "nonesuch") && strstr(err, "fpga"), "%s", err);
    cr_assert_eq(cohkit_unit_cfg_parse(u, c, 4, (char *const *)a2, NULL, NULL, err, sizeof err), -1);
    cr_assert(strstr(err, "--bogus") != NULL, "%s", err);
    cr_assert_eq(cohkit_unit_cfg_parse(u, c, 1, (char *const *)a3, NULL, NULL, err, sizeof err), -1);
    cr_assert(strstr(err, "--gpus") != NULL, "%s", err);
    cr_assert_eq(cohkit_unit_cfg_parse(u, c, 2, (char *const *)a4, NULL, NULL, err, sizeof err), -1);
    cr_assert(strstr(err, "99") != NULL, "%s", err);
    cr_assert_eq(cohkit_unit_cfg_parse(u, r, 4, (char *const *)a5, NULL, NULL, err, sizeof err), 0, "%s", err);
    cr_assert_eq(cohkit_unit_cfg_parse_str(u, p, "--config fpga --ways 2", err, sizeof err), 0, "%s", err);
    u->cfg_name(r, n1, sizeof n1);
    u->cfg_name(p, n2, sizeof n2);
    cr_assert_str_eq(n1, n2);
    cr_assert(strstr(n1, "_w2_") != NULL, "%s", n1);
    free(c);
    free(r);
    free(p);
}

Test(platform_hex, wide_values_round_trip_and_bad_ones_are_rejected)
{
    uint64_t w[3] = {0x0123456789abcdefull, 0xfedcba9876543210ull, 0x3ull}, r[3];
    char buf[128];
    const char *p;
    FILE *f = fmemopen(buf, sizeof buf, "w");
    cohkit_unit_hex_put(f, w, 3);
    fputc(0, f);
    fclose(f);
    cr_assert_str_eq(buf, "3fedcba98765432100123456789abcdef");
    p = buf;
    cr_assert_eq(cohkit_unit_hex_get(&p, r, 3, 130), 0);
    cr_assert_eq(memcmp(w, r, sizeof w), 0);
    cr_assert_eq(*p, '\0');
    p = buf; /* 130 bits do not fit in 129 */
    cr_assert_eq(cohkit_unit_hex_get(&p, r, 3, 129), -1);
    p = "00000000000000000000000000000000005"; /* leading zeros are not width */
    cr_assert_eq(cohkit_unit_hex_get(&p, r, 1, 3), 0);
    cr_assert_eq(r[0], 5);
    p = "zz";
    cr_assert_eq(cohkit_unit_hex_get(&p, r, 1, 8), -1);
    memset(w, 0, sizeof w);
    f = fmemopen(buf, sizeof buf, "w");
    cohkit_unit_hex_put(f, w, 3);
    fputc(0, f);
    fclose(f);
    cr_assert_str_eq(buf, "0");
}

Test(platform_engine, a_dut_whose_ports_differ_from_the_table_is_refused)
{
    const cohkit_unit_desc *u = cohkit_unit_find("rec");
    const dut_ops *d = ls_dut_find(rec_duts, u, "fpga");
    dut_ops bad;
    unsigned w[8];
    void *c = calloc(1, u->cfg_size);
    char err[300];
    cr_assert_not_null(d);
    cr_assert_eq(ls_dut_cfg(u, d, c, err, sizeof err), 0, "%s", err);
    bad = *d;
    memcpy(w, d->out_widths, d->n_out * sizeof *w);
    w[3] = 3; /* inv_mask_o narrower than the table */
    bad.out_widths = w;
    cr_assert_eq(ls_dut_cfg(u, &bad, c, err, sizeof err), -1);
    cr_assert(strstr(err, "inv_mask_o") != NULL, "%s", err);
    bad = *d;
    bad.args = "--config fpga --gpus 8";
    cr_assert_eq(ls_dut_cfg(u, &bad, c, err, sizeof err), -1, "a configuration with other widths");
    free(c);
}

Test(platform_engine, first_mismatch_is_reported_with_a_replayable_stimulus, .timeout = 60)
{
    /* the bench of one configuration, with the generated shim's output
     * inverted on one port: the engine must stop at the first cycle and the
     * recorded stimulus must replay the same mismatch */
    char *o;
    cr_assert_eq(run("rm -rf build/t_mm && mkdir -p build/t_mm/src && "
                    "build/bin/cohgen rec --config fpga --entries 64 --name rec_mm -o build/t_mm/src && "
                    "sed -i 's/out\\[1\\] = static_cast<uint64_t>(x->top->inv_valid_o);/"
                    "out[1] = static_cast<uint64_t>(x->top->inv_valid_o) ^ (x->t > 4000);/' "
                    "build/t_mm/src/rec_mm_shim.cpp && grep -q 'x->t > 4000' build/t_mm/src/rec_mm_shim.cpp && "
                    "scripts/unit-bench.sh --rtl-from build/t_mm/src build/t_mm mm rec >build/t_mm/build.log 2>&1"),
                 0, "bench build failed (build/t_mm/build.log)");
    cr_assert_eq(run("cd build/t_mm && mm/tb_rec --config mm --cycles 20000 --seed 3 >run.log"), 1);
    o = slurp("build/t_mm/run.log");
    cr_assert_not_null(o);
    cr_assert(strstr(o, "MISMATCH cycle 2001 port inv_valid_o") != NULL, "%s", o);
    cr_assert(strstr(o, "(seed 3)") != NULL, "%s", o);
    free(o);
    cr_assert_eq(run("test -s build/t_mm/tb_rec_fail.stim && test -s build/t_mm/tb_rec_fail.vcd"), 0);
    cr_assert_eq(run("cd build/t_mm && mm/tb_rec --config mm --replay tb_rec_fail.stim >replay.log"), 1);
    o = slurp("build/t_mm/replay.log");
    cr_assert(o && strstr(o, "MISMATCH cycle 2001 port inv_valid_o"), "%s", o ? o : "");
    free(o);
}

Test(platform_tools, list_names_every_unit_and_committed_configuration)
{
    char *t;
    size_t i, k;
    cr_assert_eq(run("build/bin/cohgen --list=units >build/t_units.txt && "
                    "build/bin/cohgen --list=configs >build/t_configs.txt"), 0);
    t = slurp("build/t_units.txt");
    cr_assert_not_null(t);
    for (i = 0; cohkit_unit_registry[i]; i++) {
        char line[256];
        const cohkit_unit_desc *u = cohkit_unit_registry[i];
        snprintf(line, sizeof line, "%s %s %s\n", u->name, u->family, u->module_prefix);
        cr_assert(strstr(t, line) != NULL, "missing: %s", line);
    }
    free(t);
    t = slurp("build/t_configs.txt");
    for (i = 0; cohkit_unit_registry[i]; i++)
        for (k = 0; cohkit_unit_registry[i]->committed[k]; k++) {
            char line[256], path[256];
            const cohkit_unit_desc *u = cohkit_unit_registry[i];
            snprintf(line, sizeof line, "%s %s %s_%s %s\n", u->name, u->family, u->module_prefix,
                     u->committed[k], u->committed[k]);
            cr_assert(strstr(t, line) != NULL, "missing: %s", line);
            snprintf(path, sizeof path, "test -f rtl/%s/%s_%s.sv", u->family, u->module_prefix,
                     u->committed[k]);
            cr_assert_eq(run(path), 0, "%s", path);
        }
    free(t);
    gen_refuses("nonesuch", "", "nonesuch");
    model_refuses("nonesuch", "", "", "nonesuch");
}

Test(platform_tools, harness_is_written_where_harness_says)
{
    /* -o alone: the module and its harness; --harness: the harness there
     * (alone: nothing else), the same text either way; rtl/ commits modules */
    cr_assert_eq(run("rm -rf build/t_hn && G='build/bin/cohgen rec --config fpga --name m' && "
                     "$G -o build/t_hn/all && $G -o build/t_hn/mod --harness build/t_hn/h && "
                     "$G --harness build/t_hn/only"),
                 0);
    cr_assert_eq(run("cd build/t_hn && [ \"$(ls mod)\" = m.sv ] && "
                     "[ \"$(ls only | tr '\\n' ' ')\" = 'm_ports.h m_shim.cpp m_tb.sv ' ] && "
                     "diff -r h only && cmp mod/m.sv all/m.sv && "
                     "for f in h/*; do cmp $f all/${f#h/} || exit 1; done"),
                 0);
    cr_assert_eq(run("build/bin/cohgen rec --harness /proc/none 2>build/t_hn/err"), 2);
    cr_assert_eq(run("grep -qx \"cohgen: --harness: cannot create directory '/proc/none'\" "
                     "build/t_hn/err"),
                 0);
    cr_assert_eq(run("git ls-files rtl 2>/dev/null | grep -v '\\.sv$' | grep -q ."), 1,
                 "a harness file is committed under rtl/");
}

Test(platform_tools, family_bench_options_behave_the_same, .timeout = 60)
{
    cr_assert_eq(run("./tb_rec --unit rec --config fpga --cycles 3000 --seed 2 | tail -1 | grep -q '^PASS'"), 0);
    /* bad values and unknown options of every unit: registry/bad_input */
    refused("./tb_rec --unit nonesuch", "nonesuch");
    refused("./tb_rec --seed", "--seed");
    refused("./tb_rec --replay /nonexistent", "/nonexistent");
    put("build/t_short.stim", "1 0\n");
    refused("./tb_rec --replay build/t_short.stim", "line 1");
    cr_assert_eq(run("./tb_rec --config fpga --cycles 2000 --rtl-only | grep -q 'RTL alone'"), 0);
}

/* scripts/mutate.py (docs/mutation.md): the same text and seed give the same
 * mutants, a smaller count is a prefix of a larger one, every operator is
 * drawn, nothing is mutated in the port list or the FORMAL block, and
 * --apply changes the text of the mutant's line only. */
Test(platform_tools, mutation_selection_is_deterministic_and_stays_out_of_ports_and_formal,
     .timeout = 60)
{
    const char *f = "rtl/rec/rec_fpga.sv", *d = "build/t_mutate";
    char cmd[1024];
    cr_assert_eq(run("rm -rf build/t_mutate && mkdir -p build/t_mutate"), 0);
    snprintf(cmd, sizeof cmd,
             "scripts/mutate.py --file %s --list --count 60 --seed 7 >%s/a && "
             "scripts/mutate.py --file %s --list --count 60 --seed 7 >%s/b && "
             "scripts/mutate.py --file %s --list --count 12 --seed 7 >%s/c && "
             "scripts/mutate.py --file %s --list --count 60 --seed 8 >%s/d && "
             "scripts/mutate.py --file %s --list >%s/all",
             f, d, f, d, f, d, f, d, f, d);
    cr_assert_eq(run(cmd), 0);
    cr_assert_eq(run("cmp -s build/t_mutate/a build/t_mutate/b"), 0, "same seed, other mutants");
    cr_assert_eq(run("head -12 build/t_mutate/a | cmp -s - build/t_mutate/c"), 0,
                 "12 mutants are not the first 12 of 60");
    cr_assert_neq(run("cmp -s build/t_mutate/a build/t_mutate/d"), 0, "the seed changes nothing");
    cr_assert_eq(run("test $(wc -l <build/t_mutate/a) -eq 60"), 0);
    cr_assert_eq(run("test $(cut -f1 build/t_mutate/a | cut -d- -f1 | sort -u | wc -l) -eq 9"), 0,
                 "not every operator is drawn");
    /* candidate lines against the port list and the FORMAL block */
    snprintf(cmd, sizeof cmd,
             "p=$(grep -n '^);' %s | head -1 | cut -d: -f1); "
             "a=$(grep -n 'ifdef FORMAL' %s | cut -d: -f1); b=$(grep -n 'endif' %s | tail -1 | cut -d: -f1); "
             "[ -n \"$p\" ] && [ -n \"$a\" ] && [ -n \"$b\" ] && "
             "cut -f1 %s/all | awk -F- -v p=$p -v a=$a -v b=$b "
             "'$2 <= p || ($2 >= a && $2 <= b) {bad=1} END {exit bad}'",
             f, f, f, d);
    cr_assert_eq(run(cmd), 0, "a mutant in the port list or the FORMAL block");
    /* --apply: only the mutant's line differs (and the closing note) */
    snprintf(cmd, sizeof cmd,
             "id=$(sed -n 5p %s/a | cut -f1); ln=$(echo $id | cut -d- -f2); "
             "scripts/mutate.py --file %s --apply $id --out %s/apply >/dev/null && "
             "diff %s %s/apply/rec_fpga.sv | grep -c '^[0-9]' | grep -qx 2 && "
             "diff %s %s/apply/rec_fpga.sv | grep -q \"^${ln}c${ln}$\" && "
             "test -f %s/apply/rec_fpga_shim.cpp",
             d, f, d, f, d, f, d, d);
    cr_assert_eq(run(cmd), 0, "--apply changed more than the mutant's line");
    /* bad input: one line, exit 2, nothing written */
    cr_assert_eq(run("printf 'module m(input wire a, output wire b);\\n  task t;\\n  endtask\\n"
                     "endmodule\\n' >build/t_mutate/bad.sv"),
                 0);
    cr_assert_eq(run("scripts/mutate.py --file build/t_mutate/bad.sv --apply swap-1-1-0 --out "
                     "build/t_mutate/none 2>build/t_mutate/err"),
                 2);
    cr_assert_eq(run("test $(wc -l <build/t_mutate/err) -eq 1 && grep -q 'line 2' build/t_mutate/err && "
                     "test ! -e build/t_mutate/none"),
                 0);
}

/* Transfers are counted per lane: the STC EMU's per-CU channels (a valid
 * bit and a ready bit per CU) can move several ReadyAcks or DoneAcks in one
 * cycle. The count is recomputed here from the engine's stimulus and
 * output log, independently of its counter. */
Test(platform_engine, vector_channels_count_every_lane, .timeout = 60)
{
    const cohkit_unit_desc *u = cohkit_unit_find("stc-emu");
    const dut_ops *d = ls_dut_find(stc_duts, u, "fpga");
    void *c = calloc(1, u->cfg_size);
    char err[300], *sb = NULL, *lb = NULL, *line = NULL;
    size_t sl = 0, ll = 0, cap = 0;
    ls_opts o;
    ls_result r;
    uint64_t expect[LS_CHAN_MAX] = {0}, multi = 0, *ins = NULL;
    unsigned k, n_in_words = 0, ncyc = 0;
    FILE *sf, *lf;
    cr_assert_not_null(d);
    cr_assert_eq(ls_dut_cfg(u, d, c, err, sizeof err), 0, "%s", err);
    sf = open_memstream(&sb, &sl);
    lf = open_memstream(&lb, &ll);
    memset(&o, 0, sizeof o);
    memset(&r, 0, sizeof r);
    o.unit = u;
    o.cfg = c;
    o.dut = d;
    o.seed = 3;
    o.cycles = 20000;
    o.stim_out = sf;
    o.log_out = lf;
    cr_assert_eq(ls_run(&o, &r, ""), 0, "%s", r.mm_msg);
    fclose(sf);
    fclose(lf);
    cr_assert_eq(r.mismatch, 0, "%s", r.mm_msg);
    for (k = 0; k < d->n_in; k++)
        n_in_words += (d->in_widths[k] + 63) / 64;
    /* inputs of every cycle, reset cycles included */
    sf = fmemopen(sb, sl, "r");
    while (getline(&line, &cap, sf) > 0) {
        const char *p = line;
        if (line[0] == '#')
            continue; /* the header naming the ports */
        ins = realloc(ins, (size_t)(ncyc + 1) * n_in_words * sizeof *ins);
        for (k = 0; k < d->n_in; k++) {
            unsigned nw = (d->in_widths[k] + 63) / 64, off = 0, j;
            for (j = 0; j < k; j++)
                off += (d->in_widths[j] + 63) / 64;
            cr_assert_eq(cohkit_unit_hex_get(&p, ins + (size_t)ncyc * n_in_words + off, nw, d->in_widths[k]), 0);
        }
        ncyc++;
    }
    fclose(sf);
    lf = fmemopen(lb, ll, "r");
    while (getline(&line, &cap, lf) > 0) {
        char *p = line;
        unsigned long long cyc = strtoull(p, &p, 10);
        uint64_t outv[64];
        cr_assert_lt(cyc, ncyc);
        cr_assert_leq(d->n_out, 64u);
        for (k = 0; k < d->n_out; k++) {
            const char *q = p;
            cr_assert_leq(d->out_widths[k], 64u);
            cr_assert_eq(cohkit_unit_hex_get(&q, &outv[k], 1, d->out_widths[k]), 0);
            p = (char *)q;
        }
        for (k = 0; k < r.nchan; k++) {
            /* <name>_valid_i with <name>_ready_o into the unit, or
             * <name>_valid_o with <name>_ready_i out of it */
            char vn[64], rn[64];
            unsigned vw = 0, rw = 0, j, off;
            int dir;
            uint64_t v = 0, rd = 0;
            for (dir = 0; dir < 2; dir++) {
                unsigned vi, ri;
                const uint64_t *inc = ins + (size_t)cyc * n_in_words;
                snprintf(vn, sizeof vn, "%s_valid_%s", r.chan_name[k], dir ? "o" : "i");
                snprintf(rn, sizeof rn, "%s_ready_%s", r.chan_name[k], dir ? "i" : "o");
                for (vi = 0; vi < (dir ? d->n_out : d->n_in) && strcmp(dir ? d->out_names[vi] : d->in_names[vi], vn); vi++)
                    ;
                for (ri = 0; ri < (dir ? d->n_in : d->n_out) && strcmp(dir ? d->in_names[ri] : d->out_names[ri], rn); ri++)
                    ;
                if (vi == (dir ? d->n_out : d->n_in) || ri == (dir ? d->n_in : d->n_out))
                    continue;
                if (dir) {
                    for (j = 0, off = 0; j < ri; j++)
                        off += (d->in_widths[j] + 63) / 64;
                    v = outv[vi];
                    rd = inc[off];
                    vw = d->out_widths[vi];
                    rw = d->in_widths[ri];
                } else {
                    for (j = 0, off = 0; j < vi; j++)
                        off += (d->in_widths[j] + 63) / 64;
                    v = inc[off];
                    rd = outv[ri];
                    vw = d->in_widths[vi];
                    rw = d->out_widths[ri];
                }
            }
            cr_assert_gt(vw, 0u, "channel %s not found by name", r.chan_name[k]);
            rd = rw == vw ? rd : (rd & 1) ? ~(uint64_t)0 : 0;
            expect[k] += (uint64_t)__builtin_popcountll(v & rd);
            multi += __builtin_popcountll(v & rd) > 1;
        }
    }
    fclose(lf);
    for (k = 0; k < r.nchan; k++)
        cr_assert_eq(r.chan_xfers[k], expect[k], "%s: %llu counted, %llu in the log", r.chan_name[k],
                         (unsigned long long)r.chan_xfers[k], (unsigned long long)expect[k]);
    cr_assert_gt(multi, 10, "cycles with several lanes transferring: %llu", (unsigned long long)multi);
    free(ins);
    free(line);
    free(sb);
    free(lb);
    free(r.summary);
    free(c);
}

/* scripts/formal.sh --sample (make formal in make test): only the controls
 * marked '+' run, so every configuration with controls needs one marked; a
 * list without one is refused before anything runs. */
Test(platform_tools, formal_sample_needs_a_marked_control_a_configuration)
{
    cr_assert_eq(run("rm -rf build/t_fs && mkdir -p build/t_fs"), 0);
    put("build/t_fs/list.txt", "rec r_a induct 1 --gpus 3\nrec r_b induct 1 --gpus 4\n");
    put("build/t_fs/ctl.txt", "# a comment\n+r_a iface 4 s/a/b/\nr_b iface 4 s/a/b/\n");
    refused("scripts/formal.sh --sample build/t_fs/list.txt build/t_fs/out build/t_fs/ctl.txt",
            "'r_b' has no control in the sample");
    put("build/t_fs/ctl2.txt", "+r_c iface 4 s/a/b/\n");
    refused("scripts/formal.sh --sample build/t_fs/list.txt build/t_fs/out build/t_fs/ctl2.txt",
            "ctl2.txt:1: configuration 'r_c'");
    /* the committed controls meet the rule: every configuration has one */
    cr_assert_eq(run("for c in $(grep -v '^\\s*\\(#\\|$\\)' tb/formal-controls.txt | "
                     "sed 's/^+//' | awk '{print $1}' | sort -u); do "
                     "grep -q \"^+$c \" tb/formal-controls.txt || exit 1; done"),
                 0, "a configuration of tb/formal-controls.txt has no '+' control");
}

/* The progress line of long lockstep runs (README: runs of more than 10 M
 * cycles): done of total, percentage, elapsed, time left at the rate so far;
 * a plain line in logs, one updating line on a terminal. */
Test(platform_engine, progress_line_gives_done_total_elapsed_and_time_left)
{
    char b[200];
    ls_progress_line(b, sizeof b, 5000000, 20000000, 2.0, 0);
    cr_assert_str_eq(b, "progress: 5000000 of 20000000 cycles (25.0 %), 2 s elapsed, about 6 s left\n");
    ls_progress_line(b, sizeof b, 15000000, 20000000, 30.0, 1);
    cr_assert_str_eq(b, "\rprogress: 15000000 of 20000000 cycles (75.0 %), 30 s elapsed, about 10 s left\033[K");
    ls_progress_line(b, sizeof b, 20000000, 20000000, 41.0, 0);
    cr_assert_str_eq(b, "progress: 20000000 of 20000000 cycles (100.0 %), 41 s elapsed, about 0 s left\n");
}

/* scripts/sysprog.sh (make sysprog, docs/verification.md "Long random
 * runs"): a failing program is named with the command that reproduces it,
 * a control nothing catches fails the run, a malformed list is refused
 * before anything runs. */
Test(platform_tools, sysprog_reports_failures_with_their_command_and_uncaught_controls)
{
    cmd_out r;
    cr_assert_eq(run("rm -rf build/t_sp && mkdir -p build/t_sp"), 0);
    put("build/t_sp/ok.txt", "# comment\nok 3 test -d \"$W\" && echo $SEED >$W/s\n"
                             "ctl !3 exit $((SEED == 2))\n");
    run_cap(&r, "scripts/sysprog.sh --jobs 2 build/t_sp/o1 build/t_sp/ok.txt");
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "sysprog: ok: 3 of 3 programs passed, seeds 1-3") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "ctl (control): caught in 1 of 3 programs, seeds 1-3, first at seed 2") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "sysprog: 6 programs, 0 failed, 1 controls caught of 1") != NULL, "%s", r.out);
    cmd_out_free(&r);
    put("build/t_sp/bad.txt", "bad 4 [ $SEED != 3 ]\nctl !2 true\n");
    run_cap(&r, "scripts/sysprog.sh --first 2 build/t_sp/o2 build/t_sp/bad.txt");
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "sysprog: FAIL bad seed 3 (): SEED=3 ") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "bash -o pipefail -c '[ $SEED != 3 ]'") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "sysprog: bad: 3 of 4 programs passed, seeds 2-5") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "sysprog: FAIL ctl (control): not caught in 2 programs") != NULL, "%s", r.out);
    cmd_out_free(&r);
    /* exit status 2 (a bad option of the command, a crash) fails even a control */
    put("build/t_sp/err.txt", "ctl !2 exit 2\n");
    run_cap(&r, "scripts/sysprog.sh build/t_sp/o3 build/t_sp/err.txt");
    cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "sysprog: ERROR ctl seed 1: exit 2") != NULL, "%s", r.out);
    cmd_out_free(&r);
    put("build/t_sp/mal.txt", "ok 3 true\nnocount true\n");
    refused("scripts/sysprog.sh build/t_sp/o4 build/t_sp/mal.txt", "mal.txt line 2: 'nocount true'");
    cr_assert_eq(run("test ! -e build/t_sp/o4"), 0, "a refused list left output");
    refused("scripts/sysprog.sh --count 0 build/t_sp/o4 build/t_sp/ok.txt", "'0'");
    /* the committed lists parse, and each family's programs add up to 1,000 */
    cr_assert_eq(run("for f in tb/*/sysprog.txt; do n=$(grep -v '^\\s*\\(#\\|$\\)' $f | "
                     "awk '$2 !~ /^!/ {s += $2} END {print s}'); [ \"$n\" = 1000 ] || "
                     "{ echo \"$f: $n\"; exit 1; }; done"), 0, "a family's list is not 1,000 programs");
}
