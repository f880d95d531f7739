// libFuzzer target for the front end and the compile pipeline: the input is a kernel file; it is
// parsed, verified, checked, lowered and emitted as PTO, as `ptodist check` and `ptodist compile
// --emit=pto` would. Any crash, sanitizer report, abort (an internal error) or timeout is a bug: every
// input must end in diagnostics or in output. Built with `cmake -DPTODIST_FUZZ=ON` and clang
// (docs/testing.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "ptodist/codegen/pto.h"
#include "ptodist/frontend/parser.h"
#include "ptodist/ir/verifier.h"
#include "ptodist/support/diagnostics.h"
#include "ptodist/support/source.h"
#include "ptodist/transforms/pass.h"

namespace {

// The programs' factories are built for two ranks, as `--ranks 2` would.
constexpr long long kRanks = 2;

void compile_program(const ptodist::ir::Module& m, const ptodist::ir::Program& p) {
  using namespace ptodist;
  DiagnosticEngine diags;
  if (!ir::verify_program(p, diags)) return;
  transforms::PassContext cx{.diags = diags, .bindings = {{"world_size", kRanks}}, .module = m};
  ir::Program lowered = transforms::run_pipeline(p, cx);
  if (!lowered || diags.has_errors()) return;
  codegen::emit_pto(lowered, cx.profile, diags);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ptodist;
  SourceManager sources;  // no imports: a fuzzed file must not read others from the disk
  DiagnosticEngine diags;
  const SourceFile* file = sources.add("fuzz.py", std::string(reinterpret_cast<const char*>(data), size));
  ir::Module m = frontend::parse_module(*file, diags);
  if (!m) return 0;
  for (const ir::Program& p : m->programs)
    if (p) compile_program(m, p);
  return 0;
}
