// Programs split over several files: `from module import NAME` where `module` is a Python file beside
// the importing one (`module.py` or `module/__init__.py`, dotted paths as folders, `from .x import` and
// `from ..x import` relative to the importing file's folder). The module is lexed into this parser's
// token stream and scanned into a container of its own, so its functions see its own constants; the
// importer gets the named constants and @pl.jit functions (and the module's other kernels and chip
// orchestrators, which those functions may call by name). Any other module is host Python: the names
// it binds are reported where a kernel uses them.
#include <filesystem>

#include "parser_impl.h"
#include "ptodist/frontend/bound_source.h"
#include "ptodist/frontend/parser.h"

namespace ptodist::frontend {

namespace {

namespace fs = std::filesystem;

// The file a module name stands for, from `dir`; "" when there is none.
std::string module_file(fs::path dir, int level, const std::string& module) {
  for (int i = 1; i < level; ++i) dir = dir.parent_path();
  fs::path rel;
  size_t start = 0;
  while (start <= module.size() && !module.empty()) {
    size_t dot = module.find('.', start);
    rel /= module.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  std::error_code ec;
  fs::path file = dir / rel;
  file += ".py";
  if (!module.empty() && fs::is_regular_file(file, ec)) return file.string();
  fs::path package = dir / rel / "__init__.py";
  if (fs::is_regular_file(package, ec)) return package.string();
  return "";
}

std::string spelled(int level, const std::string& module) {
  return std::string(static_cast<size_t>(level), '.') + module;
}

}  // namespace

void Parser::import_sibling(Container& c, const std::string& module, int level,
                            const std::vector<ImportedName>& names, const SourceSpan& span) {
  // Relative to the file that holds the import (an imported module may import further).
  const std::string& importer = span.file ? span.file->path() : file_.path();
  if (auto bound = bound_modules_.find(module); level == 0 && bound != bound_modules_.end()) {
    Container* from = load_bound_module(module, bound->second, span);
    if (!from) return;
    for (const ImportedName& n : names) import_name(c, *from, n, module);
    return;
  }
  fs::path dir = fs::path(importer).parent_path();
  std::string path = sources_ ? module_file(dir, level, module) : "";
  if (path.empty()) {
    if (level > 0)
      error(span, "cannot find module '" + spelled(level, module) + "' beside '" + importer + "'");
    for (const ImportedName& n : names) {
      if (level == 0) bind_import(n.local, module + "." + n.name, n.span);
      c.host_names.emplace(n.local, HostName{n.span, "is imported from module '" + spelled(level, module) +
                                                         "', which is not a kernel file beside this one"});
    }
    return;
  }
  Container* from = load_module(path, span);
  if (!from) return;
  for (const ImportedName& n : names) import_name(c, *from, n, spelled(level, module));
}

// Lexes and scans `path` once; null (after a located error) when it cannot be read or imports itself.
Container* Parser::load_module(const std::string& path, const SourceSpan& span) {
  std::error_code ec;
  std::string key = fs::weakly_canonical(path, ec).string();
  // The file being compiled is "in progress" from the start: importing it back is a cycle, not a copy.
  modules_.emplace(fs::weakly_canonical(file_.path(), ec).string(), nullptr);
  if (auto it = modules_.find(key); it != modules_.end()) {
    if (!it->second) error(span, "module '" + path + "' imports itself through this import");
    return it->second;
  }
  if (modules_.size() >= 64) {
    error(span, "more than 64 kernel modules imported");
    return nullptr;
  }
  std::string why;
  const SourceFile* file = sources_->load(path, &why);
  if (!file) {
    error(span, "cannot read module '" + path + "': " + why);
    return nullptr;
  }
  return scan_module_tokens(lex(*file, *diags_), key);
}

// A file the Python entry point handed over (bound_source.h), imported by its module name.
Container* Parser::load_bound_module(const std::string& module, const BoundFiles& files,
                                     const SourceSpan& span) {
  std::string key = "<bound module>:" + module;
  if (auto it = modules_.find(key); it != modules_.end()) {
    if (!it->second) error(span, "module '" + module + "' imports itself through this import");
    return it->second;
  }
  Container* m = scan_module_tokens(lex_bound_files(files, *diags_, nullptr), key);
  // A jit function Python defined inside a function of that module (hc_pre.py's `_bind_hc_pre()`
  // defines the `hc_pre` the module then binds) sits in a wrapper factory: the module exports it,
  // with the factory as its scope, and the factory builds no program of its own.
  for (const std::unique_ptr<Container>& f : containers_) {
    if (f->parent != m || f->factory_name != kWrapperFactory) continue;
    for (FuncDecl d : f->jit_funcs) {
      d.home = f.get();
      m->jit_funcs.push_back(d);
    }
    f->imported = true;
  }
  return m;
}

// Scans the tokens of an imported module into a container of its own, registered under `key`.
Container* Parser::scan_module_tokens(std::vector<Token> more, const std::string& key) {
  modules_[key] = nullptr;  // in progress: an import cycle finds it so
  size_t begin = tokens_.size();
  tokens_.insert(tokens_.end(), more.begin(), more.end());
  size_t saved = pos_;
  pos_ = begin;
  Container* m = new_container();
  m->imported = true;
  while (peek().kind != TokenKind::End) {
    size_t start = pos_;
    try {
      scan_statement(*m);
    } catch (const SyntaxAbort&) {
      skip_statement();
    }
    if (pos_ == start) advance();
  }
  pos_ = saved;
  // Its constants are bound with the module's, before the importer's constants that use them.
  std::vector<ir::Constant>& module_constants = containers_.front()->constants;
  module_constants.insert(module_constants.end(), m->constants.begin(), m->constants.end());
  for (FuncDecl& d : m->jit_funcs) d.home = m;
  modules_[key] = m;
  return m;
}

void Parser::import_name(Container& c, Container& from, const ImportedName& n, const std::string& module) {
  if (auto it = from.scope.find(n.name); it != from.scope.end()) {
    c.scope[n.local] = it->second;
    return;
  }
  bool found = false;
  for (const FuncDecl& d : from.jit_funcs) found = found || d.name == n.name;
  if (found) {
    if (n.local != n.name)
      error(n.span, "'import " + n.name + " as " + n.local +
                        "' of a @pl.jit function is not supported; import "
                        "it under its own name");
    // The named function and the module's other non-host functions, which it may call by name.
    for (const FuncDecl& d : from.jit_funcs) {
      bool host = false;
      for (const SynExprP& dec : d.decorators) host = host || decorator_path(*dec) == "pl.jit.host";
      bool present = false;
      for (const FuncDecl& e : c.jit_funcs) present = present || (e.home == d.home && e.name == d.name);
      if ((d.name == n.name || !host) && !present) c.jit_funcs.push_back(d);
    }
    return;
  }
  for (const FuncDecl& d : from.external_funcs) {
    if (d.name != n.name) continue;
    c.external_funcs.push_back(d);
    c.external_funcs.back().local = n.local;  // `import k as k2`: called as k2, still the function k
    return;
  }
  if (auto it = from.host_names.find(n.name); it != from.host_names.end()) {
    c.host_names.emplace(
        n.local, HostName{n.span, "is imported from module '" + module + "', where it " + it->second.what +
                                      " (line " + std::to_string(it->second.span.line) + " there)"});
    return;
  }
  error(n.span, "module '" + module + "' has no constant, @pl.jit function or @pl.function '" + n.name + "'");
}

}  // namespace ptodist::frontend
