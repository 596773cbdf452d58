/*
 * STC system model: threads, epoch logic + BSQ, L1, EMU, L2 and memory,
 * cycle by cycle, composed from the units' functional cores (stc_cu.h,
 * stc_l1.h, stc_emu.h). See stc_system.h and docs/stc.md "System model".
 *
 * A cycle: (1) the messages and responses due in this cycle, in the order
 * they were sent (EMU messages, ChangeEpoch at every CU in the same cycle,
 * L2 arrivals, L2 responses); (2) the EMU's wake-up counter; (3) per CU, the
 * L1 port: the oldest store that passed the epoch check (drain FIFO and
 * direct stores, one per cycle), else the thread's load; then the thread
 * issues its next operation.
 */
#include "stc_system.h"
#include "cfg_check.h"
#include "unit_trace.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stc_check.h"
#include "stc_log.h"


/* ---- configuration ------------------------------------------------------ */

void stc_sys_cfg_default(stc_sys_cfg *c)
{
    static const stc_sys_cfg d = {.l2_lat = 160, .mem_lat = 260, .msg_lat = 2, .slow_cu = -1,
                                  .max_cycles = 200000};
    *c = d;
    stc_emu_cfg_default(&c->emu);
    stc_cu_cfg_default(&c->cu);
    stc_l1_cfg_default(&c->l1);
    c->emu.cus = 2;
}

int stc_sys_cfg_preset(stc_sys_cfg *c, const char *name)
{
    stc_sys_cfg_default(c);
    if (strcmp(name, "default") == 0)
        return 0;
    if (strcmp(name, "fpga") == 0) {
        if (stc_emu_cfg_preset(&c->emu, "fpga") || stc_cu_cfg_preset(&c->cu, "fpga") ||
            stc_l1_cfg_preset(&c->l1, "fpga"))
            return -1;
        c->emu.cus = 2;
        return 0;
    }
    return -1;
}

static const cohkit_cfg_num lats[] = {
    {"l2-lat", offsetof(stc_sys_cfg, l2_lat), 2, 100000},
    {"mem-lat", offsetof(stc_sys_cfg, mem_lat), 2, 100000},
    {"msg-lat", offsetof(stc_sys_cfg, msg_lat), 1, 10000},
};

int stc_sys_cfg_option(stc_sys_cfg *c, const char *name, const char *value, char *err, size_t len)
{
    int r, taken = 0;
    r = cohkit_cfg_num_apply(lats, sizeof lats / sizeof lats[0], c, name, value, err, len);
    if (r <= 0)
        return r;
    if (strcmp(name, "max-cycles") == 0)
        return cohkit_cfg_dec(name, value, 1, 100000000, &c->max_cycles, err, len);
    if (strcmp(name, "slow-cu") == 0) {
        const char *colon = value ? strchr(value, ':') : NULL;
        char cu[16];
        uint64_t k, d;
        if (colon == NULL || (size_t)(colon - value) >= sizeof cu) {
            snprintf(err, len, "--slow-cu: '%s' is not C:D", value ? value : "");
            return -1;
        }
        memcpy(cu, value, (size_t)(colon - value));
        cu[colon - value] = '\0';
        if (cohkit_trace_dec(cu, STC_CUS_MAX - 1, &k) != 0 ||
            cohkit_trace_dec(colon + 1, 1000000, &d) != 0) {
            snprintf(err, len, "--slow-cu: '%s' is not C:D (CU, extra cycles)", value);
            return -1;
        }
        c->slow_cu = (int)k;
        c->slow_d = (unsigned)d;
        return 0;
    }
    /* the units' options: every unit that knows the name takes the value */
    r = stc_emu_cfg_option(&c->emu, name, value, err, len);
    if (r < 0)
        return -1;
    taken |= r == 0;
    r = stc_cu_cfg_option(&c->cu, name, value, err, len);
    if (r < 0)
        return -1;
    taken |= r == 0;
    r = stc_l1_cfg_option(&c->l1, name, value, err, len);
    if (r < 0)
        return -1;
    taken |= r == 0;
    return taken ? 0 : 1;
}

