/*
 * fuzz_replay: the harnesses without libFuzzer (make fuzz-replay, built
 * with the C compiler under ASan and UBSan): every file given, or every
 * file of every folder given, fed once to the harness.
 *   fuzz_replay --harness=NAME FILE|DIR...
 * Prints the inputs replayed and the CPU time; a broken promise or a
 * sanitizer report stops it (exit status not 0).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sanitizer/common_interface_defs.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *current;

/* A sanitizer report or a broken promise names the input. */
static void name_input(void)
{
    if (current)
        fprintf(stderr, "fuzz_replay: the input was %s\n", current);
}

static void on_abort(int sig)
{
    if (current) {
        ssize_t k = write(2, "fuzz_replay: the input was ", 27);
        k += write(2, current, strlen(current));
        k += write(2, "\n", 1);
        (void)k;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (f == NULL) {
        fprintf(stderr, "fuzz_replay: cannot read %s\n", path);
        return -1;
    }
    do {
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap = cap ? 2 * cap : 4096);
            if (nb == NULL) {
                fprintf(stderr, "fuzz_replay: out of memory\n");
                exit(2);
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    /* a copy of exactly n bytes, so that ASan sees a read past the input */
    {
        uint8_t *in = malloc(n ? n : 1);
        if (in == NULL)
            exit(2);
        memcpy(in, buf, n);
        current = path;
        LLVMFuzzerTestOneInput(in, n);
        current = NULL;
        free(in);
    }
    free(buf);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of a folder, in name order: how many, or -1. */
static int replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL, p[1024];
    size_t n = 0, cap = 0, i;
    int count = 0;
    struct stat st;
    if (d == NULL)
        return -1;
    while ((e = readdir(d)) != NULL) {
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (n == cap && (names = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names)) == NULL)
            exit(2);
        if ((names[n++] = strdup(p)) == NULL)
            exit(2);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (i = 0; i < n; i++) {
        if (replay_file(names[i]) != 0)
            count = -1;
        else if (count >= 0)
            count++;
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    int i, n = 0, k;
    struct stat st;
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    __sanitizer_set_death_callback(name_input);
    atexit(name_input);
    signal(SIGABRT, on_abort);
    LLVMFuzzerInitialize(&argc, &argv);
    for (i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--", 2) == 0)
            continue;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            k = replay_dir(argv[i]);
        else
            k = replay_file(argv[i]) == 0 ? 1 : -1;
        if (k < 0)
            return 1;
        n += k;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    printf("%d inputs, %.2f s CPU\n", n,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    return 0;
}
