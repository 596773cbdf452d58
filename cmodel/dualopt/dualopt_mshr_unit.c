/*
 * The DualOpt bitmask MSHR as a registry unit (cmodel/unit.h): port table,
 * timing-shell adapters, constrained-random and trace stimulus, and the
 * trace tool `cohmodel dualopt-mshr` (spec dualopt.md 4.3). The model is
 * cmodel/dualopt/dualopt_mshr.c.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_mshr.h"
#include "unit_adapt.h"
#include "unit_trace.h"

static const char *const presets[] = {"default", "fpga", "line", "gran8", "gran16", NULL};
static const char *const streams[] = {"mixed", "rate", NULL};


COHKIT_UNIT_PORTS_BEGIN(dualopt_mshr_cfg, dualopt_mshr_geom, dualopt_mshr_geom_of, c)
#include "dualopt_mshr_ports.def"
COHKIT_UNIT_PORTS_END

COHKIT_UNIT_ADAPTERS(dualopt_mshr, dualopt_mshr_cfg, dualopt_mshr_tm, dualopt_mshr_in, dualopt_mshr_out, dualopt_mshr_tm_new, dualopt_mshr_tm_free,
                 dualopt_mshr_tm_reset, dualopt_mshr_eval, dualopt_mshr_step)

/* ----------------------------------------------------------------- trace */

enum { REC_REQ, REC_FILL };

typedef struct {
    int kind;
    char *tok;          /* REQ: the tag token                         */
    uint64_t line, mask;
    unsigned entry;     /* FILL                                       */
    unsigned lineno;
} mshr_rec;

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static void free_recs(mshr_rec *r, size_t n)
{
    size_t i;
    for (i = 0; r && i < n; i++)
        free(r[i].tok);
    free(r);
}

static void drop_rec(void *rec) { free(((mshr_rec *)rec)->tok); }

static int parse_req(cohkit_trace_reader *rd, const dualopt_mshr_cfg *c, char **tk, int nt,
                     mshr_rec *x)
{
    dualopt_mshr_geom g;
    uint64_t a;
    int need_mask = c->mode == DUALOPT_MSHR_BITMASK;
    dualopt_mshr_geom_of(c, &g);
    if (nt < 3 + need_mask || nt > 4)
        return cohkit_trace_fail(rd, "expected 'REQ <tag> <addr>%s'",
                                 need_mask ? " <mask>" : " [<mask>]");
    if (cohkit_trace_hex_width(tk[2], c->addr_bits, &a) != 0)
        return cohkit_trace_fail(rd, "address '%s' is not hex of at most %u bits", tk[2],
                                 c->addr_bits);
    x->line = a >> g.line_bits;
    x->mask = g.mask_all;
    if (nt == 4) {
        if (cohkit_trace_hex_width(tk[3], g.mask_bits, &x->mask) != 0)
            return cohkit_trace_fail(rd, "mask '%s' is not hex of at most %u bits", tk[3],
                                     g.mask_bits);
        if (x->mask == 0 && need_mask)
            return cohkit_trace_fail(rd, "mask '%s' requests no word", tk[3]);
        if (!need_mask)
            x->mask = g.mask_all;
    }
    x->kind = REC_REQ;
    x->tok = strdup(tk[1]);
    return x->tok == NULL ? cohkit_trace_fail(rd, "out of memory") : 0;
}

static int parse_rec(cohkit_trace_reader *rd, const void *ctx, void *rec)
{
    const dualopt_mshr_cfg *c = ctx;
    mshr_rec *x = rec;
    char *tk[8];
    int nt = cohkit_trace_tokens(rd, tk, 8);
    x->lineno = rd->lineno;
    if (strcmp(tk[0], "REQ") == 0)
        return parse_req(rd, c, tk, nt, x);
    if (strcmp(tk[0], "FILL") != 0)
        return cohkit_trace_fail(rd, "unknown record '%s' (REQ or FILL)", tk[0]);
    if (nt != 2)
        return cohkit_trace_fail(rd, "expected 'FILL <entry>'");
    if (cohkit_trace_uint(tk[1], c->entries - 1, &x->entry) != 0)
        return cohkit_trace_fail(rd, "entry '%s' is not 0..%u", tk[1], c->entries - 1);
    x->kind = REC_FILL;
    return 0;
}

/* Reads a whole trace; -1 with "line N: reason" in err. */
static int read_trace(FILE *f, const dualopt_mshr_cfg *c, mshr_rec **out, size_t *nout, char *err,
                      size_t len)
{
    static const cohkit_trace_format fmt = {sizeof(mshr_rec), parse_rec, drop_rec, 0};
    void *r;
    int rc = cohkit_trace_records(f, &fmt, c, &r, nout, err, len);
    *out = r;
    return rc;
}

