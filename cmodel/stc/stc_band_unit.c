/*
 * The STC band function as a registry unit (cmodel/unit.h): port table,
 * timing shell adapters, stimulus of the lockstep bench and the trace tool
 * (`cohmodel stc-band`, STC specification 7.2: `BAND <addr> [<seb>]` ->
 * `BAND <addr> <band>`). The model is cmodel/stc/stc_band.c.
 */
#include <stdlib.h>
#include <string.h>

#include "stc_band.h"
#include "unit_trace.h"
#include "unit_adapt.h"

static const char *const presets[] = {"default", "fpga", NULL};
static const char *const streams[] = {"mixed", "fig4", NULL};


COHKIT_UNIT_PORTS_BEGIN(stc_band_cfg, stc_band_geom, stc_band_geom_of, c)
#include "stc_band_ports.def"
COHKIT_UNIT_PORTS_END

COHKIT_UNIT_ADAPTERS(stc_band, stc_band_cfg, stc_band_tm, uint64_t, uint64_t, stc_band_tm_new, stc_band_tm_free,
                 stc_band_tm_reset, stc_band_eval, stc_band_step)

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* ----------------------------------------------------------------- trace */

typedef struct {
    uint64_t addr;
    unsigned seb;
} band_rec;

typedef struct {
    band_rec *r;
    size_t n;
} band_trace;

static int parse_rec(cohkit_trace_reader *rd, const void *ctx, void *rec)
{
    const stc_band_cfg *c = ctx;
    band_rec *r = rec;
    const char *tok;
    if (strcmp(rd->first, "BAND") != 0)
        return cohkit_trace_fail(rd, "unknown record '%s'", rd->first);
    if (stc_tok_addr(cohkit_trace_arg(rd), "address", c->addr_bits, rd->lineno, &r->addr, rd->err,
                     rd->len))
        return -1;
    r->seb = c->seb;
    tok = cohkit_trace_arg(rd);
    if (tok && stc_tok_dec(tok, "seb", c->addr_bits, rd->lineno, &r->seb, rd->err, rd->len))
        return -1;
    return tok ? cohkit_trace_end(rd) : 0;
}

COHKIT_TRACE_READ_FN(trace_read, stc_band_cfg, band_trace, parse_rec)

static void print_band(FILE *f, uint64_t addr, unsigned band)
{
    fprintf(f, "BAND 0x%llx %u\n", (unsigned long long)addr, band);
}

/* -------------------------------------------------------------- stimulus */

enum { KIND_MIXED, KIND_FIG4, KIND_TRACE };

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    stc_band_cfg c;
    stc_band_geom g;
    int have;
    uint64_t q_addr;
    unsigned q_seb;
    /* expected results in order (the core on accepted inputs) */
    uint64_t exp_addr[4];
    unsigned exp_band[4], exp_n, exp_head;
    band_trace tr;
    size_t tnext;
    uint64_t acc, res, func_bad, hi_seb;
} band_stim;

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    band_stim *s = p;
    s->c = *(const stc_band_cfg *)cfg;
    stc_band_geom_of(&s->c, &s->g);
    if (s->b.trace && trace_read(a->trace, &s->c, &s->tr, err, len) != 0)
        return cohkit_unit_stim_trace_err(a, err, len);
    return 0;
}

static void stim_free(void *p)
{
    band_stim *s = p;
    if (s) {
        free(s->tr.r);
        free(s);
    }
}

COHKIT_UNIT_STIM_NEW(band_stim, 0x51ed270bull)

static const unsigned sched_valid[] = {100, 80, 50, 20}, sched_ready[] = {100, 70, 30, 100};
static const cohkit_unit_bp_sched sched = COHKIT_UNIT_BP_SCHED(sched_valid, sched_ready);

