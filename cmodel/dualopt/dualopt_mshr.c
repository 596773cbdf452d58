/*
 * DualOpt bitmask MSHR golden model (section 4.1.2, Fig. 8; spec 2.3, D11).
 * The functional core is the paper's algorithm as transactions; the timing
 * shell adds the RTL's registered response and its one-target-a-cycle DONE
 * stream (docs/dualopt.md, "Bitmask MSHR").
 */
#include "dualopt_mshr.h"
#include "bits.h"
#include "cfg_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dualopt_mshr_cfg_default(dualopt_mshr_cfg *c)
{
    static const dualopt_mshr_cfg d = {.entries = 32, .line = 64, .gran = 4, .addr_bits = 48,
                                       .tag_bits = 8, .mode = DUALOPT_MSHR_BITMASK};
    *c = d;
}

static const cohkit_cfg_preset presets[] = {
    {"default", ""},
    {"fpga", "--entries 8 --targets 4 --addr-bits 32 --tag-bits 6"},
    {"line", "--mode line"},
    {"gran8", "--gran 8"},
    {"gran16", "--gran 16"},
    {NULL, NULL},
};

static const cohkit_unit_opt_choice modes[] = {
    {"bitmask", DUALOPT_MSHR_BITMASK, 0}, {"line", DUALOPT_MSHR_LINE, 0}, {NULL, 0, 0}};
static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_CHOICE("mode", "M",
                "bitmask (Fig. 8 containment) or line (all-ones masks: baseline)",
                dualopt_mshr_cfg, mode, modes),
    COHKIT_UNIT_OPT_NUM("entries", "N",
                "MSHR entries, 1..64 (default 32, Table 1)",
                dualopt_mshr_cfg, entries),
    COHKIT_UNIT_OPT_NUM("targets", "N",
                "targets per entry, 0 = no per-entry limit (default), 1..1024",
                dualopt_mshr_cfg, targets),
    COHKIT_UNIT_OPT_NUM("line", "B", "line in bytes, power of two (default 64)", dualopt_mshr_cfg, line),
    COHKIT_UNIT_OPT_NUM("gran", "B",
                "mask granularity in bytes (default 4: 16-bit masks)",
                dualopt_mshr_cfg, gran),
    COHKIT_UNIT_OPT_NUM("addr-bits", "N",
                "byte-address width, 16..64 (default 48)",
                dualopt_mshr_cfg, addr_bits),
    COHKIT_UNIT_OPT_NUM("tag-bits", "N",
                "requester tag width, 1..16 (default 8; 2^N tags in flight)",
                dualopt_mshr_cfg, tag_bits),
    COHKIT_UNIT_OPT_END,
};
const cohkit_unit_opt_table dualopt_mshr_opts = {opts, "a non-negative decimal integer", 0xffffffffUL, 10, 0, NULL};

COHKIT_CFG_OPT_FNS(dualopt_mshr, dualopt_mshr_cfg, presets, dualopt_mshr_cfg_default)

int dualopt_mshr_cfg_check(const dualopt_mshr_cfg *c, char *err, size_t len)
{
    if (cohkit_cfg_range(err, len, "entries", c->entries, 1, 64))
        return -1;
    if (c->targets > 1024)
        return cohkit_cfg_fail(err, len, "--targets %u: must be 0 (no per-entry limit) or 1..1024",
                               c->targets);
    if (cohkit_cfg_range_pow2(err, len, "line", c->line, 4, 4096))
        return -1;
    if (!cohkit_is_pow2(c->gran) || c->gran > c->line)
        return cohkit_cfg_fail(err, len, "--gran %u: must be a power of two no larger than --line %u",
                               c->gran, c->line);
    if (c->line / c->gran > 64)
        return cohkit_cfg_fail(err, len, "--gran %u: --line %u / --gran gives %u mask bits, at most 64",
                               c->gran, c->line, c->line / c->gran);
    if (cohkit_cfg_range(err, len, "addr-bits", c->addr_bits, 16, 64))
        return -1;
    if (c->addr_bits <= cohkit_ilog2(c->line))
        return cohkit_cfg_fail(err, len, "--addr-bits %u: no line-address bits above --line %u",
                               c->addr_bits, c->line);
    if (cohkit_cfg_range(err, len, "tag-bits", c->tag_bits, 1, 16))
        return -1;
    if (c->mode != DUALOPT_MSHR_BITMASK && c->mode != DUALOPT_MSHR_LINE)
        return cohkit_cfg_fail(err, len, "--mode %d: unknown mode", (int)c->mode);
    return 0;
}

