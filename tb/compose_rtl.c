/*
 * Composition with Verilated blocks (compose_rtl.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "compose_rtl.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep.h"

/* ------------------------------------------------- the RTL backend -- */

typedef struct {
    const dut_ops *d;             /* NULL: the timing shell               */
    void *h;
    const cohkit_unit_desc *u;
    void *tm;
    int tracing;
} rtl_h;

void cmp_rtl_init(cmp_rtl *r, const dut_ops *const *duts, const char *units)
{
    memset(r, 0, sizeof *r);
    r->duts = duts;
    r->check_cfg = 1;
    if (units == NULL || strcmp(units, "all") == 0)
        r->all = 1;
    else
        r->units[0] = units;
}

int cmp_rtl_add(cmp_rtl *r, const char *unit)
{
    unsigned i;
    for (i = 0; i < CMP_RTL_UNITS_MAX && r->units[i]; i++)
        ;
    if (i == CMP_RTL_UNITS_MAX)
        return -1;
    r->units[i] = unit;
    r->all = 0;
    return 0;
}

int cmp_rtl_substitutes(const cmp_rtl *r, const char *unit)
{
    unsigned i;
    if (r->all)
        return 1;
    for (i = 0; r->units[i]; i++)
        if (strcmp(r->units[i], unit) == 0)
            return 1;
    return 0;
}

/* The DUT of block b: found by the block's configuration, its ports and
 * configuration those of the block. */
static const dut_ops *rtl_find(const cmp_rtl *r, const cmp_block *b, char *err, size_t len)
{
    const dut_ops *d = r->duts ? ls_dut_find(r->duts, b->u, b->preset) : NULL;
    void *cfg2;
    char n1[128], n2[128];
    if (d == NULL) {
        snprintf(err, len, "no Verilated %s_%s in this build", b->u->module_prefix, b->preset);
        return NULL;
    }
    cfg2 = calloc(1, b->u->cfg_size);
    if (cfg2 == NULL || ls_dut_cfg(b->u, d, cfg2, err, len) != 0) {
        free(cfg2);
        return NULL;
    }
    b->u->cfg_name(b->cfg, n1, sizeof n1);
    b->u->cfg_name(cfg2, n2, sizeof n2);
    free(cfg2);
    if (r->check_cfg && strcmp(n1, n2) != 0) {
        snprintf(err, len, "%s: the Verilated configuration is %s, the model's %s", d->module, n2,
                 n1);
        return NULL;
    }
    return d;
}

static void *rtl_open(void *ctx, const cmp_block *b, char *err, size_t len)
{
    const cmp_rtl *r = ctx;
    rtl_h *h = calloc(1, sizeof *h);
    if (h == NULL) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    h->u = b->u;
    if (!cmp_rtl_substitutes(r, b->u->name)) {
        if ((h->tm = b->u->tm_new(b->cfg)) == NULL) {
            snprintf(err, len, "%s: out of memory", b->u->name);
            free(h);
            return NULL;
        }
        return h;
    }
    h->d = rtl_find(r, b, err, len);
    if (h->d && (h->h = h->d->create(b->seed)) == NULL)
        snprintf(err, len, "%s: cannot create", h->d->module);
    if (h->h == NULL) {
        free(h);
        return NULL;
    }
    return h;
}
static void rtl_eval(void *p, const uint64_t *in, uint64_t *out)
{
    rtl_h *h = p;
    if (h->d)
        h->d->eval(h->h, in, out);
    else
        h->u->tm_eval(h->tm, in, out);
}
static void rtl_step(void *p, const uint64_t *in)
{
    rtl_h *h = p;
    if (h->d)
        h->d->tick(h->h);
    else
        h->u->tm_step(h->tm, in);
}
static void rtl_close(void *p)
{
    rtl_h *h = p;
    if (h == NULL)
        return;
    if (h->d) {
        if (h->tracing)
            h->d->trace_close(h->h);
        h->d->destroy(h->h);
    } else
        h->u->tm_free(h->tm);
    free(h);
}

cmp_backend cmp_rtl_backend(cmp_rtl *r)
{
    cmp_backend be = {r, rtl_open, rtl_eval, rtl_step, rtl_close};
    return be;
}

const dut_ops *cmp_rtl_dut(const cmp_block *b)
{
    return b->be.open == rtl_open && b->h ? ((const rtl_h *)b->h)->d : NULL;
}

