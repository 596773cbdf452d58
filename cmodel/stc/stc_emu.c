/*
 * STC epoch management unit: configuration, functional core (one call per
 * message received) and timing shell (the RTL's cycle: handshake, then the
 * registered conflict, then the arbitrated demand). See stc_emu.h and
 * docs/stc.md.
 */
#include "stc_emu.h"
#include "bits.h"
#include "cfg_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ configuration -- */

void stc_emu_cfg_default(stc_emu_cfg *c)
{
    /* seb_max 0: addr_bits - n; mb_max 0: min(4, 2^n) (cfg_check) */
    static const stc_emu_cfg d = {.variant = STC_MB, .n = 4, .seb = 12, .seb_min = 12,
                                  .addr_bits = 32, .cus = 8, .seb_guard = 1, .wake = 100,
                                  .epoch = {.n = 1, .e = {0}}};
    *c = d;
}

static const cohkit_cfg_preset presets[] = {
    {"default", ""},
    {"fpga", "--cus 2"},
    {NULL, NULL},
};

const char *stc_variant_name(stc_variant v)
{
    static const char *const nm[] = {"nv", "es", "ab", "mb"};
    return (unsigned)v < 4 ? nm[v] : "?";
}

const char *stc_phase_name(stc_phase p)
{
    static const char *const nm[] = {"IDLE", "PREP", "CHG"};
    return (unsigned)p < 3 ? nm[p] : "?";
}

static const cohkit_unit_opt_choice variants[] = {
    {"nv", STC_NV, 0}, {"es", STC_ES, 0}, {"ab", STC_AB, 0}, {"mb", STC_MB, 0}, {NULL, 0, 0}};

static int set_epoch(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    char e2[200];
    (void)name;
    /* parsed against the largest N; cfg_check tests it against --n */
    if (stc_elist_parse(value, STC_N_MAX, &((stc_emu_cfg *)cfg)->epoch, e2, sizeof e2) != 0) {
        snprintf(err, len, "--epoch: %s", e2);
        return -1;
    }
    return 0;
}

static void put_epoch(const void *cfg, char *buf, size_t len)
{
    stc_elist_format(&((const stc_emu_cfg *)cfg)->epoch, buf, len);
}

static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_CHOICE("variant", "V", "nv|es|ab|mb (default mb)", stc_emu_cfg, variant, variants),
    COHKIT_UNIT_OPT_NUM("n", "N", "band bits, 1..8 (default 4: 16 epochs)", stc_emu_cfg, n),
    COHKIT_UNIT_OPT_NUM("seb", "S", "initial start epoch bit (default 12)", stc_emu_cfg, seb),
    COHKIT_UNIT_OPT_NUM("seb-min", "S", "lowest SEB (default 12)", stc_emu_cfg, seb_min),
    COHKIT_UNIT_OPT_NUM("seb-max", "S", "highest SEB (default addr-bits - n)", stc_emu_cfg, seb_max),
    COHKIT_UNIT_OPT_NUM("addr-bits", "A", "address width, 8..63 (default 32)", stc_emu_cfg, addr_bits),
    COHKIT_UNIT_OPT_NUM("cus", "K", "CUs, 1..32 (default 8)", stc_emu_cfg, cus),
    COHKIT_UNIT_OPT_NUM("mb-max", "M", "concurrent epochs in mb, 1..2^n (default 4)", stc_emu_cfg, mb_max),
    COHKIT_UNIT_OPT_NUM("seb-guard", "0|1",
                "adaptive-band progress guard (default 1)",
                stc_emu_cfg, seb_guard),
    COHKIT_UNIT_OPT_NUM("wake", "W",
                "wake-up period in cycles, 1..65535 (default 100)",
                stc_emu_cfg, wake),
    COHKIT_UNIT_OPT_FN("epoch", "LIST",
                "initial epoch set, e.g. 0 or 3,5 (default 0)",
                set_epoch, put_epoch),
    COHKIT_UNIT_OPT_END,
};
const cohkit_unit_opt_table stc_emu_opts = {opts, "a decimal number", 1000000, 10, 0, NULL};

COHKIT_CFG_OPT_FNS(stc_emu, stc_emu_cfg, presets, stc_emu_cfg_default)

