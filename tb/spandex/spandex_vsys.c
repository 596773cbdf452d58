/*
 * Spandex system at cycle level (spandex_vsys.h, docs/spandex.md "Verilated
 * system").
 *
 * Every cycle: the program lines due are queued at their devices; the LLC
 * block's inputs come from the queues (the message at the head of the
 * request and response queues when its latency elapsed, the fill of the
 * oldest MemRd when the memory's latency elapsed); the blocks are
 * evaluated; the LLC's sends are logged and queued (S), its handshakes
 * taken (D); every device takes the messages due to it and sends; the
 * blocks are clocked. No input depends on an output of the same cycle, so
 * the LLC's shell and its Verilated module see the same inputs as long as
 * they agree, and give the same log byte for byte.
 *
 * Log order within a cycle: the LLC's sends (caused by events it took in
 * earlier cycles) before the D lines of the messages it takes; a device's
 * D line before what it sends on it. A ReqWB's D line is written with the
 * LLC's RspWB that answers it: the LLC takes the write-back in its order
 * of events, and until then it may still forward those words to the
 * device (an older request in its pipeline); the checker replays the
 * LLC's side in log order, so the write-back is placed where the LLC
 * decided it (docs/paper-notes.md).
 */
#define _POSIX_C_SOURCE 200809L
#include "spandex_vsys.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compose_rtl.h"
#include "lockstep.h"
#include "spandex_check_sys.h"
#include "spandex_llc_port.h"
#include "spandex_tuhw.h"
#include "unit.h"

#define SPV_RESET 3 /* cycles of reset at the start */
#define P(name) SPANDEX_LLC_P_##name

void spvsys_opts_default(spvsys_opts *o)
{
    char e[200];
    memset(o, 0, sizeof *o);
    spandex_sys_cfg_default(&o->sys);
    o->port_cmp = 1;
    o->net_lat = 2;
    o->mem_lat = 10;
    o->max_cycles = 2000000;
    o->watchdog = 10000;
    spvsys_opts_devs(o, "denovo,gpu,denovo,gpu", e, sizeof e);
}

int spvsys_opts_devs(spvsys_opts *o, const char *list, char *err, size_t len)
{
    char buf[300], *save = NULL, *t, v[32];
    unsigned n = 0;
    spandex_sys_cfg c = o->sys;
    c.ndev = 0;
    c.given = 0;
    snprintf(buf, sizeof buf, "%s", list);
    for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        snprintf(v, sizeof v, "%u:%s", n++, t);
        if (spandex_sys_cfg_option(&c, "dev", v, err, len) != 0)
            return -1;
    }
    if (n < 2) {
        snprintf(err, len, "--devs '%s': two devices at least (gpu, denovo or mesi, comma-separated)", list);
        return -1;
    }
    o->sys = c;
    return 0;
}

void spvsys_res_free(spvsys_res *r)
{
    free(r->log);
    free(r->check);
    free(r->times);
    r->log = r->check = r->times = NULL;
}

/* ------------------------------------------------------------ state -- */

typedef struct {
    uint64_t due, seq, id;
    unsigned src;
    spandex_msg m;
} spv_msg;

typedef struct {
    uint64_t due, line;
    unsigned id;
} spv_fill;

typedef struct {
    uint64_t id, line;
    unsigned src;
} spv_wb;

typedef struct {
    uint64_t line;
    uint64_t v[SPANDEX_LLC_WORDS_MAX];
} spv_mline;

struct spvsys {
    const spvsys_opts *o;
    const spandex_sop *ops;
    size_t nops;
    cmp_sys cs;                 /* llc                                    */
    cmp_rtl rtl;
    cmp_block *llc;
    const spandex_llc_cfg *lc;
    spandex_llc_geom g;
    spandex_llc_ports p;
    cmp_fifo req, rsp;          /* towards the LLC's req and rsp ports    */
    cmp_fifo in[SPANDEX_LLC_DEVS_MAX]; /* towards each device             */
    cmp_fifo fills;             /* MemRd answers                          */
    cmp_fifo wbs;               /* ReqWBs taken, their D lines waiting    */
    spv_mline *mem;             /* memory lines written or read           */
    size_t nmem, cmem;
    void *dev[SPANDEX_LLC_DEVS_MAX];
    const spvsys_dev_ops *dops[SPANDEX_LLC_DEVS_MAX];
    unsigned ndev;
    uint64_t t, next_id, seq, progress, messages;
    size_t pc;                  /* next program line                      */
    uint64_t wait;              /* cycles of a STEP left                  */
    int draining, final, done, failed, oom, moved;
    unsigned char *issued, *fin;
    uint64_t *t_iss, *t_fin;    /* cycle of the first issue, of completion */
    FILE *log;
    char *logbuf;
    size_t logn;
};

/* ------------------------------------------------------------- the log */

static void node_put(FILE *f, unsigned n)
{
    if (n == SPANDEX_TU_LLC)
        fputs(" L", f);
    else if (n == SPANDEX_LLC_DEVS_MAX)
        fputs(" M", f);
    else
        fprintf(f, " %u", n);
}

/* The S line of spec 9.4 as `cohmodel spandex-system` writes it (its
 * readings in docs/spandex.md): MemRd, MemWr, Inv and Ack print the whole
 * line's mask; r= on FwdReq*; a ReqWT+data's op before its values. */
static void log_send(spvsys *s, uint64_t id, unsigned src, unsigned dst, const spandex_msg *m)
{
    uint64_t mask = m->mask;
    unsigned w;
    if (m->kind == SPANDEX_MEMRD || m->kind == SPANDEX_MEMWR || m->kind == SPANDEX_INV ||
        m->kind == SPANDEX_ACK)
        mask = s->g.full;
    fprintf(s->log, "S %" PRIu64, id);
    node_put(s->log, src);
    node_put(s->log, dst);
    fprintf(s->log, " %s 0x%" PRIx64 " 0x%" PRIx64, spandex_msg_name(m->kind), m->line, mask);
    if (spandex_msg_net(m->kind) == SPANDEX_NET_FWD && m->kind != SPANDEX_RVKO &&
        m->kind != SPANDEX_INV)
        fprintf(s->log, " r=%u", m->req);
    if (m->kind == SPANDEX_REQWTDATA)
        fprintf(s->log, " %s", spandex_op_name(m->op));
    if (spandex_msg_has_data(m->kind) && !(m->kind == SPANDEX_REQWTDATA && m->op == SPANDEX_OP_RD))
        for (w = 0; w < s->g.words; w++)
            if (mask >> w & 1)
                fprintf(s->log, " 0x%" PRIx64, m->v[w]);
    fputc('\n', s->log);
}

static void fail_line(spvsys *s, const char *fmt, const char *what)
{
    if (s->failed)
        return;
    s->failed = 1;
    fputs("E ", s->log);
    fprintf(s->log, fmt, what);
    fputc('\n', s->log);
}

/* ------------------------------------------------------------ memory -- */

/* The memory's copy of a line (the initial image: the word at byte
 * address A holds A, as the functional core's memory). NULL: no memory. */
