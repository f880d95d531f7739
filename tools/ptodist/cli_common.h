// Helpers shared by the subcommands of the ptodist CLI: loading and parsing a kernel file, `-D`
// bindings, choosing a program, and the exit-code conventions (2 = usage, 1 = program errors).
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ptodist/ir/function.h"
#include "ptodist/support/diagnostics.h"
#include "ptodist/transforms/pass.h"

namespace ptodist::cli {

constexpr int kExitProgramError = 1;
constexpr int kExitUsage = 2;

// Prints "ptodist: error: <message>" (one line) and ends the command with exit code 2.
[[noreturn]] void usage_error(const std::string& message);
// Ends the command with `code` (the caller has printed whatever it needed to).
[[noreturn]] void exit_with(int code);

// Options every subcommand that reads a kernel file shares.
struct ProgramOptions {
  std::string file;
  std::string program;               // --program NAME; empty = the only one
  std::vector<std::string> defines;  // -D name=value
  int ranks = 2;                     // --ranks N, bound to `world_size`
};

// Adds FILE, --program, -D and --ranks to `sub`.
void add_program_options(CLI::App* sub, ProgramOptions& o);

// A kernel file with its parse result. `module` is null when the file had parse errors, which are
// left in `diags`.
struct LoadedFile {
  SourceManager sources;
  DiagnosticEngine diags;
  const SourceFile* file = nullptr;
  ir::Module module;
};

// Reads and parses `path`; an unreadable file is a usage error. The -D values that name a dtype or an
// enum member (`-D dtype=pl.FP16`) are bound while parsing; one that binds no factory parameter is a
// usage error. With `program` (--program), only the @pl.program classes of that name are built when the
// file has one (see ConstantDefines::only_program).
std::unique_ptr<LoadedFile> load_file(const std::string& path, const std::vector<std::string>& defines = {},
                                      const std::string& program = "");

// Parses `-D name=value` strings (integer values; dtype and enum values are left to load_file); a
// malformed one is a usage error.
std::map<std::string, long long> parse_defines(const std::vector<std::string>& defines);

// The program named `name`, or the only program when `name` is empty; a usage error otherwise.
ir::Program select_program(const ir::Module& m, const std::string& name);

// Whether a factory parameter of this name is the rank count, bound from --ranks.
bool is_rank_count_name(const std::string& name);

// The programs a command works on: the one --program names, else every program of the file in order.
std::vector<ir::Program> select_programs(const ir::Module& m, const std::string& name);

// Factory bindings for `p` of module `m`: the user's -D values that name factory parameters of `p`
// (each must name one of `p` or of another program of `m`), and the rank count from --ranks for
// `world_size` and the rank-count parameters unless -D set them.
std::map<std::string, long long> bind_factory(const ir::Module& m, const ir::Program& p,
                                              const std::map<std::string, long long>& defines, int ranks);

// A pass context for `p` of module `m`: the bindings above, and `--no-pass` names (each checked).
transforms::PassContext make_pass_context(DiagnosticEngine& diags, const ir::Module& m, const ir::Program& p,
                                          const ProgramOptions& o,
                                          const std::vector<std::string>& disabled_passes);

// Fails with a usage error listing the registered passes when `flag` names none.
void require_known_pass(const std::string& flag);

// Parses the command line and runs the chosen subcommand; returns the process exit code. CLI11's own
// errors are reformatted to one line with exit code 2; --help prints CLI11's help.
int run_cli(CLI::App& app, int argc, char** argv);

}  // namespace ptodist::cli
