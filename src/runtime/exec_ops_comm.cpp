// Communication ops of the executor: windows and identity, notify/wait on signal cells, remote tile
// access, and synchronous put/get through staging tiles (atomic add honoured).
#include <atomic>
#include <cstring>

#include "exec.h"
#include "ptodist/runtime/host_io.h"
#include "remote_io.h"

namespace ptodist::runtime {

const TensorView& window_arg(Interp& in, const ir::OpCall& c, OperandName slot, OperandHolder& holder) {
  const TensorView& t = in.tensor_arg(c, slot, holder);
  if (!t.is_window()) {
    in.fail(c.arg(slot.name())->span,
            c.op->spelling + ": '" + t.name +
                "' is not window-backed; pass a pld.DistributedTensor made by pld.window");
  }
  return t;
}

// ---- identity and memory ----

Value op_AllocWindowBuffer(Interp& in, const ir::OpCall& c) {
  Dims shape = in.ints_arg(c, "size");
  const auto* dt = in.attribute<ir::DTypeImm>(c, "dtype");
  ir::DType dtype = dt ? dt->value : ir::DType::INT8;
  long long bytes = ir::dtype_bytes(dtype);
  bool overflow = false;
  for (long long d : shape) {
    if (d < 0) in.fail(c.span, "pld.alloc_window_buffer: size must not be negative");
    overflow |= __builtin_mul_overflow(bytes, d, &bytes);
  }
  // Every rank of this machine holds its own copy of the window.
  long long all_ranks = 0;
  overflow |= __builtin_mul_overflow(bytes, static_cast<long long>(in.world().ranks()), &all_ranks);
  if (overflow || static_cast<unsigned long long>(all_ranks) > machine_memory_bytes()) {
    in.fail(c.span, "pld.alloc_window_buffer: the window needs " +
                        (overflow ? std::string("more than 2^63") : std::to_string(bytes)) +
                        " bytes per rank on " + std::to_string(in.world().ranks()) +
                        " ranks, more than the " + std::to_string(machine_memory_bytes()) +
                        " bytes of memory of this machine");
  }
  return in.world().alloc_window(bytes, "window");
}

// In the host orchestrator a window view is not yet tied to a rank; the `device=r` call binds it.
Value op_Window(Interp& in, const ir::OpCall& c) {
  OperandHolder hb;
  const Value& h = in.operand_arg(c, "buf", hb);
  const auto* buf = std::get_if<WindowBufferValue>(&h);
  if (!buf) in.fail(c.arg("buf")->span, "pld.window: 'buf' must come from pld.alloc_window_buffer");
  TensorView v;
  v.shape = in.ints_arg(c, "shape");
  const auto* dt = in.attribute<ir::DTypeImm>(c, "dtype");
  v.dtype = dt ? dt->value : in.result_dtype(c, ir::DType::INT8);
  v.strides = dense_strides(v.shape);
  v.window = WindowAddr{buf->segment, 0};
  v.name = "window";
  if (v.numel() * ir::dtype_bytes(v.dtype) > buf->bytes) {
    in.fail(c.span, "pld.window: the view needs " + std::to_string(v.numel() * ir::dtype_bytes(v.dtype)) +
                        " bytes but the window buffer has " + std::to_string(buf->bytes));
  }
  if (in.f.rank >= 0) {
    v.rank = in.f.rank;
    v.data = in.world().transport().window_ptr(in.f.rank, v.window);
  }
  return v;
}

Value op_WorldSize(Interp& in, const ir::OpCall&) {
  return Scalar::of_int(in.world().ranks());
}

Value op_GetCommCtx(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  return comm_ctx_of(in, c, window_arg(in, c, "dist_tensor", h));
}

static const CommCtxValue& ctx_arg(Interp& in, const ir::OpCall& c, OperandHolder& holder) {
  const auto* ctx = std::get_if<CommCtxValue>(&in.operand_arg(c, "ctx", holder));
  if (!ctx) in.fail(c.span, c.op->spelling + ": 'ctx' must come from pld.get_comm_ctx");
  return *ctx;
}

Value op_Rank(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  return Scalar::of_int(ctx_arg(in, c, h).rank);
}

Value op_NRanks(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  return Scalar::of_int(ctx_arg(in, c, h).nranks);
}

// ---- signals ----

long long signal_cell_offset(Interp& in, const ir::OpCall& c, const TensorView& t, Dims& offsets) {
  if (t.dtype != ir::DType::INT32)
    in.fail(c.span, c.op->spelling + ": signal cells are INT32; '" + t.name + "' is not");
  return region_offset_bytes(in, c, t, offsets, Dims(offsets.size(), 1));
}

Value op_Notify(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TensorView& t = window_arg(in, c, "target", h);
  int peer = global_peer(in, c, t);
  Dims offsets = in.ints_arg(c, "offsets");
  long long at = signal_cell_offset(in, c, t, offsets);
  long long value = in.int_arg(c, "value");
  const ir::EnumImm* op = enum_arg(in, c, "op");
  bool add = !op || op->value != "Set";
  WindowAddr cell{t.window.segment, t.window.offset + at};
  // Check mode's switch point before the signal and its release after it: check/op_hooks.cpp.
  in.world().transport().signal(peer, cell, static_cast<int32_t>(value), add);
  in.world().wake(peer);
  return NoneValue{};
}

// Whether the core running `in` (blocked, so its frame is stable) has a notify whose peer evaluates
// to `rank` in its current frame. A peer that cannot be evaluated yet (it uses a name defined later)
// may be any rank. Called only by the scheduler's baton holder when it writes a deadlock report.
static bool may_notify_rank(Interp& in, int rank) {
  if (!in.f.code) return true;
  // Each notify's operands are read as those of the running op; the blocked op is put back after.
  struct Site {
    Frame& f;
    const DecodedOp* blocked = f.site;
    ~Site() { f.site = blocked; }
  } site{in.f};
  for (const DecodedOp& op : in.f.code->ops) {
    if ((op.effects & ir::kNotify) == 0) continue;
    in.f.site = &op;
    if (!in.has_arg(*op.call, "peer")) continue;
    try {
      OperandHolder h;
      const auto* t = std::get_if<TensorView>(&in.operand_arg(*op.call, "target", h));  // a group's rank
      if ((t ? global_peer(in, *op.call, *t) : in.int_arg(*op.call, "peer")) == rank) return true;
    } catch (const RunError&) {
      return true;
    }
  }
  return false;
}

Value op_Wait(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TensorView& t = window_arg(in, c, "signal", h);
  Dims offsets = in.ints_arg(c, "offsets");
  long long at = signal_cell_offset(in, c, t, offsets);
  long long expected = in.int_arg(c, "expected");
  const ir::EnumImm* cmp = enum_arg(in, c, "cmp");
  bool ge = cmp && cmp->value == "Ge";
  auto* cell = reinterpret_cast<int32_t*>(t.data + at);
  BlockInfo info{
      "pld.system.wait", c.span,          describe_cell(t, offsets) + group_note(*in.f.env, t), cell, nullptr,
      expected,          ge ? ">=" : "=="};
  if (in.world().scheduler()) info.may_notify = [&in](int rank) { return may_notify_rank(in, rank); };
  in.world().block_until(in.f.rank, in.f.core, info, [cell, expected, ge] {
    int32_t v = std::atomic_ref<int32_t>(*cell).load(std::memory_order_acquire);
    return ge ? v >= expected : v == expected;
  });
  // The scheduler returns with the baton: check/op_hooks.cpp records what satisfied the wait.
  return NoneValue{};
}

// PyPTO's deferred completion: registers the cell with the block's task and returns at once; the task
// completes (and its dependents start) once the cell holds `expected`. PyPTO's runtime takes at most
// 64 conditions per task.
Value op_DeferWait(Interp& in, const ir::OpCall& c) {
  constexpr size_t kMaxConditions = 64;
  if (!in.f.deferred)
    in.fail(c.span,
            "pld.system.defer_wait: runs only in a kernel submitted as a task (a "
            "pl.at(level=pl.Level.CORE_GROUP) scope)");
  OperandHolder h;
  const TensorView& t = window_arg(in, c, "signal", h);
  Dims offsets = in.ints_arg(c, "offsets");
  long long at = signal_cell_offset(in, c, t, offsets);
  long long expected = in.int_arg(c, "expected");
  if (expected < 0 || expected > INT32_MAX)
    in.fail(c.span, "pld.system.defer_wait: 'expected' is " + std::to_string(expected) +
                        "; deferred conditions are monotonic counters in [0, INT32_MAX]");
  if (in.f.deferred->size() >= kMaxConditions)
    in.fail(c.span, "pld.system.defer_wait: a task registers at most 64 deferred conditions");
  DeferredCondition d;
  d.cell = reinterpret_cast<const int32_t*>(t.data + at);
  d.expected = static_cast<uint32_t>(expected);
  d.span = c.span;
  d.cell_name = describe_cell(t, offsets) + group_note(*in.f.env, t);
  d.rank = t.rank;
  d.addr = WindowAddr{t.window.segment, t.window.offset + at};
  in.f.deferred->push_back(std::move(d));
  return NoneValue{};
}

Value op_Fence(Interp&, const ir::OpCall&) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return NoneValue{};
}

