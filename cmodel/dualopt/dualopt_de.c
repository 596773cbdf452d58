/*
 * DualOpt decision engine (section 4.3, Fig. 10-12, Table 1): configuration,
 * exact threshold parsing, geometry, functional core and timing shell.
 * See cmodel/dualopt/dualopt_de.h and docs/dualopt.md.
 */
#include "dualopt_de.h"
#include "bits.h"
#include "cfg_check.h"
#include "unit_trace.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *dualopt_de_mode_str(dualopt_de_mode m)
{
    static const char *const s[] = {"MONITOR", "NONE", "COALESCE", "CACHE"};
    return s[m & 3];
}

void dualopt_de_cfg_default(dualopt_de_cfg *c)
{
    static const dualopt_de_cfg d = {.window = 20000, .remote_th = {1, 50}, .block_th = {1, 5},
                                     .hit_th = {2, 5}, .words = 16};
    *c = d;
}

/* gran8, gran16: 8- and 16-byte words (6.2), 8- and 4-bit masks; tiny: the
 * window of the worked example (spec 4.7); kernel: a small window, warm-up,
 * monitoring again in every kernel */
static const cohkit_cfg_preset presets[] = {
    {"default", ""},
    {"fpga", "--window 256"},
    {"gran8", "--words 8"},
    {"gran16", "--words 4"},
    {"tiny", "--window 20"},
    {"kernel", "--window 256 --warmup 64 --remonitor-on-kernel 1"},
    {NULL, NULL},
};

static const char *const preset_names[] = {"default", "fpga", "gran8", "gran16", "kernel", "tiny", NULL};
const char *const *dualopt_de_preset_names(void) { return preset_names; }

int dualopt_de_ratio_parse(const char *s, dualopt_de_ratio *r, char *err, size_t len)
{
    uint64_t num = 0, den = 1, g;
    const char *p = s, *slash;
    int digits = 0;
    if (s == NULL || *s == '\0')
        goto bad;
    slash = strchr(s, '/');
    if (slash != NULL) {
        uint64_t d = 0;
        for (p = s; p < slash; p++) {
            if (!isdigit((unsigned char)*p) || num > 0xffffffffull)
                goto bad;
            num = num * 10 + (uint64_t)(*p - '0');
            digits++;
        }
        if (digits == 0 || slash[1] == '\0')
            goto bad;
        for (p = slash + 1; *p; p++) {
            if (!isdigit((unsigned char)*p) || d > 0xffffffffull)
                goto bad;
            d = d * 10 + (uint64_t)(*p - '0');
        }
        if (d == 0) {
            snprintf(err, len, "'%s' has a zero denominator", s);
            return -1;
        }
        den = d;
    } else {
        for (; isdigit((unsigned char)*p); p++, digits++) {
            if (num > 0xffffffffull)
                goto bad;
            num = num * 10 + (uint64_t)(*p - '0');
        }
        if (*p == '.') {
            for (p++; isdigit((unsigned char)*p); p++, digits++) {
                if (den > 100000000ull)
                    goto bad;
                num = num * 10 + (uint64_t)(*p - '0');
                den *= 10;
            }
        }
        if (*p != '\0' || digits == 0)
            goto bad;
    }
    if (num > den) {
        snprintf(err, len, "'%s' is above 1", s);
        return -1;
    }
    g = num ? cohkit_gcd64(num, den) : den;
    num /= g;
    den /= g;
    if (den > DUALOPT_DE_DEN_MAX) {
        snprintf(err, len, "'%s' reduces to %llu/%llu: the denominator exceeds %u", s,
                 (unsigned long long)num, (unsigned long long)den, DUALOPT_DE_DEN_MAX);
        return -1;
    }
    r->num = (uint32_t)num;
    r->den = (uint32_t)den;
    return 0;
bad:
    snprintf(err, len, "'%s' is not a decimal in [0, 1] or a fraction like 1/50", s ? s : "");
    return -1;
}

static const cohkit_unit_opt_choice hit_over[] = {{"reads", 0, 0}, {"all", 1, 0}, {NULL, 0, 0}};

static dualopt_de_ratio *ratio_of(dualopt_de_cfg *c, const char *name)
{
    return name[0] == 'r' ? &c->remote_th : name[0] == 'b' ? &c->block_th : &c->hit_th;
}

