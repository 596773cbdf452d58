/*
 * Text trace of the DualOpt decision engine (specification 4.7):
 *   LR | LW | RR <hit 0|1> <mask> | RW [<hit>] | KERNEL | RESET
 * output: DECIDE <n> NONE|COALESCE|CACHE <total> <remote> <reads> <words> <hits>
 *         (n: 1-based index of the access, KERNEL/RESET not counted), and at
 *         the end, if undecided: UNDECIDED <total> <remote> <reads> <words> <hits>.
 */
#ifndef DUALOPT_DE_TRACE_H
#define DUALOPT_DE_TRACE_H

#include <stdio.h>

#include "dualopt_de.h"

COHKIT_BEGIN_DECLS

enum { DUALOPT_DE_T_KERNEL = 4, DUALOPT_DE_T_RESET = 5 };

typedef struct {
    unsigned op;      /* dualopt_de_kind, DUALOPT_DE_T_KERNEL or DUALOPT_DE_T_RESET */
    unsigned hit;
    uint64_t mask;
    unsigned lineno;
} dualopt_de_trec;

/* Reads a whole trace. 0, or -1 with "line N: reason" in err. */
int dualopt_de_trace_read(FILE *f, const dualopt_de_cfg *cfg, dualopt_de_trec **recs, size_t *n, char *err, size_t len);
void dualopt_de_trace_print_decide(FILE *f, uint64_t n, unsigned mode, const dualopt_de_counts *c);
void dualopt_de_trace_print_undecided(FILE *f, const dualopt_de_counts *c);

COHKIT_END_DECLS

#endif
