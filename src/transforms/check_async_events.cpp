// check-async-events and print-async-events: drive the async-event dataflow over every kernel.
#include "ptodist/transforms/check_async_events.h"

#include <iostream>

#include "ptodist/analysis/async_events.h"

namespace ptodist::transforms {

ir::Program check_async_events(const ir::Program& p, PassContext& cx) {
  bool ok = true;
  for (const ir::Function& f : p->functions)
    if (ir::is_kernel(f->kind) && !analysis::check_async_events(f, cx.diags)) ok = false;
  return ok ? p : nullptr;
}

ir::Program print_async_events(const ir::Program& p, PassContext& cx) {
  std::ostream& os = cx.analysis_out ? *cx.analysis_out : std::cout;
  // The facts are printed whatever the checks find; the diagnostics are not this pass's job.
  DiagnosticEngine quiet;
  for (const ir::Function& f : p->functions) {
    if (!ir::is_kernel(f->kind)) continue;
    std::vector<std::string> facts;
    analysis::check_async_events(f, quiet, &facts);
    for (const std::string& line : facts) os << "// " << line << "\n";
  }
  return p;
}

}  // namespace ptodist::transforms
