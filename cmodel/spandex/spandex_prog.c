/*
 * `cohmodel spandex-prog`: seeded random data-race-free programs (spec 9.4
 * format, the synchronisation of 9.5 item 6; docs/spandex.md "Data-race-free
 * programs"). A program is a sequence of phases, each ended by DRAIN; a
 * phase is one step of a pattern (false sharing, flag, lock, barrier,
 * counter, read-mostly), and its operations are generated per device, then
 * interleaved at random with STEP lines.
 *
 * Data-race freedom holds by construction: the generator keeps the
 * happens-before order its synchronisation creates (one vector clock per
 * device, counted in releases) and, per data word, the last write and the
 * reads since; a data access is generated only when every conflicting
 * access before it is ordered before it. The order is the checker's: a
 * release is `REL` then a write of the synchronisation word, an acquire a
 * load (or RMW) of it then `ACQ`, and an acquire only takes releases of
 * earlier phases, which the DRAIN between has completed, so its load
 * returns that release's value (or a later one of the same word).
 */
#include "spandex_prog.h"
#include "cfg_check.h"
#include "unit.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The first line of every program: above every value a program writes, so
 * no store leaves a word's initial value (its address) and every value
 * written is unique (9.5 item 6 needs the source of a value). */
#define PG_BASE 0x100000ull
#define PG_OPS_MAX 100000u
#define PG_DEVS SPANDEX_LLC_DEVS_MAX

static const char *const pattern_names[SPANDEX_PROG_PATTERNS] = {
    "mixed", "false-sharing", "flag", "lock", "barrier", "counter", "read-mostly"};

const char *spandex_prog_pattern_name(unsigned p) { return p < SPANDEX_PROG_PATTERNS ? pattern_names[p] : NULL; }

void spandex_prog_cfg_default(spandex_prog_cfg *c)
{
    memset(c, 0, sizeof *c);
    spandex_sys_cfg_default(&c->sys);
    c->ops = 200;
    c->pattern = SPANDEX_PROG_MIXED;
}

int spandex_prog_cfg_option(spandex_prog_cfg *c, const char *name, const char *value, char *err, size_t len)
{
    uint64_t v;
    unsigned p;
    if (strcmp(name, "ops") == 0) {
        if (cohkit_cfg_dec("ops", value, 1, PG_OPS_MAX, &v, err, len))
            return -1;
        c->ops = (unsigned)v;
        return 0;
    }
    if (strcmp(name, "pattern") == 0) {
        for (p = 0; p < SPANDEX_PROG_PATTERNS; p++)
            if (strcmp(value, pattern_names[p]) == 0) {
                c->pattern = p;
                return 0;
            }
        return cohkit_cfg_fail(err, len, "--pattern '%s': must be mixed, false-sharing, flag, lock, barrier, "
                                         "counter or read-mostly", value);
    }
    return spandex_sys_cfg_option(&c->sys, name, value, err, len);
}

int spandex_prog_cfg_check(spandex_prog_cfg *c, char *err, size_t len)
{
    if (spandex_sys_cfg_check(&c->sys, err, len))
        return -1;
    if (c->sys.llc.addr_bits < 21) /* at most 0x100000 + (64 + 3 + 136) lines of 512 bytes */
        return cohkit_cfg_fail(err, len, "--addr-bits %u: the programs' addresses need 21 bits",
                               c->sys.llc.addr_bits);
    return 0;
}

/* ---- the generator's state ---------------------------------------------- */

typedef struct {
    char s[80];
} pg_text;

typedef struct {
    pg_text *v;
    size_t n, cap, next;
} pg_list;

/* A synchronisation word: the releases into it joined, those of earlier
 * phases (pub: what an acquire may take) and of this phase (pend). */
typedef struct {
    uint64_t addr;
    uint32_t pub[PG_DEVS], pend[PG_DEVS];
} pg_sync;

/* A data word: its last write (device, that device's epoch) and, per
 * device, the epoch of its last read since (0: none). */
typedef struct {
    int wdev;
    uint32_t wclk;
    uint32_t rd[PG_DEVS];
} pg_word;

/* The data regions: false sharing (word i private to device i mod N),
 * shared data of flags and barriers, read-mostly data, lock-protected. */
enum { R_FS, R_SD, R_RM, R_LK, R_REGIONS };

