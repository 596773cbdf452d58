/*
 * DualOpt bitmask MSHR generator (Belayneh et al., section 4.1.2, Fig. 8;
 * spec dualopt.md 2.3, D11). A registered request stage, then one lookup a
 * cycle against an entry array in flip-flops (the containment compare needs
 * every entry's line and mask at once), a registered response, target lists
 * kept as linked lists in an inferred RAM indexed by tag, and a DONE stream
 * of one target a cycle. The request stage puts the lookup's operands in
 * registers, so the compare, the priority encoders and the allocation
 * enables start at flip-flops rather than at the requester's logic.
 * Microarchitecture and timing: docs/dualopt.md; model cmodel/dualopt/dualopt_mshr.c.
 */
#include <stdio.h>
#include <string.h>

#include "dualopt_mshr.h"
#include "gen_unit.h"
#include "prim.h"
#include "selftest.h"

typedef struct {
    const dualopt_mshr_cfg *c;
    dualopt_mshr_geom g;
    unsigned n;       /* entries                          */
    unsigned aw;      /* line-address bits                */
    unsigned mw;      /* mask bits                        */
    unsigned tb;      /* tag bits                         */
    unsigned eb;      /* entry-id bits                    */
    unsigned cb;      /* target-counter bits (0: none)    */
    int bitmask;      /* masks stored and compared        */
} gctx;

/* N-bit hex constant of the entries whose index has bit b set */
static void index_const(const gctx *x, unsigned b, char *buf, size_t len)
{
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < x->n; i++)
        if ((i >> b) & 1)
            v |= 1ull << i;
    snprintf(buf, len, "%u'h%llx", x->n, (unsigned long long)v);
}

static void emit_decls(emit_file *e, const gctx *x)
{
    char b[160];
    emit(e, "// Entry array in flip-flops, one field of each entry per slice.");
    prim_declv(e, x->n, "valid_q, valid_d");
    prim_declv(e, x->n * x->aw, "line_q, line_d");
    if (x->bitmask)
        prim_declv(e, x->n * x->mw, "mask_q, mask_d");
    prim_declv(e, x->n * x->tb, "head_q, head_d, tail_q, tail_d");
    if (x->cb)
        prim_declv(e, x->n * x->cb, "cnt_q, cnt_d");
    emit(e, "// Target store: next-target pointer per tag (synchronous RAM).");
    snprintf(b, sizeof b, "next_mem [0:%u]", x->g.tags - 1);
    prim_decl(e, x->tb, b);
    prim_decl(e, x->tb, "next_rd_q");
    emit_nl(e);
    prim_declv(e, x->n, "fill_sel, live, match, match_1h, free_1h, hit_e, alloc_e");
    prim_declv(e, x->eb, "match_idx, free_idx");
    prim_decl(e, 1, "req_fire, look_go, look_fire, fill_fire, fill_take, any_match, any_free, "
                    "tgt_full, do_hit, do_alloc");
    prim_decl(e, x->tb, "hit_tail, fs_head, fs_tail");
    prim_decl(e, x->aw, "fs_line");
    if (x->bitmask)
        prim_decl(e, x->mw, "fs_mask");
    if (x->cb)
        prim_decl(e, x->cb, "hit_cnt");
    prim_decl(e, 2, "kind_sel");
    prim_decl(e, x->eb, "entry_sel");
    emit_nl(e);
    prim_decl(e, 1, "rq_valid_q, rq_valid_d");
    prim_decl(e, x->tb, "rq_tag_q, rq_tag_d");
    prim_decl(e, x->aw, "rq_line_q, rq_line_d");
    if (x->bitmask)
        prim_decl(e, x->mw, "rq_mask_q, rq_mask_d");
    prim_decl(e, 1, "rsp_valid_q, rsp_valid_d");
    prim_decl(e, 2, "rsp_kind_q, rsp_kind_d");
    prim_decl(e, x->tb, "rsp_tag_q, rsp_tag_d");
    prim_decl(e, x->eb, "rsp_entry_q, rsp_entry_d");
    prim_decl(e, x->aw, "rsp_line_q, rsp_line_d");
    if (x->bitmask)
        prim_decl(e, x->mw, "rsp_mask_q, rsp_mask_d");
    prim_decl(e, 1, "dn_valid_q, dn_valid_d, dn_last");
    prim_decl(e, x->eb, "dn_entry_q, dn_entry_d");
    prim_decl(e, x->aw, "dn_line_q, dn_line_d");
    if (x->bitmask)
        prim_decl(e, x->mw, "dn_mask_q, dn_mask_d");
    prim_decl(e, x->tb, "dn_tag_q, dn_tag_d, dn_tail_q, dn_tail_d");
    if (!x->bitmask)
        prim_decl(e, 1, "unused_mask");
    emit_nl(e);
}

