/*
 * The composed Spandex system: see spandex_sys.h (spec 9.4, 9.5).
 */
#include <stdlib.h>
#include <string.h>

#include "spandex_sys.h"
#include "unit.h"

#define NODE_M 0xffu /* memory, answered inside the model */

typedef struct {
    uint64_t id;
    unsigned src, dst;
    spandex_msg m;
} fly;

typedef struct {
    const spandex_sys_cfg *c;
    const spandex_sop *ops;
    size_t nops;
    FILE *out;
    spandex_llc *llc;
    spandex_tu *tu[SPANDEX_LLC_DEVS_MAX];
    unsigned words;
    fly *f;
    size_t nf, capf;
    uint64_t next_id, deliveries, rng, bound;
    uint64_t faults_seen; /* messages of the injected fault's kind so far */
    uint64_t *issued_at;
    unsigned char *issued, *done;
    int failed, oom;
} sys;

/* ------------------------------------------------------------- the log */
static void node_put(FILE *f, unsigned n)
{
    if (n == SPANDEX_TU_LLC)
        fputs(" L", f);
    else if (n == NODE_M)
        fputs(" M", f);
    else
        fprintf(f, " %u", n);
}

/* S <id> <src> <dst> <Msg> <line> <mask> [r=<requestor>] [<op>] [<v>...]:
 * messages without a mask in 9.2 (MemRd, MemWr, Inv, Ack) print the whole
 * line's mask. */
static void log_send(sys *s, const fly *x)
{
    const spandex_msg *m = &x->m;
    uint64_t full = s->words == 64 ? ~0ull : (1ull << s->words) - 1, mask = m->mask;
    unsigned w;
    if (m->kind == SPANDEX_MEMRD || m->kind == SPANDEX_MEMWR || m->kind == SPANDEX_INV || m->kind == SPANDEX_ACK)
        mask = full;
    fprintf(s->out, "S %llu", (unsigned long long)x->id);
    node_put(s->out, x->src);
    node_put(s->out, x->dst);
    fprintf(s->out, " %s 0x%llx 0x%llx", spandex_msg_name(m->kind), (unsigned long long)m->line,
            (unsigned long long)mask);
    if (spandex_msg_net(m->kind) == SPANDEX_NET_FWD && m->kind != SPANDEX_RVKO && m->kind != SPANDEX_INV)
        fprintf(s->out, " r=%u", m->req);
    if (m->kind == SPANDEX_REQWTDATA)
        fprintf(s->out, " %s", spandex_op_name(m->op));
    if (spandex_msg_has_data(m->kind) && !(m->kind == SPANDEX_REQWTDATA && m->op == SPANDEX_OP_RD))
        for (w = 0; w < s->words; w++)
            if (mask >> w & 1)
                fprintf(s->out, " 0x%llx", (unsigned long long)m->v[w]);
    fputc('\n', s->out);
}

static void fail_line(sys *s, const char *reason)
{
    if (s->failed)
        return;
    s->failed = 1;
    fprintf(s->out, "E %s\n", reason);
}

/* The injected fault (--fault) on message x: 1 when x is lost in the
 * network (sent, never delivered); a stale RspV gets its words' initial
 * values (the word at address A holds A). */
static int fault(sys *s, fly *x)
{
    unsigned f = s->c->fault, w;
    spandex_msg_kind k = x->m.kind;
    int hit = (f == SPANDEX_SYS_FAULT_DROP_ACK && (k == SPANDEX_ACK || k == SPANDEX_RSPRVKO)) ||
              (f == SPANDEX_SYS_FAULT_DROP_RSPO && k == SPANDEX_RSPO) ||
              (f == SPANDEX_SYS_FAULT_STALE_RSPV && k == SPANDEX_RSPV);
    if (!hit || ++s->faults_seen != s->c->fault_at)
        return 0;
    if (f != SPANDEX_SYS_FAULT_STALE_RSPV)
        return 1;
    for (w = 0; w < s->words; w++)
        if (x->m.mask >> w & 1)
            x->m.v[w] = x->m.line + (uint64_t)w * s->c->llc.word;
    return 0;
}

