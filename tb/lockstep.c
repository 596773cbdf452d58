#include "lockstep.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void ls_defaults(ls_opts *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->cycles = 100000;
}

void ls_result_free(ls_result *r)
{
    free(r->summary);
    r->summary = NULL;
}

const dut_ops *ls_dut_find(const dut_ops *const *table, const cohkit_unit_desc *unit, const char *name)
{
    char mod[192];
    size_t i;
    for (i = 0; table[i] != NULL; i++) {
        if (unit != NULL && strcmp(table[i]->unit, unit->name) != 0)
            continue;
        snprintf(mod, sizeof mod, "%s_%s",
                 unit ? unit->module_prefix : table[i]->module, name);
        if (strcmp(table[i]->module, name) == 0 || (unit && strcmp(table[i]->module, mod) == 0))
            return table[i];
    }
    return NULL;
}

int ls_dut_cfg(const cohkit_unit_desc *unit, const dut_ops *d, void *cfg, char *err, size_t len)
{
    cohkit_unit_layout l;
    unsigned ki = 1, ko = 0;
    int i;
    if (strcmp(d->unit, unit->name) != 0) {
        snprintf(err, len, "%s is a module of unit %s, not %s", d->module, d->unit, unit->name);
        return -1;
    }
    if (cohkit_unit_cfg_parse_str(unit, cfg, d->args, err, len) != 0)
        return -1;
    if (cohkit_unit_layout_of(unit, cfg, &l, err, len) != 0)
        return -1;
    if (l.n_in != d->n_in || l.n_out != d->n_out || l.in_words != d->in_words ||
        l.out_words != d->out_words) {
        snprintf(err, len, "%s: the Verilated ports do not match the unit's port table", d->module);
        return -1;
    }
    for (i = 0; i < l.n; i++) {
        const char *dn = l.p[i].dir == COHKIT_PORT_IN ? d->in_names[ki] : d->out_names[ko];
        unsigned dw = l.p[i].dir == COHKIT_PORT_IN ? d->in_widths[ki++] : d->out_widths[ko++];
        if (strcmp(dn, l.p[i].name) != 0 || dw != l.p[i].width) {
            snprintf(err, len, "%s: port %s[%u] of the RTL is %s[%u] in the port table",
                     d->module, dn, dw, l.p[i].name, l.p[i].width);
            return -1;
        }
    }
    return 0;
}

/* Word offsets of every port of a DUT. */
typedef struct {
    unsigned in_off[COHKIT_UNIT_PORTS_MAX + 1], in_nw[COHKIT_UNIT_PORTS_MAX + 1];
    unsigned out_off[COHKIT_UNIT_PORTS_MAX], out_nw[COHKIT_UNIT_PORTS_MAX];
} offsets;

static void offsets_of(const dut_ops *d, offsets *o)
{
    unsigned k, w = 0;
    for (k = 0; k < d->n_in; k++) {
        o->in_off[k] = w;
        o->in_nw[k] = COHKIT_UNIT_WORDS(d->in_widths[k]);
        w += o->in_nw[k];
    }
    for (k = 0, w = 0; k < d->n_out; k++) {
        o->out_off[k] = w;
        o->out_nw[k] = COHKIT_UNIT_WORDS(d->out_widths[k]);
        w += o->out_nw[k];
    }
}

int ls_stim_read(FILE *f, const dut_ops *d, uint64_t **vals, size_t *cycles, char *err,
                 size_t len)
{
    char *buf = NULL;
    size_t bcap = 0, cap = 0, n = 0;
    unsigned lineno = 0, nw = d->in_words;
    uint64_t *v = NULL;
    offsets of;
    offsets_of(d, &of);
    while (getline(&buf, &bcap, f) > 0) {
        const char *p = buf;
        unsigned k;
        lineno++;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\0' || *p == '\r')
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 1024;
            uint64_t *nv = realloc(v, nc * nw * sizeof *nv);
            if (nv == NULL) {
                snprintf(err, len, "line %u: out of memory", lineno);
                goto bad;
            }
            v = nv;
            cap = nc;
        }
        for (k = 0; k < d->n_in; k++)
            if (cohkit_unit_hex_get(&p, v + n * nw + of.in_off[k], of.in_nw[k], d->in_widths[k]) != 0) {
                snprintf(err, len, "line %u: expected %u hex values (value %u, %s, is missing, "
                         "not hex or wider than %u bits)",
                         lineno, d->n_in, k + 1, d->in_names[k], d->in_widths[k]);
                goto bad;
            }
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (*p != '\0') {
            snprintf(err, len, "line %u: more than %u values", lineno, d->n_in);
            goto bad;
        }
        n++;
    }
    free(buf);
    /* a file of no cycle replays no cycle: *vals is never NULL, which
     * ls_run would take for no replay (a random run) */
    if (v == NULL && (v = malloc(sizeof *v)) == NULL) {
        snprintf(err, len, "line %u: out of memory", lineno);
        return -1;
    }
    *vals = v;
    *cycles = n;
    return 0;
