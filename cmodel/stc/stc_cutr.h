/*
 * The epoch-set token of the STC unit traces of the BSQ and the CU (STC
 * specification 7.1: decimal epochs in comma-separated sets), read with the
 * platform's record reader (cmodel/unit_trace.h). Errors are "line N:
 * reason".
 *
 * cohkit: internal header (not installed; its functions stay hidden in the
 * library, docs/model-api.md "Public and internal headers").
 */
#ifndef STC_CUTR_H
#define STC_CUTR_H

#include "stc_bsq.h"
#include "unit_trace.h"

/* The line's next token as an epoch set of epochs below 2^n: 0, or -1
 * with the reason in the reader's err. */
int stc_cutr_eset(cohkit_trace_reader *r, unsigned n, stc_eset *s);

#endif
