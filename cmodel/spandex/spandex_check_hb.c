/*
 * spandex-check: happens-before and the values of loads (SYS3) and RMW
 * chains (SYS4) of spec 6, with the synchronisation of spec 9.5 item 6:
 * happens-before is program order plus an edge from a REL to an ACQ when
 * the LD or RMW just before the ACQ returns the value of the store just
 * after the REL, directly or through a chain of RMWs. Each operation gets a
 * vector clock (one entry per device: how many of that device's operations
 * happen before or at it); docs/spandex.md "The system checker".
 */
#include "spandex_check_int.h"

#include <stdlib.h>
#include <string.h>

enum { BEFORE, AFTER, CONC };

static int vc_of(spandex_ck *k, uint32_t o);

static int known(const spandex_ck_op *w) { return w->kind == SPANDEX_CK_ST || w->done; }

/* The one write of `word` (not `skip`) that left `val`, or -1 when none,
 * when the initial value also fits, or when a write whose value is not yet
 * known (an RMW that has not returned) might have left it. */
static long source(spandex_ck *k, uint64_t word, uint64_t val, uint32_t skip)
{
    spandex_ck_word *w = spandex_ck_word_of(k, word);
    long found = -1;
    size_t i;
    if (!w || (word & k->wmask) == val)
        return -1;
    for (i = 0; i < w->nwr; i++) {
        const spandex_ck_op *p = &k->ops[w->writes[i]];
        if (w->writes[i] == skip)
            continue;
        if (!known(p))
            return -1;
        if (p->wval == val) {
            if (found >= 0)
                return -1;
            found = (long)w->writes[i];
        }
    }
    return found;
}

static void join(uint32_t *a, const uint32_t *b, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++)
        if (b[i] > a[i])
            a[i] = b[i];
}

/* The release edges into ACQ o joined into vc: 1 when final, 0 when the
 * load before the ACQ has not returned yet. */
static int acq_edge(spandex_ck *k, const spandex_ck_op *o, uint32_t *vc)
{
    const spandex_ck_op *q;
    uint64_t val;
    uint32_t skip;
    size_t depth;
    if (o->pos == 0)
        return 1;
    skip = k->dops[o->dev][o->pos - 1];
    q = &k->ops[skip];
    if (q->kind != SPANDEX_CK_LD && q->kind != SPANDEX_CK_RMW)
        return 1;
    if (!q->done)
        return 0;
    val = q->ret;
    for (depth = 0; depth < k->nops; depth++) {
        long s = source(k, q->word, val, skip);
        const spandex_ck_op *w;
        if (s < 0)
            return 1;
        w = &k->ops[s];
        if (w->pos > 0) {
            uint32_t rel = k->dops[w->dev][w->pos - 1];
            if (k->ops[rel].kind == SPANDEX_CK_REL) {
                if (!vc_of(k, rel))
                    return 0;
                join(vc, k->ops[rel].vc, k->n);
            }
        }
        if (w->kind != SPANDEX_CK_RMW)
            return 1;
        val = w->ret; /* through the chain of RMWs */
        skip = (uint32_t)s;
    }
    return 1;
}

/* Computes the vector clock of operation o: 1 when final, 0 while some
 * acquire before it (or o itself) waits for its load. */
static int vc_of(spandex_ck *k, uint32_t o)
{
    spandex_ck_op *p = &k->ops[o];
    int fin = 1;
    if (p->vc_state == 2)
        return 1;
    if (p->vc_state == 1)
        return 0; /* a cycle through a bogus edge: not final */
    if (!p->vc && !(p->vc = calloc(k->n, sizeof *p->vc)))
        return 0;
    p->vc_state = 1;
    memset(p->vc, 0, k->n * sizeof *p->vc);
    if (p->pos > 0) {
        uint32_t prev = k->dops[p->dev][p->pos - 1];
        fin = vc_of(k, prev);
        if (k->ops[prev].vc)
            memcpy(p->vc, k->ops[prev].vc, k->n * sizeof *p->vc);
    }
    p->vc[p->dev] = p->pos + 1;
    if (p->kind == SPANDEX_CK_ACQ)
        fin &= acq_edge(k, p, p->vc);
    p->vc_state = fin ? 2 : 0;
    return fin;
}

