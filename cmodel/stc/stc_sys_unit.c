/*
 * Registry entries of the STC model-only tools (cmodel/units.def TOOL):
 *   cohmodel stc-system [options] [--log [FILE]] [--cycles] < program
 *   cohmodel stc-system [options] --gen SEED [--gen-ops N]   (random program)
 *   cohmodel stc-check [options] < event log
 * Both are verdict tools (cohkit_unit_desc.verdict_exit): exit 0 with RESULT PASS,
 * 1 with RESULT FAIL (whole output printed), 2 on bad input (nothing).
 * docs/stc.md "System model" and "Checker".
 */
#include <stdlib.h>
#include <string.h>

#include "stc_check.h"
#include "stc_prog.h"
#include "stc_system.h"
#include "unit.h"

/* ---- stc-system ---------------------------------------------------------- */

static const char *const sys_presets[] = {"default", "fpga", NULL};
static const char *const no_committed[] = {NULL};
static const char *const sys_bare[] = {"no-poison", "no-lazy", NULL};

enum { SF_LOG, SF_CYCLES, SF_GEN, SF_GEN_OPS };
static const cohkit_unit_flag sys_flags[] = {
    {"log", "[FILE]", "event log (spec 7.4) to FILE; without FILE: printed instead of the output"},
    {"cycles", NULL, "EPOCH lines with @<cycle>"},
    {"gen", "SEED", "print the random program of SEED for this configuration, run nothing"},
    {"gen-ops", "N", "operations per CU of --gen (24)"},
    {NULL, NULL, NULL},
};

static int sys_preset(void *cfg, const char *name)
{
    return stc_sys_cfg_preset(cfg, name);
}
static int sys_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    return stc_sys_cfg_option(cfg, name, value, err, len);
}
static int sys_check(void *cfg, char *err, size_t len)
{
    return stc_sys_cfg_check(cfg, err, len);
}

static int sys_run(const void *cfgv, const char *const *fl, FILE *in, const char *in_name,
                   FILE *out, FILE *errf)
{
    const stc_sys_cfg *c = cfgv;
    stc_prog p;
    char err[300];
    FILE *log = NULL;
    long nv;
    if (fl && fl[SF_GEN]) {
        stc_gen_cfg g;
        char *end;
        unsigned long long seed = strtoull(fl[SF_GEN], &end, 10);
        stc_gen_cfg_default(&g);
        if (fl[SF_GEN][0] < '0' || fl[SF_GEN][0] > '9' || *end) {
            fprintf(errf, "cohmodel: --gen: bad seed '%s'\n", fl[SF_GEN]);
            return 2;
        }
        if (fl[SF_GEN_OPS]) {
            unsigned long n = strtoul(fl[SF_GEN_OPS], &end, 10);
            if (fl[SF_GEN_OPS][0] < '0' || fl[SF_GEN_OPS][0] > '9' || *end || n < 1 || n > 100000) {
                fprintf(errf, "cohmodel: --gen-ops: bad count '%s' (1..100000)\n", fl[SF_GEN_OPS]);
                return 2;
            }
            g.ops = (unsigned)n;
        }
        g.cus = c->emu.cus;
        g.n = c->emu.n;
        g.seb = c->emu.seb;
        g.seb_min = c->emu.seb_min;
        g.addr_bits = c->emu.addr_bits;
        g.line = c->l1.line;
        if (stc_prog_random(&g, seed, &p) != 0) {
            fprintf(errf, "cohmodel: out of memory\n");
            return 2;
        }
        fprintf(out, "# stc-system --gen %llu --gen-ops %u (%u CUs, N %u, SEB %u)\n", seed, g.ops,
                g.cus, g.n, g.seb);
        stc_prog_write(&p, out);
        stc_prog_free(&p);
        return 0;
    }
    if (stc_prog_read(in, c->emu.cus, c->emu.addr_bits, &p, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name ? in_name : "program", err);
        return 2;
    }
    if (fl && fl[SF_LOG] && strcmp(fl[SF_LOG], "-") == 0) {
        /* the spec's --log: the event log is the output (input of stc-check) */
        char *sink_buf = NULL;
        size_t sink_len = 0;
        FILE *sink = open_memstream(&sink_buf, &sink_len);
        if (sink == NULL) {
            fprintf(errf, "cohmodel: out of memory\n");
            stc_prog_free(&p);
            return 2;
        }
        nv = stc_sys_run(c, &p, fl[SF_CYCLES] != NULL, sink, out, NULL);
        fclose(sink);
        free(sink_buf);
        stc_prog_free(&p);
        if (nv < 0) {
            fprintf(errf, "cohmodel: out of memory\n");
            return 2;
        }
        return nv > 0 ? 1 : 0;
    }
    if (fl && fl[SF_LOG]) {
        log = fopen(fl[SF_LOG], "w");
        if (log == NULL) {
            fprintf(errf, "cohmodel: --log: cannot write '%s'\n", fl[SF_LOG]);
            stc_prog_free(&p);
            return 2;
        }
    }
    nv = stc_sys_run(c, &p, fl && fl[SF_CYCLES], out, log, NULL);
    if (log)
        fclose(log);
    stc_prog_free(&p);
    if (nv < 0) {
        fprintf(errf, "cohmodel: out of memory\n");
        return 2;
    }
    return nv > 0 ? 1 : 0; /* the checker's verdict on the run's log */
}

