/*
 * The DualOpt CoDec round trip as a registry unit (spec 4.6): the
 * coalescer's and de-coalescer's timing shells joined by a link, as the
 * generated wrapper joins their RTL. Its stimulus keeps a per-destination
 * scoreboard of the slot stream (the round trip must be the identity on each
 * destination's slots), and its trace tool (`cohmodel dualopt-codec`) runs the
 * joined shells on a coal trace, so that packet departures include the
 * de-coalescer's back-pressure (one slot per cycle).
 */
#include <stdlib.h>
#include <string.h>

#include "dualopt_codec_stim.h"
#include "dualopt_decoal.h"
#include "unit_adapt.h"

#define CW_MAX 96 /* words of a port array (line <= 256 B, packet <= 256 B) */

typedef struct {
    dualopt_coal_tm *c;
    dualopt_decoal_tm *d;
    dualopt_codec_cfg cfg;
    unsigned in_ready, out_valid, out_reg, out_src, out_id, out_data, out_bytes, bad, link_fire,
        out_words, dwords;
} codec_tm;

static const char *const streams[] = {"mixed", "sparse", NULL};
static const char *const committed[] = {"default", "fpga", NULL};

COHKIT_UNIT_CFG_ADAPTERS(dualopt_codec, dualopt_codec_cfg)
static void u_name(const void *cfg, char *buf, size_t len)
{
    dualopt_codec_cfg_name("dualopt_codec", cfg, buf, len);
}

COHKIT_UNIT_PORTS_BEGIN(dualopt_codec_cfg, dualopt_codec_geom, dualopt_codec_geom_of, c)
#include "dualopt_codec_ports.def"
COHKIT_UNIT_PORTS_END

static void codec_tm_free(void *p)
{
    codec_tm *t = p;
    if (t) {
        dualopt_coal_tm_free(t->c);
        dualopt_decoal_tm_free(t->d);
        free(t);
    }
}

static void *codec_tm_new(const void *cfg)
{
    codec_tm *t = calloc(1, sizeof *t);
    dualopt_codec_geom g;
    unsigned o = 0;
    if (t == NULL)
        return NULL;
    t->cfg = *(const dualopt_codec_cfg *)cfg;
    t->c = dualopt_coal_tm_new(cfg);
    t->d = dualopt_decoal_tm_new(cfg);
    if (!t->c || !t->d) {
        codec_tm_free(t);
        return NULL;
    }
    dualopt_codec_geom_of(cfg, &g);
    t->dwords = (g.data_bits + 63) / 64;
    t->in_ready = o++;
    t->out_valid = o++;
    t->out_reg = o++;
    t->out_src = o++;
    t->out_id = o++;
    t->out_data = o;
    o += t->dwords;
    t->out_bytes = o++;
    t->bad = o++;
    t->link_fire = o++;
    t->out_words = o;
    return t;
}

static void codec_tm_reset(void *p)
{
    codec_tm *t = p;
    dualopt_coal_tm_reset(t->c);
    dualopt_decoal_tm_reset(t->d);
}

/* The two shells' inputs and outputs for the wrapper's inputs `in` (the
 * wrapper's inputs are laid out as the coalescer's, out_ready_i in place of
 * pkt_ready_i). */
static void split(const codec_tm *t, const uint64_t *in, uint64_t *cin, uint64_t *cout,
                  uint64_t *din, int *dready)
{
    const dualopt_coal_layout *cl = &t->c->l;
    const dualopt_decoal_layout *dl = &t->d->l;
    unsigned k, nw = (t->c->k->g.pkt_data_bits + 63) / 64;
    int oready = (int)(in[cl->pkt_ready] & 1);
    memcpy(cin, in, cl->in_words * sizeof *cin);
    *dready = dualopt_decoal_tm_ready(t->d, oready);
    cin[cl->pkt_ready] = (uint64_t)*dready;
    dualopt_coal_tm_eval(t->c, cin, cout);
    memset(din, 0, dl->in_words * sizeof *din);
    din[0] = in[0];
    din[dl->pkt_valid] = cout[cl->pkt_valid];
    din[dl->pkt_src] = cout[cl->pkt_dst];
    din[dl->pkt_len] = cout[cl->pkt_len];
    for (k = 0; k < nw; k++)
        din[dl->pkt_data + k] = cout[cl->pkt_data + k];
    din[dl->out_ready] = (uint64_t)oready;
}

static void codec_tm_eval(const void *p, const uint64_t *in, uint64_t *out)
{
    const codec_tm *t = p;
    uint64_t cin[CW_MAX], cout[CW_MAX], din[CW_MAX], dout[CW_MAX];
    const dualopt_decoal_layout *dl = &t->d->l;
    int dready;
    unsigned k;
    split(t, in, cin, cout, din, &dready);
    dualopt_decoal_tm_eval(t->d, din, dout);
    memset(out, 0, t->out_words * sizeof *out);
    out[t->in_ready] = cout[t->c->l.in_ready];
    out[t->out_valid] = dout[dl->out_valid];
    out[t->out_reg] = dout[dl->out_reg];
    out[t->out_src] = dout[dl->out_src];
    out[t->out_id] = dout[dl->out_id];
    for (k = 0; k < t->dwords; k++)
        out[t->out_data + k] = dout[dl->out_data + k];
    out[t->out_bytes] = dout[dl->out_bytes];
    out[t->bad] = dout[dl->bad];
    out[t->link_fire] = (cout[t->c->l.pkt_valid] & 1) && dready;
}

