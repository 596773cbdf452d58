/*
 * DualOpt RDMA CoDec coalescer generator (Belayneh et al., section 4.1.3,
 * Fig. 9, Table 1; spec 2.4). Per-destination slot FIFOs live in `banks`
 * synchronous RAMs interleaved by slot position, so that one cycle writes a
 * whole response (up to a line's words) and reads a whole packet (up to max
 * slots) with one write and one read port per bank. Slots admitted in the
 * cycle of their packet's send decision bypass the RAM. Control state (counts,
 * heads, idle timers, pass-through queue) is in flip-flops. The golden model
 * is cmodel/dualopt/dualopt_coal.c; docs/dualopt.md gives the timing.
 */
#include <stdio.h>
#include <string.h>

#include "dualopt_coal.h"
#include "dualopt_codec_gen.h"
#include "gen_unit.h"
#include "parts.h"
#include "prim.h"
#include "selftest.h"

/* Combinational blocks are `always @(*)`: Icarus 11 runs this module's
 * always_comb blocks about 50 times slower per cycle than the same blocks
 * as always @(*) (measured: 10 vs 500 cycles a second on dualopt_coal_fpga,
 * identical outputs), which would stall the Icarus replay. */
#define COMB "always @(*) begin"

typedef struct {
    const dualopt_codec_cfg *c;
    dualopt_codec_geom g;
} gctx;

/* Beyond this many slots (buffers x slots) the order invariants are left
 * out: model checking is for small coalescers. */
#define COAL_FORMAL_MAX_SLOTS 64u

/* The strengthening invariants of p_count and p_order: every count within its
 * buffer; f_gpu's slots admitted = sent + in the packet register + buffered;
 * the packet register's slots for f_gpu and every buffered slot of f_gpu's
 * buffer (at its RAM word, by position) carry the numbers the order
 * property expects. */
static void emit_formal_order(emit_file *e, const gctx *x)
{
    unsigned f, p, j, pb = x->g.pos_bits, db = x->g.data_bits;
    for (f = 0; f < x->g.nf; f++)
        emit(e, "    s_cnt_b%u: assert(cnt%u_q <= %u'd%u);", f, f, x->g.cnt_bits, x->c->buf);
    if (x->g.nf * x->c->buf > COAL_FORMAL_MAX_SLOTS) {
        emit(e, "    // the order invariants (s_order_*) are emitted for at most %u slots in all,",
             COAL_FORMAL_MAX_SLOTS);
        emit(e, "    // buffers x slots (this one has %u x %u)", x->g.nf, x->c->buf);
        return;
    }
    for (j = 0; j < x->c->max; j++)
        emit(e, "    if (f_pend != 8'd0 && pkt_n_q > %u'd%u) s_order_pkt%u: assert(slot%u[%u:0] == %u'(f_out_q + 8'd%u));",
             x->g.n_bits, j, j, j, db - 1, db, j);
    for (f = 0; f < x->g.nf; f++) {
        emit(e, "    if (f_gpu == %u'd%u) begin", x->g.gpu_bits, dualopt_coal_gpu_of(x->c, f));
        emit(e, "      s_order_in_b%u: assert({1'b0, f_in_q} == {1'b0, f_out_q} + 9'(f_pend) + 9'(cnt%u_q));", f,
             f);
        for (p = 0; p < x->c->buf; p++) {
            char addr[64], rel[64];
            unsigned bank = p % x->g.banks, row = p / x->g.banks;
            if (x->g.fifo_bits && x->g.row_bits)
                snprintf(addr, sizeof addr, "{%u'd%u, %u'd%u}", x->g.fifo_bits, f, x->g.row_bits, row);
            else if (x->g.fifo_bits)
                snprintf(addr, sizeof addr, "%u'd%u", x->g.fifo_bits, f);
            else if (x->g.row_bits)
                snprintf(addr, sizeof addr, "%u'd%u", x->g.row_bits, row);
            else
                snprintf(addr, sizeof addr, "1'b0");
            if (pb)
                snprintf(rel, sizeof rel, "%u'(f_rel%u_%u)", x->g.cnt_bits, f, p);
            else
                snprintf(rel, sizeof rel, "%u'd0", x->g.cnt_bits);
            emit(e, "      if (%s < cnt%u_q) s_order_b%u_p%u: assert(mem%u[%s][%u:0] == %u'(f_out_q + f_pend + 8'(%s)));",
                 rel, f, f, p, bank, addr, db - 1, db, rel);
        }
        emit(e, "    end");
    }
}

/* The coalescer's `ifdef FORMAL` block (scripts/formal.sh, tb/formal.txt):
 * property groups p_count (packet limits and header), p_hold (the packet port
 * under back-pressure), p_wait (an eligible buffer is sent within NF cycles in
 * which the link is free; s_wait* is the strengthening invariant that makes it
 * inductive: its wait plus its ring distance from the pointer never exceed NF)
 * and p_order (for a destination the solver chooses, the k-th slot in the
 * packets' wire images is the k-th slot admitted: no slot lost, duplicated,
 * reordered or invented; the coalescer never looks at data, so input words
 * assumed to number the slots stand for any data). With s_cnt* and s_order*
 * (emit_formal_order) every group is 1-inductive (docs/dualopt.md). */
