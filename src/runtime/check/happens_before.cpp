// Check mode's happens-before tracker (see happens_before.h for the memory model): clocks of actors
// and transfers, shadow window memory, signal histories and in-flight buffers, and the hazard checks
// run at each hook. Every hook runs under the scheduler's baton, so nothing here is locked.
#include "happens_before.h"

#include <map>
#include <tuple>
#include <vector>

#include "hazard_report.h"
#include "shadow_memory.h"
#include "signal_history.h"
#include "vector_clock.h"

namespace ptodist::runtime::check {

namespace {

// One actor: its clock split in three. `now` is its own component (the epoch of its next write);
// `released` is `now` at its last fence (what a notify publishes of its own writes); `acq` is what it
// acquired (waits, joins, events: used for its writes and released by its notifies) and `vis` the
// part of that its window reads may rely on (an acquire from a wait becomes visible at the next
// invalidate).
struct ActorState {
  bool known = false;
  int rank = 0;
  std::string name;
  int comp = -1;
  uint32_t now = 1;
  uint32_t released = 0;
  VectorClock acq, vis;
  // The last notify: `now` then and `released` then (a write in between was published unfenced).
  uint32_t notify_now = 0;
  uint32_t notify_released = 0;
};

// Who did a write, for reports.
struct Record {
  int rank = 0;
  std::string who;
  Access acc;
};

struct TransferState {
  int comp = -1;
  ActorId issuer = kDriver;
  int rank = 0;
  VectorClock clock;  // the issuer's at issue, with the issuer's own component
  DmaTransfer t;
  int record = -1;
  bool waited = false;
};

// A buffer a transfer still uses: its staging tile (local non-window memory) or session scratch.
struct InFlight {
  const std::byte* begin = nullptr;
  const std::byte* end = nullptr;
  TransferId transfer = -1;
  bool scratch = false;
};

// The issuing rank's window range a transfer reads (put) or writes (get) until its event is waited.
struct InFlightWindow {
  int rank = 0;
  WindowAddr at;
  long long bytes = 0;
  TransferId transfer = -1;
};

}  // namespace

class HappensBeforeImpl {
 public:
  explicit HappensBeforeImpl(World& world) : world_(world) { reset(); }

  World& world_;
  int round_ = 0;
  bool reported_ = false;
  int next_comp_ = 0;
  std::vector<ActorState> actors_;  // by actor id + 1 (the driver first)
  std::vector<TransferState> transfers_;
  std::vector<Record> records_;
  std::map<std::tuple<int, const void*, int, int>, int> record_index_;
  ShadowMemory shadow_;
  SignalHistory signals_;
  std::vector<InFlight> in_flight_;
  std::vector<InFlightWindow> in_flight_windows_;
  std::map<const AsyncSessionState*, SourceSpan> sessions_;

  void reset() {
    next_comp_ = 0;
    actors_.clear();
    transfers_.clear();
    records_.clear();
    record_index_.clear();
    shadow_.clear();
    in_flight_.clear();
    in_flight_windows_.clear();
    sessions_.clear();
    reported_ = false;
    actor(kDriver).name = "host orchestrator";
  }

  ActorState& actor(ActorId a) {
    size_t i = static_cast<size_t>(a + 1);
    if (i >= actors_.size()) actors_.resize(i + 1);
    ActorState& s = actors_[i];
    if (!s.known) {
      s.known = true;
      s.comp = next_comp_++;
      if (s.name.empty()) s.name = "actor " + std::to_string(a);
    }
    return s;
  }

  int record(const ActorState& a, const Access& acc) {
    auto key = std::make_tuple(a.comp, static_cast<const void*>(acc.span.file), acc.span.line, acc.span.col);
    auto it = record_index_.find(key);
    if (it != record_index_.end()) return it->second;
    records_.push_back(Record{a.rank, a.name, acc});
    record_index_.emplace(key, static_cast<int>(records_.size()) - 1);
    return static_cast<int>(records_.size()) - 1;
  }

  void report(std::string text) {
    if (reported_) return;
    reported_ = true;
    world_.report_hazard(std::move(text));
  }

