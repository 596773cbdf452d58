/*
 * Spandex LLC: configuration (options, presets, validation, geometry) and
 * the message table (spec 7). The functional core is in spandex_llc_core.c,
 * the trace tool in spandex_llc_trace.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "cfg_check.h"
#include "spandex_llc.h"

void spandex_llc_cfg_default(spandex_llc_cfg *c)
{
    const spandex_llc_cfg d = {.devs = 4,
                               .line = 64,
                               .word = 4,
                               .sets = 64,
                               .ways = 4,
                               .reqs = SPANDEX_LLC_REQS_PAPER,
                               .mesi = 0,
                               .extra = 0,
                               .owner_store = SPANDEX_LLC_OWNER_DATA,
                               .gran = SPANDEX_LLC_GRAN_WORD,
                               .txn = 4,
                               .defer = 8,
                               .addr_bits = 48};
    *c = d;
}

/* paper: 8 MESI CPUs and 16 GPU CUs (Table VI), one 512 KB bank of the 8 MB
 * LLC (512 sets x 16 ways x 64 B). fpga: 4 devices, 8 B lines of two 32-bit
 * words, 64 sets x 2 ways, 24-bit addresses (with 16 B lines the controller
 * alone took 9,545 LUT4 in synth_ice40, more than the HX8K's 7,680 logic
 * cells; docs/spandex.md). default: devices 0 and 1 are MESI caches for
 * the paper's ReqS policy (X6; it reads the list only for a ReqS, which
 * only a MESI device sends). line: the line-granularity baseline. */
static const cohkit_cfg_preset presets[] = {
    {"default", "--mesi 0-1"},
    {"paper", "--devs 24 --mesi 0-7 --sets 512 --ways 16"},
    {"fpga", "--line 8 --sets 64 --ways 2 --txn 2 --defer 4 --addr-bits 24"},
    {"line", "--gran line"},
    {NULL, NULL},
};

const char *const spandex_llc_preset_names[] = {"default", "paper", "fpga", "line", NULL};

static const cohkit_unit_opt_choice reqs_choices[] = {{"1", SPANDEX_LLC_REQS_1, 0},
                                                      {"2", SPANDEX_LLC_REQS_2, 0},
                                                      {"3", SPANDEX_LLC_REQS_3, 0},
                                                      {"paper", SPANDEX_LLC_REQS_PAPER, 0},
                                                      {NULL, 0, 0}};
static const cohkit_unit_opt_choice store_choices[] = {
    {"data", SPANDEX_LLC_OWNER_DATA, 0}, {"array", SPANDEX_LLC_OWNER_ARRAY, 0}, {NULL, 0, 0}};
static const cohkit_unit_opt_choice gran_choices[] = {
    {"word", SPANDEX_LLC_GRAN_WORD, 0}, {"line", SPANDEX_LLC_GRAN_LINE, 0}, {NULL, 0, 0}};

/* The device set an option of a device list sets: --mesi or --extra-words. */
static uint64_t *devset_of(spandex_llc_cfg *c, const char *name)
{
    return strcmp(name, "extra-words") == 0 ? &c->extra : &c->mesi;
}

static uint64_t devset_get(const spandex_llc_cfg *c, const char *name)
{
    return strcmp(name, "extra-words") == 0 ? c->extra : c->mesi;
}

/* --mesi LIST, --extra-words LIST: device IDs and ranges ("0-7,12"), or "none". */
static int devset_set(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    spandex_llc_cfg *c = cfg;
    uint64_t m = 0;
    const char *p = value;
    if (strcmp(value, "none") == 0) {
        *devset_of(c, name) = 0;
        return 0;
    }
    while (*p) {
        char *end;
        unsigned long a, b;
        if (*p < '0' || *p > '9')
            return cohkit_cfg_fail(err, len, "--%s: '%s' is not a list of device IDs (0-7,12)", name, value);
        a = strtoul(p, &end, 10);
        b = a;
        p = end;
        if (*p == '-') {
            p++;
            if (*p < '0' || *p > '9')
                return cohkit_cfg_fail(err, len, "--%s: '%s' is not a list of device IDs (0-7,12)",
                                       name, value);
            b = strtoul(p, &end, 10);
            p = end;
        }
        if (a > b || b >= SPANDEX_LLC_DEVS_MAX)
            return cohkit_cfg_fail(err, len, "--%s: '%s' names a device outside 0..%d", name, value,
                                   SPANDEX_LLC_DEVS_MAX - 1);
        for (; a <= b; a++)
            m |= 1ull << a;
        if (*p == ',')
            p++;
        else if (*p)
            return cohkit_cfg_fail(err, len, "--%s: '%s' is not a list of device IDs (0-7,12)", name, value);
    }
    if (m == 0)
        return cohkit_cfg_fail(err, len, "--%s: '%s' names no device", name, value);
    *devset_of(c, name) = m;
    return 0;
}

