// The cross-core pipe ops on the CPU: a Group's AIC and AIV kernels run on their own threads and
// hand tiles over through the Group's CrossCorePipes. The split modes only say how the device's two
// vector lanes share a tile; here one AIV kernel handles the whole tile, which gives the same result.
#include <cstring>

#include "exec.h"

namespace ptodist::runtime {
namespace {

// PTOAS's default depth: 8 slots for a one-way pipe, 4 per direction for a two-way one.
int default_slots(long long dir_mask) {
  return dir_mask == 3 ? 4 : 8;
}

long long pipe_id(Interp& in, const ir::OpCall& c) {
  return in.given_arg(c, "id") ? in.int_arg(c, "id") : 0;
}

std::string pipe_name(long long id, bool to_vector) {
  return "pipe id " + std::to_string(id) + (to_vector ? " (cube to vector)" : " (vector to cube)");
}

CrossCorePipes& pipes_of(Interp& in, const ir::OpCall& c) {
  if (!in.f.pipes)
    in.fail(c.span, c.op->spelling + ": kernel '" + in.f.fn->name +
                        "' was not launched by a Group function (@pl.function(type=pl.FunctionType.Group)), "
                        "so it has no peer kernel to talk to");
  return *in.f.pipes;
}

// Blocks the core until `ready` holds (under the pipes' lock), as a wait does: check mode switches to
// other cores, the watchdog reports a pipe that never moves.
void block_on_pipe(Interp& in, const ir::OpCall& c, CrossCorePipes& p, const std::string& what,
                   const std::function<bool(CrossCorePipes::Fifo&)>& ready, CrossCorePipes::Fifo& fifo) {
  {
    std::lock_guard<std::mutex> lock(p.mu);
    if (ready(fifo) && !in.world().scheduler()) return;
  }
  BlockInfo info{c.op->spelling, c.span, what, nullptr, nullptr, 0, ""};
  in.world().block_until(in.f.rank, in.f.core, info, [&p, &fifo, &ready] {
    std::lock_guard<std::mutex> lock(p.mu);
    return ready(fifo);
  });
}

Value initialize(Interp& in, const ir::OpCall& c) {
  CrossCorePipes& p = pipes_of(in, c);
  const bool cube = in.f.fn->kind == ir::FunctionKind::AIC;
  const long long mask = in.int_arg(c, "dir_mask"), id = pipe_id(in, c);
  const int slots =
      in.given_arg(c, "slot_num") ? static_cast<int>(in.int_arg(c, "slot_num")) : default_slots(mask);
  {
    std::lock_guard<std::mutex> lock(p.mu);
    for (bool to_vector : {true, false}) {
      if (!(mask & (to_vector ? 1 : 2))) continue;
      CrossCorePipes::Fifo& f = p.fifos[{in.f.block_idx, id, to_vector}];
      if (f.slot_num && f.slot_num != slots)
        in.fail(c.span, c.op->spelling + ": " + pipe_name(id, to_vector) + " has " + std::to_string(slots) +
                            " slots here but " + std::to_string(f.slot_num) + " on the peer's side");
      f.slot_num = slots;
      (cube == to_vector ? f.producer_ready : f.consumer_ready) = true;
    }
  }
  in.world().wake(in.f.rank);
  return NoneValue{};
}

// The FIFO an op of this side uses, which the side must have initialised.
CrossCorePipes::Fifo& fifo_of(Interp& in, const ir::OpCall& c, CrossCorePipes& p, bool to_vector,
                              bool producer) {
  const long long id = pipe_id(in, c);
  std::lock_guard<std::mutex> lock(p.mu);
  CrossCorePipes::Fifo& f = p.fifos[{in.f.block_idx, id, to_vector}];
  if (!(producer ? f.producer_ready : f.consumer_ready))
    in.fail(c.span, c.op->spelling + ": " + pipe_name(id, to_vector) + " is not initialised in kernel '" +
                        in.f.fn->name + "': call pl." + (to_vector == producer ? "aic" : "aiv") +
                        "_initialize_pipe(dir_mask=" + (to_vector ? "1" : "2") + ", ...) first");
  return f;
}

Value push(Interp& in, const ir::OpCall& c, bool to_vector) {
  CrossCorePipes& p = pipes_of(in, c);
  CrossCorePipes::Fifo& f = fifo_of(in, c, p, to_vector, true);
  OperandHolder h;
  const TileValue& t = in.tile_arg(c, "tile", h);
  CrossCorePipes::Slot slot;
  slot.bytes.assign(t.data, t.data + t.bytes());
  slot.dtype = t.dtype;
  slot.shape = t.shape;
  slot.valid = t.valid;
  block_on_pipe(
      in, c, p, "a free slot of " + pipe_name(pipe_id(in, c), to_vector),
      [](CrossCorePipes::Fifo& q) { return q.in_use < q.slot_num; }, f);
  {
    std::lock_guard<std::mutex> lock(p.mu);
    ++f.in_use;
    f.ready.push_back(std::move(slot));
  }
  in.world().wake(in.f.rank);
  return NoneValue{};
}

Value pop(Interp& in, const ir::OpCall& c, bool to_vector) {
  CrossCorePipes& p = pipes_of(in, c);
  CrossCorePipes::Fifo& f = fifo_of(in, c, p, to_vector, false);
  block_on_pipe(
      in, c, p, "a push into " + pipe_name(pipe_id(in, c), to_vector),
      [](CrossCorePipes::Fifo& q) { return !q.ready.empty(); }, f);
  CrossCorePipes::Slot slot;
  {
    std::lock_guard<std::mutex> lock(p.mu);
    slot = std::move(f.ready.front());
    f.ready.pop_front();
    ++f.popped;
  }
  const Dims shape = in.ints_arg(c, "shape");
  const ir::DType dtype = c.type->dtype;
  if (shape != slot.shape || dtype != slot.dtype)
    in.fail(c.span, c.op->spelling + ": pops a " + std::string(ir::dtype_name(dtype)) + " " +
                        dims_str(shape) + " tile, but the peer pushed a " +
                        std::string(ir::dtype_name(slot.dtype)) + " " + dims_str(slot.shape) + " one");
  TileValue out = in.new_tile(c, shape, dtype, c.type->memory);
  std::memcpy(out.data, slot.bytes.data(), slot.bytes.size());
  out.valid = in.given_arg(c, "valid_shape") ? in.ints_arg(c, "valid_shape") : slot.valid;
  for (size_t d = 0; d < out.valid.size() && d < shape.size(); ++d)
    if (out.valid[d] < 0 || out.valid[d] > shape[d])
      in.fail(c.span, c.op->spelling + ": the valid region " + dims_str(out.valid) +
                          " does not fit the tile " + dims_str(shape));
  if (out.valid == out.shape) out.valid.clear();
  return out;
}

Value release(Interp& in, const ir::OpCall& c, bool to_vector) {
  CrossCorePipes& p = pipes_of(in, c);
  CrossCorePipes::Fifo& f = fifo_of(in, c, p, to_vector, false);
  {
    std::lock_guard<std::mutex> lock(p.mu);
    if (f.popped == 0)
      in.fail(c.span, c.op->spelling + ": no popped tile of " + pipe_name(pipe_id(in, c), to_vector) +
                          " is held: each tfree follows its tpop");
    --f.popped;
    --f.in_use;
  }
  in.world().wake(in.f.rank);
  return NoneValue{};
}

}  // namespace

Value op_AicInitializePipe(Interp& in, const ir::OpCall& c) {
  return initialize(in, c);
}
Value op_AivInitializePipe(Interp& in, const ir::OpCall& c) {
  return initialize(in, c);
}
// The slot buffers are the FIFO's own storage here: the address is only passed along.
Value op_ReserveBuffer(Interp& in, const ir::OpCall& c) {
  long long base = in.given_arg(c, "base") ? in.int_arg(c, "base") : -1;
  return Scalar::of_int(base < 0 ? 0 : base, ir::DType::INT32);
}
Value op_ImportPeerBuffer(Interp&, const ir::OpCall&) {
  return Scalar::of_int(0, ir::DType::INT32);
}
// The running lane of a pl.split_aiv region; elsewhere the one AIV kernel ptodist runs is lane 0.
Value op_GetSubblockIdx(Interp& in, const ir::OpCall&) {
  return Scalar::of_int(std::max(in.f.split_lane, 0));
}
Value op_TpushToAiv(Interp& in, const ir::OpCall& c) {
  return push(in, c, true);
}
Value op_TpushToAic(Interp& in, const ir::OpCall& c) {
  return push(in, c, false);
}
Value op_TpopFromAic(Interp& in, const ir::OpCall& c) {
  return pop(in, c, true);
}
Value op_TpopFromAiv(Interp& in, const ir::OpCall& c) {
  return pop(in, c, false);
}
Value op_TfreeToAic(Interp& in, const ir::OpCall& c) {
  return release(in, c, true);
}
Value op_TfreeToAiv(Interp& in, const ir::OpCall& c) {
  return release(in, c, false);
}

}  // namespace ptodist::runtime
