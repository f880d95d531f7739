// Internal: regions of window-backed tensors addressed row by row through the transport, and the
// staged transfer loop shared by put/get at tensor and tile level.
#pragma once

#include <span>
#include <string>

#include "exec.h"
#include "ptodist/runtime/dma.h"

namespace ptodist::runtime {

// A region [offsets, offsets + shape) of a tensor, seen as rows (all leading dims flattened) of the
// innermost dim, which must be contiguous.
struct Region {
  const TensorView* t = nullptr;
  Dims offsets;
  Dims shape;

  long long rows() const;
  long long cols() const { return shape.empty() ? 1 : shape.back(); }
  long long row_bytes() const { return cols() * ir::dtype_bytes(t->dtype); }
  // Element offset (from t->data) of column `col` of row `row`.
  long long elem_offset(long long row, long long col) const;
  std::byte* local_ptr(long long row, long long col) const;
  WindowAddr row_addr(long long row, long long col) const;
};

const TensorView& window_arg(Interp& in, const ir::OpCall& c, OperandName slot, OperandHolder& holder);
// A signal cell's byte offset in window `t` at `offsets` (checked: an INT32 window, in bounds).
long long signal_cell_offset(Interp& in, const ir::OpCall& c, const TensorView& t, Dims& offsets);
// Writes `ncols` elements into row `row` (from column `col`) of the peer's copy of the region.
void write_row(Interp& in, const Region& r, int peer, long long row, long long col, long long ncols,
               const std::byte* src, bool atomic_add);
// Copies a (possibly strided) view into dense row-major bytes.
void copy_dense(const TensorView& v, std::byte* dst);
// Check mode's side of report_accesses (check/op_hooks.cpp): a switch point when one of them touches
// a window, then each region to the happens-before tracker.
void check_accesses(Interp& in, const ir::OpCall& c, std::span<const MemoryAccess> accesses);
// Check mode's side of report_transfer (check/op_hooks.cpp): the scheduler, check mode's DMA engine,
// takes the transfer and happens-before learns it.
EventValue check_transfer_issued(Interp& in, const ir::OpCall& c, DmaTransfer& t, const TensorView& local,
                                 const std::string& remote_name);

// put (local GM -> peer window) or get (peer window -> local GM) through one staging tile, or two
// alternating ones with pipeline=True; the tensor-level ops pass null stages and get pooled ones.
void staged_transfer(Interp& in, const ir::OpCall& c, bool is_put, const TileValue* stage,
                     const TileValue* stage2);

}  // namespace ptodist::runtime