/* How write w relates to operation o by happens-before. */
static int relation(spandex_ck *k, uint32_t w, uint32_t o)
{
    const spandex_ck_op *a = &k->ops[w], *b = &k->ops[o];
    if (a->dev == b->dev)
        return a->pos < b->pos ? BEFORE : AFTER;
    if (!vc_of(k, w) || (!vc_of(k, o) && !b->vc))
        return CONC;
    if (a->pos + 1 <= b->vc[a->dev])
        return BEFORE;
    if (b->pos + 1 <= a->vc[b->dev])
        return AFTER;
    return CONC;
}

void spandex_ck_sys3(spandex_ck *k, uint32_t o, const spandex_ck_ev *e)
{
    static const char *const names[] = {"LD", "ST", "RMW"};
    spandex_ck_op *p = &k->ops[o];
    spandex_ck_word *w = spandex_ck_word_of(k, p->word);
    size_t i, j, nb = 0;
    long expect = -1;
    int found = 0, unknown = 0;
    if (!w)
        return;
    vc_of(k, o);
    for (i = 0; i < w->nwr; i++) {
        uint32_t a = w->writes[i];
        int r = a == o ? AFTER : relation(k, a, o);
        if (r == AFTER)
            continue;
        if (r == BEFORE) {
            int maximal = 1;
            nb++;
            for (j = 0; j < w->nwr && maximal; j++)
                if (w->writes[j] != a && w->writes[j] != o && relation(k, w->writes[j], o) == BEFORE &&
                    relation(k, a, w->writes[j]) == BEFORE)
                    maximal = 0;
            if (!maximal)
                continue;
            if (expect < 0)
                expect = (long)a;
        }
        if (!known(&k->ops[a]))
            unknown = 1;
        else if (k->ops[a].wval == p->ret)
            found = 1;
    }
    if (nb == 0 && p->ret == (p->word & k->wmask))
        found = 1;
    if (found || unknown)
        return;
    if (expect >= 0)
        spandex_ck_viol(k, "SYS3 line %u: %s: %s of program line %u returned 0x%llx, not 0x%llx, the value of the "
                        "last store before it by happens-before (%s of program line %u)", e->lineno, e->text,
                        names[p->kind], p->lineno, (unsigned long long)p->ret,
                        (unsigned long long)k->ops[expect].wval, names[k->ops[expect].kind],
                        k->ops[expect].lineno);
    else
        spandex_ck_viol(k, "SYS3 line %u: %s: %s of program line %u returned 0x%llx, not the initial 0x%llx or a "
                        "concurrent store's value", e->lineno, e->text, names[p->kind], p->lineno,
                        (unsigned long long)p->ret, (unsigned long long)(p->word & k->wmask));
}

/* SYS4 on one word: the first RMW (in log order) that returns a value more
 * RMWs returned than writes left it (the initial value, every ST, every RMW
 * that returned): the degree condition of one chain through the values,
 * each RMW an edge from the value it read to the value it left. NULL if
 * none. */
static const spandex_ck_op *chain_break(spandex_ck *k, const spandex_ck_word *w, const spandex_ck_op **prev)
{
    const spandex_ck_op *bad = NULL;
    size_t i, j;
    for (i = 0; i < w->nwr; i++) {
        const spandex_ck_op *r = &k->ops[w->writes[i]];
        const spandex_ck_op *other = NULL;
        unsigned used = 0, left = (w->addr & k->wmask) == r->ret;
        if (r->kind != SPANDEX_CK_RMW || !r->done)
            continue;
        for (j = 0; j < w->nwr; j++) {
            const spandex_ck_op *s = &k->ops[w->writes[j]];
            if (s->kind == SPANDEX_CK_RMW && s->done && s->ret == r->ret && s->done_line <= r->done_line) {
                used++;
                if (s != r)
                    other = s;
            }
            if (known(s) && s->wval == r->ret)
                left++; /* r itself too: an RMW that leaves what it read */
        }
        if (used > left && (!bad || r->done_line < bad->done_line)) {
            bad = r;
            *prev = other;
        }
    }
    return bad;
}

void spandex_ck_sys4(spandex_ck *k)
{
    const spandex_ck_op *bad = NULL, *prev = NULL;
    size_t i;
    for (i = 0; i < k->nwords; i++) {
        const spandex_ck_op *p = NULL, *r = chain_break(k, &k->words[i], &p);
        if (r && (!bad || r->done_line < bad->done_line)) {
            bad = r;
            prev = p;
        }
    }
    if (bad)
        spandex_ck_viol(k, "SYS4 line %u: V %u %u 0x%llx 0x%llx: the RMW of program line %u returned a value an "
                        "earlier RMW (program line %u) already returned: not one chain", bad->done_line, bad->dev,
                        bad->lineno, (unsigned long long)bad->addr, (unsigned long long)bad->ret, bad->lineno,
                        prev ? prev->lineno : 0);
}