static void devset_put(uint64_t set, char *buf, size_t len)
{
    size_t n = 0;
    unsigned d = 0;
    buf[0] = '\0';
    if (set == 0) {
        snprintf(buf, len, "none");
        return;
    }
    while (d < SPANDEX_LLC_DEVS_MAX) {
        unsigned e;
        if (!(set >> d & 1)) {
            d++;
            continue;
        }
        for (e = d; e + 1 < SPANDEX_LLC_DEVS_MAX && (set >> (e + 1) & 1); e++)
            ;
        if (n < len)
            n += (size_t)snprintf(buf + n, len - n, n ? ",%u" : "%u", d);
        if (e > d && n < len)
            n += (size_t)snprintf(buf + n, len - n, "-%u", e);
        d = e + 1;
    }
}

static void mesi_put(const void *cfg, char *buf, size_t len)
{
    devset_put(devset_get(cfg, "mesi"), buf, len);
}

static void extra_put(const void *cfg, char *buf, size_t len)
{
    devset_put(devset_get(cfg, "extra-words"), buf, len);
}

static int has_extra(const void *cfg) { return ((const spandex_llc_cfg *)cfg)->extra != 0; }

static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_NUM("devs", "N", "device caches, 2..64 (default 4)", spandex_llc_cfg, devs),
    COHKIT_UNIT_OPT_NUM("line", "B", "line bytes, power of two, up to 64 words (default 64)",
                        spandex_llc_cfg, line),
    COHKIT_UNIT_OPT_NUM("word", "B", "word bytes, 4 or 8 (default 4)", spandex_llc_cfg, word),
    COHKIT_UNIT_OPT_NUM("sets", "N", "sets of the bank, power of two (default 64)", spandex_llc_cfg,
                        sets),
    COHKIT_UNIT_OPT_NUM("ways", "N",
                        "ways per set, power of two, 1..16 (default 4; 0: unbounded,\n"
                        "the trace tool only)",
                        spandex_llc_cfg, ways),
    COHKIT_UNIT_OPT_CHOICE("reqs", "P",
                           "ReqS handling: 1, 2, 3 (III-B's options) or paper (the\n"
                           "evaluated policy, per request; default)",
                           spandex_llc_cfg, reqs, reqs_choices),
    COHKIT_UNIT_OPT_FN("mesi", "LIST",
                       "MESI device IDs for the paper policy (0-7,12; none; default\n"
                       "0-1, the default preset's)",
                       devset_set, mesi_put),
    COHKIT_UNIT_OPT_FN("extra-words", "LIST",
                       "DeNovo device IDs whose ReqV answers from the LLC carry\n"
                       "every other up-to-date word of the line (Table II; none)",
                       devset_set, extra_put, .in_args = has_extra),
    COHKIT_UNIT_OPT_CHOICE("owner-store", "S",
                           "owner IDs in the word's data field (data, III-F;\n"
                           "default) or a separate array (array)",
                           spandex_llc_cfg, owner_store, store_choices),
    COHKIT_UNIT_OPT_CHOICE("gran", "G",
                           "word (Spandex; default) or line (every request\n"
                           "widened to the line: the line-granularity baseline)",
                           spandex_llc_cfg, gran, gran_choices),
    COHKIT_UNIT_OPT_NUM("txn", "N", "open transactions, 1..16 (default 4)", spandex_llc_cfg, txn),
    COHKIT_UNIT_OPT_NUM("defer", "N", "deferred-request entries, 1..64 (default 8)", spandex_llc_cfg,
                        defer),
    COHKIT_UNIT_OPT_NUM("addr-bits", "N", "byte-address width, 16..64 (default 48)", spandex_llc_cfg,
                        addr_bits),
    COHKIT_UNIT_OPT_END,
};
const cohkit_unit_opt_table spandex_llc_opts = {opts, "a non-negative integer", 0xffffffffUL, 0, 0, NULL};

COHKIT_CFG_OPT_FNS(spandex_llc, spandex_llc_cfg, presets, spandex_llc_cfg_default)

