/*
 * The wiring both DualOpt compositions share (dualopt_e2e.c, the coalescing
 * path; dualopt_sys.c, the GPU at cycle level): the blocks of a GPU and
 * their port handles, the queues and tables of the coalescing path (L1
 * controller tag pool and fill buffer, RDMA engines, links, home word
 * selection) and the handshakes they have in common. The blocks and queues
 * themselves are the platform's (cmodel/compose.h).
 * Internal to the kit (not installed; cohkit: internal header): not part of the library's public API.
 */
#ifndef DUALOPT_WIRE_H
#define DUALOPT_WIRE_H

#include <stdint.h>

#include "bits.h"
#include "compose.h"
#include "dualopt_e2e.h"

/* Blocks of a GPU: the coalescing path (both compositions), then the RDMA
 * cache and the decision engine (the GPU at cycle level). */
enum { B_BGU, B_SCBU, B_MSHR, B_COAL, B_DECOAL, B_RC, B_DE, B_N };
#define DW_PATH_BLOCKS B_RC

enum { G_INST_VALID, G_INST_ACTIVE, G_INST_ADDR, G_INST_SIZE, G_REQ_READY, G_INST_READY,
       G_REQ_VALID, G_REQ_LINE, G_REQ_MASK, G_REQ_LANES, G_REQ_LAST, G_N };
enum { S_CFG_VALID, S_CFG_START, S_CFG_END, S_EN_VALID, S_EN_COALESCE, S_ACC_VALID, S_ACC_OP,
       S_ACC_ADDR, S_RES_READY, S_ACC_READY, S_RES_VALID, S_RES_OP, S_RES_ADDR, S_RES_LOCAL,
       S_RES_BYPASS, S_N };
enum { M_REQ_VALID, M_REQ_TAG, M_REQ_LINE, M_REQ_MASK, M_RSP_READY, M_FILL_VALID, M_FILL_ENTRY,
       M_DONE_READY, M_REQ_READY, M_RSP_VALID, M_RSP_KIND, M_RSP_TAG, M_RSP_ENTRY, M_RSP_LINE,
       M_RSP_MASK, M_FILL_READY, M_DONE_VALID, M_DONE_ENTRY, M_DONE_LINE, M_DONE_MASK,
       M_DONE_TAG, M_DONE_LAST, M_N };
enum { C_IN_VALID, C_IN_REG, C_IN_DST, C_IN_ID, C_IN_MASK, C_IN_DATA, C_IN_BYTES, C_PKT_READY,
       C_IN_READY, C_PKT_VALID, C_PKT_DST, C_PKT_LEN, C_PKT_DATA, C_N };
enum { D_PKT_VALID, D_PKT_SRC, D_PKT_LEN, D_PKT_DATA, D_OUT_READY, D_PKT_READY, D_OUT_VALID,
       D_OUT_REG, D_OUT_SRC, D_OUT_ID, D_OUT_DATA, D_OUT_BYTES, D_BAD, D_N };
enum { R_REQ_VALID, R_REQ_OP, R_REQ_ADDR, R_REQ_MASK, R_REQ_DATA, R_RSP_READY, R_OUT_READY,
       R_FILL_VALID, R_FILL_DATA, R_REQ_READY, R_RSP_VALID, R_RSP_KIND, R_RSP_LINE, R_RSP_WBS,
       R_RSP_INV, R_RSP_DATA, R_OUT_VALID, R_OUT_KIND, R_OUT_LINE, R_OUT_MASK, R_OUT_DATA,
       R_FILL_READY, R_N };
enum { E_ACC_VALID, E_ACC_KIND, E_ACC_HIT, E_ACC_MASK, E_KERNEL, E_RESTART, E_ACC_READY,
       E_DEC_VALID, E_DEC_MODE, E_MODE, E_BGU_MASK, E_SCBU_BYPASS, E_MSHR_MASK, E_RC_EN, E_N };

#define DW_PORTS_MAX 24

/* A block and the word offsets of its ports (the enums above). */
typedef struct {
    cmp_block *c;
    unsigned off[DW_PORTS_MAX];
} dw_blk;

#define PI(b, k) ((b)->c->in + (b)->off[k])
#define PO(b, k) ((b)->c->out + (b)->off[k])

