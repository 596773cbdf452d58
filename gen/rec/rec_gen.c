/*
 * REC directory generator: Verilog of the pipelined, RAM-based directory of
 * Ko et al. (REC), sections 4.1-4.2, and of its baselines (one line per
 * entry, HMG 4-line groups; sections 2.3 and 5.2). Microarchitecture and
 * timing are described in docs/rec.md; the golden model is cmodel/rec/rec.c.
 */
#include "rec_gen.h"
#include "gen_unit.h"
#include "prim.h"
#include "selftest.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void rec_block_desc(const rec_cfg *c, const char *module, block_desc *b, char *args,
                    size_t args_len, char *params, size_t params_len)
{
    rec_geom gg, *g = &gg;
    char grp[24] = "";
    rec_geom_of(c, g);
    if (c->mode == REC_MODE_HMG)
        snprintf(grp, sizeof grp, " group=%u", c->group);
    memset(b, 0, sizeof *b);
    b->family = "rec";
    b->module = module;
    rec_cfg_args(c, args, args_len);
    b->args = args;
    snprintf(params, params_len,
             "mode=%s gpus=%u entries=%u ways=%u range=%u line=%u addr_bits=%u repl=%s store=%s%s\n"
             "sets=%u index_bits=%u slots=%u lines_per_slot=%u sharer_bits=%u\n"
             "tag_bits=%u vector_bits=%u entry_bits=%u rank_bits=%u set_word_bits=%u\n"
             "paper_entry_bits=%u packed_entry_bits=%u",
             rec_mode_str(c->mode), c->gpus, c->entries, c->ways, c->range, c->line,
             c->addr_bits, rec_repl_str(c->repl),
             c->store == REC_STORE_PACKED ? "packed" : "full",
             grp,
             g->sets, g->index_bits, g->slots, g->lines_per_slot, g->sharer_bits, g->tag_bits,
             g->vec_bits, g->entry_bits, g->rank_bits, g->set_bits, g->paper_entry_bits,
             g->packed_entry_bits);
    b->params = params;
    b->model = "cmodel/rec/rec.c rec_eval() / rec_step() (timing), rec_core_access() (function)";
#define REC_PORT(pdir, pname, pwidth) \
    b->ports[b->n].dir = COHKIT_PORT_##pdir; \
    b->ports[b->n].name = #pname; \
    b->ports[b->n].width = (pwidth); \
    b->n++;
#include "rec_ports.def"
#undef REC_PORT
}

/* Generation context: the configuration, its geometry (rec_geom_of) and
 * the few widths the model does not name. */
typedef struct {
    const rec_cfg *c;
    rec_geom g;
    unsigned index_width;  /* index ports: index_bits, at least 1       */
    unsigned job_idx_bits; /* log2(lines): a line of an invalidation job */
    int packed, lru;       /* packed tag store, LRU replacement          */
    char initw[8192];      /* the set word out of reset (init_word)      */
} gctx;

/* A set-word constant with way w's rank field = w (identity order). */
static void init_word(gctx *x, char *buf, size_t len)
{
    unsigned nib = (x->g.set_bits + 3) / 4, i;
    size_t k = 0;
    k += (size_t)snprintf(buf, len, "%u'h", x->g.set_bits);
    for (i = nib; i-- > 0;) {
        unsigned v = 0, b;
        for (b = 0; b < 4; b++) {
            unsigned bit = i * 4 + b, w;
            for (w = 0; w < x->c->ways && x->g.rank_bits; w++) {
                unsigned at = x->c->ways * x->g.entry_bits + w * x->g.rank_bits;
                if (bit >= at && bit < at + x->g.rank_bits && ((w >> (bit - at)) & 1))
                    v |= 1u << b;
            }
        }
        if (k + 2 < len)
            buf[k++] = "0123456789abcdef"[v];
    }
    buf[k] = '\0';
}

/* Formal properties (`ifdef FORMAL`), checked by `make formal` with
 * yosys-smtbmc and z3 on the small configurations of tb/formal.txt; the
 * invariants and the strengthening needed for induction are listed in
 * docs/rec.md. Labels: p_<group>_* are the properties (one negative control
 * per group in tb/formal-controls.txt), s_* the strengthening invariants. */

/* Environment and interface: reset in the first cycle only, home_i a strap;
 * the invalidation port holds its payload under back-pressure, never
 * addresses the home GPU or an empty mask, and no request is accepted during
 * the clearing sweep. */
static void emit_formal_iface(emit_file *e, const gctx *x)
{
    static const char *const samples[] = {"f_stall_q <= inv_valid_o & ~inv_ready_i",
                                          "f_addr_q <= inv_addr_o", "f_mask_q <= inv_mask_o",
                                          "f_home_q <= home_i", NULL};
    emit(e, "logic f_stall_q;");
    emit(e, "logic [%u:0] f_addr_q;", x->g.laddr_bits - 1);
    emit(e, "logic [%u:0] f_mask_q, f_home_oh;", x->c->gpus - 1);
    emit(e, "logic [%u:0] f_home_q;", x->g.gpu_bits - 1);
    emit(e, "assign f_home_oh = %u'd1 << home_i;", x->c->gpus);
    prim_formal_samples(e, samples);
    prim_formal_assume(e, "reset in the first cycle only; home_i is a strap", 0);
    emit(e, "  if (f_past_q) assume(home_i == f_home_q);");
    if (x->c->gpus != (1u << x->g.gpu_bits))
        emit(e, "  assume(home_i < %u'd%u);", x->g.gpu_bits, x->c->gpus);
    emit(e, "  if (rst_ni && inv_valid_o) begin");
    emit(e, "    p_iface_mask: assert(inv_mask_o != %u'd0);", x->c->gpus);
    emit(e, "    p_iface_home: assert((inv_mask_o & f_home_oh) == %u'd0);", x->c->gpus);
    emit(e, "  end");
    emit(e, "  if (rst_ni && f_past_q && f_stall_q) begin");
    emit(e, "    p_iface_hold: assert(inv_valid_o);");
    emit(e, "    p_iface_addr: assert(inv_addr_o == f_addr_q);");
    emit(e, "    p_iface_data: assert(inv_mask_o == f_mask_q);");
    emit(e, "  end");
    emit(e, "  if (rst_ni && init_q) p_iface_init: assert(!req_ready_o);");
    emit(e, "end");
}

static unsigned tag_lo(const gctx *x, unsigned w);
static unsigned valid_bit(const gctx *x, unsigned w);

/* Bit positions in a set word (field-major, see tag_lo): way i's valid bit,
 * tag, vector, slot s's position bit and sharers. */
static void f_valid(const gctx *x, char *b, size_t n, unsigned i)
{
    snprintf(b, n, "w[%u]", valid_bit(x, i));
}
static void f_tagr(const gctx *x, char *b, size_t n, unsigned i)
{
    snprintf(b, n, "w[%u:%u]", tag_lo(x, i) + x->g.tag_bits - 1, tag_lo(x, i));
}
static void f_shr(const gctx *x, char *b, size_t n, unsigned i, unsigned s)
{
    unsigned lo = i * x->g.vec_bits + s * x->g.slot_width + x->g.has_pos;
    snprintf(b, n, "w[%u:%u]", lo + x->g.sharer_bits - 1, lo);
}

/* A conjunction emitted one term a line: "  NAME = T0" / "      && Tk" /
 * ";" after the last (1'b1 when there is none). */
typedef struct {
    emit_file *e;
    const char *name;
    char pend[192];
    unsigned n;
} f_and;

static void and_begin(f_and *a, emit_file *e, const char *name)
{
    a->e = e;
    a->name = name;
    a->n = 0;
}

static void and_flush(f_and *a, const char *end)
{
    if (a->n == 1)
        emit(a->e, "  %s = %s%s", a->name, a->pend, end);
    else
        emit(a->e, "      && %s%s", a->pend, end);
}

