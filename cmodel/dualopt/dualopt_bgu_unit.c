/*
 * The DualOpt BGU as a registry unit (cmodel/unit.h): port table, timing
 * shell adapters, the constrained-random and trace stimulus sources of the
 * lockstep bench and the trace tool (`cohmodel dualopt-bgu`, format of the
 * DualOpt specification section 4.1). The model is cmodel/dualopt/dualopt_bgu.c.
 */
#include <stdlib.h>
#include <string.h>

#include "dualopt_bgu.h"
#include "unit_trace.h"
#include "unit_adapt.h"

static const char *const presets[] = {"default", "fpga", "gran8", "gran16", NULL};
static const char *const streams[] = {"mixed", "full", NULL};


COHKIT_UNIT_PORTS_BEGIN(dualopt_bgu_cfg, dualopt_bgu_geom, dualopt_bgu_geom_of, c)
#include "dualopt_bgu_ports.def"
COHKIT_UNIT_PORTS_END

COHKIT_UNIT_ADAPTERS(dualopt_bgu, dualopt_bgu_cfg, dualopt_bgu_tm, uint64_t, uint64_t, dualopt_bgu_tm_new, dualopt_bgu_tm_free,
                 dualopt_bgu_tm_reset, dualopt_bgu_eval, dualopt_bgu_step)

/* ----------------------------------------------------------------- trace */

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

typedef struct {
    dualopt_bgu_load *r;
    size_t n;
} bgu_trace;

/* Reads every LD record; -1 with "line N: reason" in err. */
static int parse_rec(cohkit_trace_reader *rd, const void *ctx, void *rec)
{
    const dualopt_bgu_cfg *c = ctx;
    dualopt_bgu_load *ld = rec;
    const char *tok;
    unsigned lane = 0;
    if (strcmp(rd->first, "LD") != 0)
        return cohkit_trace_fail(rd, "unknown record '%s' (expected LD)", rd->first);
    tok = cohkit_trace_arg(rd);
    if (tok == NULL)
        return cohkit_trace_fail(rd, "LD needs a size");
    if (strcmp(tok, "1") && strcmp(tok, "2") && strcmp(tok, "4") && strcmp(tok, "8") &&
        strcmp(tok, "12") && strcmp(tok, "16"))
        return cohkit_trace_fail(rd, "size '%s' is not 1, 2, 4, 8, 12 or 16", tok);
    ld->size = (unsigned)atoi(tok);
    while ((tok = cohkit_trace_arg(rd)) != NULL) {
        int r;
        if (lane >= c->lanes)
            return cohkit_trace_fail(rd, "more than %u lane addresses", c->lanes);
        if (strcmp(tok, "-") != 0) {
            r = cohkit_trace_hex_width(tok, c->addr_bits, &ld->addr[lane]);
            if (r == -1)
                return cohkit_trace_fail(rd, "lane %u: '%s' is not a hex address", lane, tok);
            if (r == -2)
                return cohkit_trace_fail(rd, "lane %u: address '%s' exceeds %u bits", lane, tok,
                                         c->addr_bits);
            ld->active |= 1ull << lane;
        }
        lane++;
    }
    return 0;
}

COHKIT_TRACE_READ_FN(trace_read, dualopt_bgu_cfg, bgu_trace, parse_rec)

/* REQ <inst> <line-addr> <mask> <lane-mask> */
static void print_req(FILE *f, const dualopt_bgu_cfg *c, const dualopt_bgu_geom *g, uint64_t inst, const dualopt_bgu_req *r)
{
    fprintf(f, "REQ %llu 0x%llx 0x%0*llx 0x%0*llx\n", (unsigned long long)inst,
            (unsigned long long)(r->line << g->line_bits), (int)((g->words + 3) / 4),
            (unsigned long long)r->mask, (int)((c->lanes + 3) / 4), (unsigned long long)r->lanes);
}

/* -------------------------------------------------------------- stimulus */

enum { FLAG_STATS = 0 };
static const cohkit_unit_flag flags[] = {
    {"stats", NULL, "cohmodel: add '# loads N lanes A requests R words W' after the requests"},
    {NULL, NULL, NULL},
};

