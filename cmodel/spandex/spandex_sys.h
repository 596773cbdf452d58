/*
 * The composed Spandex system (spec 9.4, 9.5; `cohmodel spandex-system`):
 * the LLC functional core, memory answered inside the model (the `M`
 * endpoint of the log), one translation unit per device (spandex_tu.h),
 * the set of messages in flight and a scheduler that delivers them one at
 * a time (`fifo`: oldest first; `random`: a seeded choice among the oldest
 * message of every source/destination pair). The program and the S/D/V/C/E
 * log follow spec 9.4 and 9.5; docs/spandex.md documents the readings.
 */
#ifndef SPANDEX_SYS_H
#define SPANDEX_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spandex_llc.h"
#include "spandex_tu.h"

COHKIT_BEGIN_DECLS

/* A fault injected into the model (`--fault KIND[:N]`, the N-th message of
 * the kind, 1 by default), for the checker to catch: an Ack or RspRvkO
 * lost in the network (the answer a transaction waits for), a RspO lost
 * (an ownership transfer that never arrives), a RspV whose words carry
 * their initial values (stale data). */
typedef enum {
    SPANDEX_SYS_FAULT_NONE,
    SPANDEX_SYS_FAULT_DROP_ACK,
    SPANDEX_SYS_FAULT_DROP_RSPO,
    SPANDEX_SYS_FAULT_STALE_RSPV
} spandex_sys_fault;

typedef struct {
    spandex_llc_cfg llc;     /* devs follows the devices (at least 2)       */
    unsigned ndev;           /* devices given by --dev                      */
    uint64_t given;          /* bit d: --dev d seen                         */
    unsigned char kind[SPANDEX_LLC_DEVS_MAX]; /* spandex_tu_kind per device */
    unsigned nack_limit;     /* --nack-limit (1)                            */
    unsigned wb;             /* --wb: GPU write-buffer lines (8)            */
    int rmw_wtdata;          /* --denovo-rmw wtdata                         */
    int sched_random;        /* --sched random                              */
    uint64_t seed;           /* --seed (1)                                  */
    unsigned fault;          /* --fault: spandex_sys_fault                  */
    uint64_t fault_at;       /* the N-th message of the fault's kind (1)    */
    int extra_denovo;        /* --extra-words denovo: llc.extra is every    */
                             /* DeNovo device (set by the check)            */
} spandex_sys_cfg;

void spandex_sys_cfg_default(spandex_sys_cfg *c);
/* The named system presets: the configurations of the paper's Table V on
 * four devices, 0-1 the CPUs and 2-3 the GPUs (spec 12): smg (MESI CPUs,
 * GPU-coherence GPUs), smd (MESI CPUs, DeNovo GPUs), sdg (DeNovo CPUs with
 * ReqWT+data atomics, GPU-coherence GPUs), sdd (DeNovo CPUs and GPUs),
 * and the line baseline standing in for the hierarchical HMG and HMD:
 * hmg_line and hmd_line (smg and smd on the LLC's --gran line, every
 * device asking whole lines); "default" gives no device. */
extern const char *const spandex_sys_preset_names[];
/* The options ("--name value ...") of preset `name`, or NULL. */
const char *spandex_sys_preset_opts(const char *name);
/* Applies the options of a preset string through opt (spandex-system,
 * spandex-prog and spandex-check take the same presets): 0, or -1 for an
 * unknown preset or a refused option. */
int spandex_sys_preset_apply(const char *name, void *cfg,
                             int (*opt)(void *cfg, const char *name, const char *value, char *err, size_t len));
/* One option, name without dashes: 0; 1 if not an option; -1 with a
 * reason in err. */
int spandex_sys_cfg_option(spandex_sys_cfg *c, const char *name, const char *value, char *err, size_t len);
/* Validates and completes the LLC configuration: 0, or -1 with a reason. */
int spandex_sys_cfg_check(spandex_sys_cfg *c, char *err, size_t len);

/* Reads a program (spec 9.4): *ops (malloc, free it) and *n; 0, or -1
 * with "line N: reason" in err. */
int spandex_sys_prog_read(const spandex_sys_cfg *c, FILE *in, spandex_sop **ops, size_t *n, char *err,
                          size_t len);
/* Runs a program and writes the log to out: 0; 1 after an E line; 2 with
 * a reason in err when out of memory. */
int spandex_sys_run(const spandex_sys_cfg *c, const spandex_sop *ops, size_t n, FILE *out, char *err,
                    size_t len);
/* The deliveries bound of the watchdog (SYS5): 4 x N x (N + W). */
uint64_t spandex_sys_bound(const spandex_sys_cfg *c);

COHKIT_END_DECLS

#endif
