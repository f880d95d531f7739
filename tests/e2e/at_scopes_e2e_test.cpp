// End-to-end runs of code the front end moves between functions, with golden outputs computed here:
// `with pl.at(...)` scopes (CORE_GROUP scopes submitted with task ids and deps= inside a manual scope, a
// publisher that releases the waiters of its peer, CHIP scopes placed round-robin by the host), the
// forms of `pl.spmd(N)` (each block writing its own slice) and @pl.jit.inline calls spliced into a kernel.
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

ir::Program compile(const std::string& file, SourceManager& sources, DiagnosticEngine& diags) {
  std::string error;
  const SourceFile* f = sources.load(std::string(PTODIST_SOURCE_DIR) + "/tests/e2e/programs/" + file, &error);
  EXPECT_TRUE(f) << error;
  ir::Module m = f ? frontend::parse_module(*f, diags) : nullptr;
  EXPECT_TRUE(m);
  if (!m) return nullptr;
  transforms::PassContext cx{.diags = diags};
  cx.bindings = {{"world_size", 2}};
  cx.module = m;
  ir::Program program = transforms::run_pipeline(m->programs.at(0), cx);
  EXPECT_FALSE(diags.has_errors());
  return diags.has_errors() ? nullptr : program;
}

TEST(AtScopes, OutlinedScopesComputeWhatTheBodiesSay) {
  SourceManager sources;
  DiagnosticEngine diags;
  ir::Program program = compile("at_scopes.py", sources, diags);
  ASSERT_TRUE(program);
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

// Every pl.spmd form: y = 3x (loop form), z = y + 1 (inline with-form), w = rows of z reversed + 10
// (dispatch of a kernel that writes row B-1-i from block i), v = 2w (pl.at carrier, 2 rows a block).
TEST(SpmdScopes, EachBlockWritesItsOwnSlice) {
  SourceManager sources;
  DiagnosticEngine diags;
  ir::Program program = compile("spmd_scopes.py", sources, diags);
  ASSERT_TRUE(program);
  RunOptions o;
  o.ranks = 2;
  Runtime rt(program, o);
  constexpr long long B = 4, N = 64;
  auto x_at = [](long long i) { return static_cast<float>(i % 37) - 5.0f; };
  std::map<std::string, HostTensor> args;
  args["xs"] = HostTensor::zeros(ir::DType::FP32, {2, B, N});
  for (long long i = 0; i < 2 * B * N; ++i) floats(args["xs"])[i] = x_at(i);
  ASSERT_EQ(prepare_host_args(*rt.host_function(), 2, {}, args), "");
  RoundResult result = rt.run(args);
  ASSERT_EQ(result.status, RoundResult::Status::Ok) << result.message;
  for (long long r = 0; r < 2; ++r)
    for (long long row = 0; row < B; ++row)
      for (long long j = 0; j < N; ++j) {
        long long at = (r * B + row) * N + j;
        float z = 3.0f * x_at(at) + 1.0f;
        float w = 3.0f * x_at((r * B + B - 1 - row) * N + j) + 1.0f + 10.0f;
        ASSERT_EQ(floats(args["ys"])[at], 3.0f * x_at(at)) << "ys " << r << "," << row << "," << j;
        ASSERT_EQ(floats(args["zs"])[at], z) << "zs " << r << "," << row << "," << j;
        ASSERT_EQ(floats(args["ws"])[at], w) << "ws " << r << "," << row << "," << j;
        ASSERT_EQ(floats(args["vs"])[at], 2.0f * w) << "vs " << r << "," << row << "," << j;
      }
}

// out[r] = (a[r] + a[r]) * 1.5, after both ranks met at the signal exchange.
TEST(InlineCalls, SplicedBodiesComputeWhatTheHelpersSay) {
  SourceManager sources;
  DiagnosticEngine diags;
  ir::Program program = compile("inline_calls.py", sources, diags);
  ASSERT_TRUE(program);
  RunOptions o;
  o.ranks = 2;
  Runtime rt(program, o);
  std::map<std::string, HostTensor> args;
  args["a"] = HostTensor::zeros(ir::DType::FP32, {2, 1, 64});
  for (long long i = 0; i < 128; ++i) floats(args["a"])[i] = static_cast<float>(i % 23) - 7.0f;
  ASSERT_EQ(prepare_host_args(*rt.host_function(), 2, {}, args), "");
  RoundResult result = rt.run(args);
  ASSERT_EQ(result.status, RoundResult::Status::Ok) << result.message;
  for (long long i = 0; i < 128; ++i)
    ASSERT_EQ(floats(args["out"])[i], 3.0f * (static_cast<float>(i % 23) - 7.0f)) << "out at " << i;
}

}  // namespace
}  // namespace ptodist::runtime
