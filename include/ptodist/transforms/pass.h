// The pass interface and the straight-line pipeline (DESIGN.md section 5).
#pragma once

#include <iosfwd>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ptodist/ir/function.h"
#include "ptodist/support/diagnostics.h"
#include "ptodist/support/profile.h"

namespace ptodist::transforms {

struct PassContext {
  DiagnosticEngine& diags;
  ChipProfile profile{};
  // Factory parameter bindings: from `-D name=value` and the rank count (`world_size`).
  std::map<std::string, long long> bindings{};
  bool verify_each = true;                  // run the verifier after every pass (debug builds and tests)
  std::ostream* print_after_all = nullptr;  // when set, dump the program after each pass
  std::set<std::string> disabled{};         // `--no-pass NAME`
  // Where printing passes (print-async-events) write their facts; std::cout when null.
  std::ostream* analysis_out = nullptr;
  // The file's module, so specialize can fold module-level constants a program refers to; may be null.
  ir::Module module{};
};

// A pass returns the rewritten program, or null after reporting errors.
using PassFn = ir::Program (*)(const ir::Program&, PassContext&);

struct PassInfo {
  const char* flag;  // kebab-case name used by `-p` and `--no-pass`
  PassFn run;
  const char* summary;  // one sentence for --help and docs
};

// Every pass the CLI can name with -p, including printing passes such as print-async-events.
const std::vector<PassInfo>& registered_passes();
const PassInfo* find_pass(const std::string& flag);

// Runs the whole lowering pipeline (tensor level to tile level, memory planned, fences inserted).
ir::Program run_pipeline(const ir::Program& p, PassContext& cx);
// Runs the pipeline up to and including the checking passes (what `ptodist check` reports).
ir::Program run_checks(const ir::Program& p, PassContext& cx);
// Runs the named passes in the given order (`-p a,b`).
ir::Program run_passes(const ir::Program& p, const std::vector<std::string>& flags, PassContext& cx);

}  // namespace ptodist::transforms
