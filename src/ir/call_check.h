// Checking calls: the arguments of a call of a program function against its parameters, and the function
// levels an op may be called from; shared by the Builder, the pl.spmd_submit contract and the verifier.
#pragma once

#include <string>
#include <vector>

#include "ptodist/ir/function.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::ir {

// An argument bound to a callee parameter position.
struct BoundArg {
  Expr value;
  SourceSpan span;
};

// True when a value of type `arg` may be passed where `param` is declared: same kind (a window-backed
// DistributedTensor may stand for a Tensor), same dtype for tensors and tiles, same rank, and equal
// dims where both are constants (symbolic dims are rechecked after specialize). Integer scalars
// convert among themselves and to floats.
bool arg_type_compatible(const Type& arg, const Type& param);

// Checks every argument against the callee's parameters, reporting "<who>: argument 'x' ..." errors.
bool check_call_arguments(const FunctionNode& callee, const std::vector<BoundArg>& args,
                          const std::string& who, const SourceSpan& call_span, DiagnosticEngine& diags);

// The type a call of `callee` produces: its return annotation (one type, or a Tuple of several); when
// unannotated, the types of its Out/InOut parameters (the tensors it writes, which PyPTO kernels
// return), a Tuple when several, None when there are none.
Type call_result_type(const FunctionNode& callee);

// The OpLevel bit of a function kind, and the levels of an op as words ("kernels (InCore, AIC, AIV)").
uint32_t level_bit(FunctionKind k);
std::string allowed_levels(uint32_t levels);

// Looks a function up among those of the scope; null when absent.
Function find_function(const std::vector<Function>* functions, std::string_view name);

}  // namespace ptodist::ir
