/*
 * DualOpt decision-engine generator: Verilog of the monitoring counters and
 * the pipelined exact threshold comparisons of Belayneh et al., section 4.3
 * (Fig. 10-12, Table 1). Four stages: input register (mask popcount) |
 * counting and window close | constant cross products | compare and publish.
 * Microarchitecture and timing: docs/dualopt.md; golden model:
 * cmodel/dualopt/dualopt_de.c.
 */
#include <stdio.h>
#include <string.h>

#include "dualopt_de.h"
#include "gen_unit.h"
#include "prim.h"
#include "selftest.h"

typedef struct {
    const dualopt_de_cfg *c;
    dualopt_de_geom g;
} gctx;

/* `expr` (w bits) zero-extended to `to` bits. */
static const char *ext(char *buf, size_t len, unsigned to, const char *expr, unsigned w)
{
    if (to == w)
        snprintf(buf, len, "%s", expr);
    else
        snprintf(buf, len, "{%u'd0, %s}", to - w, expr);
    return buf;
}

static const char *const cnt_names[] = {"total", "remote", "reads", "words", "hits"};

/* FMT once per counter, in counter order, every %s of it the counter's
 * name (at most four). */
static void cnt_lines(emit_file *e, const char *fmt)
{
    unsigned i;
    for (i = 0; i < 5; i++)
        emit(e, fmt, cnt_names[i], cnt_names[i], cnt_names[i], cnt_names[i]);
}

static unsigned cnt_width(const gctx *x, unsigned i)
{
    const unsigned w[] = {x->g.total_bits, x->g.remote_bits, x->g.reads_bits, x->g.words_bits, x->g.hits_bits};
    return w[i];
}

static void emit_decls(emit_file *e, const gctx *x)
{
    char b[96];
    unsigned i;
    prim_decl(e, 1, "ready_q");
    prim_decl(e, 1, "a_valid_q, a_hit_q, a_rst_q");
    prim_decl(e, 2, "a_kind_q");
    prim_decl(e, x->g.pop_bits, "a_pop_q, pop");
    if (x->c->remonitor)
        prim_decl(e, 1, "a_kern_q");
    else
        prim_decl(e, 1, "unused_kernel");
    prim_decl(e, 2, "phase_q, phase_d");
    if (x->c->warmup)
        prim_decl(e, x->g.warm_bits, "warm_q, warm_d");
    prim_decl(e, 1, "remote, is_read, counting, close, rearm");
    for (i = 0; i < 5; i++) {
        snprintf(b, sizeof b, "%s_q, %s_d, %s_inc, s1_%s_q, s2_%s_q, dec_%s_q", cnt_names[i],
                 cnt_names[i], cnt_names[i], cnt_names[i], cnt_names[i], cnt_names[i]);
        prim_decl(e, cnt_width(x, i), b);
    }
    if (x->c->warmup)
        prim_decl(e, 1, "warm_step");
    prim_decl(e, 1, "s1_valid_q, s1_live_q, s2_valid_q, s2_live_q");
    prim_decl(e, x->g.ratio_bits, "s2_ratio_a_q, s2_ratio_b_q");
    prim_decl(e, x->g.block_bits, "s2_block_a_q, s2_block_b_q");
    prim_decl(e, x->g.hit_bits, "s2_hit_a_q, s2_hit_b_q");
    prim_decl(e, 1, "is_none, is_coal");
    prim_decl(e, 2, "dec");
    prim_decl(e, 1, "dec_valid_q");
    prim_decl(e, 2, "dec_mode_q, mode_q, mode_d");
    prim_decl(e, 1, "coal_q, cache_q");
    emit_nl(e);
}

/* Stage 0: the access and the boundary events, registered; the popcount of
 * the mask is computed on the way in (a pop_bits-bit adder chain over the mask bits). */