/* ---- data races (--drf) ------------------------------------------------- */

/* A synchronisation access (9.5 item 6): an RMW, the ST just after a REL
 * of its device (a release store), the LD just before an ACQ (an acquire
 * load). Every other LD and ST is a data access. */
static int sync_access(const spandex_ck *k, const spandex_ck_op *o)
{
    if (o->kind == SPANDEX_CK_RMW)
        return 1;
    if (o->kind == SPANDEX_CK_ST)
        return o->pos > 0 && k->ops[k->dops[o->dev][o->pos - 1]].kind == SPANDEX_CK_REL;
    return o->pos + 1 < k->ndops[o->dev] && k->ops[k->dops[o->dev][o->pos + 1]].kind == SPANDEX_CK_ACQ;
}

static int writes(const spandex_ck_op *o)
{
    return o->kind == SPANDEX_CK_ST || (o->kind == SPANDEX_CK_RMW && o->op != SPANDEX_OP_RD);
}

/* An access in the order of the race search: by word, then program line. */
typedef struct {
    uint64_t word;
    unsigned lineno;
    uint32_t op;
} access;

static int by_word(const void *a, const void *b)
{
    const access *x = a, *y = b;
    if (x->word != y->word)
        return x->word < y->word ? -1 : 1;
    return x->lineno < y->lineno ? -1 : x->lineno > y->lineno;
}

/* The text of log line ln. */
static const char *ev_text(const spandex_ck *k, unsigned ln)
{
    size_t lo = 0, hi = k->nev;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (k->ev[mid].lineno < ln)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < k->nev && k->ev[lo].lineno == ln ? k->ev[lo].text : "";
}

/* A data race: two accesses to one word by different devices, at least one
 * writing and not both synchronisation accesses, unordered by
 * happens-before. The clocks are computed again first, every RMW's value
 * now known (during the replay an edge whose source had not returned yet
 * was left out). The race reported is the one whose later access completed
 * first in the log; its line is that access's V or C line. */
void spandex_ck_drf(spandex_ck *k)
{
    static const char *const names[] = {"LD", "ST", "RMW"};
    access *a = malloc((k->nops ? k->nops : 1) * sizeof *a);
    uint32_t best[2] = {0, 0};
    size_t n = 0, i, j, lo;
    unsigned best_line = 0;
    if (!a) {
        spandex_ck_bad(k, k->log_name, 0, "out of memory");
        return;
    }
    for (i = 0; i < k->nops; i++) {
        k->ops[i].vc_state = 0;
        if (k->ops[i].kind <= SPANDEX_CK_RMW) {
            a[n].word = k->ops[i].word;
            a[n].lineno = k->ops[i].lineno;
            a[n++].op = (uint32_t)i;
        }
    }
    for (i = 0; i < k->nops; i++)
        vc_of(k, (uint32_t)i); /* in program text order: mostly causal, shallow recursion */
    qsort(a, n, sizeof *a, by_word);
    for (lo = 0; lo < n; lo = j) {
        for (j = lo; j < n && a[j].word == a[lo].word; j++)
            ;
        for (i = lo; i < j; i++) {
            size_t m;
            for (m = i + 1; m < j; m++) {
                const spandex_ck_op *x = &k->ops[a[i].op], *y = &k->ops[a[m].op];
                unsigned later = x->done_line > y->done_line ? x->done_line : y->done_line;
                if (x->dev == y->dev || (!writes(x) && !writes(y)) || (sync_access(k, x) && sync_access(k, y)))
                    continue;
                if ((best_line && later >= best_line) || relation(k, a[i].op, a[m].op) != CONC)
                    continue;
                best_line = later;
                best[0] = a[i].op;
                best[1] = a[m].op;
            }
        }
    }
    free(a);
    if (best_line) {
        const spandex_ck_op *x = &k->ops[best[0]], *y = &k->ops[best[1]];
        spandex_ck_viol(k, "SYS3 line %u: %s: data race on word 0x%llx: %s%s of device %u (program line %u) and "
                        "%s%s of device %u (program line %u) are not ordered by happens-before", best_line,
                        ev_text(k, best_line), (unsigned long long)x->word, sync_access(k, x) ? "synchronising " : "",
                        names[x->kind], x->dev, x->lineno, sync_access(k, y) ? "synchronising " : "", names[y->kind],
                        y->dev, y->lineno);
    }
}