/* The CAM: every entry compares its line and mask with the request. */
static void emit_lookup(emit_file *e, const gctx *x)
{
    const prim_sfield rq[] = {{"rq_tag", "req_tag_i", 1}, {"rq_line", "req_line_i", 1},
                              {"rq_mask", "req_mask_i", x->bitmask}, {NULL, NULL, 0}};
    unsigned i, b;
    char s1[48], s2[48], k[80];
    emit(e, "// Request stage: a request accepted in cycle t is looked up from these");
    emit(e, "// registers from t+1, when the response register is free or drains.");
    emit(e, "assign look_go = ~rsp_valid_q | rsp_ready_i;");
    emit(e, "assign look_fire = rq_valid_q & look_go;");
    emit(e, "assign req_ready_o = ~rq_valid_q | look_go;");
    emit(e, "assign req_fire = req_valid_i & req_ready_o;");
    emit_begin(e, "always_comb begin");
    prim_stage(e, "rq_valid", NULL, "look_fire", "req_fire", rq);
    emit(e, "end");
    emit_end(e, "end");
    emit_nl(e);
    emit(e, "// Lookup (one a cycle). A fill accepted in the same cycle is applied");
    emit(e, "// first: its entry is neither matched nor kept, and may be reallocated.");
    emit(e, "assign fill_ready_o = ~dn_valid_q;");
    emit(e, "assign fill_fire = fill_valid_i & ~dn_valid_q;");
    for (i = 0; i < x->n; i++) {
        emit(e, "assign fill_sel[%u] = fill_fire & valid_q[%u] & (fill_entry_i == %u'd%u);", i, i,
             x->eb, i);
        emit(e, "assign live[%u] = valid_q[%u] & ~fill_sel[%u];", i, i, i);
        if (x->bitmask)
            emit(e,
                 "assign match[%u] = live[%u] & (line_q%s == rq_line_q) & "
                 "((rq_mask_q & ~mask_q%s) == %u'd0);",
                 i, i, prim_field(s1, sizeof s1, i, x->aw, 0, x->aw), prim_field(s2, sizeof s2, i, x->mw, 0, x->mw), x->mw);
        else
            emit(e, "assign match[%u] = live[%u] & (line_q%s == rq_line_q);", i, i,
                 prim_field(s1, sizeof s1, i, x->aw, 0, x->aw));
    }
    emit(e, "// lowest matching entry; lowest free entry (D11)");
    emit(e, "assign match_1h = match & (~match + %u'd1);", x->n);
    emit(e, "assign free_1h = ~live & (live + %u'd1);", x->n);
    emit(e, "assign any_match = |match;");
    emit(e, "assign any_free = ~&live;");
    for (b = 0; b < x->eb; b++) {
        index_const(x, b, k, sizeof k);
        emit(e, "assign match_idx[%u] = |(match_1h & %s);", b, k);
        emit(e, "assign free_idx[%u] = |(free_1h & %s);", b, k);
    }
    prim_and_or(e, "hit_tail", "match_1h", x->n, "tail_q", x->tb, 0, x->tb);
    if (x->cb) {
        prim_and_or(e, "hit_cnt", "match_1h", x->n, "cnt_q", x->cb, 0, x->cb);
        emit(e, "assign tgt_full = hit_cnt == %u'd%u;", x->cb, x->c->targets);
    } else {
        emit(e, "assign tgt_full = 1'b0; // no per-entry target limit");
    }
    emit(e, "assign do_hit = look_fire & any_match & ~tgt_full;");
    emit(e, "assign do_alloc = look_fire & ~any_match & any_free;");
    emit(e, "assign hit_e = {%u{do_hit}} & match_1h;", x->n);
    emit(e, "assign alloc_e = {%u{do_alloc}} & free_1h;", x->n);
    emit(e, "assign kind_sel = any_match ? (tgt_full ? 2'd3 : 2'd0) : (any_free ? 2'd1 : 2'd2);");
    emit(e, "assign entry_sel = any_match ? match_idx : (any_free ? free_idx : %u'd0);", x->eb);
    emit_nl(e);
}

