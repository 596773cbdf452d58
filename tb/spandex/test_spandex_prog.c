/*
 * Criterion tests of the data-race-free program generator (`cohmodel
 * spandex-prog`, cmodel/spandex/spandex_prog.c; suite spandex_prog) and of
 * the checker's data-race rule (`cohmodel spandex-check --drf`; suite
 * spandex_drf): the same seed gives the same text; bad options are refused
 * with the value named; each pattern writes what it claims (read from the
 * program text, phase by phase); random programs on 2, 4 and 8 mixed
 * devices run through spandex-system under fifo and random delivery and
 * every log is judged data-race-free; the race rule catches racy programs
 * (a directed one, Fig. 1c, generated programs with their ACQ lines
 * removed). docs/spandex.md "Data-race-free programs". Run from the
 * repository root (make unit).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spandex_prog.h"
#include "test_util.h"

#define MIX2 "--dev 0:gpu --dev 1:denovo"
#define MIX4 "--dev 0:denovo --dev 1:gpu --dev 2:gpu --dev 3:denovo"
#define MIX8                                                                                                 \
    "--dev 0:gpu --dev 1:denovo --dev 2:denovo --dev 3:gpu --dev 4:gpu --dev 5:denovo --dev 6:gpu --dev 7:denovo"

/* The program for an option string (name/value pairs), in process. */
static char *prog(const char *opts)
{
    spandex_prog_cfg c;
    char buf[512], err[256], *tok[48], *save = NULL, *t, *out;
    size_t n = 0, i, len;
    FILE *f;
    snprintf(buf, sizeof buf, "%s", opts);
    for (t = strtok_r(buf, " ", &save); t && n < 48; t = strtok_r(NULL, " ", &save))
        tok[n++] = t;
    cr_assert_eq(n % 2, 0, "options '%s' are not name/value pairs", opts);
    spandex_prog_cfg_default(&c);
    for (i = 0; i < n; i += 2)
        cr_assert_eq(spandex_prog_cfg_option(&c, tok[i] + 2, tok[i + 1], err, sizeof err), 0, "%s %s: %s", tok[i],
                     tok[i + 1], err);
    cr_assert_eq(spandex_prog_cfg_check(&c, err, sizeof err), 0, "%s", err);
    f = open_memstream(&out, &len);
    cr_assert(f);
    cr_assert_eq(spandex_prog_write(&c, f, err, sizeof err), 0, "%s", err);
    fclose(f);
    return out;
}

/* ---- the program text, phase by phase ---------------------------------- */

enum { LD, ST, RMW, ACQ, REL, EVICT };

typedef struct {
    int kind;
    unsigned dev;
    unsigned long long addr;
    char rmw[8];
} pop;

typedef struct {
    char name[64];
    pop *op;
    size_t n;
} phase;

typedef struct {
    phase ph[4096];
    size_t n, ops, steps, drains;
} parsed;

static parsed *parse(const char *text)
{
    static const char *const kinds[] = {"LD", "ST", "RMW", "ACQ", "REL", "EVICT"};
    parsed *p = calloc(1, sizeof *p);
    char *copy = strdup(text), *save = NULL, *l;
    cr_assert(p && copy);
    for (l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char k[16] = "", r[8] = "";
        unsigned d = 0, i;
        unsigned long long a = 0;
        phase *ph = p->n ? &p->ph[p->n - 1] : NULL;
        if (strncmp(l, "# phase ", 8) == 0) {
            cr_assert_lt(p->n, 4096);
            ph = &p->ph[p->n++];
            snprintf(ph->name, sizeof ph->name, "%s", strchr(l, ':') + 2);
            continue;
        }
        if (l[0] == '#')
            continue;
        p->steps += strncmp(l, "STEP ", 5) == 0;
        p->drains += strcmp(l, "DRAIN") == 0;
        if (strncmp(l, "STEP ", 5) == 0 || strcmp(l, "DRAIN") == 0)
            continue;
        cr_assert(ph, "an operation before the first phase: %s", l);
        cr_assert_geq(sscanf(l, "%15s %u %llx %7s", k, &d, &a, r), 2, "%s", l);
        ph->op = realloc(ph->op, (ph->n + 1) * sizeof *ph->op);
        for (i = 0; i < 6 && strcmp(k, kinds[i]) != 0; i++)
            ;
        cr_assert_lt(i, 6, "%s", l);
        ph->op[ph->n].kind = (int)i;
        ph->op[ph->n].dev = d;
        ph->op[ph->n].addr = i == ACQ || i == REL ? 0 : a;
        snprintf(ph->op[ph->n].rmw, sizeof ph->op[0].rmw, "%s", i == RMW ? r : "");
        ph->n++;
        p->ops++;
    }
    free(copy);
    return p;
}