int cmp_rtl_trace_open(cmp_block *b, const char *path)
{
    rtl_h *h = cmp_rtl_dut(b) ? b->h : NULL;
    if (h == NULL || h->tracing || h->d->trace_open(h->h, path) != 0)
        return -1;
    h->tracing = 1;
    return 0;
}

void cmp_rtl_trace_close(cmp_block *b)
{
    rtl_h *h = cmp_rtl_dut(b) ? b->h : NULL;
    if (h && h->tracing) {
        h->d->trace_close(h->h);
        h->tracing = 0;
    }
}

/* ----------------------------------------------------- side by side -- */

void cmp_lockstep_defaults(cmp_lockstep_opts *o)
{
    memset(o, 0, sizeof *o);
    o->rtl.all = 1;
    o->rtl.check_cfg = 1;
    o->la = "reference";
    o->lb = "substituted";
    o->window = 16;
}

/* A copy of v in the option buffer, or NULL when it is full. */
static char *opt_copy(cmp_lockstep_opts *o, const char *v)
{
    size_t used = 0, n = strlen(v) + 1;
    while (used < sizeof o->buf && o->buf[used])
        used += strlen(o->buf + used) + 1;
    if (used + n + 1 > sizeof o->buf)
        return NULL;
    memcpy(o->buf + used, v, n);
    o->buf[used + n] = '\0';
    return o->buf + used;
}

static int opt_rtl(cmp_lockstep_opts *o, const char *val, char *err, size_t len)
{
    const dut_ops *const *duts = o->rtl.duts;
    char *v = opt_copy(o, val), *u, *save = NULL;
    if (v == NULL || *v == '\0') {
        snprintf(err, len, "--rtl: '%s' is not all or a list of units", val);
        return -1;
    }
    cmp_rtl_init(&o->rtl, duts, "all");
    if (strcmp(v, "all") == 0)
        return 0;
    o->rtl.all = 0;
    for (u = strtok_r(v, ",", &save); u; u = strtok_r(NULL, ",", &save))
        if (cohkit_unit_find(u) == NULL || cmp_rtl_add(&o->rtl, u) != 0) {
            snprintf(err, len, "--rtl: '%s' is not a registered unit", u);
            return -1;
        }
    return 0;
}

static int opt_stuck(cmp_lockstep_opts *o, const char *val, char *err, size_t len)
{
    char *v = opt_copy(o, val), *port, *bit, *value, *at, *end;
    unsigned long long b, x, c = 0;
    if (v == NULL || (port = strchr(v, ':')) == NULL || (bit = strchr(port + 1, ':')) == NULL ||
        (value = strchr(bit + 1, ':')) == NULL)
        goto bad;
    *port++ = *bit++ = *value++ = '\0';
    if ((at = strchr(value, '@')) != NULL)
        *at++ = '\0';
    b = strtoull(bit, &end, 10);
    if (*bit == '\0' || *end || b > 4095)
        goto bad;
    x = strtoull(value, &end, 10);
    if (*value == '\0' || *end || x > 1)
        goto bad;
    if (at && ((c = strtoull(at, &end, 10)), *at == '\0' || *end))
        goto bad;
    o->stuck.block = v;
    o->stuck.port = port;
    o->stuck.bit = (unsigned)b;
    o->stuck.value = (unsigned)x;
    o->stuck.from = c;
    return 0;
bad:
    snprintf(err, len, "--stuck: '%s' is not BLOCK:PORT:BIT:0|1[@CYCLE]", val);
    return -1;
}

int cmp_lockstep_option(cmp_lockstep_opts *o, const char *name, const char *val, char *err,
                        size_t len)
{
    if (strcmp(name, "--rtl") == 0)
        return opt_rtl(o, val, err, len);
    if (strcmp(name, "--stuck") == 0)
        return opt_stuck(o, val, err, len);
    if (strcmp(name, "--fail-prefix") == 0) {
        if ((o->fail_prefix = opt_copy(o, val)) == NULL || *val == '\0') {
            snprintf(err, len, "--fail-prefix: '%s' is not a path prefix", val);
            return -1;
        }
        return 0;
    }
    return 1;
}

int cmp_bench_mode(int argc, char **argv, const char *flag)
{
    int i, all = 1;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], flag) == 0)
            return 2;
    for (i = 1; all && i < argc; i++) /* only --seed and --cycles go with "every unit" */
        if (strcmp(argv[i], "--seed") != 0 && strcmp(argv[i], "--cycles") != 0)
            all = 0;
        else
            i++;
    return all;
}

