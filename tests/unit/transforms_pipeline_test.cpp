// The pipeline and registry: pass order, -p lists, --no-pass, --print-after-all, and the collectives'
// lowering checked end to end through the whole pipeline (the verifier runs after every pass).
#include <sstream>

#include "transforms_test_util.h"

namespace ptodist::transforms::testing {
namespace {

using PipelineTest = PassTest;

TEST(PassRegistry, EveryPipelinePassIsRegistered) {
  for (const char* flag : {"specialize", "lower-collectives", "convert-tensor-to-tile", "bind-async-scratch",
                           "check-async-events", "check-core-budget", "plan-memory", "insert-comm-fence",
                           "print-async-events"}) {
    const PassInfo* p = find_pass(flag);
    ASSERT_TRUE(p) << flag;
    EXPECT_STREQ(p->flag, flag);
    EXPECT_TRUE(p->run);
  }
  EXPECT_FALSE(find_pass("no-such-pass"));
}

const char* kKernel =
    "@pl.jit.incore\n"
    "def kernel(\n"
    "    x: pl.Tensor[[4, 64], pl.FP32],\n"
    "    y: pl.Out[pl.Tensor[[4, 64], pl.FP32]],\n"
    "    win: pld.DistributedTensor[[4, 64], pl.FP32],\n"
    "    gathered: pld.DistributedTensor[[16, 64], pl.FP32],\n"
    "    scratch: pld.DistributedTensor[[16, 64], pl.FP32],\n"
    "    signal: pld.DistributedTensor[[1, 1], pl.INT32],\n"
    "    s2: pld.DistributedTensor[[1, 1], pl.INT32],\n"
    "    s3: pld.DistributedTensor[[1, 1], pl.INT32],\n"
    "    s4: pld.DistributedTensor[[1, 1], pl.INT32],\n"
    "    s5: pld.DistributedTensor[[1, 1], pl.INT32],\n"
    "    s6: pld.DistributedTensor[[1, 1], pl.INT32],\n"
    "):\n";

TEST_F(PipelineTest, UnknownPassIsAnError) {
  EXPECT_FALSE(run(std::string(kKernel) + "    pld.tensor.barrier(signal)\n", {"specialize", "bogus"}));
  EXPECT_NE(first_error().find("unknown pass 'bogus'"), std::string::npos);
}

TEST_F(PipelineTest, PrintAfterAllDumpsEveryPass) {
  ir::Program p = parse(std::string(kKernel) + "    pld.tensor.barrier(signal)\n");
  ASSERT_TRUE(p);
  std::ostringstream os;
  PassContext cx = context();
  cx.print_after_all = &os;
  cx.bindings["world_size"] = 4;
  ASSERT_TRUE(run_pipeline(p, cx)) << all_diagnostics();
  std::string dump = os.str();
  size_t a = dump.find("// -----// IR Dump After specialize //----- //");
  size_t b = dump.find("// -----// IR Dump After insert-comm-fence //----- //");
  EXPECT_NE(a, std::string::npos);
  EXPECT_NE(b, std::string::npos);
  EXPECT_LT(a, b);
}

TEST_F(PipelineTest, DisabledPassIsSkipped) {
  ir::Program p = parse(std::string(kKernel) + "    pld.tensor.barrier(signal)\n");
  ASSERT_TRUE(p);
  PassContext cx = context();
  cx.disabled.insert("insert-comm-fence");
  ir::Program out = run_pipeline(p, cx);
  ASSERT_TRUE(out) << all_diagnostics();
  for (const std::string& op : op_sequence(kernel(out)->body)) EXPECT_NE(op, "pl.system.cacheinvalid");
}

TEST_F(PipelineTest, BarrierLowersToNotifyEveryPeerThenWait) {
  bindings["world_size"] = 4;
  ir::Program p =
      run(std::string(kKernel) + "    pld.tensor.barrier(signal)\n", {"specialize", "lower-collectives"});
  ASSERT_TRUE(p) << all_diagnostics();
  EXPECT_EQ(op_sequence(kernel(p)->body),
            (std::vector<std::string>{"pld.get_comm_ctx", "pld.rank", "for", "pld.system.wait"}));
  const ir::OpCall* wait = top_call(kernel(p)->body.back());
  EXPECT_EQ(ir::print_expr(wait->arg("expected")), "4");
}

TEST_F(PipelineTest, EveryCollectiveLowersThroughTheWholePipeline) {
  bindings["world_size"] = 4;
  ir::Program p = run(std::string(kKernel) +
                          "    pld.tensor.barrier(signal)\n"
                          "    pld.tensor.allgather(gathered, x, s2)\n"
                          "    pld.tensor.broadcast(win, s3, 0)\n"
                          "    pld.tensor.allreduce(win, scratch, s4)\n"
                          "    pld.tensor.reduce_scatter(y, gathered, scratch, s5)\n"
                          "    pld.tensor.all_to_all(gathered, scratch, s6)\n"
                          "    pld.tensor.barrier(signal)\n",
                      {"specialize", "lower-collectives", "convert-tensor-to-tile", "bind-async-scratch",
                       "check-async-events", "plan-memory", "insert-comm-fence"});
  ASSERT_TRUE(p) << all_diagnostics();
  std::vector<ir::Stmt> all;
  flatten(kernel(p)->body, all);
  std::vector<std::string> expected;
  for (const ir::Stmt& s : all) {
    const ir::OpCall* c = top_call(s);
    ASSERT_FALSE(c && c->op->has(ir::kNotify) && c->op->has(ir::kWait))
        << "collective left: " << c->op->spelling;
    if (c && c->op->id == ir::OpId::Wait) expected.push_back(ir::print_expr(c->arg("expected")));
  }
  // Barriers on one signal wait for the running total of notifies.
  EXPECT_EQ(expected, (std::vector<std::string>{"4", "4", "1", "4", "4", "4", "8"}));
}

TEST_F(PipelineTest, DataCollectivesDoNotShareASignal) {
  bindings["world_size"] = 4;
  EXPECT_FALSE(run(std::string(kKernel) + "    pld.tensor.barrier(signal)\n"
                                          "    pld.tensor.allgather(gathered, x, signal)\n",
                   {"specialize", "lower-collectives"}));
  EXPECT_NE(first_error().find("is already used by another collective"), std::string::npos)
      << all_diagnostics();
}

TEST_F(PipelineTest, CollectivesInLoopsAreRejected) {
  bindings["world_size"] = 4;
  EXPECT_FALSE(run(std::string(kKernel) + "    for i in pl.range(2):\n"
                                          "        pld.tensor.barrier(signal)\n",
                   {"specialize", "lower-collectives"}));
  EXPECT_NE(first_error().find("inside a loop"), std::string::npos) << all_diagnostics();
}

}  // namespace
}  // namespace ptodist::transforms::testing
