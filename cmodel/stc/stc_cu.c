/*
 * STC per-CU epoch logic: configuration, functional core (store, load,
 * write ack, PrepareEpochChange, ChangeEpoch) and timing shell.
 * See stc_cu.h and docs/stc.md (## stc-cu).
 */
#include "stc_cu.h"
#include "bits.h"
#include "cfg_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------- configuration -- */

void stc_cu_cfg_default(stc_cu_cfg *c)
{
    c->variant = STC_CU_MB;
    c->mb_max = 0; /* min(4, 2^n), as the EMU's (stc_cu_cfg_check) */
    stc_eset_clear(&c->epoch);
    stc_eset_add(&c->epoch, 0);
    stc_bsq_cfg_default(&c->bsq);
}

int stc_cu_cfg_preset(stc_cu_cfg *c, const char *name)
{
    stc_cu_cfg_default(c);
    return stc_bsq_cfg_preset(&c->bsq, name);
}

const char *stc_cu_variant_name(stc_cu_variant v)
{
    static const char *const names[] = {"nv", "es", "ab", "mb"};
    return (unsigned)v < 4 ? names[v] : "?";
}

static const cohkit_unit_opt_choice variants[] = {{"nv", STC_CU_NV, 0}, {"es", STC_CU_ES, 0},
                                            {"ab", STC_CU_AB, 0}, {"mb", STC_CU_MB, 0},
                                            {NULL, 0, 0}};

static int set_epoch(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    char why[128];
    (void)name;
    /* checked against N in stc_cu_cfg_check; parse with the widest N */
    if (stc_eset_parse(&((stc_cu_cfg *)cfg)->epoch, value, STC_N_MAX, why, sizeof why) != 0) {
        snprintf(err, len, "--epoch: %s", why);
        return -1;
    }
    return 0;
}

static void put_epoch(const void *cfg, char *buf, size_t len)
{
    stc_eset_format(&((const stc_cu_cfg *)cfg)->epoch, buf, len);
}

static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_CHOICE("variant", "V",
                "nv | es | ab | mb (default mb)",
                stc_cu_cfg, variant, variants),
    COHKIT_UNIT_OPT_NUM("mb-max", "M",
                "concurrent epochs (mb), 1..2^N (default min(4, 2^N))",
                stc_cu_cfg, mb_max, .max = 1000),
    COHKIT_UNIT_OPT_FN("epoch", "LIST", "initial epoch set (default 0)", set_epoch, put_epoch),
    COHKIT_UNIT_OPT_NUM("n", "N", "band bits, 1..8 (default 4)", stc_cu_cfg, bsq.n),
    COHKIT_UNIT_OPT_NUM("seb", "S", "initial start bit (default 12)", stc_cu_cfg, bsq.seb),
    COHKIT_UNIT_OPT_NUM("seb-min", "S", "smallest SEB (default 12)", stc_cu_cfg, bsq.seb_min),
    COHKIT_UNIT_OPT_NUM("seb-max", "S", "largest SEB (default addr-bits - n)", stc_cu_cfg, bsq.seb_max),
    COHKIT_UNIT_OPT_NUM("addr-bits", "A", "address width, 8..64 (default 32)", stc_cu_cfg, bsq.addr_bits),
    COHKIT_UNIT_OPT_NUM("bsq", "E", "BSQ entries (default 256)", stc_cu_cfg, bsq.entries),
    COHKIT_UNIT_OPT_NUM("banks", "B", "BSQ banks (default 16)", stc_cu_cfg, bsq.banks),
    COHKIT_UNIT_OPT_NUM("drain", "D",
                "BSQ entries per bank per scan cycle (default 2)",
                stc_cu_cfg, bsq.drain),
    COHKIT_UNIT_OPT_END,
};
static const char *const args_order[] = {"variant", "mb-max", "epoch", "bsq", "banks", "drain", "addr-bits", "n", "seb", "seb-min", "seb-max", NULL};
const cohkit_unit_opt_table stc_cu_opts = {opts, "a decimal number", 1000000, 10, 0, args_order};

COHKIT_CFG_OPTION_FN(stc_cu, stc_cu_cfg)
COHKIT_CFG_ARGS_FN(stc_cu, stc_cu_cfg)

