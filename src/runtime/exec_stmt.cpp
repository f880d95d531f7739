// Control flow of the interpreter over a function's decoded statements (decoded.h): assignments (with
// tuple unpacking), counted and while loops, if/else, manual scopes and returns, with an abort check per
// statement so a failing run unwinds promptly.
#include "exec.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::runtime {

namespace {

// A window passed to a parameter of another shape of the same size ([SIZE] as [1, SIZE]: the call
// check allows it, as PyPTO does) is seen by the callee with the parameter's shape.
void view_window_as(TensorView& t, const ir::Type& param) {
  if (!t.is_window() || !param || param->kind != ir::TypeKind::DistTensor) return;
  auto dims = param->static_shape();
  if (!dims || dims->size() == t.shape.size() || t.strides != dense_strides(t.shape)) return;
  Dims shape;
  for (long long d : *dims) shape.push_back(d);
  if (shape_numel(shape) != t.numel()) return;
  t.shape = shape;
  t.strides = dense_strides(shape);
}

}  // namespace

std::vector<Value> Interp::run_function(const ir::FunctionNode& fn, std::vector<Value> args) {
  f.fn = &fn;
  f.code = f.env->decoded->find(&fn);
  PTODIST_INTERNAL_ASSERT(f.code, "run_function: '" + fn.name + "' was not decoded");
  f.vars.reset(static_cast<size_t>(f.code->frame_size));
  PTODIST_INTERNAL_ASSERT(args.size() == fn.params.size(),
                          "run_function: argument count differs from parameters");
  for (size_t i = 0; i < args.size(); ++i) {
    // Inside the function a tensor goes by its parameter's name, which is what reports should show.
    if (auto* t = std::get_if<TensorView>(&args[i])) {
      t->name = fn.params[i].var->name;
      view_window_as(*t, fn.params[i].var->type);
    }
    bind(fn.params[i].var, std::move(args[i]));
  }
  exec_range(0, static_cast<uint32_t>(f.code->code.size()));
  return std::move(f.results);
}

void Interp::exec_range(uint32_t begin, uint32_t end) {
  const std::vector<DecodedStmt>& code = f.code->code;
  for (uint32_t i = begin; i < end && !f.returned;) {
    const DecodedStmt& s = code[i];
    world().check_abort();
    switch (s.kind) {
      case ir::StmtKind::Assign:
        exec_assign(s);
        break;
      case ir::StmtKind::ExprStmt:
        if (s.op >= 0)
          run_op(f.code->ops[s.op]);
        else
          value_of(s.value);
        break;
      case ir::StmtKind::For:
        exec_for(s, i);
        i = s.end;
        continue;
      case ir::StmtKind::While:
        exec_while(s, i);
        i = s.end;
        continue;
      case ir::StmtKind::If:
        if (double_of(s.value) != 0)
          exec_range(i + 1, s.else_at);
        else
          exec_range(s.else_at, s.end);
        i = s.end;
        continue;
      case ir::StmtKind::ManualScope:
        exec_manual_scope(s, i);
        i = s.end;
        continue;
      case ir::StmtKind::Return: {
        f.results.clear();
        const DecodedOperand* values = f.code->operands.data() + s.values;
        for (uint32_t v = 0; v < s.n_values; ++v) f.results.push_back(value_of(values[v]));
        f.returned = true;
        break;
      }
      case ir::StmtKind::Pass:
        break;
    }
    ++i;
  }
}

