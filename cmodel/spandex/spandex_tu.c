/*
 * Spandex translation units: see spandex_tu.h (spec 2.3, 4, 9.4, 9.5).
 */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "spandex_tu.h"

#define ENTS_MAX 256 /* open requests of one device                        */
#define NONE ((size_t)-1)

/* An external request delayed until the own ReqO+data data arrived. */
typedef struct {
    spandex_msg_kind kind;
    unsigned src, req;
    uint64_t mask;
} deferred;

/* One open request (an MSHR entry): the request sent, the requested and
 * received masks and the merged data. */
typedef struct {
    int used;
    uint64_t serial;
    spandex_msg_kind kind;
    uint64_t line, mask, recv;
    uint64_t got;            /* ReqV: words that came with data (RspV)     */
    uint64_t lost;           /* pending O: words downgraded before the own */
                             /* response (end in I)                        */
    uint64_t moot;           /* ReqWB: words a downgrade already answered  */
    uint64_t skip;           /* ReqV: words the device has newer           */
    size_t op;               /* LD, RMW, EVICT served (NONE: stores only)  */
    int repl;                /* a Nack replacement                         */
    unsigned op_kind;        /* ReqWT+data / RMW: the operation            */
    uint64_t operand;
    unsigned char nacks[SPANDEX_LLC_WORDS_MAX];
    uint64_t data[SPANDEX_LLC_WORDS_MAX];
    deferred *dfr;           /* external requests delayed until complete   */
    unsigned ndfr, cdfr;
    /* MESI (line entries) */
    uint64_t pw;             /* ReqO+data: words the pending stores wrote  */
    uint64_t pv[SPANDEX_LLC_WORDS_MAX]; /* their values (the last store)  */
    uint64_t gs, go, gv;     /* ReqS: words answered RspS, RspO+data, RspV */
    int inv;                 /* ReqS: an Inv arrived during the fill (X14) */
} ent;

typedef struct {
    uint64_t line, valid, owned;
    uint64_t data[SPANDEX_LLC_WORDS_MAX];
} l1line;

typedef struct {
    uint64_t line, mask, serial;
    uint64_t data[SPANDEX_LLC_WORDS_MAX];
} wbline;

struct spandex_tu {
    spandex_tu_cfg c;
    const spandex_sop *ops;
    size_t nops;
    spandex_tu_env env;
    uint64_t full;
    size_t *q, qh, qt;        /* queued operations                         */
    size_t blocked;           /* the operation the device waits for         */
    uint64_t *att;            /* per op: the serial of its entry / buffer   */
    unsigned char *done;      /* per op: completed                          */
    unsigned char *res_ok;    /* per op: 1 when the value is known          */
    uint64_t *res;            /* per op: LD / RMW value                     */
    unsigned stores;          /* stores issued and not complete            */
    uint64_t serial;
    unsigned ne;              /* entries e[ne..] were never used: the loops */
                              /* over entries stop at ne                    */
    l1line *l1;
    size_t nl1, capl1;
    wbline *wb;
    unsigned nwb;
    int failed;
    int extra;                /* the LLC sends extra words: ask one word   */
    /* last: not cleared at creation (an entry is cleared when first used),
     * so a short run touches only the entries it uses */
    ent e[ENTS_MAX];
};

/* ------------------------------------------------------------ helpers -- */
/* A cache that owns whole lines: MESI, and DeNovo in the line baseline. */
static int line_owner(const spandex_tu *t)
{
    return t->c.kind == SPANDEX_TU_MESI || (t->c.kind == SPANDEX_TU_DENOVO && t->c.line_gran);
}

static uint64_t line_of(const spandex_tu *t, uint64_t a) { return a & ~(uint64_t)(t->c.words * t->c.word - 1); }
static unsigned word_of(const spandex_tu *t, uint64_t a) { return (unsigned)(a / t->c.word % t->c.words); }
static uint64_t vmask(const spandex_tu *t) { return t->c.word == 8 ? ~0ull : 0xffffffffull; }

static void fail(spandex_tu *t, const char *fmt, const char *what, uint64_t line, uint64_t mask)
{
    char buf[200];
    if (t->failed)
        return;
    t->failed = 1;
    snprintf(buf, sizeof buf, fmt, t->c.id, what, (unsigned long long)line, (unsigned long long)mask);
    t->env.fail(t->env.ctx, buf);
}

static l1line *l1_get(spandex_tu *t, uint64_t line, int make)
{
    size_t i;
    for (i = 0; i < t->nl1; i++)
        if (t->l1[i].line == line)
            return &t->l1[i];
    if (!make)
        return NULL;
    if (t->nl1 == t->capl1) {
        size_t cap = t->capl1 ? 2 * t->capl1 : 16;
        l1line *p = realloc(t->l1, cap * sizeof *p);
        if (!p) {
            fail(t, "device %u: out of memory (%s 0x%llx 0x%llx)", "L1", line, 0);
            return NULL;
        }
        t->l1 = p;
        t->capl1 = cap;
    }
    memset(&t->l1[t->nl1], 0, sizeof t->l1[0]);
    t->l1[t->nl1].line = line;
    return &t->l1[t->nl1++];
}

static void send(spandex_tu *t, unsigned dst, spandex_msg_kind k, uint64_t line, uint64_t mask, unsigned req,
                 const uint64_t *v)
{
    spandex_msg m;
    unsigned w;
    memset(&m, 0, sizeof m);
    m.kind = k;
    m.dev = t->c.id;
    m.req = req;
    m.line = line;
    m.mask = mask;
    if (v)
        for (w = 0; w < t->c.words; w++)
            if (mask >> w & 1)
                m.v[w] = v[w];
    t->env.send(t->env.ctx, t->c.id, dst, &m);
}

/* Words of line in open requests (ReqWB: those not yet answered). */
static uint64_t busy(const spandex_tu *t, uint64_t line)
{
    uint64_t b = 0;
    unsigned i;
    for (i = 0; i < t->ne; i++)
        if (t->e[i].used && t->e[i].line == line)
            b |= t->e[i].kind == SPANDEX_REQWB ? t->e[i].mask : t->e[i].mask & ~t->e[i].recv;
    return b;
}

