/*
 * HALCONE TSU golden model: configuration, functional core and timing shell.
 * Paper sections: 3.2.5 (organisation, victim, eviction notices), Alg. 3 and
 * Fig. 5 (grants), 3.2.6 (overflow). The arithmetic and the fixes S2-S4 are
 * the family specification's (3.1, 5.2, 5.4); see halcone_tsu.h and
 * docs/halcone.md.
 */
#include "halcone_tsu.h"
#include "bits.h"
#include "cfg_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *halcone_wrwts_str(halcone_wrwts v) { return v == HALCONE_WRWTS_LITERAL ? "literal" : "plus1"; }
const char *halcone_floor_str(halcone_floor v)
{
    return v == HALCONE_FLOOR_GLOBAL ? "global" : v == HALCONE_FLOOR_SET ? "set" : "none";
}
const char *halcone_overflow_str(halcone_overflow v) { return v == HALCONE_OVF_RESET ? "reset" : "reinit"; }
const char *halcone_share_str(halcone_share v)
{
    static const char *const s[] = {"now", "rts", "keep", "remove"};
    return s[(unsigned)v & 3];
}

void halcone_tsu_cfg_default(halcone_tsu_cfg *c)
{
    static const halcone_tsu_cfg d = {.sets = 512, .ways = 8, .line = 64, .addr_bits = 48,
                                      .ts_bits = 16, .tag_bits = 8, .rd_lease = 10, .wr_lease = 5,
                                      .share_test = HALCONE_SHARE_NOW};
    *c = d;
    halcone_tsu_cfg_rules(c, "safe");
}

/* fpga: a prototype on an iCE40 HX8K, 256 entries, 32-bit addresses */
static const cohkit_cfg_preset presets[] = {
    {"default", ""},
    {"fpga", "--sets 64 --ways 4 --addr-bits 32"},
    {NULL, NULL},
};

int halcone_tsu_cfg_preset(halcone_tsu_cfg *c, const char *name)
{
    halcone_tsu_cfg_default(c);
    if (strcmp(name, "paper") == 0)
        return halcone_tsu_cfg_rules(c, "paper");
    return cohkit_cfg_preset_apply(&halcone_tsu_opts, presets, c, name);
}

static const cohkit_unit_opt_choice wr_wts[] = {
    {"literal", HALCONE_WRWTS_LITERAL, 0}, {"plus1", HALCONE_WRWTS_PLUS1, 0}, {NULL, 0, 0}};
static const cohkit_unit_opt_choice floors[] = {{"none", HALCONE_FLOOR_NONE, 0},
                                                {"global", HALCONE_FLOOR_GLOBAL, 0},
                                                {"set", HALCONE_FLOOR_SET, 0},
                                                {NULL, 0, 0}};
static const cohkit_unit_opt_choice overflows[] = {
    {"reinit", HALCONE_OVF_REINIT, 0}, {"reset", HALCONE_OVF_RESET, 0}, {NULL, 0, 0}};
static const cohkit_unit_opt_choice on_off[] = {{"on", 1, 0}, {"off", 0, 0}, {NULL, 0, 0}};
static const cohkit_unit_opt_choice shares[] = {{"now", HALCONE_SHARE_NOW, 0},
                                                {"rts", HALCONE_SHARE_RTS, 0},
                                                {"keep", HALCONE_SHARE_KEEP, 0},
                                                {"remove", HALCONE_SHARE_REMOVE, 0},
                                                {NULL, 0, 0}};

/* The cache units' switches (spec 7.1), accepted on a common command line
 * and without effect on the TSU. */
static int cache_switch(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    (void)cfg;
    if (value && (strcmp(value, "on") == 0 || strcmp(value, "off") == 0))
        return 0;
    snprintf(err, len, "--%s: '%s' is not on or off", name, value ? value : "");
    return -1;
}