/* A message enters the in-flight set (memory's: delivered at once). */
static void post(sys *s, unsigned src, unsigned dst, const spandex_msg *m)
{
    fly x;
    int lost;
    x.id = ++s->next_id;
    x.src = src;
    x.dst = dst;
    x.m = *m;
    lost = fault(s, &x);
    log_send(s, &x);
    if (lost)
        return;
    if (dst == NODE_M) {
        fprintf(s->out, "D %llu\n", (unsigned long long)x.id);
        return;
    }
    if (s->nf == s->capf) {
        size_t cap = s->capf ? 2 * s->capf : 64;
        fly *p = realloc(s->f, cap * sizeof *p);
        if (!p) {
            s->oom = 1;
            fail_line(s, "out of memory");
            return;
        }
        s->f = p;
        s->capf = cap;
    }
    s->f[s->nf++] = x;
}

/* --------------------------------------------------- the environment -- */
static void env_send(void *ctx, unsigned src, unsigned dst, const spandex_msg *m)
{
    sys *s = ctx;
    if (!s->failed)
        post(s, src, dst, m);
}

static void env_issued(void *ctx, size_t op)
{
    sys *s = ctx;
    s->issued[op] = 1;
    s->issued_at[op] = s->deliveries;
}

static void env_done(void *ctx, size_t op, int has_v, uint64_t v)
{
    sys *s = ctx;
    const spandex_sop *o = &s->ops[op];
    s->done[op] = 1;
    if (has_v)
        fprintf(s->out, "V %u %u 0x%llx 0x%llx\n", o->dev, o->lineno, (unsigned long long)o->addr,
                (unsigned long long)v);
    else
        fprintf(s->out, "C %u %u\n", o->dev, o->lineno);
}

static void env_fail(void *ctx, const char *reason)
{
    char buf[300];
    snprintf(buf, sizeof buf, "protocol: %s", reason);
    fail_line(ctx, buf);
}

static void llc_emit(void *ctx, const spandex_msg *m)
{
    sys *s = ctx;
    if (s->failed)
        return;
    if (m->kind == SPANDEX_MEMRD || m->kind == SPANDEX_MEMWR)
        post(s, SPANDEX_TU_LLC, NODE_M, m);
    else
        post(s, SPANDEX_TU_LLC, m->dev, m);
}

/* ---------------------------------------------------------- delivery -- */
static void pump_all(sys *s, int idle)
{
    unsigned d;
    for (d = 0; d < s->c->ndev && !s->failed; d++)
        spandex_tu_pump(s->tu[d], idle);
}

/* 1 when message i may be delivered under --sched random: the oldest
 * message of its source/destination pair, not counting FwdReqV, which is
 * ordered with nothing (III-C 3: a ReqV enforces no ordering, so a
 * forwarded one may arrive after the owner left O and is Nacked). */
static int ready(const sys *s, size_t i)
{
    size_t j;
    if (s->f[i].m.kind == SPANDEX_FWDREQV)
        return 1;
    for (j = 0; j < i; j++)
        if (s->f[j].src == s->f[i].src && s->f[j].dst == s->f[i].dst && s->f[j].m.kind != SPANDEX_FWDREQV)
            return 0;
    return 1;
}

/* The index of the message to deliver: the oldest (fifo), or a seeded
 * choice among the ready ones (random). */
static size_t choose(sys *s)
{
    size_t i, n = 0, pick;
    if (!s->c->sched_random)
        return 0;
    for (i = 0; i < s->nf; i++)
        n += (size_t)ready(s, i);
    pick = (size_t)(cohkit_unit_rnd(&s->rng) % n);
    for (i = 0; i < s->nf; i++)
        if (ready(s, i) && pick-- == 0)
            return i;
    return 0;
}

/* SYS5 under fifo: an operation open longer than the bound. */
static void watchdog(sys *s)
{
    size_t i;
    char buf[200];
    if (s->c->sched_random)
        return;
    for (i = 0; i < s->nops; i++)
        if (s->issued[i] && !s->done[i] && s->deliveries - s->issued_at[i] > s->bound) {
            snprintf(buf, sizeof buf, "watchdog: op# %u (device %u) not complete %llu deliveries after its issue",
                     s->ops[i].lineno, s->ops[i].dev, (unsigned long long)s->bound);
            fail_line(s, buf);
            return;
        }
}

/* Delivers one message; then every device issues what it can. */
static void deliver(sys *s)
{
    size_t i = choose(s);
    fly x = s->f[i];
    char err[200];
    memmove(&s->f[i], &s->f[i + 1], (s->nf - i - 1) * sizeof *s->f);
    s->nf--;
    s->deliveries++;
    fprintf(s->out, "D %llu\n", (unsigned long long)x.id);
    if (x.dst == SPANDEX_TU_LLC) {
        x.m.dev = x.src;
        if (spandex_llc_event(s->llc, &x.m, llc_emit, s, err, sizeof err) != 0) {
            char buf[260];
            snprintf(buf, sizeof buf, "protocol: LLC: %s", err);
            fail_line(s, buf);
        }
    } else
        spandex_tu_recv(s->tu[x.dst], x.src, &x.m);
    pump_all(s, 1);
    watchdog(s);
}

