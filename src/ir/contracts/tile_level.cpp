// Contracts of the tile-level transfer ops made by convert-tensor-to-tile: the tensor-level contract
// plus the staging and scratch tiles the conversion planned.
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// A staging tile in UB for put/get; `optional` slots may be empty.
bool need_stage(const ContractContext& cx, std::string_view name, bool optional) {
  if (optional && omitted(cx, name)) return true;
  const TypeNode* t = need_tile(cx, name);
  if (!t) return false;
  if (t->memory == Memory::Vec) return true;
  cx.fail(name, quoted(name) + " must be a staging tile in pl.Mem.Vec, got " + type_str(cx.arg(name)->type));
  return false;
}

// The session's DMA scratch: [1, 256] INT8 in Vec (the DMA engine's completion records live there).
bool need_scratch(const ContractContext& cx, bool optional) {
  if (optional && omitted(cx, "scratch")) return true;
  const TypeNode* t = need_tile(cx, "scratch");
  if (!t) return false;
  auto dims = t->static_shape();
  bool ok = t->memory == Memory::Vec && t->dtype == DType::INT8 &&
            (!dims || (dims->size() == 2 && (*dims)[0] == 1 && (*dims)[1] == 256));
  if (ok) return true;
  cx.fail("scratch", "'scratch' must be pl.Tile[[1, 256], pl.INT8, pl.Mem.Vec], got " +
                         type_str(cx.arg("scratch")->type));
  return false;
}

}  // namespace

Type check_TilePut(const ContractContext& cx) {
  if (!need_stage(cx, "stage", false) || !need_stage(cx, "stage2", true)) return nullptr;
  return check_Put(cx);
}

Type check_TileGet(const ContractContext& cx) {
  if (!need_stage(cx, "stage", false) || !need_stage(cx, "stage2", true)) return nullptr;
  return check_Get(cx);
}

Type check_TilePutAsync(const ContractContext& cx) {
  return check_PutAsync(cx);
}
Type check_TileGetAsync(const ContractContext& cx) {
  return check_GetAsync(cx);
}

Type check_TileAsyncSession(const ContractContext& cx) {
  if (!need_scratch(cx, false)) return nullptr;
  return check_AsyncSession(cx);
}

Type check_TileWaitAsyncEvent(const ContractContext& cx) {
  if (!need_scratch(cx, true)) return nullptr;
  return check_WaitAsyncEvent(cx);
}

Type check_TileTestAsyncEvent(const ContractContext& cx) {
  if (!need_scratch(cx, true)) return nullptr;
  return check_TestAsyncEvent(cx);
}

}  // namespace ptodist::ir