static void stim_drive(void *p, uint64_t cyc, uint64_t *in)
{
    band_stim *s = p;
    int live = (int)(in[0] & 1);
    memset(in + 1, 0, (STC_BAND_I_N - 1) * sizeof *in);
    if (s->b.kind != KIND_TRACE && (cyc & 511) == 0) {
        cohkit_unit_bp_draw(&sched, &s->b.rng, &s->b.bp);
    }
    if (live && !s->have && cohkit_unit_pct(&s->b.rng) < s->b.bp.valid) {
        if (s->b.kind == KIND_TRACE) {
            if (s->tnext < s->tr.n) {
                s->have = 1;
                s->q_addr = s->tr.r[s->tnext].addr;
                s->q_seb = s->tr.r[s->tnext].seb;
                s->tnext++;
            }
        } else {
            s->have = 1;
            if (s->b.kind == KIND_FIG4 && cohkit_unit_pct(&s->b.rng) < 60) {
                static const unsigned sebs[] = {0, 4, 12, 16, 28, 30, 32};
                s->q_addr = 0xDEADBEEFull & mask64(s->c.addr_bits);
                s->q_seb = sebs[cohkit_unit_rnd(&s->b.rng) % 7];
                if (s->q_seb > s->c.addr_bits)
                    s->q_seb = s->c.addr_bits;
            } else {
                s->q_addr = cohkit_unit_rnd(&s->b.rng) & mask64(s->c.addr_bits);
                /* SEB over the whole input range, beyond addr_bits included */
                s->q_seb = cohkit_unit_pct(&s->b.rng) < 80 ? (unsigned)(cohkit_unit_rnd(&s->b.rng) % (s->c.addr_bits + 1))
                                             : (unsigned)(cohkit_unit_rnd(&s->b.rng) & mask64(s->g.seb_bits));
            }
        }
    }
    in[STC_BAND_I_IN_VALID] = (uint64_t)s->have;
    if (s->have) {
        in[STC_BAND_I_IN_ADDR] = s->q_addr;
        in[STC_BAND_I_IN_SEB] = s->q_seb;
    } else if (s->b.kind != KIND_TRACE) {
        in[STC_BAND_I_IN_ADDR] = cohkit_unit_rnd(&s->b.rng) & mask64(s->c.addr_bits);
        in[STC_BAND_I_IN_SEB] = cohkit_unit_rnd(&s->b.rng) & mask64(s->g.seb_bits);
    }
    in[STC_BAND_I_OUT_READY] = cohkit_unit_pct(&s->b.rng) < s->b.bp.ready;
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    band_stim *s = p;
    (void)cyc;
    if ((out[STC_BAND_O_OUT_VALID] & 1) && (in[STC_BAND_I_OUT_READY] & 1)) {
        unsigned b = (unsigned)out[STC_BAND_O_OUT_BAND];
        if (s->exp_n == 0 || s->exp_band[s->exp_head] != b ||
            s->exp_addr[s->exp_head] != out[STC_BAND_O_OUT_ADDR])
            s->func_bad++;
        if (s->exp_n) {
            s->exp_head = (s->exp_head + 1) % 4;
            s->exp_n--;
        }
        s->res++;
        if (s->b.out)
            print_band(s->b.out, out[STC_BAND_O_OUT_ADDR], b);
    }
    if ((in[STC_BAND_I_IN_VALID] & 1) && (out[STC_BAND_O_IN_READY] & 1)) {
        unsigned k = (s->exp_head + s->exp_n) % 4;
        if (s->exp_n < 4) {
            s->exp_addr[k] = s->q_addr;
            s->exp_band[k] = stc_band(s->q_addr, s->q_seb, s->c.n, s->c.addr_bits);
            s->exp_n++;
        }
        s->hi_seb += s->q_seb >= s->c.addr_bits;
        s->acc++;
        s->have = 0;
    }
}

static int stim_done(const void *p, const void *tmp)
{
    const band_stim *s = p;
    const stc_band_tm *tm = tmp;
    return s->tnext == s->tr.n && !s->have && !tm->out_valid;
}

static uint64_t stim_limit(const void *p)
{
    const band_stim *s = p;
    return 100 + (uint64_t)(s->tr.n + 1) * 40;
}

static void stim_summary(const void *p, const void *tm, uint64_t cycles, FILE *f, const char *c)
{
    const band_stim *s = p;
    (void)tm;
    fprintf(f, "%scycles %llu  addresses %llu  bands %llu  (SEB >= addr bits: %llu)\n", c,
            (unsigned long long)cycles, (unsigned long long)s->acc, (unsigned long long)s->res,
            (unsigned long long)s->hi_seb);
    fprintf(f, "%sfunctional check: %llu results against stc_band(), %llu differ\n", c,
            (unsigned long long)s->res, (unsigned long long)s->func_bad);
}

/* ------------------------------------------------------------ trace tool */

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    const stc_band_cfg *c = cfg;
    band_trace t;
    char err[300];
    size_t i;
    (void)fl;
    if (trace_read(in, c, &t, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    for (i = 0; i < t.n; i++)
        print_band(out, t.r[i].addr, stc_band(t.r[i].addr, t.r[i].seb, c->n, c->addr_bits));
    free(t.r);
    return 0;
}

static const cohkit_unit_flag flags[] = {{NULL, NULL, NULL}};

const cohkit_unit_desc stc_band_unit = {
    .name = "stc-band",
    .family = "stc",
    .title = "STC band function: band(a) = (a >> SEB) & (2^N - 1) (TACO 2023, 4.2, Fig. 4)",
    .model_ref = "cmodel/stc/stc_band.c stc_band_eval() / stc_band_step() (timing), stc_band() "
                 "(function)",
    .cfg_size = sizeof(stc_band_cfg),
    .presets = presets,
    .committed = presets,
    .module_prefix = "stc_band",
    .opts = &stc_band_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "BAND <addr> [<seb>] (hex address, decimal SEB 0..addr bits, default --seb);\n"
                  "output per record: BAND <addr> <band>",
    COHKIT_UNIT_STIM_FIELDS,
};
