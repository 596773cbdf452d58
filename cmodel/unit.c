/*
 * Registry helpers shared by every tool: unit lookup, option parsing into a
 * unit's configuration, port layout and multi-word hex values.
 */
#include "unit_adapt.h"

#include <stdlib.h>
#include <string.h>

const unit_desc *unit_find(const char *name)
{
    size_t i;
    for (i = 0; name != NULL && unit_registry[i] != NULL; i++)
        if (strcmp(unit_registry[i]->name, name) == 0)
            return unit_registry[i];
    return NULL;
}

const unit_desc *unit_tool_find(const char *name)
{
    size_t i;
    for (i = 0; name != NULL && unit_tools[i] != NULL; i++)
        if (strcmp(unit_tools[i]->name, name) == 0)
            return unit_tools[i];
    return NULL;
}

int unit_flag_index(const unit_desc *u, const char *name)
{
    int i;
    for (i = 0; u->flags != NULL && u->flags[i].name != NULL && i < UNIT_FLAGS_MAX; i++)
        if (strcmp(u->flags[i].name, name) == 0)
            return i;
    return -1;
}

static void preset_list(const unit_desc *u, char *buf, size_t len)
{
    size_t i, k = 0;
    buf[0] = '\0';
    for (i = 0; u->presets[i] != NULL && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "", u->presets[i]);
}

static int is_bare(const unit_desc *u, const char *name)
{
    size_t i;
    for (i = 0; u->cfg_bare != NULL && u->cfg_bare[i] != NULL; i++)
        if (strcmp(u->cfg_bare[i], name) == 0)
            return 1;
    return 0;
}

int unit_cfg_parse(const unit_desc *u, void *cfg, int argc, char *const *argv, int *rest,
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

int unit_cfg_parse_str(const unit_desc *u, void *cfg, const char *args, char *err, size_t len)
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
    return unit_cfg_parse(u, cfg, n, words, NULL, NULL, err, len);
}

int unit_layout_of(const unit_desc *u, const void *cfg, unit_layout *l, char *err, size_t len)
{
    int i;
    memset(l, 0, sizeof *l);
    l->n = u->ports(cfg, l->p, UNIT_PORTS_MAX);
    if (l->n < 0 || l->n > UNIT_PORTS_MAX) {
        snprintf(err, len, "%s: port table larger than %d ports", u->name, UNIT_PORTS_MAX);
        return -1;
    }
    l->n_in = 1;
    l->in_words = 1;
    for (i = 0; i < l->n; i++) {
        unsigned w = l->p[i].width;
        if (w == 0 || w > UNIT_PORT_WIDTH_MAX) {
            snprintf(err, len, "%s: port %s has width %u", u->name, l->p[i].name, w);
            return -1;
        }
        if (l->p[i].dir == PORT_IN) {
            l->n_in++;
            l->in_words += UNIT_WORDS(w);
        } else {
            l->n_out++;
            l->out_words += UNIT_WORDS(w);
        }
    }
    return 0;
}

void unit_hex_put(FILE *f, const uint64_t *w, unsigned nwords)
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

int unit_hex_get(const char **pp, uint64_t *w, unsigned nwords, unsigned width)
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

int unit_stim_kind(const char *const *streams, const unit_stim_args *a, char *err, size_t len)
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
