// The pl.dynamic dims of a host orchestrator's parameters: bound from the tensors passed, from
// `--dim NAME=N`, or from the rank count, and composite dims (`M * 2`, `NR * SIZE`) evaluated from them.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ptodist/ir/function.h"

namespace ptodist::runtime {

using DimValues = std::map<std::string, long long>;

// The value of a dim (an integer, a pl.dynamic name, or + - * // % of these) under `dims`; nullopt while
// a name it uses is unbound.
std::optional<long long> eval_dim(const ir::Expr& dim, const DimValues& dims);

// Makes `dim` equal `extent`: a bound dim is checked, an unbound name takes the extent, and a composite
// dim with one unbound name is solved for it when it is linear in that name (`M * 2` = 128 gives M = 64).
// Returns "" when `dim` now equals `extent` or cannot be decided yet (`known` false then), else a reason.
std::string bind_dim(const ir::Expr& dim, long long extent, DimValues& dims, bool& known);

// Binds the dims of every host parameter from the shapes given (name -> shape) until nothing changes,
// then checks every dim of every given shape. Returns "" or a one-line reason naming the parameter.
std::string bind_host_dims(const ir::FunctionNode& host,
                           const std::map<std::string, std::vector<long long>>& shapes, DimValues& dims);

// The rank rule: the dim of a parameter the host orchestrator indexes by rank (`x[r]`, or `x[i, r]`
// passed with `device=r`; rank_dims in host_io.h) is the rank count, so its name (or the one unbound
// name of a composite) is bound from `ranks` when nothing bound it before.
std::string bind_rank_dims(const ir::FunctionNode& host, const std::map<std::string, size_t>& rank_dims,
                           int ranks, DimValues& dims);

// `--dim NAME=N` specs into `dims`; "" or a one-line reason.
std::string parse_dim_specs(const std::vector<std::string>& specs, DimValues& dims);

// The names of the pl.dynamic dims a parameter's shape uses, in order.
std::vector<std::string> dim_names(const ir::Param& p);

}  // namespace ptodist::runtime
