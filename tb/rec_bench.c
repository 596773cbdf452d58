#include "rec_bench.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rnd(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static unsigned pct(uint64_t *s) { return (unsigned)(rnd(s) % 100); }

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

void rec_bench_defaults(rec_bench_opts *o)
{
    memset(o, 0, sizeof *o);
    rec_cfg_default(&o->cfg);
    o->seed = 1;
    o->cycles = 100000;
    o->home = -1;
}

const dut_ops *rec_dut_find(const dut_ops *const *table, const char *name)
{
    char mod[160];
    size_t i;
    snprintf(mod, sizeof mod, "rec_%s", name);
    for (i = 0; table[i] != NULL; i++)
        if (strcmp(table[i]->module, name) == 0 || strcmp(table[i]->module, mod) == 0)
            return table[i];
    return NULL;
}

int rec_dut_cfg(const dut_ops *d, rec_cfg *cfg, char *err, size_t len)
{
    char buf[512], *save = NULL, *tok;
    rec_cfg_default(cfg);
    snprintf(buf, sizeof buf, "%s", d->args);
    for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
        char *val = strtok_r(NULL, " ", &save);
        if (strncmp(tok, "--", 2) != 0 || val == NULL ||
            rec_cfg_option(cfg, tok + 2, val, err, len) != 0) {
            snprintf(err, len, "%s: bad configuration string '%s'", d->module, d->args);
            return -1;
        }
    }
    return rec_cfg_check(cfg, err, len);
}

int rec_stim_read(FILE *f, unsigned n_in, uint64_t **vals, size_t *cycles, char *err, size_t len)
{
    char buf[2048];
    size_t cap = 0, n = 0;
    unsigned lineno = 0;
    uint64_t *v = NULL;
    while (fgets(buf, sizeof buf, f) != NULL) {
        char *p = buf, *end;
        unsigned k;
        lineno++;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\0')
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 1024;
            uint64_t *nv = realloc(v, nc * n_in * sizeof *nv);
            if (nv == NULL) {
                free(v);
                snprintf(err, len, "line %u: out of memory", lineno);
                return -1;
            }
            v = nv;
            cap = nc;
        }
        for (k = 0; k < n_in; k++) {
            v[n * n_in + k] = strtoull(p, &end, 16);
            if (end == p) {
                free(v);
                snprintf(err, len, "line %u: expected %u hex values", lineno, n_in);
                return -1;
            }
            p = end;
        }
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (*p != '\0') {
            free(v);
            snprintf(err, len, "line %u: more than %u values", lineno, n_in);
            return -1;
        }
        n++;
    }
    *vals = v;
    *cycles = n;
    return 0;
}

/* Constrained-random request source. */
typedef struct {
    uint64_t rng;
    unsigned p_valid, p_ready;
    uint64_t set_pool[4], tag_pool[20];
    unsigned nsets, ntags;
    int have;
    rec_in req;
} stim_rand;

static void rand_init(stim_rand *s, const rec_cfg *c, const rec_geom *g, uint64_t seed)
{
    unsigned i;
    uint64_t base;
    memset(s, 0, sizeof *s);
    s->rng = seed * 0x9E3779B97F4A7C15ull + 0x1234567ull;
    if (s->rng == 0)
        s->rng = 1;
    s->nsets = g->sets < 4 ? g->sets : 4;
    /* distinct sets and tags, so that a hit-only stream never evicts */
    base = rnd(&s->rng);
    for (i = 0; i < s->nsets; i++)
        s->set_pool[i] = (base + i) & mask64(g->index_bits);
    s->ntags = c->ways + 3;
    base = rnd(&s->rng);
    for (i = 0; i < s->ntags; i++)
        s->tag_pool[i] = (base + i * 0x9E3779B1ull) & mask64(g->base_bits - g->index_bits);
    s->p_valid = 100;
    s->p_ready = 100;
}