/* DRAIN: deliver until nothing is in flight and no device issues more;
 * then every issued operation must be complete. */
static void drain(sys *s)
{
    size_t i;
    char buf[200];
    for (;;) {
        pump_all(s, 1);
        if (s->failed || !s->nf)
            break;
        deliver(s);
    }
    for (i = 0; i < s->nops && !s->failed; i++)
        if (s->issued[i] && !s->done[i]) {
            snprintf(buf, sizeof buf, "deadlock: op# %u (device %u) not complete with nothing in flight",
                     s->ops[i].lineno, s->ops[i].dev);
            fail_line(s, buf);
        }
}

static void run_ops(sys *s)
{
    size_t i;
    char buf[200];
    for (i = 0; i < s->nops && !s->failed; i++) {
        const spandex_sop *o = &s->ops[i];
        uint64_t k;
        if (o->kind == SPANDEX_SOP_DRAIN) {
            drain(s);
        } else if (o->kind == SPANDEX_SOP_STEP) {
            for (k = 0; k < o->v && !s->failed; k++) {
                pump_all(s, 1);
                if (!s->nf)
                    break;
                deliver(s);
            }
        } else {
            spandex_tu_push(s->tu[o->dev], i);
            spandex_tu_pump(s->tu[o->dev], 0);
        }
    }
    if (!s->failed)
        drain(s);
    for (i = 0; i < s->nops && !s->failed; i++)
        if (s->ops[i].kind < SPANDEX_SOP_STEP && !s->done[i]) {
            snprintf(buf, sizeof buf, "deadlock: op# %u (device %u) never issued", s->ops[i].lineno,
                     s->ops[i].dev);
            fail_line(s, buf);
        }
}

static int sys_init(sys *s, const spandex_sys_cfg *c, const spandex_sop *ops, size_t n, FILE *out)
{
    spandex_tu_env env = {s, env_send, env_issued, env_done, env_fail};
    unsigned d;
    memset(s, 0, sizeof *s);
    s->c = c;
    s->ops = ops;
    s->nops = n;
    s->out = out;
    s->words = c->llc.line / c->llc.word;
    s->bound = spandex_sys_bound(c);
    s->rng = c->seed;
    cohkit_unit_splitmix(&s->rng);
    s->rng = cohkit_unit_splitmix(&s->rng) | 1;
    s->issued_at = calloc(n ? n : 1, sizeof *s->issued_at);
    s->issued = calloc(n ? n : 1, 1);
    s->done = calloc(n ? n : 1, 1);
    s->llc = spandex_llc_new(&c->llc);
    if (!s->issued_at || !s->issued || !s->done || !s->llc)
        return -1;
    for (d = 0; d < c->ndev; d++) {
        spandex_tu_cfg tc = {(spandex_tu_kind)c->kind[d], d, s->words, c->llc.word, c->wb, c->nack_limit,
                             c->rmw_wtdata, c->llc.gran == SPANDEX_LLC_GRAN_LINE};
        s->tu[d] = spandex_tu_new(&tc, ops, n, &env);
        if (!s->tu[d])
            return -1;
        spandex_tu_extra_words(s->tu[d], (int)(c->llc.extra >> d & 1));
    }
    return 0;
}

static void sys_free(sys *s)
{
    unsigned d;
    for (d = 0; d < SPANDEX_LLC_DEVS_MAX; d++)
        spandex_tu_free(s->tu[d]);
    spandex_llc_free(s->llc);
    free(s->f);
    free(s->issued_at);
    free(s->issued);
    free(s->done);
}

int spandex_sys_run(const spandex_sys_cfg *c, const spandex_sop *ops, size_t n, FILE *out, char *err,
                    size_t len)
{
    sys s;
    int rc;
    if (sys_init(&s, c, ops, n, out) != 0) {
        sys_free(&s);
        snprintf(err, len, "out of memory");
        return 2;
    }
    run_ops(&s);
    rc = s.oom ? 2 : s.failed ? 1 : 0;
    if (s.oom)
        snprintf(err, len, "out of memory");
    sys_free(&s);
    return rc;
}