static void parsed_free(parsed *p)
{
    size_t i;
    for (i = 0; i < p->n; i++)
        free(p->ph[i].op);
    free(p);
}

/* Device d's operations of a phase, in its program order: their indices. */
static size_t dev_ops(const phase *ph, unsigned d, size_t *idx, size_t max)
{
    size_t i, n = 0;
    for (i = 0; i < ph->n && n < max; i++)
        if (ph->op[i].dev == d)
            idx[n++] = i;
    return n;
}

/* ------------------------------------------------------- determinism -- */

/* The same options give the same text (in process and through cohmodel);
 * another seed another; the program holds N operation lines, or a few more
 * when an acquire's ACQ is kept after the N-th (its load would otherwise be
 * a data access). */
Test(spandex_prog, same_seed_same_text)
{
    char *a = prog(MIX4 " --seed 7 --ops 300"), *b = prog(MIX4 " --seed 7 --ops 300");
    char *c = prog(MIX4 " --seed 8 --ops 300"), *m;
    parsed *p = parse(a);
    cr_expect_str_eq(a, b);
    cr_expect_str_neq(a, c);
    m = model_prints("spandex-prog " MIX4 " --seed 7 --ops 300", "");
    cr_expect_str_eq(m, a);
    cr_expect(strncmp(a, "# cohmodel spandex-prog --pattern mixed --seed 7 --ops 300 --line 64 --word 4 --dev 0:denovo "
                         "--dev 1:gpu --dev 2:gpu --dev 3:denovo\n", 132) == 0, "%.140s", a);
    cr_expect(p->ops >= 300 && p->ops <= 304, "%zu operations", p->ops);
    parsed_free(p);
    free(a);
    free(b);
    free(c);
    free(m);
}

/* Bad options: one line naming the value, exit 2, nothing on stdout. */
Test(spandex_prog, bad_options)
{
    refused("build/bin/cohmodel spandex-prog --dev 0:mesi --dev 0:gpu", "device 0 given twice");
    refused("build/bin/cohmodel spandex-prog --dev 0:cpu", "'0:cpu'");
    refused("build/bin/cohmodel spandex-prog " MIX2 " --pattern locks", "--pattern 'locks'");
    refused("build/bin/cohmodel spandex-prog " MIX2 " --ops 0", "'0'");
    refused("build/bin/cohmodel spandex-prog " MIX2 " --ops 100001", "'100001'");
    refused("build/bin/cohmodel spandex-prog " MIX2 " --seed x", "'x'");
    refused("build/bin/cohmodel spandex-prog " MIX2 " --line 24", "--line 24");
    refused("build/bin/cohmodel spandex-prog " MIX2 " --word 2", "--word 2");
    refused("build/bin/cohmodel spandex-prog --dev 1:gpu", "the IDs must be 0..0");
    refused("build/bin/cohmodel spandex-prog", "no devices");
}

/* ----------------------------------------------------------- patterns -- */

/* False sharing: in every phase two or more devices write different words
 * of one line, and no word is written by two devices in the program. */
Test(spandex_prog, false_sharing_writes_different_words_of_one_line)
{
    char *t = prog(MIX8 " --pattern false-sharing --seed 3 --ops 400");
    parsed *p = parse(t);
    size_t i, j, k;
    cr_assert_gt(p->n, 5);
    for (i = 0; i + 1 < p->n; i++) { /* the last phase may be cut */
        const phase *ph = &p->ph[i];
        unsigned long long line = 0;
        uint64_t writers = 0;
        cr_expect(strncmp(ph->name, "false-sharing line ", 19) == 0, "%s", ph->name);
        sscanf(ph->name + 19, "%llx", &line);
        for (j = 0; j < ph->n; j++) {
            cr_expect_eq(ph->op[j].addr & ~63ull, line, "phase %zu: 0x%llx outside line 0x%llx", i + 1,
                         ph->op[j].addr, line);
            if (ph->op[j].kind == ST)
                writers |= 1ull << ph->op[j].dev;
            for (k = 0; k < ph->n; k++)
                cr_expect(!(ph->op[j].kind == ST && ph->op[k].kind == ST && ph->op[j].addr == ph->op[k].addr &&
                            ph->op[j].dev != ph->op[k].dev),
                          "phase %zu: word 0x%llx written by two devices", i + 1, ph->op[j].addr);
        }
        cr_expect_geq(__builtin_popcountll(writers), 2, "phase %zu: one writer", i + 1);
    }
    parsed_free(p);
    free(t);
}

