/* Helpers shared by the Criterion test files (tb/test_*.c). */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

/* Runs a shell command; its exit status, or -1 if it did not exit. */
int run(const char *cmd);
/* A whole file as a NUL-terminated string (malloc), or NULL. */
char *slurp(const char *path);

#endif
