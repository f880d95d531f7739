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

}  // namespace ptodist::ir

namespace ptodist::ir {

// Function-level contracts that no single op can check: at most one async session per kernel; sessions
// only in InCore/AIV kernels; no session beside an async prefetch (they share the DMA channel group).
// Reports located errors; returns true when there is none.
bool check_function_contracts(const FunctionNode& f, DiagnosticEngine& diags);

}  // namespace ptodist::ir
