// Shared by `ptodist predict` and `ptodist bench`: one observed round of a program, replayed by the
// timing model (ptodist/timing/model.h) with the profile's timing parameters.
#pragma once

#include <optional>
#include <string>

#include "ptodist/timing/model.h"
#include "run_common.h"

namespace ptodist::cli {

// Runs `f` once (fast mode, recording its op events) and predicts its device time. Exits like `run`
// when the program fails; returns nullopt with the reason in `error` when the profile has no timing
// parameters or the replay cannot finish.
std::optional<timing::Prediction> predict_run(RunFlags f, bool with_timeline, std::string* error);

}  // namespace ptodist::cli
