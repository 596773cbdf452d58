/*
 * DualOpt remote access coalescing end to end: the composition of the BGU,
 * SCBU, bitmask MSHR, coalescer and de-coalescer of every GPU
 * (cmodel/dualopt/dualopt_e2e.h; docs/dualopt.md "End to end").
 *
 * Each cycle: (1) every block's inputs from the composition's state, (2)
 * every block evaluated, (3) the handshakes of the cycle update the
 * composition (queues, tag and entry tables, links, home reads, lane data),
 * (4) every block clocked. The composition's own logic is the glue of the
 * paper's Fig. 7a: the L1 controller's tag pool and fill buffer, the RDMA
 * engines' request and response paths, the home's line read and word
 * selection (D18), the links.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_bgu.h"
#include "dualopt_coal.h"
#include "dualopt_e2e.h"
#include "dualopt_mshr.h"
#include "dualopt_scbu.h"
#include "dualopt_wire.h"

/* -------------------------------------------------------------- state -- */


typedef struct {
    dw_path p;                        /* blocks, queues, tags, entries   */
    size_t *loads, nloads, next_load;
    size_t cur_load;                  /* the load on the BGU's input     */
} gpu_t;

struct dualopt_e2e_sys {
    dualopt_e2e_opts o;
    const dualopt_e2e_kernel *k;
    cmp_sys cs;
    gpu_t g[DUALOPT_E2E_GPUS_MAX];
    dw_path *path[DUALOPT_E2E_GPUS_MAX];
    uint64_t cyc, last_progress, home_reads, dec_slots;
    uint64_t mask_all;
    int progress;
    dualopt_e2e_traffic t;
    dualopt_e2e_lanes lanes;
};

void dualopt_e2e_opts_default(dualopt_e2e_opts *o)
{
    static const dualopt_e2e_opts d = {.gpus = 4, .mode = DUALOPT_E2E_COALESCE, .req_lat = 20,
                                       .rsp_lat = 20, .local_lat = 10, .link_cap = 4,
                                       .max_cycles = 2000000, .idle_limit = 2000,
                                       .preset = "default"};
    *o = d;
}

/* ---------------------------------------------------------- lifetime -- */

static int check_cfgs(dualopt_e2e_sys *s, char *err, size_t len)
{
    const dw_path *P = &s->g[0].p;
    const dualopt_bgu_cfg *bc = P->b[B_BGU].c->cfg;
    const dualopt_scbu_cfg *sc = P->b[B_SCBU].c->cfg;
    const dualopt_mshr_cfg *mc = P->b[B_MSHR].c->cfg;
    const dualopt_codec_cfg *cc = P->b[B_COAL].c->cfg, *dc = P->b[B_DECOAL].c->cfg;
    if (bc->lanes != DUALOPT_E2E_LANES || bc->line != DUALOPT_E2E_LINE || bc->gran != DUALOPT_E2E_GRAN ||
        mc->line != DUALOPT_E2E_LINE || mc->gran != DUALOPT_E2E_GRAN || cc->line != DUALOPT_E2E_LINE ||
        cc->gran != DUALOPT_E2E_GRAN || dc->line != DUALOPT_E2E_LINE || dc->gran != DUALOPT_E2E_GRAN) {
        snprintf(err, len, "configuration '%s': the composition needs 64 lanes, 64-byte lines and "
                 "4-byte words in every unit", s->o.preset);
        return -1;
    }
    if (bc->addr_bits != mc->addr_bits || sc->addr_bits != bc->addr_bits ||
        bc->addr_bits <= DUALOPT_E2E_SPAN_BITS + 2 || cc->gpus < s->o.gpus || dc->gpus < s->o.gpus ||
        cc->self != 0 || mc->entries > 64 || cc->pkt_bytes > 64) {
        snprintf(err, len, "configuration '%s': address widths, GPU counts or sizes do not fit "
                 "a %u-GPU composition", s->o.preset, s->o.gpus);
        return -1;
    }
    return 0;
}

