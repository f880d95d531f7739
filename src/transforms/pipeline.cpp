// The straight-line lowering pipeline (DESIGN.md section 5) and the runners the CLI calls.
#include <ostream>

#include "ptodist/ir/printer.h"
#include "ptodist/ir/verifier.h"
#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

namespace {

// Runs one pass, then the verifier when asked. A verifier error after a pass that reported nothing is a
// bug in that pass, but it is still reported as a diagnostic so the CLI fails cleanly.
ir::Program run_one(const PassInfo& pass, const ir::Program& p, PassContext& cx) {
  if (!p || cx.disabled.count(pass.flag)) return p;
  int errors_before = cx.diags.error_count();
  ir::Program out = pass.run(p, cx);
  if (!out || cx.diags.error_count() > errors_before) return nullptr;
  if (cx.verify_each && !ir::verify_program(out, cx.diags)) {
    cx.diags.error(out->span, std::string("internal: the program does not verify after pass '") + pass.flag +
                                  "'; please report this with the kernel file");
    return nullptr;
  }
  if (cx.print_after_all)
    *cx.print_after_all << "// -----// IR Dump After " << pass.flag << " //----- //\n"
                        << ir::print_program(out) << "\n";
  return out;
}

ir::Program run_named(const ir::Program& p, const char* flag, PassContext& cx) {
  const PassInfo* pass = find_pass(flag);
  PTODIST_INTERNAL_ASSERT(pass != nullptr, std::string("pipeline names an unregistered pass: ") + flag);
  return run_one(*pass, p, cx);
}

// The program as given must verify before any pass runs: its problems are the user's errors, and a
// verifier error after a pass can then only be that pass's bug.
ir::Program verified(const ir::Program& p, PassContext& cx) {
  if (!p || !cx.verify_each) return p;
  return ir::verify_program(p, cx.diags) ? p : nullptr;
}

ir::Program checks(const ir::Program& p, PassContext& cx) {
  ir::Program r = p;
  r = run_named(r, "specialize", cx);
  r = run_named(r, "lower-collectives", cx);
  r = run_named(r, "convert-tensor-to-tile", cx);
  r = run_named(r, "bind-async-scratch", cx);
  r = run_named(r, "check-async-events", cx);
  r = run_named(r, "check-core-budget", cx);
  r = run_named(r, "check-dynamic-dims", cx);
  r = run_named(r, "name-tile-operands", cx);
  r = run_named(r, "expand-mixed-kernel", cx);
  r = run_named(r, "add-op-scratch", cx);
  r = run_named(r, "plan-memory", cx);  // its capacity check is a check too
  return r;
}

}  // namespace

ir::Program run_checks(const ir::Program& p, PassContext& cx) {
  return checks(verified(p, cx), cx);
}

ir::Program run_pipeline(const ir::Program& p, PassContext& cx) {
  ir::Program r = checks(verified(p, cx), cx);
  r = run_named(r, "insert-comm-fence", cx);
  return r;
}

ir::Program run_passes(const ir::Program& p, const std::vector<std::string>& flags, PassContext& cx) {
  ir::Program r = verified(p, cx);
  if (!r) return nullptr;
  for (const std::string& flag : flags) {
    const PassInfo* pass = find_pass(flag);
    if (!pass) {
      cx.diags.error(p ? p->span : SourceSpan{}, "unknown pass '" + flag + "'; see `ptodist compile --help`");
      return nullptr;
    }
    r = run_one(*pass, r, cx);
    if (!r) return nullptr;
  }
  return r;
}

}  // namespace ptodist::transforms
