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

typedef struct {
    const rec_cfg *cfg;
    unsigned home;
} rec_reading;

static int parse_src(cohkit_trace_reader *rd, const rec_reading *x, const char *op, rec_treq *r)
{
    const char *g = cohkit_trace_arg(rd);
    char *end;
    unsigned long gv;
    if (g == NULL)
        return cohkit_trace_fail(rd, "%s needs a source GPU", op);
    errno = 0;
    gv = strtoul(g, &end, 10);
    if (errno != 0 || *end != '\0' || !isdigit((unsigned char)g[0]))
        return cohkit_trace_fail(rd, "'%s' is not a decimal GPU id", g);
    if (gv >= x->cfg->gpus)
        return cohkit_trace_fail(rd, "GPU %s out of range 0..%u", g, x->cfg->gpus - 1);
    if (gv == x->home)
        return cohkit_trace_fail(rd, "GPU %s is the home GPU, not a remote requester", g);
    r->src = (unsigned)gv;
    return 0;
}

static int parse_req(cohkit_trace_reader *rd, const void *ctx, void *rec)
{
    static const char *const names[] = {"RR", "RW", "LW"};
    static const rec_op ops[] = {REC_OP_RR, REC_OP_RW, REC_OP_LW};
    const rec_reading *x = ctx;
    rec_treq *r = rec;
    const char *op = rd->first, *extra;
    uint64_t addr;
    int k;
    r->lineno = rd->lineno;
    for (k = 0; k < 3 && strcmp(op, names[k]) != 0; k++)
        ;
    if (k == 3)
        return cohkit_trace_fail(rd, "unknown request '%s' (RR, RW or LW)", op);
    r->op = ops[k];
    if (cohkit_trace_req_addr(rd, op, x->cfg->addr_bits, &addr))
        return -1;
    r->line = addr >> ubits(x->cfg->line);
    if (r->op != REC_OP_LW && parse_src(rd, x, op, r))
        return -1;
    extra = cohkit_trace_arg(rd);
    if (extra != NULL)
        return cohkit_trace_fail(rd, "unexpected '%s' after the request", extra);
    return 0;
}

int rec_trace_read(FILE *f, const rec_cfg *cfg, unsigned home, rec_treq **reqs, size_t *n,
                   char *err, size_t len)
{
    static const cohkit_trace_format fmt = {sizeof(rec_treq), parse_req, NULL, 1022};
    rec_reading x = {cfg, home};
    void *v;
    int rc = cohkit_trace_records(f, &fmt, &x, &v, n, err, len);
    *reqs = v;
    return rc;
}

void rec_trace_print_inv(FILE *f, const rec_cfg *cfg, uint64_t line, uint32_t mask)
{
    fprintf(f, "INV 0x%llx 0x%x\n", (unsigned long long)(line << ubits(cfg->line)), mask);
}
