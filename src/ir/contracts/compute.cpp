// Contracts of the compute ops (pl.): matmul, elementwise, cast, move, tile creation, reductions.
#include <algorithm>
#include <tuple>

#include "common.h"
#include "ptodist/ir/cast_mode.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

std::string mem_str(Memory m) {
  return "pl.Mem." + std::string(memory_name(m));
}

// A tile operand that must live in `mem`; `fix` tells the user how to get it there.
const TypeNode* need_tile_in(const ContractContext& cx, std::string_view name, Memory mem,
                             const std::string& fix) {
  const TypeNode* t = need_tile(cx, name);
  if (!t) return nullptr;
  if (t->memory == mem) return t;
  cx.fail(name, quoted(name) + " must be a tile in " + mem_str(mem) + ", got " +
                    type_str(cx.arg(name)->type) + (fix.empty() ? "" : "; " + fix));
  return nullptr;
}

// A Vec tile operand, or with `mixed` (tile_with_tensor) the tensor a Vec tile will be loaded from.
const TypeNode* vec_operand(const ContractContext& cx, std::string_view name, bool mixed) {
  const TypeNode* t = type_of(cx, name);
  if (mixed && t && t->is_tensor_like()) return t;
  return need_tile_in(cx, name, Memory::Vec, "use pl.move(x, target_memory=pl.Mem.Vec)");
}

// Constant dims that differ; symbolic dims are rechecked after specialize.
bool dims_differ(const Expr& a, const Expr& b) {
  auto x = as_const_int(a), y = as_const_int(b);
  return x && y && *x != *y;
}

bool shapes_differ(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  if (a.size() != b.size()) return true;
  for (size_t i = 0; i < a.size(); ++i)
    if (dims_differ(a[i], b[i])) return true;
  return false;
}

const TypeNode* need_2d(const ContractContext& cx, std::string_view name, const TypeNode* t) {
  if (!t || t->shape.size() == 2) return t;
  cx.fail(name, quoted(name) + " must be a 2-D tile, got " + type_str(cx.arg(name)->type));
  return nullptr;
}

bool need_matmul_input(const ContractContext& cx, std::string_view name, const TypeNode* t) {
  // PyPTO's matmul takes INT8 x INT8 (INT32 accumulator) or a float pair of equal dtypes (FP32
  // accumulator) (tile_ops/matmul.cpp).
  if (t->dtype == DType::FP16 || t->dtype == DType::BF16 || t->dtype == DType::FP32 ||
      t->dtype == DType::INT8)
    return true;
  cx.fail(name, quoted(name) +
                    " must have dtype pl.INT8, pl.FP16, pl.BF16 or pl.FP32 (the cube unit's inputs), got " +
                    dtype_str(t->dtype) + "; use pl.cast first");
  return false;
}

// The cube accumulator's dtype for `in` inputs: INT32 for INT8, FP32 for floats.
DType accumulator_dtype(DType in) {
  return in == DType::INT8 ? DType::INT32 : DType::FP32;
}

// A transpose flag of the tensor form: a literal bool (false when omitted).
std::optional<bool> need_flag(const ContractContext& cx, std::string_view name) {
  if (omitted(cx, name)) return false;
  if (const auto* b = cx.arg(name)->as<BoolImm>()) return b->value;
  cx.fail(name, quoted(name) + " must be True or False, got " + describe(cx.arg(name)));
  return std::nullopt;
}

// A flag that is omitted or a literal False.
bool need_default_flag(const ContractContext& cx, std::string_view name) {
  const auto* b = omitted(cx, name) ? nullptr : cx.arg(name)->as<BoolImm>();
  return omitted(cx, name) || (b && !b->value);
}

// `out_dtype`, when given, must name the accumulator's dtype: the cube unit writes only that.
bool check_out_dtype(const ContractContext& cx, DType acc) {
  if (omitted(cx, "out_dtype")) return true;
  auto d = need_dtype(cx, "out_dtype");
  if (!d) return false;
  if (*d == acc) return true;
  cx.fail("out_dtype", "'out_dtype' must be " + dtype_str(acc) +
                           " (the accumulator dtype of these inputs), got " + dtype_str(*d) +
                           "; cast the result with pl.cast");
  return false;
}

// An operand's matrix dims as PyPTO reads them (tensor_ops/matmul.cpp): the trailing two, lhs
// [..., M, K] and rhs [..., K, N], swapped by the operand's transpose flag; a 1-D operand is a vector
// [K] with no outer dim. `outer` is M for lhs and N for rhs; `k` indexes K in the operand's shape.
struct MatrixDims {
  const Expr* outer = nullptr;
  size_t k = 0;
};

