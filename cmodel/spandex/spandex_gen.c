/*
 * spandex-gen (spec 9.3): see spandex_gen.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "cfg_check.h"
#include "spandex_gen.h"
#include "unit.h"

void spandex_gen_cfg_default(spandex_gen_cfg *c)
{
    spandex_llc_cfg_default(&c->llc);
    c->seed = 1;
    c->events = 200;
    c->lines = 0;
}

int spandex_gen_cfg_preset(spandex_gen_cfg *c, const char *name)
{
    spandex_gen_cfg_default(c);
    return spandex_llc_cfg_preset(&c->llc, name);
}

int spandex_gen_cfg_option(spandex_gen_cfg *c, const char *name, const char *value, char *err, size_t len)
{
    uint64_t v;
    if (strcmp(name, "seed") == 0) {
        if (cohkit_cfg_dec(name, value, 0, UINT64_MAX, &v, err, len))
            return -1;
        c->seed = v;
        return 0;
    }
    if (strcmp(name, "events") == 0 || strcmp(name, "lines") == 0) {
        int ev = name[0] == 'e';
        if (cohkit_cfg_dec(name, value, ev, ev ? 10000000 : 4096, &v, err, len))
            return -1;
        if (ev)
            c->events = (unsigned)v;
        else
            c->lines = (unsigned)v;
        return 0;
    }
    return spandex_llc_cfg_option(&c->llc, name, value, err, len);
}

int spandex_gen_cfg_check(spandex_gen_cfg *c, char *err, size_t len)
{
    return spandex_llc_cfg_check_model(&c->llc, err, len);
}

/* The pool: --lines, or three lines per way of two sets (12 unbounded). */
static unsigned pool_size(const spandex_gen_cfg *c)
{
    return c->lines ? c->lines : c->llc.ways ? 6 * c->llc.ways : 12;
}

/* --------------------------------------------------------------- owed */
typedef struct {
    spandex_msg_kind kind; /* SPANDEX_ACK or SPANDEX_RSPRVKO */
    unsigned dev;
    uint64_t line, mask;
} owed;

typedef struct {
    const spandex_gen_cfg *c;
    spandex_llc_geom g;
    spandex_llc *l;
    owed *ow;
    size_t n, cap;
    int oom;
    uint64_t rng;
    FILE *out;
} gen;

static void note(void *ctx, const spandex_msg *m)
{
    gen *x = ctx;
    owed o;
    if (m->kind != SPANDEX_INV && m->kind != SPANDEX_RVKO && m->kind != SPANDEX_FWDREQS)
        return;
    o.kind = m->kind == SPANDEX_INV ? SPANDEX_ACK : SPANDEX_RSPRVKO;
    o.dev = m->dev;
    o.line = m->line;
    o.mask = m->mask;
    if (x->n == x->cap) {
        size_t cap = x->cap ? x->cap * 2 : 16;
        owed *p = realloc(x->ow, cap * sizeof *p);
        if (p == NULL) {
            x->oom = 1;
            return;
        }
        x->ow = p;
        x->cap = cap;
    }
    x->ow[x->n++] = o;
}

static uint64_t rnd(gen *x) { return cohkit_unit_splitmix(&x->rng); }
static unsigned pick(gen *x, unsigned n) { return (unsigned)(rnd(x) % n); }

/* A word value: small numbers and addresses mostly, any value sometimes. */
static uint64_t value(gen *x)
{
    uint64_t v = pick(x, 4) == 0 ? rnd(x) : rnd(x) % 256;
    return v & cohkit_mask64(x->g.word_bits);
}

static int feed(gen *x, const spandex_msg *m, char *err, size_t len)
{
    char e[300];
    spandex_msg_print(m, x->g.words, x->out);
    if (spandex_llc_event(x->l, m, note, x, e, sizeof e) != 0) {
        snprintf(err, len, "the core refused a generated event: %s", e);
        return -1;
    }
    if (x->oom) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    return 0;
}

/* Answers owed entry i (an RspRvkO is split now and then). */
static int answer(gen *x, size_t i, char *err, size_t len)
{
    spandex_msg m;
    owed o = x->ow[i];
    unsigned w;
    memset(&m, 0, sizeof m);
    m.kind = o.kind;
    m.dev = o.dev;
    m.line = o.line;
    m.mask = o.mask;
    if (o.kind == SPANDEX_RSPRVKO && cohkit_popcount(o.mask) > 1 && pick(x, 3) == 0) {
        uint64_t part = o.mask & rnd(x);
        if (part != 0 && part != o.mask) {
            m.mask = part;
            x->ow[i].mask &= ~part;
        }
    }
    if (m.mask == o.mask) {
        x->ow[i] = x->ow[x->n - 1];
        x->n--;
    }
    for (w = 0; w < x->g.words; w++)
        if (m.mask >> w & 1)
            m.v[w] = value(x);
    return feed(x, &m, err, len);
}

