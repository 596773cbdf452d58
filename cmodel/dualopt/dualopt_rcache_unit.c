/*
 * The DualOpt RDMA cache as a registry unit (cmodel/unit.h): port table,
 * timing shell adapters, stimulus sources of the lockstep bench (with a
 * home-memory image, a reference image of every write and a mirror of the
 * functional core) and the trace tool (`cohmodel dualopt-rcache`, DualOpt
 * specification section 4.8). The model is cmodel/dualopt/dualopt_rcache.c.
 */
#include <stdlib.h>
#include <string.h>

#include "dualopt_rcache.h"
#include "unit_trace.h"
#include "unit_adapt.h"

static const char *const presets[] = {"default", "fpga", "pow2", NULL};
static const char *const committed[] = {"default", "fpga", NULL};
static const char *const streams[] = {"mixed", "hits", NULL};


COHKIT_UNIT_PORTS_BEGIN(dualopt_rcache_cfg, dualopt_rcache_geom, dualopt_rcache_geom_of, c)
#include "dualopt_rcache_ports.def"
COHKIT_UNIT_PORTS_END

COHKIT_UNIT_ADAPTERS(dualopt_rcache, dualopt_rcache_cfg, dualopt_rcache_tm, uint64_t, uint64_t, dualopt_rcache_tm_new, dualopt_rcache_tm_free,
                 dualopt_rcache_tm_reset, dualopt_rcache_eval, dualopt_rcache_step)

/* ----------------------------------------------------------------- trace */

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

typedef struct {
    unsigned op;          /* dualopt_rcache_op                          */
    uint64_t addr, mask;  /* WR: byte enables from the size     */
    unsigned lineno;
} rc_rec;

typedef struct {
    rc_rec *r;
    size_t n, kernels;
} rc_trace;

static int parse_write(cohkit_trace_reader *rd, const dualopt_rcache_cfg *c, rc_rec *r)
{
    char *end;
    unsigned long sz;
    unsigned off = (unsigned)(r->addr & (c->line - 1));
    const char *tok = cohkit_trace_arg(rd);
    if (tok == NULL)
        return cohkit_trace_fail(rd, "missing size");
    if (*tok < '0' || *tok > '9' || (sz = strtoul(tok, &end, 10), *end) || sz == 0 || sz > c->line)
        return cohkit_trace_fail(rd, "size '%s' is not in 1..%u", tok, c->line);
    if (off + sz > c->line)
        return cohkit_trace_fail(rd, "%lu bytes at 0x%llx cross the %u-byte line", sz,
                                 (unsigned long long)r->addr, c->line);
    r->mask = mask64((unsigned)sz) << off;
    return 0;
}

static int parse_rec(cohkit_trace_reader *rd, const void *ctx, void *rec)
{
    const dualopt_rcache_cfg *c = ctx;
    rc_rec *r = rec;
    const char *tok = rd->first;
    r->lineno = rd->lineno;
    if (strcmp(tok, "RD") == 0 || strcmp(tok, "WR") == 0 || strcmp(tok, "AT") == 0) {
        r->op = tok[0] == 'R' ? DUALOPT_RCACHE_RD : tok[0] == 'W' ? DUALOPT_RCACHE_WR : DUALOPT_RCACHE_AT;
        if (cohkit_trace_addr_max(rd, "address", mask64(c->addr_bits), &r->addr) ||
            (r->op == DUALOPT_RCACHE_WR && parse_write(rd, c, r)))
            return -1;
    } else if (strcmp(tok, "KERNEL") == 0) {
        r->op = DUALOPT_RCACHE_KERNEL;
    } else {
        return cohkit_trace_fail(rd, "unknown record '%s'", tok);
    }
    return cohkit_trace_end(rd);
}

static int trace_read(FILE *f, const dualopt_rcache_cfg *c, rc_trace *t, char *err, size_t len)
{
    static const cohkit_trace_format fmt = {sizeof(rc_rec), parse_rec, NULL, 0};
    void *r;
    int rc = cohkit_trace_records(f, &fmt, c, &r, &t->n, err, len);
    t->r = r;
    t->kernels = 0;
    for (size_t i = 0; i < t->n; i++)
        t->kernels += t->r[i].op == DUALOPT_RCACHE_KERNEL;
    return rc;
}

/* Data that no output line shows: writes and the home memory's initial
 * contents are a hash of the address and a counter. */
static uint8_t hbyte(uint64_t a, uint64_t b, unsigned i)
{
    uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    x ^= (uint64_t)i * 0x165667B19E3779F9ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return (uint8_t)x;
}

