// Check mode's DMA: the scheduler lands put_async/get_async transfers itself, on the thread that holds
// the baton, where the seed says: eagerly at issue, at the issuer's wait, or piece by piece (pieces of
// the session's block_bytes, in random order). Transfers of one session complete in issue order, each
// by writing its sequence number into the session's completion word, as the DMA engine does.
#include <algorithm>
#include <atomic>

#include "happens_before.h"
#include "sched_impl.h"

namespace ptodist::runtime::check {

void SchedulerImpl::add_flight(ActorId issuer, DmaTransfer t) {
  auto f = std::make_unique<Flight>();
  f->issuer = issuer;
  f->landing = static_cast<Landing>(pick_index(3));
  f->piece_bytes = std::max<long long>(1, t.session->block_bytes);
  for (long long at = 0; at < t.bytes; at += f->piece_bytes) f->pieces.push_back(at);
  f->t = std::move(t);
  Flight* raw = f.get();
  flights.push_back(std::move(f));
  if (raw->landing == Landing::Eager && is_head(*raw)) {
    while (!land_step(raw)) {
    }
  }
}

// A transfer may land only when every earlier transfer of its session has completed.
bool SchedulerImpl::is_head(const Flight& f) const {
  for (const auto& g : flights) {
    if (g.get() == &f) return true;
    if (g->t.session == f.t.session) return false;
  }
  return true;
}

bool SchedulerImpl::land_step(Flight* f) {
  if (f->landing == Landing::Pieces && !f->pieces.empty()) {
    land_piece(*f, pick_index(f->pieces.size()));
    if (!f->pieces.empty()) return false;
  }
  while (!f->pieces.empty()) land_piece(*f, 0);
  complete(*f);
  drop_flight(f);
  return true;
}

void SchedulerImpl::land_piece(Flight& f, size_t index) {
  long long at = f.pieces[index];
  long long n = std::min(f.piece_bytes, f.t.bytes - at);
  f.pieces.erase(f.pieces.begin() + static_cast<long>(index));
  WindowAddr remote{f.t.remote.segment, f.t.remote.offset + at};
  Transport& tr = world.transport();
  if (f.t.is_put)
    tr.put(f.t.peer, remote, f.t.local + at, n);
  else
    tr.get(f.t.peer, remote, f.t.local + at, n);
  if (auto* hb = world.hb()) hb->transfer_piece(f.t.check_id, at, n);
}

void SchedulerImpl::complete(Flight& f) {
  if (auto* hb = world.hb()) hb->transfer_completed(f.t.check_id);
  std::atomic_ref<uint32_t>(*f.t.session->completion_word()).store(f.t.seq, std::memory_order_release);
  world.note_progress();
}

void SchedulerImpl::drop_flight(Flight* f) {
  auto it = std::find_if(flights.begin(), flights.end(), [f](const auto& g) { return g.get() == f; });
  if (it != flights.end()) flights.erase(it);
}

}  // namespace ptodist::runtime::check
