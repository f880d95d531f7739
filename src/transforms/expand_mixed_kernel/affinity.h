// Which core of an a2a3 core cluster each statement of an InCore kernel needs (expand-mixed-kernel):
// the cube (AIC: matmul, L1/L0 tiles), the vector core (AIV: UB tiles), both (a loop or branch holding
// both kinds, or a move between their memories), or neither (scalar work, tensor views, control).
#pragma once

#include "ptodist/ir/function.h"

namespace ptodist::transforms::mixed {

enum class Side { Shared, Cube, Vector, Mixed };

// The cube and vector units see disjoint on-chip memories: L1 (Mat), L0A/L0B/L0C (Left, Right, Acc)
// and the bias table on the cube side, UB (Vec) on the vector side.
bool is_cube_memory(ir::Memory m);

// A `pl.move` between a cube memory and Vec: the one statement whose data crosses the two cores.
struct Boundary {
  const ir::OpCall* move = nullptr;
  bool to_vector = false;  // cube to vector (an Acc or Mat tile read by vector ops), else vector to cube
};
// The boundary a statement is (`dst = pl.move(src, target_memory=...)` at its top level), if it is one.
std::optional<Boundary> boundary_of(const ir::Stmt& s);

// The side a statement runs on; a compound statement combines its condition and nested blocks.
// A statement that is a boundary move is Mixed.
Side side_of(const ir::Stmt& s);
Side side_of(const ir::Block& b);

// Combining the sides of two parts of one statement.
Side combine(Side a, Side b);

}  // namespace ptodist::transforms::mixed