static int check(spandex_llc_cfg *c, int model, char *err, size_t len)
{
    unsigned words, line_bits, set_bits;
    if (cohkit_cfg_range(err, len, "devs", c->devs, 2, SPANDEX_LLC_DEVS_MAX))
        return -1;
    if (c->word != 4 && c->word != 8)
        return cohkit_cfg_fail(err, len, "--word %u: must be 4 or 8", c->word);
    if (!cohkit_is_pow2(c->line) || c->line < c->word || c->line / c->word > SPANDEX_LLC_WORDS_MAX)
        return cohkit_cfg_fail(err, len, "--line %u: must be a power of two, %u..%u (1..%d words of %u B)",
                               c->line, c->word, c->word * SPANDEX_LLC_WORDS_MAX, SPANDEX_LLC_WORDS_MAX,
                               c->word);
    if (cohkit_cfg_range_pow2(err, len, "sets", c->sets, 1, 1u << 20))
        return -1;
    if (c->ways == 0 && !model)
        return cohkit_cfg_fail(err, len, "--ways 0: unbounded sets exist in the trace tool only");
    if (c->ways != 0 && cohkit_cfg_range_pow2(err, len, "ways", c->ways, 1, 16))
        return -1;
    if (c->reqs < SPANDEX_LLC_REQS_1 || c->reqs > SPANDEX_LLC_REQS_PAPER)
        return cohkit_cfg_fail(err, len, "--reqs %d: unknown policy", (int)c->reqs);
    if (c->devs < SPANDEX_LLC_DEVS_MAX && (c->mesi >> c->devs) != 0)
        return cohkit_cfg_fail(err, len, "--mesi: device %u is not below --devs %u",
                               (unsigned)__builtin_ctzll(c->mesi >> c->devs) + c->devs, c->devs);
    if (c->devs < SPANDEX_LLC_DEVS_MAX && (c->extra >> c->devs) != 0)
        return cohkit_cfg_fail(err, len, "--extra-words: device %u is not below --devs %u",
                               (unsigned)__builtin_ctzll(c->extra >> c->devs) + c->devs, c->devs);
    if (c->extra & c->mesi)
        return cohkit_cfg_fail(err, len, "--extra-words: device %u is a MESI device (extra words are DeNovo's)",
                               (unsigned)__builtin_ctzll(c->extra & c->mesi));
    if (c->owner_store != SPANDEX_LLC_OWNER_DATA && c->owner_store != SPANDEX_LLC_OWNER_ARRAY)
        return cohkit_cfg_fail(err, len, "--owner-store %d: unknown store", (int)c->owner_store);
    if (c->gran != SPANDEX_LLC_GRAN_WORD && c->gran != SPANDEX_LLC_GRAN_LINE)
        return cohkit_cfg_fail(err, len, "--gran %d: unknown granularity", (int)c->gran);
    if (cohkit_cfg_range(err, len, "txn", c->txn, 1, 16) ||
        cohkit_cfg_range(err, len, "defer", c->defer, 1, 64))
        return -1;
    words = c->line / c->word;
    (void)words;
    line_bits = cohkit_ilog2(c->line);
    set_bits = cohkit_ilog2(c->sets);
    if (cohkit_cfg_range(err, len, "addr-bits", c->addr_bits, 16, 64))
        return -1;
    if (c->addr_bits < line_bits + set_bits + 1)
        return cohkit_cfg_fail(err, len,
                               "--addr-bits %u: leaves no tag bit over %u offset and %u set-index bits",
                               c->addr_bits, line_bits, set_bits);
    return 0;
}

/* The generated RTL keeps the deferral buffer's and the transaction
 * table's line data each in one register, which the lint tools accept up
 * to 8,192 bits. */
#define SPANDEX_LLC_RTL_REG_MAX 8192u

int spandex_llc_cfg_check(spandex_llc_cfg *c, char *err, size_t len)
{
    unsigned bits = c->line * 8;
    if (check(c, 0, err, len))
        return -1;
    if (c->defer * bits > SPANDEX_LLC_RTL_REG_MAX)
        return cohkit_cfg_fail(err, len, "--defer %u: %u deferred lines of %u bits exceed the RTL's %u-bit buffer",
                               c->defer, c->defer, bits, SPANDEX_LLC_RTL_REG_MAX);
    if (c->txn * bits > SPANDEX_LLC_RTL_REG_MAX)
        return cohkit_cfg_fail(err, len, "--txn %u: %u transactions' lines of %u bits exceed the RTL's %u-bit table",
                               c->txn, c->txn, bits, SPANDEX_LLC_RTL_REG_MAX);
    return 0;
}

int spandex_llc_cfg_check_model(spandex_llc_cfg *c, char *err, size_t len)
{
    return check(c, 1, err, len);
}

void spandex_llc_geom_of(const spandex_llc_cfg *c, spandex_llc_geom *g)
{
    memset(g, 0, sizeof *g);
    g->words = c->line / c->word;
    g->word_bits = c->word * 8;
    g->line_bits = cohkit_ilog2(c->line);
    g->laddr_bits = c->addr_bits - g->line_bits;
    g->set_bits = cohkit_ilog2(c->sets);
    g->tag_bits = g->laddr_bits - g->set_bits;
    g->dev_bits = cohkit_width(c->devs);
    g->node_bits = cohkit_width(c->devs + 1);
    g->way_bits = c->ways > 1 ? cohkit_ilog2(c->ways) : 0;
    g->txn_bits = cohkit_width(c->txn);
    g->full = cohkit_mask64(g->words);
    g->state_bits = 2;
    g->owner_bits = c->owner_store == SPANDEX_LLC_OWNER_ARRAY ? g->words * g->dev_bits : 0;
    g->meta_bits = g->tag_bits + g->state_bits + g->words + c->devs + 1;
    g->line_dir_bits = g->tag_bits + g->state_bits + c->devs;
}

