// `ptodist check FILE`: parse, verify and run the checking passes; report diagnostics, or compare them
// with the file's expected-diagnostic comments (--verify-diagnostics).
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "ptodist/codegen/pto.h"
#include "ptodist/ir/verifier.h"
#include "ptodist/support/verify_diagnostics.h"

namespace ptodist::cli {

namespace {

struct CheckOptions {
  ProgramOptions program;
  bool verify_diagnostics = false;
  std::vector<std::string> no_pass;
};

// What `compile --emit=pto` would reject, as warnings: `run` executes such a program on the CPU, but
// PTO text has no lowering for it, and check says so rather than accept it silently.
void report_pto_lowering(const ir::Program& lowered, const ChipProfile& profile, DiagnosticEngine& diags) {
  DiagnosticEngine pto;
  codegen::emit_pto(lowered, profile, pto);
  for (const Diagnostic& d : pto.diagnostics())
    if (d.severity == Severity::Error)
      diags.warning(d.span, "`compile --emit=pto` rejects this program: " + d.message);
}

void check_program(const ir::Program& p, LoadedFile& lf, const CheckOptions& o) {
  transforms::PassContext cx = make_pass_context(lf.diags, lf.module, p, o.program, o.no_pass);
  // The checking passes assume well-formed IR, so they only run on a program that verifies.
  if (!ir::verify_program(p, lf.diags)) return;
  // The whole pipeline, as `run` and `compile` run it: check reports every static error they would.
  ir::Program lowered = transforms::run_pipeline(p, cx);
  if (lowered && !lf.diags.has_errors()) report_pto_lowering(lowered, cx.profile, lf.diags);
}

int run_check(const CheckOptions& o) {
  parse_defines(o.program.defines);  // malformed -D values are usage errors before any parsing
  std::unique_ptr<LoadedFile> lf = load_file(o.program.file, o.program.defines, o.program.program);
  // Without --program, every program of the file is checked (PyPTO's test files hold several; negative
  // test files hold one small program per expected error).
  std::string checked;
  if (lf->module) {
    std::vector<ir::Program> programs = o.program.program.empty() && o.verify_diagnostics
                                            ? lf->module->programs
                                            : select_programs(lf->module, o.program.program);
    for (const ir::Program& p : programs) {
      if (!p) continue;
      check_program(p, *lf, o);
      checked += (checked.empty() ? "" : ", ") + p->name;
    }
  }
  if (o.verify_diagnostics)
    return verify_diagnostics(*lf->file, lf->diags, std::cerr) ? 0 : kExitProgramError;
  lf->diags.print(std::cerr);
  if (!checked.empty()) std::cout << "checked: " << checked << "\n";
  return lf->diags.has_errors() ? kExitProgramError : 0;
}

}  // namespace

void add_check_command(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* sub = app.add_subcommand("check", "parse, verify and run the checking passes; report errors");
  add_program_options(sub, o->program);
  sub->add_flag(
      "--verify-diagnostics", o->verify_diagnostics,
      "compare diagnostics with the file's `# expected-error {{...}}` comments; exit 0 iff they match");
  sub->add_option("--no-pass", o->no_pass, "skip the named pass (repeatable)")->allow_extra_args(false);
  sub->callback([o] {
    int code = run_check(*o);
    if (code != 0) exit_with(code);
  });
}

}  // namespace ptodist::cli