static void emit_input(emit_file *e, const gctx *x)
{
    unsigned i;
    char b[64];
    emit(e, "// stage 0: input register (one access per cycle, never back-pressured");
    emit(e, "// after reset), mask popcount");
    emit_raw(e, "  assign pop = ");
    for (i = 0; i < x->c->words; i++) {
        char bit[32];
        snprintf(bit, sizeof bit, x->c->words > 1 ? "acc_mask_i[%u]" : "acc_mask_i", i);
        emit_raw(e, "%s%s", i ? (i % 4 == 0 ? "\n      + " : " + ") : "",
                 ext(b, sizeof b, x->g.pop_bits, bit, 1));
    }
    emit_raw(e, ";\n");
    emit(e, "assign acc_ready_o = ready_q;");
    if (!x->c->remonitor)
        emit(e, "assign unused_kernel = kernel_i;  // boundaries matter only with re-monitoring");
    emit_nl(e);
}

/* Stage 1: counters of the window; the close and the re-arm. */
static void emit_count(emit_file *e, const gctx *x)
{
    char b[160], w[64];
    emit(e, "// stage 1: counting (spec 2.6 steps 1-3); the window closes on the access");
    emit(e, "// that makes remote = %u or total = %llu; an access is ordered before a", x->c->window,
         (unsigned long long)x->g.cap);
    emit(e, "// boundary event of the same cycle");
    emit(e, "assign remote = a_kind_q[1];");
    emit(e, "assign is_read = ~a_kind_q[0];");
    emit(e, "assign counting = a_valid_q & (phase_q == 2'd1);");
    if (x->c->warmup)
        emit(e, "assign warm_step = a_valid_q & (phase_q == 2'd0);");
    emit(e, "assign total_inc = total_q + %u'd1;", x->g.total_bits);
    emit(e, "assign remote_inc = remote_q + %s;", ext(b, sizeof b, x->g.remote_bits, "remote", 1));
    emit(e, "assign reads_inc = reads_q + %s;",
         ext(b, sizeof b, x->g.reads_bits, "(remote & is_read)", 1));
    snprintf(w, sizeof w, "(remote & is_read ? a_pop_q : %u'd0)", x->g.pop_bits);
    emit(e, "assign words_inc = words_q + %s;", ext(b, sizeof b, x->g.words_bits, w, x->g.pop_bits));
    emit(e, "assign hits_inc = hits_q + %s;",
         ext(b, sizeof b, x->g.hits_bits,
             x->c->hit_all ? "(remote & a_hit_q)" : "(remote & is_read & a_hit_q)", 1));
    emit(e, "assign close = counting & ((remote & (remote_q == %u'd%u)) | (total_q == %u'd%llu));",
         x->g.remote_bits, x->c->window - 1, x->g.total_bits, (unsigned long long)(x->g.cap - 1));
    if (x->c->remonitor)
        emit(e, "assign rearm = a_rst_q | (a_kern_q & ((phase_q == 2'd2) | close));");
    else
        emit(e, "assign rearm = a_rst_q;");
    emit_nl(e);
    emit_begin(e, "always_comb begin");
    prim_hold(e, "phase%s", x->c->warmup ? " warm" : "");
    cnt_lines(e, "%s_d = %s_q;");
    emit(e, "if (rearm) begin");
    emit(e, "  phase_d = 2'd%u;", x->c->warmup ? 0 : 1);
    if (x->c->warmup)
        emit(e, "  warm_d = '0;");
    cnt_lines(e, "  %s_d = '0;");
    emit(e, "end else if (counting) begin");
    cnt_lines(e, "  %s_d = %s_inc;");
    emit(e, "  if (close)");
    emit(e, "    phase_d = 2'd2;");
    if (x->c->warmup) {
        emit(e, "end else if (warm_step) begin");
        emit(e, "  warm_d = warm_q + %u'd1;", x->g.warm_bits);
        emit(e, "  if (warm_q == %u'd%u) begin", x->g.warm_bits, x->c->warmup - 1);
        emit(e, "    phase_d = 2'd1;");
        emit(e, "    warm_d = '0;");
        emit(e, "  end");
    }
    emit(e, "end");
    emit_end(e, "end");
    emit_nl(e);
}

/* Stages 2-3: cross products with the thresholds' constants, registered;
 * then three comparators and Fig. 11's flow into the decision register. */
