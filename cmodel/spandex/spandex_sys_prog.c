/*
 * `spandex-system` options and its program reader (spec 9.4, 9.5 items 1
 * and 2): see spandex_sys.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_check.h"
#include "spandex_sys.h"

void spandex_sys_cfg_default(spandex_sys_cfg *c)
{
    memset(c, 0, sizeof *c);
    spandex_llc_cfg_default(&c->llc);
    c->nack_limit = 1;
    c->wb = 8;
    c->seed = 1;
    c->fault_at = 1;
}

static const cohkit_cfg_preset sys_presets[] = {
    {"default", ""},
    {"smg", "--dev 0:mesi --dev 1:mesi --dev 2:gpu --dev 3:gpu"},
    {"smd", "--dev 0:mesi --dev 1:mesi --dev 2:denovo --dev 3:denovo"},
    {"sdg", "--dev 0:denovo --dev 1:denovo --dev 2:gpu --dev 3:gpu --denovo-rmw wtdata"},
    {"sdd", "--dev 0:denovo --dev 1:denovo --dev 2:denovo --dev 3:denovo"},
    {"hmg_line", "--gran line --dev 0:mesi --dev 1:mesi --dev 2:gpu --dev 3:gpu"},
    {"hmd_line", "--gran line --dev 0:mesi --dev 1:mesi --dev 2:denovo --dev 3:denovo"},
    {NULL, NULL},
};

const char *const spandex_sys_preset_names[] = {"default", "smg", "smd", "sdg", "sdd", "hmg_line", "hmd_line", NULL};

const char *spandex_sys_preset_opts(const char *name)
{
    const cohkit_cfg_preset *p;
    for (p = sys_presets; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p->opts;
    return NULL;
}

int spandex_sys_preset_apply(const char *name, void *cfg,
                             int (*opt)(void *cfg, const char *name, const char *value, char *err, size_t len))
{
    const char *s = spandex_sys_preset_opts(name);
    char buf[256], err[200], *save = NULL, *o, *v;
    if (!s || strlen(s) >= sizeof buf)
        return -1;
    memcpy(buf, s, strlen(s) + 1);
    for (o = strtok_r(buf, " ", &save); o; o = strtok_r(NULL, " ", &save)) {
        v = strtok_r(NULL, " ", &save);
        if (strncmp(o, "--", 2) != 0 || !v || opt(cfg, o + 2, v, err, sizeof err) != 0)
            return -1;
    }
    return 0;
}

/* --fault drop-ack|drop-rspo|stale-rspv[:N] */
static int opt_fault(spandex_sys_cfg *c, const char *value, char *err, size_t len)
{
    static const char *const names[] = {"drop-ack", "drop-rspo", "stale-rspv"};
    const char *colon = strchr(value, ':');
    size_t k = colon ? (size_t)(colon - value) : strlen(value), i;
    uint64_t n = 1;
    for (i = 0; i < 3; i++)
        if (strlen(names[i]) == k && strncmp(value, names[i], k) == 0)
            break;
    if (i == 3)
        return cohkit_cfg_fail(err, len, "--fault '%s': must be drop-ack, drop-rspo or stale-rspv, with :N", value);
    if (colon && cohkit_cfg_dec("fault", colon + 1, 1, UINT64_MAX, &n, err, len))
        return -1;
    c->fault = (unsigned)i + 1;
    c->fault_at = n;
    return 0;
}

/* --dev ID:gpu|denovo|mesi */
static int opt_dev(spandex_sys_cfg *c, const char *value, char *err, size_t len)
{
    char *end;
    unsigned long id;
    const char *k;
    errno = 0;
    id = strtoul(value, &end, 10);
    if (end == value || *end != ':' || errno || !isdigit((unsigned char)value[0]))
        return cohkit_cfg_fail(err, len, "--dev '%s': not ID:gpu|denovo|mesi", value);
    if (id >= SPANDEX_LLC_DEVS_MAX)
        return cohkit_cfg_fail(err, len, "--dev '%s': the ID must be below %d", value, SPANDEX_LLC_DEVS_MAX);
    k = end + 1;
    if (c->given >> id & 1)
        return cohkit_cfg_fail(err, len, "--dev '%s': device %lu given twice", value, id);
    if (strcmp(k, "gpu") == 0)
        c->kind[id] = SPANDEX_TU_GPU;
    else if (strcmp(k, "denovo") == 0)
        c->kind[id] = SPANDEX_TU_DENOVO;
    else if (strcmp(k, "mesi") == 0)
        c->kind[id] = SPANDEX_TU_MESI;
    else
        return cohkit_cfg_fail(err, len, "--dev '%s': not ID:gpu|denovo|mesi", value);
    c->given |= 1ull << id;
    c->ndev++;
    return 0;
}