static int set_ratio(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    char e2[200];
    if (dualopt_de_ratio_parse(value, ratio_of(cfg, name), e2, sizeof e2) != 0) {
        snprintf(err, len, "--%s: %s", name, e2);
        return -1;
    }
    return 0;
}

#define PUT_RATIO(f)                                                                               \
    static void put_##f(const void *cfg, char *buf, size_t len)                                    \
    {                                                                                              \
        const dualopt_de_ratio *r = &((const dualopt_de_cfg *)cfg)->f;                                             \
        snprintf(buf, len, "%u/%u", r->num, r->den);                                               \
    }
PUT_RATIO(remote_th)
PUT_RATIO(block_th)
PUT_RATIO(hit_th)

/* window, warmup, max-total, words: 0..DUALOPT_DE_CAP_MAX, the counts clamped
 * to one past their limit so that cfg_check names the value */
static int set_count(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    dualopt_de_cfg *c = cfg;
    uint64_t v;
    if (cohkit_trace_dec(value, UINT64_MAX, &v) != 0 || v > DUALOPT_DE_CAP_MAX) {
        snprintf(err, len, "--%s: '%s' is not a number 0..%llu", name, value ? value : "",
                 (unsigned long long)DUALOPT_DE_CAP_MAX);
        return -1;
    }
    if (strcmp(name, "window") == 0)
        c->window = v > DUALOPT_DE_WINDOW_MAX ? DUALOPT_DE_WINDOW_MAX + 1 : (unsigned)v;
    else if (strcmp(name, "warmup") == 0)
        c->warmup = v > DUALOPT_DE_WINDOW_MAX ? DUALOPT_DE_WINDOW_MAX + 1 : (unsigned)v;
    else if (strcmp(name, "max-total") == 0)
        c->max_total = v;
    else
        c->words = v > 64 ? 65 : (unsigned)v;
    return 0;
}

static void put_window(const void *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%u", ((const dualopt_de_cfg *)cfg)->window);
}
static void put_warmup(const void *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%u", ((const dualopt_de_cfg *)cfg)->warmup);
}
static void put_words(const void *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%u", ((const dualopt_de_cfg *)cfg)->words);
}
static void put_max_total(const void *cfg, char *buf, size_t len)
{
    snprintf(buf, len, "%llu", (unsigned long long)((const dualopt_de_cfg *)cfg)->max_total);
}
static int has_max_total(const void *cfg) { return ((const dualopt_de_cfg *)cfg)->max_total != 0; }

static int set_remonitor(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    (void)name;
    if (value && (strcmp(value, "1") == 0 || strcmp(value, "0") == 0)) {
        ((dualopt_de_cfg *)cfg)->remonitor = value[0] == '1';
        return 0;
    }
    snprintf(err, len, "--remonitor-on-kernel: '%s' is not 1 or 0", value ? value : "");
    return -1;
}
static int has_remonitor(const void *cfg) { return ((const dualopt_de_cfg *)cfg)->remonitor != 0; }

static const cohkit_unit_opt opts[] = {
    COHKIT_UNIT_OPT_FN("window", "N",
                "remote accesses per monitoring window (default 20000)",
                set_count, put_window),
    COHKIT_UNIT_OPT_FN("warmup", "N",
                "accesses ignored after reset / re-monitoring (default 0)",
                set_count, put_warmup),
    COHKIT_UNIT_OPT_FN("max-total", "N",
                "window bound on all accesses (default 0: ceil(window / remote-thresh))",
                set_count, put_max_total, .in_args = has_max_total),
    COHKIT_UNIT_OPT_FN("remote-thresh", "T",
                " remote-ratio threshold, decimal or fraction (default 0.02 = 1/50)",
                set_ratio, put_remote_th),
    COHKIT_UNIT_OPT_FN("block-thresh", "T",
                "block-utilisation threshold (default 0.2)",
                set_ratio, put_block_th),
    COHKIT_UNIT_OPT_FN("hit-thresh", "T", "L1 hit-rate threshold (default 0.4)", set_ratio, put_hit_th),
    COHKIT_UNIT_OPT_FN("words", "N",
                "words per line = mask bits, 1..64 (default 16)",
                set_count, put_words),
    COHKIT_UNIT_OPT_CHOICE("hit-over", "H",
                "reads (hit rate of remote reads) or all (of remote accesses)",
                dualopt_de_cfg, hit_all, hit_over),
    COHKIT_UNIT_OPT_FN("remonitor-on-kernel", "[1|0]",
                " monitor again after each kernel boundary once decided",
                set_remonitor, NULL, .in_args = has_remonitor, .flags = COHKIT_UNIT_OPT_BARE),
    COHKIT_UNIT_OPT_END,
};
/* help and round trip list --max-total in different places */
static const char *const args_order[] = {"window",     "warmup",   "remote-thresh",
                                         "block-thresh", "hit-thresh", "words",
                                         "hit-over",   "max-total", "remonitor-on-kernel",
                                         NULL};