int stc_cu_cfg_check(stc_cu_cfg *c, char *err, size_t len)
{
    unsigned cnt;
    if (stc_bsq_cfg_check(&c->bsq, err, len) != 0)
        return -1;
    if (c->mb_max == 0) /* the default follows the EMU's: min(4, 2^n) */
        c->mb_max = c->bsq.n < 2 ? 1u << c->bsq.n : 4;
    if (cohkit_cfg_in(err, len, "mb-max", c->mb_max, 1, 1u << c->bsq.n))
        return -1;
    for (unsigned e = 1u << c->bsq.n; e < STC_E_MAX; e++)
        if (stc_eset_has(&c->epoch, e))
            return cohkit_cfg_fail(err, len, "--epoch: epoch %u is not below 2^%u", e, c->bsq.n);
    cnt = stc_eset_count(&c->epoch);
    if (cnt == 0 || cnt > (c->variant == STC_CU_MB ? c->mb_max : 1u))
        return cohkit_cfg_fail(err, len, "--epoch: %u epochs, %s allows 1..%u", cnt,
                               stc_cu_variant_name(c->variant),
                               c->variant == STC_CU_MB ? c->mb_max : 1u);
    return 0;
}

void stc_cu_cfg_name(const stc_cu_cfg *c, char *buf, size_t len)
{
    char b[128];
    stc_bsq_cfg_name(&c->bsq, b, sizeof b);
    snprintf(buf, len, "stc_cu_%s_m%u_%s", stc_cu_variant_name(c->variant), c->mb_max, b + 8);
}

/* ----------------------------------------------------------------- core -- */

struct stc_cu {
    stc_cu_cfg c;
    stc_bsq *q;
    stc_eset cer;
    unsigned seb;
    stc_eset dv;    /* demand vector                                  */
    unsigned conf_sent; /* EpochConflict sent this epoch                  */
    stc_cu_phase phase;
    unsigned ready;     /* ReadyAck sent in this PREPARE                  */
    unsigned pw;        /* pending writes (copy of the L1's count)        */
    stc_bsq_entry *keep;/* scratch for the scan                           */
};

stc_cu *stc_cu_new(const stc_cu_cfg *c)
{
    stc_cu *cu = calloc(1, sizeof *cu);
    if (cu == NULL)
        return NULL;
    cu->c = *c;
    cu->q = stc_bsq_new(&c->bsq);
    cu->keep = calloc(c->bsq.entries, sizeof *cu->keep);
    if (cu->q == NULL || cu->keep == NULL) {
        stc_cu_free(cu);
        return NULL;
    }
    stc_cu_reset(cu);
    return cu;
}

void stc_cu_free(stc_cu *cu)
{
    if (cu == NULL)
        return;
    stc_bsq_free(cu->q);
    free(cu->keep);
    free(cu);
}

void stc_cu_reset(stc_cu *cu)
{
    stc_bsq_reset(cu->q);
    cu->cer = cu->c.epoch;
    cu->seb = cu->c.bsq.seb;
    stc_eset_clear(&cu->dv);
    cu->conf_sent = 0;
    cu->phase = STC_CU_RUN;
    cu->ready = 0;
    cu->pw = 0;
}

static uint64_t cu_mask(const stc_cu *cu, uint64_t a)
{
    return cu->c.bsq.addr_bits >= 64 ? a : a & ((1ull << cu->c.bsq.addr_bits) - 1);
}

stc_cu_st_res stc_cu_store(stc_cu *cu, uint64_t addr)
{
    stc_cu_st_res r = {STC_CU_ISSUED, 0, 0, 0};
    addr = cu_mask(cu, addr);
    r.band = stc_bsq_band(addr, cu->seb, cu->c.bsq.n);
    if (cu->phase == STC_CU_RUN && stc_eset_has(&cu->cer, r.band)) {
        cu->pw++;
        return r;
    }
    stc_bsq_push_res p = stc_bsq_push(cu->q, addr);
    if (!p.accepted) {
        r.kind = STC_CU_STALLED;
        return r;
    }
    r.kind = STC_CU_BLOCKED;
    r.slot = p.slot;
    if (cu->c.variant != STC_CU_NV && !stc_eset_has(&cu->dv, r.band)) {
        stc_eset_add(&cu->dv, r.band);
        r.demand = 1;
    }
    return r;
}

