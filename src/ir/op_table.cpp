// The op table built from ops.def at static initialisation: signatures parsed into parameter lists.
#include "ptodist/ir/op_table.h"

#include <algorithm>

#include "ptodist/support/diagnostics.h"

namespace ptodist::ir {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Parses "a, b=default, *args, c=1" or "a, *, c=1" (a bare `*`: the parameters after it are
// keyword-only, as in Python): defaults in ops.def never contain commas.
void parse_signature(OpInfo& info, std::string_view sig) {
  while (!trim(sig).empty()) {
    size_t comma = sig.find(',');
    std::string_view item = trim(sig.substr(0, comma));
    sig = comma == std::string_view::npos ? std::string_view() : sig.substr(comma + 1);
    PTODIST_INTERNAL_ASSERT(!item.empty(), "ops.def: empty parameter in signature of " + info.spelling);
    if (item == "*") {
      PTODIST_INTERNAL_ASSERT(info.kwonly_at < 0, "ops.def: two bare * in " + info.spelling);
      info.kwonly_at = static_cast<int>(info.params.size());
      continue;
    }
    if (item.front() == '*') {
      PTODIST_INTERNAL_ASSERT(info.varargs_at < 0, "ops.def: two *args in " + info.spelling);
      info.varargs_at = static_cast<int>(info.params.size());
      continue;
    }
    OpParam p;
    size_t eq = item.find('=');
    p.name = std::string(trim(item.substr(0, eq)));
    if (eq != std::string_view::npos) {
      p.required = false;
      p.default_text = std::string(trim(item.substr(eq + 1)));
    }
    info.params.push_back(std::move(p));
  }
}

std::vector<OpInfo> build_table() {
  std::vector<OpInfo> table;
#define PTODIST_OP(Id, text, sig, fx, where) \
  {                                          \
    OpInfo info;                             \
    info.id = OpId::Id;                      \
    info.spelling = text;                    \
    info.effects = (fx);                     \
    info.levels = (where);                   \
    parse_signature(info, sig);              \
    table.push_back(std::move(info));        \
  }
#include "ptodist/ir/ops.def"
#undef PTODIST_OP
  return table;
}

// An alias's parameters stand for the first parameters of its op, position by position.
std::vector<OpInfo> build_aliases() {
  std::vector<OpInfo> aliases;
#define PTODIST_ALIAS(text, Id, sig)                                                      \
  {                                                                                       \
    const OpInfo& op = op_info(OpId::Id);                                                 \
    OpInfo info;                                                                          \
    info.id = OpId::Id;                                                                   \
    info.spelling = text;                                                                 \
    info.effects = op.effects;                                                            \
    info.levels = op.levels;                                                              \
    parse_signature(info, sig);                                                           \
    PTODIST_INTERNAL_ASSERT(                                                              \
        info.params.size() <= op.params.size() && info.varargs_at == op.varargs_at,       \
        "op_aliases.def: " + info.spelling + " has more parameters than " + op.spelling); \
    aliases.push_back(std::move(info));                                                   \
  }
#include "ptodist/ir/op_aliases.def"
#undef PTODIST_ALIAS
  return aliases;
}

}  // namespace

int OpInfo::param_index(std::string_view name) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == name) return static_cast<int>(i);
  return -1;
}

size_t slot_of(const OpInfo& spelling, size_t i) {
  int same = op_info(spelling.id).param_index(spelling.params[i].name);
  return same >= 0 ? static_cast<size_t>(same) : i;
}

size_t OpInfo::positional_limit() const {
  size_t limit = params.size();
  if (varargs_at >= 0) limit = static_cast<size_t>(varargs_at);
  if (kwonly_at >= 0) limit = std::min(limit, static_cast<size_t>(kwonly_at));
  return limit;
}

bool OpInfo::is_alias() const {
  return &op_info(id) != this;
}

const std::vector<OpInfo>& all_ops() {
  // A function-local static: built on first use, so other static initialisers may use the table.
  static const std::vector<OpInfo> table = build_table();
  return table;
}

const std::vector<OpInfo>& all_aliases() {
  static const std::vector<OpInfo> aliases = build_aliases();
  return aliases;
}

const OpInfo& op_info(OpId id) {
  return all_ops()[static_cast<size_t>(id)];
}

const OpInfo* find_op(std::string_view spelling) {
  for (const OpInfo& info : all_ops())
    if (info.spelling == spelling) return &info;
  for (const OpInfo& info : all_aliases())
    if (info.spelling == spelling) return &info;
  return nullptr;
}

}  // namespace ptodist::ir
