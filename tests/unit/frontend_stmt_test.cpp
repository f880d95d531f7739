// Statement and expression forms of a function body, each checked on the IR it produces.
#include <gtest/gtest.h>

#include "frontend_test_util.h"

namespace ptodist::frontend {
namespace {

using test::parse_text;

// Wraps a body (indented by 4) in a kernel with a tensor `x`, a tensor `y` and a scalar `n`.
std::unique_ptr<test::Parsed> parse_body(const std::string& body, const char* deco = "@pl.jit.incore") {
  std::string text = std::string(test::kImports) + "M = 16\n" + deco +
                     "\ndef k(x: pl.Tensor[[M, M], pl.FP32], y: pl.Out[pl.Tensor[[M, M], pl.FP32]], "
                     "n: pl.Scalar[pl.INT32]):\n" +
                     body;
  return parse_text(text);
}

const ir::Block& body_of(const test::Parsed& p) {
  return p.module->programs.at(0)->functions.at(0)->body;
}

TEST(FrontendStmt, AssignmentRebindsTheSameVar) {
  auto p = parse_body(
      "    t = pl.load(x, [0, 0], [M, M])\n    t = pl.add(t, t)\n    y = pl.store(t, [0, 0], y)\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  const auto& b = body_of(*p);
  ASSERT_EQ(b.size(), 3u);
  auto a0 = b[0]->as<ir::Assign>(), a1 = b[1]->as<ir::Assign>(), a2 = b[2]->as<ir::Assign>();
  ASSERT_TRUE(a0 && a1 && a2);
  EXPECT_EQ(a0->targets[0], a1->targets[0]);
  EXPECT_EQ(a2->targets[0], p->module->programs[0]->functions[0]->params[1].var);
  EXPECT_EQ(a0->targets[0]->type->kind, ir::TypeKind::Tile);
  EXPECT_EQ(b[0]->span.line, 6);
  EXPECT_EQ(b[0]->span.col, 5);
}

TEST(FrontendStmt, TupleUnpackingWithUnderscore) {
  auto p = parse_body("    a, _ = n, n + 1\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  auto a = body_of(*p).at(0)->as<ir::Assign>();
  ASSERT_TRUE(a);
  ASSERT_EQ(a->targets.size(), 2u);
  EXPECT_TRUE(a->targets[0]);
  EXPECT_FALSE(a->targets[1]);
}

TEST(FrontendStmt, AnnotatedAssignmentKeepsItsAnnotation) {
  auto p = parse_body("    v: pl.Scalar[pl.INT32] = n * 2\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  auto a = body_of(*p).at(0)->as<ir::Assign>();
  ASSERT_TRUE(a && a->annotation);
  EXPECT_EQ(ir::type_str(a->annotation), "pl.Scalar[pl.INT32]");
}

TEST(FrontendStmt, AugmentedAssignmentDesugars) {
  auto p = parse_body("    i = 0\n    i += n\n    t = pl.load(x, [0, 0], [M, M])\n    t += t\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  auto a = body_of(*p).at(1)->as<ir::Assign>();
  ASSERT_TRUE(a);
  auto bin = a->value->as<ir::Binary>();
  ASSERT_TRUE(bin);
  EXPECT_EQ(bin->op, ir::BinaryOpKind::Add);
  auto tile = body_of(*p).at(3)->as<ir::Assign>()->value->as<ir::OpCall>();
  ASSERT_TRUE(tile);
  EXPECT_EQ(tile->op->spelling, "pl.add");
}

TEST(FrontendStmt, LoopForms) {
  auto p = parse_body(
      "    for i in pl.range(4):\n        pass\n"
      "    for i in pl.range(1, M, 2):\n        pass\n"
      "    for j in pl.parallel(n):\n        pass\n"
      "    for j in pl.unroll(2):\n        pass\n"
      "    for k in pl.pipeline(M, stage=2):\n        pass\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  const auto& b = body_of(*p);
  ASSERT_EQ(b.size(), 5u);
  auto f0 = b[0]->as<ir::For>();
  EXPECT_EQ(ir::as_const_int(f0->start), 0);
  EXPECT_EQ(ir::as_const_int(f0->stop), 4);
  EXPECT_EQ(ir::as_const_int(f0->step), 1);
  auto f1 = b[1]->as<ir::For>();
  EXPECT_EQ(ir::as_const_int(f1->start), 1);
  EXPECT_EQ(ir::as_const_int(f1->step), 2);
  EXPECT_EQ(f0->iv, f1->iv);
  EXPECT_EQ(b[2]->as<ir::For>()->loop_kind, ir::LoopKind::Parallel);
  EXPECT_EQ(b[3]->as<ir::For>()->loop_kind, ir::LoopKind::Unroll);
  auto f4 = b[4]->as<ir::For>();
  EXPECT_EQ(f4->loop_kind, ir::LoopKind::Pipeline);
  EXPECT_EQ(ir::as_const_int(f4->stage), 2);
}

TEST(FrontendStmt, IfElifElse) {
  auto p = parse_body(
      "    if n == 0:\n        pass\n    elif n > 1 and not n < 5:\n        pass\n    else:\n        pass\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  auto s = body_of(*p).at(0)->as<ir::If>();
  ASSERT_TRUE(s);
  ASSERT_EQ(s->else_body.size(), 1u);
  auto elif = s->else_body[0]->as<ir::If>();
  ASSERT_TRUE(elif);
  EXPECT_TRUE(elif->cond->isa<ir::BoolOp>());
  EXPECT_EQ(elif->else_body.size(), 1u);
}

TEST(FrontendStmt, OneLineSuites) {
  auto p = parse_body("    if n == 0: pass\n    for i in pl.range(2): j = i; j = j + 1\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  EXPECT_EQ(body_of(*p).at(1)->as<ir::For>()->body.size(), 2u);
}

TEST(FrontendStmt, ExpressionForms) {
  auto p = parse_body(
      "    a = (n + 1) * 2 - n // 3 % 4 ** 2\n"
      "    b = (n & 1) | (n ^ 2) << 1 >> 1\n"
      "    c = -n if n >= 0 else ~n\n"
      "    d = [n, 1.5, True, None, \"s\"]\n"
      "    e = (n,)\n"
      "    f = n != 1 or n <= 2\n"
      "    g = n / 2\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  const auto& b = body_of(*p);
  EXPECT_TRUE(b[0]->as<ir::Assign>()->value->isa<ir::Binary>());
  EXPECT_TRUE(b[2]->as<ir::Assign>()->value->isa<ir::IfExp>());
  EXPECT_TRUE(b[3]->as<ir::Assign>()->value->isa<ir::List>());
  EXPECT_TRUE(b[4]->as<ir::Assign>()->value->isa<ir::Tuple>());
  EXPECT_TRUE(b[5]->as<ir::Assign>()->value->isa<ir::BoolOp>());
}

TEST(FrontendStmt, ConstantsFoldAndDtypeBytes) {
  auto p = parse_body("    a = 2 * 3 + 1\n    b = M * pl.FP32.get_byte()\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  EXPECT_EQ(ir::as_const_int(body_of(*p)[0]->as<ir::Assign>()->value), 7);
  auto b = body_of(*p)[1]->as<ir::Assign>()->value->as<ir::Binary>();
  ASSERT_TRUE(b);
  EXPECT_EQ(ir::as_const_int(b->rhs), 4);
  EXPECT_TRUE(b->lhs->isa<ir::VarRef>());  // a constant use is a VarRef to the constant
}

TEST(FrontendStmt, EnumsAndDtypes) {
  auto p = parse_body(
      "    t = pl.load(x, [0, 0], [M, M], target_memory=pl.Mem.Mat)\n    u = pl.move(t, "
      "pl.MemorySpace.Left)\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  auto load = body_of(*p)[0]->as<ir::Assign>()->value->as<ir::OpCall>();
  auto mem = load->arg("target_memory")->as<ir::EnumImm>();
  ASSERT_TRUE(mem);
  EXPECT_EQ(mem->enum_kind, ir::EnumKind::Memory);
  EXPECT_EQ(mem->value, "Mat");
  EXPECT_EQ(body_of(*p)[1]->as<ir::Assign>()->targets[0]->type->memory, ir::Memory::Left);
}

TEST(FrontendStmt, TileParameterType) {
  auto p = parse_text(
      std::string(test::kImports) +
      "@pl.jit.incore\ndef k(t: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat], u: pl.Tile[[16, 16], pl.FP16]):\n"
      "    pass\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  const auto& params = p->module->programs[0]->functions[0]->params;
  EXPECT_EQ(params[0].var->type->memory, ir::Memory::Mat);
  EXPECT_EQ(params[1].var->type->memory, ir::Memory::Vec);
}

TEST(FrontendStmt, ReturnAndExpressionStatements) {
  auto p = parse_body("    pl.system.fence()\n    return y, n\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  EXPECT_TRUE(body_of(*p)[0]->isa<ir::ExprStmt>());
  EXPECT_EQ(body_of(*p)[1]->as<ir::Return>()->values.size(), 2u);
}

TEST(FrontendStmt, ManualScope) {
  auto p = parse_body("    with pl.manual_scope():\n        pass\n", "@pl.jit");
  ASSERT_TRUE(p->module) << p->all_errors();
  EXPECT_EQ(body_of(*p)[0]->as<ir::ManualScope>()->body.size(), 1u);
}

TEST(FrontendStmt, SpansOfExpressions) {
  auto p = parse_body("    a = n +  1\n");
  ASSERT_TRUE(p->module) << p->all_errors();
  const auto& v = body_of(*p)[0]->as<ir::Assign>()->value;
  EXPECT_EQ(v->span.line, 6);
  EXPECT_EQ(v->span.col, 9);
  EXPECT_EQ(v->span.end_col, 15);
}

}  // namespace
}  // namespace ptodist::frontend