static void emit_formal(emit_file *e, const gctx *x)
{
    const dualopt_codec_cfg *c = x->c;
    unsigned f, k, j, ring = x->g.nf + 1;
    emit_nl(e);
    prim_formal_begin(e,
                      "// p_count: a coalesced packet holds 1..%u slots for another GPU, with its\n"
                      "// count in the header and 4 + n x %u bytes; p_hold: the packet port holds its\n"
                      "// payload under back-pressure; p_wait: an eligible buffer (max slots, or its\n"
                      "// idle timer at %u) is sent within %u cycles in which the link is free (ring of\n"
                      "// %u members); p_order: for any destination f_gpu, the k-th slot on the wire\n"
                      "// to f_gpu is the k-th slot admitted for it (the words number the slots).",
                      x->c->max, c->gran + 2, c->timeout, x->g.nf, ring);
    emit(e, "logic f_stall_q = 1'b0;");
    emit(e, "logic [%u:0] f_data_q;", c->pkt_bytes * 8 - 1);
    emit(e, "logic [%u:0] f_len_q;", DUALOPT_CODEC_LEN_BITS - 1);
    emit(e, "logic [%u:0] f_dst_q;", x->g.gpu_bits - 1);
    for (f = 0; f < x->g.nf; f++)
        emit(e, "logic [4:0] f_wait%u_q = 5'd0, f_dist%u;", f, f);
    emit(e, "(* anyconst *) logic [%u:0] f_gpu;", x->g.gpu_bits - 1);
    emit(e, "logic [7:0] f_in_q = 8'd0, f_out_q = 8'd0;");
    emit(e, "logic f_adm, f_snd;");
    emit(e, "logic [7:0] f_pend; // f_gpu's slots in the packet register");
    emit(e, "assign f_pend = (pkt_valid_q && !pkt_reg_q && pkt_dst_q == f_gpu) ? 8'(pkt_n_q) : 8'd0;");
    if (x->g.pos_bits && x->g.nf * x->c->buf <= COAL_FORMAL_MAX_SLOTS) {
        unsigned p;
        emit(e, "// slot position p of buffer f relative to its head (s_order_*)");
        for (f = 0; f < x->g.nf; f++)
            for (p = 0; p < x->c->buf; p++)
                emit(e, "logic [%u:0] f_rel%u_%u;", x->g.pos_bits - 1, f, p);
        for (f = 0; f < x->g.nf; f++)
            for (p = 0; p < x->c->buf; p++)
                emit(e, "assign f_rel%u_%u = %u'd%u - head%u_q;", f, p, x->g.pos_bits, p, f);
    }
    emit(e, "assign f_adm = adm && in_dst_i == f_gpu;");
    emit(e, "assign f_snd = pkt_valid_o && pkt_ready_i && !pkt_reg_q && pkt_dst_o == f_gpu;");
    /* ring distance from the pointer to buffer f (members 0..NF) */
    for (f = 0; f < x->g.nf; f++)
        emit(e, "assign f_dist%u = ptr_q <= %u'd%u ? 5'd%u - 5'(ptr_q) : 5'd%u - 5'(ptr_q);", f,
             x->g.ptr_bits, f, f, f + ring);
    emit(e, "always @(posedge clk_i) begin");
    emit(e, "  f_past_q <= 1'b1;");
    emit(e, "  f_stall_q <= rst_ni & pkt_valid_o & ~pkt_ready_i;");
    emit(e, "  f_data_q <= pkt_data_o;");
    emit(e, "  f_len_q <= pkt_len_o;");
    emit(e, "  f_dst_q <= pkt_dst_o;");
    for (f = 0; f < x->g.nf; f++)
        emit(e, "  f_wait%u_q <= (!rst_ni || !elig%u || snd%u) ? 5'd0 : "
                "f_wait%u_q + 5'(can_send);",
             f, f, f, f);
    emit(e, "  if (!rst_ni) begin");
    emit(e, "    f_in_q <= 8'd0; f_out_q <= 8'd0;");
    emit(e, "  end else begin");
    emit(e, "    if (f_adm) f_in_q <= f_in_q + 8'(k);");
    emit(e, "    if (f_snd) f_out_q <= f_out_q + 8'(pkt_n_q);");
    emit(e, "  end");
    emit(e, "end");
    prim_formal_assume(e, NULL, 0);
    emit(e, "  assume(f_gpu != %u'd%u && {1'b0, f_gpu} < %u'd%u);", x->g.gpu_bits, c->self, x->g.gpu_bits + 1,
         c->gpus);
    emit(e, "  assume(f_in_q < 8'd200);");
    emit(e, "  // data independence: the coalescer never looks at data, so words that");
    emit(e, "  // number f_gpu's slots in admission order stand for any data");
    emit(e, "  if (in_valid_i && !in_reg_i && in_dst_i == f_gpu) begin");
    for (k = 0; k < x->g.words; k++)
        emit(e, "    assume(wd%u == %u'(f_in_q + 8'd%u));", k, x->g.data_bits, k);
    emit(e, "  end");
    emit(e, "  if (rst_ni && pkt_valid_o && !pkt_reg_q) begin");
    emit(e, "    p_count_n: assert(pkt_n_q != '0 && pkt_n_q <= %u'd%u);", x->g.n_bits, x->c->max);
    emit(e, "    p_count_dst: assert(pkt_dst_o != %u'd%u && {1'b0, pkt_dst_o} < %u'd%u);", x->g.gpu_bits,
         c->self, x->g.gpu_bits + 1, c->gpus);
    emit(e, "    p_count_hdr: assert(pkt_data_o[15:0] == {8'(pkt_n_q), 8'h11} && "
            "pkt_data_o[31:16] == 16'd0);");
    emit(e, "    p_count_len: assert(pkt_len_o == %u'd%u + %u'(pkt_n_q) * %u'd%u);", DUALOPT_CODEC_LEN_BITS,
         DUALOPT_CODEC_HDR_BYTES, DUALOPT_CODEC_LEN_BITS, DUALOPT_CODEC_LEN_BITS, c->gran + 2);
    emit(e, "  end");
    emit(e, "  if (rst_ni && f_stall_q) begin");
    emit(e, "    p_hold_valid: assert(pkt_valid_o);");
    emit(e, "    p_hold_data: assert(pkt_data_o == f_data_q && pkt_len_o == f_len_q && "
            "pkt_dst_o == f_dst_q);");
    emit(e, "  end");
    emit(e, "  if (rst_ni) begin");
    emit(e, "    s_wait_ptr: assert(ptr_q <= %u'd%u);", x->g.ptr_bits, x->g.nf);
    for (f = 0; f < x->g.nf; f++) {
        emit(e, "    s_wait_b%u: assert(f_wait%u_q + f_dist%u <= 5'd%u);", f, f, f, x->g.nf);
        emit(e, "    p_wait_b%u: assert(f_wait%u_q <= 5'd%u);", f, f, x->g.nf);
    }
    emit_formal_order(e, x);
    emit(e, "  end");
    emit(e, "  if (rst_ni && f_snd) p_order_count: assert({1'b0, f_out_q} + 9'(pkt_n_q) <= "
            "{1'b0, f_in_q});");
    for (j = 0; j < x->c->max; j++)
        emit(e, "  if (rst_ni && f_snd && pkt_n_q > %u'd%u) p_order_s%u: assert(pkt_data_o[%u +: %u] "
                "== %u'(f_out_q + 8'd%u));", x->g.n_bits, j, j, 32 + j * x->g.slot_bits, x->g.data_bits, x->g.data_bits, j);
    emit(e, "end");
    emit(e, "`endif");
}

