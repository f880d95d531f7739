// `ptodist run FILE --ranks N`: run a program once on N in-process ranks; inputs and outputs are the
// host orchestrator's parameters as .npy files.
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include "commands.h"
#include "ptodist/ir/functor.h"
#include "ptodist/runtime/host_io.h"
#include "ptodist/runtime/l2_entry.h"
#include "ptodist/runtime/mpi.h"
#include "ptodist/transforms/pass.h"
#include "run_common.h"

namespace ptodist::cli {

void start_mpi_backend(RunFlags& f, bool ranks_given);

double parse_watchdog(const std::string& v) {
  if (v == "off") return 0;
  char* end = nullptr;
  errno = 0;
  double s = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || errno != 0 || !(s > 0) || !std::isfinite(s) || s > 1e6)
    usage_error("--watchdog: expected seconds (a number > 0, at most 1e6) or 'off', got '" + v + "'");
  return s;
}

void add_run_flags(CLI::App* sub, RunFlags& f) {
  add_program_options(sub, f.program);
  sub->add_option("--in", f.inputs,
                  "host input: name=FILE.npy, name=rand:SEED or name=zeros (default rand:0)")
      ->allow_extra_args(false);
  sub->add_option("--dim", f.dims,
                  "NAME=N: the value of the pl.dynamic dim NAME of the host parameters, when no .npy input "
                  "fixes it (docs/runtime.md)")
      ->allow_extra_args(false);
  sub->add_option("--entry", f.entry,
                  "NAME: the chip orchestration to run, in a program without a host orchestrator (an L2 "
                  "program runs one on rank 0, its parameters the inputs)");
  sub->add_option("--profile", f.profile, "chip profile (profiles/<name>.json or a path)")
      ->capture_default_str();
  // Switching a safety off takes the word: 0 or a negative number is a usage error, not "off".
  sub->add_option_function<std::string>(
         "--watchdog", [&f](const std::string& v) { f.watchdog = parse_watchdog(v); },
         "seconds without progress before a hang is reported (default 10), or 'off'")
      ->type_name("S|off");
  sub->add_option("--backend", f.backend,
                  "inproc: every rank in this process; mpi: one rank per MPI process "
                  "(mpirun -np N ptodist run ... --backend mpi)")
      ->check(CLI::IsMember({"inproc", "mpi"}))
      ->capture_default_str();
  sub->add_option("--mode", f.mode,
                  "fast: ranks and cores in parallel; check: one core at a time under a seeded scheduler "
                  "that reports ordering hazards and deadlocks (exit 3; docs/checking.md)")
      ->check(CLI::IsMember({"fast", "check"}))
      ->capture_default_str();
  sub->add_option("--seed", f.seed, "check mode: the scheduler's seed (default 1); needs --mode check");
  sub->add_option(
      "--trace", f.trace,
      "write a Chrome trace-event JSON of the run (the last round of a bench) to FILE; open it in "
      "Perfetto (docs/timing.md)");
  sub->add_option("--no-pass", f.no_pass, "skip the named pass of the pipeline (repeatable; both modes)")
      ->allow_extra_args(false);
  sub->parse_complete_callback([sub, &f] {
    f.seed_given = sub->count("--seed") > 0;
    if (sub->count("--trace") && f.trace.empty()) usage_error("--trace: the file name is empty");
    if (f.seed_given && !f.check()) usage_error("--seed chooses a check-mode schedule; add --mode check");
    if (f.check() && f.backend == "mpi")
      usage_error("--mode check runs every rank in one process; it cannot be combined with --backend mpi");
    for (const std::string& flag : f.no_pass) require_known_pass(flag);
    if (f.backend == "mpi") start_mpi_backend(f, sub->count("--ranks") > 0);
  });
}

