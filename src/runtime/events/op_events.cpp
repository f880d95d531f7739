// The executor's side of the event stream: every op dispatched goes through observed_op when an
// observer listens, which reports its start and end with what the op table's effects say it touches
// (operands and result, peers and bytes of remote access, the cell of a notify or wait, the event of an
// async transfer). Ops are described generically from their effects, so a new op in ops.def is
// reported without code here.
#include <optional>

#include "../exec.h"
#include "../remote_io.h"
#include "../task_events.h"
#include "ptodist/runtime/events.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::runtime {

std::optional<Value> shape_only_matmul(Interp& in, const ir::OpCall& c, ir::OpId id,
                                       const events::EventStream& ev);

namespace {

using events::Event;
using events::Kind;
using events::Operand;
using events::Space;

Space space_of(ir::Memory m) {
  switch (m) {
    case ir::Memory::Vec:
      return Space::Vec;
    case ir::Memory::Mat:
      return Space::Mat;
    case ir::Memory::Left:
      return Space::Left;
    case ir::Memory::Right:
      return Space::Right;
    case ir::Memory::Acc:
      return Space::Acc;
    case ir::Memory::Bias:
      return Space::Bias;
  }
  return Space::None;
}

// A tile or tensor value as an operand; false for anything else (scalars, sessions, ...).
bool describe(const Value& v, Operand& out) {
  if (const auto* t = std::get_if<TileValue>(&v)) {
    out = Operand{space_of(t->memory), t->dtype, t->rows(), t->cols(), reinterpret_cast<uintptr_t>(t->data),
                  t->bytes()};
    return true;
  }
  if (const auto* t = std::get_if<TensorView>(&v)) {
    long long n = t->numel();
    long long cols = t->shape.empty() ? 1 : t->shape.back();
    // The view's span: from its first element to its last (strides may leave gaps).
    long long last = 0;
    for (size_t i = 0; i < t->shape.size() && i < t->strides.size(); ++i)
      last += (t->shape[i] > 0 ? t->shape[i] - 1 : 0) * t->strides[i];
    out = Operand{Space::GM,
                  t->dtype,
                  cols ? n / cols : 0,
                  cols,
                  reinterpret_cast<uintptr_t>(t->data),
                  n > 0 ? (last + 1) * ir::dtype_bytes(t->dtype) : 0};
    return true;
  }
  return false;
}

// The tile and tensor operands the op reads in place (decoded variables): reading them has no effect.
void describe_operands(Interp& in, const ir::OpCall& c, Event& e) {
  const DecodedOp& site = in.site_of(c);
  const DecodedOperand* operands = in.f.code->operands.data() + site.first;
  for (uint8_t i = 0; i < site.count && e.n_in < 3; ++i) {
    if (operands[i].kind != DecodedOperand::Kind::Var) continue;
    const Value* v = in.lookup_slot(operands[i].slot);
    if (v && describe(*v, e.in[e.n_in])) ++e.n_in;
  }
}

events::Actor actor_of_frame(const Interp& in) {
  events::Actor a;
  a.rank = in.f.rank;
  if (const CoreState* core = in.f.core) {
    a.id = core->event_actor;
    a.orchestrator = core->orchestrator;
    a.cube = core->cube;
    a.core = core->core;
    a.function = core->function;
  }
  return a;
}

// The cell a notify writes or a wait reads: (rank, segment, byte offset in the segment).
bool signal_cell(Interp& in, const ir::OpCall& c, OperandName tensor, int rank,
                 std::tuple<int, int, long long>& out) {
  OperandHolder h;
  const auto* t = std::get_if<TensorView>(&in.operand_arg(c, tensor, h));
  if (!t || !t->is_window()) return false;
  Dims offsets = in.ints_arg(c, "offsets");
  if (offsets.size() != t->shape.size()) return false;  // the op reports it
  for (size_t i = 0; i < offsets.size(); ++i)
    if (offsets[i] < 0 || offsets[i] >= t->shape[i]) return false;
  long long at = t->byte_offset(offsets);
  out = {rank, t->window.segment, t->window.offset + at};
  return true;
}

long long product(const Dims& d) {
  long long n = 1;
  for (long long x : d) n *= x;
  return n;
}

// Bytes a remote access moves: its `shape` operand when given (in the source's dtype), else its
// source (`src` tensor or `tile`), else its tile result (a remote load).
long long remote_bytes(Interp& in, const ir::OpCall& c, const Value* result) {
  Operand source;
  for (OperandName name : {OperandName("src"), OperandName("tile")}) {
    if (!in.has_arg(c, name)) continue;
    OperandHolder h;
    if (describe(in.operand_arg(c, name, h), source)) break;
  }
  if (in.given_arg(c, "shape") && source.space != Space::None)
    return product(in.ints_arg(c, "shape")) * ir::dtype_bytes(source.dtype);
  if (source.space != Space::None) return source.bytes();
  Operand r;
  return result && describe(*result, r) ? r.bytes() : 0;
}

// Operand `name` as an integer, `otherwise` when the op has no such operand.
long long int_operand(Interp& in, const ir::OpCall& c, OperandName name, long long otherwise) {
  return in.has_arg(c, name) ? in.int_arg(c, name) : otherwise;
}

int peer_of(Interp& in, const ir::OpCall& c) {
  if (!in.decoded_operand(c, "peer")) return -1;  // no such parameter
  return static_cast<int>(in.int_arg(c, "peer"));
}

// Whether the op pipelines its transfer: a `stage2` tile (put/get) or a `pipeline` flag that is not
// written as None or False.
bool pipelined(Interp& in, const ir::OpCall& c) {
  const DecodedOperand* p = in.decoded_operand(c, "stage2");
  if (!p) p = in.decoded_operand(c, "pipeline");
  if (!p || p->kind == DecodedOperand::Kind::Missing || p->kind == DecodedOperand::Kind::None) return false;
  if (p->kind != DecodedOperand::Kind::Tree) return true;
  const DecodedExpr& x = in.expr_at(p->tree);
  return x.kind != ir::ExprKind::BoolImm || x.constant.i != 0;
}

void before(Interp& in, const ir::OpCall& c, uint32_t effects, events::EventStream& ev, Event& e) {
  describe_operands(in, c, e);
  if (effects & (ir::kReadsRemote | ir::kWritesRemote | ir::kNotify)) e.peer = peer_of(in, c);
  e.pipelined = pipelined(in, c);
}

// Reported inside the op, before it writes the peer's cell, so a wait that sees the write finds it.
void announce_notify(Interp& in, const ir::OpCall& c, events::EventStream& ev, const Event& e) {
  std::tuple<int, int, long long> cell;
  if (e.peer < 0 || !signal_cell(in, c, "target", e.peer, cell)) return;
  Event n = e;
  n.kind = Kind::Notify;
  n.t_us = 0;
  const ir::EnumImm* op = enum_arg(in, c, "op");
  n.id = ev.record_notify(std::get<0>(cell), std::get<1>(cell), std::get<2>(cell),
                          int_operand(in, c, "value", 1), !op || op->value != "Set");
  ev.emit(n);
}

void after(Interp& in, const ir::OpCall& c, uint32_t effects, events::EventStream& ev, Event& e,
           const Value& result) {
  describe(result, e.result);
  if (effects & (ir::kReadsRemote | ir::kWritesRemote)) e.bytes = remote_bytes(in, c, &result);
  if (effects & ir::kAsyncIssue) {
    if (const auto* ev_value = std::get_if<EventValue>(&result)) {
      Event t = e;
      t.kind = Kind::TransferIssue;
      t.id = ev.record_transfer(ev_value->session->id, ev_value->seq);
      t.piece = ev_value->session->block_bytes;
      ev.emit(t);
    }
  }
  if (effects & ir::kWait) {
    std::tuple<int, int, long long> cell;
    if (signal_cell(in, c, "signal", in.f.rank, cell)) {
      Event w = e;
      w.kind = Kind::WaitSatisfied;
      const ir::EnumImm* cmp = enum_arg(in, c, "cmp");
      // What the waiter has seen of the cell is its own (the actor, not the CPU core it ran on: which
      // blocks shared a core depends on the host threads, and the replay places blocks anew).
      w.deps = ev.notifies_seen(std::get<0>(cell), std::get<1>(cell), std::get<2>(cell), e.actor.id,
                                int_operand(in, c, "expected", 1), cmp && cmp->value == "Ge");
      ev.emit(w);
    }
  }
  if (effects & ir::kAsyncWait) {
    OperandHolder h;
    if (const auto* event = std::get_if<EventValue>(&in.operand_arg(c, "event", h))) {
      Event w = e;
      w.kind = Kind::WaitSatisfied;
      w.deps = ev.transfers_waited(event->session->id, event->seq);
      ev.emit(w);
    }
  }
}

}  // namespace

