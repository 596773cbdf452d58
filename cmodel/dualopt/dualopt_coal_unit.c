/*
 * The DualOpt CoDec coalescer as a registry unit (cmodel/unit.h): port
 * table, timing-shell adapters, constrained-random and trace stimulus (with a
 * per-destination scoreboard of the slot stream), and the trace tool
 * (`cohmodel dualopt-coal`, spec 4.4).
 */
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "dualopt_codec_stim.h"
#include "dualopt_decoal.h"
#include "unit_adapt.h"

static const char *const streams[] = {"mixed", "sparse", NULL};

COHKIT_UNIT_CFG_ADAPTERS(dualopt_codec, dualopt_codec_cfg)
static void u_name(const void *cfg, char *buf, size_t len)
{
    dualopt_codec_cfg_name("dualopt_coal", cfg, buf, len);
}

int dualopt_coal_ports(const void *cfg, cohkit_port *p, int max)
{
    dualopt_codec_geom gg, *g = &gg;
    dualopt_codec_geom_of(cfg, g);
    int n = 0;
#include "dualopt_coal_ports.def"
    return n;
}

COHKIT_UNIT_TM_ADAPTERS(dualopt_codec_cfg, dualopt_coal_tm, uint64_t, uint64_t, dualopt_coal_tm_new, dualopt_coal_tm_free,
                 dualopt_coal_tm_reset, dualopt_coal_tm_eval, dualopt_coal_tm_step)

/* -------------------------------------------------------------- stimulus */

enum { FLAG_WIRE = 0, FLAG_STATS = 1 };
static const cohkit_unit_flag flags[] = {
    {"wire", NULL, "print packets as wire bytes (WIRE lines)"},
    {"stats", NULL, "append the traffic line '# packets P slots S bytes B flits F ...'"},
    {NULL, NULL, NULL},
};

#define SB_CAP 8192

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    dualopt_codec_cfg c;
    dualopt_codec_geom g;
    dualopt_coal_layout l;
    dualopt_codec_src src;
    int wire;
    /* scoreboard: expected slots per destination, with admission cycles */
    dualopt_codec_slot *sb;
    uint64_t *sb_t;
    unsigned *sb_head, *sb_n;
    uint64_t accepted, packets, slots, regs, errors, over_max, max_wait, lone_wait;
    char first_err[256];
} coal_stim;

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    coal_stim *s = p;
    s->c = *(const dualopt_codec_cfg *)cfg;
    dualopt_codec_geom_of(&s->c, &s->g);
    dualopt_coal_layout_of(&s->c, &s->l);
    s->wire = a->flags && a->flags[FLAG_WIRE];
    s->sb = calloc((size_t)s->g.nf * SB_CAP, sizeof *s->sb);
    s->sb_t = calloc((size_t)s->g.nf * SB_CAP, sizeof *s->sb_t);
    s->sb_head = calloc(s->g.nf, sizeof *s->sb_head);
    s->sb_n = calloc(s->g.nf, sizeof *s->sb_n);
    if (!s->sb || !s->sb_t || !s->sb_head || !s->sb_n)
        return snprintf(err, len, "out of memory"), -1;
    return dualopt_codec_src_init(&s->src, &s->c, &s->b, a, err, len);
}

static void stim_free(void *p)
{
    coal_stim *s = p;
    if (s) {
        free(s->src.recs);
        free(s->sb);
        free(s->sb_t);
        free(s->sb_head);
        free(s->sb_n);
        free(s);
    }
}

COHKIT_UNIT_STIM_NEW(coal_stim, 0x7654321ull)

