/*
 * trace-FAMILY and tool-TOOL: text inputs through cohmodel's main, as
 * `cohmodel UNIT [options] < input` runs them.
 *
 * An input may start with a header line, "#! UNIT options" (trace-FAMILY;
 * without one, the family's first unit at its default configuration) or
 * "#! options" (tool-TOOL): a comment to every reader, so the line numbers
 * of the input are the tool's. A tool flag that names a file to read
 * ("FILE": spandex-check's --program) takes the lines before the first line
 * starting with "#---"; the header line and the lines after it are standard
 * input. A flag's file to write ("[FILE]") is left out (standard output).
 *
 * Checked: the exit status is 0, 2, or 1 for a verdict tool; an accepted
 * input run twice gives the same output; on 2, one line on standard error,
 * nothing on standard output, and the line it names is a line of the input
 * that, with the input cut after it, is refused naming the same line; an
 * error naming no line refuses the configuration (the same message on the
 * header alone). For a unit at a committed
 * configuration without flags, the family bench's --trace path (the
 * lockstep engine, the timing shell standing in for the RTL) prints
 * cohmodel's lines and drains when cohmodel accepts the trace, and refuses
 * no other line than cohmodel when it refuses one.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lockstep.h"

#define MAX_WORDS 64

static const char *family;           /* trace-FAMILY */
static const cohkit_unit_desc *tool; /* tool-TOOL    */

int fuzz_trace_init(const char *arg)
{
    size_t i;
    for (i = 0; cohkit_unit_registry[i]; i++)
        if (strcmp(cohkit_unit_registry[i]->family, arg) == 0) {
            family = cohkit_unit_registry[i]->family;
            return 0;
        }
    return -1;
}

int fuzz_tool_init(const char *arg)
{
    tool = cohkit_unit_tool_find(arg);
    return tool != NULL && tool->trace_run != NULL ? 0 : -1;
}

typedef struct {
    const cohkit_unit_desc *u;
    char *w[MAX_WORDS];   /* the header's words after the unit             */
    int nw;
    char *argv[MAX_WORDS + 12];
    int argc;
    char *in;             /* standard input: the header line, the trace    */
    size_t n, hdr_len;
    const char *file_flag; /* the flag of a file the tool reads, or NULL   */
    const char *file;     /* its text                                      */
    size_t file_len;
    char path[600];
} job;

static const cohkit_unit_desc *family_unit(const char *name)
{
    size_t i;
    for (i = 0; cohkit_unit_registry[i]; i++)
        if (strcmp(cohkit_unit_registry[i]->family, family) == 0 &&
            (name == NULL || strcmp(cohkit_unit_registry[i]->name, name) == 0))
            return cohkit_unit_registry[i];
    return NULL;
}

/* The header's unit and words (into hdr, a copy of its line): 0, or -1
 * when the input is not one for this harness. */
static int read_header(job *j, char *hdr)
{
    int nw = 0, first = 0;
    char *w[MAX_WORDS + 1];
    if (j->hdr_len >= 2 && j->in[0] == '#' && j->in[1] == '!') {
        memcpy(hdr, j->in + 2, j->hdr_len - 2);
        hdr[j->hdr_len - 2] = '\0';
        if ((nw = fuzz_words(hdr, w, MAX_WORDS + 1)) < 0)
            return -1;
    }
    if (tool)
        j->u = tool;
    else if ((j->u = family_unit(nw ? w[0] : NULL)) == NULL)
        return -1;
    else
        first = nw > 0;
    if (nw - first > MAX_WORDS)
        return -1;
    for (j->nw = 0; first < nw; first++)
        j->w[j->nw++] = w[first];
    return fuzz_small(j->w, j->nw, 4096) ? 0 : -1;
}

/* Options that bound a tool's run where its default bound is long (a
 * stalled program runs to it), before the header's own. */
static const struct {
    const char *tool, *opt, *value;
} bounds[] = {
    {"stc-system", "--max-cycles", "20000"},
};

static void add_bounds(job *j)
{
    size_t b;
    for (b = 0; b < sizeof bounds / sizeof bounds[0]; b++)
        if (strcmp(bounds[b].tool, j->u->name) == 0) {
            j->argv[j->argc++] = (char *)bounds[b].opt;
            j->argv[j->argc++] = (char *)bounds[b].value;
        }
}

/* cohmodel's argv: the bounds, the header's words without the files a flag
 * would write or read; the file the tool reads, written to the scratch
 * folder. */