stc_cu_ld_res stc_cu_load(stc_cu *cu, uint64_t addr)
{
    stc_cu_ld_res r = {0, 0, 0};
    addr = cu_mask(cu, addr);
    r.band = stc_bsq_band(addr, cu->seb, cu->c.bsq.n);
    if (stc_eset_has(&cu->cer, r.band)) {
        r.uncached = 1;
        return r;
    }
    if ((cu->c.variant == STC_CU_AB || cu->c.variant == STC_CU_MB) && !cu->conf_sent &&
        stc_eset_has(&cu->dv, r.band)) {
        cu->conf_sent = 1;
        r.conflict = 1;
    }
    return r;
}

int stc_cu_write_ack(stc_cu *cu)
{
    if (cu->pw == 0)
        return -1;
    cu->pw--;
    if (cu->phase == STC_CU_PREPARE && !cu->ready && cu->pw == 0) {
        cu->ready = 1;
        return 1;
    }
    return 0;
}

int stc_cu_prepare(stc_cu *cu)
{
    if (cu->phase != STC_CU_RUN)
        return -1;
    cu->phase = STC_CU_PREPARE;
    cu->ready = 0;
    if (cu->pw == 0) {
        cu->ready = 1;
        return 1;
    }
    return 0;
}

stc_cu_chg_res stc_cu_change(stc_cu *cu, const stc_eset *cer, unsigned seb,
                             stc_bsq_entry *drn, stc_cu_demand *dem)
{
    stc_cu_chg_res r = {0, 0, 0, 0};
    if (cu->phase != STC_CU_PREPARE || !cu->ready)
        return r;
    /* 2: new epoch set and start bit */
    cu->cer = *cer;
    cu->seb = seb;
    /* 3: demand vector and conflict flag */
    stc_eset_clear(&cu->dv);
    cu->conf_sent = 0;
    /* 4: re-analysis: drain, then re-demand the bands still queued */
    stc_bsq_scan_res s = stc_bsq_scan(cu->q, cer, seb, drn, cu->keep);
    r.drained = s.drained;
    r.cycles = s.cycles;
    cu->pw += s.drained;
    if (cu->c.variant != STC_CU_NV)
        for (unsigned i = 0; i < s.left; i++) {
            unsigned b = stc_bsq_band(cu->keep[i].addr, seb, cu->c.bsq.n);
            if (stc_eset_has(&cu->dv, b))
                continue;
            stc_eset_add(&cu->dv, b);
            if (dem) {
                dem[r.demands].addr = cu->keep[i].addr;
                dem[r.demands].band = b;
            }
            r.demands++;
        }
    /* 5: DoneAck, RUN */
    cu->phase = STC_CU_RUN;
    cu->ready = 0;
    r.ok = 1;
    return r;
}

void stc_cu_demand_ack(stc_cu *cu, unsigned epoch)
{
    (void)cu;
    (void)epoch;
}

stc_cu_phase stc_cu_phase_of(const stc_cu *cu) { return cu->phase; }
int stc_cu_ready_sent(const stc_cu *cu) { return (int)cu->ready; }
const stc_eset *stc_cu_cer(const stc_cu *cu) { return &cu->cer; }
unsigned stc_cu_seb(const stc_cu *cu) { return cu->seb; }
unsigned stc_cu_pw(const stc_cu *cu) { return cu->pw; }
int stc_cu_dv(const stc_cu *cu, unsigned band) { return stc_eset_has(&cu->dv, band); }
int stc_cu_conflict_sent(const stc_cu *cu) { return (int)cu->conf_sent; }
const stc_bsq *stc_cu_bsq(const stc_cu *cu) { return cu->q; }
const stc_cu_cfg *stc_cu_config(const stc_cu *cu) { return &cu->c; }

/* --------------------------------------------------------- timing shell -- */

