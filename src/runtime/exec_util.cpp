// Shared pieces of the executor: operand access, tile allocation (planned address or pooled
// storage), the op dispatch table generated from ops.def, and the pools of tile storage and threads.
#include <climits>
#include <cstring>
#include <new>

#include "checked_size.h"
#include "exec.h"
#include "ptodist/runtime/host_io.h"
#include "ptodist/support/diagnostics.h"
#include "rank_placement.h"

namespace ptodist::runtime {

// ---- operands ----

const Value& Interp::operand_slow(const ir::OpCall& c, OperandName slot, const DecodedOperand* decoded,
                                  OperandHolder& holder) {
  if (!decoded || decoded->kind == DecodedOperand::Kind::Missing) missing_operand(c, slot);
  if (decoded->kind == DecodedOperand::Kind::Int) return holder.emplace(Scalar::of_int(decoded->value));
  if (decoded->kind == DecodedOperand::Kind::None) return holder.emplace(NoneValue{});
  return value_in_place(decoded->tree, holder);
}

void Interp::missing_operand(const ir::OpCall& c, OperandName slot) const {
  fail(c.span, c.op->spelling + ": missing operand '" + std::string(slot.name()) + "'");
}

void Interp::not_a_bound_tensor(const ir::OpCall& c, OperandName slot, const TensorView* t) const {
  if (!t)
    fail(c.arg(slot.name())->span,
         c.op->spelling + ": operand '" + std::string(slot.name()) + "' must be a tensor here");
  fail(c.arg(slot.name())->span, c.op->spelling + ": window view '" + t->name + "' is not bound to a rank");
}

void Interp::not_a_tile(const ir::OpCall& c, OperandName slot) const {
  fail(c.arg(slot.name())->span,
       c.op->spelling + ": operand '" + std::string(slot.name()) + "' must be a tile here");
}

// The decoded entries of a list operand, read into `out`; false when it is not a flat list, or has an
// entry whose variables are unbound or not scalars (its tree then gives the value or reports why).
static bool decoded_ints(Interp& in, const DecodedOperand& o, Dims& out) {
  if (o.kind != DecodedOperand::Kind::Ints) return false;
  const IntEntry* entries = in.f.code->ints.data() + o.first;
  for (uint8_t i = 0; i < o.count; ++i) {
    Scalar s;
    if (!in.entry_of(entries[i], s)) return false;
    out.push_back(s.as_int());
  }
  return true;
}

Dims Interp::ints_arg(const ir::OpCall& c, OperandName slot) {
  const DecodedOperand& o = operand_of(c, slot);
  // One named result, so it is built in the caller's object rather than copied out.
  Dims out;
  if (!decoded_ints(*this, o, out)) [[unlikely]]
    out = eval_ints(o.tree);
  return out;
}

std::string dims_str(std::span<const long long> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

std::string describe_cell(const TensorView& t, const Dims& offsets) {
  return t.name + dims_str(offsets);
}

// ---- tiles ----

static long long memory_capacity(const ChipProfile& p, ir::Memory m) {
  switch (m) {
    case ir::Memory::Vec:
      return p.ub_bytes;
    case ir::Memory::Mat:
      return p.l1_bytes;
    case ir::Memory::Left:
      return p.l0a_bytes;
    case ir::Memory::Right:
      return p.l0b_bytes;
    case ir::Memory::Acc:
      return p.l0c_bytes;
    case ir::Memory::Bias:
      return p.bias_bytes;
  }
  return 0;
}

[[noreturn]] static void tile_overflow(const Interp& in, const ir::OpCall& c, long long bytes, long long addr,
                                       ir::Memory memory, long long cap) {
  in.fail(c.span, c.op->spelling + ": tile of " + std::to_string(bytes) + " bytes at address " +
                      std::to_string(addr) + " overflows the " + std::string(ir::memory_name(memory)) +
                      " buffer (" + std::to_string(cap) + " bytes)");
}

long long checked_bytes(const Interp& in, const ir::OpCall& c, const Dims& shape, ir::DType dtype,
                        const char* what) {
  // Every new tile passes here: the common case is a few multiplications, the message is built only
  // on failure.
  static const unsigned long long memory = machine_memory_bytes();
  unsigned long long bytes = static_cast<unsigned long long>(ir::dtype_bytes(dtype));
  bool negative = false, overflow = false;
  for (long long d : shape) {
    negative |= d < 0;
    overflow |= __builtin_mul_overflow(bytes, static_cast<unsigned long long>(d < 0 ? 0 : d), &bytes);
  }
  if (!negative && !overflow && bytes <= memory && bytes <= static_cast<unsigned long long>(LLONG_MAX))
      [[likely]]
    return static_cast<long long>(bytes);
  std::string dims;
  for (long long d : shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  const std::string head = c.op->spelling + ": the " + what + " of shape [" + dims + "] (" +
                           std::string(ir::dtype_name(dtype)) + ")";
  if (negative) in.fail(c.span, head + " has a negative dim");
  in.fail(c.span, head + " needs " + (overflow ? std::string("more than 2^64") : std::to_string(bytes)) +
                      " bytes, more than the " + std::to_string(memory) + " bytes of memory of this machine");
}

// A tile planned by plan-memory lives at its address in this core's buffer of that memory, so a
// reuse bug corrupts real bytes; an unplanned tile takes pooled storage.
TileValue Interp::new_tile(const ir::OpCall& c, const Dims& shape, ir::DType dtype, ir::Memory memory) {
  TileValue t;
  t.shape = shape;
  t.dtype = dtype;
  t.memory = memory;
  const long long bytes = checked_bytes(*this, c, shape, dtype, "tile");
  long long addr = site_of(c).addr;
  if (f.planned_call == &c) addr = f.planned_addr;
  if (addr >= 0 && f.buffers) {
    const long long cap = memory_capacity(world().profile(), memory);
    if (addr + bytes > cap) [[unlikely]]
      tile_overflow(*this, c, bytes, addr, memory, cap);
    const size_t index = static_cast<size_t>(memory);
    PTODIST_INTERNAL_ASSERT(index < std::size(f.buffers->memory), "new_tile: memory out of range");
    t.data = f.buffers->memory[index].reserve(cap) + addr;
    return t;
  }
  return new_unplaced_tile(c, shape, dtype, memory);
}

TileValue Interp::new_unplaced_tile(const ir::OpCall& c, const Dims& shape, ir::DType dtype,
                                    ir::Memory memory) {
  TileValue t;
  t.shape = shape;
  t.dtype = dtype;
  t.memory = memory;
  const long long bytes = checked_bytes(*this, c, shape, dtype, "tile");
  if (!f.tiles) f.tiles = std::make_shared<TilePool>();
  t.storage = f.tiles->take(bytes);
  t.data = static_cast<std::byte*>(t.storage.get());
  return t;
}

std::byte* CoreBuffer::reserve(long long bytes) {
  if (bytes <= size_) return base_;
  HostBytes grown(static_cast<size_t>(bytes) + 63);
  auto* base =
      reinterpret_cast<std::byte*>((reinterpret_cast<uintptr_t>(grown.data()) + 63) & ~uintptr_t{63});
  if (size_ > 0) std::memcpy(base, base_, static_cast<size_t>(size_));
  storage_ = std::move(grown);
  base_ = base;
  size_ = bytes;
  return base_;
}

constexpr std::align_val_t kTileAlign{64};

TilePool::~TilePool() {
  for (auto& [size, list] : free_)
    for (void* p : list) ::operator delete(p, kTileAlign);
}

std::shared_ptr<void> TilePool::take(long long bytes) {
  long long size = bytes > 0 ? bytes : 1;
  void* p = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = free_.find(size);
    if (it != free_.end() && !it->second.empty()) {
      p = it->second.back();
      it->second.pop_back();
    }
  }
  if (!p) p = ::operator new(size, kTileAlign);
  // The deleter holds the pool, so a tile that outlives its kernel (a session's scratch held by the DMA
  // engine) still returns its bytes safely.
  std::shared_ptr<TilePool> self = shared_from_this();
  return std::shared_ptr<void>(p, [self, size](void* q) {
    std::lock_guard<std::mutex> lock(self->mu_);
    self->free_[size].push_back(q);
  });
}

// ---- dispatch ----

static Value run_op(Interp& in, const ir::OpCall& c, ir::OpId id) {
  switch (id) {
#define PTODIST_OP(Id, spelling, signature, effects, where) \
  case ir::OpId::Id:                                        \
    return op_##Id(in, c);
#include "ptodist/ir/ops.def"
#undef PTODIST_OP
  }
  in.fail(c.span, "unknown op");
}

// The transport learns when an op that may write this rank's windows through a pointer runs, so a
// notify can publish those stores (MPI) and skip that step when there were none.
Value dispatch_op(Interp& in, const ir::OpCall& c, ir::OpId id, uint32_t effects) {
  if (in.world().observed()) [[unlikely]]
    return observed_op(in, c, id, effects);
  return dispatch_unobserved(in, c, id, effects);
}

Value dispatch_unobserved(Interp& in, const ir::OpCall& c, ir::OpId id, uint32_t effects) {
  constexpr uint32_t kMayStoreLocally = ir::kWritesGM | ir::kReadsRemote | ir::kWritesRemote;
  if ((effects & kMayStoreLocally) == 0) return run_op(in, c, id);
  Transport& transport = in.world().transport();
  struct Running {
    Transport& t;
    ~Running() { t.end_local_stores(); }
  };
  transport.begin_local_stores();
  Running running{transport};
  return run_op(in, c, id);
}

// ---- worker threads ----

struct WorkerPool::Worker {
  std::thread thread;
  std::function<void()> job;
  bool busy = false;
  std::condition_variable cv;
};

WorkerPool::WorkerPool() = default;

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  for (auto& w : workers_) w->cv.notify_all();
  for (auto& w : workers_) w->thread.join();
}

void WorkerPool::run(std::function<void()> job) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& w : workers_) {
    if (!w->busy) {
      w->busy = true;
      w->job = std::move(job);
      w->cv.notify_one();
      return;
    }
  }
  auto w = std::make_unique<Worker>();
  w->busy = true;
  w->job = std::move(job);
  Worker* raw = w.get();
  workers_.push_back(std::move(w));
  raw->thread = std::thread([this, raw] {
    unbind_from_cpu();  // not the CPU of a rank thread bound for its round (rank_placement.h)
    loop(raw);
  });
}

void WorkerPool::loop(Worker* w) {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    w->cv.wait(lock, [&] { return stop_ || w->job; });
    if (w->job) {
      std::function<void()> job = std::move(w->job);
      w->job = nullptr;
      lock.unlock();
      job();
      lock.lock();
      w->busy = false;
      continue;
    }
    if (stop_) return;
  }
}

int RankExec::acquire_core(bool cube) {
  std::lock_guard<std::mutex> lock(mu);
  std::vector<bool>& busy = cube ? cube_busy : vector_busy;
  for (size_t i = 0; i < busy.size(); ++i) {
    if (!busy[i]) {
      busy[i] = true;
      return static_cast<int>(i);
    }
  }
  return -1;
}

bool RankExec::has_free_core(bool cube) {
  std::lock_guard<std::mutex> lock(mu);
  for (bool b : cube ? cube_busy : vector_busy)
    if (!b) return true;
  return false;
}

void RankExec::release_core(bool cube, int id) {
  std::lock_guard<std::mutex> lock(mu);
  (cube ? cube_busy : vector_busy)[id] = false;
}

}  // namespace ptodist::runtime
