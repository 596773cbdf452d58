/*
 * STC system event log (docs/stc.md "Checker"; specification 7.4): one event
 * per line, `<cycle> <EVENT> <fields>`. The parser shared by the checker
 * (stc_check.h) and the tests; the system model writes the log itself.
 */
#ifndef STC_LOG_H
#define STC_LOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"
#include "stc_band.h"

COHKIT_BEGIN_DECLS

typedef enum {
    STC_EV_INIT, STC_EV_PREP, STC_EV_READY, STC_EV_CHG, STC_EV_CER, STC_EV_DONE,
    STC_EV_END, STC_EV_SLEEP, STC_EV_BLK, STC_EV_ISS, STC_EV_PERF, STC_EV_WA,
    STC_EV_RD, STC_EV_FILL, STC_EV_INV, STC_EV_HIT, STC_EV_LDV, STC_EV_COUNT
} stc_ev_kind;

typedef struct {
    uint64_t cycle;
    stc_ev_kind kind;
    unsigned cu;         /* READY CER DONE BLK ISS PERF WA RD FILL INV HIT LDV */
    uint64_t addr;       /* INIT BLK ISS PERF WA RD HIT LDV; the line of FILL INV */
    uint32_t value;      /* INIT PERF RD HIT LDV */
    stc_eset epochs;     /* CHG CER END (stc_band.h mask) */
    unsigned seb;        /* CHG CER END */
    unsigned lineno;     /* line of the log */
} stc_ev;

/* Name of an event kind ("INIT", ...). */
const char *stc_ev_name(stc_ev_kind k);

/* Limits a log is checked against: CU indices below `cus`, epochs below
 * 2^n, addresses below 2^addr_bits. */
typedef struct {
    unsigned cus, n, addr_bits;
} stc_log_lim;

/* Parses one line (comments and blank lines: returns 1 with nothing parsed).
 * 0 with *ev filled, or -1 with a reason in err (without the line number).
 * Cycles are not compared with the previous line here. */
int stc_log_parse_line(const char *line, const stc_log_lim *lim, stc_ev *ev, char *err,
                       size_t len);

/* Reads a whole log: cycles non-decreasing. 0 with a malloc'ed array in
 * *evs, or -1 with "line N: reason" in err. */
int stc_log_read(FILE *f, const stc_log_lim *lim, stc_ev **evs, size_t *n, char *err, size_t len);

COHKIT_END_DECLS

#endif
