// Executor overhead: examples/allgather_gemm.py's GEMM kernel run by ptodist (one rank, one cube core,
// the comm kernel dropped) against the same tile-kernel calls (loads, moves, matmuls, stores) made
// directly from C++ on the same data, interleaved in one run. overhead = (executor - direct) / direct.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <new>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../examples/orchestration_rewrite.h"
#include "ptodist/frontend/parser.h"
#include "ptodist/kernels/convert.h"
#include "ptodist/kernels/copy.h"
#include "ptodist/kernels/matmul.h"
#include "ptodist/runtime/runtime.h"
#include "ptodist/transforms/pass.h"

namespace {

using ptodist::kernels::ElemType;
using ptodist::kernels::TileView;
using ptodist::runtime::HostTensor;

// 64-byte-aligned storage for std::vector.
template <typename T>
struct AlignedAllocator {
  using value_type = T;
  AlignedAllocator() = default;
  template <typename U>
  AlignedAllocator(const AlignedAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{64})); }
  void deallocate(T* p, size_t) { ::operator delete (p, std::align_val_t{64}); }
  bool operator==(const AlignedAllocator&) const { return true; }
};

struct Config {
  std::string file = PTODIST_SOURCE_DIR "/examples/allgather_gemm.py";
  std::vector<long long> m_locals = {256, 1024};
  std::map<std::string, long long> defines;  // --define NAME=VALUE: other factory parameters (tile sizes)
  int warmup = 3;
  int rounds = 15;
  // --flush-mb N: before every timed call, write N MiB of scratch (untimed), so each round starts with
  // its code and data out of the core's private caches, as after other work between rounds.
  long long flush_mib = 0;
};

// The example's sizes after -D bindings (factory defaults otherwise).
struct Shape {
  long long m, k, n, m_tile, k_tile, n_tile;
};

long long factory_value(const ptodist::ir::ProgramNode& p, const std::map<std::string, long long>& d,
                        const std::string& name) {
  if (auto it = d.find(name); it != d.end()) return it->second;
  for (const auto& fp : p.factory_params)
    if (fp.var->name == name && fp.default_value)
      return ptodist::ir::as_const_int(fp.default_value).value_or(0);
  return 0;
}

// Drops every submission but the GEMM kernel's from chip orchestration's manual scope.
ptodist::ir::Program gemm_only(const ptodist::ir::Program& p) {
  return ptodist::examples::flatten_manual_scope(
      p, [](const std::string& kernel) { return kernel.find("gemm") != std::string::npos; });
}

// The tile-level GEMM-only program for one rank and one cube core, or null after printing why not.
ptodist::ir::Program compile(const Config& c, long long m_local, Shape& shape) {
  static ptodist::SourceManager sources;
  ptodist::DiagnosticEngine diags;
  std::string error;
  const ptodist::SourceFile* file = sources.load(c.file, &error);
  if (!file) {
    std::fprintf(stderr, "executor_overhead_bench: %s\n", error.c_str());
    return nullptr;
  }
  ptodist::ir::Module module = ptodist::frontend::parse_module(*file, diags);
  if (!module || module->programs.empty()) {
    diags.print(std::cerr);
    return nullptr;
  }
  const ptodist::ir::Program source = module->programs[0];
  std::map<std::string, long long> defines = c.defines;
  defines["world_size"] = 1;
  defines["gemm_cores"] = 1;
  defines["m_local"] = m_local;
  ptodist::transforms::PassContext cx{.diags = diags,
                                      .profile = ptodist::ChipProfile{},
                                      .bindings = defines,
                                      .disabled = {},
                                      .module = module};
  ptodist::ir::Program program = ptodist::transforms::run_pipeline(source, cx);
  if (!program || diags.has_errors()) {
    diags.print(std::cerr);
    return nullptr;
  }
  auto v = [&](const char* name) { return factory_value(*source, defines, name); };
  shape = Shape{m_local, v("k"), v("n"), v("m_tile"), v("k_tile"), v("n_tile")};
  return gemm_only(program);
}

