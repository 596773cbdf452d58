/* Text-trace reading helpers. See unit_trace.h. */
#include "unit_trace.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cohkit_trace_line(FILE *f, char *buf, size_t size, unsigned *lineno, char *err, size_t len)
{
    char *hash;
    if (fgets(buf, (int)size, f) == NULL)
        return 0;
    (*lineno)++;
    if (strchr(buf, '\n') == NULL && !feof(f)) {
        snprintf(err, len, "line %u: longer than %zu characters", *lineno, size - 2);
        return -1;
    }
    hash = strchr(buf, '#');
    if (hash != NULL)
        *hash = '\0';
    return 1;
}

char *cohkit_trace_tok(char **p)
{
    char *s = *p, *t;
    while (*s && isspace((unsigned char)*s))
        s++;
    if (*s == '\0')
        return NULL;
    t = s;
    while (*s && !isspace((unsigned char)*s))
        s++;
    if (*s)
        *s++ = '\0';
    *p = s;
    return t;
}

int cohkit_trace_dec(const char *t, uint64_t max, uint64_t *v)
{
    char *end;
    unsigned long long x;
    if (t == NULL || !isdigit((unsigned char)t[0]))
        return -1;
    errno = 0;
    x = strtoull(t, &end, 10);
    if (errno || *end || x > max)
        return -1;
    *v = x;
    return 0;
}

int cohkit_trace_uint(const char *t, unsigned max, unsigned *v)
{
    uint64_t x;
    if (cohkit_trace_dec(t, max, &x) != 0)
        return -1;
    *v = (unsigned)x;
    return 0;
}

int cohkit_trace_hex(const char *t, unsigned bits, uint64_t *v)
{
    char *end;
    unsigned long long x;
    if (t == NULL)
        return -1;
    if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
        t += 2;
    if (!isxdigit((unsigned char)t[0]))
        return -1;
    errno = 0;
    x = strtoull(t, &end, 16);
    if (errno || *end || (bits < 64 && (x >> bits) != 0))
        return -1;
    *v = x;
    return 0;
}

int cohkit_trace_hex_width(const char *t, unsigned bits, uint64_t *v)
{
    const char *p = t;
    uint64_t x = 0;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    if (*p == '\0')
        return -1;
    for (; *p; p++) {
        int h = (*p >= '0' && *p <= '9')   ? *p - '0'
                : (*p >= 'a' && *p <= 'f') ? *p - 'a' + 10
                : (*p >= 'A' && *p <= 'F') ? *p - 'A' + 10
                                           : -1;
        if (h < 0)
            return -1;
        if (x >> 60)
            return -2;
        x = (x << 4) | (uint64_t)h;
    }
    if (bits < 64 && (x >> bits) != 0)
        return -2;
    *v = x;
    return 0;
}

int cohkit_trace_grow(void *vp, size_t *cap, size_t n, size_t size, size_t first)
{
    void *v, *nv;
    size_t nc;
    if (n < *cap)
        return 0;
    memcpy(&v, vp, sizeof v);
    nc = *cap ? 2 * *cap : first;
    nv = realloc(v, nc * size);
    if (nv == NULL)
        return -1;
    memcpy(vp, &nv, sizeof nv);
    *cap = nc;
    return 0;
}

/* ------------------------------------------------------- record reader */

static const char *const SEP = " \t\r\n";

void cohkit_trace_open(cohkit_trace_reader *r, FILE *f, char *err, size_t len)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->err = err;
    r->len = len;
}

void cohkit_trace_close(cohkit_trace_reader *r)
{
    free(r->buf);
    r->buf = NULL;
}

int cohkit_trace_next_line(cohkit_trace_reader *r)
{
    ssize_t got;
    while ((got = getline(&r->buf, &r->cap, r->f)) > 0) {
        char *hash = strchr(r->buf, '#');
        r->lineno++;
        if (r->max_line && (size_t)got - (r->buf[got - 1] == '\n') > r->max_line)
            return cohkit_trace_fail(r, "longer than %zu characters", r->max_line);
        if (hash)
            *hash = '\0';
        r->save = NULL;
        r->first = strtok_r(r->buf, SEP, &r->save);
        if (r->first != NULL)
            return 1;
    }
    if (ferror(r->f)) {
        snprintf(r->err, r->len, "read error after line %u", r->lineno);
        return -1;
    }
    return 0;
}

char *cohkit_trace_arg(cohkit_trace_reader *r) { return strtok_r(NULL, SEP, &r->save); }

int cohkit_trace_tokens(cohkit_trace_reader *r, char **tk, int max)
{
    int n = 1;
    tk[0] = r->first;
    while (n < max && (tk[n] = cohkit_trace_arg(r)) != NULL)
        n++;
    return n;
}

