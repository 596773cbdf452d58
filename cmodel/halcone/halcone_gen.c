/*
 * halcone-gen (spec 7.5): programs for the HALCONE system model.
 *   xtreme1|xtreme2|xtreme3 [--gpus 2 --cus 2 --line 64 --elems 4 --reps 10]
 *     the paper's Xtreme kernels (section 4.3.2) with the kit's reading H22:
 *     C = A + B on slices, one per CU (GPU-major); element i of slice s is
 *     block i * slices + s of its vector (round-robin); A, B, C follow each
 *     other; every store writes a unique tag. Step 0 (every CU reads its
 *     slices), step 1 (C = A + B), then Xtreme1 repeats step 1 `reps` times
 *     in all, then A = C + B `reps` times; Xtreme2 (Xtreme3) has GPU 0 CU 0
 *     write slice 1 (the last slice: a CU of another GPU) `reps` times,
 *     A = C + B, then step 1 once more.
 *   random [--gpus 2 --cus 2 --ops 200 --lines 8 --line 64 --seed 1]
 *     seeded sharing programs: loads, stores of unique values, lease
 *     overrides (lease=1..15), forced L1 and L2 evictions; a seed always
 *     gives the same program.
 */
#include "halcone_system.h"
#include "cfg_check.h"
#include "unit_trace.h"
#include "unit.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: the whole generator state is the seed word. */
static unsigned below(uint64_t *s, unsigned n) { return (unsigned)(cohkit_unit_splitmix(s) % n); }

/* Xtreme: vector v (0 A, 1 B, 2 C), slice s, element i. */
static uint64_t xaddr(const halcone_gen_cfg *c, unsigned v, unsigned s, unsigned i)
{
    uint64_t slices = (uint64_t)c->gpus * c->cus, n = slices * c->elems;
    return ((uint64_t)v * n + (uint64_t)i * slices + s) * c->line;
}

/* CU `cu` (GPU-major index) computes dst[s] = x[s] + y[s], element by
 * element. */
static void xop(FILE *f, const halcone_gen_cfg *c, unsigned cu, unsigned s, unsigned i, unsigned x,
                unsigned y, unsigned dst, uint64_t *tag)
{
    unsigned g = cu / c->cus, k = cu % c->cus;
    fprintf(f, "LD %u %u 0x%" PRIx64 "\n", g, k, xaddr(c, x, s, i));
    fprintf(f, "LD %u %u 0x%" PRIx64 "\n", g, k, xaddr(c, y, s, i));
    fprintf(f, "ST %u %u 0x%" PRIx64 " %" PRIu64 "\n", g, k, xaddr(c, dst, s, i), ++*tag);
}

/* Every CU on its own slice, interleaved element by element (the CUs run
 * side by side). */
static void xstep(FILE *f, const halcone_gen_cfg *c, unsigned x, unsigned y, unsigned dst, uint64_t *tag,
                  const char *what)
{
    unsigned n = c->gpus * c->cus, i, s;
    fprintf(f, "# %s\n", what);
    for (i = 0; i < c->elems; i++)
        for (s = 0; s < n; s++)
            xop(f, c, s, s, i, x, y, dst, tag);
}

static void xtreme(FILE *f, const halcone_gen_cfg *c, int kind)
{
    unsigned n = c->gpus * c->cus, i, s, r, v;
    uint64_t tag = 0;
    fprintf(f, "# step 0: every CU reads its slices of A, B and C\n");
    for (i = 0; i < c->elems; i++)
        for (s = 0; s < n; s++)
            for (v = 0; v < 3; v++)
                fprintf(f, "LD %u %u 0x%" PRIx64 "\n", s / c->cus, s % c->cus, xaddr(c, v, s, i));
    if (kind == 1) {
        for (r = 0; r < c->reps; r++)
            xstep(f, c, 0, 1, 2, &tag, "step 1-2: C = A + B");
        for (r = 0; r < c->reps; r++)
            xstep(f, c, 2, 1, 0, &tag, "step 3-4: A = C + B");
        return;
    }
    xstep(f, c, 0, 1, 2, &tag, "step 1: C = A + B");
    {
        unsigned t = kind == 2 ? 1 : n - 1;
        fprintf(f, "# step 2-3: GPU 0 CU 0 computes A%u = C%u + B%u\n", t, t, t);
        for (r = 0; r < c->reps; r++)
            for (i = 0; i < c->elems; i++)
                xop(f, c, 0, t, i, 2, 1, 0, &tag);
    }
    xstep(f, c, 0, 1, 2, &tag, "step 4: step 1 again");
}