// A tile buffer at a 64-byte-aligned address, as the executor's core buffers are.
template <typename T>
using AlignedTile = std::vector<T, AlignedAllocator<T>>;

// What the GEMM kernel does for its local chunks, as direct kernel calls into tile buffers of the
// sizes plan-memory gave it: per (chunk, N block) task and K tile, load A and W tiles (Mat), move
// them (Left, Right), matmul / matmul_acc into the accumulator; then store it.
struct Direct {
  Shape s;
  AlignedTile<uint16_t> a_mat, w_mat, a_left, w_right;
  AlignedTile<float> acc;

  explicit Direct(Shape shape)
      : s(shape),
        a_mat(s.m_tile * s.k_tile),
        w_mat(s.k_tile * s.n_tile),
        a_left(s.m_tile * s.k_tile),
        w_right(s.k_tile * s.n_tile),
        acc(s.m_tile * s.n_tile) {}

  void run(const uint16_t* a, const uint16_t* w, float* out) {
    const int mt = static_cast<int>(s.m_tile), kt = static_cast<int>(s.k_tile),
              nt = static_cast<int>(s.n_tile);
    const TileView ga{const_cast<uint16_t*>(a), static_cast<int>(s.m), static_cast<int>(s.k), s.k,
                      ElemType::F16};
    const TileView gw{const_cast<uint16_t*>(w), static_cast<int>(s.k), static_cast<int>(s.n), s.n,
                      ElemType::F16};
    const TileView gout{out, static_cast<int>(s.m), static_cast<int>(s.n), s.n, ElemType::F32};
    const TileView am = TileView::contiguous(a_mat.data(), mt, kt, ElemType::F16);
    const TileView wm = TileView::contiguous(w_mat.data(), kt, nt, ElemType::F16);
    const TileView al = TileView::contiguous(a_left.data(), mt, kt, ElemType::F16);
    const TileView wr = TileView::contiguous(w_right.data(), kt, nt, ElemType::F16);
    const TileView ac = TileView::contiguous(acc.data(), mt, nt, ElemType::F32);
    const long long n_tiles = s.n / s.n_tile, tasks = (s.m / s.m_tile) * n_tiles;
    for (long long task = 0; task < tasks; ++task) {
      const int row = static_cast<int>(task / n_tiles * s.m_tile),
                n0 = static_cast<int>(task % n_tiles * s.n_tile);
      for (int k0 = 0; k0 < s.k; k0 += kt) {
        ptodist::kernels::copy(am, ga.sub(row, k0, mt, kt));
        ptodist::kernels::copy(wm, gw.sub(k0, n0, kt, nt));
        ptodist::kernels::copy(al, am);
        ptodist::kernels::copy(wr, wm);
        if (k0 == 0) {
          ptodist::kernels::matmul(al, wr, ac);
        } else {
          ptodist::kernels::matmul_acc(al, wr, ac);
        }
      }
      ptodist::kernels::copy(gout.sub(row, n0, mt, nt), ac);
    }
  }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double clock_seconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

struct Times {
  double wall = 0;
  double process_cpu = 0;  // every thread: host, rank and core threads for the executor
  // The calling thread alone. In this configuration (one rank, one core) the executor runs the whole
  // round on it (the calling thread runs the last rank, a submitter that joins at once runs its last
  // block), so this is the round's work without the time the thread spent preempted: the figure
  // least disturbed by other jobs on the machine.
  double thread_cpu = 0;
};

template <typename F>
Times timed(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  const double p0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID), c0 = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
  f();
  Times t;
  t.thread_cpu = clock_seconds(CLOCK_THREAD_CPUTIME_ID) - c0;
  t.process_cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - p0;
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return t;
}

double min_of(const std::vector<double>& v) {
  return *std::min_element(v.begin(), v.end());
}

