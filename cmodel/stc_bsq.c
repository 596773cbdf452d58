/*
 * STC blocked store queue: configuration, functional core (push, scan) and
 * timing shell. See stc_bsq.h and docs/stc.md (## stc-bsq).
 */
#include "stc_bsq.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static unsigned clog2(unsigned v)
{
    unsigned b = 0;
    while ((1u << b) < v)
        b++;
    return b;
}

static int is_pow2(unsigned v) { return v != 0 && (v & (v - 1)) == 0; }

/* ------------------------------------------------------------ epoch set -- */

void stc_bsq_eset_clear(stc_bsq_eset *s) { memset(s, 0, sizeof *s); }

void stc_bsq_eset_add(stc_bsq_eset *s, unsigned e)
{
    if (e < STC_BSQ_EPOCHS_MAX)
        s->w[e / 64] |= 1ull << (e % 64);
}

int stc_bsq_eset_has(const stc_bsq_eset *s, unsigned e)
{
    return e < STC_BSQ_EPOCHS_MAX && ((s->w[e / 64] >> (e % 64)) & 1u);
}

unsigned stc_bsq_eset_count(const stc_bsq_eset *s)
{
    unsigned n = 0;
    for (unsigned e = 0; e < STC_BSQ_EPOCHS_MAX; e++)
        n += (unsigned)stc_bsq_eset_has(s, e);
    return n;
}

int stc_bsq_eset_parse(stc_bsq_eset *s, const char *text, unsigned n, char *err, size_t len)
{
    const char *p = text;
    stc_bsq_eset_clear(s);
    if (p == NULL || *p == '\0') {
        snprintf(err, len, "empty epoch set");
        return -1;
    }
    for (;;) {
        unsigned long v = 0;
        const char *start = p;
        while (*p >= '0' && *p <= '9') {
            v = v * 10 + (unsigned long)(*p - '0');
            if (v > 100000)
                break;
            p++;
        }
        if (p == start || (*p != ',' && *p != '\0')) {
            snprintf(err, len, "'%s' is not an epoch list", text);
            return -1;
        }
        if (v >= (1ul << n)) {
            snprintf(err, len, "epoch %lu is not below 2^%u", v, n);
            return -1;
        }
        if (stc_bsq_eset_has(s, (unsigned)v)) {
            snprintf(err, len, "epoch %lu repeated in '%s'", v, text);
            return -1;
        }
        stc_bsq_eset_add(s, (unsigned)v);
        if (*p == '\0')
            return 0;
        p++;
    }
}

char *stc_bsq_eset_format(const stc_bsq_eset *s, char *buf, size_t len)
{
    size_t at = 0;
    if (len == 0)
        return buf;
    buf[0] = '\0';
    for (unsigned e = 0; e < STC_BSQ_EPOCHS_MAX; e++) {
        if (!stc_bsq_eset_has(s, e))
            continue;
        int w = snprintf(buf + at, len - at, at ? ",%u" : "%u", e);
        if (w < 0 || (size_t)w >= len - at)
            break;
        at += (size_t)w;
    }
    return buf;
}

unsigned stc_bsq_band(uint64_t addr, unsigned seb, unsigned n)
{
    if (seb >= 64)
        return 0;
    return (unsigned)((addr >> seb) & mask64(n));
}

/* -------------------------------------------------------- configuration -- */

void stc_bsq_cfg_default(stc_bsq_cfg *c)
{
    c->entries = 256;
    c->banks = 16;
    c->drain = 2;
    c->addr_bits = 32;
    c->n = 4;
    c->seb_min = 12;
    c->seb_max = 0; /* addr_bits - n */
    c->seb = 12;
}

int stc_bsq_cfg_preset(stc_bsq_cfg *c, const char *name)
{
    stc_bsq_cfg_default(c);
    if (strcmp(name, "default") == 0)
        return 0;
    if (strcmp(name, "fpga") == 0) {
        c->entries = 32;
        c->banks = 4;
        c->drain = 2;
        return 0;
    }
    return -1;
}

