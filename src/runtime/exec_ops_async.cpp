// Asynchronous transfers: SDMA sessions (completion word in the UB scratch), put_async/get_async
// handed to the rank's DMA engine, and wait/test on their events.
#include <atomic>
#include <cstring>
#include <optional>

#include "ptodist/runtime/dma.h"
#include "remote_io.h"

namespace ptodist::runtime {
namespace {

const char* kScratchNote = "the session scratch must be a [1, 256] INT8 Vec tile";

Value make_session(Interp& in, const ir::OpCall& c, TileValue scratch) {
  if (scratch.bytes() < 4) in.fail(c.span, c.op->spelling + ": " + kScratchNote);
  auto s = std::make_shared<AsyncSessionState>();
  s->sync_id = in.has_arg(c, "sync_id") ? static_cast<int>(in.int_arg(c, "sync_id")) : 0;
  s->block_bytes = in.has_arg(c, "block_bytes") ? in.int_arg(c, "block_bytes") : (1LL << 20);
  if (s->sync_id < 0 || s->sync_id >= in.world().profile().dma_channel_groups) {
    in.fail(c.span, c.op->spelling + ": sync_id " + std::to_string(s->sync_id) + " is outside [0, " +
                        std::to_string(in.world().profile().dma_channel_groups - 1) + "]");
  }
  if (s->block_bytes <= 0) in.fail(c.span, c.op->spelling + ": block_bytes must be positive");
  s->scratch = std::move(scratch);
  s->rank = in.f.rank;
  static std::atomic<uint64_t> next_session_id{1};
  s->id = next_session_id.fetch_add(1, std::memory_order_relaxed);
  // Building a session resets its completion word, as the device's session init does (check mode
  // records it: check/op_hooks.cpp).
  std::atomic_ref<uint32_t>(*s->completion_word()).store(0, std::memory_order_release);
  return SessionValue{s};
}

const std::shared_ptr<AsyncSessionState>& session_arg(Interp& in, const ir::OpCall& c,
                                                      OperandHolder& holder) {
  const auto* s = std::get_if<SessionValue>(&in.operand_arg(c, "session", holder));
  if (!s)
    in.fail(c.arg("session")->span, c.op->spelling + ": 'session' must come from pld.system.async_session");
  return s->state;
}

long long contiguous_bytes(Interp& in, const ir::OpCall& c, const TensorView& t, const Dims& offsets,
                           const Dims& shape) {
  Region r{&t, offsets, shape};
  long long n = r.rows() * r.cols();
  // A flat-contiguous region: consecutive rows follow each other in memory.
  if (r.rows() > 1 && r.elem_offset(1, 0) - r.elem_offset(0, 0) != r.cols())
    in.fail(c.span,
            c.op->spelling + ": the region of '" + t.name + "' must be flat-contiguous (logically 1-D)");
  return n * ir::dtype_bytes(t.dtype);
}

Value issue(Interp& in, const ir::OpCall& c, bool is_put) {
  OperandHolder hd, hs, hss;
  const TensorView& dst = is_put ? window_arg(in, c, "dst", hd) : in.tensor_arg(c, "dst", hd);
  const TensorView& src = is_put ? in.tensor_arg(c, "src", hs) : window_arg(in, c, "src", hs);
  int peer = global_peer(in, c, is_put ? dst : src);
  const auto& session = session_arg(in, c, hss);
  if (src.dtype != dst.dtype) in.fail(c.span, c.op->spelling + ": 'src' and 'dst' dtypes differ");
  bool sub = in.given_arg(c, "shape");
  Dims shape = sub ? in.ints_arg(c, "shape") : src.shape;
  Dims so = sub ? in.ints_arg(c, "src_offsets") : Dims(src.shape.size(), 0);
  Dims dof = sub ? in.ints_arg(c, "dst_offsets") : Dims(dst.shape.size(), 0);
  if (!sub && src.numel() != dst.numel())
    in.fail(c.span, c.op->spelling + ": whole-tensor transfer needs 'src' and 'dst' of the same size");
  Dims dshape = sub ? shape : dst.shape;
  long long s_at = region_offset_bytes(in, c, src, so, shape);
  long long d_at = region_offset_bytes(in, c, dst, dof, dshape);
  long long bytes = contiguous_bytes(in, c, src, so, shape);
  contiguous_bytes(in, c, dst, dof, dshape);
  const TensorView& local = is_put ? src : dst;
  const TensorView& remote = is_put ? dst : src;
  DmaTransfer t;
  t.is_put = is_put;
  t.peer = peer;
  t.remote = WindowAddr{remote.window.segment, remote.window.offset + (is_put ? d_at : s_at)};
  t.local = local.data + (is_put ? s_at : d_at);
  t.bytes = bytes;
  t.session = session;
  t.seq = ++session->issued;
  if (in.world().observed()) [[unlikely]] {
    if (std::optional<EventValue> checked = report_transfer(in, c, t, local, remote.name)) return *checked;
  }
  in.world().dma(in.f.rank).submit(t);
  return EventValue{session, t.seq, &c, std::make_shared<bool>(false)};
}

const EventValue& event_arg(Interp& in, const ir::OpCall& c, OperandHolder& holder) {
  const auto* e = std::get_if<EventValue>(&in.operand_arg(c, "event", holder));
  if (!e) in.fail(c.arg("event")->span, c.op->spelling + ": 'event' must come from put_async or get_async");
  return *e;
}

bool completed(const EventValue& e) {
  return std::atomic_ref<uint32_t>(*e.session->completion_word()).load(std::memory_order_acquire) >= e.seq;
}

Value wait_event(Interp& in, const ir::OpCall& c) {
  OperandHolder he, hs;
  const EventValue& e = event_arg(in, c, he);
  const auto& s = session_arg(in, c, hs);
  if (s != e.session) in.fail(c.span, c.op->spelling + ": the event was issued by another session");
  auto done = [&e] { return completed(e); };
  // Check mode's transfers never reach the engine: its scheduler lands them (check/op_hooks.cpp).
  if (!in.world().scheduler()) in.world().dma(in.f.rank).help(done);
  BlockInfo info{c.op->spelling,
                 c.span,
                 "completion word of session sync_id=" + std::to_string(s->sync_id) + " (event #" +
                     std::to_string(e.seq) + ")",
                 nullptr,
                 e.session->completion_word(),
                 e.seq,
                 ">="};
  in.world().block_until(in.f.rank, in.f.core, info, done);
  *e.waited = true;
  return NoneValue{};
}

Value test_event(Interp& in, const ir::OpCall& c) {
  OperandHolder he;
  const EventValue& e = event_arg(in, c, he);
  // A polling loop lets transfers land in check mode: the op is a switch point (check/op_hooks.cpp);
  // in fast mode a deferred engine's transfers land when a core of the rank runs them.
  if (!in.world().scheduler() && in.world().dma(in.f.rank).deferred() && !completed(e))
    in.world().dma(in.f.rank).help([&e] { return completed(e); });
  return Scalar::of_bool(completed(e));
}

}  // namespace

Value op_AsyncSession(Interp& in, const ir::OpCall& c) {
  return make_session(in, c, in.new_tile(c, {1, 256}, ir::DType::INT8, ir::Memory::Vec));
}

Value op_TileAsyncSession(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  return make_session(in, c, in.tile_arg(c, "scratch", h));
}

Value op_PutAsync(Interp& in, const ir::OpCall& c) {
  return issue(in, c, true);
}
Value op_GetAsync(Interp& in, const ir::OpCall& c) {
  return issue(in, c, false);
}
Value op_TilePutAsync(Interp& in, const ir::OpCall& c) {
  return issue(in, c, true);
}
Value op_TileGetAsync(Interp& in, const ir::OpCall& c) {
  return issue(in, c, false);
}
Value op_WaitAsyncEvent(Interp& in, const ir::OpCall& c) {
  return wait_event(in, c);
}
Value op_TileWaitAsyncEvent(Interp& in, const ir::OpCall& c) {
  return wait_event(in, c);
}
Value op_TestAsyncEvent(Interp& in, const ir::OpCall& c) {
  return test_event(in, c);
}
Value op_TileTestAsyncEvent(Interp& in, const ir::OpCall& c) {
  return test_event(in, c);
}

// Prefetch only warms a cache on the device; host memory needs nothing.
Value op_PrefetchAsync(Interp&, const ir::OpCall&) {
  return NoneValue{};
}

}  // namespace ptodist::runtime
