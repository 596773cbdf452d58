/*
 * Kernels of the DualOpt end-to-end composition: a memory image (a region
 * of DUALOPT_E2E_REGION bytes at the bottom of every GPU's 4 GB) and wavefront
 * loads, seeded random or directed (cmodel/dualopt/dualopt_e2e.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_e2e.h"
#include "unit.h"

const char *const dualopt_e2e_kind_names[] = {"mixed", "stride", "scatter", "crossing", "sparse",
                                      "full",  "cross11", "lone",  NULL};

int dualopt_e2e_kind_of(const char *name)
{
    int i;
    for (i = 0; dualopt_e2e_kind_names[i]; i++)
        if (strcmp(dualopt_e2e_kind_names[i], name) == 0)
            return i;
    return -1;
}

static uint64_t below(uint64_t *s, uint64_t n) { return n ? cohkit_unit_rnd(s) % n : 0; }

int dualopt_e2e_kernel_init(dualopt_e2e_kernel *k, unsigned gpus, uint64_t seed)
{
    uint64_t r = seed * 0x9E3779B97F4A7C15ull + 0x1234567ull;
    size_t i;
    memset(k, 0, sizeof *k);
    if (gpus < 2 || gpus > DUALOPT_E2E_GPUS_MAX)
        return -1;
    k->gpus = gpus;
    k->mem = malloc((size_t)gpus * DUALOPT_E2E_REGION);
    if (k->mem == NULL)
        return -1;
    if (r == 0)
        r = 1;
    for (i = 0; i < (size_t)gpus * DUALOPT_E2E_REGION; i += 8) {
        uint64_t v = cohkit_unit_rnd(&r);
        memcpy(k->mem + i, &v, 8);
    }
    return 0;
}

void dualopt_e2e_kernel_free(dualopt_e2e_kernel *k)
{
    free(k->mem);
    free(k->ld);
    memset(k, 0, sizeof *k);
}

int dualopt_e2e_kernel_add(dualopt_e2e_kernel *k, const dualopt_e2e_load *ld)
{
    if (k->n == k->cap) {
        size_t nc = k->cap ? 2 * k->cap : 64;
        dualopt_e2e_load *nv = realloc(k->ld, nc * sizeof *nv);
        if (nv == NULL)
            return -1;
        k->ld = nv;
        k->cap = nc;
    }
    k->ld[k->n++] = *ld;
    return 0;
}

int dualopt_e2e_mem_byte(const dualopt_e2e_kernel *k, uint64_t addr)
{
    uint64_t g = addr >> DUALOPT_E2E_SPAN_BITS, off = addr & ((1ull << DUALOPT_E2E_SPAN_BITS) - 1);
    if (g >= k->gpus || off >= DUALOPT_E2E_REGION)
        return -1;
    return k->mem[g * DUALOPT_E2E_REGION + off];
}

/* A lane address of `size` bytes at `off` of GPU `home`, kept inside the
 * region. */
static uint64_t at(unsigned home, uint64_t off, unsigned size)
{
    if (off + size > DUALOPT_E2E_REGION)
        off = DUALOPT_E2E_REGION - size;
    return ((uint64_t)home << DUALOPT_E2E_SPAN_BITS) + off;
}

