// mode="ring" allreduce: PyPTO's ring schedule (LowerTensorRingAllReduceRule), a reduce-scatter of
// P - 1 steps in which every rank folds its left neighbour's partial segment into its own, then an
// allgather of P - 1 steps in which it copies the segment its left neighbour just completed. Every
// step is one barrier on its own row of the [2 * (P - 1), P] signal (a host's [2 * (P - 1) + 1, P]
// has a spare last row) (rows 0..P-2 reduce-scatter,
// P-1..2P-3 allgather); a last barrier (row 0, generation 2) keeps a rank from leaving while its right
// neighbour still reads its window, and the epilogue clears every row, so the signal is reusable.
//
// Segments are column ranges [floor(i * C / P), floor((i + 1) * C / P)) of the [R, C] target, so the
// segment a rank works on (which depends on its rank) has a static width in each `if segment == i`
// arm. For R == 1 they are PyPTO's segments exactly; for R > 1 PyPTO cuts the flattened target
// instead, so an element's segment (and with it the rank whose value is added last) can differ.
#include "emitter.h"

namespace ptodist::transforms::collectives {

using namespace ir;

namespace {

// One tile of a reduction stays within PyPTO's 16 KiB chunk, as in the mesh schedule.
constexpr long long kRingChunkBytes = 16 * 1024;

struct Segment {
  long long begin = 0, cols = 0;
};

std::vector<Segment> segments(long long cols, long long p) {
  std::vector<Segment> out;
  for (long long i = 0; i < p; ++i) out.push_back({i * cols / p, (i + 1) * cols / p - i * cols / p});
  return out;
}

Expr mod_p(Emitter& e, Expr x, long long p) {
  return e.bin(BinaryOpKind::Mod, e.bin(BinaryOpKind::Add, std::move(x), e.i(2 * p)), e.i(p));
}

struct Ring {
  Emitter& e;
  const OpCall& c;
  Expr target, signal;
  long long p, rows;
  std::vector<Segment> segs;
  int elem_bytes;
  std::string op;

  // One step of a phase: the barrier of `row`, then the segment (me - back) mod p from the left.
  void step(Block& b, Expr row, Expr back, bool reduce) {
    e.barrier(b, signal, e.i(1), row);
    Var seg = e.assign(b, "segment", mod_p(e, e.bin(BinaryOpKind::Sub, e.me(), std::move(back)), p));
    Var left = e.assign(b, "left", mod_p(e, e.bin(BinaryOpKind::Sub, e.me(), e.i(1)), p));
    if (!seg || !left) return;
    for (long long i = 0; i < p; ++i) {
      if (segs[static_cast<size_t>(i)].cols == 0) continue;
      Block arm;
      const Segment& s = segs[static_cast<size_t>(i)];
      ChunkPlan plan = plan_chunks(rows, s.cols, elem_bytes, kRingChunkBytes);
      e.for_chunks(arm, plan, e.i(0), [&](Block& cb, const Chunk& k) {
        Expr col = e.bin(BinaryOpKind::Add, k.col, e.i(s.begin));
        Expr shape = e.ints({k.rows, k.cols});
        Var x = e.remote_load(cb, "recv", target, e.ref(left), e.list({k.row, col}), shape);
        if (!x) return;
        if (!reduce) return e.store(cb, x, e.list({k.row, col}), target);
        Var acc = e.load(cb, "acc", target, e.list({k.row, col}), shape);
        if (!acc) return;
        e.reduce_into(cb, acc, x, op);
        e.store(cb, acc, e.list({k.row, col}), target);
      });
      e.when(b, e.b().compare(CompareOpKind::Eq, e.ref(seg), e.i(i), c.span), std::move(arm));
    }
  }

  void emit(Block& out) {
    // Reduce-scatter step s (0-based) folds segment me - s - 2; after P - 1 steps I hold segment me.
    e.loop(out, "rs_step", e.i(0), e.i(p - 1),
           [&](Block& b, Expr s) { step(b, s, e.bin(BinaryOpKind::Add, s, e.i(2)), true); });
    // Allgather step s copies segment me - s - 1, which my left neighbour completed one step before.
    e.loop(out, "ag_step", e.i(0), e.i(p - 1), [&](Block& b, Expr s) {
      step(b, e.bin(BinaryOpKind::Add, s, e.i(p - 1)), e.bin(BinaryOpKind::Add, s, e.i(1)), false);
    });
    e.barrier(out, signal, e.i(2), e.i(0));
    e.epilogue(out, signal, e.i(2), e.i(0));
    for (long long r = 1; r < 2 * (p - 1); ++r) e.epilogue(out, signal, e.i(1), e.i(r));
  }
};

}  // namespace

Expr lower_ring_allreduce(Emitter& e, const OpCall& c, Block& out, long long rows, long long cols) {
  Expr target = c.arg("target"), signal = c.arg("signal");
  const auto& shape = signal->type->shape;
  auto p = shape.size() == 2 ? as_const_int(shape[1]) : std::nullopt;
  auto steps = shape.size() == 2 ? as_const_int(shape[0]) : std::nullopt;
  if (!p || !steps || *p < 1 || (*steps != 2 * (*p - 1) && *steps != 2 * (*p - 1) + 1)) {
    e.error(
        "mode=\"ring\": 'signal' must be a constant [2 * (NR - 1), NR] window of pl.INT32 (one row per "
        "ring step; [2 * (NR - 1) + 1, NR] from the host), got " +
        shape_str(shape));
    return nullptr;
  }
  if (const Expr& cores = c.arg("core_num"); cores && !cores->isa<NoneImm>() && as_const_int(cores) != 1) {
    e.error("mode=\"ring\" runs on one core: 'core_num' must be 1, as in PyPTO");
    return nullptr;
  }
  const Expr& op_arg = c.arg("op");
  const auto* m = op_arg ? op_arg->as<EnumImm>() : nullptr;
  Ring ring{e,
            c,
            target,
            signal,
            *p,
            rows,
            segments(cols, *p),
            dtype_bytes(target->type->dtype),
            m ? m->value : "Sum"};
  e.begin(c, target, out);
  if (*p > 1) ring.emit(out);
  return target;
}

}  // namespace ptodist::transforms::collectives
