/*
 * The epoch-set token of the STC BSQ and CU traces; see stc_cutr.h.
 */
#include "stc_cutr.h"

int stc_cutr_eset(cohkit_trace_reader *r, unsigned n, stc_eset *s)
{
    const char *t = cohkit_trace_arg(r);
    char why[160];
    if (t == NULL)
        return cohkit_trace_fail(r, "missing epoch set");
    if (stc_eset_parse(s, t, n, why, sizeof why) != 0)
        return cohkit_trace_fail(r, "%s", why);
    return 0;
}
