/*
 * REC directory golden model. Section references are to Ko et al. (REC):
 * 4.1 entry format, 4.2 protocol flows, 2.3 / 5.2 baseline and HMG.
 */
#include "rec.h"
#include "bits.h"
#include "cfg_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rec_mode_str(rec_mode m)
{
    return m == REC_MODE_LINE ? "line" : m == REC_MODE_HMG ? "hmg" : "rec";
}

const char *rec_repl_str(rec_repl r) { return r == REC_REPL_FIFO ? "fifo" : "lru"; }

const char *rec_op_str(rec_op op)
{
    static const char *const s[] = {"RR", "LW", "RW", "NOP"};
    return s[op & 3];
}

void rec_cfg_default(rec_cfg *cfg)
{
    static const rec_cfg d = {.gpus = 4, .entries = 8192, .ways = 8, .range = 1024, .line = 64,
                              .addr_bits = 48, .group = 4, .mode = REC_MODE_REC,
                              .repl = REC_REPL_LRU, .store = REC_STORE_FULL};
    *cfg = d;
}

/* fpga: a prototype keeps no set-index bits in its tags. baseline: section
 * 2.3, one line per entry (range = line), FIFO replacement. hmg: groups of
 * --group lines (range = group x line), FIFO. */
static const cohkit_cfg_preset presets[] = {
    {"default", ""},
    {"fpga", "--entries 512 --ways 4 --store packed"},
    {"baseline", "--mode line --range 64 --repl fifo"},
    {"hmg", "--mode hmg --range 256 --repl fifo"},
    {NULL, NULL},
};

static const char *const preset_names[] = {"default", "fpga", "baseline", "hmg", NULL};

const char *const *rec_preset_names(void) { return preset_names; }

static const cohkit_unit_opt_choice modes[] = {
    {"rec", REC_MODE_REC, 0}, {"line", REC_MODE_LINE, 0}, {"hmg", REC_MODE_HMG, 0}, {NULL, 0, 0}};
static const cohkit_unit_opt_choice repls[] = {
    {"fifo", REC_REPL_FIFO, 0}, {"lru", REC_REPL_LRU, 0}, {NULL, 0, 0}};
static const cohkit_unit_opt_choice stores[] = {
    {"full", REC_STORE_FULL, 0}, {"packed", REC_STORE_PACKED, 0}, {NULL, 0, 0}};
static int is_hmg(const void *cfg) { return ((const rec_cfg *)cfg)->mode == REC_MODE_HMG; }

static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_CHOICE("mode", "M",
                "rec (range coalescing), line (one line per entry), hmg (groups)",
                rec_cfg, mode, modes),
    COHKIT_UNIT_OPT_NUM("gpus", "N", "GPUs, 2..16 (default 4)", rec_cfg, gpus),
    COHKIT_UNIT_OPT_NUM("entries", "N",
                "directory entries, power of two (default 8192)",
                rec_cfg, entries),
    COHKIT_UNIT_OPT_NUM("ways", "N", "associativity, power of two, 1..16 (default 8)", rec_cfg, ways),
    COHKIT_UNIT_OPT_NUM("range", "B",
                "coalescing range in bytes (rec mode; default 1024)",
                rec_cfg, range),
    COHKIT_UNIT_OPT_NUM("line", "B", "cache line in bytes (default 64)", rec_cfg, line),
    COHKIT_UNIT_OPT_NUM("addr-bits", "N",
                "physical address width, 16..64 (default 48)",
                rec_cfg, addr_bits),
    COHKIT_UNIT_OPT_NUM("group", "N",
                "lines per HMG entry (hmg mode; default 4)",
                rec_cfg, group, .in_args = is_hmg),
    COHKIT_UNIT_OPT_CHOICE("repl", "P", "fifo or lru (default lru)", rec_cfg, repl, repls),
    COHKIT_UNIT_OPT_CHOICE("store", "S",
                "full (Table 1: whole base stored) or packed (no index bits)",
                rec_cfg, store, stores),
    COHKIT_UNIT_OPT_END,
};
static const char *const args_order[] = {"mode", "gpus", "entries", "ways", "range", "line", "addr-bits", "repl", "store", "group", NULL};
const cohkit_unit_opt_table rec_opts = {opts, "a non-negative integer", 0xffffffffUL, 0, 0, args_order};

COHKIT_CFG_PRESET_FN(rec, rec_cfg, presets, rec_cfg_default)
COHKIT_CFG_ARGS_FN(rec, rec_cfg)

int rec_cfg_option(rec_cfg *cfg, const char *name, const char *value,
                   char *err, size_t len)
{
    return cohkit_unit_opt_apply(&rec_opts, cfg, name, value, err, len);
}

