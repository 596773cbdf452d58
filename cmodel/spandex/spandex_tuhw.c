/*
 * The Spandex translation unit block: configuration (options, presets,
 * validation, geometry). The timing shell is spandex_tuhw_tm.c, the
 * registry entry and the bench stimulus spandex_tuhw_unit.c.
 */
#include <stdio.h>
#include <string.h>

#include "bits.h"
#include "cfg_check.h"
#include "spandex_tuhw.h"

void spandex_tuhw_cfg_default(spandex_tuhw_cfg *c)
{
    const spandex_tuhw_cfg d = {.kind = SPANDEX_TU_GPU,
                                .devs = 4,
                                .line = 64,
                                .word = 4,
                                .mshr = 4,
                                .wb = 4,
                                .nack_limit = 1,
                                .addr_bits = 48,
                                .dfr = 4,
                                .wtdata = 0,
                                .extra = 0};
    *c = d;
}

/* fpga: 16 B lines of four 32-bit words, two MSHR entries and two
 * write-buffer lines, 24-bit addresses; denovo and denovo_fpga, mesi and
 * mesi_fpga: the same for the DeNovo and MESI kinds (two delayed-request
 * slots on the FPGA for DeNovo, four for MESI, chosen when its downgrades
 * could wait in a slot for an entry, kept so that the committed RTL stays
 * the measured one; MESI uses no write buffer). */
static const cohkit_cfg_preset presets[] = {
    {"default", ""},
    {"fpga", "--line 16 --mshr 2 --wb 2 --addr-bits 24"},
    {"denovo", "--kind denovo"},
    {"denovo_fpga", "--kind denovo --line 16 --mshr 2 --wb 2 --dfr 2 --addr-bits 24"},
    {"mesi", "--kind mesi"},
    {"mesi_fpga", "--kind mesi --line 16 --mshr 2 --wb 2 --dfr 4 --addr-bits 24"},
    {NULL, NULL},
};

const char *const spandex_tuhw_preset_names[] = {"default", "fpga", "denovo", "denovo_fpga", "mesi", "mesi_fpga",
                                                 NULL};

static const cohkit_unit_opt_choice kind_choices[] = {
    {"gpu", SPANDEX_TU_GPU, 0}, {"denovo", SPANDEX_TU_DENOVO, 0}, {"mesi", SPANDEX_TU_MESI, 0}, {NULL, 0, 0}};

static const cohkit_unit_opt_choice rmw_choices[] = {{"odata", 0, 0}, {"wtdata", 1, 0}, {NULL, 0, 0}};
static const cohkit_unit_opt_choice onoff_choices[] = {{"off", 0, 0}, {"on", 1, 0}, {NULL, 0, 0}};

static int has_extra(const void *cfg) { return ((const spandex_tuhw_cfg *)cfg)->extra != 0; }

static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_CHOICE("kind", "K",
                           "device kind: gpu (GPU coherence; default), denovo or\n"
                           "mesi",
                           spandex_tuhw_cfg, kind, kind_choices),
    COHKIT_UNIT_OPT_NUM("devs", "N", "devices of the system, 2..64 (default 4)", spandex_tuhw_cfg, devs),
    COHKIT_UNIT_OPT_NUM("line", "B", "line bytes, power of two, up to 64 words (default 64)",
                        spandex_tuhw_cfg, line),
    COHKIT_UNIT_OPT_NUM("word", "B", "word bytes, 4 or 8 (default 4)", spandex_tuhw_cfg, word),
    COHKIT_UNIT_OPT_NUM("mshr", "N", "open requests (MSHR entries), 1..16 (default 4)", spandex_tuhw_cfg,
                        mshr),
    COHKIT_UNIT_OPT_NUM("wb", "N", "write-buffer lines, 1..16 (default 4)", spandex_tuhw_cfg, wb),
    COHKIT_UNIT_OPT_NUM("nack-limit", "N",
                        "Nacks of a read before its replacement ReqWT+data(rd),\n"
                        "1..15 (default 1: the first retry is the replacement)",
                        spandex_tuhw_cfg, nack_limit),
    COHKIT_UNIT_OPT_NUM("addr-bits", "N", "byte-address width, 16..64 (default 48)", spandex_tuhw_cfg,
                        addr_bits),
    COHKIT_UNIT_OPT_NUM("dfr", "N",
                        "DeNovo, MESI: external requests delayed behind a\n"
                        "pending ReqO+data (MESI: or ReqS), 1..8 slots (default 4)",
                        spandex_tuhw_cfg, dfr),
    COHKIT_UNIT_OPT_CHOICE("denovo-rmw", "R",
                           "DeNovo: an atomic on a word not owned and a Nack's\n"
                           "replacement by odata (ReqO+data; default) or wtdata\n"
                           "(ReqWT+data, the SDG option)",
                           spandex_tuhw_cfg, wtdata, rmw_choices),
    COHKIT_UNIT_OPT_CHOICE("extra-words", "X",
                           "DeNovo: the LLC's RspV may carry extra up-to-date words\n"
                           "(Table II): on or off (default)",
                           spandex_tuhw_cfg, extra, onoff_choices, .in_args = has_extra),
    COHKIT_UNIT_OPT_END,
};
const cohkit_unit_opt_table spandex_tuhw_opts = {opts, "a non-negative integer", 0xffffffffUL, 0, 0, NULL};

