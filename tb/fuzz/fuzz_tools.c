/*
 * The mains of cohmodel and cohgen, compiled here under other names so the
 * harnesses run the tools' whole command-line path in-process
 * (tb/fuzz/fuzz.h, fuzz_call).
 */
#define main fuzz_cohmodel_main
#include "cohmodel.c"
#undef main
#define main fuzz_cohgen_main
#define usage cohgen_usage
#define unit_usage cohgen_unit_usage
#include "cohgen.c"
#undef main
