/*
 * Composition: systems built from registry units driven through their ports
 * (docs/composition.md).
 *
 * A block is one instance of a unit (cmodel/unit.h `cohkit_unit_desc`) with its
 * configuration, its port layout and its port value arrays, run by a
 * backend: the unit's timing shell (cmp_shell_backend) or anything with the
 * same ports (tb/compose_rtl.h: the Verilated RTL, one unit at a time or
 * all). A system (cmp_sys) is its blocks; the wires and queues between them
 * are the family's code, written with the port handles and the FIFO below.
 *
 * Port names are looked up once, when the composition is set up
 * (cmp_port_of, cmp_ports_bind); each cycle works on handles (word offsets).
 * Values follow cmodel/unit.h: inputs start with rst_ni in word 0, a port
 * of W bits takes ceil(W / 64) words, least significant word first.
 *
 * Every cycle of a system: cmp_sys_clear (inputs to 0, rst_ni), the
 * family's inputs, cmp_sys_eval, the family's handshakes, cmp_sys_step.
 * Because every input is computed from registered state before any block
 * is evaluated, any block can be replaced by another backend, and two
 * compositions can be compared port by port every cycle (cmp_compare).
 *
 * Internal to the kit (not installed; cohkit: internal header): a platform service of the kit's own
 * benches and system models. Its declarations are not exported from the
 * shared library (no COHKIT_BEGIN_DECLS); the family APIs built on it name
 * its types as opaque structs.
 */
#ifndef COMPOSE_H
#define COMPOSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "unit.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cmp_block cmp_block;

/* How a block is run. open() returns a handle, or NULL with a reason. */
typedef struct cmp_backend {
    void *ctx;
    void *(*open)(void *ctx, const cmp_block *b, char *err, size_t len);
    void (*eval)(void *h, const uint64_t *in, uint64_t *out);
    void (*step)(void *h, const uint64_t *in);
    void (*close)(void *h);
} cmp_backend;

/* The default backend: the unit's timing shell. */
extern const cmp_backend cmp_shell_backend;

/* A port handle: found once by name, used every cycle. */
typedef struct {
    int index;              /* in the layout's port table                  */
    cohkit_port_dir dir;
    unsigned width;
    unsigned off;           /* first word in the block's in[] or out[]     */
} cmp_port;

/* A forced output (a broken unit): from the block's cycle `from` on, the
 * bits `mask` of output word `word` read as the bits of `val`. */
typedef struct {
    int on;
    unsigned word;
    uint64_t mask, val, from;
} cmp_force;

struct cmp_block {
    const cohkit_unit_desc *u;
    void *cfg;
    char preset[32];        /* the configuration the block was opened with */
    char name[32];          /* unique within the system                */
    unsigned seed;          /* unreset state of a Verilated block          */
    cohkit_unit_layout l;
    unsigned off[COHKIT_UNIT_PORTS_MAX]; /* word offset of every port             */
    uint64_t *in, *out;
    uint64_t cycles;        /* clock edges so far                          */
    cmp_force force;
    cmp_backend be;         /* by value: the caller's may go away      */
    void *h;
};

/* Opens block `name` of unit `unit` with the configuration "--config
 * preset [extra]" on backend be (NULL: the timing shell). 0, or -1 with a
 * reason. cmp_block_close releases everything (also after a failed open). */
int cmp_block_open(cmp_block *b, const char *unit, const char *name, const char *preset,
                   const char *extra, unsigned seed, const cmp_backend *be, char *err,
                   size_t len);
/* The same with a ready configuration (u->cfg_size bytes, copied); preset
 * names it for a backend that looks modules up (the RTL's). */
int cmp_block_open_cfg(cmp_block *b, const char *unit, const void *cfg, const char *name,
                       const char *preset, unsigned seed, const cmp_backend *be, char *err,
                       size_t len);
void cmp_block_close(cmp_block *b);
/* The timing shell's state (cohkit_unit_desc tm_new) of a block on the shell
 * backend, or NULL. */
void *cmp_shell_state(const cmp_block *b);
void cmp_block_eval(cmp_block *b);
void cmp_block_step(cmp_block *b);

/* The port `name` of the block: 0 with *p set, or -1 with "UNIT has no port
 * NAME" in err. */
int cmp_port_of(const cmp_block *b, const char *name, cmp_port *p, char *err, size_t len);
/* Port handles of NULL-terminated names into p[]. 0, or -1 (the first name
 * not found). */
int cmp_ports_bind(const cmp_block *b, const char *const *names, cmp_port *p, char *err,
                   size_t len);
/* Word offsets (cmp_port.off) of the same, for blocks addressed by index. */
int cmp_offsets_bind(const cmp_block *b, const char *const *names, unsigned *off, char *err,
                     size_t len);

/* Words of a port (inputs: in[], outputs: out[]). */
static inline uint64_t *cmp_in(cmp_block *b, cmp_port p) { return b->in + p.off; }
static inline const uint64_t *cmp_out(const cmp_block *b, cmp_port p) { return b->out + p.off; }
static inline const uint64_t *cmp_words(const cmp_block *b, cmp_port p)
{
    return (p.dir == COHKIT_PORT_IN ? b->in : b->out) + p.off;
}

