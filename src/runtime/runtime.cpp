// One round of a program on the in-process world: bind host tensors, run the host orchestrator,
// run each rank's chip orchestration on its own thread under the watchdog, collect status and times.
#include "ptodist/runtime/runtime.h"

#include <chrono>
#include <cstring>
#include <set>

#include "check/scheduler.h"
#include "decoded.h"
#include "exec.h"
#include "ptodist/runtime/dma.h"
#include "ptodist/runtime/host_io.h"
#include "ptodist/support/diagnostics.h"
#include "rank_placement.h"
#include "task_events.h"
#include "watchdog.h"

namespace ptodist::runtime {
namespace {

RoundResult::Status status_of(World& w, std::string* message) {
  if (w.hung()) {
    *message = w.hang_report();
    return w.hazard() ? RoundResult::Status::Hazard : RoundResult::Status::Hang;
  }
  if (w.has_error()) {
    RunError e = w.error();
    Diagnostic d;
    d.span = e.span;
    d.message = e.message;
    *message = format_diagnostic(d);
    return RoundResult::Status::Error;
  }
  return RoundResult::Status::Ok;
}

}  // namespace

long long HostTensor::numel() const {
  long long n = 1;
  for (long long d : shape) n *= d;
  return n;
}

HostTensor HostTensor::zeros(ir::DType dtype, std::vector<long long> shape) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.data.resize(static_cast<size_t>(t.numel() * ir::dtype_bytes(dtype)));  // zero pages, not written
  return t;
}

std::optional<std::vector<long long>> resolve_param_shape(const ir::Param& p, int ranks,
                                                          const std::map<std::string, long long>& dyn) {
  std::vector<long long> out;
  for (const ir::Expr& d : p.var->type->shape) {
    if (auto v = ir::as_const_int(d)) {
      out.push_back(*v);
    } else if (const auto* dy = d->as<ir::Dynamic>()) {
      auto it = dyn.find(dy->name);
      if (it == dyn.end()) return std::nullopt;
      out.push_back(it->second);
    } else {
      return std::nullopt;
    }
  }
  (void)ranks;
  return out;
}

Runtime::Runtime(ir::Program program, RunOptions options)
    : program_(std::move(program)), options_(std::move(options)) {
  WorldOptions wo{options_.ranks, options_.profile, options_.make_transport};
  // Check mode runs in-process only (check_args says so when a transport was given).
  wo.check = options_.mode == RunOptions::Mode::Check && !options_.make_transport;
  wo.seed = options_.seed;
  world_ = std::make_unique<World>(wo);
  world_->set_events(options_.events);
  for (int r = 0; r < options_.ranks; ++r) {
    auto rx = std::make_unique<RankExec>();
    rx->rank = r;
    rx->vector_busy.assign(options_.profile.vector_cores, false);
    rx->cube_busy.assign(options_.profile.cube_cores, false);
    rx->vector_buffers.resize(options_.profile.vector_cores);
    rx->cube_buffers.resize(options_.profile.cube_cores);
    rx->vector_pools.resize(options_.profile.vector_cores);
    rx->cube_pools.resize(options_.profile.cube_cores);
    ranks_.push_back(std::move(rx));
  }
  decoded_ = decode_program(*program_);
  if (const ir::FunctionNode* host = host_function()) rank_dims_ = rank_dims(*host);
  rank_threads_ = std::make_unique<WorkerPool>();
  placement_ = std::make_unique<RankPlacement>();
  watchdog_ = std::make_unique<Watchdog>(*world_, options_.watchdog_seconds);
  world_->transport().set_peer_timeout(options_.watchdog_seconds);
  env_ = std::make_unique<RunEnv>();
  env_->world = world_.get();
  env_->program = program_.get();
  env_->decoded = decoded_.get();
  for (auto& rx : ranks_) env_->ranks.push_back(rx.get());
  env_->rank_calls.resize(options_.ranks);
}

void RunEnv::begin_round() {
  dyn.clear();
  rank_seconds.assign(ranks.size(), 0);
  for (auto& calls : rank_calls) calls.clear();  // keeps their capacity
  unpinned_calls = 0;
  rank_actor.clear();
  window_groups.clear();
  live_ranks = 0;
  live_blocks = 0;
}

Runtime::~Runtime() = default;

const ir::FunctionNode* Runtime::host_function() const {
  for (const ir::Function& f : program_->functions)
    if (f->kind == ir::FunctionKind::Host && !f->host_callback) return f.get();
  return nullptr;
}

