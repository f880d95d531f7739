// Control flow of the interpreter: assignments (with tuple unpacking), counted loops, if/else,
// manual scopes and returns, with an abort check per statement so a failing run unwinds promptly.
#include "exec.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::runtime {

std::vector<Value> Interp::run_function(const ir::FunctionNode& fn, std::vector<Value> args) {
  f.fn = &fn;
  if (auto it = f.env->frame_sizes->find(&fn); it != f.env->frame_sizes->end()) {
    f.vars.resize(it->second);
    f.defined.assign(it->second, 0);
  }
  PTODIST_INTERNAL_ASSERT(args.size() == fn.params.size(),
                          "run_function: argument count differs from parameters");
  for (size_t i = 0; i < args.size(); ++i) {
    // Inside the function a tensor goes by its parameter's name, which is what reports should show.
    if (auto* t = std::get_if<TensorView>(&args[i])) t->name = fn.params[i].var->name;
    bind(fn.params[i].var, std::move(args[i]));
  }
  exec_block(fn.body);
  return std::move(f.results);
}

void Interp::exec_block(const ir::Block& b) {
  for (const ir::Stmt& s : b) {
    if (f.returned) return;
    exec_stmt(s);
  }
}

static void assign_targets(Interp& in, const ir::Assign& a, Value value) {
  if (a.targets.size() == 1) {
    in.bind(a.targets[0], std::move(value));
    return;
  }
  auto* tuple = std::get_if<std::shared_ptr<TupleValue>>(&value);
  if (!tuple || (*tuple)->elements.size() != a.targets.size()) {
    in.fail(a.span, "cannot unpack the value into " + std::to_string(a.targets.size()) + " targets");
  }
  for (size_t i = 0; i < a.targets.size(); ++i) in.bind(a.targets[i], (*tuple)->elements[i]);
}

void Interp::exec_stmt(const ir::Stmt& s) {
  world().check_abort();
  switch (s->kind) {
    case ir::StmtKind::Assign: {
      const auto* a = s->as<ir::Assign>();
      const ir::VarNode* target = a->targets.size() == 1 ? a->targets[0].get() : nullptr;
      if (target && target->type && target->type->kind == ir::TypeKind::Tile && target->type->addr >= 0) {
        f.planned_call = a->value->as<ir::OpCall>();
        f.planned_addr = target->type->addr;
      }
      Value v = eval(a->value);
      f.planned_call = nullptr;
      assign_targets(*this, *a, std::move(v));
      return;
    }
    case ir::StmtKind::ExprStmt:
      eval(s->as<ir::ExprStmt>()->value);
      return;
    case ir::StmtKind::For:
      exec_for(*s->as<ir::For>());
      return;
    case ir::StmtKind::If: {
      const auto* i = s->as<ir::If>();
      if (eval_double(i->cond) != 0)
        exec_block(i->then_body);
      else
        exec_block(i->else_body);
      return;
    }
    case ir::StmtKind::ManualScope:
      exec_manual_scope(*s->as<ir::ManualScope>());
      return;
    case ir::StmtKind::Return: {
      const auto* r = s->as<ir::Return>();
      f.results.clear();
      for (const ir::Expr& v : r->values) f.results.push_back(eval(v));
      f.returned = true;
      return;
    }
    case ir::StmtKind::Pass:
      return;
  }
}

void Interp::exec_for(const ir::For& loop) {
  long long start = loop.start ? eval_int(loop.start) : 0;
  long long stop = eval_int(loop.stop);
  long long step = loop.step ? eval_int(loop.step) : 1;
  if (step == 0) fail(loop.span, "loop step is zero");
  for (long long i = start; step > 0 ? i < stop : i > stop; i += step) {
    bind(loop.iv, Scalar::of_int(i));
    exec_block(loop.body);
    if (f.returned) return;
  }
}

// Inside a manual scope submissions start at once and run concurrently (subject to `deps`); the scope
// ends when all of them have finished.
void Interp::exec_manual_scope(const ir::ManualScope& scope) {
  std::vector<std::shared_ptr<TaskState>> tasks;
  auto* outer = f.scope_tasks;
  f.scope_tasks = &tasks;
  try {
    exec_block(scope.body);
  } catch (...) {
    f.scope_tasks = outer;
    throw;
  }
  f.scope_tasks = outer;
  join_tasks(*this, tasks, scope.span, "end of pl.manual_scope");
}

}  // namespace ptodist::runtime
