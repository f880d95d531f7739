// PTO code generation (DESIGN.md section 7): the text the Ascend PTO assembler takes, one module per
// kernel of a lowered (tile-level, memory-planned, fenced) program, plus a JSON manifest for the runtime.
#pragma once

#include <string>
#include <vector>

#include "ptodist/ir/function.h"
#include "ptodist/support/diagnostics.h"
#include "ptodist/support/profile.h"

namespace ptodist::codegen {

// The PTO text of one kernel: a `module { func.func @name(...) {...} }` ready for the assembler.
struct PtoKernel {
  std::string name;
  std::string text;
};

// Everything `--emit=pto` produces. `kernels` are in program order; `manifest_json` is pretty-printed
// JSON (kernels, their parameters, the memory plan, enable_sdma). `ok` is false when any kernel failed;
// the kernels that were emitted are still there.
struct PtoResult {
  bool ok = true;
  std::vector<PtoKernel> kernels;
  std::string manifest_json;
};

// Emits every InCore/AIC/AIV kernel of `program`. Constructs the emitter cannot express are reported as
// located errors on `diags` and leave that kernel out; the other kernels are still emitted. Output is
// byte-identical for identical input.
PtoResult emit_pto(const ir::Program& program, const ChipProfile& profile, DiagnosticEngine& diags);

// All kernels as one text, in program order, each preceded by a `// kernel: NAME` line: what
// `ptodist compile --emit=pto` prints when no output directory is given.
std::string pto_text(const PtoResult& result);

// Writes `<dir>/<kernel>.pto` for each kernel and `<dir>/manifest.json`, creating `dir` when missing.
// Returns false and sets `error` to a one-line reason when a file cannot be written.
bool write_pto(const PtoResult& result, const std::string& dir, std::string* error);

}  // namespace ptodist::codegen