COHKIT_CFG_OPT_FNS(spandex_tuhw, spandex_tuhw_cfg, presets, spandex_tuhw_cfg_default)

/* The MSHR's and the write buffer's line data are registers, which the
 * lint tools accept up to 8,192 bits each. */
#define SPANDEX_TUHW_REG_MAX 8192u

int spandex_tuhw_cfg_check(spandex_tuhw_cfg *c, char *err, size_t len)
{
    unsigned bits = c->line * 8;
    if (cohkit_cfg_range(err, len, "devs", c->devs, 2, SPANDEX_LLC_DEVS_MAX))
        return -1;
    if (c->word != 4 && c->word != 8)
        return cohkit_cfg_fail(err, len, "--word %u: must be 4 or 8", c->word);
    if (!cohkit_is_pow2(c->line) || c->line < c->word || c->line / c->word > SPANDEX_LLC_WORDS_MAX)
        return cohkit_cfg_fail(err, len, "--line %u: must be a power of two, %u..%u (1..%d words of %u B)",
                               c->line, c->word, c->word * SPANDEX_LLC_WORDS_MAX, SPANDEX_LLC_WORDS_MAX,
                               c->word);
    if (cohkit_cfg_range(err, len, "mshr", c->mshr, 1, SPANDEX_TUHW_MSHR_MAX) ||
        cohkit_cfg_range(err, len, "wb", c->wb, 1, SPANDEX_TUHW_WB_MAX) ||
        cohkit_cfg_range(err, len, "nack-limit", c->nack_limit, 1, 15) ||
        cohkit_cfg_range(err, len, "addr-bits", c->addr_bits, 16, 64) ||
        cohkit_cfg_range(err, len, "dfr", c->dfr, 1, SPANDEX_TUHW_DFR_MAX))
        return -1;
    if (c->kind == SPANDEX_TU_GPU && c->wtdata)
        return cohkit_cfg_fail(err, len, "--denovo-rmw wtdata: a DeNovo option (GPU coherence always uses ReqWT+data)");
    if (c->kind == SPANDEX_TU_MESI && c->wtdata)
        return cohkit_cfg_fail(err, len, "--denovo-rmw wtdata: a DeNovo option (MESI always uses ReqO+data)");
    if (c->extra && c->kind != SPANDEX_TU_DENOVO)
        return cohkit_cfg_fail(err, len, "--extra-words on: a DeNovo option (Table II: extra words are DeNovo's)");
    if (c->extra && c->nack_limit != 1)
        return cohkit_cfg_fail(err, len, "--extra-words on: needs --nack-limit 1 (a ReqV re-sent by its entry could "
                               "take an extra word for an answer an owner still owes)");
    if (c->addr_bits <= cohkit_ilog2(c->line))
        return cohkit_cfg_fail(err, len, "--addr-bits %u: leaves no line-address bit over %u offset bits",
                               c->addr_bits, cohkit_ilog2(c->line));
    if (c->mshr * bits > SPANDEX_TUHW_REG_MAX)
        return cohkit_cfg_fail(err, len, "--mshr %u: %u lines of %u bits exceed the RTL's %u-bit MSHR data",
                               c->mshr, c->mshr, bits, SPANDEX_TUHW_REG_MAX);
    if (c->kind != SPANDEX_TU_MESI && c->wb * bits > SPANDEX_TUHW_REG_MAX) /* (MESI: no write buffer) */
        return cohkit_cfg_fail(err, len, "--wb %u: %u lines of %u bits exceed the RTL's %u-bit write buffer",
                               c->wb, c->wb, bits, SPANDEX_TUHW_REG_MAX);
    return 0;
}

void spandex_tuhw_geom_of(const spandex_tuhw_cfg *c, spandex_tuhw_geom *g)
{
    memset(g, 0, sizeof *g);
    g->words = c->line / c->word;
    g->word_bits = c->word * 8;
    g->line_bits = cohkit_ilog2(c->line);
    g->laddr_bits = c->addr_bits - g->line_bits;
    g->dev_bits = cohkit_width(c->devs);
    g->mshr_bits = cohkit_width(c->mshr);
    g->wb_bits = cohkit_width(c->wb);
    g->nack_bits = 4;
    g->dfr_bits = cohkit_width(c->dfr);
    g->full = cohkit_mask64(g->words);
}

void spandex_tuhw_cfg_name(const spandex_tuhw_cfg *c, char *buf, size_t len)
{
    static const char *const kinds[] = {"gpu", "denovo", "mesi"};
    if (c->kind == SPANDEX_TU_GPU)
        snprintf(buf, len, "spandex_tu_gpu_d%u_l%u_w%u_m%u_b%u_n%u_ab%u", c->devs, c->line, c->word, c->mshr,
                 c->wb, c->nack_limit, c->addr_bits);
    else
        snprintf(buf, len, "spandex_tu_%s_d%u_l%u_w%u_m%u_b%u_n%u_ab%u_f%u%s%s", kinds[c->kind], c->devs, c->line,
                 c->word, c->mshr, c->wb, c->nack_limit, c->addr_bits, c->dfr, c->wtdata ? "_wt" : "",
                 c->extra ? "_xw" : "");
}