static void emit_decls(emit_file *e, const gctx *x)
{
    unsigned f, j, k, q;
    char nm[256];

    /* ---- declarations */
    for (f = 0; f < x->g.nf; f++) {
        snprintf(nm, sizeof nm, "cnt%u_q, cnt%u_d, ceff%u", f, f, f);
        prim_decl(e, x->g.cnt_bits, nm);
        snprintf(nm, sizeof nm, "head%u_q, head%u_d", f, f);
        prim_decl(e, x->g.pos_bits, nm);
        snprintf(nm, sizeof nm, "idle%u_q, idle%u_d", f, f);
        prim_decl(e, x->g.idle_bits, nm);
        snprintf(nm, sizeof nm, "ns%u", f);
        prim_decl(e, x->g.n_bits, nm);
        snprintf(nm, sizeof nm, "adm%u, fit%u, elig%u, snd%u", f, f, f, f);
        prim_decl(e, 1, nm);
    }
    emit(e, "logic [%u:0] dsel;", x->g.nf - 1); /* a vector even for one buffer */
    prim_decl(e, x->g.k_bits, "k");
    prim_decl(e, 1, "fine_ok, fire, adm, admr, can_send, found, send, snd_p, sel_pass");
    prim_decl(e, x->g.ptr_bits, "ptr_q, ptr_d, sel");
    prim_decl(e, 1, "eligp");
    for (f = 0; f < x->g.nf; f++) {
        snprintf(nm, sizeof nm, "dsel%u", f);
        prim_decl(e, 1, nm);
    }
    prim_decl(e, x->g.bank_bits, "hlow");
    prim_decl(e, x->g.n_bits, "nsel");
    prim_decl(e, x->g.pos_bits, "hsel, tsel");
    prim_decl(e, x->g.cnt_bits, "csel");
    if (x->g.fifo_bits)
        prim_decl(e, x->g.fifo_bits, "fia, fis");
    prim_decl(e, 1, "pkt_valid_q, pkt_valid_d, pkt_reg_q, pkt_reg_d");
    prim_decl(e, x->g.gpu_bits, "pkt_dst_q, pkt_dst_d");
    prim_decl(e, x->g.n_bits, "pkt_n_q, pkt_n_d");
    prim_decl(e, DUALOPT_CODEC_ID_BITS, "pkt_id_q, pkt_id_d");
    prim_decl(e, DUALOPT_CODEC_LEN_BITS, "pkt_len_q, pkt_len_d");
    prim_decl(e, x->g.bank_bits, "rot_q, rot_d");
    emit(e, "logic [%u:0] byp_q, byp_d;", x->c->max - 1);
    for (j = 0; j < x->c->max; j++) {
        snprintf(nm, sizeof nm, "byw%u_q, byw%u_d, slot%u, rds%u", j, j, j, j);
        prim_decl(e, x->g.slot_bits, nm);
    }
    for (k = 0; k < x->g.words; k++) {
        snprintf(nm, sizeof nm, "wd%u", k);
        prim_decl(e, x->g.data_bits, nm);
    }
    for (q = 0; q < x->c->reg_depth; q++) {
        snprintf(nm, sizeof nm, "qdst%u_q, qdst%u_d", q, q);
        prim_decl(e, x->g.gpu_bits, nm);
        snprintf(nm, sizeof nm, "qid%u_q, qid%u_d, qby%u_q, qby%u_d", q, q, q, q);
        prim_decl(e, 16, nm);
    }
    prim_decl(e, x->g.q_bits, "qh_q, qh_d, qtail");
    prim_decl(e, x->g.qc_bits, "qc_q, qc_d");
    prim_decl(e, x->g.gpu_bits, "qo_dst");
    prim_decl(e, 16, "qo_id, qo_by");
    prim_decl(e, 1, "enq, deq");
    prim_decl(e, 32, "hdr");
    emit_nl(e);
}