MatrixDims matrix_dims(const TypeNode* t, bool trans, bool is_lhs) {
  size_t n = t->shape.size();
  if (n == 1) return {};
  bool k_last = is_lhs != trans;
  return {&t->shape[k_last ? n - 2 : n - 1], k_last ? n - 1 : n - 2};
}

// PyPTO's BroadcastShapes of the batch dims (all but the trailing two): right-aligned, a missing dim
// or a constant 1 takes the other side's; symbolic dims are taken as equal (rechecked after specialize).
std::optional<std::vector<Expr>> broadcast_batch(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  size_t na = a.size(), nb = b.size(), n = std::max(na, nb);
  std::vector<Expr> out(n);
  for (size_t i = 0; i < n; ++i) {
    const Expr* x = i < na ? &a[na - 1 - i] : nullptr;
    const Expr* y = i < nb ? &b[nb - 1 - i] : nullptr;
    auto cx = x ? as_const_int(*x) : std::nullopt, cy = y ? as_const_int(*y) : std::nullopt;
    if (x && y && cx && cy && *cx != *cy && *cx != 1 && *cy != 1) return std::nullopt;
    out[n - 1 - i] = !x || (cx && *cx == 1 && y) ? *y : *x;
  }
  return out;
}

std::vector<Expr> batch_dims(const TypeNode* t) {
  return std::vector<Expr>(t->shape.begin(), t->shape.end() - 2);
}

// Operand ranks PyPTO's tensor matmul takes: matrices with any leading batch dims, and a vector on one
// side of a matrix; a flag needs a matrix to transpose.
bool check_matmul_ranks(const ContractContext& cx, const TypeNode* l, const TypeNode* r, bool at, bool bt) {
  for (auto [name, t, flag, set] :
       {std::tuple{"lhs", l, "a_trans", at}, std::tuple{"rhs", r, "b_trans", bt}}) {
    if (t->shape.empty()) {
      cx.fail(name, quoted(name) + " must have at least one dim, got " + type_str(cx.arg(name)->type));
      return false;
    }
    if (t->shape.size() == 1 && set) {
      cx.fail(flag, quoted(flag) + " does not apply to a 1-D " + std::string(name) +
                        " (a vector has no axes to swap); drop it or pass a 2-D " + name);
      return false;
    }
  }
  size_t nl = l->shape.size(), nr = r->shape.size();
  if (nl == 1 && nr == 1) {
    cx.fail("rhs", "a dot product of two 1-D tensors (a 0-D result) is not supported by ptodist yet");
    return false;
  }
  if ((nl == 1 && nr > 2) || (nr == 1 && nl > 2)) {
    const char* v = nl == 1 ? "lhs" : "rhs";
    cx.fail(v, quoted(v) + " is 1-D: a batched matmul needs both operands at least 2-D, got lhs " +
                   shape_str(l->shape) + " and rhs " + shape_str(r->shape));
    return false;
  }
  return true;
}

// The product of lhs and rhs (each stored transposed when its flag is set): [..., M, N] with the batch
// dims broadcast, M or N dropped for a vector operand; or nullopt after a located error.
std::optional<std::pair<std::vector<Expr>, DType>> product_of(const ContractContext& cx, const TypeNode* l,
                                                              const TypeNode* r, bool at, bool bt) {
  if (!need_matmul_input(cx, "lhs", l) || !need_matmul_input(cx, "rhs", r)) return std::nullopt;
  if (l->dtype != r->dtype) {
    cx.fail("rhs", "'rhs' dtype " + dtype_str(r->dtype) + " must match 'lhs' dtype " + dtype_str(l->dtype));
    return std::nullopt;
  }
  MatrixDims ml = matrix_dims(l, at, true), nr = matrix_dims(r, bt, false);
  if (dims_differ(l->shape[ml.k], r->shape[nr.k])) {
    cx.fail("rhs", "'rhs' shape " + shape_str(r->shape) + " does not fit 'lhs' shape " + shape_str(l->shape) +
                       ": the K dims (lhs dim " + std::to_string(ml.k) + ", rhs dim " + std::to_string(nr.k) +
                       ") must be equal");
    return std::nullopt;
  }
  std::vector<Expr> out;
  if (l->shape.size() > 2 || r->shape.size() > 2) {
    auto b = broadcast_batch(batch_dims(l), batch_dims(r));
    if (!b) {
      cx.fail("rhs", "the batch dims of 'lhs' shape " + shape_str(l->shape) + " and 'rhs' shape " +
                         shape_str(r->shape) +
                         " do not broadcast (each pair must be equal or one of them 1)");
      return std::nullopt;
    }
    out = *b;
  }
  if (ml.outer) out.push_back(*ml.outer);
  if (nr.outer) out.push_back(*nr.outer);
  return std::make_pair(out, accumulator_dtype(l->dtype));
}

