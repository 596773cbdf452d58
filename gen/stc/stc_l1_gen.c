/*
 * STC L1 controller generator (TACO 2023 sections 4.2, 4.5, Table 1; spec
 * stc.md 3.5, S1, S13, S19). Tags, valid bits and LRU ages in one inferred
 * RAM of set words; a request reads its set in the cycle it is accepted and
 * is resolved the next cycle (lazy invalidation, Table 1 transition, write
 * back), with the written word forwarded to a request accepted in that
 * cycle. Transient states I_V / I_I live in MSHR entries (flip-flops, with
 * the poison bit); touched bits are flip-flops. ChangeEpoch: the sweep reads
 * one set a cycle, then the poison pass, then the new CER/SEB.
 * Microarchitecture and timing: docs/stc.md; model cmodel/stc/stc_l1.c.
 */
#include <stdio.h>
#include <string.h>

#include "gen_unit.h"
#include "prim.h"
#include "stc_l1.h"

typedef struct {
    const stc_l1_cfg *c;
    stc_l1_geom g;
    unsigned idx_bits; /* set index ports: set_bits, at least 1 */
} gctx;

static void emit_decls(emit_file *e, const gctx *x)
{
    char b[200];
    emit(e, "// Tag array: one set word per set, way w at [w*%u +: %u] = {cur, age, tag,",
         x->g.way_word, x->g.way_word);
    emit(e, "// valid}; cur: the line's band (current SEB) is in the CER.");
    snprintf(b, sizeof b, "mem_q [0:%u]", x->c->sets - 1);
    prim_declv(e, x->g.set_word, b);
    prim_declv(e, x->g.set_word,
               "rdata_q, fwd_q, fwd_d, word, new_word, sweep_word, init_word, wr_word");
    prim_decl(e, 1, "fwd_hit_q, fwd_hit_d, rd_en, wr_en");
    prim_decl(e, x->idx_bits, "rd_idx, wr_idx, req_set, s_set");
    prim_decl(e, 1, "init_q, init_d");
    prim_decl(e, x->idx_bits, "init_idx_q, init_idx_d");
    emit_nl(e);
    emit(e, "// Epoch state: CER (bit e = epoch e), SEB, and the ChangeEpoch being taken.");
    prim_declv(e, x->g.epochs, "cer_q, cer_d, ncer_q, ncer_d");
    prim_decl(e, x->g.seb_bits, "seb_q, seb_d, nseb_q, nseb_d");
    prim_declv(e, x->c->sets, "touched_q, touched_d, set_1h");
    prim_decl(e, x->c->pw_bits, "pw_q, pw_d, pw_new");
    emit(e, "// MSHR entries: the transient states (I_V, I_I) with the poison bit.");
    prim_declv(e, x->c->mshrs, "mv_q, mv_d, mii_q, mii_d, mpois_q, mpois_d");
    prim_declv(e, x->c->mshrs * x->g.laddr_bits, "mline_q, mline_d");
    if (x->c->poison)
        prim_declv(e, x->c->mshrs, "mnc_q, mnc_d, mnc_new");
    emit(e, "// Stage: the request whose set word was read last cycle.");
    prim_decl(e, 1, "s_valid_q, s_valid_d, s_evd_q, s_evd_d, s_cur_q, s_cur_d, req_cur");
    if (x->c->lazy)
        prim_decl(e, 1, "s_lz_q, s_lz_d, req_lz");
    prim_decl(e, 2, "s_op_q, s_op_d");
    prim_decl(e, x->c->addr_bits, "s_addr_q, s_addr_d");
    prim_declv(e, x->c->ways, "s_done_q, s_done_d");
    prim_decl(e, x->g.laddr_bits, "s_line");
    prim_decl(e, x->g.tag_bits, "s_tag");
    emit(e, "// ChangeEpoch engine: 0 idle, 1 sweep, 2 poison pass.");
    prim_decl(e, 2, "ph_q, ph_d");
    prim_decl(e, x->idx_bits, "sw_idx_q, sw_idx_d");
    prim_declv(e, x->c->ways, "sw_done_q, sw_done_d");
    emit_nl(e);
    prim_declv(e, x->c->ways,
               "w_v, w_cur, lz, nv, pend, pend_1h, hit, inv_1h, old_1h, vict_1h, sm, sw_pend, "
               "sw_1h");
    if (x->c->lazy)
        prim_declv(e, x->c->ways, "sw_ncur");
    prim_declv(e, x->c->mshrs, "mm, mm_1h, free_1h, pp, pp_1h, s_mm_q, s_mm_d, req_mm");
    prim_decl(e, x->g.laddr_bits, "req_line");
    prim_decl(e, 1,
              "req_fire, chg_fire, ev_fire, fin, fin_fire, cur, busy, busy_ii, busy_pois, "
              "any_hit, full, any_inv, vict_valid, data_e, lazy_show, evict_show, do_alloc, "
              "do_free, do_install, do_use, clr_hit, touch, sw_adv, sw_last, pois_apply, "
              "pois_show, demand");
    prim_decl(e, x->g.age_bits, "hit_age, vict_age");
    prim_decl(e, x->g.tag_bits, "vict_tag, lazy_tag, sw_tag");
    prim_decl(e, x->g.laddr_bits, "pois_line");
    prim_decl(e, 3, "st_kind, st_event, st_act");
    prim_decl(e, 2, "st_from, st_to, from_st");
    prim_decl(e, x->g.laddr_bits, "st_line");
    emit_nl(e);
}

