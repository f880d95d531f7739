// Names: import aliases mapped to the canonical `pl`/`pld` spellings, scope lookup, and the
// "did you mean" suggestions of undefined-name and unknown-op errors.
#include <algorithm>

#include "parser_impl.h"

namespace ptodist::frontend {

namespace {

constexpr std::string_view kLanguage = "pypto.language";
constexpr std::string_view kDistributed = "pypto.language.distributed";

// `full` is `prefix` or starts with `prefix.`.
bool has_module_prefix(const std::string& full, std::string_view prefix) {
  return full.compare(0, prefix.size(), prefix) == 0 &&
         (full.size() == prefix.size() || full[prefix.size()] == '.');
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      // A swap of neighbours ("coutn" for "count") is one typo, not two.
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    prev2 = prev;
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::string::npos;
  for (const std::string& c : candidates) {
    size_t d = edit_distance(name, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  // Close means about a third of the name differs at most; names under 2 characters get no suggestion.
  size_t limit = (name.size() + 1) / 3;
  if (best.empty() || best_distance == 0 || best_distance > limit) return "";
  return "; did you mean '" + best + "'?";
}

void Parser::bind_import(const std::string& local, const std::string& module_path, const SourceSpan& span) {
  aliases_[local] = module_path;
  std::optional<std::string> c = canonical(local);
  if (!c || (*c != "pl" && *c != "pld")) return;
  std::pair<std::string, std::string> entry{*c == "pl" ? std::string(kLanguage) : std::string(kDistributed),
                                            *c};
  if (std::find(imports_.begin(), imports_.end(), entry) == imports_.end()) imports_.push_back(entry);
}

bool Parser::is_module_alias(const std::string& name) const {
  return aliases_.count(name) > 0 || name == "pl" || name == "pld";
}

// Expands the first component through the import aliases, then spells the pypto modules as `pl`
// and `pld`. `pl`/`pld` stand for the language modules when no import binds those names, so small
// test inputs need no import lines.
std::optional<std::string> Parser::canonical(const std::string& dotted) const {
  size_t dot = dotted.find('.');
  std::string root = dotted.substr(0, dot);
  std::string rest = dot == std::string::npos ? "" : dotted.substr(dot);
  std::string full;
  if (auto it = aliases_.find(root); it != aliases_.end()) {
    full = it->second + rest;
  } else if (root == "pl") {
    full = std::string(kLanguage) + rest;
  } else if (root == "pld") {
    full = std::string(kDistributed) + rest;
  } else {
    return std::nullopt;
  }
  if (has_module_prefix(full, kDistributed)) return "pld" + full.substr(kDistributed.size());
  if (has_module_prefix(full, kLanguage)) return "pl" + full.substr(kLanguage.size());
  return std::nullopt;
}

std::optional<std::string> Parser::canonical(const SynExpr& e) const {
  std::string path = dotted_path(e);
  if (path.empty()) return std::nullopt;
  return canonical(path);
}

const Binding* Parser::lookup(const LowerCtx& cx, const std::string& name) const {
  if (cx.locals) {
    if (auto it = cx.locals->find(name); it != cx.locals->end()) return &it->second;
  }
  for (const Container* c = cx.container; c; c = c->parent)
    if (auto it = c->scope.find(name); it != c->scope.end()) return &it->second;
  return nullptr;
}

std::vector<std::string> Parser::visible_names(const LowerCtx& cx) const {
  std::vector<std::string> names;
  if (cx.locals)
    for (const auto& [n, b] : *cx.locals) names.push_back(n);
  for (const Container* c = cx.container; c; c = c->parent)
    for (const auto& [n, b] : c->scope) names.push_back(n);
  if (cx.build.functions && !cx.class_style)
    for (const ir::Function& f : *cx.build.functions) names.push_back(f->name);
  return names;
}

std::string Parser::host_name_reason(const LowerCtx& cx, const std::string& name) const {
  for (const Container* c = cx.container; c; c = c->parent) {
    auto it = c->host_names.find(name);
    if (it == c->host_names.end()) continue;
    const std::string head =
        "'" + name + "' " + it->second.what + " (line " + std::to_string(it->second.span.line) + "); ";
    if (it->second.what.find("SubWorker") != std::string::npos) return head + kSubWorkerUnsupported;
    return head + "the command line cannot evaluate it without a Python interpreter: " + kPythonEntryPoint;
  }
  return "";
}

const ir::Function* Parser::find_function(const LowerCtx& cx, const std::string& name) const {
  if (!cx.build.functions) return nullptr;
  for (const ir::Function& f : *cx.build.functions)
    if (f && f->name == name) return &f;
  return nullptr;
}

}  // namespace ptodist::frontend