static int parse_uns(const char *name, const char *value, unsigned *out, char *err, size_t len)
{
    char *end;
    unsigned long v;
    if (value == NULL || *value < '0' || *value > '9' || (v = strtoul(value, &end, 10), *end) ||
        v > 1000000) {
        snprintf(err, len, "--%s: '%s' is not a decimal number", name, value ? value : "");
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

int stc_bsq_cfg_option(stc_bsq_cfg *c, const char *name, const char *value, char *err,
                       size_t len)
{
    unsigned *f = NULL;
    if (strcmp(name, "bsq") == 0)
        f = &c->entries;
    else if (strcmp(name, "banks") == 0)
        f = &c->banks;
    else if (strcmp(name, "drain") == 0)
        f = &c->drain;
    else if (strcmp(name, "addr-bits") == 0)
        f = &c->addr_bits;
    else if (strcmp(name, "n") == 0)
        f = &c->n;
    else if (strcmp(name, "seb") == 0)
        f = &c->seb;
    else if (strcmp(name, "seb-min") == 0)
        f = &c->seb_min;
    else if (strcmp(name, "seb-max") == 0)
        f = &c->seb_max;
    else
        return 1;
    return parse_uns(name, value, f, err, len);
}

int stc_bsq_cfg_check(stc_bsq_cfg *c, char *err, size_t len)
{
    if (c->addr_bits < 8 || c->addr_bits > 64) {
        snprintf(err, len, "--addr-bits: %u is not in 8..64", c->addr_bits);
        return -1;
    }
    if (c->n < 1 || c->n > STC_BSQ_N_MAX) {
        snprintf(err, len, "--n: %u is not in 1..%u", c->n, STC_BSQ_N_MAX);
        return -1;
    }
    if (c->entries < 4 || c->entries > 4096 || !is_pow2(c->entries)) {
        snprintf(err, len, "--bsq: %u is not a power of two in 4..4096", c->entries);
        return -1;
    }
    if (!is_pow2(c->banks) || c->banks > c->entries) {
        snprintf(err, len, "--banks: %u is not a power of two in 1..%u", c->banks, c->entries);
        return -1;
    }
    if (!is_pow2(c->drain) || c->drain > c->entries / c->banks) {
        snprintf(err, len, "--drain: %u is not a power of two in 1..%u (slots per bank)",
                 c->drain, c->entries / c->banks);
        return -1;
    }
    if (c->banks * c->drain > 64) {
        snprintf(err, len, "--drain: banks x drain = %u exceeds 64 entries per scan cycle",
                 c->banks * c->drain);
        return -1;
    }
    if (c->drain * c->addr_bits > 2048) {
        snprintf(err, len, "--drain: a bank row of %u bits exceeds 2048", c->drain * c->addr_bits);
        return -1;
    }
    if (c->seb_max == 0)
        c->seb_max = c->addr_bits > c->n ? c->addr_bits - c->n : 0;
    if (c->seb_max > c->addr_bits) {
        snprintf(err, len, "--seb-max: %u exceeds --addr-bits %u", c->seb_max, c->addr_bits);
        return -1;
    }
    if (c->seb_min > c->seb_max) {
        snprintf(err, len, "--seb-min: %u exceeds --seb-max %u", c->seb_min, c->seb_max);
        return -1;
    }
    if (c->seb < c->seb_min || c->seb > c->seb_max) {
        snprintf(err, len, "--seb: %u is not in %u..%u", c->seb, c->seb_min, c->seb_max);
        return -1;
    }
    return 0;
}

void stc_bsq_geom_of(const stc_bsq_cfg *c, stc_bsq_geom *g)
{
    g->slots = c->entries / c->banks;
    g->rows = g->slots / c->drain;
    g->row_bits = c->drain * c->addr_bits;
    g->slot_bits = clog2(c->entries);
    g->bank_bits = clog2(c->banks);
    g->rowi_bits = g->rows > 1 ? clog2(g->rows) : 1;
    g->count_bits = clog2(c->entries + 1);
    g->cyc_bits = clog2(g->rows + 1);
    g->ram_bits = c->entries * c->addr_bits;
}

void stc_bsq_cfg_name(const stc_bsq_cfg *c, char *buf, size_t len)
{
    snprintf(buf, len, "stc_bsq_e%u_b%u_d%u_a%u_n%u_s%u_%u", c->entries, c->banks, c->drain,
             c->addr_bits, c->n, c->seb_min, c->seb_max);
}

void stc_bsq_cfg_args(const stc_bsq_cfg *c, char *buf, size_t len)
{
    snprintf(buf, len, "--bsq %u --banks %u --drain %u --addr-bits %u --n %u --seb %u --seb-min %u --seb-max %u",
             c->entries, c->banks, c->drain, c->addr_bits, c->n, c->seb, c->seb_min, c->seb_max);
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
            q->addr[slot] = addr & mask64(q->c.addr_bits);
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

stc_bsq_scan_res stc_bsq_scan(stc_bsq *q, const stc_bsq_eset *cer, unsigned seb,
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
                if (stc_bsq_eset_has(cer, stc_bsq_band(q->addr[slot], seb, q->c.n))) {
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
