/*
 * The HALCONE TSU as a registry unit (cmodel/unit.h): configuration wrapper
 * (--rules and the switches of spec 7.1), port table, timing-shell adapters,
 * the constrained-random and trace stimulus of the lockstep bench, and the
 * trace tool (`cohmodel halcone-tsu`, spec 7.2). The model is
 * cmodel/halcone/halcone_tsu.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "halcone_tsu.h"
#include "unit_trace.h"
#include "unit_adapt.h"

/* The configuration with what the option parser must remember: --rules sets
 * the switches of a preset, and switches given explicitly win over it in
 * any order (spec 7.1). */
enum { SW_WRWTS, SW_FLOOR, SW_OVERFLOW, SW_REQCTS, SW_N };
static const char *const sw_names[SW_N] = {"wr-wts", "floor", "overflow", "req-cts"};

typedef struct {
    halcone_tsu_cfg c;
    halcone_tsu_cfg ov;   /* explicitly given switch values */
    unsigned sw_set;      /* bit per SW_*                   */
    int rules;            /* -1: none given, 0 safe, 1 paper */
} tsu_ucfg;

static const char *const presets[] = {"default", "paper", "fpga", NULL};
static const char *const streams[] = {"mixed", "hot", "wrap", "full", NULL};

static int u_preset(void *cfg, const char *name)
{
    tsu_ucfg *u = cfg;
    memset(u, 0, sizeof *u);
    u->rules = -1;
    return halcone_tsu_cfg_preset(&u->c, name);
}

static int u_option(void *cfg, const char *name, const char *value, char *err, size_t len)
{
    tsu_ucfg *u = cfg;
    unsigned i;
    if (strcmp(name, "rules") == 0) {
        if (value && strcmp(value, "safe") == 0)
            u->rules = 0;
        else if (value && strcmp(value, "paper") == 0)
            u->rules = 1;
        else {
            snprintf(err, len, "--rules: '%s' is not paper or safe", value ? value : "");
            return -1;
        }
        return 0;
    }
    for (i = 0; i < SW_N; i++)
        if (strcmp(name, sw_names[i]) == 0) {
            int r = halcone_tsu_cfg_option(&u->ov, name, value, err, len);
            if (r == 0)
                u->sw_set |= 1u << i;
            return r;
        }
    return halcone_tsu_cfg_option(&u->c, name, value, err, len);
}

static int u_check(void *cfg, char *err, size_t len)
{
    tsu_ucfg *u = cfg;
    if (u->rules >= 0)
        halcone_tsu_cfg_rules(&u->c, u->rules ? "paper" : "safe");
    if (u->sw_set & (1u << SW_WRWTS))
        u->c.wr_wts = u->ov.wr_wts;
    if (u->sw_set & (1u << SW_FLOOR))
        u->c.floor = u->ov.floor;
    if (u->sw_set & (1u << SW_OVERFLOW))
        u->c.overflow = u->ov.overflow;
    if (u->sw_set & (1u << SW_REQCTS))
        u->c.req_cts = u->ov.req_cts;
    return halcone_tsu_cfg_check(&u->c, err, len);
}

static void u_name(const void *cfg, char *buf, size_t len)
{
    halcone_tsu_cfg_name(&((const tsu_ucfg *)cfg)->c, buf, len);
}

static void u_args(const void *cfg, char *buf, size_t len)
{
    halcone_tsu_cfg_args(&((const tsu_ucfg *)cfg)->c, buf, len);
}

COHKIT_UNIT_PORTS_BEGIN(halcone_tsu_cfg, halcone_tsu_geom, halcone_tsu_geom_of, c)
#include "halcone_tsu_ports.def"
COHKIT_UNIT_PORTS_END

/* ---------------------------------------------------------------- timing */

COHKIT_UNIT_TM_ADAPTERS(halcone_tsu_cfg, halcone_tsu_tm, halcone_tsu_in, halcone_tsu_out, halcone_tsu_tm_new, halcone_tsu_tm_free,
                 halcone_tsu_tm_reset, halcone_tsu_eval, halcone_tsu_step)

