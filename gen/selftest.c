/*
 * Generic FPGA self-test top of a registered unit and its expected
 * signature from the unit's timing shell. See selftest.h and docs/fpga.md.
 *
 * The C simulation below and the emitted Verilog are two renderings of one
 * plan (struct plan): every stream bit, field and register of one has its
 * counterpart in the other, in the same order.
 */
#include "selftest.h"

#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "gen_unit.h"
#include "ports.h"
#include "prim.h"

/* ---- rules of the units (gen_unit.selftest) */
st_rules_fn selftest_rules_of(const char *unit)
{
    const gen_unit *g = gen_find(unit);
    return g != NULL ? g->selftest : NULL;
}

/* ---- the plan */
enum { F_RAND, F_CONST, F_RANGE, F_PROB, F_SEQ, F_LINEAR, F_VARY, F_PICK };

#define ST_FIELDS_MAX 1024
#define ST_CYC_PHASE 1023u /* probabilities change when (cycle & this) == this */

typedef struct {
    int kind;
    unsigned lo, w;    /* bits of the port                                  */
    uint64_t a, b;     /* CONST a; RANGE a, n = b - a + 1; PROB a           */
    unsigned k;        /* RANGE, PICK: random bits used                     */
    unsigned off;      /* offset of its random bits in the group's stream  */
    int src;           /* LINEAR, PICK: source input or -1; src_lo, src_w   */
    unsigned src_lo, src_w;
    int seq;           /* SEQ: counter index                                */
    int phase;         /* VARY of a free input: phase index; -1: channel's  */
    uint64_t v[ST_PICK_MAX]; /* PICK: the values, 1 << k of them           */
} fld;

typedef struct {
    int port;          /* index in the port table                           */
    unsigned w, word;  /* width, first word in the input value array        */
    int group;         /* 0: free; else a channel                           */
    int f0, nf;        /* its fields, by ascending lo, covering every bit   */
} inp;

typedef struct {
    int valid;         /* input index of X_valid_i (channels)               */
    int ready;         /* port index of X_ready_o (channels)                */
    int phase;         /* phase index of its valid, or -1 (a rule)          */
    unsigned bits;     /* stream bits                                       */
} grp;

typedef struct {
    const cohkit_unit_desc *u;
    cohkit_unit_layout layout;
    unsigned out_word[COHKIT_UNIT_PORTS_MAX], out_bit[COHKIT_UNIT_PORTS_MAX], out_bits;
    inp in[COHKIT_UNIT_PORTS_MAX];
    int nin;
    fld f[ST_FIELDS_MAX];
    int nf;
    grp g[COHKIT_UNIT_PORTS_MAX + 1];
    int ng;
    unsigned seq_w[ST_FIELDS_MAX];
    int nseq, nphase;
    /* output transfers: valid output port, ready input index or -1 */
    int ov[COHKIT_UNIT_PORTS_MAX], ordy[COHKIT_UNIT_PORTS_MAX];
    int nov;
} plan;

static int ends_with(const char *s, const char *t)
{
    size_t n = strlen(s), m = strlen(t);
    return n >= m && strcmp(s + n - m, t) == 0;
}

static int port_index(const plan *p, const char *name, cohkit_port_dir d)
{
    int i;
    for (i = 0; i < p->layout.n; i++)
        if (p->layout.p[i].dir == d && strcmp(p->layout.p[i].name, name) == 0)
            return i;
    return -1;
}

static int input_of_port(const plan *p, int port)
{
    int i;
    for (i = 0; i < p->nin; i++)
        if (p->in[i].port == port)
            return i;
    return -1;
}

