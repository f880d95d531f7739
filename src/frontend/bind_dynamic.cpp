// `param.bind_dynamic(dim, var)` in a function's body (PyPTO's Tensor.bind_dynamic): dim `dim` of the
// tensor parameter `param` is the run-time dimension `var` (a name bound to pl.dynamic("...")). PyPTO's
// jit specializer reads these calls from the source before it parses anything, lets them override what
// the annotation says for that dim, and deletes them; the statement does nothing at run time. The same
// here: the signature takes the dims (apply_bind_dynamic), and the statement lowers to a `pass` once
// checked (lower_bind_dynamic). PyPTO only reads calls whose dim is an integer literal and whose var is
// a plain name; any other spelling is a located error here rather than a silently ignored one.
#include "parser_impl.h"

namespace ptodist::frontend {

namespace {

bool is_name(const Token& t, const char* text = nullptr) {
  return t.kind == TokenKind::Name && (!text || t.text == text);
}

bool is_op(const Token& t, const char* text) {
  return t.kind == TokenKind::Op && t.text == text;
}

}  // namespace

// The pl.dynamic dimension a name is bound to in `c`, as an annotation that names it lowers to; null
// (after no report) when the name is not bound to one.
ir::Expr Parser::dynamic_dim_named(const std::string& name, const SourceSpan& span, const Container& c) {
  LowerCtx cx;
  cx.container = &c;
  cx.const_only = true;
  const Binding* b = lookup(cx, name);
  if (!b || !b->var || b->kind != Binding::Kind::Constant || !b->const_value ||
      !b->const_value->as<ir::Dynamic>())
    return nullptr;
  return b_->var_ref(b->var, span);
}

void Parser::apply_bind_dynamic(ir::FunctionNode& fn, size_t body_pos, size_t body_end, const Container& c) {
  for (size_t i = body_pos; i + 7 < body_end; ++i) {
    const Token* t = &tokens_[i];
    // NAME . bind_dynamic ( INT , NAME )
    if (!is_name(t[0]) || !is_op(t[1], ".") || !is_name(t[2], "bind_dynamic") || !is_op(t[3], "(") ||
        t[4].kind != TokenKind::Int || !is_op(t[5], ",") || !is_name(t[6]) || !is_op(t[7], ")"))
      continue;
    if (i > body_pos && is_op(tokens_[i - 1], ".")) continue;  // a.b.bind_dynamic: not a parameter
    for (ir::Param& p : fn.params) {
      if (!p.var || p.var->name != t[0].text || !p.var->type || !p.var->type->is_tensor_like()) continue;
      long long dim = std::stoll(t[4].text, nullptr, 0);
      if (dim < 0 || dim >= static_cast<long long>(p.var->type->shape.size())) break;  // reported at the call
      ir::Expr dyn = dynamic_dim_named(t[6].text, t[6].span, c);
      if (!dyn) break;  // reported at the call
      auto type = std::make_shared<ir::TypeNode>(*p.var->type);
      type->shape[static_cast<size_t>(dim)] = dyn;
      p.var = b_->make_var(p.var->name, type, p.var->span);
    }
  }
}

bool Parser::is_bind_dynamic(const SynExpr& e) const {
  return e.kind == SynKind::Call && !e.items.empty() && e.items[0]->kind == SynKind::Attr &&
         e.items[0]->text == "bind_dynamic";
}

void Parser::lower_bind_dynamic(ir::Block& out, const SynExpr& call, LowerCtx& cx) {
  const SynExpr& callee = *call.items[0];
  const SynExpr& target = *callee.items[0];
  const std::string usage =
      "bind_dynamic takes a dim as an integer literal and a name bound to pl.dynamic(...), "
      "e.g. 'x.bind_dynamic(0, M)'";
  const Binding* b = target.kind == SynKind::Name ? lookup(cx, target.text) : nullptr;
  const ir::Function* fn = find_function(cx, cx.build.function_name);
  bool is_param = false;
  if (b && b->var && fn)
    for (const ir::Param& p : (*fn)->params) is_param = is_param || p.var == b->var;
  if (!is_param || !b->var->type || !b->var->type->is_tensor_like()) {
    error(target.span, "bind_dynamic is a method of the function's tensor parameters; '" +
                           dotted_path(target) + "' is not one");
    return;
  }
  if (call.items.size() != 3 || !call.items[1]->keyword.empty() || !call.items[2]->keyword.empty() ||
      call.items[1]->kind != SynKind::Int || call.items[2]->kind != SynKind::Name) {
    error(call.span, usage);
    return;
  }
  const ir::Type& type = b->var->type;
  long long dim = std::stoll(call.items[1]->text, nullptr, 0);
  if (dim < 0 || dim >= static_cast<long long>(type->shape.size())) {
    error(call.items[1]->span, "bind_dynamic: dim " + std::to_string(dim) + " is out of range for '" +
                                   target.text + "' of type " + ir::type_str(type));
    return;
  }
  ir::Expr dyn = dynamic_dim_named(call.items[2]->text, call.items[2]->span, *cx.container);
  if (!dyn) {
    error(call.items[2]->span, "bind_dynamic: '" + call.items[2]->text + "' is not bound to pl.dynamic(...)");
    return;
  }
  auto pass = std::make_shared<ir::Pass>();  // the call is spent: nothing is left to run
  pass->span = call.span;
  out.push_back(pass);
}

}  // namespace ptodist::frontend
