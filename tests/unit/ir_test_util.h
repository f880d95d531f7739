// Helpers for IR unit tests: build typed variables, lists and op calls through the Builder, and read
// back the first diagnostic.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ptodist/ir/builder.h"
#include "ptodist/ir/contracts.h"

namespace ptodist::ir::testing {

class IrTest : public ::testing::Test {
 protected:
  DiagnosticEngine diags;
  Builder b{diags};
  BuildScope scope;  // an InCore kernel by default
  std::vector<Function> functions;

  IrTest() { scope.functions = &functions; }

  Expr i(long long v) { return b.int_imm(v); }
  Expr ints(std::vector<long long> vs) {
    std::vector<Expr> es;
    for (long long v : vs) es.push_back(i(v));
    return b.list(std::move(es), {});
  }
  std::vector<Expr> dims(std::vector<long long> vs) {
    std::vector<Expr> es;
    for (long long v : vs) es.push_back(i(v));
    return es;
  }
  Expr var(const std::string& name, Type t) { return b.var_ref(b.make_var(name, std::move(t))); }
  Expr tensor(std::vector<long long> shape, DType dt = DType::FP16) {
    return var("t", tensor_type(dims(shape), dt));
  }
  Expr dist(std::vector<long long> shape, DType dt = DType::FP16) {
    return var("w", dist_tensor_type(dims(shape), dt));
  }
  Expr tile(std::vector<long long> shape, DType dt = DType::FP16, Memory m = Memory::Vec) {
    return var("x", tile_type(dims(shape), dt, m));
  }
  Expr session() { return var("s", simple_type(TypeKind::AsyncSession)); }
  Expr mem(const std::string& m) { return b.enum_imm(EnumKind::Memory, m); }

  // A call with positional args first, then keyword args.
  Expr call(const std::string& op, std::vector<Expr> pos, std::vector<std::pair<std::string, Expr>> kw = {}) {
    const OpInfo* info = find_op(op);
    EXPECT_NE(info, nullptr) << op;
    if (!info) return nullptr;
    std::vector<CallArg> args;
    for (Expr& e : pos) args.push_back({"", e, e ? e->span : SourceSpan{}});
    for (auto& [k, e] : kw) args.push_back({k, e, e ? e->span : SourceSpan{}});
    return b.op_call(*info, args, scope, {});
  }

  std::string first_error() const {
    for (const Diagnostic& d : diags.diagnostics())
      if (d.severity == Severity::Error) return d.message;
    return "";
  }
};

}  // namespace ptodist::ir::testing
