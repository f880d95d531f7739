// Lowering of calls: arguments, op calls (through PyPTO's spellings and its unified dispatch), calls of
// program functions and inlined helpers, Python's min/max of scalars, and the move of a matmul's Acc
// result to Vec where a vector op reads it.
#include "parser_impl.h"
#include "ptodist/ir/elementwise_ops.h"
#include "ptodist/ir/expand_ops.h"
#include "ptodist/ir/reduce_ops.h"
#include "ptodist/ir/scalar_eval.h"
#include "ptodist/ir/unary_ops.h"

namespace ptodist::frontend {

std::optional<std::vector<ir::CallArg>> Parser::lower_args(const SynExpr& call, LowerCtx& cx,
                                                           bool kernel_args) {
  std::vector<ir::CallArg> args;
  bool ok = true;
  for (size_t i = 1; i < call.items.size(); ++i) {
    const SynExpr& a = *call.items[i];
    if (a.kind == SynKind::Star) {
      error(a.span, "'" + a.text + "' arguments are not supported; pass each argument explicitly");
      ok = false;
      continue;
    }
    const SynExpr* marked = kernel_args ? no_dep_operand(a) : nullptr;
    ir::Expr v = marked ? lower_no_dep(*marked, cx) : lower(a, cx);
    ok = ok && v;
    args.push_back(ir::CallArg{a.keyword, v, a.span});
  }
  if (!ok) return std::nullopt;
  return args;
}

ir::Expr Parser::lower_call(const SynExpr& e, LowerCtx& cx) {
  const SynExpr& callee = *e.items[0];
  std::string path = dotted_path(callee);
  if (path.empty()) {
    error(callee.span, "calling a computed value is not supported");
    return nullptr;
  }
  std::string root = path.substr(0, path.find('.'));
  bool is_local = lookup(cx, root) != nullptr;
  if (root == "self" && !is_local && callee.kind == SynKind::Attr && !cx.const_only &&
      path.find('.', 5) == std::string::npos) {
    std::string member = callee.text;
    if (inline_sigs_.count(member)) return lower_inline_call(e, member, cx);
    if (!find_function(cx, member)) return lower_attr(callee, cx);  // reports the missing method
    auto args = lower_args(e, cx, true);
    return args ? b_->func_call(member, cx.class_style, *args, cx.build, e.span) : nullptr;
  }
  if (callee.kind == SynKind::Name) {
    if (is_local) {
      error(callee.span, "'" + path + "' is not callable");
      return nullptr;
    }
    if (!cx.const_only && !cx.class_style && inline_sigs_.count(path)) return lower_inline_call(e, path, cx);
    // A method is named through self; a @pl.function outside the class by its bare name (its own
    // or the one it was imported as), and the program holds it as one more method (printed so).
    auto external = external_names_.find(path);
    const std::string& target = external == external_names_.end() ? path : external->second;
    if (!cx.const_only && find_function(cx, target)) {
      if (cx.class_style && external == external_names_.end()) return lower_name(callee, cx);
      auto args = lower_args(e, cx, true);
      return args ? b_->func_call(target, cx.class_style, *args, cx.build, e.span) : nullptr;
    }
    if (path == "range") {
      error(callee.span, "'range' is only allowed as the iterable of a 'for' loop");
      return nullptr;
    }
    if (path == "min" || path == "max") return lower_min_max(e, path == "min", cx);
    if (std::string why = host_name_reason(cx, path); !why.empty()) {
      error(callee.span, why);
      return nullptr;
    }
    std::vector<std::string> names;
    if (cx.build.functions && !cx.class_style)
      for (const ir::Function& f : *cx.build.functions) names.push_back(f->name);
    error(callee.span, "call of unknown function '" + path + "'" + did_you_mean(path, names));
    return nullptr;
  }
  // `DT.get_byte()` / `pl.FP32.get_byte()`: the dtype's size, folded here.
  if (callee.text == "get_byte") {
    if (auto dt = dtype_of(*callee.items[0], cx)) {
      if (e.items.size() > 1) error(e.span, "get_byte() takes no arguments");
      return b_->int_imm(ir::dtype_bytes(*dt), e.span);
    }
  }
  if (is_local) {
    error(callee.span, "method calls on values are not supported ('" + path + "(...)')");
    return nullptr;
  }
  std::optional<std::string> c = canonical(path);
  if (!c) return lower_attr(callee, cx);  // reports why the path is not a language name
  return lower_path_call(e, *c, cx);
}

ir::Expr Parser::lower_path_call(const SynExpr& e, const std::string& path, LowerCtx& cx) {
  const SourceSpan& callee_span = e.items[0]->span;
  if (is_loop_path(path)) {
    error(callee_span, "'" + path + "' is only allowed as the iterable of a 'for' loop");
    return nullptr;
  }
  if (path == "pl.manual_scope") {
    error(callee_span, "'pl.manual_scope()' is only allowed in 'with pl.manual_scope():'");
    return nullptr;
  }
  if (path == "pl.dynamic") {
    if (e.items.size() != 2 || e.items[1]->kind != SynKind::String || !e.items[1]->keyword.empty()) {
      error(e.span, "pl.dynamic expects one string argument, e.g. pl.dynamic(\"NR\")");
      return nullptr;
    }
    return b_->dynamic_dim(e.items[1]->text, e.span);
  }
  if (path == "pl.const") return lower_const(e, cx);
  if (path == "pld.remote_store" && !cx.const_only) return lower_remote_store(e, cx);
  if (path == "pl.no_dep" || path == "pl.tensor.no_dep") {
    error(callee_span,
          "'" + path +
              "' marks an argument of a kernel call or pl.spmd_submit (self.k(pl.no_dep(t), ...)); "
              "it is not allowed elsewhere");
    return nullptr;
  }
  const ir::OpInfo* op = ir::find_op(path);
  if (!op && is_pypto_op(path)) {
    error(callee_span, "'" + path +
                           "' is a PyPTO op that ptodist does not support yet (docs/language.md lists every "
                           "PyPTO op with its status in ptodist)");
    return nullptr;
  }
  if (!op) {
    std::vector<std::string> names;
    for (const ir::OpInfo& info : ir::all_ops()) names.push_back(info.spelling);
    for (const ir::OpInfo& info : ir::all_aliases()) names.push_back(info.spelling);
    error(callee_span, "unknown op '" + path + "'" + did_you_mean(path, names));
    return nullptr;
  }
  if (cx.const_only) {
    error(e.span, "op '" + path + "' is not allowed in a constant expression");
    return nullptr;
  }
  auto args = lower_args(e, cx, op->id == ir::OpId::SpmdSubmit || op->id == ir::OpId::Submit);
  if (!args) return nullptr;
  op = element_op(*op, *args);
  wrap_scalar_index(*op, *args);
  fold_constant_operands(*op, *args, cx);
  move_acc_operands(*op, *args, cx);
  if (cluster_depth_ > 0 && !check_dispatch_in_cluster(*op, *args, e.span)) return nullptr;
  bool handled = false;
  ir::Expr unified = lower_unified(*op, *args, e.span, cx, handled);
  if (handled) return unified;
  if (auto boundary = lower_split_boundary(*op, *args, e.span, cx)) return *boundary;
  return b_->op_call(*op, *args, cx.build, e.span);
}

// PyPTO's pl.aiv_shard(x) / pl.aic_gather(x) take their split mode from the enclosing pl.split_aiv
// region, as PyPTO's parser fills it: the call becomes pl.tile.aiv_shard(x, split=<mode>). Every
// spelling belongs inside a region (AivSplitValid rule (c)).
std::optional<ir::Expr> Parser::lower_split_boundary(const ir::OpInfo& op,
                                                     const std::vector<ir::CallArg>& args,
                                                     const SourceSpan& span, LowerCtx& cx) {
  if (op.id != ir::OpId::AivShard && op.id != ir::OpId::AicGather) return std::nullopt;
  if (cx.build.split_aiv_mode < 0) {
    error(span, op.spelling +
                    ": must be used inside a 'for aiv_id in pl.split_aiv(...)' region, which supplies "
                    "the split mode (it marks where a tile crosses between the cube and the vector lanes)");
    return ir::Expr{};
  }
  // PyPTO's spellings take the operand alone; pl.tile.aiv_shard(x, split=1) is the IR's own form.
  const bool operand_only =
      args.size() == 1 && (args[0].keyword.empty() || args[0].keyword == "x" || args[0].keyword == "tile");
  if (!operand_only && op.params.size() != 1) return std::nullopt;
  if (!operand_only) {
    error(span, op.spelling + "() takes one operand, the tile: " + op.spelling + "(x)");
    return ir::Expr{};
  }
  if (!args[0].value) return ir::Expr{};
  std::vector<ir::Expr> slots(ir::op_info(op.id).params.size());
  slots[0] = args[0].value;
  slots[1] = b_->int_imm(cx.build.split_aiv_mode, span);
  return b_->op_call_slots(op, std::move(slots), {}, cx.build, span);
}

// PyPTO's Python hands pl.arange / pl.tile.ci a constant start, and pl.tri its diagonal, as an int,
// which takes the op's dtype: one that folds through the module constants (`N - 1`) is that literal.
// (A flag bound to a bool constant, `upper=upper`, is already the literal: lower_name.)
void Parser::fold_constant_operands(const ir::OpInfo& op, std::vector<ir::CallArg>& args, LowerCtx& cx) {
  if (op.id != ir::OpId::Arange && op.id != ir::OpId::Tri) return;
  const char* number = op.id == ir::OpId::Arange ? "start" : "diagonal";
  for (size_t i = 0; i < args.size(); ++i) {
    ir::CallArg& a = args[i];
    if (a.keyword != number && !(a.keyword.empty() && static_cast<int>(i) == op.param_index(number)))
      continue;
    if (auto v = fold_dim(a.value, cx, 0); v && !ir::literal_value(a.value))
      a.value = ir::literal_expr(ir::ScalarValue::of_int(*v), a.value->span);
  }
}

// PyPTO's InferTileMemorySpace moves an operand to the memory its op takes (tile.move to the first
// allowed space): a matmul's Acc result read by vector arithmetic (`pl.add(mm, bias)`) is moved to Vec
// first, the cube-to-vector hand-off of a mixed kernel. ptodist does it for the Acc operands of the
// vector ops whose tile operands must be in Vec (elementwise, unary, broadcast, reductions).
void Parser::move_acc_operands(const ir::OpInfo& op, std::vector<ir::CallArg>& args, LowerCtx& cx) {
  if (!ir::is_elementwise_arith(op.id) && !ir::unary_op_info(op.id) && !ir::expand_op_info(op.id) &&
      !ir::reduce_op_info(op.id))
    return;
  for (ir::CallArg& a : args) {
    const ir::Type& t = a.value ? a.value->type : nullptr;
    if (!t || t->kind != ir::TypeKind::Tile || t->memory != ir::Memory::Acc) continue;
    ir::Expr vec = b_->enum_imm(ir::EnumKind::Memory, "Vec", a.span);
    ir::Expr moved = b_->op_call(*ir::find_op("pl.move"),
                                 {{"", a.value, a.span}, {"target_memory", vec, a.span}}, cx.build, a.span);
    if (moved) a.value = moved;
  }
}

// Python's `min(a, b, ...)` / `max(...)` of scalars (factory arithmetic such as
// `min(4096, size)`): a chain of conditional expressions, folded when the operands are constants.
ir::Expr Parser::lower_min_max(const SynExpr& e, bool is_min, LowerCtx& cx) {
  if (e.items.size() < 3) {
    error(e.span, std::string(is_min ? "min" : "max") + "() of scalars needs at least two arguments");
    return nullptr;
  }
  ir::Expr result;
  for (size_t i = 1; i < e.items.size(); ++i) {
    const SynExpr& a = *e.items[i];
    if (!a.keyword.empty() || a.kind == SynKind::Star) {
      error(a.span, std::string(is_min ? "min" : "max") + "() takes its operands as positional arguments");
      return nullptr;
    }
    ir::Expr v = lower(a, cx);
    if (!v) return nullptr;
    if (!v->type || v->type->kind != ir::TypeKind::Scalar) {
      error(a.span,
            std::string(is_min ? "min" : "max") + "() compares scalars, got " + ir::type_str(v->type));
      return nullptr;
    }
    if (!result) {
      result = v;
      continue;
    }
    ir::Expr keep = b_->compare(is_min ? ir::CompareOpKind::Le : ir::CompareOpKind::Ge, result, v, e.span);
    result = b_->if_exp(keep, result, v, e.span);
    if (!result) return nullptr;
  }
  return result;
}

}  // namespace ptodist::frontend
