/*
 * ./tb_dualopt --gpu [--kernel local|sparse|reuse|all] [--gpus N] [--ops N]
 * [--kernels N] [--seed N] [--force auto|none|coalesce|cache]
 * (see tb/dualopt/dualopt_gpu_tb.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualopt_de.h"
#include "dualopt_gpu_tb.h"
#include "lockstep.h"

static int bad(const char *fmt, const char *v) { return ls_bad_arg("tb_dualopt", fmt, v); }

static int num(const char *s, unsigned long long *v) { return ls_num_arg(s, v); }

int dualopt_gpu_wanted(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--gpu") == 0)
            return 1;
    return 0;
}

unsigned dualopt_gpu_default_ops(dualopt_gpu_kind kind)
{
    return kind == DUALOPT_GPU_K_LOCAL ? 4000 : 400;
}

/* Replays one GPU's RDMA cache stream into the Verilated cache: each request
 * held until accepted, its response awaited before the next; a fetch is
 * answered the next cycle with the line the composition's fetch returned;
 * every write-back and response compared with the functional core's. */
int dualopt_gpu_rtl_rcache(const dut_ops *const *duts, const dualopt_gpu_rc_log *l, unsigned gpu,
                           uint64_t *cycles, char *msg, size_t len)
{
    const cohkit_unit_desc *u = cohkit_unit_find("dualopt-rcache");
    const dut_ops *d = u ? ls_dut_find(duts, u, "default") : NULL;
    dualopt_rcache_cfg c;
    dualopt_rcache_geom g;
    uint64_t *in, *out, cyc = 0, limit;
    size_t ev = 0;
    unsigned sent = 0, nwb = 0, fill = 0, fetched = 0, dw;
    void *h;
    int rc = 0;
    if (!d) {
        snprintf(msg, len, "no Verilated dualopt_rcache_default in this build");
        return -1;
    }
    dualopt_rcache_cfg_default(&c);
    dualopt_rcache_geom_of(&c, &g);
    dw = g.dww;
    if (d->in_words != g.in_words || d->out_words != g.out_words) {
        snprintf(msg, len, "%s: port layout differs from the model's", d->module);
        return -1;
    }
    in = calloc(g.in_words, sizeof *in);
    out = calloc(g.out_words, sizeof *out);
    h = d->create(gpu + 1);
    if (!in || !out || !h) {
        snprintf(msg, len, "out of memory");
        free(in);
        free(out);
        if (h)
            d->destroy(h);
        return -1;
    }
    d->eval(h, in, out); /* reset: two cycles with rst_ni low */
    d->tick(h);
    d->eval(h, in, out);
    d->tick(h);
    in[0] = 1;
    limit = 20000 + 40 * (uint64_t)l->n + 4000 * (uint64_t)l->n / 1000 + 8 * l->nw;
    for (; ev < l->n && cyc < limit * 4; cyc++) {
        const dualopt_gpu_rc_ev *e = &l->ev[ev];
        uint64_t want_line = e->op == DUALOPT_RCACHE_KERNEL ? 0 : e->addr >> 6;
        in[g.i_req_valid] = !sent;
        in[g.i_req_op] = e->op;
        in[g.i_req_addr] = e->addr;
        in[g.i_req_mask] = e->mask;
        memset(in + g.i_req_data, 0, dw * sizeof *in);
        memcpy(in + g.i_req_data, e->data, DUALOPT_E2E_LINE);
        in[g.i_rsp_ready] = 1;
        in[g.i_out_ready] = 1;
        in[g.i_fill_valid] = fill;
        memset(in + g.i_fill_data, 0, dw * sizeof *in);
        if (fill)
            memcpy(in + g.i_fill_data, e->fill, DUALOPT_E2E_LINE);
        d->eval(h, in, out);
        if (!sent && (out[g.o_req_ready] & 1))
            sent = 1;
        if (fill && (out[g.o_fill_ready] & 1))
            fill = 0;
        if (out[g.o_out_valid] & 1) {
            uint64_t line = out[g.o_out_line];
            if ((out[g.o_out_kind] & 1) == 0) { /* fetch */
                if (!e->fetched || fetched || line != want_line) {
                    snprintf(msg, len,
                             "gpu %u cache event %zu: RTL fetches line 0x%llx, the model %s "
                             "0x%llx",
                             gpu, ev, (unsigned long long)line,
                             e->fetched ? "fetched" : "did not fetch", (unsigned long long)want_line);
                    rc = -1;
                    break;
                }
                fetched = 1;
                fill = 1;
            } else {
                const dualopt_rcache_wb *w = e->op == DUALOPT_RCACHE_KERNEL
                                         ? (nwb < e->nwb ? &l->wb[e->wb0 + nwb] : NULL)
                                         : (nwb < e->res.nwb ? &e->res.wb : NULL);
                if (!w || w->line != line || w->mask != out[g.o_out_mask] ||
                    memcmp(w->data, out + g.o_out_data, DUALOPT_E2E_LINE) != 0) {
                    snprintf(msg, len,
                             "gpu %u cache event %zu: RTL write-back %u of line 0x%llx mask "
                             "0x%llx differs from the model's",
                             gpu, ev, nwb, (unsigned long long)line,
                             (unsigned long long)out[g.o_out_mask]);
                    rc = -1;
                    break;
                }
                nwb++;
            }
        }
        if (out[g.o_rsp_valid] & 1) {
            unsigned kind = (unsigned)out[g.o_rsp_kind];
            unsigned want_kind = e->op == DUALOPT_RCACHE_KERNEL ? DUALOPT_RCACHE_FLUSH : e->res.kind;
            unsigned want_wbs = e->op == DUALOPT_RCACHE_KERNEL ? e->nwb : e->res.nwb;
            unsigned want_inv = e->op == DUALOPT_RCACHE_KERNEL ? e->ninv : 0;
            int data_bad = (kind == DUALOPT_RCACHE_HIT || kind == DUALOPT_RCACHE_MISS) &&
                           memcmp(out + g.o_rsp_data, e->res.rdata, DUALOPT_E2E_LINE) != 0;
            if (!sent || kind != want_kind || out[g.o_rsp_line] != want_line ||
                out[g.o_rsp_wbs] != want_wbs || out[g.o_rsp_inv] != want_inv || data_bad ||
                nwb != want_wbs || (e->fetched && !fetched)) {
                snprintf(msg, len,
                         "gpu %u cache event %zu (%s 0x%llx): RTL answers kind %u line 0x%llx "
                         "wbs %llu inv %llu%s, the model kind %u line 0x%llx wbs %u inv %u",
                         gpu, ev,
                         e->op == DUALOPT_RCACHE_RD ? "RD" : e->op == DUALOPT_RCACHE_WR ? "WR" : "KERNEL",
                         (unsigned long long)e->addr, kind,
                         (unsigned long long)out[g.o_rsp_line],
                         (unsigned long long)out[g.o_rsp_wbs],
                         (unsigned long long)out[g.o_rsp_inv], data_bad ? " (data differs)" : "",
                         want_kind, (unsigned long long)want_line, want_wbs, want_inv);
                rc = -1;
                break;
            }
            ev++;
            sent = nwb = fetched = fill = 0;
        }
        d->tick(h);
    }
    if (rc == 0 && ev < l->n) {
        snprintf(msg, len, "gpu %u: RTL cache stuck at event %zu of %zu after %llu cycles", gpu,
                 ev, l->n, (unsigned long long)cyc);
        rc = -1;
    }
    *cycles = cyc;
    d->destroy(h);
    free(in);
    free(out);
    return rc;
}

