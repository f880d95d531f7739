// Candidate BLAS libraries, each checked against fp64 and timed on the benchmark's shapes (blas_baseline.h).
//
// OpenBLAS is the library the build links; its kernel set ("core") is process-wide and chosen when it
// loads (OPENBLAS_CORETYPE or its CPU table), so each core the CPU can run is a separate candidate,
// selected in turn with OpenBLAS's own re-initialisation (gotoblas_dynamic_quit/init). BLIS and oneDNN
// are opened with dlopen when installed: a machine without them still benchmarks, against fewer
// candidates, and says so. BLIS is called through its typed API (bli_sgemm), not its cblas_sgemm,
// whose name the already-loaded OpenBLAS would win.
#include "blas_baseline.h"

#include <cblas.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>

#include "ptodist/kernels/matmul.h"

namespace ptodist::bench {
namespace {

struct Candidate {
  std::string name;
  std::function<void()> activate;  // makes `sgemm` this candidate (OpenBLAS core switch); may be empty
  Sgemm sgemm;
};

// ---- OpenBLAS: one candidate per core type the CPU supports -------------------------------------

template <typename Fn>
Fn global_symbol(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
}

bool cpu_has_avx512_skx() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512cd");
}

// The cores of OpenBLAS 0.3.x's dynamic-arch build worth trying, widest first, kept only where the CPU has
// the instructions their kernels use (OpenBLAS itself would fault otherwise).
std::vector<std::string> openblas_cores() {
  std::vector<std::string> cores;
  if (cpu_has_avx512_skx()) {
    if (__builtin_cpu_supports("avx512bf16")) cores.push_back("Cooperlake");
    cores.push_back("SkylakeX");
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    cores.push_back("Zen");
    cores.push_back("Haswell");
  }
  return cores;
}

void openblas_sgemm(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c,
                    int ldc) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
}

void add_openblas(std::vector<Candidate>& out) {
  auto quit = global_symbol<void (*)()>("gotoblas_dynamic_quit");
  auto init = global_symbol<void (*)()>("gotoblas_dynamic_init");
  auto corename = global_symbol<char* (*)()>("openblas_get_corename");
  auto config = global_symbol<char* (*)()>("openblas_get_config");
  ptodist::kernels::prepare_openblas();  // one thread per call
  std::string version = config ? std::string(config()) : "BLAS";
  version = version.substr(0, version.find(' ', version.find(' ') + 1));  // "OpenBLAS 0.3.21"
  if (quit == nullptr || init == nullptr || corename == nullptr) {        // not a dynamic-arch OpenBLAS
    out.push_back({"linked " + version, {}, openblas_sgemm});
    return;
  }
  for (const std::string& core : openblas_cores()) {
    auto activate = [quit, init, core] {
      setenv("OPENBLAS_CORETYPE", core.c_str(), 1);
      quit();
      init();
    };
    activate();
    if (core != corename()) continue;  // this OpenBLAS does not know the core
    out.push_back({version + " core " + core, activate, openblas_sgemm});
  }
}

// ---- BLIS and oneDNN, when installed -------------------------------------------------------------