/* One unit at one configuration (NULL: its default). 0, 1 or 2. */
static int bench_unit(char *argv0, const cohkit_unit_desc *u, const char *cfg, const char *cbuf,
                      const char *sbuf, int (*run_unit)(int argc, char **argv))
{
    char *av[] = {argv0, "--unit", (char *)u->name, "--cycles", (char *)cbuf, "--seed",
                  (char *)sbuf, "--config", (char *)cfg, NULL};
    int rc;
    printf("== %s%s%s\n", u->name, cfg ? " " : "", cfg ? cfg : "");
    fflush(stdout);
    rc = run_unit(cfg ? 9 : 7, av);
    fflush(stdout);
    return rc == 2 ? 2 : rc != 0;
}

int cmp_bench_units(const char *family, char *argv0, unsigned long long cycles,
                    unsigned long long seed, const char *const *configs,
                    int (*run_unit)(int argc, char **argv))
{
    static const char *const deflt[] = {NULL};
    const char *const *cf = configs ? configs : deflt;
    char cbuf[32], sbuf[32];
    size_t u, k;
    int fail = 0, rc;
    snprintf(cbuf, sizeof cbuf, "%llu", cycles);
    snprintf(sbuf, sizeof sbuf, "%llu", seed);
    for (u = 0; cohkit_unit_registry[u]; u++) {
        if (strcmp(cohkit_unit_registry[u]->family, family) != 0 || cohkit_unit_registry[u]->committed == NULL ||
            cohkit_unit_registry[u]->tm_new == NULL)
            continue;
        for (k = 0; k == 0 || (configs && cf[k]); k++) {
            if ((rc = bench_unit(argv0, cohkit_unit_registry[u], cf[k], cbuf, sbuf, run_unit)) == 2)
                return 2;
            fail |= rc;
        }
    }
    return fail;
}

