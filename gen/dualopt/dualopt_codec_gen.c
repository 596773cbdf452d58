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
#include "prim.h"
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
    prim_module_begin(e, b);
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
    prim_module_end(e);
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

/* The parameter lines and the self-test stimulus are the coalescer's (its
 * input is the round trip's). */
const gen_unit dualopt_codec_gen_unit = {"dualopt-codec", gen_emit, dualopt_coal_params, gen_report,
                                         dualopt_coal_selftest};
