// Shared state of the IR printer: expression and type printing (printer_expr.cpp) used by the statement,
// function and program printer (printer.cpp).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ptodist/ir/function.h"

namespace ptodist::ir::detail {

// Python operator precedence, loosest first; a child printed where a tighter level is required gets
// parentheses (Python language reference, "Operator precedence").
enum Prec : int {
  kPrecTop = 0,
  kPrecIfExp = 1,
  kPrecOr = 2,
  kPrecAnd = 3,
  kPrecNot = 4,
  kPrecCompare = 5,
  kPrecBitOr = 6,
  kPrecBitXor = 7,
  kPrecBitAnd = 8,
  kPrecShift = 9,
  kPrecAdd = 10,
  kPrecMul = 11,
  kPrecUnary = 12,
  kPrecPow = 13,
  kPrecPrimary = 14,
};

class ExprPrinter {
 public:
  // Dynamic dims whose name is bound by a module constant `NR = pl.dynamic("NR")` print as that name.
  void bind_dynamic_name(const std::string& name) { dynamic_names_.insert(name); }

  std::string expr(const Expr& e, int min_prec = kPrecTop) const;
  std::string type(const Type& t) const;
  std::string annotated_param_type(const Type& t, Direction d) const;
  std::string return_annotation(const std::vector<Type>& types) const;
  // The callee text and printed arguments of an op or function call; false for other expressions.
  bool call_parts(const Expr& e, std::string& callee, std::vector<std::string>& args) const;

 private:
  std::string body(const Expr& e, int& prec) const;
  std::string call(const Expr& e) const;
  std::vector<std::string> op_call_args(const OpCall& c) const;
  std::string list_of(const std::vector<Expr>& elems) const;

  std::set<std::string> dynamic_names_;
};

// An outlined deferred waiter's call site, printed back as its `with pl.at(level=pl.Level.CORE_GROUP,
// name_hint=..., deps=...) as tid:` scope (printer_waiters.cpp); the waiter's definition is not printed.
struct AtScopeSite {
  const FunctionNode* fn = nullptr;
  Expr deps;  // null when the scope had no deps=
  Var tid;    // null when the scope had no `as`
};
using AtScopeSites = std::map<const StmtNode*, AtScopeSite>;
AtScopeSites waiter_scope_sites(const ProgramNode& p);

std::string float_literal(double v);
std::string string_literal(const std::string& s);

}  // namespace ptodist::ir::detail
