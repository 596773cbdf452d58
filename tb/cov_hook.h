/*
 * Coverage build of a Verilator shim (make coverage, scripts/verilate.sh with
 * VCOV=1): included by <module>_shim.cpp only when Verilator's --coverage-*
 * options are on (VM_COVERAGE), after the model's own sources (the shim is
 * compiled in one unit with V<module>__ALL.cpp, scripts/verilate.sh), so the
 * model's coverage counters are visible here.
 *
 * Every instance of the module adds its counters, when it is destroyed, into
 * one sum for the process; at exit the sum is written, if COHKIT_COV_DIR is
 * set, to COHKIT_COV_DIR/<module>/<pid>.dat (Verilator's coverage format,
 * read by verilator_coverage), through a fresh instance whose counters are
 * set to the sum. One file per process and module, whatever the number of
 * instances (a Criterion test creates many).
 */
#ifndef COV_HOOK_H
#define COV_HOOK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "verilated_cov.h"

namespace cohkit_cov {

template <class Top> struct Sum {
    static constexpr size_t N =
        sizeof(((Top *)nullptr)->rootp->vlSymsp->__Vcoverage) / sizeof(((Top *)nullptr)->rootp->vlSymsp->__Vcoverage[0]);
    uint64_t count[N] = {};
    const char *module = nullptr;
    bool used = false;
};

template <class Top> Sum<Top> &sum()
{
    static Sum<Top> s;
    return s;
}

template <class Top> void write_at_exit()
{
    Sum<Top> &s = sum<Top>();
    const char *dir = getenv("COHKIT_COV_DIR");
    if (!s.used || dir == nullptr || *dir == '\0')
        return;
    std::string d = std::string(dir) + "/" + s.module;
    mkdir(dir, 0777);
    mkdir(d.c_str(), 0777);
    VerilatedContext ctx;
    Top *top = new Top(&ctx);
    for (size_t i = 0; i < Sum<Top>::N; i++)
        top->rootp->vlSymsp->__Vcoverage[i] =
            static_cast<uint32_t>(s.count[i] > 0xffffffffu ? 0xffffffffu : s.count[i]);
    std::string f = d + "/" + std::to_string(static_cast<long>(getpid())) + ".dat";
    ctx.coveragep()->write(f.c_str());
    delete top;
}

/* Called by the shim's destroy() before the model is deleted. */
template <class Top> void collect(Top *top, const char *module)
{
    Sum<Top> &s = sum<Top>();
    if (!s.used) {
        s.used = true;
        s.module = module;
        atexit(write_at_exit<Top>);
    }
    for (size_t i = 0; i < Sum<Top>::N; i++)
        s.count[i] += top->rootp->vlSymsp->__Vcoverage[i];
}

}  // namespace cohkit_cov

#endif
