// Evaluation of expressions: constants, variables, scalar arithmetic with Python semantics, host
// tensor slicing (`x[r]`), and dispatch of op calls and function calls.
#include "exec.h"
#include "ptodist/ir/printer.h"
#include "ptodist/ir/scalar_eval.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::runtime {
namespace {

Scalar as_scalar(Interp& in, const Value& v, const SourceSpan& span) {
  if (const auto* s = std::get_if<Scalar>(&v)) return *s;
  in.fail(span, "expected a scalar value here");
}

// Loop indices and offsets are mostly variables and constants: read a variable in place, without
// building and copying a Value.
const Scalar* scalar_in_place(const Interp& in, const ir::Expr& e) {
  if (e->kind != ir::ExprKind::VarRef) return nullptr;
  const Value* v = in.lookup(*e->as<ir::VarRef>()->var);
  return v ? std::get_if<Scalar>(v) : nullptr;
}

Scalar scalar_operand(Interp& in, const ir::Expr& e, const SourceSpan& span) {
  if (const Scalar* s = scalar_in_place(in, e)) return *s;
  return as_scalar(in, in.eval(e), span);
}

ir::ScalarValue py_value(const Scalar& s) {
  if (s.is_float()) return ir::ScalarValue::of_float(s.f);
  if (s.dtype == ir::DType::BOOL) return ir::ScalarValue::of_bool(s.i != 0);
  return ir::ScalarValue::of_int(s.i);
}

// The typed result of an integer operation: the operands' integer dtype (a bool adopts the other's).
Scalar int_result(long long v, const Scalar& a, const Scalar& b) {
  ir::DType t = a.dtype == ir::DType::BOOL ? b.dtype : a.dtype;
  if (t == ir::DType::BOOL) t = ir::DType::INT64;
  return Scalar::of_int(v, t);
}

Scalar typed(const ir::ScalarValue& v, const Scalar& x, const Scalar& y) {
  switch (v.kind) {
    case ir::ScalarValue::Kind::Float:
      return Scalar::of_float(v.f, x.is_float() ? x.dtype : (y.is_float() ? y.dtype : ir::DType::FP32));
    case ir::ScalarValue::Kind::Bool:
      return Scalar::of_bool(v.i != 0);
    case ir::ScalarValue::Kind::Int:
      break;
  }
  return int_result(v.i, x, y);
}

}  // namespace

void Interp::fail(const SourceSpan& span, const std::string& message) const {
  throw RunError{span, message};
}

void Interp::bind(const ir::Var& v, Value value) {
  if (!v) return;
  PTODIST_INTERNAL_ASSERT(v->frame_slot >= 0, "bind: variable '" + v->name + "' has no frame slot");
  f.vars.set(static_cast<size_t>(v->frame_slot), std::move(value));
}

