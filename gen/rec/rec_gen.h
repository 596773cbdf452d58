/* REC directory generator (gen/rec/rec_gen.c). */
#ifndef REC_GEN_H
#define REC_GEN_H

#include <stdio.h>

#include "ports.h"
#include "rec.h"

/* Block description (port table, reproducing options, parameters); args and
 * params are caller buffers the description points into. */
void rec_block_desc(const rec_cfg *c, const char *module, block_desc *b, char *args,
                    size_t args_len, char *params, size_t params_len);
/* The directory module. */
void rec_emit_verilog(emit_file *e, const rec_cfg *c, const block_desc *b);
/* Entry layout report (text or JSON). */
void rec_report(FILE *f, const rec_cfg *c, int json);

#endif