static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_NUM("sets", "N", "sets, power of two (default 512)", halcone_tsu_cfg, sets),
    COHKIT_UNIT_OPT_NUM("ways", "N", "ways, 1..16 (default 8)", halcone_tsu_cfg, ways),
    COHKIT_UNIT_OPT_NUM("line", "B", "block bytes (default 64)", halcone_tsu_cfg, line),
    COHKIT_UNIT_OPT_NUM("addr-bits", "N", "byte-address width, 16..64 (default 48)", halcone_tsu_cfg,
                        addr_bits),
    COHKIT_UNIT_OPT_NUM("ts-bits", "N", "timestamp width W, 4..32 (default 16)", halcone_tsu_cfg,
                        ts_bits),
    COHKIT_UNIT_OPT_NUM("tag-bits", "N", "request tag width, 1..16 (default 8)", halcone_tsu_cfg,
                        tag_bits),
    COHKIT_UNIT_OPT_NUM("rd-lease", "N", "RdLease register reset value (default 10)",
                        halcone_tsu_cfg, rd_lease),
    COHKIT_UNIT_OPT_NUM("wr-lease", "N", "WrLease register reset value (default 5)",
                        halcone_tsu_cfg, wr_lease),
    COHKIT_UNIT_OPT_CHOICE("wr-wts", "M",
                           "plus1 (Fig. 5, default) or literal (Alg. 3: write wts = memts)",
                           halcone_tsu_cfg, wr_wts, wr_wts),
    COHKIT_UNIT_OPT_CHOICE("floor", "F",
                           "none (paper), global (safe) or set: new entries start at the\n"
                           "largest memts the TSU dropped (S2)",
                           halcone_tsu_cfg, floor, floors),
    COHKIT_UNIT_OPT_CHOICE("overflow", "O",
                           "reinit (paper: the overflowing memts restarts at 0) or reset\n"
                           "(safe: global epoch reset, S3)",
                           halcone_tsu_cfg, overflow, overflows),
    COHKIT_UNIT_OPT_CHOICE("req-cts", "C", "on (safe) or off (paper): grants use the L2's cts (S4)",
                           halcone_tsu_cfg, req_cts, on_off),
    COHKIT_UNIT_OPT_CHOICE("share-test", "T",
                           "now, rts, keep or remove (eviction notice test, default now)",
                           halcone_tsu_cfg, share_test, shares),
    COHKIT_UNIT_OPT_FN("lease-ext", "X", "on or off: a cache unit's switch, accepted and ignored here",
                       cache_switch, NULL, .flags = COHKIT_UNIT_OPT_NOARGS),
    COHKIT_UNIT_OPT_FN("read-cts", "X", "on or off: a cache unit's switch, accepted and ignored here",
                       cache_switch, NULL, .flags = COHKIT_UNIT_OPT_NOARGS),
    COHKIT_UNIT_OPT_END,
};
const cohkit_unit_opt_table halcone_tsu_opts = {opts, "a non-negative decimal integer",
                                                0xffffffffUL, 10, 0, NULL};

COHKIT_CFG_OPTION_FN(halcone_tsu, halcone_tsu_cfg)
COHKIT_CFG_ARGS_FN(halcone_tsu, halcone_tsu_cfg)

static const cohkit_cfg_preset rule_sets[] = {
    {"safe", "--wr-wts plus1 --floor global --overflow reset --req-cts on"},
    {"paper", "--wr-wts plus1 --floor none --overflow reinit --req-cts off"},
    {NULL, NULL},
};

int halcone_tsu_cfg_rules(halcone_tsu_cfg *c, const char *rules)
{
    return rules ? cohkit_cfg_preset_apply(&halcone_tsu_opts, rule_sets, c, rules) : -1;
}

