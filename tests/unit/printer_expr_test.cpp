// Tests of the printer on hand-built IR: minimal parentheses, canonical op calls, literals, statements.
#include <gtest/gtest.h>

#include "ptodist/ir/op_table.h"
#include "ptodist/ir/printer.h"

namespace ptodist::ir {
namespace {

template <typename T>
std::shared_ptr<T> mk() {
  return std::make_shared<T>();
}

Var var(const std::string& name, Type t = scalar_type(DType::INT64)) {
  auto v = std::make_shared<VarNode>();
  v->name = name;
  v->type = std::move(t);
  return v;
}
Expr use(const std::string& name) {
  auto r = mk<VarRef>();
  r->var = var(name);
  return r;
}
Expr use(const Var& v) {
  auto r = mk<VarRef>();
  r->var = v;
  return r;
}
Expr num(long long v) {
  auto i = mk<IntImm>();
  i->value = v;
  return i;
}
Expr flt(double v) {
  auto f = mk<FloatImm>();
  f->value = v;
  return f;
}
Expr bin(BinaryOpKind op, Expr l, Expr r) {
  auto b = mk<Binary>();
  b->op = op;
  b->lhs = std::move(l);
  b->rhs = std::move(r);
  return b;
}
Expr cmp(CompareOpKind op, Expr l, Expr r) {
  auto b = mk<Compare>();
  b->op = op;
  b->lhs = std::move(l);
  b->rhs = std::move(r);
  return b;
}
Expr boolop(BoolOpKind op, Expr l, Expr r) {
  auto b = mk<BoolOp>();
  b->op = op;
  b->lhs = std::move(l);
  b->rhs = std::move(r);
  return b;
}
Expr un(UnaryOpKind op, Expr x) {
  auto u = mk<Unary>();
  u->op = op;
  u->operand = std::move(x);
  return u;
}
Expr list(std::vector<Expr> xs) {
  auto l = mk<List>();
  l->elements = std::move(xs);
  return l;
}
Expr enm(EnumKind k, std::string v) {
  auto e = mk<EnumImm>();
  e->enum_kind = k;
  e->value = std::move(v);
  return e;
}
// An op call with named slots; the rest stay omitted.
Expr call(const std::string& spelling, std::vector<std::pair<std::string, Expr>> named,
          std::vector<Expr> varargs = {}) {
  const OpInfo* op = find_op(spelling);
  EXPECT_NE(op, nullptr) << spelling;
  auto c = mk<OpCall>();
  c->op = op;
  c->args.resize(op->params.size());
  for (auto& [name, value] : named) c->args[op->param_index(name)] = value;
  c->varargs = std::move(varargs);
  return c;
}

using B = BinaryOpKind;

TEST(PrinterExpr, ArithmeticPrecedence) {
  Expr a = use("a"), b = use("b"), c = use("c");
  EXPECT_EQ(print_expr(bin(B::Add, a, bin(B::Mul, b, c))), "a + b * c");
  EXPECT_EQ(print_expr(bin(B::Mul, bin(B::Add, a, b), c)), "(a + b) * c");
  EXPECT_EQ(print_expr(bin(B::Sub, bin(B::Sub, a, b), c)), "a - b - c");
  EXPECT_EQ(print_expr(bin(B::Sub, a, bin(B::Sub, b, c))), "a - (b - c)");
  EXPECT_EQ(print_expr(bin(B::FloorDiv, bin(B::Mul, a, b), c)), "a * b // c");
  EXPECT_EQ(print_expr(bin(B::Mod, a, bin(B::Mul, b, c))), "a % (b * c)");
  EXPECT_EQ(print_expr(bin(B::BitOr, bin(B::BitAnd, a, b), bin(B::Shl, c, num(2)))), "a & b | c << 2");
  EXPECT_EQ(print_expr(bin(B::BitAnd, bin(B::BitOr, a, b), c)), "(a | b) & c");
}

TEST(PrinterExpr, PowerAndUnary) {
  Expr a = use("a"), b = use("b"), c = use("c");
  EXPECT_EQ(print_expr(bin(B::Pow, a, bin(B::Pow, b, c))), "a ** b ** c");
  EXPECT_EQ(print_expr(bin(B::Pow, bin(B::Pow, a, b), c)), "(a ** b) ** c");
  EXPECT_EQ(print_expr(un(UnaryOpKind::Neg, bin(B::Pow, a, b))), "-a ** b");
  EXPECT_EQ(print_expr(bin(B::Pow, un(UnaryOpKind::Neg, a), b)), "(-a) ** b");
  EXPECT_EQ(print_expr(bin(B::Pow, num(-2), num(2))), "(-2) ** 2");
  EXPECT_EQ(print_expr(bin(B::Pow, num(2), num(-1))), "2 ** -1");
  EXPECT_EQ(print_expr(un(UnaryOpKind::Neg, bin(B::Add, a, b))), "-(a + b)");
  EXPECT_EQ(print_expr(un(UnaryOpKind::Neg, un(UnaryOpKind::Neg, a))), "--a");
  EXPECT_EQ(print_expr(bin(B::Sub, a, num(-1))), "a - -1");
  EXPECT_EQ(print_expr(un(UnaryOpKind::Invert, a)), "~a");
}

TEST(PrinterExpr, LogicAndComparisons) {
  Expr a = use("a"), b = use("b"), c = use("c");
  EXPECT_EQ(print_expr(un(UnaryOpKind::Not, cmp(CompareOpKind::Eq, a, b))), "not a == b");
  EXPECT_EQ(print_expr(cmp(CompareOpKind::Eq, cmp(CompareOpKind::Lt, a, b), c)), "(a < b) == c");
  EXPECT_EQ(print_expr(cmp(CompareOpKind::Ne, bin(B::Add, a, num(1)), c)), "a + 1 != c");
  EXPECT_EQ(print_expr(boolop(BoolOpKind::And, a, boolop(BoolOpKind::Or, b, c))), "a and (b or c)");
  EXPECT_EQ(print_expr(boolop(BoolOpKind::Or, boolop(BoolOpKind::And, a, b), c)), "a and b or c");
  EXPECT_EQ(print_expr(boolop(BoolOpKind::And, un(UnaryOpKind::Not, a), b)), "not a and b");
  EXPECT_EQ(print_expr(un(UnaryOpKind::Not, boolop(BoolOpKind::And, a, b))), "not (a and b)");
  auto ie = mk<IfExp>();
  ie->cond = cmp(CompareOpKind::Gt, a, b);
  ie->then_value = a;
  ie->else_value = b;
  EXPECT_EQ(print_expr(ie), "a if a > b else b");
  EXPECT_EQ(print_expr(bin(B::Add, ie, num(1))), "(a if a > b else b) + 1");
}

TEST(PrinterExpr, Literals) {
  EXPECT_EQ(print_expr(flt(1.0)), "1.0");
  EXPECT_EQ(print_expr(flt(0.1)), "0.1");
  EXPECT_EQ(print_expr(flt(-2.5)), "-2.5");
  EXPECT_EQ(print_expr(flt(1e20)), "1e+20");
  EXPECT_EQ(print_expr(flt(100.0)), "100.0");
  EXPECT_EQ(print_expr(flt(1048576.5)), "1048576.5");
  EXPECT_EQ(print_expr(flt(1e-7)), "1e-07");
  auto s = mk<StrImm>();
  s->value = "a\"b\n";
  EXPECT_EQ(print_expr(s), "\"a\\\"b\\n\"");
  auto d = mk<DTypeImm>();
  d->value = DType::FP16;
  EXPECT_EQ(print_expr(d), "pl.FP16");
  auto dyn = mk<Dynamic>();
  dyn->name = "NR";
  EXPECT_EQ(print_expr(dyn), "pl.dynamic(\"NR\")");
  EXPECT_EQ(print_expr(enm(EnumKind::NotifyOp, "AtomicAdd")), "pld.NotifyOp.AtomicAdd");
  EXPECT_EQ(print_expr(enm(EnumKind::Memory, "Acc")), "pl.Mem.Acc");
  auto t = mk<Tuple>();
  t->elements = {num(1)};
  EXPECT_EQ(print_expr(t), "(1,)");
}

TEST(PrinterExpr, OpCallsInCanonicalForm) {
  Expr t = use("t");
  EXPECT_EQ(print_expr(call("pl.load", {{"tensor", t},
                                        {"offsets", list({num(0), num(0)})},
                                        {"shapes", list({num(1), num(4)})},
                                        {"target_memory", enm(EnumKind::Memory, "Mat")}})),
            "pl.load(t, [0, 0], [1, 4], target_memory=pl.Mem.Mat)");
  EXPECT_EQ(print_expr(call("pld.system.notify", {{"target", t},
                                                  {"peer", use("p")},
                                                  {"offsets", list({num(0)})},
                                                  {"value", num(1)},
                                                  {"op", enm(EnumKind::NotifyOp, "AtomicAdd")}})),
            "pld.system.notify(t, p, [0], 1, op=pld.NotifyOp.AtomicAdd)");
  EXPECT_EQ(
      print_expr(call(
          "pld.tensor.put",
          {{"dst", use("d")}, {"peer", use("p")}, {"src", use("s")}, {"shape", list({num(1), num(8)})}})),
      "pld.tensor.put(d, p, s, shape=[1, 8])");
  EXPECT_EQ(print_expr(call("pld.system.async_session", {})), "pld.system.async_session()");
  EXPECT_EQ(print_expr(call("pl.tile.get_block_idx", {})), "pl.tile.get_block_idx()");
  auto kernel = mk<FuncRef>();
  kernel->callee = "k";
  kernel->via_self = true;
  EXPECT_EQ(
      print_expr(call("pl.spmd_submit", {{"kernel", kernel}, {"core_num", num(4)}}, {use("a"), use("b")})),
      "pl.spmd_submit(self.k, a, b, core_num=4)");
}

TEST(PrinterExpr, CallsAndSubscripts) {
  auto fc = mk<FuncCall>();
  fc->callee = "chip_orch";
  fc->via_self = true;
  auto sub = mk<Subscript>();
  sub->value = use("inputs");
  sub->indices = {use("r")};
  fc->args = {sub, use("w")};
  fc->device = use("r");
  EXPECT_EQ(print_expr(fc), "self.chip_orch(inputs[r], w, device=r)");
  auto sub2 = mk<Subscript>();
  sub2->value = bin(B::Add, use("a"), use("b"));
  sub2->indices = {num(0)};
  EXPECT_EQ(print_expr(sub2), "(a + b)[0]");
}

Stmt assign(std::vector<Var> targets, Expr value, Type annotation = nullptr) {
  auto a = mk<Assign>();
  a->targets = std::move(targets);
  a->value = std::move(value);
  a->annotation = std::move(annotation);
  return a;
}

TEST(PrinterStmt, AssignmentsLoopsAndBranches) {
  EXPECT_EQ(print_stmt(assign({var("x"), nullptr}, use("v"))), "x, _ = v\n");
  EXPECT_EQ(print_stmt(assign({var("n", scalar_type(DType::INT32))}, num(3), scalar_type(DType::INT32)), 1),
            "    n: pl.Scalar[pl.INT32] = 3\n");

  auto loop = mk<For>();
  loop->iv = var("i");
  loop->start = num(0);
  loop->stop = use("n");
  loop->step = num(1);
  EXPECT_EQ(print_stmt(loop), "for i in pl.range(n):\n    pass\n");
  loop->start = num(2);
  EXPECT_EQ(print_stmt(loop), "for i in pl.range(2, n):\n    pass\n");
  loop->step = num(2);
  EXPECT_EQ(print_stmt(loop), "for i in pl.range(2, n, 2):\n    pass\n");
  loop->loop_kind = LoopKind::Pipeline;
  loop->start = num(0);
  loop->step = num(1);
  loop->stage = num(2);
  EXPECT_EQ(print_stmt(loop), "for i in pl.pipeline(n, stage=2):\n    pass\n");

  auto inner = mk<If>();
  inner->cond = cmp(CompareOpKind::Eq, use("a"), num(1));
  inner->then_body = {mk<Pass>()};
  inner->else_body = {assign({var("y")}, num(2))};
  auto outer = mk<If>();
  outer->cond = cmp(CompareOpKind::Eq, use("a"), num(0));
  outer->then_body = {assign({var("y")}, num(1))};
  outer->else_body = {inner};
  EXPECT_EQ(print_stmt(outer), "if a == 0:\n    y = 1\nelif a == 1:\n    pass\nelse:\n    y = 2\n");

  auto ret = mk<Return>();
  ret->values = {use("a"), use("b")};
  EXPECT_EQ(print_stmt(ret), "return a, b\n");
  auto scope = mk<ManualScope>();
  scope->body = {ret};
  EXPECT_EQ(print_stmt(scope), "with pl.manual_scope():\n    return a, b\n");
}

TEST(PrinterProgram, ClassStyleFactory) {
  auto ws = var("world_size");
  auto cc = var("comm_cores");
  auto m = var("M");
  auto prog = std::make_shared<ProgramNode>();
  prog->name = "P";
  prog->factory_name = "make_program";
  prog->factory_params = {{ws, nullptr}, {cc, num(4)}};
  prog->factory_constants = {{m, bin(B::Mul, use(ws), num(128))}};
  auto f = std::make_shared<FunctionNode>();
  f->name = "kernel";
  f->kind = FunctionKind::InCore;
  auto x = var("x", dist_tensor_type({use(m), num(64)}, DType::FP16));
  f->params = {{x, Direction::InOut}};
  f->return_types = {x->type};
  f->docstring = "Copies.";
  auto ret = mk<Return>();
  ret->values = {use(x)};
  f->body = {ret};
  auto host = std::make_shared<FunctionNode>();
  host->name = "host";
  host->kind = FunctionKind::Host;
  prog->functions = {f, host};
  auto mod = std::make_shared<ModuleNode>();
  mod->programs = {prog};
  EXPECT_EQ(print_module(mod),
            "import pypto.language as pl\n"
            "import pypto.language.distributed as pld\n"
            "\n\n"
            "def make_program(world_size, comm_cores=4):\n"
            "    M = world_size * 128\n"
            "\n"
            "    @pl.program\n"
            "    class P:\n"
            "        @pl.function(type=pl.FunctionType.InCore)\n"
            "        def kernel(\n"
            "            self,\n"
            "            x: pl.InOut[pld.DistributedTensor[[M, 64], pl.FP16]],\n"
            "        ) -> pld.DistributedTensor[[M, 64], pl.FP16]:\n"
            "            \"\"\"Copies.\"\"\"\n"
            "            return x\n"
            "\n"
            "        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
            "        def host(self):\n"
            "            pass\n"
            "\n"
            "    return P\n");
}

TEST(PrinterProgram, JitStyle) {
  auto prog = std::make_shared<ProgramNode>();
  prog->name = "host";
  prog->style = ProgramStyle::Jit;
  auto k = std::make_shared<FunctionNode>();
  k->name = "k";
  auto h = std::make_shared<FunctionNode>();
  h->name = "host";
  h->kind = FunctionKind::Host;
  auto n = var("n", scalar_type(DType::INT32));
  h->params = {{n, Direction::In}};
  prog->functions = {k, h};
  EXPECT_EQ(
      print_program(prog),
      "@pl.jit.incore\ndef k():\n    pass\n\n\n@pl.jit.host\ndef host(n: pl.Scalar[pl.INT32]):\n    pass\n");
}

TEST(PrinterProgram, NeverCrashesOnHoles) {
  auto f = std::make_shared<FunctionNode>();
  f->name = "f";
  f->params = {{nullptr, Direction::In}};
  auto a = mk<Assign>();
  f->body = {nullptr, a, mk<ExprStmt>(), mk<Return>()};
  EXPECT_NO_THROW(print_function(f));
  EXPECT_EQ(print_expr(nullptr), "None");
  auto c = mk<OpCall>();
  EXPECT_NO_THROW(print_expr(c));
}

}  // namespace
}  // namespace ptodist::ir
