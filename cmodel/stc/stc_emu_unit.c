/*
 * The STC EMU as a registry unit (cmodel/unit.h): port table, timing shell
 * adapters, the stimulus of the lockstep bench (K CUs answering the
 * handshake with random delays, demands and conflicts from several CUs at
 * once, back-pressure on every channel) and the trace tool (`cohmodel
 * stc-emu`, STC specification 7.2). The model is cmodel/stc/stc_emu.c.
 */
#include <stdlib.h>
#include <string.h>

#include "stc_emu.h"
#include "unit_trace.h"
#include "unit_adapt.h"

static const char *const presets[] = {"default", "fpga", NULL};
static const char *const streams[] = {"mixed", "conflict", "idle", NULL};


COHKIT_UNIT_PORTS_BEGIN(stc_emu_cfg, stc_emu_geom, stc_emu_geom_of, c)
#include "stc_emu_ports.def"
COHKIT_UNIT_PORTS_END

COHKIT_UNIT_ADAPTERS(stc_emu, stc_emu_cfg, stc_emu_tm, uint64_t, uint64_t, stc_emu_tm_new, stc_emu_tm_free,
                 stc_emu_tm_reset, stc_emu_eval, stc_emu_step)

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* ----------------------------------------------------------------- trace */

enum { R_WAKE, R_DEM, R_CONF, R_READY, R_DONE };

typedef struct {
    int kind;
    unsigned cu;
    uint64_t addr;
} emu_rec;

typedef struct {
    emu_rec *r;
    size_t n;
} emu_trace;

static int parse_rec(cohkit_trace_reader *rd, const void *ctx, void *rec)
{
    static const char *const kw[] = {"WAKE", "DEM", "CONF", "READY", "DONE"};
    const stc_emu_cfg *c = ctx;
    emu_rec *r = rec;
    int k;
    for (k = 0; k < 5 && strcmp(rd->first, kw[k]) != 0; k++)
        ;
    if (k == 5)
        return cohkit_trace_fail(rd, "unknown record '%s'", rd->first);
    r->kind = k;
    if (k != R_WAKE && stc_tok_dec(cohkit_trace_arg(rd), "cu", c->cus - 1, rd->lineno, &r->cu,
                                   rd->err, rd->len))
        return -1;
    if ((k == R_DEM || k == R_CONF) && stc_tok_addr(cohkit_trace_arg(rd), "address", c->addr_bits,
                                                    rd->lineno, &r->addr, rd->err, rd->len))
        return -1;
    return cohkit_trace_end(rd);
}

COHKIT_TRACE_READ_FN(trace_read, stc_emu_cfg, emu_trace, parse_rec)

static void print_list(FILE *f, const char *what, const stc_elist *l, int seb)
{
    char b[STC_E_MAX * 4];
    stc_elist_format(l, b, sizeof b);
    if (seb >= 0)
        fprintf(f, "%s %s %d\n", what, b, seb);
    else
        fprintf(f, "%s %s\n", what, b);
}

/* ------------------------------------------------------------- stimulus */

enum { KIND_MIXED, KIND_CONFLICT, KIND_IDLE, KIND_TRACE };

#define DELAY_NONE 0xffffffffu

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    stc_emu_cfg c;
    stc_emu_geom g;
    unsigned in_off[STC_EMU_PORTS + 1], out_off[STC_EMU_PORTS];
    unsigned p_dem, p_conf, p_ready, p_wake, p_resp, tmr_en;
    /* per CU: held demand/conflict, handshake answers due */
    int dem_have[STC_CUS_MAX], conf_have[STC_CUS_MAX];
    uint64_t dem_addr[STC_CUS_MAX], conf_addr[STC_CUS_MAX];
    unsigned rdy_due[STC_CUS_MAX], done_due[STC_CUS_MAX];
    unsigned rdy_sent, done_sent; /* bit per CU since the broadcast */
    uint64_t hot[8];              /* demanded addresses, for conflicts */
    unsigned nhot;
    /* trace */
    emu_trace tr;
    size_t tnext;
    int busy;                     /* a record is being driven / settling */
    unsigned settle;
    unsigned last_ptr, prev_pend, prev_phase;
    /* counts */
    uint64_t preps, chgs, ends, sleeps, dems, acks, confs, nsebs, seb_changes, viol;
    unsigned max_cur;
} emu_stim;

