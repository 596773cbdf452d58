/*
 * What the text-trace readers of the units and tools share: reading a trace
 * line by line ('#' starts a comment), splitting a line into blank-separated
 * tokens, and parsing decimal and hexadecimal tokens with a limit. The
 * readers word their errors themselves ("line N: bad address 'x'"); these
 * helpers only say whether a token is good.
 */
#ifndef UNIT_TRACE_H
#define UNIT_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"

COHKIT_BEGIN_DECLS

/* Reads the next line of f into buf (size bytes), counted in *lineno, and
 * cuts it at its first '#': 1; 0 at the end of f; -1 with "line N: longer
 * than M characters" in err (M = size - 2). */
int cohkit_trace_line(FILE *f, char *buf, size_t size, unsigned *lineno, char *err, size_t len);

/* The next blank-separated token of *p, terminated in place, *p moved past
 * it; NULL when none is left. */
char *cohkit_trace_tok(char **p);

/* A decimal token (digits only) of at most max into *v: 0; -1 (v untouched)
 * when t is NULL, not decimal, too large or above max. */
int cohkit_trace_dec(const char *t, uint64_t max, uint64_t *v);

/* The same into an unsigned (an option's value): max at most UINT_MAX. */
int cohkit_trace_uint(const char *t, unsigned max, unsigned *v);

/* A hexadecimal token, "0x" optional, of at most `bits` bits (64: any) into
 * *v: 0; -1 (v untouched) when t is NULL, not hex or wider. */
int cohkit_trace_hex(const char *t, unsigned bits, uint64_t *v);

/* A hexadecimal token, "0x" optional, of at most `bits` bits (64: any),
 * read digit by digit: 0; -1 when empty or not hex, -2 when wider (v
 * untouched on either). */
int cohkit_trace_hex_width(const char *t, unsigned bits, uint64_t *v);

/* Room for one more element in the array *vp points to (n used of *cap,
 * `size` bytes each; the capacity doubles, from `first`): 0; -1 when out of
 * memory (array and capacity unchanged). vp is the address of the array
 * pointer (a `T **`). */
int cohkit_trace_grow(void *vp, size_t *cap, size_t n, size_t size, size_t first);

COHKIT_END_DECLS

#endif