int halcone_tsu_cfg_check(const halcone_tsu_cfg *c, char *err, size_t len)
{
    unsigned laddr, ib;
    uint64_t tsmax;
    if (cohkit_cfg_range_pow2(err, len, "sets", c->sets, 1, 65536) ||
        cohkit_cfg_range(err, len, "ways", c->ways, 1, 16) ||
        cohkit_cfg_range_pow2(err, len, "line", c->line, 4, 4096) ||
        cohkit_cfg_range(err, len, "addr-bits", c->addr_bits, 16, 64) ||
        cohkit_cfg_range(err, len, "ts-bits", c->ts_bits, 4, 32) ||
        cohkit_cfg_range(err, len, "tag-bits", c->tag_bits, 1, 16))
        return -1;
    tsmax = cohkit_mask64(c->ts_bits);
    if (c->rd_lease < 1 || c->rd_lease > tsmax)
        return cohkit_cfg_fail(err, len, "--rd-lease %u: must be 1..%llu for --ts-bits %u",
                               c->rd_lease, (unsigned long long)tsmax, c->ts_bits);
    if (c->wr_lease < 1 || c->wr_lease > tsmax)
        return cohkit_cfg_fail(err, len, "--wr-lease %u: must be 1..%llu for --ts-bits %u",
                               c->wr_lease, (unsigned long long)tsmax, c->ts_bits);
    laddr = c->addr_bits - cohkit_ilog2(c->line);
    ib = cohkit_ilog2(c->sets);
    if (laddr <= ib)
        return cohkit_cfg_fail(err, len, "--sets %u: needs more index bits than the %u-bit line address",
                               c->sets, laddr);
    if ((unsigned)c->wr_wts > 1 || (unsigned)c->floor > 2 || (unsigned)c->overflow > 1 ||
        c->req_cts > 1 || (unsigned)c->share_test > 3)
        return cohkit_cfg_fail(err, len, "unknown switch value");
    return 0;
}

void halcone_tsu_geom_of(const halcone_tsu_cfg *c, halcone_tsu_geom *g)
{
    memset(g, 0, sizeof *g);
    g->index_bits = cohkit_ilog2(c->sets);
    g->line_bits = cohkit_ilog2(c->line);
    g->laddr_bits = c->addr_bits - g->line_bits;
    g->tag_bits = g->laddr_bits - g->index_bits;
    g->entry_bits = 1 + g->tag_bits + c->ts_bits;
    g->floor_bits = c->floor == HALCONE_FLOOR_SET ? c->ts_bits : 0;
    g->set_bits = c->ways * g->entry_bits + g->floor_bits;
    g->epoch_bits = 16;
    g->ts_max = cohkit_mask64(c->ts_bits);
    g->entries = (uint64_t)c->sets * c->ways;
    g->paper_bits = g->entries * c->ts_bits;
    g->ram_bits = (uint64_t)c->sets * g->set_bits;
    g->reg_bits = (c->floor == HALCONE_FLOOR_GLOBAL ? c->ts_bits : 0) + c->ts_bits /* now */ +
                  g->epoch_bits + 2u * c->ts_bits;
}

static char floor_ch(halcone_floor f) { return f == HALCONE_FLOOR_GLOBAL ? 'g' : f == HALCONE_FLOOR_SET ? 's' : 'n'; }

void halcone_tsu_cfg_name(const halcone_tsu_cfg *c, char *buf, size_t len)
{
    snprintf(buf, len, "halcone_tsu_s%u_w%u_l%u_a%u_t%u_q%u_r%u_w%u_%s_f%c_%s_c%u_s%c", c->sets,
             c->ways, c->line, c->addr_bits, c->ts_bits, c->tag_bits, c->rd_lease, c->wr_lease,
             c->wr_wts == HALCONE_WRWTS_LITERAL ? "lit" : "p1", floor_ch(c->floor),
             c->overflow == HALCONE_OVF_RESET ? "rs" : "ri", c->req_cts,
             "nrkx"[(unsigned)c->share_test & 3]);
}

/* ---------------------------------------------------------------- core -- */

halcone_tsu *halcone_tsu_new(const halcone_tsu_cfg *cfg)
{
    halcone_tsu *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->cfg = *cfg;
    halcone_tsu_geom_of(cfg, &t->g);
    t->ent = calloc((size_t)t->g.entries, sizeof *t->ent);
    t->set_floor = calloc(cfg->sets, sizeof *t->set_floor);
    if (t->ent == NULL || t->set_floor == NULL) {
        halcone_tsu_free(t);
        return NULL;
    }
    halcone_tsu_reset(t);
    return t;
}

void halcone_tsu_free(halcone_tsu *t)
{
    if (t == NULL)
        return;
    free(t->ent);
    free(t->set_floor);
    free(t);
}

static void clear_state(halcone_tsu *t)
{
    memset(t->ent, 0, (size_t)t->g.entries * sizeof *t->ent);
    memset(t->set_floor, 0, t->cfg.sets * sizeof *t->set_floor);
    t->floor = 0;
    t->now = 0;
}

