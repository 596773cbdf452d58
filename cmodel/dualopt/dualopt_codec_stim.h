/*
 * cohkit: internal header (not installed; its functions stay hidden in the
 * library, docs/model-api.md "Public and internal headers").
 *
 * Stimulus helpers of the DualOpt CoDec adapters (dualopt-coal,
 * dualopt-codec) and their tests: random responses of the coalescer's input
 * port and the port values that present them.
 */
#ifndef DUALOPT_CODEC_STIM_H
#define DUALOPT_CODEC_STIM_H

#include <stdint.h>

#include "dualopt_coal.h"
#include "unit_adapt.h"

/* Stimulus helpers shared by the coal and codec benches: a random response
 * (seeded xorshift state rng; sparse: single words only) and its port values. */
void dualopt_codec_rand_rsp(const dualopt_codec_cfg *c, uint64_t *rng, int sparse,
                            dualopt_codec_rsp *r);
void dualopt_codec_drive_rsp(const dualopt_codec_cfg *c, const dualopt_coal_layout *l,
                             const dualopt_codec_rsp *r, uint64_t *in);
/* Random benches: the fields the coalescer must ignore (every field while
 * valid is low, a regular response's mask and words, the words beyond
 * popcount(mask)) driven from their own generator; j
 * (dualopt_codec_draw_dontcare, drawn with each response) holds them steady
 * while the response waits. */
void dualopt_codec_draw_dontcare(const dualopt_codec_cfg *c, uint64_t *jrng,
                                 dualopt_codec_rsp *j);
void dualopt_codec_drive_dontcare(const dualopt_codec_cfg *c, const dualopt_coal_layout *l,
                                  uint64_t *jrng, const dualopt_codec_rsp *cur,
                                  const dualopt_codec_rsp *j, uint64_t *in);

/* The response source of the coalescer's input port, as the coal and codec
 * benches drive it: random responses (their don't-care fields from jrng)
 * with valid and ready phases redrawn every 2,048 cycles, or a trace's
 * records, each offered from two cycles after its cycle on. */
typedef struct {
    uint64_t jrng;
    unsigned p_valid, p_ready;
    int sparse, have; /* have: cur is offered                              */
    dualopt_codec_rsp cur, jreg;
    dualopt_codec_rsp *recs; /* a trace run's records                     */
    size_t nrec, next;
} dualopt_codec_src;

/* Seeds the source, reads a trace run's records: 0, or -1 with the reason
 * in err (the trace named). */
int dualopt_codec_src_init(dualopt_codec_src *r, const dualopt_codec_cfg *c,
                           const cohkit_unit_stim_base *b, const cohkit_unit_stim_args *a,
                           char *err, size_t len);
/* The input words of cycle cyc (in[1..in_words-1]; in[0] is the engine's):
 * the response and the output side's ready. */
void dualopt_codec_src_drive(dualopt_codec_src *r, const dualopt_codec_cfg *c,
                             const dualopt_coal_layout *l, cohkit_unit_stim_base *b, uint64_t cyc,
                             uint64_t *in);

#endif
