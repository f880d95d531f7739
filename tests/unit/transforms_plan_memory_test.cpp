// plan-memory: dead tiles' buffers are reused, live ones never overlap, an elementwise result takes a
// dead operand's buffer and only an exact one, loops keep values live, the async scratch stays reserved
// from its session to its last wait, and over-capacity is an error that names the kernel, the memory,
// the bytes and the buffers.
#include "ptodist/ir/type.h"
#include "transforms_test_util.h"

namespace ptodist::transforms::testing {
namespace {

const char* kSig =
    "@pl.jit.incore\n"
    "def kernel(\n"
    "    x: pl.Tensor[[128, 512], pl.FP16],\n"
    "    y: pl.Out[pl.Tensor[[128, 512], pl.FP16]],\n"
    "    row: pld.DistributedTensor[[1, 256], pl.FP32],\n"
    "    xr: pl.Tensor[[1, 256], pl.FP32],\n"
    "    n: pl.Scalar[pl.INT64],\n"
    "):\n";

struct Slot {
  long long addr, bytes;
  bool overlaps(const Slot& o) const { return addr < o.addr + o.bytes && o.addr < addr + bytes; }
};

class PlanMemoryTest : public PassTest {
 protected:
  ir::Program plan(const std::string& body) {
    program = run(std::string(kSig) + body, {"specialize", "convert-tensor-to-tile", "bind-async-scratch",
                                             "name-tile-operands", "plan-memory"});
    return program;
  }
  Slot slot(const std::string& name) {
    ir::Var v = defined_var(kernel(program), name);
    EXPECT_TRUE(v) << name;
    if (!v) return {-1, 0};
    long long bytes = ir::dtype_bytes(v->type->dtype);
    auto dims = v->type->static_shape();
    for (long long d : dims.value_or(std::vector<long long>{})) bytes *= d;
    return {v->type->addr, bytes};
  }
  ir::Program program;
};

TEST_F(PlanMemoryTest, DeadTileBytesAreReused) {
  ASSERT_TRUE(
      plan("    a = pl.load(x, [0, 0], [64, 512])\n"
           "    y = pl.store(a, [0, 0], y)\n"
           "    b = pl.load(x, [64, 0], [64, 512])\n"
           "    y = pl.store(b, [64, 0], y)\n"))
      << all_diagnostics();
  EXPECT_EQ(slot("a").addr, 0);
  EXPECT_EQ(slot("b").addr, 0);
}

TEST_F(PlanMemoryTest, LiveTilesGetDisjointAlignedBytes) {
  ASSERT_TRUE(
      plan("    a = pl.load(x, [0, 0], [1, 40])\n"
           "    b = pl.load(x, [1, 0], [1, 40])\n"
           "    c = pl.add(a, b)\n"
           "    y = pl.store(c, [0, 0], y)\n"
           "    y = pl.store(a, [1, 0], y)\n"))
      << all_diagnostics();
  Slot a = slot("a"), b = slot("b"), c = slot("c");
  EXPECT_FALSE(a.overlaps(b));
  EXPECT_FALSE(c.overlaps(a));
  EXPECT_EQ(c.addr, b.addr) << "b's last use is the add";
  for (const Slot& s : {a, b, c}) EXPECT_EQ(s.addr % profile.alignment, 0);
}

TEST_F(PlanMemoryTest, AnElementwiseResultTakesTheBufferOfAnOperandDyingThere) {
  ASSERT_TRUE(
      plan("    a = pl.load(x, [0, 0], [64, 512])\n"
           "    b = pl.load(x, [64, 0], [64, 512])\n"
           "    c = pl.add(a, b)\n"
           "    d = pl.muls(c, 2.0)\n"
           "    y = pl.store(d, [0, 0], y)\n"))
      << all_diagnostics();
  EXPECT_EQ(slot("c").addr, slot("a").addr);
  EXPECT_EQ(slot("d").addr, slot("a").addr);
  EXPECT_FALSE(slot("a").overlaps(slot("b")));
}

TEST_F(PlanMemoryTest, ANonElementwiseResultNeverTakesItsOperandsBuffer) {
  ASSERT_TRUE(
      plan("    a = pl.load(x, [0, 0], [64, 512])\n"
           "    m = pl.move(a, target_memory=pl.Mem.Vec)\n"
           "    r = pl.row_sum(m)\n"
           "    w = pl.cast(r, pl.FP32)\n"
           "    y = pl.store(m, [0, 0], y)\n"
           "    y = pl.store(pl.cast(w, pl.FP16), [64, 0], y)\n"))
      << all_diagnostics();
  EXPECT_FALSE(slot("m").overlaps(slot("a")));
  EXPECT_FALSE(slot("r").overlaps(slot("m")));
  EXPECT_FALSE(slot("w").overlaps(slot("r"))) << "a widening cast";
}

TEST_F(PlanMemoryTest, SharedBuffersStartAtTheSameOffset) {
  // Smaller tiles join a larger dead tile's buffer at its offset, never part-way into it, so an
  // in-place op reads and writes the same elements.
  ASSERT_TRUE(
      plan("    big = pl.load(x, [0, 0], [64, 512])\n"
           "    y = pl.store(big, [0, 0], y)\n"
           "    s = pl.load(x, [0, 0], [16, 512])\n"
           "    t = pl.load(x, [16, 0], [16, 512])\n"
           "    u = pl.add(s, t)\n"
           "    y = pl.store(u, [0, 0], y)\n"))
      << all_diagnostics();
  Slot big = slot("big"), s = slot("s"), t = slot("t"), u = slot("u");
  EXPECT_EQ(s.addr, big.addr);
  EXPECT_FALSE(t.overlaps(s));
  EXPECT_EQ(u.addr, s.addr);
}

TEST_F(PlanMemoryTest, AValueUsedInALoopStaysLiveForTheWholeLoop) {
  ASSERT_TRUE(
      plan("    a = pl.load(x, [0, 0], [1, 512])\n"
           "    for i in pl.range(n):\n"
           "        t = pl.load(x, [1, 0], [1, 512])\n"
           "        u = pl.add(t, a)\n"
           "        y = pl.store(u, [0, 0], y)\n"))
      << all_diagnostics();
  Slot a = slot("a"), t = slot("t"), u = slot("u");
  EXPECT_FALSE(a.overlaps(t)) << a.addr << " " << t.addr;
  EXPECT_FALSE(a.overlaps(u)) << a.addr << " " << u.addr;
}

TEST_F(PlanMemoryTest, ScratchIsNeverReusedBetweenIssueAndWait) {
  ASSERT_TRUE(
      plan("    ctx = pld.get_comm_ctx(row)\n"
           "    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)\n"
           "    sess = pld.system.async_session()\n"
           "    evt = pld.tensor.put_async(row, peer, xr, sess)\n"
           "    t = pl.load(x, [0, 0], [64, 512])\n"
           "    y = pl.store(t, [0, 0], y)\n"
           "    pld.system.wait_async_event(evt, sess)\n"
           "    after = pl.load(x, [64, 0], [64, 512])\n"
           "    y = pl.store(after, [64, 0], y)\n"))
      << all_diagnostics();
  Slot scratch = slot("scratch"), t = slot("t");
  EXPECT_EQ(scratch.bytes, 256);
  EXPECT_FALSE(scratch.overlaps(t)) << "scratch at " << scratch.addr << ", t at " << t.addr;
  // After the last wait the scratch is dead and its bytes may be reused; `after` joins t's buffer,
  // the first (largest) one it fits.
  EXPECT_EQ(slot("after").addr, t.addr);
}

TEST_F(PlanMemoryTest, PlacementIsRecordedOnTypesAndAnnotations) {
  ASSERT_TRUE(
      plan("    a = pl.load(x, [0, 0], [1, 512])\n"
           "    y = pl.store(a, [0, 0], y)\n"))
      << all_diagnostics();
  const auto* assign = kernel(program)->body.front()->as<ir::Assign>();
  ASSERT_TRUE(assign && assign->annotation);
  EXPECT_EQ(assign->annotation->addr, 0);
  EXPECT_EQ(assign->targets[0]->type->addr, 0);
}

TEST_F(PlanMemoryTest, OverCapacityNamesKernelMemoryBytesAndTiles) {
  EXPECT_FALSE(
      plan("    a = pl.load(x, [0, 0], [128, 512])\n"
           "    b = pl.load(x, [0, 0], [128, 512])\n"
           "    c = pl.add(a, b)\n"
           "    y = pl.store(c, [0, 0], y)\n"));
  std::string msg = first_error();
  EXPECT_NE(msg.find("kernel 'kernel' needs"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Vec (UB)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("has 188416"), std::string::npos) << msg;
  EXPECT_NE(msg.find("needs 262144 bytes"), std::string::npos) << msg;
  EXPECT_NE(msg.find("a/c (131072 B), b (131072 B)"), std::string::npos) << msg;
}

TEST_F(PlanMemoryTest, CapacityComesFromTheProfile) {
  profile.ub_bytes = 1024;
  profile.name = "tiny";
  EXPECT_FALSE(
      plan("    a = pl.load(x, [0, 0], [2, 512])\n"
           "    y = pl.store(a, [0, 0], y)\n"));
  EXPECT_NE(first_error().find("needs 2048 bytes of Vec (UB) memory but the tiny profile has 1024"),
            std::string::npos)
      << first_error();
}

}  // namespace
}  // namespace ptodist::transforms::testing