// The rank count of an MPI run is mpirun's -np; only rank 0 prints results (stdout of the others is
// discarded, so `ptodist bench` prints one table).
void start_mpi_backend(RunFlags& f, bool ranks_given) {
  if (!runtime::launched_by_mpi())
    usage_error("--backend mpi runs one rank per MPI process: launch it as 'mpirun -np N ptodist ...'");
  std::string error;
  runtime::MpiBackend* mpi = runtime::MpiBackend::start(&error, f.watchdog);
  if (!mpi) usage_error("--backend mpi: " + error);
  if (ranks_given && f.program.ranks != mpi->size()) {
    usage_error("--ranks " + std::to_string(f.program.ranks) + " contradicts the " +
                std::to_string(mpi->size()) +
                " MPI processes; with --backend mpi the rank count is mpirun's -np");
  }
  f.program.ranks = mpi->size();
  if (mpi->rank() != 0 && !std::freopen("/dev/null", "w", stdout))
    usage_error("cannot silence stdout on rank > 0");
}

// The first op of the program whose result may steer control flow from computed tile data: a
// pl.read or pl.tile.read (a GM or tile value as a scalar), or a cast to INT32 (its result could be stored
// into a signal cell).
const ir::OpCall* first_data_dependence(const ir::ProgramNode& program) {
  struct Finder : ir::Walker {
    const ir::OpCall* found = nullptr;
    void visit_expr(const ir::Expr& e) override {
      if (!e || found) return;
      if (const auto* call = e->as<ir::OpCall>(); call && call->op && reads_data(*call)) found = call;
      ir::Walker::visit_expr(e);
    }
    static bool reads_data(const ir::OpCall& call) {
      if (call.op->id == ir::OpId::Read || call.op->id == ir::OpId::TileRead) return true;
      return call.op->id == ir::OpId::Cast && call.type && call.type->dtype == ir::DType::INT32;
    }
  } finder;
  for (const ir::Function& fn : program.functions)
    for (const ir::Stmt& s : fn->body) finder.visit_stmt(s);
  return finder.found;
}

namespace {

// `ptodist predict` without a data dependence computes no tile data, so its inputs need none: those
// not named by --in start as zeros (untouched zero pages) instead of seeded random data, except INT32
// ones, whose data a load and store may carry into a signal cell.
void zero_unnamed_inputs(const ir::FunctionNode& host, std::vector<std::string>& inputs) {
  for (const ir::Param& p : host.params) {
    const std::string& name = p.var->name;
    if (!p.var->type || !p.var->type->is_tensor_like() || p.var->type->dtype == ir::DType::INT32) continue;
    bool named = false;
    for (const std::string& spec : inputs) named |= spec.rfind(name + "=", 0) == 0 || spec == name;
    if (!named) inputs.push_back(name + "=zeros");
  }
}

}  // namespace

PreparedRun prepare_run(const RunFlags& f, bool persistent) {
  PreparedRun run;
  parse_defines(f.program.defines);
  run.file = load_file(f.program.file, f.program.defines, f.program.program);
  LoadedFile& lf = *run.file;
  if (!lf.module) {
    lf.diags.print(std::cerr);
    exit_with(kExitProgramError);
  }
  ir::Program p = select_program(lf.module, f.program.program);
  transforms::PassContext cx = make_pass_context(lf.diags, lf.module, p, f.program, f.no_pass);
  std::string error;
  // Named profiles come from $PTODIST_PROFILE_DIR, else the source tree's profiles/.
  const char* env = std::getenv("PTODIST_PROFILE_DIR");
  auto profile = load_profile(f.profile, &error, env ? env : PTODIST_PROFILE_DIR);
  if (!profile) usage_error(error);
  cx.profile = *profile;
  ir::Program lowered = transforms::run_pipeline(p, cx);
  lf.diags.print(std::cerr);
  if (!lowered || lf.diags.has_errors()) exit_with(kExitProgramError);
  lowered = runtime::with_l2_entry(lowered, f.entry, error);
  if (!lowered) usage_error(error);
  runtime::RunOptions options;
  options.ranks = f.program.ranks;
  options.profile = *profile;
  options.watchdog_seconds = f.watchdog;
  options.persistent = persistent;
  options.mode = f.check() ? runtime::RunOptions::Mode::Check : runtime::RunOptions::Mode::Fast;
  options.seed = f.seed;
  if (!f.trace.empty() || f.observe) {
    run.events = std::make_unique<runtime::events::EventStream>();
    options.events = run.events.get();
  }
  if (!f.trace.empty() && !f.observe) {
    run.recorder = std::make_unique<runtime::trace::RealTimeRecorder>();
    run.events->subscribe(run.recorder.get());
  }
  if (f.backend == "mpi")
    options.make_transport = [] { return runtime::MpiBackend::get()->make_transport(); };
  run.lowered = lowered;
  run.options = options;
  if (f.observe) run.data_dependence = first_data_dependence(*lowered);
  restart_run(run, f, f.seed);
  return run;
}

