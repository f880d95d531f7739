// Printing expressions and types in PyPTO syntax with the fewest parentheses Python's precedence needs.
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "printer_internal.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::ir::detail {

namespace {

struct BinarySyntax {
  const char* text;
  int prec;
};

BinarySyntax binary_syntax(BinaryOpKind op) {
  switch (op) {
    case BinaryOpKind::Add:
      return {"+", kPrecAdd};
    case BinaryOpKind::Sub:
      return {"-", kPrecAdd};
    case BinaryOpKind::Mul:
      return {"*", kPrecMul};
    case BinaryOpKind::Div:
      return {"/", kPrecMul};
    case BinaryOpKind::FloorDiv:
      return {"//", kPrecMul};
    case BinaryOpKind::Mod:
      return {"%", kPrecMul};
    case BinaryOpKind::Pow:
      return {"**", kPrecPow};
    case BinaryOpKind::BitAnd:
      return {"&", kPrecBitAnd};
    case BinaryOpKind::BitOr:
      return {"|", kPrecBitOr};
    case BinaryOpKind::BitXor:
      return {"^", kPrecBitXor};
    case BinaryOpKind::Shl:
      return {"<<", kPrecShift};
    case BinaryOpKind::Shr:
      return {">>", kPrecShift};
  }
  return {"?", kPrecAdd};
}

const char* compare_text(CompareOpKind op) {
  switch (op) {
    case CompareOpKind::Eq:
      return "==";
    case CompareOpKind::Ne:
      return "!=";
    case CompareOpKind::Lt:
      return "<";
    case CompareOpKind::Le:
      return "<=";
    case CompareOpKind::Gt:
      return ">";
    case CompareOpKind::Ge:
      return ">=";
  }
  return "==";
}

const char* unary_text(UnaryOpKind op) {
  switch (op) {
    case UnaryOpKind::Neg:
      return "-";
    case UnaryOpKind::Pos:
      return "+";
    case UnaryOpKind::Invert:
      return "~";
    case UnaryOpKind::Not:
      return "not ";
  }
  return "-";
}

const char* enum_prefix(EnumKind k) {
  switch (k) {
    case EnumKind::Memory:
      return "pl.Mem.";
    case EnumKind::NotifyOp:
      return "pld.NotifyOp.";
    case EnumKind::WaitCmp:
      return "pld.WaitCmp.";
    case EnumKind::AtomicType:
      return "pld.AtomicType.";
    case EnumKind::ReduceOp:
      return "pld.ReduceOp.";
    case EnumKind::FunctionType:
      return "pl.FunctionType.";
    case EnumKind::Level:
      return "pl.Level.";
    case EnumKind::Role:
      return "pl.Role.";
    case EnumKind::PadValue:
      return "pl.PadValue.";
    case EnumKind::PipeType:
      return "pl.PipeType.";
  }
  return "pl.";
}

std::string dtype_text(DType t) {
  return "pl." + std::string(dtype_name(t));
}

}  // namespace