Value Interp::eval(const ir::Expr& e) {
  switch (e->kind) {
    case ir::ExprKind::IntImm:  // typed by pl.const(v, dtype); INT64 otherwise
      return Scalar::of_int(e->as<ir::IntImm>()->value, e->type ? e->type->dtype : ir::DType::INT64);
    case ir::ExprKind::FloatImm:
      return Scalar::of_float(e->as<ir::FloatImm>()->value, e->type ? e->type->dtype : ir::DType::FP32);
    case ir::ExprKind::BoolImm:
      return Scalar::of_bool(e->as<ir::BoolImm>()->value);
    case ir::ExprKind::StrImm:
    case ir::ExprKind::NoneImm:
    case ir::ExprKind::DTypeImm:
    case ir::ExprKind::EnumImm:
      return NoneValue{};
    case ir::ExprKind::Dynamic: {
      const auto* d = e->as<ir::Dynamic>();
      auto it = f.env->dyn.find(d->name);
      if (it == f.env->dyn.end())
        fail(e->span, "dynamic dimension '" + d->name + "' is not bound by any input shape");
      return Scalar::of_int(it->second);
    }
    case ir::ExprKind::VarRef: {
      const ir::Var& v = e->as<ir::VarRef>()->var;
      const Value* value = lookup(*v);
      if (!value) fail(e->span, "'" + v->name + "' is used before it is defined");
      return *value;
    }
    case ir::ExprKind::Unary: {
      const auto* u = e->as<ir::Unary>();
      Scalar s = as_scalar(*this, eval(u->operand), u->span);
      ir::ScalarResult r = ir::eval_unary(u->op, py_value(s));
      if (!r.ok()) fail(u->span, r.error);
      return u->op == ir::UnaryOpKind::Not ? Scalar::of_bool(r.value.i != 0) : typed(r.value, s, s);
    }
    case ir::ExprKind::Binary:
      return eval_binary(*e->as<ir::Binary>());
    case ir::ExprKind::Compare:
      return eval_compare(*e->as<ir::Compare>());
    case ir::ExprKind::BoolOp: {
      const auto* b = e->as<ir::BoolOp>();
      // Python: the value is an operand, `a` when it decides (falsy for `and`, truthy for `or`).
      Scalar lhs = as_scalar(*this, eval(b->lhs), b->span);
      if ((b->op == ir::BoolOpKind::And) != py_value(lhs).truthy()) return lhs;
      return as_scalar(*this, eval(b->rhs), b->span);
    }
    case ir::ExprKind::IfExp: {
      const auto* c = e->as<ir::IfExp>();
      return as_scalar(*this, eval(c->cond), c->span).as_double() != 0 ? eval(c->then_value)
                                                                       : eval(c->else_value);
    }
    case ir::ExprKind::List:
    case ir::ExprKind::Tuple: {
      auto t = std::make_shared<TupleValue>();
      for (const ir::Expr& x : *ir::as_list(e)) t->elements.push_back(eval(x));
      return t;
    }
    case ir::ExprKind::Subscript:
      return eval_subscript(*e->as<ir::Subscript>());
    case ir::ExprKind::OpCall: {
      tick();
      return dispatch_op(*this, *e->as<ir::OpCall>());
    }
    case ir::ExprKind::FuncCall:
      return call_function(*this, *e->as<ir::FuncCall>());
    case ir::ExprKind::FuncRef: {
      const auto* r = e->as<ir::FuncRef>();
      return FuncRefValue{&function_named(r->callee, e->span)};
    }
  }
  fail(e->span, "cannot evaluate expression '" + ir::print_expr(e) + "'");
}

const ir::FunctionNode& Interp::function_named(const std::string& name, const SourceSpan& span) const {
  // By reference: ProgramNode::find returns a shared_ptr, two atomic updates per call for nothing.
  for (const ir::Function& fn : f.env->program->functions)
    if (fn && fn->name == name) return *fn;
  fail(span, "no function named '" + name + "' in program '" + f.env->program->name + "'");
}

Value Interp::eval_binary(const ir::Binary& b) {
  return binary_of(b, scalar_operand(*this, b.lhs, b.span), scalar_operand(*this, b.rhs, b.span));
}

Scalar Interp::binary_of(const ir::Binary& b, const Scalar& x, const Scalar& y) {
  // PyPTO's integer power takes a non-negative exponent: the expression is typed as an integer, and
  // Python's float result would not fit it.
  if (b.op == ir::BinaryOpKind::Pow && !x.is_float() && !y.is_float() && y.i < 0)
    fail(b.span, "integer power with a negative exponent (" + std::to_string(y.i) +
                     ") at run time; its value is a float: write a float base (" + std::to_string(x.i) +
                     ".0 ** e)");
  ir::ScalarResult r = ir::eval_binary(b.op, py_value(x), py_value(y));
  if (!r.ok()) fail(b.span, r.error);
  return typed(r.value, x, y);
}

Value Interp::eval_compare(const ir::Compare& c) {
  return compare_of(c, scalar_operand(*this, c.lhs, c.span), scalar_operand(*this, c.rhs, c.span));
}

Scalar Interp::compare_of(const ir::Compare& c, const Scalar& x, const Scalar& y) {
  return Scalar::of_bool(ir::eval_compare(c.op, py_value(x), py_value(y)));
}

