/*
 * STC blocked store queue: configuration, functional core (push, scan) and
 * timing shell. See stc_bsq.h and docs/stc.md (## stc-bsq).
 */
#include "stc_bsq.h"
#include "bits.h"
#include "cfg_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned stc_bsq_band(uint64_t addr, unsigned seb, unsigned n)
{
    if (seb >= 64)
        return 0;
    return (unsigned)((addr >> seb) & cohkit_mask64(n));
}

/* -------------------------------------------------------- configuration -- */

void stc_bsq_cfg_default(stc_bsq_cfg *c)
{
    /* seb_max 0: addr_bits - n */
    static const stc_bsq_cfg d = {.entries = 256, .banks = 16, .drain = 2, .addr_bits = 32,
                                  .n = 4, .seb_min = 12, .seb = 12};
    *c = d;
}

static const cohkit_cfg_preset presets[] = {
    {"default", ""},
    {"fpga", "--bsq 32 --banks 4 --drain 2"},
    {NULL, NULL},
};

static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_NUM("bsq", "E", "entries, power of two, 2..4096 (default 256)", stc_bsq_cfg, entries),
    COHKIT_UNIT_OPT_NUM("banks", "B", "banks, power of two, 1..E (default 16)", stc_bsq_cfg, banks),
    COHKIT_UNIT_OPT_NUM("drain", "D",
                "entries per bank per scan cycle, power of two (default 2)",
                stc_bsq_cfg, drain),
    COHKIT_UNIT_OPT_NUM("addr-bits", "A", "address width, 8..64 (default 32)", stc_bsq_cfg, addr_bits),
    COHKIT_UNIT_OPT_NUM("n", "N", "band bits, 1..8 (default 4)", stc_bsq_cfg, n),
    COHKIT_UNIT_OPT_NUM("seb", "S", "start bit used by the random streams (default 12)", stc_bsq_cfg, seb),
    COHKIT_UNIT_OPT_NUM("seb-min", "S",
                "smallest SEB a ChangeEpoch may carry (default 12)",
                stc_bsq_cfg, seb_min),
    COHKIT_UNIT_OPT_NUM("seb-max", "S", "largest SEB (default addr-bits - n)", stc_bsq_cfg, seb_max),
    COHKIT_UNIT_OPT_END,
};
const cohkit_unit_opt_table stc_bsq_opts = {opts, "a decimal number", 1000000, 10, 0, NULL};

COHKIT_CFG_OPT_FNS(stc_bsq, stc_bsq_cfg, presets, stc_bsq_cfg_default)

int stc_bsq_cfg_check(stc_bsq_cfg *c, char *err, size_t len)
{
    if (cohkit_cfg_in(err, len, "addr-bits", c->addr_bits, 8, 64) ||
        cohkit_cfg_in(err, len, "n", c->n, 1, STC_N_MAX) ||
        cohkit_cfg_in_pow2(err, len, "bsq", c->entries, 2, 4096))
        return -1;
    if (!cohkit_is_pow2(c->banks) || c->banks > c->entries)
        return cohkit_cfg_fail(err, len,
                               "--banks: %u is not a power of two in 1..%u (1 slot per bank at least)",
                               c->banks, c->entries);
    if (!cohkit_is_pow2(c->drain) || c->drain > c->entries / c->banks)
        return cohkit_cfg_fail(err, len, "--drain: %u is not a power of two in 1..%u (slots per bank)",
                               c->drain, c->entries / c->banks);
    if (c->banks * c->drain > 64)
        return cohkit_cfg_fail(err, len, "--drain: banks x drain = %u exceeds 64 entries per scan cycle",
                               c->banks * c->drain);
    if (c->drain * c->addr_bits > 2048)
        return cohkit_cfg_fail(err, len, "--drain: a bank row of %u bits exceeds 2048",
                               c->drain * c->addr_bits);
    if (c->seb_max == 0)
        c->seb_max = c->addr_bits > c->n ? c->addr_bits - c->n : 0;
    if (c->seb_max > c->addr_bits)
        return cohkit_cfg_fail(err, len, "--seb-max: %u exceeds --addr-bits %u", c->seb_max,
                               c->addr_bits);
    if (c->seb_min > c->seb_max)
        return cohkit_cfg_fail(err, len, "--seb-min: %u exceeds --seb-max %u", c->seb_min,
                               c->seb_max);
    return cohkit_cfg_in(err, len, "seb", c->seb, c->seb_min, c->seb_max);
}