int spandex_sys_cfg_option(spandex_sys_cfg *c, const char *name, const char *value, char *err, size_t len)
{
    uint64_t v;
    if (strcmp(name, "dev") == 0)
        return opt_dev(c, value, err, len);
    if (strcmp(name, "nack-limit") == 0 || strcmp(name, "wb") == 0) {
        if (cohkit_cfg_dec(name, value, 1, 1000, &v, err, len))
            return -1;
        *(name[0] == 'w' ? &c->wb : &c->nack_limit) = (unsigned)v;
        return 0;
    }
    if (strcmp(name, "seed") == 0)
        return cohkit_cfg_dec(name, value, 0, UINT64_MAX, &c->seed, err, len) ? -1 : 0;
    if (strcmp(name, "fault") == 0)
        return opt_fault(c, value, err, len);
    if (strcmp(name, "denovo-rmw") == 0 || strcmp(name, "sched") == 0) {
        int d = name[0] == 'd';
        const char *a = d ? "odata" : "fifo", *b = d ? "wtdata" : "random";
        if (strcmp(value, a) != 0 && strcmp(value, b) != 0)
            return cohkit_cfg_fail(err, len, "--%s '%s': must be %s or %s", name, value, a, b);
        *(d ? &c->rmw_wtdata : &c->sched_random) = strcmp(value, b) == 0;
        return 0;
    }
    if (strcmp(name, "extra-words") == 0 && strcmp(value, "denovo") == 0) {
        c->extra_denovo = 1;
        c->llc.extra = 0;
        return 0;
    }
    if (strcmp(name, "extra-words") == 0)
        c->extra_denovo = 0;
    if (strcmp(name, "devs") == 0 || strcmp(name, "mesi") == 0)
        return cohkit_cfg_fail(err, len, "--%s: give the devices with --dev ID:gpu|denovo|mesi", name);
    return spandex_llc_cfg_option(&c->llc, name, value, err, len);
}

int spandex_sys_cfg_check(spandex_sys_cfg *c, char *err, size_t len)
{
    unsigned d;
    if (!c->ndev)
        return cohkit_cfg_fail(err, len, "no devices: give --dev ID:gpu|denovo|mesi for IDs 0..N-1");
    if (c->given != (c->ndev == 64 ? ~0ull : (1ull << c->ndev) - 1))
        return cohkit_cfg_fail(err, len, "--dev: the IDs must be 0..%u, each once", c->ndev - 1);
    c->llc.devs = c->ndev < 2 ? 2 : c->ndev;
    c->llc.mesi = 0;
    for (d = 0; d < c->ndev; d++)
        if (c->kind[d] == SPANDEX_TU_MESI)
            c->llc.mesi |= 1ull << d; /* the paper's ReqS policy asks (X6) */
        else if (c->kind[d] == SPANDEX_TU_DENOVO && c->extra_denovo)
            c->llc.extra |= 1ull << d;
    for (d = 0; d < SPANDEX_LLC_DEVS_MAX; d++)
        if ((c->llc.extra >> d & 1) && (d >= c->ndev || c->kind[d] != SPANDEX_TU_DENOVO))
            return cohkit_cfg_fail(err, len, "--extra-words: device %u is not a DeNovo device (Table II: extra "
                                   "words are DeNovo's)", d);
    return spandex_llc_cfg_check_model(&c->llc, err, len);
}

uint64_t spandex_sys_bound(const spandex_sys_cfg *c)
{
    return 4ull * c->ndev * (c->ndev + c->llc.line / c->llc.word);
}

/* ------------------------------------------------------ the program -- */
typedef struct {
    const spandex_sys_cfg *c;
    char *tok[8];
    unsigned ntok;
    char *err;
    size_t len;
} pline;

static int bad(pline *p, const char *fmt, const char *a)
{
    snprintf(p->err, p->len, fmt, a);
    return -1;
}

/* A hex number with an optional 0x of at most `bits` bits. */
static int hex(pline *p, const char *s, unsigned bits, const char *what, uint64_t *v)
{
    const char *d = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? s + 2 : s;
    char *end;
    if (!*d || !isxdigit((unsigned char)*d))
        return bad(p, "'%s' is not a hex number", s);
    errno = 0;
    *v = strtoull(d, &end, 16);
    if (*end || errno || (bits < 64 && *v >> bits))
        return bad(p, what, s);
    return 0;
}

static int dec(pline *p, const char *s, uint64_t max, uint64_t *v)
{
    char *end;
    if (!isdigit((unsigned char)s[0]))
        return bad(p, "'%s' is not a decimal number", s);
    errno = 0;
    *v = strtoull(s, &end, 10);
    if (*end || errno || *v > max)
        return bad(p, "'%s' is out of range", s);
    return 0;
}