static spv_mline *mem_line(spvsys *s, uint64_t line)
{
    size_t i;
    unsigned w;
    spv_mline *m;
    for (i = 0; i < s->nmem; i++)
        if (s->mem[i].line == line)
            return &s->mem[i];
    if (s->nmem == s->cmem) {
        size_t c = s->cmem ? 2 * s->cmem : 16;
        spv_mline *p = realloc(s->mem, c * sizeof *p);
        if (p == NULL) {
            s->oom = 1;
            return NULL;
        }
        s->mem = p;
        s->cmem = c;
    }
    m = &s->mem[s->nmem++];
    m->line = line;
    for (w = 0; w < s->g.words; w++)
        m->v[w] = (line + (uint64_t)w * s->lc->word) &
                  (s->g.word_bits == 64 ? ~0ull : (1ull << s->g.word_bits) - 1);
    return m;
}

/* -------------------------------------------------------- the network */

static void push(spvsys *s, cmp_fifo *q, const void *it)
{
    if (cmp_fifo_push(q, it) != 0 && !s->oom) {
        s->oom = 1;
        fail_line(s, "%s", "out of memory");
    }
}

/* A message sent at this cycle: its S line, then its queue. */
static void send_msg(spvsys *s, unsigned src, unsigned dst, const spandex_msg *m)
{
    spv_msg x;
    if (s->failed)
        return;
    memset(&x, 0, sizeof x);
    x.id = ++s->next_id;
    x.seq = ++s->seq;
    x.src = src;
    x.m = *m;
    x.due = s->t + s->o->net_lat + (m->kind == SPANDEX_FWDREQV ? s->o->fwdv_delay : 0);
    log_send(s, x.id, src, dst, m);
    s->messages++;
    s->moved = 1;
    if (dst == SPANDEX_TU_LLC) {
        x.m.dev = src;
        push(s, spandex_msg_net(m->kind) == SPANDEX_NET_REQ ? &s->req : &s->rsp, &x);
    } else if (dst < s->ndev) {
        push(s, &s->in[dst], &x);
    } else {
        char b[64];
        snprintf(b, sizeof b, "%u", dst);
        fail_line(s, "protocol: a message to device %s, which does not exist", b);
    }
}

/* The oldest message due at device id: its index, or -1. */
static long due_at(const spvsys *s, unsigned id)
{
    const cmp_fifo *q = &s->in[id];
    long best = -1;
    size_t i;
    for (i = 0; i < q->n; i++) {
        const spv_msg *x = cmp_fifo_at(q, i);
        const spv_msg *b = best >= 0 ? cmp_fifo_at(q, (size_t)best) : NULL;
        if (x->due <= s->t && (!b || x->due < b->due || (x->due == b->due && x->seq < b->seq)))
            best = (long)i;
    }
    return best;
}

int spvsys_peek(const spvsys *s, unsigned id, unsigned *src, spandex_msg *m)
{
    long i = s->failed ? -1 : due_at(s, id);
    const spv_msg *x;
    if (i < 0)
        return 0;
    x = cmp_fifo_at(&s->in[id], (size_t)i);
    *src = x->src;
    *m = x->m;
    return 1;
}

void spvsys_take(spvsys *s, unsigned id)
{
    long i = due_at(s, id);
    if (i < 0)
        return;
    fprintf(s->log, "D %" PRIu64 "\n", ((const spv_msg *)cmp_fifo_at(&s->in[id], (size_t)i))->id);
    cmp_fifo_remove(&s->in[id], (size_t)i);
    s->moved = 1;
}

/* ------------------------------------------------ the C translation unit */

static void env_send(void *ctx, unsigned src, unsigned dst, const spandex_msg *m)
{
    send_msg(ctx, src, dst, m);
}

static void env_issued(void *ctx, size_t op)
{
    spvsys *s = ctx;
    if (!s->issued[op])
        s->t_iss[op] = s->t;
    s->issued[op] = 1;
}

static void env_done(void *ctx, size_t op, int has_v, uint64_t v)
{
    spvsys *s = ctx;
    const spandex_sop *o = &s->ops[op];
    s->fin[op] = 1;
    s->t_fin[op] = s->t;
    s->moved = 1;
    if (has_v)
        fprintf(s->log, "V %u %u 0x%" PRIx64 " 0x%" PRIx64 "\n", o->dev, o->lineno, o->addr, v);
    else
        fprintf(s->log, "C %u %u\n", o->dev, o->lineno);
}

static void env_fail(void *ctx, const char *reason) { fail_line(ctx, "protocol: %s", reason); }

static void ctu_drive(void *d, spvsys *s, unsigned id)
{
    (void)d;
    (void)s;
    (void)id;
}

/* Takes every message due (the C unit is always ready), then issues. */
static void ctu_tick(void *d, spvsys *s, unsigned id)
{
    unsigned src;
    spandex_msg m;
    while (spvsys_peek(s, id, &src, &m)) {
        spvsys_take(s, id);
        spandex_tu_recv(d, src, &m);
    }
    if (!s->failed)
        spandex_tu_pump(d, 1);
}

static void ctu_push(void *d, size_t op)
{
    spandex_tu_push(d, op);
    spandex_tu_pump(d, 0);
}

static int ctu_busy(const void *d) { return spandex_tu_busy(d); }
static void ctu_free(void *d) { spandex_tu_free(d); }

static const spvsys_dev_ops ctu_ops = {ctu_drive, ctu_tick, ctu_push, ctu_busy, ctu_free};

/* 1 when the devices are spandex-tu blocks. */
static int tu_blocks(const spvsys_opts *o) { return o->tu_block || (o->rtl & SPVSYS_RTL_TU); }

/* Device id as a spandex-tu block "tuID" of the committed configuration of
 * its kind (default: GPU coherence, denovo: DeNovo, mesi: MESI; it must
 * fit the LLC's and the system's options) with its L1. 0, or -1. */
static int tu_open(spvsys *s, unsigned id, const spandex_tu_env *env, char *err, size_t len)
{
    static const char *const presets[] = {"default", "denovo", "mesi"}, *const names[] = {"GPU", "DeNovo", "MESI"};
    char name[16];
    cmp_block *b;
    const spandex_tuhw_cfg *tc;
    unsigned k = (unsigned)s->o->sys.kind[id];
    int dn = k == SPANDEX_TU_DENOVO;
    const char *preset = presets[k];
    snprintf(name, sizeof name, "tu%u", id);
    if ((b = cmp_sys_add(&s->cs, "spandex-tu", name, preset, NULL, 1, err, len)) == NULL)
        return -1;
    tc = b->cfg;
    if (tc->line != s->lc->line || tc->word != s->lc->word || tc->devs != s->lc->devs ||
        tc->addr_bits != s->lc->addr_bits) {
        snprintf(err, len, "spandex_tu_%s (%u B lines, %u B words, %u devices) does not fit the LLC's", preset,
                 tc->line, tc->word, tc->devs);
        return -1;
    }
    if (tc->nack_limit != s->o->sys.nack_limit) {
        snprintf(err, len, "--nack-limit %u: the %s devices' spandex_tu_%s has %u", s->o->sys.nack_limit,
                 names[k], preset, tc->nack_limit);
        return -1;
    }
    if (dn && (int)tc->wtdata != s->o->sys.rmw_wtdata) {
        snprintf(err, len, "--denovo-rmw %s: the DeNovo devices' spandex_tu_denovo uses %s",
                 s->o->sys.rmw_wtdata ? "wtdata" : "odata", tc->wtdata ? "wtdata" : "odata");
        return -1;
    }
    s->dops[id] = &spvsys_tu_ops;
    s->dev[id] = spvsys_tu_new(b, id, s->ops, s->nops, env, err, len);
    return s->dev[id] ? 0 : -1;
}