static void print_line(FILE *f, const char *what, uint64_t line, const dualopt_rcache_cfg *c)
{
    unsigned lb = 0;
    while ((1u << lb) < c->line)
        lb++;
    fprintf(f, "%s 0x%llx", what, (unsigned long long)(line << lb));
}

static void print_wb(FILE *f, const dualopt_rcache_cfg *c, uint64_t line, uint64_t mask)
{
    print_line(f, "WB", line, c);
    fprintf(f, " 0x%0*llx\n", (int)(c->line / 4), (unsigned long long)mask);
}

/* ------------------------------------------------------ home memory image */

typedef struct {
    uint64_t *key;        /* line + 1; 0 = empty                 */
    uint8_t *home, *ref;  /* home GPU's image, every write applied */
    uint64_t *wr;         /* bytes written since the last WB      */
    size_t cap, n;
    unsigned line;
} mem_img;

static int mem_init(mem_img *m, unsigned line)
{
    memset(m, 0, sizeof *m);
    m->line = line;
    m->cap = 1024;
    m->key = calloc(m->cap, sizeof *m->key);
    m->home = calloc(m->cap, line);
    m->ref = calloc(m->cap, line);
    m->wr = calloc(m->cap, sizeof *m->wr);
    return m->key && m->home && m->ref && m->wr ? 0 : -1;
}

static void mem_free(mem_img *m)
{
    free(m->key);
    free(m->home);
    free(m->ref);
    free(m->wr);
}

static size_t mem_find(mem_img *m, uint64_t line);

static void mem_grow(mem_img *m)
{
    mem_img o = *m;
    size_t i;
    m->cap *= 2;
    m->n = 0;
    m->key = calloc(m->cap, sizeof *m->key);
    m->home = calloc(m->cap, m->line);
    m->ref = calloc(m->cap, m->line);
    m->wr = calloc(m->cap, sizeof *m->wr);
    if (!m->key || !m->home || !m->ref || !m->wr)
        abort();
    for (i = 0; i < o.cap; i++)
        if (o.key[i]) {
            size_t j = mem_find(m, o.key[i] - 1);
            memcpy(m->home + j * m->line, o.home + i * m->line, m->line);
            memcpy(m->ref + j * m->line, o.ref + i * m->line, m->line);
            m->wr[j] = o.wr[i];
        }
    mem_free(&o);
}

/* The slot of a line, created with its initial contents. */
static size_t mem_find(mem_img *m, uint64_t line)
{
    size_t i;
    unsigned b;
    if (2 * (m->n + 1) > m->cap)
        mem_grow(m);
    i = (size_t)((line * 0x9E3779B97F4A7C15ull) >> 20) & (m->cap - 1);
    while (m->key[i] && m->key[i] != line + 1)
        i = (i + 1) & (m->cap - 1);
    if (!m->key[i]) {
        m->key[i] = line + 1;
        m->n++;
        for (b = 0; b < m->line; b++)
            m->home[i * m->line + b] = m->ref[i * m->line + b] = hbyte(line, 0, b);
        m->wr[i] = 0;
    }
    return i;
}

/* ------------------------------------------------------------ trace tool */

typedef struct {
    mem_img *m;
    FILE *out;
    const dualopt_rcache_cfg *c;
} tool_ctx;

static void tool_fetch(void *ctx, uint64_t line, uint8_t *buf)
{
    tool_ctx *t = ctx;
    size_t i = mem_find(t->m, line);
    memcpy(buf, t->m->home + i * t->c->line, t->c->line);
}

static void tool_wb(void *ctx, const dualopt_rcache_wb *wb)
{
    tool_ctx *t = ctx;
    print_wb(t->out, t->c, wb->line, wb->mask);
}

