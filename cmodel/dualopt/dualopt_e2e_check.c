/*
 * The end-to-end check of the DualOpt composition, kept apart from the
 * composition (cmodel/dualopt/dualopt_e2e.c): it sees only the kernel (loads and
 * memory image) and the bytes the composition delivered to the lanes, and
 * requires every byte of every active lane to equal the memory image and to
 * have been delivered exactly once.
 */
#include <stdio.h>
#include <string.h>

#include "dualopt_e2e.h"

int dualopt_e2e_check(const dualopt_e2e_kernel *k, const dualopt_e2e_lanes *l, dualopt_e2e_check_res *r, char *msg, size_t len)
{
    size_t i;
    int first = 1;
    memset(r, 0, sizeof *r);
    if (msg && len)
        msg[0] = '\0';
    if (l->n != k->n) {
        if (msg)
            snprintf(msg, len, "results for %zu loads, kernel has %zu", l->n, k->n);
        return -1;
    }
    for (i = 0; i < k->n; i++) {
        const dualopt_e2e_load *ld = &k->ld[i];
        unsigned lane, b;
        for (lane = 0; lane < DUALOPT_E2E_LANES; lane++) {
            if (!((ld->active >> lane) & 1))
                continue;
            r->lanes++;
            for (b = 0; b < ld->size; b++) {
                uint64_t a = ld->addr[lane] + b;
                int want = dualopt_e2e_mem_byte(k, a);
                unsigned w = l->writes[i][lane][b];
                const char *what = NULL;
                r->bytes++;
                if (w == 0) {
                    r->missing++;
                    what = "never delivered";
                } else if (w > 1) {
                    r->extra++;
                    what = "delivered more than once";
                } else if (want < 0 || l->data[i][lane][b] != (uint8_t)want) {
                    r->wrong++;
                    what = "wrong value";
                }
                if (what && first && msg) {
                    snprintf(msg, len,
                             "load %zu (gpu %u) lane %u byte 0x%llx: %s (got 0x%02x, memory 0x%02x, "
                             "%u writes)",
                             i, ld->gpu, lane, (unsigned long long)a, what, l->data[i][lane][b],
                             want < 0 ? 0 : (unsigned)want, w);
                    first = 0;
                }
            }
        }
    }
    return r->wrong || r->missing || r->extra ? -1 : 0;
}
