/*
 * The STC BSQ as a registry unit (cmodel/unit.h): port table, timing-shell
 * adapters, stimulus of the lockstep bench and the trace tool
 * (`cohmodel stc-bsq`, STC specification 7.2). Model: cmodel/stc/stc_bsq.c.
 */
#include <stdlib.h>
#include <string.h>

#include "stc_bsq.h"
#include "unit_trace.h"
#include "stc_cutr.h"
#include "unit_adapt.h"

static const char *const presets[] = {"default", "fpga", NULL};
static const char *const streams[] = {"mixed", "fill", NULL};


COHKIT_UNIT_PORTS_BEGIN(stc_bsq_cfg, stc_bsq_geom, stc_bsq_geom_of, c)
#include "stc_bsq_ports.def"
COHKIT_UNIT_PORTS_END

COHKIT_UNIT_ADAPTERS(stc_bsq, stc_bsq_cfg, stc_bsq_tm, uint64_t, uint64_t, stc_bsq_tm_new, stc_bsq_tm_free,
                 stc_bsq_tm_reset, stc_bsq_tm_eval, stc_bsq_tm_step)

/* ---------------------------------------------------------------- trace -- */

enum { REC_PUSH, REC_CHG };

typedef struct {
    int kind;
    uint64_t addr;
    stc_eset cer;
    unsigned seb;
} bsq_rec;

typedef struct {
    bsq_rec *r;
    size_t n;
} bsq_trace;

static int parse_rec(cohkit_trace_reader *rd, const void *ctx, void *rec)
{
    const stc_bsq_cfg *c = ctx;
    bsq_rec *r = rec;
    if (strcmp(rd->first, "PUSH") == 0) {
        r->kind = REC_PUSH;
        if (cohkit_trace_addr(rd, "address", c->addr_bits, &r->addr))
            return -1;
    } else if (strcmp(rd->first, "CHG") == 0) {
        r->kind = REC_CHG;
        if (stc_cutr_eset(rd, c->n, &r->cer) ||
            cohkit_trace_num(rd, "seb", c->seb_min, c->seb_max, &r->seb))
            return -1;
    } else {
        return cohkit_trace_fail(rd, "unknown record '%s'", rd->first);
    }
    return cohkit_trace_end(rd);
}

COHKIT_TRACE_READ_FN(trace_read, stc_bsq_cfg, bsq_trace, parse_rec)

/* ------------------------------------------------------------- stimulus -- */

enum { KIND_MIXED, KIND_FILL, KIND_TRACE };

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    stc_bsq_cfg c;
    stc_bsq_layout l;
    unsigned p_chg;
    stc_bsq *mirror;          /* functional core fed the same transactions */
    stc_bsq_entry *exp;       /* expected drains of the running scan       */
    unsigned nexp, iexp, exp_cycles;
    int in_scan;              /* a CHG was accepted, done not yet taken    */
    int have_push;
    uint64_t push_addr;
    int have_chg;
    stc_eset chg_cer;
    unsigned chg_seb;
    bsq_trace tr;
    size_t tnext;
    uint64_t pushes, fulls, chgs, drained, beats, func_bad, max_pass, beat_cycles;
} bsq_stim;

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    bsq_stim *s = p;
    s->c = *(const stc_bsq_cfg *)cfg;
    stc_bsq_port_layout(&s->c, &s->l);
    s->mirror = stc_bsq_new(&s->c);
    s->exp = calloc(s->c.entries, sizeof *s->exp);
    s->b.bp.valid = 60;
    s->b.bp.ready = 70;
    s->p_chg = 2;
    if (s->mirror == NULL || s->exp == NULL)
        return snprintf(err, len, "out of memory"), -1;
    if (s->b.trace && trace_read(a->trace, &s->c, &s->tr, err, len) != 0)
        return cohkit_unit_stim_trace_err(a, err, len);
    return 0;
}

static void stim_free(void *p)
{
    bsq_stim *s = p;
    if (s) {
        stc_bsq_free(s->mirror);
        free(s->exp);
        free(s->tr.r);
        free(s);
    }
}

COHKIT_UNIT_STIM_NEW(bsq_stim, 0x51ed27ull)

