// Dispatch of op calls to their PTO emitters, the ops that produce scalars (rank, block index, GM reads,
// tensor dims), on-core arrays, and the error for tensor-level ops that reach the emitter unlowered.
#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

namespace {

// Ops that the lowering pipeline replaces before code generation, or that never run in a kernel.
bool is_unlowered(OpId id) {
  switch (id) {
    case OpId::Put:
    case OpId::Get:
    case OpId::AsyncSession:
    case OpId::PutAsync:
    case OpId::GetAsync:
    case OpId::WaitAsyncEvent:
    case OpId::TestAsyncEvent:
    case OpId::TensorRemoteStore:
    case OpId::Barrier:
    case OpId::Broadcast:
    case OpId::AllGather:
    case OpId::ReduceScatter:
    case OpId::AllReduce:
    case OpId::AllToAll:
    case OpId::AllToAllV:
      return true;
    default:
      return false;
  }
}

bool is_scalar_op(OpId id) {
  switch (id) {
    case OpId::Rank:
    case OpId::NRanks:
    case OpId::WorldSize:
    case OpId::GetBlockIdx:
    case OpId::GetBlockNum:
    case OpId::GetSubblockIdx:
    case OpId::Read:
    case OpId::GetCommCtx:
    case OpId::Cast:  // of a scalar: emit_compute_op takes the tile form
    case OpId::ScalarMin:
    case OpId::ScalarMax:
    case OpId::TensorDim:
    case OpId::ArrayGetElement:
    case OpId::TileRead:
      return true;
    default:
      return false;
  }
}

// PTOAS's stack-local array type, as PyPTO spells it: !pto.local_array<6xi32>.
std::string local_array_type(const Type& t) {
  auto extent = t && !t->shape.empty() ? as_const_int(t->shape[0]) : std::nullopt;
  if (!extent) return "";
  return "!pto.local_array<" + std::to_string(*extent) + "x" + element_type(t->dtype) + ">";
}

}  // namespace

// On-core arrays as PyPTO lowers them: pl.array.create declares PTOAS stack storage
// (pto.declare_local_array) and pl.array.update_element writes it in place (pto.local_array_set), so
// the rebound name keeps the array's one SSA value. Returns false for other ops.
bool FunctionEmitter::emit_array_op(const CallSite& site) {
  const OpCall& c = site.call;
  if (c.op->id != OpId::ArrayCreate && c.op->id != OpId::ArrayUpdateElement) return false;
  Var r = site.result();
  if (c.op->id == OpId::ArrayCreate) {
    std::string type = local_array_type(c.type);
    if (type.empty()) {
      fail(c.arg("extent")->span, c.op->spelling + ": a PTO local array needs a constant 'extent'");
      return true;
    }
    Value arr{fresh(r ? r->name : "array"), type};
    line(arr.ssa + " = pto.declare_local_array -> " + type);
    if (r) scalars_[r->id] = arr;
    return true;
  }
  Value arr = emit_scalar(c.arg("array"));
  Value idx = emit_scalar_as(c.arg("index"), "index");
  std::string elem = element_type(c.type ? c.type->dtype : DType::INT32);
  Value v = emit_scalar_as(c.arg("value"), elem);
  if (failed_) return true;
  line("pto.local_array_set " + arr.ssa + "[" + idx.ssa + "], " + v.ssa + " : " + arr.type + ", " + elem);
  if (r) scalars_[r->id] = arr;
  return true;
}

void FunctionEmitter::emit_op(const CallSite& site) {
  const OpCall& c = site.call;
  if (emit_comm_op(site) || emit_async_op(site) || emit_compute_op(site) || emit_array_op(site) ||
      emit_tensor_view_op(site) || emit_view_mask_op(site) || emit_activation_op(site) ||
      emit_matmul_variant_op(site) || emit_pipe_op(site))
    return;
  if (is_scalar_op(c.op->id)) {
    Value v = emit_scalar_op(c);
    if (Var r = site.result(); r && v.valid()) {
      bool is_value = r->type && r->type->kind == TypeKind::Scalar;
      hint_ = r->name;
      scalars_[r->id] = is_value ? coerce(v, value_type(r->type->dtype)) : v;
      hint_.clear();
    }
    return;
  }
  if (is_unlowered(c.op->id)) {
    fail(c.span, c.op->spelling +
                     ": the PTO emitter takes tile-level IR; lower it first (the default pipeline of "
                     "`ptodist compile --emit=pto`, without -p, does)");
    return;
  }
  fail(c.span, c.op->spelling +
                   ": has no PTO lowering in a kernel yet (ptodist runs it on the CPU runtime; "
                   "docs/pto.md lists what the PTO emitter lowers)");
}