void dualopt_codec_rand_rsp(const dualopt_codec_cfg *c, uint64_t *rng, int sparse, dualopt_codec_rsp *r)
{
    /* the three geometry figures it needs (dualopt_codec_geom_of(), per
     * response, was a tenth of a lockstep cycle's instructions) */
    unsigned words = c->line / c->gran, nf = c->gpus - 1,
             gpu_bits = c->gpus > 2 ? cohkit_clog2(c->gpus) : 1, j, k, x;
    x = cohkit_unit_pct(rng);
    memset(r, 0, sizeof *r);
    r->id = (uint16_t)cohkit_unit_rnd(rng);
    if (x < 8) {
        r->reg = 1;
        r->dst = (unsigned)(cohkit_unit_rnd(rng) % c->gpus);
        r->bytes = 4 + (unsigned)(cohkit_unit_rnd(rng) % 200);
        return;
    }
    if (x < 10) { /* no buffer (own id, out of range) or an empty mask: discarded */
        r->dst = cohkit_unit_pct(rng) < 50 ? c->self : (unsigned)(cohkit_unit_rnd(rng) & ((1u << gpu_bits) - 1));
        r->mask = cohkit_unit_pct(rng) < 50 ? 0 : cohkit_unit_rnd(rng);
    } else {
        unsigned f = (unsigned)(cohkit_unit_rnd(rng) % nf);
        r->dst = dualopt_coal_gpu_of(c, f);
        x = cohkit_unit_pct(rng);
        if (sparse || x < 50)
            r->mask = 1ull << (cohkit_unit_rnd(rng) % words);
        else if (x < 85)
            r->mask = cohkit_unit_rnd(rng) & cohkit_unit_rnd(rng) & cohkit_unit_rnd(rng);
        else
            r->mask = cohkit_unit_rnd(rng);
        if (words < 64)
            r->mask &= (1ull << words) - 1;
        if (r->mask == 0)
            r->mask = 1;
    }
    if (words < 64)
        r->mask &= (1ull << words) - 1;
    for (j = 0, k = 0; j < words; j++)
        if ((r->mask >> j) & 1) {
            r->w[k][0] = cohkit_unit_rnd(rng);
            r->w[k][1] = cohkit_unit_rnd(rng);
            if (c->gran < 8)
                r->w[k][0] &= (1ull << (8 * c->gran)) - 1;
            if (c->gran <= 8)
                r->w[k][1] = 0;
            k++;
        }
}

void dualopt_codec_drive_rsp(const dualopt_codec_cfg *c, const dualopt_coal_layout *l, const dualopt_codec_rsp *r, uint64_t *in)
{
    unsigned j, n = 0, db = 8 * c->gran;
    uint64_t m = r->mask;
    in[l->in_reg] = r->reg;
    in[l->in_dst] = r->dst;
    in[l->in_id] = r->id;
    in[l->in_mask] = r->reg ? 0 : r->mask;
    in[l->in_bytes] = r->reg ? r->bytes : 0;
    while (m) {
        m &= m - 1;
        n++;
    }
    if (r->reg)
        n = 0;
    for (j = 0; j < n; j++) {
        cohkit_bits_put(in + l->in_data, j * db, db < 64 ? db : 64, r->w[j][0]);
        if (db > 64)
            cohkit_bits_put(in + l->in_data, j * db + 64, db - 64, r->w[j][1]);
    }
}

void dualopt_codec_draw_dontcare(const dualopt_codec_cfg *c, uint64_t *jrng, dualopt_codec_rsp *j)
{
    unsigned k;
    dualopt_codec_rand_rsp(c, jrng, 0, j);
    j->reg = 0;
    j->mask = c->line / c->gran < 64 ? (1ull << (c->line / c->gran)) - 1 : ~0ull;
    for (k = 0; k < c->line / c->gran; k++) {
        j->w[k][0] = cohkit_unit_rnd(jrng);
        j->w[k][1] = cohkit_unit_rnd(jrng);
        if (c->gran < 8)
            j->w[k][0] &= (1ull << (8 * c->gran)) - 1;
        if (c->gran <= 8)
            j->w[k][1] = 0;
    }
    do
        j->id = (uint16_t)cohkit_unit_rnd(jrng); /* the mask a regular response carries */
    while ((j->id & j->mask) == 0);
}

