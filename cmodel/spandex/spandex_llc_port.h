/*
 * The Spandex LLC's port words: an index per port of spandex_llc_ports.def
 * (SPANDEX_LLC_P_<name>) and where its value lies in the uint64_t arrays of
 * the timing shell and the benches (inputs from rst_ni at word 0, outputs
 * from word 0; a port of W bits takes ceil(W / 64) words). Data ports hold
 * W words of word_bits, word w at bit w * word_bits.
 *
 * cohkit: internal header (not installed): shared by the Spandex model's
 * own sources.
 */
#ifndef SPANDEX_LLC_PORT_H
#define SPANDEX_LLC_PORT_H

#include <stdint.h>

#include "spandex_llc.h"
#include "spandex_port_words.h"
#include "unit.h"

enum {
#define SPANDEX_LLC_PORT(dir, name, w) SPANDEX_LLC_P_##name,
#include "spandex_llc_ports.def"
#undef SPANDEX_LLC_PORT
    SPANDEX_LLC_P_COUNT
};

typedef struct {
    unsigned words[SPANDEX_LLC_P_COUNT], off[SPANDEX_LLC_P_COUNT];
    unsigned in_words, out_words;
    unsigned word_bits, nwords;
} spandex_llc_ports;

static inline void spandex_llc_ports_of(const spandex_llc_cfg *c, spandex_llc_ports *p)
{
    spandex_llc_geom geom, *g = &geom;
    unsigned in = 1, out = 0, i = 0;
    spandex_llc_geom_of(c, g);
#define SPANDEX_LLC_PORT(dir, name, w)                                                                            \
    p->words[i] = COHKIT_UNIT_WORDS((unsigned)(w));                                                               \
    p->off[i] = COHKIT_PORT_##dir == COHKIT_PORT_IN ? in : out;                                                    \
    if (COHKIT_PORT_##dir == COHKIT_PORT_IN)                                                                       \
        in += p->words[i];                                                                                         \
    else                                                                                                           \
        out += p->words[i];                                                                                        \
    i++;
#include "spandex_llc_ports.def"
#undef SPANDEX_LLC_PORT
    p->in_words = in;
    p->out_words = out;
    p->word_bits = g->word_bits;
    p->nwords = g->words;
}

/* The W words of data port `port` (spandex_port_words.h). */
static inline void spandex_llc_port_get_words(const spandex_llc_ports *p, const uint64_t *a, int port, uint64_t *v)
{
    spandex_port_words_get(a, p->off[port], p->word_bits, p->nwords, v);
}

/* Sets data port `port` to the words of v in mask (the other lanes 0). */
static inline void spandex_llc_port_put_words(const spandex_llc_ports *p, uint64_t *a, int port, const uint64_t *v,
                                              uint64_t mask)
{
    spandex_port_words_put(a, p->off[port], p->words[port], p->word_bits, p->nwords, v, mask);
}

#endif