enum { KIND_MIXED, KIND_FULL, KIND_TRACE };

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    dualopt_bgu_cfg c;
    dualopt_bgu_geom g;
    dualopt_bgu_tm pack;      /* only for dualopt_bgu_pack's geometry */
    int have;                 /* a load is presented (cur)             */
    dualopt_bgu_load cur;
    /* the load the unit holds: accepted in acc_cyc, its requests follow */
    int held, stalled;
    dualopt_bgu_req exp[2 * DUALOPT_BGU_LANES_MAX];
    unsigned nexp, got;
    uint64_t acc_cyc, first_req_cyc;
    uint64_t inst;    /* loads accepted (the trace's <inst>)       */
    bgu_trace tr;
    /* measured */
    uint64_t reqs, lanes_active, func_bad, timed, timed_exact, timed_first1, crossing;
    uint64_t busy_cycles;
} bgu_stim;

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    bgu_stim *s = p;
    s->c = *(const dualopt_bgu_cfg *)cfg;
    dualopt_bgu_geom_of(&s->c, &s->g);
    s->pack.c = s->c;
    s->pack.g = s->g;
    if (s->b.trace && trace_read(a->trace, &s->c, &s->tr, err, len) != 0)
        return cohkit_unit_stim_trace_err(a, err, len);
    return 0;
}

static void stim_free(void *p)
{
    bgu_stim *s = p;
    if (s) {
        free(s->tr.r);
        free(s);
    }
}

COHKIT_UNIT_STIM_NEW(bgu_stim, 0x5bd1e995ull)

/* A random load: coalesced, clustered, scattered, line-crossing, broadcast
 * or wrapping at the top of the address space; sizes mostly the ISA's
 * (1, 2, 4, 8, 12, 16 B), now and then any 1..16. */
static void rand_load(bgu_stim *s, dualopt_bgu_load *ld, int all_active)
{
    const dualopt_bgu_cfg *c = &s->c;
    uint64_t am = mask64(c->addr_bits), base = cohkit_unit_rnd(&s->b.rng) & am, line = c->line;
    static const unsigned sizes[] = {1, 2, 4, 8, 12, 16};
    unsigned r = cohkit_unit_pct(&s->b.rng), i, pat = cohkit_unit_pct(&s->b.rng), stride;
    memset(ld, 0, sizeof *ld);
    ld->size = r < 85 ? sizes[cohkit_unit_rnd(&s->b.rng) % 6] : 1 + (unsigned)(cohkit_unit_rnd(&s->b.rng) % 16);
    r = cohkit_unit_pct(&s->b.rng);
    if (all_active || r < 50)
        ld->active = mask64(c->lanes);
    else if (r < 85)
        for (i = 0; i < c->lanes; i++)
            ld->active |= (uint64_t)(cohkit_unit_pct(&s->b.rng) < 70) << i;
    else if (r < 90)
        ld->active = 0;
    else
        ld->active = 1ull << (cohkit_unit_rnd(&s->b.rng) % c->lanes);
    {
        static const unsigned strides[] = {0, 1, 2, 4, 8, 12, 16, 64};
        stride = cohkit_unit_pct(&s->b.rng) < 50 ? ld->size : strides[cohkit_unit_rnd(&s->b.rng) % 8];
    }
    for (i = 0; i < c->lanes; i++) {
        uint64_t a;
        if (pat < 25)
            a = base + (uint64_t)i * stride;
        else if (pat < 45)
            a = (base & ~(line - 1)) + (cohkit_unit_rnd(&s->b.rng) % 4) * line + cohkit_unit_rnd(&s->b.rng) % line;
        else if (pat < 60)
            a = cohkit_unit_rnd(&s->b.rng);
        else if (pat < 75)
            a = (base & ~(line - 1)) + (cohkit_unit_rnd(&s->b.rng) % 6) * line + line - 1 - cohkit_unit_rnd(&s->b.rng) % 16;
        else if (pat < 85)
            a = base;
        else
            a = am - cohkit_unit_rnd(&s->b.rng) % (3 * line);
        ld->addr[i] = a & am;
    }
}

static void present(bgu_stim *s)
{
    s->have = 1;
}

