// Contracts of the gather ops, after PyPTO's tensor.gather / tensor.gather_mask
// (src/ir/op/tensor_ops/gather.cpp) and tile.gather / tile.gather_mask (tile_ops/gather.cpp): the index
// form (out[b, k] = input[b, index[b, k]], or the tile's flat index) and the mask form (PyPTO's
// MaskPattern: every 2nd or 4th element of each row, or all), and their inverse pl.scatter, after
// PyPTO's tensor.scatter / tensor.scatter_mask (src/ir/op/tensor_ops/scatter.cpp).
#include <algorithm>

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

bool scatter_dtype(DType t) {
  return gather_dtype(t) || t == DType::BF16 || t == DType::INT8;
}

// pl.scatter's index form: out = input, out[b, index[b, k]] = src[b, k] for 2-D tensors along dim -1;
// index has src's shape and the element width of input (INT16 for 1-byte inputs; pto.tscatter reads
// its indices at the destination's width).
Type scatter_index_form(const ContractContext& cx, const TypeNode& t) {
  if (omitted(cx, "dim") || omitted(cx, "index") || omitted(cx, "src"))
    return cx.fail(omitted(cx, "dim")     ? "dim"
                   : omitted(cx, "index") ? "index"
                                          : "src",
                   "the index form needs 'dim', 'index' and 'src'");
  if (!omitted(cx, "dst")) return cx.fail("dst", "'dst' is only valid for the mask form (mask_pattern=...)");
  auto dim = as_const_int(cx.arg("dim"));
  if (!dim || (*dim != -1 && *dim != 1))
    return cx.fail("dim", "'dim' must be -1 (the last axis; the only one scattered along), got " +
                              print_expr(cx.arg("dim")));
  const TypeNode* idx = need_tensor_like(cx, "index");
  if (!idx) return nullptr;
  long long want = std::max<long long>(dtype_bytes(t.dtype), 2);
  if ((idx->dtype != DType::INT16 && idx->dtype != DType::INT32) || dtype_bytes(idx->dtype) != want)
    return cx.fail("index", "'index' must have dtype " + std::string(want == 4 ? "pl.INT32" : "pl.INT16") +
                                " for a " + dtype_str(t.dtype) + " input, got " + dtype_str(idx->dtype));
  const TypeNode* src = need_tensor_like(cx, "src");
  if (!src) return nullptr;
  if (src->dtype != t.dtype)
    return cx.fail(
        "src", "'src' dtype " + dtype_str(src->dtype) + " must match 'input' dtype " + dtype_str(t.dtype));
  if (src->shape.size() != 2 || shapes_differ(src->shape, idx->shape))
    return cx.fail("src", "'src' must be 2-D with the shape of 'index' (" + shape_str(idx->shape) +
                              "), got " + type_str(cx.arg("src")->type));
  for (size_t i = 0; i < 2; ++i) {
    auto a = as_const_int(src->shape[i]), b = as_const_int(t.shape[i]);
    if (a && b && *a > *b)
      return cx.fail("src", "'src' dim " + std::to_string(i) + " (" + std::to_string(*a) +
                                ") exceeds the input's (" + std::to_string(*b) + ")");
  }
  return tensor_type(t.shape, t.dtype);
}

// pl.scatter's mask form: each row of input lands on the columns of dst the pattern selects, so dst has
// input's columns times the pattern's stride.
Type scatter_mask_form(const ContractContext& cx, const TypeNode& t) {
  if (!omitted(cx, "dim") || !omitted(cx, "index") || !omitted(cx, "src"))
    return cx.fail(!omitted(cx, "dim")     ? "dim"
                   : !omitted(cx, "index") ? "index"
                                           : "src",
                   "the index form (dim, index, src) and the mask form (mask_pattern=, dst=) are mutually "
                   "exclusive");
  auto stride = mask_divisor(cx, "mask_pattern");
  if (!stride) return nullptr;
  if (omitted(cx, "dst")) return cx.fail("mask_pattern", "the mask form needs 'dst'");
  const TypeNode* d = need_tensor_like(cx, "dst");
  if (!d) return nullptr;
  if (d->dtype != t.dtype)
    return cx.fail("dst",
                   "'dst' dtype " + dtype_str(d->dtype) + " must match 'input' dtype " + dtype_str(t.dtype));
  if (d->shape.size() != 2) return cx.fail("dst", "'dst' must be 2-D, got " + type_str(cx.arg("dst")->type));
  auto in_cols = as_const_int(t.shape[1]), dst_cols = as_const_int(d->shape[1]);
  if (dims_differ(d->shape[0], t.shape[0]) || (in_cols && dst_cols && *dst_cols != *in_cols * *stride))
    return cx.fail("dst", "'dst' must have the input's rows and " + std::to_string(*stride) +
                              " times its columns for this pattern, got " + type_str(cx.arg("dst")->type) +
                              " for an input of " + shape_str(t.shape));
  return tensor_type(d->shape, d->dtype);
}

}  // namespace

// pl.scatter / pl.tensor.scatter: the index form (dim=-1, index, src) or the mask form (mask_pattern=,
// dst=) on 2-D GM tensors.
Type check_Scatter(const ContractContext& cx) {
  const TypeNode* t = need_tensor_like(cx, "input");
  if (!t) return nullptr;
  if (!scatter_dtype(t->dtype))
    return cx.fail("input",
                   "'input' must have dtype pl.FP16, pl.BF16, pl.FP32, pl.INT8, pl.INT16 or "
                   "pl.INT32, got " +
                       dtype_str(t->dtype));
  if (t->shape.size() != 2)
    return cx.fail("input", "'input' must be 2-D, got " + type_str(cx.arg("input")->type));
  if (!omitted(cx, "mask_pattern")) return scatter_mask_form(cx, *t);
  return scatter_index_form(cx, *t);
}

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
