/*
 * What the harnesses share (tb/fuzz/fuzz.h): text helpers, a tool's main
 * run in-process with its streams captured, a scratch folder, and a unit's
 * timing shell standing in for its RTL.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "fuzz %s: ", fuzz_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

/* ------------------------------------------------------------- text -- */

unsigned fuzz_lines(const char *s, size_t n)
{
    unsigned k = 0;
    size_t i;
    for (i = 0; i < n; i++)
        k += s[i] == '\n';
    return k + (n > 0 && s[n - 1] != '\n');
}

size_t fuzz_prefix(const char *s, size_t n, unsigned line)
{
    size_t i;
    unsigned k = 0;
    for (i = 0; i < n && k < line; i++)
        k += s[i] == '\n';
    return i;
}

unsigned fuzz_msg_line(const char *msg, const char *name)
{
    const char *p = msg;
    char key[256];
    snprintf(key, sizeof key, "%s: line ", name ? name : "");
    while ((p = strstr(p, name ? key : "line ")) != NULL) {
        const char *d = p + (name ? strlen(key) : 5);
        unsigned long v = 0;
        if ((name || p == msg || p[-1] == ' ' || p[-1] == '(') && *d >= '0' && *d <= '9') {
            while (*d >= '0' && *d <= '9' && v < 100000000ul)
                v = v * 10 + (unsigned long)(*d++ - '0');
            return (unsigned)v;
        }
        p++;
    }
    return 0;
}

int fuzz_one_line(const char *s)
{
    const char *nl = s ? strchr(s, '\n') : NULL;
    return nl != NULL && nl != s && nl[1] == '\0';
}

