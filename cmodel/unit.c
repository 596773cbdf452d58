/*
 * Registry helpers shared by every tool: unit lookup, option parsing into a
 * unit's configuration, port layout and multi-word hex values.
 */
#include "unit_adapt.h"

#include <stdlib.h>
#include <string.h>

/* "a, b or c" */
static void or_list(const char *const *names, char *buf, size_t len)
{
    size_t i, n = 0, k = 0;
    while (names[n] != NULL)
        n++;
    buf[0] = '\0';
    for (i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
                              names[i]);
}

/* The entry of a NULL-terminated list named `name`, or NULL. */
static const cohkit_unit_desc *find_in(const cohkit_unit_desc *const *list, const char *name)
{
    size_t i;
    for (i = 0; name != NULL && list[i] != NULL; i++)
        if (strcmp(list[i]->name, name) == 0)
            return list[i];
    return NULL;
}

const cohkit_unit_desc *cohkit_unit_find(const char *name) { return find_in(cohkit_unit_registry, name); }

const cohkit_unit_desc *cohkit_unit_tool_find(const char *name) { return find_in(cohkit_unit_tools, name); }

int cohkit_unit_flag_index(const cohkit_unit_desc *u, const char *name)
{
    int i;
    for (i = 0; u->flags != NULL && u->flags[i].name != NULL && i < COHKIT_UNIT_FLAGS_MAX; i++)
        if (strcmp(u->flags[i].name, name) == 0)
            return i;
    return -1;
}

static void preset_list(const cohkit_unit_desc *u, char *buf, size_t len)
{
    size_t i, k = 0;
    buf[0] = '\0';
    for (i = 0; u->presets[i] != NULL && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "", u->presets[i]);
}

static int is_bare(const cohkit_unit_desc *u, const char *name)
{
    size_t i;
    if (u->opts != NULL && cohkit_unit_opt_bare(u->opts, name))
        return 1;
    for (i = 0; u->cfg_bare != NULL && u->cfg_bare[i] != NULL; i++)
        if (strcmp(u->cfg_bare[i], name) == 0)
            return 1;
    return 0;
}

int cohkit_unit_cfg_parse(const cohkit_unit_desc *u, void *cfg, int argc, char *const *argv, int *rest,
                   int *nrest, char *err, size_t len)
{
    int i;
    if (nrest)
        *nrest = 0;
    u->cfg_preset(cfg, u->presets[0]);
    /* A named configuration comes first so that options refine it. */
    for (i = 0; i < argc; i++)
        if (strcmp(argv[i], "--config") == 0) {
            if (i + 1 >= argc || u->cfg_preset(cfg, argv[i + 1]) != 0) {
                char names[256];
                preset_list(u, names, sizeof names);
                snprintf(err, len, "--config: '%s' is not a configuration of %s (%s)",
                         i + 1 < argc ? argv[i + 1] : "", u->name, names);
                return -1;
            }
        }
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        int r;
        if (strcmp(a, "--config") == 0) {
            i++;
            continue;
        }
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            if (rest) {
                rest[(*nrest)++] = i;
                continue;
            }
            snprintf(err, len, "unexpected argument '%s' (see --help)", a);
            return -1;
        }
        if (is_bare(u, a + 2)) {
            int has = i + 1 < argc && (strcmp(argv[i + 1], "0") == 0 || strcmp(argv[i + 1], "1") == 0);
            if (u->cfg_option(cfg, a + 2, has ? argv[i + 1] : "1", err, len) < 0)
                return -1;
            i += has;
            continue;
        }
        if (i + 1 >= argc) {
            /* a value-less word: a tool flag, or a missing value */
            if (rest) {
                rest[(*nrest)++] = i;
                continue;
            }
            snprintf(err, len, "%s needs a value", a);
            return -1;
        }
        r = u->cfg_option(cfg, a + 2, argv[i + 1], err, len);
        if (r < 0)
            return -1;
        if (r > 0) {
            if (rest) {
                rest[(*nrest)++] = i;
                continue;
            }
            snprintf(err, len, "unknown option '%s' (see --help)", a);
            return -1;
        }
        i++;
    }
    return u->cfg_check(cfg, err, len);
}

