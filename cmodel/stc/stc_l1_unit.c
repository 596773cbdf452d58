/*
 * The STC L1 controller as a registry unit (cmodel/unit.h): port table,
 * timing-shell adapters, constrained-random and trace stimulus, and the
 * trace tool `cohmodel stc-l1` (spec stc.md 7.2, `l1`). The model is
 * cmodel/stc/stc_l1.c.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "stc_l1.h"
#include "unit_adapt.h"
#include "unit_trace.h"

static const char *const presets[] = {"default", "fpga", NULL};
static const char *const streams[] = {"mixed", "rate", NULL};

COHKIT_UNIT_PORTS_BEGIN(stc_l1_cfg, stc_l1_geom, stc_l1_geom_of, c)
#include "stc_l1_ports.def"
COHKIT_UNIT_PORTS_END

COHKIT_UNIT_ADAPTERS(stc_l1, stc_l1_cfg, stc_l1_tm, stc_l1_in, stc_l1_out, stc_l1_tm_new, stc_l1_tm_free,
                 stc_l1_tm_reset, stc_l1_eval, stc_l1_step)

/* ----------------------------------------------------------------- trace */

enum { R_LD, R_ST, R_DATA, R_WA, R_CHG };

typedef struct {
    int kind;
    uint64_t addr;
    stc_eset cer;
    unsigned seb;
    unsigned lineno;
} l1_rec;

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static int parse_rec(cohkit_trace_reader *rd, const void *ctx, void *rec)
{
    static const char *const names[] = {"LD", "ST", "DATA", "WA", "CHG"};
    const stc_l1_cfg *c = ctx;
    l1_rec *x = rec;
    char *tk[8];
    int nt = cohkit_trace_tokens(rd, tk, 8), k;
    x->lineno = rd->lineno;
    for (k = 0; k < 5 && strcmp(tk[0], names[k]) != 0; k++)
        ;
    if (k == 5)
        return cohkit_trace_fail(rd, "unknown record '%s' (LD, ST, DATA, WA or CHG)", tk[0]);
    x->kind = k;
    if (k != R_CHG) {
        if (nt != 2)
            return cohkit_trace_fail(rd, "expected '%s <addr>'", names[k]);
        if (cohkit_trace_hex_width(tk[1], c->addr_bits, &x->addr) != 0)
            return cohkit_trace_fail(rd, "address '%s' is not hex of at most %u bits", tk[1],
                                     c->addr_bits);
    } else {
        char *end, why[160];
        unsigned long v;
        if (nt != 3)
            return cohkit_trace_fail(rd, "expected 'CHG <epochs> <seb>'");
        if (stc_eset_parse(&x->cer, tk[1], c->n, why, sizeof why) != 0)
            return cohkit_trace_fail(rd, "epoch set '%s' is not a list of epochs below %u (%s)",
                                     tk[1], 1u << c->n, why);
        v = isdigit((unsigned char)tk[2][0]) ? strtoul(tk[2], &end, 10) : 0;
        if (!isdigit((unsigned char)tk[2][0]) || *end != '\0' || v < c->seb_min || v > c->seb_max)
            return cohkit_trace_fail(rd, "SEB '%s' is not %u..%u", tk[2], c->seb_min, c->seb_max);
        x->seb = (unsigned)v;
    }
    return 0;
}

static int read_trace(FILE *f, const stc_l1_cfg *c, l1_rec **out, size_t *nout, char *err,
                      size_t len)
{
    static const cohkit_trace_format fmt = {sizeof(l1_rec), parse_rec, NULL, 0};
    void *r;
    int rc = cohkit_trace_records(f, &fmt, c, &r, nout, err, len);
    *out = r;
    return rc;
}

static const char *const st_name[] = {"I", "V", "I_V", "I_I"};
static const char *const ev_name[] = {"Store", "Load", "Load_U", "Data", "Data_E", "WA"};

