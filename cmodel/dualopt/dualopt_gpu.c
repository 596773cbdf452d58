/*
 * DualOpt: the GPU in every mode, a transaction-level system of the units'
 * functional cores (see cmodel/dualopt/dualopt_gpu.h). Nothing of a unit is
 * re-implemented here: the glue is the L1 tag array that gives the engine its
 * hit input, the home memory image, the per-request bookkeeping between the
 * MSHR and the coalescer (D20: a fine-grained request's ID is its MSHR
 * entry) and the traffic accounting.
 */
#include <stdlib.h>
#include <string.h>

#include "dualopt_bgu.h"
#include "dualopt_coal.h"
#include "dualopt_de.h"
#include "dualopt_decoal.h"
#include "dualopt_gpu.h"
#include "dualopt_mshr.h"
#include "dualopt_rcache.h"
#include "dualopt_scbu.h"

const char *const dualopt_gpu_kind_names[] = {"local", "sparse", "reuse", NULL};

int dualopt_gpu_kind_of(const char *name)
{
    int i;
    for (i = 0; dualopt_gpu_kind_names[i]; i++)
        if (strcmp(name, dualopt_gpu_kind_names[i]) == 0)
            return i;
    return -1;
}

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#define LINES_PER_REGION (DUALOPT_E2E_REGION / DUALOPT_E2E_LINE)

long dualopt_gpu_mem_off(unsigned gpus, uint64_t addr)
{
    uint64_t g = addr >> DUALOPT_E2E_SPAN_BITS, off = addr & ((1ull << DUALOPT_E2E_SPAN_BITS) - 1);
    if (g >= gpus || off >= DUALOPT_E2E_REGION)
        return -1;
    return (long)(g * DUALOPT_E2E_REGION + off);
}

uint8_t dualopt_gpu_store_byte(const dualopt_gpu_kernel *k, size_t op, unsigned lane, unsigned b)
{
    uint64_t s = k->seed ^ (op * 0x10001ull) ^ ((uint64_t)lane << 40) ^ ((uint64_t)b << 56);
    return (uint8_t)mix(&s);
}

/* A line of home h that GPU g may touch in kernel kk: (line + kk) % gpus == g. */
static uint64_t owned_line(unsigned gpus, unsigned g, unsigned kk, unsigned h, uint64_t *rng)
{
    uint64_t base = (uint64_t)h << (DUALOPT_E2E_SPAN_BITS - 6), lo = mix(rng) % LINES_PER_REGION;
    uint64_t fix = (g + 2 * gpus - (base + lo + kk) % gpus) % gpus;
    lo += fix;
    if (lo >= LINES_PER_REGION)
        lo -= gpus;
    return base + lo;
}

static unsigned other_gpu(unsigned gpus, unsigned g, uint64_t *rng)
{
    return (g + 1 + (unsigned)(mix(rng) % (gpus - 1))) % gpus;
}

static int push_op(dualopt_gpu_kernel *k, const dualopt_gpu_op *op)
{
    if (k->n == k->cap) {
        size_t c = k->cap ? 2 * k->cap : 1024;
        dualopt_gpu_op *v = realloc(k->op, c * sizeof *v);
        if (!v)
            return -1;
        k->op = v;
        k->cap = c;
    }
    k->op[k->n++] = *op;
    return 0;
}