int cohkit_unit_cfg_parse_str(const cohkit_unit_desc *u, void *cfg, const char *args, char *err, size_t len)
{
    char buf[1024], *save = NULL, *tok, *words[64];
    int n = 0;
    if (strlen(args) >= sizeof buf) {
        snprintf(err, len, "configuration string too long");
        return -1;
    }
    memcpy(buf, args, strlen(args) + 1);
    for (tok = strtok_r(buf, " ", &save); tok != NULL && n < 64; tok = strtok_r(NULL, " ", &save))
        words[n++] = tok;
    return cohkit_unit_cfg_parse(u, cfg, n, words, NULL, NULL, err, len);
}

int cohkit_unit_layout_of(const cohkit_unit_desc *u, const void *cfg, cohkit_unit_layout *l, char *err, size_t len)
{
    int i;
    memset(l, 0, sizeof *l);
    l->n = u->ports(cfg, l->p, COHKIT_UNIT_PORTS_MAX);
    if (l->n < 0 || l->n > COHKIT_UNIT_PORTS_MAX) {
        snprintf(err, len, "%s: port table larger than %d ports", u->name, COHKIT_UNIT_PORTS_MAX);
        return -1;
    }
    l->n_in = 1;
    l->in_words = 1;
    for (i = 0; i < l->n; i++) {
        unsigned w = l->p[i].width;
        if (w == 0 || w > COHKIT_UNIT_PORT_WIDTH_MAX) {
            snprintf(err, len, "%s: port %s has width %u", u->name, l->p[i].name, w);
            return -1;
        }
        if (l->p[i].dir == COHKIT_PORT_IN) {
            l->n_in++;
            l->in_words += COHKIT_UNIT_WORDS(w);
        } else {
            l->n_out++;
            l->out_words += COHKIT_UNIT_WORDS(w);
        }
    }
    return 0;
}

