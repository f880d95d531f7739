// Tile views for the CPU kernels: an element type and a strided row-major [rows, cols] byte buffer.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ptodist::kernels {

// Element types of kernel operands. The kernels do not depend on the IR; the runtime maps ir::DType
// onto this enum one to one (FP32 -> F32, ..., BOOL -> Bool). Bool is one byte holding 0 or 1.
enum class ElemType { F32, F16, BF16, I32, I16, I8, U8, I64, Bool, U16, U32 };

// Inline: row addressing calls it once per row in the matmul's packing loops.
constexpr int elem_bytes(ElemType t) {
  switch (t) {
    case ElemType::F32:
    case ElemType::I32:
    case ElemType::U32:
      return 4;
    case ElemType::F16:
    case ElemType::BF16:
    case ElemType::I16:
    case ElemType::U16:
      return 2;
    case ElemType::I64:
      return 8;
    case ElemType::I8:
    case ElemType::U8:
    case ElemType::Bool:
      return 1;
  }
  return 1;
}
bool elem_is_float(ElemType t);          // F32, F16, BF16
std::string_view elem_name(ElemType t);  // "f32", "bf16", ...

// NumPy .npy spelling of each type ("<f4", "<f2", "|b1", ...). BF16 has no NumPy dtype: it is stored as
// its raw 16-bit pattern, "<u2" (read it in numpy with `a.view(ml_dtypes.bfloat16)` or
// `(a.astype(np.uint32) << 16).view(np.float32)`). No other ptodist type uses "<u2", so the mapping
// back is unambiguous.
std::string_view npy_descr(ElemType t);
// The inverse of npy_descr; also accepts '<' or '=' in place of '|' on the one-byte types. nullopt
// when unsupported (big-endian, other widths, structured dtypes).
std::optional<ElemType> elem_type_from_npy_descr(std::string_view descr);

// A strided 2-D view. Inputs are only read through it; outputs are written. row_stride counts
// elements (not bytes) between the starts of consecutive rows and is >= cols, so a view may be a
// tile buffer (row_stride == cols) or a region of a larger GM tensor (row_stride == tensor width).
struct TileView {
  void* data = nullptr;
  int rows = 0;
  int cols = 0;
  long row_stride = 0;
  ElemType type = ElemType::F32;

  static TileView contiguous(void* data, int rows, int cols, ElemType type) {
    return TileView{data, rows, cols, static_cast<long>(cols), type};
  }
  // The sub-view [r0, r0 + nrows) x [c0, c0 + ncols) of this view.
  TileView sub(int r0, int c0, int nrows, int ncols) const {
    return TileView{row_ptr(r0) + static_cast<long>(c0) * elem_bytes(type), nrows, ncols, row_stride, type};
  }
  char* row_ptr(int r) const {
    return static_cast<char*>(data) + static_cast<long>(r) * row_stride * elem_bytes(type);
  }
  long row_bytes() const { return static_cast<long>(cols) * elem_bytes(type); }
  long elements() const { return static_cast<long>(rows) * cols; }
  bool is_contiguous() const { return row_stride == cols || rows <= 1; }
};

}  // namespace ptodist::kernels
