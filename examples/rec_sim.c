/*
 * rec_sim: the REC directory's functional core inside a small event-driven
 * multi-GPU simulator, the way gem5, MGPUSim/Akita or Accel-Sim would host
 * it: a priority queue of timed events, GPUs sending requests over links
 * with latency, the directory at the home GPU serving one request every
 * DIR_SERVICE cycles, invalidations travelling to the sharers and acks
 * travelling back.
 *
 *   rec_sim TRACE
 *
 * Prints every invalidation (INV <line-address> <gpu-mask>) in the order the
 * directory emitted it, then statistics. Writes the request stream, in the
 * order the directory served it, to TRACE as a text trace whose first line
 * is the cohmodel command that replays it: `make examples` checks that
 * build/bin/cohmodel prints the same INV lines and the same statistics line.
 *
 * Build against an installed library:
 *   cc -std=c11 $(pkg-config --cflags cohkit) rec_sim.c $(pkg-config --libs cohkit)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cohkit/cohkit.h>
#include <cohkit/rec.h>

enum { GPUS = 4, HOME = 1 };
enum { DIR_SERVICE = 2, INV_PROCESS = 3 };   /* cycles */
enum { REMOTE_REQS = 600, LOCAL_REQS = 300 }; /* per GPU */
#define REGION_BASE 0x100000000ull

typedef enum { EV_ISSUE, EV_DIR_ARRIVE, EV_DIR_ACCESS, EV_INV_ARRIVE, EV_ACK_ARRIVE } ev_kind;

typedef struct {
    uint64_t time, seq; /* ordered by time, then by scheduling order */
    ev_kind kind;
    unsigned gpu;
    size_t req;
} event;

typedef struct {
    rec_op op;
    uint64_t addr;
    unsigned src;
    uint64_t t_access;
    unsigned pending; /* acks still to come */
} request;

typedef struct {
    event *heap;
    size_t n, cap;
    uint64_t now, seq;
} event_queue;

typedef struct {
    event_queue q;
    rec_dir *dir;
    unsigned line_bits;
    FILE *trace;
    request *reqs;
    size_t nreqs;
    size_t current;               /* request being served by the directory */
    uint64_t rng[GPUS];
    unsigned issued[GPUS];
    uint64_t dir_free;            /* first cycle the directory port is free */
    uint64_t inv_sent[GPUS], inv_recv[GPUS], acks;
    uint64_t inv_msgs, inv_reqs, lat_sum, lat_max;
} sim;

/* ---------------------------------------------------------------- queue -- */

static int before(const event *a, const event *b)
{
    return a->time != b->time ? a->time < b->time : a->seq < b->seq;
}

static int schedule(sim *s, uint64_t delay, ev_kind kind, unsigned gpu, size_t req)
{
    event_queue *q = &s->q;
    size_t i;
    if (q->n == q->cap) {
        size_t nc = q->cap ? q->cap * 2 : 256;
        event *nh = realloc(q->heap, nc * sizeof *nh);
        if (nh == NULL)
            return -1;
        q->heap = nh;
        q->cap = nc;
    }
    i = q->n++;
    q->heap[i] = (event){q->now + delay, q->seq++, kind, gpu, req};
    while (i > 0 && before(&q->heap[i], &q->heap[(i - 1) / 2])) {
        event t = q->heap[i];
        q->heap[i] = q->heap[(i - 1) / 2];
        q->heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
    return 0;
}

static event pop(event_queue *q)
{
    event top = q->heap[0];
    size_t i = 0;
    q->heap[0] = q->heap[--q->n];
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < q->n && before(&q->heap[l], &q->heap[m]))
            m = l;
        if (r < q->n && before(&q->heap[r], &q->heap[m]))
            m = r;
        if (m == i)
            break;
        event t = q->heap[i];
        q->heap[i] = q->heap[m];
        q->heap[m] = t;
        i = m;
    }
    q->now = top.time;
    return top;
}