void halcone_tsu_reset(halcone_tsu *t)
{
    clear_state(t);
    t->epoch = 0;
    t->rd_lease = (uint32_t)(t->cfg.rd_lease & t->g.ts_max);
    t->wr_lease = (uint32_t)(t->cfg.wr_lease & t->g.ts_max);
    memset(&t->st, 0, sizeof t->st);
}

uint32_t halcone_tsu_epoch_reset(halcone_tsu *t)
{
    clear_state(t);
    t->epoch = (uint32_t)((t->epoch + 1) & cohkit_mask64(t->g.epoch_bits));
    t->st.resets++;
    return t->epoch;
}

void halcone_tsu_set_leases(halcone_tsu *t, uint32_t rd_lease, uint32_t wr_lease)
{
    rd_lease &= (uint32_t)t->g.ts_max;
    wr_lease &= (uint32_t)t->g.ts_max;
    if (rd_lease)
        t->rd_lease = rd_lease;
    if (wr_lease)
        t->wr_lease = wr_lease;
}

/* Set and tag of a byte address. */
static void locate(const halcone_tsu *t, uint64_t addr, unsigned *set, uint64_t *tag)
{
    uint64_t line = (addr & cohkit_mask64(t->cfg.addr_bits)) >> t->g.line_bits;
    *set = (unsigned)(line & cohkit_mask64(t->g.index_bits));
    *tag = line >> t->g.index_bits;
}

static uint64_t block_addr(const halcone_tsu *t, unsigned set, uint64_t tag)
{
    return ((tag << t->g.index_bits) | set) << t->g.line_bits;
}

static int find(const halcone_tsu *t, unsigned set, uint64_t tag)
{
    const halcone_tsu_entry *s = &t->ent[(size_t)set * t->cfg.ways];
    unsigned w;
    for (w = 0; w < t->cfg.ways; w++)
        if (s[w].valid && s[w].tag == tag)
            return (int)w;
    return -1;
}

uint32_t halcone_tsu_floor_of(const halcone_tsu *t, uint64_t addr)
{
    unsigned set;
    uint64_t tag;
    locate(t, addr, &set, &tag);
    if (t->cfg.floor == HALCONE_FLOOR_GLOBAL)
        return t->floor;
    if (t->cfg.floor == HALCONE_FLOOR_SET)
        return t->set_floor[set];
    return 0;
}

uint32_t halcone_tsu_memts(const halcone_tsu *t, uint64_t addr, int *present)
{
    unsigned set;
    uint64_t tag;
    int w;
    locate(t, addr, &set, &tag);
    w = find(t, set, tag);
    if (present)
        *present = w >= 0;
    if (w >= 0)
        return t->ent[(size_t)set * t->cfg.ways + (unsigned)w].memts;
    return halcone_tsu_floor_of(t, addr);
}

/* An entry leaves the TSU (victim or removal): the floor keeps its memts
 * (S2). Returns 1 when the floor rose. */
/* The way of a new entry (Alg. 3 AddEntryToTSU): invalid ways first (lowest
 * index), else the lowest memts, ties to the lowest way (3.2.5, H11). *m
 * gets the memts the entry starts from: the floor, raised to the victim's
 * memts unless the floor is off. */
static unsigned pick_way(const halcone_tsu *t, const halcone_tsu_entry *s, uint64_t addr,
                         uint32_t *m)
{
    unsigned w, v = 0, ways = t->cfg.ways;
    *m = halcone_tsu_floor_of(t, addr);
    for (w = 0; w < ways; w++)
        if (!s[w].valid)
            return w;
    for (w = 1; w < ways; w++)
        if (s[w].memts < s[v].memts)
            v = w;
    if (t->cfg.floor != HALCONE_FLOOR_NONE && s[v].memts > *m)
        *m = s[v].memts;
    return v;
}

static int drop_memts(halcone_tsu *t, unsigned set, uint32_t memts, halcone_tsu_result *r)
{
    uint32_t *f = t->cfg.floor == HALCONE_FLOOR_GLOBAL ? &t->floor
                  : t->cfg.floor == HALCONE_FLOOR_SET  ? &t->set_floor[set]
                                                       : NULL;
    if (f == NULL || memts <= *f)
        return 0;
    *f = memts;
    r->floor_raised = 1;
    r->floor = memts;
    r->floor_set = t->cfg.floor == HALCONE_FLOOR_SET ? set : 0;
    t->st.floor_raises++;
    return 1;
}

