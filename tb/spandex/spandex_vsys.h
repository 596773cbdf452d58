/*
 * Spandex system at cycle level (docs/spandex.md "Verilated system"): the
 * LLC is a port-level block (cmodel/compose.h), its timing shell alone or
 * the committed Verilated spandex_llc_default run side by side with its
 * shell (every port compared every cycle, tb/compose_rtl.h); the devices
 * are the translation units of cmodel/spandex/spandex_tu.c behind a small
 * device interface (spvsys_dev_ops below), or blocks of unit spandex-tu
 * (shell, or the Verilated spandex_tu_default for a GPU device,
 * spandex_tu_denovo for a DeNovo device and spandex_tu_mesi for a MESI
 * device beside it) with an L1 of the device's kind on their cache ports;
 * memory answers MemRd and MemWr at
 * the LLC's memory ports after a latency.
 *
 * Every message a device sends enters a queue towards its destination with
 * the network latency: requests queue for the LLC's req port, Ack and
 * RspRvkO for its rsp port (valid/ready: the LLC back-pressures them), the
 * messages between devices and the LLC's forwards and responses queue at
 * the destination device. The program is spec 9.4's (read by
 * spandex_sys_prog_read) with STEP n read as n cycles and DRAIN as "until
 * nothing is in flight"; the run writes the S/D/V/C/E log of 9.4, which
 * `cohmodel spandex-check` judges (spandex_check_sys.h).
 */
#ifndef SPANDEX_VSYS_H
#define SPANDEX_VSYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dut.h"
#include "spandex_sys.h"

/* ------------------------------------------------- the device side -- */

/* A device of the system, seen from the network: what a device block must
 * offer to plug in (a C translation unit, or a spandex-tu block with its
 * GPU, DeNovo or MESI L1: spandex_vsys_tu.c, opened in spandex_vsys.c's
 * dev_open and added to the system's cmp_sys so that the lockstep compares
 * its ports too). Every cycle the
 * system calls drive() for every device before the blocks are evaluated
 * and tick() after; in tick() the device takes the messages offered to it
 * (spvsys_peek / spvsys_take: the oldest message whose latency elapsed, one
 * at a time, as a valid/ready port would) and sends through the
 * environment (spandex_tu_env: send, issued, done, fail) the system gives
 * it at open. */
typedef struct spvsys spvsys;
typedef struct {
    /* inputs of the device's block from the system's registered state */
    void (*drive)(void *d, spvsys *s, unsigned id);
    /* the cycle's handshakes: messages taken, messages sent */
    void (*tick)(void *d, spvsys *s, unsigned id);
    /* program operation ops[op] of this device queued */
    void (*push)(void *d, size_t op);
    /* 1 while operations are queued or requests open */
    int (*busy)(const void *d);
    void (*free)(void *d);
} spvsys_dev_ops;

/* The oldest message for device id whose latency elapsed: 1 (src: a device
 * or SPANDEX_TU_LLC, *m), or 0. */
int spvsys_peek(const spvsys *s, unsigned id, unsigned *src, spandex_msg *m);
/* Takes that message (its D line is logged). */
void spvsys_take(spvsys *s, unsigned id);

/* A GPU, DeNovo or MESI device (the kind of b's configuration) as block b
 * of unit spandex-tu (the system opens it: its timing shell or the
 * Verilated spandex_tu_default, spandex_tu_denovo or spandex_tu_mesi) with
 * the L1 of its kind of spandex_vsys_tu.c on its cache port, reporting
 * through env as a C TU
 * does: the device for spvsys_tu_ops, or NULL with a reason. */
struct cmp_block;
void *spvsys_tu_new(struct cmp_block *b, unsigned id, const spandex_sop *ops, size_t nops,
                    const spandex_tu_env *env, char *err, size_t len);
extern const spvsys_dev_ops spvsys_tu_ops;

/* --------------------------------------------------------- the run -- */