static void emit_admission(emit_file *e, const gctx *x)
{
    unsigned f, k;

    /* ---- admission (spec 2.4 step 1) */
    emit(e, "// Admission: a fine-grained response needs popcount(mask) free slots in its");
    emit(e, "// destination's buffer; one for no buffer (own id, out of range) or with an");
    emit(e, "// empty mask is consumed and dropped; a regular one needs a queue entry.");
    for (k = 0; k < x->g.words; k++)
        emit(e, "assign wd%u = in_data_i[%u +: %u];", k, k * x->g.data_bits, x->g.data_bits);
    for (f = 0; f < x->g.nf; f++)
        emit(e, "assign dsel%u = in_dst_i == %u'd%u;", f, x->g.gpu_bits,
             dualopt_coal_gpu_of(x->c, f));
    for (f = 0; f < x->g.nf; f++)
        emit(e, "assign dsel[%u] = dsel%u;", f, f);
    {
        char buf[4096];
        size_t n = 0;
        for (k = 0; k < x->g.words; k++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%u'(in_mask_i[%u])", k ? " + " : "",
                                  x->g.k_bits, k);
        emit(e, "assign k = %s;", buf);
    }
    for (f = 0; f < x->g.nf; f++)
        emit(e, "assign fit%u = {1'b0, cnt%u_q} + %u'(k) <= %u'd%u;", f, f, x->g.cnt_bits + 1,
             x->g.cnt_bits + 1, x->c->buf);
    {
        char buf[1024];
        size_t n = 0;
        for (f = 0; f < x->g.nf; f++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s(dsel[%u] & fit%u)", f ? " | " : "", f, f);
        emit(e, "assign fine_ok = dsel == '0 || k == '0 || %s;", buf);
    }
    emit(e, "assign in_ready_o = in_reg_i ? qc_q != %u'd%u : fine_ok;", x->g.qc_bits, x->c->reg_depth);
    emit(e, "assign fire = in_valid_i & in_ready_o;");
    emit(e, "assign adm = fire & ~in_reg_i & k != '0 & dsel != '0;");
    emit(e, "assign admr = fire & in_reg_i;");
    emit_nl(e);
}

static void emit_eligibility(emit_file *e, const gctx *x)
{
    unsigned f;

    /* ---- eligibility (step 2) */
    emit(e, "// Eligibility: max slots, or non-empty with the idle timer run out (every");
    emit(e, "// admission restarts it; slots admitted this cycle count).");
    for (f = 0; f < x->g.nf; f++) {
        emit(e, "assign adm%u = adm & dsel[%u];", f, f);
        emit(e, "assign ceff%u = cnt%u_q + (adm%u ? %u'(k) : %u'd0);", f, f, f, x->g.cnt_bits,
             x->g.cnt_bits);
        emit(e, "assign elig%u = ceff%u >= %u'd%u | (cnt%u_q != '0 & ~adm%u & idle%u_q == %u'd%u);",
             f, f, x->g.cnt_bits, x->c->max, f, f, f, x->g.idle_bits, x->c->timeout);
        emit(e, "assign ns%u = ceff%u >= %u'd%u ? %u'd%u : %u'(ceff%u);", f, f, x->g.cnt_bits, x->c->max,
             x->g.n_bits, x->c->max, x->g.n_bits, f);
    }
    emit(e, "assign eligp = qc_q != '0 | admr;");
    emit_nl(e);
}

static void emit_round_robin(emit_file *e, const gctx *x)
{
    unsigned f, j, q;
    char nm[256];

    /* ---- round robin (step 3) */
    emit(e, "// Send: the first eligible member from the round-robin pointer over");
    emit(e, "// [buffers by ascending GPU id, pass-through queue]; one packet per cycle.");
    emit(e, "assign can_send = ~pkt_valid_q | pkt_ready_i;");
    emit_begin(e, COMB);
    emit(e, "found = 1'b0;");
    emit(e, "sel = '0;");
    emit(e, "case (ptr_q)");
    for (q = 0; q <= x->g.nf; q++) {
        emit(e, "  %u'd%u: begin", x->g.ptr_bits, q);
        for (j = 0; j <= x->g.nf; j++) {
            unsigned m = (q + j) % (x->g.nf + 1);
            emit(e, "    %sif (elig%s) begin found = 1'b1; sel = %u'd%u; end", j ? "else " : "",
                 m == x->g.nf ? "p" : (snprintf(nm, sizeof nm, "%u", m), nm), x->g.ptr_bits, m);
        }
        emit(e, "  end");
    }
    if ((1u << x->g.ptr_bits) != x->g.nf + 1)
        emit(e, "  default: ;");
    emit(e, "endcase");
    emit_end(e, "end");
    emit(e, "assign send = can_send & found;");
    emit(e, "assign hlow = hsel[%u:0];", x->g.bank_bits - 1);
    emit(e, "assign sel_pass = sel == %u'd%u;", x->g.ptr_bits, x->g.nf);
    emit(e, "assign snd_p = send & sel_pass;");
    for (f = 0; f < x->g.nf; f++)
        emit(e, "assign snd%u = send & sel == %u'd%u;", f, x->g.ptr_bits, f);
    emit_begin(e, COMB);
    emit(e, "nsel = '0;");
    emit(e, "hsel = '0;");
    emit(e, "csel = '0;");
    emit(e, "case (sel)");
    for (f = 0; f < x->g.nf; f++)
        emit(e, "  %u'd%u: begin nsel = ns%u; hsel = head%u_q; csel = cnt%u_q; end", x->g.ptr_bits, f,
             f, f, f);
    emit(e, "  default: ;");
    emit(e, "endcase");
    emit_end(e, "end");
    /* tail of the admitted buffer */
    emit_begin(e, COMB);
    emit(e, "tsel = '0;");
    for (f = 0; f < x->g.nf; f++)
        emit(e, "if (dsel%u) tsel = head%u_q + %u'(cnt%u_q);", f, f, x->g.pos_bits, f);
    emit_end(e, "end");
    if (x->g.fifo_bits) {
        emit_begin(e, COMB);
        emit(e, "fia = '0;");
        for (f = 0; f < x->g.nf; f++)
            emit(e, "if (dsel%u) fia = %u'd%u;", f, x->g.fifo_bits, f);
        emit_end(e, "end");
        emit(e, "assign fis = sel[%u:0];", x->g.fifo_bits - 1);
    }
    emit_nl(e);
}

static void emit_banks(emit_file *e, const gctx *x)
{
    unsigned b, k;

    /* ---- banks */
    emit(e, "// Slot RAM: %u banks of %u x %u bits; slot position p of buffer f is word", x->g.banks,
         x->g.depth, x->g.slot_bits);
    emit(e, "// {f, p / %u} of bank p mod %u, so a response's slots and a packet's slots", x->g.banks,
         x->g.banks);
    emit(e, "// each touch a bank at most once. A slot is {id, data}: its wire order.");
    for (b = 0; b < x->g.banks; b++) {
        char wa[128], ra[128], mem[16], we[16], wd[16], rd[16];
        emit(e, "logic [%u:0] woff%u;", x->g.bank_bits - 1, b);
        if (x->g.row_bits) {
            emit(e, "logic [%u:0] wrow%u, rrow%u;", x->g.row_bits - 1, b, b);
            /* position tail + woff has low bits b: the row carries when b < tail's low bits */
            if (b == x->g.banks - 1) { /* the last bank never carries */
                emit(e, "assign wrow%u = tsel[%u:%u];", b, x->g.pos_bits - 1, x->g.bank_bits);
                emit(e, "assign rrow%u = hsel[%u:%u];", b, x->g.pos_bits - 1, x->g.bank_bits);
            } else {
                emit(e, "assign wrow%u = tsel[%u:%u] + %u'(%u'd%u < tsel[%u:0]);", b, x->g.pos_bits - 1,
                     x->g.bank_bits, x->g.row_bits, x->g.bank_bits, b, x->g.bank_bits - 1);
                emit(e, "assign rrow%u = hsel[%u:%u] + %u'(%u'd%u < hlow);", b, x->g.pos_bits - 1, x->g.bank_bits,
                     x->g.row_bits, x->g.bank_bits, b);
            }
        }
        emit(e, "logic [%u:0] waddr%u, raddr%u;", x->g.addr_bits - 1, b, b);
        emit(e, "logic [%u:0] wdat%u, rd%u_q;", x->g.slot_bits - 1, b, b);
        emit(e, "logic we%u;", b);
        emit(e, "assign woff%u = %u'd%u - tsel[%u:0];", b, x->g.bank_bits, b, x->g.bank_bits - 1);
        if (x->g.fifo_bits && x->g.row_bits) {
            snprintf(wa, sizeof wa, "{fia, wrow%u}", b);
            snprintf(ra, sizeof ra, "{fis, rrow%u}", b);
        } else if (x->g.fifo_bits) {
            snprintf(wa, sizeof wa, "fia");
            snprintf(ra, sizeof ra, "fis");
        } else if (x->g.row_bits) {
            snprintf(wa, sizeof wa, "wrow%u", b);
            snprintf(ra, sizeof ra, "rrow%u", b);
        } else {
            snprintf(wa, sizeof wa, "1'b0");
            snprintf(ra, sizeof ra, "1'b0");
        }
        emit(e, "assign waddr%u = %s;", b, wa);
        emit(e, "assign raddr%u = %s;", b, ra);
        {
            unsigned cw = x->g.bank_bits + 1 > x->g.k_bits ? x->g.bank_bits + 1 : x->g.k_bits;
            emit(e, "assign we%u = adm & %u'(woff%u) < %u'(k);", b, cw, b, cw);
        }
        emit_begin(e, COMB);
        emit(e, "wdat%u = '0;", b);
        emit(e, "case (woff%u)", b);
        for (k = 0; k < x->g.words; k++)
            emit(e, "  %u'd%u: wdat%u = {in_id_i, wd%u};", x->g.bank_bits, k, b, k);
        if (x->g.words < x->g.banks)
            emit(e, "  default: ;");
        emit(e, "endcase");
        emit_end(e, "end");
        /* the bank's RAM: its ports by name */
        snprintf(mem, sizeof mem, "mem%u", b);
        snprintf(we, sizeof we, "we%u", b);
        snprintf(wa, sizeof wa, "waddr%u", b);
        snprintf(wd, sizeof wd, "wdat%u", b);
        snprintf(rd, sizeof rd, "rd%u_q", b);
        snprintf(ra, sizeof ra, "raddr%u", b);
        emit(e, "(* no_rw_check *)");
        prim_ram_decl(e, mem, x->g.slot_bits, x->g.depth);
        prim_ram_ports(e, &(prim_ram){mem, we, wa, wd, "send & ~sel_pass", rd, ra, 0});
    }
    emit_nl(e);
}

static void emit_packet(emit_file *e, const gctx *x)
{
    unsigned b, j, q;

    /* ---- packet register */
    emit(e, "// Packet register: slot j of the packet is RAM bank (rot + j) mod %u, or the",
         x->g.banks);
    emit(e, "// bypass word when it was admitted in the cycle of the send decision.");
    for (j = 0; j < x->c->max; j++) {
        emit_begin(e, COMB);
        emit(e, "byw%u_d = byw%u_q;", j, j);
        emit_begin(e, "if (send) begin");
        emit(e, "byw%u_d = '0;", j);
        emit(e, "case (csel)");
        for (q = 0; q <= j && q <= x->c->buf; q++)
            if (j - q < x->g.words)
                emit(e, "  %u'd%u: byw%u_d = {in_id_i, wd%u};", x->g.cnt_bits, q, j, j - q);
        emit(e, "  default: ;");
        emit(e, "endcase");
        emit_end(e, "end");
        emit_end(e, "end");
        emit_begin(e, COMB);
        emit(e, "rds%u = '0;", j);
        emit(e, "case (rot_q)");
        for (b = 0; b < x->g.banks; b++)
            emit(e, "  %u'd%u: rds%u = rd%u_q;", x->g.bank_bits, b, j, (b + j) % x->g.banks);
        emit(e, "endcase");
        emit_end(e, "end");
        emit(e, "assign byp_d[%u] = send ? csel <= %u'd%u : byp_q[%u];", j, x->g.cnt_bits, j, j);
        emit(e, "assign slot%u = pkt_n_q > %u'd%u ? (byp_q[%u] ? byw%u_q : rds%u) : '0;", j, x->g.n_bits,
             j, j, j, j);
    }
}

static void emit_queue(emit_file *e, const gctx *x)
{
    unsigned q;

    /* pass-through queue */
    emit(e, "// Pass-through queue of regular responses (%u entries).", x->c->reg_depth);
    emit_begin(e, COMB);
    emit(e, "qo_dst = in_dst_i;");
    emit(e, "qo_id = in_id_i;");
    emit(e, "qo_by = in_bytes_i;");
    emit(e, "if (qc_q != '0) begin");
    emit(e, "  case (qh_q)");
    for (q = 0; q < x->c->reg_depth; q++)
        emit(e, "    %u'd%u: begin qo_dst = qdst%u_q; qo_id = qid%u_q; qo_by = qby%u_q; end", x->g.q_bits,
             q, q, q, q);
    if ((1u << x->g.q_bits) != x->c->reg_depth)
        emit(e, "    default: ;");
    emit(e, "  endcase");
    emit(e, "end");
    emit_end(e, "end");
    emit(e, "assign enq = admr & ~(snd_p & qc_q == '0);");
    emit(e, "assign deq = snd_p & qc_q != '0;");
    if (x->c->reg_depth == 1)
        emit(e, "assign qtail = qh_q;");
    else
        emit(e, "assign qtail = %u'({1'b0, qh_q} + %u'(qc_q) >= %u'd%u ? {1'b0, qh_q} + %u'(qc_q) - "
                "%u'd%u : {1'b0, qh_q} + %u'(qc_q));",
             x->g.q_bits, x->g.q_bits + 1, x->g.q_bits + 1, x->c->reg_depth, x->g.q_bits + 1, x->g.q_bits + 1, x->c->reg_depth, x->g.q_bits + 1);
    emit_begin(e, COMB);
    for (q = 0; q < x->c->reg_depth; q++) {
        emit(e, "qdst%u_d = qdst%u_q;", q, q);
        emit(e, "qid%u_d = qid%u_q;", q, q);
        emit(e, "qby%u_d = qby%u_q;", q, q);
        emit(e, "if (enq && qtail == %u'd%u) begin qdst%u_d = in_dst_i; qid%u_d = in_id_i; "
                "qby%u_d = in_bytes_i; end",
             x->g.q_bits, q, q, q, q);
    }
    emit(e, "qc_d = qc_q + %u'(enq) - %u'(deq);", x->g.qc_bits, x->g.qc_bits);
    if (x->c->reg_depth == 1)
        emit(e, "qh_d = qh_q;");
    else
        emit(e, "qh_d = deq ? (qh_q == %u'd%u ? '0 : qh_q + %u'd1) : qh_q;", x->g.q_bits,
             x->c->reg_depth - 1, x->g.q_bits);
    emit_end(e, "end");
    emit_nl(e);
}

static void emit_next(emit_file *e, const gctx *x)
{
    unsigned f;

    /* ---- next state */
    emit_begin(e, COMB);
    for (f = 0; f < x->g.nf; f++) {
        emit(e, "cnt%u_d = ceff%u - (snd%u ? %u'(ns%u) : %u'd0);", f, f, f, x->g.cnt_bits, f,
             x->g.cnt_bits);
        emit(e, "head%u_d = head%u_q + (snd%u ? %u'(ns%u) : %u'd0);", f, f, f, x->g.pos_bits, f,
             x->g.pos_bits);
        emit(e, "idle%u_d = adm%u ? %u'd1 : (idle%u_q == %u'd%u ? idle%u_q : idle%u_q + %u'd1);", f,
             f, x->g.idle_bits, f, x->g.idle_bits, x->c->timeout, f, f, x->g.idle_bits);
    }
    emit(e, "ptr_d = ptr_q;");
    emit(e, "if (send) ptr_d = sel_pass ? '0 : sel + %u'd1;", x->g.ptr_bits);
    emit(e, "pkt_valid_d = send | (pkt_valid_q & ~pkt_ready_i);");
    prim_hold(e, "pkt_reg pkt_dst pkt_n pkt_id pkt_len rot");
    emit_begin(e, "if (send) begin");
    emit(e, "pkt_reg_d = sel_pass;");
    emit(e, "pkt_n_d = sel_pass ? '0 : nsel;");
    emit(e, "pkt_id_d = sel_pass ? qo_id : '0;");
    emit(e, "pkt_len_d = sel_pass ? qo_by : %u'd%u + %u'(nsel) * %u'd%u;", DUALOPT_CODEC_LEN_BITS,
         DUALOPT_CODEC_HDR_BYTES, DUALOPT_CODEC_LEN_BITS, DUALOPT_CODEC_LEN_BITS, x->c->gran + 2);
    emit(e, "rot_d = hlow;");
    emit(e, "case (sel)");
    for (f = 0; f < x->g.nf; f++)
        emit(e, "  %u'd%u: pkt_dst_d = %u'd%u;", x->g.ptr_bits, f, x->g.gpu_bits,
             dualopt_coal_gpu_of(x->c, f));
    emit(e, "  default: pkt_dst_d = qo_dst;");
    emit(e, "endcase");
    emit_end(e, "end");
    emit_end(e, "end");
    emit_nl(e);
}

static void emit_outputs(emit_file *e, const gctx *x)
{
    unsigned j;

    /* ---- outputs */
    emit(e, "// Header (spec 2.4, D1/D2): type 1, compression 1, count; regular packets");
    emit(e, "// carry compression 0 and their response ID.");
    emit(e, "assign hdr = pkt_reg_q ? {pkt_id_q, 16'h0001} : pkt_n_q != '0 ? "
            "{16'h0000, 8'(pkt_n_q), 8'h11} : 32'h0;");
    {
        char buf[4096];
        size_t n = 0;
        unsigned pad = x->c->pkt_bytes * 8 - 32 - x->c->max * x->g.slot_bits;
        if (pad)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%u'd0, ", pad);
        for (j = x->c->max; j-- > 0;)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "slot%u, ", j);
        snprintf(buf + n, sizeof buf - n, "hdr");
        emit(e, "assign pkt_data_o = {%s};", buf);
    }
    prim_outputs(e, "pkt_valid pkt_dst pkt_len");
    emit_nl(e);
}

