// Shared checks of the op contracts.
#include "common.h"

#include <algorithm>

#include "ptodist/ir/printer.h"

namespace ptodist::ir::contracts {

const TypeNode* type_of(const ContractContext& cx, std::string_view name) {
  Expr e = cx.arg(name);
  return e && e->type ? e->type.get() : nullptr;
}

bool omitted(const ContractContext& cx, std::string_view name) {
  Expr e = cx.arg(name);
  return !e || e->isa<NoneImm>();
}

Namespace spelled_in(const ContractContext& cx) {
  const std::string& s = cx.call.op->spelling;
  if (s.rfind("pl.tile.", 0) == 0) return Namespace::Tile;
  if (s.rfind("pl.tensor.", 0) == 0) return Namespace::Tensor;
  return Namespace::Unified;
}

bool takes_tensors(const ContractContext& cx, std::string_view operand) {
  Namespace ns = spelled_in(cx);
  if (ns != Namespace::Unified) return ns == Namespace::Tensor;
  const TypeNode* t = type_of(cx, operand);
  return t && t->is_tensor_like();
}

const std::vector<Expr>* need_valid_shape(const ContractContext& cx, const std::vector<Expr>& shapes,
                                          std::string_view of) {
  const std::vector<Expr>* valid = need_int_list(cx, "valid_shape", static_cast<int>(shapes.size()), of);
  if (!valid) return nullptr;
  for (size_t i = 0; i < valid->size(); ++i) {
    auto v = as_const_int((*valid)[i]), s = as_const_int(shapes[i]);
    if (v && (*v < 0 || (s && *v > *s))) {
      cx.fail("valid_shape", "'valid_shape' dim " + std::to_string(i) + " (" + std::to_string(*v) +
                                 ") must lie in [0, " + (s ? std::to_string(*s) : "shapes") +
                                 "]: the valid region narrows the tile, it cannot widen it");
      return nullptr;
    }
  }
  return valid;
}

bool tile_with_tensor(const ContractContext& cx, std::string_view a, std::string_view b) {
  if (spelled_in(cx) != Namespace::Unified) return false;
  const TypeNode* x = type_of(cx, a);
  const TypeNode* y = type_of(cx, b);
  if (!x || !y) return false;
  return (x->kind == TypeKind::Tile && y->is_tensor_like()) ||
         (y->kind == TypeKind::Tile && x->is_tensor_like());
}

bool need_default(const ContractContext& cx, std::string_view name, std::string_view what) {
  Expr e = cx.arg(name);
  auto b = e ? e->as<BoolImm>() : nullptr;
  if (omitted(cx, name) || (b && !b->value)) return true;
  cx.fail(name, quoted(name) + " (" + std::string(what) + ") is not supported by ptodist yet");
  return false;
}

std::string dtype_str(DType t) {
  return "pl." + std::string(dtype_name(t));
}
std::string quoted(std::string_view name) {
  return "'" + std::string(name) + "'";
}

std::string describe(const Expr& e) {
  if (!e) return "nothing";
  if (auto d = e->as<DTypeImm>()) return "the dtype " + dtype_str(d->value);
  if (auto m = e->as<EnumImm>()) return "the enum member " + m->value;
  if (e->isa<StrImm>()) return "a string";
  if (e->isa<NoneImm>()) return "None";
  if (e->isa<FuncRef>()) return "the function " + e->as<FuncRef>()->callee;
  if (auto l = as_list(e))
    return "a list of " + std::to_string(l->size()) + " element" + (l->size() == 1 ? "" : "s");
  return type_str(e->type);
}

const TypeNode* need_kind(const ContractContext& cx, std::string_view name, TypeKind kind,
                          std::string_view what) {
  const TypeNode* t = type_of(cx, name);
  if (t && t->kind == kind) return t;
  cx.fail(name, quoted(name) + " must be " + std::string(what) + ", got " + describe(cx.arg(name)));
  return nullptr;
}

const TypeNode* need_tile(const ContractContext& cx, std::string_view name) {
  return need_kind(cx, name, TypeKind::Tile, "a tile");
}

const TypeNode* need_vec_tile(const ContractContext& cx, std::string_view name, bool rank2) {
  const TypeNode* t = need_tile(cx, name);
  if (!t) return nullptr;
  if (t->memory != Memory::Vec) {
    cx.fail(name, quoted(name) + " must be a tile in pl.Mem.Vec, got " + type_str(cx.arg(name)->type) +
                      "; use pl.move(x, target_memory=pl.Mem.Vec)");
    return nullptr;
  }
  if (rank2 && t->shape.size() != 2) {
    cx.fail(name, quoted(name) + " must be a 2-D tile, got " + type_str(cx.arg(name)->type));
    return nullptr;
  }
  return t;
}

const TypeNode* need_tensor_like(const ContractContext& cx, std::string_view name) {
  const TypeNode* t = type_of(cx, name);
  if (t && t->is_tensor_like()) return t;
  cx.fail(name, quoted(name) + " must be a tensor in GM (pl.Tensor or pld.DistributedTensor), got " +
                    describe(cx.arg(name)));
  return nullptr;
}

const TypeNode* need_dist_tensor(const ContractContext& cx, std::string_view name, std::string_view why) {
  const TypeNode* t = type_of(cx, name);
  if (t && t->kind == TypeKind::DistTensor) return t;
  cx.fail(name, quoted(name) + " must be a pld.DistributedTensor (" + std::string(why) + "), got " +
                    describe(cx.arg(name)));
  return nullptr;
}

bool need_int_scalar(const ContractContext& cx, std::string_view name) {
  const TypeNode* t = type_of(cx, name);
  Expr e = cx.arg(name);
  if (t && t->kind == TypeKind::Scalar && (dtype_is_int(t->dtype)) && !e->isa<BoolImm>()) return true;
  cx.fail(name, quoted(name) + " must be an integer scalar, got " + describe(e));
  return false;
}

bool need_scalar(const ContractContext& cx, std::string_view name) {
  const TypeNode* t = type_of(cx, name);
  if (t && t->kind == TypeKind::Scalar) return true;
  cx.fail(name, quoted(name) + " must be a scalar, got " + describe(cx.arg(name)));
  return false;
}

std::optional<DType> need_dtype(const ContractContext& cx, std::string_view name) {
  Expr e = cx.arg(name);
  if (e)
    if (auto d = e->as<DTypeImm>(); d && d->value != DType::TASK_ID) return d->value;
  cx.fail(name, quoted(name) + " must be a dtype such as pl.FP32, got " + describe(e) +
                    (e && e->isa<DTypeImm>() ? " (only pl.array.create in an orchestration function takes it)"
                                             : ""));
  return std::nullopt;
}

std::optional<std::string> need_enum(const ContractContext& cx, std::string_view name, EnumKind kind,
                                     const std::vector<std::string>& allowed,
                                     std::string_view spelled_prefix) {
  Expr e = cx.arg(name);
  const EnumImm* m = e ? e->as<EnumImm>() : nullptr;
  bool ok = m && m->enum_kind == kind;
  if (ok && !allowed.empty()) {
    ok = false;
    for (const std::string& a : allowed) ok |= a == m->value;
  }
  if (ok) return m->value;
  std::string list;
  for (size_t i = 0; i < allowed.size(); ++i)
    list += (i ? (i + 1 == allowed.size() ? " or " : ", ") : "") + std::string(spelled_prefix) + allowed[i];
  cx.fail(name, quoted(name) + " must be " +
                    (list.empty() ? "a " + std::string(spelled_prefix) + "* member" : list) + ", got " +
                    describe(e));
  return std::nullopt;
}

std::optional<Memory> need_memory(const ContractContext& cx, std::string_view name) {
  auto v = need_enum(cx, name, EnumKind::Memory, {"Vec", "Mat", "Left", "Right", "Acc", "Bias"}, "pl.Mem.");
  if (!v) return std::nullopt;
  return memory_from_name(*v);
}

const std::vector<Expr>* need_int_list(const ContractContext& cx, std::string_view name, int rank,
                                       std::string_view rank_of) {
  Expr e = cx.arg(name);
  const std::vector<Expr>* l = as_list(e);
  std::string expect = "a list of " + (rank >= 0 ? std::to_string(rank) + " " : std::string()) + "integers" +
                       (rank >= 0 && !rank_of.empty() ? " (the rank of " + quoted(rank_of) + ")" : "");
  if (!l || (rank >= 0 && static_cast<int>(l->size()) != rank)) {
    cx.fail(name, quoted(name) + " must be " + expect + ", got " + describe(e));
    return nullptr;
  }
  if (l->size() > kMaxDims) {
    cx.fail(name, quoted(name) + " has " + std::to_string(l->size()) +
                      " entries; shapes and offsets have at most " + std::to_string(kMaxDims));
    return nullptr;
  }
  for (const Expr& x : *l) {
    const TypeNode* t = x ? x->type.get() : nullptr;
    if (t && t->kind == TypeKind::Scalar && dtype_is_int(t->dtype)) continue;
    cx.fail(name, quoted(name) + " must be " + expect + ", but an element is " + describe(x));
    return nullptr;
  }
  return l;
}

std::optional<std::vector<long long>> const_values(const std::vector<Expr>& elements) {
  std::vector<long long> out;
  for (const Expr& e : elements) {
    auto v = as_const_int(e);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

bool check_positive_dims(const ContractContext& cx, std::string_view name, const std::vector<Expr>& dims) {
  // Sizes in bytes are 64-bit: 2^60 elements of the widest dtype (8 bytes) is the most that fits.
  constexpr long long kMaxElements = 1LL << 60;
  long long elements = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    auto v = as_const_int(dims[i]);
    if (!v) continue;
    if (*v <= 0) {
      cx.fail(name, quoted(name) + " must have positive dims, but dim " + std::to_string(i) + " is " +
                        std::to_string(*v));
      return false;
    }
    if (__builtin_mul_overflow(elements, *v, &elements) || elements > kMaxElements) {
      cx.fail(name, quoted(name) + " has more than 2^60 elements; its size in bytes does not fit in 64 bits");
      return false;
    }
  }
  return true;
}

bool check_in_bounds(const ContractContext& cx, std::string_view region_operand,
                     const std::vector<Expr>& offsets, const std::vector<Expr>& shape,
                     const std::vector<Expr>& bounds, std::string_view tensor_name) {
  size_t n = std::min({offsets.size(), shape.size(), bounds.size()});
  for (size_t i = 0; i < n; ++i) {
    auto o = as_const_int(offsets[i]), s = as_const_int(shape[i]), b = as_const_int(bounds[i]);
    if (o && *o < 0) {
      cx.fail(region_operand, "offset " + std::to_string(*o) + " in dim " + std::to_string(i) + " of " +
                                  quoted(tensor_name) + " is negative");
      return false;
    }
    long long end = 0;
    bool overflow = o && s && __builtin_add_overflow(*o, *s, &end);
    if (!o || !s || !b || (!overflow && end <= *b)) continue;
    std::string end_text = overflow ? std::to_string(*o) + " + " + std::to_string(*s) : std::to_string(end);
    cx.fail(region_operand, "region [" + std::to_string(*o) + ", " + end_text + ") in dim " +
                                std::to_string(i) + " is out of bounds of " + quoted(tensor_name) +
                                " (size " + std::to_string(*b) + ")");
    return false;
  }
  return true;
}

const TypeNode* need_signal(const ContractContext& cx, std::string_view name) {
  const TypeNode* t = type_of(cx, name);
  if (t && t->kind == TypeKind::DistTensor && t->dtype == DType::INT32) return t;
  cx.fail(name, quoted(name) +
                    " must be a pld.DistributedTensor of pl.INT32 (a signal array in a window), got " +
                    describe(cx.arg(name)));
  return nullptr;
}

// Atomic accumulation in GM is supported for the element types the Ascend MTE3 store can combine
// (set_atomic_f32/f16/bf16/s32/s16/s8), the list PyPTO's store, assemble, put and remote_store accept.
bool check_atomic(const ContractContext& cx, DType dt) {
  if (omitted(cx, "atomic")) return true;
  auto v = need_enum(cx, "atomic", EnumKind::AtomicType, {"None_", "Add"}, "pld.AtomicType.");
  if (!v) return false;
  const bool addable = dt == DType::FP32 || dt == DType::FP16 || dt == DType::BF16 || dt == DType::INT32 ||
                       dt == DType::INT16 || dt == DType::INT8;
  if (*v == "Add" && !addable) {
    cx.fail("atomic",
            "'atomic=pld.AtomicType.Add' supports pl.FP32, pl.FP16, pl.BF16, pl.INT32, pl.INT16 and "
            "pl.INT8, got " +
                dtype_str(dt));
    return false;
  }
  return true;
}

Type tensor_keeping_valid(const std::vector<Expr>& shape, DType dtype, const std::vector<Expr>& valid) {
  auto out = std::make_shared<TypeNode>(*tensor_type(shape, dtype));
  out->valid_shape = valid;
  return out;
}

std::vector<Expr> common_valid(const TypeNode* a, const TypeNode* b) {
  if (a->valid_shape.size() != b->valid_shape.size()) return {};
  for (size_t i = 0; i < a->valid_shape.size(); ++i)
    if (print_expr(a->valid_shape[i]) != print_expr(b->valid_shape[i])) return {};
  return a->valid_shape;
}

Expr const_dim(long long v) {
  auto e = std::make_shared<IntImm>();
  e->value = v;
  e->type = scalar_type(DType::INT64);
  return e;
}

Expr arith(BinaryOpKind op, Expr a, Expr b) {
  auto n = std::make_shared<Binary>();
  n->op = op;
  n->lhs = std::move(a);
  n->rhs = std::move(b);
  n->type = scalar_type(DType::INT64);
  return n;
}

std::string mem_str(Memory m) {
  return "pl.Mem." + std::string(memory_name(m));
}

const TypeNode* need_tile_in(const ContractContext& cx, std::string_view name, Memory mem,
                             const std::string& fix) {
  const TypeNode* t = need_tile(cx, name);
  if (!t) return nullptr;
  if (t->memory == mem) return t;
  cx.fail(name, quoted(name) + " must be a tile in " + mem_str(mem) + ", got " +
                    type_str(cx.arg(name)->type) + (fix.empty() ? "" : "; " + fix));
  return nullptr;
}

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

bool need_cube_input(const ContractContext& cx, std::string_view name, const TypeNode* t) {
  if (t->dtype == DType::FP16 || t->dtype == DType::BF16 || t->dtype == DType::FP32 ||
      t->dtype == DType::INT8)
    return true;
  cx.fail(name, quoted(name) +
                    " must have dtype pl.INT8, pl.FP16, pl.BF16 or pl.FP32 (the cube unit's inputs), got " +
                    dtype_str(t->dtype) + "; use pl.cast first");
  return false;
}

}  // namespace ptodist::ir::contracts
