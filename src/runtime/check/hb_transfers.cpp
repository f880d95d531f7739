// Check mode's happens-before tracker, transfers: a transfer's clock and the pieces it lands, event
// waits, sessions on channel groups, and the buffers a transfer keeps in flight (session scratch, GM
// source or destination, in a window or in local GM) until its event is waited.
#include <algorithm>

#include "happens_before_impl.h"

namespace ptodist::runtime::check {

void HappensBeforeImpl::acquire_transfer(ActorState& a, const TransferState& t) {
  a.acq.join(t.clock);
  a.acq.raise(t.comp, 1);
  a.vis.join(t.clock);
  a.vis.raise(t.comp, 1);
}

TransferId HappensBeforeImpl::transfer_issued(ActorId issuer, const DmaTransfer& t, const Access& acc,
                                              const Access& local) {
  ActorState& s = actor(issuer);
  TransferState x;
  x.comp = next_comp_++;
  x.issuer = issuer;
  x.rank = s.rank;
  x.clock = s.full();
  x.t = t;
  // A session's transfers run in issue order on its channel group: each is after the earlier ones.
  for (const TransferState& earlier : transfers_)
    if (t.session && earlier.t.session == t.session) x.clock.raise(earlier.comp, 1);
  records_.push_back(Record{s.rank, s.name, acc});
  x.record = static_cast<int>(records_.size()) - 1;
  Access named = local;
  named.span = acc.span;
  named.op = acc.op;
  if (named.what.empty()) named.what = acc.what;
  records_.push_back(Record{s.rank, s.name, named});
  x.local_record = static_cast<int>(records_.size()) - 1;
  s.now++;  // the issuer's later accesses are not ordered before the transfer
  s.rnow++;
  TransferId id = static_cast<TransferId>(transfers_.size());
  WindowAddr local_at = x.local_at();
  transfers_.push_back(std::move(x));
  // The local side, in the issuer's window or local GM, is read (put) or written (get) until the wait.
  if (t.local || t.local_window.segment >= 0)
    in_flight_windows_.push_back(InFlightWindow{s.rank, local_at, t.bytes, id});
  if (t.is_put)
    in_flight_dests_.push_back(InFlightWindow{t.peer, t.remote, t.bytes, id});
  else if (t.local || t.local_window.segment >= 0)
    in_flight_dests_.push_back(InFlightWindow{s.rank, local_at, t.bytes, id});
  if (t.session && t.session->scratch.data) {
    const TileValue& sc = t.session->scratch;
    in_flight_.push_back(InFlight{sc.data, sc.data + sc.bytes(), id, true});
  }
  return id;
}

// The DMA reads its source and writes its destination with the transfer's clock.
void HappensBeforeImpl::transfer_piece(TransferId id, long long offset, long long bytes) {
  if (reported_ || id < 0 || static_cast<size_t>(id) >= transfers_.size()) return;
  TransferState& t = transfers_[static_cast<size_t>(id)];
  WindowAddr remote{t.t.remote.segment, t.t.remote.offset + offset};
  WindowAddr local = t.local_at();
  local.offset += offset;
  auto read = [&](int owner, WindowAddr at, int record) {
    Accessor dma{nullptr, &t, &t.clock, Epoch{t.comp, 1}, record};
    const std::string& what = records_[static_cast<size_t>(record)].acc.what;
    if (!check_read(dma, owner, at, bytes, what)) record_read(dma, owner, at, bytes);
  };
  auto write = [&](int owner, WindowAddr at, int record) {
    Accessor dma{nullptr, &t, &t.clock, Epoch{t.comp, 1}, record};
    const std::string& what = records_[static_cast<size_t>(record)].acc.what;
    if (!check_write(dma, 0, owner, at, bytes, what)) record_write(dma, 0, owner, at, bytes);
  };
  bool has_local = t.t.local || t.t.local_window.segment >= 0;
  if (t.t.is_put) {
    if (has_local) read(t.rank, local, t.local_record);
    if (!reported_) write(t.t.peer, remote, t.record);
  } else {
    read(t.t.peer, remote, t.record);
    if (has_local && !reported_) write(t.rank, local, t.local_record);
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
  std::erase_if(in_flight_dests_, [&](const InFlightWindow& f) { return waited(f.transfer); });
}

namespace {

// The first range of `list` overlapping bytes [at, at + bytes) of `rank`'s segment, clipped to them.
const InFlightWindow* first_overlap(const std::vector<InFlightWindow>& list, int rank, WindowAddr at,
                                    long long bytes, long long& begin, long long& end) {
  for (const InFlightWindow& f : list) {
    if (f.rank != rank || f.at.segment != at.segment) continue;
    begin = std::max(f.at.offset, at.offset);
    end = std::min(f.at.offset + f.bytes, at.offset + bytes);
    if (begin < end) return &f;
  }
  return nullptr;
}

}  // namespace

// A core writing GM bytes (window or local GM) an unwaited transfer of its rank reads (put source) or
// writes (get destination).
void HappensBeforeImpl::check_in_flight_window(ActorState& a, int rank, WindowAddr at, long long bytes,
                                               const Access& acc) {
  long long begin = 0, end = 0;
  const InFlightWindow* f = first_overlap(in_flight_windows_, rank, at, bytes, begin, end);
  if (!f) return;
  const TransferState& t = transfers_[static_cast<size_t>(f->transfer)];
  Bytes b = at.segment >= 0 ? Bytes{begin, end, acc.what, rank, true}
                            : Bytes{begin - acc.base, end - acc.base, acc.what, rank, false};
  report(report_inflight_overwrite(side_of(a, acc), window_buffer(t.t.is_put, b), side_of(t.record),
                                   SourceSpan{}, 0));
}

// A read of window bytes an unwaited transfer writes: whether or not they have landed yet, nothing
// orders them before the read (only the event's wait acquires a transfer). Found here at the read,
// whatever the schedule, rather than only when a landed piece is read.
void HappensBeforeImpl::check_read_of_in_flight(ActorState& a, int rank, WindowAddr at, long long bytes,
                                                const Access& acc) {
  long long begin = 0, end = 0;
  const InFlightWindow* f = first_overlap(in_flight_dests_, rank, at, bytes, begin, end);
  if (!f) return;
  const TransferState& t = transfers_[static_cast<size_t>(f->transfer)];
  std::string missing = t.t.is_put ? missing_edge(&a, Epoch{t.comp, 1})
                                   : std::string("its event is not waited before the read");
  Bytes b = at.segment >= 0 ? Bytes{begin, end, acc.what, rank, true}
                            : Bytes{begin - acc.base, end - acc.base, acc.what, rank, false};
  report(report_unordered_read(side_of(a, acc), b, side_of(t.record), missing));
}

void HappensBeforeImpl::session_initialised(ActorId a, int rank, const AsyncSessionState& s,
                                            const Access& acc) {
  if (reported_) return;
  for (const TransferState& t : transfers_) {
    if (t.waited || t.rank != rank || !t.t.session || t.t.session.get() == &s) continue;
    if (t.t.session->sync_id != s.sync_id) continue;
    report(report_session_reinit(s.sync_id, side_of(actor(a), acc), side_of(t.record)));
    return;
  }
  // Building the session resets its completion word: an overwrite when another transfer uses it.
  tile_written(a, s.scratch.data, std::min<long long>(4, s.scratch.bytes()), acc);
  sessions_[&s] = acc.span;
}

void HappensBeforeImpl::tile_written(ActorId a, const std::byte* data, long long bytes, const Access& acc) {
  if (reported_ || in_flight_.empty()) return;
  const std::byte* end = data + bytes;
  for (const InFlight& f : in_flight_) {
    if (f.end <= data || end <= f.begin) continue;
    const TransferState& t = transfers_[static_cast<size_t>(f.transfer)];
    int sync_id = t.t.session ? t.t.session->sync_id : 0;
    auto it = sessions_.find(t.t.session.get());
    SourceSpan session = f.scratch && it != sessions_.end() ? it->second : SourceSpan{};
    report(report_inflight_overwrite(side_of(actor(a), acc), scratch_buffer(sync_id), side_of(t.record),
                                     session, sync_id));
    return;
  }
}

// ---- the public hooks ----

TransferId HappensBefore::transfer_issued(ActorId issuer, const DmaTransfer& t, const Access& acc,
                                          const Access& local) {
  return impl_->transfer_issued(issuer, t, acc, local);
}

void HappensBefore::transfer_piece(TransferId t, long long offset, long long bytes) {
  impl_->transfer_piece(t, offset, bytes);
}

void HappensBefore::transfer_completed(TransferId) {}

void HappensBefore::event_waited(ActorId a, TransferId t) {
  impl_->event_waited(a, t);
}

void HappensBefore::session_initialised(ActorId a, int rank, const AsyncSessionState& s, const Access& acc) {
  impl_->session_initialised(a, rank, s, acc);
}

void HappensBefore::tile_written(ActorId a, const std::byte* data, long long bytes, const Access& acc) {
  impl_->tile_written(a, data, bytes, acc);
}

}  // namespace ptodist::runtime::check