/* ------------------------------------------------------------ the trace */

typedef struct {
    unsigned op;        /* halcone_tsu_op */
    uint64_t addr;      /* byte address   */
    uint32_t cts, lease, rts;
} tsu_treq;

/* Reads a spec 7.2 trace. 0, or -1 with "line N: reason" in err. */
/* A key=value field of a request: cts= and lease= of RD and WR, rts= of
 * EV, each at most once. */
static int parse_field(cohkit_trace_reader *rd, const halcone_tsu_cfg *c, char *tok, tsu_treq *r,
                       unsigned *have)
{
    static const char *const keys[] = {"cts", "lease", "rts"};
    uint64_t tsmax = c->ts_bits >= 64 ? ~0ull : (1ull << c->ts_bits) - 1, x;
    char *eq = strchr(tok, '=');
    int k;
    if (eq == NULL)
        return cohkit_trace_fail(rd, "unexpected '%s' (key=value expected)", tok);
    *eq = '\0';
    for (k = 0; k < 3 && strcmp(tok, keys[k]) != 0; k++)
        ;
    if (k == 3 || (*have >> k & 1) || (k == 2) != (r->op == HALCONE_TSU_EV))
        return cohkit_trace_fail(rd, "unexpected or repeated '%s=' for %s", tok, rd->first);
    if (cohkit_trace_dec(eq + 1, tsmax, &x) != 0 || (k == 1 && x == 0))
        return cohkit_trace_fail(rd, "%s '%s' is not %d..%llu", tok, eq + 1, k == 1,
                                 (unsigned long long)tsmax);
    if (k == 0)
        r->cts = (uint32_t)x;
    else if (k == 1)
        r->lease = (uint32_t)x;
    else
        r->rts = (uint32_t)x;
    *have |= 1u << k;
    return 0;
}

static int parse_req(cohkit_trace_reader *rd, const void *ctx, void *rec)
{
    const halcone_tsu_cfg *c = ctx;
    tsu_treq *r = rec;
    const char *op = rd->first;
    char *tok;
    unsigned have = 0;
    if (strcmp(op, "RD") == 0)
        r->op = HALCONE_TSU_RD;
    else if (strcmp(op, "WR") == 0)
        r->op = HALCONE_TSU_WR;
    else if (strcmp(op, "EV") == 0)
        r->op = HALCONE_TSU_EV;
    else
        return cohkit_trace_fail(rd, "unknown command '%s' (RD, WR or EV)", op);
    if (cohkit_trace_req_addr(rd, op, c->addr_bits, &r->addr))
        return -1;
    while ((tok = cohkit_trace_arg(rd)) != NULL)
        if (parse_field(rd, c, tok, r, &have))
            return -1;
    if (r->op == HALCONE_TSU_EV && c->share_test == HALCONE_SHARE_RTS && !(have & 4))
        return cohkit_trace_fail(rd, "EV needs rts=<r> with --share-test rts");
    return 0;
}

static int trace_read(FILE *f, const halcone_tsu_cfg *c, tsu_treq **reqs, size_t *n, char *err,
                      size_t len)
{
    static const cohkit_trace_format fmt = {sizeof(tsu_treq), parse_req, NULL, 1022};
    void *v;
    int rc = cohkit_trace_records(f, &fmt, c, &v, n, err, len);
    *reqs = v;
    return rc;
}

/* -------------------------------------------------------------- stimulus */

enum { FLAG_DUMP = 0, FLAG_STATS = 1 };
static const cohkit_unit_flag flags[] = {
    {"dump", NULL, "cohmodel: after the trace, print ENTRY and REG lines (spec 7.2)"},
    {"stats", NULL, "cohmodel: print statistics to standard error"},
    {NULL, NULL, NULL},
};

