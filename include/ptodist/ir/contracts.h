// Op contracts: one type rule per op of ops.def. Each checks the operands of one call, reports a
// located error naming the op and the operand, and returns the result type (null after an error).
#pragma once

#include "ptodist/ir/builder.h"

namespace ptodist::ir {

// Everything a contract reads: the call with its slots bound, where it is built, and where to report.
struct ContractContext {
  const OpCall& call;
  const BuildScope& scope;
  DiagnosticEngine& diags;

  // The argument in slot `name` (null when omitted) and the span to point at for it (the call's span
  // when omitted).
  Expr arg(std::string_view name) const;
  SourceSpan span_of(std::string_view name) const;
  // Reports "<op spelling>: <message>" at the operand's span (or the call's) and returns null.
  Type fail(std::string_view operand, const std::string& message) const;
};

#define PTODIST_OP(Id, spelling, signature, effects, where) Type check_##Id(const ContractContext& cx);
#include "ptodist/ir/ops.def"
#undef PTODIST_OP

// Runs the contract of `cx.call.op` (dispatch over ops.def). The verifier re-runs contracts on existing
// calls through this; contracts are pure functions of the call, the scope and the diagnostics.
Type check_op(const ContractContext& cx);
// PyPTO's AivSplitValid rule (a): no cube compute inside a pl.split_aiv region (contracts/split_aiv.cpp).
bool check_split_aiv_placement(const ContractContext& cx);

}  // namespace ptodist::ir

namespace ptodist::ir {

// Function-level contracts that no single op can check: at most one async session per kernel (error at
// the second, note at the first); no session beside an async prefetch (they share the DMA channel
// group; error at the prefetch, note at the session). Sessions only in InCore/AIV kernels is checked by
// check_AsyncSession, from the scope's function kind. Reports located errors; true when there is none.
bool check_function_contracts(const FunctionNode& f, DiagnosticEngine& diags);

}  // namespace ptodist::ir