static uint64_t rand_addr(bsq_stim *s)
{
    /* a few bands, so that scans both drain and keep */
    uint64_t a = cohkit_unit_rnd(&s->b.rng) & mask64(s->c.addr_bits);
    unsigned band = (unsigned)(cohkit_unit_rnd(&s->b.rng) % (cohkit_unit_pct(&s->b.rng) < 70 ? 4 : (1u << s->c.n)));
    unsigned seb = s->c.seb;
    if (seb + s->c.n <= s->c.addr_bits && seb < 64) {
        a &= ~(mask64(s->c.n) << seb);
        a |= (uint64_t)band << seb;
    }
    return a & ~3ull;
}

static void rand_chg(bsq_stim *s)
{
    unsigned k = 1 + (unsigned)(cohkit_unit_rnd(&s->b.rng) % 4), ep = 1u << s->c.n;
    stc_eset_clear(&s->chg_cer);
    for (unsigned i = 0; i < k; i++)
        stc_eset_add(&s->chg_cer, (unsigned)(cohkit_unit_rnd(&s->b.rng) % (cohkit_unit_pct(&s->b.rng) < 70 ? 4 : ep)));
    /* mostly the SEB the addresses were made for, sometimes any in range */
    s->chg_seb = cohkit_unit_pct(&s->b.rng) < 80 ? s->c.seb
                                   : s->c.seb_min + (unsigned)(cohkit_unit_rnd(&s->b.rng) %
                                                               (s->c.seb_max - s->c.seb_min + 1));
    s->have_chg = 1;
}

static void put_eset(uint64_t *w, const stc_eset *e, unsigned n)
{
    for (unsigned i = 0; i < (1u << n); i++)
        if (stc_eset_has(e, i))
            w[i / 64] |= 1ull << (i % 64);
}

static const unsigned sched_valid[] = {90, 60, 30, 100}, sched_ready[] = {100, 70, 30, 50};
static const cohkit_unit_bp_sched sched = COHKIT_UNIT_BP_SCHED(sched_valid, sched_ready);

static void stim_drive(void *p, uint64_t cyc, uint64_t *in)
{
    bsq_stim *s = p;
    const stc_bsq_layout *l = &s->l;
    int live = (int)(in[0] & 1);
    memset(in + 1, 0, (l->in_words - 1) * sizeof *in);
    if (s->b.kind == KIND_TRACE) {
        if (live && !s->have_push && !s->have_chg && !s->in_scan && s->tnext < s->tr.n &&
            cohkit_unit_pct(&s->b.rng) < 80) {
            const bsq_rec *r = &s->tr.r[s->tnext++];
            if (r->kind == REC_PUSH) {
                if (stc_bsq_full(s->mirror)) {
                    /* the RTL's full_o agrees with the mirror every cycle
                     * (checked in stim_observe); a refused store is dropped */
                    if (s->b.out)
                        fprintf(s->b.out, "FULL 0x%llx\n", (unsigned long long)r->addr);
                    s->fulls++;
                } else {
                    s->have_push = 1;
                    s->push_addr = r->addr;
                }
            } else {
                s->have_chg = 1;
                s->chg_cer = r->cer;
                s->chg_seb = r->seb;
            }
        }
        s->b.bp.ready = 60;
    } else {
        if ((cyc & 511) == 0) {
            cohkit_unit_bp_draw(&sched, &s->b.rng, &s->b.bp);
            s->p_chg = s->b.kind == KIND_FILL ? 1 : 1 + (unsigned)(cohkit_unit_rnd(&s->b.rng) % 6);
        }
        if (live && !s->have_push && cohkit_unit_pct(&s->b.rng) < s->b.bp.valid) {
            s->have_push = 1;
            s->push_addr = rand_addr(s);
        }
        if (live && !s->have_chg && !s->in_scan) {
            int want = s->b.kind == KIND_FILL ? stc_bsq_full(s->mirror) && cohkit_unit_pct(&s->b.rng) < 20
                                            : cohkit_unit_pct(&s->b.rng) < s->p_chg;
            if (want)
                rand_chg(s);
        }
        if (!s->have_chg && cohkit_unit_pct(&s->b.rng) < 20) { /* ignored without valid */
            in[l->in_word[STC_BSQ_I_CHG_CER]] = cohkit_unit_rnd(&s->b.rng);
            in[l->in_word[STC_BSQ_I_CHG_SEB]] = cohkit_unit_rnd(&s->b.rng) & mask64(l->in_width[STC_BSQ_I_CHG_SEB]);
        }
        if (!s->have_push)
            in[l->in_word[STC_BSQ_I_PUSH_ADDR]] = cohkit_unit_rnd(&s->b.rng) & mask64(s->c.addr_bits);
    }
    if (s->have_push) {
        in[l->in_word[STC_BSQ_I_PUSH_VALID]] = 1;
        in[l->in_word[STC_BSQ_I_PUSH_ADDR]] = s->push_addr;
    }
    if (s->have_chg) {
        in[l->in_word[STC_BSQ_I_CHG_VALID]] = 1;
        memset(in + l->in_word[STC_BSQ_I_CHG_CER], 0,
               ((l->in_width[STC_BSQ_I_CHG_CER] + 63) / 64) * sizeof *in);
        put_eset(in + l->in_word[STC_BSQ_I_CHG_CER], &s->chg_cer, s->c.n);
        in[l->in_word[STC_BSQ_I_CHG_SEB]] = s->chg_seb;
    }
    in[l->in_word[STC_BSQ_I_DRN_READY]] = cohkit_unit_pct(&s->b.rng) < s->b.bp.ready;
    in[l->in_word[STC_BSQ_I_DONE_READY]] = cohkit_unit_pct(&s->b.rng) < s->b.bp.ready;
}