void* open_first(const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (void* h = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
  return nullptr;
}

void add_blis(std::vector<Candidate>& out) {
  const std::string dir = "/usr/lib/x86_64-linux-gnu/";
  // BLIS picks its kernel set ("config") once, from the CPU model, and BLIS 0.9 runs its generic C
  // kernels (8-16 GFLOP/s here) on CPUs newer than it, such as AMD Zen 5. Its documented override,
  // BLIS_ARCH_TYPE (the config's number: 0 is skx, the AVX-512 set), is read at its first call; where
  // the user did not set it and the CPU has the AVX-512 subsets skx needs, we set it, and the name
  // printed below is what BLIS actually runs.
  if (std::getenv("BLIS_ARCH_TYPE") == nullptr && cpu_has_avx512_skx()) setenv("BLIS_ARCH_TYPE", "0", 0);
  void* h = open_first({"libblis.so.4", dir + "blis-openmp/libblis.so.4", dir + "blis-pthread/libblis.so.4",
                        dir + "blis-serial/libblis.so.4"});
  if (h == nullptr) return;
  // BLIS's typed API: trans_t (0 = no transpose), dim_t and inc_t are int64 in the 64-bit builds.
  using Gemm = void (*)(int, int, int64_t, int64_t, int64_t, const float*, const float*, int64_t, int64_t,
                        const float*, int64_t, int64_t, const float*, float*, int64_t, int64_t);
  auto gemm = reinterpret_cast<Gemm>(dlsym(h, "bli_sgemm"));
  auto threads = reinterpret_cast<void (*)(int64_t)>(dlsym(h, "bli_thread_set_num_threads"));
  auto arch_id = reinterpret_cast<int (*)()>(dlsym(h, "bli_arch_query_id"));
  auto arch_name = reinterpret_cast<const char* (*)(int)>(dlsym(h, "bli_arch_string"));
  auto version = reinterpret_cast<const char* (*)()>(dlsym(h, "bli_info_get_version_str"));
  if (gemm == nullptr || threads == nullptr) return;
  threads(1);
  std::string name = std::string("BLIS ") + (version ? version() : "");
  if (arch_id && arch_name) name += std::string(" config ") + arch_name(arch_id());
  out.push_back(
      {name,
       {},
       [gemm](int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc) {
         static const float one = 1.0f, zero = 0.0f;
         gemm(0, 0, m, n, k, &one, a, lda, 1, b, ldb, 1, &zero, c, ldc, 1);
       }});
}

void add_onednn(std::vector<Candidate>& out) {
  void* h = open_first({"libdnnl.so.3", "libdnnl.so.2"});
  if (h == nullptr) return;
  using Gemm = int (*)(char, char, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*,
                       int64_t, float, float*, int64_t);
  auto gemm = reinterpret_cast<Gemm>(dlsym(h, "dnnl_sgemm"));
  struct Version {
    int major, minor, patch;
    const char *hash, *cpu_runtime, *gpu_runtime;
  };
  auto version = reinterpret_cast<const Version* (*)()>(dlsym(h, "dnnl_version"));
  // oneDNN's Debian build parallelises with OpenMP; one thread per call, set in each calling thread
  // (nthreads is an OpenMP per-thread setting).
  auto omp_threads = reinterpret_cast<void (*)(int)>(dlsym(h, "omp_set_num_threads"));
  if (gemm == nullptr) return;
  std::string name = "oneDNN";
  if (version) {
    const Version* v = version();
    name += " " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
  }
  out.push_back({name,
                 {},
                 [gemm, omp_threads](int m, int n, int k, const float* a, int lda, const float* b, int ldb,
                                     float* c, int ldc) {
                   thread_local bool pinned = false;
                   if (!pinned && omp_threads) omp_threads(1);
                   pinned = true;
                   gemm('N', 'N', m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
                 }});
}

// ---- checking and timing -------------------------------------------------------------------------

struct Operands {
  GemmShape s;
  std::vector<float> a, b, c;
};

Operands random_operands(GemmShape s, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  Operands o{s, std::vector<float>(size_t(s.m) * s.k), std::vector<float>(size_t(s.k) * s.n),
             std::vector<float>(size_t(s.m) * s.n)};
  for (auto& x : o.a) x = dist(rng);
  for (auto& x : o.b) x = dist(rng);
  return o;
}

// Median seconds per call over `rounds` batches of calls, each batch about 2 ms of work.
double seconds_per_call(const Sgemm& f, Operands& o, int calls) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i)
    f(o.s.m, o.s.n, o.s.k, o.a.data(), o.s.k, o.b.data(), o.s.n, o.c.data(), o.s.n);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / calls;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

std::string format(const char* fmt, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, x);
  return buf;
}

struct Scored {
  Candidate cand;
  bool correct = true;
  double worst = 0;                    // worst error / bound over the shapes
  std::vector<std::vector<double>> t;  // per shape, seconds per call of each round
};

void check(Scored& s, std::vector<Operands>& ops) {
  if (s.cand.activate) s.cand.activate();
  for (auto& o : ops) {
    std::fill(o.c.begin(), o.c.end(), std::nanf(""));
    s.cand.sgemm(o.s.m, o.s.n, o.s.k, o.a.data(), o.s.k, o.b.data(), o.s.n, o.c.data(), o.s.n);
    const double e =
        gemm_error_vs_fp64(o.s.m, o.s.n, o.s.k, o.a.data(), o.s.k, o.b.data(), o.s.n, o.c.data(), o.s.n);
    s.worst = std::max(s.worst, std::isnan(e) ? INFINITY : e);
  }
  s.correct = s.worst <= 1.0;
}

}  // namespace