// The context of a kernel with a DistributedTensor parameter, for pld.world_size() in a kernel.
std::string FunctionEmitter::any_context() const {
  for (const auto& [id, t] : tensors_)
    if (!t.ctx.empty()) return t.ctx;
  return "";
}

Value FunctionEmitter::emit_scalar_op(const OpCall& c) {
  switch (c.op->id) {
    case OpId::GetCommCtx: {
      const TensorRef* t = tensor_of(c.arg("dist_tensor"), c, "dist_tensor");
      if (!t) return {};
      if (t->ctx.empty()) {
        fail(c.arg("dist_tensor")->span, c.op->spelling + ": dist_tensor must be a DistributedTensor");
        return {};
      }
      return {t->ctx, "!pto.ptr<i64>"};
    }
    case OpId::Rank:
    case OpId::NRanks:
    case OpId::WorldSize: {
      std::string ctx;
      if (c.op->id == OpId::WorldSize) {
        ctx = any_context();
        if (ctx.empty()) {
          fail(c.span, c.op->spelling +
                           ": a kernel learns the world size from the communication context of a "
                           "DistributedTensor parameter, and this kernel has none");
          return {};
        }
      } else {
        Value v = handle_of(c.arg("ctx"), c, "ctx");
        if (!v.valid()) return {};
        ctx = v.ssa;
      }
      // rankId is the low and rankNum the high half of one 8-byte CommContext word.
      Value pair = load_rank_pair(ctx);
      std::string src = pair.ssa;
      if (c.op->id != OpId::Rank) {
        src = fresh("rank_num_i64");
        line(src + " = arith.shrui " + pair.ssa + ", " + constant_int(32, "i64").ssa + " : i64");
      }
      Value r{fresh(c.op->id == OpId::Rank ? "rank" : "nranks"), "i32"};
      line(r.ssa + " = arith.trunci " + src + " : i64 to i32");
      return r;
    }
    case OpId::GetBlockIdx:
    case OpId::GetBlockNum: {
      bool idx = c.op->id == OpId::GetBlockIdx;
      Value r{fresh(idx ? "block_idx" : "block_num"), "i64"};
      line(r.ssa + (idx ? " = pto.get_block_idx" : " = pto.get_block_num"));
      return r;
    }
    case OpId::GetSubblockIdx: {  // the AIV lane within its core group (0 on the AIC)
      Value r{fresh("subblock_idx"), "i64"};
      line(r.ssa + " = pto.get_subblock_idx");
      return r;
    }
    case OpId::Read:
      return emit_read(c);
    case OpId::TileRead:
      return emit_tile_read(c);
    case OpId::TensorDim: {  // the dim itself: a constant, or the kernel's index argument of a dynamic dim
      const Type& t = c.arg("tensor")->type;
      long long rank = static_cast<long long>(t->shape.size());
      long long axis = *as_const_int(c.arg("axis"));
      return emit_scalar_as(t->shape[static_cast<size_t>(axis < 0 ? axis + rank : axis)], "index");
    }
    case OpId::ArrayGetElement: {
      Value arr = emit_scalar(c.arg("array"));
      Value idx = emit_scalar_as(c.arg("index"), "index");
      if (!arr.valid() || !idx.valid()) return {};
      std::string elem = element_type(c.type ? c.type->dtype : DType::INT32);
      Value out{fresh(take_hint("elem")), elem};
      line(out.ssa + " = pto.local_array_get " + arr.ssa + "[" + idx.ssa + "] : " + arr.type + " -> " + elem);
      return coerce(out, value_type(c.type ? c.type->dtype : DType::INT32));
    }
    case OpId::Cast:
      return coerce(emit_scalar(c.arg("input")), value_type(c.type ? c.type->dtype : DType::INT64));
    case OpId::ScalarMin:
    case OpId::ScalarMax: {
      std::string t = value_type(c.type ? c.type->dtype : DType::INT64);
      Value l = emit_scalar_as(c.arg("lhs"), t), r = emit_scalar_as(c.arg("rhs"), t);
      if (!l.valid() || !r.valid()) return {};
      bool min = c.op->id == OpId::ScalarMin, f = t == "f32" || t == "f16" || t == "bf16";
      Value out{fresh(min ? "min" : "max"), t};
      line(out.ssa + " = arith." + (min ? (f ? "minimumf " : "minsi ") : (f ? "maximumf " : "maxsi ")) +
           l.ssa + ", " + r.ssa + " : " + t);
      return out;
    }
    default:
      break;
  }
  fail(c.span, c.op->spelling + ": does not produce a scalar");
  return {};
}

}  // namespace ptodist::codegen::pto