static void and_term(f_and *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void and_term(f_and *a, const char *fmt, ...)
{
    va_list ap;
    if (a->n)
        and_flush(a, "");
    va_start(ap, fmt);
    if (vsnprintf(a->pend, sizeof a->pend, fmt, ap) >= (int)sizeof a->pend)
        a->e->err = EOVERFLOW; /* a cut term would be wrong Verilog: fail */
    va_end(ap);
    a->n++;
}

static void and_end(f_and *a)
{
    if (a->n)
        and_flush(a, ";");
    else
        emit(a->e, "  %s = 1'b1;", a->name);
}

/* Predicates over one set word w of the entry RAM, unrolled here (no loops
 * for the Verilog front end to unroll per set). */
static void emit_formal_funcs(emit_file *e, const gctx *x)
{
    char a[48], b[48], c[48], d[48];
    unsigned i, j, s;
    f_and t;

    emit(e, "// Set-word predicates over w (the ways' vectors, tags, valid bits, ranks).");
    emit(e, "function automatic logic [%u:0] f_match(input logic [%u:0] w, input logic [%u:0] tag);",
         x->c->ways - 1, x->g.set_bits - 1, x->g.tag_bits - 1);
    for (i = 0; i < x->c->ways; i++) {
        f_valid(x, a, sizeof a, i);
        f_tagr(x, b, sizeof b, i);
        emit(e, "  f_match[%u] = %s && %s == tag;", i, a, b);
    }
    emit(e, "endfunction");

    emit(e, "// no two valid ways hold the same tag");
    emit(e, "function automatic logic f_uniq(input logic [%u:0] w);", x->g.set_bits - 1);
    and_begin(&t, e, "f_uniq");
    for (i = 0; i < x->c->ways; i++)
        for (j = i + 1; j < x->c->ways; j++) {
            f_valid(x, a, sizeof a, i);
            f_valid(x, b, sizeof b, j);
            f_tagr(x, c, sizeof c, i);
            f_tagr(x, d, sizeof d, j);
            and_term(&t, "!(%s && %s && %s == %s)", a, b, c, d);
        }
    and_end(&t);
    emit(e, "endfunction");

    emit(e, "// a free (invalid) way has an all-zero vector: no position bit, no sharer");
    emit(e, "function automatic logic f_free(input logic [%u:0] w);", x->g.set_bits - 1);
    and_begin(&t, e, "f_free");
    for (i = 0; i < x->c->ways; i++) {
        f_valid(x, a, sizeof a, i);
        and_term(&t, "(%s || w[%u:%u] == %u'd0)", a, i * x->g.vec_bits + x->g.vec_bits - 1,
                 i * x->g.vec_bits, x->g.vec_bits);
    }
    and_end(&t);
    emit(e, "endfunction");

    if (x->g.rank_bits) {
        unsigned r0 = x->c->ways * x->g.entry_bits;
        emit(e, "// the ways' replacement ranks are a permutation of 0..%u", x->c->ways - 1);
        emit(e, "function automatic logic f_perm(input logic [%u:0] w);", x->g.set_bits - 1);
        and_begin(&t, e, "f_perm");
        for (i = 0; i < x->c->ways; i++)
            for (j = i + 1; j < x->c->ways; j++)
                and_term(&t, "w[%u:%u] != w[%u:%u]", r0 + (i + 1) * x->g.rank_bits - 1, r0 + i * x->g.rank_bits,
                         r0 + (j + 1) * x->g.rank_bits - 1, r0 + j * x->g.rank_bits);
        and_end(&t);
        emit(e, "endfunction");
    }

    emit(e, "// strengthening: a valid way tracks something; %s",
         x->g.has_pos ? "a slot's position bit is set" : "its sharer vector is not");
    emit(e, "// %s", x->g.has_pos ? "exactly when the slot has sharers" : "empty");
    emit(e, "function automatic logic f_live(input logic [%u:0] w);", x->g.set_bits - 1);
    and_begin(&t, e, "f_live");
    for (i = 0; i < x->c->ways; i++) {
        f_valid(x, a, sizeof a, i);
        if (!x->g.has_pos) {
            f_shr(x, b, sizeof b, i, 0);
            and_term(&t, "(!%s || %s != %u'd0)", a, b, x->g.sharer_bits);
            continue;
        }
        /* each slot's position bit agrees with its sharers, and the vector
         * is not empty: some position bit is set */
        for (s = 0; s < x->g.slots; s++) {
            f_shr(x, b, sizeof b, i, s);
            and_term(&t, "(!%s || w[%u] == (%s != %u'd0))", a,
                     i * x->g.vec_bits + s * x->g.slot_width, b, x->g.sharer_bits);
        }
        and_term(&t, "(!%s || w[%u:%u] != %u'd0)", a, i * x->g.vec_bits + x->g.vec_bits - 1,
                 i * x->g.vec_bits, x->g.vec_bits);
    }
    and_end(&t);
    emit(e, "endfunction");

    if (!x->packed && x->g.index_bits) {
        emit(e, "// strengthening: a valid way of set k holds a tag whose index bits are k");
        emit(e, "function automatic logic f_tagidx(input logic [%u:0] w, input logic [%u:0] k);",
             x->g.set_bits - 1, x->index_width - 1);
        and_begin(&t, e, "f_tagidx");
        for (i = 0; i < x->c->ways; i++) {
            unsigned lo = tag_lo(x, i);
            f_valid(x, a, sizeof a, i);
            and_term(&t, "(!%s || w[%u:%u] == k)", a, lo + x->g.index_bits - 1, lo);
        }
        and_end(&t);
        emit(e, "endfunction");
    }

    emit(e, "// stored sharer bits as a GPU mask: bit j is GPU j below the home, j+1 above");
    emit(e, "function automatic logic [%u:0] f_dec(input logic [%u:0] sh, input logic [%u:0] home);",
         x->c->gpus - 1, x->g.sharer_bits - 1, x->g.gpu_bits - 1);
    for (j = 0; j < x->c->gpus; j++) {
        char lo[24] = "1'b0", hi[24] = "1'b0";
        if (j < x->g.sharer_bits)
            snprintf(lo, sizeof lo, "sh[%u]", j);
        if (j > 0)
            snprintf(hi, sizeof hi, "sh[%u]", j - 1);
        emit(e, "  f_dec[%u] = %u'd%u < home ? %s : %u'd%u > home ? %s : 1'b0;", j, x->g.gpu_bits, j, lo,
             x->g.gpu_bits, j, hi);
    }
    emit(e, "endfunction");

    emit(e, "// ghost link: the sharers recorded for the tracked line's slot, in the");
    emit(e, "// way of set word w holding its tag, are within gh (the ghost sharers");
    emit(e, "// its pending invalidation does not name); checked when here");
    emit(e, "function automatic logic f_rec(input logic [%u:0] w, input logic here,",
         x->g.set_bits - 1);
    emit(e, "    input logic [%u:0] tag, input logic [%u:0] slot, input logic [%u:0] home,",
         x->g.tag_bits - 1, (x->g.slot_bits ? x->g.slot_bits : 1) - 1, x->g.gpu_bits - 1);
    emit(e, "    input logic [%u:0] gh);", x->c->gpus - 1);
    and_begin(&t, e, "f_rec");
    for (i = 0; i < x->c->ways; i++)
        for (s = 0; s < x->g.slots; s++) {
            f_valid(x, a, sizeof a, i);
            f_tagr(x, b, sizeof b, i);
            f_shr(x, c, sizeof c, i, s);
            and_term(&t, "!(here && %s && %s == tag && slot == %u'd%u && (f_dec(%s, home) & ~gh) != %u'd0)",
                     a, b, x->g.slot_bits ? x->g.slot_bits : 1, s, c, x->c->gpus);
        }
    and_end(&t);
    emit(e, "endfunction");
}

/* A read of the entry RAM for the properties: set EXPR, or the register of
 * a one-set directory. Formal-only read ports (synthesis never sees them);
 * scripts/formal.sh maps the array to registers. */
static const char *f_mem(const gctx *x, char *buf, size_t len, const char *idx)
{
    if (x->g.sets > 1)
        snprintf(buf, len, "mem_q[%s]", idx);
    else
        snprintf(buf, len, "mem_q");
    return buf;
}

/* Ghost state: an arbitrary line (f_line, constant over a run) and the GPUs
 * that made a remote request to its slot (the directory's tracking
 * granularity) since their last invalidation of that line. */
static void emit_formal_ghost(emit_file *e, const gctx *x)
{
    emit(e, "(* anyconst *) logic [%u:0] f_line;", x->g.laddr_bits - 1);
    emit(e, "logic [%u:0] f_gh_q, f_jmask;", x->c->gpus - 1);
    emit(e, "logic [%u:0] f_tag;", x->g.tag_bits - 1);
    emit(e, "logic [%u:0] f_base;", x->g.base_bits - 1);
    emit(e, "logic [%u:0] f_idx;", x->index_width - 1);
    emit(e, "logic [%u:0] f_slot;", (x->g.slot_bits ? x->g.slot_bits : 1) - 1);
    emit(e, "assign f_tag = f_line[%u:%u];", x->g.laddr_bits - 1,
         x->g.span_bits + (x->packed ? x->g.index_bits : 0));
    emit(e, "assign f_base = f_line[%u:%u];", x->g.laddr_bits - 1, x->g.span_bits);
    if (x->g.index_bits)
        emit(e, "assign f_idx = f_line[%u:%u];", x->g.span_bits + x->g.index_bits - 1, x->g.span_bits);
    else
        emit(e, "assign f_idx = 1'b0;");
    if (x->g.slot_bits)
        emit(e, "assign f_slot = f_line[%u:%u];", x->g.lps_bits + x->g.slot_bits - 1, x->g.lps_bits);
    else
        emit(e, "assign f_slot = 1'b0;");
    emit(e, "always @(posedge clk_i)");
    emit(e, "  if (!rst_ni) f_gh_q <= '0;");
    emit(e, "  else if (s2_fire && (s2_op_q == 2'd0 || s2_op_q == 2'd2) && s2_src_q != home_q &&");
    if (x->c->gpus != (1u << x->g.gpu_bits))
        emit(e, "      s2_src_q < %u'd%u &&", x->g.gpu_bits, x->c->gpus);
    emit(e, "      s2_addr_q[%u:%u] == f_line[%u:%u])", x->g.laddr_bits - 1, x->g.lps_bits,
         x->g.laddr_bits - 1, x->g.lps_bits);
    emit(e, "    f_gh_q <= f_gh_q | (%u'd1 << s2_src_q);", x->c->gpus);
    emit(e, "  else if (inv_valid_o && inv_ready_i && inv_addr_o == f_line)");
    emit(e, "    f_gh_q <= f_gh_q & ~inv_mask_o;");
}

/* Invariants over every cleared set word, the pipeline's copies of set
 * words, the invalidation job and the ghost. */
static void emit_formal_state(emit_file *e, const gctx *x)
{
    char m[64];
    const char *k_in = x->g.sets > 1 ? "!init_q || k < init_idx_q" : "!init_q";
    emit(e, "logic f_uniq_ok, f_free_ok, f_perm_ok, f_live_ok, f_tagidx_ok;");
    emit(e, "always @(*) begin");
    emit(e, "  f_uniq_ok = 1'b1;");
    emit(e, "  f_free_ok = 1'b1;");
    emit(e, "  f_perm_ok = 1'b1;");
    emit(e, "  f_live_ok = 1'b1;");
    emit(e, "  f_tagidx_ok = 1'b1;");
    emit(e, "  // every set the clearing sweep has written");
    emit(e, "  for (int k = 0; k < %u; k++)", x->g.sets);
    emit(e, "    if (%s) begin", k_in);
    f_mem(x, m, sizeof m, "k");
    emit(e, "      f_uniq_ok = f_uniq_ok & f_uniq(%s);", m);
    emit(e, "      f_free_ok = f_free_ok & f_free(%s);", m);
    if (x->g.rank_bits)
        emit(e, "      f_perm_ok = f_perm_ok & f_perm(%s);", m);
    emit(e, "      f_live_ok = f_live_ok & f_live(%s);", m);
    if (!x->packed && x->g.index_bits)
        emit(e, "      f_tagidx_ok = f_tagidx_ok & f_tagidx(%s, k[%u:0]);", m, x->g.index_bits - 1);
    emit(e, "    end");
    emit(e, "end");
    emit(e, "// the set words stage 1, stage 2 and the forwarding register stand for");
    emit(e, "logic [%u:0] f_s1_word, f_s2_word, f_fwd_word;", x->g.set_bits - 1);
    emit(e, "assign f_s1_word = %s;", f_mem(x, m, sizeof m, "s1_idx"));
    emit(e, "assign f_s2_word = %s;", f_mem(x, m, sizeof m, "s2_idx"));
    emit(e, "assign f_fwd_word = %s;", f_mem(x, m, sizeof m, "fwd_idx_q"));
    emit(e, "// every pending line has sharers; the GPUs the pending invalidation of");
    emit(e, "// the tracked line names (f_jmask) are ghost sharers");
    emit(e, "logic f_job_ok;");
    emit(e, "always @(*) begin");
    emit(e, "  f_job_ok = 1'b1;");
    emit(e, "  f_jmask = '0;");
    emit(e, "  for (int l = 0; l < %u; l++)", x->g.lines);
    emit(e, "    if (job_pend_q%s && job_sh_q[(l / %u) * %u +: %u] == %u'd0) f_job_ok = 1'b0;",
         x->g.lines > 1 ? "[l]" : "", x->g.lines_per_slot, x->g.sharer_bits, x->g.sharer_bits, x->g.sharer_bits);
    emit(e, "  for (int s = 0; s < %u; s++)", x->g.slots);
    if (x->g.span_bits)
        emit(e, "    if (s == f_slot && job_pend_q[f_line[%u:0]] && job_base_q == f_base)",
             x->g.span_bits - 1);
    else
        emit(e, "    if (s == f_slot && job_pend_q && job_base_q == f_base)");
    emit(e, "      f_jmask = f_dec(job_sh_q[s*%u +: %u], home_q);", x->g.sharer_bits, x->g.sharer_bits);
    emit(e, "end");
    emit(e, "always @(*) begin");
    emit(e, "  if (rst_ni) begin");
    emit(e, "    p_uniq: assert(f_uniq_ok);");
    emit(e, "    p_free: assert(f_free_ok);");
    if (x->g.rank_bits)
        emit(e, "    p_perm: assert(f_perm_ok);");
    emit(e, "  end");
    emit(e, "  // an invalidation of the tracked line names only its ghost sharers");
    emit(e, "  if (rst_ni && inv_valid_o && inv_addr_o == f_line)");
    emit(e, "    p_inv_sharers: assert((inv_mask_o & ~f_gh_q) == %u'd0);", x->c->gpus);
    emit(e, "  // a remote request from the home GPU (or an id >= gpus) is not recorded:");
    emit(e, "  // the set is written back unchanged and nothing is invalidated");
    emit(e, "  if (rst_ni && s2_fire && (s2_op_q == 2'd0 || s2_op_q == 2'd2) &&");
    if (x->c->gpus != (1u << x->g.gpu_bits))
        emit(e, "      (s2_src_q == home_q || s2_src_q >= %u'd%u)) begin", x->g.gpu_bits, x->c->gpus);
    else
        emit(e, "      s2_src_q == home_q) begin");
    emit(e, "    p_home_set: assert(mem_wdata == set_cur);");
    emit(e, "    p_home_job: assert(pend_new == '0);");
    emit(e, "  end");
    emit(e, "  // strengthening invariants (needed for induction; docs/rec.md)");
    emit(e, "  if (rst_ni && f_past_q) s_home: assert(home_q == home_i);");
    emit(e, "  if (rst_ni && init_q) s_init: assert(!s1_valid_q && !s2_valid_q && !fwd_valid_q &&");
    emit(e, "      job_pend_q == '0 && s2_fix_q && s2_op_q == 2'd3 && fwd_data_q == %s);",
         x->initw);
    emit(e, "  if (rst_ni && fwd_valid_q) s_fwd: assert(fwd_data_q == f_fwd_word);");
    if (x->g.sets > 1) {
        emit(e,
             "  if (rst_ni && s1_valid_q) s_s1: assert(fwd_hit_q ? fwd_valid_q && fwd_idx_q == s1_idx :");
        emit(e, "      rdata_q == f_s1_word);");
        emit(e,
             "  if (rst_ni && s2_valid_q) s_s2: assert(s2_fix_q ? fwd_valid_q && fwd_idx_q == s2_idx :");
        emit(e, "      s2_data_q == f_s2_word);");
    } else {
        emit(e,
             "  if (rst_ni && s1_valid_q) s_s1: assert(fwd_hit_q ? fwd_valid_q : rdata_q == f_s1_word);");
        emit(e,
             "  if (rst_ni && s2_valid_q) s_s2: assert(s2_fix_q ? fwd_valid_q : s2_data_q == f_s2_word);");
    }
    emit(e, "  if (rst_ni && s2_valid_q) s_hit: assert(way_hit == f_match(set_cur, s2_tag));");
    emit(e, "  if (rst_ni) begin");
    emit(e, "    s_live: assert(f_live_ok);");
    if (!x->packed && x->g.index_bits)
        emit(e, "    s_tagidx: assert(f_tagidx_ok);");
    emit(e, "    s_rec: assert(f_rec(%s, %s, f_tag, f_slot, home_q,",
         f_mem(x, m, sizeof m, "f_idx"), x->g.sets > 1 ? "!init_q || f_idx < init_idx_q" : "!init_q");
    emit(e, "        f_gh_q & ~f_jmask));");
    emit(e, "    s_job: assert(f_job_ok);");
    emit(e, "    s_jobg: assert((f_jmask & ~f_gh_q) == %u'd0);", x->c->gpus);
    emit(e, "  end");
    emit(e, "end");
}

/* The protocol invariants read every slot of every entry: model checking is
 * for small directories, and beyond this size (entries x slots) their
 * unrolled logic only slows the Verilog front end down (64 entries of 64
 * slots take Yosys minutes to elaborate; an 8192-entry directory far more). */
#define REC_FORMAL_MAX_SLOTS 256u

static void emit_formal(emit_file *e, const gctx *x)
{
    emit_nl(e);
    prim_formal_begin(e, "// Properties checked by make formal (tb/formal.txt); see docs/rec.md.\n"
                         "// p_<group>_*: properties; s_*: strengthening invariants for induction.");
    emit_formal_iface(e, x);
    if (x->c->entries * x->g.slots <= REC_FORMAL_MAX_SLOTS) {
        emit_formal_funcs(e, x);
        emit_formal_ghost(e, x);
        emit_formal_state(e, x);
    } else {
        emit(e, "// The protocol invariants over the entry RAM are emitted for directories");
        emit(e, "// of at most %u entry slots, entries x slots (this one has %u x %u).",
             REC_FORMAL_MAX_SLOTS, x->c->entries, x->g.slots);
    }
    emit(e, "`endif");
}

/* Index, base (when with_base) and tag of the request held in stage PFX
 * ("s1", "s2"). */
static void addr_fields(emit_file *e, const gctx *x, const char *pfx, int with_base)
{
    if (x->g.index_bits)
        emit(e, "assign %s_idx = %s_addr_q[%u:%u];", pfx, pfx, x->g.span_bits + x->g.index_bits - 1,
             x->g.span_bits);
    if (!with_base) {
        unsigned lo = x->g.span_bits + (x->packed ? x->g.index_bits : 0);
        emit(e, "assign %s_tag = %s_addr_q[%u:%u];", pfx, pfx, x->g.laddr_bits - 1, lo);
        return;
    }
    if (x->g.span_bits)
        emit(e, "assign %s_base = %s_addr_q[%u:%u];", pfx, pfx, x->g.laddr_bits - 1, x->g.span_bits);
    else
        emit(e, "assign %s_base = %s_addr_q;", pfx, pfx);
    if (x->packed && x->g.index_bits)
        emit(e, "assign %s_tag = %s_base[%u:%u];", pfx, pfx, x->g.base_bits - 1, x->g.index_bits);
    else
        emit(e, "assign %s_tag = %s_base;", pfx, pfx);
}

/* Set word layout, field-major: the ways' vectors (way 0 at bit 0), then
 * their tags, then their valid bits, then their ranks. Every way's field is
 * then a constant slice, and each field group is contiguous (one copy in a
 * simulator, plain wiring in hardware). */
static unsigned tag_lo(const gctx *x, unsigned w) { return x->c->ways * x->g.vec_bits + w * x->g.tag_bits; }
static unsigned valid_bit(const gctx *x, unsigned w) { return x->c->ways * (x->g.vec_bits + x->g.tag_bits) + w; }

/* "WORD[valid] & (WORD[tag] == s1_tag)" for way w of a set word. */
static void tag_match(const gctx *x, unsigned w, const char *word, char *buf, size_t len)
{
    snprintf(buf, len, "%s[%u] & (%s[%u:%u] == s1_tag)", word, valid_bit(x, w), word,
             tag_lo(x, w) + x->g.tag_bits - 1, tag_lo(x, w));
}

/* The registers of the pipeline: stages 1 and 2, the forwarding register,
 * the invalidation job, the clearing sweep. */
static void emit_state(emit_file *e, const gctx *x)
{
    prim_decl(e, x->g.gpu_bits, "home_q");
    prim_decl(e, 1, "init_q, init_d");
    prim_decl(e, x->index_width, "init_idx_q, init_idx_d");
    prim_decl(e, 1, "s1_valid_q, s1_valid_d");
    prim_decl(e, 2, "s1_op_q, s1_op_d");
    prim_decl(e, x->g.laddr_bits, "s1_addr_q, s1_addr_d");
    prim_decl(e, x->g.gpu_bits, "s1_src_q, s1_src_d");
    prim_decl(e, 1, "s2_valid_q, s2_valid_d");
    prim_decl(e, 2, "s2_op_q, s2_op_d");
    prim_decl(e, x->g.laddr_bits, "s2_addr_q, s2_addr_d");
    prim_decl(e, x->g.gpu_bits, "s2_src_q, s2_src_d");
    prim_decl(e, x->g.set_bits, "s2_data_q, s2_data_d");
    prim_declv(e, x->c->ways, "s2_hit_q, s2_hit_d");
    prim_decl(e, 1, "s2_fix_q, s2_fix_d");
    prim_decl(e, 1, "s2_teq_q, s2_teq_d");
    prim_decl(e, 1, "fwd_valid_q, fwd_valid_d");
    prim_decl(e, 1, "fwd_hit_q, fwd_hit_d");
    if (x->g.sets > 1)
        prim_decl(e, x->index_width, "fwd_idx_q, fwd_idx_d");
    prim_decl(e, x->g.set_bits, "fwd_data_q, fwd_data_d");
    prim_declv(e, x->c->ways, "fwd_chg_q, fwd_chg_d, fwd_alloc_q, fwd_alloc_d");
    prim_decl(e, x->g.lines, "job_pend_q, job_pend_d");
    prim_decl(e, x->g.base_bits, "job_base_q, job_base_d");
    prim_declv(e, x->g.slots * x->g.sharer_bits, "job_sh_q, job_sh_d");
    emit_nl(e);
}

static void emit_stage0(emit_file *e, const gctx *x)
{
    emit(e, "// Stage 0: accept a request, read its set from the entry RAM.");
    emit(e, "// Stage 2 fires (updates) unless an invalidation job is draining;");
    emit(e, "// stage 1 moves on whenever stage 2 is empty or fires.");
    prim_decl(e, 1, "req_acc, job_busy, s2_fire, s1_adv");
    if (x->g.sets > 1)
        prim_decl(e, x->index_width, "req_idx");
    emit(e, "assign job_busy = |job_pend_q;");
    emit(e, "assign s2_fire = s2_valid_q & ~job_busy;");
    emit(e, "assign s1_adv = ~s2_valid_q | s2_fire;");
    emit(e, "assign req_ready_o = ~init_q & (~s1_valid_q | s1_adv);");
    emit(e, "assign req_acc = req_valid_i & req_ready_o;");
    if (x->g.sets > 1)
        emit(e, "assign req_idx = req_addr_i[%u:%u];", x->g.span_bits + x->g.index_bits - 1,
             x->g.span_bits);
    emit_nl(e);
}

static void emit_ram(emit_file *e, const gctx *x)
{
    static const char *const note[] = {
        "// Entry RAM: one word per set (the ways' vectors, then their tags,",
        "// valid bits and replacement ranks). Synchronous read, one write port.",
        "// A read of the set written in the same cycle is never used (the",
        "// forwarding register supplies it), so no read-during-write logic.", NULL};

    prim_decl(e, x->g.set_bits, "rdata_q");
    prim_decl(e, 1, "mem_we");
    prim_decl(e, x->g.set_bits, "mem_wdata, set_new, set_cur");
    emit(e, "assign mem_we = init_q | s2_fire;");
    emit(e, "// The clearing sweep writes set_new too: out of reset the forwarding");
    emit(e, "// register holds the empty set word and is selected, and stage 2 holds");
    emit(e, "// a no-op, so set_new is that word (no init mux on the write data).");
    emit(e, "assign mem_wdata = set_new;");
    prim_set_store(e, x->g.set_bits, x->g.sets, x->index_width, "init_q", "init_idx_q", note);
    emit_nl(e);
}

static void emit_stage1(emit_file *e, const gctx *x)
{
    unsigned w;

    emit(e, "// Stage 1: tag compare against the set as read (or as last written).");
    if (x->g.sets > 1)
        prim_decl(e, x->index_width, "s1_idx");
    prim_decl(e, x->g.tag_bits, "s1_tag");
    prim_decl(e, x->g.set_bits, "set_cur1");
    prim_declv(e, x->c->ways, "way_hit1");
    prim_decl(e, 1, "s1_teq, s1_same");
    addr_fields(e, x, "s1", 0);
    emit(e, "assign set_cur1 = fwd_hit_q ? fwd_data_q : rdata_q;");
    for (w = 0; w < x->c->ways; w++) {
        char mf[128], mr[128];
        tag_match(x, w, "fwd_data_q", mf, sizeof mf);
        tag_match(x, w, "rdata_q", mr, sizeof mr);
        /* both candidates compared in parallel, the forwarding select comes
         * last (timing: the compare does not wait for the set mux) */
        emit(e, "assign way_hit1[%u] = fwd_hit_q ?", w);
        emit(e, "    %s :", mf);
        emit(e, "    %s;", mr);
    }
    emit(e, "// The request ahead (stage 2) may update this set in the cycle this one");
    emit(e, "// moves on: stage 2 then takes the forwarded word and corrects the hit");
    emit(e, "// vector with the ways that update changed (s2_fix_q).");
    emit(e, "assign s1_teq = s1_tag == s2_tag;");
    if (x->g.sets > 1)
        emit(e, "assign s1_same = s1_idx == s2_idx;");
    else
        emit(e, "assign s1_same = 1'b1;");
    emit_nl(e);
}

static void emit_stage2(emit_file *e, const gctx *x)
{
    unsigned w;

    emit(e, "// Stage 2: update and write back; forward the last write.");
    if (x->g.sets > 1)
        prim_decl(e, x->index_width, "s2_idx");
    prim_decl(e, x->g.base_bits, "s2_base");
    prim_decl(e, x->g.tag_bits, "s2_tag");
    addr_fields(e, x, "s2", 1);
    emit(e, "assign set_cur = s2_fix_q ? fwd_data_q : s2_data_q;");
    emit_nl(e);

    prim_declv(e, x->c->ways, "way_valid, way_hit, way_old, first_inv, vsel");
    if (x->g.rank_bits)
        prim_declv(e, x->c->ways, "tsel");
    prim_declv(e, x->c->ways * x->g.tag_bits, "way_tag");
    prim_declv(e, x->c->ways * x->g.vec_bits, "way_vec");
    if (x->g.rank_bits)
        prim_declv(e, x->c->ways * x->g.rank_bits, "way_rank");
    emit(e, "assign way_vec = set_cur[%u:0];", x->c->ways * x->g.vec_bits - 1);
    emit(e, "assign way_tag = set_cur[%u:%u];", tag_lo(x, x->c->ways) - 1, tag_lo(x, 0));
    emit(e, "assign way_valid = set_cur[%u:%u];", valid_bit(x, x->c->ways) - 1, valid_bit(x, 0));
    for (w = 0; w < x->c->ways; w++) {
        if (x->g.rank_bits) {
            unsigned ra = x->c->ways * x->g.entry_bits + w * x->g.rank_bits;
            emit(e, "assign way_rank[%u:%u] = set_cur[%u:%u];", (w + 1) * x->g.rank_bits - 1, w * x->g.rank_bits,
                 ra + x->g.rank_bits - 1, ra);
            emit(e, "assign way_old[%u] = way_rank[%u:%u] == %u'd%u;", w, (w + 1) * x->g.rank_bits - 1,
                 w * x->g.rank_bits, x->g.rank_bits, x->c->ways - 1);
        } else {
            emit(e, "assign way_old[%u] = 1'b1;", w);
        }
    }
    emit(e,
         "assign way_hit = s2_fix_q ? ((s2_hit_q & ~fwd_chg_q) | (fwd_alloc_q & {%u{s2_teq_q}})) : s2_hit_q;", x->c->ways);
    prim_decl(e, 1, "hit, all_valid");
    emit(e, "assign hit = |way_hit;");
}

static void emit_victim(emit_file *e, const gctx *x)
{
    emit(e, "assign all_valid = &way_valid;");
    emit(e, "// Invalid ways first (lowest index), else the oldest rank.");
    emit(e, "assign first_inv = ~way_valid & (way_valid + %u'd1);", x->c->ways);
    emit(e, "assign vsel = all_valid ? way_old : first_inv;");
    if (x->g.rank_bits)
        emit(e, "assign tsel = hit ? way_hit : vsel;");
    prim_declv(e, x->g.vec_bits, "vvec");
    prim_declv(e, x->g.tag_bits, "vtag");
    if (x->g.rank_bits)
        prim_declv(e, x->g.rank_bits, "trank");
    emit_begin(e, "always_comb begin");
    emit(e, "vvec = '0;");
    emit(e, "vtag = '0;");
    if (x->g.rank_bits)
        emit(e, "trank = '0;");
    emit(e, "for (int i = 0; i < %u; i++) begin", x->c->ways);
    emit(e, "  if (vsel[i]) vvec = vvec | way_vec[i*%u +: %u];", x->g.vec_bits, x->g.vec_bits);
    emit(e, "  if (vsel[i]) vtag = vtag | way_tag[i*%u +: %u];", x->g.tag_bits, x->g.tag_bits);
    if (x->g.rank_bits)
        emit(e, "  if (tsel[i]) trank = trank | way_rank[i*%u +: %u];", x->g.rank_bits, x->g.rank_bits);
    emit(e, "end");
    emit_end(e, "end");
    emit_nl(e);
}

static void emit_slot(emit_file *e, const gctx *x)
{
    unsigned s;

    emit(e, "// Offset slot of the request.");
    prim_declv(e, x->g.slots, "slot_sel");
    if (x->g.slot_bits) {
        prim_declv(e, x->g.slot_bits, "s2_slot");
        emit(e, "assign s2_slot = s2_addr_q[%u:%u];", x->g.lps_bits + x->g.slot_bits - 1,
             x->g.lps_bits);
        for (s = 0; s < x->g.slots; s++)
            emit(e, "assign slot_sel[%u] = s2_slot == %u'd%u;", s, x->g.slot_bits, s);
    } else {
        emit(e, "assign slot_sel = 1'b1;");
    }
    emit_nl(e);
}

static void emit_sharer(emit_file *e, const gctx *x)
{
    unsigned j;

    emit(e, "// Requesting GPU as a sharer bit (the home GPU has none). The home strap");
    emit(e, "// is sampled into home_q every cycle: no logic depends on an input pin.");
    prim_decl(e, 1, "src_ok");
    prim_declv(e, x->g.gpu_bits, "src_idx");
    prim_declv(e, x->g.sharer_bits, "src_oh, below");
    if (x->c->gpus != (1u << x->g.gpu_bits))
        emit(e, "assign src_ok = (s2_src_q != home_q) && (s2_src_q < %u'd%u);", x->g.gpu_bits,
             x->c->gpus);
    else
        emit(e, "assign src_ok = s2_src_q != home_q;");
    emit(e, "assign src_idx = (s2_src_q > home_q) ? s2_src_q - %u'd1 : s2_src_q;", x->g.gpu_bits);
    for (j = 0; j < x->g.sharer_bits; j++) {
        emit(e, "assign src_oh[%u] = src_ok & (src_idx == %u'd%u);", j, x->g.gpu_bits, j);
        emit(e, "assign below[%u] = %u'd%u < home_q;", j, x->g.gpu_bits, j);
    }
    emit_nl(e);
}

static void emit_decide(emit_file *e, const gctx *x)
{
    emit(e, "// Protocol decisions (section 4.2).");
    prim_decl(e, 1, "op_rr, op_lw, op_rw, remote, alloc, evict");
    if (x->g.rank_bits)
        prim_decl(e, 1, "promote");
    emit(e, "assign op_rr = s2_op_q == 2'd0;");
    emit(e, "assign op_lw = s2_op_q == 2'd1;");
    emit(e, "assign op_rw = s2_op_q == 2'd2;");
    emit(e, "assign remote = (op_rr | op_rw) & src_ok;");
    emit(e, "assign alloc = remote & ~hit;");
    emit(e, "assign evict = alloc & all_valid;");
    if (x->g.rank_bits && x->lru)
        emit(e, "assign promote = alloc | (remote & hit);");
    else if (x->g.rank_bits)
        emit(e, "assign promote = alloc;");
    emit_nl(e);
}

static void emit_way_update(emit_file *e, const gctx *x)
{
    unsigned w, s;
    char r[24], iw[48];

    emit(e, "// Each way's updated entry, computed in parallel with the tag compare as");
    emit(e, "// if that way hit; the compare then only selects (timing: no");
    emit(e, "// hit-dependent logic before the update). Written as whole-vector masks");
    emit(e, "// (slot_mask: the request's slot, all its bits) rather than per-slot");
    emit(e, "// muxes: the same gates, far fewer operations for a simulator.");
    prim_declv(e, x->g.vec_bits, "slot_mask, vec_alloc");
    for (s = 0; s < x->g.slots; s++) {
        emit(e, "assign slot_mask[%u:%u] = {%u{slot_sel[%u]}};", (s + 1) * x->g.slot_width - 1, s * x->g.slot_width,
             x->g.slot_width, s);
        emit(e, "assign vec_alloc[%u:%u] = slot_sel[%u] ? {src_oh%s} : %u'd0;", (s + 1) * x->g.slot_width - 1,
             s * x->g.slot_width, s, x->g.has_pos ? ", 1'b1" : "", x->g.slot_width);
    }
    prim_declv(e, x->c->ways * x->g.sharer_bits, "w_sh, w_inv_sh");
    prim_declv(e, x->c->ways, "w_present, w_rw_own, w_lw_inv, w_valid_new, w_upd");
    if (x->g.has_pos)
        prim_declv(e, x->c->ways, "w_pos");
    prim_declv(e, x->c->ways * x->g.vec_bits, "w_vec_new, w_m");
    /* The request's slot of each way, OR-folded down to one slot (halving
     * the field count per level): its sharers and position bit. */
    emit(e, "assign w_m = way_vec & {%u{slot_mask}};", x->c->ways);
    {
        unsigned n = x->g.slots, lvl = 0;
        char src[16] = "w_m";
        while (n > 1) {
            unsigned h = (n + 1) / 2, pad = h - n / 2;
            char dst[16];
            snprintf(dst, sizeof dst, "w_f%u", ++lvl);
            prim_declv(e, x->c->ways * h * x->g.slot_width, dst);
            for (w = 0; w < x->c->ways; w++) {
                unsigned lo = w * n * x->g.slot_width, nlo = w * h * x->g.slot_width;
                char hi_part[64];
                if (pad)
                    snprintf(hi_part, sizeof hi_part, "{%u'd0, %s[%u:%u]}", pad * x->g.slot_width, src,
                             lo + n * x->g.slot_width - 1, lo + h * x->g.slot_width);
                else
                    snprintf(hi_part, sizeof hi_part, "%s[%u:%u]", src, lo + n * x->g.slot_width - 1,
                             lo + h * x->g.slot_width);
                emit(e, "assign %s[%u:%u] = %s[%u:%u] | %s;", dst, nlo + h * x->g.slot_width - 1, nlo, src,
                     lo + h * x->g.slot_width - 1, lo, hi_part);
            }
            snprintf(src, sizeof src, "%s", dst);
            n = h;
        }
        for (w = 0; w < x->c->ways; w++) {
            emit(e, "assign w_sh[%u:%u] = %s[%u:%u];", (w + 1) * x->g.sharer_bits - 1, w * x->g.sharer_bits, src,
                 w * x->g.slot_width + x->g.has_pos + x->g.sharer_bits - 1, w * x->g.slot_width + x->g.has_pos);
            if (x->g.has_pos)
                emit(e, "assign w_pos[%u] = %s[%u];", w, src, w * x->g.slot_width);
        }
    }
    if (x->g.has_pos) {
        /* the position bits of the other slots */
        prim_declv(e, x->g.vec_bits, "pos_other");
        emit(e, "assign pos_other = {%u{%u'd1}} & ~slot_mask;", x->g.slots, x->g.slot_width);
    }
    for (w = 0; w < x->c->ways; w++) {
        char sh[40], vw[40];
        snprintf(sh, sizeof sh, "w_sh[%u:%u]", (w + 1) * x->g.sharer_bits - 1, w * x->g.sharer_bits);
        snprintf(vw, sizeof vw, "way_vec[%u:%u]", (w + 1) * x->g.vec_bits - 1, w * x->g.vec_bits);
        emit(e, "assign w_present[%u] = %s;", w,
             x->g.has_pos ? (snprintf(iw, sizeof iw, "w_pos[%u]", w), iw) : "1'b1");
        emit(e, "assign w_rw_own[%u] = op_rw & remote & w_present[%u];", w, w);
        emit(e, "assign w_lw_inv[%u] = op_lw & w_present[%u];", w, w);
        emit(e, "assign w_upd[%u] = remote | w_lw_inv[%u];", w, w);
        /* the selected slot's new value from its own current bits (no
         * slot-select mux on the data path; timing): cleared when the write
         * invalidates or takes ownership, then the requester (and the
         * position bit) set unless the line is invalidated */
        emit(e, "assign w_vec_new[%u:%u] = (%s & ~(slot_mask & {%u{w_lw_inv[%u] | %s}})) |",
             (w + 1) * x->g.vec_bits - 1, w * x->g.vec_bits, vw, x->g.vec_bits, w,
             (snprintf(r, sizeof r, "w_rw_own[%u]", w), r));
        emit(e, "    (vec_alloc & {%u{~w_lw_inv[%u]}});", x->g.vec_bits, w);
        if (x->g.has_pos)
            /* the entry stays valid while another offset is tracked: its
             * position bits, not the rebuilt vector (timing) */
            emit(e, "assign w_valid_new[%u] = ~w_lw_inv[%u] | (|(%s & pos_other));", w, w, vw);
        else
            emit(e, "assign w_valid_new[%u] = ~w_lw_inv[%u];", w, w);
        emit(e, "assign w_inv_sh[%u:%u] = w_rw_own[%u] ? (%s & ~src_oh) : (w_lw_inv[%u] ? %s : %u'd0);",
             (w + 1) * x->g.sharer_bits - 1, w * x->g.sharer_bits, w, sh, w, sh, x->g.sharer_bits);
    }
    /* a way updated in place (hit), else allocated, else kept */
    prim_declv(e, x->c->ways, "w_take, w_alloc");
    emit(e, "assign w_take = way_hit & w_upd;");
    emit(e, "assign w_alloc = {%u{alloc}} & vsel;", x->c->ways);
    for (w = 0; w < x->c->ways; w++) {
        emit(e, "assign set_new[%u:%u] = w_take[%u] ? w_vec_new[%u:%u] :", (w + 1) * x->g.vec_bits - 1,
             w * x->g.vec_bits, w, (w + 1) * x->g.vec_bits - 1, w * x->g.vec_bits);
        emit(e, "    w_alloc[%u] ? vec_alloc : way_vec[%u:%u];", w, (w + 1) * x->g.vec_bits - 1,
             w * x->g.vec_bits);
    }
    for (w = 0; w < x->c->ways; w++)
        emit(e, "assign set_new[%u:%u] = w_alloc[%u] & ~w_take[%u] ? s2_tag : way_tag[%u:%u];",
             tag_lo(x, w) + x->g.tag_bits - 1, tag_lo(x,
                    w), w, w, (w + 1) * x->g.tag_bits - 1, w * x->g.tag_bits);
    for (w = 0; w < x->c->ways; w++)
        emit(e, "assign set_new[%u] = w_take[%u] ? w_valid_new[%u] : w_alloc[%u] | way_valid[%u];",
             valid_bit(x, w), w, w, w, w);
    for (w = 0; x->g.rank_bits && w < x->c->ways; w++) {
        unsigned ra = x->c->ways * x->g.entry_bits + w * x->g.rank_bits;
        snprintf(iw, sizeof iw, "way_rank[%u:%u]", (w + 1) * x->g.rank_bits - 1, w * x->g.rank_bits);
        emit(e, "assign set_new[%u:%u] = ~promote ? %s : tsel[%u] ? %u'd0 :", ra + x->g.rank_bits - 1,
             ra, iw, w, x->g.rank_bits);
        emit(e, "    (%s < trank) ? %s + %u'd1 : %s;", iw, iw, x->g.rank_bits, iw);
    }
    emit_nl(e);
}

static void emit_job(emit_file *e, const gctx *x)
{
    unsigned s;

    emit(e, "// Invalidation job: the evicted entry, or one written offset.");
    prim_declv(e, x->g.sharer_bits, "inv_sh");
    prim_declv(e, x->g.slots * x->g.sharer_bits, "job_sh_new");
    prim_declv(e, x->g.lines, "pend_new");
    prim_declv(e, x->g.base_bits, "vbase");
    emit(e, "always_comb begin");
    emit(e, "  inv_sh = '0;");
    emit(e, "  for (int w = 0; w < %u; w++)", x->c->ways);
    emit(e, "    if (way_hit[w]) inv_sh = inv_sh | w_inv_sh[w*%u +: %u];", x->g.sharer_bits,
         x->g.sharer_bits);
    emit(e, "end");
    for (s = 0; s < x->g.slots; s++) {
        emit(e, "assign job_sh_new[%u:%u] = evict ? vvec[%u:%u] : (slot_sel[%u] ? inv_sh : %u'd0);",
             (s + 1) * x->g.sharer_bits - 1, s * x->g.sharer_bits, s * x->g.slot_width + x->g.has_pos + x->g.sharer_bits - 1, s * x->g.slot_width + x->g.has_pos, s,
             x->g.sharer_bits);
        emit(e, "assign pend_new[%u:%u] = {%u{|job_sh_new[%u:%u]}};", (s + 1) * x->g.lines_per_slot - 1, s * x->g.lines_per_slot,
             x->g.lines_per_slot, (s + 1) * x->g.sharer_bits - 1, s * x->g.sharer_bits);
    }
    if (x->packed && x->g.index_bits)
        emit(e, "assign vbase = {vtag, s2_idx};");
    else
        emit(e, "assign vbase = vtag;");
    emit_nl(e);
}

static void emit_inval_stream(emit_file *e, const gctx *x)
{
    unsigned s, b;

    emit(e, "// Invalidation stream: lowest pending line first.");
    prim_declv(e, x->g.lines, "job_oh");
    prim_declv(e, x->g.slots, "job_slot");
    prim_declv(e, x->g.sharer_bits, "job_sh_sel, sh_lo, sh_hi");
    emit(e, "assign job_oh = job_pend_q & (~job_pend_q + %u'd1);", x->g.lines);
    if (x->job_idx_bits) {
        prim_declv(e, x->job_idx_bits, "job_idx");
        for (b = 0; b < x->job_idx_bits; b++) {
            unsigned long long m = 0;
            unsigned i;
            for (i = 0; i < x->g.lines; i++)
                if ((i >> b) & 1)
                    m |= 1ull << i;
            emit(e, "assign job_idx[%u] = |(job_oh & %u'h%llx);", b, x->g.lines, m);
        }
    }
    for (s = 0; s < x->g.slots; s++)
        emit(e, "assign job_slot[%u] = |job_oh[%u:%u];", s, (s + 1) * x->g.lines_per_slot - 1,
             s * x->g.lines_per_slot);
    emit(e, "always_comb begin");
    emit(e, "  job_sh_sel = '0;");
    emit(e, "  for (int i = 0; i < %u; i++)", x->g.slots);
    emit(e, "    if (job_slot[i]) job_sh_sel = job_sh_sel | job_sh_q[i*%u +: %u];",
         x->g.sharer_bits, x->g.sharer_bits);
    emit(e, "end");
    emit(e, "assign sh_lo = job_sh_sel & below;");
    emit(e, "assign sh_hi = job_sh_sel & ~below;");
    emit(e, "assign inv_valid_o = job_busy;");
    emit(e, "assign inv_addr_o = job_busy ? %s : %u'd0;", x->job_idx_bits ? "{job_base_q, job_idx}" : "job_base_q",
         x->g.laddr_bits);
    emit(e, "assign inv_mask_o = job_busy ? ({sh_hi, 1'b0} | {1'b0, sh_lo}) : %u'd0;", x->c->gpus);
    emit_nl(e);
}

static void emit_next(emit_file *e, const gctx *x)
{
    static const prim_sfield s1[] = {{"s1_op", "req_op_i", 1}, {"s1_addr", "req_addr_i", 1},
                                     {"s1_src", "req_src_i", 1}, {NULL, NULL, 0}};
    static const prim_sfield s2[] = {
        {"s2_op", "s1_op_q", 1},       {"s2_addr", "s1_addr_q", 1},
        {"s2_src", "s1_src_q", 1},     {"s2_data", "set_cur1", 1},
        {"s2_hit", "way_hit1", 1},     {"s2_fix", "s2_fire & s1_same", 1},
        {"s2_teq", "s1_teq", 1},       {NULL, NULL, 0}};

    emit(e, "// Next state.");
    emit_begin(e, "always_comb begin");
    prim_hold(e, "init init_idx");
    emit(e, "if (init_q) begin");
    emit(e, "  if (init_idx_q == %u'd%u) begin", x->index_width, x->g.sets - 1);
    emit(e, "    init_d = 1'b0;");
    emit(e, "    init_idx_d = '0;");
    emit(e, "  end else begin");
    emit(e, "    init_idx_d = init_idx_q + %u'd1;", x->index_width);
    emit(e, "  end");
    emit(e, "end");
    prim_stage(e, "s1_valid", NULL, "s1_adv", "req_acc", s1);
    emit(e, "end");
    prim_stage(e, "s2_valid", NULL, "s2_fire", "s1_valid_q & s1_adv", s2);
    emit(e, "end");
    prim_hold(e, "fwd_valid%s fwd_data fwd_chg fwd_alloc", x->g.sets > 1 ? " fwd_idx" : "");
    emit(e, "if (s2_fire) begin");
    emit(e, "  fwd_valid_d = 1'b1;");
    if (x->g.sets > 1)
        emit(e, "  fwd_idx_d = s2_idx;");
    emit(e, "  fwd_data_d = set_new;");
    emit(e, "  // ways whose valid bit or tag this update changes");
    emit(e, "  fwd_alloc_d = alloc ? vsel : %u'd0;", x->c->ways);
    emit(e, "  fwd_chg_d = fwd_alloc_d | (way_hit & w_upd & ~w_valid_new);");
}

static void emit_regs(emit_file *e, const gctx *x)
{
    emit(e, "end");
    emit(e, "// The forwarding match is decided when a request is accepted, against");
    emit(e, "// the write-back of the same cycle: stage 1 starts from a register.");
    prim_hold(e, "fwd_hit");
    if (x->g.sets > 1)
        emit(e, "if (req_acc) fwd_hit_d = fwd_valid_d && (fwd_idx_d == req_idx);");
    else
        emit(e, "if (req_acc) fwd_hit_d = fwd_valid_d;");
    prim_hold(e, "job_pend job_base job_sh");
    emit(e, "if (inv_valid_o & inv_ready_i) job_pend_d = job_pend_q & ~job_oh;");
    emit(e, "if (s2_fire) begin");
    emit(e, "  job_pend_d = pend_new;");
    emit(e, "  job_base_d = evict ? vbase : s2_base;");
    emit(e, "  job_sh_d = job_sh_new;");
    emit(e, "end");
    emit_end(e, "end");
    emit_nl(e);
    prim_regs rl = {0};
    prim_regs_list(&rl, "init=1'b1 init_idx='0 s1_valid=1'b0 fwd_valid=1'b0 fwd_hit=1'b1");
    prim_reg(&rl, "fwd_data", "%s", x->initw);
    prim_regs_list(&rl, "s1_op=2'd3 s2_valid=1'b0 s2_op=2'd3 s2_fix=1'b1 s2_hit='0 fwd_chg='0 "
                        "fwd_alloc='0 job_pend='0");
    prim_regs_block(e, &rl);
    emit(e, "always_ff @(posedge clk_i) begin");
    emit(e, "  home_q <= home_i;");
    emit(e, "  s1_addr_q <= s1_addr_d;");
    emit(e, "  s1_src_q <= s1_src_d;");
    emit(e, "  s2_addr_q <= s2_addr_d;");
    emit(e, "  s2_src_q <= s2_src_d;");
    emit(e, "  s2_data_q <= s2_data_d;");
    emit(e, "  s2_teq_q <= s2_teq_d;");
    if (x->g.sets > 1)
        emit(e, "  fwd_idx_q <= fwd_idx_d;");
    emit(e, "  job_base_q <= job_base_d;");
    emit(e, "  job_sh_q <= job_sh_d;");
    emit(e, "end");
}

void rec_emit_verilog(emit_file *e, const rec_cfg *c, const block_desc *b)
{
    gctx x;
    GEN_CTX_INIT(x, c, rec_geom);
    x.index_width = x.g.index_bits ? x.g.index_bits : 1;
    x.job_idx_bits = prim_log2_floor(x.g.lines);
    x.packed = c->store == REC_STORE_PACKED;
    x.lru = c->repl == REC_REPL_LRU;
    init_word(&x, x.initw, sizeof x.initw);

    emit(e, "// REC coherence directory (Ko et al., sections 4.1-4.2; baselines 2.3, 5.2).");
    emit(e, "// Three-stage pipeline over a synchronous entry RAM; see docs/rec.md.");
    PRIM_MODULE(e, b, gctx, &x, emit_state, emit_stage0, emit_ram, emit_stage1, emit_stage2,
                emit_victim, emit_slot, emit_sharer, emit_decide, emit_way_update, emit_job,
                emit_inval_stream, emit_next, emit_regs, emit_formal);
}

void rec_report(FILE *f, const rec_cfg *c, int json)
{
    rec_geom g;
    rec_geom_of(c, &g);
    if (json) {
        fprintf(f,
                "{\"mode\":\"%s\",\"gpus\":%u,\"entries\":%u,\"ways\":%u,\"range\":%u,\"line\":%u,"
                "\"addr_bits\":%u,\"repl\":\"%s\",\"store\":\"%s\",\"group\":%u,"
                "\"sets\":%u,\"index_bits\":%u,\"slots\":%u,\"lines_per_slot\":%u,"
                "\"paper\":{\"base_bits\":%u,\"position_bits\":%u,\"sharer_bits\":%u,\"valid_bits\":1,"
                "\"entry_bits\":%u,\"total_bits\":%llu,\"total_kB\":%.2f},"
                "\"packed\":{\"tag_bits\":%u,\"entry_bits\":%u,\"total_bits\":%llu,\"total_kB\":%.2f},"
                "\"stored\":{\"tag_bits\":%u,\"entry_bits\":%u,\"total_bits\":%llu,"
                "\"rank_bits_per_way\":%u,\"repl_bits\":%llu,\"set_word_bits\":%u}}\n",
                rec_mode_str(c->mode), c->gpus, c->entries, c->ways, c->range, c->line,
                c->addr_bits, rec_repl_str(c->repl),
                c->store == REC_STORE_PACKED ? "packed" : "full", c->group, g.sets, g.index_bits,
                g.slots, g.lines_per_slot, g.paper_base_bits, g.has_pos ? g.slots : 0,
                g.slots * g.sharer_bits, g.paper_entry_bits,
                (unsigned long long)g.paper_total_bits, g.paper_total_bits / 8.0 / 1024.0,
                g.base_bits - g.index_bits, g.packed_entry_bits,
                (unsigned long long)g.packed_total_bits, g.packed_total_bits / 8.0 / 1024.0,
                g.tag_bits, g.entry_bits, (unsigned long long)g.stored_total_bits, g.rank_bits,
                (unsigned long long)g.repl_total_bits, g.set_bits);
        return;
    }
    fprintf(f, "REC directory: mode %s, %u GPUs, %u entries, %u ways, %u B range, %u B lines, "
               "%u-bit addresses, %s replacement\n",
            rec_mode_str(c->mode), c->gpus, c->entries, c->ways, g.range_bytes, c->line,
            c->addr_bits, rec_repl_str(c->repl));
    fprintf(f, "  sets %u, index bits %u, line slots per entry %u (lines per slot %u)\n", g.sets,
            g.index_bits, g.slots, g.lines_per_slot);
    fprintf(f, "  paper accounting (Table 1): base %u + position %u + sharer %u + valid 1 = %u bits"
               " per entry, %llu bits = %.2f kB\n",
            g.paper_base_bits, g.has_pos ? g.slots : 0, g.slots * g.sharer_bits,
            g.paper_entry_bits, (unsigned long long)g.paper_total_bits,
            g.paper_total_bits / 8.0 / 1024.0);
    fprintf(f, "  packed accounting (no set-index bits in the tag): tag %u + position %u + sharer "
               "%u + valid 1 = %u bits per entry, %llu bits = %.2f kB\n",
            g.base_bits - g.index_bits, g.has_pos ? g.slots : 0, g.slots * g.sharer_bits,
            g.packed_entry_bits, (unsigned long long)g.packed_total_bits,
            g.packed_total_bits / 8.0 / 1024.0);
    fprintf(f, "  RTL (store %s): %u-bit tag, %u bits per entry, %llu entry bits + %llu "
               "replacement bits (%u per way), %u-bit RAM word per set\n",
            c->store == REC_STORE_PACKED ? "packed" : "full", g.tag_bits, g.entry_bits,
            (unsigned long long)g.stored_total_bits, (unsigned long long)g.repl_total_bits,
            g.rank_bits, g.set_bits);
}

/* Registry glue: cfg is the unit's configuration (cmodel/rec/rec_unit.c), whose
 * first member is the rec_cfg. */
static void gen_emit(emit_file *e, const void *cfg, const block_desc *b)
{
    rec_emit_verilog(e, (const rec_cfg *)cfg, b);
}

static void gen_params(const void *cfg, char *buf, size_t len)
{
    block_desc b;
    char args[512];
    rec_block_desc((const rec_cfg *)cfg, "rec", &b, args, sizeof args, buf, len);
}

static void gen_report(FILE *f, const void *cfg, int json) { rec_report(f, (const rec_cfg *)cfg, json); }

/* FPGA self-test stimulus (gen/selftest.h) of cohgen rec --selftest, the
 * top of the REC FPGA flow (mk/rec.mk): the home GPU is a strap, not a
 * signal that may change while requests flow; everything else random. */
int rec_selftest(const void *cfg, st_rule *r, int max, char *err, size_t len)
{
    (void)cfg;
    if (max < 1)
        return snprintf(err, len, "rec: no self-test rules"), -1;
    r[0] = (st_rule){.port = "home_i", .kind = ST_CONST, .a = 1};
    return 1;
}

const gen_unit rec_gen_unit = {"rec", gen_emit, gen_params, gen_report, rec_selftest};
