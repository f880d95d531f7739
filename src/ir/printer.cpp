// Prints modules, programs, functions and statements in the kernel language's own syntax, so that a dump
// parses again to the same IR (print(parse(print(m))) == print(m)).
#include "ptodist/ir/printer.h"

#include <set>

#include "printer_internal.h"

namespace ptodist::ir {

namespace {

using detail::AtScopeSites;
using detail::ExprPrinter;
using detail::kPrecIfExp;
using detail::kPrecTop;

// Signatures longer than this are printed one parameter per line.
constexpr size_t kLineLimit = 110;

std::string pad(int indent) {
  return std::string(4 * indent, ' ');
}

const char* loop_name(LoopKind k) {
  switch (k) {
    case LoopKind::Range:
      return "pl.range";
    case LoopKind::Parallel:
      return "pl.parallel";
    case LoopKind::Unroll:
      return "pl.unroll";
    case LoopKind::Pipeline:
      return "pl.pipeline";
    case LoopKind::SplitAiv:
      return "pl.split_aiv";
  }
  return "pl.range";
}

bool is_int(const Expr& e, long long v) {
  auto c = e ? e->as<IntImm>() : nullptr;
  return c && c->value == v;
}

class StmtPrinter {
 public:
  explicit StmtPrinter(const ExprPrinter& ep, const AtScopeSites* sites = nullptr) : ep_(ep), sites_(sites) {}

  void block(const Block& b, int indent, std::string& out) const {
    if (b.empty()) out += pad(indent) + "pass\n";
    for (const Stmt& s : b) stmt(s, indent, out);
  }

  void stmt(const Stmt& s, int indent, std::string& out) const {
    if (!s) return;
    if (auto it = sites_ ? sites_->find(s.get()) : AtScopeSites::const_iterator();
        sites_ && it != sites_->end()) {
      at_scope(it->second, indent, out);
      return;
    }
    switch (s->kind) {
      case StmtKind::Assign: {
        auto a = s->as<Assign>();
        line(assign_target(*a) + " = ", a->value, indent, out);
        break;
      }
      case StmtKind::ExprStmt:
        line("", s->as<ExprStmt>()->value, indent, out);
        break;
      case StmtKind::For:
        loop(*s->as<For>(), indent, out);
        break;
      case StmtKind::While:
        out += pad(indent) + "while " + ep_.expr(s->as<While>()->cond, kPrecTop) + ":\n";
        block(s->as<While>()->body, indent + 1, out);
        break;
      case StmtKind::If:
        if_chain(*s->as<If>(), indent, "if ", out);
        break;
      case StmtKind::ManualScope:
        out += pad(indent) + "with pl.manual_scope():\n";
        block(s->as<ManualScope>()->body, indent + 1, out);
        break;
      case StmtKind::Return:
        out += pad(indent) + ret(*s->as<Return>()) + "\n";
        break;
      case StmtKind::Pass:
        out += pad(indent) + "pass\n";
        break;
    }
  }

 private:
  std::string assign_target(const Assign& a) const {
    std::string lhs;
    for (size_t i = 0; i < a.targets.size(); ++i)
      lhs += (i ? ", " : "") + (a.targets[i] ? a.targets[i]->name : "_");
    if (a.targets.empty()) lhs = "_";
    if (a.annotation && a.targets.size() == 1) lhs += ": " + ep_.type(a.annotation);
    return lhs;
  }

  // `prefix + value` on one line; a call too long for it gets its arguments on the next line(s).
  void line(const std::string& prefix, const Expr& value, int indent, std::string& out) const {
    std::string text = pad(indent) + prefix + ep_.expr(value, kPrecTop);
    std::string callee;
    std::vector<std::string> args;
    if (text.size() <= kLineLimit || !ep_.call_parts(value, callee, args) || args.empty()) {
      out += text + "\n";
      return;
    }
    out += pad(indent) + prefix + callee + "(\n";
    std::string joined;
    for (size_t i = 0; i < args.size(); ++i) joined += (i ? ", " : "") + args[i];
    if (pad(indent + 1).size() + joined.size() <= kLineLimit) {
      out += pad(indent + 1) + joined + "\n";
    } else {
      for (const std::string& a : args) out += pad(indent + 1) + a + ",\n";
    }
    out += pad(indent) + ")\n";
  }

  std::string ret(const Return& r) const {
    std::string out = "return";
    for (size_t i = 0; i < r.values.size(); ++i) out += (i ? ", " : " ") + ep_.expr(r.values[i], kPrecIfExp);
    return out;
  }

