// Evaluation of decoded expressions (decoded.h: DecodedExpr): constants, variables, scalar arithmetic
// with Python semantics, host tensor slicing (`x[r]`), and dispatch of op calls and function calls.
// The IR nodes give spans, operator kinds and names, never values.
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

// A node's children (DecodedExpr).
static const uint32_t* children_of(const Interp& in, const DecodedExpr& e) {
  return in.f.code->children.data() + e.first;
}

Value Interp::eval(uint32_t tree) {
  const DecodedExpr& e = expr_at(tree);
  const uint32_t* kids = children_of(*this, e);
  switch (e.kind) {
    case ir::ExprKind::IntImm:
    case ir::ExprKind::FloatImm:
    case ir::ExprKind::BoolImm:
      return e.constant;
    case ir::ExprKind::StrImm:
    case ir::ExprKind::NoneImm:
    case ir::ExprKind::DTypeImm:
    case ir::ExprKind::EnumImm:
      return NoneValue{};
    case ir::ExprKind::Dynamic: {
      const auto* d = static_cast<const ir::Dynamic*>(e.node);
      auto it = f.env->dyn.find(d->name);
      if (it == f.env->dyn.end())
        fail(d->span, "dynamic dimension '" + d->name + "' is not bound by any input shape");
      return Scalar::of_int(it->second);
    }
    case ir::ExprKind::VarRef: {
      const Value* value = lookup_slot(e.slot);
      if (!value) {
        const auto* ref = static_cast<const ir::VarRef*>(e.node);
        fail(ref->span, "'" + ref->var->name + "' is used before it is defined");
      }
      return *value;
    }
    case ir::ExprKind::Unary: {
      const auto* u = static_cast<const ir::Unary*>(e.node);
      Scalar s = as_scalar(*this, eval(kids[0]), u->span);
      ir::ScalarResult r = ir::eval_unary(u->op, py_value(s));
      if (!r.ok()) fail(u->span, r.error);
      return u->op == ir::UnaryOpKind::Not ? Scalar::of_bool(r.value.i != 0) : typed(r.value, s, s);
    }
    case ir::ExprKind::Binary:
      return eval_binary(e);
    case ir::ExprKind::Compare:
      return eval_compare(e);
    case ir::ExprKind::BoolOp: {
      const auto* b = static_cast<const ir::BoolOp*>(e.node);
      // Python: the value is an operand, `a` when it decides (falsy for `and`, truthy for `or`).
      Scalar lhs = as_scalar(*this, eval(kids[0]), b->span);
      if ((b->op == ir::BoolOpKind::And) != py_value(lhs).truthy()) return lhs;
      return as_scalar(*this, eval(kids[1]), b->span);
    }
    case ir::ExprKind::IfExp:
      return as_scalar(*this, eval(kids[0]), e.node->span).as_double() != 0 ? eval(kids[1]) : eval(kids[2]);
    case ir::ExprKind::List:
    case ir::ExprKind::Tuple: {
      auto t = std::make_shared<TupleValue>();
      for (uint32_t i = 0; i < e.count; ++i) t->elements.push_back(eval(kids[i]));
      return t;
    }
    case ir::ExprKind::Subscript:
      return eval_subscript(e);
    case ir::ExprKind::OpCall:
      return run_op(f.code->ops[static_cast<size_t>(e.op)]);
    case ir::ExprKind::FuncCall:
      return eval_call(e);
    case ir::ExprKind::FuncRef: {
      const auto* r = static_cast<const ir::FuncRef*>(e.node);
      return FuncRefValue{e.callee ? e.callee : &function_named(r->callee, r->span)};
    }
  }
  PTODIST_INTERNAL_ASSERT(false, "eval: an expression of unknown kind");
}

// A call of a program function (found when decoded): its arguments left to right, then the call
// (which evaluates the `device=` when it needs it).
Value Interp::eval_call(const DecodedExpr& e) {
  const auto& call = *static_cast<const ir::FuncCall*>(e.node);
  const ir::FunctionNode& fn = e.callee ? *e.callee : function_named(call.callee, call.span);
  const uint32_t* kids = children_of(*this, e);
  const uint32_t n_args = static_cast<uint32_t>(call.args.size());
  std::vector<Value> args;
  args.reserve(n_args);
  for (uint32_t i = 0; i < n_args; ++i) args.push_back(eval(kids[i]));
  std::optional<uint32_t> device;
  if (e.count > n_args) device = kids[n_args];
  return call_function(*this, call, fn, std::move(args), device);
}

const ir::FunctionNode& Interp::function_named(const std::string& name, const SourceSpan& span) const {
  // By reference: ProgramNode::find returns a shared_ptr, two atomic updates per call for nothing.
  for (const ir::Function& fn : f.env->program->functions)
    if (fn && fn->name == name) return *fn;
  fail(span, "no function named '" + name + "' in program '" + f.env->program->name + "'");
}

const Scalar* Interp::scalar_in_place(const DecodedExpr& e) const {
  // Loop indices and offsets are mostly variables and constants: read a variable in place, without
  // building and copying a Value.
  if (e.kind != ir::ExprKind::VarRef) return nullptr;
  const Value* v = lookup_slot(e.slot);
  return v ? std::get_if<Scalar>(v) : nullptr;
}

