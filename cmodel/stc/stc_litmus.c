/*
 * `cohmodel stc-litmus`: the litmus shapes (cmodel/litmus.c) through the STC
 * system model (stc_sys_run), each run many times under randomized timing,
 * every event log judged by the separate checker (stc_check_run); docs/stc.md,
 * "Litmus tests".
 *
 * A thread is the one thread of a CU (spec 7.3); a run places the shape's
 * threads on a random choice of 2..nthr+2 CUs (the CUs left over are idle
 * but take part in every handshake). A run's program: a warm-up in which each
 * thread loads a random subset of x and y (cacheable copies where their band
 * is not current), then each thread's accesses in program order, the threads
 * interleaved at random and the interleaving kept as NOP delays: a random
 * delay before half of the accesses advances a clock, and a thread whose
 * next access lies behind the clock waits (NOP) until it. Per run, at
 * random: the STC variant (--stc-variant mix: nv, es, ab, mb by the run's
 * seed), the initial epoch (0, x's band or y's band), the wake-up period,
 * the L2 and memory round trips, the message latency, one CU slowed
 * (--slow-cu) in half of the runs, and where x and y lie: different bands,
 * one band, one line, or one band at SEB 12 but differing above the band
 * field (EpochConflicts then move SEB under ab and mb). Final values are the
 * system's MEM lines.
 *
 * Variants (the paper's model is release consistency, 4.1, 4.7): plain (ST
 * and LD: racy, only per-location coherence is promised, so only the Co*
 * shapes forbid) and sync: MP with the release and acquire of Fig. 7 (the
 * store after the release is an STREL, the load before the acquire an LDACQ
 * that spins until it reads the release's value) and every other shape with
 * s_waitcnt (WAIT) after each store; every non-SC outcome is forbidden.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_check.h"
#include "litmus.h"
#include "stc_system.h"
#include "unit.h"

enum { SF_TEST, SF_VARIANT, SF_STC, SF_RUNS, SF_SEED, SF_PROGRAM };
static const cohkit_unit_flag sl_flags[] = {
    {"test", "NAME", "one test (MP SB LB S R 2+2W WRC IRIW CoRR CoRW CoWR CoWW; all)"},
    {"variant", "V", "plain|sync|both (both)"},
    {"stc-variant", "V", "the STC variant: nv|es|ab|mb|mix (mix: nv, es, ab, mb in turn by the\n"
                         "    run's seed; mix)"},
    {"runs", "N", "runs per test and variant (200; 1..1000000)"},
    {"seed", "S", "the first run's seed (1); run i has seed S+i"},
    {"program", NULL, "print the program of the first run of each test and variant after a comment\n"
                      "    line with its stc-system command, do not run"},
    {NULL, NULL, NULL},
};

#define SL_OPS 24 /* a thread: 2 warm-up loads and per access a NOP, itself, a WAIT */
#define SL_MIX 4  /* --stc-variant mix */

static const char *const stc_names[] = {"nv", "es", "ab", "mb", "mix"};
static const char *const place_names[] = {"bands", "band", "line", "above"};

typedef struct {
    const stc_sys_cfg *base;
    int stc; /* STC_NV..STC_MB, or SL_MIX */
} sl_ctx;

/* One run: its configuration and its program, thread by thread. */
typedef struct {
    int stc, place, sync;
    unsigned cus, cu[COHKIT_LIT_THR]; /* the CU of each thread        */
    unsigned epoch, wake, l2, mem, msg, slow_cu, slow_d; /* slow_d 0: none */
    uint64_t addr[2];                 /* x, y                           */
    stc_op ops[COHKIT_LIT_THR][SL_OPS];
    size_t nops[COHKIT_LIT_THR];
    unsigned res_thr[COHKIT_LIT_RES], res_op[COHKIT_LIT_RES];
    uint64_t now, at[COHKIT_LIT_THR]; /* the interleaving's clock      */
    unsigned unit;                    /* cycles per delay step          */
    int rel[COHKIT_LIT_THR];          /* a release precedes the next store */
    const cohkit_lit_test *t;
    uint64_t s;
} sl_run;