static int make_argv(job *j)
{
    /* the bounds go after a configuration named first (cohmodel TOOL PRESET) */
    int i, k, at = j->nw > 0 && strncmp(j->w[0], "--", 2) != 0;
    j->argc = 0;
    j->argv[j->argc++] = "cohmodel";
    j->argv[j->argc++] = (char *)j->u->name;
    for (i = 0; i < j->nw; i++) {
        const char *a = j->w[i];
        if (i == at)
            add_bounds(j);
        k = strncmp(a, "--", 2) == 0 ? cohkit_unit_flag_index(j->u, a + 2) : -1;
        if (k >= 0 && j->u->flags[k].arg && strcmp(j->u->flags[k].arg, "FILE") == 0) {
            i++; /* the harness gives the file */
            continue;
        }
        j->argv[j->argc++] = j->w[i];
        if (k >= 0 && j->u->flags[k].arg && j->u->flags[k].arg[0] == '[' && i + 1 < j->nw &&
            strncmp(j->w[i + 1], "--", 2) != 0)
            i++; /* no file written: standard output */
    }
    if (at == j->nw)
        add_bounds(j);
    if (j->file_flag && j->file) {
        FILE *f;
        snprintf(j->path, sizeof j->path, "%s/input", fuzz_scratch());
        if ((f = fopen(j->path, "w")) == NULL || fwrite(j->file, 1, j->file_len, f) != j->file_len ||
            fclose(f) != 0)
            fuzz_fail("cannot write %s", j->path);
        j->argv[j->argc++] = (char *)j->file_flag;
        j->argv[j->argc++] = j->path;
    }
    j->argv[j->argc] = NULL;
    return 0;
}

/* A tool that reads a file: the lines between the header and the first
 * "#---" line are that file; standard input keeps the header and the rest. */
static void split_file(job *j, const char *buf, size_t size)
{
    int k;
    const char *sep;
    static char flag[80];
    j->file_flag = NULL;
    for (k = 0; j->u->flags && j->u->flags[k].name; k++)
        if (j->u->flags[k].arg && strcmp(j->u->flags[k].arg, "FILE") == 0) {
            snprintf(flag, sizeof flag, "--%s", j->u->flags[k].name);
            j->file_flag = flag;
        }
    if (j->file_flag == NULL)
        return;
    for (sep = buf + j->hdr_len; sep < buf + size; sep++)
        if ((sep == buf + j->hdr_len || sep[-1] == '\n') && buf + size - sep >= 4 && memcmp(sep, "#---", 4) == 0)
            break;
    if (sep >= buf + size)
        return;
    j->file = buf + j->hdr_len;
    j->file_len = (size_t)(sep - j->file);
    while (sep < buf + size && *sep != '\n')
        sep++;
    sep += sep < buf + size;
    memcpy(j->in + j->hdr_len, sep, (size_t)(buf + size - sep));
    j->n = j->hdr_len + (size_t)(buf + size - sep);
}

static void run_tool(const job *j, const char *in, size_t n, fuzz_run *r)
{
    char *argv[MAX_WORDS + 12];
    memcpy(argv, j->argv, sizeof argv); /* cohmodel may rewrite its argv */
    fuzz_call(fuzz_cohmodel_main, j->argc, argv, in, n, r);
}

/* A refusal (exit 2): the promise, and the line it names. */
static void check_refusal(const job *j, const fuzz_run *r)
{
    unsigned line = fuzz_msg_line(r->err, "stdin"), fline = j->file ? fuzz_msg_line(r->err, j->path) : 0;
    fuzz_run r2;
    fuzz_check_refusal(r, j->u->name);
    if (line) {
        if (line > fuzz_lines(j->in, j->n))
            fuzz_fail("%s: names line %u of a %u-line input: %s", j->u->name, line,
                      fuzz_lines(j->in, j->n), r->err);
        run_tool(j, j->in, fuzz_prefix(j->in, j->n, line), &r2);
        if (r2.rc != 2 || fuzz_msg_line(r2.err, "stdin") != line)
            fuzz_fail("%s: refused naming line %u (%s), but the input cut after it: exit %d, %s",
                      j->u->name, line, r->err, r2.rc, r2.err);
        fuzz_run_free(&r2);
        return;
    }
    if (fline) {
        if (fline > fuzz_lines(j->file, j->file_len))
            fuzz_fail("%s: names line %u of a %u-line file: %s", j->u->name, fline,
                      fuzz_lines(j->file, j->file_len), r->err);
        return;
    }
    if (fuzz_msg_line(r->err, NULL))
        fuzz_fail("%s: names a line of no input: %s", j->u->name, r->err);
    /* no line named: the configuration itself is refused */
    run_tool(j, j->in, j->hdr_len, &r2);
    if (r2.rc != 2 || strcmp(r2.err, r->err) != 0)
        fuzz_fail("%s: refused without naming a line (%s), but the header alone: exit %d, %s",
                  j->u->name, r->err, r2.rc, r2.err);
    fuzz_run_free(&r2);
}