static ent *ent_new(spandex_tu *t, spandex_msg_kind k, uint64_t line, uint64_t mask, size_t op)
{
    unsigned i;
    /* the first free entry: one used before, or the next never used */
    for (i = 0; i < ENTS_MAX; i++)
        if (i >= t->ne || !t->e[i].used) {
            ent *e = &t->e[i];
            deferred *keep = i < t->ne ? e->dfr : NULL;
            unsigned cap = i < t->ne ? e->cdfr : 0;
            if (i >= t->ne)
                t->ne = i + 1;
            memset(e, 0, sizeof *e);
            e->dfr = keep; /* the delay buffer is reused */
            e->cdfr = cap;
            e->used = 1;
            e->serial = ++t->serial;
            e->kind = k;
            e->line = line;
            e->mask = mask;
            e->op = op;
            return e;
        }
    fail(t, "device %u: more than 256 open requests (%s 0x%llx 0x%llx)", spandex_msg_name(k), line, mask);
    return NULL;
}

/* The open request of line waiting for word w, or NULL. */
static ent *ent_word(spandex_tu *t, uint64_t line, unsigned w)
{
    unsigned i;
    for (i = 0; i < t->ne; i++) {
        ent *e = &t->e[i];
        if (e->used && e->line == line && (e->mask & ~e->recv) >> w & 1)
            return e;
    }
    return NULL;
}

static void op_done(spandex_tu *t, size_t i, int has_v, uint64_t v)
{
    if (t->done[i])
        return;
    t->done[i] = 1;
    if (t->ops[i].kind == SPANDEX_SOP_ST)
        t->stores--;
    if (t->blocked == i)
        t->blocked = NONE;
    t->env.done(t->env.ctx, i, has_v, v);
}

/* Completes the stores attached to serial s, in program order. */
static void stores_done(spandex_tu *t, uint64_t s)
{
    size_t i;
    for (i = 0; i < t->nops; i++)
        if (t->att[i] == s && !t->done[i] && t->ops[i].kind == SPANDEX_SOP_ST)
            op_done(t, i, 0, 0);
}

/* 1 when operation i still has an open request. */
static int op_open(const spandex_tu *t, size_t i)
{
    unsigned k;
    for (k = 0; k < t->ne; k++)
        if (t->e[k].used && t->e[k].op == i && t->e[k].kind != SPANDEX_REQWB)
            return 1;
    return 0;
}

/* Sends entry e's request. */
static void ent_send(spandex_tu *t, ent *e)
{
    spandex_msg m;
    unsigned w;
    memset(&m, 0, sizeof m);
    m.kind = e->kind;
    m.dev = t->c.id;
    m.line = e->line;
    m.mask = e->mask;
    m.op = e->op_kind;
    for (w = 0; w < t->c.words; w++)
        if (e->mask >> w & 1)
            m.v[w] = e->kind == SPANDEX_REQWTDATA ? e->operand : e->data[w];
    t->env.send(t->env.ctx, t->c.id, SPANDEX_TU_LLC, &m);
}

/* ------------------------------------------------------ write buffer -- */
static int wb_find(const spandex_tu *t, uint64_t line)
{
    unsigned i;
    for (i = 0; i < t->nwb; i++)
        if (t->wb[i].line == line)
            return (int)i;
    return -1;
}

/* Sends buffer line i as one request unless its words conflict with an
 * open request: 1 sent, 0 kept. GPU coherence: ReqWT with the data; DeNovo:
 * ReqO, the words written into the L1 and owned (pending I->O). */
static int wb_flush(spandex_tu *t, unsigned i)
{
    wbline *b = &t->wb[i];
    int gpu = t->c.kind == SPANDEX_TU_GPU;
    l1line *l = gpu ? NULL : l1_get(t, b->line, 1);
    ent *e;
    size_t k;
    unsigned w;
    if ((busy(t, b->line) & b->mask) || (!gpu && !l))
        return 0;
    e = ent_new(t, gpu ? SPANDEX_REQWT : SPANDEX_REQO, b->line, b->mask, NONE);
    if (!e)
        return 0;
    memcpy(e->data, b->data, sizeof e->data);
    if (!gpu) {
        for (w = 0; w < t->c.words; w++)
            if (b->mask >> w & 1)
                l->data[w] = b->data[w];
        l->owned |= b->mask;
        l->valid |= b->mask;
    }
    for (k = 0; k < t->nops; k++)
        if (t->att[k] == b->serial) {
            t->att[k] = e->serial;
            t->env.issued(t->env.ctx, k); /* the watchdog counts from here */
        }
    ent_send(t, e);
    memmove(&t->wb[i], &t->wb[i + 1], (t->nwb - i - 1) * sizeof *b);
    t->nwb--;
    return 1;
}

static void wb_flush_all(spandex_tu *t)
{
    unsigned i = 0;
    while (i < t->nwb)
        if (!wb_flush(t, i))
            i++;
}

/* ---------------------------------------------------------- the issue -- */
typedef enum { ISS_WAIT, ISS_DONE, ISS_NONBLOCK, ISS_BLOCK } iss;

static void res_set(spandex_tu *t, size_t i, uint64_t v)
{
    t->res[i] = v;
    t->res_ok[i] = 1;
}

/* A load: the value from the write buffer, an own write in flight or the
 * L1 (DONE), else a ReqV of the missing words (BLOCK) or WAIT. */