static const unsigned sched_valid[] = {100, 80, 50, 20}, sched_ready[] = {100, 70, 30, 100};
static const cohkit_unit_bp_sched sched = COHKIT_UNIT_BP_SCHED(sched_valid, sched_ready);

static void stim_drive(void *p, uint64_t cyc, uint64_t *in)
{
    bgu_stim *s = p;
    const dualopt_bgu_geom *g = &s->g;
    int live = (int)(in[0] & 1);
    if (s->b.kind == KIND_MIXED && (cyc & 1023) == 0) {
        cohkit_unit_bp_draw(&sched, &s->b.rng, &s->b.bp);
    }
    if (live && !s->have && cohkit_unit_pct(&s->b.rng) < s->b.bp.valid) {
        if (s->b.kind == KIND_TRACE) {
            if (s->inst < s->tr.n) {
                s->cur = s->tr.r[s->inst];
                present(s);
            }
        } else {
            rand_load(s, &s->cur, s->b.kind == KIND_FULL);
            present(s);
        }
    }
    memset(in + 1, 0, (g->in_words - 1) * sizeof *in);
    if (s->have) {
        dualopt_bgu_pack(&s->pack, &s->cur, in);
    } else if (s->b.kind != KIND_TRACE && cohkit_unit_pct(&s->b.rng) < 50) {
        /* idle: a payload without valid must not matter */
        dualopt_bgu_load junk;
        rand_load(s, &junk, 0);
        dualopt_bgu_pack(&s->pack, &junk, in);
        in[g->in_valid] = 0;
    }
    in[g->in_ready] = cohkit_unit_pct(&s->b.rng) < s->b.bp.ready;
}

/* A held load's end: its requests all seen; timed when never
 * back-pressured (k requests in the k cycles after its acceptance). */
static void held_done(bgu_stim *s, uint64_t cyc)
{
    if (s->got != s->nexp)
        s->func_bad++;
    if (!s->stalled) {
        s->timed++;
        s->timed_exact += s->nexp == 0 || cyc - s->acc_cyc == s->nexp;
        s->timed_first1 += s->nexp == 0 || s->first_req_cyc == s->acc_cyc + 1;
    }
    s->held = 0;
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    bgu_stim *s = p;
    const dualopt_bgu_geom *g = &s->g;
    int valid = (int)(in[g->in_valid] & 1), ready = (int)(in[g->in_ready] & 1);
    int rvalid = (int)(out[DUALOPT_BGU_O_REQ_VALID] & 1);
    if (!(in[0] & 1))
        return;
    if (valid || rvalid)
        s->busy_cycles++;
    if (rvalid && !s->held)
        s->func_bad++; /* a request with no load held */
    if (rvalid && !ready)
        s->stalled = 1;
    if (rvalid && ready && s->held) {
        dualopt_bgu_req r;
        r.line = out[DUALOPT_BGU_O_REQ_LINE];
        r.mask = out[DUALOPT_BGU_O_REQ_MASK];
        r.lanes = out[DUALOPT_BGU_O_REQ_LANES];
        if (s->got >= s->nexp || r.line != s->exp[s->got].line || r.mask != s->exp[s->got].mask ||
            r.lanes != s->exp[s->got].lanes ||
            (out[DUALOPT_BGU_O_REQ_LAST] & 1) != (s->got + 1 == s->nexp))
            s->func_bad++;
        if (s->got == 0)
            s->first_req_cyc = cyc;
        s->got++;
        s->reqs++;
        if (s->b.out)
            print_req(s->b.out, &s->c, g, s->inst - 1, &r);
        if (out[DUALOPT_BGU_O_REQ_LAST] & 1)
            held_done(s, cyc);
    }
    if (valid && (out[DUALOPT_BGU_O_INST_READY] & 1)) {
        uint64_t cross = 0;
        unsigned i;
        if (s->held)
            s->func_bad++; /* accepted before the held load's last request */
        for (i = 0; i < s->c.lanes; i++)
            if ((s->cur.active >> i) & 1) {
                uint64_t off = s->cur.addr[i] & (s->c.line - 1);
                cross |= (uint64_t)(off + s->cur.size > s->c.line) << i;
            }
        s->crossing += (uint64_t)__builtin_popcountll(cross);
        s->lanes_active += (uint64_t)__builtin_popcountll(s->cur.active);
        s->nexp = dualopt_bgu_inst(&s->c, &s->cur, s->exp);
        s->got = 0;
        s->stalled = 0;
        s->acc_cyc = cyc;
        s->held = 1;
        s->inst++;
        s->have = 0;
        if (s->nexp == 0)
            held_done(s, cyc);
    }
}

