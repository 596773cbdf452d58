// rec_sim.cpp: the REC functional core in a C++ event-driven simulator, the
// shape of a component in an Akita/MGPUSim-, gem5- or Accel-Sim-style model:
// the directory is an RAII object, the invalidation sink is a lambda reached
// through a C trampoline, events sit in a std::priority_queue.
//
//   rec_sim_cpp TRACE
//
// Here: 8 GPUs, home GPU 0, an HMG-style directory (4-line groups, FIFO
// replacement). Output and TRACE as for rec_sim.c: `make examples` replays
// TRACE through build/bin/cohmodel and compares.
//
// Build against an installed library:
//   c++ -std=c++11 $(pkg-config --cflags cohkit) rec_sim.cpp $(pkg-config --libs cohkit)
#include <cohkit/cohkit.h>
#include <cohkit/rec.h>

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <queue>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

constexpr unsigned kGpus = 8, kHome = 0;
constexpr unsigned kDirService = 1, kInvProcess = 5;
constexpr unsigned kRemoteReqs = 300, kLocalReqs = 200;
constexpr uint64_t kRegionBase = 0x2000000000ull;

// The functional core as a C++ object. The directory is freed with its
// owner; copying would alias it, so it is move-only.
class RecDirectory {
public:
    RecDirectory(const rec_cfg &cfg, unsigned home) : dir_(rec_dir_new(&cfg))
    {
        if (!dir_)
            throw std::runtime_error("out of memory");
        dir_->home = home;
    }
    // on_inv(line, mask) is called for each invalidation, in order, before
    // access() returns. It must not call access() on this directory and
    // must not throw (the call passes through C code).
    template <class F> void access(rec_op op, uint64_t line, unsigned src, F &on_inv)
    {
        rec_core_access(dir_.get(), op, line, src, &trampoline<F>, &on_inv);
    }
    const rec_stats &stats() const { return dir_->st; }
    unsigned line_bits() const { return dir_->g.line_bits; }

private:
    template <class F> static void trampoline(void *ctx, uint64_t line, uint32_t mask)
    {
        (*static_cast<F *>(ctx))(line, mask);
    }
    struct Free {
        void operator()(rec_dir *d) const { rec_dir_free(d); }
    };
    std::unique_ptr<rec_dir, Free> dir_;
};

struct Request {
    rec_op op;
    uint64_t addr;
    unsigned src;
    uint64_t t_access = 0;
    unsigned pending = 0;
};

enum class Ev { Issue, DirArrive, DirAccess, InvArrive, AckArrive };

struct Event {
    uint64_t time, seq;
    Ev kind;
    unsigned gpu;
    size_t req;
};

struct Later {
    bool operator()(const Event &a, const Event &b) const
    {
        return a.time != b.time ? a.time > b.time : a.seq > b.seq;
    }
};

unsigned link_latency(unsigned a, unsigned b) { return a == b ? 1 : 20 + 2 * (a > b ? a - b : b - a); }

class Simulator {
public:
    Simulator(const rec_cfg &cfg, std::FILE *trace)
        : dir_(cfg, kHome), trace_(trace), issued_(kGpus), inv_sent_(kGpus), inv_recv_(kGpus)
    {
        for (unsigned g = 0; g < kGpus; g++) {
            rng_.emplace_back(1000 + g); // mt19937_64's output sequence is fixed by the standard
            schedule(1 + g, Ev::Issue, g, 0);
        }
    }

    void run()
    {
        while (!q_.empty()) {
            Event e = q_.top();
            q_.pop();
            now_ = e.time;
            handle(e);
        }
    }

    void report() const
    {
        const rec_stats &st = dir_.stats();
        std::printf("requests %zu  hits %" PRIu64 "  misses %" PRIu64 "  evictions %" PRIu64
                    "  invalidations %" PRIu64 " (write %" PRIu64 ", eviction %" PRIu64
                    ")  mean coalesced lines per evicted entry %.2f\n",
                    reqs_.size(), st.hits, st.misses, st.evictions, st.invalidations,
                    st.write_invs, st.evict_invs,
                    st.evictions ? double(st.evicted_lines) / double(st.evictions) : 0.0);
        for (unsigned g = 0; g < kGpus; g++)
            std::printf("gpu %u: requests %u  invalidations sent %" PRIu64 "  received %" PRIu64 "\n",
                        g, issued_[g], inv_sent_[g], inv_recv_[g]);
        std::printf("invalidation messages %" PRIu64 ", requests waiting for acks %" PRIu64 ", acks %" PRIu64
                    ", ack round trip mean %.2f max %" PRIu64 " cycles\n",
                    inv_msgs_, inv_reqs_, acks_, inv_reqs_ ? double(lat_sum_) / double(inv_reqs_) : 0.0,
                    lat_max_);
        std::printf("simulated cycles %" PRIu64 "\n", now_);
    }

private:
    void schedule(uint64_t delay, Ev kind, unsigned gpu, size_t req)
    {
        q_.push(Event{now_ + delay, seq_++, kind, gpu, req});
    }

    // 256 B groups: half the accesses to 48 hot groups, the rest to 1024.
    uint64_t next_addr(std::mt19937_64 &rng)
    {
        uint64_t r = rng();
        uint64_t group = (r & 1) ? (r >> 1) % 48 : (r >> 1) % 1024;
        return kRegionBase + group * 256 + (r >> 40) % 256;
    }

