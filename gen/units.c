/* gen_registry[]: the generator side of every unit of the registry
 * (cmodel/units.c). */
#include <string.h>

#include "gen_unit.h"

#define UNIT(model, gen) extern const gen_unit gen;
#include "unit_list.def"
#undef UNIT

#define UNIT(model, gen) &gen,
const gen_unit *const gen_registry[] = {
#include "unit_list.def"
    NULL,
};
#undef UNIT

const gen_unit *gen_find(const char *unit)
{
    size_t i;
    for (i = 0; gen_registry[i] != NULL; i++)
        if (strcmp(gen_registry[i]->unit, unit) == 0)
            return gen_registry[i];
    return NULL;
}