typedef struct {
    const spandex_prog_cfg *c;
    uint64_t rng;
    unsigned n, w, wb, lb, nctr;
    uint64_t val;                   /* the last value written            */
    uint32_t cur[PG_DEVS];          /* each device's epoch (releases + 1)*/
    uint32_t vc[PG_DEVS][PG_DEVS];  /* vc[d][e]: e's epochs ordered before d's next operation */
    pg_sync flag[PG_DEVS], lock, bar;
    uint64_t ctr, data;             /* counter line, data area           */
    unsigned rfirst[R_REGIONS], rwords[R_REGIONS]; /* first word, words  */
    pg_word *words;
    unsigned nwords;
    pg_list seg[PG_DEVS], out;
    size_t nops;                    /* operation lines generated         */
    unsigned phase;
    int oom;
} pg;

static uint64_t rnd(pg *g, uint64_t n) { return n ? cohkit_unit_splitmix(&g->rng) % n : 0; }
static int pct(pg *g, unsigned p) { return rnd(g, 100) < p; }

static void vput(pg *g, pg_list *l, const char *fmt, va_list ap)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        pg_text *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            g->oom = 1;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    vsnprintf(l->v[l->n++].s, sizeof l->v[0].s, fmt, ap);
}

static void put(pg *g, pg_list *l, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(pg *g, pg_list *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(g, l, fmt, ap);
    va_end(ap);
}

/* An operation line of device d in the current phase. */
static void op(pg *g, unsigned d, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void op(pg *g, unsigned d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(g, &g->seg[d], fmt, ap);
    va_end(ap);
    g->nops++;
}

static unsigned long long word_addr(const pg *g, unsigned i) { return g->data + (uint64_t)i * g->wb; }

/* ---- happens-before and the data words ---------------------------------- */

/* An access of device e in epoch clk is ordered before d's next operation. */
static int before(const pg *g, unsigned d, int e, uint32_t clk)
{
    return e < 0 || (unsigned)e == d || g->vc[d][e] >= clk;
}

static int may_read(const pg *g, unsigned d, unsigned i)
{
    return before(g, d, g->words[i].wdev, g->words[i].wclk);
}

static int may_write(const pg *g, unsigned d, unsigned i)
{
    unsigned e;
    if (!may_read(g, d, i))
        return 0;
    for (e = 0; e < g->n; e++)
        if (g->words[i].rd[e] && !before(g, d, (int)e, g->words[i].rd[e]))
            return 0;
    return 1;
}

static void data_ld(pg *g, unsigned d, unsigned i)
{
    g->words[i].rd[d] = g->cur[d];
    op(g, d, "LD %u 0x%llx", d, word_addr(g, i));
}

/* A ST (or, rmw set, an RMW add) of device d to data word i. */
static void data_st(pg *g, unsigned d, unsigned i, int rmw)
{
    pg_word *x = &g->words[i];
    x->wdev = (int)d;
    x->wclk = g->cur[d];
    memset(x->rd, 0, sizeof x->rd);
    if (rmw)
        op(g, d, "RMW %u 0x%llx add 0x%llx", d, word_addr(g, i), (unsigned long long)(1 + rnd(g, 9)));
    else
        op(g, d, "ST %u 0x%llx 0x%llx", d, word_addr(g, i), (unsigned long long)++g->val);
}

/* A read (write: a write) of a random word of region r that device d may
 * access: 1 when one was found in a few tries. */
static int try_access(pg *g, unsigned d, unsigned r, int write)
{
    unsigned t;
    for (t = 0; t < 8; t++) {
        unsigned i = g->rfirst[r] + (unsigned)rnd(g, g->rwords[r]);
        if (write ? may_write(g, d, i) : may_read(g, d, i)) {
            if (write)
                data_st(g, d, i, 0);
            else
                data_ld(g, d, i);
            return 1;
        }
    }
    return 0;
}

/* ---- synchronisation ---------------------------------------------------- */

enum { REL_ST, REL_SWP, REL_ADD };         /* the write after REL          */
enum { ACQ_LD, ACQ_RD, ACQ_SWP };          /* the load before ACQ          */

/* A release of device d into s: REL, then a write of s's word. */
static void release(pg *g, unsigned d, pg_sync *s, int how)
{
    unsigned e;
    op(g, d, "REL %u", d);
    if (how == REL_ST)
        op(g, d, "ST %u 0x%llx 0x%llx", d, (unsigned long long)s->addr, (unsigned long long)++g->val);
    else if (how == REL_SWP)
        op(g, d, "RMW %u 0x%llx swp 0x%llx", d, (unsigned long long)s->addr, (unsigned long long)++g->val);
    else
        op(g, d, "RMW %u 0x%llx add 0x1", d, (unsigned long long)s->addr);
    for (e = 0; e < g->n; e++) {
        uint32_t t = e == d ? g->cur[d] : g->vc[d][e];
        if (t > s->pend[e])
            s->pend[e] = t;
    }
    g->cur[d]++;
}

/* An acquire of device d from s (the releases of earlier phases): a load
 * of s's word, then ACQ. A plain load is preceded by an ACQ, which drops
 * the device's valid copies (a stale copy of the word would be read). */
static void acquire(pg *g, unsigned d, const pg_sync *s, int how)
{
    unsigned e;
    if (how == ACQ_LD) {
        op(g, d, "ACQ %u", d);
        op(g, d, "LD %u 0x%llx", d, (unsigned long long)s->addr);
    } else if (how == ACQ_RD) {
        op(g, d, "RMW %u 0x%llx rd", d, (unsigned long long)s->addr);
    } else {
        op(g, d, "RMW %u 0x%llx swp 0x%llx", d, (unsigned long long)s->addr, (unsigned long long)++g->val);
    }
    op(g, d, "ACQ %u", d);
    for (e = 0; e < g->n; e++)
        if (s->pub[e] > g->vc[d][e])
            g->vc[d][e] = s->pub[e];
}

/* Device d acquires from up to max other devices' flags that carry
 * releases it has not taken yet. */
static void catch_up(pg *g, unsigned d, unsigned max)
{
    unsigned k, start = (unsigned)rnd(g, g->n);
    for (k = 0; k < g->n && max; k++) {
        unsigned e = (start + k) % g->n;
        if (e != d && g->flag[e].pub[e] > g->vc[d][e]) {
            acquire(g, d, &g->flag[e], pct(g, 70) ? ACQ_LD : ACQ_RD);
            max--;
        }
    }
}

/* ---- phases ------------------------------------------------------------- */

static void phase_begin(pg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void phase_begin(pg *g, const char *fmt, ...)
{
    char what[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    put(g, &g->out, "# phase %u: %s", ++g->phase, what);
}

static void publish(pg_sync *s, unsigned n)
{
    unsigned e;
    for (e = 0; e < n; e++)
        if (s->pend[e] > s->pub[e])
            s->pub[e] = s->pend[e];
}

/* The devices' operations interleaved at random (each device's in its
 * order), STEP lines between, DRAIN at the end; the releases published. */
static void phase_end(pg *g)
{
    unsigned d, left;
    for (;;) {
        unsigned pick, k;
        for (left = 0, d = 0; d < g->n; d++)
            left += g->seg[d].next < g->seg[d].n;
        if (!left)
            break;
        pick = (unsigned)rnd(g, left);
        for (d = 0; d < g->n; d++)
            if (g->seg[d].next < g->seg[d].n && pick-- == 0)
                break;
        for (k = 1 + (unsigned)rnd(g, 3); k && g->seg[d].next < g->seg[d].n; k--)
            put(g, &g->out, "%s", g->seg[d].v[g->seg[d].next++].s);
        if (pct(g, 30))
            put(g, &g->out, "STEP %u", 1 + (unsigned)rnd(g, 4));
    }
    put(g, &g->out, "DRAIN");
    for (d = 0; d < g->n; d++) {
        g->seg[d].n = g->seg[d].next = 0;
        publish(&g->flag[d], g->n);
    }
    publish(&g->lock, g->n);
    publish(&g->bar, g->n);
}

/* ---- the patterns ------------------------------------------------------- */

/* One access of device d to its own false-sharing word i (private: word i
 * of the region belongs to device i mod N), or an EVICT of its line. */
static void own_access(pg *g, unsigned d, unsigned i, int first)
{
    unsigned k = first ? 0 : (unsigned)rnd(g, 100);
    if (k < 55)
        data_st(g, d, i, 0);
    else if (k < 85)
        data_ld(g, d, i);
    else if (k < 95)
        data_st(g, d, i, 1);
    else
        op(g, d, "EVICT %u 0x%llx", d, word_addr(g, i) & ~(unsigned long long)(g->lb - 1));
}

/* k accesses of device d to random own false-sharing words. */
static void private_work(pg *g, unsigned d, unsigned k)
{
    unsigned own = (g->rwords[R_FS] - d + g->n - 1) / g->n;
    while (k--)
        own_access(g, d, g->rfirst[R_FS] + d + g->n * (unsigned)rnd(g, own), 0);
}

/* False sharing: the devices with words in one line of the region each
 * write (first) and read their own words of it in the same phase. */
static void ep_false_sharing(pg *g)
{
    unsigned l = (unsigned)rnd(g, g->rwords[R_FS] / g->w), d, j;
    phase_begin(g, "false-sharing line 0x%llx", word_addr(g, g->rfirst[R_FS] + l * g->w));
    for (d = 0; d < g->n; d++) {
        unsigned mine[64], nm = 0, k, t;
        for (j = 0; j < g->w; j++)
            if ((l * g->w + j) % g->n == d)
                mine[nm++] = g->rfirst[R_FS] + l * g->w + j;
        if (!nm || (d > 1 && !pct(g, 80)))
            continue;
        for (t = 0, k = 2 + (unsigned)rnd(g, 5); t < k; t++)
            own_access(g, d, mine[rnd(g, nm)], t == 0);
    }
    phase_end(g);
}

static int release_how(pg *g) { return pct(g, 70) ? REL_ST : REL_SWP; }

/* Flag: a producer writes shared words and releases its flag; in the next
 * phase consumers acquire it and read them (some write and release their
 * own flags, so later writers can catch up with their reads). */
static void ep_flag(pg *g)
{
    unsigned p = (unsigned)rnd(g, g->n), d, i, nw = 0, wrote[4], any = 0;
    phase_begin(g, "flag: producer %u", p);
    catch_up(g, p, 2);
    for (i = 1 + (unsigned)rnd(g, 4); i; i--) {
        unsigned x = g->rfirst[R_SD] + (unsigned)rnd(g, g->rwords[R_SD]);
        if (may_write(g, p, x)) {
            data_st(g, p, x, 0);
            wrote[nw++] = x;
        }
    }
    release(g, p, &g->flag[p], release_how(g));
    for (d = 0; d < g->n; d++)
        if (d != p && pct(g, 40))
            private_work(g, d, 1 + (unsigned)rnd(g, 3));
    phase_end(g);
    phase_begin(g, "flag: consumers of %u", p);
    for (d = 0; d < g->n; d++) {
        if (d == p || (!pct(g, 70) && (any || d + 1 < g->n - (p == g->n - 1))))
            continue;
        any = 1;
        acquire(g, d, &g->flag[p], pct(g, 70) ? ACQ_LD : ACQ_RD);
        for (i = 0; i < nw; i++)
            if (may_read(g, d, wrote[i]))
                data_ld(g, d, wrote[i]);
        if (pct(g, 50))
            try_access(g, d, R_SD, 0);
        if (pct(g, 25))
            try_access(g, d, R_SD, 1);
        if (pct(g, 70))
            release(g, d, &g->flag[d], release_how(g));
    }
    if (pct(g, 50))
        private_work(g, p, 1 + (unsigned)rnd(g, 3));
    phase_end(g);
}

/* Lock: holders in turn, one a phase: RMW swp, ACQ, a critical section on
 * the lock's words (read, then write), REL, then swp or ST on the lock. */
static void ep_lock(pg *g)
{
    unsigned k = 2 + (unsigned)rnd(g, 3), d;
    while (k--) {
        unsigned h = (unsigned)rnd(g, g->n), t;
        phase_begin(g, "lock: holder %u", h);
        acquire(g, h, &g->lock, ACQ_SWP);
        for (t = 1 + (unsigned)rnd(g, 3); t; t--) {
            unsigned x = g->rfirst[R_LK] + (unsigned)rnd(g, g->rwords[R_LK]);
            if (may_read(g, h, x))
                data_ld(g, h, x);
            if (may_write(g, h, x))
                data_st(g, h, x, 0);
        }
        release(g, h, &g->lock, release_how(g));
        for (d = 0; d < g->n; d++)
            if (d != h && pct(g, 40))
                private_work(g, d, 1 + (unsigned)rnd(g, 3));
        phase_end(g);
    }
}

/* Barrier: every device works, releases and adds 1 to the counter; in the
 * next phase every device reads the final count (RMW rd, or LD after an
 * ACQ) and acquires: every device's work before the barrier is ordered
 * before every device's work after it. */
static void ep_barrier(pg *g)
{
    unsigned d;
    phase_begin(g, "barrier: arrive");
    for (d = 0; d < g->n; d++) {
        if (pct(g, 60))
            private_work(g, d, 1 + (unsigned)rnd(g, 3));
        if (pct(g, 40))
            try_access(g, d, R_SD, (unsigned)rnd(g, 2));
        release(g, d, &g->bar, REL_ADD);
    }
    phase_end(g);
    phase_begin(g, "barrier: leave");
    for (d = 0; d < g->n; d++) {
        unsigned t;
        acquire(g, d, &g->bar, pct(g, 50) ? ACQ_RD : ACQ_LD);
        for (t = (unsigned)rnd(g, 3); t; t--)
            try_access(g, d, R_SD, 0);
    }
    phase_end(g);
}

/* Counter: atomics only (RMWs are synchronisation accesses, never a
 * race) from several devices on the words of the counter line. */
static void ep_counter(pg *g)
{
    unsigned d, any = 0;
    phase_begin(g, "counter");
    for (d = 0; d < g->n; d++) {
        unsigned t;
        if (!pct(g, 75) && any + (g->n - d - 1) >= 2)
            continue;
        any++;
        for (t = 2 + (unsigned)rnd(g, 5); t; t--) {
            unsigned long long a = g->ctr + rnd(g, g->nctr) * g->wb;
            unsigned k = (unsigned)rnd(g, 100);
            if (k < 55)
                op(g, d, "RMW %u 0x%llx add 0x%llx", d, a, (unsigned long long)(1 + rnd(g, 9)));
            else if (k < 75)
                op(g, d, "RMW %u 0x%llx rd", d, a);
            else if (k < 90)
                op(g, d, "RMW %u 0x%llx swp 0x%llx", d, a, (unsigned long long)++g->val);
            else
                op(g, d, "RMW %u 0x%llx or 0x%llx", d, a, 1ull << rnd(g, 8));
        }
    }
    phase_end(g);
}

/* Read-mostly: a writer catches up with every device's flag (the readers
 * of the last round released) and writes a quarter of the region, then
 * releases its flag; for two to four phases readers acquire it once and
 * read the words again and again (hits in their caches), and in the last
 * round every reader releases its own flag. */
static void ep_read_mostly(pg *g)
{
    unsigned w = (unsigned)rnd(g, g->n), rounds = 2 + (unsigned)rnd(g, 3), r, d, i;
    unsigned char joined[PG_DEVS] = {0};
    phase_begin(g, "read-mostly: writer %u", w);
    catch_up(g, w, g->n);
    for (i = 0; i < g->rwords[R_RM]; i++)
        if (pct(g, 25) && may_write(g, w, g->rfirst[R_RM] + i))
            data_st(g, w, g->rfirst[R_RM] + i, 0);
    release(g, w, &g->flag[w], REL_ST);
    for (d = 0; d < g->n; d++)
        if (d != w && pct(g, 40))
            private_work(g, d, 1 + (unsigned)rnd(g, 3));
    phase_end(g);
    for (r = 0; r < rounds; r++) {
        phase_begin(g, "read-mostly: readers of %u, round %u", w, r + 1);
        for (d = 0; d < g->n; d++) {
            unsigned t;
            if (d == w || (!pct(g, 85) && !(joined[d] && r + 1 == rounds)))
                continue;
            if (!joined[d])
                acquire(g, d, &g->flag[w], ACQ_LD);
            joined[d] = 1;
            for (t = 4 + (unsigned)rnd(g, 9); t; t--)
                try_access(g, d, R_RM, 0);
            if (pct(g, 10))
                op(g, d, "EVICT %u 0x%llx", d, word_addr(g, g->rfirst[R_RM] + (unsigned)rnd(g, g->rwords[R_RM])));
            if (r + 1 == rounds)
                release(g, d, &g->flag[d], REL_ST);
        }
        if (pct(g, 50))
            private_work(g, w, 1 + (unsigned)rnd(g, 3));
        phase_end(g);
    }
}

/* ---- the program -------------------------------------------------------- */

/* The address map (lines from PG_BASE): the flags (one line each), the
 * lock, the barrier, the counters, then the data regions. */
static int pg_init(pg *g, const spandex_prog_cfg *c)
{
    static const unsigned lines[R_REGIONS] = {0, 4, 2, 2}; /* R_FS: by the devices */
    unsigned d, r, first = 0;
    memset(g, 0, sizeof *g);
    g->c = c;
    g->rng = c->sys.seed;
    g->n = c->sys.ndev;
    g->lb = c->sys.llc.line;
    g->wb = c->sys.llc.word;
    g->w = g->lb / g->wb;
    g->nctr = g->w < 4 ? g->w : 4;
    for (d = 0; d < g->n; d++) {
        g->cur[d] = 1;
        g->flag[d].addr = PG_BASE + (uint64_t)d * g->lb;
    }
    g->lock.addr = PG_BASE + (uint64_t)g->n * g->lb;
    g->bar.addr = g->lock.addr + g->lb;
    g->ctr = g->bar.addr + g->lb;
    g->data = g->ctr + g->lb;
    for (r = 0; r < R_REGIONS; r++) {
        unsigned l = r == R_FS ? (2 * g->n + g->w - 1) / g->w : lines[r];
        if (l < 2)
            l = 2;
        g->rfirst[r] = first;
        g->rwords[r] = l * g->w;
        first += l * g->w;
    }
    g->nwords = first;
    g->words = calloc(first, sizeof *g->words);
    if (!g->words)
        return -1;
    for (d = 0; d < first; d++)
        g->words[d].wdev = -1;
    return 0;
}

static void pg_free(pg *g)
{
    unsigned d;
    for (d = 0; d < PG_DEVS; d++)
        free(g->seg[d].v);
    free(g->out.v);
    free(g->words);
}

/* The device of an operation line (-1: a comment, STEP, DRAIN). */
static int dev_of(const char *s)
{
    if (s[0] == '#' || strncmp(s, "STEP", 4) == 0 || strcmp(s, "DRAIN") == 0)
        return -1;
    return atoi(strchr(s, ' ') + 1);
}

/* The program is cut after its N-th operation line (at i); a device whose
 * last line is then the load of an acquire keeps the ACQ after it (its
 * next line in the phase), or the load would be a data access. */
static void keep_acqs(const pg *g, size_t i, FILE *out)
{
    int last[PG_DEVS];
    size_t j;
    unsigned d;
    memset(last, -1, sizeof last);
    for (j = 0; j < i; j++)
        if (dev_of(g->out.v[j].s) >= 0)
            last[dev_of(g->out.v[j].s)] = (int)j;
    for (d = 0; d < g->n; d++) {
        if (last[d] < 0 || strncmp(g->out.v[last[d]].s, "LD ", 3) != 0)
            continue;
        for (j = i; j < g->out.n && strcmp(g->out.v[j].s, "DRAIN") != 0; j++)
            if (dev_of(g->out.v[j].s) == (int)d) {
                if (strncmp(g->out.v[j].s, "ACQ ", 4) == 0)
                    fprintf(out, "%s\n", g->out.v[j].s);
                break;
            }
    }
}

static int is_op(const char *s) { return dev_of(s) >= 0; }

int spandex_prog_write(const spandex_prog_cfg *c, FILE *out, char *err, size_t len)
{
    static void (*const episode[SPANDEX_PROG_PATTERNS])(pg *) = {
        NULL, ep_false_sharing, ep_flag, ep_lock, ep_barrier, ep_counter, ep_read_mostly};
    pg *g = malloc(sizeof *g);
    size_t i, ops = 0;
    unsigned d;
    if (!g || pg_init(g, c) != 0) {
        if (g)
            pg_free(g);
        free(g);
        snprintf(err, len, "out of memory");
        return -1;
    }
    while (g->nops < c->ops && !g->oom)
        episode[c->pattern ? c->pattern : 1 + rnd(g, SPANDEX_PROG_PATTERNS - 1)](g);
    if (g->oom) {
        pg_free(g);
        free(g);
        snprintf(err, len, "out of memory");
        return -1;
    }
    fprintf(out, "# cohmodel spandex-prog --pattern %s --seed %llu --ops %u --line %u --word %u",
            pattern_names[c->pattern], (unsigned long long)c->sys.seed, c->ops, g->lb, g->wb);
    for (d = 0; d < g->n; d++) /* 16 devices a line: the readers take lines of 1,022 characters */
        fprintf(out, "%s --dev %u:%s", d && d % 16 == 0 ? "\n#" : "", d,
                c->sys.kind[d] == SPANDEX_TU_GPU ? "gpu" : c->sys.kind[d] == SPANDEX_TU_DENOVO ? "denovo" : "mesi");
    fprintf(out, "\n# data-race-free by construction (docs/spandex.md \"Data-race-free programs\")\n");
    for (i = 0; i < g->out.n && ops < c->ops; i++) {
        ops += (size_t)is_op(g->out.v[i].s);
        fprintf(out, "%s\n", g->out.v[i].s);
    }
    keep_acqs(g, i, out);
    pg_free(g);
    free(g);
    return 0;
}