Value Interp::run_op(const DecodedOp& op, long long planned_addr) {
  tick();
  // An op nested in another's operand runs while the other is running: both get theirs back after.
  const DecodedOp* outer = f.site;
  const ir::OpCall* outer_planned = f.planned_call;
  const long long outer_addr = f.planned_addr;
  // plan-memory records a tile's address on its variable's type: the op's result goes there.
  if (planned_addr >= 0) {
    f.planned_call = op.call;
    f.planned_addr = planned_addr;
  }
  f.site = &op;
  Value v = dispatch_op(*this, *op.call, op.id, op.effects);
  f.site = outer;
  f.planned_call = outer_planned;
  f.planned_addr = outer_addr;
  return v;
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

void Interp::exec_assign(const DecodedStmt& s) {
  const auto* a = static_cast<const ir::Assign*>(s.node);
  // Built in place: a default Value first would zero its whole storage on every assignment.
  Value v = s.op >= 0 ? run_op(f.code->ops[s.op], s.planned_addr) : value_of(s.value);
  if (s.target_slot >= 0) {
    f.vars.set(static_cast<size_t>(s.target_slot), std::move(v));
    return;
  }
  assign_targets(*this, *a, std::move(v));
}

// Index arithmetic on two INT64 scalars (loop indices, constants): what binary_of computes for +, -
// and *, without its call and float checks. False for anything else, and on an overflow, which
// binary_of then computes (and reports).
static bool int64_add_sub_mul(ir::BinaryOpKind op, Scalar& x, const Scalar& y) {
  if (x.dtype != ir::DType::INT64 || y.dtype != ir::DType::INT64) return false;
  long long r = 0;
  bool overflow = true;
  switch (op) {
    case ir::BinaryOpKind::Add:
      overflow = __builtin_add_overflow(x.i, y.i, &r);
      break;
    case ir::BinaryOpKind::Sub:
      overflow = __builtin_sub_overflow(x.i, y.i, &r);
      break;
    case ir::BinaryOpKind::Mul:
      overflow = __builtin_mul_overflow(x.i, y.i, &r);
      break;
    default:
      break;
  }
  if (!overflow) x.i = r;
  return !overflow;
}

bool Interp::run_steps(uint32_t first, uint32_t count, Scalar& out) {
  Scalar stack[kMaxScalarDepth];
  int top = 0;
  const ScalarStep* steps = f.code->steps.data() + first;
  for (uint32_t i = 0; i < count; ++i) {
    const ScalarStep& s = steps[i];
    if (s.kind == ScalarStep::Kind::Push) {
      if (!entry_of(s.entry, stack[top])) return false;
      ++top;
      continue;
    }
    --top;
    Scalar& x = stack[top - 1];
    if (s.kind == ScalarStep::Kind::Binary) {
      const auto& b = *static_cast<const ir::Binary*>(s.node);
      if (!int64_add_sub_mul(b.op, x, stack[top])) x = binary_of(b, x, stack[top]);
    } else {
      x = compare_of(*static_cast<const ir::Compare*>(s.node), x, stack[top]);
    }
  }
  out = stack[0];
  return true;
}

bool Interp::scalar_of(const DecodedOperand& o, Scalar& out) {
  switch (o.kind) {
    case DecodedOperand::Kind::Int:
      out = Scalar::of_int(o.value);
      return true;
    case DecodedOperand::Kind::Var:
      return entry_of(IntEntry{o.slot, 0, 0}, out);
    case DecodedOperand::Kind::Scalar:
      return run_steps(o.first, o.count, out);
    default:
      return false;
  }
}

// The flat forms first; their tree when they cannot give the value (it reports why).
Value Interp::value_of(const DecodedOperand& o) {
  if (o.kind == DecodedOperand::Kind::Var) {
    if (const Value* v = lookup_slot(o.slot)) return *v;
  }
  if (Scalar s; scalar_of(o, s)) return s;
  PTODIST_INTERNAL_ASSERT(o.kind != DecodedOperand::Kind::Missing, "a missing operand evaluated");
  return eval(o.tree);
}

long long Interp::int_of(const DecodedOperand& o) {
  if (Scalar s; scalar_of(o, s)) return s.as_int();
  PTODIST_INTERNAL_ASSERT(o.kind != DecodedOperand::Kind::Missing, "a missing operand evaluated");
  return eval_int(o.tree);
}

double Interp::double_of(const DecodedOperand& o) {
  if (Scalar s; scalar_of(o, s)) return s.as_double();
  PTODIST_INTERNAL_ASSERT(o.kind != DecodedOperand::Kind::Missing, "a missing operand evaluated");
  return eval_double(o.tree);
}

void Interp::exec_for(const DecodedStmt& loop, uint32_t at) {
  long long start = int_of(loop.start);
  long long stop = int_of(loop.stop);
  long long step = int_of(loop.step);
  if (step == 0) fail(loop.node->span, "loop step is zero");
  const auto* node = static_cast<const ir::For*>(loop.node);
  if (node->loop_kind == ir::LoopKind::SplitAiv) return exec_split_aiv(loop, at, *node);
  for (long long i = start; step > 0 ? i < stop : i > stop;) {
    // An iteration is progress for the watchdog: a long loop of scalar statements is not a hang.
    tick();
    if (loop.iv_slot >= 0) f.vars.set(static_cast<size_t>(loop.iv_slot), Scalar::of_int(i));
    exec_range(at + 1, loop.end);
    if (f.returned) return;
    if (__builtin_add_overflow(i, step, &i)) return;  // past INT64's end is past `stop`
  }
}

// The condition is evaluated before every iteration; the frontend turned break into part of it. Unlike a
// counted loop's, an iteration is not progress for the watchdog: a while loop that never ends (only its
// ops tick) is then reported as a hang instead of running forever.
void Interp::exec_while(const DecodedStmt& loop, uint32_t at) {
  while (double_of(loop.value) != 0) {
    exec_range(at + 1, loop.end);
    if (f.returned) return;
    world().check_abort();
  }
}

// Inside a manual scope submissions start at once and run concurrently (subject to `deps`); the scope
// ends when all of them have finished.
void Interp::exec_manual_scope(const DecodedStmt& scope, uint32_t at) {
  std::vector<std::shared_ptr<TaskState>> tasks;
  auto* outer = f.scope_tasks;
  f.scope_tasks = &tasks;
  try {
    exec_range(at + 1, scope.end);
  } catch (...) {
    f.scope_tasks = outer;
    throw;
  }
  f.scope_tasks = outer;
  join_tasks(*this, tasks, scope.node->span, "end of pl.manual_scope");
}

void FrameSlots::allocate(size_t n) {
  const size_t flag_raws = (n * sizeof(bool) + sizeof(Raw) - 1) / sizeof(Raw);
  storage_ = std::make_unique_for_overwrite<Raw[]>(n + flag_raws);  // raw bytes: a Value is built when bound
  bound_ = reinterpret_cast<bool*>(&storage_[n]);
  std::fill_n(bound_, n, false);
  size_ = n;
}

void FrameSlots::reset(size_t n) {
  clear();
  allocate(n);
}

void FrameSlots::set(size_t slot, Value&& v) {
  if (slot >= size_) {
    // Keep what is bound: move it into storage that covers `slot`.
    std::unique_ptr<Raw[]> old_storage = std::move(storage_);
    bool* old_bound = bound_;
    const size_t old_size = size_;
    allocate(slot + 1);
    for (size_t i = 0; i < old_size; ++i) {
      if (!old_bound[i]) continue;
      Value* old = std::launder(reinterpret_cast<Value*>(&old_storage[i]));
      new (&storage_[i]) Value(std::move(*old));
      bound_[i] = true;
      old->~Value();
    }
  }
  if (bound_[slot]) {
    // A tile or scalar variable rebound to the same kind (each op result and index in a loop) is
    // assigned as that type: the variant's own assignment would go through a visit first.
    Value& bound = *at(slot);
    if (auto* tile = std::get_if<TileValue>(&v), *old = std::get_if<TileValue>(&bound); tile && old)
      *old = std::move(*tile);
    else if (auto* scalar = std::get_if<Scalar>(&v), *old_scalar = std::get_if<Scalar>(&bound);
             scalar && old_scalar)
      *old_scalar = *scalar;
    else
      bound = std::move(v);
    return;
  }
  new (&storage_[slot]) Value(std::move(v));
  bound_[slot] = true;
}

void FrameSlots::clear() {
  for (size_t i = 0; i < size_; ++i) {
    if (bound_[i]) at(i)->~Value();
    bound_[i] = false;
  }
}

// A pl.split_aiv region: the vector lanes one after the other, each with its lane index (the loop
// variable, pl.tile.get_subblock_idx()), which pl.aiv_shard and pl.aic_gather read. The device runs the
// lanes at once; what one lane reads of the other's work must be ordered by explicit events, whose
// waits here see the sets of the lanes that ran before.
void Interp::exec_split_aiv(const DecodedStmt& loop, uint32_t at, const ir::For& node) {
  const int outer_lane = f.split_lane, outer_mode = f.split_mode;
  const long long lanes = int_of(loop.stop);
  f.split_mode = node.split_mode;
  for (long long lane = 0; lane < lanes; ++lane) {
    tick();
    f.split_lane = static_cast<int>(lane);
    if (loop.iv_slot >= 0) f.vars.set(static_cast<size_t>(loop.iv_slot), Scalar::of_int(lane));
    exec_range(at + 1, loop.end);
    if (f.returned) break;
  }
  f.split_lane = outer_lane;
  f.split_mode = outer_mode;
}

}  // namespace ptodist::runtime
