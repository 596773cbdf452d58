/*
 * Emit helpers every unit's emitter shares (the generator's primitive
 * library): signal declarations, slices of flat vectors, one-hot AND-OR
 * multiplexers, log2. Each returns or prints exactly the text the units
 * emitted before they were shared, so the committed RTL is unchanged.
 *
 * An emitter keeps its resolved geometry in a file-local `gctx` (the
 * emitter context: its emit_file, its configuration, the model's derived
 * widths from <unit>_geom) and passes it to its stage functions.
 */
#ifndef PRIM_H
#define PRIM_H

#include <stddef.h>

#include "emit.h"
#include "ports.h"

/* A module's opening: the do-not-edit header, `default_nettype none, the
 * port list (ports_verilog_module), then the body's indentation and a blank
 * line. */
void prim_module_begin(emit_file *e, const block_desc *b);
/* Its closing: endmodule and `default_nettype wire. */
void prim_module_end(emit_file *e);

/* floor(log2(v)), 0 for v <= 1. */
unsigned prim_log2_floor(unsigned v);
/* ceil(log2(v)): the bits that count 0..v-1; 0 for v <= 1. */
unsigned prim_clog2(unsigned v);

/* " [w-1:0]" for w > 1, "" for one bit (buf holds at least 24 chars). */
const char *prim_range(char *buf, size_t len, unsigned w);
/* "logic NAMES;" (w <= 1) or "logic [w-1:0] NAMES;". */
void prim_decl(emit_file *e, unsigned w, const char *names);
/* "logic [w-1:0] NAMES;" even at w = 1 (a vector indexed bit by bit). */
void prim_declv(emit_file *e, unsigned w, const char *names);

/* "[hi:lo]" ("[lo]" at w = 1) of field i of width w, at offset off, in a
 * flat vector of fields of `stride` bits. */
const char *prim_field(char *buf, size_t len, unsigned i, unsigned stride, unsigned off,
                       unsigned w);
/* AND-OR multiplexer: dst = the field (prim_field) of vec selected by the
 * one-hot n-bit sel, one term per line. */
void prim_and_or(emit_file *e, const char *dst, const char *sel, unsigned n, const char *vec,
                 unsigned stride, unsigned off, unsigned w);


/* An inferred synchronous RAM (Yosys $mem, iCE40 block RAM): one write
 * port and one registered read port on clk_i. waddr/raddr NULL: a plain
 * register (a one-word store). */
typedef struct {
    const char *mem;                /* the array                        */
    const char *we, *waddr, *wdata; /* write port                       */
    const char *re, *rdata, *raddr; /* registered read port             */
    int read_first;                 /* the read line before the write's */
} prim_ram;
/* "logic [w-1:0] MEM [0:depth-1];" */
void prim_ram_decl(emit_file *e, const char *mem, unsigned w, unsigned depth);
/* The always_ff block of the RAM's two ports. */
void prim_ram_ports(emit_file *e, const prim_ram *r);

#endif
