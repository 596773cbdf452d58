/*
 * The spandex-tu trace: the reader (one input a line) and the printer of
 * what the unit gives (docs/spandex.md, "The translation unit in RTL").
 *
 *   LD <addr> <mask>                 ST <addr> <mask> <v>...
 *   RMW <addr> <mask> rd|swp|add|and|or|xor|min|max <v>...
 *   ACQ   REL   EVICT <addr> [<mask> <v>...] (cache side; DeNovo: the
 *                                     owned words written back)
 *   RspV|RspWT+data <addr> <mask> <v>...    RspWT|RspO|Nack <addr> <mask>
 *   (and every other response kind, which the unit refuses as an error)
 *   FwdReqV|FwdReqS|FwdReqO|FwdReqO+data <addr> <mask> <requestor>
 *   RvkO|Inv <addr> <mask>           (from the LLC)
 *   PDAT <addr> <mask> <v>...        (DeNovo: the cache's probe answer;
 *                                     mask 0x0 with no value: none held;
 *                                     MESI: the whole line held E/M, or
 *                                     the words of its write-back state)
 * Output: Req* lines (to the LLC), Rsp* <dst>|L, Nack <dst>, Ack L
 * (answers), FILL, VALUE, OWN, DONE (to the cache; " own <mask>" where
 * words become owned; MESI: WBDONE <addr>, the write-back line released),
 * PRB <addr> <mask> [down] (DeNovo and MESI probes) and ERR
 * when err_o rises.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "spandex_tuhw.h"
#include "spandex_trace_values.h"
#include "unit_trace.h"

typedef spandex_tuhw_rec rec;

static const char *const cache_names[] = {"LD", "ST", "RMW", "ACQ", "REL", "EVICT", NULL};
static const char *const op_names[] = {"rd", "swp", "add", "and", "or", "xor", "min", "max", NULL};


static int parse_line_mask(cohkit_trace_reader *r, const spandex_tuhw_cfg *c, rec *e)
{
    uint64_t a;
    if (cohkit_trace_req_addr(r, r->first, c->addr_bits, &a) || cohkit_trace_addr(r, "mask", c->line / c->word, &e->mask))
        return -1;
    e->line = a >> cohkit_ilog2(c->line);
    if (e->mask == 0)
        return cohkit_trace_fail(r, "mask 0x0 names no word");
    return 0;
}

static int parse_cache(cohkit_trace_reader *r, const spandex_tuhw_cfg *c, rec *e, unsigned k)
{
    uint64_t a;
    char *t, *end;
    e->ch = 0;
    e->type = k;
    if (k == SPANDEX_TUHW_C_ACQ || k == SPANDEX_TUHW_C_REL)
        return cohkit_trace_end(r);
    if (k == SPANDEX_TUHW_C_EVICT) { /* DeNovo: the owned words and their data */
        if (cohkit_trace_req_addr(r, r->first, c->addr_bits, &a))
            return -1;
        e->line = a >> cohkit_ilog2(c->line);
        t = cohkit_trace_arg(r);
        if (t == NULL)
            return 0;
        e->mask = strtoull(t, &end, 16);
        if (*t == '\0' || *end != '\0' || t[0] == '-' || (e->mask & ~cohkit_mask64(c->line / c->word)))
            return cohkit_trace_fail(r, "EVICT mask '%s' is not a mask of the line's %u words", t,
                                     c->line / c->word);
        if (e->mask && spandex_trace_values(r, e->mask, c->word * 8, SPANDEX_LLC_WORDS_MAX, e->v))
            return -1;
        return cohkit_trace_end(r);
    }
    if (parse_line_mask(r, c, e))
        return -1;
    if (k == SPANDEX_TUHW_C_RMW) {
        char *t = cohkit_trace_arg(r);
        unsigned op;
        if (t == NULL)
            return cohkit_trace_fail(r, "RMW needs an op (rd, swp, add, and, or, xor, min, max)");
        for (op = 0; op_names[op] && strcmp(op_names[op], t) != 0; op++)
            ;
        if (op_names[op] == NULL)
            return cohkit_trace_fail(r, "unknown op '%s' (rd, swp, add, and, or, xor, min, max)", t);
        e->op = op;
    }
    if (k != SPANDEX_TUHW_C_LD && spandex_trace_values(r, e->mask, c->word * 8, SPANDEX_LLC_WORDS_MAX, e->v))
        return -1;
    return cohkit_trace_end(r);
}