int stc_sys_cfg_check(stc_sys_cfg *c, char *err, size_t len)
{
    if (stc_emu_cfg_check(&c->emu, err, len) || stc_cu_cfg_check(&c->cu, err, len) ||
        stc_l1_cfg_check(&c->l1, err, len))
        return -1;
    if (c->slow_cu >= (int)c->emu.cus)
        return cohkit_cfg_fail(err, len, "--slow-cu: CU %d of %u CUs", c->slow_cu, c->emu.cus);
    if (c->mem_lat < c->l2_lat)
        return cohkit_cfg_fail(err, len, "--mem-lat %u below --l2-lat %u", c->mem_lat, c->l2_lat);
    return 0;
}

void stc_sys_cfg_args(const stc_sys_cfg *c, char *buf, size_t len)
{
    char e[512], u[512], l[512];
    stc_emu_cfg_args(&c->emu, e, sizeof e);
    stc_cu_cfg_args(&c->cu, u, sizeof u);
    stc_l1_cfg_args(&c->l1, l, sizeof l);
    snprintf(buf, len, "%s %s %s --l2-lat %u --mem-lat %u --msg-lat %u --max-cycles %llu", e, u,
             l, c->l2_lat, c->mem_lat, c->msg_lat, (unsigned long long)c->max_cycles);
}

/* ---- memory: word values and the L2's resident lines -------------------- */

typedef struct {
    uint64_t key;
    uint32_t val;
    int used;
} kv;

typedef struct {
    kv *t;
    size_t cap, cnt;
} kvmap;

static kv *kv_slot(kvmap *m, uint64_t k)
{
    size_t i = (size_t)(k * 0xff51afd7ed558ccdull >> 17) & (m->cap - 1);
    while (m->t[i].used && m->t[i].key != k)
        i = (i + 1) & (m->cap - 1);
    return &m->t[i];
}

static int kv_get(kvmap *m, uint64_t k, uint32_t *v)
{
    kv *s = m->cap ? kv_slot(m, k) : NULL;
    if (s == NULL || !s->used)
        return 0;
    if (v)
        *v = s->val;
    return 1;
}

static int kv_put(kvmap *m, uint64_t k, uint32_t v)
{
    kv *s;
    if (2 * (m->cnt + 1) > m->cap) {
        kvmap n;
        size_t i;
        n.cap = m->cap ? 2 * m->cap : 256;
        n.cnt = 0;
        n.t = calloc(n.cap, sizeof *n.t);
        if (n.t == NULL)
            return -1;
        for (i = 0; i < m->cap; i++)
            if (m->t[i].used) {
                *kv_slot(&n, m->t[i].key) = m->t[i];
                n.cnt++;
            }
        free(m->t);
        *m = n;
    }
    s = kv_slot(m, k);
    if (!s->used)
        m->cnt++;
    s->used = 1;
    s->key = k;
    s->val = v;
    return 0;
}

/* ---- messages (time-ordered heap) -------------------------------------- */

enum {
    M_DEM, M_CONF, M_READY, M_DONE,    /* CU -> EMU                        */
    M_PREP, M_CHG, M_EDACK,            /* EMU -> CU (M_CHG: every CU)      */
    M_DONESEND,                        /* a CU's BSQ pass is over          */
    M_L2_ST, M_L2_AMO, M_L2_LD,        /* request reaches the L2           */
    M_WA, M_AMOV, M_DATA               /* response reaches the CU          */
};

typedef struct {
    uint64_t t, seq;
    int kind;
    unsigned cu;
    uint64_t addr;
    uint32_t value;
    uint64_t rsp;      /* L2 requests: cycle the response is due           */
    uint32_t *words;   /* M_DATA: the line's words                         */
} msg;

typedef struct {
    msg *h;
    size_t n, cap;
    uint64_t seq;
} mheap;

static int m_less(const msg *a, const msg *b)
{
    return a->t != b->t ? a->t < b->t : a->seq < b->seq;
}

static int m_push(mheap *q, msg m)
{
    size_t i;
    if (cohkit_trace_grow(&q->h, &q->cap, q->n, sizeof *q->h, 64) != 0)
        return -1;
    m.seq = q->seq++;
    i = q->n++;
    while (i > 0 && m_less(&m, &q->h[(i - 1) / 2])) {
        q->h[i] = q->h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q->h[i] = m;
    return 0;
}

static msg m_pop(mheap *q)
{
    msg top = q->h[0], last = q->h[--q->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= q->n)
            break;
        if (c + 1 < q->n && m_less(&q->h[c + 1], &q->h[c]))
            c++;
        if (!m_less(&q->h[c], &last))
            break;
        q->h[i] = q->h[c];
        i = c;
    }
    if (q->n)
        q->h[i] = last;
    return top;
}

