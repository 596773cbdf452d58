/*
 * The registry entries of `cohmodel spandex-gen` (random legal spandex-llc
 * traces, spec 9.3) and `cohmodel spandex-prog` (random data-race-free
 * programs for spandex-system, 9.4); cmodel/units.def TOOL lines. The LLC's
 * own trace tool is its unit's (cmodel/spandex/spandex_llc_unit.c).
 */
#include <string.h>

#include "spandex_gen.h"
#include "spandex_prog.h"
#include "unit.h"

/* ------------------------------------------------------- spandex-gen -- */
static int gen_preset(void *cfg, const char *name) { return spandex_gen_cfg_preset(cfg, name); }

static int gen_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    return spandex_gen_cfg_option(cfg, name, value, err, len);
}

static int gen_check(void *cfg, char *err, size_t len) { return spandex_gen_cfg_check(cfg, err, len); }

static const cohkit_unit_flag gen_flags[] = {{NULL, NULL, NULL}};

static int gen_run(const void *cfg, const char *const *flags, FILE *in, const char *in_name, FILE *out,
                   FILE *errf)
{
    char err[300];
    (void)flags;
    (void)in;
    (void)in_name;
    if (spandex_gen_write(cfg, out, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: spandex-gen: %s\n", err);
        return 2;
    }
    return 0;
}

const cohkit_unit_desc spandex_gen_tool = {
    .name = "spandex-gen",
    .family = "spandex",
    .title = "Spandex LLC traces: random legal requests with every Ack and RspRvkO answered (spec 9.3)",
    .model_ref = "spandex_gen_write (cmodel/spandex/spandex_gen.c)",
    .cfg_size = sizeof(spandex_gen_cfg),
    .presets = spandex_llc_preset_names,
    .options_help = "  --seed S (1)  --events N (200)  --lines N (the pool, over two sets;\n"
                    "  0: three lines per way of each, the default)\n"
                    "  and every option of spandex-llc (cohmodel spandex-llc --help)\n",
    .cfg_preset = gen_preset,
    .cfg_option = gen_option,
    .cfg_check = gen_check,
    .flags = gen_flags,
    .trace_help = "no input; prints a spandex-llc trace (the same for the same options)",
    .trace_run = gen_run,
};

/* ------------------------------------------------------ spandex-prog -- */
static int prog_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    return spandex_prog_cfg_option(cfg, name, value, err, len);
}

static int prog_preset(void *cfg, const char *name)
{
    spandex_prog_cfg_default(cfg);
    return spandex_sys_preset_apply(name, cfg, prog_option);
}

static int prog_check(void *cfg, char *err, size_t len) { return spandex_prog_cfg_check(cfg, err, len); }

static int prog_run(const void *cfg, const char *const *flags, FILE *in, const char *in_name, FILE *out,
                    FILE *errf)
{
    char err[300];
    (void)flags;
    (void)in;
    (void)in_name;
    if (spandex_prog_write(cfg, out, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: spandex-prog: %s\n", err);
        return 2;
    }
    return 0;
}

const cohkit_unit_desc spandex_prog_tool = {
    .name = "spandex-prog",
    .family = "spandex",
    .title = "Spandex programs: seeded random data-race-free programs with synchronisation (spec 9.4, 9.5)",
    .model_ref = "spandex_prog_write (cmodel/spandex/spandex_prog.c)",
    .cfg_size = sizeof(spandex_prog_cfg),
    .presets = spandex_sys_preset_names,
    .options_help =
        "  --dev ID:gpu|denovo (repeat, IDs 0..N-1, as spandex-system's)  --seed S (1)  --ops N (200: operation\n"
        "  lines, 1..100000)  --pattern mixed|false-sharing|flag|lock|barrier|counter|read-mostly (mixed)\n"
        "  --line B (64)  --word B (4); spandex-system's other options are accepted and not used\n",
    .cfg_preset = prog_preset,
    .cfg_option = prog_option,
    .cfg_check = prog_check,
    .flags = gen_flags,
    .trace_help = "no input; prints a program for spandex-system (the same for the same options), each phase\n"
                  "ended by DRAIN; spandex-check --drf judges its logs",
    .trace_run = prog_run,
};