/* ------------------------------------------------------------- workload -- */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned link_latency(unsigned a, unsigned b)
{
    return a == b ? 1 : 10 + 4 * (a > b ? a - b : b - a);
}

/* 1 kB regions, three quarters of the accesses to the 24 hot ones. */
static uint64_t next_addr(uint64_t *rng)
{
    uint64_t r = splitmix64(rng);
    uint64_t region = (r & 3) ? (r >> 2) % 24 : 24 + (r >> 2) % 104;
    uint64_t line = (r >> 20) % 16, byte = (r >> 30) % 64;
    return REGION_BASE + region * 1024 + line * 64 + byte;
}

/* ------------------------------------------------------------ the model -- */

/* Invalidation sink, called from inside rec_core_access: it only schedules
 * the messages; it never calls back into the directory. */
static void on_inv(void *ctx, uint64_t line, uint32_t mask)
{
    sim *s = ctx;
    unsigned g;
    printf("INV 0x%llx 0x%x\n", (unsigned long long)(line << s->line_bits), (unsigned)mask);
    s->inv_msgs++;
    for (g = 0; g < GPUS; g++)
        if (mask >> g & 1) {
            s->inv_sent[g]++;
            s->reqs[s->current].pending++;
            if (schedule(s, link_latency(HOME, g), EV_INV_ARRIVE, g, s->current) != 0) {
                fprintf(stderr, "rec_sim: out of memory\n");
                exit(1);
            }
        }
}

