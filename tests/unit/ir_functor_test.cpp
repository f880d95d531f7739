// Walker and Rewriter defaults: every child is visited; unchanged trees are shared, changed ones rebuilt.
#include "ir_test_util.h"
#include "ptodist/ir/functor.h"

namespace ptodist::ir::testing {
namespace {

struct CountInts : Walker {
  int ints = 0;
  void visit_expr(const Expr& e) override {
    if (e && e->isa<IntImm>()) ++ints;
    Walker::visit_expr(e);
  }
};

// Replaces every integer literal 7 with 8.
struct SevenToEight : Rewriter {
  Builder& b;
  explicit SevenToEight(Builder& builder) : b(builder) {}
  Expr rewrite_expr(const Expr& e) override {
    if (auto i = e ? e->as<IntImm>() : nullptr; i && i->value == 7) return b.int_imm(8, e->span);
    return Rewriter::rewrite_expr(e);
  }
};

class IrFunctor : public IrTest {
 protected:
  Function sample() {
    auto f = std::make_shared<FunctionNode>();
    f->name = "k";
    auto loop = std::make_shared<For>();
    loop->iv = b.make_var("i", scalar_type(DType::INT64));
    loop->start = i(0);
    loop->stop = i(7);
    loop->step = i(1);
    auto body = std::make_shared<ExprStmt>();
    body->value = call("pl.load", {tensor({8, 8}), ints({0, 7}), ints({1, 1})});
    loop->body.push_back(body);
    auto branch = std::make_shared<If>();
    branch->cond = var("c", scalar_type(DType::BOOL));
    branch->then_body.push_back(std::make_shared<Pass>());
    auto ret = std::make_shared<Return>();
    ret->values.push_back(i(3));
    branch->else_body.push_back(ret);
    f->body = {loop, branch};
    return f;
  }
};

TEST_F(IrFunctor, WalkerVisitsEveryChild) {
  Function f = sample();
  ASSERT_FALSE(diags.has_errors()) << first_error();
  CountInts c;
  c.visit_function(f);
  EXPECT_EQ(c.ints, 3 + 4 + 1);  // loop bounds, the two lists, the return value
}

TEST_F(IrFunctor, RewriterSharesUnchangedAndRebuildsChanged) {
  Function f = sample();
  Rewriter identity;
  EXPECT_EQ(identity.rewrite_function(f), f);
  SevenToEight r(b);
  Function g = r.rewrite_function(f);
  ASSERT_NE(g, f);
  EXPECT_EQ(g->body[1], f->body[1]);  // the if statement had no 7
  const For* loop = g->body[0]->as<For>();
  EXPECT_EQ(as_const_int(loop->stop), 8);
  const OpCall* load = loop->body[0]->as<ExprStmt>()->value->as<OpCall>();
  EXPECT_EQ(as_const_int((*as_list(load->arg("offsets")))[1]), 8);
  EXPECT_EQ(load->arg("tensor"),
            f->body[0]->as<For>()->body[0]->as<ExprStmt>()->value->as<OpCall>()->arg("tensor"));
}

}  // namespace
}  // namespace ptodist::ir::testing
