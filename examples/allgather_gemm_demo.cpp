// The main job: run examples/allgather_gemm.py on N in-process ranks, check every rank's output against
// an independent fp32 reference GEMM, and print time per round, GFLOP/s, the overlap figures
// (communication and GEMM kernels concurrent vs. one after the other) and ratios to hand-written
// baselines, all variants timed in interleaved repetitions of one run.
#include <cblas.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "orchestration_rewrite.h"
#include "ptodist/frontend/parser.h"
#include "ptodist/kernels/convert.h"
#include "ptodist/kernels/matmul.h"
#include "ptodist/runtime/runtime.h"
#include "ptodist/transforms/pass.h"

namespace {

using ptodist::runtime::HostTensor;

struct Config {
  std::string file = PTODIST_SOURCE_DIR "/examples/allgather_gemm.py";
  int ranks = 4;
  int warmup = 1;
  int rounds = 5;
  std::map<std::string, long long> defines;  // -D name=value for the factory
};

// The three variants timed: as written (comm || GEMM), serialized (comm, then GEMM), comm alone.
enum class Variant { Overlapped, Serialized, CommOnly };

// Rewrites chip_orch: a manual scope becomes a plain sequence (submissions then run in order), and
// CommOnly also drops the GEMM submission. The kernels are unchanged.
ptodist::ir::Program make_variant(const ptodist::ir::Program& p, Variant v) {
  if (v == Variant::Overlapped) return p;
  return ptodist::examples::flatten_manual_scope(p, [v](const std::string& kernel) {
    return v != Variant::CommOnly || kernel.find("gemm") == std::string::npos;
  });
}

bool parse_args(int argc, char** argv, Config& c) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--ranks")
      c.ranks = std::atoi(next().c_str());
    else if (a == "--rounds")
      c.rounds = std::atoi(next().c_str());
    else if (a == "--warmup")
      c.warmup = std::atoi(next().c_str());
    else if (a == "--file")
      c.file = next();
    else if (a == "-D") {
      std::string d = next();
      size_t eq = d.find('=');
      if (eq == std::string::npos) return false;
      c.defines[d.substr(0, eq)] = std::atoll(d.c_str() + eq + 1);
    } else {
      return false;
    }
  }
  return c.ranks >= 1 && c.rounds >= 1 && c.warmup >= 0;
}

long long factory_value(const ptodist::ir::ProgramNode& p, const Config& c, const std::string& name) {
  if (auto it = c.defines.find(name); it != c.defines.end()) return it->second;
  for (const auto& fp : p.factory_params)
    if (fp.var->name == name && fp.default_value)
      return ptodist::ir::as_const_int(fp.default_value).value_or(0);
  return 0;
}

std::vector<uint16_t> random_fp16(size_t n, std::mt19937& gen) {
  std::normal_distribution<float> dist(0.0f, 0.1f);
  std::vector<uint16_t> out(n);
  for (auto& h : out) h = ptodist::kernels::fp32_to_fp16(dist(gen));
  return out;
}

