/* unit_registry[]: every unit of cmodel/units.def. */
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