/* ---- the system --------------------------------------------------------- */

enum { W_NONE, W_LOAD, W_AMO, W_NOP };
#define LDACQ_RETRY 4 /* cycles between two tries of a load-acquire */

typedef struct {
    uint64_t addr;
    uint32_t value;
    int amo;
    size_t op;          /* op index (AMO result)                            */
} pend;

typedef struct {
    stc_cu *cu;
    stc_l1 *l1;
    size_t pc;
    int wait;
    uint64_t nop_until;
    pend *pd;           /* stores outstanding (thread issue .. WA), one per
                           address (coalescer rule); their data             */
    size_t npd, cpd;
    uint64_t *sq;       /* stores past the epoch check waiting for the L1   */
    size_t sqh, sqn, sqc;
    uint32_t *res;      /* LD / LDACQ / AMO results per op                  */
    unsigned char *has;
} scu;

typedef struct {
    const stc_sys_cfg *c;
    const stc_prog *p;
    FILE *log, *ep;
    int cycles;
    uint64_t t;
    mheap q;
    stc_emu emu;
    uint64_t wake_at;
    stc_elist chg;      /* the ChangeEpoch in flight                        */
    unsigned chg_seb;
    scu *u;
    kvmap mem, l2lines;
    stc_bsq_entry *drn;
    stc_cu_demand *dem;
    unsigned max_bsq;
    int oom;
} sys;

static void send(sys *s, uint64_t t, int kind, unsigned cu, uint64_t addr, uint32_t value)
{
    msg m;
    memset(&m, 0, sizeof m);
    m.t = t;
    m.kind = kind;
    m.cu = cu;
    m.addr = addr;
    m.value = value;
    if (m_push(&s->q, m) != 0)
        s->oom = 1;
}

static uint32_t mem_rd(sys *s, uint64_t a)
{
    uint32_t v = 0;
    kv_get(&s->mem, a, &v);
    return v;
}

static uint64_t line_of(const sys *s, uint64_t a)
{
    return a & ~(uint64_t)(s->c->l1.line - 1);
}

static pend *pd_find(scu *u, uint64_t a)
{
    size_t i;
    for (i = 0; i < u->npd; i++)
        if (u->pd[i].addr == a)
            return &u->pd[i];
    return NULL;
}

static int pd_add(scu *u, uint64_t a, uint32_t v, int amo, size_t op)
{
    if (cohkit_trace_grow(&u->pd, &u->cpd, u->npd, sizeof *u->pd, 16) != 0)
        return -1;
    u->pd[u->npd].addr = a;
    u->pd[u->npd].value = v;
    u->pd[u->npd].amo = amo;
    u->pd[u->npd].op = op;
    u->npd++;
    return 0;
}

static void pd_del(scu *u, uint64_t a)
{
    pend *x = pd_find(u, a);
    if (x)
        *x = u->pd[--u->npd];
}

static int sq_push(scu *u, uint64_t a)
{
    if (u->sqn == u->sqc) {
        size_t nc = u->sqc ? 2 * u->sqc : 16, i;
        uint64_t *ns = malloc(nc * sizeof *ns);
        if (ns == NULL)
            return -1;
        for (i = 0; i < u->sqn; i++)
            ns[i] = u->sq[(u->sqh + i) % u->sqc];
        free(u->sq);
        u->sq = ns;
        u->sqh = 0;
        u->sqc = nc;
    }
    u->sq[(u->sqh + u->sqn++) % u->sqc] = a;
    return 0;
}

static void ready_sent(sys *s, unsigned k)
{
    fprintf(s->log, "%" PRIu64 " READY %u\n", s->t, k);
    send(s, s->t + s->c->msg_lat, M_READY, k, 0, 0);
}

static void log_inv(sys *s, unsigned k, unsigned n, const uint64_t *lines)
{
    unsigned i;
    for (i = 0; i < n; i++)
        fprintf(s->log, "%" PRIu64 " INV %u 0x%" PRIx64 "\n", s->t, k, lines[i]);
}

/* Round trip of an L2 access to line `a` sent now by CU k (the request
 * reaches the L2 after half the L2 round trip). */