static int check_opts(const dualopt_e2e_opts *o, const dualopt_e2e_kernel *k, char *err, size_t len)
{
    size_t i;
    if (o->gpus < 2 || o->gpus > DUALOPT_E2E_GPUS_MAX || o->gpus != k->gpus) {
        snprintf(err, len, "gpus %u: the composition takes 2..%d GPUs (kernel: %u)", o->gpus,
                 DUALOPT_E2E_GPUS_MAX, k->gpus);
        return -1;
    }
    if (o->req_lat == 0 || o->rsp_lat == 0 || o->local_lat == 0 || o->link_cap == 0) {
        snprintf(err, len, "latencies and the link capacity must be at least 1");
        return -1;
    }
    for (i = 0; i < k->n; i++)
        if (k->ld[i].gpu >= o->gpus || k->ld[i].size < 1 || k->ld[i].size > 16) {
            snprintf(err, len, "load %zu: gpu %u or size %u out of range", i, k->ld[i].gpu,
                     k->ld[i].size);
            return -1;
        }
    return 0;
}

/* Blocks, the loads of every GPU, the lane results. */
static int open_gpus(dualopt_e2e_sys *s, char *err, size_t len)
{
    const char *pre[B_N];
    unsigned g, j;
    size_t i;
    for (j = 0; j < B_N; j++)
        pre[j] = s->o.preset;
    if (s->o.mode == DUALOPT_E2E_LINE_MODE)
        pre[B_MSHR] = "line";
    for (g = 0; g < s->o.gpus; g++)
        if (dualopt_wire_open(&s->cs, &s->g[g].p, DW_PATH_BLOCKS, g, pre, err, len) != 0)
            return -1;
    if (check_cfgs(s, err, len) != 0)
        return -1;
    for (g = 0; g < s->o.gpus; g++) {
        gpu_t *G = &s->g[g];
        G->loads = calloc(s->k->n + 1, sizeof *G->loads);
        if (G->loads == NULL)
            return -1;
        for (i = 0; i < s->k->n; i++)
            if (s->k->ld[i].gpu == g)
                G->loads[G->nloads++] = i;
    }
    s->lanes.n = s->k->n;
    s->lanes.data = calloc(s->k->n + 1, sizeof *s->lanes.data);
    s->lanes.writes = calloc(s->k->n + 1, sizeof *s->lanes.writes);
    return s->lanes.data && s->lanes.writes ? 0 : -1;
}

