/*
 * The registry entry of `cohmodel spandex-system` (the composed system,
 * spec 9.4; a cmodel/units.def TOOL line): options, the program reader and
 * the run (spandex_sys.h).
 */
#include <stdlib.h>
#include <string.h>

#include "spandex_sys.h"
#include "unit.h"

static int sys_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    return spandex_sys_cfg_option(cfg, name, value, err, len);
}

static int sys_preset(void *cfg, const char *name)
{
    spandex_sys_cfg_default(cfg);
    return spandex_sys_preset_apply(name, cfg, sys_option);
}

static int sys_check(void *cfg, char *err, size_t len) { return spandex_sys_cfg_check(cfg, err, len); }

static const cohkit_unit_flag sys_flags[] = {{NULL, NULL, NULL}};

static int sys_trace_run(const void *cfg, const char *const *flags, FILE *in, const char *in_name, FILE *out,
                         FILE *errf)
{
    char err[300];
    spandex_sop *ops;
    size_t n;
    int rc;
    (void)flags;
    if (spandex_sys_prog_read(cfg, in, &ops, &n, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    rc = spandex_sys_run(cfg, ops, n, out, err, sizeof err);
    free(ops);
    if (rc == 2)
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
    return rc;
}

const cohkit_unit_desc spandex_sys_tool = {
    .name = "spandex-system",
    .family = "spandex",
    .title = "Spandex composed system: LLC, GPU coherence, DeNovo and MESI TUs, scheduled messages (spec 9.4)",
    .model_ref = "spandex_sys_run (cmodel/spandex/spandex_sys.c), spandex_tu (spandex_tu.c)",
    .cfg_size = sizeof(spandex_sys_cfg),
    .presets = spandex_sys_preset_names,
    .options_help =
        "  --dev ID:gpu|denovo|mesi (repeat, IDs 0..N-1)\n"
        "  --nack-limit N (1)  --denovo-rmw odata|wtdata (odata)  --wb N (write-buffer lines per device, 8)\n"
        "  --sched fifo|random (fifo)  --seed S (1)\n"
        "  --extra-words denovo|LIST|none (a DeNovo ReqV answered from the LLC carries every other\n"
        "  up-to-date word of the line: every DeNovo device, or those listed; none)\n"
        "  --fault drop-ack|drop-rspo|stale-rspv[:N] (a fault injected into the model for the checker to\n"
        "  catch: the N-th Ack or RspRvkO lost, the N-th RspO lost, the N-th RspV with stale data; N 1)\n"
        "  and the LLC options of spandex-llc but --devs and --mesi (--line, --word, --reqs, --sets, --ways)\n",
    .cfg_preset = sys_preset,
    .cfg_option = sys_option,
    .cfg_check = sys_check,
    .flags = sys_flags,
    .trace_help = "input: a program (LD ST RMW ACQ REL EVICT STEP DRAIN, spec 9.4);\n"
                  "output: the S/D/V/C/E log; exit 1 after an E line, 2 on a bad program",
    .trace_run = sys_trace_run,
    .verdict_exit = 1,
};
