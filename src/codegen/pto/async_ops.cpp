// Asynchronous transfers in PTO text: the SDMA session, put_async/get_async with only the leading PIPE_ALL
// barrier (nothing may sit between issue and wait but the kernel's own work), and the wait, after which
// the written region's invalidate, deferred from the issue, and the GM fence make the data visible.
#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

namespace {

constexpr long long kDefaultBlockBytes = 1048576;  // 1 MiB, pld.system.async_session's default

}  // namespace

Value FunctionEmitter::handle_of(const Expr& e, const OpCall& call, const char* operand) {
  if (auto ref = e ? e->as<VarRef>() : nullptr) {
    auto it = scalars_.find(ref->var->id);
    if (it != scalars_.end()) return it->second;
    fail(e->span,
         call.op->spelling + ": " + operand + " '" + ref->var->name +
             "' has no value here (defined inside a loop or branch the PTO emitter cannot carry it out of)");
    return {};
  }
  fail(e ? e->span : call.span, call.op->spelling + ": " + operand + " must be a variable");
  return {};
}

void FunctionEmitter::emit_session(const CallSite& site) {
  const OpCall& c = site.call;
  const TileRef* scratch = tile_of(c.arg("scratch"), c, "scratch");
  Var result = site.result();
  if (!scratch) return;
  if (!result) return fail(c.span, c.op->spelling + ": its session must be assigned to a variable");
  std::optional<long long> sync_id = c.arg("sync_id") ? as_const_int(c.arg("sync_id")) : 0;
  std::optional<long long> block =
      c.arg("block_bytes") ? as_const_int(c.arg("block_bytes")) : kDefaultBlockBytes;
  if (!sync_id || !block)
    return fail(c.span,
                c.op->spelling + ": sync_id and block_bytes must be constants in PTO text (run specialize)");
  Value session{fresh(result->name), "!pto.async_session"};
  line(session.ssa + " = pto.comm.build_async_session(" + scratch->ssa + ", " + workspace_ +
       ") {sync_id = " + std::to_string(*sync_id) + " : i32, block_bytes = " + std::to_string(*block) +
       " : i64} : (" + scratch->type + ", !pto.ptr<i8>) -> !pto.async_session");
  scalars_[result->id] = session;
  info_.enable_sdma = true;
  info_.sync_id = *sync_id;
  info_.block_bytes = *block;
}

// put_async writes the peer's window, get_async our own region; either way the invalidate of the written
// region waits for the event, since the data is not there before it.
void FunctionEmitter::emit_async_transfer(const CallSite& site, bool is_put) {
  const OpCall& c = site.call;
  const TensorRef* dst = tensor_of(c.arg("dst"), c, "dst");
  const TensorRef* src = tensor_of(c.arg("src"), c, "src");
  Value session = handle_of(c.arg("session"), c, "session");
  Var result = site.result();
  if (!dst || !src || !session.valid()) return;
  if (!result)
    return fail(c.span, c.op->spelling + ": its event must be assigned so that a wait can drain it");
  const TensorRef& remote = is_put ? *dst : *src;
  if (remote.ctx.empty())
    return fail(c.arg(is_put ? "dst" : "src")->span,
                c.op->spelling + ": " + (is_put ? "dst" : "src") + " must be a DistributedTensor");
  std::vector<long long> sizes = region_sizes(c.arg("shape"), *dst, c);
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
  Value event{fresh(result->name), "!pto.async_event"};
  barrier_all();  // the DMA engine reads GM: earlier stores to the source must have landed
  line(event.ssa + " = " + (is_put ? "pto.comm.tput_async(" : "pto.comm.tget_async(") + dst_pv.ssa + ", " +
       src_pv.ssa + ", " + session.ssa + ") : (" + dst_pv.type + ", " + src_pv.type +
       ", !pto.async_session) -> !pto.async_event");
  scalars_[result->id] = event;
  pending_[result->id] = PendingAsync{session.ssa, dst_pv};
}

void FunctionEmitter::emit_async_wait(const CallSite& site, bool is_test) {
  const OpCall& c = site.call;
  const Expr& event_arg = c.arg("event");
  Value event = handle_of(event_arg, c, "event");
  Value session = handle_of(c.arg("session"), c, "session");
  if (!event.valid() || !session.valid()) return;
  int event_id = event_arg->as<VarRef>()->var->id;
  auto it = pending_.find(event_id);
  if (it == pending_.end())
    return fail(c.span, c.op->spelling + ": event '" + event_arg->as<VarRef>()->var->name +
                            "' is not outstanding here (already waited); check-async-events rejects this");
  // check-async-events guarantees the session; a mismatch here is a compiler bug, not a user error.
  PTODIST_INTERNAL_ASSERT(it->second.session == session.ssa,
                          c.op->spelling + ": event '" + event_arg->as<VarRef>()->var->name +
                              "' is waited on a session that did not issue it");
  Var r = site.result();
  Value done{fresh(r ? r->name : is_test ? "test" : "done"), "i1"};
  line(done.ssa + " = " + (is_test ? "pto.comm.test_async_event(" : "pto.comm.wait_async_event(") +
       event.ssa + ", " + session.ssa + ") : (!pto.async_event, !pto.async_session) -> i1");
  if (r) scalars_[r->id] = done;
  if (is_test) return;  // a test may fail: the event stays outstanding and the invalidate waits on
  const Value& written = it->second.written_view;
  line("pto.cmo.cacheinvalid " + written.ssa + " single_cache_line : " + written.type);
  // A run of async waits shares the fence after its last wait, as insert-comm-fence places it.
  const OpCall* next = site.next_call();
  if (!(next && next->op->has(ir::kAsyncWait))) ensure_fence(site);
  pending_.erase(it);
}

bool FunctionEmitter::emit_async_op(const CallSite& site) {
  switch (site.call.op->id) {
    case OpId::TileAsyncSession:
      emit_session(site);
      return true;
    case OpId::TilePutAsync:
      emit_async_transfer(site, true);
      return true;
    case OpId::TileGetAsync:
      emit_async_transfer(site, false);
      return true;
    case OpId::TileWaitAsyncEvent:
      emit_async_wait(site, false);
      return true;
    case OpId::TileTestAsyncEvent:
      emit_async_wait(site, true);
      return true;
    default:
      return false;
  }
}

}  // namespace ptodist::codegen::pto
