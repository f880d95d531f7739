// Building each half of a mixed kernel (side_body.h). Shared statements are kept on both halves and a
// compound statement that holds both kinds is rebuilt on each with its pruned blocks, as PyPTO's
// ExpandMixedKernel does; ptodist's variables are mutable across a loop's iterations, so no loop state
// needs repair afterwards.
#include "side_body.h"

#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::transforms::mixed {

using namespace ir;

namespace {

// How many times a block (nested blocks included) reads a variable.
class ReadCount : public Walker {
 public:
  explicit ReadCount(const VarNode* v) : v_(v) {}
  int n = 0;
  void visit_expr(const Expr& e) override {
    if (const auto* r = e ? e->as<VarRef>() : nullptr; r && r->var.get() == v_) ++n;
    Walker::visit_expr(e);
  }

 private:
  const VarNode* v_;
};

int reads_of(const Block& b, const Var& v) {
  ReadCount c(v.get());
  c.visit_block(b);
  return c.n;
}

}  // namespace

Expr SideBody::pipe_op(OpId id, std::initializer_list<std::pair<const char*, Expr>> args, SourceSpan span) {
  Expr e = make_.call(id, args, span);
  if (!e) ok_ = false;
  return e;
}

void SideBody::note_slot(const Type& tile, bool to_vector) {
  (to_vector ? traffic_.to_vector : traffic_.to_cube) = true;
  traffic_.slot_bytes = std::max(traffic_.slot_bytes, detail::static_bytes(tile).value_or(0));
}

// `dst = pl.move(src, target_memory=M)` across the cores. The producer pushes `src`; the consumer pops
// it into `dst` (a vector pop lands in UB; a cube pop lands in L1, then moves on to M).
void SideBody::boundary(const Stmt& s, const Boundary& crossing, Block& out, std::vector<Popped>& popped) {
  const auto* a = s->as<Assign>();
  const Expr& src = crossing.move->arg("tile");
  Type dst_type = crossing.move->type;
  if (!a || a->targets.size() != 1 || !a->targets[0]) {
    diags_.error(s->span,
                 "expand-mixed-kernel: a pl.move between cube and vector memory must be assigned to a "
                 "variable, which the other core's kernel pops");
    ok_ = false;
    return;
  }
  if (!detail::static_bytes(dst_type)) {
    diags_.error(s->span,
                 "expand-mixed-kernel: a tile that crosses between the cube and vector cores needs a "
                 "static shape (the cross-core pipe's slots are sized for it)");
    ok_ = false;
    return;
  }
  const bool producer = (side_ == Side::Cube) == crossing.to_vector;
  const Var& dst = a->targets[0];
  SourceSpan at = s->span;
  auto split0 = [&] { return make_.i(0, at); };
  if (producer) {
    note_slot(dst_type, crossing.to_vector);
    Expr push = crossing.to_vector ? pipe_op(OpId::TpushToAiv, {{"tile", src}, {"split", split0()}}, at)
                                   : pipe_op(OpId::TpushToAic, {{"tile", src}, {"split", split0()}}, at);
    if (push) out.push_back(detail::make_expr_stmt(push, at));
    return;
  }
  std::vector<Expr> dims = dst_type->shape;
  Expr shape = make_.builder().list(dims, at);
  Expr dtype = make_.builder().dtype_imm(dst_type->dtype, at);
  Expr valid = dst_type->valid_shape.empty() ? nullptr : make_.builder().list(dst_type->valid_shape, at);
  if (crossing.to_vector) {
    Expr pop = pipe_op(OpId::TpopFromAic,
                       {{"shape", shape}, {"dtype", dtype}, {"split", split0()}, {"valid_shape", valid}}, at);
    if (!pop) return;
    auto assign = std::make_shared<Assign>(*a);
    assign->value = pop;
    assign->annotation = nullptr;
    out.push_back(assign);
    popped.push_back({dst, s->span});
    return;
  }
  // The cube pops into L1 (Mat); a Left/Right/Bias destination is one more move on the cube.
  Expr pop = pipe_op(OpId::TpopFromAiv,
                     {{"shape", shape}, {"dtype", dtype}, {"split", split0()}, {"valid_shape", valid}}, at);
  if (!pop) return;
  if (dst_type->memory == Memory::Mat) {
    out.push_back(detail::make_assign(dst, pop, at));
    popped.push_back({dst, s->span});
    return;
  }
  Var landed = vars_.make(dst->name + "_mat", pop->type, at);
  out.push_back(detail::make_assign(landed, pop, at));
  Expr move = make_.call(
      OpId::Move,
      {{"tile", make_.ref(landed, at)},
       {"target_memory",
        make_.builder().enum_imm(EnumKind::Memory, std::string(memory_name(dst_type->memory)), at)}},
      at);
  if (!move) {
    ok_ = false;
    return;
  }
  out.push_back(detail::make_assign(dst, move, at));
  popped.push_back({landed, s->span});
}