/* Replays one GPU's decision engine stream into the Verilated engine of
 * the same configuration (dualopt_de_<preset>): one access a cycle (held
 * while not ready), a kernel boundary as a one-cycle kernel_i pulse; every
 * dec_valid_o pulse compared with the core's decision (mode and the five
 * counters), none missing at the end. */
int dualopt_gpu_rtl_de(const dut_ops *const *duts, const char *preset, const dualopt_gpu_de_log *l,
                       unsigned gpu, uint64_t *cycles, char *msg, size_t len)
{
    const cohkit_unit_desc *u = cohkit_unit_find("dualopt-de");
    const dut_ops *d = u ? ls_dut_find(duts, u, preset) : NULL;
    dualopt_de_in in;
    dualopt_de_out out;
    uint64_t cyc = 0, limit = 2 * (uint64_t)l->n + 100;
    size_t ev = 0, nd = 0;
    unsigned tail = 0;
    void *h;
    int rc = 0;
    if (!d) {
        snprintf(msg, len, "no Verilated dualopt_de_%s in this build", preset);
        return -1;
    }
    if (d->in_words != sizeof in / sizeof(uint64_t) ||
        d->out_words != sizeof out / sizeof(uint64_t)) {
        snprintf(msg, len, "%s: port layout differs from the model's", d->module);
        return -1;
    }
    if ((h = d->create(gpu + 1)) == NULL) {
        snprintf(msg, len, "%s: cannot create", d->module);
        return -1;
    }
    memset(&in, 0, sizeof in);
    d->eval(h, (const uint64_t *)&in, (uint64_t *)&out);
    d->tick(h);
    d->eval(h, (const uint64_t *)&in, (uint64_t *)&out);
    d->tick(h);
    in.rst_ni = 1;
    for (; cyc < limit && (ev < l->n || tail < DUALOPT_DE_DECIDE_LATENCY + 2); cyc++) {
        const dualopt_gpu_de_ev *e = ev < l->n ? &l->ev[ev] : NULL;
        in.acc_valid_i = e && !e->kernel;
        in.kernel_i = e && e->kernel;
        in.acc_kind_i = e ? e->kind : 0;
        in.acc_hit_i = e ? e->hit : 0;
        in.acc_mask_i = e ? e->mask : 0;
        d->eval(h, (const uint64_t *)&in, (uint64_t *)&out);
        if (e && (e->kernel || out.acc_ready_o))
            ev++;
        if (!e)
            tail++;
        if (out.dec_valid_o) {
            if (nd >= l->nd || out.dec_mode_o != l->mode[nd] ||
                out.dec_total_o != l->dec[nd].total || out.dec_remote_o != l->dec[nd].remote ||
                out.dec_reads_o != l->dec[nd].reads || out.dec_words_o != l->dec[nd].words ||
                out.dec_hits_o != l->dec[nd].hits) {
                snprintf(msg, len,
                         "gpu %u: RTL decision %zu %s (total %llu remote %llu reads %llu words "
                         "%llu hits %llu) differs from the core's %s",
                         gpu, nd, dualopt_de_mode_str((dualopt_de_mode)out.dec_mode_o),
                         (unsigned long long)out.dec_total_o, (unsigned long long)out.dec_remote_o,
                         (unsigned long long)out.dec_reads_o, (unsigned long long)out.dec_words_o,
                         (unsigned long long)out.dec_hits_o,
                         nd < l->nd ? dualopt_de_mode_str((dualopt_de_mode)l->mode[nd]) : "(none)");
                rc = -1;
                break;
            }
            nd++;
        }
        d->tick(h);
    }
    if (rc == 0 && (ev < l->n || nd != l->nd)) {
        snprintf(msg, len, "gpu %u: RTL engine took %zu of %zu events and made %zu of %zu "
                 "decisions",
                 gpu, ev, l->n, nd, l->nd);
        rc = -1;
    }
    *cycles = cyc;
    d->destroy(h);
    return rc;
}

