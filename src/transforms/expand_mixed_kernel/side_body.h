// One kernel's half of a mixed kernel (expand-mixed-kernel): the statements of its side and the shared
// ones, each boundary move turned into its end of a cross-core pipe, a tfree after each popped tile's
// last use, and the shared work the half no longer needs removed.
#pragma once

#include "../rewrite_util.h"
#include "affinity.h"

namespace ptodist::transforms::mixed {

// What crosses the pipe: which directions, and the largest tile (PyPTO sizes every slot for it).
struct PipeTraffic {
  bool to_vector = false;
  bool to_cube = false;
  long long slot_bytes = 0;
};

// Builds the body of the half that runs on `side` (Cube or Vector) from the InCore kernel's body.
// Returns false after a located error (a construct the split cannot express).
class SideBody {
 public:
  SideBody(Side side, detail::OpMaker& make, detail::VarFactory& vars, PipeTraffic& traffic,
           DiagnosticEngine& diags)
      : side_(side), make_(make), vars_(vars), traffic_(traffic), diags_(diags) {}

  bool build(const ir::Function& kernel, ir::Block& out);

 private:
  // A tile popped in the block being built, and the boundary statement that popped it.
  using Popped = std::pair<ir::Var, SourceSpan>;
  ir::Block block(const ir::Block& b);
  void boundary(const ir::Stmt& s, const Boundary& crossing, ir::Block& out, std::vector<Popped>& popped);
  ir::Stmt compound(const ir::Stmt& s);
  void free_after_last_use(ir::Block& b, const std::vector<Popped>& popped);
  ir::Expr pipe_op(ir::OpId id, std::initializer_list<std::pair<const char*, ir::Expr>> args,
                   SourceSpan span);
  void note_slot(const ir::Type& tile, bool to_vector);

  // A tile popped in a block: how often that block reads it, to find reads after it.
  struct PoppedTile {
    ir::Var tile;
    int reads_in_block = 0;
    SourceSpan span;
  };
  std::vector<PoppedTile> pops_;

  Side side_;
  detail::OpMaker& make_;
  detail::VarFactory& vars_;
  PipeTraffic& traffic_;
  DiagnosticEngine& diags_;
  bool ok_ = true;
};

// Removes the shared statements whose values this half never reads, and loops and branches left with
// nothing to do, until nothing more goes.
ir::Block drop_dead_shared(ir::Block body);

// A located error for a variable the half reads but only the other half computes (data that crosses
// the cores without a pl.move); false when there is one.
bool check_self_contained(const ir::Function& half, const char* what, DiagnosticEngine& diags);

// A located error for a GM tensor one half writes and the other reads (data that crosses the cores
// through GM, unordered after the split); false when there is one.
bool check_gm_handoffs(const ir::Function& aic, const ir::Function& aiv, DiagnosticEngine& diags);

}  // namespace ptodist::transforms::mixed