/* the line address (byte) of way w's tag in set `set` */
static void line_of(const gctx *x, char *buf, size_t len, const char *tag, const char *set)
{
    if (x->g.set_bits)
        snprintf(buf, len, "{%s, %s, %u'd0}", tag, set, x->g.line_bits);
    else
        snprintf(buf, len, "{%s, %u'd0}", tag, x->g.line_bits);
}

static void emit_ways(emit_file *e, const gctx *x)
{
    unsigned w, cb = 1 + x->g.tag_bits + x->g.age_bits;
    char s1[48], s2[48], l[96];
    emit(e, "// Per way: valid, tag, LRU age and the band-current bit. The bit is kept");
    emit(e, "// in the RAM: a fill installs only a line of a non-current band, and the");
    emit(e, "// sweep rewrites every set with the bits under the new CER/SEB, so the");
    emit(e, "// stage needs no band shifter per way.");
    emit(e, "assign word = fwd_hit_q ? fwd_q : rdata_q;");
    for (w = 0; w < x->c->ways; w++) {
        emit(e, "logic [%u:0] w%u_tag;", x->g.tag_bits - 1, w);
        emit(e, "logic [%u:0] w%u_age;", x->g.age_bits - 1, w);
        emit(e, "assign w_v[%u] = word[%u];", w, w * x->g.way_word);
        emit(e, "assign w%u_tag = word%s;", w,
             prim_field(s1, sizeof s1, w, x->g.way_word, 1, x->g.tag_bits));
        emit(e, "assign w%u_age = word%s;", w,
             prim_field(s2, sizeof s2, w, x->g.way_word, 1 + x->g.tag_bits, x->g.age_bits));
        emit(e, "assign w_cur[%u] = word[%u];", w, w * x->g.way_word + cb);
        emit(e, "assign hit[%u] = nv[%u] & (w%u_tag == s_tag);", w, w, w);
        emit(e, "assign old_1h[%u] = w%u_age == %u'd%u;", w, w, x->g.age_bits, x->c->ways - 1);
    }
    emit(e, "assign nv = w_v & ~lz;");
    if (x->c->lazy) {
        emit(e, "// The sweep's set word: each way's band under the new SEB, in the new CER.");
        for (w = 0; w < x->c->ways; w++) {
            snprintf(s2, sizeof s2, "rdata_q%s",
                     prim_field(s1, sizeof s1, w, x->g.way_word, 1, x->g.tag_bits));
            line_of(x, l, sizeof l, s2, "sw_idx_q");
            emit(e, "logic [%u:0] w%u_sh;", x->c->addr_bits - 1, w);
            emit(e, "assign w%u_sh = %s >> nseb_q;", w, l);
            emit(e, "assign sw_ncur[%u] = ncer_q[w%u_sh[%u:0]];", w, w, x->c->n - 1);
        }
    }
    emit_nl(e);
}

