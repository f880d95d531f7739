// Synchronous communication in PTO text: signals (tnotify / twait), the fence and cache-invalidate
// markers, tile remote load/store, and the staged put/get (pto.comm.tput / tget between PIPE_ALL barriers,
// then the invalidate of the written region and the GM fence).
#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

namespace {

// A whole-GM invalidate: pl.system.cacheinvalid() without a target.
bool is_invalidate_all(const OpCall* c) {
  return c && c->op->id == OpId::CacheInvalid && (!c->arg("tensor") || c->arg("tensor")->isa<NoneImm>());
}

std::string atomic_attr(const Expr& atomic) {
  return enum_value(atomic, "None_") == "Add" ? "atomic_add" : "atomic_none";
}

}  // namespace

void FunctionEmitter::emit_notify(const CallSite& site) {
  const OpCall& c = site.call;
  const TensorRef* t = tensor_of(c.arg("target"), c, "target");
  if (!t) return;
  if (t->ctx.empty())
    return fail(c.arg("target")->span, c.op->spelling + ": target must be a DistributedTensor");
  Value view = peer_view(*t, c.arg("peer"));
  std::vector<Value> offs = region_offsets(c.arg("offsets"), *t, c);
  Value pv = partition(view, t->type->dtype, offs, std::vector<long long>(t->type->shape.size(), 1),
                       t->name + "_peer");
  std::string ty = value_type(t->type->dtype);
  Value v = emit_scalar_as(c.arg("value"), ty);
  if (failed_) return;
  std::string op = enum_value(c.arg("op"), "AtomicAdd") == "Set" ? "set" : "atomic_add";
  barrier_all();  // the writes this signal publishes must have left the core's pipes
  line("pto.comm.tnotify(" + pv.ssa + ", " + v.ssa + ") {notifyOp = #pto<notify_op " + op + ">} : (" +
       pv.type + ", " + ty + ")");
}

void FunctionEmitter::emit_wait(const CallSite& site) {
  const OpCall& c = site.call;
  const TensorRef* t = tensor_of(c.arg("signal"), c, "signal");
  if (!t) return;
  std::vector<Value> offs = region_offsets(c.arg("offsets"), *t, c);
  Value pv = partition(t->view, t->type->dtype, offs, std::vector<long long>(t->type->shape.size(), 1),
                       t->name + "_local");
  std::string ty = value_type(t->type->dtype);
  Value v = emit_scalar_as(c.arg("expected"), ty);
  if (failed_) return;
  std::string cmp = enum_value(c.arg("cmp"), "Eq") == "Ge" ? "ge" : "eq";
  line("pto.comm.twait(" + pv.ssa + ", " + v.ssa + ") {cmp = #pto<wait_cmp " + cmp + ">} : (" + pv.type +
       ", " + ty + ")");
  // Consume side: later cacheable reads must not hit lines cached before the peer's write landed. A run of
  // waits shares one invalidate, the one the fence pass placed after the run when it did.
  const OpCall* next = site.next_call();
  if (!(next && next->op->id == OpId::Wait) && !is_invalidate_all(next))
    line("pto.cmo.cacheinvalid all #pto.address_space<gm>");
}

