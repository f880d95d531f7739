// One observed round replayed by the timing model (docs/timing.md).
#include "predict_common.h"

#include <cstdlib>
#include <iostream>

#include "ptodist/ir/functor.h"
#include "ptodist/runtime/shape_only.h"

namespace ptodist::cli {
namespace {

// The first pl.read of the program: its value may depend on computed tile data, so control flow may.
const ir::OpCall* first_read(const ir::ProgramNode& program) {
  struct Finder : ir::Walker {
    const ir::OpCall* found = nullptr;
    void visit_expr(const ir::Expr& e) override {
      if (!e || found) return;
      if (const auto* call = e->as<ir::OpCall>(); call && call->op && call->op->id == ir::OpId::Read)
        found = call;
      ir::Walker::visit_expr(e);
    }
  } finder;
  for (const ir::Function& fn : program.functions)
    for (const ir::Stmt& s : fn->body) finder.visit_stmt(s);
  return finder.found;
}

}  // namespace

std::optional<timing::Prediction> predict_run(RunFlags f, std::string* error) {
  const char* env = std::getenv("PTODIST_PROFILE_DIR");
  std::optional<timing::TimingParams> params =
      timing::load_timing(f.profile, env ? env : PTODIST_PROFILE_DIR, error);
  if (!params) return std::nullopt;
  f.observe = true;
  f.mode = "fast";
  PreparedRun run = prepare_run(f, false);
  timing::Recorder recorder;
  run.events->subscribe(&recorder);
  const ir::OpCall* read = first_read(*run.lowered);
  if (read)
    std::cerr << "predict: computing tile data: the program reads GM values (" << read->span.str()
              << ": pl.read), which may depend on it\n";
  runtime::skip_matmul_arithmetic(read ? nullptr : run.events.get());
  runtime::RoundResult r = run.runtime->run(run.args);
  runtime::skip_matmul_arithmetic(nullptr);
  if (r.status != runtime::RoundResult::Status::Ok) fail_round(r);
  params->cube_cores = run.options.profile.cube_cores;
  params->vector_cores = run.options.profile.vector_cores;
  timing::Prediction p = timing::predict(recorder.take(), f.program.ranks, *params);
  if (!p.error.empty()) {
    *error = p.error;
    return std::nullopt;
  }
  return p;
}

}  // namespace ptodist::cli
