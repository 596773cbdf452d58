/*
 * The DualOpt CoDec de-coalescer as a registry unit (cmodel/unit.h): port
 * table, timing-shell adapters, constrained-random stimulus (coalesced,
 * regular and malformed packets) and trace stimulus, and the trace tool
 * (`cohmodel dualopt-decoal`, spec 4.5).
 */
#include <stdlib.h>
#include <string.h>

#include "dualopt_decoal.h"
#include "unit_adapt.h"

static const char *const streams[] = {"mixed", NULL};

COHKIT_UNIT_CFG_ADAPTERS(dualopt_codec, dualopt_codec_cfg)
static void u_name(const void *cfg, char *buf, size_t len)
{
    dualopt_codec_cfg_name("dualopt_decoal", cfg, buf, len);
}

int dualopt_decoal_ports(const void *cfg, cohkit_port *p, int max)
{
    dualopt_codec_geom gg, *g = &gg;
    dualopt_codec_geom_of(cfg, g);
    int n = 0;
#include "dualopt_decoal_ports.def"
    return n;
}

COHKIT_UNIT_TM_ADAPTERS(dualopt_codec_cfg, dualopt_decoal_tm, uint64_t, uint64_t, dualopt_decoal_tm_new, dualopt_decoal_tm_free,
                 dualopt_decoal_tm_reset, dualopt_decoal_tm_eval, dualopt_decoal_tm_step)

enum { FLAG_WIRE = 0, FLAG_STATS = 1 };
static const cohkit_unit_flag flags[] = {
    {"wire", NULL, "accepted for symmetry with dualopt-coal (input may mix PKT and WIRE)"},
    {"stats", NULL, "append '# packets P slots S regular R'"},
    {NULL, NULL, NULL},
};

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    dualopt_codec_cfg c;
    dualopt_codec_geom g;
    dualopt_decoal_layout l;
    uint64_t jrng; /* don't-care bytes and broken regular headers: their own generator, rng's draws unchanged */
    int have;
    dualopt_codec_pkt cur;
    unsigned cur_src, cur_bad;
    dualopt_codec_pkt *recs;
    size_t nrec, next;
    /* accepted packets whose slots are still leaving (trace cycles) */
    uint64_t q_cycle[4];
    unsigned q_left[4], q_head, q_n;
    uint64_t accepted, injected_bad, seen_bad, slots_out, regs_out, slot_cycles;
    uint64_t busy_from, full_pkts, full_cycles;
} dstim;

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    dstim *s = p;
    s->c = *(const dualopt_codec_cfg *)cfg;
    dualopt_codec_geom_of(&s->c, &s->g);
    dualopt_decoal_layout_of(&s->c, &s->l);
    s->jrng = cohkit_unit_stim_seed2(a->seed);
    s->b.bp = COHKIT_UNIT_BP_FULL;
    if (s->b.trace && dualopt_decoal_trace_read(a->trace, &s->c, &s->recs, &s->nrec, err, len) != 0)
        return cohkit_unit_stim_trace_err(a, err, len);
    return 0;
}

static void stim_free(void *p)
{
    dstim *s = p;
    if (s) {
        free(s->recs);
        free(s);
    }
}

COHKIT_UNIT_STIM_NEW(dstim, 0x5a5a5a5ull)

