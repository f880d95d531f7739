// Tests of the verifier on hand-built IR: definite assignment, fixed variable types, returns, calls,
// op contracts, and robustness against malformed IR.
#include <gtest/gtest.h>

#include <algorithm>

#include "ptodist/ir/builder.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/ir/verifier.h"

namespace ptodist::ir {
namespace {

Type i64() {
  return scalar_type(DType::INT64);
}

Var var(const std::string& name, Type t = i64()) {
  auto v = std::make_shared<VarNode>();
  v->name = name;
  v->type = std::move(t);
  return v;
}
Expr use(const Var& v) {
  auto r = std::make_shared<VarRef>();
  r->var = v;
  r->type = v->type;
  return r;
}
Expr num(long long value) {
  auto i = std::make_shared<IntImm>();
  i->value = value;
  i->type = i64();
  return i;
}
Stmt assign(const Var& v, Expr value) {
  auto a = std::make_shared<Assign>();
  a->targets = {v};
  a->value = std::move(value);
  return a;
}
Stmt if_else(Expr cond, Block then_body, Block else_body) {
  auto s = std::make_shared<If>();
  s->cond = std::move(cond);
  s->then_body = std::move(then_body);
  s->else_body = std::move(else_body);
  return s;
}
Stmt loop(const Var& iv, Expr stop, Block body) {
  auto f = std::make_shared<For>();
  f->iv = iv;
  f->start = num(0);
  f->stop = std::move(stop);
  f->step = num(1);
  f->body = std::move(body);
  return f;
}
Stmt ret(std::vector<Expr> values) {
  auto r = std::make_shared<Return>();
  r->values = std::move(values);
  return r;
}
Stmt expr_stmt(Expr e) {
  auto s = std::make_shared<ExprStmt>();
  s->value = std::move(e);
  return s;
}

std::shared_ptr<FunctionNode> function(const std::string& name, std::vector<Param> params, Block body,
                                       FunctionKind kind = FunctionKind::InCore) {
  auto f = std::make_shared<FunctionNode>();
  f->name = name;
  f->kind = kind;
  f->params = std::move(params);
  f->body = std::move(body);
  return f;
}

Program program(std::vector<Function> fns) {
  auto p = std::make_shared<ProgramNode>();
  p->name = "P";
  p->functions = std::move(fns);
  return p;
}

// Runs the verifier and returns the messages, one per line.
std::string verify(const Program& p, bool* ok = nullptr) {
  DiagnosticEngine diags;
  bool result = verify_program(p, diags);
  if (ok) *ok = result;
  std::string out;
  for (const Diagnostic& d : diags.diagnostics()) out += d.message + "\n";
  EXPECT_EQ(result, !diags.has_errors());
  return out;
}

TEST(VerifierScope, DefinedOnBothBranchesIsFine) {
  auto c = var("c"), x = var("x"), y = var("y");
  auto f =
      function("k", {{c}}, {if_else(use(c), {assign(x, num(1))}, {assign(x, num(2))}), assign(y, use(x))});
  EXPECT_EQ(verify(program({f})), "");
}

TEST(VerifierScope, DefinedOnOneBranchIsAnError) {
  auto c = var("c"), x = var("x"), y = var("y");
  auto f =
      function("k", {{c}}, {if_else(use(c), {assign(x, num(1))}, {}), assign(y, use(x)), assign(y, use(x))});
  std::string msgs = verify(program({f}));
  EXPECT_NE(msgs.find("'x' may be used before it is assigned"), std::string::npos) << msgs;
  // One report per variable, not one per use.
  EXPECT_EQ(std::count(msgs.begin(), msgs.end(), '\n'), 1) << msgs;
}

TEST(VerifierScope, ReturningBranchDoesNotNeedTheDefinition) {
  auto c = var("c"), x = var("x"), y = var("y");
  auto f = function("k", {{c}}, {if_else(use(c), {assign(x, num(1))}, {ret({})}), assign(y, use(x))});
  EXPECT_EQ(verify(program({f})), "");
}

TEST(VerifierScope, LoopThatMayNotRunLeavesNamesUndefined) {
  auto n = var("n"), i = var("i"), x = var("x"), y = var("y");
  auto f = function("k", {{n}}, {loop(i, use(n), {assign(x, use(i))}), assign(y, use(x))});
  EXPECT_NE(verify(program({f})).find("'x' may be used"), std::string::npos);
}

TEST(VerifierScope, LoopThatRunsKeepsNamesAndItsVariable) {
  auto i = var("i"), x = var("x"), y = var("y");
  auto f = function("k", {}, {loop(i, num(4), {assign(x, use(i))}), assign(y, use(x)), assign(y, use(i))});
  EXPECT_EQ(verify(program({f})), "");
}

TEST(VerifierScope, UseBeforeDefinitionInStraightLine) {
  auto x = var("x"), y = var("y");
  auto f = function("k", {}, {assign(y, use(x)), assign(x, num(1))});
  EXPECT_NE(verify(program({f})).find("'x' may be used"), std::string::npos);
}

TEST(VerifierScope, ConstantsAreVisibleButOtherFunctionsVariablesAreNot) {
  auto m = var("M"), x = var("x"), y = var("y");
  auto g = function("g", {}, {assign(x, num(1))});
  auto k = function("k", {}, {assign(y, use(m)), assign(y, use(x))});
  std::string msgs = verify(program({g, k}));
  EXPECT_EQ(msgs.find("'M'"), std::string::npos) << msgs;
  EXPECT_NE(msgs.find("'x' is a variable of function 'g'"), std::string::npos) << msgs;
}

TEST(VerifierTypes, RebindingWithAnotherTypeIsAnError) {
  auto x = var("x", tensor_type({num(4)}, DType::FP16));
  auto y = var("y", tensor_type({num(4)}, DType::FP32));
  auto f = function("k", {{x}, {y}}, {assign(x, use(y))});
  EXPECT_NE(verify(program({f})).find("'x' has type pl.Tensor[[4], pl.FP16] and cannot be rebound"),
            std::string::npos);
}

TEST(VerifierTypes, ReturnMustMatchTheAnnotation) {
  auto x = var("x", tensor_type({num(4)}, DType::FP16));
  auto f = function("k", {{x}}, {ret({use(x)})});
  f->return_types = {tensor_type({num(4)}, DType::FP32)};
  EXPECT_NE(verify(program({f})).find("return value 1 of 'k' has type"), std::string::npos);
  f->return_types = {x->type, x->type};
  EXPECT_NE(verify(program({f})).find("'k' returns 1 value but its annotation declares 2"),
            std::string::npos);
}

TEST(VerifierCalls, UnknownCalleeAndArity) {
  auto a = var("a");
  auto callee = function("g", {{a}}, {});
  auto call = std::make_shared<FuncCall>();
  call->callee = "g";
  call->via_self = true;
  auto missing = std::make_shared<FuncCall>();
  missing->callee = "nope";
  auto k = function("k", {}, {expr_stmt(call), expr_stmt(missing)}, FunctionKind::Orchestration);
  std::string msgs = verify(program({callee, k}));
  EXPECT_NE(msgs.find("self.g: takes 1 argument, got 0"), std::string::npos) << msgs;
  EXPECT_NE(msgs.find("'nope' is not a function of program 'P'"), std::string::npos) << msgs;
}

TEST(VerifierContracts, OpsAreRecheckedThroughTheirContracts) {
  DiagnosticEngine build_diags;
  Builder b(build_diags);
  auto t = var("t", tensor_type({num(16), num(16)}, DType::FP16));
  BuildScope scope;
  scope.function_kind = FunctionKind::InCore;
  scope.function_name = "k";
  Expr load = b.op_call(op_info(OpId::Load),
                        {CallArg{"", use(t), {}}, CallArg{"", b.list({num(0), num(0)}, {}), {}},
                         CallArg{"", b.list({num(4), num(16)}, {}), {}}},
                        scope, {});
  ASSERT_NE(load, nullptr);
  auto tile = var("tile", load->type);
  auto good = function("k", {{t}}, {assign(tile, load)});
  EXPECT_EQ(verify(program({good})), "");

  // The same call with a tile where the tensor should be, as a faulty pass could build it.
  auto bad_call = std::make_shared<OpCall>(*load->as<OpCall>());
  auto tile_in = var("x", load->type);
  bad_call->args[0] = use(tile_in);
  auto bad = function("k", {{tile_in}}, {expr_stmt(bad_call)});
  std::string msgs = verify(program({bad}));
  EXPECT_NE(msgs.find("pl.load"), std::string::npos) << msgs;
}

TEST(VerifierContracts, OpLevelIsChecked) {
  auto call = std::make_shared<OpCall>();
  call->op = &op_info(OpId::AllocWindowBuffer);
  call->args.resize(call->op->params.size());
  auto f = function("k", {}, {expr_stmt(call)});
  EXPECT_NE(verify(program({f})).find("pld.alloc_window_buffer: not allowed in InCore function 'k'"),
            std::string::npos);
}

TEST(VerifierRobustness, MalformedIrIsReportedNotCrashed) {
  auto call = std::make_shared<OpCall>();  // no op
  auto short_call = std::make_shared<OpCall>();
  short_call->op = &op_info(OpId::Load);  // no slots
  auto ref_to_nothing = std::make_shared<VarRef>();
  auto a = std::make_shared<Assign>();  // no targets, no value
  auto f = function("k", {{nullptr}},
                    {nullptr, a, expr_stmt(call), expr_stmt(short_call), expr_stmt(ref_to_nothing),
                     expr_stmt(nullptr), std::make_shared<For>(), std::make_shared<If>(), ret({nullptr})});
  bool ok = true;
  std::string msgs = verify(program({f, nullptr}), &ok);
  EXPECT_FALSE(ok);
  EXPECT_NE(msgs.find("pl.load: malformed call"), std::string::npos) << msgs;
  EXPECT_TRUE(verify_program(nullptr, *std::make_unique<DiagnosticEngine>()));
}

}  // namespace
}  // namespace ptodist::ir
