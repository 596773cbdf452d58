/*
 * Bit-width arithmetic of the units' configurations and geometries: log2,
 * widths of counters and indices, masks.
 *
 * cohkit: internal header (not installed): inline helpers of the models'
 * own sources, no exported declarations.
 */
#ifndef BITS_H
#define BITS_H

#include <stdint.h>

/* floor(log2(v)); 0 for v <= 1 */
static inline unsigned cohkit_ilog2(uint64_t v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

/* ceil(log2(v)); 0 for v <= 1 */
static inline unsigned cohkit_clog2(uint64_t v)
{
    unsigned n = 0;
    while (n < 64 && (1ull << n) < v)
        n++;
    return n;
}

/* bits to hold 0..v-1, at least 1 */
static inline unsigned cohkit_width(uint64_t v)
{
    unsigned n = cohkit_clog2(v);
    return n ? n : 1;
}

/* bits to write v, at least 1 */
static inline unsigned cohkit_bits_of(uint64_t v)
{
    unsigned n = 1;
    while (n < 64 && (v >> n) != 0)
        n++;
    return n;
}

static inline int cohkit_is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

/* the low `bits` bits set (all 64 for bits >= 64) */
static inline uint64_t cohkit_mask64(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* bits lo..lo+n-1 (n <= 64) of a little-endian vector of 64-bit words, and
 * their replacement by the low n bits of v, a word at a time */
static inline uint64_t cohkit_bits_get(const uint64_t *w, unsigned lo, unsigned n)
{
    uint64_t v;
    if (n == 0)
        return 0;
    v = w[lo / 64] >> (lo % 64);
    if (lo % 64 + n > 64)
        v |= w[lo / 64 + 1] << (64 - lo % 64);
    return v & cohkit_mask64(n);
}

static inline void cohkit_bits_put(uint64_t *w, unsigned lo, unsigned n, uint64_t v)
{
    uint64_t m = cohkit_mask64(n);
    unsigned s = lo % 64;
    if (n == 0)
        return;
    v &= m;
    w[lo / 64] = (w[lo / 64] & ~(m << s)) | (v << s);
    if (s + n > 64)
        w[lo / 64 + 1] = (w[lo / 64 + 1] & ~cohkit_mask64(s + n - 64)) | (v >> (64 - s));
}

static inline unsigned cohkit_popcount(uint64_t v)
{
    unsigned n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* the greatest common divisor (b = 0: a) */
static inline uint64_t cohkit_gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

#endif
