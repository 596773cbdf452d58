/*
 * The Spandex LLC checker: invariants LLC1-LLC8 (spec 6) checked after every
 * event of a 9.2 trace, from the events and the LLC's messages alone (a
 * shadow of owners, values, outstanding probes and open requests that it
 * keeps itself), and against the core's state where one is given.
 *
 * Feed it each input event (spandex_llc_chk_input), every message the LLC
 * sends for that event in order (spandex_llc_chk_output), then
 * spandex_llc_chk_state (the core, or NULL when only the messages are
 * known, e.g. an RTL run), and spandex_llc_chk_end after the trace. Each
 * returns 0, or -1 when an invariant fails; spandex_llc_chk_error then
 * names it and the trace line ("LLC7 line 12: ...").
 */
#ifndef SPANDEX_LLC_CHECK_H
#define SPANDEX_LLC_CHECK_H

#include "cohkit.h"
#include "spandex_llc.h"

COHKIT_BEGIN_DECLS

typedef struct spandex_llc_chk spandex_llc_chk;

spandex_llc_chk *spandex_llc_chk_new(const spandex_llc_cfg *c);
void spandex_llc_chk_free(spandex_llc_chk *k);
int spandex_llc_chk_input(spandex_llc_chk *k, const spandex_msg *in, unsigned lineno);
int spandex_llc_chk_output(spandex_llc_chk *k, const spandex_msg *out);
int spandex_llc_chk_state(spandex_llc_chk *k, const spandex_llc *l);
/* One resident line of the core against the shadow (part of
 * spandex_llc_chk_state: LLC1 owners, LLC4 open transaction and what it
 * waits for, LLC6 S with sharers, LLC7 unowned values). */
int spandex_llc_chk_line(spandex_llc_chk *k, const spandex_llc_line_info *x);
int spandex_llc_chk_end(spandex_llc_chk *k, const spandex_llc *l);
const char *spandex_llc_chk_error(const spandex_llc_chk *k);

COHKIT_END_DECLS

#endif
