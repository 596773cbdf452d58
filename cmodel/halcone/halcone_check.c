/*
 * HALCONE system checker (spec 5.1): the logical-time order of every access
 * and the invariants I1-I4, on the text event log of a system run. Nothing
 * here is shared with the system model (cmodel/halcone/halcone_system.c): the
 * checker knows only the log format of halcone_check.h.
 */
#include "halcone_check.h"
#include "unit_trace.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ a small hash map -- */
/* Keys are triples (a, b, c); values are indices into the caller's vector. */
typedef struct {
    uint64_t a, b, c;
    uint32_t v; /* index + 1, 0 = empty */
} hck_slot;

typedef struct {
    hck_slot *s;
    size_t cap, n;
} hck_map;

static uint64_t mix(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
    h ^= (c + 0x94d049bb133111ebull) * 0xff51afd7ed558ccdull;
    h ^= h >> 31;
    return h;
}

static int map_grow(hck_map *m)
{
    size_t nc = m->cap ? m->cap * 2 : 64, i;
    hck_slot *ns = calloc(nc, sizeof *ns);
    if (ns == NULL)
        return -1;
    for (i = 0; i < m->cap; i++)
        if (m->s[i].v) {
            size_t j = mix(m->s[i].a, m->s[i].b, m->s[i].c) & (nc - 1);
            while (ns[j].v)
                j = (j + 1) & (nc - 1);
            ns[j] = m->s[i];
        }
    free(m->s);
    m->s = ns;
    m->cap = nc;
    return 0;
}

/* Index of the key, or -1; with `add` a new key gets index `next`. */
static long map_get(hck_map *m, uint64_t a, uint64_t b, uint64_t c, int add, uint32_t next)
{
    size_t j;
    if (m->cap == 0 || (add && (m->n + 1) * 2 > m->cap)) {
        if (!add && m->cap == 0)
            return -1;
        if (map_grow(m) != 0)
            return -2;
    }
    j = mix(a, b, c) & (m->cap - 1);
    while (m->s[j].v) {
        if (m->s[j].a == a && m->s[j].b == b && m->s[j].c == c)
            return (long)m->s[j].v - 1;
        j = (j + 1) & (m->cap - 1);
    }
    if (!add)
        return -1;
    m->s[j].a = a;
    m->s[j].b = b;
    m->s[j].c = c;
    m->s[j].v = next + 1;
    m->n++;
    return (long)next;
}

/* ------------------------------------------------------------ state -- */
typedef struct {
    uint64_t line;
    uint64_t epoch;     /* stamp: fields below hold for this epoch only     */
    int tsu;            /* TSU that named the block, -1 unknown            */
    int present;        /* the TSU holds an entry                          */
    uint64_t memts;     /* its memts                                       */
    uint64_t m_lb;      /* absent: a lower bound of M(X) from the drop     */
    long set;           /* absent: the set a FLOOR line named, -1 unknown  */
    uint64_t maxrts;    /* I2: largest rts seen for the block              */
    int has_rts;
    long first_copy;    /* L1 copies of the block (list through next_line) */
} hck_line;

typedef struct {
    unsigned gpu, cu;
    uint64_t line;
    uint64_t epoch;     /* valid only in this epoch                        */
    int valid;
    uint64_t w, r;
    long next_line;
} hck_copy;

typedef struct {
    uint64_t epoch;
    uint64_t cts, key;
    int seen;
} hck_cu;

typedef struct {
    uint64_t epoch;
    uint64_t floor;     /* global floor                                    */
    int saw_set_floor;
} hck_tsu;

typedef struct {
    uint64_t tsu, set, epoch, v;
} hck_setfloor;

typedef struct {
    int st;
    unsigned gpu, cu;
    uint64_t line, value, epoch, ts;
    unsigned long pos, lineno;
} hck_acc;

typedef struct {
    uint64_t line, rts;
} hck_pending;