// Host memory is coherent: invalidation has nothing to do here. Check mode makes the core's acquired
// writes visible to its reads; a region invalidate counts as whole-GM there (docs/checking.md).
Value op_CacheInvalid(Interp&, const ir::OpCall&) {
  return NoneValue{};
}

// ---- remote tile access ----

Value op_RemoteLoad(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TensorView& t = window_arg(in, c, "target", h);
  int peer = global_peer(in, c, t);
  Dims offsets = in.ints_arg(c, "offsets");
  Dims shape = in.ints_arg(c, "shape");
  region_offset_bytes(in, c, t, offsets, shape);
  TileValue tile = in.new_tile(c, shape, t.dtype, ir::Memory::Vec);
  Region r{&t, offsets, shape};
  report_accesses(in, c, {MemoryAccess{t, offsets, shape, peer, false, false}});
  for (long long row = 0; row < r.rows(); ++row)
    in.world().transport().get(peer, r.row_addr(row, 0), tile.data + row * r.row_bytes(), r.row_bytes());
  return tile;
}

static void store_tile_remote(Interp& in, const ir::OpCall& c, const std::byte* src, ir::DType src_type,
                              const TensorView& t, int peer, const Dims& offsets, const Dims& shape) {
  region_offset_bytes(in, c, t, offsets, shape);
  if (src_type != t.dtype) in.fail(c.span, c.op->spelling + ": source and target dtypes differ");
  const ir::EnumImm* atomic = enum_arg(in, c, "atomic");
  bool add = atomic && atomic->value == "Add";
  Region r{&t, offsets, shape};
  report_accesses(in, c, {MemoryAccess{t, offsets, shape, peer, true, add}});
  for (long long row = 0; row < r.rows(); ++row)
    write_row(in, r, peer, row, 0, r.cols(), src + row * r.row_bytes(), add);
  if (t.dtype == ir::DType::INT32) in.world().wake(peer);
}

