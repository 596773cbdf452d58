/*
 * spandex-check: SYS1-SYS8 of spec 6 on a spandex-system log (9.4, 9.5),
 * replayed through a shadow state of its own (docs/spandex.md "The system
 * checker"). Independent of the LLC and system models: from spandex_llc.h
 * it uses the message-name table and the op helpers only.
 *
 * This file: configuration, the two readers (program and log) and the
 * run; the shadow state, the replay and the rules are in
 * spandex_check_rules.c and spandex_check_hb.c (spandex_check_int.h
 * between them).
 */
#include "spandex_check_int.h"
#include "cfg_check.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- configuration ------------------------------------------------------ */

void spandex_sysck_cfg_default(spandex_sysck_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->line = 64;
    c->word = 4;
    c->nack_limit = 1;
    c->addr_bits = 48;
}

static const cohkit_cfg_num nums[] = {
    {"line", offsetof(spandex_sysck_cfg, line), 4, 4096},
    {"word", offsetof(spandex_sysck_cfg, word), 4, 8},
    {"nack-limit", offsetof(spandex_sysck_cfg, nack_limit), 0, 255},
    {"addr-bits", offsetof(spandex_sysck_cfg, addr_bits), 16, 64},
};

/* Options of spandex-system the checker accepts and does not need, so one
 * option string serves both tools. */
static const char *const ignored[] = {"reqs", "seed", "sets", "ways", "denovo-rmw", "wb", "fault", "gran", "extra-words",
                                      NULL};

static int dev_option(spandex_sysck_cfg *c, const char *value, char *err, size_t len)
{
    static const char *const names[] = {"gpu", "denovo", "mesi"};
    char *end;
    unsigned long id;
    unsigned k;
    if (value == NULL || !isdigit((unsigned char)value[0]))
        return cohkit_cfg_fail(err, len, "--dev: '%s' is not ID:gpu|denovo|mesi", value ? value : "");
    id = strtoul(value, &end, 10);
    if (*end != ':' || id >= SPANDEX_SYSCK_DEVS_MAX)
        return cohkit_cfg_fail(err, len, "--dev: '%s' is not ID:gpu|denovo|mesi with ID 0..%d", value,
                               SPANDEX_SYSCK_DEVS_MAX - 1);
    for (k = 0; k < 3; k++)
        if (strcmp(end + 1, names[k]) == 0) {
            if (c->kind[id])
                return cohkit_cfg_fail(err, len, "--dev: device %lu given twice", id);
            c->kind[id] = (uint8_t)(k + 1);
            return 0;
        }
    return cohkit_cfg_fail(err, len, "--dev: '%s' is not ID:gpu|denovo|mesi", value);
}

int spandex_sysck_cfg_option(spandex_sysck_cfg *c, const char *name, const char *value, char *err,
                             size_t len)
{
    size_t i;
    if (strcmp(name, "dev") == 0)
        return dev_option(c, value, err, len);
    if (strcmp(name, "sched") == 0) {
        if (value && (strcmp(value, "fifo") == 0 || strcmp(value, "random") == 0)) {
            c->fifo = strcmp(value, "fifo") == 0;
            return 0;
        }
        return cohkit_cfg_fail(err, len, "--sched: '%s' is not fifo or random", value ? value : "");
    }
    for (i = 0; ignored[i]; i++)
        if (strcmp(name, ignored[i]) == 0)
            return 0;
    return cohkit_cfg_num_apply(nums, sizeof nums / sizeof nums[0], c, name, value, err, len);
}

int spandex_sysck_cfg_check(spandex_sysck_cfg *c, char *err, size_t len)
{
    unsigned d, n = 0;
    for (d = 0; d < SPANDEX_SYSCK_DEVS_MAX; d++)
        if (c->kind[d])
            n = d + 1;
    if (n == 0)
        return cohkit_cfg_fail(err, len, "--dev: no device given (--dev ID:gpu|denovo|mesi, repeated)");
    for (d = 0; d < n; d++)
        if (!c->kind[d])
            return cohkit_cfg_fail(err, len, "--dev: device %u missing (IDs are 0..%u)", d, n - 1);
    c->devs = n;
    if (c->word != 4 && c->word != 8)
        return cohkit_cfg_fail(err, len, "--word: %u is not 4 or 8", c->word);
    if (c->line & (c->line - 1))
        return cohkit_cfg_fail(err, len, "--line: %u is not a power of two", c->line);
    if (c->line < c->word || c->line / c->word > 64)
        return cohkit_cfg_fail(err, len, "--line: %u holds 1..64 words of %u bytes", c->line, c->word);
    return 0;
}