struct halcone_check {
    uint64_t epoch;
    hck_map mline, mcopy, mcu;
    hck_line *lines;
    size_t nlines, caplines;
    hck_copy *copies;
    size_t ncopies, capcopies;
    hck_cu *cus;
    size_t ncus, capcus;
    hck_tsu *tsus;
    size_t ntsus;
    hck_setfloor *sf;
    size_t nsf, capsf;
    hck_acc *acc;
    size_t nacc, capacc;
    hck_pending *pend;          /* grants of the access being logged       */
    size_t npend, cappend;
    long drop_line;             /* VICTIM/REMOVE just seen (for FLOOR)     */
    int drop_tsu;
    unsigned long drop_lineno;
    char *msgs;                 /* invariant reports, in order             */
    size_t msglen, msgcap;
    halcone_check_result res;
    int oom;
};

const char *halcone_check_inv_name(halcone_check_inv i)
{
    static const char *const n[HALCONE_CHECK_NINV] = {"I1", "I2", "I3", "I4", "CTS", "PO", "COPY"};
    return i < HALCONE_CHECK_NINV ? n[i] : "?";
}

static int grow(void **p, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap)
        return 0;
    {
        size_t nc = *cap ? *cap * 2 : 32;
        void *q = realloc(*p, nc * sz);
        if (q == NULL)
            return -1;
        *p = q;
        *cap = nc;
    }
    return 0;
}

static void report(halcone_check *c, halcone_check_inv i, unsigned long lineno, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    int n;
    size_t need;
    c->res.inv[i]++;
    n = snprintf(buf, sizeof buf, "# INVARIANT %s line %lu ", halcone_check_inv_name(i), lineno);
    va_start(ap, fmt);
    vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
    va_end(ap);
    strcat(buf, "\n");
    need = strlen(buf);
    if (c->msglen + need + 1 > c->msgcap) {
        size_t nc = (c->msgcap + need + 1) * 2;
        char *q = realloc(c->msgs, nc);
        if (q == NULL) {
            c->oom = 1;
            return;
        }
        c->msgs = q;
        c->msgcap = nc;
    }
    memcpy(c->msgs + c->msglen, buf, need + 1);
    c->msglen += need;
}

halcone_check *halcone_check_new(void)
{
    halcone_check *c = calloc(1, sizeof *c);
    if (c != NULL)
        c->drop_line = -1;
    return c;
}

void halcone_check_free(halcone_check *c)
{
    if (c == NULL)
        return;
    free(c->mline.s);
    free(c->mcopy.s);
    free(c->mcu.s);
    free(c->lines);
    free(c->copies);
    free(c->cus);
    free(c->tsus);
    free(c->sf);
    free(c->acc);
    free(c->pend);
    free(c->msgs);
    free(c);
}

static hck_line *line_of(halcone_check *c, uint64_t line)
{
    long i = map_get(&c->mline, line, 0, 0, 1, (uint32_t)c->nlines);
    hck_line *l;
    if (i < 0)
        return NULL;
    if ((size_t)i == c->nlines) {
        if (grow((void **)&c->lines, &c->caplines, c->nlines, sizeof *c->lines) != 0)
            return NULL;
        l = &c->lines[c->nlines++];
        memset(l, 0, sizeof *l);
        l->line = line;
        l->first_copy = -1;
        l->epoch = c->epoch + 1; /* forces the reset below */
    }
    l = &c->lines[i];
    if (l->epoch != c->epoch) {
        l->epoch = c->epoch;
        l->tsu = -1;
        l->present = 0;
        l->memts = l->m_lb = 0;
        l->set = -1;
        l->has_rts = 0;
        l->maxrts = 0;
    }
    return l;
}

static hck_copy *copy_of(halcone_check *c, unsigned gpu, unsigned cu, uint64_t line, int l2)
{
    uint64_t b = l2 ? UINT64_MAX : cu;
    long i = map_get(&c->mcopy, gpu, b, line, 1, (uint32_t)c->ncopies);
    hck_copy *k;
    if (i < 0)
        return NULL;
    if ((size_t)i == c->ncopies) {
        hck_line *l = line_of(c, line);
        if (l == NULL || grow((void **)&c->copies, &c->capcopies, c->ncopies, sizeof *c->copies))
            return NULL;
        k = &c->copies[c->ncopies++];
        memset(k, 0, sizeof *k);
        k->gpu = gpu;
        k->cu = l2 ? UINT32_MAX : cu;
        k->line = line;
        k->next_line = -1;
        if (!l2) {
            k->next_line = l->first_copy;
            l->first_copy = i;
        }
    }
    k = &c->copies[i];
    if (k->epoch != c->epoch)
        k->valid = 0;
    return k;
}