static void rand_pkt(dstim *s)
{
    dualopt_codec_pkt *p = &s->cur;
    unsigned x = cohkit_unit_pct(&s->b.rng), j;
    memset(p, 0, sizeof *p);
    s->cur_src = (unsigned)(cohkit_unit_rnd(&s->b.rng) % s->c.gpus);
    s->cur_bad = 0;
    if (x < 12) {
        p->reg = 1;
        p->id = (uint16_t)cohkit_unit_rnd(&s->b.rng);
        p->len = 4 + (unsigned)(cohkit_unit_rnd(&s->b.rng) % 300);
        dualopt_codec_pkt_image(&s->c, p);
    } else {
        p->n = 1 + (unsigned)(cohkit_unit_rnd(&s->b.rng) % s->c.max);
        if (cohkit_unit_pct(&s->b.rng) < 40)
            p->n = s->c.max;
        for (j = 0; j < p->n; j++) {
            p->s[j].id = (uint16_t)cohkit_unit_rnd(&s->b.rng);
            p->s[j].d[0] = cohkit_unit_rnd(&s->b.rng);
            p->s[j].d[1] = s->c.gran > 8 ? cohkit_unit_rnd(&s->b.rng) : 0;
            if (s->c.gran < 8)
                p->s[j].d[0] &= (1ull << (8 * s->c.gran)) - 1;
        }
        dualopt_codec_pkt_image(&s->c, p);
    }
    if (x >= 90) { /* malformed: one field broken */
        unsigned m = (unsigned)(cohkit_unit_rnd(&s->b.rng) % 6);
        s->cur_bad = 1;
        if (m == 0)
            p->img[0] = (uint8_t)((p->img[0] & 0xf0) | (2 + cohkit_unit_rnd(&s->b.rng) % 14));
        else if (m == 1)
            p->img[0] = (uint8_t)((p->img[0] & 0x0f) | (2 + cohkit_unit_rnd(&s->b.rng) % 14) << 4);
        else if (m == 2 && !p->reg)
            p->img[1] = (uint8_t)((p->img[1] & ~((1u << s->c.count_bits) - 1)) |
                                  (cohkit_unit_pct(&s->b.rng) < 50 ? 0 : s->c.max + 1));
        else if (m == 3)
            p->len += 1 + (unsigned)(cohkit_unit_rnd(&s->b.rng) % 3);
        else if (m == 4)
            p->img[1] |= 0x80;
        else
            p->img[p->reg ? 1 : 3] |= 0x10;
        if (p->reg && m == 3) /* a longer regular message is still regular */
            s->cur_bad = 0;
        if (p->reg && m == 2)
            s->cur_bad = 0;
    }
    if (p->reg) { /* bytes past a regular packet's header are ignored: drive them anyway */
        unsigned b;
        for (b = 4; b < s->c.pkt_bytes; b++)
            p->img[b] = (uint8_t)cohkit_unit_rnd(&s->jrng);
        if (!s->cur_bad && cohkit_unit_pct(&s->jrng) < 12) { /* a broken regular header */
            unsigned m = (unsigned)(cohkit_unit_rnd(&s->jrng) % 5);
            s->cur_bad = 1;
            if (m == 0) /* type 0 or 2..15 */
                p->img[0] = (uint8_t)((p->img[0] & 0xf0) | (cohkit_unit_pct(&s->jrng) < 20 ? 0 : 2 + cohkit_unit_rnd(&s->jrng) % 14));
            else if (m == 1) /* compression 2..15 */
                p->img[0] = (uint8_t)((p->img[0] & 0x0f) | (2 + cohkit_unit_rnd(&s->jrng) % 14) << 4);
            else if (m == 2) /* a count or reserved bit in [15:8] */
                p->img[1] |= (uint8_t)(1u << (cohkit_unit_rnd(&s->jrng) % 8));
            else if (m == 3) /* shorter than its header */
                p->len = (unsigned)(cohkit_unit_rnd(&s->jrng) % 4);
            else /* type 0, compression 1: neither */
                p->img[0] = 0x10;
        }
    }
}

static const unsigned sched_valid[] = {100, 60, 20}, sched_ready[] = {100, 70, 30};
static const cohkit_unit_bp_sched sched = COHKIT_UNIT_BP_SCHED(sched_valid, sched_ready);

static void stim_drive(void *p, uint64_t cyc, uint64_t *in)
{
    dstim *s = p;
    unsigned k, b;
    for (k = 1; k < s->l.in_words; k++)
        in[k] = 0;
    if (s->b.trace) {
        if (cyc >= 2 && !s->have && s->next < s->nrec && cohkit_unit_pct(&s->b.rng) < COHKIT_UNIT_BP_TRACE.valid) {
            s->cur = s->recs[s->next++];
            s->cur_src = s->cur.dst;
            s->have = 1;
        }
        in[s->l.out_ready] = cohkit_unit_pct(&s->b.rng) < 80;
    } else {
        if ((cyc & 1023) == 0) {
            cohkit_unit_bp_draw(&sched, &s->b.rng, &s->b.bp);
        }
        if (!s->have && cohkit_unit_pct(&s->b.rng) < s->b.bp.valid) {
            rand_pkt(s);
            s->have = 1;
        }
        in[s->l.out_ready] = cohkit_unit_pct(&s->b.rng) < s->b.bp.ready;
    }
    in[s->l.pkt_valid] = (uint64_t)s->have;
    if (s->have) {
        in[s->l.pkt_src] = s->cur_src;
        in[s->l.pkt_len] = s->cur.len;
        for (b = 0; b < (s->b.trace && s->cur.reg ? 4u : s->c.pkt_bytes); b++)
            in[s->l.pkt_data + b / 8] |= (uint64_t)s->cur.img[b] << (8 * (b % 8));
    } else if (!s->b.trace) { /* valid low: every field is don't-care */
        in[s->l.pkt_src] = cohkit_unit_rnd(&s->jrng) & ((1u << s->g.gpu_bits) - 1);
        in[s->l.pkt_len] = (uint16_t)cohkit_unit_rnd(&s->jrng);
        for (b = 0; b < s->c.pkt_bytes; b++)
            in[s->l.pkt_data + b / 8] |= (uint64_t)(uint8_t)cohkit_unit_rnd(&s->jrng) << (8 * (b % 8));
    }
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    dstim *s = p;
    if ((out[s->l.out_valid] & 1) && (in[s->l.out_ready] & 1)) {
        if (out[s->l.out_reg] & 1)
            s->regs_out++;
        else
            s->slots_out++;
        if (s->b.trace && s->b.out && s->q_n) {
            uint64_t d[2] = {out[s->l.out_data], s->g.data_bits > 64 ? out[s->l.out_data + 1] : 0};
            uint64_t c = s->q_cycle[s->q_head];
            if (out[s->l.out_reg] & 1) {
                fprintf(s->b.out, "REG %llu %u 0x%04x %u\n", (unsigned long long)c,
                        (unsigned)out[s->l.out_src], (unsigned)out[s->l.out_id],
                        (unsigned)out[s->l.out_bytes]);
            } else {
                fprintf(s->b.out, "RSP %llu %u 0x%04x ", (unsigned long long)c,
                        (unsigned)out[s->l.out_src], (unsigned)out[s->l.out_id]);
                dualopt_codec_print_data(s->b.out, &s->c, d);
                fprintf(s->b.out, "\n");
            }
        }
        if (s->q_n && --s->q_left[s->q_head] == 0) {
            s->q_head = (s->q_head + 1) % 4;
            s->q_n--;
        }
    }
    if (out[s->l.bad] & 1)
        s->seen_bad++;
    if ((in[s->l.pkt_valid] & 1) && (out[s->l.pkt_ready] & 1)) {
        s->accepted++;
        s->have = 0;
        s->injected_bad += s->cur_bad;
        if (!s->cur_bad && s->q_n < 4) {
            unsigned t = (s->q_head + s->q_n) % 4;
            s->q_cycle[t] = s->cur.cycle;
            s->q_left[t] = s->cur.reg ? 1 : s->cur.n;
            s->q_n++;
        }
    }
    (void)cyc;
}

