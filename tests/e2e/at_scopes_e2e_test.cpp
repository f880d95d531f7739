// End-to-end run of `with pl.at(...)` scopes (tests/e2e/programs/at_scopes.py) with golden outputs
// computed here: CORE_GROUP scopes submitted with task ids and deps= inside a manual scope, a publisher
// that releases the waiters of its peer, and CHIP scopes placed round-robin by the host.
#include <gtest/gtest.h>

#include <map>

#include "ptodist/frontend/parser.h"
#include "ptodist/runtime/host_io.h"
#include "ptodist/runtime/runtime.h"
#include "ptodist/transforms/pass.h"

namespace ptodist::runtime {
namespace {

float* floats(HostTensor& t) {
  return reinterpret_cast<float*>(t.data.data());
}

TEST(AtScopes, OutlinedScopesComputeWhatTheBodiesSay) {
  SourceManager sources;
  DiagnosticEngine diags;
  std::string error;
  const SourceFile* f =
      sources.load(std::string(PTODIST_SOURCE_DIR) + "/tests/e2e/programs/at_scopes.py", &error);
  ASSERT_TRUE(f) << error;
  ir::Module m = frontend::parse_module(*f, diags);
  ASSERT_TRUE(m);
  transforms::PassContext cx{.diags = diags};
  cx.bindings = {{"world_size", 2}};
  cx.module = m;
  ir::Program program = transforms::run_pipeline(m->programs.at(0), cx);
  ASSERT_FALSE(diags.has_errors());
  RunOptions o;
  o.ranks = 2;
  Runtime rt(program, o);
  constexpr int N = 64;
  auto x_at = [](long long r, long long row, long long j) {
    return static_cast<float>(1000 * r + 100 * row + j);
  };
  std::map<std::string, HostTensor> args;
  args["xs"] = HostTensor::zeros(ir::DType::FP32, {2, 4, N});
  args["a"] = HostTensor::zeros(ir::DType::FP32, {4, N});
  args["b"] = HostTensor::zeros(ir::DType::FP32, {4, N});
  for (long long r = 0; r < 2; ++r)
    for (long long row = 0; row < 4; ++row)
      for (long long j = 0; j < N; ++j) floats(args["xs"])[(r * 4 + row) * N + j] = x_at(r, row, j);
  for (long long i = 0; i < 4 * N; ++i) {
    floats(args["a"])[i] = static_cast<float>(i % 17);
    floats(args["b"])[i] = static_cast<float>(i % 5) * 0.5f;
  }
  ASSERT_EQ(prepare_host_args(*rt.host_function(), 2, {}, args), "");
  RoundResult result = rt.run(args);
  ASSERT_EQ(result.status, RoundResult::Status::Ok) << result.message;
  // Rows 0..2 of rank r: the peer's row 3 (published into r's box) plus r's own row; row 3 untouched.
  for (long long r = 0; r < 2; ++r)
    for (long long row = 0; row < 4; ++row)
      for (long long j = 0; j < N; ++j) {
        float want = row < 3 ? x_at(1 - r, 3, j) + x_at(r, row, j) : 0.0f;
        ASSERT_EQ(floats(args["outs"])[(r * 4 + row) * N + j], want) << r << "," << row << "," << j;
      }
  for (long long i = 0; i < 4 * N; ++i) {
    float a = static_cast<float>(i % 17), b = static_cast<float>(i % 5) * 0.5f;
    ASSERT_EQ(floats(args["s"])[i], a + b) << "s at " << i;
    ASSERT_EQ(floats(args["d"])[i], a - b) << "d at " << i;
  }
}

}  // namespace
}  // namespace ptodist::runtime