static void emit_decide(emit_file *e, const gctx *x)
{
    const dualopt_de_cfg *c = x->c;
    emit(e, "// stage 3: compare (\"below\" is strict) and publish; Fig. 11:");
    emit(e, "// remote * %u < %u * total -> NONE; else reads > 0 and", c->remote_th.den,
         c->remote_th.num);
    emit(e, "// words * %u < %u * reads and hits * %u < %u * %s -> COALESCE; else CACHE",
         c->block_th.den, c->block_th.num * c->words, c->hit_th.den, c->hit_th.num,
         c->hit_all ? "remote" : "reads");
    emit(e, "assign is_none = s2_ratio_a_q < s2_ratio_b_q;");
    emit(e, "assign is_coal = (s2_reads_q != %u'd0) & (s2_block_a_q < s2_block_b_q) &",
         x->g.reads_bits);
    emit(e, "                 (s2_hit_a_q < s2_hit_b_q);");
    emit(e, "assign dec = is_none ? 2'd1 : is_coal ? 2'd2 : 2'd3;");
    emit(e, "always_comb begin");
    emit(e, "  mode_d = mode_q;");
    emit(e, "  if (rearm)");
    emit(e, "    mode_d = 2'd0;");
    emit(e, "  else if (s2_valid_q & s2_live_q)");
    emit(e, "    mode_d = dec;");
    emit(e, "end");
    emit_nl(e);
    prim_outputs(e, "dec_valid dec_mode");
    cnt_lines(e, "assign dec_%s_o = dec_%s_q;");
    prim_outputs(e, "mode");
    emit(e, "assign bgu_mask_o = coal_q;");
    emit(e, "assign scbu_bypass_o = coal_q;");
    emit(e, "assign mshr_mask_o = coal_q;");
    emit(e, "assign rcache_en_o = cache_q;");
    cnt_lines(e, "assign cnt_%s_o = %s_q;");
    emit_nl(e);
}

