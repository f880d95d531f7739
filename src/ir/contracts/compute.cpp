// Contracts of the compute ops (pl.): elementwise, cast, move, tile creation, reductions (matmul:
// matmul.cpp).
#include <algorithm>
#include <tuple>

#include "common.h"
#include "ptodist/ir/cast_mode.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// A Vec tile operand, or with `mixed` (tile_with_tensor) the tensor a Vec tile will be loaded from.
const TypeNode* vec_operand(const ContractContext& cx, std::string_view name, bool mixed) {
  const TypeNode* t = type_of(cx, name);
  if (mixed && t && t->is_tensor_like()) return t;
  return need_tile_in(cx, name, Memory::Vec, "use pl.move(x, target_memory=pl.Mem.Vec)");
}

const TypeNode* need_2d(const ContractContext& cx, std::string_view name, const TypeNode* t) {
  if (!t || t->shape.size() == 2) return t;
  cx.fail(name, quoted(name) + " must be a 2-D tile, got " + type_str(cx.arg(name)->type));
  return nullptr;
}

// Two GM tensors of the same shape and dtype: the tensor-level form of an elementwise op, whose result
// is a new tensor of that shape (pl.tensor.add, or pl.add on tensors).
Type tensor_elementwise(const ContractContext& cx) {
  const TypeNode* l = need_tensor_like(cx, "lhs");
  if (!l) return nullptr;
  const TypeNode* r = need_tensor_like(cx, "rhs");
  if (!r) return nullptr;
  if (l->dtype != r->dtype)
    return cx.fail("rhs", "'rhs' dtype " + dtype_str(r->dtype) + " must match 'lhs' dtype " +
                              dtype_str(l->dtype) + "; use pl.cast");
  if (shapes_differ(l->shape, r->shape))
    return cx.fail("rhs",
                   "'rhs' shape " + shape_str(r->shape) + " must match 'lhs' shape " + shape_str(l->shape));
  return tensor_keeping_valid(l->shape, l->dtype, common_valid(l, r));
}

// Two tiles of the same shape, dtype and memory (Vec: the vector unit computes elementwise ops), or,
// spelled pl.X or pl.tensor.X, two GM tensors.
Type elementwise(const ContractContext& cx) {
  bool mixed = tile_with_tensor(cx, "lhs", "rhs");
  if (!mixed && takes_tensors(cx, "lhs")) return tensor_elementwise(cx);
  const TypeNode* l = vec_operand(cx, "lhs", mixed);
  if (!l) return nullptr;
  const TypeNode* r = vec_operand(cx, "rhs", mixed);
  if (!r) return nullptr;
  if (l->dtype != r->dtype)
    return cx.fail("rhs", "'rhs' dtype " + dtype_str(r->dtype) + " must match 'lhs' dtype " +
                              dtype_str(l->dtype) + "; use pl.cast");
  if (shapes_differ(l->shape, r->shape))
    return cx.fail("rhs",
                   "'rhs' shape " + shape_str(r->shape) + " must match 'lhs' shape " + shape_str(l->shape));
  return l->kind == TypeKind::Tile ? cx.arg("lhs")->type : cx.arg("rhs")->type;
}

// A tile (or GM tensor) with a scalar; the slots are named `tile`/`scalar` (adds, ...) or `lhs`/`rhs`
// (maximums, minimums, as PyPTO names them).
Type tile_scalar(const ContractContext& cx, std::string_view tile = "tile",
                 std::string_view scalar = "scalar") {
  if (takes_tensors(cx, tile)) {
    const TypeNode* t = need_tensor_like(cx, tile);
    if (!t || !need_scalar(cx, scalar)) return nullptr;
    return tensor_keeping_valid(t->shape, t->dtype, t->valid_shape);
  }
  const TypeNode* t = need_tile_in(cx, tile, Memory::Vec, "use pl.move(x, target_memory=pl.Mem.Vec)");
  if (!t || !need_scalar(cx, scalar)) return nullptr;
  return cx.arg(tile)->type;
}

