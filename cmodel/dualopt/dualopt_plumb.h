/*
 * Internal plumbing shared by the DualOpt compositions (dualopt_e2e.c, the
 * coalescing path; dualopt_sys.c, the GPU at cycle level): a block driven
 * through its ports, the timing-shell backend, and a growable FIFO of
 * fixed-size items. Not part of the library's public API.
 */
#ifndef DUALOPT_PLUMB_H
#define DUALOPT_PLUMB_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_e2e.h"
#include "unit.h"

typedef struct {
    const unit_desc *u;
    void *cfg;
    unit_layout l;
    char name[32];
    unsigned off[24];
    void *h;
    uint64_t *in, *out;
} blk;

#define PI(b, k) ((b)->in + (b)->off[k])
#define PO(b, k) ((b)->out + (b)->off[k])

/* the default backend: the unit's timing shell */
typedef struct {
    const unit_desc *u;
    void *tm;
} shell_h;

static inline void *shell_open(void *ctx, const unit_desc *u, const char *preset, const void *cfg,
                        unsigned gpu, char *err, size_t len)
{
    shell_h *h = (shell_h *)calloc(1, sizeof *h);
    (void)ctx;
    (void)preset;
    (void)gpu;
    if (h == NULL || (h->tm = u->tm_new(cfg)) == NULL) {
        free(h);
        snprintf(err, len, "%s: out of memory", u->name);
        return NULL;
    }
    h->u = u;
    return h;
}
static inline void shell_eval(void *p, const uint64_t *in, uint64_t *out)
{
    shell_h *h = (shell_h *)p;
    h->u->tm_eval(h->tm, in, out);
}
static inline void shell_step(void *p, const uint64_t *in)
{
    shell_h *h = (shell_h *)p;
    h->u->tm_step(h->tm, in);
}
static inline void shell_close(void *p)
{
    shell_h *h = (shell_h *)p;
    if (h) {
        h->u->tm_free(h->tm);
        free(h);
    }
}
static const e2e_backend shell_backend = {NULL, shell_open, shell_eval, shell_step, shell_close};

/* ------------------------------------------------------------- queues -- */

typedef struct {
    uint8_t *buf;
    size_t isz, cap, head, n;
} fifo;

static inline void fifo_init(fifo *f, size_t isz) { memset(f, 0, sizeof *f), f->isz = isz; }
static inline void fifo_free(fifo *f) { free(f->buf); }
static inline void *fifo_at(const fifo *f, size_t i) { return f->buf + ((f->head + i) % f->cap) * f->isz; }
static inline int fifo_push(fifo *f, const void *item)
{
    if (f->n == f->cap) {
        size_t nc = f->cap ? 2 * f->cap : 8, i;
        uint8_t *nb = (uint8_t *)malloc(nc * f->isz);
        if (nb == NULL)
            return -1;
        for (i = 0; i < f->n; i++)
            memcpy(nb + i * f->isz, fifo_at(f, i), f->isz);
        free(f->buf);
        f->buf = nb;
        f->cap = nc;
        f->head = 0;
    }
    memcpy(f->buf + ((f->head + f->n) % f->cap) * f->isz, item, f->isz);
    f->n++;
    return 0;
}
static inline void fifo_pop(fifo *f)
{
    f->head = (f->head + 1) % f->cap;
    f->n--;
}

#endif

