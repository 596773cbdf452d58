/*
 * The DualOpt SCBU as a registry unit (cmodel/unit.h): port table, timing
 * shell adapters, stimulus sources of the lockstep bench and the trace tool
 * (`cohmodel dualopt-scbu`, DualOpt specification section 4.2). The model
 * is cmodel/dualopt/dualopt_scbu.c.
 */
#include <stdlib.h>
#include <string.h>

#include "dualopt_scbu.h"
#include "unit_trace.h"
#include "unit_adapt.h"

static const char *const presets[] = {"default", "fpga", NULL};
static const char *const streams[] = {"mixed", "boundary", NULL};

COHKIT_UNIT_ADAPTERS(dualopt_scbu, dualopt_scbu_cfg, dualopt_scbu_tm, uint64_t, uint64_t, dualopt_scbu_tm_new, dualopt_scbu_tm_free, dualopt_scbu_tm_reset,
                 dualopt_scbu_eval, dualopt_scbu_step)

COHKIT_UNIT_PORTS_BEGIN_CFG(dualopt_scbu_cfg)
#include "dualopt_scbu_ports.def"
COHKIT_UNIT_PORTS_END

/* ----------------------------------------------------------------- trace */

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

enum { REC_ACC, REC_CFG, REC_EN };

typedef struct {
    int kind;
    unsigned op;          /* REC_ACC: dualopt_scbu_op; REC_EN: 0/1 */
    uint64_t a, b;        /* address, or start and end     */
} scbu_rec;

typedef struct {
    scbu_rec *r;
    size_t n;
} scbu_trace;

static int parse_rec(cohkit_trace_reader *rd, const void *ctx, void *rec)
{
    const dualopt_scbu_cfg *c = ctx;
    scbu_rec *r = rec;
    const char *tok = rd->first;
    uint64_t amax = mask64(c->addr_bits), top = 1ull << c->addr_bits;
    if (strcmp(tok, "RD") == 0 || strcmp(tok, "WR") == 0 || strcmp(tok, "AT") == 0) {
        r->kind = REC_ACC;
        r->op = tok[0] == 'R' ? DUALOPT_SCBU_RD : tok[0] == 'W' ? DUALOPT_SCBU_WR : DUALOPT_SCBU_AT;
        if (cohkit_trace_addr_max(rd, "address", amax, &r->a))
            return -1;
    } else if (strcmp(tok, "CFG") == 0) {
        r->kind = REC_CFG;
        if (cohkit_trace_addr_max(rd, "start", top, &r->a) ||
            cohkit_trace_addr_max(rd, "end", top, &r->b))
            return -1;
        if (r->b < r->a)
            return cohkit_trace_fail(rd, "end 0x%llx is below start 0x%llx",
                                     (unsigned long long)r->b, (unsigned long long)r->a);
    } else if (strcmp(tok, "EN") == 0) {
        r->kind = REC_EN;
        tok = cohkit_trace_arg(rd);
        if (tok == NULL || (strcmp(tok, "0") != 0 && strcmp(tok, "1") != 0))
            return cohkit_trace_fail(rd, "EN needs 0 or 1");
        r->op = (unsigned)(tok[0] - '0');
    } else {
        return cohkit_trace_fail(rd, "unknown record '%s'", tok);
    }
    return cohkit_trace_end(rd);
}

COHKIT_TRACE_READ_FN(trace_read, dualopt_scbu_cfg, scbu_trace, parse_rec)

static void print_res(FILE *f, uint64_t addr, unsigned local, unsigned bypass)
{
    fprintf(f, "%s 0x%llx %s\n", local ? "LOCAL" : "REMOTE", (unsigned long long)addr,
            bypass ? "BYPASS" : "L1");
}

/* -------------------------------------------------------------- stimulus */

enum { FLAG_STATS = 0 };
static const cohkit_unit_flag flags[] = {
    {"stats", NULL, "cohmodel: add '# accesses N local L remote R bypassed B' at the end"},
    {NULL, NULL, NULL},
};