// The overhead in percent, as the median of per-round ratios and as the ratio of the minima.
void print_overhead(const char* what, const std::vector<double>& exec, const std::vector<double>& direct) {
  std::vector<double> ratio;
  for (size_t i = 0; i < exec.size(); ++i) ratio.push_back(exec[i] / direct[i]);
  std::printf(
      "  %s: executor median %.3f ms (min %.3f), direct median %.3f ms (min %.3f) -> overhead %+.1f%% "
      "(median of per-round ratios), %+.1f%% (min vs min)\n",
      what, median(exec) * 1e3, min_of(exec) * 1e3, median(direct) * 1e3, min_of(direct) * 1e3,
      (median(ratio) - 1) * 100, (min_of(exec) / min_of(direct) - 1) * 100);
}

// Random fp16 A and W and the host arguments of one rank. The direct calls read the same `inputs` and
// `weight` bytes as the executor: with copies of their own, their inputs would be cold after every
// executor round while the two executor ways share theirs, which favoured the executor.
std::map<std::string, HostTensor> make_inputs(const Shape& s) {
  std::mt19937 gen(7);
  std::normal_distribution<float> dist(0.0f, 0.1f);
  auto random_fp16 = [&](std::vector<long long> shape) {
    HostTensor t;
    t.dtype = ptodist::ir::DType::FP16;
    t.shape = std::move(shape);
    t.data.resize(t.numel() * 2);
    auto* h = reinterpret_cast<uint16_t*>(t.data.data());
    for (long long i = 0; i < t.numel(); ++i) h[i] = ptodist::kernels::fp32_to_fp16(dist(gen));
    return t;
  };
  std::map<std::string, HostTensor> args;
  args["inputs"] = random_fp16({1, s.m, s.k});
  args["weight"] = random_fp16({s.k, s.n});
  args["outputs"] = HostTensor::zeros(ptodist::ir::DType::FP32, {1, s.m, s.n});
  return args;
}

