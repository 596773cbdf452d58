/*
 * Spandex LLC controller: configuration, messages and the functional core.
 *
 * Paper: J. Alsop, M. D. Sinclair, S. V. Adve, "Spandex: A Flexible Interface
 * for Efficient Heterogeneous Coherence" (ISCA 2018), sections III-B (Table
 * III), III-C, III-F. The reference specification's sections are cited as
 * "spec N" (Table III reconstructed: spec 2.2; the controller: spec 3;
 * invariants LLC1-LLC8: spec 6; encoding: spec 7; readings X1-X20: spec 8;
 * the trace format: spec 9.2). Readings are listed in docs/paper-notes.md.
 *
 * One configuration struct and one validator serve the trace tool, the
 * generator and the benches. The functional core processes one event (a
 * request, an Ack or an RspRvkO) to completion and emits the LLC's messages
 * in the canonical order of spec 9.2; memory answers at once.
 */
#ifndef SPANDEX_LLC_H
#define SPANDEX_LLC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cohkit.h"
#include "unit.h"

COHKIT_BEGIN_DECLS

#define SPANDEX_LLC_WORDS_MAX 64 /* words per line (masks are 64-bit)      */
#define SPANDEX_LLC_DEVS_MAX 64  /* devices (sharer vectors are 64-bit)    */

/* ReqS handling (spec 2.2): options (1), (2), (3) of III-B, or the
 * evaluated policy (X6: option 1 if a requested word is S or owned by a
 * MESI device, else option 3). */
typedef enum {
    SPANDEX_LLC_REQS_1 = 1,
    SPANDEX_LLC_REQS_2 = 2,
    SPANDEX_LLC_REQS_3 = 3,
    SPANDEX_LLC_REQS_PAPER = 4
} spandex_llc_reqs;

/* Where a word's owner ID lives (III-F): in the word's data field, or in a
 * separate array of W x log2 N bits per line. */
typedef enum { SPANDEX_LLC_OWNER_DATA = 0, SPANDEX_LLC_OWNER_ARRAY = 1 } spandex_llc_owner_store;

/* Coherence granularity: word (Spandex), or line (the baseline: every
 * request's coherence mask widened to the whole line, a line-granularity
 * MESI-style directory; docs/paper-notes.md). */
typedef enum { SPANDEX_LLC_GRAN_WORD = 0, SPANDEX_LLC_GRAN_LINE = 1 } spandex_llc_gran;

typedef struct {
    unsigned devs;       /* device caches N, IDs 0..N-1, 2..64              */
    unsigned line;       /* line bytes, power of two                        */
    unsigned word;       /* word bytes, 4 or 8                              */
    unsigned sets;       /* sets of the bank, power of two                  */
    unsigned ways;       /* ways per set; 0: unbounded (model only)         */
    spandex_llc_reqs reqs;
    uint64_t mesi;       /* bit d: device d is a MESI cache (--mesi LIST)   */
    uint64_t extra;      /* bit d: a RspV to device d's ReqV carries every  */
                         /* other up-to-date word of the line (Table II's   */
                         /* DeNovo "extra words"; --extra-words LIST)       */
    spandex_llc_owner_store owner_store;
    spandex_llc_gran gran;
    unsigned txn;        /* open transactions (RTL table entries)           */
    unsigned defer;      /* deferred-request buffer entries (RTL)           */
    unsigned addr_bits;  /* byte-address width                              */
} spandex_llc_cfg;

/* Every derived width, computed once (spandex_llc_geom_of). */
typedef struct {
    unsigned words;       /* W = line / word                                */
    unsigned word_bits;   /* 32 or 64                                       */
    unsigned line_bits;   /* log2(line)                                     */
    unsigned laddr_bits;  /* line-address width: addr_bits - line_bits     */
    unsigned set_bits;    /* log2(sets)                                     */
    unsigned tag_bits;    /* laddr_bits - set_bits                          */
    unsigned dev_bits;    /* device ID: ceil(log2 N)                        */
    unsigned node_bits;   /* source/destination: ceil(log2(N + 1))          */
    unsigned way_bits;    /* log2(ways), 0 for one way                      */
    unsigned txn_bits;    /* transaction index (MemRd id), at least 1       */
    uint64_t full;        /* the whole-line mask                            */
    /* storage per line (spec 7, III-F) */
    unsigned state_bits;  /* 2: I, V, S                                     */
    unsigned owner_bits;  /* separate owner array: W x dev_bits, else 0     */
    unsigned meta_bits;   /* tag + state + W owned + N sharers + dirty      */
    unsigned line_dir_bits; /* a line-granularity MESI directory's entry as */
                            /* III-F counts it: tag + 2 state + N sharers   */
                            /* (so Spandex adds W owned + 1 dirty bits)     */
} spandex_llc_geom;

