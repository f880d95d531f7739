// GM tensors as values in a kernel: pl.slice is a sub-view (the parent's pointer advanced to the slice's
// first element, with the parent's strides) and pl.assemble of a computed tile is a store at an offset
// (into a tile target, tile_regions.cpp).
// PyPTO reaches the same PTO through its tensor-to-tile conversion (a slice that is loaded becomes a
// load of that region, an assemble of a tile a store); here the view is made once and every pl.load /
// pl.store of the slice partitions it as it would a parameter's view.
#include <optional>

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
  if (c.op->id == OpId::Slice) {
    emit_tile_slice(site);
    return true;
  }
  if (c.op->id == OpId::Assemble) {
    emit_assemble(site);
    return true;
  }
  if (c.op->id == OpId::Reshape && c.type && c.type->is_tensor_like()) {
    emit_tensor_reshape(site);
    return true;
  }
  if (c.op->id == OpId::Transpose && c.type && c.type->is_tensor_like()) {
    emit_tensor_transpose(site);
    return true;
  }
  return false;
}

// `s = pl.slice(t, shape, offset)`: pto.addptr by the element offset sum(offset[i] * stride[i]), then a
// tensor view of `shape` with t's strides. The contract has already rejected the optional slots.
void FunctionEmitter::emit_slice(const CallSite& site) {
  Var r = site.result();
  if (!r) return;  // an unused view emits nothing
  if (std::optional<TensorRef> s = slice_view(site.call, r->name)) tensors_[r->id] = std::move(*s);
}

// Whether the region `shape` of a row-major tensor of `dims` is one contiguous run of elements: every dim
// after the first one of more than one element is whole (a row block, a part of one row).
static bool contiguous_region(const std::vector<long long>& shape, const std::vector<long long>& dims) {
  size_t i = 0;
  while (i < shape.size() && shape[i] == 1) ++i;
  for (++i; i < shape.size(); ++i)
    if (shape[i] < 0 || shape[i] != dims[i]) return false;
  return true;
}

std::optional<TensorRef> FunctionEmitter::slice_view(const OpCall& c, const std::string& name) {
  const TensorRef* t = tensor_of(c.arg("input"), c, "input");
  if (!t) return std::nullopt;
  if (t->dn) {
    fail(c.span, c.op->spelling +
                     ": slicing a transposed GM tensor has no PTO lowering yet; slice first, "
                     "then transpose");
    return std::nullopt;
  }
  std::vector<Value> offs = region_offsets(c.arg("offset"), *t, c);
  if (failed_) return std::nullopt;
  Value elems = constant_int(0, "index");
  for (size_t i = 0; i < offs.size(); ++i) {
    if (!offs[i].valid() || offs[i].ssa == constant_int(0, "index").ssa) continue;
    std::string term = fresh(name + "_off");
    line(term + " = arith.muli " + offs[i].ssa + ", " + t->strides[i] + " : index");
    if (elems.ssa != constant_int(0, "index").ssa) {
      std::string sum = fresh(name + "_off");
      line(sum + " = arith.addi " + elems.ssa + ", " + term + " : index");
      term = sum;
    }
    elems = {term, "index"};
  }
  std::string ptr_type = "!pto.ptr<" + element_type(t->type->dtype) + ">";
  TensorRef s = *t;
  s.name = name;
  s.type = c.type;
  s.ptr = fresh(name + "_ptr");
  line(s.ptr + " = pto.addptr " + t->ptr + ", " + elems.ssa + " : " + ptr_type + " -> " + ptr_type);
  s.dims.clear();
  for (const Expr& d : c.type->shape) s.dims.push_back(emit_scalar_as(d, "index").ssa);
  if (failed_) return std::nullopt;
  s.dense = t->dense && contiguous_region(dims_of(c.type), dims_of(t->type));
  s.view = {fresh(name + "_view"), tensor_view_type(c.type)};
  line(s.view.ssa + " = pto.make_tensor_view " + s.ptr + ", shape = [" + join_ssa(s.dims) + "], strides = [" +
       join_ssa(s.strides) + "] {layout = #pto.layout<nd>} : " + s.view.type);
  return s;
}

