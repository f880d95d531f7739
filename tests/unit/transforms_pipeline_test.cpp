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
    "    one: pl.Tensor[[1, 64], pl.FP32],\n"
    "    counts: pl.Tensor[[4, 1], pl.INT32],\n"
    "    win: pld.DistributedTensor[[4, 64], pl.FP32],\n"
    "    gathered: pld.DistributedTensor[[4, 64], pl.FP32],\n"
    "    signal: pld.DistributedTensor[[4, 1], pl.INT32],\n"
    "    recv: pld.DistributedTensor[[4, 1], pl.INT32],\n"
    "    ring: pld.DistributedTensor[[6, 4], pl.INT32],\n"
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

// The notify values and wait generations of a lowered kernel, in statement order (then before else).
std::vector<std::string> credits(const ir::Function& f) {
  std::vector<ir::Stmt> all;
  flatten(f->body, all);
  std::vector<std::string> values;
  for (const ir::Stmt& s : all) {
    const ir::OpCall* c = top_call(s);
    if (c && c->op->id == ir::OpId::Notify) values.push_back("notify " + ir::print_expr(c->arg("value")));
    if (c && c->op->id == ir::OpId::Wait) values.push_back("wait " + ir::print_expr(c->arg("expected")));
  }
  return values;
}

// PyPTO's self-clearing credit barrier on a signal of 2 cells (mesh): +1 into my cell of every peer,
// wait for generation 1 on every peer's cell of mine, then take the credits back out of my own cells.
TEST_F(PipelineTest, BarrierLowersToTheSelfClearingCreditBarrier) {
  bindings["world_size"] = 2;
  ir::Program p =
      run("@pl.jit.incore\n"
          "def kernel(signal: pld.DistributedTensor[[2, 1], pl.INT32]):\n"
          "    signal = pld.tensor.barrier(signal)\n",
          {"specialize", "lower-collectives"});
  ASSERT_TRUE(p) << all_diagnostics();
  EXPECT_EQ(op_sequence(kernel(p)->body),
            (std::vector<std::string>{"pld.get_comm_ctx", "pld.rank", "pld.nranks", "for", "for", "for"}));
  EXPECT_EQ(credits(kernel(p)), (std::vector<std::string>{"notify 1", "wait 1", "notify -1"}));
}

// On more than 2 cells the credits go through rank 0 (central): rank 0 waits for every rank, then
// credits each; every other rank credits rank 0 and waits for it; each epilogue takes back its own.
TEST_F(PipelineTest, BarrierOfMoreThanTwoRanksGoesThroughRankZero) {
  bindings["world_size"] = 4;
  ir::Program p = run(std::string(kKernel) + "    signal = pld.tensor.barrier(signal)\n",
                      {"specialize", "lower-collectives"});
  ASSERT_TRUE(p) << all_diagnostics();
  EXPECT_EQ(op_sequence(kernel(p)->body),
            (std::vector<std::string>{"pld.get_comm_ctx", "pld.rank", "pld.nranks", "if", "if"}));
  EXPECT_EQ(credits(kernel(p)),
            (std::vector<std::string>{"wait 1", "notify 1", "notify 1", "wait 1", "notify -1", "notify -1"}));
}

TEST_F(PipelineTest, EveryCollectiveLowersThroughTheWholePipeline) {
  bindings["world_size"] = 4;
  ir::Program p = run(std::string(kKernel) +
                          "    signal = pld.tensor.barrier(signal)\n"
                          "    gathered = pld.tensor.allgather(one, gathered, signal)\n"
                          "    win = pld.tensor.broadcast(win, signal, root=0)\n"
                          "    win = pld.tensor.allreduce(win, signal, op=pld.ReduceOp.Max)\n"
                          "    win = pld.tensor.allreduce(win, ring, mode=\"ring\")\n"
                          "    win = pld.tensor.reduce_scatter(win, signal)\n"
                          "    gathered = pld.tensor.all_to_all(x, gathered, signal)\n"
                          "    gathered = pld.tensor.all_to_all_v(x, gathered, signal, counts, recv)\n"
                          "    for i in pl.range(2):\n"
                          "        signal = pld.tensor.barrier(signal)\n",
                      {"specialize", "lower-collectives", "convert-tensor-to-tile", "bind-async-scratch",
                       "check-async-events", "plan-memory", "insert-comm-fence"});
  ASSERT_TRUE(p) << all_diagnostics();
  std::vector<ir::Stmt> all;
  flatten(kernel(p)->body, all);
  int waits = 0;
  for (const ir::Stmt& s : all) {
    const ir::OpCall* c = top_call(s);
    ASSERT_FALSE(c && c->op->has(ir::kNotify) && c->op->has(ir::kWait))
        << "collective left: " << c->op->spelling;
    waits += c && c->op->id == ir::OpId::Wait;
  }
  EXPECT_GT(waits, 9);
}

TEST_F(PipelineTest, ACollectiveInsideAnExpressionIsALocatedError) {
  bindings["world_size"] = 4;
  EXPECT_FALSE(run(std::string(kKernel) +
                       "    t = pl.load(pld.tensor.allgather(one, gathered, signal), [0, 0], [1, 64])\n",
                   {"specialize", "lower-collectives"}));
  EXPECT_NE(first_error().find("a collective must be a statement of its own"), std::string::npos)
      << all_diagnostics();
}

}  // namespace
}  // namespace ptodist::transforms::testing