void stc_cu_port_layout(const stc_cu_cfg *c, stc_cu_layout *l)
{
    stc_bsq_geom gg, *g = &gg;
    unsigned ni = 0, no = 0;
    stc_bsq_geom_of(&c->bsq, g);
    l->in_words = l->out_words = 0;
    stc_layout_put(l->in_width, l->in_word, &ni, &l->in_words, 1); /* rst_ni */
#define STC_LAYOUT_IN(w) stc_layout_put(l->in_width, l->in_word, &ni, &l->in_words, (w));
#define STC_LAYOUT_OUT(w) stc_layout_put(l->out_width, l->out_word, &no, &l->out_words, (w));
#define STC_CU_PORT(d, name, w) STC_LAYOUT_##d(w)
#include "stc_cu_ports.def"
#undef STC_CU_PORT
#undef STC_LAYOUT_IN
#undef STC_LAYOUT_OUT
}

enum { PH_RUN = 0, PH_PREP = 1, PH_CHG = 2 };

struct stc_cu_tm {
    stc_cu_cfg c;
    stc_cu_layout l;
    stc_bsq_layout bl;
    stc_bsq_tm *q;
    uint64_t *qin, *qout;       /* the BSQ's port words                  */
    stc_eset cer, dv;
    unsigned seb, phase, ready_sent, conf_sent, pw;
    unsigned iss_valid, iss_drain, ldr_valid, ldr_unc, dem_valid, conf_valid;
    uint64_t iss_addr, ldr_addr, dem_addr, conf_addr;
    unsigned dem_band, conf_band;
    unsigned char *served;      /* [banks * drain]                        */
};

/* Combinational signals of a cycle (the RTL's assigns). */
typedef struct {
    unsigned st_band, st_direct, st_need_dem, st_ready, st_fire;
    unsigned ld_band, ld_in_cer, ld_conf, ld_ready, ld_fire;
    unsigned iss_free, dem_free, push_valid;
    unsigned q_push_ready, q_full, q_slot, q_drn_valid, q_done_valid;
    int first_drn, first_need;  /* lane, or -1                           */
    unsigned drn_ready, drn_take, need_take;
    uint64_t drn_addr, need_addr;
    unsigned need_band;
    unsigned prep_ready, rdy_valid, chg_ready;
} cu_comb;

static unsigned variant_dem(const stc_cu_tm *t) { return t->c.variant != STC_CU_NV; }
static unsigned variant_conf(const stc_cu_tm *t)
{
    return t->c.variant == STC_CU_AB || t->c.variant == STC_CU_MB;
}

