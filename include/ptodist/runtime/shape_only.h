// `ptodist predict`'s fast path: a run observed by a given event stream gives every matmul a result
// of the right shape without multiplying (the timing model reads shapes, never tile data), so the
// published all-gather + GEMM size predicts in seconds. The CLI turns it off for a program whose
// control flow may read computed data (a pl.read).
#pragma once

namespace ptodist::runtime {

namespace events {
class EventStream;
}

// Matmuls reported to `stream` skip their arithmetic; null: every matmul computes (the default).
void skip_matmul_arithmetic(const events::EventStream* stream);

}  // namespace ptodist::runtime
