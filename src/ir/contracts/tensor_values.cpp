// Contracts of the ops that treat GM tensors as values (pl.slice, pl.assemble, pl.reshape,
// pl.tensor.dim, pl.create_tensor) and of the on-core scalar arrays (pl.array.*).
#include "common.h"
#include "ptodist/ir/scalar_eval.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// A tensor of `like`'s kind (a slice or reshape of a window is still window-backed) with new dims.
Type tensor_like(const TypeNode* like, std::vector<Expr> shape) {
  return like->kind == TypeKind::DistTensor ? dist_tensor_type(std::move(shape), like->dtype)
                                            : tensor_type(std::move(shape), like->dtype);
}

std::optional<long long> const_numel(const std::vector<Expr>& shape) {
  auto dims = const_values(shape);
  if (!dims) return std::nullopt;
  long long n = 1;
  for (long long d : *dims) n *= d;
  return n;
}

// pl.tile.X takes a tile in `operand`, pl.tensor.X a tensor (the unified pl.X either).
bool check_spelled_kind(const ContractContext& cx, std::string_view operand, const TypeNode* t) {
  Namespace ns = spelled_in(cx);
  if (ns == Namespace::Unified || !t) return true;
  bool tile = t->kind == TypeKind::Tile;
  if (tile == (ns == Namespace::Tile)) return true;
  cx.fail(operand, quoted(operand) + " must be a " + (ns == Namespace::Tile ? "tile" : "tensor") + ", got " +
                       describe(cx.arg(operand)));
  return false;
}

// The `shape` and `offset` lists of a slice of `t`, checked, and the keywords ptodist does not take
// yet left at their defaults (`clamp_what`: what clamp=True would give); null offset after reporting.
struct SliceRegion {
  const std::vector<Expr>* shape = nullptr;
  const std::vector<Expr>* offset = nullptr;
};
SliceRegion slice_region(const ContractContext& cx, const TypeNode* t, const char* clamp_what) {
  int rank = static_cast<int>(t->shape.size());
  const std::vector<Expr>* shape = need_int_list(cx, "shape", rank, "input");
  if (!shape || !check_positive_dims(cx, "shape", *shape)) return {};
  const std::vector<Expr>* offset = need_int_list(cx, "offset", rank, "input");
  if (!offset) return {};
  if (!need_default(cx, "drop_dims", "rank reduction") || !need_default(cx, "pad_value", "padding") ||
      !need_default(cx, "clamp", clamp_what))
    return {};
  return {shape, offset};
}

}  // namespace

// PyPTO's tile.slice: the region `offset`/`shape` of a tile as a new tile of `shape` in its memory,
// partially valid with valid_shape (`t[0:2, :]` of a tile in a kernel).
Type tile_slice(const ContractContext& cx, const TypeNode* t) {
  auto [shape, offset] = slice_region(cx, t, "a window past the tile's edge");
  if (!offset) return nullptr;
  const std::vector<Expr>* valid = shape;
  if (!omitted(cx, "valid_shape") && !(valid = need_valid_shape(cx, *shape, "input"))) return nullptr;
  if (!check_in_bounds(cx, "shape", *offset, *shape, t->shape, "input")) return nullptr;
  auto out = std::make_shared<TypeNode>(*tile_type(*shape, t->dtype, t->memory));
  if (valid != shape) out->valid_shape = *valid;
  return out;
}

