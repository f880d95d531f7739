// Small helpers of the run-time values.
#include "ptodist/runtime/value.h"

namespace ptodist::runtime {

long long TensorView::byte_offset(const Dims& index) const {
  long long elems = 0;
  for (size_t i = 0; i < index.size() && i < strides.size(); ++i) elems += index[i] * strides[i];
  return elems * ir::dtype_bytes(dtype);
}

Dims dense_strides(const Dims& shape) {
  Dims strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

}  // namespace ptodist::runtime
