/*
 * Text traces of the DualOpt CoDec units (spec 4.4-4.6): readers with
 * "line N: reason" errors and the printers shared by the trace tools and the
 * lockstep bench's trace mode.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_decoal.h"
#include "unit_trace.h"

/* Hex of up to `bits` bits (<= 128) into v[0..1]; 0x optional. */
static int hex(const char *s, unsigned bits, uint64_t *v)
{
    unsigned nd = 0, i;
    const char *p;
    v[0] = v[1] = 0;
    if (s == NULL)
        return -1;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    if (*s == '\0')
        return -1;
    for (p = s; *p; p++)
        if (!isxdigit((unsigned char)*p))
            return -1;
    while (s[0] == '0' && s[1])
        s++;
    nd = (unsigned)strlen(s);
    if (nd > 32)
        return -1;
    for (i = 0; i < nd; i++) {
        unsigned d = (unsigned)(isdigit((unsigned char)s[i]) ? s[i] - '0'
                                                             : tolower((unsigned char)s[i]) - 'a' + 10);
        v[1] = v[1] << 4 | v[0] >> 60;
        v[0] = v[0] << 4 | d;
    }
    if (bits < 64)
        return (v[1] || (v[0] >> bits)) ? -1 : 0;
    if (bits < 128)
        return (v[1] >> (bits - 64)) ? -1 : 0;
    return 0;
}

static unsigned popc(uint64_t m)
{
    unsigned n = 0;
    while (m) {
        m &= m - 1;
        n++;
    }
    return n;
}

#define BAD(...)                                                                                   \
    do {                                                                                           \
        int o_ = snprintf(err, len, "line %u: ", lineno);                                          \
        snprintf(err + o_, len > (size_t)o_ ? len - (size_t)o_ : 0, __VA_ARGS__);                  \
        goto bad;                                                                                  \
    } while (0)

static int gpu_arg(const dualopt_codec_cfg *c, const char *s, unsigned *g, char *why, size_t wl,
                   const char *what)
{
    uint64_t v;
    if (s == NULL)
        return snprintf(why, wl, "missing %s GPU", what), -1;
    if (cohkit_trace_dec(s, 1000, &v) != 0)
        return snprintf(why, wl, "'%s' is not a decimal %s GPU id", s, what), -1;
    if (v >= c->gpus)
        return snprintf(why, wl, "%s GPU %s is not in a %u-GPU system", what, s, c->gpus), -1;
    if (v == c->self)
        return snprintf(why, wl, "%s GPU %s is this GPU (--self %u)", what, s, c->self), -1;
    *g = (unsigned)v;
    return 0;
}

/* Reads lines; calls rec() on each record. */
typedef int (*rec_fn)(void *ctx, char *p, unsigned lineno, char *err, size_t len);

static int read_lines(FILE *f, rec_fn fn, void *ctx, char *err, size_t len)
{
    char buf[8192]; /* on the stack: the library keeps no static state */
    unsigned lineno = 0;
    int got;
    while ((got = cohkit_trace_line(f, buf, sizeof buf, &lineno, err, len)) > 0) {
        {
            const char *q = buf;
            while (*q && isspace((unsigned char)*q))
                q++;
            if (*q == '\0')
                continue;
        }
        if (fn(ctx, buf, lineno, err, len) != 0)
            return -1;
    }
    if (got < 0)
        return -1;
    if (ferror(f)) {
        snprintf(err, len, "read error after line %u", lineno);
        return -1;
    }
    return 0;
}

typedef struct {
    const dualopt_codec_cfg *c;
    void *v;
    size_t n, cap, esz;
    uint64_t last;
} vec;

static void *vec_add(vec *x)
{
    if (cohkit_trace_grow(&x->v, &x->cap, x->n, x->esz, 256) != 0)
        return NULL;
    memset((char *)x->v + x->n * x->esz, 0, x->esz);
    return (char *)x->v + x->n++ * x->esz;
}

static int cycle_arg(vec *x, const char *s, uint64_t *cyc, unsigned lineno, char *err, size_t len)
{
    if (s == NULL)
        BAD("missing cycle");
    if (cohkit_trace_dec(s, (uint64_t)1 << 40, cyc) != 0)
        BAD("'%s' is not a decimal cycle", s);
    if (*cyc < x->last)
        BAD("cycle %s is before the previous record's %llu", s, (unsigned long long)x->last);
    x->last = *cyc;
    return 0;
bad:
    return -1;
}