int stc_emu_cfg_check(stc_emu_cfg *c, char *err, size_t len)
{
    unsigned E, i;
    if (cohkit_cfg_in(err, len, "n", c->n, 1, STC_N_MAX))
        return -1;
    E = 1u << c->n;
    if (c->addr_bits < 8 || c->addr_bits > STC_ADDR_BITS_MAX || c->addr_bits < c->n + 1)
        return cohkit_cfg_fail(err, len, "--addr-bits: %u is not in 8..63", c->addr_bits);
    if (c->seb_max == 0)
        c->seb_max = c->addr_bits - c->n;
    if (c->seb_max > c->addr_bits)
        return cohkit_cfg_fail(err, len, "--seb-max: %u exceeds --addr-bits %u", c->seb_max,
                               c->addr_bits);
    if (c->seb_min > c->seb_max)
        return cohkit_cfg_fail(err, len, "--seb-min: %u is above --seb-max %u", c->seb_min,
                               c->seb_max);
    if (c->seb < c->seb_min || c->seb > c->seb_max)
        return cohkit_cfg_fail(err, len, "--seb: %u is not in %u..%u (--seb-min..--seb-max)", c->seb,
                               c->seb_min, c->seb_max);
    if (cohkit_cfg_in(err, len, "cus", c->cus, 1, STC_CUS_MAX))
        return -1;
    if (c->mb_max == 0)
        c->mb_max = E < 4 ? E : 4;
    if (cohkit_cfg_in(err, len, "mb-max", c->mb_max, 1, E))
        return -1;
    if (c->seb_guard > 1)
        return cohkit_cfg_fail(err, len, "--seb-guard: %u is not 0 or 1", c->seb_guard);
    if (cohkit_cfg_in(err, len, "wake", c->wake, 1, 65535))
        return -1;
    for (i = 0; i < c->epoch.n; i++)
        if (c->epoch.e[i] >= E)
            return cohkit_cfg_fail(err, len, "--epoch: epoch %u is not below 2^%u",
                                   (unsigned)c->epoch.e[i], c->n);
    if (c->epoch.n < 1 || c->epoch.n > (c->variant == STC_MB ? c->mb_max : 1u))
        return cohkit_cfg_fail(err, len, "--epoch: %u epochs, %s allows %s", c->epoch.n,
                               stc_variant_name(c->variant),
                               c->variant == STC_MB ? "1..--mb-max" : "one");
    return 0;
}

void stc_emu_cfg_name(const stc_emu_cfg *c, char *buf, size_t len)
{
    char ep[STC_E_MAX * 4];
    unsigned i;
    stc_elist_format(&c->epoch, ep, sizeof ep);
    for (i = 0; ep[i]; i++)
        if (ep[i] == ',')
            ep[i] = '_';
    snprintf(buf, len, "stc_emu_%s_n%u_s%u_%u_%u_a%u_k%u_m%u_g%u_w%u_e%s",
             stc_variant_name(c->variant), c->n, c->seb, c->seb_min, c->seb_max, c->addr_bits,
             c->cus, c->mb_max, c->seb_guard, c->wake, ep);
}

unsigned stc_emu_progress_k(const stc_emu_cfg *c)
{
    unsigned E = 1u << c->n;
    if (c->variant == STC_NV || c->variant == STC_ES)
        return E + 1;
    return c->seb_guard ? 2 * E + 1 : 0;
}

/* ---------------------------------------------------------------- core -- */

void stc_emu_init(stc_emu *m, const stc_emu_cfg *c)
{
    memset(m, 0, sizeof *m);
    m->c = *c;
    m->phase = STC_IDLE;
    m->cur_list = c->epoch;
    stc_eset_of(&c->epoch, &m->cur);
    m->ptr = c->epoch.n ? c->epoch.e[c->epoch.n - 1] : 0;
    m->seb = c->seb;
    m->seb_next = c->seb;
    m->guard = 1u << c->n;
}

