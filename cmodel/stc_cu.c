/*
 * STC per-CU epoch logic: configuration, functional core (store, load,
 * write ack, PrepareEpochChange, ChangeEpoch) and timing shell.
 * See stc_cu.h and docs/stc.md (## stc-cu).
 */
#include "stc_cu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------- configuration -- */

void stc_cu_cfg_default(stc_cu_cfg *c)
{
    c->variant = STC_CU_MB;
    c->mb_max = 4;
    stc_bsq_eset_clear(&c->epoch);
    stc_bsq_eset_add(&c->epoch, 0);
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

int stc_cu_cfg_option(stc_cu_cfg *c, const char *name, const char *value, char *err,
                      size_t len)
{
    if (strcmp(name, "variant") == 0) {
        for (unsigned v = 0; v < 4; v++)
            if (value && strcmp(value, stc_cu_variant_name((stc_cu_variant)v)) == 0) {
                c->variant = (stc_cu_variant)v;
                return 0;
            }
        snprintf(err, len, "--variant: '%s' is not nv, es, ab or mb", value ? value : "");
        return -1;
    }
    if (strcmp(name, "mb-max") == 0) {
        char *end;
        unsigned long v;
        if (value == NULL || *value < '0' || *value > '9' ||
            (v = strtoul(value, &end, 10), *end) || v > 1000) {
            snprintf(err, len, "--mb-max: '%s' is not a decimal number", value ? value : "");
            return -1;
        }
        c->mb_max = (unsigned)v;
        return 0;
    }
    if (strcmp(name, "epoch") == 0) {
        char why[128];
        /* checked against N in stc_cu_cfg_check; parse with the widest N */
        if (stc_bsq_eset_parse(&c->epoch, value, STC_BSQ_N_MAX, why, sizeof why) != 0) {
            snprintf(err, len, "--epoch: %s", why);
            return -1;
        }
        return 0;
    }
    return stc_bsq_cfg_option(&c->bsq, name, value, err, len);
}

int stc_cu_cfg_check(stc_cu_cfg *c, char *err, size_t len)
{
    unsigned cnt;
    if (stc_bsq_cfg_check(&c->bsq, err, len) != 0)
        return -1;
    if (c->mb_max < 1 || c->mb_max > (1u << c->bsq.n)) {
        snprintf(err, len, "--mb-max: %u is not in 1..%u", c->mb_max, 1u << c->bsq.n);
        return -1;
    }
    for (unsigned e = 1u << c->bsq.n; e < STC_BSQ_EPOCHS_MAX; e++)
        if (stc_bsq_eset_has(&c->epoch, e)) {
            snprintf(err, len, "--epoch: epoch %u is not below 2^%u", e, c->bsq.n);
            return -1;
        }
    cnt = stc_bsq_eset_count(&c->epoch);
    if (cnt == 0 || cnt > (c->variant == STC_CU_MB ? c->mb_max : 1u)) {
        snprintf(err, len, "--epoch: %u epochs, %s allows 1..%u", cnt,
                 stc_cu_variant_name(c->variant), c->variant == STC_CU_MB ? c->mb_max : 1u);
        return -1;
    }
    return 0;
}

void stc_cu_cfg_name(const stc_cu_cfg *c, char *buf, size_t len)
{
    char b[128];
    stc_bsq_cfg_name(&c->bsq, b, sizeof b);
    snprintf(buf, len, "stc_cu_%s_m%u_%s", stc_cu_variant_name(c->variant), c->mb_max, b + 8);
}

void stc_cu_cfg_args(const stc_cu_cfg *c, char *buf, size_t len)
{
    char b[256], e[1024];
    stc_bsq_cfg_args(&c->bsq, b, sizeof b);
    snprintf(buf, len, "--variant %s --mb-max %u --epoch %s %s", stc_cu_variant_name(c->variant),
             c->mb_max, stc_bsq_eset_format(&c->epoch, e, sizeof e), b);
}

/* ----------------------------------------------------------------- core -- */

struct stc_cu {
    stc_cu_cfg c;
    stc_bsq *q;
    stc_bsq_eset cer;
    unsigned seb;
    stc_bsq_eset dv;    /* demand vector                                  */
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
    stc_bsq_eset_clear(&cu->dv);
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
    if (cu->phase == STC_CU_RUN && stc_bsq_eset_has(&cu->cer, r.band)) {
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
    if (cu->c.variant != STC_CU_NV && !stc_bsq_eset_has(&cu->dv, r.band)) {
        stc_bsq_eset_add(&cu->dv, r.band);
        r.demand = 1;
    }
    return r;
}

stc_cu_ld_res stc_cu_load(stc_cu *cu, uint64_t addr)
{
    stc_cu_ld_res r = {0, 0, 0};
    addr = cu_mask(cu, addr);
    r.band = stc_bsq_band(addr, cu->seb, cu->c.bsq.n);
    if (stc_bsq_eset_has(&cu->cer, r.band)) {
        r.uncached = 1;
        return r;
    }
    if ((cu->c.variant == STC_CU_AB || cu->c.variant == STC_CU_MB) && !cu->conf_sent &&
        stc_bsq_eset_has(&cu->dv, r.band)) {
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

stc_cu_chg_res stc_cu_change(stc_cu *cu, const stc_bsq_eset *cer, unsigned seb,
                             stc_bsq_entry *drn, stc_cu_demand *dem)
{
    stc_cu_chg_res r = {0, 0, 0, 0};
    if (cu->phase != STC_CU_PREPARE || !cu->ready)
        return r;
    /* 2: new epoch set and start bit */
    cu->cer = *cer;
    cu->seb = seb;
    /* 3: demand vector and conflict flag */
    stc_bsq_eset_clear(&cu->dv);
    cu->conf_sent = 0;
    /* 4: re-analysis: drain, then re-demand the bands still queued */
    stc_bsq_scan_res s = stc_bsq_scan(cu->q, cer, seb, drn, cu->keep);
    r.drained = s.drained;
    r.cycles = s.cycles;
    cu->pw += s.drained;
    if (cu->c.variant != STC_CU_NV)
        for (unsigned i = 0; i < s.left; i++) {
            unsigned b = stc_bsq_band(cu->keep[i].addr, seb, cu->c.bsq.n);
            if (stc_bsq_eset_has(&cu->dv, b))
                continue;
            stc_bsq_eset_add(&cu->dv, b);
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
const stc_bsq_eset *stc_cu_cer(const stc_cu *cu) { return &cu->cer; }
unsigned stc_cu_seb(const stc_cu *cu) { return cu->seb; }
unsigned stc_cu_pw(const stc_cu *cu) { return cu->pw; }
int stc_cu_dv(const stc_cu *cu, unsigned band) { return stc_bsq_eset_has(&cu->dv, band); }
int stc_cu_conflict_sent(const stc_cu *cu) { return (int)cu->conf_sent; }
const stc_bsq *stc_cu_bsq(const stc_cu *cu) { return cu->q; }
const stc_cu_cfg *stc_cu_config(const stc_cu *cu) { return &cu->c; }
