/*
 * STC band function generator (TACO 2023, section 4.2, Fig. 4; STC
 * specification 3.1): band = (addr >> seb) & (2^N - 1) with the address
 * zero-extended, behind one registered output stage on a valid/ready stream
 * (one address per cycle, band one cycle after acceptance). The golden model
 * is cmodel/stc/stc_band.c; timing in docs/stc.md.
 */
#include <stdio.h>

#include "gen_unit.h"
#include "prim.h"
#include "stc_band.h"

static void emit_band(emit_file *e, const void *cfg, const block_desc *b)
{
    static const prim_sfield out[] = {{"out_addr", "in_addr_i", 1}, {"out_band", "band_c", 1},
                                      {NULL, NULL, 0}};
    const stc_band_cfg *c = cfg;
    stc_band_geom g;
    unsigned addr_bits = c->addr_bits, band_bits = c->n;
    stc_band_geom_of(c, &g);
    emit(e, "// STC band function (TACO 2023, 4.2, Fig. 4): band = (addr >> seb) & (2^N - 1),");
    emit(e, "// addr zero-extended (seb >= %u: band 0). See docs/stc.md.", addr_bits);
    emit(e, "// Storage: one output stage; no RAM by design.");
    prim_module_begin(e, b);
    emit(e, "// The shifter: %u + %u bits so that any SEB up to %u shifts in zeros.", addr_bits,
         band_bits, addr_bits);
    emit(e, "logic [%u:0] sh_c;", addr_bits + band_bits - 1);
    emit(e, "logic [%u:0] band_c;", band_bits - 1);
    emit(e, "logic unused_sh;");
    emit(e, "assign sh_c = {%u'd0, in_addr_i} >> in_seb_i;", band_bits);
    emit(e, "assign band_c = sh_c[%u:0];", band_bits - 1);
    emit(e, "assign unused_sh = ^sh_c[%u:%u];", addr_bits + band_bits - 1, band_bits);
    emit_nl(e);
    emit(e, "// Output stage: one address per cycle, band one cycle after acceptance.");
    emit(e, "logic out_valid_q, out_valid_d;");
    emit(e, "logic [%u:0] out_addr_q, out_addr_d;", addr_bits - 1);
    emit(e, "logic [%u:0] out_band_q, out_band_d;", band_bits - 1);
    prim_out_stage(e, "in", "out", out);
    emit_nl(e);
    prim_regs rl = {0};
    prim_regs_list(&rl, "out_valid=1'b0 out_addr='0 out_band='0");
    prim_regs_block(e, &rl);
    emit_nl(e);
    prim_formal_begin(e, "// The band of an address whose SEB is at or above the address width is 0.");
    prim_formal_samples(e, (const char *const[]){NULL});
    prim_formal_assume(e, NULL, 0);
    emit(e, "  if (rst_ni && in_seb_i >= %u'd%u) assert(band_c == '0);", g.seb_bits, addr_bits);
    emit(e, "end");
    emit(e, "`endif");
    prim_module_end(e);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    GEN_CFG_GEOM(stc_band_cfg, stc_band_geom);
    snprintf(buf, len, "n=%u seb=%u addr_bits=%u\nseb_bits=%u", c->n, c->seb, c->addr_bits,
             g.seb_bits);
}

static void gen_report(FILE *f, const void *cfg, int json)
{
    const stc_band_cfg *c = cfg;
    stc_band_geom g;
    unsigned stage;
    stc_band_geom_of(c, &g);
    stage = 1 + c->addr_bits + c->n;
    if (json) {
        fprintf(f,
                "{\"unit\":\"stc-band\",\"n\":%u,\"seb\":%u,\"addr_bits\":%u,\"seb_bits\":%u,"
                "\"output_stage_bits\":%u,\"rtl_memories\":[]}\n",
                c->n, c->seb, c->addr_bits, g.seb_bits, stage);
        return;
    }
    fprintf(f, "STC band function: N %u (%u bands), %u-bit addresses, SEB input %u bits\n", c->n,
            1u << c->n, c->addr_bits, g.seb_bits);
    fprintf(f, "  state: output stage %u bits; the shifter is combinational\n", stage);
    fprintf(f, "  timing: one address per cycle, band one cycle after acceptance\n");
}

const gen_unit stc_band_gen_unit = {"stc-band", emit_band, gen_params, gen_report, NULL};
