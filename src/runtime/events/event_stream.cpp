// The event hub: real time since the round began, ids, and the matching that lets observers see why a
// wait returned (which notifies, which transfers) without looking into the executor.
#include "ptodist/runtime/events.h"

namespace ptodist::runtime::events {

const char* space_name(Space s) {
  switch (s) {
    case Space::None:
      return "none";
    case Space::GM:
      return "GM";
    case Space::Remote:
      return "remote";
    case Space::Vec:
      return "Vec";
    case Space::Mat:
      return "Mat";
    case Space::Left:
      return "Left";
    case Space::Right:
      return "Right";
    case Space::Acc:
      return "Acc";
    case Space::Bias:
      return "Bias";
    case Space::Scalar:
      return "scalar";
  }
  return "?";
}

const char* kind_name(Kind k) {
  static const char* names[] = {"op_begin",       "op_end",        "notify",      "wait_satisfied",
                                "transfer_issue", "transfer_done", "task_submit", "block_start",
                                "block_end",      "task_join",     "actor_start", "actor_end",
                                "task_deferred"};
  return names[static_cast<int>(k)];
}

void EventStream::begin_round() {
  std::lock_guard<std::mutex> lock(mu_);
  t0_ = std::chrono::steady_clock::now();
  next_id_ = 1;
  cell_notifies_.clear();
  cell_seen_.clear();
  sessions_.clear();
}

double EventStream::now_us() const {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0_).count();
}

uint64_t EventStream::new_id() {
  std::lock_guard<std::mutex> lock(mu_);
  return next_id_++;
}

uint64_t EventStream::new_actor_id() {
  return new_id();
}

void EventStream::emit(Event& e) {
  if (real_time_ && e.t_us == 0) e.t_us = now_us();
  for (Observer* o : observers_) o->on_event(e);
}

uint64_t EventStream::record_notify(int peer, int segment, long long offset, long long value, bool add) {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t id = next_id_++;
  std::vector<CellWrite>& writes = cell_notifies_[Cell{peer, segment, offset}];
  const long long before = writes.empty() ? 0 : writes.back().value_after;
  // The cell is INT32: an add wraps as the device's atomic add does.
  const long long after =
      add ? static_cast<int32_t>(static_cast<uint32_t>(before) + static_cast<uint32_t>(value))
          : static_cast<int32_t>(value);
  writes.push_back(CellWrite{id, after});
  return id;
}

std::vector<uint64_t> EventStream::notifies_seen(int rank, int segment, long long offset, uint64_t waiter,
                                                 long long expected, bool ge) {
  std::lock_guard<std::mutex> lock(mu_);
  Cell cell{rank, segment, offset};
  const std::vector<CellWrite>& writes = cell_notifies_[cell];
  size_t& seen = cell_seen_[{cell, waiter}];
  auto met = [&](long long v) { return ge ? v >= expected : v == expected; };
  const long long before = seen == 0 ? 0 : writes[seen - 1].value_after;
  std::vector<uint64_t> out;
  if (met(before)) return out;  // already true when the wait began
  size_t k = seen;
  while (k < writes.size() && !met(writes[k].value_after)) ++k;
  const size_t last = k < writes.size() ? k + 1 : writes.size();
  for (size_t i = seen; i < last; ++i) out.push_back(writes[i].id);
  seen = last;
  return out;
}

std::vector<uint64_t> EventStream::notifies_until(int rank, int segment, long long offset,
                                                  long long expected) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<uint64_t> out;
  if (expected <= 0) return out;
  for (const CellWrite& w : cell_notifies_[Cell{rank, segment, offset}]) {
    out.push_back(w.id);
    if (w.value_after >= expected) break;
  }
  return out;
}

uint64_t EventStream::transfer_locked(uint64_t session, uint32_t seq) {
  Transfer& t = sessions_[session][seq];
  if (t.id == 0) t.id = next_id_++;
  return t.id;
}

uint64_t EventStream::record_transfer(uint64_t session, uint32_t seq) {
  std::lock_guard<std::mutex> lock(mu_);
  return transfer_locked(session, seq);
}

std::vector<uint64_t> EventStream::transfers_waited(uint64_t session, uint32_t seq) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<uint64_t> out;
  for (auto& [s, t] : sessions_[session]) {
    if (s > seq) break;
    if (!t.waited) out.push_back(t.id);
    t.waited = true;
  }
  return out;
}

void EventStream::transfer_done(int rank, uint64_t session, uint32_t seq, int peer, long long bytes,
                                double t_begin_us) {
  Event e;
  e.kind = Kind::TransferDone;
  e.actor.rank = rank;
  e.id = record_transfer(session, seq);
  e.peer = peer;
  e.bytes = bytes;
  e.t_begin_us = t_begin_us;
  emit(e);
}

}  // namespace ptodist::runtime::events
