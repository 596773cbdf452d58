/*
 * Spandex device translation units (TUs) of the composed system (spec 4,
 * 9.4, 9.5): GPU coherence and DeNovo caches with a simple L1 each (per word
 * valid and owned bits, unbounded), the GPU write buffer, the response
 * collector shared by both kinds (partial responses from the LLC and from
 * owners in any order, merged per word), Nack retry and replacement
 * (III-C 3, X13), write-backs kept until RspWB, and the answers to external
 * requests of Table IV with the races of III-C (spec 2.3).
 *
 * The TU issues the program operations of its device in program order and
 * reports through an environment: the messages it sends, the operations it
 * issues and completes, and protocol errors. docs/spandex.md documents the
 * behaviour per kind and the readings.
 */
#ifndef SPANDEX_TU_H
#define SPANDEX_TU_H

#include <stddef.h>
#include <stdint.h>

#include "spandex_llc.h"

COHKIT_BEGIN_DECLS

typedef enum { SPANDEX_TU_GPU = 0, SPANDEX_TU_DENOVO = 1, SPANDEX_TU_MESI = 2 } spandex_tu_kind;

/* Program operations (spec 9.4). */
typedef enum {
    SPANDEX_SOP_LD,
    SPANDEX_SOP_ST,
    SPANDEX_SOP_RMW,
    SPANDEX_SOP_ACQ,
    SPANDEX_SOP_REL,
    SPANDEX_SOP_EVICT,
    SPANDEX_SOP_STEP,
    SPANDEX_SOP_DRAIN
} spandex_sop_kind;

/* One program line that does something. */
typedef struct {
    spandex_sop_kind kind;
    unsigned lineno; /* 1-based input line (the op# of V and C lines)    */
    unsigned dev;
    uint64_t addr;   /* byte address of the word                         */
    unsigned op;     /* RMW: spandex_op                                  */
    uint64_t v;      /* ST, RMW: the value; STEP: the count              */
} spandex_sop;

/* Where the TU reports. dst of send: a device ID, or SPANDEX_TU_LLC. */
#define SPANDEX_TU_LLC 0xfeu
typedef struct {
    void *ctx;
    void (*send)(void *ctx, unsigned src, unsigned dst, const spandex_msg *m);
    /* op issued; again for a buffered store when its request leaves (the
     * SYS5 watchdog counts from there) */
    void (*issued)(void *ctx, size_t op);
    /* op complete; has_v: a LD or RMW returning v */
    void (*done)(void *ctx, size_t op, int has_v, uint64_t v);
    void (*fail)(void *ctx, const char *reason);
} spandex_tu_env;

typedef struct {
    spandex_tu_kind kind;
    unsigned id;
    unsigned words;     /* words per line                                  */
    unsigned word;      /* word bytes                                      */
    unsigned wb_lines;  /* GPU write buffer lines                          */
    unsigned nack_limit;
    int rmw_wtdata;     /* DeNovo RMW and replacement by ReqWT+data        */
    int line_gran;      /* the line baseline (--gran line): every read asks */
                        /* the whole line; DeNovo owns whole lines         */
} spandex_tu_cfg;

typedef struct spandex_tu spandex_tu;

/* A TU over the program ops[0..nops-1] (only those of its device reach it
 * through spandex_tu_push). NULL when out of memory. */
spandex_tu *spandex_tu_new(const spandex_tu_cfg *c, const spandex_sop *ops, size_t nops,
                           const spandex_tu_env *env);
void spandex_tu_free(spandex_tu *t);
/* DeNovo: the LLC adds extra words to its RspV (--extra-words, Table II):
 * a read miss then asks its word only (word granularity). Off by default. */
void spandex_tu_extra_words(spandex_tu *t, int on);
/* Queues operation ops[i] of the device. */
void spandex_tu_push(spandex_tu *t, size_t i);
/* Issues what the device can; idle: the write buffer drains when the queue
 * is empty (spec 9.5 item 4). */
void spandex_tu_pump(spandex_tu *t, int idle);
/* One message delivered to the device, sent by src (a device or
 * SPANDEX_TU_LLC). */
void spandex_tu_recv(spandex_tu *t, unsigned src, const spandex_msg *m);
/* Operations queued, open requests or buffered stores: 1; idle: 0. */
int spandex_tu_busy(const spandex_tu *t);

COHKIT_END_DECLS

#endif