static void print_line_mask(FILE *f, const dualopt_mshr_geom *g, uint64_t line, uint64_t mask)
{
    fprintf(f, " 0x%llx 0x%0*llx", (unsigned long long)(line << g->line_bits),
            (int)((g->mask_bits + 3) / 4), (unsigned long long)mask);
}

static void print_rsp(FILE *f, const dualopt_mshr_geom *g, const char *tok, unsigned kind,
                      uint64_t entry, uint64_t line, uint64_t mask)
{
    switch (kind) {
    case DUALOPT_MSHR_HIT:
        fprintf(f, "HIT %s %llu\n", tok, (unsigned long long)entry);
        break;
    case DUALOPT_MSHR_MISS:
        fprintf(f, "MISS %s %llu", tok, (unsigned long long)entry);
        print_line_mask(f, g, line, mask);
        fputc('\n', f);
        break;
    case DUALOPT_MSHR_STALL_FULL:
        fprintf(f, "STALL %s full\n", tok);
        break;
    default:
        fprintf(f, "STALL %s targets %llu\n", tok, (unsigned long long)entry);
        break;
    }
}

/* The functional core over a trace (tags = record indices). Prints to out
 * when given; -1 with "line N: reason" on a FILL of a free entry, or when
 * max_out > 0 and more targets than that would be outstanding. */
static int run_core(const dualopt_mshr_cfg *c, const mshr_rec *r, size_t n, FILE *out,
                    unsigned max_out, dualopt_mshr_stats *st, char *err, size_t len)
{
    dualopt_mshr *m = dualopt_mshr_new(c);
    size_t i;
    unsigned k, outstanding = 0;
    if (m == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (r[i].kind == REC_REQ) {
            dualopt_mshr_result res;
            if (dualopt_mshr_req(m, r[i].line, r[i].mask, (uint32_t)i, &res) != 0) {
                snprintf(err, len, "line %u: out of memory", r[i].lineno);
                goto bad;
            }
            if (res.kind == DUALOPT_MSHR_HIT || res.kind == DUALOPT_MSHR_MISS)
                outstanding++;
            if (max_out && outstanding > max_out) {
                snprintf(err, len,
                         "line %u: more than %u requests outstanding (the RTL's --tag-bits %u)",
                         r[i].lineno, max_out, c->tag_bits);
                goto bad;
            }
            if (out)
                print_rsp(out, &m->g, r[i].tok, res.kind, res.entry, res.line, res.mask);
        } else {
            uint64_t line, mask;
            const uint32_t *tags;
            unsigned nt;
            if (dualopt_mshr_fill(m, r[i].entry, &line, &mask, &tags, &nt) != 0) {
                snprintf(err, len, "line %u: FILL %u: entry %u is free", r[i].lineno, r[i].entry,
                         r[i].entry);
                goto bad;
            }
            outstanding -= nt;
            if (out) {
                fprintf(out, "DONE %u", r[i].entry);
                print_line_mask(out, &m->g, line, mask);
                for (k = 0; k < nt; k++)
                    fprintf(out, " %s", r[tags[k]].tok);
                fputc('\n', out);
            }
        }
    }
    if (st)
        *st = m->st;
    dualopt_mshr_free(m);
    return 0;
bad:
    dualopt_mshr_free(m);
    return -1;
}

/* -------------------------------------------------------------- stimulus */

enum { FLAG_STATS = 0 };
static const cohkit_unit_flag flags[] = {
    {"stats", NULL, "cohmodel: a '# hits H misses M stalls-full F stalls-targets T fills N' line"},
    {NULL, NULL, NULL},
};

enum { KIND_MIXED, KIND_RATE, KIND_TRACE };
enum { TS_IDLE, TS_REQ, TS_RSP, TS_FILL, TS_DONE };

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    dualopt_mshr_cfg c;
    dualopt_mshr_geom g;
    unsigned p_valid, p_rsp_ready, p_fill, p_done_ready;
    /* tag pool: every tag in flight is unique (the target-store contract) */
    uint32_t *pool;
    unsigned npool;
    uint64_t line_pool[8];
    /* request and fill being driven */
    int have, fhave;
    uint64_t q_tag, q_line, q_mask, f_entry;
    uint64_t outstanding; /* entries the stimulus may fill (bit i = entry i) */
    /* trace */
    mshr_rec *rec;
    size_t nrec, next;
    int ts;
    uint32_t *tok_of;     /* tag id -> record index */
    uint32_t *beats;
    unsigned nbeats;
    /* counts */
    uint64_t offered, accepted, rsp_kinds[4], fills, done_beats;
} mshr_stim;

