// Element types and on-chip memory spaces, with their PyPTO spellings.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ptodist::ir {

// INDEX is PyPTO's `pl.INDEX`: a signed 64-bit integer that indexes and counts (MLIR's `index`).
// UINT16 and UINT32 are PyPTO's pl.UINT16 / pl.UINT32 (sort indices, pl.arange(..., dtype=pl.UINT32)).
// TASK_ID (PyPTO's DataType.TASK_ID) is only the element type of a task-id array (pl.array.create(n,
// pl.TASK_ID) in orchestration): no tensor, tile or scalar has it (a task id is TypeKind::TaskId).
enum class DType { FP32, FP16, BF16, INT32, INT16, INT8, UINT8, INT64, BOOL, INDEX, UINT16, UINT32, TASK_ID };

// Inline: the executor asks on every op (tile sizes, element offsets).
constexpr int dtype_bytes(DType t) {
  switch (t) {
    case DType::FP32:
    case DType::INT32:
    case DType::UINT32:
      return 4;
    case DType::FP16:
    case DType::BF16:
    case DType::INT16:
    case DType::UINT16:
      return 2;
    case DType::INT8:
    case DType::UINT8:
    case DType::BOOL:
      return 1;
    case DType::INT64:
    case DType::INDEX:
    case DType::TASK_ID:
      return 8;
  }
  return 1;
}
constexpr bool dtype_is_float(DType t) {
  return t == DType::FP32 || t == DType::FP16 || t == DType::BF16;
}
bool dtype_is_int(DType t);            // signed or unsigned integer, not BOOL
std::string_view dtype_name(DType t);  // "FP16"; printed as "pl.FP16"
std::optional<DType> dtype_from_name(std::string_view name);

// Where a tile lives: Vec = UB of a vector core; Mat = L1; Left/Right = L0A/L0B; Acc = L0C; Bias = the
// cube's bias table (the [1, N] row pl.matmul_bias adds).
enum class Memory { Vec, Mat, Left, Right, Acc, Bias };

std::string_view memory_name(Memory m);  // "Vec"; printed as "pl.Mem.Vec"
std::optional<Memory> memory_from_name(std::string_view name);

}  // namespace ptodist::ir
