// Structural equality of programs and functions: variables are matched by the order in which they are
// defined, everything else node by node; the first difference is described for test failures.
#include "ptodist/ir/structural_equal.h"

#include <map>

#include "ptodist/ir/op_table.h"
#include "ptodist/ir/printer.h"

namespace ptodist::ir {

namespace {

class Comparer {
 public:
  explicit Comparer(std::string* why) : why_(why) {}

  bool program(const ProgramNode& a, const ProgramNode& b) {
    if (a.name != b.name) return fail("program name '" + a.name + "' vs '" + b.name + "'");
    if (a.style != b.style) return fail("program style differs");
    if (a.factory_name != b.factory_name)
      return fail("factory '" + a.factory_name + "' vs '" + b.factory_name + "'");
    if (a.factory_params.size() != b.factory_params.size()) return fail("factory parameter count differs");
    for (size_t i = 0; i < a.factory_params.size(); ++i) {
      if (!define(a.factory_params[i].var, b.factory_params[i].var, false)) return false;
      if (!expr(a.factory_params[i].default_value, b.factory_params[i].default_value)) return false;
    }
    if (!constants(a.factory_constants, b.factory_constants)) return false;
    if (a.functions.size() != b.functions.size()) return fail("function count differs");
    for (size_t i = 0; i < a.functions.size(); ++i)
      if (!function_ptr(a.functions[i], b.functions[i])) return false;
    return true;
  }

  bool function_ptr(const Function& a, const Function& b) {
    if (!a || !b) return a == b || fail("function missing on one side");
    return function(*a, *b);
  }

 private:
  bool function(const FunctionNode& a, const FunctionNode& b) {
    where_ = "function '" + a.name + "'";
    if (a.name != b.name) return fail("name '" + a.name + "' vs '" + b.name + "'");
    if (a.kind != b.kind) return fail("kind differs");
    if (a.params.size() != b.params.size()) return fail("parameter count differs");
    for (size_t i = 0; i < a.params.size(); ++i) {
      if (a.params[i].direction != b.params[i].direction)
        return fail("direction of parameter " + std::to_string(i));
      if (!define(a.params[i].var, b.params[i].var, true)) return false;
    }
    if (a.return_types.size() != b.return_types.size()) return fail("return annotation count differs");
    for (size_t i = 0; i < a.return_types.size(); ++i)
      if (!type(a.return_types[i], b.return_types[i])) return false;
    return block(a.body, b.body);
  }

  bool constants(const std::vector<Constant>& a, const std::vector<Constant>& b) {
    if (a.size() != b.size()) return fail("constant count differs");
    for (size_t i = 0; i < a.size(); ++i)
      if (!expr(a[i].value, b[i].value) || !define(a[i].var, b[i].var, false)) return false;
    return true;
  }

  // A definition pairs the two variables; a later definition of an already paired one must agree.
  bool define(const Var& a, const Var& b, bool with_type) {
    if (!a || !b) return a == b || fail("a definition is `_` on one side only");
    auto it = map_.find(a.get());
    if (it != map_.end())
      return it->second == b.get() || fail("'" + a->name + "' rebinds a different variable");
    if (reverse_.count(b.get())) return fail("'" + b->name + "' is defined twice on the right side only");
    map_[a.get()] = b.get();
    reverse_[b.get()] = a.get();
    return !with_type || type(a->type, b->type);
  }

  bool use(const Var& a, const Var& b) {
    if (!a || !b) return a == b || fail("variable missing on one side");
    auto it = map_.find(a.get());
    if (it != map_.end())
      return it->second == b.get() || fail("use of '" + a->name + "' vs '" + b->name + "'");
    // Free variables (module constants the comparison never saw defined) match by name.
    if (reverse_.count(b.get())) return fail("use of '" + a->name + "' vs '" + b->name + "'");
    return a->name == b->name || fail("free variable '" + a->name + "' vs '" + b->name + "'");
  }

  // Like type_equal, tile addresses (plan-memory's annotation) are not compared.
  bool type(const Type& a, const Type& b) {
    if (!a || !b) return a == b || fail("type missing on one side");
    if (a->kind != b->kind || a->dtype != b->dtype || a->memory != b->memory)
      return fail("type " + type_str(a) + " vs " + type_str(b));
    if (!exprs(a->shape, b->shape, "shape")) return false;
    if (a->elements.size() != b->elements.size()) return fail("tuple type arity differs");
    for (size_t i = 0; i < a->elements.size(); ++i)
      if (!type(a->elements[i], b->elements[i])) return false;
    return true;
  }

