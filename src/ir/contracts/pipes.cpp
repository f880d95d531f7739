// Contracts of the cross-core pipe ops (a Group's AIC and AIV kernels handing tiles to each other):
// each op on the side of the pipe it belongs to, constant attributes in range, tpop's result typed by
// shape / dtype (the front end fills them from the assignment's annotation).
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// The kernel kind an op must be called in: the AIC side names its peer "aiv" and the AIV side "aic".
bool need_side(const ContractContext& cx, FunctionKind side) {
  if (cx.scope.function_kind == side) return true;
  std::string want = side == FunctionKind::AIC ? "AIC (cube)" : "AIV (vector)";
  cx.fail("", "only allowed in an " + want + " kernel (@pl.function(type=pl.FunctionType." +
                  std::string(function_kind_name(side)) + ")), not in " +
                  std::string(function_kind_name(cx.scope.function_kind)) + " function '" +
                  cx.scope.function_name + "'");
  return false;
}

// An optional integer attribute in [lo, hi]: a compile-time integer (a constant, or an expression of
// module constants that specialize folds), checked for range once it is a literal.
bool const_in_range(const ContractContext& cx, std::string_view name, long long lo, long long hi,
                    bool required) {
  if (omitted(cx, name)) {
    if (!required) return true;
    cx.fail(name, quoted(name) + " is required");
    return false;
  }
  auto v = as_const_int(cx.arg(name));
  if (!v) return need_int_scalar(cx, name);
  if (*v < lo || *v > hi) {
    cx.fail(name, quoted(name) + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                      "], got " + std::to_string(*v));
    return false;
  }
  return true;
}

bool need_string(const ContractContext& cx, std::string_view name) {
  const Expr& e = cx.arg(name);
  if (e && e->isa<StrImm>() && !e->as<StrImm>()->value.empty()) return true;
  cx.fail(name,
          quoted(name) + " must be a non-empty string, got " + (e ? describe(e) : std::string("nothing")));
  return false;
}

constexpr long long kMaxInt32 = 2147483647;

// pto-isa's split codes: 0 none, 1 up-down, 2 left-right; 3 and 4 the same axes over an odd extent,
// which only the cube-to-vector direction has.
bool check_split(const ContractContext& cx, bool to_vector, bool required) {
  return const_in_range(cx, "split", 0, to_vector ? 4 : 2, required);
}

Type initialize_pipe(const ContractContext& cx, FunctionKind side) {
  if (!need_side(cx, side)) return nullptr;
  for (const char* buf : {"c2v_consumer_buf", "v2c_consumer_buf"})
    if (!omitted(cx, buf) && !need_int_scalar(cx, buf)) return nullptr;
  // dir_mask: 1 cube-to-vector, 2 vector-to-cube, 3 both.
  if (!const_in_range(cx, "dir_mask", 1, 3, true) || !const_in_range(cx, "slot_size", 1, kMaxInt32, true) ||
      !const_in_range(cx, "slot_num", 1, kMaxInt32, false) ||
      !const_in_range(cx, "local_slot_num", 1, kMaxInt32, false) ||
      !const_in_range(cx, "id", 0, kMaxInt32, false))
    return nullptr;
  long long slots = omitted(cx, "slot_num") ? -1 : as_const_int(cx.arg("slot_num")).value_or(-1);
  long long local = omitted(cx, "local_slot_num") ? -1 : as_const_int(cx.arg("local_slot_num")).value_or(-1);
  if (slots > 0 && local > slots)
    return cx.fail("local_slot_num", "'local_slot_num' (" + std::to_string(local) +
                                         ") must not exceed 'slot_num' (" + std::to_string(slots) + ")");
  return simple_type(TypeKind::None);
}

Type tpush(const ContractContext& cx, FunctionKind side, bool to_vector) {
  if (!need_side(cx, side)) return nullptr;
  const TypeNode* t = need_tile(cx, "tile");
  if (!t) return nullptr;
  if (!to_vector && t->memory != Memory::Vec)
    return cx.fail("tile", "'tile' must be a Vec tile (the vector kernel pushes from UB), got " +
                               describe(cx.arg("tile")));
  if (to_vector && t->memory != Memory::Acc && t->memory != Memory::Mat)
    return cx.fail("tile",
                   "'tile' must be an Acc or Mat tile (the cube kernel pushes a matmul result), got " +
                       describe(cx.arg("tile")));
  if (!check_split(cx, to_vector, true) || !const_in_range(cx, "id", 0, kMaxInt32, false)) return nullptr;
  if (to_vector && !const_in_range(cx, "lane_stride", 0, kMaxInt32, false)) return nullptr;
  return simple_type(TypeKind::None);
}