const cohkit_unit_opt_table dualopt_de_opts = {opts, "a number", 0, 10, 0, args_order};

COHKIT_CFG_OPT_FNS(dualopt_de, dualopt_de_cfg, presets, dualopt_de_cfg_default)

/* ceil(window / remote_th), or 0 when the threshold is 0. */
static uint64_t derived_cap(const dualopt_de_cfg *c)
{
    if (c->remote_th.num == 0)
        return 0;
    return ((uint64_t)c->window * c->remote_th.den + c->remote_th.num - 1) / c->remote_th.num;
}

int dualopt_de_cfg_check(const dualopt_de_cfg *c, char *err, size_t len)
{
    if (c->window < 1 || c->window > DUALOPT_DE_WINDOW_MAX)
        return cohkit_cfg_fail(err, len, "--window %u: must be 1..%u remote accesses", c->window,
                               DUALOPT_DE_WINDOW_MAX);
    if (c->warmup > DUALOPT_DE_WINDOW_MAX)
        return cohkit_cfg_fail(err, len, "--warmup %u: must be 0..%u accesses", c->warmup,
                               DUALOPT_DE_WINDOW_MAX);
    if (c->words < 1 || c->words > 64)
        return cohkit_cfg_fail(err, len, "--words %u: must be 1..64 mask bits", c->words);
    if (c->remote_th.num == 0 && c->max_total == 0)
        return cohkit_cfg_fail(err, len,
                               "--remote-thresh 0 needs an explicit --max-total (no derived bound)");
    if (c->max_total == 0 && derived_cap(c) > DUALOPT_DE_CAP_MAX)
        return cohkit_cfg_fail(err, len,
                               "--window %u with --remote-thresh %u/%u: derived bound %llu exceeds %llu",
                               c->window, c->remote_th.num, c->remote_th.den,
                               (unsigned long long)derived_cap(c),
                               (unsigned long long)DUALOPT_DE_CAP_MAX);
    if (c->max_total != 0 && c->max_total < c->window)
        return cohkit_cfg_fail(err, len, "--max-total %llu: below --window %u (the window could never fill)",
                               (unsigned long long)c->max_total, c->window);
    return 0;
}

void dualopt_de_geom_of(const dualopt_de_cfg *c, dualopt_de_geom *g)
{
    uint64_t W = c->window, a, b, base;
    memset(g, 0, sizeof *g);
    g->cap = c->max_total ? c->max_total : derived_cap(c);
    g->total_bits = cohkit_bits_of(g->cap);
    g->remote_bits = cohkit_bits_of(W);
    g->reads_bits = cohkit_bits_of(W);
    g->words_bits = cohkit_bits_of(W * c->words);
    g->hits_bits = cohkit_bits_of(W);
    g->warm_bits = c->warmup ? cohkit_bits_of(c->warmup) : 0;
    g->pop_bits = cohkit_bits_of(c->words);
    a = W * c->remote_th.den;
    b = g->cap * c->remote_th.num;
    g->ratio_bits = cohkit_bits_of(a > b ? a : b);
    a = W * c->words * c->block_th.den;
    b = (uint64_t)c->block_th.num * c->words * W;
    g->block_bits = cohkit_bits_of(a > b ? a : b);
    base = W;
    a = W * c->hit_th.den;
    b = c->hit_th.num * base;
    g->hit_bits = cohkit_bits_of(a > b ? a : b);
    /* the operands themselves must fit (a zero numerator) */
    if (g->ratio_bits < g->total_bits)
        g->ratio_bits = g->total_bits;
    if (g->block_bits < g->words_bits)
        g->block_bits = g->words_bits;
    g->counter_flops = g->total_bits + g->remote_bits + g->reads_bits + g->words_bits +
                       g->hits_bits + g->warm_bits;
}

