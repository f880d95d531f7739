// Contracts of GM access (pl.load/store/read/write) and of window memory and rank identity (pld.).
#include <algorithm>

#include "common.h"
#include "ptodist/ir/printer.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// The offsets of a single element must lie inside the tensor where both are constants.
bool check_element_in_bounds(const ContractContext& cx, const std::vector<Expr>& offsets, const TypeNode* t,
                             std::string_view tensor) {
  std::vector<Expr> ones(offsets.size(), const_dim(1));
  return check_in_bounds(cx, "offset", offsets, ones, t->shape, tensor);
}

std::optional<long long> const_bytes(const std::vector<Expr>& shape, DType dt) {
  auto dims = const_values(shape);
  if (!dims) return std::nullopt;
  long long n = dtype_bytes(dt);
  for (long long d : *dims) n *= d;
  return n;
}

// An optional True/False operand (a literal); nullopt after reporting anything else.
std::optional<bool> need_flag(const ContractContext& cx, std::string_view name) {
  if (omitted(cx, name)) return false;
  if (auto b = cx.arg(name)->as<BoolImm>()) return b->value;
  cx.fail(name, quoted(name) + " must be True or False, got " + describe(cx.arg(name)));
  return std::nullopt;
}

}  // namespace

// The tile has `shapes`; only its valid region (valid_shape, cut at the tensor's edge with clamp=True)
// is read, and later stores write only that region (PyPTO's TileView.valid_shape).
Type check_Load(const ContractContext& cx) {
  const TypeNode* t = need_tensor_like(cx, "tensor");
  if (!t) return nullptr;
  int rank = static_cast<int>(t->shape.size());
  const std::vector<Expr>* offsets = need_int_list(cx, "offsets", rank, "tensor");
  if (!offsets) return nullptr;
  const std::vector<Expr>* shape = need_int_list(cx, "shapes", rank, "tensor");
  if (!shape || !check_positive_dims(cx, "shapes", *shape)) return nullptr;
  const std::vector<Expr>* valid = shape;
  if (!omitted(cx, "valid_shape") && !(valid = need_valid_shape(cx, *shape))) return nullptr;
  auto clamp = need_flag(cx, "clamp");
  if (!clamp) return nullptr;
  const char* region = valid == shape ? "shapes" : "valid_shape";
  if (!*clamp && !check_in_bounds(cx, region, *offsets, *valid, t->shape, "tensor")) return nullptr;
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
  auto out = std::make_shared<TypeNode>(*tile_type(*shape, t->dtype, mem));
  if (valid != shape || *clamp) out->valid_shape = *valid;
  // clamp=True cuts the region at the tensor's edge; where that is known now, the type says so.
  for (size_t i = 0; *clamp && i < out->valid_shape.size(); ++i) {
    auto v = as_const_int(out->valid_shape[i]), o = as_const_int((*offsets)[i]),
         d = as_const_int(t->shape[i]);
    if (v && o && d) out->valid_shape[i] = const_dim(std::max(0LL, std::min(*v, *d - *o)));
  }
  return out;
}

namespace {

// `shapes`, PyPTO's ND partition of the destination (pypto-lib writes `shapes=[1, 1]` for a [1, 8]
// tile valid in [1, 1]): the region the store writes. ptodist writes the tile's valid region (after
// leading 1s), so `shapes` must name that region; another partition is not supported yet.
bool check_partition(const ContractContext& cx, const std::vector<Expr>& region, int rank) {
  const std::vector<Expr>* shapes = need_int_list(cx, "shapes", rank, "output_tensor");
  if (!shapes) return false;
  for (size_t i = 0; i < region.size(); ++i) {
    auto a = as_const_int((*shapes)[i]), b = as_const_int(region[i]);
    bool same = a && b ? *a == *b : print_expr((*shapes)[i]) == print_expr(region[i]);
    if (!same) {
      cx.fail("shapes", "'shapes' " + shape_str(*shapes) + " must be the region the tile writes, " +
                            shape_str(region) +
                            " (its valid region after leading 1s); another ND partition is not "
                            "supported by ptodist yet");
      return false;
    }
  }
  return true;
}

// A tile's valid region: its valid_shape, or its shape.
const std::vector<Expr>& valid_region(const TypeNode* tile) {
  return tile->valid_shape.empty() ? tile->shape : tile->valid_shape;
}

}  // namespace

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
  // PyPTO stores a lower-rank tile into the trailing dims of the destination (its FlattenTileNdTo2D
  // partition: leading 1s, then the tile's shape): a [1, SIZE] row into out[0, j, :] of [1, NR, SIZE].
  if (static_cast<int>(tile->shape.size()) > rank)
    return cx.fail("tile", "'tile' rank " + std::to_string(tile->shape.size()) +
                               " is higher than 'output_tensor' rank " + std::to_string(rank));
  if (!check_atomic(cx, tile->dtype)) return nullptr;
  std::vector<Expr> region(rank - tile->shape.size(), const_dim(1));
  for (const Expr& d : valid_region(tile)) region.push_back(d);
  if (!omitted(cx, "shapes") && !check_partition(cx, region, rank)) return nullptr;
  if (!check_in_bounds(cx, "tile", *offsets, region, t->shape, "output_tensor")) return nullptr;
  return cx.arg("output_tensor")->type;
}