bad:
    free(buf);
    free(v);
    return -1;
}

static void put_vals(FILE *f, const uint64_t *v, unsigned n, const unsigned *off,
                     const unsigned *nw)
{
    unsigned k;
    for (k = 0; k < n; k++) {
        if (k)
            fputc(' ', f);
        cohkit_unit_hex_put(f, v + off[k], nw[k]);
    }
    fputc('\n', f);
}

static int find_port(const char *const *names, unsigned n, const char *name)
{
    unsigned k;
    for (k = 0; k < n; k++)
        if (strcmp(names[k], name) == 0)
            return (int)k;
    return -1;
}

/* valid/ready channels by the port naming convention: X_valid_i with
 * X_ready_o (into the unit), X_valid_o with X_ready_i (out of it). */
typedef struct {
    int valid, ready;      /* port indices; ready -1: always ready     */
    int valid_in;          /* valid is an input port                   */
} chan;

static unsigned channels_of(const dut_ops *d, chan *c, ls_result *r)
{
    unsigned k, n = 0;
    char nm[96];
    for (k = 0; k < d->n_in + d->n_out && n < LS_CHAN_MAX; k++) {
        int in = k < d->n_in;
        const char *name = in ? d->in_names[k] : d->out_names[k - d->n_in];
        size_t l = strlen(name);
        if (l < 9 || l >= sizeof nm || strcmp(name + l - 8, in ? "_valid_i" : "_valid_o") != 0)
            continue;
        memcpy(nm, name, l - 8);
        snprintf(nm + l - 8, sizeof nm - (l - 8), in ? "_ready_o" : "_ready_i");
        c[n].valid_in = in;
        c[n].valid = in ? (int)k : (int)(k - d->n_in);
        c[n].ready = in ? find_port(d->out_names, d->n_out, nm) : find_port(d->in_names, d->n_in, nm);
        snprintf(r->chan_name[n], sizeof r->chan_name[n], "%.*s", (int)(l - 8), name);
        n++;
    }
    return n;
}

static int run_setup_fail(ls_result *r, const char *msg)
{
    snprintf(r->mm_msg, sizeof r->mm_msg, "%s", msg);
    r->error = 1;
    return -1;
}

/* The first differing output port of a cycle, as the run's message. */
static void report_mismatch(const ls_opts *o, const offsets *of, uint64_t cyc, const uint64_t *mo,
                            const uint64_t *ro, ls_result *r)
{
    const dut_ops *d = o->dut;
    unsigned k;
    for (k = 0; k < d->n_out; k++)
        if (memcmp(mo + of->out_off[k], ro + of->out_off[k], of->out_nw[k] * sizeof *mo)) {
            char *mb = NULL;
            size_t ml = 0;
            FILE *m = open_memstream(&mb, &ml);
            if (m) {
                fprintf(m, "MISMATCH cycle %llu port %s expected 0x", (unsigned long long)cyc,
                        d->out_names[k]);
                cohkit_unit_hex_put(m, mo + of->out_off[k], of->out_nw[k]);
                fprintf(m, " got 0x");
                cohkit_unit_hex_put(m, ro + of->out_off[k], of->out_nw[k]);
                fprintf(m, " (seed %llu)", (unsigned long long)o->seed);
                fclose(m);
                snprintf(r->mm_msg, sizeof r->mm_msg, "%s", mb);
                free(mb);
            }
            break;
        }
    r->mismatch = 1;
    r->mm_cycle = cyc;
}