stc_wake_res stc_emu_wake(stc_emu *m, stc_elist *target)
{
    unsigned E = 1u << m->c.n, i, lim;
    stc_elist t;
    if (m->phase != STC_IDLE)
        return STC_WAKE_BUSY;
    t.n = 0;
    if (m->c.variant == STC_NV) {
        t.n = 1;
        t.e[0] = (uint16_t)((m->ptr + 1) & (E - 1));
    } else {
        /* S5: demands of current epochs are stale */
        for (i = 0; i < STC_E_MAX / 64; i++)
            m->erv.w[i] &= ~m->cur.w[i];
        lim = m->c.variant == STC_MB ? m->c.mb_max : 1;
        for (i = 1; i <= E && t.n < lim; i++) {
            unsigned e = (m->ptr + i) & (E - 1);
            if (stc_eset_has(&m->erv, e)) {
                t.e[t.n++] = (uint16_t)e;
                stc_eset_del(&m->erv, e);
            }
        }
        if (t.n == 0) {
            m->sleeps++;
            return STC_WAKE_SLEEP;
        }
    }
    m->tgt = t;
    m->phase = STC_PREP;
    m->rdy_got = 0;
    if (target)
        *target = m->tgt;
    return STC_WAKE_PREP;
}

int stc_emu_demand(stc_emu *m, unsigned cu, uint64_t addr, unsigned *epoch)
{
    unsigned e;
    (void)cu;
    if (m->c.variant == STC_NV)
        return 0;
    addr &= cohkit_mask64(m->c.addr_bits);
    e = stc_band(addr, m->seb, m->c.n, m->c.addr_bits);
    if (!stc_eset_has(&m->erv, e)) {
        stc_eset_add(&m->erv, e);
        m->erv_addr[e] = m->c.variant >= STC_AB ? addr : 0;
    }
    m->demands++;
    if (epoch)
        *epoch = e;
    return 1;
}

int stc_emu_conflict(stc_emu *m, unsigned cu, uint64_t addr, unsigned *seb_next)
{
    unsigned seb = m->seb, b, i;
    uint64_t d, low = 0, high = 0;
    (void)cu;
    if (m->c.variant < STC_AB)
        return 0;
    m->conflicts++;
    if (m->seb_next != m->seb)
        return 0;
    if (m->c.seb_guard && m->guard < (1u << m->c.n))
        return 0;
    addr &= cohkit_mask64(m->c.addr_bits);
    b = stc_band(addr, seb, m->c.n, m->c.addr_bits);
    if (!stc_eset_has(&m->erv, b))
        return 0;
    d = addr ^ m->erv_addr[b];
    for (i = m->c.seb_min; i < seb; i++)
        low |= d & (1ull << i);
    for (i = seb + m->c.n; i < m->c.addr_bits; i++)
        high |= d & (1ull << i);
    if (low != 0)
        m->seb_next = seb - 1;
    else if (high != 0 && seb < m->c.seb_max)
        m->seb_next = seb + 1;
    else
        return 0;
    if (seb_next)
        *seb_next = m->seb_next;
    return 1;
}

int stc_emu_ready(stc_emu *m, unsigned cu, stc_elist *epochs, unsigned *seb)
{
    unsigned E = 1u << m->c.n, all, dist, last;
    if (m->phase != STC_PREP || cu >= m->c.cus || (m->rdy_got >> cu) & 1)
        return -1;
    m->rdy_got |= 1u << cu;
    all = m->c.cus >= 32 ? 0xffffffffu : (1u << m->c.cus) - 1;
    if (m->rdy_got != all)
        return 0;
    /* ChangeEpoch: the EMU takes the new set now */
    last = m->tgt.e[m->tgt.n - 1];
    dist = (last - m->ptr) & (E - 1);
    if (dist == 0)
        dist = E;
    m->cur_list = m->tgt;
    stc_eset_of(&m->tgt, &m->cur);
    m->ptr = last;
    if (m->seb_next != m->seb) {
        m->seb = m->seb_next;
        stc_eset_clear(&m->erv);
        m->guard = 0;
        m->seb_changes++;
    } else {
        m->guard = m->guard + dist > E ? E : m->guard + dist;
    }
    m->phase = STC_CHG;
    m->done_got = 0;
    m->transitions++;
    if (epochs)
        *epochs = m->cur_list;
    if (seb)
        *seb = m->seb;
    return 1;
}

