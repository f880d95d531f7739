// One-time OpenBLAS setup for tile matmuls: one thread per call, and a usable kernel on CPUs that
// Debian's OpenBLAS 0.3.21 does not recognise.
#include "blas_setup.h"

#include <cblas.h>
#include <dlfcn.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace ptodist::kernels::detail {
namespace {

// OpenBLAS entry points are looked up at run time: Debian's libblas.so.3 (what find_package(BLAS) may
// link) exports only the BLAS API, while these live in its dependency libopenblas.so.0. Any of them may
// be missing (another BLAS); each use is optional.
template <typename Fn>
Fn lookup(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
}

const char* blas_core_name() {
  auto corename = lookup<char* (*)()>("openblas_get_corename");
  return corename ? corename() : nullptr;
}

// Whether the current core computes one tile-sized sgemm within the fp32 error bound of an fp64
// reference (2 k u sum |a b|, u = 2^-24): a kernel set that the CPU runs but computes wrongly is not used.
bool core_computes_correctly() {
  constexpr int m = 48, n = 80, k = 256;
  std::vector<float> a(m * k), b(k * n), c(m * n);
  unsigned x = 12345;
  auto next = [&x] { return (x = x * 1103515245u + 12345u) / 4294967296.0f - 0.5f; };
  for (auto& v : a) v = next();
  for (auto& v : b) v = next();
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a.data(), k, b.data(), n, 0.0f,
              c.data(), n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double ref = 0, mag = 0;
      for (int l = 0; l < k; ++l)
        ref += double(a[i * k + l]) * b[l * n + j], mag += std::fabs(double(a[i * k + l]) * b[l * n + j]);
      if (!(std::fabs(c[i * n + j] - ref) <= 2.0 * k * std::ldexp(1.0, -24) * mag)) return false;
    }
  return true;
}

// OpenBLAS's dynamic-arch build picks its kernels from the CPU model at load time and falls back to the
// generic SSE3 "Prescott" kernels for models it does not know (0.3.21 knows neither Intel family 6
// model 207 nor AMD Zen 4/5), about 5x slower on a 128x128x256 sgemm. OPENBLAS_CORETYPE is OpenBLAS's
// documented override, but it is read before main; so when the user did not set it, we choose from the
// CPU's features and re-run OpenBLAS's core selection (gotoblas_dynamic_quit/init) before this process's
// first sgemm: the widest kernel set the CPU has (SkylakeX's AVX-512, then Haswell's AVX2 + FMA) that
// passes a correctness check. (An earlier version stopped at Haswell, believing 0.3.21's AVX-512 kernels
// wrong on such CPUs; on the AMD EPYC (Zen 5) used here they match fp64 on every benchmark shape and are
// faster, docs/benchmarks.md.)
void select_blas_core() {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return;  // the user's choice stands
  const char* core = blas_core_name();
  if (core == nullptr || std::strcmp(core, "Prescott") != 0) return;
  auto quit = lookup<void (*)()>("gotoblas_dynamic_quit");
  auto init = lookup<void (*)()>("gotoblas_dynamic_init");
  if (quit == nullptr || init == nullptr) return;
  std::vector<const char*> candidates;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512cd"))
    candidates.push_back("SkylakeX");
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) candidates.push_back("Haswell");
  for (const char* better : candidates) {
    setenv("OPENBLAS_CORETYPE", better, 1);
    quit();
    init();
    if (core_computes_correctly()) return;
  }
  unsetenv("OPENBLAS_CORETYPE");  // none passed: back to OpenBLAS's own choice
  quit();
  init();
}

// The runtime already runs one OS thread per simulated core; OpenBLAS's own pool would oversubscribe.
void pin_one_thread() {
  if (auto set = lookup<void (*)(int)>("openblas_set_num_threads")) set(1);
}

}  // namespace

void prepare_blas() {
  static std::once_flag once;
  std::call_once(once, [] {
    pin_one_thread();  // first: the correctness check runs on the caller's thread only
    select_blas_core();
  });
}

std::string blas_info() {
  prepare_blas();
  auto threads = lookup<int (*)()>("openblas_get_num_threads");
  const char* core = blas_core_name();
  if (core == nullptr) return "BLAS (not OpenBLAS)";
  return std::string("OpenBLAS core ") + core + ", " + std::to_string(threads ? threads() : 1) + " thread(s)";
}

}  // namespace ptodist::kernels::detail
