/*
 * DualOpt RDMA CoDec de-coalescer (section 4.1.3, Fig. 9; spec 2.4, 4.5):
 * recognises a coalesced packet by its header's compression field, checks
 * it and splits it into one word response per slot, in packet order;
 * regular packets pass through; malformed packets are rejected. The
 * configuration is the coalescer's (dualopt_coal.h).
 *
 * Functional core: decoal_parse() on a packet's wire image. Timing shell
 * (decoal_tm_*): the RTL's packet register and one slot per cycle.
 */
#ifndef DUALOPT_DECOAL_H
#define DUALOPT_DECOAL_H

#include "dualopt_coal.h"

#include "cohkit.h"

COHKIT_BEGIN_DECLS

/* Decodes the wire image img[0..len-1] (len bytes on the link; for a
 * regular packet only the 4-byte header is read). Fills p (reg, n, s[], id,
 * len). 0, or -1 with the reason in why (malformed packet). */
int decoal_parse(const codec_cfg *c, const uint8_t *img, unsigned len, codec_pkt *p, char *why,
                 size_t wlen);

typedef struct {
    unsigned pkt_valid, pkt_src, pkt_len, pkt_data, out_ready, in_words;
    unsigned pkt_ready, out_valid, out_reg, out_src, out_id, out_data, out_bytes, bad, out_words;
} decoal_layout;

typedef struct {
    codec_cfg c;
    codec_geom g;
    decoal_layout l;
    unsigned busy, reg, src, n, idx, len, bad;
    uint16_t id;
    codec_slot s[16];  /* the packet register's slots (all max of them) */
    uint64_t packets, slots, regs, bads;
} decoal_tm;

void decoal_layout_of(const codec_cfg *c, decoal_layout *l);
decoal_tm *decoal_tm_new(const codec_cfg *c);
void decoal_tm_free(decoal_tm *t);
void decoal_tm_reset(decoal_tm *t);
void decoal_tm_eval(const decoal_tm *t, const uint64_t *in, uint64_t *out);
void decoal_tm_step(decoal_tm *t, const uint64_t *in);
/* pkt_ready_o for a given out_ready_i. */
int decoal_tm_ready(const decoal_tm *t, int out_ready);

/* Reads a decoal trace (PKT / WIRE / REGPKT); each packet is checked with
 * decoal_parse (a malformed packet is a bad record). p[i].img/len hold the
 * wire image. 0 or -1 with "line N: ..." in err. */
int decoal_trace_read(FILE *f, const codec_cfg *c, codec_pkt **v, size_t *n, char *err,
                      size_t len);

COHKIT_END_DECLS

#endif