static void cu_comb_of(const stc_cu_tm *t, const uint64_t *in, cu_comb *x)
{
    const stc_cu_layout *l = &t->l;
    unsigned n = t->c.bsq.n, lanes = t->c.bsq.banks * t->c.bsq.drain;
    uint64_t st_addr = in[l->in_word[STC_CU_I_ST_ADDR]], ld_addr = in[l->in_word[STC_CU_I_LD_ADDR]];
    memset(x, 0, sizeof *x);
    stc_bsq_tm_eval(t->q, t->qin, t->qout);
    x->q_push_ready = (unsigned)(t->qout[t->bl.out_word[STC_BSQ_O_PUSH_READY]] & 1);
    x->q_full = (unsigned)(t->qout[t->bl.out_word[STC_BSQ_O_FULL]] & 1);
    x->q_slot = (unsigned)t->qout[t->bl.out_word[STC_BSQ_O_PUSH_SLOT]];
    x->q_drn_valid = (unsigned)(t->qout[t->bl.out_word[STC_BSQ_O_DRN_VALID]] & 1);
    x->q_done_valid = (unsigned)(t->qout[t->bl.out_word[STC_BSQ_O_DONE_VALID]] & 1);
    x->iss_free = !t->iss_valid || (in[l->in_word[STC_CU_I_ISS_READY]] & 1);
    x->dem_free = !t->dem_valid || (in[l->in_word[STC_CU_I_DEM_READY]] & 1);
    /* store */
    x->st_band = stc_bsq_band(st_addr, t->seb, n);
    x->st_direct = t->phase == PH_RUN && stc_eset_has(&t->cer, x->st_band);
    x->st_need_dem = !x->st_direct && variant_dem(t) && !stc_eset_has(&t->dv, x->st_band);
    x->push_valid = (in[l->in_word[STC_CU_I_ST_VALID]] & 1) && !x->st_direct && t->phase != PH_CHG &&
                    (!x->st_need_dem || x->dem_free);
    x->st_ready = t->phase != PH_CHG &&
                  (x->st_direct ? x->iss_free
                                : (x->q_push_ready && (!x->st_need_dem || x->dem_free)));
    x->st_fire = (in[l->in_word[STC_CU_I_ST_VALID]] & 1) && x->st_ready;
    /* load */
    x->ld_band = stc_bsq_band(ld_addr, t->seb, n);
    x->ld_in_cer = (unsigned)stc_eset_has(&t->cer, x->ld_band);
    x->ld_conf = variant_conf(t) && !x->ld_in_cer && stc_eset_has(&t->dv, x->ld_band) &&
                 !t->conf_sent;
    x->ld_ready = (!t->ldr_valid || (in[l->in_word[STC_CU_I_LDR_READY]] & 1)) &&
                  (!x->ld_conf || !t->conf_valid || (in[l->in_word[STC_CU_I_CONF_READY]] & 1));
    x->ld_fire = (in[l->in_word[STC_CU_I_LD_VALID]] & 1) && x->ld_ready;
    /* the beat: first pending drain, first kept lane whose band needs a demand */
    x->first_drn = x->first_need = -1;
    for (unsigned j = 0; j < lanes; j++) {
        uint64_t a;
        int k = stc_bsq_tm_lane(t->q, j, &a);
        if (k == 1 && !t->served[j] && x->first_drn < 0) {
            x->first_drn = (int)j;
            x->drn_addr = a;
        }
        if (k == 2 && variant_dem(t) && !stc_eset_has(&t->dv, stc_bsq_band(a, t->seb, n)) &&
            x->first_need < 0) {
            x->first_need = (int)j;
            x->need_addr = a;
            x->need_band = stc_bsq_band(a, t->seb, n);
        }
    }
    x->drn_ready = x->first_drn < 0 && x->first_need < 0;
    x->drn_take = x->q_drn_valid && x->first_drn >= 0 && x->iss_free;
    x->need_take = x->q_drn_valid && x->first_need >= 0 && x->dem_free;
    /* handshake */
    x->prep_ready = t->phase == PH_RUN;
    x->rdy_valid = t->phase == PH_PREP && !t->ready_sent && t->pw == 0 && !t->iss_valid;
    x->chg_ready = t->phase == PH_PREP && t->ready_sent;
}

static void put_bits(uint64_t *w, unsigned pos, unsigned width, uint64_t v)
{
    for (unsigned i = 0; i < width; i++)
        if ((v >> i) & 1u)
            w[(pos + i) / 64] |= 1ull << ((pos + i) % 64);
}

static void put_set(uint64_t *w, const stc_eset *s, unsigned n)
{
    for (unsigned e = 0; e < (1u << n); e++)
        if (stc_eset_has(s, e))
            put_bits(w, e, 1, 1);
}

stc_cu_tm *stc_cu_tm_new(const stc_cu_cfg *c)
{
    stc_cu_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->c = *c;
    stc_cu_port_layout(c, &t->l);
    stc_bsq_port_layout(&c->bsq, &t->bl);
    t->q = stc_bsq_tm_new_ex(&c->bsq, 1);
    t->qin = calloc(t->bl.in_words, sizeof *t->qin);
    t->qout = calloc(t->bl.out_words, sizeof *t->qout);
    t->served = calloc((size_t)c->bsq.banks * c->bsq.drain, 1);
    if (t->q == NULL || t->qin == NULL || t->qout == NULL || t->served == NULL) {
        stc_cu_tm_free(t);
        return NULL;
    }
    stc_cu_tm_reset(t);
    return t;
}

void stc_cu_tm_free(stc_cu_tm *t)
{
    if (t == NULL)
        return;
    stc_bsq_tm_free(t->q);
    free(t->qin);
    free(t->qout);
    free(t->served);
    free(t);
}