/* Device id of the system: the C translation unit of its kind, or with
 * tu_block a spandex-tu block of its kind. 0, or -1. */
static int dev_open(spvsys *s, unsigned id, char *err, size_t len)
{
    const spandex_sys_cfg *c = &s->o->sys;
    spandex_tu_env env = {s, env_send, env_issued, env_done, env_fail};
    spandex_tu_cfg tc = {(spandex_tu_kind)c->kind[id], id, s->g.words, s->lc->word, c->wb,
                         c->nack_limit, c->rmw_wtdata, s->lc->gran == SPANDEX_LLC_GRAN_LINE};
    if (tu_blocks(s->o))
        return tu_open(s, id, &env, err, len);
    s->dev[id] = spandex_tu_new(&tc, s->ops, s->nops, &env);
    s->dops[id] = &ctu_ops;
    if (s->dev[id] == NULL) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    return 0;
}

/* -------------------------------------------------------------- the LLC */

static void put_msg(spvsys *s, uint64_t *in, int valid, int type, int src, int line, int mask,
                    int data, const spandex_msg *m)
{
    in[s->p.off[valid]] = 1;
    in[s->p.off[type]] = spandex_msg_code(m->kind);
    in[s->p.off[src]] = m->dev;
    in[s->p.off[line]] = m->line >> s->g.line_bits;
    in[s->p.off[mask]] = m->mask;
    if (spandex_msg_has_data(m->kind))
        spandex_ports_put_words(&s->p, in, data, m->v, m->mask);
}

/* The LLC's inputs from the queues. */
static void llc_drive(spvsys *s)
{
    uint64_t *in = s->llc->in;
    const spv_msg *x;
    if (s->req.n && (x = cmp_fifo_at(&s->req, 0))->due <= s->t) {
        put_msg(s, in, P(req_valid_i), P(req_type_i), P(req_src_i), P(req_line_i), P(req_mask_i),
                P(req_data_i), &x->m);
        in[s->p.off[P(req_op_i)]] = x->m.kind == SPANDEX_REQWTDATA ? x->m.op : 0;
    }
    if (s->rsp.n && (x = cmp_fifo_at(&s->rsp, 0))->due <= s->t)
        put_msg(s, in, P(rsp_valid_i), P(rsp_type_i), P(rsp_src_i), P(rsp_line_i), P(rsp_mask_i),
                P(rsp_data_i), &x->m);
    if (s->fills.n) {
        const spv_fill *f = cmp_fifo_at(&s->fills, 0);
        spv_mline *ml = f->due <= s->t ? mem_line(s, f->line) : NULL;
        if (ml) {
            in[s->p.off[P(mem_rsp_valid_i)]] = 1;
            in[s->p.off[P(mem_rsp_id_i)]] = f->id;
            spandex_ports_put_words(&s->p, in, P(mem_rsp_data_i), ml->v, s->g.full);
        }
    }
    in[s->p.off[P(fwd_ready_i)]] = 1;
    in[s->p.off[P(out_ready_i)]] = 1;
    in[s->p.off[P(mem_req_ready_i)]] = 1;
}

/* A MemRd or MemWr: sent to M and taken at once (memory is always ready). */
static void llc_mem(spvsys *s, const uint64_t *out)
{
    spandex_msg m;
    spv_mline *ml;
    spv_fill f;
    memset(&m, 0, sizeof m);
    m.kind = (out[s->p.off[P(mem_req_wr_o)]] & 1) ? SPANDEX_MEMWR : SPANDEX_MEMRD;
    m.line = out[s->p.off[P(mem_req_line_o)]] << s->g.line_bits;
    m.mask = s->g.full;
    spandex_ports_get_words(&s->p, out, P(mem_req_data_o), m.v);
    log_send(s, ++s->next_id, SPANDEX_TU_LLC, SPANDEX_LLC_DEVS_MAX, &m);
    fprintf(s->log, "D %" PRIu64 "\n", s->next_id);
    s->moved = 1;
    if ((ml = mem_line(s, m.line)) == NULL)
        return;
    if (m.kind == SPANDEX_MEMWR) {
        memcpy(ml->v, m.v, s->g.words * sizeof *m.v);
        return;
    }
    f.due = s->t + s->o->mem_lat;
    f.line = m.line;
    f.id = (unsigned)out[s->p.off[P(mem_req_id_o)]];
    push(s, &s->fills, &f);
}

/* A forward or probe (fwd port) or a response (out port) of the LLC. */
static void llc_out(spvsys *s, const uint64_t *out, int fwd)
{
    spandex_msg m;
    int k = spandex_msg_of(fwd ? SPANDEX_NET_FWD : SPANDEX_NET_RSP,
                    (unsigned)out[s->p.off[fwd ? P(fwd_type_o) : P(out_type_o)]]);
    size_t i;
    memset(&m, 0, sizeof m);
    if (k < 0) {
        fail_line(s, "protocol: the LLC sent a message of no known type on its %s port",
                  fwd ? "fwd" : "out");
        return;
    }
    m.kind = (spandex_msg_kind)k;
    m.dev = (unsigned)out[s->p.off[fwd ? P(fwd_dst_o) : P(out_dst_o)]];
    m.line = out[s->p.off[fwd ? P(fwd_line_o) : P(out_line_o)]] << s->g.line_bits;
    m.mask = out[s->p.off[fwd ? P(fwd_mask_o) : P(out_mask_o)]];
    if (fwd)
        m.req = (unsigned)out[s->p.off[P(fwd_req_o)]];
    else
        spandex_ports_get_words(&s->p, out, P(out_data_o), m.v);
    for (i = 0; m.kind == SPANDEX_RSPWB && i < s->wbs.n; i++) {
        const spv_wb *w = cmp_fifo_at(&s->wbs, i);
        if (w->src == m.dev && w->line == m.line) { /* the write-back it answers */
            fprintf(s->log, "D %" PRIu64 "\n", w->id);
            cmp_fifo_remove(&s->wbs, i);
            break;
        }
    }
    send_msg(s, SPANDEX_TU_LLC, m.dev, &m);
}

/* The LLC's transfers of the cycle: its sends, then what it took. */
static void llc_cycle(spvsys *s)
{
    const uint64_t *out = s->llc->out, *in = s->llc->in;
    if (out[s->p.off[P(mem_req_valid_o)]] & 1)
        llc_mem(s, out);
    if (out[s->p.off[P(fwd_valid_o)]] & 1)
        llc_out(s, out, 1);
    if (out[s->p.off[P(out_valid_o)]] & 1)
        llc_out(s, out, 0);
    if ((in[s->p.off[P(req_valid_i)]] & 1) && (out[s->p.off[P(req_ready_o)]] & 1)) {
        const spv_msg *x = cmp_fifo_at(&s->req, 0);
        if (x->m.kind == SPANDEX_REQWB) {
            spv_wb w = {x->id, x->m.line, x->src};
            push(s, &s->wbs, &w);
        } else {
            fprintf(s->log, "D %" PRIu64 "\n", x->id);
        }
        cmp_fifo_pop(&s->req);
        s->moved = 1;
    }
    if ((in[s->p.off[P(rsp_valid_i)]] & 1) && (out[s->p.off[P(rsp_ready_o)]] & 1)) {
        fprintf(s->log, "D %" PRIu64 "\n", ((const spv_msg *)cmp_fifo_at(&s->rsp, 0))->id);
        cmp_fifo_pop(&s->rsp);
        s->moved = 1;
    }
    if ((in[s->p.off[P(mem_rsp_valid_i)]] & 1) && (out[s->p.off[P(mem_rsp_ready_o)]] & 1)) {
        cmp_fifo_pop(&s->fills);
        s->moved = 1;
    }
    if (out[s->p.off[P(err_o)]] & 1)
        fail_line(s, "protocol: the LLC %s", "raised err_o");
}