static hck_cu *cu_of(halcone_check *c, unsigned gpu, unsigned cu)
{
    long i = map_get(&c->mcu, gpu, cu, 0, 1, (uint32_t)c->ncus);
    hck_cu *u;
    if (i < 0)
        return NULL;
    if ((size_t)i == c->ncus) {
        if (grow((void **)&c->cus, &c->capcus, c->ncus, sizeof *c->cus) != 0)
            return NULL;
        memset(&c->cus[c->ncus++], 0, sizeof *c->cus);
    }
    u = &c->cus[i];
    if (u->epoch != c->epoch || !u->seen) {
        u->epoch = c->epoch;
        u->seen = 0;
        u->cts = u->key = 0;
    }
    return u;
}

static hck_tsu *tsu_of(halcone_check *c, unsigned t)
{
    if (t >= c->ntsus) {
        hck_tsu *q = realloc(c->tsus, (t + 1) * sizeof *q);
        if (q == NULL)
            return NULL;
        memset(q + c->ntsus, 0, (t + 1 - c->ntsus) * sizeof *q);
        c->tsus = q;
        c->ntsus = t + 1;
    }
    if (c->tsus[t].epoch != c->epoch) {
        c->tsus[t].epoch = c->epoch;
        c->tsus[t].floor = 0;
        c->tsus[t].saw_set_floor = 0;
    }
    return &c->tsus[t];
}

static uint64_t set_floor(const halcone_check *c, unsigned t, uint64_t set)
{
    size_t i;
    for (i = 0; i < c->nsf; i++)
        if (c->sf[i].tsu == t && c->sf[i].set == set && c->sf[i].epoch == c->epoch)
            return c->sf[i].v;
    return 0;
}

/* M(X), or -1 when the log says nothing of the block's TSU. */
static int64_t m_of(halcone_check *c, hck_line *l)
{
    hck_tsu *t;
    uint64_t m;
    if (l->tsu < 0)
        return -1;
    if (l->present)
        return (int64_t)l->memts;
    t = tsu_of(c, (unsigned)l->tsu);
    m = l->m_lb > t->floor ? l->m_lb : t->floor;
    if (l->set >= 0) {
        uint64_t s = set_floor(c, (unsigned)l->tsu, (uint64_t)l->set);
        if (s > m)
            m = s;
    }
    return (int64_t)m;
}

/* I1 on every valid L1 copy of the block (M(X) may have fallen). */
static void i1_copies(halcone_check *c, hck_line *l, unsigned long lineno)
{
    int64_t m = m_of(c, l);
    long i;
    if (m < 0)
        return;
    for (i = l->first_copy; i >= 0; i = c->copies[i].next_line) {
        hck_copy *k = &c->copies[i];
        if (k->valid && k->epoch == c->epoch && k->r > (uint64_t)m)
            report(c, HALCONE_CHECK_I1, lineno, "0x%" PRIx64 ": GPU%u CU%u holds (%" PRIu64 ",%" PRIu64
                   ") above M(X) %" PRId64, l->line, k->gpu, k->cu, k->w, k->r, m);
    }
}

/* A drop (VICTIM/REMOVE) is judged when its FLOOR line, if any, is in. */
static void flush_drop(halcone_check *c, unsigned long lineno)
{
    if (c->drop_line >= 0)
        i1_copies(c, &c->lines[c->drop_line], lineno);
    c->drop_line = -1;
}

static void new_epoch(halcone_check *c, uint64_t e)
{
    if (e > c->epoch)
        c->epoch = e;
    c->res.epoch = c->epoch;
    c->npend = 0;
    c->drop_line = -1;
}

/* ---------------------------------------------------------- parsing -- */
typedef struct {
    char *t[16];
    int n;
} toks;

static void split(char *s, toks *k)
{
    k->n = 0;
    while (*s) {
        while (*s && isspace((unsigned char)*s))
            s++;
        if (*s == '\0')
            break;
        if (k->n == 16) {
            k->n = 17; /* too many */
            return;
        }
        k->t[k->n++] = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        if (*s)
            *s++ = '\0';
    }
}

static int num(const char *s, uint64_t *v) { return cohkit_trace_dec(s, UINT64_MAX, v); }

static int hexa(const char *s, uint64_t *v) { return cohkit_trace_hex(s, 64, v); }