/* the stage's decode: the request's line and band, MSHR match, hit, victim */
static void emit_stage(emit_file *e, const gctx *x)
{
    unsigned i;
    emit(e, "// Stage decode: the request's line, its band, MSHR match, hit, victim.");
    emit(e, "assign s_line = s_addr_q[%u:%u];", x->c->addr_bits - 1, x->g.line_bits);
    if (x->g.set_bits)
        emit(e, "assign s_set = s_line[%u:0];", x->g.set_bits - 1);
    else
        emit(e, "assign s_set = 1'b0;");
    emit(e, "assign s_tag = s_line[%u:%u];", x->g.laddr_bits - 1, x->g.set_bits);
    emit(e, "// the request's band is looked up when it is accepted (CER and SEB change");
    emit(e, "// only with the stage empty)");
    emit(e, "logic [%u:0] req_sh;", x->c->addr_bits - 1);
    emit(e, "assign req_sh = {req_addr_i[%u:%u], %u'd0} >> seb_q;", x->c->addr_bits - 1,
         x->g.line_bits, x->g.line_bits);
    emit(e, "assign req_cur = cer_q[req_sh[%u:0]];", x->c->n - 1);
    emit(e, "assign cur = s_cur_q;");
    if (x->c->lazy) {
        emit(e, "// lazy invalidation: a demand access to a set untouched in the epoch,");
        emit(e, "// the touched bit as the stage's transition leaves it this cycle");
        emit(e, "assign req_lz = ~req_op_i[1] & ~touched_q[req_set] &");
        emit(e, "    ~(fin_fire & touch & (req_set == s_set));");
    }
    emit(e, "assign demand = ~s_op_q[1];");
    if (x->c->lazy)
        emit(e, "assign lz = s_lz_q ? (w_v & w_cur) : %u'd0;", x->c->ways);
    else
        emit(e, "assign lz = %u'd0; // --no-lazy", x->c->ways);
    emit(e, "assign touch = %s;", x->c->lazy ? "demand" : "1'b0");
    emit(e, "assign pend = lz & ~s_done_q;");
    emit(e, "assign pend_1h = pend & (~pend + %u'd1);", x->c->ways);
    emit(e, "// (hit has at most one bit set: a fill installs only a line absent from");
    emit(e, "// its set, as its MSHR entry stalls every other request to the line)");
    emit(e, "assign any_hit = |hit;");
    emit(e, "// The victim (DATA alone installs or evicts, and invalidates nothing");
    emit(e, "// lazily: the valid bits as read) is valid iff every way is (the LRU");
    emit(e, "// ages are a permutation).");
    emit(e, "assign inv_1h = ~w_v & (w_v + %u'd1);", x->c->ways);
    emit(e, "assign any_inv = ~&w_v;");
    emit(e, "assign vict_1h = any_inv ? inv_1h : old_1h;");
    emit(e, "assign vict_valid = ~any_inv;");
    emit(e, "// MSHR match of the request's line: compared when it is accepted (the");
    emit(e, "// entries change only when the stage's transition leaves).");
    emit(e, "assign req_line = req_addr_i[%u:%u];", x->c->addr_bits - 1, x->g.line_bits);
    for (i = 0; i < x->c->mshrs; i++)
        emit(e, "assign req_mm[%u] = mv_q[%u] & (mline_q[%u:%u] == req_line);", i, i,
             (i + 1) * x->g.laddr_bits - 1, i * x->g.laddr_bits);
    emit(e, "assign mm = s_mm_q;");
    emit(e, "assign mm_1h = mm & (~mm + %u'd1);", x->c->mshrs);
    emit(e, "assign free_1h = ~mv_q & (mv_q + %u'd1);", x->c->mshrs);
    emit(e, "assign busy = |mm;");
    emit(e, "assign busy_ii = |(mm_1h & mii_q);");
    emit(e, "assign busy_pois = |(mm_1h & mpois_q);");
    emit(e, "assign full = &mv_q;");
    emit(e, "assign data_e = cur | busy_pois;");
    emit(e, "assign from_st = busy ? (busy_ii ? 2'd3 : 2'd2) : (any_hit ? 2'd1 : 2'd0);");
    prim_and_or(e, "vict_tag", "vict_1h", x->c->ways, "word", x->g.way_word, 1, x->g.tag_bits);
    prim_and_or(e, "lazy_tag", "pend_1h", x->c->ways, "word", x->g.way_word, 1, x->g.tag_bits);
    emit_nl(e);
}