std::string Runtime::check_args(const std::map<std::string, HostTensor>& args) const {
  const ir::FunctionNode* host = host_function();
  if (!host) return "program '" + program_->name + "' has no host orchestrator (level=pl.Level.HOST)";
  if (options_.mode == RunOptions::Mode::Check && options_.make_transport)
    return "check mode runs every rank in one process; it cannot use another transport (the MPI backend)";
  DimValues dims;
  return bind_args(args, dims);
}

std::string Runtime::bind_args(const std::map<std::string, HostTensor>& args, DimValues& dims) const {
  const ir::FunctionNode* host = host_function();
  std::map<std::string, std::vector<long long>> shapes;
  for (const ir::Param& p : host->params) {
    const std::string& name = p.var->name;
    if (!p.var->type->is_tensor_like())
      return "host parameter '" + name + "' is not a tensor; only tensors can be passed";
    auto it = args.find(name);
    if (it == args.end()) return "no input for host parameter '" + name + "'";
    const HostTensor& t = it->second;
    if (t.dtype != p.var->type->dtype) {
      return "input '" + name + "' has dtype " + std::string(ir::dtype_name(t.dtype)) +
             " but the program expects " + std::string(ir::dtype_name(p.var->type->dtype));
    }
    if (t.shape.size() != p.var->type->shape.size()) {
      return "input '" + name + "' has shape " + dims_str(t.shape) + " but the program expects " +
             std::to_string(p.var->type->shape.size()) + " dims (" + ir::type_str(p.var->type) + ")";
    }
    shapes[name] = t.shape;
  }
  if (std::string why = bind_host_dims(*host, shapes, dims); !why.empty()) return why;
  for (const auto& [name, shape] : shapes) {
    auto rank_dim = rank_dims_.find(name);
    if (rank_dim == rank_dims_.end()) continue;
    const size_t k = rank_dim->second;
    if (k < shape.size() && shape[k] == options_.ranks) continue;
    const std::string found = k < shape.size() ? std::to_string(shape[k]) : std::string("no");
    const std::string where = k == 0 ? "" : " in dim " + std::to_string(k);
    return "input '" + name + "' has " + found + " per-rank slices" + where + " (shape " + dims_str(shape) +
           ") but the run has " + std::to_string(options_.ranks) + " ranks";
  }
  return "";
}

RoundResult Runtime::run(std::map<std::string, HostTensor>& args) {
  RoundResult result;
  const ir::FunctionNode* host = host_function();
  DimValues dims;
  if (std::string why = check_args(args); !why.empty() || !(why = bind_args(args, dims)).empty()) {
    result.status = RoundResult::Status::Error;
    result.message = why;
    return result;
  }
  World& world = *world_;
  world.reset_status();
  bool zeroed = first_round_ || !options_.persistent;
  if (!options_.persistent && !first_round_) world.zero_windows();
  first_round_ = false;
  if (auto* s = world.scheduler()) s->begin_round();
  report_round_start(world, round_, zeroed);
  ++round_;
  RunEnv& env = *env_;
  env.begin_round();
  for (const auto& [name, value] : dims) env.dyn[name] = value;
  std::vector<Value> host_args;
  host_args.reserve(host->params.size());
  for (const ir::Param& p : host->params) {
    HostTensor& t = args.at(p.var->name);
    TensorView v;
    v.data = t.bytes();
    v.dtype = t.dtype;
    v.shape = t.shape;
    v.strides = dense_strides(t.shape);
    v.name = p.var->name;
    host_args.push_back(v);
  }
  auto start = std::chrono::steady_clock::now();
  bool transport_begun = false;
  env.run_queued = [this, &env, &transport_begun] { run_queued(env, transport_begun); };
  env.host_callback = options_.host_callback ? &options_.host_callback : nullptr;
  Frame host_frame;
  host_frame.env = &env;
  try {
    Interp(host_frame).run_function(*host, std::move(host_args));
  } catch (const RunError& e) {
    world.fail(e);
  } catch (const RunAborted&) {
  } catch (const std::exception& e) {
    world.fail(RunError{host->span, std::string("internal error in the host orchestrator: ") + e.what()});
  }
  run_queued(env, transport_begun);
  env.run_queued = nullptr;
  if (auto* s = world.scheduler()) {
    s->end_round();
    result.schedule_digest = s->digest();
  }
  world.transport().end_round(env.rank_seconds);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.rank_seconds = env.rank_seconds;
  result.status = status_of(world, &result.message);
  return result;
}