enum { FLAG_STATS = 0 };
static const cohkit_unit_flag flags[] = {
    {"stats", NULL,
     "cohmodel: add '# reads R hits H misses M writes W whits X wmiss-full F wmiss-fetch P "
     "atomics A write-backs B flushes K' at the end"},
    {NULL, NULL, NULL},
};

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    const dualopt_rcache_cfg *c = cfg;
    rc_trace t;
    dualopt_rcache *rc;
    mem_img m;
    tool_ctx tc;
    char err[300];
    size_t i;
    unsigned b;
    if (trace_read(in, c, &t, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    rc = dualopt_rcache_new(c);
    if (rc == NULL || mem_init(&m, c->line) != 0) {
        fprintf(errf, "cohmodel: out of memory\n");
        free(t.r);
        dualopt_rcache_free(rc);
        return 2;
    }
    tc.m = &m;
    tc.out = out;
    tc.c = c;
    for (i = 0; i < t.n; i++) {
        const rc_rec *r = &t.r[i];
        if (r->op == DUALOPT_RCACHE_KERNEL) {
            unsigned nw, ni;
            dualopt_rcache_flush(rc, tool_wb, &tc, &nw, &ni);
            fprintf(out, "FLUSH %u %u\n", nw, ni);
        } else {
            dualopt_rcache_req q;
            dualopt_rcache_res x;
            memset(&q, 0, sizeof q);
            q.op = (dualopt_rcache_op)r->op;
            q.addr = r->addr;
            q.mask = r->mask;
            for (b = 0; b < c->line; b++)
                q.data[b] = hbyte(r->addr, i + 1, b);
            dualopt_rcache_access(rc, &q, tool_fetch, &tc, &x);
            if (x.kind == DUALOPT_RCACHE_FWD) {
                if (x.nwb)
                    print_wb(out, c, x.wb.line, x.wb.mask);
                if (x.inv) {
                    print_line(out, "INVL", x.line, c);
                    fputc('\n', out);
                }
                print_line(out, "FWD", x.line, c);
                fputc('\n', out);
            } else {
                static const char *const kn[] = {"HIT", "MISS", "WHIT", "WMISS", "WMISS"};
                print_line(out, kn[x.kind], x.line, c);
                fputs(x.kind == DUALOPT_RCACHE_WMISS_FULL ? " FULL\n" : x.kind == DUALOPT_RCACHE_WMISS_FETCH ? " FETCH\n"
                                                                                      : "\n",
                      out);
                if (x.nwb)
                    print_wb(out, c, x.wb.line, x.wb.mask);
            }
        }
    }
    if (fl && fl[FLAG_STATS])
        fprintf(out,
                "# reads %llu hits %llu misses %llu writes %llu whits %llu wmiss-full %llu "
                "wmiss-fetch %llu atomics %llu write-backs %llu flushes %llu\n",
                (unsigned long long)(rc->hits + rc->misses), (unsigned long long)rc->hits,
                (unsigned long long)rc->misses,
                (unsigned long long)(rc->whits + rc->wmiss_full + rc->wmiss_fetch),
                (unsigned long long)rc->whits, (unsigned long long)rc->wmiss_full,
                (unsigned long long)rc->wmiss_fetch, (unsigned long long)rc->fwds,
                (unsigned long long)rc->wbs, (unsigned long long)rc->flushes);
    free(t.r);
    dualopt_rcache_free(rc);
    mem_free(&m);
    return 0;
}

/* -------------------------------------------------------------- stimulus */

enum { KIND_MIXED, KIND_HITS, KIND_TRACE };

#define PEND_MAX 4
#define FILLQ_MAX 4
#define POOL_MAX 96

typedef struct {
    dualopt_rcache_req q;
    uint64_t cyc;
    size_t rec;
} pend_t;

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    dualopt_rcache_cfg c;
    dualopt_rcache_geom g;
    unsigned p_req, p_rsp, p_out, p_fill;
    mem_img m;
    dualopt_rcache *mirror;
    /* the request presented on the port */
    int have;
    dualopt_rcache_req cur;
    size_t cur_rec;
    /* accepted, not yet answered (the pipeline holds at most two) */
    pend_t pend[PEND_MAX];
    unsigned np;
    /* fetches waiting for their fill */
    uint64_t fq[FILLQ_MAX];
    unsigned nf, fdelay;
    int fill_on;
    uint8_t fill_data[DUALOPT_RCACHE_LINE_MAX];
    /* write-backs since the last response */
    dualopt_rcache_wb *wbs;
    size_t nwb, capwb;
    /* mirror's write-backs of the current check */
    dualopt_rcache_wb *mwbs;
    size_t nmwb, capmwb;
    uint64_t pool[POOL_MAX];
    unsigned npool, warm;
    rc_trace tr;
    size_t tnext;
    /* statistics */
    uint64_t acc, rsp, kinds[7], wb_count, fetches, fills, func_bad, data_bad, mask_bad,
        flush_bad, reqs_since;
    uint64_t hit_n, hit_lat_min, hit_lat_max, steady_from, steady_acc, steady_cyc, last_cyc;
    unsigned warm_left;
    char first_bad[160];
} rc_stim;