double gemm_error_vs_fp64(int m, int n, int k, const float* a, int lda, const float* b, int ldb,
                          const float* c, int ldc) {
  const double u = std::ldexp(1.0, -24);
  std::vector<double> ref(n), mag(n);
  double worst = 0;
  for (int i = 0; i < m; ++i) {
    std::fill(ref.begin(), ref.end(), 0.0);
    std::fill(mag.begin(), mag.end(), 0.0);
    for (int l = 0; l < k; ++l) {
      const double x = a[size_t(i) * lda + l];
      const float* brow = b + size_t(l) * ldb;
      for (int j = 0; j < n; ++j) {
        ref[j] += x * brow[j];
        mag[j] += std::fabs(x * brow[j]);
      }
    }
    for (int j = 0; j < n; ++j) {
      const double err = std::fabs(double(c[size_t(i) * ldc + j]) - ref[j]);
      const double bound = 2.0 * k * u * mag[j] + 1e-30;
      if (!(err <= bound * 1e30)) return NAN;  // NaN or infinite result
      worst = std::max(worst, err / bound);
    }
  }
  return worst;
}

BlasChoice choose_best_blas(const std::vector<GemmShape>& shapes) {
  std::vector<Candidate> cands;
  add_openblas(cands);
  add_blis(cands);
  add_onednn(cands);
  std::vector<Operands> ops;
  for (size_t i = 0; i < shapes.size(); ++i) ops.push_back(random_operands(shapes[i], 7 + unsigned(i)));
  std::vector<Scored> scored;
  for (auto& c : cands) {
    scored.push_back({c, true, 0, std::vector<std::vector<double>>(shapes.size())});
    check(scored.back(), ops);
  }
  // Rounds interleave the candidates, so load from other jobs hits them alike.
  constexpr int kRounds = 7;
  for (int r = 0; r < kRounds; ++r) {
    for (auto& s : scored) {
      if (!s.correct) continue;
      if (s.cand.activate) s.cand.activate();
      for (size_t i = 0; i < ops.size(); ++i) {
        const double flops = 2.0 * ops[i].s.m * ops[i].s.n * ops[i].s.k;
        const int calls = std::max(1, int(2e-3 * 50e9 / flops));  // ~2 ms at 50 GFLOP/s
        s.t[i].push_back(seconds_per_call(s.cand.sgemm, ops[i], calls));
      }
    }
  }
  BlasChoice choice;
  double best = INFINITY;
  const Scored* winner = nullptr;
  for (const auto& s : scored) {
    std::string line = s.cand.name + ": " + (s.correct ? "correct" : "WRONG") +
                       format(" (worst error %.3g of the fp32 bound)", s.worst);
    double total = 0;
    for (size_t i = 0; s.correct && i < ops.size(); ++i) {
      const double t = median(s.t[i]);
      total += t;
      line += format(i == 0 ? ", %.1f" : " / %.1f", 2.0 * ops[i].s.m * ops[i].s.n * ops[i].s.k / t / 1e9);
    }
    if (s.correct) line += " GFLOP/s";
    choice.report.push_back(line);
    if (s.correct && total < best) best = total, winner = &s;
  }
  if (winner == nullptr) {
    std::fprintf(stderr, "blas baseline: no candidate BLAS computes these shapes correctly:\n");
    for (const auto& l : choice.report) std::fprintf(stderr, "  %s\n", l.c_str());
    std::exit(1);
  }
  // The winner's OpenBLAS core stays selected; another winner leaves the widest correct OpenBLAS core
  // selected, for whatever else in the process calls OpenBLAS.
  const Scored* blas_core = winner->cand.activate ? winner : nullptr;
  for (const auto& s : scored)
    if (!blas_core && s.correct && s.cand.activate) blas_core = &s;  // scored in order, widest first
  if (blas_core) blas_core->cand.activate();
  for (size_t i = 0; i < shapes.size(); ++i)
    choice.shapes += (i ? ", " : "") + std::to_string(shapes[i].m) + "x" + std::to_string(shapes[i].n) + "x" +
                     std::to_string(shapes[i].k);
  choice.name = winner->cand.name;
  choice.sgemm = winner->cand.sgemm;
  return choice;
}

void print_blas_choice(const BlasChoice& choice, std::FILE* out) {
  std::fprintf(out,
               "baseline BLAS: %s, the fastest correct candidate (one thread per call; checked against fp64 "
               "and timed on MxNxK %s):\n",
               choice.name.c_str(), choice.shapes.c_str());
  for (const auto& l : choice.report) std::fprintf(out, "  %s\n", l.c_str());
}

}  // namespace ptodist::bench
