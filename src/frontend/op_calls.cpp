// Calls of language ops that the op table alone does not settle: pl.const, PyPTO's unified dispatch
// (pl.add of two scalars is scalar arithmetic, pl.add(tile, scalar) is pl.tile.adds), the element
// access of pl.array values (`a[i]`, `a[i] = v`), and PyPTO ops that ptodist does not support yet.
#include <algorithm>
#include <array>

#include "parser_impl.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::frontend {

namespace {

// A plain array: deducing std::array's size from 430 initialisers exceeds clang's fold-expression
// depth (the libFuzzer build uses clang).
constexpr std::string_view kPyptoOps[] = {
#define PTODIST_PYPTO_OP(spelling) std::string_view(spelling),
#include "pypto_ops.def"
#undef PTODIST_PYPTO_OP
};

bool is_scalar(const ir::Expr& e) {
  return e && e->type && e->type->kind == ir::TypeKind::Scalar;
}

bool is_tile_or_tensor(const ir::Expr& e) {
  return e && e->type && (e->type->kind == ir::TypeKind::Tile || e->type->is_tensor_like());
}

// The argument for parameter `index` called `name`: positional or by keyword; null when absent.
ir::Expr arg_of(const std::vector<ir::CallArg>& args, size_t index, std::string_view name) {
  size_t positional = 0;
  for (const ir::CallArg& a : args) {
    if (a.keyword == name) return a.value;
    if (a.keyword.empty() && positional++ == index) return a.value;
  }
  return nullptr;
}

}  // namespace

bool is_pypto_op(std::string_view spelling) {
  return std::binary_search(std::begin(kPyptoOps), std::end(kPyptoOps), spelling);
}

// `pl.const(value, dtype)`: a constant of that dtype (PyPTO's ConstInt/ConstFloat with a dtype).
ir::Expr Parser::lower_const(const SynExpr& e, LowerCtx& cx) {
  const char* usage = "pl.const expects a number and a dtype, e.g. pl.const(0, pl.INT32)";
  if (e.items.size() != 3 || !e.items[1]->keyword.empty() || !e.items[2]->keyword.empty()) {
    error(e.span, usage);
    return nullptr;
  }
  ir::Expr v = lower(*e.items[1], cx);
  auto dt = dtype_of(*e.items[2], cx);
  if (!v) return nullptr;
  if (!dt || *dt == ir::DType::BOOL) {
    error(e.items[2]->span, std::string(usage) + " (a numeric dtype)");
    return nullptr;
  }
  auto i = v->as<ir::IntImm>();
  auto f = v->as<ir::FloatImm>();
  if (!i && !f) {
    error(e.items[1]->span,
          "pl.const: 'value' must be an int or float literal, got " + ir::type_str(v->type));
    return nullptr;
  }
  if (ir::dtype_is_float(*dt)) {
    auto n = std::make_shared<ir::FloatImm>();
    n->value = i ? static_cast<double>(i->value) : f->value;
    n->span = e.span;
    n->type = ir::scalar_type(*dt);
    return n;
  }
  if (f) {
    error(e.items[1]->span,
          "pl.const: a float value needs a float dtype, got pl." + std::string(ir::dtype_name(*dt)));
    return nullptr;
  }
  auto n = std::make_shared<ir::IntImm>();
  n->value = i->value;
  n->span = e.span;
  n->type = ir::scalar_type(*dt);
  return n;
}