static int src_code(const char *s)
{
    if (strcmp(s, "L1") == 0)
        return 1;
    if (strcmp(s, "L2") == 0)
        return 2;
    if (strcmp(s, "MM") == 0)
        return 3;
    return -1;
}

#define BAD(...) do { snprintf(err, len, __VA_ARGS__); return -1; } while (0)

static int feed_access(halcone_check *c, toks *k, unsigned long lineno, char *err, size_t len)
{
    uint64_t g, u, line, v, ts, l1, l2, w, r;
    int st = strcmp(k->t[0], "ST") == 0, src;
    hck_line *l;
    hck_copy *cp, *c2;
    hck_cu *cu;
    hck_acc *a;
    size_t i;
    int64_t m;

    if (k->n != 11)
        BAD("%s: 11 fields expected, %d found", k->t[0], k->n);
    if (num(k->t[1], &g) || num(k->t[2], &u) || hexa(k->t[3], &line) || num(k->t[4], &v) ||
        (src = src_code(k->t[5])) < 0 || num(k->t[6], &ts) || num(k->t[7], &l1) ||
        num(k->t[8], &l2) || num(k->t[9], &w) || num(k->t[10], &r) || g > UINT32_MAX ||
        u > UINT32_MAX)
        BAD("%s: malformed field", k->t[0]);
    if (grow((void **)&c->acc, &c->capacc, c->nacc, sizeof *c->acc) != 0)
        BAD("out of memory");
    /* create first, then look up: creation may move the vectors */
    if (copy_of(c, (unsigned)g, (unsigned)u, line, 0) == NULL)
        BAD("out of memory");
    c2 = copy_of(c, (unsigned)g, 0, line, 1);
    cp = copy_of(c, (unsigned)g, (unsigned)u, line, 0);
    cu = cu_of(c, (unsigned)g, (unsigned)u);
    l = line_of(c, line);
    if (l == NULL || cp == NULL || c2 == NULL || cu == NULL)
        BAD("out of memory");

    a = &c->acc[c->nacc];
    a->st = st;
    a->gpu = (unsigned)g;
    a->cu = (unsigned)u;
    a->line = line;
    a->value = v;
    a->epoch = c->epoch;
    a->ts = ts;
    a->pos = (unsigned long)c->nacc;
    a->lineno = lineno;
    c->nacc++;
    if (st)
        c->res.stores++;
    else
        c->res.loads++;

    /* COPY: hits need a live copy of this epoch; I3 for L1 hits */
    if (!st && src == 1) {
        if (!cp->valid)
            report(c, HALCONE_CHECK_COPY, lineno, "0x%" PRIx64 ": L1 hit of GPU%" PRIu64 " CU%" PRIu64
                   " without a copy", line, g, u);
        else if (cp->w > ts || ts > cp->r || cp->w != w || cp->r != r)
            report(c, HALCONE_CHECK_I3, lineno, "0x%" PRIx64 ": L1 hit at %" PRIu64 " on (%" PRIu64
                   ",%" PRIu64 ") reported as (%" PRIu64 ",%" PRIu64 ")", line, ts, cp->w, cp->r,
                   w, r);
    }
    if (!st && src == 2 && !c2->valid)
        report(c, HALCONE_CHECK_COPY, lineno, "0x%" PRIx64 ": L2 hit of GPU%" PRIu64 " without a copy",
               line, g);
    /* I3: the installed copy covers the L1's cts; a load happens at it */
    if (w > l1 || l1 > r)
        report(c, HALCONE_CHECK_I3, lineno, "0x%" PRIx64 ": L1 copy (%" PRIu64 ",%" PRIu64
               ") does not cover l1-cts %" PRIu64, line, w, r, l1);
    if (!st && ts != l1)
        report(c, HALCONE_CHECK_I3, lineno, "0x%" PRIx64 ": load at %" PRIu64 " but l1-cts %" PRIu64,
               line, ts, l1);
    /* I4, where the proof needs it: an access the L2 served (with several
     * banks an L1 may run ahead of a bank it has not asked) */
    if ((st || src != 1) && l1 > l2)
        report(c, HALCONE_CHECK_I4, lineno, "0x%" PRIx64 ": l1-cts %" PRIu64 " > l2-cts %" PRIu64, line,
               l1, l2);
    /* CTS and PO */
    if (cu->seen && l1 < cu->cts)
        report(c, HALCONE_CHECK_CTS, lineno, "GPU%" PRIu64 " CU%" PRIu64 ": cts fell from %" PRIu64
               " to %" PRIu64, g, u, cu->cts, l1);
    if (cu->seen && ts < cu->key)
        report(c, HALCONE_CHECK_PO, lineno, "GPU%" PRIu64 " CU%" PRIu64 ": key %" PRIu64
               " after key %" PRIu64, g, u, ts, cu->key);
    cu->seen = 1;
    cu->cts = l1;
    cu->key = ts;
    /* I2: a store lies above every rts seen for the block, its own grant
     * (pending) aside */
    if (st && l->has_rts && ts <= l->maxrts)
        report(c, HALCONE_CHECK_I2, lineno, "0x%" PRIx64 ": store at %" PRIu64 " not above rts %" PRIu64,
               line, ts, l->maxrts);
    for (i = 0; i < c->npend; i++) {
        hck_line *pl = line_of(c, c->pend[i].line);
        if (pl == NULL)
            BAD("out of memory");
        if (!pl->has_rts || c->pend[i].rts > pl->maxrts)
            pl->maxrts = c->pend[i].rts;
        pl->has_rts = 1;
    }
    c->npend = 0;
    c->drop_line = -1;
    l = line_of(c, line);
    if (!l->has_rts || r > l->maxrts)
        l->maxrts = r;
    l->has_rts = 1;
    /* the L1 copy after the access; I1 on it */
    cp->valid = 1;
    cp->epoch = c->epoch;
    cp->w = w;
    cp->r = r;
    if (st || src != 1) {
        c2->valid = 1;
        c2->epoch = c->epoch;
    }
    m = m_of(c, l);
    if (m >= 0 && r > (uint64_t)m)
        report(c, HALCONE_CHECK_I1, lineno, "0x%" PRIx64 ": GPU%" PRIu64 " CU%" PRIu64 " holds (%" PRIu64
               ",%" PRIu64 ") above M(X) %" PRId64, line, g, u, w, r, m);
    return 0;
}

