// Contracts of pl.tile.lrelu, pl.tile.prelu and pl.tile.sels, after PyPTO's tile rules
// (src/ir/op/tile_ops/elementwise.cpp: DeduceTileOpScalarBinaryType, DeduceTilePreluType,
// DeduceTileSelsType). The result is the source tile's type, valid region included.
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// A number written in the source (PyPTO retypes such a constant to the op's dtype).
bool is_literal(const Expr& e) {
  if (!e) return false;
  if (e->isa<IntImm>() || e->isa<FloatImm>()) return true;
  const auto* u = e->as<Unary>();
  return u && u->op == UnaryOpKind::Neg && is_literal(u->operand);
}

// Constant dims of `a` and `b` that differ, as "dimension i" text; empty when none do.
std::string differing_dim(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    auto x = as_const_int(a[i]), y = as_const_int(b[i]);
    if (x && y && *x != *y) return "dimension " + std::to_string(i);
  }
  return a.size() == b.size() ? "" : "rank";
}

}  // namespace

// pl.tile.lrelu(tile, slope): a tile of any dtype and a scalar slope (PyPTO passes a constant slope as
// FP32).
Type check_Lrelu(const ContractContext& cx) {
  const TypeNode* t = need_vec_tile(cx, "tile", false);
  if (!t || !need_scalar(cx, "slope")) return nullptr;
  return cx.arg("tile")->type;
}

// pl.tile.prelu(tile, slope, tmp): FP16/FP32 2-D src, a slope tile of its dtype, shape and valid region,
// and a 2-D scratch tile (its A2/A3 size is checked where PyPTO checks it, in the PTO emitter).
Type check_Prelu(const ContractContext& cx) {
  const TypeNode* t = need_vec_tile(cx, "tile", true);
  if (!t) return nullptr;
  if (t->dtype != DType::FP16 && t->dtype != DType::FP32)
    return cx.fail("tile", "'tile' must have dtype pl.FP16 or pl.FP32, got " + dtype_str(t->dtype));
  const TypeNode* s = need_vec_tile(cx, "slope", true);
  if (!s) return nullptr;
  if (s->dtype != t->dtype)
    return cx.fail(
        "slope", "'slope' dtype " + dtype_str(s->dtype) + " must match 'tile' dtype " + dtype_str(t->dtype));
  if (std::string d = differing_dim(t->shape, s->shape); !d.empty())
    return cx.fail("slope", "'slope' shape " + shape_str(s->shape) + " must match 'tile' shape " +
                                shape_str(t->shape) + " (" + d + " differs)");
  const std::vector<Expr>& tv = t->valid_shape.empty() ? t->shape : t->valid_shape;
  const std::vector<Expr>& sv = s->valid_shape.empty() ? s->shape : s->valid_shape;
  if (std::string d = differing_dim(tv, sv); !d.empty())
    return cx.fail("slope", "'slope' valid_shape " + shape_str(sv) + " must match 'tile' valid_shape " +
                                shape_str(tv) + " (" + d + " differs)");
  if (!need_vec_tile(cx, "tmp", true)) return nullptr;
  return cx.arg("tile")->type;
}

// pl.tile.sels(mask, src, tmp, scalar): an 8/16/32-bit integer mask carrier whose rows hold a bit per
// valid column of src, a 2-D src of a TSELS dtype, a 2-D scratch tile and a scalar. A scalar that is
// not a literal must have src's dtype (the same-width signed one for an unsigned src).
Type check_Sels(const ContractContext& cx) {
  const TypeNode* m = need_vec_tile(cx, "mask", true);
  if (!m) return nullptr;
  const DType md = m->dtype;
  if (md != DType::INT8 && md != DType::UINT8 && md != DType::INT16 && md != DType::UINT16 &&
      md != DType::INT32 && md != DType::UINT32)
    return cx.fail("mask", "'mask' must be an 8-, 16- or 32-bit integer tile, got " + dtype_str(md));
  const TypeNode* s = need_vec_tile(cx, "src", true);
  if (!s) return nullptr;
  const DType sd = s->dtype;
  if (sd != DType::INT8 && sd != DType::UINT8 && sd != DType::INT16 && sd != DType::UINT16 &&
      sd != DType::INT32 && sd != DType::UINT32 && sd != DType::FP16 && sd != DType::FP32)
    return cx.fail("src",
                   "'src' must have dtype pl.INT8, pl.UINT8, pl.INT16, pl.UINT16, pl.INT32, "
                   "pl.UINT32, pl.FP16 or pl.FP32, got " +
                       dtype_str(sd));
  if (!need_vec_tile(cx, "tmp", true) || !need_scalar(cx, "scalar")) return nullptr;
  DType want = sd == DType::UINT8    ? DType::INT8
               : sd == DType::UINT16 ? DType::INT16
               : sd == DType::UINT32 ? DType::INT32
                                     : sd;
  const Expr& scalar = cx.arg("scalar");
  if (!is_literal(scalar) && scalar->type && scalar->type->dtype != want)
    return cx.fail("scalar", "'scalar' must have dtype " + dtype_str(want) + " for a 'src' of " +
                                 dtype_str(sd) + ", got " + dtype_str(scalar->type->dtype));
  const std::vector<Expr>& sv = s->valid_shape.empty() ? s->shape : s->valid_shape;
  const std::vector<Expr>& mv = m->valid_shape.empty() ? m->shape : m->valid_shape;
  auto rows = as_const_int(sv[0]), cols = as_const_int(sv[1]);
  auto mrows = as_const_int(mv[0]), mcols = as_const_int(mv[1]);
  if ((rows && mrows && *mrows < *rows) || (cols && mcols && *mcols * dtype_bytes(md) * 8 < *cols))
    return cx.fail("mask", "'mask' valid_shape " + shape_str(mv) + " of " + dtype_str(md) +
                               " must cover 'src' valid_shape " + shape_str(sv) +
                               ": a row for each row and ceil(columns / 8) bytes per row");
  return cx.arg("src")->type;
}

}  // namespace ptodist::ir
