/*
 * `cohmodel spandex-prog`: seeded random data-race-free programs for
 * `cohmodel spandex-system` (spec 9.4 format, the synchronisation of 9.5
 * item 6), built from phases of named patterns: false sharing, a flag
 * (producer and consumers), a lock handed over by RMW swp, a barrier of RMW
 * add, atomics on counters, read-mostly data. docs/spandex.md "Data-race-free
 * programs" states the synchronisation model and why the output is DRF.
 *
 * cohkit: internal header (not installed): the tool's own sources and the
 * tests only.
 */
#ifndef SPANDEX_PROG_H
#define SPANDEX_PROG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spandex_sys.h"

typedef enum {
    SPANDEX_PROG_MIXED,
    SPANDEX_PROG_FALSE_SHARING,
    SPANDEX_PROG_FLAG,
    SPANDEX_PROG_LOCK,
    SPANDEX_PROG_BARRIER,
    SPANDEX_PROG_COUNTER,
    SPANDEX_PROG_READ_MOSTLY,
    SPANDEX_PROG_PATTERNS
} spandex_prog_pattern;

typedef struct {
    spandex_sys_cfg sys; /* --dev, --line, --word, --seed (1) and the system's
                            other options, accepted as spandex-system's     */
    unsigned ops;        /* --ops N: operation lines (200)                  */
    unsigned pattern;    /* --pattern: spandex_prog_pattern (mixed)         */
} spandex_prog_cfg;

/* The name of pattern p ("mixed", "false-sharing", ...), NULL past the end. */
const char *spandex_prog_pattern_name(unsigned p);
void spandex_prog_cfg_default(spandex_prog_cfg *c);
/* One option, name without dashes: 0; 1 if not an option; -1 with a
 * one-line reason naming the value. */
int spandex_prog_cfg_option(spandex_prog_cfg *c, const char *name, const char *value, char *err, size_t len);
/* Validates (as spandex-system's options): 0, or -1 with a reason. */
int spandex_prog_cfg_check(spandex_prog_cfg *c, char *err, size_t len);
/* Writes the program (the same for the same configuration): 0, or -1 with
 * a reason in err (out of memory). */
int spandex_prog_write(const spandex_prog_cfg *c, FILE *out, char *err, size_t len);

#endif