/* Where each port's value starts in the engine's in[] and out[] vectors
 * (64-bit words; in[0] is rst_ni). */
static void port_offsets(emu_stim *s)
{
    stc_emu_port p[STC_EMU_PORTS];
    unsigned i, ni = 1, no = 0, wi = 1, wo = 0;
    int n = stc_emu_port_table(&s->c, p);
    for (i = 0; i < (unsigned)n; i++) {
        unsigned w = (p[i].width + 63) / 64;
        if (p[i].out) {
            s->out_off[no++] = wo;
            wo += w;
        } else {
            s->in_off[ni++] = wi;
            wi += w;
        }
    }
}

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    emu_stim *s = p;
    s->c = *(const stc_emu_cfg *)cfg;
    stc_emu_geom_of(&s->c, &s->g);
    port_offsets(s);
    for (unsigned i = 0; i < STC_CUS_MAX; i++)
        s->rdy_due[i] = s->done_due[i] = DELAY_NONE;
    s->p_dem = s->b.kind == KIND_IDLE ? 0 : s->b.kind == KIND_CONFLICT ? 10 : 5;
    s->p_conf = s->b.kind == KIND_IDLE ? 0 : s->b.kind == KIND_CONFLICT ? 20 : 3;
    s->p_ready = s->b.trace ? 70 : 80;
    s->p_wake = 1;
    s->p_resp = 30;
    s->tmr_en = !s->b.trace;
    s->last_ptr = s->c.epoch.e[s->c.epoch.n - 1];
    if (s->b.trace && trace_read(a->trace, &s->c, &s->tr, err, len) != 0)
        return cohkit_unit_stim_trace_err(a, err, len);
    return 0;
}

static void stim_free(void *p)
{
    emu_stim *s = p;
    if (s) {
        free(s->tr.r);
        free(s);
    }
}

COHKIT_UNIT_STIM_NEW(emu_stim, 0x2f1b7c3dull)

/* A store address: a few hot regions, differing within the band field,
 * below it (same band, other 4 KB page) or above it (bit SEB+N and up). */
static uint64_t rand_addr(emu_stim *s)
{
    unsigned A = s->c.addr_bits, r = cohkit_unit_pct(&s->b.rng);
    uint64_t base = (cohkit_unit_rnd(&s->b.rng) % 4) << (A > 20 ? A - 3 : A / 2);
    uint64_t band = cohkit_unit_rnd(&s->b.rng) % (1u << s->c.n), x = cohkit_unit_rnd(&s->b.rng);
    if (r < 15)
        return x & mask64(A);
    return (base | (band << s->c.seb) | (x & mask64(s->c.seb))) & mask64(A);
}

static uint64_t rand_conf_addr(emu_stim *s)
{
    unsigned A = s->c.addr_bits, r = cohkit_unit_pct(&s->b.rng), b;
    uint64_t w;
    if (s->nhot == 0 || r < 10)
        return rand_addr(s);
    w = s->hot[cohkit_unit_rnd(&s->b.rng) % s->nhot];
    r = cohkit_unit_pct(&s->b.rng);
    if (r < 40) { /* differs above the band field */
        b = s->c.seb + s->c.n + (unsigned)(cohkit_unit_rnd(&s->b.rng) % 4);
        return b < A ? (w ^ (1ull << b)) & mask64(A) : w;
    }
    if (r < 70) /* differs below it (at the current SEB or one lower) */
        return (w ^ (1ull << (s->c.seb > 1 ? s->c.seb - 1 - cohkit_unit_rnd(&s->b.rng) % 2 : 0))) & mask64(A);
    if (r < 85)
        return w; /* true sharing: no step */
    return (w ^ (cohkit_unit_rnd(&s->b.rng) & 0xfff)) & mask64(A);
}

