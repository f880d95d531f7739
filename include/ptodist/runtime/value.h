// Run-time values of the interpreter: scalars, tensor views (GM or window), tiles, async sessions and
// events, comm contexts, task ids and window buffers, as one small closed std::variant.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "ptodist/ir/dtype.h"
#include "ptodist/ir/function.h"
#include "ptodist/runtime/dims.h"

namespace ptodist::runtime {

struct NoneValue {};

// The product of the dims (1 for a scalar shape). Inline: asked for several times per op.
inline long long shape_numel(const Dims& shape) {
  long long n = 1;
  for (long long d : shape) n *= d;
  return n;
}

// A scalar: Python ints/bools are integers, floats are doubles; `dtype` keeps the declared type.
struct Scalar {
  ir::DType dtype = ir::DType::INT64;
  long long i = 0;
  double f = 0;

  bool is_float() const { return ir::dtype_is_float(dtype); }
  long long as_int() const { return is_float() ? static_cast<long long>(f) : i; }
  double as_double() const { return is_float() ? f : static_cast<double>(i); }
  static Scalar of_int(long long v, ir::DType t = ir::DType::INT64) { return Scalar{t, v, 0}; }
  static Scalar of_float(double v, ir::DType t = ir::DType::FP32) { return Scalar{t, 0, v}; }
  static Scalar of_bool(bool v) { return Scalar{ir::DType::BOOL, v ? 1 : 0, 0}; }
};

// Where a window-backed view lives: a symmetric segment (one pld.alloc_window_buffer) and a byte
// offset inside it; the same address names the peer's copy on every rank.
struct WindowAddr {
  int segment = -1;
  long long offset = 0;
};

// A view of GM memory: host tensors (sliced per rank) or a rank's window heap. Strides count elements.
struct TensorView {
  std::byte* data = nullptr;  // element [0, ..., 0] in the memory of `rank` (window) or host GM
  ir::DType dtype = ir::DType::FP32;
  Dims shape;
  Dims strides;
  int rank = -1;      // the rank whose window this is; -1 for host GM
  WindowAddr window;  // segment >= 0 when window-backed
  std::string name;   // the parameter or buffer name, for diagnostics
  // Keeps a tensor a kernel computed (pl.create_tensor, a tensor-level pl.add) alive while any view of
  // it is; null for host tensors and windows, whose memory the world owns.
  std::shared_ptr<std::byte[]> storage;
  // The valid region set by pl.tensor.set_validshape (one extent per dim); empty when all is valid.
  // pl.fillpad pads outside it, pl.assemble writes only it, the elementwise ops compute on every
  // element and keep it (a binary op where both operands agree).
  Dims valid;

  bool is_window() const { return window.segment >= 0; }
  long long numel() const { return shape_numel(shape); }
  // Byte offset of the element at `index` (one entry per dim) from `data`.
  long long byte_offset(const Dims& index) const;
};

struct TileWindow;

// A tile: dense row-major bytes in a per-core buffer (at the planned address) or in pooled storage.
struct TileValue {
  std::byte* data = nullptr;
  std::shared_ptr<void> storage;  // keeps pooled storage alive; null when data is in a core buffer
  ir::DType dtype = ir::DType::FP32;
  ir::Memory memory = ir::Memory::Vec;
  Dims shape;
  // The valid region when smaller than `shape` (pl.load's valid_shape); empty when all of it is valid.
  // A store writes only this region.
  Dims valid;
  // Set on a pl.tile.slice result: the parent region it views on the device (pto.subview). The slice
  // is a copy here, so an op that writes a tile in place (matmul_acc, assemble into a tile) writes
  // the region back to the parent too.
  std::shared_ptr<const TileWindow> window;

  long long numel() const { return shape_numel(shape); }
  long long bytes() const { return numel() * ir::dtype_bytes(dtype); }
  long long rows() const { return shape.size() >= 2 ? numel() / shape.back() : 1; }
  long long cols() const { return shape.empty() ? 1 : shape.back(); }
};

// The parent of a tile slice and where the slice lies in it (2-D).
struct TileWindow {
  TileValue parent;
  Dims offset;
};

// An SDMA session: the completion word lives in the first 4 bytes of its UB scratch (DESIGN.md §6).
struct AsyncSessionState {
  int sync_id = 0;
  long long block_bytes = 1 << 20;
  TileValue scratch;    // [1, 256] INT8; bytes [0, 4) hold the last completed sequence number
  uint32_t issued = 0;  // sequence number of the last issued transfer (the issuing core only)
  int rank = 0;
  // Unique in the process (never reused, unlike the state's address once freed): the event stream
  // matches a session's transfers to their waits by it.
  uint64_t id = 0;
  uint32_t* completion_word() const { return reinterpret_cast<uint32_t*>(scratch.data); }
};

struct SessionValue {
  std::shared_ptr<AsyncSessionState> state;
};

struct EventValue {
  std::shared_ptr<AsyncSessionState> session;
  uint32_t seq = 0;
  const ir::ExprNode* issue = nullptr;  // the issuing op, for diagnostics
  std::shared_ptr<bool> waited;         // an event is waited once
  int check_id = -1;                    // check mode: the transfer's check::TransferId
};

struct CommCtxValue {
  int rank = 0;
  int nranks = 1;
};

struct TaskState;
struct TaskValue {
  std::shared_ptr<TaskState> task;
};

struct WindowBufferValue {
  int segment = -1;
  long long bytes = 0;
  std::string name;
};

struct FuncRefValue {
  const ir::FunctionNode* fn = nullptr;
};

struct TupleValue;

using Value = std::variant<NoneValue, Scalar, TensorView, TileValue, SessionValue, EventValue, CommCtxValue,
                           TaskValue, WindowBufferValue, FuncRefValue, std::shared_ptr<TupleValue>>;

struct TupleValue {
  std::vector<Value> elements;
};

// Dense row-major strides for a shape.
Dims dense_strides(const Dims& shape);

}  // namespace ptodist::runtime