enum { KIND_MIXED, KIND_BOUNDARY, KIND_TRACE };

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    dualopt_scbu_cfg c;
    dualopt_scbu mirror;          /* the core, fed the same writes          */
    int have;
    unsigned q_op;
    uint64_t q_addr;
    int exp_valid;        /* the result the output stage must hold  */
    dualopt_scbu_res exp;
    uint64_t exp_addr;
    unsigned exp_op;
    scbu_trace tr;
    size_t tnext;
    uint64_t acc, res, local, bypass, func_bad, cfgs, ens;
} scbu_stim;

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    scbu_stim *s = p;
    s->c = *(const dualopt_scbu_cfg *)cfg;
    dualopt_scbu_init(&s->mirror, &s->c);
    if (s->b.trace && trace_read(a->trace, &s->c, &s->tr, err, len) != 0)
        return cohkit_unit_stim_trace_err(a, err, len);
    return 0;
}

static void stim_free(void *p)
{
    scbu_stim *s = p;
    if (s) {
        free(s->tr.r);
        free(s);
    }
}

COHKIT_UNIT_STIM_NEW(scbu_stim, 0x3c6ef372ull)

/* An address near the range's edges (start - 2 .. start + 1, end - 2 ..
 * end + 1), inside, outside, or anywhere. */
static uint64_t rand_addr(scbu_stim *s)
{
    uint64_t am = mask64(s->c.addr_bits), r = cohkit_unit_pct(&s->b.rng);
    uint64_t st = s->mirror.start, en = s->mirror.end;
    int boundary = s->b.kind == KIND_BOUNDARY ? r < 90 : r < 40;
    if (boundary)
        return ((cohkit_unit_pct(&s->b.rng) < 50 ? st : en) + cohkit_unit_rnd(&s->b.rng) % 4 - 2) & am;
    if (r < 70 && en > st)
        return (st + cohkit_unit_rnd(&s->b.rng) % (en - st)) & am;
    return cohkit_unit_rnd(&s->b.rng) & am;
}

static uint64_t rand_range_value(scbu_stim *s)
{
    unsigned rb = s->c.addr_bits + 1, r = cohkit_unit_pct(&s->b.rng);
    if (r < 30) /* GB-aligned, as a flat multi-GPU space gives */
        return (cohkit_unit_rnd(&s->b.rng) % 8) << (s->c.addr_bits > 34 ? 32 : s->c.addr_bits - 3);
    if (r < 40)
        return 1ull << s->c.addr_bits;
    if (r < 45)
        return 0;
    return cohkit_unit_rnd(&s->b.rng) & mask64(r < 95 ? rb - 1 : rb);
}

static const unsigned sched_valid[] = {100, 80, 50, 20}, sched_ready[] = {100, 70, 30, 100};
static const cohkit_unit_bp_sched sched = COHKIT_UNIT_BP_SCHED(sched_valid, sched_ready);