static void bad(rc_stim *s, uint64_t *ctr, const char *what, uint64_t cyc)
{
    (*ctr)++;
    if (!s->first_bad[0])
        snprintf(s->first_bad, sizeof s->first_bad, "%s (cycle %llu)", what,
                 (unsigned long long)cyc);
}

/* Lines of a few sets (0, 1, the last; the one set of a fully associative
 * cache): more lines than ways, so victims
 * are evicted, plus a line at the top of the address space. The hits
 * stream takes at most `ways` lines per set (no eviction). */
static void make_pool(rc_stim *s)
{
    unsigned sets[3], si, j, per = s->b.kind == KIND_HITS ? s->c.ways : s->c.ways + 3;
    uint64_t lmax = mask64(s->g.ln);
    sets[0] = 0;
    sets[1] = 1;
    sets[2] = s->c.sets - 1;
    s->npool = 0;
    for (si = 0; si < (s->c.sets > 2 ? 3u : s->c.sets); si++)
        for (j = 0; j < per && s->npool < POOL_MAX; j++) {
            uint64_t jj = j;
            if (s->b.kind != KIND_HITS && j == per - 1)
                jj = (lmax - sets[si]) / s->c.sets; /* the top of the space */
            s->pool[s->npool++] = sets[si] + jj * s->c.sets;
        }
}

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    rc_stim *s = p;
    s->c = *(const dualopt_rcache_cfg *)cfg;
    dualopt_rcache_geom_of(&s->c, &s->g);
    s->p_req = s->b.bp.valid;
    s->p_rsp = s->p_out = s->p_fill = s->b.bp.ready;
    s->hit_lat_min = ~0ull;
    if (mem_init(&s->m, s->c.line) != 0 || (s->mirror = dualopt_rcache_new(&s->c)) == NULL)
        return snprintf(err, len, "out of memory"), -1;
    if (s->b.trace && trace_read(a->trace, &s->c, &s->tr, err, len) != 0)
        return cohkit_unit_stim_trace_err(a, err, len);
    make_pool(s);
    s->warm_left = s->npool;
    return 0;
}

static void stim_free(void *p)
{
    rc_stim *s = p;
    if (s) {
        free(s->tr.r);
        free(s->wbs);
        free(s->mwbs);
        dualopt_rcache_free(s->mirror);
        mem_free(&s->m);
        free(s);
    }
}

COHKIT_UNIT_STIM_NEW(rc_stim, 0x7f4a7c15ull)

static void new_request(rc_stim *s)
{
    dualopt_rcache_req *q = &s->cur;
    unsigned r = cohkit_unit_pct(&s->b.rng), b, off;
    uint64_t line;
    memset(q, 0, sizeof *q);
    if (s->b.kind == KIND_HITS) {
        /* first every pool line once (misses), then hits only */
        if (s->warm < s->npool)
            line = s->pool[s->warm++];
        else
            line = s->pool[cohkit_unit_rnd(&s->b.rng) % s->npool];
        q->op = r < 60 ? DUALOPT_RCACHE_RD : DUALOPT_RCACHE_WR;
    } else {
        /* runs of one set now and then (forwarding) */
        line = s->pool[cohkit_unit_rnd(&s->b.rng) % s->npool];
        q->op = r < 50 ? DUALOPT_RCACHE_RD : r < 85 ? DUALOPT_RCACHE_WR : r < 99 ? DUALOPT_RCACHE_AT : DUALOPT_RCACHE_KERNEL;
        if (q->op == DUALOPT_RCACHE_KERNEL && cohkit_unit_pct(&s->b.rng) < 60)
            q->op = DUALOPT_RCACHE_RD;
    }
    q->addr = (line << s->g.lb) | (cohkit_unit_rnd(&s->b.rng) & (s->c.line - 1));
    if (q->op == DUALOPT_RCACHE_WR) {
        unsigned k = cohkit_unit_pct(&s->b.rng);
        if (k < 30) {
            q->mask = mask64(s->c.line);
        } else {
            unsigned sz = 1u << (cohkit_unit_rnd(&s->b.rng) % (s->g.lb + 1));
            if (k > 90)
                sz = 1 + (unsigned)(cohkit_unit_rnd(&s->b.rng) % s->c.line);
            off = (unsigned)(cohkit_unit_rnd(&s->b.rng) % (s->c.line - sz + 1));
            q->mask = mask64(sz) << off;
        }
        if (cohkit_unit_pct(&s->b.rng) < 3)
            q->mask = cohkit_unit_rnd(&s->b.rng) & mask64(s->c.line); /* any byte enables */
        for (b = 0; b < s->c.line; b++)
            q->data[b] = (uint8_t)cohkit_unit_rnd(&s->b.rng);
    }
}

