/*
 * DualOpt RDMA CoDec (Belayneh et al., PACT 2022, section 4.1.3, Fig. 9,
 * Table 1, section 6.2): the configuration shared by the coalescer
 * (dualopt-coal), the de-coalescer (dualopt-decoal) and the round trip
 * (dualopt-codec); the coalescer's functional core and timing shell.
 * Readings: docs/paper-notes.md (D1-D3, D15, D16, D18-D20) and the
 * specification's section 2.4; docs/dualopt.md describes the units.
 *
 * Functional core (akita terms: the RDMA engine's outside port towards the
 * requester GPU): dualopt_coal_push() queues a response with its arrival cycle,
 * dualopt_coal_tick() runs one cycle (admission, eligibility, round-robin send of at
 * most one packet). The timing shell (coal_tm_*) is the same core behind the
 * RTL's ports: the packet leaves through a register one cycle after the send
 * decision and the link may back-pressure it.
 */
#ifndef DUALOPT_COAL_H
#define DUALOPT_COAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"
#include "unit.h"

COHKIT_BEGIN_DECLS

typedef struct {
    unsigned gpus;       /* GPUs, 2..16: gpus-1 destination buffers         */
    unsigned self;       /* this (home) GPU's id                            */
    unsigned buf;        /* slots per destination buffer, power of two      */
    unsigned max;        /* slots per packet; 0 = derived                   */
    unsigned timeout;    /* idle timeout in cycles, 1..1023                 */
    unsigned gran;       /* word (slot data) bytes: 4, 8 or 16              */
    unsigned line;       /* line bytes, power of two, gran..256             */
    unsigned pkt_bytes;  /* packet budget in bytes (header included)        */
    unsigned flit;       /* flit bytes (statistics)                         */
    unsigned count_bits; /* header count field: 4 (D1 reading) or 3 (paper) */
    unsigned reg_depth;  /* pass-through queue entries, 1..16               */
} dualopt_codec_cfg;

/* Every derived width (dualopt_codec_geom_of, one place). */
typedef struct {
    unsigned nf;         /* destination buffers, gpus-1                     */
    unsigned words;      /* words per line = mask bits, line/gran           */
    unsigned max;        /* slots per packet (resolved)                     */
    unsigned max_budget; /* floor((pkt_bytes-4)/(gran+2))                   */
    unsigned slot_bits;  /* 8*gran + 16                                     */
    unsigned data_bits;  /* 8*gran                                          */
    unsigned banks;      /* RAM banks: power of two >= max(words, max)      */
    unsigned bank_bits;  /* log2(banks)                                     */
    unsigned rows;       /* rows per destination per bank, buf/banks        */
    unsigned row_bits;   /* log2(rows)                                      */
    unsigned depth;      /* words per bank RAM, nf*rows (at least 2)        */
    unsigned addr_bits;  /* bank RAM address bits                           */
    unsigned fifo_bits;  /* log2ceil(nf), 0 for one buffer                  */
    unsigned gpu_bits;   /* GPU id port width, >= 1                         */
    unsigned pos_bits;   /* log2(buf): head position                        */
    unsigned cnt_bits;   /* log2ceil(buf+1): slot count                     */
    unsigned k_bits;     /* log2ceil(words+1): slots of one response        */
    unsigned idle_bits;  /* log2ceil(timeout+1)                             */
    unsigned ptr_bits;   /* log2ceil(nf+1): round-robin pointer             */
    unsigned q_bits;     /* log2ceil(reg_depth) (>= 1)                      */
    unsigned qc_bits;    /* log2ceil(reg_depth+1)                           */
    unsigned n_bits;     /* log2ceil(max+1)                                 */
    unsigned in_data_bits;  /* 8*line: the response's words, packed        */
    unsigned pkt_data_bits; /* 8*pkt_bytes: one packet's wire image        */
    unsigned storage_bits;  /* nf*buf*slot_bits (paper: 3*64*48 = 9216)     */
} dualopt_codec_geom;

#define DUALOPT_CODEC_ID_BITS 16
#define DUALOPT_CODEC_LEN_BITS 16
#define DUALOPT_CODEC_HDR_BYTES 4
#define DUALOPT_CODEC_LINE_RSP_EXTRA 4 /* akita: a data response is len(data) + 4 B */

int dualopt_codec_cfg_preset(dualopt_codec_cfg *c, const char *name);
extern const char *const dualopt_codec_presets[];

/* 0; 1 when name is not a CoDec option; -1 with a reason. */
/* The options (cmodel/unit.h), behind dualopt_codec_cfg_option and dualopt_codec_cfg_args. */
extern const cohkit_unit_opt_table dualopt_codec_opts;
int dualopt_codec_cfg_option(dualopt_codec_cfg *c, const char *name, const char *value, char *err, size_t len);
/* Resolves max (0 = derived) and validates. 0 or -1 with a reason. */
int dualopt_codec_cfg_check(dualopt_codec_cfg *c, char *err, size_t len);
void dualopt_codec_geom_of(const dualopt_codec_cfg *c, dualopt_codec_geom *g);
void dualopt_codec_cfg_name(const char *prefix, const dualopt_codec_cfg *c, char *buf, size_t len);
void dualopt_codec_cfg_args(const dualopt_codec_cfg *c, char *buf, size_t len);

/* ---------------------------------------------------------------- core -- */

/* One slot: a G-byte word (up to 16 B: two 64-bit halves) and its ID. */
typedef struct {
    uint64_t d[2];
    uint16_t id;
} dualopt_codec_slot;

/* A response offered to the coalescer. Fine-grained: popcount(mask) words
 * in ascending bit order in w[]. Regular (reg = 1): bytes of the message. */
