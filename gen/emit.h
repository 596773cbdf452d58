/*
 * Emitter for generated files: indentation, sticky errors, and all-or-nothing
 * commit (every file is written to a temporary beside its target and renamed
 * only when every file of the set was written without error).
 */
#ifndef EMIT_H
#define EMIT_H

#include <stdio.h>

#define EMIT_PATH_MAX 1024

typedef struct {
    FILE *f;
    char path[EMIT_PATH_MAX];
    char tmp[EMIT_PATH_MAX + 16];
    int indent;
    int err;
} emit_file;

/* Opens DIR/NAME for writing through a temporary. Returns 0 or -1. */
int emit_open(emit_file *e, const char *dir, const char *name);
/* One line: current indentation, the formatted text, a newline. */
void emit(emit_file *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Formatted text with no indentation and no newline. */
void emit_raw(emit_file *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An empty line. */
void emit_nl(emit_file *e);
void emit_in(emit_file *e);
void emit_out(emit_file *e);
/* A block's opening line (printed from fmt), then one level of indentation
 * in: "always_comb begin", "module m (", ... */
void emit_begin(emit_file *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One level of indentation out, then the block's closing line ("end",
 * "endcase", ");", ...). */
void emit_end(emit_file *e, const char *line);
/* Closes n files; renames all into place if none failed, else removes every
 * temporary. Returns 0, or -1 (with a message in err). */
int emit_commit(emit_file *files, int n, char *err, size_t len);
/* Removes the temporaries of n files (after an error elsewhere). */
void emit_abort(emit_file *files, int n);

#endif