static void rand_request(stim_rand *s, const rec_cfg *c, const rec_geom *g, unsigned home,
                         int hit_only)
{
    unsigned r = pct(&s->rng);
    uint64_t base, line;
    rec_in *q = &s->req;
    if (hit_only)
        q->req_op_i = REC_OP_RR;
    else
        q->req_op_i = r < 55 ? REC_OP_RR : r < 75 ? REC_OP_RW : r < 97 ? REC_OP_LW : REC_OP_NOP;
    /* a remote requester other than home; now and then the home GPU or an
     * out-of-range id, which the directory must ignore */
    r = pct(&s->rng);
    if (!hit_only && r < 2)
        q->req_src_i = home;
    else if (!hit_only && r < 4)
        q->req_src_i = rnd(&s->rng) & mask64(g->gpu_bits);
    else {
        unsigned k = (unsigned)(rnd(&s->rng) % (c->gpus - 1));
        q->req_src_i = k >= home ? k + 1 : k;
    }
    if (!hit_only && pct(&s->rng) < 8) {
        line = rnd(&s->rng) & mask64(g->laddr_bits);
    } else {
        unsigned ntags = hit_only ? (c->ways < s->ntags ? c->ways : s->ntags) : s->ntags;
        base = (s->tag_pool[rnd(&s->rng) % ntags] << g->index_bits) |
               s->set_pool[rnd(&s->rng) % s->nsets];
        line = (base << g->span_bits) | (rnd(&s->rng) & mask64(g->span_bits));
    }
    q->req_addr_i = line & mask64(g->laddr_bits);
}

static void put_vals(FILE *f, const uint64_t *v, unsigned n)
{
    unsigned k;
    for (k = 0; k < n; k++)
        fprintf(f, k ? " %llx" : "%llx", (unsigned long long)v[k]);
    fputc('\n', f);
}

