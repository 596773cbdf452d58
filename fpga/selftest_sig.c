/*
 * Predicts the signature of fpga/rec_selftest_top.sv: the same xorshift32
 * stimulus, cycle by cycle, through the REC model's timing shell
 * (rec_tm_new / rec_eval / rec_step of cmodel/rec/rec.c), the same CRC-32 MISR
 * over every accepted INV handshake and the same request and INV counts.
 *
 *   selftest_sig [--config NAME] [cohgen options] [--seed N] [--cycles N]
 *                [--home N] [--wrong] [--vparams FILE] [--ys FILE] [--json FILE]
 *
 * Prints "sig 0x........ reqs N invs N"; --vparams writes Verilator -G
 * options (for verilator -f), --ys a Yosys chparam line, --json the figures.
 * --wrong flips bit 0 of the written signature (the negative test: the top
 * must then report FAIL). Exit status 2 on a bad option.
 */
#include "rec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t seed, cycles, home;
    uint32_t sig, reqs, invs;
    rec_stats st;
} selftest;

static uint32_t xorshift32(uint32_t x)
{
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

static uint32_t bits(uint32_t v, unsigned hi, unsigned lo)
{
    return (v >> lo) & ((1u << (hi - lo + 1)) - 1);
}

/* The top's fresh request from generator state r (rec_selftest_top.sv). */
static void fresh(uint32_t r, const rec_geom *g, uint64_t *op, uint64_t *src, uint64_t *addr)
{
    static const uint64_t ops[8] = {0, 0, 0, 0, 2, 2, 1, 3};
    uint64_t hi, tag = bits(r, 18, 16);
    *op = ops[bits(r, 6, 4)];
    *src = bits(r, 8, 7);
    if (bits(r, 22, 19) == 0)
        hi = ((uint64_t)bits(r, 31, 23) << 22) | 0x15a5a5u;
    else
        hi = (tag << 28) | (0x1b5e0c3ull << 3) | tag;
    *addr = (hi << 11) | ((uint64_t)bits(r, 15, 13) << 8) | (0x9u << 4) | bits(r, 12, 9);
    if (g->laddr_bits < 64)
        *addr &= (1ull << g->laddr_bits) - 1;
}

static int run(const rec_cfg *cfg, selftest *s)
{
    rec_geom g;
    rec_tm *tm = rec_tm_new(cfg);
    rec_in in;
    rec_out out;
    uint32_t r = s->seed, cyc;
    int have = 0;
    uint64_t hop = 0, hsrc = 0, haddr = 0;
    if (tm == NULL)
        return -1;
    rec_geom_of(cfg, &g);
    s->sig = 0xffffffffu;
    s->reqs = s->invs = 0;
    memset(&in, 0, sizeof in);
    in.rst_ni = 1;
    in.home_i = s->home;
    for (cyc = 0; cyc < s->cycles; cyc++) {
        uint64_t fop, fsrc, faddr;
        int acc, hs;
        fresh(r, &g, &fop, &fsrc, &faddr);
        in.req_valid_i = have || bits(r, 3, 2) != 0;
        in.req_op_i = have ? hop : fop;
        in.req_src_i = have ? hsrc : fsrc;
        in.req_addr_i = have ? haddr : faddr;
        in.inv_ready_i = bits(r, 1, 0) != 0;
        rec_eval(tm, &in, &out);
        acc = in.req_valid_i && out.req_ready_o;
        hs = out.inv_valid_o && in.inv_ready_i;
        if (acc)
            s->reqs = (s->reqs + 1) & 0xffffffu;
        if (hs) {
            uint32_t word = (uint32_t)out.inv_addr_o ^ ((uint32_t)out.inv_mask_o << 28) ^
                            (uint32_t)((out.inv_addr_o >> 32) & 0x3ffu);
            s->sig = ((s->sig << 1) ^ ((s->sig >> 31) ? 0x04c11db7u : 0)) ^ word;
            s->invs = (s->invs + 1) & 0xffffffu;
        }
        have = in.req_valid_i && !acc;
        hop = in.req_op_i;
        hsrc = in.req_src_i;
        haddr = in.req_addr_i;
        rec_step(tm, &in);
        r = xorshift32(r);
    }
    s->st = tm->dir->st;
    rec_tm_free(tm);
    return 0;
}

static int parse_u32(const char *v, uint32_t *out)
{
    char *end;
    unsigned long long x;
    if (v == NULL || *v == '\0' || *v == '-')
        return -1;
    x = strtoull(v, &end, 0);
    if (*end != '\0' || x > 0xffffffffull)
        return -1;
    *out = (uint32_t)x;
    return 0;
}

static FILE *open_out(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        fprintf(stderr, "selftest_sig: cannot write %s\n", path);
    return f;
}

int main(int argc, char **argv)
{
    rec_cfg cfg;
    selftest s = {0x12345678u, 1u << 20, 1u, 0, 0, 0, {{0}, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
    const char *vparams = NULL, *ys = NULL, *json = NULL;
    char err[256];
    int i, wrong = 0;
    uint32_t sig_out;
    rec_cfg_preset(&cfg, "fpga");
    for (i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int rc;
        if (strcmp(o, "--wrong") == 0) {
            wrong = 1;
            continue;
        }
        if (strncmp(o, "--", 2) != 0 || v == NULL) {
            fprintf(stderr, "selftest_sig: bad argument '%s'\n", o);
            return 2;
        }
        i++;
        if (strcmp(o, "--config") == 0) {
            if (rec_cfg_preset(&cfg, v) != 0) {
                fprintf(stderr, "selftest_sig: --config '%s': unknown\n", v);
                return 2;
            }
        } else if (strcmp(o, "--seed") == 0 || strcmp(o, "--cycles") == 0 ||
                   strcmp(o, "--home") == 0) {
            uint32_t *dst = o[2] == 's' ? &s.seed : o[2] == 'c' ? &s.cycles : &s.home;
            if (parse_u32(v, dst) != 0) {
                fprintf(stderr, "selftest_sig: %s '%s': not a 32-bit unsigned number\n", o, v);
                return 2;
            }
        } else if (strcmp(o, "--vparams") == 0) {
            vparams = v;
        } else if (strcmp(o, "--ys") == 0) {
            ys = v;
        } else if (strcmp(o, "--json") == 0) {
            json = v;
        } else if ((rc = rec_cfg_option(&cfg, o + 2, v, err, sizeof err)) != 0) {
            if (rc > 0)
                snprintf(err, sizeof err, "%s: unknown option", o);
            fprintf(stderr, "selftest_sig: %s\n", err);
            return 2;
        }
    }
    if (rec_cfg_check(&cfg, err, sizeof err) != 0) {
        fprintf(stderr, "selftest_sig: %s\n", err);
        return 2;
    }
    if (s.seed == 0 || s.cycles == 0 || s.cycles > 0xffffffu || s.home >= cfg.gpus) {
        fprintf(stderr, "selftest_sig: need --seed != 0, 1 <= --cycles < 2^24, --home < gpus\n");
        return 2;
    }
    if (run(&cfg, &s) != 0) {
        fprintf(stderr, "selftest_sig: out of memory\n");
        return 1;
    }
    sig_out = s.sig ^ (wrong ? 1u : 0u);
    printf("sig 0x%08x reqs %u invs %u (seed 0x%08x, %u cycles, home %u; model: %llu hits, "
           "%llu misses, %llu evictions, %llu write INVs, %llu evict INVs)%s\n",
           s.sig, s.reqs, s.invs, s.seed, s.cycles, s.home, (unsigned long long)s.st.hits,
           (unsigned long long)s.st.misses, (unsigned long long)s.st.evictions,
           (unsigned long long)s.st.write_invs, (unsigned long long)s.st.evict_invs,
           wrong ? " [writing a WRONG expected signature]" : "");
    if (vparams) {
        FILE *f = open_out(vparams);
        if (f == NULL)
            return 1;
        fprintf(f, "-GSeed=32'h%08x\n-GRunCycles=24'd%u\n-GHome=2'd%u\n-GExpSig=32'h%08x\n"
                   "-GExpReqs=24'd%u\n-GExpInvs=24'd%u\n",
                s.seed, s.cycles, s.home, sig_out, s.reqs, s.invs);
        fclose(f);
    }
    if (ys) {
        FILE *f = open_out(ys);
        if (f == NULL)
            return 1;
        fprintf(f, "chparam -set Seed 32'h%08x -set RunCycles 24'd%u -set Home 2'd%u "
                   "-set ExpSig 32'h%08x -set ExpReqs 24'd%u -set ExpInvs 24'd%u rec_selftest_top\n",
                s.seed, s.cycles, s.home, sig_out, s.reqs, s.invs);
        fclose(f);
    }
    if (json) {
        FILE *f = open_out(json);
        if (f == NULL)
            return 1;
        fprintf(f, "{\"seed\":%u,\"cycles\":%u,\"home\":%u,\"sig\":\"%08x\",\"reqs\":%u,"
                   "\"invs\":%u,\"written_sig\":\"%08x\",\"hits\":%llu,\"misses\":%llu,"
                   "\"evictions\":%llu,\"write_invs\":%llu,\"evict_invs\":%llu}\n",
                s.seed, s.cycles, s.home, s.sig, s.reqs, s.invs, sig_out,
                (unsigned long long)s.st.hits, (unsigned long long)s.st.misses,
                (unsigned long long)s.st.evictions, (unsigned long long)s.st.write_invs,
                (unsigned long long)s.st.evict_invs);
        fclose(f);
    }
    return 0;
}