// PyPTO's read(src, offset) and write(dst, offset, value): one GM element, `offset` one index per dim.
Type check_Read(const ContractContext& cx) {
  const TypeNode* t = need_tensor_like(cx, "src");
  if (!t) return nullptr;
  const std::vector<Expr>* offsets = need_int_list(cx, "offset", static_cast<int>(t->shape.size()), "src");
  if (!offsets || !check_element_in_bounds(cx, *offsets, t, "src")) return nullptr;
  return scalar_type(t->dtype);
}

Type check_Write(const ContractContext& cx) {
  const TypeNode* t = need_tensor_like(cx, "dst");
  if (!t) return nullptr;
  const std::vector<Expr>* offsets = need_int_list(cx, "offset", static_cast<int>(t->shape.size()), "dst");
  if (!offsets || !check_element_in_bounds(cx, *offsets, t, "dst")) return nullptr;
  if (!need_scalar(cx, "value")) return nullptr;
  // PyPTO's tensor.write takes a value of the tensor's dtype; a float into an integer tensor would be
  // truncated silently, so it is an error here.
  const Type& vt = cx.arg("value")->type;
  if (dtype_is_float(vt->dtype) && !dtype_is_float(t->dtype))
    return cx.fail("value", "'value' is " + type_str(vt) + " but 'dst' holds " + dtype_str(t->dtype) +
                                "; a float is not narrowed to an integer implicitly");
  // PyPTO's tensor.write returns the destination, so `t = pl.write(t, [i, j], v)` chains (and rebinds t).
  return cx.arg("dst")->type;
}

// As in PyPTO, `size` is a byte count (an INT8 buffer, no dtype) or a list of dims with a required
// `dtype=`; `name` only labels the buffer.
Type check_AllocWindowBuffer(const ContractContext& cx) {
  if (!omitted(cx, "name") && !cx.arg("name")->isa<StrImm>())
    return cx.fail("name", "'name' must be a string, got " + describe(cx.arg("name")));
  Expr size = cx.arg("size");
  if (!as_list(size)) {
    if (!need_int_scalar(cx, "size")) return nullptr;
    if (!omitted(cx, "dtype"))
      return cx.fail("dtype", "dtype= is only valid when 'size' is a list of dims, not a byte count");
    if (auto n = as_const_int(size); n && *n <= 0)
      return cx.fail("size", "'size' (a byte count) must be positive, got " + std::to_string(*n));
    return window_buffer_type({size}, DType::INT8);
  }
  if (omitted(cx, "dtype"))
    return cx.fail("size",
                   "a list of dims as 'size' needs dtype= (e.g. dtype=pl.FP32); pass an int for "
                   "a byte count");
  auto dt = need_dtype(cx, "dtype");
  if (!dt) return nullptr;
  const std::vector<Expr>* dims = need_int_list(cx, "size", -1, "");
  if (!dims || !check_positive_dims(cx, "size", *dims)) return nullptr;
  return window_buffer_type(*dims, *dt);
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
  if (!need_dist_tensor(cx, "dist_tensor", "the communication context belongs to a window")) return nullptr;
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
