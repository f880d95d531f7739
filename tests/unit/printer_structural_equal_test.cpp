// Tests of structural equality: variables matched by definition order, first difference described.
#include <gtest/gtest.h>

#include "ptodist/ir/structural_equal.h"

namespace ptodist::ir {
namespace {

Var var(const std::string& name) {
  auto v = std::make_shared<VarNode>();
  v->name = name;
  v->type = scalar_type(DType::INT64);
  return v;
}
Expr use(const Var& v) {
  auto r = std::make_shared<VarRef>();
  r->var = v;
  return r;
}
Expr num(long long value) {
  auto i = std::make_shared<IntImm>();
  i->value = value;
  return i;
}
Stmt assign(const Var& v, Expr value) {
  auto a = std::make_shared<Assign>();
  a->targets = {v};
  a->value = std::move(value);
  return a;
}
Expr add(Expr a, Expr b) {
  auto x = std::make_shared<Binary>();
  x->lhs = std::move(a);
  x->rhs = std::move(b);
  return x;
}

// f(p): x = p + <k>; y = x + <use>
Function make(const std::string& xname, long long k, bool use_param_last) {
  auto p = var("p"), x = var(xname), y = var("y");
  auto f = std::make_shared<FunctionNode>();
  f->name = "f";
  f->params = {{p, Direction::In}};
  f->body = {assign(x, add(use(p), num(k))), assign(y, add(use(x), use_param_last ? use(p) : use(x)))};
  return f;
}

TEST(StructuralEqual, VariablesMatchByDefinitionNotName) {
  std::string why;
  EXPECT_TRUE(structural_equal(make("x", 1, true), make("renamed", 1, true), &why)) << why;
  EXPECT_TRUE(why.empty());
}

TEST(StructuralEqual, ReportsTheFirstDifference) {
  std::string why;
  EXPECT_FALSE(structural_equal(make("x", 1, true), make("x", 2, true), &why));
  EXPECT_NE(why.find("`1` vs `2`"), std::string::npos) << why;
  EXPECT_NE(why.find("in `x = p + 1`"), std::string::npos) << why;
  EXPECT_NE(why.find("function 'f'"), std::string::npos) << why;
  EXPECT_FALSE(structural_equal(make("x", 1, true), make("x", 1, false), &why));
  EXPECT_NE(why.find("use of 'p' vs 'x'"), std::string::npos) << why;
}

TEST(StructuralEqual, FreeVariablesMatchByName) {
  auto m1 = var("M"), m2 = var("M"), n = var("N"), x = var("x");
  auto f1 = std::make_shared<FunctionNode>(), f2 = std::make_shared<FunctionNode>();
  f1->body = {assign(x, use(m1))};
  f2->body = {assign(x, use(m2))};
  EXPECT_TRUE(structural_equal(Function(f1), Function(f2)));
  f2->body = {assign(x, use(n))};
  std::string why;
  EXPECT_FALSE(structural_equal(Function(f1), Function(f2), &why));
  EXPECT_NE(why.find("free variable 'M' vs 'N'"), std::string::npos) << why;
}

TEST(StructuralEqual, ProgramsAndMissingParts) {
  auto a = std::make_shared<ProgramNode>(), b = std::make_shared<ProgramNode>();
  a->name = b->name = "P";
  a->functions = {make("x", 1, true)};
  b->functions = {make("x", 1, true)};
  EXPECT_TRUE(structural_equal(Program(a), Program(b)));
  b->functions.push_back(make("x", 1, true));
  std::string why;
  EXPECT_FALSE(structural_equal(Program(a), Program(b), &why));
  EXPECT_EQ(why, "function count differs");
  EXPECT_FALSE(structural_equal(Program(a), Program(nullptr), &why));
  EXPECT_TRUE(structural_equal(Program(nullptr), Program(nullptr)));
}

}  // namespace
}  // namespace ptodist::ir