/* mixed: RD/WR/EV/NOP over a few sets and one tag more than the ways, lease
 * overrides and cts values, lease-register writes, phases of valid/ready
 * probabilities; hot: back-to-back requests to one or two sets (the
 * forwarding paths); wrap: large leases and cts values, so that timestamps
 * overflow every few dozen requests; full: a request every cycle and the
 * response always taken, register leases, no cts (throughput and latency). */
enum { KIND_MIXED, KIND_HOT, KIND_WRAP, KIND_FULL, KIND_TRACE };

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    halcone_tsu_cfg c;
    halcone_tsu_geom g;
    uint64_t set_pool[4], tag_pool[20];
    unsigned nsets, ntags;
    int have;
    halcone_tsu_in q;          /* the request held on the port */
    tsu_treq *trace;
    size_t ntrace, tnext;
    uint64_t accepted, responses, sweeps_seen, warm, measure_accepted, lat_sum, lat_n;
    uint64_t acc_cyc[64];      /* acceptance cycles of requests in flight */
    unsigned acc_head, acc_n;
} tsu_stim;

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    tsu_stim *s = p;
    unsigned i;
    uint64_t base;
    s->c = ((const tsu_ucfg *)cfg)->c;
    halcone_tsu_geom_of(&s->c, &s->g);
    s->nsets = s->c.sets < 4 ? s->c.sets : 4;
    base = cohkit_unit_rnd(&s->b.rng);
    for (i = 0; i < s->nsets; i++)
        s->set_pool[i] = (base + i) & mask64(s->g.index_bits);
    s->ntags = s->c.ways + 1 < 20 ? s->c.ways + 1 : 20;
    base = cohkit_unit_rnd(&s->b.rng);
    for (i = 0; i < s->ntags; i++)
        s->tag_pool[i] = (base + i * 0x9E3779B1ull) & mask64(s->g.tag_bits);
    s->b.bp = COHKIT_UNIT_BP_FULL;
    if (s->b.kind == KIND_HOT || s->b.kind == KIND_FULL)
        s->nsets = s->nsets < 2 ? s->nsets : 2;
    if (s->b.trace && trace_read(a->trace, &s->c, &s->trace, &s->ntrace, err, len) != 0)
        return cohkit_unit_stim_trace_err(a, err, len);
    return 0;
}

static void stim_free(void *p)
{
    tsu_stim *s = p;
    if (s) {
        free(s->trace);
        free(s);
    }
}

COHKIT_UNIT_STIM_NEW(tsu_stim, 0x7654321ull)

/* A timestamp-field value 0..max, never wider than the W-bit ports. */
static uint64_t ts_rand(tsu_stim *s, uint64_t max)
{
    if (max > s->g.ts_max)
        max = s->g.ts_max;
    return max ? cohkit_unit_rnd(&s->b.rng) % (max + 1) : 0;
}

static void rand_request(tsu_stim *s)
{
    unsigned r = cohkit_unit_pct(&s->b.rng);
    uint64_t tsmax = s->g.ts_max, line;
    halcone_tsu_in *q = &s->q;
    if (s->b.kind == KIND_HOT || s->b.kind == KIND_FULL)
        q->req_op_i = r < 50 ? HALCONE_TSU_RD : r < 90 ? HALCONE_TSU_WR : HALCONE_TSU_EV;
    else
        q->req_op_i = r < 45 ? HALCONE_TSU_RD : r < 75 ? HALCONE_TSU_WR : r < 96 ? HALCONE_TSU_EV
                                                                             : HALCONE_TSU_NOP;
    line = (s->tag_pool[cohkit_unit_rnd(&s->b.rng) % s->ntags] << s->g.index_bits) |
           s->set_pool[cohkit_unit_rnd(&s->b.rng) % s->nsets];
    if (s->b.kind == KIND_MIXED && cohkit_unit_pct(&s->b.rng) < 5)
        line = cohkit_unit_rnd(&s->b.rng);
    q->req_addr_i = line & mask64(s->g.laddr_bits);
    q->req_tag_i = cohkit_unit_rnd(&s->b.rng) & mask64(s->c.tag_bits);
    r = cohkit_unit_pct(&s->b.rng);
    if (s->b.kind == KIND_WRAP)
        q->req_lease_i = r < 30 ? 0 : 1 + ts_rand(s, tsmax / 3);
    else if (s->b.kind == KIND_FULL)
        q->req_lease_i = 0;
    else
        q->req_lease_i = r < 60 ? 0 : r < 99 ? 1 + ts_rand(s, tsmax < 21 ? tsmax - 1 : 20) : 1 + ts_rand(s, tsmax - 1);
    r = cohkit_unit_pct(&s->b.rng);
    if (s->b.kind == KIND_WRAP)
        q->req_cts_i = r < 50 ? ts_rand(s, tsmax) : ts_rand(s, 20);
    else if (s->b.kind == KIND_FULL)
        q->req_cts_i = 0;
    else
        q->req_cts_i = r < 97 ? ts_rand(s, 64) : ts_rand(s, tsmax);
    q->req_rts_i = ts_rand(s, r < 50 ? 64 : tsmax);
}

