/*
 * Text traces for the REC directory, for users who drive it from their own
 * simulators. One request per line:
 *   RR <addr> <gpu>   remote read      LW <addr>   local write
 *   RW <addr> <gpu>   remote write     # comment (also after a request)
 * <addr> is a byte address in hex (0x optional, any byte of the line),
 * <gpu> a decimal GPU id other than the home GPU. Output: one line
 * "INV <line-addr> <gpu-mask>" per invalidation, both in hex with 0x.
 */
#ifndef REC_TRACE_H
#define REC_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"
#include "rec.h"

COHKIT_BEGIN_DECLS

typedef struct {
    rec_op op;
    uint64_t line;    /* line address (byte address >> line_bits) */
    unsigned src;
    unsigned lineno;
} rec_treq;

/* Reads a whole trace. Returns 0, or -1 with "line N: reason" in err (the
 * caller writes nothing before the whole trace is read). */
int rec_trace_read(FILE *f, const rec_cfg *cfg, unsigned home, rec_treq **reqs, size_t *n,
                   char *err, size_t len);

/* Prints one INV line for line address `line`. */
void rec_trace_print_inv(FILE *f, const rec_cfg *cfg, uint64_t line, uint32_t mask);

COHKIT_END_DECLS

#endif
