/*
 * STC system programs (docs/stc.md "System model"; specification 7.3): the
 * reader of the program format, and a seeded constrained-random generator.
 *
 *   MEM <addr> <value>         initial memory (default 0)
 *   <cu> ST <addr> <value>     store (non-blocking)
 *   <cu> STREL <addr> <value>  release: waits until the CU has no store
 *                              outstanding, then stores
 *   <cu> AMO <addr> <imm>      fetch-and-add; the thread waits for the old value
 *   <cu> LD <addr>             load; the thread waits for the value
 *   <cu> LDACQ <addr> <value>  load-acquire: reload until the value is <value>
 *   <cu> WAIT                  s_waitcnt: wait until the CU's stores completed
 *   <cu> NOP <cycles>
 */
#ifndef STC_PROG_H
#define STC_PROG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"

COHKIT_BEGIN_DECLS

typedef enum {
    STC_OP_ST, STC_OP_STREL, STC_OP_AMO, STC_OP_LD, STC_OP_LDACQ, STC_OP_WAIT, STC_OP_NOP
} stc_op_kind;

typedef struct {
    stc_op_kind kind;
    uint64_t addr;     /* ST STREL AMO LD LDACQ                             */
    uint32_t value;    /* ST STREL: value; AMO: addend; LDACQ: awaited value;
                          NOP: cycles                                       */
    unsigned lineno;   /* line of the program text (0: generated)           */
} stc_op;

typedef struct {
    uint64_t addr;
    uint32_t value;
} stc_meminit;

typedef struct {
    unsigned cus;
    stc_op **ops;      /* ops[cu][i], i < nops[cu]                          */
    size_t *nops;
    stc_meminit *mem;  /* MEM lines in program order (a later one wins)     */
    size_t nmem;
} stc_prog;

/* "ST", "STREL", ... */
const char *stc_op_name(stc_op_kind k);

/* Reads a program for `cus` CUs and `addr_bits`-bit addresses: 0, or -1 with
 * "line N: reason" in err (and nothing allocated). */
int stc_prog_read(FILE *f, unsigned cus, unsigned addr_bits, stc_prog *p, char *err, size_t len);
void stc_prog_free(stc_prog *p);
/* Writes the program in the format stc_prog_read reads. */
void stc_prog_write(const stc_prog *p, FILE *f);

/* Constrained-random programs (specification 8): per CU a thread of `ops`
 * operations over a small address pool built around the band field: for
 * every address in a written band a read-only partner in the same band that
 * differs only above the band field (bit seb + n and up; such EpochConflicts
 * move SEB up under AB/MB) and one that differs only below it (bits
 * seb_min..seb - 1 when seb > seb_min; such conflicts move it down), plus
 * read-only bands; stores, loads, atomics, WAITs, NOPs, and message passing
 * between CU pairs (data stores, STREL of a flag, LDACQ of the flag on the
 * other CU, loads of the data) with flags and values unique to the program,
 * so every LDACQ is eventually satisfied. */
typedef struct {
    unsigned cus;       /* CUs (2)                                          */
    unsigned ops;       /* operations per CU (24)                           */
    unsigned n;         /* band bits (4)                                    */
    unsigned seb;       /* SEB the pool is built for (12)                   */
    unsigned seb_min;   /* (12)                                             */
    unsigned addr_bits; /* (32)                                             */
    unsigned line;      /* L1 line bytes (64)                               */
} stc_gen_cfg;

void stc_gen_cfg_default(stc_gen_cfg *g);
/* The program of seed `seed`: 0, or -1 when out of memory. */
int stc_prog_random(const stc_gen_cfg *g, uint64_t seed, stc_prog *p);

COHKIT_END_DECLS

#endif