static int handle(sim *s, const event *e)
{
    request *r;
    switch (e->kind) {
    case EV_ISSUE: {
        unsigned g = e->gpu, quota = g == HOME ? LOCAL_REQS : REMOTE_REQS;
        uint64_t x;
        if (s->issued[g] == quota)
            return 0;
        s->issued[g]++;
        r = &s->reqs[s->nreqs];
        x = splitmix64(&s->rng[g]);
        r->op = g == HOME ? REC_OP_LW : (x % 10 < 7 ? REC_OP_RR : REC_OP_RW);
        r->src = g;
        r->addr = next_addr(&s->rng[g]);
        if (schedule(s, link_latency(g, HOME), EV_DIR_ARRIVE, g, s->nreqs++) != 0)
            return -1;
        return schedule(s, (g == HOME ? 2 + x % 32 : 1 + x % 16), EV_ISSUE, g, 0);
    }
    case EV_DIR_ARRIVE: {
        /* one request every DIR_SERVICE cycles, in arrival order */
        uint64_t start = s->dir_free > s->q.now ? s->dir_free : s->q.now;
        s->dir_free = start + DIR_SERVICE;
        return schedule(s, start - s->q.now, EV_DIR_ACCESS, e->gpu, e->req);
    }
    case EV_DIR_ACCESS:
        r = &s->reqs[e->req];
        if (r->op == REC_OP_LW)
            fprintf(s->trace, "LW 0x%llx\n", (unsigned long long)r->addr);
        else
            fprintf(s->trace, "%s 0x%llx %u\n", rec_op_str(r->op), (unsigned long long)r->addr,
                    r->src);
        r->t_access = s->q.now;
        s->current = e->req;
        rec_core_access(s->dir, r->op, r->addr >> s->line_bits, r->src, on_inv, s);
        if (r->pending)
            s->inv_reqs++;
        return 0;
    case EV_INV_ARRIVE:
        s->inv_recv[e->gpu]++;
        return schedule(s, INV_PROCESS + link_latency(e->gpu, HOME), EV_ACK_ARRIVE, e->gpu, e->req);
    case EV_ACK_ARRIVE:
        r = &s->reqs[e->req];
        s->acks++;
        if (--r->pending == 0) {
            uint64_t lat = s->q.now - r->t_access;
            s->lat_sum += lat;
            if (lat > s->lat_max)
                s->lat_max = lat;
        }
        return 0;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const opts[][2] = {{"entries", "64"}, {"ways", "4"}, {"gpus", "4"}};
    rec_cfg cfg;
    sim s = {0};
    char err[256], args[256], name[128];
    const rec_stats *st;
    unsigned g;
    size_t i;

    if (argc != 2) {
        fprintf(stderr, "usage: rec_sim TRACE-OUT\n");
        return 2;
    }
    if (cohkit_version() / 10000 != COHKIT_VERSION_MAJOR) {
        fprintf(stderr, "rec_sim: library %s, built against %d.x\n", cohkit_version_string(),
                COHKIT_VERSION_MAJOR);
        return 2;
    }
    /* The paper's directory, made small enough to evict. */
    rec_cfg_preset(&cfg, "default");
    for (i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (rec_cfg_option(&cfg, opts[i][0], opts[i][1], err, sizeof err) != 0) {
            fprintf(stderr, "rec_sim: %s\n", err);
            return 2;
        }
    if (rec_cfg_check(&cfg, err, sizeof err) != 0) {
        fprintf(stderr, "rec_sim: %s\n", err);
        return 2;
    }
    s.trace = fopen(argv[1], "w");
    if (s.trace == NULL) {
        perror(argv[1]);
        return 2;
    }
    s.dir = rec_dir_new(&cfg);
    s.reqs = calloc((GPUS - 1) * REMOTE_REQS + LOCAL_REQS, sizeof *s.reqs);
    if (s.dir == NULL || s.reqs == NULL) {
        fprintf(stderr, "rec_sim: out of memory\n");
        return 1;
    }
    s.dir->home = HOME;
    s.line_bits = s.dir->g.line_bits;

    rec_cfg_args(&cfg, args, sizeof args);
    rec_cfg_name(&cfg, name, sizeof name);
    fprintf(s.trace, "# cohmodel rec %s --home %u\n", args, HOME);
    printf("# rec_sim: cohkit %s (headers %d.%d.%d), %s, %d GPUs, home GPU %d\n",
           cohkit_version_string(), COHKIT_VERSION_MAJOR, COHKIT_VERSION_MINOR,
           COHKIT_VERSION_PATCH, name, GPUS, HOME);

    for (g = 0; g < GPUS; g++) {
        s.rng[g] = 0x5eed0000u + g;
        if (schedule(&s, 1 + g, EV_ISSUE, g, 0) != 0)
            return 1;
    }
    while (s.q.n > 0) {
        event e = pop(&s.q);
        if (handle(&s, &e) != 0) {
            fprintf(stderr, "rec_sim: out of memory\n");
            return 1;
        }
    }

    st = &s.dir->st;
    /* Same line as `cohmodel rec --stats` on the trace. */
    printf("requests %zu  hits %llu  misses %llu  evictions %llu  invalidations %llu "
           "(write %llu, eviction %llu)  mean coalesced lines per evicted entry %.2f\n",
           s.nreqs, (unsigned long long)st->hits, (unsigned long long)st->misses,
           (unsigned long long)st->evictions, (unsigned long long)st->invalidations,
           (unsigned long long)st->write_invs, (unsigned long long)st->evict_invs,
           st->evictions ? (double)st->evicted_lines / (double)st->evictions : 0.0);
    for (g = 0; g < GPUS; g++)
        printf("gpu %u: requests %u  invalidations sent %llu  received %llu\n", g, s.issued[g],
               (unsigned long long)s.inv_sent[g], (unsigned long long)s.inv_recv[g]);
    printf("invalidation messages %llu, requests waiting for acks %llu, acks %llu, "
           "ack round trip mean %.2f max %llu cycles\n",
           (unsigned long long)s.inv_msgs, (unsigned long long)s.inv_reqs,
           (unsigned long long)s.acks, s.inv_reqs ? (double)s.lat_sum / (double)s.inv_reqs : 0.0,
           (unsigned long long)s.lat_max);
    printf("simulated cycles %llu\n", (unsigned long long)s.q.now);

    rec_dir_free(s.dir);
    free(s.reqs);
    free(s.q.heap);
    if (fclose(s.trace) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