static void codec_tm_step(void *p, const uint64_t *in)
{
    codec_tm *t = p;
    uint64_t cin[CW_MAX], cout[CW_MAX], din[CW_MAX];
    int dready;
    split(t, in, cin, cout, din, &dready);
    dualopt_coal_tm_step(t->c, cin);
    dualopt_decoal_tm_step(t->d, din);
}

/* -------------------------------------------------------------- stimulus */

enum { FLAG_WIRE = 0, FLAG_STATS = 1 };
static const cohkit_unit_flag flags[] = {
    {"wire", NULL, "accepted: the link always carries the byte format (4.6)"},
    {"stats", NULL, "append the coalescer's traffic line '# packets P slots S ...'"},
    {NULL, NULL, NULL},
};

#define SB_CAP 8192

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    dualopt_codec_cfg c;
    dualopt_codec_geom g;
    dualopt_coal_layout l;
    codec_tm lay; /* output offsets only */
    dualopt_codec_src src;
    uint64_t last_fire;
    dualopt_codec_slot *sb;
    unsigned *sb_head, *sb_n;
    uint64_t accepted, slots, regs, fires, errors;
    char first_err[256];
} cstim;

static void stim_free(void *p)
{
    cstim *s = p;
    if (s) {
        free(s->src.recs);
        free(s->sb);
        free(s->sb_head);
        free(s->sb_n);
        free(s);
    }
}

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    cstim *s = p;
    codec_tm *t = codec_tm_new(cfg);
    s->c = *(const dualopt_codec_cfg *)cfg;
    dualopt_codec_geom_of(&s->c, &s->g);
    dualopt_coal_layout_of(&s->c, &s->l);
    if (t)
        s->lay = *t;
    codec_tm_free(t);
    s->sb = calloc((size_t)s->g.nf * SB_CAP, sizeof *s->sb);
    s->sb_head = calloc(s->g.nf, sizeof *s->sb_head);
    s->sb_n = calloc(s->g.nf, sizeof *s->sb_n);
    if (!t || !s->sb || !s->sb_head || !s->sb_n)
        return snprintf(err, len, "out of memory"), -1;
    return dualopt_codec_src_init(&s->src, &s->c, &s->b, a, err, len);
}

COHKIT_UNIT_STIM_NEW(cstim, 0x3141592ull)

static void stim_drive(void *p, uint64_t cyc, uint64_t *in)
{
    cstim *s = p;
    dualopt_codec_src_drive(&s->src, &s->c, &s->l, &s->b, cyc, in);
}

static void sb_error(cstim *s, uint64_t cyc, const char *what)
{
    if (s->errors++ == 0)
        snprintf(s->first_err, sizeof s->first_err, "cycle %llu: %.200s", (unsigned long long)cyc,
                 what);
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    cstim *s = p;
    const codec_tm *t = &s->lay;
    if ((out[t->out_valid] & 1) && (in[s->l.pkt_ready] & 1)) {
        unsigned src = (unsigned)out[t->out_src], id = (unsigned)out[t->out_id];
        uint64_t d[2] = {out[t->out_data], t->dwords > 1 ? out[t->out_data + 1] : 0};
        if (out[t->out_reg] & 1) {
            s->regs++;
            if (s->b.out)
                fprintf(s->b.out, "REG %llu %u 0x%04x %u\n", (unsigned long long)(s->last_fire - 3),
                        src, id, (unsigned)out[t->out_bytes]);
        } else {
            int f = dualopt_coal_fifo_of(&s->c, src);
            s->slots++;
            if (f < 0 || s->sb_n[f] == 0) {
                sb_error(s, cyc, "a slot that was never admitted");
            } else {
                const dualopt_codec_slot *e = &s->sb[(size_t)f * SB_CAP + s->sb_head[f]];
                if (e->id != id || e->d[0] != d[0] || e->d[1] != d[1]) {
                    char m[160];
                    snprintf(m, sizeof m, "destination %u: slot 0x%04x, expected 0x%04x", src, id,
                             e->id);
                    sb_error(s, cyc, m);
                }
                s->sb_head[f] = (s->sb_head[f] + 1) % SB_CAP;
                s->sb_n[f]--;
            }
            if (s->b.out) {
                fprintf(s->b.out, "RSP %llu %u 0x%04x ", (unsigned long long)(s->last_fire - 3), src,
                        id);
                dualopt_codec_print_data(s->b.out, &s->c, d);
                fprintf(s->b.out, "\n");
            }
        }
    }
    if (out[t->bad] & 1)
        sb_error(s, cyc, "the de-coalescer rejected a packet of the coalescer");
    if (out[t->link_fire] & 1) {
        s->last_fire = cyc;
        s->fires++;
    }
    if ((in[s->l.in_valid] & 1) && (out[t->in_ready] & 1)) {
        const dualopt_codec_rsp *r = &s->src.cur;
        int f = dualopt_coal_fifo_of(&s->c, r->dst);
        s->accepted++;
        s->src.have = 0;
        if (!r->reg && f >= 0 && r->mask) {
            uint64_t m = r->mask;
            unsigned j = 0;
            for (; m; m &= m - 1, j++) {
                size_t at;
                if (s->sb_n[f] == SB_CAP) {
                    sb_error(s, cyc, "scoreboard overflow");
                    break;
                }
                at = (size_t)f * SB_CAP + (s->sb_head[f] + s->sb_n[f]) % SB_CAP;
                s->sb[at].d[0] = r->w[j][0];
                s->sb[at].d[1] = r->w[j][1];
                s->sb[at].id = r->id;
                s->sb_n[f]++;
            }
        }
    }
}