void spandex_llc_cfg_name(const spandex_llc_cfg *c, char *buf, size_t len)
{
    static const char *const rq[] = {"", "r1", "r2", "r3", "rp"};
    snprintf(buf, len, "spandex_llc_d%u_l%u_w%u_s%u_a%u_%s_%s%s_t%u_q%u_ab%u", c->devs, c->line, c->word,
             c->sets, c->ways, rq[c->reqs], c->owner_store == SPANDEX_LLC_OWNER_DATA ? "od" : "oa",
             c->gran == SPANDEX_LLC_GRAN_LINE ? "_line" : "", c->txn, c->defer, c->addr_bits);
}

/* --------------------------------------------------------------- messages */
static const struct {
    const char *name;
    spandex_net net;
    unsigned code;
    int data;
} msgs[] = {
#define SPANDEX_MSG(ID, nm, nt, cd, dt) {nm, SPANDEX_NET_##nt, cd, dt},
#include "spandex_msg.def"
};

const char *spandex_msg_name(spandex_msg_kind k) { return k < SPANDEX_MSG_KINDS ? msgs[k].name : "?"; }
spandex_net spandex_msg_net(spandex_msg_kind k) { return msgs[k].net; }
unsigned spandex_msg_code(spandex_msg_kind k) { return msgs[k].code; }
int spandex_msg_has_data(spandex_msg_kind k) { return msgs[k].data; }

int spandex_msg_of(spandex_net net, unsigned code)
{
    int k;
    for (k = 0; k < SPANDEX_MSG_KINDS; k++)
        if (msgs[k].net == net && msgs[k].code == code)
            return k;
    return -1;
}

int spandex_msg_find(const char *name)
{
    int k;
    for (k = 0; k < SPANDEX_MSG_KINDS; k++)
        if (strcmp(msgs[k].name, name) == 0)
            return k;
    return -1;
}

static const char *const op_names[] = {"rd", "swp", "add", "and", "or", "xor", "min", "max"};

const char *spandex_op_name(unsigned op) { return op < 8 ? op_names[op] : "?"; }

uint64_t spandex_op_apply(unsigned op, uint64_t old, uint64_t v, unsigned bits)
{
    uint64_t m = cohkit_mask64(bits), r;
    switch (op) {
    case SPANDEX_OP_SWP: r = v; break;
    case SPANDEX_OP_ADD: r = old + v; break;
    case SPANDEX_OP_AND: r = old & v; break;
    case SPANDEX_OP_OR: r = old | v; break;
    case SPANDEX_OP_XOR: r = old ^ v; break;
    case SPANDEX_OP_MIN: r = old < v ? old : v; break;
    case SPANDEX_OP_MAX: r = old > v ? old : v; break;
    default: r = old; break;
    }
    return r & m;
}

void spandex_msg_print(const spandex_msg *m, unsigned words, FILE *f)
{
    unsigned w;
    const char *nm = spandex_msg_name(m->kind);
    switch (m->kind) {
    case SPANDEX_MEMRD: fprintf(f, "MemRd 0x%llx\n", (unsigned long long)m->line); return;
    case SPANDEX_MEMWR:
        fprintf(f, "MemWr 0x%llx", (unsigned long long)m->line);
        for (w = 0; w < words; w++)
            fprintf(f, " 0x%llx", (unsigned long long)m->v[w]);
        fputc('\n', f);
        return;
    case SPANDEX_INV:
    case SPANDEX_ACK: fprintf(f, "%s %u 0x%llx\n", nm, m->dev, (unsigned long long)m->line); return;
    default: break;
    }
    fprintf(f, "%s %u 0x%llx 0x%llx", nm, m->dev, (unsigned long long)m->line, (unsigned long long)m->mask);
    if (spandex_msg_net(m->kind) == SPANDEX_NET_FWD && m->kind != SPANDEX_RVKO)
        fprintf(f, " %u", m->req);
    if (m->kind == SPANDEX_REQWTDATA)
        fprintf(f, " %s", spandex_op_name(m->op));
    if (spandex_msg_has_data(m->kind) && !(m->kind == SPANDEX_REQWTDATA && m->op == SPANDEX_OP_RD))
        for (w = 0; w < words; w++)
            if (m->mask >> w & 1)
                fprintf(f, " 0x%llx", (unsigned long long)m->v[w]);
    fputc('\n', f);
}
