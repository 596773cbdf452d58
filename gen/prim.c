/* Emit helpers shared by every unit's emitter (see prim.h). */
#include "prim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void prim_module_begin(emit_file *e, const block_desc *b)
{
    ports_file_header(e, b, "// ");
    emit(e, "`default_nettype none");
    emit_nl(e);
    ports_verilog_module(e, b);
    emit_in(e);
    emit_nl(e);
}

void prim_module_end(emit_file *e)
{
    emit_out(e);
    emit_nl(e);
    emit(e, "endmodule");
    emit(e, "`default_nettype wire");
}

unsigned prim_log2_floor(unsigned v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

unsigned prim_clog2(unsigned v)
{
    unsigned b = 0;
    while ((1u << b) < v)
        b++;
    return b;
}

const char *prim_range(char *buf, size_t len, unsigned w)
{
    if (w <= 1)
        buf[0] = '\0';
    else
        snprintf(buf, len, " [%u:0]", w - 1);
    return buf;
}

void prim_decl(emit_file *e, unsigned w, const char *names)
{
    char r[24];
    emit(e, "logic%s %s;", prim_range(r, sizeof r, w), names);
}

void prim_declv(emit_file *e, unsigned w, const char *names)
{
    emit(e, "logic [%u:0] %s;", w - 1, names);
}

const char *prim_field(char *buf, size_t len, unsigned i, unsigned stride, unsigned off,
                       unsigned w)
{
    unsigned lo = i * stride + off;
    if (w == 1)
        snprintf(buf, len, "[%u]", lo);
    else
        snprintf(buf, len, "[%u:%u]", lo + w - 1, lo);
    return buf;
}

void prim_and_or(emit_file *e, const char *dst, const char *sel, unsigned n, const char *vec,
                 unsigned stride, unsigned off, unsigned w)
{
    unsigned i;
    char s[48];
    emit(e, "assign %s =", dst);
    emit_in(e);
    for (i = 0; i < n; i++)
        emit(e, "({%u{%s[%u]}} & %s%s)%s", w, sel, i, vec, prim_field(s, sizeof s, i, stride, off, w),
             i + 1 < n ? " |" : ";");
    emit_out(e);
}

void prim_ram_decl(emit_file *e, const char *mem, unsigned w, unsigned depth)
{
    emit(e, "logic [%u:0] %s [0:%u];", w - 1, mem, depth - 1);
}

void prim_ram_ports(emit_file *e, const prim_ram *r)
{
    char wr[256], rd[256];
    if (r->waddr != NULL)
        snprintf(wr, sizeof wr, "  if (%s) %s[%s] <= %s;", r->we, r->mem, r->waddr, r->wdata);
    else
        snprintf(wr, sizeof wr, "  if (%s) %s <= %s;", r->we, r->mem, r->wdata);
    if (r->re == NULL)
        snprintf(rd, sizeof rd, "  %s <= %s[%s];", r->rdata, r->mem, r->raddr);
    else if (r->raddr != NULL)
        snprintf(rd, sizeof rd, "  if (%s) %s <= %s[%s];", r->re, r->rdata, r->mem, r->raddr);
    else
        snprintf(rd, sizeof rd, "  if (%s) %s <= %s;", r->re, r->rdata, r->mem);
    emit(e, "always_ff @(posedge clk_i) begin");
    emit(e, "%s", r->read_first ? rd : wr);
    emit(e, "%s", r->read_first ? wr : rd);
    emit(e, "end");
}

/* One line per name of a space-separated list: its hold line, or (outputs)
 * the assignment of its output port. */
static void names_lines(emit_file *e, const char *names, int outputs)
{
    names += strspn(names, " ");
    while (*names) {
        int n = (int)strcspn(names, " ");
        if (outputs)
            emit(e, "assign %.*s_o = %.*s_q;", n, names, n, names);
        else
            emit(e, "%.*s_d = %.*s_q;", n, names, n, names);
        names += n;
        names += strspn(names, " ");
    }
}

void prim_hold(emit_file *e, const char *fmt, ...)
{
    char names[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(names, sizeof names, fmt, ap);
    va_end(ap);
    names_lines(e, names, 0);
}

void prim_outputs(emit_file *e, const char *names) { names_lines(e, names, 1); }

void prim_stage(emit_file *e, const char *valid, const char *hold, const char *drain,
                const char *load, const prim_sfield *f)
{
    const prim_sfield *k;
    if (hold != NULL)
        emit(e, "%s_d = %s;", valid, hold);
    else
        emit(e, "%s_d = %s_q;", valid, valid);
    for (k = f; k->name != NULL; k++)
        if (k->on)
            emit(e, "%s_d = %s_q;", k->name, k->name);
    if (drain != NULL)
        emit(e, "if (%s) %s_d = 1'b0;", drain, valid);
    emit(e, "if (%s) begin", load);
    emit(e, "  %s_d = 1'b1;", valid);
    for (k = f; k->name != NULL; k++)
        if (k->on)
            emit(e, "  %s_d = %s;", k->name, k->load);
}

void prim_out_stage(emit_file *e, const char *in, const char *out, const prim_sfield *f)
{
    char valid[64], hold[128], fire[64];
    const prim_sfield *k;
    snprintf(valid, sizeof valid, "%s_valid", out);
    snprintf(hold, sizeof hold, "%s_valid_q & ~%s_ready_i", out, out);
    snprintf(fire, sizeof fire, "%s_fire", in);
    emit(e, "logic %s;", fire);
    emit(e, "assign %s_ready_o = ~%s_valid_q | %s_ready_i;", in, out, out);
    emit(e, "assign %s = %s_valid_i & %s_ready_o;", fire, in, in);
    emit_begin(e, "always_comb begin");
    prim_stage(e, valid, hold, NULL, fire, f);
    emit(e, "end");
    emit_end(e, "end");
    prim_outputs(e, valid);
    for (k = f; k->name != NULL; k++)
        if (k->on)
            prim_outputs(e, k->name);
}

void prim_set_store(emit_file *e, unsigned w, unsigned sets, unsigned iw, const char *clr,
                    const char *clr_idx, const char *const *note)
{
    if (sets == 1) {
        emit(e, "// One set (entries == ways): a register, not a RAM.");
        prim_decl(e, w, "mem_q");
        prim_ram_ports(e, &(prim_ram){"mem_q", "mem_we", NULL, "mem_wdata", "req_acc", "rdata_q",
                                      NULL, 0});
        return;
    }
    for (; *note != NULL; note++)
        emit(e, "%s", *note);
    emit(e, "(* no_rw_check *)");
    prim_ram_decl(e, "mem_q", w, sets);
    prim_decl(e, iw, "mem_waddr");
    emit(e, "assign mem_waddr = %s ? %s : s2_idx;", clr, clr_idx);
    prim_ram_ports(e, &(prim_ram){"mem_q", "mem_we", "mem_waddr", "mem_wdata", "req_acc", "rdata_q",
                                  "req_idx", 0});
}

void prim_formal_begin(emit_file *e, const char *fmt, ...)
{
    emit(e, "`ifdef FORMAL");
    if (fmt != NULL) {
        char note[2048];
        const char *l = note;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(note, sizeof note, fmt, ap);
        va_end(ap);
        for (;;) {
            int n = (int)strcspn(l, "\n");
            emit(e, "%.*s", n, l);
            if (l[n] == '\0')
                break;
            l += n + 1;
        }
    }
    emit(e, "logic f_past_q = 1'b0;");
}

void prim_formal_samples(emit_file *e, const char *const *s)
{
    if (*s == NULL) {
        emit(e, "always @(posedge clk_i) f_past_q <= 1'b1;");
        return;
    }
    emit(e, "always @(posedge clk_i) begin");
    emit(e, "  f_past_q <= 1'b1;");
    for (; *s != NULL; s++)
        emit(e, "  %s;", *s);
    emit(e, "end");
}

void prim_formal_assume(emit_file *e, const char *note, int after)
{
    emit(e, "always @(*) begin");
    if (note != NULL && !after)
        emit(e, "  // %s", note);
    emit(e, "  assume(rst_ni == f_past_q);%s%s", note != NULL && after ? " // " : "",
         note != NULL && after ? note : "");
}

static const char *regs_keep(prim_regs *l, const char *fmt, va_list ap)
{
    char *dst = l->pool + l->used;
    int n = vsnprintf(dst, sizeof l->pool - l->used, fmt, ap);
    if (n < 0 || (size_t)n >= sizeof l->pool - l->used) {
        fprintf(stderr, "cohgen: internal error: register list too long\n");
        abort();
    }
    l->used += (size_t)n + 1;
    return dst;
}

static const char *regs_keepf(prim_regs *l, const char *fmt, ...)
{
    va_list ap;
    const char *s;
    va_start(ap, fmt);
    s = regs_keep(l, fmt, ap);
    va_end(ap);
    return s;
}

void prim_reg(prim_regs *l, const char *name, const char *fmt, ...)
{
    va_list ap;
    if (l->n >= PRIM_REGS_MAX) {
        fprintf(stderr, "cohgen: internal error: more than %d registers\n", PRIM_REGS_MAX);
        abort();
    }
    l->name[l->n] = regs_keepf(l, "%s", name);
    va_start(ap, fmt);
    l->reset[l->n] = regs_keep(l, fmt, ap);
    va_end(ap);
    l->n++;
}

void prim_regs_list(prim_regs *l, const char *spec)
{
    while (*spec) {
        size_t n = strcspn(spec, " "), k = strcspn(spec, "=");
        if (k < n)
            prim_reg(l, regs_keepf(l, "%.*s", (int)k, spec), "%.*s", (int)(n - k - 1), spec + k + 1);
        spec += n;
        spec += strspn(spec, " ");
    }
}

void prim_regs_open_rst(emit_file *e, const char *rst)
{
    emit(e, "always_ff @(posedge clk_i or negedge %s) begin", rst);
    emit(e, "  if (!%s) begin", rst);
}

void prim_regs_open(emit_file *e) { prim_regs_open_rst(e, "rst_ni"); }

/* Register i's line of the reset branch (update = 0) or of the other. */
static void regs_lines(emit_file *e, const prim_regs *l, int update)
{
    unsigned i;
    for (i = 0; i < l->n; i++)
        emit(e, update ? "    %s_q <= %s_d;" : "    %s_q <= %s;", l->name[i],
             update ? l->name[i] : l->reset[i]);
}

void prim_regs_resets(emit_file *e, const prim_regs *l)
{
    regs_lines(e, l, 0);
}

void prim_regs_else(emit_file *e)
{
    emit(e, "  end else begin");
}

void prim_regs_updates(emit_file *e, const prim_regs *l)
{
    regs_lines(e, l, 1);
}

void prim_regs_close(emit_file *e)
{
    emit(e, "  end");
    emit(e, "end");
}

void prim_regs_block(emit_file *e, const prim_regs *l)
{
    prim_regs_open(e);
    prim_regs_resets(e, l);
    prim_regs_else(e);
    prim_regs_updates(e, l);
    prim_regs_close(e);
}

void prim_regs_holds(emit_file *e, const prim_regs *l)
{
    unsigned i;
    for (i = 0; i < l->n; i++)
        emit(e, "%s_d = %s_q;", l->name[i], l->name[i]);
}