static void emit_regs(emit_file *e, const gctx *x)
{
    const dualopt_de_cfg *c = x->c;
    char b1[96], b2[96];
    prim_regs in = {0}, pipe = {0}, dec = {0};
    prim_regs_list(&in, "ready=1'b0 a_valid=1'b0 a_kind=2'd0 a_hit=1'b0 a_pop='0");
    if (c->remonitor)
        prim_regs_list(&in, "a_kern=1'b0");
    prim_regs_list(&in, "a_rst=1'b0");
    prim_reg(&in, "phase", "2'd%u", c->warmup ? 0 : 1);
    if (c->warmup)
        prim_regs_list(&in, "warm='0");
    prim_regs_list(&pipe, "s1_valid=1'b0 s1_live=1'b0 s2_valid=1'b0 s2_live=1'b0");
    prim_regs_list(&dec, "dec_valid=1'b0 dec_mode=2'd0 mode=2'd0 coal=1'b0 cache=1'b0");
    prim_regs_open(e);
    prim_regs_resets(e, &in);
    cnt_lines(e, "    %s_q <= '0; s1_%s_q <= '0; s2_%s_q <= '0; dec_%s_q <= '0;");
    prim_regs_resets(e, &pipe);
    emit(e, "    s2_ratio_a_q <= '0; s2_ratio_b_q <= '0;");
    emit(e, "    s2_block_a_q <= '0; s2_block_b_q <= '0;");
    emit(e, "    s2_hit_a_q <= '0; s2_hit_b_q <= '0;");
    prim_regs_resets(e, &dec);
    prim_regs_else(e);
    emit_in(e);
    emit_in(e);
    emit(e, "ready_q <= 1'b1;");
    emit(e, "a_valid_q <= acc_valid_i & ready_q;");
    emit(e, "a_kind_q <= acc_kind_i;");
    emit(e, "a_hit_q <= acc_hit_i;");
    emit(e, "a_pop_q <= pop;");
    if (c->remonitor)
        emit(e, "a_kern_q <= kernel_i;");
    emit(e, "a_rst_q <= restart_i;");
    emit(e, "phase_q <= phase_d;");
    if (c->warmup)
        emit(e, "warm_q <= warm_d;");
    cnt_lines(e, "%s_q <= %s_d;");
    emit(e, "// stage 1 -> 2: the counters the decision is made on");
    emit(e, "s1_valid_q <= close;");
    emit(e, "s1_live_q <= close & ~rearm;");
    emit(e, "if (close) begin");
    cnt_lines(e, "  s1_%s_q <= %s_inc;");
    emit(e, "end");
    emit(e, "// stage 2: constant cross products of the exact threshold tests");
    emit(e, "s2_valid_q <= s1_valid_q;");
    emit(e, "s2_live_q <= s1_live_q & ~rearm;");
    emit(e, "if (s1_valid_q) begin");
    cnt_lines(e, "  s2_%s_q <= s1_%s_q;");
    emit(e, "  s2_ratio_a_q <= %s * %u'd%u;", ext(b1, sizeof b1, x->g.ratio_bits, "s1_remote_q", x->g.remote_bits), x->g.ratio_bits,
         c->remote_th.den);
    emit(e, "  s2_ratio_b_q <= %s * %u'd%u;", ext(b1, sizeof b1, x->g.ratio_bits, "s1_total_q", x->g.total_bits), x->g.ratio_bits,
         c->remote_th.num);
    emit(e, "  s2_block_a_q <= %s * %u'd%u;", ext(b1, sizeof b1, x->g.block_bits, "s1_words_q", x->g.words_bits), x->g.block_bits,
         c->block_th.den);
    emit(e, "  s2_block_b_q <= %s * %u'd%u;", ext(b1, sizeof b1, x->g.block_bits, "s1_reads_q", x->g.reads_bits), x->g.block_bits,
         c->block_th.num * c->words);
    emit(e, "  s2_hit_a_q <= %s * %u'd%u;", ext(b1, sizeof b1, x->g.hit_bits, "s1_hits_q", x->g.hits_bits), x->g.hit_bits,
         c->hit_th.den);
    emit(e, "  s2_hit_b_q <= %s * %u'd%u;",
         c->hit_all ? ext(b2, sizeof b2, x->g.hit_bits, "s1_remote_q", x->g.remote_bits)
                    : ext(b2, sizeof b2, x->g.hit_bits, "s1_reads_q", x->g.reads_bits),
         x->g.hit_bits, c->hit_th.num);
    emit(e, "end");
    emit(e, "// stage 3: decision register, one-cycle valid pulse, mode signals");
    emit(e, "dec_valid_q <= s2_valid_q;");
    emit(e, "if (s2_valid_q) begin");
    emit(e, "  dec_mode_q <= dec;");
    cnt_lines(e, "  dec_%s_q <= s2_%s_q;");
    emit(e, "end");
    emit(e, "mode_q <= mode_d;");
    emit(e, "coal_q <= mode_d == 2'd2;");
    emit(e, "cache_q <= mode_d == 2'd3;");
    emit_out(e);
    emit_out(e);
    prim_regs_close(e);
}

/* Properties for yosys-smtbmc (make formal, make formal-dualopt-de; groups
 * p_count and p_mode): the mode changes only
 * by a published decision out of MONITOR or by a reset / re-monitoring; the
 * counters never pass the window; a decision pulse lasts one cycle. With the
 * s_* invariants (an open window below its close, in MONITOR, no decision in
 * flight) they are 1-inductive. */
