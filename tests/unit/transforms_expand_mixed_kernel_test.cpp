// expand-mixed-kernel: which kernels split, what each half keeps, the boundary's push/pop/free, the pipe
// set-up, the Group, and the located errors (the lit tests run the split programs end to end).
#include "transforms_test_util.h"

namespace ptodist::transforms::testing {
namespace {

using ExpandMixedTest = PassTest;

const std::vector<std::string> kPasses = {"specialize", "convert-tensor-to-tile", "name-tile-operands",
                                          "expand-mixed-kernel"};

const char* kProgram =
    "@pl.program\n"
    "class P:\n"
    "    @pl.function(type=pl.FunctionType.InCore)\n"
    "    def kernel(self, x: pl.Tensor[[16, 16], pl.FP16], sig: pld.DistributedTensor[[1, 2], pl.INT32],\n"
    "               y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:\n"
    "        xt = pl.transpose(x, 0, 1)\n"
    "        a = pl.move(pl.load(x, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)\n"
    "        b = pl.move(pl.load(xt, [0, 0], [16, 16], target_memory=pl.Mem.Mat), "
    "target_memory=pl.Mem.Right)\n"
    "        acc = pl.matmul(a, b, out_dtype=pl.FP32)\n"
    "        v = pl.move(acc, target_memory=pl.Mem.Vec)\n"
    "        w = pl.exp(v)\n"
    "        y = pl.store(pl.adds(w, 1.0), [0, 0], y)\n"
    "        pld.system.notify(sig, 0, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)\n"
    "        return y\n"
    "\n"
    "    @pl.function(type=pl.FunctionType.InCore)\n"
    "    def vector_only(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):\n"
    "        y = pl.store(pl.exp(pl.load(x, [0, 0], [16, 16])), [0, 0], y)\n"
    "\n"
    "    @pl.function(type=pl.FunctionType.AIC)\n"
    "    def kernel_aic(self, x: pl.Tensor[[16, 16], pl.FP32]):\n"
    "        pass\n";

std::vector<std::string> ops_of(const ir::Function& f) {
  std::vector<ir::Stmt> all;
  flatten(f->body, all);
  std::vector<std::string> out;
  for (const ir::Stmt& s : all)
    if (const ir::OpCall* c = top_call(s)) out.push_back(c->op->spelling);
  return out;
}

int count(const std::vector<std::string>& ops, const std::string& op) {
  return static_cast<int>(std::count(ops.begin(), ops.end(), op));
}

TEST_F(ExpandMixedTest, SplitsOnlyTheMixedKernelIntoAicAivAndGroup) {
  ir::Program p = run(kProgram, kPasses);
  ASSERT_TRUE(p) << all_diagnostics();
  std::vector<std::pair<std::string, ir::FunctionKind>> fns;
  for (const ir::Function& f : p->functions) fns.push_back({f->name, f->kind});
  // The name kernel_aic is taken: the cube half gets kernel_aic_1.
  std::vector<std::pair<std::string, ir::FunctionKind>> want = {{"kernel_aic_1", ir::FunctionKind::AIC},
                                                                {"kernel_aiv", ir::FunctionKind::AIV},
                                                                {"kernel", ir::FunctionKind::Group},
                                                                {"vector_only", ir::FunctionKind::InCore},
                                                                {"kernel_aic", ir::FunctionKind::AIC}};
  EXPECT_EQ(fns, want);
}

TEST_F(ExpandMixedTest, EachHalfKeepsItsSideAndTheBoundaryBecomesThePipe) {
  ir::Program p = run(kProgram, kPasses);
  ASSERT_TRUE(p) << all_diagnostics();
  std::vector<std::string> cube = ops_of(p->find("kernel_aic_1")), vector = ops_of(p->find("kernel_aiv"));
  EXPECT_EQ(cube, (std::vector<std::string>{"pl.import_peer_buffer", "pl.aic_initialize_pipe", "pl.transpose",
                                            "pl.load", "pl.move", "pl.load", "pl.move", "pl.matmul",
                                            "pl.tpush_to_aiv"}));
  // The transpose only the cube's load reads is gone from the vector half; the notify runs there only.
  EXPECT_EQ(vector, (std::vector<std::string>{"pl.reserve_buffer", "pl.aiv_initialize_pipe",
                                              "pl.tpop_from_aic", "pl.exp", "pl.tfree_to_aic", "pl.adds",
                                              "pl.store", "pld.system.notify"}));
  EXPECT_EQ(count(vector, "pl.transpose"), 0);
  EXPECT_TRUE(p->find("kernel_aic_1")->return_types.empty());
  EXPECT_EQ(p->find("kernel_aiv")->return_types.size(), 1u);
}

TEST_F(ExpandMixedTest, TheGroupCallsBothHalvesAndReturnsTheWrittenParameter) {
  ir::Program p = run(kProgram, kPasses);
  ASSERT_TRUE(p) << all_diagnostics();
  std::string group = ir::print_function(p->find("kernel"));
  EXPECT_NE(group.find("    self.kernel_aic_1(x, sig, y)\n    self.kernel_aiv(x, sig, y)\n    return y\n"),
            std::string::npos)
      << group;
}

TEST_F(ExpandMixedTest, TheSlotHoldsTheLargestCrossingTileTwice) {
  ir::Program p = run(kProgram, kPasses);
  ASSERT_TRUE(p) << all_diagnostics();
  std::string aiv = ir::print_function(p->find("kernel_aiv"));
  EXPECT_NE(aiv.find("pl.reserve_buffer(name=\"kernel_c2v_slot_buffer\", size=2048)"), std::string::npos)
      << aiv;
  EXPECT_NE(aiv.find("dir_mask=1, slot_size=1024, slot_num=2"), std::string::npos) << aiv;
}

TEST_F(ExpandMixedTest, DataThroughGmBetweenTheHalvesIsAnError) {
  EXPECT_FALSE(
      run("@pl.jit.incore\n"
          "def kernel(x: pl.Tensor[[16, 16], pl.FP16], t: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):\n"
          "    a = pl.move(pl.load(x, [0, 0], [16, 16], target_memory=pl.Mem.Mat), "
          "target_memory=pl.Mem.Left)\n"
          "    b = pl.move(pl.load(x, [0, 0], [16, 16], target_memory=pl.Mem.Mat), "
          "target_memory=pl.Mem.Right)\n"
          "    t = pl.store(pl.matmul(a, b, out_dtype=pl.FP32), [0, 0], t)\n"
          "    t = pl.store(pl.exp(pl.load(t, [0, 0], [16, 16])), [0, 0], t)\n",
          kPasses));
  EXPECT_EQ(
      first_error(),
      "expand-mixed-kernel: the vector (AIV) half reads 't', which the cube (AIC) half writes; after the "
      "split they run on different cores and nothing orders the two. Hand the data over as a tile with "
      "pl.move, or compute it in a kernel of its own");
}

}  // namespace
}  // namespace ptodist::transforms::testing
