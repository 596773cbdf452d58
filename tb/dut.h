/*
 * Interface of a Verilated block as the benches see it. Each generated shim
 * (<module>_shim.cpp, emitted from the block's port table) defines one
 * `const dut_ops <module>_ops`. Port values travel as uint64_t arrays in
 * port-table order (cmodel/unit.h: a port of W bits takes ceil(W/64) words):
 * inputs start with rst_ni; clk_i is driven by tick().
 */
#ifndef DUT_H
#define DUT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dut_ops {
    const char *unit;    /* registry unit (cohkit_unit_desc.name)                  */
    const char *family;  /* unit family (cohkit_unit_desc.family)                  */
    const char *module;  /* Verilog module name                             */
    const char *args;    /* generator options of the configuration          */
    unsigned n_in, n_out;            /* ports (inputs with rst_ni)          */
    unsigned in_words, out_words;    /* uint64_t words of the value arrays  */
    const char *const *in_names;
    const unsigned *in_widths;
    const char *const *out_names;
    const unsigned *out_widths;
    void *(*create)(unsigned seed);  /* seed randomizes unreset state       */
    void (*destroy)(void *h);
    /* clk low, apply inputs, settle; returns the outputs. */
    void (*eval)(void *h, const uint64_t *in, uint64_t *out);
    /* rising clock edge. */
    void (*tick)(void *h);
    int (*trace_open)(void *h, const char *vcd_path);
    void (*trace_close)(void *h);
} dut_ops;

#ifdef __cplusplus
}
#endif

#endif