// PyPTO's deferred completion: no twait; the kernel hands the runtime adapter its raw dispatch
// arguments, the signal's base pointer, the cell's flat element offset (-1 when a coordinate is out of
// bounds, which the adapter rejects) and the threshold, and returns.
void FunctionEmitter::emit_defer_wait(const CallSite& site) {
  const OpCall& c = site.call;
  const TensorRef* t = tensor_of(c.arg("signal"), c, "signal");
  if (!t) return;
  std::vector<Value> offs = region_offsets(c.arg("offsets"), *t, c);
  if (failed_) return;
  Value zero = constant_int(0, "index");
  std::string flat = zero.ssa, oob;
  for (size_t i = 0; i < offs.size(); ++i) {
    std::string neg = fresh("neg"), past = fresh("past"), out = fresh("oob"), term = fresh("term"),
                sum = fresh("flat");
    line(neg + " = arith.cmpi slt, " + offs[i].ssa + ", " + zero.ssa + " : index");
    line(past + " = arith.cmpi sge, " + offs[i].ssa + ", " + t->dims[i] + " : index");
    line(out + " = arith.ori " + neg + ", " + past + " : i1");
    if (!oob.empty()) {
      std::string both = fresh("oob");
      line(both + " = arith.ori " + oob + ", " + out + " : i1");
      out = both;
    }
    oob = out;
    line(term + " = arith.muli " + offs[i].ssa + ", " + t->strides[i] + " : index");
    line(sum + " = arith.addi " + flat + ", " + term + " : index");
    flat = sum;
  }
  Value invalid = constant_int(-1, "index");
  std::string checked = fresh("cell"), cell64 = fresh("cell_i64");
  line(checked + " = arith.select " + oob + ", " + invalid.ssa + ", " + flat + " : index");
  line(cell64 + " = arith.index_cast " + checked + " : index to i64");
  Value expected = emit_scalar_as(c.arg("expected"), "i64");
  if (failed_) return;
  line("func.call @" + std::string(kDeferredAdapter) + "(" + raw_args_ + ", " + t->ptr + ", " + cell64 +
       ", " + expected.ssa + ") : (" + kDeferredAdapterArgs + ") -> ()");
}

void FunctionEmitter::emit_cache_invalid(const CallSite& site) {
  const OpCall& c = site.call;
  const Expr& target = c.arg("tensor");
  if (!target || target->isa<NoneImm>()) {
    line("pto.cmo.cacheinvalid all #pto.address_space<gm>");
    return;
  }
  const TensorRef* t = tensor_of(target, c, "tensor");
  if (!t) return;
  std::vector<Value> offs = region_offsets(c.arg("offsets"), *t, c);
  std::vector<long long> sizes = region_sizes(c.arg("shapes"), *t, c);
  if (failed_) return;
  Value pv = partition(t->view, t->type->dtype, offs, sizes, t->name + "_region");
  line("pto.cmo.cacheinvalid " + pv.ssa + " single_cache_line : " + pv.type);
}

void FunctionEmitter::emit_remote_load(const CallSite& site) {
  const OpCall& c = site.call;
  const TensorRef* t = tensor_of(c.arg("target"), c, "target");
  const TileRef* out = result_tile(site);
  if (!t || !out) return;
  if (t->ctx.empty())
    return fail(c.arg("target")->span, c.op->spelling + ": target must be a DistributedTensor");
  Value view = peer_view(*t, c.arg("peer"));
  std::vector<Value> offs = region_offsets(c.arg("offsets"), *t, c);
  std::vector<long long> sizes = region_sizes(c.arg("shape"), *t, c);
  if (failed_) return;
  Value pv = partition(view, t->type->dtype, offs, sizes, t->name + "_peer");
  line("pto.tload ins(" + pv.ssa + " : " + pv.type + ") outs(" + out->ssa + " : " + out->type + ")");
}

void FunctionEmitter::emit_remote_store(const CallSite& site) {
  const OpCall& c = site.call;
  const TileRef* src = tile_of(c.arg("src_tile"), c, "src_tile");
  const TensorRef* t = tensor_of(c.arg("target"), c, "target");
  if (!src || !t) return;
  if (t->ctx.empty())
    return fail(c.arg("target")->span, c.op->spelling + ": target must be a DistributedTensor");
  Value view = peer_view(*t, c.arg("peer"));
  std::vector<Value> offs = region_offsets(c.arg("offsets"), *t, c);
  RegionExtent extent = stored_region(*src, t->type->shape.size());
  if (failed_) return;
  Value pv = partition(view, t->type->dtype, offs, extent, t->name + "_peer");
  line("pto.tstore ins(" + src->ssa + " : " + src->type + ") outs(" + pv.ssa + " : " + pv.type + ")" +
       atomic_store_attr(c.arg("atomic")));
  line("pto.cmo.cacheinvalid " + pv.ssa + " single_cache_line : " + pv.type);
  ensure_fence(site);
}

