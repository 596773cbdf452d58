/*
 * STC band function and the family's epoch-set encoding.
 *
 * Paper: "Turn-based Spatiotemporal Coherence for GPUs" (TACO 2023), section
 * 4.2, Fig. 4; STC specification 3.1 and 8. N address bits starting at the
 * start epoch bit (SEB) name one of 2^N bands; epoch b is band b's turn.
 * Addresses are zero-extended, so with SEB + N > ADDR_W fewer than 2^N bands
 * exist (SEB >= ADDR_W: every address is in band 0).
 *
 * Epoch sets. Everywhere in the family (CER, ChangeEpoch payload, EMU current
 * set and target) an epoch set is a 2^N-bit mask, bit e set when epoch e is
 * in the set (spec 8): `stc_eset` in C, a [2^N-1:0] vector on RTL ports (port
 * words least significant first, so word i of a port is w[i]). Traces print a
 * set in grant order (`3,5,7`): `stc_elist` is that order, built from a mask
 * with stc_elist_of (circular order after the pointer, spec 3.2 MB). This is
 * the one epoch-set type of the family: the EMU, the CU with its BSQ, the
 * L1, the system model and the checker all take `stc_eset`.
 *
 * The band unit (`stc-band`) is the function as a pipelined block: one
 * address (and SEB) per cycle in, its band one cycle later, valid/ready on
 * both sides. Trace: `BAND <addr> [<seb>]` -> `BAND <addr> <band>`.
 */
#ifndef STC_BAND_H
#define STC_BAND_H

#include <stddef.h>
#include <stdint.h>

#include "cohkit.h"
#include "unit.h"

COHKIT_BEGIN_DECLS

#define STC_N_MAX 8u            /* band bits                                  */
#define STC_E_MAX 256u          /* epochs = 2^N                               */
#define STC_ADDR_BITS_MAX 63u   /* address width                              */

/* ------------------------------------------------------------ epoch sets -- */

typedef struct {
    uint64_t w[STC_E_MAX / 64]; /* bit e of the set: w[e / 64] >> (e % 64)   */
} stc_eset;

/* An epoch set in grant order. */
typedef struct {
    unsigned n;                 /* number of epochs                           */
    uint16_t e[STC_E_MAX];      /* epochs, in grant order                     */
} stc_elist;

void stc_eset_clear(stc_eset *s);
/* Add / remove epoch e (e >= STC_E_MAX: no effect). */
void stc_eset_add(stc_eset *s, unsigned e);
void stc_eset_del(stc_eset *s, unsigned e);
/* 1 if epoch e is in the set, else 0. */
int stc_eset_has(const stc_eset *s, unsigned e);
/* Number of epochs in the set. */
unsigned stc_eset_count(const stc_eset *s);
/* 1 if the sets are equal. */
int stc_eset_eq(const stc_eset *a, const stc_eset *b);
/* The mask of a list. */
void stc_eset_of(const stc_elist *l, stc_eset *s);
/* Parses "3,5,7" (decimal epochs below 2^n, distinct, no spaces, at least
 * one) into the mask s. 0, or -1 with a one-line reason in err ("empty epoch
 * set", "'1,' is not an epoch list", "epoch 16 is not below 2^4", "epoch 1
 * repeated in '1,1'"). */
int stc_eset_parse(stc_eset *s, const char *text, unsigned n, char *err, size_t len);
/* "3,5,7": the epochs of s in ascending order ("" for the empty set);
 * returns buf. (stc_elist_of + stc_elist_format give grant order.) */
char *stc_eset_format(const stc_eset *s, char *buf, size_t len);
/* The epochs of mask s (2^n epochs) in circular order after `after`:
 * after + 1, after + 2, ... mod 2^n, ending with `after` itself. */
void stc_elist_of(const stc_eset *s, unsigned after, unsigned n, stc_elist *l);
/* "3,5,7" (decimal, comma-separated, grant order); "" for an empty list. */
void stc_elist_format(const stc_elist *l, char *buf, size_t len);
/* Parses "3,5,7": decimal epochs below 2^n, no duplicates, no spaces, at
 * least one. 0, or -1 with a one-line reason in err. */
int stc_elist_parse(const char *s, unsigned n, stc_elist *l, char *err, size_t len);

/* ------------------------------------------------------------- function -- */

/* band(a) = (a >> seb) & (2^n - 1), with a zero-extended from addr_bits
 * (bits at and above addr_bits are ignored); 0 when seb >= addr_bits. */
unsigned stc_band(uint64_t addr, unsigned seb, unsigned n, unsigned addr_bits);

/* ----------------------------------------------- trace lexical rules -- */

/* Spec 7.1: a hex address (optional 0x) below 2^bits. 0, or -1 with
 * "line N: <what> '<tok>' ..." in err (tok NULL: "line N: missing <what>"). */
int stc_tok_addr(const char *tok, const char *what, unsigned bits, unsigned lineno, uint64_t *v,
                 char *err, size_t len);
/* A decimal number <= max. 0, or -1 with "line N: ..." in err. */
int stc_tok_dec(const char *tok, const char *what, unsigned max, unsigned lineno, unsigned *v,
                char *err, size_t len);

/* ----------------------------------------------------- the band unit -- */

typedef struct {
    unsigned n;          /* band bits, 1..8 (paper 4)                         */
    unsigned seb;        /* SEB used by a trace record without one (12)       */
    unsigned addr_bits;  /* address width, 8..63 (32)                          */
} stc_band_cfg;

typedef struct {
    unsigned seb_bits;   /* width of the SEB input: holds 0..addr_bits         */
} stc_band_geom;

void stc_band_cfg_default(stc_band_cfg *c);
void stc_band_geom_of(const stc_band_cfg *c, stc_band_geom *g);
/* Presets "default" (N 4, SEB 12, 32-bit addresses) and "fpga" (the same
 * function: the unit is small); the options n, seb, addr-bits
 * (cmodel/unit.h). */
COHKIT_UNIT_CFG_API(stc_band, const);

/* Timing shell. Port values (unit.h layout): inputs rst_ni, in_valid_i,
 * in_addr_i, in_seb_i, out_ready_i; outputs in_ready_o, out_valid_o,
 * out_addr_o, out_band_o. One registered stage: an address accepted in
 * cycle t has its band on the output in cycle t + 1; one per cycle. */
enum { STC_BAND_I_RST, STC_BAND_I_IN_VALID, STC_BAND_I_IN_ADDR, STC_BAND_I_IN_SEB,
       STC_BAND_I_OUT_READY, STC_BAND_I_N };
enum { STC_BAND_O_IN_READY, STC_BAND_O_OUT_VALID, STC_BAND_O_OUT_ADDR, STC_BAND_O_OUT_BAND,
       STC_BAND_O_N };

typedef struct {
    stc_band_cfg c;
    unsigned out_valid, out_band;
    uint64_t out_addr;
} stc_band_tm;

COHKIT_UNIT_TM_API(stc_band_tm, stc_band_cfg, stc_band_eval, stc_band_step, uint64_t, uint64_t);

COHKIT_END_DECLS

#endif