static int parse_rec(cohkit_trace_reader *r, const void *ctx, void *record)
{
    const spandex_tuhw_cfg *c = ctx;
    rec *e = record;
    unsigned k;
    int m;
    e->lineno = r->lineno;
    for (k = 0; cache_names[k] && strcmp(cache_names[k], r->first) != 0; k++)
        ;
    if (cache_names[k])
        return parse_cache(r, c, e, k);
    if (strcmp(r->first, "PDAT") == 0) {
        uint64_t a;
        e->ch = 3;
        if (cohkit_trace_req_addr(r, r->first, c->addr_bits, &a) ||
            cohkit_trace_addr(r, "mask", c->line / c->word, &e->mask))
            return -1;
        e->line = a >> cohkit_ilog2(c->line);
        if (e->mask && spandex_trace_values(r, e->mask, c->word * 8, SPANDEX_LLC_WORDS_MAX, e->v))
            return -1;
        return cohkit_trace_end(r);
    }
    m = spandex_msg_find(r->first);
    if (m < 0 || (spandex_msg_net((spandex_msg_kind)m) != SPANDEX_NET_RSP &&
                  spandex_msg_net((spandex_msg_kind)m) != SPANDEX_NET_FWD))
        return cohkit_trace_fail(r,
                                 "unknown input '%s' (LD, ST, RMW, ACQ, REL, EVICT, PDAT, Rsp*, Nack, Fwd*, RvkO, "
                                 "Inv)",
                                 r->first);
    e->type = spandex_msg_code((spandex_msg_kind)m);
    e->ch = spandex_msg_net((spandex_msg_kind)m) == SPANDEX_NET_RSP ? 1 : 2;
    if (parse_line_mask(r, c, e))
        return -1;
    if (e->ch == 1)
        return spandex_msg_has_data((spandex_msg_kind)m) &&
                       spandex_trace_values(r, e->mask, c->word * 8, SPANDEX_LLC_WORDS_MAX, e->v)
                   ? -1
                   : cohkit_trace_end(r);
    if (m != SPANDEX_RVKO && m != SPANDEX_INV && cohkit_trace_num(r, "requestor", 0, c->devs - 1, &e->req))
        return -1;
    return cohkit_trace_end(r);
}

int spandex_tuhw_trace_read(const spandex_tuhw_cfg *c, FILE *in, spandex_tuhw_rec **recs, size_t *n, char *err,
                            size_t len)
{
    const cohkit_trace_format fmt = {sizeof(rec), parse_rec, NULL, 0};
    void *r;
    int rc = cohkit_trace_records(in, &fmt, c, &r, n, err, len);
    *recs = r;
    return rc;
}

static void values(FILE *f, unsigned words, uint64_t mask, const uint64_t *v)
{
    unsigned w;
    for (w = 0; w < words; w++)
        if (mask >> w & 1)
            fprintf(f, " 0x%llx", (unsigned long long)v[w]);
}

void spandex_tuhw_print(const spandex_tuhw_cfg *c, FILE *f, int ch, unsigned type, unsigned op, unsigned llc,
                        unsigned dst, uint64_t line, uint64_t mask, uint64_t own, const uint64_t *v)
{
    static const char *const rsp_names[] = {"FILL", "VALUE", "DONE", "OWN"};
    unsigned words = c->line / c->word;
    unsigned long long a = (unsigned long long)(line << cohkit_ilog2(c->line));
    if (f == NULL) /* a bench's re-run that writes no output */
        return;
    if (ch == 3) {
        fprintf(f, "PRB 0x%llx 0x%llx%s", a, (unsigned long long)mask, llc ? " down" : "");
    } else if (ch == 0 && c->kind == SPANDEX_TU_MESI && type == SPANDEX_TUHW_R_OWN) {
        fprintf(f, "WBDONE 0x%llx", a); /* MESI: the cache's write-back line released */
    } else if (ch == 0) {
        fprintf(f, "%s 0x%llx", rsp_names[type & 3], a);
        if (type == SPANDEX_TUHW_R_OWN)
            fprintf(f, " 0x%llx", (unsigned long long)mask);
        else if (type != SPANDEX_TUHW_R_DONE) {
            fprintf(f, " 0x%llx", (unsigned long long)mask);
            values(f, words, mask, v);
        }
        if (own && type != SPANDEX_TUHW_R_OWN)
            fprintf(f, " own 0x%llx", (unsigned long long)own);
    } else if (ch == 1) {
        static const spandex_msg_kind req[] = {SPANDEX_REQV,      SPANDEX_REQS,     SPANDEX_REQWT,
                                               SPANDEX_REQO,      SPANDEX_REQWTDATA, SPANDEX_REQODATA,
                                               SPANDEX_REQWB,     SPANDEX_REQWB};
        spandex_msg_kind k = req[type & 7];
        fprintf(f, "%s 0x%llx 0x%llx", spandex_msg_name(k), a, (unsigned long long)mask);
        if (k == SPANDEX_REQWTDATA)
            fprintf(f, " %s", op_names[op & 7]);
        if (spandex_msg_has_data(k) && !(k == SPANDEX_REQWTDATA && op == SPANDEX_OP_RD))
            values(f, words, mask, v);
    } else {
        spandex_msg_kind k = (spandex_msg_kind)(SPANDEX_RSPV + (type < 10 ? type : 9));
        fprintf(f, "%s", spandex_msg_name(k));
        if (llc)
            fprintf(f, " L");
        else
            fprintf(f, " %u", dst);
        fprintf(f, " 0x%llx 0x%llx", a, (unsigned long long)mask);
        if (spandex_msg_has_data(k))
            values(f, words, mask, v);
    }
    fputc('\n', f);
}