/* -------------------------------------------------------- the program */

/* 1 when nothing is in flight and no device has work left. */
static int quiet(const spvsys *s)
{
    unsigned d;
    if (s->req.n || s->rsp.n || s->fills.n || s->wbs.n || !(s->llc->out[s->p.off[P(idle_o)]] & 1) ||
        s->moved)
        return 0;
    for (d = 0; d < s->ndev; d++)
        if (s->in[d].n || s->dops[d]->busy(s->dev[d]))
            return 0;
    return 1;
}

/* The program lines up to the next STEP or DRAIN (the final DRAIN after
 * the last line). */
static void feed(spvsys *s)
{
    while (!s->wait && !s->draining && !s->failed) {
        const spandex_sop *o;
        if (s->pc == s->nops) {
            s->draining = s->final = 1;
            break;
        }
        o = &s->ops[s->pc++];
        if (o->kind == SPANDEX_SOP_STEP)
            s->wait = o->v;
        else if (o->kind == SPANDEX_SOP_DRAIN)
            s->draining = 1;
        else
            s->dops[o->dev]->push(s->dev[o->dev], (size_t)(o - s->ops));
    }
}

/* After the final DRAIN: every operation complete. */
static void at_end(spvsys *s)
{
    size_t i;
    char b[80];
    for (i = 0; i < s->nops && !s->failed; i++)
        if (s->ops[i].kind < SPANDEX_SOP_STEP && !s->fin[i]) {
            snprintf(b, sizeof b, "op# %u (device %u)", s->ops[i].lineno, s->ops[i].dev);
            fail_line(s, "deadlock: %s not complete with nothing in flight", b);
        }
}

/* The end of a cycle: STEP and DRAIN, the watchdog. */
static void after(spvsys *s, int live)
{
    char b[120];
    if (!live)
        return;
    if (s->moved)
        s->progress = s->t;
    if (s->wait)
        s->wait--;
    else if (s->draining && quiet(s)) {
        s->draining = 0;
        if (s->final) {
            at_end(s);
            s->done = 1;
        }
    }
    if (!s->done && !s->failed && s->t - s->progress > s->o->watchdog) {
        snprintf(b, sizeof b, "%" PRIu64 " cycles without a message or a completion (cycle %" PRIu64 ")",
                 s->o->watchdog, s->t);
        fail_line(s, "watchdog: %s", b);
    }
    if (!s->done && !s->failed && s->t + 1 >= s->o->max_cycles) {
        snprintf(b, sizeof b, "%" PRIu64, s->o->max_cycles);
        fail_line(s, "watchdog: the run reached %s cycles", b);
    }
    if (s->failed)
        s->done = 1;
}

/* One cycle (spandex_vsys.h). 1 when the run is over. */
static int spv_cycle(spvsys *s)
{
    int live = s->t >= SPV_RESET;
    unsigned d;
    if (s->done)
        return 1;
    s->moved = 0;
    if (live)
        feed(s);
    cmp_sys_clear(&s->cs, live);
    if (live)
        llc_drive(s);
    for (d = 0; d < s->ndev; d++)
        s->dops[d]->drive(s->dev[d], s, d);
    cmp_sys_eval(&s->cs);
    if (live) {
        llc_cycle(s);
        for (d = 0; d < s->ndev && !s->failed; d++)
            s->dops[d]->tick(s->dev[d], s, d);
    }
    cmp_sys_step(&s->cs);
    after(s, live);
    s->t++;
    return s->done;
}

/* ------------------------------------------------------------ system -- */

static void spv_free(spvsys *s)
{
    unsigned d;
    if (s == NULL)
        return;
    for (d = 0; d < SPANDEX_LLC_DEVS_MAX; d++) {
        if (s->dev[d])
            s->dops[d]->free(s->dev[d]);
        cmp_fifo_free(&s->in[d]);
    }
    cmp_sys_free(&s->cs);
    cmp_fifo_free(&s->req);
    cmp_fifo_free(&s->rsp);
    cmp_fifo_free(&s->fills);
    cmp_fifo_free(&s->wbs);
    if (s->log)
        fclose(s->log);
    free(s->logbuf);
    free(s->mem);
    free(s->issued);
    free(s->fin);
    free(s->t_iss);
    free(s->t_fin);
    free(s);
}

/* The LLC block (the committed default configuration) and its fit with
 * the devices. 0, or -1. */
static int open_llc(spvsys *s, char *err, size_t len)
{
    const spvsys_opts *o = s->o;
    s->llc = cmp_sys_add(&s->cs, "spandex-llc", "llc", o->llc_line ? "line" : "default", NULL, 1, err, len);
    if (s->llc == NULL)
        return -1;
    s->lc = s->llc->cfg;
    spandex_llc_geom_of(s->lc, &s->g);
    spandex_llc_ports_of(s->lc, &s->p);
    if (o->sys.ndev > s->lc->devs) {
        snprintf(err, len, "%u devices: the LLC (spandex_llc_%s) has %u device IDs", o->sys.ndev,
                 o->llc_line ? "line" : "default", s->lc->devs);
        return -1;
    }
    if (o->llc_line && tu_blocks(o)) {
        snprintf(err, len, "--llc line: the spandex-tu blocks ask words; the line baseline takes the C "
                           "translation units (--rtl none or llc, --gpu c)");
        return -1;
    }
    if (o->net_lat < 1 || o->mem_lat < 1) {
        snprintf(err, len, "--net-lat and --mem-lat must be at least 1");
        return -1;
    }
    return 0;
}

/* The units o runs Verilated (SPVSYS_RTL_*) into r. */
static void rtl_units(cmp_rtl *r, const dut_ops *const *duts, const spvsys_opts *o)
{
    cmp_rtl_init(r, duts, (o->rtl & SPVSYS_RTL_LLC) ? "spandex-llc" : "spandex-tu");
    r->all = 0;
    if ((o->rtl & SPVSYS_RTL_LLC) && (o->rtl & SPVSYS_RTL_TU))
        cmp_rtl_add(r, "spandex-tu");
}

/* A system of o on backend be (NULL: the shell, or the Verilated LLC of
 * duts when o->rtl) running ops. NULL with a reason. */
