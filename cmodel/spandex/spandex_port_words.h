/*
 * The port words of the Spandex units (LLC, translation unit): where each
 * port of a unit's .def table lies in the uint64_t arrays of its timing
 * shell and benches (inputs from word 1, after rst_ni at word 0; outputs
 * from word 0; a port of W bits takes ceil(W / 64) words), and its data
 * ports: W words of word_bits (32 or 64), word w at bit w * word_bits of a
 * port starting at word `off` and `nw` words long.
 *
 * cohkit: internal header (not installed).
 */
#ifndef SPANDEX_PORT_WORDS_H
#define SPANDEX_PORT_WORDS_H

#include <stdint.h>

/* The W words of the data port at off. */
static inline void spandex_port_words_get(const uint64_t *a, unsigned off, unsigned word_bits, unsigned words,
                                          uint64_t *v)
{
    unsigned w, b = word_bits;
    for (w = 0; w < words; w++)
        v[w] = b == 64 ? a[off + w] : (a[off + w * b / 64] >> (w * b % 64)) & 0xffffffffull;
}

/* Sets the data port at off (nw words) to the words of v in mask (the
 * other lanes 0). */
static inline void spandex_port_words_put(uint64_t *a, unsigned off, unsigned nw, unsigned word_bits, unsigned words,
                                          const uint64_t *v, uint64_t mask)
{
    unsigned w, b = word_bits;
    for (w = 0; w < nw; w++)
        a[off + w] = 0;
    for (w = 0; w < words; w++)
        if (mask >> w & 1)
            a[off + w * b / 64] |= v[w] << (w * b % 64);
}

/* The layout of a unit's ports, indexed by the unit's port enum. */
#define SPANDEX_PORTS_MAX 64
typedef struct {
    unsigned words[SPANDEX_PORTS_MAX], off[SPANDEX_PORTS_MAX];
    unsigned in_words, out_words;
    unsigned word_bits, nwords;
} spandex_ports;

/* An empty layout for data ports of `nwords` words of word_bits. */
static inline void spandex_ports_begin(spandex_ports *p, unsigned word_bits, unsigned nwords)
{
    unsigned i;
    for (i = 0; i < SPANDEX_PORTS_MAX; i++)
        p->words[i] = p->off[i] = 0;
    p->in_words = 1;
    p->out_words = 0;
    p->word_bits = word_bits;
    p->nwords = nwords;
}

/* Port i (in: an input) of `bits` bits, after the ports added before it. */
static inline void spandex_ports_add(spandex_ports *p, unsigned i, int in, unsigned bits)
{
    unsigned *next = in ? &p->in_words : &p->out_words;
    p->words[i] = (bits + 63u) / 64u;
    p->off[i] = *next;
    *next += p->words[i];
}

/* The W words of data port `port`. */
static inline void spandex_ports_get_words(const spandex_ports *p, const uint64_t *a, int port, uint64_t *v)
{
    spandex_port_words_get(a, p->off[port], p->word_bits, p->nwords, v);
}

/* Sets data port `port` to the words of v in mask (the other lanes 0). */
static inline void spandex_ports_put_words(const spandex_ports *p, uint64_t *a, int port, const uint64_t *v,
                                           uint64_t mask)
{
    spandex_port_words_put(a, p->off[port], p->words[port], p->word_bits, p->nwords, v, mask);
}

#endif
