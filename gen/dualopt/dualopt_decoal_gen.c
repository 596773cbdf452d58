/*
 * DualOpt RDMA CoDec de-coalescer generator (section 4.1.3, Fig. 9; spec
 * 2.4, 4.5): a packet register that takes one packet from the link when the
 * previous one has left, checks its header (type, compression, count, length,
 * reserved bits) and hands out one slot per cycle in packet order; regular
 * packets pass through as one output; a malformed packet is dropped with a
 * one-cycle bad_o pulse. No memory: the single packet register is flip-flops.
 * The golden model is cmodel/dualopt/dualopt_decoal.c.
 */
#include <stdio.h>
#include <string.h>

#include "dualopt_coal.h"
#include "dualopt_codec_gen.h"
#include "gen_unit.h"
#include "parts.h"
#include "prim.h"
#include "selftest.h"

/* The de-coalescer's logic inside an open module: the unit's own module and
 * the CoDec's de-coalescer part. */
void dualopt_decoal_body(emit_file *e, const void *cfg)
{
    const dualopt_codec_cfg *c = cfg;
    dualopt_codec_geom g;
    unsigned j, n_bits, slot_bits, data_bits, gpu_bits;
    unsigned count_bits = c->count_bits, max = c->max;
    char nm[128];
    prim_regs slots = {0}; /* the packet register's slots */
    dualopt_codec_geom_of(c, &g);
    n_bits = g.n_bits;
    slot_bits = g.slot_bits;
    data_bits = g.data_bits;
    gpu_bits = g.gpu_bits;
    prim_decl(e, 32, "dhdr");
    prim_decl(e, 4, "h_type, h_comp");
    prim_decl(e, count_bits, "h_cnt");
    prim_decl(e, 1, "good_c, good_r, acc, ofire, last");
    prim_decl(e, 1, "busy_q, busy_d, reg_q, reg_d, bad_q, bad_d");
    prim_decl(e, gpu_bits, "src_q, src_d");
    prim_decl(e, n_bits, "n_q, n_d, idx_q, idx_d");
    prim_decl(e, 16, "id_q, id_d, len_q, len_d, h_id");
    prim_decl(e, slot_bits, "cur");
    for (j = 0; j < max; j++) {
        snprintf(nm, sizeof nm, "s%u_q, s%u_d, in_s%u", j, j, j);
        prim_decl(e, slot_bits, nm);
        snprintf(nm, sizeof nm, "s%u", j);
        prim_reg(&slots, nm, "'0");
    }
    emit_nl(e);
    emit(e, "// Header checks (spec 2.4, 4.5): type 1; compression 0 (regular: count and");
    emit(e, "// reserved bits zero, at least the header) or 1 (coalesced: count 1..%u,", max);
    emit(e, "// length 4 + %u x count, reserved bits zero).", c->gran + 2);
    emit(e, "assign dhdr = pkt_data_i[31:0];");
    emit(e, "assign h_type = dhdr[3:0];");
    emit(e, "assign h_comp = dhdr[7:4];");
    emit(e, "assign h_id = dhdr[31:16];");
    emit(e, "assign h_cnt = dhdr[%u:8];", 8 + count_bits - 1);
    emit(e, "assign good_r = h_type == 4'd1 & h_comp == 4'd0 & dhdr[15:8] == 8'd0 & "
            "pkt_len_i >= 16'd%u;", DUALOPT_CODEC_HDR_BYTES);
    {
        char cap[32] = "";
        if (max < (1u << count_bits) - 1) /* a full-range count needs no upper check */
            snprintf(cap, sizeof cap, "h_cnt <= %u'd%u & ", count_bits, max);
        emit(e, "assign good_c = h_type == 4'd1 & h_comp == 4'd1 & dhdr[31:%u] == '0 & h_cnt != '0 & "
                "%spkt_len_i == 16'd%u + 16'(h_cnt) * 16'd%u;",
             8 + count_bits, cap, DUALOPT_CODEC_HDR_BYTES, c->gran + 2);
    }
    for (j = 0; j < max; j++)
        emit(e, "assign in_s%u = pkt_data_i[%u +: %u];", j, 32 + j * slot_bits, slot_bits);
    emit(e, "assign last = idx_q == n_q - %u'd1;", n_bits);
    emit(e, "assign pkt_ready_o = ~busy_q | (out_ready_i & last);");
    emit(e, "assign acc = pkt_valid_i & pkt_ready_o;");
    emit(e, "assign ofire = busy_q & out_ready_i;");
    emit_nl(e);
    emit_begin(e, "always_comb begin");
    prim_hold(e, "busy reg n idx src id len");
    emit(e, "bad_d = 1'b0;");
    prim_regs_holds(e, &slots);
    emit(e, "if (ofire) begin");
    emit(e, "  if (last) busy_d = 1'b0;");
    emit(e, "  else idx_d = idx_q + %u'd1;", n_bits);
    emit(e, "end");
    emit_begin(e, "if (acc) begin");
    for (j = 0; j < max; j++)
        emit(e, "s%u_d = in_s%u;", j, j);
    emit(e, "src_d = pkt_src_i;");
    emit(e, "idx_d = '0;");
    emit(e, "len_d = pkt_len_i;");
    emit(e, "id_d = h_id;");
    emit(e, "if (good_c | good_r) begin");
    emit(e, "  busy_d = 1'b1;");
    emit(e, "  reg_d = good_r;");
    emit(e, "  n_d = good_r ? %u'd1 : %u'(h_cnt);", n_bits, n_bits);
    emit(e, "end else begin");
    emit(e, "  busy_d = 1'b0;");
    emit(e, "  bad_d = 1'b1;");
    emit(e, "end");
    emit_end(e, "end");
    emit_end(e, "end");
    emit_nl(e);
    emit_begin(e, "always_comb begin");
    emit(e, "cur = s0_q;");
    emit(e, "case (idx_q)");
    for (j = 0; j < max; j++)
        emit(e, "  %u'd%u: cur = s%u_q;", n_bits, j, j);
    if ((1u << n_bits) != max)
        emit(e, "  default: ;");
    emit(e, "endcase");
    emit_end(e, "end");
    emit(e, "assign out_valid_o = busy_q;");
    emit(e, "assign out_reg_o = reg_q;");
    emit(e, "assign out_src_o = src_q;");
    emit(e, "assign out_id_o = reg_q ? id_q : cur[%u:%u];", slot_bits - 1, data_bits);
    emit(e, "assign out_data_o = reg_q ? '0 : cur[%u:0];", data_bits - 1);
    emit(e, "assign out_bytes_o = reg_q ? len_q : '0;");
    emit(e, "assign bad_o = bad_q;");
    emit_nl(e);
    prim_regs_open(e);
    emit(e, "    busy_q <= 1'b0; reg_q <= 1'b0; n_q <= '0; idx_q <= '0; src_q <= '0;");
    emit(e, "    id_q <= '0; len_q <= '0; bad_q <= 1'b0;");
    prim_regs_resets(e, &slots);
    prim_regs_else(e);
    emit(e, "    busy_q <= busy_d; reg_q <= reg_d; n_q <= n_d; idx_q <= idx_d; src_q <= src_d;");
    emit(e, "    id_q <= id_d; len_q <= len_d; bad_q <= bad_d;");
    prim_regs_updates(e, &slots);
    prim_regs_close(e);
    {
        unsigned used = 32 + max * slot_bits, pb = c->pkt_bytes * 8;
        if (used < pb) {
            emit(e, "logic unused_tail;");
            emit(e, "assign unused_tail = ^pkt_data_i[%u:%u];", pb - 1, used);
        }
    }
}