static void l2_send(sys *s, unsigned k, int kind, uint64_t a, uint32_t v)
{
    msg m;
    uint64_t line = line_of(s, a), lat;
    lat = kv_get(&s->l2lines, line, NULL) ? s->c->l2_lat : s->c->mem_lat;
    if (kv_put(&s->l2lines, line, 1) != 0)
        s->oom = 1;
    if ((int)k == s->c->slow_cu)
        lat += s->c->slow_d;
    memset(&m, 0, sizeof m);
    m.t = s->t + s->c->l2_lat / 2;
    m.kind = kind;
    m.cu = k;
    m.addr = a;
    m.value = v;
    m.rsp = s->t + lat;
    if (m_push(&s->q, m) != 0)
        s->oom = 1;
}

/* The thread's value arrives (load, hit, atomic). */
static void deliver(sys *s, unsigned k, uint64_t a, uint32_t v)
{
    scu *u = &s->u[k];
    const stc_op *o = &s->p->ops[k][u->pc];
    fprintf(s->log, "%" PRIu64 " LDV %u 0x%" PRIx64 " %" PRIu32 "\n", s->t, k, a, v);
    u->res[u->pc] = v;
    u->has[u->pc] = 1;
    u->wait = W_NONE;
    if (o->kind != STC_OP_LDACQ || v == o->value) {
        u->pc++;
    } else {
        /* the acquire spins: the next try a few cycles later */
        u->wait = W_NOP;
        u->nop_until = s->t + LDACQ_RETRY;
    }
}

/* ChangeEpoch at every CU (spec 3.3): the sweep with the old CER; CER, SEB
 * and poison; DV cleared and the BSQ re-analysed (drained stores pass the
 * check, the others re-demand their bands); DoneAck once the pass is over. */
static void change_epoch(sys *s)
{
    const stc_sys_cfg *c = s->c;
    uint64_t t = s->t;
    unsigned k, i;
    char buf[1100];
    stc_eset set;
    stc_eset_of(&s->chg, &set);
    stc_elist_format(&s->chg, buf, sizeof buf);
    for (k = 0; k < c->emu.cus; k++) {
        stc_l1_chg_result lr;
        stc_cu_chg_res cr;
        scu *u = &s->u[k];
        /* 1: the sweep with the old CER; 2: CER, SEB, poison */
        stc_l1_chg(u->l1, &set, s->chg_seb, &lr);
        log_inv(s, k, lr.nsweep, lr.sweep);
        fprintf(s->log, "%" PRIu64 " CER %u %s %u\n", t, k, buf, s->chg_seb);
        /* 3, 4: DV cleared, BSQ re-analysis: drained stores pass the check */
        cr = stc_cu_change(u->cu, &set, s->chg_seb, s->drn, s->dem);
        for (i = 0; i < cr.drained; i++) {
            fprintf(s->log, "%" PRIu64 " ISS %u 0x%" PRIx64 "\n", t, k, s->drn[i].addr);
            if (sq_push(u, s->drn[i].addr) != 0)
                s->oom = 1;
        }
        for (i = 0; i < cr.demands; i++)
            send(s, t + c->msg_lat, M_DEM, k, s->dem[i].addr, 0);
        /* 5: DoneAck once the pass is over */
        if (cr.cycles == 0) {
            fprintf(s->log, "%" PRIu64 " DONE %u\n", t, k);
            send(s, t + c->msg_lat, M_DONE, k, 0, 0);
        } else {
            send(s, t + cr.cycles, M_DONESEND, k, 0, 0);
        }
    }
}

/* A store, atomic or line read at the L2: performed now, answered at the
 * message's response time. */
static void l2_access(sys *s, const msg *m)
{
    const stc_sys_cfg *c = s->c;
    uint64_t t = s->t;
    unsigned k = m->cu, i;
    msg r = *m;
    if (m->kind == M_L2_LD) {
        unsigned nw = c->l1.line / 4;
        uint64_t line = line_of(s, m->addr);
        r.words = malloc(nw * sizeof *r.words);
        if (r.words == NULL) {
            s->oom = 1;
            return;
        }
        for (i = 0; i < nw; i++)
            r.words[i] = mem_rd(s, line + 4 * i);
        fprintf(s->log, "%" PRIu64 " RD %u 0x%" PRIx64 " %" PRIu32 "\n", t, k, m->addr,
                r.words[(m->addr - line) / 4]);
        r.t = m->rsp;
        r.kind = M_DATA;
        if (m_push(&s->q, r) != 0) {
            free(r.words);
            s->oom = 1;
        }
        return;
    }
    {
        uint32_t old = mem_rd(s, m->addr), nv = m->value;
        if (m->kind == M_L2_AMO) {
            fprintf(s->log, "%" PRIu64 " RD %u 0x%" PRIx64 " %" PRIu32 "\n", t, k, m->addr, old);
            nv = old + m->value;
        }
        if (kv_put(&s->mem, m->addr, nv) != 0)
            s->oom = 1;
        fprintf(s->log, "%" PRIu64 " PERF %u 0x%" PRIx64 " %" PRIu32 "\n", t, k, m->addr, nv);
        r.t = m->rsp;
        r.kind = m->kind == M_L2_AMO ? M_AMOV : M_WA;
        r.value = old;
        if (m_push(&s->q, r) != 0)
            s->oom = 1;
    }
}

