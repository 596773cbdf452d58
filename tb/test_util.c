#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <criterion/criterion.h>

#include <dirent.h>
#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* system(), without its fork of this (large) process: posix_spawn shares
 * the address space until the shell's exec */
int run(const char *cmd)
{
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    pid_t pid;
    int st;
    fflush(NULL);
    if (posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, environ) != 0)
        return -1;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf;
    long n;
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = calloc(1, (size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

static int temp_file(char *path, size_t len, const char *tag)
{
    const char *dir = getenv("TMPDIR");
    int fd;
    snprintf(path, len, "%s/cohkit-%s-XXXXXX", dir && *dir ? dir : "/tmp", tag);
    fd = mkstemp(path);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

int run_cap(cmd_out *r, const char *fmt, ...)
{
    char o[256], e[256], *cmd, *full;
    va_list ap;
    int n;
    memset(r, 0, sizeof *r);
    r->status = -1;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    cmd = malloc((size_t)n + 1);
    full = malloc((size_t)n + 600);
    if (cmd && full && temp_file(o, sizeof o, "out") == 0 && temp_file(e, sizeof e, "err") == 0) {
        va_start(ap, fmt);
        vsnprintf(cmd, (size_t)n + 1, fmt, ap);
        va_end(ap);
        /* a group, not a subshell: one fork less */
        snprintf(full, (size_t)n + 600, "{ %s\n} >'%s' 2>'%s'", cmd, o, e);
        r->status = run(full);
        r->out = slurp(o);
        r->err = slurp(e);
        remove(o);
        remove(e);
    }
    free(cmd);
    free(full);
    if (r->out == NULL)
        r->out = calloc(1, 1);
    if (r->err == NULL)
        r->err = calloc(1, 1);
    return r->status;
}

int run_in(cmd_out *r, const char *input, const char *cmd)
{
    char in[256];
    if (temp_file(in, sizeof in, "in") != 0) {
        memset(r, 0, sizeof *r);
        r->status = -1;
        r->out = calloc(1, 1);
        r->err = calloc(1, 1);
        return -1;
    }
    put(in, input);
    run_cap(r, "%s <'%s'", cmd, in);
    remove(in);
    return r->status;
}

void cmd_out_free(cmd_out *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

size_t line_count(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        if (*s == '\n' || s[1] == '\0')
            n++;
    return n;
}

const char *fresh_dir(const char *name)
{
    static char path[512];
    char cmd[1200];
    snprintf(path, sizeof path, "build/t_%s", name);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", path, path);
    return run(cmd) == 0 ? path : NULL;
}

int dir_empty(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int empty = 1;
    if (d == NULL)
        return 1;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            empty = 0;
    closedir(d);
    return empty;
}


long trace_agrees(const char *family, const char *unit, const char *opts, const char *trace,
                  char **model_out, char **bench_out, char *why, size_t len)
{
    cmd_out m, t;
    char *lines = NULL;
    long n = -1;
    run_cap(&m, "build/bin/cohmodel %s %s <'%s'", unit, opts, trace);
    run_cap(&t, "./tb_%s --unit %s %s --trace '%s'", family, unit, opts, trace);
    if (m.status != 0)
        snprintf(why, len, "cohmodel %s %s < %s: exit %d: %s", unit, opts, trace, m.status, m.err);
    else if (t.status != 0)
        snprintf(why, len, "tb_%s --unit %s %s --trace %s: exit %d: %s", family, unit, opts, trace,
                 t.status, t.err);
    else if (strstr(t.out, "\n# PASS\n") == NULL)
        snprintf(why, len, "tb_%s --trace %s: no '# PASS' line", family, trace);
    else if ((lines = ls_uncommented(t.out)) == NULL || strcmp(lines, m.out) != 0)
        snprintf(why, len, "%s %s: tb_%s --trace and cohmodel print other lines", unit, trace,
                 family);
    else
        n = (long)strlen(m.out);
    if (model_out) {
        *model_out = m.out;
        m.out = NULL;
    }
    if (bench_out) {
        *bench_out = t.out;
        t.out = NULL;
    }
    free(lines);
    cmd_out_free(&m);
    cmd_out_free(&t);
    return n;
}

void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s: cannot write", path);
    fputs(text, f);
    fclose(f);
}

unsigned long long field(const char *s, const char *key)
{
    const char *p = s ? strstr(s, key) : NULL;
    cr_assert_not_null(p, "no '%s' in %s", key, s ? s : "(no summary)");
    return strtoull(p + strlen(key), NULL, 10);
}

void ls_preset(ls_opts *o, void *cfg, size_t cfg_len, const dut_ops *const *duts,
               const char *unit, const char *preset)
{
    const cohkit_unit_desc *u = cohkit_unit_find(unit);
    char err[300];
    cr_assert_not_null(u, "no unit %s", unit);
    cr_assert_leq(u->cfg_size, cfg_len, "%s: configuration of %zu bytes", unit, u->cfg_size);
    ls_defaults(o);
    o->unit = u;
    o->dut = ls_dut_find(duts, u, preset);
    cr_assert_not_null(o->dut, "%s: no DUT %s", unit, preset);
    cr_assert_eq(ls_dut_cfg(u, o->dut, cfg, err, sizeof err), 0, "%s %s: %s", unit, preset, err);
    o->cfg = cfg;
}

void ls_stream(ls_result *r, const dut_ops *const *duts, const char *unit, const char *preset,
               const char *stream, uint64_t cycles, uint64_t seed)
{
    static uint64_t cfg[8192];
    ls_opts o;
    ls_preset(&o, cfg, sizeof cfg, duts, unit, preset);
    o.stream = stream;
    o.cycles = cycles;
    o.seed = seed;
    memset(r, 0, sizeof *r);
    cr_assert_eq(ls_run(&o, r, ""), 0, "%s %s %s seed %llu: %s", unit, preset,
                 stream ? stream : "(default stream)", (unsigned long long)seed, r->mm_msg);
}

void refused_on(const char *cmd, const char *input, const char *word)
{
    cmd_out r;
    if (input)
        run_in(&r, input, cmd);
    else
        run_cap(&r, "%s", cmd);
    cr_assert_eq(r.status, 2, "%s: exit %d: %s", cmd, r.status, r.err);
    cr_assert_str_empty(r.out, "%s: output on a refusal: %s", cmd, r.out);
    cr_assert_eq(line_count(r.err), 1, "%s: not one line: %s", cmd, r.err);
    cr_assert(strstr(r.err, word) != NULL, "%s: '%s' not named: %s", cmd, word, r.err);
    cmd_out_free(&r);
}

void refused(const char *cmd, const char *word) { refused_on(cmd, NULL, word); }

char *model_prints(const char *args, const char *input)
{
    char cmd[512];
    cmd_out r;
    char *o;
    snprintf(cmd, sizeof cmd, "build/bin/cohmodel %s", args);
    run_in(&r, input, cmd);
    cr_assert_eq(r.status, 0, "%s: exit %d: %s", cmd, r.status, r.err);
    o = r.out;
    r.out = NULL;
    cmd_out_free(&r);
    return o;
}

void gen_refuses(const char *unit, const char *args, const char *word)
{
    char name[128], dir[512], cmd[1024];
    const char *d;
    snprintf(name, sizeof name, "gen_%s_%ld", unit, (long)getpid());
    d = fresh_dir(name);
    cr_assert_not_null(d);
    snprintf(dir, sizeof dir, "%s", d);
    snprintf(cmd, sizeof cmd, "build/bin/cohgen %s %s -o %s/out", unit, args, dir);
    refused(cmd, word);
    cr_assert(dir_empty(dir), "%s: wrote into the output folder", cmd);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    run(cmd);
}

void model_refuses(const char *unit, const char *args, const char *input, const char *word)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "build/bin/cohmodel %s %s", unit, args);
    refused_on(cmd, input, word);
}