static void emit_entries(emit_file *e, const gctx *x)
{
    unsigned i;
    char s[48];
    emit(e, "// Entry updates: allocate with the whole request mask (never widened),");
    emit(e, "// append a target at the tail, free on the entry's own fill.");
    emit(e, "assign valid_d = live | alloc_e;");
    for (i = 0; i < x->n; i++) {
        prim_field(s, sizeof s, i, x->aw, 0, x->aw);
        emit(e, "assign line_d%s = alloc_e[%u] ? rq_line_q : line_q%s;", s, i, s);
        if (x->bitmask) {
            prim_field(s, sizeof s, i, x->mw, 0, x->mw);
            emit(e, "assign mask_d%s = alloc_e[%u] ? rq_mask_q : mask_q%s;", s, i, s);
        }
        prim_field(s, sizeof s, i, x->tb, 0, x->tb);
        emit(e, "assign head_d%s = alloc_e[%u] ? rq_tag_q : head_q%s;", s, i, s);
        emit(e, "assign tail_d%s = (alloc_e[%u] | hit_e[%u]) ? rq_tag_q : tail_q%s;", s, i, i, s);
        if (x->cb) {
            prim_field(s, sizeof s, i, x->cb, 0, x->cb);
            emit(e, "assign cnt_d%s = alloc_e[%u] ? %u'd1 : (hit_e[%u] ? cnt_q%s + %u'd1 : cnt_q%s);",
                 s, i, x->cb, i, s, x->cb, s);
        }
    }
    emit_nl(e);
}

static void emit_outputs(emit_file *e, const gctx *x)
{
    const prim_sfield rsp[] = {{"rsp_kind", "kind_sel", 1},     {"rsp_tag", "rq_tag_q", 1},
                               {"rsp_entry", "entry_sel", 1},   {"rsp_line", "rq_line_q", 1},
                               {"rsp_mask", "rq_mask_q", x->bitmask}, {NULL, NULL, 0}};
    emit(e, "// Response register: the outcome of the lookup of the last cycle.");
    emit_begin(e, "always_comb begin");
    prim_stage(e, "rsp_valid", "rsp_valid_q & ~rsp_ready_i", NULL, "look_fire", rsp);
    emit(e, "end");
    emit_end(e, "end");
    prim_outputs(e, "rsp_valid rsp_kind rsp_tag rsp_entry rsp_line");
    if (x->bitmask) {
        prim_outputs(e, "rsp_mask");
    } else {
        emit(e, "assign rsp_mask_o = {%u{1'b1}}; // conventional: whole line", x->mw);
        emit(e, "assign unused_mask = ^req_mask_i;");
    }
    emit_nl(e);
    emit(e, "// DONE stream: the filled entry's targets, one a cycle, head to tail;");
    emit(e, "// the next pointer of the current target is read from the RAM a cycle ahead.");
    emit(e, "assign fill_take = |fill_sel;");
    prim_and_or(e, "fs_line", "fill_sel", x->n, "line_q", x->aw, 0, x->aw);
    if (x->bitmask)
        prim_and_or(e, "fs_mask", "fill_sel", x->n, "mask_q", x->mw, 0, x->mw);
    prim_and_or(e, "fs_head", "fill_sel", x->n, "head_q", x->tb, 0, x->tb);
    prim_and_or(e, "fs_tail", "fill_sel", x->n, "tail_q", x->tb, 0, x->tb);
    emit(e, "assign dn_last = dn_tag_q == dn_tail_q;");
    emit_begin(e, "always_comb begin");
    prim_hold(e, "dn_valid dn_entry dn_line%s dn_tag dn_tail", x->bitmask ? " dn_mask" : "");
    emit(e, "if (dn_valid_q & done_ready_i) begin");
    emit(e, "  if (dn_last) dn_valid_d = 1'b0;");
    emit(e, "  else dn_tag_d = next_rd_q;");
    emit(e, "end");
    emit(e, "if (fill_take) begin");
    emit(e, "  dn_valid_d = 1'b1;");
    emit(e, "  dn_entry_d = fill_entry_i;");
    emit(e, "  dn_line_d = fs_line;");
    if (x->bitmask)
        emit(e, "  dn_mask_d = fs_mask;");
    emit(e, "  dn_tag_d = fs_head;");
    emit(e, "  dn_tail_d = fs_tail;");
    emit(e, "end");
    emit_end(e, "end");
    emit(e, "assign done_valid_o = dn_valid_q;");
    emit(e, "assign done_entry_o = dn_entry_q;");
    emit(e, "assign done_line_o = dn_line_q;");
    emit(e, "assign done_mask_o = %s;", x->bitmask ? "dn_mask_q" : "rsp_mask_o");
    emit(e, "assign done_tag_o = dn_tag_q;");
    emit(e, "assign done_last_o = dn_last;");
    emit_nl(e);
}