static uint64_t get_bits(const uint64_t *w, unsigned pos, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++)
        v |= ((w[(pos + i) / 64] >> ((pos + i) % 64)) & 1ull) << i;
    return v;
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    bsq_stim *s = p;
    const stc_bsq_layout *l = &s->l;
    (void)cyc;
    if (!(in[0] & 1))
        return;
    /* between scans the RTL's occupancy equals the core's (a scan drains
     * in the core at once, in the RTL beat by beat) */
    if (!s->in_scan &&
        ((unsigned)(out[l->out_word[STC_BSQ_O_FULL]] & 1) != (unsigned)stc_bsq_full(s->mirror) ||
         out[l->out_word[STC_BSQ_O_COUNT]] != stc_bsq_count(s->mirror)))
        s->func_bad++;
    if ((out[l->out_word[STC_BSQ_O_DRN_VALID]] & 1) && (in[l->in_word[STC_BSQ_I_DRN_READY]] & 1)) {
        unsigned lanes = s->c.banks * s->c.drain;
        unsigned row = (unsigned)out[l->out_word[STC_BSQ_O_DRN_ROW]];
        s->beats++;
        for (unsigned j = 0; j < lanes; j++) {
            if (!get_bits(out + l->out_word[STC_BSQ_O_DRN_MASK], j, 1))
                continue;
            uint64_t a = get_bits(out + l->out_word[STC_BSQ_O_DRN_ADDR], j * s->c.addr_bits,
                                  s->c.addr_bits);
            const stc_bsq_entry *x = s->iexp < s->nexp ? &s->exp[s->iexp] : NULL;
            if (x == NULL || x->addr != a || x->cycle != row + 1 || x->bank != j / s->c.drain)
                s->func_bad++;
            s->iexp++;
            s->drained++;
            if (s->b.out)
                fprintf(s->b.out, "DRN 0x%llx %u\n", (unsigned long long)a, row + 1);
        }
    }
    if ((out[l->out_word[STC_BSQ_O_DONE_VALID]] & 1) && (in[l->in_word[STC_BSQ_I_DONE_READY]] & 1)) {
        unsigned cycles = (unsigned)out[l->out_word[STC_BSQ_O_DONE_CYCLES]];
        if (!s->in_scan || s->iexp != s->nexp || cycles != s->exp_cycles)
            s->func_bad++;
        if (cycles > s->max_pass)
            s->max_pass = cycles;
        if (s->b.out)
            fprintf(s->b.out, "SCAN %u %llu\n", cycles,
                    (unsigned long long)out[l->out_word[STC_BSQ_O_COUNT]]);
        s->in_scan = 0;
    }
    if (s->have_push && (out[l->out_word[STC_BSQ_O_PUSH_READY]] & 1)) {
        stc_bsq_push_res r = stc_bsq_push(s->mirror, s->push_addr);
        if (!r.accepted || r.bank != out[l->out_word[STC_BSQ_O_PUSH_BANK]] ||
            r.slot != out[l->out_word[STC_BSQ_O_PUSH_SLOT]])
            s->func_bad++;
        if (s->b.out)
            fprintf(s->b.out, "ACC 0x%llx %llu\n", (unsigned long long)s->push_addr,
                    (unsigned long long)out[l->out_word[STC_BSQ_O_PUSH_BANK]]);
        s->pushes++;
        s->have_push = 0;
    }
    if (s->have_chg && (out[l->out_word[STC_BSQ_O_CHG_READY]] & 1)) {
        stc_bsq_scan_res r = stc_bsq_scan(s->mirror, &s->chg_cer, s->chg_seb, s->exp, NULL);
        s->nexp = r.drained;
        s->iexp = 0;
        s->exp_cycles = r.cycles;
        s->in_scan = 1;
        s->have_chg = 0;
        s->chgs++;
    }
}