// PyPTO's unified elementwise ops dispatch on their operands (op/unified_ops.py): two scalars are
// scalar arithmetic; a tile or tensor with a scalar is the `s` form (pl.tile.adds / pl.tensor.adds),
// and so is pl.tile.add(tile, scalar) (its tile_ops.py canonicalises a scalar rhs the same way).
// Returns null with `handled` false when the call is an ordinary op call.
ir::Expr Parser::lower_unified(const ir::OpInfo& op, const std::vector<ir::CallArg>& args,
                               const SourceSpan& span, LowerCtx& cx, bool& handled) {
  handled = false;
  static const std::map<ir::OpId, ir::BinaryOpKind> kScalarForm = {{ir::OpId::Add, ir::BinaryOpKind::Add},
                                                                   {ir::OpId::Sub, ir::BinaryOpKind::Sub},
                                                                   {ir::OpId::Mul, ir::BinaryOpKind::Mul},
                                                                   {ir::OpId::Div, ir::BinaryOpKind::Div}};
  auto it = kScalarForm.find(op.id);
  // maximum/minimum/fmod have no scalar-scalar form here; pl.tile.fmod takes tiles only (PyPTO's).
  bool minmax = op.id == ir::OpId::Maximum || op.id == ir::OpId::Minimum || op.id == ir::OpId::Fmod;
  if (it == kScalarForm.end() && !minmax) return nullptr;
  if (op.id == ir::OpId::Fmod && op.spelling == "pl.tile.fmod") return nullptr;
  ir::Expr lhs = arg_of(args, 0, "lhs"), rhs = arg_of(args, 1, "rhs");
  // Only pl.div has a third parameter (high_precision); other extra arguments are the op call's error.
  if (!lhs || !rhs || args.size() > (op.id == ir::OpId::Div ? 3u : 2u)) return nullptr;
  bool tensor_ns = op.spelling.rfind("pl.tensor.", 0) == 0;
  bool tile_ns = op.spelling.rfind("pl.tile.", 0) == 0;
  if (!minmax && is_scalar(lhs) && is_scalar(rhs) && !tensor_ns && !tile_ns && args.size() == 2) {
    handled = true;
    return b_->binary(it->second, lhs, rhs, span);
  }
  if (!is_tile_or_tensor(lhs) || !is_scalar(rhs)) return nullptr;
  handled = true;
  static const std::map<ir::OpId, std::string> kScalarOp = {
      {ir::OpId::Add, "adds"},  {ir::OpId::Sub, "subs"},         {ir::OpId::Mul, "muls"},
      {ir::OpId::Div, "divs"},  {ir::OpId::Maximum, "maximums"}, {ir::OpId::Minimum, "minimums"},
      {ir::OpId::Fmod, "fmods"}};
  // A scalar divisor has no high-precision form: PyPTO raises rather than falling back.
  if (args.size() == 3) {
    ir::Expr hp = arg_of(args, 2, "high_precision");
    const auto* flag = hp ? hp->as<ir::BoolImm>() : nullptr;
    if (!flag || flag->value) {
      error(hp && hp->span.valid() ? hp->span : span,
            op.spelling + ": high_precision requires a tile or tensor 'rhs', not a scalar");
      return nullptr;
    }
  }
  // PyPTO has no pl.tensor.maximums: pl.tensor.maximum(t, scalar) is its unified pl.maximums.
  bool tensor_spelling = tensor_ns && (!minmax || op.id == ir::OpId::Fmod);
  std::string spelling = (tensor_spelling ? "pl.tensor."
                          : tile_ns       ? "pl.tile."
                                          : "pl.") +
                         kScalarOp.at(op.id);
  std::vector<ir::CallArg> scalar_args{{"", lhs, lhs->span}, {"", rhs, rhs->span}};
  return b_->op_call(*ir::find_op(spelling), scalar_args, cx.build, span);
}

// PyPTO's unified pld.remote_store(src, target, peer, offsets, *, atomic) dispatches on `src`
// (distributed/op/unified_ops.py): a tile is pld.tile.remote_store, a tensor pld.tensor.remote_store.
ir::Expr Parser::lower_remote_store(const SynExpr& e, LowerCtx& cx) {
  auto args = lower_args(e, cx);
  if (!args) return nullptr;
  ir::Expr src = arg_of(*args, 0, "src");
  bool tile = src && src->type && src->type->kind == ir::TypeKind::Tile;
  const ir::OpInfo* op = ir::find_op(tile ? "pld.tile.remote_store" : "pld.tensor.remote_store");
  // The tile form names its first parameter `tile`; `src=` is the unified spelling of either.
  for (ir::CallArg& a : *args)
    if (a.keyword == "src") a.keyword = op->params[0].name;
  return b_->op_call(*op, *args, cx.build, e.span);
}

// `pl.no_dep(x)` as a kernel-call argument (PyPTO's parser peels it the same way): one positional
// operand, the tensor whose dependency edges the call drops.
const SynExpr* Parser::no_dep_operand(const SynExpr& a) const {
  if (a.kind != SynKind::Call || !a.keyword.empty()) return nullptr;
  auto path = canonical(*a.items[0]);
  if (!path || (*path != "pl.no_dep" && *path != "pl.tensor.no_dep")) return nullptr;
  return a.items.size() == 2 && a.items[1]->keyword.empty() ? a.items[1].get() : nullptr;
}

