/* unit_registry[] and unit_tools[]: every unit and model-only tool of
 * cmodel/units.def. */
#include "unit.h"

#define UNIT(model, gen) extern const unit_desc model;
#include "units.def"
#undef UNIT

#define UNIT(model, gen) &model,
const unit_desc *const unit_registry[] = {
#include "units.def"
    NULL,
};
#undef UNIT

#define UNIT(model, gen)
#define TOOL(model) extern const unit_desc model;
#include "units.def"
#undef TOOL

#define TOOL(model) &model,
const unit_desc *const unit_tools[] = {
#include "units.def"
    NULL,
};
#undef TOOL
#undef UNIT