/* Table 1 on the decoded stage: the event, the transition and its actions */
static void emit_table1(emit_file *e, const gctx *x)
{
    char l[96];
    emit(e, "// Table 1 (spec 3.5): one event a cycle; lazy INVs, an eviction, then");
    emit(e, "// the transition (fin), which writes the set back and frees the stage.");
    emit_begin(e, "always_comb begin");
    emit(e, "st_kind = 3'd0;");
    emit(e, "st_event = 3'd0;");
    emit(e, "st_from = from_st;");
    emit(e, "st_to = from_st;");
    emit(e, "st_act = 3'd0;");
    emit(e, "st_line = s_line;");
    emit(e, "fin = 1'b1;");
    emit(e, "pw_new = pw_q;");
    emit(e, "lazy_show = 1'b0;");
    emit(e, "evict_show = 1'b0;");
    emit(e, "do_alloc = 1'b0;");
    emit(e, "do_free = 1'b0;");
    emit(e, "do_install = 1'b0;");
    emit(e, "do_use = 1'b0;");
    emit(e, "clr_hit = 1'b0;");
    emit(e, "if (demand && |pend) begin // (only a demand access invalidates lazily)");
    line_of(x, l, sizeof l, "lazy_tag", "s_set");
    emit(e, "  st_kind = 3'd2; // INV lazy");
    emit(e, "  st_from = 2'd0;");
    emit(e, "  st_to = 2'd0;");
    emit(e, "  st_line = {lazy_tag%s};", x->g.set_bits ? ", s_set" : "");
    emit(e, "  fin = 1'b0;");
    emit(e, "  lazy_show = 1'b1;");
    emit(e, "end else begin");
    emit(e, "  case (s_op_q)");
    emit(e, "    2'd0: begin // LD: Load, or Load_U when the band is current");
    emit(e, "      st_event = cur ? 3'd2 : 3'd1;");
    emit(e, "      if (busy) st_kind = 3'd1;");
    emit(e, "      else if (!cur && any_hit) begin");
    emit(e, "        st_act = 3'd0; // hit");
    emit(e, "        do_use = 1'b1;");
    emit(e, "      end else if (full) st_kind = 3'd1;");
    emit(e, "      else begin");
    emit(e, "        clr_hit = 1'b1; // Load_U on V drops the copy");
    emit(e, "        st_to = cur ? 2'd3 : 2'd2;");
    emit(e, "        st_act = cur ? 3'd2 : 3'd1;");
    emit(e, "        do_alloc = 1'b1;");
    emit(e, "      end");
    emit(e, "    end");
    emit(e, "    2'd1: begin // ST: write through, no allocate");
    emit(e, "      st_event = 3'd0;");
    emit(e, "      if (busy || pw_q == %u'd%u) st_kind = 3'd1;", x->c->pw_bits, x->g.pw_max);
    emit(e, "      else begin");
    emit(e, "        clr_hit = 1'b1;");
    emit(e, "        st_to = 2'd0;");
    emit(e, "        st_act = 3'd3;");
    emit(e, "        pw_new = pw_q + %u'd1;", x->c->pw_bits);
    emit(e, "      end");
    emit(e, "    end");
    emit(e, "    2'd2: begin // DATA: Data_E if current or poisoned (S1)");
    emit(e, "      if (!busy) begin");
    emit(e, "        st_kind = 3'd6;");
    emit(e, "        st_from = 2'd0;");
    emit(e, "        st_to = 2'd0;");
    emit(e, "      end else begin");
    emit(e, "        st_event = data_e ? 3'd4 : 3'd3;");
    emit(e, "        st_act = 3'd4;");
    emit(e, "        st_to = 2'd0;");
    emit(e, "        if (!busy_ii && !data_e && vict_valid && !s_evd_q) begin");
    emit(e, "          st_kind = 3'd3; // INV evict");
    emit(e, "          st_event = 3'd0;");
    emit(e, "          st_act = 3'd0;");
    emit(e, "          st_from = 2'd0;");
    line_of(x, l, sizeof l, "vict_tag", "s_set");
    emit(e, "          st_line = {vict_tag%s};", x->g.set_bits ? ", s_set" : "");
    emit(e, "          fin = 1'b0;");
    emit(e, "          evict_show = 1'b1;");
    emit(e, "        end else begin");
    emit(e, "          do_free = 1'b1;");
    emit(e, "          if (!busy_ii && !data_e) begin");
    emit(e, "            do_install = 1'b1;");
    emit(e, "            do_use = 1'b1;");
    emit(e, "            st_to = 2'd1;");
    emit(e, "          end");
    emit(e, "        end");
    emit(e, "      end");
    emit(e, "    end");
    emit(e, "    default: begin // WA: PW--");
    emit(e, "      if (pw_q == %u'd0) begin", x->c->pw_bits);
    emit(e, "        st_kind = 3'd6;");
    emit(e, "        st_from = 2'd0;");
    emit(e, "        st_to = 2'd0;");
    emit(e, "      end else begin");
    emit(e, "        st_event = 3'd5;");
    emit(e, "        st_act = 3'd5;");
    emit(e, "        pw_new = pw_q - %u'd1;", x->c->pw_bits);
    emit(e, "      end");
    emit(e, "    end");
    emit(e, "  endcase");
    emit(e, "end");
    emit_end(e, "end");
    emit_nl(e);
}

static void emit_update(emit_file *e, const gctx *x)
{
    unsigned w;
    char s1[48], s2[48], s3[48];
    emit(e, "// The written-back set word: lazy and dropped copies cleared, a fill");
    emit(e, "// installed in the victim way (its band never current: Data_E does not");
    emit(e, "// install), LRU ages of the used way's set updated.");
    emit(e, "// (the ages below the used way's move up by one: the hit's and the");
    emit(e, "// victim's compared apart, the transition chooses)");
    prim_and_or(e, "hit_age", "hit", x->c->ways, "word", x->g.way_word, 1 + x->g.tag_bits,
                x->g.age_bits);
    prim_and_or(e, "vict_age", "vict_1h", x->c->ways, "word", x->g.way_word, 1 + x->g.tag_bits,
                x->g.age_bits);
    for (w = 0; w < x->c->ways; w++) {
        prim_field(s1, sizeof s1, w, x->g.way_word, 1, x->g.tag_bits);
        prim_field(s2, sizeof s2, w, x->g.way_word, 1 + x->g.tag_bits, x->g.age_bits);
        prim_field(s3, sizeof s3, w, x->g.way_word, 1 + x->g.tag_bits + x->g.age_bits, 1);
        emit(e, "assign new_word%s = ~(do_install & vict_1h[%u]) & w_cur[%u];", s3, w, w);
        emit(e, "assign new_word[%u] = (nv[%u] & ~(clr_hit & hit[%u])) | (do_install & vict_1h[%u]);",
             w * x->g.way_word, w, w, w);
        emit(e, "assign new_word%s = (do_install & vict_1h[%u]) ? s_tag : w%u_tag;", s1, w, w);
        emit(e, "assign new_word%s = do_install ? (vict_1h[%u] ? %u'd0 :", s2, w, x->g.age_bits);
        emit(e, "    (w%u_age < vict_age) ? w%u_age + %u'd1 : w%u_age) :", w, w, x->g.age_bits, w);
        emit(e, "    !do_use ? w%u_age : hit[%u] ? %u'd0 :", w, w, x->g.age_bits);
        emit(e, "    (w%u_age < hit_age) ? w%u_age + %u'd1 : w%u_age;", w, w, x->g.age_bits, w);
        emit(e, "assign sweep_word[%u] = w_v[%u] & ~sm[%u];", w * x->g.way_word, w, w);
        emit(e, "assign sweep_word%s = w%u_tag;", s1, w);
        emit(e, "assign sweep_word%s = w%u_age;", s2, w);
        if (x->c->lazy)
            emit(e, "assign sweep_word%s = sw_ncur[%u];", s3, w);
        else
            emit(e, "assign sweep_word%s = w_cur[%u]; // --no-lazy: never written", s3, w);
        emit(e, "assign init_word%s = 1'b0;", s3);
        emit(e, "assign init_word[%u] = 1'b0;", w * x->g.way_word);
        emit(e, "assign init_word%s = %u'd0;", s1, x->g.tag_bits);
        emit(e, "assign init_word%s = %u'd%u;", s2, x->g.age_bits, w);
    }
    emit_nl(e);
}

