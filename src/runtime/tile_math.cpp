// Element access and conversion through the kernels library, N-D strided region copies and atomic
// element adds on raw bytes.
#include "tile_math.h"

#include <atomic>
#include <cmath>
#include <cstring>
#include <vector>

#include "ptodist/kernels/cast.h"
#include "ptodist/kernels/convert.h"
#include "ptodist/kernels/copy.h"
#include "ptodist/runtime/shape_only.h"

namespace ptodist::runtime {

template <typename T>
static T read_as(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
static void write_as(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

double load_element(const std::byte* p, ir::DType t) {
  return kernels::load_scalar(elem_type(t), p);
}

void store_element(std::byte* p, ir::DType t, double v) {
  kernels::store_scalar(elem_type(t), p, v);
}

kernels::ElemType elem_type(ir::DType t) {
  switch (t) {
    case ir::DType::FP32:
      return kernels::ElemType::F32;
    case ir::DType::FP16:
      return kernels::ElemType::F16;
    case ir::DType::BF16:
      return kernels::ElemType::BF16;
    case ir::DType::INT32:
      return kernels::ElemType::I32;
    case ir::DType::INT16:
      return kernels::ElemType::I16;
    case ir::DType::INT8:
      return kernels::ElemType::I8;
    case ir::DType::UINT8:
      return kernels::ElemType::U8;
    case ir::DType::UINT16:
      return kernels::ElemType::U16;
    case ir::DType::UINT32:
      return kernels::ElemType::U32;
    case ir::DType::INT64:
    case ir::DType::INDEX:
      return kernels::ElemType::I64;
    case ir::DType::BOOL:
      return kernels::ElemType::Bool;
  }
  return kernels::ElemType::F32;
}

void convert_elements(const std::byte* src, ir::DType st, std::byte* dst, ir::DType dt, long long n) {
  if (st == dt) {
    std::memcpy(dst, src, n * ir::dtype_bytes(st));
    return;
  }
  auto src_view =
      kernels::TileView::contiguous(const_cast<std::byte*>(src), 1, static_cast<int>(n), elem_type(st));
  kernels::cast(kernels::TileView::contiguous(dst, 1, static_cast<int>(n), elem_type(dt)), src_view);
}

namespace {

constexpr size_t kMaxRegionDims = 8;

// A region with its unit dims dropped and each pair of dims that is contiguous on both sides merged:
// most loads and stores become one run or a 2-D copy of rows.
struct CollapsedRegion {
  size_t rank = 0;
  long long shape[kMaxRegionDims], src[kMaxRegionDims], dst[kMaxRegionDims];
};

void collapse(std::span<const long long> shape, std::span<const long long> src_strides,
              std::span<const long long> dst_strides, CollapsedRegion& r) {
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    if (r.rank > 0) {
      size_t k = r.rank - 1;
      if (r.src[k] == src_strides[i] * shape[i] && r.dst[k] == dst_strides[i] * shape[i]) {
        r.shape[k] *= shape[i];
        r.src[k] = src_strides[i];
        r.dst[k] = dst_strides[i];
        continue;
      }
    }
    r.shape[r.rank] = shape[i];
    r.src[r.rank] = src_strides[i];
    r.dst[r.rank] = dst_strides[i];
    ++r.rank;
  }
}

// Calls f(src_offset, dst_offset) (in elements) for every index of the region's first `outer` dims.
template <typename F>
void for_each_outer(const CollapsedRegion& r, size_t outer, F&& f) {
  long long idx[kMaxRegionDims] = {};
  long long so = 0, doff = 0;
  while (true) {
    f(so, doff);
    size_t i = outer;
    while (true) {
      if (i == 0) return;
      --i;
      so += r.src[i];
      doff += r.dst[i];
      if (++idx[i] < r.shape[i]) break;
      so -= r.src[i] * r.shape[i];
      doff -= r.dst[i] * r.shape[i];
      idx[i] = 0;
    }
  }
}

// The general odometer, for regions of more dims than CollapsedRegion holds.
void copy_region_any_rank(const std::byte* src, ir::DType st, std::span<const long long> src_strides,
                          std::byte* dst, ir::DType dt, std::span<const long long> dst_strides,
                          std::span<const long long> shape) {
  const size_t rank = shape.size();
  const int sb = ir::dtype_bytes(st), db = ir::dtype_bytes(dt);
  std::vector<long long> idx(rank, 0);
  while (true) {
    long long so = 0, doff = 0;
    for (size_t i = 0; i < rank; ++i) {
      so += idx[i] * src_strides[i];
      doff += idx[i] * dst_strides[i];
    }
    convert_elements(src + so * sb, st, dst + doff * db, dt, 1);
    size_t i = rank;
    while (true) {
      if (i == 0) return;
      --i;
      if (++idx[i] < shape[i]) break;
      idx[i] = 0;
    }
  }
}

}  // namespace

void copy_region(const std::byte* src, ir::DType st, std::span<const long long> src_strides, std::byte* dst,
                 ir::DType dt, std::span<const long long> dst_strides, std::span<const long long> shape) {
  for (long long d : shape)
    if (d <= 0) return;
  if (skips_copy_of(dt)) [[unlikely]]  // `ptodist predict` (shape_only.h)
    return;
  if (shape.size() > kMaxRegionDims)
    return copy_region_any_rank(src, st, src_strides, dst, dt, dst_strides, shape);
  CollapsedRegion r;
  collapse(shape, src_strides, dst_strides, r);
  if (r.rank == 0) return convert_elements(src, st, dst, dt, 1);
  const int sb = ir::dtype_bytes(st), db = ir::dtype_bytes(dt);
  const size_t last = r.rank - 1;
  const bool rows_dense = r.src[last] == 1 && r.dst[last] == 1;
  if (rows_dense && st == dt && r.rank >= 2) {
    // Same type, dense rows: the last two dims are one 2-D copy (a single memmove when both sides
    // are dense), as kernels::copy does for tiles.
    const long long rows = r.shape[last - 1];
    for_each_outer(r, last - 1, [&](long long so, long long doff) {
      kernels::copy_2d(dst + doff * db, r.dst[last - 1] * db, src + so * sb, r.src[last - 1] * sb,
                       static_cast<int>(rows), r.shape[last] * sb);
    });
    return;
  }
  if (rows_dense) {
    for_each_outer(r, last, [&](long long so, long long doff) {
      convert_elements(src + so * sb, st, dst + doff * db, dt, r.shape[last]);
    });
    return;
  }
  for_each_outer(r, r.rank, [&](long long so, long long doff) {
    convert_elements(src + so * sb, st, dst + doff * db, dt, 1);
  });
}

template <typename Bits, typename F>
static void cas_add(std::byte* p, F add) {
  std::atomic_ref<Bits> ref(*reinterpret_cast<Bits*>(p));
  Bits old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, add(old), std::memory_order_acq_rel)) {
  }
}

