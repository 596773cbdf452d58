/*
 * The STC per-CU epoch logic (with its BSQ) as a registry unit
 * (cmodel/unit.h): port table, timing-shell adapters, stimulus of the
 * lockstep bench (an EMU and an L1 played by the bench, back-pressure on
 * every channel) and the trace tool (`cohmodel stc-cu`, STC specification
 * 7.2). Model: cmodel/stc/stc_cu.c.
 */
#include <stdlib.h>
#include <string.h>

#include "stc_cu.h"
#include "unit_trace.h"
#include "stc_cutr.h"
#include "unit_adapt.h"

static const char *const presets[] = {"default", "fpga", NULL};
static const char *const streams[] = {"mixed", "epochs", NULL};


COHKIT_UNIT_PORTS_BEGIN(stc_cu_cfg, stc_bsq_geom, stc_bsq_geom_of, &c->bsq)
#include "stc_cu_ports.def"
COHKIT_UNIT_PORTS_END

COHKIT_UNIT_ADAPTERS(stc_cu, stc_cu_cfg, stc_cu_tm, uint64_t, uint64_t, stc_cu_tm_new, stc_cu_tm_free,
                 stc_cu_tm_reset, stc_cu_tm_eval, stc_cu_tm_step)

/* ---------------------------------------------------------------- trace -- */

enum { REC_ST, REC_LD, REC_WA, REC_PREP, REC_CHG, REC_EDACK };

typedef struct {
    int kind;
    uint64_t addr;
    stc_eset cer;
    unsigned seb;
} cu_rec;

typedef struct {
    cu_rec *r;
    size_t n;
} cu_trace;

/* What reading a trace needs beside the configuration: the functional
 * core, its drain and demand buffers, and where its lines go (or NULL). */
typedef struct {
    const stc_cu_cfg *c;
    stc_cu *cu;
    stc_bsq_entry *drn;
    stc_cu_demand *dem;
    FILE *out;
} cu_reading;

static int parse_chg(cohkit_trace_reader *rd, const cu_reading *x, cu_rec *r)
{
    const stc_cu_cfg *c = x->c;
    unsigned k, lim = c->variant == STC_CU_MB ? c->mb_max : 1;
    if (stc_cutr_eset(rd, c->bsq.n, &r->cer) ||
        cohkit_trace_num(rd, "seb", c->bsq.seb_min, c->bsq.seb_max, &r->seb))
        return -1;
    k = stc_eset_count(&r->cer);
    if (k > lim)
        return cohkit_trace_fail(rd, "%u epochs, variant %s allows %u", k,
                                 stc_cu_variant_name(c->variant), lim);
    if (r->seb != stc_cu_seb(x->cu) && c->variant != STC_CU_AB && c->variant != STC_CU_MB)
        return cohkit_trace_fail(rd, "seb %u: variant %s keeps seb %u", r->seb,
                                 stc_cu_variant_name(c->variant), stc_cu_seb(x->cu));
    return 0;
}

static int parse_syntax(cohkit_trace_reader *rd, const cu_reading *x, cu_rec *r)
{
    const char *op = rd->first;
    const stc_cu_cfg *c = x->c;
    if (strcmp(op, "ST") == 0 || strcmp(op, "LD") == 0) {
        r->kind = op[0] == 'S' ? REC_ST : REC_LD;
        if (cohkit_trace_addr(rd, "address", c->bsq.addr_bits, &r->addr))
            return -1;
    } else if (strcmp(op, "WA") == 0) {
        r->kind = REC_WA;
    } else if (strcmp(op, "PREP") == 0) {
        r->kind = REC_PREP;
    } else if (strcmp(op, "CHG") == 0) {
        r->kind = REC_CHG;
        if (parse_chg(rd, x, r))
            return -1;
    } else if (strcmp(op, "EDACK") == 0) {
        r->kind = REC_EDACK;
        if (cohkit_trace_num(rd, "epoch", 0, (1u << c->bsq.n) - 1, &r->seb))
            return -1;
    } else {
        return cohkit_trace_fail(rd, "unknown record '%s'", op);
    }
    return cohkit_trace_end(rd);
}