Type tpop(const ContractContext& cx, FunctionKind side, Memory into) {
  if (!need_side(cx, side)) return nullptr;
  if (omitted(cx, "shape") || omitted(cx, "dtype"))
    return cx.fail(omitted(cx, "shape") ? "shape" : "dtype",
                   "the popped tile's type is needed: annotate the assignment (x: pl.Tile[[R, C], dtype, "
                   "pl.Mem." +
                       std::string(into == Memory::Vec ? "Vec" : "Mat") +
                       "] = ...) or pass shape= and dtype=");
  const std::vector<Expr>* shape = need_int_list(cx, "shape", -1, "");
  auto dt = shape ? need_dtype(cx, "dtype") : std::nullopt;
  if (!dt || !check_positive_dims(cx, "shape", *shape)) return nullptr;
  if (!check_split(cx, into == Memory::Vec, false) || !const_in_range(cx, "id", 0, kMaxInt32, false))
    return nullptr;
  if (into == Memory::Vec && !const_in_range(cx, "lane_stride", 0, kMaxInt32, false)) return nullptr;
  auto out = std::make_shared<TypeNode>(*tile_type(*shape, *dt, into));
  if (!omitted(cx, "valid_shape")) {
    const std::vector<Expr>* valid = need_valid_shape(cx, *shape, "shape");
    if (!valid) return nullptr;
    out->valid_shape = *valid;
  }
  return out;
}

Type tfree(const ContractContext& cx, FunctionKind side) {
  if (!need_side(cx, side) || !need_tile(cx, "tile")) return nullptr;
  if (!const_in_range(cx, "split", 0, 4, false) || !const_in_range(cx, "id", 0, kMaxInt32, false))
    return nullptr;
  return simple_type(TypeKind::None);
}

}  // namespace

Type check_AicInitializePipe(const ContractContext& cx) {
  return initialize_pipe(cx, FunctionKind::AIC);
}
Type check_AivInitializePipe(const ContractContext& cx) {
  return initialize_pipe(cx, FunctionKind::AIV);
}

// A named slot buffer in the consumer's memory; its INT32 result is the buffer's address.
Type check_ReserveBuffer(const ContractContext& cx) {
  if (cx.scope.function_kind != FunctionKind::AIC && cx.scope.function_kind != FunctionKind::AIV)
    return cx.fail("", "only allowed in an AIC or AIV kernel of a Group");
  if (!need_string(cx, "name") || !const_in_range(cx, "size", 1, kMaxInt32, true) ||
      !const_in_range(cx, "base", -1, kMaxInt32, false))
    return nullptr;
  return scalar_type(DType::INT32);
}

Type check_ImportPeerBuffer(const ContractContext& cx) {
  if (cx.scope.function_kind != FunctionKind::AIC && cx.scope.function_kind != FunctionKind::AIV)
    return cx.fail("", "only allowed in an AIC or AIV kernel of a Group");
  if (!need_string(cx, "name") || !need_string(cx, "peer_func")) return nullptr;
  return scalar_type(DType::INT32);
}

Type check_GetSubblockIdx(const ContractContext&) {
  return scalar_type(DType::INT64);
}

Type check_TpushToAiv(const ContractContext& cx) {
  return tpush(cx, FunctionKind::AIC, true);
}
Type check_TpushToAic(const ContractContext& cx) {
  return tpush(cx, FunctionKind::AIV, false);
}
Type check_TpopFromAic(const ContractContext& cx) {
  return tpop(cx, FunctionKind::AIV, Memory::Vec);
}
Type check_TpopFromAiv(const ContractContext& cx) {
  return tpop(cx, FunctionKind::AIC, Memory::Mat);
}
Type check_TfreeToAic(const ContractContext& cx) {
  return tfree(cx, FunctionKind::AIV);
}
Type check_TfreeToAiv(const ContractContext& cx) {
  return tfree(cx, FunctionKind::AIC);
}

}  // namespace ptodist::ir
