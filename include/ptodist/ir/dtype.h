// Element types and on-chip memory spaces, with their PyPTO spellings.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ptodist::ir {

enum class DType { FP32, FP16, BF16, INT32, INT16, INT8, UINT8, INT64, BOOL };

int dtype_bytes(DType t);
bool dtype_is_float(DType t);
bool dtype_is_int(DType t);            // signed or unsigned integer, not BOOL
std::string_view dtype_name(DType t);  // "FP16"; printed as "pl.FP16"
std::optional<DType> dtype_from_name(std::string_view name);

// Where a tile lives: Vec = UB of a vector core; Mat = L1; Left/Right = L0A/L0B; Acc = L0C.
enum class Memory { Vec, Mat, Left, Right, Acc };

std::string_view memory_name(Memory m);  // "Vec"; printed as "pl.Mem.Vec"
std::optional<Memory> memory_from_name(std::string_view name);

}  // namespace ptodist::ir