static void put_words(uint64_t *w, const uint8_t *src, unsigned n, unsigned dww)
{
    unsigned i;
    memset(w, 0, dww * sizeof *w);
    for (i = 0; i < n; i++)
        w[i / 8] |= (uint64_t)src[i] << (8 * (i % 8));
}

static void get_words(uint8_t *dst, const uint64_t *w, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++)
        dst[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
}

static void stim_drive(void *p, uint64_t cyc, uint64_t *in)
{
    rc_stim *s = p;
    const dualopt_rcache_geom *g = &s->g;
    int live = (int)(in[0] & 1);
    memset(in + 1, 0, (g->in_words - 1) * sizeof *in);
    if (s->b.kind == KIND_MIXED && (cyc & 511) == 0) {
        static const unsigned pv[] = {100, 80, 50, 20, 100}, pr[] = {100, 70, 30, 100, 50};
        s->p_req = pv[cohkit_unit_rnd(&s->b.rng) % 5];
        s->p_rsp = pr[cohkit_unit_rnd(&s->b.rng) % 5];
        s->p_out = pr[cohkit_unit_rnd(&s->b.rng) % 5];
        s->p_fill = pr[cohkit_unit_rnd(&s->b.rng) % 5];
    }
    if (live && !s->have && cohkit_unit_pct(&s->b.rng) < s->p_req) {
        if (s->b.kind == KIND_TRACE) {
            if (s->tnext < s->tr.n) {
                const rc_rec *r = &s->tr.r[s->tnext];
                unsigned b;
                memset(&s->cur, 0, sizeof s->cur);
                s->cur.op = (dualopt_rcache_op)r->op;
                s->cur.addr = r->addr;
                s->cur.mask = r->mask;
                for (b = 0; b < s->c.line && r->op == DUALOPT_RCACHE_WR; b++)
                    s->cur.data[b] = hbyte(r->addr, s->tnext + 1, b);
                s->cur_rec = s->tnext++;
                s->have = 1;
            }
        } else {
            new_request(s);
            s->have = 1;
        }
    }
    in[g->i_req_valid] = (uint64_t)s->have;
    if (s->have) {
        in[g->i_req_op] = s->cur.op;
        in[g->i_req_addr] = s->cur.addr;
        in[g->i_req_mask] = s->cur.mask;
        put_words(in + g->i_req_data, s->cur.data, s->c.line, g->dww);
    } else if (s->b.kind != KIND_TRACE && cohkit_unit_pct(&s->b.rng) < 50) {
        unsigned i;
        in[g->i_req_op] = cohkit_unit_rnd(&s->b.rng) & 3; /* ignored without valid */
        in[g->i_req_addr] = cohkit_unit_rnd(&s->b.rng) & mask64(s->c.addr_bits);
        in[g->i_req_mask] = cohkit_unit_rnd(&s->b.rng) & mask64(s->c.line);
        for (i = 0; i < g->dww; i++)
            in[g->i_req_data + i] = cohkit_unit_rnd(&s->b.rng) & (s->c.line < 8 ? mask64(s->c.line * 8) : ~0ull);
    }
    in[g->i_rsp_ready] = cohkit_unit_pct(&s->b.rng) < s->p_rsp;
    in[g->i_out_ready] = cohkit_unit_pct(&s->b.rng) < s->p_out;
    /* the RDMA engine answers a fetch after a few cycles */
    if (!s->fill_on && s->nf > 0) {
        if (s->fdelay > 0) {
            s->fdelay--;
        } else if (cohkit_unit_pct(&s->b.rng) < s->p_fill) {
            size_t i = mem_find(&s->m, s->fq[0]);
            memcpy(s->fill_data, s->m.home + i * s->c.line, s->c.line);
            s->fill_on = 1;
        }
    }
    in[g->i_fill_valid] = (uint64_t)s->fill_on;
    if (s->fill_on)
        put_words(in + g->i_fill_data, s->fill_data, s->c.line, g->dww);
    else if (s->b.kind != KIND_TRACE && cohkit_unit_pct(&s->b.rng) < 30) {
        unsigned i;
        for (i = 0; i < g->dww; i++)
            in[g->i_fill_data + i] = cohkit_unit_rnd(&s->b.rng) & (s->c.line < 8 ? mask64(s->c.line * 8) : ~0ull);
    }
}

