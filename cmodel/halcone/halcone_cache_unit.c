/*
 * The HALCONE cache timestamp unit as a registry unit (cmodel/unit.h): port
 * table, timing shell adapters, the constrained-random and trace stimulus of
 * the lockstep bench and the trace tool (`cohmodel halcone-cache`, format of
 * the HALCONE specification section 7.3). The model is cmodel/halcone/halcone_cache.c.
 */
#include <stdlib.h>
#include <string.h>

#include "halcone_cache.h"
#include "unit_trace.h"
#include "unit_adapt.h"

static const char *const presets[] = {"default", "paper", "fpga", "safe", "l2", NULL};
static const char *const committed[] = {"default", "paper", "fpga", NULL};
static const char *const streams[] = {"mixed", "hits", "full", NULL};


COHKIT_UNIT_PORTS_BEGIN(halcone_cache_cfg, halcone_cache_geom, halcone_cache_geom_of, c)
#include "halcone_cache_ports.def"
COHKIT_UNIT_PORTS_END

COHKIT_UNIT_ADAPTERS(halcone_cache, halcone_cache_cfg, halcone_cache_tm, uint64_t, uint64_t, halcone_cache_tm_new, halcone_cache_tm_free,
                 halcone_cache_tm_reset, halcone_cache_tm_eval, halcone_cache_tm_step)


/* ----------------------------------------------------------------- trace */

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* Decimal 0..max. 0, -1 not a number, -2 too large. */
static int parse_dec(const char *t, uint64_t max, uint64_t *v)
{
    uint64_t x = 0;
    const char *p = t;
    if (*p == '\0')
        return -1;
    for (; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        if (x > (max - (uint64_t)(*p - '0')) / 10)
            return -2;
        x = x * 10 + (uint64_t)(*p - '0');
    }
    *v = x;
    return 0;
}

typedef struct {
    unsigned op;
    uint64_t addr;
    uint32_t wts, rts;
    uint32_t cts;            /* cts=<c>: the requester's cts (RD, WR)    */
    unsigned lineno;
} hc_rec;

typedef struct {
    hc_rec *r;
    size_t n;
} hc_trace;

/* The operands of a record, arg[0..nwant-1]: an address, and for RD and
 * WR its two timestamps. */
static int parse_args(cohkit_trace_reader *rd, const halcone_cache_cfg *c, char **arg, int nwant,
                      hc_rec *rec)
{
    uint32_t tsmax = (uint32_t)mask64(c->ts_bits);
    int r = cohkit_trace_hex_width(arg[0], c->addr_bits, &rec->addr);
    if (r == -1)
        return cohkit_trace_fail(rd, "'%s' is not a hex address", arg[0]);
    if (r == -2)
        return cohkit_trace_fail(rd, "address '%s' exceeds %u bits", arg[0], c->addr_bits);
    for (int k = 1; k < nwant; k++) {
        uint64_t v;
        const char *what = k == 1 ? "wts" : "rts";
        r = parse_dec(arg[k], tsmax, &v);
        if (r == -1)
            return cohkit_trace_fail(rd, "%s '%s' is not a decimal number", what, arg[k]);
        if (r == -2)
            return cohkit_trace_fail(rd, "%s '%s' exceeds %u (--ts-bits %u)", what, arg[k], tsmax,
                                     c->ts_bits);
        if (k == 1)
            rec->wts = (uint32_t)v;
        else
            rec->rts = (uint32_t)v;
    }
    return 0;
}

