/*
 * The HALCONE cache timestamp unit at transaction level (halcone_cache_rtl.h):
 * the Verilated module and the timing shell driven with the same inputs and
 * compared on every output every cycle, or the shell alone.
 */
#define _POSIX_C_SOURCE 200809L
#include "halcone_cache_rtl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compose_rtl.h"
#include "lockstep.h"
#include "unit.h"

/* Port words (cmodel/halcone/halcone_cache_unit.c u_ports order). */
enum {
    I_RST, I_REQ_VALID, I_REQ_OP, I_REQ_ADDR, I_FILL_VALID, I_FILL_ID, I_FILL_WTS, I_FILL_RTS,
    I_RSP_READY, I_DN_READY, I_EV_READY
};
enum {
    O_REQ_READY, O_FILL_READY, O_RSP_VALID, O_RSP_KIND, O_RSP_LINE, O_RSP_CTS, O_RSP_WTS,
    O_RSP_RTS, O_RSP_COUNT, O_DN_VALID, O_DN_WRITE, O_DN_LINE, O_DN_ID
};

#define HCR_WORDS 32

struct halcone_cache_rtl {
    cmp_pair p;                /* the shell and, with a DUT, the RTL       */
    const dut_ops *tab[2];     /* the DUT as a table for the RTL backend   */
    cmp_rtl rtl;
    halcone_cache_cfg c;
    halcone_cache_geom g;
    unsigned n_in, n_out, i_cts, o_ev, l2;
    uint64_t in[HCR_WORDS];
    uint64_t rng;
    char err[320];
};

static uint64_t mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static halcone_cache_tm *shell_of(const halcone_cache_rtl *r) { return cmp_shell_state(&r->p.ref); }

/* One cycle with r->in: settle both, compare, clock both (the platform's
 * pair, cmodel/compose.h). *o: the unit's outputs (the DUT's, with a forced
 * output applied; the shell's without a DUT). */
static int cycle(halcone_cache_rtl *r, uint64_t *o)
{
    const uint64_t *out;
    memcpy(r->p.ref.in, r->in, r->n_in * sizeof *r->in);
    if (cmp_pair_cycle(&r->p, &out) != 0) {
        snprintf(r->err, sizeof r->err, "%s", r->p.err);
        return -1;
    }
    memcpy(o, out, r->n_out * sizeof *o);
    return 0;
}

static void idle_inputs(halcone_cache_rtl *r)
{
    memset(r->in, 0, sizeof r->in);
    r->in[I_RST] = 1;
    r->in[I_RSP_READY] = 1;
    r->in[I_DN_READY] = 1;
    if (r->l2)
        r->in[I_EV_READY] = 1;
}

/* Idle cycles until req_ready_o (the clearing sweep is over). */
static int settle(halcone_cache_rtl *r)
{
    uint64_t o[HCR_WORDS], limit = r->p.cycles + r->c.sets + 16;
    for (;;) {
        idle_inputs(r);
        if (r->p.cycles > limit) {
            snprintf(r->err, sizeof r->err, "req_ready_o low for %u cycles", r->c.sets + 16);
            return -1;
        }
        if (cycle(r, o) != 0)
            return -1;
        if (o[O_REQ_READY] & 1)
            return 0;
    }
}

/* The shell (and the DUT) of r->c, reset, swept. */
static int open_pair(halcone_cache_rtl *r, const dut_ops *d, char *err, size_t len)
{
    cmp_backend be;
    uint64_t o[HCR_WORDS];
    unsigned k;
    if (d) {
        r->tab[0] = d;
        cmp_rtl_init(&r->rtl, r->tab, "all");
        be = cmp_rtl_backend(&r->rtl);
    }
    if (cmp_pair_open(&r->p, "halcone-cache", &r->c, d ? d->module : "halcone-cache",
                      d ? d->module : "default", 1, d ? &be : NULL, err, len) != 0)
        return -1;
    if (r->p.ref.l.in_words != r->n_in || r->p.ref.l.out_words != r->n_out) {
        snprintf(err, len, "%s: port layout differs from the shell's", r->p.ref.name);
        return -1;
    }
    for (k = 0; k < LS_RESET_CYCLES; k++) {
        memset(r->in, 0, sizeof r->in);
        if (cycle(r, o) != 0)
            break;
    }
    if (k < LS_RESET_CYCLES || settle(r) != 0) {
        snprintf(err, len, "%s", r->err);
        return -1;
    }
    return 0;
}

