// Kernel-local tensors and tensor-level matmuls as tiles (PyPTO's ConvertTensorToTileOps: tensor.create
// is tile.create; its MatmulSlice pattern loads a tensor.matmul's sliced operands straight into Mat, a
// transposed one through a view, and its memory inference moves them to Left / Right and keeps the
// product in Acc). pypto-lib's split-K idiom is the case that matters:
//
//   acc = pl.create_tensor([M, N], dtype=pl.FP32)
//   for kb in pl.pipeline(...):
//       if kb == 0: acc = pl.matmul(x[.., k0:k0+K], w[.., k0:k0+K], b_trans=True, out_dtype=pl.FP32)
//       else:       acc = pl.matmul_acc(acc, x[..], w[..], b_trans=True)
//   out = pl.assemble(out, acc, [r, 0])
//
// `acc` becomes an Acc tile. Whatever reads a converted value is rebuilt through the builder, so it is
// typed as the front end would have typed it had the program written tiles (a vector op reading the
// accumulator moves it to Vec first, as ac1443f does in the front end, and its result is a tile), and
// the variables it defines are retyped in turn, to a fixpoint. ptodist's runtime runs both forms, so a
// variable whose conversion does not type-check (a use with no tile form) keeps its tensor form: the CPU
// runtime still runs it and the PTO emitter names the op it cannot lower.
#include <set>

#include "../tile_matmul.h"
#include "plan.h"

namespace ptodist::transforms::detail {

using namespace ir;

Function convert_tile_matmuls(const Program& p, const Function& f, PassContext& cx) {
  Function split = tile_matmul::split_redefinitions(p, f);
  Definitions defs;
  collect_defs(split->body, defs);
  for (const Param& prm : split->params) defs[prm.var.get()].push_back(nullptr);
  // One accumulator at a time, keeping those that convert with the ones before them: a use with no tile
  // form costs only its own accumulator.
  std::set<const VarNode*> accepted;
  Function best;
  for (const VarNode* v : tile_matmul::accumulators(defs, cx.profile)) {
    std::set<const VarNode*> trial = accepted;
    trial.insert(v);
    if (Function out = tile_matmul::try_convert(p, split, trial, defs, cx.profile)) {
      accepted = std::move(trial);
      best = out;
    }
  }
  return best ? best : f;
}

}  // namespace ptodist::transforms::detail
