/*
 * cohgen: the generator's command line through its main. The input is the
 * words after `cohgen` (blank-separated), e.g. "rec --config fpga --ways 2
 * --report". The values of -o and --harness become folders of the scratch
 * folder; --selftest runs at most 3,000 cycles (--selftest-cycles, added
 * when absent), and numbers stay at most 65,536, so that a run stays short.
 *
 * Checked: exit status 0 with nothing on standard error, or 2 with one line
 * on standard error, nothing on standard output and no file written; a
 * unit's options that parse give a configuration whose argument round trip
 * (cfg_args, parsed again) reproduces the same arguments and module name.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

#define MAX_WORDS 120

int fuzz_cohgen_init(const char *arg)
{
    (void)arg;
    return 0;
}

/* 1 when the folder (and those below it) holds no file. */
static int no_file(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    char p[1024];
    struct stat st;
    int ok = 1;
    while (ok && d && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", path, e->d_name);
        ok = lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && no_file(p);
    }
    if (d)
        closedir(d);
    return ok;
}

/* The argument round trip of a unit's configuration options. */
static void check_round_trip(const cohkit_unit_desc *u, int argc, char **argv)
{
    void *c1 = calloc(1, u->cfg_size), *c2 = calloc(1, u->cfg_size);
    int rest[MAX_WORDS + 4], nrest;
    char err[300], a1[2048], a2[2048], n1[256], n2[256];
    if (c1 == NULL || c2 == NULL)
        fuzz_fail("out of memory");
    if (cohkit_unit_cfg_parse(u, c1, argc, argv, rest, &nrest, err, sizeof err) == 0) {
        u->cfg_args(c1, a1, sizeof a1);
        u->cfg_name(c1, n1, sizeof n1);
        if (cohkit_unit_cfg_parse_str(u, c2, a1, err, sizeof err) != 0)
            fuzz_fail("%s: the arguments of a configuration are refused: %s: %s", u->name, a1, err);
        u->cfg_args(c2, a2, sizeof a2);
        u->cfg_name(c2, n2, sizeof n2);
        if (strcmp(a1, a2) != 0 || strcmp(n1, n2) != 0)
            fuzz_fail("%s: round trip of '%s' (%s) gives '%s' (%s)", u->name, a1, n1, a2, n2);
    }
    free(c1);
    free(c2);
}

/* A --selftest-cycles value cohgen takes that is over 3,000 cycles. */
static int long_run(const char *v)
{
    char *end;
    unsigned long long x = strtoull(v, &end, 0);
    return *v != '\0' && *v != '-' && *end == '\0' && x > 3000;
}

void fuzz_cohgen_one(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1), *w[MAX_WORDS], *argv[MAX_WORDS + 4], odir[600], hdir[600];
    int nw, argc = 0, i, selftest = 0, cycles = 0;
    const cohkit_unit_desc *u;
    fuzz_run r;
    if (buf == NULL)
        fuzz_fail("out of memory");
    memcpy(buf, data, size);
    buf[size] = '\0';
    nw = fuzz_words(buf, w, MAX_WORDS);
    if (nw < 1 || !fuzz_small(w, nw, 65536)) {
        free(buf);
        return;
    }
    snprintf(odir, sizeof odir, "%s/o", fuzz_scratch());
    snprintf(hdir, sizeof hdir, "%s/h", fuzz_scratch());
    argv[argc++] = "cohgen";
    for (i = 0; i < nw; i++) {
        int last = i + 1 == nw;
        argv[argc++] = w[i];
        selftest |= strcmp(w[i], "--selftest") == 0;
        if (last)
            continue;
        if (strcmp(w[i], "-o") == 0 || strcmp(w[i], "--harness") == 0)
            argv[argc++] = w[i][1] == 'o' ? odir : hdir, i++;
        else if (strcmp(w[i], "--selftest-cycles") == 0) {
            cycles = 1;
            argv[argc++] = long_run(w[i + 1]) ? "3000" : w[i + 1], i++;
        }
    }
    if (selftest && !cycles) {
        argv[argc++] = "--selftest-cycles";
        argv[argc++] = "3000";
    }
    argv[argc] = NULL;
    if ((u = cohkit_unit_find(w[0])) != NULL)
        check_round_trip(u, argc - 2, argv + 2);
    fuzz_call(fuzz_cohgen_main, argc, argv, NULL, 0, &r);
    if (r.rc == 2) {
        fuzz_check_refusal(&r, "cohgen");
        if (!no_file(fuzz_scratch()))
            fuzz_fail("cohgen: exit 2 (%s) with files written", r.err);
    } else if (r.rc != 0 || r.err_len != 0) {
        fuzz_fail("cohgen: exit %d with '%.300s' on standard error", r.rc, r.err);
    }
    fuzz_run_free(&r);
    fuzz_scratch_clear();
    free(buf);
}