static uint64_t pool_line(gen *x, unsigned i)
{
    const spandex_llc_cfg *c = &x->c->llc;
    unsigned nsets = c->sets < 2 ? c->sets : 2;
    uint64_t set = i % nsets, tag = i / nsets + 1;
    return ((tag << x->g.set_bits) | set) << x->g.line_bits;
}

static uint64_t owned_by(gen *x, uint64_t line, unsigned d)
{
    uint64_t m = 0;
    unsigned w;
    for (w = 0; w < x->g.words; w++)
        if (spandex_llc_owner(x->l, line, w) == (int)d)
            m |= 1ull << w;
    return m;
}

/* One request from a random device on a random line of the pool: 1 made,
 * 0 when that device may not ask now, -1 on error. */
static int request(gen *x, char *err, size_t len)
{
    static const spandex_msg_kind kinds[] = {SPANDEX_REQV,  SPANDEX_REQV,      SPANDEX_REQS,  SPANDEX_REQS,
                                             SPANDEX_REQWT, SPANDEX_REQWT,     SPANDEX_REQO,  SPANDEX_REQODATA,
                                             SPANDEX_REQWTDATA, SPANDEX_REQWTDATA, SPANDEX_REQWB, SPANDEX_REQWB};
    spandex_msg m;
    uint64_t own;
    unsigned w;
    /* within the RTL's resources: every waiting request may need a
     * transaction when it replays, and this one needs one too */
    if (spandex_llc_open(x->l) + spandex_llc_waiting_all(x->l) + 1 > x->c->llc.txn ||
        spandex_llc_waiting_all(x->l) + 1 > x->c->llc.defer)
        return 0;
    memset(&m, 0, sizeof m);
    m.dev = pick(x, x->c->llc.devs);
    m.line = pool_line(x, pick(x, pool_size(x->c)));
    if (spandex_llc_waiting(x->l, m.line, m.dev))
        return 0;
    own = owned_by(x, m.line, m.dev);
    m.kind = kinds[pick(x, sizeof kinds / sizeof kinds[0])];
    m.mask = pick(x, 2) ? x->g.full : rnd(x) & x->g.full;
    if (m.kind == SPANDEX_REQWB && own && pick(x, 4) != 0)
        m.mask = own & (pick(x, 2) ? ~0ull : rnd(x));
    if (m.kind != SPANDEX_REQWB)
        m.mask &= ~own;
    if (m.mask == 0)
        return 0;
    if (m.kind == SPANDEX_REQWTDATA)
        m.op = pick(x, 5);
    for (w = 0; w < x->g.words; w++)
        if (m.mask >> w & 1)
            m.v[w] = value(x);
    return feed(x, &m, err, len) ? -1 : 1;
}

int spandex_gen_write(const spandex_gen_cfg *c, FILE *out, char *err, size_t len)
{
    gen x;
    unsigned e = 0, tries = 0;
    int rc = 0;
    memset(&x, 0, sizeof x);
    x.c = c;
    spandex_llc_geom_of(&c->llc, &x.g);
    x.rng = c->seed * 0x9E3779B97F4A7C15ull + 0x5350414eull;
    x.out = out;
    x.l = spandex_llc_new(&c->llc);
    if (x.l == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    fprintf(out, "# spandex-gen --seed %llu --events %u --lines %u\n", (unsigned long long)c->seed, c->events,
            pool_size(c));
    while (rc == 0 && e < c->events) {
        if (x.n && pick(&x, 5) < 2) {
            rc = answer(&x, pick(&x, (unsigned)x.n), err, len);
            e++;
            continue;
        }
        rc = request(&x, err, len);
        if (rc == 1) {
            e++;
            rc = 0;
        } else if (rc == 0 && ++tries > 1000u * c->events) {
            break;
        }
    }
    while (rc == 0 && x.n)
        rc = answer(&x, pick(&x, (unsigned)x.n), err, len);
    if (rc == 0 && spandex_llc_waiting_all(x.l) != 0) {
        snprintf(err, len, "requests still wait after the drain");
        rc = -1;
    }
    spandex_llc_free(x.l);
    free(x.ow);
    return rc ? -1 : 0;
}