int cohkit_trace_fail(cohkit_trace_reader *r, const char *fmt, ...)
{
    va_list ap;
    int k = snprintf(r->err, r->len, "line %u: ", r->lineno);
    if (k >= 0 && (size_t)k < r->len) {
        va_start(ap, fmt);
        vsnprintf(r->err + k, r->len - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int cohkit_trace_end(cohkit_trace_reader *r)
{
    const char *t = cohkit_trace_arg(r);
    return t != NULL ? cohkit_trace_fail(r, "unexpected '%s'", t) : 0;
}

int cohkit_trace_addr(cohkit_trace_reader *r, const char *what, unsigned bits, uint64_t *v)
{
    const char *t = cohkit_trace_arg(r);
    int k;
    if (t == NULL)
        return cohkit_trace_fail(r, "missing %s", what);
    k = cohkit_trace_hex_width(t, bits, v);
    if (k == -1)
        return cohkit_trace_fail(r, "%s '%s' is not hex", what, t);
    if (k == -2)
        return cohkit_trace_fail(r, "%s '%s' exceeds %u bits", what, t, bits);
    return 0;
}

int cohkit_trace_addr_max(cohkit_trace_reader *r, const char *what, uint64_t limit, uint64_t *v)
{
    const char *t = cohkit_trace_arg(r);
    int k;
    if (t == NULL)
        return cohkit_trace_fail(r, "missing %s", what);
    k = cohkit_trace_hex_width(t, 64, v);
    if (k == -1)
        return cohkit_trace_fail(r, "%s '%s' is not hex", what, t);
    if (k == -2 || *v > limit)
        return cohkit_trace_fail(r, "%s '%s' exceeds 0x%llx", what, t, (unsigned long long)limit);
    return 0;
}

int cohkit_trace_req_addr(cohkit_trace_reader *r, const char *op, unsigned bits, uint64_t *v)
{
    const char *a = cohkit_trace_arg(r);
    char *end;
    if (a == NULL)
        return cohkit_trace_fail(r, "%s needs an address", op);
    errno = 0;
    if (a[0] == '-' || a[0] == '+' ||
        !isxdigit((unsigned char)a[a[0] == '0' && (a[1] == 'x' || a[1] == 'X') ? 2 : 0]))
        return cohkit_trace_fail(r, "'%s' is not a hex address", a);
    *v = strtoull(a, &end, 16);
    if (errno != 0 || *end != '\0')
        return cohkit_trace_fail(r, "'%s' is not a hex address", a);
    if (bits < 64 && (*v >> bits) != 0)
        return cohkit_trace_fail(r, "address %s exceeds %u bits", a, bits);
    return 0;
}

int cohkit_trace_num(cohkit_trace_reader *r, const char *what, unsigned lo, unsigned hi,
                     unsigned *v)
{
    const char *t = cohkit_trace_arg(r);
    char *end;
    unsigned long x;
    if (t == NULL)
        return cohkit_trace_fail(r, "missing %s", what);
    if (*t < '0' || *t > '9' || (x = strtoul(t, &end, 10), *end) || x < lo || x > hi)
        return cohkit_trace_fail(r, "%s '%s' is not a number in %u..%u", what, t, lo, hi);
    *v = (unsigned)x;
    return 0;
}

int cohkit_trace_records(FILE *f, const cohkit_trace_format *fmt, const void *ctx, void **recs,
                         size_t *n, char *err, size_t len)
{
    cohkit_trace_reader r;
    size_t size = fmt->size, cap = 0, k = 0;
    unsigned char *a = NULL, *record = calloc(1, size);
    int rc = record == NULL ? -1 : 0, more = 0;
    if (record == NULL)
        snprintf(err, len, "out of memory");
    cohkit_trace_open(&r, f, err, len);
    r.max_line = fmt->max_line;
    while (rc == 0 && (more = cohkit_trace_next_line(&r)) > 0) {
        memset(record, 0, size);
        rc = fmt->parse(&r, ctx, record);
        if (rc == 0 && cohkit_trace_grow(&a, &cap, k, size, 64) != 0) {
            rc = cohkit_trace_fail(&r, "out of memory");
            if (fmt->drop)
                fmt->drop(record);
        }
        if (rc == 0)
            memcpy(a + k++ * size, record, size);
    }
    cohkit_trace_close(&r);
    free(record);
    if (rc != 0 || more < 0) {
        for (size_t i = 0; fmt->drop && i < k; i++)
            fmt->drop(a + i * size);
        free(a);
        a = NULL;
        k = 0;
        rc = -1;
    }
    *recs = a;
    *n = k;
    return rc;
}
