/* Trace reader and printer of the DualOpt decision engine (spec 4.7). */
#include "dualopt_de_trace.h"
#include "unit_trace.h"

#include <stdlib.h>
#include <string.h>

static int parse_hit(const char *s, unsigned *hit)
{
    if (s == NULL || (strcmp(s, "0") != 0 && strcmp(s, "1") != 0))
        return -1;
    *hit = s[0] == '1';
    return 0;
}

static int parse_rr(cohkit_trace_reader *rd, const dualopt_de_cfg *cfg, const char *a,
                    const char *b, dualopt_de_trec *r)
{
    if (a == NULL || b == NULL)
        return cohkit_trace_fail(rd, "RR needs <hit 0|1> <hex mask>");
    if (parse_hit(a, &r->hit) != 0)
        return cohkit_trace_fail(rd, "hit '%s' is not 0 or 1", a);
    if (cohkit_trace_hex_width(b, cfg->words, &r->mask) != 0)
        return cohkit_trace_fail(rd, "mask '%s' is not a hex mask of %u bits", b, cfg->words);
    if (cohkit_trace_arg(rd) != NULL)
        return cohkit_trace_fail(rd, "RR takes two operands");
    return 0;
}

static int parse_rec(cohkit_trace_reader *rd, const void *ctx, void *rec)
{
    const dualopt_de_cfg *cfg = ctx;
    dualopt_de_trec *r = rec;
    const char *op = rd->first, *a = cohkit_trace_arg(rd), *b = a ? cohkit_trace_arg(rd) : NULL;
    r->lineno = rd->lineno;
    if (strcmp(op, "LR") == 0 || strcmp(op, "LW") == 0 || strcmp(op, "KERNEL") == 0 ||
        strcmp(op, "RESET") == 0) {
        r->op = op[0] == 'K'   ? DUALOPT_DE_T_KERNEL
                : op[0] == 'R' ? DUALOPT_DE_T_RESET
                : op[1] == 'R' ? DUALOPT_DE_LR
                               : DUALOPT_DE_LW;
        if (a != NULL)
            return cohkit_trace_fail(rd, "%s takes no operand, got '%s'", op, a);
        return 0;
    }
    if (strcmp(op, "RR") == 0) {
        r->op = DUALOPT_DE_RR;
        return parse_rr(rd, cfg, a, b, r);
    }
    if (strcmp(op, "RW") != 0)
        return cohkit_trace_fail(rd, "unknown record '%s' (LR, LW, RR, RW, KERNEL, RESET)", op);
    r->op = DUALOPT_DE_RW;
    if (a != NULL && parse_hit(a, &r->hit) != 0)
        return cohkit_trace_fail(rd, "hit '%s' is not 0 or 1", a);
    if (b != NULL)
        return cohkit_trace_fail(rd, "RW takes at most one operand, got '%s'", b);
    return 0;
}

int dualopt_de_trace_read(FILE *f, const dualopt_de_cfg *cfg, dualopt_de_trec **recs, size_t *n, char *err, size_t len)
{
    static const cohkit_trace_format fmt = {sizeof(dualopt_de_trec), parse_rec, NULL, 1022};
    void *v;
    int rc = cohkit_trace_records(f, &fmt, cfg, &v, n, err, len);
    *recs = v;
    return rc;
}

void dualopt_de_trace_print_decide(FILE *f, uint64_t n, unsigned mode, const dualopt_de_counts *c)
{
    fprintf(f, "DECIDE %llu %s %llu %llu %llu %llu %llu\n", (unsigned long long)n,
            dualopt_de_mode_str((dualopt_de_mode)mode), (unsigned long long)c->total,
            (unsigned long long)c->remote, (unsigned long long)c->reads,
            (unsigned long long)c->words, (unsigned long long)c->hits);
}

void dualopt_de_trace_print_undecided(FILE *f, const dualopt_de_counts *c)
{
    fprintf(f, "UNDECIDED %llu %llu %llu %llu %llu\n", (unsigned long long)c->total,
            (unsigned long long)c->remote, (unsigned long long)c->reads,
            (unsigned long long)c->words, (unsigned long long)c->hits);
}