void stc_bsq_geom_of(const stc_bsq_cfg *c, stc_bsq_geom *g)
{
    g->slots = c->entries / c->banks;
    g->rows = g->slots / c->drain;
    g->row_bits = c->drain * c->addr_bits;
    g->slot_bits = cohkit_clog2(c->entries);
    g->bank_bits = cohkit_clog2(c->banks);
    g->rowi_bits = g->rows > 1 ? cohkit_clog2(g->rows) : 1;
    g->count_bits = cohkit_clog2(c->entries + 1);
    g->cyc_bits = cohkit_clog2(g->rows + 1);
    g->ram_bits = c->entries * c->addr_bits;
}

void stc_bsq_cfg_name(const stc_bsq_cfg *c, char *buf, size_t len)
{
    snprintf(buf, len, "stc_bsq_e%u_b%u_d%u_a%u_n%u_s%u_%u", c->entries, c->banks, c->drain,
             c->addr_bits, c->n, c->seb_min, c->seb_max);
}

/* ----------------------------------------------------------------- core -- */

struct stc_bsq {
    stc_bsq_cfg c;
    stc_bsq_geom g;
    unsigned rr;         /* round-robin pointer: bank tried first        */
    uint64_t *addr;      /* [entries], slot k * S + s                     */
    unsigned char *valid;/* [entries]                                     */
};

stc_bsq *stc_bsq_new(const stc_bsq_cfg *c)
{
    stc_bsq *q = calloc(1, sizeof *q);
    if (q == NULL)
        return NULL;
    q->c = *c;
    stc_bsq_geom_of(c, &q->g);
    q->addr = calloc(c->entries, sizeof *q->addr);
    q->valid = calloc(c->entries, 1);
    if (q->addr == NULL || q->valid == NULL) {
        stc_bsq_free(q);
        return NULL;
    }
    return q;
}

void stc_bsq_free(stc_bsq *q)
{
    if (q == NULL)
        return;
    free(q->addr);
    free(q->valid);
    free(q);
}

void stc_bsq_reset(stc_bsq *q)
{
    q->rr = 0;
    memset(q->addr, 0, q->c.entries * sizeof *q->addr);
    memset(q->valid, 0, q->c.entries);
}

unsigned stc_bsq_bank_top(const stc_bsq *q, unsigned k)
{
    unsigned s = q->g.slots;
    while (s > 0 && !q->valid[k * q->g.slots + s - 1])
        s--;
    return s;
}

stc_bsq_push_res stc_bsq_push(stc_bsq *q, uint64_t addr)
{
    stc_bsq_push_res r = {0, 0, 0};
    for (unsigned i = 0; i < q->c.banks; i++) {
        unsigned k = (q->rr + i) % q->c.banks;
        unsigned top = stc_bsq_bank_top(q, k);
        if (top < q->g.slots) {
            unsigned slot = k * q->g.slots + top;
            q->addr[slot] = addr & cohkit_mask64(q->c.addr_bits);
            q->valid[slot] = 1;
            q->rr = (k + 1) % q->c.banks;
            r.accepted = 1;
            r.bank = k;
            r.slot = slot;
            return r;
        }
    }
    return r;
}

unsigned stc_bsq_pass_cycles(const stc_bsq *q)
{
    unsigned p = 0;
    for (unsigned k = 0; k < q->c.banks; k++) {
        unsigned rows = (stc_bsq_bank_top(q, k) + q->c.drain - 1) / q->c.drain;
        if (rows > p)
            p = rows;
    }
    return p;
}