void cohkit_unit_hex_put(FILE *f, const uint64_t *w, unsigned nwords)
{
    unsigned k = nwords;
    while (k > 1 && w[k - 1] == 0)
        k--;
    fprintf(f, "%llx", (unsigned long long)w[k - 1]);
    while (k-- > 1)
        fprintf(f, "%016llx", (unsigned long long)w[k - 1]);
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int cohkit_unit_hex_get(const char **pp, uint64_t *w, unsigned nwords, unsigned width)
{
    const char *p = *pp, *s, *e;
    unsigned k, bit = 0;
    while (*p == ' ' || *p == '\t')
        p++;
    s = p;
    while (hexval(*p) >= 0)
        p++;
    e = p;
    if (e == s)
        return -1;
    memset(w, 0, nwords * sizeof *w);
    while (s < e - 1 && *s == '0')
        s++;
    for (; e > s; bit += 4) {
        int v = hexval(*--e);
        if (bit >= width) {
            if (v != 0)
                return -1;
            continue;
        }
        k = bit / 64;
        w[k] |= (uint64_t)v << (bit % 64);
        if (bit + 4 > width && ((unsigned)v >> (width - bit)) != 0)
            return -1;
    }
    *pp = p;
    return 0;
}


int cohkit_unit_stim_kind(const char *const *streams, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    int i;
    char names[256];
    for (i = 0; streams[i] != NULL; i++)
        if (a->trace == NULL && (a->stream == NULL ? i == 0 : strcmp(a->stream, streams[i]) == 0))
            return i;
    if (a->trace != NULL)
        return i;
    or_list(streams, names, sizeof names);
    snprintf(err, len, "--stream: '%s' is not %s", a->stream, names);
    return -1;
}

void *cohkit_unit_stim_alloc(size_t size, const char *const *streams, const cohkit_unit_stim_args *a,
                             uint64_t salt, char *err, size_t len)
{
    cohkit_unit_stim_base *b = calloc(1, size);
    if (b == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    b->kind = cohkit_unit_stim_kind(streams, a, err, len);
    if (b->kind < 0) {
        free(b);
        return NULL;
    }
    b->rng = cohkit_unit_stim_seed(a->seed, salt);
    b->bp = COHKIT_UNIT_BP_FULL;
    if (a->trace != NULL) {
        b->trace = 1;
        b->bp = COHKIT_UNIT_BP_TRACE;
        b->out = a->out;
    }
    return b;
}

void *cohkit_unit_stim_new(size_t size, const char *const *streams, uint64_t salt,
                           cohkit_unit_stim_init_fn init, void (*stim_free)(void *s),
                           const void *cfg, const cohkit_unit_stim_args *a, char *err, size_t len)
{
    void *s = cohkit_unit_stim_alloc(size, streams, a, salt, err, len);
    if (s != NULL && init(s, cfg, a, err, len) != 0) {
        stim_free(s);
        s = NULL;
    }
    return s;
}

int cohkit_unit_stim_trace_err(const cohkit_unit_stim_args *a, char *err, size_t len)
{
    const char *name = a->trace_name ? a->trace_name : "trace";
    size_t k = strlen(name) + 2, n = strnlen(err, len);
    if (len > k) {
        if (n > len - 1 - k)
            n = len - 1 - k;
        memmove(err + k, err, n);
        err[k + n] = '\0';
        memcpy(err, name, k - 2);
        memcpy(err + k - 2, ": ", 2);
    }
    return -1;
}

/* ------------------------------------------------------ option tables */

static const cohkit_unit_opt *opt_find(const cohkit_unit_opt_table *t, const char *name)
{
    const cohkit_unit_opt *o;
    for (o = t->opt; o->name != NULL; o++)
        if (strcmp(o->name, name) == 0)
            return o;
    return NULL;
}

int cohkit_unit_opt_bare(const cohkit_unit_opt_table *t, const char *name)
{
    const cohkit_unit_opt *o = opt_find(t, name);
    return o != NULL && (o->flags & COHKIT_UNIT_OPT_BARE);
}

static int opt_uint(const cohkit_unit_opt_table *t, const cohkit_unit_opt *o, const char *v, unsigned *out)
{
    char *end;
    unsigned long x;
    if (v == NULL || *v < '0' || *v > '9')
        return -1;
    x = strtoul(v, &end, t->num_base);
    if (*end != '\0' || x > (o->max ? o->max : t->num_max))
        return -1;
    *out = (unsigned)x;
    return 0;
}

static int opt_hex(const char *v, uint64_t *out)
{
    char *end;
    const char *p = v;
    if (p == NULL)
        return -1;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')) ||
        strlen(p) > 16)
        return -1;
    *out = strtoull(p, &end, 16);
    return *end ? -1 : 0;
}

/* "a, b or c" of the listed choices */
static void choice_list(const cohkit_unit_opt_choice *c, char *buf, size_t len)
{
    const char *names[32];
    size_t n = 0;
    for (; c->name != NULL && n < 31; c++)
        if (!c->hidden)
            names[n++] = c->name;
    names[n] = NULL;
    or_list(names, buf, len);
}

int cohkit_unit_opt_apply(const cohkit_unit_opt_table *t, void *cfg, const char *name, const char *value,
                   char *err, size_t len)
{
    const cohkit_unit_opt *o = opt_find(t, name);
    const char *v = value ? value : "";
    char *field;
    if (o == NULL)
        return 1;
    field = (char *)cfg + o->off;
    switch (o->kind) {
    case COHKIT_UNIT_OPT_UINT: {
        unsigned x;
        if (opt_uint(t, o, value, &x) != 0) {
            snprintf(err, len, "--%s: '%s' is not %s", name, v, o->what ? o->what : t->num_what);
            return -1;
        }
        memcpy(field, &x, sizeof x);
        return 0;
    }
    case COHKIT_UNIT_OPT_HEX: {
        uint64_t x;
        if (opt_hex(value, &x) != 0) {
            snprintf(err, len, "--%s: '%s' is not %s", name, v, o->what ? o->what : "a hex number");
            return -1;
        }
        memcpy(field, &x, sizeof x);
        return 0;
    }
    case COHKIT_UNIT_OPT_ENUM: {
        const cohkit_unit_opt_choice *c;
        char names[256];
        for (c = o->choices; c->name != NULL; c++)
            if (strcmp(c->name, v) == 0) {
                memcpy(field, &c->value, sizeof c->value);
                return 0;
            }
        choice_list(o->choices, names, sizeof names);
        snprintf(err, len, "--%s: '%s' is not %s", name, v, names);
        return -1;
    }
    case COHKIT_UNIT_OPT_SET:
        return o->set(cfg, name, value, err, len) != 0 ? -1 : 0;
    }
    return 1;
}

void cohkit_unit_opt_help(const cohkit_unit_opt_table *t, FILE *f)
{
    const cohkit_unit_opt *o;
    int col = t->help_col ? t->help_col : 19;
    for (o = t->opt; o->name != NULL; o++) {
        const char *h = o->help;
        int n = fprintf(f, "  --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(f, "%*s", n < col ? col - n : 1, "");
        for (; *h; h++) {
            fputc(*h, f);
            if (*h == '\n')
                fprintf(f, "%*s", col, "");
        }
        fputc('\n', f);
    }
}

static void opt_value(const cohkit_unit_opt *o, const void *cfg, char *buf, size_t len)
{
    const char *field = (const char *)cfg + o->off;
    const cohkit_unit_opt_choice *c;
    unsigned u;
    uint64_t x;
    int e;
    buf[0] = '\0';
    switch (o->kind) {
    case COHKIT_UNIT_OPT_UINT:
        memcpy(&u, field, sizeof u);
        snprintf(buf, len, "%u", u);
        break;
    case COHKIT_UNIT_OPT_HEX:
        memcpy(&x, field, sizeof x);
        snprintf(buf, len, "0x%llx", (unsigned long long)x);
        break;
    case COHKIT_UNIT_OPT_ENUM:
        memcpy(&e, field, sizeof e);
        for (c = o->choices; c->name != NULL; c++)
            if (!c->hidden && c->value == e) {
                snprintf(buf, len, "%s", c->name);
                break;
            }
        break;
    case COHKIT_UNIT_OPT_SET:
        if (o->put != NULL)
            o->put(cfg, buf, len);
        break;
    }
}

static void opt_arg(const cohkit_unit_opt *o, const void *cfg, char *buf, size_t len, size_t *k)
{
    char val[1024];
    int set;
    memcpy(&set, (const char *)cfg + o->off, sizeof set);
    if ((o->flags & COHKIT_UNIT_OPT_NOARGS) || (o->in_args != NULL && !o->in_args(cfg)) || *k >= len ||
        ((o->flags & COHKIT_UNIT_OPT_IFSET) && set < 0))
        return;
    opt_value(o, cfg, val, sizeof val);
    *k += (size_t)snprintf(buf + *k, len - *k, "%s--%s%s%s", *k ? " " : "", o->name,
                           val[0] ? " " : "", val);
}

void cohkit_unit_opt_args(const cohkit_unit_opt_table *t, const void *cfg, char *buf, size_t len)
{
    const cohkit_unit_opt *o;
    size_t k = 0, i;
    buf[0] = '\0';
    if (t->args_order == NULL) {
        for (o = t->opt; o->name != NULL; o++)
            opt_arg(o, cfg, buf, len, &k);
        return;
    }
    for (i = 0; t->args_order[i] != NULL; i++)
        if ((o = opt_find(t, t->args_order[i])) != NULL)
            opt_arg(o, cfg, buf, len, &k);
}

void cohkit_unit_options_help(const cohkit_unit_desc *u, FILE *f)
{
    if (u->options_help != NULL)
        fputs(u->options_help, f);
    if (u->opts != NULL)
        cohkit_unit_opt_help(u->opts, f);
}