/* The range against the line and the mode. */
static int check_range(const rec_cfg *c, char *err, size_t len)
{
    if (!cohkit_is_pow2(c->range))
        return cohkit_cfg_fail(err, len, "--range %u: must be a power of two", c->range);
    if (c->range < c->line)
        return cohkit_cfg_fail(err, len, "--range %u: smaller than --line %u", c->range, c->line);
    if (c->range / c->line > REC_JOB_MAX)
        return cohkit_cfg_fail(err, len, "--range %u: more than %d lines of %u B per entry",
                               c->range, REC_JOB_MAX, c->line);
    if (c->mode == REC_MODE_LINE && c->range != c->line)
        return cohkit_cfg_fail(err, len,
                               "--range %u: line mode tracks one line, range must equal --line %u",
                               c->range, c->line);
    if (c->mode == REC_MODE_HMG) {
        if (!cohkit_is_pow2(c->group) || c->group < 2 || c->group > REC_JOB_MAX)
            return cohkit_cfg_fail(err, len, "--group %u: must be a power of two, 2..%d", c->group,
                                   REC_JOB_MAX);
        if (c->range != c->group * c->line)
            return cohkit_cfg_fail(err, len, "--range %u: hmg mode covers --group x --line = %u bytes",
                                   c->range, c->group * c->line);
    }
    return 0;
}

int rec_cfg_check(const rec_cfg *c, char *err, size_t len)
{
    unsigned span, base_bits, laddr;
    if (cohkit_cfg_range(err, len, "gpus", c->gpus, 2, 16))
        return -1;
    if (!cohkit_is_pow2(c->entries) || c->entries > (1u << 24))
        return cohkit_cfg_fail(err, len, "--entries %u: must be a power of two, at most 16777216",
                               c->entries);
    if (cohkit_cfg_range_pow2(err, len, "ways", c->ways, 1, 16))
        return -1;
    if (c->ways > c->entries)
        return cohkit_cfg_fail(err, len, "--ways %u: more ways than --entries %u", c->ways, c->entries);
    if (cohkit_cfg_range_pow2(err, len, "line", c->line, 4, 4096) ||
        cohkit_cfg_range(err, len, "addr-bits", c->addr_bits, 16, 64) || check_range(c, err, len))
        return -1;
    if (c->repl != REC_REPL_FIFO && c->repl != REC_REPL_LRU)
        return cohkit_cfg_fail(err, len, "--repl %d: unknown policy", (int)c->repl);
    if (c->mode != REC_MODE_REC && c->mode != REC_MODE_LINE && c->mode != REC_MODE_HMG)
        return cohkit_cfg_fail(err, len, "--mode %d: unknown mode", (int)c->mode);
    laddr = c->addr_bits - cohkit_ilog2(c->line);
    span = cohkit_ilog2(c->range / c->line);
    if (laddr <= span)
        return cohkit_cfg_fail(err, len, "--range %u: too large for --addr-bits %u", c->range,
                               c->addr_bits);
    base_bits = laddr - span;
    if (base_bits <= cohkit_ilog2(c->entries / c->ways))
        return cohkit_cfg_fail(err, len,
                               "--entries %u: %u sets need more index bits than the %u-bit base address",
                               c->entries, c->entries / c->ways, base_bits);
    return 0;
}

void rec_geom_of(const rec_cfg *c, rec_geom *g)
{
    memset(g, 0, sizeof *g);
    g->sets = c->entries / c->ways;
    g->index_bits = cohkit_ilog2(g->sets);
    g->line_bits = cohkit_ilog2(c->line);
    g->lines_per_slot = c->mode == REC_MODE_HMG ? c->group : 1;
    g->slots = c->mode == REC_MODE_REC ? c->range / c->line : 1;
    g->lines = g->slots * g->lines_per_slot;
    g->range_bytes = g->lines * c->line;
    g->span_bits = cohkit_ilog2(g->lines);
    g->slot_bits = cohkit_ilog2(g->slots);
    g->lps_bits = cohkit_ilog2(g->lines_per_slot);
    g->has_pos = g->slots > 1;
    g->sharer_bits = c->gpus - 1;
    g->slot_width = g->has_pos + g->sharer_bits;
    g->vec_bits = g->slots * g->slot_width;
    g->gpu_bits = cohkit_ilog2(c->gpus - 1) + 1;
    g->laddr_bits = c->addr_bits - g->line_bits;
    g->base_bits = g->laddr_bits - g->span_bits;
    g->tag_bits = g->base_bits - (c->store == REC_STORE_PACKED ? g->index_bits : 0);
    g->entry_bits = 1 + g->tag_bits + g->vec_bits;
    g->rank_bits = cohkit_ilog2(c->ways);
    g->set_bits = c->ways * (g->entry_bits + g->rank_bits);
    /* Table 1: a one-line entry keeps the whole byte address as its tag
     * (48 bits); a coalescing entry keeps address >> log2(range). */
    g->paper_base_bits = g->lines == 1 ? c->addr_bits : c->addr_bits - cohkit_ilog2(g->range_bytes);
    g->paper_entry_bits = g->paper_base_bits + g->vec_bits + 1;
    g->packed_entry_bits = 1 + (g->base_bits - g->index_bits) + g->vec_bits;
    g->paper_total_bits = (uint64_t)c->entries * g->paper_entry_bits;
    g->packed_total_bits = (uint64_t)c->entries * g->packed_entry_bits;
    g->stored_total_bits = (uint64_t)c->entries * g->entry_bits;
    g->repl_total_bits = (uint64_t)c->entries * g->rank_bits;
}

