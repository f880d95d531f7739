// The plan of the tensor-level matmul conversion (tile_matmul.h): which variables become accumulators
// and Mat operands, with their tile types, and the passes over a kernel that carry it out
// (split_redefinitions.cpp, retyper.cpp; convert.cpp drives them).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "../tile_retyper.h"
#include "ptodist/ir/function.h"
#include "ptodist/transforms/pass.h"

namespace ptodist::transforms::detail::tile_matmul {

// A pl.matmul / pl.matmul_acc computing a tensor.
bool is_tensor_matmul(const ir::OpCall& c);
// The [rows, cols] of a static matrix: a 2-D shape, or a batch of one ([1, .., 1, rows, cols], which
// PyPTO's FlattenTileNdTo2D makes a 2-D tile); nullopt for any other shape.
std::optional<std::vector<long long>> matrix_dims(const ir::Type& t);
// Whether a type is a static matrix (matrix_dims) of at most `bytes`.
bool static_matrix(const ir::Type& t, long long bytes);
// A plain slice that is a matrix (matrix_dims) of a tensor of two dims or more: a region one load reads.
bool is_matrix_slice(const ir::OpCall& c);

// How a matmul reads an operand: the cube memory it moves to and whether it is read transposed.
struct Role {
  ir::Memory memory = ir::Memory::Left;
  bool transposed = false;
  bool operator<(const Role& o) const {
    return std::tie(memory, transposed) < std::tie(o.memory, o.transposed);
  }
};

// The role of slot `slot` ("lhs" or "rhs") of a matmul, or nullopt when its transposition is not a
// literal.
std::optional<Role> role_of(const ir::OpCall& c, const char* slot);

// The axis of a 2-D operand that runs along K: a lhs [M, K] (a_trans: [K, M]), a rhs [K, N] (b_trans:
// [N, K]); of an operand of `rank` dims, the same axis of its trailing two.
size_t k_axis(const Role& r, size_t rank = 2);

// The plan of one trial: the accumulators to convert and the slice variables that become their Mat
// operands (each read in one role only).
struct Plan {
  std::set<const ir::VarNode*> accs;
  std::map<const ir::VarNode*, Role> operands;
  VarTypes types;                               // the tile type of each planned variable
  std::set<const ir::VarNode*> partial_slices;  // defined by a slice with valid_shape
  long long l1_bytes = 0;                       // what a Mat operand may take
  long long l0a_bytes = 0, l0b_bytes = 0;       // what a Left / Right operand may take
  // How many K chunks each converted matmul takes (0: none fits L0), and the operand variables read
  // in more than one (each chunk a load of its own where the variable was bound).
  std::map<const ir::OpCall*, long long> chunks;
  std::map<const ir::VarNode*, long long> operand_chunks;
};

// The variables that become tiles when the accumulators `accs` do, with their tile types.
Plan make_plan(const ir::Function& f, const std::set<const ir::VarNode*>& accs, const Definitions& defs,
               const ChipProfile& profile);
// The variables a trial may make accumulators, in program order: every definition a pl.create_tensor
// without init_value or a tensor-level matmul (one at least), a static 2-D shape that fits L0C.
std::vector<const ir::VarNode*> accumulators(const Definitions& defs, const ChipProfile& profile);

// Renames, from a top-level redefinition on, a matmul's result that straight-line code redefines by
// something else (gate.py's `logits = pl.row_expand_mul(logits, s)` after its split-K loop): the new
// value would be a Vec tile, the accumulator an Acc one, and a variable has one type. The function body
// is not in a loop, so the code after the statement sees only the new variable.
ir::Function split_redefinitions(const ir::Program& p, const ir::Function& f);

// `f` with the accumulators `accs` converted, or null when that does not type-check.
ir::Function try_convert(const ir::Program& p, const ir::Function& f,
                         const std::set<const ir::VarNode*>& accs, const Definitions& defs,
                         const ChipProfile& profile);

}  // namespace ptodist::transforms::detail::tile_matmul
