/*
 * DualOpt RDMA CoDec coalescer: configuration, geometry, functional core,
 * timing shell and trace I/O. See dualopt_coal.h and docs/dualopt.md.
 */
#include "dualopt_coal.h"
#include "bits.h"
#include "cfg_check.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* paper-header (the specification's spelling) is accepted as an alias of
 * paper_header, the name a committed module can carry. */
const char *const dualopt_codec_presets[] = {"default",   "fpga",      "gran8",
                                     "gran16",    "gpus8",     "gpus16",
                                     "timeout10", "timeout50", "paper_header",
                                     NULL};

static void cfg_default(dualopt_codec_cfg *c)
{
    static const dualopt_codec_cfg d = {.gpus = 4, .buf = 64, .timeout = 30, .gran = 4, .line = 64,
                                        .pkt_bytes = 64, .flit = 16, .count_bits = 4,
                                        .reg_depth = 4};
    *c = d;
}

/* fpga: small enough for an iCE40 HX8K with its self-test top. The banks
 * (one per word of a line or slot of a packet) are what costs logic: 32-byte
 * lines (8-bit masks) and 40-byte packets (6 slots, 3 flits) give 8 banks
 * of 48-bit words, each 3 SB_RAM40_4K deep enough for the paper's 64-slot
 * buffers (24 of the 32 block RAMs); 16 banks would need 48.
 * paper_header is the committed module's spelling of paper-header. */
static const cohkit_cfg_preset presets[] = {
    {"default", ""},
    {"fpga", "--line 32 --pkt-bytes 40 --reg-depth 2"},
    {"gran8", "--gran 8"},
    {"gran16", "--gran 16"},
    {"gpus8", "--gpus 8"},
    {"gpus16", "--gpus 16"},
    {"timeout10", "--timeout 10"},
    {"timeout50", "--timeout 50"},
    {"paper-header", "--count-bits 3"},
    {"paper_header", "--count-bits 3"},
    {NULL, NULL},
};

static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_NUM("gpus", "N",
                "GPUs, 2..16 (gpus-1 destination buffers; default 4)",
                dualopt_codec_cfg, gpus),
    COHKIT_UNIT_OPT_NUM("self", "G", "this GPU's id (default 0)", dualopt_codec_cfg, self),
    COHKIT_UNIT_OPT_NUM("buf", "N",
                "slots per destination buffer, power of two up to 4096 and at least the banks (the "
                "power of two at or above a line's words and a packet's slots, whichever more: 16 "
                "by default, 4 with --gran 16) (default 64)",
                dualopt_codec_cfg, buf),
    COHKIT_UNIT_OPT_NUM("max", "N",
                "slots per packet, 0 = derived from --pkt-bytes and --count-bits",
                dualopt_codec_cfg, max),
    COHKIT_UNIT_OPT_NUM("timeout", "N",
                "idle timeout in cycles, 1..1023 (default 30)",
                dualopt_codec_cfg, timeout),
    COHKIT_UNIT_OPT_NUM("gran", "B", "word bytes per slot, 4, 8 or 16 (default 4)", dualopt_codec_cfg, gran),
    COHKIT_UNIT_OPT_NUM("line", "B",
                "line bytes, power of two, gran..256, at most 64 words (default 64)",
                dualopt_codec_cfg, line),
    COHKIT_UNIT_OPT_NUM("pkt-bytes", "B",
                "packet budget in bytes, 16..256 (default 64)",
                dualopt_codec_cfg, pkt_bytes),
    COHKIT_UNIT_OPT_NUM("flit", "B",
                "flit bytes for the statistics, 1..256 (default 16)",
                dualopt_codec_cfg, flit),
    COHKIT_UNIT_OPT_NUM("count-bits", "N",
                "header count field, 3 (paper) or 4 (default 4, reading D1)",
                dualopt_codec_cfg, count_bits),
    COHKIT_UNIT_OPT_NUM("reg-depth", "N",
                "pass-through queue entries for regular responses, 1..16 (default 4)",
                dualopt_codec_cfg, reg_depth),
    COHKIT_UNIT_OPT_END,
};
const cohkit_unit_opt_table dualopt_codec_opts = {opts, "a non-negative integer", 1000000, 10, 0, NULL};