// PyPTO's tensor-level matmul (tensor_ops/matmul.cpp): GM tensors, a_trans/b_trans swap their operand's
// trailing axes; the result is a new tensor of the accumulator dtype (product_of's shape).
Type tensor_matmul_result(const ContractContext& cx) {
  const TypeNode* l = need_tensor_like(cx, "lhs");
  if (!l) return nullptr;
  const TypeNode* r = need_tensor_like(cx, "rhs");
  if (!r) return nullptr;
  auto at = need_flag(cx, "a_trans"), bt = need_flag(cx, "b_trans");
  if (!at || !bt || !check_matmul_ranks(cx, l, r, *at, *bt)) return nullptr;
  auto p = product_of(cx, l, r, *at, *bt);
  if (!p) return nullptr;
  return tensor_type(p->first, p->second);
}

// A tile matmul operand: a 2-D tile, or a batch of one ([1, .., 1, R, C]: a tile.batch_matmul of one
// page, which PyPTO's FlattenTileNdTo2D makes a 2-D tile.matmul), read as its trailing [R, C].
const TypeNode* need_matrix_tile(const ContractContext& cx, std::string_view name, const TypeNode* t) {
  if (!t || t->shape.size() == 2) return t;
  bool batch_of_one = t->shape.size() > 2;
  for (size_t i = 0; i + 2 < t->shape.size(); ++i) {
    auto d = as_const_int(t->shape[i]);
    batch_of_one = batch_of_one && d && *d == 1;
  }
  if (batch_of_one) return t;
  cx.fail(name, quoted(name) + " must be a 2-D tile (or [1, .., 1, R, C], a batch of one), got " +
                    type_str(cx.arg(name)->type));
  return nullptr;
}

// lhs [M, K] in Left and rhs [K, N] in Right; returns the [M, N] Acc result type (FP32, or INT32 for
// INT8 inputs), 2-D also for a batch-of-one operand. On tiles the transpose flags are PyPTO's errors:
// transposition is a tile's layout.
Type matmul_result(const ContractContext& cx) {
  for (const char* flag : {"a_trans", "b_trans"})
    if (!need_default_flag(cx, flag))
      return cx.fail(flag,
                     quoted(flag) +
                         " is for tensors: on tiles transposition is the tile's layout (load the operand "
                         "transposed, or call pl.matmul on the GM tensors)");
  const TypeNode* l = need_matrix_tile(
      cx, "lhs", need_tile_in(cx, "lhs", Memory::Left, "use pl.move(x, target_memory=pl.Mem.Left)"));
  if (!l) return nullptr;
  const TypeNode* r = need_matrix_tile(
      cx, "rhs", need_tile_in(cx, "rhs", Memory::Right, "use pl.move(x, target_memory=pl.Mem.Right)"));
  if (!r) return nullptr;
  auto p = product_of(cx, l, r, false, false);
  if (!p) return nullptr;
  std::vector<Expr> mn(p->first.end() - 2, p->first.end());
  return tile_type(mn, p->second, Memory::Acc);
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
    auto one = std::make_shared<IntImm>();
    one->value = 1;
    one->type = scalar_type(DType::INT64);
    return tensor_type({t->shape[0], one}, t->dtype);
  }
  const TypeNode* t = need_2d(
      cx, "input", need_tile_in(cx, "input", Memory::Vec, "use pl.move(x, target_memory=pl.Mem.Vec)"));
  if (!t || !check_tmp_tile(cx, t)) return nullptr;
  auto one = std::make_shared<IntImm>();
  one->value = 1;
  one->type = scalar_type(DType::INT64);
  return tile_type({t->shape[0], one}, t->dtype, t->memory);
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

// The tensor form of matmul_acc takes matrices only (PyPTO: acc, lhs and rhs at least 2-D), and
// init_cond only on 2-D ones (PyPTO's conversion unrolls a batched one into per-batch matmuls with no
// place for the predicate).
bool need_acc_operands(const ContractContext& cx) {
  bool batched = false;
  for (const char* name : {"acc", "lhs", "rhs"}) {
    const TypeNode* t = type_of(cx, name);
    if (!t) continue;  // not a tensor: tensor_matmul_result reports it
    if (t->shape.size() < 2) {
      cx.fail(name, quoted(name) + " must be at least 2-D (a matrix, with any batch dims before it), got " +
                        type_str(cx.arg(name)->type));
      return false;
    }
    batched = batched || t->shape.size() > 2;
  }
  if (batched && !omitted(cx, "init_cond")) {
    cx.fail("init_cond",
            "'init_cond' applies to 2-D operands only (as in PyPTO): loop over the batch dim "
            "and accumulate 2-D matmuls, or branch on the condition with pl.matmul");
    return false;
  }
  return true;
}

}  // namespace