// A loop or branch that holds both kinds: the same statement with each block pruned for this side.
Stmt SideBody::compound(const Stmt& s) {
  return detail::with_nested_blocks(s, [this](const Block& b) { return block(b); });
}

// The consumer frees a popped slot once the tile is dead: after the last statement of the pop's block
// that reads it (PyPTO's tfree after the tpop chain).
void SideBody::free_after_last_use(Block& b, const std::vector<Popped>& popped) {
  for (const auto& [v, pop_span] : popped) {
    size_t last = 0;
    bool found = false;
    for (size_t i = 0; i < b.size(); ++i) {
      const auto* a = b[i]->as<Assign>();
      bool pops_it = a && a->targets.size() == 1 && a->targets[0] == v;
      if (pops_it || detail::vars_read(b[i]).count(v.get())) {
        last = i;
        found = true;
      }
    }
    if (!found) continue;
    pops_.push_back({v, reads_of(b, v), pop_span});
    SourceSpan at = b[last]->span;
    Expr tile = make_.ref(v, at);
    Expr free = side_ == Side::Vector ? pipe_op(OpId::TfreeToAic, {{"tile", tile}}, at)
                                      : pipe_op(OpId::TfreeToAiv, {{"tile", tile}}, at);
    if (free) b.insert(b.begin() + static_cast<long>(last) + 1, detail::make_expr_stmt(free, at));
  }
}

Block SideBody::block(const Block& b) {
  Block out;
  std::vector<Popped> popped;
  for (const Stmt& s : b) {
    if (auto crossing = boundary_of(s)) {
      boundary(s, *crossing, out, popped);
      continue;
    }
    Side side = side_of(s);
    if (side == Side::Shared || side == side_) {
      // The cube half returns nothing: the vector half gives the kernel's results (PyPTO's AIC kernel).
      if (side_ == Side::Cube && s->isa<Return>()) continue;
      out.push_back(s);
    } else if (side == Side::Mixed) {
      out.push_back(compound(s));
    }
  }
  free_after_last_use(out, popped);
  return out;
}

bool SideBody::build(const Function& kernel, Block& out) {
  out = block(kernel->body);
  // The slot is freed at the end of the pop's block: a read of the tile after that block would read a
  // slot the producer may already have refilled.
  for (const PoppedTile& p : pops_) {
    if (reads_of(out, p.tile) - 1 > p.reads_in_block) {
      diags_.error(p.span, "expand-mixed-kernel: the tile '" + p.tile->name +
                               "', which crosses between the cores here, is read after the loop or "
                               "branch it crosses in; ptodist frees its pipe slot at the end of that "
                               "block. Read it only there, or copy it first");
      return false;
    }
  }
  out = drop_dead_shared(std::move(out));
  return ok_;
}

}  // namespace ptodist::transforms::mixed
