/*
 * STC band function, epoch-set helpers and the band unit's configuration and
 * timing shell. See stc_band.h and docs/stc.md.
 */
#include "stc_band.h"
#include "unit_trace.h"
#include "bits.h"
#include "cfg_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ epoch sets -- */

void stc_eset_clear(stc_eset *s) { memset(s, 0, sizeof *s); }
void stc_eset_add(stc_eset *s, unsigned e)
{
    if (e < STC_E_MAX)
        s->w[e / 64] |= 1ull << (e % 64);
}
void stc_eset_del(stc_eset *s, unsigned e)
{
    if (e < STC_E_MAX)
        s->w[e / 64] &= ~(1ull << (e % 64));
}
int stc_eset_has(const stc_eset *s, unsigned e)
{
    return e < STC_E_MAX && (int)((s->w[e / 64] >> (e % 64)) & 1);
}

unsigned stc_eset_count(const stc_eset *s)
{
    unsigned i, n = 0;
    for (i = 0; i < STC_E_MAX / 64; i++) {
        uint64_t x = s->w[i];
        while (x) {
            x &= x - 1;
            n++;
        }
    }
    return n;
}

int stc_eset_eq(const stc_eset *a, const stc_eset *b) { return memcmp(a, b, sizeof *a) == 0; }

void stc_eset_of(const stc_elist *l, stc_eset *s)
{
    unsigned i;
    stc_eset_clear(s);
    for (i = 0; i < l->n; i++)
        stc_eset_add(s, l->e[i]);
}

int stc_eset_parse(stc_eset *s, const char *text, unsigned n, char *err, size_t len)
{
    const char *p = text;
    stc_eset_clear(s);
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
        if (n > STC_N_MAX || v >= (1ul << n)) {
            snprintf(err, len, "epoch %lu is not below 2^%u", v, n);
            return -1;
        }
        if (stc_eset_has(s, (unsigned)v)) {
            snprintf(err, len, "epoch %lu repeated in '%s'", v, text);
            return -1;
        }
        stc_eset_add(s, (unsigned)v);
        if (*p == '\0')
            return 0;
        p++;
    }
}

char *stc_eset_format(const stc_eset *s, char *buf, size_t len)
{
    size_t at = 0;
    unsigned e;
    if (len == 0)
        return buf;
    buf[0] = '\0';
    for (e = 0; e < STC_E_MAX; e++) {
        int w;
        if (!stc_eset_has(s, e))
            continue;
        w = snprintf(buf + at, len - at, at ? ",%u" : "%u", e);
        if (w < 0 || (size_t)w >= len - at)
            break;
        at += (size_t)w;
    }
    return buf;
}

void stc_elist_of(const stc_eset *s, unsigned after, unsigned n, stc_elist *l)
{
    unsigned E = 1u << n, i;
    l->n = 0;
    for (i = 1; i <= E; i++) {
        unsigned e = (after + i) & (E - 1);
        if (stc_eset_has(s, e))
            l->e[l->n++] = (uint16_t)e;
    }
}

void stc_elist_format(const stc_elist *l, char *buf, size_t len)
{
    size_t k = 0;
    unsigned i;
    if (len == 0)
        return;
    buf[0] = '\0';
    for (i = 0; i < l->n && k + 1 < len; i++) {
        int w = snprintf(buf + k, len - k, i ? ",%u" : "%u", (unsigned)l->e[i]);
        if (w < 0)
            break;
        k += (size_t)w;
        if (k >= len)
            break;
    }
}

int stc_elist_parse(const char *s, unsigned n, stc_elist *l, char *err, size_t len)
{
    unsigned E = 1u << n;
    stc_eset seen;
    const char *p = s;
    stc_eset_clear(&seen);
    l->n = 0;
    if (s == NULL || *s == '\0') {
        snprintf(err, len, "empty epoch list");
        return -1;
    }
    for (;;) {
        unsigned long v = 0;
        const char *d = p;
        while (*p >= '0' && *p <= '9') {
            v = v * 10 + (unsigned long)(*p - '0');
            if (v > 100000)
                break;
            p++;
        }
        if (p == d || (*p != ',' && *p != '\0') || v >= E) {
            snprintf(err, len, "epoch list '%s': '%.*s' is not an epoch below %u", s,
                     (int)strcspn(d, ","), d, E);
            return -1;
        }
        if (stc_eset_has(&seen, (unsigned)v)) {
            snprintf(err, len, "epoch list '%s': epoch %lu twice", s, v);
            return -1;
        }
        stc_eset_add(&seen, (unsigned)v);
        l->e[l->n++] = (uint16_t)v;
        if (*p == '\0')
            return 0;
        p++;
    }
}

/* ------------------------------------------------------------- function -- */

unsigned stc_band(uint64_t addr, unsigned seb, unsigned n, unsigned addr_bits)
{
    addr &= cohkit_mask64(addr_bits);
    if (seb >= 64)
        return 0;
    return (unsigned)((addr >> seb) & cohkit_mask64(n));
}

/* ----------------------------------------------- trace lexical rules -- */