void restart_run(PreparedRun& run, const RunFlags& f, uint64_t seed) {
  run.options.seed = seed;
  run.args.clear();
  run.runtime = std::make_unique<runtime::Runtime>(run.lowered, run.options);
  const ir::FunctionNode* host = run.runtime->host_function();
  if (!host)
    usage_error("program '" + run.lowered->name + "' has no host orchestrator (level=pl.Level.HOST) to run");
  std::vector<std::string> inputs = f.inputs;
  if (f.observe && !run.data_dependence) zero_unnamed_inputs(*host, inputs);
  if (std::string why = runtime::prepare_host_args(*host, run.options.ranks, inputs, run.args, f.dims);
      !why.empty())
    usage_error(why);
  if (std::string why = run.runtime->check_args(run.args); !why.empty()) usage_error(why);
}

void write_real_trace(PreparedRun& run, const RunFlags& f) {
  if (f.trace.empty() || !run.recorder) return;
  runtime::trace::Timeline t = run.recorder->take();
  t.title = f.program.file + " (real time)";
  std::string error;
  if (!runtime::trace::write_chrome_json(t, f.trace, &error)) usage_error(error);
}

void fail_round(const runtime::RoundResult& r) {
  std::cerr << r.message;
  if (!r.message.empty() && r.message.back() != '\n') std::cerr << "\n";
  exit_with(r.status == runtime::RoundResult::Status::Error ? kExitProgramError : kExitHang);
}

void fail_round(const runtime::RoundResult& r, const RunFlags& f) {
  if (f.check()) {
    std::cerr << r.message;
    if (!r.message.empty() && r.message.back() != '\n') std::cerr << "\n";
    std::cerr << "check mode: seed " << f.seed << "\n";
    exit_with(r.status == runtime::RoundResult::Status::Error ? kExitProgramError : kExitHang);
  }
  fail_round(r);
}

