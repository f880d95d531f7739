// Contracts of GM access (pl.load/store/read/write) and of window memory and rank identity (pld.).
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

Expr int_dim(long long v) {
  auto e = std::make_shared<IntImm>();
  e->value = v;
  e->type = scalar_type(DType::INT64);
  return e;
}

// The offsets of a single element must lie inside the tensor where both are constants.
bool check_element_in_bounds(const ContractContext& cx, const std::vector<Expr>& offsets, const TypeNode* t) {
  std::vector<Expr> ones(offsets.size(), int_dim(1));
  return check_in_bounds(cx, "offsets", offsets, ones, t->shape, "tensor");
}

std::optional<long long> const_bytes(const std::vector<Expr>& shape, DType dt) {
  auto dims = const_values(shape);
  if (!dims) return std::nullopt;
  long long n = dtype_bytes(dt);
  for (long long d : *dims) n *= d;
  return n;
}

}  // namespace

Type check_Load(const ContractContext& cx) {
  const TypeNode* t = need_tensor_like(cx, "tensor");
  if (!t) return nullptr;
  int rank = static_cast<int>(t->shape.size());
  const std::vector<Expr>* offsets = need_int_list(cx, "offsets", rank, "tensor");
  if (!offsets) return nullptr;
  const std::vector<Expr>* shape = need_int_list(cx, "shape", rank, "tensor");
  if (!shape || !check_positive_dims(cx, "shape", *shape)) return nullptr;
  if (!check_in_bounds(cx, "shape", *offsets, *shape, t->shape, "tensor")) return nullptr;
  Memory mem = Memory::Vec;
  if (!omitted(cx, "target_memory")) {
    auto m = need_memory(cx, "target_memory");
    if (!m) return nullptr;
    if (*m != Memory::Vec && *m != Memory::Mat)
      return cx.fail("target_memory",
                     "'target_memory' must be pl.Mem.Vec or pl.Mem.Mat (GM loads land in UB or L1), "
                     "got pl.Mem." +
                         std::string(memory_name(*m)) +
                         "; load into pl.Mem.Mat and use pl.move(t, target_memory=pl.Mem." +
                         std::string(memory_name(*m)) + ")");
    mem = *m;
  }
  return tile_type(*shape, t->dtype, mem);
}

Type check_Store(const ContractContext& cx) {
  const TypeNode* tile = need_tile(cx, "tile");
  if (!tile) return nullptr;
  if (tile->memory != Memory::Vec && tile->memory != Memory::Acc)
    return cx.fail("tile", "'tile' must be in pl.Mem.Vec or pl.Mem.Acc to be stored to GM, got " +
                               type_str(cx.arg("tile")->type) + "; use pl.move(t, target_memory=pl.Mem.Vec)");
  const TypeNode* t = need_tensor_like(cx, "output_tensor");
  if (!t) return nullptr;
  int rank = static_cast<int>(t->shape.size());
  const std::vector<Expr>* offsets = need_int_list(cx, "offsets", rank, "output_tensor");
  if (!offsets) return nullptr;
  if (tile->dtype != t->dtype)
    return cx.fail("tile", "'tile' dtype " + dtype_str(tile->dtype) + " must match 'output_tensor' dtype " +
                               dtype_str(t->dtype) + "; use pl.cast first");
  if (static_cast<int>(tile->shape.size()) != rank)
    return cx.fail("tile", "'tile' rank " + std::to_string(tile->shape.size()) +
                               " must match 'output_tensor' rank " + std::to_string(rank));
  if (!check_in_bounds(cx, "tile", *offsets, tile->shape, t->shape, "output_tensor")) return nullptr;
  return cx.arg("output_tensor")->type;
}

Type check_Read(const ContractContext& cx) {
  const TypeNode* t = need_tensor_like(cx, "tensor");
  if (!t) return nullptr;
  const std::vector<Expr>* offsets =
      need_int_list(cx, "offsets", static_cast<int>(t->shape.size()), "tensor");
  if (!offsets || !check_element_in_bounds(cx, *offsets, t)) return nullptr;
  return scalar_type(t->dtype);
}

