/*
 * HALCONE system with Verilated units (halcone_vsys.h, docs/halcone.md
 * "Verilated system").
 */
#define _POSIX_C_SOURCE 200809L
#include "halcone_vsys.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "halcone_cache_rtl.h"
#include "halcone_check.h"
#include "compose_rtl.h"
#include "halcone_tsu_rtl.h"
#include "lockstep.h"
#include "unit.h"

void hvsys_opts_default(hvsys_opts *o)
{
    memset(o, 0, sizeof *o);
    o->rules = "safe";
    o->gpus = 2;
    o->cus = 2;
    o->l2_banks = 1;
    o->tsus = 1;
    o->seed = 1;
    o->fault_cmp = 1;
}

void hvsys_cfg(const hvsys_opts *o, halcone_sys_cfg *c)
{
    char e[200];
    halcone_sys_cfg_default(c);
    c->gpus = o->gpus;
    c->cus = o->cus;
    c->l1_sets = c->l2_sets = 64;
    c->l1_ways = c->l2_ways = 4;
    c->tsu_sets = 512;
    c->tsu_ways = 8;
    c->l2_banks = o->l2_banks;
    c->tsus = o->tsus;
    halcone_sys_cfg_option(c, "rules", o->rules, e, sizeof e);
}

/* ------------------------------------------------------ substitution -- */
typedef struct {
    const hvsys_opts *o;
    const dut_ops *cache_d, *tsu_d;
    uint64_t cycles;
    unsigned made;
} hv_ctx;

typedef struct {
    int is_tsu;
    halcone_cache_rtl *c;
    halcone_tsu_rtl *t;
} hv_unit;