static void emit_regs(emit_file *e, const gctx *x)
{
    emit(e, "// Target RAM: a hit links the new tag after the entry's tail; the");
    emit(e, "// stream reads the pointer of the target it shows next.");
    prim_ram_ports(e, &(prim_ram){"next_mem", "do_hit", "hit_tail", "rq_tag_q", NULL, "next_rd_q",
                                  "dn_tag_d", 0});
    emit_nl(e);
    prim_regs rl = {0};
    prim_regs_list(&rl, "valid='0 rq_valid=1'b0 rsp_valid=1'b0 rsp_kind=2'd0 rsp_tag='0 "
                        "rsp_entry='0 rsp_line='0");
    if (x->bitmask)
        prim_regs_list(&rl, "rsp_mask='0");
    prim_regs_list(&rl, "dn_valid=1'b0 dn_entry='0 dn_line='0");
    if (x->bitmask)
        prim_regs_list(&rl, "dn_mask='0");
    prim_regs_list(&rl, "dn_tag='0 dn_tail='0");
    prim_regs_block(e, &rl);
    emit(e, "// entry fields are read only while the entry is valid, the request");
    emit(e, "// stage's while it is: no reset");
    emit(e, "always_ff @(posedge clk_i) begin");
    emit(e, "  rq_tag_q <= rq_tag_d;");
    emit(e, "  rq_line_q <= rq_line_d;");
    if (x->bitmask)
        emit(e, "  rq_mask_q <= rq_mask_d;");
    emit(e, "  line_q <= line_d;");
    if (x->bitmask)
        emit(e, "  mask_q <= mask_d;");
    emit(e, "  head_q <= head_d;");
    emit(e, "  tail_q <= tail_d;");
    if (x->cb)
        emit(e, "  cnt_q <= cnt_d;");
    emit(e, "end");
}

/* Properties for `make formal` (spec 2.7; groups p_hit and p_free): a HIT names a valid entry of the
 * request's line whose mask contains the request's (and not the entry being
 * filled in that cycle); an entry is freed only by a fill naming it, and a
 * kept entry's line and mask never change. */
