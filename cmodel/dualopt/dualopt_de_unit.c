/*
 * The DualOpt decision engine as a registry unit (cmodel/unit.h): port table,
 * timing-shell adapters, the constrained-random and trace stimulus sources of
 * the lockstep bench, and the trace tool (`cohmodel dualopt-de`). The model
 * itself is cmodel/dualopt/dualopt_de.c.
 */
#include <stdlib.h>
#include <string.h>

#include "dualopt_de.h"
#include "dualopt_de_trace.h"
#include "bits.h"
#include "unit_adapt.h"

static const char *const presets[] = {"default", "fpga", "gran8", "gran16", "kernel", "tiny", NULL};
static const char *const streams[] = {"mixed", "steady", "edge", NULL};

COHKIT_UNIT_PORTS_BEGIN(dualopt_de_cfg, dualopt_de_geom, dualopt_de_geom_of, c)
#include "dualopt_de_ports.def"
COHKIT_UNIT_PORTS_END

COHKIT_UNIT_ADAPTERS(dualopt_de, dualopt_de_cfg, dualopt_de_tm, dualopt_de_in, dualopt_de_out, dualopt_de_tm_new, dualopt_de_tm_free,
                 dualopt_de_tm_reset, dualopt_de_eval, dualopt_de_step)

/* -------------------------------------------------------------- stimulus */

enum { FLAG_STATS = 0 };
static const cohkit_unit_flag flags[] = {
    {"stats", NULL, "cohmodel: '#' statistics lines after the trace output"},
    {NULL, NULL, NULL},
};

enum { KIND_MIXED, KIND_STEADY, KIND_EDGE, KIND_TRACE };

/* The edge stream: windows whose counters land exactly on (or one off) a
 * threshold of the decision (docs/dualopt.md). Each window is a reset, an
 * idle gap, the warm-up accesses, then a planned mix of accesses in random
 * order whose last access is the window-th remote one. */
enum { ED_RESTART, ED_GAP, ED_WARM, ED_WIN, ED_WAIT };

typedef struct {
    uint64_t loc, rr_hit, rr_miss, rw_hit, rw_miss; /* accesses still to draw   */
    uint64_t words, reads;       /* words still to spread over the remote reads */
    unsigned last_kind, last_hit;/* the closing remote access                   */
    int last_left;
} de_plan;

/* A traffic profile of one monitoring epoch (random streams). */
typedef struct {
    unsigned remote_pm;  /* remote accesses, per mille */
    unsigned read_pct;   /* reads among remote accesses */
    unsigned pop_max;    /* mask popcount uniform in 1..pop_max */
    unsigned hit_pct;    /* L1 tag hits */
} profile;

typedef struct {
    cohkit_unit_stim_base b; /* first: cohkit_unit_stim_alloc() */
    dualopt_de_cfg c;
    dualopt_de_geom g;
    unsigned p_valid;
    profile pr;
    int have;                 /* an access is waiting for its handshake */
    unsigned q_kind, q_hit;
    uint64_t q_mask;
    uint64_t next_restart, next_kernel; /* random streams: event cycles */
    dualopt_de_trec *trace;
    size_t ntrace, tnext;
    uint64_t last_event;      /* cycle of the last record driven        */
    uint64_t acc_at[8];       /* access index handshaken in cycle & 7   */
    uint64_t accesses, kernels, restarts, decisions, by_mode[4];
    int finished;
    int ed_state;             /* edge stream: ED_*                      */
    uint64_t ed_count, ed_at; /* gap / warm-up count; cycle of the last access */
    int ed_decided;
    de_plan plan;
    uint64_t ed_windows[4];   /* windows planned: block, hit, both, ratio edge */
    uint64_t equal[3];        /* decisions whose ratio, block, hit products were equal */
    uint64_t ed_cancel;       /* resets driven with a closing access    */
} de_stim;