static void push_wb(dualopt_rcache_wb **a, size_t *n, size_t *cap, const dualopt_rcache_wb *w)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        dualopt_rcache_wb *x = realloc(*a, nc * sizeof *x);
        if (x == NULL)
            abort();
        *a = x;
        *cap = nc;
    }
    (*a)[(*n)++] = *w;
}

static void mirror_fetch(void *ctx, uint64_t line, uint8_t *buf)
{
    rc_stim *s = ctx;
    size_t i = mem_find(&s->m, line);
    memcpy(buf, s->m.home + i * s->c.line, s->c.line);
}

static void mirror_wb(void *ctx, const dualopt_rcache_wb *wb)
{
    rc_stim *s = ctx;
    push_wb(&s->mwbs, &s->nmwb, &s->capmwb, wb);
}

static int wb_equal(const rc_stim *s, const dualopt_rcache_wb *a, const dualopt_rcache_wb *b)
{
    return a->line == b->line && a->mask == b->mask && memcmp(a->data, b->data, s->c.line) == 0;
}

static void print_rsp(rc_stim *s, unsigned kind, uint64_t line, unsigned wbs, unsigned inv)
{
    size_t i;
    FILE *f = s->b.out;
    const dualopt_rcache_cfg *c = &s->c;
    (void)wbs;
    if (kind == DUALOPT_RCACHE_FWD || kind == DUALOPT_RCACHE_FLUSH) {
        for (i = 0; i < s->nwb; i++)
            print_wb(f, c, s->wbs[i].line, s->wbs[i].mask);
        if (kind == DUALOPT_RCACHE_FLUSH) {
            fprintf(f, "FLUSH %u %u\n", wbs, inv);
            return;
        }
        if (inv) {
            print_line(f, "INVL", line, c);
            fputc('\n', f);
        }
        print_line(f, "FWD", line, c);
        fputc('\n', f);
        return;
    }
    {
        static const char *const kn[] = {"HIT", "MISS", "WHIT", "WMISS", "WMISS"};
        print_line(f, kind < 5 ? kn[kind] : "?", line, c);
        fputs(kind == DUALOPT_RCACHE_WMISS_FULL ? " FULL\n" : kind == DUALOPT_RCACHE_WMISS_FETCH ? " FETCH\n" : "\n", f);
        for (i = 0; i < s->nwb; i++)
            print_wb(f, c, s->wbs[i].line, s->wbs[i].mask);
    }
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    rc_stim *s = p;
    const dualopt_rcache_geom *g = &s->g;
    unsigned n = s->c.line;
    s->last_cyc = cyc;
    if (s->steady_from && cyc >= s->steady_from) {
        s->steady_cyc++;
        if ((in[g->i_req_valid] & 1) && (out[g->o_req_ready] & 1))
            s->steady_acc++;
    }
    /* fetches and write-backs towards the RDMA engine */
    if ((out[g->o_out_valid] & 1) && (in[g->i_out_ready] & 1)) {
        uint64_t line = out[g->o_out_line];
        size_t i = mem_find(&s->m, line);
        if (out[g->o_out_kind] & 1) {
            dualopt_rcache_wb w;
            unsigned b;
            memset(&w, 0, sizeof w);
            w.line = line;
            w.mask = out[g->o_out_mask];
            get_words(w.data, out + g->o_out_data, n);
            if (w.mask != s->m.wr[i] || w.mask == 0)
                bad(s, &s->mask_bad, "write-back mask is not the bytes written since the last one", cyc);
            for (b = 0; b < n; b++)
                if ((w.mask >> b) & 1) {
                    s->m.home[i * n + b] = w.data[b];
                    if (w.data[b] != s->m.ref[i * n + b])
                        bad(s, &s->data_bad, "write-back byte differs from the last write", cyc);
                }
            s->m.wr[i] = 0;
            push_wb(&s->wbs, &s->nwb, &s->capwb, &w);
            s->wb_count++;
        } else {
            if (s->nf < FILLQ_MAX)
                s->fq[s->nf++] = line;
            else
                bad(s, &s->func_bad, "more than one fetch in flight", cyc);
            s->fdelay = (unsigned)(cohkit_unit_rnd(&s->b.rng) % (s->b.kind == KIND_HITS ? 2 : 6));
            s->fetches++;
        }
    }
    if ((in[g->i_fill_valid] & 1) && (out[g->o_fill_ready] & 1)) {
        memmove(s->fq, s->fq + 1, (FILLQ_MAX - 1) * sizeof s->fq[0]);
        s->nf--;
        s->fill_on = 0;
        s->fills++;
    }
    /* responses: against the mirror of the functional core */
    if ((out[g->o_rsp_valid] & 1) && (in[g->i_rsp_ready] & 1)) {
        unsigned kind = (unsigned)out[g->o_rsp_kind], wbs = (unsigned)out[g->o_rsp_wbs];
        unsigned inv = (unsigned)out[g->o_rsp_inv];
        uint64_t line = out[g->o_rsp_line];
        pend_t *e = &s->pend[0];
        size_t k;
        s->rsp++;
        if (kind < 7)
            s->kinds[kind]++;
        if (s->np == 0) {
            bad(s, &s->func_bad, "response with no request", cyc);
        } else {
            s->nmwb = 0;
            if (e->q.op == DUALOPT_RCACHE_KERNEL) {
                unsigned nw, ni;
                dualopt_rcache_flush(s->mirror, mirror_wb, s, &nw, &ni);
                if (kind != DUALOPT_RCACHE_FLUSH || wbs != nw || inv != ni)
                    bad(s, &s->func_bad, "flush differs from dualopt_rcache_flush()", cyc);
                for (k = 0; k < s->m.cap; k++)
                    if (s->m.key[k] && (s->m.wr[k] ||
                                        memcmp(s->m.home + k * n, s->m.ref + k * n, n) != 0))
                        bad(s, &s->flush_bad, "a dirty byte is not home after the flush", cyc);
            } else {
                dualopt_rcache_res x;
                uint8_t rd[DUALOPT_RCACHE_LINE_MAX];
                dualopt_rcache_access(s->mirror, &e->q, mirror_fetch, s, &x);
                if (x.nwb)
                    push_wb(&s->mwbs, &s->nmwb, &s->capmwb, &x.wb);
                if (kind != x.kind || line != x.line || wbs != x.nwb || inv != x.inv)
                    bad(s, &s->func_bad, "response differs from dualopt_rcache_access()", cyc);
                if (kind == DUALOPT_RCACHE_HIT || kind == DUALOPT_RCACHE_MISS) {
                    size_t i = mem_find(&s->m, line);
                    get_words(rd, out + g->o_rsp_data, n);
                    if (memcmp(rd, s->m.ref + i * n, n) != 0 || memcmp(rd, x.rdata, n) != 0)
                        bad(s, &s->data_bad, "read data differs from the last write", cyc);
                }
                if (kind == DUALOPT_RCACHE_FWD) {
                    size_t i = mem_find(&s->m, line);
                    if (s->m.wr[i] || memcmp(s->m.home + i * n, s->m.ref + i * n, n) != 0)
                        bad(s, &s->flush_bad, "atomic forwarded before the line's bytes were home", cyc);
                }
                if ((kind == DUALOPT_RCACHE_HIT || kind == DUALOPT_RCACHE_WHIT) && s->b.kind != KIND_TRACE) {
                    uint64_t lat = cyc - e->cyc;
                    s->hit_n++;
                    if (lat < s->hit_lat_min)
                        s->hit_lat_min = lat;
                    if (lat > s->hit_lat_max)
                        s->hit_lat_max = lat;
                }
            }
            if (s->nmwb != s->nwb)
                bad(s, &s->func_bad, "write-backs differ from the functional core", cyc);
            else
                for (k = 0; k < s->nwb; k++)
                    if (!wb_equal(s, &s->wbs[k], &s->mwbs[k]))
                        bad(s, &s->func_bad, "write-back differs from the functional core", cyc);
            /* the reference image takes a write when it completes (in order) */
            if (e->q.op == DUALOPT_RCACHE_WR) {
                size_t i = mem_find(&s->m, (e->q.addr & mask64(s->c.addr_bits)) >> g->lb);
                unsigned b;
                for (b = 0; b < n; b++)
                    if ((e->q.mask >> b) & 1)
                        s->m.ref[i * n + b] = e->q.data[b];
                s->m.wr[i] |= e->q.mask & mask64(n);
            }
            if (s->b.out)
                print_rsp(s, kind, line, wbs, inv);
            s->nwb = 0;
            memmove(s->pend, s->pend + 1, (PEND_MAX - 1) * sizeof s->pend[0]);
            s->np--;
            if (s->b.kind == KIND_HITS && s->warm_left > 0 && --s->warm_left == 0)
                s->steady_from = cyc + 1;
        }
    }
    if ((in[g->i_req_valid] & 1) && (out[g->o_req_ready] & 1)) {
        pend_t *e;
        s->acc++;
        if (s->np == PEND_MAX) {
            bad(s, &s->func_bad, "more requests in flight than the pipeline holds", cyc);
        } else {
            e = &s->pend[s->np++];
            e->q = s->cur;
            e->cyc = cyc;
            e->rec = s->cur_rec;
        }
        s->have = 0;
    }
}

