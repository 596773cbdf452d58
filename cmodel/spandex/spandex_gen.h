/*
 * spandex-gen (spec 9.3): random legal spandex-llc traces. Requests come
 * from random devices over a small pool of lines (so that lines are shared,
 * blocked and evicted); every Ack and RspRvkO the LLC asks for is answered
 * in random order (an RspRvkO sometimes split in two), and whatever is
 * still owed is answered at the end. The generator runs the functional
 * core to know what is owed and which words each device owns (a device
 * never asks for words it owns, X15, and has at most one request waiting
 * per line). A request is made only while the open transactions and the
 * waiting requests leave room for it in the configuration's --txn and
 * --defer (each waiting request counted as a transaction it may open when
 * it replays), so the trace also runs on the RTL, one event at a time.
 */
#ifndef SPANDEX_GEN_H
#define SPANDEX_GEN_H

#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"
#include "spandex_llc.h"

COHKIT_BEGIN_DECLS

typedef struct {
    spandex_llc_cfg llc;
    uint64_t seed;
    unsigned events; /* requests and answers before the drain (200)     */
    unsigned lines;  /* lines of the pool over at most two sets; 0: three
                        per way of each set (12 when unbounded)          */
} spandex_gen_cfg;

void spandex_gen_cfg_default(spandex_gen_cfg *c);
/* "default" and the LLC's presets: 0, or -1 for an unknown name. */
int spandex_gen_cfg_preset(spandex_gen_cfg *c, const char *name);
/* --seed, --events, --lines (0: automatic), then the LLC's options: 0, 1 (not an option),
 * -1 with a reason. */
int spandex_gen_cfg_option(spandex_gen_cfg *c, const char *name, const char *value, char *err, size_t len);
int spandex_gen_cfg_check(spandex_gen_cfg *c, char *err, size_t len);
/* Writes the trace. 0, or -1 with a reason in err (out of memory, or the
 * core refusing an event the generator believed legal). */
int spandex_gen_write(const spandex_gen_cfg *c, FILE *out, char *err, size_t len);

COHKIT_END_DECLS

#endif
