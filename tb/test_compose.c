/*
 * Criterion tests of the composition service (cmodel/compose.h,
 * tb/compose_rtl.h): port lookup and its errors, wide port fields, the
 * FIFO, the side-by-side lockstep of two compositions (equal with every
 * block Verilated; a stuck output bit on a named port caught at its first
 * effect, with the stimulus and the waveforms of the failing window),
 * substitution of one unit, the unit pair with a forced output.
 *
 * The test system is blocks of registered units, each driven by its unit's
 * own random stimulus (cohkit_unit_desc stim_*), without wires between them: the
 * service is exercised without any family's wiring.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compose_rtl.h"
#include "lockstep.h"
#include "test_util.h"

extern const dut_ops *const stc_duts[];

/* ------------------------------------------------- the test system -- */

#define TS_MAX 4

typedef struct {
    unsigned n;
    const char *unit[TS_MAX], *preset[TS_MAX];
    uint64_t cycles;
} ts_arg;

typedef struct {
    cmp_sys cs;
    void *stim[TS_MAX];
    uint64_t cyc, ncyc;
} ts_sys;

static void ts_free(void *p)
{
    ts_sys *s = p;
    unsigned i;
    for (i = 0; i < s->cs.n && i < TS_MAX; i++)
        if (s->stim[i])
            s->cs.b[i]->u->stim_free(s->stim[i]);
    cmp_sys_free(&s->cs);
    free(s);
}

static void *ts_make(void *arg, const cmp_backend *be, char *err, size_t len)
{
    static const char *const flags[COHKIT_UNIT_FLAGS_MAX];
    const ts_arg *a = arg;
    ts_sys *s = calloc(1, sizeof *s);
    unsigned i;
    cr_assert_not_null(s);
    s->ncyc = a->cycles;
    cmp_sys_init(&s->cs, be);
    for (i = 0; i < a->n; i++) {
        char name[16];
        cmp_block *b;
        cohkit_unit_stim_args sa;
        snprintf(name, sizeof name, "b%u", i);
        b = cmp_sys_add(&s->cs, a->unit[i], name, a->preset[i], NULL, i + 1, err, len);
        if (b == NULL) {
            ts_free(s);
            return NULL;
        }
        memset(&sa, 0, sizeof sa);
        sa.seed = 7 + i;
        sa.stream = b->u->streams[0];
        sa.flags = flags;
        s->stim[i] = b->u->stim_new(b->cfg, &sa, err, len);
        cr_assert_not_null(s->stim[i], "%s", err);
    }
    return s;
}

static int ts_cycle(void *p)
{
    ts_sys *s = p;
    unsigned i;
    for (i = 0; i < s->cs.n; i++) {
        cmp_block *b = s->cs.b[i];
        b->in[0] = s->cyc >= LS_RESET_CYCLES;
        b->u->stim_drive(s->stim[i], s->cyc, b->in);
    }
    cmp_sys_eval(&s->cs);
    for (i = 0; i < s->cs.n; i++)
        if (s->cs.b[i]->in[0] & 1)
            s->cs.b[i]->u->stim_observe(s->stim[i], s->cyc, s->cs.b[i]->in, s->cs.b[i]->out);
    cmp_sys_step(&s->cs);
    return ++s->cyc >= s->ncyc;
}

static int ts_stuck(void *p)
{
    (void)p;
    return 0;
}
static const cmp_sys *ts_blocks(const void *p) { return &((const ts_sys *)p)->cs; }
static int ts_in_reset(const void *p) { return ((const ts_sys *)p)->cyc <= LS_RESET_CYCLES; }
static const cmp_family ts_family = {ts_make, ts_cycle, ts_stuck, ts_blocks, ts_in_reset, ts_free};

/* Two units of the STC table, each at its fpga configuration. */
static void two_units(ts_arg *a, uint64_t cycles)
{
    memset(a, 0, sizeof *a);
    a->n = 2;
    a->unit[0] = "stc-band";
    a->unit[1] = "stc-bsq";
    a->preset[0] = a->preset[1] = "fpga";
    a->cycles = cycles;
}

/* ------------------------------------------------------------ ports -- */