int stc_emu_done(stc_emu *m, unsigned cu, stc_elist *epochs, unsigned *seb)
{
    unsigned all;
    if (m->phase != STC_CHG || cu >= m->c.cus || (m->done_got >> cu) & 1)
        return -1;
    m->done_got |= 1u << cu;
    all = m->c.cus >= 32 ? 0xffffffffu : (1u << m->c.cus) - 1;
    if (m->done_got != all)
        return 0;
    m->phase = STC_IDLE;
    if (epochs)
        *epochs = m->cur_list;
    if (seb)
        *seb = m->seb;
    return 1;
}

int stc_emu_erv(const stc_emu *m, unsigned e, uint64_t *addr)
{
    if (e >= (1u << m->c.n) || !stc_eset_has(&m->erv, e))
        return 0;
    if (addr)
        *addr = m->erv_addr[e];
    return 1;
}

/* -------------------------------------------------------- timing shell -- */

uint64_t stc_port_get(const uint64_t *words, unsigned lo, unsigned w)
{
    unsigned i = lo / 64, s = lo % 64;
    uint64_t v = words[i] >> s;
    if (s && s + w > 64)
        v |= words[i + 1] << (64 - s);
    return v & cohkit_mask64(w);
}

void stc_port_put(uint64_t *words, unsigned lo, unsigned w, uint64_t v)
{
    unsigned i = lo / 64, s = lo % 64;
    v &= cohkit_mask64(w);
    words[i] = (words[i] & ~(cohkit_mask64(w) << s)) | (v << s);
    if (s && s + w > 64)
        words[i + 1] = (words[i + 1] & ~(cohkit_mask64(s + w - 64))) | (v >> (64 - s));
}

void stc_emu_geom_of(const stc_emu_cfg *c, stc_emu_geom *g)
{
    unsigned K = c->cus, E = 1u << c->n;
    g->E = E;
    g->seb_bits = cohkit_bits_of(c->addr_bits);
    g->cu_bits = cohkit_width(K);
    g->wake_bits = cohkit_width(c->wake);
    g->guard_bits = c->n + 1;
    g->erv_addr_bits = c->variant >= STC_AB ? c->addr_bits : 0;
    g->search = c->variant == STC_NV ? 0 : (c->variant == STC_MB ? c->mb_max : 1) + 3;
    g->search_bits = g->search ? cohkit_width(g->search + 1) : 0;
    /* phase 2, cur and target sets 2E, pointer and target's last epoch 2n,
     * SEB and pending SEB, guard, wake-up counter, ERV demand bits E (not
     * in NV), ReadyAck/DoneAck vectors 2K, PREP/CHG valid and sleep 3, the
     * acknowledgement register 1 + cu + n, two arbiter pointers, the
     * conflict register 1 + A, and in AB/MB its ERV index n and the RAM
     * bypass register 1 + A (the RAM's read register is not counted); the
     * target search (not in NV): its step counter, remaining and taken
     * demand bits (rotated), the result and its last epoch, 3E + n */
    g->state_bits = 2 + 2 * E + 2 * c->n + 2 * g->seb_bits + g->guard_bits + g->wake_bits +
                    (c->variant == STC_NV ? 0 : E) + 2 * K + 3 + 1 + g->cu_bits + c->n +
                    2 * g->cu_bits + 1 + c->addr_bits +
                    (c->variant >= STC_AB ? c->n + 1 + c->addr_bits : 0) +
                    (g->search ? g->search_bits + 3 * E + c->n : 0);
}

int stc_emu_port_table(const stc_emu_cfg *c, stc_emu_port *p)
{
    stc_emu_geom gg, *g = &gg;
    int n = 0;
    stc_emu_geom_of(c, g);
#define STC_EMU_OUT_IN 0
#define STC_EMU_OUT_OUT 1
#define STC_EMU_PORT(d, nm, w) (p[n].out = STC_EMU_OUT_##d, p[n].name = #nm, p[n].width = (w), n++);
#include "stc_emu_ports.def"
#undef STC_EMU_PORT
#undef STC_EMU_OUT_IN
#undef STC_EMU_OUT_OUT
    return n;
}