static void print_t(FILE *f, unsigned kind, unsigned ev, uint64_t line, unsigned from, unsigned to,
                    unsigned act, unsigned pw)
{
    if (kind == STC_L1_K_STALL) {
        fprintf(f, "STALL %s 0x%llx %s\n", ev_name[ev % 6], (unsigned long long)line,
                st_name[from & 3]);
        return;
    }
    fprintf(f, "T %s 0x%llx %s %s ", ev_name[ev % 6], (unsigned long long)line, st_name[from & 3],
            st_name[to & 3]);
    switch (act) {
    case STC_L1_ACT_HIT:
        fprintf(f, "hit\n");
        break;
    case STC_L1_ACT_LOAD:
        fprintf(f, "req=Load\n");
        break;
    case STC_L1_ACT_LOAD_U:
        fprintf(f, "req=Load_U\n");
        break;
    case STC_L1_ACT_STORE:
        fprintf(f, "req=Store pw=%u\n", pw);
        break;
    case STC_L1_ACT_LD:
        fprintf(f, "ld\n");
        break;
    default:
        fprintf(f, "pw=%u\n", pw);
        break;
    }
}

static void print_inv(FILE *f, unsigned kind, uint64_t line)
{
    if (kind == STC_L1_K_POISON)
        fprintf(f, "POISON 0x%llx\n", (unsigned long long)line);
    else
        fprintf(f, "INV 0x%llx %s\n", (unsigned long long)line,
                kind == STC_L1_K_INV_LAZY    ? "lazy"
                : kind == STC_L1_K_INV_EVICT ? "evict"
                                             : "sweep");
}

/* The functional core over a trace; prints to out when given. -1 with
 * "line N: reason" on DATA without an outstanding load or WA with PW = 0. */
static int run_core(const stc_l1_cfg *c, const l1_rec *r, size_t n, FILE *out, int dump,
                    char *err, size_t len)
{
    stc_l1 *l = stc_l1_new(c);
    size_t i;
    unsigned k;
    if (l == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    for (i = 0; i < n; i++) {
        stc_l1_result res;
        if (r[i].kind == R_LD || r[i].kind == R_ST) {
            stc_l1_access(l, r[i].kind == R_LD ? STC_L1_OP_LD : STC_L1_OP_ST, r[i].addr, &res);
            if (out) {
                for (k = 0; k < res.ninv; k++)
                    print_inv(out, STC_L1_K_INV_LAZY, res.inv[k]);
                print_t(out, res.stall ? STC_L1_K_STALL : STC_L1_K_T, res.event, res.line,
                        res.from, res.to, res.act, res.pw);
            }
        } else if (r[i].kind == R_DATA) {
            stc_l1_fill f;
            if (stc_l1_data(l, r[i].addr, NULL, &f) != 0) {
                snprintf(err, len, "line %u: DATA 0x%llx: no load of line 0x%llx is outstanding",
                         r[i].lineno, (unsigned long long)r[i].addr, (unsigned long long)f.line);
                goto bad;
            }
            if (out) {
                if (f.evicted)
                    print_inv(out, STC_L1_K_INV_EVICT, f.victim);
                print_t(out, STC_L1_K_T, f.event, f.line, f.from, f.to, STC_L1_ACT_LD, 0);
            }
        } else if (r[i].kind == R_WA) {
            if (stc_l1_wa(l, r[i].addr, &res) != 0) {
                snprintf(err, len, "line %u: WA 0x%llx: no write is pending (PW = 0)",
                         r[i].lineno, (unsigned long long)r[i].addr);
                goto bad;
            }
            if (out)
                print_t(out, STC_L1_K_T, res.event, res.line, res.from, res.to, res.act, res.pw);
        } else {
            stc_l1_chg_result cr;
            if (stc_l1_chg(l, &r[i].cer, r[i].seb, &cr) != 0) {
                snprintf(err, len, "line %u: CHG rejected", r[i].lineno);
                goto bad;
            }
            if (out) {
                for (k = 0; k < cr.nsweep; k++)
                    print_inv(out, STC_L1_K_INV_SWEEP, cr.sweep[k]);
                for (k = 0; k < cr.npoison; k++)
                    print_inv(out, STC_L1_K_POISON, cr.poison[k]);
            }
        }
    }
    if (out && dump)
        stc_l1_dump(l, out);
    stc_l1_free(l);
    return 0;
bad:
    stc_l1_free(l);
    return -1;
}

/* -------------------------------------------------------------- stimulus */

enum { FLAG_DUMP = 0 };
static const cohkit_unit_flag flags[] = {
    {"dump", NULL, "LINE <line> V|I_V|I_I [poison] and PW <n> at the end of a trace"},
    {NULL, NULL, NULL},
};

enum { KIND_MIXED, KIND_RATE, KIND_TRACE };

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    stc_l1_cfg c;
    stc_l1_geom g;
    unsigned p_chg;
    /* request / ChangeEpoch being driven */
    int have, chave;
    unsigned q_op;
    uint64_t q_addr;
    stc_eset q_cer;
    unsigned q_seb;
    /* outstanding loads (line numbers) and stores, as the stimulus saw them */
    uint64_t *out_lines;
    unsigned nout;
    unsigned stores;
    /* trace */
    l1_rec *rec;
    size_t nrec, next;
    int dump;
    struct pend {
        unsigned kind;
        uint64_t line;
    } *buf;
    unsigned nbuf, bufcap;
    /* counts */
    uint64_t offered, accepted, events, chgs, kinds[8];
} l1_stim;