static void print_store(FILE *out, uint64_t addr, stc_cu_st_res s)
{
    if (s.kind == STC_CU_ISSUED)
        fprintf(out, "ISS 0x%llx\n", (unsigned long long)addr);
    else if (s.kind == STC_CU_STALLED)
        fprintf(out, "STALL 0x%llx\n", (unsigned long long)addr);
    else {
        fprintf(out, "BLK 0x%llx %u\n", (unsigned long long)addr, s.band);
        if (s.demand)
            fprintf(out, "DEM 0x%llx %u\n", (unsigned long long)addr, s.band);
    }
}

static int core_chg(cohkit_trace_reader *rd, const cu_reading *x, const cu_rec *r)
{
    stc_cu_chg_res s;
    if (stc_cu_pw(x->cu) + stc_bsq_count(stc_cu_bsq(x->cu)) >= (1u << STC_CU_PW_BITS) - 1)
        return cohkit_trace_fail(rd, "more than %u stores outstanding", (1u << STC_CU_PW_BITS) - 2);
    s = stc_cu_change(x->cu, &r->cer, r->seb, x->drn, x->dem);
    if (!s.ok)
        return cohkit_trace_fail(rd, "CHG before READY");
    if (x->out) {
        for (unsigned i = 0; i < s.drained; i++)
            fprintf(x->out, "DRN 0x%llx\n", (unsigned long long)x->drn[i].addr);
        for (unsigned i = 0; i < s.demands; i++)
            fprintf(x->out, "DEM 0x%llx %u\n", (unsigned long long)x->dem[i].addr, x->dem[i].band);
        fprintf(x->out, "DONE\n");
    }
    return 0;
}

/* The record on the core: the semantic checks (WA with nothing
 * outstanding, PREP during a transition, CHG before READY) and, with out,
 * the core's lines. */
static int core_apply(cohkit_trace_reader *rd, const cu_reading *x, const cu_rec *r)
{
    int v;
    switch (r->kind) {
    case REC_ST:
        if (stc_cu_pw(x->cu) >= (1u << STC_CU_PW_BITS) - 1)
            return cohkit_trace_fail(rd, "more than %u stores outstanding",
                                     (1u << STC_CU_PW_BITS) - 2);
        {
            stc_cu_st_res s = stc_cu_store(x->cu, r->addr);
            if (x->out)
                print_store(x->out, r->addr, s);
        }
        return 0;
    case REC_LD: {
        stc_cu_ld_res s = stc_cu_load(x->cu, r->addr);
        if (x->out) {
            fprintf(x->out, "%s 0x%llx\n", s.uncached ? "LDU" : "LDC", (unsigned long long)r->addr);
            if (s.conflict)
                fprintf(x->out, "CONF 0x%llx %u\n", (unsigned long long)r->addr, s.band);
        }
        return 0;
    }
    case REC_WA:
    case REC_PREP:
        v = r->kind == REC_WA ? stc_cu_write_ack(x->cu) : stc_cu_prepare(x->cu);
        if (v < 0)
            return cohkit_trace_fail(rd, "%s",
                                     r->kind == REC_WA ? "WA with no store outstanding"
                                                       : "PREP during a transition");
        if (x->out && v == 1)
            fprintf(x->out, "READY\n");
        return 0;
    case REC_CHG:
        return core_chg(rd, x, r);
    default:
        stc_cu_demand_ack(x->cu, r->seb);
        return 0;
    }
}

static int parse_rec(cohkit_trace_reader *rd, const void *ctx, void *rec)
{
    return parse_syntax(rd, ctx, rec) || core_apply(rd, ctx, rec) ? -1 : 0;
}

/* Reads the trace and runs the functional core on it (the semantic checks
 * need the core's state); with out, prints the core's lines. */
static int trace_read(FILE *f, const stc_cu_cfg *c, cu_trace *t, FILE *out, char *err,
                      size_t len)
{
    static const cohkit_trace_format fmt = {sizeof(cu_rec), parse_rec, NULL, 0};
    cu_reading x = {c, stc_cu_new(c), calloc(c->bsq.entries, sizeof *x.drn),
                    calloc(STC_E_MAX, sizeof *x.dem), out};
    void *r = NULL;
    int rc = -1;
    t->n = 0;
    if (x.cu == NULL || x.drn == NULL || x.dem == NULL)
        snprintf(err, len, "out of memory");
    else
        rc = cohkit_trace_records(f, &fmt, &x, &r, &t->n, err, len);
    t->r = r;
    stc_cu_free(x.cu);
    free(x.drn);
    free(x.dem);
    return rc;
}