int rec_bench_run(const rec_bench_opts *o, rec_bench_result *r)
{
    const dut_ops *d = o->dut;
    rec_geom g;
    rec_tm *tm = NULL;
    void *h = NULL;
    stim_rand sr;
    rec_in in;
    rec_out mo, ro;
    uint64_t cyc = 0, limit, warm = 0;
    size_t tnext = 0;
    struct timespec t0, t1;
    int vcd_open = 0, rc = 0;

    memset(r, 0, sizeof *r);
    if (d == NULL || d->n_in != sizeof(rec_in) / 8 || d->n_out != sizeof(rec_out) / 8) {
        snprintf(r->mm_msg, sizeof r->mm_msg, "DUT ports do not match the REC port table");
        r->error = 1;
        return -1;
    }
    rec_geom_of(&o->cfg, &g);
    tm = rec_tm_new(&o->cfg);
    h = d->create((unsigned)o->seed);
    if (tm == NULL || h == NULL) {
        snprintf(r->mm_msg, sizeof r->mm_msg, "out of memory");
        r->error = 1;
        rec_tm_free(tm);
        if (h)
            d->destroy(h);
        return -1;
    }
    rand_init(&sr, &o->cfg, &g, o->seed);
    r->home = o->home >= 0 ? (unsigned)o->home : (unsigned)(rnd(&sr.rng) % o->cfg.gpus);
    memset(&in, 0, sizeof in);
    in.home_i = r->home;

    switch (o->kind) {
    case REC_STIM_TRACE:
        limit = REC_RESET_CYCLES + g.sets + (o->ntrace + 1) * (REC_JOB_MAX + 8) + 16;
        break;
    case REC_STIM_REPLAY:
        limit = o->nreplay;
        break;
    default:
        limit = o->cycles;
        break;
    }
    if (o->stop_after && o->stop_after + 1 < limit)
        limit = o->stop_after + 1;
    if (o->stim_out) {
        unsigned k;
        fprintf(o->stim_out, "# %s stimulus for %s (%s), one cycle per line:", d->family,
                d->module, d->args);
        for (k = 0; k < d->n_in; k++)
            fprintf(o->stim_out, " %s", d->in_names[k]);
        fprintf(o->stim_out, "\n");
    }

    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (cyc = 0; cyc < limit; cyc++) {
        unsigned k;
        int live;
        if (o->vcd && !vcd_open && cyc >= o->vcd_from) {
            if (d->trace_open(h, o->vcd) != 0) {
                snprintf(r->mm_msg, sizeof r->mm_msg, "cannot write waveform %s", o->vcd);
                r->error = 1;
                rc = -1;
                break;
            }
            vcd_open = 1;
        }
        /* inputs of this cycle */
        if (o->kind == REC_STIM_REPLAY) {
            memcpy(&in, o->replay + cyc * d->n_in, sizeof in);
        } else {
            in.rst_ni = cyc >= REC_RESET_CYCLES;
            if (o->kind == REC_STIM_TRACE) {
                if (!sr.have && tnext < o->ntrace && pct(&sr.rng) < 85) {
                    const rec_treq *t = &o->trace[tnext++];
                    sr.req.req_op_i = t->op;
                    sr.req.req_addr_i = t->line;
                    sr.req.req_src_i = t->src;
                    sr.have = 1;
                }
                in.inv_ready_i = pct(&sr.rng) < 75;
            } else {
                if ((cyc & 2047) == 0 && o->kind == REC_STIM_MIXED) {
                    static const unsigned pv[] = {100, 80, 50, 20}, pr[] = {100, 70, 30};
                    sr.p_valid = pv[rnd(&sr.rng) % 4];
                    sr.p_ready = pr[rnd(&sr.rng) % 3];
                }
                if (!sr.have && pct(&sr.rng) < sr.p_valid) {
                    rand_request(&sr, &o->cfg, &g, r->home, o->kind == REC_STIM_HIT);
                    sr.have = 1;
                }
                in.inv_ready_i = pct(&sr.rng) < sr.p_ready;
            }
            in.req_valid_i = sr.have;
            in.req_op_i = sr.have ? sr.req.req_op_i : 0;
            in.req_addr_i = sr.have ? sr.req.req_addr_i : 0;
            in.req_src_i = sr.have ? sr.req.req_src_i : 0;
        }
        live = in.rst_ni != 0;
        rec_eval(tm, &in, &mo);
        d->eval(h, (const uint64_t *)&in, (uint64_t *)&ro);
        if (o->stim_out)
            put_vals(o->stim_out, (const uint64_t *)&in, d->n_in);
        if (live) {
            const uint64_t *e = (const uint64_t *)&mo, *a = (const uint64_t *)&ro;
            if (o->log_out) {
                fprintf(o->log_out, "%llu", (unsigned long long)cyc);
                for (k = 0; k < d->n_out; k++)
                    fprintf(o->log_out, " %llx", (unsigned long long)a[k]);
                fputc('\n', o->log_out);
            }
            for (k = 0; k < d->n_out; k++)
                if (e[k] != a[k]) {
                    snprintf(r->mm_msg, sizeof r->mm_msg,
                             "MISMATCH cycle %llu port %s expected 0x%llx got 0x%llx (seed %llu)",
                             (unsigned long long)cyc, d->out_names[k], (unsigned long long)e[k],
                             (unsigned long long)a[k], (unsigned long long)o->seed);
                    r->mismatch = 1;
                    r->mm_cycle = cyc;
                    break;
                }
            if (r->mismatch) {
                d->tick(h); /* the waveform shows the failing edge too */
                cyc++;
                break;
            }
            if (in.req_valid_i && mo.req_ready_o) {
                r->accepted++;
                sr.have = 0;
                if (o->kind == REC_STIM_HIT && warm == 0 && r->accepted == 4 * o->cfg.ways * 16) {
                    warm = cyc + 1;
                    r->measure_accepted = 0;
                } else if (warm) {
                    r->measure_accepted++;
                }
            }
            if (mo.inv_valid_o && in.inv_ready_i) {
                r->invs++;
                if (o->inv_out)
                    rec_trace_print_inv(o->inv_out, &o->cfg, ro.inv_addr_o, (uint32_t)ro.inv_mask_o);
            }
        }
        rec_step(tm, &in);
        d->tick(h);
        if (o->kind == REC_STIM_TRACE && tnext == o->ntrace && !sr.have && !tm->s1_valid && !tm->s2_valid &&
            tm->job_head == tm->job_n && !tm->init_busy) {
            cyc++;
            break;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->cycles = cyc;
    r->measure_cycles = warm ? cyc - warm : 0;
    r->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    r->st = tm->dir->st;
    if (rc == 0 && !r->mismatch && o->kind == REC_STIM_TRACE && (tnext < o->ntrace || sr.have)) {
        snprintf(r->mm_msg, sizeof r->mm_msg, "trace stalled: %zu of %zu requests accepted",
                 tnext, o->ntrace);
        r->mismatch = 1;
        r->mm_cycle = cyc;
    }
    if (vcd_open)
        d->trace_close(h);
    d->destroy(h);
    rec_tm_free(tm);
    if (rc != 0)
        return rc;
    return r->mismatch ? 1 : 0;
}