static int stim_done(const void *p, const void *tmp)
{
    const dstim *s = p;
    const dualopt_decoal_tm *t = tmp;
    return s->next == s->nrec && !s->have && !t->busy;
}

static uint64_t stim_limit(const void *p)
{
    const dstim *s = p;
    return 64 + (uint64_t)(s->nrec + 1) * (s->c.max + 1) * 8;
}

static void stim_summary(const void *p, const void *tmp, uint64_t cycles, FILE *f, const char *c)
{
    const dstim *s = p;
    const dualopt_decoal_tm *t = tmp;
    fprintf(f, "%scycles %llu  packets accepted %llu  slots out %llu  regular out %llu"
               "  (%.3f slots per cycle)\n",
            c, (unsigned long long)cycles, (unsigned long long)s->accepted,
            (unsigned long long)s->slots_out, (unsigned long long)s->regs_out,
            cycles ? (double)s->slots_out / (double)cycles : 0.0);
    fprintf(f, "%smalformed packets injected %llu, rejected (bad_o) %llu, model %llu\n", c,
            (unsigned long long)s->injected_bad, (unsigned long long)s->seen_bad,
            (unsigned long long)t->bads);
}

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    const dualopt_codec_cfg *c = cfg;
    dualopt_codec_pkt *v;
    size_t n, i;
    unsigned j;
    uint64_t slots = 0, regs = 0;
    char err[300];
    if (dualopt_decoal_trace_read(in, c, &v, &n, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    for (i = 0; i < n; i++) {
        const dualopt_codec_pkt *p = &v[i];
        if (p->reg) {
            fprintf(out, "REG %llu %u 0x%04x %u\n", (unsigned long long)p->cycle, p->dst, p->id,
                    p->len);
            regs++;
            continue;
        }
        for (j = 0; j < p->n; j++) {
            fprintf(out, "RSP %llu %u 0x%04x ", (unsigned long long)p->cycle, p->dst, p->s[j].id);
            dualopt_codec_print_data(out, c, p->s[j].d);
            fprintf(out, "\n");
            slots++;
        }
    }
    if (fl[FLAG_STATS])
        fprintf(out, "# packets %zu slots %llu regular %llu\n", n, (unsigned long long)slots,
                (unsigned long long)regs);
    free(v);
    return 0;
}

const cohkit_unit_desc dualopt_decoal_unit = {
    .name = "dualopt-decoal",
    .family = "dualopt",
    .title = "DualOpt RDMA CoDec de-coalescer (Belayneh et al., 4.1.3, Fig. 9)",
    .model_ref = "cmodel/dualopt/dualopt_decoal.c dualopt_decoal_tm_eval() / dualopt_decoal_tm_step() (timing), "
                 "dualopt_decoal_parse() (function)",
    .cfg_size = sizeof(dualopt_codec_cfg),
    .presets = dualopt_codec_presets,
    .committed = dualopt_codec_presets,
    .module_prefix = "dualopt_decoal",
    .opts = &dualopt_codec_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = dualopt_decoal_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "PKT <cycle> <src> <n> <id>:<data>... | WIRE <cycle> <src> <hex bytes> |\n"
                  "REGPKT <cycle> <src> <id> <bytes>   (what dualopt-coal prints)\n"
                  "Output: RSP <cycle> <src> <id> <data> per slot in packet order,\n"
                  "REG <cycle> <src> <id> <bytes> per regular packet; a malformed packet is a "
                  "bad record",
    COHKIT_UNIT_STIM_FIELDS,
};