// `x[r]` on a host tensor drops the leading dim (the per-rank slice), `x[i, r]` the two leading dims
// (PyPTO's per-round, per-rank slices); on a tuple a single index picks an element.
Value Interp::eval_subscript(const ir::Subscript& s) {
  // The host's tensors are variables: a copy of the view would cost more than the slice.
  OperandHolder holder;
  const Value& base = value_in_place(s.value, holder);
  if (s.indices.empty()) fail(s.span, "a subscript needs an index");
  if (const auto* t = std::get_if<std::shared_ptr<TupleValue>>(&base)) {
    if (s.indices.size() != 1) fail(s.span, "a tuple takes one index");
    long long idx = eval_int(s.indices[0]);
    if (idx < 0) idx += static_cast<long long>((*t)->elements.size());  // Python: -1 is the last
    if (idx < 0 || idx >= static_cast<long long>((*t)->elements.size()))
      fail(s.span, "tuple index out of range");
    return (*t)->elements[idx];
  }
  const auto* view = std::get_if<TensorView>(&base);
  if (!view || view->shape.size() < s.indices.size())
    fail(s.span, "only a tensor with " + std::to_string(s.indices.size()) +
                     " leading dims to index (the last being the rank) can be indexed here");
  TensorView slice = *view;
  for (const ir::Expr& index : s.indices) {
    const long long written = eval_int(index);
    long long idx = written < 0 ? written + slice.shape[0] : written;  // Python: -1 is the last
    if (idx < 0 || idx >= slice.shape[0]) {
      fail(s.span, "index " + std::to_string(written) + " is out of range for '" + slice.name +
                       "' whose leading dim is " + std::to_string(slice.shape[0]) +
                       (written < 0 ? std::string(" (a negative index counts from the end)")
                                    : "; the host tensor needs one slice per rank (" +
                                          std::to_string(world().ranks()) + " ranks)"));
    }
    slice.data += idx * slice.strides[0] * ir::dtype_bytes(slice.dtype);
    slice.shape.pop_front();
    slice.strides.pop_front();
    slice.name.append("[").append(std::to_string(idx)).append("]");
  }
  return slice;
}

long long Interp::eval_int(const ir::Expr& e) {
  if (e->kind == ir::ExprKind::IntImm) return e->as<ir::IntImm>()->value;
  if (const Scalar* s = scalar_in_place(*this, e)) return s->as_int();
  Value v = eval(e);
  const auto* s = std::get_if<Scalar>(&v);
  if (!s) fail(e->span, "expected an integer value");
  return s->as_int();
}

double Interp::eval_double(const ir::Expr& e) {
  if (const Scalar* s = scalar_in_place(*this, e)) return s->as_double();
  Value v = eval(e);
  const auto* s = std::get_if<Scalar>(&v);
  if (!s) fail(e->span, "expected a numeric value");
  return s->as_double();
}

Dims Interp::eval_ints(const ir::Expr& e) {
  Dims out;
  auto too_long = [&](size_t n) {
    if (n > Dims::kMaxDims)
      fail(e->span, "a list of " + std::to_string(n) + " dims; shapes and offsets have at most " +
                        std::to_string(Dims::kMaxDims));
  };
  if (const auto* list = ir::as_list(e)) {
    too_long(list->size());
    for (const ir::Expr& x : *list) out.push_back(eval_int(x));
    return out;
  }
  Value v = eval(e);
  if (auto* t = std::get_if<std::shared_ptr<TupleValue>>(&v)) {
    too_long((*t)->elements.size());
    for (const Value& x : (*t)->elements) {
      const auto* s = std::get_if<Scalar>(&x);
      if (!s) fail(e->span, "expected a list of integers");
      out.push_back(s->as_int());
    }
    return out;
  }
  if (const auto* s = std::get_if<Scalar>(&v)) return {s->as_int()};
  fail(e->span, "expected a list of integers");
}

}  // namespace ptodist::runtime
