// IR statements: structured control flow (for, while, if, manual_scope) over assignments and calls.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "ptodist/ir/expr.h"

namespace ptodist::ir {

enum class StmtKind { Assign, ExprStmt, For, If, ManualScope, Return, Pass, While };

struct StmtNode;
using Stmt = std::shared_ptr<const StmtNode>;
using Block = std::vector<Stmt>;

struct StmtNode {
  StmtKind kind;
  SourceSpan span;

  explicit StmtNode(StmtKind k) : kind(k) {}
  virtual ~StmtNode() = default;

  template <typename T>
  bool isa() const {
    return kind == T::kKind;
  }
  template <typename T>
  const T* as() const {
    return isa<T>() ? static_cast<const T*>(this) : nullptr;
  }
};

template <StmtKind K>
struct StmtBase : StmtNode {
  static constexpr StmtKind kKind = K;
  StmtBase() : StmtNode(K) {}
};

// `a = v`, `a, b = v` (tuple unpacking; `_` targets are null), `a: T = v` (annotation kept for printing).
struct Assign : StmtBase<StmtKind::Assign> {
  std::vector<Var> targets;  // null entry for `_`
  Expr value;
  Type annotation;  // null when not annotated
};

struct ExprStmt : StmtBase<StmtKind::ExprStmt> {
  Expr value;
};

// The loop forms of the language; all are counted loops `for iv in <kind>(start, stop, step)`.
// SplitAiv is PyPTO's manual AIV split region `for aiv_id in pl.split_aiv(2, mode=...)`: its body is the
// vector lanes' work, one iteration per lane (iv = the lane, as pl.tile.get_subblock_idx()).
enum class LoopKind { Range, Parallel, Unroll, Pipeline, SplitAiv };
struct For : StmtBase<StmtKind::For> {
  LoopKind loop_kind = LoopKind::Range;
  Var iv;
  Expr start, stop, step;  // start/step default to 0/1 when written as range(n)
  Expr stage;              // pl.pipeline(n, stage=2); null otherwise
  int split_mode = 0;      // SplitAiv: PyPTO's SplitMode, 0 NONE, 1 UP_DOWN (rows), 2 LEFT_RIGHT (cols)
  Block body;
};

// How many times `loop` runs when start, stop and step are constants (never negative, saturated at
// LLONG_MAX); nullopt when one is not a constant or the step is 0.
std::optional<long long> constant_trip_count(const For& loop);

// `while cond:` — the condition is evaluated before every iteration. PyPTO's
// `for (a,) in pl.while_(init_values=(x,)):` lowers to one too: its carried values are the mutable
// variables the condition reads and the body rebinds. `continue`/`break` never reach the IR: the frontend
// rewrites them into flags and guarded blocks (loop_exits.cpp).
struct While : StmtBase<StmtKind::While> {
  Expr cond;
  Block body;
};

struct If : StmtBase<StmtKind::If> {
  Expr cond;
  Block then_body;
  Block else_body;  // `elif` is an If alone in else_body, printed back as elif
};

// `with pl.manual_scope():` — no automatic dependency edges between the submits inside.
struct ManualScope : StmtBase<StmtKind::ManualScope> {
  Block body;
};

struct Return : StmtBase<StmtKind::Return> {
  std::vector<Expr> values;
};

struct Pass : StmtBase<StmtKind::Pass> {};

}  // namespace ptodist::ir
