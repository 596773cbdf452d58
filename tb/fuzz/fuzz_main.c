/*
 * The entry points libFuzzer calls (and tb/fuzz/replay_main.c, the same
 * harnesses without libFuzzer): the harness named by --harness=NAME.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

typedef struct {
    const char *name;   /* the harness, or the prefix of a harness family  */
    int prefix;         /* 1: NAME starts with name, the rest is the arg   */
    int (*init)(const char *arg);
    void (*one)(const uint8_t *data, size_t size);
} harness;

static const harness harnesses[] = {
    {"cohgen", 0, fuzz_cohgen_init, fuzz_cohgen_one},
    {"replay", 0, fuzz_replay_init, fuzz_replay_one},
    {"trace-", 1, fuzz_trace_init, fuzz_trace_one},
    {"tool-", 1, fuzz_tool_init, fuzz_trace_one},
#define FUZZ_HARNESS(nm, init, one) {nm, 0, init, one},
#include "harnesses.def"
#undef FUZZ_HARNESS
};

const char *fuzz_name = "?";
static const harness *selected;

static const harness *find(const char *name, const char **arg)
{
    size_t i;
    for (i = 0; i < sizeof harnesses / sizeof harnesses[0]; i++) {
        const harness *h = &harnesses[i];
        size_t l = strlen(h->name);
        if (h->prefix ? strncmp(name, h->name, l) == 0 && name[l] : strcmp(name, h->name) == 0) {
            *arg = name + (h->prefix ? l : strlen(name));
            return h;
        }
    }
    return NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *name = getenv("FUZZ_HARNESS"), *arg = "";
    int i;
    for (i = 1; i < *argc; i++)
        if (strncmp((*argv)[i], "--harness=", 10) == 0)
            name = (*argv)[i] + 10;
    if (name == NULL) {
        fprintf(stderr, "fuzz: give --harness=NAME (a folder of tb/fuzz/corpus/)\n");
        exit(2);
    }
    selected = find(name, &arg);
    if (selected == NULL || selected->init(arg) != 0) {
        fprintf(stderr, "fuzz: no harness '%s'\n", name);
        exit(2);
    }
    fuzz_name = name;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    selected->one(data, size);
    return 0;
}