static void stim_drive(void *p, uint64_t cyc, uint64_t *in)
{
    scbu_stim *s = p;
    int live = (int)(in[0] & 1);
    uint64_t rm = mask64(s->c.addr_bits + 1);
    memset(in + 1, 0, (DUALOPT_SCBU_I_N - 1) * sizeof *in);
    if (s->b.kind == KIND_TRACE) {
        if (live && !s->have && s->tnext < s->tr.n && cohkit_unit_pct(&s->b.rng) < s->b.bp.valid) {
            const scbu_rec *r = &s->tr.r[s->tnext++];
            if (r->kind == REC_CFG) {
                in[DUALOPT_SCBU_I_CFG_VALID] = 1;
                in[DUALOPT_SCBU_I_CFG_START] = r->a;
                in[DUALOPT_SCBU_I_CFG_END] = r->b;
            } else if (r->kind == REC_EN) {
                in[DUALOPT_SCBU_I_EN_VALID] = 1;
                in[DUALOPT_SCBU_I_EN_COALESCE] = r->op;
            } else {
                s->have = 1;
                s->q_op = r->op;
                s->q_addr = r->a;
            }
        }
    } else {
        if (s->b.kind == KIND_MIXED && (cyc & 1023) == 0) {
            cohkit_unit_bp_draw(&sched, &s->b.rng, &s->b.bp);
        }
        if (live && !s->have && cohkit_unit_pct(&s->b.rng) < s->b.bp.valid) {
            unsigned r = cohkit_unit_pct(&s->b.rng);
            s->have = 1;
            s->q_op = r < 55 ? DUALOPT_SCBU_RD : r < 80 ? DUALOPT_SCBU_WR : r < 97 ? DUALOPT_SCBU_AT : 3;
            s->q_addr = rand_addr(s);
        }
        /* register writes at any time, also beside an access */
        if (cohkit_unit_pct(&s->b.rng) < 2) {
            in[DUALOPT_SCBU_I_CFG_VALID] = 1;
            in[DUALOPT_SCBU_I_CFG_START] = rand_range_value(s);
            in[DUALOPT_SCBU_I_CFG_END] = cohkit_unit_pct(&s->b.rng) < 80 ? (in[DUALOPT_SCBU_I_CFG_START] + (cohkit_unit_rnd(&s->b.rng) %
                                                     (1ull << (s->c.addr_bits - 2)))) & rm
                                                   : rand_range_value(s);
        } else if (cohkit_unit_pct(&s->b.rng) < 30) {
            in[DUALOPT_SCBU_I_CFG_START] = cohkit_unit_rnd(&s->b.rng) & rm; /* ignored without valid */
            in[DUALOPT_SCBU_I_CFG_END] = cohkit_unit_rnd(&s->b.rng) & rm;
        }
        in[DUALOPT_SCBU_I_EN_VALID] = cohkit_unit_pct(&s->b.rng) < 3;
        in[DUALOPT_SCBU_I_EN_COALESCE] = cohkit_unit_pct(&s->b.rng) < 60;
    }
    in[DUALOPT_SCBU_I_ACC_VALID] = (uint64_t)s->have;
    if (s->have) {
        in[DUALOPT_SCBU_I_ACC_OP] = s->q_op;
        in[DUALOPT_SCBU_I_ACC_ADDR] = s->q_addr;
    } else if (s->b.kind != KIND_TRACE) {
        in[DUALOPT_SCBU_I_ACC_OP] = cohkit_unit_rnd(&s->b.rng) & 3;
        in[DUALOPT_SCBU_I_ACC_ADDR] = cohkit_unit_rnd(&s->b.rng) & mask64(s->c.addr_bits);
    }
    in[DUALOPT_SCBU_I_RES_READY] = cohkit_unit_pct(&s->b.rng) < s->b.bp.ready;
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    scbu_stim *s = p;
    (void)cyc;
    if ((out[DUALOPT_SCBU_O_RES_VALID] & 1) && (in[DUALOPT_SCBU_I_RES_READY] & 1)) {
        unsigned loc = (unsigned)(out[DUALOPT_SCBU_O_RES_LOCAL] & 1), byp = (unsigned)(out[DUALOPT_SCBU_O_RES_BYPASS] & 1);
        if (!s->exp_valid || loc != s->exp.local || byp != s->exp.bypass ||
            out[DUALOPT_SCBU_O_RES_ADDR] != s->exp_addr || out[DUALOPT_SCBU_O_RES_OP] != s->exp_op)
            s->func_bad++;
        s->exp_valid = 0;
        s->res++;
        s->local += loc;
        s->bypass += byp;
        if (s->b.out)
            print_res(s->b.out, out[DUALOPT_SCBU_O_RES_ADDR], loc, byp);
    }
    if ((in[DUALOPT_SCBU_I_ACC_VALID] & 1) && (out[DUALOPT_SCBU_O_ACC_READY] & 1)) {
        s->exp = dualopt_scbu_access(&s->mirror, (dualopt_scbu_op)s->q_op, s->q_addr);
        s->exp_addr = s->q_addr;
        s->exp_op = s->q_op;
        s->exp_valid = 1;
        s->acc++;
        s->have = 0;
    }
    if (in[DUALOPT_SCBU_I_CFG_VALID] & 1) {
        dualopt_scbu_set_range(&s->mirror, in[DUALOPT_SCBU_I_CFG_START], in[DUALOPT_SCBU_I_CFG_END]);
        s->cfgs++;
    }
    if (in[DUALOPT_SCBU_I_EN_VALID] & 1) {
        dualopt_scbu_set_mode(&s->mirror, (unsigned)(in[DUALOPT_SCBU_I_EN_COALESCE] & 1));
        s->ens++;
    }
}