/* Flag: the producer's last two operations are REL and a write of its
 * flag; every consumer of the next phase starts with an acquire of that
 * flag (ACQ, LD, ACQ or RMW rd, ACQ), and some consumer reads a word the
 * producer wrote (true sharing). */
Test(spandex_prog, flag_release_then_acquire_and_true_sharing)
{
    char *t = prog(MIX4 " --pattern flag --seed 5 --ops 600");
    parsed *p = parse(t);
    size_t i, shared = 0, idx[256], n, j, k;
    for (i = 0; i + 2 < p->n; i += 2) { /* the last phase may be cut */
        const phase *a = &p->ph[i], *b = &p->ph[i + 1];
        unsigned prod, d;
        unsigned long long flag;
        cr_assert_eq(sscanf(a->name, "flag: producer %u", &prod), 1, "%s", a->name);
        n = dev_ops(a, prod, idx, 256);
        cr_assert_geq(n, 2);
        cr_expect_eq(a->op[idx[n - 2]].kind, REL, "phase %zu", i + 1);
        cr_expect(a->op[idx[n - 1]].kind == ST || a->op[idx[n - 1]].kind == RMW, "phase %zu", i + 1);
        flag = a->op[idx[n - 1]].addr;
        for (d = 0; d < 4; d++) {
            if (d == prod || !(n = dev_ops(b, d, idx, 256)))
                continue;
            if (b->op[idx[0]].kind == ACQ)
                cr_expect(n >= 3 && b->op[idx[1]].kind == LD && b->op[idx[1]].addr == flag &&
                              b->op[idx[2]].kind == ACQ, "phase %zu device %u", i + 2, d);
            else
                cr_expect(n >= 2 && b->op[idx[0]].kind == RMW && strcmp(b->op[idx[0]].rmw, "rd") == 0 &&
                              b->op[idx[0]].addr == flag && b->op[idx[1]].kind == ACQ, "phase %zu device %u", i + 2,
                          d);
            for (j = 0; j < n; j++)
                for (k = 0; k < a->n; k++)
                    shared += b->op[idx[j]].kind == LD && a->op[k].kind == ST && a->op[k].dev == prod &&
                              a->op[k].addr == b->op[idx[j]].addr && a->op[k].addr != flag;
        }
    }
    cr_expect_gt(shared, 5, "consumers read %zu words producers wrote", shared);
    parsed_free(p);
    free(t);
}

/* Lock: one holder a phase, which alone touches the lock word: RMW swp and
 * ACQ first, REL and a write of the lock last; its critical section reads
 * and writes words other holders wrote before. */
Test(spandex_prog, lock_handed_over_by_swp)
{
    char *t = prog(MIX4 " --pattern lock --seed 9 --ops 500");
    parsed *p = parse(t);
    size_t i, j, n, idx[256];
    unsigned long long lock = 0;
    for (i = 0; i + 1 < p->n; i++) { /* the last phase may be cut */
        const phase *ph = &p->ph[i];
        unsigned h;
        cr_assert_eq(sscanf(ph->name, "lock: holder %u", &h), 1, "%s", ph->name);
        n = dev_ops(ph, h, idx, 256);
        cr_assert_geq(n, 4);
        cr_expect(ph->op[idx[0]].kind == RMW && strcmp(ph->op[idx[0]].rmw, "swp") == 0, "phase %zu", i + 1);
        if (!lock)
            lock = ph->op[idx[0]].addr;
        cr_expect_eq(ph->op[idx[0]].addr, lock);
        cr_expect_eq(ph->op[idx[1]].kind, ACQ);
        cr_expect_eq(ph->op[idx[n - 2]].kind, REL);
        cr_expect_eq(ph->op[idx[n - 1]].addr, lock);
        for (j = 0; j < ph->n; j++)
            cr_expect(ph->op[j].addr != lock || ph->op[j].dev == h, "phase %zu: device %u touches the lock", i + 1,
                      ph->op[j].dev);
    }
    cr_expect_gt(p->n, 10);
    parsed_free(p);
    free(t);
}

