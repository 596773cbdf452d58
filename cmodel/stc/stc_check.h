/*
 * stc-check: the STC rule checker (docs/stc.md "Checker"; specification
 * 5.2, 7.4). Reads a system event log and checks every rule on every event.
 * Independent of the system model: it shares only the band function and the
 * log parser (stc_log.h) with it.
 */
#ifndef STC_CHECK_H
#define STC_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"
#include "stc_log.h"

COHKIT_BEGIN_DECLS

typedef enum { STC_CHK_NV, STC_CHK_ES, STC_CHK_AB, STC_CHK_MB } stc_chk_variant;

typedef struct {
    unsigned cus;        /* CUs (default 2)                                  */
    unsigned n;          /* band bits (default 4)                            */
    unsigned seb;        /* initial SEB (default 12)                         */
    unsigned line;       /* L1 line bytes (default 64)                       */
    unsigned addr_bits;  /* address width (default 32)                       */
    unsigned guard;      /* --seb-guard (default 1)                          */
    stc_chk_variant variant; /* default mb                                   */
    stc_eset epoch;      /* initial epoch set (default {0})                  */
} stc_chk_cfg;

void stc_chk_cfg_default(stc_chk_cfg *c);
/* One option (name without dashes): 0; 1 not a checker option; -1 bad value. */
int stc_chk_cfg_option(stc_chk_cfg *c, const char *name, const char *value, char *err, size_t len);
int stc_chk_cfg_check(const stc_chk_cfg *c, char *err, size_t len);
/* Progress bound K in ChangeEpochs (specification 5.3), 0 when none. */
unsigned stc_chk_bound(const stc_chk_cfg *c);

typedef struct stc_chk stc_chk;
stc_chk *stc_chk_new(const stc_chk_cfg *c);
void stc_chk_free(stc_chk *k);
/* Checks one event (events in log order). */
void stc_chk_event(stc_chk *k, const stc_ev *e);
/* End of the log: the end-of-run checks, then the `VIOL <rule> @<cycle>
 * <detail>` lines sorted by cycle and rule and `RESULT PASS|FAIL`. Returns
 * the number of violations. */
size_t stc_chk_finish(stc_chk *k, FILE *out);

/* The tool: reads the log from `in`, writes the VIOL lines and RESULT on
 * out; 0 (RESULT PASS), 1 (RESULT FAIL: a rule violated), or 2 after one
 * line on err ("cohmodel: NAME: line N: reason") with nothing written to
 * out. */
int stc_check_run(const stc_chk_cfg *c, FILE *in, const char *in_name, FILE *out, FILE *err);

COHKIT_END_DECLS

#endif
