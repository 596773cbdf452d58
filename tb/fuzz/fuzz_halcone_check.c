/*
 * halcone-check: event logs through the HALCONE checker
 * (cmodel/halcone/halcone_check.h), the library that judges halcone-system's
 * log and any other simulator's: each line fed with its number, then the
 * report.
 *
 * Checked: a refused line gets a one-line reason and leaves the checker
 * unchanged (the same log without the refused lines gives the same report
 * and counts); the count returned is the failing loads plus the invariant
 * violations.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "halcone_check.h"

int fuzz_halcone_check_init(const char *arg)
{
    (void)arg;
    return 0;
}

typedef struct {
    char *report;
    size_t len;
    uint64_t bad;
    halcone_check_result r;
} outcome;

/* The log's lines fed in order; with skip, the lines refused in the first
 * pass (refused[i]) are left out. A NUL inside a line ends the text the
 * checker sees. */
static void judge(const char *buf, size_t n, unsigned char *refused, int skip, outcome *o)
{
    halcone_check *c = halcone_check_new();
    char *lb = malloc(n + 1);
    FILE *f;
    size_t i = 0;
    unsigned long line = 0;
    char err[300];
    if (c == NULL || lb == NULL)
        fuzz_fail("out of memory");
    while (i < n) {
        const char *s = buf + i, *e = memchr(s, '\n', n - i);
        size_t l = e ? (size_t)(e - s) : n - i;
        line++;
        memcpy(lb, s, l);
        lb[l] = '\0';
        if (!(skip && refused[line - 1])) {
            err[0] = '\0';
            if (halcone_check_feed(c, lb, line, err, sizeof err) != 0) {
                if (skip)
                    fuzz_fail("line %lu refused only once the refused lines were left out: %s", line, err);
                if (err[0] == '\0' || strchr(err, '\n'))
                    fuzz_fail("line %lu refused without a one-line reason: '%s'", line, err);
                refused[line - 1] = 1;
            }
        }
        i += l + 1;
    }
    f = open_memstream(&o->report, &o->len);
    if (f == NULL)
        fuzz_fail("out of memory");
    memset(&o->r, 0, sizeof o->r);
    o->bad = halcone_check_finish(c, f, &o->r);
    fclose(f);
    halcone_check_free(c);
    free(lb);
}

void fuzz_halcone_check_one(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    unsigned char *refused = calloc(fuzz_lines((const char *)data, size) + 1, 1);
    outcome a, b;
    uint64_t sum;
    size_t i;
    int k, any = 0;
    if (buf == NULL || refused == NULL)
        fuzz_fail("out of memory");
    memcpy(buf, data, size);
    buf[size] = '\0';
    judge(buf, size, refused, 0, &a);
    sum = a.r.stale + a.r.reorder + a.r.future;
    for (k = 0; k < HALCONE_CHECK_NINV; k++)
        sum += a.r.inv[k];
    if (sum != a.bad)
        fuzz_fail("finish returned %llu, the counts add up to %llu", (unsigned long long)a.bad,
                  (unsigned long long)sum);
    for (i = 0; i < fuzz_lines((const char *)data, size); i++)
        any |= refused[i];
    if (any) {
        judge(buf, size, refused, 1, &b);
        if (a.bad != b.bad || strcmp(a.report, b.report) != 0 || memcmp(&a.r, &b.r, sizeof a.r) != 0)
            fuzz_fail("a refused line changed the checker: report\n%s---\nwithout the refused lines\n%s",
                      a.report, b.report);
        free(b.report);
    }
    free(a.report);
    free(buf);
    free(refused);
}