Test(compose_ports, lookup_by_name_and_its_errors)
{
    cmp_block b;
    cmp_port p, ps[3];
    char err[256];
    static const char *const bad[] = {"in_valid_i", "no_such_port_o", NULL};
    int k;
    cr_assert_eq(cmp_block_open(&b, "no-such-unit", "x", "default", NULL, 1, NULL, err,
                                sizeof err), -1);
    cr_assert(strstr(err, "no-such-unit") != NULL, "%s", err);
    cmp_block_close(&b);
    cr_assert_eq(cmp_block_open(&b, "stc-band", "x", "no-such-preset", NULL, 1, NULL, err,
                                sizeof err), -1);
    cr_assert(strstr(err, "no-such-preset") != NULL, "%s", err);
    cmp_block_close(&b);
    cr_assert_eq(cmp_block_open(&b, "stc-band", "band", "fpga", NULL, 1, NULL, err, sizeof err),
                 0, "%s", err);
    /* every port of the layout is found at its offset, with its direction */
    for (k = 0; k < b.l.n; k++) {
        cr_assert_eq(cmp_port_of(&b, b.l.p[k].name, &p, err, sizeof err), 0, "%s", err);
        cr_assert_eq(p.index, k);
        cr_assert_eq(p.dir, b.l.p[k].dir);
        cr_assert_eq(p.width, b.l.p[k].width);
        cr_assert_eq(p.off, b.off[k]);
    }
    cr_assert_eq(b.off[0] >= 1 || b.l.p[0].dir == COHKIT_PORT_OUT, 1, "word 0 of the inputs is rst_ni");
    cr_assert_eq(cmp_port_of(&b, "no_such_port_o", &p, err, sizeof err), -1);
    cr_assert(strstr(err, "stc-band has no port no_such_port_o") != NULL, "%s", err);
    err[0] = '\0';
    cr_assert_eq(cmp_ports_bind(&b, bad, ps, err, sizeof err), -1);
    cr_assert(strstr(err, "no_such_port_o") != NULL, "%s", err);
    /* a stuck bit needs an output and a bit inside it */
    cr_assert_eq(cmp_block_stuck(&b, "in_valid_i", 0, 1, 0, err, sizeof err), -1);
    cr_assert_eq(cmp_block_stuck(&b, "in_ready_o", 1, 1, 0, err, sizeof err), -1);
    cr_assert_eq(cmp_block_stuck(&b, "in_ready_o", 0, 1, 0, err, sizeof err), 0, "%s", err);
    cmp_block_close(&b);
}

Test(compose_ports, typed_values_and_wide_fields)
{
    uint64_t w[3] = {0, 0, 0};
    cmp_block b;
    cmp_port p;
    char err[256];
    cmp_bits_put(w, 60, 8, 0xab); /* across the word boundary */
    cr_assert_eq(w[0], 0xbull << 60);
    cr_assert_eq(w[1], 0xa);
    cr_assert_eq(cmp_bits_get(w, 60, 8), 0xab);
    cmp_bits_put(w, 64, 64, ~0ull);
    cr_assert_eq(w[1], ~0ull);
    cr_assert_eq(w[2], 0);
    cmp_bits_put(w, 62, 4, 0);
    cr_assert_eq(cmp_bits_get(w, 60, 8), 0xc3);
    cr_assert_eq(cmp_block_open(&b, "stc-band", "band", "fpga", NULL, 1, NULL, err, sizeof err),
                 0, "%s", err);
    cr_assert_eq(cmp_port_of(&b, "in_valid_i", &p, err, sizeof err), 0, "%s", err);
    cmp_set(&b, p, 3); /* masked to the port's one bit */
    cr_assert_eq(cmp_get(&b, p), 1);
    cr_assert_eq(cmp_in(&b, p)[0], 1);
    cmp_block_close(&b);
}

/* ------------------------------------------------------------- FIFO -- */

Test(compose_fifo, order_growth_wrap_and_removal)
{
    cmp_fifo f;
    unsigned i, v, next = 0, head = 0;
    cmp_fifo_init(&f, sizeof(unsigned));
    for (i = 0; i < 1000; i++) { /* two in, one out: wraps and grows */
        v = next++;
        cr_assert_eq(cmp_fifo_push(&f, &v), 0);
        v = next++;
        cr_assert_eq(cmp_fifo_push(&f, &v), 0);
        cr_assert_eq(*(unsigned *)cmp_fifo_at(&f, 0), head);
        cmp_fifo_pop(&f);
        head++;
    }
    cr_assert_eq(f.n, 1000);
    for (i = 0; i < f.n; i++)
        cr_assert_eq(*(unsigned *)cmp_fifo_at(&f, i), head + i);
    cmp_fifo_remove(&f, 10);
    cr_assert_eq(f.n, 999);
    cr_assert_eq(*(unsigned *)cmp_fifo_at(&f, 9), head + 9);
    cr_assert_eq(*(unsigned *)cmp_fifo_at(&f, 10), head + 11);
    cr_assert_eq(*(unsigned *)cmp_fifo_at(&f, 998), head + 999);
    cmp_fifo_free(&f);
}