void dualopt_codec_drive_dontcare(const dualopt_codec_cfg *c, const dualopt_coal_layout *l, uint64_t *jrng, const dualopt_codec_rsp *cur,
                          const dualopt_codec_rsp *j, uint64_t *in)
{
    if (cur == NULL) { /* valid low: every field is don't-care, a new one each cycle */
        dualopt_codec_rsp x;
        dualopt_codec_draw_dontcare(c, jrng, &x);
        dualopt_codec_drive_rsp(c, l, &x, in);
        in[l->in_mask] = x.id & x.mask;
        in[l->in_reg] = cohkit_unit_pct(jrng) < 50;
        in[l->in_bytes] = (uint16_t)cohkit_unit_rnd(jrng);
        return;
    }
    dualopt_codec_drive_rsp(c, l, j, in); /* words beyond popcount(mask) */
    dualopt_codec_drive_rsp(c, l, cur, in);
    if (cur->reg) /* a regular response's mask is ignored */
        in[l->in_mask] = j->id & j->mask;
}

int dualopt_codec_src_init(dualopt_codec_src *r, const dualopt_codec_cfg *c,
                           const cohkit_unit_stim_base *b, const cohkit_unit_stim_args *a,
                           char *err, size_t len)
{
    r->jrng = cohkit_unit_stim_seed2(a->seed);
    r->p_valid = r->p_ready = 100;
    r->sparse = b->kind == 1;
    if (b->trace && dualopt_coal_trace_read(a->trace, c, &r->recs, &r->nrec, err, len) != 0)
        return cohkit_unit_stim_trace_err(a, err, len);
    return 0;
}

void dualopt_codec_src_drive(dualopt_codec_src *r, const dualopt_codec_cfg *c,
                             const dualopt_coal_layout *l, cohkit_unit_stim_base *b, uint64_t cyc,
                             uint64_t *in)
{
    unsigned k;
    for (k = 1; k < l->in_words; k++)
        in[k] = 0;
    if (b->trace) {
        if (cyc >= 2 && !r->have && r->next < r->nrec && r->recs[r->next].cycle <= cyc - 2) {
            r->cur = r->recs[r->next++];
            r->have = 1;
        }
        in[l->pkt_ready] = 1;
    } else {
        if ((cyc & 2047) == 0) {
            static const unsigned pv[] = {100, 60, 20, 3}, pr[] = {100, 70, 30};
            r->p_valid = r->sparse ? 2 : pv[cohkit_unit_rnd(&b->rng) % 4];
            r->p_ready = pr[cohkit_unit_rnd(&b->rng) % 3];
        }
        if (!r->have && cohkit_unit_pct(&b->rng) < r->p_valid) {
            dualopt_codec_rand_rsp(c, &b->rng, r->sparse, &r->cur);
            r->have = 1;
            dualopt_codec_draw_dontcare(c, &r->jrng, &r->jreg);
        }
        in[l->pkt_ready] = cohkit_unit_pct(&b->rng) < r->p_ready; /* out_ready_i */
        dualopt_codec_drive_dontcare(c, l, &r->jrng, r->have ? &r->cur : NULL, &r->jreg, in);
        in[l->in_valid] = (uint64_t)r->have;
        return;
    }
    in[l->in_valid] = (uint64_t)r->have;
    if (r->have)
        dualopt_codec_drive_rsp(c, l, &r->cur, in);
}

static void stim_drive(void *p, uint64_t cyc, uint64_t *in)
{
    coal_stim *s = p;
    dualopt_codec_src_drive(&s->src, &s->c, &s->l, &s->b, cyc, in);
}

