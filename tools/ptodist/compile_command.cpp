// `ptodist compile FILE --emit=ir|tile-ir|pto`: print the parsed IR, or the IR after the pipeline (or
// the passes named with -p), or PTO text.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "ptodist/codegen/pto.h"
#include "ptodist/ir/printer.h"

namespace ptodist::cli {

namespace {

struct CompileOptions {
  ProgramOptions program;
  std::string emit = "tile-ir";
  std::vector<std::string> passes;
  std::vector<std::string> no_pass;
  bool print_after_all = false;
  std::string out_dir;
};

// Writes `text` to stdout, or to DIR/<name> with -o DIR.
void emit_text(const CompileOptions& o, const std::string& name, const std::string& text) {
  if (o.out_dir.empty()) {
    std::cout << text;
    return;
  }
  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  std::filesystem::path path = std::filesystem::path(o.out_dir) / name;
  std::ofstream out(path);
  if (ec || !(out << text)) usage_error("cannot write '" + path.string() + "'");
}

// A module holding only `p`, with the file's imports and constants, so the dump parses again.
ir::Module module_with(const ir::Module& m, const ir::Program& p) {
  auto copy = std::make_shared<ir::ModuleNode>(*m);
  copy->programs = {p};
  return copy;
}

int emit_ir(const CompileOptions& o, LoadedFile& lf) {
  if (!o.passes.empty()) usage_error("-p runs passes, which --emit=ir does not; use --emit=tile-ir");
  ir::Module m = lf.module;
  if (!o.program.program.empty()) m = module_with(m, select_program(m, o.program.program));
  std::string stem = std::filesystem::path(o.program.file).stem().string();
  emit_text(o, stem + ".ir.py", ir::print_module(m));
  return 0;
}

// --emit=pto: PTO text of every kernel on stdout, or DIR/<kernel>.pto and DIR/manifest.json with -o.
int emit_pto(const CompileOptions& o, const ir::Program& lowered, const ChipProfile& profile,
             LoadedFile& lf) {
  codegen::PtoResult r = codegen::emit_pto(lowered, profile, lf.diags);
  lf.diags.print(std::cerr);
  if (!r.ok || lf.diags.has_errors()) return kExitProgramError;
  std::string error;
  if (o.out_dir.empty())
    std::cout << codegen::pto_text(r);
  else if (!codegen::write_pto(r, o.out_dir, &error))
    usage_error(error);
  return 0;
}

int emit_tile_ir(const CompileOptions& o, const ir::Program& p, LoadedFile& lf) {
  for (const std::string& flag : o.passes) require_known_pass(flag);
  transforms::PassContext cx = make_pass_context(lf.diags, lf.module, p, o.program, o.no_pass);
  if (o.print_after_all) cx.print_after_all = &std::cout;
  ir::Program out =
      o.passes.empty() ? transforms::run_pipeline(p, cx) : transforms::run_passes(p, o.passes, cx);
  if (out && !lf.diags.has_errors() && o.emit == "pto") return emit_pto(o, out, cx.profile, lf);
  lf.diags.print(std::cerr);
  if (!out || lf.diags.has_errors()) return kExitProgramError;
  emit_text(o, p->name + ".tile.py", ir::print_module(module_with(lf.module, out)));
  return 0;
}

int run_compile(const CompileOptions& o) {
  parse_defines(o.program.defines);
  std::unique_ptr<LoadedFile> lf = load_file(o.program.file, o.program.defines, o.program.program);
  if (!lf->module) {
    lf->diags.print(std::cerr);
    return kExitProgramError;
  }
  if (o.emit == "ir") {
    lf->diags.print(std::cerr);  // warnings of the parse
    return emit_ir(o, *lf);
  }
  std::vector<ir::Program> programs = select_programs(lf->module, o.program.program);
  if (programs.size() == 1) return emit_tile_ir(o, programs[0], *lf);
  // Several programs and no --program: each in turn, under a header line, into its own subfolder.
  for (size_t i = 0; i < programs.size(); ++i) {
    std::cout << "== program " << programs[i]->name << " (" << i + 1 << " of " << programs.size() << ") ==\n";
    CompileOptions one = o;
    if (!o.out_dir.empty()) one.out_dir = (std::filesystem::path(o.out_dir) / programs[i]->name).string();
    if (int code = emit_tile_ir(one, programs[i], *lf); code != 0) return code;
  }
  return 0;
}

}  // namespace

void add_compile_command(CLI::App& app) {
  auto o = std::make_shared<CompileOptions>();
  CLI::App* sub = app.add_subcommand("compile", "lower a program and print IR or PTO");
  add_program_options(sub, o->program);
  sub->add_option("--emit", o->emit, "what to print: ir (as parsed), tile-ir (after the passes) or pto")
      ->check(CLI::IsMember({"ir", "tile-ir", "pto"}))
      ->capture_default_str();
  std::string pass_names;
  for (const transforms::PassInfo& info : transforms::registered_passes())
    pass_names += (pass_names.empty() ? "" : ", ") + std::string(info.flag);
  sub->add_option("-p,--passes", o->passes,
                  "run only these passes, in this order (comma-separated): " + pass_names)
      ->delimiter(',')
      ->allow_extra_args(false);
  sub->add_option("--no-pass", o->no_pass, "skip the named pass of the pipeline (repeatable)")
      ->allow_extra_args(false);
  sub->add_flag("--print-after-all", o->print_after_all, "print the program after every pass");
  sub->add_option("-o", o->out_dir, "write the output into this directory instead of stdout");
  sub->callback([o, sub] {
    if (sub->count("-o") && o->out_dir.empty()) usage_error("-o: the directory name is empty");
    int code = run_compile(*o);
    if (code != 0) exit_with(code);
  });
}

}  // namespace ptodist::cli
