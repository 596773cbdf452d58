/*
 * spandex-check: the shadow state and the message rules (SYS1, SYS2, SYS5,
 * SYS6, SYS7, SYS8 of spec 6) replayed over a spandex-system log. The
 * state changes as the messages say: the LLC's side on the messages it
 * sends (grants, forwards, probes) and receives (ReqWB, Ack, RspRvkO); a
 * device's side on the messages delivered to it and the requests it sends.
 * docs/spandex.md "The system checker" lists the transitions.
 */
#include "spandex_check_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define BIT(k) (1u << (k))

/* ---- containers --------------------------------------------------------- */

static size_t slot(const spandex_ck_map *m, uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(h ^ (h >> 29)) & (m->cap - 1);
    while (m->val[i] && m->key[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static uint32_t map_get(const spandex_ck_map *m, uint64_t key)
{
    return m->cap ? m->val[slot(m, key)] : 0;
}

static int map_put(spandex_ck_map *m, uint64_t key, uint32_t val)
{
    size_t i;
    if (2 * (m->n + 1) > m->cap) {
        spandex_ck_map b = {NULL, NULL, m->cap ? 2 * m->cap : 256, 0};
        b.key = calloc(b.cap, sizeof *b.key);
        b.val = calloc(b.cap, sizeof *b.val);
        if (!b.key || !b.val) {
            free(b.key);
            free(b.val);
            return -1;
        }
        for (i = 0; i < m->cap; i++)
            if (m->val[i]) {
                size_t j = slot(&b, m->key[i]);
                b.key[j] = m->key[i];
                b.val[j] = m->val[i];
                b.n++;
            }
        free(m->key);
        free(m->val);
        *m = b;
    }
    i = slot(m, key);
    m->n += m->val[i] == 0;
    m->key[i] = key;
    m->val[i] = val;
    return 0;
}

static int push(void **p, size_t *cap, size_t n, size_t size)
{
    void *q;
    if (n < *cap)
        return 0;
    q = realloc(*p, (*cap ? 2 * *cap : 64) * size);
    if (!q)
        return -1;
    *p = q;
    *cap = *cap ? 2 * *cap : 64;
    return 0;
}

spandex_ck *spandex_ck_new(const spandex_sysck_cfg *c)
{
    spandex_ck *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->c = c;
    k->n = c->devs;
    k->w = c->line / c->word;
    k->wbits = 8 * c->word;
    k->full = k->w >= 64 ? ~0ull : (1ull << k->w) - 1;
    k->wmask = k->wbits >= 64 ? ~0ull : (1ull << k->wbits) - 1;
    k->hdr = spandex_sysck_header_bytes(c);
    k->bound = spandex_sysck_bound(c);
    return k;
}

void spandex_ck_free(spandex_ck *k)
{
    size_t i;
    for (i = 0; i < k->nops; i++)
        free(k->ops[i].vc);
    for (i = 0; i < k->nwords; i++)
        free(k->words[i].writes);
    for (i = 0; i < k->nev; i++)
        free(k->ev[i].text);
    for (i = 0; i < SPANDEX_SYSCK_DEVS_MAX; i++)
        free(k->dops[i]);
    free(k->ops);
    free(k->ev);
    free(k->words);
    free(k->wmap.key);
    free(k->wmap.val);
    free(k->lines);
    free(k->lmap.key);
    free(k->lmap.val);
    free(k->msgs);
    free(k->mmap.key);
    free(k->mmap.val);
    free(k->fly);
    free(k->reqs);
    free(k);
}

void spandex_ck_viol(spandex_ck *k, const char *fmt, ...)
{
    va_list ap;
    if (k->viol)
        return;
    k->viol = 1;
    va_start(ap, fmt);
    vsnprintf(k->viol_msg, sizeof k->viol_msg, fmt, ap);
    va_end(ap);
}

static spandex_ck_line *line_of(spandex_ck *k, uint64_t addr)
{
    uint32_t i = map_get(&k->lmap, addr);
    if (i)
        return &k->lines[i - 1];
    if (push((void **)&k->lines, &k->clines, k->nlines, sizeof *k->lines) ||
        map_put(&k->lmap, addr, (uint32_t)k->nlines + 1))
        return NULL;
    memset(&k->lines[k->nlines], 0, sizeof *k->lines);
    k->lines[k->nlines].addr = addr;
    return &k->lines[k->nlines++];
}

spandex_ck_word *spandex_ck_word_of(spandex_ck *k, uint64_t addr)
{
    uint32_t i = map_get(&k->wmap, addr);
    spandex_ck_word *w;
    spandex_ck_line *l;
    if (i)
        return &k->words[i - 1];
    if (!(l = line_of(k, addr & ~(uint64_t)(k->c->line - 1))))
        return NULL;
    if (push((void **)&k->words, &k->cwords, k->nwords, sizeof *k->words) ||
        map_put(&k->wmap, addr, (uint32_t)k->nwords + 1))
        return NULL;
    w = &k->words[k->nwords++];
    memset(w, 0, sizeof *w);
    w->addr = addr;
    w->line = (uint32_t)(l - k->lines);
    w->owner = -1;
    memset(w->st, 'I', sizeof w->st);
    return w;
}

/* Word i of a line. */
static spandex_ck_word *wd(spandex_ck *k, uint64_t line, unsigned i)
{
    return spandex_ck_word_of(k, line + (uint64_t)i * k->c->word);
}

int spandex_ck_add_op(spandex_ck *k, const spandex_ck_op *o)
{
    unsigned d = o->dev;
    spandex_ck_op *p;
    if (push((void **)&k->ops, &k->cops, k->nops, sizeof *k->ops) ||
        push((void **)&k->dops[d], &k->cdops[d], k->ndops[d], sizeof *k->dops[d]))
        return spandex_ck_bad(k, k->prog_name, o->lineno, "out of memory");
    p = &k->ops[k->nops];
    *p = *o;
    p->pos = (unsigned)k->ndops[d];
    k->dops[d][k->ndops[d]++] = (uint32_t)k->nops;
    if (o->kind == SPANDEX_CK_ST || (o->kind == SPANDEX_CK_RMW && o->op != SPANDEX_OP_RD)) {
        spandex_ck_word *w = spandex_ck_word_of(k, o->word);
        if (!w || push((void **)&w->writes, &w->cwr, w->nwr, sizeof *w->writes))
            return spandex_ck_bad(k, k->prog_name, o->lineno, "out of memory");
        w->writes[w->nwr++] = (uint32_t)k->nops;
        p->wval = o->v;
    }
    k->nops++;
    return 0;
}

/* ---- requests and categories (SYS7, SYS8) ------------------------------- */

static const char *const cat_names[SPANDEX_SYSCK_CATS] = {"ReqV", "ReqS", "ReqWT", "ReqO",
                                                          "ReqWT+data", "ReqO+data", "ReqWB", "Probe"};
#define CAT_PROBE 7

const char *spandex_ck_cat_name(unsigned cat) { return cat < SPANDEX_SYSCK_CATS ? cat_names[cat] : "?"; }

/* The request kinds a response or forward may answer (spec 2.2, 2.3, X2). */
static unsigned answers(spandex_msg_kind m)
{
    switch (m) {
    case SPANDEX_RSPV:
    case SPANDEX_NACK:
    case SPANDEX_FWDREQV: return BIT(SPANDEX_REQV) | BIT(SPANDEX_REQS);
    case SPANDEX_RSPS:
    case SPANDEX_FWDREQS: return BIT(SPANDEX_REQS);
    case SPANDEX_RSPO:
    case SPANDEX_FWDREQO: return BIT(SPANDEX_REQO) | BIT(SPANDEX_REQWT);
    case SPANDEX_RSPODATA:
    case SPANDEX_FWDREQODATA: return BIT(SPANDEX_REQODATA) | BIT(SPANDEX_REQS);
    case SPANDEX_RSPWT: return BIT(SPANDEX_REQWT);
    case SPANDEX_RSPWTDATA: return BIT(SPANDEX_REQWTDATA);
    case SPANDEX_RSPWB: return BIT(SPANDEX_REQWB);
    default: return 0;
    }
}

/* The oldest open request of dev on line of a kind in `kinds` still
 * waiting for every word of mask (all) or for one of them; -1 if none. */
static long find_req(const spandex_ck *k, unsigned dev, uint64_t line, uint64_t mask, unsigned kinds, int all)
{
    size_t i;
    for (i = 0; i < k->nreqs; i++) {
        const spandex_ck_req *r = &k->reqs[i];
        if (r->dev == dev && r->line == line && (kinds & BIT(r->kind)) &&
            (all ? (r->wait & mask) == mask : (r->wait & mask) != 0))
            return (long)i;
    }
    return -1;
}

/* The category of a response, forward or probe when sent. */
static int category(const spandex_ck *k, const spandex_ck_msg *m)
{
    long r;
    unsigned dev;
    if (m->kind == SPANDEX_INV || m->kind == SPANDEX_ACK || m->kind == SPANDEX_RVKO)
        return CAT_PROBE;
    if (m->kind == SPANDEX_RSPRVKO)
        return (k->lines[map_get(&k->lmap, m->line) - 1].rvk_s[m->src] & m->mask) ? SPANDEX_REQS : CAT_PROBE;
    if (spandex_msg_net(m->kind) == SPANDEX_NET_REQ)
        return (int)m->kind;
    dev = spandex_msg_net(m->kind) == SPANDEX_NET_FWD ? m->req : (unsigned)m->dst;
    r = find_req(k, dev, m->line, m->mask, answers(m->kind), 0);
    if (r >= 0)
        return (int)k->reqs[r].kind;
    switch (m->kind) { /* unmatched (SYS7 judges it on delivery) */
    case SPANDEX_RSPS: return SPANDEX_REQS;
    case SPANDEX_RSPO: return SPANDEX_REQO;
    case SPANDEX_RSPODATA: return SPANDEX_REQODATA;
    case SPANDEX_RSPWT: return SPANDEX_REQWT;
    case SPANDEX_RSPWTDATA: return SPANDEX_REQWTDATA;
    case SPANDEX_RSPWB: return SPANDEX_REQWB;
    default: return SPANDEX_REQV;
    }
}

/* 1 when a message of a kind in `kinds` for a word of `mask` of line is in
 * flight to device dev. */
static int in_flight(const spandex_ck *k, unsigned dev, uint64_t line, uint64_t mask, uint64_t kinds)
{
    size_t i;
    for (i = 0; i < k->nfly; i++) {
        const spandex_ck_msg *m = &k->msgs[k->fly[i]];
        if (m->dst == (int)dev && m->line == line && (m->mask & mask) && (kinds >> m->kind & 1))
            return 1;
    }
    return 0;
}

#define DOWNGRADES                                                                                           \
    (1ull << SPANDEX_FWDREQO | 1ull << SPANDEX_FWDREQODATA | 1ull << SPANDEX_RVKO | 1ull << SPANDEX_FWDREQS)

/* ---- the LLC's side ----------------------------------------------------- */

/* A message the LLC sends: grants, forwards and probes change its state. */
static void llc_send(spandex_ck *k, const spandex_ck_msg *m)
{
    spandex_ck_line *l = line_of(k, m->line);
    unsigned i;
    for (i = 0; i < k->w && m->dst >= 0; i++) {
        spandex_ck_word *w;
        if (!(m->mask >> i & 1) || !(w = wd(k, m->line, i)))
            continue;
        if (m->kind == SPANDEX_FWDREQO || m->kind == SPANDEX_FWDREQODATA || m->kind == SPANDEX_RVKO ||
            m->kind == SPANDEX_FWDREQV || m->kind == SPANDEX_FWDREQS) {
            if (w->owner != m->dst) {
                spandex_ck_viol(k, "SYS1 line %u: %s: word 0x%llx is registered to %s%d, not device %d", m->lineno,
                                m->text, (unsigned long long)w->addr, w->owner < 0 ? "no device " : "device ",
                                w->owner, m->dst);
                return;
            }
        }
        if (m->kind == SPANDEX_RSPO || m->kind == SPANDEX_RSPODATA)
            w->owner = m->dst; /* a grant */
        else if (m->kind == SPANDEX_RSPWB && w->owner == m->dst)
            w->owner = -1; /* written back: the LLC took the ReqWB now (it defers one to a blocked line, X4) */
        else if (m->kind == SPANDEX_FWDREQO || m->kind == SPANDEX_FWDREQODATA)
            w->owner = m->cat == SPANDEX_REQWT ? -1 : (int)m->req; /* ReqWT: the word turns V (X2) */
    }
    if (m->kind == SPANDEX_RSPS)
        l->sharers |= 1ull << m->dst;
    else if (m->kind == SPANDEX_FWDREQS) {
        l->sharers |= 1ull << m->dst | 1ull << m->req; /* the old owner joins (X8) */
        l->rvk[m->dst] |= m->mask;
        l->rvk_s[m->dst] |= m->mask;
    } else if (m->kind == SPANDEX_RVKO)
        l->rvk[m->dst] |= m->mask;
    else if (m->kind == SPANDEX_INV)
        l->ack_wait |= 1ull << m->dst;
}

/* A message delivered to the LLC (requests are recorded when sent). */
static void llc_recv(spandex_ck *k, const spandex_ck_msg *m)
{
    spandex_ck_line *l = line_of(k, m->line);
    unsigned d = (unsigned)m->src, i;
    if (m->kind == SPANDEX_ACK) {
        if (!(l->ack_wait >> d & 1)) {
            spandex_ck_viol(k, "SYS7 %s: an Ack from device %u, which owes none for line 0x%llx", k->at, d,
                            (unsigned long long)m->line);
            return;
        }
        l->ack_wait &= ~(1ull << d);
        l->sharers &= ~(1ull << d);
        return;
    }
    if (m->kind == SPANDEX_RSPRVKO && (m->mask & ~l->rvk[d])) {
        spandex_ck_viol(k, "SYS7 %s: words 0x%llx of device %u were not revoked", k->at,
                        (unsigned long long)(m->mask & ~l->rvk[d]), d);
        return;
    }
    if (m->kind == SPANDEX_RSPRVKO) {
        l->rvk[d] &= ~m->mask;
        l->rvk_s[d] &= ~m->mask;
    }
    if (m->kind != SPANDEX_RSPRVKO)
        return;
    for (i = 0; i < k->w; i++) {
        spandex_ck_word *w = (m->mask >> i & 1) ? wd(k, m->line, i) : NULL;
        if (w && w->owner == (int)d)
            w->owner = -1; /* revoked */
    }
}

/* ---- a device's side ---------------------------------------------------- */

/* A message a device sends: a request opens; a write-back leaves O. */
static int dev_send(spandex_ck *k, uint32_t mi)
{
    const spandex_ck_msg *m = &k->msgs[mi];
    spandex_ck_req *r;
    unsigned i;
    if (spandex_msg_net(m->kind) != SPANDEX_NET_REQ)
        return 0;
    if (push((void **)&k->reqs, &k->creqs, k->nreqs, sizeof *k->reqs))
        return spandex_ck_bad(k, k->log_name, m->lineno, "out of memory");
    r = &k->reqs[k->nreqs++];
    r->dev = (unsigned)m->src;
    r->kind = m->kind;
    r->line = m->line;
    r->mask = r->wait = m->mask;
    r->sent_at = k->deliveries;
    r->msg = mi;
    for (i = 0; i < k->w && m->kind == SPANDEX_REQWB; i++) {
        spandex_ck_word *w = (m->mask >> i & 1) ? wd(k, m->line, i) : NULL;
        if (w && w->st[m->src] == 'O')
            w->st[m->src] = 'I'; /* the data waits in the write-back buffer */
    }
    return 0;
}

/* The words of a response's request take their state (spec 2.3, 4). */
static void dev_take(spandex_ck *k, const spandex_ck_msg *m, spandex_msg_kind req)
{
    unsigned d = (unsigned)m->dst, i;
    spandex_ck_line *l = line_of(k, m->line);
    for (i = 0; i < k->w; i++) {
        spandex_ck_word *w = ((m->mask & ~m->extra) >> i & 1) ? wd(k, m->line, i) : NULL;
        if (!w)
            continue;
        if (m->kind != SPANDEX_NACK)
            w->nacks[d] = 0;
        switch (m->kind) {
        case SPANDEX_RSPV:
            if (w->st[d] != 'O' && w->st[d] != 'S')
                w->st[d] = k->c->kind[d] == SPANDEX_SYSCK_MESI ? 'I' : 'V'; /* MESI: used once (X7) */
            break;
        case SPANDEX_RSPS: w->st[d] = (l->inv_fill >> d & 1) ? 'I' : 'S'; break; /* X14 */
        case SPANDEX_RSPO:
        case SPANDEX_RSPODATA:
            if (req == SPANDEX_REQWT)
                break; /* an owner's answer to a forwarded ReqWT (X2) */
            w->st[d] = w->pend[d] ? w->pend[d] : 'O';
            w->pend[d] = 0;
            break;
        case SPANDEX_RSPWTDATA: w->st[d] = 'I'; break;
        default: break;
        }
    }
}

/* SYS6: a Nack for words of a load, counted per word since its last data. */
static void nack(spandex_ck *k, const spandex_ck_msg *m)
{
    unsigned d = (unsigned)m->dst, i;
    for (i = 0; i < k->w; i++) {
        spandex_ck_word *w = (m->mask >> i & 1) ? wd(k, m->line, i) : NULL;
        if (w && ++w->nacks[d] > k->c->nack_limit) {
            spandex_ck_viol(k, "SYS6 %s: word 0x%llx of device %u Nacked %u times (nack limit %u)", k->at,
                            (unsigned long long)w->addr, d, w->nacks[d], k->c->nack_limit);
            return;
        }
    }
}

/* 1 when an open request of dev on line names word i (answered or not). */
static int names_word(const spandex_ck *k, unsigned dev, uint64_t line, unsigned i)
{
    size_t j;
    for (j = 0; j < k->nreqs; j++)
        if (k->reqs[j].dev == dev && k->reqs[j].line == line && (k->reqs[j].mask >> i & 1))
            return 1;
    return 0;
}

/* Extra words of an LLC RspV when sent (Table II's DeNovo footnote): the
 * words beyond those the oldest ReqV of the destination on the line waits
 * for. Legal only to a DeNovo device and only up to date: no device owns
 * the word (SYS1). */
static void llc_extra(spandex_ck *k, spandex_ck_msg *m)
{
    long r;
    unsigned i;
    if (m->kind != SPANDEX_RSPV || m->dst < 0 ||
        (r = find_req(k, (unsigned)m->dst, m->line, m->mask, BIT(SPANDEX_REQV), 0)) < 0 ||
        !(m->mask & ~k->reqs[r].wait))
        return;
    m->extra = m->mask & ~k->reqs[r].wait;
    if (k->c->kind[m->dst] != SPANDEX_SYSCK_DENOVO) {
        spandex_ck_viol(k, "SYS7 line %u: %s: words 0x%llx beyond the ReqV's go to device %d, which is not a DeNovo "
                        "device (Table II: extra words are DeNovo's)", m->lineno, m->text,
                        (unsigned long long)m->extra, m->dst);
        return;
    }
    for (i = 0; i < k->w; i++) {
        spandex_ck_word *w = (m->extra >> i & 1) ? wd(k, m->line, i) : NULL;
        if (w && w->owner >= 0) {
            spandex_ck_viol(k, "SYS1 line %u: %s: extra word 0x%llx is owned by device %d: the LLC's copy is not up "
                            "to date", m->lineno, m->text, (unsigned long long)w->addr, w->owner);
            return;
        }
    }
}

/* The extra words of an LLC RspV delivered: V where the device holds the
 * word in I and no open request of it names the word (the TU's rule). */
static void dev_extra(spandex_ck *k, const spandex_ck_msg *m)
{
    unsigned d = (unsigned)m->dst, i;
    for (i = 0; i < k->w; i++) {
        spandex_ck_word *w = (m->extra >> i & 1) ? wd(k, m->line, i) : NULL;
        if (w && w->st[d] == 'I' && !names_word(k, d, m->line, i))
            w->st[d] = 'V';
    }
}

/* A response or Nack delivered to a device: SYS7, then its state. */
static void dev_response(spandex_ck *k, const spandex_ck_msg *m)
{
    long r = find_req(k, (unsigned)m->dst, m->line, m->mask & ~m->extra, answers(m->kind), 1);
    spandex_msg_kind req;
    if (r < 0) {
        spandex_ck_viol(k, "SYS7 %s: device %d has no open request waiting for words 0x%llx of line "
                        "0x%llx that a %s answers", k->at, m->dst, (unsigned long long)m->mask,
                        (unsigned long long)m->line, spandex_msg_name(m->kind));
        return;
    }
    if (m->extra)
        dev_extra(k, m);
    req = k->reqs[r].kind;
    k->reqs[r].wait &= ~m->mask;
    if (m->kind == SPANDEX_NACK)
        nack(k, m);
    dev_take(k, m, req);
    if (k->reqs[r].wait == 0) { /* answered: closed, the order of the others kept */
        if (req == SPANDEX_REQS)
            line_of(k, m->line)->inv_fill &= ~(1ull << m->dst);
        memmove(&k->reqs[r], &k->reqs[r + 1], (k->nreqs - (size_t)r - 1) * sizeof *k->reqs);
        k->nreqs--;
    }
}

/* A forward or probe delivered to a device (spec 2.3, 4 MESI case 1). */
static void dev_probe(spandex_ck *k, const spandex_ck_msg *m)
{
    unsigned d = (unsigned)m->dst, i;
    int mesi = k->c->kind[d] == SPANDEX_SYSCK_MESI;
    uint8_t to = (m->kind == SPANDEX_FWDREQS && mesi) ? 'S' : 'I';
    if (m->kind == SPANDEX_FWDREQV)
        return;
    if (m->kind == SPANDEX_INV && find_req(k, d, m->line, k->full, BIT(SPANDEX_REQS), 0) >= 0)
        line_of(k, m->line)->inv_fill |= 1ull << d; /* the fill is used once (X14) */
    for (i = 0; i < k->w; i++) {
        spandex_ck_word *w = wd(k, m->line, i);
        if (!w)
            continue;
        if (m->kind == SPANDEX_INV) {
            if (w->st[d] == 'S')
                w->st[d] = 'I';
            continue;
        }
        if (!(m->mask >> i & 1))
            continue;
        if (w->st[d] == 'O')
            w->st[d] = to;
        else if (find_req(k, d, m->line, 1ull << i,
                          BIT(SPANDEX_REQO) | BIT(SPANDEX_REQODATA) | BIT(SPANDEX_REQS), 0) >= 0)
            w->pend[d] = to; /* pending I->O: the grant ends in `to` (III-C 1) */
    }
}

/* ---- the replay --------------------------------------------------------- */

/* SYS1 and SYS2 on one line after a delivery (`at`: the D line and its
 * message, for the report). */
static void line_rules(spandex_ck *k, uint64_t line, const char *at)
{
    const spandex_ck_line *l = &k->lines[map_get(&k->lmap, line) - 1];
    unsigned i, d;
    for (i = 0; i < k->w && !k->viol; i++) {
        uint32_t wi = map_get(&k->wmap, line + (uint64_t)i * k->c->word);
        const spandex_ck_word *w = wi ? &k->words[wi - 1] : NULL;
        for (d = 0; w && d < k->n; d++) {
            if (w->st[d] == 'O' && w->owner != (int)d && !in_flight(k, d, line, 1ull << i, DOWNGRADES)) {
                spandex_ck_viol(k, "SYS1 %s: device %u holds word 0x%llx in O, the LLC registers %s%d and no "
                                "downgrade is in flight to it", at, d, (unsigned long long)w->addr,
                                w->owner < 0 ? "no owner " : "device ", w->owner);
                return;
            }
            if (w->st[d] == 'S' && !(l->sharers >> d & 1) && !in_flight(k, d, line, k->full, 1ull << SPANDEX_INV)) {
                spandex_ck_viol(k, "SYS2 %s: device %u holds word 0x%llx in S, but it is not a sharer of line 0x%llx "
                                "and no Inv is in flight to it", at, d, (unsigned long long)w->addr,
                                (unsigned long long)line);
                return;
            }
        }
    }
}

/* The checks after a delivery: SYS1 and SYS2 on the lines it touched, the
 * SYS5 bound on every open request (--sched fifo). */
static void after_delivery(spandex_ck *k, const spandex_ck_ev *d, const uint64_t *lines, size_t n)
{
    char at[600];
    size_t i;
    if (!d || k->viol || k->bad)
        return;
    snprintf(at, sizeof at, "line %u: %s (%s)", d->lineno, d->text, d->m.text ? d->m.text : "");
    for (i = 0; i < n && !k->viol; i++)
        line_rules(k, lines[i], at);
    for (i = 0; i < k->nreqs && k->c->fifo && !k->viol; i++)
        if (k->deliveries - k->reqs[i].sent_at > k->bound)
            spandex_ck_viol(k, "SYS5 %s: the request of log line %u (%s) is open after %llu deliveries (bound B = "
                            "4 x N x (N + W) = %u)", at, k->msgs[k->reqs[i].msg].lineno, k->msgs[k->reqs[i].msg].text,
                            (unsigned long long)(k->deliveries - k->reqs[i].sent_at), k->bound);
}

static int ev_send(spandex_ck *k, spandex_ck_ev *e)
{
    spandex_ck_msg *m;
    if (map_get(&k->mmap, e->id))
        return spandex_ck_bad(k, k->log_name, e->lineno, "message %llu sent twice", (unsigned long long)e->id);
    if (push((void **)&k->msgs, &k->cmsgs, k->nmsgs, sizeof *k->msgs) ||
        map_put(&k->mmap, e->id, (uint32_t)k->nmsgs + 1) || !line_of(k, e->m.line) ||
        push((void **)&k->fly, &k->cfly, k->nfly, sizeof *k->fly))
        return spandex_ck_bad(k, k->log_name, e->lineno, "out of memory");
    m = &k->msgs[k->nmsgs];
    *m = e->m;
    m->lineno = e->lineno;
    m->text = e->text;
    if (spandex_msg_net(m->kind) == SPANDEX_NET_MEM) { /* memory answers at once, off the networks */
        m->delivered = 1;
        k->nmsgs++;
        return 0;
    }
    m->cat = category(k, m);
    k->tr_msgs[m->cat]++;
    k->tr_bytes[m->cat] += k->hdr + (uint64_t)m->nv * k->c->word;
    k->fly[k->nfly++] = (uint32_t)k->nmsgs;
    k->nmsgs++;
    if (m->src == SPANDEX_CK_LLC) {
        llc_extra(k, m);
        if (!k->viol)
            llc_send(k, m);
    }
    else if (dev_send(k, (uint32_t)(m - k->msgs)))
        return -1;
    return 0;
}

static int ev_deliver(spandex_ck *k, spandex_ck_ev *e)
{
    uint32_t mi = map_get(&k->mmap, e->id);
    spandex_ck_msg *m;
    size_t i;
    if (!mi || k->msgs[mi - 1].delivered)
        return spandex_ck_bad(k, k->log_name, e->lineno, "D %llu: no such message in flight",
                              (unsigned long long)e->id);
    m = &k->msgs[mi - 1];
    m->delivered = 1;
    e->m = *m;
    for (i = 0; i < k->nfly; i++)
        if (k->fly[i] == mi - 1) {
            memmove(&k->fly[i], &k->fly[i + 1], (k->nfly - i - 1) * sizeof *k->fly);
            k->nfly--;
            break;
        }
    k->deliveries++;
    snprintf(k->at, sizeof k->at, "line %u: %s (%s)", e->lineno, e->text, m->text);
    if (m->dst == SPANDEX_CK_LLC)
        llc_recv(k, m);
    else if (spandex_msg_net(m->kind) == SPANDEX_NET_FWD)
        dev_probe(k, m);
    else
        dev_response(k, m);
    return 0;
}

/* The operation of the program at line opl, or NULL. */
static spandex_ck_op *op_at(spandex_ck *k, unsigned opl)
{
    size_t lo = 0, hi = k->nops;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (k->ops[mid].lineno < opl)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < k->nops && k->ops[lo].lineno == opl ? &k->ops[lo] : NULL;
}

/* A V or C line: the operation completes. */
static int ev_complete(spandex_ck *k, const spandex_ck_ev *e)
{
    static const char *const names[] = {"LD", "ST", "RMW", "ACQ", "REL", "EVICT"};
    spandex_ck_op *o = op_at(k, e->opl);
    int vline = e->type == 'V', val = o && (o->kind == SPANDEX_CK_LD || o->kind == SPANDEX_CK_RMW);
    size_t i;
    if (!o || o->dev != e->dev || vline != val)
        return spandex_ck_bad(k, k->log_name, e->lineno, "%c: program line %u is no %s of device %u", e->type,
                              e->opl, vline ? "LD or RMW" : "ST, ACQ, REL or EVICT", e->dev);
    if (o->done)
        return spandex_ck_bad(k, k->log_name, e->lineno, "%s of program line %u completed twice (log line %u)",
                              names[o->kind], e->opl, o->done_line);
    if (vline && e->addr != o->addr)
        return spandex_ck_bad(k, k->log_name, e->lineno, "V: program line %u loads 0x%llx, not 0x%llx", e->opl,
                              (unsigned long long)o->addr, (unsigned long long)e->addr);
    o->done = 1;
    o->done_line = e->lineno;
    if (vline) {
        o->ret = e->v;
        if (o->kind == SPANDEX_CK_RMW)
            o->wval = spandex_op_apply(o->op, e->v, o->v, k->wbits);
        spandex_ck_sys3(k, (uint32_t)(o - k->ops), e);
    }
    for (i = 0; i < k->nwords && (o->kind == SPANDEX_CK_ACQ || o->kind == SPANDEX_CK_EVICT); i++) {
        spandex_ck_word *w = &k->words[i];
        if (o->kind == SPANDEX_CK_ACQ && k->c->kind[o->dev] != SPANDEX_SYSCK_MESI && w->st[o->dev] == 'V')
            w->st[o->dev] = 'I'; /* self-invalidation (III-E) */
        if (o->kind == SPANDEX_CK_EVICT && k->lines[w->line].addr == (o->addr & ~(uint64_t)(k->c->line - 1)) &&
            (w->st[o->dev] == 'V' || w->st[o->dev] == 'S'))
            w->st[o->dev] = 'I'; /* silent replacement */
    }
    return 0;
}

/* SYS3 once more at the end, in log order, now that every RMW's value is
 * known: a load that returned the value a concurrent RMW might have left
 * before that RMW reported passed on its V line. */
static void sys3_again(spandex_ck *k)
{
    size_t i;
    for (i = 0; i < k->nev && !k->viol; i++) {
        const spandex_ck_ev *e = &k->ev[i];
        const spandex_ck_op *o = e->type == 'V' ? op_at(k, e->opl) : NULL;
        if (o && o->done_line == e->lineno)
            spandex_ck_sys3(k, (uint32_t)(o - k->ops), e);
    }
}

/* SYS5 at the end of the log (the implicit final DRAIN has run): nothing
 * in flight, no request open, every operation complete. */
static void at_end(spandex_ck *k)
{
    static const char *const names[] = {"LD", "ST", "RMW", "ACQ", "REL", "EVICT"};
    size_t i;
    if (k->nfly) {
        const spandex_ck_msg *m = &k->msgs[k->fly[0]];
        spandex_ck_viol(k, "SYS5 end of log: the message of line %u (%s) was never delivered", m->lineno, m->text);
        return;
    }
    if (k->nreqs) {
        const spandex_ck_msg *m = &k->msgs[k->reqs[0].msg];
        spandex_ck_viol(k, "SYS5 end of log: the request of line %u (%s) still waits for words 0x%llx", m->lineno,
                        m->text, (unsigned long long)k->reqs[0].wait);
        return;
    }
    for (i = 0; i < k->nops; i++)
        if (!k->ops[i].done) {
            spandex_ck_viol(k, "SYS5 end of log: %s of device %u (program line %u) never completed",
                            names[k->ops[i].kind], k->ops[i].dev, k->ops[i].lineno);
            return;
        }
    sys3_again(k);
    if (!k->viol)
        spandex_ck_sys4(k);
    if (!k->viol && k->drf)
        spandex_ck_drf(k);
}

/* 1 for the D line of a memory message (MemRd, MemWr), which the log may
 * print right after its S line; it changes nothing. */
static int mem_delivery(spandex_ck *k, const spandex_ck_ev *e)
{
    uint32_t mi = map_get(&k->mmap, e->id);
    spandex_ck_msg *m = mi ? &k->msgs[mi - 1] : NULL;
    if (!m || spandex_msg_net(m->kind) != SPANDEX_NET_MEM || m->cat)
        return 0;
    m->cat = 1; /* its D line was read (a second one is bad input) */
    return 1;
}

/* Remembers a line touched by the current delivery. */
static void touch(uint64_t *lines, size_t *n, size_t max, uint64_t line)
{
    size_t i;
    for (i = 0; i < *n; i++)
        if (lines[i] == line)
            return;
    if (*n < max)
        lines[(*n)++] = line;
}

void spandex_ck_replay(spandex_ck *k)
{
    uint64_t lines[64];
    size_t nl = 0, i;
    const spandex_ck_ev *cur = NULL; /* the last D line: its group runs to the next */
    for (i = 0; i < k->nev && !k->viol && !k->bad; i++) {
        spandex_ck_ev *e = &k->ev[i];
        switch (e->type) {
        case 'S':
            if (ev_send(k, e) == 0 && spandex_msg_net(e->m.kind) != SPANDEX_NET_MEM)
                touch(lines, &nl, 64, e->m.line);
            break;
        case 'D':
            if (mem_delivery(k, e))
                break; /* memory answers at once: no delivery of the networks */
            after_delivery(k, cur, lines, nl);
            if (k->viol)
                break;
            nl = 0;
            if (ev_deliver(k, e) == 0) {
                touch(lines, &nl, 64, e->m.line);
                cur = e;
            }
            break;
        case 'V':
        case 'C': ev_complete(k, e); break;
        default: spandex_ck_viol(k, "line %u: the log reports a violation: %s", e->lineno, e->text); break;
        }
    }
    after_delivery(k, cur, lines, nl);
    if (!k->viol && !k->bad)
        at_end(k);
}