static const char *const force_names[] = {"auto", "none", "coalesce", "cache", NULL};

static void modes(char *buf, size_t len, const dualopt_gpu_kernel *k, const dualopt_gpu_stats *st)
{
    size_t n = 0;
    unsigned kk, g;
    buf[0] = '\0';
    for (kk = 0; kk < k->kernels; kk++) {
        n += (size_t)snprintf(buf + n, len - n, "%skernel %u:", kk ? "; " : "", kk);
        for (g = 0; g < k->gpus && n < len; g++)
            n += (size_t)snprintf(buf + n, len - n, " %s", dualopt_de_mode_str((dualopt_de_mode)st->mode[g][kk]));
        if (n >= len)
            break;
    }
}

static void print_stats(const char *what, const dualopt_gpu_stats *st)
{
    printf("  %s: %llu cycles, requests %llu (local %llu, remote %llu, bypassed %llu); MSHR "
           "hits %llu misses %llu stalls %llu\n",
           what, (unsigned long long)st->cycles, (unsigned long long)st->requests,
           (unsigned long long)st->local, (unsigned long long)st->remote,
           (unsigned long long)st->bypassed, (unsigned long long)st->mshr_hits,
           (unsigned long long)st->mshr_misses, (unsigned long long)st->mshr_stalls);
    printf("  %s: link %llu bytes, %llu flits (read requests %llu, line responses %llu, "
           "coalesced packets %llu with %llu slots, writes %llu)\n",
           what, (unsigned long long)st->bytes, (unsigned long long)st->flits,
           (unsigned long long)st->req_msgs, (unsigned long long)st->rd_line_rsp,
           (unsigned long long)st->packets, (unsigned long long)st->slots,
           (unsigned long long)st->wr_msgs);
    printf("  %s: RDMA cache hits %llu misses %llu, write hits %llu misses %llu, write-backs "
           "%llu (%llu at the flushes)\n",
           what, (unsigned long long)st->rc_hits, (unsigned long long)st->rc_misses,
           (unsigned long long)st->rc_whits, (unsigned long long)st->rc_wmiss,
           (unsigned long long)st->rc_wbs, (unsigned long long)st->rc_flush_wbs);
}