/* The grant of spec 3.1 from memts m and the requester's cts c (already 0
 * without req-cts), in 64-bit arithmetic; the caller tests rts > 2^W - 1. */
static void grant_of(const halcone_tsu *t, int write, uint64_t m, uint64_t c, uint64_t lease,
                     uint64_t *wts, uint64_t *rts)
{
    if (!write) {
        *wts = m;
        *rts = (m > c ? m : c) + lease;
    } else if (t->cfg.wr_wts == HALCONE_WRWTS_PLUS1) {
        *wts = m + 1 > c ? m + 1 : c;
        *rts = *wts + lease - 1;
    } else {
        *wts = m > c ? m : c;
        *rts = *wts + lease;
    }
}

static halcone_tsu_result grant(halcone_tsu *t, int write, uint64_t addr, uint32_t cts,
                                uint32_t lease)
{
    halcone_tsu_result r;
    unsigned set, ways = t->cfg.ways;
    uint64_t tag, wts, rts, c;
    halcone_tsu_entry *s, *e;
    int hw;
    memset(&r, 0, sizeof r);
    r.kind = HALCONE_TSU_GRANT;
    locate(t, addr, &set, &tag);
    r.addr = block_addr(t, set, tag);
    lease &= (uint32_t)t->g.ts_max;
    if (lease == 0)
        lease = write ? t->wr_lease : t->rd_lease;
    c = t->cfg.req_cts ? (cts & t->g.ts_max) : 0;
    if (write)
        t->st.writes++;
    else
        t->st.reads++;
    s = &t->ent[(size_t)set * ways];
    hw = find(t, set, tag);
    if (hw >= 0) {
        e = &s[hw];
        r.hit = 1;
        t->st.hits++;
        r.memts = e->memts;
        grant_of(t, write, e->memts, c, lease, &wts, &rts);
        if (rts > t->g.ts_max && t->cfg.overflow == HALCONE_OVF_RESET)
            goto reset;
    } else {
        /* Allocate (Alg. 3 AddEntryToTSU): invalid ways first (lowest index),
         * else the lowest memts, ties to the lowest way (3.2.5, H11). The
         * reset check comes first: a request that overflows is served in the
         * new epoch, where nothing of the old one (victim, floor) remains. */
        uint32_t m;
        unsigned v = pick_way(t, s, addr, &m);
        grant_of(t, write, m, c, lease, &wts, &rts);
        if (rts > t->g.ts_max && t->cfg.overflow == HALCONE_OVF_RESET)
            goto reset;
        e = &s[v];
        if (e->valid) {
            r.victim = 1;
            r.victim_addr = block_addr(t, set, e->tag);
            r.victim_memts = e->memts;
            t->st.victims++;
            drop_memts(t, set, e->memts, &r);
        }
        t->st.allocs++;
        e->valid = 1;
        e->tag = tag;
        e->memts = m;
        r.memts = m;
    }
    if (rts > t->g.ts_max) {
        /* Paper overflow (3.2.6, H12): the memts restarts at 0, and so does
         * the requester's time. */
        r.wrap = 1;
        r.memts = 0;
        t->st.wraps++;
        grant_of(t, write, 0, 0, lease, &wts, &rts);
    }
    goto done;
reset:
    /* S3: every entry, the floors and now are cleared, the epoch advances,
     * and the request is served in the new epoch from memts 0 at cts 0. */
    halcone_tsu_epoch_reset(t);
    r.reset = 1;
    r.hit = 0;
    r.memts = 0;
    grant_of(t, write, 0, 0, lease, &wts, &rts);
    e = &s[0];
    e->valid = 1;
    e->tag = tag;
    t->st.allocs++;
done:
    e->memts = (uint32_t)rts;
    r.wts = (uint32_t)wts;
    r.rts = (uint32_t)rts;
    if (rts > t->now)
        t->now = (uint32_t)rts;
    r.epoch = t->epoch;
    return r;
}