/* Barrier: in an arrive phase every device ends with REL and RMW add 1 on
 * the counter; in the leave phase every device starts by reading it (RMW
 * rd, ACQ or ACQ, LD, ACQ). */
Test(spandex_prog, barrier_every_device_arrives_and_leaves)
{
    char *t = prog(MIX8 " --pattern barrier --seed 2 --ops 500");
    parsed *p = parse(t);
    size_t i, n, idx[256];
    unsigned d;
    for (i = 0; i + 2 < p->n; i += 2) { /* the last phase may be cut */
        cr_expect_str_eq(p->ph[i].name, "barrier: arrive");
        cr_expect_str_eq(p->ph[i + 1].name, "barrier: leave");
        for (d = 0; d < 8; d++) {
            const phase *a = &p->ph[i], *b = &p->ph[i + 1];
            unsigned long long bar;
            n = dev_ops(a, d, idx, 256);
            cr_assert_geq(n, 2);
            cr_expect_eq(a->op[idx[n - 2]].kind, REL);
            cr_expect(a->op[idx[n - 1]].kind == RMW && strcmp(a->op[idx[n - 1]].rmw, "add") == 0);
            bar = a->op[idx[n - 1]].addr;
            n = dev_ops(b, d, idx, 256);
            cr_assert_geq(n, 2);
            cr_expect((b->op[idx[0]].kind == RMW && b->op[idx[0]].addr == bar && b->op[idx[1]].kind == ACQ) ||
                          (b->op[idx[0]].kind == ACQ && b->op[idx[1]].addr == bar && b->op[idx[2]].kind == ACQ),
                      "phase %zu device %u", i + 2, d);
        }
    }
    parsed_free(p);
    free(t);
}

/* Counter: atomics only, from two devices or more, on one line. */
Test(spandex_prog, counter_atomics_only)
{
    char *t = prog(MIX4 " --pattern counter --seed 4 --ops 300");
    parsed *p = parse(t);
    size_t i, j;
    unsigned long long line = 0;
    for (i = 0; i + 1 < p->n; i++) { /* the last phase may be cut */
        uint64_t devs = 0;
        for (j = 0; j < p->ph[i].n; j++) {
            const pop *o = &p->ph[i].op[j];
            cr_expect_eq(o->kind, RMW);
            if (!line)
                line = o->addr & ~63ull;
            cr_expect_eq(o->addr & ~63ull, line);
            devs |= 1ull << o->dev;
        }
        cr_expect_geq(__builtin_popcountll(devs), 2, "phase %zu", i + 1);
    }
    parsed_free(p);
    free(t);
}

/* Read-mostly: the words writers store (before their release) are only
 * stored in writer phases, and loaded far more often than stored. */
Test(spandex_prog, read_mostly_loads_outnumber_stores)
{
    char *t = prog(MIX4 " --pattern read-mostly --seed 6 --ops 800");
    parsed *p = parse(t);
    unsigned long long set[512];
    size_t i, j, k, n = 0, loads = 0, stores = 0, idx[256], m;
    for (i = 0; i + 1 < p->n; i++) {
        unsigned w;
        if (sscanf(p->ph[i].name, "read-mostly: writer %u", &w) != 1)
            continue;
        m = dev_ops(&p->ph[i], w, idx, 256);
        for (j = 0; j + 2 < m; j++) /* the last two: REL and the flag */
            if (p->ph[i].op[idx[j]].kind == ST && n < 512)
                set[n++] = p->ph[i].op[idx[j]].addr;
    }
    cr_assert_gt(n, 0);
    for (i = 0; i < p->n; i++)
        for (j = 0; j < p->ph[i].n; j++) {
            const pop *o = &p->ph[i].op[j];
            for (k = 0; k < n && set[k] != o->addr; k++)
                ;
            if (k == n || (o->kind != LD && o->kind != ST))
                continue;
            loads += o->kind == LD;
            stores += o->kind == ST;
            cr_expect(o->kind != ST || strncmp(p->ph[i].name, "read-mostly: writer", 19) == 0, "phase %zu: %s",
                      i + 1, p->ph[i].name);
        }
    cr_expect_gt(loads, 3 * stores, "%zu loads, %zu stores", loads, stores);
    parsed_free(p);
    free(t);
}