/* --------------------------------------------------------- lockstep -- */

Test(compose_lockstep, every_block_verilated_equals_the_shells, .timeout = 60)
{
    ts_arg a;
    cmp_lockstep_opts lo;
    cmp_lockstep_res r;
    two_units(&a, 3000);
    cmp_lockstep_defaults(&lo);
    lo.rtl.duts = stc_duts;
    cr_assert_eq(cmp_lockstep(&ts_family, &a, &lo, &r), 0, "%s", r.msg);
    cr_assert(r.done && !r.mismatch, "%s", r.msg);
    cr_assert_eq(r.cycles, 3000);
    cr_assert_not_null(cmp_rtl_dut(ts_blocks(r.sub)->b[0]));
    cr_assert_not_null(cmp_rtl_dut(ts_blocks(r.sub)->b[1]));
    cr_assert_null(cmp_rtl_dut(ts_blocks(r.ref)->b[0]));
    cmp_lockstep_free(&ts_family, &r);
}

Test(compose_lockstep, one_unit_substituted, .timeout = 60)
{
    ts_arg a;
    cmp_lockstep_opts lo;
    cmp_lockstep_res r;
    two_units(&a, 2000);
    cmp_lockstep_defaults(&lo);
    cmp_rtl_init(&lo.rtl, stc_duts, "stc-bsq");
    cr_assert(cmp_rtl_substitutes(&lo.rtl, "stc-bsq"));
    cr_assert(!cmp_rtl_substitutes(&lo.rtl, "stc-band"));
    cr_assert_eq(cmp_lockstep(&ts_family, &a, &lo, &r), 0, "%s", r.msg);
    cr_assert(r.done && !r.mismatch, "%s", r.msg);
    cr_assert_null(cmp_rtl_dut(ts_blocks(r.sub)->b[0]), "stc-band must stay a timing shell");
    cr_assert_not_null(cmp_rtl_dut(ts_blocks(r.sub)->b[1]), "stc-bsq must be Verilated");
    cr_assert_str_eq(cmp_rtl_dut(ts_blocks(r.sub)->b[1])->module, "stc_bsq_fpga");
    cmp_lockstep_free(&ts_family, &r);
    /* no module in the table: a setup error naming the one wanted */
    {
        cmp_rtl rt;
        cmp_backend be;
        cmp_block b;
        char err[256];
        cmp_rtl_init(&rt, NULL, "all");
        be = cmp_rtl_backend(&rt);
        cr_assert_eq(cmp_block_open(&b, "stc-band", "b", "fpga", NULL, 1, &be, err, sizeof err),
                     -1);
        cr_assert(strstr(err, "no Verilated stc_band_fpga") != NULL, "%s", err);
        cmp_block_close(&b);
    }
}

/* The first cycle (out of reset) where output bit 0 of some port of block
 * `blk` of the shells' system is 0; its port in *port. */
static uint64_t first_zero(const ts_arg *a, unsigned blk, char *port, size_t len)
{
    char err[256];
    ts_sys *s = ts_make((void *)a, NULL, err, sizeof err);
    uint64_t c;
    cr_assert_not_null(s, "%s", err);
    for (c = 0; c < a->cycles; c++) {
        const cmp_block *b = s->cs.b[blk];
        int k;
        ts_cycle(s);
        if (c < LS_RESET_CYCLES)
            continue;
        for (k = 0; k < b->l.n; k++)
            if (b->l.p[k].dir == COHKIT_PORT_OUT && b->l.p[k].width == 1 && !(b->out[b->off[k]] & 1) &&
                c > LS_RESET_CYCLES + 20) {
                snprintf(port, len, "%s", b->l.p[k].name);
                ts_free(s);
                return c;
            }
    }
    ts_free(s);
    cr_assert_fail("no output bit of block %u is ever 0", blk);
    return 0;
}