halcone_tsu_result halcone_tsu_read(halcone_tsu *t, uint64_t addr, uint32_t cts, uint32_t lease)
{
    return grant(t, 0, addr, cts, lease);
}

halcone_tsu_result halcone_tsu_write(halcone_tsu *t, uint64_t addr, uint32_t cts, uint32_t lease)
{
    return grant(t, 1, addr, cts, lease);
}

halcone_tsu_result halcone_tsu_evict(halcone_tsu *t, uint64_t addr, uint32_t rts)
{
    halcone_tsu_result r;
    unsigned set;
    uint64_t tag;
    int w, shared;
    halcone_tsu_entry *e;
    memset(&r, 0, sizeof r);
    locate(t, addr, &set, &tag);
    r.addr = block_addr(t, set, tag);
    r.epoch = t->epoch;
    t->st.notices++;
    w = find(t, set, tag);
    if (w < 0) {
        r.kind = HALCONE_TSU_ABSENT;
        t->st.absents++;
        return r;
    }
    e = &t->ent[(size_t)set * t->cfg.ways + (unsigned)w];
    r.memts = e->memts;
    switch (t->cfg.share_test) {
    case HALCONE_SHARE_NOW: {
        /* shared iff now - memts < max(RdLease, WrLease) (H10, H21) */
        uint64_t lmax = t->rd_lease > t->wr_lease ? t->rd_lease : t->wr_lease;
        shared = (uint64_t)e->memts + lmax > t->now;
        break;
    }
    case HALCONE_SHARE_RTS:
        shared = e->memts > (rts & t->g.ts_max);
        break;
    case HALCONE_SHARE_KEEP:
        shared = 1;
        break;
    default:
        shared = 0;
        break;
    }
    if (shared) {
        r.kind = HALCONE_TSU_KEEP;
        t->st.keeps++;
        return r;
    }
    r.kind = HALCONE_TSU_REMOVE;
    t->st.removes++;
    e->valid = 0;
    drop_memts(t, set, e->memts, &r);
    return r;
}

halcone_tsu_result halcone_tsu_request(halcone_tsu *t, halcone_tsu_op op, uint64_t addr,
                                       uint32_t cts, uint32_t lease, uint32_t rts)
{
    halcone_tsu_result r;
    switch (op) {
    case HALCONE_TSU_RD:
        return grant(t, 0, addr, cts, lease);
    case HALCONE_TSU_WR:
        return grant(t, 1, addr, cts, lease);
    case HALCONE_TSU_EV:
        return halcone_tsu_evict(t, addr, rts);
    default:
        memset(&r, 0, sizeof r);
        r.kind = HALCONE_TSU_ABSENT;
        r.epoch = t->epoch;
        return r;
    }
}

static void print_floor(FILE *f, const halcone_tsu_cfg *c, const halcone_tsu_result *r)
{
    if (!r->floor_raised)
        return;
    if (c->floor == HALCONE_FLOOR_SET)
        fprintf(f, "FLOOR %u %u\n", r->floor, r->floor_set);
    else
        fprintf(f, "FLOOR %u\n", r->floor);
}

void halcone_tsu_print_cfg(FILE *f, const halcone_tsu_cfg *c, const halcone_tsu_result *r)
{
    switch (r->kind) {
    case HALCONE_TSU_GRANT:
        if (r->victim)
            fprintf(f, "VICTIM 0x%llx %u\n", (unsigned long long)r->victim_addr, r->victim_memts);
        print_floor(f, c, r);
        if (r->wrap)
            fprintf(f, "WRAP 0x%llx\n", (unsigned long long)r->addr);
        if (r->reset)
            fprintf(f, "RESET %u\n", r->epoch);
        fprintf(f, "GRANT 0x%llx %u %u\n", (unsigned long long)r->addr, r->wts, r->rts);
        break;
    case HALCONE_TSU_REMOVE:
        fprintf(f, "REMOVE 0x%llx %u\n", (unsigned long long)r->addr, r->memts);
        print_floor(f, c, r);
        break;
    case HALCONE_TSU_KEEP:
        fprintf(f, "KEEP 0x%llx %u\n", (unsigned long long)r->addr, r->memts);
        break;
    default:
        fprintf(f, "ABSENT 0x%llx\n", (unsigned long long)r->addr);
        break;
    }
}