/* The transfers of the cycle on every valid/ready channel. */
static void count_xfers(const dut_ops *d, const offsets *of, const chan *ch, const uint64_t *in,
                        const uint64_t *out, ls_result *r)
{
    unsigned k;
    for (k = 0; k < r->nchan; k++) {
        const uint64_t *vsrc = ch[k].valid_in ? in : out;
        const unsigned *voff = ch[k].valid_in ? of->in_off + 0 : of->out_off;
        /* a vector channel (one valid bit per lane, e.g. per CU)
         * counts every lane; a one-bit ready serves every lane */
        unsigned vw = ch[k].valid_in ? d->in_widths[ch[k].valid] : d->out_widths[ch[k].valid];
        uint64_t v = vsrc[voff[ch[k].valid]], rdy = ~(uint64_t)0;
        if (vw < 64)
            v &= ((uint64_t)1 << vw) - 1;
        if (ch[k].ready >= 0) {
            unsigned rw = ch[k].valid_in ? d->out_widths[ch[k].ready] : d->in_widths[ch[k].ready];
            rdy = ch[k].valid_in ? out[of->out_off[ch[k].ready]] : in[of->in_off[ch[k].ready]];
            rdy = rw == vw ? rdy : (rdy & 1) ? ~(uint64_t)0 : 0;
        }
        r->chan_xfers[k] += (uint64_t)__builtin_popcountll(v & rdy);
    }
}

/* Cycles to run: the replay's, the trace's bound or the random run's, cut
 * at stop_after; and the stimulus file's header line. */
static uint64_t run_limit(const ls_opts *o, void *st)
{
    const dut_ops *d = o->dut;
    uint64_t limit = o->replay ? o->nreplay : o->trace != NULL ? o->unit->stim_limit(st) : o->cycles;
    if (o->stop_after && o->stop_after + 1 < limit)
        limit = o->stop_after + 1;
    if (o->stim_out) {
        unsigned k;
        fprintf(o->stim_out, "# %s stimulus for %s (%s), one cycle per line:", d->unit, d->module,
                d->args);
        for (k = 0; k < d->n_in; k++)
            fprintf(o->stim_out, " %s", d->in_names[k]);
        fprintf(o->stim_out, "\n");
    }
    return limit;
}

/* Runs of more than LS_PROGRESS_MIN cycles print their progress on stderr
 * about once a second: cycles done of the total, elapsed time and the time
 * left at the rate so far; one updating line on a terminal, a plain line
 * each time otherwise (CI logs). Looked at every 65,536 cycles. */
#define LS_PROGRESS_MIN 10000000ull
typedef struct {
    struct timespec t0;
    double last;
    int tty, shown;
} progress;

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

int ls_progress_line(char *buf, size_t len, uint64_t cyc, uint64_t limit, double elapsed, int tty)
{
    return snprintf(buf, len, "%sprogress: %llu of %llu cycles (%.1f %%), %.0f s elapsed, about %.0f s left%s",
                    tty ? "\r" : "", (unsigned long long)cyc, (unsigned long long)limit,
                    limit ? 100.0 * (double)cyc / (double)limit : 0.0, elapsed,
                    cyc && cyc < limit ? elapsed * (double)(limit - cyc) / (double)cyc : 0.0,
                    tty ? "\033[K" : "\n");
}

static void progress_show(progress *p, uint64_t cyc, uint64_t limit)
{
    char line[200];
    double el = since(&p->t0);
    if (el - p->last < 1.0)
        return;
    p->last = el;
    p->shown = 1;
    ls_progress_line(line, sizeof line, cyc, limit, el, p->tty);
    fputs(line, stderr);
    fflush(stderr);
}

