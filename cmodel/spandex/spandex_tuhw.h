/*
 * The Spandex translation unit as a hardware block (unit `spandex-tu`, spec
 * 4, Table II, Table IV): the configuration shared by the generator and the
 * benches, and the timing shell, the cycle-accurate model of the generated
 * RTL (spandex_tuhw_tm.c). docs/spandex.md ("The translation unit in RTL")
 * gives the ports, the cache-side contract and the micro-architecture.
 *
 * The composed system's device model (spandex_tu.h) is the unbounded
 * reference of the same protocol; this block is bounded (MSHR entries, a
 * write buffer of a few lines) and talks to its cache through ports.
 */
#ifndef SPANDEX_TUHW_H
#define SPANDEX_TUHW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spandex_llc.h"
#include "spandex_tu.h"

COHKIT_BEGIN_DECLS

#define SPANDEX_TUHW_MSHR_MAX 16
#define SPANDEX_TUHW_WB_MAX 16
#define SPANDEX_TUHW_DFR_MAX 8

/* Cache-side request types (c_req_type_i) and answers (c_rsp_type_o). */
enum {
    SPANDEX_TUHW_C_LD = 0,    /* read miss: the words of mask               */
    SPANDEX_TUHW_C_ST = 1,    /* store: the words of mask, data             */
    SPANDEX_TUHW_C_RMW = 2,   /* atomic: op, operand per word of mask       */
    SPANDEX_TUHW_C_ACQ = 3,   /* acquire                                    */
    SPANDEX_TUHW_C_REL = 4,   /* release                                    */
    SPANDEX_TUHW_C_EVICT = 5  /* replacement of a line                      */
};
enum {
    SPANDEX_TUHW_R_FILL = 0,  /* a read miss's words (line, mask, data)     */
    SPANDEX_TUHW_R_VALUE = 1, /* an atomic's old values (line, mask, data)  */
    SPANDEX_TUHW_R_DONE = 2,  /* ACQ (self-invalidate now), REL, EVICT done */
    SPANDEX_TUHW_R_OWN = 3    /* DeNovo: a ReqO's words now owned (mask);   */
                              /* MESI: WBDONE, the write-back line released */
};

typedef struct {
    spandex_tu_kind kind;
    unsigned devs;       /* devices of the system (ID width), 2..64         */
    unsigned line;       /* line bytes                                      */
    unsigned word;       /* word bytes, 4 or 8                              */
    unsigned mshr;       /* open requests, 1..16                            */
    unsigned wb;         /* write-buffer lines, 1..16                       */
    unsigned nack_limit; /* Nacks before the replacement, 1..15             */
    unsigned addr_bits;  /* byte-address width                              */
    unsigned dfr;        /* DeNovo: delayed external requests, 1..8         */
    unsigned wtdata;     /* DeNovo: RMW and replacement by ReqWT+data (SDG) */
    unsigned extra;      /* DeNovo: the LLC's RspV may carry extra words    */
                         /* (Table II): one read a line, extra words filled */
} spandex_tuhw_cfg;

typedef struct {
    unsigned words, word_bits, line_bits, laddr_bits, dev_bits;
    unsigned mshr_bits, wb_bits, nack_bits, dfr_bits;
    uint64_t full;
} spandex_tuhw_geom;

void spandex_tuhw_cfg_default(spandex_tuhw_cfg *c);
COHKIT_UNIT_CFG_API(spandex_tuhw, );
void spandex_tuhw_geom_of(const spandex_tuhw_cfg *c, spandex_tuhw_geom *g);
extern const char *const spandex_tuhw_preset_names[];

/* One record of a spandex-tu trace (docs/spandex.md, "The translation
 * unit in RTL"): an input on channel ch (0 c_req, 1 rsp, 2 fwd, 3 c_pdat)
 * with its port values (type: c_req_type_i, rsp_type_i or fwd_type_i). */
typedef struct {
    unsigned lineno;
    int ch;
    unsigned type, op, req;
    uint64_t line, mask; /* line address (byte address >> log2 line)      */
    uint64_t v[SPANDEX_LLC_WORDS_MAX];
} spandex_tuhw_rec;
/* Every record of a trace: *recs (malloc, free it) and *n; 0, or -1 with
 * "line N: reason" in err. */
int spandex_tuhw_trace_read(const spandex_tuhw_cfg *c, FILE *in, spandex_tuhw_rec **recs, size_t *n, char *err,
                            size_t len);
/* The output line of one message or answer the unit gave (ch 0 c_rsp, 1
 * req, 2 out, 3 c_prb; type the port's code; own: c_rsp_own_o; c_prb:
 * llc is the down bit), as the trace tool prints it. */
void spandex_tuhw_print(const spandex_tuhw_cfg *c, FILE *f, int ch, unsigned type, unsigned op, unsigned llc,
                        unsigned dst, uint64_t line, uint64_t mask, uint64_t own, const uint64_t *v);

typedef struct spandex_tuhw_tm spandex_tuhw_tm;
COHKIT_UNIT_TM_API(spandex_tuhw_tm, spandex_tuhw_cfg, spandex_tuhw_tm_eval, spandex_tuhw_tm_step, uint64_t,
                   uint64_t);

/* DeNovo, MESI: the delayed ring since reset (the bench's summary):
 * forwards delayed into it, the most slots held at once, FwdReqVs Nacked
 * because they would have taken its last free slot (kept for a
 * downgrade). */
typedef struct {
    uint64_t delayed, nack_full;
    unsigned peak;
} spandex_tuhw_tm_stats;
const spandex_tuhw_tm_stats *spandex_tuhw_tm_stats_of(const spandex_tuhw_tm *t);

COHKIT_END_DECLS

#endif
