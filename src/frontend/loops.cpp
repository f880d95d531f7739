// Loops: `for i in pl.range/parallel/unroll/pipeline(...)`, and PyPTO's loop-carried form
// `for i, (acc,) in pl.range(n, init_values=(x,)):` whose body ends with `acc_out = pl.yield_(v)`.
//
// Loop-carried values lower to the mutable variables the IR already has: the carried name is assigned its
// init value before the loop, a loop-level `pl.yield_` assigns the next iteration's value to it, and the
// yield's target names are assigned the carried values after the loop (so a loop that runs zero times
// leaves them equal to the init values, as in PyPTO). A `pl.yield_` inside an if/else branch is PyPTO's
// if-yield: the target names are assigned in that branch and carry past the `if`.
#include "parser_impl.h"
#include "stmt_nodes.h"

namespace ptodist::frontend {

// `for i in ...:` or `for i, (a, b) in ...:`; the carried names are appended to `carried`.
std::string Parser::parse_loop_target(SourceSpan& iv_span,
                                      std::vector<std::pair<std::string, SourceSpan>>& carried) {
  const Token& var = expect_name("expected a loop variable name after 'for'");
  std::string iv_name = var.text;
  iv_span = var.span;
  if (!accept_op(",")) return iv_name;
  if (!at_op("("))
    fail(peek().span,
         "loops over several variables are not supported; loop-carried values are written "
         "'for i, (acc,) in pl.range(n, init_values=(x,)):'");
  advance();
  while (!at_op(")")) {
    const Token& n = expect_name("expected a name of a loop-carried value");
    carried.emplace_back(n.text, n.span);
    if (!accept_op(",")) break;
  }
  expect_op(")", "expected ')' after the loop-carried names");
  return iv_name;
}

void Parser::parse_for(ir::Block& out, LowerCtx& cx) {
  SourceSpan begin = advance().span;  // 'for'
  // `for (x, y) in pl.while_(...)`
  if (at_op("(")) return parse_while_iter(out, begin, cx);
  size_t iv_index = pos_;
  SourceSpan iv_span;
  std::vector<std::pair<std::string, SourceSpan>> carried;
  std::string iv_name = parse_loop_target(iv_span, carried);
  if (!at_keyword("in")) fail(peek().span, "expected 'in' after the loop variable of 'for'");
  advance();
  SynExprP iter = parse_expr();
  if (!accept_op(":")) fail(peek().span, "expected ':' after 'for' header");
  if (iter->kind == SynKind::Call && canonical(*iter->items[0]).value_or("") == "pl.spmd") {
    if (!carried.empty()) fail(iv_span, "for ... in pl.spmd(...) must use a single loop variable");
    return parse_spmd_for(out, *iter, tokens_[iv_index], span_to_prev(begin), cx);
  }
  auto loop = make_stmt<ir::For>(span_to_prev(begin));
  std::optional<std::vector<ir::Expr>> inits;
  const bool split_aiv =
      iter->kind == SynKind::Call && canonical(*iter->items[0]).value_or("") == "pl.split_aiv";
  bool ok = split_aiv ? lower_split_aiv(*iter, *loop, cx) : lower_loop_iterable(*iter, *loop, cx, inits);
  ok = ok && check_carried(*iter, carried, inits, iv_span);
  LoopCarry carry;
  carry.if_depth = if_depth_;
  if (ok && inits && !inits->empty()) {
    std::vector<ir::Var> vars;
    for (size_t i = 0; i < carried.size(); ++i)
      vars.push_back(bind_local(carried[i].first, (*inits)[i]->type, carried[i].second, cx));
    ir::Expr init = inits->size() == 1 ? (*inits)[0] : b_->tuple(*inits, iter->span);
    out.push_back(make_assign(vars, init, loop->span));
    carry.vars = vars;
  }
  // `for _ in ...` still loops: its counter is a fresh variable that no later statement can name.
  ir::Type iv_type = ir::scalar_type(ir::DType::INT64);
  loop->iv = iv_name == "_" ? b_->make_var("_", iv_type, iv_span) : bind_local(iv_name, iv_type, iv_span, cx);
  LoopExits exits;
  exits.span = loop->span;
  {
    PushScope<LoopCarry> carry_scope(carries_, &carry);
    PushScope<LoopExits> exits_scope(exits_, &exits);
    PushScope<WhileHead> head_scope(while_heads_, nullptr);
    // The ops of a pl.split_aiv region are checked as the vector lanes' (contracts/split_aiv.cpp).
    const int outer_mode = cx.build.split_aiv_mode;
    if (split_aiv && ok) cx.build.split_aiv_mode = loop->split_mode;
    loop->body = parse_suite("'for' header", cx);  // parsed even after an error, to report what is inside
    cx.build.split_aiv_mode = outer_mode;
  }
  ir::Block before;
  loop->body = finish_loop_body(exits, std::move(loop->body), before, nullptr);
  if (!ok || !loop->iv) return;
  out.insert(out.end(), before.begin(), before.end());
  out.push_back(loop);
  bind_loop_results(out, carry, carried, loop->span, cx);
}

// The names of the loop-level yield (or `NAME_out` without one) receive the carried values.
void Parser::bind_loop_results(ir::Block& out, const LoopCarry& carry,
                               const std::vector<std::pair<std::string, SourceSpan>>& carried,
                               const SourceSpan& span, LowerCtx& cx) {
  if (carry.vars.empty()) return;
  std::vector<std::pair<std::string, SourceSpan>> names = carry.yield_names;
  if (names.empty())
    for (const auto& [n, s] : carried) names.emplace_back(n + "_out", s);
  for (size_t i = 0; i < names.size() && i < carry.vars.size(); ++i) {
    if (names[i].first == "_" || !carry.vars[i]) continue;
    ir::Var v = bind_local(names[i].first, carry.vars[i]->type, names[i].second, cx);
    if (v) out.push_back(make_assign({v}, b_->var_ref(carry.vars[i], span), span));
  }
}

bool Parser::check_carried(const SynExpr& iter,
                           const std::vector<std::pair<std::string, SourceSpan>>& carried,
                           const std::optional<std::vector<ir::Expr>>& inits, const SourceSpan& iv_span) {
  if (carried.empty() && !inits) return true;
  if (carried.empty()) {
    error(iv_span,
          "a loop with init_values= names its carried values: 'for i, (acc,) in pl.range(n, "
          "init_values=(x,)):'");
    return false;
  }
  if (!inits) {
    error(iter.span, "loop-carried names need init_values=(...) on the loop builder");
    return false;
  }
  if (inits->size() != carried.size()) {
    error(iter.span, std::to_string(carried.size()) + " loop-carried name(s) but " +
                         std::to_string(inits->size()) + " init value(s)");
    return false;
  }
  return true;
}

// PyPTO's manual AIV split region `for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.X):` as a loop over
// the two vector lanes. It is CORE_GROUP-level (AivSplitValid rule (h)): it opens in the kernel a
// pl.at(level=CORE_GROUP) scope or a pl.spmd body outlines, or in an InCore function (which is how such
// a kernel prints, so the printed program parses again), never in an AIC or AIV kernel or outside a
// kernel; regions do not nest.
bool Parser::lower_split_aiv(const SynExpr& iter, ir::For& loop, LowerCtx& cx) {
  loop.loop_kind = ir::LoopKind::SplitAiv;
  std::optional<long long> count;
  std::string mode;
  bool ok = true;
  for (size_t i = 1; i < iter.items.size(); ++i) {
    const SynExpr& a = *iter.items[i];
    if (a.keyword.empty() && a.kind != SynKind::Star && !count) {
      ir::Expr n = lower(a, cx);
      count = n ? ir::as_const_int(n) : std::nullopt;
      if (!count || *count != 2) {
        error(a.span, "pl.split_aiv() splits over the 2 vector lanes of a core group: its count must be 2");
        ok = false;
      }
    } else if (a.keyword == "mode") {
      mode = canonical(a).value_or("");
      if (mode != "pl.SplitMode.NONE" && mode != "pl.SplitMode.UP_DOWN" &&
          mode != "pl.SplitMode.LEFT_RIGHT") {
        error(a.span, "pl.split_aiv(): mode must be pl.SplitMode.NONE, UP_DOWN or LEFT_RIGHT");
        ok = false;
      }
    } else {
      error(a.span, "unexpected argument of pl.split_aiv(); expected pl.split_aiv(2, mode=pl.SplitMode.X)");
      ok = false;
    }
  }
  if (ok && (!count || mode.empty())) {
    error(iter.span,
          "pl.split_aiv() takes the lane count and mode=: pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN)");
    ok = false;
  }
  if (ok && cx.build.split_aiv_mode >= 0) {
    error(iter.span, "pl.split_aiv regions do not nest: this one is inside another");
    ok = false;
  } else if (ok && !cx.outlined_core_scope && cx.build.function_kind != ir::FunctionKind::InCore) {
    const bool kernel = ir::is_kernel(cx.build.function_kind);
    error(iter.span,
          std::string("a pl.split_aiv region is CORE_GROUP-level: ") +
              (kernel ? "it may not open in the " +
                            std::string(ir::function_kind_name(cx.build.function_kind)) + " function '" +
                            cx.build.function_name + "'; write it in a @pl.function or @pl.jit body, "
                      : std::string("open it ")) +
              "inside a 'with pl.at(level=pl.Level.CORE_GROUP):' scope or a pl.spmd body");
    ok = false;
  }
  loop.split_mode = mode == "pl.SplitMode.UP_DOWN" ? 1 : mode == "pl.SplitMode.LEFT_RIGHT" ? 2 : 0;
  loop.start = b_->int_imm(0);
  loop.stop = b_->int_imm(count.value_or(2));
  loop.step = b_->int_imm(1);
  return ok;
}

// `pl.range(stop)`, `pl.range(start, stop[, step])` and the parallel/unroll/pipeline forms (plain
// `range` reads as pl.range); fills the loop's kind and bounds, and `inits` from init_values=.
bool Parser::lower_loop_iterable(const SynExpr& iter, ir::For& loop, LowerCtx& cx,
                                 std::optional<std::vector<ir::Expr>>& inits) {
  static const std::map<std::string, ir::LoopKind> kinds = {{"pl.range", ir::LoopKind::Range},
                                                            {"pl.parallel", ir::LoopKind::Parallel},
                                                            {"pl.unroll", ir::LoopKind::Unroll},
                                                            {"pl.pipeline", ir::LoopKind::Pipeline}};
  std::string path;
  if (iter.kind == SynKind::Call) {
    const SynExpr& callee = *iter.items[0];
    bool builtin = callee.kind == SynKind::Name && callee.text == "range" && !lookup(cx, "range");
    path = builtin ? "pl.range" : canonical(callee).value_or("");
  }
  auto it = kinds.find(path);
  if (it == kinds.end()) {
    error(
        iter.span,
        "expected pl.range(...), pl.parallel(...), pl.unroll(...) or pl.pipeline(...) as the loop iterable");
    return false;
  }
  loop.loop_kind = it->second;
  bool pipeline = loop.loop_kind == ir::LoopKind::Pipeline;
  std::vector<ir::Expr> bounds;
  bool ok = true;
  for (size_t i = 1; i < iter.items.size(); ++i) {
    const SynExpr& a = *iter.items[i];
    if (a.keyword == "init_values" && loop.loop_kind != ir::LoopKind::Unroll) {
      ok = lower_init_values(a, cx, inits) && ok;
      continue;
    }
    ir::Expr v = lower(a, cx);
    ok = ok && v;
    if (a.keyword == "stage" && pipeline) {
      loop.stage = v;
    } else if (!a.keyword.empty() || a.kind == SynKind::Star) {
      error(a.span, "unexpected argument" + (a.keyword.empty() ? "" : " '" + a.keyword + "'") + " of " +
                        path + "; expected " + path + "(stop), " + path + "(start, stop) or " + path +
                        "(start, stop, step)" + (pipeline ? " with stage=" : "") +
                        (loop.loop_kind == ir::LoopKind::Unroll ? "" : " and optionally init_values=(...)"));
      ok = false;
    } else {
      bounds.push_back(v);
    }
  }
  if (bounds.empty() || bounds.size() > 3) {
    error(iter.span, path + " expects 1 to 3 positional arguments (start, stop, step)");
    return false;
  }
  if (!ok) return false;
  if (pipeline && !check_pipeline_stage(iter, loop.stage)) return false;
  loop.start = bounds.size() >= 2 ? bounds[0] : b_->int_imm(0);
  loop.stop = bounds.size() >= 2 ? bounds[1] : bounds[0];
  loop.step = bounds.size() == 3 ? bounds[2] : b_->int_imm(1);
  return true;
}

// PyPTO's pl.pipeline takes a required keyword stage=, a positive integer (the body is replicated that
// many times per outer iteration); here the loop runs as the plain loop, whose results it must equal.
bool Parser::check_pipeline_stage(const SynExpr& iter, const ir::Expr& stage) {
  if (!stage) {
    error(iter.span, "pl.pipeline() requires stage= (a positive integer), e.g. pl.pipeline(n, stage=2)");
    return false;
  }
  const ir::Type& t = stage->type;
  if (!t || t->kind != ir::TypeKind::Scalar || !ir::dtype_is_int(t->dtype)) {
    error(stage->span, "pl.pipeline() stage must be a compile-time constant integer, got " + ir::type_str(t));
    return false;
  }
  if (auto n = ir::as_const_int(stage); n && *n < 1) {
    error(stage->span, "pl.pipeline() stage must be >= 1, got " + std::to_string(*n));
    return false;
  }
  return true;
}

bool Parser::lower_init_values(const SynExpr& a, LowerCtx& cx, std::optional<std::vector<ir::Expr>>& inits) {
  if (a.kind != SynKind::Tuple && a.kind != SynKind::List) {
    error(a.span, "init_values must be a tuple or a list: init_values=(x,)");
    return false;
  }
  std::vector<ir::Expr> values;
  bool ok = true;
  for (const SynExprP& item : a.items) {
    ir::Expr v = lower(*item, cx);
    ok = ok && v;
    values.push_back(v);
  }
  inits = std::move(values);
  return ok;
}

// `names = pl.yield_(values)` (names may be empty: a bare `pl.yield_(...)` statement).
void Parser::parse_yield(ir::Block& out, const std::vector<const SynExpr*>& names, const SynExpr& call,
                         LowerCtx& cx) {
  std::vector<ir::Expr> values;
  bool ok = true;
  for (size_t i = 1; i < call.items.size(); ++i) {
    const SynExpr& a = *call.items[i];
    if (!a.keyword.empty() || a.kind == SynKind::Star) {
      error(a.span, "pl.yield_ takes the yielded values as positional arguments");
      ok = false;
      continue;
    }
    ir::Expr v = lower(a, cx);
    ok = ok && v;
    values.push_back(v);
  }
  LoopCarry* carry = carries_.empty() ? nullptr : carries_.back();
  if (carry && carry->failed && carry->if_depth == if_depth_) return;
  bool loop_level = carry && !carry->vars.empty() && carry->if_depth == if_depth_;
  if (loop_level) carry->yielded = true;
  if (!loop_level && if_depth_ == 0) {
    error(call.span,
          "pl.yield_ belongs in the body of a loop with init_values=(...) or in an if/else branch");
    return;
  }
  if (!loop_level && names.empty()) {
    error(call.span, "a pl.yield_ in an if/else branch assigns names: 'x = pl.yield_(v)'");
    return;
  }
  if (loop_level && values.size() != carry->vars.size()) {
    error(call.span, "pl.yield_ of " + std::to_string(values.size()) + " value(s) in a loop that carries " +
                         std::to_string(carry->vars.size()));
    return;
  }
  if (!names.empty() && names.size() != values.size()) {
    error(call.span, "pl.yield_ of " + std::to_string(values.size()) + " value(s) assigned to " +
                         std::to_string(names.size()) + " name(s)");
    return;
  }
  if (!ok) return;
  ir::Expr value = values.size() == 1 ? values[0] : b_->tuple(values, call.span);
  if (loop_level) {
    // The next iteration's carried values; the names are bound after the loop.
    out.push_back(make_assign(carry->vars, value, call.span));
    carry->yield_names.clear();
    for (const SynExpr* n : names) carry->yield_names.emplace_back(n->text, n->span);
    return;
  }
  std::vector<ir::Var> vars;
  for (size_t i = 0; i < names.size(); ++i)
    vars.push_back(names[i]->text == "_" ? nullptr
                                         : bind_local(names[i]->text, values[i]->type, names[i]->span, cx));
  out.push_back(make_assign(vars, value, call.span));
}

}  // namespace ptodist::frontend