// tmp_tile, when given, is scratch of the input's dtype and rank, at least as large in every dim.
bool check_tmp_tile(const ContractContext& cx, const TypeNode* in) {
  if (omitted(cx, "tmp_tile")) return true;
  const TypeNode* t = need_tile(cx, "tmp_tile");
  if (!t) return false;
  bool fits = t->dtype == in->dtype && t->shape.size() == in->shape.size();
  for (size_t i = 0; fits && i < t->shape.size(); ++i) {
    auto a = as_const_int(t->shape[i]), b = as_const_int(in->shape[i]);
    fits = !(a && b && *a < *b);
  }
  if (!fits)
    cx.fail("tmp_tile",
            "'tmp_tile' must have the input's dtype and rank and be at least as large in every dim (" +
                type_str(cx.arg("input")->type) + "), got " + type_str(cx.arg("tmp_tile")->type));
  return fits;
}

Type row_reduce(const ContractContext& cx) {
  if (takes_tensors(cx, "input")) {  // pl.tensor.row_sum(input): a new [M, 1] tensor
    const TypeNode* t = need_tensor_like(cx, "input");
    if (!t) return nullptr;
    if (t->shape.size() != 2)
      return cx.fail("input", "'input' must be 2-D, got " + type_str(cx.arg("input")->type));
    if (!omitted(cx, "tmp_tile"))
      return cx.fail("tmp_tile", "'tmp_tile' is a tile scratch; a tensor-level call takes none");
    return tensor_type({t->shape[0], const_dim(1)}, t->dtype);
  }
  const TypeNode* t = need_2d(
      cx, "input", need_tile_in(cx, "input", Memory::Vec, "use pl.move(x, target_memory=pl.Mem.Vec)"));
  if (!t || !check_tmp_tile(cx, t)) return nullptr;
  return tile_type({t->shape[0], const_dim(1)}, t->dtype, t->memory);
}

// shape list, dtype imm and memory of pl.full / pl.zeros / pl.create_tile.
Type new_tile(const ContractContext& cx) {
  const std::vector<Expr>* shape = need_int_list(cx, "shape", -1, "");
  if (!shape || !check_positive_dims(cx, "shape", *shape)) return nullptr;
  if (shape->empty()) return cx.fail("shape", "'shape' must have at least one dim");
  auto dt = need_dtype(cx, "dtype");
  if (!dt) return nullptr;
  Memory mem = Memory::Vec;
  if (!omitted(cx, "target_memory")) {
    auto m = need_memory(cx, "target_memory");
    if (!m) return nullptr;
    mem = *m;
  }
  return tile_type(*shape, *dt, mem);
}

}  // namespace

// high_precision=True selects PTOAS's high-precision tdiv, a float template only (PyPTO's tile.div rule);
// the CPU divides in fp32 either way.
Type check_Div(const ContractContext& cx) {
  Type t = elementwise(cx);
  if (!t || omitted(cx, "high_precision")) return t;
  auto b = cx.arg("high_precision")->as<BoolImm>();
  if (!b)
    return cx.fail("high_precision",
                   "'high_precision' must be True or False, got " + describe(cx.arg("high_precision")));
  if (b->value && !dtype_is_float(t->dtype))
    return cx.fail("high_precision",
                   "'high_precision=True' needs a float operand (PTOAS's high-precision "
                   "division has no integer template), got " +
                       dtype_str(t->dtype));
  return t;
}
// fmod is defined on floats (pto.tfmod; torch.fmod): an integer operand is an error, not a guess.
static Type float_only(const ContractContext& cx, Type t, std::string_view operand) {
  if (t && !dtype_is_float(t->dtype))
    return cx.fail(operand, quoted(operand) + " must be pl.FP16, pl.BF16 or pl.FP32, got " +
                                type_str(cx.arg(operand)->type));
  return t;
}
Type check_Fmod(const ContractContext& cx) {
  return float_only(cx, elementwise(cx), "lhs");
}
Type check_Fmods(const ContractContext& cx) {
  return float_only(cx, tile_scalar(cx, "lhs", "rhs"), "lhs");
}
Type check_Maximums(const ContractContext& cx) {
  return tile_scalar(cx, "lhs", "rhs");
}
Type check_Minimums(const ContractContext& cx) {
  return tile_scalar(cx, "lhs", "rhs");
}