static void gen_emit(emit_file *e, const void *cfg, const block_desc *b)
{
    emit(e, "// DualOpt RDMA CoDec de-coalescer (Belayneh et al., section 4.1.3, Fig. 9).");
    emit(e, "// Register-only (lint: no memory): one packet register, one slot per cycle;");
    emit(e, "// see docs/dualopt.md.");
    prim_module_begin(e, b);
    dualopt_decoal_body(e, cfg);
    prim_module_end(e);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(dualopt_codec_cfg, dualopt_codec_geom);
    snprintf(buf, len,
             "gpus=%u self=%u max=%u gran=%u pkt_bytes=%u count_bits=%u\n"
             "slot_bits=%u packet_register_bits=%u",
             c->gpus, c->self, c->max, c->gran, c->pkt_bytes, c->count_bits, g.slot_bits,
             c->max * g.slot_bits);
}

static void gen_report(FILE *f, const void *cfg, int json)
{
    GEN_CFG_GEOM(dualopt_codec_cfg, dualopt_codec_geom);
    if (json) {
        fprintf(f, "{\"max\":%u,\"gran\":%u,\"pkt_bytes\":%u,\"count_bits\":%u,\"slot_bits\":%u,"
                   "\"packet_register_bits\":%u,\"slots_per_cycle\":1,\"rtl_memories\":[],"
                   "\"storage_bits\":%u,\"paper_note\":\"part of Table 4's CoDec (37,234 um^2, "
                   "compared on dualopt-codec); storage bits = the packet register\"}\n",
                c->max, c->gran, c->pkt_bytes, c->count_bits, g.slot_bits, c->max * g.slot_bits,
                c->max * g.slot_bits);
        return;
    }
    fprintf(f, "DualOpt CoDec de-coalescer: up to %u slots of %u bits per packet, one slot per "
               "cycle; packet register %u bits\n",
            c->max, g.slot_bits, c->max * g.slot_bits);
}

