// End-to-end runs with golden outputs computed here: elementwise results written in place over their
// dead operands' buffers (plan-memory as PyPTO plans it), tile operands computed inside a call,
// dynamic/composite dims bound from the rank count, from a tensor given, or from --dim values, and an
// L2 program (no host orchestrator) run through the chip orchestration chosen.
#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "ptodist/frontend/parser.h"
#include "ptodist/runtime/host_io.h"
#include "ptodist/runtime/l2_entry.h"
#include "ptodist/runtime/runtime.h"
#include "ptodist/transforms/pass.h"

namespace ptodist::runtime {
namespace {

const std::string kPrograms = std::string(PTODIST_SOURCE_DIR) + "/tests/e2e/programs/";

struct Compiled {
  SourceManager sources;
  DiagnosticEngine diags;
  ir::Program program;
};

std::unique_ptr<Compiled> compile(const std::string& file, int ranks) {
  auto c = std::make_unique<Compiled>();
  std::string error;
  const SourceFile* f = c->sources.load(kPrograms + file, &error);
  EXPECT_TRUE(f) << error;
  if (!f) return c;
  ir::Module m = frontend::parse_module(*f, c->diags);
  EXPECT_TRUE(m);
  if (!m) return c;
  transforms::PassContext cx{.diags = c->diags};
  cx.bindings = {{"world_size", ranks}};
  cx.module = m;
  c->program = transforms::run_pipeline(m->programs.at(0), cx);
  std::ostringstream os;
  c->diags.print(os);
  EXPECT_FALSE(c->diags.has_errors()) << os.str();
  return c;
}

RunOptions with_ranks(int n) {
  RunOptions o;
  o.ranks = n;
  return o;
}

float* floats(HostTensor& t) {
  return reinterpret_cast<float*>(t.data.data());
}

HostTensor filled(std::vector<long long> shape, float (*value)(long long)) {
  HostTensor t = HostTensor::zeros(ir::DType::FP32, shape);
  for (long long i = 0; i < t.numel(); ++i) floats(t)[i] = value(i);
  return t;
}

TEST(InPlaceElementwise, ResultsOverDeadOperandsAreRight) {
  auto c = compile("in_place_elementwise.py", 1);
  ASSERT_TRUE(c->program);
  Runtime rt(c->program, with_ranks(1));
  std::map<std::string, HostTensor> args;
  args["a"] = filled({128, 128}, [](long long i) { return static_cast<float>(i % 97) * 0.5f; });
  args["b"] = filled({128, 128}, [](long long i) { return static_cast<float>(i % 13) - 6.0f; });
  ASSERT_EQ(prepare_host_args(*rt.host_function(), 1, {}, args), "");
  RoundResult r = rt.run(args);
  ASSERT_EQ(r.status, RoundResult::Status::Ok) << r.message;
  for (long long i = 0; i < 128 * 128; ++i) {
    float a = static_cast<float>(i % 97) * 0.5f, b = static_cast<float>(i % 13) - 6.0f;
    ASSERT_EQ(floats(args["f"])[i], 3.0f * (a + b) - b) << "f at " << i;
    ASSERT_EQ(floats(args["g"])[i], a + b) << "g at " << i;
  }
}

class DynamicDims : public ::testing::TestWithParam<int> {};

// x[r][s][j] = 1000 r + 100 s + j; y[r][s][j] = x[r][s][j] + s.
TEST_P(DynamicDims, RankDimsAndCompositeDimsBindAtRunTime) {
  const int n = GetParam();
  auto c = compile("dynamic_dims.py", n);
  ASSERT_TRUE(c->program);
  Runtime rt(c->program, with_ranks(n));
  std::map<std::string, HostTensor> args;
  HostTensor x = HostTensor::zeros(ir::DType::FP32, {n, n, 64});
  for (int r = 0; r < n; ++r)
    for (int s = 0; s < n; ++s)
      for (int j = 0; j < 64; ++j)
        floats(x)[(r * n + s) * 64 + j] = static_cast<float>(1000 * r + 100 * s + j);
  args["x"] = x;
  args["a"] = filled({128, 96}, [](long long i) { return static_cast<float>(i % 101); });
  ASSERT_EQ(prepare_host_args(*rt.host_function(), n, {}, args), "");
  EXPECT_EQ(args["y"].shape, (std::vector<long long>{n, n, 64}));
  EXPECT_EQ(args["c"].shape, (std::vector<long long>{128, 96}));  // M * 2 = 128 solved to M = 64
  RoundResult r = rt.run(args);
  ASSERT_EQ(r.status, RoundResult::Status::Ok) << r.message;
  for (int q = 0; q < n; ++q)
    for (int s = 0; s < n; ++s)
      for (int j = 0; j < 64; ++j)
        ASSERT_EQ(floats(args["y"])[(q * n + s) * 64 + j], static_cast<float>(1000 * q + 101 * s + j))
            << "y[" << q << "][" << s << "][" << j << "]";
  for (int i = 0; i < 128; ++i)
    for (int j = 0; j < 96; ++j) {
      float want = i < 64 && j < 64 ? 2.0f * static_cast<float>((i * 96 + j) % 101) : 0.0f;
      ASSERT_EQ(floats(args["c"])[i * 96 + j], want) << "c[" << i << "][" << j << "]";
    }
}

INSTANTIATE_TEST_SUITE_P(Ranks, DynamicDims, ::testing::Values(2, 4));

// y[rd][r][j] = x[rd][r][j] + 10 rd + r; z[rd][g][j] = x[rd][g][j] + 10 rd + g (device 0, g < K).
TEST_P(DynamicDims, TheRankDimMayFollowARoundDim) {
  const int n = GetParam();
  auto c = compile("rank_dim_after_rounds.py", n);
  ASSERT_TRUE(c->program);
  Runtime rt(c->program, with_ranks(n));
  std::map<std::string, HostTensor> args;
  EXPECT_EQ(
      prepare_host_args(*rt.host_function(), n, {}, args),
      "cannot tell the shape of 'z' (pl.Tensor[[3, K, 1, 32], pl.FP32]): no input binds K; pass it as a "
      ".npy file or give --dim K=<value>");
  args.clear();
  args["x"] = filled({3, n, 1, 32}, [](long long i) { return static_cast<float>(i % 89) * 0.25f; });
  ASSERT_EQ(prepare_host_args(*rt.host_function(), n, {}, args, {"K=2"}), "");
  EXPECT_EQ(args["y"].shape, (std::vector<long long>{3, n, 1, 32}));
  RoundResult r = rt.run(args);
  ASSERT_EQ(r.status, RoundResult::Status::Ok) << r.message;
  for (int rd = 0; rd < 3; ++rd)
    for (int q = 0; q < n; ++q)
      for (int j = 0; j < 32; ++j) {
        long long i = (rd * n + q) * 32 + j;
        ASSERT_EQ(floats(args["y"])[i], static_cast<float>(i % 89) * 0.25f + static_cast<float>(10 * rd + q))
            << "y[" << rd << "][" << q << "][" << j << "]";
        if (q < 2)
          ASSERT_EQ(floats(args["z"])[(rd * 2 + q) * 32 + j],
                    static_cast<float>(i % 89) * 0.25f + static_cast<float>(10 * rd + q))
              << "z[" << rd << "][" << q << "][" << j << "]";
      }
  args["x"] = HostTensor::zeros(ir::DType::FP32, {3, n + 1, 1, 32});
  args["y"] = HostTensor::zeros(ir::DType::FP32, {3, n + 1, 1, 32});
  EXPECT_EQ(rt.run(args).message, "input 'x' has " + std::to_string(n + 1) +
                                      " per-rank slices in dim 1 (shape [3, " + std::to_string(n + 1) +
                                      ", 1, 32]) but the run has " + std::to_string(n) + " ranks");
}

TEST(DynamicDimsFlags, DimValuesFixWhatNoTensorDoes) {
  auto c = compile("dynamic_dims.py", 2);
  ASSERT_TRUE(c->program);
  Runtime rt(c->program, with_ranks(2));
  std::map<std::string, HostTensor> args;
  EXPECT_EQ(
      prepare_host_args(*rt.host_function(), 2, {}, args),
      "cannot tell the shape of 'a' (pl.Tensor[[(M * 2), N], pl.FP32]): no input binds M, N; pass it as a "
      ".npy file or give --dim M=<value>");
  args.clear();
  ASSERT_EQ(prepare_host_args(*rt.host_function(), 2, {}, args, {"M=32", "N=64"}), "");
  EXPECT_EQ(args["a"].shape, (std::vector<long long>{64, 64}));
  EXPECT_EQ(rt.run(args).status, RoundResult::Status::Ok);
  args.clear();
  EXPECT_EQ(prepare_host_args(*rt.host_function(), 2, {}, args, {"K=3"}),
            "--dim K=3: no parameter of the host orchestrator 'host' has a dim named K");
  args.clear();
  args["a"] = HostTensor::zeros(ir::DType::FP32, {127, 64});
  EXPECT_EQ(prepare_host_args(*rt.host_function(), 2, {}, args),
            "input 'a' (pl.Tensor[[(M * 2), N], pl.FP32]): no value of 'M' makes dim (M * 2) equal 127");
  args.clear();
  args["x"] = HostTensor::zeros(ir::DType::FP32, {2, 3, 64});
  EXPECT_EQ(prepare_host_args(*rt.host_function(), 2, {}, args, {"M=32", "N=64"}),
            "input 'x' (pl.Tensor[[NR, NR, 64], pl.FP32]): dim NR is 2 by the dims bound so far, but the "
            "tensor has 3");
}

TEST(L2Entry, TheChosenChipOrchestrationRunsOnRankZero) {
  auto c = compile("l2_two_orchestrations.py", 2);
  ASSERT_TRUE(c->program);
  std::string error;
  EXPECT_FALSE(with_l2_entry(c->program, "", error));
  EXPECT_EQ(error,
            "program 'TwoOrchestrations' has no host orchestrator and several chip orchestrations (orch_add, "
            "orch_sub); choose the one to run with --entry NAME");
  for (const char* entry : {"orch_add", "orch_sub"}) {
    error.clear();
    ir::Program p = with_l2_entry(c->program, entry, error);
    ASSERT_TRUE(p) << error;
    RunOptions o;
    o.ranks = 2;
    Runtime rt(p, o);
    std::map<std::string, HostTensor> args;
    args["a"] = filled({64, 64}, [](long long i) { return static_cast<float>(i % 29); });
    args["b"] = filled({64, 64}, [](long long i) { return static_cast<float>(i % 5) * 0.25f; });
    ASSERT_EQ(prepare_host_args(*rt.host_function(), 2, {}, args), "");
    RoundResult r = rt.run(args);
    ASSERT_EQ(r.status, RoundResult::Status::Ok) << r.message;
    const bool add = std::string(entry) == "orch_add";
    for (long long i = 0; i < 64 * 64; ++i) {
      float a = static_cast<float>(i % 29), b = static_cast<float>(i % 5) * 0.25f;
      ASSERT_EQ(floats(args["f"])[i], add ? a + b : a - b) << entry << " at " << i;
    }
  }
}

}  // namespace
}  // namespace ptodist::runtime