  Side side_of(const Record& r) const { return Side{r.rank, r.who, r.acc.span, r.acc.op}; }
  static Side side_of(const ActorState& a, const Access& acc) { return Side{a.rank, a.name, acc.span, acc.op}; }

  // The component of an epoch, when it belongs to a transfer.
  const TransferState* transfer_of(int comp) const {
    for (const TransferState& t : transfers_)
      if (t.comp == comp) return &t;
    return nullptr;
  }
  const ActorState* actor_of(int comp) const {
    for (const ActorState& a : actors_)
      if (a.known && a.comp == comp) return &a;
    return nullptr;
  }

  // Which ordering edge is missing between the write `w` and a read by `r` (null: a transfer).
  std::string missing_edge(const ActorState* r, const ShadowWrite& w) const {
    if (const TransferState* t = transfer_of(w.epoch.comp)) {
      if (r && r->acq.covers(w.epoch)) return "no cacheinvalid after the wait";
      const ActorState& issuer = actors_[static_cast<size_t>(t->issuer + 1)];
      if (issuer.notify_now > t->clock.get(issuer.comp))
        return "the transfer's event is not waited before the notify";
      return "no wait acquires it";
    }
    if (const ActorState* wr = actor_of(w.epoch.comp)) {
      if (wr->notify_released < w.epoch.time && w.epoch.time <= wr->notify_now)
        return "no fence between the write and the notify";
    }
    if (r && r->acq.covers(w.epoch)) return "no cacheinvalid after the wait";
    return "no wait acquires it";
  }

  // Read of window bytes by an actor (r) or a transfer (r null), with the clock that orders it;
  // `reader()` names it, built only for a report.
  template <class SideFn>
  void check_read(const ActorState* r, int self_comp, const VectorClock& clock, SideFn reader, int owner,
                  WindowAddr at, long long bytes, const std::string& what) {
    ShadowSegment& seg = shadow_.at(owner, at.segment);
    auto hit = seg.find_unordered(at.offset, at.offset + bytes, [&](const ShadowWrite& w) {
      return w.epoch.comp == self_comp || clock.covers(w.epoch);
    });
    if (!hit) return;
    report(report_unordered_read(reader(), hit->begin, hit->end, what, owner, side_of(records_[hit->write.record]),
                                 missing_edge(r, hit->write)));
  }

  template <class SideFn>
  void check_write(int self_comp, const VectorClock& clock, bool atomic, SideFn writer, int owner, WindowAddr at,
                   long long bytes, const std::string& what) {
    ShadowSegment& seg = shadow_.at(owner, at.segment);
    auto hit = seg.find_unordered(at.offset, at.offset + bytes, [&](const ShadowWrite& w) {
      return w.epoch.comp == self_comp || clock.covers(w.epoch) || (atomic && w.atomic);
    });
    if (hit)
      report(report_write_race(writer(), hit->begin, hit->end, what, owner, side_of(records_[hit->write.record])));
  }

  void record_write(int owner, WindowAddr at, long long bytes, const ShadowWrite& w) {
    shadow_.at(owner, at.segment).record(at.offset, at.offset + bytes, w);
    if (!w.atomic && !signals_.empty()) signals_.reset_range(owner, at.segment, at.offset, at.offset + bytes);
  }

  // `a` acquires transfer `t` (its clock and its writes), for writes and reads alike.
  static void acquire_transfer(ActorState& a, const TransferState& t) {
    a.acq.join(t.clock);
    a.acq.raise(t.comp, 1);
    a.vis.join(t.clock);
    a.vis.raise(t.comp, 1);
  }