static int coal_rec(void *ctx, char *p, unsigned lineno, char *err, size_t len)
{
    vec *x = ctx;
    const dualopt_codec_cfg *c = x->c;
    char *op = cohkit_trace_tok(&p), *a, why[160];
    dualopt_codec_rsp *r;
    uint64_t v[2];
    unsigned words = c->line / c->gran, k, j;
    if (strcmp(op, "RSP") != 0 && strcmp(op, "REG") != 0)
        BAD("unknown record '%s' (RSP or REG)", op);
    r = vec_add(x);
    if (r == NULL)
        BAD("out of memory");
    r->lineno = lineno;
    r->reg = op[1] == 'E';
    if (cycle_arg(x, cohkit_trace_tok(&p), &r->cycle, lineno, err, len) != 0)
        return -1;
    if (gpu_arg(c, cohkit_trace_tok(&p), &r->dst, why, sizeof why, "destination") != 0)
        BAD("%s", why);
    a = cohkit_trace_tok(&p);
    if (a == NULL || hex(a, 16, v) != 0)
        BAD("'%s' is not a 16-bit hex response ID", a ? a : "");
    r->id = (uint16_t)v[0];
    if (r->reg) {
        a = cohkit_trace_tok(&p);
        if (a == NULL || cohkit_trace_dec(a, 65535, v) != 0 || v[0] < DUALOPT_CODEC_HDR_BYTES)
            BAD("'%s' is not a message size of 4..65535 bytes", a ? a : "");
        r->bytes = (unsigned)v[0];
    } else {
        a = cohkit_trace_tok(&p);
        if (a == NULL || hex(a, words, v) != 0 || v[0] == 0)
            BAD("'%s' is not a non-empty %u-bit hex word mask", a ? a : "", words);
        r->mask = v[0];
        k = popc(r->mask);
        for (j = 0; j < k; j++) {
            a = cohkit_trace_tok(&p);
            if (a == NULL)
                BAD("mask %s needs %u words, %u given", "", k, j);
            if (hex(a, 8 * c->gran, v) != 0)
                BAD("'%s' is not a %u-byte hex word", a, c->gran);
            r->w[j][0] = v[0];
            r->w[j][1] = v[1];
        }
    }
    a = cohkit_trace_tok(&p);
    if (a != NULL)
        BAD("unexpected '%s' after the record", a);
    return 0;
bad:
    return -1;
}

int dualopt_coal_trace_read(FILE *f, const dualopt_codec_cfg *c, dualopt_codec_rsp **v, size_t *n, char *err, size_t len)
{
    vec x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.esz = sizeof(dualopt_codec_rsp);
    if (read_lines(f, coal_rec, &x, err, len) != 0) {
        free(x.v);
        return -1;
    }
    *v = x.v;
    *n = x.n;
    return 0;
}

static int decoal_rec(void *ctx, char *p, unsigned lineno, char *err, size_t len)
{
    vec *x = ctx;
    const dualopt_codec_cfg *c = x->c;
    char *op = cohkit_trace_tok(&p), *a, why[160];
    dualopt_codec_pkt *pk, q;
    uint64_t v[2];
    uint8_t img[256];
    unsigned plen = 0, j;
    if (strcmp(op, "PKT") != 0 && strcmp(op, "WIRE") != 0 && strcmp(op, "REGPKT") != 0)
        BAD("unknown record '%s' (PKT, WIRE or REGPKT)", op);
    pk = vec_add(x);
    if (pk == NULL)
        BAD("out of memory");
    if (cycle_arg(x, cohkit_trace_tok(&p), &pk->cycle, lineno, err, len) != 0)
        return -1;
    if (gpu_arg(c, cohkit_trace_tok(&p), &pk->dst, why, sizeof why, "source") != 0)
        BAD("%s", why);
    memset(img, 0, sizeof img);
    if (op[0] == 'P') {
        uint64_t cnt;
        a = cohkit_trace_tok(&p);
        if (a == NULL || cohkit_trace_dec(a, 1000, &cnt) != 0)
            BAD("'%s' is not a decimal slot count", a ? a : "");
        if (cnt == 0 || cnt > c->max)
            BAD("malformed packet: count %llu is not 1..%u", (unsigned long long)cnt, c->max);
        memset(&q, 0, sizeof q);
        q.n = (unsigned)cnt;
        for (j = 0; j < q.n; j++) {
            char *colon;
            a = cohkit_trace_tok(&p);
            if (a == NULL)
                BAD("malformed packet: count %u, %u slots given", q.n, j);
            colon = strchr(a, ':');
            if (colon == NULL)
                BAD("'%s' is not <id>:<data>", a);
            *colon = '\0';
            if (hex(a, 16, v) != 0)
                BAD("'%s' is not a 16-bit hex response ID", a);
            q.s[j].id = (uint16_t)v[0];
            if (hex(colon + 1, 8 * c->gran, v) != 0)
                BAD("'%s' is not a %u-byte hex word", colon + 1, c->gran);
            q.s[j].d[0] = v[0];
            q.s[j].d[1] = v[1];
        }
        dualopt_codec_pkt_image(c, &q);
        memcpy(img, q.img, q.len);
        plen = q.len;
    } else if (op[0] == 'W') {
        const char *s;
        a = cohkit_trace_tok(&p);
        if (a == NULL)
            BAD("WIRE needs the packet bytes");
        s = a + ((a[0] == '0' && (a[1] == 'x' || a[1] == 'X')) ? 2 : 0);
        if (strlen(s) % 2 || strlen(s) == 0)
            BAD("'%s' is not whole hex bytes", a);
        if (strlen(s) / 2 > c->pkt_bytes)
            BAD("malformed packet: %zu bytes exceed the %u-byte packet", strlen(s) / 2,
                c->pkt_bytes);
        for (plen = 0; s[2 * plen]; plen++) {
            char hx[3] = {s[2 * plen], s[2 * plen + 1], 0};
            if (!isxdigit((unsigned char)hx[0]) || !isxdigit((unsigned char)hx[1]))
                BAD("'%s' is not whole hex bytes", a);
            img[plen] = (uint8_t)strtoul(hx, NULL, 16);
        }
        if (plen < DUALOPT_CODEC_HDR_BYTES)
            BAD("malformed packet: %u bytes, shorter than the header", plen);
    } else {
        uint32_t h;
        a = cohkit_trace_tok(&p);
        if (a == NULL || hex(a, 16, v) != 0)
            BAD("'%s' is not a 16-bit hex response ID", a ? a : "");
        h = 1u | (uint32_t)v[0] << 16;
        for (j = 0; j < 4; j++)
            img[j] = (uint8_t)(h >> (8 * j));
        a = cohkit_trace_tok(&p);
        if (a == NULL || cohkit_trace_dec(a, 65535, v) != 0 || v[0] < DUALOPT_CODEC_HDR_BYTES)
            BAD("'%s' is not a message size of 4..65535 bytes", a ? a : "");
        plen = (unsigned)v[0];
    }
    a = cohkit_trace_tok(&p);
    if (a != NULL)
        BAD("unexpected '%s' after the record", a);
    {
        uint64_t cyc = pk->cycle;
        unsigned src = pk->dst;
        if (dualopt_decoal_parse(c, img, plen, pk, why, sizeof why) != 0)
            BAD("malformed packet: %s", why);
        pk->cycle = cyc;
        pk->dst = src;
        memset(pk->img, 0, sizeof pk->img);
        memcpy(pk->img, img, plen < DUALOPT_CODEC_HDR_BYTES ? DUALOPT_CODEC_HDR_BYTES
                             : (pk->reg ? DUALOPT_CODEC_HDR_BYTES : plen));
    }
    return 0;
bad:
    return -1;
}

