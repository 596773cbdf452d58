/*
 * stc-check: the rules of specification 5.2 on every event of a system event
 * log (7.4). Deliberately independent of the system model: its own view of
 * every CU (CER, SEB, ReadyAck, outstanding stores, valid L1 lines), of the
 * L2 (INIT and PERF values) and of the EMU handshake, rebuilt from the log
 * alone. Shares only the band function and the log parser.
 */
#include "stc_check.h"
#include "cfg_check.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- configuration ------------------------------------------------------ */

void stc_chk_cfg_default(stc_chk_cfg *c)
{
    static const stc_chk_cfg d = {.cus = 2, .n = 4, .seb = 12, .line = 64, .addr_bits = 32,
                                  .guard = 1, .variant = STC_CHK_MB, .epoch = {.w = {1}}};
    *c = d;
}

static const cohkit_cfg_num nums[] = {
    {"cus", offsetof(stc_chk_cfg, cus), 1, 256},
    {"n", offsetof(stc_chk_cfg, n), 1, 8},
    {"seb", offsetof(stc_chk_cfg, seb), 0, 63},
    {"line", offsetof(stc_chk_cfg, line), 4, 4096},
    {"addr-bits", offsetof(stc_chk_cfg, addr_bits), 8, 63},
    {"seb-guard", offsetof(stc_chk_cfg, guard), 0, 1},
};

int stc_chk_cfg_option(stc_chk_cfg *c, const char *name, const char *value, char *err, size_t len)
{
    unsigned v;
    if (strcmp(name, "variant") == 0) {
        static const char *const names[] = {"nv", "es", "ab", "mb"};
        for (v = 0; v < 4; v++)
            if (value && strcmp(value, names[v]) == 0) {
                c->variant = (stc_chk_variant)v;
                return 0;
            }
        snprintf(err, len, "--variant: '%s' is not nv, es, ab or mb", value ? value : "");
        return -1;
    }
    if (strcmp(name, "epoch") == 0) {
        stc_elist l;
        char why[120];
        /* checked against N in stc_chk_cfg_check (N may come later) */
        if (value == NULL || stc_elist_parse(value, 8, &l, why, sizeof why) != 0) {
            snprintf(err, len, "--epoch: bad epoch set '%s'%s%s", value ? value : "",
                     value ? ": " : "", value ? why : "");
            return -1;
        }
        stc_eset_of(&l, &c->epoch);
        return 0;
    }
    return cohkit_cfg_num_apply(nums, sizeof nums / sizeof nums[0], c, name, value, err, len);
}

int stc_chk_cfg_check(const stc_chk_cfg *c, char *err, size_t len)
{
    unsigned e;
    if (c->line & (c->line - 1))
        return cohkit_cfg_fail(err, len, "--line: %u is not a power of two", c->line);
    for (e = 1u << c->n; e < 256; e++)
        if (stc_eset_has(&c->epoch, e))
            return cohkit_cfg_fail(err, len, "--epoch: epoch %u needs more than %u band bits", e, c->n);
    if (stc_eset_count(&c->epoch) == 0)
        return cohkit_cfg_fail(err, len, "--epoch: empty");
    return 0;
}

unsigned stc_chk_bound(const stc_chk_cfg *c)
{
    unsigned e = 1u << c->n;
    if (c->variant == STC_CHK_NV || c->variant == STC_CHK_ES)
        return e + 1;
    return c->guard ? 2 * e + 1 : 0;
}

/* ---- state -------------------------------------------------------------- */

typedef struct {
    stc_eset cer;
    unsigned seb;
    int readied;          /* ReadyAck sent since the last CER             */
    int64_t outstanding;  /* ISS - WA                                     */
    uint64_t *lines;      /* valid L1 lines (line addresses)              */
    size_t nl, cap;
} chk_cu;

typedef struct {
    unsigned cu;
    uint64_t addr, cycle, chg; /* blocked at `cycle`, after `chg` ChangeEpochs */
    int reported;
} chk_blk;

typedef struct {
    uint64_t cycle;
    const char *rule;
    size_t seq;
    char detail[200];
} chk_viol;

typedef struct {
    uint64_t addr;
    uint32_t value;
    int used;
} chk_word;

enum { PH_IDLE, PH_PREP, PH_CHG };