Type check_Exp(const ContractContext& cx) {
  bool tensor = takes_tensors(cx, "input");
  const TypeNode* t =
      tensor ? need_tensor_like(cx, "input")
             : need_tile_in(cx, "input", Memory::Vec, "use pl.move(x, target_memory=pl.Mem.Vec)");
  if (!t) return nullptr;
  if (!dtype_is_float(t->dtype))
    return cx.fail(
        "input", "'input' must have a float dtype (pl.FP32, pl.FP16 or pl.BF16), got " + dtype_str(t->dtype));
  return tensor ? tensor_type(t->shape, t->dtype) : cx.arg("input")->type;
}

// pl.cast converts a scalar, a tile or (spelled pl.cast / pl.tensor.cast) a GM tensor, rounding with
// PyPTO's `mode` (a name or its code, cast_mode.h); a scalar takes only the default 'round', as in
// PyPTO, and 'odd' rounds to a float only: to an integer pto-isa's device TCVT falls back to toward
// zero while its CPU model rounds ties to odd, so ptodist asks rather than pick one.
Type check_Cast(const ContractContext& cx) {
  auto dt = need_dtype(cx, "target_type");
  if (!dt) return nullptr;
  std::optional<int> mode = cast_mode_code(cx.arg("mode"));
  const auto* named = cx.arg("mode") ? cx.arg("mode")->as<StrImm>() : nullptr;
  std::string given = named ? "'" + named->value + "'" : describe(cx.arg("mode"));
  if (const auto* code = cx.arg("mode") ? cx.arg("mode")->as<IntImm>() : nullptr)
    given = std::to_string(code->value);
  if (!mode)
    return cx.fail("mode",
                   "'mode' must be one of 'none', 'rint', 'round', 'floor', 'ceil', 'trunc', 'odd' or their "
                   "codes 0 to 6, got " +
                       given);
  const TypeNode* in = type_of(cx, "input");
  if (in && in->kind == TypeKind::Scalar && spelled_in(cx) != Namespace::Tile &&
      spelled_in(cx) != Namespace::Tensor) {
    if (*mode != kCastModeRound)
      return cx.fail("mode", "Scalar inputs do not support non-default mode, got mode=" + given);
    return scalar_type(*dt);
  }
  if (*mode == kCastModeOdd && !dtype_is_float(*dt))
    return cx.fail("mode", "mode='odd' rounds to a float dtype only, got target_type " + dtype_str(*dt));
  if (!is_kernel(cx.scope.function_kind))
    return cx.fail("input",
                   "'input' must be a scalar outside a kernel (tiles and tensors are cast in kernels), got " +
                       describe(cx.arg("input")));
  if (takes_tensors(cx, "input")) {
    const TypeNode* t = need_tensor_like(cx, "input");
    return t ? tensor_keeping_valid(t->shape, *dt, t->valid_shape) : nullptr;
  }
  const TypeNode* t = type_of(cx, "input");
  if (!t || t->kind != TypeKind::Tile)
    return cx.fail("input", "'input' must be a tile, a tensor or a scalar, got " + describe(cx.arg("input")));
  auto out = std::make_shared<TypeNode>(*tile_type(t->shape, *dt, t->memory));
  out->valid_shape = t->valid_shape;
  return out;
}

namespace {

// The data paths between on-chip buffers (Ascend A2/A3: MTE1 moves L1 to L0A/L0B and the bias table,
// FIXPIPE moves L0C out to UB or L1, the vector unit copies within UB). In an InCore kernel a UB tile
// may also go to L1/L0A/L0B and an L1 tile to UB: expand-mixed-kernel makes each such move a hand-off
// through the cross-core pipe between the kernel's AIV and AIC halves, as PyPTO's ExpandMixedKernel does.
bool move_supported(Memory from, Memory to, FunctionKind kind) {
  bool to_cube_input = to == Memory::Mat || to == Memory::Left || to == Memory::Right;
  return (from == Memory::Mat && (to == Memory::Left || to == Memory::Right || to == Memory::Bias)) ||
         (from == Memory::Acc && (to == Memory::Vec || to == Memory::Mat)) ||
         (from == Memory::Vec && to == Memory::Vec) ||
         (kind == FunctionKind::InCore &&
          ((from == Memory::Vec && to_cube_input) || (from == Memory::Mat && to == Memory::Vec)));
}

}  // namespace

