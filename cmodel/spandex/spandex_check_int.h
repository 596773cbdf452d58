/*
 * spandex-check internals: the shadow state shared by the readers
 * (spandex_check_sys.c) and the rules (spandex_check_rules.c,
 * spandex_check_hb.c).
 *
 * cohkit: internal header (not installed): the checker's own sources only.
 */
#ifndef SPANDEX_CHECK_INT_H
#define SPANDEX_CHECK_INT_H

#include <stddef.h>
#include <stdint.h>

#include "spandex_check_sys.h"
#include "spandex_llc.h" /* the message-name table and the op helpers only */

#define SPANDEX_CK_LLC (-1)
#define SPANDEX_CK_MEM (-2)

/* Operation kinds, in the order of their names in a program. */
enum { SPANDEX_CK_LD, SPANDEX_CK_ST, SPANDEX_CK_RMW, SPANDEX_CK_ACQ, SPANDEX_CK_REL, SPANDEX_CK_EVICT,
       SPANDEX_CK_STEP, SPANDEX_CK_DRAIN };

/* One operation of the program. */
typedef struct {
    int kind;
    unsigned dev, lineno, pos; /* pos: index in its device's program order */
    unsigned op;               /* RMW                                      */
    uint64_t addr, word, v;    /* v: ST value, RMW operand                 */
    int done;                  /* its V or C line was read                 */
    unsigned done_line;        /* that log line                            */
    uint64_t ret;              /* LD, RMW: the value returned              */
    uint64_t wval;             /* ST, RMW (done): the value written        */
    int vc_state;              /* 0 not known, 1 being computed, 2 final   */
    uint32_t *vc;              /* happens-before vector clock (N entries)  */
} spandex_ck_op;

/* One message of the log. */
typedef struct {
    spandex_msg_kind kind;
    int src, dst;              /* device, SPANDEX_CK_LLC or SPANDEX_CK_MEM */
    unsigned req, op, nv;
    int has_req, has_op;
    uint64_t line, mask;
    int cat;                   /* SYS8 category                            */
    uint64_t extra;            /* an LLC RspV: words beyond its request's   */
                               /* (extra words, Table II), set when sent   */
    int delivered;
    unsigned lineno;
    const char *text;
} spandex_ck_msg;

/* One log line. */
typedef struct {
    char type;                 /* S D V C E                                */
    unsigned lineno;
    char *text;
    uint64_t id;               /* S, D                                     */
    spandex_ck_msg m;          /* S                                        */
    unsigned dev, opl;         /* V, C                                     */
    uint64_t addr, v;          /* V                                        */
} spandex_ck_ev;

/* A word: the LLC's registered owner and every device's state. */
typedef struct {
    uint64_t addr;
    uint32_t line;             /* index in lines                           */
    int owner;                 /* -1: none                                 */
    uint8_t st[SPANDEX_SYSCK_DEVS_MAX];   /* 'I', 'V', 'S', 'O'            */
    uint8_t pend[SPANDEX_SYSCK_DEVS_MAX]; /* a downgrade delivered while the
                                             device waited for ownership:
                                             the state its grant ends in   */
    uint8_t nacks[SPANDEX_SYSCK_DEVS_MAX];/* Nacks since the last data     */
    uint32_t *writes;          /* ST and RMW operations of this word       */
    size_t nwr, cwr;
} spandex_ck_word;

/* A line: the LLC's sharers and the probes it waits for. */
typedef struct {
    uint64_t addr;
    uint64_t sharers;
    uint64_t ack_wait;         /* devices owing an Ack                     */
    uint64_t inv_fill;         /* devices that took an Inv during a ReqS   */
    uint64_t rvk[SPANDEX_SYSCK_DEVS_MAX];   /* words owing an RspRvkO      */
    uint64_t rvk_s[SPANDEX_SYSCK_DEVS_MAX]; /* ... of them, from a FwdReqS */
} spandex_ck_line;

/* An open request of a device. */
typedef struct {
    unsigned dev;
    spandex_msg_kind kind;
    uint64_t line, mask, wait; /* wait: words not yet answered             */
    uint64_t sent_at;          /* deliveries before its S line             */
    uint32_t msg;              /* its message                              */
} spandex_ck_req;

typedef struct {
    uint64_t *key;
    uint32_t *val;             /* index + 1; 0: empty                      */
    size_t cap, n;
} spandex_ck_map;

typedef struct {
    const spandex_sysck_cfg *c;
    unsigned n, w, wbits, hdr, bound;
    uint64_t full, wmask;
    const char *prog_name, *log_name;
    /* program */
    spandex_ck_op *ops;
    size_t nops, cops;
    uint32_t *dops[SPANDEX_SYSCK_DEVS_MAX]; /* per device, program order   */
    size_t ndops[SPANDEX_SYSCK_DEVS_MAX], cdops[SPANDEX_SYSCK_DEVS_MAX];
    /* log */
    spandex_ck_ev *ev;
    size_t nev, cev;
    /* shadow state */
    spandex_ck_word *words;
    size_t nwords, cwords;
    spandex_ck_map wmap;
    spandex_ck_line *lines;
    size_t nlines, clines;
    spandex_ck_map lmap;
    spandex_ck_msg *msgs;
    size_t nmsgs, cmsgs;
    spandex_ck_map mmap;
    uint32_t *fly;             /* messages in flight                       */
    size_t nfly, cfly;
    spandex_ck_req *reqs;      /* open requests                            */
    size_t nreqs, creqs;
    uint64_t deliveries;
    char at[600];              /* "line L: D <id> (<its S line>)"          */
    uint64_t tr_msgs[SPANDEX_SYSCK_CATS], tr_bytes[SPANDEX_SYSCK_CATS];
    int drf;                   /* --drf: data races are violations too     */
    /* verdict */
    int viol;
    char viol_msg[768];
    int bad;
    const char *bad_file;
    unsigned bad_line;
    char bad_msg[300];
} spandex_ck;

spandex_ck *spandex_ck_new(const spandex_sysck_cfg *c);
void spandex_ck_free(spandex_ck *k);
/* Records bad input (the first only): returns -1. */
int spandex_ck_bad(spandex_ck *k, const char *file, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Records a violation (the first only). */
void spandex_ck_viol(spandex_ck *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Adds a program operation (its line number set): 0, or -1 out of memory. */
int spandex_ck_add_op(spandex_ck *k, const spandex_ck_op *o);
/* Replays the log events read (stops at the first violation or bad input). */
void spandex_ck_replay(spandex_ck *k);
const char *spandex_ck_cat_name(unsigned cat);
/* Happens-before and values (spandex_check_hb.c): SYS3 on a V line, SYS4
 * at the end of the log. */
void spandex_ck_sys3(spandex_ck *k, uint32_t op, const spandex_ck_ev *e);
void spandex_ck_sys4(spandex_ck *k);
spandex_ck_word *spandex_ck_word_of(spandex_ck *k, uint64_t addr);
/* --drf at the end of the log (spandex_check_hb.c): the first data race,
 * a violation of SYS3 (docs/spandex.md "The system checker"). */
void spandex_ck_drf(spandex_ck *k);
/* spandex_sysck_run with the data-race check of --drf (the tool's). */
int spandex_ck_run(const spandex_sysck_cfg *c, FILE *prog, const char *prog_name, FILE *log, const char *log_name,
                   int stats, int drf, FILE *out, FILE *err);

#endif
