/*
 * Port tables and everything emitted from them: the Verilog port list, the C
 * port header, the Verilator shim (tb/dut.h interface) and the Icarus replay
 * bench. A block family supplies its table; nothing here knows a family.
 */
#ifndef PORTS_H
#define PORTS_H

#include "emit.h"
#include "unit.h"

#define PORTS_MAX COHKIT_UNIT_PORTS_MAX

typedef struct {
    const char *unit;       /* registry name (cohkit_unit_desc.name)          */
    const char *family;     /* cohkit_unit_desc.family                        */
    const char *module;     /* Verilog module name                     */
    const char *args;       /* options that reproduce the configuration */
    const char *params;     /* resolved parameters, one per line         */
    const char *model;      /* model functions the RTL must match        */
    cohkit_port ports[PORTS_MAX];/* clk_i and rst_ni are implicit and first  */
    int n;
} block_desc;

#define COHGEN_VERSION "0.1.0"

/* Do-not-edit header, with `lead` before every line ("// ", " * "). */
void ports_file_header(emit_file *e, const block_desc *b, const char *lead);
/* "module NAME (" through ");" with clk_i, rst_ni and the table. */
void ports_verilog_module(emit_file *e, const block_desc *b);
void ports_c_header(emit_file *e, const block_desc *b);
void ports_shim(emit_file *e, const block_desc *b);
void ports_iverilog_tb(emit_file *e, const block_desc *b);

#endif
