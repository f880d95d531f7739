// The GM regions ops access, for the async-event dataflow's send-buffer check: static boxes of
// elements of a tensor variable, compared by overlap.
#include "async_events_buffers.h"

#include <algorithm>

#include "ptodist/ir/op_table.h"

namespace ptodist::analysis {

using namespace ir;

namespace {

std::optional<std::vector<long long>> const_ints(const Expr& e) {
  std::vector<long long> out;
  if (!e) return std::nullopt;
  const auto* l = e->as<List>();
  if (!l) {
    auto v = as_const_int(e);
    if (!v) return std::nullopt;
    return std::vector<long long>{*v};
  }
  for (const Expr& x : l->elements) {
    auto v = as_const_int(x);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

bool absent(const Expr& e) {
  return !e || e->isa<NoneImm>();
}

// `shape` aligned to `rank` dims: leading 1s added or dropped (a [1, N] tile stored into [N]).
std::optional<std::vector<long long>> fit_rank(std::vector<long long> shape, size_t rank) {
  while (shape.size() < rank) shape.insert(shape.begin(), 1);
  while (shape.size() > rank && shape.front() == 1) shape.erase(shape.begin());
  if (shape.size() != rank) return std::nullopt;
  return shape;
}

// The region [offsets, offsets + shape) of the tensor `t`; offsets absent: from 0; shape absent: the
// whole tensor from the offsets.
GmRegion region_of(const Expr& t, const Expr& offsets, std::optional<std::vector<long long>> shape,
                   const RootOf& root) {
  const auto* ref = t ? t->as<VarRef>() : nullptr;
  if (!ref || !t->type || !t->type->is_tensor_like()) return {};
  auto full = t->type->static_shape();
  if (!full) return {};
  std::vector<long long> lo(full->size(), 0);
  if (!absent(offsets)) {
    auto o = const_ints(offsets);
    if (!o || o->size() != full->size()) return {};
    lo = *o;
  }
  std::vector<long long> extent = *full;
  if (shape) {
    auto fitted = fit_rank(*shape, full->size());
    if (!fitted) return {};
    extent = *fitted;
  } else if (!absent(offsets)) {
    for (size_t i = 0; i < extent.size(); ++i) extent[i] -= lo[i];
  }
  GmRegion r;
  r.tensor = root(ref->var.get());
  r.lo = lo;
  for (size_t i = 0; i < lo.size(); ++i) r.hi.push_back(lo[i] + extent[i]);
  return r;
}

std::optional<std::vector<long long>> shape_arg(const OpCall& c, std::string_view slot) {
  const Expr& e = c.arg(slot);
  if (absent(e)) return std::nullopt;
  return const_ints(e);
}

// A transfer's region on one side: with a `shape` argument, the box at that side's offsets.
GmRegion transfer_side(const OpCall& c, std::string_view tensor, std::string_view offsets,
                       const RootOf& root) {
  const Expr& shape = c.arg("shape");
  if (absent(shape)) return region_of(c.arg(tensor), nullptr, std::nullopt, root);
  auto s = const_ints(shape);
  if (!s) return {};
  return region_of(c.arg(tensor), c.arg(offsets), s, root);
}

std::optional<std::vector<long long>> tile_shape(const Expr& tile) {
  if (!tile || !tile->type || tile->type->kind != TypeKind::Tile) return std::nullopt;
  return tile->type->static_shape();
}

std::optional<std::vector<long long>> ones(const Expr& offsets) {
  auto o = const_ints(offsets);
  if (!o) return std::nullopt;
  return std::vector<long long>(o->size(), 1);
}

}  // namespace

bool GmRegion::overlaps(const GmRegion& o) const {
  if (!tensor || tensor != o.tensor || lo.size() != o.lo.size()) return false;
  for (size_t i = 0; i < lo.size(); ++i)
    if (std::max(lo[i], o.lo[i]) >= std::min(hi[i], o.hi[i])) return false;
  return true;
}

GmRegion transfer_local_region(const OpCall& c, const RootOf& root) {
  bool put = c.op->id == OpId::PutAsync || c.op->id == OpId::TilePutAsync;
  return put ? transfer_side(c, "src", "src_offsets", root) : transfer_side(c, "dst", "dst_offsets", root);
}

std::vector<GmAccess> gm_accesses(const OpCall& c, const RootOf& root) {
  auto one = [](GmRegion r, bool write) { return std::vector<GmAccess>{GmAccess{std::move(r), write}}; };
  switch (c.op->id) {
    case OpId::Load:
      return one(region_of(c.arg("tensor"), c.arg("offsets"), shape_arg(c, "shapes"), root), false);
    case OpId::Store: {
      auto shape = tile_shape(c.arg("tile"));
      if (!shape) return {};
      return one(region_of(c.arg("output_tensor"), c.arg("offsets"), shape, root), true);
    }
    case OpId::Read:
    case OpId::Write: {
      bool write = c.op->id == OpId::Write;
      auto shape = ones(c.arg("offset"));
      if (!shape) return {};
      return one(region_of(c.arg(write ? "dst" : "src"), c.arg("offset"), shape, root), write);
    }
    case OpId::Put:
    case OpId::TilePut:
    case OpId::PutAsync:
    case OpId::TilePutAsync:
      return one(transfer_side(c, "src", "src_offsets", root), false);
    case OpId::Get:
    case OpId::TileGet:
    case OpId::GetAsync:
    case OpId::TileGetAsync:
      return one(transfer_side(c, "dst", "dst_offsets", root), true);
    case OpId::TensorRemoteStore:
      return one(region_of(c.arg("src"), nullptr, std::nullopt, root), false);
    default:
      return {};
  }
}

}  // namespace ptodist::analysis
