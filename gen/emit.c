#include "emit.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

int emit_open(emit_file *e, const char *dir, const char *name)
{
    memset(e, 0, sizeof *e);
    if (snprintf(e->path, sizeof e->path, "%s/%s", dir, name) >= (int)sizeof e->path) {
        e->err = ENAMETOOLONG;
        return -1;
    }
    snprintf(e->tmp, sizeof e->tmp, "%s.tmp", e->path);
    e->f = fopen(e->tmp, "w");
    if (e->f == NULL) {
        e->err = errno;
        return -1;
    }
    return 0;
}

static void vput(emit_file *e, int indent, const char *fmt, va_list ap)
{
    int i;
    if (e->f == NULL || e->err)
        return;
    for (i = 0; indent && i < e->indent; i++)
        if (fputs("  ", e->f) == EOF)
            e->err = errno ? errno : EIO;
    if (vfprintf(e->f, fmt, ap) < 0)
        e->err = errno ? errno : EIO;
}

void emit(emit_file *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(e, *fmt != '\0', fmt, ap);
    va_end(ap);
    if (e->f != NULL && !e->err && fputc('\n', e->f) == EOF)
        e->err = errno ? errno : EIO;
}

void emit_raw(emit_file *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(e, 0, fmt, ap);
    va_end(ap);
}

void emit_in(emit_file *e) { e->indent++; }
void emit_out(emit_file *e)
{
    if (e->indent > 0)
        e->indent--;
}

void emit_begin(emit_file *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(e, 1, fmt, ap);
    va_end(ap);
    emit_nl(e);
    emit_in(e);
}

void emit_end(emit_file *e, const char *line)
{
    emit_out(e);
    emit(e, "%s", line);
}

void emit_abort(emit_file *files, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        if (files[i].f != NULL)
            fclose(files[i].f);
        files[i].f = NULL;
        if (files[i].tmp[0])
            remove(files[i].tmp);
    }
}

int emit_commit(emit_file *files, int n, char *err, size_t len)
{
    int i, bad = -1;
    for (i = 0; i < n; i++) {
        if (files[i].f != NULL && fclose(files[i].f) != 0 && !files[i].err)
            files[i].err = errno ? errno : EIO;
        files[i].f = NULL;
        if (files[i].err && bad < 0)
            bad = i;
    }
    if (bad >= 0) {
        snprintf(err, len, "%s: %s", files[bad].path, strerror(files[bad].err));
        emit_abort(files, n);
        return -1;
    }
    for (i = 0; i < n; i++)
        if (rename(files[i].tmp, files[i].path) != 0) {
            snprintf(err, len, "%s: %s", files[i].path, strerror(errno));
            emit_abort(files, n);
            return -1;
        }
    return 0;
}

void emit_nl(emit_file *e) { emit_raw(e, "\n"); }