static void gen_load(dualopt_e2e_load *ld, dualopt_e2e_kind kind, unsigned g, unsigned gpus, uint64_t *r)
{
    static const unsigned sizes[] = {1, 2, 4, 8, 12, 16};
    unsigned home = g, lane, pat = (unsigned)kind;
    uint64_t hot = below(r, 2) ? 64 : DUALOPT_E2E_REGION / DUALOPT_E2E_LINE; /* lines in play */
    memset(ld, 0, sizeof *ld);
    ld->gpu = g;
    if (below(r, 10) < 8) /* remote-dominated, as the coalescing workloads */
        home = (g + 1 + (unsigned)below(r, gpus - 1)) % gpus;
    if (kind == DUALOPT_E2E_K_MIXED)
        pat = 1 + (unsigned)below(r, 5); /* stride .. sparse, 5: any size */
    ld->active = ~0ull;
    switch (pat) {
    case DUALOPT_E2E_K_STRIDE: {
        uint64_t start = 4 * below(r, DUALOPT_E2E_REGION / 4 - DUALOPT_E2E_LANES);
        ld->size = 4;
        if (kind == DUALOPT_E2E_K_MIXED && below(r, 2))
            ld->active = cohkit_unit_rnd(r) | 1;
        for (lane = 0; lane < DUALOPT_E2E_LANES; lane++)
            ld->addr[lane] = at(home, start + 4 * lane, 4);
        break;
    }
    case DUALOPT_E2E_K_SCATTER:
        ld->size = 4;
        for (lane = 0; lane < DUALOPT_E2E_LANES; lane++)
            ld->addr[lane] = at(home, below(r, hot) * DUALOPT_E2E_LINE + 4 * below(r, DUALOPT_E2E_WORDS), 4);
        if (kind == DUALOPT_E2E_K_MIXED && below(r, 2))
            ld->active = cohkit_unit_rnd(r) & cohkit_unit_rnd(r);
        break;
    case DUALOPT_E2E_K_CROSSING:
        ld->size = 8 + 4 * (unsigned)below(r, 3);
        for (lane = 0; lane < DUALOPT_E2E_LANES; lane++) {
            uint64_t line = below(r, 3) ? below(r, hot - 1) : below(r, 4) + lane;
            ld->addr[lane] = at(home, line * DUALOPT_E2E_LINE + DUALOPT_E2E_LINE - 1 - below(r, ld->size - 1),
                                ld->size);
        }
        break;
    case DUALOPT_E2E_K_SPARSE:
        ld->size = below(r, 2) ? 4 : 8;
        ld->active = 0;
        while (ld->active == 0)
            ld->active = (1ull << below(r, DUALOPT_E2E_LANES)) | (below(r, 2) ? 1ull << below(r, DUALOPT_E2E_LANES) : 0);
        for (lane = 0; lane < DUALOPT_E2E_LANES; lane++)
            ld->addr[lane] = at(home, 4 * below(r, DUALOPT_E2E_REGION / 4), ld->size);
        break;
    default: /* any size at any byte, a few lines */
        ld->size = below(r, 4) ? sizes[below(r, 6)] : 1 + (unsigned)below(r, 16);
        ld->active = cohkit_unit_rnd(r) | cohkit_unit_rnd(r);
        for (lane = 0; lane < DUALOPT_E2E_LANES; lane++)
            ld->addr[lane] = at(home, below(r, 16 * DUALOPT_E2E_LINE), ld->size);
        break;
    }
}

int dualopt_e2e_kernel_gen(dualopt_e2e_kernel *k, dualopt_e2e_kind kind, unsigned gpus, uint64_t seed, unsigned loads,
                   char *err, size_t len)
{
    uint64_t r = seed * 0xD1B54A32D192ED03ull + 77;
    dualopt_e2e_load ld;
    unsigned g, i;
    if ((unsigned)kind >= DUALOPT_E2E_K_N) {
        snprintf(err, len, "kernel kind %d unknown", (int)kind);
        return -1;
    }
    if (dualopt_e2e_kernel_init(k, gpus, seed) != 0) {
        snprintf(err, len, "gpus %u: the composition takes 2..%d GPUs", gpus, DUALOPT_E2E_GPUS_MAX);
        return -1;
    }
    if (r == 0)
        r = 1;
    if (kind >= DUALOPT_E2E_K_FULL) {
        unsigned lane;
        memset(&ld, 0, sizeof ld);
        ld.gpu = 0;
        if (kind == DUALOPT_E2E_K_FULL) { /* 30 lines of GPU 1, one word each */
            ld.size = 4;
            for (lane = 0; lane < 30; lane++) {
                ld.active |= 1ull << lane;
                ld.addr[lane] = at(1, (uint64_t)lane * DUALOPT_E2E_LINE + 4 * (lane % DUALOPT_E2E_WORDS), 4);
            }
            return dualopt_e2e_kernel_add(k, &ld);
        }
        if (kind == DUALOPT_E2E_K_CROSS11) { /* lane i: words 15 of line i, 0 of line i+1 */
            ld.size = 8;
            for (lane = 0; lane < 11; lane++) {
                ld.active |= 1ull << lane;
                ld.addr[lane] = at(1, (uint64_t)lane * DUALOPT_E2E_LINE + 60, 8);
            }
            return dualopt_e2e_kernel_add(k, &ld);
        }
        for (i = 0; i < 5; i++) { /* lone: one word every 200 cycles */
            ld.size = 4;
            ld.active = 1;
            ld.cycle = 200ull * i;
            ld.addr[0] = at(1, (uint64_t)i * 7 * DUALOPT_E2E_LINE + 4, 4);
            if (dualopt_e2e_kernel_add(k, &ld) != 0)
                return -1;
        }
        return 0;
    }
    for (g = 0; g < gpus; g++) {
        uint64_t t = 0;
        for (i = 0; i < loads; i++) {
            gen_load(&ld, kind, g, gpus, &r);
            if (kind == DUALOPT_E2E_K_SPARSE || (kind == DUALOPT_E2E_K_MIXED && below(&r, 8) == 0))
                t += 40 + below(&r, 80);
            ld.cycle = t;
            if (dualopt_e2e_kernel_add(k, &ld) != 0) {
                snprintf(err, len, "out of memory");
                return -1;
            }
        }
    }
    return 0;
}
