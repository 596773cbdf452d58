/* STC system programs: reader, writer, constrained-random generator. */
#include "stc_prog.h"
#include "unit_trace.h"
#include "unit.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[] = {"ST", "STREL", "AMO", "LD", "LDACQ", "WAIT", "NOP"};

const char *stc_op_name(stc_op_kind k)
{
    return (unsigned)k < sizeof op_names / sizeof op_names[0] ? op_names[k] : "?";
}

void stc_prog_free(stc_prog *p)
{
    unsigned i;
    if (p->ops)
        for (i = 0; i < p->cus; i++)
            free(p->ops[i]);
    free(p->ops);
    free(p->nops);
    free(p->mem);
    memset(p, 0, sizeof *p);
}

static int prog_alloc(stc_prog *p, unsigned cus)
{
    memset(p, 0, sizeof *p);
    p->cus = cus;
    p->ops = calloc(cus, sizeof *p->ops);
    p->nops = calloc(cus, sizeof *p->nops);
    if (p->ops == NULL || p->nops == NULL) {
        stc_prog_free(p);
        return -1;
    }
    return 0;
}

static int push_op(stc_prog *p, unsigned cu, const stc_op *o)
{
    size_t n = p->nops[cu];
    if ((n & (n - 1)) == 0) { /* grow at powers of two */
        stc_op *v = realloc(p->ops[cu], (n ? 2 * n : 8) * sizeof *v);
        if (v == NULL)
            return -1;
        p->ops[cu] = v;
    }
    p->ops[cu][p->nops[cu]++] = *o;
    return 0;
}

static int push_mem(stc_prog *p, uint64_t a, uint32_t v)
{
    size_t n = p->nmem;
    if ((n & (n - 1)) == 0) {
        stc_meminit *m = realloc(p->mem, (n ? 2 * n : 8) * sizeof *m);
        if (m == NULL)
            return -1;
        p->mem = m;
    }
    p->mem[p->nmem].addr = a;
    p->mem[p->nmem].value = v;
    p->nmem++;
    return 0;
}

int stc_prog_read(FILE *f, unsigned cus, unsigned addr_bits, stc_prog *p, char *err, size_t len)
{
    char buf[1024];
    unsigned lineno = 0;
    int got;
    if (prog_alloc(p, cus) != 0) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    while ((got = cohkit_trace_line(f, buf, sizeof buf, &lineno, err, len)) > 0) {
        char *s = buf, *t, *opn, *a1, *a2, *extra;
        uint64_t cu, v;
        stc_op o;
        unsigned k, nargs;
        t = cohkit_trace_tok(&s);
        if (t == NULL)
            continue;
        memset(&o, 0, sizeof o);
        o.lineno = lineno;
        if (strcmp(t, "MEM") == 0) {
            a1 = cohkit_trace_tok(&s);
            a2 = cohkit_trace_tok(&s);
            extra = cohkit_trace_tok(&s);
            if (cohkit_trace_hex(a1, addr_bits, &o.addr) != 0 || (o.addr & 3)) {
                snprintf(err, len, "line %u: MEM: bad address '%s' (4-byte aligned, %u bits)",
                         lineno, a1 ? a1 : "", addr_bits);
                goto bad;
            }
            if (cohkit_trace_dec(a2, UINT32_MAX, &v) != 0) {
                snprintf(err, len, "line %u: MEM: bad value '%s' (32-bit decimal)", lineno,
                         a2 ? a2 : "");
                goto bad;
            }
            if (extra) {
                snprintf(err, len, "line %u: MEM: unexpected '%s'", lineno, extra);
                goto bad;
            }
            if (push_mem(p, o.addr, (uint32_t)v) != 0) {
                snprintf(err, len, "out of memory");
                goto bad;
            }
            continue;
        }
        if (cohkit_trace_dec(t, cus - 1, &cu) != 0) {
            snprintf(err, len, "line %u: bad CU '%s' (0..%u) or unknown record", lineno, t, cus - 1);
            goto bad;
        }
        opn = cohkit_trace_tok(&s);
        if (opn == NULL) {
            snprintf(err, len, "line %u: missing operation after CU %s", lineno, t);
            goto bad;
        }
        for (k = 0; k < sizeof op_names / sizeof op_names[0]; k++)
            if (strcmp(opn, op_names[k]) == 0)
                break;
        if (k == sizeof op_names / sizeof op_names[0]) {
            snprintf(err, len, "line %u: unknown operation '%s'", lineno, opn);
            goto bad;
        }
        o.kind = (stc_op_kind)k;
        nargs = o.kind == STC_OP_WAIT ? 0 : o.kind == STC_OP_NOP || o.kind == STC_OP_LD ? 1 : 2;
        a1 = nargs >= 1 ? cohkit_trace_tok(&s) : NULL;
        a2 = nargs >= 2 ? cohkit_trace_tok(&s) : NULL;
        extra = cohkit_trace_tok(&s);
        if (o.kind == STC_OP_NOP) {
            if (cohkit_trace_dec(a1, 1000000, &v) != 0) {
                snprintf(err, len, "line %u: NOP: bad cycle count '%s' (0..1000000)", lineno,
                         a1 ? a1 : "");
                goto bad;
            }
            o.value = (uint32_t)v;
        } else if (nargs >= 1) {
            if (cohkit_trace_hex(a1, addr_bits, &o.addr) != 0 || (o.addr & 3)) {
                snprintf(err, len, "line %u: %s: bad address '%s' (4-byte aligned, %u bits)",
                         lineno, opn, a1 ? a1 : "", addr_bits);
                goto bad;
            }
            if (nargs == 2) {
                if (cohkit_trace_dec(a2, UINT32_MAX, &v) != 0) {
                    snprintf(err, len, "line %u: %s: bad value '%s' (32-bit decimal)", lineno,
                             opn, a2 ? a2 : "");
                    goto bad;
                }
                o.value = (uint32_t)v;
            }
        }
        if (extra) {
            snprintf(err, len, "line %u: %s: unexpected '%s'", lineno, opn, extra);
            goto bad;
        }
        if (push_op(p, (unsigned)cu, &o) != 0) {
            snprintf(err, len, "out of memory");
            goto bad;
        }
    }
    if (got < 0)
        goto bad;
    return 0;
bad:
    stc_prog_free(p);
    return -1;
}

