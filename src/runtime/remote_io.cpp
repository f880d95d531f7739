// Row-wise access to window regions through the transport, and the staged put/get loop.
#include "remote_io.h"

#include <algorithm>
#include <cstring>

#include "ptodist/runtime/shape_only.h"
#include "tile_math.h"

namespace ptodist::runtime {

long long Region::rows() const {
  long long n = 1;
  for (size_t i = 0; i + 1 < shape.size(); ++i) n *= shape[i];
  return n;
}

long long Region::elem_offset(long long row, long long col) const {
  long long off = 0;
  size_t n = shape.size();
  // Decompose the flattened row index over the leading dims, innermost leading dim first.
  for (size_t k = n >= 1 ? n - 1 : 0; k-- > 0;) {
    long long idx = row % shape[k];
    row /= shape[k];
    off += (offsets[k] + idx) * t->strides[k];
  }
  if (n >= 1) off += (offsets[n - 1] + col) * t->strides[n - 1];
  return off;
}

std::byte* Region::local_ptr(long long row, long long col) const {
  return t->data + elem_offset(row, col) * ir::dtype_bytes(t->dtype);
}

WindowAddr Region::row_addr(long long row, long long col) const {
  return WindowAddr{t->window.segment, t->window.offset + elem_offset(row, col) * ir::dtype_bytes(t->dtype)};
}

void write_row(Interp& in, const Region& r, int peer, long long row, long long col, long long ncols,
               const std::byte* src, bool atomic_add) {
  Transport& tr = in.world().transport();
  if (atomic_add)
    tr.accumulate(peer, r.row_addr(row, col), src, ncols, r.t->dtype);
  else
    tr.put(peer, r.row_addr(row, col), src, ncols * ir::dtype_bytes(r.t->dtype));
}

void copy_dense(const TensorView& v, std::byte* dst) {
  copy_region(v.data, v.dtype, v.strides, dst, v.dtype, dense_strides(v.shape), v.shape);
}

namespace {

struct Transfer {
  const TensorView* src = nullptr;
  const TensorView* dst = nullptr;
  Dims shape, src_offsets, dst_offsets;
};

Dims ints_or(Interp& in, const ir::OpCall& c, OperandName slot, Dims fallback) {
  return in.given_arg(c, slot) ? in.ints_arg(c, slot) : fallback;
}

void check_inner_contiguous(Interp& in, const ir::OpCall& c, const TensorView& t) {
  if (!t.strides.empty() && t.strides.back() != 1)
    in.fail(c.span, c.op->spelling + ": '" + t.name + "' must be contiguous in its last dim");
}

}  // namespace

void staged_transfer(Interp& in, const ir::OpCall& c, bool is_put, const TileValue* stage,
                     const TileValue* stage2) {
  OperandHolder hd, hs;
  Transfer x;
  x.dst = is_put ? &window_arg(in, c, "dst", hd) : &in.tensor_arg(c, "dst", hd);
  x.src = is_put ? &in.tensor_arg(c, "src", hs) : &window_arg(in, c, "src", hs);
  int peer = global_peer(in, c, is_put ? *x.dst : *x.src);
  if (x.src->dtype != x.dst->dtype) in.fail(c.span, c.op->spelling + ": 'src' and 'dst' dtypes differ");
  x.shape = ints_or(in, c, "shape", x.src->shape);
  x.src_offsets = ints_or(in, c, "src_offsets", Dims(x.src->shape.size(), 0));
  x.dst_offsets = ints_or(in, c, "dst_offsets", Dims(x.dst->shape.size(), 0));
  region_offset_bytes(in, c, *x.src, x.src_offsets, x.shape);
  region_offset_bytes(in, c, *x.dst, x.dst_offsets, x.shape);
  check_inner_contiguous(in, c, *x.src);
  check_inner_contiguous(in, c, *x.dst);
  Region rs{x.src, x.src_offsets, x.shape}, rd{x.dst, x.dst_offsets, x.shape};
  int eb = ir::dtype_bytes(x.src->dtype);
  long long rows = rs.rows(), cols = rs.cols();
  long long cr = std::min(rows, std::max(1LL, ints_or(in, c, "chunk_rows", {rows})[0]));
  long long cc = std::min(cols, std::max(1LL, ints_or(in, c, "chunk_cols", {cols})[0]));
  std::shared_ptr<void> pooled;
  if (stage) {
    cr = std::min(cr, stage->rows());
    cc = std::min(cc, stage->bytes() / std::max(1LL, stage->rows()) / eb);
    if (cc <= 0) in.fail(c.span, c.op->spelling + ": staging tile is too small for one element");
  } else {
    long long bytes = cr * cc * eb;
    if (bytes > in.world().profile().ub_bytes) {
      in.fail(c.span, c.op->spelling + ": a staging chunk of " + std::to_string(cr) + " x " +
                          std::to_string(cc) + " elements (" + std::to_string(bytes) +
                          " bytes) exceeds the Vec buffer (" + std::to_string(in.world().profile().ub_bytes) +
                          " bytes); set chunk_rows/chunk_cols");
    }
    if (!in.f.tiles) in.f.tiles = std::make_shared<TilePool>();
    pooled = in.f.tiles->take(bytes);
  }
  const ir::EnumImm* atomic = enum_arg(in, c, "atomic");
  bool add = is_put && atomic && atomic->value == "Add";
  // The source is read and the destination written as a whole (one switch point in check mode).
  report_accesses(in, c,
                  {MemoryAccess{*rs.t, rs.offsets, rs.shape, is_put ? in.f.rank : peer, false, false},
                   MemoryAccess{*rd.t, rd.offsets, rd.shape, is_put ? peer : in.f.rank, true, add}});
  Transport& tr = in.world().transport();
  if (skips_copy_of(x.dst->dtype)) rows = 0;  // `ptodist predict` (shape_only.h)
  int turn = 0;
  for (long long r0 = 0; r0 < rows; r0 += cr) {
    for (long long c0 = 0; c0 < cols; c0 += cc) {
      long long nr = std::min(cr, rows - r0), nc = std::min(cc, cols - c0);
      const TileValue* s = (stage2 && (turn++ & 1)) ? stage2 : stage;
      std::byte* buf = s ? s->data : static_cast<std::byte*>(pooled.get());
      for (long long i = 0; i < nr; ++i) {
        std::byte* slot = buf + i * nc * eb;
        if (is_put) {
          std::memcpy(slot, rs.local_ptr(r0 + i, c0), nc * eb);
        } else {
          tr.get(peer, rs.row_addr(r0 + i, c0), slot, nc * eb);
        }
      }
      for (long long i = 0; i < nr; ++i) {
        std::byte* slot = buf + i * nc * eb;
        if (is_put)
          write_row(in, rd, peer, r0 + i, c0, nc, slot, add);
        else
          std::memcpy(rd.local_ptr(r0 + i, c0), slot, nc * eb);
      }
    }
  }
  if (is_put && x.dst->dtype == ir::DType::INT32) in.world().wake(peer);
}

}  // namespace ptodist::runtime
