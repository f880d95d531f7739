// Host tensors from and to the outside world: .npy files, seeded random data and zeros for the host
// orchestrator's parameters (what `ptodist run --in/--out-dir` and the bench use).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ptodist/runtime/runtime.h"
#include "ptodist/support/npy.h"

namespace ptodist::runtime {

// The dim of each host parameter that the host orchestrator indexes by rank: 0 for `x[r]` with r a
// loop variable; k for `x[..., r, ...]` (r at index k) passed to a call with `device=r`.
std::map<std::string, size_t> rank_dims(const ir::FunctionNode& host);
// The parameters sliced per rank (`x[r]`, r a loop variable): slice r belongs to rank r alone.
std::set<std::string> rank_sliced_params(const ir::FunctionNode& host);

// .npy <-> HostTensor; a dtype numpy cannot name (or ptodist does not support) is a one-line error.
bool host_tensor_from_npy(const NpyArray& a, HostTensor& out, std::string& error);
NpyArray npy_from_host_tensor(const HostTensor& t);

// Seeded data: floats uniform in [-1, 1), integers in [-8, 8) ([0, 2) for UINT8 and BOOL). The stream
// depends on the seed and on `name`, so two inputs given the same seed still differ.
HostTensor random_tensor(ir::DType dtype, const std::vector<long long>& shape, unsigned long long seed,
                         const std::string& name);

// The machine's physical memory: the bound on one allocation (a host tensor, a window).
unsigned long long machine_memory_bytes();

// Builds every host argument from `--in name=FILE.npy|rand:SEED|zeros` specs. Defaults: an input
// (In or InOut) not named gets rand:0; an Out parameter gets zeros. Shapes come from the program; a
// dynamic dim takes its value from `--dim NAME=N` (dim_specs), else from a .npy input that binds it
// (composite dims such as `M * 2` are solved for their name), else (the dim a host orchestrator indexes by
// rank: rank_dims) the rank count (host_dims.h). Returns "" or a one-line reason.
std::string prepare_host_args(const ir::FunctionNode& host, int ranks, const std::vector<std::string>& specs,
                              std::map<std::string, HostTensor>& out,
                              const std::vector<std::string>& dim_specs = {});

// Writes every Out/InOut parameter to DIR/<name>.npy, all or nothing (each file is written under a
// temporary name and renamed once all are written); returns "" or a one-line reason.
std::string write_host_outputs(const ir::FunctionNode& host, const std::map<std::string, HostTensor>& args,
                               const std::string& dir);

}  // namespace ptodist::runtime