void spandex_llc_cfg_default(spandex_llc_cfg *c);
COHKIT_UNIT_CFG_API(spandex_llc, );
/* The model-only validation: as spandex_llc_cfg_check, but ways 0
 * (unbounded) is accepted. */
int spandex_llc_cfg_check_model(spandex_llc_cfg *c, char *err, size_t len);
void spandex_llc_geom_of(const spandex_llc_cfg *c, spandex_llc_geom *g);
extern const char *const spandex_llc_preset_names[];

/* ------------------------------------------------------------ messages */
typedef enum {
#define SPANDEX_MSG(ID, name, net, code, data) SPANDEX_##ID,
#include "spandex_msg.def"
    SPANDEX_MSG_KINDS
} spandex_msg_kind;

typedef enum { SPANDEX_NET_REQ, SPANDEX_NET_FWD, SPANDEX_NET_RSP, SPANDEX_NET_MEM } spandex_net;

/* ReqWT+data operations (spec 7; traces use the first five). */
typedef enum {
    SPANDEX_OP_RD = 0,
    SPANDEX_OP_SWP = 1,
    SPANDEX_OP_ADD = 2,
    SPANDEX_OP_AND = 3,
    SPANDEX_OP_OR = 4,
    SPANDEX_OP_XOR = 5,
    SPANDEX_OP_MIN = 6,
    SPANDEX_OP_MAX = 7
} spandex_op;

const char *spandex_msg_name(spandex_msg_kind k);
spandex_net spandex_msg_net(spandex_msg_kind k);
unsigned spandex_msg_code(spandex_msg_kind k);
int spandex_msg_has_data(spandex_msg_kind k);
/* The kind named `name`, or -1. */
int spandex_msg_find(const char *name);
/* The kind with code `code` on network `net` (the ports' type fields), or -1. */
int spandex_msg_of(spandex_net net, unsigned code);
const char *spandex_op_name(unsigned op);
/* The result of op on old with operand v, truncated to `bits`. */
uint64_t spandex_op_apply(unsigned op, uint64_t old, uint64_t v, unsigned bits);

/* One message. Inputs: dev is the sender (requestor); outputs: dev is the
 * destination (MemRd, MemWr: none). req: a forward's requestor. v[w] is
 * word w's value for every w of mask (MemWr: every word). */
typedef struct {
    spandex_msg_kind kind;
    unsigned dev;
    unsigned req;
    unsigned op;
    uint64_t line; /* line-aligned byte address */
    uint64_t mask;
    uint64_t v[SPANDEX_LLC_WORDS_MAX];
} spandex_msg;

/* The 9.2 text of a message (an output line, or an input line). */
void spandex_msg_print(const spandex_msg *m, unsigned words, FILE *f);

/* -------------------------------------------------------- functional core */
typedef struct spandex_llc spandex_llc;
/* Receives every message the LLC sends, in order. */
typedef void (*spandex_llc_emit_fn)(void *ctx, const spandex_msg *m);

/* A core with every line absent and memory holding its initial image (the
 * word at byte address A holds A, truncated to the word). cfg must have
 * passed spandex_llc_cfg_check_model. NULL when out of memory. */
spandex_llc *spandex_llc_new(const spandex_llc_cfg *c);
void spandex_llc_free(spandex_llc *l);
/* Processes one input message (a request, Ack or RspRvkO) to completion:
 * the messages it causes go to emit in the canonical order of spec 9.2.
 * Returns 0, or -1 with a one-line reason in err (an Ack or RspRvkO nobody
 * waits for, a request for words the requestor owns, out of memory); the
 * state is then unspecified. */
