// The Builder: literal types, constant folding, operand errors, binding of op arguments, levels, calls
// of program functions and subscripts.
#include "ir_test_util.h"

namespace ptodist::ir::testing {
namespace {

using IrBuilder = IrTest;

TEST_F(IrBuilder, LiteralTypes) {
  EXPECT_EQ(type_str(i(1)->type), "pl.Scalar[pl.INT64]");
  EXPECT_EQ(type_str(b.float_imm(1.5)->type), "pl.Scalar[pl.FP32]");
  EXPECT_EQ(type_str(b.bool_imm(true)->type), "pl.Scalar[pl.BOOL]");
  EXPECT_EQ(b.str_imm("x")->type->kind, TypeKind::None);
  EXPECT_EQ(b.dynamic_dim("NR")->type->kind, TypeKind::Scalar);
}

TEST_F(IrBuilder, FoldsConstants) {
  Expr e = b.binary(BinaryOpKind::Mul, i(6), i(7), {});
  ASSERT_TRUE(e && e->isa<IntImm>());
  EXPECT_EQ(e->as<IntImm>()->value, 42);
  Expr f = b.binary(BinaryOpKind::FloorDiv, i(-7), i(2), {});
  EXPECT_EQ(as_const_int(f), -4);
  Expr g = b.binary(BinaryOpKind::Div, i(1), i(2), {});
  ASSERT_TRUE(g && g->isa<FloatImm>());
  EXPECT_EQ(g->as<FloatImm>()->value, 0.5);
  Expr c = b.compare(CompareOpKind::Lt, i(1), i(2), {});
  ASSERT_TRUE(c && c->isa<BoolImm>());
  EXPECT_TRUE(c->as<BoolImm>()->value);
  EXPECT_EQ(as_const_int(b.unary(UnaryOpKind::Neg, i(3), {})), -3);
  Expr n = var("n", scalar_type(DType::INT32));
  Expr sum = b.binary(BinaryOpKind::Add, n, i(1), {});
  ASSERT_TRUE(sum && sum->isa<Binary>());
  EXPECT_EQ(sum->type->dtype, DType::INT32);  // the literal adopts n's dtype
  EXPECT_EQ(b.compare(CompareOpKind::Eq, n, i(0), {})->type->dtype, DType::BOOL);
}

TEST_F(IrBuilder, OperatorsNeedScalars) {
  EXPECT_EQ(b.binary(BinaryOpKind::Add, tile({4, 4}), i(1), {}), nullptr);
  EXPECT_NE(
      first_error().find("operator '+' expects scalar operands, got pl.Tile[[4, 4], pl.FP16, pl.Mem.Vec]"),
      std::string::npos)
      << first_error();
}

TEST_F(IrBuilder, BindsPositionalAndKeywordArgs) {
  Expr t = call("pl.load", {tensor({128, 256})}, {{"offsets", ints({0, 0})}, {"shapes", ints({64, 256})}});
  ASSERT_TRUE(t) << first_error();
  const OpCall* c = t->as<OpCall>();
  ASSERT_EQ(c->args.size(), 6u);
  EXPECT_EQ(c->arg("target_memory"), nullptr);
  EXPECT_EQ(type_str(t->type), "pl.Tile[[64, 256], pl.FP16, pl.Mem.Vec]");
}

TEST_F(IrBuilder, UnexpectedKeyword) {
  EXPECT_EQ(call("pl.load", {tensor({8, 8}), ints({0, 0}), ints({8, 8})}, {{"foo", i(1)}}), nullptr);
  EXPECT_EQ(first_error(), "pl.load: unexpected keyword argument 'foo'");
}

TEST_F(IrBuilder, MissingRequired) {
  EXPECT_EQ(call("pl.load", {tensor({8, 8}), ints({0, 0})}), nullptr);
  EXPECT_EQ(first_error(), "pl.load: missing required argument 'shapes'");
}

TEST_F(IrBuilder, TooManyPositionals) {
  EXPECT_EQ(call("pl.exp", {tensor({8, 8}), i(1)}), nullptr);
  EXPECT_EQ(first_error(), "pl.exp: takes at most 1 argument, got 2");
}

// Past a bare `*` of the signature, parameters are keyword-only, as in PyPTO's pl.store(..., *, atomic).
TEST_F(IrBuilder, KeywordOnlyParameters) {
  EXPECT_EQ(call("pl.store", {tensor({8, 8}), ints({0, 0}), tensor({8, 8}), ints({8, 8}), i(1)}), nullptr);
  EXPECT_EQ(
      first_error(),
      "pl.store: takes at most 4 positional arguments, got 5; pass 'atomic' and the parameters after it by "
      "keyword");
}

TEST_F(IrBuilder, DuplicateArgument) {
  EXPECT_EQ(call("pl.load", {tensor({8, 8}), ints({0, 0}), ints({8, 8})}, {{"shapes", ints({8, 8})}}),
            nullptr);
  EXPECT_EQ(first_error(), "pl.load: got multiple values for argument 'shapes'");
}

TEST_F(IrBuilder, OpLevelIsChecked) {
  scope.function_kind = FunctionKind::Host;
  EXPECT_EQ(call("pl.load", {tensor({8, 8}), ints({0, 0}), ints({8, 8})}), nullptr);
  EXPECT_EQ(first_error().rfind(
                "pl.load: not allowed in a host orchestrator; it may only be called from kernels", 0),
            0u)
      << first_error();
}

TEST_F(IrBuilder, OperandSpansLocateErrors) {
  SourceManager sm;
  const SourceFile* f = sm.add("k.py", "x = pl.load(t, [0, 0], [8, 8], target_memory=pl.Mem.Acc)\n");
  Expr m = b.enum_imm(EnumKind::Memory, "Acc", SourceSpan{f, 1, 33, 56});
  EXPECT_EQ(call("pl.load", {tensor({8, 8}), ints({0, 0}), ints({8, 8})}, {{"target_memory", m}}), nullptr);
  ASSERT_EQ(diags.diagnostics().size(), 1u);
  EXPECT_EQ(diags.diagnostics()[0].span.col, 33);
}

// A kernel `k(a: Tensor[[8, 8], FP16], out: Out[Tensor[[8, 8], FP16]])` without a return annotation.
Function make_kernel(Builder& b, FunctionKind kind = FunctionKind::InCore) {
  auto f = std::make_shared<FunctionNode>();
  f->name = "k";
  f->kind = kind;
  auto dims = std::vector<Expr>{b.int_imm(8), b.int_imm(8)};
  f->params.push_back({b.make_var("a", tensor_type(dims, DType::FP16)), Direction::In});
  f->params.push_back({b.make_var("out", tensor_type(dims, DType::FP16)), Direction::Out});
  return f;
}

TEST_F(IrBuilder, FuncCallChecksArityAndTypes) {
  functions.push_back(make_kernel(b));
  scope.function_kind = FunctionKind::Orchestration;
  std::vector<CallArg> ok = {{"", tensor({8, 8}), {}}, {"", tensor({8, 8}), {}}};
  Expr c = b.func_call("k", true, ok, scope, {});
  ASSERT_TRUE(c) << first_error();
  EXPECT_EQ(type_str(c->type), "pl.Tensor[[8, 8], pl.FP16]");  // the Out parameter's type
  EXPECT_FALSE(b.func_call("k", true, {{"", tensor({8, 8}), {}}}, scope, {}));
  EXPECT_EQ(first_error(), "call of 'k': missing argument 'out'");
  diags.clear();
  EXPECT_FALSE(b.func_call("k", true, {{"", tensor({8, 4}), {}}, {"", tensor({8, 8}), {}}}, scope, {}));
  EXPECT_EQ(first_error(),
            "call of 'k': argument 'a' must be pl.Tensor[[8, 8], pl.FP16], got pl.Tensor[[8, 4], pl.FP16]");
  diags.clear();
  EXPECT_FALSE(b.func_call(
      "k", true, {{"", tensor({8, 8}), {}}, {"", tensor({8, 8}), {}}, {"device", i(0), {}}}, scope, {}));
  EXPECT_NE(first_error().find("'device=' is only allowed in the host orchestrator"), std::string::npos);
  diags.clear();
  EXPECT_FALSE(b.func_call("nope", true, {}, scope, {}));
  EXPECT_EQ(first_error(), "call of 'nope': no function 'nope' in this program");
}

TEST_F(IrBuilder, SubscriptOfHostTensorDropsLeadingDim) {
  scope.function_kind = FunctionKind::Host;
  Expr t = var("x", tensor_type({b.dynamic_dim("NR"), i(64), i(32)}, DType::FP32));
  Expr s = b.subscript(t, {var("r", scalar_type(DType::INT64))}, {});
  ASSERT_TRUE(s) << first_error();
  EXPECT_EQ(type_str(s->type), "pl.Tensor[[64, 32], pl.FP32]");
  Expr tup = var("p", tuple_type({simple_type(TypeKind::None), simple_type(TypeKind::TaskId)}));
  EXPECT_EQ(type_str(b.subscript(tup, {i(1)}, {})->type), "pl.TaskId");
  EXPECT_FALSE(b.subscript(tile({4, 4}), {i(0)}, {}));
}

}  // namespace
}  // namespace ptodist::ir::testing