struct stc_chk {
    stc_chk_cfg cfg;
    chk_cu *cu;
    /* L2 contents: open addressing, the value INIT or PERF wrote last */
    chk_word *mem;
    size_t mcap, mcnt;
    chk_blk *blk;
    size_t nb, bcap;
    chk_viol *v;
    size_t nv, vcap;
    int phase;
    unsigned char *ready, *done;
    stc_eset chg_set;
    unsigned chg_seb;
    uint64_t chgs, last_cycle;
};

static unsigned band_of(const stc_chk *k, uint64_t a, unsigned seb)
{
    return stc_band(a, seb, k->cfg.n, k->cfg.addr_bits);
}

#if defined(__GNUC__)
static void viol(stc_chk *k, uint64_t cycle, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#endif
static void viol(stc_chk *k, uint64_t cycle, const char *rule, const char *fmt, ...)
{
    va_list ap;
    chk_viol *x;
    if (k->nv == k->vcap) {
        size_t nc = k->vcap ? k->vcap * 2 : 16;
        chk_viol *nv = realloc(k->v, nc * sizeof *nv);
        if (nv == NULL)
            return;
        k->v = nv;
        k->vcap = nc;
    }
    x = &k->v[k->nv];
    x->cycle = cycle;
    x->rule = rule;
    x->seq = k->nv++;
    va_start(ap, fmt);
    vsnprintf(x->detail, sizeof x->detail, fmt, ap);
    va_end(ap);
}

static void set_str(const stc_eset *s, char *buf, size_t len)
{
    unsigned e;
    size_t o = 0;
    buf[0] = '\0';
    for (e = 0; e < 256 && o + 5 < len; e++)
        if (stc_eset_has(s, e))
            o += (size_t)snprintf(buf + o, len - o, "%s%u", o ? "," : "", e);
    if (o == 0)
        snprintf(buf, len, "-");
}

static chk_word *mem_slot(stc_chk *k, uint64_t a)
{
    size_t i = (size_t)((a >> 2) * 0x9E3779B97F4A7C15ull >> 20) & (k->mcap - 1);
    while (k->mem[i].used && k->mem[i].addr != a)
        i = (i + 1) & (k->mcap - 1);
    return &k->mem[i];
}

static uint32_t mem_get(stc_chk *k, uint64_t a)
{
    chk_word *w = mem_slot(k, a);
    return w->used ? w->value : 0;
}

static void mem_set(stc_chk *k, uint64_t a, uint32_t v)
{
    chk_word *w;
    if (2 * (k->mcnt + 1) > k->mcap) {
        chk_word *old = k->mem;
        size_t oc = k->mcap, i;
        chk_word *nm = calloc(oc * 2, sizeof *nm);
        if (nm == NULL)
            return;
        k->mem = nm;
        k->mcap = oc * 2;
        for (i = 0; i < oc; i++)
            if (old[i].used)
                *mem_slot(k, old[i].addr) = old[i];
        free(old);
    }
    w = mem_slot(k, a);
    if (!w->used)
        k->mcnt++;
    w->used = 1;
    w->addr = a;
    w->value = v;
}

stc_chk *stc_chk_new(const stc_chk_cfg *c)
{
    stc_chk *k = calloc(1, sizeof *k);
    unsigned i;
    if (k == NULL)
        return NULL;
    k->cfg = *c;
    k->cu = calloc(c->cus, sizeof *k->cu);
    k->ready = calloc(c->cus, 1);
    k->done = calloc(c->cus, 1);
    k->mcap = 64;
    k->mem = calloc(k->mcap, sizeof *k->mem);
    if (k->cu == NULL || k->ready == NULL || k->done == NULL || k->mem == NULL) {
        stc_chk_free(k);
        return NULL;
    }
    for (i = 0; i < c->cus; i++) {
        k->cu[i].cer = c->epoch;
        k->cu[i].seb = c->seb;
    }
    k->phase = PH_IDLE;
    return k;
}

void stc_chk_free(stc_chk *k)
{
    unsigned i;
    if (k == NULL)
        return;
    for (i = 0; k->cu && i < k->cfg.cus; i++)
        free(k->cu[i].lines);
    free(k->cu);
    free(k->ready);
    free(k->done);
    free(k->mem);
    free(k->blk);
    free(k->v);
    free(k);
}

static uint64_t line_of(const stc_chk *k, uint64_t a)
{
    return a & ~(uint64_t)(k->cfg.line - 1);
}

static long line_find(const chk_cu *u, uint64_t l)
{
    size_t i;
    for (i = 0; i < u->nl; i++)
        if (u->lines[i] == l)
            return (long)i;
    return -1;
}

static void line_add(chk_cu *u, uint64_t l)
{
    if (line_find(u, l) >= 0)
        return;
    if (u->nl == u->cap) {
        size_t nc = u->cap ? u->cap * 2 : 16;
        uint64_t *nl = realloc(u->lines, nc * sizeof *nl);
        if (nl == NULL)
            return;
        u->lines = nl;
        u->cap = nc;
    }
    u->lines[u->nl++] = l;
}

static void line_del(chk_cu *u, uint64_t l)
{
    long i = line_find(u, l);
    if (i >= 0)
        u->lines[i] = u->lines[--u->nl];
}

/* C7: entries blocked for more than K ChangeEpochs, reported once. */
static void progress_scan(stc_chk *k, uint64_t cycle)
{
    unsigned K = stc_chk_bound(&k->cfg);
    size_t i;
    if (K == 0)
        return;
    for (i = 0; i < k->nb; i++)
        if (!k->blk[i].reported && k->chgs - k->blk[i].chg > K) {
            k->blk[i].reported = 1;
            viol(k, cycle, "progress",
                 "cu %u store 0x%" PRIx64 " blocked @%" PRIu64 " still blocked after %u ChangeEpochs",
                 k->blk[i].cu, k->blk[i].addr, k->blk[i].cycle, K);
        }
}

void stc_chk_event(stc_chk *k, const stc_ev *e)
{
    chk_cu *u = e->cu < k->cfg.cus ? &k->cu[e->cu] : NULL;
    uint64_t t = e->cycle;
    char s1[200], s2[200];
    unsigned i, b;
    size_t j;
    k->last_cycle = t;
    switch (e->kind) {
    case STC_EV_INIT:
        mem_set(k, e->addr, e->value);
        break;
    case STC_EV_PREP:
        if (k->phase != PH_IDLE)
            viol(k, t, "handshake", "PrepareEpochChange during a transition");
        k->phase = PH_PREP;
        memset(k->ready, 0, k->cfg.cus);
        memset(k->done, 0, k->cfg.cus);
        break;
    case STC_EV_READY:
        if (k->phase != PH_PREP)
            viol(k, t, "handshake", "cu %u ReadyAck without PrepareEpochChange", e->cu);
        if (u->outstanding != 0)
            viol(k, t, "handshake", "cu %u ReadyAck with %" PRId64 " stores outstanding", e->cu,
                 u->outstanding);
        k->ready[e->cu] = 1;
        u->readied = 1;
        break;
    case STC_EV_CHG:
        if (k->phase != PH_PREP)
            viol(k, t, "handshake", "ChangeEpoch without PrepareEpochChange");
        for (i = 0; i < k->cfg.cus; i++)
            if (!k->ready[i])
                viol(k, t, "handshake", "ChangeEpoch before the ReadyAck of cu %u", i);
        k->phase = PH_CHG;
        k->chg_set = e->epochs;
        k->chg_seb = e->seb;
        k->chgs++;
        progress_scan(k, t);
        break;
    case STC_EV_CER:
        /* C4: the CU leaves its epoch set holding no line of its bands */
        for (j = 0; j < u->nl; j++) {
            b = band_of(k, u->lines[j], u->seb);
            if (stc_eset_has(&u->cer, b)) {
                set_str(&u->cer, s1, sizeof s1);
                viol(k, t, "sweep", "cu %u leaves CER %s seb %u with line 0x%" PRIx64 " (band %u) valid",
                     e->cu, s1, u->seb, u->lines[j], b);
            }
        }
        if (k->phase != PH_CHG || !stc_eset_eq(&e->epochs, &k->chg_set) || e->seb != k->chg_seb) {
            set_str(&e->epochs, s1, sizeof s1);
            set_str(&k->chg_set, s2, sizeof s2);
            viol(k, t, "ER3", "cu %u takes CER %s seb %u, ChangeEpoch %s%s seb %u", e->cu, s1,
                 e->seb, k->phase == PH_CHG ? "" : "(none) ", s2, k->chg_seb);
        }
        u->cer = e->epochs;
        u->seb = e->seb;
        u->readied = 0;
        break;
    case STC_EV_DONE:
        if (k->phase != PH_CHG)
            viol(k, t, "handshake", "cu %u DoneAck without ChangeEpoch", e->cu);
        k->done[e->cu] = 1;
        break;
    case STC_EV_END:
        if (k->phase != PH_CHG)
            viol(k, t, "handshake", "END without ChangeEpoch");
        for (i = 0; i < k->cfg.cus; i++)
            if (!k->done[i])
                viol(k, t, "handshake", "END before the DoneAck of cu %u", i);
        k->phase = PH_IDLE;
        break;
    case STC_EV_SLEEP:
        if (k->phase != PH_IDLE)
            viol(k, t, "handshake", "SLEEP during a transition");
        break;
    case STC_EV_BLK:
        if (k->nb == k->bcap) {
            size_t nc = k->bcap ? k->bcap * 2 : 16;
            chk_blk *nb = realloc(k->blk, nc * sizeof *nb);
            if (nb == NULL)
                break;
            k->blk = nb;
            k->bcap = nc;
        }
        k->blk[k->nb].cu = e->cu;
        k->blk[k->nb].addr = e->addr;
        k->blk[k->nb].cycle = t;
        k->blk[k->nb].chg = k->chgs;
        k->blk[k->nb].reported = 0;
        k->nb++;
        break;
    case STC_EV_ISS: {
        unsigned K = stc_chk_bound(&k->cfg);
        /* C1: the band is in the CU's CER, and no ReadyAck since its CER */
        b = band_of(k, e->addr, u->seb);
        if (!stc_eset_has(&u->cer, b)) {
            set_str(&u->cer, s1, sizeof s1);
            viol(k, t, "ER2", "cu %u issues 0x%" PRIx64 " (band %u) outside CER %s seb %u", e->cu,
                 e->addr, b, s1, u->seb);
        }
        if (u->readied)
            viol(k, t, "handshake", "cu %u issues 0x%" PRIx64 " after its ReadyAck", e->cu, e->addr);
        u->outstanding++;
        for (j = 0; j < k->nb; j++)
            if (k->blk[j].cu == e->cu && k->blk[j].addr == e->addr)
                break;
        if (j < k->nb) {
            if (K && !k->blk[j].reported && k->chgs - k->blk[j].chg > K)
                viol(k, t, "progress",
                     "cu %u store 0x%" PRIx64 " blocked @%" PRIu64 " issued after %" PRIu64
                     " ChangeEpochs (bound %u)",
                     e->cu, e->addr, k->blk[j].cycle, k->chgs - k->blk[j].chg, K);
            memmove(&k->blk[j], &k->blk[j + 1], (k->nb - j - 1) * sizeof *k->blk);
            k->nb--;
        }
        break;
    }
    case STC_EV_PERF: {
        /* C2: every CU agrees on the epoch set and SEB, and the band is in it */
        int agree = 1;
        for (i = 1; i < k->cfg.cus; i++)
            if (!stc_eset_eq(&k->cu[i].cer, &k->cu[0].cer) || k->cu[i].seb != k->cu[0].seb)
                agree = 0;
        if (!agree) {
            for (i = 1; i < k->cfg.cus; i++)
                if (!stc_eset_eq(&k->cu[i].cer, &k->cu[0].cer) || k->cu[i].seb != k->cu[0].seb)
                    break;
            set_str(&k->cu[0].cer, s1, sizeof s1);
            set_str(&k->cu[i].cer, s2, sizeof s2);
            viol(k, t, "ER3", "cu %u performs 0x%" PRIx64 " while cu 0 has CER %s seb %u and cu %u CER %s seb %u",
                 e->cu, e->addr, s1, k->cu[0].seb, i, s2, k->cu[i].seb);
        }
        for (i = 0; i < k->cfg.cus; i++) {
            b = band_of(k, e->addr, k->cu[i].seb);
            if (!stc_eset_has(&k->cu[i].cer, b)) {
                set_str(&k->cu[i].cer, s1, sizeof s1);
                viol(k, t, "ER2", "cu %u performs 0x%" PRIx64 " (band %u) outside CER %s seb %u of cu %u",
                     e->cu, e->addr, b, s1, k->cu[i].seb, i);
                break;
            }
        }
        mem_set(k, e->addr, e->value);
        break;
    }
    case STC_EV_WA:
        if (u->outstanding <= 0)
            viol(k, t, "handshake", "cu %u WA 0x%" PRIx64 " without an outstanding store", e->cu,
                 e->addr);
        else
            u->outstanding--;
        break;
    case STC_EV_RD: {
        uint32_t m = mem_get(k, e->addr);
        if (m != e->value)
            viol(k, t, "L2", "cu %u reads 0x%" PRIx64 " = %" PRIu32 ", L2 holds %" PRIu32, e->cu,
                 e->addr, e->value, m);
        break;
    }
    case STC_EV_FILL:
        b = band_of(k, e->addr, u->seb);
        if (stc_eset_has(&u->cer, b)) {
            set_str(&u->cer, s1, sizeof s1);
            viol(k, t, "ER1", "cu %u fills line 0x%" PRIx64 " (band %u) in CER %s seb %u", e->cu,
                 line_of(k, e->addr), b, s1, u->seb);
        }
        line_add(u, line_of(k, e->addr));
        break;
    case STC_EV_INV:
        line_del(u, line_of(k, e->addr));
        break;
    case STC_EV_HIT: {
        uint32_t m = mem_get(k, e->addr);
        b = band_of(k, e->addr, u->seb);
        if (line_find(u, line_of(k, e->addr)) < 0)
            viol(k, t, "hit", "cu %u hits 0x%" PRIx64 " in line 0x%" PRIx64 ", not valid", e->cu,
                 e->addr, line_of(k, e->addr));
        if (stc_eset_has(&u->cer, b)) {
            set_str(&u->cer, s1, sizeof s1);
            viol(k, t, "ER1", "cu %u hits 0x%" PRIx64 " (band %u) in CER %s seb %u", e->cu, e->addr,
                 b, s1, u->seb);
        }
        if (m != e->value)
            viol(k, t, "stale", "cu %u hits 0x%" PRIx64 " = %" PRIu32 ", L2 holds %" PRIu32, e->cu,
                 e->addr, e->value, m);
        break;
    }
    case STC_EV_LDV:
    case STC_EV_COUNT:
        break;
    }
}

static int viol_cmp(const void *a, const void *b)
{
    const chk_viol *x = a, *y = b;
    int r;
    if (x->cycle != y->cycle)
        return x->cycle < y->cycle ? -1 : 1;
    r = strcmp(x->rule, y->rule);
    if (r)
        return r;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

size_t stc_chk_finish(stc_chk *k, FILE *out)
{
    size_t i;
    /* C7 at the end of the run: nothing left blocked */
    for (i = 0; i < k->nb; i++)
        if (!k->blk[i].reported)
            viol(k, k->last_cycle, "progress",
                 "cu %u store 0x%" PRIx64 " blocked @%" PRIu64 " never issued (%" PRIu64
                 " ChangeEpochs)",
                 k->blk[i].cu, k->blk[i].addr, k->blk[i].cycle, k->chgs - k->blk[i].chg);
    k->nb = 0;
    if (k->nv) /* k->v is NULL while nothing was reported */
        qsort(k->v, k->nv, sizeof *k->v, viol_cmp);
    for (i = 0; i < k->nv; i++)
        fprintf(out, "VIOL %s @%" PRIu64 " %s\n", k->v[i].rule, k->v[i].cycle, k->v[i].detail);
    fprintf(out, "RESULT %s\n", k->nv ? "FAIL" : "PASS");
    return k->nv;
}

int stc_check_run(const stc_chk_cfg *c, FILE *in, const char *in_name, FILE *out, FILE *err)
{
    stc_log_lim lim;
    stc_ev *ev = NULL;
    size_t n = 0, i, nv;
    char why[300];
    stc_chk *k;
    lim.cus = c->cus;
    lim.n = c->n;
    lim.addr_bits = c->addr_bits;
    if (stc_log_read(in, &lim, &ev, &n, why, sizeof why) != 0) {
        fprintf(err, "cohmodel: %s: %s\n", in_name ? in_name : "log", why);
        return 2;
    }
    k = stc_chk_new(c);
    if (k == NULL) {
        free(ev);
        fprintf(err, "cohmodel: out of memory\n");
        return 2;
    }
    for (i = 0; i < n; i++)
        stc_chk_event(k, &ev[i]);
    nv = stc_chk_finish(k, out);
    stc_chk_free(k);
    free(ev);
    return nv ? 1 : 0;
}