  // `pl.range(n)` when the loop starts at 0 with step 1, else the explicit start/stop[/step].
  std::string loop_header(const For& f) const {
    std::string args;
    bool default_start = !f.start || is_int(f.start, 0);
    bool default_step = !f.step || is_int(f.step, 1);
    if (default_start && default_step) {
      args = ep_.expr(f.stop, kPrecIfExp);
    } else {
      args =
          (f.start ? ep_.expr(f.start, kPrecIfExp) : std::string("0")) + ", " + ep_.expr(f.stop, kPrecIfExp);
      if (!default_step) args += ", " + ep_.expr(f.step, kPrecIfExp);
    }
    if (f.stage) args += ", stage=" + ep_.expr(f.stage, kPrecIfExp);
    if (f.loop_kind == LoopKind::SplitAiv)
      args += std::string(", mode=pl.SplitMode.") + (f.split_mode == 1   ? "UP_DOWN"
                                                     : f.split_mode == 2 ? "LEFT_RIGHT"
                                                                         : "NONE");
    return std::string(loop_name(f.loop_kind)) + "(" + args + ")";
  }

  void loop(const For& f, int indent, std::string& out) const {
    std::string iv = f.iv ? f.iv->name : "_";
    out += pad(indent) + "for " + iv + " in " + loop_header(f) + ":\n";
    block(f.body, indent + 1, out);
  }

  // An If alone in an else block prints as `elif`, which is how the parser builds it back.
  void if_chain(const If& s, int indent, const char* keyword, std::string& out) const {
    out += pad(indent) + keyword + ep_.expr(s.cond, kPrecTop) + ":\n";
    block(s.then_body, indent + 1, out);
    if (s.else_body.empty()) return;
    if (s.else_body.size() == 1 && s.else_body[0] && s.else_body[0]->isa<If>()) {
      if_chain(*s.else_body[0]->as<If>(), indent, "elif ", out);
      return;
    }
    out += pad(indent) + "else:\n";
    block(s.else_body, indent + 1, out);
  }

  // The scope the parser outlined: its body without the `return` that hands results to the caller
  // (the names it binds are the caller's after the scope, as in the source).
  void at_scope(const detail::AtScopeSite& site, int indent, std::string& out) const {
    out += pad(indent) +
           "with pl.at(level=pl.Level.CORE_GROUP, name_hint=" + detail::string_literal(site.fn->name);
    if (site.deps) out += ", deps=" + ep_.expr(site.deps, kPrecIfExp);
    out += std::string(")") + (site.tid ? " as " + site.tid->name : "") + ":\n";
    Block body = site.fn->body;
    if (!body.empty() && body.back() && body.back()->isa<Return>()) body.pop_back();
    block(body, indent + 1, out);
  }

