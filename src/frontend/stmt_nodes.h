// Statement nodes as the parser makes them, located at a span: shared by the files that build
// statements (stmts.cpp, loops.cpp, while_loops.cpp, loop_exits.cpp).
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "ptodist/ir/stmt.h"

namespace ptodist::frontend {

template <typename T>
std::shared_ptr<T> make_stmt(const SourceSpan& span) {
  auto s = std::make_shared<T>();
  s->span = span;
  return s;
}

// `targets = value`.
inline std::shared_ptr<ir::Assign> make_assign(std::vector<ir::Var> targets, ir::Expr value,
                                               const SourceSpan& span) {
  auto s = make_stmt<ir::Assign>(span);
  s->targets = std::move(targets);
  s->value = std::move(value);
  return s;
}

}  // namespace ptodist::frontend
