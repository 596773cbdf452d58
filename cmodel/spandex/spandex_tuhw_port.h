/*
 * The Spandex translation unit's port words: an index per port of
 * spandex_tuhw_ports.def (SPANDEX_TUHW_P_<name>) and where its value lies in
 * the uint64_t arrays of the timing shell and the benches (inputs from
 * rst_ni at word 0, outputs from word 0; a port of W bits takes ceil(W / 64)
 * words). Data ports hold W words of word_bits, word w at bit w * word_bits.
 *
 * cohkit: internal header (not installed).
 */
#ifndef SPANDEX_TUHW_PORT_H
#define SPANDEX_TUHW_PORT_H

#include <stdint.h>

#include "spandex_tuhw.h"
#include "spandex_port_words.h"
#include "unit.h"

enum {
#define SPANDEX_TUHW_PORT(dir, name, w) SPANDEX_TUHW_P_##name,
#include "spandex_tuhw_ports.def"
#undef SPANDEX_TUHW_PORT
    SPANDEX_TUHW_P_COUNT
};

typedef struct {
    unsigned words[SPANDEX_TUHW_P_COUNT], off[SPANDEX_TUHW_P_COUNT];
    unsigned in_words, out_words;
    unsigned word_bits, nwords;
} spandex_tuhw_ports;

static inline void spandex_tuhw_ports_of(const spandex_tuhw_cfg *c, spandex_tuhw_ports *p)
{
    spandex_tuhw_geom geom, *g = &geom;
    unsigned in = 1, out = 0, i = 0;
    spandex_tuhw_geom_of(c, g);
#define SPANDEX_TUHW_PORT(dir, name, w)                                                                           \
    p->words[i] = COHKIT_UNIT_WORDS((unsigned)(w));                                                               \
    p->off[i] = COHKIT_PORT_##dir == COHKIT_PORT_IN ? in : out;                                                    \
    if (COHKIT_PORT_##dir == COHKIT_PORT_IN)                                                                       \
        in += p->words[i];                                                                                         \
    else                                                                                                           \
        out += p->words[i];                                                                                        \
    i++;
#include "spandex_tuhw_ports.def"
#undef SPANDEX_TUHW_PORT
    p->in_words = in;
    p->out_words = out;
    p->word_bits = g->word_bits;
    p->nwords = g->words;
}

/* The W words of data port `port` (spandex_port_words.h). */
static inline void spandex_tuhw_get_words(const spandex_tuhw_ports *p, const uint64_t *a, int port, uint64_t *v)
{
    spandex_port_words_get(a, p->off[port], p->word_bits, p->nwords, v);
}

/* Sets data port `port` to the words of v in mask (the other lanes 0). */
static inline void spandex_tuhw_put_words(const spandex_tuhw_ports *p, uint64_t *a, int port, const uint64_t *v,
                                          uint64_t mask)
{
    spandex_port_words_put(a, p->off[port], p->words[port], p->word_bits, p->nwords, v, mask);
}

#endif
