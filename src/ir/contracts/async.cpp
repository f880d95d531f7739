// Contracts of the asynchronous transfers: the DMA session, put_async/get_async, waiting and testing
// events, and the async prefetch that shares the session's DMA channel group.
#include "transfer_region.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// sync_id selects one of the chip's DMA channel groups (8 on A2/A3; ChipProfile::dma_channel_groups).
constexpr long long kChannelGroups = 8;

bool need_session(const ContractContext& cx, std::string_view name) {
  return need_kind(cx, name, TypeKind::AsyncSession, "a pld.AsyncSession from pld.system.async_session") !=
         nullptr;
}

// The operands put_async and get_async share, once dst and src are known.
Type async_transfer(const ContractContext& cx, const TypeNode* dst, const TypeNode* src) {
  if (!need_int_scalar(cx, "peer") || !need_session(cx, "session")) return nullptr;
  if (!check_transfer_dtypes(cx, dst, src)) return nullptr;
  auto r = check_transfer_region(cx, dst, src);
  if (!r || !check_dma_region(cx, *r, dst, src)) return nullptr;
  return simple_type(TypeKind::AsyncEvent);
}

}  // namespace

Type check_AsyncSession(const ContractContext& cx) {
  if (cx.scope.function_kind == FunctionKind::AIC)
    return cx.fail("",
                   "not allowed in an AIC (cube) kernel '" + cx.scope.function_name +
                       "'; async sessions use the vector core's scratch in UB: use an InCore or AIV kernel");
  if (!omitted(cx, "sync_id")) {
    if (!need_int_scalar(cx, "sync_id")) return nullptr;
    auto id = as_const_int(cx.arg("sync_id"));
    if (id && (*id < 0 || *id >= kChannelGroups))
      return cx.fail("sync_id", "'sync_id' must be in [0, " + std::to_string(kChannelGroups - 1) +
                                    "] (one of the chip's DMA channel groups), got " + std::to_string(*id));
  }
  if (!omitted(cx, "block_bytes")) {
    if (!need_int_scalar(cx, "block_bytes")) return nullptr;
    auto b = as_const_int(cx.arg("block_bytes"));
    if (b && *b <= 0)
      return cx.fail("block_bytes", "'block_bytes' must be positive, got " + std::to_string(*b));
  }
  return simple_type(TypeKind::AsyncSession);
}

Type check_PutAsync(const ContractContext& cx) {
  if (!omitted(cx, "atomic"))
    return cx.fail("atomic",
                   "does not take 'atomic': the DMA engine writes plainly; use pld.tensor.put(..., "
                   "atomic=pld.AtomicType.Add) for an atomic accumulate");
  const TypeNode* dst =
      need_dist_tensor(cx, "dst", "window-backed, so the DMA engine can write the peer's copy");
  if (!dst) return nullptr;
  const TypeNode* src = need_gm_tensor(cx, "src");
  if (!src) return nullptr;
  return async_transfer(cx, dst, src);
}

Type check_GetAsync(const ContractContext& cx) {
  const TypeNode* src =
      need_dist_tensor(cx, "src", "window-backed, so the DMA engine can read the peer's copy");
  if (!src) return nullptr;
  const TypeNode* dst = need_gm_tensor(cx, "dst");
  if (!dst) return nullptr;
  return async_transfer(cx, dst, src);
}

Type check_WaitAsyncEvent(const ContractContext& cx) {
  if (!need_kind(cx, "event", TypeKind::AsyncEvent,
                 "a pld.AsyncEvent from pld.tensor.put_async or get_async") ||
      !need_session(cx, "session"))
    return nullptr;
  return simple_type(TypeKind::None);
}

Type check_TestAsyncEvent(const ContractContext& cx) {
  if (!need_kind(cx, "event", TypeKind::AsyncEvent,
                 "a pld.AsyncEvent from pld.tensor.put_async or get_async") ||
      !need_session(cx, "session"))
    return nullptr;
  return scalar_type(DType::BOOL);
}

Type check_PrefetchAsync(const ContractContext& cx) {
  const TypeNode* src = need_gm_tensor(cx, "src");
  if (!src) return nullptr;
  bool has_offsets = !omitted(cx, "offsets"), has_shape = !omitted(cx, "shape");
  if (has_offsets != has_shape)
    return cx.fail(has_offsets ? "offsets" : "shape",
                   "'offsets' and 'shape' must be given together or not at all");
  if (!has_offsets) return simple_type(TypeKind::None);
  int rank = static_cast<int>(src->shape.size());
  const std::vector<Expr>* offsets = need_int_list(cx, "offsets", rank, "src");
  const std::vector<Expr>* shape = offsets ? need_int_list(cx, "shape", rank, "src") : nullptr;
  if (!shape || !check_positive_dims(cx, "shape", *shape) ||
      !check_in_bounds(cx, "shape", *offsets, *shape, src->shape, "src"))
    return nullptr;
  return simple_type(TypeKind::None);
}

}  // namespace ptodist::ir