stc_bsq_scan_res stc_bsq_scan(stc_bsq *q, const stc_eset *cer, unsigned seb,
                              stc_bsq_entry *drn, stc_bsq_entry *keep)
{
    stc_bsq_scan_res r = {0, 0, 0};
    r.cycles = stc_bsq_pass_cycles(q);
    for (unsigned row = 0; row < r.cycles; row++)
        for (unsigned k = 0; k < q->c.banks; k++)
            for (unsigned l = 0; l < q->c.drain; l++) {
                unsigned slot = k * q->g.slots + row * q->c.drain + l;
                if (!q->valid[slot])
                    continue;
                stc_bsq_entry e = {q->addr[slot], slot, k, row + 1};
                if (stc_eset_has(cer, stc_bsq_band(q->addr[slot], seb, q->c.n))) {
                    q->valid[slot] = 0;
                    if (drn)
                        drn[r.drained] = e;
                    r.drained++;
                } else {
                    if (keep)
                        keep[r.left] = e;
                    r.left++;
                }
            }
    return r;
}

unsigned stc_bsq_count(const stc_bsq *q)
{
    unsigned n = 0;
    for (unsigned i = 0; i < q->c.entries; i++)
        n += q->valid[i];
    return n;
}

int stc_bsq_full(const stc_bsq *q)
{
    for (unsigned k = 0; k < q->c.banks; k++)
        if (stc_bsq_bank_top(q, k) < q->g.slots)
            return 0;
    return 1;
}

const stc_bsq_cfg *stc_bsq_config(const stc_bsq *q) { return &q->c; }

/* --------------------------------------------------------- timing shell -- */

unsigned stc_bsq_seb_bits(const stc_bsq_cfg *c)
{
    unsigned b = cohkit_clog2(c->seb_max + 1);
    return b ? b : 1;
}

void stc_bsq_port_layout(const stc_bsq_cfg *c, stc_bsq_layout *l)
{
    stc_bsq_geom gg, *g = &gg;
    unsigned ni = 0, no = 0;
    stc_bsq_geom_of(c, g);
    l->in_words = l->out_words = 0;
    stc_layout_put(l->in_width, l->in_word, &ni, &l->in_words, 1); /* rst_ni */
#define STC_LAYOUT_IN(w) stc_layout_put(l->in_width, l->in_word, &ni, &l->in_words, (w));
#define STC_LAYOUT_OUT(w) stc_layout_put(l->out_width, l->out_word, &no, &l->out_words, (w));
#define STC_BSQ_PORT(d, name, w) STC_LAYOUT_##d(w)
#include "stc_bsq_ports.def"
#undef STC_BSQ_PORT
#undef STC_LAYOUT_IN
#undef STC_LAYOUT_OUT
}

struct stc_bsq_tm {
    stc_bsq_cfg c;
    stc_bsq_geom g;
    stc_bsq_layout l;
    uint64_t *mem;          /* [entries] bank RAMs, slot k * S + s        */
    unsigned char *valid;   /* [entries] valid flip-flops                 */
    uint64_t *rd;           /* [banks * drain] the beat (row presented)   */
    unsigned rr, count;
    unsigned scanning, setup, pass, rd_row, s2_valid, s2_row, done_valid;
    unsigned seb;
    stc_eset cer;
    int keep_beats;
};

static int bit_of(const uint64_t *w, unsigned i) { return (int)((w[i / 64] >> (i % 64)) & 1u); }

static void bits_put(uint64_t *w, unsigned pos, unsigned width, uint64_t v)
{
    for (unsigned i = 0; i < width; i++)
        if ((v >> i) & 1u)
            w[(pos + i) / 64] |= 1ull << ((pos + i) % 64);
}

static unsigned tm_top(const stc_bsq_tm *t, unsigned k)
{
    unsigned s = t->g.slots;
    while (s > 0 && !t->valid[k * t->g.slots + s - 1])
        s--;
    return s;
}

/* The bank a push goes to: the first not-full bank at or after rr; -1. */
static int tm_push_bank(const stc_bsq_tm *t)
{
    for (unsigned i = 0; i < t->c.banks; i++) {
        unsigned k = (t->rr + i) % t->c.banks;
        if (tm_top(t, k) < t->g.slots)
            return (int)k;
    }
    return -1;
}

