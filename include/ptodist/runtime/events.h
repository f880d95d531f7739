// The executor's op-event stream (DESIGN.md §6, STYLE.md 16): one place in the executor reports every
// op start and end, transfer, notify, wait, fence and task boundary; observers (the trace writer, the
// timing model) subscribe. With no observer the executor pays one pointer test per op.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <tuple>
#include <vector>

#include "ptodist/ir/dtype.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/support/source.h"

namespace ptodist::runtime::events {

// Where an operand lives: GM (a tensor or window of the running rank), a peer's window, or an on-chip
// buffer (the tile memories of ir::Memory).
enum class Space : uint8_t { None, GM, Remote, Vec, Mat, Left, Right, Acc, Bias, Scalar };
const char* space_name(Space s);

// An operand or result as costs need it: where it lives, its element type and its 2-D extent (rows is
// the product of all leading dims).
struct Operand {
  Space space = Space::None;
  ir::DType dtype = ir::DType::FP32;
  long long rows = 0, cols = 0;
  // The bytes it occupies on this host, [addr, addr + extent): a tile's buffer, a tensor view's span
  // (the timing model orders a core's ops that touch overlapping bytes).
  uintptr_t addr = 0;
  long long extent = 0;
  long long bytes() const { return rows * cols * static_cast<long long>(ir::dtype_bytes(dtype)); }
};

enum class Kind : uint8_t {
  OpBegin,        // an op starts (after its operands are read)
  OpEnd,          // ... and ends; `result` is its tile or tensor result
  Notify,         // a notify is about to write `peer`'s cell; `id` names it
  WaitSatisfied,  // a wait returned; `deps` are the notifies (or transfers) that satisfied it
  TransferIssue,  // an async transfer was handed to the rank's DMA engine; `id` names it
  TransferDone,   // the DMA engine finished transfer `id` (real time only; t_begin_us: when it started)
  TaskSubmit,     // the actor submitted task `id` (`cores` blocks, `deps`: tasks it waits for)
  BlockStart,     // a block of task `id` starts on a core (the actor is the block)
  BlockEnd,
  TaskJoin,    // the actor waited for tasks `deps`
  ActorStart,  // a chip orchestration starts on rank `rank` (the actor)
  ActorEnd,
  // A deferred waiter's block (pld.system.defer_wait), after its BlockEnd: its conditions held; its
  // task completed only then. `deps`: the notifies that made them hold.
  TaskDeferred,
};
const char* kind_name(Kind k);

// Who reports: a block of a kernel on a core, or a rank's chip orchestration.
struct Actor {
  uint64_t id = 0;  // unique in a round
  int rank = -1;
  bool orchestrator = false;
  bool cube = false;
  int core = -1;  // the core's index among the rank's cube or vector cores
  std::string_view function;
};

struct Event {
  Kind kind = Kind::OpBegin;
  Actor actor;
  double t_us = 0;  // real time since the round began
  double t_begin_us = 0;
  ir::OpId op{};
  uint32_t effects = 0;
  const SourceSpan* span = nullptr;  // owned by the program, which outlives the round
  Operand in[3];                     // the op's tile/tensor operands in parameter order (up to 3)
  int n_in = 0;
  Operand result;
  int peer = -1;           // notify, remote access and transfers: the other rank
  long long bytes = 0;     // transfers and remote accesses: bytes moved
  long long piece = 0;     // async transfers: the session's block_bytes
  bool pipelined = false;  // a staged put/get with two staging tiles
  int cores = 0;           // TaskSubmit: blocks; BlockStart: the block index
  uint64_t id = 0;
  std::vector<uint64_t> deps;
};

class Observer {
 public:
  virtual ~Observer() = default;
  // Called on the reporting core's thread; observers that keep state lock it themselves.
  virtual void on_event(const Event& e) = 0;
  // Whether it reads Event::t_us (real time): when no observer does, events are not stamped (a clock
  // read per event is a good part of a prediction's recording run).
  virtual bool wants_real_time() const { return true; }
};

// The hub: ids, real time, the notify/wait and issue/wait matching, and fan-out to observers.
class EventStream {
 public:
  void subscribe(Observer* o) {
    observers_.push_back(o);
    real_time_ |= o->wants_real_time();
  }
  // A new round: time restarts at zero, ids and cell histories are forgotten.
  void begin_round();
  double now_us() const;
  uint64_t new_actor_id();
  uint64_t new_id();
  void emit(Event& e);  // stamps t_us unless already set

  // A notify of `peer`'s cell (segment, offset) that adds `value` (or sets it): recorded before the
  // signal is written, so a wait it satisfies finds it. Returns its id.
  uint64_t record_notify(int peer, int segment, long long offset, long long value, bool add);
  // The notifies that satisfied a wait of `waiter` on `rank`'s cell for `expected` (== or >=): of
  // those recorded since the waiter's last wait on the cell, the first ones up to the one whose
  // write made the cell's value meet the condition (all of them when none did: the cell was
  // written some other way). The cell's value is followed from zero at the round's start, so which
  // notifies satisfied a wait does not depend on how late the waiting core noticed.
  std::vector<uint64_t> notifies_seen(int rank, int segment, long long offset, uint64_t waiter,
                                      long long expected, bool ge);
  // The notifies that made `rank`'s cell at least `expected` (a deferred condition, on a monotonic
  // counter): those recorded since the round began, up to the first whose write met it (none when
  // zero already met it; all of them when none did).
  std::vector<uint64_t> notifies_until(int rank, int segment, long long offset, long long expected);
  // Async transfers by (session id, sequence number; AsyncSessionState::id, not its address: a
  // finished block's session may be freed and another's made at the same address): issue returns the
  // transfer's id; a wait for sequence `seq` is satisfied by the session's transfers up to `seq` not yet
  // waited for.
  uint64_t record_transfer(uint64_t session, uint32_t seq);
  std::vector<uint64_t> transfers_waited(uint64_t session, uint32_t seq);
  // The DMA engine of `rank` finished the session's transfer `seq` (to or from `peer`), which it
  // started at `t_begin_us`: emits TransferDone.
  void transfer_done(int rank, uint64_t session, uint32_t seq, int peer, long long bytes, double t_begin_us);

 private:
  std::vector<Observer*> observers_;
  bool real_time_ = false;  // some observer reads t_us
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  std::mutex mu_;
  uint64_t next_id_ = 1;
  using Cell = std::tuple<int, int, long long>;
  struct CellWrite {
    uint64_t id = 0;
    long long value_after = 0;  // the cell's value once this notify is applied
  };
  std::map<Cell, std::vector<CellWrite>> cell_notifies_;
  std::map<std::pair<Cell, uint64_t>, size_t> cell_seen_;
  struct Transfer {
    uint64_t id = 0;
    bool waited = false;
  };
  // By session and sequence number. The engine may finish a transfer before its issue is reported,
  // so either side makes the entry.
  std::map<uint64_t, std::map<uint32_t, Transfer>> sessions_;
  uint64_t transfer_locked(uint64_t session, uint32_t seq);
};

}  // namespace ptodist::runtime::events
