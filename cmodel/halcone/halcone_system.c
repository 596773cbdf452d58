/*
 * HALCONE system model (spec 3.3, 7.4): CUs with L1s, per-GPU L2 banks, DRAM
 * and TSUs, composed from the units' functional cores (halcone_cache_*,
 * halcone_tsu_*). This file adds only what lies between the units: the
 * interconnect (bank and TSU interleaving), the data of each level (the
 * caches' data arrays and DRAM lie outside the timestamp units), the order in
 * which a memory controller hands a request to its TSU and to DRAM (one call:
 * the same order for both, V9), the epoch-reset broadcast (S3) and the event
 * log. The checker is cmodel/halcone/halcone_check.c and reads only the log.
 */
#include "halcone_system.h"
#include "bits.h"
#include "cfg_check.h"
#include "unit_trace.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "halcone_cache.h"
#include "halcone_check.h"
#include "halcone_tsu.h"

#define HSYS_ADDR_BITS 48

/* ------------------------------------------------------ configuration -- */
void halcone_sys_cfg_default(halcone_sys_cfg *c)
{
    static const halcone_sys_cfg d = {
        .gpus = 2, .cus = 2, .l1_sets = 64, .l1_ways = 4, .l2_sets = 256, .l2_ways = 16,
        .tsu_sets = 512, .tsu_ways = 8, .l2_banks = 1, .tsus = 1, .line = 64, .ts_bits = 16,
        .rd_lease = 10, .wr_lease = 5, .rules = "safe"};
    *c = d;
}

/* The rule switches of spec 7.1 and their values. */
static const char *const sw_names[] = {"wr-wts", "read-cts", "lease-ext", "floor", "overflow",
                                       "req-cts", "share-test", "l1-req-cts", NULL};
static const char *const sw_vals[] = {"literal plus1", "on off", "on off", "none global set",
                                      "reinit reset", "on off", "now rts keep remove", "on off"};

static int word_in(const char *w, const char *list)
{
    size_t n = strlen(w);
    const char *p = list;
    if (n == 0)
        return 0;
    while ((p = strstr(p, w)) != NULL) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
        p += n;
    }
    return 0;
}