// A view of the region `offset`/`shape` of a GM tensor: no data moves (PyPTO's tensor.slice). Of a
// tile, tile_slice.
Type check_Slice(const ContractContext& cx) {
  const TypeNode* t = type_of(cx, "input");
  if (!check_spelled_kind(cx, "input", t)) return nullptr;
  if (t && t->kind == TypeKind::Tile) return tile_slice(cx, t);
  if (!(t = need_tensor_like(cx, "input"))) return nullptr;
  auto [shape, offset] = slice_region(cx, t, "a window past the tensor's edge");
  if (!offset) return nullptr;
  // valid_shape: only that corner of the window is data (PyPTO's slice of a token tail); the slice is
  // then a partially valid tile load (convert-tensor-to-tile), which reads only the valid region.
  const std::vector<Expr>* valid = shape;
  if (!omitted(cx, "valid_shape") && !is_kernel(cx.scope.function_kind))
    return cx.fail("valid_shape",
                   "'valid_shape' is supported in kernels only, where the slice becomes a partially "
                   "valid tile load; outside one the view would read the whole window");
  if (!omitted(cx, "valid_shape") && !(valid = need_valid_shape(cx, *shape, "input"))) return nullptr;
  if (!check_in_bounds(cx, valid == shape ? "shape" : "valid_shape", *offset, *valid, t->shape, "input"))
    return nullptr;
  Type out = tensor_like(t, *shape);
  if (valid == shape) return out;
  auto partial = std::make_shared<TypeNode>(*out);
  partial->valid_shape = *valid;
  return partial;
}

// PyPTO's tile.assemble: the valid region of tile `source` written into tile `target` at `offset`
// (`t[0:1, :] = row` in a kernel); the result is the target, in its own buffer (plan-memory).
Type tile_assemble(const ContractContext& cx, const TypeNode* target) {
  const TypeNode* source = type_of(cx, "source");
  if (!source || source->kind != TypeKind::Tile)
    return cx.fail("source", "'source' of an assemble into a tile must be a tile, got " +
                                 describe(cx.arg("source")) + "; load it with pl.load first");
  if (source->memory != target->memory)
    return cx.fail("source", "'source' must be in the target's memory (" + type_str(cx.arg("target")->type) +
                                 "), got " + type_str(cx.arg("source")->type) + "; use pl.move first");
  if (source->dtype != target->dtype)
    return cx.fail("source", "'source' dtype " + dtype_str(source->dtype) + " must match 'target' dtype " +
                                 dtype_str(target->dtype) + "; use pl.cast first");
  int rank = static_cast<int>(target->shape.size());
  if (static_cast<int>(source->shape.size()) != rank)
    return cx.fail("source", "'source' rank " + std::to_string(source->shape.size()) +
                                 " must match 'target' rank " + std::to_string(rank));
  const std::vector<Expr>* offset = need_int_list(cx, "offset", rank, "target");
  if (!offset) return nullptr;
  auto atomic = cx.arg("atomic") ? cx.arg("atomic")->as<EnumImm>() : nullptr;
  if (atomic && atomic->value != "None_")
    return cx.fail("atomic", "atomic=pl.AtomicType.Add needs a GM target; this assemble writes a tile");
  const std::vector<Expr>& extent = source->valid_shape.empty() ? source->shape : source->valid_shape;
  if (!check_in_bounds(cx, "source", *offset, extent, target->shape, "target")) return nullptr;
  return cx.arg("target")->type;
}

