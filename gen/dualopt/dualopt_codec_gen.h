/* DualOpt CoDec generators: the coalescer's and de-coalescer's logic
 * (gen/dualopt/dualopt_coal_gen.c, gen/dualopt/dualopt_decoal_gen.c), each
 * emitted inside an open module (cfg: a dualopt_codec_cfg): the body of the unit's
 * own module and of the part module the round trip
 * (gen/dualopt/dualopt_codec_gen.c) instantiates (gen/parts.h). */
#ifndef DUALOPT_CODEC_GEN_H
#define DUALOPT_CODEC_GEN_H

#include "dualopt_coal.h"
#include "emit.h"
#include "selftest.h"

void dualopt_coal_body(emit_file *e, const void *cfg);
void dualopt_decoal_body(emit_file *e, const void *cfg);
/* The coalescer's parameter lines and self-test stimulus rules (gen_unit),
 * also the round trip's. */
void dualopt_coal_params(const void *cfg, char *buf, size_t len);
int dualopt_coal_selftest(const void *cfg, st_rule *r, int max, char *err, size_t len);

#endif