    void handle(const Event &e)
    {
        switch (e.kind) {
        case Ev::Issue: {
            unsigned g = e.gpu;
            if (issued_[g] == (g == kHome ? kLocalReqs : kRemoteReqs))
                return;
            issued_[g]++;
            uint64_t x = rng_[g]();
            Request r;
            r.op = g == kHome ? REC_OP_LW : (x % 4 == 0 ? REC_OP_RW : REC_OP_RR);
            r.src = g;
            r.addr = next_addr(rng_[g]);
            reqs_.push_back(r);
            schedule(link_latency(g, kHome), Ev::DirArrive, g, reqs_.size() - 1);
            schedule(g == kHome ? 4 + x % 16 : 2 + x % 24, Ev::Issue, g, 0);
            return;
        }
        case Ev::DirArrive: {
            uint64_t start = dir_free_ > now_ ? dir_free_ : now_;
            dir_free_ = start + kDirService;
            schedule(start - now_, Ev::DirAccess, e.gpu, e.req);
            return;
        }
        case Ev::DirAccess: {
            Request &r = reqs_[e.req];
            if (r.op == REC_OP_LW)
                std::fprintf(trace_, "LW 0x%" PRIx64 "\n", r.addr);
            else
                std::fprintf(trace_, "%s 0x%" PRIx64 " %u\n", rec_op_str(r.op), r.addr, r.src);
            r.t_access = now_;
            size_t id = e.req;
            // Runs inside rec_core_access: only schedules messages.
            auto on_inv = [this, id](uint64_t line, uint32_t mask) {
                std::printf("INV 0x%" PRIx64 " 0x%x\n", line << dir_.line_bits(), unsigned(mask));
                inv_msgs_++;
                for (unsigned g = 0; g < kGpus; g++)
                    if (mask >> g & 1) {
                        inv_sent_[g]++;
                        reqs_[id].pending++;
                        schedule(link_latency(kHome, g), Ev::InvArrive, g, id);
                    }
            };
            dir_.access(r.op, r.addr >> dir_.line_bits(), r.src, on_inv);
            if (r.pending)
                inv_reqs_++;
            return;
        }
        case Ev::InvArrive:
            inv_recv_[e.gpu]++;
            schedule(kInvProcess + link_latency(e.gpu, kHome), Ev::AckArrive, e.gpu, e.req);
            return;
        case Ev::AckArrive: {
            Request &r = reqs_[e.req];
            acks_++;
            if (--r.pending == 0) {
                uint64_t lat = now_ - r.t_access;
                lat_sum_ += lat;
                if (lat > lat_max_)
                    lat_max_ = lat;
            }
            return;
        }
        }
    }

    RecDirectory dir_;
    std::FILE *trace_;
    std::priority_queue<Event, std::vector<Event>, Later> q_;
    uint64_t now_ = 0, seq_ = 0, dir_free_ = 0;
    std::vector<std::mt19937_64> rng_;
    std::vector<Request> reqs_;
    std::vector<unsigned> issued_;
    std::vector<uint64_t> inv_sent_, inv_recv_;
    uint64_t inv_msgs_ = 0, inv_reqs_ = 0, acks_ = 0, lat_sum_ = 0, lat_max_ = 0;
};

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: rec_sim_cpp TRACE-OUT\n");
        return 2;
    }
    if (cohkit_version() / 10000 != COHKIT_VERSION_MAJOR) {
        std::fprintf(stderr, "rec_sim_cpp: library %s, built against %d.x\n", cohkit_version_string(),
                     COHKIT_VERSION_MAJOR);
        return 2;
    }
    rec_cfg cfg;
    char err[256];
    rec_cfg_preset(&cfg, "hmg");
    const char *const opts[][2] = {{"gpus", "8"}, {"entries", "128"}, {"ways", "8"}};
    for (const auto &o : opts)
        if (rec_cfg_option(&cfg, o[0], o[1], err, sizeof err) != 0) {
            std::fprintf(stderr, "rec_sim_cpp: %s\n", err);
            return 2;
        }
    if (rec_cfg_check(&cfg, err, sizeof err) != 0) {
        std::fprintf(stderr, "rec_sim_cpp: %s\n", err);
        return 2;
    }
    std::FILE *trace = std::fopen(argv[1], "w");
    if (!trace) {
        std::perror(argv[1]);
        return 2;
    }
    char args[256], name[128];
    rec_cfg_args(&cfg, args, sizeof args);
    rec_cfg_name(&cfg, name, sizeof name);
    std::fprintf(trace, "# cohmodel rec %s --home %u\n", args, kHome);
    std::printf("# rec_sim_cpp: cohkit %s (headers %d.%d.%d), %s, %u GPUs, home GPU %u\n",
                cohkit_version_string(), COHKIT_VERSION_MAJOR, COHKIT_VERSION_MINOR,
                COHKIT_VERSION_PATCH, name, kGpus, kHome);
    try {
        Simulator sim(cfg, trace);
        sim.run();
        sim.report();
    } catch (const std::exception &ex) {
        std::fprintf(stderr, "rec_sim_cpp: %s\n", ex.what());
        return 1;
    }
    if (std::fclose(trace) != 0) {
        std::perror(argv[1]);
        return 1;
    }
    return 0;
}
