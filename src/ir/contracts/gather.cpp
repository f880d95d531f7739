// Contracts of the gather ops, after PyPTO's tensor.gather / tensor.gather_mask
// (src/ir/op/tensor_ops/gather.cpp) and tile.gather / tile.gather_mask (tile_ops/gather.cpp): the index
// form (out[b, k] = input[b, index[b, k]], or the tile's flat index) and the mask form (PyPTO's
// MaskPattern: every 2nd or 4th element of each row, or all).
#include "common.h"
#include "ptodist/ir/printer.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

bool gather_dtype(DType t) {
  return t == DType::FP16 || t == DType::FP32 || t == DType::INT16 || t == DType::INT32;
}

bool check_source_dtype(const ContractContext& cx, std::string_view name, DType t) {
  if (gather_dtype(t)) return true;
  cx.fail(name,
          quoted(name) + " must have dtype pl.FP16, pl.FP32, pl.INT16 or pl.INT32, got " + dtype_str(t));
  return false;
}

// INT32 indices with any source, INT16 ones with a 16-bit source (tgather b32 reads indices as u32).
bool check_index_dtype(const ContractContext& cx, std::string_view name, DType src, DType idx) {
  bool src16 = src == DType::FP16 || src == DType::INT16;
  if (idx == DType::INT32 || (idx == DType::INT16 && src16)) return true;
  cx.fail(name, quoted(name) + " must have dtype pl.INT32 (or pl.INT16 with a 16-bit source), got " +
                    dtype_str(idx) + " with a " + dtype_str(src) + " source");
  return false;
}

// The mask form's pattern (1..7, PyPTO's pl.tile.MaskPattern members are these ints) and the divisor
// of the row length it selects: every 2nd element (1, 2), every 4th (3..6) or all (7).
std::optional<long long> mask_divisor(const ContractContext& cx, std::string_view name) {
  auto p = as_const_int(cx.arg(name));
  if (!p || *p < 1 || *p > 7 || cx.arg(name)->isa<BoolImm>()) {
    cx.fail(name, quoted(name) + " must be a pl.tile.MaskPattern member (an integer 1 to 7), got " +
                      describe(cx.arg(name)));
    return std::nullopt;
  }
  return *p == 7 ? 1 : (*p <= 2 ? 2 : 4);
}

// [rows, cols / divisor] of `dtype` (output_dtype, when given, must have the source's width: the bits
// are reinterpreted, not converted).
std::optional<std::pair<std::vector<Expr>, DType>> mask_result(const ContractContext& cx,
                                                               std::string_view src, const TypeNode& t) {
  auto div = mask_divisor(cx, "mask_pattern");
  if (!div) return std::nullopt;
  if (t.shape.size() != 2) {
    cx.fail(src, quoted(src) + " must be 2-D, got " + type_str(cx.arg(src)->type));
    return std::nullopt;
  }
  // Columns not yet constant (a module constant before specialize) give cols // divisor, checked again
  // once specialize folded them.
  auto cols = as_const_int(t.shape[1]);
  if (cols && *cols % *div != 0) {
    cx.fail("mask_pattern", "mask pattern " + print_expr(cx.arg("mask_pattern")) + " needs the columns (" +
                                std::to_string(*cols) + ") to be a multiple of " + std::to_string(*div));
    return std::nullopt;
  }
  DType out = t.dtype;
  if (!omitted(cx, "output_dtype")) {
    auto d = need_dtype(cx, "output_dtype");
    if (!d) return std::nullopt;
    if (dtype_bytes(*d) != dtype_bytes(t.dtype)) {
      cx.fail("output_dtype", "'output_dtype' " + dtype_str(*d) + " must have the width of " +
                                  dtype_str(t.dtype) + " (the bits are reinterpreted)");
      return std::nullopt;
    }
    out = *d;
  }
  auto d = std::make_shared<IntImm>();
  d->value = *div;
  d->type = scalar_type(DType::INT64);
  Expr out_cols = d;
  if (cols) {
    d->value = *cols / *div;
  } else if (*div != 1) {
    auto q = std::make_shared<Binary>();
    q->op = BinaryOpKind::FloorDiv;
    q->lhs = t.shape[1];
    q->rhs = d;
    q->type = scalar_type(DType::INT64);
    out_cols = q;
  } else {
    out_cols = t.shape[1];
  }
  return std::make_pair(std::vector<Expr>{t.shape[0], out_cols}, out);
}

