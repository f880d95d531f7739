// The lowering of each collective onto ordinary ops, after PyPTO's LowerCompositeOps recipes
// (src/ir/transforms/lower_composite_ops_pass.cpp): data moves with put (push: allgather, all_to_all,
// all_to_all_v), get (broadcast) or remote_load (pull: the reductions), and every call synchronises with
// the self-clearing credit barrier of emitter.h, so a signal serves any number of calls.
#include "emitter.h"

namespace ptodist::transforms::collectives {

using namespace ir;

namespace {

// A tile of a reduction stays within PyPTO's mesh chunk (16 KiB), so two of them (the accumulator and
// the incoming chunk) fit UB beside whatever the kernel itself keeps there.
constexpr long long kReduceChunkBytes = 16 * 1024;
// A put/get region is cut into column chunks when one row is larger than this; the staging tile of
// each piece is sized by convert-tensor-to-tile (64 KiB at most).
constexpr long long kTransferChunkBytes = 64 * 1024;

std::optional<std::pair<long long, long long>> static_2d(Emitter& e, const Expr& t, const char* name) {
  auto dims = t->type->static_shape();
  if (!dims || dims->size() != 2) {
    e.error(std::string("'") + name + "' must have a static 2-D shape to be cut into tiles, got " +
            shape_str(t->type->shape));
    return std::nullopt;
  }
  if ((*dims)[0] <= 0 || (*dims)[1] <= 0) {
    e.error(std::string("'") + name + "' must have positive dims to be cut into tiles, got " +
            shape_str(t->type->shape));
    return std::nullopt;
  }
  return std::make_pair((*dims)[0], (*dims)[1]);
}

// The row length of a [rows, SIZE] operand whose rows are addressed one at a time: only SIZE must be
// static (rows may be the rank count, unknown until run time).
std::optional<long long> static_cols(Emitter& e, const Expr& t, const char* name) {
  const auto& shape = t->type->shape;
  auto cols = shape.size() == 2 ? as_const_int(shape[1]) : std::nullopt;
  if (!cols || *cols <= 0) {
    e.error(std::string("'") + name + "' must be 2-D with a static, positive row length to be cut into " +
            "tiles, got " + shape_str(shape));
    return std::nullopt;
  }
  return cols;
}

std::string reduce_op_of(const OpCall& c) {
  const Expr& op = c.arg("op");
  const auto* m = op ? op->as<EnumImm>() : nullptr;
  return m ? m->value : "Sum";
}

// Barrier generation 1 and the epilogue of a call that moved its data before it.
void finish_with_barrier(Emitter& e, Block& out, const Expr& signal) {
  e.barrier(out, signal, e.i(1));
  e.epilogue(out, signal, e.i(1));
}

// For every rank, this one included, starting with the next: body(peer).
void for_all_peers(Emitter& e, Block& out, const std::function<void(Block&, Expr)>& body) {
  e.loop(out, "step", e.i(0), e.nranks(), [&](Block& b, Expr k) {
    Var peer = e.assign(b, "peer", e.bin(BinaryOpKind::Mod, e.bin(BinaryOpKind::Add, e.me(), k), e.nranks()));
    if (peer) body(b, e.ref(peer));
  });
}

// The most transfers a push collective keeps in flight at once (the unrolled form below, one event each).
constexpr long long kMaxInFlight = 16;

// The put_async form of a push: `issue(b, peer, row)` starts row `row` (of `rows`) of the block for
// `peer`. With NR, the static row count of the [NR*rows, SIZE] target, and NR * rows <= kMaxInFlight,
// every transfer is issued before the first wait (one event each, unrolled), so the DMA engine runs them
// back to back and the core blocks once instead of once per transfer; the peer is then (me + k) % NR,
// so a run whose rank count is not NR fails at its first out-of-range peer or row. Otherwise, per
// transfer, a put_async and its wait.
void push_async(Emitter& e, Block& out, const Expr& target, long long rows,
                const std::function<Var(Block&, Expr, Expr)>& issue) {
  auto total = as_const_int(target->type->shape[0]);
  if (!total || *total > kMaxInFlight) {
    for_all_peers(e, out, [&](Block& b, Expr peer) {
      auto one_row = [&](Block& rb, Expr row) {
        if (Var ev = issue(rb, peer, row)) e.wait_event(rb, ev);
      };
      if (rows == 1)
        one_row(b, e.i(0));
      else
        e.loop(b, "row", e.i(0), e.i(rows), one_row);
    });
    return;
  }
  long long nr = *total / rows;
  std::vector<Var> events;
  for (long long k = 0; k < nr; ++k) {
    Var peer =
        e.assign(out, "peer", e.bin(BinaryOpKind::Mod, e.bin(BinaryOpKind::Add, e.me(), e.i(k)), e.i(nr)));
    for (long long r = 0; peer && r < rows; ++r)
      if (Var ev = issue(out, e.ref(peer), e.i(r))) events.push_back(ev);
  }
  for (const Var& ev : events) e.wait_event(out, ev);
}

}  // namespace

Expr lower_barrier(Emitter& e, const OpCall& c, Block& out) {
  Expr signal = c.arg("signal");
  e.begin(c, signal, out);
  finish_with_barrier(e, out, signal);
  return signal;
}

// Everyone says it is ready (so root's data is staged), then every other rank copies root's window:
// from kAsyncPutMinBytes in one DMA get of the whole window (the put_async rule, applied to the pull),
// window to window; below it, a staged get in 64 KiB pieces.
Expr lower_broadcast(Emitter& e, const OpCall& c, Block& out) {
  Expr target = c.arg("target"), signal = c.arg("signal"), root = c.arg("root");
  auto dims = static_2d(e, target, "target");
  if (!dims) return nullptr;
  e.begin(c, target, out);
  e.barrier(out, signal, e.i(1));
  Block copy;
  int elem = dtype_bytes(target->type->dtype);
  if (e.use_async_get(dims->first * dims->second * elem)) {
    if (Var ev = e.issue_whole_get_async(copy, target, root)) e.wait_event(copy, ev);
  } else {
    ChunkPlan plan = plan_chunks(dims->first, dims->second, elem, kTransferChunkBytes);
    e.for_chunks(copy, plan, e.i(0), [&](Block& b, const Chunk& k) {
      e.get(b, target, root, target, e.list({k.row, k.col}), e.ints({k.rows, k.cols}));
    });
  }
  e.when(out, e.b().compare(CompareOpKind::Ne, e.me(), root, c.span), std::move(copy));
  e.epilogue(out, signal, e.i(1));
  return target;
}

// Push: my [1, SIZE] chunk goes to row `me` of every rank's target.
Expr lower_allgather(Emitter& e, const OpCall& c, Block& out) {
  Expr local = c.arg("local_data"), target = c.arg("target"), signal = c.arg("signal");
  auto cols = static_cols(e, target, "target");
  if (!cols) return nullptr;
  e.begin(c, target, out);
  long long bytes = *cols * dtype_bytes(target->type->dtype);
  ChunkPlan plan = plan_chunks(1, *cols, dtype_bytes(target->type->dtype), kTransferChunkBytes);
  if (e.use_async_put(1, bytes)) {
    push_async(e, out, target, 1, [&](Block& b, Expr peer, Expr) {
      return e.issue_put_async(b, target, peer, local, e.list({e.me(), e.i(0)}), e.list({e.i(0), e.i(0)}),
                               e.ints({1, *cols}));
    });
    finish_with_barrier(e, out, signal);
    return target;
  }
  for_all_peers(e, out, [&](Block& b, Expr peer) {
    e.for_chunks(b, plan, e.i(0), [&](Block& cb, const Chunk& k) {
      e.put(cb, target, peer, local, e.list({e.me(), k.col}), e.list({e.i(0), k.col}), e.ints({1, k.cols}));
    });
  });
  finish_with_barrier(e, out, signal);
  return target;
}

// Push: my row d goes to row `me` of rank d's target.
Expr lower_all_to_all(Emitter& e, const OpCall& c, Block& out) {
  Expr input = c.arg("input"), target = c.arg("target"), signal = c.arg("signal");
  auto cols = static_cols(e, target, "target");
  if (!cols) return nullptr;
  e.begin(c, target, out);
  long long bytes = *cols * dtype_bytes(target->type->dtype);
  ChunkPlan plan = plan_chunks(1, *cols, dtype_bytes(target->type->dtype), kTransferChunkBytes);
  if (e.use_async_put(1, bytes)) {
    push_async(e, out, target, 1, [&](Block& b, Expr peer, Expr) {
      return e.issue_put_async(b, target, peer, input, e.list({e.me(), e.i(0)}), e.list({peer, e.i(0)}),
                               e.ints({1, *cols}));
    });
    finish_with_barrier(e, out, signal);
    return target;
  }
  for_all_peers(e, out, [&](Block& b, Expr peer) {
    e.for_chunks(b, plan, e.i(0), [&](Block& cb, const Chunk& k) {
      e.put(cb, target, peer, input, e.list({e.me(), k.col}), e.list({peer, k.col}), e.ints({1, k.cols}));
    });
  });
  finish_with_barrier(e, out, signal);
  return target;
}

// Push: the MAX_RECV-row block for rank d goes whole to rank d (a static transfer size, as in PyPTO),
// and d's recv_counts[me] is set to min(send_counts[d], MAX_RECV): how many of those rows are valid.
// Rows of at least kAsyncPutMinBytes go row by row with put_async (the put_async rule), after every
// count's notify (no notify while a transfer is in flight).
Expr lower_all_to_all_v(Emitter& e, const OpCall& c, Block& out) {
  Expr input = c.arg("input"), target = c.arg("target"), signal = c.arg("signal");
  Expr send = c.arg("send_counts"), recv = c.arg("recv_counts");
  auto dims = static_2d(e, target, "target");
  auto nr = as_const_int(signal->type->shape[0]);
  if (dims && !nr)
    e.error("the 'signal' length (the rank count) must be a constant: MAX_RECV = rows / nranks");
  if (!dims || !nr) return nullptr;
  long long max_recv = dims->first / *nr;
  e.begin(c, target, out);
  ChunkPlan plan = plan_chunks(max_recv, dims->second, dtype_bytes(target->type->dtype), kTransferChunkBytes);
  bool dma = e.use_async_put(1, dims->second * dtype_bytes(target->type->dtype));
  for_all_peers(e, out, [&](Block& b, Expr peer) {
    Expr at = send->type->shape.size() == 1 ? e.list({peer}) : e.list({peer, e.i(0)});
    Var count = e.assign(b, "send_count", e.call(OpId::Read, {{"src", send}, {"offset", at}}));
    if (!count) return;
    Expr clamped = e.b().if_exp(e.b().compare(CompareOpKind::Lt, e.ref(count), e.i(max_recv), c.span),
                                e.ref(count), e.i(max_recv), c.span);
    e.emit(b, e.call(OpId::Notify, {{"target", recv},
                                    {"peer", peer},
                                    {"offsets", e.list({e.me(), e.i(0)})},
                                    {"value", clamped},
                                    {"op", e.b().enum_imm(EnumKind::NotifyOp, "Set", c.span)}}));
    if (dma) return;
    Expr my_base = e.bin(BinaryOpKind::Mul, e.me(), e.i(max_recv));
    Expr peer_base = e.bin(BinaryOpKind::Mul, peer, e.i(max_recv));
    e.for_chunks(b, plan, e.i(0), [&](Block& cb, const Chunk& k) {
      e.put(cb, target, peer, input, e.list({e.bin(BinaryOpKind::Add, my_base, k.row), k.col}),
            e.list({e.bin(BinaryOpKind::Add, peer_base, k.row), k.col}), e.ints({k.rows, k.cols}));
    });
  });
  // The DMA moves logically 1-D regions: one put_async per row of the block.
  if (dma)
    push_async(e, out, target, max_recv, [&](Block& b, Expr peer, Expr row) {
      Expr my_row = e.bin(BinaryOpKind::Add, e.bin(BinaryOpKind::Mul, e.me(), e.i(max_recv)), row);
      Expr peer_row = e.bin(BinaryOpKind::Add, e.bin(BinaryOpKind::Mul, peer, e.i(max_recv)), row);
      return e.issue_put_async(b, target, peer, input, e.list({my_row, e.i(0)}), e.list({peer_row, e.i(0)}),
                               e.ints({1, dims->second}));
    });
  finish_with_barrier(e, out, signal);
  return target;
}

// Pull: after the ready barrier, row `me` of every rank's target is reduced into my row `me`. Only I
// write that row and only peers' rows of mine are read, so the chunks store as they go; the second
// barrier keeps a fast rank from restaging its rows while a slow one still reads them.
Expr lower_reduce_scatter(Emitter& e, const OpCall& c, Block& out) {
  Expr target = c.arg("target"), signal = c.arg("signal");
  auto cols = static_cols(e, target, "target");
  if (!cols) return nullptr;
  std::string op = reduce_op_of(c);
  e.begin(c, target, out);
  e.barrier(out, signal, e.i(1));
  ChunkPlan plan = plan_chunks(1, *cols, dtype_bytes(target->type->dtype), kReduceChunkBytes);
  e.for_chunks(out, plan, e.me(), [&](Block& b, const Chunk& k) {
    Expr shape = e.ints({1, k.cols});
    Var acc = e.load(b, "acc", target, e.list({k.row, k.col}), shape);
    e.for_other_peers(b, [&](Block& pb, Expr peer) {
      Var x = e.remote_load(pb, "recv", target, peer, e.list({k.row, k.col}), shape);
      if (acc && x) e.reduce_into(pb, acc, x, op);
    });
    if (acc) e.store(b, acc, e.list({k.row, k.col}), target);
  });
  e.barrier(out, signal, e.i(2));
  e.epilogue(out, signal, e.i(2));
  return target;
}

namespace {

// One chunk, in place: every rank reduces the whole target from every copy, then a barrier (generation
// 2: every peer has read my copy) before it stores the result.
void allreduce_one_chunk(Emitter& e, Block& out, const Expr& target, const Expr& signal,
                         const ChunkPlan& plan, const std::string& op) {
  e.for_chunks(out, plan, e.i(0), [&](Block& b, const Chunk& k) {
    Expr shape = e.ints({k.rows, k.cols});
    Var acc = e.load(b, "acc", target, e.list({k.row, k.col}), shape);
    e.for_other_peers(b, [&](Block& pb, Expr peer) {
      Var x = e.remote_load(pb, "recv", target, peer, e.list({k.row, k.col}), shape);
      if (acc && x) e.reduce_into(pb, acc, x, op);
    });
    e.barrier(b, signal, e.i(2));
    if (acc) e.store(b, acc, e.list({k.row, k.col}), target);
  });
}

// Several chunks, in place: chunk k belongs to rank k % nranks, which reduces it from every copy and
// stores the result into its own copy and every peer's. Only the owner touches chunk k anywhere, and it
// reads a peer's copy before it overwrites it, so the chunks need no barrier of their own: the closing
// one (generation 2) says every result has landed here and no peer still reads my copy. Each rank moves
// 2 (nranks-1)/nranks of the target, where every rank reducing everything moves nranks-1 copies.
void allreduce_by_owner(Emitter& e, Block& out, const Expr& target, const Expr& signal, const ChunkPlan& plan,
                        const std::string& op) {
  e.for_chunks(out, plan, e.i(0), [&](Block& b, const Chunk& k) {
    Expr shape = e.ints({k.rows, k.cols});
    Block mine;
    Var acc = e.load(mine, "acc", target, e.list({k.row, k.col}), shape);
    e.for_other_peers(mine, [&](Block& pb, Expr peer) {
      Var x = e.remote_load(pb, "recv", target, peer, e.list({k.row, k.col}), shape);
      if (acc && x) e.reduce_into(pb, acc, x, op);
    });
    if (!acc) return;
    e.store(mine, acc, e.list({k.row, k.col}), target);
    e.for_other_peers(mine, [&](Block& pb, Expr peer) {
      e.remote_store(pb, acc, target, peer, e.list({k.row, k.col}));
    });
    Expr owner = e.bin(BinaryOpKind::Mod, k.index, e.nranks());
    e.when(b, e.b().compare(CompareOpKind::Eq, owner, e.me(), target->span), std::move(mine));
  });
  e.barrier(out, signal, e.i(2));
}

}  // namespace

// In place, after the ready barrier (generation 1): allreduce_one_chunk or allreduce_by_owner, two
// generations in all. mode="ring" is ring.cpp.
Expr lower_allreduce(Emitter& e, const OpCall& c, Block& out) {
  Expr target = c.arg("target"), signal = c.arg("signal");
  if (!signal || signal->isa<NoneImm>()) {
    e.error("'signal' is required here: pass a window of pl.INT32 with one cell per rank");
    return nullptr;
  }
  if (const Expr& cores = c.arg("core_num"); cores && !cores->isa<NoneImm>() && !as_const_int(cores)) {
    e.error("'core_num' must be a constant once the factory parameters are bound");
    return nullptr;
  }
  auto dims = static_2d(e, target, "target");
  if (!dims) return nullptr;
  std::string op = reduce_op_of(c);
  const auto* mode = c.arg("mode") ? c.arg("mode")->as<StrImm>() : nullptr;
  if (mode && mode->value == "ring") return lower_ring_allreduce(e, c, out, dims->first, dims->second);
  e.begin(c, target, out);
  e.barrier(out, signal, e.i(1));
  ChunkPlan plan =
      plan_chunks(dims->first, dims->second, dtype_bytes(target->type->dtype), kReduceChunkBytes);
  if (plan.count() == 1)
    allreduce_one_chunk(e, out, target, signal, plan, op);
  else
    allreduce_by_owner(e, out, target, signal, plan, op);
  e.epilogue(out, signal, e.i(2));
  return target;
}

}  // namespace ptodist::transforms::collectives
