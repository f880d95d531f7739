// End-to-end runs of the examples on N in-process ranks through the library (parse, lower, run) with
// golden checks: ring shuffles (put and put_async, bit-identical), all-gather + GEMM against an fp32
// reference, the watchdog and the core budget.
#include <cblas.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <map>
#include <random>

#include "ptodist/frontend/parser.h"
#include "ptodist/kernels/convert.h"
#include "ptodist/runtime/host_io.h"
#include "ptodist/runtime/runtime.h"
#include "ptodist/runtime/world.h"
#include "ptodist/transforms/pass.h"

namespace ptodist::runtime {
namespace {

const std::string kRoot = PTODIST_SOURCE_DIR;

// A kernel file compiled for `ranks` (the whole pipeline), with its sources kept alive.
struct Compiled {
  SourceManager sources;
  DiagnosticEngine diags;
  ir::Program program;
};

std::unique_ptr<Compiled> compile(const std::string& path, const std::string& name, int ranks,
                                  std::map<std::string, long long> defines = {}) {
  auto c = std::make_unique<Compiled>();
  std::string error;
  const SourceFile* file = c->sources.load(path, &error);
  EXPECT_TRUE(file) << error;
  if (!file) return c;
  ir::Module m = frontend::parse_module(*file, c->diags);
  EXPECT_TRUE(m) << "parse errors in " << path;
  if (!m) return c;
  ir::Program p = name.empty() ? m->programs.at(0) : m->find(name);
  EXPECT_TRUE(p) << "no program " << name;
  defines["world_size"] = ranks;
  transforms::PassContext cx{.diags = c->diags};
  cx.bindings = defines;
  cx.module = m;
  c->program = transforms::run_pipeline(p, cx);
  EXPECT_FALSE(c->diags.has_errors());
  return c;
}

RoundResult run_once(const ir::Program& p, int ranks, std::map<std::string, HostTensor>& args,
                     double watchdog = 20, const ChipProfile& profile = {}) {
  RunOptions o;
  o.ranks = ranks;
  o.watchdog_seconds = watchdog;
  o.profile = profile;
  Runtime rt(p, o);
  return rt.run(args);
}

// x[r] = r * 1000 + i: every rank's row is distinguishable.
HostTensor ring_input(int ranks) {
  HostTensor x = HostTensor::zeros(ir::DType::FP32, {ranks, 1, 1024});
  auto* v = reinterpret_cast<float*>(x.data.data());
  for (int r = 0; r < ranks; ++r)
    for (int i = 0; i < 1024; ++i) v[r * 1024 + i] = static_cast<float>(r * 1000 + i);
  return x;
}

// Runs a ring program; returns its host tensors (x given, every other parameter defaulted).
std::map<std::string, HostTensor> run_ring(const std::string& file, const std::string& program, int ranks) {
  auto c = compile(kRoot + "/examples/" + file, program, ranks);
  RunOptions o;
  o.ranks = ranks;
  Runtime rt(c->program, o);
  std::map<std::string, HostTensor> args{{"x", ring_input(ranks)}};
  EXPECT_EQ(prepare_host_args(*rt.host_function(), ranks, {}, args), "");
  RoundResult r = rt.run(args);
  EXPECT_EQ(r.status, RoundResult::Status::Ok) << r.message;
  return args;
}

void expect_ring(const HostTensor& y, int ranks) {
  HostTensor x = ring_input(ranks);
  for (int r = 0; r < ranks; ++r) {
    int from = (r - 1 + ranks) % ranks;
    EXPECT_EQ(0, std::memcmp(y.data.data() + r * 4096, x.data.data() + from * 4096, 4096))
        << "outputs[" << r << "] != inputs[" << from << "]";
  }
}

// z[r] = (x[r] + x[r]) * x[r], computed here with the same two correctly rounded fp32 operations, so
// the result must match bit for bit.
void expect_ring_compute(const HostTensor& z, int ranks) {
  HostTensor x = ring_input(ranks);
  const auto* xv = reinterpret_cast<const float*>(x.data.data());
  const auto* zv = reinterpret_cast<const float*>(z.data.data());
  ASSERT_EQ(z.numel(), x.numel());
  long long bad = 0;
  for (long long i = 0; i < x.numel(); ++i) bad += zv[i] != (xv[i] + xv[i]) * xv[i];
  EXPECT_EQ(bad, 0) << "elements of z differ from (x + x) * x";
}

class RingShuffle : public ::testing::TestWithParam<int> {};

TEST_P(RingShuffle, PutAndPutAsyncDeliverThePreviousRanksRowBitIdentically) {
  int n = GetParam();
  auto put = run_ring("ring_shuffle_put.py", "", n);
  auto async = run_ring("ring_shuffle_put_async.py", "ring_put_async", n);
  auto sync = run_ring("ring_shuffle_put_async.py", "ring_put_sync", n);
  expect_ring(put["y"], n);
  expect_ring(async["y"], n);
  expect_ring(sync["y"], n);
  expect_ring_compute(async["z"], n);
  expect_ring_compute(sync["z"], n);
  for (const auto& [name, t] : sync)
    EXPECT_EQ(async[name].data, t.data) << "put_async and its synchronous twin differ in " << name;
}

INSTANTIATE_TEST_SUITE_P(Ranks, RingShuffle, ::testing::Values(2, 4, 8));

HostTensor fp16_random(std::vector<long long> shape, std::mt19937& gen) {
  HostTensor t = HostTensor::zeros(ir::DType::FP16, std::move(shape));
  std::normal_distribution<float> dist(0.0f, 0.1f);
  auto* h = reinterpret_cast<uint16_t*>(t.data.data());
  for (long long i = 0; i < t.numel(); ++i) h[i] = kernels::fp32_to_fp16(dist(gen));
  return t;
}

class AllGatherGemm : public ::testing::TestWithParam<int> {};

// Runs the all-gather + GEMM example for `rounds` rounds on one runtime (windows re-zeroed between
// rounds, as the example requires) and checks every rank's C after each against the fp32 reference.
void check_allgather_gemm(int n, int rounds) {
  const long long m_local = 128, k = 256, cols = 256;
  auto c = compile(kRoot + "/examples/allgather_gemm.py", "", n,
                   {{"m_local", m_local}, {"k", k}, {"n", cols}, {"comm_cores", 2}, {"gemm_cores", 2}});
  std::mt19937 gen(7);
  const long long m = n * m_local;
  std::map<std::string, HostTensor> args{{"inputs", fp16_random({n, m_local, k}, gen)},
                                         {"weight", fp16_random({k, cols}, gen)}};
  std::vector<float> a(m * k), w(k * cols), ref(m * cols);
  kernels::fp16_to_fp32_n(reinterpret_cast<const uint16_t*>(args["inputs"].data.data()), a.data(), m * k);
  kernels::fp16_to_fp32_n(reinterpret_cast<const uint16_t*>(args["weight"].data.data()), w.data(), k * cols);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, cols, k, 1.0f, a.data(), k, w.data(), cols, 0.0f,
              ref.data(), cols);
  RunOptions o;
  o.ranks = n;
  Runtime rt(c->program, o);
  for (int round = 0; round < rounds; ++round) {
    args["outputs"] = HostTensor::zeros(ir::DType::FP32, {n, m, cols});
    RoundResult r = rt.run(args);
    ASSERT_EQ(r.status, RoundResult::Status::Ok) << r.message;
    const auto* out = reinterpret_cast<const float*>(args["outputs"].data.data());
    for (int rank = 0; rank < n; ++rank) {
      long long bad = 0;
      for (long long i = 0; i < m * cols; ++i) {
        float got = out[rank * m * cols + i], e = ref[i];
        if (!(std::fabs(got - e) <= 1e-2f + 1e-2f * std::fabs(e))) ++bad;
      }
      EXPECT_EQ(bad, 0) << "rank " << rank << ", round " << round;
    }
  }
}

TEST_P(AllGatherGemm, EveryRankMatchesTheFp32Reference) {
  check_allgather_gemm(GetParam(), 1);
}

TEST(AllGatherGemmRounds, RepeatedRoundsOnOneRuntimeStayCorrect) {
  check_allgather_gemm(2, 3);
}

INSTANTIATE_TEST_SUITE_P(Ranks, AllGatherGemm, ::testing::Values(2, 4));

TEST(Watchdog, AWaitThatNeverEndsIsReportedWithItsLineAndCell) {
  auto c = compile(kRoot + "/tests/e2e/programs/wait_forever.py", "", 2);
  std::map<std::string, HostTensor> args{{"x", HostTensor::zeros(ir::DType::FP32, {2, 1, 4})}};
  RoundResult r = run_once(c->program, 2, args, 0.5);
  ASSERT_EQ(r.status, RoundResult::Status::Hang);
  EXPECT_NE(r.message.find("rank 1"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("pld.system.wait at "), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("wait_forever.py:11:5"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("signal[0, 0]: sees 0, expects == 1"), std::string::npos) << r.message;
}

TEST(CoreBudget, ConcurrentKernelsOverTheChipAreAnErrorNamingBoth) {
  auto c = compile(kRoot + "/tests/e2e/programs/over_budget.py", "", 2);
  std::string error;
  auto profile = load_profile(kRoot + "/profiles/cpu.json", &error);
  ASSERT_TRUE(profile) << error;
  std::map<std::string, HostTensor> args{{"x", HostTensor::zeros(ir::DType::FP32, {2, 1, 4})},
                                         {"y", HostTensor::zeros(ir::DType::FP32, {2, 1, 4})}};
  RoundResult r = run_once(c->program, 2, args, 20, *profile);
  ASSERT_EQ(r.status, RoundResult::Status::Error);
  EXPECT_NE(r.message.find("'producer' (3) and 'consumer' (3)"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("need 6 vector cores together, but chip 'cpu' has 4"), std::string::npos)
      << r.message;
}

// The in-process transport with a record of the local-store brackets the executor reports and of
// what had been reported when each signal was sent (what lets the MPI transport skip MPI_Win_sync).
class RecordingTransport final : public Transport {
 public:
  explicit RecordingTransport(int ranks) : inner_(make_inproc_transport(ranks)) {}
  int world_size() const override { return inner_->world_size(); }
  int alloc_segment(long long bytes) override { return inner_->alloc_segment(bytes); }
  void zero_segments() override { inner_->zero_segments(); }
  std::byte* window_ptr(int rank, WindowAddr addr) override { return inner_->window_ptr(rank, addr); }
  void put(int peer, WindowAddr dst, const std::byte* src, long long bytes) override {
    inner_->put(peer, dst, src, bytes);
  }
  void get(int peer, WindowAddr src, std::byte* dst, long long bytes) override {
    inner_->get(peer, src, dst, bytes);
  }
  void accumulate(int peer, WindowAddr dst, const std::byte* src, long long count, ir::DType t) override {
    inner_->accumulate(peer, dst, src, count, t);
  }
  void signal(int peer, WindowAddr cell, int32_t value, bool add) override {
    if (ended_.load() == 0 && running_.load() == 0) signals_after_no_store_.fetch_add(1);
    signals_.fetch_add(1);
    inner_->signal(peer, cell, value, add);
  }
  void begin_local_stores() override {
    begun_.fetch_add(1);
    running_.fetch_add(1);
  }
  void end_local_stores() override {
    ended_.fetch_add(1);
    running_.fetch_sub(1);
  }

  std::atomic<int> begun_{0}, ended_{0}, running_{0}, signals_{0}, signals_after_no_store_{0};

 private:
  std::unique_ptr<Transport> inner_;
};

// One round of `path` on a RecordingTransport; the transport lives as long as the runtime.
struct RecordedRun {
  std::unique_ptr<Compiled> compiled;
  std::unique_ptr<Runtime> runtime;
  RecordingTransport* transport = nullptr;
};

RecordedRun run_recorded(const std::string& path, int ranks, std::map<std::string, HostTensor>& args) {
  RecordedRun run;
  run.compiled = compile(path, "", ranks);
  RunOptions o;
  o.ranks = ranks;
  o.make_transport = [&run, ranks] {
    auto t = std::make_unique<RecordingTransport>(ranks);
    run.transport = t.get();
    return t;
  };
  run.runtime = std::make_unique<Runtime>(run.compiled->program, o);
  EXPECT_EQ(prepare_host_args(*run.runtime->host_function(), ranks, {}, args), "");
  RoundResult r = run.runtime->run(args);
  EXPECT_EQ(r.status, RoundResult::Status::Ok) << r.message;
  return run;
}

TEST(LocalStores, EveryOpThatMayStoreIsBracketedAndPrecedesItsNotify) {
  std::map<std::string, HostTensor> args{{"x", ring_input(4)}};
  RecordedRun run = run_recorded(kRoot + "/examples/ring_shuffle_put.py", 4, args);
  RecordingTransport* t = run.transport;
  ASSERT_NE(t, nullptr);
  expect_ring(args["y"], 4);
  // Per rank: the store into src, the put, the store of y (at least); notify and wait are not.
  EXPECT_GE(t->begun_.load(), 3 * 4);
  EXPECT_EQ(t->begun_.load(), t->ended_.load());
  EXPECT_EQ(t->signals_.load(), 4);
  // Each rank stores and puts before it notifies, so no signal went out with nothing reported.
  EXPECT_EQ(t->signals_after_no_store_.load(), 0);
}

TEST(LocalStores, SignalsAloneReportNoStores) {
  std::map<std::string, HostTensor> args{{"x", HostTensor::zeros(ir::DType::FP32, {3, 1, 4})}};
  RecordedRun run = run_recorded(kRoot + "/tests/e2e/programs/signal_ring.py", 3, args);
  RecordingTransport* t = run.transport;
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->begun_.load(), 0);
  EXPECT_EQ(t->signals_.load(), 3);
  EXPECT_EQ(t->signals_after_no_store_.load(), 3);
}

TEST(HostArgs, ARankCountThatContradictsHostShapesIsOneLine) {
  auto c = compile(kRoot + "/examples/ring_shuffle_put.py", "", 4);
  RunOptions o;
  o.ranks = 4;
  Runtime rt(c->program, o);
  std::map<std::string, HostTensor> args{{"x", ring_input(2)},
                                         {"y", HostTensor::zeros(ir::DType::FP32, {2, 1, 1024})}};
  std::string why = rt.check_args(args);
  EXPECT_EQ(why, "input 'x' has 2 per-rank slices (shape [2, 1, 1024]) but the run has 4 ranks");
}

}  // namespace
}  // namespace ptodist::runtime
