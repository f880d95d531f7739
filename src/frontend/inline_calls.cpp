// Calls of `@pl.jit.inline` functions (and `@pl.function(type=pl.FunctionType.Inline)` methods), as
// PyPTO expands them: the body is spliced in at each call site, before the statement that holds the
// call. A parameter passed a variable is an alias of it (the body's rebinding of the parameter
// rebinds the caller's variable, which is why PyPTO calls direction annotations on inline parameters
// redundant); a parameter passed any other expression is a fresh variable assigned that value. The
// body's final `return` gives the call's value; a `return` anywhere else is not supported yet. The
// variables the body defines print as NAME__<n>, n counting the expansions in the file.
#include "parser_impl.h"
#include "ptodist/ir/functor.h"

namespace ptodist::frontend {

namespace {

// A `return` nested in a branch or loop of an inline body.
class NestedReturn : public ir::Walker {
 public:
  const ir::Stmt* found = nullptr;
  void visit_stmt(const ir::Stmt& s) override {
    if (s->isa<ir::Return>() && !found) found = &s;
    ir::Walker::visit_stmt(s);
  }
};

}  // namespace

bool Parser::is_inline_decl(const FuncDecl& d) const {
  for (const SynExprP& dec : d.decorators) {
    std::string path = decorator_path(*dec);
    if (path == "pl.jit.inline" || path == "pl.inline") return true;
    if (path != "pl.function" || dec->kind != SynKind::Call) continue;
    for (size_t i = 1; i < dec->items.size(); ++i)
      if (dec->items[i]->keyword == "type" &&
          canonical(*dec->items[i]).value_or("") == "pl.FunctionType.Inline")
        return true;
  }
  return false;
}

// Binds the inline function's parameters to the call's arguments in `locals`; false after an error.
bool Parser::bind_inline_args(const SynExpr& call, const Signature& sig, ScopeMap& locals, LowerCtx& cx) {
  const std::vector<ir::Param>& params = sig.fn->params;
  std::vector<const SynExpr*> bound(params.size(), nullptr);
  size_t positional = 0;
  bool ok = true;
  for (size_t i = 1; i < call.items.size(); ++i) {
    const SynExpr& a = *call.items[i];
    size_t slot = positional;
    if (a.keyword.empty()) {
      ++positional;
    } else {
      slot = params.size();
      for (size_t p = 0; p < params.size(); ++p)
        if (params[p].var && params[p].var->name == a.keyword) slot = p;
    }
    if (a.kind == SynKind::Star || slot >= params.size() || bound[slot]) {
      error(a.span,
            a.kind == SynKind::Star ? "'" + a.text + "' arguments are not supported; pass each argument"
            : slot >= params.size() ? "inline function '" + sig.fn->name + "' has no parameter " +
                                          (a.keyword.empty() ? "for this argument" : "'" + a.keyword + "'")
                                    : "parameter '" + a.keyword + "' of '" + sig.fn->name + "' given twice");
      ok = false;
      continue;
    }
    bound[slot] = &a;
  }
  if (!ok) return false;  // a missing argument would only repeat the report
  for (size_t p = 0; p < params.size(); ++p) {
    const std::string& name = params[p].var ? params[p].var->name : "";
    if (!bound[p]) {
      error(call.span, "call of inline function '" + sig.fn->name + "' is missing argument '" + name + "'");
      ok = false;
      continue;
    }
    const SynExpr& a = *bound[p];
    if (a.kind == SynKind::Name && cx.locals) {
      auto it = cx.locals->find(a.text);
      if (it != cx.locals->end() && it->second.kind == Binding::Kind::Local) {
        locals[name] = it->second;  // an alias: rebinding the parameter rebinds the caller's variable
        continue;
      }
    }
    ir::Expr v = lower(a, cx);
    if (!v) {
      ok = false;
      continue;
    }
    ir::Var fresh = b_->make_var(name + inline_var_suffix_, v->type, a.span);
    auto s = std::make_shared<ir::Assign>();
    s->span = a.span;
    s->targets.push_back(fresh);
    s->value = v;
    prelude_.push_back(s);
    locals[name] = Binding{Binding::Kind::Local, fresh, nullptr};
  }
  return ok;
}

ir::Expr Parser::lower_inline_call(const SynExpr& call, const std::string& name, LowerCtx& cx) {
  const Signature& sig = inline_sigs_.at(name);
  for (const std::string& active : inline_stack_)
    if (active == name) {
      error(call.span,
            "inline function '" + name + "' calls itself; an inline body cannot be spliced into itself");
      return nullptr;
    }
  ScopeMap locals;
  std::string saved_suffix = inline_var_suffix_;
  inline_var_suffix_ = "__" + std::to_string(++inline_expansions_);
  bool bound = bind_inline_args(call, sig, locals, cx);
  if (!bound) {
    inline_var_suffix_ = saved_suffix;
    return nullptr;
  }
  LowerCtx inner = cx;
  inner.locals = &locals;
  if (sig.home) inner.container = sig.home;
  size_t saved_pos = pos_, saved_end = fn_body_end_;
  ScopedValue<std::vector<LoopCarry*>> no_carries(carries_, {});
  ScopedValue<std::vector<LoopExits*>> no_exits(exits_, {});
  ScopedValue<std::vector<WhileHead*>> no_while_heads(while_heads_, {});
  ScopedValue<int> no_if(if_depth_, 0);
  std::vector<ir::Stmt> saved_prelude = std::move(prelude_);
  prelude_.clear();
  inline_stack_.push_back(name);
  pos_ = sig.body_pos;
  fn_body_end_ = sig.body_end;
  ir::Block body;
  try {
    body = parse_suite("the header of function '" + name + "'", inner);
  } catch (const SyntaxAbort&) {
  }
  inline_stack_.pop_back();
  inline_var_suffix_ = saved_suffix;
  pos_ = saved_pos;
  fn_body_end_ = saved_end;
  prelude_ = std::move(saved_prelude);

  std::shared_ptr<const ir::Return> ret;
  if (!body.empty() && body.back()->isa<ir::Return>()) {
    ret = std::static_pointer_cast<const ir::Return>(body.back());
    body.pop_back();
  }
  NestedReturn nested;
  nested.visit_block(body);
  if (nested.found) {
    error((*nested.found)->span, "a 'return' before the end of inline function '" + name +
                                     "' is not supported yet; return once, at the end of its body");
    return nullptr;
  }
  prelude_.insert(prelude_.end(), body.begin(), body.end());
  if (!ret || ret->values.empty()) return b_->none_imm(call.span);
  if (ret->values.size() == 1) return ret->values[0];
  return b_->tuple(ret->values, call.span);
}

}  // namespace ptodist::frontend