namespace {

struct RunOptions {
  RunFlags flags;
  std::string out_dir;
  int runs = 1;  // --runs K: check mode explores seeds S..S+K-1
};

// Prints the elapsed time every few seconds while a long run is going.
class Heartbeat {
 public:
  Heartbeat() : thread_([this] { loop(); }) {}
  ~Heartbeat() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  // Check mode with --runs: which seed is running.
  void set_stage(std::string stage) {
    std::lock_guard<std::mutex> lock(mu_);
    stage_ = std::move(stage);
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (int s = 2; !cv_.wait_for(lock, std::chrono::seconds(2), [&] { return stop_; }); s += 2)
      std::cerr << "ptodist run: still running (" << s << " s" << (stage_.empty() ? "" : ", " + stage_)
                << ")\n";
  }
  std::string stage_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

// Check mode with --runs K: seed after seed, each from fresh windows and inputs; the first report
// ends the command. Returns the last run (its outputs are written).
runtime::RoundResult run_seeds(const RunOptions& o, PreparedRun& run) {
  RunFlags f = o.flags;
  runtime::RoundResult r;
  Heartbeat heartbeat;
  for (int k = 0; k < o.runs; ++k) {
    f.seed = o.flags.seed + static_cast<uint64_t>(k);
    heartbeat.set_stage("seed " + std::to_string(f.seed) + ", run " + std::to_string(k + 1) + "/" +
                        std::to_string(o.runs));
    if (k > 0) restart_run(run, f, f.seed);
    r = run.runtime->run(run.args);
    if (r.status != runtime::RoundResult::Status::Ok) fail_round(r, f);
  }
  return r;
}

int run_once(const RunOptions& o) {
  PreparedRun run = prepare_run(o.flags, false);
  runtime::MpiBackend* mpi = o.flags.backend == "mpi" ? runtime::MpiBackend::get() : nullptr;
  // With MPI, outputs that are not sliced by rank are merged from what each process changed.
  const std::map<std::string, runtime::HostTensor> before =
      mpi && !o.out_dir.empty() ? run.args : std::map<std::string, runtime::HostTensor>{};
  runtime::RoundResult r;
  if (o.flags.check()) {
    r = run_seeds(o, run);
  } else {
    Heartbeat heartbeat;
    r = run.runtime->run(run.args);
  }
  if (r.status != runtime::RoundResult::Status::Ok) fail_round(r);
  write_real_trace(run, o.flags);
  // With MPI each process holds its own rank's outputs: rank 0 gathers them and writes the files.
  const ir::FunctionNode* host = run.runtime->host_function();
  if (mpi && !o.out_dir.empty()) {
    if (std::string why = runtime::gather_host_outputs(*mpi, *host, run.args, before); !why.empty())
      usage_error(why);
  }
  if (mpi && mpi->rank() != 0) return 0;
  if (!o.out_dir.empty()) {
    if (std::string why = runtime::write_host_outputs(*host, run.args, o.out_dir); !why.empty())
      usage_error(why);
  }
  if (o.flags.check()) {
    std::cout << "check mode: " << o.runs << " run(s), seeds " << o.flags.seed << ".."
              << o.flags.seed + static_cast<uint64_t>(o.runs) - 1 << ": no hazard\n";
    return 0;
  }
  std::cerr << "ptodist run: " << o.flags.program.ranks << " ranks" << (mpi ? " (mpi)" : "") << ", "
            << r.seconds * 1e3 << " ms\n";
  return 0;
}

// Without --program, a file of several programs runs each in turn, under a header line, with its outputs
// in --out-dir's subfolder of the program's name; the first failure ends the command.
int run_each(const RunOptions& o) {
  std::vector<std::string> names;
  if (o.flags.program.program.empty()) {
    parse_defines(o.flags.program.defines);
    std::unique_ptr<LoadedFile> lf = load_file(o.flags.program.file, o.flags.program.defines);
    if (lf->module && lf->module->programs.size() > 1)
      for (const ir::Program& p : lf->module->programs) names.push_back(p->name);
  }
  if (names.empty()) return run_once(o);
  for (size_t i = 0; i < names.size(); ++i) {
    std::cout << "== program " << names[i] << " (" << i + 1 << " of " << names.size() << ") ==" << std::endl;
    RunOptions one = o;
    one.flags.program.program = names[i];
    if (!o.out_dir.empty()) one.out_dir = (std::filesystem::path(o.out_dir) / names[i]).string();
    if (int code = run_once(one); code != 0) return code;
  }
  return 0;
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* sub = app.add_subcommand("run", "run a program on N in-process ranks");
  add_run_flags(sub, o->flags);
  sub->add_option("--out-dir", o->out_dir,
                  "write every Out/InOut host parameter to DIR/<name>.npy (DIR/<program>/<name>.npy when the "
                  "file's programs run in turn)");
  sub->add_option("--runs", o->runs,
                  "check mode: run seeds S..S+K-1, each from fresh windows and inputs; stop at the first "
                  "report (default 1; needs --mode check)");
  sub->callback([o, sub] {
    if (sub->count("--out-dir") && o->out_dir.empty()) usage_error("--out-dir: the directory name is empty");
    if (sub->count("--runs") && !o->flags.check())
      usage_error("--runs explores check-mode seeds; add --mode check");
    if (o->runs < 1) usage_error("--runs must be at least 1, got " + std::to_string(o->runs));
    int code = run_each(*o);
    if (code != 0) exit_with(code);
  });
}

}  // namespace ptodist::cli
