// Building IR with contracts checked as each node is made. The frontend and the passes build through
// this; an op that breaks its contract is reported here, with the op and the operand named.
#pragma once

#include <string>
#include <vector>

#include "ptodist/ir/function.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::ir {

// What a contract may need to know about where the op is being built.
struct BuildScope {
  FunctionKind function_kind = FunctionKind::InCore;
  std::string function_name;
  // The functions of the program built so far (callees precede callers or are declared up front),
  // for checking calls and spmd_submit against the callee's signature.
  const std::vector<Function>* functions = nullptr;
  // The variables whose values are known at compile time once the program is specialized (module
  // constants, factory parameters and factory constants). When given, a shape operand that names any other
  // variable is a run-time value: contracts that need static shapes (put_async regions) reject it at once.
  // When null, such dims are taken to be symbolic and are checked again after specialize.
  const std::vector<Var>* compile_time_vars = nullptr;
  // Inside a `pl.split_aiv` region: its SplitMode (0 NONE, 1 UP_DOWN, 2 LEFT_RIGHT); -1 outside.
  int split_aiv_mode = -1;
};

// A positional or keyword argument as written at a call site.
struct CallArg {
  std::string keyword;  // empty for positional
  Expr value;
  SourceSpan span;
};

class Builder {
 public:
  explicit Builder(DiagnosticEngine& diags) : diags_(diags) {}

  DiagnosticEngine& diags() { return diags_; }

  // Literals and names. Their types are set here.
  Expr int_imm(long long v, SourceSpan span = {});
  Expr float_imm(double v, SourceSpan span = {});
  Expr bool_imm(bool v, SourceSpan span = {});
  Expr str_imm(std::string v, SourceSpan span = {});
  Expr none_imm(SourceSpan span = {});
  Expr dtype_imm(DType t, SourceSpan span = {});
  Expr enum_imm(EnumKind k, std::string value, SourceSpan span = {});
  Expr dynamic_dim(std::string name, SourceSpan span = {});
  Expr var_ref(const Var& v, SourceSpan span = {});
  Var make_var(std::string name, Type type, SourceSpan span = {});

  // Operators on scalars (and constant folding of constants). Reports a located error and returns null
  // when the operands are not scalars.
  Expr unary(UnaryOpKind op, Expr operand, SourceSpan span);
  Expr binary(BinaryOpKind op, Expr lhs, Expr rhs, SourceSpan span);
  Expr compare(CompareOpKind op, Expr lhs, Expr rhs, SourceSpan span);
  Expr bool_op(BoolOpKind op, Expr lhs, Expr rhs, SourceSpan span);
  Expr if_exp(Expr cond, Expr then_value, Expr else_value, SourceSpan span);
  Expr list(std::vector<Expr> elements, SourceSpan span);
  Expr tuple(std::vector<Expr> elements, SourceSpan span);
  Expr subscript(Expr value, std::vector<Expr> indices, SourceSpan span);

  // Binds the arguments to the op's signature (unknown keyword, missing required argument, too many
  // positionals are errors naming the op), then runs the op's contract. Returns null after an error.
  Expr op_call(const OpInfo& op, const std::vector<CallArg>& args, const BuildScope& scope, SourceSpan span);
  // Same, with the arguments already in signature slots (passes use this).
  Expr op_call_slots(const OpInfo& op, std::vector<Expr> slots, std::vector<Expr> varargs,
                     const BuildScope& scope, SourceSpan span);

  // A call of a program function: arity and argument types against the callee; `device=` only from the
  // host orchestrator.
  Expr func_call(const std::string& callee, bool via_self, const std::vector<CallArg>& args,
                 const BuildScope& scope, SourceSpan span);
  Expr func_ref(const std::string& callee, bool via_self, const BuildScope& scope, SourceSpan span);

 private:
  DiagnosticEngine& diags_;
  int next_var_id_ = 1;
};

}  // namespace ptodist::ir