Type check_Move(const ContractContext& cx) {
  if (!need_default(cx, "blayout", "a block layout") || !need_default(cx, "slayout", "a scatter layout"))
    return nullptr;
  const TypeNode* t = need_tile(cx, "tile");
  if (!t) return nullptr;
  auto m = need_memory(cx, "target_memory");
  if (!m) return nullptr;
  if (!move_supported(t->memory, *m, cx.scope.function_kind))
    return cx.fail("target_memory",
                   "cannot move a tile from " + mem_str(t->memory) + " to " + mem_str(*m) +
                       "; supported moves are Mat->Left, Mat->Right, Acc->Vec, Acc->Mat and Vec->Vec, and in "
                       "an InCore kernel Vec->Mat, Vec->Left, Vec->Right and Mat->Vec (between its cube and "
                       "vector halves)");
  auto out = std::make_shared<TypeNode>(*tile_type(t->shape, t->dtype, *m));
  out->valid_shape = t->valid_shape;
  return out;
}

Type check_Full(const ContractContext& cx) {
  if (!need_scalar(cx, "value")) return nullptr;
  return new_tile(cx);
}

Type check_CreateTile(const ContractContext& cx) {
  for (const char* layout : {"transpose", "flat_layout"}) {
    Expr e = cx.arg(layout);
    auto b = e ? e->as<BoolImm>() : nullptr;
    if (!omitted(cx, layout) && !(b && !b->value))
      return cx.fail(layout, quoted(layout) + " (a non-default tile layout) is not supported by ptodist yet");
  }
  return new_tile(cx);
}
Type check_GetBlockIdx(const ContractContext&) {
  return scalar_type(DType::INT64);
}
Type check_GetBlockNum(const ContractContext&) {
  return scalar_type(DType::INT64);
}

// Scalar min/max of PyPTO's pl.min/pl.max: two scalars, the result in their common type.
static Type scalar_min_max(const ContractContext& cx) {
  for (const char* side : {"lhs", "rhs"}) {
    const TypeNode* t = type_of(cx, side);
    if (!t || t->kind != TypeKind::Scalar || t->dtype == DType::BOOL)
      return cx.fail(side, quoted(side) + " must be a numeric scalar, got " + describe(cx.arg(side)) +
                               "; for tiles use pl.minimum / pl.maximum");
  }
  DType l = type_of(cx, "lhs")->dtype, r = type_of(cx, "rhs")->dtype;
  if (dtype_is_float(l) != dtype_is_float(r)) return scalar_type(dtype_is_float(l) ? l : r);
  if (as_const_int(cx.arg("lhs"))) return scalar_type(r);  // a literal takes the other side's type
  return scalar_type(l);
}

// Ops whose contract is one of the shared shapes above, as (op, contract). The part ops' result keeps
// lhs's valid region (PyPTO: the output follows src0), as elementwise's does.
#define PTODIST_CONTRACT_AS(Id, contract)      \
  Type check_##Id(const ContractContext& cx) { \
    return contract(cx);                       \
  }
PTODIST_CONTRACT_AS(Add, elementwise)
PTODIST_CONTRACT_AS(Sub, elementwise)
PTODIST_CONTRACT_AS(Mul, elementwise)
PTODIST_CONTRACT_AS(Maximum, elementwise)
PTODIST_CONTRACT_AS(Minimum, elementwise)
PTODIST_CONTRACT_AS(Adds, tile_scalar)
PTODIST_CONTRACT_AS(Muls, tile_scalar)
PTODIST_CONTRACT_AS(Subs, tile_scalar)
PTODIST_CONTRACT_AS(Divs, tile_scalar)
PTODIST_CONTRACT_AS(PartAdd, elementwise)
PTODIST_CONTRACT_AS(PartMul, elementwise)
PTODIST_CONTRACT_AS(PartMax, elementwise)
PTODIST_CONTRACT_AS(PartMin, elementwise)
PTODIST_CONTRACT_AS(Zeros, new_tile)
PTODIST_CONTRACT_AS(RowSum, row_reduce)
PTODIST_CONTRACT_AS(RowMax, row_reduce)
PTODIST_CONTRACT_AS(ScalarMin, scalar_min_max)
PTODIST_CONTRACT_AS(ScalarMax, scalar_min_max)
#undef PTODIST_CONTRACT_AS

}  // namespace ptodist::ir