static int parse_rec(cohkit_trace_reader *rd, const void *ctx, void *recp)
{
    static const char *const op_name[] = {"RD", "WR", "EV", "INV"};
    static const unsigned op_code[] = {HALCONE_CACHE_OP_RD, HALCONE_CACHE_OP_WR,
                                       HALCONE_CACHE_OP_EV, HALCONE_CACHE_OP_INV};
    static const int op_args[] = {3, 3, 1, 0};
    const halcone_cache_cfg *c = ctx;
    uint32_t tsmax = (uint32_t)mask64(c->ts_bits);
    hc_rec *rec = recp;
    char *arg[4], *tok;
    int na = 0, nwant, have_cts = 0, k;
    rec->lineno = rd->lineno;
    for (k = 0; k < 4 && strcmp(rd->first, op_name[k]) != 0; k++)
        ;
    if (k == 4)
        return cohkit_trace_fail(rd, "unknown command '%s' (expected RD, WR, EV or INV)",
                                 rd->first);
    rec->op = op_code[k];
    nwant = op_args[k];
    while ((tok = cohkit_trace_arg(rd)) != NULL) {
        if (strncmp(tok, "cts=", 4) == 0 && nwant == 3 && na == 3 && !have_cts) {
            uint64_t v;
            if (parse_dec(tok + 4, tsmax, &v) != 0)
                return cohkit_trace_fail(rd, "cts '%s' is not a decimal number 0..%u", tok + 4,
                                         tsmax);
            rec->cts = (uint32_t)v;
            have_cts = 1;
            continue;
        }
        if (na >= nwant)
            return cohkit_trace_fail(rd, "extra field '%s'", tok);
        arg[na++] = tok;
    }
    if (na < nwant)
        return cohkit_trace_fail(rd, "%s needs %s", op_name[k],
                                 nwant == 1 ? "<addr>" : "<addr> <wts> <rts>");
    return nwant >= 1 ? parse_args(rd, c, arg, nwant, rec) : 0;
}

COHKIT_TRACE_READ_FN(trace_read, halcone_cache_cfg, hc_trace, parse_rec)

static void print_victim(FILE *f, uint64_t line, uint32_t wts, uint32_t rts)
{
    fprintf(f, "VICTIM 0x%llx %u %u\n", (unsigned long long)line, wts, rts);
}

/* The output line of a response (kind, line, cts, wts, rts, count). */
static void print_rsp(FILE *f, unsigned kind, uint64_t line, uint32_t cts, uint32_t wts,
                      uint32_t rts, uint64_t count)
{
    if (kind <= HALCONE_CACHE_RSP_WEXP)
        fprintf(f, "%s 0x%llx %u %u %u\n", halcone_cache_rsp_str((halcone_cache_rsp_kind)kind),
                (unsigned long long)line, cts, wts, rts);
    else if (kind == HALCONE_CACHE_RSP_EVICTED)
        fprintf(f, "EVICTED 0x%llx %u %u\n", (unsigned long long)line, wts, rts);
    else if (kind == HALCONE_CACHE_RSP_ABSENT)
        fprintf(f, "ABSENT 0x%llx\n", (unsigned long long)line);
    else
        fprintf(f, "INVALIDATED %llu\n", (unsigned long long)count);
}

static void print_dump(FILE *f, const halcone_cache *c)
{
    const halcone_cache_cfg *cfg = halcone_cache_cfg_of(c);
    unsigned s, w;
    for (s = 0; s < cfg->sets; s++)
        for (w = 0; w < cfg->ways; w++) {
            halcone_cache_blk b;
            halcone_cache_block(c, s, w, &b);
            if (b.valid)
                fprintf(f, "BLOCK %u %u 0x%llx %u %u\n", s, w, (unsigned long long)b.line, b.wts,
                        b.rts);
        }
    fprintf(f, "REG cts %u\n", halcone_cache_cts(c));
}

static void print_stats(FILE *f, const halcone_cache *c)
{
    const halcone_cache_stats *st = halcone_cache_stats_of(c);
    fprintf(f, "# reads hit %llu miss %llu exp %llu  writes hit %llu miss %llu exp %llu\n",
            (unsigned long long)st->rd[0], (unsigned long long)st->rd[1],
            (unsigned long long)st->rd[2], (unsigned long long)st->wr[0],
            (unsigned long long)st->wr[1], (unsigned long long)st->wr[2]);
    fprintf(f, "# victims %llu evicted %llu absent %llu invalidates %llu wraps %llu cts %u\n",
            (unsigned long long)st->victims, (unsigned long long)st->evicted,
            (unsigned long long)st->absent, (unsigned long long)st->invalidates,
            (unsigned long long)st->wraps, halcone_cache_cts(c));
}

/* -------------------------------------------------------------- stimulus */

enum { FLAG_DUMP = 0, FLAG_STATS = 1 };
static const cohkit_unit_flag flags[] = {
    {"dump", NULL, "after the trace: BLOCK <set> <way> <line> <wts> <rts> per valid block, "
                   "then REG cts <v>"},
    {"stats", NULL, "after the trace: '# reads ...' and '# victims ...' summary lines"},
    {NULL, NULL, NULL},
};

