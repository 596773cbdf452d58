/*
 * Composition with Verilated blocks (docs/composition.md): the RTL side of
 * cmodel/compose.h.
 *
 * cmp_rtl is a block backend that runs a block by its Verilated module
 * (tb/dut.h, found in the family's dut table by the block's configuration,
 * as ls_dut_find does) when the block's unit is substituted, and by its
 * timing shell otherwise: one unit at a time, a list of units, or all.
 *
 * cmp_lockstep runs two compositions of a family side by side, the
 * reference on timing shells and the other with RTL substituted, compares
 * every port of every block every cycle, and on the first mismatch can
 * write the stimulus of every block and a waveform of every Verilated
 * block over the failing window. A stuck output bit can be injected into
 * any block of the substituted composition.
 */
#ifndef COMPOSE_RTL_H
#define COMPOSE_RTL_H

#include "compose.h"
#include "dut.h"

#define CMP_RTL_UNITS_MAX 8

typedef struct {
    const dut_ops *const *duts;   /* the family's table                     */
    /* substituted units by name (NULL-terminated); units[0] NULL: all */
    const char *units[CMP_RTL_UNITS_MAX + 1];
    int all;
    int check_cfg;                /* the DUT's configuration must name the
                                     block's (unit cfg_name)               */
} cmp_rtl;

/* dut table, units: "all", or one unit name; more with cmp_rtl_add. */
void cmp_rtl_init(cmp_rtl *r, const dut_ops *const *duts, const char *units);
/* Substitutes one more unit. 0, or -1 (too many). */
int cmp_rtl_add(cmp_rtl *r, const char *unit);
/* 1 when blocks of unit `unit` run as RTL (an error without a table). */
int cmp_rtl_substitutes(const cmp_rtl *r, const char *unit);
/* The backend (ctx = r; r must outlive every block opened on it). */
cmp_backend cmp_rtl_backend(cmp_rtl *r);
/* The Verilated module of a block, or NULL (a timing shell). */
const dut_ops *cmp_rtl_dut(const cmp_block *b);
/* Starts a waveform of a Verilated block. 0, or -1. */
int cmp_rtl_trace_open(cmp_block *b, const char *path);
void cmp_rtl_trace_close(cmp_block *b);

/* ----------------------------------------------------- side by side -- */

/* A family's composition as the lockstep runner drives it. */
typedef struct {
    /* a new system on backend be, or NULL with a reason */
    void *(*make)(void *arg, const cmp_backend *be, char *err, size_t len);
    int (*cycle)(void *sys);               /* one cycle; 1: done           */
    int (*stuck)(void *sys);               /* 1: give up                   */
    const cmp_sys *(*blocks)(const void *sys);
    int (*in_reset)(const void *sys);      /* 1: outputs not compared      */
    void (*free)(void *sys);
} cmp_family;

typedef struct {
    const char *block, *port;     /* a stuck output bit: block name, port  */
    unsigned bit, value;
    uint64_t from;                /* from the block's cycle `from` on      */
} cmp_stuck;

typedef struct {
    cmp_rtl rtl;                  /* substitution; rtl.duts NULL: only the
                                     reference runs                        */
    cmp_stuck stuck;              /* stuck.block NULL: none                */
    const char *la, *lb;          /* names in messages ("C composition")   */
    const char *fail_prefix;      /* on a mismatch: PREFIX.stim and
                                     PREFIX.<block>.vcd; NULL: none        */
    unsigned window;              /* cycles of the failing window          */
    char buf[256];                /* the option strings' copies            */
} cmp_lockstep_opts;

void cmp_lockstep_defaults(cmp_lockstep_opts *o);
/* The options of a composition bench:
 *   --rtl all|UNIT[,UNIT...]          the units run as RTL (default all)
 *   --stuck BLOCK:PORT:BIT:V[@CYCLE]  an output bit of a block stuck at V
 *   --fail-prefix P                   on a mismatch: P.stim, P.<block>.vcd
 * 1: not one of them; 0: taken; -1: a bad value (a reason in err). */
int cmp_lockstep_option(cmp_lockstep_opts *o, const char *name, const char *val, char *err,
                        size_t len);
/* Their --help lines. */
void cmp_lockstep_help(FILE *f);
/* ---------------------------------------------------- family benches -- */

/* What a family bench's hook runs for argv: 2 its system (`flag` given), 1
 * every unit then the system (no option but --seed N and --cycles N), 0
 * neither (a unit bench). */
int cmp_bench_mode(int argc, char **argv, const char *flag);
/* Every unit of `family` (committed RTL and a timing shell) in lockstep
 * through run_unit, at each of configs (NULL-terminated; NULL: the unit's
 * default, no --config), "== UNIT [CONFIG]" before each. 0, 1 (a unit
 * failed) or 2 (bad input). */
int cmp_bench_units(const char *family, char *argv0, unsigned long long cycles,
                    unsigned long long seed, const char *const *configs,
                    int (*run_unit)(int argc, char **argv));

/* Splits a fault option "A:B:N[@C]" into a, b and n (each at most its
 * size - 1 characters) and *c (after '@', or NULL). 0, or -1 when it is not
 * of that form. The caller parses the numbers. */
int cmp_spec_split(const char *val, char *a, size_t alen, char *b, size_t blen, char *n,
                   size_t nlen, const char **c);

typedef struct {
    void *ref, *sub;              /* the systems after the run             */
    uint64_t cycles;              /* cycles run                            */
    int done, mismatch, stuck;
    char msg[512];                /* the first mismatch or setup error     */
    double seconds;
} cmp_lockstep_res;

/* Runs the reference (timing shells) and, with o->rtl.duts, the
 * substituted composition until done, stuck or the first mismatch. 0, or
 * -1 with a setup error in r->msg. Free with cmp_lockstep_free. */
int cmp_lockstep(const cmp_family *f, void *arg, const cmp_lockstep_opts *o,
                 cmp_lockstep_res *r);
void cmp_lockstep_free(const cmp_family *f, cmp_lockstep_res *r);

/* The stimulus of every block of a system for one cycle: "CYCLE BLOCK
 * hex..." (one hex value per input port, rst_ni first). */
void cmp_stim_put(FILE *f, const cmp_sys *s, uint64_t cyc);

#endif