// Writes `source` (a tensor, or in a kernel a computed tile) into `target` at `offset`; returns the
// target, as PyPTO's assemble does. Into a tile target, tile_assemble.
Type check_Assemble(const ContractContext& cx) {
  const TypeNode* target = type_of(cx, "target");
  if (!check_spelled_kind(cx, "target", target)) return nullptr;
  if (target && target->kind == TypeKind::Tile) return tile_assemble(cx, target);
  if (!(target = need_tensor_like(cx, "target"))) return nullptr;
  const TypeNode* source = type_of(cx, "source");
  if (!source || (source->kind != TypeKind::Tile && !source->is_tensor_like()))
    return cx.fail("source", "'source' must be a tensor or a tile, got " + describe(cx.arg("source")));
  if (source->kind == TypeKind::Tile && source->memory != Memory::Vec && source->memory != Memory::Acc)
    return cx.fail("source", "'source' tile must be in pl.Mem.Vec or pl.Mem.Acc to be written to GM, got " +
                                 type_str(cx.arg("source")->type));
  if (!is_kernel(cx.scope.function_kind) && source->kind == TypeKind::Tile)
    return cx.fail("source", "'source' may be a tile only in a kernel");
  int rank = static_cast<int>(target->shape.size());
  const std::vector<Expr>* offset = need_int_list(cx, "offset", rank, "target");
  if (!offset) return nullptr;
  if (source->dtype != target->dtype)
    return cx.fail("source", "'source' dtype " + dtype_str(source->dtype) + " must match 'target' dtype " +
                                 dtype_str(target->dtype) + "; use pl.cast first");
  // A source of lower rank is written as if it had leading dims of 1 (PyPTO's reinterpreting write of a
  // 2-D source into a 3-D parent, tensor_ops/memory.cpp).
  if (static_cast<int>(source->shape.size()) > rank)
    return cx.fail("source", "'source' rank " + std::to_string(source->shape.size()) +
                                 " must not exceed 'target' rank " + std::to_string(rank));
  if (!check_atomic(cx, source->dtype)) return nullptr;
  auto atomic = cx.arg("atomic") ? cx.arg("atomic")->as<EnumImm>() : nullptr;
  if (atomic && atomic->value == "Add" && source->kind != TypeKind::Tile)
    return cx.fail("atomic",
                   "atomic=pl.AtomicType.Add needs a computed tile as 'source' (it lowers to an "
                   "atomic-add store); a tensor-to-tensor assemble has no store to carry it");
  std::vector<Expr> extent = source->valid_shape.empty() ? source->shape : source->valid_shape;
  extent.insert(extent.begin(), rank - extent.size(), literal_expr(ScalarValue::of_int(1), SourceSpan{}));
  if (!check_in_bounds(cx, "source", *offset, extent, target->shape, "target")) return nullptr;
  return cx.arg("target")->type;
}

// The same elements under another shape: a tile (same element count), or a view of a tensor.
Type check_Reshape(const ContractContext& cx) {
  const TypeNode* t = type_of(cx, "input");
  if (!t || (t->kind != TypeKind::Tile && !t->is_tensor_like()))
    return cx.fail("input", "'input' must be a tile or a tensor, got " + describe(cx.arg("input")));
  bool tile_only = spelled_in(cx) == Namespace::Tile, tensor_only = spelled_in(cx) == Namespace::Tensor;
  if ((tile_only && t->kind != TypeKind::Tile) || (tensor_only && t->kind == TypeKind::Tile))
    return cx.fail("input", std::string("'input' must be a ") + (tile_only ? "tile" : "tensor") + ", got " +
                                describe(cx.arg("input")));
  const std::vector<Expr>* shape = need_int_list(cx, "shape", -1, "");
  if (!shape || !check_positive_dims(cx, "shape", *shape)) return nullptr;
  if (shape->empty()) return cx.fail("shape", "'shape' must have at least one dim");
  auto from = const_numel(t->shape), to = const_numel(*shape);
  if (from && to && *from != *to)
    return cx.fail("shape", "'shape' " + shape_str(*shape) + " holds " + std::to_string(*to) +
                                " elements, 'input' " + shape_str(t->shape) + " holds " +
                                std::to_string(*from));
  if (t->kind == TypeKind::Tile) {
    if (!t->valid_shape.empty())
      return cx.fail("input", "reshaping a partially valid tile is not supported by ptodist yet");
    return tile_type(*shape, t->dtype, t->memory);
  }
  return tensor_like(t, *shape);
}

Type check_TensorDim(const ContractContext& cx) {
  const TypeNode* t = need_tensor_like(cx, "tensor");
  if (!t) return nullptr;
  auto axis = as_const_int(cx.arg("axis"));
  long long rank = static_cast<long long>(t->shape.size());
  if (!axis) return cx.fail("axis", "'axis' must be a constant integer, got " + describe(cx.arg("axis")));
  if (*axis < -rank || *axis >= rank)
    return cx.fail("axis", "'axis' " + std::to_string(*axis) + " is out of range for a tensor of rank " +
                               std::to_string(rank));
  return scalar_type(DType::INT64);
}