static void drive_rand(emu_stim *s, uint64_t cyc, uint64_t *in, int live)
{
    unsigned K = s->c.cus, A = s->c.addr_bits, k;
    uint64_t dv = 0, cv = 0, rv = 0, dn = 0;
    if ((cyc & 1023) == 0) {
        static const unsigned pr[] = {100, 85, 50, 20}, pd[] = {2, 5, 15, 40};
        s->p_ready = pr[cohkit_unit_rnd(&s->b.rng) % 4];
        if (s->b.kind != KIND_IDLE) {
            s->p_dem = pd[cohkit_unit_rnd(&s->b.rng) % 4];
            s->p_conf = s->b.kind == KIND_CONFLICT ? 10 + pd[cohkit_unit_rnd(&s->b.rng) % 4] : pd[cohkit_unit_rnd(&s->b.rng) % 4] / 2;
        }
        s->p_wake = cohkit_unit_rnd(&s->b.rng) % 3;
        s->p_resp = 10 + (unsigned)(cohkit_unit_rnd(&s->b.rng) % 80);
        s->tmr_en = cohkit_unit_pct(&s->b.rng) < 85;
    }
    for (k = 0; k < K && live; k++) {
        if (!s->dem_have[k] && cohkit_unit_pct(&s->b.rng) < s->p_dem) {
            s->dem_have[k] = 1;
            s->dem_addr[k] = rand_addr(s);
            s->hot[s->nhot < 8 ? s->nhot++ : cohkit_unit_rnd(&s->b.rng) % 8] = s->dem_addr[k];
        }
        if (!s->conf_have[k] && cohkit_unit_pct(&s->b.rng) < s->p_conf) {
            s->conf_have[k] = 1;
            s->conf_addr[k] = rand_conf_addr(s);
        }
        if (s->dem_have[k])
            dv |= 1ull << k;
        if (s->conf_have[k])
            cv |= 1ull << k;
        stc_port_put(in + s->in_off[STC_EMU_I_DEM_ADDR], k * A, A,
                     s->dem_have[k] ? s->dem_addr[k] : cohkit_unit_rnd(&s->b.rng));
        stc_port_put(in + s->in_off[STC_EMU_I_CONF_ADDR], k * A, A,
                     s->conf_have[k] ? s->conf_addr[k] : cohkit_unit_rnd(&s->b.rng));
        if (s->rdy_due[k] != DELAY_NONE && s->rdy_due[k]-- == 0) {
            rv |= 1ull << k;
            s->rdy_due[k] = DELAY_NONE;
        } else if (cohkit_unit_pct(&s->b.rng) == 0) {
            rv |= 1ull << k; /* a stray ReadyAck: ignored outside PREPARE */
        }
        if (s->done_due[k] != DELAY_NONE && s->done_due[k]-- == 0) {
            dn |= 1ull << k;
            s->done_due[k] = DELAY_NONE;
        } else if (cohkit_unit_pct(&s->b.rng) == 0) {
            dn |= 1ull << k;
        }
    }
    in[s->in_off[STC_EMU_I_DEM_VALID]] = dv;
    in[s->in_off[STC_EMU_I_CONF_VALID]] = cv;
    in[s->in_off[STC_EMU_I_RDY_VALID]] = rv;
    in[s->in_off[STC_EMU_I_DONE_VALID]] = dn;
    in[s->in_off[STC_EMU_I_WAKE]] = live && cohkit_unit_pct(&s->b.rng) < s->p_wake;
    in[s->in_off[STC_EMU_I_TMR_EN]] = s->tmr_en;
}

static void drive_trace(emu_stim *s, uint64_t *in, int live)
{
    unsigned A = s->c.addr_bits;
    in[s->in_off[STC_EMU_I_TMR_EN]] = 0;
    if (!live)
        return;
    if (s->busy == 0 && s->tnext < s->tr.n && cohkit_unit_pct(&s->b.rng) < 80) {
        s->busy = 1;
        s->settle = 0;
    }
    if (s->busy == 1) {
        const emu_rec *r = &s->tr.r[s->tnext];
        switch (r->kind) {
        case R_WAKE:
            in[s->in_off[STC_EMU_I_WAKE]] = 1;
            break;
        case R_DEM:
            in[s->in_off[STC_EMU_I_DEM_VALID]] = 1ull << r->cu;
            stc_port_put(in + s->in_off[STC_EMU_I_DEM_ADDR], r->cu * A, A, r->addr);
            break;
        case R_CONF:
            in[s->in_off[STC_EMU_I_CONF_VALID]] = 1ull << r->cu;
            stc_port_put(in + s->in_off[STC_EMU_I_CONF_ADDR], r->cu * A, A, r->addr);
            break;
        case R_READY:
            in[s->in_off[STC_EMU_I_RDY_VALID]] = 1ull << r->cu;
            break;
        default:
            in[s->in_off[STC_EMU_I_DONE_VALID]] = 1ull << r->cu;
            break;
        }
    }
}

