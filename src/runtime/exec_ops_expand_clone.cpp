// The executor of pl.expand_clone: `src` read with a zero stride along its broadcast dim and written
// over the whole of `target` (PyPTO lowers it to loads and stores into the target; the result is it).
#include "exec.h"
#include "tile_math.h"

namespace ptodist::runtime {

Value op_ExpandClone(Interp& in, const ir::OpCall& c) {
  OperandHolder hs, ht;
  const TensorView& src = in.tensor_arg(c, "src", hs);
  const TensorView& target = in.tensor_arg(c, "target", ht);
  Dims strides = src.strides;
  for (size_t i = 0; i < target.shape.size(); ++i) {
    if (src.shape[i] == target.shape[i]) continue;
    if (src.shape[i] != 1)
      in.fail(c.span, c.op->spelling + ": 'src' " + dims_str(src.shape) + " cannot be expanded to " +
                          dims_str(target.shape) + " at dim " + std::to_string(i));
    strides[i] = 0;
  }
  const Dims zeros(target.shape.size(), 0);
  report_access(in, c, src, zeros, src.shape, false);
  report_access(in, c, target, zeros, target.shape, true);
  copy_region(src.data, src.dtype, strides, target.data, target.dtype, target.strides, target.shape);
  return target;
}

}  // namespace ptodist::runtime
