/*
 * Data ports of the Spandex units in the uint64_t port-word arrays of the
 * timing shells and the benches: W words of word_bits (32 or 64), word w at
 * bit w * word_bits of a port starting at word `off` and `nw` words long.
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

#endif