static void stim_free(void *p)
{
    mshr_stim *s = p;
    if (s == NULL)
        return;
    free_recs(s->rec, s->nrec);
    free(s->pool);
    free(s->tok_of);
    free(s->beats);
    free(s);
}

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    mshr_stim *s = p;
    unsigned i;
    s->c = *(const dualopt_mshr_cfg *)cfg;
    dualopt_mshr_geom_of(&s->c, &s->g);
    s->pool = malloc(s->g.tags * sizeof *s->pool);
    s->tok_of = calloc(s->g.tags, sizeof *s->tok_of);
    s->beats = malloc(s->g.tags * sizeof *s->beats);
    if (s->pool == NULL || s->tok_of == NULL || s->beats == NULL)
        return snprintf(err, len, "out of memory"), -1;
    for (i = 0; i < s->g.tags; i++)
        s->pool[i] = s->g.tags - 1 - i;
    s->npool = s->g.tags;
    for (i = 0; i < 8; i++)
        s->line_pool[i] = cohkit_unit_rnd(&s->b.rng) & mask64(s->g.laddr_bits);
    s->p_valid = 100;
    s->p_rsp_ready = 100;
    s->p_done_ready = 100;
    s->p_fill = 30;
    if (s->b.trace && (read_trace(a->trace, &s->c, &s->rec, &s->nrec, err, len) != 0 ||
                       run_core(&s->c, s->rec, s->nrec, NULL, s->g.tags, NULL, err, len) != 0))
        return cohkit_unit_stim_trace_err(a, err, len);
    return 0;
}

COHKIT_UNIT_STIM_NEW(mshr_stim, 0x5eedull)

static uint32_t pool_take(mshr_stim *s)
{
    /* a random free tag, so that tags are not reused in a fixed order */
    unsigned k = (unsigned)(cohkit_unit_rnd(&s->b.rng) % s->npool);
    uint32_t t = s->pool[k];
    s->pool[k] = s->pool[--s->npool];
    return t;
}

static void pool_give(mshr_stim *s, uint32_t t)
{
    if (s->npool < s->g.tags)
        s->pool[s->npool++] = t;
}

static uint64_t rand_mask(mshr_stim *s)
{
    unsigned r = cohkit_unit_pct(&s->b.rng), mb = s->g.mask_bits;
    uint64_t m;
    if (r < 40)
        m = 1ull << (cohkit_unit_rnd(&s->b.rng) % mb);
    else if (r < 60)
        m = (1ull << (cohkit_unit_rnd(&s->b.rng) % mb)) | (1ull << (cohkit_unit_rnd(&s->b.rng) % mb));
    else if (r < 75)
        m = s->g.mask_all;
    else
        m = cohkit_unit_rnd(&s->b.rng) & s->g.mask_all;
    return m ? m : 1;
}

static void rand_drive(mshr_stim *s, uint64_t cyc)
{
    if (s->b.kind == KIND_MIXED && (cyc & 1023) == 0) {
        static const unsigned pv[] = {100, 70, 40, 10}, pr[] = {100, 60, 25},
                              pf[] = {60, 30, 10, 2};
        s->p_valid = pv[cohkit_unit_rnd(&s->b.rng) % 4];
        s->p_rsp_ready = pr[cohkit_unit_rnd(&s->b.rng) % 3];
        s->p_done_ready = pr[cohkit_unit_rnd(&s->b.rng) % 3];
        s->p_fill = pf[cohkit_unit_rnd(&s->b.rng) % 4];
    }
    if (!s->have && s->npool > 0 && cohkit_unit_pct(&s->b.rng) < s->p_valid) {
        unsigned np = s->c.entries < 6 ? s->c.entries + 2 : 8;
        s->q_tag = pool_take(s);
        s->q_line = s->line_pool[cohkit_unit_rnd(&s->b.rng) % np];
        /* now and then a line outside the pool */
        if (cohkit_unit_pct(&s->b.rng) < 3)
            s->q_line = cohkit_unit_rnd(&s->b.rng) & mask64(s->g.laddr_bits);
        s->q_mask = rand_mask(s);
        s->have = 1;
    }
    if (!s->fhave && cohkit_unit_pct(&s->b.rng) < (s->b.kind == KIND_RATE ? 100 : s->p_fill)) {
        if (s->outstanding != 0 && cohkit_unit_pct(&s->b.rng) >= 3) {
            unsigned k = (unsigned)(cohkit_unit_rnd(&s->b.rng) % 64);
            while (!((s->outstanding >> k) & 1))
                k = (k + 1) % 64;
            s->f_entry = k;
            s->fhave = 1;
        } else if (cohkit_unit_pct(&s->b.rng) < 10) {
            /* a fill naming an entry the stimulus does not know as busy */
            s->f_entry = cohkit_unit_rnd(&s->b.rng) & mask64(s->g.entry_bits);
            s->fhave = 1;
        }
    }
}