void stc_prog_write(const stc_prog *p, FILE *f)
{
    size_t i;
    unsigned c;
    for (i = 0; i < p->nmem; i++)
        fprintf(f, "MEM 0x%" PRIx64 " %" PRIu32 "\n", p->mem[i].addr, p->mem[i].value);
    for (c = 0; c < p->cus; c++)
        for (i = 0; i < p->nops[c]; i++) {
            const stc_op *o = &p->ops[c][i];
            fprintf(f, "%u %s", c, stc_op_name(o->kind));
            switch (o->kind) {
            case STC_OP_WAIT:
                break;
            case STC_OP_NOP:
                fprintf(f, " %" PRIu32, o->value);
                break;
            case STC_OP_LD:
                fprintf(f, " 0x%" PRIx64, o->addr);
                break;
            default:
                fprintf(f, " 0x%" PRIx64 " %" PRIu32, o->addr, o->value);
                break;
            }
            fputc('\n', f);
        }
}

/* ---- generator ---------------------------------------------------------- */

void stc_gen_cfg_default(stc_gen_cfg *g)
{
    static const stc_gen_cfg d = {.cus = 2, .ops = 24, .n = 4, .seb = 12, .seb_min = 12,
                                  .addr_bits = 32, .line = 64};
    *g = d;
}

static unsigned below(uint64_t *s, unsigned n)
{
    return n ? (unsigned)(cohkit_unit_splitmix(s) % n) : 0;
}

#define POOL_MAX 64

