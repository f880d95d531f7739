// Contracts of the synchronous transfers pld.tensor.put / pld.tensor.get (GM to a peer's window and
// back, through staging tiles in UB).
#include "transfer_region.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// chunk_rows / chunk_cols split the region into staging tiles; pipeline=True double-buffers them.
bool check_chunks(const ContractContext& cx, const TransferRegion& r) {
  bool rows = !omitted(cx, "chunk_rows"), cols = !omitted(cx, "chunk_cols");
  bool pipelined = false;
  if (!omitted(cx, "pipeline")) {
    const TypeNode* p = type_of(cx, "pipeline");
    if (!p || p->kind != TypeKind::Scalar || p->dtype != DType::BOOL) {
      cx.fail("pipeline", "'pipeline' must be True or False, got " + describe(cx.arg("pipeline")));
      return false;
    }
    auto b = cx.arg("pipeline")->as<BoolImm>();
    pipelined = b && b->value;
  }
  if (pipelined && !(rows && cols)) {
    cx.fail("pipeline",
            "'pipeline=True' needs both 'chunk_rows' and 'chunk_cols' (the size of each staging tile)");
    return false;
  }
  struct Chunk {
    const char* name;
    bool given;
    int dim_from_end;
  };
  for (Chunk c : {Chunk{"chunk_rows", rows, 2}, Chunk{"chunk_cols", cols, 1}}) {
    if (!c.given) continue;
    if (!need_int_scalar(cx, c.name)) return false;
    auto v = as_const_int(cx.arg(c.name));
    if (!v) continue;
    if (*v <= 0) {
      cx.fail(c.name, quoted(c.name) + " must be positive, got " + std::to_string(*v));
      return false;
    }
    int dim = static_cast<int>(r.shape.size()) - c.dim_from_end;
    if (dim < 0) continue;
    auto extent = as_const_int(r.shape[dim]);
    if (extent && *extent % *v != 0) {
      cx.fail(c.name, quoted(c.name) + " (" + std::to_string(*v) + ") must divide the region's dim " +
                          std::to_string(dim) + " (" + std::to_string(*extent) + ")");
      return false;
    }
  }
  return true;
}

}  // namespace

Type check_Put(const ContractContext& cx) {
  const TypeNode* dst = need_dist_tensor(cx, "dst", "the peer's window is written through it");
  if (!dst || !need_int_scalar(cx, "peer")) return nullptr;
  const TypeNode* src = need_gm_tensor(cx, "src");
  if (!src || !check_transfer_dtypes(cx, dst, src)) return nullptr;
  auto r = check_transfer_region(cx, dst, src);
  if (!r || !check_atomic(cx, dst->dtype) || !check_chunks(cx, *r)) return nullptr;
  return simple_type(TypeKind::None);
}

Type check_Get(const ContractContext& cx) {
  const TypeNode* src = need_dist_tensor(cx, "src", "the peer's window is read through it");
  if (!src || !need_int_scalar(cx, "peer")) return nullptr;
  const TypeNode* dst = need_tensor_like(cx, "dst");
  if (!dst || !check_transfer_dtypes(cx, dst, src)) return nullptr;
  auto r = check_transfer_region(cx, dst, src);
  if (!r || !check_chunks(cx, *r)) return nullptr;
  return simple_type(TypeKind::None);
}

}  // namespace ptodist::ir