static int stim_done(const void *p, const void *tm)
{
    const bgu_stim *s = p;
    (void)tm;
    return s->inst == s->tr.n && !s->have && !s->held;
}

static uint64_t stim_limit(const void *p)
{
    const bgu_stim *s = p;
    return 100 + (uint64_t)(s->tr.n + 1) * (2 * s->c.lanes + 2) * 16;
}

static void stim_summary(const void *p, const void *tm, uint64_t cycles, FILE *f, const char *c)
{
    const bgu_stim *s = p;
    (void)tm;
    fprintf(f, "%scycles %llu  loads %llu  active lanes %llu (line-crossing %llu)  requests %llu"
               "  (%.2f per load)\n",
            c, (unsigned long long)cycles, (unsigned long long)s->inst,
            (unsigned long long)s->lanes_active, (unsigned long long)s->crossing,
            (unsigned long long)s->reqs, s->inst ? (double)s->reqs / (double)s->inst : 0.0);
    fprintf(f, "%sfunctional check: %llu requests against dualopt_bgu_inst(), %llu differ\n", c,
            (unsigned long long)s->reqs, (unsigned long long)s->func_bad);
    fprintf(f, "%sthroughput: %llu loads never back-pressured: %llu took exactly max(k,1) cycles "
               "for k lines, %llu had their first request in the cycle after they were accepted\n",
            c, (unsigned long long)s->timed, (unsigned long long)s->timed_exact,
            (unsigned long long)s->timed_first1);
    fprintf(f, "%srequests per cycle with a load presented or held %.3f\n", c,
            s->busy_cycles ? (double)s->reqs / (double)s->busy_cycles : 0.0);
}

/* ------------------------------------------------------------ trace tool */

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    const dualopt_bgu_cfg *c = cfg;
    dualopt_bgu_geom g;
    bgu_trace t;
    dualopt_bgu_req req[2 * DUALOPT_BGU_LANES_MAX];
    char err[300];
    size_t i;
    uint64_t lanes = 0, reqs = 0, words = 0;
    dualopt_bgu_geom_of(c, &g);
    if (trace_read(in, c, &t, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    for (i = 0; i < t.n; i++) {
        unsigned n = dualopt_bgu_inst(c, &t.r[i], req), k;
        lanes += (uint64_t)__builtin_popcountll(t.r[i].active);
        for (k = 0; k < n; k++) {
            print_req(out, c, &g, i, &req[k]);
            words += (uint64_t)__builtin_popcountll(req[k].mask);
        }
        reqs += n;
    }
    if (fl && fl[FLAG_STATS])
        fprintf(out, "# loads %zu lanes %llu requests %llu words %llu\n", t.n,
                (unsigned long long)lanes, (unsigned long long)reqs, (unsigned long long)words);
    free(t.r);
    return 0;
}

const cohkit_unit_desc dualopt_bgu_unit = {
    .name = "dualopt-bgu",
    .family = "dualopt",
    .title = "DualOpt BGU beside the CU coalescer: one request per line, word and lane masks "
             "(Belayneh et al., 4.1.1, Fig. 7b)",
    .model_ref = "cmodel/dualopt/dualopt_bgu.c dualopt_bgu_eval() / dualopt_bgu_step() (timing), dualopt_bgu_inst() (function)",
    .cfg_size = sizeof(dualopt_bgu_cfg),
    .presets = presets,
    .committed = presets,
    .module_prefix = "dualopt_bgu",
    .opts = &dualopt_bgu_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "LD <size> <addr|-> [<addr|-> ...]: one wavefront load, token i = lane i's\n"
                  "byte address (hex) or '-' (inactive), size 1, 2, 4, 8, 12 or 16; '#' comments;\n"
                  "output per request, in issue order: REQ <inst> <line-addr> <mask> <lane-mask>",
    COHKIT_UNIT_STIM_FIELDS,
};