  const ExprPrinter& ep_;
  const AtScopeSites* sites_;
};

std::string docstring_literal(const std::string& doc) {
  std::string body;
  // Escapes only what would end or break the triple-quoted string.
  for (size_t i = 0; i < doc.size(); ++i) {
    if (doc[i] == '\\')
      body += "\\\\";
    else if (doc.compare(i, 3, "\"\"\"") == 0) {
      body += "\\\"\"\"";
      i += 2;
    } else
      body += doc[i];
  }
  if (!body.empty() && body.back() == '"') body.insert(body.size() - 1, "\\");
  return "\"\"\"" + body + "\"\"\"";
}

std::string decorator(FunctionKind kind, ProgramStyle style) {
  if (style == ProgramStyle::Jit) {
    switch (kind) {
      case FunctionKind::InCore:
        return "@pl.jit.incore";
      case FunctionKind::AIC:
        return "@pl.jit.incore(type=pl.FunctionType.AIC)";
      case FunctionKind::AIV:
        return "@pl.jit.incore(type=pl.FunctionType.AIV)";
      case FunctionKind::Orchestration:
        return "@pl.jit";
      case FunctionKind::Host:
        return "@pl.jit.host";
      case FunctionKind::Group:
        break;  // no jit spelling: printed as the class style's decorator
    }
  }
  if (kind == FunctionKind::Host) return "@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)";
  return "@pl.function(type=pl.FunctionType." + std::string(function_kind_name(kind)) + ")";
}

void function_text(const ExprPrinter& ep, const FunctionNode& f, ProgramStyle style, int indent,
                   std::string& out, const AtScopeSites* sites = nullptr) {
  out += pad(indent) + decorator(f.kind, style) + "\n";
  std::vector<std::string> params;
  if (style == ProgramStyle::Class) params.push_back("self");
  for (const Param& p : f.params)
    params.push_back((p.var ? p.var->name : "_") + ": " +
                     ep.annotated_param_type(p.var ? p.var->type : nullptr, p.direction));
  std::string ret = f.return_types.empty() ? "" : " -> " + ep.return_annotation(f.return_types);
  std::string one_line;
  for (size_t i = 0; i < params.size(); ++i) one_line += (i ? ", " : "") + params[i];
  std::string head = pad(indent) + "def " + f.name + "(";
  if (head.size() + one_line.size() + ret.size() + 2 <= kLineLimit) {
    out += head + one_line + ")" + ret + ":\n";
  } else {
    // One parameter per line with a trailing comma, as the examples (and Black) write long signatures.
    out += head + "\n";
    for (const std::string& p : params) out += pad(indent + 1) + p + ",\n";
    out += pad(indent) + ")" + ret + ":\n";
  }
  if (!f.docstring.empty()) out += pad(indent + 1) + docstring_literal(f.docstring) + "\n";
  StmtPrinter sp(ep, sites);
  if (f.docstring.empty() || !f.body.empty()) sp.block(f.body, indent + 1, out);
}

// A constant `NR = pl.dynamic("NR")` defines the name the dims print as, so its own value is printed
// with a printer that does not use that name.
void constant_text(const ExprPrinter& ep, const Constant& c, int indent, std::string& out) {
  const bool defines_dim = c.value && c.value->as<Dynamic>();
  out += pad(indent) + (c.var ? c.var->name : "_") + " = " +
         (defines_dim ? ExprPrinter() : ep).expr(c.value) + "\n";
}

// Top-level jit functions already printed: two jit programs of one file may share a kernel, which the
// file defines once.
using PrintedNames = std::set<std::string>;

// The program's class or jit functions, at `indent` (1 inside a factory).
void program_body(const ExprPrinter& ep, const ProgramNode& p, int indent, PrintedNames* top_level,
                  std::string& out) {
  const AtScopeSites sites = detail::waiter_scope_sites(p);
  std::set<const FunctionNode*> inlined;  // printed at their call site as the pl.at scope
  for (const auto& [stmt, site] : sites) inlined.insert(site.fn);
  const bool class_style = p.style == ProgramStyle::Class;
  if (class_style) {
    out += pad(indent) + "@pl.program\n" + pad(indent) + "class " + p.name + ":\n";
    if (p.functions.empty()) out += pad(indent + 1) + "pass\n";
  }
  const std::string gap = class_style || indent != 0 ? "\n" : "\n\n";
  bool first = true;
  for (const Function& f : p.functions) {
    if (!f || inlined.count(f.get())) continue;
    if (!class_style && top_level && !top_level->insert(f->name).second) continue;
    if (!first) out += gap;
    first = false;
    function_text(ep, *f, p.style, class_style ? indent + 1 : indent, out, &sites);
  }
}

void program_text(const ExprPrinter& ep, const ProgramNode& p, PrintedNames* top_level, std::string& out) {
  if (p.factory_name.empty()) {
    program_body(ep, p, 0, top_level, out);
    return;
  }
  std::string params;
  for (const FactoryParam& fp : p.factory_params) {
    if (!params.empty()) params += ", ";
    params += fp.var ? fp.var->name : "_";
    if (fp.default_value) params += "=" + ep.expr(fp.default_value, kPrecIfExp);
  }
  if (p.factory_name.size() + params.size() + 7 <= kLineLimit) {
    out += "def " + p.factory_name + "(" + params + "):\n";
  } else {
    out += "def " + p.factory_name + "(\n" + pad(1) + params + ",\n):\n";
  }
  for (const Constant& c : p.factory_constants) constant_text(ep, c, 1, out);
  if (!p.factory_constants.empty()) out += "\n";
  program_body(ep, p, 1, nullptr, out);
  out += "\n" + pad(1) + "return " + p.name + "\n";
}

ExprPrinter printer_for(const std::vector<Constant>& constants) {
  ExprPrinter ep;
  for (const Constant& c : constants) {
    auto d = c.value ? c.value->as<Dynamic>() : nullptr;
    if (d && c.var && c.var->name == d->name) ep.bind_dynamic_name(d->name);
  }
  return ep;
}

}  // namespace

std::string print_module(const Module& m) {
  std::string out = "import pypto.language as pl\nimport pypto.language.distributed as pld\n";
  if (!m) return out;
  ExprPrinter ep = printer_for(m->constants);
  if (!m->constants.empty()) out += "\n";
  for (const Constant& c : m->constants) constant_text(ep, c, 0, out);
  PrintedNames top_level;
  for (const Program& p : m->programs) {
    if (!p) continue;
    out += "\n\n";
    program_text(ep, *p, &top_level, out);
  }
  return out;
}

std::string print_program(const Program& p) {
  std::string out;
  PrintedNames top_level;
  if (p) program_text(ExprPrinter(), *p, &top_level, out);
  return out;
}

std::string print_function(const Function& f) {
  std::string out;
  if (f) function_text(ExprPrinter(), *f, ProgramStyle::Class, 0, out);
  return out;
}

std::string print_expr(const Expr& e) {
  return ExprPrinter().expr(e);
}

std::string print_stmt(const Stmt& s, int indent) {
  std::string out;
  ExprPrinter ep;
  StmtPrinter(ep).stmt(s, indent, out);
  return out;
}

}  // namespace ptodist::ir