void rec_cfg_name(const rec_cfg *c, char *buf, size_t len)
{
    char extra[32] = "";
    if (c->mode == REC_MODE_HMG)
        snprintf(extra, sizeof extra, "_hmg%u", c->group);
    else if (c->mode == REC_MODE_LINE)
        snprintf(extra, sizeof extra, "_line");
    snprintf(buf, len, "rec_g%u_e%u_w%u_r%u_l%u_a%u_%s_%s%s", c->gpus, c->entries,
             c->ways, c->range, c->line, c->addr_bits, rec_repl_str(c->repl),
             c->store == REC_STORE_PACKED ? "packed" : "full", extra);
}

/* ---------------------------------------------------------------- core -- */

rec_dir *rec_dir_new(const rec_cfg *cfg)
{
    rec_dir *d = calloc(1, sizeof *d);
    size_t i, n;
    if (d == NULL)
        return NULL;
    d->cfg = *cfg;
    rec_geom_of(cfg, &d->g);
    n = (size_t)cfg->entries;
    d->ent = calloc(n, sizeof *d->ent);
    d->sh_store = calloc(n * d->g.slots, sizeof *d->sh_store);
    if (d->ent == NULL || d->sh_store == NULL) {
        rec_dir_free(d);
        return NULL;
    }
    for (i = 0; i < n; i++)
        d->ent[i].sh = d->sh_store + i * d->g.slots;
    rec_dir_reset(d);
    return d;
}

void rec_dir_free(rec_dir *d)
{
    if (d == NULL)
        return;
    free(d->ent);
    free(d->sh_store);
    free(d);
}

void rec_dir_reset(rec_dir *d)
{
    size_t i, n = d->cfg.entries;
    for (i = 0; i < n; i++) {
        rec_entry *e = &d->ent[i];
        e->valid = 0;
        e->tag = 0;
        e->pos = 0;
        e->rank = (uint8_t)(i % d->cfg.ways);
        memset(e->sh, 0, d->g.slots * sizeof *e->sh);
    }
    memset(&d->st, 0, sizeof d->st);
}

/* Sharer index of GPU src: the home GPU has no sharer bit (section 2.3). */
static unsigned sharer_of(const rec_dir *d, unsigned src)
{
    return src < d->home ? src : src - 1;
}

static uint32_t gpu_mask(const rec_dir *d, uint32_t sh)
{
    uint32_t low = (1u << d->home) - 1;
    return ((sh & ~low) << 1 | (sh & low)) & (uint32_t)cohkit_mask64(d->cfg.gpus);
}

/* Makes `way` the newest in its set (rank 0), ageing the newer ones. */
static void promote(rec_entry *set, unsigned ways, unsigned way)
{
    unsigned w, r = set[way].rank;
    for (w = 0; w < ways; w++)
        if (set[w].rank < r)
            set[w].rank++;
    set[way].rank = 0;
}

static void emit_slot(rec_dir *d, uint64_t base, unsigned slot, uint32_t sh,
                      rec_emit_fn emit, void *ctx, int evict)
{
    unsigned l, L = d->g.lines_per_slot;
    if (sh == 0)
        return;
    for (l = 0; l < L; l++) {
        uint64_t line = (base << d->g.span_bits) | ((uint64_t)slot * L + l);
        d->st.invalidations++;
        if (evict) {
            d->st.evict_invs++;
            d->st.evicted_lines++;
        } else {
            d->st.write_invs++;
        }
        if (emit)
            emit(ctx, line & cohkit_mask64(d->g.laddr_bits), gpu_mask(d, sh));
    }
}