dualopt_e2e_sys *dualopt_e2e_new(const dualopt_e2e_opts *o, const dualopt_e2e_kernel *k, const struct cmp_backend *b,
                 char *err, size_t len)
{
    dualopt_e2e_sys *s;
    unsigned g;
    if (check_opts(o, k, err, len) != 0)
        return NULL;
    s = calloc(1, sizeof *s);
    if (s == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    s->o = *o;
    if (s->o.preset == NULL)
        s->o.preset = "default";
    s->k = k;
    s->mask_all = (1ull << (DUALOPT_E2E_LINE / DUALOPT_E2E_GRAN)) - 1;
    cmp_sys_init(&s->cs, b);
    for (g = 0; g < DUALOPT_E2E_GPUS_MAX; g++) {
        dualopt_wire_init(&s->g[g].p);
        s->path[g] = &s->g[g].p;
    }
    err[0] = '\0';
    if (open_gpus(s, err, len) != 0) {
        if (err[0] == '\0')
            snprintf(err, len, "out of memory");
        dualopt_e2e_free(s);
        return NULL;
    }
    return s;
}

void dualopt_e2e_free(dualopt_e2e_sys *s)
{
    unsigned g;
    if (s == NULL)
        return;
    cmp_sys_free(&s->cs);
    for (g = 0; g < DUALOPT_E2E_GPUS_MAX; g++) {
        dualopt_wire_free(&s->g[g].p);
        free(s->g[g].loads);
    }
    free(s->lanes.data);
    free(s->lanes.writes);
    free(s);
}

/* ------------------------------------------------------------ inputs -- */

/* BGU: the GPU's next load, once its cycle has come */
static void drive_bgu(dualopt_e2e_sys *s, gpu_t *G)
{
    if (s->cyc >= START_CYCLE && G->next_load < G->nloads) {
        const dualopt_e2e_load *ld = &s->k->ld[G->loads[G->next_load]];
        if (s->cyc >= START_CYCLE + ld->cycle) {
            G->cur_load = G->loads[G->next_load];
            dualopt_wire_drive_load(&G->p, ld->active, ld->addr, ld->size);
        }
    }
    dualopt_wire_drive_bgu_ready(&G->p);
}

static void drive(dualopt_e2e_sys *s, unsigned g)
{
    gpu_t *G = &s->g[g];
    drive_bgu(s, G);
    /* SCBU: programmed once, then the BGU's requests as line reads */
    dualopt_wire_drive_scbu(&G->p, g, s->cyc == RESET_CYCLES, s->cyc == RESET_CYCLES,
                            s->o.mode == DUALOPT_E2E_COALESCE);
    dualopt_wire_drive_mshr(&G->p, 1, s->mask_all);
    dualopt_wire_drive_coal(&G->p, g, s->o.gpus, s->o.link_cap);
    dualopt_wire_drive_decoal(s->path, g, s->o.gpus, s->cyc);
}

/* ------------------------------------------------------- handshakes -- */

static void deliver(void *sys, unsigned g, const tag_rec *r)
{
    dualopt_e2e_sys *s = sys;
    gpu_t *G = &s->g[g];
    const dualopt_e2e_load *ld = &s->k->ld[r->load];
    unsigned lane, b;
    for (lane = 0; lane < DUALOPT_E2E_LANES; lane++) {
        if (!((r->lanes >> lane) & 1))
            continue;
        for (b = 0; b < ld->size; b++) {
            uint64_t a = ld->addr[lane] + b;
            unsigned off = (unsigned)(a % DUALOPT_E2E_LINE);
            if (a / DUALOPT_E2E_LINE != r->line || !((G->p.done_have >> (off / DUALOPT_E2E_GRAN)) & 1))
                continue;
            s->lanes.data[r->load][lane][b] = G->p.done_data[off];
            if (s->lanes.writes[r->load][lane][b] < 255)
                s->lanes.writes[r->load][lane][b]++;
        }
    }
}

static void read_line(const dualopt_e2e_sys *s, uint64_t line, uint8_t *d)
{
    unsigned j;
    for (j = 0; j < DUALOPT_E2E_LINE; j++) {
        int v = dualopt_e2e_mem_byte(s->k, line * DUALOPT_E2E_LINE + j);
        d[j] = (uint8_t)(v < 0 ? 0 : v);
    }
}

static void observe_bgu(dualopt_e2e_sys *s, gpu_t *G)
{
    dw_blk *b = &G->p.b[B_BGU];
    if (dualopt_wire_bgu_request(&G->p, G->cur_load)) {
        s->t.requests++;
        s->progress = 1;
    }
    if (PI(b, G_INST_VALID)[0] && PO(b, G_INST_READY)[0]) {
        const dualopt_e2e_load *ld = &s->k->ld[G->cur_load];
        G->next_load++;
        s->t.loads++;
        s->t.lanes += cohkit_popcount(ld->active);
        s->t.lane_bytes += (uint64_t)cohkit_popcount(ld->active) * ld->size;
        s->progress = 1;
    }
}

static void observe_scbu(dualopt_e2e_sys *s, gpu_t *G)
{
    unsigned local, bypass;
    const acc_item *it = dualopt_wire_scbu(&G->p, &local, &bypass);
    if (it) {
        dualopt_wire_tag(&G->p, it->load, it->line, it->mask, it->lanes, local, bypass);
        if (local)
            s->t.local++;
        else
            s->t.remote++;
        s->t.bypassed += bypass;
        cmp_fifo_pop(&G->p.q_side);
    }
}

/* a miss: the line from the local memory or from its home */
static void mshr_miss(void *sys, unsigned g, unsigned t, unsigned e)
{
    dualopt_e2e_sys *s = sys;
    gpu_t *G = &s->g[g];
    int reused;
    ent_rec *E = dualopt_wire_miss(&G->p, t, e, &reused);
    s->t.mshr_misses++;
    s->t.stray_words += (uint64_t)reused;
    if (E->local) {
        local_item li = {e, s->cyc + s->o.local_lat};
        cmp_fifo_push(&G->p.q_local, &li);
    } else {
        req_msg m;
        unsigned home = (unsigned)((E->line * DUALOPT_E2E_LINE) >> DUALOPT_E2E_SPAN_BITS);
        memset(&m, 0, sizeof m);
        m.src = g;
        m.id = e;
        m.fine = G->p.tag[t].bypass;
        m.line = E->line;
        m.mask = E->mask;
        m.t = s->cyc + s->o.req_lat;
        if (home >= s->o.gpus || home == g)
            s->t.stray_words++;
        else
            cmp_fifo_push(&G->p.req_out[home], &m);
        s->t.req_msgs++;
        s->t.req_bytes += DUALOPT_E2E_REQ_BYTES;
        s->t.req_flits += dw_flits(DUALOPT_E2E_REQ_BYTES);
    }
}

static void observe_mshr(dualopt_e2e_sys *s, gpu_t *G, unsigned g)
{
    dualopt_wire_observe_mshr(&G->p, mshr_miss, deliver, s, g, &s->t.mshr_hits,
                              &s->t.mshr_stalls, &s->t.fills, &s->t.stray_words, &s->progress);
}

/* coalescer (home side) */
static void observe_coal(dualopt_e2e_sys *s, gpu_t *G, unsigned g)
{
    dw_blk *b = &G->p.b[B_COAL];
    pkt_item p;
    if (PI(b, C_IN_VALID)[0] && PO(b, C_IN_READY)[0]) {
        const coal_item *c = cmp_fifo_at(&G->p.coal_in, 0);
        s->t.responses++;
        if (c->reg) {
            s->t.fine_bytes += c->bytes;
            s->t.fine_flits += dw_flits(c->bytes);
            s->t.line_bytes += c->bytes;
            s->t.line_flits += dw_flits(c->bytes);
        } else {
            unsigned k = cohkit_popcount(c->mask), fb = DUALOPT_CODEC_HDR_BYTES + k * DUALOPT_E2E_GRAN;
            s->t.fine_responses++;
            s->t.words += k;
            s->t.fine_bytes += fb;
            s->t.fine_flits += dw_flits(fb);
            s->t.line_bytes += DUALOPT_E2E_LINE_RSP_BYTES;
            s->t.line_flits += dw_flits(DUALOPT_E2E_LINE_RSP_BYTES);
        }
        cmp_fifo_pop(&G->p.coal_in);
        s->progress = 1;
    }
    if (dualopt_wire_packet(&G->p, g, s->o.gpus, s->cyc + s->o.rsp_lat, &p)) {
        s->t.packets++;
        s->t.bytes += p.len;
        s->t.flits += dw_flits(p.len);
        if (((p.img[0] >> 4) & 0xf) == 1) {
            s->t.coal_packets++;
            s->t.slots += (p.img[0] >> 8) & 0xf;
        } else
            s->t.reg_packets++;
        s->progress = 1;
    }
}

/* a regular response: its line from the home's side queue */
static void decoal_line(dualopt_e2e_sys *s, gpu_t *G, unsigned g, unsigned src, unsigned e)
{
    ent_rec *E = e < 64 ? &G->p.ent[e] : NULL;
    cmp_fifo *side = src < s->o.gpus ? &s->g[src].p.side[g] : NULL;
    if (src != g && side && side->n && E && E->live && !E->local && E->have == 0) {
        const line_item *li = cmp_fifo_at(side, 0);
        memcpy(E->data, li->line, DUALOPT_E2E_LINE);
        E->have = s->mask_all;
        cmp_fifo_pop(side);
        dualopt_wire_entry_done(&G->p, e);
    } else
        s->t.stray_words++;
}

/* de-coalescer (requester side) */
static void observe_decoal(dualopt_e2e_sys *s, gpu_t *G, unsigned g)
{
    dw_blk *b = &G->p.b[B_DECOAL];
    unsigned n = s->o.gpus;
    if (dualopt_wire_decoal_took(s->path, g, n))
        s->progress = 1;
    if (PO(b, D_BAD)[0])
        s->t.bad_packets++;
    if (PO(b, D_OUT_VALID)[0]) {
        unsigned src = (unsigned)PO(b, D_OUT_SRC)[0], e = (unsigned)PO(b, D_OUT_ID)[0];
        s->progress = 1;
        s->dec_slots++;
        if (s->o.fault == DUALOPT_E2E_FAULT_DROP && s->dec_slots == s->o.fault_n) {
            s->t.faults++; /* the output is lost, with a regular response's line */
            if (PO(b, D_OUT_REG)[0] && src < n && s->g[src].p.side[g].n)
                cmp_fifo_pop(&s->g[src].p.side[g]);
        } else if (PO(b, D_OUT_REG)[0])
            decoal_line(s, G, g, src, e);
        else if (!dualopt_wire_word(&G->p, e, PO(b, D_OUT_DATA)[0]))
            s->t.stray_words++;
    }
}

static void observe(dualopt_e2e_sys *s, unsigned g)
{
    gpu_t *G = &s->g[g];
    observe_bgu(s, G);
    observe_scbu(s, G);
    observe_mshr(s, G, g);
    observe_coal(s, G, g);
    observe_decoal(s, G, g);
}

/* the home's answer to one request: the selected words, or the line */
static void home_read(void *sys, unsigned g, unsigned src, const req_msg *m)
{
    dualopt_e2e_sys *s = sys;
    gpu_t *G = &s->g[g];
    coal_item c;
    uint8_t line[DUALOPT_E2E_LINE];
    unsigned j;
    read_line(s, m->line, line);
    s->home_reads++;
    if (s->o.fault == DUALOPT_E2E_FAULT_MEM && s->home_reads == s->o.fault_n) {
        for (j = 0; j < DUALOPT_E2E_LINE; j++)
            line[j] ^= 1;
        s->t.faults++;
    }
    memset(&c, 0, sizeof c);
    c.dst = src;
    c.id = m->id;
    if (m->fine)
        dualopt_wire_select(line, m->mask, &c);
    else {
        line_item li;
        c.reg = 1;
        c.bytes = DUALOPT_E2E_LINE_RSP_BYTES;
        memcpy(li.line, line, DUALOPT_E2E_LINE);
        cmp_fifo_push(&G->p.side[src], &li);
    }
    cmp_fifo_push(&G->p.coal_in, &c);
}

static void read_local(void *ctx, uint64_t line, uint8_t *d) { read_line(ctx, line, d); }

/* the composition's own cycle work: local reads, home reads */
static void internal(dualopt_e2e_sys *s, unsigned g)
{
    if (dualopt_wire_local(&s->g[g].p, s->cyc, s->mask_all, read_local, s))
        s->progress = 1;
    if (dualopt_wire_home(s->path, g, s->o.gpus, s->cyc, home_read, s))
        s->progress = 1;
}

static int idle(const dualopt_e2e_sys *s)
{
    unsigned g;
    for (g = 0; g < s->o.gpus; g++)
        if (s->g[g].next_load < s->g[g].nloads || !dualopt_wire_idle(&s->g[g].p))
            return 0;
    return 1;
}

static void step_drive(void *s, unsigned g) { drive(s, g); }
static void step_observe(void *s, unsigned g) { observe(s, g); }
static void step_internal(void *s, unsigned g) { internal(s, g); }
static const dw_steps e2e_steps = {step_drive, step_observe, step_internal, NULL};

int dualopt_e2e_cycle(dualopt_e2e_sys *s)
{
    s->progress = 0;
    dualopt_wire_cycle(&s->cs, s->o.gpus, s->cyc, &e2e_steps, s);
    if (s->progress || s->cyc < START_CYCLE)
        s->last_progress = s->cyc;
    s->t.cycles = ++s->cyc;
    return s->cyc > START_CYCLE && idle(s);
}

int dualopt_e2e_stuck(dualopt_e2e_sys *s)
{
    /* a kernel with loads far in the future is not stuck */
    unsigned g;
    for (g = 0; g < s->o.gpus; g++) {
        const gpu_t *G = &s->g[g];
        if (G->next_load < G->nloads &&
            s->k->ld[G->loads[G->next_load]].cycle + START_CYCLE > s->cyc)
            s->last_progress = s->cyc;
    }
    return s->cyc >= s->o.max_cycles || s->cyc - s->last_progress > s->o.idle_limit;
}

int dualopt_e2e_run(dualopt_e2e_sys *s)
{
    while (!dualopt_e2e_cycle(s))
        if (dualopt_e2e_stuck(s))
            return 1;
    return 0;
}

const dualopt_e2e_traffic *dualopt_e2e_traffic_of(const dualopt_e2e_sys *s) { return &s->t; }
const dualopt_e2e_lanes *dualopt_e2e_lanes_of(const dualopt_e2e_sys *s) { return &s->lanes; }

unsigned dualopt_e2e_outstanding(const dualopt_e2e_sys *s)
{
    unsigned g, n = 0;
    for (g = 0; g < s->o.gpus; g++)
        n += s->g[g].p.ntags - s->g[g].p.tags_free;
    return n;
}

cmp_sys *dualopt_e2e_blocks(dualopt_e2e_sys *s) { return &s->cs; }
int dualopt_e2e_in_reset(const dualopt_e2e_sys *s) { return s->cyc <= RESET_CYCLES; }

void dualopt_e2e_print(FILE *f, const char *lead, const dualopt_e2e_opts *o, const dualopt_e2e_traffic *t)
{
    fprintf(f, "%se2e %u GPUs, %s: %llu cycles, %llu loads, %llu lanes, %llu lane bytes\n", lead,
            o->gpus, o->mode == DUALOPT_E2E_COALESCE ? "coalescing" : "baseline (line mode)",
            (unsigned long long)t->cycles, (unsigned long long)t->loads,
            (unsigned long long)t->lanes, (unsigned long long)t->lane_bytes);
    fprintf(f, "%se2e requests %llu: local %llu, remote %llu (bypassed %llu); MSHR hits %llu "
            "misses %llu stalls %llu fills %llu\n",
            lead, (unsigned long long)t->requests, (unsigned long long)t->local,
            (unsigned long long)t->remote, (unsigned long long)t->bypassed,
            (unsigned long long)t->mshr_hits, (unsigned long long)t->mshr_misses,
            (unsigned long long)t->mshr_stalls, (unsigned long long)t->fills);
    fprintf(f, "%se2e request link: %llu requests, %llu bytes, %llu flits\n", lead,
            (unsigned long long)t->req_msgs, (unsigned long long)t->req_bytes,
            (unsigned long long)t->req_flits);
    fprintf(f, "%se2e response link: %llu packets (%llu coalesced, %llu regular), %llu slots, "
            "%llu bytes, %llu flits\n",
            lead, (unsigned long long)t->packets, (unsigned long long)t->coal_packets,
            (unsigned long long)t->reg_packets, (unsigned long long)t->slots,
            (unsigned long long)t->bytes, (unsigned long long)t->flits);
    fprintf(f, "%se2e same %llu responses (%llu fine-grained, %llu words): one per packet %llu "
            "bytes %llu flits; whole lines %llu bytes %llu flits\n",
            lead, (unsigned long long)t->responses, (unsigned long long)t->fine_responses,
            (unsigned long long)t->words, (unsigned long long)t->fine_bytes,
            (unsigned long long)t->fine_flits, (unsigned long long)t->line_bytes,
            (unsigned long long)t->line_flits);
    if (t->bad_packets || t->stray_words || t->faults)
        fprintf(f, "%se2e anomalies: %llu bad packets, %llu unmatched words or tags, %llu faults "
                "injected\n",
                lead, (unsigned long long)t->bad_packets, (unsigned long long)t->stray_words,
                (unsigned long long)t->faults);
}