/* An accepted input run again gives the same output (no state kept from
 * run to run, nothing read that was not written). */
static void check_again(const job *j, const fuzz_run *r)
{
    fuzz_run r2;
    run_tool(j, j->in, j->n, &r2);
    if (r2.rc != r->rc || r2.out_len != r->out_len || memcmp(r2.out, r->out, r->out_len) != 0)
        fuzz_fail("%s: the same input run again: exit %d, then %d; output differs: %s", j->u->name,
                  r->rc, r2.rc, r2.out_len == r->out_len ? "same length" : "other length");
    fuzz_run_free(&r2);
}

/* The preset the family bench would run (a committed one), or NULL. */
static const char *bench_preset(const job *j)
{
    const char *p = j->nw == 0 ? "default" : j->nw == 2 && strcmp(j->w[0], "--config") == 0 ? j->w[1] : NULL;
    size_t k;
    for (k = 0; p && j->u->committed[k]; k++)
        if (strcmp(j->u->committed[k], p) == 0)
            return p;
    return NULL;
}

/* The bench's --trace path against cohmodel's run r. */
static void check_bench(const job *j, const char *preset, const fuzz_run *r)
{
    const cohkit_unit_desc *u = j->u;
    const char *argv[2] = {"--config", preset};
    const char *fl[COHKIT_UNIT_FLAGS_MAX] = {0};
    void *cfg = calloc(1, u->cfg_size);
    char err[300], *out = NULL, *lines;
    size_t out_len = 0;
    fuzz_shell sh;
    ls_opts o;
    ls_result res;
    int rc;
    if (cfg == NULL || cohkit_unit_cfg_parse(u, cfg, 2, (char *const *)argv, NULL, NULL, err, sizeof err) ||
        fuzz_shell_init(&sh, u, cfg, err, sizeof err))
        fuzz_fail("%s --config %s: %s", u->name, preset, cfg ? err : "out of memory");
    ls_defaults(&o);
    o.unit = u;
    o.cfg = cfg;
    o.dut = &sh.ops;
    o.flags = fl;
    o.trace = j->n ? fmemopen(j->in, j->n, "r") : fopen("/dev/null", "r");
    o.trace_name = "stdin";
    o.trace_out = open_memstream(&out, &out_len);
    if (o.trace == NULL || o.trace_out == NULL)
        fuzz_fail("cannot open the streams of a bench run");
    rc = ls_run(&o, &res, "");
    fclose(o.trace);
    fclose(o.trace_out);
    if (r->rc == 2) {
        /* a record the model finds illegal in its state (a protocol
         * error) may still be driven: the bench reads the trace, it does
         * not judge it; what it refuses, it refuses at the same line */
        unsigned line = fuzz_msg_line(r->err, "stdin");
        if (rc == -1 && fuzz_msg_line(res.mm_msg, "stdin") != line)
            fuzz_fail("%s: cohmodel refused (%s) but the bench's --trace: %s", u->name, r->err,
                      res.mm_msg);
    } else if (rc != 0) {
        fuzz_fail("%s: cohmodel accepted the trace, the bench's --trace: %d, %s", u->name, rc,
                  res.mm_msg);
    } else if ((lines = ls_uncommented(out)) == NULL || strcmp(lines, r->out) != 0) {
        fuzz_fail("%s: the bench's --trace printed other lines than cohmodel:\n%s---\n%s", u->name,
                  lines ? lines : "", r->out);
    } else {
        free(lines);
    }
    ls_result_free(&res);
    free(out);
    free(cfg);
}

void fuzz_trace_one(const uint8_t *data, size_t size)
{
    job j;
    char *hdr;
    const char *preset;
    fuzz_run r;
    memset(&j, 0, sizeof j);
    j.in = malloc(size + 1);
    hdr = malloc(size + 1);
    if (j.in == NULL || hdr == NULL)
        fuzz_fail("out of memory");
    memcpy(j.in, data, size);
    j.in[size] = '\0';
    j.n = size;
    j.hdr_len = fuzz_prefix(j.in, j.n, 1);
    if (read_header(&j, hdr) == 0) {
        split_file(&j, (const char *)data, size);
        make_argv(&j);
        run_tool(&j, j.in, j.n, &r);
        if (r.rc != 0 && r.rc != 2 && !(r.rc == 1 && j.u->verdict_exit))
            fuzz_fail("%s: exit status %d: %s", j.u->name, r.rc, r.err);
        if (r.rc == 2)
            check_refusal(&j, &r);
        else
            check_again(&j, &r);
        if (!tool && r.rc != 1 && (preset = bench_preset(&j)) != NULL)
            check_bench(&j, preset, &r);
        fuzz_run_free(&r);
    }
    free(hdr);
    free(j.in);
}
