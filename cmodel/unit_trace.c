/* Text-trace reading helpers. See unit_trace.h. */
#include "unit_trace.h"

#include <ctype.h>
#include <errno.h>
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