  bool exprs(const std::vector<Expr>& a, const std::vector<Expr>& b, const char* what) {
    if (a.size() != b.size())
      return fail(std::string(what) + " length " + std::to_string(a.size()) + " vs " +
                  std::to_string(b.size()));
    for (size_t i = 0; i < a.size(); ++i)
      if (!expr(a[i], b[i])) return false;
    return true;
  }

  bool expr(const Expr& a, const Expr& b) {
    if (!a || !b) return a == b || fail("expression missing on one side: " + print_expr(a ? a : b));
    if (a->kind != b->kind) return fail("`" + print_expr(a) + "` vs `" + print_expr(b) + "`");
    if (!expr_fields(a, b)) return fail("`" + print_expr(a) + "` vs `" + print_expr(b) + "`");
    return expr_children(a, b);
  }

  // The non-child fields of two nodes of the same kind.
  static bool expr_fields(const Expr& a, const Expr& b) {
    switch (a->kind) {
      case ExprKind::IntImm:
        return a->as<IntImm>()->value == b->as<IntImm>()->value;
      case ExprKind::FloatImm:
        return a->as<FloatImm>()->value == b->as<FloatImm>()->value;
      case ExprKind::BoolImm:
        return a->as<BoolImm>()->value == b->as<BoolImm>()->value;
      case ExprKind::StrImm:
        return a->as<StrImm>()->value == b->as<StrImm>()->value;
      case ExprKind::DTypeImm:
        return a->as<DTypeImm>()->value == b->as<DTypeImm>()->value;
      case ExprKind::EnumImm:
        return a->as<EnumImm>()->enum_kind == b->as<EnumImm>()->enum_kind &&
               a->as<EnumImm>()->value == b->as<EnumImm>()->value;
      case ExprKind::Dynamic:
        return a->as<Dynamic>()->name == b->as<Dynamic>()->name;
      case ExprKind::Unary:
        return a->as<Unary>()->op == b->as<Unary>()->op;
      case ExprKind::Binary:
        return a->as<Binary>()->op == b->as<Binary>()->op;
      case ExprKind::Compare:
        return a->as<Compare>()->op == b->as<Compare>()->op;
      case ExprKind::BoolOp:
        return a->as<BoolOp>()->op == b->as<BoolOp>()->op;
      case ExprKind::OpCall:
        return a->as<OpCall>()->op == b->as<OpCall>()->op;
      case ExprKind::FuncCall:
        return a->as<FuncCall>()->callee == b->as<FuncCall>()->callee &&
               a->as<FuncCall>()->via_self == b->as<FuncCall>()->via_self;
      case ExprKind::FuncRef:
        return a->as<FuncRef>()->callee == b->as<FuncRef>()->callee &&
               a->as<FuncRef>()->via_self == b->as<FuncRef>()->via_self;
      default:
        return true;
    }
  }

  bool expr_children(const Expr& a, const Expr& b) {
    switch (a->kind) {
      case ExprKind::VarRef:
        return use(a->as<VarRef>()->var, b->as<VarRef>()->var);
      case ExprKind::Unary:
        return expr(a->as<Unary>()->operand, b->as<Unary>()->operand);
      case ExprKind::Binary:
        return pair(a->as<Binary>(), b->as<Binary>());
      case ExprKind::Compare:
        return pair(a->as<Compare>(), b->as<Compare>());
      case ExprKind::BoolOp:
        return pair(a->as<BoolOp>(), b->as<BoolOp>());
      case ExprKind::IfExp: {
        auto x = a->as<IfExp>(), y = b->as<IfExp>();
        return expr(x->cond, y->cond) && expr(x->then_value, y->then_value) &&
               expr(x->else_value, y->else_value);
      }
      case ExprKind::List:
        return exprs(a->as<List>()->elements, b->as<List>()->elements, "list");
      case ExprKind::Tuple:
        return exprs(a->as<Tuple>()->elements, b->as<Tuple>()->elements, "tuple");
      case ExprKind::Subscript:
        return expr(a->as<Subscript>()->value, b->as<Subscript>()->value) &&
               exprs(a->as<Subscript>()->indices, b->as<Subscript>()->indices, "subscript");
      case ExprKind::OpCall:
        return exprs(a->as<OpCall>()->args, b->as<OpCall>()->args, "arguments") &&
               exprs(a->as<OpCall>()->varargs, b->as<OpCall>()->varargs, "variadic arguments");
      case ExprKind::FuncCall:
        return exprs(a->as<FuncCall>()->args, b->as<FuncCall>()->args, "arguments") &&
               expr(a->as<FuncCall>()->device, b->as<FuncCall>()->device);
      default:
        return true;
    }
  }