static const unsigned sched_valid[] = {100, 80, 50, 20}, sched_ready[] = {100, 100, 70, 30};
static const cohkit_unit_bp_sched sched = COHKIT_UNIT_BP_SCHED(sched_valid, sched_ready);

static void stim_drive(void *p, uint64_t cyc, uint64_t *inw)
{
    tsu_stim *s = p;
    halcone_tsu_in *in = (halcone_tsu_in *)(void *)inw;
    if (s->b.kind == KIND_TRACE) {
        if (!s->have && s->tnext < s->ntrace && cohkit_unit_pct(&s->b.rng) < COHKIT_UNIT_BP_TRACE.valid) {
            const tsu_treq *t = &s->trace[s->tnext++];
            memset(&s->q, 0, sizeof s->q);
            s->q.req_op_i = t->op;
            s->q.req_addr_i = t->addr >> s->g.line_bits;
            s->q.req_tag_i = s->tnext & mask64(s->c.tag_bits);
            s->q.req_cts_i = t->cts;
            s->q.req_lease_i = t->lease;
            s->q.req_rts_i = t->rts;
            s->have = 1;
        }
        in->rsp_ready_i = cohkit_unit_pct(&s->b.rng) < COHKIT_UNIT_BP_TRACE.ready;
        in->cfg_we_i = 0;
        in->cfg_sel_i = 0;
        in->cfg_data_i = 0;
        in->epoch_rst_i = 0;
    } else {
        if ((cyc & 1023) == 0 && s->b.kind != KIND_FULL) {
            cohkit_unit_bp_draw(&sched, &s->b.rng, &s->b.bp);
        }
        if (!s->have && cohkit_unit_pct(&s->b.rng) < s->b.bp.valid) {
            rand_request(s);
            s->have = 1;
        }
        in->rsp_ready_i = cohkit_unit_pct(&s->b.rng) < s->b.bp.ready;
        /* lease registers: rare writes, zero now and then (ignored) */
        in->cfg_we_i = s->b.kind != KIND_FULL && cohkit_unit_pct(&s->b.rng) < 1;
        /* another TSU's epoch reset: rare pulses */
        in->epoch_rst_i = s->b.kind != KIND_FULL && cohkit_unit_rnd(&s->b.rng) % 2000 == 0;
        in->cfg_sel_i = cohkit_unit_rnd(&s->b.rng) & 1;
        in->cfg_data_i = cohkit_unit_pct(&s->b.rng) < 10 ? 0 : 1 + ts_rand(s, s->b.kind == KIND_WRAP || s->g.ts_max < 16 ? s->g.ts_max - 1 : 15);
    }
    in->req_valid_i = (uint64_t)s->have;
    in->req_op_i = s->have ? s->q.req_op_i : 0;
    in->req_addr_i = s->have ? s->q.req_addr_i : 0;
    in->req_tag_i = s->have ? s->q.req_tag_i : 0;
    in->req_cts_i = s->have ? s->q.req_cts_i : 0;
    in->req_lease_i = s->have ? s->q.req_lease_i : 0;
    in->req_rts_i = s->have ? s->q.req_rts_i : 0;
}

