/*
 * The data words of a Spandex trace line (spandex-llc, spandex-tu): one hex
 * value per set bit of the mask, lowest word first.
 *
 * cohkit: internal header (not installed).
 */
#ifndef SPANDEX_TRACE_VALUES_H
#define SPANDEX_TRACE_VALUES_H

#include <stdint.h>

#include "bits.h"
#include "unit_trace.h"

/* v[w] for every w of mask, values of `bits` bits: 0, or -1 with the
 * reason (too few values, not hex, too wide) in the reader's error. */
static inline int spandex_trace_values(cohkit_trace_reader *r, uint64_t mask, unsigned bits, unsigned words,
                                       uint64_t *v)
{
    unsigned w, got = 0, need = cohkit_popcount(mask);
    for (w = 0; w < words; w++) {
        char *t;
        int rc;
        if (!(mask >> w & 1))
            continue;
        t = cohkit_trace_arg(r);
        if (t == NULL)
            return cohkit_trace_fail(r, "%s mask 0x%llx needs %u values, got %u", r->first, (unsigned long long)mask,
                                     need, got);
        rc = cohkit_trace_hex_width(t, bits, &v[w]);
        if (rc == -1)
            return cohkit_trace_fail(r, "value '%s' is not hex", t);
        if (rc == -2)
            return cohkit_trace_fail(r, "value '%s' is wider than a %u-bit word", t, bits);
        got++;
    }
    return 0;
}

#endif