static void emit_chg(emit_file *e, const gctx *x)
{
    unsigned i;
    emit(e, "// ChangeEpoch: sweep the sets untouched in the ending epoch (old CER/SEB),");
    emit(e, "// one set a cycle plus one cycle per INV; then poison the outstanding");
    emit(e, "// cacheable loads of the new epochs (S1); then take the new CER/SEB.");
    if (x->c->lazy)
        emit(e, "assign sm = (ph_q == 2'd1 && !touched_q[sw_idx_q]) ? (w_v & w_cur) : %u'd0;",
             x->c->ways);
    else
        emit(e, "assign sm = %u'd0; // --no-lazy: no sweep", x->c->ways);
    emit(e, "assign sw_pend = sm & ~sw_done_q;");
    emit(e, "assign sw_1h = sw_pend & (~sw_pend + %u'd1);", x->c->ways);
    prim_and_or(e, "sw_tag", "sw_1h", x->c->ways, "word", x->g.way_word, 1, x->g.tag_bits);
    emit(e, "assign sw_adv = (ph_q == 2'd1) & ~|sw_pend;");
    emit(e, "assign sw_last = sw_idx_q == %u'd%u;", x->idx_bits, x->c->sets - 1);
    if (x->c->poison) {
        emit(e, "// Whether each MSHR line's band under the new SEB is in the new CER:");
        emit(e, "// looked up when the ChangeEpoch is accepted (no line is allocated");
        emit(e, "// until it is taken).");
        for (i = 0; i < x->c->mshrs; i++) {
            emit(e, "logic [%u:0] m%u_sh;", x->c->addr_bits - 1, i);
            emit(e, "assign m%u_sh = {mline_q[%u:%u], %u'd0} >> chg_seb_i;", i,
                 (i + 1) * x->g.laddr_bits - 1, i * x->g.laddr_bits, x->g.line_bits);
            emit(e, "assign mnc_new[%u] = chg_cer_i[m%u_sh[%u:0]];", i, i, x->c->n - 1);
            emit(e, "assign pp[%u] = (ph_q == 2'd2) & mv_q[%u] & ~mii_q[%u] & ~mpois_q[%u] & "
                    "mnc_q[%u];",
                 i, i, i, i, i);
        }
    } else {
        emit(e, "assign pp = %u'd0; // --no-poison: paper-literal Table 1", x->c->mshrs);
    }
    emit(e, "assign pp_1h = pp & (~pp + %u'd1);", x->c->mshrs);
    emit(e, "assign pois_show = |pp;");
    emit(e, "assign pois_apply = (ph_q == 2'd2) & ~|pp;");
    prim_and_or(e, "pois_line", "pp_1h", x->c->mshrs, "mline_q", x->g.laddr_bits, 0,
                x->g.laddr_bits);
    emit_nl(e);
}

