// Function kinds and lookups by name in programs and modules.
#include "ptodist/ir/function.h"

namespace ptodist::ir {

bool is_kernel(FunctionKind k) {
  return k == FunctionKind::InCore || k == FunctionKind::AIC || k == FunctionKind::AIV;
}

std::string_view function_kind_name(FunctionKind k) {
  switch (k) {
    case FunctionKind::InCore:
      return "InCore";
    case FunctionKind::AIC:
      return "AIC";
    case FunctionKind::AIV:
      return "AIV";
    case FunctionKind::Orchestration:
      return "Orchestration";
    case FunctionKind::Host:
      return "Host";
    case FunctionKind::Group:
      return "Group";
  }
  return "InCore";
}

Function ProgramNode::find(std::string_view name) const {
  for (const Function& f : functions)
    if (f && f->name == name) return f;
  return nullptr;
}

Program ModuleNode::find(std::string_view name) const {
  for (const Program& p : programs)
    if (p && p->name == name) return p;
  return nullptr;
}

}  // namespace ptodist::ir
