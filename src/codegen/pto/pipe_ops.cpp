// The cross-core pipe ops in PTO, as PyPTO's codegen writes them: the pipe setup
// (pto.aic_initialize_pipe / pto.aiv_initialize_pipe with the consumer slot buffers), the named slot
// buffers (pto.reserve_buffer, pto.import_reserved_buffer), and pto.tpush_to_*, pto.tpop_from_* (which
// defines its result tile: no pto.alloc_tile) and pto.tfree_from_*; the explicit cross-core events
// (pto.set_ffts, pto.sync.set / pto.sync.wait, PyPTO's MakeCrossCoreSyncCodegenPTO).
#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

namespace {

long long const_attr(const OpCall& c, const char* slot, long long otherwise) {
  const Expr& e = c.arg(slot);
  if (!e || e->isa<NoneImm>()) return otherwise;
  return as_const_int(e).value_or(otherwise);
}

std::string str_attr(const OpCall& c, const char* slot) {
  const Expr& e = c.arg(slot);
  const auto* s = e ? e->as<StrImm>() : nullptr;
  return s ? s->value : "";
}

// `id = N, ` when the source gave an id (PTOAS's default pipe is 0), else nothing.
std::string id_attr(const OpCall& c) {
  const Expr& id = c.arg("id");
  return id && !id->isa<NoneImm>() ? "id = " + std::to_string(const_attr(c, "id", 0)) + ", " : "";
}

// `{id = N, split = S}`.
std::string pipe_attrs(const OpCall& c, long long split) {
  return "{" + id_attr(c) + "split = " + std::to_string(split) + "}";
}

}  // namespace

bool is_pipe_op(OpId id) {
  switch (id) {
    case OpId::AicInitializePipe:
    case OpId::AivInitializePipe:
    case OpId::ReserveBuffer:
    case OpId::ImportPeerBuffer:
    case OpId::TpushToAiv:
    case OpId::TpushToAic:
    case OpId::TpopFromAic:
    case OpId::TpopFromAiv:
    case OpId::TfreeToAic:
    case OpId::TfreeToAiv:
    case OpId::SetFfts:
    case OpId::SyncSet:
    case OpId::SyncWait:
    case OpId::AivShard:
    case OpId::AicGather:
      return true;
    default:
      return false;
  }
}

// Where the slot buffer goes beside the tiles plan-memory placed in `mem`: pl.AUTO puts it after the
// last of them (when they are placed; else the assembler places all), an explicit base must not overlap
// one, and either must fit the memory. Reports a located error and returns false otherwise.
bool FunctionEmitter::place_reserved_buffer(const OpCall& c, Memory mem, long long& base) {
  const long long size = const_attr(c, "size", 0);
  const std::string name(memory_name(mem));
  long long end = 0;
  bool planned = false;
  for (const TileInfo& t : info_.tiles) {
    if (t.memory != name || !t.address) continue;
    planned = true;
    end = std::max(end, *t.address + t.bytes);
    if (base >= 0 && *t.address < base + size && base < *t.address + t.bytes) {
      fail(c.span, c.op->spelling + ": the buffer [" + std::to_string(base) + ", " +
                       std::to_string(base + size) + ") overlaps tile '" + t.name + "' at [" +
                       std::to_string(*t.address) + ", " + std::to_string(*t.address + t.bytes) + ") of " +
                       name + " memory; use base=pl.AUTO");
      return false;
    }
  }
  if (base < 0 && planned) base = (end + profile_.alignment - 1) / profile_.alignment * profile_.alignment;
  const long long cap = mem == Memory::Mat ? profile_.l1_bytes : profile_.ub_bytes;
  if (base >= 0 && base + size > cap) {
    fail(c.span, c.op->spelling + ": the buffer of " + std::to_string(size) + " bytes at offset " +
                     std::to_string(base) + " does not fit the " + std::to_string(cap) + " bytes of " + name +
                     " memory beside the kernel's tiles");
    return false;
  }
  return true;
}