static void ratio_tag(char *buf, size_t len, dualopt_de_ratio r) { snprintf(buf, len, "%ud%u", r.num, r.den); }

void dualopt_de_cfg_name(const dualopt_de_cfg *c, char *buf, size_t len)
{
    char r[24], b[24], h[24];
    ratio_tag(r, sizeof r, c->remote_th);
    ratio_tag(b, sizeof b, c->block_th);
    ratio_tag(h, sizeof h, c->hit_th);
    snprintf(buf, len, "dualopt_de_w%u_u%u_c%llu_r%s_b%s_h%s_m%u_%s%s", c->window, c->warmup,
             (unsigned long long)c->max_total, r, b, h, c->words, c->hit_all ? "all" : "reads",
             c->remonitor ? "_k" : "");
}

/* ---------------------------------------------------------------- core -- */

dualopt_de_mode dualopt_de_decide(const dualopt_de_cfg *c, const dualopt_de_counts *n)
{
    uint64_t base = c->hit_all ? n->remote : n->reads;
    if (n->remote * c->remote_th.den < (uint64_t)c->remote_th.num * n->total)
        return DUALOPT_DE_NONE;
    if (n->reads > 0 && n->words * c->block_th.den < (uint64_t)c->block_th.num * c->words * n->reads &&
        n->hits * c->hit_th.den < (uint64_t)c->hit_th.num * base)
        return DUALOPT_DE_COALESCE;
    return DUALOPT_DE_CACHE;
}

static unsigned start_phase(const dualopt_de_cfg *c) { return c->warmup ? DUALOPT_DE_PH_WARMUP : DUALOPT_DE_PH_MONITOR; }

void dualopt_de_core_init(dualopt_de_core *d, const dualopt_de_cfg *cfg)
{
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    dualopt_de_geom_of(cfg, &d->g);
    dualopt_de_core_restart(d);
    d->restarts = 0;
}

void dualopt_de_core_restart(dualopt_de_core *d)
{
    d->phase = start_phase(&d->cfg);
    d->warm = 0;
    memset(&d->c, 0, sizeof d->c);
    d->mode = DUALOPT_DE_MONITOR;
    d->restarts++;
}

/* Counting (specification 2.6 steps 1-3): the window closes on the access
 * that makes remote = window or total = cap. */
int dualopt_de_access(dualopt_de_core *d, dualopt_de_kind kind, unsigned hit, uint64_t mask)
{
    unsigned remote = (kind & 2) != 0, read = (kind & 1) == 0;
    d->accesses++;
    if (d->phase == DUALOPT_DE_PH_WARMUP) {
        if (++d->warm == d->cfg.warmup)
            d->phase = DUALOPT_DE_PH_MONITOR;
        return 0;
    }
    if (d->phase != DUALOPT_DE_PH_MONITOR)
        return 0;
    d->c.total++;
    if (remote) {
        d->c.remote++;
        if (read) {
            d->c.reads++;
            d->c.words += cohkit_popcount(mask & cohkit_mask64(d->cfg.words));
        }
        if (hit && (read || d->cfg.hit_all))
            d->c.hits++;
    }
    if (d->c.remote == d->cfg.window || d->c.total == d->g.cap) {
        d->phase = DUALOPT_DE_PH_DONE;
        d->mode = dualopt_de_decide(&d->cfg, &d->c);
        d->dec = d->c;
        d->decisions++;
        return 1;
    }
    return 0;
}

int dualopt_de_kernel(dualopt_de_core *d)
{
    if (!d->cfg.remonitor || d->phase != DUALOPT_DE_PH_DONE)
        return 0;
    dualopt_de_core_restart(d);
    d->restarts--;
    d->rearms++;
    return 1;
}

/* -------------------------------------------------------- timing shell -- */

dualopt_de_tm *dualopt_de_tm_new(const dualopt_de_cfg *cfg)
{
    dualopt_de_tm *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->cfg = *cfg;
    dualopt_de_geom_of(cfg, &t->g);
    dualopt_de_tm_reset(t);
    return t;
}

void dualopt_de_tm_free(dualopt_de_tm *t) { free(t); }

void dualopt_de_tm_reset(dualopt_de_tm *t)
{
    dualopt_de_cfg c = t->cfg;
    dualopt_de_geom g = t->g;
    memset(t, 0, sizeof *t);
    t->cfg = c;
    t->g = g;
    t->phase = start_phase(&c);
}

