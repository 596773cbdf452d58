/*
 * replay: stimulus files of `tb_<family> --replay FILE` (ls_stim_read,
 * tb/lockstep.c), one hex value per input port a line, for any unit.
 *
 * An input starts with "#! UNIT [options]", a comment to the reader, which
 * picks the unit and its configuration (and so the ports). Checked: a
 * refused file gets one line naming a line of the file, the same when the
 * file is cut after that line; an accepted one has a cycle per line that is
 * not blank or a comment, drives the lockstep engine (the unit's timing
 * shell as the RTL beside its timing shell as the model: both must agree
 * every cycle), and the stimulus the engine writes (--stim-out) reads back
 * as the same values.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lockstep.h"

#define MAX_WORDS 64

int fuzz_replay_init(const char *arg)
{
    (void)arg;
    return 0;
}

static int stim_read(const char *s, size_t n, const dut_ops *d, uint64_t **v, size_t *cycles,
                     char *err, size_t len)
{
    FILE *f = n ? fmemopen((void *)s, n, "r") : fopen("/dev/null", "r");
    int rc;
    if (f == NULL)
        fuzz_fail("cannot open a stimulus stream");
    *v = NULL;
    rc = ls_stim_read(f, d, v, cycles, err, len);
    fclose(f);
    return rc;
}

/* Lines that hold a cycle (what the reader skips: blank and '#' lines). */
static size_t cycle_lines(const char *s, size_t n)
{
    size_t i = 0, k = 0;
    while (i < n) {
        size_t e = i;
        while (e < n && s[e] != '\n')
            e++;
        while (i < e && (s[i] == ' ' || s[i] == '\t'))
            i++;
        k += i < e && s[i] != '#' && s[i] != '\r' && s[i] != '\0';
        i = e + 1;
    }
    return k;
}

static void check_refused(const char *s, size_t n, const dut_ops *d, const char *err)
{
    unsigned line = fuzz_msg_line(err, NULL);
    uint64_t *v;
    size_t c;
    char err2[512];
    if (strchr(err, '\n') || line == 0 || line > fuzz_lines(s, n))
        fuzz_fail("%s: refused naming no line of the %u-line file: %s", d->unit, fuzz_lines(s, n), err);
    if (stim_read(s, fuzz_prefix(s, n, line), d, &v, &c, err2, sizeof err2) == 0 ||
        fuzz_msg_line(err2, NULL) != line)
        fuzz_fail("%s: refused naming line %u (%s), the file cut after it: %s", d->unit, line, err,
                  err2);
}

/* The engine on the values; what it writes as its stimulus reads back. */
static void check_run(const cohkit_unit_desc *u, const void *cfg, const dut_ops *d, const uint64_t *v,
                      size_t cycles)
{
    ls_opts o;
    ls_result r;
    char *out = NULL, err[512];
    size_t out_len = 0, c2;
    uint64_t *v2;
    int rc;
    ls_defaults(&o);
    o.unit = u;
    o.cfg = cfg;
    o.dut = d;
    o.replay = v;
    o.nreplay = cycles;
    o.stim_out = open_memstream(&out, &out_len);
    if (o.stim_out == NULL)
        fuzz_fail("cannot open a stimulus stream");
    rc = ls_run(&o, &r, "");
    fclose(o.stim_out);
    if (rc != 0 || r.cycles != cycles)
        fuzz_fail("%s: the replay of %zu cycles: %d after %llu cycles, %s", u->name, cycles, rc,
                  (unsigned long long)r.cycles, r.mm_msg);
    if (stim_read(out, out_len, d, &v2, &c2, err, sizeof err) != 0)
        fuzz_fail("%s: the engine's stimulus does not read back: %s", u->name, err);
    if (c2 != cycles || (cycles && memcmp(v, v2, cycles * d->in_words * sizeof *v) != 0))
        fuzz_fail("%s: the engine's stimulus reads back other values", u->name);
    free(v2);
    free(out);
    ls_result_free(&r);
}

void fuzz_replay_one(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    size_t hl = fuzz_prefix(s, size, 1), cycles;
    char *hdr, *w[MAX_WORDS], err[512];
    const cohkit_unit_desc *u;
    void *cfg = NULL;
    uint64_t *v;
    fuzz_shell sh;
    int nw;
    if (hl < 3 || s[0] != '#' || s[1] != '!' || (hdr = malloc(hl)) == NULL)
        return;
    memcpy(hdr, s + 2, hl - 2);
    hdr[hl - 2] = '\0';
    nw = fuzz_words(hdr, w, MAX_WORDS);
    if (nw > 0 && fuzz_small(w, nw, 4096) && (u = cohkit_unit_find(w[0])) != NULL &&
        (cfg = calloc(1, u->cfg_size)) != NULL &&
        cohkit_unit_cfg_parse(u, cfg, nw - 1, w + 1, NULL, NULL, err, sizeof err) == 0 &&
        fuzz_shell_init(&sh, u, cfg, err, sizeof err) == 0) {
        if (stim_read(s, size, &sh.ops, &v, &cycles, err, sizeof err) != 0)
            check_refused(s, size, &sh.ops, err);
        else if (cycles != cycle_lines(s, size))
            fuzz_fail("%s: %zu cycles read from %zu lines of values", u->name, cycles,
                      cycle_lines(s, size));
        else
            check_run(u, cfg, &sh.ops, v, cycles);
        free(v);
    }
    free(cfg);
    free(hdr);
}