// The pipe's region of the GM slot buffer: the buffer itself at offset 0, else a pto.addptr by the
// region's offset in FP32 elements, made once per pipe.
Value FunctionEmitter::gm_pipe_region(long long id, long long dir_mask) {
  auto [it, fresh_pipe] = gm_pipe_regions_.try_emplace({id, dir_mask});
  if (!fresh_pipe) return it->second;
  auto at = gm_pipes->offsets.find({id, dir_mask});
  long long bytes = at == gm_pipes->offsets.end() ? 0 : at->second;
  it->second = {gm_pipe_buffer_, "!pto.ptr<f32>"};
  if (bytes != 0) {
    Value offset = constant_int(bytes / 4, "index");
    std::string ssa = fresh("gm_pipe_region");
    line(ssa + " = pto.addptr " + gm_pipe_buffer_ + ", " + offset.ssa + " : !pto.ptr<f32> -> !pto.ptr<f32>");
    it->second = {ssa, "!pto.ptr<f32>"};
  }
  return it->second;
}

bool FunctionEmitter::emit_pipe_op(const CallSite& site) {
  const OpCall& c = site.call;
  switch (c.op->id) {
    case OpId::AicInitializePipe:
    case OpId::AivInitializePipe: {
      Value c2v = c.arg("c2v_consumer_buf") ? emit_scalar_as(c.arg("c2v_consumer_buf"), "i32")
                                            : constant_int(0, "i32");
      Value v2c = c.arg("v2c_consumer_buf") ? emit_scalar_as(c.arg("v2c_consumer_buf"), "i32")
                                            : constant_int(0, "i32");
      if (failed_) return true;
      std::string attrs = "{" + id_attr(c) + "dir_mask = " + std::to_string(const_attr(c, "dir_mask", 0)) +
                          ", slot_size = " + std::to_string(const_attr(c, "slot_size", 0));
      for (const char* opt : {"slot_num", "local_slot_num"})
        if (const Expr& e = c.arg(opt); e && !e->isa<NoneImm>())
          attrs += std::string(", ") + opt + " = " + std::to_string(const_attr(c, opt, 0));
      attrs += "}";
      const char* side = c.op->id == OpId::AicInitializePipe ? "aic" : "aiv";
      std::string bufs =
          "c2v_consumer_buf = " + c2v.ssa + " : i32, v2c_consumer_buf = " + v2c.ssa + " : i32)";
      if (gm_pipe_buffer_.empty()) {
        line(std::string("pto.") + side + "_initialize_pipe " + attrs + " (" + bufs);
      } else {
        Value region = gm_pipe_region(const_attr(c, "id", 0), const_attr(c, "dir_mask", 0));
        line(std::string("pto.") + side + "_initialize_pipe " + attrs +
             "\n      (gm_slot_buffer = " + region.ssa + " : !pto.ptr<f32>, " + bufs);
      }
      return true;
    }
    case OpId::ReserveBuffer: {
      // The slot buffer lives in the consumer's memory: UB for the vector kernel, L1 for the cube's.
      const bool cube = fn_.kind == FunctionKind::AIC;
      const char* where = cube ? "mat" : "vec";
      long long base = const_attr(c, "base", -1);
      if (!place_reserved_buffer(c, cube ? Memory::Mat : Memory::Vec, base)) return true;
      std::string ssa = fresh(site.result() ? site.result()->name : "buf");
      line(ssa + " = pto.reserve_buffer {name = \"" + str_attr(c, "name") +
           "\", size = " + std::to_string(const_attr(c, "size", 0)) + ", location = #pto.address_space<" +
           where + ">, auto = " + (base < 0 ? "true" : "false") +
           (base < 0 ? "" : ", base = " + std::to_string(base)) + "} -> i32");
      if (Var r = site.result()) scalars_[r->id] = Value{ssa, "i32"};
      return true;
    }
    case OpId::ImportPeerBuffer: {
      std::string ssa = fresh(site.result() ? site.result()->name : "peer_buf");
      line(ssa + " = pto.import_reserved_buffer {name = \"" + str_attr(c, "name") + "\", peer_func = @" +
           str_attr(c, "peer_func") + "} -> i32");
      if (Var r = site.result()) scalars_[r->id] = Value{ssa, "i32"};
      return true;
    }
    case OpId::TpushToAiv:
    case OpId::TpushToAic: {
      const TileRef* t = tile_of(c.arg("tile"), c, "tile");
      if (!t) return true;
      const char* to = c.op->id == OpId::TpushToAiv ? "aiv" : "aic";
      line(std::string("pto.tpush_to_") + to + "(" + t->ssa + " : " + t->type + ") " +
           pipe_attrs(c, const_attr(c, "split", 0)));
      return true;
    }
    case OpId::TpopFromAic:
    case OpId::TpopFromAiv: {
      Var r = site.result();
      if (!r) {
        fail(c.span, c.op->spelling + ": assign the popped tile to a name (it is freed with its tfree)");
        return true;
      }
      TileRef ref = tile_ref(r, -1);
      std::string operands;
      if (!c.type->valid_shape.empty()) {
        if (c.type->valid_shape.size() != 2) {
          fail(c.span, c.op->spelling + ": a partially valid popped tile must have 2 dims");
          return true;
        }
        Value rows = emit_scalar_as(c.type->valid_shape[0], "index");
        Value cols = emit_scalar_as(c.type->valid_shape[1], "index");
        if (failed_) return true;
        operands = "(" + rows.ssa + ", " + cols.ssa + ")";
      }
      const char* from = c.op->id == OpId::TpopFromAic ? "aic" : "aiv";
      line(ref.ssa + " = pto.tpop_from_" + from + operands + " " + pipe_attrs(c, const_attr(c, "split", 0)) +
           " -> " + ref.type);
      tiles_[r->id] = ref;
      alloc_depth_[r->id] = indent_;
      pop_calls_[r->id] = &c;
      return true;
    }
    case OpId::TfreeToAic:
    case OpId::TfreeToAiv: {
      // The split and id of the tpop that popped the freed tile (PyPTO's StampTfreeSplit).
      const OpCall* pop = nullptr;
      if (const auto* ref = c.arg("tile")->as<VarRef>())
        if (auto it = pop_calls_.find(ref->var->id); it != pop_calls_.end()) pop = it->second;
      const Expr& id = c.arg("id");
      const OpCall& named = id && !id->isa<NoneImm>() ? c : pop ? *pop : c;
      long long split = const_attr(c, "split", pop ? const_attr(*pop, "split", 0) : 0);
      const char* to = c.op->id == OpId::TfreeToAic ? "aic" : "aiv";
      line(std::string("pto.tfree_from_") + to + " " + pipe_attrs(named, split));
      return true;
    }
    case OpId::SetFfts: {  // the workspace stays the raw pointer argument
      if (const TensorRef* t = tensor_of(c.arg("workspace"), c, "workspace"))
        line("pto.set_ffts " + t->ptr + " : !pto.ptr<i64>");
      return true;
    }
    case OpId::SyncSet:
    case OpId::SyncWait: {
      const Expr& id = c.arg("event_id");
      std::string event;
      if (auto v = as_const_int(id)) {
        event = std::to_string(*v);
      } else {
        Value dyn = emit_scalar_as(id, "index");
        if (failed_) return true;
        event = dyn.ssa;
      }
      const auto* pipe = c.arg("pipe") ? c.arg("pipe")->as<EnumImm>() : nullptr;
      std::string text = std::string("pto.sync.") + (c.op->id == OpId::SyncSet ? "set" : "wait") + " <PIPE_" +
                         (pipe ? pipe->value : std::string("ALL")) + ">, " + event;
      if (c.op->id == OpId::SyncSet && c.arg("ffts_mode") && !c.arg("ffts_mode")->isa<NoneImm>())
        text += " {ffts_mode = " + std::to_string(const_attr(c, "ffts_mode", 0)) + " : i32}";
      line(text);
      return true;
    }
    // PyPTO's ExpandMixedKernel turns the region boundary into a tpush/tpop pair of an AIC and an AIV
    // kernel; ptodist does not split a mixed kernel in its PTO yet.
    case OpId::AivShard:
    case OpId::AicGather:
      fail(c.span, c.op->spelling +
                       ": the pl.split_aiv boundary is a cross-core transfer that PyPTO's ExpandMixedKernel "
                       "splits into AIC and AIV kernels with a tpush/tpop pair, which ptodist's PTO does not "
                       "do yet; write the AIC and AIV kernels of a Group with pl.tpush_to_aiv / "
                       "pl.tpop_from_aic instead");
      return true;
    default:
      return false;
  }
}

}  // namespace ptodist::codegen::pto