// The chip orchestrations queued so far: all of them at the end of the host orchestrator, and those
// before each host callback (a SubWorker) when it is called.
void Runtime::run_queued(RunEnv& env, bool& transport_begun) {
  World& world = *world_;
  assign_window_groups(env, options_.ranks);
  if (!transport_begun) world.transport().begin_round();
  transport_begun = true;
  // The watchdog watches the ranks' orchestrations and every block they start (the host orchestrator
  // itself waits for nothing); the round ends only when all of them have finished, even after an abort.
  watchdog_->arm();
  if (!world.aborted()) world.scheduler() ? run_ranks_checked(env) : run_ranks(env);
  {
    std::unique_lock<std::mutex> lock(env.live_mu);
    env.live_cv.wait(lock, [&] { return env.live_ranks == 0 && env.live_blocks == 0; });
  }
  watchdog_->disarm();
  placement_->end_round(env.rank_contended);
  for (int r = 0; r < options_.ranks; ++r) world.dma(r).wait_idle();
  for (auto& calls : env.rank_calls) calls.clear();
}

// The chip orchestrations the host queued for `rank`, in order, timed.
void Runtime::run_rank(RunEnv& env, int rank) {
  auto t0 = std::chrono::steady_clock::now();
  for (DeviceCall& call : env.rank_calls[rank]) run_device_call(env, rank, call);
  env.rank_seconds[rank] += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Every rank runs on its own thread: the last on the calling thread, which would only wait, the
// others on threads kept across rounds (they count down live_ranks, which run() waits for).
void Runtime::run_ranks(RunEnv& env) {
  const int local = world_->transport().local_rank();  // an MPI process runs only its own rank
  if (local >= 0) {
    env.live_ranks = 0;
    run_rank(env, local);
    return;
  }
  env.live_ranks = options_.ranks - 1;
  env.rank_contended = false;
  const bool spread = placement_->begin_round(options_.ranks);
  // Runs rank `r` on this thread, bound to a CPU of its own when the round spreads, and notes
  // whether it had to wait for that CPU (rank_placement.cpp).
  auto run_placed = [this, &env, spread](int r) {
    if (!spread) return run_rank(env, r);
    bind_to_cpu(r);
    auto t0 = std::chrono::steady_clock::now();
    long long waited = runqueue_wait_ns();
    run_rank(env, r);
    waited = runqueue_wait_ns() - waited;
    unbind_from_cpu();
    auto wall = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0);
    std::lock_guard<std::mutex> lock(env.live_mu);
    env.rank_contended |= cpu_contended(waited, wall.count());
  };
  for (int r = 0; r + 1 < options_.ranks; ++r) {
    rank_threads_->run([&env, r, run_placed] {
      run_placed(r);
      std::lock_guard<std::mutex> lock(env.live_mu);
      if (--env.live_ranks == 0) env.live_cv.notify_all();
    });
  }
  run_placed(options_.ranks - 1);
}

}  // namespace ptodist::runtime

namespace ptodist::runtime {

// Check mode: the rank orchestrators are actors spawned in rank order; their threads wait for the
// baton, which the driver hands out, and the round ends when every actor has finished.
void Runtime::run_ranks_checked(RunEnv& env) {
  check::Scheduler& sched = *world_->scheduler();
  env.rank_actor.assign(options_.ranks, -1);
  for (int r = 0; r < options_.ranks; ++r) {
    if (env.rank_calls[r].empty()) continue;
    const ir::FunctionNode* fn = env.rank_calls[r].front().fn;
    std::string name = "rank " + std::to_string(r) + ", orchestrator (" + fn->name + ")";
    int id = sched.spawn(check::kDriver, r, name, false, false);
    sched.set_origin(id, fn, fn->span);
    report_actor_spawned(*world_, id, check::kDriver, r, name);
    env.rank_actor[r] = id;
  }
  std::vector<std::thread> threads;
  for (int r = 0; r < options_.ranks; ++r) {
    if (env.rank_actor[r] < 0) continue;
    threads.emplace_back([&env, &sched, r] {
      auto t0 = std::chrono::steady_clock::now();
      try {
        sched.attach(env.rank_actor[r], nullptr);
        // After an abort only the thread that held the baton may still touch shared check state.
        for (DeviceCall& call : env.rank_calls[r]) {
          env.world->check_abort();
          run_device_call(env, r, call);
        }
      } catch (const RunAborted&) {
      }
      env.rank_seconds[r] += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      sched.finish(env.rank_actor[r]);
    });
  }
  sched.run_round();
  for (auto& t : threads) t.join();
}

}  // namespace ptodist::runtime