void atomic_add_elements(std::byte* dst, const std::byte* src, long long n, ir::DType t) {
  int b = ir::dtype_bytes(t);
  for (long long i = 0; i < n; ++i) {
    std::byte* p = dst + i * b;
    const std::byte* q = src + i * b;
    switch (t) {
      case ir::DType::FP32:
        std::atomic_ref<float>(*reinterpret_cast<float*>(p)).fetch_add(read_as<float>(q));
        break;
      case ir::DType::INT32:
        std::atomic_ref<int32_t>(*reinterpret_cast<int32_t*>(p)).fetch_add(read_as<int32_t>(q));
        break;
      case ir::DType::INT64:
      case ir::DType::INDEX:
        std::atomic_ref<int64_t>(*reinterpret_cast<int64_t*>(p)).fetch_add(read_as<int64_t>(q));
        break;
      case ir::DType::FP16:
        cas_add<uint16_t>(p, [&](uint16_t o) {
          return kernels::fp32_to_fp16(kernels::fp16_to_fp32(o) +
                                       kernels::fp16_to_fp32(read_as<uint16_t>(q)));
        });
        break;
      case ir::DType::BF16:
        cas_add<uint16_t>(p, [&](uint16_t o) {
          return kernels::fp32_to_bf16(kernels::bf16_to_fp32(o) +
                                       kernels::bf16_to_fp32(read_as<uint16_t>(q)));
        });
        break;
      case ir::DType::INT16:
      case ir::DType::UINT16:
        cas_add<int16_t>(p, [&](int16_t o) { return static_cast<int16_t>(o + read_as<int16_t>(q)); });
        break;
      case ir::DType::INT8:
      case ir::DType::UINT8:
      case ir::DType::BOOL:
        cas_add<uint8_t>(p, [&](uint8_t o) { return static_cast<uint8_t>(o + read_as<uint8_t>(q)); });
        break;
    }
  }
}

}  // namespace ptodist::runtime
