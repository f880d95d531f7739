// Region checks of the transfer ops.
#include "transfer_region.h"

#include "ptodist/ir/functor.h"

namespace ptodist::ir::contracts {

const TypeNode* need_gm_tensor(const ContractContext& cx, std::string_view name) {
  const TypeNode* t = type_of(cx, name);
  if (t && t->kind == TypeKind::Tile) {
    cx.fail(name, quoted(name) + " must be a tensor in GM, got a computed tile " +
                      type_str(cx.arg(name)->type) + "; store it to a tensor first");
    return nullptr;
  }
  return need_tensor_like(cx, name);
}

bool check_transfer_dtypes(const ContractContext& cx, const TypeNode* dst, const TypeNode* src) {
  if (dst->dtype == src->dtype) return true;
  cx.fail("src", "'src' dtype " + dtype_str(src->dtype) + " must match 'dst' dtype " + dtype_str(dst->dtype) +
                     " (transfers copy bytes and do not convert)");
  return false;
}

namespace {

bool region_lists(const ContractContext& cx, TransferRegion& r, int rank) {
  const std::vector<Expr>* d = need_int_list(cx, "dst_offsets", rank, "dst");
  if (!d) return false;
  const std::vector<Expr>* s = need_int_list(cx, "src_offsets", rank, "src");
  if (!s) return false;
  const std::vector<Expr>* shape = need_int_list(cx, "shape", rank, "dst");
  if (!shape || !check_positive_dims(cx, "shape", *shape)) return false;
  r.dst_offsets = *d;
  r.src_offsets = *s;
  r.shape = *shape;
  r.explicit_region = true;
  return true;
}

}  // namespace

std::optional<TransferRegion> check_transfer_region(const ContractContext& cx, const TypeNode* dst,
                                                    const TypeNode* src) {
  if (dst->shape.size() != src->shape.size()) {
    cx.fail("src", "'src' and 'dst' must have the same rank, got " + std::to_string(src->shape.size()) +
                       "-D 'src' " + type_str(cx.arg("src")->type) + " and " +
                       std::to_string(dst->shape.size()) + "-D 'dst' " + type_str(cx.arg("dst")->type));
    return std::nullopt;
  }
  int rank = static_cast<int>(dst->shape.size());
  bool has[3] = {!omitted(cx, "dst_offsets"), !omitted(cx, "src_offsets"), !omitted(cx, "shape")};
  TransferRegion r;
  if (has[0] || has[1] || has[2]) {
    if (!(has[0] && has[1] && has[2])) {
      const char* missing = !has[0] ? "dst_offsets" : !has[1] ? "src_offsets" : "shape";
      const char* present = has[0] ? "dst_offsets" : has[1] ? "src_offsets" : "shape";
      cx.fail(present, "'dst_offsets', 'src_offsets' and 'shape' must be given together or not at all; '" +
                           std::string(missing) + "' is missing");
      return std::nullopt;
    }
    if (!region_lists(cx, r, rank)) return std::nullopt;
    if (!check_in_bounds(cx, "dst_offsets", r.dst_offsets, r.shape, dst->shape, "dst") ||
        !check_in_bounds(cx, "src_offsets", r.src_offsets, r.shape, src->shape, "src"))
      return std::nullopt;
    return r;
  }
  for (int i = 0; i < rank; ++i) {
    auto a = as_const_int(src->shape[i]), b = as_const_int(dst->shape[i]);
    if (!a || !b || *a == *b) continue;
    cx.fail("src", "'src' shape " + shape_str(src->shape) + " must equal 'dst' shape " +
                       shape_str(dst->shape) +
                       " when no region is given; pass dst_offsets, src_offsets and shape to copy a part");
    return std::nullopt;
  }
  r.shape = src->shape;
  return r;
}

namespace {

struct RuntimeFinder : Walker {
  const ContractContext& cx;
  bool found = false;
  explicit RuntimeFinder(const ContractContext& c) : cx(c) {}

  void visit_expr(const Expr& e) override {
    if (!e || found) return;
    if (e->isa<Dynamic>() || e->isa<OpCall>() || e->isa<FuncCall>() || e->isa<Subscript>()) {
      found = true;
      return;
    }
    if (auto v = e->as<VarRef>(); v && cx.scope.compile_time_vars) {
      bool known = false;
      for (const Var& c : *cx.scope.compile_time_vars)
        known |= c == v->var || (c && v->var && c->id == v->var->id);
      found = !known;
      return;
    }
    Walker::visit_expr(e);
  }
};

// The region's single long dim and contiguity inside one tensor.
bool contiguous_in(const ContractContext& cx, const TransferRegion& r, const std::vector<long long>& region,
                   const TypeNode* t, std::string_view operand, std::string_view tensor) {
  size_t k = 0;
  while (k < region.size() && region[k] == 1) ++k;
  for (size_t j = k + 1; j < region.size(); ++j) {
    auto dim = as_const_int(t->shape[j]);
    if (!dim || *dim == 1) continue;  // symbolic: rechecked after specialize
    cx.fail(operand, "the region " + shape_str(r.shape) + " is not flat-contiguous in " + quoted(tensor) +
                         " " + shape_str(t->shape) + ": every dim after its long dim " + std::to_string(k) +
                         " must have size 1 in the tensor, so that the bytes form one run");
    return false;
  }
  return true;
}

}  // namespace

bool is_runtime_dim(const ContractContext& cx, const Expr& dim) {
  if (as_const_int(dim)) return false;
  RuntimeFinder f(cx);
  f.visit_expr(dim);
  return f.found;
}

bool check_dma_region(const ContractContext& cx, const TransferRegion& r, const TypeNode* dst,
                      const TypeNode* src) {
  std::string_view where = r.explicit_region ? "shape" : "src";
  for (size_t i = 0; i < r.shape.size(); ++i) {
    if (!is_runtime_dim(cx, r.shape[i])) continue;
    cx.fail(where, "the region must be static, but dim " + std::to_string(i) + " of " + shape_str(r.shape) +
                       " is only known at run time; the DMA descriptor is built at compile time");
    return false;
  }
  auto dims = const_values(r.shape);
  if (!dims || !r.explicit_region) return true;  // symbolic: rechecked after specialize
  int long_dims = 0;
  for (long long d : *dims) long_dims += d > 1 ? 1 : 0;
  if (long_dims > 1) {
    cx.fail("shape", "the region " + shape_str(r.shape) +
                         " must be logically 1-D (at most one dim > 1), such as [1, N]; split it into one "
                         "put_async per row");
    return false;
  }
  return contiguous_in(cx, r, *dims, dst, "dst_offsets", "dst") &&
         contiguous_in(cx, r, *dims, src, "src_offsets", "src");
}

}  // namespace ptodist::ir::contracts