static void stim_drive(void *p, uint64_t cyc, uint64_t *in)
{
    emu_stim *s = p;
    unsigned K = s->c.cus, k;
    uint64_t all = mask64(K);
    int live = (int)(in[0] & 1);
    unsigned words = s->in_off[STC_EMU_I_CHG_READY] + 1;
    memset(in + 1, 0, (words - 1) * sizeof *in);
    if (s->b.kind == KIND_TRACE)
        drive_trace(s, in, live);
    else
        drive_rand(s, cyc, in, live);
    /* broadcast back-pressure: all CUs ready, or a random subset */
    for (k = 0; k < 2; k++) {
        uint64_t v = cohkit_unit_pct(&s->b.rng) < s->p_ready ? all : cohkit_unit_rnd(&s->b.rng) & all;
        in[s->in_off[k ? STC_EMU_I_CHG_READY : STC_EMU_I_PREP_READY]] = v;
    }
    in[s->in_off[STC_EMU_I_DACK_READY]] = cohkit_unit_pct(&s->b.rng) < s->p_ready;
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    emu_stim *s = p;
    unsigned K = s->c.cus, E = s->g.E, k, phase, pend;
    uint64_t all = mask64(K);
    const uint64_t *o = out;
    stc_eset set;
    stc_elist l;
    (void)cyc;
#define OUT(x) o[s->out_off[x]]
#define IN(x) in[s->in_off[x]]
    /* the order in which the trace tool prints one record's answers */
    if ((OUT(STC_EMU_O_PREP_VALID) & 1) && (IN(STC_EMU_I_PREP_READY) & all) == all) {
        stc_eset_clear(&set);
        memcpy(set.w, o + s->out_off[STC_EMU_O_PREP_EPOCHS], ((E + 63) / 64) * sizeof(uint64_t));
        s->last_ptr = (unsigned)OUT(STC_EMU_O_PTR);
        stc_elist_of(&set, s->last_ptr, s->c.n, &l);
        if (s->b.out)
            print_list(s->b.out, "PREP", &l, -1);
        s->preps++;
        s->rdy_sent = 0;
        for (k = 0; k < K && s->b.kind != KIND_TRACE; k++)
            s->rdy_due[k] = (unsigned)(cohkit_unit_pct(&s->b.rng) < s->p_resp ? 0 : cohkit_unit_rnd(&s->b.rng) % 24);
    }
    if (OUT(STC_EMU_O_SLEEP) & 1) {
        if (s->b.out)
            fprintf(s->b.out, "SLEEP\n");
        s->sleeps++;
    }
    if ((OUT(STC_EMU_O_DACK_VALID) & 1) && (IN(STC_EMU_I_DACK_READY) & 1)) {
        if (s->b.out)
            fprintf(s->b.out, "EDACK %u %u\n", (unsigned)OUT(STC_EMU_O_DACK_CU),
                    (unsigned)OUT(STC_EMU_O_DACK_EPOCH));
        s->acks++;
    }
    pend = OUT(STC_EMU_O_SEB_NEXT) != OUT(STC_EMU_O_SEB);
    if (pend && !s->prev_pend) {
        if (s->b.out)
            fprintf(s->b.out, "NSEB %u\n", (unsigned)OUT(STC_EMU_O_SEB_NEXT));
        s->nsebs++;
    }
    s->prev_pend = pend;
    if ((OUT(STC_EMU_O_CHG_VALID) & 1) && (IN(STC_EMU_I_CHG_READY) & all) == all) {
        stc_eset_clear(&set);
        memcpy(set.w, o + s->out_off[STC_EMU_O_CHG_EPOCHS], ((E + 63) / 64) * sizeof(uint64_t));
        stc_elist_of(&set, s->last_ptr, s->c.n, &l);
        if (s->b.out)
            print_list(s->b.out, "CHG", &l, (int)OUT(STC_EMU_O_CHG_SEB));
        if (l.n > s->max_cur)
            s->max_cur = l.n;
        /* protocol: ChangeEpoch only after every ReadyAck; at most mb_max */
        if (s->b.kind != KIND_TRACE && (s->rdy_sent & all) != all)
            s->viol++;
        if (l.n == 0 || l.n > (s->c.variant == STC_MB ? s->c.mb_max : 1u))
            s->viol++;
        s->chgs++;
        s->done_sent = 0;
        for (k = 0; k < K && s->b.kind != KIND_TRACE; k++)
            s->done_due[k] = (unsigned)(cohkit_unit_pct(&s->b.rng) < s->p_resp ? 0 : cohkit_unit_rnd(&s->b.rng) % 24);
    }
    phase = (unsigned)OUT(STC_EMU_O_PHASE);
    if (s->prev_phase == STC_CHG && phase == STC_IDLE) {
        stc_eset_clear(&set);
        memcpy(set.w, o + s->out_off[STC_EMU_O_CUR], ((E + 63) / 64) * sizeof(uint64_t));
        stc_elist_of(&set, s->last_ptr, s->c.n, &l);
        if (s->b.out)
            print_list(s->b.out, "END", &l, (int)OUT(STC_EMU_O_SEB));
        if (s->b.kind != KIND_TRACE && (s->done_sent & all) != all)
            s->viol++;
        s->ends++;
    }
    if (phase == STC_PREP && s->prev_phase == STC_CHG)
        s->viol++;
    s->prev_phase = phase;
    /* handshakes of the cycle */
    if (phase == STC_PREP && !(OUT(STC_EMU_O_PREP_VALID) & 1))
        s->rdy_sent |= (unsigned)IN(STC_EMU_I_RDY_VALID);
    if (phase == STC_CHG && !(OUT(STC_EMU_O_CHG_VALID) & 1))
        s->done_sent |= (unsigned)IN(STC_EMU_I_DONE_VALID);
    for (k = 0; k < K; k++) {
        if (((IN(STC_EMU_I_DEM_VALID) & OUT(STC_EMU_O_DEM_READY)) >> k) & 1) {
            s->dem_have[k] = 0;
            s->dems++;
        }
        if (((IN(STC_EMU_I_CONF_VALID) & OUT(STC_EMU_O_CONF_READY)) >> k) & 1) {
            s->conf_have[k] = 0;
            s->confs++;
        }
    }
    if (s->b.kind == KIND_TRACE && s->busy) {
        if (s->busy == 1) {
            const emu_rec *r = &s->tr.r[s->tnext];
            int acc = r->kind == R_WAKE || r->kind == R_READY || r->kind == R_DONE ||
                      (r->kind == R_DEM && ((OUT(STC_EMU_O_DEM_READY) >> r->cu) & 1)) ||
                      (r->kind == R_CONF && ((OUT(STC_EMU_O_CONF_READY) >> r->cu) & 1));
            if (acc) {
                s->busy = 2;
                s->tnext++;
                s->settle = 0;
            }
        } else if (!(OUT(STC_EMU_O_PREP_VALID) & 1) && !(OUT(STC_EMU_O_CHG_VALID) & 1) &&
                   !(OUT(STC_EMU_O_DACK_VALID) & 1) && ++s->settle >= 3 + s->g.search) {
            s->busy = 0;
        }
    }
#undef OUT
#undef IN
}

