// Check mode's happens-before tracker (see happens_before.h for the memory model): actor clocks,
// GM reads and writes (window and local GM) against the shadow memory, fences, invalidates and
// signals (a notify is also a write of its cell). Transfers,
// sessions and in-flight buffers are in hb_transfers.cpp. Every hook runs under the scheduler's
// baton, so nothing here is locked.
#include "happens_before_impl.h"

namespace ptodist::runtime::check {

// ---- state ----

void HappensBeforeImpl::reset() {
  next_comp_ = 0;
  actors_.clear();
  transfers_.clear();
  records_.clear();
  record_index_.clear();
  shadow_.clear();
  in_flight_.clear();
  in_flight_windows_.clear();
  in_flight_dests_.clear();
  sessions_.clear();
  reported_ = false;
  actor(kDriver).name = "host orchestrator";
}

ActorState& HappensBeforeImpl::actor(ActorId a) {
  size_t i = static_cast<size_t>(a + 1);
  if (i >= actors_.size()) actors_.resize(i + 1);
  ActorState& s = actors_[i];
  if (!s.known) {
    s.known = true;
    s.comp = next_comp_++;
    s.rcomp = next_comp_++;
    if (s.name.empty()) s.name = "actor " + std::to_string(a);
  }
  return s;
}

// One record per (component, source location, op, tensor): a loop's accesses share it, so they merge in the
// shadow memory.
int HappensBeforeImpl::record(int comp, const ActorState& a, const Access& acc) {
  auto key = std::make_tuple(comp, static_cast<const void*>(acc.span.file), acc.span.line, acc.span.col);
  std::vector<int>& same_place = record_index_[key];
  for (int r : same_place) {
    const Access& known = records_[static_cast<size_t>(r)].acc;
    if (known.op == acc.op && known.what == acc.what) return r;
  }
  records_.push_back(Record{a.rank, a.name, acc});
  same_place.push_back(static_cast<int>(records_.size()) - 1);
  return same_place.back();
}

void HappensBeforeImpl::report(std::string text) {
  if (reported_) return;
  reported_ = true;
  world_.report_hazard(std::move(text));
}

Side HappensBeforeImpl::side_of(int record) const {
  const Record& r = records_[static_cast<size_t>(record)];
  return Side{r.rank, r.who, r.acc.span, r.acc.op};
}

const TransferState* HappensBeforeImpl::transfer_of(int comp) const {
  for (const TransferState& t : transfers_)
    if (t.comp == comp) return &t;
  return nullptr;
}

const ActorState* HappensBeforeImpl::actor_of(int comp) const {
  for (const ActorState& a : actors_)
    if (a.known && a.own(comp)) return &a;
  return nullptr;
}

// ---- checks ----

namespace {

Side accessor_side(const HappensBeforeImpl& m, int record, bool dma) {
  Side s = m.side_of(record);
  if (dma) s.name = "DMA of " + s.name;
  return s;
}

}  // namespace

// Which ordering edge is missing between a write at `write` and a read by `reader` (null: a DMA).
std::string HappensBeforeImpl::missing_edge(const ActorState* reader, const Epoch& write) const {
  if (const TransferState* t = transfer_of(write.comp)) {
    if (reader && reader->acq.covers(write)) return "no cacheinvalid after the wait";
    const ActorState& issuer = actors_[static_cast<size_t>(t->issuer + 1)];
    if (issuer.notify_now > t->clock.get(issuer.comp))
      return "the transfer's event is not waited before the notify";
    return "no wait acquires it";
  }
  if (const ActorState* w = actor_of(write.comp); w && write.comp == w->comp) {
    if (w->notify_released < write.time && write.time <= w->notify_now)
      return "no fence between the write and the notify";
  }
  if (reader && reader->acq.covers(write)) return "no cacheinvalid after the wait";
  return "no wait acquires it";
}

Bytes HappensBeforeImpl::bytes_of(int owner, int segment, long long begin, long long end,
                                  const std::string& what, int record) const {
  if (segment >= 0) return Bytes{begin, end, what, owner, true};
  long long base = records_[static_cast<size_t>(record)].acc.base;
  return Bytes{begin - base, end - base, what, owner, false};
}

bool HappensBeforeImpl::check_read(const Accessor& r, int owner, WindowAddr at, long long bytes,
                                   const std::string& what) {
  auto covered = [&](const WriteMark& m) { return r.own(m.epoch.comp) || r.clock->covers(m.epoch); };
  auto hit =
      shadow_.at(owner, at.segment).find_unordered(at.offset, at.offset + bytes, [&](const ShadowWrite& w) {
        return !w.first_unordered(covered);
      });
  if (!hit) return false;
  WriteMark w = *hit->value.first_unordered(covered);
  report(report_unordered_read(accessor_side(*this, r.record, r.dma),
                               bytes_of(owner, at.segment, hit->begin, hit->end, what, r.record),
                               side_of(w.record), missing_edge(r.actor, w.epoch)));
  return true;
}

// A write is checked against the last write (write/write race) and against the reads since then: a
// read that ran first and is not ordered before this write saw the bytes too early.
bool HappensBeforeImpl::check_write(const Accessor& w, int atomic, int owner, WindowAddr at, long long bytes,
                                    const std::string& what) {
  ShadowSegment& seg = shadow_.at(owner, at.segment);
  long long end = at.offset + bytes;
  // Ordered before this write, or an atomic add of the same kind as this one (they commute).
  auto ok = [&](const WriteMark& m) {
    return w.own(m.epoch.comp) || w.clock->covers(m.epoch) || (atomic != 0 && m.atomic == atomic);
  };
  auto ww = seg.find_unordered(at.offset, end, [&](const ShadowWrite& x) { return !x.first_unordered(ok); });
  if (ww) {
    report(report_write_race(accessor_side(*this, w.record, w.dma),
                             bytes_of(owner, at.segment, ww->begin, ww->end, what, w.record),
                             side_of(ww->value.first_unordered(ok)->record)));
    return true;
  }
  auto ordered = [&](const ReadMark& m) { return w.own(m.epoch.comp) || w.clock->covers(m.epoch); };
  auto wr = seg.reads.find_unordered(at.offset, end, [&](const ShadowReads& rs) {
    for (const ReadMark& m : rs.marks)
      if (!ordered(m)) return false;
    return true;
  });
  if (!wr) return false;
  for (const ReadMark& m : wr->value.marks) {
    if (ordered(m)) continue;
    const Record& read = records_[static_cast<size_t>(m.record)];
    report(report_unordered_read(accessor_side(*this, m.record, transfer_of(m.epoch.comp)),
                                 bytes_of(owner, at.segment, wr->begin, wr->end, read.acc.what, m.record),
                                 side_of(w.record), missing_edge(actor_of(m.epoch.comp), w.epoch)));
    return true;
  }
  return false;
}

void HappensBeforeImpl::record_read(const Accessor& r, int owner, WindowAddr at, long long bytes) {
  ReadMark mark{r.epoch, r.record};
  auto& reads = shadow_.at(owner, at.segment).reads;
  // A loop re-reading the same bytes between two synchronisations changes nothing.
  if (reads.one_covers(at.offset, at.offset + bytes, [&](const ShadowReads& s) { return s.has(mark); }))
    return;
  reads.update(at.offset, at.offset + bytes, [&](ShadowReads& s) { s.add(mark); });
}

void HappensBeforeImpl::record_write(const Accessor& w, int atomic, int owner, WindowAddr at, long long bytes,
                                     bool signal) {
  ShadowSegment& seg = shadow_.at(owner, at.segment);
  if (atomic)
    seg.update(at.offset, at.offset + bytes, [&](ShadowWrite& x) {
      x.add_atomic(WriteMark{w.epoch, w.record, atomic});
    });
  else
    seg.record(at.offset, at.offset + bytes, ShadowWrite{w.epoch, 0, w.record, {}});
  seg.reads.erase(at.offset, at.offset + bytes);
  // A plain store over a signal cell starts its notify history afresh; a Set notify does not.
  if (!atomic && !signal && at.segment >= 0 && !signals_.empty())
    signals_.reset_range(owner, at.segment, at.offset, at.offset + bytes);
}

// ---- the public hooks: rounds, actors, windows, signals ----

HappensBefore::HappensBefore(World& world) : impl_(std::make_unique<HappensBeforeImpl>(world)) {}
HappensBefore::~HappensBefore() = default;

void HappensBefore::begin_round(int round, bool windows_zeroed) {
  impl_->reset();
  impl_->round_ = round;
  impl_->signals_.begin_round(windows_zeroed);
}

void HappensBefore::actor_started(ActorId a, ActorId parent, int rank, std::string name) {
  ActorState& p = impl_->actor(parent);
  VectorClock inherited = p.full();
  p.now++;  // the parent's later accesses are not ordered before the child
  p.rnow++;
  ActorState& s = impl_->actor(a);
  s.rank = rank;
  s.name = std::move(name);
  s.acq = inherited;
  s.vis = std::move(inherited);
}

void HappensBefore::actor_joined(ActorId joiner, ActorId finished) {
  VectorClock got = impl_->actor(finished).full();
  ActorState& j = impl_->actor(joiner);
  j.acq.join(got);
  j.vis.join(got);
}

void HappensBefore::window_read(ActorId a, int rank, WindowAddr at, long long bytes, const Access& acc) {
  HappensBeforeImpl& m = *impl_;
  if (m.reported_ || bytes <= 0) return;
  ActorState& s = m.actor(a);
  if (!m.in_flight_dests_.empty()) m.check_read_of_in_flight(s, rank, at, bytes, acc);
  if (m.reported_) return;
  Accessor r{&s, nullptr, &s.vis, Epoch{s.rcomp, s.rnow}, m.record(s.rcomp, s, acc)};
  if (!m.check_read(r, rank, at, bytes, acc.what)) m.record_read(r, rank, at, bytes);
}

void HappensBefore::window_write(ActorId a, int rank, WindowAddr at, long long bytes, int atomic,
                                 const Access& acc) {
  HappensBeforeImpl& m = *impl_;
  if (m.reported_ || bytes <= 0) return;
  ActorState& s = m.actor(a);
  if (!m.in_flight_windows_.empty()) m.check_in_flight_window(s, rank, at, bytes, acc);
  if (m.reported_) return;
  Accessor w{&s, nullptr, &s.acq, Epoch{s.comp, s.now}, m.record(s.comp, s, acc)};
  if (!m.check_write(w, atomic, rank, at, bytes, acc.what)) m.record_write(w, atomic, rank, at, bytes);
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
  // The cell's bytes are written with the epoch of the actor's reads, which this notify releases in
  // full: whoever acquires the notify is ordered after its write, with no fence needed.
  Accessor w{&s, nullptr, &s.acq, Epoch{s.rcomp, s.rnow}, m.record(s.rcomp, s, acc)};
  int kind = add ? atomic_add_kind(ir::DType::INT32) : 0;
  if (m.check_write(w, kind, peer, cell, 4, acc.what)) return;
  m.record_write(w, kind, peer, cell, 4, true);
  Contribution c;
  c.value = value;
  c.add = add;
  c.round = m.round_;
  // Fenced writes, every read so far and everything acquired.
  c.release = s.acq;
  c.release.raise(s.comp, s.released);
  c.release.raise(s.rcomp, s.rnow);
  c.rank = s.rank;
  c.who = s.name;
  c.span = acc.span;
  c.op = acc.op;
  s.notify_now = s.now;
  s.notify_released = s.released;
  s.now++;
  s.rnow++;
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

void HappensBefore::cross_core_set(ActorId a, uint64_t event) {
  ActorState& s = impl_->actor(a);
  impl_->cross_core_events_[event].join(s.full());
  s.now++;
  s.rnow++;
}

void HappensBefore::cross_core_waited(ActorId a, uint64_t event) {
  auto it = impl_->cross_core_events_.find(event);
  if (it == impl_->cross_core_events_.end()) return;
  ActorState& s = impl_->actor(a);
  s.acq.join(it->second);
  s.vis.join(it->second);
}

int HappensBefore::shadow_intervals(int rank, int segment) const {
  return static_cast<int>(impl_->shadow_.at(rank, segment).intervals());
}

}  // namespace ptodist::runtime::check