halcone_cache_rtl *halcone_cache_rtl_new(const dut_ops *d, const halcone_cache_cfg *cfg,
                                         uint64_t seed, char *err, size_t len)
{
    const cohkit_unit_desc *u = cohkit_unit_find("halcone-cache");
    halcone_cache_rtl *r;
    if (u == NULL || (d && strcmp(d->unit, "halcone-cache") != 0) || (!d && !cfg) ||
        u->cfg_size != sizeof r->c) {
        snprintf(err, len, "not a halcone-cache DUT");
        return NULL;
    }
    r = calloc(1, sizeof *r);
    if (r == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    if (d ? ls_dut_cfg(u, d, &r->c, err, len) != 0 : (r->c = *cfg, 0)) {
        free(r);
        return NULL;
    }
    halcone_cache_geom_of(&r->c, &r->g);
    r->l2 = r->c.role == HALCONE_CACHE_ROLE_L2;
    r->i_cts = I_EV_READY + r->l2;
    r->n_in = r->i_cts + (unsigned)r->g.l1_req_cts;
    r->o_ev = O_DN_ID + 1 + (unsigned)r->g.req_cts;
    r->n_out = r->o_ev + 4;
    r->rng = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    if (open_pair(r, d, err, len) != 0) {
        halcone_cache_rtl_free(r);
        return NULL;
    }
    return r;
}

void halcone_cache_rtl_free(halcone_cache_rtl *r)
{
    if (r == NULL)
        return;
    cmp_pair_close(&r->p);
    free(r);
}

const halcone_cache_cfg *halcone_cache_rtl_cfg(const halcone_cache_rtl *r) { return &r->c; }
const halcone_cache *halcone_cache_rtl_core(const halcone_cache_rtl *r)
{
    return halcone_cache_tm_core(shell_of(r));
}
void halcone_cache_rtl_name(halcone_cache_rtl *r, const char *name) { cmp_pair_name(&r->p, name); }
uint64_t halcone_cache_rtl_cycles(const halcone_cache_rtl *r) { return r->p.cycles; }
const char *halcone_cache_rtl_error(const halcone_cache_rtl *r) { return r->err; }

int halcone_cache_rtl_fault(halcone_cache_rtl *r, const char *port, uint64_t mask, uint64_t val,
                            uint64_t from, int compare)
{
    char e[200];
    if (!r->p.has_sub || cmp_block_force(&r->p.sub, port, mask, val, from, e, sizeof e) != 0)
        return -1;
    r->p.compare = compare;
    return 0;
}

int halcone_cache_rtl_access(halcone_cache_rtl *r, halcone_cache_op op, uint64_t addr,
                             uint32_t up, uint32_t wts, uint32_t rts, halcone_cache_result *res)
{
    uint64_t o[HCR_WORDS], limit = r->p.cycles + r->c.sets + 256, am = mask64(r->c.addr_bits);
    int have = 1, fpend = 0, got = 0, dn_seen = 0;
    unsigned fid = 0, fdelay = 0;
    memset(res, 0, sizeof *res);
    if ((addr & ~am) != 0 || (up & ~r->g.ts_max) != 0 || (wts & ~r->g.ts_max) != 0 ||
        (rts & ~r->g.ts_max) != 0 || (up && !r->g.l1_req_cts)) {
        snprintf(r->err, sizeof r->err,
                 "access 0x%llx up %u (%u, %u) does not fit the unit's ports",
                 (unsigned long long)addr, up, wts, rts);
        return -1;
    }
    while (r->p.cycles <= limit) {
        uint64_t now[HCR_WORDS];
        /* done: the answer was taken and (L2 role) the notice too */
        idle_inputs(r);
        r->in[I_REQ_VALID] = (uint64_t)have;
        if (have) {
            r->in[I_REQ_OP] = (unsigned)op & 3;
            r->in[I_REQ_ADDR] = addr;
            if (r->g.l1_req_cts)
                r->in[r->i_cts] = up;
        } else if (cohkit_unit_pct(&r->rng) < 50) { /* idle payloads are don't-cares */
            r->in[I_REQ_OP] = cohkit_unit_rnd(&r->rng) & 3;
            r->in[I_REQ_ADDR] = cohkit_unit_rnd(&r->rng) & am;
            if (r->g.l1_req_cts)
                r->in[r->i_cts] = cohkit_unit_rnd(&r->rng) & r->g.ts_max;
        }
        if (fpend && fdelay == 0) {
            r->in[I_FILL_VALID] = 1;
            r->in[I_FILL_ID] = fid;
            r->in[I_FILL_WTS] = wts;
            r->in[I_FILL_RTS] = rts;
        }
        r->in[I_RSP_READY] = cohkit_unit_pct(&r->rng) < 70;
        r->in[I_DN_READY] = cohkit_unit_pct(&r->rng) < 70;
        if (r->l2)
            r->in[I_EV_READY] = cohkit_unit_pct(&r->rng) < 70;
        if (got) {
            uint64_t m[HCR_WORDS];
            halcone_cache_tm_eval(shell_of(r), r->in, m);
            if (!r->l2 || !(m[r->o_ev] & 1))
                return 0;
        }
        memcpy(now, r->in, sizeof now);
        if (cycle(r, o) != 0)
            return -1;
        if (have && (o[O_REQ_READY] & 1))
            have = 0;
        if ((o[r->o_ev] & 1) && (!r->l2 || (now[I_EV_READY] & 1))) {
            if (res->victim) {
                snprintf(r->err, sizeof r->err, "cycle %llu: a second victim for one access",
                         (unsigned long long)r->p.cycles);
                return -1;
            }
            res->victim = 1;
            res->victim_line = o[r->o_ev + 1];
            res->victim_wts = (uint32_t)o[r->o_ev + 2];
            res->victim_rts = (uint32_t)o[r->o_ev + 3];
        }
        if ((o[O_DN_VALID] & 1) && (now[I_DN_READY] & 1)) {
            if (dn_seen || op > HALCONE_CACHE_OP_WR || (unsigned)(o[O_DN_WRITE] & 1) != (unsigned)op) {
                snprintf(r->err, sizeof r->err, "cycle %llu: unexpected request below",
                         (unsigned long long)r->p.cycles);
                return -1;
            }
            dn_seen = 1;
            fpend = 1;
            fid = (unsigned)o[O_DN_ID];
            fdelay = (unsigned)(cohkit_unit_rnd(&r->rng) % 4);
            res->req_cts = r->g.req_cts ? (uint32_t)o[O_DN_ID + 1] : 0;
            res->pending = 0;
        } else if (fpend && fdelay > 0) {
            fdelay--;
        }
        if (fpend && (now[I_FILL_VALID] & 1) && (o[O_FILL_READY] & 1))
            fpend = 0;
        if ((o[O_RSP_VALID] & 1) && (now[I_RSP_READY] & 1)) {
            unsigned k = (unsigned)o[O_RSP_KIND];
            if (got || have) {
                snprintf(r->err, sizeof r->err, "cycle %llu: unexpected answer",
                         (unsigned long long)r->p.cycles);
                return -1;
            }
            got = 1;
            res->kind = (halcone_cache_rsp_kind)k;
            res->cls = k <= HALCONE_CACHE_RSP_WEXP ? (halcone_cache_class)(k % 3) : HALCONE_CACHE_HIT;
            res->line = o[O_RSP_LINE];
            res->cts = (uint32_t)o[O_RSP_CTS];
            res->wts = (uint32_t)o[O_RSP_WTS];
            res->rts = (uint32_t)o[O_RSP_RTS];
            res->count = (unsigned)o[O_RSP_COUNT];
            if (!dn_seen)
                res->req_cts = res->cts;
        }
    }
    snprintf(r->err, sizeof r->err, "no answer within %u cycles", r->c.sets + 256);
    return -1;
}