static int stim_done(const void *p, const void *tmp)
{
    const emu_stim *s = p;
    (void)tmp;
    return s->tnext == s->tr.n && s->busy == 0;
}

static uint64_t stim_limit(const void *p)
{
    const emu_stim *s = p;
    return 200 + (uint64_t)(s->tr.n + 1) * 60;
}

static void stim_summary(const void *p, const void *tmp, uint64_t cycles, FILE *f, const char *c)
{
    const emu_stim *s = p;
    const stc_emu_tm *tm = tmp;
    fprintf(f, "%scycles %llu  prepares %llu  changes %llu  ends %llu  sleeps %llu\n", c,
            (unsigned long long)cycles, (unsigned long long)s->preps, (unsigned long long)s->chgs,
            (unsigned long long)s->ends, (unsigned long long)s->sleeps);
    fprintf(f, "%sdemands %llu  acks %llu  conflicts %llu  steps set %llu  seb changes %llu  "
               "max epochs %u\n",
            c, (unsigned long long)s->dems, (unsigned long long)s->acks,
            (unsigned long long)s->confs, (unsigned long long)s->nsebs,
            (unsigned long long)(tm ? tm->m.seb_changes : 0), s->max_cur);
    fprintf(f, "%shandshake check: %llu violations\n", c, (unsigned long long)s->viol);
}