/* ------------------------------------------------------------- stimulus -- */

enum { KIND_MIXED, KIND_EPOCHS, KIND_TRACE };

#define LINES_MAX 4096

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    stc_cu_cfg c;
    stc_cu_layout l;
    unsigned p_st, p_ld, p_ready, p_wa, p_prep;
    /* the bench's L1 and EMU */
    uint64_t outstanding;      /* stores sent to the L1, not yet acked     */
    int emu_prep, emu_ready, emu_chg, in_chg;
    unsigned chg_wait;
    stc_eset chg_cer;
    unsigned chg_seb;
    /* requests held until taken */
    int have_st, have_ld, wa_now;
    uint64_t st_addr, ld_addr;
    /* functional mirror */
    stc_cu *mirror;
    stc_bsq_entry *exp_drn;
    unsigned n_drn, i_drn;
    stc_cu_demand *dq;        /* expected EpochDemands, in order          */
    unsigned dq_head, dq_tail, dq_cap;
    stc_cu_demand *dem_tmp;
    /* trace mode */
    cu_trace tr;
    size_t tnext;
    int rec_busy;             /* a record is being driven or drained      */
    unsigned quiet;
    char *lines[4];           /* primary, drains, demands/conflicts, done  */
    size_t llen[4], lcap[4];
    uint64_t stores, issued, blocked, stalls, loads, conflicts, demands, drains, transitions,
        func_bad;
} cu_stim;

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static void line_add(cu_stim *s, int which, const char *fmt, unsigned long long a, unsigned b,
                     int with_b)
{
    char buf[96];
    int n = with_b ? snprintf(buf, sizeof buf, fmt, a, b) : snprintf(buf, sizeof buf, fmt, a);
    if (!s->b.out || n <= 0)
        return;
    if (s->llen[which] + (size_t)n + 1 > s->lcap[which]) {
        size_t nc = (s->lcap[which] + (size_t)n + 1) * 2;
        char *p = realloc(s->lines[which], nc);
        if (p == NULL)
            return;
        s->lines[which] = p;
        s->lcap[which] = nc;
    }
    memcpy(s->lines[which] + s->llen[which], buf, (size_t)n + 1);
    s->llen[which] += (size_t)n;
}

static void lines_flush(cu_stim *s)
{
    for (int i = 0; i < 4; i++) {
        if (s->b.out && s->llen[i])
            fputs(s->lines[i], s->b.out);
        s->llen[i] = 0;
    }
}

static void dq_push(cu_stim *s, uint64_t addr, unsigned band)
{
    if (s->dq_tail - s->dq_head == s->dq_cap)
        return; /* never: at most 2^N + 2^N pending */
    s->dq[s->dq_tail % s->dq_cap] = (stc_cu_demand){addr, band};
    s->dq_tail++;
}

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    cu_stim *s = p;
    s->c = *(const stc_cu_cfg *)cfg;
    stc_cu_port_layout(&s->c, &s->l);
    s->mirror = stc_cu_new(&s->c);
    s->exp_drn = calloc(s->c.bsq.entries, sizeof *s->exp_drn);
    s->dq_cap = 4 * STC_E_MAX;
    s->dq = calloc(s->dq_cap, sizeof *s->dq);
    s->dem_tmp = calloc(STC_E_MAX, sizeof *s->dem_tmp);
    s->p_st = 40;
    s->p_ld = 30;
    s->p_ready = 70;
    s->p_wa = 30;
    s->p_prep = s->b.kind == KIND_EPOCHS ? 10 : 2;
    if (s->mirror == NULL || s->exp_drn == NULL || s->dq == NULL || s->dem_tmp == NULL)
        return snprintf(err, len, "out of memory"), -1;
    if (s->b.trace && trace_read(a->trace, &s->c, &s->tr, NULL, err, len) != 0)
        return cohkit_unit_stim_trace_err(a, err, len);
    return 0;
}