static void sb_error(coal_stim *s, uint64_t cyc, const char *what)
{
    if (s->errors++ == 0)
        snprintf(s->first_err, sizeof s->first_err, "cycle %llu: %.200s", (unsigned long long)cyc,
                 what);
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    coal_stim *s = p;
    if ((in[s->l.in_valid] & 1) && (out[s->l.in_ready] & 1)) {
        const dualopt_codec_rsp *r = &s->src.cur;
        int f = dualopt_coal_fifo_of(&s->c, r->dst);
        s->accepted++;
        s->src.have = 0;
        if (!r->reg && f >= 0 && r->mask) {
            unsigned n = 0, j;
            uint64_t m = r->mask;
            while (m) {
                m &= m - 1;
                n++;
            }
            for (j = 0; j < n; j++) {
                size_t at;
                if (s->sb_n[f] == SB_CAP) {
                    sb_error(s, cyc, "scoreboard overflow");
                    break;
                }
                at = (size_t)f * SB_CAP + (s->sb_head[f] + s->sb_n[f]) % SB_CAP;
                s->sb[at].d[0] = r->w[j][0];
                s->sb[at].d[1] = r->w[j][1];
                s->sb[at].id = r->id;
                s->sb_t[at] = cyc;
                s->sb_n[f]++;
            }
        }
    }
    if ((out[s->l.pkt_valid] & 1) && (in[s->l.pkt_ready] & 1)) {
        uint8_t img[256];
        unsigned b, j, dst = (unsigned)out[s->l.pkt_dst];
        unsigned len = (unsigned)out[s->l.pkt_len];
        dualopt_codec_pkt pk;
        char why[160];
        int f = dualopt_coal_fifo_of(&s->c, dst);
        for (b = 0; b < s->c.pkt_bytes; b++)
            img[b] = (uint8_t)(out[s->l.pkt_data + b / 8] >> (8 * (b % 8)));
        s->packets++;
        if (dualopt_decoal_parse(&s->c, img, len, &pk, why, sizeof why) != 0) {
            sb_error(s, cyc, why);
            return;
        }
        pk.cycle = cyc - 3; /* decided one cycle before it is on the port */
        pk.dst = dst;
        if (pk.reg) {
            s->regs++;
        } else if (f < 0) {
            sb_error(s, cyc, "coalesced packet for no destination buffer");
        } else {
            if (pk.n > s->c.max)
                s->over_max++;
            for (j = 0; j < pk.n; j++) {
                size_t at = (size_t)f * SB_CAP + s->sb_head[f];
                uint64_t w;
                if (s->sb_n[f] == 0) {
                    sb_error(s, cyc, "a slot that was never admitted");
                    break;
                }
                if (s->sb[at].id != pk.s[j].id || s->sb[at].d[0] != pk.s[j].d[0] ||
                    s->sb[at].d[1] != pk.s[j].d[1]) {
                    char m[120];
                    snprintf(m, sizeof m, "destination %u: slot %u is 0x%04x, expected 0x%04x",
                             dst, j, pk.s[j].id, s->sb[at].id);
                    sb_error(s, cyc, m);
                }
                /* wait from admission to the send decision */
                w = cyc - 1 - s->sb_t[at];
                if (w > s->max_wait)
                    s->max_wait = w;
                if (pk.n == 1 && w > s->lone_wait)
                    s->lone_wait = w;
                s->sb_head[f] = (s->sb_head[f] + 1) % SB_CAP;
                s->sb_n[f]--;
                s->slots++;
            }
        }
        if (s->b.trace && s->b.out) {
            pk.cycle = cyc - 3;
            dualopt_codec_print_pkt(s->b.out, &s->c, &pk, s->wire);
        }
    }
}

static int stim_done(const void *p, const void *tmp)
{
    const coal_stim *s = p;
    const dualopt_coal_tm *t = tmp;
    return s->src.next == s->src.nrec && !s->src.have && dualopt_coal_idle(t->k) && !t->v_valid;
}

static uint64_t stim_limit(const void *p)
{
    const coal_stim *s = p;
    uint64_t last = s->src.nrec ? s->src.recs[s->src.nrec - 1].cycle : 0;
    return last + 16 + (uint64_t)(s->src.nrec + 1) * (s->c.timeout + 70);
}