enum { KIND_MIXED, KIND_HITS, KIND_FULL, KIND_TRACE };

#define OUTST_MAX 16

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    halcone_cache_cfg c;
    halcone_cache_geom g;
    unsigned o_ev, has_ev_ready, i_cts;
    unsigned p_fill;
    /* request being presented */
    int have;
    unsigned op;
    uint64_t addr;
    uint32_t cts;            /* req_cts_i of the request presented */
    uint64_t req_first;
    /* fill being presented */
    int fhave;
    unsigned fid;
    uint32_t fwts, frts;
    /* outstanding requests below (dn handshakes not yet filled) */
    unsigned on, oid[OUTST_MAX];
    uint32_t ownts;          /* stimulus's rising "memory" time */
    /* trace mode */
    hc_trace tr;
    size_t next;
    int busy;                /* a command is in flight               */
    int rsp_seen;            /* its response was presented           */
    int ev_printed;          /* the presented victim was printed     */
    uint64_t acc_cyc, gap_until;
    const char *const *fl;
    halcone_cache *ref;      /* trace mode: the --dump/--stats state */
    /* measured */
    uint64_t accepted, fills, rsps, dns, evs, valid_cycles, b2b;
    uint64_t last_acc;
    uint64_t hit_lat_min, hit_lat_max, hit_lat_n, kinds[9];
    uint64_t p1_hits, p1_bad, p2_bad;
    uint32_t last_cts;
} hc_stim;

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    hc_stim *s = p;
    s->c = *(const halcone_cache_cfg *)cfg;
    halcone_cache_geom_of(&s->c, &s->g);
    s->o_ev = HALCONE_CACHE_O_DN_ID + 1 + (unsigned)s->g.req_cts;
    s->has_ev_ready = s->c.role == HALCONE_CACHE_ROLE_L2;
    s->i_cts = HALCONE_CACHE_I_EV_READY + s->has_ev_ready;
    s->p_fill = 60;
    s->hit_lat_min = ~0ull;
    s->fl = a->flags;
    if (s->b.kind == KIND_FULL)
        s->b.bp.ready = 30;
    if (s->b.trace)
        s->b.bp.valid = 80;
    if (s->b.trace && trace_read(a->trace, &s->c, &s->tr, err, len) != 0)
        return cohkit_unit_stim_trace_err(a, err, len);
    return 0;
}

static void stim_free(void *p)
{
    hc_stim *s = p;
    if (s) {
        free(s->tr.r);
        free(s);
    }
}

COHKIT_UNIT_STIM_NEW(hc_stim, 0x5bd1e995ull)

/* A random address: a few sets and a few more tags than ways, so that hits,
 * expirations, victims, locks and back-to-back same-set requests are common;
 * now and then anywhere, or at the top of the address space. */
static uint64_t rand_addr(hc_stim *s)
{
    const halcone_cache_geom *g = &s->g;
    uint64_t am = mask64(s->c.addr_bits), set, tag;
    unsigned r = cohkit_unit_pct(&s->b.rng);
    if (s->b.kind == KIND_HITS)
        r = 99;
    if (r < 5)
        return cohkit_unit_rnd(&s->b.rng) & am;
    if (r < 8)
        return (am - cohkit_unit_rnd(&s->b.rng) % (4ull * s->c.line)) & am;
    set = cohkit_unit_rnd(&s->b.rng) % (s->c.sets < 4 ? s->c.sets : 4);
    tag = cohkit_unit_rnd(&s->b.rng) % (s->b.kind == KIND_HITS ? s->c.ways : s->c.ways + 2);
    return (((tag << g->set_bits) | set) << g->off_bits | (cohkit_unit_rnd(&s->b.rng) & (s->c.line - 1))) & am;
}