void halcone_tsu_print(FILE *f, const halcone_tsu *t, const halcone_tsu_result *r)
{
    halcone_tsu_print_cfg(f, &t->cfg, r);
}

void halcone_tsu_dump(FILE *f, const halcone_tsu *t)
{
    unsigned s, w;
    for (s = 0; s < t->cfg.sets; s++)
        for (w = 0; w < t->cfg.ways; w++) {
            const halcone_tsu_entry *e = &t->ent[(size_t)s * t->cfg.ways + w];
            if (e->valid)
                fprintf(f, "ENTRY %u %u 0x%llx %u\n", s, w,
                        (unsigned long long)block_addr(t, s, e->tag), e->memts);
        }
    if (t->cfg.floor == HALCONE_FLOOR_SET) {
        for (s = 0; s < t->cfg.sets; s++)
            if (t->set_floor[s])
                fprintf(f, "REG floor[%u] %u\n", s, t->set_floor[s]);
    } else {
        fprintf(f, "REG floor %u\n", t->floor);
    }
    fprintf(f, "REG now %u\nREG epoch %u\n", t->now, t->epoch);
}

/* -------------------------------------------------------- timing shell -- */

halcone_tsu_tm *halcone_tsu_tm_new(const halcone_tsu_cfg *cfg)
{
    halcone_tsu_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->tsu = halcone_tsu_new(cfg);
    if (t->tsu == NULL) {
        free(t);
        return NULL;
    }
    halcone_tsu_tm_reset(t);
    return t;
}

void halcone_tsu_tm_free(halcone_tsu_tm *t)
{
    if (t == NULL)
        return;
    halcone_tsu_free(t->tsu);
    free(t);
}

void halcone_tsu_tm_reset(halcone_tsu_tm *t)
{
    halcone_tsu *tsu = t->tsu;
    memset(t, 0, sizeof *t);
    t->tsu = tsu;
    t->clr_busy = 1;
    t->s1_op = t->s2_op = HALCONE_TSU_NOP;
    halcone_tsu_reset(tsu);
}

/* Would stage 2's request overflow 2^W - 1? (The RTL's ovf term: with
 * overflow reset it starts the clearing sweep instead of firing.) */
static int s2_overflows(const halcone_tsu_tm *t)
{
    const halcone_tsu *u = t->tsu;
    unsigned set, ways = u->cfg.ways;
    uint64_t tag, wts, rts, c, lease;
    uint32_t m;
    uint64_t addr = t->s2_addr << u->g.line_bits;
    const halcone_tsu_entry *s;
    int hw, write = t->s2_op == HALCONE_TSU_WR;
    if (t->s2_op != HALCONE_TSU_RD && t->s2_op != HALCONE_TSU_WR)
        return 0;
    locate(u, addr, &set, &tag);
    s = &u->ent[(size_t)set * ways];
    hw = find(u, set, tag);
    lease = t->s2_lease ? t->s2_lease : write ? u->wr_lease : u->rd_lease;
    c = u->cfg.req_cts && !t->s2_rst ? t->s2_cts : 0;
    if (hw >= 0)
        m = s[hw].memts;
    else
        pick_way(u, s, addr, &m);
    grant_of(u, write, m, c, lease, &wts, &rts);
    return rts > u->g.ts_max;
}

typedef struct {
    int s2_fire, s1_adv, sweep_start, ext_reset, req_ready;
} tm_ctl;

static void control(const halcone_tsu_tm *t, const halcone_tsu_in *in, tm_ctl *k)
{
    int rsp_free = !t->rsp_valid || in->rsp_ready_i;
    k->sweep_start = t->s2_valid && !t->clr_busy && t->tsu->cfg.overflow == HALCONE_OVF_RESET &&
                     s2_overflows(t);
    k->ext_reset = in->epoch_rst_i && !t->clr_busy;
    k->s2_fire = t->s2_valid && !t->clr_busy && !k->sweep_start && rsp_free;
    k->s1_adv = !t->s2_valid || k->s2_fire;
    k->req_ready = !t->clr_busy && (!t->s1_valid || k->s1_adv);
}

