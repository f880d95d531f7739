// Single elements in PTO text: scalar loads and stores of a tensor element (pto.load_scalar /
// pto.store_scalar at a row-major index) and of a tile element (pto.tgetval / pto.tsetval), for
// pl.read / pl.write and pl.tile.read / pl.tile.write.
#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

// The element index of `offsets` in a row-major tensor, for scalar loads and stores.
Value FunctionEmitter::linear_index(const TensorRef& t, const Expr& offsets, const OpCall& call) {
  std::vector<Value> offs = region_offsets(offsets, t, call);
  if (failed_) return {};
  Value acc = constant_int(0, "index");
  for (size_t i = 0; i < offs.size(); ++i) {
    if (!offs[i].valid()) continue;
    std::string term = fresh(t.name + "_term"), sum = fresh(t.name + "_idx");
    line(term + " = arith.muli " + offs[i].ssa + ", " + t.strides[i] + " : index");
    line(sum + " = arith.addi " + acc.ssa + ", " + term + " : index");
    acc = {sum, "index"};
  }
  return acc;
}

void FunctionEmitter::emit_write(const CallSite& site) {
  const OpCall& c = site.call;
  const TensorRef* t = tensor_of(c.arg("dst"), c, "dst");
  if (!t) return;
  Value idx = linear_index(*t, c.arg("offset"), c);
  std::string ty = element_type(t->type->dtype);
  Value v = emit_scalar_as(c.arg("value"), value_type(t->type->dtype));
  if (!idx.valid() || !v.valid()) return;
  line("pto.store_scalar " + v.ssa + ", " + t->ptr + "[" + idx.ssa + "] : !pto.ptr<" + ty + ">, " + v.type);
  if (Var r = site.result()) tensors_[r->id] = *t;  // `t = pl.write(t, offs, v)` rebinds the same tensor
}

// The element index of `indices` in a tile (row-major over its static shape), as PyPTO's
// GetFlatOffsetSSA computes it for pto.tgetval / pto.tsetval.
Value FunctionEmitter::tile_index(const TileRef& t, const OpCall& call) {
  const std::vector<Expr>* idx = as_list(call.arg("indices"));
  std::vector<long long> dims = dims_of(t.ir_type);
  if (!idx || idx->size() != dims.size()) {
    fail(call.span, call.op->spelling + ": 'indices' must be one index per dim of the tile");
    return {};
  }
  Value acc = constant_int(0, "index");
  long long stride = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    Value v = emit_scalar_as((*idx)[i], "index");
    if (!v.valid()) return {};
    std::string term = fresh("elem_term"), sum = fresh("elem_idx");
    line(term + " = arith.muli " + v.ssa + ", " + constant_int(stride, "index").ssa + " : index");
    line(sum + " = arith.addi " + acc.ssa + ", " + term + " : index");
    acc = {sum, "index"};
    stride *= dims[i];
  }
  return acc;
}

// PyPTO's MakeTileWriteCodegenPTO: pto.tsetval ins(offset, value) outs(tile), in place.
void FunctionEmitter::emit_tile_write(const CallSite& site) {
  const OpCall& c = site.call;
  const TileRef* t = tile_of(c.arg("tile"), c, "tile");
  if (!t) return;
  Value off = tile_index(*t, c);
  Value v = emit_scalar_as(c.arg("value"), value_type(t->ir_type->dtype));
  if (!off.valid() || !v.valid()) return;
  line("pto.tsetval ins(" + off.ssa + ", " + v.ssa + " : index, " + v.type + ") outs(" + t->ssa + " : " +
       t->type + ")");
}

// PyPTO's MakeTileReadCodegenPTO: %v = pto.tgetval ins(tile, offset) outs : element type.
Value FunctionEmitter::emit_tile_read(const OpCall& c) {
  const TileRef* t = tile_of(c.arg("tile"), c, "tile");
  if (!t) return {};
  Value off = tile_index(*t, c);
  if (!off.valid()) return {};
  std::string ty = element_type(t->ir_type->dtype);
  Value v{fresh(take_hint("elem")), ty};
  line(v.ssa + " = pto.tgetval ins(" + t->ssa + ", " + off.ssa + " : " + t->type + ", index) outs : " + ty);
  return coerce(v, value_type(t->ir_type->dtype));
}

Value FunctionEmitter::emit_read(const OpCall& c) {
  const TensorRef* t = tensor_of(c.arg("src"), c, "src");
  if (!t) return {};
  Value idx = linear_index(*t, c.arg("offset"), c);
  if (!idx.valid()) return {};
  std::string ty = element_type(t->type->dtype);
  Value v{fresh(t->name + "_val"), ty};
  line(v.ssa + " = pto.load_scalar " + t->ptr + "[" + idx.ssa + "] : !pto.ptr<" + ty + "> -> " + ty);
  return coerce(v, value_type(t->type->dtype));
}

}  // namespace ptodist::codegen::pto