const cohkit_unit_desc stc_system_tool = {
    .name = "stc-system",
    .family = "stc",
    .title = "STC system model: K CUs (epoch logic, BSQ, L1), EMU, L2 and memory (spec 7.3, 7.4)",
    .model_ref = "cmodel/stc/stc_system.c stc_sys_run() over stc_cu, stc_l1, stc_emu cores",
    .cfg_size = sizeof(stc_sys_cfg),
    .presets = sys_presets,
    .committed = no_committed,
    .module_prefix = "stc_system",
    .options_help =
        "  --variant nv|es|ab|mb  (mb)     --n N band bits (4)   --seb S (12)\n"
        "  --seb-min S (12)  --seb-max S (addr-bits - n)  --addr-bits B (32)\n"
        "  --epoch LIST initial epoch set (0)   --cus K (2)   --mb-max M (min(4, 2^n))\n"
        "  --seb-guard 0|1 (1)  --wake W (100)  --bsq E --banks B --drain D (256, 16, 2)\n"
        "  --sets S --ways W --line L (16, 64, 64)  --mshrs M (16)  --no-poison  --no-lazy\n"
        "  --l2-lat C L2 round trip (160)  --mem-lat C L2-miss round trip (260)\n"
        "  --msg-lat C CU<->EMU message latency (2)  --slow-cu C:D  --max-cycles N (200000)\n",
    .cfg_preset = sys_preset,
    .cfg_option = sys_option,
    .cfg_check = sys_check,
    .flags = sys_flags,
    .trace_help =
        "program (one thread per CU, program order):\n"
        "MEM <addr> <value>; <cu> ST|STREL|AMO <addr> <value>; <cu> LD <addr>;\n"
        "<cu> LDACQ <addr> <value>; <cu> WAIT; <cu> NOP <cycles>\n"
        "output: EPOCH <epochs> <seb> [@<cycle>]; LDV|AMOV <cu> <op-index> <addr> <value>;\n"
        "MEM <addr> <value>; VIOL <rule> @<cycle> <detail>; RESULT PASS|FAIL; # statistics",
    .trace_run = sys_run,
    .cfg_bare = sys_bare,
    .verdict_exit = 1,
};

/* ---- stc-check ----------------------------------------------------------- */

static const char *const chk_presets[] = {"default", NULL};

static int chk_preset(void *cfg, const char *name)
{
    if (strcmp(name, "default") != 0)
        return -1;
    stc_chk_cfg_default(cfg);
    return 0;
}
static int chk_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    return stc_chk_cfg_option(cfg, name, value, err, len);
}
static int chk_check(void *cfg, char *err, size_t len)
{
    return stc_chk_cfg_check(cfg, err, len);
}
static int chk_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                   FILE *out, FILE *errf)
{
    (void)fl;
    return stc_check_run(cfg, in, in_name, out, errf);
}

const cohkit_unit_desc stc_check_tool = {
    .name = "stc-check",
    .family = "stc",
    .title = "STC rule checker: every rule of spec 5.2 on every event of a system event log (7.4)",
    .model_ref = "cmodel/stc/stc_check.c stc_chk_event()",
    .cfg_size = sizeof(stc_chk_cfg),
    .presets = chk_presets,
    .committed = no_committed,
    .module_prefix = "stc_check",
    .options_help =
        "  --cus K (2)  --n N (4)  --variant nv|es|ab|mb (mb)  --seb S initial SEB (12)\n"
        "  --epoch LIST initial epoch set (0)  --line L L1 line bytes (64)\n"
        "  --seb-guard 0|1 (1)  --addr-bits B (32)\n",
    .cfg_preset = chk_preset,
    .cfg_option = chk_option,
    .cfg_check = chk_check,
    .trace_help =
        "event log: <cycle> <EVENT> <fields>, cycles non-decreasing (spec 7.4):\n"
        "INIT a v | PREP | READY cu | CHG E s | CER cu E s | DONE cu | END E s | SLEEP |\n"
        "BLK cu a | ISS cu a | PERF cu a v | WA cu a | RD cu a v | FILL cu line | INV cu line |\n"
        "HIT cu a v | LDV cu a v\n"
        "output: VIOL <rule> @<cycle> <detail> (by cycle, rule), RESULT PASS|FAIL\n"
        "rules: ER2 ER3 ER1 sweep stale handshake progress L2 hit",
    .trace_run = chk_run,
    .verdict_exit = 1,
};