int stc_tok_addr(const char *tok, const char *what, unsigned bits, unsigned lineno, uint64_t *v,
                 char *err, size_t len)
{
    int r;
    if (tok == NULL) {
        snprintf(err, len, "line %u: missing %s", lineno, what);
        return -1;
    }
    r = cohkit_trace_hex_width(tok, bits, v);
    if (r == -1)
        snprintf(err, len, "line %u: %s '%s' is not hex", lineno, what, tok);
    else if (r == -2)
        snprintf(err, len, "line %u: %s '%s' does not fit %u bits", lineno, what, tok, bits);
    return r ? -1 : 0;
}

int stc_tok_dec(const char *tok, const char *what, unsigned max, unsigned lineno, unsigned *v,
                char *err, size_t len)
{
    unsigned long x = 0;
    const char *p = tok;
    if (tok == NULL) {
        snprintf(err, len, "line %u: missing %s", lineno, what);
        return -1;
    }
    if (*p == '\0')
        goto bad;
    for (; *p; p++) {
        if (*p < '0' || *p > '9')
            goto bad;
        x = x * 10 + (unsigned long)(*p - '0');
        if (x > max)
            goto bad;
    }
    *v = (unsigned)x;
    return 0;
bad:
    snprintf(err, len, "line %u: %s '%s' is not a number in 0..%u", lineno, what, tok, max);
    return -1;
}

/* ----------------------------------------------------- the band unit -- */

void stc_band_cfg_default(stc_band_cfg *c)
{
    static const stc_band_cfg d = {.n = 4, .seb = 12, .addr_bits = 32};
    *c = d;
}

int stc_band_cfg_preset(stc_band_cfg *c, const char *name)
{
    stc_band_cfg_default(c);
    if (strcmp(name, "default") == 0 || strcmp(name, "fpga") == 0)
        return 0;
    return -1;
}

static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_NUM("n", "N", "band bits, 1..8 (default 4)", stc_band_cfg, n),
    COHKIT_UNIT_OPT_NUM("seb", "S", "SEB of trace records without one (default 12)", stc_band_cfg, seb),
    COHKIT_UNIT_OPT_NUM("addr-bits", "A", "address width, 8..63 (default 32)", stc_band_cfg, addr_bits),
    COHKIT_UNIT_OPT_END,
};
const cohkit_unit_opt_table stc_band_opts = {opts, "a decimal number", 1000, 10, 0, NULL};

COHKIT_CFG_OPTION_FN(stc_band, stc_band_cfg)
COHKIT_CFG_ARGS_FN(stc_band, stc_band_cfg)

int stc_band_cfg_check(const stc_band_cfg *c, char *err, size_t len)
{
    if (cohkit_cfg_in(err, len, "n", c->n, 1, STC_N_MAX))
        return -1;
    if (c->addr_bits < 8 || c->addr_bits > STC_ADDR_BITS_MAX || c->addr_bits < c->n)
        return cohkit_cfg_fail(err, len, "--addr-bits: %u is not in %u..63", c->addr_bits,
                               c->n > 8 ? c->n : 8);
    return cohkit_cfg_in(err, len, "seb", c->seb, 0, c->addr_bits);
}

void stc_band_geom_of(const stc_band_cfg *c, stc_band_geom *g)
{
    g->seb_bits = cohkit_bits_of(c->addr_bits);
}

void stc_band_cfg_name(const stc_band_cfg *c, char *buf, size_t len)
{
    snprintf(buf, len, "stc_band_n%u_s%u_a%u", c->n, c->seb, c->addr_bits);
}

stc_band_tm *stc_band_tm_new(const stc_band_cfg *c)
{
    stc_band_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->c = *c;
    stc_band_tm_reset(t);
    return t;
}

void stc_band_tm_free(stc_band_tm *t) { free(t); }

void stc_band_tm_reset(stc_band_tm *t)
{
    t->out_valid = 0;
    t->out_band = 0;
    t->out_addr = 0;
}

void stc_band_eval(const stc_band_tm *t, const uint64_t *in, uint64_t *out)
{
    out[STC_BAND_O_IN_READY] = (uint64_t)(!t->out_valid || (in[STC_BAND_I_OUT_READY] & 1));
    out[STC_BAND_O_OUT_VALID] = t->out_valid;
    out[STC_BAND_O_OUT_ADDR] = t->out_addr;
    out[STC_BAND_O_OUT_BAND] = t->out_band;
}

void stc_band_step(stc_band_tm *t, const uint64_t *in)
{
    stc_band_geom g;
    int ready = (int)(in[STC_BAND_I_OUT_READY] & 1);
    int acc = (int)(in[STC_BAND_I_IN_VALID] & 1) && (!t->out_valid || ready);
    if (!(in[STC_BAND_I_RST] & 1)) {
        stc_band_tm_reset(t);
        return;
    }
    stc_band_geom_of(&t->c, &g);
    if (acc) {
        uint64_t a = in[STC_BAND_I_IN_ADDR] & cohkit_mask64(t->c.addr_bits);
        unsigned seb = (unsigned)(in[STC_BAND_I_IN_SEB] & cohkit_mask64(g.seb_bits));
        t->out_valid = 1;
        t->out_addr = a;
        t->out_band = stc_band(a, seb, t->c.n, t->c.addr_bits);
    } else if (ready) {
        t->out_valid = 0;
    }
}
