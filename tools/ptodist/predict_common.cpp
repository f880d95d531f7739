// One observed round replayed by the timing model (docs/timing.md).
#include "predict_common.h"

#include <cstdlib>
#include <iostream>

#include "ptodist/ir/functor.h"
#include "ptodist/runtime/shape_only.h"

namespace ptodist::cli {
namespace {

// The first op of the program whose result may steer control flow from computed tile data: a
// pl.read (a GM value as a scalar), or a cast to INT32 (its result could be stored into a signal cell).
const ir::OpCall* first_data_dependence(const ir::ProgramNode& program) {
  struct Finder : ir::Walker {
    const ir::OpCall* found = nullptr;
    void visit_expr(const ir::Expr& e) override {
      if (!e || found) return;
      if (const auto* call = e->as<ir::OpCall>(); call && call->op && reads_data(*call)) found = call;
      ir::Walker::visit_expr(e);
    }
    static bool reads_data(const ir::OpCall& call) {
      if (call.op->id == ir::OpId::Read) return true;
      return call.op->id == ir::OpId::Cast && call.type && call.type->dtype == ir::DType::INT32;
    }
  } finder;
  for (const ir::Function& fn : program.functions)
    for (const ir::Stmt& s : fn->body) finder.visit_stmt(s);
  return finder.found;
}

}  // namespace

std::optional<timing::Prediction> predict_run(RunFlags f, bool with_timeline, std::string* error) {
  const char* env = std::getenv("PTODIST_PROFILE_DIR");
  std::optional<timing::TimingParams> params =
      timing::load_timing(f.profile, env ? env : PTODIST_PROFILE_DIR, error);
  if (!params) return std::nullopt;
  f.observe = true;
  f.mode = "fast";
  PreparedRun run = prepare_run(f, false);
  params->cube_cores = run.options.profile.cube_cores;
  params->vector_cores = run.options.profile.vector_cores;
  timing::Recorder recorder(*params);
  run.events->subscribe(&recorder);
  const ir::OpCall* dep = first_data_dependence(*run.lowered);
  if (dep)
    std::cerr << "predict: computing tile data: control flow may depend on it (" << dep->span.str() << ": "
              << dep->op->spelling << ")\n";
  runtime::skip_tile_data(dep ? nullptr : run.events.get());
  runtime::RoundResult r = run.runtime->run(run.args);
  runtime::skip_tile_data(nullptr);
  if (r.status != runtime::RoundResult::Status::Ok) fail_round(r);
  timing::Prediction p = recorder.predict(f.program.ranks, with_timeline);
  if (!p.error.empty()) {
    *error = p.error;
    return std::nullopt;
  }
  return p;
}

}  // namespace ptodist::cli