#define Q_SCBU_CAP 2   /* BGU -> SCBU queue                      */
#define Q_MSHR_CAP 2   /* SCBU -> MSHR queue                     */
#define Q_COAL_CAP 4   /* home word selection -> coalescer       */
#define RESET_CYCLES 2
#define START_CYCLE (RESET_CYCLES + 2) /* SCBU programmed in cycle 2 */

enum { OP_RD = 0, OP_WR = 1, OP_AT = 2 };  /* accesses at the SCBU       */
enum { MSG_READ, MSG_WRITE, MSG_WB, MSG_AT }; /* requests to a home         */

/* An access on its way to the SCBU: a load's line read (the BGU's request)
 * or line w of a store or atomic. */
typedef struct { unsigned op, w; uint64_t line, mask, lanes; size_t load; } acc_item;
/* A request to a home, on the link until t. */
typedef struct { unsigned kind, src, id, fine; uint64_t line, mask, t; uint8_t data[DUALOPT_E2E_LINE]; } req_msg;
typedef struct { int live; size_t load; uint64_t line, mask, lanes; unsigned local, bypass; } tag_rec;
typedef struct { int live; unsigned local; uint64_t line, mask, have; uint8_t data[DUALOPT_E2E_LINE]; } ent_rec;
typedef struct { unsigned entry; uint64_t t; } local_item;
typedef struct { unsigned reg, dst, id, bytes; uint64_t mask; uint8_t data[DUALOPT_E2E_LINE]; } coal_item;
typedef struct { unsigned dst, len; uint64_t img[8]; uint64_t t; } pkt_item;
typedef struct { uint8_t line[DUALOPT_E2E_LINE]; } line_item;

/* The coalescing path of one GPU. */
typedef struct {
    dw_blk b[B_N];
    cmp_fifo q_scbu, q_side, q_mshr, q_retry, q_local, q_fill;
    int mshr_from_retry;
    tag_rec *tag;
    unsigned ntags, tags_free;
    ent_rec ent[64];
    cmp_fifo req_out[DUALOPT_E2E_GPUS_MAX];   /* requests to home h (after lat)  */
    cmp_fifo coal_in;                 /* home: responses for the coal.   */
    cmp_fifo rsp_link;                /* home: packets on its link       */
    cmp_fifo side[DUALOPT_E2E_GPUS_MAX];      /* home: line data of regular rsps */
    unsigned req_rr, dec_rr, dec_src;
    uint8_t done_data[DUALOPT_E2E_LINE];
    uint64_t done_have, done_line;
    size_t bgu_load;                  /* the load the BGU holds (accepted) */
    int bgu_busy;                     /* its requests are not all out     */
} dw_path;

static inline uint64_t dw_flits(uint64_t bytes) { return (bytes + DUALOPT_E2E_FLIT - 1) / DUALOPT_E2E_FLIT; }

/* The queues of a path. */
void dualopt_wire_init(dw_path *P);
void dualopt_wire_free(dw_path *P);
/* Blocks 0..nb-1 of GPU g into cs with presets[kind]; then the tag pool
 * (from the MSHR's tag width). 0, or -1 with a reason. */
int dualopt_wire_open(cmp_sys *cs, dw_path *P, unsigned nb, unsigned g,
                      const char *const *presets, char *err, size_t len);
/* The steps of a composition's cycle (ctx: the composition): per GPU the
 * inputs, the handshakes, the composition's own work; then, out of reset,
 * `after` (or NULL). */
typedef struct {
    void (*drive)(void *ctx, unsigned g);
    void (*observe)(void *ctx, unsigned g);
    void (*internal)(void *ctx, unsigned g);
    void (*after)(void *ctx);
} dw_steps;
/* One cycle of the blocks of n GPUs: inputs (all zero in reset), every
 * block evaluated, handshakes and work out of reset, every block clocked. */
void dualopt_wire_cycle(cmp_sys *cs, unsigned n, uint64_t cyc, const dw_steps *st, void *ctx);
/* Path empty (no load in the BGU, no tag, no queued access, entry or
 * message). */
int dualopt_wire_idle(const dw_path *P);

/* Inputs. A load on the BGU's input (active lanes, their addresses, bytes
 * per lane); req_ready from the SCBU queue's room. */
void dualopt_wire_drive_load(dw_path *P, uint64_t active, const uint64_t *addr, unsigned size);
void dualopt_wire_drive_bgu_ready(dw_path *P);
/* The SCBU: its range (GPU g's span) when cfg, its mode register when en,
 * the access at the head of its queue. */