static int feed_tsu(halcone_check *c, toks *k, unsigned long lineno, char *err, size_t len)
{
    int b = 1;
    uint64_t t = 0, x, y, z;
    hck_line *l;
    hck_tsu *ts;
    const char *op;
    if (k->n >= 2 && isdigit((unsigned char)k->t[1][0])) {
        if (num(k->t[1], &t) || t > 1024)
            BAD("TSU: bad TSU index '%s'", k->t[1]);
        b = 2;
    }
    if (k->n <= b)
        BAD("TSU: event missing");
    op = k->t[b];
    if ((ts = tsu_of(c, (unsigned)t)) == NULL)
        BAD("out of memory");
    if (strcmp(op, "GRANT") == 0) {
        if (k->n != b + 4 || hexa(k->t[b + 1], &x) || num(k->t[b + 2], &y) || num(k->t[b + 3], &z))
            BAD("TSU GRANT: <line> <wts> <rts> expected");
        if ((l = line_of(c, x)) == NULL ||
            grow((void **)&c->pend, &c->cappend, c->npend, sizeof *c->pend))
            BAD("out of memory");
        {
            int64_t before = m_of(c, l);
            l->tsu = (int)t;
            l->present = 1;
            l->memts = z;
            c->pend[c->npend].line = x;
            c->pend[c->npend++].rts = z;
            if (before >= 0 && z < (uint64_t)before)
                i1_copies(c, l, lineno);
        }
        c->drop_line = -1;
        return 0;
    }
    if (strcmp(op, "VICTIM") == 0 || strcmp(op, "REMOVE") == 0 || strcmp(op, "KEEP") == 0) {
        if (k->n != b + 3 || hexa(k->t[b + 1], &x) || num(k->t[b + 2], &y))
            BAD("TSU %s: <line> <memts> expected", op);
        if ((l = line_of(c, x)) == NULL)
            BAD("out of memory");
        l->tsu = (int)t;
        if (op[0] == 'K') {
            l->present = 1;
            l->memts = y;
            c->drop_line = -1;
            return 0;
        }
        l->present = 0;
        l->m_lb = ts->saw_set_floor ? y : 0;
        l->set = -1;
        c->drop_line = (long)(l - c->lines);
        c->drop_tsu = (int)t;
        c->drop_lineno = lineno;
        return 0;
    }
    if (strcmp(op, "FLOOR") == 0) {
        if ((k->n != b + 2 && k->n != b + 3) || num(k->t[b + 1], &x) ||
            (k->n == b + 3 && num(k->t[b + 2], &y)))
            BAD("TSU FLOOR: <v> [<set>] expected");
        if (k->n == b + 2) {
            ts->floor = x;
        } else {
            size_t i;
            for (i = 0; i < c->nsf; i++)
                if (c->sf[i].tsu == t && c->sf[i].set == y)
                    break;
            if (i == c->nsf) {
                if (grow((void **)&c->sf, &c->capsf, c->nsf, sizeof *c->sf) != 0)
                    BAD("out of memory");
                c->nsf++;
            }
            c->sf[i].tsu = t;
            c->sf[i].set = y;
            c->sf[i].epoch = c->epoch;
            c->sf[i].v = x;
            ts->saw_set_floor = 1;
            if (c->drop_line >= 0 && c->drop_tsu == (int)t)
                c->lines[c->drop_line].set = (long)y;
        }
        if (c->drop_line >= 0) {
            l = &c->lines[c->drop_line];
            if (x > l->m_lb)
                l->m_lb = x;
        }
        return 0;
    }
    if (strcmp(op, "WRAP") == 0 || strcmp(op, "ABSENT") == 0) {
        if (k->n != b + 2 || hexa(k->t[b + 1], &x))
            BAD("TSU %s: <line> expected", op);
        c->drop_line = -1;
        return 0;
    }
    if (strcmp(op, "RESET") == 0) {
        if (k->n != b + 2 || num(k->t[b + 1], &x))
            BAD("TSU RESET: <epoch> expected");
        new_epoch(c, x);
        return 0;
    }
    BAD("TSU: unknown event '%s'", op);
}

