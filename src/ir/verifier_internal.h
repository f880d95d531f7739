// The verifier's walk over one function: definite assignment, fixed variable types, op contracts and
// calls (verifier.cpp walks statements, verifier_expr.cpp checks expressions).
#pragma once

#include <map>
#include <set>
#include <string>

#include "ptodist/ir/builder.h"
#include "ptodist/ir/function.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::ir::detail {

// Variables definitely assigned on every path to the current point. An unreachable point (after a
// return) is the top of the lattice: joining it with anything gives the other side.
struct DefSet {
  bool unreachable = false;
  std::set<const VarNode*> vars;

  bool has(const VarNode* v) const { return unreachable || vars.count(v) > 0; }
  static DefSet join(const DefSet& a, const DefSet& b);
};

// Reports every call that closes a cycle of the program's call graph (call_cycles.cpp).
void check_call_cycles(const ProgramNode& p, DiagnosticEngine& diags);

class FunctionVerifier {
 public:
  FunctionVerifier(const ProgramNode& program, const FunctionNode& fn,
                   const std::map<const VarNode*, std::string>& owners, DiagnosticEngine& diags);

  // Every variable `b` defines (targets, loop variables), for telling locals from module constants.
  static void collect_defs(const Block& b, std::set<const VarNode*>& out);
  void run();

  // verifier_expr.cpp
  void check_expr(const Expr& e, const DefSet& defs);

 private:
  void check_block(const Block& b, DefSet& defs);
  void check_stmt(const Stmt& s, DefSet& defs);
  void check_assign(const Assign& a, DefSet& defs);
  void check_for(const For& f, DefSet& defs);
  void check_while(const While& w, DefSet& defs);
  void check_return(const Return& r, DefSet& defs);
  void check_binding(const Var& v, const Type& value_type, const SourceSpan& span);
  void check_loop_bound(const Expr& e, const char* what, const DefSet& defs);

  // verifier_expr.cpp
  void check_use(const VarRef& ref, const DefSet& defs);
  void check_op_call(const OpCall& call);
  void check_func_call(const FuncCall& call);
  void check_callee_exists(const std::string& callee, const SourceSpan& span);
  SourceSpan where(const SourceSpan& span) const { return span.valid() ? span : fn_.span; }

  const ProgramNode& program_;
  const FunctionNode& fn_;
  const std::map<const VarNode*, std::string>& owners_;  // variable -> the function defining it
  DiagnosticEngine& diags_;
  BuildScope scope_;
  std::set<const VarNode*> locals_;    // defined somewhere in this function
  std::set<const VarNode*> reported_;  // one scoping error per variable
};

}  // namespace ptodist::ir::detail