  template <typename T>
  bool pair(const T* x, const T* y) {
    return expr(x->lhs, y->lhs) && expr(x->rhs, y->rhs);
  }

  bool block(const Block& a, const Block& b) {
    size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i)
      if (!stmt(a[i], b[i])) return false;
    if (a.size() != b.size()) {
      const Block& longer = a.size() > b.size() ? a : b;
      return fail("block length " + std::to_string(a.size()) + " vs " + std::to_string(b.size()) +
                  "; first extra statement: " + print_stmt(longer[n]));
    }
    return true;
  }

  bool stmt(const Stmt& a, const Stmt& b) {
    if (!a || !b) return a == b || fail("statement missing on one side");
    if (a->kind != b->kind) return fail_stmt(a, b);
    switch (a->kind) {
      case StmtKind::Assign:
        return assign(*a->as<Assign>(), *b->as<Assign>()) || annotate(a, b);
      case StmtKind::ExprStmt:
        return expr(a->as<ExprStmt>()->value, b->as<ExprStmt>()->value) || annotate(a, b);
      case StmtKind::For:
        return loop(*a->as<For>(), *b->as<For>());
      case StmtKind::While: {
        auto x = a->as<While>(), y = b->as<While>();
        return (expr(x->cond, y->cond) || annotate(a, b)) && block(x->body, y->body);
      }
      case StmtKind::If: {
        auto x = a->as<If>(), y = b->as<If>();
        return (expr(x->cond, y->cond) || annotate(a, b)) && block(x->then_body, y->then_body) &&
               block(x->else_body, y->else_body);
      }
      case StmtKind::ManualScope:
        return block(a->as<ManualScope>()->body, b->as<ManualScope>()->body);
      case StmtKind::Return:
        return exprs(a->as<Return>()->values, b->as<Return>()->values, "return") || annotate(a, b);
      case StmtKind::Pass:
        return true;
    }
    return true;
  }

  bool assign(const Assign& a, const Assign& b) {
    // The value is compared first: it is evaluated before the targets are (re)bound.
    if (!expr(a.value, b.value)) return false;
    if (a.targets.size() != b.targets.size()) return fail("assignment target count differs");
    for (size_t i = 0; i < a.targets.size(); ++i)
      if (!define(a.targets[i], b.targets[i], true)) return false;
    if (!a.annotation != !b.annotation) return fail("annotation on one side only");
    return !a.annotation || type(a.annotation, b.annotation);
  }

  bool loop(const For& a, const For& b) {
    if (a.loop_kind != b.loop_kind) return fail("loop kind differs");
    if (a.split_mode != b.split_mode) return fail("split_aiv mode differs");
    if (!expr(a.start, b.start) || !expr(a.stop, b.stop) || !expr(a.step, b.step) || !expr(a.stage, b.stage))
      return false;
    if (!define(a.iv, b.iv, false)) return false;
    return block(a.body, b.body);
  }

  // Adds the statement's text to an already recorded difference.
  bool annotate(const Stmt& a, const Stmt& b) {
    if (why_ && !annotated_) {
      *why_ += " in `" + trim(print_stmt(a)) + "`";
      annotated_ = true;
    }
    return false;
  }

  bool fail_stmt(const Stmt& a, const Stmt& b) {
    return fail("`" + trim(print_stmt(a)) + "` vs `" + trim(print_stmt(b)) + "`");
  }

  static std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    size_t nl = s.find('\n');
    return nl == std::string::npos ? s : s.substr(0, nl) + " ...";
  }

  bool fail(const std::string& what) {
    if (why_ && why_->empty()) *why_ = (where_.empty() ? "" : where_ + ": ") + what;
    return false;
  }

  std::string* why_;
  std::string where_;
  bool annotated_ = false;
  std::map<const VarNode*, const VarNode*> map_;
  std::map<const VarNode*, const VarNode*> reverse_;
};

}  // namespace

bool structural_equal(const Program& a, const Program& b, std::string* why) {
  if (why) why->clear();
  if (!a || !b) {
    if (a == b) return true;
    if (why) *why = "program missing on one side";
    return false;
  }
  return Comparer(why).program(*a, *b);
}

bool structural_equal(const Function& a, const Function& b, std::string* why) {
  if (why) why->clear();
  return Comparer(why).function_ptr(a, b);
}

}  // namespace ptodist::ir
