// Statement affinity for expand-mixed-kernel, after PyPTO's core-affinity rules: an op that makes a
// tile runs where that tile lives; one that makes none (a store, a tile read) runs where its first
// tile operand lives; an op without tiles is shared, and both kernels run it.
#include "affinity.h"

#include "../rewrite_util.h"
#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::transforms::mixed {

using namespace ir;

bool is_cube_memory(Memory m) {
  return m != Memory::Vec;
}

namespace {

Side side_of_memory(Memory m) {
  return is_cube_memory(m) ? Side::Cube : Side::Vector;
}

const TypeNode* tile_type_of(const Type& t) {
  return t && t->kind == TypeKind::Tile ? t.get() : nullptr;
}

Side side_of_op(const OpCall& c) {
  if (const TypeNode* out = tile_type_of(c.type)) return side_of_memory(out->memory);
  for (const std::vector<Expr>* list : {&c.args, &c.varargs})
    for (const Expr& a : *list)
      if (const TypeNode* t = a ? tile_type_of(a->type) : nullptr) return side_of_memory(t->memory);
  // An op without tiles that writes memory or signals a peer must run once, not on both cores: on the
  // vector core, where PyPTO moves data through UB. A notify publishes what the vector core put (PyPTO
  // marks it never to be duplicated: a copy on the cube could release a peer before the data landed).
  // A wait stays on both, so that neither core runs ahead of the data it waits for.
  if (c.op->effects & (kWritesGM | kWritesRemote | kNotify | kAsyncIssue | kSession)) return Side::Vector;
  return Side::Shared;
}

// The op calls of the expressions a statement holds at its own level (not in its nested blocks).
class ExprSides : public Walker {
 public:
  Side side = Side::Shared;
  void visit_expr(const Expr& e) override {
    if (const auto* c = e ? e->as<OpCall>() : nullptr) side = combine(side, side_of_op(*c));
    Walker::visit_expr(e);
  }
  void visit_block(const Block&) override {}
};

}  // namespace

Side combine(Side a, Side b) {
  if (a == Side::Shared) return b;
  if (b == Side::Shared || a == b) return a;
  return Side::Mixed;
}

std::optional<Boundary> boundary_of(const Stmt& s) {
  const OpCall* c = detail::stmt_op_call(s);
  if (!c || c->op->id != OpId::Move) return std::nullopt;
  const Expr& from = c->arg("tile");
  const TypeNode* src = from ? tile_type_of(from->type) : nullptr;
  const TypeNode* dst = tile_type_of(c->type);
  if (!src || !dst || is_cube_memory(src->memory) == is_cube_memory(dst->memory)) return std::nullopt;
  return Boundary{c, is_cube_memory(src->memory)};
}

Side side_of(const Stmt& s) {
  if (boundary_of(s)) return Side::Mixed;
  ExprSides own;
  own.visit_stmt(s);
  Side side = own.side;
  if (const auto* f = s->as<For>()) side = combine(side, side_of(f->body));
  if (const auto* w = s->as<While>()) side = combine(side, side_of(w->body));
  if (const auto* m = s->as<ManualScope>()) side = combine(side, side_of(m->body));
  if (const auto* i = s->as<If>())
    side = combine(side, combine(side_of(i->then_body), side_of(i->else_body)));
  return side;
}

Side side_of(const Block& b) {
  Side side = Side::Shared;
  for (const Stmt& s : b) side = combine(side, side_of(s));
  return side;
}

}  // namespace ptodist::transforms::mixed