static void handle(sys *s, msg *m)
{
    const stc_sys_cfg *c = s->c;
    uint64_t t = s->t;
    unsigned k = m->cu;
    scu *u = &s->u[k < c->emu.cus ? k : 0];
    char buf[1100];
    switch (m->kind) {
    case M_DEM: {
        unsigned e;
        if (stc_emu_demand(&s->emu, k, m->addr, &e))
            send(s, t + c->msg_lat, M_EDACK, k, 0, e);
        break;
    }
    case M_CONF:
        stc_emu_conflict(&s->emu, k, m->addr, NULL);
        break;
    case M_READY:
        if (stc_emu_ready(&s->emu, k, &s->chg, &s->chg_seb) == 1) {
            stc_elist_format(&s->chg, buf, sizeof buf);
            fprintf(s->log, "%" PRIu64 " CHG %s %u\n", t, buf, s->chg_seb);
            fprintf(s->ep, "EPOCH %s %u", buf, s->chg_seb);
            if (s->cycles)
                fprintf(s->ep, " @%" PRIu64, t);
            fputc('\n', s->ep);
            send(s, t + c->msg_lat, M_CHG, 0, 0, 0);
        }
        break;
    case M_DONE: {
        stc_elist el;
        unsigned seb;
        if (stc_emu_done(&s->emu, k, &el, &seb) == 1) {
            stc_elist_format(&el, buf, sizeof buf);
            fprintf(s->log, "%" PRIu64 " END %s %u\n", t, buf, seb);
            s->wake_at = t + c->emu.wake;
        }
        break;
    }
    case M_PREP:
        if (stc_cu_prepare(u->cu) == 1)
            ready_sent(s, k);
        break;
    case M_CHG:
        change_epoch(s);
        break;
    case M_DONESEND:
        fprintf(s->log, "%" PRIu64 " DONE %u\n", t, k);
        send(s, t + c->msg_lat, M_DONE, k, 0, 0);
        break;
    case M_EDACK:
        stc_cu_demand_ack(u->cu, m->value);
        break;
    case M_L2_ST:
    case M_L2_AMO:
    case M_L2_LD:
        l2_access(s, m);
        break;
    case M_WA:
    case M_AMOV: {
        stc_l1_result lr;
        pend *x = pd_find(u, m->addr);
        if (m->kind == M_AMOV) {
            stc_l1_amo_data(u->l1, m->addr, &lr);
            if (x) {
                u->res[x->op] = m->value;
                u->has[x->op] = 1;
            }
            fprintf(s->log, "%" PRIu64 " LDV %u 0x%" PRIx64 " %" PRIu32 "\n", t, k, m->addr,
                    m->value);
            if (u->wait == W_AMO && x && x->op == u->pc) {
                u->wait = W_NONE;
                u->pc++;
            }
        }
        stc_l1_wa(u->l1, m->addr, &lr);
        fprintf(s->log, "%" PRIu64 " WA %u 0x%" PRIx64 "\n", t, k, m->addr);
        pd_del(u, m->addr);
        if (stc_cu_write_ack(u->cu) == 1)
            ready_sent(s, k);
        break;
    }
    case M_DATA: {
        stc_l1_fill f;
        uint64_t line = line_of(s, m->addr);
        if (stc_l1_data(u->l1, m->addr, m->words, &f) == 0) {
            if (f.evicted)
                log_inv(s, k, 1, &f.victim);
            if (f.to == STC_L1_V)
                fprintf(s->log, "%" PRIu64 " FILL %u 0x%" PRIx64 "\n", t, k, line);
        }
        deliver(s, k, m->addr, m->words[(m->addr - line) / 4]);
        free(m->words);
        break;
    }
    }
}