// A new GM tensor, zeroed (or filled with init_value), owned by the function that creates it.
Type check_CreateTensor(const ContractContext& cx) {
  const std::vector<Expr>* shape = need_int_list(cx, "shape", -1, "");
  if (!shape || !check_positive_dims(cx, "shape", *shape)) return nullptr;
  if (shape->empty()) return cx.fail("shape", "'shape' must have at least one dim");
  auto dt = need_dtype(cx, "dtype");
  if (!dt) return nullptr;
  if (!need_default(cx, "layout", "a tensor layout other than ND")) return nullptr;
  Expr md = cx.arg("manual_dep");
  if (md && !md->isa<BoolImm>() && !md->isa<NoneImm>())
    return cx.fail("manual_dep", "'manual_dep' must be True or False, got " + describe(md));
  if (!omitted(cx, "init_value") && !need_scalar(cx, "init_value")) return nullptr;
  return tensor_type(*shape, *dt);
}

// An integer or BOOL array is a kernel's on-core scalar array; a TASK_ID array (PyPTO's per-slot
// dependency carrier) holds task ids in an orchestration function, every slot the invalid task id until
// written.
Type check_ArrayCreate(const ContractContext& cx) {
  // A module or factory constant folds only in specialize; a run-time extent is checked when it runs.
  if (!need_int_scalar(cx, "extent")) return nullptr;
  if (auto extent = as_const_int(cx.arg("extent")); extent && *extent <= 0)
    return cx.fail("extent", "'extent' must be positive, got " + std::to_string(*extent));
  const auto* task_ids = cx.arg("dtype") ? cx.arg("dtype")->as<DTypeImm>() : nullptr;
  const bool in_kernel = is_kernel(cx.scope.function_kind);
  if (task_ids && task_ids->value == DType::TASK_ID) {
    if (in_kernel)
      return cx.fail("dtype",
                     "an array of pl.TASK_ID holds task ids, which only an orchestration function has");
    return array_type(cx.arg("extent"), DType::TASK_ID);
  }
  auto dt = need_dtype(cx, "dtype");
  if (!dt) return nullptr;
  if (!dtype_is_int(*dt) && *dt != DType::BOOL)
    return cx.fail(
        "dtype",
        "'dtype' must be an integer dtype, pl.BOOL or pl.TASK_ID (arrays hold indices, counts and task "
        "ids), got " +
            dtype_str(*dt));
  if (!in_kernel)
    return cx.fail("dtype",
                   "an array of " + dtype_str(*dt) +
                       " is a kernel's on-core array; outside a kernel only pl.TASK_ID arrays exist");
  return array_type(cx.arg("extent"), *dt);
}

namespace {

// The array operand and a constant index inside it.
const TypeNode* need_array_index(const ContractContext& cx) {
  const TypeNode* a = need_kind(cx, "array", TypeKind::Array, "a pl.Array from pl.array.create");
  if (!a || !need_int_scalar(cx, "index")) return nullptr;
  auto i = as_const_int(cx.arg("index"));
  auto n = a->shape.empty() ? std::nullopt : as_const_int(a->shape[0]);
  if (i && n && (*i < 0 || *i >= *n)) {
    cx.fail("index",
            "'index' " + std::to_string(*i) + " is outside the array of " + std::to_string(*n) + " elements");
    return nullptr;
  }
  return a;
}

}  // namespace

Type check_ArrayGetElement(const ContractContext& cx) {
  const TypeNode* a = need_array_index(cx);
  if (!a) return nullptr;
  return a->dtype == DType::TASK_ID ? simple_type(TypeKind::TaskId) : scalar_type(a->dtype);
}

Type check_ArrayUpdateElement(const ContractContext& cx) {
  const TypeNode* a = need_array_index(cx);
  if (!a) return nullptr;
  const TypeNode* v = type_of(cx, "value");
  if (a->dtype == DType::TASK_ID) {
    if (!v || v->kind != TypeKind::TaskId)
      return cx.fail("value", "'value' must be a pl.TaskId (an array of pl.TASK_ID holds task ids), got " +
                                  describe(cx.arg("value")));
  } else if (!v || v->kind != TypeKind::Scalar || dtype_is_float(v->dtype)) {
    return cx.fail("value", "'value' must be an integer scalar, got " + describe(cx.arg("value")));
  }
  return cx.arg("array")->type;
}

}  // namespace ptodist::ir