COHKIT_CFG_OPT_FNS(dualopt_codec, dualopt_codec_cfg, presets, cfg_default)

int dualopt_codec_cfg_check(dualopt_codec_cfg *c, char *err, size_t len)
{
    dualopt_codec_geom g;
    unsigned budget, cap;
    if (cohkit_cfg_range(err, len, "gpus", c->gpus, 2, 16))
        return -1;
    if (c->self >= c->gpus)
        return cohkit_cfg_fail(err, len, "--self %u: not a GPU of a %u-GPU system", c->self, c->gpus);
    if (c->gran != 4 && c->gran != 8 && c->gran != 16)
        return cohkit_cfg_fail(err, len, "--gran %u: must be 4, 8 or 16", c->gran);
    if (!cohkit_is_pow2(c->line) || c->line < c->gran || c->line > 256 || c->line / c->gran > 64)
        return cohkit_cfg_fail(err, len, "--line %u: must be a power of two, %u..256, at most 64 words",
                               c->line, c->gran);
    if (cohkit_cfg_range(err, len, "pkt-bytes", c->pkt_bytes, 16, 256) ||
        cohkit_cfg_range(err, len, "flit", c->flit, 1, 256))
        return -1;
    if (c->count_bits != 3 && c->count_bits != 4)
        return cohkit_cfg_fail(err, len, "--count-bits %u: must be 3 (paper) or 4", c->count_bits);
    if (c->timeout < 1 || c->timeout > 1023)
        return cohkit_cfg_fail(err, len, "--timeout %u: must be 1..1023 cycles", c->timeout);
    if (cohkit_cfg_range(err, len, "reg-depth", c->reg_depth, 1, 16))
        return -1;
    budget = (c->pkt_bytes - DUALOPT_CODEC_HDR_BYTES) / (c->gran + 2);
    cap = (1u << c->count_bits) - 1;
    if (budget < 1)
        return cohkit_cfg_fail(err, len, "--pkt-bytes %u: no room for one %u-byte slot",
                               c->pkt_bytes, c->gran + 2);
    if (c->max == 0)
        c->max = budget < cap ? budget : cap;
    else if (c->max > budget || c->max > cap)
        return cohkit_cfg_fail(err, len,
                               "--max %u: above %u (%u-byte packets hold %u slots, a %u-bit count %u)",
                               c->max, budget < cap ? budget : cap, c->pkt_bytes, budget,
                               c->count_bits, cap);
    if (!cohkit_is_pow2(c->buf) || c->buf > 4096)
        return cohkit_cfg_fail(err, len, "--buf %u: must be a power of two up to 4096", c->buf);
    dualopt_codec_geom_of(c, &g);
    if (c->buf < g.banks)
        return cohkit_cfg_fail(err, len,
                               "--buf %u: below %u (a buffer must hold a whole line's words and a "
                               "packet's slots)", c->buf, g.banks);
    return 0;
}