static unsigned rnd(sl_run *r, unsigned n) { return (unsigned)(cohkit_lit_rand(&r->s) % n); }

static stc_op *add(sl_run *r, unsigned thr, stc_op_kind k, uint64_t addr, uint32_t v)
{
    stc_op *o = &r->ops[thr][r->nops[thr]];
    if (r->nops[thr] + 1 < SL_OPS)
        r->nops[thr]++;
    memset(o, 0, sizeof *o);
    o->kind = k;
    o->addr = addr;
    o->value = v;
    return o;
}

/* The value the shape's release stores to loc (the LDACQ waits for it). */
static unsigned released(const cohkit_lit_test *t, unsigned loc)
{
    unsigned d, k;
    for (d = 0; d < t->nthr; d++)
        for (k = 1; k < COHKIT_LIT_OPS && t->thr[d][k].op; k++)
            if (t->thr[d][k].op == 'S' && t->thr[d][k].loc == loc && t->thr[d][k - 1].op == 'R')
                return t->thr[d][k].v;
    return 1;
}

static void put_acc(void *ctx, unsigned thr, const cohkit_lit_acc *a)
{
    sl_run *r = ctx;
    stc_op *prev = r->nops[thr] ? &r->ops[thr][r->nops[thr] - 1] : NULL;
    if (r->now > r->at[thr] && (a->op == 'L' || a->op == 'S')) {
        /* the thread waits for the clock (one NOP however many delays) */
        if (prev && prev->kind == STC_OP_NOP)
            prev->value += (uint32_t)(r->now - r->at[thr]);
        else
            add(r, thr, STC_OP_NOP, 0, (uint32_t)(r->now - r->at[thr]));
        r->at[thr] = r->now;
    }
    switch (a->op) {
    case 'L':
        r->res_thr[a->r] = thr;
        r->res_op[a->r] = (unsigned)r->nops[thr];
        add(r, thr, STC_OP_LD, r->addr[a->loc], 0);
        break;
    case 'S':
        add(r, thr, r->rel[thr] ? STC_OP_STREL : STC_OP_ST, r->addr[a->loc], a->v);
        if (r->sync && !r->rel[thr] && strcmp(r->t->name, "MP") != 0)
            add(r, thr, STC_OP_WAIT, 0, 0); /* s_waitcnt vmcnt(0) */
        r->rel[thr] = 0;
        break;
    case 'R':
        r->rel[thr] = 1;
        break;
    default: /* 'A': the load before it spins until it reads the release's value */
        if (prev && prev->kind == STC_OP_LD) {
            prev->kind = STC_OP_LDACQ;
            prev->value = released(r->t, prev->addr == r->addr[0] ? 0 : 1);
        }
        break;
    }
}

static void put_delay(void *ctx, unsigned n)
{
    sl_run *r = ctx;
    r->now += (uint64_t)n * r->unit;
}

/* x and y: different bands, one band, one line, one band differing above
 * the band field (at the configured SEB). */
static void place(const stc_sys_cfg *c, sl_run *r)
{
    unsigned seb = c->emu.seb, n = c->emu.n, line = c->l1.line;
    uint64_t x = 1ull << seb, lim = c->emu.addr_bits >= 64 ? ~0ull : (1ull << c->emu.addr_bits) - 1;
    r->addr[0] = x;
    r->addr[1] = r->place == 0 ? (2ull << seb) + line : r->place == 1 ? x + line : r->place == 2 ? x + 4
                 : x + (1ull << (seb + n)) + line;
    if (r->addr[1] > lim || r->addr[1] + 4 > lim || seb + n + 1 > c->emu.addr_bits) {
        r->place = 1; /* no room above the band field */
        r->addr[1] = x + line;
    }
}