void stc_cu_tm_reset(stc_cu_tm *t)
{
    stc_bsq_tm_reset(t->q);
    t->cer = t->c.epoch;
    t->seb = t->c.bsq.seb;
    stc_eset_clear(&t->dv);
    t->phase = PH_RUN;
    t->ready_sent = t->conf_sent = 0;
    t->pw = 0;
    t->iss_valid = t->iss_drain = t->ldr_valid = t->ldr_unc = t->dem_valid = t->conf_valid = 0;
    t->iss_addr = t->ldr_addr = t->dem_addr = t->conf_addr = 0;
    t->dem_band = t->conf_band = 0;
    memset(t->served, 0, (size_t)t->c.bsq.banks * t->c.bsq.drain);
}

void stc_cu_tm_eval(const stc_cu_tm *t, const uint64_t *in, uint64_t *out)
{
    const stc_cu_layout *l = &t->l;
    cu_comb x;
    cu_comb_of(t, in, &x);
    memset(out, 0, l->out_words * sizeof *out);
    out[l->out_word[STC_CU_O_ST_READY]] = x.st_ready;
    out[l->out_word[STC_CU_O_ST_BLOCKED]] = !x.st_direct;
    out[l->out_word[STC_CU_O_ST_SLOT]] = x.q_slot;
    out[l->out_word[STC_CU_O_BSQ_FULL]] = x.q_full;
    out[l->out_word[STC_CU_O_ISS_VALID]] = t->iss_valid;
    out[l->out_word[STC_CU_O_ISS_ADDR]] = t->iss_addr;
    out[l->out_word[STC_CU_O_ISS_DRAIN]] = t->iss_drain;
    out[l->out_word[STC_CU_O_LD_READY]] = x.ld_ready;
    out[l->out_word[STC_CU_O_LDR_VALID]] = t->ldr_valid;
    out[l->out_word[STC_CU_O_LDR_ADDR]] = t->ldr_addr;
    out[l->out_word[STC_CU_O_LDR_UNCACHED]] = t->ldr_unc;
    out[l->out_word[STC_CU_O_DEM_VALID]] = t->dem_valid;
    out[l->out_word[STC_CU_O_DEM_ADDR]] = t->dem_addr;
    out[l->out_word[STC_CU_O_DEM_BAND]] = t->dem_band;
    out[l->out_word[STC_CU_O_CONF_VALID]] = t->conf_valid;
    out[l->out_word[STC_CU_O_CONF_ADDR]] = t->conf_addr;
    out[l->out_word[STC_CU_O_CONF_BAND]] = t->conf_band;
    out[l->out_word[STC_CU_O_PREP_READY]] = x.prep_ready;
    out[l->out_word[STC_CU_O_RDY_VALID]] = x.rdy_valid;
    out[l->out_word[STC_CU_O_CHG_READY]] = x.chg_ready;
    out[l->out_word[STC_CU_O_DONE_VALID]] = x.q_done_valid;
    put_set(out + l->out_word[STC_CU_O_CER], &t->cer, t->c.bsq.n);
    out[l->out_word[STC_CU_O_SEB]] = t->seb;
    out[l->out_word[STC_CU_O_PHASE]] = t->phase;
    out[l->out_word[STC_CU_O_PW]] = t->pw;
}