static void rand_req(hc_stim *s)
{
    unsigned r = cohkit_unit_pct(&s->b.rng);
    if (s->b.kind == KIND_HITS)
        s->op = HALCONE_CACHE_OP_RD;
    else if (r < 55)
        s->op = HALCONE_CACHE_OP_RD;
    else if (r < 85)
        s->op = HALCONE_CACHE_OP_WR;
    else if (r < 99)
        s->op = HALCONE_CACHE_OP_EV;
    else
        s->op = HALCONE_CACHE_OP_INV;
    s->addr = rand_addr(s);
    /* the requester's cts (--l1-req-cts): mostly at or below the rising
     * memory time, now and then ahead of it (an L1 that advanced through
     * another bank), now and then near the top of the range */
    {
        unsigned k = cohkit_unit_pct(&s->b.rng);
        uint32_t m = s->g.ts_max;
        if (s->b.kind == KIND_HITS || k < 40)
            s->cts = 0;
        else if (k < 75)
            s->cts = (s->ownts - (uint32_t)(cohkit_unit_rnd(&s->b.rng) % 8)) & m;
        else if (k < 95)
            s->cts = (s->ownts + (uint32_t)(cohkit_unit_rnd(&s->b.rng) % 16)) & m;
        else
            s->cts = m - (uint32_t)(cohkit_unit_rnd(&s->b.rng) % 3);
    }
}

/* Timestamps of a fill: around a rising memory time, short or long leases,
 * sometimes an empty or inverted lease, sometimes near the top of the range
 * (the wts + 1 wrap of the paper rules). */
static void rand_fill_ts(hc_stim *s)
{
    uint32_t m = s->g.ts_max, w, r;
    unsigned k = cohkit_unit_pct(&s->b.rng);
    if (s->b.kind == KIND_HITS) {
        /* leases to the end of time: every later read of the block hits */
        s->fwts = 0;
        s->frts = m;
        return;
    }
    if (cohkit_unit_pct(&s->b.rng) < 30)
        s->ownts += (uint32_t)(cohkit_unit_rnd(&s->b.rng) % 4);
    w = (s->ownts + (uint32_t)(cohkit_unit_rnd(&s->b.rng) % 3)) & m;
    if (k < 70)
        r = w + 1 + (uint32_t)(cohkit_unit_rnd(&s->b.rng) % 12);
    else if (k < 80)
        r = w;
    else if (k < 90)
        r = w - (uint32_t)(cohkit_unit_rnd(&s->b.rng) % 3);
    else {
        w = m - (uint32_t)(cohkit_unit_rnd(&s->b.rng) % 2);
        r = m - (uint32_t)(cohkit_unit_rnd(&s->b.rng) % 3);
    }
    s->fwts = w & m;
    s->frts = r & m;
}

static const unsigned sched_valid[] = {100, 80, 50, 20}, sched_ready[] = {100, 70, 30, 100};
static const cohkit_unit_bp_sched sched = COHKIT_UNIT_BP_SCHED(sched_valid, sched_ready);

