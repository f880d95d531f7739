// Orchestration: the host's `device=r` calls queue chip orchestrations per rank; kernel calls and
// pl.spmd_submit run blocks on the rank's core threads (block idx/num, deps), concurrently inside a
// manual scope and in order outside it, within the chip's core budget.
#include <chrono>
#include <map>

#include "check/scheduler.h"
#include "exec.h"
#include "ptodist/ir/functor.h"
#include "task_events.h"
#include "task_launch.h"

namespace ptodist::runtime {
namespace {

// AIC kernels run on cube cores; AIV and InCore kernels on vector cores (InCore leaves the choice to
// the compiler; the examples' InCore kernels are data movers, which the device runs on AIV).
bool uses_cube(const ir::FunctionNode& fn) {
  return fn.kind == ir::FunctionKind::AIC;
}
const char* core_kind(bool cube) {
  return cube ? "cube" : "vector";
}

// How many assignments of the function write each variable, nested blocks included.
struct AssignCounts : ir::Walker {
  std::map<int, int> count;
  void visit_stmt(const ir::Stmt& s) override {
    if (const auto* a = s->as<ir::Assign>())
      for (const ir::Var& t : a->targets)
        if (t) ++count[t->id];
    ir::Walker::visit_stmt(s);
  }
};

// The variable `e` names once the ops that return the tensor they wrote are looked through
// (`pl.store(t, offs, p)`, `pl.assemble(p, ...)`, `pl.write(p, ...)`, `pl.expand_clone(s, p)`), or null.
const ir::VarNode* written_var(const ir::Expr& e) {
  if (const auto* r = e ? e->as<ir::VarRef>() : nullptr) return r->var.get();
  const auto* c = e ? e->as<ir::OpCall>() : nullptr;
  if (!c) return nullptr;
  const char* slot = c->op->id == ir::OpId::Store         ? "output_tensor"
                     : c->op->id == ir::OpId::Assemble    ? "target"
                     : c->op->id == ir::OpId::Write       ? "dst"
                     : c->op->id == ir::OpId::ExpandClone ? "target"
                                                          : nullptr;
  const auto* r = slot && c->arg(slot) ? c->arg(slot)->as<ir::VarRef>() : nullptr;
  return r ? r->var.get() : nullptr;
}

// The parameter index a returned variable stands for, or -1: the parameter itself, or a variable that
// one top-level assignment, and no other, defines as a parameter (`ret = pl.store(r, offs, out)`;
// `return ret`, as PyPTO's kernels end).
int returned_param(const ir::FunctionNode& fn, const ir::VarNode* v, const AssignCounts& counts) {
  for (int hops = 0; v && hops < 8; ++hops) {
    for (size_t i = 0; i < fn.params.size(); ++i)
      if (fn.params[i].var.get() == v) return static_cast<int>(i);
    auto n = counts.count.find(v->id);
    if (n == counts.count.end() || n->second != 1) return -1;
    const ir::VarNode* next = nullptr;
    for (const ir::Stmt& s : fn.body)
      if (const auto* a = s->as<ir::Assign>(); a && a->targets.size() == 1 && a->targets[0].get() == v)
        next = written_var(a->value);
    v = next;
  }
  return -1;
}

// Whether `fn` registers deferred completion conditions: such a block gives its core back when its body
// ends, so it never holds a core while it waits (the budget below leaves it out).
bool defers_completion(const Interp& in, const ir::FunctionNode& fn) {
  const DecodedFunction* d = in.f.env->decoded ? in.f.env->decoded->find(&fn) : nullptr;
  return d && d->defers_completion;
}

// A task that depends on a deferred waiter starts once the waiter's conditions hold, then queues for
// a core like any block: it cannot hold a core that the tasks publishing those conditions need.
bool follows_deferred(const Interp& in, const TaskState& task) {
  for (const auto& d : task.deps)
    if (defers_completion(in, *d->kernel)) return true;
  return false;
}

bool depends_on(const TaskState& task, const TaskState* other) {
  for (const auto& d : task.deps)
    if (d.get() == other || depends_on(*d, other)) return true;
  return false;
}

// Kernels that may run at the same time must fit the chip together, or they could wait on each
// other forever (DESIGN.md §4): counted per core kind over the scope's tasks the new one does not
// depend on. Check mode keeps only the per-kernel limit: it queues blocks without a free core and
// finds a budget that really runs out as a core-budget deadlock, at run time.
void check_budget(Interp& in, const TaskState& task) {
  const ChipProfile& p = in.world().profile();
  int budget = task.cube ? p.cube_cores : p.vector_cores;
  std::string kind = core_kind(task.cube);
  if (task.cores > 1 && defers_completion(in, *task.kernel))
    in.fail(task.span, "pl.spmd_submit: kernel '" + task.kernel->name +
                           "' registers deferred completion conditions (pld.system.defer_wait) and must run "
                           "as a single-block task, but core_num is " +
                           std::to_string(task.cores));
  if (task.cores > budget) {
    in.fail(task.span, "pl.spmd_submit: kernel '" + task.kernel->name + "' needs " +
                           std::to_string(task.cores) + " " + kind + " cores but chip '" + p.name + "' has " +
                           std::to_string(budget));
  }
  if (!in.f.scope_tasks || in.world().scheduler()) return;
  if (defers_completion(in, *task.kernel) || follows_deferred(in, task)) return;
  int total = task.cores;
  std::string others;
  for (const auto& t : *in.f.scope_tasks) {
    if (t->cube != task.cube || depends_on(task, t.get()) || defers_completion(in, *t->kernel) ||
        follows_deferred(in, *t))
      continue;
    total += t->cores;
    others += (others.empty() ? "'" : ", '") + t->kernel->name + "' (" + std::to_string(t->cores) + ")";
  }
  if (total > budget) {
    in.fail(task.span, "pl.spmd_submit: kernels " + others + " and '" + task.kernel->name + "' (" +
                           std::to_string(task.cores) + ") run concurrently in this manual_scope and need " +
                           std::to_string(total) + " " + kind + " cores together, but chip '" + p.name +
                           "' has " + std::to_string(budget) + "; lower core_num or add deps");
  }
}

struct BlockJob {
  RunEnv* env;
  int rank;
  const ir::FunctionNode* fn;
  std::shared_ptr<TaskState> task;
  std::vector<Value> args;
  int block;
  int actor = -1;  // check mode: the block's actor
};

void finish_block(const BlockJob& j) {
  if (j.task->remaining.fetch_sub(1) == 1) {
    j.task->done.store(true);
    j.env->world->wake(j.rank);
  }
  std::lock_guard<std::mutex> lock(j.env->live_mu);
  if (--j.env->live_blocks == 0) j.env->live_cv.notify_all();
}

// Gives `frame` the on-chip buffers and the tile pool of core `id` (made on its first use), in one
// trip through the rank's lock.
void use_core_storage(RankExec& rx, bool cube, int id, Frame& frame) {
  std::lock_guard<std::mutex> lock(rx.mu);
  auto& buffers = cube ? rx.cube_buffers : rx.vector_buffers;
  auto& pools = cube ? rx.cube_pools : rx.vector_pools;
  if (!buffers[id]) buffers[id] = std::make_unique<CoreBuffers>();
  if (!pools[id]) pools[id] = std::make_shared<TilePool>();
  frame.buffers = buffers[id].get();
  frame.tiles = pools[id];
}

// Says which block of which kernel runs on `c` (on core `core`, -1 before it has one).
void describe_block(CoreState& c, const TaskState& task, int core, int block) {
  c.function = task.kernel->name;
  c.cube = task.cube;
  c.core = core;
  c.block_idx = block;
  c.block_num = task.cores;
}

std::string block_name(const TaskState& task, int core, int block) {
  CoreState c;
  describe_block(c, task, core, block);
  return c.name();
}

// Check mode: the block waits for the baton; the scheduler started it only once its deps finished
// (and gave it a core), so it acquires what each block of its deps did.
void start_checked_block(const BlockJob& j, CoreState& core) {
  World& world = *j.env->world;
  world.scheduler()->attach(j.actor, &core);
}

int take_core(const BlockJob& j, CoreState& core) {
  World& world = *j.env->world;
  if (auto* s = world.scheduler()) return s->core_of(j.actor);
  for (const auto& dep : j.task->deps) {
    BlockInfo info{
        "pl.spmd_submit", j.task->span, "deps: kernel '" + dep->kernel->name + "'", nullptr, nullptr, 0, ""};
    world.block_until(j.rank, &core, info, [&dep] { return dep->done.load(); });
  }
  // Every core busy: the block queues until one is given back, as a task waits for a free core on
  // the device (a deferred waiter's core frees while its task is still pending).
  RankExec& rx = *j.env->ranks[j.rank];
  int id = rx.acquire_core(j.task->cube);
  while (id < 0) {
    BlockInfo info{
        "pl.spmd_submit",
        j.task->span,
        std::string("a free ") + core_kind(j.task->cube) + " core for kernel '" + j.task->kernel->name + "'",
        nullptr,
        nullptr,
        0,
        ""};
    world.block_until(j.rank, &core, info, [&rx, &j] { return rx.has_free_core(j.task->cube); });
    id = rx.acquire_core(j.task->cube);
  }
  return id;
}

// The scheduler owns the cores in check mode; it frees the block's at finish.
void give_back_core(const BlockJob& j, int id) {
  if (j.env->world->scheduler()) return;
  j.env->ranks[j.rank]->release_core(j.task->cube, id);
  j.env->world->wake(j.rank);  // a block may be queued for a core
}

// The block's body ended and its core is free again (PyPTO: the AIV retires), but its task completes
// only once every pld.system.defer_wait condition holds: the block's thread waits for them here, off
// its core, so a task that the condition waits for can take that core. Each satisfied condition is an
// acquire, as a wait's is; a task that depends on this one acquires it at its start (the whole-cache
// invalidate Simpler's executor does at every task start).
void resolve_deferred(const BlockJob& j, CoreState& core, const std::vector<DeferredCondition>& conds) {
  World& world = *j.env->world;
  if (auto* s = world.scheduler()) s->release_core(j.actor);
  core.core = -1;
  for (const DeferredCondition& d : conds) {
    BlockInfo info{"pld.system.defer_wait", d.span, d.cell_name, d.cell, nullptr, d.expected, ">="};
    world.block_until(j.rank, &core, info, [&d] {
      auto v = static_cast<uint32_t>(std::atomic_ref<const int32_t>(*d.cell).load(std::memory_order_acquire));
      return v >= d.expected;
    });
    report_deferred_satisfied(world, core, d);
  }
  report_deferred(world, core, j.rank, *j.task, conds);
}

void run_block_on_core(BlockJob& j, CoreState& core) {
  RankExec& rx = *j.env->ranks[j.rank];
  int id = take_core(j, core);
  if (id < 0)
    throw RunError{j.task->span, "pl.spmd_submit: no free " + std::string(core_kind(j.task->cube)) +
                                     " core for kernel '" + j.task->kernel->name + "'"};
  core.core = id;
  // A block that waited for a core learns it only now.
  if (auto* s = j.env->world->scheduler())
    s->set_name(j.actor, "rank " + std::to_string(j.rank) + ", " + core.name());
  Frame frame;
  frame.env = j.env;
  frame.rank = j.rank;
  frame.core = &core;
  frame.block_idx = j.block;
  frame.block_num = j.task->cores;
  std::vector<DeferredCondition> deferred;
  frame.deferred = &deferred;
  frame.pipes = j.task->pipes.get();
  // Each block is one core cluster: its own explicit events, or the Group's its kernels share.
  CrossCoreEvents own_events;
  frame.events = j.task->pipes ? &j.task->pipes->events_of(j.block) : &own_events;
  use_core_storage(rx, j.task->cube, id, frame);
  try {
    Interp in(frame);
    report_boundary(in, events::Kind::BlockStart, j.task.get());
    std::vector<Value> results = in.run_function(*j.fn, std::move(j.args));
    report_boundary(in, events::Kind::BlockEnd, j.task.get());
    if (j.block == 0) j.task->results = std::move(results);
  } catch (...) {
    give_back_core(j, id);
    throw;
  }
  give_back_core(j, id);
  if (!deferred.empty()) resolve_deferred(j, core, deferred);
}

// Takes the job's arguments: each block has its own copy, bound into its frame without another.
void run_block(BlockJob j) {
  World& world = *j.env->world;
  CoreState core;
  core.rank = j.rank;
  describe_block(core, *j.task, -1, j.block);
  world.register_core(&core);
  check::Scheduler* sched = world.scheduler();
  try {
    if (sched) start_checked_block(j, core);
    run_block_on_core(j, core);
  } catch (const RunError& e) {
    world.fail(e);
  } catch (const RunAborted&) {
  } catch (const std::exception& e) {
    world.fail(
        RunError{j.fn->span, std::string("internal error in kernel '") + j.fn->name + "': " + e.what()});
  }
  world.unregister_core(&core);
  finish_block(j);
  if (sched) sched->finish(j.actor);
}

// Check mode: the running actor spawns the task's blocks in block order (so ids depend only on the
// schedule); a block with deps starts once they finished.
void spawn_blocks(Interp& in, const ir::FunctionNode& fn, TaskState& task) {
  check::Scheduler& s = *in.world().scheduler();
  int parent = in.f.core ? in.f.core->actor : check::kDriver;
  std::function<bool()> start_when;
  if (!task.deps.empty()) {
    start_when = [deps = task.deps] {
      for (const auto& d : deps)
        if (!d->done.load()) return false;
      return true;
    };
  }
  std::string rank = "rank " + std::to_string(in.f.rank) + ", ";
  for (int b = 0; b < task.cores; ++b) {
    int id = s.spawn(parent, in.f.rank, "", true, task.cube, start_when);
    std::string name = rank + block_name(task, s.core_of(id), b);
    s.set_name(id, name);
    s.set_origin(id, &fn, task.span);
    report_actor_spawned(in.world(), id, parent, in.f.rank, name);
    task.block_actors.push_back(id);
  }
}

// A tensor view made by pld.window in the host names no rank yet; the device call binds it.
Value bind_to_rank(World& world, Value v, int rank) {
  if (auto* t = std::get_if<TensorView>(&v)) {
    if (t->is_window() && t->rank < 0) {
      t->rank = rank;
      t->data = world.transport().window_ptr(rank, t->window);
    }
  }
  return v;
}

// What a dispatch gives the host back. The chip orchestration writes its Out/InOut tensors in place,
// so, as in PyPTO's distributed codegen, the call's value is its first Out/InOut argument, or all of
// them in order when the callee returns a tuple.
Value dispatch_result(const ir::FunctionNode& fn, const std::vector<Value>& args) {
  const bool tuple = fn.return_types.size() > 1 || (fn.return_types.size() == 1 && fn.return_types[0] &&
                                                    fn.return_types[0]->kind == ir::TypeKind::Tuple);
  auto out = std::make_shared<TupleValue>();
  for (size_t i = 0; i < fn.params.size() && i < args.size(); ++i) {
    if (fn.params[i].direction == ir::Direction::In) continue;
    if (!tuple) return args[i];
    out->elements.push_back(args[i]);
  }
  if (!tuple) return NoneValue{};
  return out;
}

// Queues the call on `rank`'s orchestrator.
Value dispatch(Interp& in, const ir::FunctionNode& fn, std::vector<Value> args, int rank) {
  for (Value& a : args) a = bind_to_rank(in.world(), std::move(a), rank);
  Value result = dispatch_result(fn, args);
  in.f.env->rank_calls[static_cast<size_t>(rank)].push_back(DeviceCall{&fn, std::move(args)});
  return result;
}

Value call_on_device(Interp& in, const ir::FuncCall& call, uint32_t device, const ir::FunctionNode& fn,
                     std::vector<Value> args) {
  long long r = in.eval_int(device);
  if (r < 0 || r >= in.world().ranks()) {
    in.fail(call.device->span, "device " + std::to_string(r) + " is not a rank of this world (0.." +
                                   std::to_string(in.world().ranks() - 1) + ")");
  }
  return dispatch(in, fn, std::move(args), static_cast<int>(r));
}

// A host call without `device=` expresses no affinity: like PyPTO's runtime, the calls go round-robin
// over the ranks in the order the host makes them, from rank 0 in every run (check reports such a call
// that passes window tensors, which need a rank).
Value call_anywhere(Interp& in, const ir::FunctionNode& fn, std::vector<Value> args) {
  RunEnv& env = *in.f.env;
  int rank = env.unpinned_calls++ % in.world().ranks();
  return dispatch(in, fn, std::move(args), rank);
}

// A SubWorker method called by the host orchestrator: the chip work queued before the call runs to
// completion (its outputs are what the callback reads), then the embedding interpreter runs the
// method on the call's host tensors, before any later chip work is queued.
Value call_host_callback(Interp& in, const ir::FuncCall& call, const ir::FunctionNode& fn,
                         std::vector<Value> args) {
  RunEnv& env = *in.f.env;
  if (in.f.rank >= 0)
    in.fail(call.span,
            "'" + fn.name + "' is a pl.Role.SubWorker method: only the host orchestrator calls it");
  if (!env.host_callback || !env.run_queued)
    in.fail(call.span, "'" + fn.name +
                           "' is a pl.Role.SubWorker method, whose body is host Python: only ptodist's "
                           "Python entry point runs it (docs/python.md)");
  std::vector<TensorView> tensors;
  for (size_t i = 0; i < args.size(); ++i) {
    const auto* t = std::get_if<TensorView>(&args[i]);
    if (!t || t->is_window())
      in.fail(call.args[i]->span, "SubWorker '" + fn.name + "': argument '" + fn.params[i].var->name +
                                      "' must be a host tensor (a SubWorker runs in host memory)");
    tensors.push_back(*t);
  }
  env.run_queued();
  if (in.world().aborted()) throw RunAborted{};
  if (std::string error = (*env.host_callback)(fn, tensors); !error.empty()) in.fail(call.span, error);
  return dispatch_result(fn, args);
}

// A call's value from the callee's returned values: None, the one value, or a tuple of them.
Value call_value(std::vector<Value> r) {
  if (r.empty()) return NoneValue{};
  if (r.size() == 1) return r[0];
  auto t = std::make_shared<TupleValue>();
  t->elements = std::move(r);
  return t;
}

// A Group call (PyPTO's FunctionType.Group): its body runs here and launches each kernel it calls at
// once, without waiting, so the AIC and AIV kernels run at the same time on their own cores and can
// block on each other's pipes; the call returns once all of them finished.
Value call_group(Interp& in, const ir::FuncCall& call, const ir::FunctionNode& fn, std::vector<Value> args) {
  std::vector<std::shared_ptr<TaskState>> tasks;
  Value r = launch_group(in, fn, std::move(args), 1, {}, tasks, call.span, "Group call");
  join_tasks(in, tasks, call.span, "Group call");
  return r;
}

}  // namespace

// The value a kernel's result stands for, known before it runs (exec.h): the argument bound to the parameter
// it returns (returned_param; `return pl.store(r, offs, out)` too). Lets an asynchronous submit return at
// once.
Value static_result(const ir::FunctionNode& fn, const std::vector<Value>& args) {
  const ir::Return* ret = nullptr;
  for (const ir::Stmt& s : fn.body)
    if (const auto* r = s->as<ir::Return>()) ret = r;
  if (!ret) return NoneValue{};
  AssignCounts counts;
  counts.visit_block(fn.body);
  std::vector<Value> out;
  for (const ir::Expr& v : ret->values) {
    int i = returned_param(fn, written_var(v), counts);
    out.push_back(i >= 0 ? args[static_cast<size_t>(i)] : Value{NoneValue{}});
  }
  if (out.size() == 1) return out[0];
  auto t = std::make_shared<TupleValue>();
  t->elements = std::move(out);
  return t;
}

Value launch_group(Interp& in, const ir::FunctionNode& fn, std::vector<Value> args, long long cores,
                   std::vector<std::shared_ptr<TaskState>> deps,
                   std::vector<std::shared_ptr<TaskState>>& tasks, const SourceSpan& span, const char* what) {
  Frame frame;
  frame.env = in.f.env;
  frame.rank = in.f.rank;
  frame.core = in.f.core;
  frame.scope_tasks = in.f.scope_tasks;
  frame.group_pipes = std::make_shared<CrossCorePipes>();
  frame.group_tasks = &tasks;
  frame.group_cores = cores;
  frame.group_deps = std::move(deps);
  try {
    return call_value(Interp(frame).run_function(fn, std::move(args)));
  } catch (...) {
    join_tasks(in, tasks, span, what);  // a kernel it launched may still run: never leave one behind
    throw;
  }
}

// `joined_now`: the submitter waits for the task at once. Then, in fast mode, it runs the last block
// itself instead of sleeping while a core thread does: one hand-off fewer per kernel call. In check
// mode every block stays an actor on its own thread.
std::shared_ptr<TaskState> launch(Interp& in, const ir::FunctionNode& fn, std::vector<Value> args,
                                  long long cores, std::vector<std::shared_ptr<TaskState>> deps,
                                  const SourceSpan& span, bool joined_now,
                                  std::shared_ptr<CrossCorePipes> pipes) {
  if (cores < 1) in.fail(span, "pl.spmd_submit: core_num must be at least 1, got " + std::to_string(cores));
  auto task = std::make_shared<TaskState>();
  task->kernel = &fn;
  task->cores = static_cast<int>(cores);
  task->cube = uses_cube(fn);
  task->span = span;
  task->deps = std::move(deps);
  task->pipes = std::move(pipes);
  check_budget(in, *task);
  // Check mode: after an abort an orchestrator must spawn nothing (only the baton holder may touch
  // the tracker), and it must throw before counting the blocks as live.
  if (in.world().scheduler()) in.world().check_abort();
  task->remaining.store(task->cores);
  report_submit(in, *task);
  RunEnv* env = in.f.env;
  {
    std::lock_guard<std::mutex> lock(env->live_mu);
    env->live_blocks += task->cores;
  }
  RankExec& rx = *env->ranks[in.f.rank];
  if (in.world().scheduler()) spawn_blocks(in, fn, *task);
  const bool run_last_here = joined_now && !in.world().scheduler();
  const int pooled = run_last_here ? task->cores - 1 : task->cores;
  for (int b = 0; b < pooled; ++b) {
    int actor = task->block_actors.empty() ? -1 : task->block_actors[static_cast<size_t>(b)];
    rx.pool.run(
        [job = BlockJob{env, in.f.rank, &fn, task, args, b, actor}]() mutable { run_block(std::move(job)); });
  }
  if (run_last_here) run_block(BlockJob{env, in.f.rank, &fn, task, std::move(args), task->cores - 1, -1});
  report_launched(in);
  return task;
}

void run_device_call(RunEnv& env, int rank, DeviceCall& call) {
  const ir::FunctionNode& fn = *call.fn;
  CoreState core;
  core.rank = rank;
  core.actor = env.rank_actor.empty() ? -1 : env.rank_actor[rank];
  core.function = fn.name;
  core.orchestrator = true;
  env.world->register_core(&core);
  Frame frame;
  frame.env = &env;
  frame.rank = rank;
  frame.core = &core;
  try {
    Interp in(frame);
    report_boundary(in, events::Kind::ActorStart);
    in.run_function(fn, std::move(call.args));
    report_boundary(in, events::Kind::ActorEnd);
  } catch (const RunError& e) {
    env.world->fail(e);
  } catch (const RunAborted&) {
  } catch (const std::exception& e) {
    env.world->fail(RunError{fn.span, std::string("internal error in '") + fn.name + "': " + e.what()});
  }
  env.world->unregister_core(&core);
}

void join_tasks(Interp& in, std::vector<std::shared_ptr<TaskState>>& tasks, const SourceSpan& span,
                const char* what) {
  for (const auto& t : tasks) {
    // A task that is done already needs no description of the wait (a string built per kernel call).
    // Check mode always goes through block_until: waiting is a switch point there.
    if (!t->done.load() || in.world().scheduler()) {
      BlockInfo info{what, span, "kernel '" + t->kernel->name + "'", nullptr, nullptr, 0, ""};
      in.world().block_until(in.f.rank, in.f.core, info, [&t] { return t->done.load(); });
    }
  }
  report_join(in, tasks, span);
  tasks.clear();
}

void check_switch_point(Interp& in) {
  check::Scheduler* s = in.world().scheduler();
  if (s && actor_of(in) >= 0) s->yield(actor_of(in));
}

Value call_function(Interp& in, const ir::FuncCall& call, const ir::FunctionNode& fn, std::vector<Value> args,
                    std::optional<uint32_t> device) {
  if (args.size() != fn.params.size()) {
    in.fail(call.span, "'" + fn.name + "' takes " + std::to_string(fn.params.size()) + " arguments, got " +
                           std::to_string(args.size()));
  }
  if (fn.host_callback) return call_host_callback(in, call, fn, std::move(args));
  if (device) return call_on_device(in, call, *device, fn, std::move(args));
  if (in.f.rank < 0) {
    if (fn.kind != ir::FunctionKind::Orchestration)
      in.fail(call.span,
              "the host orchestrator can call only chip orchestrations (pl.FunctionType.Orchestration); '" +
                  fn.name + "' is " + std::string(ir::function_kind_name(fn.kind)));
    return call_anywhere(in, fn, std::move(args));
  }
  // A Group's kernels start together, sharing its pipes; the Group call waits for them all.
  if (in.f.group_tasks && ir::is_kernel(fn.kind)) {
    Value result = static_result(fn, args);
    in.f.group_tasks->push_back(launch(in, fn, std::move(args), in.f.group_cores, in.f.group_deps, call.span,
                                       false, in.f.group_pipes));
    return result;
  }
  if (fn.kind == ir::FunctionKind::Group) return call_group(in, call, fn, std::move(args));
  // A kernel called from orchestration runs as one block and is waited for; anything else runs inline.
  if (ir::is_kernel(fn.kind) && !ir::is_kernel(in.f.fn->kind)) {
    std::vector<std::shared_ptr<TaskState>> one{launch(in, fn, std::move(args), 1, {}, call.span, true)};
    auto task = one[0];
    join_tasks(in, one, call.span, "kernel call");
    return call_value(task->results);
  }
  Frame frame;
  frame.env = in.f.env;
  frame.rank = in.f.rank;
  frame.core = in.f.core;
  frame.block_idx = in.f.block_idx;
  frame.block_num = in.f.block_num;
  frame.tiles = in.f.tiles;
  frame.buffers = in.f.buffers;
  frame.deferred = in.f.deferred;
  return call_value(Interp(frame).run_function(fn, std::move(args)));
}

}  // namespace ptodist::runtime