typedef struct {
    uint64_t cycle;      /* arrival cycle (functional core)                 */
    unsigned reg;
    unsigned dst;
    uint16_t id;
    uint64_t mask;
    unsigned bytes;
    uint64_t w[64][2];
    unsigned lineno;     /* trace line                                      */
} dualopt_codec_rsp;

/* One packet: coalesced (reg 0: n slots) or regular (reg 1). The wire image
 * (header + slots, little-endian) is in img[0 .. len-1] for coalesced packets
 * and img[0..3] (header) for regular ones. */
typedef struct {
    uint64_t cycle;
    unsigned reg;
    unsigned dst;
    unsigned n;
    dualopt_codec_slot s[16];
    uint16_t id;
    unsigned len;        /* bytes on the link                               */
    uint8_t img[256];
} dualopt_codec_pkt;

typedef struct {
    uint64_t packets, slots, bytes, flits, fine_flits, line_flits, responses;
    uint64_t reg_packets, timeouts, full_sends, discarded;
} dualopt_codec_stats;

typedef struct {
    dualopt_codec_cfg c;
    dualopt_codec_geom g;
    dualopt_codec_slot *ram;            /* nf * buf slots (ring per destination)    */
    unsigned *head, *count, *idle;
    unsigned ptr;
    unsigned q_dst[16], q_bytes[16], q_head, q_count;
    uint16_t q_id[16];
    dualopt_codec_stats st;
    /* functional core: responses pushed and not yet admitted */
    dualopt_codec_rsp *in;
    size_t in_n, in_cap, in_head;
    uint64_t now;
} dualopt_coal_core;

dualopt_coal_core *dualopt_coal_new(const dualopt_codec_cfg *c);
void dualopt_coal_free(dualopt_coal_core *k);
void dualopt_coal_reset(dualopt_coal_core *k);
/* FIFO index of a destination GPU, or -1 (own id or out of range). */
int dualopt_coal_fifo_of(const dualopt_codec_cfg *c, unsigned dst);
unsigned dualopt_coal_gpu_of(const dualopt_codec_cfg *c, unsigned fifo);
/* 1 when r can be admitted now (regular: queue not full; fine-grained: its
 * popcount(mask) slots are free; a response for no buffer or with an empty
 * mask is discarded, so always admissible). */
int dualopt_coal_admissible(const dualopt_coal_core *k, const dualopt_codec_rsp *r);
/* One cycle: admits r (if not NULL; it must be admissible), then, if
 * can_send, sends the first eligible member from the round-robin pointer
 * into *p. Returns 1 when a packet was sent. */
int dualopt_coal_cycle(dualopt_coal_core *k, const dualopt_codec_rsp *r, int can_send, dualopt_codec_pkt *p);
/* Builds the wire image and length of p (sets p->img, p->len). */
void dualopt_codec_pkt_image(const dualopt_codec_cfg *c, dualopt_codec_pkt *p);
/* Adds a response's accounting (responses, fine-flits, line-flits). */
void dualopt_codec_account_rsp(const dualopt_codec_cfg *c, dualopt_codec_stats *st, const dualopt_codec_rsp *r);

/* Functional core API (spec 5: codec_push / codec_tick). */
int dualopt_coal_push(dualopt_coal_core *k, const dualopt_codec_rsp *r); /* -1: out of memory */
typedef void (*dualopt_codec_pkt_fn)(void *ctx, const dualopt_codec_pkt *p);
/* Runs cycle k->now; returns 1 when a packet left. */
int dualopt_coal_tick(dualopt_coal_core *k, dualopt_codec_pkt_fn fn, void *ctx);
/* 1 when nothing is queued, buffered or pending. */
int dualopt_coal_idle(const dualopt_coal_core *k);

/* -------------------------------------------------------- timing shell -- */

/* Port word offsets of the coalescer (port table order, rst_ni first). */
typedef struct {
    unsigned in_valid, in_reg, in_dst, in_id, in_mask, in_data, in_bytes, pkt_ready, in_words;
    unsigned in_ready, pkt_valid, pkt_dst, pkt_len, pkt_data, out_words;
} dualopt_coal_layout;

typedef struct {
    dualopt_coal_core *k;
    dualopt_coal_layout l;
    unsigned v_valid, v_dst, v_len;
    uint8_t v_img[256];
    uint64_t sends;
} dualopt_coal_tm;

COHKIT_UNIT_TM_API(dualopt_coal_tm, dualopt_codec_cfg, dualopt_coal_tm_eval, dualopt_coal_tm_step,
                   uint64_t, uint64_t);
/* The response on the input ports. */
void dualopt_coal_tm_rsp(const dualopt_coal_tm *t, const uint64_t *in, dualopt_codec_rsp *r);
void dualopt_coal_layout_of(const dualopt_codec_cfg *c, dualopt_coal_layout *l);

/* ---------------------------------------------------------- trace I/O -- */

/* Bit helpers over little-endian uint64 word arrays. */

/* Reads a coal/codec trace (RSP / REG records). 0 or -1 with "line N: ..." */
int dualopt_coal_trace_read(FILE *f, const dualopt_codec_cfg *c, dualopt_codec_rsp **v, size_t *n, char *err, size_t len);
/* PKT / WIRE / REGPKT line of a packet. */
void dualopt_codec_print_pkt(FILE *f, const dualopt_codec_cfg *c, const dualopt_codec_pkt *p, int wire);
void dualopt_codec_print_data(FILE *f, const dualopt_codec_cfg *c, const uint64_t *d);
void dualopt_codec_print_stats(FILE *f, const dualopt_codec_stats *st);

COHKIT_END_DECLS

#endif
