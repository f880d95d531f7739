// Retyping kernel variables from tensors to tiles, round by round: the machinery shared by the
// conversions of convert-tensor-to-tile that make kernel-local tensors tiles (tile_matmul/: matmul
// accumulators in Acc; tile_scratch.cpp: scratch tensors and the sort / gather values in Vec).
//
// A round rewrites the kernel with some variables typed as tiles (`types`). A conversion says how a
// variable's definition becomes a tile (TileRetyper::define); every other op call with an operand whose
// type changed is rebuilt through the builder, so it is typed as the front end would have typed it had
// the program written tiles (pl.read of a tile is pl.tile.read, a vector op reading an Acc tile moves it
// to Vec first). The tiles those rebuilt values give the variables they define are collected; the
// round's function is the answer once a round adds no variable (retype_to_fixpoint). A use with no tile
// form fails the round: the caller keeps the tensor form, which ptodist's runtime still runs and whose
// op the PTO emitter names.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <vector>

#include "ptodist/ir/function.h"
#include "rewrite_util.h"

namespace ptodist::transforms::detail {

using VarTypes = std::map<const ir::VarNode*, ir::Type>;
// Every definition of each variable: the op call it assigns, or null (a loop variable, a tuple target,
// a plain value).
using Definitions = std::map<const ir::VarNode*, std::vector<const ir::OpCall*>>;

// Collects the definitions of every variable of block `b` (nested blocks included) into `defs`.
void collect_defs(const ir::Block& b, Definitions& defs);

bool same_type(const ir::Type& a, const ir::Type& b);
// Whether list `e` holds the constant dims `shape`.
bool same_dims(const std::vector<ir::Expr>& shape, const ir::Expr& e);

class TileRetyper : public DeepRewriter {
 public:
  TileRetyper(DiagnosticEngine& scratch, const ir::Program& p, const ir::Function& f, const VarTypes& types);

  // The rewritten function, or null when a use has no tile form.
  ir::Function run(const ir::Function& f);
  // The tile types of the variables this round retyped, those it was given among them.
  const VarTypes& found() const { return found_; }

  ir::Var map_var(const ir::Var& v) override;
  ir::Block rewrite_stmt(const ir::Stmt& s) override;
  // An op call is rebuilt when an operand's type changed; otherwise copied.
  ir::Expr rewrite_expr(const ir::Expr& e) override;

 protected:
  // The value of the statement defining `target` by op call `value`, the statements it needs before it
  // appended to `out`; null when it has no tile form. The default rewrites `value` as any other
  // expression.
  virtual ir::Expr define(const ir::Var& target, const ir::Expr& value, ir::Block& out);
  // Op call `c` with its operands rewritten to `args` / `varargs`, at least one of them retyped; null
  // when it has no tile form. Statements it needs first go to `prelude_`.
  virtual ir::Expr rebuild(const ir::OpCall& c, std::vector<ir::Expr> args, std::vector<ir::Expr> varargs);

  bool fail() {
    failed_ = true;
    return false;
  }
  ir::Expr memory(ir::Memory m, SourceSpan span);

  DiagnosticEngine& diags_;
  OpMaker make_;
  VarFactory vars_;
  const VarTypes& types_;
  VarTypes found_;
  ir::Block prelude_;  // statements the expression being rewritten needs before its statement
  bool failed_ = false;

 private:
  void check_kept(const ir::Stmt& before, const ir::Block& after);
  void note_type(const ir::Var& target, const ir::Type& t);
};

// Runs rounds of `make(types)` (a fresh retyper each round, over the types found so far) from `types`
// until a round adds no variable; null when a round fails or none settles within 32 rounds (a chain of
// n retyped variables takes n).
using RetyperFactory = std::function<ir::Function(const VarTypes& types, VarTypes& found)>;
ir::Function retype_to_fixpoint(VarTypes types, const RetyperFactory& round);

}  // namespace ptodist::transforms::detail
