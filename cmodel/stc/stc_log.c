/* STC system event log parser (specification 7.4). See stc_log.h. */
#include "stc_log.h"
#include "unit_trace.h"

#include <stdlib.h>
#include <string.h>

static const char *const ev_names[STC_EV_COUNT] = {
    "INIT", "PREP", "READY", "CHG", "CER", "DONE", "END", "SLEEP", "BLK",
    "ISS", "PERF", "WA", "RD", "FILL", "INV", "HIT", "LDV",
};

/* Fields after the event name: c = CU, a = address, v = 32-bit value,
 * l = line address, e = epoch set, s = SEB. */
static const char *const ev_fields[STC_EV_COUNT] = {
    "av", "", "c", "es", "ces", "c", "es", "", "ca",
    "ca", "cav", "ca", "cav", "cl", "cl", "cav", "cav",
};

const char *stc_ev_name(stc_ev_kind k)
{
    return (unsigned)k < STC_EV_COUNT ? ev_names[k] : "?";
}

int stc_log_parse_line(const char *line, const stc_log_lim *lim, stc_ev *ev, char *err,
                       size_t len)
{
    char buf[512], *p = buf, *tok, *name;
    const char *f;
    uint64_t v;
    unsigned k;
    size_t l = strlen(line);
    if (l >= sizeof buf) {
        snprintf(err, len, "longer than %zu characters", sizeof buf - 1);
        return -1;
    }
    memcpy(buf, line, l + 1);
    if (strchr(buf, '#'))
        *strchr(buf, '#') = '\0';
    tok = cohkit_trace_tok(&p);
    if (tok == NULL)
        return 1;
    memset(ev, 0, sizeof *ev);
    if (cohkit_trace_dec(tok, UINT64_MAX, &ev->cycle) != 0) {
        snprintf(err, len, "bad cycle '%s'", tok);
        return -1;
    }
    name = cohkit_trace_tok(&p);
    if (name == NULL) {
        snprintf(err, len, "missing event after cycle %s", tok);
        return -1;
    }
    for (k = 0; k < STC_EV_COUNT; k++)
        if (strcmp(name, ev_names[k]) == 0)
            break;
    if (k == STC_EV_COUNT) {
        snprintf(err, len, "unknown event '%s'", name);
        return -1;
    }
    ev->kind = (stc_ev_kind)k;
    for (f = ev_fields[k]; *f; f++) {
        tok = cohkit_trace_tok(&p);
        if (tok == NULL) {
            snprintf(err, len, "%s: missing field", name);
            return -1;
        }
        switch (*f) {
        case 'c':
            if (cohkit_trace_dec(tok, lim->cus ? lim->cus - 1 : 0, &v) != 0) {
                snprintf(err, len, "%s: bad CU '%s' (%u CUs)", name, tok, lim->cus);
                return -1;
            }
            ev->cu = (unsigned)v;
            break;
        case 'a':
        case 'l':
            if (cohkit_trace_hex(tok, lim->addr_bits, &ev->addr) != 0) {
                snprintf(err, len, "%s: bad address '%s' (%u bits)", name, tok, lim->addr_bits);
                return -1;
            }
            break;
        case 'v':
            if ((tok[0] == '0' && tok[1] == 'x') ? cohkit_trace_hex(tok, 32, &v) != 0
                                                 : cohkit_trace_dec(tok, UINT32_MAX, &v) != 0) {
                snprintf(err, len, "%s: bad value '%s'", name, tok);
                return -1;
            }
            ev->value = (uint32_t)v;
            break;
        case 'e':
            {
                stc_elist el;
                char why[120];
                if (stc_elist_parse(tok, lim->n, &el, why, sizeof why) != 0) {
                    snprintf(err, len, "%s: bad epoch set '%s': %s", name, tok, why);
                    return -1;
                }
                stc_eset_of(&el, &ev->epochs);
            }
            break;
        case 's':
            if (cohkit_trace_dec(tok, 63, &v) != 0) {
                snprintf(err, len, "%s: bad SEB '%s'", name, tok);
                return -1;
            }
            ev->seb = (unsigned)v;
            break;
        }
    }
    tok = cohkit_trace_tok(&p);
    if (tok != NULL) {
        snprintf(err, len, "%s: unexpected '%s'", name, tok);
        return -1;
    }
    return 0;
}

int stc_log_read(FILE *f, const stc_log_lim *lim, stc_ev **evs, size_t *n, char *err, size_t len)
{
    char buf[600], why[300];
    unsigned lineno = 0;
    size_t cap = 0, cnt = 0;
    stc_ev *v = NULL, e;
    uint64_t last = 0;
    while (fgets(buf, sizeof buf, f) != NULL) {
        int rc;
        lineno++;
        if (strchr(buf, '\n') == NULL && !feof(f)) {
            snprintf(err, len, "line %u: longer than %zu characters", lineno, sizeof buf - 2);
            goto bad;
        }
        rc = stc_log_parse_line(buf, lim, &e, why, sizeof why);
        if (rc < 0) {
            snprintf(err, len, "line %u: %s", lineno, why);
            goto bad;
        }
        if (rc > 0)
            continue;
        if (e.cycle < last) {
            snprintf(err, len, "line %u: cycle %llu before cycle %llu", lineno,
                     (unsigned long long)e.cycle, (unsigned long long)last);
            goto bad;
        }
        last = e.cycle;
        e.lineno = lineno;
        if (cohkit_trace_grow(&v, &cap, cnt, sizeof *v, 256) != 0) {
            snprintf(err, len, "out of memory");
            goto bad;
        }
        v[cnt++] = e;
    }
    *evs = v;
    *n = cnt;
    return 0;
bad:
    free(v);
    return -1;
}