Scalar Interp::scalar_operand(uint32_t tree, const SourceSpan& span) {
  if (const Scalar* s = scalar_in_place(expr_at(tree))) return *s;
  return as_scalar(*this, eval(tree), span);
}

Value Interp::eval_binary(const DecodedExpr& e) {
  const auto& b = *static_cast<const ir::Binary*>(e.node);
  const uint32_t* kids = children_of(*this, e);
  return binary_of(b, scalar_operand(kids[0], b.span), scalar_operand(kids[1], b.span));
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

Value Interp::eval_compare(const DecodedExpr& e) {
  const auto& c = *static_cast<const ir::Compare*>(e.node);
  const uint32_t* kids = children_of(*this, e);
  return compare_of(c, scalar_operand(kids[0], c.span), scalar_operand(kids[1], c.span));
}

Scalar Interp::compare_of(const ir::Compare& c, const Scalar& x, const Scalar& y) {
  return Scalar::of_bool(ir::eval_compare(c.op, py_value(x), py_value(y)));
}

// `x[r]` on a host tensor drops the leading dim (the per-rank slice), `x[i, r]` the two leading dims
// (PyPTO's per-round, per-rank slices); on a tuple a single index picks an element.
Value Interp::eval_subscript(const DecodedExpr& e) {
  const auto& s = *static_cast<const ir::Subscript*>(e.node);
  const uint32_t* kids = children_of(*this, e);
  // The host's tensors are variables: a copy of the view would cost more than the slice.
  OperandHolder holder;
  const Value& base = value_in_place(kids[0], holder);
  if (e.count < 2) fail(s.span, "a subscript needs an index");
  if (const auto* t = std::get_if<std::shared_ptr<TupleValue>>(&base)) {
    if (e.count != 2) fail(s.span, "a tuple takes one index");
    long long idx = eval_int(kids[1]);
    if (idx < 0) idx += static_cast<long long>((*t)->elements.size());  // Python: -1 is the last
    if (idx < 0 || idx >= static_cast<long long>((*t)->elements.size()))
      fail(s.span, "tuple index out of range");
    return (*t)->elements[idx];
  }
  const auto* view = std::get_if<TensorView>(&base);
  if (!view || view->shape.size() < e.count - 1)
    fail(s.span, "only a tensor with " + std::to_string(e.count - 1) +
                     " leading dims to index (the last being the rank) can be indexed here");
  TensorView slice = *view;
  for (uint32_t i = 1; i < e.count; ++i) {
    const long long written = eval_int(kids[i]);
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

// The value of `e`: a bound variable's in place, anything else evaluated into `holder`.
const Value& Interp::value_in_place(uint32_t tree, OperandHolder& holder) {
  if (const DecodedExpr& e = expr_at(tree); e.kind == ir::ExprKind::VarRef) {
    if (const Value* v = lookup_slot(e.slot)) return *v;
  }
  return holder.emplace(eval(tree));
}

long long Interp::eval_int(uint32_t tree) {
  const DecodedExpr& e = expr_at(tree);
  if (e.kind == ir::ExprKind::IntImm) return e.constant.i;
  if (const Scalar* s = scalar_in_place(e)) return s->as_int();
  Value v = eval(tree);
  const auto* s = std::get_if<Scalar>(&v);
  if (!s) fail(e.node->span, "expected an integer value");
  return s->as_int();
}

double Interp::eval_double(uint32_t tree) {
  const DecodedExpr& e = expr_at(tree);
  if (const Scalar* s = scalar_in_place(e)) return s->as_double();
  Value v = eval(tree);
  const auto* s = std::get_if<Scalar>(&v);
  if (!s) fail(e.node->span, "expected a numeric value");
  return s->as_double();
}

Dims Interp::eval_ints(uint32_t tree) {
  const DecodedExpr& e = expr_at(tree);
  Dims out;
  auto too_long = [&](size_t n) {
    if (n > Dims::kMaxDims)
      fail(e.node->span, "a list of " + std::to_string(n) + " dims; shapes and offsets have at most " +
                             std::to_string(Dims::kMaxDims));
  };
  if (e.kind == ir::ExprKind::List || e.kind == ir::ExprKind::Tuple) {
    too_long(e.count);
    const uint32_t* kids = children_of(*this, e);
    for (uint32_t i = 0; i < e.count; ++i) out.push_back(eval_int(kids[i]));
    return out;
  }
  Value v = eval(tree);
  if (auto* t = std::get_if<std::shared_ptr<TupleValue>>(&v)) {
    too_long((*t)->elements.size());
    for (const Value& x : (*t)->elements) {
      const auto* s = std::get_if<Scalar>(&x);
      if (!s) fail(e.node->span, "expected a list of integers");
      out.push_back(s->as_int());
    }
    return out;
  }
  if (const auto* s = std::get_if<Scalar>(&v)) return {s->as_int()};
  fail(e.node->span, "expected a list of integers");
}

}  // namespace ptodist::runtime