static void build(const sl_ctx *x, const cohkit_lit_test *t, int sync, uint64_t seed, sl_run *r)
{
    const stc_sys_cfg *c = x->base;
    unsigned d, k, used = 0, bands[3];
    memset(r, 0, sizeof *r);
    r->t = t;
    r->sync = sync;
    r->s = seed;
    r->stc = x->stc == SL_MIX ? (int)(seed % 4) : x->stc;
    r->place = (int)rnd(r, 4);
    place(c, r);
    r->cus = t->nthr + rnd(r, 3);
    if (r->cus < 2)
        r->cus = 2;
    if (r->cus > STC_CUS_MAX)
        r->cus = STC_CUS_MAX;
    for (d = 0; d < t->nthr; d++) { /* distinct CUs at random */
        do
            r->cu[d] = rnd(r, r->cus);
        while (used >> r->cu[d] & 1);
        used |= 1u << r->cu[d];
    }
    bands[0] = 0;
    bands[1] = stc_band(r->addr[0], c->emu.seb, c->emu.n, c->emu.addr_bits);
    bands[2] = stc_band(r->addr[1], c->emu.seb, c->emu.n, c->emu.addr_bits);
    r->epoch = bands[rnd(r, 3)];
    r->wake = 10 + rnd(r, 91);
    r->l2 = 2 + rnd(r, 39);
    r->mem = r->l2 + rnd(r, 41);
    r->msg = 1 + rnd(r, 4);
    if (rnd(r, 2)) {
        r->slow_cu = rnd(r, r->cus);
        r->slow_d = 1 + rnd(r, 400);
    }
    r->unit = 1 + rnd(r, 40);
    for (d = 0; d < t->nthr; d++)
        for (k = 0; k < 2; k++)
            if (rnd(r, 2))
                add(r, d, STC_OP_LD, r->addr[k], 0);
    cohkit_lit_interleave(t, sync, &r->s, 12, put_acc, put_delay, r);
}

/* The run's program for stc-system: the threads on their CUs. */
static int program_of(const sl_run *r, stc_prog *p, stc_op **ops, size_t *nops)
{
    unsigned d, k;
    memset(p, 0, sizeof *p);
    for (k = 0; k < r->cus; k++) {
        ops[k] = NULL;
        nops[k] = 0;
    }
    for (d = 0; d < r->t->nthr; d++) {
        ops[r->cu[d]] = (stc_op *)r->ops[d];
        nops[r->cu[d]] = r->nops[d];
    }
    p->cus = r->cus;
    p->ops = ops;
    p->nops = nops;
    return 0;
}

static void args_of(const sl_run *r, char *s, size_t len)
{
    int n = snprintf(s, len, "--variant %s --cus %u --epoch %u --wake %u --l2-lat %u --mem-lat %u --msg-lat %u",
                     stc_names[r->stc], r->cus, r->epoch, r->wake, r->l2, r->mem, r->msg);
    if (r->slow_d && n > 0 && (size_t)n < len)
        snprintf(s + n, len - (size_t)n, " --slow-cu %u:%u", r->slow_cu, r->slow_d);
}