static void trace_drive(mshr_stim *s)
{
    if (s->ts != TS_IDLE || s->next >= s->nrec || cohkit_unit_pct(&s->b.rng) >= COHKIT_UNIT_BP_TRACE.valid)
        return;
    if (s->rec[s->next].kind == REC_REQ) {
        const mshr_rec *r = &s->rec[s->next];
        s->q_tag = pool_take(s);
        s->tok_of[s->q_tag] = (uint32_t)s->next;
        s->q_line = r->line;
        s->q_mask = r->mask;
        s->have = 1;
        s->ts = TS_REQ;
    } else {
        s->f_entry = s->rec[s->next].entry;
        s->fhave = 1;
        s->ts = TS_FILL;
    }
    s->next++;
}

static void stim_drive(void *p, uint64_t cyc, uint64_t *inw)
{
    mshr_stim *s = p;
    dualopt_mshr_in *in = (dualopt_mshr_in *)(void *)inw;
    if (s->b.kind == KIND_TRACE) {
        trace_drive(s);
        in->rsp_ready_i = cohkit_unit_pct(&s->b.rng) < COHKIT_UNIT_BP_TRACE.ready;
        in->done_ready_i = cohkit_unit_pct(&s->b.rng) < COHKIT_UNIT_BP_TRACE.ready;
    } else {
        rand_drive(s, cyc);
        in->rsp_ready_i = s->b.kind == KIND_RATE || cohkit_unit_pct(&s->b.rng) < s->p_rsp_ready;
        in->done_ready_i = s->b.kind == KIND_RATE || cohkit_unit_pct(&s->b.rng) < s->p_done_ready;
    }
    in->req_valid_i = (uint64_t)s->have;
    in->req_tag_i = s->have ? s->q_tag : 0;
    in->req_line_i = s->have ? s->q_line : 0;
    in->req_mask_i = s->have ? s->q_mask : 0;
    in->fill_valid_i = (uint64_t)s->fhave;
    in->fill_entry_i = s->fhave ? s->f_entry : 0;
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *inw, const uint64_t *outw)
{
    mshr_stim *s = p;
    const dualopt_mshr_in *in = (const dualopt_mshr_in *)(const void *)inw;
    const dualopt_mshr_out *o = (const dualopt_mshr_out *)(const void *)outw;
    (void)cyc;
    s->offered += in->req_valid_i & 1;
    if (in->req_valid_i && o->req_ready_o) {
        s->accepted++;
        s->have = 0;
        if (s->ts == TS_REQ)
            s->ts = TS_RSP;
    }
    if (o->rsp_valid_o && in->rsp_ready_i) {
        unsigned k = (unsigned)o->rsp_kind_o & 3;
        s->rsp_kinds[k]++;
        if (k == DUALOPT_MSHR_STALL_FULL || k == DUALOPT_MSHR_STALL_TGT)
            pool_give(s, (uint32_t)o->rsp_tag_o);
        if (k == DUALOPT_MSHR_MISS && o->rsp_entry_o < 64)
            s->outstanding |= 1ull << o->rsp_entry_o;
        if (s->ts == TS_RSP) {
            if (s->b.out)
                print_rsp(s->b.out, &s->g, s->rec[s->tok_of[o->rsp_tag_o]].tok, k, o->rsp_entry_o,
                          o->rsp_line_o, o->rsp_mask_o);
            s->ts = TS_IDLE;
        }
    }
    if (in->fill_valid_i && o->fill_ready_o) {
        s->fills++;
        s->fhave = 0;
        if (in->fill_entry_i < 64)
            s->outstanding &= ~(1ull << in->fill_entry_i);
        if (s->ts == TS_FILL) {
            s->ts = TS_DONE;
            s->nbeats = 0;
        }
    }
    if (o->done_valid_o && in->done_ready_i) {
        s->done_beats++;
        pool_give(s, (uint32_t)o->done_tag_o);
        if (s->ts == TS_DONE) {
            if (s->nbeats < s->g.tags)
                s->beats[s->nbeats++] = (uint32_t)o->done_tag_o;
            if (o->done_last_o) {
                unsigned k;
                if (s->b.out) {
                    fprintf(s->b.out, "DONE %llu", (unsigned long long)o->done_entry_o);
                    print_line_mask(s->b.out, &s->g, o->done_line_o, o->done_mask_o);
                    for (k = 0; k < s->nbeats; k++)
                        fprintf(s->b.out, " %s", s->rec[s->tok_of[s->beats[k]]].tok);
                    fputc('\n', s->b.out);
                }
                s->ts = TS_IDLE;
            }
        }
    }
}