/* Mixed: phases of every pattern, and every kind of line. */
Test(spandex_prog, mixed_has_every_pattern_and_line)
{
    static const char *const names[] = {"false-sharing", "flag", "lock", "barrier", "counter", "read-mostly"};
    char *t = prog(MIX4 " --seed 11 --ops 1500");
    parsed *p = parse(t);
    size_t i, j, kinds[6] = {0};
    for (i = 0; i < 6; i++) {
        int seen = 0;
        for (j = 0; j < p->n && !seen; j++)
            seen = strncmp(p->ph[j].name, names[i], strlen(names[i])) == 0;
        cr_expect(seen, "no %s phase", names[i]);
    }
    for (i = 0; i < p->n; i++)
        for (j = 0; j < p->ph[i].n; j++)
            kinds[p->ph[i].op[j].kind]++;
    for (i = 0; i < 6; i++)
        cr_expect_gt(kinds[i], 0, "kind %zu missing", i);
    cr_expect_gt(p->steps, 0);
    cr_expect_geq(p->drains, p->n - 1);
    parsed_free(p);
    free(t);
}

/* ------------------------------------------------ DRF through the system -- */

/* Random programs on 2, 4 and 8 mixed devices (mixed and each pattern in
 * turn), each run under fifo and random delivery; every log judged by
 * spandex-check --drf: PASS, data-race-free. */
Test(spandex_prog, random_drf_programs_pass_the_checker, .timeout = 120)
{
    static const char *const cfgs[] = {MIX2, MIX4, MIX8};
    static const char *const scheds[] = {"fifo", "random"};
    char dir[256], path[300];
    unsigned c, seed, s;
    cmd_out r;
    snprintf(dir, sizeof dir, "%s", fresh_dir("spandex_prog_drf"));
    snprintf(path, sizeof path, "%s/p.txt", dir);
    for (c = 0; c < 3; c++)
        for (seed = 1; seed <= 10; seed++) { /* every pattern; make sysprog runs 1,000 */
            const char *pat = spandex_prog_pattern_name(seed % SPANDEX_PROG_PATTERNS);
            run_cap(&r, "build/bin/cohmodel spandex-prog %s --seed %u --ops %u --pattern %s > %s", cfgs[c], seed,
                    200 + 50 * c, pat, path);
            cr_assert_eq(r.status, 0, "%s", r.err);
            cmd_out_free(&r);
            for (s = 0; s < 2; s++) {
                run_cap(&r, "build/bin/cohmodel spandex-system %s --sched %s --seed %u < %s > %s/l.txt", cfgs[c],
                        scheds[s], seed, path, dir);
                cr_assert_eq(r.status, 0, "%s seed %u %s: spandex-system: %s%s", cfgs[c], seed, scheds[s], r.out,
                             r.err);
                cmd_out_free(&r);
                run_cap(&r, "build/bin/cohmodel spandex-check %s --sched %s --drf --program %s < %s/l.txt", cfgs[c],
                        scheds[s], path, dir);
                cr_expect_eq(r.status, 0, "%s seed %u %s %s: %s%s", cfgs[c], seed, pat, scheds[s], r.out, r.err);
                cr_expect(strncmp(r.out, "PASS SYS1-SYS8 (data-race-free)", 31) == 0, "%s", r.out);
                cmd_out_free(&r);
            }
        }
}

/* ------------------------------------------------- the race rule ------ */

/* Runs a program through spandex-system (fifo) and spandex-check with
 * --drf (drf set) or without; the checker's output. */
static char *judge(const char *cfg, const char *program, int drf, int *status)
{
    char dir[256], name[64], path[300];
    cmd_out r;
    char *o;
    snprintf(name, sizeof name, "spandex_drf_%ld", (long)getpid()); /* tests run in parallel */
    snprintf(dir, sizeof dir, "%s", fresh_dir(name));
    snprintf(path, sizeof path, "%s/p.txt", dir);
    put(path, program);
    run_cap(&r, "build/bin/cohmodel spandex-system %s < %s/p.txt > %s/l.txt", cfg, dir, dir);
    cr_assert_eq(r.status, 0, "spandex-system: %s%s", r.out, r.err);
    cmd_out_free(&r);
    run_cap(&r, "build/bin/cohmodel spandex-check %s%s --program %s/p.txt < %s/l.txt", cfg, drf ? " --drf" : "", dir,
            dir);
    *status = r.status;
    o = r.out;
    r.out = NULL;
    cmd_out_free(&r);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    run(path);
    return o;
}

/* A store and a load of another device, a DRAIN between but no
 * synchronisation: a data race (the load's value passes SYS3, which
 * accepts a concurrent store's value, so without --drf the log passes).
 * With the release (REL, ST flag) and the acquire (LD flag, ACQ) the same
 * accesses are ordered: PASS. */