static void *hv_new_cache(void *ctx, int kind, unsigned index, const void *cfg, char *err,
                          size_t len)
{
    hv_ctx *x = ctx;
    const halcone_cache_cfg *sc = cfg;
    hv_unit *u = calloc(1, sizeof *u);
    char name[32];
    if (u == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    u->c = halcone_cache_rtl_new((x->o->rtl & HVSYS_RTL_CACHE) ? x->cache_d : NULL, sc,
                                 x->o->seed * 131 + x->made++, err, len);
    if (u->c == NULL) {
        free(u);
        return NULL;
    }
    {
        const halcone_cache_cfg *rc = halcone_cache_rtl_cfg(u->c);
        halcone_cache_geom a, b;
        halcone_cache_geom_of(rc, &a);
        halcone_cache_geom_of(sc, &b);
        if (rc->sets != sc->sets || rc->ways != sc->ways || rc->line != sc->line ||
            rc->ts_bits != sc->ts_bits || a.lease_ext != b.lease_ext ||
            a.read_cts != b.read_cts || a.overflow != b.overflow || a.req_cts != b.req_cts ||
            a.l1_req_cts != b.l1_req_cts) {
            snprintf(err, len, "the Verilated cache (%s) is not the system's %s configuration",
                     x->cache_d ? x->cache_d->module : "?", kind ? "L2" : "L1");
            halcone_cache_rtl_free(u->c);
            free(u);
            return NULL;
        }
    }
    snprintf(name, sizeof name, "%s_%u", kind ? "l2" : "l1", index);
    halcone_cache_rtl_name(u->c, name);
    if ((x->o->rtl & HVSYS_RTL_CACHE) && x->o->fault_unit &&
        strcmp(x->o->fault_unit, name) == 0 &&
        halcone_cache_rtl_fault(u->c, x->o->fault_port, x->o->fault_mask, x->o->fault_val,
                                x->o->fault_from, x->o->fault_cmp) != 0) {
        snprintf(err, len, "--fault: '%s' is not an output of a Verilated cache",
                 x->o->fault_port);
        halcone_cache_rtl_free(u->c);
        free(u);
        return NULL;
    }
    return u;
}

static void *hv_new_tsu(void *ctx, unsigned index, const void *cfg, char *err, size_t len)
{
    hv_ctx *x = ctx;
    const halcone_tsu_cfg *sc = cfg;
    hv_unit *u = calloc(1, sizeof *u);
    (void)index;
    if (u == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    u->is_tsu = 1;
    u->t = (x->o->rtl & HVSYS_RTL_TSU) ? halcone_tsu_rtl_new(x->tsu_d, err, len)
                                       : halcone_tsu_rtl_new_shell(sc, err, len);
    if (u->t == NULL) {
        free(u);
        return NULL;
    }
    {
        const halcone_tsu_cfg *rc = halcone_tsu_rtl_cfg(u->t);
        if (rc->sets != sc->sets || rc->ways != sc->ways || rc->line != sc->line ||
            rc->ts_bits != sc->ts_bits || rc->rd_lease != sc->rd_lease ||
            rc->wr_lease != sc->wr_lease || rc->wr_wts != sc->wr_wts || rc->floor != sc->floor ||
            rc->overflow != sc->overflow || rc->req_cts != sc->req_cts ||
            rc->share_test != sc->share_test) {
            snprintf(err, len, "the Verilated TSU (%s) is not the system's configuration",
                     x->tsu_d ? x->tsu_d->module : "?");
            halcone_tsu_rtl_free(u->t);
            free(u);
            return NULL;
        }
    }
    return u;
}

static void hv_free(void *ctx, void *p, int is_tsu)
{
    hv_ctx *x = ctx;
    hv_unit *u = p;
    (void)is_tsu;
    if (u->is_tsu) {
        x->cycles += halcone_tsu_rtl_cycles(u->t);
        halcone_tsu_rtl_free(u->t);
    } else {
        x->cycles += halcone_cache_rtl_cycles(u->c);
        halcone_cache_rtl_free(u->c);
    }
    free(u);
}

static const halcone_cache *hv_core(void *p) { return halcone_cache_rtl_core(((hv_unit *)p)->c); }

static int hv_access(void *p, int op, uint64_t addr, uint32_t up, uint32_t wts, uint32_t rts,
                     halcone_cache_result *r)
{
    return halcone_cache_rtl_access(((hv_unit *)p)->c, (halcone_cache_op)op, addr, up, wts, rts, r);
}

static int hv_evict(void *p, uint64_t addr, halcone_cache_result *r)
{
    return halcone_cache_rtl_access(((hv_unit *)p)->c, HALCONE_CACHE_OP_EV, addr, 0, 0, 0, r);
}

static int hv_invalidate(void *p)
{
    halcone_cache_result r;
    return halcone_cache_rtl_access(((hv_unit *)p)->c, HALCONE_CACHE_OP_INV, 0, 0, 0, 0, &r);
}

static int hv_request(void *p, int op, uint64_t addr, uint32_t cts, uint32_t lease, uint32_t rts,
                      halcone_tsu_result *r)
{
    return halcone_tsu_rtl_request(((hv_unit *)p)->t, (halcone_tsu_op)op, addr, cts, lease, rts,
                                   r) < 0 ? -1 : 0;
}

static int hv_epoch_reset(void *p) { return halcone_tsu_rtl_epoch_reset(((hv_unit *)p)->t); }

static const char *hv_error(void *p, int is_tsu)
{
    hv_unit *u = p;
    (void)is_tsu;
    return u->is_tsu ? halcone_tsu_rtl_error(u->t) : halcone_cache_rtl_error(u->c);
}

/* ---------------------------------------------------------------- run -- */
typedef struct {
    char *buf;
    size_t n, cap;
    halcone_check *chk;
    int bad;
    char err[200];
} hv_log;

static void hv_sink(void *ctx, const char *line, unsigned long lineno, int event)
{
    hv_log *k = ctx;
    size_t l = strlen(line);
    (void)event;
    if (!k->bad && halcone_check_feed(k->chk, line, lineno, k->err, sizeof k->err) != 0)
        k->bad = 1;
    if (k->n + l + 2 > k->cap) {
        size_t nc = (k->cap ? k->cap * 2 : 4096) + l;
        char *q = realloc(k->buf, nc);
        if (q == NULL) {
            k->bad = 1;
            return;
        }
        k->buf = q;
        k->cap = nc;
    }
    memcpy(k->buf + k->n, line, l);
    k->buf[k->n + l] = '\n';
    k->n += l + 1;
    k->buf[k->n] = '\0';
}

static const dut_ops *find_dut(const dut_ops *const *duts, const char *unit, const char *cfg)
{
    const cohkit_unit_desc *u = cohkit_unit_find(unit);
    return duts && u ? ls_dut_find(duts, u, cfg) : NULL;
}

int hvsys_run(const hvsys_opts *o, const dut_ops *const *duts, const halcone_sys_cmd *cmds, size_t n,
              hvsys_res *res, char *err, size_t len)
{
    halcone_sys_cfg c;
    hv_ctx x;
    halcone_sys_subst sub;
    hv_log k;
    halcone_sys *s;
    size_t i;
    halcone_check_result hr;
    const char *cfgname = strcmp(o->rules, "paper") == 0 ? "paper" : "default";
    memset(res, 0, sizeof *res);
    memset(&x, 0, sizeof x);
    memset(&k, 0, sizeof k);
    x.o = o;
    x.cache_d = find_dut(duts, "halcone-cache", cfgname);
    x.tsu_d = find_dut(duts, "halcone-tsu", cfgname);
    if (((o->rtl & HVSYS_RTL_CACHE) && !x.cache_d) || ((o->rtl & HVSYS_RTL_TSU) && !x.tsu_d)) {
        snprintf(err, len, "no Verilated halcone-%s %s module",
                 (o->rtl & HVSYS_RTL_CACHE) && !x.cache_d ? "cache" : "tsu", cfgname);
        return -1;
    }
    hvsys_cfg(o, &c);
    memset(&sub, 0, sizeof sub);
    sub.ctx = &x;
    sub.new_cache = hv_new_cache;
    sub.new_tsu = hv_new_tsu;
    sub.free_unit = hv_free;
    sub.core = hv_core;
    sub.access = hv_access;
    sub.evict = hv_evict;
    sub.invalidate = hv_invalidate;
    sub.request = hv_request;
    sub.epoch_reset = hv_epoch_reset;
    sub.error = hv_error;
    k.chk = halcone_check_new();
    if (k.chk == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    s = o->model ? halcone_sys_new(&c, hv_sink, &k, err, len)
                 : halcone_sys_new_subst(&c, hv_sink, &k, &sub, err, len);
    if (s == NULL) {
        halcone_check_free(k.chk);
        return -1;
    }
    for (i = 0; i < n; i++)
        if (halcone_sys_run(s, &cmds[i]) != 0) {
            res->failed = 1;
            snprintf(res->why, sizeof res->why, "input line %lu: %s", cmds[i].lineno,
                     halcone_sys_error(s)[0] ? halcone_sys_error(s) : "stall");
            break;
        }
    if (k.bad && !res->failed) {
        res->failed = 1;
        snprintf(res->why, sizeof res->why, "log not understood: %s", k.err);
    }
    {
        char *cbuf = NULL;
        size_t csz = 0;
        FILE *f = open_memstream(&cbuf, &csz);
        res->violations = halcone_check_finish(k.chk, f, &hr);
        if (f)
            fclose(f);
        res->check = cbuf;
    }
    res->loads = halcone_sys_stats_of(s)->loads;
    res->stores = halcone_sys_stats_of(s)->stores;
    res->victims = halcone_sys_stats_of(s)->l1_victims + halcone_sys_stats_of(s)->l2_victims +
                   halcone_sys_stats_of(s)->evl1 + halcone_sys_stats_of(s)->evl2;
    halcone_sys_free(s);
    res->cycles = x.cycles;
    res->log = k.buf ? k.buf : calloc(1, 1);
    halcone_check_free(k.chk);
    return 0;
}

void hvsys_res_free(hvsys_res *r)
{
    free(r->log);
    free(r->check);
    r->log = r->check = NULL;
}

int hvsys_program(const hvsys_opts *o, unsigned ops, unsigned lines, uint64_t seed,
                  halcone_sys_cmd **cmds, size_t *n, char *err, size_t len)
{
    halcone_gen_cfg g;
    halcone_sys_cfg c;
    char *buf = NULL, e2[200];
    size_t sz = 0, i;
    FILE *f;
    int rc;
    unsigned B = o->l2_banks ? o->l2_banks : 1;
    halcone_gen_cfg_preset(&g, "random");
    g.gpus = o->gpus;
    g.cus = o->cus;
    g.ops = ops;
    g.lines = lines;
    g.seed = seed;
    if (halcone_gen_cfg_check(&g, e2, sizeof e2) != 0) {
        snprintf(err, len, "%s", e2);
        return -1;
    }
    f = open_memstream(&buf, &sz);
    if (f == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    halcone_gen_write(&g, f);
    fclose(f);
    f = fmemopen(buf, sz, "r");
    hvsys_cfg(o, &c);
    rc = f ? halcone_sys_trace_read(f, &c, cmds, n, err, len) : -1;
    if (f)
        fclose(f);
    free(buf);
    if (rc != 0)
        return -1;
    /* line k of the program -> bank k % B, set 16 (k / B) of it: four sets
     * of the 64-set units, so 17 lines or more per bank cause LRU victims */
    for (i = 0; i < *n; i++) {
        uint64_t k = (*cmds)[i].addr >> 6;
        (*cmds)[i].addr = ((k % B) + (uint64_t)B * 16 * (k / B)) << 6 | ((*cmds)[i].addr & 63);
    }
    return 0;
}

/* ------------------------------------------------------ ./tb_halcone -- */
static int vbad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int vbad(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "tb_halcone: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    return 2;
}

static int vnum(const char *s, unsigned long long *v)
{
    char *e;
    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    *v = strtoull(s, &e, 10);
    return *e ? -1 : 0;
}

static const char *const stage_names[] = {"none", "tsu", "cache", "all"};

/* One system run of o, staged over `stages` (bit s: stage_names[s]); every
 * stage's log against the functional model's; the checker on every log.
 * expect_fail: the rules are unsafe, the checker must find violations in
 * every log. 0 pass, 1 fail, 2 error. */
static int run_staged(const hvsys_opts *base, const dut_ops *const *duts, const halcone_sys_cmd *cmds,
                      size_t n, unsigned stages, int expect_fail, const char *what,
                      const char *log_path)
{
    hvsys_opts o = *base;
    hvsys_res ref, r;
    char err[300];
    unsigned st;
    int fail = 0;
    o.model = 1;
    o.rtl = 0;
    if (hvsys_run(&o, duts, cmds, n, &ref, err, sizeof err) != 0)
        return vbad("%s", err);
    printf("system %s, %s rules, %u GPUs x %u CUs, %u L2 bank(s), %u TSU(s): functional model: "
           "loads %" PRIu64 " stores %" PRIu64 " evictions %" PRIu64 " violations %" PRIu64 "\n",
           what, o.rules, o.gpus, o.cus, o.l2_banks, o.tsus, ref.loads, ref.stores, ref.victims,
           ref.violations);
    o.model = 0;
    for (st = 0; st < 4; st++) {
        int eq, ok;
        if (!(stages & (1u << st)))
            continue;
        o.rtl = st == 0 ? 0 : st == 1 ? HVSYS_RTL_TSU : st == 2 ? HVSYS_RTL_CACHE
                                                                 : HVSYS_RTL_TSU | HVSYS_RTL_CACHE;
        if (hvsys_run(&o, duts, cmds, n, &r, err, sizeof err) != 0) {
            hvsys_res_free(&ref);
            return vbad("%s", err);
        }
        eq = !r.failed && strcmp(r.log, ref.log) == 0;
        ok = eq && (expect_fail ? r.violations > 0 : r.violations == 0);
        printf("  --rtl %-5s %s: %" PRIu64 " unit cycles, checker violations %" PRIu64
               "%s, log %s the model's%s%s\n",
               stage_names[st], st == 0 ? "(timing shells)" : "(Verilated)    ", r.cycles,
               r.violations, expect_fail ? " (unsafe rules: expected)" : "",
               eq ? "equal to" : "DIFFERS from", r.failed ? ": " : "", r.failed ? r.why : "");
        if (!ok && !r.failed && r.check && r.check[0])
            printf("%.600s%s", r.check, strlen(r.check) > 600 ? "...\n" : "");
        if (log_path && r.log) {
            FILE *f = fopen(log_path, "w");
            if (f) {
                fputs(r.log, f);
                fputs(r.check ? r.check : "", f);
                fclose(f);
            }
        }
        fail |= !ok;
        hvsys_res_free(&r);
    }
    hvsys_res_free(&ref);
    return fail;
}

/* The directed traces of the default run: the L2-bank counterexample
 * (docs/halcone.md, H24) and the paper's V1 (spec 5.2). */
static const char bank_trace[] = "LD 0 0 0x0\nLD 1 0 0x40 lease=20\nST 0 0 0x40 1\n"
                                 "ST 1 0 0x0 2\nLD 0 0 0x0\n";
static const char v1_trace[] = "LD 0 0 0x80\nST 0 0 0x80 1\nLD 0 1 0x0\nST 0 0 0x0 2\n"
                               "LD 0 1 0x0\n";

static int read_text(const hvsys_opts *o, const char *text, FILE *file, halcone_sys_cmd **cmds,
                     size_t *n, char *err, size_t len)
{
    halcone_sys_cfg c;
    FILE *f = file ? file : fmemopen((void *)text, strlen(text), "r");
    int rc;
    hvsys_cfg(o, &c);
    if (f == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    rc = halcone_sys_trace_read(f, &c, cmds, n, err, len);
    if (!file)
        fclose(f);
    return rc;
}

/* What ./tb_halcone runs. */
typedef struct {
    hvsys_opts o;
    unsigned long long seed, cycles, ops, lines;
    unsigned stages;
    const char *log_path, *trace;
    char funit[32], fport[64];
} hv_args;

/* --fault U:P:B[@C]. 0, or 2 after the message. */
static int parse_fault(hv_args *a, const char *val)
{
    unsigned long long v;
    const char *at;
    char num[32];
    if (cmp_spec_split(val, a->funit, sizeof a->funit, a->fport, sizeof a->fport, num,
                       sizeof num, &at) != 0)
        return vbad("--fault: '%s' is not UNIT:PORT:BIT[@CYCLE]", val);
    if (vnum(num, &v) != 0 || v > 63)
        return vbad("--fault: '%s' has no bit number 0..63", val);
    a->o.fault_mask = a->o.fault_val = 1ull << v;
    if (at && vnum(at, &v) != 0)
        return vbad("--fault: '%s' has no numeric CYCLE", val);
    a->o.fault_from = at ? v : 0;
    a->o.fault_unit = a->funit;
    a->o.fault_port = a->fport;
    return 0;
}

/* --gpus, --cus, --l2-banks, --tsus. 0, or 2. */
static int parse_shape(hvsys_opts *o, const char *a, const char *val)
{
    unsigned long long v;
    unsigned max = a[2] == 'g' ? 64 : a[2] == 'c' ? 256 : 64;
    if (vnum(val, &v) != 0 || v == 0 || v > max || (a[2] != 'g' && a[2] != 'c' && (v & (v - 1))))
        return vbad("%s: '%s' is not %s", a, val,
                    a[2] == 'g' || a[2] == 'c' ? "a count (1..64/256)" : "a power of two (1..64)");
    if (a[2] == 'g')
        o->gpus = (unsigned)v;
    else if (a[2] == 'c')
        o->cus = (unsigned)v;
    else if (a[2] == 'l')
        o->l2_banks = (unsigned)v;
    else
        o->tsus = (unsigned)v;
    return 0;
}

/* One option with its value. 0, or 2 after the message. */
static int parse_opt(hv_args *x, const char *a, const char *val)
{
    if (strcmp(a, "--seed") == 0) {
        if (vnum(val, &x->seed) != 0)
            return vbad("--seed: '%s' is not a non-negative integer", val);
        x->o.seed = x->seed;
    } else if (strcmp(a, "--cycles") == 0) {
        if (vnum(val, &x->cycles) != 0 || x->cycles == 0)
            return vbad("--cycles: '%s' is not a positive integer", val);
    } else if (strcmp(a, "--ops") == 0) {
        if (vnum(val, &x->ops) != 0 || x->ops == 0 || x->ops > 100000)
            return vbad("--ops: '%s' is not an access count (1..100000)", val);
    } else if (strcmp(a, "--lines") == 0) {
        if (vnum(val, &x->lines) != 0 || x->lines == 0 || x->lines > 65536)
            return vbad("--lines: '%s' is not a line count (1..65536)", val);
    } else if (strcmp(a, "--gpus") == 0 || strcmp(a, "--cus") == 0 ||
               strcmp(a, "--l2-banks") == 0 || strcmp(a, "--tsus") == 0) {
        return parse_shape(&x->o, a, val);
    } else if (strcmp(a, "--rules") == 0) {
        if (strcmp(val, "safe") != 0 && strcmp(val, "paper") != 0)
            return vbad("--rules: '%s' is not safe or paper", val);
        x->o.rules = strcmp(val, "safe") == 0 ? "safe" : "paper";
    } else if (strcmp(a, "--rtl") == 0) {
        unsigned s;
        x->stages = 0;
        for (s = 0; s < 4; s++)
            if (strcmp(val, stage_names[s]) == 0)
                x->stages = 1u << s;
        if (strcmp(val, "staged") == 0)
            x->stages = 15;
        if (x->stages == 0)
            return vbad("--rtl: '%s' is not none, tsu, cache, all or staged", val);
    } else if (strcmp(a, "--fault") == 0) {
        return parse_fault(x, val);
    } else if (strcmp(a, "--trace") == 0) {
        x->trace = val;
    } else if (strcmp(a, "--log") == 0) {
        x->log_path = val;
    } else
        return vbad("unknown option '%s' with --system (see --help)", a);
    return 0;
}

/* The options of the system run, and the checks of --log and --fault. */
static int parse_args(hv_args *x, int argc, char **argv, const dut_ops *const *duts)
{
    int i, rc;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--system") == 0)
            continue;
        if (strcmp(a, "--no-port-check") == 0) {
            x->o.fault_cmp = 0;
            continue;
        }
        if (val == NULL)
            return vbad("%s needs a value (see --help)", a);
        i++;
        if ((rc = parse_opt(x, a, val)) != 0)
            return rc;
    }
    if (x->log_path) { /* a bad path before any output */
        FILE *f = fopen(x->log_path, "w");
        if (f == NULL)
            return vbad("--log: cannot write '%s'", x->log_path);
        fclose(f);
    }
    if (x->o.fault_unit) {
        const hvsys_opts *o = &x->o;
        const dut_ops *d = find_dut(duts, "halcone-cache",
                                    strcmp(o->rules, "paper") == 0 ? "paper" : "default");
        unsigned k, ok = 0, idx = 0, max = 0;
        char *e = NULL;
        if (!(x->stages & 12))
            return vbad("--fault: '%s' needs Verilated caches (--rtl cache or all)", o->fault_unit);
        for (k = 0; d && k < d->n_out; k++)
            ok |= strcmp(d->out_names[k], o->fault_port) == 0;
        if (!ok)
            return vbad("--fault: '%s' is not an output of a Verilated cache", o->fault_port);
        if ((strncmp(x->funit, "l1_", 3) == 0 || strncmp(x->funit, "l2_", 3) == 0) && x->funit[3])
            idx = (unsigned)strtoul(x->funit + 3, &e, 10);
        max = x->funit[1] == '1' ? o->gpus * o->cus : o->gpus * o->l2_banks;
        if (e == NULL || *e || idx >= max)
            return vbad("--fault: '%s' is not a cache of the system (l1_0..l1_%u, l2_0..l2_%u)",
                        x->funit, o->gpus * o->cus - 1, o->gpus * o->l2_banks - 1);
    }
    return 0;
}

/* --system: the program or the trace, staged. */
static int run_system(hv_args *x, const dut_ops *const *duts)
{
    const char *what = "random program";
    halcone_sys_cmd *cmds = NULL;
    size_t n = 0;
    char err[300];
    int rc;
    if (x->trace) {
        FILE *f = fopen(x->trace, "r");
        if (f == NULL)
            return vbad("--trace: cannot read '%s'", x->trace);
        rc = read_text(&x->o, NULL, f, &cmds, &n, err, sizeof err);
        fclose(f);
        if (rc != 0)
            return vbad("%s: %s", x->trace, err);
        what = x->trace;
    } else if (hvsys_program(&x->o, (unsigned)x->ops, (unsigned)x->lines, x->seed, &cmds, &n, err,
                             sizeof err) != 0) {
        return vbad("%s", err);
    }
    if (x->o.fault_unit)
        x->stages &= 12;
    rc = run_staged(&x->o, duts, cmds, n, x->stages, strcmp(x->o.rules, "paper") == 0, what,
                    x->log_path);
    free(cmds);
    if (rc == 2)
        return 2;
    printf("%s\n", rc ? "FAIL" : "PASS");
    return rc ? 1 : 0;
}

/* The system runs of ./tb_halcone without options. 0, 1, or 2. */
static int run_default_systems(hv_args *x, const dut_ops *const *duts)
{
    static const struct {
        const char *rules;
        unsigned gpus, cus, banks, tsus;
        const char *trace;
    } runs[] = {
        {"safe", 2, 2, 1, 1, NULL},        {"safe", 4, 2, 2, 2, NULL},
        {"paper", 2, 2, 1, 1, NULL},       {"safe", 2, 1, 2, 1, bank_trace},
        {"paper", 2, 1, 2, 1, bank_trace}, {"paper", 1, 2, 1, 1, v1_trace},
    };
    hvsys_opts *o = &x->o;
    halcone_sys_cmd *cmds = NULL;
    size_t n = 0, r;
    char err[300];
    int fail = 0, rc;
    printf("== system (TSU and caches: timing shells, then Verilated; spec 7.4 checker)\n");
    for (r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        o->rules = runs[r].rules;
        o->gpus = runs[r].gpus;
        o->cus = runs[r].cus;
        o->l2_banks = runs[r].banks;
        o->tsus = runs[r].tsus;
        if (runs[r].trace ? read_text(o, runs[r].trace, NULL, &cmds, &n, err, sizeof err)
                          : hvsys_program(o, 200, 40, x->seed + r, &cmds, &n, err, sizeof err))
            return vbad("%s", err);
        rc = run_staged(o, duts, cmds, n, 15, strcmp(o->rules, "paper") == 0,
                        runs[r].trace == bank_trace ? "L2-bank counterexample"
                        : runs[r].trace             ? "V1 counterexample"
                                                    : "random program",
                        NULL);
        free(cmds);
        cmds = NULL;
        if (rc == 2)
            return 2;
        fail |= rc;
    }
    return fail;
}

int halcone_tb_hook(int argc, char **argv, int *handled, const dut_ops *const *duts,
                    int (*run_unit)(int argc, char **argv))
{
    static const char *const configs[] = {"default", "paper", NULL};
    hv_args x;
    int mode = cmp_bench_mode(argc, argv, "--system"), fail, rc;
    if (mode == 0)
        return 0;
    *handled = 1;
    memset(&x, 0, sizeof x);
    hvsys_opts_default(&x.o);
    x.seed = 1;
    x.cycles = 100000;
    x.ops = 300;
    x.lines = 40;
    x.stages = 15;
    if ((rc = parse_args(&x, argc, argv, duts)) != 0)
        return rc;
    if (mode == 2)
        return run_system(&x, duts);
    if ((fail = cmp_bench_units("halcone", argv[0], x.cycles, x.seed, configs, run_unit)) == 2)
        return 2;
    if ((rc = run_default_systems(&x, duts)) == 2)
        return 2;
    fail |= rc;
    printf("%s\n", fail ? "FAIL" : "PASS");
    return fail ? 1 : 0;
}

void halcone_tb_help(FILE *f)
{
    fprintf(f,
            "without options: halcone-tsu and halcone-cache in lockstep (default and paper,\n"
            "--cycles each, default 100000; --seed applies), then the system staged as with\n"
            "--system on random programs (2 GPUs and 4 GPUs with 2 banks and 2 TSUs, safe;\n"
            "2 GPUs paper) and on the L2-bank and V1 counterexamples (safe and paper)\n"
            "the system (docs/halcone.md \"Verilated system\"; the system only):\n"
            "  --system         TSUs and caches at their ports: timing shells, then the\n"
            "                   Verilated TSUs, the Verilated caches, both; every log checked\n"
            "                   by the spec 7.4 checker and compared with the functional\n"
            "                   model's; every port of every Verilated unit with its shell\n"
            "  --rtl R          one stage: none, tsu, cache, all (default staged)\n"
            "  --rules R        safe (committed default units) or paper (committed paper\n"
            "                   units; the checker must find violations)\n"
            "  --gpus N --cus N --l2-banks N --tsus N   (default 2, 2, 1, 1)\n"
            "  --ops N --lines N  the random program (halcone-gen random; default 300, 40;\n"
            "                   lines alias in four sets of each bank)\n"
            "  --trace FILE     a system trace (spec 7.4) instead of the random program\n"
            "  --fault U:P:B[@C] bit B of output port P of Verilated cache U (l1_0, l2_0, ...)\n"
            "                   stuck at 1 from that unit's cycle C on (the checks must catch it)\n"
            "  --no-port-check  with --fault: no per-cycle comparison of that unit with its\n"
            "                   shell (the log comparison and the checker must catch it)\n"
            "  --log FILE       write the event log and checker lines of the last stage\n"
            "  --seed N         program and back-pressure seed (default 1)\n");
}
