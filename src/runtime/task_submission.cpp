// Task submission in a chip orchestration: pl.spmd_submit / pl.submit launch a kernel task and give its
// task id; pl.system.task_dummy joins tasks and pl.system.task_invalid orders nothing; deps= lists
// order a task after others (task ids, dummies, arrays of task ids).
#include "exec.h"
#include "task_launch.h"

namespace ptodist::runtime {

namespace {

// The tasks of a deps= list: a pl.system.task_dummy stands for the tasks it joins (its own deps, kept
// flat), so a task that depends on it starts once they finished and acquires what their blocks did; an
// array of task ids stands for each of its slots; the invalid task id orders nothing.
void add_deps(const Value& x, std::vector<std::shared_ptr<TaskState>>& deps) {
  if (const auto* ids = std::get_if<std::shared_ptr<TupleValue>>(&x)) {
    if (*ids)
      for (const Value& slot : (*ids)->elements) add_deps(slot, deps);
    return;
  }
  const auto* tv = std::get_if<TaskValue>(&x);
  if (!tv || !tv->task) return;
  if (tv->task->kernel)
    deps.push_back(tv->task);
  else
    deps.insert(deps.end(), tv->task->deps.begin(), tv->task->deps.end());
}

std::vector<std::shared_ptr<TaskState>> deps_of(Interp& in, const ir::OpCall& c) {
  std::vector<std::shared_ptr<TaskState>> deps;
  if (!in.given_arg(c, "deps")) return deps;
  add_deps(in.value_of(in.operand_of(c, "deps")), deps);
  return deps;
}

}  // namespace

// The invalid task id: no task, so a deps= entry of it orders nothing (deps_of).
Value op_TaskInvalid(Interp&, const ir::OpCall&) {
  return TaskValue{};
}

// A task with no kernel and no blocks: it runs nothing, and is complete when its deps are.
Value op_TaskDummy(Interp& in, const ir::OpCall& c) {
  auto task = std::make_shared<TaskState>();
  task->span = c.span;
  task->deps = deps_of(in, c);
  task->done.store(true);  // never waited on itself: a dependent waits on its deps (deps_of)
  return TaskValue{task};
}

namespace {

// A Group submitted on `cores` blocks (a mixed kernel after expand-mixed-kernel): block b of its AIC
// kernel and block b of its AIV kernel form one core cluster with its own pipes. Its task id joins both
// kernels' tasks, as a pl.system.task_dummy does.
Value submit_group(Interp& in, const ir::OpCall& c, const ir::FunctionNode& fn, std::vector<Value> args,
                   long long cores, std::vector<std::shared_ptr<TaskState>> deps) {
  std::vector<std::shared_ptr<TaskState>> tasks;
  Value result =
      launch_group(in, fn, std::move(args), cores, std::move(deps), tasks, c.span, c.op->spelling.c_str());
  auto id = std::make_shared<TaskState>();
  id->span = c.span;
  id->deps = tasks;
  id->done.store(true);  // never waited on itself: a dependent waits on its deps (add_deps)
  if (in.f.scope_tasks)
    in.f.scope_tasks->insert(in.f.scope_tasks->end(), tasks.begin(), tasks.end());
  else
    join_tasks(in, tasks, c.span, c.op->spelling.c_str());
  auto out = std::make_shared<TupleValue>();
  out->elements = {std::move(result), TaskValue{id}};
  return out;
}

// A kernel task of `cores` blocks and its task id (pl.spmd_submit, pl.submit).
Value submit(Interp& in, const ir::OpCall& c, long long cores) {
  OperandHolder hk;
  const auto* ref = std::get_if<FuncRefValue>(&in.operand_arg(c, "kernel", hk));
  if (!ref || !ref->fn)
    in.fail(c.span, c.op->spelling + ": the first argument must name a kernel (self.kernel)");
  const ir::FunctionNode& fn = *ref->fn;
  std::span<const DecodedOperand> varargs = in.varargs_of(c);
  std::vector<Value> args;
  args.reserve(varargs.size());
  for (const DecodedOperand& a : varargs) args.push_back(in.value_of(a));
  if (args.size() != fn.params.size()) {
    in.fail(c.span, c.op->spelling + ": kernel '" + fn.name + "' takes " + std::to_string(fn.params.size()) +
                        " arguments, got " + std::to_string(args.size()));
  }
  std::vector<std::shared_ptr<TaskState>> deps = deps_of(in, c);
  if (fn.kind == ir::FunctionKind::Group)
    return submit_group(in, c, fn, std::move(args), cores, std::move(deps));
  // Inside a manual scope the submit returns at once, with the value the kernel's result stands for.
  Value early = in.f.scope_tasks ? static_result(fn, args) : NoneValue{};
  auto task = launch(in, fn, std::move(args), cores, std::move(deps), c.span, !in.f.scope_tasks);
  auto out = std::make_shared<TupleValue>();
  if (in.f.scope_tasks) {
    in.f.scope_tasks->push_back(task);
    out->elements = {std::move(early), TaskValue{task}};
    return out;
  }
  // Outside a manual scope submissions run in order: this one finishes before the next statement.
  std::vector<std::shared_ptr<TaskState>> one{task};
  join_tasks(in, one, c.span, c.op->spelling.c_str());
  // A kernel with several results gives them as one tuple (a multi-result launch unpacks it).
  Value result = task->results.empty() ? Value{NoneValue{}} : task->results[0];
  if (task->results.size() > 1) {
    auto all = std::make_shared<TupleValue>();
    all->elements = task->results;
    result = all;
  }
  out->elements = {result, TaskValue{task}};
  return out;
}

}  // namespace

Value op_SpmdSubmit(Interp& in, const ir::OpCall& c) {
  return submit(in, c, in.has_arg(c, "core_num") ? in.int_arg(c, "core_num") : 1);
}

// dumps= and allow_early_resolve= change what PyPTO's device records and when it stages consumers,
// not what runs: one block, as pl.spmd_submit's default.
Value op_Submit(Interp& in, const ir::OpCall& c) {
  return submit(in, c, 1);
}

}  // namespace ptodist::runtime