static void stim_free(void *p)
{
    cu_stim *s = p;
    if (s) {
        stc_cu_free(s->mirror);
        free(s->exp_drn);
        free(s->dq);
        free(s->dem_tmp);
        free(s->tr.r);
        for (int i = 0; i < 4; i++)
            free(s->lines[i]);
        free(s);
    }
}

COHKIT_UNIT_STIM_NEW(cu_stim, 0x7f4a7c15ull)

/* An address in one of a few bands (and sometimes any), some bits above
 * the band field varied so that AB pairs differ there. */
static uint64_t rand_addr(cu_stim *s)
{
    unsigned seb = stc_cu_seb(s->mirror), n = s->c.bsq.n;
    uint64_t a = cohkit_unit_rnd(&s->b.rng) & mask64(s->c.bsq.addr_bits) & ~3ull;
    unsigned band = (unsigned)(cohkit_unit_rnd(&s->b.rng) % (cohkit_unit_pct(&s->b.rng) < 80 ? 4 : (1u << n)));
    if (seb + n <= s->c.bsq.addr_bits && seb < 64) {
        a &= ~(mask64(n) << seb);
        a |= (uint64_t)band << seb;
    }
    return a;
}

static void rand_chg(cu_stim *s)
{
    unsigned lim = s->c.variant == STC_CU_MB ? s->c.mb_max : 1, k = 1 + (unsigned)(cohkit_unit_rnd(&s->b.rng) % lim);
    unsigned ep = 1u << s->c.bsq.n;
    stc_eset_clear(&s->chg_cer);
    while (stc_eset_count(&s->chg_cer) < k)
        stc_eset_add(&s->chg_cer, (unsigned)(cohkit_unit_rnd(&s->b.rng) % (cohkit_unit_pct(&s->b.rng) < 80 ? (ep < 4 ? ep : 4) : ep)));
    s->chg_seb = stc_cu_seb(s->mirror);
    if ((s->c.variant == STC_CU_AB || s->c.variant == STC_CU_MB) && cohkit_unit_pct(&s->b.rng) < 20) {
        unsigned lo = s->c.bsq.seb_min, hi = s->c.bsq.seb_max;
        if (cohkit_unit_pct(&s->b.rng) < 50 && s->chg_seb > lo)
            s->chg_seb--;
        else if (s->chg_seb < hi)
            s->chg_seb++;
    }
}

static void drive_trace(cu_stim *s)
{
    if (!s->rec_busy && s->tnext < s->tr.n && cohkit_unit_pct(&s->b.rng) < 80) {
        const cu_rec *r = &s->tr.r[s->tnext++];
        s->rec_busy = 1;
        s->quiet = 0;
        switch (r->kind) {
        case REC_ST:
            s->have_st = 1;
            s->st_addr = r->addr;
            break;
        case REC_LD:
            s->have_ld = 1;
            s->ld_addr = r->addr;
            break;
        case REC_WA:
            s->wa_now = 1;
            break;
        case REC_PREP:
            s->emu_prep = 1;
            break;
        case REC_CHG:
            s->emu_chg = 1;
            s->chg_cer = r->cer;
            s->chg_seb = r->seb;
            break;
        default:
            break;
        }
    }
}