/* ------------------------------------------------------------ trace tool */

enum { FLAG_DUMP = 0 };
static const cohkit_unit_flag flags[] = {
    {"dump", NULL, "cohmodel: at the end, ERV entries and the EMU state"},
    {NULL, NULL, NULL},
};

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    const stc_emu_cfg *c = cfg;
    emu_trace t;
    stc_emu m;
    char err[300];
    size_t i;
    if (trace_read(in, c, &t, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    stc_emu_init(&m, c);
    for (i = 0; i < t.n; i++) {
        const emu_rec *r = &t.r[i];
        stc_elist l;
        unsigned v;
        switch (r->kind) {
        case R_WAKE: {
            stc_wake_res w = stc_emu_wake(&m, &l);
            if (w == STC_WAKE_PREP)
                print_list(out, "PREP", &l, -1);
            else if (w == STC_WAKE_SLEEP)
                fprintf(out, "SLEEP\n");
            break;
        }
        case R_DEM:
            if (stc_emu_demand(&m, r->cu, r->addr, &v))
                fprintf(out, "EDACK %u %u\n", r->cu, v);
            break;
        case R_CONF:
            if (stc_emu_conflict(&m, r->cu, r->addr, &v))
                fprintf(out, "NSEB %u\n", v);
            break;
        case R_READY:
            if (stc_emu_ready(&m, r->cu, &l, &v) == 1)
                print_list(out, "CHG", &l, (int)v);
            break;
        default:
            if (stc_emu_done(&m, r->cu, &l, &v) == 1)
                print_list(out, "END", &l, (int)v);
            break;
        }
    }
    if (fl && fl[FLAG_DUMP]) {
        char b[STC_E_MAX * 4];
        unsigned e;
        uint64_t a;
        for (e = 0; e < (1u << c->n); e++)
            if (stc_emu_erv(&m, e, &a))
                fprintf(out, "ERV %u 0x%llx\n", e, (unsigned long long)a);
        stc_elist_format(&m.cur_list, b, sizeof b);
        fprintf(out, "STATE cur=%s seb=%u ptr=%u phase=%s\n", b, m.seb, m.ptr,
                stc_phase_name(m.phase));
    }
    free(t.r);
    return 0;
}

const cohkit_unit_desc stc_emu_unit = {
    .name = "stc-emu",
    .family = "stc",
    .title = "STC epoch management unit: four-way handshake, epoch skipping, adaptive and "
             "multiple bands (TACO 2023, 4.2-4.4, Fig. 5, Table 4)",
    .model_ref = "cmodel/stc/stc_emu.c stc_emu_eval() / stc_emu_step() (timing), stc_emu_wake(), "
                 "stc_emu_demand(), stc_emu_conflict(), stc_emu_ready(), stc_emu_done() "
                 "(function)",
    .cfg_size = sizeof(stc_emu_cfg),
    .presets = presets,
    .committed = presets,
    .module_prefix = "stc_emu",
    .opts = &stc_emu_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help =
        "WAKE -> PREP <epochs> | SLEEP | nothing (busy); DEM <cu> <addr> -> EDACK <cu> <epoch>;\n"
        "CONF <cu> <addr> -> NSEB <seb> when a step is set; READY <cu> -> CHG <epochs> <seb>\n"
        "after the last CU; DONE <cu> -> END <epochs> <seb> after the last CU; --dump: ERV\n"
        "<epoch> <addr> per valid entry, STATE cur= seb= ptr= phase=",
    COHKIT_UNIT_STIM_FIELDS,
};