static void stim_drive(void *p, uint64_t cyc, uint64_t *in)
{
    hc_stim *s = p;
    int live = (int)(in[0] & 1);
    unsigned rdy;
    if (s->b.kind == KIND_MIXED && (cyc & 511) == 0) {
        static const unsigned pf[] = {90, 60, 20, 100};
        cohkit_unit_bp_draw(&sched, &s->b.rng, &s->b.bp);
        s->p_fill = pf[cohkit_unit_rnd(&s->b.rng) % 4];
    }
    if (live && !s->have) {
        if (s->b.kind == KIND_TRACE) {
            if (!s->busy && s->next < s->tr.n && cyc >= s->gap_until &&
                cohkit_unit_pct(&s->b.rng) < s->b.bp.valid) {
                const hc_rec *r = &s->tr.r[s->next];
                s->have = 1;
                s->busy = 1;
                s->op = r->op;
                s->addr = r->addr;
                s->cts = r->cts;
                s->req_first = cyc;
            }
        } else if (cohkit_unit_pct(&s->b.rng) < s->b.bp.valid) {
            rand_req(s);
            s->have = 1;
            s->req_first = cyc;
        }
    }
    if (live && !s->fhave && (s->b.kind == KIND_MIXED || s->b.kind == KIND_FULL) && cohkit_unit_pct(&s->b.rng) < 2) {
        /* now and then a fill naming any id: an entry not in use (or being
         * allocated in this very cycle) must be dropped, one in use filled */
        s->fhave = 1;
        s->fid = (unsigned)(cohkit_unit_rnd(&s->b.rng) & mask64(s->g.id_bits));
        rand_fill_ts(s);
    }
    if (live && !s->fhave && s->on > 0 && cohkit_unit_pct(&s->b.rng) < s->p_fill) {
        unsigned k = (unsigned)(cohkit_unit_rnd(&s->b.rng) % s->on);
        s->fhave = 1;
        s->fid = s->oid[k];
        if (s->b.kind == KIND_TRACE) {
            const hc_rec *r = &s->tr.r[s->next];
            s->fwts = r->wts;
            s->frts = r->rts;
        } else {
            rand_fill_ts(s);
        }
    }
    /* inputs after rst_ni: ten, nine in the L1 role (no ev_ready_i), then
     * req_cts_i with --l1-req-cts */
    memset(in + 1, 0, (s->i_cts - 1 + (unsigned)s->g.l1_req_cts) * sizeof *in);
    in[HALCONE_CACHE_I_REQ_VALID] = (uint64_t)s->have;
    if (s->have) {
        in[HALCONE_CACHE_I_REQ_OP] = s->op;
        in[HALCONE_CACHE_I_REQ_ADDR] = s->addr;
        if (s->g.l1_req_cts)
            in[s->i_cts] = s->cts;
    } else if (s->b.kind != KIND_TRACE && cohkit_unit_pct(&s->b.rng) < 50) {
        in[HALCONE_CACHE_I_REQ_OP] = cohkit_unit_rnd(&s->b.rng) & 3;
        in[HALCONE_CACHE_I_REQ_ADDR] = cohkit_unit_rnd(&s->b.rng) & mask64(s->c.addr_bits);
        if (s->g.l1_req_cts)
            in[s->i_cts] = cohkit_unit_rnd(&s->b.rng) & s->g.ts_max;
    }
    in[HALCONE_CACHE_I_FILL_VALID] = (uint64_t)s->fhave;
    if (s->fhave) {
        in[HALCONE_CACHE_I_FILL_ID] = s->fid;
        in[HALCONE_CACHE_I_FILL_WTS] = s->fwts;
        in[HALCONE_CACHE_I_FILL_RTS] = s->frts;
    } else if (s->b.kind != KIND_TRACE && cohkit_unit_pct(&s->b.rng) < 50) {
        in[HALCONE_CACHE_I_FILL_ID] = cohkit_unit_rnd(&s->b.rng) & mask64(s->g.id_bits);
        in[HALCONE_CACHE_I_FILL_WTS] = cohkit_unit_rnd(&s->b.rng) & s->g.ts_max;
        in[HALCONE_CACHE_I_FILL_RTS] = cohkit_unit_rnd(&s->b.rng) & s->g.ts_max;
    }
    rdy = s->b.bp.ready;
    in[HALCONE_CACHE_I_RSP_READY] = cohkit_unit_pct(&s->b.rng) < rdy;
    in[HALCONE_CACHE_I_DN_READY] = cohkit_unit_pct(&s->b.rng) < rdy;
    if (s->has_ev_ready)
        in[HALCONE_CACHE_I_EV_READY] = cohkit_unit_pct(&s->b.rng) < rdy;
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *in, const uint64_t *out)
{
    hc_stim *s = p;
    if (s->have)
        s->valid_cycles++;
    if (s->have && (out[HALCONE_CACHE_O_REQ_READY] & 1)) {
        s->accepted++;
        if (s->accepted > 1 && s->last_acc + 1 == cyc)
            s->b2b++;
        s->last_acc = cyc;
        s->acc_cyc = cyc;
        s->have = 0;
    }
    if (s->fhave && (out[HALCONE_CACHE_O_FILL_READY] & 1)) {
        unsigned k;
        s->fills++;
        for (k = 0; k < s->on; k++)
            if (s->oid[k] == s->fid) {
                s->oid[k] = s->oid[--s->on];
                break;
            }
        s->fhave = 0;
    }
    if ((out[HALCONE_CACHE_O_DN_VALID] & 1) && (in[HALCONE_CACHE_I_DN_READY] & 1)) {
        s->dns++;
        if (s->on < OUTST_MAX)
            s->oid[s->on++] = (unsigned)out[HALCONE_CACHE_O_DN_ID];
    }
    if (out[s->o_ev] & 1) {
        /* printed when the victim is presented: its notice may wait for
         * ev_ready_i beyond the answer of its own access */
        if (s->b.out && !s->ev_printed)
            print_victim(s->b.out, out[s->o_ev + 1], (uint32_t)out[s->o_ev + 2],
                         (uint32_t)out[s->o_ev + 3]);
        s->ev_printed = 1;
        if (!s->has_ev_ready || (in[HALCONE_CACHE_I_EV_READY] & 1)) {
            s->evs++;
            s->ev_printed = 0;
        }
    }
    if (s->b.kind == KIND_TRACE && s->busy && !s->have && !s->rsp_seen && (out[HALCONE_CACHE_O_RSP_VALID] & 1)) {
        /* the response's first cycle: latency from the request handshake */
        s->rsp_seen = 1;
        if (out[HALCONE_CACHE_O_RSP_KIND] == HALCONE_CACHE_RSP_RHIT) {
            uint64_t lat = cyc - s->acc_cyc;
            if (lat < s->hit_lat_min)
                s->hit_lat_min = lat;
            if (lat > s->hit_lat_max)
                s->hit_lat_max = lat;
            s->hit_lat_n++;
        }
    }
    if ((out[HALCONE_CACHE_O_RSP_VALID] & 1) && (in[HALCONE_CACHE_I_RSP_READY] & 1)) {
        unsigned kind = (unsigned)out[HALCONE_CACHE_O_RSP_KIND];
        uint32_t cts = (uint32_t)out[HALCONE_CACHE_O_RSP_CTS];
        s->rsps++;
        /* P1: on a hit wts <= cts <= rts; P2: cts never decreases except at
         * the flash invalidate (responses leave in lookup order) */
        if (kind == HALCONE_CACHE_RSP_RHIT) {
            s->p1_hits++;
            if (!((uint32_t)out[HALCONE_CACHE_O_RSP_WTS] <= cts && cts <= (uint32_t)out[HALCONE_CACHE_O_RSP_RTS]))
                s->p1_bad++;
        }
        if (kind == HALCONE_CACHE_RSP_INVALIDATED)
            s->last_cts = 0;
        else if (cts < s->last_cts)
            s->p2_bad++;
        else
            s->last_cts = cts;
        if (kind < 9)
            s->kinds[kind]++;
        if (s->b.out)
            print_rsp(s->b.out, kind, out[HALCONE_CACHE_O_RSP_LINE], (uint32_t)out[HALCONE_CACHE_O_RSP_CTS],
                      (uint32_t)out[HALCONE_CACHE_O_RSP_WTS], (uint32_t)out[HALCONE_CACHE_O_RSP_RTS], out[HALCONE_CACHE_O_RSP_COUNT]);
        if (s->b.kind == KIND_TRACE) {
            s->busy = 0;
            s->rsp_seen = 0;
            s->next++;
            s->gap_until = cyc + 1 + cohkit_unit_rnd(&s->b.rng) % 3;
        }
    }
}

