// Check mode's happens-before tracker (DESIGN.md §6, docs/checking.md): vector clocks per actor and per
// DMA transfer, and shadow state of every rank's GM -- window memory and local GM (host tensors,
// kernel parameters) -- kept as byte intervals (so a large tensor costs one interval, not one entry
// per byte). The executor and the scheduler call it at every
// window access, signal, fence, invalidate, transfer and session init; each call runs while the caller
// holds the scheduler's baton, so nothing here is locked. A hazard is formatted as a located
// diagnostic naming both sides and handed to World::report_hazard, which ends the run (exit code 3).
//
// The memory model it enforces (docs/checking.md):
// - notify -> wait is release -> acquire: an AtomicAdd wait acquires every notify its value includes
//   (since the last Set), a Set wait the last Set;
// - a core's window writes (local stores into a window, put, remote_store) are released by its next
//   fence: a notify releases the writes before the core's last fence, not the ones after it, and
//   everything the core acquired (transitively);
// - an acquire becomes effective for window reads only at the next cacheinvalid (the consume-side
//   invalidate), for the core's writes (write/write order) and its notifies at once; wait_async_event
//   acquires its transfer directly (the invalidate is implied there);
// - a core's reads need no fence: a notify releases every read before it (a "slot free" signal
//   orders the reader's reads before the refill that waits for it);
// - a transfer is ordered after its issue and before the wait on its event; a session's transfers are
//   ordered in issue order (one channel group), and waiting an event drains the earlier ones too;
// - a region cacheinvalid counts as a whole-GM one (the acquisitions become visible everywhere);
// - a signal cell's plain store (pl.write/pl.store over it) starts its notify history afresh;
// - a cross-core event's sync_set -> sync_wait is release -> acquire, of everything before the set;
// - a task's start is after its submit; a join (deps, end of a manual scope, kernel call) acquires
//   every block of the joined task; rounds are ordered one after the other;
// - a notify writes its cell: an AtomicAdd notify is an atomic add of an INT32, a Set notify a plain
//   write, both ordered like the notify itself (released by it, no fence needed);
// - hazards checked: a read and a write of the same GM bytes in either order with nothing ordering
//   them (reported as the read, hazard 1; a read of bytes an unwaited transfer writes is found at the
//   read whatever landed), write/write (atomic adds of one kind commute; adds of two kinds, or an add
//   and a plain write, race), a core writing a buffer an in-flight transfer uses (session scratch,
//   GM source or destination), a session built over another's outstanding event, a stale signal;
// - shadow memory keeps, per byte range, the last write, the atomic adds since the last plain write
//   (the latest per core or transfer: a reader must be ordered after every one of them) and the reads
//   since the last write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "ptodist/runtime/dma.h"
#include "ptodist/runtime/value.h"
#include "ptodist/runtime/world.h"
#include "ptodist/support/source.h"
#include "scheduler.h"
#include "shadow_memory.h"

namespace ptodist::runtime::check {

// One transfer as happens-before sees it; ids are dense per round, handed out at issue.
using TransferId = int;

// Who accesses what, for reports: the op's source span and spelling, and the name the program uses
// for the tensor, tile or signal ("dst", "signal"). `base`: for local GM, the host address of the
// tensor's first byte (reports count bytes from it).
struct Access {
  SourceSpan span;
  std::string op;
  std::string what;
  long long base = 0;
};

// The kind of an atomic add of elements of `dtype`, as window_write takes it (0 is a plain write).
inline int atomic_add_kind(ir::DType dtype) {
  return 1 + static_cast<int>(dtype);
}

class HappensBeforeImpl;

class HappensBefore {
 public:
  explicit HappensBefore(World& world);
  ~HappensBefore();

  // A new round (0, 1, ...): every earlier access is ordered before it. `windows_zeroed`: the round
  // starts from zeroed windows (not --persistent), so no signal value survives from earlier rounds.
  void begin_round(int round, bool windows_zeroed);

  // Actors. A started actor inherits its parent's clock (kDriver: the round start); `name` is what
  // reports call it ("rank 1, vector core 0 (block 0/4 of comm_local_shard)").
  void actor_started(ActorId a, ActorId parent, int rank, std::string name);
  // `joiner` acquires everything `finished` did (deps, end of a manual scope, kernel call).
  void actor_joined(ActorId joiner, ActorId finished);

  // GM of `rank` at `at`, `bytes` long, read or written by a core (loads, stores, put, get,
  // remote_load/remote_store): window memory (at.segment >= 0) or, with at.segment == kLocalGm, the
  // rank's local GM at host address at.offset. `atomic`: 0 for a plain write, else the
  // atomic_add_kind of an atomic add; adds of one kind do not race with each other.
  void window_read(ActorId a, int rank, WindowAddr at, long long bytes, const Access& acc);
  void window_write(ActorId a, int rank, WindowAddr at, long long bytes, int atomic, const Access& acc);
  // pl.system.fence(): releases the actor's earlier window writes to its later notifies.
  void fence(ActorId a);
  // pl.system.cacheinvalid(...): makes the actor's acquisitions effective for its window reads.
  void invalidate(ActorId a);

  // Signals: the notify's release is recorded on the cell of `peer`; a satisfied wait acquires what
  // the value it saw includes, and is a hazard when only notifies of earlier rounds satisfy it.
  void notify(ActorId a, int peer, WindowAddr cell, int32_t value, bool add, const Access& acc);
  void wait_satisfied(ActorId a, int rank, WindowAddr cell, int32_t seen, long long expected, bool ge,
                      const Access& acc);

  // Explicit cross-core events (pl.system.sync_set / sync_wait), `event` naming one event of one core
  // cluster: a set releases everything the actor did before it (the set waits for its pipe to drain,
  // so no fence is needed); a satisfied wait acquires every set of the event so far, for its reads too
  // (tile loads are DMA, not cached).
  void cross_core_set(ActorId a, uint64_t event);
  void cross_core_waited(ActorId a, uint64_t event);

  // Transfers. Issue: the transfer's clock is the issuer's; its local GM side (window or local GM:
  // `local` names it) and the session's scratch stay in flight until the event is waited. `acc`
  // names the remote side.
  TransferId transfer_issued(ActorId issuer, const DmaTransfer& t, const Access& acc,
                             const Access& local = {});
  // The scheduler landed bytes [offset, offset + bytes) of the transfer (a write of the destination,
  // a read of the source).
  void transfer_piece(TransferId t, long long offset, long long bytes);
  // Every piece landed and the completion word is written.
  void transfer_completed(TransferId t);
  // wait_async_event returned: the actor acquires the transfer; its buffers are no longer in flight.
  void event_waited(ActorId a, TransferId t);
  // A session was built on (rank, s.sync_id): a hazard while another session's event is outstanding
  // (issued, not yet waited) on the same channel group.
  void session_initialised(ActorId a, int rank, const AsyncSessionState& s, const Access& acc);
  // A core wrote `bytes` of on-chip memory at `data` (a tile result at its planned address): a hazard
  // when that overlaps a staging tile or session scratch of a transfer still in flight.
  void tile_written(ActorId a, const std::byte* data, long long bytes, const Access& acc);

  // For tests: how many intervals the shadow state of (rank, segment) holds.
  int shadow_intervals(int rank, int segment) const;

 private:
  std::unique_ptr<HappensBeforeImpl> impl_;
};

}  // namespace ptodist::runtime::check
