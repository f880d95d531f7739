// `ptodist predict`'s fast path: a run observed by a given event stream computes no tile data (the
// timing model reads shapes, never tile data), so the published all-gather + GEMM size predicts in
// seconds. A matmul makes a result tile of the right shape without multiplying; loads, stores and
// moves check their operands and regions as always but copy no bytes, except INT32 data (signal cells
// and what resets them). The CLI turns it off for a program whose control flow may read computed data
// (a pl.read, or a cast to INT32 that could feed a signal).
#pragma once

#include "ptodist/ir/dtype.h"

namespace ptodist::runtime {

namespace events {
class EventStream;
}

// Ops reported to `stream` skip their tile data; null: every op computes (the default).
void skip_tile_data(const events::EventStream* stream);
// Whether the op running on this thread skips copying data of `dtype` (set around each op of such a
// stream): every dtype but INT32, the signal cells and what resets them, which steer control flow.
bool skips_copy_of(ir::DType dtype);

}  // namespace ptodist::runtime