uint64_t rec_entry_base(const rec_dir *d, unsigned set, unsigned way)
{
    const rec_entry *e = &d->ent[(size_t)set * d->cfg.ways + way];
    if (d->cfg.store == REC_STORE_PACKED)
        return (e->tag << d->g.index_bits) | set;
    return e->tag;
}

void rec_core_access(rec_dir *d, rec_op op, uint64_t line, unsigned src,
                     rec_emit_fn emit, void *ctx)
{
    const rec_geom *g = &d->g;
    unsigned ways = d->cfg.ways, w, hitw = ways, slot;
    uint64_t base, tag;
    unsigned set;
    rec_entry *s;
    int remote = op == REC_OP_RR || op == REC_OP_RW;

    d->st.req[op & 3]++;
    if (op == REC_OP_NOP)
        return;
    if (remote && (src == d->home || src >= d->cfg.gpus)) {
        d->st.ignored++;
        return;
    }
    line &= cohkit_mask64(g->laddr_bits);
    base = line >> g->span_bits;
    set = (unsigned)(base & cohkit_mask64(g->index_bits));
    tag = d->cfg.store == REC_STORE_PACKED ? base >> g->index_bits : base;
    slot = (unsigned)((line & cohkit_mask64(g->span_bits)) >> g->lps_bits);
    s = &d->ent[(size_t)set * ways];

    for (w = 0; w < ways; w++)
        if (s[w].valid && s[w].tag == tag) {
            hitw = w;
            break;
        }

    if (hitw < ways) {
        rec_entry *e = &s[hitw];
        int present = g->has_pos ? (int)((e->pos >> slot) & 1) : 1;
        d->st.hits++;
        if (op == REC_OP_LW) {
            /* Local write: invalidate this offset's sharers, clear only the
             * offset, free the entry when it was the last (4.2, D-F). */
            if (present) {
                uint16_t sh = e->sh[slot];
                e->sh[slot] = 0;
                e->pos &= ~(1ull << slot);
                if (!g->has_pos || e->pos == 0) {
                    e->valid = 0;
                    d->st.entry_frees++;
                }
                emit_slot(d, base, slot, sh, emit, ctx, 0);
            }
            return;
        }
        if (op == REC_OP_RW && present) {
            /* Remote write to a tracked offset: the writer becomes the only
             * sharer, the others are invalidated (4.2, H-I). */
            uint16_t old = e->sh[slot];
            uint16_t me = (uint16_t)(1u << sharer_of(d, src));
            e->sh[slot] = me;
            if (g->has_pos)
                e->pos |= 1ull << slot;
            if (d->cfg.repl == REC_REPL_LRU)
                promote(s, ways, hitw);
            emit_slot(d, base, slot, old & (uint16_t)~me, emit, ctx, 0);
            return;
        }
        /* Remote read, or remote write to an absent offset: coalesce (4.2 C). */
        e->sh[slot] |= (uint16_t)(1u << sharer_of(d, src));
        if (g->has_pos)
            e->pos |= 1ull << slot;
        if (d->cfg.repl == REC_REPL_LRU)
            promote(s, ways, hitw);
        return;
    }

    d->st.misses++;
    if (op == REC_OP_LW)
        return;
    /* Miss on a remote op: allocate, invalid ways first (lowest index),
     * else the oldest by rank (4.2, J-M). */
    for (w = 0; w < ways; w++)
        if (!s[w].valid)
            break;
    if (w == ways) {
        unsigned v;
        for (v = 0; v < ways; v++)
            if (s[v].rank == ways - 1)
                break;
        w = v < ways ? v : 0;
    }
    {
        rec_entry *e = &s[w];
        int evict = e->valid;
        uint64_t vbase = 0;
        uint16_t old[REC_JOB_MAX];
        unsigned k;
        d->st.allocs++;
        if (evict) {
            /* Eviction: reconstruct every coalesced line, each with its own
             * sharers. The job is emitted after the update, as in the RTL. */
            vbase = rec_entry_base(d, set, w);
            memcpy(old, e->sh, g->slots * sizeof *old);
            d->st.evictions++;
        }
        e->valid = 1;
        e->tag = tag;
        e->pos = g->has_pos ? 1ull << slot : 0;
        memset(e->sh, 0, g->slots * sizeof *e->sh);
        e->sh[slot] = (uint16_t)(1u << sharer_of(d, src));
        promote(s, ways, w);
        for (k = 0; evict && k < g->slots; k++)
            emit_slot(d, vbase, k, old[k], emit, ctx, 1);
    }
}