// The op with its start and end (and notify, transfer, wait) reported on the stream.
static Value streamed_op(Interp& in, const ir::OpCall& c, ir::OpId id, uint32_t effects,
                         events::EventStream& ev) {
  Event e;
  e.kind = Kind::OpBegin;
  e.actor = actor_of_frame(in);
  e.op = id;
  e.effects = effects;
  e.span = &c.span;
  before(in, c, effects, ev, e);
  ev.emit(e);
  if (effects & ir::kNotify) announce_notify(in, c, ev, e);
  std::optional<Value> shaped = shape_only_matmul(in, c, id, ev);
  TileDataScope data(skips_tile_data(ev));
  Value v = shaped ? std::move(*shaped) : dispatch_unobserved(in, c, id, effects);
  e.kind = Kind::OpEnd;
  e.t_us = 0;
  after(in, c, effects, ev, e, v);
  e.t_us = 0;
  ev.emit(e);
  return v;
}

// An op whose ops.def effects say it touches GM or a window (prefetch only warms a cache) must have
// reported what it touched: an internal error otherwise, so a new op cannot slip past check mode.
static void expect_accesses(const ir::OpCall& c, uint32_t effects, uint32_t reported) {
  constexpr uint32_t kTouchesMemory = ir::kReadsGM | ir::kWritesGM | ir::kReadsRemote | ir::kWritesRemote;
  if ((effects & kTouchesMemory) == 0 || (effects & ir::kPrefetch) != 0 || reported != 0) return;
  PTODIST_INTERNAL_ASSERT(false, c.op->spelling + " has a memory effect in ops.def but reported no access");
}

