/*
 * DualOpt RDMA CoDec de-coalescer: packet checks, split, timing shell.
 * See dualopt_decoal.h and docs/dualopt.md.
 */
#include "dualopt_decoal.h"
#include "bits.h"

#include <stdlib.h>
#include <string.h>

int dualopt_decoal_parse(const dualopt_codec_cfg *c, const uint8_t *img, unsigned len, dualopt_codec_pkt *p, char *why,
                 size_t wlen)
{
    uint32_t h = (uint32_t)img[0] | (uint32_t)img[1] << 8 | (uint32_t)img[2] << 16 |
                 (uint32_t)img[3] << 24;
    unsigned type = h & 0xf, comp = (h >> 4) & 0xf, cnt, j, b, at;
    memset(p, 0, sizeof *p);
    if (type != 1)
        return snprintf(why, wlen, "message type %u is not a read data response (1)", type), -1;
    if (comp == 0) {
        if ((h >> 8) & 0xff)
            return snprintf(why, wlen, "regular packet with count or reserved bits set"), -1;
        if (len < DUALOPT_CODEC_HDR_BYTES)
            return snprintf(why, wlen, "regular packet of %u bytes is shorter than its header",
                            len), -1;
        p->reg = 1;
        p->id = (uint16_t)(h >> 16);
        p->len = len;
        memcpy(p->img, img, DUALOPT_CODEC_HDR_BYTES);
        return 0;
    }
    if (comp != 1)
        return snprintf(why, wlen, "compression %u is neither none (0) nor coalesced (1)", comp),
               -1;
    cnt = (h >> 8) & ((1u << c->count_bits) - 1);
    if (h >> (8 + c->count_bits))
        return snprintf(why, wlen, "reserved header bits set (0x%08x)", (unsigned)h), -1;
    if (cnt == 0 || cnt > c->max)
        return snprintf(why, wlen, "count %u is not 1..%u", cnt, c->max), -1;
    if (len != DUALOPT_CODEC_HDR_BYTES + cnt * (c->gran + 2))
        return snprintf(why, wlen, "%u bytes for %u slots (expected %u)", len, cnt,
                        DUALOPT_CODEC_HDR_BYTES + cnt * (c->gran + 2)), -1;
    p->n = cnt;
    p->len = len;
    for (j = 0, at = DUALOPT_CODEC_HDR_BYTES; j < cnt; j++) {
        for (b = 0; b < c->gran; b++, at++)
            p->s[j].d[b / 8] |= (uint64_t)img[at] << (8 * (b % 8));
        p->s[j].id = (uint16_t)(img[at] | img[at + 1] << 8);
        at += 2;
    }
    memcpy(p->img, img, len);
    return 0;
}

#define WORDS(b) (((b) + 63u) / 64u)

void dualopt_decoal_layout_of(const dualopt_codec_cfg *c, dualopt_decoal_layout *l)
{
    dualopt_codec_geom g;
    unsigned o = 1;
    dualopt_codec_geom_of(c, &g);
    l->pkt_valid = o++;
    l->pkt_src = o++;
    l->pkt_len = o++;
    l->pkt_data = o;
    o += WORDS(g.pkt_data_bits);
    l->out_ready = o++;
    l->in_words = o;
    o = 0;
    l->pkt_ready = o++;
    l->out_valid = o++;
    l->out_reg = o++;
    l->out_src = o++;
    l->out_id = o++;
    l->out_data = o;
    o += WORDS(g.data_bits);
    l->out_bytes = o++;
    l->bad = o++;
    l->out_words = o;
}

dualopt_decoal_tm *dualopt_decoal_tm_new(const dualopt_codec_cfg *c)
{
    dualopt_decoal_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->c = *c;
    dualopt_codec_geom_of(c, &t->g);
    dualopt_decoal_layout_of(c, &t->l);
    dualopt_decoal_tm_reset(t);
    return t;
}

void dualopt_decoal_tm_free(dualopt_decoal_tm *t) { free(t); }

void dualopt_decoal_tm_reset(dualopt_decoal_tm *t)
{
    t->busy = t->reg = t->src = t->n = t->idx = t->len = t->bad = 0;
    t->id = 0;
    memset(t->s, 0, sizeof t->s);
    t->packets = t->slots = t->regs = t->bads = 0;
}

int dualopt_decoal_tm_ready(const dualopt_decoal_tm *t, int out_ready)
{
    return !t->busy || (out_ready && t->idx + 1 == t->n);
}

void dualopt_decoal_tm_eval(const dualopt_decoal_tm *t, const uint64_t *in, uint64_t *out)
{
    const dualopt_codec_slot *s = &t->s[t->idx];
    memset(out, 0, t->l.out_words * sizeof *out);
    out[t->l.pkt_ready] = (uint64_t)dualopt_decoal_tm_ready(t, (int)(in[t->l.out_ready] & 1));
    out[t->l.out_valid] = t->busy;
    out[t->l.out_reg] = t->reg;
    out[t->l.out_src] = t->src;
    out[t->l.out_id] = t->reg ? t->id : s->id;
    if (!t->reg) {
        out[t->l.out_data] = s->d[0];
        if (t->g.data_bits > 64)
            out[t->l.out_data + 1] = s->d[1];
    }
    out[t->l.out_bytes] = t->reg ? t->len : 0;
    out[t->l.bad] = t->bad;
}

void dualopt_decoal_tm_step(dualopt_decoal_tm *t, const uint64_t *in)
{
    int out_fire, acc;
    if (!(in[0] & 1)) {
        dualopt_decoal_tm_reset(t);
        return;
    }
    out_fire = t->busy && (in[t->l.out_ready] & 1);
    acc = (in[t->l.pkt_valid] & 1) && dualopt_decoal_tm_ready(t, (int)(in[t->l.out_ready] & 1));
    t->bad = 0;
    if (out_fire) {
        t->slots += !t->reg;
        if (t->idx + 1 == t->n)
            t->busy = 0;
        else
            t->idx++;
    }
    if (acc) {
        uint8_t img[256];
        unsigned b, j, db = t->g.data_bits;
        unsigned len = (unsigned)(in[t->l.pkt_len] & 0xffff);
        dualopt_codec_pkt p;
        char why[160];
        const uint64_t *d = in + t->l.pkt_data;
        for (b = 0; b < t->c.pkt_bytes; b++)
            img[b] = (uint8_t)(d[b / 8] >> (8 * (b % 8)));
        /* the packet register takes every slot position of the image */
        for (j = 0; j < t->c.max; j++) {
            unsigned lo = 32 + j * t->g.slot_bits;
            t->s[j].d[0] = cohkit_bits_get(d, lo, db < 64 ? db : 64);
            t->s[j].d[1] = db > 64 ? cohkit_bits_get(d, lo + 64, db - 64) : 0;
            t->s[j].id = (uint16_t)cohkit_bits_get(d, lo + db, 16);
        }
        t->src = (unsigned)(in[t->l.pkt_src] & ((1u << t->g.gpu_bits) - 1));
        t->idx = 0;
        t->len = len;
        t->id = (uint16_t)(d[0] >> 16);
        if (dualopt_decoal_parse(&t->c, img, len, &p, why, sizeof why) != 0) {
            t->bad = 1;
            t->busy = 0;
            t->bads++;
        } else {
            t->busy = 1;
            t->reg = p.reg;
            t->n = p.reg ? 1 : p.n;
            t->packets++;
            t->regs += p.reg;
        }
    }
}
