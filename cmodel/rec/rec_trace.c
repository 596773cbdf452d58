#include "rec_trace.h"
#include "unit_trace.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static unsigned ubits(unsigned v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

int rec_trace_read(FILE *f, const rec_cfg *cfg, unsigned home, rec_treq **reqs, size_t *n,
                   char *err, size_t len)
{
    char buf[1024];
    unsigned lineno = 0;
    int got;
    size_t cap = 0, cnt = 0;
    rec_treq *v = NULL;
    unsigned lb = ubits(cfg->line);

    while ((got = cohkit_trace_line(f, buf, sizeof buf, &lineno, err, len)) > 0) {
        char *p = buf, *op, *a, *g, *extra, *end;
        rec_treq r;
        uint64_t addr;
        op = cohkit_trace_tok(&p);
        if (op == NULL)
            continue;
        memset(&r, 0, sizeof r);
        r.lineno = lineno;
        if (strcmp(op, "RR") == 0)
            r.op = REC_OP_RR;
        else if (strcmp(op, "RW") == 0)
            r.op = REC_OP_RW;
        else if (strcmp(op, "LW") == 0)
            r.op = REC_OP_LW;
        else {
            snprintf(err, len, "line %u: unknown request '%s' (RR, RW or LW)", lineno, op);
            goto bad;
        }
        a = cohkit_trace_tok(&p);
        if (a == NULL) {
            snprintf(err, len, "line %u: %s needs an address", lineno, op);
            goto bad;
        }
        errno = 0;
        if (a[0] == '-' || a[0] == '+' || !isxdigit((unsigned char)a[a[0] == '0' && (a[1] == 'x' || a[1] == 'X') ? 2 : 0])) {
            snprintf(err, len, "line %u: '%s' is not a hex address", lineno, a);
            goto bad;
        }
        addr = strtoull(a, &end, 16);
        if (errno != 0 || *end != '\0') {
            snprintf(err, len, "line %u: '%s' is not a hex address", lineno, a);
            goto bad;
        }
        if (cfg->addr_bits < 64 && (addr >> cfg->addr_bits) != 0) {
            snprintf(err, len, "line %u: address %s exceeds %u bits", lineno, a, cfg->addr_bits);
            goto bad;
        }
        r.line = addr >> lb;
        if (r.op != REC_OP_LW) {
            unsigned long gv;
            g = cohkit_trace_tok(&p);
            if (g == NULL) {
                snprintf(err, len, "line %u: %s needs a source GPU", lineno, op);
                goto bad;
            }
            errno = 0;
            gv = strtoul(g, &end, 10);
            if (errno != 0 || *end != '\0' || !isdigit((unsigned char)g[0])) {
                snprintf(err, len, "line %u: '%s' is not a decimal GPU id", lineno, g);
                goto bad;
            }
            if (gv >= cfg->gpus) {
                snprintf(err, len, "line %u: GPU %s out of range 0..%u", lineno, g, cfg->gpus - 1);
                goto bad;
            }
            if (gv == home) {
                snprintf(err, len, "line %u: GPU %s is the home GPU, not a remote requester",
                         lineno, g);
                goto bad;
            }
            r.src = (unsigned)gv;
        }
        extra = cohkit_trace_tok(&p);
        if (extra != NULL) {
            snprintf(err, len, "line %u: unexpected '%s' after the request", lineno, extra);
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
    if (ferror(f)) {
        snprintf(err, len, "read error after line %u", lineno);
        goto bad;
    }
    *reqs = v;
    *n = cnt;
    return 0;
bad:
    free(v);
    return -1;
}

void rec_trace_print_inv(FILE *f, const rec_cfg *cfg, uint64_t line, uint32_t mask)
{
    fprintf(f, "INV 0x%llx 0x%x\n", (unsigned long long)(line << ubits(cfg->line)), mask);
}