static unsigned tm_pass(const stc_bsq_tm *t)
{
    unsigned p = 0;
    for (unsigned k = 0; k < t->c.banks; k++) {
        unsigned r = (tm_top(t, k) + t->c.drain - 1) / t->c.drain;
        if (r > p)
            p = r;
    }
    return p;
}

/* Lane j (bank * drain + l) of the current beat drains. */
static int tm_lane_drains(const stc_bsq_tm *t, unsigned j)
{
    unsigned k = j / t->c.drain, l = j % t->c.drain;
    unsigned slot = k * t->g.slots + t->s2_row * t->c.drain + l;
    if (!t->s2_valid || !t->valid[slot])
        return 0;
    return stc_eset_has(&t->cer, stc_bsq_band(t->rd[j], t->seb, t->c.n));
}

static int tm_lane_live(const stc_bsq_tm *t, unsigned j)
{
    unsigned k = j / t->c.drain, l = j % t->c.drain;
    return t->s2_valid && t->valid[k * t->g.slots + t->s2_row * t->c.drain + l];
}

/* The beat's valid: any drained lane (standalone) or any live lane (CU). */
static int tm_beat_any(const stc_bsq_tm *t)
{
    for (unsigned j = 0; j < t->c.banks * t->c.drain; j++)
        if (t->keep_beats ? tm_lane_live(t, j) : tm_lane_drains(t, j))
            return 1;
    return 0;
}

int stc_bsq_tm_lane(const stc_bsq_tm *t, unsigned j, uint64_t *addr)
{
    *addr = t->rd[j];
    if (!tm_lane_live(t, j))
        return 0;
    return tm_lane_drains(t, j) ? 1 : 2;
}

stc_bsq_tm *stc_bsq_tm_new(const stc_bsq_cfg *c) { return stc_bsq_tm_new_ex(c, 0); }

stc_bsq_tm *stc_bsq_tm_new_ex(const stc_bsq_cfg *c, int keep_beats)
{
    stc_bsq_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->c = *c;
    t->keep_beats = keep_beats;
    stc_bsq_geom_of(c, &t->g);
    stc_bsq_port_layout(c, &t->l);
    t->mem = calloc(c->entries, sizeof *t->mem);
    t->valid = calloc(c->entries, 1);
    t->rd = calloc((size_t)c->banks * c->drain, sizeof *t->rd);
    if (t->mem == NULL || t->valid == NULL || t->rd == NULL) {
        stc_bsq_tm_free(t);
        return NULL;
    }
    stc_bsq_tm_reset(t);
    return t;
}

void stc_bsq_tm_free(stc_bsq_tm *t)
{
    if (t == NULL)
        return;
    free(t->mem);
    free(t->valid);
    free(t->rd);
    free(t);
}

void stc_bsq_tm_reset(stc_bsq_tm *t)
{
    /* RAM contents survive reset; the valid bits say which slots hold data */
    memset(t->valid, 0, t->c.entries);
    t->rr = t->count = 0;
    t->scanning = t->setup = t->pass = t->rd_row = t->s2_valid = t->s2_row = t->done_valid = 0;
    t->seb = 0;
    stc_eset_clear(&t->cer);
}

void stc_bsq_tm_eval(const stc_bsq_tm *t, const uint64_t *in, uint64_t *out)
{
    const stc_bsq_layout *l = &t->l;
    int pb = tm_push_bank(t);
    unsigned lanes = t->c.banks * t->c.drain;
    int any;
    (void)in;
    memset(out, 0, l->out_words * sizeof *out);
    out[l->out_word[STC_BSQ_O_PUSH_READY]] = !t->scanning && !t->done_valid && pb >= 0;
    if (pb >= 0) {
        out[l->out_word[STC_BSQ_O_PUSH_BANK]] = (uint64_t)pb;
        out[l->out_word[STC_BSQ_O_PUSH_SLOT]] = (uint64_t)pb * t->g.slots + tm_top(t, (unsigned)pb);
    }
    out[l->out_word[STC_BSQ_O_CHG_READY]] = !t->scanning && !t->done_valid;
    any = tm_beat_any(t);
    for (unsigned j = 0; j < lanes; j++)
        if (tm_lane_drains(t, j)) {
            bits_put(out + l->out_word[STC_BSQ_O_DRN_MASK], j, 1, 1);
            bits_put(out + l->out_word[STC_BSQ_O_DRN_ADDR], j * t->c.addr_bits, t->c.addr_bits,
                     t->rd[j]);
        }
    out[l->out_word[STC_BSQ_O_DRN_VALID]] = any;
    out[l->out_word[STC_BSQ_O_DRN_ROW]] = t->s2_row & cohkit_mask64(t->g.rowi_bits);
    out[l->out_word[STC_BSQ_O_DONE_VALID]] = t->done_valid;
    out[l->out_word[STC_BSQ_O_DONE_CYCLES]] = t->pass;
    out[l->out_word[STC_BSQ_O_COUNT]] = t->count;
    out[l->out_word[STC_BSQ_O_FULL]] = pb < 0;
}