static void stim_drive(void *p, uint64_t cyc, uint64_t *in)
{
    cu_stim *s = p;
    const stc_cu_layout *l = &s->l;
    int live = (int)(in[0] & 1);
    memset(in + 1, 0, (l->in_words - 1) * sizeof *in);
    if (!live)
        return;
    if (s->b.kind == KIND_TRACE) {
        drive_trace(s);
        s->p_ready = 60;
    } else {
        if ((cyc & 1023) == 0) {
            static const unsigned ps[] = {70, 40, 15, 90}, pr[] = {100, 70, 30, 50};
            s->p_st = ps[cohkit_unit_rnd(&s->b.rng) % 4];
            s->p_ld = ps[cohkit_unit_rnd(&s->b.rng) % 4] / 2;
            s->p_ready = pr[cohkit_unit_rnd(&s->b.rng) % 4];
            s->p_wa = 10 + (unsigned)(cohkit_unit_rnd(&s->b.rng) % 60);
        }
        if (!s->have_st && cohkit_unit_pct(&s->b.rng) < s->p_st)
            s->have_st = 1, s->st_addr = rand_addr(s);
        if (!s->have_ld && !s->in_chg && cohkit_unit_pct(&s->b.rng) < s->p_ld)
            s->have_ld = 1, s->ld_addr = rand_addr(s);
        /* the L1 acknowledges stores it was sent */
        s->wa_now = s->outstanding > 0 && cohkit_unit_pct(&s->b.rng) < s->p_wa;
        /* the EMU: PREP now and then; CHG some cycles after ReadyAck */
        if (!s->emu_prep && !s->emu_ready && !s->emu_chg && !s->in_chg &&
            stc_cu_phase_of(s->mirror) == STC_CU_RUN && cohkit_unit_pct(&s->b.rng) < s->p_prep)
            s->emu_prep = 1;
        if (s->emu_ready && s->chg_wait-- == 0) {
            s->emu_ready = 0;
            s->emu_chg = 1;
            rand_chg(s);
        }
        if (!s->have_st)
            in[l->in_word[STC_CU_I_ST_ADDR]] = cohkit_unit_rnd(&s->b.rng) & mask64(s->c.bsq.addr_bits);
        if (!s->have_ld)
            in[l->in_word[STC_CU_I_LD_ADDR]] = cohkit_unit_rnd(&s->b.rng) & mask64(s->c.bsq.addr_bits);
    }
    if (s->have_st) {
        in[l->in_word[STC_CU_I_ST_VALID]] = 1;
        in[l->in_word[STC_CU_I_ST_ADDR]] = s->st_addr;
    }
    if (s->have_ld) {
        in[l->in_word[STC_CU_I_LD_VALID]] = 1;
        in[l->in_word[STC_CU_I_LD_ADDR]] = s->ld_addr;
    }
    in[l->in_word[STC_CU_I_WA]] = (uint64_t)s->wa_now;
    in[l->in_word[STC_CU_I_PREP_VALID]] = (uint64_t)s->emu_prep;
    if (s->emu_chg) {
        in[l->in_word[STC_CU_I_CHG_VALID]] = 1;
        for (unsigned e = 0; e < (1u << s->c.bsq.n); e++)
            if (stc_eset_has(&s->chg_cer, e))
                in[l->in_word[STC_CU_I_CHG_CER] + e / 64] |= 1ull << (e % 64);
        in[l->in_word[STC_CU_I_CHG_SEB]] = s->chg_seb;
    }
    in[l->in_word[STC_CU_I_ISS_READY]] = cohkit_unit_pct(&s->b.rng) < s->p_ready;
    in[l->in_word[STC_CU_I_LDR_READY]] = cohkit_unit_pct(&s->b.rng) < s->p_ready;
    in[l->in_word[STC_CU_I_DEM_READY]] = cohkit_unit_pct(&s->b.rng) < s->p_ready;
    in[l->in_word[STC_CU_I_CONF_READY]] = cohkit_unit_pct(&s->b.rng) < s->p_ready;
    in[l->in_word[STC_CU_I_RDY_READY]] = cohkit_unit_pct(&s->b.rng) < s->p_ready;
    in[l->in_word[STC_CU_I_DONE_READY]] = cohkit_unit_pct(&s->b.rng) < s->p_ready;
}