static void emit_regs(emit_file *e, const gctx *x)
{
    unsigned f, j, q;

    /* ---- registers */
    emit(e, "always_ff @(posedge clk_i or negedge rst_ni) begin");
    emit(e, "  if (!rst_ni) begin");
    for (f = 0; f < x->g.nf; f++)
        emit(e, "    cnt%u_q <= '0; head%u_q <= '0; idle%u_q <= '0;", f, f, f);
    emit(e, "    ptr_q <= '0;");
    emit(e, "    pkt_valid_q <= 1'b0; pkt_reg_q <= 1'b0; pkt_dst_q <= '0; pkt_n_q <= '0;");
    emit(e, "    pkt_id_q <= '0; pkt_len_q <= '0; rot_q <= '0; byp_q <= '0;");
    emit(e, "    qh_q <= '0; qc_q <= '0;");
    emit(e, "  end else begin");
    for (f = 0; f < x->g.nf; f++)
        emit(e, "    cnt%u_q <= cnt%u_d; head%u_q <= head%u_d; idle%u_q <= idle%u_d;", f, f, f, f,
             f, f);
    emit(e, "    ptr_q <= ptr_d;");
    emit(e, "    pkt_valid_q <= pkt_valid_d; pkt_reg_q <= pkt_reg_d; pkt_dst_q <= pkt_dst_d;");
    emit(e, "    pkt_n_q <= pkt_n_d; pkt_id_q <= pkt_id_d; pkt_len_q <= pkt_len_d;");
    emit(e, "    rot_q <= rot_d; byp_q <= byp_d;");
    emit(e, "    qh_q <= qh_d; qc_q <= qc_d;");
    emit(e, "  end");
    emit(e, "end");
    emit(e, "always_ff @(posedge clk_i) begin");
    for (j = 0; j < x->c->max; j++)
        emit(e, "  byw%u_q <= byw%u_d;", j, j);
    for (q = 0; q < x->c->reg_depth; q++)
        emit(e, "  qdst%u_q <= qdst%u_d; qid%u_q <= qid%u_d; qby%u_q <= qby%u_d;", q, q, q, q, q, q);
    emit(e, "end");
}