void dualopt_codec_geom_of(const dualopt_codec_cfg *c, dualopt_codec_geom *g)
{
    unsigned m;
    memset(g, 0, sizeof *g);
    g->nf = c->gpus - 1;
    g->words = c->line / c->gran;
    g->max = c->max;
    g->max_budget = (c->pkt_bytes - DUALOPT_CODEC_HDR_BYTES) / (c->gran + 2);
    g->data_bits = 8 * c->gran;
    g->slot_bits = g->data_bits + DUALOPT_CODEC_ID_BITS;
    m = g->words > c->max ? g->words : c->max;
    g->bank_bits = cohkit_width(m);
    g->banks = 1u << g->bank_bits;
    g->rows = c->buf >= g->banks ? c->buf / g->banks : 1;
    g->row_bits = cohkit_clog2(g->rows);
    g->fifo_bits = cohkit_clog2(g->nf);
    g->depth = g->nf * g->rows < 2 ? 2 : g->nf * g->rows;
    g->addr_bits = cohkit_clog2(g->depth);
    g->gpu_bits = c->gpus > 2 ? cohkit_clog2(c->gpus) : 1;
    g->pos_bits = cohkit_clog2(c->buf);
    g->cnt_bits = cohkit_clog2(c->buf + 1);
    g->k_bits = cohkit_clog2(g->words + 1);
    g->idle_bits = cohkit_clog2(c->timeout + 1);
    g->ptr_bits = cohkit_clog2(g->nf + 1);
    g->q_bits = c->reg_depth > 1 ? cohkit_clog2(c->reg_depth) : 1;
    g->qc_bits = cohkit_clog2(c->reg_depth + 1);
    g->n_bits = cohkit_clog2(c->max + 1);
    g->in_data_bits = 8 * c->line;
    g->pkt_data_bits = 8 * c->pkt_bytes;
    g->storage_bits = g->nf * c->buf * g->slot_bits;
}

void dualopt_codec_cfg_name(const char *prefix, const dualopt_codec_cfg *c, char *buf, size_t len)
{
    snprintf(buf, len, "%s_g%u_s%u_b%u_m%u_t%u_w%u_l%u_p%u_c%u_q%u", prefix, c->gpus, c->self,
             c->buf, c->max, c->timeout, c->gran, c->line, c->pkt_bytes, c->count_bits,
             c->reg_depth);
}

/* ---------------------------------------------------------------- core -- */

dualopt_coal_core *dualopt_coal_new(const dualopt_codec_cfg *c)
{
    dualopt_coal_core *k = calloc(1, sizeof *k);
    if (k == NULL)
        return NULL;
    k->c = *c;
    dualopt_codec_geom_of(c, &k->g);
    k->ram = calloc((size_t)k->g.nf * c->buf, sizeof *k->ram);
    k->head = calloc(k->g.nf, sizeof *k->head);
    k->count = calloc(k->g.nf, sizeof *k->count);
    k->idle = calloc(k->g.nf, sizeof *k->idle);
    if (!k->ram || !k->head || !k->count || !k->idle) {
        dualopt_coal_free(k);
        return NULL;
    }
    dualopt_coal_reset(k);
    return k;
}

void dualopt_coal_free(dualopt_coal_core *k)
{
    if (k == NULL)
        return;
    free(k->ram);
    free(k->head);
    free(k->count);
    free(k->idle);
    free(k->in);
    free(k);
}

void dualopt_coal_reset(dualopt_coal_core *k)
{
    memset(k->head, 0, k->g.nf * sizeof *k->head);
    memset(k->count, 0, k->g.nf * sizeof *k->count);
    memset(k->idle, 0, k->g.nf * sizeof *k->idle);
    k->ptr = 0;
    k->q_head = k->q_count = 0;
    memset(&k->st, 0, sizeof k->st);
    k->in_n = k->in_head = 0;
    k->now = 0;
}

int dualopt_coal_fifo_of(const dualopt_codec_cfg *c, unsigned dst)
{
    if (dst >= c->gpus || dst == c->self)
        return -1;
    return (int)(dst < c->self ? dst : dst - 1);
}

unsigned dualopt_coal_gpu_of(const dualopt_codec_cfg *c, unsigned fifo) { return fifo < c->self ? fifo : fifo + 1; }

static uint64_t mask_of(const dualopt_codec_cfg *c, uint64_t m)
{
    unsigned w = c->line / c->gran;
    return w >= 64 ? m : m & ((1ull << w) - 1);
}