static void print_rsp(tsu_stim *s, const halcone_tsu_out *o)
{
    halcone_tsu_result r;
    unsigned lb = s->g.line_bits;
    memset(&r, 0, sizeof r);
    r.kind = (halcone_tsu_kind)o->rsp_kind_o;
    r.addr = o->rsp_addr_o << lb;
    r.wts = (uint32_t)o->rsp_wts_o;
    r.rts = (uint32_t)o->rsp_rts_o;
    r.memts = (uint32_t)o->rsp_rts_o;
    r.victim = (unsigned)o->rsp_victim_o;
    r.victim_addr = o->rsp_vaddr_o << lb;
    r.victim_memts = (uint32_t)o->rsp_vmemts_o;
    r.floor_raised = (unsigned)o->rsp_floor_o;
    r.floor = (uint32_t)o->rsp_fval_o;
    r.floor_set = (unsigned)(o->rsp_addr_o & mask64(s->g.index_bits));
    r.wrap = (unsigned)o->rsp_wrap_o;
    r.reset = (unsigned)o->rsp_reset_o;
    r.epoch = (uint32_t)o->rsp_epoch_o;
    halcone_tsu_print_cfg(s->b.out, &s->c, &r);
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *inw, const uint64_t *outw)
{
    tsu_stim *s = p;
    const halcone_tsu_in *in = (const halcone_tsu_in *)(const void *)inw;
    const halcone_tsu_out *o = (const halcone_tsu_out *)(const void *)outw;
    if (in->req_valid_i && o->req_ready_o) {
        s->accepted++;
        s->have = 0;
        if (in->req_op_i != HALCONE_TSU_NOP && s->acc_n < 64) {
            s->acc_cyc[(s->acc_head + s->acc_n) % 64] = cyc;
            s->acc_n++;
        }
    }
    if (o->rsp_valid_o && in->rsp_ready_i) {
        s->responses++;
        if (o->rsp_reset_o)
            s->sweeps_seen++;
        if (s->acc_n) {
            s->lat_sum += cyc - s->acc_cyc[s->acc_head];
            s->lat_n++;
            s->acc_head = (s->acc_head + 1) % 64;
            s->acc_n--;
        }
        if (s->b.out)
            print_rsp(s, o);
    }
}

static int stim_done(const void *p, const void *tmp)
{
    const tsu_stim *s = p;
    const halcone_tsu_tm *tm = tmp;
    return s->tnext == s->ntrace && !s->have && !tm->s1_valid && !tm->s2_valid && !tm->rsp_valid &&
           !tm->clr_busy;
}

static uint64_t stim_limit(const void *p)
{
    const tsu_stim *s = p;
    return 2 + s->c.sets + (s->ntrace + 1) * (s->c.sets + 16) + 16;
}

static void stim_summary(const void *p, const void *tmp, uint64_t cycles, FILE *f, const char *c)
{
    const tsu_stim *s = p;
    const halcone_tsu_stats *st = &((const halcone_tsu_tm *)tmp)->tsu->st;
    fprintf(f, "%scycles %llu  requests accepted %llu (%.3f per cycle)  responses %llu\n", c,
            (unsigned long long)cycles, (unsigned long long)s->accepted,
            cycles ? (double)s->accepted / (double)cycles : 0.0, (unsigned long long)s->responses);
    fprintf(f, "%smean cycles from acceptance to response transfer %.2f\n", c,
            s->lat_n ? (double)s->lat_sum / (double)s->lat_n : 0.0);
    fprintf(f,
            "%sreads %llu writes %llu notices %llu  hits %llu allocs %llu victims %llu  "
            "removes %llu keeps %llu absent %llu  floor raises %llu  wraps %llu  resets %llu\n",
            c, (unsigned long long)st->reads, (unsigned long long)st->writes,
            (unsigned long long)st->notices, (unsigned long long)st->hits,
            (unsigned long long)st->allocs, (unsigned long long)st->victims,
            (unsigned long long)st->removes, (unsigned long long)st->keeps,
            (unsigned long long)st->absents, (unsigned long long)st->floor_raises,
            (unsigned long long)st->wraps, (unsigned long long)st->resets);
}