/* The L1 port of CU k: the oldest store past the epoch check. 1 if used. */
static int l1_store(sys *s, unsigned k)
{
    scu *u = &s->u[k];
    stc_l1_result r;
    uint64_t a;
    pend *x;
    if (u->sqn == 0)
        return 0;
    a = u->sq[u->sqh];
    stc_l1_access(u->l1, STC_L1_OP_ST, a, &r);
    log_inv(s, k, r.ninv, r.inv);
    if (r.stall != STC_L1_GO)
        return 0;
    u->sqh = (u->sqh + 1) % u->sqc;
    u->sqn--;
    x = pd_find(u, a);
    l2_send(s, k, x && x->amo ? M_L2_AMO : M_L2_ST, a, x ? x->value : 0);
    return 1;
}

static void thread_step(sys *s, unsigned k, int port_used)
{
    scu *u = &s->u[k];
    const stc_op *o;
    if (u->wait == W_NOP && s->t >= u->nop_until)
        u->wait = W_NONE;
    if (u->wait != W_NONE || u->pc >= s->p->nops[k])
        return;
    o = &s->p->ops[k][u->pc];
    switch (o->kind) {
    case STC_OP_NOP:
        u->pc++;
        if (o->value > 1) {
            u->wait = W_NOP;
            u->nop_until = s->t + o->value;
        }
        return;
    case STC_OP_WAIT:
        if (u->npd == 0)
            u->pc++;
        return;
    case STC_OP_ST:
    case STC_OP_STREL:
    case STC_OP_AMO: {
        stc_cu_st_res r;
        if ((o->kind == STC_OP_STREL && u->npd) || pd_find(u, o->addr))
            return; /* release waits for older stores; coalescer rule */
        r = stc_cu_store(u->cu, o->addr);
        if (r.kind == STC_CU_STALLED)
            return;
        if (pd_add(u, o->addr, o->value, o->kind == STC_OP_AMO, u->pc) != 0)
            s->oom = 1;
        if (r.kind == STC_CU_ISSUED) {
            fprintf(s->log, "%" PRIu64 " ISS %u 0x%" PRIx64 "\n", s->t, k, o->addr);
            if (sq_push(u, o->addr) != 0)
                s->oom = 1;
        } else {
            fprintf(s->log, "%" PRIu64 " BLK %u 0x%" PRIx64 "\n", s->t, k, o->addr);
            if (r.demand)
                send(s, s->t + s->c->msg_lat, M_DEM, k, o->addr, 0);
        }
        if (o->kind == STC_OP_AMO)
            u->wait = W_AMO;
        else
            u->pc++;
        return;
    }
    case STC_OP_LD:
    case STC_OP_LDACQ: {
        stc_l1_result r;
        stc_cu_ld_res lr;
        uint64_t line = line_of(s, o->addr);
        if (port_used || pd_find(u, o->addr))
            return;
        stc_l1_access(u->l1, STC_L1_OP_LD, o->addr, &r);
        log_inv(s, k, r.ninv, r.inv);
        if (r.stall != STC_L1_GO)
            return;
        lr = stc_cu_load(u->cu, o->addr);
        if (lr.conflict)
            send(s, s->t + s->c->msg_lat, M_CONF, k, o->addr, 0);
        if (r.act == STC_L1_ACT_HIT) {
            uint32_t v = r.data ? r.data[(o->addr - line) / 4] : 0;
            fprintf(s->log, "%" PRIu64 " HIT %u 0x%" PRIx64 " %" PRIu32 "\n", s->t, k, o->addr, v);
            deliver(s, k, o->addr, v);
        } else {
            u->wait = W_LOAD;
            l2_send(s, k, M_L2_LD, o->addr, 0);
        }
        return;
    }
    }
}

