// ContractContext: operand access and located failure for the op contracts, and the dispatch from an
// op id to its contract.
#include "ptodist/ir/contracts.h"

namespace ptodist::ir {

Expr ContractContext::arg(std::string_view name) const {
  return call.arg(name);
}

SourceSpan ContractContext::span_of(std::string_view name) const {
  Expr e = call.arg(name);
  return e && e->span.valid() ? e->span : call.span;
}

namespace {

// A message written with the op's parameter names, reworded with the alias's names where they differ
// (`pl.tile.cast` calls its first parameter 'tile' where `pl.cast` says 'input').
std::string in_alias_words(const OpInfo& spelled, std::string message) {
  const OpInfo& op = op_info(spelled.id);
  for (size_t i = 0; &op != &spelled && i < spelled.params.size(); ++i) {
    std::string from = "'" + op.params[i].name + "'", to = "'" + spelled.params[i].name + "'";
    if (from == to) continue;
    for (size_t at = message.find(from); at != std::string::npos; at = message.find(from, at + to.size()))
      message.replace(at, from.size(), to);
  }
  return message;
}

}  // namespace

Type ContractContext::fail(std::string_view operand, const std::string& message) const {
  std::string spelling = call.op ? call.op->spelling : std::string("<op>");
  std::string text = call.op ? in_alias_words(*call.op, message) : message;
  diags.error(operand.empty() ? call.span : span_of(operand), spelling + ": " + text);
  return nullptr;
}

Type check_op(const ContractContext& cx) {
  PTODIST_INTERNAL_ASSERT(cx.call.op != nullptr, "check_op: call without an op");
  // An operand without a type comes from an expression that already failed (and was reported): checking
  // the call would only add a second error for the same mistake. Without an earlier error the contract
  // runs and names the operand, so nothing fails silently.
  if (cx.diags.has_errors())
    for (const std::vector<Expr>* v : {&cx.call.args, &cx.call.varargs})
      for (const Expr& a : *v)
        if (a && !a->type) return nullptr;
  if (!check_split_aiv_placement(cx)) return nullptr;
  switch (cx.call.op->id) {
#define PTODIST_OP(Id, spelling, signature, effects, where) \
  case OpId::Id:                                            \
    return check_##Id(cx);
#include "ptodist/ir/ops.def"
#undef PTODIST_OP
  }
  return nullptr;
}

}  // namespace ptodist::ir