Test(spandex_drf, store_then_load_without_synchronisation)
{
    int st;
    char *o = judge(MIX2, "ST 0 0x1000 0x5\nDRAIN\nLD 1 0x1000\n", 1, &st);
    cr_expect_eq(st, 1);
    cr_expect_str_eq(o, "E SYS3 line 12: V 1 3 0x1000 0x5: data race on word 0x1000: ST of device 0 (program line 1) "
                        "and LD of device 1 (program line 3) are not ordered by happens-before\n");
    free(o);
    o = judge(MIX2, "ST 0 0x1000 0x5\nDRAIN\nLD 1 0x1000\n", 0, &st);
    cr_expect_eq(st, 0, "%s", o);
    free(o);
    o = judge(MIX2, "ST 0 0x1000 0x5\nREL 0\nST 0 0x2000 0x1\nDRAIN\nACQ 1\nLD 1 0x2000\nACQ 1\nLD 1 0x1000\n", 1, &st);
    cr_expect_eq(st, 0, "%s", o);
    cr_expect_str_eq(o, "PASS SYS1-SYS8 (data-race-free): 8 deliveries, 7 operations\n");
    free(o);
}

/* Synchronisation accesses never race with each other (RMWs on a counter
 * from two devices; a release store and an acquire load of a flag in one
 * phase); a data load racing with an RMW does. */
Test(spandex_drf, synchronisation_accesses_exempt)
{
    int st;
    char *o = judge(MIX2, "RMW 0 0x1000 add 0x1\nRMW 1 0x1000 add 0x2\nRMW 1 0x1000 rd\n", 1, &st);
    cr_expect_eq(st, 0, "%s", o);
    free(o);
    o = judge(MIX2, "REL 0\nST 0 0x2000 0x1\nLD 1 0x2000\nACQ 1\n", 1, &st);
    cr_expect_eq(st, 0, "%s", o);
    free(o);
    o = judge(MIX2, "RMW 0 0x1000 add 0x1\nLD 1 0x1000\n", 1, &st);
    cr_expect_eq(st, 1, "%s", o);
    cr_expect(strstr(o, "data race on word 0x1000: synchronising RMW of device 0 (program line 1) and LD of device 1 "
                        "(program line 2)"), "%s", o);
    free(o);
}

/* Fig. 1c sets up its states with a race: the GPU's first load of word 0
 * and the accelerator's store to it are unordered. */
Test(spandex_drf, fig1c_is_racy)
{
    cmd_out r;
    run_cap(&r, "build/bin/cohmodel spandex-check --dev 0:mesi --dev 1:gpu --dev 2:denovo --line 32 --drf "
                "--program tb/spandex/logs/fig1c.prog < tb/spandex/logs/fig1c.log");
    cr_expect_eq(r.status, 1);
    cr_expect_str_eq(r.out, "E SYS3 line 11: C 2 8: data race on word 0x1000: LD of device 1 (program line 6) and ST "
                            "of device 2 (program line 8) are not ordered by happens-before\n");
    cmd_out_free(&r);
}

/* Generated programs with their ACQ lines removed (the acquires gone, the
 * loads of flags become data loads): every one is caught as racy. */
Test(spandex_drf, generated_programs_without_acquires_fail)
{
    char *t, *u, *q;
    unsigned seed;
    int st;
    for (seed = 1; seed <= 6; seed++) {
        char opts[200];
        snprintf(opts, sizeof opts, MIX4 " --pattern %s --seed %u --ops 150", seed % 2 ? "flag" : "mixed", seed);
        t = prog(opts);
        u = malloc(strlen(t) + 1);
        for (q = t, u[0] = 0; *q;) {
            char *nl = strchr(q, '\n');
            size_t l = nl ? (size_t)(nl - q + 1) : strlen(q);
            if (strncmp(q, "ACQ ", 4) != 0)
                strncat(u, q, l);
            q += l;
        }
        free(judge(MIX4, t, 1, &st));
        cr_expect_eq(st, 0, "seed %u as generated", seed);
        q = judge(MIX4, u, 1, &st);
        cr_expect_eq(st, 1, "seed %u without ACQ: %s", seed, q);
        cr_expect(strstr(q, ": data race on word "), "seed %u: %s", seed, q);
        free(q);
        free(t);
        free(u);
    }
}