stc_emu_tm *stc_emu_tm_new(const stc_emu_cfg *c)
{
    stc_emu_tm *t = calloc(1, sizeof *t);
    stc_emu_port p[STC_EMU_PORTS];
    int n, i;
    unsigned ni = 1, no = 0, wi = 1, wo = 0;
    if (t == NULL)
        return NULL;
    t->c = *c;
    stc_emu_geom_of(c, &t->g);
    n = stc_emu_port_table(c, p);
    t->in_off[0] = 0;
    for (i = 0; i < n; i++) {
        unsigned w = (p[i].width + 63) / 64;
        if (p[i].out) {
            t->out_off[no++] = wo;
            wo += w;
        } else {
            t->in_off[ni++] = wi;
            wi += w;
        }
    }
    t->in_words = wi;
    t->out_words = wo;
    stc_emu_tm_reset(t);
    return t;
}

void stc_emu_tm_free(stc_emu_tm *t) { free(t); }

void stc_emu_tm_reset(stc_emu_tm *t)
{
    stc_emu_init(&t->m, &t->c);
    t->wcnt = 0;
    t->srch = 0;
    t->prep_v = t->chg_v = t->sleep_q = 0;
    t->dack_v = t->dack_cu = t->dack_epoch = 0;
    t->drr = t->crr = 0;
    t->c2_v = t->c2_cu = 0;
    t->c2_addr = 0;
}

static uint64_t in_bit(const stc_emu_tm *t, const uint64_t *in, int port, unsigned k)
{
    return (in[t->in_off[port]] >> k) & 1;
}

/* Round robin: the first requester at or after priority `rr`; -1 if none. */
static int rr_pick(uint64_t req, unsigned rr, unsigned K)
{
    unsigned i;
    for (i = 0; i < K; i++) {
        unsigned k = (rr + i) % K;
        if ((req >> k) & 1)
            return (int)k;
    }
    return -1;
}

/* Demands wait while the wake-up target search reads the ERV (its first
 * step to the one before the wake-up takes effect), so that the search sees
 * the ERV of the cycle the wake-up takes effect in. */
static int dem_grant(const stc_emu_tm *t, const uint64_t *in)
{
    if (t->srch && t->srch != t->g.search)
        return -1;
    if (t->dack_v && !(in[t->in_off[STC_EMU_I_DACK_READY]] & 1))
        return -1;
    return rr_pick(in[t->in_off[STC_EMU_I_DEM_VALID]], t->drr, t->c.cus);
}

static int conf_grant(const stc_emu_tm *t, const uint64_t *in)
{
    return rr_pick(in[t->in_off[STC_EMU_I_CONF_VALID]], t->crr, t->c.cus);
}

static void put_set(uint64_t *w, const stc_eset *s, unsigned E)
{
    unsigned i;
    for (i = 0; i < (E + 63) / 64; i++)
        w[i] = E >= 64 ? s->w[i] : s->w[0] & cohkit_mask64(E);
}

void stc_emu_eval(const stc_emu_tm *t, const uint64_t *in, uint64_t *out)
{
    unsigned K = t->c.cus, E = t->g.E;
    uint64_t all = cohkit_mask64(K);
    int d = dem_grant(t, in), cf = conf_grant(t, in);
    stc_eset tg;
    memset(out, 0, t->out_words * sizeof *out);
    out[t->out_off[STC_EMU_O_DEM_READY]] = d >= 0 ? 1ull << d : 0;
    out[t->out_off[STC_EMU_O_CONF_READY]] = cf >= 0 ? 1ull << cf : 0;
    out[t->out_off[STC_EMU_O_RDY_READY]] = all;
    out[t->out_off[STC_EMU_O_DONE_READY]] = all;
    out[t->out_off[STC_EMU_O_DACK_VALID]] = t->dack_v;
    out[t->out_off[STC_EMU_O_DACK_CU]] = t->dack_cu;
    out[t->out_off[STC_EMU_O_DACK_EPOCH]] = t->dack_epoch;
    out[t->out_off[STC_EMU_O_PREP_VALID]] = t->prep_v;
    stc_eset_of(&t->m.tgt, &tg);
    put_set(out + t->out_off[STC_EMU_O_PREP_EPOCHS], &tg, E);
    out[t->out_off[STC_EMU_O_CHG_VALID]] = t->chg_v;
    put_set(out + t->out_off[STC_EMU_O_CHG_EPOCHS], &t->m.cur, E);
    out[t->out_off[STC_EMU_O_CHG_SEB]] = t->m.seb;
    put_set(out + t->out_off[STC_EMU_O_CUR], &t->m.cur, E);
    out[t->out_off[STC_EMU_O_PTR]] = t->m.ptr;
    out[t->out_off[STC_EMU_O_SEB]] = t->m.seb;
    out[t->out_off[STC_EMU_O_SEB_NEXT]] = t->m.seb_next;
    out[t->out_off[STC_EMU_O_PHASE]] = (uint64_t)t->m.phase;
    out[t->out_off[STC_EMU_O_SLEEP]] = t->sleep_q;
}