int stc_prog_random(const stc_gen_cfg *g, uint64_t seed, stc_prog *p)
{
    uint64_t s = seed * 0x2545F4914F6CDD1Dull + 1, wr[POOL_MAX], rd[POOL_MAX];
    unsigned nw = 0, nr = 0, i, c, bands = 1u << g->n, wb[3], rb[2];
    unsigned hi = g->seb + g->n, lines = (1u << g->seb_min) / g->line;
    uint32_t val = 1;
    unsigned nflag = 0;
    uint64_t amask = g->addr_bits >= 64 ? ~0ull : (1ull << g->addr_bits) - 1;
    if (prog_alloc(p, g->cus) != 0)
        return -1;
    if (lines == 0)
        lines = 1;
    /* three written bands and two read-only bands, all distinct */
    for (i = 0; i < 5; i++) {
        unsigned b, j, dup;
        do {
            b = below(&s, bands);
            dup = 0;
            for (j = 0; j < i; j++)
                dup |= (j < 3 ? wb[j] : rb[j - 3]) == b;
        } while (dup && bands > 5);
        if (i < 3)
            wb[i] = b;
        else
            rb[i - 3] = b;
    }
    /* written addresses; each with partners read elsewhere in the program */
    for (i = 0; i < 6; i++) {
        uint64_t a = ((uint64_t)wb[i % 3] << g->seb) |
                     ((uint64_t)below(&s, lines) * g->line) | ((uint64_t)below(&s, 4) * 4);
        wr[nw++] = a & amask;
        rd[nr++] = (a ^ (1ull << (hi + below(&s, 3)))) & amask;  /* above the band field */
        rd[nr++] = (a ^ (1ull << g->seb_min)) & amask;           /* bit SEB_MIN          */
        if (g->seb > g->seb_min)                                 /* below the band field */
            rd[nr++] = (a ^ (1ull << (g->seb_min + below(&s, g->seb - g->seb_min)))) & amask;
    }
    for (i = 0; i < 4; i++)
        rd[nr++] = (((uint64_t)rb[i % 2] << g->seb) | ((uint64_t)below(&s, lines) * g->line)) & amask;
    for (i = 0; i < 4; i++)
        if (push_mem(p, rd[below(&s, nr)], (uint32_t)(1000 + i)) != 0)
            goto oom;
    /* threads: round robin over the CUs until each has `ops` operations */
    for (i = 0; i < g->ops; i++)
        for (c = 0; c < g->cus; c++) {
            stc_op o;
            unsigned r = below(&s, 100);
            if (p->nops[c] > i)
                continue; /* filled by a message-passing pair */
            memset(&o, 0, sizeof o);
            if (r < 8 && c + 1 < g->cus && i + 4 < g->ops) {
                /* message passing: c produces, a higher CU consumes (no cycle of
                 * waits: a CU only waits for lower ones) */
                unsigned q = c + 1 + below(&s, g->cus - 1 - c), k;
                uint64_t d0 = wr[below(&s, nw)], d1 = wr[below(&s, nw)];
                /* a flag word of its own: a written band, line offset past the pool */
                uint64_t flag = (((uint64_t)wb[below(&s, 3)] << g->seb) |
                                 ((uint64_t)(nflag % lines) * g->line) | 0x3c) & amask;
                uint32_t fv = 0x40000000u + nflag++;
                stc_op ops_p[3], ops_q[3];
                memset(ops_p, 0, sizeof ops_p);
                memset(ops_q, 0, sizeof ops_q);
                ops_p[0].kind = STC_OP_ST, ops_p[0].addr = d0, ops_p[0].value = val++;
                ops_p[1].kind = STC_OP_ST, ops_p[1].addr = d1, ops_p[1].value = val++;
                ops_p[2].kind = STC_OP_STREL, ops_p[2].addr = flag, ops_p[2].value = fv;
                ops_q[0].kind = STC_OP_LDACQ, ops_q[0].addr = flag, ops_q[0].value = fv;
                ops_q[1].kind = STC_OP_LD, ops_q[1].addr = d0;
                ops_q[2].kind = STC_OP_LD, ops_q[2].addr = d1;
                for (k = 0; k < 3; k++)
                    if (push_op(p, c, &ops_p[k]) != 0 || push_op(p, q, &ops_q[k]) != 0)
                        goto oom;
                continue;
            }
            if (r < 40) {
                o.kind = STC_OP_ST, o.addr = wr[below(&s, nw)], o.value = val++;
            } else if (r < 75) {
                o.kind = STC_OP_LD;
                o.addr = below(&s, 3) ? rd[below(&s, nr)] : wr[below(&s, nw)];
            } else if (r < 82) {
                o.kind = STC_OP_AMO, o.addr = wr[below(&s, nw)], o.value = 1 + below(&s, 7);
            } else if (r < 90) {
                o.kind = STC_OP_WAIT;
            } else {
                o.kind = STC_OP_NOP, o.value = 1 + below(&s, 30);
            }
            if (push_op(p, c, &o) != 0)
                goto oom;
        }
    return 0;
oom:
    stc_prog_free(p);
    return -1;
}