void dualopt_coal_body(emit_file *e, const void *cfg)
{
    const dualopt_codec_cfg *c = cfg;
    gctx x;
    GEN_CTX_INIT(x, c, dualopt_codec_geom);
    /* the coalescer, stage by stage (spec 2.4) */
    PRIM_STAGES(e, gctx, &x, emit_decls, emit_admission, emit_eligibility, emit_round_robin,
                emit_banks, emit_packet, emit_queue, emit_next, emit_outputs, emit_regs,
                emit_formal);
}

static void gen_emit(emit_file *e, const void *cfg, const block_desc *b)
{
    emit(e, "// DualOpt RDMA CoDec coalescer (Belayneh et al., section 4.1.3, Fig. 9, Table 1).");
    emit(e, "// Per-destination slot buffers in banked RAM, idle timeout, round-robin send of");
    emit(e, "// one packet per cycle; see docs/dualopt.md.");
    prim_module_begin(e, b);
    dualopt_coal_body(e, cfg);
    prim_module_end(e);
}

void dualopt_coal_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(dualopt_codec_cfg, dualopt_codec_geom);
    snprintf(buf, len,
             "gpus=%u self=%u buf=%u max=%u timeout=%u gran=%u line=%u pkt_bytes=%u flit=%u "
             "count_bits=%u reg_depth=%u\n"
             "buffers=%u slot_bits=%u banks=%u bank_depth=%u storage_bits=%u",
             c->gpus, c->self, c->buf, c->max, c->timeout, c->gran, c->line, c->pkt_bytes,
             c->flit, c->count_bits, c->reg_depth, g.nf, g.slot_bits, g.banks, g.depth,
             g.storage_bits);
}