Type check_Matmul(const ContractContext& cx) {
  if (!need_default(cx, "c_matrix_nz", "an NZ result layout")) return nullptr;
  Type r = takes_tensors(cx, "lhs") ? tensor_matmul_result(cx) : matmul_result(cx);
  if (!r || !check_out_dtype(cx, r->dtype)) return nullptr;
  return r;
}

// PyPTO's tile.batch_matmul: tiles of at least 2 dims, lhs in Left or Mat and rhs in Right or Mat (PyPTO's
// FlattenTileNdTo2D unrolls it into per-batch tile.matmul and places their operands); the result an Acc
// tile [broadcast batch..., M, N] of the accumulator dtype.
Type check_BatchMatmul(const ContractContext& cx) {
  const TypeNode* ops[2] = {need_tile(cx, "lhs"), nullptr};
  if (!ops[0]) return nullptr;
  ops[1] = need_tile(cx, "rhs");
  if (!ops[1]) return nullptr;
  const char* names[2] = {"lhs", "rhs"};
  const Memory homes[2] = {Memory::Left, Memory::Right};
  for (int i = 0; i < 2; ++i) {
    if (ops[i]->memory != homes[i] && ops[i]->memory != Memory::Mat)
      return cx.fail(names[i], quoted(names[i]) + " must be a tile in " + mem_str(homes[i]) +
                                   " or pl.Mem.Mat, got " + type_str(cx.arg(names[i])->type));
    if (ops[i]->shape.size() < 2)
      return cx.fail(names[i], quoted(names[i]) +
                                   " must be at least 2-D (a matrix, with any batch dims "
                                   "before it), got " +
                                   type_str(cx.arg(names[i])->type));
  }
  auto p = product_of(cx, ops[0], ops[1], false, false);
  if (!p) return nullptr;
  return tile_type(p->first, p->second, Memory::Acc);
}

// init_cond (PyPTO's split-K idiom): where it holds, acc is overwritten with lhs @ rhs.
Type check_MatmulAcc(const ContractContext& cx) {
  if (!omitted(cx, "init_cond")) {
    const TypeNode* p = type_of(cx, "init_cond");
    if (!p || p->kind != TypeKind::Scalar || p->dtype != DType::BOOL)
      return cx.fail("init_cond",
                     "'init_cond' must be a bool (a literal or a comparison such as k == 0), got " +
                         describe(cx.arg("init_cond")));
  }
  if (takes_tensors(cx, "lhs")) {
    const TypeNode* a = need_tensor_like(cx, "acc");
    if (!a || !need_acc_operands(cx)) return nullptr;
    Type r = tensor_matmul_result(cx);
    if (!r) return nullptr;
    if (a->dtype != r->dtype || shapes_differ(a->shape, r->shape))
      return cx.fail("acc", "'acc' must be " + type_str(r) + " (the product's type), got " +
                                type_str(cx.arg("acc")->type));
    return tensor_type(a->shape, a->dtype);
  }
  const TypeNode* a = need_tile_in(cx, "acc", Memory::Acc, "the accumulator comes from pl.matmul");
  if (!a) return nullptr;
  Type r = matmul_result(cx);
  if (!r) return nullptr;
  if (a->dtype != r->dtype || shapes_differ(a->shape, r->shape))
    return cx.fail("acc", "'acc' must be " + type_str(r) + " (the product's type), got " +
                              type_str(cx.arg("acc")->type));
  return cx.arg("acc")->type;
}

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
// FIXPIPE moves L0C out to UB or L1, the vector unit copies within UB).
bool move_supported(Memory from, Memory to) {
  return (from == Memory::Mat && (to == Memory::Left || to == Memory::Right || to == Memory::Bias)) ||
         (from == Memory::Acc && (to == Memory::Vec || to == Memory::Mat)) ||
         (from == Memory::Vec && to == Memory::Vec);
}

}  // namespace

Type check_Move(const ContractContext& cx) {
  if (!need_default(cx, "blayout", "a block layout") || !need_default(cx, "slayout", "a scatter layout"))
    return nullptr;
  const TypeNode* t = need_tile(cx, "tile");
  if (!t) return nullptr;
  auto m = need_memory(cx, "target_memory");
  if (!m) return nullptr;
  if (!move_supported(t->memory, *m))
    return cx.fail("target_memory",
                   "cannot move a tile from " + mem_str(t->memory) + " to " + mem_str(*m) +
                       "; supported moves are Mat->Left, Mat->Right, Acc->Vec, Acc->Mat and Vec->Vec");
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