int halcone_check_feed(halcone_check *c, const char *line, unsigned long lineno, char *err, size_t len)
{
    char buf[512];
    toks k;
    uint64_t g, u, x, p;
    hck_copy *cp;
    size_t n = strlen(line);
    if (n >= sizeof buf)
        BAD("log line too long");
    memcpy(buf, line, n + 1);
    split(buf, &k);
    if (k.n > 16)
        BAD("too many fields");
    if (k.n == 0 || k.t[0][0] == '#' || strcmp(k.t[0], "CHECK") == 0)
        return 0;
    if (!(strcmp(k.t[0], "TSU") == 0 &&
          ((k.n >= 2 && strcmp(k.t[1], "FLOOR") == 0) || (k.n >= 3 && strcmp(k.t[2], "FLOOR") == 0))))
        flush_drop(c, c->drop_lineno);
    if (strcmp(k.t[0], "LD") == 0 || strcmp(k.t[0], "ST") == 0)
        return feed_access(c, &k, lineno, err, len);
    if (strcmp(k.t[0], "TSU") == 0)
        return feed_tsu(c, &k, lineno, err, len);
    if (strcmp(k.t[0], "RESET") == 0) {
        if (k.n != 2 || num(k.t[1], &x))
            BAD("RESET: <epoch> expected");
        new_epoch(c, x);
        return 0;
    }
    if (strcmp(k.t[0], "EVL1") == 0 || strcmp(k.t[0], "L1VICTIM") == 0) {
        int ev = k.t[0][0] == 'E';
        if (k.n != (ev ? 5 : 4) || num(k.t[1], &g) || num(k.t[2], &u) || hexa(k.t[3], &x) ||
            (ev && (num(k.t[4], &p) || p > 1)) || g > UINT32_MAX || u > UINT32_MAX)
            BAD("%s: malformed", k.t[0]);
        if ((cp = copy_of(c, (unsigned)g, (unsigned)u, x, 0)) == NULL)
            BAD("out of memory");
        if (ev && (int)p != cp->valid)
            report(c, HALCONE_CHECK_COPY, lineno, "0x%" PRIx64 ": EVL1 reports %" PRIu64
                   " but the log %s a copy", x, p, cp->valid ? "has" : "has no");
        cp->valid = 0;
        return 0;
    }
    if (strcmp(k.t[0], "EVL2") == 0 || strcmp(k.t[0], "L2VICTIM") == 0) {
        int ev = k.t[0][0] == 'E';
        if (k.n != (ev ? 4 : 3) || num(k.t[1], &g) || hexa(k.t[2], &x) ||
            (ev && (num(k.t[3], &p) || p > 1)) || g > UINT32_MAX)
            BAD("%s: malformed", k.t[0]);
        if ((cp = copy_of(c, (unsigned)g, 0, x, 1)) == NULL)
            BAD("out of memory");
        if (ev && (int)p != cp->valid)
            report(c, HALCONE_CHECK_COPY, lineno, "0x%" PRIx64 ": EVL2 reports %" PRIu64
                   " but the log %s a copy", x, p, cp->valid ? "has" : "has no");
        cp->valid = 0;
        return 0;
    }
    BAD("unknown log record '%s'", k.t[0]);
}

