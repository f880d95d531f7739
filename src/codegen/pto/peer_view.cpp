// Views of GM tensors: local partition views, and peer views computed inline from the CommContext (the
// peer's window base minus ours, in elements, added to our pointer), so the assembler sees every
// pto.addptr feed a pto.make_tensor_view in the same function.
#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

namespace {

// CommContext layout of the Ascend runtime, in 8-byte slots (pto.load_scalar indexes i64 words):
// rankId (u32) at byte 16 and rankNum (u32) at byte 20 share slot 2; windowsIn[rank] (u64 base
// addresses) start at byte 32, slot 4. Source: PyPTO comm_layout.h static_asserts on CommContext.
constexpr long long kRankPairSlot = 2;
constexpr long long kWindowsInSlot = 4;

std::string join_ssa(const std::vector<std::string>& xs) {
  std::string s;
  for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + xs[i];
  return s;
}

}  // namespace

const TensorRef* FunctionEmitter::tensor_of(const Expr& e, const OpCall& call, const char* operand) {
  if (auto ref = e ? e->as<VarRef>() : nullptr) {
    auto it = tensors_.find(ref->var->id);
    if (it != tensors_.end()) return &it->second;
  }
  fail(e ? e->span : call.span,
       call.op->spelling + ": " + operand +
           " must name a tensor parameter of the kernel (or a tensor a store returned)");
  return nullptr;
}

Value FunctionEmitter::partition(const Value& view, DType dtype, const std::vector<Value>& offsets,
                                 const std::vector<long long>& sizes, const std::string& hint) {
  RegionExtent extent{sizes, {}};
  for (long long d : sizes) extent.sizes.push_back(constant_int(d, "index").ssa);
  return partition(view, dtype, offsets, extent, hint);
}

Value FunctionEmitter::partition(const Value& view, DType dtype, const std::vector<Value>& offsets,
                                 const RegionExtent& extent, const std::string& hint) {
  std::vector<std::string> offs;
  for (size_t i = 0; i < extent.dims.size(); ++i)
    offs.push_back(i < offsets.size() && offsets[i].valid() ? offsets[i].ssa : constant_int(0, "index").ssa);
  Value pv{fresh(hint), partition_type(extent.dims, dtype)};
  line(pv.ssa + " = pto.partition_view " + view.ssa + ", offsets = [" + join_ssa(offs) + "], sizes = [" +
       join_ssa(extent.sizes) + "] : " + view.type + " -> " + pv.type);
  return pv;
}

std::vector<Value> FunctionEmitter::region_offsets(const Expr& offsets, const TensorRef& t,
                                                   const OpCall& call) {
  if (!offsets || offsets->isa<NoneImm>()) return std::vector<Value>(t.type->shape.size());
  std::vector<Value> v = emit_index_list(offsets, "offsets", call);
  if (!failed_ && v.size() != t.type->shape.size())
    fail(offsets->span, call.op->spelling + ": offsets have " + std::to_string(v.size()) + " entries but '" +
                            t.name + "' has rank " + std::to_string(t.type->shape.size()));
  return v;
}

// A region whose every size must be known now (loads, remote accesses, invalidates, DMA descriptors):
// region_extent's sizes, each checked to be a constant.
std::vector<long long> FunctionEmitter::region_sizes(const Expr& shape, const TensorRef& t,
                                                     const OpCall& call) {
  RegionExtent extent = region_extent(shape, t, call);
  if (failed_) return {};
  bool ok = extent.dims.size() == t.type->shape.size();
  for (long long d : extent.dims) ok = ok && d > 0;
  if (!ok)
    fail(shape && !shape->isa<NoneImm>() ? shape->span : call.span,
         call.op->spelling + ": the region of '" + t.name + "' needs a constant shape of rank " +
             std::to_string(t.type->shape.size()) + " (run specialize)");
  return extent.dims;
}