void stc_cu_tm_step(stc_cu_tm *t, const uint64_t *in)
{
    const stc_cu_layout *l = &t->l;
    const stc_bsq_layout *bl = &t->bl;
    unsigned n = t->c.bsq.n;
    cu_comb x;
    if (!(in[l->in_word[STC_CU_I_RST]] & 1)) {
        stc_cu_tm_reset(t);
        return;
    }
    cu_comb_of(t, in, &x);
    unsigned iss_fire = t->iss_valid && (in[l->in_word[STC_CU_I_ISS_READY]] & 1);
    unsigned chg_fire = (in[l->in_word[STC_CU_I_CHG_VALID]] & 1) && x.chg_ready;
    unsigned done_fire = x.q_done_valid && (in[l->in_word[STC_CU_I_DONE_READY]] & 1);
    uint64_t st_addr = in[l->in_word[STC_CU_I_ST_ADDR]] & cohkit_mask64(t->c.bsq.addr_bits);
    uint64_t ld_addr = in[l->in_word[STC_CU_I_LD_ADDR]] & cohkit_mask64(t->c.bsq.addr_bits);

    /* the BSQ's inputs of this cycle, then its edge */
    memset(t->qin, 0, bl->in_words * sizeof *t->qin);
    t->qin[bl->in_word[STC_BSQ_I_RST]] = 1;
    t->qin[bl->in_word[STC_BSQ_I_PUSH_VALID]] = x.push_valid;
    t->qin[bl->in_word[STC_BSQ_I_PUSH_ADDR]] = st_addr;
    t->qin[bl->in_word[STC_BSQ_I_CHG_VALID]] = chg_fire;
    memcpy(t->qin + bl->in_word[STC_BSQ_I_CHG_CER], in + l->in_word[STC_CU_I_CHG_CER],
           ((bl->in_width[STC_BSQ_I_CHG_CER] + 63) / 64) * sizeof *t->qin);
    t->qin[bl->in_word[STC_BSQ_I_CHG_SEB]] = in[l->in_word[STC_CU_I_CHG_SEB]];
    t->qin[bl->in_word[STC_BSQ_I_DRN_READY]] = x.drn_ready;
    t->qin[bl->in_word[STC_BSQ_I_DONE_READY]] = (in[l->in_word[STC_CU_I_DONE_READY]] & 1);

    /* store path and drains into the L1 register */
    if (iss_fire)
        t->iss_valid = 0;
    if (x.st_fire && x.st_direct) {
        t->iss_valid = 1;
        t->iss_addr = st_addr;
        t->iss_drain = 0;
    }
    if (x.drn_take) {
        t->iss_valid = 1;
        t->iss_addr = x.drn_addr;
        t->iss_drain = 1;
        t->served[x.first_drn] = 1;
    }
    if (x.q_drn_valid && x.drn_ready)
        memset(t->served, 0, (size_t)t->c.bsq.banks * t->c.bsq.drain);
    t->pw = (unsigned)((t->pw + iss_fire - (in[l->in_word[STC_CU_I_WA]] & 1)) & cohkit_mask64(STC_CU_PW_BITS));
    /* demands */
    if (t->dem_valid && (in[l->in_word[STC_CU_I_DEM_READY]] & 1))
        t->dem_valid = 0;
    if (x.st_fire && x.st_need_dem) {
        t->dem_valid = 1;
        t->dem_addr = st_addr;
        t->dem_band = x.st_band;
        stc_eset_add(&t->dv, x.st_band);
    }
    if (x.need_take) {
        t->dem_valid = 1;
        t->dem_addr = x.need_addr;
        t->dem_band = x.need_band;
        stc_eset_add(&t->dv, x.need_band);
    }
    /* loads and conflicts */
    if (t->ldr_valid && (in[l->in_word[STC_CU_I_LDR_READY]] & 1))
        t->ldr_valid = 0;
    if (t->conf_valid && (in[l->in_word[STC_CU_I_CONF_READY]] & 1))
        t->conf_valid = 0;
    if (x.ld_fire) {
        t->ldr_valid = 1;
        t->ldr_addr = ld_addr;
        t->ldr_unc = x.ld_in_cer;
        if (x.ld_conf) {
            t->conf_valid = 1;
            t->conf_addr = ld_addr;
            t->conf_band = x.ld_band;
            t->conf_sent = 1;
        }
    }
    /* handshake */
    if ((in[l->in_word[STC_CU_I_PREP_VALID]] & 1) && x.prep_ready) {
        t->phase = PH_PREP;
        t->ready_sent = 0;
    }
    if (x.rdy_valid && (in[l->in_word[STC_CU_I_RDY_READY]] & 1))
        t->ready_sent = 1;
    if (chg_fire) {
        stc_eset_clear(&t->cer);
        for (unsigned e = 0; e < (1u << n); e++)
            if ((in[l->in_word[STC_CU_I_CHG_CER] + e / 64] >> (e % 64)) & 1)
                stc_eset_add(&t->cer, e);
        t->seb = (unsigned)(in[l->in_word[STC_CU_I_CHG_SEB]] & cohkit_mask64(l->in_width[STC_CU_I_CHG_SEB]));
        stc_eset_clear(&t->dv);
        t->conf_sent = 0;
        t->ready_sent = 0;
        t->phase = PH_CHG;
    }
    if (done_fire)
        t->phase = PH_RUN;
    stc_bsq_tm_step(t->q, t->qin);
}
