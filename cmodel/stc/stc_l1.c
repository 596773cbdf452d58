/*
 * STC L1 controller golden model (TACO 2023 sections 4.2, 4.4, 4.5, Table 1;
 * kit specification stc.md 3.5, S1, S13, S19). The functional core is Table
 * 1 as transactions; the timing shell is the generated RTL's pipeline
 * (gen/stc/stc_l1_gen.c) cycle by cycle. Both keep the tag array as set words of
 * {valid, tag, LRU age} per way, the way the RTL's RAM holds them.
 */
#include "stc_l1.h"
#include "bits.h"
#include "cfg_check.h"
#include "unit_trace.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ config -- */

void stc_l1_cfg_default(stc_l1_cfg *c)
{
    /* seb_max 0: addr_bits - n */
    static const stc_l1_cfg d = {.n = 4, .seb = 12, .seb_min = 12, .addr_bits = 32,
                                 .epoch = {.w = {1}}, .sets = 16, .ways = 64, .line = 64,
                                 .mshrs = 16, .pw_bits = 8, .poison = 1, .lazy = 1};
    *c = d;
}

static const cohkit_cfg_preset presets[] = {
    {"default", ""},
    {"fpga", "--sets 4 --ways 4 --mshrs 4 --pw-bits 4"},
    {NULL, NULL},
};

static int set_epoch(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    /* checked against 2^N in cfg_check: parse with the widest range */
    char why[160];
    (void)name;
    if (stc_eset_parse(&((stc_l1_cfg *)cfg)->epoch, value, STC_N_MAX, why, sizeof why) != 0) {
        snprintf(err, len, "--epoch: '%s' is not a list of epochs (e.g. 3,5,7): %s",
                 value ? value : "", why);
        return -1;
    }
    return 0;
}

static void put_epoch(const void *cfg, char *buf, size_t len)
{
    stc_eset_format(&((const stc_l1_cfg *)cfg)->epoch, buf, len);
}

/* --no-poison, --no-lazy: 0 or 1, stored inverted */
static int set_off(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    stc_l1_cfg *c = cfg;
    unsigned v;
    if (value == NULL || cohkit_trace_uint(value, 1000000u, &v) != 0 || v > 1) {
        snprintf(err, len, "--%s: '%s' is not 0 or 1", name, value ? value : "");
        return -1;
    }
    if (name[3] == 'p')
        c->poison = !v;
    else
        c->lazy = !v;
    return 0;
}

static int poison_off(const void *cfg) { return !((const stc_l1_cfg *)cfg)->poison; }
static int lazy_off(const void *cfg) { return !((const stc_l1_cfg *)cfg)->lazy; }

static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_NUM("n", "N", "band bits, 1..8 (default 4)", stc_l1_cfg, n),
    COHKIT_UNIT_OPT_NUM("seb", "S", "initial start epoch bit (default 12)", stc_l1_cfg, seb),
    COHKIT_UNIT_OPT_NUM("seb-min", "S",
                "lowest SEB a ChangeEpoch carries (default 12, >= log2(line))",
                stc_l1_cfg, seb_min),
    COHKIT_UNIT_OPT_NUM("seb-max", "S",
                "highest SEB (default addr-bits - n; up to addr-bits, S4)",
                stc_l1_cfg, seb_max),
    COHKIT_UNIT_OPT_NUM("addr-bits", "A",
                "byte-address width, 16..48 (default 32)",
                stc_l1_cfg, addr_bits),
    COHKIT_UNIT_OPT_FN("epoch", "LIST",
                "initial epoch set, e.g. 0 or 3,5 (default 0)",
                set_epoch, put_epoch),
    COHKIT_UNIT_OPT_NUM("sets", "S", "sets, power of two, 1..1024 (default 16)", stc_l1_cfg, sets),
    COHKIT_UNIT_OPT_NUM("ways", "W", "ways, power of two, 1..64 (default 64)", stc_l1_cfg, ways),
    COHKIT_UNIT_OPT_NUM("line", "B", "line bytes, power of two, 4..4096 (default 64)", stc_l1_cfg, line),
    COHKIT_UNIT_OPT_NUM("mshrs", "M",
                "outstanding loads (I_V, I_I), 1..64 (default 16)",
                stc_l1_cfg, mshrs),
    COHKIT_UNIT_OPT_NUM("pw-bits", "B",
                "pending-write counter width, 1..16 (default 8)",
                stc_l1_cfg, pw_bits),
    COHKIT_UNIT_OPT_FN("no-poison", NULL,
                "paper-literal Table 1: no poison bit (unsafe, spec S1)",
                set_off, NULL, .in_args = poison_off, .flags = COHKIT_UNIT_OPT_BARE),
    COHKIT_UNIT_OPT_FN("no-lazy", NULL,
                "test only: no lazy invalidation, no sweep",
                set_off, NULL, .in_args = lazy_off, .flags = COHKIT_UNIT_OPT_BARE),
    COHKIT_UNIT_OPT_END,
};
const cohkit_unit_opt_table stc_l1_opts = {opts, "a number", 1000000, 10, 0, NULL};

COHKIT_CFG_OPT_FNS(stc_l1, stc_l1_cfg, presets, stc_l1_cfg_default)

