/*
 * The registry entry of `cohmodel spandex-check` (the system checker, SYS1-
 * SYS8 of spec 6 on a spandex-system log; a cmodel/units.def TOOL line):
 *   cohmodel spandex-check --dev ID:KIND ... --program FILE [--stats] [--drf] < log
 * A verdict tool (cohkit_unit_desc.verdict_exit): exit 0 with PASS, 1 with
 * the first violation as "E <reason>", 2 on bad input (nothing printed).
 */
#include <stdio.h>
#include <string.h>

#include "spandex_check_int.h"
#include "spandex_sys.h"
#include "unit.h"

static int chk_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    return spandex_sysck_cfg_option(cfg, name, value, err, len);
}

static int chk_preset(void *cfg, const char *name)
{
    spandex_sysck_cfg_default(cfg);
    return spandex_sys_preset_apply(name, cfg, chk_option);
}

static int chk_check(void *cfg, char *err, size_t len) { return spandex_sysck_cfg_check(cfg, err, len); }

enum { CF_PROGRAM, CF_STATS, CF_DRF };
static const cohkit_unit_flag chk_flags[] = {
    {"program", "FILE", "the program the log ran (spec 9.4; required)"},
    {"stats", NULL, "the SYS8 traffic table ('# traffic <type> <messages> <bytes>') before the verdict"},
    {"drf", NULL, "a data race (9.5 item 6 synchronisation; docs/spandex.md) is an E SYS3 violation too"},
    {NULL, NULL, NULL},
};

static int chk_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name, FILE *out, FILE *errf)
{
    FILE *prog;
    int rc;
    if (!fl || !fl[CF_PROGRAM]) {
        fprintf(errf, "cohmodel: spandex-check: --program FILE is required (the log comes on stdin)\n");
        return 2;
    }
    prog = fopen(fl[CF_PROGRAM], "r");
    if (!prog) {
        fprintf(errf, "cohmodel: spandex-check: %s: cannot open\n", fl[CF_PROGRAM]);
        return 2;
    }
    rc = spandex_ck_run(cfg, prog, fl[CF_PROGRAM], in, in_name, fl[CF_STATS] != NULL, fl[CF_DRF] != NULL, out, errf);
    fclose(prog);
    return rc;
}

const cohkit_unit_desc spandex_check_tool = {
    .name = "spandex-check",
    .family = "spandex",
    .title = "Spandex system checker: SYS1-SYS8 (spec 6) on a spandex-system log (9.4, 9.5)",
    .model_ref = "spandex_sysck_run (cmodel/spandex/spandex_check_sys.c, spandex_check_rules.c, spandex_check_hb.c)",
    .cfg_size = sizeof(spandex_sysck_cfg),
    .presets = spandex_sys_preset_names,
    .options_help = "  --dev ID:gpu|denovo|mesi (repeat; IDs 0..N-1)  --line B (64)  --word 4|8 (4)\n"
                    "  --nack-limit N (1)  --sched fifo|random (random; fifo: the SYS5 bound applies)\n"
                    "  --addr-bits B (48; the header size of SYS8)\n"
                    "  accepted and not used, as spandex-system's: --reqs --seed --sets --ways --denovo-rmw --wb\n"
                    "  --fault --gran --extra-words (extra words are judged whenever a log has them)\n",
    .cfg_preset = chk_preset,
    .cfg_option = chk_option,
    .cfg_check = chk_check,
    .flags = chk_flags,
    .trace_help = "the program in --program FILE (LD/ST/RMW/ACQ/REL/EVICT/STEP/DRAIN, spec 9.4);\n"
                  "the log on stdin: S <id> <src> <dst> <Msg> <line> <mask> [r=<req>] [<op>] [<v>...] |\n"
                  "D <id> | V <dev> <op#> <addr> <v> | C <dev> <op#> | E <reason>\n"
                  "output: [# traffic lines] then PASS ... (exit 0) or E SYS<n> line <L>: <event>: <why> (exit 1)",
    .trace_run = chk_run,
    .verdict_exit = 1,
};