static void stim_note(const void *p, char *buf, size_t len)
{
    const tsu_stim *s = p;
    snprintf(buf, len, "  rules: floor %s, overflow %s, req-cts %s, wr-wts %s",
             halcone_floor_str(s->c.floor), halcone_overflow_str(s->c.overflow),
             s->c.req_cts ? "on" : "off", halcone_wrwts_str(s->c.wr_wts));
}

/* ------------------------------------------------------------ trace tool */

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    const halcone_tsu_cfg *c = &((const tsu_ucfg *)cfg)->c;
    tsu_treq *v = NULL;
    size_t n = 0, i;
    char err[300];
    halcone_tsu *t;
    if (trace_read(in, c, &v, &n, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name ? in_name : "trace", err);
        return 2;
    }
    t = halcone_tsu_new(c);
    if (t == NULL) {
        fprintf(errf, "cohmodel: out of memory\n");
        free(v);
        return 2;
    }
    for (i = 0; i < n; i++) {
        halcone_tsu_result r =
            halcone_tsu_request(t, (halcone_tsu_op)v[i].op, v[i].addr, v[i].cts, v[i].lease, v[i].rts);
        halcone_tsu_print(out, t, &r);
    }
    if (fl[FLAG_DUMP])
        halcone_tsu_dump(out, t);
    if (fl[FLAG_STATS]) {
        const halcone_tsu_stats *st = &t->st;
        fprintf(errf,
                "reads %llu writes %llu notices %llu hits %llu allocs %llu victims %llu removes %llu "
                "keeps %llu absent %llu floor-raises %llu wraps %llu resets %llu\n",
                (unsigned long long)st->reads, (unsigned long long)st->writes,
                (unsigned long long)st->notices, (unsigned long long)st->hits,
                (unsigned long long)st->allocs, (unsigned long long)st->victims,
                (unsigned long long)st->removes, (unsigned long long)st->keeps,
                (unsigned long long)st->absents, (unsigned long long)st->floor_raises,
                (unsigned long long)st->wraps, (unsigned long long)st->resets);
    }
    halcone_tsu_free(t);
    free(v);
    return 0;
}

const cohkit_unit_desc halcone_tsu_unit = {
    .name = "halcone-tsu",
    .family = "halcone",
    .title = "HALCONE timestamp storage unit (Mojumder et al., 3.2.5, Fig. 6, Alg. 3; spec 3.1)",
    .model_ref = "cmodel/halcone/halcone_tsu.c halcone_tsu_eval() / halcone_tsu_step() (timing), "
                 "halcone_tsu_request() (function)",
    .cfg_size = sizeof(tsu_ucfg),
    .presets = presets,
    .committed = presets,
    .module_prefix = "halcone_tsu",
    .options_help = "  --rules R        paper or safe (default safe): sets --wr-wts, --floor,\n"
                    "                   --overflow and --req-cts; those given explicitly win,\n"
                    "                   in any order\n",
    .opts = &halcone_tsu_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "RD <addr> [cts=<c>] [lease=<n>] | WR <addr> [cts=<c>] [lease=<n>] |\n"
                  "EV <addr> [rts=<r>]   ('#' comments, hex addresses, decimal values)\n"
                  "output per RD/WR: [VICTIM <line> <memts>] [FLOOR <v> [<set>]] [WRAP <line>]\n"
                  "[RESET <epoch>] GRANT <line> <wts> <rts>; per EV: REMOVE <line> <memts>\n"
                  "[FLOOR <v>] | KEEP <line> <memts> | ABSENT <line>",
    COHKIT_UNIT_STIM_FIELDS,
    .stim_note = stim_note,
};