// One shape: interleaved executor rounds and direct sequences; false when the run failed.
bool measure(const Config& c, long long m_local) {
  Shape s{};
  ptodist::ir::Program program = compile(c, m_local, s);
  if (!program) return false;
  std::map<std::string, HostTensor> args = make_inputs(s);
  const auto* a = reinterpret_cast<const uint16_t*>(args["inputs"].data.data());
  const auto* w = reinterpret_cast<const uint16_t*>(args["weight"].data.data());
  std::vector<float> direct_out(s.m * s.n);

  // The executor twice: with its windows kept between rounds (`bench --persistent`), which is the
  // executor alone, and re-zeroed each round (`bench`'s default), which adds a memset of the window
  // heap per round. This GEMM-only program uses no signal, so both give the same outputs.
  ptodist::runtime::RunOptions opts;
  opts.ranks = 1;
  opts.watchdog_seconds = 30;
  opts.persistent = true;
  ptodist::runtime::Runtime kept(program, opts);
  opts.persistent = false;
  ptodist::runtime::Runtime zeroed(program, opts);
  Direct direct(s);
  enum { kKept, kZeroed, kDirect, kWays };
  std::vector<double> wall[kWays], cpu[kWays], thread_cpu[kWays];
  bool failed = false;
  auto exec_round = [&](ptodist::runtime::Runtime& rt) {
    auto r = rt.run(args);
    if (r.status != ptodist::runtime::RoundResult::Status::Ok) {
      std::fprintf(stderr, "%s\n", r.message.c_str());
      failed = true;
    }
  };
  // One write per cache line takes the line from whatever held it (volatile: the writes are never read).
  std::vector<char> scratch(static_cast<size_t>(c.flush_mib) << 20);
  auto flush_caches = [&] {
    volatile char* bytes = scratch.data();
    for (size_t i = 0; i < scratch.size(); i += 64) bytes[i] = static_cast<char>(bytes[i] + 1);
  };
  const std::function<void()> ways[kWays] = {[&] { exec_round(kept); }, [&] { exec_round(zeroed); },
                                             [&] { direct.run(a, w, direct_out.data()); }};
  for (int rep = 0; rep < c.warmup + c.rounds; ++rep) {
    for (int i = 0; i < kWays; ++i) {  // rotate which one goes first
      const int way = (rep + i) % kWays;
      flush_caches();
      const Times t = timed(ways[way]);
      if (failed) return false;
      if (rep < c.warmup) continue;
      wall[way].push_back(t.wall);
      cpu[way].push_back(t.process_cpu);
      thread_cpu[way].push_back(t.thread_cpu);
    }
  }
  const bool same = std::memcmp(direct_out.data(), args["outputs"].data.data(), direct_out.size() * 4) == 0;
  const long long matmuls = (s.m / s.m_tile) * (s.n / s.n_tile) * (s.k / s.k_tile);
  std::printf(
      "GEMM kernel, 1 rank, 1 cube core, A [%lld, %lld] @ W [%lld, %lld] fp16 (%lld tile matmuls, "
      "tile M %lld K %lld N %lld), %d interleaved rounds; outputs bit-identical: %s\n",
      s.m, s.k, s.k, s.n, matmuls, s.m_tile, s.k_tile, s.n_tile, c.rounds, same ? "yes" : "NO");
  if (c.flush_mib > 0)
    std::printf(" caches flushed before every timed call (%lld MiB of scratch written, untimed)\n",
                c.flush_mib);
  std::printf(" executor, windows kept between rounds (bench --persistent):\n");
  print_overhead("wall time (whole round)", wall[kKept], wall[kDirect]);
  print_overhead("CPU time (all threads)", cpu[kKept], cpu[kDirect]);
  print_overhead("CPU time (calling thread, runs the whole round here)", thread_cpu[kKept],
                 thread_cpu[kDirect]);
  std::printf(
      " executor, windows re-zeroed each round (bench's default; adds a memset of the window heap):\n");
  print_overhead("wall time (whole round)", wall[kZeroed], wall[kDirect]);
  std::printf("  target: executor overhead < 5%% of tile-kernel time (windows kept)\n");
  return same;
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--rounds" && i + 1 < argc) {
      c.rounds = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--warmup" && i + 1 < argc) {
      c.warmup = std::max(0, std::atoi(argv[++i]));
    } else if (arg == "--m-local" && i + 1 < argc) {
      c.m_locals = {std::atoll(argv[++i])};
    } else if (arg == "--flush-mb" && i + 1 < argc) {
      c.flush_mib = std::max(0LL, std::atoll(argv[++i]));
    } else if (arg == "--file" && i + 1 < argc) {
      c.file = argv[++i];
    } else if (arg == "--define" && i + 1 < argc) {
      // Small tiles (--define m_tile=16 ...) make a round mostly interpretation: the executor's own
      // cost per op, with warm caches.
      const std::string d = argv[++i];
      const size_t eq = d.find('=');
      char* end = nullptr;
      const long long v = eq == std::string::npos ? 0 : std::strtoll(d.c_str() + eq + 1, &end, 10);
      if (eq == std::string::npos || eq == 0 || end == d.c_str() + eq + 1 || *end != '\0') {
        std::fprintf(stderr, "executor_overhead_bench: --define takes NAME=INTEGER, got '%s'\n", d.c_str());
        return 2;
      }
      c.defines[d.substr(0, eq)] = v;
    } else {
      std::fprintf(stderr,
                   "usage: executor_overhead_bench [--rounds R] [--warmup W] [--m-local M] [--file F] "
                   "[--define NAME=N]... [--flush-mb N]\n");
      return 2;
    }
  }
  std::printf("matmul: %s\n", ptodist::kernels::matmul_backend().c_str());
  bool ok = true;
  for (long long m_local : c.m_locals) ok = measure(c, m_local) && ok;
  return ok ? 0 : 1;
}
