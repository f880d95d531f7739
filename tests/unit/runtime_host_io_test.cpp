// Host tensors for the host orchestrator: defaults, seeded data, dynamic dims, .npy round trips and
// one-line reasons for bad --in specs.
#include <gtest/gtest.h>

#include <filesystem>

#include "ptodist/frontend/parser.h"
#include "ptodist/runtime/host_io.h"

namespace ptodist::runtime {
namespace {

const char* kRing = R"(import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def step(x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]):
    t = pl.load(x, [0, 0], [1, 8])
    y = pl.store(t, [0, 0], y)
    return y


@pl.jit
def chip(x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]):
    return step(x, y)


@pl.jit.host
def host(x: pl.Tensor[[pl.dynamic("NR"), 1, 8], pl.FP32], y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, 8], pl.FP32]]):
    for r in pl.range(pld.world_size()):
        chip(x[r], y[r], device=r)
)";

struct Parsed {
  SourceManager sources;
  DiagnosticEngine diags;
  ir::Module module;
  const ir::FunctionNode* host = nullptr;
};

std::unique_ptr<Parsed> parse(const char* text) {
  auto p = std::make_unique<Parsed>();
  p->module = frontend::parse_module(*p->sources.add("host_io.py", text), p->diags);
  EXPECT_TRUE(p->module);
  if (p->module)
    for (const auto& f : p->module->programs.at(0)->functions)
      if (f->kind == ir::FunctionKind::Host) p->host = f.get();
  EXPECT_TRUE(p->host);
  return p;
}

TEST(RuntimeHostIo, DefaultsAreRandZeroForInputsAndZerosForOutputs) {
  auto p = parse(kRing);
  std::map<std::string, HostTensor> args;
  ASSERT_EQ(prepare_host_args(*p->host, 3, {}, args), "");
  EXPECT_EQ(args["x"].shape, (std::vector<long long>{3, 1, 8}));  // dynamic NR = rank count
  EXPECT_EQ(args["x"].data, random_tensor(ir::DType::FP32, {3, 1, 8}, 0, "x").data);
  for (std::byte b : args["y"].data) EXPECT_EQ(b, std::byte{0});
  EXPECT_EQ(rank_sliced_params(*p->host), (std::set<std::string>{"x", "y"}));
}

TEST(RuntimeHostIo, RandomDataIsSeededAndInRange) {
  HostTensor a = random_tensor(ir::DType::FP32, {64}, 5, "a");
  EXPECT_EQ(a.data, random_tensor(ir::DType::FP32, {64}, 5, "a").data);
  EXPECT_NE(a.data, random_tensor(ir::DType::FP32, {64}, 6, "a").data);
  EXPECT_NE(a.data, random_tensor(ir::DType::FP32, {64}, 5, "b").data);
  const auto* v = reinterpret_cast<const float*>(a.data.data());
  for (int i = 0; i < 64; ++i) EXPECT_TRUE(v[i] >= -1 && v[i] < 1);
}

TEST(RuntimeHostIo, NpyInputsBindDynamicDimsAndOutputsRoundTrip) {
  auto p = parse(kRing);
  auto dir = std::filesystem::temp_directory_path() / "ptodist_runtime_host_io";
  std::filesystem::create_directories(dir);
  std::map<std::string, HostTensor> first{{"x", random_tensor(ir::DType::FP32, {2, 1, 8}, 1, "x")},
                                          {"y", random_tensor(ir::DType::FP32, {2, 1, 8}, 2, "y")}};
  ASSERT_EQ(write_host_outputs(*p->host, first, dir.string()), "");  // y is Out: written; x is not
  EXPECT_FALSE(std::filesystem::exists(dir / "x.npy"));
  std::map<std::string, HostTensor> args;
  ASSERT_EQ(prepare_host_args(*p->host, 4, {"x=" + (dir / "y.npy").string()}, args), "");
  EXPECT_EQ(args["x"].data, first["y"].data);
  EXPECT_EQ(args["y"].shape, (std::vector<long long>{2, 1, 8}));  // NR bound by the file, not the ranks
  std::filesystem::remove_all(dir);
}

TEST(RuntimeHostIo, BadSpecsAreOneLineReasons) {
  auto p = parse(kRing);
  std::map<std::string, HostTensor> args;
  EXPECT_EQ(prepare_host_args(*p->host, 2, {"x"}, args),
            "--in 'x': expected name=FILE.npy, name=rand:SEED or name=zeros");
  EXPECT_EQ(prepare_host_args(*p->host, 2, {"x=rand:abc"}, args),
            "--in 'x=rand:abc': the seed of rand:SEED must be an integer from 0 to 2^64 - 1");
  EXPECT_EQ(prepare_host_args(*p->host, 2, {"x=rand:-1"}, args),
            "--in 'x=rand:-1': the seed of rand:SEED must be an integer from 0 to 2^64 - 1");
  EXPECT_EQ(prepare_host_args(*p->host, 2, {"x=zeros", "x=rand:1"}, args),
            "--in 'x' is given twice; give each input once");
  EXPECT_EQ(prepare_host_args(*p->host, 2, {"w=zeros"}, args),
            "--in 'w': the host orchestrator 'host' has no parameter of that name");
}

}  // namespace
}  // namespace ptodist::runtime