std::string float_literal(double v) {
  if (std::isnan(v)) return "float(\"nan\")";
  // 1e999 overflows to infinity when read back, in Python and in strtod alike.
  if (std::isinf(v)) return v < 0 ? "-1e999" : "1e999";
  char buf[64];
  // The shortest %g form that reads back to the same double.
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  // Like Python's repr, plain decimals for everyday magnitudes: 100.0 rather than 1e+02.
  double mag = std::fabs(v);
  if (s.find('e') != std::string::npos && mag >= 1e-4 && mag < 1e16) {
    for (int decimals = 0; decimals <= 20; ++decimals) {
      std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
      if (std::strtod(buf, nullptr) == v) break;
    }
    s = buf;
  }
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

std::string string_literal(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char hex[8];
          std::snprintf(hex, sizeof hex, "\\x%02x", c);
          out += hex;
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

std::string ExprPrinter::expr(const Expr& e, int min_prec) const {
  int prec = kPrecPrimary;
  std::string text = body(e, prec);
  return prec < min_prec ? "(" + text + ")" : text;
}

std::string ExprPrinter::list_of(const std::vector<Expr>& elems) const {
  std::string out;
  for (size_t i = 0; i < elems.size(); ++i) out += (i ? ", " : "") + expr(elems[i], kPrecIfExp);
  return out;
}

// The text of `e` without outer parentheses; sets `prec` to the level of its outermost operator.
std::string ExprPrinter::body(const Expr& e, int& prec) const {
  prec = kPrecPrimary;
  if (!e) return "None";
  switch (e->kind) {
    case ExprKind::IntImm: {
      long long v = e->as<IntImm>()->value;
      // A constant of another dtype than a Python int's prints as the pl.const that made it.
      if (e->type && e->type->dtype != DType::INT64)
        return "pl.const(" + std::to_string(v) + ", " + dtype_text(e->type->dtype) + ")";
      // INT64_MIN has no literal (its magnitude is out of range): print an expression that folds to it.
      if (v == LLONG_MIN) return "(-9223372036854775807 - 1)";
      if (v < 0) prec = kPrecUnary;
      return std::to_string(v);
    }
    case ExprKind::FloatImm: {
      std::string s = float_literal(e->as<FloatImm>()->value);
      if (e->type && e->type->dtype != DType::FP32)
        return "pl.const(" + s + ", " + dtype_text(e->type->dtype) + ")";
      if (s[0] == '-') prec = kPrecUnary;
      return s;
    }
    case ExprKind::BoolImm:
      return e->as<BoolImm>()->value ? "True" : "False";
    case ExprKind::StrImm:
      return string_literal(e->as<StrImm>()->value);
    case ExprKind::NoneImm:
      return "None";
    case ExprKind::DTypeImm:
      return dtype_text(e->as<DTypeImm>()->value);
    case ExprKind::EnumImm: {
      auto x = e->as<EnumImm>();
      return enum_prefix(x->enum_kind) + x->value;
    }
    case ExprKind::Dynamic: {
      const std::string& name = e->as<Dynamic>()->name;
      if (dynamic_names_.count(name)) return name;
      return "pl.dynamic(" + string_literal(name) + ")";
    }
    case ExprKind::VarRef: {
      auto x = e->as<VarRef>();
      return x->var ? x->var->name : "_";
    }
    case ExprKind::Unary: {
      auto x = e->as<Unary>();
      bool is_not = x->op == UnaryOpKind::Not;
      prec = is_not ? kPrecNot : kPrecUnary;
      return unary_text(x->op) + expr(x->operand, prec);
    }
    case ExprKind::Binary: {
      auto x = e->as<Binary>();
      BinarySyntax syn = binary_syntax(x->op);
      prec = syn.prec;
      // `**` groups to the right and its left side binds tighter than unary minus: (-2) ** 2.
      bool pow = x->op == BinaryOpKind::Pow;
      int lhs_min = pow ? kPrecPrimary : syn.prec;
      int rhs_min = pow ? kPrecUnary : syn.prec + 1;
      return expr(x->lhs, lhs_min) + " " + syn.text + " " + expr(x->rhs, rhs_min);
    }
    case ExprKind::Compare: {
      auto x = e->as<Compare>();
      prec = kPrecCompare;
      // Python chains comparisons (a < b < c), so a comparison operand is always parenthesized.
      return expr(x->lhs, kPrecCompare + 1) + " " + compare_text(x->op) + " " +
             expr(x->rhs, kPrecCompare + 1);
    }
    case ExprKind::BoolOp: {
      auto x = e->as<BoolOp>();
      bool is_and = x->op == BoolOpKind::And;
      prec = is_and ? kPrecAnd : kPrecOr;
      return expr(x->lhs, prec) + (is_and ? " and " : " or ") + expr(x->rhs, prec + 1);
    }
    case ExprKind::IfExp: {
      auto x = e->as<IfExp>();
      prec = kPrecIfExp;
      return expr(x->then_value, kPrecOr) + " if " + expr(x->cond, kPrecOr) + " else " +
             expr(x->else_value, kPrecIfExp);
    }
    case ExprKind::List:
      return "[" + list_of(e->as<List>()->elements) + "]";
    case ExprKind::Tuple: {
      const auto& elems = e->as<Tuple>()->elements;
      return "(" + list_of(elems) + (elems.size() == 1 ? ",)" : ")");
    }
    case ExprKind::Subscript: {
      auto x = e->as<Subscript>();
      return expr(x->value, kPrecPrimary) + "[" + list_of(x->indices) + "]";
    }
    case ExprKind::OpCall:
    case ExprKind::FuncCall:
      return call(e);
    case ExprKind::FuncRef: {
      auto x = e->as<FuncRef>();
      return (x->via_self ? "self." : "") + x->callee;
    }
  }
  return "None";
}

// Canonical form: required parameters positionally in signature order, then the `*args` tail, then
// every given optional parameter as a keyword; omitted ones are left out.
std::vector<std::string> ExprPrinter::op_call_args(const OpCall& c) const {
  std::vector<std::string> parts;
  bool positional = true;
  auto emit_varargs = [&] {
    for (const Expr& v : c.varargs) parts.push_back(expr(v, kPrecIfExp));
  };
  for (size_t i = 0; i < c.op->params.size(); ++i) {
    if (static_cast<int>(i) == c.op->varargs_at) emit_varargs();
    const OpParam& p = c.op->params[i];
    size_t slot = slot_of(*c.op, i);
    Expr a = slot < c.args.size() ? c.args[slot] : nullptr;
    // Past `*args`, or after a skipped slot, only keywords can say which parameter an argument is.
    if (static_cast<int>(i) >= c.op->varargs_at && c.op->varargs_at >= 0) positional = false;
    if (i >= c.op->positional_limit()) positional = false;  // keyword-only parameters
    if (!a) {
      positional = false;
      continue;
    }
    if (positional && p.required) {
      parts.push_back(expr(a, kPrecIfExp));
    } else {
      positional = false;
      parts.push_back(p.name + "=" + expr(a, kPrecIfExp));
    }
  }
  if (c.op->varargs_at >= static_cast<int>(c.op->params.size())) emit_varargs();
  return parts;
}

bool ExprPrinter::call_parts(const Expr& e, std::string& callee, std::vector<std::string>& args) const {
  if (auto c = e ? e->as<OpCall>() : nullptr; c && c->op) {
    callee = c->op->spelling;
    args = op_call_args(*c);
    return true;
  }
  if (auto c = e ? e->as<FuncCall>() : nullptr) {
    callee = (c->via_self ? "self." : "") + c->callee;
    args.clear();
    for (const Expr& a : c->args) args.push_back(expr(a, kPrecIfExp));
    if (c->device) args.push_back("device=" + expr(c->device, kPrecIfExp));
    return true;
  }
  return false;
}

std::string ExprPrinter::call(const Expr& e) const {
  std::string callee;
  std::vector<std::string> args;
  if (!call_parts(e, callee, args)) return "<unknown op>()";
  std::string out = callee + "(";
  for (size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + args[i];
  return out + ")";
}

std::string ExprPrinter::type(const Type& t) const {
  if (!t) return "None";
  // Dims print as source expressions (`[M_TILE, K]`), unlike type_str's folded diagnostics spelling.
  return type_str(t, [this](const Expr& dim) { return expr(dim, kPrecIfExp); });
}

std::string ExprPrinter::annotated_param_type(const Type& t, Direction d) const {
  switch (d) {
    case Direction::In:
      return type(t);
    case Direction::Out:
      return "pl.Out[" + type(t) + "]";
    case Direction::InOut:
      return "pl.InOut[" + type(t) + "]";
  }
  return type(t);
}

std::string ExprPrinter::return_annotation(const std::vector<Type>& types) const {
  if (types.size() == 1) return type(types[0]);
  std::string out = "tuple[";
  for (size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + type(types[i]);
  return out + "]";
}

}  // namespace ptodist::ir::detail