static uint64_t maskw(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* Profiles straddle every threshold of the paper's configuration: remote
 * ratio around 2 %, utilisation around 0.2, hit rate around 0.4. */
static void new_profile(de_stim *s)
{
    static const unsigned rm[] = {0, 10, 19, 20, 21, 60, 300, 900, 1000};
    static const unsigned rd[] = {0, 50, 90, 100};
    static const unsigned hp[] = {0, 30, 39, 40, 41, 60, 95};
    unsigned pm[] = {1, 2, 3, 4, 6, s->c.words};
    s->pr.remote_pm = rm[cohkit_unit_rnd(&s->b.rng) % 9];
    s->pr.read_pct = rd[cohkit_unit_rnd(&s->b.rng) % 4];
    s->pr.pop_max = pm[cohkit_unit_rnd(&s->b.rng) % 6];
    if (s->pr.pop_max > s->c.words)
        s->pr.pop_max = s->c.words;
    s->pr.hit_pct = hp[cohkit_unit_rnd(&s->b.rng) % 7];
}

/* Cycle of the next random reset: epochs on the scale of the access bound
 * (local-dominated windows can close) or of the window (they cannot). */
static uint64_t epoch(de_stim *s, uint64_t cyc)
{
    uint64_t span = cohkit_unit_rnd(&s->b.rng) & 1 ? 2 * s->g.cap : 12ull * s->c.window;
    return cyc + 200 + cohkit_unit_rnd(&s->b.rng) % (span + 2000);
}

static void new_steady(de_stim *s)
{
    s->pr.remote_pm = 1000;
    s->pr.read_pct = 100;
}

static void rand_access(de_stim *s);

/* a random multiple of m in 1..w (w itself when no multiple fits) */
static uint64_t multiple_in(de_stim *s, uint64_t m, uint64_t w)
{
    if (m == 0 || m > w)
        return w;
    return m * (1 + cohkit_unit_rnd(&s->b.rng) % (w / m));
}

static uint64_t clamp64(int64_t v, uint64_t hi) { return v < 0 ? 0 : (uint64_t)v > hi ? hi : (uint64_t)v; }

/* The largest x with x * den < num * n (0 when none). */
static uint64_t below(uint64_t num, uint64_t den, uint64_t n)
{
    uint64_t p = num * n;
    return p == 0 ? 0 : (p - 1) / den;
}

/* Plans the next edge window: reads and remote writes summing to the window
 * (closing on its last, remote, access), and locals; the remote reads' words
 * and the hits are set so that the block-utilisation test, the hit-rate test
 * or both compare equal products (or one off), the other test passing; or,
 * where the bound is exactly window / remote-thresh, the window closes on
 * both limits at once: remote * den == num * total. */
static void plan_edge(de_stim *s)
{
    const dualopt_de_cfg *c = &s->c;
    de_plan *p = &s->plan;
    uint64_t w = c->window, cap = s->g.cap, bmul = (uint64_t)c->block_th.num * c->words;
    uint64_t bstep = c->block_th.den / cohkit_gcd64(c->block_th.den, bmul ? bmul : c->block_th.den);
    uint64_t hstep = c->hit_th.den / cohkit_gcd64(c->hit_th.den, c->hit_th.num ? c->hit_th.num : c->hit_th.den);
    uint64_t nr, nw, nl, base, words, hits, hr, hw, elig;
    int64_t d = (int64_t)(cohkit_unit_rnd(&s->b.rng) % 4) - 1; /* -1, 0, 0, +1 */
    unsigned cs = (unsigned)(cohkit_unit_rnd(&s->b.rng) % 20); /* ratio windows are long: 1 in 20 */
    cs = cs == 19 ? 3 : cs % 3;
    if (d == 2)
        d = 0;
    if (cs == 3 && !(cap <= 200000 && (uint64_t)c->remote_th.num * cap == w * c->remote_th.den))
        cs = (unsigned)(cohkit_unit_rnd(&s->b.rng) % 3);
    s->ed_windows[cs]++;
    if (cs == 0)
        nr = multiple_in(s, bstep, w);
    else if (cs == 1 && !c->hit_all)
        nr = multiple_in(s, hstep, w);
    else if (cs == 2 && !c->hit_all)
        nr = multiple_in(s, bstep / cohkit_gcd64(bstep, hstep) * hstep, w);
    else
        nr = w - cohkit_unit_rnd(&s->b.rng) % (w < 8 ? w : 8) * (cohkit_unit_rnd(&s->b.rng) & 1);
    nw = w - nr;
    if (cs == 3)
        nl = cap - w;
    else if (cap > w + 1)
        nl = cohkit_unit_rnd(&s->b.rng) % ((cap - w - 1 < 2 * w ? cap - w - 1 : 2 * w) + 1);
    else
        nl = 0;
    base = c->hit_all ? w : nr;
    elig = c->hit_all ? w : nr;
    /* words: at the block edge (cases 0, 2), else just below it (or random) */
    if (cs == 0 || cs == 2)
        words = clamp64((int64_t)(bmul * nr / c->block_th.den) + d, c->words * nr);
    else if (cs == 1) {
        words = below(bmul, c->block_th.den, nr);
        words -= words ? cohkit_unit_rnd(&s->b.rng) % 2 : 0;
    } else
        words = nr ? cohkit_unit_rnd(&s->b.rng) % (c->words * nr + 1) : 0;
    if (words > c->words * nr)
        words = c->words * nr;
    if (cs == 1 || cs == 2)
        hits = clamp64((int64_t)((uint64_t)c->hit_th.num * base / c->hit_th.den) + (cs == 1 ? d : 0), elig);
    else if (cs == 0)
        hits = below(c->hit_th.num, c->hit_th.den, base);
    else
        hits = cohkit_unit_rnd(&s->b.rng) % (elig + 1);
    if (hits > elig)
        hits = elig;
    if (c->hit_all) {
        uint64_t lo = hits > nw ? hits - nw : 0, hi = hits < nr ? hits : nr;
        hr = lo + cohkit_unit_rnd(&s->b.rng) % (hi - lo + 1);
        hw = hits - hr;
    } else {
        hr = hits;
        hw = cohkit_unit_rnd(&s->b.rng) % (nw + 1);
    }
    p->loc = nl;
    p->rr_hit = hr;
    p->rr_miss = nr - hr;
    p->rw_hit = hw;
    p->rw_miss = nw - hw;
    p->words = words;
    p->reads = nr;
    /* the closing access: a remote write where there is one */
    p->last_left = 1;
    if (nw) {
        p->last_hit = p->rw_hit && (!p->rw_miss || cohkit_unit_rnd(&s->b.rng) & 1);
        p->last_kind = DUALOPT_DE_RW;
        *(p->last_hit ? &p->rw_hit : &p->rw_miss) -= 1;
    } else {
        p->last_hit = p->rr_hit && (!p->rr_miss || cohkit_unit_rnd(&s->b.rng) & 1);
        p->last_kind = DUALOPT_DE_RR;
        *(p->last_hit ? &p->rr_hit : &p->rr_miss) -= 1;
    }
}

static uint64_t pop_mask(de_stim *s, uint64_t pop)
{
    uint64_t m = 0, k;
    for (k = 0; k < pop; k++) {
        unsigned b = (unsigned)(cohkit_unit_rnd(&s->b.rng) % s->c.words);
        while (m >> b & 1)
            b = (b + 1) % s->c.words;
        m |= 1ull << b;
    }
    return m;
}

/* The next access of the plan: 2 for the closing one, 1 for another, 0
 * when the plan is used up. */
static int edge_access(de_stim *s)
{
    de_plan *p = &s->plan;
    uint64_t n = p->loc + p->rr_hit + p->rr_miss + p->rw_hit + p->rw_miss, r;
    unsigned kind, hit;
    int ret = n ? 1 : 2;
    if (n == 0) {
        if (!p->last_left)
            return 0;
        p->last_left = 0;
        kind = p->last_kind;
        hit = p->last_hit;
    } else {
        r = cohkit_unit_rnd(&s->b.rng) % n;
        if (r < p->loc) {
            p->loc--;
            kind = cohkit_unit_rnd(&s->b.rng) & 1 ? DUALOPT_DE_LW : DUALOPT_DE_LR;
            hit = cohkit_unit_rnd(&s->b.rng) & 1;
        } else if ((r -= p->loc) < p->rr_hit) {
            p->rr_hit--;
            kind = DUALOPT_DE_RR;
            hit = 1;
        } else if ((r -= p->rr_hit) < p->rr_miss) {
            p->rr_miss--;
            kind = DUALOPT_DE_RR;
            hit = 0;
        } else if ((r -= p->rr_miss) < p->rw_hit) {
            p->rw_hit--;
            kind = DUALOPT_DE_RW;
            hit = 1;
        } else {
            p->rw_miss--;
            kind = DUALOPT_DE_RW;
            hit = 0;
        }
    }
    s->q_kind = kind;
    s->q_hit = hit;
    if (kind == DUALOPT_DE_RR) { /* this read's words: the rest spread evenly, remainder at random */
        uint64_t q = p->words / p->reads, rem = p->words % p->reads;
        uint64_t pop = q + (cohkit_unit_rnd(&s->b.rng) % p->reads < rem);
        p->words -= pop;
        p->reads--;
        s->q_mask = pop_mask(s, pop);
    } else {
        s->q_mask = cohkit_unit_rnd(&s->b.rng) & maskw(s->c.words);
    }
    return ret;
}

/* The edge stream's schedule (stim_drive; never drives kernel_i). */
static void edge_drive(de_stim *s, uint64_t cyc, int out_of_reset, dualopt_de_in *in)
{
    int k;
    if (!out_of_reset || s->have)
        return;
    switch (s->ed_state) {
    case ED_RESTART:
        in->restart_i = 1;
        s->ed_state = ED_GAP;
        s->ed_count = 1 + cohkit_unit_rnd(&s->b.rng) % 3;
        return;
    case ED_GAP:
        if (--s->ed_count)
            return;
        plan_edge(s);
        s->ed_state = ED_WARM;
        s->ed_count = s->c.warmup;
        /* fall through */
    case ED_WARM:
        if (s->ed_count) {
            if (cohkit_unit_pct(&s->b.rng) < s->p_valid) {
                rand_access(s);
                s->ed_count--;
                s->have = 1;
            }
            return;
        }
        s->ed_state = ED_WIN;
        s->ed_decided = 0;
        /* fall through */
    case ED_WIN:
        if (cohkit_unit_pct(&s->b.rng) >= s->p_valid)
            return;
        k = edge_access(s);
        if (k) {
            s->have = 1;
            /* 1 window in 8: a reset in the cycle of the closing access,
             * which cancels the decision in the pipeline */
            if (k == 2 && cohkit_unit_rnd(&s->b.rng) % 8 == 0) {
                in->restart_i = 1;
                s->ed_cancel++;
            }
            return;
        }
        s->ed_state = ED_WAIT;
        s->ed_at = cyc;
        /* fall through */
    case ED_WAIT:
        /* the decision, a few cycles more; or give up after 64 cycles */
        if ((s->ed_decided && cyc >= s->ed_at + DUALOPT_DE_DECIDE_LATENCY + cohkit_unit_rnd(&s->b.rng) % 8) ||
            cyc >= s->ed_at + 64)
            s->ed_state = ED_RESTART;
        return;
    }
}

static int stim_init(void *p, const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    de_stim *s = p;
    s->c = *(const dualopt_de_cfg *)cfg;
    dualopt_de_geom_of(&s->c, &s->g);
    s->p_valid = s->b.kind == KIND_EDGE ? 50 + (unsigned)(a->seed % 6) * 10 : 100;
    if (s->b.trace && dualopt_de_trace_read(a->trace, &s->c, &s->trace, &s->ntrace, err, len) != 0)
        return cohkit_unit_stim_trace_err(a, err, len);
    new_profile(s);
    if (s->b.kind == KIND_STEADY) /* remote reads only: windows close back to back */
        new_steady(s);
    s->next_restart = s->b.kind == KIND_MIXED ? epoch(s, 0) : ~0ull;
    s->next_kernel = s->b.kind == KIND_MIXED ? 500 + cohkit_unit_rnd(&s->b.rng) % 20000 : ~0ull;
    return 0;
}

static void stim_free(void *p)
{
    de_stim *s = p;
    if (s) {
        free(s->trace);
        free(s);
    }
}

COHKIT_UNIT_STIM_NEW(de_stim, 0x5eedull)

static void rand_access(de_stim *s)
{
    unsigned remote = (unsigned)(cohkit_unit_rnd(&s->b.rng) % 1000) < s->pr.remote_pm;
    unsigned read = cohkit_unit_pct(&s->b.rng) < (remote ? s->pr.read_pct : 60);
    unsigned k, pop = 1 + (unsigned)(cohkit_unit_rnd(&s->b.rng) % s->pr.pop_max);
    uint64_t m = 0;
    s->q_kind = (remote ? 2u : 0u) | (read ? 0u : 1u);
    s->q_hit = cohkit_unit_pct(&s->b.rng) < s->pr.hit_pct;
    /* pop distinct random words (or an arbitrary mask now and then) */
    if (cohkit_unit_pct(&s->b.rng) < 3)
        m = cohkit_unit_rnd(&s->b.rng) & maskw(s->c.words);
    else
        for (k = 0; k < pop; k++) {
            unsigned w = (unsigned)(cohkit_unit_rnd(&s->b.rng) % s->c.words);
            while (m >> w & 1)
                w = (w + 1) % s->c.words;
            m |= 1ull << w;
        }
    s->q_mask = m;
}

static void stim_drive(void *p, uint64_t cyc, uint64_t *inw)
{
    de_stim *s = p;
    dualopt_de_in *in = (dualopt_de_in *)(void *)inw;
    int out_of_reset = (int)(inw[0] & 1);
    in->kernel_i = 0;
    in->restart_i = 0;
    if (s->b.kind == KIND_TRACE) {
        if (out_of_reset && !s->have && s->tnext < s->ntrace && cohkit_unit_pct(&s->b.rng) < COHKIT_UNIT_BP_TRACE.valid) {
            const dualopt_de_trec *t = &s->trace[s->tnext++];
            s->last_event = cyc;
            if (t->op == DUALOPT_DE_T_KERNEL)
                in->kernel_i = 1;
            else if (t->op == DUALOPT_DE_T_RESET)
                in->restart_i = 1;
            else {
                s->q_kind = t->op;
                s->q_hit = t->hit;
                s->q_mask = t->mask;
                s->have = 1;
            }
        }
    } else if (s->b.kind == KIND_EDGE) {
        edge_drive(s, cyc, out_of_reset, in);
    } else {
        if ((cyc & 2047) == 0 && s->b.kind == KIND_MIXED) {
            static const unsigned pv[] = {100, 90, 50, 20};
            s->p_valid = pv[cohkit_unit_rnd(&s->b.rng) % 4];
        }
        if (!s->have && cohkit_unit_pct(&s->b.rng) < s->p_valid) {
            rand_access(s);
            s->have = 1;
        }
        if (out_of_reset && cyc >= s->next_kernel) {
            in->kernel_i = 1;
            s->next_kernel = cyc + 1 + cohkit_unit_rnd(&s->b.rng) % 30000;
        }
        if (out_of_reset && cyc >= s->next_restart) {
            in->restart_i = 1;
            new_profile(s);
            if (s->b.kind == KIND_STEADY)
                new_steady(s);
            s->next_restart = s->b.kind == KIND_MIXED ? epoch(s, cyc) : ~0ull;
        }
    }
    in->acc_valid_i = (uint64_t)s->have;
    in->acc_kind_i = s->have ? s->q_kind : 0;
    in->acc_hit_i = s->have ? s->q_hit : 0;
    in->acc_mask_i = s->have ? s->q_mask : 0;
}

static void stim_observe(void *p, uint64_t cyc, const uint64_t *inw, const uint64_t *outw)
{
    de_stim *s = p;
    const dualopt_de_in *in = (const dualopt_de_in *)(const void *)inw;
    const dualopt_de_out *o = (const dualopt_de_out *)(const void *)outw;
    s->acc_at[cyc & 7] = 0;
    if (in->acc_valid_i && o->acc_ready_o) {
        s->accesses++;
        s->acc_at[cyc & 7] = s->accesses;
        s->have = 0;
        if (s->b.kind == KIND_TRACE)
            s->last_event = cyc;
    }
    s->kernels += in->kernel_i & 1;
    s->restarts += in->restart_i & 1;
    if (o->dec_valid_o) {
        dualopt_de_counts c = {o->dec_total_o, o->dec_remote_o, o->dec_reads_o, o->dec_words_o,
                       o->dec_hits_o};
        uint64_t base = s->c.hit_all ? c.remote : c.reads;
        s->decisions++;
        s->by_mode[o->dec_mode_o & 3]++;
        s->equal[0] += c.remote * s->c.remote_th.den == (uint64_t)s->c.remote_th.num * c.total;
        s->equal[1] += c.reads > 0 && c.words * s->c.block_th.den ==
                                          (uint64_t)s->c.block_th.num * s->c.words * c.reads;
        s->equal[2] += c.hits * s->c.hit_th.den == (uint64_t)s->c.hit_th.num * base;
        if (s->b.out)
            dualopt_de_trace_print_decide(s->b.out, s->acc_at[(cyc - DUALOPT_DE_DECIDE_LATENCY) & 7],
                                  (unsigned)o->dec_mode_o, &c);
        if (s->b.kind == KIND_EDGE)
            s->ed_decided = 1;
        else if (s->b.kind != KIND_TRACE) {
            /* after a decision: soon a reset (sometimes while the next
             * decision is still in the pipeline) and a new profile */
            static const uint64_t d[] = {0, 1, 2, 3, 50, 400, 3000};
            uint64_t t = cyc + 1 + d[cohkit_unit_rnd(&s->b.rng) % 7];
            if (t < s->next_restart)
                s->next_restart = t;
        }
    }
    if (s->b.kind == KIND_TRACE && !s->finished && s->tnext == s->ntrace && !s->have &&
        cyc >= s->last_event + DUALOPT_DE_DECIDE_LATENCY + 1) {
        if (o->mode_o == DUALOPT_DE_MONITOR && s->b.out) {
            dualopt_de_counts c = {o->cnt_total_o, o->cnt_remote_o, o->cnt_reads_o, o->cnt_words_o,
                           o->cnt_hits_o};
            dualopt_de_trace_print_undecided(s->b.out, &c);
        }
        s->finished = 1;
    }
}

static int stim_done(const void *p, const void *tm)
{
    (void)tm;
    return ((const de_stim *)p)->finished;
}

static uint64_t stim_limit(const void *p)
{
    const de_stim *s = p;
    return 64 + (s->ntrace + 1) * 8;
}

static void stim_note(const void *p, char *buf, size_t len)
{
    const de_stim *s = p;
    snprintf(buf, len, "  window %u, bound %llu", s->c.window, (unsigned long long)s->g.cap);
}

static void stim_summary(const void *p, const void *tm, uint64_t cycles, FILE *f, const char *l)
{
    const de_stim *s = p;
    (void)tm;
    fprintf(f, "%scycles %llu  accesses accepted %llu  (%.3f per cycle)\n", l,
            (unsigned long long)cycles, (unsigned long long)s->accesses,
            cycles ? (double)s->accesses / (double)cycles : 0.0);
    fprintf(f, "%sdecisions %llu (none %llu, coalesce %llu, cache %llu)  resets %llu  kernels %llu\n",
            l, (unsigned long long)s->decisions, (unsigned long long)s->by_mode[DUALOPT_DE_NONE],
            (unsigned long long)s->by_mode[DUALOPT_DE_COALESCE], (unsigned long long)s->by_mode[DUALOPT_DE_CACHE],
            (unsigned long long)s->restarts, (unsigned long long)s->kernels);
    if (s->b.kind == KIND_EDGE)
        fprintf(f, "%sedge windows: block %llu, hit %llu, both %llu, ratio %llu\n", l,
                (unsigned long long)s->ed_windows[0], (unsigned long long)s->ed_windows[1],
                (unsigned long long)s->ed_windows[2], (unsigned long long)s->ed_windows[3]);
    fprintf(f, "%sdecisions on an equal product: ratio %llu, block %llu, hit %llu; resets with the "
            "closing access %llu\n", l, (unsigned long long)s->equal[0],
            (unsigned long long)s->equal[1], (unsigned long long)s->equal[2],
            (unsigned long long)s->ed_cancel);
}

/* ------------------------------------------------------------ trace tool */

static int trace_run(const void *cfg, const char *const *fl, FILE *in, const char *in_name,
                     FILE *out, FILE *errf)
{
    dualopt_de_trec *t = NULL;
    size_t n = 0, i;
    char err[300];
    dualopt_de_core d;
    uint64_t idx = 0;
    if (dualopt_de_trace_read(in, cfg, &t, &n, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name ? in_name : "trace", err);
        return 2;
    }
    dualopt_de_core_init(&d, cfg);
    for (i = 0; i < n; i++) {
        if (t[i].op == DUALOPT_DE_T_KERNEL)
            dualopt_de_kernel(&d);
        else if (t[i].op == DUALOPT_DE_T_RESET)
            dualopt_de_core_restart(&d);
        else if (idx++, dualopt_de_access(&d, (dualopt_de_kind)t[i].op, t[i].hit, t[i].mask))
            dualopt_de_trace_print_decide(out, idx, d.mode, &d.dec);
    }
    if (d.phase != DUALOPT_DE_PH_DONE)
        dualopt_de_trace_print_undecided(out, &d.c);
    if (fl && fl[FLAG_STATS])
        fprintf(out, "# accesses %llu  decisions %llu  resets %llu  re-monitorings %llu  mode %s\n",
                (unsigned long long)d.accesses, (unsigned long long)d.decisions,
                (unsigned long long)d.restarts, (unsigned long long)d.rearms,
                dualopt_de_mode_str(d.mode));
    free(t);
    return 0;
}

const cohkit_unit_desc dualopt_de_unit = {
    .name = "dualopt-de",
    .family = "dualopt",
    .title = "DualOpt decision engine (Belayneh et al., 4.3, Fig. 10-12, Table 1)",
    .model_ref = "cmodel/dualopt/dualopt_de.c dualopt_de_eval() / dualopt_de_step() (timing), dualopt_de_access() (function)",
    .cfg_size = sizeof(dualopt_de_cfg),
    .presets = presets,
    .committed = presets,
    .module_prefix = "dualopt_de",
    .opts = &dualopt_de_opts,
    COHKIT_UNIT_CFG_FIELDS,
    .ports = u_ports,
    COHKIT_UNIT_TM_FIELDS,
    .flags = flags,
    .trace_help = "LR | LW | RR <hit 0|1> <hex mask> | RW [<hit>] | KERNEL | RESET, '#' comments;\n"
                  "output: 'DECIDE <n> NONE|COALESCE|CACHE <total> <remote> <reads> <words> <hits>'\n"
                  "when the window closes (n: 1-based access index), 'UNDECIDED <counters>' at the end",
    COHKIT_UNIT_STIM_FIELDS,
    .stim_note = stim_note,
};