static void gen_report(FILE *f, const void *cfg, int json)
{
    GEN_CFG_GEOM(dualopt_codec_cfg, dualopt_codec_geom);
    if (json) {
        fprintf(f,
                "{\"gpus\":%u,\"buffers\":%u,\"buf\":%u,\"max\":%u,\"timeout\":%u,\"gran\":%u,"
                "\"line\":%u,\"pkt_bytes\":%u,\"count_bits\":%u,\"slot_bits\":%u,\"banks\":%u,"
                "\"bank_depth\":%u,\"storage_bits\":%u,\"paper_storage_bits\":9216,"
                "\"rtl_memories\":[",
                c->gpus, g.nf, c->buf, c->max, c->timeout, c->gran, c->line, c->pkt_bytes,
                c->count_bits, g.slot_bits, g.banks, g.depth, g.storage_bits);
        {
            unsigned b;
            for (b = 0; b < g.banks; b++)
                fprintf(f, "%s[%u,%u]", b ? "," : "", g.depth, g.slot_bits);
        }
        fprintf(f, "],\"ff_bound\":%u,\"paper_note\":\"Table 4: CoDec (coalescer and "
                   "de-coalescer) 37,234 um^2 (28 nm), compared on dualopt-codec; storage bits = "
                   "the slot buffers\"}\n",
                (g.banks + c->max) * g.slot_bits + 1024);
        return;
    }
    fprintf(f, "DualOpt CoDec coalescer: %u GPUs (%u buffers of %u slots), %u-byte words, "
               "%u slots per packet, timeout %u\n",
            c->gpus, g.nf, c->buf, c->gran, c->max, c->timeout);
    fprintf(f, "  slot %u bits ({id, data}); storage %u x %u x %u = %u bits (paper: 3 x 64 x 48 = "
               "9216) in %u RAM banks of %u words\n",
            g.slot_bits, g.nf, c->buf, g.slot_bits, g.storage_bits, g.banks, g.depth);
}

/* FPGA self-test stimulus (gen/selftest.h) of the coalescer's input (also
 * the CoDec round trip's): 1 in 16 responses is a regular packet of 4..259
 * bytes; destinations, ids, masks and data random. */
int dualopt_coal_selftest(const void *cfg, st_rule *r, int max, char *err, size_t len)
{
    (void)cfg;
    if (max < 2)
        return snprintf(err, len, "no self-test rules"), -1;
    r[0] = (st_rule){.port = "in_reg_i", .kind = ST_PROB, .a = 4096};
    r[1] = (st_rule){.port = "in_bytes_i", .width = 16, .kind = ST_RANGE, .a = 4, .b = 259};
    return 2;
}

const gen_unit dualopt_coal_gen_unit = {"dualopt-coal", gen_emit, dualopt_coal_params, gen_report,
                                        dualopt_coal_selftest};