int spandex_llc_event(spandex_llc *l, const spandex_msg *in, spandex_llc_emit_fn emit, void *ctx,
                      char *err, size_t len);

/* What a resident line holds (for --dump, checkers and tests). */
typedef struct {
    uint64_t line;
    int state;          /* 'V' or 'S'                                       */
    uint64_t sharers;
    int dirty;
    uint64_t owned;     /* owned words                                      */
    unsigned owner[SPANDEX_LLC_WORDS_MAX];
    uint64_t data[SPANDEX_LLC_WORDS_MAX]; /* owned words: the data field (the
                                             owner ID with owner_store data) */
    int blocked;        /* an open transaction                              */
    unsigned queued;    /* requests waiting for this line                   */
    uint64_t pend_ack;  /* the open transaction's devices owing an Ack      */
    uint64_t pend_rvk;  /* ... its words owing an RspRvkO                   */
} spandex_llc_line_info;

/* Resident lines in ascending address order: how many (all when n is
 * larger), the first n written to out. */
size_t spandex_llc_lines(const spandex_llc *l, spandex_llc_line_info *out, size_t n);
/* One line: 1 when resident (info filled), else 0. */
int spandex_llc_line(const spandex_llc *l, uint64_t line, spandex_llc_line_info *info);
/* The owner of a word (line-aligned address, word index), or -1. */
int spandex_llc_owner(const spandex_llc *l, uint64_t line, unsigned w);
/* Requests of device dev for line not yet done: deferred, waiting for a
 * way, or blocked in the line's open transaction. _all: the deferred and
 * way-waiting requests of every device. */
unsigned spandex_llc_waiting(const spandex_llc *l, uint64_t line, unsigned dev);
unsigned spandex_llc_waiting_all(const spandex_llc *l);
/* Open transactions. */
unsigned spandex_llc_open(const spandex_llc *l);
/* The memory's value of a word (not the LLC's). */
uint64_t spandex_llc_mem_word(const spandex_llc *l, uint64_t line, unsigned w);
/* The --dump lines: LINE per resident line (spec 9.2). */
void spandex_llc_dump(const spandex_llc *l, FILE *f);

/* ---------------------------------------------------------- timing shell */
/* The cycle-accurate model of the generated RTL (spandex_llc_tm.c; the
 * micro-architecture in docs/spandex.md). Port values as uint64_t words in
 * the order of spandex_llc_ports.def, inputs from rst_ni. */
typedef struct spandex_llc_tm spandex_llc_tm;
COHKIT_UNIT_TM_API(spandex_llc_tm, spandex_llc_cfg, spandex_llc_tm_eval, spandex_llc_tm_step, uint64_t, uint64_t);
/* 1 when nothing is in flight (the idle_o output). */
int spandex_llc_tm_idle(const spandex_llc_tm *t);

/* ----------------------------------------------------------- trace tool */
/* Flags of `cohmodel spandex-llc` (besides the configuration). */
typedef struct {
    int dump;  /* LINE lines after the trace                               */
    int stats; /* "# count <msg> <n>" lines after the trace                */
    int check; /* LLC1-LLC8 after every event (spandex_llc_chk); the first
                  violation ends the run with "CHECK ..." and status 1      */
} spandex_llc_flags;

/* One event of a 9.2 trace and its line number. */
typedef struct {
    unsigned lineno;
    spandex_msg m;
} spandex_llc_event_rec;
/* Every event of a 9.2 trace: *recs (malloc, free it) and *n; 0, or -1
 * with "line N: reason" in err. */
int spandex_llc_trace_read(const spandex_llc_cfg *c, FILE *in, spandex_llc_event_rec **recs, size_t *n,
                           char *err, size_t len);
/* Reads a 9.2 trace from in and writes the LLC's messages to out. Returns
 * 0; 1 after a CHECK line; 2 with "NAME: line N: reason" on err and
 * nothing on out for bad input or a protocol error. */
int spandex_llc_trace_run(const spandex_llc_cfg *c, const spandex_llc_flags *fl, FILE *in,
                          const char *in_name, FILE *out, FILE *err);

COHKIT_END_DECLS

#endif