int stc_l1_cfg_check(stc_l1_cfg *c, char *err, size_t len)
{
    unsigned i;
    if (c->n < 1 || c->n > 8)
        return cohkit_cfg_fail(err, len, "--n %u: band bits must be 1..8", c->n);
    if (cohkit_cfg_range(err, len, "addr-bits", c->addr_bits, 16, 48) ||
        cohkit_cfg_range_pow2(err, len, "line", c->line, 4, 4096) ||
        cohkit_cfg_range_pow2(err, len, "sets", c->sets, 1, 1024) ||
        cohkit_cfg_range_pow2(err, len, "ways", c->ways, 1, 64))
        return -1;
    if (cohkit_ilog2(c->line) + cohkit_ilog2(c->sets) + 1 > c->addr_bits)
        return cohkit_cfg_fail(err, len, "--sets %u --line %u: leave no tag bit of a %u-bit address",
                               c->sets, c->line, c->addr_bits);
    if (cohkit_cfg_range(err, len, "mshrs", c->mshrs, 1, 64) ||
        cohkit_cfg_range(err, len, "pw-bits", c->pw_bits, 1, 16))
        return -1;
    if (c->seb_max == 0)
        c->seb_max = c->addr_bits - c->n;
    if (c->seb_min < cohkit_ilog2(c->line))
        return cohkit_cfg_fail(err, len,
                               "--seb-min %u: below the line offset (%u bits): a line would span bands",
                               c->seb_min, cohkit_ilog2(c->line));
    if (c->seb_max > c->addr_bits || c->seb_max < c->seb_min)
        return cohkit_cfg_fail(err, len, "--seb-max %u: must be --seb-min (%u)..--addr-bits (%u)",
                               c->seb_max, c->seb_min, c->addr_bits);
    if (cohkit_cfg_range(err, len, "seb", c->seb, c->seb_min, c->seb_max))
        return -1;
    for (i = 1u << c->n; i < 256; i++)
        if (stc_eset_has(&c->epoch, i))
            return cohkit_cfg_fail(err, len, "--epoch: epoch %u is not below 2^N = %u", i,
                                   1u << c->n);
    if (c->poison > 1 || c->lazy > 1)
        return cohkit_cfg_fail(err, len, "poison/lazy flags must be 0 or 1");
    return 0;
}

void stc_l1_geom_of(const stc_l1_cfg *c, stc_l1_geom *g)
{
    memset(g, 0, sizeof *g);
    g->epochs = 1u << c->n;
    g->line_bits = cohkit_ilog2(c->line);
    g->set_bits = cohkit_ilog2(c->sets);
    g->way_bits = cohkit_width(c->ways);
    g->age_bits = cohkit_width(c->ways);
    g->laddr_bits = c->addr_bits - g->line_bits;
    g->tag_bits = g->laddr_bits - g->set_bits;
    g->seb_bits = cohkit_width((uint64_t)c->seb_max + 1);
    g->mshr_bits = cohkit_width(c->mshrs);
    /* valid, tag, LRU age, and the band-current bit (docs/stc.md) */
    g->way_word = 2 + g->tag_bits + g->age_bits;
    g->set_word = c->ways * g->way_word;
    g->ram_bits = (uint64_t)c->sets * g->set_word;
    /* touched, MSHR {valid, I_I, poison, line}, CER and its pending copy,
     * SEB twice, PW */
    g->flop_bits = c->sets + (uint64_t)c->mshrs * (3 + g->laddr_bits) + 2ull * g->epochs +
                   2ull * g->seb_bits + c->pw_bits;
    g->pw_max = (unsigned)cohkit_mask64(c->pw_bits);
}

void stc_l1_cfg_name(const stc_l1_cfg *c, char *buf, size_t len)
{
    snprintf(buf, len, "stc_l1_n%u_s%u_w%u_l%u_m%u%s%s", c->n, c->sets, c->ways, c->line, c->mshrs,
             c->poison ? "" : "_nopoison", c->lazy ? "" : "_nolazy");
}

unsigned stc_l1_band(uint64_t addr, unsigned seb, unsigned n)
{
    return seb >= 64 ? 0u : (unsigned)((addr >> seb) & cohkit_mask64(n));
}

/* ------------------------------------------------- shared set-word ops -- */

typedef struct {
    uint8_t v;
    uint64_t tag;
    unsigned age;
} way_t;

typedef struct {
    uint8_t v, ii, pois;
    uint64_t line; /* line number */
} mshr_t;

static void set_init(way_t *w, unsigned ways)
{
    unsigned i;
    for (i = 0; i < ways; i++) {
        w[i].v = 0;
        w[i].tag = 0;
        w[i].age = i;
    }
}

/* LRU: the used way becomes 0, younger ways age by one (a permutation). */
static void lru_use(way_t *w, unsigned ways, unsigned u)
{
    unsigned i, a = w[u].age;
    for (i = 0; i < ways; i++)
        if (i != u && w[i].age < a)
            w[i].age++;
    w[u].age = 0;
}

/* invalid way first (lowest), else the oldest */
static unsigned victim_of(const way_t *w, unsigned ways)
{
    unsigned i;
    for (i = 0; i < ways; i++)
        if (!w[i].v)
            return i;
    for (i = 0; i < ways; i++)
        if (w[i].age == ways - 1)
            return i;
    return 0;
}

