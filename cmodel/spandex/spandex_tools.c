/*
 * Registry entries of the Spandex trace tools (cmodel/units.def TOOL lines):
 * `cohmodel spandex-llc` (the LLC's functional core on a 9.2 trace, with
 * the LLC1-LLC8 checker on request) and `cohmodel spandex-gen` (random
 * legal traces, 9.3).
 */
#include <string.h>

#include "spandex_gen.h"
#include "spandex_llc.h"
#include "unit.h"

/* ------------------------------------------------------- spandex-llc -- */
static int llc_preset(void *cfg, const char *name) { return spandex_llc_cfg_preset(cfg, name); }

static int llc_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    return spandex_llc_cfg_option(cfg, name, value, err, len);
}

static int llc_check(void *cfg, char *err, size_t len) { return spandex_llc_cfg_check_model(cfg, err, len); }

static const cohkit_unit_flag llc_flags[] = {
    {"dump", NULL, "LINE lines of every resident line after the trace"},
    {"stats", NULL, "'# count <msg> <n>' lines: every message kind read and sent"},
    {"check", NULL, "check LLC1-LLC8 after every event; the first violation\n"
                    "prints 'CHECK LLCn line N: ...' and exits 1"},
    {NULL, NULL, NULL},
};

static int llc_trace_run(const void *cfg, const char *const *flags, FILE *in, const char *in_name, FILE *out,
                         FILE *err)
{
    spandex_llc_flags fl = {flags[0] != NULL, flags[1] != NULL, flags[2] != NULL};
    return spandex_llc_trace_run(cfg, &fl, in, in_name, out, err);
}

const cohkit_unit_desc spandex_llc_tool = {
    .name = "spandex-llc",
    .family = "spandex",
    .title = "Spandex LLC: word ownership over line state, Table III (section III-B, spec 2.2, 3)",
    .model_ref = "spandex_llc_event (cmodel/spandex/spandex_llc_core.c), spandex_llc_chk "
                 "(cmodel/spandex/spandex_llc_check.c)",
    .cfg_size = sizeof(spandex_llc_cfg),
    .presets = spandex_llc_preset_names,
    .opts = &spandex_llc_opts,
    .cfg_preset = llc_preset,
    .cfg_option = llc_option,
    .cfg_check = llc_check,
    .flags = llc_flags,
    .trace_help = "ReqV|ReqS|ReqO|ReqO+data <dev> <addr> <mask>\n"
                  "ReqWT|ReqWB <dev> <addr> <mask> <v>...\n"
                  "ReqWT+data <dev> <addr> <mask> rd|swp|add|and|or [<v>...]\n"
                  "Ack <dev> <addr>      RspRvkO <dev> <addr> <mask> <v>...\n"
                  "output: MemRd, MemWr, Inv, RvkO, Fwd*, Rsp* lines in canonical order (docs/spandex.md)",
    .trace_run = llc_trace_run,
    .verdict_exit = 1,
};

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