HostTensor tensor_of(const std::vector<uint16_t>& v, std::vector<long long> shape) {
  HostTensor t;
  t.dtype = ptodist::ir::DType::FP16;
  t.shape = std::move(shape);
  t.data.resize(v.size() * 2);
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// One timed variant: a ptodist program on its own runtime and arguments, or a hand-written baseline.
struct Timed {
  std::string name;
  std::function<double()> round;  // seconds of one round; negative after printing why it failed
  std::vector<double> seconds;
};

// A ptodist round of `program` (outputs land in `args`).
std::function<double()> runtime_round(const ptodist::ir::Program& program, const Config& c,
                                      std::map<std::string, HostTensor>& args) {
  ptodist::runtime::RunOptions opts;
  opts.ranks = c.ranks;
  opts.watchdog_seconds = 30;
  auto rt = std::make_shared<ptodist::runtime::Runtime>(program, opts);
  return [rt, &args]() {
    auto r = rt->run(args);
    if (r.status != ptodist::runtime::RoundResult::Status::Ok) {
      std::fprintf(stderr, "%s\n", r.message.c_str());
      return -1.0;
    }
    return r.seconds;
  };
}

// A fixed set of threads that run job(i) once per round(); created once, like the runtime's core pool.
class ThreadPool {
 public:
  ThreadPool(int n, std::function<void(int)> job) : job_(std::move(job)), start_(n + 1), done_(n + 1) {
    for (int i = 0; i < n; ++i) threads_.emplace_back([this, i] { loop(i); });
  }
  ~ThreadPool() {
    stop_ = true;
    start_.arrive_and_wait();
    for (auto& t : threads_) t.join();
  }
  void round() {
    start_.arrive_and_wait();
    done_.arrive_and_wait();
  }

 private:
  void loop(int i) {
    for (;;) {
      start_.arrive_and_wait();
      if (stop_) return;
      job_(i);
      done_.arrive_and_wait();
    }
  }
  std::function<void(int)> job_;
  std::barrier<> start_, done_;
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

// The hand-written baselines, with as many threads per rank as the GEMM kernel has cores (so both
// sides get the same share of a busy machine): thread t of rank r copies its rows of the shards into
// r's gathered buffer (the memcpy all-gather) and multiplies them by W. `openblas`: F16C widening of
// its rows of A and its share of W (a barrier per rank, then every thread reads all of W), then one
// single-threaded cblas_sgemm (the baseline). Otherwise the kernels library's matmul on the
// row block (the runtime's arithmetic without tiling or the executor).
struct Baseline {
  int ranks, threads;
  long long m_local, m, k, n;
  const std::vector<uint16_t>& a;
  const std::vector<uint16_t>& w;
  bool openblas;
  std::vector<std::vector<uint16_t>> gathered;
  std::vector<std::vector<float>> af, wf, out;
  std::vector<std::unique_ptr<std::barrier<>>> w_ready;
  ThreadPool pool;

  Baseline(int r, int t, long long ml, long long kk, long long nn, const std::vector<uint16_t>& a_,
           const std::vector<uint16_t>& w_, bool blas)
      : ranks(r),
        threads(t),
        m_local(ml),
        m(r * ml),
        k(kk),
        n(nn),
        a(a_),
        w(w_),
        openblas(blas),
        gathered(r, std::vector<uint16_t>(m * k)),
        af(blas ? r : 0, std::vector<float>(m * k)),
        wf(blas ? r : 0, std::vector<float>(k * n)),
        out(r, std::vector<float>(m * n)),
        pool(r * t, [this](int i) { thread_work(i / threads, i % threads); }) {
    for (int i = 0; i < ranks; ++i) w_ready.push_back(std::make_unique<std::barrier<>>(threads));
  }

  void thread_work(int r, int t) {
    using ptodist::kernels::ElemType;
    using ptodist::kernels::TileView;
    const long long r0 = m * t / threads, r1 = m * (t + 1) / threads, rows = r1 - r0;
    // The shards are consecutive in `a`, so rows [r0, r1) of the gathered matrix are rows of `a`.
    std::memcpy(gathered[r].data() + r0 * k, a.data() + r0 * k, rows * k * 2);
    if (!openblas) {
      ptodist::kernels::matmul(
          TileView::contiguous(gathered[r].data() + r0 * k, static_cast<int>(rows), k, ElemType::F16),
          TileView::contiguous(const_cast<uint16_t*>(w.data()), k, n, ElemType::F16),
          TileView::contiguous(out[r].data() + r0 * n, static_cast<int>(rows), n, ElemType::F32));
      return;
    }
    const long long w0 = k * t / threads, w1 = k * (t + 1) / threads;
    ptodist::kernels::fp16_to_fp32_n(gathered[r].data() + r0 * k, af[r].data() + r0 * k, rows * k);
    ptodist::kernels::fp16_to_fp32_n(w.data() + w0 * n, wf[r].data() + w0 * n, (w1 - w0) * n);
    w_ready[r]->arrive_and_wait();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, n, k, 1.0f, af[r].data() + r0 * k, k,
                wf[r].data(), n, 0.0f, out[r].data() + r0 * n, n);
  }

  double round() {
    auto t0 = std::chrono::steady_clock::now();
    pool.round();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
};

// Rounds of every variant interleaved (each repetition runs each variant once, starting one later
// than the previous repetition), so a change in machine load hits all of them alike. False on failure.
bool time_interleaved(std::vector<Timed>& vs, const Config& c) {
  const int nv = static_cast<int>(vs.size());
  for (int rep = 0; rep < c.warmup + c.rounds; ++rep) {
    for (int i = 0; i < nv; ++i) {
      Timed& v = vs[(rep + i) % nv];
      const double t = v.round();
      if (t < 0) return false;
      if (rep >= c.warmup) v.seconds.push_back(t);
    }
  }
  return true;
}

// Median over repetitions of the per-repetition ratio num / den (both measured in the same repetition).
double paired_ratio(const Timed& num, const Timed& den) {
  std::vector<double> r;
  for (size_t i = 0; i < num.seconds.size(); ++i) r.push_back(num.seconds[i] / den.seconds[i]);
  return median(r);
}

// Compares every rank's C with concat(shards) @ W computed in fp32 independently of the runtime (one
// sgemm); prints PASS or FAIL and returns whether all match.
bool check_outputs(const HostTensor& outputs, const std::vector<uint16_t>& a, const std::vector<uint16_t>& w,
                   int ranks, long long m, long long k, long long n) {
  std::vector<float> af(a.size()), wf(w.size()), ref(static_cast<size_t>(m * n));
  ptodist::kernels::fp16_to_fp32_n(a.data(), af.data(), static_cast<long>(a.size()));
  ptodist::kernels::fp16_to_fp32_n(w.data(), wf.data(), static_cast<long>(w.size()));
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, af.data(), k, wf.data(), n, 0.0f,
              ref.data(), n);
  const auto* out = reinterpret_cast<const float*>(outputs.data.data());
  bool pass = true;
  double max_diff = 0;
  for (int r = 0; r < ranks; ++r) {
    long long bad = 0;
    for (long long i = 0; i < m * n; ++i) {
      double o = out[r * m * n + i], e = ref[i], d = std::fabs(o - e);
      max_diff = std::max(max_diff, d);
      if (!(d <= 1e-2 + 1e-2 * std::fabs(e))) ++bad;
    }
    if (bad) std::printf("rank %d: %lld of %lld elements differ from the reference\n", r, bad, m * n);
    pass = pass && bad == 0;
  }
  std::printf("%s: every rank's C allclose(rtol=atol=1e-2) to concat(shards) @ W in fp32 (max |diff| %.3g)\n",
              pass ? "PASS" : "FAIL", max_diff);
  return pass;
}

// Times per round, throughput, overlap and the ratios to both baselines.
void print_report(const std::vector<Timed>& vs, const Config& c, long long m, long long k, long long n,
                  int base_threads) {
  const Timed &overlap = vs[0], &serial = vs[1], &comm = vs[2], &base = vs[3], &base_kernel = vs[4];
  const double t_overlap = median(overlap.seconds), t_serial = median(serial.seconds),
               t_comm = median(comm.seconds);
  const double flops = 2.0 * m * n * k * c.ranks;  // every rank computes the whole C
  std::printf("tile matmul: %s\n", ptodist::kernels::matmul_backend().c_str());
  std::printf("time per round (median of %d, variants interleaved): %.2f ms overlapped\n", c.rounds,
              t_overlap * 1e3);
  std::printf("throughput: %.2f GFLOP/s (%d ranks x 2*M*N*K = %.3g GFLOP per round)\n",
              flops / t_overlap / 1e9, c.ranks, flops / 1e9);
  std::printf(
      "overlap: serialized (comm, then GEMM) %.2f ms, overlapped %.2f ms, comm alone %.2f ms -> %.2fx, "
      "%.0f%% of the comm time hidden\n",
      t_serial * 1e3, t_overlap * 1e3, t_comm * 1e3, t_serial / t_overlap,
      100.0 * std::clamp((t_serial - t_overlap) / t_comm, 0.0, 1.0));
  std::printf(
      "baseline (memcpy all-gather, then OpenBLAS GEMM; %d threads per rank, as many as GEMM cores): %.2f ms "
      "-> overlapped is %.2fx the baseline time\n",
      base_threads, median(base.seconds) * 1e3, paired_ratio(overlap, base));
  std::printf(
      "ratios to the OpenBLAS baseline (median of per-repetition ratios / ratio of medians; target "
      "overlapped <= 1.0x):\n");
  std::printf("  overlapped %.2fx / %.2fx, serialized %.2fx / %.2fx\n", paired_ratio(overlap, base),
              t_overlap / median(base.seconds), paired_ratio(serial, base), t_serial / median(base.seconds));
  std::printf(
      "ratios to the same-kernel baseline (memcpy all-gather, then the tile matmul kernel on whole matrices, "
      "%.2f ms): overlapped %.2fx / %.2fx, serialized %.2fx / %.2fx\n",
      median(base_kernel.seconds) * 1e3, paired_ratio(overlap, base_kernel),
      t_overlap / median(base_kernel.seconds), paired_ratio(serial, base_kernel),
      t_serial / median(base_kernel.seconds));
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  if (!parse_args(argc, argv, c)) {
    std::fprintf(
        stderr,
        "usage: allgather_gemm_demo [--ranks N] [--rounds R] [--warmup W] [--file F] [-D name=value]...\n");
    return 2;
  }
  ptodist::SourceManager sources;
  ptodist::DiagnosticEngine diags;
  std::string error;
  const ptodist::SourceFile* file = sources.load(c.file, &error);
  if (!file) {
    std::fprintf(stderr, "allgather_gemm_demo: %s\n", error.c_str());
    return 2;
  }
  ptodist::ir::Module module = ptodist::frontend::parse_module(*file, diags);
  if (!module || module->programs.empty()) {
    diags.print(std::cerr);
    return 1;
  }
  ptodist::ir::Program source = module->programs[0];
  std::map<std::string, long long> bindings = c.defines;
  bindings["world_size"] = c.ranks;
  ptodist::transforms::PassContext cx{.diags = diags,
                                      .profile = ptodist::ChipProfile{},
                                      .bindings = bindings,
                                      .disabled = {},
                                      .module = module};
  ptodist::ir::Program program = ptodist::transforms::run_pipeline(source, cx);
  if (!program || diags.has_errors()) {
    diags.print(std::cerr);
    return 1;
  }
  long long m_local = factory_value(*source, c, "m_local"), k = factory_value(*source, c, "k"),
            n = factory_value(*source, c, "n");
  long long m = c.ranks * m_local;
  std::printf(
      "all-gather + GEMM on %d in-process ranks: A shards [%lld, %lld] fp16 per rank, W [%lld, %lld] fp16, "
      "C [%lld, %lld] fp32 on every rank\n",
      c.ranks, m_local, k, k, n, m, n);

  std::mt19937 gen(2024);
  std::vector<uint16_t> a = random_fp16(static_cast<size_t>(m * k), gen);
  std::vector<uint16_t> w = random_fp16(static_cast<size_t>(k * n), gen);
  std::map<std::string, HostTensor> args;
  args["inputs"] = tensor_of(a, {c.ranks, m_local, k});
  args["weight"] = tensor_of(w, {k, n});
  args["outputs"] = HostTensor::zeros(ptodist::ir::DType::FP32, {c.ranks, m, n});

  // One argument set per variant, so the overlapped run's output is checked untouched by the others.
  std::map<std::string, HostTensor> args_serial = args, args_comm = args;
  ptodist::kernels::prepare_openblas();  // one thread per sgemm, as the OpenBLAS baseline assumes
  const int base_threads = static_cast<int>(std::max(1LL, factory_value(*source, c, "gemm_cores")));
  Baseline blas(c.ranks, base_threads, m_local, k, n, a, w, true),
      same_kernel(c.ranks, base_threads, m_local, k, n, a, w, false);
  std::vector<Timed> vs = {
      {"overlapped", runtime_round(program, c, args), {}},
      {"serialized", runtime_round(make_variant(program, Variant::Serialized), c, args_serial), {}},
      {"comm alone", runtime_round(make_variant(program, Variant::CommOnly), c, args_comm), {}},
      {"baseline openblas", [&blas] { return blas.round(); }, {}},
      {"baseline same kernel", [&same_kernel] { return same_kernel.round(); }, {}},
  };
  if (!time_interleaved(vs, c)) return 1;
  const bool pass = check_outputs(args["outputs"], a, w, c.ranks, m, k, n);
  print_report(vs, c, m, k, n, base_threads);
  return pass ? 0 : 1;
}
