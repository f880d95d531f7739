// Shared by `ptodist run` and `ptodist bench`: compile a kernel file for N ranks and build its
// runtime and host arguments (flags to library calls; every failure is a one-line error, exit 2).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli_common.h"
#include "ptodist/runtime/events.h"
#include "ptodist/runtime/runtime.h"
#include "ptodist/runtime/trace.h"

namespace ptodist::cli {

struct RunFlags {
  ProgramOptions program;
  std::vector<std::string> inputs;  // --in name=FILE.npy|rand:SEED|zeros
  std::vector<std::string> dims;    // --dim NAME=N: a pl.dynamic dim no input fixes
  std::string entry;                // --entry NAME: the chip orchestration of an L2 program to run
  std::string profile = "a2a3";
  double watchdog = 10;
  std::string backend = "inproc";  // --backend inproc|mpi (mpi: one rank per MPI process, docs/mpi.md)
  std::string mode = "fast";       // --mode fast|check (check: seeded scheduler, docs/checking.md)
  uint64_t seed = 1;               // --seed S: check mode's first seed
  bool seed_given = false;
  std::vector<std::string> no_pass;  // --no-pass NAME: skip a pass of the pipeline (both modes)
  std::string trace;                 // --trace FILE: Chrome trace-event JSON of the (last) round
  bool observe = false;              // predict: the run reports to an event stream, no real-time trace
  bool check() const { return mode == "check"; }
};

void add_run_flags(CLI::App* sub, RunFlags& f);
// `--watchdog S`: a positive, finite number of seconds, or `off` (0 inside: the runtime's "disabled");
// anything else is a usage error.
double parse_watchdog(const std::string& v);

// A compiled program ready to run, with its host arguments.
struct PreparedRun {
  std::unique_ptr<LoadedFile> file;
  std::unique_ptr<runtime::Runtime> runtime;
  std::map<std::string, runtime::HostTensor> args;
  ir::Program lowered;  // the program after the pipeline
  // predict: the first op whose result may steer control flow from tile data (null: none, and the
  // run computes no tile data).
  const ir::OpCall* data_dependence = nullptr;
  runtime::RunOptions options;  // what the runtime was made with
  // The op-event stream when the run is traced or predicted (options.events points to it), and the
  // recorder of a real-time trace.
  std::unique_ptr<runtime::events::EventStream> events;
  std::unique_ptr<runtime::trace::RealTimeRecorder> recorder;
};
// Writes the real-time trace of the round just run to f.trace (when given); exits 2 when it cannot.
void write_real_trace(PreparedRun& run, const RunFlags& f);

// Parses, lowers (the whole pipeline) and binds inputs; exits with 1 on program errors, 2 on bad
// flags, files or shapes.
PreparedRun prepare_run(const RunFlags& f, bool persistent);
// The first op of `program` whose result may steer control flow from computed tile data: a pl.read
// (a GM value as a scalar), or a cast to INT32 (its result could be stored into a signal cell).
const ir::OpCall* first_data_dependence(const ir::ProgramNode& program);
// A fresh runtime (fresh windows) and fresh inputs for `run`, check mode seeded with `seed`.
void restart_run(PreparedRun& run, const RunFlags& f, uint64_t seed);

// Prints a failed round (error: exit 1; watchdog report: exit 3) and ends the command.
[[noreturn]] void fail_round(const runtime::RoundResult& r);
// The same, naming the seed of a check-mode round ("check mode: seed S") after the report.
[[noreturn]] void fail_round(const runtime::RoundResult& r, const RunFlags& f);

constexpr int kExitHang = 3;

}  // namespace ptodist::cli
