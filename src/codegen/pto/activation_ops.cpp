// PTO of pl.tile.lrelu (pto.tlrelu), pl.tile.prelu (pto.tprelu) and pl.tile.sels (pto.tsels) for a2a3,
// as PyPTO's backend writes them (src/backend/common/pto_ops_elementwise.cpp): ins(operands, scalar)
// outs(result), with that backend's a2a3 checks on prelu's scratch and sels's dtypes.
#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

namespace {

std::optional<long long> const_dim(const std::vector<Expr>& dims, size_t i) {
  return i < dims.size() ? as_const_int(dims[i]) : std::nullopt;
}

const std::vector<Expr>& valid_or_shape(const Type& t) {
  return t->valid_shape.empty() ? t->shape : t->valid_shape;
}

}  // namespace

bool FunctionEmitter::emit_activation_op(const CallSite& site) {
  const OpCall& c = site.call;
  switch (c.op->id) {
    case OpId::Lrelu: {
      // The slope is an f32 operand whatever the tile's dtype (PyPTO passes a constant slope as FP32).
      const TileRef* a = tile_of(c.arg("tile"), c, "tile");
      const TileRef* out = result_tile(site);
      if (!a || !out) return true;
      Value s = emit_scalar_as(c.arg("slope"), "f32");
      if (s.valid()) line("pto.tlrelu " + ins_outs({a}, s.ssa, "f32", *out));
      return true;
    }
    case OpId::Prelu: {
      const TileRef* a = tile_of(c.arg("tile"), c, "tile");
      const TileRef* k = tile_of(c.arg("slope"), c, "slope");
      const TileRef* tmp = tile_of(c.arg("tmp"), c, "tmp");
      const TileRef* out = result_tile(site);
      if (!a || !k || !tmp || !out) return true;
      // TPRELU on a2a3 packs the sign bits in a UINT8 scratch of (valid rows + 1) rows and
      // ceil(valid columns / 8) valid bytes per row.
      const Type& tt = tmp->ir_type;
      const std::vector<Expr>& sv = valid_or_shape(a->ir_type);
      auto rows = const_dim(sv, 0), cols = const_dim(sv, 1);
      auto trows = const_dim(tt->shape, 0), tcols = const_dim(valid_or_shape(tt), 1);
      if (tt->dtype != DType::UINT8) {
        fail(c.span, c.op->spelling +
                         ": 'tmp' must be a pl.UINT8 tile on a2a3 (TPRELU's sign-bit scratch), got " +
                         std::string(dtype_name(tt->dtype)));
        return true;
      }
      if ((rows && trows && *trows < *rows + 1) || (cols && tcols && *tcols < (*cols + 7) / 8)) {
        fail(c.span, c.op->spelling + ": 'tmp' " + type_str(tt) +
                         " is too small for TPRELU on a2a3: it needs at least valid rows + 1 rows and "
                         "ceil(valid columns / 8) valid columns");
        return true;
      }
      line("pto.tprelu " + ins_outs({a, k, tmp}, "", "", *out));
      return true;
    }
    case OpId::Sels: {
      const TileRef* m = tile_of(c.arg("mask"), c, "mask");
      const TileRef* a = tile_of(c.arg("src"), c, "src");
      const TileRef* tmp = tile_of(c.arg("tmp"), c, "tmp");
      const TileRef* out = result_tile(site);
      if (!m || !a || !tmp || !out) return true;
      DType sd = a->ir_type->dtype;
      if (sd == DType::INT8 || sd == DType::UINT8) {
        fail(c.span, c.op->spelling + ": a 'src' of " + std::string(dtype_name(sd)) +
                         " has no pto.tsels form on a2a3 (16/32-bit integers, FP16 and FP32 have)");
        return true;
      }
      // An unsigned src takes its scalar as the same-width signed integer (PyPTO retypes it so).
      DType as = sd == DType::UINT16 ? DType::INT16 : sd == DType::UINT32 ? DType::INT32 : sd;
      std::string ty = value_type(as);
      Value s = emit_scalar_as(c.arg("scalar"), ty);
      if (s.valid()) line("pto.tsels " + ins_outs({m, a, tmp}, s.ssa, ty, *out));
      return true;
    }
    default:
      return false;
  }
}

}  // namespace ptodist::codegen::pto
