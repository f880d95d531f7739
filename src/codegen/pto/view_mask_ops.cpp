// PTO of pl.tile.transpose_view (no data movement: an alloc_tile of the transposed layout at its
// source's address, or a pto.treshape), pl.tri (pto.ttri) and pl.fillpad_expand (pto.tfillpad_expand),
// as PyPTO's backend writes them (src/backend/common/pto_ops_{datamove,elementwise}.cpp).
#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

bool FunctionEmitter::emit_view_mask_op(const CallSite& site) {
  const OpCall& c = site.call;
  switch (c.op->id) {
    case OpId::TransposeView:
      emit_transpose_view(site);
      return true;
    case OpId::Tri: {
      // pto-isa's a2a3 TTRI has no 8-bit or BF16 form (PyPTO's MakeTriCodegenPTO rejects them there).
      DType t = c.type ? c.type->dtype : DType::INT32;
      if (t == DType::INT8 || t == DType::UINT8 || t == DType::BF16) {
        fail(c.span, c.op->spelling + ": dtype " + std::string(dtype_name(t)) +
                         " has no pto.ttri form on a2a3 (INT16, INT32, UINT16, UINT32, FP16 and FP32 have)");
        return true;
      }
      const TileRef* out = result_tile(site);
      Value diagonal = emit_scalar_as(c.arg("diagonal"), "i32");
      const auto* upper = c.arg("upper") ? c.arg("upper")->as<BoolImm>() : nullptr;
      if (out && diagonal.valid())
        line("\"pto.ttri\"(" + diagonal.ssa + ", " + out->ssa + ") {upperOrLower = " +
             (upper && upper->value ? "1" : "0") + " : i32} : (i32, " + out->type + ") -> ()");
      return true;
    }
    case OpId::FillPadExpand: {
      if (c.type && c.type->is_tensor_like()) {
        fail(c.span, c.op->spelling +
                         ": the tensor-level form (GM tensors in, a new tensor out) has no PTO lowering yet; "
                         "load the operand into a tile with pl.load and pad the tile");
        return true;
      }
      // The pad value and the larger extents ride on the result's tile_buf type (collect_tile_forms).
      const TileRef* src = tile_of(c.arg("value"), c, "value");
      const TileRef* out = result_tile(site);
      if (src && out) line("pto.tfillpad_expand " + ins_outs({src}, "", "", *out));
      return true;
    }
    default:
      return false;
  }
}

// Planned, the view is the alloc_tile of the transposed type at its source's address (plan-memory
// places it there): nothing to emit, as PyPTO's backend emits nothing when the result's own declaration
// carries the type. Unplanned, it is the source reinterpreted with pto.treshape.
void FunctionEmitter::emit_transpose_view(const CallSite& site) {
  const OpCall& c = site.call;
  Var r = site.result();
  if (r && tiles_.count(r->id)) return;
  const TileRef* src = tile_of(c.arg("tile"), c, "tile");
  if (!src) return;
  if (!r) {
    fail(c.span, c.op->spelling + ": its tile must be assigned to a variable");
    return;
  }
  TileRef view = tile_ref(r, -1);
  line(view.ssa + " = pto.treshape " + src->ssa + " : " + src->type + " -> " + view.type);
  tiles_[r->id] = view;
}

}  // namespace ptodist::codegen::pto