// ptodist derives no dependency edge from a tensor argument (outside a manual scope every submission
// finishes before the next statement; inside one only deps= orders tasks), so the marker has no edge to
// drop: the argument is the tensor itself (docs/language.md, section 6.8).
ir::Expr Parser::lower_no_dep(const SynExpr& operand, LowerCtx& cx) {
  ir::Expr v = lower(operand, cx);
  if (v && !(v->type && v->type->is_tensor_like())) {
    error(operand.span, "pl.no_dep: only a tensor argument can be marked, got " + ir::type_str(v->type));
    return nullptr;
  }
  return v;
}

// PyPTO's unified pl.read / pl.write dispatch on their first operand: on a tile they are pl.tile.read /
// pl.tile.write (pto.tgetval / pto.tsetval), whose parameters are (tile, indices[, value]).
const ir::OpInfo* Parser::element_op(const ir::OpInfo& op, std::vector<ir::CallArg>& args) {
  if ((op.spelling != "pl.read" && op.spelling != "pl.write") || args.empty()) return &op;
  ir::Expr first = arg_of(args, 0, op.params[0].name);
  if (!first || !first->type || first->type->kind != ir::TypeKind::Tile) return &op;
  const ir::OpInfo* tile_op = ir::find_op(op.id == ir::OpId::Read ? "pl.tile.read" : "pl.tile.write");
  for (ir::CallArg& a : args)
    for (size_t i = 0; i < op.params.size() && !a.keyword.empty(); ++i)
      if (a.keyword == op.params[i].name) a.keyword = tile_op->params[i].name;
  return tile_op;
}

// PyPTO's read/write take `offset` as one index or a list (`IntLike | Sequence[IntLike]`); one integer
// scalar here is the list of that one index, so a 1-D tensor reads as `pl.read(t, i)`.
void Parser::wrap_scalar_index(const ir::OpInfo& op, std::vector<ir::CallArg>& args) {
  bool element = op.id == ir::OpId::Read || op.id == ir::OpId::Write || op.id == ir::OpId::TileRead ||
                 op.id == ir::OpId::TileWrite;
  if (!element) return;
  size_t positional = 0;
  for (ir::CallArg& a : args) {
    bool is_index = a.keyword.empty() ? positional++ == 1 : a.keyword == op.params[1].name;
    if (!is_index || !a.value || !is_scalar(a.value)) continue;
    a.value = b_->list({a.value}, a.value->span);
  }
}

// `a[i]` of a pl.array value: pl.array.get_element(a, i). Null when `value` is not an array.
ir::Expr Parser::lower_array_read(const ir::Expr& value, const std::vector<ir::Expr>& indices,
                                  const SourceSpan& span, LowerCtx& cx) {
  if (!value || !value->type || value->type->kind != ir::TypeKind::Array) return nullptr;
  if (indices.size() != 1) {
    error(span, "an array is indexed with one integer, got " + std::to_string(indices.size()) + " indices");
    return nullptr;
  }
  std::vector<ir::CallArg> args{{"", value, value->span}, {"", indices[0], indices[0]->span}};
  return b_->op_call(*ir::find_op("pl.array.get_element"), args, cx.build, span);
}

// `a[i] = v` of a local pl.array `a`: `a = pl.array.update_element(a, i, v)`, as PyPTO's parser
// rewrites it. False (nothing reported) when the target is not an element of a local array.
bool Parser::lower_array_store(ir::Block& out, const SynExpr& target, const SynExpr& value, LowerCtx& cx) {
  if (target.kind != SynKind::Subscript || target.items[0]->kind != SynKind::Name) return false;
  const Binding* b = lookup(cx, target.items[0]->text);
  if (!b || b->kind != Binding::Kind::Local || !b->var || !b->var->type ||
      b->var->type->kind != ir::TypeKind::Array)
    return false;
  const SynExpr& index = *target.items[1];
  if (index.kind == SynKind::Tuple || index.kind == SynKind::Slice) {
    error(index.span, "an array element is assigned with one integer index: a[i] = v");
    return true;
  }
  ir::Expr i = lower(index, cx);
  ir::Expr v = lower(value, cx);
  if (!i || !v) return true;
  ir::Expr array = b_->var_ref(b->var, target.items[0]->span);
  std::vector<ir::CallArg> args{{"", array, array->span}, {"", i, i->span}, {"", v, v->span}};
  ir::Expr updated = b_->op_call(*ir::find_op("pl.array.update_element"), args, cx.build, target.span);
  if (!updated) return true;
  auto s = std::make_shared<ir::Assign>();
  s->span = target.span;
  s->targets.push_back(b->var);
  s->value = updated;
  out.push_back(s);
  return true;
}

}  // namespace ptodist::frontend
