/*
 * dualopt-kernel: the DualOpt kernels as ./tb_dualopt describes them on its
 * command line (--e2e: the end-to-end composition's kernel kinds, GPUs and
 * loads; --gpu: the GPU model's kernels, their count and accesses; --sys:
 * the cycle-level GPU), run with --c-only: each kernel generated, run
 * through the composition of timing shells or the functional cores in
 * every mode and checked against memory (tb/dualopt/dualopt_e2e_tb.c,
 * dualopt_gpu_tb.c, dualopt_sys_tb.c). The input is the words of the
 * command line; --e2e is added when no mode is named, --fail-prefix (a
 * file to write) is left out, and numbers but --seed's stay at most 64 so
 * that a run stays short.
 *
 * Checked: exit status 0 (every check passed), or 2 with one line on
 * standard error and nothing on standard output.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "dualopt_e2e_tb.h"
#include "fuzz.h"

#define MAX_WORDS 40

int fuzz_dualopt_kernel_init(const char *arg)
{
    (void)arg;
    return 0;
}

static int no_unit(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fuzz_fail("the composition ran a unit's lockstep bench");
}

static int hook_main(int argc, char **argv)
{
    static const dut_ops *const none[] = {NULL};
    int handled = 0, rc = dualopt_tb_hook(argc, argv, &handled, none, no_unit);
    if (!handled)
        fuzz_fail("tb_dualopt's hook did not take a composition's options");
    return rc;
}

void fuzz_dualopt_kernel_one(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1), *w[MAX_WORDS], *argv[MAX_WORDS + 4];
    int nw, argc = 0, i, mode = 0;
    fuzz_run r;
    if (buf == NULL)
        fuzz_fail("out of memory");
    memcpy(buf, data, size);
    buf[size] = '\0';
    nw = fuzz_words(buf, w, MAX_WORDS);
    argv[argc++] = "tb_dualopt";
    for (i = 0; i < nw; i++) {
        if (strcmp(w[i], "--seed") == 0 && i + 1 < nw) {
            argv[argc++] = w[i++];
            argv[argc++] = w[i];
            continue;
        }
        if (!fuzz_small(&w[i], 1, 64)) {
            nw = -1;
            break;
        }
        if (strcmp(w[i], "--fail-prefix") == 0) {
            i++;
            continue;
        }
        mode |= strcmp(w[i], "--e2e") == 0 || strcmp(w[i], "--gpu") == 0 || strcmp(w[i], "--sys") == 0;
        argv[argc++] = w[i];
    }
    if (nw >= 0) {
        if (!mode)
            argv[argc++] = "--e2e";
        argv[argc++] = "--c-only";
        argv[argc] = NULL;
        fuzz_call(hook_main, argc, argv, NULL, 0, &r);
        if (r.rc == 2)
            fuzz_check_refusal(&r, "tb_dualopt");
        else if (r.rc != 0)
            fuzz_fail("tb_dualopt: exit %d:\n%s%s", r.rc, r.out, r.err);
        fuzz_run_free(&r);
    }
    free(buf);
}
