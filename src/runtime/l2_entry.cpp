// An L2 program (chip orchestrations and kernels, no host orchestrator) as a run's entry.
#include "ptodist/runtime/l2_entry.h"

namespace ptodist::runtime {

namespace {

// `host(params...)` whose body is `entry(params..., device=0)`: the chip orchestration's parameters
// become the run's inputs and outputs.
ir::Function host_calling(const ir::FunctionNode& entry) {
  auto call = std::make_shared<ir::FuncCall>();
  call->span = entry.span;
  call->callee = entry.name;
  call->via_self = true;
  for (const ir::Param& p : entry.params) {
    auto ref = std::make_shared<ir::VarRef>();
    ref->var = p.var;
    ref->type = p.var->type;
    ref->span = entry.span;
    call->args.push_back(ref);
  }
  auto zero = std::make_shared<ir::IntImm>();
  zero->type = ir::scalar_type(ir::DType::INT64);
  zero->span = entry.span;
  call->device = zero;
  call->type = entry.return_types.size() == 1 ? entry.return_types[0] : nullptr;
  auto stmt = std::make_shared<ir::ExprStmt>();
  stmt->span = entry.span;
  stmt->value = call;
  auto host = std::make_shared<ir::FunctionNode>();
  host->name = "host_of_" + entry.name;
  host->kind = ir::FunctionKind::Host;
  host->params = entry.params;
  host->body = {stmt};
  host->span = entry.span;
  return host;
}

}  // namespace

ir::Program with_l2_entry(const ir::Program& p, const std::string& entry, std::string& error) {
  std::vector<const ir::FunctionNode*> orchestrations;
  for (const ir::Function& f : p->functions) {
    if (f->kind == ir::FunctionKind::Host && !f->host_callback) {
      if (!entry.empty())
        error = "--entry chooses a chip orchestration of a program without a host orchestrator; '" + p->name +
                "' has one ('" + f->name + "')";
      return error.empty() ? p : nullptr;
    }
    if (f->kind == ir::FunctionKind::Orchestration && (entry.empty() || f->name == entry))
      orchestrations.push_back(f.get());
  }
  if (orchestrations.size() != 1) {
    std::string names;
    for (const ir::Function& f : p->functions)
      if (f->kind == ir::FunctionKind::Orchestration) names += (names.empty() ? "" : ", ") + f->name;
    if (!entry.empty() && orchestrations.empty())
      error = "--entry " + entry + ": program '" + p->name + "' has no chip orchestration of that name" +
              (names.empty() ? std::string() : " (it has " + names + ")");
    else if (orchestrations.empty())
      error = "program '" + p->name +
              "' has no host orchestrator (level=pl.Level.HOST) and no chip "
              "orchestration (pl.FunctionType.Orchestration) to run";
    else
      error = "program '" + p->name + "' has no host orchestrator and several chip orchestrations (" + names +
              "); choose the one to run with --entry NAME";
    return nullptr;
  }
  auto out = std::make_shared<ir::ProgramNode>(*p);
  out->functions.push_back(host_calling(*orchestrations[0]));
  return out;
}

}  // namespace ptodist::runtime