Test(compose_lockstep, stuck_bit_on_a_named_port_is_caught_with_the_failing_window,
     .timeout = 60)
{
    ts_arg a;
    cmp_lockstep_opts lo;
    cmp_lockstep_res r;
    char port[64], want[200];
    uint64_t at;
    FILE *f;
    unsigned lines = 0;
    char line[4096];
    two_units(&a, 2000);
    at = first_zero(&a, 1, port, sizeof port);
    cmp_lockstep_defaults(&lo);
    lo.rtl.duts = stc_duts;
    lo.stuck.block = "b1";
    lo.stuck.port = port;
    lo.stuck.bit = 0;
    lo.stuck.value = 1;
    lo.stuck.from = LS_RESET_CYCLES + 21;
    lo.fail_prefix = "build/t_compose_fail";
    lo.window = 8;
    remove("build/t_compose_fail.stim");
    remove("build/t_compose_fail.b1.vcd");
    cr_assert_eq(cmp_lockstep(&ts_family, &a, &lo, &r), 0, "%s", r.msg);
    cr_assert(r.mismatch, "a stuck %s bit of b1 went unnoticed", port);
    cr_assert_eq(r.cycles, at);
    snprintf(want, sizeof want, "MISMATCH cycle %llu b1 port %s: reference 0x0, substituted 0x1",
             (unsigned long long)at, port);
    cr_assert(strstr(r.msg, want) != NULL, "%s\nwant: %s", r.msg, want);
    cmp_lockstep_free(&ts_family, &r);
    /* the stimulus of both blocks over the window, and b1's waveform */
    f = fopen("build/t_compose_fail.stim", "r");
    cr_assert_not_null(f, "no stimulus file");
    while (fgets(line, sizeof line, f))
        if (line[0] != '#')
            lines++;
    fclose(f);
    cr_assert_eq(lines, 2 * 8, "%u stimulus lines", lines);
    f = fopen("build/t_compose_fail.b1.vcd", "r");
    cr_assert_not_null(f, "no waveform of the failing window");
    fclose(f);
    /* a stuck bit from a cycle the run never reaches is no fault */
    lo.stuck.from = a.cycles + 1;
    lo.fail_prefix = NULL;
    cr_assert_eq(cmp_lockstep(&ts_family, &a, &lo, &r), 0, "%s", r.msg);
    cr_assert(r.done && !r.mismatch, "%s", r.msg);
    cmp_lockstep_free(&ts_family, &r);
}

/* -------------------------------------------------------------- pair -- */

Test(compose_pair, forced_output_caught_unless_comparison_is_off, .timeout = 30)
{
    const cohkit_unit_desc *u = cohkit_unit_find("stc-band");
    const dut_ops *d = ls_dut_find(stc_duts, u, "fpga");
    const dut_ops *tab[2] = {d, NULL};
    void *cfg = calloc(1, u->cfg_size);
    cmp_rtl rt;
    cmp_backend be;
    cmp_pair p;
    char err[256];
    const uint64_t *out;
    cmp_port rdy;
    uint64_t c;
    int rc = 0;
    cr_assert_not_null(d);
    cr_assert_eq(cohkit_unit_cfg_parse_str(u, cfg, "--config fpga", err, sizeof err), 0, "%s", err);
    cmp_rtl_init(&rt, tab, "all");
    be = cmp_rtl_backend(&rt);
    cr_assert_eq(cmp_pair_open(&p, "stc-band", cfg, "band0", "fpga", 1, &be, err, sizeof err), 0,
                 "%s", err);
    cr_assert_eq(cmp_port_of(&p.ref, "in_ready_o", &rdy, err, sizeof err), 0, "%s", err);
    cr_assert_eq(cmp_block_force(&p.sub, "in_ready_o", 1, 0, 5, err, sizeof err), 0, "%s", err);
    for (c = 0; c < 50 && rc == 0; c++) {
        p.ref.in[0] = c >= LS_RESET_CYCLES;
        rc = cmp_pair_cycle(&p, &out);
    }
    cr_assert_eq(rc, -1, "in_ready_o forced to 0 went unnoticed");
    cr_assert(strstr(p.err, "band0 port in_ready_o: model 0x1, RTL 0x0") != NULL, "%s", p.err);
    cmp_pair_close(&p);
    /* without the comparison the forced value is what the pair gives */
    cr_assert_eq(cmp_pair_open(&p, "stc-band", cfg, "band0", "fpga", 1, &be, err, sizeof err), 0,
                 "%s", err);
    cr_assert_eq(cmp_block_force(&p.sub, "in_ready_o", 1, 0, 0, err, sizeof err), 0, "%s", err);
    p.compare = 0;
    for (c = 0; c < 50; c++) {
        p.ref.in[0] = c >= LS_RESET_CYCLES;
        cr_assert_eq(cmp_pair_cycle(&p, &out), 0, "%s", p.err);
        cr_assert_eq(out[rdy.off] & 1, 0);
    }
    cmp_pair_close(&p);
    free(cfg);
}
