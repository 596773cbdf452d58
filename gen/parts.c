#include "parts.h"

#include <stdio.h>
#include <string.h>

extern const gen_part dualopt_codec_parts[];
extern const gen_part stc_cu_parts[];

static const gen_parts composites[] = {
    {"dualopt-codec", dualopt_codec_parts},
    {"stc-cu", stc_cu_parts},
};

const gen_part *parts_of(const char *unit)
{
    size_t i;
    for (i = 0; i < sizeof composites / sizeof composites[0]; i++)
        if (strcmp(composites[i].unit, unit) == 0)
            return composites[i].parts;
    return NULL;
}

int part_block(block_desc *p, char *name, size_t len, const block_desc *parent,
               const gen_part *part, const void *cfg)
{
    const cohkit_unit_desc *u = part->unit ? cohkit_unit_find(part->unit) : NULL;
    if ((part->unit && u == NULL) ||
        (size_t)snprintf(name, len, "%s_%s", parent->module, part->suffix) >= len)
        return -1;
    *p = *parent;
    p->module = name;
    p->n = u ? u->ports(cfg, p->ports, PORTS_MAX) : part->ports(cfg, p->ports, PORTS_MAX);
    return p->n > PORTS_MAX ? -1 : 0;
}

int parts_write(const char *unit, const void *cfg, const block_desc *parent, const char *dir,
                emit_file *f, int max, char *err, size_t len)
{
    const gen_part *pt = parts_of(unit);
    block_desc b;
    char name[192], fn[200];
    int n = 0;
    for (; pt && pt->suffix; pt++, n++) {
        if (n == max || part_block(&b, name, sizeof name, parent, pt, cfg) != 0) {
            emit_abort(f, n);
            snprintf(err, len, "%s: part '%s' cannot be described", unit, pt->suffix);
            return -1;
        }
        snprintf(fn, sizeof fn, "%s.sv", name);
        if (emit_open(&f[n], dir, fn) != 0) {
            emit_abort(f, n);
            snprintf(err, len, "-o: cannot write in '%s'", dir);
            return -1;
        }
        emit(&f[n], "// %s", pt->what);
        emit(&f[n], "// A part of %s (%s), instantiated by it and generated with it.",
             parent->module, unit);
        ports_file_header(&f[n], parent, "// ");
        emit(&f[n], "`default_nettype none");
        emit_nl(&f[n]);
        part_module(&f[n], &b, pt->body, cfg);
        emit(&f[n], "`default_nettype wire");
    }
    return n;
}

void part_module(emit_file *e, const block_desc *b, void (*body)(emit_file *, const void *),
                 const void *cfg)
{
    ports_verilog_module(e, b);
    emit_nl(e);
    emit_in(e);
    body(e, cfg);
    emit_out(e);
    emit_nl(e);
    emit(e, "endmodule");
}

void part_instance(emit_file *e, const block_desc *p, const char *inst,
                   const char *(*conn)(const char *port, char *buf, size_t len))
{
    char buf[128];
    int i;
    emit_begin(e, "%s %s (", p->module, inst);
    emit(e, ".clk_i(clk_i),");
    emit(e, ".rst_ni(rst_ni)%s", p->n ? "," : "");
    for (i = 0; i < p->n; i++) {
        const char *s = p->ports[i].name;
        emit(e, ".%s(%s)%s", s, conn ? conn(s, buf, sizeof buf) : s, i + 1 < p->n ? "," : "");
    }
    emit_end(e, ");");
}
