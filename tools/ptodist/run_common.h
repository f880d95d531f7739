// Shared by `ptodist run` and `ptodist bench`: compile a kernel file for N ranks and build its
// runtime and host arguments (flags to library calls; every failure is a one-line error, exit 2).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli_common.h"
#include "ptodist/runtime/runtime.h"

namespace ptodist::cli {

struct RunFlags {
  ProgramOptions program;
  std::vector<std::string> inputs;  // --in name=FILE.npy|rand:SEED|zeros
  std::string profile = "a2a3";
  double watchdog = 10;
  std::string backend = "inproc";  // --backend inproc|mpi (mpi: one rank per MPI process, docs/mpi.md)
};

void add_run_flags(CLI::App* sub, RunFlags& f);

// A compiled program ready to run, with its host arguments.
struct PreparedRun {
  std::unique_ptr<LoadedFile> file;
  std::unique_ptr<runtime::Runtime> runtime;
  std::map<std::string, runtime::HostTensor> args;
};

// Parses, lowers (the whole pipeline) and binds inputs; exits with 1 on program errors, 2 on bad
// flags, files or shapes.
PreparedRun prepare_run(const RunFlags& f, bool persistent);

// Prints a failed round (error: exit 1; watchdog report: exit 3) and ends the command.
[[noreturn]] void fail_round(const runtime::RoundResult& r);

constexpr int kExitHang = 3;

}  // namespace ptodist::cli