int cmp_spec_split(const char *val, char *a, size_t alen, char *b, size_t blen, char *n,
                   size_t nlen, const char **c)
{
    const char *c1 = strchr(val, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    const char *at = c2 ? strchr(c2 + 1, '@') : NULL;
    size_t nl;
    if (c1 == NULL || c2 == NULL || (size_t)(c1 - val) >= alen || (size_t)(c2 - c1 - 1) >= blen)
        return -1;
    nl = at ? (size_t)(at - c2 - 1) : strlen(c2 + 1);
    if (nl == 0 || nl >= nlen)
        return -1;
    memcpy(a, val, (size_t)(c1 - val));
    a[c1 - val] = '\0';
    memcpy(b, c1 + 1, (size_t)(c2 - c1 - 1));
    b[c2 - c1 - 1] = '\0';
    memcpy(n, c2 + 1, nl);
    n[nl] = '\0';
    *c = at ? at + 1 : NULL;
    return 0;
}

void cmp_lockstep_help(FILE *f)
{
    fprintf(f,
            "  --rtl U[,U...]   only these units Verilated, the others timing shells\n"
            "                   (default all)\n"
            "  --stuck B:P:N:V[@C] bit N of output port P of block B stuck at V (from cycle C):\n"
            "                   the port comparison must name it\n"
            "  --fail-prefix P  on a mismatch write P.stim (every block's inputs) and\n"
            "                   P.<block>.vcd over the last cycles before it\n");
}

void cmp_stim_put(FILE *f, const cmp_sys *s, uint64_t cyc)
{
    unsigned i;
    int k;
    for (i = 0; i < s->n; i++) {
        const cmp_block *b = s->b[i];
        fprintf(f, "%llu %s ", (unsigned long long)cyc, b->name);
        cohkit_unit_hex_put(f, b->in, 1);
        for (k = 0; k < b->l.n; k++)
            if (b->l.p[k].dir == COHKIT_PORT_IN) {
                fputc(' ', f);
                cohkit_unit_hex_put(f, b->in + b->off[k], COHKIT_UNIT_WORDS(b->l.p[k].width));
            }
        fputc('\n', f);
    }
}

static int apply_stuck(const cmp_family *f, void *sys, const cmp_stuck *st, char *err, size_t len)
{
    cmp_block *b;
    if (st->block == NULL)
        return 0;
    b = cmp_sys_find(f->blocks(sys), st->block);
    if (b == NULL) {
        snprintf(err, len, "stuck bit: no block %s", st->block);
        return -1;
    }
    return cmp_block_stuck(b, st->port, st->bit, st->value, st->from, err, len);
}

static void *make_sub(const cmp_family *f, void *arg, const cmp_lockstep_opts *o,
                      cmp_backend *be, char *err, size_t len)
{
    void *s;
    *be = cmp_rtl_backend((cmp_rtl *)&o->rtl);
    s = f->make(arg, be, err, len);
    if (s && apply_stuck(f, s, &o->stuck, err, len) != 0) {
        f->free(s);
        return NULL;
    }
    return s;
}

/* The substituted composition again, to the failing cycle: the stimulus of
 * every block and a waveform of every Verilated block over the window. */
static void write_window(const cmp_family *f, void *arg, const cmp_lockstep_opts *o,
                         uint64_t fail, char *msg, size_t len)
{
    char path[600], err[256];
    uint64_t from = fail >= o->window ? fail - o->window + 1 : 0, c;
    cmp_backend be;
    void *s = make_sub(f, arg, o, &be, err, sizeof err);
    FILE *st;
    unsigned i;
    size_t ml = strlen(msg);
    snprintf(path, sizeof path, "%s.stim", o->fail_prefix);
    st = s ? fopen(path, "w") : NULL;
    if (st == NULL) {
        if (s)
            f->free(s);
        snprintf(msg + ml, len - ml, " (cannot write %s)", path);
        return;
    }
    fprintf(st, "# stimulus of every block, cycles %llu..%llu: cycle block rst_ni inputs...\n",
            (unsigned long long)from, (unsigned long long)fail);
    for (c = 0; c <= fail; c++) {
        const cmp_sys *bs = f->blocks(s);
        if (c == from)
            for (i = 0; i < bs->n; i++) {
                snprintf(path, sizeof path, "%s.%s.vcd", o->fail_prefix, bs->b[i]->name);
                cmp_rtl_trace_open(bs->b[i], path);
            }
        f->cycle(s);
        if (c >= from)
            cmp_stim_put(st, bs, c);
    }
    fclose(st);
    f->free(s); /* closes the waveforms */
    snprintf(msg + ml, len - ml, " (stimulus %s.stim, waveforms %s.*.vcd)", o->fail_prefix,
             o->fail_prefix);
}

static int step_pair(const cmp_family *f, const cmp_lockstep_opts *o, cmp_lockstep_res *r)
{
    int dc = f->cycle(r->ref), dr = r->sub ? f->cycle(r->sub) : dc;
    if (r->sub) {
        if (cmp_compare(f->blocks(r->ref), f->blocks(r->sub), !f->in_reset(r->ref), r->cycles,
                        o->la, o->lb, r->msg, sizeof r->msg)) {
            r->mismatch = 1;
            return 1;
        }
        if (dc != dr) {
            snprintf(r->msg, sizeof r->msg, "cycle %llu: the %s finished first",
                     (unsigned long long)r->cycles, dc ? o->la : o->lb);
            r->mismatch = 1;
            return 1;
        }
    }
    r->cycles++;
    if (dc) {
        r->done = 1;
        return 1;
    }
    if (f->stuck(r->ref)) {
        r->stuck = 1;
        return 1;
    }
    return 0;
}

int cmp_lockstep(const cmp_family *f, void *arg, const cmp_lockstep_opts *o,
                 cmp_lockstep_res *r)
{
    struct timespec t0, t1;
    cmp_backend be;
    memset(r, 0, sizeof *r);
    r->ref = f->make(arg, NULL, r->msg, sizeof r->msg);
    if (r->ref == NULL)
        return -1;
    if (o->rtl.duts && (r->sub = make_sub(f, arg, o, &be, r->msg, sizeof r->msg)) == NULL) {
        f->free(r->ref);
        r->ref = NULL;
        return -1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (!step_pair(f, o, r))
        ;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (r->mismatch && o->fail_prefix)
        write_window(f, arg, o, r->cycles, r->msg, sizeof r->msg);
    return 0;
}

void cmp_lockstep_free(const cmp_family *f, cmp_lockstep_res *r)
{
    if (r->ref)
        f->free(r->ref);
    if (r->sub)
        f->free(r->sub);
    r->ref = r->sub = NULL;
}
