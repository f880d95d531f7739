// insert-comm-fence: the publish-side and consume-side markers, the same rules in bare if/for bodies,
// user-written markers respected, and idempotence.
#include "ptodist/ir/structural_equal.h"
#include "transforms_test_util.h"

namespace ptodist::transforms::testing {
namespace {

const char* kSig =
    "@pl.jit.incore\n"
    "def kernel(\n"
    "    x: pl.Tensor[[1, 256], pl.FP32],\n"
    "    out: pl.Out[pl.Tensor[[1, 256], pl.FP32]],\n"
    "    win: pld.DistributedTensor[[1, 256], pl.FP32],\n"
    "    signal: pld.DistributedTensor[[1, 2], pl.INT32],\n"
    "    n: pl.Scalar[pl.INT64],\n"
    "):\n"
    "    ctx = pld.get_comm_ctx(win)\n"
    "    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)\n";

const std::vector<std::string> kLower = {"specialize", "lower-collectives", "convert-tensor-to-tile",
                                         "bind-async-scratch", "insert-comm-fence"};

class FenceTest : public PassTest {
 protected:
  ir::Program fence(const std::string& body) { return run(std::string(kSig) + body, kLower); }
  // The body after the two prologue statements.
  std::vector<std::string> ops(const ir::Program& p) {
    std::vector<std::string> all = op_sequence(kernel(p)->body);
    return std::vector<std::string>(all.begin() + 2, all.end());
  }
};

TEST_F(FenceTest, WindowStoreGetsRegionInvalidateThenFence) {
  ir::Program p = fence(
      "    t = pl.load(x, [0, 0], [1, 256])\n"
      "    win = pl.store(t, [0, 0], win)\n"
      "    out = pl.store(t, [0, 0], out)\n");
  ASSERT_TRUE(p) << all_diagnostics();
  EXPECT_EQ(ops(p), (std::vector<std::string>{"pl.load", "pl.store", "pl.system.cacheinvalid",
                                              "pl.system.fence", "pl.store"}));
  std::vector<ir::Stmt> all;
  flatten(kernel(p)->body, all);
  EXPECT_EQ(ir::print_expr(top_call(all[4])->arg("shapes")), "[1, 256]");
  EXPECT_EQ(ir::print_expr(top_call(all[4])->arg("tensor")), "win");
}

TEST_F(FenceTest, SyncPutGetsFenceOnlyAndAsyncIssueNothing) {
  ir::Program p = fence(
      "    pld.tensor.put(win, peer, x)\n"
      "    sess = pld.system.async_session()\n"
      "    evt = pld.tensor.put_async(win, peer, x, sess)\n"
      "    pld.system.wait_async_event(evt, sess)\n"
      "    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)\n");
  ASSERT_TRUE(p) << all_diagnostics();
  EXPECT_EQ(ops(p),
            (std::vector<std::string>{"pl.create_tile", "pld.tile.put", "pl.system.fence", "pl.create_tile",
                                      "pld.tile.async_session", "pld.tile.put_async",
                                      "pld.tile.wait_async_event", "pl.system.fence", "pld.system.notify"}));
}

TEST_F(FenceTest, ARunOfWaitsGetsOneWholeInvalidate) {
  ir::Program p = fence(
      "    pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Eq)\n"
      "    pld.system.wait(signal, [0, 1], 1, cmp=pld.WaitCmp.Eq)\n"
      "    t = pl.load(win, [0, 0], [1, 256])\n");
  ASSERT_TRUE(p) << all_diagnostics();
  EXPECT_EQ(ops(p), (std::vector<std::string>{"pld.system.wait", "pld.system.wait", "pl.system.cacheinvalid",
                                              "pl.load"}));
  std::vector<ir::Stmt> all;
  flatten(kernel(p)->body, all);
  EXPECT_FALSE(top_call(all[4])->arg("tensor"));
}

TEST_F(FenceTest, PutAsyncInABareIfGetsNoIssueMarker) {
  ir::Program p = fence(
      "    sess = pld.system.async_session()\n"
      "    evt = pld.tensor.put_async(win, peer, x, sess)\n"
      "    if n > 0:\n"
      "        evt2 = pld.tensor.put_async(win, peer, x, sess)\n"
      "        pld.system.wait_async_event(evt2, sess)\n"
      "    pld.system.wait_async_event(evt, sess)\n");
  ASSERT_TRUE(p) << all_diagnostics();
  const ir::If* branch = nullptr;
  for (const ir::Stmt& s : kernel(p)->body)
    if (s->isa<ir::If>()) branch = s->as<ir::If>();
  ASSERT_TRUE(branch);
  EXPECT_EQ(op_sequence(branch->then_body),
            (std::vector<std::string>{"pld.tile.put_async", "pld.tile.wait_async_event", "pl.system.fence"}));
}

TEST_F(FenceTest, AsyncWaitInABareIfGetsItsFence) {
  ir::Program p = fence(
      "    sess = pld.system.async_session()\n"
      "    evt = pld.tensor.put_async(win, peer, x, sess)\n"
      "    if n > 0:\n"
      "        pld.system.wait_async_event(evt, sess)\n"
      "    else:\n"
      "        pld.system.wait_async_event(evt, sess)\n"
      "    for i in pl.range(n):\n"
      "        pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Eq)\n");
  ASSERT_TRUE(p) << all_diagnostics();
  const ir::If* branch = nullptr;
  const ir::For* loop = nullptr;
  for (const ir::Stmt& s : kernel(p)->body) {
    if (s->isa<ir::If>()) branch = s->as<ir::If>();
    if (s->isa<ir::For>()) loop = s->as<ir::For>();
  }
  ASSERT_TRUE(branch && loop);
  const std::vector<std::string> wait_fence = {"pld.tile.wait_async_event", "pl.system.fence"};
  EXPECT_EQ(op_sequence(branch->then_body), wait_fence);
  EXPECT_EQ(op_sequence(branch->else_body), wait_fence);
  EXPECT_EQ(op_sequence(loop->body), (std::vector<std::string>{"pld.system.wait", "pl.system.cacheinvalid"}));
}

TEST_F(FenceTest, UserWrittenMarkersAreNotDuplicated) {
  ir::Program p = fence(
      "    pld.tensor.put(win, peer, x)\n"
      "    pl.system.fence()\n");
  ASSERT_TRUE(p) << all_diagnostics();
  EXPECT_EQ(ops(p), (std::vector<std::string>{"pl.create_tile", "pld.tile.put", "pl.system.fence"}));
}

TEST_F(FenceTest, RunningTwiceChangesNothing) {
  ir::Program once = fence(
      "    t = pl.load(x, [0, 0], [1, 256])\n"
      "    win = pl.store(t, [0, 0], win)\n"
      "    pld.tensor.put(win, peer, x)\n"
      "    sess = pld.system.async_session()\n"
      "    evt = pld.tensor.put_async(win, peer, x, sess)\n"
      "    if n > 0:\n"
      "        pld.system.wait_async_event(evt, sess)\n"
      "    else:\n"
      "        pld.system.wait_async_event(evt, sess)\n"
      "    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)\n"
      "    pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Eq)\n"
      "    pld.system.wait(signal, [0, 1], 1, cmp=pld.WaitCmp.Eq)\n");
  ASSERT_TRUE(once) << all_diagnostics();
  PassContext cx = context();
  ir::Program twice = run_passes(once, {"insert-comm-fence"}, cx);
  ASSERT_TRUE(twice) << all_diagnostics();
  std::string why;
  EXPECT_TRUE(ir::structural_equal(once, twice, &why)) << why;
  EXPECT_EQ(ir::print_program(once), ir::print_program(twice));
}

}  // namespace
}  // namespace ptodist::transforms::testing
