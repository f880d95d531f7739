// Module-level scanning: imports, constants, @pl.program classes, @pl.jit functions and program
// factories are recorded; everything else (host code, helpers, `if __name__ == "__main__":`) is
// skipped by indentation without parsing its body.
#include <algorithm>

#include "parser_impl.h"

namespace ptodist::frontend {

namespace {

bool is_jit_path(const std::string& p) {
  return p == "pl.jit" || p.rfind("pl.jit.", 0) == 0 || p == "pl.inline";
}

}  // namespace

Container* Parser::new_container() {
  containers_.push_back(std::make_unique<Container>());
  return containers_.back().get();
}

void Parser::scan_module() {
  Container* module = new_container();
  while (peek().kind != TokenKind::End) {
    size_t start = pos_;
    try {
      scan_statement(*module);
    } catch (const SyntaxAbort&) {
      skip_statement();
    }
    if (pos_ == start) advance();
  }
}

// One statement of the module or of a factory body (c.parent is set for a factory).
void Parser::scan_statement(Container& c) {
  const Token& t = peek();
  bool in_factory = c.parent != nullptr;
  if (t.kind == TokenKind::Newline || t.kind == TokenKind::Dedent) {
    advance();
  } else if (t.kind == TokenKind::Indent) {
    error(t.span, "unexpected indent");
    skip_block();
  } else if (at_keyword("import")) {
    scan_import();
  } else if (at_keyword("from")) {
    scan_from_import(c);
  } else if (at_op("@")) {
    scan_decorated(c);
  } else if (at_keyword("def") && !in_factory) {
    scan_factory(c);
  } else if (t.kind == TokenKind::Name && !is_keyword(t.text) &&
             (at_op("=", 1) || at_op(":", 1) || at_op(",", 1))) {
    try_constant_assignment(c, c.constants);
  } else if (at_keyword("if") && try_constant_if(c)) {
    // constants chosen by a constant condition
  } else {
    size_t begin = pos_;
    skip_statement();
    record_host_names(c, begin, pos_);
  }
}

// `@pl.function(..., role=pl.Role.SubWorker)`.
bool Parser::is_sub_worker(const SynExpr& decorator) const {
  if (decorator.kind != SynKind::Call || decorator_path(decorator) != "pl.function") return false;
  for (size_t i = 1; i < decorator.items.size(); ++i)
    if (decorator.items[i]->keyword == "role" &&
        canonical(*decorator.items[i]).value_or("") == "pl.Role.SubWorker")
      return true;
  return false;
}

namespace {

bool at_statement_start(const std::vector<Token>& tokens, size_t i, size_t begin) {
  if (i == begin) return true;
  const Token& prev = tokens[i - 1];
  return prev.kind == TokenKind::Newline || prev.kind == TokenKind::Indent ||
         prev.kind == TokenKind::Dedent || (prev.kind == TokenKind::Op && prev.text == ";");
}

}  // namespace

// Records the names that the host Python statements in [begin, end) bind (assignment targets, defs,
// classes), without descending into def or class bodies, whose names are their own.
void Parser::record_host_names(Container& c, size_t begin, size_t end) {
  for (size_t i = begin; i < end && i < tokens_.size(); ++i) {
    if (!at_statement_start(tokens_, i, begin) || tokens_[i].kind != TokenKind::Name) continue;
    const Token& t = tokens_[i];
    if ((t.text == "def" || t.text == "class") && i + 1 < end && tokens_[i + 1].kind == TokenKind::Name) {
      std::string what = t.text == "def" ? "is a host Python function" : "is a host Python class";
      c.host_names.emplace(tokens_[i + 1].text, HostName{tokens_[i + 1].span, what});
      i = skip_suite_from(i) - 1;
      continue;
    }
    // `a = ...`, `a: T = ...`, `a += ...`, `a, b = ...`: every name before the first '=' or ':'.
    std::vector<size_t> names;
    size_t j = i;
    for (; j < end && tokens_[j].kind == TokenKind::Name && !is_keyword(tokens_[j].text); j += 2) {
      names.push_back(j);
      if (j + 1 >= end || tokens_[j + 1].kind != TokenKind::Op || tokens_[j + 1].text != ",") break;
    }
    if (names.empty() || j + 1 >= end || tokens_[j + 1].kind != TokenKind::Op) continue;
    const std::string& op = tokens_[j + 1].text;
    bool assigns =
        op == "=" || op == ":" ||
        (op.size() >= 2 && op.back() == '=' && op != "==" && op != "!=" && op != "<=" && op != ">=");
    if (!assigns) continue;
    for (size_t n : names)
      c.host_names.emplace(tokens_[n].text, HostName{tokens_[n].span, "is assigned by host Python"});
  }
}

std::string Parser::scan_dotted_name(const std::string& what) {
  std::string path = expect_name("expected a module name after '" + what + "'").text;
  while (accept_op(".")) path += "." + expect_name("expected a name after '.'").text;
  return path;
}

// `import a.b.c` binds `a`; `import a.b.c as x` binds x to a.b.c.
void Parser::scan_import() {
  advance();
  do {
    SourceSpan span = peek().span;
    std::string path = scan_dotted_name("import");
    if (at_keyword("as")) {
      advance();
      bind_import(expect_name("expected a name after 'as'").text, path, span);
    } else {
      std::string root = path.substr(0, path.find('.'));
      bind_import(root, root, span);
    }
  } while (accept_op(","));
  expect_line_end("import");
}

// `from a.b import c [as d]`: binds d (or c) to a.b.c. A module that is a file beside this one (or a
// relative `from .x import`) is loaded: its constants and @pl.jit functions are imported (imports.cpp).
void Parser::scan_from_import(Container& c) {
  SourceSpan begin = advance().span;
  int level = 0;
  for (; at_op(".") || at_op("..."); advance()) level += static_cast<int>(peek().text.size());
  std::string module = at_keyword("import") && level > 0 ? "" : scan_dotted_name("from");
  if (!at_keyword("import")) fail(peek().span, "expected 'import' after 'from " + module + "'");
  advance();
  if (accept_op("*")) return expect_line_end("import");
  bool paren = accept_op("(");
  std::vector<ImportedName> names;
  do {
    if (paren && at_op(")")) break;
    const Token& name = expect_name("expected a name to import");
    ImportedName n{name.text, name.text, name.span};
    if (at_keyword("as")) {
      advance();
      n.local = expect_name("expected a name after 'as'").text;
    }
    names.push_back(n);
  } while (accept_op(","));
  if (paren) expect_op(")", "expected ')' to close the import list");
  expect_line_end("import");
  if (module == "__future__") return;
  if (level == 0 && canonical(module)) {
    for (const ImportedName& n : names) bind_import(n.local, module + "." + n.name, n.span);
    return;
  }
  import_sibling(c, module, level, names, span_to_prev(begin));
}

// `@decorator` lines; a decorator that is not an expression (host code) is dropped silently.
std::vector<SynExprP> Parser::parse_decorators() {
  std::vector<SynExprP> decorators;
  while (at_op("@")) {
    advance();
    size_t start = pos_;
    SynExprP d;
    bool ok = speculate([&] {
      d = parse_expr();
      if (peek().kind != TokenKind::Newline) fail(peek().span, "");
      advance();
    });
    if (ok) {
      decorators.push_back(d);
    } else {
      pos_ = start;
      while (peek().kind != TokenKind::Newline && peek().kind != TokenKind::End) advance();
      if (peek().kind == TokenKind::Newline) advance();
    }
  }
  return decorators;
}

void Parser::scan_decorated(Container& c) {
  std::vector<SynExprP> decorators = parse_decorators();
  bool program = false, jit = false;
  for (const SynExprP& d : decorators) {
    std::string path = decorator_path(*d);
    program = program || path == "pl.program";
    jit = jit || is_jit_path(path);
  }
  if (at_keyword("class") && program) return scan_class(c, std::move(decorators));
  bool function = false;
  for (const SynExprP& d : decorators) function = function || decorator_path(*d) == "pl.function";
  if (at_keyword("def") && function && !jit) {
    // A kernel outside any class: the programs whose methods call it by name take it
    // (external_functions.cpp).
    FuncDecl d{std::move(decorators), pos_, peek(1).text, peek(1).span, &c};
    d.external = true;
    c.external_funcs.push_back(std::move(d));
    return skip_statement();
  }
  if (at_keyword("def") && jit) {
    FuncDecl d;
    d.decorators = std::move(decorators);
    d.def_pos = pos_;
    d.name = peek(1).text;
    d.span = peek(1).span;
    c.jit_funcs.push_back(std::move(d));
    return skip_statement();
  }
  // A decorated top-level def may still be a factory (`@functools.cache def make_program(...)`).
  if (at_keyword("def") && c.parent == nullptr) return scan_factory(c);
  size_t begin = pos_;
  skip_statement();
  record_host_names(c, begin, pos_);
}

void Parser::scan_class(Container& c, std::vector<SynExprP> decorators) {
  advance();  // 'class'
  ClassDecl cls;
  const Token& name = expect_name("expected a class name after 'class'");
  cls.name = name.text;
  cls.span = name.span;
  cls.pos = pos_;
  if (accept_op("(")) {
    while (!at_op(")") && !at_line_end()) advance();
    expect_op(")", "expected ')' after the base classes of '" + cls.name + "'");
  }
  expect_op(":", "expected ':' after class header");
  if (peek().kind != TokenKind::Newline) {
    skip_statement();
  } else if (advance(), peek().kind != TokenKind::Indent) {
    error(peek().span, "expected an indented block after class header");
  } else {
    advance();
    while (peek().kind != TokenKind::Dedent && peek().kind != TokenKind::End) {
      size_t start = pos_;
      try {
        if (at_op("@")) {
          std::vector<SynExprP> decs = parse_decorators();
          bool function = false, sub_worker = false;
          for (const SynExprP& d : decs) {
            function = function || decorator_path(*d) == "pl.function";
            sub_worker = sub_worker || is_sub_worker(*d);
          }
          // A SubWorker's body is host Python (torch calls, no self): the Python entry point runs
          // it as a host callback; from the command line a call of it is reported.
          if (sub_worker && host_callbacks_ && at_keyword("def"))
            cls.methods.push_back(FuncDecl{decs, pos_, peek(1).text, peek(1).span, nullptr, true});
          else if (sub_worker && at_keyword("def"))
            c.host_names.emplace(
                peek(1).text,
                HostName{peek(1).span, "is a pl.Role.SubWorker method, whose body is host Python"});
          else if (function && at_keyword("def"))
            cls.methods.push_back(FuncDecl{decs, pos_, peek(1).text, peek(1).span});
          skip_statement();
        } else if (at_keyword("def") || at_keyword("pass") ||
                   (peek().kind == TokenKind::String && peek(1).kind == TokenKind::Newline)) {
          skip_statement();  // helper methods without @pl.function, docstrings
        } else if (peek().kind == TokenKind::Indent) {
          error(peek().span, "unexpected indent");
          skip_block();
        } else {
          error(peek().span, "unsupported statement in @pl.program class '" + cls.name +
                                 "'; expected methods decorated with @pl.function");
          skip_statement();
        }
      } catch (const SyntaxAbort&) {
        skip_statement();
      }
      if (pos_ == start) advance();
    }
    if (peek().kind == TokenKind::Dedent) advance();
  }
  c.classes.push_back(std::move(cls));
}

// Whether a decorator line inside [begin, end) names @pl.program or @pl.jit*, through the aliases.
bool Parser::body_declares_program(size_t begin, size_t end) const {
  for (size_t i = begin; i < end && i + 1 < tokens_.size(); ++i) {
    const Token& t = tokens_[i];
    if (t.kind != TokenKind::Op || t.text != "@") continue;
    TokenKind prev = i == 0 ? TokenKind::Newline : tokens_[i - 1].kind;
    if (prev != TokenKind::Newline && prev != TokenKind::Indent && prev != TokenKind::Dedent) continue;
    std::string path;
    for (size_t j = i + 1; j < end && tokens_[j].kind == TokenKind::Name; j += 2) {
      path += tokens_[j].text;
      if (j + 1 >= end || tokens_[j + 1].kind != TokenKind::Op || tokens_[j + 1].text != ".") break;
      path += ".";
    }
    std::string c = canonical(path).value_or("");
    if (c == "pl.program" || is_jit_path(c)) return true;
  }
  return false;
}

// A top-level def: a program factory when its body declares programs, otherwise skipped unparsed.
void Parser::scan_factory(Container& module) {
  size_t end = skip_suite_from(pos_);
  // The factory a Python-bound range indented in a function is kept in (bound_source.h) may hold
  // only @pl.function kernels, built by a Python kernel factory: their names are the module's.
  bool wrapper = peek(1).kind == TokenKind::Name && peek(1).text == kWrapperFactory;
  if (!wrapper && !body_declares_program(pos_, end)) {
    record_host_names(module, pos_, end);
    return skip_statement();
  }
  Container* f = new_container();
  f->parent = &module;
  advance();  // 'def'
  const Token& name = expect_name("expected a function name after 'def'");
  f->factory_name = name.text;
  f->span = name.span;
  scan_factory_params(*f);
  if (accept_op("->")) parse_expr();
  expect_op(":", "expected ':' after the header of factory '" + f->factory_name + "'");
  if (peek().kind != TokenKind::Newline) return skip_statement();
  advance();
  if (peek().kind != TokenKind::Indent) {
    error(peek().span, "expected an indented block after the header of factory '" + f->factory_name + "'");
    return;
  }
  advance();
  while (peek().kind != TokenKind::Dedent && peek().kind != TokenKind::End) {
    size_t start = pos_;
    try {
      scan_statement(*f);  // `return ClassName`, validation `if`s and the like are skipped
    } catch (const SyntaxAbort&) {
      skip_statement();
    }
    if (pos_ == start) advance();
  }
  if (peek().kind == TokenKind::Dedent) advance();
  if (wrapper) {
    std::vector<FuncDecl>& kernels = module.external_funcs;
    kernels.insert(kernels.end(), f->external_funcs.begin(), f->external_funcs.end());
  }
}

// `(n_ranks, size, *, dtype=pl.FP32, tag=None)`: parameters with any Python default. The markers `*`
// and `/` only say how Python callers may pass arguments; the CLI binds by name either way. A default
// the command line cannot evaluate leaves the parameter without one: binding it needs -D, and a
// kernel that reads it gets an error that says why.
void Parser::scan_factory_params(Container& f) {
  expect_op("(", "expected '(' after the name of factory '" + f.factory_name + "'");
  while (!at_op(")")) {
    if ((at_op("*") || at_op("/")) && (at_op(",", 1) || at_op(")", 1))) {
      advance();
      if (!accept_op(",")) break;
      continue;
    }
    if (at_op("*") || at_op("**")) {
      std::string star = advance().text;
      const Token& p = expect_name("expected a parameter name after '" + star + "'");
      f.host_names[p.text] = HostName{p.span, "is the '" + star + "' parameter of factory '" +
                                                  f.factory_name + "', which only a Python caller can fill"};
      if (accept_op(":")) parse_expr();
      if (!accept_op(",")) break;
      continue;
    }
    const Token& p = expect_name("expected a parameter name in factory '" + f.factory_name + "'");
    std::string pname = p.text;
    SourceSpan pspan = p.span;
    if (accept_op(":")) parse_expr();  // Python annotations of factory parameters carry no meaning here
    ir::Expr default_value;
    bool opaque_default = false;
    if (accept_op("=")) {
      SynExprP d = parse_expr();
      default_value = try_constant(*d, f);
      opaque_default = !default_value;
    }
    if (ir::Expr bound = constant_define(pname, pspan, default_value, f.factory_name)) {
      default_value = bound;
      opaque_default = false;
    }
    if (f.scope.count(pname) || f.host_names.count(pname))
      error(pspan, "duplicate parameter '" + pname + "' of factory '" + f.factory_name + "'");
    bool numeric = default_value && default_value->type && default_value->type->kind == ir::TypeKind::Scalar;
    if (constant_defines_ && default_value && !numeric && !takes(default_value).empty())
      constant_defines_->non_integer[pname] =
          "parameter '" + pname + "' of factory '" + f.factory_name + "' takes " + takes(default_value);
    else if (constant_defines_)
      constant_defines_->integer.insert(pname);
    if (opaque_default) {
      f.host_names[pname] = HostName{
          pspan, "is a parameter of factory '" + f.factory_name + "' whose default value is not a constant"};
    } else if (default_value && !numeric) {
      // A dtype, enum, string, None or tuple default cannot come from -D (integers only): the
      // parameter is a constant of the factory, usable where a constant of that kind is (a dtype in a type).
      ir::Var v = b_->make_var(pname, default_value->type, pspan);
      f.constants.push_back(ir::Constant{v, default_value});
      f.scope[pname] = Binding{Binding::Kind::Constant, v, default_value};
    } else {
      ir::Type type = numeric ? default_value->type : ir::scalar_type(ir::DType::INT64);
      ir::Var v = b_->make_var(pname, type, pspan);
      f.params.push_back(ir::FactoryParam{v, default_value});
      f.scope[pname] = Binding{Binding::Kind::FactoryParam, v, nullptr};
    }
    if (!accept_op(",")) break;
  }
  expect_op(")", "expected ',' or ')' in the parameters of factory '" + f.factory_name + "'");
}

// The value a `-D name=pld.ReduceOp.Max` / `-D name=pl.FP16` gives a factory parameter, or null.
ir::Expr Parser::constant_define(const std::string& name, const SourceSpan& span,
                                 const ir::Expr& default_value, const std::string& factory) {
  if (!constant_defines_) return nullptr;
  auto it = constant_defines_->values.find(name);
  if (it == constant_defines_->values.end()) return nullptr;
  constant_defines_->used.insert(name);
  bool matched = false;
  ir::Expr v = lower_enum_or_dtype(it->second, span, &matched);
  if (!matched)
    error(span,
          "-D " + name + "=" + it->second +
              ": expected an integer, a dtype such as pl.FP16 or an enum member such as pld.ReduceOp.Max");
  // The value must be of the default's kind: a dtype where the default is an integer would make
  // every shape that uses the parameter fail far from the cause.
  std::string want = default_value ? takes(default_value) : "";
  if (v && !want.empty() && want != takes(v)) {
    if (constant_defines_->error.empty())
      constant_defines_->error = "-D " + name + "=" + it->second + ": parameter '" + name + "' of factory '" +
                                 factory + "' takes " + want + ", got " + takes(v);
    return nullptr;
  }
  return v;
}

// `NAME = <constant expression>` or `A, B = <e1>, <e2>` (a tuple of as many constant expressions,
// all evaluated before any name is bound, as Python does): recorded as constants; anything else
// (host code) is skipped silently.
bool Parser::try_constant_assignment(Container& c, std::vector<ir::Constant>& out) {
  size_t start = pos_;
  std::vector<const Token*> names{&advance()};
  SynExprP value;
  bool ok = speculate([&] {
    while (names.size() > 1 || at_op(",")) {
      if (!accept_op(",") || at_op("=")) break;
      names.push_back(&expect_name(""));
    }
    if (names.size() == 1 && accept_op(":")) parse_expr();
    if (!accept_op("=")) fail(peek().span, "");
    value = parse_testlist();
    if (peek().kind != TokenKind::Newline && peek().kind != TokenKind::End) fail(peek().span, "");
  });
  std::vector<ir::Expr> values;
  if (ok && names.size() == 1) values.push_back(try_constant(*value, c));
  if (ok && names.size() > 1 && value->kind == SynKind::Tuple && value->items.size() == names.size())
    for (const SynExprP& item : value->items) values.push_back(try_constant(*item, c));
  if (values.empty() || std::count(values.begin(), values.end(), nullptr) > 0) {
    pos_ = start;
    skip_statement();
    for (const Token* n : names)
      c.host_names.emplace(n->text,
                           HostName{n->span, "is assigned a value that is not a constant expression"});
    record_host_names(c, start, pos_);  // `a = 1; b = f()` binds b too
    return false;
  }
  if (peek().kind == TokenKind::Newline) advance();
  for (size_t i = 0; i < names.size(); ++i) {
    ir::Var var = b_->make_var(names[i]->text, values[i]->type, names[i]->span);
    out.push_back(ir::Constant{var, values[i]});
    c.scope[names[i]->text] = Binding{Binding::Kind::Constant, var, values[i]};
  }
  return true;
}

}  // namespace ptodist::frontend