static int run(const dut_ops *const *duts, dualopt_gpu_kind kind, unsigned gpus, unsigned kernels,
               unsigned ops, uint64_t seed, int force, int compare)
{
    dualopt_gpu_rc_log logs[DUALOPT_E2E_GPUS_MAX];
    dualopt_gpu_de_log dlogs[DUALOPT_E2E_GPUS_MAX];
    dualopt_gpu_kernel k;
    dualopt_gpu_opts o;
    dualopt_gpu_stats st, base;
    dualopt_gpu_result r;
    dualopt_gpu_check_res c;
    char err[512], mb[512];
    int fail = 0, kd;
    if (dualopt_gpu_kernel_gen(&k, kind, gpus, kernels, seed, ops, err, sizeof err) != 0) {
        fprintf(stderr, "tb_dualopt: %s\n", err);
        return 1;
    }
    dualopt_gpu_opts_default(&o);
    o.force = (dualopt_gpu_force)force;
    memset(logs, 0, sizeof logs);
    memset(dlogs, 0, sizeof dlogs);
    if (duts) {
        o.rclog = logs;
        o.delog = dlogs;
    }
    printf("gpu: kernel %s, seed %llu, %u GPUs, %u kernels of %u accesses per GPU, mode %s\n",
           dualopt_gpu_kind_names[kind], (unsigned long long)seed, gpus, kernels, ops, force_names[force]);
    if (dualopt_gpu_run(&o, &k, &st, &r, err, sizeof err) != 0) {
        printf("  run: %s\n", err);
        dualopt_gpu_kernel_free(&k);
        return 1;
    }
    modes(mb, sizeof mb, &k, &st);
    printf("  modes per GPU: %s\n", mb);
    print_stats(force_names[force], &st);
    if (dualopt_gpu_check(&k, &r, &c, err, sizeof err) != 0) {
        printf("  check: FAIL: %s (wrong %llu, missing %llu, repeated %llu, image bytes lost "
               "%llu)\n",
               err, (unsigned long long)c.wrong, (unsigned long long)c.missing,
               (unsigned long long)c.extra, (unsigned long long)c.lost);
        fail = 1;
    } else {
        printf("  check: every loaded word equals memory (%llu lanes, %llu bytes), memory after "
               "every flush equals the stores (%llu bytes compared)\n",
               (unsigned long long)c.lanes, (unsigned long long)c.bytes,
               (unsigned long long)c.image_bytes);
    }
    dualopt_gpu_result_free(&r);
    if (duts && !fail) {
        uint64_t cyc, tot = 0, evs = 0, wbs = 0;
        unsigned g;
        for (g = 0; g < gpus && !fail; g++) {
            if (dualopt_gpu_rtl_rcache(duts, &logs[g], g, &cyc, err, sizeof err) != 0) {
                printf("  RTL: FAIL: %s\n", err);
                fail = 1;
            }
            tot += cyc;
            evs += logs[g].n;
            wbs += logs[g].nw;
        }
        if (!fail)
            printf("  RTL: every GPU's RDMA cache stream (%llu requests and flushes, %llu flush "
                   "write-backs) replayed into the Verilated dualopt_rcache_default: every "
                   "response, fetch and write-back equal (%llu cycles)\n",
                   (unsigned long long)evs, (unsigned long long)wbs, (unsigned long long)tot);
        evs = tot = wbs = 0;
        for (g = 0; g < gpus && !fail && force == DUALOPT_GPU_AUTO; g++) {
            if (dualopt_gpu_rtl_de(duts, o.de_preset, &dlogs[g], g, &cyc, err, sizeof err) != 0) {
                printf("  RTL: FAIL: %s\n", err);
                fail = 1;
            }
            tot += cyc;
            evs += dlogs[g].n;
            wbs += dlogs[g].nd;
        }
        if (!fail && force == DUALOPT_GPU_AUTO)
            printf("  RTL: every GPU's decision engine stream (%llu accesses and kernel "
                   "boundaries) replayed into the Verilated dualopt_de_%s: its %llu decisions "
                   "equal, mode and counters (%llu cycles)\n",
                   (unsigned long long)evs, o.de_preset, (unsigned long long)wbs,
                   (unsigned long long)tot);
    }
    for (kd = 0; kd < DUALOPT_E2E_GPUS_MAX; kd++) {
        dualopt_gpu_rc_log_free(&logs[kd]);
        dualopt_gpu_de_log_free(&dlogs[kd]);
    }
    if (compare && !fail) {
        o.force = DUALOPT_GPU_FORCE_NONE;
        if (dualopt_gpu_run(&o, &k, &base, &r, err, sizeof err) != 0) {
            printf("  baseline run: %s\n", err);
            fail = 1;
        } else {
            print_stats("none", &base);
            if (dualopt_gpu_check(&k, &r, &c, err, sizeof err) != 0) {
                printf("  baseline check: FAIL: %s\n", err);
                fail = 1;
            }
            printf("  link flits, %s vs none: %llu / %llu = %.1f %%\n", force_names[force],
                   (unsigned long long)st.flits, (unsigned long long)base.flits,
                   base.flits ? 100.0 * (double)st.flits / (double)base.flits : 0.0);
            dualopt_gpu_result_free(&r);
        }
    }
    dualopt_gpu_kernel_free(&k);
    return fail;
}