static int in_set(const stc_eset *cer, uint64_t byte_addr, unsigned seb, unsigned n)
{
    return stc_eset_has(cer, stc_l1_band(byte_addr, seb, n));
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* ---------------------------------------------------------------- core -- */

struct stc_l1 {
    stc_l1_cfg cfg;
    stc_l1_geom g;
    way_t *w;          /* sets * ways */
    uint32_t *data;    /* sets * ways * line/4, allocated at the first fill with data */
    uint8_t *has_data; /* per way: the fill gave words */
    mshr_t *m;
    uint8_t *touched;
    stc_eset cer;
    unsigned seb, pw;
    stc_l1_stats st;
    uint64_t *inv, *sweep, *poison;
};

void stc_l1_reset(stc_l1 *l)
{
    unsigned s;
    for (s = 0; s < l->cfg.sets; s++)
        set_init(&l->w[(size_t)s * l->cfg.ways], l->cfg.ways);
    memset(l->m, 0, l->cfg.mshrs * sizeof *l->m);
    memset(l->touched, 0, l->cfg.sets);
    if (l->has_data)
        memset(l->has_data, 0, (size_t)l->cfg.sets * l->cfg.ways);
    l->cer = l->cfg.epoch;
    l->seb = l->cfg.seb;
    l->pw = 0;
    memset(&l->st, 0, sizeof l->st);
}

stc_l1 *stc_l1_new(const stc_l1_cfg *c)
{
    stc_l1 *l = calloc(1, sizeof *l);
    size_t nw;
    if (l == NULL)
        return NULL;
    l->cfg = *c;
    stc_l1_geom_of(c, &l->g);
    nw = (size_t)c->sets * c->ways;
    l->w = calloc(nw, sizeof *l->w);
    l->m = calloc(c->mshrs, sizeof *l->m);
    l->touched = calloc(c->sets, 1);
    l->inv = calloc(c->ways, sizeof *l->inv);
    l->sweep = calloc(nw, sizeof *l->sweep);
    l->poison = calloc(c->mshrs, sizeof *l->poison);
    if (!l->w || !l->m || !l->touched || !l->inv || !l->sweep || !l->poison) {
        stc_l1_free(l);
        return NULL;
    }
    stc_l1_reset(l);
    return l;
}

void stc_l1_free(stc_l1 *l)
{
    if (l == NULL)
        return;
    free(l->w);
    free(l->data);
    free(l->has_data);
    free(l->m);
    free(l->touched);
    free(l->inv);
    free(l->sweep);
    free(l->poison);
    free(l);
}

static way_t *set_of(const stc_l1 *l, unsigned s) { return &l->w[(size_t)s * l->cfg.ways]; }

static uint64_t line_addr(const stc_l1 *l, unsigned s, uint64_t tag)
{
    return ((tag << l->g.set_bits) | s) << l->g.line_bits;
}

static int find_mshr(const stc_l1 *l, uint64_t lnum)
{
    unsigned i;
    for (i = 0; i < l->cfg.mshrs; i++)
        if (l->m[i].v && l->m[i].line == lnum)
            return (int)i;
    return -1;
}

static int find_way(const stc_l1 *l, unsigned s, uint64_t tag)
{
    const way_t *w = set_of(l, s);
    unsigned i;
    for (i = 0; i < l->cfg.ways; i++)
        if (w[i].v && w[i].tag == tag)
            return (int)i;
    return -1;
}

static int free_mshr(const stc_l1 *l)
{
    unsigned i;
    for (i = 0; i < l->cfg.mshrs; i++)
        if (!l->m[i].v)
            return (int)i;
    return -1;
}

int stc_l1_current(const stc_l1 *l, uint64_t addr)
{
    return in_set(&l->cer, addr, l->seb, l->cfg.n);
}

int stc_l1_access(stc_l1 *l, stc_l1_op op, uint64_t addr, stc_l1_result *r)
{
    const stc_l1_geom *g = &l->g;
    uint64_t lnum = (addr & cohkit_mask64(l->cfg.addr_bits)) >> g->line_bits;
    unsigned s = (unsigned)(lnum & (l->cfg.sets - 1)), i;
    uint64_t tag = lnum >> g->set_bits;
    way_t *w = set_of(l, s);
    int mi, wi, cur = stc_l1_current(l, lnum << g->line_bits);
    memset(r, 0, sizeof *r);
    r->line = lnum << g->line_bits;
    r->inv = l->inv;
    /* lazy invalidation: the first demand access to the set in this epoch */
    if (l->cfg.lazy && !l->touched[s]) {
        for (i = 0; i < l->cfg.ways; i++)
            if (w[i].v && in_set(&l->cer, line_addr(l, s, w[i].tag), l->seb, l->cfg.n)) {
                w[i].v = 0;
                l->inv[r->ninv++] = line_addr(l, s, w[i].tag);
            }
        qsort(l->inv, r->ninv, sizeof *l->inv, cmp_u64);
        l->touched[s] = 1;
        l->st.lazy_inv += r->ninv;
    }
    mi = find_mshr(l, lnum);
    wi = find_way(l, s, tag);
    r->event = op == STC_L1_OP_ST ? STC_L1_EV_STORE : cur ? STC_L1_EV_LOAD_U : STC_L1_EV_LOAD;
    r->from = mi >= 0 ? (l->m[mi].ii ? STC_L1_II : STC_L1_IV) : wi >= 0 ? STC_L1_V : STC_L1_I;
    r->to = r->from;
    if (mi >= 0) {
        r->stall = STC_L1_STALL_BUSY;
    } else if (op == STC_L1_OP_ST) {
        if (l->pw == g->pw_max) {
            r->stall = STC_L1_STALL_PW;
        } else {
            if (wi >= 0)
                w[wi].v = 0; /* no write allocate: the copy is dropped */
            l->pw++;
            r->to = STC_L1_I;
            r->act = STC_L1_ACT_STORE;
            l->st.stores++;
        }
    } else if (!cur && wi >= 0) {
        lru_use(w, l->cfg.ways, (unsigned)wi);
        r->act = STC_L1_ACT_HIT;
        if (l->has_data && l->has_data[(size_t)s * l->cfg.ways + (unsigned)wi])
            r->data = &l->data[((size_t)s * l->cfg.ways + (unsigned)wi) * (l->cfg.line / 4)];
        l->st.hits++;
    } else {
        int f = free_mshr(l);
        if (f < 0) {
            r->stall = STC_L1_STALL_MSHR;
        } else {
            if (wi >= 0)
                w[wi].v = 0; /* Load_U on V: the copy is dropped */
            l->m[f].v = 1;
            l->m[f].ii = (uint8_t)cur;
            l->m[f].pois = 0;
            l->m[f].line = lnum;
            r->to = cur ? STC_L1_II : STC_L1_IV;
            r->act = cur ? STC_L1_ACT_LOAD_U : STC_L1_ACT_LOAD;
            if (cur)
                l->st.load_us++;
            else
                l->st.loads++;
        }
    }
    if (r->stall != STC_L1_GO)
        l->st.stalls++;
    r->pw = l->pw;
    return 0;
}

int stc_l1_data(stc_l1 *l, uint64_t addr, const uint32_t *words, stc_l1_fill *f)
{
    const stc_l1_geom *g = &l->g;
    uint64_t lnum = (addr & cohkit_mask64(l->cfg.addr_bits)) >> g->line_bits;
    unsigned s = (unsigned)(lnum & (l->cfg.sets - 1));
    uint64_t tag = lnum >> g->set_bits;
    way_t *w = set_of(l, s);
    int mi = find_mshr(l, lnum);
    memset(f, 0, sizeof *f);
    f->line = lnum << g->line_bits;
    if (mi < 0)
        return -1;
    f->poisoned = l->m[mi].pois;
    f->event = (stc_l1_current(l, f->line) || f->poisoned) ? STC_L1_EV_DATA_E : STC_L1_EV_DATA;
    f->from = l->m[mi].ii ? STC_L1_II : STC_L1_IV;
    f->to = STC_L1_I;
    l->m[mi].v = 0;
    if (f->from == STC_L1_IV && f->event == STC_L1_EV_DATA) {
        unsigned v = victim_of(w, l->cfg.ways);
        size_t k = (size_t)s * l->cfg.ways + v;
        if (w[v].v) {
            f->evicted = 1;
            f->victim = line_addr(l, s, w[v].tag);
            l->st.evictions++;
        }
        w[v].v = 1;
        w[v].tag = tag;
        lru_use(w, l->cfg.ways, v);
        if (words != NULL && l->data == NULL) {
            size_t nw = (size_t)l->cfg.sets * l->cfg.ways;
            l->data = calloc(nw * (l->cfg.line / 4), sizeof *l->data);
            l->has_data = calloc(nw, 1);
            if (l->data == NULL || l->has_data == NULL) {
                free(l->data);
                free(l->has_data);
                l->data = NULL;
                l->has_data = NULL;
            }
        }
        if (l->has_data) {
            l->has_data[k] = words != NULL;
            if (words != NULL)
                memcpy(&l->data[k * (l->cfg.line / 4)], words, (l->cfg.line / 4) * sizeof *words);
        }
        f->to = STC_L1_V;
        l->st.fills++;
    } else {
        l->st.fills_e++;
    }
    return 0;
}

stc_l1_state stc_l1_state_of(const stc_l1 *l, uint64_t addr, int *poisoned)
{
    uint64_t lnum = (addr & cohkit_mask64(l->cfg.addr_bits)) >> l->g.line_bits;
    int mi = find_mshr(l, lnum);
    if (poisoned)
        *poisoned = mi >= 0 && l->m[mi].pois;
    if (mi >= 0)
        return l->m[mi].ii ? STC_L1_II : STC_L1_IV;
    return find_way(l, (unsigned)(lnum & (l->cfg.sets - 1)), lnum >> l->g.set_bits) >= 0
               ? STC_L1_V
               : STC_L1_I;
}

int stc_l1_amo_data(stc_l1 *l, uint64_t addr, stc_l1_result *r)
{
    memset(r, 0, sizeof *r);
    r->line = ((addr & cohkit_mask64(l->cfg.addr_bits)) >> l->g.line_bits) << l->g.line_bits;
    r->event = STC_L1_EV_DATA_E;
    r->from = r->to = stc_l1_state_of(l, addr, NULL);
    r->act = STC_L1_ACT_LD;
    r->pw = l->pw;
    r->inv = l->inv;
    return 0;
}

int stc_l1_wa(stc_l1 *l, uint64_t addr, stc_l1_result *r)
{
    memset(r, 0, sizeof *r);
    r->line = ((addr & cohkit_mask64(l->cfg.addr_bits)) >> l->g.line_bits) << l->g.line_bits;
    r->event = STC_L1_EV_WA;
    r->inv = l->inv;
    if (l->pw == 0)
        return -1;
    l->pw--;
    r->from = r->to = stc_l1_state_of(l, addr, NULL);
    r->act = STC_L1_ACT_PW;
    r->pw = l->pw;
    l->st.was++;
    return 0;
}

int stc_l1_chg(stc_l1 *l, const stc_eset *cer, unsigned seb, stc_l1_chg_result *r)
{
    unsigned s, i, e;
    memset(r, 0, sizeof *r);
    r->sweep = l->sweep;
    r->poison = l->poison;
    if (seb < l->cfg.seb_min || seb > l->cfg.seb_max)
        return -1;
    for (e = l->g.epochs; e < 256; e++)
        if (stc_eset_has(cer, e))
            return -1;
    if (l->cfg.lazy) {
        for (s = 0; s < l->cfg.sets; s++) {
            way_t *w = set_of(l, s);
            unsigned first = r->nsweep;
            if (l->touched[s])
                continue;
            for (i = 0; i < l->cfg.ways; i++)
                if (w[i].v && in_set(&l->cer, line_addr(l, s, w[i].tag), l->seb, l->cfg.n)) {
                    w[i].v = 0;
                    l->sweep[r->nsweep++] = line_addr(l, s, w[i].tag);
                }
            qsort(l->sweep + first, r->nsweep - first, sizeof *l->sweep, cmp_u64);
        }
    }
    l->st.sweep_inv += r->nsweep;
    l->cer = *cer;
    l->seb = seb;
    memset(l->touched, 0, l->cfg.sets);
    if (l->cfg.poison)
        for (i = 0; i < l->cfg.mshrs; i++) {
            mshr_t *m = &l->m[i];
            if (m->v && !m->ii && !m->pois &&
                in_set(&l->cer, m->line << l->g.line_bits, l->seb, l->cfg.n)) {
                m->pois = 1;
                l->poison[r->npoison++] = m->line << l->g.line_bits;
            }
        }
    qsort(l->poison, r->npoison, sizeof *l->poison, cmp_u64);
    l->st.poisoned += r->npoison;
    l->st.chgs++;
    return 0;
}

unsigned stc_l1_pw(const stc_l1 *l) { return l->pw; }
unsigned stc_l1_seb(const stc_l1 *l) { return l->seb; }
const stc_eset *stc_l1_cer(const stc_l1 *l) { return &l->cer; }
int stc_l1_touched(const stc_l1 *l, unsigned set) { return set < l->cfg.sets && l->touched[set]; }
const stc_l1_stats *stc_l1_stats_of(const stc_l1 *l) { return &l->st; }
const stc_l1_cfg *stc_l1_cfg_of(const stc_l1 *l) { return &l->cfg; }

unsigned stc_l1_mshrs_used(const stc_l1 *l)
{
    unsigned i, n = 0;
    for (i = 0; i < l->cfg.mshrs; i++)
        n += l->m[i].v;
    return n;
}

static void dump_lines(const way_t *w, const mshr_t *m, unsigned sets, unsigned ways,
                       unsigned mshrs, const stc_l1_geom *g, unsigned pw, FILE *f)
{
    size_t nw = (size_t)sets * ways, n = 0, i;
    uint64_t *a = malloc((nw + mshrs) * sizeof *a);
    unsigned s, k;
    if (a == NULL)
        return;
    for (s = 0; s < sets; s++)
        for (k = 0; k < ways; k++)
            if (w[(size_t)s * ways + k].v)
                a[n++] = ((w[(size_t)s * ways + k].tag << g->set_bits) | s) << g->line_bits;
    qsort(a, n, sizeof *a, cmp_u64);
    for (i = 0; i < n; i++)
        fprintf(f, "LINE 0x%llx V\n", (unsigned long long)a[i]);
    n = 0;
    for (k = 0; k < mshrs; k++)
        if (m[k].v)
            a[n++] = (m[k].line << g->line_bits) | (m[k].ii ? 2u : 0u) | m[k].pois;
    qsort(a, n, sizeof *a, cmp_u64);
    for (i = 0; i < n; i++)
        fprintf(f, "LINE 0x%llx %s%s\n", (unsigned long long)(a[i] & ~3ull),
                (a[i] & 2) ? "I_I" : "I_V", (a[i] & 1) ? " poison" : "");
    fprintf(f, "PW %u\n", pw);
    free(a);
}

void stc_l1_dump(const stc_l1 *l, FILE *f)
{
    dump_lines(l->w, l->m, l->cfg.sets, l->cfg.ways, l->cfg.mshrs, &l->g, l->pw, f);
}

/* -------------------------------------------------------- timing shell -- */

enum { PH_IDLE, PH_SWEEP, PH_POIS };

struct stc_l1_tm {
    stc_l1_cfg cfg;
    stc_l1_geom g;
    way_t *mem;      /* sets * ways: the RAM */
    way_t *rdata;    /* RAM read register (one set word) */
    way_t *fwd;      /* forwarding register */
    int fwd_hit;
    mshr_t *m;
    uint8_t *touched;
    stc_eset cer, ncer;
    unsigned seb, nseb, pw;
    int init;
    unsigned init_idx;
    /* stage */
    int s_valid;
    unsigned s_op;
    uint64_t s_addr;
    uint64_t s_done; /* ways whose lazy INV left */
    int s_evd;       /* eviction INV left */
    /* ChangeEpoch */
    int ph;
    unsigned sw_idx;
    uint64_t sw_done;
    way_t *scratch;  /* new set word */
};

stc_l1_tm *stc_l1_tm_new(const stc_l1_cfg *c)
{
    stc_l1_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->cfg = *c;
    stc_l1_geom_of(c, &t->g);
    t->mem = calloc((size_t)c->sets * c->ways, sizeof *t->mem);
    t->rdata = calloc(c->ways, sizeof *t->rdata);
    t->fwd = calloc(c->ways, sizeof *t->fwd);
    t->scratch = calloc(c->ways, sizeof *t->scratch);
    t->m = calloc(c->mshrs, sizeof *t->m);
    t->touched = calloc(c->sets, 1);
    if (!t->mem || !t->rdata || !t->fwd || !t->scratch || !t->m || !t->touched) {
        stc_l1_tm_free(t);
        return NULL;
    }
    stc_l1_tm_reset(t);
    return t;
}

void stc_l1_tm_free(stc_l1_tm *t)
{
    if (t == NULL)
        return;
    free(t->mem);
    free(t->rdata);
    free(t->fwd);
    free(t->scratch);
    free(t->m);
    free(t->touched);
    free(t);
}

/* Reset: registers only; the RAM keeps its contents and the init pass
 * rewrites every set (so the RAM may hold anything here). */
void stc_l1_tm_reset(stc_l1_tm *t)
{
    memset(t->rdata, 0, t->cfg.ways * sizeof *t->rdata);
    set_init(t->fwd, t->cfg.ways);
    t->fwd_hit = 0;
    memset(t->m, 0, t->cfg.mshrs * sizeof *t->m);
    memset(t->touched, 0, t->cfg.sets);
    t->cer = t->cfg.epoch;
    memset(&t->ncer, 0, sizeof t->ncer);
    t->seb = t->cfg.seb;
    t->nseb = 0;
    t->pw = 0;
    t->init = 1;
    t->init_idx = 0;
    t->s_valid = 0;
    t->s_op = 0;
    t->s_addr = 0;
    t->s_done = 0;
    t->s_evd = 0;
    t->ph = PH_IDLE;
    t->sw_idx = 0;
    t->sw_done = 0;
}

unsigned stc_l1_tm_pw(const stc_l1_tm *t) { return t->pw; }
int stc_l1_tm_idle(const stc_l1_tm *t) { return !t->init && !t->s_valid && t->ph == PH_IDLE; }

void stc_l1_tm_dump(const stc_l1_tm *t, FILE *f)
{
    dump_lines(t->mem, t->m, t->cfg.sets, t->cfg.ways, t->cfg.mshrs, &t->g, t->pw, f);
}

static int tm_cer_has(const stc_eset *cer, uint64_t byte_addr, unsigned seb, unsigned n)
{
    return in_set(cer, byte_addr, seb, n);
}

/* Everything the stage decides this cycle (the RTL's combinational logic). */
typedef struct {
    int ev_valid;
    unsigned kind, event, from, to, act, pw;
    uint64_t line;      /* line number */
    int final;          /* the stage's last event (write back, accept next) */
    int lazy_way;       /* the lazy INV shown, or -1 */
    int evict_shown;    /* the eviction INV shown */
    /* final effects */
    way_t *word;        /* new set word (t->scratch) */
    int mshr_alloc, mshr_free, alloc_ii;
    unsigned pw_new;
    int touch;
} stage_t;

static const way_t *stage_word(const stc_l1_tm *t) { return t->fwd_hit ? t->fwd : t->rdata; }

static uint64_t way_laddr(const stc_l1_tm *t, unsigned s, uint64_t tag)
{
    return ((tag << t->g.set_bits) | s) << t->g.line_bits;
}

static void stage_eval(const stc_l1_tm *t, stage_t *x)
{
    const stc_l1_cfg *c = &t->cfg;
    const way_t *wd = stage_word(t);
    way_t *nw = t->scratch;
    uint64_t lnum = (t->s_addr & cohkit_mask64(c->addr_bits)) >> t->g.line_bits;
    unsigned s = (unsigned)(lnum & (c->sets - 1)), i;
    uint64_t tag = lnum >> t->g.set_bits, lz = 0, pend;
    int demand = t->s_op == STC_L1_REQ_LD || t->s_op == STC_L1_REQ_ST;
    int cur = tm_cer_has(&t->cer, lnum << t->g.line_bits, t->seb, c->n);
    int mi = -1, wi = -1, fr = -1;
    memset(x, 0, sizeof *x);
    x->lazy_way = -1;
    x->word = nw;
    x->line = lnum;
    x->pw = t->pw;
    x->pw_new = t->pw;
    if (!t->s_valid || t->init)
        return;
    x->ev_valid = 1;
    memcpy(nw, wd, c->ways * sizeof *nw);
    if (c->lazy && demand && !t->touched[s])
        for (i = 0; i < c->ways; i++)
            if (wd[i].v && tm_cer_has(&t->cer, way_laddr(t, s, wd[i].tag), t->seb, c->n))
                lz |= 1ull << i;
    for (i = 0; i < c->ways; i++)
        if ((lz >> i) & 1)
            nw[i].v = 0;
    x->touch = c->lazy && demand;
    pend = lz & ~t->s_done;
    if (pend) {
        for (i = 0; !((pend >> i) & 1); i++)
            ;
        x->kind = STC_L1_K_INV_LAZY;
        x->line = way_laddr(t, s, wd[i].tag) >> t->g.line_bits;
        x->lazy_way = (int)i;
        return;
    }
    for (i = 0; i < c->mshrs; i++)
        if (t->m[i].v && t->m[i].line == lnum && mi < 0)
            mi = (int)i;
    for (i = 0; i < c->mshrs; i++)
        if (!t->m[i].v && fr < 0)
            fr = (int)i;
    for (i = 0; i < c->ways; i++)
        if (nw[i].v && nw[i].tag == tag && wi < 0)
            wi = (int)i;
    x->from = mi >= 0 ? (t->m[mi].ii ? STC_L1_II : STC_L1_IV) : wi >= 0 ? STC_L1_V : STC_L1_I;
    x->to = x->from;
    x->kind = STC_L1_K_T;
    switch (t->s_op) {
    case STC_L1_REQ_LD:
        x->event = cur ? STC_L1_EV_LOAD_U : STC_L1_EV_LOAD;
        if (mi >= 0) {
            x->kind = STC_L1_K_STALL;
        } else if (!cur && wi >= 0) {
            x->act = STC_L1_ACT_HIT;
            lru_use(nw, c->ways, (unsigned)wi);
        } else if (fr < 0) {
            x->kind = STC_L1_K_STALL;
        } else {
            if (wi >= 0)
                nw[wi].v = 0;
            x->to = cur ? STC_L1_II : STC_L1_IV;
            x->act = cur ? STC_L1_ACT_LOAD_U : STC_L1_ACT_LOAD;
            x->mshr_alloc = fr + 1;
            x->alloc_ii = cur;
        }
        break;
    case STC_L1_REQ_ST:
        x->event = STC_L1_EV_STORE;
        if (mi >= 0 || t->pw == t->g.pw_max) {
            x->kind = STC_L1_K_STALL;
        } else {
            if (wi >= 0)
                nw[wi].v = 0;
            x->to = STC_L1_I;
            x->act = STC_L1_ACT_STORE;
            x->pw_new = t->pw + 1;
        }
        break;
    case STC_L1_REQ_DATA:
        if (mi < 0) {
            x->kind = STC_L1_K_ERR;
            break;
        }
        x->event = (cur || t->m[mi].pois) ? STC_L1_EV_DATA_E : STC_L1_EV_DATA;
        x->act = STC_L1_ACT_LD;
        x->mshr_free = mi + 1;
        x->to = STC_L1_I;
        if (x->from == STC_L1_IV && x->event == STC_L1_EV_DATA) {
            unsigned v = victim_of(nw, c->ways);
            if (nw[v].v && !t->s_evd) {
                x->kind = STC_L1_K_INV_EVICT;
                x->line = way_laddr(t, s, nw[v].tag) >> t->g.line_bits;
                x->evict_shown = 1;
                x->from = x->to = 0;
                x->act = 0;
                x->event = 0;
                x->mshr_free = 0;
                return;
            }
            nw[v].v = 1;
            nw[v].tag = tag;
            lru_use(nw, c->ways, v);
            x->to = STC_L1_V;
        }
        break;
    default: /* WA */
        if (t->pw == 0) {
            x->kind = STC_L1_K_ERR;
            break;
        }
        x->event = STC_L1_EV_WA;
        x->act = STC_L1_ACT_PW;
        x->pw_new = t->pw - 1;
        break;
    }
    if (x->kind == STC_L1_K_ERR) {
        x->from = x->to = 0;
        x->event = 0;
        x->act = 0;
    }
    x->pw = x->pw_new;
    x->final = 1;
}

/* The ChangeEpoch engine's event this cycle. */
typedef struct {
    int ev_valid;
    unsigned kind;
    uint64_t line;
    int way;       /* sweep INV shown */
    int entry;     /* POISON shown */
    int advance;   /* sweep: set done (write back, next read) */
    int apply;     /* POIS: take the new CER/SEB */
    uint64_t sm;   /* sweep mask of the set */
} chg_t;

static void chg_eval(const stc_l1_tm *t, chg_t *x)
{
    const stc_l1_cfg *c = &t->cfg;
    unsigned i;
    memset(x, 0, sizeof *x);
    x->way = x->entry = -1;
    if (t->ph == PH_SWEEP) {
        uint64_t pend;
        if (!t->touched[t->sw_idx])
            for (i = 0; i < c->ways; i++)
                if (t->rdata[i].v &&
                    tm_cer_has(&t->cer, way_laddr(t, t->sw_idx, t->rdata[i].tag), t->seb, c->n))
                    x->sm |= 1ull << i;
        pend = x->sm & ~t->sw_done;
        if (pend) {
            for (i = 0; !((pend >> i) & 1); i++)
                ;
            x->ev_valid = 1;
            x->kind = STC_L1_K_INV_SWEEP;
            x->line = way_laddr(t, t->sw_idx, t->rdata[i].tag) >> t->g.line_bits;
            x->way = (int)i;
        } else {
            x->advance = 1;
        }
    } else if (t->ph == PH_POIS) {
        for (i = 0; i < c->mshrs; i++) {
            const mshr_t *m = &t->m[i];
            if (c->poison && m->v && !m->ii && !m->pois &&
                tm_cer_has(&t->ncer, m->line << t->g.line_bits, t->nseb, c->n)) {
                x->ev_valid = 1;
                x->kind = STC_L1_K_POISON;
                x->line = m->line;
                x->entry = (int)i;
                return;
            }
        }
        x->apply = 1;
    }
}

static int req_ready(const stc_l1_tm *t, const stc_l1_in *in, const stage_t *sx)
{
    return !t->init && t->ph == PH_IDLE && !(in->chg_valid_i & 1) &&
           (!t->s_valid || (sx->final && (in->ev_ready_i & 1)));
}

void stc_l1_eval(const stc_l1_tm *t, const stc_l1_in *in, stc_l1_out *o)
{
    stage_t sx;
    chg_t cx;
    memset(o, 0, sizeof *o);
    stage_eval(t, &sx);
    chg_eval(t, &cx);
    o->req_ready_o = (uint64_t)req_ready(t, in, &sx);
    o->chg_ready_o = !t->init && t->ph == PH_IDLE && !t->s_valid;
    o->chg_done_o = (uint64_t)cx.apply;
    o->pw_o = t->pw;
    if (sx.ev_valid) {
        o->ev_valid_o = 1;
        o->ev_kind_o = sx.kind;
        o->ev_event_o = sx.event;
        o->ev_line_o = sx.line;
        o->ev_from_o = sx.from;
        o->ev_to_o = sx.to;
        o->ev_act_o = sx.act;
        o->ev_pw_o = sx.pw;
    } else if (cx.ev_valid) {
        o->ev_valid_o = 1;
        o->ev_kind_o = cx.kind;
        o->ev_line_o = cx.line;
        o->ev_pw_o = t->pw;
    } else {
        o->ev_pw_o = t->pw;
    }
}

static void read_set(stc_l1_tm *t, unsigned s)
{
    memcpy(t->rdata, &t->mem[(size_t)s * t->cfg.ways], t->cfg.ways * sizeof *t->rdata);
}

void stc_l1_step(stc_l1_tm *t, const stc_l1_in *in)
{
    const stc_l1_cfg *c = &t->cfg;
    stage_t sx;
    chg_t cx;
    int req_fire, chg_fire, ev_fire, wr = 0;
    unsigned wr_idx = 0, i;
    uint64_t new_addr = 0;
    if (!(in->rst_ni & 1)) {
        stc_l1_tm_reset(t);
        return;
    }
    if (t->init) {
        set_init(&t->mem[(size_t)t->init_idx * c->ways], c->ways);
        if (t->init_idx == c->sets - 1)
            t->init = 0;
        else
            t->init_idx++;
        return;
    }
    stage_eval(t, &sx);
    chg_eval(t, &cx);
    req_fire = (in->req_valid_i & 1) && req_ready(t, in, &sx);
    chg_fire = (in->chg_valid_i & 1) && t->ph == PH_IDLE && !t->s_valid;
    ev_fire = in->ev_ready_i & 1;
    if (req_fire)
        new_addr = in->req_addr_i & cohkit_mask64(c->addr_bits);
    /* stage */
    if (sx.ev_valid && ev_fire) {
        if (sx.lazy_way >= 0) {
            t->s_done |= 1ull << sx.lazy_way;
        } else if (sx.evict_shown) {
            t->s_evd = 1;
        } else if (sx.final) {
            uint64_t lnum = (t->s_addr & cohkit_mask64(c->addr_bits)) >> t->g.line_bits;
            unsigned s = (unsigned)(lnum & (c->sets - 1));
            wr = 1;
            wr_idx = s;
            if (sx.touch)
                t->touched[s] = 1;
            if (sx.mshr_alloc) {
                mshr_t *m = &t->m[sx.mshr_alloc - 1];
                m->v = 1;
                m->ii = (uint8_t)sx.alloc_ii;
                m->pois = 0;
                m->line = lnum;
            }
            if (sx.mshr_free)
                t->m[sx.mshr_free - 1].v = 0;
            t->pw = sx.pw_new;
            t->s_valid = 0;
        }
    }
    /* ChangeEpoch engine */
    if (t->ph == PH_SWEEP) {
        if (cx.ev_valid && ev_fire) {
            t->sw_done |= 1ull << cx.way;
        } else if (cx.advance) {
            way_t *m = &t->mem[(size_t)t->sw_idx * c->ways];
            for (i = 0; i < c->ways; i++) {
                m[i] = t->rdata[i];
                if ((cx.sm >> i) & 1)
                    m[i].v = 0;
            }
            t->sw_done = 0;
            if (t->sw_idx == c->sets - 1) {
                t->ph = PH_POIS;
            } else {
                t->sw_idx++;
                read_set(t, t->sw_idx);
            }
        }
    } else if (t->ph == PH_POIS) {
        if (cx.ev_valid && ev_fire) {
            t->m[cx.entry].pois = 1;
        } else if (cx.apply) {
            t->cer = t->ncer;
            t->seb = t->nseb;
            memset(t->touched, 0, c->sets);
            t->ph = PH_IDLE;
        }
    }
    if (chg_fire) {
        memset(&t->ncer, 0, sizeof t->ncer);
        for (i = 0; i < t->g.epochs; i++)
            if ((in->chg_cer_i[i / 64] >> (i % 64)) & 1)
                stc_eset_add(&t->ncer, i);
        t->nseb = (unsigned)(in->chg_seb_i & cohkit_mask64(t->g.seb_bits));
        t->sw_idx = 0;
        t->sw_done = 0;
        if (c->lazy) {
            t->ph = PH_SWEEP;
            read_set(t, 0);
        } else {
            t->ph = PH_POIS;
        }
    }
    /* the accepted request reads its set; a write to that set in the same
     * cycle reaches it through the forwarding register */
    if (req_fire) {
        unsigned s = (unsigned)((new_addr >> t->g.line_bits) & (c->sets - 1));
        read_set(t, s);
        t->fwd_hit = wr && wr_idx == s;
        if (t->fwd_hit)
            memcpy(t->fwd, sx.word, c->ways * sizeof *t->fwd);
        t->s_valid = 1;
        t->s_op = (unsigned)(in->req_op_i & 3);
        t->s_addr = new_addr;
        t->s_done = 0;
        t->s_evd = 0;
    }
    if (wr)
        memcpy(&t->mem[(size_t)wr_idx * c->ways], sx.word, c->ways * sizeof *sx.word);
}