static void emit_formal(emit_file *e, const gctx *x)
{
    unsigned i;
    char s[48];
    char keep[80];
    const char *samples[] = {keep, "f_line_q <= line_q", x->bitmask ? "f_mask_q <= mask_q" : NULL,
                             NULL};
    snprintf(keep, sizeof keep, "f_keep_q <= {%u{rst_ni}} & valid_q & ~f_fill_oh", x->n);
    emit_nl(e);
    prim_formal_begin(e, NULL);
    prim_declv(e, x->n, "f_keep_q, f_fill_oh");
    prim_declv(e, x->n * x->aw, "f_line_q");
    if (x->bitmask)
        prim_declv(e, x->n * x->mw, "f_mask_q");
    emit(e, "assign f_fill_oh = (fill_valid_i & fill_ready_o) ? (%u'd1 << fill_entry_i) : %u'd0;",
         x->n, x->n);
    prim_formal_samples(e, samples);
    prim_formal_assume(e, NULL, 0);
    emit(e, "  if (rst_ni && look_fire && kind_sel == 2'd0) begin");
    emit(e, "    p_hit_valid: assert(valid_q[entry_sel]);");
    emit(e, "    p_hit_unfilled: assert(!f_fill_oh[entry_sel]);");
    emit(e, "    p_hit_line: assert(line_q[entry_sel * %u +: %u] == rq_line_q);", x->aw, x->aw);
    if (x->bitmask)
        emit(e, "    p_hit_mask: assert((rq_mask_q & ~mask_q[entry_sel * %u +: %u]) == %u'd0);",
             x->mw, x->mw,
             x->mw);
    emit(e, "  end");
    emit(e, "  if (rst_ni && f_past_q) begin");
    emit(e, "    p_free_fill: assert((f_keep_q & ~valid_q) == %u'd0);", x->n);
    for (i = 0; i < x->n; i++) {
        prim_field(s, sizeof s, i, x->aw, 0, x->aw);
        emit(e, "    if (f_keep_q[%u]) p_free_line%u: assert(line_q%s == f_line_q%s);", i, i, s, s);
        if (x->bitmask) {
            prim_field(s, sizeof s, i, x->mw, 0, x->mw);
            emit(e, "    if (f_keep_q[%u]) p_free_mask%u: assert(mask_q%s == f_mask_q%s);", i, i,
                 s, s);
        }
    }
    emit(e, "  end");
    emit(e, "end");
    emit(e, "`endif");
}

static void emit_module(emit_file *e, const void *cfg, const block_desc *b)
{
    gctx x;
    GEN_CTX_INIT(x, cfg, dualopt_mshr_geom);
    x.n = x.c->entries;
    x.aw = x.g.laddr_bits;
    x.mw = x.g.mask_bits;
    x.tb = x.c->tag_bits;
    x.eb = x.g.entry_bits;
    x.cb = x.g.count_bits;
    x.bitmask = x.c->mode == DUALOPT_MSHR_BITMASK;

    emit(e, "// DualOpt %s MSHR (Belayneh et al., section 4.1.2, Fig. 8; spec 2.3, D11).",
         x.bitmask ? "bitmask" : "conventional (line-mode)");
    emit(e, "// Registered request stage, lookup against a flip-flop entry array,");
    emit(e, "// registered response, target lists linked in a RAM indexed by tag;");
    emit(e, "// see docs/dualopt.md.");
    PRIM_MODULE(e, b, gctx, &x, emit_decls, emit_lookup, emit_entries, emit_outputs, emit_regs,
                emit_formal);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(dualopt_mshr_cfg, dualopt_mshr_geom);
    snprintf(buf, len,
             "mode=%s entries=%u targets=%u line=%u gran=%u addr_bits=%u tag_bits=%u\n"
             "mask_bits=%u line_addr_bits=%u entry_bits=%u count_bits=%u\n"
             "flop_bits=%llu ram_bits=%llu mask_store_bits=%llu",
             c->mode == DUALOPT_MSHR_LINE ? "line" : "bitmask", c->entries, c->targets, c->line,
             c->gran, c->addr_bits, c->tag_bits, g.mask_bits, g.laddr_bits, g.entry_bits,
             g.count_bits, (unsigned long long)g.flop_bits, (unsigned long long)g.ram_bits,
             (unsigned long long)g.mask_store_bits);
}

