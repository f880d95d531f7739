// The expression syntax tree: what an expression says, before names and ops are resolved. The parser
// builds it first so one expression can be read as a value, a type annotation, a decorator or a loop
// header, each with its own rules.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ptodist/support/source.h"

namespace ptodist::frontend {

enum class SynKind {
  Name,
  Int,
  Float,
  String,
  True,
  False,
  None,
  Ellipsis,
  Attr,       // items[0] . text
  Call,       // items[0] ( items[1..] ), keyword args carry `keyword`
  Subscript,  // items[0] [ items[1] ]  (several indices arrive as one Tuple)
  Slice,      // a:b:c inside a subscript (unsupported; kept for a located error)
  List,
  Tuple,
  Dict,
  Set,
  Unary,    // text: "-", "+", "~", "not"
  Binary,   // text: the operator
  Compare,  // items: operands; ops: the operators between them
  BoolOp,   // text: "and" / "or"; items: two operands
  IfExp,    // items: cond, then, else
  Star,     // *x in a call (unsupported)
  Lambda,   // unsupported
};

struct SynExpr;
using SynExprP = std::shared_ptr<SynExpr>;

struct SynExpr {
  SynKind kind = SynKind::Name;
  SourceSpan span;
  std::string text;  // name, attribute, string value, operator
  long long int_value = 0;
  double float_value = 0;
  std::vector<SynExprP> items;
  std::vector<std::string> ops;  // Compare only
  std::string keyword;           // set on a call argument written `keyword=value`
  bool parenthesized = false;    // `(a, b)` rather than `a, b`
  int depth = 1;                 // height of the tree, bounded so lowering cannot recurse unboundedly
};

// The dotted path an Attr/Name chain spells ("pl.tensor.put"), or "" when it is not a plain path.
std::string dotted_path(const SynExpr& e);

}  // namespace ptodist::frontend
