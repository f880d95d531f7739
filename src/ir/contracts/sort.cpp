// Contracts of the sorting ops, after PyPTO's tile.sort32 / tile.mrgsort_format1 / _format2
// (src/ir/op/tile_ops/sort.cpp) and their tensor forms (tensor_ops/sort.cpp), with pto-isa's limits
// (TSORT32: 32-element blocks; TMRGSORT: one row, format1's block_len a multiple of 64 and the row
// 4 * block_len * repeats long).
#include "common.h"
#include "ptodist/ir/printer.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// A sort operand: a Vec tile, or a GM tensor for the tensor-level form; null after an error.
const TypeNode* sort_operand(const ContractContext& cx, std::string_view name, bool tensor) {
  if (tensor) return need_tensor_like(cx, name);
  const TypeNode* t = need_tile(cx, name);
  if (!t || t->memory == Memory::Vec) return t;
  cx.fail(name, quoted(name) + " must be a tile in pl.Mem.Vec, got " + type_str(cx.arg(name)->type));
  return nullptr;
}

// FP32 values (pairs of 2 FP32 slots). pto-isa's FP16 pairs take 4 halves each, which PyPTO's
// doubled-width type does not describe, so FP16 waits until the two agree.
bool need_fp32_rows(const ContractContext& cx, std::string_view name, const TypeNode* t) {
  if (t->dtype != DType::FP32 && t->dtype != DType::FP16) {
    cx.fail(name, quoted(name) + " must have dtype pl.FP16 or pl.FP32, got " + dtype_str(t->dtype));
    return false;
  }
  if (t->dtype == DType::FP16) {
    cx.fail(name, quoted(name) + " of dtype pl.FP16 is not supported by ptodist yet (pl.FP32 is)");
    return false;
  }
  if (t->shape.size() != 2) {
    cx.fail(name, quoted(name) + " must be 2-D, got " + type_str(cx.arg(name)->type));
    return false;
  }
  return true;
}

Type result_like(const TypeNode* t, std::vector<Expr> shape, bool tensor) {
  return tensor ? tensor_type(std::move(shape), t->dtype)
                : tile_type(std::move(shape), t->dtype, Memory::Vec);
}

std::string print_dim(const Expr& e) {
  return print_expr(e);
}

// One row of a constant length, when known (TMRGSORT sorts a single row).
std::optional<long long> one_row(const ContractContext& cx, std::string_view name, const TypeNode* t) {
  auto rows = as_const_int(t->shape[0]);
  if (rows && *rows != 1) {
    cx.fail(name, quoted(name) + " must have one row (pto.tmrgsort merges a single row), got " +
                      type_str(cx.arg(name)->type));
    return -1;
  }
  return as_const_int(t->shape[1]);
}

Type format1(const ContractContext& cx, const TypeNode* src, bool tensor) {
  for (const char* other : {"src1", "src2", "src3", "tmp"})
    if (!omitted(cx, other))
      return cx.fail(
          other, "'block_len' (format1) and '" + std::string(other) + "' (format2) are mutually exclusive");
  if (!need_int_scalar(cx, "block_len")) return nullptr;
  auto cols = one_row(cx, "src0", src);
  if (cols && *cols < 0) return nullptr;
  auto bl = as_const_int(cx.arg("block_len"));
  if (bl && (*bl <= 0 || *bl % 64 != 0))
    return cx.fail("block_len", "'block_len' must be a positive multiple of 64, got " + std::to_string(*bl));
  if (bl && cols && (*cols % (4 * *bl) != 0 || *cols / (4 * *bl) > 255))
    return cx.fail("block_len", "the row (" + std::to_string(*cols) +
                                    " slots) must be 1 to 255 times 4 * block_len (" +
                                    std::to_string(4 * *bl) + ")");
  return result_like(src, src->shape, tensor);
}