static void gen_report(FILE *f, const void *cfg, int json)
{
    GEN_CFG_GEOM(dualopt_mshr_cfg, dualopt_mshr_geom);
    if (json) {
        fprintf(f,
                "{\"mode\":\"%s\",\"entries\":%u,\"targets\":%u,\"line\":%u,\"gran\":%u,"
                "\"addr_bits\":%u,\"tag_bits\":%u,\"mask_bits\":%u,\"line_addr_bits\":%u,"
                "\"entry_bits\":%u,\"count_bits\":%u,\"flop_bits\":%llu,\"ram_bits\":%llu,"
                "\"mask_store_bits\":%llu,\"rtl_memories\":[[%u,%u]],\"flop_array_bits\":%llu,"
                "\"storage_bits\":%llu,%s\"paper_note\":\"%s\"}\n",
                c->mode == DUALOPT_MSHR_LINE ? "line" : "bitmask", c->entries, c->targets,
                c->line, c->gran, c->addr_bits, c->tag_bits, g.mask_bits, g.laddr_bits,
                g.entry_bits, g.count_bits, (unsigned long long)g.flop_bits,
                (unsigned long long)g.ram_bits, (unsigned long long)g.mask_store_bits, g.tags,
                c->tag_bits, (unsigned long long)g.flop_bits,
                (unsigned long long)g.mask_store_bits,
                c->mode == DUALOPT_MSHR_LINE ? "" : "\"paper_area_um2\":697,",
                c->mode == DUALOPT_MSHR_LINE
                    ? "conventional MSHR: no mask extension"
                    : "Table 4: mask extension 697 um^2, 0.1 mW per L1 (32 x 16 = 512 bits, "
                      "1.36 um^2/bit); storage bits = the mask extension");
        return;
    }
    fprintf(f, "DualOpt MSHR: %s mode, %u entries, %s targets per entry, %u B lines, %u-bit masks\n",
            c->mode == DUALOPT_MSHR_LINE ? "line" : "bitmask", c->entries,
            c->targets ? "bounded" : "unbounded", c->line, g.mask_bits);
    if (c->targets)
        fprintf(f, "  targets per entry %u (%u-bit counters)\n", c->targets, g.count_bits);
    fprintf(f, "  entry array in flip-flops: %llu bits (valid, %u-bit line, %u-bit mask, "
               "%u-bit head and tail, %u-bit counter per entry)\n",
            (unsigned long long)g.flop_bits, g.laddr_bits,
            c->mode == DUALOPT_MSHR_LINE ? 0 : g.mask_bits, c->tag_bits, g.count_bits);
    fprintf(f, "  target store RAM: %u x %u = %llu bits\n", g.tags, c->tag_bits,
            (unsigned long long)g.ram_bits);
    fprintf(f, "  mask extension over a conventional MSHR (Table 4): %llu bits\n",
            (unsigned long long)g.mask_store_bits);
}

/* FPGA self-test stimulus (gen/selftest.h): tags count accepted requests
 * (unique while in flight: at most entries x targets are held), lines come
 * from a pool of eight so that requests hit, masks are non-zero; fills name
 * any entry, as the bench's stimulus does now and then. */
int dualopt_mshr_selftest(const void *cfg, st_rule *r, int max, char *err, size_t len)
{
    GEN_CFG_GEOM(dualopt_mshr_cfg, dualopt_mshr_geom);
    if (max < 3 || c->targets == 0 || (uint64_t)c->entries * c->targets + 2 > g.tags ||
        g.laddr_bits < 4)
        return snprintf(err, len, "dualopt-mshr: no self-test when entries x targets + 2 > "
                        "2^tag-bits (tags must stay unique)"), -1;
    r[0] = (st_rule){.port = "req_tag_i", .kind = ST_SEQ};
    r[1] = (st_rule){.port = "req_line_i", .lo = 3, .width = g.laddr_bits - 3, .kind = ST_CONST,
                     .a = 0x2b5a5a5ull & ((1ull << (g.laddr_bits - 3)) - 1)};
    r[2] = (st_rule){.port = "req_mask_i", .kind = ST_RANGE, .a = 1, .b = g.mask_all};
    return 3;
}

const gen_unit dualopt_mshr_gen_unit = {"dualopt-mshr", emit_module, gen_params, gen_report,
                                        dualopt_mshr_selftest};