static void emit_formal(emit_file *e, const gctx *x)
{
    emit_nl(e);
    emit(e, "`ifdef FORMAL");
    emit(e, "logic f_init_q = 1'b0;");
    emit(e, "logic f_past_q = 1'b0;");
    emit(e, "logic f_rearm_q, f_pub_q;");
    emit(e, "logic [1:0] f_mode_q;");
    emit(e, "always @(posedge clk_i) begin");
    emit(e, "  f_init_q <= 1'b1;");
    emit(e, "  f_past_q <= f_init_q;");
    emit(e, "  f_rearm_q <= rearm;");
    emit(e, "  f_pub_q <= s2_valid_q & s2_live_q;");
    emit(e, "  f_mode_q <= mode_q;");
    emit(e, "end");
    emit(e, "always @(*) begin");
    emit(e, "  // reset in the first cycle only");
    emit(e, "  assume(rst_ni == f_init_q);");
    emit(e, "  if (rst_ni) begin");
    emit(e, "    p_count_remote: assert(remote_q <= %u'd%u);", x->g.remote_bits, x->c->window);
    emit(e, "    p_count_total: assert(total_q <= %u'd%llu);", x->g.total_bits,
         (unsigned long long)x->g.cap);
    emit(e, "    p_count_reads: assert(reads_q <= remote_q);");
    emit(e, "    p_mode_flags: assert(coal_q == (mode_q == 2'd2) && cache_q == (mode_q == 2'd3));");
    emit(e, "    // strengthening invariants for the induction (docs/dualopt.md): an open");
    emit(e, "    // window (warm-up or counting) is below its close, holds the MONITOR mode");
    emit(e, "    // and no decision in flight; a decision in flight leaves MONITOR unchanged");
    emit(e, "    if (phase_q != 2'd2) s_open_count: assert(total_q < %u'd%llu && remote_q < %u'd%u);",
         x->g.total_bits, (unsigned long long)x->g.cap, x->g.remote_bits, x->c->window);
    emit(e, "    if (phase_q != 2'd2) s_open_mode: assert(mode_q == 2'd0 && !s1_live_q && !s2_live_q);");
    emit(e, "    if (s1_live_q) s_live1: assert(mode_q == 2'd0 && !s2_live_q);");
    emit(e, "    if (s2_live_q) s_live2: assert(mode_q == 2'd0);");
    emit(e, "  end");
    emit(e, "  if (f_past_q && rst_ni && !f_rearm_q && (f_mode_q != 2'd0 || !f_pub_q))");
    emit(e, "    p_mode_hold: assert(mode_q == f_mode_q);");
    emit(e, "end");
    emit(e, "`endif");
}

static void gen_emit(emit_file *e, const void *cfg, const block_desc *b)
{
    gctx x;
    GEN_CTX_INIT(x, cfg, dualopt_de_geom);
    emit(e, "// DualOpt decision engine (Belayneh et al., section 4.3, Fig. 10-12, Table 1).");
    emit(e, "// Counting, then a pipelined exact decision off the access path; see");
    emit(e, "// docs/dualopt.md. Modes: 0 MONITOR, 1 NONE, 2 COALESCE, 3 CACHE.");
    emit(e, "// No memory array: counters and pipeline registers only.");
    PRIM_MODULE(e, b, gctx, &x, emit_decls, emit_input, emit_count, emit_decide, emit_regs,
                emit_formal);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(dualopt_de_cfg, dualopt_de_geom);
    snprintf(buf, len,
             "window=%u warmup=%u bound=%llu remote_thresh=%u/%u block_thresh=%u/%u hit_thresh=%u/%u "
             "words=%u hit_over=%s remonitor=%u\n"
             "total_bits=%u remote_bits=%u reads_bits=%u words_bits=%u hits_bits=%u warm_bits=%u\n"
             "ratio_product_bits=%u block_product_bits=%u hit_product_bits=%u decide_latency=%u",
             c->window, c->warmup, (unsigned long long)g.cap, c->remote_th.num, c->remote_th.den,
             c->block_th.num, c->block_th.den, c->hit_th.num, c->hit_th.den, c->words,
             c->hit_all ? "all" : "reads", c->remonitor, g.total_bits, g.remote_bits,
             g.reads_bits, g.words_bits, g.hits_bits, g.warm_bits, g.ratio_bits, g.block_bits,
             g.hit_bits, DUALOPT_DE_DECIDE_LATENCY);
}