static void stim_summary(const void *p, const void *tmp, uint64_t cycles, FILE *f, const char *c)
{
    const coal_stim *s = p;
    const dualopt_codec_stats *st = &((const dualopt_coal_tm *)tmp)->k->st;
    unsigned i;
    uint64_t pending = 0;
    for (i = 0; i < s->g.nf; i++)
        pending += s->sb_n[i];
    fprintf(f, "%scycles %llu  responses accepted %llu  packets %llu (regular %llu)  slots %llu"
               "  (%.3f slots per packet)\n",
            c, (unsigned long long)cycles, (unsigned long long)s->accepted,
            (unsigned long long)s->packets, (unsigned long long)s->regs,
            (unsigned long long)s->slots,
            s->packets > s->regs ? (double)s->slots / (double)(s->packets - s->regs) : 0.0);
    fprintf(f, "%sscoreboard: %llu errors, %llu packets over %u slots, %llu slots pending; "
               "longest wait %llu cycles (lone slot %llu); full sends %llu, timeout sends %llu%s%s\n",
            c, (unsigned long long)s->errors, (unsigned long long)s->over_max, s->c.max,
            (unsigned long long)pending, (unsigned long long)s->max_wait,
            (unsigned long long)s->lone_wait, (unsigned long long)st->full_sends,
            (unsigned long long)st->timeouts, s->errors ? "; first: " : "", s->first_err);
}

/* ------------------------------------------------------------ trace tool */

typedef struct {
    FILE *out;
    const dualopt_codec_cfg *c;
    int wire;
} pctx;

static void print_cb(void *ctx, const dualopt_codec_pkt *p)
{
    const pctx *x = ctx;
    dualopt_codec_print_pkt(x->out, x->c, p, x->wire);
}

int dualopt_coal_run(const dualopt_codec_cfg *c, FILE *in, const char *in_name, FILE *errf,
                     dualopt_codec_pkt_fn fn, void *ctx, dualopt_codec_stats *st);
int dualopt_coal_run(const dualopt_codec_cfg *c, FILE *in, const char *in_name, FILE *errf,
                     dualopt_codec_pkt_fn fn, void *ctx, dualopt_codec_stats *st)
{
    dualopt_codec_rsp *v;
    size_t n, i;
    char err[300];
    dualopt_coal_core *k;
    if (dualopt_coal_trace_read(in, c, &v, &n, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    k = dualopt_coal_new(c);
    if (k == NULL) {
        free(v);
        fprintf(errf, "cohmodel: out of memory\n");
        return 2;
    }
    for (i = 0; i < n; i++)
        if (dualopt_coal_push(k, &v[i]) != 0) {
            fprintf(errf, "cohmodel: out of memory\n");
            free(v);
            dualopt_coal_free(k);
            return 2;
        }
    free(v);
    while (!dualopt_coal_idle(k))
        dualopt_coal_tick(k, fn, ctx);
    if (st)
        *st = k->st;
    dualopt_coal_free(k);
    return 0;
}

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    pctx x;
    dualopt_codec_stats st;
    int rc;
    x.out = out;
    x.c = cfg;
    x.wire = fl[FLAG_WIRE] != NULL;
    rc = dualopt_coal_run(cfg, in, in_name, errf, print_cb, &x, &st);
    if (rc == 0 && fl[FLAG_STATS])
        dualopt_codec_print_stats(out, &st);
    return rc;
}

const cohkit_unit_desc dualopt_coal_unit = {
    .name = "dualopt-coal",
    .family = "dualopt",
    .title = "DualOpt RDMA CoDec coalescer (Belayneh et al., 4.1.3, Fig. 9, Table 1, 6.2)",
    .model_ref = "cmodel/dualopt/dualopt_coal.c dualopt_coal_tm_eval() / dualopt_coal_tm_step() (timing), dualopt_coal_push() / "
                 "dualopt_coal_tick() (function)",
    .cfg_size = sizeof(dualopt_codec_cfg),
    .presets = dualopt_codec_presets,
    .committed = dualopt_codec_presets,
    .module_prefix = "dualopt_coal",
    .opts = &dualopt_codec_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = dualopt_coal_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "RSP <cycle> <dst> <id> <mask> <data>...  (popcount(mask) words, ascending bits)\n"
                  "REG <cycle> <dst> <id> <bytes>           (regular response, passes through)\n"
                  "cycles non-decreasing; '#' comments. Output, one per cycle at most:\n"
                  "PKT <cycle> <dst> <n> <id>:<data>... | WIRE <cycle> <dst> <hex bytes> (--wire)\n"
                  "| REGPKT <cycle> <dst> <id> <bytes>",
    COHKIT_UNIT_STIM_FIELDS,
};
