// Sizes of tiles and tensors whose shapes are known only at run time, checked before allocation.
#pragma once

#include "ptodist/ir/dtype.h"
#include "ptodist/runtime/value.h"

namespace ptodist::ir {
struct OpCall;
}

namespace ptodist::runtime {

class Interp;

// The bytes of a new `what` ("tile", "tensor") of `shape` and `dtype` made by `c`: a located error
// naming the shape and the bytes when a dim is negative or the size overflows or exceeds this
// machine's memory, so that no allocation wraps or aborts.
long long checked_bytes(const Interp& in, const ir::OpCall& c, const Dims& shape, ir::DType dtype,
                        const char* what);

}  // namespace ptodist::runtime