static iss issue_ld(spandex_tu *t, size_t i)
{
    const spandex_sop *o = &t->ops[i];
    uint64_t line = line_of(t, o->addr), b, miss;
    unsigned w = word_of(t, o->addr);
    int k = wb_find(t, line);
    l1line *l = l1_get(t, line, 0);
    ent *e;
    if (k >= 0 && t->wb[k].mask >> w & 1) {
        res_set(t, i, t->wb[k].data[w]);
        return ISS_DONE;
    }
    e = ent_word(t, line, w);
    if (e && (e->kind == SPANDEX_REQWT || e->kind == SPANDEX_REQO)) {
        res_set(t, i, e->kind == SPANDEX_REQO ? l->data[w] : e->data[w]);
        return ISS_DONE;
    }
    if (l && ((l->valid | l->owned) >> w & 1) && !e) {
        res_set(t, i, l->data[w]);
        return ISS_DONE;
    }
    if (e)
        return ISS_WAIT;
    b = busy(t, line) | (k >= 0 ? t->wb[k].mask : 0);
    miss = t->full & ~b;
    if (t->c.kind == SPANDEX_TU_DENOVO && l)
        miss &= ~(l->valid | l->owned);
    if (t->c.kind == SPANDEX_TU_DENOVO && t->extra && !t->c.line_gran)
        miss = 1ull << w; /* Table II: word granularity, the LLC adds the rest */
    if (t->c.line_gran) {
        /* the line baseline answers the whole line: ask it once no request
         * of the line is open; the buffered words stay newer */
        if (busy(t, line))
            return ISS_WAIT;
        miss = t->full;
    }
    e = ent_new(t, SPANDEX_REQV, line, miss, i);
    if (!e)
        return ISS_WAIT;
    if (t->c.line_gran && k >= 0)
        e->skip = t->wb[k].mask;
    ent_send(t, e);
    return ISS_BLOCK;
}

/* A store into the write buffer (the oldest line leaves when a new line
 * is needed and the buffer is full). DeNovo: an owned word is written at
 * once (DONE); a word whose ReqO is in flight is written locally and the
 * store joins that request, unless a downgrade took the word meanwhile. */
static iss issue_st(spandex_tu *t, size_t i)
{
    const spandex_sop *o = &t->ops[i];
    uint64_t line = line_of(t, o->addr);
    unsigned w = word_of(t, o->addr);
    int k = wb_find(t, line);
    if (t->c.kind == SPANDEX_TU_DENOVO && !(k >= 0 && t->wb[k].mask >> w & 1)) {
        ent *e = ent_word(t, line, w);
        l1line *l = l1_get(t, line, 0);
        /* a word a downgrade took while its ReqO was in flight takes no
         * store until that ReqO completes: the answer already left */
        if (e && (e->kind != SPANDEX_REQO || e->lost >> w & 1))
            return ISS_WAIT;
        if (e || (l && l->owned >> w & 1)) {
            l->data[w] = o->v;
            t->stores++; /* op_done counts every store down */
            if (!e)
                return ISS_DONE;
            t->att[i] = e->serial;
            return ISS_NONBLOCK;
        }
    }
    if (k < 0) {
        if (t->nwb == t->c.wb_lines && !wb_flush(t, 0))
            return ISS_WAIT;
        k = (int)t->nwb++;
        memset(&t->wb[k], 0, sizeof t->wb[k]);
        t->wb[k].line = line;
        t->wb[k].serial = ++t->serial;
    }
    t->wb[k].mask |= 1ull << w;
    t->wb[k].data[w] = o->v;
    t->att[i] = t->wb[k].serial;
    t->stores++;
    return ISS_NONBLOCK;
}

/* An RMW: performed locally on an owned DeNovo word, else ReqWT+data (GPU,
 * DeNovo wtdata) or ReqO+data (DeNovo). */
static iss issue_rmw(spandex_tu *t, size_t i)
{
    const spandex_sop *o = &t->ops[i];
    uint64_t line = line_of(t, o->addr);
    unsigned w = word_of(t, o->addr);
    int k;
    l1line *l = l1_get(t, line, 0);
    ent *e;
    wb_flush_all(t);
    k = wb_find(t, line);
    if ((k >= 0 && t->wb[k].mask >> w & 1) || busy(t, line) >> w & 1)
        return ISS_WAIT;
    if (t->c.kind == SPANDEX_TU_DENOVO && l && l->owned >> w & 1) {
        res_set(t, i, l->data[w]);
        l->data[w] = spandex_op_apply(o->op, l->data[w], o->v, t->c.word * 8);
        return ISS_DONE;
    }
    if (t->c.kind == SPANDEX_TU_GPU || t->c.rmw_wtdata) {
        e = ent_new(t, SPANDEX_REQWTDATA, line, 1ull << w, i);
        if (!e)
            return ISS_WAIT;
        e->op_kind = o->op;
        e->operand = o->v;
    } else {
        e = ent_new(t, SPANDEX_REQODATA, line, 1ull << w, i);
        if (!e)
            return ISS_WAIT;
        e->op_kind = o->op;
        e->operand = o->v;
    }
    ent_send(t, e);
    return ISS_BLOCK;
}

/* EVICT: V words dropped silently; DeNovo owned words leave by ReqWB (the
 * data stays in the entry until RspWB or a downgrade). */
static iss issue_evict(spandex_tu *t, size_t i)
{
    uint64_t line = line_of(t, t->ops[i].addr), own;
    l1line *l = l1_get(t, line, 0);
    ent *e;
    if (!l)
        return ISS_DONE;
    own = l->owned;
    if (own & busy(t, line))
        return ISS_WAIT;
    if (!own) {
        l->valid = 0;
        return ISS_DONE;
    }
    e = ent_new(t, SPANDEX_REQWB, line, own, i);
    if (!e)
        return ISS_WAIT;
    memcpy(e->data, l->data, sizeof e->data);
    l->valid = l->owned = 0;
    ent_send(t, e);
    return ISS_NONBLOCK;
}

/* ACQ: self-invalidation of V data (the GPU buffer leaves first). */
static iss issue_acq(spandex_tu *t)
{
    size_t k;
    wb_flush_all(t);
    for (k = 0; k < t->nl1; k++)
        t->l1[k].valid &= t->l1[k].owned;
    return ISS_DONE;
}

static iss mesi_issue(spandex_tu *t, size_t i);

static iss issue(spandex_tu *t, size_t i)
{
    if (line_owner(t))
        return mesi_issue(t, i);
    switch (t->ops[i].kind) {
    case SPANDEX_SOP_LD: return issue_ld(t, i);
    case SPANDEX_SOP_ST: return issue_st(t, i);
    case SPANDEX_SOP_RMW: return issue_rmw(t, i);
    case SPANDEX_SOP_ACQ: return issue_acq(t);
    case SPANDEX_SOP_REL:
        wb_flush_all(t);
        return t->stores == 0 && t->nwb == 0 ? ISS_DONE : ISS_BLOCK;
    case SPANDEX_SOP_EVICT: return issue_evict(t, i);
    default: return ISS_DONE;
    }
}

void spandex_tu_push(spandex_tu *t, size_t i) { t->q[t->qt++] = i; }

