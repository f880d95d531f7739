// Contracts of the cube ops pl.matmul, pl.batch_matmul and pl.matmul_acc, after PyPTO's tensor and tile
// matmul type deduction (src/ir/op/tensor_ops/matmul.cpp, tile_ops/matmul.cpp): the tensor forms on GM
// tensors with batch dims and transpose flags, the tile forms on Left / Right operands into Acc.
#include <algorithm>
#include <tuple>

#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {
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
  if (!need_cube_input(cx, "lhs", l) || !need_cube_input(cx, "rhs", r)) return std::nullopt;
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

}  // namespace ptodist::ir