static spvsys *spv_new(const spvsys_opts *o, const dut_ops *const *duts, const cmp_backend *be,
                       const spandex_sop *ops, size_t n, char *err, size_t len)
{
    spvsys *s = calloc(1, sizeof *s);
    cmp_backend own;
    unsigned d;
    if (s == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    s->o = o;
    s->ops = ops;
    s->nops = n;
    s->ndev = o->sys.ndev;
    cmp_fifo_init(&s->req, sizeof(spv_msg));
    cmp_fifo_init(&s->rsp, sizeof(spv_msg));
    cmp_fifo_init(&s->fills, sizeof(spv_fill));
    cmp_fifo_init(&s->wbs, sizeof(spv_wb));
    for (d = 0; d < SPANDEX_LLC_DEVS_MAX; d++)
        cmp_fifo_init(&s->in[d], sizeof(spv_msg));
    if (be == NULL) {
        rtl_units(&s->rtl, duts, o);
        own = o->rtl ? cmp_rtl_backend(&s->rtl) : cmp_shell_backend;
        be = &own;
    }
    cmp_sys_init(&s->cs, be);
    s->issued = calloc(n ? n : 1, 1);
    s->fin = calloc(n ? n : 1, 1);
    s->t_iss = calloc(n ? n : 1, sizeof *s->t_iss);
    s->t_fin = calloc(n ? n : 1, sizeof *s->t_fin);
    s->log = open_memstream(&s->logbuf, &s->logn);
    if (!s->issued || !s->fin || !s->t_iss || !s->t_fin || !s->log) {
        snprintf(err, len, "out of memory");
        spv_free(s);
        return NULL;
    }
    if (open_llc(s, err, len) != 0) {
        spv_free(s);
        return NULL;
    }
    for (d = 0; d < s->ndev; d++)
        if (dev_open(s, d, err, len) != 0) {
            spv_free(s);
            return NULL;
        }
    if (o->stuck_port && !o->port_cmp) {
        const char *bn = o->stuck_block ? o->stuck_block : "llc";
        cmp_block *sb = cmp_sys_find(&s->cs, bn);
        if (sb == NULL)
            snprintf(err, len, "--stuck: the system has no block %s", bn);
        if (sb == NULL || cmp_block_stuck(sb, o->stuck_port, o->stuck_bit, o->stuck_val,
                                          o->stuck_from, err, len) != 0) {
            spv_free(s);
            return NULL;
        }
    }
    return s;
}

/* ---------------------------------------------------------- the run -- */

/* The checker's verdict on the log of s (spandex_check_sys.h, the options
 * of the system's devices and LLC, random delivery: no SYS5 bound in
 * deliveries). */
static int judge(const spvsys *s, const char *prog, const char *log, spvsys_res *r, char *err,
                 size_t len)
{
    spandex_sysck_cfg c;
    char v[32], *ebuf = NULL;
    size_t on = 0, en = 0;
    unsigned d;
    FILE *fp, *fl, *fo, *fe;
    int rc = 0;
    spandex_sysck_cfg_default(&c);
    for (d = 0; d < s->ndev; d++) {
        snprintf(v, sizeof v, "%u:%s", d,
                 s->o->sys.kind[d] == SPANDEX_TU_GPU      ? "gpu"
                 : s->o->sys.kind[d] == SPANDEX_TU_DENOVO ? "denovo"
                                                          : "mesi");
        rc |= spandex_sysck_cfg_option(&c, "dev", v, err, len);
    }
    c.line = s->lc->line;
    c.word = s->lc->word;
    c.addr_bits = s->lc->addr_bits;
    c.nack_limit = s->o->sys.nack_limit;
    c.fifo = 0;
    if (rc != 0 || spandex_sysck_cfg_check(&c, err, len) != 0)
        return -1;
    fp = fmemopen((void *)prog, strlen(prog), "r");
    fl = fmemopen((void *)log, strlen(log), "r");
    fo = open_memstream(&r->check, &on);
    fe = open_memstream(&ebuf, &en);
    rc = fp && fl && fo && fe ? spandex_sysck_run(&c, fp, "program", fl, "log", 0, fo, fe) : 3;
    if (fp)
        fclose(fp);
    if (fl)
        fclose(fl);
    if (fo)
        fclose(fo);
    if (fe)
        fclose(fe);
    if (rc >= 2) { /* the log does not fit the program: a failed run */
        char *c2 = malloc(strlen(ebuf ? ebuf : "") + 32);
        if (c2)
            sprintf(c2, "E the log does not parse: %s", ebuf ? ebuf : "out of memory");
        free(r->check);
        r->check = c2;
    }
    free(ebuf);
    r->pass = rc == 0;
    return 0;
}

/* The results of a finished system into r (its log moved there). */
static void take_res(spvsys *s, spvsys_res *r)
{
    static const char *const kinds[] = {"LD", "ST", "RMW", "ACQ", "REL", "EVICT"};
    size_t i, tn = 0;
    FILE *tf = open_memstream(&r->times, &tn);
    for (i = 0; tf && i < s->nops; i++)
        if (s->ops[i].kind < SPANDEX_SOP_STEP && s->fin[i])
            fprintf(tf, "T %u %u %s issued %" PRIu64 " done %" PRIu64 " latency %" PRIu64 "\n",
                    s->ops[i].dev, s->ops[i].lineno, kinds[s->ops[i].kind], s->t_iss[i], s->t_fin[i],
                    s->t_fin[i] - s->t_iss[i]);
    if (tf)
        fclose(tf);
    fflush(s->log);
    fclose(s->log);
    s->log = NULL;
    r->log = s->logbuf;
    s->logbuf = NULL;
    r->cycles = s->t;
    r->messages = s->messages;
    r->e_line = s->failed;
    for (i = 0; i < s->nops; i++)
        r->ops += s->ops[i].kind < SPANDEX_SOP_STEP;
}

/* The lockstep's view of the system (tb/compose_rtl.h). */
typedef struct {
    const spvsys_opts *o;
    const dut_ops *const *duts;
    const spandex_sop *ops;
    size_t n;
} spv_arg;

static void *lk_make(void *arg, const cmp_backend *be, char *err, size_t len)
{
    const spv_arg *a = arg;
    return spv_new(a->o, a->duts, be ? be : &cmp_shell_backend, a->ops, a->n, err, len);
}
static int lk_cycle(void *s) { return spv_cycle(s); }
static int lk_stuck(void *s)
{
    (void)s;
    return 0;
}
static const cmp_sys *lk_blocks(const void *s) { return &((const spvsys *)s)->cs; }
static int lk_in_reset(const void *s) { return ((const spvsys *)s)->t <= SPV_RESET; }
static void lk_free(void *s) { spv_free(s); }
static const cmp_family lk_family = {lk_make, lk_cycle, lk_stuck, lk_blocks, lk_in_reset, lk_free};

/* The shells alone, or the Verilated LLC beside its shell (port_cmp), the
 * log of the substituted system judged. 0, or -1. */
static int run_lockstep(const spvsys_opts *o, const dut_ops *const *duts, const char *prog,
                        const spandex_sop *ops, size_t n, spvsys_res *r, char *err, size_t len)
{
    spv_arg a = {o, duts, ops, n};
    cmp_lockstep_opts lo;
    cmp_lockstep_res lr;
    spvsys *s;
    int rc;
    clock_t t0;
    cmp_lockstep_defaults(&lo);
    if (o->rtl)
        rtl_units(&lo.rtl, duts, o);
    lo.la = tu_blocks(o) ? "shells" : "shell LLC";
    lo.lb = o->rtl == SPVSYS_RTL_LLC ? "Verilated LLC" : "Verilated";
    if (o->stuck_port) {
        lo.stuck.block = o->stuck_block ? o->stuck_block : "llc";
        lo.stuck.port = o->stuck_port;
        lo.stuck.bit = o->stuck_bit;
        lo.stuck.value = o->stuck_val;
        lo.stuck.from = o->stuck_from;
    }
    t0 = clock();
    if (cmp_lockstep(&lk_family, &a, &lo, &lr) != 0) {
        snprintf(err, len, "%s", lr.msg);
        return -1;
    }
    r->seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
    s = lr.sub ? lr.sub : lr.ref;
    r->mismatch = lr.mismatch;
    r->cmp_cycles = lr.sub ? lr.cycles : 0;
    snprintf(r->msg, sizeof r->msg, "%s", lr.mismatch ? lr.msg : "");
    take_res(s, r);
    rc = judge(s, prog, r->log, r, err, len);
    cmp_lockstep_free(&lk_family, &lr);
    return rc;
}

int spvsys_run(const spvsys_opts *o, const dut_ops *const *duts, const char *prog, spvsys_res *r,
               char *err, size_t len)
{
    spandex_sys_cfg c = o->sys;
    spandex_sop *ops = NULL;
    size_t n = 0;
    FILE *f = fmemopen((void *)prog, strlen(prog), "r");
    spvsys *s;
    int rc;
    clock_t t0;
    memset(r, 0, sizeof *r);
    spandex_llc_cfg_default(&c.llc); /* the default preset's line and word */
    if (f == NULL || spandex_sys_cfg_check(&c, err, len) != 0 ||
        spandex_sys_prog_read(&c, f, &ops, &n, err, len) != 0) {
        if (f == NULL)
            snprintf(err, len, "out of memory");
        if (f)
            fclose(f);
        free(ops);
        return -1;
    }
    fclose(f);
    if (o->port_cmp || !o->rtl) {
        rc = run_lockstep(o, duts, prog, ops, n, r, err, len);
        free(ops);
        return rc;
    }
    s = spv_new(o, duts, NULL, ops, n, err, len);
    if (s == NULL) {
        free(ops);
        return -1;
    }
    t0 = clock();
    while (!spv_cycle(s))
        ;
    take_res(s, r);
    r->seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
    rc = judge(s, prog, r->log, r, err, len);
    spv_free(s);
    free(ops);
    return rc;
}

/* ----------------------------------------------------- random programs */

char *spvsys_random_program(const spvsys_opts *o, unsigned ops, uint64_t seed)
{
    static const char *const rmw[] = {"add", "swp", "or", "and"};
    /* lines 0x1000-0x5000 share set 0 of the LLC (64 sets of 64-byte
     * lines): five lines in four ways, so evictions and revocations */
    static const unsigned lines[] = {0x1000, 0x1000, 0x1000, 0x1040, 0x2000, 0x3000, 0x4000, 0x5000};
    size_t cap = 48 * (size_t)ops + 64, n = 0;
    char *b = malloc(cap);
    uint64_t st = seed * 0x9E3779B97F4A7C15ull + 7;
    unsigned i, nd = o->sys.ndev ? o->sys.ndev : 2;
    if (b == NULL)
        return NULL;
    b[0] = 0;
    for (i = 0; i < ops; i++) {
        unsigned d = (unsigned)(cohkit_unit_splitmix(&st) % nd);
        unsigned k = (unsigned)(cohkit_unit_splitmix(&st) % 100);
        unsigned a = lines[cohkit_unit_splitmix(&st) % 8] + 4 * (unsigned)(cohkit_unit_splitmix(&st) % 6);
        unsigned v = 1 + (unsigned)(cohkit_unit_splitmix(&st) % 99);
        if (k < 30)
            n += (size_t)snprintf(b + n, cap - n, "LD %u 0x%x\n", d, a);
        else if (k < 55)
            n += (size_t)snprintf(b + n, cap - n, "ST %u 0x%x 0x%x\n", d, a, v);
        else if (k < 65)
            n += (size_t)snprintf(b + n, cap - n, "RMW %u 0x%x %s 0x%x\n", d, a, rmw[v % 4], v % 9 + 1);
        else if (k < 69)
            n += (size_t)snprintf(b + n, cap - n, "RMW %u 0x%x rd\n", d, a);
        else if (k < 76)
            n += (size_t)snprintf(b + n, cap - n, "ACQ %u\n", d);
        else if (k < 83)
            n += (size_t)snprintf(b + n, cap - n, "REL %u\n", d);
        else if (k < 88)
            n += (size_t)snprintf(b + n, cap - n, "EVICT %u 0x%x\n", d, a);
        else if (k < 97)
            n += (size_t)snprintf(b + n, cap - n, "STEP %u\n", 1 + v % 40);
        else
            n += (size_t)snprintf(b + n, cap - n, "DRAIN\n");
    }
    return b;
}

/* ---------------------------------------------------- ./tb_spandex hook */

typedef struct {
    spvsys_opts o;
    const char *program, *log_path;
    unsigned long long random, seed, cycles;
    int stages;                /* bit 0: shells, bit 1: Verilated blocks  */
    int rtl;                   /* the Verilated stage's SPVSYS_RTL_* (0:
                                  the LLC, and the TUs with --gpu tu)     */
    int times;                 /* the T lines of the last run             */
    char sport[64];
} spv_args;

static int vbad(const char *fmt, const char *v) { return ls_bad_arg("tb_spandex", fmt, v); }

/* A numeric option lo..hi. 0, or 2 after the message. */
static int num(const char *a, const char *val, unsigned long long lo, unsigned long long hi,
               unsigned long long *v)
{
    char fmt[128];
    if (ls_num_arg(val, v) == 0 && *v >= lo && *v <= hi)
        return 0;
    snprintf(fmt, sizeof fmt, "%s: '%%s' is not a number of %llu..%llu", a, lo, hi);
    return vbad(fmt, val);
}

/* --stuck [BLOCK.]PORT:BIT:V[@CYCLE] (an output of the LLC, or of block
 * tuN). 0, or 2. */
static int parse_stuck(spv_args *x, const char *val)
{
    unsigned long long b, v, c = 0;
    char bit[32], vv[32], *dot;
    const char *at;
    if (cmp_spec_split(val, x->sport, sizeof x->sport, bit, sizeof bit, vv, sizeof vv, &at) != 0 ||
        ls_num_arg(bit, &b) != 0 || ls_num_arg(vv, &v) != 0 || v > 1 || (at && ls_num_arg(at, &c) != 0))
        return vbad("--stuck: '%s' is not [BLOCK.]PORT:BIT:0|1[@CYCLE] (an output of llc or tuN)", val);
    x->o.stuck_block = NULL;
    x->o.stuck_port = x->sport;
    if ((dot = strchr(x->sport, '.')) != NULL) {
        *dot = 0;
        x->o.stuck_block = x->sport;
        x->o.stuck_port = dot + 1;
    }
    x->o.stuck_bit = (unsigned)b;
    x->o.stuck_val = (unsigned)v;
    x->o.stuck_from = c;
    return 0;
}

static int parse_opt(spv_args *x, const char *a, const char *val)
{
    unsigned long long v = 0;
    char err[300];
    int rc = 0;
    if (strcmp(a, "--program") == 0)
        x->program = val;
    else if (strcmp(a, "--random") == 0)
        rc = num(a, val, 1, 1000000, &x->random);
    else if (strcmp(a, "--seed") == 0)
        rc = num(a, val, 0, ~0ull, &x->seed);
    else if (strcmp(a, "--cycles") == 0)
        rc = num(a, val, 1, ~0ull, &x->cycles);
    else if (strcmp(a, "--log") == 0)
        x->log_path = val;
    else if (strcmp(a, "--llc") == 0) {
        if (strcmp(val, "default") != 0 && strcmp(val, "line") != 0)
            return vbad("--llc '%s': must be default or line", val);
        x->o.llc_line = val[0] == 'l';
    } else if (strcmp(a, "--devs") == 0) {
        if (spvsys_opts_devs(&x->o, val, err, sizeof err) != 0)
            return vbad("%s", err);
    } else if (strcmp(a, "--rtl") == 0) {
        static const char *const names[] = {"none", "llc", "tu", "all", "staged"};
        static const int stages[] = {1, 2, 2, 2, 3}, rtl[] = {0, SPVSYS_RTL_LLC, SPVSYS_RTL_TU,
                                                              SPVSYS_RTL_LLC | SPVSYS_RTL_TU, 0};
        unsigned k;
        for (k = 0; k < 5 && strcmp(val, names[k]); k++)
            ;
        if (k == 5)
            return vbad("--rtl: '%s' is not none, llc, tu, all or staged", val);
        x->stages = stages[k];
        x->rtl = rtl[k];
        if (rtl[k] & SPVSYS_RTL_TU)
            x->o.tu_block = 1;
    } else if (strcmp(a, "--gpu") == 0) {
        if (strcmp(val, "c") && strcmp(val, "tu"))
            return vbad("--gpu: '%s' is not c or tu", val);
        x->o.tu_block = val[0] == 't';
    } else if (strcmp(a, "--stuck") == 0)
        rc = parse_stuck(x, val);
    else if (strcmp(a, "--net-lat") == 0 || strcmp(a, "--mem-lat") == 0 ||
             strcmp(a, "--fwdv-delay") == 0) {
        rc = num(a, val, a[2] == 'f' ? 0 : 1, 10000, &v);
        *(a[2] == 'n' ? &x->o.net_lat : a[2] == 'm' ? &x->o.mem_lat : &x->o.fwdv_delay) = (unsigned)v;
    } else if (strcmp(a, "--watchdog") == 0 || strcmp(a, "--max-cycles") == 0) {
        rc = num(a, val, 1, ~0ull, &v);
        *(a[2] == 'w' ? &x->o.watchdog : &x->o.max_cycles) = v;
    } else if (strcmp(a, "--nack-limit") == 0 || strcmp(a, "--wb") == 0 || strcmp(a, "--denovo-rmw") == 0) {
        if (spandex_sys_cfg_option(&x->o.sys, a + 2, val, err, sizeof err) != 0)
            return vbad("%s", err);
    } else
        return vbad("unknown option '%s' with --system (see --help)", a);
    return rc;
}

static int parse_args(spv_args *x, int argc, char **argv)
{
    int i, rc;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--system") == 0)
            continue;
        if (strcmp(a, "--times") == 0) {
            x->times = 1;
            continue;
        }
        if (strcmp(a, "--no-port-check") == 0) {
            x->o.port_cmp = 0;
            continue;
        }
        if (val == NULL)
            return vbad("%s needs a value (see --help)", a);
        i++;
        if ((rc = parse_opt(x, a, val)) != 0)
            return rc;
    }
    if (x->program && x->random)
        return vbad("--program '%s' and --random: give one", x->program);
    if (x->rtl == 0)
        x->rtl = SPVSYS_RTL_LLC | (x->o.tu_block ? SPVSYS_RTL_TU : 0);
    if ((x->rtl & SPVSYS_RTL_TU) && !x->o.tu_block)
        return vbad("%s", "--rtl tu|all: the devices are spandex-tu blocks (not with --gpu c after it)");
    if (x->o.stuck_port && !(x->stages & 2))
        return vbad("--stuck: '%s' needs a Verilated block (--rtl llc, tu, all or staged)", x->o.stuck_port);
    return 0;
}

