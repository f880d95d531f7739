// One-time OpenBLAS setup for tile matmuls: one thread per call, and a usable kernel on CPUs that
// Debian's OpenBLAS 0.3.21 does not recognise.
#include "blas_setup.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

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

// OpenBLAS's dynamic-arch build picks its kernels from the CPU model at load time and falls back to the
// generic SSE3 "Prescott" kernels for models it does not know (e.g. family 6 model 207 under 0.3.21),
// about 5x slower on a 128x128x256 sgemm here. OPENBLAS_CORETYPE is OpenBLAS's documented override, but it
// is read before main; so when the user did not set it, we set it from the CPU's features and re-run
// OpenBLAS's core selection (gotoblas_dynamic_quit/init), before this process's first sgemm.
void select_blas_core() {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return;  // the user's choice stands
  const char* core = blas_core_name();
  if (core == nullptr || std::strcmp(core, "Prescott") != 0) return;
  auto quit = lookup<void (*)()>("gotoblas_dynamic_quit");
  auto init = lookup<void (*)()>("gotoblas_dynamic_init");
  if (quit == nullptr || init == nullptr) return;
  // Haswell (AVX2 + FMA) rather than SkylakeX even where AVX-512 exists: on the newer CPUs this
  // fallback happens on, 0.3.21's AVX-512 kernels are the ones known to misbehave, and Haswell is the
  // core type these machines' own environment pins OpenBLAS to when it pins anything.
  const char* better = nullptr;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) better = "Haswell";
  if (better == nullptr) return;
  setenv("OPENBLAS_CORETYPE", better, 0);
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
    select_blas_core();
    pin_one_thread();
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
