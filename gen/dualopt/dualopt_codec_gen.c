/*
 * DualOpt CoDec round trip (spec 4.6): the coalescer and the de-coalescer
 * of one configuration joined by a link (the coalescer's packet port into
 * the de-coalescer's): the file holds the two part modules, emitted by their
 * own generators, and the round-trip module instantiating them (gen/parts.h).
 * The lockstep bench checks the round
 * trip of the RTL on every cycle and the trace mode prints what
 * `cohmodel dualopt-codec` prints. link_fire_o marks the cycles a packet
 * crosses the link (its departure).
 */
#include <stdio.h>

#include "dualopt_codec_gen.h"
#include "gen_unit.h"
#include "parts.h"
#include "selftest.h"

/* The parts: the coalescer's and de-coalescer's modules of this
 * configuration, each in its own file (gen/parts.h). */
const gen_part dualopt_codec_parts[] = {
    {"coal", "DualOpt RDMA CoDec coalescer (dualopt-coal), part of the round trip.",
     "dualopt-coal", NULL, dualopt_coal_body},
    {"decoal", "DualOpt RDMA CoDec de-coalescer (dualopt-decoal), part of the round trip.",
     "dualopt-decoal", NULL, dualopt_decoal_body},
    {NULL, NULL, NULL, NULL, NULL},
};

static void gen_emit(emit_file *e, const void *cfg, const block_desc *b)
{
    const dualopt_codec_cfg *c = cfg;
    dualopt_codec_geom g;
    block_desc coal, decoal;
    char coal_name[192], decoal_name[192];
    dualopt_codec_geom_of(c, &g);
    if (part_block(&coal, coal_name, sizeof coal_name, b, &dualopt_codec_parts[0], cfg) != 0 ||
        part_block(&decoal, decoal_name, sizeof decoal_name, b, &dualopt_codec_parts[1], cfg) != 0) {
        e->err = 1;
        return;
    }
    emit(e, "// DualOpt RDMA CoDec round trip: coalescer -> link -> de-coalescer");
    emit(e, "// (Belayneh et al., section 4.1.3, Fig. 9); see docs/dualopt.md. The two");
    emit(e, "// parts are instances of %s and %s (their own files).", coal_name, decoal_name);
    ports_file_header(e, b, "// ");
    emit(e, "`default_nettype none");
    emit_nl(e);
    ports_verilog_module(e, b);
    emit_nl(e);
    emit_in(e);
    emit(e, "// The link: the coalescer's packet port is the de-coalescer's.");
    emit(e, "logic pkt_valid_o, pkt_ready_i, pkt_valid_i, pkt_ready_o;");
    if (g.gpu_bits > 1)
        emit(e, "logic [%u:0] pkt_dst_o, pkt_src_i;", g.gpu_bits - 1);
    else
        emit(e, "logic pkt_dst_o, pkt_src_i;");
    emit(e, "logic [%u:0] pkt_len_o, pkt_len_i;", DUALOPT_CODEC_LEN_BITS - 1);
    emit(e, "logic [%u:0] pkt_data_o, pkt_data_i;", g.pkt_data_bits - 1);
    emit(e, "assign pkt_valid_i = pkt_valid_o;");
    emit(e, "assign pkt_src_i = pkt_dst_o;");
    emit(e, "assign pkt_len_i = pkt_len_o;");
    emit(e, "assign pkt_data_i = pkt_data_o;");
    emit(e, "assign pkt_ready_i = pkt_ready_o;");
    emit(e, "assign link_fire_o = pkt_valid_o & pkt_ready_o;");
    emit_nl(e);
    part_instance(e, &coal, "u_coal", NULL);
    emit_nl(e);
    part_instance(e, &decoal, "u_decoal", NULL);
    emit_out(e);
    emit_nl(e);
    emit(e, "endmodule");
    emit(e, "`default_nettype wire");
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    const dualopt_codec_cfg *c = cfg;
    dualopt_codec_geom g;
    dualopt_codec_geom_of(c, &g);
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
    const dualopt_codec_cfg *c = cfg;
    dualopt_codec_geom g;
    dualopt_codec_geom_of(c, &g);
    if (json) {
        unsigned b;
        fprintf(f, "{\"buffers\":%u,\"buf\":%u,\"max\":%u,\"storage_bits\":%u,"
                   "\"packet_register_bits\":%u,\"rtl_memories\":[",
                g.nf, c->buf, c->max, g.storage_bits, c->max * g.slot_bits);
        for (b = 0; b < g.banks; b++)
            fprintf(f, "%s[%u,%u]", b ? "," : "", g.depth, g.slot_bits);
        fprintf(f, "],\"ff_bound\":%u,\"paper_area_um2\":37234,\"paper_note\":\"Table 4: "
                   "CoDec 37,234 um^2 (28 nm); storage bits = the coalescer's slot buffers (the "
                   "de-coalescer's %u-bit packet register not counted)\"}\n",
                (g.banks + 2 * c->max) * g.slot_bits + 1280, c->max * g.slot_bits);
    }
    else
        fprintf(f, "DualOpt CoDec round trip: coalescer (%u x %u slots, %u bits) -> link -> "
                   "de-coalescer (%u-bit packet register)\n",
                g.nf, c->buf, g.storage_bits, c->max * g.slot_bits);
}

/* FPGA self-test stimulus (gen/selftest.h) of the coalescer's input (also
 * the CoDec round trip's): 1 in 16 responses is a regular packet of 4..259
 * bytes; destinations, ids, masks and data random. */
int dualopt_codec_selftest(const void *cfg, st_rule *r, int max, char *err, size_t len)
{
    (void)cfg;
    if (max < 2)
        return snprintf(err, len, "no self-test rules"), -1;
    r[0] = (st_rule){.port = "in_reg_i", .kind = ST_PROB, .a = 4096};
    r[1] = (st_rule){.port = "in_bytes_i", .width = 16, .kind = ST_RANGE, .a = 4, .b = 259};
    return 2;
}

const gen_unit dualopt_codec_gen_unit = {"dualopt-codec", gen_emit, gen_params, gen_report,
                                         dualopt_codec_selftest};