/* Bits [lo, lo + n) (n <= 64) of a multi-word value. */
uint64_t cmp_bits_get(const uint64_t *w, unsigned lo, unsigned n);
void cmp_bits_put(uint64_t *w, unsigned lo, unsigned n, uint64_t v);

/* The low 64 bits of a port (at most its width); set: masked to the width. */
uint64_t cmp_get(const cmp_block *b, cmp_port p);
void cmp_set(cmp_block *b, cmp_port p, uint64_t v);
/* A field of a wide port: bits [lo, lo + n) of it. */
static inline uint64_t cmp_get_bits(const cmp_block *b, cmp_port p, unsigned lo, unsigned n)
{
    return cmp_bits_get(cmp_words(b, p), lo, n);
}
static inline void cmp_set_bits(cmp_block *b, cmp_port p, unsigned lo, unsigned n, uint64_t v)
{
    cmp_bits_put(cmp_in(b, p), lo, n, v);
}

/* Forces bits of output port `port`: bit `bit` stuck at `value`. 0, or -1
 * with a reason (no such output, bit beyond the width). */
int cmp_block_stuck(cmp_block *b, const char *port, unsigned bit, unsigned value, uint64_t from,
                    char *err, size_t len);
/* The same with a whole-word mask and value of the port's first word. */
int cmp_block_force(cmp_block *b, const char *port, uint64_t mask, uint64_t val, uint64_t from,
                    char *err, size_t len);

/* ------------------------------------------------------------ systems -- */

typedef struct cmp_sys {
    cmp_block **b;
    unsigned n, cap;
    cmp_backend be;         /* the backend of every block              */
} cmp_sys;

void cmp_sys_init(cmp_sys *s, const cmp_backend *be);
/* A new block of the system (cmp_block_open on the system's backend), or
 * NULL with a reason. */
cmp_block *cmp_sys_add(cmp_sys *s, const char *unit, const char *name, const char *preset,
                       const char *extra, unsigned seed, char *err, size_t len);
void cmp_sys_free(cmp_sys *s);
/* The block named `name`, or NULL. */
cmp_block *cmp_sys_find(const cmp_sys *s, const char *name);
/* Every input 0 but rst_ni. */
void cmp_sys_clear(cmp_sys *s, uint64_t rst_ni);
void cmp_sys_eval(cmp_sys *s);
void cmp_sys_step(cmp_sys *s);

/* Compares the port values of the same block in two compositions (inputs
 * always, outputs when `outs`): 0 equal, 1 with the first mismatch in msg:
 * "MISMATCH cycle C BLOCK port P: <la> 0x.., <lb> 0x..". */
int cmp_block_compare(const cmp_block *a, const cmp_block *b, int outs, uint64_t cyc,
                      const char *la, const char *lb, char *msg, size_t len);
/* Every block of two compositions of the same shape, in order. */
int cmp_compare(const cmp_sys *a, const cmp_sys *b, int outs, uint64_t cyc, const char *la,
                const char *lb, char *msg, size_t len);

/* A unit twice on the same inputs: its timing shell (ref) and, when opened
 * with a backend, the substituted block (sub, e.g. the Verilated RTL), their
 * outputs compared every cycle out of reset. A transaction-level adapter
 * drives ref.in and reads the outputs cmp_pair_cycle returns. */
typedef struct {
    cmp_block ref, sub;
    int has_sub;
    int compare;            /* 0: no comparison (a forced output the
                               system's own checks must catch)             */
    uint64_t cycles;
    char err[300];          /* the first mismatch                          */
} cmp_pair;

/* sub NULL: the shell alone. 0, or -1 with a reason (closed). */
int cmp_pair_open(cmp_pair *p, const char *unit, const void *cfg, const char *name,
                  const char *preset, unsigned seed, const cmp_backend *sub, char *err,
                  size_t len);
void cmp_pair_close(cmp_pair *p);
/* Renames both blocks (the name in mismatch messages). */
void cmp_pair_name(cmp_pair *p, const char *name);
/* One cycle on the inputs in p->ref.in: evaluate both, compare, clock both.
 * *out: the outputs of the cycle (the substituted block's when there is
 * one). 0, or -1 with the mismatch in p->err ("MISMATCH cycle C NAME port
 * P: model X, RTL Y"). */
int cmp_pair_cycle(cmp_pair *p, const uint64_t **out);
/* The outputs the pair would give now (evaluation only, no clock). */
const uint64_t *cmp_pair_peek(cmp_pair *p);

/* ------------------------------------------------------------- queues -- */

/* A growable FIFO of fixed-size items. */
typedef struct {
    uint8_t *buf;
    size_t isz, cap, head, n;
} cmp_fifo;

void cmp_fifo_init(cmp_fifo *f, size_t isz);
void cmp_fifo_free(cmp_fifo *f);
/* Item i from the head (i < n). */
void *cmp_fifo_at(const cmp_fifo *f, size_t i);
/* 0, or -1 out of memory. */
int cmp_fifo_push(cmp_fifo *f, const void *item);
void cmp_fifo_pop(cmp_fifo *f);
/* Removes item i (keeps the order of the others). */
void cmp_fifo_remove(cmp_fifo *f, size_t i);

#ifdef __cplusplus
}
#endif

#endif
