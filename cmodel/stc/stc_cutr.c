/*
 * Line reader of the STC BSQ and CU traces; see stc_cutr.h.
 */
#include "stc_cutr.h"

#include <stdlib.h>
#include <string.h>

static const char *const SEP = " \t\r\n";

void stc_cutr_open(stc_cutr_reader *r, FILE *f)
{
    memset(r, 0, sizeof *r);
    r->f = f;
}

void stc_cutr_close(stc_cutr_reader *r)
{
    free(r->buf);
    r->buf = NULL;
}

int stc_cutr_next(stc_cutr_reader *r)
{
    while (getline(&r->buf, &r->cap, r->f) > 0) {
        char *hash = strchr(r->buf, '#');
        r->lineno++;
        if (hash)
            *hash = '\0';
        r->save = NULL;
        r->first = strtok_r(r->buf, SEP, &r->save);
        if (r->first != NULL)
            return 1;
    }
    return 0;
}

const char *stc_cutr_tok(stc_cutr_reader *r) { return r->first; }

int stc_cutr_addr(stc_cutr_reader *r, const char *what, unsigned bits, uint64_t *v, char *err,
                  size_t len)
{
    const char *t = strtok_r(NULL, SEP, &r->save), *p;
    uint64_t x = 0;
    int over = 0;
    if (t == NULL) {
        snprintf(err, len, "line %u: missing %s", r->lineno, what);
        return -1;
    }
    p = t;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    if (*p == '\0') {
        snprintf(err, len, "line %u: %s '%s' is not hex", r->lineno, what, t);
        return -1;
    }
    for (; *p; p++) {
        int h = (*p >= '0' && *p <= '9')   ? *p - '0'
                : (*p >= 'a' && *p <= 'f') ? *p - 'a' + 10
                : (*p >= 'A' && *p <= 'F') ? *p - 'A' + 10
                                           : -1;
        if (h < 0) {
            snprintf(err, len, "line %u: %s '%s' is not hex", r->lineno, what, t);
            return -1;
        }
        if (x >> 60)
            over = 1;
        x = (x << 4) | (uint64_t)h;
    }
    if (over || (bits < 64 && (x >> bits) != 0)) {
        snprintf(err, len, "line %u: %s '%s' exceeds %u bits", r->lineno, what, t, bits);
        return -1;
    }
    *v = x;
    return 0;
}

int stc_cutr_num(stc_cutr_reader *r, const char *what, unsigned lo, unsigned hi, unsigned *v,
                 char *err, size_t len)
{
    const char *t = strtok_r(NULL, SEP, &r->save);
    char *end;
    unsigned long x;
    if (t == NULL) {
        snprintf(err, len, "line %u: missing %s", r->lineno, what);
        return -1;
    }
    if (*t < '0' || *t > '9' || (x = strtoul(t, &end, 10), *end) || x < lo || x > hi) {
        snprintf(err, len, "line %u: %s '%s' is not a number in %u..%u", r->lineno, what, t, lo,
                 hi);
        return -1;
    }
    *v = (unsigned)x;
    return 0;
}

int stc_cutr_eset(stc_cutr_reader *r, unsigned n, stc_eset *s, char *err, size_t len)
{
    const char *t = strtok_r(NULL, SEP, &r->save);
    char why[160];
    if (t == NULL) {
        snprintf(err, len, "line %u: missing epoch set", r->lineno);
        return -1;
    }
    if (stc_eset_parse(s, t, n, why, sizeof why) != 0) {
        snprintf(err, len, "line %u: %s", r->lineno, why);
        return -1;
    }
    return 0;
}

int stc_cutr_end(stc_cutr_reader *r, char *err, size_t len)
{
    const char *t = strtok_r(NULL, SEP, &r->save);
    if (t != NULL) {
        snprintf(err, len, "line %u: unexpected '%s'", r->lineno, t);
        return -1;
    }
    return 0;
}
