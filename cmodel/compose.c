/*
 * Composition of units driven through their ports (compose.h).
 */
#include "compose.h"
#include "bits.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------- the shell backend -- */

typedef struct {
    const cohkit_unit_desc *u;
    void *tm;
} shell_h;

static void *shell_open(void *ctx, const cmp_block *b, char *err, size_t len)
{
    shell_h *h = calloc(1, sizeof *h);
    (void)ctx;
    if (h == NULL || (h->tm = b->u->tm_new(b->cfg)) == NULL) {
        free(h);
        snprintf(err, len, "%s: out of memory", b->u->name);
        return NULL;
    }
    h->u = b->u;
    return h;
}
static void shell_eval(void *p, const uint64_t *in, uint64_t *out)
{
    shell_h *h = p;
    h->u->tm_eval(h->tm, in, out);
}
static void shell_step(void *p, const uint64_t *in)
{
    shell_h *h = p;
    h->u->tm_step(h->tm, in);
}
static void shell_close(void *p)
{
    shell_h *h = p;
    if (h) {
        h->u->tm_free(h->tm);
        free(h);
    }
}
const cmp_backend cmp_shell_backend = {NULL, shell_open, shell_eval, shell_step, shell_close};

/* ------------------------------------------------------------ blocks -- */

/* The layout, the port offsets and the value arrays of b->cfg; the backend. */
static int block_setup(cmp_block *b, const cmp_backend *be, char *err, size_t len)
{
    unsigned wi = 1, wo = 0;
    int k;
    if (cohkit_unit_layout_of(b->u, b->cfg, &b->l, err, len) != 0)
        return -1;
    for (k = 0; k < b->l.n; k++) {
        unsigned *w = b->l.p[k].dir == COHKIT_PORT_IN ? &wi : &wo;
        b->off[k] = *w;
        *w += COHKIT_UNIT_WORDS(b->l.p[k].width);
    }
    b->in = calloc(b->l.in_words + 1, sizeof *b->in);
    b->out = calloc(b->l.out_words + 1, sizeof *b->out);
    if (b->in == NULL || b->out == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    b->be = be ? *be : cmp_shell_backend;
    b->h = b->be.open(b->be.ctx, b, err, len);
    return b->h ? 0 : -1;
}

static int block_start(cmp_block *b, const char *unit, const char *name, const char *preset,
                       unsigned seed, char *err, size_t len)
{
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    snprintf(b->preset, sizeof b->preset, "%s", preset);
    b->seed = seed;
    b->u = cohkit_unit_find(unit);
    if (b->u == NULL) {
        snprintf(err, len, "unit %s is not registered", unit);
        return -1;
    }
    b->cfg = calloc(1, b->u->cfg_size);
    if (b->cfg == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    return 0;
}

int cmp_block_open(cmp_block *b, const char *unit, const char *name, const char *preset,
                   const char *extra, unsigned seed, const cmp_backend *be, char *err,
                   size_t len)
{
    char args[300];
    if (block_start(b, unit, name, preset, seed, err, len) != 0)
        return -1;
    snprintf(args, sizeof args, "--config %s%s%s", preset, extra ? " " : "", extra ? extra : "");
    if (cohkit_unit_cfg_parse_str(b->u, b->cfg, args, err, len) != 0)
        return -1;
    return block_setup(b, be, err, len);
}

int cmp_block_open_cfg(cmp_block *b, const char *unit, const void *cfg, const char *name,
                       const char *preset, unsigned seed, const cmp_backend *be, char *err,
                       size_t len)
{
    if (block_start(b, unit, name, preset, seed, err, len) != 0)
        return -1;
    memcpy(b->cfg, cfg, b->u->cfg_size);
    return block_setup(b, be, err, len);
}

void *cmp_shell_state(const cmp_block *b)
{
    return b->be.open == shell_open && b->h ? ((shell_h *)b->h)->tm : NULL;
}

void cmp_block_close(cmp_block *b)
{
    if (b->h)
        b->be.close(b->h);
    free(b->cfg);
    free(b->in);
    free(b->out);
    memset(b, 0, sizeof *b);
}

void cmp_block_eval(cmp_block *b)
{
    b->be.eval(b->h, b->in, b->out);
    if (b->force.on && b->cycles >= b->force.from) {
        uint64_t *w = &b->out[b->force.word];
        *w = (*w & ~b->force.mask) | (b->force.val & b->force.mask);
    }
}

void cmp_block_step(cmp_block *b)
{
    b->be.step(b->h, b->in);
    b->cycles++;
}

int cmp_port_of(const cmp_block *b, const char *name, cmp_port *p, char *err, size_t len)
{
    int k;
    for (k = 0; k < b->l.n; k++)
        if (strcmp(b->l.p[k].name, name) == 0) {
            p->index = k;
            p->dir = b->l.p[k].dir;
            p->width = b->l.p[k].width;
            p->off = b->off[k];
            return 0;
        }
    snprintf(err, len, "%s has no port %s", b->u->name, name);
    return -1;
}

int cmp_ports_bind(const cmp_block *b, const char *const *names, cmp_port *p, char *err,
                   size_t len)
{
    unsigned k;
    for (k = 0; names[k]; k++)
        if (cmp_port_of(b, names[k], &p[k], err, len) != 0)
            return -1;
    return 0;
}

int cmp_offsets_bind(const cmp_block *b, const char *const *names, unsigned *off, char *err,
                     size_t len)
{
    unsigned k;
    cmp_port p;
    for (k = 0; names[k]; k++) {
        if (cmp_port_of(b, names[k], &p, err, len) != 0)
            return -1;
        off[k] = p.off;
    }
    return 0;
}

uint64_t cmp_bits_get(const uint64_t *w, unsigned lo, unsigned n) { return cohkit_bits_get(w, lo, n); }
void cmp_bits_put(uint64_t *w, unsigned lo, unsigned n, uint64_t v) { cohkit_bits_put(w, lo, n, v); }

uint64_t cmp_get(const cmp_block *b, cmp_port p)
{
    return cmp_bits_get(cmp_words(b, p), 0, p.width > 64 ? 64 : p.width);
}

void cmp_set(cmp_block *b, cmp_port p, uint64_t v)
{
    cmp_bits_put(cmp_in(b, p), 0, p.width > 64 ? 64 : p.width, v);
}

int cmp_block_force(cmp_block *b, const char *port, uint64_t mask, uint64_t val, uint64_t from,
                    char *err, size_t len)
{
    cmp_port p;
    if (cmp_port_of(b, port, &p, err, len) != 0 || p.dir != COHKIT_PORT_OUT) {
        snprintf(err, len, "%s has no output port '%s'", b->name, port);
        return -1;
    }
    if (p.width < 64)
        mask &= (1ull << p.width) - 1;
    b->force.on = 1;
    b->force.word = p.off;
    b->force.mask = mask;
    b->force.val = val;
    b->force.from = from;
    return 0;
}

int cmp_block_stuck(cmp_block *b, const char *port, unsigned bit, unsigned value, uint64_t from,
                    char *err, size_t len)
{
    cmp_port p;
    if (cmp_port_of(b, port, &p, err, len) != 0 || p.dir != COHKIT_PORT_OUT || bit >= p.width) {
        snprintf(err, len, "%s has no output bit %s[%u]", b->name, port, bit);
        return -1;
    }
    b->force.on = 1;
    b->force.word = p.off + bit / 64;
    b->force.mask = 1ull << (bit % 64);
    b->force.val = value ? b->force.mask : 0;
    b->force.from = from;
    return 0;
}

/* ----------------------------------------------------------- systems -- */

void cmp_sys_init(cmp_sys *s, const cmp_backend *be)
{
    memset(s, 0, sizeof *s);
    s->be = be ? *be : cmp_shell_backend;
}

cmp_block *cmp_sys_add(cmp_sys *s, const char *unit, const char *name, const char *preset,
                       const char *extra, unsigned seed, char *err, size_t len)
{
    cmp_block *b;
    if (s->n == s->cap) {
        unsigned nc = s->cap ? 2 * s->cap : 16;
        cmp_block **nb = realloc(s->b, nc * sizeof *nb);
        if (nb == NULL) {
            snprintf(err, len, "out of memory");
            return NULL;
        }
        s->b = nb;
        s->cap = nc;
    }
    b = calloc(1, sizeof *b);
    if (b == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    s->b[s->n++] = b; /* closed by cmp_sys_free, also after a failed open */
    return cmp_block_open(b, unit, name, preset, extra, seed, &s->be, err, len) == 0 ? b : NULL;
}

void cmp_sys_free(cmp_sys *s)
{
    unsigned i;
    for (i = 0; i < s->n; i++) {
        cmp_block_close(s->b[i]);
        free(s->b[i]);
    }
    free(s->b);
    memset(s, 0, sizeof *s);
}

cmp_block *cmp_sys_find(const cmp_sys *s, const char *name)
{
    unsigned i;
    for (i = 0; i < s->n; i++)
        if (strcmp(s->b[i]->name, name) == 0)
            return s->b[i];
    return NULL;
}

void cmp_sys_clear(cmp_sys *s, uint64_t rst_ni)
{
    unsigned i;
    for (i = 0; i < s->n; i++) {
        memset(s->b[i]->in, 0, s->b[i]->l.in_words * sizeof *s->b[i]->in);
        s->b[i]->in[0] = rst_ni;
    }
}

void cmp_sys_eval(cmp_sys *s)
{
    unsigned i;
    for (i = 0; i < s->n; i++)
        cmp_block_eval(s->b[i]);
}

void cmp_sys_step(cmp_sys *s)
{
    unsigned i;
    for (i = 0; i < s->n; i++)
        cmp_block_step(s->b[i]);
}

int cmp_block_compare(const cmp_block *a, const cmp_block *b, int outs, uint64_t cyc,
                      const char *la, const char *lb, char *msg, size_t len)
{
    int k;
    if (a->in[0] != b->in[0]) {
        snprintf(msg, len, "cycle %llu %s: rst_ni differs", (unsigned long long)cyc, a->name);
        return 1;
    }
    for (k = 0; k < a->l.n; k++) {
        unsigned nw = COHKIT_UNIT_WORDS(a->l.p[k].width);
        int in = a->l.p[k].dir == COHKIT_PORT_IN;
        const uint64_t *x = (in ? a->in : a->out) + a->off[k];
        const uint64_t *y = (in ? b->in : b->out) + b->off[k];
        if ((in || outs) && memcmp(x, y, nw * sizeof *x) != 0) {
            snprintf(msg, len, "MISMATCH cycle %llu %s port %s: %s 0x%llx, %s 0x%llx%s",
                     (unsigned long long)cyc, a->name, a->l.p[k].name, la,
                     (unsigned long long)x[0], lb, (unsigned long long)y[0],
                     nw > 1 ? " (low words)" : "");
            return 1;
        }
    }
    return 0;
}

int cmp_compare(const cmp_sys *a, const cmp_sys *b, int outs, uint64_t cyc, const char *la,
                const char *lb, char *msg, size_t len)
{
    unsigned i;
    if (a->n != b->n) {
        snprintf(msg, len, "the compositions have %u and %u blocks", a->n, b->n);
        return 1;
    }
    for (i = 0; i < a->n; i++)
        if (cmp_block_compare(a->b[i], b->b[i], outs, cyc, la, lb, msg, len))
            return 1;
    return 0;
}

/* -------------------------------------------------------------- pairs -- */

int cmp_pair_open(cmp_pair *p, const char *unit, const void *cfg, const char *name,
                  const char *preset, unsigned seed, const cmp_backend *sub, char *err,
                  size_t len)
{
    memset(p, 0, sizeof *p);
    p->compare = 1;
    p->has_sub = sub != NULL;
    if (cmp_block_open_cfg(&p->ref, unit, cfg, name, preset, seed, NULL, err, len) != 0 ||
        (sub && cmp_block_open_cfg(&p->sub, unit, cfg, name, preset, seed, sub, err, len) != 0)) {
        cmp_pair_close(p);
        return -1;
    }
    return 0;
}

void cmp_pair_name(cmp_pair *p, const char *name)
{
    snprintf(p->ref.name, sizeof p->ref.name, "%s", name);
    snprintf(p->sub.name, sizeof p->sub.name, "%s", name);
}

void cmp_pair_close(cmp_pair *p)
{
    cmp_block_close(&p->ref);
    cmp_block_close(&p->sub);
}

const uint64_t *cmp_pair_peek(cmp_pair *p)
{
    cmp_block *b = p->has_sub ? &p->sub : &p->ref;
    if (p->has_sub)
        memcpy(p->sub.in, p->ref.in, p->ref.l.in_words * sizeof *p->ref.in);
    cmp_block_eval(b);
    return b->out;
}

int cmp_pair_cycle(cmp_pair *p, const uint64_t **out)
{
    cmp_block_eval(&p->ref);
    *out = p->ref.out;
    if (p->has_sub) {
        memcpy(p->sub.in, p->ref.in, p->ref.l.in_words * sizeof *p->ref.in);
        cmp_block_eval(&p->sub);
        *out = p->sub.out;
        if (p->compare && (p->ref.in[0] & 1) &&
            cmp_block_compare(&p->ref, &p->sub, 1, p->cycles, "model", "RTL", p->err,
                              sizeof p->err))
            return -1;
        cmp_block_step(&p->sub);
    }
    cmp_block_step(&p->ref);
    p->cycles++;
    return 0;
}

/* ------------------------------------------------------------ queues -- */

void cmp_fifo_init(cmp_fifo *f, size_t isz)
{
    memset(f, 0, sizeof *f);
    f->isz = isz;
}
void cmp_fifo_free(cmp_fifo *f)
{
    free(f->buf);
    f->buf = NULL;
    f->cap = f->n = f->head = 0;
}
void *cmp_fifo_at(const cmp_fifo *f, size_t i)
{
    return f->buf + ((f->head + i) % f->cap) * f->isz;
}

int cmp_fifo_push(cmp_fifo *f, const void *item)
{
    if (f->n == f->cap) {
        size_t nc = f->cap ? 2 * f->cap : 8, i;
        uint8_t *nb = malloc(nc * f->isz);
        if (nb == NULL)
            return -1;
        for (i = 0; i < f->n; i++)
            memcpy(nb + i * f->isz, cmp_fifo_at(f, i), f->isz);
        free(f->buf);
        f->buf = nb;
        f->cap = nc;
        f->head = 0;
    }
    memcpy(f->buf + ((f->head + f->n) % f->cap) * f->isz, item, f->isz);
    f->n++;
    return 0;
}

void cmp_fifo_pop(cmp_fifo *f)
{
    f->head = (f->head + 1) % f->cap;
    f->n--;
}

void cmp_fifo_remove(cmp_fifo *f, size_t i)
{
    for (; i + 1 < f->n; i++)
        memcpy(cmp_fifo_at(f, i), cmp_fifo_at(f, i + 1), f->isz);
    f->n--;
}