/* A whole file (malloc'ed), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *b = NULL, *p;
    size_t n = 0, cap = 0, k = 0;
    if (f == NULL)
        return NULL;
    do {
        n += k;
        if (n + 4097 > cap) {
            cap = 2 * cap + 8192;
            if ((p = realloc(b, cap)) == NULL) {
                free(b);
                fclose(f);
                return NULL;
            }
            b = p;
        }
        k = fread(b + n, 1, 4096, f);
    } while (k > 0);
    fclose(f);
    b[n] = 0;
    return b;
}

/* One run, its line: cycles, messages, the checker's verdict, the port
 * comparison. 1 when it failed. */
static int report(const char *lead, const spvsys_res *r, const spvsys_res *ref)
{
    const char *v = r->check ? r->check : "E no verdict";
    size_t vl = strcspn(v, "\n");
    int same = ref == NULL || strcmp(ref->log, r->log) == 0;
    printf("%s: %" PRIu64 " cycles, %" PRIu64 " messages, %" PRIu64 " operations; checker: %.*s",
           lead, r->cycles, r->messages, r->ops, (int)vl, v);
    if (ref)
        printf("; log %s shells'", same ? "=" : "DIFFERS from the");
    if (r->cmp_cycles || r->mismatch)
        printf("; %s", r->mismatch ? r->msg : "ports = shell's every cycle");
    if (r->seconds > 0)
        printf("; %.0f cycles per CPU second", (double)r->cycles / r->seconds);
    printf("\n");
    return !r->pass || r->mismatch || !same;
}

