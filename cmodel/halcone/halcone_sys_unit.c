/*
 * Registry entries of the HALCONE model-only tools (cmodel/units.def TOOL
 * lines): `cohmodel halcone-system` (the system model and its checker, spec
 * 7.4) and `cohmodel halcone-gen` (programs, spec 7.5). Neither has RTL or a
 * timing shell; their units (halcone-tsu, halcone-cache) are in the registry.
 */
#include <stdlib.h>
#include <string.h>

#include "halcone_system.h"
#include "unit.h"

/* ---------------------------------------------------- halcone-system -- */
static const char *const sys_presets[] = {"default", "safe", "paper", NULL};

static int sys_preset(void *cfg, const char *name)
{
    halcone_sys_cfg *c = cfg;
    if (strcmp(name, "default") != 0 && strcmp(name, "safe") != 0 && strcmp(name, "paper") != 0)
        return -1;
    halcone_sys_cfg_default(c);
    strcpy(c->rules, strcmp(name, "paper") == 0 ? "paper" : "safe");
    return 0;
}

static int sys_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    return halcone_sys_cfg_option(cfg, name, value, err, len);
}

static int sys_check(void *cfg, char *err, size_t len) { return halcone_sys_cfg_check(cfg, err, len); }

static const cohkit_unit_flag sys_flags[] = {
    {"events", NULL, "print L1VICTIM, L2VICTIM and TSU lines before their access"},
    {"fail-on-violation", NULL, "exit status 1 if the checker reports a violation"},
    {NULL, NULL, NULL},
};

static int sys_trace_run(const void *cfg, const char *const *flags, FILE *in, const char *in_name,
                         FILE *out, FILE *err)
{
    return halcone_sys_trace_run(cfg, flags[0] != NULL, flags[1] != NULL, in, in_name, out, err);
}

const cohkit_unit_desc halcone_system_tool = {
    .name = "halcone-system",
    .family = "halcone",
    .title = "HALCONE system: GPUs, CUs, L1s, L2 banks, TSUs, DRAM, checked in logical time "
             "(sections 3.1-3.2.6)",
    .model_ref = "halcone_sys_run (cmodel/halcone/halcone_system.c), halcone_check_feed (cmodel/halcone/halcone_check.c)",
    .cfg_size = sizeof(halcone_sys_cfg),
    .presets = sys_presets,
    .options_help =
        "  --rules paper|safe          preset of the fixes (safe; spec 5.4)\n"
        "  --wr-wts literal|plus1  --read-cts on|off  --lease-ext on|off\n"
        "  --floor none|global|set  --overflow reinit|reset  --req-cts on|off\n"
        "  --share-test now|rts|keep|remove   switches over the preset (spec 7.1)\n"
        "  --l1-req-cts on|off         L1 requests carry the L1's cts to the L2 bank\n"
        "                              (safe: on; needed with several banks)\n"
        "  --gpus N (2)  --cus N (2)  --l1-sets/--l1-ways (64/4)  --l2-sets/--l2-ways (256/16)\n"
        "  --tsu-sets/--tsu-ways (512/8)  --l2-banks N (1)  --tsus N (1)\n"
        "  --line B (64)  --ts-bits W (16)  --rd-lease N (10)  --wr-lease N (5)\n",
    .cfg_preset = sys_preset,
    .cfg_option = sys_option,
    .cfg_check = sys_check,
    .flags = sys_flags,
    .trace_help = "LD <gpu> <cu> <addr> [lease=<n>]\n"
                  "ST <gpu> <cu> <addr> <value> [lease=<n>]\n"
                  "EVL1 <gpu> <cu> <addr>      EVL2 <gpu> <addr>\n"
                  "output: LD|ST <gpu> <cu> <line> <value> <src> <ts> <l1-cts> <l2-cts> <wts> <rts>,\n"
                  "RESET <epoch>, EVL1|EVL2 ... <line> <0|1>; after the trace CHECK STALE|REORDER|FUTURE\n"
                  "<input-line> <line> <got> <want>, # INVARIANT and # summary lines (docs/halcone.md)",
    .trace_run = sys_trace_run,
};

/* ------------------------------------------------------- halcone-gen -- */
static const char *const gen_presets[] = {"random", "xtreme1", "xtreme2", "xtreme3", NULL};

static int gen_preset(void *cfg, const char *name) { return halcone_gen_cfg_preset(cfg, name); }

static int gen_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    return halcone_gen_cfg_option(cfg, name, value, err, len);
}

static int gen_check(void *cfg, char *err, size_t len) { return halcone_gen_cfg_check(cfg, err, len); }

static const cohkit_unit_flag gen_flags[] = {{NULL, NULL, NULL}};

static int gen_run(const void *cfg, const char *const *flags, FILE *in, const char *in_name,
                   FILE *out, FILE *err)
{
    (void)flags;
    (void)in;
    (void)in_name;
    (void)err;
    halcone_gen_write(cfg, out);
    return 0;
}

const cohkit_unit_desc halcone_gen_tool = {
    .name = "halcone-gen",
    .family = "halcone",
    .title = "HALCONE programs: Xtreme1-3 (section 4.3.2, reading H22) and seeded random sharing",
    .model_ref = "halcone_gen_write (cmodel/halcone/halcone_gen.c)",
    .cfg_size = sizeof(halcone_gen_cfg),
    .presets = gen_presets,
    .options_help = "  program first: random | xtreme1 | xtreme2 | xtreme3 (or --config NAME)\n"
                    "  --gpus N (2)  --cus N (2)  --line B (64)\n"
                    "  xtreme: --elems N (4) --reps N (10)\n"
                    "  random: --ops N (200) --lines N (8) --seed S (1)\n",
    .cfg_preset = gen_preset,
    .cfg_option = gen_option,
    .cfg_check = gen_check,
    .flags = gen_flags,
    .trace_help = "no input; prints a halcone-system trace (the same for the same options)",
    .trace_run = gen_run,
};