static void put_bits(uint32_t *words, unsigned nwords, unsigned at, uint64_t v, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++)
        if ((v >> i) & 1) {
            unsigned b = at + i;
            if (b / 32 < nwords)
                words[b / 32] |= 1u << (b % 32);
        }
}

unsigned rec_entry_vector(const rec_dir *d, unsigned set, unsigned way,
                          uint32_t *words, unsigned nwords)
{
    const rec_geom *g = &d->g;
    const rec_entry *e = &d->ent[(size_t)set * d->cfg.ways + way];
    unsigned k, at = 0;
    uint64_t base_field;
    memset(words, 0, nwords * sizeof *words);
    for (k = 0; k < g->slots; k++) {
        if (g->has_pos)
            put_bits(words, nwords, at, (e->pos >> k) & 1, 1);
        put_bits(words, nwords, at + g->has_pos, e->sh[k], g->sharer_bits);
        at += g->slot_width;
    }
    /* Paper accounting: a one-line entry stores the full byte address. */
    base_field = rec_entry_base(d, set, way);
    if (g->lines == 1)
        base_field <<= g->line_bits;
    put_bits(words, nwords, at, base_field, g->paper_base_bits);
    at += g->paper_base_bits;
    put_bits(words, nwords, at, e->valid, 1);
    return at + 1;
}

/* -------------------------------------------------------- timing shell -- */

rec_tm *rec_tm_new(const rec_cfg *cfg)
{
    rec_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->dir = rec_dir_new(cfg);
    if (t->dir == NULL) {
        free(t);
        return NULL;
    }
    rec_tm_reset(t);
    return t;
}

void rec_tm_free(rec_tm *t)
{
    if (t == NULL)
        return;
    rec_dir_free(t->dir);
    free(t);
}

void rec_tm_reset(rec_tm *t)
{
    t->init_busy = 1;
    t->init_idx = 0;
    t->s1_valid = 0;
    t->s1_op = t->s1_src = 0;
    t->s1_addr = 0;
    t->s2_valid = 0;
    t->s2_op = t->s2_src = 0;
    t->s2_addr = 0;
    t->job_n = t->job_head = 0;
}

void rec_eval(const rec_tm *t, const rec_in *in, rec_out *out)
{
    int busy = t->job_head < t->job_n;
    (void)in;
    /* stage 1 moves on when stage 2 is empty or fires (no job draining) */
    out->req_ready_o = !t->init_busy && (!t->s1_valid || !t->s2_valid || !busy);
    out->inv_valid_o = busy;
    out->inv_addr_o = busy ? t->job_line[t->job_head] : 0;
    out->inv_mask_o = busy ? t->job_mask[t->job_head] : 0;
}

static void job_push(void *ctx, uint64_t line, uint32_t mask)
{
    rec_tm *t = ctx;
    if (t->job_n < REC_JOB_MAX) {
        t->job_line[t->job_n] = line;
        t->job_mask[t->job_n] = mask;
        t->job_n++;
    }
}

void rec_step(rec_tm *t, const rec_in *in)
{
    rec_out o;
    int busy, accept, fire;
    if (!in->rst_ni) {
        rec_tm_reset(t);
        t->home_q = (unsigned)in->home_i;
        return;
    }
    rec_eval(t, in, &o);
    busy = t->job_head < t->job_n;
    accept = in->req_valid_i && o.req_ready_o;

    if (busy && in->inv_ready_i) {
        t->job_head++;
        if (t->job_head == t->job_n)
            t->job_n = t->job_head = 0;
    }
    fire = t->s2_valid && !busy;
    if (fire) {
        t->dir->home = t->home_q;
        t->job_n = t->job_head = 0;
        rec_core_access(t->dir, (rec_op)t->s2_op, t->s2_addr, t->s2_src, job_push, t);
        t->s2_valid = 0;
    }
    if (t->s1_valid && !t->s2_valid) {
        t->s2_valid = 1;
        t->s2_op = t->s1_op;
        t->s2_addr = t->s1_addr;
        t->s2_src = t->s1_src;
        t->s1_valid = 0;
    }
    if (accept) {
        t->s1_valid = 1;
        t->s1_op = (unsigned)in->req_op_i & 3;
        t->s1_addr = in->req_addr_i;
        t->s1_src = (unsigned)in->req_src_i;
    }
    t->home_q = (unsigned)in->home_i; /* the strap register (home_q) */
    if (t->init_busy) {
        if (t->init_idx + 1 >= t->dir->g.sets) {
            t->init_busy = 0;
            t->init_idx = 0;
            rec_dir_reset(t->dir);
        } else {
            t->init_idx++;
        }
    }
}