Type check_Write(const ContractContext& cx) {
  const TypeNode* t = need_tensor_like(cx, "tensor");
  if (!t) return nullptr;
  const std::vector<Expr>* offsets =
      need_int_list(cx, "offsets", static_cast<int>(t->shape.size()), "tensor");
  if (!offsets || !check_element_in_bounds(cx, *offsets, t)) return nullptr;
  if (!need_scalar(cx, "value")) return nullptr;
  // PyPTO's tensor.write takes a value of the tensor's dtype; a float into an integer tensor would be
  // truncated silently, so it is an error here.
  const Type& vt = cx.arg("value")->type;
  if (dtype_is_float(vt->dtype) && !dtype_is_float(t->dtype))
    return cx.fail("value", "'value' is " + type_str(vt) + " but 'tensor' holds " + dtype_str(t->dtype) +
                                "; a float is not narrowed to an integer implicitly");
  return simple_type(TypeKind::None);
}

// `shape` is a list of dims, or an int byte count (then the buffer is bytes: dtype must be INT8).
Type check_AllocWindowBuffer(const ContractContext& cx) {
  DType dt = DType::INT8;
  if (!omitted(cx, "dtype")) {
    auto d = need_dtype(cx, "dtype");
    if (!d) return nullptr;
    dt = *d;
  }
  Expr shape = cx.arg("shape");
  if (!as_list(shape)) {
    if (!need_int_scalar(cx, "shape")) return nullptr;
    if (dt != DType::INT8)
      return cx.fail("dtype", "a byte count as 'shape' needs dtype=pl.INT8, got " + dtype_str(dt) +
                                  "; pass a list of dims for a typed buffer");
    if (auto n = as_const_int(shape); n && *n <= 0)
      return cx.fail("shape", "'shape' (a byte count) must be positive, got " + std::to_string(*n));
    return window_buffer_type({shape}, dt);
  }
  const std::vector<Expr>* dims = need_int_list(cx, "shape", -1, "");
  if (!dims || !check_positive_dims(cx, "shape", *dims)) return nullptr;
  return window_buffer_type(*dims, dt);
}

Type check_Window(const ContractContext& cx) {
  const TypeNode* buf =
      need_kind(cx, "buf", TypeKind::WindowBuffer, "a window buffer from pld.alloc_window_buffer");
  if (!buf) return nullptr;
  const std::vector<Expr>* shape = need_int_list(cx, "shape", -1, "");
  if (!shape || !check_positive_dims(cx, "shape", *shape)) return nullptr;
  auto dt = need_dtype(cx, "dtype");
  if (!dt) return nullptr;
  auto want = const_bytes(*shape, *dt), have = const_bytes(buf->shape, buf->dtype);
  if (want && have && *want > *have)
    return cx.fail("shape", "the window " + shape_str(*shape) + " of " + dtype_str(*dt) + " needs " +
                                std::to_string(*want) + " bytes but 'buf' holds " + std::to_string(*have));
  return dist_tensor_type(*shape, *dt);
}

Type check_WorldSize(const ContractContext&) {
  return scalar_type(DType::INT64);
}

Type check_GetCommCtx(const ContractContext& cx) {
  if (!need_dist_tensor(cx, "tensor", "the communication context belongs to a window")) return nullptr;
  return simple_type(TypeKind::CommCtx);
}

Type check_Rank(const ContractContext& cx) {
  if (!need_kind(cx, "ctx", TypeKind::CommCtx, "a pld.CommCtx from pld.get_comm_ctx")) return nullptr;
  return scalar_type(DType::INT64);
}

Type check_NRanks(const ContractContext& cx) {
  if (!need_kind(cx, "ctx", TypeKind::CommCtx, "a pld.CommCtx from pld.get_comm_ctx")) return nullptr;
  return scalar_type(DType::INT64);
}

}  // namespace ptodist::ir
