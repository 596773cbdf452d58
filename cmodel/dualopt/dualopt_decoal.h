/*
 * DualOpt RDMA CoDec de-coalescer (section 4.1.3, Fig. 9; spec 2.4, 4.5):
 * recognises a coalesced packet by its header's compression field, checks
 * it and splits it into one word response per slot, in packet order;
 * regular packets pass through; malformed packets are rejected. The
 * configuration is the coalescer's (dualopt_coal.h).
 *
 * Functional core: dualopt_decoal_parse() on a packet's wire image. Timing shell
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
int dualopt_decoal_parse(const dualopt_codec_cfg *c, const uint8_t *img, unsigned len, dualopt_codec_pkt *p, char *why,
                 size_t wlen);

typedef struct {
    unsigned pkt_valid, pkt_src, pkt_len, pkt_data, out_ready, in_words;
    unsigned pkt_ready, out_valid, out_reg, out_src, out_id, out_data, out_bytes, bad, out_words;
} dualopt_decoal_layout;

typedef struct {
    dualopt_codec_cfg c;
    dualopt_codec_geom g;
    dualopt_decoal_layout l;
    unsigned busy, reg, src, n, idx, len, bad;
    uint16_t id;
    dualopt_codec_slot s[16];  /* the packet register's slots (all max of them) */
    uint64_t packets, slots, regs, bads;
} dualopt_decoal_tm;

void dualopt_decoal_layout_of(const dualopt_codec_cfg *c, dualopt_decoal_layout *l);
COHKIT_UNIT_TM_API(dualopt_decoal_tm, dualopt_codec_cfg, dualopt_decoal_tm_eval,
                   dualopt_decoal_tm_step, uint64_t, uint64_t);
/* pkt_ready_o for a given out_ready_i. */
int dualopt_decoal_tm_ready(const dualopt_decoal_tm *t, int out_ready);

/* Reads a decoal trace (PKT / WIRE / REGPKT); each packet is checked with
 * dualopt_decoal_parse (a malformed packet is a bad record). p[i].img/len hold the
 * wire image. 0 or -1 with "line N: ..." in err. */
int dualopt_decoal_trace_read(FILE *f, const dualopt_codec_cfg *c, dualopt_codec_pkt **v, size_t *n, char *err,
                      size_t len);

COHKIT_END_DECLS

#endif