static int finished(const sys *s)
{
    unsigned k;
    for (k = 0; k < s->c->emu.cus; k++) {
        const scu *u = &s->u[k];
        if (u->pc < s->p->nops[k] || u->wait != W_NONE || u->npd || u->sqn)
            return 0;
    }
    return 1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Every allocation of a run. */
static void sys_free(sys *s)
{
    unsigned k;
    while (s->q.n) {
        msg m = m_pop(&s->q);
        free(m.words);
    }
    free(s->q.h);
    for (k = 0; s->u && k < s->c->emu.cus; k++) {
        stc_cu_free(s->u[k].cu);
        stc_l1_free(s->u[k].l1);
        free(s->u[k].pd);
        free(s->u[k].sq);
        free(s->u[k].res);
        free(s->u[k].has);
    }
    free(s->u);
    free(s->mem.t);
    free(s->l2lines.t);
    free(s->drn);
    free(s->dem);
}

void stc_sys_chk_cfg(const stc_sys_cfg *c, stc_chk_cfg *k)
{
    stc_chk_cfg_default(k);
    k->cus = c->emu.cus;
    k->n = c->emu.n;
    k->seb = c->emu.seb;
    k->line = c->l1.line;
    k->addr_bits = c->emu.addr_bits;
    k->guard = c->emu.seb_guard;
    k->variant = (stc_chk_variant)c->emu.variant;
    stc_eset_of(&c->emu.epoch, &k->epoch);
}

/* The checker on the log: its VIOL lines (and a timeout) and RESULT. */
static long check_log(const sys *s, const char *logtxt, size_t loglen, int timeout, FILE *out)
{
    stc_chk_cfg cc;
    stc_log_lim lim;
    stc_ev *ev = NULL;
    size_t n = 0, i, nv;
    char why[300];
    FILE *f;
    stc_chk *k;
    stc_sys_chk_cfg(s->c, &cc);
    lim.cus = cc.cus;
    lim.n = cc.n;
    lim.addr_bits = cc.addr_bits;
    f = fmemopen((void *)logtxt, loglen ? loglen : 1, "r");
    if (f == NULL)
        return -1;
    if (loglen == 0)
        n = 0;
    else if (stc_log_read(f, &lim, &ev, &n, why, sizeof why) != 0) {
        fclose(f);
        fprintf(out, "VIOL log @%" PRIu64 " the event log does not parse: %s\nRESULT FAIL\n", s->t,
                why);
        return 1;
    }
    fclose(f);
    k = stc_chk_new(&cc);
    if (k == NULL) {
        free(ev);
        return -1;
    }
    for (i = 0; i < n; i++)
        stc_chk_event(k, &ev[i]);
    free(ev);
    {
        char *txt = NULL, *res;
        size_t tl = 0;
        FILE *m = open_memstream(&txt, &tl);
        if (m == NULL) {
            stc_chk_free(k);
            return -1;
        }
        nv = stc_chk_finish(k, m);
        fclose(m);
        res = strstr(txt, "RESULT ");
        if (res)
            *res = '\0';
        fputs(txt, out);
        free(txt);
    }
    stc_chk_free(k);
    if (timeout) {
        fprintf(out, "VIOL timeout @%" PRIu64 " program not finished after %" PRIu64 " cycles\n",
                s->t, s->c->max_cycles);
        nv++;
    }
    fprintf(out, "RESULT %s\n", nv ? "FAIL" : "PASS");
    return (long)nv;
}

long stc_sys_run(const stc_sys_cfg *c, const stc_prog *p, int cycles, FILE *out, FILE *log,
                 stc_sys_stats *st)
{
    sys s;
    unsigned k;
    size_t i, na = 0;
    char *logtxt = NULL, *eptxt = NULL;
    size_t loglen = 0, eplen = 0;
    uint64_t *addrs = NULL;
    int timeout = 0;
    long nv = -1;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.p = p;
    s.cycles = cycles;
    s.log = open_memstream(&logtxt, &loglen);
    s.ep = open_memstream(&eptxt, &eplen);
    s.u = calloc(c->emu.cus, sizeof *s.u);
    s.drn = calloc(c->cu.bsq.entries, sizeof *s.drn);
    s.dem = calloc(1u << c->emu.n, sizeof *s.dem);
    if (s.log == NULL || s.ep == NULL || s.u == NULL || s.drn == NULL || s.dem == NULL ||
        p->cus != c->emu.cus)
        goto out;
    stc_emu_init(&s.emu, &c->emu);
    s.wake_at = c->emu.wake;
    for (k = 0; k < c->emu.cus; k++) {
        s.u[k].cu = stc_cu_new(&c->cu);
        s.u[k].l1 = stc_l1_new(&c->l1);
        s.u[k].res = calloc(p->nops[k] + 1, sizeof *s.u[k].res);
        s.u[k].has = calloc(p->nops[k] + 1, 1);
        if (!s.u[k].cu || !s.u[k].l1 || !s.u[k].res || !s.u[k].has)
            goto out;
    }
    for (i = 0; i < p->nmem; i++) {
        if (kv_put(&s.mem, p->mem[i].addr, p->mem[i].value) != 0)
            goto out;
    }
    /* the initial memory, as the checker sees it (last MEM of an address) */
    for (i = 0; i < p->nmem; i++)
        fprintf(s.log, "0 INIT 0x%" PRIx64 " %" PRIu32 "\n", p->mem[i].addr, p->mem[i].value);

    for (s.t = 0;; s.t++) {
        if (s.t >= c->max_cycles) {
            timeout = 1;
            break;
        }
        while (s.q.n && s.q.h[0].t <= s.t) {
            msg m = m_pop(&s.q);
            handle(&s, &m);
        }
        if (s.emu.phase == STC_IDLE && s.t >= s.wake_at) {
            stc_elist tgt;
            stc_wake_res w = stc_emu_wake(&s.emu, &tgt);
            if (w == STC_WAKE_PREP) {
                fprintf(s.log, "%" PRIu64 " PREP\n", s.t);
                for (k = 0; k < c->emu.cus; k++)
                    send(&s, s.t + c->msg_lat, M_PREP, k, 0, 0);
            } else if (w == STC_WAKE_SLEEP) {
                fprintf(s.log, "%" PRIu64 " SLEEP\n", s.t);
                s.wake_at = s.t + c->emu.wake;
            }
        }
        for (k = 0; k < c->emu.cus; k++) {
            int used = l1_store(&s, k);
            unsigned occ;
            thread_step(&s, k, used);
            occ = stc_bsq_count(stc_cu_bsq(s.u[k].cu));
            if (occ > s.max_bsq)
                s.max_bsq = occ;
        }
        if (s.oom)
            goto out;
        if (finished(&s))
            break;
    }
    fflush(s.log);
    fflush(s.ep);

    /* output: EPOCH, LDV, AMOV, MEM, VIOL, RESULT, statistics */
    fwrite(eptxt, 1, eplen, out);
    for (k = 0; k < c->emu.cus; k++)
        for (i = 0; i < p->nops[k]; i++) {
            const stc_op *o = &p->ops[k][i];
            if (!s.u[k].has[i])
                continue;
            fprintf(out, "%s %u %zu 0x%" PRIx64 " %" PRIu32 "\n",
                    o->kind == STC_OP_AMO ? "AMOV" : "LDV", k, i, o->addr, s.u[k].res[i]);
        }
    addrs = malloc((p->nmem + 1) * sizeof *addrs);
    for (k = 0; addrs && k < c->emu.cus; k++) {
        uint64_t *na2 = realloc(addrs, (p->nmem + 1 + na + p->nops[k]) * sizeof *addrs);
        if (na2 == NULL)
            break;
        addrs = na2;
        for (i = 0; i < p->nops[k]; i++)
            if (p->ops[k][i].kind != STC_OP_WAIT && p->ops[k][i].kind != STC_OP_NOP)
                addrs[na++] = p->ops[k][i].addr;
    }
    if (addrs == NULL)
        goto out;
    for (i = 0; i < p->nmem; i++)
        addrs[na++] = p->mem[i].addr;
    qsort(addrs, na, sizeof *addrs, cmp_u64);
    for (i = 0; i < na; i++)
        if (i == 0 || addrs[i] != addrs[i - 1])
            fprintf(out, "MEM 0x%" PRIx64 " %" PRIu32 "\n", addrs[i], mem_rd(&s, addrs[i]));
    nv = check_log(&s, logtxt, loglen, timeout, out);
    fprintf(out, "# transitions=%" PRIu64 " sleeps=%" PRIu64 " seb_changes=%" PRIu64
                 " final_seb=%u cycles=%" PRIu64 " max_bsq=%u\n",
            s.emu.transitions, s.emu.sleeps, s.emu.seb_changes, s.emu.seb, s.t, s.max_bsq);
    if (log)
        fwrite(logtxt, 1, loglen, log);
    if (st) {
        st->cycles = s.t;
        st->timeout = timeout;
        st->transitions = s.emu.transitions;
        st->sleeps = s.emu.sleeps;
        st->seb_changes = s.emu.seb_changes;
        st->final_seb = s.emu.seb;
        st->max_bsq = s.max_bsq;
    }
out:
    if (s.log)
        fclose(s.log);
    if (s.ep)
        fclose(s.ep);
    free(logtxt);
    free(eptxt);
    free(addrs);
    sys_free(&s);
    return nv;
}