static int parse_dev_addr(pline *p, spandex_sop *o)
{
    uint64_t v;
    if (dec(p, p->tok[1], 1000000, &v))
        return -1;
    if (v >= p->c->ndev) {
        snprintf(p->err, p->len, "device %llu: not given by --dev (0..%u)", (unsigned long long)v, p->c->ndev - 1);
        return -1;
    }
    o->dev = (unsigned)v;
    if (p->ntok < 3)
        return 0;
    if (hex(p, p->tok[2], p->c->llc.addr_bits, "address '%s' is wider than --addr-bits", &o->addr))
        return -1;
    if (o->addr % p->c->llc.word)
        return bad(p, "address '%s' is not word-aligned", p->tok[2]);
    return 0;
}

static const struct {
    const char *name;
    spandex_sop_kind kind;
    unsigned args; /* tokens after the keyword (RMW: 3 or 4) */
} keys[] = {{"LD", SPANDEX_SOP_LD, 2},   {"ST", SPANDEX_SOP_ST, 3},       {"RMW", SPANDEX_SOP_RMW, 3},
            {"ACQ", SPANDEX_SOP_ACQ, 1}, {"REL", SPANDEX_SOP_REL, 1},     {"EVICT", SPANDEX_SOP_EVICT, 2},
            {"STEP", SPANDEX_SOP_STEP, 1}, {"DRAIN", SPANDEX_SOP_DRAIN, 0}};

/* One program line of ntok tokens into *o. */
static int parse_line(pline *p, spandex_sop *o)
{
    unsigned k, want, wb = p->c->llc.word * 8;
    for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (strcmp(p->tok[0], keys[k].name) == 0)
            break;
    if (k == sizeof keys / sizeof keys[0])
        return bad(p, "unknown operation '%s' (LD ST RMW ACQ REL EVICT STEP DRAIN)", p->tok[0]);
    o->kind = keys[k].kind;
    want = keys[k].args;
    if (o->kind == SPANDEX_SOP_RMW && p->ntok > 3) {
        int op = -1, i;
        for (i = 0; i <= SPANDEX_OP_OR; i++)
            if (strcmp(p->tok[3], spandex_op_name((unsigned)i)) == 0)
                op = i;
        if (op < 0)
            return bad(p, "RMW: '%s' is not rd|swp|add|and|or", p->tok[3]);
        o->op = (unsigned)op;
        want = op == SPANDEX_OP_RD ? 3 : 4;
    }
    if (p->ntok - 1 != want) {
        snprintf(p->err, p->len, "%s takes %u argument%s, not %u", p->tok[0], want, want == 1 ? "" : "s",
                 p->ntok - 1);
        return -1;
    }
    if (o->kind == SPANDEX_SOP_STEP)
        return dec(p, p->tok[1], 1000000000, &o->v);
    if (o->kind == SPANDEX_SOP_DRAIN)
        return 0;
    if (parse_dev_addr(p, o))
        return -1;
    if (o->kind == SPANDEX_SOP_ST)
        return hex(p, p->tok[3], wb, "value '%s' is wider than a word", &o->v);
    if (o->kind == SPANDEX_SOP_RMW && want == 4)
        return hex(p, p->tok[4], wb, "value '%s' is wider than a word", &o->v);
    return 0;
}

int spandex_sys_prog_read(const spandex_sys_cfg *c, FILE *in, spandex_sop **ops, size_t *n, char *err,
                          size_t len)
{
    char buf[1024], e[200];
    size_t cap = 0;
    unsigned lineno = 0;
    pline p = {c, {0}, 0, e, sizeof e};
    *ops = NULL;
    *n = 0;
    while (fgets(buf, sizeof buf, in)) {
        char *h = strchr(buf, '#'), *t, *save = NULL;
        spandex_sop o;
        lineno++;
        if (!strchr(buf, '\n') && !feof(in)) {
            snprintf(err, len, "line %u: longer than %zu characters", lineno, sizeof buf - 2);
            goto fail;
        }
        if (h)
            *h = 0;
        p.ntok = 0;
        for (t = strtok_r(buf, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
            if (p.ntok == 8) {
                snprintf(err, len, "line %u: too many fields", lineno);
                goto fail;
            }
            p.tok[p.ntok++] = t;
        }
        if (!p.ntok)
            continue;
        memset(&o, 0, sizeof o);
        o.lineno = lineno;
        if (parse_line(&p, &o)) {
            snprintf(err, len, "line %u: %s", lineno, e);
            goto fail;
        }
        if (*n == cap) {
            spandex_sop *q = realloc(*ops, (cap = cap ? 2 * cap : 64) * sizeof *q);
            if (!q) {
                snprintf(err, len, "out of memory");
                goto fail;
            }
            *ops = q;
        }
        (*ops)[(*n)++] = o;
    }
    return 0;
fail:
    free(*ops);
    *ops = NULL;
    *n = 0;
    return -1;
}