int dualopt_gpu_kernel_gen(dualopt_gpu_kernel *k, dualopt_gpu_kind kind, unsigned gpus, unsigned kernels, uint64_t seed,
                   unsigned ops, char *err, size_t len)
{
    uint64_t rng = seed * 0x2545f4914f6cdd1dull + 17;
    size_t i;
    unsigned kk, g, n;
    memset(k, 0, sizeof *k);
    if (gpus < 2 || gpus > DUALOPT_E2E_GPUS_MAX || kernels < 1 || kernels > 8 || ops < 1 ||
        (unsigned)kind >= DUALOPT_GPU_K_N) {
        snprintf(err, len, "bad kernel parameters (gpus %u, kernels %u, ops %u)", gpus, kernels,
                 ops);
        return -1;
    }
    k->gpus = gpus;
    k->kernels = kernels;
    k->seed = seed;
    k->mem = malloc((size_t)gpus * DUALOPT_E2E_REGION);
    if (!k->mem) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    for (i = 0; i < (size_t)gpus * DUALOPT_E2E_REGION; i++)
        k->mem[i] = (uint8_t)mix(&rng);
    for (kk = 0; kk < kernels; kk++)
        for (g = 0; g < gpus; g++) {
            uint64_t ws[8]; /* reuse: the working set of remote lines */
            unsigned w;
            for (w = 0; w < 8; w++)
                ws[w] = owned_line(gpus, g, kk, other_gpu(gpus, g, &rng), &rng);
            for (n = 0; n < ops; n++) {
                dualopt_gpu_op op;
                unsigned lane, q;
                uint64_t r = mix(&rng);
                memset(&op, 0, sizeof op);
                op.gpu = g;
                op.kernel = kk;
                op.size = 4;
                if (kind == DUALOPT_GPU_K_SPARSE) {
                    unsigned lanes = 1 + (unsigned)(r % 3);
                    op.store = (r >> 8) % 5 == 0;
                    for (q = 0; q < lanes; q++) {
                        unsigned h = mix(&rng) % 10 ? other_gpu(gpus, g, &rng) : g;
                        uint64_t ln = owned_line(gpus, g, kk, h, &rng);
                        lane = (unsigned)(mix(&rng) % DUALOPT_E2E_LANES);
                        op.active |= 1ull << lane;
                        op.addr[lane] = (ln << 6) + 4 * (mix(&rng) % DUALOPT_E2E_WORDS);
                    }
                } else {
                    /* four lines, 16 lanes of 4 bytes each: whole lines */
                    int remote = kind == DUALOPT_GPU_K_LOCAL ? (r >> 4) % 100 == 0 : (r >> 4) % 10 != 0;
                    op.store = (r >> 12) % 4 == 0;
                    op.active = ~0ull;
                    if (op.store) /* partial stores: lanes dropped now and then */
                        op.active &= mix(&rng) | mix(&rng);
                    for (q = 0; q < 4; q++) {
                        uint64_t ln;
                        if (kind == DUALOPT_GPU_K_REUSE && remote)
                            ln = ws[mix(&rng) % 8];
                        else
                            ln = owned_line(gpus, g, kk, remote ? other_gpu(gpus, g, &rng) : g,
                                            &rng);
                        for (lane = 16 * q; lane < 16 * q + 16; lane++)
                            op.addr[lane] = (ln << 6) + 4 * (lane % 16);
                    }
                }
                if (op.active == 0)
                    op.active = 1;
                if (push_op(k, &op) != 0) {
                    snprintf(err, len, "out of memory");
                    dualopt_gpu_kernel_free(k);
                    return -1;
                }
            }
        }
    return 0;
}

void dualopt_gpu_kernel_free(dualopt_gpu_kernel *k)
{
    free(k->mem);
    free(k->op);
    memset(k, 0, sizeof *k);
}

void dualopt_gpu_opts_default(dualopt_gpu_opts *o)
{
    static const dualopt_gpu_opts d = {.force = DUALOPT_GPU_AUTO, .de_preset = "kernel",
                                       .per_cycle = 4, .l1_lines = 64};
    *o = d;
}