Value op_RemoteStore(Interp& in, const ir::OpCall& c) {
  OperandHolder ht, hd;
  const TileValue& tile = in.tile_arg(c, "src_tile", ht);
  const TensorView& t = window_arg(in, c, "target", hd);
  int peer = global_peer(in, c, t);
  Dims offsets = in.ints_arg(c, "offsets");
  Dims shape = tile.shape;
  while (shape.size() < t.shape.size()) shape.push_front(1);
  store_tile_remote(in, c, tile.data, tile.dtype, t, peer, offsets, shape);
  return NoneValue{};
}

Value op_TensorRemoteStore(Interp& in, const ir::OpCall& c) {
  OperandHolder hs, hd;
  const TensorView& src = in.tensor_arg(c, "src", hs);
  const TensorView& t = window_arg(in, c, "target", hd);
  int peer = global_peer(in, c, t);
  Dims offsets = in.ints_arg(c, "offsets");
  std::vector<std::byte> dense(src.numel() * ir::dtype_bytes(src.dtype));
  report_access(in, c, src, Dims(src.shape.size(), 0), src.shape, false);
  copy_dense(src, dense.data());
  Dims shape = src.shape;
  while (shape.size() < t.shape.size()) shape.push_front(1);
  store_tile_remote(in, c, dense.data(), src.dtype, t, peer, offsets, shape);
  return NoneValue{};
}

// ---- synchronous transfers ----

Value op_Put(Interp& in, const ir::OpCall& c) {
  staged_transfer(in, c, true, nullptr, nullptr);
  return NoneValue{};
}

Value op_Get(Interp& in, const ir::OpCall& c) {
  staged_transfer(in, c, false, nullptr, nullptr);
  return NoneValue{};
}

Value op_TilePut(Interp& in, const ir::OpCall& c) {
  OperandHolder h1, h2;
  const TileValue& stage = in.tile_arg(c, "stage", h1);
  const TileValue* stage2 = in.given_arg(c, "stage2") ? &in.tile_arg(c, "stage2", h2) : nullptr;
  staged_transfer(in, c, true, &stage, stage2);
  return NoneValue{};
}

Value op_TileGet(Interp& in, const ir::OpCall& c) {
  OperandHolder h1, h2;
  const TileValue& stage = in.tile_arg(c, "stage", h1);
  const TileValue* stage2 = in.given_arg(c, "stage2") ? &in.tile_arg(c, "stage2", h2) : nullptr;
  staged_transfer(in, c, false, &stage, stage2);
  return NoneValue{};
}

// ---- collectives: the lower-collectives pass turns them into put/notify/wait ----

static Value unlowered(Interp& in, const ir::OpCall& c) {
  in.fail(c.span,
          c.op->spelling + ": collectives run only after the lower-collectives pass; run the full pipeline");
}

Value op_Barrier(Interp& in, const ir::OpCall& c) {
  return unlowered(in, c);
}
Value op_Broadcast(Interp& in, const ir::OpCall& c) {
  return unlowered(in, c);
}
Value op_AllGather(Interp& in, const ir::OpCall& c) {
  return unlowered(in, c);
}
Value op_ReduceScatter(Interp& in, const ir::OpCall& c) {
  return unlowered(in, c);
}
Value op_AllReduce(Interp& in, const ir::OpCall& c) {
  return unlowered(in, c);
}
Value op_AllToAll(Interp& in, const ir::OpCall& c) {
  return unlowered(in, c);
}
Value op_AllToAllV(Interp& in, const ir::OpCall& c) {
  return unlowered(in, c);
}

}  // namespace ptodist::runtime