static int stim_done(const void *p, const void *tmp)
{
    const cstim *s = p;
    const codec_tm *t = tmp;
    return s->src.next == s->src.nrec && !s->src.have && dualopt_coal_idle(t->c->k) && !t->c->v_valid && !t->d->busy;
}

static uint64_t stim_limit(const void *p)
{
    const cstim *s = p;
    uint64_t last = s->src.nrec ? s->src.recs[s->src.nrec - 1].cycle : 0;
    return last + 16 + (uint64_t)(s->src.nrec + 1) * (s->c.timeout + 90);
}

static void stim_summary(const void *p, const void *tmp, uint64_t cycles, FILE *f, const char *c)
{
    const cstim *s = p;
    unsigned i;
    uint64_t pending = 0;
    (void)tmp;
    for (i = 0; i < s->g.nf; i++)
        pending += s->sb_n[i];
    fprintf(f, "%scycles %llu  responses accepted %llu  link packets %llu  slots out %llu  "
               "regular out %llu\n",
            c, (unsigned long long)cycles, (unsigned long long)s->accepted,
            (unsigned long long)s->fires, (unsigned long long)s->slots,
            (unsigned long long)s->regs);
    fprintf(f, "%sround trip: %llu errors, %llu slots in flight at the end%s%s\n", c,
            (unsigned long long)s->errors, (unsigned long long)pending,
            s->errors ? "; first: " : "", s->first_err);
}

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    cohkit_unit_stim_args a;
    cstim *s;
    codec_tm *t;
    uint64_t cyc, limit, inw[CW_MAX], outw[CW_MAX];
    char err[400];
    int rc = 0;
    memset(&a, 0, sizeof a);
    a.trace = in;
    a.trace_name = in_name;
    a.out = out;
    a.flags = fl;
    s = stim_new(cfg, &a, err, sizeof err);
    if (s == NULL) {
        fprintf(errf, "cohmodel: %s\n", err);
        return 2;
    }
    t = codec_tm_new(cfg);
    if (t == NULL) {
        fprintf(errf, "cohmodel: out of memory\n");
        stim_free(s);
        return 2;
    }
    limit = stim_limit(s);
    memset(inw, 0, sizeof inw);
    for (cyc = 0; cyc < limit; cyc++) {
        inw[0] = cyc >= 2;
        stim_drive(s, cyc, inw);
        codec_tm_eval(t, inw, outw);
        if (inw[0])
            stim_observe(s, cyc, inw, outw);
        codec_tm_step(t, inw);
        if (stim_done(s, t))
            break;
    }
    if (cyc == limit || s->errors) {
        fprintf(errf, "cohmodel: internal error: %s\n",
                s->errors ? s->first_err : "the round trip did not drain");
        rc = 2;
    } else if (fl[FLAG_STATS]) {
        dualopt_codec_print_stats(out, &t->c->k->st);
    }
    codec_tm_free(t);
    stim_free(s);
    return rc;
}

const cohkit_unit_desc dualopt_codec_unit = {
    .name = "dualopt-codec",
    .family = "dualopt",
    .title = "DualOpt RDMA CoDec round trip: coalescer -> link -> de-coalescer (4.1.3, Fig. 9)",
    .model_ref = "cmodel/dualopt/dualopt_coal.c coal_tm_*(), cmodel/dualopt/dualopt_decoal.c decoal_tm_*() "
                 "joined as in cmodel/dualopt/dualopt_codec_unit.c",
    .cfg_size = sizeof(dualopt_codec_cfg),
    .presets = dualopt_codec_presets,
    .committed = committed,
    .module_prefix = "dualopt_codec",
    .opts = &dualopt_codec_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    .tm_new = codec_tm_new,
    .tm_free = codec_tm_free,
    .tm_reset = codec_tm_reset,
    .tm_eval = codec_tm_eval,
    .tm_step = codec_tm_step,
    .flags = flags,
    .trace_help = "the input of dualopt-coal (RSP / REG records);\n"
                  "output: RSP <cycle> <dst> <id> <data> per slot and REG <cycle> <dst> <id> "
                  "<bytes>,\nthe cycle being the packet's departure over the link",
    COHKIT_UNIT_STIM_FIELDS,
};