/* The system's configuration of a run: the options given, then the run's. */
static int configure(const sl_ctx *x, const sl_run *r, stc_sys_cfg *c, char *err, size_t len)
{
    char args[256], *save = NULL, *name, *val;
    *c = *x->base;
    args_of(r, args, sizeof args);
    for (name = strtok_r(args, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
        val = strtok_r(NULL, " ", &save);
        if (!val || stc_sys_cfg_option(c, name + 2, val, err, len) != 0)
            return 1;
    }
    return stc_sys_cfg_check(c, err, len) != 0;
}

/* The separate checker on the run's log: 0 PASS, 1 FAIL (its first VIOL in
 * err), 2 the log does not parse. */
static int judge(const stc_sys_cfg *c, char *log, size_t loglen, char *err, size_t len)
{
    stc_chk_cfg k;
    char *ck = NULL, *ce = NULL;
    size_t cl = 0, el = 0;
    FILE *lf = fmemopen(log, loglen ? loglen : 1, "r"), *cf = open_memstream(&ck, &cl),
         *ef = open_memstream(&ce, &el);
    int rc = 2;
    stc_sys_chk_cfg(c, &k);
    if (lf && cf && ef)
        rc = stc_check_run(&k, lf, "log", cf, ef);
    if (lf)
        fclose(lf);
    if (cf)
        fclose(cf);
    if (ef)
        fclose(ef);
    if (rc == 1)
        snprintf(err, len, "stc-check: %.240s", ck && strstr(ck, "VIOL ") ? strstr(ck, "VIOL ") : "FAIL");
    else if (rc == 2)
        snprintf(err, len, "stc-check: %.240s", ce && *ce ? ce : "the log does not parse");
    free(ck);
    free(ce);
    return rc;
}

static void results(const sl_run *r, const char *out, signed char *res)
{
    const char *l;
    unsigned i, nres = cohkit_lit_nres(r->t), nl = nres - (unsigned)strlen(r->t->fin);
    for (l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        unsigned cu, op;
        unsigned long long a, v;
        if (sscanf(l, "LDV %u %u %llx %llu", &cu, &op, &a, &v) == 4) {
            for (i = 0; i < nl; i++)
                if (r->cu[r->res_thr[i]] == cu && r->res_op[i] == op)
                    res[i] = (signed char)v;
        } else if (sscanf(l, "MEM %llx %llu", &a, &v) == 2) {
            for (i = nl; i < nres; i++)
                if (r->addr[r->t->fin[i - nl] == 'y'] == a)
                    res[i] = (signed char)v;
        }
    }
}

static int sl_one(void *ctx, const cohkit_lit_test *t, int sync, uint64_t seed, signed char *res, char *err,
                  size_t len)
{
    const sl_ctx *x = ctx;
    stc_sys_cfg c;
    stc_sys_stats st;
    stc_prog p;
    stc_op *ops[STC_CUS_MAX];
    size_t nops[STC_CUS_MAX];
    sl_run r;
    char *out = NULL, *log = NULL, *l;
    size_t outlen = 0, loglen = 0;
    FILE *of, *lf;
    long nv = -1;
    int rc;
    build(x, t, sync, seed, &r);
    if (configure(x, &r, &c, err, len))
        return 1;
    program_of(&r, &p, ops, nops);
    of = open_memstream(&out, &outlen);
    lf = open_memstream(&log, &loglen);
    if (of && lf)
        nv = stc_sys_run(&c, &p, 0, of, lf, &st);
    if (of)
        fclose(of);
    if (lf)
        fclose(lf);
    if (nv < 0) {
        snprintf(err, len, "out of memory");
        rc = 1;
    } else if (st.timeout) {
        snprintf(err, len, "the run did not finish in %" PRIu64 " cycles (VIOL timeout)", c.max_cycles);
        rc = 2;
    } else {
        rc = judge(&c, log, loglen, err, len);
        if (rc == 2)
            rc = 1;
        else if ((rc == 1) != (nv > 0)) {
            snprintf(err, len, "the system's RESULT (%ld violations) and stc-check (%s) disagree", nv,
                     rc ? "FAIL" : "PASS");
            rc = 1;
        } else if (rc == 1)
            rc = 2;
    }
    if (rc != 1)
        results(&r, out, res);
    if ((l = strchr(err, '\n')) != NULL)
        *l = 0;
    free(out);
    free(log);
    return rc;
}

static void sl_program(void *ctx, const cohkit_lit_test *t, int sync, uint64_t seed, FILE *out)
{
    const sl_ctx *x = ctx;
    stc_op *ops[STC_CUS_MAX];
    size_t nops[STC_CUS_MAX];
    stc_prog p;
    sl_run r;
    char args[256];
    build(x, t, sync, seed, &r);
    args_of(&r, args, sizeof args);
    program_of(&r, &p, ops, nops);
    fprintf(out, "# %s %s: stc-system %s (and the options given); x 0x%" PRIx64 ", y 0x%" PRIx64 " (%s)\n",
            t->name, sync ? "sync" : "plain", args, r.addr[0], r.addr[1], place_names[r.place]);
    stc_prog_write(&p, out);
}

static const cohkit_lit_family sl_family = {"stc-litmus", sl_one, sl_program, 1, "sync"};

/* The options every run sets itself. */
static const char *const sl_own[] = {"cus", "epoch", "wake", "l2-lat", "mem-lat", "msg-lat", "slow-cu", NULL};

static int sl_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    unsigned i;
    if (!strcmp(name, "variant"))
        return 1; /* the litmus variant (a tool flag); the STC variant is --stc-variant */
    for (i = 0; sl_own[i]; i++)
        if (!strcmp(name, sl_own[i]))
            return cohkit_cfg_fail(err, len, "--%s: stc-litmus chooses the CUs, the initial epoch and the "
                                             "timing of each run itself", name);
    return stc_sys_cfg_option(cfg, name, value, err, len);
}