void spandex_tu_extra_words(spandex_tu *t, int on) { t->extra = on; }

void spandex_tu_pump(spandex_tu *t, int idle)
{
    while (!t->failed) {
        size_t i;
        iss r;
        if (t->blocked != NONE) {
            if (t->ops[t->blocked].kind != SPANDEX_SOP_REL)
                break;
            wb_flush_all(t);
            if (t->stores || t->nwb)
                break;
            op_done(t, t->blocked, 0, 0);
            continue;
        }
        if (t->qh == t->qt)
            break;
        i = t->q[t->qh];
        r = issue(t, i);
        if (r == ISS_WAIT)
            break;
        t->qh++;
        t->env.issued(t->env.ctx, i);
        if (r == ISS_DONE)
            op_done(t, i, t->res_ok[i], t->res[i]);
        else if (r == ISS_BLOCK)
            t->blocked = i;
    }
    if (idle && !t->failed && t->qh == t->qt && t->blocked == NONE)
        wb_flush_all(t);
}

/* ------------------------------------------------- external requests -- */
/* How the device holds word w of line for Table IV's columns. */
typedef enum { HOLD_OTHER, HOLD_O, HOLD_PEND_O, HOLD_PEND_RMW, HOLD_WB } hold;

static hold hold_of(spandex_tu *t, uint64_t line, unsigned w, ent **pe)
{
    unsigned i;
    l1line *l = l1_get(t, line, 0);
    *pe = NULL;
    for (i = 0; i < t->ne; i++) {
        ent *e = &t->e[i];
        if (!e->used || e->line != line)
            continue;
        *pe = e;
        if (e->kind == SPANDEX_REQWB && ((e->mask & ~e->moot) >> w & 1))
            return HOLD_WB;
        if (!((e->mask & ~e->recv) >> w & 1))
            continue;
        if (e->kind == SPANDEX_REQO)
            return HOLD_PEND_O;
        if (e->kind == SPANDEX_REQODATA)
            return HOLD_PEND_RMW;
    }
    *pe = NULL;
    if (t->c.kind == SPANDEX_TU_DENOVO && l && l->owned >> w & 1)
        return HOLD_O;
    return HOLD_OTHER;
}

/* The answers to one external request, gathered word by word. */
typedef struct {
    uint64_t ans, nack, down, v[SPANDEX_LLC_WORDS_MAX];
} answer;

static spandex_msg_kind rsp_of(spandex_msg_kind k)
{
    switch (k) {
    case SPANDEX_FWDREQV: return SPANDEX_RSPV;
    case SPANDEX_FWDREQO: return SPANDEX_RSPO;
    case SPANDEX_FWDREQODATA: return SPANDEX_RSPODATA;
    case SPANDEX_RVKO: return SPANDEX_RSPRVKO;
    default: return SPANDEX_RSPS;
    }
}

/* Sends the answer words of an external request (kind k from src). */
static void answer_send(spandex_tu *t, spandex_msg_kind k, unsigned src, unsigned req, uint64_t line,
                        const answer *a)
{
    if (a->ans) {
        if (k == SPANDEX_RVKO)
            send(t, SPANDEX_TU_LLC, SPANDEX_RSPRVKO, line, a->ans, 0, a->v);
        else if (k == SPANDEX_FWDREQS) {
            send(t, req, SPANDEX_RSPS, line, a->ans, 0, a->v);
            send(t, SPANDEX_TU_LLC, SPANDEX_RSPRVKO, line, a->ans, 0, a->v);
        } else
            send(t, req, rsp_of(k), line, a->ans, 0, a->v);
    }
    if (a->nack)
        send(t, req, SPANDEX_NACK, line, a->nack, 0, NULL);
    (void)src;
}

/* One word of an external downgrade or FwdReqV per Table IV (spec 2.3);
 * 0, or 1 when the word waits for the own RMW (delayed). */
static int ext_word(spandex_tu *t, spandex_msg_kind k, uint64_t line, unsigned w, answer *a)
{
    ent *e;
    l1line *l = l1_get(t, line, 0);
    hold h = hold_of(t, line, w, &e);
    uint64_t b = 1ull << w;
    int down = k != SPANDEX_FWDREQV;
    switch (h) {
    case HOLD_O:
        a->ans |= b;
        a->v[w] = l->data[w];
        if (down)
            l->owned &= ~b, l->valid &= ~b;
        return 0;
    case HOLD_PEND_O:
        a->ans |= b;
        a->v[w] = l->data[w];
        if (down)
            e->lost |= b;
        return 0;
    case HOLD_PEND_RMW:
        if (k != SPANDEX_FWDREQO)
            return 1;
        a->ans |= b;
        e->lost |= b;
        return 0;
    case HOLD_WB:
        a->ans |= b;
        a->v[w] = e->data[w];
        if (down)
            e->moot |= b;
        return 0;
    default:
        if (k != SPANDEX_FWDREQV) {
            fail(t, "device %u: %s for words it does not own (line 0x%llx mask 0x%llx)", spandex_msg_name(k),
                 line, b);
            return 0;
        }
        a->nack |= b;
        return 0;
    }
}

/* Delays an external request behind entry e until e completes: 1, or 0
 * after a protocol error. */
static int dfr_push(spandex_tu *t, ent *e, spandex_msg_kind k, unsigned src, unsigned req, uint64_t mask,
                    uint64_t line)
{
    if (!e) {
        fail(t, "device %u: %s delayed with no open request (line 0x%llx mask 0x%llx)", spandex_msg_name(k), line,
             mask);
        return 0;
    }
    if (e->ndfr == e->cdfr) {
        unsigned cap = e->cdfr ? 2 * e->cdfr : 4;
        deferred *p = realloc(e->dfr, cap * sizeof *p);
        if (!p) {
            fail(t, "device %u: out of memory (%s 0x%llx 0x%llx)", spandex_msg_name(k), line, mask);
            return 0;
        }
        e->dfr = p;
        e->cdfr = cap;
    }
    e->dfr[e->ndfr].kind = k;
    e->dfr[e->ndfr].src = src;
    e->dfr[e->ndfr].req = req;
    e->dfr[e->ndfr++].mask = mask;
    return 1;
}

