/* DualOpt CoDec generators: the coalescer's and de-coalescer's logic, each
 * emitted inside an open module (gen/dualopt/dualopt_coal_gen.c,
 * gen/dualopt/dualopt_decoal_gen.c), so that the round-trip wrapper
 * (gen/dualopt/dualopt_codec_gen.c) holds both in one module. */
#ifndef DUALOPT_CODEC_GEN_H
#define DUALOPT_CODEC_GEN_H

#include "dualopt_coal.h"
#include "emit.h"

void dualopt_coal_body(emit_file *e, const codec_cfg *c);
void dualopt_decoal_body(emit_file *e, const codec_cfg *c);

#endif
