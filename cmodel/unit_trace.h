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

/* ------------------------------------------------------- record reader */

/* A trace read record by record: line by line ('#' starts a comment, blank
 * lines are skipped), each line split into blank-separated tokens, errors
 * written as "line N: reason" into the reader's err. */
typedef struct {
    FILE *f;
    char *buf;
    size_t cap;
    char *save;
    char *first; /* the record's name: the line's first token           */
    unsigned lineno;
    char *err;
    size_t len;
    size_t max_line; /* 0: any length                                   */
} cohkit_trace_reader;

/* One record into *record (zeroed before the call) from the line r is on,
 * whose first token is r->first: 0, or -1 with the error written
 * (cohkit_trace_fail). ctx is the caller's (its configuration; state kept
 * from line to line goes behind pointers it holds). */
typedef int (*cohkit_trace_parse_fn)(cohkit_trace_reader *r, const void *ctx, void *record);

/* A trace format: how big a record is, how a line becomes one, what a
 * record holds that must be freed, and the longest line accepted. */
typedef struct {
    size_t size;                 /* bytes of a record                  */
    cohkit_trace_parse_fn parse; /* a line into a record               */
    void (*drop)(void *record);  /* frees what a record holds, or NULL */
    size_t max_line;             /* characters of a line at most; 0: any */
} cohkit_trace_format;

/* Every record of f: *recs a malloc'ed array of *n records (NULL when
 * there are none), 0; -1 with "line N: reason" in err (a line longer than
 * max_line: "line N: longer than M characters"; a read error: "read error
 * after line N") and nothing allocated. */
int cohkit_trace_records(FILE *f, const cohkit_trace_format *fmt, const void *ctx, void **recs,
                         size_t *n, char *err, size_t len);

/* Defines `static int NAME(FILE *f, const CFG *c, TRACE *t, char *err,
 * size_t len)`: every record of f into t->r and t->n (TRACE a struct with
 * `REC *r; size_t n;`), parsed by PARSE with c as its context. */
#define COHKIT_TRACE_READ_FN(NAME, CFG, TRACE, PARSE)                                              \
    static int NAME(FILE *f, const CFG *c, TRACE *t, char *err, size_t len)                        \
    {                                                                                              \
        const cohkit_trace_format fmt_ = {sizeof *t->r, PARSE, NULL, 0};                           \
        void *recs_;                                                                               \
        int rc_ = cohkit_trace_records(f, &fmt_, c, &recs_, &t->n, err, len);                      \
        t->r = recs_;                                                                              \
        return rc_;                                                                                \
    }

/* The reader under cohkit_trace_records, for a caller that reads lines
 * itself: open, then cohkit_trace_next_line until it returns 0, then close. */
void cohkit_trace_open(cohkit_trace_reader *r, FILE *f, char *err, size_t len);
void cohkit_trace_close(cohkit_trace_reader *r);
/* Advances to the next line that has a token (r->first): 1; 0 at the end
 * of the file; -1 with the error written for a line longer than
 * r->max_line or a read error. */
int cohkit_trace_next_line(cohkit_trace_reader *r);

/* The line's next token, NULL when none is left. */
char *cohkit_trace_arg(cohkit_trace_reader *r);
/* "line N: " and the formatted reason into the reader's err: -1. */
int cohkit_trace_fail(cohkit_trace_reader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The line's tokens from its first into tk (at most max): how many. */
int cohkit_trace_tokens(cohkit_trace_reader *r, char **tk, int max);
/* 0 when the line has no token left; -1 with "unexpected 'x'". */
int cohkit_trace_end(cohkit_trace_reader *r);
/* The next token as a hexadecimal address ("0x" optional) of at most `bits`
 * bits: 0; -1 with "missing WHAT", "WHAT 'x' is not hex" or "WHAT 'x'
 * exceeds B bits". */
int cohkit_trace_addr(cohkit_trace_reader *r, const char *what, unsigned bits, uint64_t *v);
/* The same up to a limit: "missing WHAT", "WHAT 'x' is not hex" or "WHAT
 * 'x' exceeds 0xLIMIT". */
int cohkit_trace_addr_max(cohkit_trace_reader *r, const char *what, uint64_t limit, uint64_t *v);
/* The next token as the address of request OP: hexadecimal ("0x"
 * optional), at most `bits` bits: 0; -1 with "OP needs an address", "'x'
 * is not a hex address" or "address x exceeds B bits". */
int cohkit_trace_req_addr(cohkit_trace_reader *r, const char *op, unsigned bits, uint64_t *v);
/* The next token as a decimal number in lo..hi: 0; -1 with "missing WHAT"
 * or "WHAT 'x' is not a number in LO..HI". */
int cohkit_trace_num(cohkit_trace_reader *r, const char *what, unsigned lo, unsigned hi,
                     unsigned *v);

COHKIT_END_DECLS

#endif
