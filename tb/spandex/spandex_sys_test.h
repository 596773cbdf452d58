/*
 * Helpers of the Criterion tests of the composed Spandex system
 * (tb/spandex/test_spandex_sys.c, test_spandex_mesi.c): the system tool run
 * in process, its log compared without D lines, and a translation unit
 * alone with its messages recorded.
 */
#ifndef SPANDEX_SYS_TEST_H
#define SPANDEX_SYS_TEST_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spandex_sys.h"
#include "test_util.h"
#include "unit.h"

/* ------------------------------------------------------------ helpers -- */

/* Runs the tool in process on prog with options opts: the status, the log
 * and standard error (malloc) in *out and *err. */
static inline int sys_run(const char *opts, const char *prog, char **out, char **err)
{
    const cohkit_unit_desc *u = cohkit_unit_tool_find("spandex-system");
    spandex_sys_cfg c;
    char why[300];
    size_t no = 0, ne = 0;
    FILE *in, *fo, *fe;
    int rc;
    cr_assert(u, "spandex-system is not registered");
    cr_assert_eq(cohkit_unit_cfg_parse_str(u, &c, opts, why, sizeof why), 0, "%s: %s", opts, why);
    in = *prog ? fmemopen((void *)prog, strlen(prog), "r") : fopen("/dev/null", "r");
    fo = open_memstream(out, &no);
    fe = open_memstream(err, &ne);
    cr_assert(in && fo && fe);
    rc = u->trace_run(&c, NULL, in, "prog", fo, fe);
    fclose(in);
    fclose(fo);
    fclose(fe);
    return rc;
}

/* The log without its D lines (malloc). */
static inline char *no_d(const char *log)
{
    char *r = malloc(strlen(log) + 1), *p = r;
    const char *s = log;
    cr_assert(r);
    while (*s) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s + 1) : strlen(s);
        if (strncmp(s, "D ", 2) != 0) {
            memcpy(p, s, n);
            p += n;
        }
        s += n;
    }
    *p = 0;
    return r;
}

/* prog must run to completion (status 0) and print expect without D lines. */
static inline void expect_log(const char *opts, const char *prog, const char *expect)
{
    char *out, *err, *s;
    int rc = sys_run(opts, prog, &out, &err);
    cr_assert_eq(rc, 0, "status %d\n%s%s", rc, out, err);
    s = no_d(out);
    cr_expect_str_eq(s, expect, "[%s]\nprogram:\n%s--- expected:\n%s--- model:\n%s", opts, prog, expect, s);
    free(s);
    free(out);
    free(err);
}

/* A TU alone, its messages, completions and protocol error recorded. */
typedef struct {
    spandex_msg m[32];
    unsigned dst[32], n;
    size_t done[16];
    uint64_t v[16];
    unsigned ndone;
    char fail[200];
} rec;

static inline void r_send(void *ctx, unsigned src, unsigned dst, const spandex_msg *m)
{
    rec *r = ctx;
    (void)src;
    cr_assert_lt(r->n, 32u);
    r->m[r->n] = *m;
    r->dst[r->n++] = dst;
}
static inline void r_issued(void *ctx, size_t op)
{
    (void)ctx;
    (void)op;
}
static inline void r_done(void *ctx, size_t op, int has_v, uint64_t v)
{
    rec *r = ctx;
    cr_assert_lt(r->ndone, 16u);
    r->v[r->ndone] = has_v ? v : ~0ull;
    r->done[r->ndone++] = op;
}
static inline void r_fail(void *ctx, const char *reason)
{
    rec *r = ctx;
    snprintf(r->fail, sizeof r->fail, "%s", reason);
}

static inline spandex_tu *mk_tu(spandex_tu_kind k, const spandex_sop *ops, size_t n, rec *r)
{
    spandex_tu_cfg c = {k, 2, 4, 4, 8, 1, 0, 0};
    spandex_tu_env env = {r, r_send, r_issued, r_done, r_fail};
    spandex_tu *t;
    memset(r, 0, sizeof *r);
    t = spandex_tu_new(&c, ops, n, &env);
    cr_assert(t);
    return t;
}

static inline spandex_msg msg(spandex_msg_kind k, unsigned req, uint64_t mask)
{
    spandex_msg m;
    memset(&m, 0, sizeof m);
    m.kind = k;
    m.req = req;
    m.line = 0x1000;
    m.mask = mask;
    return m;
}

/* Message k without data (requestor req, words mask) from the LLC to t. */
static inline void tu_recv_llc(spandex_tu *t, spandex_msg_kind k, unsigned req, uint64_t mask)
{
    spandex_msg m = msg(k, req, mask);
    spandex_tu_recv(t, SPANDEX_TU_LLC, &m);
}

#endif