static int stim_drained(const void *p, const void *tm)
{
    const hc_stim *s = p;
    (void)tm;
    return s->next == s->tr.n && !s->busy;
}

static uint64_t stim_limit(const void *p)
{
    const hc_stim *s = p;
    return 200 + (uint64_t)s->c.sets + (uint64_t)(s->tr.n + 1) * 64;
}

static void stim_summary(const void *p, const void *tm, uint64_t cycles, FILE *f, const char *c)
{
    const hc_stim *s = p;
    const halcone_cache_stats *st = halcone_cache_stats_of(halcone_cache_tm_core(tm));
    fprintf(f, "%scycles %llu  requests %llu (back-to-back %llu)  fills %llu  responses %llu"
               "  requests below %llu  victims %llu\n",
            c, (unsigned long long)cycles, (unsigned long long)s->accepted,
            (unsigned long long)s->b2b, (unsigned long long)s->fills, (unsigned long long)s->rsps,
            (unsigned long long)s->dns, (unsigned long long)s->evs);
    fprintf(f, "%sresponses RHIT %llu RMISS %llu REXP %llu WHIT %llu WMISS %llu WEXP %llu"
               " EVICTED %llu ABSENT %llu INVALIDATED %llu  wraps %llu\n",
            c, (unsigned long long)s->kinds[0], (unsigned long long)s->kinds[1],
            (unsigned long long)s->kinds[2], (unsigned long long)s->kinds[3],
            (unsigned long long)s->kinds[4], (unsigned long long)s->kinds[5],
            (unsigned long long)s->kinds[6], (unsigned long long)s->kinds[7],
            (unsigned long long)s->kinds[8], (unsigned long long)st->wraps);
    fprintf(f, "%sinvariants: hits %llu, wts <= cts <= rts violated %llu; cts decreases %llu\n", c,
            (unsigned long long)s->p1_hits, (unsigned long long)s->p1_bad,
            (unsigned long long)s->p2_bad);
    fprintf(f, "%srequests accepted per cycle with a request presented %.3f\n", c,
            s->valid_cycles ? (double)s->accepted / (double)s->valid_cycles : 0.0);
    if (s->hit_lat_n)
        fprintf(f, "%sread-hit latency (request handshake to response valid) min %llu max %llu cycles over %llu\n",
                c, (unsigned long long)s->hit_lat_min, (unsigned long long)s->hit_lat_max,
                (unsigned long long)s->hit_lat_n);
}

