/*
 * Line reader for the STC unit traces of the BSQ and the CU (STC
 * specification 7.1: '#' comments, blank lines ignored, hex addresses with
 * optional 0x, decimal epochs in comma-separated sets, other numbers
 * decimal). Errors are "line N: reason".
 *
 * cohkit: internal header (not installed; its functions stay hidden in the
 * library, docs/model-api.md "Public and internal headers").
 */
#ifndef STC_CUTR_H
#define STC_CUTR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stc_bsq.h"

typedef struct {
    FILE *f;
    char *buf;
    size_t cap;
    char *save;
    const char *first; /* first token of the current line */
    unsigned lineno;
} stc_cutr_reader;

void stc_cutr_open(stc_cutr_reader *r, FILE *f);
void stc_cutr_close(stc_cutr_reader *r);
/* Advances to the next line with a token; 0 at the end of the file. */
int stc_cutr_next(stc_cutr_reader *r);
/* The record name (first token) of the current line. */
const char *stc_cutr_tok(stc_cutr_reader *r);
/* Next token as an address of at most `bits` bits. 0, or -1 (err). */
int stc_cutr_addr(stc_cutr_reader *r, const char *what, unsigned bits, uint64_t *v, char *err,
                  size_t len);
/* Next token as a decimal number in lo..hi. 0, or -1 (err). */
int stc_cutr_num(stc_cutr_reader *r, const char *what, unsigned lo, unsigned hi, unsigned *v,
                 char *err, size_t len);
/* Next token as an epoch set of epochs below 2^n. 0, or -1 (err). */
int stc_cutr_eset(stc_cutr_reader *r, unsigned n, stc_eset *s, char *err, size_t len);
/* 0 if the line has no further token, else -1 (err). */
int stc_cutr_end(stc_cutr_reader *r, char *err, size_t len);

#endif
