// The region operands shared by the transfer ops (put/get, put_async/get_async and their tile-level
// forms): dst_offsets, src_offsets and shape, given together or not at all.
#pragma once

#include "common.h"

namespace ptodist::ir::contracts {

struct TransferRegion {
  std::vector<Expr> shape;        // the region's dims: `shape`, or src's shape for a whole-tensor copy
  std::vector<Expr> dst_offsets;  // empty for a whole-tensor copy
  std::vector<Expr> src_offsets;
  bool explicit_region = false;
};

// A GM tensor operand (Tensor or DistributedTensor); a computed tile is named as such, since it has to
// be stored to a tensor first.
const TypeNode* need_gm_tensor(const ContractContext& cx, std::string_view name);

// dst and src dtypes equal ("'src' dtype ... must match 'dst' dtype ...").
bool check_transfer_dtypes(const ContractContext& cx, const TypeNode* dst, const TypeNode* src);

// In this order: src and dst of the same rank (before anything reads a region, so mismatched ranks
// cannot index past a shape), the three region operands together or none, each a list of that rank,
// positive dims, both regions in bounds; a whole-tensor copy needs equal shapes.
std::optional<TransferRegion> check_transfer_region(const ContractContext& cx, const TypeNode* dst,
                                                    const TypeNode* src);

// The DMA engine copies one flat run of bytes: the region must be static, logically 1-D (at most one
// dim > 1) and, in both tensors, contiguous (every dim after the long one is 1 in the tensor too).
bool check_dma_region(const ContractContext& cx, const TransferRegion& r, const TypeNode* dst,
                      const TypeNode* src);

// True when `dim` is certainly a run-time value: a dynamic dim, a call, or (when the scope lists the
// compile-time variables) a variable outside that list.
bool is_runtime_dim(const ContractContext& cx, const Expr& dim);

}  // namespace ptodist::ir::contracts