int dualopt_decoal_trace_read(FILE *f, const dualopt_codec_cfg *c, dualopt_codec_pkt **v, size_t *n, char *err,
                      size_t len)
{
    vec x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.esz = sizeof(dualopt_codec_pkt);
    if (read_lines(f, decoal_rec, &x, err, len) != 0) {
        free(x.v);
        return -1;
    }
    *v = x.v;
    *n = x.n;
    return 0;
}

void dualopt_codec_print_data(FILE *f, const dualopt_codec_cfg *c, const uint64_t *d)
{
    if (c->gran == 4)
        fprintf(f, "0x%08llx", (unsigned long long)(d[0] & 0xffffffffull));
    else if (c->gran == 8)
        fprintf(f, "0x%016llx", (unsigned long long)d[0]);
    else
        fprintf(f, "0x%016llx%016llx", (unsigned long long)d[1], (unsigned long long)d[0]);
}

void dualopt_codec_print_pkt(FILE *f, const dualopt_codec_cfg *c, const dualopt_codec_pkt *p, int wire)
{
    unsigned j;
    if (p->reg) {
        fprintf(f, "REGPKT %llu %u 0x%04x %u\n", (unsigned long long)p->cycle, p->dst, p->id,
                p->len);
        return;
    }
    if (wire) {
        fprintf(f, "WIRE %llu %u ", (unsigned long long)p->cycle, p->dst);
        for (j = 0; j < p->len; j++)
            fprintf(f, "%02x", p->img[j]);
        fprintf(f, "\n");
        return;
    }
    fprintf(f, "PKT %llu %u %u", (unsigned long long)p->cycle, p->dst, p->n);
    for (j = 0; j < p->n; j++) {
        fprintf(f, " 0x%04x:", p->s[j].id);
        dualopt_codec_print_data(f, c, p->s[j].d);
    }
    fprintf(f, "\n");
}

void dualopt_codec_print_stats(FILE *f, const dualopt_codec_stats *st)
{
    fprintf(f, "# packets %llu slots %llu bytes %llu flits %llu fine-flits %llu line-flits %llu "
               "responses %llu\n",
            (unsigned long long)st->packets, (unsigned long long)st->slots,
            (unsigned long long)st->bytes, (unsigned long long)st->flits,
            (unsigned long long)st->fine_flits, (unsigned long long)st->line_flits,
            (unsigned long long)st->responses);
}