/* An EVICT whose write-back words were all answered by downgrades is
 * complete (its entry stays for the RspWB). */
static void wb_moot_check(spandex_tu *t, uint64_t line)
{
    unsigned i;
    for (i = 0; i < t->ne; i++) {
        ent *e = &t->e[i];
        if (e->used && e->line == line && e->kind == SPANDEX_REQWB && e->moot == e->mask && e->op != NONE)
            op_done(t, e->op, 0, 0);
    }
}

static void ext_request(spandex_tu *t, unsigned src, const spandex_msg *m)
{
    answer a;
    unsigned w, req = m->kind == SPANDEX_RVKO ? 0 : m->req;
    uint64_t delay = 0;
    memset(&a, 0, sizeof a);
    if (t->c.kind == SPANDEX_TU_GPU) {
        if (m->kind != SPANDEX_FWDREQV) {
            fail(t, "device %u: GPU coherence cache received %s (line 0x%llx mask 0x%llx)",
                 spandex_msg_name(m->kind), m->line, m->mask);
            return;
        }
        a.nack = m->mask;
        answer_send(t, m->kind, src, req, m->line, &a);
        return;
    }
    for (w = 0; w < t->c.words; w++)
        if (m->mask >> w & 1 && ext_word(t, m->kind, m->line, w, &a))
            delay |= 1ull << w;
    answer_send(t, m->kind, src, req, m->line, &a);
    if (delay && !dfr_push(t, ent_word(t, m->line, (unsigned)__builtin_ctzll(delay)), m->kind, src, req, delay,
                           m->line))
        return;
    wb_moot_check(t, m->line);
}

/* The delayed external requests of a completed ReqO+data, answered from the
 * L1 after the own RMW. */
static void deferred_answer(spandex_tu *t, ent *e)
{
    unsigned i, w;
    l1line *l = l1_get(t, e->line, 0);
    for (i = 0; i < e->ndfr; i++) {
        answer a;
        memset(&a, 0, sizeof a);
        a.ans = e->dfr[i].mask;
        for (w = 0; w < t->c.words; w++)
            if (a.ans >> w & 1) {
                a.v[w] = l->data[w];
                if (e->dfr[i].kind != SPANDEX_FWDREQV)
                    l->owned &= ~(1ull << w), l->valid &= ~(1ull << w);
            }
        answer_send(t, e->dfr[i].kind, e->dfr[i].src, e->dfr[i].req, e->line, &a);
    }
    e->ndfr = 0;
}

/* ------------------------------------------------------------- MESI -- */
/* A MESI cache keeps lines (spec 4 "MESI TU", Table II): the L1 line is O
 * (M or E: every word owned and valid), S (every word valid, none owned)
 * or I. One request per line at a time: a ReqS(line) for a read miss, a
 * ReqO+data(line) for a write miss, an upgrade or an RMW (the stores wait
 * in the entry and are performed when the whole line has arrived), a
 * ReqWB(line) for a replacement of O, and the ReqWB of the words a
 * word-granularity downgrade left owned. */

/* The open request of line other than a ReqWB, or NULL. */
static ent *mesi_ent(spandex_tu *t, uint64_t line)
{
    unsigned i;
    for (i = 0; i < t->ne; i++)
        if (t->e[i].used && t->e[i].line == line && t->e[i].kind != SPANDEX_REQWB)
            return &t->e[i];
    return NULL;
}

/* The ReqWB of line whose words are not all answered by downgrades, or
 * NULL. */
static ent *mesi_wb(spandex_tu *t, uint64_t line)
{
    unsigned i;
    for (i = 0; i < t->ne; i++)
        if (t->e[i].used && t->e[i].line == line && t->e[i].kind == SPANDEX_REQWB && t->e[i].moot != t->e[i].mask)
            return &t->e[i];
    return NULL;
}

/* A ReqWB of the words `mask` of line with their data (op: the EVICT, or
 * NONE for the words a downgrade left owned). */
static void mesi_writeback(spandex_tu *t, uint64_t line, uint64_t mask, const uint64_t *data, size_t op)
{
    ent *e = ent_new(t, SPANDEX_REQWB, line, mask, op);
    if (!e)
        return;
    memcpy(e->data, data, sizeof e->data);
    ent_send(t, e);
}

static iss mesi_issue(spandex_tu *t, size_t i)
{
    const spandex_sop *o = &t->ops[i];
    uint64_t line = line_of(t, o->addr), b;
    unsigned w = word_of(t, o->addr);
    l1line *l = l1_get(t, line, 0);
    ent *e = mesi_ent(t, line), *x;
    int own = l && l->owned == t->full, busy_line = e || (busy(t, line) != 0);
    b = 1ull << w;
    switch (o->kind) {
    case SPANDEX_SOP_LD:
        if (e && e->kind == SPANDEX_REQODATA && e->pw >> w & 1) {
            res_set(t, i, e->pv[w]); /* the own store waiting for the line */
            return ISS_DONE;
        }
        if (!busy_line && l && l->valid >> w & 1) {
            res_set(t, i, l->data[w]);
            return ISS_DONE;
        }
        if (busy_line)
            return ISS_WAIT;
        /* DeNovo in the line baseline reads with ReqV (V, self-invalidated) */
        if (!(x = ent_new(t, t->c.kind == SPANDEX_TU_MESI ? SPANDEX_REQS : SPANDEX_REQV, line, t->full, i)))
            return ISS_WAIT;
        ent_send(t, x);
        return ISS_BLOCK;
    case SPANDEX_SOP_ST:
        if (!busy_line && own) {
            l->data[w] = o->v;
            t->stores++; /* op_done counts every store down */
            return ISS_DONE;
        }
        /* a store joins the line's ReqO+data unless a downgrade already
         * took words of it (the store would be ordered before that) */
        if (e && e->kind == SPANDEX_REQODATA && e->op == NONE && !e->lost && !e->ndfr) {
            x = e;
        } else {
            if (busy_line || !(x = ent_new(t, SPANDEX_REQODATA, line, t->full, NONE)))
                return ISS_WAIT;
            ent_send(t, x);
        }
        x->pw |= b;
        x->pv[w] = o->v;
        t->att[i] = x->serial;
        t->stores++;
        return ISS_NONBLOCK;
    case SPANDEX_SOP_RMW:
        if (busy_line)
            return ISS_WAIT;
        if (own) {
            res_set(t, i, l->data[w]);
            l->data[w] = spandex_op_apply(o->op, l->data[w], o->v, t->c.word * 8) & vmask(t);
            return ISS_DONE;
        }
        if (t->c.kind == SPANDEX_TU_DENOVO && t->c.rmw_wtdata)
            return issue_rmw(t, i); /* ReqWT+data of the word (SDG's CPUs) */
        if (!(x = ent_new(t, SPANDEX_REQODATA, line, t->full, i)))
            return ISS_WAIT;
        x->op_kind = o->op;
        x->operand = o->v;
        ent_send(t, x);
        return ISS_BLOCK;
    case SPANDEX_SOP_EVICT:
        if (busy_line)
            return ISS_WAIT;
        if (!own) {
            if (l)
                l->valid = 0; /* S: silent */
            return ISS_DONE;
        }
        l->valid = l->owned = 0;
        mesi_writeback(t, line, t->full, l->data, i);
        return ISS_NONBLOCK;
    case SPANDEX_SOP_ACQ: /* MESI: nothing to self-invalidate (9.5 item 8) */
        return t->c.kind == SPANDEX_TU_MESI ? ISS_DONE : issue_acq(t);
    default: return t->stores == 0 ? ISS_DONE : ISS_BLOCK;
    }
}