RegionExtent FunctionEmitter::region_extent(const Expr& shape, const TensorRef& t, const OpCall& call) {
  RegionExtent extent;
  if (!shape || shape->isa<NoneImm>()) {
    extent.dims = dims_of(t.type);
    extent.sizes = t.dims;
    return extent;
  }
  const std::vector<Expr>* elems = as_list(shape);
  if (!elems || elems->size() != t.type->shape.size()) {
    fail(shape->span, call.op->spelling + ": the region of '" + t.name + "' needs a shape of rank " +
                          std::to_string(t.type->shape.size()));
    return extent;
  }
  for (const Expr& d : *elems) {
    auto c = as_const_int(d);
    if (c && *c <= 0) {
      fail(d->span, call.op->spelling + ": a region size must be positive, got " + std::to_string(*c));
      return extent;
    }
    Value v = emit_scalar_as(d, "index");
    extent.dims.push_back(c.value_or(-1));
    extent.sizes.push_back(v.ssa);
  }
  return extent;
}

Value FunctionEmitter::load_rank_pair(const std::string& ctx) {
  Value pair{fresh("rank_pair"), "i64"};
  line(pair.ssa + " = pto.load_scalar " + ctx + "[" + constant_int(kRankPairSlot, "index").ssa +
       "] : !pto.ptr<i64> -> i64");
  return pair;
}

Value FunctionEmitter::peer_view(const TensorRef& t, const Expr& peer) {
  const std::string& n = t.name;
  std::string ptr_type = "!pto.ptr<" + element_type(t.type->dtype) + ">";
  Value peer_idx = emit_scalar_as(peer, "index");
  if (!peer_idx.valid()) return {};
  // Our rank: the low half of the (rankId, rankNum) word.
  Value pair = load_rank_pair(t.ctx);
  std::string rank = fresh(n + "_rank"), rank_idx = fresh(n + "_rank_idx");
  line(rank + " = arith.trunci " + pair.ssa + " : i64 to i32");
  line(rank_idx + " = arith.index_cast " + rank + " : i32 to index");
  // Window bases of our rank and of the peer.
  std::string windows = constant_int(kWindowsInSlot, "index").ssa;
  std::string local_slot = fresh(n + "_local_slot"), local_base = fresh(n + "_local_base");
  line(local_slot + " = arith.addi " + windows + ", " + rank_idx + " : index");
  line(local_base + " = pto.load_scalar " + t.ctx + "[" + local_slot + "] : !pto.ptr<i64> -> i64");
  std::string peer_slot = fresh(n + "_peer_slot"), peer_base = fresh(n + "_peer_base");
  line(peer_slot + " = arith.addi " + windows + ", " + peer_idx.ssa + " : index");
  line(peer_base + " = pto.load_scalar " + t.ctx + "[" + peer_slot + "] : !pto.ptr<i64> -> i64");
  // pto.addptr counts elements, not bytes.
  std::string delta_bytes = fresh(n + "_delta_bytes"), delta_i64 = fresh(n + "_delta_elems_i64");
  std::string delta = fresh(n + "_delta_elems");
  line(delta_bytes + " = arith.subi " + peer_base + ", " + local_base + " : i64");
  line(delta_i64 + " = arith.divsi " + delta_bytes + ", " +
       constant_int(dtype_bytes(t.type->dtype), "i64").ssa + " : i64");
  line(delta + " = arith.index_cast " + delta_i64 + " : i64 to index");
  std::string peer_ptr = fresh(n + "_peer_ptr");
  line(peer_ptr + " = pto.addptr " + t.ptr + ", " + delta + " : " + ptr_type + " -> " + ptr_type);
  Value view{fresh(n + "_peer_view"), t.view.type};
  line(view.ssa + " = pto.make_tensor_view " + peer_ptr + ", shape = [" + join_ssa(t.dims) +
       "], strides = [" + join_ssa(t.strides) + "] {layout = #pto.layout<nd>} : " + view.type);
  return view;
}

}  // namespace ptodist::codegen::pto
