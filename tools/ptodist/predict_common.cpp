// One observed round replayed by the timing model (docs/timing.md).
#include "predict_common.h"

#include <cstdlib>
#include <iostream>

#include "ptodist/runtime/shape_only.h"

namespace ptodist::cli {
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
  const ir::OpCall* dep = run.data_dependence;
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