/* An external request on a MESI line (spec 4, cases 1 to 4). */
static void mesi_ext(spandex_tu *t, unsigned src, const spandex_msg *m)
{
    spandex_msg_kind k = m->kind;
    unsigned w, req = k == SPANDEX_RVKO ? 0 : m->req;
    uint64_t line = m->line, delay = 0, owned_ans = 0;
    l1line *l = l1_get(t, line, 0);
    ent *p = mesi_ent(t, line), *wb = mesi_wb(t, line);
    int down = k != SPANDEX_FWDREQV;
    answer a;
    memset(&a, 0, sizeof a);
    if (p && p->kind != SPANDEX_REQODATA && p->kind != SPANDEX_REQS)
        p = NULL; /* an option-2 replacement holds no ownership */
    for (w = 0; w < t->c.words; w++) {
        uint64_t b = 1ull << w;
        if (!(m->mask & b))
            continue;
        if (wb && (wb->mask & ~wb->moot & b)) { /* case 3: the write-back buffer */
            a.ans |= b;
            a.v[w] = wb->data[w];
            if (down)
                wb->moot |= b;
        } else if (l && l->owned & b) { /* case 1: stable O */
            a.ans |= b;
            a.v[w] = l->data[w];
            owned_ans |= b;
        } else if (p) { /* case 2: pending O */
            if (k == SPANDEX_FWDREQO) {
                a.ans |= b;
                p->lost |= b;
            } else
                delay |= b;
        } else if (!down) {
            a.nack |= b; /* case 4 */
        } else {
            fail(t, "device %u: %s for words it does not own (line 0x%llx mask 0x%llx)", spandex_msg_name(k), line,
                 b);
            return;
        }
    }
    answer_send(t, k, src, req, line, &a);
    if (down && owned_ans) {
        /* case 1: the line leaves O; FwdReqS of every owned word: to S; else
         * to I with a ReqWB of the owned words not asked for (Fig. 1b, 1d) */
        uint64_t rest = l->owned & ~m->mask;
        if (k == SPANDEX_FWDREQS && !rest) {
            l->owned = 0;
        } else {
            l->owned = l->valid = 0;
            if (rest)
                mesi_writeback(t, line, rest, l->data, NONE);
        }
    }
    if (delay && !dfr_push(t, p, k, src, req, delay, line))
        return;
    wb_moot_check(t, line);
}

/* Inv: S to I, Ack; during a ReqS fill the data serves the waiting load
 * only and the line stays I (X14). */
static void mesi_inv(spandex_tu *t, const spandex_msg *m)
{
    l1line *l = l1_get(t, m->line, 0);
    ent *p = mesi_ent(t, m->line);
    if (l && !l->owned)
        l->valid = 0;
    if (p && p->kind == SPANDEX_REQS)
        p->inv = 1;
    send(t, SPANDEX_TU_LLC, SPANDEX_ACK, m->line, m->mask, 0, NULL);
}

/* A MESI ReqS or ReqO+data received every word: install the line, perform
 * the stores and the RMW, answer the delayed external requests and, when a
 * downgrade came during the fill, leave the line in I with a ReqWB of the
 * words still owned (spec 4 case 2). A ReqS answered RspS is S (I after an
 * Inv, X14); answered RspV (option 2) or by replacements it is used once. */
static void mesi_complete(spandex_tu *t, ent *e)
{
    l1line *l = l1_get(t, e->line, 1);
    uint64_t downs = e->lost;
    int owner = e->kind == SPANDEX_REQODATA || (e->go && e->go == e->recv);
    uint64_t line = e->line, serial = e->serial;
    size_t op = e->op;
    unsigned w, i;
    if (!l)
        return;
    if (owner) {
        memcpy(l->data, e->data, sizeof l->data);
        for (w = 0; w < t->c.words; w++)
            if (e->pw >> w & 1)
                l->data[w] = e->pv[w];
        if (op != NONE && t->ops[op].kind == SPANDEX_SOP_RMW) {
            w = word_of(t, t->ops[op].addr);
            res_set(t, op, l->data[w]);
            l->data[w] = spandex_op_apply(e->op_kind, l->data[w], e->operand, t->c.word * 8) & vmask(t);
        }
        l->valid = l->owned = t->full;
    } else if (e->kind == SPANDEX_REQS && e->mask == t->full && e->gs == e->mask && !e->inv) {
        memcpy(l->data, e->data, sizeof l->data);
        l->valid = t->full;
        l->owned = 0;
    }
    for (i = 0; i < e->ndfr; i++) {
        answer a;
        memset(&a, 0, sizeof a);
        if (owner) {
            a.ans = e->dfr[i].mask;
            for (w = 0; w < t->c.words; w++)
                a.v[w] = l->data[w];
            if (e->dfr[i].kind != SPANDEX_FWDREQV)
                downs |= a.ans;
        } else if (e->dfr[i].kind == SPANDEX_FWDREQV) {
            a.nack = e->dfr[i].mask; /* a FwdReqV of an older ownership */
        } else {
            fail(t, "device %u: %s for words it does not own (line 0x%llx mask 0x%llx)",
                 spandex_msg_name(e->dfr[i].kind), e->line, e->dfr[i].mask);
            return;
        }
        answer_send(t, e->dfr[i].kind, e->dfr[i].src, e->dfr[i].req, e->line, &a);
    }
    e->ndfr = 0;
    e->used = 0;
    if (owner && downs) {
        l->valid = l->owned = 0;
        if (t->full & ~downs)
            mesi_writeback(t, line, t->full & ~downs, l->data, NONE);
    }
    stores_done(t, serial);
    if (op != NONE && !t->done[op] && !op_open(t, op))
        op_done(t, op, t->res_ok[op], t->res[op]);
}