/* FPGA self-test stimulus (gen/selftest.h): well-formed packets from the
 * header rules, mostly coalesced: type 1, compression 1 with probability
 * 7/8 (else a regular packet: legal with count 0, rejected otherwise),
 * count 0..max (0 with compression 1: rejected), reserved bits zero but
 * one now and then (rejected), and the length the count implies. */
int dualopt_decoal_selftest(const void *cfg, st_rule *r, int max, char *err, size_t len)
{
    const dualopt_codec_cfg *c = cfg;
    dualopt_codec_geom g;
    unsigned cb = c->count_bits;
    dualopt_codec_geom_of(c, &g);
    if (max < 7 || cb < 1 || cb > 8)
        return snprintf(err, len, "dualopt-decoal: no self-test"), -1;
    r[0] = (st_rule){.port = "pkt_data_i", .lo = 0, .width = 4, .kind = ST_CONST, .a = 1};
    r[1] = (st_rule){.port = "pkt_data_i", .lo = 4, .width = 1, .kind = ST_PROB, .a = 57344};
    r[2] = (st_rule){.port = "pkt_data_i", .lo = 5, .width = 3, .kind = ST_CONST, .a = 0};
    r[3] = (st_rule){.port = "pkt_data_i", .lo = 8, .width = cb, .kind = ST_RANGE, .a = 0,
                     .b = g.max};
    r[4] = (st_rule){.port = "pkt_data_i", .lo = 8 + cb, .width = 1, .kind = ST_PROB, .a = 1024};
    r[5] = (st_rule){.port = "pkt_data_i", .lo = 9 + cb, .width = 23 - cb, .kind = ST_CONST};
    r[6] = (st_rule){.port = "pkt_len_i", .kind = ST_LINEAR, .a = c->gran + 2, .b = 4,
                     .src = "pkt_data_i", .src_lo = 8, .src_width = cb};
    return 7;
}

const gen_unit dualopt_decoal_gen_unit = {"dualopt-decoal", gen_emit, gen_params, gen_report,
                                          dualopt_decoal_selftest};
