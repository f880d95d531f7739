// Shared by the all-gather + GEMM demo and the executor-overhead benchmark: rewrites a program's
// chip orchestration so that its manual scope becomes a plain sequence of the submissions a
// predicate keeps (submissions then run in order; the kernels themselves are unchanged).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "ptodist/ir/function.h"

namespace ptodist::examples {

// `keep(kernel_name)` says whether the manual scope's submission of that kernel stays; statements
// that submit nothing always stay.
inline ir::Program flatten_manual_scope(const ir::Program& p,
                                        const std::function<bool(const std::string&)>& keep) {
  using namespace ir;
  auto prog = std::make_shared<ProgramNode>(*p);
  for (Function& fn : prog->functions) {
    if (fn->kind != FunctionKind::Orchestration) continue;
    auto copy = std::make_shared<FunctionNode>(*fn);
    Block body;
    for (const Stmt& s : fn->body) {
      const auto* scope = s->as<ManualScope>();
      if (!scope) {
        body.push_back(s);
        continue;
      }
      for (const Stmt& inner : scope->body) {
        const auto* a = inner->as<Assign>();
        const OpCall* call = a ? a->value->as<OpCall>() : nullptr;
        const FuncRef* k =
            call && !call->args.empty() && call->args[0] ? call->args[0]->as<FuncRef>() : nullptr;
        if (k && !keep(k->callee)) continue;
        body.push_back(inner);
      }
    }
    copy->body = std::move(body);
    fn = copy;
  }
  return prog;
}

}  // namespace ptodist::examples