static void stim_free(void *p)
{
    l1_stim *s = p;
    if (s == NULL)
        return;
    free(s->rec);
    free(s->out_lines);
    free(s->buf);
    free(s);
}

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    l1_stim *s = p;
    s->c = *(const stc_l1_cfg *)cfg;
    stc_l1_geom_of(&s->c, &s->g);
    s->out_lines = calloc(s->c.mshrs + 1, sizeof *s->out_lines);
    s->bufcap = s->c.sets * s->c.ways + s->c.mshrs + 4;
    s->buf = calloc(s->bufcap, sizeof *s->buf);
    if (s->out_lines == NULL || s->buf == NULL)
        return snprintf(err, len, "out of memory"), -1;
    s->b.bp = COHKIT_UNIT_BP_FULL;
    s->p_chg = 2;
    s->dump = s->b.trace && a->flags && a->flags[FLAG_DUMP];
    if (s->b.trace && (read_trace(a->trace, &s->c, &s->rec, &s->nrec, err, len) != 0 ||
                       run_core(&s->c, s->rec, s->nrec, NULL, 0, err, len) != 0))
        return cohkit_unit_stim_trace_err(a, err, len);
    return 0;
}

COHKIT_UNIT_STIM_NEW(l1_stim, 0x5eedull)

/* An address from a small pool: few sets, a few more tags than ways (so
 * sets fill and evict), bands 0..3 at the configured SEB. */
static uint64_t rand_addr(l1_stim *s)
{
    unsigned lb = s->g.line_bits, sb = s->g.set_bits, nsets = s->c.sets < 4 ? s->c.sets : 4;
    uint64_t set = cohkit_unit_rnd(&s->b.rng) % nsets, tag = cohkit_unit_rnd(&s->b.rng) % (s->c.ways + 3);
    uint64_t a = (tag << (lb + sb)) | (set << lb) | ((cohkit_unit_rnd(&s->b.rng) % s->c.line) & ~3ull);
    uint64_t band = cohkit_unit_rnd(&s->b.rng) % 4 & mask64(s->c.n);
    if (s->c.seb < 64) {
        a &= ~(mask64(s->c.n) << s->c.seb);
        a |= band << s->c.seb;
    }
    return a & mask64(s->c.addr_bits);
}

static const unsigned sched_valid[] = {100, 70, 40, 10}, sched_ready[] = {100, 80, 50, 20};
static const cohkit_unit_bp_sched sched = COHKIT_UNIT_BP_SCHED(sched_valid, sched_ready);

