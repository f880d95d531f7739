// IR types: scalars, GM tensors, distributed (window-backed) tensors, tiles and the handle types of the
// communication ops. Types are immutable and shared.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ptodist/ir/dtype.h"

namespace ptodist::ir {

struct ExprNode;
using Expr = std::shared_ptr<const ExprNode>;

enum class TypeKind {
  Scalar,        // pl.Scalar[dtype]; Python ints are Scalar[INT64], comparisons Scalar[BOOL]
  Tensor,        // pl.Tensor[shape, dtype]: a GM tensor
  DistTensor,    // pld.DistributedTensor[shape, dtype]: a view of a symmetric window buffer
  Tile,          // pl.Tile[shape, dtype, memory]: an on-chip buffer
  WindowBuffer,  // result of pld.alloc_window_buffer in the host orchestrator
  AsyncSession,  // pld.AsyncSession
  AsyncEvent,    // pld.AsyncEvent
  TaskId,        // pl.TaskId, second result of pl.spmd_submit
  CommCtx,       // pld.CommCtx
  Tuple,         // several results (spmd_submit, multi-value returns)
  Array,         // pl.Array[extent, dtype]: a kernel's on-core scalar array (pl.array.create); shape [extent]
  None,          // statements-as-calls that produce nothing
};

struct TypeNode;
using Type = std::shared_ptr<const TypeNode>;

// The most dims a tensor, tile, shape or offsets list may have (the runtime keeps shapes inline).
inline constexpr size_t kMaxDims = 8;

// One node for every kind; fields that do not apply to a kind stay empty.
struct TypeNode {
  TypeKind kind = TypeKind::None;
  DType dtype = DType::FP32;    // Scalar, Tensor, DistTensor, Tile, WindowBuffer
  std::vector<Expr> shape;      // Tensor, DistTensor, Tile, WindowBuffer: dims (IntImm once specialized)
  Memory memory = Memory::Vec;  // Tile
  // Tile: byte offset in its memory chosen by plan-memory, -1 until planned. Placement, not type:
  // type_equal ignores it; type_str prints it as a trailing `addr=N` when set.
  long long addr = -1;
  // Tile: the valid region when it is smaller than `shape` (pl.load's valid_shape), one dim per dim
  // of `shape`, possibly run-time values; empty when the whole tile is valid. A store writes only the
  // valid region, as PyPTO's TileView.valid_shape. Like `addr`, not part of type_equal.
  std::vector<Expr> valid_shape;
  std::vector<Type> elements;  // Tuple

  bool is_tensor_like() const { return kind == TypeKind::Tensor || kind == TypeKind::DistTensor; }
  bool has_shape() const {
    return is_tensor_like() || kind == TypeKind::Tile || kind == TypeKind::WindowBuffer;
  }
  // Every dim a constant integer (after specialize).
  bool shape_is_static() const;
  // Dims as integers when static.
  std::optional<std::vector<long long>> static_shape() const;
};

Type scalar_type(DType t);
Type tensor_type(std::vector<Expr> shape, DType t);
Type dist_tensor_type(std::vector<Expr> shape, DType t);
Type tile_type(std::vector<Expr> shape, DType t, Memory m);
Type window_buffer_type(std::vector<Expr> shape, DType t);
Type simple_type(TypeKind kind);  // AsyncSession, AsyncEvent, TaskId, CommCtx, None
Type tuple_type(std::vector<Type> elements);
Type array_type(Expr extent, DType t);

// Structural equality (dims compared structurally).
bool type_equal(const Type& a, const Type& b);
// Two dims that are the same value: equal constants, or the same expression of dynamic dims, factory
// parameters and arithmetic on them.
bool dim_equal(const Expr& a, const Expr& b);

// The PyPTO spelling: "pl.Tensor[[128, 256], pl.FP16]", "pl.Tile[[1, 256], pl.INT8, pl.Mem.Vec]".
std::string type_str(const Type& t);
// The same spelling with each shape dim written by `dim` (the printer spells dims as source expressions).
std::string type_str(const Type& t, const std::function<std::string(const Expr&)>& dim);
// A shape as written in a type: "[128, NR]" (dynamic dims and factory parameters by name).
std::string shape_str(const std::vector<Expr>& shape);

}  // namespace ptodist::ir