/* The stages of x on prog. 0 PASS, 1 FAIL, 2. */
static int run_stages(spv_args *x, const dut_ops *const *duts, const char *prog, const char *what)
{
    spvsys_res ref, r;
    char err[300], lead[160];
    int fail = 0, have_ref = 0;
    const spvsys_res *last = NULL;
    memset(&ref, 0, sizeof ref);
    if (x->stages & 1) {
        spvsys_opts o = x->o;
        o.rtl = 0;
        o.stuck_port = NULL;
        if (spvsys_run(&o, NULL, prog, &ref, err, sizeof err) != 0)
            return vbad("system: %s", err);
        snprintf(lead, sizeof lead, "system %s, %u devices: shell LLC%s", what, o.sys.ndev,
                 o.tu_block ? ", TU shells" : "");
        fail |= report(lead, &ref, NULL);
        have_ref = 1;
        last = &ref;
    }
    if (x->stages & 2) {
        spvsys_opts o = x->o;
        o.rtl = x->rtl;
        if (spvsys_run(&o, duts, prog, &r, err, sizeof err) != 0) {
            spvsys_res_free(&ref);
            return vbad("system: %s", err);
        }
        snprintf(lead, sizeof lead, "system %s, %u devices: Verilated %s%s", what, o.sys.ndev,
                 o.rtl == SPVSYS_RTL_LLC ? "LLC" : o.rtl == SPVSYS_RTL_TU ? "TUs" : "LLC and TUs",
                 o.port_cmp ? (o.rtl == SPVSYS_RTL_LLC ? " beside its shell" : " beside their shells") : "");
        fail |= report(lead, &r, have_ref ? &ref : NULL);
        last = &r;
    }
    if (x->times && last && last->times)
        fputs(last->times, stdout);
    if (x->log_path && last) {
        FILE *f = fopen(x->log_path, "w");
        if (f) {
            fputs(last->log, f);
            fputs(last->check ? last->check : "", f);
            fclose(f);
        }
    }
    if (x->stages & 2)
        spvsys_res_free(&r);
    spvsys_res_free(&ref);
    return fail;
}

