// Frame slots (every variable of a function has a slot no other variable of that function holds,
// shared nodes keep theirs, laying out twice changes nothing) and Dims, the inline shape type.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "../../src/runtime/frame_layout.h"
#include "ptodist/ir/functor.h"
#include "ptodist/runtime/dims.h"
#include "transforms_test_util.h"

namespace ptodist::runtime {
namespace {

using transforms::testing::PassTest;

const char* kProgram = R"(@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        for i in pl.range(4):
            t = pl.load(a, [i, 0], [1, 8])
            u = pl.adds(t, 1.0)
            out = pl.store(u, [i, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        x = a
        out = self.kernel(x, out)
        return out
)";

// Every variable node a function mentions (parameters, targets, loop variables, reads).
std::set<const ir::VarNode*> vars_of(const ir::FunctionNode& fn) {
  struct Collect : ir::Walker {
    std::set<const ir::VarNode*> vars;
    void visit_expr(const ir::Expr& e) override {
      if (e && e->kind == ir::ExprKind::VarRef) vars.insert(e->as<ir::VarRef>()->var.get());
      ir::Walker::visit_expr(e);
    }
    void visit_stmt(const ir::Stmt& s) override {
      if (auto* a = s->as<ir::Assign>())
        for (const ir::Var& v : a->targets) vars.insert(v.get());
      if (auto* f = s->as<ir::For>()) vars.insert(f->iv.get());
      ir::Walker::visit_stmt(s);
    }
  } c;
  for (const ir::Param& p : fn.params) c.vars.insert(p.var.get());
  c.visit_block(fn.body);
  c.vars.erase(nullptr);
  return c.vars;
}

class FrameLayoutTest : public PassTest {};

TEST_F(FrameLayoutTest, SlotsAreDistinctWithinEachFunctionAndFitItsFrame) {
  ir::Program p = parse(kProgram);
  ASSERT_TRUE(p);
  auto sizes = lay_out_frames(*p);
  for (const ir::Function& fn : p->functions) {
    std::set<int> slots;
    for (const ir::VarNode* v : vars_of(*fn)) {
      EXPECT_GE(v->frame_slot, 0) << v->name;
      EXPECT_LT(v->frame_slot, sizes.at(fn.get())) << v->name;
      EXPECT_TRUE(slots.insert(v->frame_slot).second) << fn->name << ": slot of '" << v->name << "' reused";
    }
    // Dense: a function's frame has exactly one slot per variable.
    EXPECT_EQ(static_cast<size_t>(sizes.at(fn.get())), slots.size()) << fn->name;
  }
}

TEST_F(FrameLayoutTest, LayingOutAgainKeepsEverySlot) {
  ir::Program p = parse(kProgram);
  ASSERT_TRUE(p);
  auto first = lay_out_frames(*p);
  std::map<const ir::VarNode*, int> before;
  for (const ir::Function& fn : p->functions)
    for (const ir::VarNode* v : vars_of(*fn)) before[v] = v->frame_slot;
  EXPECT_EQ(lay_out_frames(*p), first);
  for (const auto& [v, slot] : before) EXPECT_EQ(v->frame_slot, slot) << v->name;
}

TEST(Dims, BehavesLikeASmallVector) {
  Dims d{2, 3};
  d.push_front(1);
  EXPECT_EQ(d.to_vector(), (std::vector<long long>{1, 2, 3}));
  d.pop_front();
  EXPECT_EQ(d, (Dims{2, 3}));
  EXPECT_EQ(d.front(), 2);
  EXPECT_EQ(d.back(), 3);
  EXPECT_EQ(Dims(3, 0).to_vector(), (std::vector<long long>{0, 0, 0}));
  std::span<const long long> s = d;
  EXPECT_EQ(s.size(), 2u);
}

// A copy takes the whole inline array; what it means is still only the live entries.
TEST(Dims, CopiesCarryTheLiveEntriesAndSurviveSelfAssignment) {
  Dims longer{1, 2, 3, 4, 5};
  Dims d{7, 8};
  Dims copy(d);
  EXPECT_EQ(copy, (Dims{7, 8}));
  longer = d;
  EXPECT_EQ(longer.to_vector(), (std::vector<long long>{7, 8}));
  longer.push_back(9);  // the entry past the copied ones is written, not left from before
  EXPECT_EQ(longer.to_vector(), (std::vector<long long>{7, 8, 9}));
  Dims& same = d;
  d = same;
  EXPECT_EQ(d, (Dims{7, 8}));
}

TEST(Dims, MoreThanTheMaximumIsAnErrorNotAnOverflow) {
  Dims d(Dims::kMaxDims, 1);
  EXPECT_THROW(d.push_back(1), std::length_error);
  EXPECT_THROW(d.push_front(1), std::length_error);
  EXPECT_THROW(Dims(std::vector<long long>(Dims::kMaxDims + 1, 1)), std::length_error);
  EXPECT_EQ(d.size(), Dims::kMaxDims);
}

}  // namespace
}  // namespace ptodist::runtime
