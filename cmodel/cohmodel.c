/*
 * cohmodel: runs a golden model alone on a text trace.
 *   cohmodel rec [--config NAME] [generator options] [--home G] [--dump] [--stats] < trace
 * Prints one "INV <line-addr> <gpu-mask>" line per invalidation; --dump then
 * prints every valid entry (set, way, base address, Fig. 9 entry vector).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec.h"
#include "rec_trace.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cohmodel rec [options] < trace\n"
            "  --config NAME   default, fpga, baseline or hmg (then refined by options)\n"
            "  --mode, --gpus, --entries, --ways, --range, --line, --addr-bits, --group,\n"
            "  --repl, --store  as for cohgen rec\n"
            "  --home G        home GPU (default 0)\n"
            "  --dump          after the trace, print every valid entry\n"
            "  --stats         print statistics to standard error\n"
            "trace lines: RR <hex-addr> <gpu> | RW <hex-addr> <gpu> | LW <hex-addr>, '#' comments\n"
            "exit status: 0 success, 2 bad options or trace (nothing printed)\n");
}

static void print_inv(void *ctx, uint64_t line, uint32_t mask)
{
    rec_trace_print_inv(stdout, (const rec_cfg *)ctx, line, mask);
}

static void dump(const rec_dir *d)
{
    unsigned s, w, k, nwords = (d->g.paper_entry_bits + 31) / 32;
    uint32_t words[128];
    printf("# valid entries: set way base-address entry-vector (Fig. 9: [%u] valid, "
           "[%u:%u] base, then per slot position bit + %u sharer bits from bit 0)\n",
           d->g.paper_entry_bits - 1, d->g.paper_entry_bits - 2, d->g.vec_bits, d->g.sharer_bits);
    for (s = 0; s < d->g.sets; s++)
        for (w = 0; w < d->cfg.ways; w++) {
            if (!d->ent[(size_t)s * d->cfg.ways + w].valid)
                continue;
            rec_entry_vector(d, s, w, words, nwords);
            printf("ENTRY %u %u 0x%llx 0x", s, w,
                   (unsigned long long)(rec_entry_base(d, s, w) << (d->g.span_bits + d->g.line_bits)));
            for (k = nwords; k-- > 0;)
                printf(k == nwords - 1 ? "%x" : "%08x", words[k]);
            printf("\n");
        }
}

int main(int argc, char **argv)
{
    rec_cfg cfg;
    rec_dir *d;
    rec_treq *reqs;
    size_t n, i;
    unsigned home = 0;
    int do_dump = 0, stats = 0, range_set = 0, a;
    char err[256];

    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "rec") != 0) {
        fprintf(stderr, "cohmodel: unknown block family '%s' (known: rec)\n", argv[1]);
        return 2;
    }
    rec_cfg_default(&cfg);
    for (a = 2; a < argc; a++)
        if (strcmp(argv[a], "--config") == 0 &&
            (a + 1 >= argc || rec_cfg_preset(&cfg, argv[a + 1]) != 0)) {
            fprintf(stderr, "cohmodel: --config: '%s' is not default, fpga, baseline or hmg\n",
                    a + 1 < argc ? argv[a + 1] : "");
            return 2;
        }
    for (a = 2; a < argc; a++) {
        const char *o = argv[a];
        int r;
        if (strcmp(o, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(o, "--dump") == 0) {
            do_dump = 1;
            continue;
        }
        if (strcmp(o, "--stats") == 0) {
            stats = 1;
            continue;
        }
        if (strncmp(o, "--", 2) != 0 || a + 1 >= argc) {
            fprintf(stderr, "cohmodel: %s '%s' (see --help)\n",
                    strncmp(o, "--", 2) ? "unexpected argument" : "missing value for", o);
            return 2;
        }
        if (strcmp(o, "--config") == 0) {
            a++;
            continue;
        }
        if (strcmp(o, "--home") == 0) {
            char *end;
            unsigned long v = strtoul(argv[a + 1], &end, 10);
            if (*end || argv[a + 1][0] == '\0' || argv[a + 1][0] == '-' || v > 15) {
                fprintf(stderr, "cohmodel: --home: '%s' is not a GPU id\n", argv[a + 1]);
                return 2;
            }
            home = (unsigned)v;
            a++;
            continue;
        }
        r = rec_cfg_option(&cfg, o + 2, argv[a + 1], err, sizeof err);
        if (r != 0) {
            if (r > 0)
                snprintf(err, sizeof err, "unknown option '%s' (see --help)", o);
            fprintf(stderr, "cohmodel: %s\n", err);
            return 2;
        }
        if (strcmp(o, "--range") == 0)
            range_set = 1;
        a++;
    }
    if (!range_set) {
        if (cfg.mode == REC_MODE_LINE)
            cfg.range = cfg.line;
        else if (cfg.mode == REC_MODE_HMG)
            cfg.range = cfg.line * cfg.group;
    }
    if (rec_cfg_check(&cfg, err, sizeof err) != 0) {
        fprintf(stderr, "cohmodel: %s\n", err);
        return 2;
    }
    if (home >= cfg.gpus) {
        fprintf(stderr, "cohmodel: --home: GPU %u is not in a %u-GPU system\n", home, cfg.gpus);
        return 2;
    }
    if (rec_trace_read(stdin, &cfg, home, &reqs, &n, err, sizeof err) != 0) {
        fprintf(stderr, "cohmodel: trace: %s\n", err);
        return 2;
    }
    d = rec_dir_new(&cfg);
    if (d == NULL) {
        fprintf(stderr, "cohmodel: out of memory\n");
        free(reqs);
        return 2;
    }
    d->home = home;
    for (i = 0; i < n; i++)
        rec_core_access(d, reqs[i].op, reqs[i].line, reqs[i].src, print_inv, &cfg);
    if (do_dump)
        dump(d);
    if (stats)
        fprintf(stderr,
                "requests %zu  hits %llu  misses %llu  evictions %llu  invalidations %llu "
                "(write %llu, eviction %llu)  mean coalesced lines per evicted entry %.2f\n",
                n, (unsigned long long)d->st.hits, (unsigned long long)d->st.misses,
                (unsigned long long)d->st.evictions, (unsigned long long)d->st.invalidations,
                (unsigned long long)d->st.write_invs, (unsigned long long)d->st.evict_invs,
                d->st.evictions ? (double)d->st.evicted_lines / (double)d->st.evictions : 0.0);
    rec_dir_free(d);
    free(reqs);
    return 0;
}