void stc_emu_step(stc_emu_tm *t, const uint64_t *in)
{
    unsigned K = t->c.cus, A = t->c.addr_bits, k;
    uint64_t all = cohkit_mask64(K);
    int d, cf;
    stc_phase ph = t->m.phase;
    unsigned prep_v = t->prep_v, chg_v = t->chg_v;
    if (!(in[0] & 1)) {
        stc_emu_tm_reset(t);
        return;
    }
    d = dem_grant(t, in);
    cf = conf_grant(t, in);
    /* 1. handshake, on the state at the start of the cycle */
    if (prep_v && (in[t->in_off[STC_EMU_I_PREP_READY]] & all) == all)
        t->prep_v = 0;
    if (chg_v && (in[t->in_off[STC_EMU_I_CHG_READY]] & all) == all)
        t->chg_v = 0;
    t->sleep_q = 0;
    if (ph == STC_IDLE) {
        int fire = !t->srch && ((int)(in[t->in_off[STC_EMU_I_WAKE]] & 1) ||
                                ((in[t->in_off[STC_EMU_I_TMR_EN]] & 1) && t->wcnt == t->c.wake - 1));
        /* ES/AB/MB: the wake-up starts the search; it takes effect
         * g.search cycles later, the counter held at 0 meanwhile */
        int take = t->g.search ? t->srch == t->g.search : fire;
        if (fire)
            t->wcnt = 0;
        else if (!t->srch && (in[t->in_off[STC_EMU_I_TMR_EN]] & 1))
            t->wcnt = (t->wcnt + 1) & (unsigned)cohkit_mask64(t->g.wake_bits);
        if (take) {
            if (stc_emu_wake(&t->m, NULL) == STC_WAKE_PREP)
                t->prep_v = 1;
            else
                t->sleep_q = 1;
        }
        if (t->g.search)
            t->srch = take ? 0 : t->srch ? t->srch + 1 : (unsigned)fire;
    } else if (ph == STC_PREP && !prep_v) {
        for (k = 0; k < K; k++)
            if (in_bit(t, in, STC_EMU_I_RDY_VALID, k) && stc_emu_ready(&t->m, k, NULL, NULL) == 1)
                t->chg_v = 1;
    } else if (ph == STC_CHG && !chg_v) {
        for (k = 0; k < K; k++)
            if (in_bit(t, in, STC_EMU_I_DONE_VALID, k) && stc_emu_done(&t->m, k, NULL, NULL) == 1)
                t->wcnt = 0;
    }
    /* 2. the conflict registered last cycle */
    if (t->c2_v)
        stc_emu_conflict(&t->m, t->c2_cu, t->c2_addr, NULL);
    t->c2_v = 0;
    if (cf >= 0) {
        t->c2_v = 1;
        t->c2_cu = (unsigned)cf;
        t->c2_addr = stc_port_get(in + t->in_off[STC_EMU_I_CONF_ADDR], (unsigned)cf * A, A);
        t->crr = ((unsigned)cf + 1) % K;
    }
    /* 3. the arbitrated demand */
    if (t->dack_v && (in[t->in_off[STC_EMU_I_DACK_READY]] & 1))
        t->dack_v = 0;
    if (d >= 0) {
        unsigned e;
        uint64_t a = stc_port_get(in + t->in_off[STC_EMU_I_DEM_ADDR], (unsigned)d * A, A);
        if (stc_emu_demand(&t->m, (unsigned)d, a, &e)) {
            t->dack_v = 1;
            t->dack_cu = (unsigned)d;
            t->dack_epoch = e;
        }
        t->drr = ((unsigned)d + 1) % K;
    }
}
