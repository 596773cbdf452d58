/*
 * What the units' configuration code shares: the checks of a value's range
 * and their messages, worded alike in every unit, numeric options parsed
 * against their range, and the named configurations (presets) written as
 * the options that refine a unit's default configuration.
 *
 * Two wordings are in use, each kept exactly: "--sets 3: must be a power of
 * two, 2..65536" (cohkit_cfg_range, cohkit_cfg_range_pow2) and "--sets: 3 is
 * not a power of two in 2..65536" (cohkit_cfg_in, cohkit_cfg_in_pow2). Every
 * check returns 0 when the value is good, else -1 with the message in err,
 * so that checks chain: `if (cohkit_cfg_range(...) || ...) return -1;`.
 *
 * cohkit: internal header (not installed): used by the models' own sources;
 * its functions are not exported from the shared library.
 */
#ifndef CFG_CHECK_H
#define CFG_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "unit.h"

/* Writes the message (a printf format and its values) to err and returns
 * -1: `if (bad) return cohkit_cfg_fail(err, len, "--x %u: ...", x);`. */
int cohkit_cfg_fail(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* v in lo..hi, else "--<opt> <v>: must be <lo>..<hi>" */
int cohkit_cfg_range(char *err, size_t len, const char *opt, unsigned v, unsigned lo,
                     unsigned hi);
/* v a power of two in lo..hi, else "--<opt> <v>: must be a power of two, <lo>..<hi>" */
int cohkit_cfg_range_pow2(char *err, size_t len, const char *opt, unsigned v, unsigned lo,
                          unsigned hi);
/* v in lo..hi, else "--<opt>: <v> is not in <lo>..<hi>" */
int cohkit_cfg_in(char *err, size_t len, const char *opt, unsigned v, unsigned lo, unsigned hi);
/* v a power of two in lo..hi, else "--<opt>: <v> is not a power of two in <lo>..<hi>" */
int cohkit_cfg_in_pow2(char *err, size_t len, const char *opt, unsigned v, unsigned lo,
                       unsigned hi);

/* Parses an option's value: a decimal number in lo..hi, 0 with *v set;
 * else -1 with "--<name>: bad value '<value>' (<lo>..<hi>)". */
int cohkit_cfg_dec(const char *name, const char *value, uint64_t lo, uint64_t hi, uint64_t *v,
                   char *err, size_t len);

/* A numeric option of a configuration: the unsigned field at `off`, its
 * value a decimal number in lo..hi. */
typedef struct {
    const char *name;
    size_t off;
    unsigned lo, hi;
} cohkit_cfg_num;

/* Applies option `name` when the table t (n rows) has it: 0, or -1 with
 * cohkit_cfg_dec's message; 1 when the table has no such option. */
int cohkit_cfg_num_apply(const cohkit_cfg_num *t, size_t n, void *cfg, const char *name,
                         const char *value, char *err, size_t len);

/* A named configuration: the options ("--name value ...", blank-separated)
 * that turn the unit's default into it. "" for the default itself. */
typedef struct {
    const char *name;
    const char *opts;
} cohkit_cfg_preset;

/* Finds `name` in the table p (terminated by a NULL name) and applies its
 * options to cfg, which holds the unit's default, through the unit's option
 * table t. 0; -1 for an unknown name (or an option the table rejects). */
int cohkit_cfg_preset_apply(const cohkit_unit_opt_table *t, const cohkit_cfg_preset *p,
                            void *cfg, const char *name);

/* A unit's configuration functions over its option table PFX_opts, each
 * declared by COHKIT_UNIT_CFG_API in the unit's header: PFX_cfg_preset
 * (PRESETS refining DEFAULT_FN's configuration), PFX_cfg_option and
 * PFX_cfg_args; COHKIT_CFG_OPT_FNS defines the three. */
#define COHKIT_CFG_PRESET_FN(PFX, CFG, PRESETS, DEFAULT_FN)                                       \
    int PFX##_cfg_preset(CFG *c, const char *name)                                               \
    {                                                                                            \
        DEFAULT_FN(c);                                                                           \
        return cohkit_cfg_preset_apply(&PFX##_opts, PRESETS, c, name);                           \
    }
#define COHKIT_CFG_OPTION_FN(PFX, CFG)                                                            \
    int PFX##_cfg_option(CFG *c, const char *name, const char *value, char *err, size_t len)     \
    {                                                                                            \
        return cohkit_unit_opt_apply(&PFX##_opts, c, name, value, err, len);                     \
    }
#define COHKIT_CFG_ARGS_FN(PFX, CFG)                                                              \
    void PFX##_cfg_args(const CFG *c, char *buf, size_t len)                                     \
    {                                                                                            \
        cohkit_unit_opt_args(&PFX##_opts, c, buf, len);                                          \
    }
#define COHKIT_CFG_OPT_FNS(PFX, CFG, PRESETS, DEFAULT_FN)                                         \
    COHKIT_CFG_PRESET_FN(PFX, CFG, PRESETS, DEFAULT_FN)                                          \
    COHKIT_CFG_OPTION_FN(PFX, CFG)                                                               \
    COHKIT_CFG_ARGS_FN(PFX, CFG)

#endif