void dualopt_de_eval(const dualopt_de_tm *t, const dualopt_de_in *in, dualopt_de_out *o)
{
    (void)in;
    memset(o, 0, sizeof *o);
    o->acc_ready_o = t->ready;
    o->dec_valid_o = t->dec_valid;
    o->dec_mode_o = t->dec_mode;
    o->dec_total_o = t->dec.total;
    o->dec_remote_o = t->dec.remote;
    o->dec_reads_o = t->dec.reads;
    o->dec_words_o = t->dec.words;
    o->dec_hits_o = t->dec.hits;
    o->mode_o = t->mode;
    o->bgu_mask_o = t->mode == DUALOPT_DE_COALESCE;
    o->scbu_bypass_o = t->mode == DUALOPT_DE_COALESCE;
    o->mshr_mask_o = t->mode == DUALOPT_DE_COALESCE;
    o->rcache_en_o = t->mode == DUALOPT_DE_CACHE;
    o->cnt_total_o = t->c.total;
    o->cnt_remote_o = t->c.remote;
    o->cnt_reads_o = t->c.reads;
    o->cnt_words_o = t->c.words;
    o->cnt_hits_o = t->c.hits;
}

/* The RTL's clock edge: input register | counting and close | cross products
 * | compare and publish. An access and a boundary event of one cycle are
 * ordered access first. */
void dualopt_de_step(dualopt_de_tm *t, const dualopt_de_in *in)
{
    const dualopt_de_cfg *c = &t->cfg;
    dualopt_de_tm n = *t;
    unsigned remote = (t->a_kind & 2) != 0, read = (t->a_kind & 1) == 0;
    unsigned counting = t->a_valid && t->phase == DUALOPT_DE_PH_MONITOR;
    unsigned warm_step = t->a_valid && t->phase == DUALOPT_DE_PH_WARMUP;
    unsigned close, rearm;
    dualopt_de_counts inc = t->c;

    if (!in->rst_ni) {
        dualopt_de_tm_reset(t);
        return;
    }
    n.ready = 1;
    /* input stage */
    n.a_valid = (unsigned)(in->acc_valid_i & t->ready & 1);
    n.a_kind = (unsigned)(in->acc_kind_i & 3);
    n.a_hit = (unsigned)(in->acc_hit_i & 1);
    n.a_pop = cohkit_popcount(in->acc_mask_i & cohkit_mask64(c->words));
    n.a_kern = (unsigned)(in->kernel_i & 1);
    n.a_rst = (unsigned)(in->restart_i & 1);

    /* counting stage */
    inc.total++;
    inc.remote += remote;
    inc.reads += remote && read;
    inc.words += remote && read ? t->a_pop : 0;
    inc.hits += remote && t->a_hit && (read || c->hit_all);
    close = counting && ((remote && t->c.remote == c->window - 1) || t->c.total == t->g.cap - 1);
    rearm = t->a_rst || (t->a_kern && c->remonitor && (t->phase == DUALOPT_DE_PH_DONE || close));
    if (rearm) {
        memset(&n.c, 0, sizeof n.c);
        n.phase = start_phase(c);
        n.warm = 0;
    } else if (counting) {
        n.c = inc;
        if (close)
            n.phase = DUALOPT_DE_PH_DONE;
    } else if (warm_step) {
        n.warm = t->warm + 1;
        if (n.warm == c->warmup) {
            n.phase = DUALOPT_DE_PH_MONITOR;
            n.warm = 0;
        }
    }
    n.s1.valid = close;
    n.s1.live = close && !rearm;
    if (close)
        n.s1.c = inc;
    /* cross products (the RTL registers them here; the shell carries the
     * counters and compares in the next stage with dualopt_de_decide) */
    n.s2.valid = t->s1.valid;
    n.s2.live = t->s1.live && !rearm;
    if (t->s1.valid)
        n.s2.c = t->s1.c;
    /* compare and publish */
    n.dec_valid = t->s2.valid;
    if (t->s2.valid) {
        n.dec_mode = dualopt_de_decide(c, &t->s2.c);
        n.dec = t->s2.c;
    }
    if (rearm)
        n.mode = DUALOPT_DE_MONITOR;
    else if (t->s2.valid && t->s2.live)
        n.mode = n.dec_mode;
    *t = n;
}
