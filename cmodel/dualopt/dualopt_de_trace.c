/* Trace reader and printer of the DualOpt decision engine (spec 4.7). */
#include "dualopt_de_trace.h"
#include "unit_trace.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int parse_hit(const char *s, unsigned *hit)
{
    if (s == NULL || (strcmp(s, "0") != 0 && strcmp(s, "1") != 0))
        return -1;
    *hit = s[0] == '1';
    return 0;
}

/* Hex mask of at most `bits` bits, 0x optional. */
static int parse_mask(const char *s, unsigned bits, uint64_t *m)
{
    uint64_t v = 0;
    int n = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    for (; *s; s++, n++) {
        int d = isdigit((unsigned char)*s) ? *s - '0'
                : (*s >= 'a' && *s <= 'f') ? *s - 'a' + 10
                : (*s >= 'A' && *s <= 'F') ? *s - 'A' + 10
                                           : -1;
        if (d < 0 || (v >> 60) != 0)
            return -1;
        v = v << 4 | (uint64_t)d;
    }
    if (n == 0 || (bits < 64 && (v >> bits) != 0))
        return -1;
    *m = v;
    return 0;
}

int dualopt_de_trace_read(FILE *f, const dualopt_de_cfg *cfg, dualopt_de_trec **recs, size_t *n, char *err, size_t len)
{
    char buf[1024];
    unsigned lineno = 0;
    int got;
    size_t cap = 0, cnt = 0;
    dualopt_de_trec *v = NULL;
    while ((got = cohkit_trace_line(f, buf, sizeof buf, &lineno, err, len)) > 0) {
        char *p = buf, *op, *a, *b;
        dualopt_de_trec r;
        op = cohkit_trace_tok(&p);
        if (op == NULL)
            continue;
        memset(&r, 0, sizeof r);
        r.lineno = lineno;
        a = cohkit_trace_tok(&p);
        b = a ? cohkit_trace_tok(&p) : NULL;
        if (strcmp(op, "LR") == 0 || strcmp(op, "LW") == 0 || strcmp(op, "KERNEL") == 0 ||
            strcmp(op, "RESET") == 0) {
            r.op = op[0] == 'K' ? DUALOPT_DE_T_KERNEL : op[0] == 'R' ? DUALOPT_DE_T_RESET : op[1] == 'R' ? DUALOPT_DE_LR : DUALOPT_DE_LW;
            if (a != NULL) {
                snprintf(err, len, "line %u: %s takes no operand, got '%s'", lineno, op, a);
                goto bad;
            }
        } else if (strcmp(op, "RR") == 0) {
            r.op = DUALOPT_DE_RR;
            if (a == NULL || b == NULL) {
                snprintf(err, len, "line %u: RR needs <hit 0|1> <hex mask>", lineno);
                goto bad;
            }
            if (parse_hit(a, &r.hit) != 0) {
                snprintf(err, len, "line %u: hit '%s' is not 0 or 1", lineno, a);
                goto bad;
            }
            if (parse_mask(b, cfg->words, &r.mask) != 0) {
                snprintf(err, len, "line %u: mask '%s' is not a hex mask of %u bits", lineno, b,
                         cfg->words);
                goto bad;
            }
            if (cohkit_trace_tok(&p) != NULL) {
                snprintf(err, len, "line %u: RR takes two operands", lineno);
                goto bad;
            }
        } else if (strcmp(op, "RW") == 0) {
            r.op = DUALOPT_DE_RW;
            if (a != NULL && parse_hit(a, &r.hit) != 0) {
                snprintf(err, len, "line %u: hit '%s' is not 0 or 1", lineno, a);
                goto bad;
            }
            if (b != NULL) {
                snprintf(err, len, "line %u: RW takes at most one operand, got '%s'", lineno, b);
                goto bad;
            }
        } else {
            snprintf(err, len, "line %u: unknown record '%s' (LR, LW, RR, RW, KERNEL, RESET)",
                     lineno, op);
            goto bad;
        }
        if (cohkit_trace_grow(&v, &cap, cnt, sizeof *v, 256) != 0) {
            snprintf(err, len, "line %u: out of memory", lineno);
            goto bad;
        }
        v[cnt++] = r;
    }
    if (got < 0)
        goto bad;
    *recs = v;
    *n = cnt;
    return 0;
bad:
    free(v);
    return -1;
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