int ls_run(const ls_opts *o, ls_result *r, const char *lead)
{
    const dut_ops *d = o->dut;
    const cohkit_unit_desc *u = o->unit;
    cohkit_unit_stim_args sa;
    void *tm = NULL, *h = NULL, *st = NULL;
    uint64_t *in = NULL, *mo = NULL, *ro = NULL;
    uint64_t cyc = 0, limit;
    offsets of;
    chan ch[LS_CHAN_MAX];
    struct timespec t0, t1, c0, c1;
    int vcd_open = 0, rc = 0, drained = 0, trace_mode = o->trace != NULL;
    char err[512];
    size_t slen = 0;
    FILE *sf;
    progress pg = {.tty = isatty(2)};

    memset(r, 0, sizeof *r);
    if (d == NULL || u == NULL || o->cfg == NULL)
        return run_setup_fail(r, "no unit, configuration or DUT");
    offsets_of(d, &of);
    r->nchan = channels_of(d, ch, r);
    memset(&sa, 0, sizeof sa);
    sa.seed = o->seed;
    sa.stream = o->stream;
    sa.trace = o->trace;
    sa.trace_name = o->trace_name;
    sa.out = o->trace_out;
    sa.flags = o->flags;
    st = u->stim_new(o->cfg, &sa, err, sizeof err);
    if (st == NULL)
        return run_setup_fail(r, err);
    if (u->stim_note)
        u->stim_note(st, r->note, sizeof r->note);
    tm = u->tm_new(o->cfg);
    h = d->create((unsigned)o->seed);
    in = calloc(d->in_words, sizeof *in);
    mo = calloc(d->out_words + 1, sizeof *mo);
    ro = calloc(d->out_words + 1, sizeof *ro);
    if (tm == NULL || h == NULL || in == NULL || mo == NULL || ro == NULL) {
        rc = run_setup_fail(r, "out of memory");
        goto done;
    }
    limit = run_limit(o, st);

    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    pg.t0 = t0;
    for (cyc = 0; cyc < limit; cyc++) {
        const uint64_t *out;
        if (limit > LS_PROGRESS_MIN && (cyc & 0xffff) == 0 && cyc)
            progress_show(&pg, cyc, limit);
        if (o->vcd && !vcd_open && cyc >= o->vcd_from) {
            if (d->trace_open(h, o->vcd) != 0) {
                snprintf(r->mm_msg, sizeof r->mm_msg, "cannot write waveform %s", o->vcd);
                r->error = 1;
                rc = -1;
                break;
            }
            vcd_open = 1;
        }
        if (o->replay) {
            memcpy(in, o->replay + cyc * d->in_words, d->in_words * sizeof *in);
        } else {
            in[0] = cyc >= LS_RESET_CYCLES;
            u->stim_drive(st, cyc, in);
        }
        if (!o->rtl_only)
            u->tm_eval(tm, in, mo);
        d->eval(h, in, ro);
        if (o->stim_out)
            put_vals(o->stim_out, in, d->n_in, of.in_off, of.in_nw);
        out = o->rtl_only ? ro : mo;
        if (in[0] & 1) {
            if (o->log_out) {
                fprintf(o->log_out, "%llu ", (unsigned long long)cyc);
                put_vals(o->log_out, ro, d->n_out, of.out_off, of.out_nw);
            }
            if (!o->rtl_only && memcmp(mo, ro, d->out_words * sizeof *mo) != 0) {
                report_mismatch(o, &of, cyc, mo, ro, r);
                d->tick(h); /* the waveform shows the failing edge too */
                cyc++;
                break;
            }
            count_xfers(d, &of, ch, in, out, r);
            u->stim_observe(st, cyc, in, out);
        }
        if (!o->rtl_only)
            u->tm_step(tm, in);
        d->tick(h);
        if (trace_mode && !o->replay && u->stim_done(st, tm)) {
            drained = 1;
            cyc++;
            break;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    if (pg.shown && pg.tty)
        fputc('\n', stderr);
    r->cycles = cyc;
    r->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    r->cpu_seconds = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
    if (rc == 0 && !r->mismatch && trace_mode && !o->replay && !drained &&
        !(o->stop_after && cyc > o->stop_after)) {
        snprintf(r->mm_msg, sizeof r->mm_msg,
                 "trace stalled: not every record was accepted and drained within %llu cycles",
                 (unsigned long long)cyc);
        r->mismatch = 1;
        r->mm_cycle = cyc;
    }
    sf = open_memstream(&r->summary, &slen);
    if (sf) {
        if (u->stim_summary)
            u->stim_summary(st, tm, r->cycles, sf, lead ? lead : "");
        fclose(sf);
    }
    if (o->inspect)
        o->inspect(o->inspect_ctx, st, tm);
    if (vcd_open)
        d->trace_close(h);
done:
    if (h)
        d->destroy(h);
    if (tm)
        u->tm_free(tm);
    u->stim_free(st);
    free(in);
    free(mo);
    free(ro);
    if (rc != 0)
        return rc;
    return r->mismatch ? 1 : 0;
}

int ls_bad_arg(const char *prog, const char *fmt, const char *v)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, v);
    fputc('\n', stderr);
    return 2;
}

int ls_num_arg(const char *s, unsigned long long *v)
{
    char *end;
    if (s == NULL || *s == '\0' || *s == '-')
        return -1;
    *v = strtoull(s, &end, 0);
    return *end ? -1 : 0;
}

char *ls_uncommented(const char *s)
{
    char *o = malloc(strlen(s) + 1), *w = o;
    while (o && *s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) + 1 : strlen(s);
        if (*s != '#') {
            memcpy(w, s, n);
            w += n;
        }
        s += n;
    }
    if (o)
        *w = '\0';
    return o;
}