static int stim_done(const void *p, const void *tmp)
{
    const rc_stim *s = p;
    const dualopt_rcache_tm *tm = tmp;
    return s->tnext == s->tr.n && !s->have && s->np == 0 && !tm->rsp_valid && !tm->s1_valid &&
           tm->state == DUALOPT_RCACHE_S_LOOK;
}

static uint64_t stim_limit(const void *p)
{
    const rc_stim *s = p;
    return 1000 + (uint64_t)s->c.sets * 4 + (uint64_t)(s->tr.n + 1) * 80 +
           (uint64_t)s->tr.kernels * ((uint64_t)s->c.sets * 8 + (uint64_t)s->c.sets * s->c.ways * 8);
}

static void stim_summary(const void *p, const void *tm, uint64_t cycles, FILE *f, const char *c)
{
    const rc_stim *s = p;
    (void)tm;
    fprintf(f,
            "%scycles %llu  requests %llu  responses %llu: hit %llu miss %llu whit %llu "
            "wmiss-full %llu wmiss-fetch %llu fwd %llu flush %llu\n",
            c, (unsigned long long)cycles, (unsigned long long)s->acc, (unsigned long long)s->rsp,
            (unsigned long long)s->kinds[0], (unsigned long long)s->kinds[1],
            (unsigned long long)s->kinds[2], (unsigned long long)s->kinds[3],
            (unsigned long long)s->kinds[4], (unsigned long long)s->kinds[5],
            (unsigned long long)s->kinds[6]);
    fprintf(f, "%sfetches %llu  fills %llu  write-backs %llu\n", c, (unsigned long long)s->fetches,
            (unsigned long long)s->fills, (unsigned long long)s->wb_count);
    if (s->hit_n)
        fprintf(f, "%shit latency min %llu max %llu over %llu hits\n", c,
                (unsigned long long)s->hit_lat_min, (unsigned long long)s->hit_lat_max,
                (unsigned long long)s->hit_n);
    if (s->b.kind == KIND_HITS)
        fprintf(f, "%ssteady hits: %llu requests accepted in %llu cycles\n", c,
                (unsigned long long)s->steady_acc, (unsigned long long)s->steady_cyc);
    fprintf(f,
            "%sfunctional check: %llu responses against dualopt_rcache_access(), %llu differ; data %llu "
            "wrong; write-back masks %llu wrong; lines not home after flush/atomic %llu%s%s\n",
            c, (unsigned long long)s->rsp, (unsigned long long)s->func_bad,
            (unsigned long long)s->data_bad, (unsigned long long)s->mask_bad,
            (unsigned long long)s->flush_bad, s->first_bad[0] ? "; first: " : "", s->first_bad);
}

