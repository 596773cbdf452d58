/*
 * The spandex-llc trace (spec 9.2): the input reader (one event a line) and
 * the trace tool (`cohmodel spandex-llc`): the functional core on every
 * event, its messages printed in canonical order, optionally checked by
 * spandex_llc_chk after every event (--check).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "spandex_llc.h"
#include "spandex_llc_check.h"
#include "spandex_trace_values.h"
#include "unit_trace.h"

typedef spandex_llc_event_rec rec;

static const char *const trace_ops[] = {"rd", "swp", "add", "and", "or", NULL};


static int parse_event(cohkit_trace_reader *r, const void *ctx, void *record)
{
    const spandex_llc_cfg *c = ctx;
    rec *e = record;
    spandex_msg *m = &e->m;
    int k = spandex_msg_find(r->first);
    unsigned words = c->line / c->word, d;
    uint64_t a;
    e->lineno = r->lineno;
    if (k < 0 || (spandex_msg_net((spandex_msg_kind)k) != SPANDEX_NET_REQ && k != SPANDEX_ACK &&
                  k != SPANDEX_RSPRVKO))
        return cohkit_trace_fail(r, "unknown event '%s' (Req*, Ack, RspRvkO)", r->first);
    m->kind = (spandex_msg_kind)k;
    if (cohkit_trace_num(r, "device", 0, c->devs - 1, &d) || cohkit_trace_req_addr(r, r->first, c->addr_bits, &a))
        return -1;
    m->dev = d;
    m->line = a & ~(uint64_t)(c->line - 1);
    if (k == SPANDEX_ACK)
        return cohkit_trace_end(r);
    if (cohkit_trace_addr(r, "mask", words, &m->mask))
        return -1;
    if (m->mask == 0)
        return cohkit_trace_fail(r, "mask 0x0 names no word");
    if (k == SPANDEX_REQWTDATA) {
        char *t = cohkit_trace_arg(r);
        unsigned op;
        if (t == NULL)
            return cohkit_trace_fail(r, "ReqWT+data needs an op (rd, swp, add, and, or)");
        for (op = 0; trace_ops[op] && strcmp(trace_ops[op], t) != 0; op++)
            ;
        if (trace_ops[op] == NULL)
            return cohkit_trace_fail(r, "unknown op '%s' (rd, swp, add, and, or)", t);
        m->op = op;
        if (op == SPANDEX_OP_RD)
            return cohkit_trace_end(r);
    }
    if (spandex_msg_has_data(m->kind) &&
        spandex_trace_values(r, m->mask, c->word * 8, SPANDEX_LLC_WORDS_MAX, m->v))
        return -1;
    return cohkit_trace_end(r);
}

int spandex_llc_trace_read(const spandex_llc_cfg *c, FILE *in, spandex_llc_event_rec **recs, size_t *n,
                           char *err, size_t len)
{
    const cohkit_trace_format fmt = {sizeof(rec), parse_event, NULL, 0};
    void *r;
    int rc = cohkit_trace_records(in, &fmt, c, &r, n, err, len);
    *recs = r;
    return rc;
}

typedef struct {
    FILE *out;
    unsigned words;
    uint64_t count[SPANDEX_MSG_KINDS];
    spandex_llc_chk *chk;
    int violated;
} run_ctx;

static void emit(void *ctx, const spandex_msg *m)
{
    run_ctx *x = ctx;
    spandex_msg_print(m, x->words, x->out);
    x->count[m->kind]++;
    if (x->chk && !x->violated && spandex_llc_chk_output(x->chk, m) != 0)
        x->violated = 1;
}

int spandex_llc_trace_run(const spandex_llc_cfg *c, const spandex_llc_flags *fl, FILE *in,
                          const char *in_name, FILE *out, FILE *errf)
{
    const cohkit_trace_format fmt = {sizeof(rec), parse_event, NULL, 0};
    void *recs;
    rec *r;
    size_t n, i;
    char err[300];
    spandex_llc *l;
    run_ctx x;
    int rc = 0;
    char *obuf = NULL;
    size_t olen = 0;
    if (cohkit_trace_records(in, &fmt, c, &recs, &n, err, sizeof err) != 0) {
        fprintf(errf, "cohmodel: %s: %s\n", in_name, err);
        return 2;
    }
    r = recs;
    memset(&x, 0, sizeof x);
    /* the output is kept until the run ends: nothing is written on a
     * refusal */
    x.out = open_memstream(&obuf, &olen);
    if (x.out == NULL) {
        free(recs);
        fprintf(errf, "cohmodel: out of memory\n");
        return 2;
    }
    x.words = c->line / c->word;
    l = spandex_llc_new(c);
    if (fl->check)
        x.chk = spandex_llc_chk_new(c);
    if (l == NULL || (fl->check && x.chk == NULL)) {
        fprintf(errf, "cohmodel: out of memory\n");
        rc = 2;
    }
    for (i = 0; rc == 0 && i < n; i++) {
        x.count[r[i].m.kind]++;
        if (x.chk && spandex_llc_chk_input(x.chk, &r[i].m, r[i].lineno) != 0)
            x.violated = 1;
        if (spandex_llc_event(l, &r[i].m, emit, &x, err, sizeof err) != 0) {
            fprintf(errf, "cohmodel: %s: line %u: %s\n", in_name, r[i].lineno, err);
            rc = 2;
            break;
        }
        if (x.chk && !x.violated && spandex_llc_chk_state(x.chk, l) != 0)
            x.violated = 1;
        if (x.violated) {
            fprintf(x.out, "CHECK %s\n", spandex_llc_chk_error(x.chk));
            rc = 1;
            break;
        }
    }
    if (rc == 0 && x.chk && spandex_llc_chk_end(x.chk, l) != 0) {
        fprintf(x.out, "CHECK %s\n", spandex_llc_chk_error(x.chk));
        rc = 1;
    }
    if (rc == 0 && fl->dump)
        spandex_llc_dump(l, x.out);
    if (rc == 0 && fl->stats)
        for (i = 0; i < SPANDEX_MSG_KINDS; i++)
            if (x.count[i])
                fprintf(x.out, "# count %s %llu\n", spandex_msg_name((spandex_msg_kind)i),
                        (unsigned long long)x.count[i]);
    fclose(x.out);
    if (rc != 2)
        fwrite(obuf, 1, olen, out);
    free(obuf);
    spandex_llc_chk_free(x.chk);
    spandex_llc_free(l);
    free(recs);
    return rc;
}
