/*
 * Table III of the Spandex LLC as pure functions of one line's state (spec
 * 2.2 merged by its rules 1-7, readings of spec 8): what a request, an Ack
 * or an RspRvkO does to the line, which messages it sends and which
 * transaction it opens. The functional core (spandex_llc_core.c) and the
 * timing shell (spandex_llc_tm.c) both decide with these functions; they
 * differ only in when and how the messages leave.
 *
 * cohkit: internal header (not installed): shared by the Spandex model's
 * own sources.
 */
#ifndef SPANDEX_LLC_RULES_H
#define SPANDEX_LLC_RULES_H

#include <stdint.h>

#include "spandex_llc.h"

/* One resident line: state, sharers, owned words with their owners, dirty
 * bit and data. With owner_store data, the data field of an owned word
 * holds its owner (data[w] == own[w]); the rules keep both. */
typedef struct {
    int st; /* 'V' or 'S' */
    uint64_t sh, owned;
    int dirty;
    unsigned own[SPANDEX_LLC_WORDS_MAX];
    uint64_t data[SPANDEX_LLC_WORDS_MAX];
} spandex_llc_way;

/* What an open transaction does when its last Ack and RspRvkO are in. */
typedef enum {
    SPANDEX_LLC_TX_EVICT,  /* OWB, SWB, SI: MemWr if dirty, free the way              */
    SPANDEX_LLC_TX_SHARE,  /* OS: ReqS(1) on owned words: line S, owners join sharers */
    SPANDEX_LLC_TX_OWN,    /* SO: ReqO, ReqO+data, ReqS(3) on S words: RspO(+data)    */
    SPANDEX_LLC_TX_WRITE,  /* SV: ReqWT on S words (line mode: also on owned words)   */
    SPANDEX_LLC_TX_ATOMIC, /* OV/SV: ReqWT+data: apply the op, RspWT+data(old)        */
    SPANDEX_LLC_TX_FILL    /* (RTL) a fill under way; the request waits for the data */
} spandex_llc_tx_kind;

typedef struct {
    int open;
    spandex_llc_tx_kind kind;
    spandex_msg req;   /* the blocked request (kind, dev, op, values)      */
    uint64_t mu;       /* the words answered at the end                    */
    uint64_t pend_ack; /* devices owing an Ack                             */
    uint64_t pend_rvk; /* words owing an RspRvkO                           */
    uint64_t sh_add;   /* SPANDEX_LLC_TX_SHARE: devices joining the sharers        */
    int inv_sent;      /* the line goes V at the end                       */
} spandex_llc_txn;

/* The messages one step sends to devices, in canonical order: an Inv to
 * every device of invs (ascending), then one `fwd` message per owner of
 * fwd_words (ascending order of the owner's lowest word; fwd_owner holds
 * the owners as they were, fwd_req the requestor), then the response. */
typedef struct {
    uint64_t invs;
    spandex_msg_kind fwd;
    uint64_t fwd_words;
    unsigned fwd_req;
    unsigned fwd_owner[SPANDEX_LLC_WORDS_MAX];
    int has_rsp;
    spandex_msg rsp;
} spandex_llc_msgs;

/* A request (not ReqWB) on a present line without an open transaction:
 * updates w, fills o and t (t->open when the line blocks). -1 with a
 * one-line reason for a request for words the requestor owns (X15). */
int spandex_llc_rule_request(const spandex_llc_cfg *c, const spandex_llc_geom *g, spandex_llc_way *w, const spandex_msg *q,
                     spandex_llc_msgs *o, spandex_llc_txn *t, char *err, size_t len);
/* ReqWB (w NULL: the line is absent): stores the words the requestor
 * owns; o gets the RspWB. */
void spandex_llc_rule_wb(const spandex_llc_cfg *c, const spandex_llc_geom *g, spandex_llc_way *w, const spandex_msg *q,
                 spandex_llc_msgs *o);
/* An Ack or RspRvkO for the open transaction t of w: 0, or -1 with a
 * reason when t does not wait for it. Sets *done when t is complete. */
int spandex_llc_rule_answer(const spandex_llc_cfg *c, const spandex_llc_geom *g, spandex_llc_way *w, spandex_llc_txn *t,
                    const spandex_msg *q, int *done, char *err, size_t len);
/* The completion of request transaction t (not SPANDEX_LLC_TX_EVICT or FILL). */
void spandex_llc_rule_complete(const spandex_llc_cfg *c, const spandex_llc_geom *g, spandex_llc_way *w, spandex_llc_txn *t,
                       spandex_llc_msgs *o);
/* Starts the eviction of w: RvkO to each owner, Inv to every sharer (t
 * opened), or returns 0 when w can be dropped at once (V, nothing owned). */
int spandex_llc_rule_evict(const spandex_llc_cfg *c, const spandex_llc_geom *g, const spandex_llc_way *w, spandex_llc_txn *t,
                   spandex_llc_msgs *o);
/* A freshly allocated line (data from memory, or 0 when not filled). */
void spandex_llc_way_fresh(spandex_llc_way *w);
/* 1 when a request of kind k with the coherence mask m allocates without
 * a fill (whole-line ReqO and ReqWT). */
int spandex_llc_no_fill(const spandex_llc_geom *g, spandex_msg_kind k, uint64_t m);
/* The mask a request covers: its own, or in line mode (ReqV, ReqS, ReqO,
 * ReqO+data) the whole line but the words own_r the requestor owns. */
uint64_t spandex_llc_req_mask(const spandex_llc_cfg *c, const spandex_llc_geom *g, const spandex_msg *q, uint64_t own_r);
/* Words of w owned by device d. */
uint64_t spandex_llc_owned_by(const spandex_llc_geom *g, const spandex_llc_way *w, unsigned d);
/* Sends o's messages for `line` to emit, in canonical order. */
void spandex_llc_msgs_emit(const spandex_llc_geom *g, const spandex_llc_msgs *o, uint64_t line, spandex_llc_emit_fn emit,
                   void *ctx);

#endif