void halcone_tsu_eval(const halcone_tsu_tm *t, const halcone_tsu_in *in, halcone_tsu_out *o)
{
    const halcone_tsu_result *r = &t->rsp;
    const halcone_tsu_geom *g = &t->tsu->g;
    tm_ctl k;
    control(t, in, &k);
    memset(o, 0, sizeof *o);
    o->req_ready_o = (uint64_t)k.req_ready;
    o->rsp_valid_o = t->rsp_valid;
    o->rsp_kind_o = (uint64_t)r->kind;
    o->rsp_addr_o = r->addr >> g->line_bits;
    o->rsp_tag_o = t->rsp_tag;
    o->rsp_wts_o = r->kind == HALCONE_TSU_GRANT ? r->wts : 0;
    o->rsp_rts_o = r->kind == HALCONE_TSU_GRANT ? r->rts
                   : r->kind == HALCONE_TSU_ABSENT ? 0
                                                   : r->memts;
    o->rsp_victim_o = r->victim;
    o->rsp_vaddr_o = r->victim_addr >> g->line_bits;
    o->rsp_vmemts_o = r->victim_memts;
    o->rsp_floor_o = r->floor_raised;
    o->rsp_fval_o = r->floor;
    o->rsp_wrap_o = r->wrap;
    o->rsp_reset_o = r->reset;
    o->rsp_epoch_o = r->epoch;
}

void halcone_tsu_step(halcone_tsu_tm *t, const halcone_tsu_in *in)
{
    halcone_tsu *u = t->tsu;
    tm_ctl k;
    if (!in->rst_ni) {
        halcone_tsu_tm_reset(t);
        return;
    }
    control(t, in, &k);
    if (t->rsp_valid && in->rsp_ready_i)
        t->rsp_valid = 0;
    if (k.s2_fire) {
        if (t->s2_op != HALCONE_TSU_NOP) {
            uint32_t cts = t->s2_rst ? 0 : t->s2_cts;
            t->rsp = halcone_tsu_request(u, (halcone_tsu_op)t->s2_op, t->s2_addr << u->g.line_bits,
                                         cts, t->s2_lease, t->s2_rts);
            if (t->s2_rst) {
                t->rsp.reset = 1;
                t->rsp.epoch = u->epoch;
            }
            t->rsp_tag = t->s2_tag;
            t->rsp_valid = 1;
        }
        t->s2_valid = 0;
        t->s2_rst = 0;
    }
    if (t->clr_busy) {
        if (t->clr_idx + 1 >= u->cfg.sets) {
            t->clr_busy = 0;
            t->clr_idx = 0;
            if (t->clr_epoch) {
                halcone_tsu_epoch_reset(u);
                t->s2_rst = 1;
                t->clr_epoch = 0;
            }
        } else {
            t->clr_idx++;
        }
    }
    if (k.sweep_start || k.ext_reset) {
        t->clr_busy = 1;
        t->clr_idx = 0;
        t->clr_epoch = 1;
    }
    if (t->s1_valid && k.s1_adv) {
        t->s2_valid = 1;
        t->s2_op = t->s1_op;
        t->s2_addr = t->s1_addr;
        t->s2_tag = t->s1_tag;
        t->s2_cts = t->s1_cts;
        t->s2_lease = t->s1_lease;
        t->s2_rts = t->s1_rts;
        t->s2_rst = 0;
        t->s1_valid = 0;
    }
    if (in->req_valid_i && k.req_ready) {
        t->s1_valid = 1;
        t->s1_op = (unsigned)(in->req_op_i & 3);
        t->s1_addr = in->req_addr_i & cohkit_mask64(u->g.laddr_bits);
        t->s1_tag = in->req_tag_i & cohkit_mask64(u->cfg.tag_bits);
        t->s1_cts = (uint32_t)(in->req_cts_i & u->g.ts_max);
        t->s1_lease = (uint32_t)(in->req_lease_i & u->g.ts_max);
        t->s1_rts = (uint32_t)(in->req_rts_i & u->g.ts_max);
    }
    if (in->cfg_we_i) {
        uint32_t v = (uint32_t)(in->cfg_data_i & u->g.ts_max);
        if (in->cfg_sel_i)
            halcone_tsu_set_leases(u, 0, v);
        else
            halcone_tsu_set_leases(u, v, 0);
    }
}