unsigned spandex_sysck_bound(const spandex_sysck_cfg *c)
{
    return 4 * c->devs * (c->devs + c->line / c->word);
}

static unsigned clog2(unsigned v)
{
    unsigned b = 0;
    while ((1u << b) < v)
        b++;
    return b;
}

unsigned spandex_sysck_header_bytes(const spandex_sysck_cfg *c)
{
    unsigned bits = 5 + (c->addr_bits - clog2(c->line)) + c->line / c->word + 2 * clog2(c->devs + 1) +
                    clog2(c->devs) + 3;
    return (bits + 7) / 8;
}

/* ---- reading ------------------------------------------------------------ */

int spandex_ck_bad(spandex_ck *k, const char *file, unsigned line, const char *fmt, ...)
{
    va_list ap;
    if (k->bad)
        return -1;
    k->bad = 1;
    k->bad_file = file;
    k->bad_line = line;
    va_start(ap, fmt);
    vsnprintf(k->bad_msg, sizeof k->bad_msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* Splits a line at blanks after cutting its comment: the count (at most
 * max), tokens in t. */
static int split(char *s, char **t, int max)
{
    int n = 0;
    char *p = strchr(s, '#');
    if (p)
        *p = 0;
    for (p = strtok(s, " \t\r\n"); p && n < max; p = strtok(NULL, " \t\r\n"))
        t[n++] = p;
    return p ? max + 1 : n;
}

static int hex(const char *s, uint64_t *v)
{
    int n = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    *v = 0;
    for (; *s; s++, n++) {
        int d = isdigit((unsigned char)*s) ? *s - '0' : isxdigit((unsigned char)*s) ? tolower(*s) - 'a' + 10 : -1;
        if (d < 0 || n >= 16)
            return -1;
        *v = *v << 4 | (uint64_t)d;
    }
    return n ? 0 : -1;
}

static int dec(const char *s, unsigned long max, unsigned *v)
{
    char *end;
    unsigned long x;
    if (!isdigit((unsigned char)s[0]))
        return -1;
    x = strtoul(s, &end, 10);
    if (*end || x > max)
        return -1;
    *v = (unsigned)x;
    return 0;
}

/* A message ID: a decimal number. */
static int dec64(const char *s, uint64_t *v)
{
    char *end;
    if (!isdigit((unsigned char)s[0]))
        return -1;
    *v = strtoull(s, &end, 10);
    return *end ? -1 : 0;
}

static int op_code(const char *s)
{
    unsigned o;
    for (o = 0; o < 8; o++)
        if (strcmp(s, spandex_op_name(o)) == 0)
            return (int)o;
    return -1;
}

static const char *const op_kinds[] = {"LD", "ST", "RMW", "ACQ", "REL", "EVICT", "STEP", "DRAIN"};

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? 2 * *cap : 64;
    return realloc(p, *cap * size);
}

/* One program line (spec 9.4, 9.5): an operation joins ops[]. */
static int prog_line(spandex_ck *k, char *s, unsigned ln)
{
    char *t[8];
    int n = split(s, t, 7), kind = -1, i;
    spandex_ck_op o;
    unsigned ops_max = 0;
    if (n <= 0)
        return 0;
    for (i = 0; i < 8; i++)
        if (strcmp(t[0], op_kinds[i]) == 0)
            kind = i;
    if (kind < 0)
        return spandex_ck_bad(k, k->prog_name, ln, "unknown operation '%s'", t[0]);
    if (kind == SPANDEX_CK_STEP || kind == SPANDEX_CK_DRAIN) {
        if (n != (kind == SPANDEX_CK_STEP ? 2 : 1) ||
            (kind == SPANDEX_CK_STEP && dec(t[1], 1000000000ul, &ops_max)))
            return spandex_ck_bad(k, k->prog_name, ln, "expected %s", kind == SPANDEX_CK_STEP ? "STEP <n>" : "DRAIN");
        return 0;
    }
    memset(&o, 0, sizeof o);
    o.kind = kind;
    o.lineno = ln;
    if (n < 2 || dec(t[1], k->n - 1, &o.dev))
        return spandex_ck_bad(k, k->prog_name, ln, "%s: bad or missing device (0..%u)", t[0], k->n - 1);
    if (kind == SPANDEX_CK_ACQ || kind == SPANDEX_CK_REL) {
        if (n != 2)
            return spandex_ck_bad(k, k->prog_name, ln, "expected %s <dev>", t[0]);
    } else if (n < 3 || hex(t[2], &o.addr) || (k->c->addr_bits < 64 && o.addr >> k->c->addr_bits)) {
        return spandex_ck_bad(k, k->prog_name, ln, "%s: bad or missing address", t[0]);
    } else if (kind == SPANDEX_CK_LD || kind == SPANDEX_CK_EVICT) {
        if (n != 3)
            return spandex_ck_bad(k, k->prog_name, ln, "expected %s <dev> <addr>", t[0]);
    } else if (kind == SPANDEX_CK_ST) {
        if (n != 4 || hex(t[3], &o.v) || (o.v & ~k->wmask))
            return spandex_ck_bad(k, k->prog_name, ln, "expected ST <dev> <addr> <v> (v at most %u bits)",
                                  k->wbits);
    } else {
        int op = n >= 4 ? op_code(t[3]) : -1;
        if (op < 0 || op > SPANDEX_OP_OR || n != (op == SPANDEX_OP_RD ? 4 : 5) ||
            (n == 5 && (hex(t[4], &o.v) || (o.v & ~k->wmask))))
            return spandex_ck_bad(k, k->prog_name, ln, "expected RMW <dev> <addr> rd|swp|add|and|or [<v>]");
        o.op = (unsigned)op;
    }
    o.word = o.addr & ~(uint64_t)(k->c->word - 1);
    return spandex_ck_add_op(k, &o);
}

static int prog_read(spandex_ck *k, FILE *f)
{
    char buf[1024];
    unsigned ln = 0;
    while (fgets(buf, sizeof buf, f)) {
        ln++;
        if (!strchr(buf, '\n') && !feof(f))
            return spandex_ck_bad(k, k->prog_name, ln, "line too long");
        if (prog_line(k, buf, ln))
            return -1;
    }
    return 0;
}

/* A node of a message: L, M or a device. */
static int node(const spandex_ck *k, const char *s, int *v)
{
    unsigned d;
    if (strcmp(s, "L") == 0 || strcmp(s, "M") == 0) {
        *v = s[0] == 'L' ? SPANDEX_CK_LLC : SPANDEX_CK_MEM;
        return 0;
    }
    if (dec(s, k->n - 1, &d))
        return -1;
    *v = (int)d;
    return 0;
}

/* The endpoints each network allows (spec 3.2). */
static int endpoints_ok(const spandex_ck_msg *m)
{
    int sd = m->src >= 0, dd = m->dst >= 0;
    switch (spandex_msg_net(m->kind)) {
    case SPANDEX_NET_REQ: return sd && m->dst == SPANDEX_CK_LLC;
    case SPANDEX_NET_FWD: return m->src == SPANDEX_CK_LLC && dd;
    case SPANDEX_NET_MEM:
        return (m->src == SPANDEX_CK_LLC && m->dst == SPANDEX_CK_MEM) ||
               (m->src == SPANDEX_CK_MEM && m->dst == SPANDEX_CK_LLC);
    default: break;
    }
    if (m->kind == SPANDEX_ACK || m->kind == SPANDEX_RSPRVKO)
        return sd && m->dst == SPANDEX_CK_LLC;
    if (m->kind == SPANDEX_NACK)
        return sd && dd && m->src != m->dst;
    return dd && m->src != SPANDEX_CK_MEM && m->src != m->dst;
}

/* The fields after <Msg> <line>: [mask] [r=R] [op] [v...]. */
static int msg_fields(spandex_ck *k, spandex_ck_msg *m, char **t, int n, unsigned ln)
{
    uint64_t v[SPANDEX_LLC_WORDS_MAX + 1];
    int i, nv = 0, noms = m->kind == SPANDEX_INV || m->kind == SPANDEX_ACK ||
                         spandex_msg_net(m->kind) == SPANDEX_NET_MEM;
    unsigned r;
    for (i = 0; i < n; i++) {
        if (strncmp(t[i], "r=", 2) == 0) {
            if (m->has_req || dec(t[i] + 2, k->n - 1, &r))
                return spandex_ck_bad(k, k->log_name, ln, "bad requestor '%s'", t[i]);
            m->has_req = 1;
            m->req = r;
        } else if (m->kind == SPANDEX_REQWTDATA && op_code(t[i]) >= 0 && nv == 1) {
            m->op = (unsigned)op_code(t[i]);
            m->has_op = 1;
        } else if (nv > (int)k->w || hex(t[i], &v[nv]) || (nv > 0 && (v[nv] & ~k->wmask))) {
            return spandex_ck_bad(k, k->log_name, ln, "bad field '%s'", t[i]);
        } else {
            nv++;
        }
    }
    if (noms && (nv == 0 || (m->kind == SPANDEX_MEMWR && nv == (int)k->w))) {
        m->mask = k->full; /* Inv, Ack and memory messages: the mask is optional */
        m->nv = (unsigned)nv;
        return 0;
    }
    if (nv == 0 || v[0] == 0 || (v[0] & ~k->full))
        return spandex_ck_bad(k, k->log_name, ln, "missing or bad word mask");
    m->mask = v[0];
    m->nv = (unsigned)nv - 1;
    return 0;
}

/* The values a message must carry, given its mask. */
static unsigned values_due(const spandex_ck *k, const spandex_ck_msg *m)
{
    if (m->kind == SPANDEX_MEMWR)
        return k->w;
    if (!spandex_msg_has_data(m->kind) || (m->kind == SPANDEX_REQWTDATA && m->op == SPANDEX_OP_RD))
        return 0;
    return (unsigned)__builtin_popcountll(m->mask);
}

static int log_msg(spandex_ck *k, spandex_ck_ev *e, char **t, int n, unsigned ln)
{
    spandex_ck_msg *m = &e->m;
    int kind;
    if (n < 6 || dec64(t[1], &e->id) || node(k, t[2], &m->src) || node(k, t[3], &m->dst))
        return spandex_ck_bad(k, k->log_name, ln, "expected S <id> <src> <dst> <Msg> <line> <mask> ...");
    kind = spandex_msg_find(t[4]);
    if (kind < 0)
        return spandex_ck_bad(k, k->log_name, ln, "unknown message '%s'", t[4]);
    m->kind = (spandex_msg_kind)kind;
    if (hex(t[5], &m->line) || (m->line & (k->c->line - 1)))
        return spandex_ck_bad(k, k->log_name, ln, "bad line address '%s' (line-aligned hex)", t[5]);
    if (!endpoints_ok(m))
        return spandex_ck_bad(k, k->log_name, ln, "%s cannot go from %s to %s", t[4], t[2], t[3]);
    if (msg_fields(k, m, t + 6, n - 6, ln))
        return -1;
    if (m->kind == SPANDEX_REQWTDATA && !m->has_op)
        return spandex_ck_bad(k, k->log_name, ln, "ReqWT+data without an op");
    if (m->nv != values_due(k, m))
        return spandex_ck_bad(k, k->log_name, ln, "%s carries %u values, not %u", t[4], m->nv, values_due(k, m));
    if (spandex_msg_net(m->kind) == SPANDEX_NET_FWD && m->kind != SPANDEX_RVKO && m->kind != SPANDEX_INV &&
        !m->has_req)
        return spandex_ck_bad(k, k->log_name, ln, "%s without r=<requestor>", t[4]);
    return 0;
}

/* One log line (spec 9.4) into an event; blank and comment lines give none. */
static int log_line(spandex_ck *k, char *s, unsigned ln, spandex_ck_ev *e)
{
    char copy[2048], *t[SPANDEX_LLC_WORDS_MAX + 12];
    int n, maxt = SPANDEX_LLC_WORDS_MAX + 10;
    size_t l;
    snprintf(copy, sizeof copy, "%s", s);
    l = strcspn(copy, "#\r\n");
    while (l && isspace((unsigned char)copy[l - 1]))
        l--;
    copy[l] = 0;
    n = split(s, t, maxt);
    memset(e, 0, sizeof *e);
    if (n <= 0)
        return 0;
    e->lineno = ln;
    if (n > maxt || strlen(t[0]) != 1)
        return spandex_ck_bad(k, k->log_name, ln, "malformed line");
    e->type = t[0][0];
    if (!(e->text = strdup(copy + strspn(copy, " \t"))))
        return spandex_ck_bad(k, k->log_name, ln, "out of memory");
    switch (e->type) {
    case 'S': return log_msg(k, e, t, n, ln);
    case 'D':
        if (n != 2 || dec64(t[1], &e->id))
            return spandex_ck_bad(k, k->log_name, ln, "expected D <id>");
        return 0;
    case 'V':
        if (n != 5 || dec(t[1], k->n - 1, &e->dev) || dec(t[2], 1u << 30, &e->opl) || hex(t[3], &e->addr) ||
            hex(t[4], &e->v) || (e->v & ~k->wmask))
            return spandex_ck_bad(k, k->log_name, ln, "expected V <dev> <op#> <addr> <v>");
        return 0;
    case 'C':
        if (n != 3 || dec(t[1], k->n - 1, &e->dev) || dec(t[2], 1u << 30, &e->opl))
            return spandex_ck_bad(k, k->log_name, ln, "expected C <dev> <op#>");
        return 0;
    case 'E': return 0;
    default: return spandex_ck_bad(k, k->log_name, ln, "unknown log line '%s'", t[0]);
    }
}

static int log_read(spandex_ck *k, FILE *f)
{
    char buf[2048];
    unsigned ln = 0;
    spandex_ck_ev e;
    while (fgets(buf, sizeof buf, f)) {
        ln++;
        if (!strchr(buf, '\n') && !feof(f))
            return spandex_ck_bad(k, k->log_name, ln, "line too long");
        if (log_line(k, buf, ln, &e)) {
            free(e.text); /* a refused line's copy, never an event */
            return -1;
        }
        if (!e.type)
            continue;
        k->ev = grow(k->ev, &k->cev, k->nev, sizeof *k->ev);
        if (!k->ev)
            return spandex_ck_bad(k, k->log_name, ln, "out of memory");
        k->ev[k->nev++] = e;
    }
    return 0;
}

/* ---- the run ------------------------------------------------------------ */

static void print_stats(const spandex_ck *k, FILE *out)
{
    unsigned i;
    uint64_t m = 0, b = 0;
    fprintf(out, "# traffic header %u bytes, word %u bytes (SYS8; messages, bytes)\n", k->hdr, k->c->word);
    for (i = 0; i < SPANDEX_SYSCK_CATS; i++) {
        fprintf(out, "# traffic %-10s %llu %llu\n", spandex_ck_cat_name(i), (unsigned long long)k->tr_msgs[i],
                (unsigned long long)k->tr_bytes[i]);
        m += k->tr_msgs[i];
        b += k->tr_bytes[i];
    }
    fprintf(out, "# traffic %-10s %llu %llu\n", "total", (unsigned long long)m, (unsigned long long)b);
}

int spandex_sysck_run(const spandex_sysck_cfg *c, FILE *prog, const char *prog_name, FILE *log,
                      const char *log_name, int stats, FILE *out, FILE *err)
{
    return spandex_ck_run(c, prog, prog_name, log, log_name, stats, 0, out, err);
}

int spandex_ck_run(const spandex_sysck_cfg *c, FILE *prog, const char *prog_name, FILE *log, const char *log_name,
                   int stats, int drf, FILE *out, FILE *err)
{
    spandex_ck *k = spandex_ck_new(c);
    int rc;
    if (!k) {
        fprintf(err, "cohmodel: spandex-check: out of memory\n");
        return 2;
    }
    k->prog_name = prog_name;
    k->log_name = log_name;
    k->drf = drf;
    if (prog_read(k, prog) == 0 && log_read(k, log) == 0)
        spandex_ck_replay(k);
    if (k->bad) {
        fprintf(err, "cohmodel: spandex-check: %s: line %u: %s\n", k->bad_file, k->bad_line, k->bad_msg);
        rc = 2;
    } else {
        if (stats)
            print_stats(k, out);
        if (k->viol)
            fprintf(out, "E %s\n", k->viol_msg);
        else
            fprintf(out, "PASS SYS1-SYS8%s: %llu deliveries, %zu operations\n", drf ? " (data-race-free)" : "",
                    (unsigned long long)k->deliveries, k->nops);
        rc = k->viol ? 1 : 0;
    }
    spandex_ck_free(k);
    return rc;
}