static void stim_summary_tail(const hc_stim *s, const void *tm)
{
    const halcone_cache *core = halcone_cache_tm_core(tm);
    if (s->b.out && s->fl && s->fl[FLAG_DUMP])
        print_dump(s->b.out, core);
    if (s->b.out && s->fl && s->fl[FLAG_STATS])
        print_stats(s->b.out, core);
}

static int stim_done(const void *p, const void *tm)
{
    hc_stim *s = (hc_stim *)p;
    int d = stim_drained(p, tm);
    if (d && s->b.kind == KIND_TRACE && s->b.out) {
        stim_summary_tail(s, tm);
        s->b.out = NULL; /* printed once */
    }
    return d;
}

/* ------------------------------------------------------------ trace tool */

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    const halcone_cache_cfg *c = cfg;
    hc_trace t;
    char err[300];
    size_t i;
    halcone_cache *hc;
    if (trace_read(in, c, &t, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    hc = halcone_cache_new(c);
    if (hc == NULL) {
        free(t.r);
        fprintf(errf, "cohmodel: out of memory\n");
        return 2;
    }
    for (i = 0; i < t.n; i++) {
        const hc_rec *r = &t.r[i];
        halcone_cache_result res;
        /* --l1-req-cts: a RD/WR's cts=, before its lookup (RTL: req_cts_i) */
        if (halcone_cache_geom_get(hc)->l1_req_cts &&
            (r->op == HALCONE_CACHE_OP_RD || r->op == HALCONE_CACHE_OP_WR))
            halcone_cache_advance(hc, r->cts);
        halcone_cache_access(hc, (halcone_cache_op)r->op, r->addr, r->wts, r->rts, &res);
        if (res.victim)
            print_victim(out, res.victim_line, res.victim_wts, res.victim_rts);
        print_rsp(out, res.kind, res.line, res.cts, res.wts, res.rts, res.count);
    }
    if (fl && fl[FLAG_DUMP])
        print_dump(out, hc);
    if (fl && fl[FLAG_STATS])
        print_stats(out, hc);
    halcone_cache_free(hc);
    free(t.r);
    return 0;
}

const cohkit_unit_desc halcone_cache_unit = {
    .name = "halcone-cache",
    .family = "halcone",
    .title = "HALCONE L1/L2 cache timestamp unit: tags, wts/rts, cts, LRU, hit/miss/expired, "
             "fill rule, write lock, eviction notice, flash invalidate (Mojumder et al., "
             "3.2.1-3.2.2, Alg. 1, 2, 4, 5)",
    .model_ref = "cmodel/halcone/halcone_cache.c halcone_cache_tm_eval() / _tm_step() (timing), "
                 "halcone_cache_request() / _fill() / _evict() / _invalidate() (function)",
    .cfg_size = sizeof(halcone_cache_cfg),
    .presets = presets,
    .committed = committed,
    .module_prefix = "halcone_cache",
    .opts = &halcone_cache_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "RD <addr> <wts> <rts> [cts=<c>] | WR <addr> <wts> <rts> [cts=<c>] | EV <addr> |\n"
                  "INV (spec 7.3; cts= is used with --l1-req-cts on);\n"
                  "output: [VICTIM <line> <wts> <rts>] RHIT|RMISS|REXP|WHIT|WMISS|WEXP <line> <cts>\n"
                  "<wts> <rts>; EVICTED <line> <wts> <rts> | ABSENT <line>; INVALIDATED <n>",
    COHKIT_UNIT_STIM_FIELDS,
};