static void emit_ctrl(emit_file *e, const gctx *x)
{
    unsigned i;
    emit(e, "// Handshakes: a request is accepted when the stage is empty or leaves");
    emit(e, "// this cycle; a ChangeEpoch only with the stage empty (and first).");
    emit(e, "assign fin_fire = s_valid_q & fin & ev_ready_i;");
    emit(e, "assign req_ready_o = ~init_q & (ph_q == 2'd0) & ~chg_valid_i & (~s_valid_q | fin_fire);");
    emit(e, "assign req_fire = req_valid_i & req_ready_o;");
    emit(e, "assign chg_ready_o = ~init_q & (ph_q == 2'd0) & ~s_valid_q;");
    emit(e, "assign chg_fire = chg_valid_i & chg_ready_o;");
    emit(e, "assign ev_fire = ev_valid_o & ev_ready_i;");
    if (x->g.set_bits)
        emit(e, "assign req_set = req_addr_i[%u:%u];", x->g.line_bits + x->g.set_bits - 1, x->g.line_bits);
    else
        emit(e, "assign req_set = 1'b0;");
    emit(e, "// a free MSHR entry follows the stage's line (a line is read only while");
    emit(e, "// its entry is valid): an allocation needs no enable from the transition");
    for (i = 0; i < x->c->mshrs; i++)
        emit(e, "assign mline_d[%u:%u] = mv_q[%u] ? mline_q[%u:%u] : s_line;",
             (i + 1) * x->g.laddr_bits - 1, i * x->g.laddr_bits, i, (i + 1) * x->g.laddr_bits - 1,
             i * x->g.laddr_bits);
    if (x->c->sets > 1)
        emit(e, "assign set_1h = %u'd1 << s_set;", x->c->sets);
    else
        emit(e, "assign set_1h = 1'b1;");
    if (x->c->addr_bits > x->c->n) {
        prim_decl(e, 1, "unused_sh");
        emit_raw(e, "  assign unused_sh = ^{req_sh[%u:%u]", x->c->addr_bits - 1, x->c->n);
        for (i = 0; x->c->lazy && i < x->c->ways; i++)
            emit_raw(e, ", w%u_sh[%u:%u]", i, x->c->addr_bits - 1, x->c->n);
        for (i = 0; x->c->poison && i < x->c->mshrs; i++)
            emit_raw(e, ", m%u_sh[%u:%u]", i, x->c->addr_bits - 1, x->c->n);
        emit_raw(e, "};\n");
    }
    if (!x->c->lazy) {
        prim_decl(e, 1, "unused_nolazy");
        emit(e, "assign unused_nolazy = demand; // --no-lazy: no lazy invalidation");
    }
    emit(e, "assign chg_done_o = pois_apply;");
    emit(e, "assign pw_o = pw_q;");
    emit(e, "assign ev_valid_o = s_valid_q | (ph_q == 2'd1 && |sw_pend) | pois_show;");
    emit(e, "assign ev_kind_o = s_valid_q ? st_kind : (ph_q == 2'd1 && |sw_pend) ? 3'd4 :");
    emit(e, "    pois_show ? 3'd5 : 3'd0;");
    emit(e, "assign ev_event_o = s_valid_q ? st_event : 3'd0;");
    emit(e, "assign ev_from_o = s_valid_q ? st_from : 2'd0;");
    emit(e, "assign ev_to_o = s_valid_q ? st_to : 2'd0;");
    emit(e, "assign ev_act_o = s_valid_q ? st_act : 3'd0;");
    emit(e, "assign ev_pw_o = s_valid_q ? pw_new : pw_q;");
    if (x->g.set_bits)
        emit(e, "assign ev_line_o = s_valid_q ? st_line : (ph_q == 2'd1 && |sw_pend) ? "
                "{sw_tag, sw_idx_q} :");
    else
        emit(e, "assign ev_line_o = s_valid_q ? st_line : (ph_q == 2'd1 && |sw_pend) ? sw_tag :");
    emit(e, "    pois_show ? pois_line : %u'd0;", x->g.laddr_bits);
    emit_nl(e);
    emit(e, "// RAM ports: one read (accepted request, sweep), one write (init pass,");
    emit(e, "// sweep, the stage's write back).");
    emit(e, "assign rd_en = req_fire | (chg_fire & %s) | (sw_adv & ~sw_last);",
         x->c->lazy ? "1'b1" : "1'b0");
    emit(e, "// (the address does not wait for the handshake: the enable qualifies it)");
    emit(e, "assign rd_idx = (ph_q == 2'd1) ? sw_idx_q + %u'd1 : chg_valid_i ? %u'd0 : req_set;",
         x->idx_bits, x->idx_bits);
    emit(e, "assign wr_en = init_q | sw_adv | fin_fire;");
    emit(e, "assign wr_idx = init_q ? init_idx_q : (ph_q == 2'd1) ? sw_idx_q : s_set;");
    emit(e, "assign wr_word = init_q ? init_word : (ph_q == 2'd1) ? sweep_word : new_word;");
    emit_nl(e);
    emit_begin(e, "always_comb begin");
    prim_hold(e, "init init_idx");
    emit(e, "if (init_q) begin");
    emit(e, "  if (init_idx_q == %u'd%u) init_d = 1'b0;", x->idx_bits, x->c->sets - 1);
    emit(e, "  else init_idx_d = init_idx_q + %u'd1;", x->idx_bits);
    emit(e, "end");
    prim_hold(e, "s_valid s_op s_addr s_done s_evd s_cur%s s_mm touched mv mii mpois%s pw fwd_hit fwd "
                 "cer seb ncer nseb ph sw_idx sw_done", x->c->lazy ? " s_lz" : "",
              x->c->poison ? " mnc" : "");
    emit(e, "if (ev_fire && lazy_show) s_done_d = s_done_q | pend_1h;");
    emit(e, "if (ev_fire && evict_show) s_evd_d = 1'b1;");
    emit(e, "if (fin_fire) begin");
    emit(e, "  s_valid_d = 1'b0;");
    emit(e, "  if (touch) touched_d = touched_q | set_1h;");
    emit(e, "  if (do_alloc) begin");
    emit(e, "    mv_d = mv_q | free_1h;");
    emit(e, "    mii_d = (mii_q & ~free_1h) | ({%u{cur}} & free_1h);", x->c->mshrs);
    emit(e, "    mpois_d = mpois_q & ~free_1h;");
    emit(e, "  end");
    emit(e, "  if (do_free) mv_d = mv_q & ~mm_1h;");
    emit(e, "  pw_d = pw_new;");
    emit(e, "end");
    emit(e, "if (ph_q == 2'd1) begin");
    emit(e, "  if (|sw_pend) begin");
    emit(e, "    if (ev_ready_i) sw_done_d = sw_done_q | sw_1h;");
    emit(e, "  end else begin");
    emit(e, "    sw_done_d = %u'd0;", x->c->ways);
    emit(e, "    if (sw_last) ph_d = 2'd2;");
    emit(e, "    else sw_idx_d = sw_idx_q + %u'd1;", x->idx_bits);
    emit(e, "  end");
    emit(e, "end");
    emit(e, "if (ph_q == 2'd2) begin");
    emit(e, "  if (pois_show) begin");
    emit(e, "    if (ev_ready_i) mpois_d = mpois_q | pp_1h;");
    emit(e, "  end else begin");
    emit(e, "    cer_d = ncer_q;");
    emit(e, "    seb_d = nseb_q;");
    emit(e, "    touched_d = %u'd0;", x->c->sets);
    emit(e, "    ph_d = 2'd0;");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "if (chg_fire) begin");
    emit(e, "  ncer_d = chg_cer_i;");
    emit(e, "  nseb_d = chg_seb_i;");
    if (x->c->poison)
        emit(e, "  mnc_d = mnc_new;");
    emit(e, "  fwd_hit_d = 1'b0; // the sweep reads the RAM");
    emit(e, "  sw_idx_d = %u'd0;", x->idx_bits);
    emit(e, "  sw_done_d = %u'd0;", x->c->ways);
    emit(e, "  ph_d = %s;", x->c->lazy ? "2'd1" : "2'd2");
    emit(e, "end");
    emit(e, "if (req_fire) begin");
    emit(e, "  s_valid_d = 1'b1;");
    emit(e, "  s_op_d = req_op_i;");
    emit(e, "  s_addr_d = req_addr_i;");
    emit(e, "  s_done_d = %u'd0;", x->c->ways);
    emit(e, "  s_evd_d = 1'b0;");
    emit(e, "  s_cur_d = req_cur;");
    if (x->c->lazy) {
        emit(e, "  s_lz_d = req_lz;");
    }
    emit(e, "  // the entries as the stage's transition leaves them this cycle");
    emit(e, "  s_mm_d = req_mm;");
    emit(e, "  if (fin_fire && do_alloc)");
    emit(e, "    s_mm_d = (req_mm & ~free_1h) | ({%u{s_line == req_line}} & free_1h);", x->c->mshrs);
    emit(e, "  if (fin_fire && do_free) s_mm_d = req_mm & ~mm_1h;");
    emit(e, "  // a write back to the set read this cycle reaches it by forwarding");
    emit(e, "  fwd_hit_d = fin_fire && (req_set == s_set);");
    emit(e, "  fwd_d = new_word;");
    emit(e, "end");
    emit_end(e, "end");
    emit_nl(e);
}