/* ----------------------------------------------- the response collector */
/* 1 when response kind r answers a request of kind k (X2: the owner's RspO
 * completes ReqWT words). */
static int answers(spandex_msg_kind k, spandex_msg_kind r)
{
    switch (k) {
    case SPANDEX_REQV: return r == SPANDEX_RSPV || r == SPANDEX_NACK;
    case SPANDEX_REQS: return r == SPANDEX_RSPS || r == SPANDEX_RSPV || r == SPANDEX_RSPODATA || r == SPANDEX_NACK;
    case SPANDEX_REQWT: return r == SPANDEX_RSPWT || r == SPANDEX_RSPO;
    case SPANDEX_REQO: return r == SPANDEX_RSPO;
    case SPANDEX_REQODATA: return r == SPANDEX_RSPODATA;
    case SPANDEX_REQWTDATA: return r == SPANDEX_RSPWTDATA;
    case SPANDEX_REQWB: return r == SPANDEX_RSPWB;
    default: return 0;
    }
}

/* The open request a response answers (SYS7), or NULL. */
static ent *match(spandex_tu *t, const spandex_msg *m)
{
    unsigned i;
    for (i = 0; i < t->ne; i++) {
        ent *e = &t->e[i];
        if (!e->used || e->line != m->line || !answers(e->kind, m->kind) || !m->mask)
            continue;
        if (e->kind == SPANDEX_REQWB ? (m->mask == e->mask) : !(m->mask & ~(e->mask & ~e->recv)))
            return e;
    }
    return NULL;
}

/* Nacked words of a ReqV (III-C 3, X13): a ReqV again, or after nack_limit
 * Nacks of a word the replacement, which the LLC never Nacks. */
static void nacked(spandex_tu *t, ent *e, uint64_t mask)
{
    uint64_t retry = 0, repl = 0;
    unsigned w;
    ent *n;
    for (w = 0; w < t->c.words; w++)
        if (mask >> w & 1) {
            if (e->nacks[w] + 1u >= t->c.nack_limit)
                repl |= 1ull << w;
            else
                retry |= 1ull << w;
        }
    if (retry && t->c.line_gran)
        retry = t->full; /* the line baseline answers the whole line */
    if (retry && (n = ent_new(t, e->kind, e->line, retry, e->op)) != NULL) {
        for (w = 0; w < t->c.words; w++)
            n->nacks[w] = (unsigned char)(e->nacks[w] + 1);
        ent_send(t, n);
    }
    if (repl) {
        spandex_msg_kind k = t->c.kind == SPANDEX_TU_DENOVO && !t->c.rmw_wtdata && !t->c.line_gran
                                 ? SPANDEX_REQODATA
                                 : SPANDEX_REQWTDATA;
        n = ent_new(t, k, e->line, repl, e->op);
        if (n) {
            n->repl = 1;
            n->op_kind = SPANDEX_OP_RD;
            ent_send(t, n);
        }
    }
}

/* Data words of a response into entry e (and the L1 where the words become
 * owned or the op's value is known). */
static void take_data(spandex_tu *t, ent *e, const spandex_msg *m)
{
    unsigned w;
    l1line *l;
    const spandex_sop *o = e->op != NONE ? &t->ops[e->op] : NULL;
    for (w = 0; w < t->c.words; w++) {
        if (!(m->mask >> w & 1))
            continue;
        e->data[w] = m->v[w];
        if (o && (o->kind == SPANDEX_SOP_LD || o->kind == SPANDEX_SOP_RMW) && line_of(t, o->addr) == e->line &&
            word_of(t, o->addr) == w)
            res_set(t, e->op, m->v[w]);
        if (e->kind != SPANDEX_REQODATA || line_owner(t))
            continue;
        l = l1_get(t, e->line, 1);
        if (!l)
            return;
        l->data[w] = e->repl ? m->v[w] : spandex_op_apply(e->op_kind, m->v[w], e->operand, t->c.word * 8);
        l->data[w] &= vmask(t);
        l->owned |= 1ull << w;
        l->valid |= 1ull << w;
    }
}

/* Entry e received every word: install, answer what waited, complete. */
static void ent_complete(spandex_tu *t, ent *e)
{
    l1line *l = l1_get(t, e->line, e->kind != SPANDEX_REQWB);
    unsigned w, i;
    size_t op = e->op;
    if (line_owner(t) && (e->kind == SPANDEX_REQS || e->kind == SPANDEX_REQODATA) && !e->repl) {
        mesi_complete(t, e);
        return;
    }
    if (!l && e->kind != SPANDEX_REQWB)
        return;
    if (e->kind == SPANDEX_REQV)
        for (w = 0; w < t->c.words; w++)
            if ((e->got & ~e->skip) >> w & 1 && !(l->owned >> w & 1)) {
                l->data[w] = e->data[w];
                l->valid |= 1ull << w;
            }
    if (e->kind == SPANDEX_REQWT) {
        for (w = 0; w < t->c.words; w++)
            if (e->mask >> w & 1)
                l->data[w] = e->data[w];
        l->valid |= e->mask;
        for (i = 0; i < t->ne; i++)
            if (t->e[i].used && t->e[i].kind == SPANDEX_REQV && t->e[i].line == e->line)
                t->e[i].skip |= e->mask;
    }
    if (e->kind == SPANDEX_REQWTDATA && !e->repl)
        l->valid &= ~e->mask; /* III-A: the returned value may be stale */
    if (e->kind == SPANDEX_REQODATA)
        deferred_answer(t, e);
    if (e->kind == SPANDEX_REQO || e->kind == SPANDEX_REQODATA) {
        l->owned &= ~e->lost;
        l->valid &= ~e->lost;
    }
    e->used = 0;
    stores_done(t, e->serial);
    if (op != NONE && !t->done[op] && (e->kind == SPANDEX_REQWB || !op_open(t, op)))
        op_done(t, op, t->res_ok[op], t->res[op]);
}

