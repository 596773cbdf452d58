/*
 * The check of the GPU in every mode (cmodel/dualopt/dualopt_gpu.c), kept apart
 * from the system: it sees only the kernel (accesses, initial memory image)
 * and what the system produced (the bytes delivered to the lanes, the memory
 * image after every kernel boundary's flush). It replays the kernel on its
 * own image: within a kernel each GPU touches only its own lines, so each
 * GPU's accesses apply in program order (an atomic exchange loads the old
 * bytes and stores the new ones, lane by lane); every loaded byte must equal the
 * image at that point and be delivered exactly once, and after every flush
 * the image must equal the system's (no dirty byte lost).
 */
#include <stdlib.h>
#include <string.h>

#include "dualopt_gpu.h"

int dualopt_gpu_check(const dualopt_gpu_kernel *k, const dualopt_gpu_result *r, dualopt_gpu_check_res *c, char *msg, size_t len)
{
    size_t img = (size_t)k->gpus * DUALOPT_E2E_REGION, i = 0, j;
    uint8_t *ref;
    unsigned kk;
    int first = 1;
    memset(c, 0, sizeof *c);
    if (msg && len)
        msg[0] = '\0';
#define FAIL1(...)                                                                               \
    do {                                                                                         \
        if (first && msg)                                                                        \
            snprintf(msg, len, __VA_ARGS__);                                                     \
        first = 0;                                                                               \
    } while (0)
    if (r->n != k->n || !r->image) {
        if (msg)
            snprintf(msg, len, "results for %zu accesses, kernel has %zu", r->n, k->n);
        return -1;
    }
    ref = malloc(img);
    if (!ref) {
        if (msg)
            snprintf(msg, len, "out of memory");
        return -1;
    }
    memcpy(ref, k->mem, img);
    for (kk = 0; kk < k->kernels; kk++) {
        for (; i < k->n && k->op[i].kernel == kk; i++) {
            const dualopt_gpu_op *o = &k->op[i];
            unsigned lane, b;
            for (lane = 0; lane < DUALOPT_E2E_LANES; lane++) {
                if (!((o->active >> lane) & 1))
                    continue;
                c->lanes++;
                for (b = 0; b < o->size; b++) {
                    uint64_t a = o->addr[lane] + b;
                    long off = dualopt_gpu_mem_off(k->gpus, a);
                    if (off < 0 || ((a >> 6) + kk) % k->gpus != o->gpu) {
                        if (msg)
                            snprintf(msg, len,
                                     "access %zu (gpu %u, kernel %u) lane %u byte 0x%llx: outside "
                                     "the GPU's lines of the kernel",
                                     i, o->gpu, kk, lane, (unsigned long long)a);
                        free(ref);
                        return -1;
                    }
                    if (o->store == 1) {
                        ref[off] = dualopt_gpu_store_byte(k, i, lane, b);
                        continue;
                    }
                    c->bytes++;
                    if (r->writes[i][lane][b] == 0) {
                        c->missing++;
                        FAIL1("load %zu (gpu %u, kernel %u) lane %u byte 0x%llx: never delivered",
                              i, o->gpu, kk, lane, (unsigned long long)a);
                    } else if (r->writes[i][lane][b] > 1) {
                        c->extra++;
                        FAIL1("load %zu (gpu %u, kernel %u) lane %u byte 0x%llx: delivered %u "
                              "times",
                              i, o->gpu, kk, lane, (unsigned long long)a, r->writes[i][lane][b]);
                    } else if (r->data[i][lane][b] != ref[off]) {
                        c->wrong++;
                        FAIL1("load %zu (gpu %u, kernel %u) lane %u byte 0x%llx: wrong value "
                              "(got 0x%02x, memory 0x%02x)",
                              i, o->gpu, kk, lane, (unsigned long long)a, r->data[i][lane][b],
                              ref[off]);
                    }
                    if (o->store == 2) /* atomic exchange: old bytes loaded, new stored */
                        ref[off] = dualopt_gpu_store_byte(k, i, lane, b);
                }
            }
        }
        for (j = 0; j < img; j++) {
            const uint8_t *got = r->image + (size_t)kk * img;
            c->image_bytes++;
            if (got[j] != ref[j]) {
                c->lost++;
                FAIL1("after the flush of kernel %u: memory byte 0x%llx is 0x%02x, the "
                      "kernel's stores leave 0x%02x (a dirty byte lost)",
                      kk,
                      (unsigned long long)(((uint64_t)(j / DUALOPT_E2E_REGION) << DUALOPT_E2E_SPAN_BITS) +
                                           j % DUALOPT_E2E_REGION),
                      got[j], ref[j]);
            }
        }
    }
#undef FAIL1
    free(ref);
    return c->wrong || c->missing || c->extra || c->lost ? -1 : 0;
}
