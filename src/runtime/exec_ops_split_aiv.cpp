// PyPTO's manual AIV split and explicit cross-core events on the CPU. A pl.split_aiv region runs its
// lanes one after the other (exec_stmt.cpp); pl.aiv_shard gives the running lane its part of a cube
// tile, pl.aic_gather puts each lane's part back into one cube tile. sync_set / sync_wait count the
// events of the block's core cluster (CrossCoreEvents): in a Group the AIC and AIV kernels run on their
// own threads and a wait blocks until its set (the watchdog or check mode report one that never
// comes); inside one mixed kernel the code runs in program order, so a wait whose set did not come
// first never will, and is reported at once.
#include <cstring>

#include "check/happens_before.h"
#include "exec.h"

namespace ptodist::runtime {
namespace {

constexpr int kCube = 0, kVector = 1;

// The side a sync op runs on: its core_type, else the kernel's kind, else (in a mixed kernel) the
// vector lanes inside a region; the contract rejects the rest.
int side_of(Interp& in, const ir::OpCall& c) {
  const ir::Expr& core = c.arg("core_type");
  if (const auto* s = core ? core->as<ir::StrImm>() : nullptr) return s->value == "aic" ? kCube : kVector;
  if (in.f.fn->kind == ir::FunctionKind::AIC) return kCube;
  if (in.f.fn->kind == ir::FunctionKind::AIV || in.f.split_lane >= 0) return kVector;
  in.fail(c.span, c.op->spelling + ": say which lane runs it: core_type=\"aic\" or core_type=\"aiv\"");
}

// What one executor of the op stands for, in vector lanes (CrossCoreEvents): the cube and code outside
// a region stand for both lanes, a region's lane for itself.
long long lanes_of(Interp& in, int side) {
  return side == kVector && in.f.split_lane >= 0 ? 1 : 2;
}

long long event_of(Interp& in, const ir::OpCall& c) {
  const long long id = in.int_arg(c, "event_id");
  if (id < 0 || id > 13)
    in.fail(c.span, c.op->spelling + ": event_id " + std::to_string(id) +
                        " is outside the user-available range [0, 13]");
  return id;
}

CrossCoreEvents& events_of(Interp& in, const ir::OpCall& c) {
  if (!in.f.events) in.fail(c.span, c.op->spelling + ": only a kernel block signals cross-core events");
  return *in.f.events;
}

std::string event_name(long long id, int side) {
  return "cross-core event " + std::to_string(id) +
         (side == kCube ? " on the cube (AIC)" : " on the vector lanes (AIV)");
}

// Copies rows [r0, r0 + rows) x columns [c0, c0 + cols) of `from` to (tr, tc) of `to` (2-D, dense).
void copy_block(const TileValue& from, long long r0, long long c0, TileValue& to, long long tr, long long tc,
                long long rows, long long cols) {
  const long long e = ir::dtype_bytes(from.dtype);
  for (long long r = 0; r < rows; ++r)
    std::memcpy(to.data + ((tr + r) * to.cols() + tc) * e, from.data + ((r0 + r) * from.cols() + c0) * e,
                static_cast<size_t>(cols * e));
}

// The lane's extent of a valid dim along the split axis: PyPTO's max(min(valid - lane * half, half), 0).
long long lane_valid(long long valid, long long lane, long long half) {
  return std::max(std::min(valid - lane * half, half), 0LL);
}

// A boundary op's crossing: the region's split mode, the running lane, the split axis (rows for
// UP_DOWN, columns for LEFT_RIGHT) and the tile's shape on the other side (halved by a shard, doubled
// by a gather; unchanged with SplitMode.NONE).
struct Crossing {
  long long split = 0, lane = 0;
  size_t axis = 0;
  Dims shape;
};

Crossing crossing_of(Interp& in, const ir::OpCall& c, const TileValue& t, bool shard) {
  Crossing x{in.int_arg(c, "split"), std::max(in.f.split_lane, 0), 0, t.shape};
  x.axis = x.split == 2 ? 1 : 0;
  if (x.split != 0) x.shape[x.axis] = shard ? x.shape[x.axis] / 2 : x.shape[x.axis] * 2;
  return x;
}

}  // namespace

// The FFTS unit's workspace only matters on the device; here the events live in the cluster.
Value op_SetFfts(Interp&, const ir::OpCall&) {
  return NoneValue{};
}

Value op_SyncSet(Interp& in, const ir::OpCall& c) {
  const long long id = event_of(in, c);
  const long long mode = in.given_arg(c, "ffts_mode") ? in.int_arg(c, "ffts_mode") : 2;
  if (mode != 2)
    in.fail(c.span, c.op->spelling + ": ffts_mode=" + std::to_string(mode) +
                        " (a sync among cores of one type) is not run by ptodist yet; ffts_mode=2 pairs the "
                        "cube with its vector lanes");
  const int from = side_of(in, c), to = from == kCube ? kVector : kCube;
  CrossCoreEvents& ev = events_of(in, c);
  {
    std::lock_guard<std::mutex> lock(ev.mu);
    ev.raised[to][id] += lanes_of(in, from);
  }
  // Check mode: recorded before any switch point, so the release precedes every wait that sees it.
  if (auto* hb = in.world().hb()) hb->cross_core_set(actor_of(in), ev.key(to, id));
  in.world().wake(in.f.rank);
  return NoneValue{};
}

Value op_SyncWait(Interp& in, const ir::OpCall& c) {
  const long long id = event_of(in, c);
  const int side = side_of(in, c);
  const long long need = lanes_of(in, side);
  CrossCoreEvents& ev = events_of(in, c);
  auto take = [&ev, side, id, need] {
    if (ev.raised[side][id] < need) return false;
    ev.raised[side][id] -= need;
    return true;
  };
  {
    std::lock_guard<std::mutex> lock(ev.mu);
    if (take()) {
      if (auto* hb = in.world().hb()) hb->cross_core_waited(actor_of(in), ev.key(side, id));
      return NoneValue{};
    }
  }
  // One mixed kernel runs its lanes in program order on this core: no later code can raise it.
  if (!in.f.pipes)
    in.fail(c.span, c.op->spelling + ": waits for " + event_name(id, side) +
                        ", which no pl.system.sync_set before it raised; ptodist runs a mixed kernel's cube "
                        "and vector code in program order, so the set must come first");
  BlockInfo info{c.op->spelling,
                 c.span,
                 event_name(id, side) + " (a pl.system.sync_set from the peer)",
                 nullptr,
                 nullptr,
                 0,
                 ""};
  bool taken = false;
  in.world().block_until(in.f.rank, in.f.core, info, [&] {
    std::lock_guard<std::mutex> lock(ev.mu);
    if (!taken) taken = take();
    return taken;
  });
  // The scheduler returns with the baton: the acquisition is recorded before another core runs.
  if (auto* hb = in.world().hb()) hb->cross_core_waited(actor_of(in), ev.key(side, id));
  return NoneValue{};
}

Value op_AivShard(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TileValue& t = in.tile_arg(c, "tile", h);
  const auto [split, lane, axis, shape] = crossing_of(in, c, t, true);
  TileValue out = in.new_tile(c, shape, t.dtype, ir::Memory::Vec);
  const long long r0 = split == 1 ? lane * shape[0] : 0, c0 = split == 2 ? lane * shape[1] : 0;
  copy_block(t, r0, c0, out, 0, 0, out.rows(), out.cols());
  out.valid = t.valid;
  if (split != 0 && !out.valid.empty()) out.valid[axis] = lane_valid(t.valid[axis], lane, shape[axis]);
  if (out.valid == out.shape) out.valid.clear();
  return out;
}

// Lane l writes its part of the cube tile; the tile is the gather site's, so that after the region the
// value holds every lane's part. With SplitMode.NONE the lanes share one slot: the last lane's wins.
Value op_AicGather(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TileValue& t = in.tile_arg(c, "tile", h);
  const auto [split, lane, axis, shape] = crossing_of(in, c, t, false);
  auto it = in.f.gathers.find(&c);
  if (lane == 0 || it == in.f.gathers.end() || it->second.shape != shape) {
    TileValue fresh = in.new_unplaced_tile(c, shape, t.dtype, ir::Memory::Mat);
    std::memset(fresh.data, 0, static_cast<size_t>(fresh.bytes()));
    it = in.f.gathers.insert_or_assign(&c, fresh).first;
  }
  TileValue& out = it->second;
  const long long tr = split == 1 ? lane * t.shape[0] : 0, tc = split == 2 ? lane * t.shape[1] : 0;
  copy_block(t, 0, 0, out, tr, tc, t.rows(), t.cols());
  if (!t.valid.empty() && split != 0) {
    out.valid = shape;
    out.valid[1 - axis] = t.valid[1 - axis];
    out.valid[axis] = lane * t.shape[axis] + t.valid[axis];
  } else {
    out.valid = t.valid;
  }
  if (out.valid == out.shape) out.valid.clear();
  return out;
}

}  // namespace ptodist::runtime