Type format2(const ContractContext& cx, const TypeNode* src0, bool tensor) {
  if (omitted(cx, "src1"))
    return cx.fail("src1",
                   "pl.mrgsort needs either block_len= (format1) or at least two sorted inputs (format2)");
  std::vector<std::string> srcs{"src0", "src1"};
  for (const char* more : {"src2", "src3"})
    if (!omitted(cx, more)) srcs.push_back(more);
  if (srcs.size() == 3 && !omitted(cx, "src3") && omitted(cx, "src2"))
    return cx.fail("src3", "'src3' needs 'src2'");
  if (!need_default(cx, "exhausted", "stopping at the first exhausted list")) return nullptr;
  long long total = 0;
  bool known = true;
  for (const std::string& s : srcs) {
    const TypeNode* t = s == "src0" ? src0 : sort_operand(cx, s, tensor);
    if (!t) return nullptr;
    if (t->dtype != src0->dtype)
      return cx.fail(s, quoted(s) + " dtype " + dtype_str(t->dtype) + " must match 'src0' dtype " +
                            dtype_str(src0->dtype));
    if (t->shape.size() != 2) return cx.fail(s, quoted(s) + " must be 2-D, got " + type_str(cx.arg(s)->type));
    auto cols = one_row(cx, s, t);
    if (cols && *cols < 0) return nullptr;
    if (cols && *cols % 2 != 0)
      return cx.fail(s, quoted(s) + " must hold whole (value, index) pairs: an even number of columns, got " +
                            std::to_string(*cols));
    known = known && cols.has_value();
    total += cols.value_or(0);
  }
  if (tensor) {
    if (!omitted(cx, "tmp"))
      return cx.fail("tmp", "'tmp' is a tile scratch; the tensor-level pl.mrgsort takes none");
    if (!known) return cx.fail("src0", "the tensor-level pl.mrgsort needs inputs of constant length");
    return tensor_type({const_dim(1), const_dim(total)}, src0->dtype);
  }
  if (omitted(cx, "tmp"))
    return cx.fail("tmp",
                   "the tile pl.mrgsort format2 needs a 'tmp' tile (the merge destination), e.g. "
                   "pl.tile.mrgsort(a, b, tmp=t)");
  const TypeNode* tmp = sort_operand(cx, "tmp", false);
  if (!tmp) return nullptr;
  auto tcols = tmp->shape.size() == 2 ? as_const_int(tmp->shape[1]) : std::nullopt;
  if (tmp->dtype != src0->dtype || tmp->shape.size() != 2 || (known && tcols && *tcols != total))
    return cx.fail("tmp", "'tmp' must be a [1, " + std::to_string(total) + "] " + dtype_str(src0->dtype) +
                              " tile (the inputs' total length), got " + type_str(cx.arg("tmp")->type));
  return tile_type(tmp->shape, src0->dtype, Memory::Vec);
}

}  // namespace

// pl.sort32(src, idx): each 32-element block of every row sorted by value, descending, into
// (value, index) pairs: a row of N values gives 2N slots.
Type check_Sort32(const ContractContext& cx) {
  bool tensor = takes_tensors(cx, "src");
  const TypeNode* s = sort_operand(cx, "src", tensor);
  if (!s || !need_fp32_rows(cx, "src", s)) return nullptr;
  const TypeNode* i = sort_operand(cx, "idx", tensor);
  if (!i) return nullptr;
  if (i->dtype != DType::UINT32 && i->dtype != DType::INT32)
    return cx.fail("idx", "'idx' must have dtype pl.UINT32 (or pl.INT32), got " + dtype_str(i->dtype));
  if (i->shape.size() != 2 || dims_differ(i->shape[1], s->shape[1]) ||
      !(as_const_int(i->shape[0]) == std::optional<long long>(1) || !dims_differ(i->shape[0], s->shape[0])))
    return cx.fail("idx", "'idx' must be [rows, " + print_dim(s->shape[1]) + "] or [1, " +
                              print_dim(s->shape[1]) + "] (one index per value), got " +
                              type_str(cx.arg("idx")->type));
  auto cols = as_const_int(s->shape[1]);
  if (cols && *cols % 32 != 0)
    return cx.fail("src", "'src' rows must be whole 32-element blocks, got " + std::to_string(*cols) +
                              " columns (the tail form with a scratch tile is not supported by ptodist yet)");
  Expr doubled = cols ? const_dim(*cols * 2) : nullptr;
  if (!doubled) {
    auto m = std::make_shared<Binary>();
    m->op = BinaryOpKind::Mul;
    m->lhs = s->shape[1];
    m->rhs = const_dim(2);
    m->type = scalar_type(DType::INT64);
    doubled = m;
  }
  return result_like(s, {s->shape[0], doubled}, tensor);
}

// pl.mrgsort: format1 (block_len=: each group of 4 sorted runs of block_len slots merged into one) or
// format2 (2 to 4 sorted rows merged into one).
Type check_MrgSort(const ContractContext& cx) {
  bool tensor = takes_tensors(cx, "src0");
  const TypeNode* s = sort_operand(cx, "src0", tensor);
  if (!s || !need_fp32_rows(cx, "src0", s)) return nullptr;
  return omitted(cx, "block_len") ? format2(cx, s, tensor) : format1(cx, s, tensor);
}

}  // namespace ptodist::ir
