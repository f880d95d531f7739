// The Python entry point into the frontend (bound_source.h). The interpreter has already evaluated the
// user's module; what it hands over is where the kernels are and what their free names are bound to.
// The bound names become a small module of constants lexed ahead of the user's file, so the parser
// scans them exactly like constants written at the top of a kernel file and every later step (constant
// folding, specialization) treats them the same way.
#include "ptodist/frontend/bound_source.h"

#include <charconv>
#include <cmath>
#include <set>

#include "parser_impl.h"

namespace ptodist::frontend {

namespace {

constexpr std::string_view kBoundNamesPrefix = "<names bound by Python for ";

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (unsigned char c : s) {
    if (c == '\\' || c == '\'') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "'";
}

std::string float_spelling(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, end);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      if (start < text.size()) lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

bool indented(const std::string& line) {
  return !line.empty() && (line[0] == ' ' || line[0] == '\t');
}

// The user's text with every line outside `ranges` emptied; a range that starts indented (its program
// was built inside a function) gets a parameterless factory header on the emptied line above it.
std::string kept_text(const BoundSource& src) {
  std::vector<std::string> lines = split_lines(src.text);
  std::vector<bool> keep(lines.size() + 1, false);
  for (auto [first, last] : src.ranges)
    for (int l = std::max(first, 1); l <= last && l <= static_cast<int>(lines.size()); ++l) keep[l] = true;
  std::string out;
  for (size_t l = 1; l <= lines.size(); ++l) {
    bool header = !keep[l] && l < lines.size() && keep[l + 1] && indented(lines[l]);
    if (keep[l])
      out += lines[l - 1];
    else if (header)
      out += std::string("def ") + kWrapperFactory + "():";
    out += '\n';
  }
  return out;
}

// `import ...` lines for the module aliases and `NAME = value` lines for the bound values.
std::string prelude_text(const BoundSource& src, std::vector<std::string>& unspellable) {
  std::string out;
  for (const BoundSource::JitImport& j : src.jit_imports)
    out += "from " + j.module + " import " + j.name + (j.local == j.name ? "" : " as " + j.local) + "\n";
  for (const auto& [local, module] : src.imports) {
    std::string root = module.substr(0, module.find('.'));
    out += local == module || (local == root && module == root) ? "import " + module + "\n"
                                                                : "import " + module + " as " + local + "\n";
  }
  for (const auto& [name, value] : src.names) {
    std::string spelling = bound_value_spelling(value);
    if (spelling.empty()) {
      unspellable.push_back(name);
      continue;
    }
    out += name + " = " + spelling + "\n";
  }
  return out;
}

}  // namespace

bool is_bound_names_file(const SourceFile* file) {
  return file && file->path().rfind(kBoundNamesPrefix, 0) == 0;
}

std::string bound_value_spelling(const BoundValue& v) {
  using K = BoundValue::Kind;
  switch (v.kind) {
    case K::Int:
      return std::to_string(v.int_value);
    case K::Float:
      return float_spelling(v.float_value);
    case K::Bool:
      return v.int_value ? "True" : "False";
    case K::String:
      return quoted(v.text);
    case K::None:
      return "None";
    case K::Path:
      return v.text;
    case K::Tuple:
    case K::List: {
      std::string out = v.kind == K::Tuple ? "(" : "[";
      for (size_t i = 0; i < v.items.size(); ++i) {
        std::string item = bound_value_spelling(v.items[i]);
        if (item.empty()) return "";
        out += (i ? ", " : "") + item;
      }
      if (v.kind == K::Tuple && v.items.size() == 1) out += ",";
      return out + (v.kind == K::Tuple ? ")" : "]");
    }
  }
  return "";
}

namespace {

// The prelude and the kept lines of `src` as two files of `sources`; reports (at the top of the first
// range) the bound names that have no spelling and returns false then.
bool add_files(const BoundSource& src, SourceManager& sources, DiagnosticEngine& diags, BoundFiles& out) {
  std::vector<std::string> unspellable;
  out.prelude = sources.add(std::string(kBoundNamesPrefix) + src.path + ">", prelude_text(src, unspellable));
  out.file = sources.add(src.path, kept_text(src));
  if (unspellable.empty()) return true;
  int first_line = src.ranges.empty() ? 1 : src.ranges.front().first;
  std::string names;
  for (const std::string& n : unspellable) names += (names.empty() ? "'" : ", '") + n + "'";
  diags.error(SourceSpan{out.file, first_line, 1, 2},
              "the value Python bound to " + names +
                  " has no spelling in the kernel language (a float that is nan or infinite)");
  return false;
}

}  // namespace

std::vector<Token> lex_bound_files(const BoundFiles& files, DiagnosticEngine& diags,
                                   std::set<int>* error_lines) {
  std::vector<Token> tokens = lex(*files.prelude, diags);
  if (!tokens.empty() && tokens.back().kind == TokenKind::End) tokens.pop_back();
  size_t first_new = diags.diagnostics().size();
  std::vector<Token> body = lex(*files.file, diags);
  if (error_lines)
    for (size_t i = first_new; i < diags.diagnostics().size(); ++i)
      error_lines->insert(diags.diagnostics()[i].span.line);
  tokens.insert(tokens.end(), body.begin(), body.end());
  return tokens;
}

ir::Module parse_bound_source(const BoundSource& src, SourceManager& sources, DiagnosticEngine& diags,
                              const std::vector<BoundSource>& modules) {
  int before = diags.error_count();
  BoundFiles root;
  bool ok = add_files(src, sources, diags, root);
  std::map<std::string, BoundFiles> others;
  for (const BoundSource& m : modules) ok = add_files(m, sources, diags, others[m.module]) && ok;
  if (!ok) return nullptr;
  std::set<int> lexer_error_lines;
  std::vector<Token> tokens = lex_bound_files(root, diags, &lexer_error_lines);
  Parser parser(*root.file, std::move(tokens), diags, std::move(lexer_error_lines), &sources);
  parser.accept_host_callbacks();
  parser.bind_modules(std::move(others));
  parser.specialize_jit_params(src.jit_param_types);
  for (const BoundSource& m : modules) parser.specialize_jit_params(m.jit_param_types);
  ir::Module m = parser.run();
  if (diags.error_count() > before) return nullptr;
  return m;
}

}  // namespace ptodist::frontend
