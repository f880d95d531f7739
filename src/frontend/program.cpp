// Program assembly: every function's signature is parsed before any body, so calls can be checked
// against callees defined later; then bodies are parsed and grouped into programs (class style: one
// per @pl.program class; jit style: one per @pl.jit.host function and the functions it reaches).
#include <functional>
#include <set>

#include "escaping_loop_values.h"
#include "parser_impl.h"
#include "ptodist/ir/functor.h"

namespace ptodist::frontend {

std::vector<ir::Type> first_return_types(const ir::Function& fn);

void Parser::build_programs(const Container& c) {
  for (const ClassDecl& cls : c.classes)
    if (class_selected(cls.name))
      if (ir::Program p = build_class_program(cls, c)) programs_.emplace_back(cls.span, p);
  for (const ir::Program& p : build_jit_programs(c)) programs_.emplace_back(p->span, p);
}

bool Parser::parse_params(const Container& c, bool class_style, const std::string& fn_name,
                          std::vector<ir::Param>& params) {
  LowerCtx cx;
  cx.container = &c;
  cx.const_only = true;
  cx.class_style = class_style;
  // A dim may name an earlier scalar parameter (an outlined kernel's `t_dim`, printed before the
  // tensor whose dim it is).
  ScopeMap scalars;
  cx.locals = &scalars;
  bool ok = true;
  bool first = true;
  std::set<std::string> seen;
  SourceSpan open = tokens_[pos_ - 1].span;
  while (!at_op(")")) {
    if (at_op("*") || at_op("**") || at_op("/"))
      fail(peek().span, "'" + peek().text + "' parameters are not supported in function '" + fn_name + "'");
    const Token& tok = expect_name("expected a parameter name in function '" + fn_name + "'");
    std::string name = tok.text;
    SourceSpan span = tok.span;
    bool is_self = first && class_style && name == "self";
    if (first && class_style && !is_self) {
      error(span, "the first parameter of method '" + fn_name + "' must be 'self'");
      ok = false;
    }
    first = false;
    SynExprP annotation;
    if (accept_op(":")) annotation = parse_expr();
    if (at_op("=")) fail(peek().span, "default values are not supported for parameters of '" + fn_name + "'");
    if (!is_self) {
      std::optional<ParamType> pt;
      if (!annotation)
        error(span, "parameter '" + name + "' of '" + fn_name +
                        "' needs a type annotation, e.g. pl.Tensor[[M, K], pl.FP16]");
      else {
        auto jit = jit_param_types_.find({fn_name, name});
        cx.bare_tensor = jit == jit_param_types_.end() ? nullptr : &jit->second;
        pt = lower_param_type(*annotation, cx);
      }
      if (!seen.insert(name).second)
        error(span, "duplicate parameter '" + name + "' in function '" + fn_name + "'");
      ok = ok && pt;
      params.push_back(ir::Param{b_->make_var(name, pt ? pt->type : nullptr, span),
                                 pt ? pt->direction : ir::Direction::In});
      if (pt && pt->type && pt->type->kind == ir::TypeKind::Scalar)
        scalars[name] = Binding{Binding::Kind::Local, params.back().var, nullptr};
    }
    if (!accept_op(",")) break;
  }
  if (!accept_op(")"))
    fail(peek().span, "expected ',' or ')' in the parameters of '" + fn_name + "' (opened at line " +
                          std::to_string(open.line) + ")");
  if (class_style && first) {
    error(open, "method '" + fn_name + "' needs 'self' as its first parameter");
    ok = false;
  }
  return ok;
}

std::optional<Signature> Parser::parse_signature(const FuncDecl& d, const Container& c, bool class_style) {
  pos_ = d.def_pos;
  try {
    std::optional<ir::FunctionKind> kind = function_kind(d, class_style);
    SourceSpan begin = advance().span;  // 'def'
    std::string name = expect_name("expected a function name after 'def'").text;
    expect_op("(", "expected '(' after the name of function '" + name + "'");
    auto fn = std::make_shared<ir::FunctionNode>();
    fn->name = name;
    // A SubWorker method and a kernel outside the class have no `self`: their parameters read as a
    // free function's.
    bool ok = parse_params(c, class_style && !d.host_callback && !d.external, name, fn->params) && kind;
    if (accept_op("->")) {
      SynExprP ret = parse_expr();
      LowerCtx cx;
      cx.container = &c;
      cx.const_only = true;
      auto types = lower_return_types(*ret, cx);
      ok = ok && types;
      if (types) fn->return_types = *types;
    }
    expect_op(":", "expected ':' after the header of function '" + name + "'");
    fn->span = span_to_prev(begin);
    if (!ok) return std::nullopt;
    fn->kind = *kind;
    fn->host_callback = d.host_callback;
    Signature sig;
    sig.fn = fn;
    sig.body_pos = pos_;
    sig.body_end = skip_suite_from(pos_);
    apply_bind_dynamic(*fn, sig.body_pos, sig.body_end, c);
    return sig;
  } catch (const SyntaxAbort&) {
    return std::nullopt;
  }
}

std::shared_ptr<ir::FunctionNode> Parser::parse_body(const Signature& sig, const Container& c,
                                                     const std::vector<ir::Function>& sigs,
                                                     bool class_style) {
  pos_ = sig.body_pos;
  fn_body_end_ = sig.body_end;
  ScopeMap locals;
  for (const ir::Param& p : sig.fn->params)
    if (p.var) locals[p.var->name] = Binding{Binding::Kind::Local, p.var, nullptr};
  LowerCtx cx;
  cx.locals = &locals;
  cx.container = &c;
  cx.class_style = class_style;
  cx.build.function_kind = sig.fn->kind;
  cx.build.function_name = sig.fn->name;
  cx.build.functions = &sigs;
  auto fn = std::make_shared<ir::FunctionNode>(*sig.fn);
  try {
    fn->body = parse_suite("the header of function '" + fn->name + "'", cx, &fn->docstring);
    seed_escaping_loop_values(*fn);
  } catch (const SyntaxAbort&) {
    // A one-line body whose only statement failed; already reported.
  }
  return fn;
}

namespace {

// Reports a second function of the same name in one program scope; returns false then.
bool check_unique(const std::vector<ir::Function>& fns, DiagnosticEngine& diags) {
  std::set<std::string> seen;
  bool ok = true;
  for (const ir::Function& f : fns) {
    if (seen.insert(f->name).second) continue;
    diags.error(f->span, "function '" + f->name + "' is defined twice");
    ok = false;
  }
  return ok;
}

ir::Program make_program(std::string name, ir::ProgramStyle style, const Container& c,
                         std::vector<ir::Function> fns, SourceSpan span) {
  auto p = std::make_shared<ir::ProgramNode>();
  p->name = std::move(name);
  p->style = style;
  p->factory_name = c.factory_name;
  p->factory_params = c.params;
  p->factory_constants = c.constants;
  p->functions = std::move(fns);
  p->span = span;
  return p;
}

}  // namespace

bool Parser::parse_functions(const std::vector<FuncDecl>& decls, const Container& c, bool class_style,
                             std::vector<Signature>& sigs, std::vector<ir::Function>& bodies) {
  std::vector<ir::Function> declared;
  bool ok = true;
  inline_sigs_.clear();
  for (const FuncDecl& d : decls) {
    // A function imported from another file sees that file's constants.
    auto s = parse_signature(d, d.home ? *d.home : c, class_style);
    ok = ok && s;
    if (s && is_inline_decl(d)) {
      // Not a function of the program: its body is spliced into each caller.
      s->home = d.home;
      inline_sigs_[s->fn->name] = *s;
    } else if (s) {
      s->home = d.home;
      sigs.push_back(*s);
      declared.push_back(s->fn);
    }
  }
  ok = check_unique(declared, *diags_) && ok;
  // pl.at scopes add the functions they outline to `declared` (so calls of them are checked) and to
  // the program, after the function they came from.
  declared_ = &declared;
  // A function without a return annotation returns what its first `return` returns (PyPTO derives a
  // call's type so): such a callee's body is parsed before its callers' (callee_first_order).
  std::vector<std::vector<ir::Function>> parsed(sigs.size());
  for (size_t i : callee_first_order(sigs)) {
    const Signature& s = sigs[i];
    if (s.fn->host_callback) {  // host Python: the embedding interpreter runs it
      parsed[i].push_back(s.fn);
      continue;
    }
    std::shared_ptr<ir::FunctionNode> body = parse_body(s, s.home ? *s.home : c, declared, class_style);
    if (s.fn->return_types.empty()) {
      body->return_types = first_return_types(body);
      s.fn->return_types = body->return_types;
    }
    check_declared_waiter(*body);
    parsed[i].push_back(body);
    parsed[i].insert(parsed[i].end(), outlined_.begin(), outlined_.end());
    outlined_.clear();
  }
  for (std::vector<ir::Function>& fns : parsed) bodies.insert(bodies.end(), fns.begin(), fns.end());
  declared_ = nullptr;
  return ok;
}

// The types of the values the first `return` of `fn` returns that has any; empty when there is none
// or a value is untyped.
std::vector<ir::Type> first_return_types(const ir::Function& fn) {
  struct FirstReturn : ir::Walker {
    const ir::Return* found = nullptr;
    void visit_stmt(const ir::Stmt& s) override {
      if (found) return;
      if (const auto* r = s->as<ir::Return>(); r && !r->values.empty()) {
        found = r;
        return;
      }
      ir::Walker::visit_stmt(s);
    }
  } walk;
  walk.visit_function(fn);
  std::vector<ir::Type> types;
  if (!walk.found) return types;
  for (const ir::Expr& v : walk.found->values) {
    if (!v || !v->type) return {};
    types.push_back(v->type);
  }
  // `return (a, b)` written as one tuple value
  if (types.size() == 1 && types[0]->kind == ir::TypeKind::Tuple) return types[0]->elements;
  return types;
}

// The names the body in tokens [pos, end) mentions as a name or as self.<name>, and those the inline
// functions it names mention: their bodies are spliced into it, so their callees are its callees.
std::set<std::string> Parser::names_mentioned(size_t pos, size_t end) const {
  std::set<std::string> names, inlined;
  std::function<void(size_t, size_t)> scan = [&](size_t from, size_t to) {
    for (size_t t = from; t < to; ++t) {
      const Token& tok = tokens_[t];
      if (tok.kind != TokenKind::Name) continue;
      bool attr = t > 0 && tokens_[t - 1].kind == TokenKind::Op && tokens_[t - 1].text == ".";
      if (attr && !(t > 1 && tokens_[t - 2].text == "self")) continue;
      names.insert(tok.text);
      auto it = inline_sigs_.find(tok.text);
      if (it != inline_sigs_.end() && inlined.insert(tok.text).second)
        scan(it->second.body_pos, it->second.body_end);
    }
  };
  scan(pos, end);
  return names;
}

// The order to parse bodies in: the file's, except that a function without a return annotation
// comes before the functions that name it (depth first; a cycle keeps the file's order).
std::vector<size_t> Parser::callee_first_order(const std::vector<Signature>& sigs) const {
  size_t n = sigs.size();
  std::vector<int> state(n, 0);  // 0 new, 1 on the stack, 2 placed
  std::vector<size_t> order;
  std::function<void(size_t)> place = [&](size_t i) {
    state[i] = 1;
    for (const std::string& name : names_mentioned(sigs[i].body_pos, sigs[i].body_end))
      for (size_t j = 0; j < n; ++j)
        if (state[j] == 0 && sigs[j].fn->return_types.empty() && sigs[j].fn->name == name) place(j);
    state[i] = 2;
    order.push_back(i);
  };
  for (size_t i = 0; i < n; ++i)
    if (state[i] == 0) place(i);
  return order;
}

ir::Program Parser::build_class_program(const ClassDecl& cls, const Container& c) {
  std::vector<Signature> sigs;
  std::vector<ir::Function> bodies;
  std::vector<FuncDecl> decls = cls.methods;
  std::vector<FuncDecl> externals = reached_externals(cls, c);
  external_names_.clear();
  for (const FuncDecl& d : externals) external_names_[d.local.empty() ? d.name : d.local] = d.name;
  decls.insert(decls.end(), externals.begin(), externals.end());
  bool ok = parse_functions(decls, c, true, sigs, bodies);
  external_names_.clear();
  if (!ok) return nullptr;
  return make_program(cls.name, ir::ProgramStyle::Class, c, std::move(bodies), cls.span);
}

// Jit style: a program is a @pl.jit.host function plus every jit function it reaches by name,
// transitively. Without a host function, each @pl.jit orchestration function roots a program; with
// neither, all the kernels form one program named after the factory (or the first kernel).
std::vector<ir::Program> Parser::build_jit_programs(const Container& c) {
  if (c.jit_funcs.empty()) return {};
  std::vector<Signature> sigs;
  std::vector<ir::Function> bodies;
  bool ok = parse_functions(c.jit_funcs, c, false, sigs, bodies);
  if (!ok || sigs.empty()) return {};
  std::vector<ir::Function> fns;
  for (const Signature& s : sigs) fns.push_back(s.fn);

  // Call edges from the names each body mentions (a call or a function passed to pl.spmd_submit).
  size_t n = sigs.size();
  std::vector<std::vector<size_t>> edges(n);
  for (size_t i = 0; i < n; ++i)
    for (const std::string& name : names_mentioned(sigs[i].body_pos, sigs[i].body_end))
      for (size_t j = 0; j < n; ++j)
        if (j != i && fns[j]->name == name) edges[i].push_back(j);
  std::vector<size_t> roots;
  for (ir::FunctionKind k : {ir::FunctionKind::Host, ir::FunctionKind::Orchestration}) {
    for (size_t i = 0; i < n; ++i)
      if (fns[i]->kind == k) roots.push_back(i);
    if (!roots.empty()) break;
  }
  std::vector<ir::Program> programs;
  if (roots.empty()) {
    std::string name = c.factory_name.empty() ? fns[0]->name : c.factory_name;
    programs.push_back(make_program(name, ir::ProgramStyle::Jit, c, bodies, fns[0]->span));
    return programs;
  }
  for (size_t r : roots) {
    std::vector<bool> reached(n, false);
    std::vector<size_t> work{r};
    reached[r] = true;
    while (!work.empty()) {
      size_t i = work.back();
      work.pop_back();
      for (size_t j : edges[i])
        if (!reached[j]) {
          reached[j] = true;
          work.push_back(j);
        }
    }
    std::set<std::string> member_names;
    for (size_t i = 0; i < n; ++i)
      if (reached[i]) member_names.insert(fns[i]->name);
    // A function a pl.at scope outlined belongs where the function it came from does.
    auto is_member = [&](std::string name) {
      for (;;) {
        if (member_names.count(name)) return true;
        auto it = outlined_parent_.find(name);
        if (it == outlined_parent_.end()) return false;
        name = it->second;
      }
    };
    std::vector<ir::Function> members;
    for (const ir::Function& b : bodies)
      if (is_member(b->name)) members.push_back(b);
    programs.push_back(
        make_program(fns[r]->name, ir::ProgramStyle::Jit, c, std::move(members), fns[r]->span));
  }
  return programs;
}

}  // namespace ptodist::frontend
