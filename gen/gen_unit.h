/*
 * The generator's side of a registry unit (cmodel/units.def, second column):
 * the Verilog emitter, the resolved-parameter lines of generated-file headers
 * and the --report text. Everything else about a unit (configuration, port
 * table, model) is its cohkit_unit_desc (cmodel/unit.h).
 */
#ifndef GEN_UNIT_H
#define GEN_UNIT_H

#include <stdio.h>
#include <string.h>

#include "ports.h"
#include "selftest.h"

/* The opening of a callback (emit, params, report) of a unit whose model
 * derives its widths in GEOM_of(): `const CFG *c = cfg;` and `GEOM g;`
 * filled from c. */
#define GEN_CFG_GEOM(CFG, GEOM)                                                                  \
    const CFG *c = cfg;                                                                          \
    GEOM g;                                                                                      \
    GEOM##_of(c, &g)

/* An emitter's file-local context x (its gctx) at the start of its emit
 * callback: zeroed, with the configuration CFG as x.c and the derived
 * widths GEOM_of() gives as x.g. Its stage functions take the emit_file
 * and the context: emit_stage(e, &x). */
#define GEN_CTX_INIT(x, CFG, GEOM)                                                               \
    do {                                                                                         \
        memset(&(x), 0, sizeof(x));                                                              \
        (x).c = (CFG);                                                                           \
        GEOM##_of((x).c, &(x).g);                                                                \
    } while (0)

typedef struct {
    const char *unit; /* cohkit_unit_desc.name                                     */
    /* The module; b holds the port table, module name, args and params. */
    void (*emit)(emit_file *e, const void *cfg, const block_desc *b);
    /* Resolved parameters, one group per line. */
    void (*params)(const void *cfg, char *buf, size_t len);
    /* Layout / cost report of a configuration (text or JSON). */
    void (*report)(FILE *f, const void *cfg, int json);
    /* Rules for the payloads of the FPGA self-test stimulus (gen/selftest.h),
     * or NULL: random payloads. */
    st_rules_fn selftest;
} gen_unit;

/* Parallel to cohkit_unit_registry[]; NULL-terminated. */
extern const gen_unit *const gen_registry[];
const gen_unit *gen_find(const char *unit);

#endif