void dualopt_mshr_geom_of(const dualopt_mshr_cfg *c, dualopt_mshr_geom *g)
{
    memset(g, 0, sizeof *g);
    g->mask_bits = c->line / c->gran;
    g->mask_all = cohkit_mask64(g->mask_bits);
    g->line_bits = cohkit_ilog2(c->line);
    g->laddr_bits = c->addr_bits - g->line_bits;
    g->entry_bits = cohkit_width(c->entries);
    g->count_bits = c->targets ? cohkit_width((uint64_t)c->targets + 1) : 0;
    g->tags = 1u << c->tag_bits;
    /* per entry: valid, line, mask (bitmask mode), head, tail, counter */
    g->flop_bits = (uint64_t)c->entries *
                   (1 + g->laddr_bits + (c->mode == DUALOPT_MSHR_BITMASK ? g->mask_bits : 0) +
                    2 * c->tag_bits + g->count_bits);
    g->ram_bits = (uint64_t)g->tags * c->tag_bits;
    g->mask_store_bits =
        c->mode == DUALOPT_MSHR_BITMASK ? (uint64_t)c->entries * g->mask_bits : 0;
}

void dualopt_mshr_cfg_name(const dualopt_mshr_cfg *c, char *buf, size_t len)
{
    snprintf(buf, len, "dualopt_mshr_e%u_t%u_l%u_g%u_a%u_tag%u_%s", c->entries, c->targets,
             c->line, c->gran, c->addr_bits, c->tag_bits,
             c->mode == DUALOPT_MSHR_LINE ? "line" : "bitmask");
}

/* ---------------------------------------------------------------- core -- */

dualopt_mshr *dualopt_mshr_new(const dualopt_mshr_cfg *c)
{
    dualopt_mshr *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    m->cfg = *c;
    dualopt_mshr_geom_of(c, &m->g);
    m->e = calloc(c->entries, sizeof *m->e);
    if (m->e == NULL) {
        free(m);
        return NULL;
    }
    dualopt_mshr_reset(m);
    return m;
}

void dualopt_mshr_free(dualopt_mshr *m)
{
    unsigned i;
    if (m == NULL)
        return;
    for (i = 0; i < m->cfg.entries; i++)
        free(m->e[i].tgt);
    free(m->e);
    free(m);
}

void dualopt_mshr_reset(dualopt_mshr *m)
{
    unsigned i;
    for (i = 0; i < m->cfg.entries; i++) {
        m->e[i].valid = 0;
        m->e[i].line = 0;
        m->e[i].mask = 0;
        m->e[i].n = 0;
    }
    memset(&m->st, 0, sizeof m->st);
}

static int push_target(dualopt_mshr_entry *e, uint32_t tag)
{
    if (e->n == e->cap) {
        unsigned nc = e->cap ? e->cap * 2 : 8;
        uint32_t *nt = realloc(e->tgt, nc * sizeof *nt);
        if (nt == NULL)
            return -1;
        e->tgt = nt;
        e->cap = nc;
    }
    e->tgt[e->n++] = tag;
    return 0;
}

int dualopt_mshr_req(dualopt_mshr *m, uint64_t line, uint64_t mask, uint32_t tag,
                     dualopt_mshr_result *r)
{
    unsigned i, n = m->cfg.entries;
    line &= cohkit_mask64(m->g.laddr_bits);
    mask = m->cfg.mode == DUALOPT_MSHR_LINE ? m->g.mask_all : mask & m->g.mask_all;
    r->line = line;
    r->mask = mask;
    r->entry = 0;
    /* 1. containment: every requested word is fetched by the entry
     * (footnote 1); the lowest index among several (D11) */
    for (i = 0; i < n; i++) {
        dualopt_mshr_entry *e = &m->e[i];
        if (e->valid && e->line == line && (mask & ~e->mask) == 0) {
            r->entry = i;
            if (m->cfg.targets && e->n >= m->cfg.targets) {
                r->kind = DUALOPT_MSHR_STALL_TGT;
                m->st.stall_targets++;
                return 0;
            }
            if (push_target(e, tag) != 0)
                return -1;
            r->kind = DUALOPT_MSHR_HIT;
            m->st.hits++;
            return 0;
        }
    }
    /* 2. allocate the lowest free entry with the whole incoming mask */
    for (i = 0; i < n; i++)
        if (!m->e[i].valid)
            break;
    if (i == n) {
        r->kind = DUALOPT_MSHR_STALL_FULL;
        m->st.stall_full++;
        return 0;
    }
    m->e[i].valid = 1;
    m->e[i].line = line;
    m->e[i].mask = mask;
    m->e[i].n = 0;
    if (push_target(&m->e[i], tag) != 0) {
        m->e[i].valid = 0;
        return -1;
    }
    r->kind = DUALOPT_MSHR_MISS;
    r->entry = i;
    m->st.misses++;
    return 0;
}

int dualopt_mshr_fill(dualopt_mshr *m, unsigned entry, uint64_t *line, uint64_t *mask,
                      const uint32_t **tags, unsigned *n)
{
    dualopt_mshr_entry *e;
    if (entry >= m->cfg.entries || !m->e[entry].valid)
        return -1;
    e = &m->e[entry];
    *line = e->line;
    *mask = e->mask;
    *tags = e->tgt;
    *n = e->n;
    e->valid = 0;
    m->st.fills++;
    return 0;
}

/* -------------------------------------------------------- timing shell -- */

dualopt_mshr_tm *dualopt_mshr_tm_new(const dualopt_mshr_cfg *c)
{
    dualopt_mshr_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->m = dualopt_mshr_new(c);
    if (t->m == NULL) {
        free(t);
        return NULL;
    }
    dualopt_mshr_tm_reset(t);
    return t;
}