int fuzz_words(char *s, char **w, int max)
{
    int n = 0;
    char *save = NULL, *t;
    for (t = strtok_r(s, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        if (n == max)
            return -1;
        w[n++] = t;
    }
    return n;
}

int fuzz_small(char *const *w, int n, unsigned long max)
{
    int i;
    for (i = 0; i < n; i++) {
        const char *p = w[i];
        unsigned long v = 0;
        if (*p < '0' || *p > '9')
            continue;
        while (*p >= '0' && *p <= '9' && v <= max)
            v = v * 10 + (unsigned long)(*p++ - '0');
        if (*p == '\0' && v > max)
            return 0;
    }
    return 1;
}

/* ------------------------------------------------- a tool's main run -- */

int fuzz_call(int (*main_fn)(int, char **), int argc, char **argv, const char *in, size_t n,
              fuzz_run *r)
{
    FILE *si = stdin, *so = stdout, *se = stderr, *fi, *fo, *fe;
    memset(r, 0, sizeof *r);
    fi = n ? fmemopen((void *)in, n, "r") : fopen("/dev/null", "r");
    fo = open_memstream(&r->out, &r->out_len);
    fe = open_memstream(&r->err, &r->err_len);
    if (fi == NULL || fo == NULL || fe == NULL) {
        fprintf(stderr, "fuzz: cannot open the streams of a run\n");
        abort();
    }
    stdin = fi;
    stdout = fo;
    stderr = fe;
    r->rc = main_fn(argc, argv);
    stdin = si;
    stdout = so;
    stderr = se;
    fclose(fi);
    fclose(fo);
    fclose(fe);
    return r->rc;
}

void fuzz_run_free(fuzz_run *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

void fuzz_check_refusal(const fuzz_run *r, const char *what)
{
    if (r->out_len != 0)
        fuzz_fail("%s: exit 2 with %zu bytes on standard output: %.200s", what, r->out_len, r->out);
    if (!fuzz_one_line(r->err))
        fuzz_fail("%s: exit 2 without one line on standard error: '%.300s'", what, r->err);
}

/* ----------------------------------------------------------- scratch -- */

static char scratch[512];

static void remove_tree(const char *path, int self)
{
    DIR *d = opendir(path);
    struct dirent *e;
    char p[1024];
    struct stat st;
    while (d && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", path, e->d_name);
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(p, 1);
        else
            unlink(p);
    }
    if (d)
        closedir(d);
    if (self)
        rmdir(path);
}

static void scratch_remove(void) { remove_tree(scratch, 1); }

const char *fuzz_scratch(void)
{
    if (scratch[0] == '\0') {
        const char *t = getenv("TMPDIR");
        snprintf(scratch, sizeof scratch, "%s/cohkit-fuzz.%ld", t && *t ? t : "/tmp", (long)getpid());
        if (mkdir(scratch, 0700) != 0) {
            fprintf(stderr, "fuzz: cannot make %s\n", scratch);
            abort();
        }
        atexit(scratch_remove);
    }
    return scratch;
}

int fuzz_scratch_empty(void)
{
    DIR *d = opendir(fuzz_scratch());
    struct dirent *e;
    int empty = 1;
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            empty = 0;
    if (d)
        closedir(d);
    return empty;
}

void fuzz_scratch_clear(void) { remove_tree(fuzz_scratch(), 0); }

/* ------------------------------------------------------ shell as DUT -- */

typedef struct {
    void *tm;
    uint64_t *in;
} shell_h;

static const cohkit_unit_desc *cur_u;
static const void *cur_cfg;
static unsigned cur_in_words;

static void *shell_create(unsigned seed)
{
    shell_h *h = calloc(1, sizeof *h);
    (void)seed;
    if (h == NULL)
        return NULL;
    h->tm = cur_u->tm_new(cur_cfg);
    h->in = calloc(cur_in_words, sizeof *h->in);
    if (h->tm == NULL || h->in == NULL) {
        if (h->tm)
            cur_u->tm_free(h->tm);
        free(h->in);
        free(h);
        return NULL;
    }
    return h;
}

static void shell_destroy(void *p)
{
    shell_h *h = p;
    cur_u->tm_free(h->tm);
    free(h->in);
    free(h);
}

static void shell_eval(void *p, const uint64_t *in, uint64_t *out)
{
    shell_h *h = p;
    memcpy(h->in, in, cur_in_words * sizeof *in);
    cur_u->tm_eval(h->tm, in, out);
}

static void shell_tick(void *p)
{
    shell_h *h = p;
    cur_u->tm_step(h->tm, h->in);
}

static int shell_trace_open(void *h, const char *path)
{
    (void)h;
    (void)path;
    return -1;
}

static void shell_trace_close(void *h) { (void)h; }

int fuzz_shell_init(fuzz_shell *s, const cohkit_unit_desc *u, const void *cfg, char *err,
                    size_t len)
{
    unsigned ki = 1, ko = 0;
    int i;
    memset(s, 0, sizeof *s);
    if (cohkit_unit_layout_of(u, cfg, &s->l, err, len) != 0)
        return -1;
    s->in_names[0] = "rst_ni";
    s->in_widths[0] = 1;
    for (i = 0; i < s->l.n; i++)
        if (s->l.p[i].dir == COHKIT_PORT_IN) {
            s->in_names[ki] = s->l.p[i].name;
            s->in_widths[ki++] = s->l.p[i].width;
        } else {
            s->out_names[ko] = s->l.p[i].name;
            s->out_widths[ko++] = s->l.p[i].width;
        }
    s->ops = (dut_ops){.unit = u->name,
                       .family = u->family,
                       .module = u->name,
                       .args = "",
                       .n_in = s->l.n_in,
                       .n_out = s->l.n_out,
                       .in_words = s->l.in_words,
                       .out_words = s->l.out_words,
                       .in_names = s->in_names,
                       .in_widths = s->in_widths,
                       .out_names = s->out_names,
                       .out_widths = s->out_widths,
                       .create = shell_create,
                       .destroy = shell_destroy,
                       .eval = shell_eval,
                       .tick = shell_tick,
                       .trace_open = shell_trace_open,
                       .trace_close = shell_trace_close};
    cur_u = u;
    cur_cfg = cfg;
    cur_in_words = s->l.in_words;
    return 0;
}