void dualopt_gpu_result_free(dualopt_gpu_result *r)
{
    free(r->data);
    free(r->writes);
    free(r->image);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------ system -- */

#define TGT_MAX 4096

typedef struct {
    size_t op;
    uint64_t lanes, line;
} target;

typedef struct {
    unsigned busy, got;
    uint64_t line, mask;
    uint8_t buf[DUALOPT_E2E_LINE];
} pend;

typedef struct sys sys;

typedef struct {
    sys *s;
    unsigned g;
    dualopt_bgu_cfg bc;
    dualopt_scbu sc;
    dualopt_de_core de;
    dualopt_mshr *m_mask, *m_line;
    dualopt_rcache *rc;
    dualopt_coal_core *coal;          /* as a home: responses to the requesters */
    uint64_t *l1;             /* L1 tags + 1, direct mapped              */
    pend *pe;                 /* per mask-MSHR entry                     */
    target *tg;               /* requester tags                          */
    unsigned tg_next;
    size_t cur, end;          /* ops of the current kernel              */
    dualopt_bgu_req rq[2 * DUALOPT_E2E_LANES];
    unsigned nrq, irq, have;
    uint64_t kreq;            /* requests of this kernel                */
    dualopt_gpu_rc_log *log;          /* the RDMA cache stream, or NULL          */
    dualopt_gpu_de_log *dlog;         /* the engine's stream, or NULL            */
    dualopt_gpu_rc_ev *ev;            /* its event being recorded                */
    int in_flush;
} gpu_t;

struct sys {
    const dualopt_gpu_opts *o;
    const dualopt_gpu_kernel *k;
    dualopt_gpu_stats *st;
    dualopt_gpu_result *res;
    uint8_t *mem;
    dualopt_codec_cfg cc;
    gpu_t G[DUALOPT_E2E_GPUS_MAX];
    uint64_t wb_count;
    unsigned pending;         /* fine-grained entries in flight          */
    char *err;
    size_t elen;
    int failed;
};

static void account(sys *s, unsigned bytes)
{
    s->st->bytes += bytes;
    s->st->flits += (bytes + DUALOPT_E2E_FLIT - 1) / DUALOPT_E2E_FLIT;
}

void dualopt_gpu_deliver(dualopt_gpu_result *r, const dualopt_gpu_kernel *k, size_t op,
                         uint64_t lanes, uint64_t line, uint64_t mask, const uint8_t *d)
{
    const dualopt_gpu_op *o = &k->op[op];
    unsigned lane, b;
    for (lane = 0; lane < DUALOPT_E2E_LANES; lane++) {
        if (!((lanes >> lane) & 1))
            continue;
        for (b = 0; b < o->size; b++) {
            uint64_t a = o->addr[lane] + b;
            unsigned off = (unsigned)(a % DUALOPT_E2E_LINE);
            if (a / DUALOPT_E2E_LINE != line || !((mask >> (off / DUALOPT_E2E_GRAN)) & 1))
                continue;
            r->data[op][lane][b] = d[off];
            if (r->writes[op][lane][b] < 255)
                r->writes[op][lane][b]++;
        }
    }
}

static void deliver(sys *s, size_t op, uint64_t lanes, uint64_t line, const uint8_t *buf,
                    uint64_t wmask)
{
    dualopt_gpu_deliver(s->res, s->k, op, lanes, line, wmask, buf);
}

static void mem_line(sys *s, uint64_t line, uint8_t *buf)
{
    long off = dualopt_gpu_mem_off(s->k->gpus, line << 6);
    if (off < 0)
        memset(buf, 0, DUALOPT_E2E_LINE);
    else
        memcpy(buf, s->mem + off, DUALOPT_E2E_LINE);
}

static void mem_write(sys *s, uint64_t line, uint64_t bmask, const uint8_t *buf)
{
    long off = dualopt_gpu_mem_off(s->k->gpus, line << 6);
    unsigned b;
    if (off < 0)
        return;
    for (b = 0; b < DUALOPT_E2E_LINE; b++)
        if ((bmask >> b) & 1)
            s->mem[off + b] = buf[b];
}

void dualopt_gpu_rc_log_free(dualopt_gpu_rc_log *l)
{
    free(l->ev);
    free(l->wb);
    memset(l, 0, sizeof *l);
}

static dualopt_gpu_rc_ev *log_ev(gpu_t *G)
{
    dualopt_gpu_rc_log *l = G->log;
    if (!l)
        return NULL;
    if (l->n == l->cap) {
        size_t c = l->cap ? 2 * l->cap : 256;
        dualopt_gpu_rc_ev *v = realloc(l->ev, c * sizeof *v);
        if (!v) {
            G->s->failed = 1;
            snprintf(G->s->err, G->s->elen, "out of memory");
            return NULL;
        }
        l->ev = v;
        l->cap = c;
    }
    memset(&l->ev[l->n], 0, sizeof l->ev[0]);
    l->ev[l->n].wb0 = l->nw;
    return &l->ev[l->n++];
}

static void rc_fetch(void *ctx, uint64_t line, uint8_t *buf)
{
    gpu_t *G = ctx;
    G->s->st->req_msgs++;
    G->s->st->rd_line_rsp++;
    account(G->s, DUALOPT_E2E_REQ_BYTES);
    account(G->s, DUALOPT_E2E_LINE_RSP_BYTES);
    mem_line(G->s, line, buf);
    if (G->ev) {
        G->ev->fetched = 1;
        memcpy(G->ev->fill, buf, DUALOPT_E2E_LINE);
    }
}

static void rc_wb(void *ctx, const dualopt_rcache_wb *wb)
{
    gpu_t *G = ctx;
    sys *s = G->s;
    s->st->wr_msgs++;
    account(s, DUALOPT_GPU_WR_BYTES);
    s->wb_count++;
    if (G->in_flush && G->log && G->ev) {
        dualopt_gpu_rc_log *l = G->log;
        if (l->nw == l->capw) {
            size_t c = l->capw ? 2 * l->capw : 256;
            dualopt_rcache_wb *v = realloc(l->wb, c * sizeof *v);
            if (!v) {
                s->failed = 1;
                snprintf(s->err, s->elen, "out of memory");
                return;
            }
            l->wb = v;
            l->capw = c;
        }
        l->wb[l->nw++] = *wb;
        G->ev->nwb++;
    }
    if (s->o->fault == DUALOPT_GPU_FAULT_DROP_WB && s->wb_count == s->o->fault_n) {
        s->st->faults++;
        return;
    }
    mem_write(s, wb->line, wb->mask, wb->data);
}

void dualopt_gpu_de_log_free(dualopt_gpu_de_log *l)
{
    free(l->ev);
    free(l->dec);
    free(l->mode);
    memset(l, 0, sizeof *l);
}

static void de_log(gpu_t *G, unsigned kernel, unsigned kind, unsigned hit, uint64_t mask,
                   int decided)
{
    dualopt_gpu_de_log *l = G->dlog;
    if (!l)
        return;
    if (l->n == l->cap) {
        size_t c = l->cap ? 2 * l->cap : 1024;
        dualopt_gpu_de_ev *v = realloc(l->ev, c * sizeof *v);
        if (!v)
            goto oom;
        l->ev = v;
        l->cap = c;
    }
    l->ev[l->n].kernel = (uint8_t)kernel;
    l->ev[l->n].kind = (uint8_t)kind;
    l->ev[l->n].hit = (uint8_t)hit;
    l->ev[l->n].mask = mask;
    l->n++;
    if (decided) {
        if (l->nd == l->capd) {
            size_t c = l->capd ? 2 * l->capd : 16;
            dualopt_de_counts *v = realloc(l->dec, c * sizeof *v);
            unsigned *m;
            if (!v)
                goto oom;
            l->dec = v;
            m = realloc(l->mode, c * sizeof *m);
            if (!m)
                goto oom;
            l->mode = m;
            l->capd = c;
        }
        l->dec[l->nd] = G->de.dec;
        l->mode[l->nd] = G->de.mode;
        l->nd++;
    }
    return;
oom:
    G->s->failed = 1;
    snprintf(G->s->err, G->s->elen, "out of memory");
}

static dualopt_de_mode mode_of(const gpu_t *G)
{
    switch (G->s->o->force) {
    case DUALOPT_GPU_FORCE_NONE: return DUALOPT_DE_NONE;
    case DUALOPT_GPU_FORCE_COALESCE: return DUALOPT_DE_COALESCE;
    case DUALOPT_GPU_FORCE_CACHE: return DUALOPT_DE_CACHE;
    default: return G->de.mode;
    }
}

/* The store's bytes of one line: byte mask and the line image. */
static uint64_t store_line(sys *s, size_t op, uint64_t lanes, uint64_t line, uint8_t *buf)
{
    const dualopt_gpu_op *o = &s->k->op[op];
    uint64_t bm = 0;
    unsigned lane, b;
    memset(buf, 0, DUALOPT_E2E_LINE);
    for (lane = 0; lane < DUALOPT_E2E_LANES; lane++) {
        if (!((lanes >> lane) & 1))
            continue;
        for (b = 0; b < o->size; b++) {
            uint64_t a = o->addr[lane] + b;
            if ((a >> 6) != line)
                continue;
            buf[a & 63] = dualopt_gpu_store_byte(s->k, op, lane, b);
            bm |= 1ull << (a & 63);
        }
    }
    return bm;
}

static unsigned new_target(gpu_t *G, size_t op, const dualopt_bgu_req *r)
{
    unsigned t = G->tg_next;
    G->tg_next = (G->tg_next + 1) % TGT_MAX;
    G->tg[t].op = op;
    G->tg[t].lanes = r->lanes;
    G->tg[t].line = r->line;
    return t;
}

/* One request at the L1s. 0 consumed, 1 stalled (retry next cycle). */
static int request(gpu_t *G, size_t op, const dualopt_bgu_req *r)
{
    sys *s = G->s;
    const dualopt_gpu_op *o = &s->k->op[op];
    dualopt_de_mode mode = mode_of(G);
    uint64_t addr = r->line << 6;
    dualopt_scbu_res sc;
    unsigned hit, slot;
    uint8_t buf[DUALOPT_E2E_LINE];
    if (o->store) { /* a store waits for the fine-grained reads of its line in flight */
        unsigned e;
        for (e = 0; e < G->m_mask->cfg.entries; e++)
            if (G->pe[e].busy && G->pe[e].line == r->line)
                return 1;
    }
    sc = dualopt_scbu_access(&G->sc, o->store ? DUALOPT_SCBU_WR : DUALOPT_SCBU_RD, addr);
    if (!sc.local && !o->store && sc.bypass) {
        dualopt_mshr_result mr;
        if (dualopt_mshr_req(G->m_mask, r->line, r->mask, new_target(G, op, r), &mr) != 0) {
            snprintf(s->err, s->elen, "out of memory");
            s->failed = 1;
            return 0;
        }
        if (mr.kind == DUALOPT_MSHR_STALL_FULL || mr.kind == DUALOPT_MSHR_STALL_TGT) {
            s->st->mshr_stalls++;
            G->tg_next = (G->tg_next + TGT_MAX - 1) % TGT_MAX;
            return 1;
        }
        if (mr.kind == DUALOPT_MSHR_HIT) {
            s->st->mshr_hits++;
        } else {
            dualopt_codec_rsp cr;
            unsigned h = (unsigned)(addr >> DUALOPT_E2E_SPAN_BITS), w, k = 0;
            gpu_t *H = &s->G[h];
            pend *p = &G->pe[mr.entry];
            s->st->mshr_misses++;
            s->st->bypassed++;
            s->st->req_msgs++;
            account(s, DUALOPT_E2E_REQ_BYTES);
            p->busy = 1;
            p->got = 0;
            p->line = r->line;
            p->mask = mr.mask;
            memset(p->buf, 0, sizeof p->buf);
            /* the home reads the line and selects the masked words (D18) */
            mem_line(s, r->line, buf);
            memset(&cr, 0, sizeof cr);
            cr.cycle = H->coal->now;
            cr.dst = (G->g + s->k->gpus - h) % s->k->gpus;
            cr.id = (uint16_t)mr.entry;
            cr.mask = mr.mask;
            for (w = 0; w < DUALOPT_E2E_WORDS; w++)
                if ((mr.mask >> w) & 1) {
                    uint32_t v;
                    memcpy(&v, buf + 4 * w, 4);
                    cr.w[k++][0] = v;
                }
            if (dualopt_coal_push(H->coal, &cr) != 0) {
                snprintf(s->err, s->elen, "out of memory");
                s->failed = 1;
            }
            s->pending++;
        }
    } else if (!sc.local && mode == DUALOPT_DE_CACHE) {
        dualopt_rcache_req q;
        dualopt_rcache_res rr;
        memset(&q, 0, sizeof q);
        q.addr = addr;
        if (o->store) {
            q.op = DUALOPT_RCACHE_WR;
            q.mask = store_line(s, op, r->lanes, r->line, q.data);
        } else {
            q.op = DUALOPT_RCACHE_RD;
        }
        G->ev = log_ev(G);
        if (G->ev) {
            G->ev->op = q.op;
            G->ev->addr = q.addr;
            G->ev->mask = q.mask;
            memcpy(G->ev->data, q.data, DUALOPT_E2E_LINE);
        }
        dualopt_rcache_access(G->rc, &q, rc_fetch, G, &rr);
        if (G->ev)
            G->ev->res = rr;
        G->ev = NULL;
        if (rr.nwb)
            rc_wb(G, &rr.wb);
        if (!o->store)
            deliver(s, op, r->lanes, r->line, rr.rdata, ~0ull);
    } else if (o->store) {
        uint64_t bm = store_line(s, op, r->lanes, r->line, buf);
        if (!sc.local) {
            s->st->wr_msgs++;
            account(s, DUALOPT_GPU_WR_BYTES);
        }
        mem_write(s, r->line, bm, buf);
    } else {
        dualopt_mshr_result mr;
        uint64_t fl, fm;
        const uint32_t *tags;
        unsigned nt;
        if (!sc.local) { /* the baseline: a line request merged in the line MSHR */
            if (dualopt_mshr_req(G->m_line, r->line, r->mask, 0, &mr) != 0 ||
                mr.kind != DUALOPT_MSHR_MISS ||
                dualopt_mshr_fill(G->m_line, mr.entry, &fl, &fm, &tags, &nt) != 0) {
                snprintf(s->err, s->elen, "line MSHR: unexpected outcome");
                s->failed = 1;
                return 0;
            }
            s->st->mshr_misses++;
            s->st->req_msgs++;
            s->st->rd_line_rsp++;
            account(s, DUALOPT_E2E_REQ_BYTES);
            account(s, DUALOPT_E2E_LINE_RSP_BYTES);
        }
        mem_line(s, r->line, buf);
        deliver(s, op, r->lanes, r->line, buf, ~0ull);
    }
    /* the L1 tag array (hit input of the engine), then the engine */
    slot = (unsigned)(r->line % s->o->l1_lines);
    hit = G->l1[slot] == r->line + 1;
    G->l1[slot] = r->line + 1;
    s->st->requests++;
    if (sc.local)
        s->st->local++;
    else
        s->st->remote++;
    G->kreq++;
    if (s->o->force == DUALOPT_GPU_AUTO) {
        unsigned kind = (sc.local ? 0 : 2) | (o->store ? 1 : 0);
        int dec = dualopt_de_access(&G->de, (dualopt_de_kind)kind, hit, r->mask);
        if (dec)
            s->st->decided_at[G->g][o->kernel] = G->kreq;
        de_log(G, 0, kind, hit, r->mask, dec);
    }
    dualopt_scbu_set_mode(&G->sc, mode_of(G) == DUALOPT_DE_COALESCE);
    return 0;
}

static void on_packet(void *ctx, const dualopt_codec_pkt *p)
{
    gpu_t *H = ctx;
    sys *s = H->s;
    dualopt_codec_pkt q;
    char why[128];
    unsigned j;
    s->st->packets++;
    account(s, p->len);
    if (dualopt_decoal_parse(&s->cc, p->img, p->len, &q, why, sizeof why) != 0 || q.reg) {
        snprintf(s->err, s->elen, "de-coalescer: %s", why);
        s->failed = 1;
        return;
    }
    for (j = 0; j < q.n; j++) {
        unsigned rq = (p->dst + H->g) % s->k->gpus, id = q.s[j].id, w, k = 0;
        gpu_t *G = &s->G[rq];
        pend *pe;
        uint32_t v = (uint32_t)q.s[j].d[0];
        if (id >= G->m_mask->cfg.entries || !G->pe[id].busy) {
            snprintf(s->err, s->elen, "slot for no entry (gpu %u id %u)", rq, id);
            s->failed = 1;
            return;
        }
        pe = &G->pe[id];
        s->st->slots++;
        for (w = 0; w < DUALOPT_E2E_WORDS; w++)
            if ((pe->mask >> w) & 1) {
                if (k++ == pe->got) {
                    memcpy(pe->buf + 4 * w, &v, 4);
                    break;
                }
            }
        if (++pe->got == (unsigned)__builtin_popcountll(pe->mask)) {
            uint64_t fl, fm;
            const uint32_t *tags;
            unsigned nt, t;
            if (dualopt_mshr_fill(G->m_mask, id, &fl, &fm, &tags, &nt) != 0) {
                snprintf(s->err, s->elen, "MSHR fill of a free entry %u", id);
                s->failed = 1;
                return;
            }
            for (t = 0; t < nt; t++) {
                const target *tg = &G->tg[tags[t]];
                deliver(s, tg->op, tg->lanes, tg->line, pe->buf, fm);
            }
            pe->busy = 0;
            s->pending--;
        }
    }
}

static void teardown(sys *s)
{
    unsigned g;
    for (g = 0; g < DUALOPT_E2E_GPUS_MAX; g++) {
        gpu_t *G = &s->G[g];
        dualopt_mshr_free(G->m_mask);
        dualopt_mshr_free(G->m_line);
        dualopt_rcache_free(G->rc);
        dualopt_coal_free(G->coal);
        free(G->l1);
        free(G->pe);
        free(G->tg);
    }
    free(s->mem);
}

/* The units' configurations of a run. 0, or -1 with a reason. */
static int setup_cfgs(sys *s, dualopt_de_cfg *dc, char *err, size_t len)
{
    const dualopt_gpu_opts *o = s->o;
    const dualopt_gpu_kernel *k = s->k;
    char e2[256];
    size_t i;
    for (i = 0; i < k->n; i++)
        if (k->op[i].store > 1) {
            snprintf(err, len, "access %zu is an atomic: the transaction-level system has none "
                     "(the cycle-level one, cmodel/dualopt/dualopt_sys.c, has)", i);
            return -1;
        }
    if (dualopt_de_cfg_preset(dc, o->de_preset) != 0) {
        snprintf(err, len, "decision engine preset '%s' unknown", o->de_preset);
        return -1;
    }
    if (o->window)
        dc->window = o->window;
    if (o->max_total)
        dc->max_total = o->max_total;
    dc->remonitor = 1;
    if (dualopt_de_cfg_check(dc, e2, sizeof e2) != 0) {
        snprintf(err, len, "decision engine: %s", e2);
        return -1;
    }
    if (o->l1_lines == 0 || o->per_cycle == 0 || k->kernels > 8) {
        snprintf(err, len, "bad options (L1 lines %u, requests per cycle %u)", o->l1_lines,
                 o->per_cycle);
        return -1;
    }
    dualopt_codec_cfg_preset(&s->cc, "default");
    if (dualopt_codec_cfg_check(&s->cc, e2, sizeof e2) != 0) {
        snprintf(err, len, "coalescer: %s", e2);
        return -1;
    }
    return 0;
}

/* Every GPU's units and buffers. 0, or -1 when out of memory. */
static int setup_gpus(sys *s, const dualopt_de_cfg *dc)
{
    const dualopt_gpu_opts *o = s->o;
    dualopt_mshr_cfg mc, ml;
    dualopt_rcache_cfg rcc;
    dualopt_scbu_cfg scc;
    unsigned g;
    dualopt_mshr_cfg_preset(&mc, "default");
    dualopt_mshr_cfg_preset(&ml, "line");
    dualopt_rcache_cfg_default(&rcc);
    dualopt_scbu_cfg_default(&scc);
    for (g = 0; g < s->k->gpus; g++) {
        gpu_t *G = &s->G[g];
        G->s = s;
        G->g = g;
        G->log = o->rclog ? &o->rclog[g] : NULL;
        G->dlog = o->delog ? &o->delog[g] : NULL;
        dualopt_bgu_cfg_default(&G->bc);
        dualopt_scbu_init(&G->sc, &scc);
        dualopt_scbu_set_range(&G->sc, (uint64_t)g << DUALOPT_E2E_SPAN_BITS, (uint64_t)(g + 1) << DUALOPT_E2E_SPAN_BITS);
        dualopt_scbu_set_mode(&G->sc, o->force == DUALOPT_GPU_FORCE_COALESCE);
        dualopt_de_core_init(&G->de, dc);
        G->m_mask = dualopt_mshr_new(&mc);
        G->m_line = dualopt_mshr_new(&ml);
        G->rc = dualopt_rcache_new(&rcc);
        G->coal = dualopt_coal_new(&s->cc);
        G->l1 = calloc(o->l1_lines, sizeof *G->l1);
        G->pe = calloc(mc.entries, sizeof *G->pe);
        G->tg = calloc(TGT_MAX, sizeof *G->tg);
        if (!G->m_mask || !G->m_line || !G->rc || !G->coal || !G->l1 || !G->pe || !G->tg)
            return -1;
    }
    return 0;
}

/* One GPU's cycle: up to per_cycle requests of its current instructions.
 * Returns whether it has instructions left. */
static int issue(sys *s, gpu_t *G)
{
    const dualopt_gpu_kernel *k = s->k;
    unsigned n = 0;
    while (n < s->o->per_cycle && G->cur < G->end) {
        if (!G->have) {
            const dualopt_gpu_op *op = &k->op[G->cur];
            dualopt_bgu_load bl;
            memset(&bl, 0, sizeof bl);
            bl.active = op->active;
            memcpy(bl.addr, op->addr, sizeof op->addr);
            bl.size = op->size;
            G->nrq = dualopt_bgu_inst(&G->bc, &bl, G->rq);
            G->irq = 0;
            G->have = 1;
        }
        if (G->irq < G->nrq) {
            if (request(G, G->cur, &G->rq[G->irq]))
                break;
            G->irq++;
            n++;
        }
        if (G->irq == G->nrq) {
            G->have = 0;
            G->cur++;
        }
    }
    return G->cur < G->end;
}

/* Kernel kk from access *i on, until every request was answered. 0, or -1. */
static int run_kernel(sys *s, unsigned kk, size_t *i, char *err, size_t len)
{
    const dualopt_gpu_kernel *k = s->k;
    uint64_t idle = 0;
    unsigned g;
    for (g = 0; g < k->gpus; g++) { /* ops of kernel kk, GPU g */
        gpu_t *G = &s->G[g];
        while (*i < k->n && k->op[*i].kernel == kk && k->op[*i].gpu < g)
            (*i)++;
        G->cur = *i;
        while (*i < k->n && k->op[*i].kernel == kk && k->op[*i].gpu == g)
            (*i)++;
        G->end = *i;
        G->have = 0;
        G->kreq = 0;
    }
    for (;;) {
        int busy = 0;
        for (g = 0; g < k->gpus; g++) {
            busy |= issue(s, &s->G[g]);
            if (s->failed)
                return -1;
        }
        for (g = 0; g < k->gpus; g++)
            dualopt_coal_tick(s->G[g].coal, on_packet, &s->G[g]);
        if (s->failed)
            return -1;
        s->st->cycles++;
        busy |= s->pending != 0;
        if (!busy)
            return 0;
        if (++idle > 10000000) {
            snprintf(err, len, "kernel %u: no progress after %llu cycles", kk,
                     (unsigned long long)idle);
            return -1;
        }
    }
}

/* The end of kernel kk on GPU G: its coalescer empty, its cache flushed
 * (or, with the no-flush fault, invalidated without write-backs). */
static int end_kernel(sys *s, gpu_t *G, unsigned kk, char *err, size_t len)
{
    dualopt_gpu_stats *st = s->st;
    unsigned nwb, ninv;
    if (!dualopt_coal_idle(G->coal)) {
        snprintf(err, len, "kernel %u: coalescer of gpu %u not empty", kk, G->g);
        return -1;
    }
    if (s->o->fault == DUALOPT_GPU_FAULT_NO_FLUSH) { /* lines invalidated, nothing written back */
        dualopt_rcache keep = *G->rc;
        if (dualopt_rcache_dirty_lines(G->rc))
            st->faults++;
        dualopt_rcache_reset(G->rc);
        G->rc->hits = keep.hits;
        G->rc->misses = keep.misses;
        G->rc->whits = keep.whits;
        G->rc->wmiss_full = keep.wmiss_full;
        G->rc->wmiss_fetch = keep.wmiss_fetch;
        G->rc->wbs = keep.wbs;
    } else {
        G->ev = log_ev(G);
        if (G->ev)
            G->ev->op = DUALOPT_RCACHE_KERNEL;
        G->in_flush = 1;
        dualopt_rcache_flush(G->rc, rc_wb, G, &nwb, &ninv);
        G->in_flush = 0;
        if (G->ev && G->ev->nwb != nwb) {
            snprintf(err, len, "flush of gpu %u: %u write-backs logged, %u reported", G->g,
                     G->ev->nwb, nwb);
            return -1;
        }
        if (G->ev)
            G->ev->ninv = ninv;
        G->ev = NULL;
        st->rc_flush_wbs += nwb;
    }
    st->mode[G->g][kk] = mode_of(G);
    return 0;
}

int dualopt_gpu_run(const dualopt_gpu_opts *o, const dualopt_gpu_kernel *k, dualopt_gpu_stats *st, dualopt_gpu_result *res, char *err,
            size_t len)
{
    sys S, *s = &S;
    dualopt_de_cfg dc;
    unsigned g, kk;
    size_t img = (size_t)k->gpus * DUALOPT_E2E_REGION, i = 0;
    memset(s, 0, sizeof *s);
    memset(st, 0, sizeof *st);
    memset(res, 0, sizeof *res);
    s->o = o;
    s->k = k;
    s->st = st;
    s->res = res;
    s->err = err;
    s->elen = len;
    if (setup_cfgs(s, &dc, err, len) != 0)
        return -1;
    res->n = k->n;
    res->data = calloc(k->n ? k->n : 1, sizeof *res->data);
    res->writes = calloc(k->n ? k->n : 1, sizeof *res->writes);
    res->image = malloc(img * k->kernels);
    s->mem = malloc(img);
    if (!res->data || !res->writes || !res->image || !s->mem || setup_gpus(s, &dc) != 0) {
        snprintf(err, len, "out of memory");
        goto fail;
    }
    memcpy(s->mem, k->mem, img);
    for (kk = 0; kk < k->kernels; kk++) {
        if (run_kernel(s, kk, &i, err, len) != 0)
            goto fail;
        for (g = 0; g < k->gpus; g++) /* coalescers empty: flush, then re-monitor */
            if (end_kernel(s, &s->G[g], kk, err, len) != 0)
                goto fail;
        memcpy(res->image + (size_t)kk * img, s->mem, img);
        for (g = 0; g < k->gpus; g++) {
            gpu_t *G = &s->G[g];
            dualopt_de_kernel(&G->de);
            if (o->force == DUALOPT_GPU_AUTO)
                de_log(G, 1, 0, 0, 0, 0);
            dualopt_scbu_set_mode(&G->sc, mode_of(G) == DUALOPT_DE_COALESCE);
        }
    }
    for (g = 0; g < k->gpus; g++) {
        dualopt_rcache *rc = s->G[g].rc;
        st->rc_hits += rc->hits;
        st->rc_misses += rc->misses;
        st->rc_whits += rc->whits;
        st->rc_wmiss += rc->wmiss_full + rc->wmiss_fetch;
        st->rc_wbs += rc->wbs;
    }
    teardown(s);
    return 0;
fail:
    teardown(s);
    dualopt_gpu_result_free(res);
    return -1;
}
