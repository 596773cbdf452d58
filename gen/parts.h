/*
 * Hierarchy of composite units. A composite unit instantiates its parts'
 * modules instead of repeating their logic: each part is emitted by the
 * part's own emitter at the composite's configuration into its own file,
 * module and file named <composite>_<suffix> (one module per file, so that
 * Verilator -y, Icarus -y and Yosys hierarchy -libdir find it by name),
 * written and committed with the composite's file.
 */
#ifndef PARTS_H
#define PARTS_H

#include <stddef.h>

#include "ports.h"

#define PARTS_MAX 4

typedef struct {
    const char *suffix;  /* module <composite>_<suffix>, file <module>.sv   */
    const char *what;    /* the header's first line                         */
    /* Port table at the composite's configuration: the registry unit
     * `unit`'s table, or (unit NULL) ports(). */
    const char *unit;
    int (*ports)(const void *cfg, cohkit_port *p, int max);
    void (*body)(emit_file *e, const void *cfg); /* the logic, in the module */
} gen_part;

typedef struct {
    const char *unit;         /* the composite                             */
    const gen_part *parts;    /* its parts, ended by a NULL suffix          */
} gen_parts;

/* The parts of a composite unit, or NULL. */
const gen_part *parts_of(const char *unit);
/* A part's block: its port table at cfg, the composite's args and params,
 * module <composite>_<suffix> (written to name). 0, or -1. */
int part_block(block_desc *p, char *name, size_t len, const block_desc *parent,
               const gen_part *part, const void *cfg);
/* Opens and writes the part files of the unit into dir (f[0..max)).
 * Returns their count (0: not a composite), or -1 with a reason in err
 * (the files opened are aborted). */
int parts_write(const char *unit, const void *cfg, const block_desc *parent, const char *dir,
                emit_file *f, int max, char *err, size_t len);
/* A module: its port list, the body (indented), endmodule. */
void part_module(emit_file *e, const block_desc *b, void (*body)(emit_file *, const void *),
                 const void *cfg);
/* An instance of part p named inst: clk_i and rst_ni, then every port of
 * the table connected to conn(port) (NULL: the signal of the same name). */
void part_instance(emit_file *e, const block_desc *p, const char *inst,
                   const char *(*conn)(const char *port, char *buf, size_t len));

#endif