  void check_in_flight_window(ActorState& a, int rank, WindowAddr at, long long bytes, const Access& acc);
  void check_read_of_get(ActorState& a, int rank, WindowAddr at, long long bytes, const Access& acc);
  void transfer_piece(TransferId id, long long offset, long long bytes);
  void event_waited(ActorId a, TransferId id);
  void tile_written(ActorId a, const std::byte* data, long long bytes, const Access& acc);
};

// A read of the destination of a get still in flight: whatever has landed, nothing orders it.
void HappensBeforeImpl::check_read_of_get(ActorState& a, int rank, WindowAddr at, long long bytes,
                                          const Access& acc) {
  for (const InFlightWindow& f : in_flight_windows_) {
    const TransferState& t = transfers_[static_cast<size_t>(f.transfer)];
    if (t.t.is_put || f.rank != rank || f.at.segment != at.segment) continue;
    long long begin = std::max(f.at.offset, at.offset), end = std::min(f.at.offset + f.bytes, at.offset + bytes);
    if (begin >= end) continue;
    report(report_unordered_read(side_of(a, acc), begin, end, acc.what, rank,
                                 side_of(records_[static_cast<size_t>(t.record)]),
                                 "its event is not waited before the read"));
    return;
  }
}

void HappensBeforeImpl::transfer_piece(TransferId id, long long offset, long long bytes) {
  if (reported_ || id < 0 || static_cast<size_t>(id) >= transfers_.size()) return;
  TransferState& t = transfers_[static_cast<size_t>(id)];
  const Record& rec = records_[static_cast<size_t>(t.record)];
  auto dma = [&] { return Side{rec.rank, "DMA of " + rec.who, rec.acc.span, rec.acc.op}; };
  WindowAddr remote{t.t.remote.segment, t.t.remote.offset + offset};
  bool local_window = t.t.local_window.segment >= 0;
  WindowAddr local{t.t.local_window.segment, t.t.local_window.offset + offset};
  ShadowWrite w{Epoch{t.comp, 1}, false, t.record};
  if (t.t.is_put) {
    if (local_window) check_read(nullptr, t.comp, t.clock, dma, t.rank, local, bytes, rec.acc.what);
    check_write(t.comp, t.clock, false, dma, t.t.peer, remote, bytes, rec.acc.what);
    if (!reported_) record_write(t.t.peer, remote, bytes, w);
  } else {
    check_read(nullptr, t.comp, t.clock, dma, t.t.peer, remote, bytes, rec.acc.what);
    if (local_window) {
      check_write(t.comp, t.clock, false, dma, t.rank, local, bytes, rec.acc.what);
      if (!reported_) record_write(t.rank, local, bytes, w);
    }
  }
}

void HappensBeforeImpl::event_waited(ActorId a, TransferId id) {
  if (reported_ || id < 0 || static_cast<size_t>(id) >= transfers_.size()) return;
  ActorState& s = actor(a);
  const TransferState& done = transfers_[static_cast<size_t>(id)];
  // The completion word is monotonic: an event's wait drains every earlier transfer of its session.
  for (TransferState& t : transfers_) {
    if (t.waited || t.t.session != done.t.session || t.t.seq > done.t.seq) continue;
    t.waited = true;
    acquire_transfer(s, t);
  }
  auto waited = [&](TransferId t) { return transfers_[static_cast<size_t>(t)].waited; };
  std::erase_if(in_flight_, [&](const InFlight& f) { return waited(f.transfer); });
  std::erase_if(in_flight_windows_, [&](const InFlightWindow& f) { return waited(f.transfer); });
}

void HappensBeforeImpl::tile_written(ActorId a, const std::byte* data, long long bytes, const Access& acc) {
  if (reported_ || in_flight_.empty()) return;
  const std::byte* end = data + bytes;
  for (const InFlight& f : in_flight_) {
    if (f.end <= data || end <= f.begin) continue;
    const TransferState& t = transfers_[static_cast<size_t>(f.transfer)];
    const Record& rec = records_[static_cast<size_t>(t.record)];
    int sync_id = t.t.session ? t.t.session->sync_id : 0;
    auto it = sessions_.find(t.t.session.get());
    SourceSpan session = f.scratch && it != sessions_.end() ? it->second : SourceSpan{};
    report(report_inflight_overwrite(side_of(actor(a), acc),
                                     f.scratch ? scratch_buffer(sync_id) : std::string("the staging tile"),
                                     side_of(rec), session, sync_id));
    return;
  }
}

void HappensBeforeImpl::check_in_flight_window(ActorState& a, int rank, WindowAddr at, long long bytes,
                                               const Access& acc) {
  for (const InFlightWindow& f : in_flight_windows_) {
    if (f.rank != rank || f.at.segment != at.segment) continue;
    long long begin = std::max(f.at.offset, at.offset), end = std::min(f.at.offset + f.bytes, at.offset + bytes);
    if (begin >= end) continue;
    const TransferState& t = transfers_[static_cast<size_t>(f.transfer)];
    const Record& rec = records_[static_cast<size_t>(t.record)];
    report(report_inflight_overwrite(side_of(a, acc), window_buffer(t.t.is_put, begin, end, acc.what, rank),
                                     side_of(rec), SourceSpan{}, 0));
    return;
  }
}

HappensBefore::HappensBefore(World& world) : impl_(std::make_unique<HappensBeforeImpl>(world)) {}
HappensBefore::~HappensBefore() = default;

void HappensBefore::begin_round(int round, bool windows_zeroed) {
  impl_->reset();
  impl_->round_ = round;
  impl_->signals_.begin_round(windows_zeroed);
}

void HappensBefore::actor_started(ActorId a, ActorId parent, int rank, std::string name) {
  HappensBeforeImpl& m = *impl_;
  ActorState& p = m.actor(parent);
  VectorClock inherited = p.acq;
  inherited.raise(p.comp, p.now);
  p.now++;  // the parent's later writes are not ordered before the child
  ActorState& s = m.actor(a);
  s.rank = rank;
  s.name = std::move(name);
  s.acq = inherited;
  s.vis = std::move(inherited);
}

void HappensBefore::actor_joined(ActorId joiner, ActorId finished) {
  HappensBeforeImpl& m = *impl_;
  ActorState& f = m.actor(finished);
  VectorClock got = f.acq;
  got.raise(f.comp, f.now);
  ActorState& j = m.actor(joiner);
  j.acq.join(got);
  j.vis.join(got);
}

void HappensBefore::window_read(ActorId a, int rank, WindowAddr at, long long bytes, const Access& acc) {
  HappensBeforeImpl& m = *impl_;
  if (m.reported_ || bytes <= 0) return;
  ActorState& s = m.actor(a);
  if (!m.in_flight_windows_.empty()) m.check_read_of_get(s, rank, at, bytes, acc);
  if (m.reported_) return;
  m.check_read(&s, s.comp, s.vis, [&] { return HappensBeforeImpl::side_of(s, acc); }, rank, at, bytes, acc.what);
}

void HappensBefore::window_write(ActorId a, int rank, WindowAddr at, long long bytes, bool atomic,
                                 const Access& acc) {
  HappensBeforeImpl& m = *impl_;
  if (m.reported_ || bytes <= 0) return;
  ActorState& s = m.actor(a);
  if (!m.in_flight_windows_.empty()) m.check_in_flight_window(s, rank, at, bytes, acc);
  if (m.reported_) return;
  m.check_write(s.comp, s.acq, atomic, [&] { return HappensBeforeImpl::side_of(s, acc); }, rank, at, bytes,
                acc.what);
  if (m.reported_) return;
  m.record_write(rank, at, bytes, ShadowWrite{Epoch{s.comp, s.now}, atomic, m.record(s, acc)});
}

void HappensBefore::fence(ActorId a) {
  ActorState& s = impl_->actor(a);
  s.released = s.now;
  s.now++;
}

void HappensBefore::invalidate(ActorId a) {
  ActorState& s = impl_->actor(a);
  s.vis.join(s.acq);
}

void HappensBefore::notify(ActorId a, int peer, WindowAddr cell, int32_t value, bool add, const Access& acc) {
  HappensBeforeImpl& m = *impl_;
  if (m.reported_) return;
  ActorState& s = m.actor(a);
  Contribution c;
  c.value = value;
  c.add = add;
  c.round = m.round_;
  c.release = s.acq;
  c.release.raise(s.comp, s.released);
  c.rank = s.rank;
  c.who = s.name;
  c.span = acc.span;
  c.op = acc.op;
  s.notify_now = s.now;
  s.notify_released = s.released;
  m.signals_.notify(peer, cell.segment, cell.offset, std::move(c));
}

void HappensBefore::wait_satisfied(ActorId a, int rank, WindowAddr cell, int32_t seen, long long expected,
                                   bool ge, const Access& acc) {
  HappensBeforeImpl& m = *impl_;
  if (m.reported_) return;
  const SignalHistory::Cell* h = m.signals_.find(rank, cell.segment, cell.offset);
  if (!h) return;
  ActorState& s = m.actor(a);
  WaitVerdict v = judge_wait(*h, m.round_, expected, ge);
  if (v.stale) {
    Side notifier{v.stale->rank, v.stale->who, v.stale->span, v.stale->op};
    m.report(report_stale_signal(HappensBeforeImpl::side_of(s, acc), seen, acc.what, v.this_round, notifier,
                                 v.stale->round));
    return;
  }
  for (const Contribution& c : *h)
    if (c.round == m.round_) s.acq.join(c.release);
}

TransferId HappensBefore::transfer_issued(ActorId issuer, const DmaTransfer& t, const Access& acc) {
  HappensBeforeImpl& m = *impl_;
  ActorState& s = m.actor(issuer);
  TransferState x;
  x.comp = m.next_comp_++;
  x.issuer = issuer;
  x.rank = s.rank;
  x.clock = s.acq;
  x.clock.raise(s.comp, s.now);
  x.t = t;
  // A session's transfers run in issue order on its channel group: each is after the earlier ones.
  for (const TransferState& earlier : m.transfers_)
    if (t.session && earlier.t.session == t.session) x.clock.raise(earlier.comp, 1);
  m.records_.push_back(Record{s.rank, s.name, acc});
  x.record = static_cast<int>(m.records_.size()) - 1;
  s.now++;  // the issuer's later writes are not ordered before the transfer
  TransferId id = static_cast<TransferId>(m.transfers_.size());
  m.transfers_.push_back(std::move(x));
  if (t.local_window.segment < 0 && t.local) m.in_flight_.push_back(InFlight{t.local, t.local + t.bytes, id, false});
  if (t.local_window.segment >= 0) m.in_flight_windows_.push_back(InFlightWindow{s.rank, t.local_window, t.bytes, id});
  if (t.session && t.session->scratch.data) {
    const TileValue& sc = t.session->scratch;
    m.in_flight_.push_back(InFlight{sc.data, sc.data + sc.bytes(), id, true});
  }
  return id;
}

void HappensBefore::transfer_piece(TransferId t, long long offset, long long bytes) {
  impl_->transfer_piece(t, offset, bytes);
}

void HappensBefore::transfer_completed(TransferId) {}

void HappensBefore::event_waited(ActorId a, TransferId t) {
  impl_->event_waited(a, t);
}

void HappensBefore::session_initialised(ActorId a, int rank, const AsyncSessionState& s, const Access& acc) {
  HappensBeforeImpl& m = *impl_;
  if (m.reported_) return;
  for (const TransferState& t : m.transfers_) {
    if (t.waited || t.rank != rank || !t.t.session || t.t.session.get() == &s) continue;
    if (t.t.session->sync_id != s.sync_id) continue;
    m.report(report_session_reinit(s.sync_id, acc.span, m.side_of(m.records_[static_cast<size_t>(t.record)])));
    return;
  }
  // Building the session resets its completion word: an overwrite when another transfer uses it.
  m.tile_written(a, s.scratch.data, std::min<long long>(4, s.scratch.bytes()), acc);
  m.sessions_[&s] = acc.span;
}

void HappensBefore::tile_written(ActorId a, const std::byte* data, long long bytes, const Access& acc) {
  impl_->tile_written(a, data, bytes, acc);
}

int HappensBefore::shadow_intervals(int rank, int segment) const {
  return static_cast<int>(impl_->shadow_.at(rank, segment).intervals());
}

}  // namespace ptodist::runtime::check