#define SPVSYS_RTL_LLC 1   /* spvsys_opts.rtl: the Verilated LLC          */
#define SPVSYS_RTL_TU 2    /* the Verilated spandex_tu_default of every
                              GPU device, spandex_tu_denovo of every
                              DeNovo device and spandex_tu_mesi of every
                              MESI device (implies tu_block)              */

typedef struct {
    int rtl;               /* SPVSYS_RTL_* bits: the blocks run Verilated
                              (side by side with their shells when
                              port_cmp); 0: shells                        */
    int tu_block;          /* 1: the devices are spandex-tu blocks (timing
                              shells unless SPVSYS_RTL_TU; configuration
                              default, denovo or mesi) with an L1 of their
                              kind; 0: C TUs                              */
    int port_cmp;          /* 1: every port compared every cycle          */
    int llc_line;          /* 1: the LLC's committed `line` configuration  */
                           /* (the line baseline), else `default`          */
    spandex_sys_cfg sys;   /* devices and TU options (--dev, --nack-limit,
                              --wb, --denovo-rmw); the LLC is the block's */
    unsigned net_lat;      /* cycles from a send to the destination's port */
    unsigned mem_lat;      /* cycles from a MemRd to its data             */
    unsigned fwdv_delay;   /* more cycles for a FwdReqV (reordered after a
                              later downgrade: the Nack case)             */
    uint64_t max_cycles;   /* the run ends there with an E line           */
    uint64_t watchdog;     /* cycles without progress while busy          */
    /* a stuck output bit of a Verilated block (tests, --stuck): block
     * "llc" (NULL) or "tuN" (device N's spandex-tu); port NULL: none */
    const char *stuck_block, *stuck_port;
    unsigned stuck_bit, stuck_val;
    uint64_t stuck_from;
} spvsys_opts;

/* Defaults: shells, two GPU and two DeNovo devices (0 denovo, 1 gpu, ...),
 * --net-lat 2, --mem-lat 10, watchdog 10000 cycles. */
void spvsys_opts_default(spvsys_opts *o);
/* Devices from a list "gpu,denovo,..." (IDs 0..N-1). 0, or -1 with a
 * reason. */
int spvsys_opts_devs(spvsys_opts *o, const char *list, char *err, size_t len);

typedef struct {
    char *log;             /* the S/D/V/C/E log (malloc'ed)               */
    char *check;           /* the checker's output (PASS ... or E ...)    */
    char *times;           /* per completed operation: "T dev op# kind
                              issued C done C latency N" (cycles)         */
    int pass;              /* the checker's verdict: 1 PASS               */
    int e_line;            /* the run itself wrote an E line              */
    uint64_t cycles, messages, ops;
    double seconds;        /* CPU seconds of the cycles (both systems with
                              the port comparison; not the checker)       */
    int mismatch;          /* the port comparison failed                  */
    uint64_t cmp_cycles;   /* cycles compared                             */
    char msg[600];         /* the mismatch                                */
} spvsys_res;

/* Runs the program text prog (spec 9.4, read by spandex_sys_prog_read with
 * o->sys) on the system of o and judges its log with the checker. 0 (r
 * filled), or -1 with a reason in err (a bad program, configuration, no
 * Verilated module). duts may be NULL without RTL. */
int spvsys_run(const spvsys_opts *o, const dut_ops *const *duts, const char *prog, spvsys_res *r,
               char *err, size_t len);
void spvsys_res_free(spvsys_res *r);

/* A random program of `ops` lines (loads, stores, RMWs, ACQ, REL, EVICT,
 * STEP, DRAIN; racy words of three lines, five lines of one LLC set) for
 * o's devices, as text (malloc'ed). */
char *spvsys_random_program(const spvsys_opts *o, unsigned ops, uint64_t seed);
/* ./tb_spandex's family hook (tb/tb_main.c) and its --help lines. */
int spandex_tb_hook(int argc, char **argv, int *handled, const dut_ops *const *duts,
                    int (*run_unit)(int argc, char **argv));
void spandex_tb_help(FILE *f);

#endif