#define O(x) (out[l->out_word[STC_CU_O_##x]])
#define I(x) (in[l->in_word[STC_CU_I_##x]])

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    cu_stim *s = p;
    const stc_cu_layout *l = &s->l;
    unsigned n = s->c.bsq.n;
    (void)cyc;
    if (!(in[0] & 1))
        return;
    /* outputs toward the L1 and the EMU */
    if ((O(ISS_VALID) & 1) && (I(ISS_READY) & 1)) {
        s->outstanding++;
        if (O(ISS_DRAIN) & 1) {
            const stc_bsq_entry *x = s->i_drn < s->n_drn ? &s->exp_drn[s->i_drn] : NULL;
            if (x == NULL || x->addr != O(ISS_ADDR))
                s->func_bad++;
            s->i_drn++;
            s->drains++;
            line_add(s, 1, "DRN 0x%llx\n", O(ISS_ADDR), 0, 0);
        }
    }
    if ((O(DEM_VALID) & 1) && (I(DEM_READY) & 1)) {
        if (s->dq_head == s->dq_tail || s->dq[s->dq_head % s->dq_cap].addr != O(DEM_ADDR) ||
            s->dq[s->dq_head % s->dq_cap].band != O(DEM_BAND))
            s->func_bad++;
        else
            s->dq_head++;
        s->demands++;
        line_add(s, 2, "DEM 0x%llx %u\n", O(DEM_ADDR), (unsigned)O(DEM_BAND), 1);
    }
    if ((O(CONF_VALID) & 1) && (I(CONF_READY) & 1)) {
        s->conflicts++;
        line_add(s, 2, "CONF 0x%llx %u\n", O(CONF_ADDR), (unsigned)O(CONF_BAND), 1);
    }
    if ((O(LDR_VALID) & 1) && (I(LDR_READY) & 1))
        line_add(s, 0, (O(LDR_UNCACHED) & 1) ? "LDU 0x%llx\n" : "LDC 0x%llx\n", O(LDR_ADDR), 0, 0);
    if ((O(RDY_VALID) & 1) && (I(RDY_READY) & 1)) {
        if (!stc_cu_ready_sent(s->mirror))
            s->func_bad++;
        line_add(s, 0, "READY\n", 0, 0, 0);
        if (s->b.kind != KIND_TRACE) {
            s->emu_ready = 1;
            s->chg_wait = (unsigned)(cohkit_unit_rnd(&s->b.rng) % 8);
        }
    }
    if ((O(DONE_VALID) & 1) && (I(DONE_READY) & 1)) {
        /* the last drained store may still wait in the L1 register: the
         * drain count is checked at the next ChangeEpoch */
        line_add(s, 3, "DONE\n", 0, 0, 0);
        s->in_chg = 0;
    }
    /* inputs taken: stores, then loads, acks and the handshake, in the
     * order the functional core sees them */
    if (s->have_st && (O(ST_READY) & 1)) {
        stc_cu_st_res r = stc_cu_store(s->mirror, s->st_addr);
        unsigned blocked = (unsigned)(O(ST_BLOCKED) & 1);
        if (r.kind == STC_CU_STALLED || blocked != (r.kind == STC_CU_BLOCKED) ||
            (blocked && r.slot != O(ST_SLOT)))
            s->func_bad++;
        if (r.demand)
            dq_push(s, s->st_addr, r.band);
        s->stores++;
        if (blocked) {
            s->blocked++;
            line_add(s, 0, "BLK 0x%llx %u\n", s->st_addr, stc_bsq_band(s->st_addr, (unsigned)O(SEB), n), 1);
        } else {
            s->issued++;
            line_add(s, 0, "ISS 0x%llx\n", s->st_addr, 0, 0);
        }
        s->have_st = 0;
    } else if (s->have_st && (O(ST_BLOCKED) & 1) && (O(BSQ_FULL) & 1)) {
        s->stalls++;
        if (s->b.kind == KIND_TRACE) { /* a refused store is dropped */
            if (!stc_bsq_full(stc_cu_bsq(s->mirror)))
                s->func_bad++;
            line_add(s, 0, "STALL 0x%llx\n", s->st_addr, 0, 0);
            s->have_st = 0;
        }
    }
    if (s->have_ld && (O(LD_READY) & 1)) {
        stc_cu_ld_res r = stc_cu_load(s->mirror, s->ld_addr);
        (void)r;
        s->loads++;
        s->have_ld = 0;
    }
    if (s->wa_now) {
        if (stc_cu_write_ack(s->mirror) < 0)
            s->func_bad++;
        if (s->outstanding)
            s->outstanding--;
        s->wa_now = 0;
    }
    if (s->emu_prep && (O(PREP_READY) & 1)) {
        stc_cu_prepare(s->mirror);
        s->emu_prep = 0;
    }
    if (s->emu_chg && (O(CHG_READY) & 1)) {
        stc_cu_chg_res r;
        if (s->i_drn != s->n_drn) /* every drain of the previous scan seen */
            s->func_bad++;
        r = stc_cu_change(s->mirror, &s->chg_cer, s->chg_seb, s->exp_drn, s->dem_tmp);
        if (!r.ok)
            s->func_bad++;
        s->n_drn = r.drained;
        s->i_drn = 0;
        for (unsigned i = 0; i < r.demands; i++)
            dq_push(s, s->dem_tmp[i].addr, s->dem_tmp[i].band);
        s->transitions++;
        s->in_chg = 1;
        s->emu_chg = 0;
    }
    /* trace mode: a record ends when its inputs are taken and every output
     * it caused has been handed over (three quiet cycles) */
    if (s->b.kind == KIND_TRACE && s->rec_busy) {
        int busy = s->have_st || s->have_ld || s->wa_now || s->emu_prep || s->emu_chg ||
                   s->in_chg || (O(ISS_VALID) & 1) || (O(DEM_VALID) & 1) || (O(CONF_VALID) & 1) ||
                   (O(LDR_VALID) & 1) || (O(RDY_VALID) & 1) || (O(DONE_VALID) & 1);
        s->quiet = busy ? 0 : s->quiet + 1;
        if (s->quiet >= 3) {
            lines_flush(s);
            s->rec_busy = 0;
        }
    }
}