namespace ptodist::frontend {

// `if c: NAME = a` [`elif d: NAME = b`] `else: NAME = e` in a module or factory body, where every branch
// holds only constant assignments (and `pass`): each NAME assigned in every branch becomes the constant
// `a if c else (b if d else e)`, folded once factory parameters are bound. Anything else (a validation
// `raise`, host code) leaves the statement to be skipped; false then, with the cursor unmoved.
bool Parser::try_constant_if(Container& c) {
  size_t start = pos_;
  struct Branch {
    ir::Expr cond;  // null for else
    std::map<std::string, std::pair<ir::Expr, SourceSpan>> values;
  };
  std::vector<Branch> branches;
  // A branch may use what it assigned earlier (`alignment = ...` then `cols = f(alignment)`): each
  // assignment is a constant of its own, visible to the rest of its branch only.
  std::vector<ir::Constant> steps;
  ScopeMap saved_scope = c.scope;
  bool ok = speculate([&] {
    for (bool first = true; first || at_keyword("elif") || at_keyword("else"); first = false) {
      Branch b;
      bool is_else = at_keyword("else");
      advance();
      if (!is_else && !(b.cond = try_constant(*parse_expr(), c))) fail(peek().span, "");
      expect_op(":", "");
      if (peek().kind != TokenKind::Newline) fail(peek().span, "");
      advance();
      if (peek().kind != TokenKind::Indent) fail(peek().span, "");
      advance();
      while (peek().kind != TokenKind::Dedent && peek().kind != TokenKind::End) {
        if (at_keyword("pass")) {
          advance();
        } else {
          const Token& name = expect_name("");
          std::string n = name.text;
          SourceSpan span = name.span;
          expect_op("=", "");
          ir::Expr v = try_constant(*parse_testlist(), c);
          if (!v) fail(span, "");
          b.values[n] = {v, span};
          ir::Var step = b_->make_var(n, v->type, span);
          steps.push_back(ir::Constant{step, v});
          c.scope[n] = Binding{Binding::Kind::Constant, step, v};
        }
        expect_line_end("");
      }
      if (peek().kind == TokenKind::Dedent) advance();
      branches.push_back(std::move(b));
      c.scope = saved_scope;
      if (is_else) break;
    }
  });
  c.scope = saved_scope;
  if (!ok || branches.size() < 2 || branches.back().cond) {
    pos_ = start;
    return false;
  }
  c.constants.insert(c.constants.end(), steps.begin(), steps.end());
  for (const auto& [name, first] : branches.back().values) {
    ir::Expr value = first.first;
    bool everywhere = true;
    for (size_t i = branches.size() - 1; i-- > 0 && everywhere;) {
      auto it = branches[i].values.find(name);
      everywhere = it != branches[i].values.end();
      if (everywhere) value = b_->if_exp(branches[i].cond, it->second.first, value, it->second.second);
    }
    if (!everywhere || !value) continue;
    ir::Var var = b_->make_var(name, value->type, first.second);
    c.constants.push_back(ir::Constant{var, value});
    c.scope[name] = Binding{Binding::Kind::Constant, var, value};
  }
  record_host_names(c, start, pos_);  // names assigned in some branches only
  return true;
}

}  // namespace ptodist::frontend