// `t = pl.assemble(t, tile, offset)` is `pl.store(tile, offset, t)`. A tensor source is a GM-to-GM copy,
// which needs a staging tile the program does not name: not lowered yet.
void FunctionEmitter::emit_assemble(const CallSite& site) {
  const OpCall& c = site.call;
  const Expr& source = c.arg("source");
  if (c.type && c.type->kind == TypeKind::Tile) {
    emit_tile_assemble(site);
    return;
  }
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

// `v = pl.reshape(t, shape)` of a GM tensor: the same elements under another shape, a view of t's
// pointer with row-major strides (the runtime's in-place reshape; PyPTO loads the tensor and reshapes
// the tile, which reads the same elements). Only a contiguous tensor has such a view: a whole tensor, or a
// slice of one that is a run of elements (`pl.reshape(w[n0:n0 + N], [1, N])`), given by name or inline.
void FunctionEmitter::emit_tensor_reshape(const CallSite& site) {
  const OpCall& c = site.call;
  Var r = site.result();
  if (!r) return;
  const Expr& input = c.arg("input");
  const auto* nested = input->as<OpCall>();
  std::optional<TensorRef> slice;
  if (nested && nested->op->id == OpId::Slice && nested->type && nested->type->is_tensor_like())
    slice = slice_view(*nested, r->name + "_src");
  const TensorRef* t = slice ? &*slice : nested ? nullptr : tensor_of(input, c, "input");
  if (failed_) return;
  if (!t) {
    fail(input->span, c.op->spelling + ": input must be a tensor variable or a slice of one");
    return;
  }
  if (!t->dense) {
    fail(input->span,
         c.op->spelling + ": '" + t->name +
             "' is a slice whose elements are not one contiguous run (its rows are strided); PTO "
             "reshapes a whole tensor, a row block or a part of one row only (load the slice "
             "and reshape the tile)");
    return;
  }
  TensorRef v = *t;
  v.name = r->name;
  v.type = c.type;
  v.dims.clear();
  for (const Expr& d : c.type->shape) v.dims.push_back(emit_scalar_as(d, "index").ssa);
  // Row-major strides: constants while the inner dims are static, arith.muli from the first dynamic one.
  std::vector<long long> static_dims = dims_of(c.type);
  v.strides.assign(v.dims.size(), "");
  long long inner = 1;
  bool is_static = true;
  for (size_t i = v.dims.size(); i-- > 0;) {
    if (is_static) {
      v.strides[i] = constant_int(inner, "index").ssa;
    } else {
      v.strides[i] = fresh(r->name + "_stride");
      line(v.strides[i] + " = arith.muli " + v.strides[i + 1] + ", " + v.dims[i + 1] + " : index");
    }
    is_static = is_static && static_dims[i] >= 0;
    if (is_static) inner *= static_dims[i];
  }
  if (failed_) return;
  v.view = {fresh(r->name + "_view"), tensor_view_type(c.type)};
  line(v.view.ssa + " = pto.make_tensor_view " + v.ptr + ", shape = [" + join_ssa(v.dims) + "], strides = [" +
       join_ssa(v.strides) + "] {layout = #pto.layout<nd>} : " + v.view.type);
  tensors_[r->id] = std::move(v);
}

// `v = pl.transpose(t, 0, 1)` of a 2-D GM tensor: the same elements read across, a view with t's dims
// and strides swapped in PTO's DN layout. A pto.tload from it into a Mat tile of the ZN fractal layout
// moves DN to ZN, which is the transpose (PyPTO's transposed Mat operand, its gather_row transpose).
void FunctionEmitter::emit_tensor_transpose(const CallSite& site) {
  const OpCall& c = site.call;
  const TensorRef* t = tensor_of(c.arg("input"), c, "input");
  Var r = site.result();
  if (!t || !r) return;
  if (t->type->shape.size() != 2 || t->dn) {
    fail(c.span, c.op->spelling +
                     ": a transposed GM tensor has a PTO lowering as a DN view of a 2-D row-major tensor "
                     "only, got " +
                     type_str(t->type));
    return;
  }
  TensorRef v = *t;
  v.name = r->name;
  v.type = c.type;
  std::swap(v.dims[0], v.dims[1]);
  std::swap(v.strides[0], v.strides[1]);
  v.dense = false;
  v.dn = true;
  v.view = {fresh(r->name + "_view"), tensor_view_type(c.type)};
  line(v.view.ssa + " = pto.make_tensor_view " + v.ptr + ", shape = [" + join_ssa(v.dims) + "], strides = [" +
       join_ssa(v.strides) + "] {layout = #pto.layout<dn>} : " + v.view.type);
  tensors_[r->id] = std::move(v);
}

}  // namespace ptodist::codegen::pto