void dualopt_wire_drive_scbu(dw_path *P, unsigned g, int cfg, int en, unsigned coalesce);
/* mask_all: every word of a line; use_mask: fine masks reach the MSHR for
 * bypassed requests. */
void dualopt_wire_drive_mshr(dw_path *P, int use_mask, uint64_t mask_all);
void dualopt_wire_drive_coal(dw_path *P, unsigned g, unsigned n, unsigned link_cap);
/* The de-coalescer of GPU g: round robin over the homes whose link holds a
 * packet for it at its head (all: every GPU's path). */
void dualopt_wire_drive_decoal(dw_path *const *all, unsigned g, unsigned n, uint64_t cyc);

/* Handshakes. The BGU's request (for the load it holds) into the SCBU
 * queue: 1 when it happened; then, when the BGU accepts the load on its
 * input (`load`), that load is the one it holds (its requests follow from
 * the next cycle). */
int dualopt_wire_bgu_request(dw_path *P, size_t load);
/* The SCBU took the access at the head of its queue (to the side queue);
 * the access it answered this cycle (head of q_side, the caller pops it)
 * with its local and bypass results, or NULL. */
const acc_item *dualopt_wire_scbu(dw_path *P, unsigned *local, unsigned *bypass);
/* A tag for a request the SCBU let through. */
unsigned dualopt_wire_tag(dw_path *P, size_t load, uint64_t line, uint64_t mask, uint64_t lanes,
                          unsigned local, unsigned bypass);
/* The MSHR took a request (from the retry queue or the SCBU's). */
void dualopt_wire_mshr_taken(dw_path *P);
/* A miss allocated entry e for tag t: the entry, fresh (*reused: it was
 * live). */
ent_rec *dualopt_wire_miss(dw_path *P, unsigned t, unsigned e, int *reused);
/* The fill handshake: the entry's data to the done beats. 1 when it
 * happened. */
int dualopt_wire_fill(dw_path *P);
/* A word of a fine-grained response for entry id: 1 taken, 0 unmatched. */
int dualopt_wire_word(dw_path *P, unsigned id, uint64_t d);
/* A packet the coalescer put on the link (pushed with arrival t), or 0. */
int dualopt_wire_packet(dw_path *P, unsigned g, unsigned n, uint64_t t, pkt_item *p);
/* The de-coalescer took the head of its source's link: 1, or 0. */
int dualopt_wire_decoal_took(dw_path *const *all, unsigned g, unsigned n);
typedef void dw_miss_fn(void *sys, unsigned g, unsigned t, unsigned e);
typedef void dw_done_fn(void *sys, unsigned g, const tag_rec *r);
/* The MSHR's handshakes of GPU g of composition sys: a miss goes to
 * miss(sys, g, tag, entry), a matching done beat to deliver(sys, g, tag);
 * hits, stalls, fills (may be NULL) and unmatched done beats are counted,
 * *progress set when anything happened. */
void dualopt_wire_observe_mshr(dw_path *P, dw_miss_fn *miss, dw_done_fn *deliver, void *sys,
                               unsigned g, uint64_t *hits, uint64_t *stalls, uint64_t *fills,
                               uint64_t *stray, int *progress);
/* The local read due at cyc, read by read(ctx, line, data) into its entry,
 * which goes to the fill queue: 1, or 0 when none is due. */
int dualopt_wire_local(dw_path *P, uint64_t cyc, uint64_t mask_all,
                       void (*read)(void *ctx, uint64_t line, uint8_t *d), void *ctx);
/* Home g serves one request a cycle from the requesters, round robin, when
 * its coalescer queue has room: answer(sys, g, src, m), then the request
 * leaves its link. 1 when one was served. */
int dualopt_wire_home(dw_path *const *all, unsigned g, unsigned n, uint64_t cyc,
                      void (*answer)(void *sys, unsigned g, unsigned src, const req_msg *m),
                      void *sys);
/* Entry e holds its line (have = mask_all): to the fill queue. */
void dualopt_wire_entry_done(dw_path *P, unsigned e);
/* The words of `line` that `mask` selects, packed into c->data. */
void dualopt_wire_select(const uint8_t *line, uint64_t mask, coal_item *c);

#endif