static void rand_drive(l1_stim *s, uint64_t cyc)
{
    if (s->b.kind == KIND_MIXED && (cyc & 511) == 0) {
        cohkit_unit_bp_draw(&sched, &s->b.rng, &s->b.bp);
        s->p_chg = 1 + (unsigned)(cohkit_unit_rnd(&s->b.rng) % 3);
    }
    if (!s->chave && s->b.kind == KIND_MIXED && cohkit_unit_pct(&s->b.rng) < s->p_chg && cohkit_unit_pct(&s->b.rng) < 20) {
        unsigned k, ne = 1 + (unsigned)(cohkit_unit_rnd(&s->b.rng) % 2), sebs = s->c.seb_max - s->c.seb_min + 1;
        memset(&s->q_cer, 0, sizeof s->q_cer);
        for (k = 0; k < ne; k++)
            stc_eset_add(&s->q_cer, (unsigned)(cohkit_unit_rnd(&s->b.rng) % 4) & (s->g.epochs - 1));
        s->q_seb = cohkit_unit_pct(&s->b.rng) < 80 ? s->c.seb : s->c.seb_min + (unsigned)(cohkit_unit_rnd(&s->b.rng) % sebs);
        if (s->q_seb > s->c.seb_max)
            s->q_seb = s->c.seb_max;
        s->chave = 1;
    }
    if (!s->have && (s->b.kind == KIND_RATE || cohkit_unit_pct(&s->b.rng) < s->b.bp.valid)) {
        unsigned r = cohkit_unit_pct(&s->b.rng);
        if (s->b.kind == KIND_MIXED && cohkit_unit_pct(&s->b.rng) < 2) {
            /* now and then a DATA or WA the unit may not expect (ERR path) */
            s->q_op = cohkit_unit_pct(&s->b.rng) < 50 ? STC_L1_REQ_DATA : STC_L1_REQ_WA;
            s->q_addr = rand_addr(s);
        } else if (r < 25 && s->nout > 0) {
            unsigned k = (unsigned)(cohkit_unit_rnd(&s->b.rng) % s->nout);
            s->q_op = STC_L1_REQ_DATA;
            s->q_addr = (s->out_lines[k] << s->g.line_bits) | (cohkit_unit_rnd(&s->b.rng) % s->c.line & ~3ull);
            s->out_lines[k] = s->out_lines[--s->nout];
        } else if (r < 35 && s->stores > 0) {
            s->q_op = STC_L1_REQ_WA;
            s->q_addr = rand_addr(s);
            s->stores--;
        } else {
            s->q_op = cohkit_unit_pct(&s->b.rng) < 70 ? STC_L1_REQ_LD : STC_L1_REQ_ST;
            s->q_addr = rand_addr(s);
        }
        s->have = 1;
    }
}

static void trace_drive(l1_stim *s)
{
    const l1_rec *r;
    if (s->have || s->chave || s->next >= s->nrec || cohkit_unit_pct(&s->b.rng) >= COHKIT_UNIT_BP_TRACE.valid)
        return;
    r = &s->rec[s->next++];
    if (r->kind == R_CHG) {
        s->q_cer = r->cer;
        s->q_seb = r->seb;
        s->chave = 1;
    } else {
        static const unsigned ops[] = {STC_L1_REQ_LD, STC_L1_REQ_ST, STC_L1_REQ_DATA,
                                       STC_L1_REQ_WA};
        s->q_op = ops[r->kind];
        s->q_addr = r->addr;
        s->have = 1;
    }
}