static int sl_preset(void *cfg, const char *name) { return stc_sys_cfg_preset(cfg, name); }

static int sl_check(void *cfg, char *err, size_t len) { return stc_sys_cfg_check(cfg, err, len); }

static int sl_run_tool(const void *cfg, const char *const *fl, FILE *in, const char *in_name, FILE *out,
                       FILE *errf)
{
    sl_ctx x = {cfg, SL_MIX};
    cohkit_lit_opts o;
    const char *v = fl ? fl[SF_STC] : NULL, *sd = fl ? fl[SF_SEED] : NULL;
    char desc[128];
    uint64_t seed = 1;
    (void)in;
    (void)in_name;
    if (cohkit_lit_parse(&sl_family, fl ? fl[SF_TEST] : NULL, fl ? fl[SF_VARIANT] : NULL, fl ? fl[SF_RUNS] : NULL,
                         &o, errf))
        return 2;
    if (v) {
        for (x.stc = 0; x.stc <= SL_MIX && strcmp(v, stc_names[x.stc]); x.stc++)
            ;
        if (x.stc > SL_MIX) {
            fprintf(errf, "cohmodel: stc-litmus: --stc-variant '%s': nv, es, ab, mb or mix\n", v);
            return 2;
        }
    }
    if (sd) {
        char *end;
        unsigned long long s = strtoull(sd, &end, 10);
        if (*sd < '0' || *sd > '9' || *end || s > 1000000000000ull) {
            fprintf(errf, "cohmodel: stc-litmus: --seed '%s': a number 0..1000000000000\n", sd);
            return 2;
        }
        seed = s;
    }
    snprintf(desc, sizeof desc, "STC %s%s%s", x.stc == SL_MIX ? "nv, es, ab, mb in turn" : stc_names[x.stc],
             ((const stc_sys_cfg *)cfg)->l1.poison ? "" : ", --no-poison",
             ((const stc_sys_cfg *)cfg)->l1.lazy ? "" : ", --no-lazy");
    return cohkit_lit_main(&sl_family, &x, &o, seed, fl && fl[SF_PROGRAM], desc, out, errf);
}

static const char *const sl_presets[] = {"default", "fpga", NULL};
static const char *const sl_bare[] = {"no-poison", "no-lazy", NULL};

const cohkit_unit_desc stc_litmus_tool = {
    .name = "stc-litmus",
    .family = "stc",
    .title = "STC litmus tests: MP SB LB S R 2+2W WRC IRIW and CoRR/CoRW/CoWR/CoWW through the system model "
             "under randomized timing, epochs and variants, outcome histograms and forbidden outcomes",
    .model_ref = "stc_sys_run (cmodel/stc/stc_system.c), every log judged by stc_check_run",
    .cfg_size = sizeof(stc_sys_cfg),
    .presets = sl_presets,
    .options_help = "  stc-system's options but --variant (--stc-variant), --cus, --epoch, --wake, --l2-lat,\n"
                    "  --mem-lat, --msg-lat and --slow-cu, which each run sets (--n, --seb, --seb-min,\n"
                    "  --seb-max, --addr-bits, --mb-max, --seb-guard, --bsq, --banks, --drain, --sets,\n"
                    "  --ways, --line, --mshrs, --no-poison, --no-lazy, --max-cycles; --config fpga)\n",
    .cfg_preset = sl_preset,
    .cfg_option = sl_option,
    .cfg_check = sl_check,
    .flags = sl_flags,
    .trace_help = "no input; prints per test and variant the outcomes (loads r0.. in program order of the\n"
                  "threads, then the final values) with their counts; exit 1 when a forbidden outcome\n"
                  "appears or a log fails stc-check",
    .trace_run = sl_run_tool,
    .cfg_bare = sl_bare,
    .verdict_exit = 1,
};