static void emit_regs(emit_file *e, const gctx *x)
{
    emit(e, "// Set RAM: synchronous read with enable, one write port; no reset (the");
    emit(e, "// init pass writes every set after reset, one a cycle).");
    prim_ram_ports(e, &(prim_ram){"mem_q", "wr_en", "wr_idx", "wr_word", "rd_en", "rdata_q",
                   "rd_idx", 1});
    emit_nl(e);
    prim_regs rl = {0};
    prim_regs_list(&rl, "init=1'b1 init_idx='0 s_valid=1'b0 s_op=2'd0 s_addr='0 s_done='0 "
                        "s_evd=1'b0 s_cur=1'b0 s_mm='0 touched='0 mv='0 mii='0 mpois='0 mline='0 pw='0 fwd_hit=1'b0 "
                        "fwd='0");
    {
        char ep[1100], hex[80];
        unsigned k, words = (x->g.epochs + 63) / 64;
        ep[0] = '\0';
        for (k = words; k-- > 0;) {
            unsigned wbits = x->g.epochs - 64 * k > 64 ? 64 : x->g.epochs - 64 * k;
            snprintf(hex, sizeof hex, "%s%u'h%llx", k + 1 < words ? ", " : "", wbits,
                     (unsigned long long)x->c->epoch.w[k]);
            strncat(ep, hex, sizeof ep - strlen(ep) - 1);
        }
        prim_reg(&rl, "cer", "{%s}", ep);
    }
    prim_reg(&rl, "seb", "%u'd%u", x->g.seb_bits, x->c->seb);
    prim_regs_list(&rl, "ncer='0 nseb='0 ph=2'd0 sw_idx='0 sw_done='0");
    if (x->c->poison)
        prim_regs_list(&rl, "mnc='0");
    if (x->c->lazy)
        prim_regs_list(&rl, "s_lz=1'b0");
    prim_regs_block(e, &rl);
}

/* Properties (spec 8): a fill never installs a line of a current band;
 * poisoned responses never install; the touched bits are clear right after
 * a ChangeEpoch is taken; PW never wraps. */
