// GM tensors as values in a kernel: pl.slice is a sub-view (the parent's pointer advanced to the slice's
// first element, with the parent's strides) and pl.assemble of a computed tile is a store at an offset.
// PyPTO reaches the same PTO through its tensor-to-tile conversion (a slice that is loaded becomes a
// load of that region, an assemble of a tile a store); here the view is made once and every pl.load /
// pl.store of the slice partitions it as it would a parameter's view.
#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

namespace {

std::string join_ssa(const std::vector<std::string>& xs) {
  std::string s;
  for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + xs[i];
  return s;
}

}  // namespace

bool FunctionEmitter::emit_tensor_view_op(const CallSite& site) {
  const OpCall& c = site.call;
  if (c.op->id == OpId::Slice && c.type && c.type->is_tensor_like()) {
    emit_slice(site);
    return true;
  }
  if (c.op->id == OpId::Assemble) {
    emit_assemble(site);
    return true;
  }
  return false;
}

// `s = pl.slice(t, shape, offset)`: pto.addptr by the element offset sum(offset[i] * stride[i]), then a
// tensor view of `shape` with t's strides. The contract has already rejected the optional slots.
void FunctionEmitter::emit_slice(const CallSite& site) {
  const OpCall& c = site.call;
  const TensorRef* t = tensor_of(c.arg("input"), c, "input");
  Var r = site.result();
  if (!t) return;
  if (!r) return;  // an unused view emits nothing
  std::vector<Value> offs = region_offsets(c.arg("offset"), *t, c);
  if (failed_) return;
  Value elems = constant_int(0, "index");
  for (size_t i = 0; i < offs.size(); ++i) {
    if (!offs[i].valid() || offs[i].ssa == constant_int(0, "index").ssa) continue;
    std::string term = fresh(r->name + "_off");
    line(term + " = arith.muli " + offs[i].ssa + ", " + t->strides[i] + " : index");
    if (elems.ssa != constant_int(0, "index").ssa) {
      std::string sum = fresh(r->name + "_off");
      line(sum + " = arith.addi " + elems.ssa + ", " + term + " : index");
      term = sum;
    }
    elems = {term, "index"};
  }
  std::string ptr_type = "!pto.ptr<" + element_type(t->type->dtype) + ">";
  TensorRef s = *t;
  s.name = r->name;
  s.type = c.type;
  s.ptr = fresh(r->name + "_ptr");
  line(s.ptr + " = pto.addptr " + t->ptr + ", " + elems.ssa + " : " + ptr_type + " -> " + ptr_type);
  s.dims.clear();
  for (const Expr& d : c.type->shape) s.dims.push_back(emit_scalar_as(d, "index").ssa);
  if (failed_) return;
  s.view = {fresh(r->name + "_view"), tensor_view_type(c.type)};
  line(s.view.ssa + " = pto.make_tensor_view " + s.ptr + ", shape = [" + join_ssa(s.dims) + "], strides = [" +
       join_ssa(s.strides) + "] {layout = #pto.layout<nd>} : " + s.view.type);
  tensors_[r->id] = std::move(s);
}

// `t = pl.assemble(t, tile, offset)` is `pl.store(tile, offset, t)`. A tensor source is a GM-to-GM copy,
// which needs a staging tile the program does not name: not lowered yet.
void FunctionEmitter::emit_assemble(const CallSite& site) {
  const OpCall& c = site.call;
  const Expr& source = c.arg("source");
  if (!source->type || source->type->kind != TypeKind::Tile) {
    fail(source->span, c.op->spelling +
                           ": assembling a GM tensor (not a tile) has no PTO lowering yet; load it "
                           "into a tile with pl.load and assemble or store the tile");
    return;
  }
  const TileRef* src = tile_of(source, c, "source");
  const TensorRef* t = tensor_of(c.arg("target"), c, "target");
  if (!src || !t) return;
  std::vector<Value> offs = region_offsets(c.arg("offset"), *t, c);
  RegionExtent extent = stored_region(*src, t->type->shape.size());
  if (failed_) return;
  Value pv = partition(t->view, t->type->dtype, offs, extent, t->name + "_pview");
  line("pto.tstore ins(" + src->ssa + " : " + src->type + ") outs(" + pv.ssa + " : " + pv.type + ")" +
       atomic_store_attr(c.arg("atomic")));
  if (Var r = site.result()) tensors_[r->id] = *t;
}

}  // namespace ptodist::codegen::pto