int dualopt_gpu_main(int argc, char **argv, const dut_ops *const *duts)
{
    int i, kind = -1, force = 0, fail = 0, kd, rtl = 1;
    unsigned long long gpus = 4, kernels = 2, ops = 0, seed = 1, v;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--gpu") == 0)
            continue;
        if (strcmp(a, "--c-only") == 0) {
            rtl = 0;
            continue;
        }
        if (val == NULL)
            return bad("%s needs a value (see --help)", a);
        i++;
        if (strcmp(a, "--kernel") == 0) {
            if (strcmp(val, "all") == 0)
                kind = -1;
            else if ((kind = dualopt_gpu_kind_of(val)) < 0)
                return bad("--kernel: '%s' is not a kernel kind of --gpu (local sparse reuse all)",
                           val);
        } else if (strcmp(a, "--gpus") == 0) {
            if (num(val, &gpus) != 0 || gpus < 2 || gpus > DUALOPT_E2E_GPUS_MAX)
                return bad("--gpus: '%s' is not a GPU count (2..4)", val);
        } else if (strcmp(a, "--kernels") == 0) {
            if (num(val, &kernels) != 0 || kernels < 1 || kernels > 8)
                return bad("--kernels: '%s' is not a kernel count (1..8)", val);
        } else if (strcmp(a, "--ops") == 0) {
            if (num(val, &ops) != 0 || ops < 1 || ops > 100000)
                return bad("--ops: '%s' is not an access count (1..100000)", val);
        } else if (strcmp(a, "--seed") == 0) {
            if (num(val, &seed) != 0)
                return bad("--seed: '%s' is not a non-negative integer", val);
        } else if (strcmp(a, "--force") == 0) {
            for (force = 0; force_names[force] && strcmp(force_names[force], val) != 0; force++)
                ;
            if (!force_names[force])
                return bad("--force: '%s' is not auto, none, coalesce or cache", val);
        } else
            return bad("unknown option '%s' with --gpu (see --help)", a);
    }
    (void)v;
    for (kd = 0; kd < DUALOPT_GPU_K_N; kd++) {
        if (kind >= 0 && kd != kind)
            continue;
        fail |= run(rtl ? duts : NULL, (dualopt_gpu_kind)kd, (unsigned)gpus, (unsigned)kernels,
                    ops ? (unsigned)ops : dualopt_gpu_default_ops((dualopt_gpu_kind)kd), seed, force,
                    force != DUALOPT_GPU_FORCE_NONE);
    }
    printf("%s\n", fail ? "FAIL" : "PASS");
    return fail;
}