Value observed_op(Interp& in, const ir::OpCall& c, ir::OpId id, uint32_t effects) {
  World& world = in.world();
  const bool checked = world.hb() != nullptr;
  if (checked) check_before_op(in, c, effects);
  const uint32_t reported = in.f.accesses_reported;
  Value v = world.events() ? streamed_op(in, c, id, effects, *world.events())
                           : dispatch_unobserved(in, c, id, effects);
  expect_accesses(c, effects, in.f.accesses_reported - reported);
  if (checked) check_after_op(in, c, effects, v);
  return v;
}

void observed_accesses(Interp& in, const ir::OpCall& c, std::span<const MemoryAccess> accesses) {
  ++in.f.accesses_reported;
  if (in.world().hb()) check_accesses(in, c, accesses);
}

std::optional<EventValue> report_transfer(Interp& in, const ir::OpCall& c, DmaTransfer& t,
                                          const TensorView& local, const std::string& remote_name) {
  ++in.f.accesses_reported;
  if (!in.world().hb()) return std::nullopt;
  return check_transfer_issued(in, c, t, local, remote_name);
}

void report_boundary(Interp& in, events::Kind kind, const TaskState* task) {
  if (kind == Kind::BlockStart && task && in.world().hb()) check_block_started(in, *task);
  events::EventStream* ev = in.world().events();
  if (!ev || !in.f.core) return;
  if (kind == Kind::ActorStart || kind == Kind::BlockStart) in.f.core->event_actor = ev->new_actor_id();
  Event e;
  e.kind = kind;
  e.actor = actor_of_frame(in);
  e.cores = in.f.block_idx;
  if (task) {
    e.id = task->event_id;
    e.span = &task->span;
  }
  ev->emit(e);
}

void report_submit(Interp& in, TaskState& task) {
  events::EventStream* ev = in.world().events();
  if (!ev) return;
  task.event_id = ev->new_id();
  Event e;
  e.kind = Kind::TaskSubmit;
  e.actor = actor_of_frame(in);
  e.id = task.event_id;
  e.cores = task.cores;
  e.span = &task.span;
  for (const auto& d : task.deps) e.deps.push_back(d->event_id);
  ev->emit(e);
}

void report_launched(Interp& in) {
  if (in.world().hb()) check_switch_point(in);
}

void report_join(Interp& in, const std::vector<std::shared_ptr<TaskState>>& tasks, const SourceSpan& span) {
  if (in.world().hb() && in.f.core) check_joined(in, tasks);
  events::EventStream* ev = in.world().events();
  if (!ev || tasks.empty()) return;
  Event e;
  e.kind = Kind::TaskJoin;
  e.actor = actor_of_frame(in);
  e.span = &span;
  for (const auto& t : tasks) e.deps.push_back(t->event_id);
  ev->emit(e);
}

void report_actor_spawned(World& world, int actor, int parent, int rank, const std::string& name) {
  if (world.hb()) check_actor_spawned(world, actor, parent, rank, name);
}

void report_deferred_satisfied(World& world, const CoreState& core, const DeferredCondition& d) {
  if (world.hb()) check_deferred_satisfied(world, core, d);
}

void report_round_start(World& world, int round, bool zeroed) {
  if (world.hb()) check_round_start(world, round, zeroed);
  if (auto* ev = world.events()) ev->begin_round();
}

// After the block of a deferred waiter ended and its conditions held: the notifies that made them
// hold gate its task's completion (the timing model completes the task when they arrive).
void report_deferred(World& world, const CoreState& core, int rank, const TaskState& task,
                     const std::vector<DeferredCondition>& conds) {
  events::EventStream* ev = world.events();
  if (!ev) return;
  Event e;
  e.kind = Kind::TaskDeferred;
  e.actor.id = core.event_actor;
  e.actor.rank = rank;
  e.actor.cube = core.cube;
  e.actor.function = core.function;
  e.id = task.event_id;
  e.span = &task.span;
  for (const DeferredCondition& d : conds) {
    std::vector<uint64_t> ids = ev->notifies_until(rank, d.addr.segment, d.addr.offset, d.expected);
    e.deps.insert(e.deps.end(), ids.begin(), ids.end());
  }
  ev->emit(e);
}

}  // namespace ptodist::runtime
