// Op costs of the timing model (docs/timing.md, "Ops"): data movement at the per-core path rates
// (MTE2 GM->UB/L1, MTE3 UB->GM, FixPipe L0C->GM, MTE1 L1->L0A/L0B), matmuls at the cube's rate for
// their dtype, tile arithmetic at the vector unit's bytes per cycle, remote accesses at the link's
// rate, everything else a scalar instruction's cost. No tile data is read: shapes and dtypes suffice.
#include "op_cost.h"

#include <algorithm>

namespace ptodist::timing {
namespace {

using ir::OpId;
using runtime::events::Event;
using runtime::events::Operand;
using runtime::events::Space;

bool on_chip(Space s) {
  return s == Space::Vec || s == Space::Mat || s == Space::Left || s == Space::Right || s == Space::Acc ||
         s == Space::Bias;
}

double cube_rate(ir::DType t, const TimingParams& p) {
  switch (t) {
    case ir::DType::FP16:
    case ir::DType::BF16:
      return p.cube_flops_per_cycle_fp16;
    case ir::DType::INT8:
    case ir::DType::UINT8:
      return p.cube_flops_per_cycle_int8;
    default:
      return p.cube_flops_per_cycle_fp32;
  }
}

// GM -> on-chip (MTE2), on-chip -> GM (MTE3 or FixPipe), and between on-chip buffers (MTE1, FixPipe).
double path_rate(Space from, Space to, const TimingParams& p, Pipe* pipe) {
  if (from == Space::GM && to == Space::Vec) return *pipe = Pipe::MTE2, p.gm_to_ub_bytes_per_cycle;
  if (from == Space::GM) return *pipe = Pipe::MTE2, p.gm_to_l1_bytes_per_cycle;
  if (from == Space::Acc && to == Space::GM) return *pipe = Pipe::FixPipe, p.l0c_to_gm_bytes_per_cycle;
  if (to == Space::GM) return *pipe = Pipe::MTE3, p.ub_to_gm_bytes_per_cycle;
  if (from == Space::Mat && to == Space::Left) return *pipe = Pipe::MTE1, p.l1_to_l0a_bytes_per_cycle;
  if (from == Space::Mat && to == Space::Right) return *pipe = Pipe::MTE1, p.l1_to_l0b_bytes_per_cycle;
  // The bias table is filled from L1 on MTE1 too; no separate figure is published, L0B's is used.
  if (from == Space::Mat && to == Space::Bias) return *pipe = Pipe::MTE1, p.l1_to_l0b_bytes_per_cycle;
  if (from == Space::Acc) return *pipe = Pipe::FixPipe, p.l0c_to_ub_bytes_per_cycle;
  if (from == Space::Vec && to == Space::Mat) return *pipe = Pipe::MTE3, p.ub_to_l1_bytes_per_cycle;
  return *pipe = Pipe::Vector, p.vector_bytes_per_cycle;
}

OpCost scalar(const TimingParams& p) {
  OpCost c;
  c.core_us = p.cycles_us(p.scalar_op_cycles);
  return c;
}

OpCost matmul(const Event& e, const TimingParams& p) {
  const bool acc_first = e.op == OpId::MatmulAcc || e.op == OpId::GemvAcc;
  const Operand& lhs = acc_first && e.n_in >= 3 ? e.in[1] : e.in[0];
  OpCost c;
  c.pipe = Pipe::Cube;
  c.compute = true;
  const double m = static_cast<double>(e.result.rows), n = static_cast<double>(e.result.cols);
  // A batched tile product's rows stack the batches (its lhs may be broadcast, one batch only); its lhs
  // ends in K. So does a GEMV's one-row lhs, which the cube runs as one 16-row fractal (its result rows).
  const bool lhs_ends_in_k =
      e.op == OpId::BatchMatmul || e.op == OpId::Gemv || e.op == OpId::GemvAcc || e.op == OpId::GemvBias;
  const double k = lhs_ends_in_k ? static_cast<double>(lhs.cols)
                   : m > 0       ? static_cast<double>(lhs.rows * lhs.cols) / m
                                 : 0;
  c.core_us = p.cycles_us(2 * m * n * k / cube_rate(lhs.dtype, p));
  return c;
}

OpCost move(Space from, Space to, double bytes, const TimingParams& p) {
  OpCost c;
  c.compute = true;  // on-core data movement keeps the core busy as compute does
  c.core_us = p.bytes_us(bytes, path_rate(from, to, p, &c.pipe));
  if (from == Space::GM || to == Space::GM) c.hbm_bytes = bytes;
  return c;
}

// A synchronous remote access: through UB at the core's path rate and over the link, both in turn
// (or overlapped with two staging tiles), plus the link's latency.
OpCost remote(const Event& e, int rank, bool writes, const TimingParams& p) {
  OpCost c;
  c.pipe = Pipe::Link;
  c.remote = true;
  const double bytes = static_cast<double>(e.bytes);
  const double local = p.bytes_us(bytes, writes ? p.gm_to_ub_bytes_per_cycle : p.ub_to_gm_bytes_per_cycle);
  const bool staged =
      e.op == OpId::TilePut || e.op == OpId::TileGet || e.op == OpId::Put || e.op == OpId::Get;
  if (e.peer == rank || e.peer < 0) {
    c.core_us = staged ? 2 * local : local;
    c.hbm_bytes = 2 * bytes;
    return c;
  }
  const double wire = TimingParams::gbps_us(bytes, p.link_bandwidth_gbps);
  c.core_us = (staged ? (e.pipelined ? std::max(local, wire) : local + wire) : std::max(local, wire)) +
              p.link_latency_us;
  c.link_bytes = bytes;
  c.link_from = writes ? rank : e.peer;
  c.link_to = writes ? e.peer : rank;
  c.hbm_bytes = bytes;
  return c;
}

// Tile arithmetic, casts and reductions: the vector unit streams the larger of its input and output.
OpCost vector(const Event& e, const TimingParams& p) {
  double bytes = static_cast<double>(e.result.bytes());
  for (int i = 0; i < e.n_in; ++i)
    if (on_chip(e.in[i].space)) bytes = std::max(bytes, static_cast<double>(e.in[i].bytes()));
  OpCost c;
  c.pipe = Pipe::Vector;
  c.compute = true;
  c.core_us = p.bytes_us(bytes, p.vector_bytes_per_cycle);
  return c;
}

// A tensor-level op (GM in, GM out): its bytes through HBM.
OpCost tensor_level(const Event& e, const TimingParams& p) {
  double bytes = static_cast<double>(e.result.bytes());
  for (int i = 0; i < e.n_in; ++i) bytes += static_cast<double>(e.in[i].bytes());
  OpCost c;
  c.pipe = Pipe::Vector;
  c.compute = true;
  c.hbm_bytes = bytes;
  c.core_us = TimingParams::gbps_us(bytes, p.hbm_bandwidth_gbps);
  return c;
}

}  // namespace

const char* pipe_name(Pipe p) {
  static const char* names[kPipes] = {"MTE2", "MTE1", "cube", "vector", "MTE3", "FIXP", "scalar", "link"};
  return names[static_cast<int>(p)];
}

OpCost op_cost(const Event& e, int rank, const TimingParams& p) {
  using namespace ir;
  const uint32_t fx = e.effects;
  if (fx & (kAsyncIssue | kAsyncTest | kSession | kSubmit | kNotify | kPrefetch)) return scalar(p);
  if (fx & (kWait | kAsyncWait)) return OpCost{};
  if (fx & (kFence | kInvalidate)) {
    OpCost c;
    c.core_us = p.fence_us;
    return c;
  }
  if (fx & (kReadsRemote | kWritesRemote)) return remote(e, rank, (fx & kWritesRemote) != 0, p);
  switch (e.op) {
    case OpId::Load:
      return move(Space::GM, e.result.space, static_cast<double>(e.result.bytes()), p);
    case OpId::Store:
      return move(e.n_in ? e.in[0].space : Space::Vec, Space::GM,
                  e.n_in ? static_cast<double>(e.in[0].bytes()) : 0, p);
    // The split-region boundary is a cross-core transfer: Acc -> UB on the FixPipe, UB -> L1 on MTE3.
    case OpId::AivShard:
    case OpId::AicGather:
    case OpId::Move:
    case OpId::Extract:
      return move(e.n_in ? e.in[0].space : Space::Vec, e.result.space, static_cast<double>(e.result.bytes()),
                  p);
    case OpId::Matmul:
    case OpId::MatmulAcc:
    case OpId::MatmulBias:
    case OpId::BatchMatmul:
    case OpId::Gemv:
    case OpId::GemvAcc:
    case OpId::GemvBias:
      return matmul(e, p);
    case OpId::Read:
    case OpId::Write:
    case OpId::TileRead:
    case OpId::TileWrite:
    case OpId::CreateTile:
    case OpId::Reshape:
    case OpId::ReinterpretView:
    case OpId::Slice:
    case OpId::TransposeView:  // a view: no data moves on the device
      return scalar(p);
    // Cross-core events: one FFTS message or check each, a scalar instruction's cost (the time a
    // wait spends blocked is the peer core's, as for the cross-core pipes).
    case OpId::SetFfts:
    case OpId::SyncSet:
    case OpId::SyncWait:
      return scalar(p);
    default:
      break;
  }
  if (on_chip(e.result.space)) return vector(e, p);
  if (e.result.space == Space::GM) return tensor_level(e, p);
  return scalar(p);
}

}  // namespace ptodist::timing