static void gen_report(FILE *f, const void *cfg, int json)
{
    const dualopt_de_cfg *c = cfg;
    dualopt_de_geom g;
    unsigned pipe_bits, flops;
    dualopt_de_geom_of(c, &g);
    /* s1, s2 and decision copies of the counters, s2 products, control */
    pipe_bits = 3 * (g.total_bits + g.remote_bits + g.reads_bits + g.words_bits + g.hits_bits) +
                2 * (g.ratio_bits + g.block_bits + g.hit_bits);
    flops = g.counter_flops + pipe_bits + 1 + 5 + g.pop_bits + 2 + 4 + 1 + 2 + 2 + 2 +
            (c->remonitor ? 1 : 0);
    if (json) {
        fprintf(f,
                "{\"window\":%u,\"warmup\":%u,\"bound\":%llu,\"remote_thresh\":\"%u/%u\","
                "\"block_thresh\":\"%u/%u\",\"hit_thresh\":\"%u/%u\",\"words\":%u,"
                "\"hit_over\":\"%s\",\"remonitor\":%u,\"counter_bits\":{\"total\":%u,\"remote\":%u,"
                "\"reads\":%u,\"words\":%u,\"hits\":%u,\"warmup\":%u},\"product_bits\":{\"ratio\":%u,"
                "\"block\":%u,\"hit\":%u},\"register_bits\":%u,\"decide_latency\":%u,\"rtl_memories\":[],"
                "\"storage_bits\":%u,\"paper_note\":\"not in Table 4; storage bits = the "
                "engine's registers\"}\n",
                c->window, c->warmup, (unsigned long long)g.cap, c->remote_th.num, c->remote_th.den,
                c->block_th.num, c->block_th.den, c->hit_th.num, c->hit_th.den, c->words,
                c->hit_all ? "all" : "reads", c->remonitor, g.total_bits, g.remote_bits,
                g.reads_bits, g.words_bits, g.hits_bits, g.warm_bits, g.ratio_bits, g.block_bits,
                g.hit_bits, flops, DUALOPT_DE_DECIDE_LATENCY, flops);
        return;
    }
    fprintf(f, "DualOpt decision engine: window %u remote accesses after a warm-up of %u, bound %llu "
               "accesses%s\n",
            c->window, c->warmup, (unsigned long long)g.cap,
            c->max_total ? "" : " (ceil(window / remote-thresh))");
    fprintf(f, "  thresholds (exact): remote %u/%u, block %u/%u of %u words, hit %u/%u over remote %s\n",
            c->remote_th.num, c->remote_th.den, c->block_th.num, c->block_th.den, c->words,
            c->hit_th.num, c->hit_th.den, c->hit_all ? "accesses" : "reads");
    fprintf(f, "  counter widths: total %u (<= %llu), remote %u, reads %u (<= %u), words %u (<= %llu), "
               "hits %u, warm-up %u\n",
            g.total_bits, (unsigned long long)g.cap, g.remote_bits, g.reads_bits, c->window,
            g.words_bits, (unsigned long long)c->window * c->words, g.hits_bits, g.warm_bits);
    fprintf(f, "  cross products: ratio %u bits (remote x %u vs total x %u), block %u bits "
               "(words x %u vs reads x %u), hit %u bits (hits x %u vs %s x %u)\n",
            g.ratio_bits, c->remote_th.den, c->remote_th.num, g.block_bits, c->block_th.den,
            c->block_th.num * c->words, g.hit_bits, c->hit_th.den, c->hit_all ? "remote" : "reads",
            c->hit_th.num);
    fprintf(f, "  register bits: %u (live counters %u, decision pipeline %u; synthesis merges the "
               "products equal to a shifted counter); re-monitoring at kernel boundaries %s\n",
            flops, g.counter_flops, pipe_bits, c->remonitor ? "on" : "off");
    fprintf(f, "  timing: one access per cycle; decision valid %u cycles after the handshake of the "
               "access that closes the window\n",
            DUALOPT_DE_DECIDE_LATENCY);
}

/* FPGA self-test stimulus (gen/selftest.h): hits with probability 0.4 and
 * each mask word with probability 0.2 (the thresholds, so decisions vary
 * from window to window), a restart about every 4096 cycles, a kernel
 * boundary about every 1024. */
int dualopt_de_selftest(const void *cfg, st_rule *r, int max, char *err, size_t len)
{
    const dualopt_de_cfg *c = cfg;
    if (max < 4)
        return snprintf(err, len, "dualopt-de: no self-test"), -1;
    r[0] = (st_rule){.port = "acc_hit_i", .kind = ST_PROB, .a = 26214};
    r[1] = (st_rule){.port = "acc_mask_i", .width = 1, .repeat = c->words, .stride = 1,
                     .kind = ST_PROB, .a = 13107};
    r[2] = (st_rule){.port = "restart_i", .kind = ST_PROB, .a = 16};
    r[3] = (st_rule){.port = "kernel_i", .kind = ST_PROB, .a = 64};
    return 4;
}

const gen_unit dualopt_de_gen_unit = {"dualopt-de", gen_emit, gen_params, gen_report,
                                      dualopt_de_selftest};