/* One program of the default runs on the devices of devs. 0, 1, 2. */
static int run_default(spv_args *x, const dut_ops *const *duts, const char *devs, const char *path,
                       unsigned long long seed)
{
    char what[64];
    char *p;
    int rc;
    spvsys_opts_devs(&x->o, devs, what, sizeof what);
    if (path == NULL) {
        if ((p = spvsys_random_program(&x->o, 400, seed)) == NULL)
            return vbad("%s", "out of memory");
        snprintf(what, sizeof what, "random 400 seed %llu, %s", seed, devs);
    } else {
        if ((p = slurp(path)) == NULL)
            return vbad("cannot read '%s' (run from the repository root)", path);
        snprintf(what, sizeof what, "%s, %s", path + 16, devs);
    }
    rc = run_stages(x, duts, p, what);
    free(p);
    return rc;
}

/* One pass of the default runs: Fig. 1a and 1c, Fig. 1b and 1d (the CPU a
 * MESI device), random programs on 2 and 4 devices and on MESI, GPU and
 * DeNovo devices (tu: the devices as spandex-tu blocks). */
static int run_defaults_pass(spv_args *x, const dut_ops *const *duts, int tu)
{
    static const struct {
        const char *devs, *path;
        unsigned seed;
    } runs[] = {{"denovo,gpu,denovo,gpu", "tb/spandex/logs/fig1a.prog", 0},
                {"denovo,gpu,denovo,gpu", "tb/spandex/logs/fig1c.prog", 0},
                {"mesi,gpu", "tb/spandex/logs/fig1b.prog", 0},
                {"mesi,gpu", "tb/spandex/logs/fig1d.prog", 0},
                {"gpu,denovo", NULL, 0},
                {"denovo,gpu,denovo,gpu", NULL, 1},
                {"mesi,mesi,gpu,denovo", NULL, 2}};
    unsigned i;
    int fail = 0, rc;
    printf(tu ? "== system (the LLC and the devices' spandex-tu: timing shells, then Verilated beside them)\n"
              : "== system (the LLC: timing shell, then Verilated beside it; C translation units)\n");
    for (i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        if ((rc = run_default(x, duts, runs[i].devs, runs[i].path, x->seed + runs[i].seed)) == 2)
            return 2;
        fail |= rc;
    }
    return fail;
}

/* The default runs with C translation units, then with the devices'
 * spandex-tu blocks (everything Verilated in the second stage). */
static int run_defaults(spv_args *x, const dut_ops *const *duts)
{
    spvsys_opts keep = x->o;
    int rc = run_defaults_pass(x, duts, 0), rc2;
    if (rc == 2)
        return 2;
    x->o = keep;
    x->o.tu_block = 1;
    x->rtl = SPVSYS_RTL_LLC | SPVSYS_RTL_TU;
    rc2 = run_defaults_pass(x, duts, 1);
    return rc2 == 2 ? 2 : rc | rc2;
}

int spandex_tb_hook(int argc, char **argv, int *handled, const dut_ops *const *duts,
                    int (*run_unit)(int argc, char **argv))
{
    spv_args x;
    int mode = cmp_bench_mode(argc, argv, "--system"), fail = 0, rc;
    char *prog, what[300];
    if (mode == 0)
        return 0;
    *handled = 1;
    memset(&x, 0, sizeof x);
    spvsys_opts_default(&x.o);
    x.seed = 1;
    x.cycles = 100000;
    x.stages = 3;
    if ((rc = parse_args(&x, argc, argv)) != 0)
        return rc;
    if (mode == 1) {
        if ((fail = cmp_bench_units("spandex", argv[0], x.cycles, x.seed, NULL, run_unit)) == 2)
            return 2;
        rc = run_defaults(&x, duts);
    } else {
        if (x.program) {
            if ((prog = slurp(x.program)) == NULL)
                return vbad("--program: cannot read '%s'", x.program);
            snprintf(what, sizeof what, "%s", x.program);
        } else {
            if ((prog = spvsys_random_program(&x.o, x.random ? (unsigned)x.random : 400, x.seed)) == NULL)
                return vbad("%s", "out of memory");
            snprintf(what, sizeof what, "random %llu seed %llu", x.random ? x.random : 400, x.seed);
        }
        rc = run_stages(&x, duts, prog, what);
        free(prog);
    }
    if (rc == 2)
        return 2;
    fail |= rc;
    printf("%s\n", fail ? "FAIL" : "PASS");
    return fail ? 1 : 0;
}

void spandex_tb_help(FILE *f)
{
    fprintf(f,
            "without options (or only --seed, --cycles): every unit of the family in lockstep\n"
            "(--cycles each, default 100000), then\n"
            "the system as with --system on Fig. 1a-1d and random programs on 2 and 4\n"
            "devices (GPU, DeNovo, MESI), with C translation units, then again with --gpu tu\n"
            "(every device a spandex-tu block)\n"
            "the system (docs/spandex.md \"Verilated system\"; the system only):\n"
            "  --system         the LLC at its ports with the C translation units: its timing\n"
            "                   shell, then the Verilated spandex_llc_default beside its shell\n"
            "                   (every port compared every cycle); every log judged by\n"
            "                   spandex-check and compared with the shells' log\n"
            "  --program FILE   a program (spec 9.4; STEP n = n cycles, DRAIN = until idle)\n"
            "  --random N       a random program of N lines (default 400), --seed S\n"
            "  --llc default|line  the LLC's committed configuration: spandex_llc_default, or\n"
            "                   spandex_llc_line (the line baseline: C translation units ask\n"
            "                   whole lines)\n"
            "  --devs LIST      device kinds by ID, e.g. mesi,mesi,gpu,denovo (default\n"
            "                   denovo,gpu,denovo,gpu; at most the LLC's 4; the LLC's\n"
            "                   paper ReqS policy counts devices 0 and 1 as MESI)\n"
            "  --rtl R          none (shells), llc (the Verilated LLC), tu (the Verilated\n"
            "                   spandex_tu_default of every GPU device, spandex_tu_denovo\n"
            "                   of every DeNovo and spandex_tu_mesi of every MESI device;\n"
            "                   implies --gpu tu),\n"
            "                   all (both) or staged (default: shells, then llc, or all\n"
            "                   with --gpu tu)\n"
            "  --gpu c|tu       the devices: C translation units (default) or spandex-tu\n"
            "                   blocks (configuration default, denovo, mesi) with an L1 of\n"
            "                   their kind on their cache ports\n"
            "  --net-lat N      cycles from a send to the destination (default 2)\n"
            "  --mem-lat N      cycles from a MemRd to its data (default 10)\n"
            "  --fwdv-delay N   more cycles for a FwdReqV (default 0)\n"
            "  --nack-limit N, --wb N, --denovo-rmw odata|wtdata   as spandex-system\n"
            "  --stuck [K.]P:B:V[@C] bit B of output P of block K (llc, the default, or\n"
            "                   tuN: device N's spandex-tu) stuck at V from cycle C (Verilated)\n"
            "  --no-port-check  the Verilated blocks alone (the checker or the watchdog judge)\n"
            "  --watchdog N     cycles without progress (default 10000), --max-cycles N\n"
            "  --log FILE       write the log and the verdict of the last run\n"
            "  --times          per operation of the last run: T dev op# kind issued C done C\n"
            "                   latency N (cycles from its first issue to its V or C line)\n");
}