void stc_bsq_tm_step(stc_bsq_tm *t, const uint64_t *in)
{
    const stc_bsq_layout *l = &t->l;
    unsigned lanes = t->c.banks * t->c.drain;
    int pb;
    if (!(in[l->in_word[STC_BSQ_I_RST]] & 1)) {
        stc_bsq_tm_reset(t);
        return;
    }
    pb = tm_push_bank(t);
    if (t->done_valid) {
        if (in[l->in_word[STC_BSQ_I_DONE_READY]] & 1)
            t->done_valid = 0;
        return;
    }
    if (!t->scanning) {
        if ((in[l->in_word[STC_BSQ_I_PUSH_VALID]] & 1) && pb >= 0) {
            unsigned slot = (unsigned)pb * t->g.slots + tm_top(t, (unsigned)pb);
            t->mem[slot] = in[l->in_word[STC_BSQ_I_PUSH_ADDR]] & cohkit_mask64(t->c.addr_bits);
            t->valid[slot] = 1;
            t->rr = ((unsigned)pb + 1) % t->c.banks;
            t->count++;
        }
        if (in[l->in_word[STC_BSQ_I_CHG_VALID]] & 1) {
            /* a push of the same cycle is in the queue before the scan: the
             * setup cycle takes the pass length from the valid bits after
             * this edge (and keeps the max-over-banks off the CHG path) */
            t->scanning = 1;
            t->rd_row = 0;
            t->s2_valid = 0;
            t->seb = (unsigned)(in[l->in_word[STC_BSQ_I_CHG_SEB]] & cohkit_mask64(stc_bsq_seb_bits(&t->c)));
            stc_eset_clear(&t->cer);
            for (unsigned e = 0; e < (1u << t->c.n); e++)
                if (bit_of(in + l->in_word[STC_BSQ_I_CHG_CER], e))
                    stc_eset_add(&t->cer, e);
            t->setup = 1;
        }
        return;
    }
    if (t->setup) {
        t->pass = tm_pass(t);
        t->setup = 0;
        return;
    }
    {
        int drn = tm_beat_any(t);
        int adv = !t->s2_valid || !drn || (in[l->in_word[STC_BSQ_I_DRN_READY]] & 1);
        if (!adv)
            return;
        if (t->s2_valid && drn) {
            for (unsigned j = 0; j < lanes; j++)
                if (tm_lane_drains(t, j)) {
                    unsigned k = j / t->c.drain, ln = j % t->c.drain;
                    t->valid[k * t->g.slots + t->s2_row * t->c.drain + ln] = 0;
                    t->count--;
                }
        }
        if (t->rd_row < t->pass) {
            /* the RTL fetched this row into its read registers one cycle
             * earlier (row 0 in the setup cycle) and moves it into its beat
             * registers now; no push lands during a scan, so reading the
             * RAM here gives the same row */
            for (unsigned j = 0; j < lanes; j++) {
                unsigned k = j / t->c.drain, ln = j % t->c.drain;
                t->rd[j] = t->mem[k * t->g.slots + t->rd_row * t->c.drain + ln];
            }
            t->s2_row = t->rd_row;
            t->s2_valid = 1;
            t->rd_row++;
        } else {
            t->s2_valid = 0;
            t->scanning = 0;
            t->done_valid = 1;
        }
    }
}