static int stim_done(const void *p, const void *tmp)
{
    const scbu_stim *s = p;
    const dualopt_scbu_tm *tm = tmp;
    return s->tnext == s->tr.n && !s->have && !tm->res_valid;
}

static uint64_t stim_limit(const void *p)
{
    const scbu_stim *s = p;
    return 100 + (uint64_t)(s->tr.n + 1) * 40;
}

static void stim_summary(const void *p, const void *tm, uint64_t cycles, FILE *f, const char *c)
{
    const scbu_stim *s = p;
    (void)tm;
    fprintf(f, "%scycles %llu  accesses %llu  results %llu (local %llu, bypassed %llu)  "
               "range writes %llu  mode writes %llu\n",
            c, (unsigned long long)cycles, (unsigned long long)s->acc, (unsigned long long)s->res,
            (unsigned long long)s->local, (unsigned long long)s->bypass,
            (unsigned long long)s->cfgs, (unsigned long long)s->ens);
    fprintf(f, "%sfunctional check: %llu results against dualopt_scbu_access(), %llu differ\n", c,
            (unsigned long long)s->res, (unsigned long long)s->func_bad);
}

/* ------------------------------------------------------------ trace tool */

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    const dualopt_scbu_cfg *c = cfg;
    scbu_trace t;
    dualopt_scbu s;
    char err[300];
    size_t i;
    uint64_t n = 0, loc = 0, byp = 0;
    if (trace_read(in, c, &t, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    dualopt_scbu_init(&s, c);
    for (i = 0; i < t.n; i++) {
        const scbu_rec *r = &t.r[i];
        if (r->kind == REC_CFG) {
            dualopt_scbu_set_range(&s, r->a, r->b);
        } else if (r->kind == REC_EN) {
            dualopt_scbu_set_mode(&s, r->op);
        } else {
            dualopt_scbu_res x = dualopt_scbu_access(&s, (dualopt_scbu_op)r->op, r->a);
            print_res(out, r->a, x.local, x.bypass);
            n++;
            loc += x.local;
            byp += x.bypass;
        }
    }
    if (fl && fl[FLAG_STATS])
        fprintf(out, "# accesses %llu local %llu remote %llu bypassed %llu\n",
                (unsigned long long)n, (unsigned long long)loc, (unsigned long long)(n - loc),
                (unsigned long long)byp);
    free(t.r);
    return 0;
}

const cohkit_unit_desc dualopt_scbu_unit = {
    .name = "dualopt-scbu",
    .family = "dualopt",
    .title = "DualOpt SCBU: local range [start, end), remote reads bypass the L1 in coalescing "
             "mode (Belayneh et al., 4.1.2, Fig. 7c)",
    .model_ref = "cmodel/dualopt/dualopt_scbu.c dualopt_scbu_eval() / dualopt_scbu_step() (timing), dualopt_scbu_access() "
                 "(function)",
    .cfg_size = sizeof(dualopt_scbu_cfg),
    .presets = presets,
    .committed = presets,
    .module_prefix = "dualopt_scbu",
    .opts = &dualopt_scbu_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "RD|WR|AT <addr>; CFG <start> <end> (reprogram [start, end)); EN 0|1\n"
                  "(coalescing mode); hex addresses, '#' comments; output per access:\n"
                  "LOCAL <addr> L1 | REMOTE <addr> BYPASS | REMOTE <addr> L1",
    COHKIT_UNIT_STIM_FIELDS,
};