static void stim_drive(void *p, uint64_t cyc, uint64_t *inw)
{
    l1_stim *s = p;
    stc_l1_in *in = (stc_l1_in *)(void *)inw;
    unsigned i, words = (s->g.epochs + 63) / 64;
    if (s->b.kind == KIND_TRACE) {
        trace_drive(s);
        in->ev_ready_i = cohkit_unit_pct(&s->b.rng) < COHKIT_UNIT_BP_TRACE.ready;
    } else {
        rand_drive(s, cyc);
        in->ev_ready_i = s->b.kind == KIND_RATE || cohkit_unit_pct(&s->b.rng) < s->b.bp.ready;
    }
    in->req_valid_i = (uint64_t)s->have;
    in->req_op_i = s->have ? s->q_op : 0;
    in->req_addr_i = s->have ? s->q_addr : 0;
    in->chg_valid_i = (uint64_t)s->chave;
    in->chg_seb_i = s->chave ? s->q_seb : 0;
    for (i = 0; i < words; i++)
        in->chg_cer_i[i] = s->chave ? s->q_cer.w[i] & mask64(s->g.epochs - 64 * i) : 0;
}

static int cmp_pend(const void *a, const void *b)
{
    const struct pend *x = a, *y = b;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Lines of one INV/POISON group print in ascending order (spec 7.2); the
 * RTL shows them in way / entry order. A sweep group is sorted by set,
 * then line. */
static void flush(l1_stim *s)
{
    unsigned i, j;
    if (s->nbuf == 0)
        return;
    if (s->buf[0].kind == STC_L1_K_INV_SWEEP) {
        uint64_t smask = s->c.sets - 1;
        for (i = 0; i < s->nbuf;) {
            for (j = i; j < s->nbuf && (s->buf[j].line & smask) == (s->buf[i].line & smask); j++)
                ;
            qsort(s->buf + i, j - i, sizeof *s->buf, cmp_pend);
            i = j;
        }
    } else {
        qsort(s->buf, s->nbuf, sizeof *s->buf, cmp_pend);
    }
    for (i = 0; i < s->nbuf; i++)
        if (s->b.out)
            print_inv(s->b.out, s->buf[i].kind, s->buf[i].line << s->g.line_bits);
    s->nbuf = 0;
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *inw, const uint64_t *outw)
{
    l1_stim *s = p;
    const stc_l1_in *in = (const stc_l1_in *)(const void *)inw;
    const stc_l1_out *o = (const stc_l1_out *)(const void *)outw;
    (void)cyc;
    s->offered += in->req_valid_i & 1;
    if (in->req_valid_i && o->req_ready_o) {
        s->accepted++;
        s->have = 0;
    }
    if (in->chg_valid_i && o->chg_ready_o) {
        s->chgs++;
        s->chave = 0;
    }
    if (o->ev_valid_o && in->ev_ready_i) {
        unsigned k = (unsigned)o->ev_kind_o & 7;
        s->events++;
        s->kinds[k]++;
        if (k == STC_L1_K_T && (o->ev_act_o == STC_L1_ACT_LOAD || o->ev_act_o == STC_L1_ACT_LOAD_U) &&
            s->nout <= s->c.mshrs)
            s->out_lines[s->nout++] = o->ev_line_o;
        if (k == STC_L1_K_T && o->ev_act_o == STC_L1_ACT_STORE)
            s->stores++;
        if (k == STC_L1_K_INV_LAZY || k == STC_L1_K_INV_SWEEP || k == STC_L1_K_POISON) {
            if (s->nbuf && s->buf[0].kind != k)
                flush(s);
            if (s->nbuf < s->bufcap) {
                s->buf[s->nbuf].kind = k;
                s->buf[s->nbuf++].line = o->ev_line_o;
            }
        } else {
            flush(s);
            if (s->b.out) {
                if (k == STC_L1_K_INV_EVICT)
                    print_inv(s->b.out, k, o->ev_line_o << s->g.line_bits);
                else if (k == STC_L1_K_T || k == STC_L1_K_STALL)
                    print_t(s->b.out, k, (unsigned)o->ev_event_o, o->ev_line_o << s->g.line_bits,
                            (unsigned)o->ev_from_o, (unsigned)o->ev_to_o, (unsigned)o->ev_act_o,
                            (unsigned)o->ev_pw_o);
                else
                    fprintf(s->b.out, "ERR 0x%llx\n",
                            (unsigned long long)(o->ev_line_o << s->g.line_bits));
            }
        }
    }
    if (o->chg_done_o)
        flush(s);
}

static int stim_done(const void *p, const void *tm)
{
    const l1_stim *s = p;
    return s->next == s->nrec && !s->have && !s->chave && s->nbuf == 0 && stc_l1_tm_idle(tm);
}

static uint64_t stim_limit(const void *p)
{
    const l1_stim *s = p;
    return 64 + (uint64_t)s->c.sets + (uint64_t)s->nrec * (40 + 2 * (uint64_t)s->c.ways) +
           (uint64_t)s->nrec * 2 * ((uint64_t)s->c.sets * s->c.ways + s->c.sets + s->c.mshrs);
}

static void stim_summary(const void *p, const void *tmp, uint64_t cycles, FILE *f, const char *c)
{
    const l1_stim *s = p;
    /* --dump in trace mode: the end state, from the shell (whose RAM and
     * MSHRs the RTL matched every cycle), after the trace lines */
    if (s->b.kind == KIND_TRACE && s->dump && s->b.out)
        stc_l1_tm_dump(tmp, s->b.out);
    fprintf(f, "%scycles %llu  requests offered %llu accepted %llu (%.3f per cycle)  chg %llu\n", c,
            (unsigned long long)cycles, (unsigned long long)s->offered,
            (unsigned long long)s->accepted, cycles ? (double)s->accepted / (double)cycles : 0.0,
            (unsigned long long)s->chgs);
    fprintf(f,
            "%sevents %llu: T %llu  STALL %llu  INV lazy %llu evict %llu sweep %llu  POISON %llu"
            "  ERR %llu\n",
            c, (unsigned long long)s->events, (unsigned long long)s->kinds[0],
            (unsigned long long)s->kinds[1], (unsigned long long)s->kinds[2],
            (unsigned long long)s->kinds[3], (unsigned long long)s->kinds[4],
            (unsigned long long)s->kinds[5], (unsigned long long)s->kinds[6]);
}

/* ------------------------------------------------------------ trace tool */

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    const stc_l1_cfg *c = cfg;
    l1_rec *r = NULL;
    size_t n = 0;
    char err[300];
    char *buf = NULL;
    size_t blen = 0;
    FILE *tmp;
    if (read_trace(in, c, &r, &n, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    tmp = open_memstream(&buf, &blen);
    if (tmp == NULL) {
        free(r);
        fprintf(errf, "cohmodel: out of memory\n");
        return 2;
    }
    if (run_core(c, r, n, tmp, fl && fl[FLAG_DUMP], err, sizeof err) != 0) {
        fclose(tmp);
        free(buf);
        free(r);
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    fclose(tmp);
    fwrite(buf, 1, blen, out);
    free(buf);
    free(r);
    return 0;
}

const cohkit_unit_desc stc_l1_unit = {
    .name = "stc-l1",
    .family = "stc",
    .title = "STC L1 controller: write-through VI, Load_U, Data_E, lazy invalidation, sweep, "
             "poison bit (TACO 2023 4.2, 4.5, Table 1; spec 3.5, S1)",
    .model_ref = "cmodel/stc/stc_l1.c stc_l1_eval() / stc_l1_step() (timing), stc_l1_access() / "
                 "stc_l1_data() / stc_l1_wa() / stc_l1_chg() (function)",
    .cfg_size = sizeof(stc_l1_cfg),
    .presets = presets,
    .committed = presets,
    .module_prefix = "stc_l1",
    .opts = &stc_l1_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "LD <addr> | ST <addr> | DATA <addr> | WA <addr> | CHG <epochs> <seb>;\n"
                  "output: INV <line> lazy|evict|sweep | T <event> <line> <from> <to> <actions>"
                  " |\nSTALL <event> <line> <state> | POISON <line>; --dump: LINE <line> V|I_V|I_I"
                  " [poison], PW <n>",
    COHKIT_UNIT_STIM_FIELDS,
    .stim_note = NULL,
};
