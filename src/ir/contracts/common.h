// Helpers shared by the op contracts: typed access to operands and the recurring checks (kinds, int
// lists of a given rank, constant regions within bounds), each reporting a located error.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ptodist/ir/contracts.h"

namespace ptodist::ir::contracts {

// The type of slot `name`, or null when the slot is empty or untyped.
const TypeNode* type_of(const ContractContext& cx, std::string_view name);
// How an operand reads in a message: its type, or what kind of literal it is.
std::string describe(const Expr& e);
// True when the slot holds an explicit None or nothing.
bool omitted(const ContractContext& cx, std::string_view name);

// Each `need_*` reports "<op>: '<name>' must be <what>, got <describe>" and returns null/false/nullopt
// when the operand does not fit.
const TypeNode* need_kind(const ContractContext& cx, std::string_view name, TypeKind kind,
                          std::string_view what);
const TypeNode* need_tile(const ContractContext& cx, std::string_view name);
// A tile in Vec (where the vector unit computes); with `rank2` also of two dims.
const TypeNode* need_vec_tile(const ContractContext& cx, std::string_view name, bool rank2);
const TypeNode* need_tensor_like(const ContractContext& cx, std::string_view name);
const TypeNode* need_dist_tensor(const ContractContext& cx, std::string_view name, std::string_view why);
bool need_int_scalar(const ContractContext& cx, std::string_view name);
bool need_scalar(const ContractContext& cx, std::string_view name);
std::optional<DType> need_dtype(const ContractContext& cx, std::string_view name);
// An enum member of `kind` among `allowed` (all members when empty).
std::optional<std::string> need_enum(const ContractContext& cx, std::string_view name, EnumKind kind,
                                     const std::vector<std::string>& allowed,
                                     std::string_view spelled_prefix);
std::optional<Memory> need_memory(const ContractContext& cx, std::string_view name);

// A list of integer scalars; when `rank` >= 0 its length must be `rank` (`rank_of` names whose rank).
const std::vector<Expr>* need_int_list(const ContractContext& cx, std::string_view name, int rank,
                                       std::string_view rank_of);
// The constant values of a list when every element is constant.
std::optional<std::vector<long long>> const_values(const std::vector<Expr>& elements);
// Shape dims (constants, or symbolic dims skipped): each constant one must be positive.
bool check_positive_dims(const ContractContext& cx, std::string_view name, const std::vector<Expr>& dims);
// offsets + shape inside `bounds` for every dim where all three are constants.
bool check_in_bounds(const ContractContext& cx, std::string_view region_operand,
                     const std::vector<Expr>& offsets, const std::vector<Expr>& shape,
                     const std::vector<Expr>& bounds, std::string_view tensor_name);

// An operand ptodist accepts only at its PyPTO default (omitted, None, or False for flags); anything
// else is reported as "'<name>' (<what>) is not supported by ptodist yet".
bool need_default(const ContractContext& cx, std::string_view name, std::string_view what);

// A signal array: a pld.DistributedTensor of pl.INT32.
const TypeNode* need_signal(const ContractContext& cx, std::string_view name);

// `valid_shape` of pl.load / pl.slice: one dim per dim of `shapes` (the rank of operand `of`), each
// constant one in [0, shapes dim].
const std::vector<Expr>* need_valid_shape(const ContractContext& cx, const std::vector<Expr>& shapes,
                                          std::string_view of = "tensor");

// `atomic` (when given) is a pld.AtomicType member; Add only for dtypes the hardware accumulates.
bool check_atomic(const ContractContext& cx, DType dt);

// The namespace a call was spelled in: a unified op (pl.add) takes tiles or tensors, pl.tile.add only
// tiles, pl.tensor.add only tensors.
enum class Namespace { Unified, Tile, Tensor };
Namespace spelled_in(const ContractContext& cx);
// True when the call computes on GM tensors: spelled pl.tensor.*, or unified with a tensor `operand`.
bool takes_tensors(const ContractContext& cx, std::string_view operand);
// True when a unified call mixes a tile and a tensor in operands `a` and `b`: it computes on tiles, the
// tensor loaded into a Vec tile by convert-tensor-to-tile. PyPTO code mixes them because its pl.full is
// a tensor that its ConvertTensorToTileOps turns into a tile, where ptodist's pl.full is a tile already.
bool tile_with_tensor(const ContractContext& cx, std::string_view a, std::string_view b);

// A tensor-level elementwise result: a tensor of `shape` and `dtype` that keeps `valid` (the operand's
// valid region a pl.tensor.set_validshape set; empty: all valid), as PyPTO's tensor ops keep it.
Type tensor_keeping_valid(const std::vector<Expr>& shape, DType dtype, const std::vector<Expr>& valid);
// The valid region two tensor operands share: theirs when provably the same, else none (all valid).
std::vector<Expr> common_valid(const TypeNode* a, const TypeNode* b);

// A constant dim (an INT64 IntImm), and a dim computed from two others (`a op b`).
Expr const_dim(long long v);
Expr arith(BinaryOpKind op, Expr a, Expr b);
// "pl.Mem.Vec"
std::string mem_str(Memory m);
// A tile operand that must live in `mem`; `fix` tells the user how to get it there.
const TypeNode* need_tile_in(const ContractContext& cx, std::string_view name, Memory mem,
                             const std::string& fix);
// Constant dims (or shapes) that differ; symbolic dims are rechecked after specialize.
bool dims_differ(const Expr& a, const Expr& b);
bool shapes_differ(const std::vector<Expr>& a, const std::vector<Expr>& b);
// A cube (matmul) input dtype: PyPTO's matmul takes INT8 x INT8 (INT32 accumulator) or a float pair of
// equal dtypes (FP32 accumulator) (tile_ops/matmul.cpp).
bool need_cube_input(const ContractContext& cx, std::string_view name, const TypeNode* t);

std::string dtype_str(DType t);             // "pl.FP16"
std::string quoted(std::string_view name);  // "'name'"

}  // namespace ptodist::ir::contracts
