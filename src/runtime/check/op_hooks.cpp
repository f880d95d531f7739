// Check mode as an observer of ops: every op dispatched in check mode passes here before and after it
// runs (observed_op, the event stream's dispatch point), and what happens-before learns from a signal,
// a fence, an invalidate, a session or an async wait, and where a core may be switched out, follow from
// the op's effects in ops.def and its named operands. An op added to the table with one of those effects
// is checked without code of its own.
//
// The GM and window regions an op accesses and the transfers it issues come as their own events
// (report_accesses, report_transfer: only the op knows its region, e.g. a load's valid_shape);
// check/access_hooks.cpp consumes them.
#include "../exec.h"
#include "../remote_io.h"
#include "../task_events.h"
#include "happens_before.h"

namespace ptodist::runtime {
namespace {

bool has_param(const ir::OpCall& c, std::string_view name) {
  return ir::op_info(c.op->id).param_index(name) >= 0;
}

// A signal operand (`target` of a notify, `signal` of a wait) as its ops check it: the window, the
// cell's offsets and its byte offset in the window. Errors are the op's own (same checks, same words).
struct SignalCell {
  const TensorView* t = nullptr;
  Dims offsets;
  long long at = 0;
  WindowAddr addr() const { return WindowAddr{t->window.segment, t->window.offset + at}; }
};

SignalCell signal_cell(Interp& in, const ir::OpCall& c, OperandName slot, OperandHolder& h) {
  SignalCell s;
  s.t = &window_arg(in, c, slot, h);
  s.offsets = in.ints_arg(c, "offsets");
  s.at = signal_cell_offset(in, c, *s.t, s.offsets);
  return s;
}

// A pld.system.notify-shaped op (a peer's cell by target, peer and offsets): the collectives share the
// effect but never run unlowered.
bool notifies_a_peer(const ir::OpCall& c) {
  return has_param(c, "target") && has_param(c, "peer") && has_param(c, "offsets");
}
bool waits_on_a_cell(const ir::OpCall& c) {
  return has_param(c, "signal") && has_param(c, "offsets") && has_param(c, "expected");
}

}  // namespace

void check_before_op(Interp& in, const ir::OpCall& c, uint32_t effects) {
  constexpr uint32_t kSwitchBefore = ir::kNotify | ir::kSession | ir::kAsyncTest;
  if ((effects & kSwitchBefore) == 0) return;
  if ((effects & ir::kNotify) && notifies_a_peer(c)) {
    // The peer must be able to run before the signal lands: a switch point once the op's operands
    // are known good (a bad one is the op's error, reported without a switch).
    OperandHolder h;
    SignalCell cell = signal_cell(in, c, "target", h);
    global_peer(in, c, *cell.t);
    check_switch_point(in);
    return;
  }
  if (effects & (ir::kSession | ir::kAsyncTest)) check_switch_point(in);
}

void check_after_op(Interp& in, const ir::OpCall& c, uint32_t effects, const Value& result) {
  check::HappensBefore& hb = *in.world().hb();
  const int actor = actor_of(in);
  if ((effects & ir::kNotify) && notifies_a_peer(c)) {
    // No switch point since the signal was written: the release is recorded before any other core
    // can see the new value.
    OperandHolder h;
    SignalCell cell = signal_cell(in, c, "target", h);
    const ir::EnumImm* op = enum_arg(in, c, "op");
    hb.notify(actor, global_peer(in, c, *cell.t), cell.addr(), static_cast<int32_t>(in.int_arg(c, "value")),
              !op || op->value != "Set", {c.span, c.op->spelling, cell.t->name});
  }
  if ((effects & ir::kWait) && waits_on_a_cell(c)) {
    // Still holding the scheduler's baton: the value seen is the one that satisfied the wait.
    OperandHolder h;
    SignalCell cell = signal_cell(in, c, "signal", h);
    const ir::EnumImm* cmp = enum_arg(in, c, "cmp");
    int32_t seen = std::atomic_ref<int32_t>(*reinterpret_cast<int32_t*>(cell.t->data + cell.at))
                       .load(std::memory_order_acquire);
    hb.wait_satisfied(actor, cell.t->rank, cell.addr(), seen, in.int_arg(c, "expected"),
                      cmp && cmp->value == "Ge",
                      {c.span, c.op->spelling, describe_cell(*cell.t, cell.offsets)});
  }
  if (effects & ir::kFence) hb.fence(actor);
  if (effects & ir::kInvalidate) hb.invalidate(actor);
  if (effects & ir::kSession) {
    // Recorded with the reset of the completion word, under the baton (no switch point since).
    if (const auto* s = std::get_if<SessionValue>(&result))
      hb.session_initialised(actor, in.f.rank, *s->state, check::Access{c.span, c.op->spelling, "scratch"});
  }
  check_tile_result(in, c, result);
  if ((effects & ir::kAsyncWait) && has_param(c, "event")) {
    OperandHolder h;
    if (const auto* e = std::get_if<EventValue>(&in.operand_arg(c, "event", h)))
      hb.event_waited(actor, e->check_id);
  }
}

}  // namespace ptodist::runtime
