/*
 * Emit helpers every unit's emitter shares (the generator's primitive
 * library): the module frame and its stages, signal declarations, slices of
 * flat vectors, one-hot AND-OR multiplexers, log2, inferred RAMs, register
 * blocks, next-state hold and load lines, register outputs, and the formal
 * block's environment. Each returns or prints exactly the text the units
 * emitted before they were shared, so the committed RTL is unchanged.
 *
 * An emitter keeps its resolved geometry in a file-local `gctx` (the
 * emitter context: its configuration, the model's derived widths from
 * <unit>_geom) and passes it, beside the emit_file, to its stage functions.
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

/* A module body emitted stage by stage: calls the stage functions listed
 * after the context x (each a void (emit_file *, const CTX *)) in order,
 * with the emit_file e and x. */
#define PRIM_STAGES(e, CTX, x, ...)                                                                \
    do {                                                                                           \
        static void (*const prim_stages_[])(emit_file *, const CTX *) = {__VA_ARGS__};             \
        size_t prim_stage_;                                                                        \
        for (prim_stage_ = 0; prim_stage_ < sizeof prim_stages_ / sizeof prim_stages_[0];          \
             prim_stage_++)                                                                        \
            prim_stages_[prim_stage_](e, x);                                                       \
    } while (0)
/* The module of block b: its opening, the stages (PRIM_STAGES), its
 * closing. */
#define PRIM_MODULE(e, b, CTX, x, ...)                                                             \
    do {                                                                                           \
        prim_module_begin(e, b);                                                                   \
        PRIM_STAGES(e, CTX, x, __VA_ARGS__);                                                       \
        prim_module_end(e);                                                                        \
    } while (0)

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
 * register (a one-word store); re NULL: the read port reads every cycle. */
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

/* The hold lines of a next-state block: "NAME_d = NAME_q;" for every name
 * of the space-separated list printed from fmt (a name a configuration may
 * lack: "%s" and " name" or ""), at the current indentation. */
void prim_hold(emit_file *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Output ports driven by registers: "assign NAME_o = NAME_q;" for every
 * name of the space-separated list. */
void prim_outputs(emit_file *e, const char *names);

/* A field of a register stage (prim_stage): register NAME (without _q /
 * _d), the value it takes when the stage loads, and whether this
 * configuration has it (0: no line). */
typedef struct {
    const char *name, *load;
    int on;
} prim_sfield;
/* The next-state lines of a register stage with a valid bit, inside an
 * always block: "VALID_d = HOLD;" (HOLD NULL: VALID_q), "F_d = F_q;" for
 * every field, "if (DRAIN) VALID_d = 1'b0;" (DRAIN non-NULL), then
 * "if (LOAD) begin", "  VALID_d = 1'b1;" and "  F_d = LOAD;" for every
 * field. The load branch stays open: the caller adds what else it does and
 * its "end". The fields end at a NULL name. */
void prim_stage(emit_file *e, const char *valid, const char *hold, const char *drain,
                const char *load, const prim_sfield *f);

/* An output register stage on valid/ready streams: input IN (IN_valid_i,
 * IN_ready_o) loads the register OUT_valid and the fields f when the stage
 * is empty or drains this cycle (OUT_ready_i): "logic IN_fire;", the
 * handshake, the always_comb of the next state (prim_stage) and the output
 * ports (prim_outputs: OUT_valid and every field). */
void prim_out_stage(emit_file *e, const char *in, const char *out, const prim_sfield *f);

/* The set store of a pipelined unit that reads a set in the cycle it
 * accepts a request (req_acc: set req_idx into rdata_q) and writes the set
 * back from mem_wdata (mem_we): with one set the register mem_q; else the
 * inferred RAM mem_q of SETS words of W bits, its comment lines NOTE (NULL
 * at the end) first, written at mem_waddr (IW bits) = CLR ? CLR_IDX :
 * s2_idx (the clearing sweep's index, else stage 2's set). */
void prim_set_store(emit_file *e, unsigned w, unsigned sets, unsigned iw, const char *clr,
                    const char *clr_idx, const char *const *note);

/* The opening of a unit's `ifdef FORMAL block (formal properties, make
 * formal): the line, the comment lines printed from fmt (one line per
 * '\n'-separated part; fmt NULL: none) and "logic f_past_q = 1'b0;", the
 * register that is 0 in the first cycle only. */
void prim_formal_begin(emit_file *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The always block on clk_i that sets f_past_q and samples what the
 * properties compare with the previous cycle: "  S;" for every string of
 * the NULL-terminated list ("f_line_q <= req_line_o"); with none, the
 * one-line "always @(posedge clk_i) f_past_q <= 1'b1;". */
void prim_formal_samples(emit_file *e, const char *const *s);
/* The opening of the properties' block, "always @(*) begin", with the
 * assumption that reset is asserted in the first cycle only; NOTE (or
 * NULL) a comment line above it, or (after) at the end of its line. */
void prim_formal_assume(emit_file *e, const char *note, int after);

/* The registers of one always_ff block on clk_i with the asynchronous
 * active-low reset rst_ni: "NAME_q <= RESET;" in the reset branch and
 * "NAME_q <= NAME_d;" in the other, one line each, in the order added. */
#define PRIM_REGS_MAX 128
typedef struct {
    unsigned n;
    size_t used;
    const char *name[PRIM_REGS_MAX];
    const char *reset[PRIM_REGS_MAX];
    char pool[8192];
} prim_regs;
/* Adds register NAME (without _q / _d) with the reset value printed from
 * fmt. */
void prim_reg(prim_regs *l, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Adds the registers of a list "NAME=RESET NAME=RESET ..." (separated by
 * spaces). */
void prim_regs_list(prim_regs *l, const char *spec);
/* The block's lines, or its parts for a block with more in a branch:
 * prim_regs_open (always_ff, if (!rst_ni) begin), prim_regs_resets,
 * prim_regs_else (end else begin), prim_regs_updates, prim_regs_close. */
void prim_regs_block(emit_file *e, const prim_regs *l);
void prim_regs_open(emit_file *e);
/* prim_regs_open with the asynchronous active-low reset RST. */
void prim_regs_open_rst(emit_file *e, const char *rst);
void prim_regs_resets(emit_file *e, const prim_regs *l);
void prim_regs_else(emit_file *e);
void prim_regs_updates(emit_file *e, const prim_regs *l);
void prim_regs_close(emit_file *e);
/* The hold line of every register of the list (prim_hold). */
void prim_regs_holds(emit_file *e, const prim_regs *l);

#endif
