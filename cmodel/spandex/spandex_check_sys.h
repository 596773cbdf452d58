/*
 * spandex-check: the system checker of the Spandex family (spec 6, SYS1-SYS8;
 * docs/spandex.md "The system checker"). It reads a program (spec 9.4, with
 * the readings of 9.5) and the log of a run of that program (S/D/V/C/E
 * lines, 9.4) and replays the log through a shadow state of its own: per
 * word the LLC-registered owner and every device's state (O, V, S, I) as the
 * messages say, per line the LLC's sharers and the probes it waits for, the
 * messages in flight, every device's open requests, and the happens-before
 * order of the program's operations. It is independent of the LLC and
 * system models: it uses only the message-name table and the op helpers of
 * spandex_llc.h (spandex_msg_find, spandex_msg_has_data, spandex_op_apply).
 */
#ifndef SPANDEX_CHECK_SYS_H
#define SPANDEX_CHECK_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"

COHKIT_BEGIN_DECLS

#define SPANDEX_SYSCK_DEVS_MAX 64

typedef enum { SPANDEX_SYSCK_GPU = 1, SPANDEX_SYSCK_DENOVO = 2, SPANDEX_SYSCK_MESI = 3 } spandex_sysck_kind;

typedef struct {
    unsigned devs;       /* N: highest --dev ID + 1 (set by the check)       */
    uint8_t kind[SPANDEX_SYSCK_DEVS_MAX]; /* spandex_sysck_kind, 0: not given */
    unsigned line;       /* line bytes (64)                                  */
    unsigned word;       /* word bytes, 4 or 8 (4)                           */
    unsigned nack_limit; /* SYS6 (1)                                         */
    unsigned addr_bits;  /* byte-address width, for the header size (48)     */
    int fifo;            /* --sched fifo: the SYS5 bound applies (random)    */
} spandex_sysck_cfg;

void spandex_sysck_cfg_default(spandex_sysck_cfg *c);
/* One option, name without dashes: 0; 1 not an option of the checker; -1
 * with a one-line reason on a bad value. --dev may be repeated. */
int spandex_sysck_cfg_option(spandex_sysck_cfg *c, const char *name, const char *value, char *err,
                             size_t len);
/* Validates and sets devs: 0, or -1 with a one-line reason. */
int spandex_sysck_cfg_check(spandex_sysck_cfg *c, char *err, size_t len);

/* The SYS5 bound B = 4 x N x (N + W) deliveries. */
unsigned spandex_sysck_bound(const spandex_sysck_cfg *c);
/* The header of every message in bytes (SYS8, spec 7): type (5 bits on one
 * network), line address, word mask, source, destination, requestor, op. */
unsigned spandex_sysck_header_bytes(const spandex_sysck_cfg *c);

/* SYS8 categories: the seven request types, then Probe (Inv, Ack, RvkO and
 * the RspRvkO answering an RvkO). */
#define SPANDEX_SYSCK_CATS 8

/* The whole check: reads the program from prog and the log from log, then
 * replays the log. Writes, on out, the traffic table when stats is set
 * ("# traffic ..." lines) and then "PASS ..." (returns 0) or "E <reason>"
 * for the first violation (returns 1). Bad input (a malformed line of
 * either file, a log that does not fit the program or itself): one line
 * "cohmodel: spandex-check: FILE: line N: reason" on err, nothing on out,
 * returns 2. */
int spandex_sysck_run(const spandex_sysck_cfg *c, FILE *prog, const char *prog_name, FILE *log,
                      const char *log_name, int stats, FILE *out, FILE *err);

COHKIT_END_DECLS

#endif