static void random_prog(FILE *f, const halcone_gen_cfg *c)
{
    uint64_t st = c->seed, val = 0;
    unsigned i;
    for (i = 0; i < c->ops; i++) {
        unsigned g = below(&st, c->gpus), k = below(&st, c->cus), r = below(&st, 100);
        uint64_t a = (uint64_t)below(&st, c->lines) * c->line;
        unsigned lease = below(&st, 10) == 0 ? 1 + below(&st, 15) : 0;
        if (r < 50)
            fprintf(f, "LD %u %u 0x%" PRIx64, g, k, a);
        else if (r < 90)
            fprintf(f, "ST %u %u 0x%" PRIx64 " %" PRIu64, g, k, a, ++val);
        else if (r < 95)
            fprintf(f, "EVL1 %u %u 0x%" PRIx64, g, k, a);
        else
            fprintf(f, "EVL2 %u 0x%" PRIx64, g, a);
        if (r < 90 && lease)
            fprintf(f, " lease=%u", lease);
        fputc('\n', f);
    }
}

static const char *const hgen_names[] = {"random", "xtreme1", "xtreme2", "xtreme3"};

int halcone_gen_cfg_preset(halcone_gen_cfg *c, const char *name)
{
    static const halcone_gen_cfg d = {.gpus = 2, .cus = 2, .line = 64, .elems = 4, .reps = 10,
                                      .ops = 200, .lines = 8, .seed = 1};
    int k;
    for (k = 0; k < 4 && strcmp(name, hgen_names[k]) != 0; k++)
        ;
    if (k == 4)
        return -1;
    *c = d;
    c->kind = (halcone_gen_kind)k;
    return 0;
}

int halcone_gen_cfg_option(halcone_gen_cfg *c, const char *name, const char *value, char *err, size_t len)
{
    static const char *const names[] = {"gpus", "cus", "line", "elems", "reps", "ops", "lines",
                                        "seed"};
    static const uint64_t max[] = {HALCONE_SYS_GPUS_MAX, HALCONE_SYS_CUS_MAX, 4096,     1u << 20,
                                   1u << 20,      1u << 24,     1u << 20, UINT64_MAX};
    unsigned *dst[] = {&c->gpus, &c->cus, &c->line, &c->elems, &c->reps, &c->ops, &c->lines};
    uint64_t v;
    size_t i;
    for (i = 0; i < 8 && strcmp(name, names[i]) != 0; i++)
        ;
    if (i == 8)
        return 1;
    if (cohkit_trace_dec(value, max[i], &v) != 0 || (v == 0 && i != 7)) {
        snprintf(err, len, "--%s: bad value '%s' (1..%" PRIu64 ")", name, value ? value : "",
                 max[i]);
        return -1;
    }
    if (i == 7)
        c->seed = v;
    else
        *dst[i] = (unsigned)v;
    return 0;
}

int halcone_gen_cfg_check(const halcone_gen_cfg *c, char *err, size_t len)
{
    if (cohkit_cfg_range_pow2(err, len, "line", c->line, 4, 4096))
        return -1;
    if (c->kind == HALCONE_GEN_XTREME2 && c->cus < 2)
        return cohkit_cfg_fail(err, len, "--cus %u: xtreme2 needs 2 or more", c->cus);
    if (c->kind == HALCONE_GEN_XTREME3 && c->gpus < 2)
        return cohkit_cfg_fail(err, len, "--gpus %u: xtreme3 needs 2 or more", c->gpus);
    if ((uint64_t)c->gpus * c->cus * c->elems * 3 * c->line >> 48)
        return cohkit_cfg_fail(err, len, "--elems %u: the vectors do not fit in 48-bit addresses",
                               c->elems);
    if ((uint64_t)c->lines * c->line >> 48)
        return cohkit_cfg_fail(err, len, "--lines %u: do not fit in 48-bit addresses", c->lines);
    return 0;
}

void halcone_gen_write(const halcone_gen_cfg *c, FILE *f)
{
    if (c->kind == HALCONE_GEN_RANDOM) {
        fprintf(f, "# halcone-gen random --gpus %u --cus %u --ops %u --lines %u --line %u "
                "--seed %" PRIu64 "\n", c->gpus, c->cus, c->ops, c->lines, c->line, c->seed);
        random_prog(f, c);
    } else {
        fprintf(f, "# halcone-gen xtreme%d --gpus %u --cus %u --line %u --elems %u --reps %u\n",
                (int)c->kind, c->gpus, c->cus, c->line, c->elems, c->reps);
        xtreme(f, c, (int)c->kind);
    }
}
