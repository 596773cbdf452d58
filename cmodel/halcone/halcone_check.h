/*
 * HALCONE system checker: reads the event log of a HALCONE system run (the
 * `halcone-system` output format with its event lines, spec 7.4) and checks
 * it in logical time. It shares no code with the system model: it sees only
 * the text lines, so it can equally check a log written by another simulator.
 *
 * Order (spec 5.1, the paper's section 3.2): the key of a load is (epoch, the
 * cts of its L1 after the access, physical position), of a store (epoch, the
 * wts the TSU granted, physical position). Every load must return the value
 * of the last store to its block in key order (0 if none). A failing load is
 * STALE (a missed store ordered before the load happened physically earlier),
 * REORDER (every missed store happened physically later) or FUTURE (the value
 * read belongs to a store ordered after the load). A value no store wrote
 * counts as STALE.
 *
 * Invariants (spec 5.1), checked on every event as it arrives:
 *   I1  every cached L1 copy of X with lease (w, r) has r <= M(X), M(X) the
 *       TSU's memts of X or the floor when X has no entry (needs the TSU
 *       event lines); checked on each copy reported and whenever M(X) falls;
 *   I2  a store's wts exceeds every rts seen for its block in the epoch (TSU
 *       grants and L1 copies), so successive stores increase;
 *   I3  after every access the L1 copy (w, r) satisfies w <= l1-cts <= r, a
 *       load's ts is its L1's cts; an L1 hit reads a copy whose recorded
 *       lease covers the access and is returned unchanged;
 *   I4  l1-cts <= l2-cts on every access the L2 served (stores, loads
 *       from L2 or MM): an L1 fill from an L2 hit is then covered;
 *   CTS an L1's cts never decreases within an epoch;
 *   PO  a CU's keys never decrease within an epoch (program order embedded
 *       in logical time);
 *   COPY/EPOCH  an L1 (L2) hit needs a copy installed in the current epoch
 *       and not evicted since (EVL1/EVL2 with 1, L1VICTIM, L2VICTIM, RESET).
 *
 * Log lines (one per call; `#` lines and CHECK lines are ignored):
 *   LD|ST <gpu> <cu> <line> <value> <src> <ts> <l1-cts> <l2-cts> <wts> <rts>
 *   RESET <epoch>
 *   EVL1 <gpu> <cu> <line> <0|1>      EVL2 <gpu> <line> <0|1>
 *   L1VICTIM <gpu> <cu> <line>        L2VICTIM <gpu> <line>
 *   TSU [<tsu>] GRANT <line> <wts> <rts> | VICTIM <line> <memts> |
 *       FLOOR <v> [<set>] | WRAP <line> | RESET <epoch> |
 *       REMOVE <line> <memts> | KEEP <line> <memts> | ABSENT <line>
 * (<tsu> is given when the system has several TSUs.)
 */
#ifndef HALCONE_CHECK_H
#define HALCONE_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"

COHKIT_BEGIN_DECLS

typedef enum {
    HALCONE_CHECK_I1 = 0,
    HALCONE_CHECK_I2,
    HALCONE_CHECK_I3,
    HALCONE_CHECK_I4,
    HALCONE_CHECK_CTS,
    HALCONE_CHECK_PO,
    HALCONE_CHECK_COPY,
    HALCONE_CHECK_NINV
} halcone_check_inv;

typedef struct {
    uint64_t loads, stores;
    uint64_t stale, reorder, future;   /* failing loads by kind              */
    uint64_t inv[HALCONE_CHECK_NINV];            /* invariant violations by kind       */
    uint64_t epoch;                    /* last epoch seen                    */
} halcone_check_result;

typedef struct halcone_check halcone_check;

/* A checker with an empty log. NULL when out of memory. */
halcone_check *halcone_check_new(void);
void halcone_check_free(halcone_check *c);
/* Feeds one log line; `lineno` is the input (trace) line it belongs to,
 * used in the reports. Returns 0, or -1 with a one-line reason for a line
 * that is not in the log format (the checker is then unchanged). */
int halcone_check_feed(halcone_check *c, const char *line, unsigned long lineno, char *err, size_t len);
/* After the whole log: the failing loads in trace order as
 *   CHECK STALE|REORDER|FUTURE <input-line> <line> <got-value> <want-value>
 * then one `# INVARIANT <name> line <N> ...` line per invariant violation
 * (in the order found), on `out` (may be NULL); the counts in *r. Returns
 * the number of failing loads plus invariant violations. Call once. */
uint64_t halcone_check_finish(halcone_check *c, FILE *out, halcone_check_result *r);
/* Name of an invariant ("I1", ..., "COPY"). */
const char *halcone_check_inv_name(halcone_check_inv i);

COHKIT_END_DECLS

#endif