Type tensor_index_form(const ContractContext& cx, const TypeNode& t) {
  if (omitted(cx, "dim") || omitted(cx, "index"))
    return cx.fail(omitted(cx, "dim") ? "dim" : "index", "the index form needs both 'dim' and 'index'");
  if (!omitted(cx, "output_dtype"))
    return cx.fail("output_dtype", "'output_dtype' is only valid for the mask form (mask_pattern=...)");
  auto dim = as_const_int(cx.arg("dim"));
  long long rank = static_cast<long long>(t.shape.size());
  if (!dim || *dim < -rank || *dim >= rank)
    return cx.fail("dim", "'dim' must be a constant in [" + std::to_string(-rank) + ", " +
                              std::to_string(rank - 1) + "], got " + describe(cx.arg("dim")));
  long long along = *dim < 0 ? *dim + rank : *dim;
  const TypeNode* idx = need_tensor_like(cx, "index");
  if (!idx || !check_index_dtype(cx, "index", t.dtype, idx->dtype)) return nullptr;
  if (idx->shape.size() != t.shape.size())
    return cx.fail("index", "'index' must have the input's rank, got " + type_str(cx.arg("index")->type));
  // Off the gathered dim, index positions name input positions (PyPTO: index.shape[i] <= input.shape[i]).
  for (long long i = 0; i < rank; ++i) {
    auto a = as_const_int(idx->shape[i]), b = as_const_int(t.shape[i]);
    if (i != along && a && b && *a > *b)
      return cx.fail("index", "'index' dim " + std::to_string(i) + " (" + std::to_string(*a) +
                                  ") exceeds the input's (" + std::to_string(*b) + ")");
  }
  return tensor_type(idx->shape, t.dtype);
}

}  // namespace

// pl.gather / pl.tensor.gather: the index form (torch.gather along any dim of a GM tensor of rank >= 2)
// or the mask form (2-D); the compare form is not supported yet.
Type check_Gather(const ContractContext& cx) {
  const TypeNode* t = need_tensor_like(cx, "input");
  if (!t || !check_source_dtype(cx, "input", t->dtype)) return nullptr;
  bool index = !omitted(cx, "dim") || !omitted(cx, "index");
  if (t->shape.size() != 2 && !(index && t->shape.size() > 2))
    return cx.fail("input", std::string("'input' must be 2-D") + (index ? " or more" : "") + ", got " +
                                type_str(cx.arg("input")->type));
  bool mask = !omitted(cx, "mask_pattern");
  bool compare = !omitted(cx, "kvalue") || !omitted(cx, "cmp_mode") || !omitted(cx, "out_cols");
  if (int(index) + int(mask) + int(compare) > 1)
    return cx.fail("input",
                   "the index form (dim, index), the mask form (mask_pattern=) and the compare form "
                   "(kvalue=, cmp_mode=, out_cols=) are mutually exclusive");
  if (compare)
    return cx.fail("kvalue",
                   "the compare form (kvalue=, cmp_mode=, out_cols=) is not supported by ptodist yet");
  if (mask) {
    auto r = mask_result(cx, "input", *t);
    return r ? tensor_type(r->first, r->second) : nullptr;
  }
  if (!index)
    return cx.fail("input", "needs (dim, index) for the index form or mask_pattern= for the mask form");
  return tensor_index_form(cx, *t);
}

// pl.tile.gather(src, indices, tmp): dst[i, j] = the element of src at flat index indices[i, j].
Type check_TileGather(const ContractContext& cx) {
  const TypeNode* s = need_tile(cx, "src");
  if (!s || !check_source_dtype(cx, "src", s->dtype)) return nullptr;
  const TypeNode* i = need_tile(cx, "indices");
  if (!i || !check_index_dtype(cx, "indices", s->dtype, i->dtype) || !need_tile(cx, "tmp")) return nullptr;
  return tile_type(i->shape, s->dtype, Memory::Vec);
}

Type check_TileGatherMask(const ContractContext& cx) {
  const TypeNode* s = need_tile(cx, "src");
  if (!s || !check_source_dtype(cx, "src", s->dtype)) return nullptr;
  auto r = mask_result(cx, "src", *s);
  return r ? tile_type(r->first, r->second, Memory::Vec) : nullptr;
}

}  // namespace ptodist::ir