static int stim_done(const void *p, const void *tm)
{
    const bsq_stim *s = p;
    (void)tm;
    return s->tnext == s->tr.n && !s->have_push && !s->have_chg && !s->in_scan;
}

static uint64_t stim_limit(const void *p)
{
    const bsq_stim *s = p;
    stc_bsq_geom g;
    stc_bsq_geom_of(&s->c, &g);
    return 200 + (uint64_t)(s->tr.n + 1) * (40 + 4 * (uint64_t)g.rows);
}

static void stim_summary(const void *p, const void *tm, uint64_t cycles, FILE *f, const char *c)
{
    const bsq_stim *s = p;
    (void)tm;
    fprintf(f, "%scycles %llu  pushes %llu  refused (trace) %llu  scans %llu  beats %llu  drained %llu  longest pass %llu\n",
            c, (unsigned long long)cycles, (unsigned long long)s->pushes,
            (unsigned long long)s->fulls, (unsigned long long)s->chgs,
            (unsigned long long)s->beats, (unsigned long long)s->drained,
            (unsigned long long)s->max_pass);
    fprintf(f, "%sfunctional check: pushes, drains and passes against stc_bsq_push/scan, %llu differ\n",
            c, (unsigned long long)s->func_bad);
}

/* ----------------------------------------------------------- trace tool -- */

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    const stc_bsq_cfg *c = cfg;
    bsq_trace t;
    char err[300];
    stc_bsq *q;
    stc_bsq_entry *drn;
    (void)fl;
    if (trace_read(in, c, &t, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    q = stc_bsq_new(c);
    drn = calloc(c->entries, sizeof *drn);
    if (q == NULL || drn == NULL) {
        fprintf(errf, "cohmodel: out of memory\n");
        stc_bsq_free(q);
        free(drn);
        free(t.r);
        return 2;
    }
    for (size_t i = 0; i < t.n; i++) {
        const bsq_rec *r = &t.r[i];
        if (r->kind == REC_PUSH) {
            stc_bsq_push_res p = stc_bsq_push(q, r->addr);
            if (p.accepted)
                fprintf(out, "ACC 0x%llx %u\n", (unsigned long long)r->addr, p.bank);
            else
                fprintf(out, "FULL 0x%llx\n", (unsigned long long)r->addr);
        } else {
            stc_bsq_scan_res s = stc_bsq_scan(q, &r->cer, r->seb, drn, NULL);
            for (unsigned k = 0; k < s.drained; k++)
                fprintf(out, "DRN 0x%llx %u\n", (unsigned long long)drn[k].addr, drn[k].cycle);
            fprintf(out, "SCAN %u %u\n", s.cycles, s.left);
        }
    }
    stc_bsq_free(q);
    free(drn);
    free(t.r);
    return 0;
}

const cohkit_unit_desc stc_bsq_unit = {
    .name = "stc-bsq",
    .family = "stc",
    .title = "STC blocked store queue: banked RAM, round-robin allocation, re-scan at every "
             "ChangeEpoch (TACO 2023, 4.2, 7.2, Table 4)",
    .model_ref = "cmodel/stc/stc_bsq.c stc_bsq_tm_eval() / stc_bsq_tm_step() (timing), "
                 "stc_bsq_push() / stc_bsq_scan() (function)",
    .cfg_size = sizeof(stc_bsq_cfg),
    .presets = presets,
    .committed = presets,
    .module_prefix = "stc_bsq",
    .opts = &stc_bsq_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = NULL,
    .trace_help = "PUSH <addr> -> ACC <addr> <bank> | FULL <addr>; CHG <epochs> <seb> ->\n"
                  "DRN <addr> <cycle> per drained entry (cycle, bank, age), then\n"
                  "SCAN <cycles> <entries left>",
    COHKIT_UNIT_STIM_FIELDS,
};