void dualopt_mshr_tm_free(dualopt_mshr_tm *t)
{
    if (t == NULL)
        return;
    dualopt_mshr_free(t->m);
    free(t->dn_tags);
    free(t);
}

void dualopt_mshr_tm_reset(dualopt_mshr_tm *t)
{
    dualopt_mshr_reset(t->m);
    t->rq_valid = 0;
    t->rq_tag = t->rq_line = t->rq_mask = 0;
    t->rsp_valid = 0;
    t->rsp_kind = 0;
    t->rsp_tag = t->rsp_entry = t->rsp_line = t->rsp_mask = 0;
    t->dn_valid = 0;
    t->dn_entry = t->dn_line = t->dn_mask = t->dn_tag = t->dn_tail = 0;
    t->dn_n = t->dn_idx = 0;
    /* line mode: the mask outputs are the constant whole-line mask */
    if (t->m->cfg.mode == DUALOPT_MSHR_LINE)
        t->rsp_mask = t->dn_mask = t->m->g.mask_all;
}

void dualopt_mshr_eval(const dualopt_mshr_tm *t, const dualopt_mshr_in *in, dualopt_mshr_out *o)
{
    o->req_ready_o = !t->rq_valid || !t->rsp_valid || (in->rsp_ready_i & 1);
    o->rsp_valid_o = t->rsp_valid;
    o->rsp_kind_o = t->rsp_kind;
    o->rsp_tag_o = t->rsp_tag;
    o->rsp_entry_o = t->rsp_entry;
    o->rsp_line_o = t->rsp_line;
    o->rsp_mask_o = t->rsp_mask;
    o->fill_ready_o = !t->dn_valid;
    o->done_valid_o = t->dn_valid;
    o->done_entry_o = t->dn_entry;
    o->done_line_o = t->dn_line;
    o->done_mask_o = t->dn_mask;
    o->done_tag_o = t->dn_tag;
    /* the RTL compares the current target with the list's tail */
    o->done_last_o = t->dn_tag == t->dn_tail;
}

void dualopt_mshr_step(dualopt_mshr_tm *t, const dualopt_mshr_in *in)
{
    dualopt_mshr_out o;
    int req_fire, look_fire, fill_fire;
    if (!(in->rst_ni & 1)) {
        dualopt_mshr_tm_reset(t);
        return;
    }
    dualopt_mshr_eval(t, in, &o);
    req_fire = (in->req_valid_i & 1) && o.req_ready_o;
    look_fire = t->rq_valid && (!t->rsp_valid || (in->rsp_ready_i & 1));
    fill_fire = (in->fill_valid_i & 1) && o.fill_ready_o;

    /* DONE stream: the next target follows a transferred beat */
    if (t->dn_valid && (in->done_ready_i & 1)) {
        if (o.done_last_o)
            t->dn_valid = 0;
        else if (t->dn_idx + 1 < t->dn_n)
            t->dn_tag = t->dn_tags[++t->dn_idx];
    }
    if (t->rsp_valid && (in->rsp_ready_i & 1))
        t->rsp_valid = 0;
    /* A fill is applied before a lookup of the same cycle: the lookup no
     * longer sees the filled entry and may allocate it. A fill of a free
     * entry is ignored. */
    if (fill_fire) {
        uint64_t line, mask;
        const uint32_t *tags;
        unsigned n;
        unsigned ent = (unsigned)in->fill_entry_i;
        if (dualopt_mshr_fill(t->m, ent, &line, &mask, &tags, &n) == 0) {
            if (n > t->dn_cap) {
                uint32_t *nt = realloc(t->dn_tags, n * sizeof *nt);
                if (nt == NULL)
                    abort(); /* the shell cannot continue without its list */
                t->dn_tags = nt;
                t->dn_cap = n;
            }
            memcpy(t->dn_tags, tags, n * sizeof *tags);
            t->dn_n = n;
            t->dn_idx = 0;
            t->dn_valid = 1;
            t->dn_entry = ent;
            t->dn_line = line;
            t->dn_mask = mask;
            t->dn_tag = tags[0];
            t->dn_tail = tags[n - 1];
        }
    }
    /* the lookup of the request stage's request */
    if (look_fire) {
        dualopt_mshr_result r;
        uint32_t tag = (uint32_t)t->rq_tag;
        if (dualopt_mshr_req(t->m, t->rq_line, t->rq_mask, tag, &r) != 0)
            abort();
        t->rsp_valid = 1;
        t->rsp_kind = (unsigned)r.kind;
        t->rsp_tag = tag;
        t->rsp_entry = r.entry;
        t->rsp_line = r.line;
        t->rsp_mask = r.mask;
        t->rq_valid = 0;
    }
    if (req_fire) {
        t->rq_valid = 1;
        t->rq_tag = in->req_tag_i & cohkit_mask64(t->m->cfg.tag_bits);
        t->rq_line = in->req_line_i & cohkit_mask64(t->m->g.laddr_bits);
        t->rq_mask = in->req_mask_i & t->m->g.mask_all;
    }
}
