// The parser's scoped state (parser_impl.h): what the loop whose body is being parsed records, and
// the guards that set such state for a scope and put it back when the scope ends.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ptodist/ir/expr.h"
#include "ptodist/support/source.h"

namespace ptodist::frontend {

// ---- loops and loop-carried values (loops.cpp) ----
// A loop with init_values=: its carried variables, the if-nesting of its body, the names its
// loop-level pl.yield_ assigns (bound to the carried values after the loop).
struct LoopCarry {
  std::vector<ir::Var> vars;
  int if_depth = 0;
  std::vector<std::pair<std::string, SourceSpan>> yield_names;
  bool yielded = false;  // a loop-level pl.yield_ was written
  bool failed = false;   // the loop header was reported: its yields say nothing more
};

// ---- while loops (while_loops.cpp) ----
// A pl.while_ loop being parsed: its condition, set by the pl.cond(...) that opens its body.
struct WhileHead {
  int body_block = 0;
  ir::Expr cond;
  bool seen = false;  // a pl.cond was written, even one that failed to lower
};

// ---- continue and break (loop_exits.cpp) ----
// The loop whose body is being parsed: the flags its `continue` and `break` set (made at the first
// one), and how many exits its body has written so far (a block guards what follows a statement
// that wrote one).
struct LoopExits {
  ir::Var continue_flag, break_flag;
  int written = 0;
  SourceSpan span;
};

// Gives `slot` a new value for a scope and puts the old one back when the scope ends, by return or by
// a SyntaxAbort unwinding through it: a nested body's parser state (the loops it may yield to, its
// branch depth) must never leak into the statements around it.
template <typename T>
class ScopedValue {
 public:
  ScopedValue(T& slot, T value) : slot_(slot), saved_(std::exchange(slot, std::move(value))) {}
  ~ScopedValue() { slot_ = std::move(saved_); }
  ScopedValue(const ScopedValue&) = delete;
  ScopedValue& operator=(const ScopedValue&) = delete;

 private:
  T& slot_;
  T saved_;
};

// Counts one level of if/else nesting while a branch is parsed.
struct IfDepth {
  int& depth;
  explicit IfDepth(int& d) : depth(d) { ++depth; }
  ~IfDepth() { --depth; }
};

// Pushes `entry` on a stack of the parser for the lifetime of the scope, also when parsing throws.
template <typename T>
struct PushScope {
  std::vector<T*>& stack;
  PushScope(std::vector<T*>& s, T* entry) : stack(s) { stack.push_back(entry); }
  ~PushScope() { stack.pop_back(); }
};

}  // namespace ptodist::frontend
