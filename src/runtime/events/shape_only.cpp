// Ops without tile data for `ptodist predict` (shape_only.h). A matmul's result tile is made where the
// real op would make it, and every check the real op makes still applies (a failing one runs the real
// op, which reports it); the copies of loads, stores and moves are skipped inside the real ops.
#include "ptodist/runtime/shape_only.h"

#include <atomic>
#include <optional>

#include "../exec.h"
#include "ptodist/kernels/matmul.h"

namespace ptodist::runtime {
namespace {

std::atomic<const events::EventStream*> skipping{nullptr};
thread_local bool op_skips_data = false;

bool fp16_bf16_fp32(ir::DType t) {
  return t == ir::DType::FP16 || t == ir::DType::BF16 || t == ir::DType::FP32;
}

}  // namespace

void skip_tile_data(const events::EventStream* stream) {
  skipping.store(stream, std::memory_order_relaxed);
}

bool skips_copy_of(ir::DType dtype) {
  return op_skips_data && dtype != ir::DType::INT32;
}

bool skips_tile_data(const events::EventStream& ev) {
  return skipping.load(std::memory_order_relaxed) == &ev;
}

TileDataScope::TileDataScope(bool skip) : previous_(op_skips_data) {
  op_skips_data = skip;
}
TileDataScope::~TileDataScope() {
  op_skips_data = previous_;
}

// The matmul's result without its arithmetic, or nullopt when it must run (not skipped, or a check
// of the real op would fail).
std::optional<Value> shape_only_matmul(Interp& in, const ir::OpCall& c, ir::OpId id,
                                       const events::EventStream& ev) {
  if (!skips_tile_data(ev)) return std::nullopt;
  if (id != ir::OpId::Matmul && id != ir::OpId::MatmulAcc) return std::nullopt;
  OperandHolder ha, hb, hc;
  const auto* a = std::get_if<TileValue>(&in.operand_arg(c, "lhs", ha));
  const auto* b = std::get_if<TileValue>(&in.operand_arg(c, "rhs", hb));
  if (!a || !b || a->cols() != b->rows() || !fp16_bf16_fp32(a->dtype) || !fp16_bf16_fp32(b->dtype))
    return std::nullopt;
  if (id == ir::OpId::MatmulAcc) {
    const auto* acc = std::get_if<TileValue>(&in.operand_arg(c, "acc", hc));
    if (!acc || acc->dtype != ir::DType::FP32 || acc->rows() != a->rows() || acc->cols() != b->cols())
      return std::nullopt;
    return Value(*acc);  // updated in place: the same tile
  }
  ir::DType acc_type = in.result_dtype(c, ir::DType::FP32);
  if (acc_type != ir::DType::FP32) return std::nullopt;
  return Value(in.new_tile(c, {a->rows(), b->cols()}, acc_type, ir::Memory::Acc));
}

}  // namespace ptodist::runtime
