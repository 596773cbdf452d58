/* Configuration checks and presets shared by the units. See cfg_check.h. */
#include "cfg_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bits.h"
#include "unit_trace.h"

int cohkit_cfg_fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* 0 when v is in lo..hi (and a power of two if pow2), else -1 with the
 * message of `fmt`: "--<opt> ... <v> ... <lo>..<hi>". */
static int check(char *err, size_t len, const char *fmt, const char *opt, unsigned v, unsigned lo,
                 unsigned hi, int pow2)
{
    if ((!pow2 || cohkit_is_pow2(v)) && v >= lo && v <= hi)
        return 0;
    snprintf(err, len, fmt, opt, v, lo, hi);
    return -1;
}

int cohkit_cfg_range(char *err, size_t len, const char *opt, unsigned v, unsigned lo, unsigned hi)
{
    return check(err, len, "--%s %u: must be %u..%u", opt, v, lo, hi, 0);
}

int cohkit_cfg_range_pow2(char *err, size_t len, const char *opt, unsigned v, unsigned lo,
                          unsigned hi)
{
    return check(err, len, "--%s %u: must be a power of two, %u..%u", opt, v, lo, hi, 1);
}

int cohkit_cfg_in(char *err, size_t len, const char *opt, unsigned v, unsigned lo, unsigned hi)
{
    return check(err, len, "--%s: %u is not in %u..%u", opt, v, lo, hi, 0);
}

int cohkit_cfg_in_pow2(char *err, size_t len, const char *opt, unsigned v, unsigned lo,
                       unsigned hi)
{
    return check(err, len, "--%s: %u is not a power of two in %u..%u", opt, v, lo, hi, 1);
}

int cohkit_cfg_dec(const char *name, const char *value, uint64_t lo, uint64_t hi, uint64_t *v,
                   char *err, size_t len)
{
    uint64_t x;
    if (cohkit_trace_dec(value, hi, &x) == 0 && x >= lo) {
        *v = x;
        return 0;
    }
    return cohkit_cfg_fail(err, len, "--%s: bad value '%s' (%llu..%llu)", name, value ? value : "",
                           (unsigned long long)lo, (unsigned long long)hi);
}

int cohkit_cfg_num_apply(const cohkit_cfg_num *t, size_t n, void *cfg, const char *name,
                         const char *value, char *err, size_t len)
{
    uint64_t x = 0;
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(name, t[i].name) == 0) {
            if (cohkit_cfg_dec(name, value, t[i].lo, t[i].hi, &x, err, len) != 0)
                return -1;
            *(unsigned *)(void *)((char *)cfg + t[i].off) = (unsigned)x;
            return 0;
        }
    return 1;
}

int cohkit_cfg_preset_apply(const cohkit_unit_opt_table *t, const cohkit_cfg_preset *p,
                            void *cfg, const char *name)
{
    char buf[256], err[256], *save = NULL, *opt, *val;
    for (; p->name != NULL; p++)
        if (strcmp(p->name, name) == 0)
            break;
    if (p->name == NULL || strlen(p->opts) >= sizeof buf)
        return -1;
    memcpy(buf, p->opts, strlen(p->opts) + 1);
    for (opt = strtok_r(buf, " ", &save); opt != NULL; opt = strtok_r(NULL, " ", &save)) {
        val = strtok_r(NULL, " ", &save);
        if (strncmp(opt, "--", 2) != 0 || val == NULL ||
            cohkit_unit_opt_apply(t, cfg, opt + 2, val, err, sizeof err) != 0)
            return -1;
    }
    return 0;
}
