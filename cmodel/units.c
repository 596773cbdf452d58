/*
 * cohkit_unit_registry[] and cohkit_unit_tools[]: every unit and model-only tool. Each
 * family lists its own in cmodel/<family>/units.def, one line each, in
 * listing order; the build joins the lists, families in name order, into
 * unit_list.def (build/include/). See docs/adding-a-unit.md.
 *   UNIT(model description in cmodel/, generator description in gen/):
 *     a generated unit; this file builds cohkit_unit_registry[] from the first
 *     column, gen/units.c the generator's table from the second.
 *   TOOL(model description): a model-only trace tool (a system model, a
 *     checker) with no RTL and no timing shell: listed in cohkit_unit_tools[],
 *     `cohmodel <name>` runs it, and nothing that iterates over
 *     cohkit_unit_registry[] (cohgen, benches, sweeps, sanitizers) sees it.
 */
#include "unit.h"

#define UNIT(model, gen) extern const cohkit_unit_desc model;
#include "unit_list.def"
#undef UNIT

#define UNIT(model, gen) &model,
const cohkit_unit_desc *const cohkit_unit_registry[] = {
#include "unit_list.def"
    NULL,
};
#undef UNIT

#undef TOOL /* unit_list.def defined it empty for the unit lists above */
#define UNIT(model, gen)
#define TOOL(model) extern const cohkit_unit_desc model;
#include "unit_list.def"
#undef TOOL

#define TOOL(model) &model,
const cohkit_unit_desc *const cohkit_unit_tools[] = {
#include "unit_list.def"
    NULL,
};
#undef TOOL
#undef UNIT