static void emit_formal(emit_file *e, const gctx *x)
{
    static const char *const samples[] = {"f_apply_q <= rst_ni & pois_apply", NULL};
    emit_nl(e);
    prim_formal_begin(e, NULL);
    emit(e, "logic f_apply_q = 1'b0;");
    prim_formal_samples(e, samples);
    prim_formal_assume(e, NULL, 0);
    emit(e, "  if (rst_ni && fin_fire && do_install) p_fill_not_current: assert(!cur && !busy_pois);");
    emit(e, "  if (rst_ni && f_apply_q) p_touched_clear: assert(touched_q == %u'd0);", x->c->sets);
    emit(e, "  if (rst_ni && fin_fire && s_op_q == 2'd1 && st_kind == 3'd0) p_pw_nowrap: assert(pw_q != %u'd%u);",
         x->c->pw_bits, x->g.pw_max);
    emit(e, "end");
    emit(e, "`endif");
}

static void emit_module(emit_file *e, const void *cfg, const block_desc *b)
{
    gctx x;
    GEN_CTX_INIT(x, cfg, stc_l1_geom);
    x.idx_bits = x.g.set_bits ? x.g.set_bits : 1;

    emit(e, "// STC L1 controller (TACO 2023 4.2, 4.5, Table 1; spec stc.md 3.5, S1):");
    emit(e, "// write-through, no-write-allocate VI cache with Load_U / I_I / Data_E, lazy");
    emit(e, "// invalidation, end-of-epoch sweep%s%s; see docs/stc.md.",
         x.c->poison ? " and the per-load poison bit" : ", paper-literal (no poison bit)",
         x.c->lazy ? "" : " (disabled: --no-lazy)");
    PRIM_MODULE(e, b, gctx, &x, emit_decls, emit_ways, emit_stage, emit_table1, emit_update, emit_chg, emit_ctrl,
                emit_regs, emit_formal);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(stc_l1_cfg, stc_l1_geom);
    snprintf(buf, len,
             "n=%u seb=%u seb_min=%u seb_max=%u addr_bits=%u sets=%u ways=%u line=%u mshrs=%u "
             "pw_bits=%u poison=%u lazy=%u\n"
             "tag_bits=%u age_bits=%u way_word=%u set_word=%u laddr_bits=%u seb_bits=%u\n"
             "ram_bits=%llu flop_bits=%llu",
             c->n, c->seb, c->seb_min, c->seb_max, c->addr_bits, c->sets, c->ways, c->line,
             c->mshrs, c->pw_bits, c->poison, c->lazy, g.tag_bits, g.age_bits, g.way_word,
             g.set_word, g.laddr_bits, g.seb_bits, (unsigned long long)g.ram_bits,
             (unsigned long long)g.flop_bits);
}

static void gen_report(FILE *f, const void *cfg, int json)
{
    GEN_CFG_GEOM(stc_l1_cfg, stc_l1_geom);
    if (json) {
        fprintf(f,
                "{\"sets\":%u,\"ways\":%u,\"line\":%u,\"mshrs\":%u,\"tag_bits\":%u,"
                "\"age_bits\":%u,\"set_word\":%u,\"ram_bits\":%llu,\"flop_bits\":%llu,"
                "\"rtl_memories\":[[%u,%u]],\"poison\":%u,\"lazy\":%u,"
                "\"paper_note\":\"Table 4 lists no L1 addition; the kit adds touched bits (%u), "
                "poison bits (%u) and the I_I state\"}\n",
                c->sets, c->ways, c->line, c->mshrs, g.tag_bits, g.age_bits, g.set_word,
                (unsigned long long)g.ram_bits, (unsigned long long)g.flop_bits, c->sets,
                g.set_word, c->poison, c->lazy, c->sets, c->poison ? c->mshrs : 0);
        return;
    }
    fprintf(f, "STC L1: %u sets x %u ways x %u B lines (%u KB), %u MSHRs, N = %u%s%s\n", c->sets,
            c->ways, c->line, c->sets * c->ways * c->line / 1024, c->mshrs, c->n,
            c->poison ? "" : ", no poison bit (paper-literal)", c->lazy ? "" : ", no lazy");
    fprintf(f, "  tag RAM: %u x %u bits = %llu bits (valid, %u-bit tag, %u-bit LRU age per way)\n",
            c->sets, g.set_word, (unsigned long long)g.ram_bits, g.tag_bits, g.age_bits);
    fprintf(f, "  state flip-flops: %llu bits (touched %u, MSHRs %u x %u, CER 2 x %u, SEB 2 x %u, PW %u;\n"
                   "  besides the stage and the one-set-word forwarding register)\n",
            (unsigned long long)g.flop_bits, c->sets, c->mshrs, 3 + g.laddr_bits, g.epochs,
            g.seb_bits, c->pw_bits);
    fprintf(f, "  STC additions over a VI L1: touched bits %u, poison bits %u, I_I (MSHR bit) %u\n",
            c->sets, c->poison ? c->mshrs : 0, c->mshrs);
}

const gen_unit stc_l1_gen_unit = {"stc-l1", emit_module, gen_params, gen_report, NULL};