int halcone_sys_cfg_option(halcone_sys_cfg *c, const char *name, const char *value, char *err, size_t len)
{
    static const struct {
        const char *name;
        size_t off;
    } nums[] = {
        {"gpus", offsetof(halcone_sys_cfg, gpus)},         {"cus", offsetof(halcone_sys_cfg, cus)},
        {"l1-sets", offsetof(halcone_sys_cfg, l1_sets)},   {"l1-ways", offsetof(halcone_sys_cfg, l1_ways)},
        {"l2-sets", offsetof(halcone_sys_cfg, l2_sets)},   {"l2-ways", offsetof(halcone_sys_cfg, l2_ways)},
        {"tsu-sets", offsetof(halcone_sys_cfg, tsu_sets)}, {"tsu-ways", offsetof(halcone_sys_cfg, tsu_ways)},
        {"l2-banks", offsetof(halcone_sys_cfg, l2_banks)}, {"tsus", offsetof(halcone_sys_cfg, tsus)},
        {"line", offsetof(halcone_sys_cfg, line)},         {"ts-bits", offsetof(halcone_sys_cfg, ts_bits)},
        {"rd-lease", offsetof(halcone_sys_cfg, rd_lease)}, {"wr-lease", offsetof(halcone_sys_cfg, wr_lease)},
    };
    const char *v = value ? value : "";
    size_t i;
    for (i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (strcmp(name, nums[i].name) == 0) {
            if (cohkit_trace_uint(value, 0xffffffffu, (unsigned *)(void *)((char *)c + nums[i].off)) != 0) {
                snprintf(err, len, "--%s: '%s' is not a decimal number", name, v);
                return -1;
            }
            return 0;
        }
    if (strcmp(name, "rules") == 0) {
        if (strcmp(v, "paper") != 0 && strcmp(v, "safe") != 0) {
            snprintf(err, len, "--rules: '%s' is not paper or safe", v);
            return -1;
        }
        strcpy(c->rules, v);
        return 0;
    }
    for (i = 0; sw_names[i]; i++)
        if (strcmp(name, sw_names[i]) == 0) {
            unsigned k;
            if (!word_in(v, sw_vals[i]) || strlen(v) >= sizeof c->sw_val[0]) {
                snprintf(err, len, "--%s: '%s' is not one of: %s", name, v, sw_vals[i]);
                return -1;
            }
            for (k = 0; k < c->nsw && strcmp(c->sw_name[k], name) != 0; k++)
                ;
            if (k == HALCONE_SYS_SW_MAX) {
                snprintf(err, len, "--%s: too many switches", name);
                return -1;
            }
            strcpy(c->sw_name[k], name);
            strcpy(c->sw_val[k], v);
            if (k == c->nsw)
                c->nsw++;
            return 0;
        }
    return 1;
}

/* Unit configurations derived from the system's: the L1 and L2 roles of the
 * cache unit and the TSU, each from its rule preset, then the switches the
 * unit knows (a switch one unit does not know is the other's). */
static int cache_cfg_of(const halcone_sys_cfg *c, int l2, halcone_cache_cfg *cc, char *err, size_t len)
{
    char v[32];
    unsigned k;
    struct {
        const char *n;
        unsigned x;
    } o[] = {{"sets", l2 ? c->l2_sets : c->l1_sets}, {"ways", l2 ? c->l2_ways : c->l1_ways},
             {"line", c->line}, {"ts-bits", c->ts_bits}, {"addr-bits", HSYS_ADDR_BITS}};
    size_t i;
    char e2[200];
    if (halcone_cache_cfg_preset(cc, "default") != 0) {
        snprintf(err, len, "cache unit: no default preset");
        return -1;
    }
    for (i = 0; i < sizeof o / sizeof o[0]; i++) {
        snprintf(v, sizeof v, "%u", o[i].x);
        if (halcone_cache_cfg_option(cc, o[i].n, v, e2, sizeof e2) != 0)
            goto bad;
    }
    if (halcone_cache_cfg_option(cc, "role", l2 ? "l2" : "l1", e2, sizeof e2) != 0 ||
        halcone_cache_cfg_option(cc, "rules", c->rules, e2, sizeof e2) != 0)
        goto bad;
    for (k = 0; k < c->nsw; k++)
        if (halcone_cache_cfg_option(cc, c->sw_name[k], c->sw_val[k], e2, sizeof e2) < 0)
            goto bad;
    if (halcone_cache_cfg_check(cc, e2, sizeof e2) != 0)
        goto bad;
    return 0;
bad:
    snprintf(err, len, "%s: %s", l2 ? "L2" : "L1", e2);
    return -1;
}

static int tsu_cfg_of(const halcone_sys_cfg *c, halcone_tsu_cfg *tc, char *err, size_t len)
{
    char v[32], e2[200];
    unsigned k;
    size_t i;
    struct {
        const char *n;
        unsigned x;
    } o[] = {{"sets", c->tsu_sets},     {"ways", c->tsu_ways},         {"line", c->line},
             {"ts-bits", c->ts_bits},   {"addr-bits", HSYS_ADDR_BITS}, {"rd-lease", c->rd_lease},
             {"wr-lease", c->wr_lease}};
    halcone_tsu_cfg_default(tc);
    if (halcone_tsu_cfg_rules(tc, c->rules) != 0) {
        snprintf(err, len, "--rules: '%s' is not paper or safe", c->rules);
        return -1;
    }
    for (i = 0; i < sizeof o / sizeof o[0]; i++) {
        snprintf(v, sizeof v, "%u", o[i].x);
        if (halcone_tsu_cfg_option(tc, o[i].n, v, e2, sizeof e2) != 0)
            goto bad;
    }
    for (k = 0; k < c->nsw; k++)
        if (halcone_tsu_cfg_option(tc, c->sw_name[k], c->sw_val[k], e2, sizeof e2) < 0)
            goto bad;
    if (halcone_tsu_cfg_check(tc, e2, sizeof e2) != 0)
        goto bad;
    return 0;
bad:
    snprintf(err, len, "TSU: %s", e2);
    return -1;
}

int halcone_sys_cfg_check(const halcone_sys_cfg *c, char *err, size_t len)
{
    halcone_cache_cfg cc;
    halcone_tsu_cfg tc;
    if (cohkit_cfg_range(err, len, "gpus", c->gpus, 1, HALCONE_SYS_GPUS_MAX) ||
        cohkit_cfg_range(err, len, "cus", c->cus, 1, HALCONE_SYS_CUS_MAX) ||
        cohkit_cfg_range_pow2(err, len, "l2-banks", c->l2_banks, 1, HALCONE_SYS_SPLIT_MAX) ||
        cohkit_cfg_range_pow2(err, len, "tsus", c->tsus, 1, HALCONE_SYS_SPLIT_MAX) ||
        cohkit_cfg_range(err, len, "ts-bits", c->ts_bits, 4, 32))
        return -1;
    if (c->rd_lease < 1 || (uint64_t)c->rd_lease > (1ull << c->ts_bits) - 1)
        return cohkit_cfg_fail(err, len, "--rd-lease %u: must be 1..2^W-1", c->rd_lease);
    if (c->wr_lease < 1 || (uint64_t)c->wr_lease > (1ull << c->ts_bits) - 1)
        return cohkit_cfg_fail(err, len, "--wr-lease %u: must be 1..2^W-1", c->wr_lease);
    if (cache_cfg_of(c, 0, &cc, err, len) != 0 || cache_cfg_of(c, 1, &cc, err, len) != 0 ||
        tsu_cfg_of(c, &tc, err, len) != 0)
        return -1;
    return 0;
}

/* -------------------------------------------------------------- trace -- */

int halcone_sys_trace_read(FILE *f, const halcone_sys_cfg *c, halcone_sys_cmd **cmds, size_t *n, char *err,
                    size_t len)
{
    char buf[1024];
    unsigned lineno = 0;
    int got;
    size_t cap = 0, cnt = 0;
    halcone_sys_cmd *v = NULL;
    uint64_t tsmax = (1ull << c->ts_bits) - 1;

    while ((got = cohkit_trace_line(f, buf, sizeof buf, &lineno, err, len)) > 0) {
        char *p = buf, *op, *t;
        halcone_sys_cmd cmd;
        uint64_t x;
        int nf, i;
        op = cohkit_trace_tok(&p);
        if (op == NULL)
            continue;
        memset(&cmd, 0, sizeof cmd);
        cmd.lineno = lineno;
        if (strcmp(op, "LD") == 0) {
            cmd.op = HALCONE_SYS_LD;
            nf = 3;
        } else if (strcmp(op, "ST") == 0) {
            cmd.op = HALCONE_SYS_ST;
            nf = 4;
        } else if (strcmp(op, "EVL1") == 0) {
            cmd.op = HALCONE_SYS_EVL1;
            nf = 3;
        } else if (strcmp(op, "EVL2") == 0) {
            cmd.op = HALCONE_SYS_EVL2;
            nf = 2;
        } else {
            snprintf(err, len, "line %u: unknown command '%s' (LD, ST, EVL1, EVL2)", lineno, op);
            goto bad;
        }
        for (i = 0; i < nf; i++) {
            int is_gpu = i == 0, is_cu = i == 1 && cmd.op != HALCONE_SYS_EVL2;
            int is_addr = (cmd.op == HALCONE_SYS_EVL2) ? i == 1 : i == 2;
            t = cohkit_trace_tok(&p);
            if (t == NULL) {
                snprintf(err, len, "line %u: %s: %d fields expected", lineno, op, nf);
                goto bad;
            }
            if (is_addr) {
                if (cohkit_trace_hex(t, 64, &x) != 0 || (x >> HSYS_ADDR_BITS) != 0) {
                    snprintf(err, len, "line %u: bad address '%s' (hex, below 2^%d)", lineno, t,
                             HSYS_ADDR_BITS);
                    goto bad;
                }
                cmd.addr = x;
            } else if (cohkit_trace_dec(t, UINT64_MAX, &x) != 0) {
                snprintf(err, len, "line %u: '%s' is not a decimal number", lineno, t);
                goto bad;
            } else if (is_gpu) {
                if (x >= c->gpus) {
                    snprintf(err, len, "line %u: GPU %s out of range (--gpus %u)", lineno, t,
                             c->gpus);
                    goto bad;
                }
                cmd.gpu = (unsigned)x;
            } else if (is_cu) {
                if (x >= c->cus) {
                    snprintf(err, len, "line %u: CU %s out of range (--cus %u)", lineno, t,
                             c->cus);
                    goto bad;
                }
                cmd.cu = (unsigned)x;
            } else {
                cmd.value = x;
            }
        }
        while ((t = cohkit_trace_tok(&p)) != NULL) {
            if ((cmd.op == HALCONE_SYS_LD || cmd.op == HALCONE_SYS_ST) && strncmp(t, "lease=", 6) == 0 &&
                cmd.lease == 0) {
                if (cohkit_trace_dec(t + 6, UINT64_MAX, &x) != 0 || x < 1 || x > tsmax) {
                    snprintf(err, len, "line %u: bad lease '%s' (1..%" PRIu64 ")", lineno, t + 6,
                             tsmax);
                    goto bad;
                }
                cmd.lease = (uint32_t)x;
                continue;
            }
            snprintf(err, len, "line %u: unexpected '%s'", lineno, t);
            goto bad;
        }
        if (cohkit_trace_grow(&v, &cap, cnt, sizeof *v, 64) != 0) {
            snprintf(err, len, "line %u: out of memory", lineno);
            goto bad;
        }
        v[cnt++] = cmd;
    }
    if (got < 0)
        goto bad;
    *cmds = v;
    *n = cnt;
    return 0;
bad:
    free(v);
    return -1;
}

/* ------------------------------------------- data: DRAM and the caches -- */
/* One map for every level's data, keyed by (holder, line): holder 0 is DRAM,
 * then the L2 banks, then the L1s. The timestamp units hold no data; a block
 * is written here whenever a unit installs it, so a hit always finds the
 * value installed with it. */
typedef struct {
    uint64_t holder, line, value;
    int used;
} hsys_datum;

typedef struct {
    hsys_datum *s;
    size_t cap, n;
} hsys_data;

static size_t dslot(const hsys_data *d, uint64_t holder, uint64_t line)
{
    uint64_t h = (holder * 0x9e3779b97f4a7c15ull) ^ (line * 0xc2b2ae3d27d4eb4full);
    size_t j;
    h ^= h >> 29;
    j = (size_t)h & (d->cap - 1);
    while (d->s[j].used && (d->s[j].holder != holder || d->s[j].line != line))
        j = (j + 1) & (d->cap - 1);
    return j;
}

static uint64_t data_get(const hsys_data *d, uint64_t holder, uint64_t line)
{
    size_t j;
    if (d->cap == 0)
        return 0;
    j = dslot(d, holder, line);
    return d->s[j].used ? d->s[j].value : 0;
}

static int data_put(hsys_data *d, uint64_t holder, uint64_t line, uint64_t value)
{
    size_t j;
    if ((d->n + 1) * 2 > d->cap) {
        hsys_data nd;
        size_t i;
        nd.cap = d->cap ? d->cap * 2 : 256;
        nd.n = d->n;
        nd.s = calloc(nd.cap, sizeof *nd.s);
        if (nd.s == NULL)
            return -1;
        for (i = 0; i < d->cap; i++)
            if (d->s[i].used)
                nd.s[dslot(&nd, d->s[i].holder, d->s[i].line)] = d->s[i];
        free(d->s);
        *d = nd;
    }
    j = dslot(d, holder, line);
    if (!d->s[j].used)
        d->n++;
    d->s[j].used = 1;
    d->s[j].holder = holder;
    d->s[j].line = line;
    d->s[j].value = value;
    return 0;
}

/* --------------------------------------------------------- the system -- */
struct halcone_sys {
    halcone_sys_cfg cfg;
    unsigned lb;                /* log2(line)                               */
    unsigned bank_bits, tsu_bits;
    halcone_cache **l1;         /* gpus * cus                               */
    halcone_cache **l2;         /* gpus * l2_banks                          */
    halcone_tsu **tsu;          /* tsus                                     */
    int floor_set;              /* TSU floor mode set: FLOOR lines name it  */
    int l1_req_cts;             /* L1 requests carry the L1's cts to its L2
                                   bank (the system switch for banks)       */
    hsys_data data;
    halcone_sys_log_fn log;
    void *ctx;
    unsigned long lineno;       /* of the command being run                 */
    halcone_sys_stats st;
    int bad;                    /* out of memory or a stall                 */
    /* substituted units (halcone_sys_new_subst): NULL entries are the cores */
    const halcone_sys_subst *sub;
    void **l1u, **l2u, **tsuu;
    const char *uerr;           /* the failing unit's reason                */
};

/* ---- every unit operation goes through these: the core, or a substitute */
static const halcone_cache *ccore(const halcone_sys *s, halcone_cache *c, void *u)
{
    return u ? s->sub->core(u) : c;
}

static void ufail(halcone_sys *s, void *u, int is_tsu)
{
    s->bad = 1;
    if (s->uerr == NULL)
        s->uerr = s->sub->error ? s->sub->error(u, is_tsu) : "unit failure";
}

/* A whole RD/WR transaction; up is the requester's cts (--l1-req-cts). */
static int c_access(halcone_sys *s, halcone_cache *c, void *u, halcone_cache_op op, uint64_t addr,
                    uint32_t up, uint32_t wts, uint32_t rts, halcone_cache_result *r)
{
    if (u) {
        if (s->sub->access(u, (int)op, addr, up, wts, rts, r) != 0) {
            ufail(s, u, 0);
            return -1;
        }
        return 0;
    }
    if (up)
        halcone_cache_advance(c, up);
    return halcone_cache_access(c, op, addr, wts, rts, r);
}

static int c_evict(halcone_sys *s, halcone_cache *c, void *u, uint64_t addr, halcone_cache_result *r)
{
    if (u) {
        if (s->sub->evict(u, addr, r) != 0) {
            ufail(s, u, 0);
            return -1;
        }
        return 0;
    }
    return halcone_cache_evict(c, addr, r);
}

static int c_invalidate(halcone_sys *s, halcone_cache *c, void *u)
{
    if (u) {
        if (s->sub->invalidate(u) != 0) {
            ufail(s, u, 0);
            return -1;
        }
        return 0;
    }
    return halcone_cache_invalidate(c) < 0 ? -1 : 0;
}

static halcone_tsu_result t_request(halcone_sys *s, unsigned t, halcone_tsu_op op, uint64_t addr,
                                    uint32_t cts, uint32_t lease, uint32_t rts)
{
    halcone_tsu_result r;
    void *u = s->tsuu ? s->tsuu[t] : NULL;
    if (u) {
        if (s->sub->request(u, (int)op, addr, cts, lease, rts, &r) != 0) {
            ufail(s, u, 1);
            memset(&r, 0, sizeof r);
            r.kind = op == HALCONE_TSU_EV ? HALCONE_TSU_ABSENT : HALCONE_TSU_GRANT;
        }
        return r;
    }
    return halcone_tsu_request(s->tsu[t], op, addr, cts, lease, rts);
}

static void t_epoch_reset(halcone_sys *s, unsigned t)
{
    void *u = s->tsuu ? s->tsuu[t] : NULL;
    if (u) {
        if (s->sub->epoch_reset(u) != 0)
            ufail(s, u, 1);
        return;
    }
    halcone_tsu_epoch_reset(s->tsu[t]);
}

const char *halcone_sys_error(const halcone_sys *s) { return s->uerr ? s->uerr : ""; }

const halcone_sys_stats *halcone_sys_stats_of(const halcone_sys *s) { return &s->st; }

static void logf_(halcone_sys *s, int event, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void logf_(halcone_sys *s, int event, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    s->log(s->ctx, buf, s->lineno, event);
}

/* Interleaving: the low line-index bits select the L2 bank (TSU); the unit
 * sees the line index with those bits removed, so every set is used. */
static uint64_t local_addr(uint64_t addr, unsigned lb, unsigned bits)
{
    return ((addr >> lb) >> bits) << lb;
}
static uint64_t global_addr(uint64_t laddr, unsigned lb, unsigned bits, unsigned k)
{
    return ((((laddr >> lb) << bits) | k) << lb);
}
static unsigned part_of(uint64_t addr, unsigned lb, unsigned bits)
{
    return (unsigned)((addr >> lb) & ((1u << bits) - 1));
}

static uint64_t holder_l2(const halcone_sys *s, unsigned g, unsigned b)
{
    return 1 + (uint64_t)g * s->cfg.l2_banks + b;
}
static uint64_t holder_l1(const halcone_sys *s, unsigned g, unsigned c)
{
    return 1 + (uint64_t)s->cfg.gpus * s->cfg.l2_banks + (uint64_t)g * s->cfg.cus + c;
}

halcone_sys *halcone_sys_new(const halcone_sys_cfg *c, halcone_sys_log_fn log, void *ctx, char *err, size_t len)
{
    return halcone_sys_new_subst(c, log, ctx, NULL, err, len);
}

halcone_sys *halcone_sys_new_subst(const halcone_sys_cfg *c, halcone_sys_log_fn log, void *ctx, const halcone_sys_subst *sub,
                     char *err, size_t len)
{
    halcone_sys *s;
    halcone_cache_cfg c1, c2;
    halcone_tsu_cfg tc;
    unsigned i;
    if (halcone_sys_cfg_check(c, err, len) != 0 || cache_cfg_of(c, 0, &c1, err, len) != 0 ||
        cache_cfg_of(c, 1, &c2, err, len) != 0 || tsu_cfg_of(c, &tc, err, len) != 0)
        return NULL;
    s = calloc(1, sizeof *s);
    if (s == NULL)
        goto oom;
    s->cfg = *c;
    s->lb = cohkit_ilog2(c->line);
    s->bank_bits = cohkit_ilog2(c->l2_banks);
    s->tsu_bits = cohkit_ilog2(c->tsus);
    s->log = log;
    s->ctx = ctx;
    s->floor_set = tc.floor == HALCONE_FLOOR_SET;
    /* the cache unit's switch (safe: on), resolved for the L2 role */
    {
        halcone_cache_geom g2;
        halcone_cache_geom_of(&c2, &g2);
        s->l1_req_cts = g2.l1_req_cts;
    }
    s->l1 = calloc((size_t)c->gpus * c->cus, sizeof *s->l1);
    s->l2 = calloc((size_t)c->gpus * c->l2_banks, sizeof *s->l2);
    s->tsu = calloc(c->tsus, sizeof *s->tsu);
    if (s->l1 == NULL || s->l2 == NULL || s->tsu == NULL)
        goto oom;
    for (i = 0; i < c->gpus * c->cus; i++)
        if ((s->l1[i] = halcone_cache_new(&c1)) == NULL)
            goto oom;
    for (i = 0; i < c->gpus * c->l2_banks; i++)
        if ((s->l2[i] = halcone_cache_new(&c2)) == NULL)
            goto oom;
    for (i = 0; i < c->tsus; i++)
        if ((s->tsu[i] = halcone_tsu_new(&tc)) == NULL)
            goto oom;
    if (sub) {
        s->sub = sub;
        s->l1u = calloc((size_t)c->gpus * c->cus, sizeof *s->l1u);
        s->l2u = calloc((size_t)c->gpus * c->l2_banks, sizeof *s->l2u);
        s->tsuu = calloc(c->tsus, sizeof *s->tsuu);
        if (s->l1u == NULL || s->l2u == NULL || s->tsuu == NULL)
            goto oom;
        err[0] = '\0';
        for (i = 0; i < c->gpus * c->cus && !err[0]; i++)
            s->l1u[i] = sub->new_cache ? sub->new_cache(sub->ctx, 0, i, &c1, err, len) : NULL;
        for (i = 0; i < c->gpus * c->l2_banks && !err[0]; i++)
            s->l2u[i] = sub->new_cache ? sub->new_cache(sub->ctx, 1, i, &c2, err, len) : NULL;
        for (i = 0; i < c->tsus && !err[0]; i++)
            s->tsuu[i] = sub->new_tsu ? sub->new_tsu(sub->ctx, i, &tc, err, len) : NULL;
        if (err[0]) {
            halcone_sys_free(s);
            return NULL;
        }
    }
    return s;
oom:
    snprintf(err, len, "out of memory");
    halcone_sys_free(s);
    return NULL;
}

void halcone_sys_free(halcone_sys *s)
{
    unsigned i;
    if (s == NULL)
        return;
    for (i = 0; s->l1 && i < s->cfg.gpus * s->cfg.cus; i++)
        halcone_cache_free(s->l1[i]);
    for (i = 0; s->l2 && i < s->cfg.gpus * s->cfg.l2_banks; i++)
        halcone_cache_free(s->l2[i]);
    for (i = 0; s->tsu && i < s->cfg.tsus; i++)
        halcone_tsu_free(s->tsu[i]);
    if (s->sub && s->sub->free_unit) {
        for (i = 0; s->l1u && i < s->cfg.gpus * s->cfg.cus; i++)
            if (s->l1u[i])
                s->sub->free_unit(s->sub->ctx, s->l1u[i], 0);
        for (i = 0; s->l2u && i < s->cfg.gpus * s->cfg.l2_banks; i++)
            if (s->l2u[i])
                s->sub->free_unit(s->sub->ctx, s->l2u[i], 0);
        for (i = 0; s->tsuu && i < s->cfg.tsus; i++)
            if (s->tsuu[i])
                s->sub->free_unit(s->sub->ctx, s->tsuu[i], 1);
    }
    free(s->l1u);
    free(s->l2u);
    free(s->tsuu);
    free(s->l1);
    free(s->l2);
    free(s->tsu);
    free(s->data.s);
    free(s);
}

/* "TSU [<tsu>] " before a TSU line (the index only with several TSUs). */
static void tsu_pfx(const halcone_sys *s, unsigned t, char *buf, size_t len)
{
    if (s->cfg.tsus > 1)
        snprintf(buf, len, "TSU %u ", t);
    else
        snprintf(buf, len, "TSU ");
}

static void log_floor(halcone_sys *s, const char *pfx, const halcone_tsu_result *r)
{
    if (!r->floor_raised)
        return;
    s->st.floor_raises++;
    if (s->floor_set)
        logf_(s, 1, "%sFLOOR %" PRIu32 " %u", pfx, r->floor, r->floor_set);
    else
        logf_(s, 1, "%sFLOOR %" PRIu32, pfx, r->floor);
}

/* The epoch reset (S3): the TSU that overflowed has cleared itself; every
 * other TSU clears, every L1 and L2 flash-invalidates (cts := 0) before the
 * grant is used. */
static void epoch_reset(halcone_sys *s, unsigned from, uint32_t epoch, const char *pfx)
{
    unsigned i;
    s->st.resets++;
    s->st.epoch = epoch;
    logf_(s, 0, "RESET %" PRIu32, epoch);
    logf_(s, 1, "%sRESET %" PRIu32, pfx, epoch);
    for (i = 0; i < s->cfg.tsus; i++)
        if (i != from)
            t_epoch_reset(s, i);
    for (i = 0; i < s->cfg.gpus * s->cfg.l2_banks; i++)
        if (c_invalidate(s, s->l2[i], s->l2u ? s->l2u[i] : NULL) < 0)
            s->bad = 1;
    for (i = 0; i < s->cfg.gpus * s->cfg.cus; i++)
        if (c_invalidate(s, s->l1[i], s->l1u ? s->l1u[i] : NULL) < 0)
            s->bad = 1;
}

/* L2 eviction notice to the block's TSU (spec 3.1, H10). */
static void l2_notice(halcone_sys *s, uint64_t line, uint32_t rts)
{
    unsigned t = part_of(line, s->lb, s->tsu_bits);
    char pfx[16];
    halcone_tsu_result r = t_request(s, t, HALCONE_TSU_EV, local_addr(line, s->lb, s->tsu_bits),
                                     0, 0, rts);
    tsu_pfx(s, t, pfx, sizeof pfx);
    if (r.kind == HALCONE_TSU_REMOVE) {
        s->st.removes++;
        logf_(s, 1, "%sREMOVE 0x%" PRIx64 " %" PRIu32, pfx, line, r.memts);
        log_floor(s, pfx, &r);
    } else if (r.kind == HALCONE_TSU_KEEP) {
        s->st.keeps++;
        logf_(s, 1, "%sKEEP 0x%" PRIx64 " %" PRIu32, pfx, line, r.memts);
    } else {
        s->st.absents++;
        logf_(s, 1, "%sABSENT 0x%" PRIx64, pfx, line);
    }
}

/* A request reaching memory: the controller hands it to the TSU and DRAM in
 * the same call, so both see same-block requests in one order (V9). Returns
 * the grant; *value is DRAM's block after the request. */
static void memory(halcone_sys *s, int wr, uint64_t line, uint32_t cts, uint32_t lease, uint64_t *value,
                   uint32_t *wts, uint32_t *rts)
{
    unsigned t = part_of(line, s->lb, s->tsu_bits);
    uint64_t la = local_addr(line, s->lb, s->tsu_bits);
    char pfx[16];
    halcone_tsu_result r =
        t_request(s, t, wr ? HALCONE_TSU_WR : HALCONE_TSU_RD, la, cts, lease, 0);
    tsu_pfx(s, t, pfx, sizeof pfx);
    if (r.victim) {
        s->st.tsu_victims++;
        logf_(s, 1, "%sVICTIM 0x%" PRIx64 " %" PRIu32, pfx,
              global_addr(r.victim_addr, s->lb, s->tsu_bits, t), r.victim_memts);
    }
    log_floor(s, pfx, &r);
    if (r.wrap) {
        s->st.wraps++;
        logf_(s, 1, "%sWRAP 0x%" PRIx64, pfx, line);
    }
    if (r.reset)
        epoch_reset(s, t, r.epoch, pfx);
    s->st.grants++;
    logf_(s, 1, "%sGRANT 0x%" PRIx64 " %" PRIu32 " %" PRIu32, pfx, line, r.wts, r.rts);
    if (wr) {
        if (data_put(&s->data, 0, line, *value) != 0)
            s->bad = 1;
    } else {
        *value = data_get(&s->data, 0, line);
    }
    *wts = r.wts;
    *rts = r.rts;
}

/* Installs (wts, rts) from below into a cache: the unit's whole transaction
 * (allocation, fill rule, cts). Reports the victim. */
static int install(halcone_sys *s, halcone_cache *c, void *u, int l2, unsigned g, unsigned k,
                   halcone_cache_op op, uint64_t line, uint32_t up, uint32_t wts, uint32_t rts,
                   halcone_cache_result *r)
{
    uint64_t a = l2 ? local_addr(line, s->lb, s->bank_bits) : line;
    if (c_access(s, c, u, op, a, up, wts, rts, r) != 0)
        return -1;
    if (r->victim) {
        if (l2) {
            uint64_t v = global_addr(r->victim_line, s->lb, s->bank_bits, k);
            s->st.l2_victims++;
            logf_(s, 1, "L2VICTIM %u 0x%" PRIx64, g, v);
            l2_notice(s, v, r->victim_rts);
        } else {
            s->st.l1_victims++;
            logf_(s, 1, "L1VICTIM %u %u 0x%" PRIx64, g, k, r->victim_line);
        }
    }
    return 0;
}

static int access_(halcone_sys *s, const halcone_sys_cmd *cmd)
{
    const halcone_sys_cfg *c = &s->cfg;
    uint64_t line = cmd->addr >> s->lb << s->lb, value = cmd->value;
    unsigned b = part_of(line, s->lb, s->bank_bits);
    unsigned i1 = cmd->gpu * c->cus + cmd->cu, i2 = cmd->gpu * c->l2_banks + b;
    halcone_cache *l1 = s->l1[i1];
    halcone_cache *l2 = s->l2[i2];
    void *u1 = s->l1u ? s->l1u[i1] : NULL, *u2 = s->l2u ? s->l2u[i2] : NULL;
    const halcone_cache *k1 = ccore(s, l1, u1), *k2 = ccore(s, l2, u2);
    uint64_t l2a = local_addr(line, s->lb, s->bank_bits);
    halcone_cache_result p1, p2, r1, r2;
    int c1, c2, src;
    uint32_t ts, up = 0;
    uint64_t resets = s->st.resets;
    int st = cmd->op == HALCONE_SYS_ST;

    c1 = halcone_cache_probe(k1, line, &p1);
    /* a request reaching the L2 bank carries the L1's cts (--l1-req-cts):
     * the bank's lookup is then at a time no earlier than the L1's, so an
     * L2 hit covers the time the L1 reads at (I4 with several banks) */
    if (s->l1_req_cts && (st || c1 != HALCONE_CACHE_HIT))
        up = halcone_cache_cts(k1);
    c2 = halcone_cache_probe_at(k2, l2a, up, &p2);
    if (c1 < 0 || c2 < 0)
        return -1; /* a locked block: impossible one access at a time */
    src = c1 == HALCONE_CACHE_HIT ? 1 : c2 == HALCONE_CACHE_HIT ? 2 : 3;
    s->st.src[src]++;
    if (c1 == HALCONE_CACHE_EXP)
        s->st.l1_exp++;
    if (src > 1 && c2 == HALCONE_CACHE_EXP)
        s->st.l2_exp++;

    if (st) {
        /* write-through to memory; the L2 and the L1 install the response */
        uint32_t w, r;
        s->st.stores++;
        memory(s, 1, line, p2.req_cts, cmd->lease, &value, &w, &r);
        if (s->st.resets != resets)
            up = 0; /* the L1 was flash-invalidated: its cts is 0 */
        if (install(s, l2, u2, 1, cmd->gpu, b, HALCONE_CACHE_OP_WR, line, up, w, r, &r2) != 0 ||
            install(s, l1, u1, 0, cmd->gpu, cmd->cu, HALCONE_CACHE_OP_WR, line, 0, r2.wts, r2.rts,
                    &r1) != 0)
            return -1;
        if (data_put(&s->data, holder_l2(s, cmd->gpu, b), line, value) != 0 ||
            data_put(&s->data, holder_l1(s, cmd->gpu, cmd->cu), line, value) != 0)
            s->bad = 1;
        ts = w;
    } else {
        s->st.loads++;
        if (src == 1) {
            if (c_access(s, l1, u1, HALCONE_CACHE_OP_RD, line, 0, 0, 0, &r1) != 0)
                return -1;
            value = data_get(&s->data, holder_l1(s, cmd->gpu, cmd->cu), line);
        } else {
            if (src == 2) {
                if (c_access(s, l2, u2, HALCONE_CACHE_OP_RD, l2a, up, 0, 0, &r2) != 0)
                    return -1;
                value = data_get(&s->data, holder_l2(s, cmd->gpu, b), line);
            } else {
                uint32_t w, r;
                memory(s, 0, line, p2.req_cts, cmd->lease, &value, &w, &r);
                if (s->st.resets != resets)
                    up = 0;
                if (install(s, l2, u2, 1, cmd->gpu, b, HALCONE_CACHE_OP_RD, line, up, w, r, &r2) != 0)
                    return -1;
                if (data_put(&s->data, holder_l2(s, cmd->gpu, b), line, value) != 0)
                    s->bad = 1;
            }
            if (install(s, l1, u1, 0, cmd->gpu, cmd->cu, HALCONE_CACHE_OP_RD, line, 0, r2.wts, r2.rts,
                        &r1) != 0)
                return -1;
            if (data_put(&s->data, holder_l1(s, cmd->gpu, cmd->cu), line, value) != 0)
                s->bad = 1;
        }
        ts = r1.cts;
    }
    logf_(s, 0, "%s %u %u 0x%" PRIx64 " %" PRIu64 " %s %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32
          " %" PRIu32, st ? "ST" : "LD", cmd->gpu, cmd->cu, line, value,
          src == 1 ? "L1" : src == 2 ? "L2" : "MM", ts, r1.cts, halcone_cache_cts(k2), r1.wts,
          r1.rts);
    return 0;
}

int halcone_sys_run(halcone_sys *s, const halcone_sys_cmd *cmd)
{
    uint64_t line = cmd->addr >> s->lb << s->lb;
    halcone_cache_result r;
    s->lineno = cmd->lineno;
    if (cmd->op == HALCONE_SYS_LD || cmd->op == HALCONE_SYS_ST) {
        if (access_(s, cmd) != 0)
            s->bad = 1;
    } else if (cmd->op == HALCONE_SYS_EVL1) {
        unsigned i1 = cmd->gpu * s->cfg.cus + cmd->cu;
        s->st.evl1++;
        if (c_evict(s, s->l1[i1], s->l1u ? s->l1u[i1] : NULL, line, &r) != 0)
            s->bad = 1;
        logf_(s, 0, "EVL1 %u %u 0x%" PRIx64 " %d", cmd->gpu, cmd->cu, line,
              r.kind == HALCONE_CACHE_RSP_EVICTED);
    } else {
        unsigned b = part_of(line, s->lb, s->bank_bits), i2 = cmd->gpu * s->cfg.l2_banks + b;
        s->st.evl2++;
        if (c_evict(s, s->l2[i2], s->l2u ? s->l2u[i2] : NULL,
                    local_addr(line, s->lb, s->bank_bits), &r) != 0)
            s->bad = 1;
        if (r.kind == HALCONE_CACHE_RSP_EVICTED)
            l2_notice(s, line, r.rts);
        logf_(s, 0, "EVL2 %u 0x%" PRIx64 " %d", cmd->gpu, line, r.kind == HALCONE_CACHE_RSP_EVICTED);
    }
    return s->bad ? -1 : 0;
}

/* ----------------------------------------------------------- the tool -- */
typedef struct {
    halcone_check *chk;
    FILE *out;
    int events;
    int bad;
    char err[200];
} hsys_sink;

/* Every log line goes to the checker; the --events lines are printed only
 * when asked for. */
static void sink(void *ctx, const char *line, unsigned long lineno, int event)
{
    hsys_sink *k = ctx;
    if (!k->bad && halcone_check_feed(k->chk, line, lineno, k->err, sizeof k->err) != 0)
        k->bad = 1;
    if (!event || k->events)
        fprintf(k->out, "%s\n", line);
}

int halcone_sys_trace_run(const halcone_sys_cfg *cfg, int events, int fail, FILE *in, const char *in_name,
                   FILE *out, FILE *err)
{
    halcone_sys_cfg c = *cfg;
    halcone_sys_cmd *cmds = NULL;
    size_t n = 0, i;
    hsys_sink k;
    halcone_sys *s = NULL;
    halcone_check_result res;
    uint64_t bad;
    int rc = 2;
    char e[300];
    const halcone_sys_stats *st;

    if (halcone_sys_cfg_check(&c, e, sizeof e) != 0) {
        fprintf(err, "halcone-system: %s\n", e);
        return 2;
    }
    if (halcone_sys_trace_read(in, &c, &cmds, &n, e, sizeof e) != 0) {
        fprintf(err, "halcone-system: %s: %s\n", in_name, e);
        return 2;
    }
    memset(&k, 0, sizeof k);
    k.out = out;
    k.events = events;
    k.chk = halcone_check_new();
    if (k.chk == NULL || (s = halcone_sys_new(&c, sink, &k, e, sizeof e)) == NULL) {
        fprintf(err, "halcone-system: %s\n", k.chk ? e : "out of memory");
        goto done;
    }
    for (i = 0; i < n; i++)
        if (halcone_sys_run(s, &cmds[i]) != 0) {
            fprintf(err, "halcone-system: %s: line %lu: internal error (stall or out of memory)\n",
                    in_name, cmds[i].lineno);
            goto done;
        }
    if (k.bad) {
        fprintf(err, "halcone-system: internal error: log not understood: %s\n", k.err);
        goto done;
    }
    bad = halcone_check_finish(k.chk, out, &res);
    st = halcone_sys_stats_of(s);
    fprintf(out, "# loads %" PRIu64 " stores %" PRIu64 " hits L1 %" PRIu64 " L2 %" PRIu64
            " MM %" PRIu64 "\n", st->loads, st->stores, st->src[1], st->src[2], st->src[3]);
    fprintf(out, "# coherency misses L1 %" PRIu64 " L2 %" PRIu64 " victims L1 %" PRIu64
            " L2 %" PRIu64 "\n", st->l1_exp, st->l2_exp, st->l1_victims, st->l2_victims);
    fprintf(out, "# tsu grants %" PRIu64 " victims %" PRIu64 " removes %" PRIu64 " keeps %" PRIu64
            " floor %" PRIu64 " wraps %" PRIu64 " resets %" PRIu64 " epoch %" PRIu32 "\n",
            st->grants, st->tsu_victims, st->removes, st->keeps, st->floor_raises, st->wraps,
            st->resets, st->epoch);
    {
        uint64_t inv = 0;
        int j;
        for (j = 0; j < HALCONE_CHECK_NINV; j++)
            inv += res.inv[j];
        fprintf(out, "# checked loads %" PRIu64 " stale %" PRIu64 " reorder %" PRIu64
                " future %" PRIu64 " invariants %" PRIu64 " violations %" PRIu64 "\n",
                res.loads, res.stale, res.reorder, res.future, inv, bad);
    }
    rc = fail && bad ? 1 : 0;
done:
    halcone_sys_free(s);
    halcone_check_free(k.chk);
    free(cmds);
    return rc;
}