// pld.tile.put / pld.tile.get: the remote side's view comes from the CommContext, the local side's from the
// kernel's own view; one staging tile, or two for the ping-pong overload.
void FunctionEmitter::emit_staged_transfer(const CallSite& site, bool is_put) {
  const OpCall& c = site.call;
  const TensorRef* dst = tensor_of(c.arg("dst"), c, "dst");
  const TensorRef* src = tensor_of(c.arg("src"), c, "src");
  const TileRef* stage = tile_of(c.arg("stage"), c, "stage");
  const Expr& stage2_arg = c.arg("stage2");
  const TileRef* stage2 =
      stage2_arg && !stage2_arg->isa<NoneImm>() ? tile_of(stage2_arg, c, "stage2") : nullptr;
  if (!dst || !src || !stage || failed_) return;
  const TensorRef& remote = is_put ? *dst : *src;
  if (remote.ctx.empty())
    return fail(c.arg(is_put ? "dst" : "src")->span,
                c.op->spelling + ": " + (is_put ? "dst" : "src") + " must be a DistributedTensor");
  RegionExtent sizes = region_extent(c.arg("shape"), *dst, c);
  std::vector<Value> dst_offs = region_offsets(c.arg("dst_offsets"), *dst, c);
  std::vector<Value> src_offs = region_offsets(c.arg("src_offsets"), *src, c);
  if (failed_) return;
  Value dst_view = is_put ? peer_view(*dst, c.arg("peer")) : dst->view;
  Value dst_pv =
      partition(dst_view, dst->type->dtype, dst_offs, sizes, dst->name + (is_put ? "_peer" : "_local"));
  Value src_view = is_put ? src->view : peer_view(*src, c.arg("peer"));
  Value src_pv =
      partition(src_view, src->type->dtype, src_offs, sizes, src->name + (is_put ? "_local" : "_peer"));
  if (failed_) return;
  std::string bufs = stage->ssa + (stage2 ? ", " + stage2->ssa : "");
  std::string types =
      dst_pv.type + ", " + src_pv.type + ", " + stage->type + (stage2 ? ", " + stage2->type : "");
  std::string attr = is_put ? " {atomicType = #pto<atomic_type " + atomic_attr(c.arg("atomic")) + ">}" : "";
  // The source may have just been written by a tstore on another pipe; the transfer's own stores must
  // drain before anything after it (a notify) can publish them.
  barrier_all();
  line(std::string(is_put ? "pto.comm.tput(" : "pto.comm.tget(") + dst_pv.ssa + ", " + src_pv.ssa + ", buf(" +
       bufs + "))" + attr + " : (" + types + ")");
  barrier_all();
  line("pto.cmo.cacheinvalid " + dst_pv.ssa + " single_cache_line : " + dst_pv.type);
  ensure_fence(site);
}

bool FunctionEmitter::emit_comm_op(const CallSite& site) {
  switch (site.call.op->id) {
    case OpId::Notify:
      emit_notify(site);
      return true;
    case OpId::Wait:
      emit_wait(site);
      return true;
    case OpId::DeferWait:
      emit_defer_wait(site);
      return true;
    case OpId::Fence:
      line("pto.fence.barrier_all #pto.fence_scope<gm>");
      return true;
    case OpId::CacheInvalid:
      emit_cache_invalid(site);
      return true;
    case OpId::RemoteLoad:
      emit_remote_load(site);
      return true;
    case OpId::RemoteStore:
      emit_remote_store(site);
      return true;
    case OpId::TilePut:
      emit_staged_transfer(site, true);
      return true;
    case OpId::TileGet:
      emit_staged_transfer(site, false);
      return true;
    default:
      return false;
  }
}

}  // namespace ptodist::codegen::pto