static uint64_t mask64(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

typedef struct {
    int in;
    unsigned lo, w;
    const st_rule *r;
} rfield;

static int cmp_rfield(const void *x, const void *y)
{
    const rfield *a = x, *b = y;
    if (a->in != b->in)
        return a->in < b->in ? -1 : 1;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Inputs (and their words in the value array) and outputs (their bits in the
 * output vector); channels: X_valid_i with X_ready_o, payload X_* (longest
 * prefix). */
static void plan_ports(plan *p)
{
    int i;
    unsigned word = 1, obit = 0, oword = 0;
    for (i = 0; i < p->layout.n; i++) {
        const cohkit_port *q = &p->layout.p[i];
        if (q->dir == COHKIT_PORT_IN) {
            p->in[p->nin].port = i;
            p->in[p->nin].w = q->width;
            p->in[p->nin].word = word;
            word += COHKIT_UNIT_WORDS(q->width);
            p->nin++;
        } else {
            p->out_word[i] = oword;
            p->out_bit[i] = obit;
            oword += COHKIT_UNIT_WORDS(q->width);
            obit += q->width;
        }
    }
    p->out_bits = obit;
    p->ng = 1;
    for (i = 0; i < p->nin; i++) {
        const char *n = p->layout.p[p->in[i].port].name;
        char rdy[160];
        int r;
        if (!ends_with(n, "_valid_i") || p->layout.p[p->in[i].port].width != 1)
            continue;
        snprintf(rdy, sizeof rdy, "%.*s_ready_o", (int)(strlen(n) - 8), n);
        if ((r = port_index(p, rdy, COHKIT_PORT_OUT)) < 0 || p->layout.p[r].width != 1)
            continue;
        p->g[p->ng].valid = i;
        p->g[p->ng].ready = r;
        p->in[i].group = p->ng++;
    }
    for (i = 0; i < p->nin; i++) {
        const char *n = p->layout.p[p->in[i].port].name;
        size_t best = 0;
        int g;
        if (p->in[i].group != 0)
            continue;
        for (g = 1; g < p->ng; g++) {
            const char *v = p->layout.p[p->in[p->g[g].valid].port].name;
            size_t pl = strlen(v) - 7; /* "X_" */
            if (strncmp(n, v, pl) == 0 && pl > best) {
                best = pl;
                p->in[i].group = g;
            }
        }
    }
}

/* The rules' fields, checked and sorted by input and bit; returns their
 * number or -1. */
static int plan_rule_fields(plan *p, rfield *rf, const st_rule *rules, int nr, char *err,
                            size_t len)
{
    const cohkit_unit_desc *u = p->u;
    int nrf = 0, i;
    for (i = 0; i < nr; i++) {
        const st_rule *r = &rules[i];
        int port = port_index(p, r->port ? r->port : "", COHKIT_PORT_IN), in;
        unsigned rep = r->repeat ? r->repeat : 1, w, k;
        if (port < 0)
            return snprintf(err, len, "%s: self-test rule %d: '%s' is not an input port", u->name,
                            i, r->port ? r->port : ""), -1;
        in = input_of_port(p, port);
        w = r->width ? r->width : p->in[in].w;
        for (k = 0; k < rep; k++) {
            unsigned lo = r->lo + k * r->stride;
            if (lo + w > p->in[in].w || (rep > 1 && r->stride < w))
                return snprintf(err, len, "%s: self-test rule %d: field %u+%u outside port %s "
                                "(%u bits) or overlapping its repeat", u->name, i, lo, w, r->port,
                                p->in[in].w), -1;
            if (nrf == ST_FIELDS_MAX)
                return snprintf(err, len, "%s: too many self-test fields", u->name), -1;
            rf[nrf].in = in;
            rf[nrf].lo = lo;
            rf[nrf].w = w;
            rf[nrf].r = r;
            nrf++;
        }
        if (r->kind != ST_RAND && w > 64)
            return snprintf(err, len, "%s: self-test rule %d: a %s field is at most 64 bits",
                            u->name, i, r->port), -1;
        if ((r->kind == ST_RANGE && (r->b < r->a || r->b > mask64(w))) ||
            (r->kind == ST_CONST && r->a > mask64(w)) ||
            (r->kind == ST_PROB && (w != 1 || r->a > 65536)) ||
            (r->kind == ST_SEQ && p->in[in].group == 0))
            return snprintf(err, len, "%s: self-test rule %d (%s): bad values for its field",
                            u->name, i, r->port), -1;
        if (r->kind == ST_PICK) {
            unsigned j, k = 0;
            while ((1u << k) < r->n)
                k++;
            if (r->src != NULL) {
                int sp = port_index(p, r->src, COHKIT_PORT_IN), si;
                if (sp < 0)
                    return snprintf(err, len, "%s: self-test rule %d: source '%s' is not an input",
                                    u->name, i, r->src), -1;
                si = input_of_port(p, sp);
                if (sp == port || p->in[si].group != p->in[in].group || r->src_lo + k > p->in[si].w)
                    return snprintf(err, len, "%s: self-test rule %d: bad source field of %s",
                                    u->name, i, r->src), -1;
            }
            if (r->n < 2 || r->n > ST_PICK_MAX || (r->n & (r->n - 1)) != 0)
                return snprintf(err, len, "%s: self-test rule %d (%s): a pick needs 2, 4, 8 or 16 values",
                                u->name, i, r->port), -1;
            for (j = 0; j < r->n; j++)
                if (r->v[j] > mask64(w))
                    return snprintf(err, len, "%s: self-test rule %d (%s): bad values for its field",
                                    u->name, i, r->port), -1;
        }
        if (r->kind == ST_LINEAR) {
            int sp = port_index(p, r->src ? r->src : "", COHKIT_PORT_IN), si;
            if (sp < 0)
                return snprintf(err, len, "%s: self-test rule %d: source '%s' is not an input",
                                u->name, i, r->src ? r->src : ""), -1;
            si = input_of_port(p, sp);
            if (p->in[si].group != p->in[in].group || r->src_width == 0 || r->src_width > 64 ||
                r->src_lo + r->src_width > p->in[si].w)
                return snprintf(err, len, "%s: self-test rule %d: bad source field of %s",
                                u->name, i, r->src), -1;
        }
    }
    qsort(rf, (size_t)nrf, sizeof *rf, cmp_rfield);
    for (i = 1; i < nrf; i++)
        if (rf[i].in == rf[i - 1].in && rf[i].lo < rf[i - 1].lo + rf[i - 1].w)
            return snprintf(err, len, "%s: self-test rules overlap on %s", u->name,
                            rf[i].r->port), -1;
    return nrf;
}

/* A field the rule rf sets, at bit `at` of its input. */
static void field_of_rule(plan *p, fld *f, const rfield *rf, unsigned at)
{
    const st_rule *r = rf->r;
    f->lo = at;
    f->w = rf->w;
    f->a = r->a;
    f->b = r->b;
    switch (r->kind) {
    case ST_RAND: f->kind = F_RAND; break;
    case ST_CONST: f->kind = F_CONST; break;
    case ST_RANGE: f->kind = F_RANGE; break;
    case ST_PROB: f->kind = F_PROB; break;
    case ST_SEQ: f->kind = F_SEQ; break;
    case ST_PICK: f->kind = F_PICK; break;
    default: f->kind = F_LINEAR; break;
    }
    if (f->kind == F_PICK) {
        f->k = 0;
        while ((1u << f->k) < r->n)
            f->k++;
        memcpy(f->v, r->v, r->n * sizeof *f->v);
        if (r->src != NULL) { /* indexed by a field of another input */
            f->src = input_of_port(p, port_index(p, r->src, COHKIT_PORT_IN));
            f->src_lo = r->src_lo;
            f->src_w = f->k;
        }
    }
    if (f->kind == F_RANGE) {
        uint64_t nv = r->b - r->a; /* values - 1 */
        f->k = 0;
        while (f->k < 64 && (nv >> f->k) != 0)
            f->k++;
        if (f->k == 0)
            f->kind = F_CONST;
    }
    if (f->kind == F_SEQ) {
        f->seq = p->nseq;
        p->seq_w[p->nseq++] = f->w;
    }
    if (f->kind == F_LINEAR) {
        f->src = input_of_port(p, port_index(p, r->src, COHKIT_PORT_IN));
        f->src_lo = r->src_lo;
        f->src_w = r->src_width;
    }
}

/* The fields of every input, gaps random; stream offsets in input order. */
static int plan_fields(plan *p, const rfield *rf, int nrf, char *err, size_t len)
{
    const cohkit_unit_desc *u = p->u;
    int i, j;
    j = 0;
    for (i = 0; i < p->nin; i++) {
        inp *q = &p->in[i];
        grp *g = &p->g[q->group];
        unsigned at = 0;
        const char *n = p->layout.p[q->port].name;
        int vary = q->w == 1 && (ends_with(n, "_ready_i") || ends_with(n, "_valid_i"));
        q->f0 = p->nf;
        while (at < q->w) {
            fld *f;
            if (p->nf == ST_FIELDS_MAX)
                return snprintf(err, len, "%s: too many self-test fields", u->name), -1;
            f = &p->f[p->nf++];
            f->phase = -1;
            f->seq = -1;
            f->src = -1;
            if (j < nrf && rf[j].in == i && rf[j].lo == at) {
                field_of_rule(p, f, &rf[j], at);
                j++;
            } else {
                unsigned end = q->w;
                if (j < nrf && rf[j].in == i)
                    end = rf[j].lo;
                f->lo = at;
                f->w = end - at;
                f->kind = vary ? F_VARY : F_RAND;
                if (vary) {
                    if (q->group != 0 && p->g[q->group].valid == i) {
                        p->g[q->group].phase = p->nphase++;
                    } else {
                        f->phase = p->nphase++;
                    }
                }
            }
            switch (f->kind) {
            case F_RAND: f->off = g->bits; g->bits += f->w; break;
            case F_RANGE: f->off = g->bits; g->bits += f->k; break;
            case F_PROB: f->off = g->bits; g->bits += 16; break;
            case F_VARY: f->off = g->bits; g->bits += 8; break;
            case F_PICK:
                if (f->src < 0) {
                    f->off = g->bits;
                    g->bits += f->k;
                }
                break;
            default: break;
            }
            at += f->w;
        }
        q->nf = p->nf - q->f0;
    }
    return 0;
}

/* Channels whose valid is not varied get no phase; a LINEAR source must not
 * be LINEAR; output transfers, as the lockstep engine counts them. */
static int plan_finish(plan *p, char *err, size_t len)
{
    const cohkit_unit_desc *u = p->u;
    int i, j;
    for (i = 1; i < p->ng; i++)
        if (p->f[p->in[p->g[i].valid].f0].kind != F_VARY)
            p->g[i].phase = -1;
    for (i = 0; i < p->nf; i++) /* a LINEAR or PICK field's source field is neither */
        if (p->f[i].src >= 0) {
            const inp *s = &p->in[p->f[i].src];
            int k;
            for (k = s->f0; k < s->f0 + s->nf; k++)
                if (p->f[k].src >= 0 && p->f[k].lo < p->f[i].src_lo + p->f[i].src_w &&
                    p->f[i].src_lo < p->f[k].lo + p->f[k].w)
                    return snprintf(err, len, "%s: self-test: a linear or picked field's source is one too",
                                    u->name), -1;
        }
    /* output transfers, as the lockstep engine counts them */
    for (i = 0; i < p->layout.n; i++) {
        const char *n = p->layout.p[i].name;
        char rdy[160];
        if (p->layout.p[i].dir != COHKIT_PORT_OUT || !ends_with(n, "_valid_o") || p->layout.p[i].width != 1)
            continue;
        snprintf(rdy, sizeof rdy, "%.*s_ready_i", (int)(strlen(n) - 8), n);
        p->ov[p->nov] = i;
        j = port_index(p, rdy, COHKIT_PORT_IN);
        p->ordy[p->nov++] = j >= 0 && p->layout.p[j].width == 1 ? input_of_port(p, j) : -1;
    }
    return 0;
}

static int plan_build(plan *p, rfield *rf, const cohkit_unit_desc *u, const void *cfg, char *err,
                      size_t len)
{
    st_rule rules[ST_RULES_MAX];
    int nr = 0, nrf;
    st_rules_fn fn = selftest_rules_of(u->name);
    memset(p, 0, sizeof *p);
    p->u = u;
    if (cohkit_unit_layout_of(u, cfg, &p->layout, err, len) != 0)
        return -1;
    if (fn != NULL && (nr = fn(cfg, rules, ST_RULES_MAX, err, len)) < 0)
        return -1;
    if (nr > ST_RULES_MAX)
        return snprintf(err, len, "%s: more than %d self-test rules", u->name, ST_RULES_MAX), -1;
    plan_ports(p);
    if ((nrf = plan_rule_fields(p, rf, rules, nr, err, len)) < 0 ||
        plan_fields(p, rf, nrf, err, len) != 0)
        return -1;
    return plan_finish(p, err, len);
}

/* ---- the stimulus and signature in C */
static uint32_t xs32(uint32_t x)
{
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

static uint32_t rotl(uint32_t x, unsigned r) { return r ? (x << r) | (x >> (32 - r)) : x; }

/* Stream word j of a generator in state s: s itself, then s with two of
 * its rotations and a constant (cheap: wiring and a 3-input XOR per bit). */
static void rot_of(unsigned j, unsigned *ra, unsigned *rb)
{
    *ra = 1 + (7 * j) % 31;
    *rb = 1 + (11 * j + 3) % 31;
    if (*rb == *ra)
        *rb = 1 + *ra % 31;
}
static uint32_t kconst(unsigned j) { return (uint32_t)(j * 0x9E3779B9u); }
static uint32_t stream_word(uint32_t s, unsigned j)
{
    unsigned ra, rb;
    if (j == 0)
        return s;
    rot_of(j, &ra, &rb);
    return s ^ rotl(s, ra) ^ rotl(s, rb) ^ kconst(j);
}

static uint32_t nz(uint32_t x) { return x ? x : 1u; }
static uint32_t group_seed(uint32_t seed, int g) { return nz(seed ^ (uint32_t)((unsigned)(g + 1) * 0x9E3779B9u)); }
static uint32_t phase_seed(uint32_t seed) { return nz(seed ^ 0x6D2B79F5u); }
static const unsigned vthr[4] = {256, 192, 112, 40};

static uint64_t get_bits(const uint64_t *w, unsigned pos, unsigned n)
{
    uint64_t v = w[pos / 64] >> (pos % 64);
    if (pos % 64 + n > 64)
        v |= w[pos / 64 + 1] << (64 - pos % 64);
    return v & mask64(n);
}

static void put_bits(uint64_t *w, unsigned pos, unsigned n, uint64_t v)
{
    unsigned i;
    for (i = 0; i < n; i++) {
        uint64_t b = (v >> i) & 1;
        unsigned q = pos + i;
        w[q / 64] = (w[q / 64] & ~(1ull << (q % 64))) | (b << (q % 64));
    }
}

static uint64_t stream_bits(const uint32_t *streams, unsigned off, unsigned n)
{
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < n; i++)
        v |= (uint64_t)((streams[(off + i) / 32] >> ((off + i) % 32)) & 1) << i;
    return v;
}

typedef struct {
    uint32_t st[COHKIT_UNIT_PORTS_MAX + 1], phase;
    unsigned ph[COHKIT_UNIT_PORTS_MAX + 1];
    uint64_t seq[ST_FIELDS_MAX];
} gen_state;

static void drive(const plan *p, const gen_state *s, uint64_t *in, uint32_t **streams)
{
    int g, i, k;
    for (g = 0; g < p->ng; g++) {
        unsigned nw = (p->g[g].bits + 31) / 32, j;
        for (j = 0; j < nw; j++)
            streams[g][j] = stream_word(s->st[g], j);
    }
    memset(in, 0, p->layout.in_words * sizeof *in);
    in[0] = 1;
    for (i = 0; i < p->nin; i++) {
        const inp *q = &p->in[i];
        uint64_t *w = in + q->word;
        const uint32_t *r = streams[q->group];
        for (k = q->f0; k < q->f0 + q->nf; k++) {
            const fld *f = &p->f[k];
            uint64_t v = 0;
            switch (f->kind) {
            case F_RAND: {
                unsigned at;
                for (at = 0; at < f->w; at += 64) {
                    unsigned n = f->w - at < 64 ? f->w - at : 64;
                    put_bits(w, f->lo + at, n, stream_bits(r, f->off + at, n));
                }
                continue;
            }
            case F_CONST: v = f->a; break;
            case F_RANGE: {
                uint64_t x = stream_bits(r, f->off, f->k), n = f->b - f->a + 1;
                if (f->k < 64 && n != (1ull << f->k) && x >= n)
                    x -= n;
                v = f->a + x;
                break;
            }
            case F_PROB: v = stream_bits(r, f->off, 16) < f->a; break;
            case F_VARY: {
                unsigned ph = f->phase >= 0 ? (s->phase >> (2 * (f->phase % 16))) & 3
                                            : s->ph[q->group];
                v = stream_bits(r, f->off, 8) < vthr[ph];
                break;
            }
            case F_SEQ: v = s->seq[f->seq]; break;
            case F_PICK:
                if (f->src >= 0)
                    continue; /* below, from its source */
                v = f->v[stream_bits(r, f->off, f->k)];
                break;
            default: continue; /* LINEAR below */
            }
            put_bits(w, f->lo, f->w, v & mask64(f->w));
        }
    }
    for (i = 0; i < p->nin; i++)
        for (k = p->in[i].f0; k < p->in[i].f0 + p->in[i].nf; k++) {
            const fld *f = &p->f[k];
            if (f->kind == F_LINEAR) {
                const inp *sq = &p->in[f->src];
                uint64_t x = get_bits(in + sq->word, f->src_lo, f->src_w);
                put_bits(in + p->in[i].word, f->lo, f->w, (f->a * x + f->b) & mask64(f->w));
            } else if (f->kind == F_PICK && f->src >= 0) {
                const inp *sq = &p->in[f->src];
                put_bits(in + p->in[i].word, f->lo, f->w, f->v[get_bits(in + sq->word, f->src_lo, f->src_w)]);
            }
        }
}

/* one cycle of the stimulus in the benches' --replay format: rst_n, then
 * each input port in hex */
static void put_stim(FILE *f, const plan *p, const uint64_t *in)
{
    int i;
    fprintf(f, "%x", (unsigned)(in[0] & 1));
    for (i = 0; i < p->nin; i++) {
        fputc(' ', f);
        cohkit_unit_hex_put(f, in + p->in[i].word, COHKIT_UNIT_WORDS(p->in[i].w));
    }
    fputc('\n', f);
}

static int simulate(const plan *p, const void *cfg, st_result *res, FILE *stim, char *err,
                    size_t len)
{
    const cohkit_unit_desc *u = p->u;
    void *tm = u->tm_new(cfg);
    uint64_t *in = calloc(p->layout.in_words + 1, sizeof *in);
    uint64_t *out = calloc(p->layout.out_words + 1, sizeof *out);
    uint64_t *ov = calloc(p->out_bits / 64 + 2, sizeof *ov);
    uint32_t *streams[COHKIT_UNIT_PORTS_MAX + 1] = {NULL};
    gen_state *s = calloc(1, sizeof *s);
    int g, i, ok = tm && in && out && ov && s;
    uint32_t cyc, sig = 0xffffffffu, nin = 0, nout = 0;
    for (g = 0; g < p->ng; g++)
        ok = ok && (streams[g] = calloc((p->g[g].bits + 31) / 32 + 1, sizeof **streams)) != NULL;
    if (!ok) {
        snprintf(err, len, "out of memory");
        goto done;
    }
    for (g = 0; g < p->ng; g++)
        s->st[g] = group_seed(res->seed, g);
    s->phase = phase_seed(res->seed);
    /* the top holds the unit in reset first */
    memset(in, 0, p->layout.in_words * sizeof *in);
    if (stim)
        put_stim(stim, p, in);
    u->tm_step(tm, in);
    for (cyc = 0; cyc < res->cycles; cyc++) {
        uint32_t word = 0;
        unsigned c;
        drive(p, s, in, streams);
        if (stim)
            put_stim(stim, p, in);
        u->tm_eval(tm, in, out);
        /* signature: every output bit, ports concatenated from bit 0 */
        memset(ov, 0, (p->out_bits / 64 + 2) * sizeof *ov);
        for (i = 0; i < p->layout.n; i++)
            if (p->layout.p[i].dir == COHKIT_PORT_OUT) {
                unsigned at, w = p->layout.p[i].width;
                for (at = 0; at < w; at += 64) {
                    unsigned n = w - at < 64 ? w - at : 64;
                    put_bits(ov, p->out_bit[i] + at, n,
                             get_bits(out + p->out_word[i], at, n));
                }
            }
        for (c = 0; c * 32 < p->out_bits; c++)
            word ^= rotl((uint32_t)get_bits(ov, c * 32, p->out_bits - c * 32 < 32 ? p->out_bits - c * 32 : 32),
                         c % 32);
        sig = ((sig << 1) ^ ((sig >> 31) ? 0x04c11db7u : 0)) ^ word;
        /* transfers; generators advance */
        for (g = 1; g < p->ng; g++) {
            const inp *v = &p->in[p->g[g].valid];
            int val = (int)(in[v->word] & 1), rdy = (int)(out[p->out_word[p->g[g].ready]] & 1);
            int k;
            nin += val && rdy;
            if (!val || rdy) {
                s->st[g] = xs32(s->st[g]);
                if (p->g[g].phase >= 0)
                    s->ph[g] = (s->phase >> (2 * (p->g[g].phase % 16))) & 3;
            }
            if (val && rdy)
                for (i = 0; i < p->nin; i++)
                    if (p->in[i].group == g)
                        for (k = p->in[i].f0; k < p->in[i].f0 + p->in[i].nf; k++)
                            if (p->f[k].kind == F_SEQ)
                                s->seq[p->f[k].seq] = (s->seq[p->f[k].seq] + 1) & mask64(p->f[k].w);
        }
        for (i = 0; i < p->nov; i++) {
            int val = (int)(out[p->out_word[p->ov[i]]] & 1);
            int rdy = p->ordy[i] < 0 ? 1 : (int)(in[p->in[p->ordy[i]].word] & 1);
            nout += val && rdy;
        }
        nin &= 0xffffffu;
        nout &= 0xffffffu;
        s->st[0] = xs32(s->st[0]);
        if ((cyc & ST_CYC_PHASE) == ST_CYC_PHASE)
            s->phase = xs32(s->phase);
        u->tm_step(tm, in);
    }
    res->sig = sig;
    res->in_xfers = nin;
    res->out_xfers = nout;
done:
    for (g = 0; g < p->ng; g++)
        free(streams[g]);
    if (tm)
        u->tm_free(tm);
    free(in);
    free(out);
    free(ov);
    free(s);
    return ok ? 0 : -1;
}

/* ---- the Verilog top */
static const char *pname(const plan *p, int port) { return p->layout.p[port].name; }

static void emit_bits(emit_file *e, const char *fmt_lhs, unsigned w)
{
    if (w == 1)
        emit(e, "logic %s;", fmt_lhs);
    else
        emit(e, "logic [%u:0] %s;", w - 1, fmt_lhs);
}

static void slice(char *b, size_t n, const char *v, unsigned lo, unsigned w)
{
    if (w == 1)
        snprintf(b, n, "%s[%u]", v, lo);
    else
        snprintf(b, n, "%s[%u:%u]", v, lo + w - 1, lo);
}

static const char *kind_name(int k)
{
    static const char *const n[] = {"random", "constant", "range", "probability", "sequence",
                                    "linear", "varying probability", "pick"};
    return n[k];
}

static void emit_header(emit_file *e, const plan *p, const char *module, const char *top,
                        const char *args, const st_result *res)
{
    int i, k;
    emit(e, "// FPGA self-test top of %s (cohgen %s %s), generated by cohgen %s", module,
         p->u->name, args, COHGEN_VERSION);
    emit(e, "// --selftest. Do not edit: regenerate instead. See docs/fpga.md.");
    emit(e, "//");
    emit(e, "// xorshift32 generators drive every input of the unit; a CRC-32 MISR folds");
    emit(e, "// every output bit every cycle (32-bit chunks, chunk c rotated left by c mod 32,");
    emit(e, "// XORed into the shifted signature); after RunCycles cycles the signature and");
    emit(e, "// the transfer counts are compared with the values cohgen computed from the");
    emit(e, "// unit's timing shell (%s) on the same stimulus: pass or fail LED, and", p->u->model_ref);
    emit(e, "// \"PASS ssssssss iiiiii oooooo\" (or FAIL) on the UART every GapCycles cycles:");
    emit(e, "// signature, input-channel and output-channel transfers (24 bits each).");
    emit(e, "// Expected with Seed 32'h%08x, RunCycles %u: signature %08x, %u in, %u out.",
         res->seed, res->cycles, res->sig, res->in_xfers, res->out_xfers);
    emit(e, "//");
    emit(e, "// Inputs (generator 0 runs free; a channel's generator advances when");
    emit(e, "// !(valid && !ready), so its valid and payload hold under back-pressure):");
    for (i = 0; i < p->nin; i++) {
        const inp *q = &p->in[i];
        char line[600];
        size_t at = 0;
        at += (size_t)snprintf(line + at, sizeof line - at, "//   %s: generator %d", pname(p, q->port),
                               q->group);
        for (k = q->f0; k < q->f0 + q->nf && at < sizeof line - 80; k++) {
            const fld *f = &p->f[k];
            if (f->kind == F_RAND && q->nf == 1)
                break;
            at += (size_t)snprintf(line + at, sizeof line - at, "%s[%u+:%u] %s", k == q->f0 ? "; " : ", ",
                                   f->lo, f->w, kind_name(f->kind));
            if (f->kind == F_CONST)
                at += (size_t)snprintf(line + at, sizeof line - at, " %llx", (unsigned long long)f->a);
            else if (f->kind == F_RANGE)
                at += (size_t)snprintf(line + at, sizeof line - at, " %llx..%llx",
                                       (unsigned long long)f->a, (unsigned long long)f->b);
            else if (f->kind == F_PROB)
                at += (size_t)snprintf(line + at, sizeof line - at, " %llu/65536", (unsigned long long)f->a);
            else if (f->kind == F_LINEAR)
                at += (size_t)snprintf(line + at, sizeof line - at, " %llu * %s[%u+:%u] + %llu",
                                       (unsigned long long)f->a, pname(p, p->in[f->src].port),
                                       f->src_lo, f->src_w, (unsigned long long)f->b);
            else if (f->kind == F_PICK) {
                unsigned j;
                for (j = 0; j < 1u << f->k; j++)
                    at += (size_t)snprintf(line + at, sizeof line - at, "%s%llx", j ? "," : " ",
                                           (unsigned long long)f->v[j]);
                if (f->src >= 0)
                    at += (size_t)snprintf(line + at, sizeof line - at, " by %s[%u+:%u]",
                                           pname(p, p->in[f->src].port), f->src_lo, f->src_w);
            }
        }
        emit(e, "%s", line);
    }
    (void)top;
}

/* What the self-test top's parts are emitted from. */
typedef struct {
    const plan *p;
    const char *module, *top, *args; /* the unit's module, the top's name, options */
    const st_result *res;            /* the model's run: seed, cycles, signature   */
} gctx;

/* The top's state registers and their reset values, in the order of its
 * default assignments, reset and update lines: run, done, cycle and phase
 * counters, the generators' states (and phases), the sequence counters, the
 * signature and the transfer counts. */
static void top_state(const gctx *x, prim_regs *st)
{
    const plan *p = x->p;
    int i, g;
    char nm[16];

    prim_regs_list(st, "run=1'b1 done=1'b0 cyc=24'd0 phase=PhaseSeed");
    for (g = 0; g < p->ng; g++) {
        snprintf(nm, sizeof nm, "st%d", g);
        prim_reg(st, nm, "Seed%d", g);
        if (g > 0 && p->g[g].phase >= 0) {
            snprintf(nm, sizeof nm, "ph%d", g);
            prim_reg(st, nm, "2'd0");
        }
    }
    for (i = 0; i < p->nseq; i++) {
        snprintf(nm, sizeof nm, "seq%d", i);
        prim_reg(st, nm, "%u'd0", p->seq_w[i]);
    }
    prim_regs_list(st, "sig=32'hffff_ffff nin=24'd0 nout=24'd0");
}

static void emit_top_module(emit_file *e, const gctx *x)
{
    const plan *p = x->p;
    const char *module = x->module, *top = x->top, *args = x->args;
    const st_result *res = x->res;

    emit_header(e, p, module, top, args, res);
    emit(e, "`default_nettype none");
    emit_nl(e);
    emit_begin(e, "module %s #(", top);
    emit(e, "parameter [31:0] Seed = 32'h%08x,        // generator seed", res->seed);
    emit(e, "parameter [23:0] RunCycles = 24'd%u,     // stimulus cycles after reset", res->cycles);
    emit(e, "parameter [31:0] ExpSig = 32'h%08x,      // computed by cohgen from the model", res->sig);
    emit(e, "parameter [23:0] ExpIn = 24'd%u,", res->in_xfers);
    emit(e, "parameter [23:0] ExpOut = 24'd%u,", res->out_xfers);
    emit(e, "parameter [15:0] BaudDiv = 16'd104,        // ClkHz / Baud: 12 MHz / 115200");
    emit(e, "parameter [23:0] GapCycles = 24'd6000000,  // between UART reports");
    emit(e, "parameter        LedActiveLow = 1'b0");
    emit_out(e);
    emit_begin(e, ") (");
    emit(e, "input  wire clk_i,");
    emit(e, "input  wire rst_ni,       // button or pull-up; power-on reset is internal");
    emit(e, "output wire led_pass_o,");
    emit(e, "output wire led_fail_o,");
    emit(e, "output wire led_run_o,");
    emit(e, "output wire uart_tx_o");
    emit_end(e, ");");
    emit_in(e);
    emit_nl(e);
    emit(e,
         "localparam [4:0] MsgLast = 5'd28;          // \"PASS \" + 8 + \" \" + 6 + \" \" + 6 + CR LF");
    emit_nl(e);
    emit(e, "function automatic [31:0] xs32(input logic [31:0] x);");
    emit_in(e);
    emit(e, "logic [31:0] x1, x2;");
    emit(e, "x1 = x ^ {x[18:0], 13'd0};");
    emit(e, "x2 = x1 ^ {17'd0, x1[31:17]};");
    emit(e, "xs32 = x2 ^ {x2[26:0], 5'd0};");
    emit_end(e, "endfunction");
    emit(e, "function automatic [8:0] vthr(input logic [1:0] ph);  // probability / 256");
    emit_in(e);
    emit(e, "case (ph)");
    emit(e, "  2'd0: vthr = 9'd%u;", vthr[0]);
    emit(e, "  2'd1: vthr = 9'd%u;", vthr[1]);
    emit(e, "  2'd2: vthr = 9'd%u;", vthr[2]);
    emit(e, "  default: vthr = 9'd%u;", vthr[3]);
    emit(e, "endcase");
    emit_end(e, "endfunction");
    emit_nl(e);
}

static void emit_top_reset(emit_file *e, const gctx *x)
{
    (void)x; /* the same text in every configuration */
    /* reset (docs/fpga.md) */
    emit(e, "// Reset: power-on counter (iCE40 flip-flops configure to 0) and the");
    emit(e, "// synchronized reset pin, registered into one internal active-low reset.");
    emit(e, "logic [3:0] por_q = 4'd0;");
    emit(e, "logic [3:0] por_d;");
    emit(e, "logic [1:0] pin_q = 2'd0;");
    emit(e, "logic [1:0] pin_d;");
    emit(e, "logic       rst_q = 1'b0;");
    emit(e, "logic       rst_d;");
    emit(e, "assign por_d = por_q + {3'd0, ~por_q[3]};");
    emit(e, "assign pin_d = {pin_q[0], rst_ni};");
    emit(e, "assign rst_d = por_q[3] & pin_q[1];");
    emit(e, "always_ff @(posedge clk_i) begin");
    emit(e, "  por_q <= por_d;");
    emit(e, "  pin_q <= pin_d;");
    emit(e, "  rst_q <= rst_d;");
    emit(e, "end");
    emit_nl(e);
}

static void emit_top_generators(emit_file *e, const gctx *x)
{
    const plan *p = x->p;
    int i, g;
    unsigned nw;

    /* generators */
    emit(e, "// Generators: state, stream (word 0 the state, word j the state XOR two");
    emit(e, "// of its rotations XOR a constant), phase of the varying probabilities.");
    emit(e, "logic        run_q, run_d, done_q, done_d;");
    emit(e, "logic [23:0] cyc_q, cyc_d;");
    emit(e, "/* verilator lint_off UNUSEDSIGNAL */");
    emit(e, "logic [31:0] phase_q, phase_d;");
    for (g = 0; g < p->ng; g++) {
        nw = (p->g[g].bits + 31) / 32;
        if (nw == 0)
            nw = 1;
        emit(e, "logic [%u:0] rs%d;", 32 * nw - 1, g);
    }
    emit(e, "/* verilator lint_on UNUSEDSIGNAL */");
    for (g = 0; g < p->ng; g++) {
        unsigned j;
        nw = (p->g[g].bits + 31) / 32;
        if (nw == 0)
            nw = 1;
        emit(e, "logic [31:0] st%d_q, st%d_d;", g, g);
        emit(e, "localparam [31:0] SeedX%d = Seed ^ 32'h%08x;", g,
             (uint32_t)((unsigned)(g + 1) * 0x9E3779B9u));
        emit(e, "localparam [31:0] Seed%d = SeedX%d == 32'd0 ? 32'd1 : SeedX%d;", g, g, g);
        emit(e, "assign rs%d[31:0] = st%d_q;", g, g);
        for (j = 1; j < nw; j++) {
            unsigned ra, rb;
            rot_of(j, &ra, &rb);
            emit(e, "assign rs%d[%u:%u] = st%d_q ^ {st%d_q[%u:0], st%d_q[31:%u]} ^ "
                    "{st%d_q[%u:0], st%d_q[31:%u]} ^ 32'h%08x;",
                 g, 32 * j + 31, 32 * j, g, g, 31 - ra, g, 32 - ra, g, 31 - rb, g, 32 - rb,
                 kconst(j));
        }
        if (g > 0 && p->g[g].phase >= 0)
            emit(e, "logic [1:0]  ph%d_q, ph%d_d;", g, g);
    }
    emit(e, "localparam [31:0] PhaseX = Seed ^ 32'h6d2b79f5;");
    emit(e, "localparam [31:0] PhaseSeed = PhaseX == 32'd0 ? 32'd1 : PhaseX;");
    for (i = 0; i < p->nseq; i++)
        emit(e, "logic [%u:0] seq%d_q, seq%d_d;", p->seq_w[i] - 1, i, i);
    emit_nl(e);
}

/* A range's or pick's random bits, wire fr<k>: the field's own bits of its
 * channel's generator, or the source field of another input. */
static void emit_field_bits(emit_file *e, const plan *p, const inp *q, const fld *f, int k)
{
    char b[160], rr[64];
    emit_bits(e, (snprintf(b, sizeof b, "fr%d", k), b), f->k);
    if (f->src >= 0)
        snprintf(rr, sizeof rr, "d_%s", pname(p, p->in[f->src].port));
    else
        snprintf(rr, sizeof rr, "rs%d", q->group);
    slice(b, sizeof b, rr, f->src >= 0 ? f->src_lo : f->off, f->k);
    emit(e, "assign fr%d = %s;", k, b);
}

static void emit_top_ports(emit_file *e, const gctx *x)
{
    const plan *p = x->p;
    const char *module = x->module;
    int i, k;
    char b[160], b2[160];

    /* unit ports */
    emit(e, "// The unit's ports.");
    for (i = 0; i < p->layout.n; i++) {
        snprintf(b, sizeof b, "d_%s", pname(p, i));
        emit_bits(e, b, p->layout.p[i].width);
    }
    emit_nl(e);
    emit(e, "// Inputs: fields from the generators (header: which rule drives what).");
    for (i = 0; i < p->nin; i++) {
        const inp *q = &p->in[i];
        char expr[8192] = "";
        size_t at = 0;
        int first = 1;
        /* helper wires first */
        for (k = q->f0; k < q->f0 + q->nf; k++) {
            const fld *f = &p->f[k];
            if (f->kind == F_RANGE) {
                uint64_t n = f->b - f->a + 1;
                emit_field_bits(e, p, q, f, k);
                emit_bits(e, (snprintf(b, sizeof b, "fv%d", k), b), f->w);
                if (f->k < 64 && n == (1ull << f->k))
                    snprintf(b2, sizeof b2, "fr%d", k);
                else
                    snprintf(b2, sizeof b2, "(fr%d >= %u'd%llu ? fr%d - %u'd%llu : fr%d)", k, f->k,
                             (unsigned long long)n, k, f->k, (unsigned long long)n, k);
                if (f->w > f->k)
                    emit(e, "assign fv%d = %u'd%llu + {%u'd0, %s};", k, f->w,
                         (unsigned long long)f->a, f->w - f->k, b2);
                else
                    emit(e, "assign fv%d = %u'd%llu + %s;", k, f->w, (unsigned long long)f->a, b2);
            } else if (f->kind == F_PICK) {
                char ch[1024];
                size_t cat = 0;
                unsigned j;
                emit_field_bits(e, p, q, f, k);
                emit_bits(e, (snprintf(b, sizeof b, "fv%d", k), b), f->w);
                for (j = 0; j + 1 < 1u << f->k; j++)
                    cat += (size_t)snprintf(ch + cat, sizeof ch - cat, "fr%d == %u'd%u ? %u'h%llx : ", k, f->k,
                                            j, f->w, (unsigned long long)f->v[j]);
                snprintf(ch + cat, sizeof ch - cat, "%u'h%llx", f->w, (unsigned long long)f->v[j]);
                emit(e, "assign fv%d = %s;", k, ch);
            } else if (f->kind == F_LINEAR) {
                const inp *sq = &p->in[f->src];
                char sv[64];
                snprintf(sv, sizeof sv, "d_%s", pname(p, sq->port));
                emit_bits(e, (snprintf(b, sizeof b, "fs%d", k), b), f->w);
                if (f->src_w >= f->w) {
                    slice(b2, sizeof b2, sv, f->src_lo, f->w);
                    emit(e, "assign fs%d = %s;", k, b2);
                } else {
                    slice(b2, sizeof b2, sv, f->src_lo, f->src_w);
                    emit(e, "assign fs%d = {%u'd0, %s};", k, f->w - f->src_w, b2);
                }
                emit_bits(e, (snprintf(b, sizeof b, "fv%d", k), b), f->w);
                emit(e, "assign fv%d = fs%d * %u'd%llu + %u'd%llu;", k, k, f->w,
                     (unsigned long long)(f->a & mask64(f->w)), f->w,
                     (unsigned long long)(f->b & mask64(f->w)));
            }
        }
        for (k = q->f0 + q->nf - 1; k >= q->f0; k--) {
            const fld *f = &p->f[k];
            char rsn[16], t[512];
            snprintf(rsn, sizeof rsn, "rs%d", q->group);
            switch (f->kind) {
            case F_RAND: slice(t, sizeof t, rsn, f->off, f->w); break;
            case F_CONST: snprintf(t, sizeof t, "%u'h%llx", f->w, (unsigned long long)f->a); break;
            case F_RANGE:
            case F_LINEAR:
            case F_PICK: snprintf(t, sizeof t, "fv%d", k); break;
            case F_SEQ: snprintf(t, sizeof t, "seq%d_q", f->seq); break;
            case F_PROB:
                if (f->a >= 65536 || f->a == 0)
                    snprintf(t, sizeof t, "1'b%d", f->a != 0);
                else {
                    slice(b2, sizeof b2, rsn, f->off, 16);
                    snprintf(t, sizeof t, "({1'b0, %s} < 17'd%llu)", b2, (unsigned long long)f->a);
                }
                break;
            default: /* VARY */
                slice(b2, sizeof b2, rsn, f->off, 8);
                if (f->phase >= 0)
                    snprintf(t, sizeof t, "({1'b0, %s} < vthr(phase_q[%d:%d]))", b2,
                             2 * (f->phase % 16) + 1, 2 * (f->phase % 16));
                else
                    snprintf(t, sizeof t, "({1'b0, %s} < vthr(ph%d_q))", b2, q->group);
                break;
            }
            at += (size_t)snprintf(expr + at, sizeof expr - at, "%s%s", first ? "" : ", ", t);
            first = 0;
        }
        if (q->nf == 1)
            emit(e, "assign d_%s = %s;", pname(p, q->port), expr);
        else
            emit(e, "assign d_%s = {%s};", pname(p, q->port), expr);
    }
    emit_nl(e);
    emit_begin(e, "%s u_dut (", module);
    emit(e, ".clk_i(clk_i),");
    emit(e, ".rst_ni(rst_q),");
    for (i = 0; i < p->layout.n; i++)
        emit(e, ".%s(d_%s)%s", pname(p, i), pname(p, i), i + 1 < p->layout.n ? "," : "");
    emit_end(e, ");");
    emit_nl(e);
}

static void emit_top_signature(emit_file *e, const gctx *x)
{
    const plan *p = x->p;
    int i, c;
    char b2[160];

    /* signature */
    emit(e, "// Signature: every output bit every cycle.");
    emit(e, "logic [%u:0] ov;", p->out_bits - 1);
    {
        char expr[8192] = "";
        size_t at = 0;
        int first = 1;
        for (i = p->layout.n - 1; i >= 0; i--)
            if (p->layout.p[i].dir == COHKIT_PORT_OUT) {
                at += (size_t)snprintf(expr + at, sizeof expr - at, "%sd_%s", first ? "" : ", ",
                                       pname(p, i));
                first = 0;
            }
        emit(e, "assign ov = {%s};", expr);
    }
    emit(e, "logic [31:0] fold;");
    {
        int nc = (int)((p->out_bits + 31) / 32);
        for (c = 0; c < nc; c++) {
            unsigned lo = 32u * (unsigned)c, cw = p->out_bits - lo < 32 ? p->out_bits - lo : 32;
            emit(e, "logic [31:0] oc%d;", c);
            slice(b2, sizeof b2, "ov", lo, cw);
            if (cw == 32)
                emit(e, "assign oc%d = %s;", c, b2);
            else
                emit(e, "assign oc%d = {%u'd0, %s};", c, 32 - cw, b2);
        }
        emit_raw(e, "  assign fold = oc0");
        for (c = 1; c < nc; c++) {
            unsigned r = (unsigned)c % 32;
            if (r == 0)
                emit_raw(e, "\n      ^ oc%d", c);
            else
                emit_raw(e, "\n      ^ {oc%d[%u:0], oc%d[31:%u]}", c, 31 - r, c, 32 - r);
        }
        emit_raw(e, ";\n");
    }
    emit(e, "logic [31:0] sig_q, sig_d, sig_shift;");
    emit(e, "logic [23:0] nin_q, nin_d, nout_q, nout_d;");
    emit(e, "assign sig_shift = {sig_q[30:0], 1'b0} ^ (sig_q[31] ? 32'h04c1_1db7 : 32'h0);");
}

static void emit_top_transfers(emit_file *e, const gctx *x)
{
    const plan *p = x->p;
    int i, g, k;

    /* transfers */
    emit(e, "logic [23:0] in_x, out_x;");
    {
        char expr[8192] = "";
        size_t at = 0;
        for (g = 1; g < p->ng; g++)
            at += (size_t)snprintf(expr + at, sizeof expr - at, " + {23'd0, d_%s & d_%s}",
                                   pname(p, p->in[p->g[g].valid].port), pname(p, p->g[g].ready));
        emit(e, "assign in_x = 24'd0%s;", expr);
        at = 0;
        expr[0] = '\0';
        for (i = 0; i < p->nov; i++) {
            if (p->ordy[i] >= 0)
                at += (size_t)snprintf(expr + at, sizeof expr - at, " + {23'd0, d_%s & d_%s}",
                                       pname(p, p->ov[i]), pname(p, p->in[p->ordy[i]].port));
            else
                at += (size_t)snprintf(expr + at, sizeof expr - at, " + {23'd0, d_%s}",
                                       pname(p, p->ov[i]));
        }
        emit(e, "assign out_x = 24'd0%s;", expr);
    }
    emit(e, "logic [31:0] phase_nx;");
    emit(e, "logic        phase_tick;");
    emit(e, "assign phase_nx = xs32(phase_q);");
    emit(e, "assign phase_tick = cyc_q[9:0] == 10'h%x;", ST_CYC_PHASE);
    for (g = 0; g < p->ng; g++) {
        emit(e, "logic [31:0] st%d_nx;", g);
        emit(e, "assign st%d_nx = xs32(st%d_q);", g, g);
        if (g > 0 && p->g[g].phase >= 0) {
            emit(e, "logic [1:0]  ph%d_ld;", g);
            emit(e, "assign ph%d_ld = phase_q[%d:%d];", g, 2 * (p->g[g].phase % 16) + 1,
                 2 * (p->g[g].phase % 16));
        }
    }
    emit_nl(e);
    emit_begin(e, "always_comb begin");
    {
        prim_regs st = {0};
        top_state(x, &st);
        prim_regs_holds(e, &st);
    }
    emit_begin(e, "if (run_q) begin");
    emit(e, "cyc_d = cyc_q + 24'd1;");
    emit(e, "if (cyc_q == RunCycles - 24'd1) begin");
    emit(e, "  run_d = 1'b0;");
    emit(e, "  done_d = 1'b1;");
    emit(e, "end");
    emit(e, "if (phase_tick) phase_d = phase_nx;");
    emit(e, "st0_d = st0_nx;");
    for (g = 1; g < p->ng; g++) {
        const char *v = pname(p, p->in[p->g[g].valid].port), *r = pname(p, p->g[g].ready);
        emit(e, "if (!d_%s || d_%s) begin", v, r);
        emit(e, "  st%d_d = st%d_nx;", g, g);
        if (p->g[g].phase >= 0)
            emit(e, "  ph%d_d = ph%d_ld;", g, g);
        emit(e, "end");
        for (i = 0; i < p->nin; i++)
            if (p->in[i].group == g)
                for (k = p->in[i].f0; k < p->in[i].f0 + p->in[i].nf; k++)
                    if (p->f[k].kind == F_SEQ)
                        emit(e, "if (d_%s && d_%s) seq%d_d = seq%d_q + %u'd1;", v, r, p->f[k].seq,
                             p->f[k].seq, p->f[k].w);
    }
    emit(e, "sig_d = sig_shift ^ fold;");
    emit(e, "nin_d = nin_q + in_x;");
    emit(e, "nout_d = nout_q + out_x;");
    emit_end(e, "end");
    emit_end(e, "end");
    emit_nl(e);
    emit(e, "logic match;");
    emit(e, "assign match = (sig_q == ExpSig) & (nin_q == ExpIn) & (nout_q == ExpOut);");
    emit(e, "assign led_pass_o = LedActiveLow ^ (done_q & match);");
    emit(e, "assign led_fail_o = LedActiveLow ^ (done_q & ~match);");
    emit(e, "assign led_run_o = LedActiveLow ^ run_q;");
    emit_nl(e);
}

static void emit_uart_chars(emit_file *e, const gctx *x)
{
    (void)x; /* the same text in every configuration */
    /* UART (docs/fpga.md) */
    emit(e, "// UART report: one 10-bit frame {stop, char, start} shifted out LSB first;");
    emit(e, "// the hex digits leave a shift register, the next character is registered.");
    emit(e, "logic        tx_busy_q, tx_busy_d;");
    emit(e, "logic [4:0]  tx_idx_q, tx_idx_d, ch_idx;");
    emit(e, "logic [3:0]  tx_bit_q, tx_bit_d;");
    emit(e, "logic [15:0] tx_baud_q, tx_baud_d;");
    emit(e, "logic [9:0]  tx_shift_q, tx_shift_d, tx_shift_nx;");
    emit(e, "logic [23:0] gap_q, gap_d;");
    emit(e, "logic [79:0] dig_q, dig_d;");
    emit(e, "logic [7:0]  ch_q, ch, hex;");
    emit(e, "logic [3:0]  nib;");
    emit(e, "logic        ch_hex;");
    emit(e, "logic [79:0] dig_sh;");
    emit(e, "assign dig_sh = {dig_q[75:0], 4'd0};");
    emit(e, "assign ch_idx = tx_idx_q + 5'd1;");
    emit(e, "assign nib = dig_q[79:76];");
    emit(e, "assign hex = nib < 4'd10 ? {4'h3, nib} : 8'h57 + {4'h0, nib};");
    emit(e, "assign tx_shift_nx = {1'b1, tx_shift_q[9:1]};");
    emit(e, "assign uart_tx_o = tx_shift_q[0];");
    emit_nl(e);
    emit_begin(e, "always_comb begin");
    emit(e, "ch_hex = 1'b0;");
    emit(e, "case (ch_idx)");
    emit(e, "  5'd1: ch = 8'h41;                               // A");
    emit(e, "  5'd2: ch = match ? 8'h53 : 8'h49;               // S / I");
    emit(e, "  5'd3: ch = match ? 8'h53 : 8'h4c;               // S / L");
    emit(e, "  5'd4, 5'd13, 5'd20: ch = 8'h20;");
    emit(e, "  5'd27: ch = 8'h0d;");
    emit(e, "  5'd28: ch = 8'h0a;");
    emit(e, "  default: begin");
    emit(e, "    ch = hex;");
    emit(e, "    ch_hex = 1'b1;");
    emit(e, "  end");
    emit(e, "endcase");
    emit_end(e, "end");
    emit_nl(e);
}

static void emit_uart_next(emit_file *e, const gctx *x)
{
    (void)x; /* the same text in every configuration */
    emit_begin(e, "always_comb begin");
    prim_hold(e, "tx_busy tx_idx tx_bit tx_baud tx_shift gap dig");
    emit(e, "if (!tx_busy_q) begin");
    emit(e, "  if (done_q && gap_q == GapCycles) begin");
    emit(e, "    tx_busy_d = 1'b1;");
    emit(e, "    tx_idx_d = 5'd0;");
    emit(e, "    tx_bit_d = 4'd0;");
    emit(e, "    tx_baud_d = 16'd0;");
    emit(e, "    tx_shift_d = {1'b1, match ? 8'h50 : 8'h46, 1'b0};  // P / F");
    emit(e, "    gap_d = 24'd0;");
    emit(e, "    dig_d = {sig_q, nin_q, nout_q};");
    emit(e, "  end else if (done_q) begin");
    emit(e, "    gap_d = gap_q + 24'd1;");
    emit(e, "  end");
    emit(e, "end else if (tx_baud_q == BaudDiv - 16'd1) begin");
    emit(e, "  tx_baud_d = 16'd0;");
    emit(e, "  if (tx_bit_q == 4'd9) begin");
    emit(e, "    tx_bit_d = 4'd0;");
    emit(e, "    if (tx_idx_q == MsgLast) begin");
    emit(e, "      tx_busy_d = 1'b0;");
    emit(e, "      tx_idx_d = 5'd0;");
    emit(e, "    end else begin");
    emit(e, "      tx_idx_d = ch_idx;");
    emit(e, "      tx_shift_d = {1'b1, ch_q, 1'b0};");
    emit(e, "      if (ch_hex) dig_d = dig_sh;");
    emit(e, "    end");
    emit(e, "  end else begin");
    emit(e, "    tx_bit_d = tx_bit_q + 4'd1;");
    emit(e, "    tx_shift_d = tx_shift_nx;");
    emit(e, "  end");
    emit(e, "end else begin");
    emit(e, "  tx_baud_d = tx_baud_q + 16'd1;");
    emit(e, "end");
    emit_end(e, "end");
    emit_nl(e);
}

static void emit_top_regs(emit_file *e, const gctx *x)
{
    prim_regs st = {0};

    top_state(x, &st);

    prim_regs_list(&st, "tx_busy=1'b0 tx_idx=5'd0 tx_bit=4'd0 tx_baud=16'd0 tx_shift=10'h3ff "
                        "gap=GapCycles dig=80'd0");
    prim_regs_open_rst(e, "rst_q");
    prim_regs_resets(e, &st);
    emit(e, "    ch_q <= 8'd0;");
    prim_regs_else(e);
    prim_regs_updates(e, &st);
    emit(e, "    ch_q <= ch;");
    prim_regs_close(e);
    prim_module_end(e);
}

int selftest_write(const cohkit_unit_desc *u, const void *cfg, const char *module, const char *dir,
                   st_result *res, char *err, size_t len)
{
    plan *p = calloc(1, sizeof *p);
    rfield *rf = NULL;
    emit_file f[3];
    char fn[3][240], top[200], args[1024], stim_fn[600], stim_tmp[610];
    FILE *stim = NULL;
    int i, g, rc = -1;
    if (p == NULL)
        return snprintf(err, len, "out of memory"), -1;
    if (res->seed == 0 || res->cycles == 0 || res->cycles > 0xffffffu) {
        snprintf(err, len, "--selftest-seed must be non-zero and --selftest-cycles 1..16777215");
        goto out;
    }
    rf = calloc(ST_FIELDS_MAX, sizeof *rf);
    if (rf == NULL || plan_build(p, rf, u, cfg, err, len) != 0)
        goto out;
    snprintf(stim_fn, sizeof stim_fn, "%s/%s_selftest.stim", dir, module);
    snprintf(stim_tmp, sizeof stim_tmp, "%s.tmp", stim_fn);
    if (res->write_stim && (stim = fopen(stim_tmp, "w")) == NULL) {
        snprintf(err, len, "-o: cannot write '%s'", stim_tmp);
        goto out;
    }
    if (simulate(p, cfg, res, stim, err, len) != 0)
        goto out;
    u->cfg_args(cfg, args, sizeof args);
    snprintf(top, sizeof top, "%s_selftest", module);
    snprintf(fn[0], sizeof fn[0], "%s.sv", top);
    snprintf(fn[1], sizeof fn[1], "%s.json", top);
    snprintf(fn[2], sizeof fn[2], "%s_wrong.vf", top);
    for (i = 0; i < 3; i++)
        if (emit_open(&f[i], dir, fn[i]) != 0) {
            emit_abort(f, i);
            snprintf(err, len, "-o: cannot write in '%s'", dir);
            goto out;
        }
    gctx x = {p, module, top, args, res};
    /* the top: the unit, its stimulus generators, the signature and transfer
     * counters, the UART report */
    PRIM_STAGES(&f[0], gctx, &x, emit_top_module, emit_top_reset, emit_top_generators,
                emit_top_ports, emit_top_signature, emit_top_transfers, emit_uart_chars,
                emit_uart_next, emit_top_regs);
    emit_raw(&f[1], "{\"unit\":\"%s\",\"module\":\"%s\",\"top\":\"%s\",\"args\":\"%s\","
                    "\"seed\":%u,\"cycles\":%u,\"sig\":\"%08x\",\"in_xfers\":%u,\"out_xfers\":%u,"
                    "\"channels\":[",
             u->name, module, top, args, res->seed, res->cycles, res->sig, res->in_xfers,
             res->out_xfers);
    for (g = 1; g < p->ng; g++)
        emit_raw(&f[1], "%s\"%s\"", g > 1 ? "," : "", pname(p, p->in[p->g[g].valid].port));
    emit_raw(&f[1], "],\"output_bits\":%u}\n", p->out_bits);
    emit_raw(&f[2], "-GExpSig=32'h%08x\n", res->sig ^ 1u);
    rc = emit_commit(f, 3, err, len);
    if (rc == 0 && stim) {
        int bad = fclose(stim) != 0;
        stim = NULL;
        if (bad || rename(stim_tmp, stim_fn) != 0) {
            snprintf(err, len, "-o: cannot write '%s'", stim_fn);
            rc = -1;
        }
    }
out:
    if (stim)
        fclose(stim);
    if (rc != 0 && res->write_stim)
        remove(stim_tmp);
    free(rf);
    free(p);
    return rc;
}
