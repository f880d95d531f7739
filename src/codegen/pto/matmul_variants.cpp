// PTO of the matmul variants beyond pl.matmul / pl.matmul_acc (compute_ops.cpp).
// - pl.matmul_bias (PyPTO's tile.matmul_bias): `pto.tmatmul.bias ins(%lhs, %rhs, %bias) outs(%acc)`, as
//   PyPTO's backend writes it (src/backend/common/pto_ops_elementwise.cpp, three inputs). The cube reads
//   its operands from L0A, L0B and the bias table; PyPTO moves Mat operands there itself
//   (AutoTileMatmulL0), which ptodist does not do yet, so an operand still in Mat is a located error
//   naming the pl.move that places it.
// - pl.gemv / pl.gemv_bias / pl.gemv_acc (PyPTO's tile.gemv family): `pto.tgemv ins(%lhs, %rhs)`,
//   `pto.tgemv.bias ins(%lhs, %rhs, %bias)`, `pto.tgemv.acc ins(%acc, %lhs, %rhs)`, each `outs(%c)`,
//   with ` {accPhase = #pto<acc_phase P>}` after them for an acc_phase other than "unspecified" (PyPTO's
//   MakeGemvCodegenPTO and GemvAccPhaseAttr); operands placed as pl.matmul_bias's.
// - pl.batch_matmul (PyPTO's tile.batch_matmul): PyPTO has no PTO form of it (FlattenTileNdTo2D unrolls
//   it into per-batch tile.matmul first), nor does ptodist yet: a located error.
#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

bool FunctionEmitter::emit_matmul_variant_op(const CallSite& site) {
  const OpCall& c = site.call;
  if (c.op->id == OpId::BatchMatmul) {
    fail(c.span, c.op->spelling +
                     ": has no PTO lowering yet (PyPTO's FlattenTileNdTo2D unrolls it into one 2-D "
                     "pl.tile.matmul per batch index); write those matmuls on 2-D tiles");
    return true;
  }
  struct Slot {
    const char* name;
    Memory home;
  };
  std::vector<Slot> slots;
  std::string op;
  switch (c.op->id) {
    case OpId::MatmulBias:
      op = "pto.tmatmul.bias";
      slots = {{"lhs", Memory::Left}, {"rhs", Memory::Right}, {"bias", Memory::Bias}};
      break;
    case OpId::Gemv:
      op = "pto.tgemv";
      slots = {{"lhs", Memory::Left}, {"rhs", Memory::Right}};
      break;
    case OpId::GemvBias:
      op = "pto.tgemv.bias";
      slots = {{"lhs", Memory::Left}, {"rhs", Memory::Right}, {"bias", Memory::Bias}};
      break;
    case OpId::GemvAcc:
      op = "pto.tgemv.acc";
      slots = {{"acc", Memory::Acc}, {"lhs", Memory::Left}, {"rhs", Memory::Right}};
      break;
    default:
      return false;
  }
  std::vector<const TileRef*> ins;
  for (Slot s : slots) {
    const Expr& e = c.arg(s.name);
    if (e && e->type && e->type->kind == TypeKind::Tile && e->type->memory != s.home) {
      std::string home(memory_name(s.home));
      fail(e->span.valid() ? e->span : c.span,
           c.op->spelling + ": '" + s.name + "' in pl.Mem." + std::string(memory_name(e->type->memory)) +
               " has no PTO lowering yet (PyPTO's AutoTileMatmulL0 moves it); move it first with pl.move(" +
               s.name + ", target_memory=pl.Mem." + home + ")");
      return true;
    }
    const TileRef* t = tile_of(e, c, s.name);
    if (!t) return true;
    ins.push_back(t);
  }
  // The contract admitted only PyPTO's three phase names; "unspecified" is the attribute-free form.
  std::string phase;
  const Expr& p = c.arg("acc_phase");  // none for pl.matmul_bias
  const auto* named = p ? p->as<StrImm>() : nullptr;
  if (named && named->value != "unspecified") phase = " {accPhase = #pto<acc_phase " + named->value + ">}";
  const TileRef* out = result_tile(site);
  if (out) line(op + " " + ins_outs(ins, "", "", *out) + phase);
  return true;
}

}  // namespace ptodist::codegen::pto
