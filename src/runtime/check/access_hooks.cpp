// Check mode's observer of memory accesses, transfers and task boundaries: what the executor reports
// on the op-event stream (report_accesses, report_transfer: exec.h; report_boundary, ...:
// task_events.h) becomes switch points and happens-before facts here, and every tile an op writes at
// its planned address is checked against in-flight transfers.
#include <atomic>

#include "../exec.h"
#include "../remote_io.h"
#include "../task_events.h"
#include "happens_before.h"
#include "scheduler.h"

namespace ptodist::runtime {
namespace {

// The bytes of region `r` reported to the happens-before tracker as read or written (one call per run
// of contiguous rows): in `rank`'s copy of a window, or the running rank's local GM.
void check_region(Interp& in, check::HappensBefore& hb, const Region& r, int rank, bool write, bool atomic,
                  const ir::OpCall& c) {
  // A window region is addressed in its segment of `rank`'s window; local GM by host address, in the
  // running core's rank.
  bool window = r.t->is_window();
  if (!window) rank = in.f.rank;
  check::Access acc{c.span, c.op->spelling, r.t->name, window ? 0 : reinterpret_cast<long long>(r.t->data)};
  int kind = atomic ? check::atomic_add_kind(r.t->dtype) : 0;
  long long rows = r.rows(), row_bytes = r.row_bytes();
  if (rows <= 0 || row_bytes <= 0) return;
  // A last dim with a stride is covered whole (from its first to its last element).
  if (!r.t->strides.empty() && r.t->strides.back() != 1)
    row_bytes = ((r.cols() - 1) * r.t->strides.back() + 1) * ir::dtype_bytes(r.t->dtype);
  auto addr = [&](long long row) {
    if (window) return r.row_addr(row, 0);
    return WindowAddr{check::kLocalGm, reinterpret_cast<long long>(r.local_ptr(row, 0))};
  };
  auto flush = [&](WindowAddr at, long long bytes) {
    if (write)
      hb.window_write(actor_of(in), rank, at, bytes, kind, acc);
    else
      hb.window_read(actor_of(in), rank, at, bytes, acc);
  };
  WindowAddr run = addr(0);
  long long run_bytes = row_bytes;
  for (long long row = 1; row < rows; ++row) {
    WindowAddr next = addr(row);
    if (next.offset == run.offset + run_bytes) {
      run_bytes += row_bytes;
      continue;
    }
    flush(run, run_bytes);
    run = next;
    run_bytes = row_bytes;
  }
  flush(run, run_bytes);
}

}  // namespace

// A load or store of a window region is a switch point (other cores may run first); local GM needs
// none: the tracker orders accesses by happens-before, not by when they ran, and only windows are
// shared between ranks. An op's accesses share one switch point: they happen under one baton.
void check_accesses(Interp& in, const ir::OpCall& c, std::span<const MemoryAccess> accesses) {
  check::HappensBefore& hb = *in.world().hb();
  for (const MemoryAccess& a : accesses) {
    if (!a.t.is_window()) continue;
    check_switch_point(in);
    break;
  }
  for (const MemoryAccess& a : accesses)
    check_region(in, hb, Region{&a.t, a.offsets, a.shape}, a.rank, a.write, a.atomic_add, c);
}

// The transfer is a switch point, known to happens-before, and landed by the scheduler where the seed
// says instead of by the DMA engine.
EventValue check_transfer_issued(Interp& in, const ir::OpCall& c, DmaTransfer& t, const TensorView& local,
                                 const std::string& remote_name) {
  check_switch_point(in);
  if (local.is_window() && local.rank == in.f.rank) {
    t.local_window = WindowAddr{local.window.segment, local.window.offset + (t.local - local.data)};
  }
  check::Access acc{c.span, c.op->spelling, remote_name};
  check::Access local_acc{c.span, c.op->spelling, local.name,
                          t.local_window.segment >= 0 ? 0 : reinterpret_cast<long long>(local.data)};
  t.check_id = in.world().hb()->transfer_issued(actor_of(in), t, acc, local_acc);
  EventValue e{t.session, t.seq, &c, std::make_shared<bool>(false)};
  e.check_id = t.check_id;
  in.world().scheduler()->submit_transfer(actor_of(in), std::move(t));
  return e;
}

// The op's tile result, when it lives at its planned address in the core's buffer, was written
// there: a hazard when an in-flight transfer still uses those bytes. A created tile is not written;
// a session's scratch is checked when the session is built (a re-initialised channel group is the
// more specific report).
void check_tile_result(Interp& in, const ir::OpCall& c, const Value& result) {
  const auto* t = std::get_if<TileValue>(&result);
  if (!t || t->storage || !t->data || c.op->id == ir::OpId::CreateTile || c.op->id == ir::OpId::AsyncSession)
    return;
  in.world().hb()->tile_written(actor_of(in), t->data, t->bytes(), check::Access{c.span, c.op->spelling, ""});
}

void check_block_started(Interp& in, const TaskState& task) {
  check::HappensBefore& hb = *in.world().hb();
  for (const auto& dep : task.deps)
    for (int b : dep->block_actors) hb.actor_joined(actor_of(in), b);
}

void check_joined(Interp& in, const std::vector<std::shared_ptr<TaskState>>& tasks) {
  check::HappensBefore& hb = *in.world().hb();
  for (const auto& t : tasks)
    for (int b : t->block_actors) hb.actor_joined(in.f.core->actor, b);
}

void check_round_start(World& world, int round, bool zeroed) {
  world.hb()->begin_round(round, zeroed);
}

void check_actor_spawned(World& world, int actor, int parent, int rank, const std::string& name) {
  world.hb()->actor_started(actor, parent, rank, name);
}

void check_deferred_satisfied(World& world, const CoreState& core, const DeferredCondition& d) {
  int32_t seen = std::atomic_ref<const int32_t>(*d.cell).load(std::memory_order_acquire);
  world.hb()->wait_satisfied(core.actor, d.rank, d.addr, seen, d.expected, true,
                             {d.span, "pld.system.defer_wait", d.cell_name});
}

}  // namespace ptodist::runtime