int dualopt_coal_admissible(const dualopt_coal_core *k, const dualopt_codec_rsp *r)
{
    int f;
    unsigned n;
    if (r->reg)
        return k->q_count < k->c.reg_depth;
    f = dualopt_coal_fifo_of(&k->c, r->dst);
    n = cohkit_popcount(mask_of(&k->c, r->mask));
    if (f < 0 || n == 0)
        return 1;
    return k->count[f] + n <= k->c.buf;
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

void dualopt_codec_account_rsp(const dualopt_codec_cfg *c, dualopt_codec_stats *st, const dualopt_codec_rsp *r)
{
    if (r->reg) {
        st->fine_flits += ceil_div(r->bytes, c->flit);
        st->line_flits += ceil_div(r->bytes, c->flit);
        return;
    }
    st->responses++;
    st->fine_flits += ceil_div(DUALOPT_CODEC_HDR_BYTES + (uint64_t)cohkit_popcount(mask_of(c, r->mask)) * c->gran, c->flit);
    st->line_flits += ceil_div(c->line + DUALOPT_CODEC_LINE_RSP_EXTRA, c->flit);
}

void dualopt_codec_pkt_image(const dualopt_codec_cfg *c, dualopt_codec_pkt *p)
{
    uint32_t h;
    unsigned j, b, at;
    memset(p->img, 0, sizeof p->img);
    if (p->reg) {
        h = 1u | ((uint32_t)p->id << 16);
        p->len = p->len; /* the regular message's own size */
    } else {
        h = 1u | (1u << 4) | ((uint32_t)p->n << 8);
        p->len = DUALOPT_CODEC_HDR_BYTES + p->n * (c->gran + 2);
    }
    for (b = 0; b < 4; b++)
        p->img[b] = (uint8_t)(h >> (8 * b));
    if (p->reg)
        return;
    for (j = 0, at = DUALOPT_CODEC_HDR_BYTES; j < p->n; j++) {
        for (b = 0; b < c->gran; b++, at++)
            p->img[at] = (uint8_t)(p->s[j].d[b / 8] >> (8 * (b % 8)));
        p->img[at++] = (uint8_t)p->s[j].id;
        p->img[at++] = (uint8_t)(p->s[j].id >> 8);
    }
}

int dualopt_coal_cycle(dualopt_coal_core *k, const dualopt_codec_rsp *r, int can_send, dualopt_codec_pkt *p)
{
    const dualopt_codec_cfg *c = &k->c;
    unsigned nf = k->g.nf, i, o, adm = ~0u;
    int sel = -1;
    /* 1. admission */
    if (r != NULL) {
        dualopt_codec_account_rsp(c, &k->st, r);
        if (r->reg) {
            unsigned t = (k->q_head + k->q_count) % c->reg_depth;
            k->q_dst[t] = r->dst;
            k->q_id[t] = r->id;
            k->q_bytes[t] = r->bytes;
            k->q_count++;
        } else {
            int f = dualopt_coal_fifo_of(c, r->dst);
            uint64_t m = mask_of(c, r->mask);
            if (f < 0 || m == 0) {
                k->st.discarded++;
            } else {
                unsigned n = cohkit_popcount(m), j;
                for (j = 0; j < n; j++) {
                    dualopt_codec_slot *s = &k->ram[(size_t)f * c->buf +
                                            (k->head[f] + k->count[f] + j) % c->buf];
                    s->d[0] = r->w[j][0];
                    s->d[1] = r->w[j][1];
                    if (c->gran < 8)
                        s->d[0] &= (1ull << (8 * c->gran)) - 1;
                    if (c->gran <= 8)
                        s->d[1] = 0;
                    s->id = r->id;
                }
                k->count[f] += n;
                adm = (unsigned)f;
            }
        }
    }
    /* 2./3. eligibility and round-robin send */
    if (can_send)
        for (o = 0; o <= nf && sel < 0; o++) {
            i = (k->ptr + o) % (nf + 1);
            if (i == nf) {
                if (k->q_count)
                    sel = (int)i;
            } else if (k->count[i] >= c->max ||
                       (k->count[i] && (i == adm ? 0 : k->idle[i]) >= c->timeout)) {
                sel = (int)i;
            }
        }
    /* idle timers: restart on admission, else count (saturating) */
    for (i = 0; i < nf; i++) {
        unsigned v = i == adm ? 0 : k->idle[i];
        k->idle[i] = v + 1 > c->timeout ? c->timeout : v + 1;
    }
    if (sel < 0)
        return 0;
    memset(p, 0, sizeof *p);
    p->cycle = k->now;
    k->ptr = (unsigned)sel == nf ? 0 : (unsigned)sel + 1;
    if ((unsigned)sel == nf) {
        p->reg = 1;
        p->dst = k->q_dst[k->q_head];
        p->id = k->q_id[k->q_head];
        p->len = k->q_bytes[k->q_head];
        k->q_head = (k->q_head + 1) % c->reg_depth;
        k->q_count--;
        dualopt_codec_pkt_image(c, p);
        k->st.reg_packets++;
    } else {
        unsigned f = (unsigned)sel, j;
        p->dst = dualopt_coal_gpu_of(c, f);
        p->n = k->count[f] < c->max ? k->count[f] : c->max;
        if (k->count[f] >= c->max)
            k->st.full_sends++;
        else
            k->st.timeouts++;
        for (j = 0; j < p->n; j++)
            p->s[j] = k->ram[(size_t)f * c->buf + (k->head[f] + j) % c->buf];
        k->head[f] = (k->head[f] + p->n) % c->buf;
        k->count[f] -= p->n;
        dualopt_codec_pkt_image(c, p);
        k->st.slots += p->n;
    }
    k->st.packets++;
    k->st.bytes += p->len;
    k->st.flits += ceil_div(p->len, c->flit);
    return 1;
}

int dualopt_coal_push(dualopt_coal_core *k, const dualopt_codec_rsp *r)
{
    if (k->in_n == k->in_cap) {
        size_t nc = k->in_cap ? 2 * k->in_cap : 64;
        dualopt_codec_rsp *nv = realloc(k->in, nc * sizeof *nv);
        if (nv == NULL)
            return -1;
        k->in = nv;
        k->in_cap = nc;
    }
    k->in[k->in_n++] = *r;
    return 0;
}

int dualopt_coal_tick(dualopt_coal_core *k, dualopt_codec_pkt_fn fn, void *ctx)
{
    const dualopt_codec_rsp *r = NULL;
    dualopt_codec_pkt p;
    int sent;
    if (k->in_head < k->in_n && k->in[k->in_head].cycle <= k->now &&
        dualopt_coal_admissible(k, &k->in[k->in_head]))
        r = &k->in[k->in_head++];
    sent = dualopt_coal_cycle(k, r, 1, &p);
    if (sent && fn)
        fn(ctx, &p);
    k->now++;
    return sent;
}

int dualopt_coal_idle(const dualopt_coal_core *k)
{
    unsigned i;
    if (k->in_head < k->in_n || k->q_count)
        return 0;
    for (i = 0; i < k->g.nf; i++)
        if (k->count[i])
            return 0;
    return 1;
}

/* -------------------------------------------------------- timing shell -- */

#define WORDS(b) (((b) + 63u) / 64u)

void dualopt_coal_layout_of(const dualopt_codec_cfg *c, dualopt_coal_layout *l)
{
    dualopt_codec_geom g;
    unsigned o = 1; /* rst_ni */
    dualopt_codec_geom_of(c, &g);
    l->in_valid = o++;
    l->in_reg = o++;
    l->in_dst = o++;
    l->in_id = o++;
    l->in_mask = o++;
    l->in_data = o;
    o += WORDS(g.in_data_bits);
    l->in_bytes = o++;
    l->pkt_ready = o++;
    l->in_words = o;
    o = 0;
    l->in_ready = o++;
    l->pkt_valid = o++;
    l->pkt_dst = o++;
    l->pkt_len = o++;
    l->pkt_data = o;
    o += WORDS(g.pkt_data_bits);
    l->out_words = o;
}

dualopt_coal_tm *dualopt_coal_tm_new(const dualopt_codec_cfg *c)
{
    dualopt_coal_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->k = dualopt_coal_new(c);
    if (t->k == NULL) {
        free(t);
        return NULL;
    }
    dualopt_coal_layout_of(c, &t->l);
    dualopt_coal_tm_reset(t);
    return t;
}

void dualopt_coal_tm_free(dualopt_coal_tm *t)
{
    if (t) {
        dualopt_coal_free(t->k);
        free(t);
    }
}

void dualopt_coal_tm_reset(dualopt_coal_tm *t)
{
    dualopt_coal_reset(t->k);
    t->v_valid = t->v_dst = t->v_len = 0;
    memset(t->v_img, 0, sizeof t->v_img);
    t->sends = 0;
}

void dualopt_coal_tm_rsp(const dualopt_coal_tm *t, const uint64_t *in, dualopt_codec_rsp *r)
{
    const dualopt_codec_cfg *c = &t->k->c;
    unsigned j, n, db = 8 * c->gran;
    r->reg = (unsigned)(in[t->l.in_reg] & 1);
    r->dst = (unsigned)(in[t->l.in_dst] & ((1u << t->k->g.gpu_bits) - 1));
    r->id = (uint16_t)in[t->l.in_id];
    r->mask = mask_of(c, in[t->l.in_mask]);
    r->bytes = (unsigned)(in[t->l.in_bytes] & 0xffff);
    n = cohkit_popcount(r->mask);
    for (j = 0; j < n; j++) {
        r->w[j][0] = cohkit_bits_get(in + t->l.in_data, j * db, db < 64 ? db : 64);
        r->w[j][1] = db > 64 ? cohkit_bits_get(in + t->l.in_data, j * db + 64, db - 64) : 0;
    }
}

void dualopt_coal_tm_eval(const dualopt_coal_tm *t, const uint64_t *in, uint64_t *out)
{
    dualopt_codec_rsp r;
    unsigned b;
    memset(out, 0, t->l.out_words * sizeof *out);
    dualopt_coal_tm_rsp(t, in, &r);
    out[t->l.in_ready] = (uint64_t)dualopt_coal_admissible(t->k, &r);
    out[t->l.pkt_valid] = t->v_valid;
    out[t->l.pkt_dst] = t->v_dst;
    out[t->l.pkt_len] = t->v_len;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    (void)b; /* byte b of the image is byte b of the port's words */
    memcpy(out + t->l.pkt_data, t->v_img, t->k->c.pkt_bytes);
#else
    for (b = 0; b < t->k->c.pkt_bytes; b++)
        out[t->l.pkt_data + b / 8] |= (uint64_t)t->v_img[b] << (8 * (b % 8));
#endif
}

void dualopt_coal_tm_step(dualopt_coal_tm *t, const uint64_t *in)
{
    dualopt_codec_rsp r;
    dualopt_codec_pkt p;
    int fire, can_send;
    if (!(in[0] & 1)) {
        dualopt_coal_tm_reset(t);
        return;
    }
    dualopt_coal_tm_rsp(t, in, &r);
    fire = (in[t->l.in_valid] & 1) && dualopt_coal_admissible(t->k, &r);
    can_send = !t->v_valid || (in[t->l.pkt_ready] & 1);
    if (dualopt_coal_cycle(t->k, fire ? &r : NULL, can_send, &p)) {
        t->v_valid = 1;
        t->v_dst = p.dst;
        t->v_len = p.len;
        memcpy(t->v_img, p.img, sizeof t->v_img);
        if (p.reg) /* a regular packet's image is its header */
            memset(t->v_img + 4, 0, sizeof t->v_img - 4);
        t->sends++;
    } else if (in[t->l.pkt_ready] & 1) {
        t->v_valid = 0;
    }
    t->k->now++;
}