static int stim_done(const void *p, const void *tm)
{
    const cu_stim *s = p;
    (void)tm;
    return s->tnext == s->tr.n && !s->rec_busy;
}

static uint64_t stim_limit(const void *p)
{
    const cu_stim *s = p;
    return 200 + (uint64_t)(s->tr.n + 1) * (60 + 4 * (uint64_t)s->c.bsq.entries);
}

static void stim_summary(const void *p, const void *tm, uint64_t cycles, FILE *f, const char *c)
{
    const cu_stim *s = p;
    (void)tm;
    fprintf(f, "%scycles %llu  stores %llu (issued %llu, blocked %llu)  stalled cycles %llu  loads %llu\n",
            c, (unsigned long long)cycles, (unsigned long long)s->stores,
            (unsigned long long)s->issued, (unsigned long long)s->blocked,
            (unsigned long long)s->stalls, (unsigned long long)s->loads);
    fprintf(f, "%stransitions %llu  drained %llu  demands %llu  conflicts %llu\n", c,
            (unsigned long long)s->transitions, (unsigned long long)s->drains,
            (unsigned long long)s->demands, (unsigned long long)s->conflicts);
    fprintf(f, "%sfunctional check: stores, drains, demands, ReadyAck against stc_cu_*, %llu differ\n",
            c, (unsigned long long)s->func_bad);
}

/* ----------------------------------------------------------- trace tool -- */

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    cu_trace t;
    char err[300];
    (void)fl;
    if (trace_read(in, cfg, &t, out, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    free(t.r);
    return 0;
}

const cohkit_unit_desc stc_cu_unit = {
    .name = "stc-cu",
    .family = "stc",
    .title = "STC per-CU epoch logic with its BSQ: CER, demand filter, conflict flag, "
             "ReadyAck, ChangeEpoch sequence (TACO 2023, 4.2-4.4)",
    .model_ref = "cmodel/stc/stc_cu.c stc_cu_tm_eval() / stc_cu_tm_step() (timing), "
                 "stc_cu_store() / _load() / _write_ack() / _prepare() / _change() (function)",
    .cfg_size = sizeof(stc_cu_cfg),
    .presets = presets,
    .committed = presets,
    .module_prefix = "stc_cu",
    .opts = &stc_cu_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = NULL,
    .trace_help = "ST <addr> -> ISS <addr> | BLK <addr> <band> [DEM <addr> <band>] | STALL <addr>;\n"
                  "LD <addr> -> LDU|LDC <addr> [CONF <addr> <band>]; WA -> [READY];\n"
                  "PREP -> [READY]; CHG <epochs> <seb> -> DRN <addr>... DEM <addr> <band>... DONE;\n"
                  "EDACK <epoch> -> nothing",
    COHKIT_UNIT_STIM_FIELDS,
};
