// Builder: literals, names and operators on scalars, with types set and constants folded as built.
#include "ptodist/ir/builder.h"

#include <climits>
#include <cmath>

#include "ptodist/ir/scalar_eval.h"

namespace ptodist::ir {

namespace {

template <typename T>
std::shared_ptr<T> node(SourceSpan span, Type type) {
  auto n = std::make_shared<T>();
  n->span = span;
  n->type = std::move(type);
  return n;
}

bool is_scalar(const Expr& e) {
  return e && e->type && e->type->kind == TypeKind::Scalar;
}
bool is_literal(const Expr& e) {
  return e && (e->isa<IntImm>() || e->isa<FloatImm>() || e->isa<BoolImm>());
}

// Result dtype of arithmetic on two scalars: a float wins; a literal adopts the other side's dtype
// (so `n + 1` keeps n's INT32); otherwise the wider integer.
DType arith_dtype(const Expr& l, const Expr& r) {
  DType a = l->type->dtype, b = r->type->dtype;
  if (a == b) return a;
  if (dtype_is_float(a) && dtype_is_float(b)) return DType::FP32;
  if (dtype_is_float(a)) return a;
  if (dtype_is_float(b)) return b;
  if (is_literal(l)) return b;
  if (is_literal(r)) return a;
  return dtype_bytes(a) >= dtype_bytes(b) ? a : b;
}

// The type of a value that is one of two scalars (`a and b`, `a if c else b`): a bool when both are,
// else their arithmetic type, so a float arm makes the whole a float.
DType either_dtype(const Expr& l, const Expr& r) {
  DType a = l->type->dtype, b = r->type->dtype;
  return a == DType::BOOL ? b : b == DType::BOOL ? a : arith_dtype(l, r);
}

std::string_view binary_op_name(BinaryOpKind op) {
  static const char* names[] = {"+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"};
  return names[static_cast<int>(op)];
}

std::optional<bool> as_const_bool(const Expr& e) {
  if (auto v = literal_value(e)) return v->truthy();
  if (auto i = as_const_int(e)) return *i != 0;
  return std::nullopt;
}

bool is_bit_op(BinaryOpKind op) {
  return op == BinaryOpKind::BitAnd || op == BinaryOpKind::BitOr || op == BinaryOpKind::BitXor ||
         op == BinaryOpKind::Shl || op == BinaryOpKind::Shr;
}

}  // namespace

Expr Builder::int_imm(long long v, SourceSpan span) {
  auto n = node<IntImm>(span, scalar_type(DType::INT64));
  n->value = v;
  return n;
}

Expr Builder::float_imm(double v, SourceSpan span) {
  auto n = node<FloatImm>(span, scalar_type(DType::FP32));
  n->value = v;
  return n;
}

Expr Builder::bool_imm(bool v, SourceSpan span) {
  auto n = node<BoolImm>(span, scalar_type(DType::BOOL));
  n->value = v;
  return n;
}

Expr literal_expr(const ScalarValue& v, SourceSpan span) {
  Expr out;
  switch (v.kind) {
    case ScalarValue::Kind::Int: {
      auto n = node<IntImm>(span, scalar_type(DType::INT64));
      n->value = v.i;
      out = n;
      break;
    }
    case ScalarValue::Kind::Float: {
      auto n = node<FloatImm>(span, scalar_type(DType::FP32));
      n->value = v.f;
      out = n;
      break;
    }
    case ScalarValue::Kind::Bool: {
      auto n = node<BoolImm>(span, scalar_type(DType::BOOL));
      n->value = v.i != 0;
      out = n;
      break;
    }
  }
  return out;
}

// Strings, None, dtypes and enum members are not values of the IR's type system; they carry the None
// type and contracts recognise them by expression kind.
Expr Builder::str_imm(std::string v, SourceSpan span) {
  auto n = node<StrImm>(span, simple_type(TypeKind::None));
  n->value = std::move(v);
  return n;
}

Expr Builder::none_imm(SourceSpan span) {
  return node<NoneImm>(span, simple_type(TypeKind::None));
}

Expr Builder::dtype_imm(DType t, SourceSpan span) {
  auto n = node<DTypeImm>(span, simple_type(TypeKind::None));
  n->value = t;
  return n;
}

Expr Builder::enum_imm(EnumKind k, std::string value, SourceSpan span) {
  auto n = node<EnumImm>(span, simple_type(TypeKind::None));
  n->enum_kind = k;
  n->value = std::move(value);
  return n;
}

Expr Builder::dynamic_dim(std::string name, SourceSpan span) {
  auto n = node<Dynamic>(span, scalar_type(DType::INT64));
  n->name = std::move(name);
  return n;
}

Expr Builder::var_ref(const Var& v, SourceSpan span) {
  auto n = node<VarRef>(span, v ? v->type : nullptr);
  n->var = v;
  return n;
}

Var Builder::make_var(std::string name, Type type, SourceSpan span) {
  auto v = std::make_shared<VarNode>();
  v->name = std::move(name);
  v->type = std::move(type);
  v->span = span;
  v->id = next_var_id_++;
  return v;
}

Expr Builder::unary(UnaryOpKind op, Expr operand, SourceSpan span) {
  if (!operand) return nullptr;
  static const char* names[] = {"-", "not", "~", "+"};
  if (!is_scalar(operand)) {
    diags_.error(operand->span.valid() ? operand->span : span,
                 std::string("operator '") + names[static_cast<int>(op)] +
                     "' expects a scalar operand, got " + type_str(operand->type));
    return nullptr;
  }
  // A literal folds as Python computes it. What Python would raise is left unfolded: a branch that
  // `and`, `or` or a conditional never takes must not fail (specialize reports what remains).
  if (auto v = literal_value(operand)) {
    ScalarResult r = eval_unary(op, *v);
    if (r.ok()) return literal_expr(r.value, span);
  }
  if (op == UnaryOpKind::Invert && dtype_is_float(operand->type->dtype)) {
    diags_.error(span, "operator '~' expects an integer operand, got " + type_str(operand->type));
    return nullptr;
  }
  Type t = op == UnaryOpKind::Not ? scalar_type(DType::BOOL) : operand->type;
  auto n = node<Unary>(span, t);
  n->op = op;
  n->operand = std::move(operand);
  return n;
}

Expr Builder::binary(BinaryOpKind op, Expr lhs, Expr rhs, SourceSpan span) {
  if (!lhs || !rhs) return nullptr;
  for (const Expr& side : {lhs, rhs}) {
    if (is_scalar(side)) continue;
    diags_.error(side->span.valid() ? side->span : span,
                 "operator '" + std::string(binary_op_name(op)) + "' expects scalar operands, got " +
                     type_str(side->type) + "; use the pl.* tile ops for tiles");
    return nullptr;
  }
  // Literals fold as Python computes them; what Python would raise is left for specialize (as in
  // unary, for branches never taken).
  auto lv = literal_value(lhs), rv = literal_value(rhs);
  if (lv && rv) {
    ScalarResult r = eval_binary(op, *lv, *rv);
    if (r.ok()) return literal_expr(r.value, span);
  }
  if (is_bit_op(op)) {
    for (const Expr& side : {lhs, rhs}) {
      if (!dtype_is_float(side->type->dtype)) continue;
      diags_.error(side->span.valid() ? side->span : span, "operator '" + std::string(binary_op_name(op)) +
                                                               "' expects integer operands, got " +
                                                               type_str(side->type));
      return nullptr;
    }
  }
  DType dt = op == BinaryOpKind::Div ? DType::FP32 : arith_dtype(lhs, rhs);
  auto n = node<Binary>(span, scalar_type(dt));
  n->op = op;
  n->lhs = std::move(lhs);
  n->rhs = std::move(rhs);
  return n;
}

Expr Builder::compare(CompareOpKind op, Expr lhs, Expr rhs, SourceSpan span) {
  if (!lhs || !rhs) return nullptr;
  for (const Expr& side : {lhs, rhs}) {
    if (is_scalar(side)) continue;
    diags_.error(side->span.valid() ? side->span : span,
                 "comparison expects scalar operands, got " + type_str(side->type));
    return nullptr;
  }
  auto lv = literal_value(lhs), rv = literal_value(rhs);
  if (lv && rv) return bool_imm(eval_compare(op, *lv, *rv), span);
  auto n = node<Compare>(span, scalar_type(DType::BOOL));
  n->op = op;
  n->lhs = std::move(lhs);
  n->rhs = std::move(rhs);
  return n;
}

Expr Builder::bool_op(BoolOpKind op, Expr lhs, Expr rhs, SourceSpan span) {
  if (!lhs || !rhs) return nullptr;
  for (const Expr& side : {lhs, rhs}) {
    if (is_scalar(side)) continue;
    diags_.error(side->span.valid() ? side->span : span,
                 std::string(op == BoolOpKind::And ? "'and'" : "'or'") + " expects scalar operands, got " +
                     type_str(side->type));
    return nullptr;
  }
  // Python: `a and b` is a when a is falsy, else b; `a or b` is a when a is truthy, else b.
  if (auto l = literal_value(lhs)) return (op == BoolOpKind::And) != l->truthy() ? lhs : rhs;
  auto n = node<BoolOp>(span, scalar_type(either_dtype(lhs, rhs)));
  n->op = op;
  n->lhs = std::move(lhs);
  n->rhs = std::move(rhs);
  return n;
}

Expr Builder::if_exp(Expr cond, Expr then_value, Expr else_value, SourceSpan span) {
  if (!cond || !then_value || !else_value) return nullptr;
  if (!is_scalar(cond)) {
    diags_.error(cond->span.valid() ? cond->span : span,
                 "conditional expression expects a scalar condition, got " + type_str(cond->type));
    return nullptr;
  }
  if (auto c = as_const_bool(cond)) return *c ? then_value : else_value;
  Type t = is_scalar(then_value) && is_scalar(else_value) ? scalar_type(either_dtype(then_value, else_value))
                                                          : then_value->type;
  auto n = node<IfExp>(span, t);
  n->cond = std::move(cond);
  n->then_value = std::move(then_value);
  n->else_value = std::move(else_value);
  return n;
}

namespace {

Type element_tuple(const std::vector<Expr>& elements) {
  std::vector<Type> types;
  for (const Expr& e : elements) types.push_back(e ? e->type : nullptr);
  return tuple_type(std::move(types));
}

}  // namespace

// A list's type is the tuple of its element types: lists are offsets, shapes and deps, never values.
Expr Builder::list(std::vector<Expr> elements, SourceSpan span) {
  for (const Expr& e : elements)
    if (!e) return nullptr;
  auto n = node<List>(span, element_tuple(elements));
  n->elements = std::move(elements);
  return n;
}

Expr Builder::tuple(std::vector<Expr> elements, SourceSpan span) {
  for (const Expr& e : elements)
    if (!e) return nullptr;
  auto n = node<Tuple>(span, element_tuple(elements));
  n->elements = std::move(elements);
  return n;
}

}  // namespace ptodist::ir