/* ---------------------------------------------------- order check -- */
static int key_cmp(const hck_acc *a, const hck_acc *b)
{
    if (a->epoch != b->epoch)
        return a->epoch < b->epoch ? -1 : 1;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    if (a->pos != b->pos)
        return a->pos < b->pos ? -1 : 1;
    return 0;
}

static int store_cmp(const void *x, const void *y)
{
    const hck_acc *a = x, *b = y;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return key_cmp(a, b);
}

uint64_t halcone_check_finish(halcone_check *c, FILE *out, halcone_check_result *r)
{
    hck_acc *s;
    size_t ns = 0, i, j;
    uint64_t bad = 0;
    int k;

    flush_drop(c, c->drop_lineno);
    s = malloc((c->nacc ? c->nacc : 1) * sizeof *s);
    if (s == NULL)
        c->oom = 1;
    for (i = 0; s && i < c->nacc; i++)
        if (c->acc[i].st)
            s[ns++] = c->acc[i];
    if (s)
        qsort(s, ns, sizeof *s, store_cmp);
    for (i = 0; s && i < c->nacc; i++) {
        const hck_acc *ld = &c->acc[i];
        size_t lo = 0, hi = ns, first, end;
        long want = -1, got = -1;
        uint64_t wantv;
        const char *kind;
        if (ld->st)
            continue;
        /* the block's stores: [first, end) */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (s[mid].line < ld->line)
                lo = mid + 1;
            else
                hi = mid;
        }
        first = lo;
        for (end = first; end < ns && s[end].line == ld->line; end++)
            if (key_cmp(&s[end], ld) < 0)
                want = (long)end;
        wantv = want >= 0 ? s[want].value : 0;
        if (ld->value == wantv)
            continue;
        /* the store that wrote the value read: nearest below the load in key
         * order, else nearest above; -1 (initial value or none) below */
        for (j = first; j < end; j++)
            if (s[j].value == ld->value && key_cmp(&s[j], ld) < 0)
                got = (long)j;
        if (got < 0 && ld->value != 0)
            for (j = first; j < end && got < 0; j++)
                if (s[j].value == ld->value)
                    got = (long)j;
        if (got >= 0 && key_cmp(&s[got], ld) > 0) {
            kind = "FUTURE";
            c->res.future++;
        } else {
            /* missed stores: between the value read and the load (none: a
             * value no store wrote, counted as STALE) */
            int earlier = 0, missed = 0;
            for (j = got >= 0 ? (size_t)got + 1 : first; want >= 0 && j <= (size_t)want; j++) {
                missed = 1;
                if (s[j].pos < ld->pos)
                    earlier = 1;
            }
            earlier |= !missed;
            kind = earlier ? "STALE" : "REORDER";
            if (earlier)
                c->res.stale++;
            else
                c->res.reorder++;
        }
        bad++;
        if (out)
            fprintf(out, "CHECK %s %lu 0x%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", kind,
                    ld->lineno, ld->line, ld->value, wantv);
    }
    free(s);
    if (out && c->msglen)
        fputs(c->msgs, out);
    for (k = 0; k < HALCONE_CHECK_NINV; k++)
        bad += c->res.inv[k];
    if (c->oom) {
        if (out)
            fprintf(out, "# INVARIANT checker out of memory\n");
        bad++;
    }
    c->res.epoch = c->epoch;
    if (r)
        *r = c->res;
    return bad;
}