const cohkit_unit_desc dualopt_rcache_unit = {
    .name = "dualopt-rcache",
    .family = "dualopt",
    .title = "DualOpt RDMA cache: remote-only write-back cache with a data array, LRU, "
             "per-byte dirty masks, kernel-boundary flush (Belayneh et al., 4.2, 4.4, Table 1)",
    .model_ref = "cmodel/dualopt/dualopt_rcache.c dualopt_rcache_eval() / dualopt_rcache_step() (timing), "
                 "dualopt_rcache_access() / dualopt_rcache_flush() (function)",
    .cfg_size = sizeof(dualopt_rcache_cfg),
    .presets = presets,
    .committed = committed,
    .module_prefix = "dualopt_rcache",
    .opts = &dualopt_rcache_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "RD <addr>; WR <addr> <size> (within one line); AT <addr>; KERNEL; hex\n"
                  "addresses, '#' comments. Output per record: HIT|MISS|WHIT <line> or\n"
                  "WMISS <line> FULL|FETCH, then WB <victim-line> <dirty-byte-mask> if a dirty\n"
                  "line was evicted; AT: [WB ...] [INVL <line>] FWD <line>; KERNEL: WB <line>\n"
                  "<mask> per dirty line in (set, way) order, FLUSH <written-back> <invalidated>",
    COHKIT_UNIT_STIM_FIELDS,
};