static int stim_done(const void *p, const void *tmp)
{
    const mshr_stim *s = p;
    const dualopt_mshr_tm *t = tmp;
    return s->next == s->nrec && s->ts == TS_IDLE && !t->rq_valid && !t->rsp_valid &&
           !t->dn_valid;
}

static uint64_t stim_limit(const void *p)
{
    const mshr_stim *s = p;
    /* a record waits at most a few cycles at 75 % ready; a fill streams one
     * beat per target, and targets are at most the requests */
    return 64 + (uint64_t)s->nrec * 80;
}

static void stim_summary(const void *p, const void *tmp, uint64_t cycles, FILE *f, const char *c)
{
    const mshr_stim *s = p;
    const dualopt_mshr_stats *st = &((const dualopt_mshr_tm *)tmp)->m->st;
    fprintf(f, "%scycles %llu  lookups offered %llu accepted %llu (%.3f per cycle)\n", c,
            (unsigned long long)cycles, (unsigned long long)s->offered,
            (unsigned long long)s->accepted,
            cycles ? (double)s->accepted / (double)cycles : 0.0);
    fprintf(f, "%shits %llu  misses %llu  stalls full %llu  stalls targets %llu  fills %llu  "
               "done beats %llu\n",
            c, (unsigned long long)st->hits, (unsigned long long)st->misses,
            (unsigned long long)st->stall_full, (unsigned long long)st->stall_targets,
            (unsigned long long)st->fills, (unsigned long long)s->done_beats);
}

/* ------------------------------------------------------------ trace tool */

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    const dualopt_mshr_cfg *c = cfg;
    mshr_rec *r = NULL;
    size_t n = 0;
    char err[300];
    dualopt_mshr_stats st;
    char *buf = NULL;
    size_t blen = 0;
    FILE *tmp;
    if (read_trace(in, c, &r, &n, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    tmp = open_memstream(&buf, &blen);
    if (tmp == NULL) {
        free_recs(r, n);
        fprintf(errf, "cohmodel: out of memory\n");
        return 2;
    }
    if (run_core(c, r, n, tmp, 0, &st, err, sizeof err) != 0) {
        fclose(tmp);
        free(buf);
        free_recs(r, n);
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    fclose(tmp);
    fwrite(buf, 1, blen, out);
    free(buf);
    if (fl && fl[FLAG_STATS])
        fprintf(out, "# hits %llu misses %llu stalls-full %llu stalls-targets %llu fills %llu\n",
                (unsigned long long)st.hits, (unsigned long long)st.misses,
                (unsigned long long)st.stall_full, (unsigned long long)st.stall_targets,
                (unsigned long long)st.fills);
    free_recs(r, n);
    return 0;
}

const cohkit_unit_desc dualopt_mshr_unit = {
    .name = "dualopt-mshr",
    .family = "dualopt",
    .title = "DualOpt bitmask MSHR (Belayneh et al., 4.1.2, Fig. 8, Table 1; spec 2.3, D11)",
    .model_ref = "cmodel/dualopt/dualopt_mshr.c dualopt_mshr_eval() / dualopt_mshr_step() (timing), "
                 "dualopt_mshr_req() / dualopt_mshr_fill() (function)",
    .cfg_size = sizeof(dualopt_mshr_cfg),
    .presets = presets,
    .committed = presets,
    .module_prefix = "dualopt_mshr",
    .opts = &dualopt_mshr_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "REQ <tag> <hex-addr> <hex-mask> (mask optional in line mode) | FILL <entry>;\n"
                  "output: HIT <tag> <entry> | MISS <tag> <entry> <line-addr> <mask> |\n"
                  "STALL <tag> full | STALL <tag> targets <entry> |\n"
                  "DONE <entry> <line-addr> <mask> <tag>... (targets in arrival order)",
    COHKIT_UNIT_STIM_FIELDS,
    .stim_note = NULL,
};