/* Extra words (Table II's DeNovo footnote): a RspV from the LLC naming
 * more words than one open ReqV waits for answers the oldest ReqV of its
 * line that waits for some of them; it returns that entry, *mine gets the
 * words the entry waits for, and the other words are installed in V where
 * the L1 holds the word neither valid nor owned, no open request names it
 * and no buffered store holds it (DeNovo; GPU coherence drops them). Any
 * word another request waits for is neither installed nor counted. NULL
 * when no ReqV of the line waits for a word of m. */
static ent *extra_words(spandex_tu *t, const spandex_msg *m, spandex_msg *mine)
{
    ent *e = NULL;
    uint64_t b, x;
    unsigned i, w;
    int k;
    l1line *l;
    if (m->kind != SPANDEX_RSPV || line_owner(t))
        return NULL;
    for (i = 0; i < t->ne; i++) {
        ent *f = &t->e[i];
        if (f->used && f->kind == SPANDEX_REQV && f->line == m->line && (m->mask & f->mask & ~f->recv) &&
            (!e || f->serial < e->serial))
            e = f;
    }
    if (!e)
        return NULL;
    *mine = *m;
    mine->mask = m->mask & e->mask & ~e->recv;
    x = m->mask & ~mine->mask;
    if (t->c.kind != SPANDEX_TU_DENOVO)
        return e;
    k = wb_find(t, m->line);
    b = k >= 0 ? t->wb[k].mask : 0;
    for (i = 0; i < t->ne; i++) /* every word an open request names */
        if (t->e[i].used && t->e[i].line == m->line)
            b |= t->e[i].mask;
    l = l1_get(t, m->line, 1);
    if (!l)
        return e;
    x &= ~(b | l->valid | l->owned);
    for (w = 0; w < t->c.words; w++)
        if (x >> w & 1) {
            l->data[w] = m->v[w];
            l->valid |= 1ull << w;
        }
    return e;
}

static void response(spandex_tu *t, unsigned src, const spandex_msg *m)
{
    spandex_msg mine;
    ent *e = match(t, m);
    if (!e && src == SPANDEX_TU_LLC && (e = extra_words(t, m, &mine)) != NULL)
        m = &mine;
    if (!e) {
        fail(t, "device %u: %s matches no open request (line 0x%llx mask 0x%llx)", spandex_msg_name(m->kind),
             m->line, m->mask);
        return;
    }
    if (m->kind == SPANDEX_NACK) {
        e->recv |= m->mask;
        nacked(t, e, m->mask);
    } else if (e->kind == SPANDEX_REQWB) {
        e->recv = e->mask;
    } else {
        e->recv |= m->mask;
        if (spandex_msg_has_data(m->kind)) {
            take_data(t, e, m);
            if (e->kind == SPANDEX_REQV)
                e->got |= m->mask;
        }
        if (e->kind == SPANDEX_REQS)
            *(m->kind == SPANDEX_RSPS ? &e->gs : m->kind == SPANDEX_RSPODATA ? &e->go : &e->gv) |= m->mask;
    }
    if (e->recv == e->mask)
        ent_complete(t, e);
}

void spandex_tu_recv(spandex_tu *t, unsigned src, const spandex_msg *m)
{
    if (t->failed)
        return;
    switch (spandex_msg_net(m->kind)) {
    case SPANDEX_NET_FWD:
        if (m->kind == SPANDEX_INV && line_owner(t))
            mesi_inv(t, m);
        else if (m->kind == SPANDEX_INV)
            send(t, SPANDEX_TU_LLC, SPANDEX_ACK, m->line, m->mask, 0, NULL);
        else if (line_owner(t))
            mesi_ext(t, src, m);
        else
            ext_request(t, src, m);
        return;
    case SPANDEX_NET_RSP: response(t, src, m); return;
    default:
        fail(t, "device %u: received %s (line 0x%llx mask 0x%llx)", spandex_msg_name(m->kind), m->line, m->mask);
        return;
    }
}

int spandex_tu_busy(const spandex_tu *t)
{
    unsigned i;
    if (t->qh != t->qt || t->nwb || t->blocked != NONE)
        return 1;
    for (i = 0; i < t->ne; i++)
        if (t->e[i].used)
            return 1;
    return 0;
}

spandex_tu *spandex_tu_new(const spandex_tu_cfg *c, const spandex_sop *ops, size_t nops,
                           const spandex_tu_env *env)
{
    spandex_tu *t = malloc(sizeof *t);
    size_t n = nops ? nops : 1;
    if (!t)
        return NULL;
    memset(t, 0, offsetof(spandex_tu, e));
    t->c = *c;
    t->ops = ops;
    t->nops = nops;
    t->env = *env;
    t->full = c->words == 64 ? ~0ull : (1ull << c->words) - 1;
    t->blocked = NONE;
    t->q = calloc(n, sizeof *t->q);
    t->att = calloc(n, sizeof *t->att);
    t->done = calloc(n, 1);
    t->res_ok = calloc(n, 1);
    t->res = calloc(n, sizeof *t->res);
    t->wb = calloc(c->wb_lines ? c->wb_lines : 1, sizeof *t->wb);
    if (!t->q || !t->att || !t->done || !t->res_ok || !t->res || !t->wb) {
        spandex_tu_free(t);
        return NULL;
    }
    return t;
}

void spandex_tu_free(spandex_tu *t)
{
    unsigned i;
    if (!t)
        return;
    free(t->q);
    free(t->att);
    free(t->done);
    free(t->res_ok);
    free(t->res);
    free(t->wb);
    free(t->l1);
    for (i = 0; i < t->ne; i++)
        free(t->e[i].dfr);
    free(t);
}
