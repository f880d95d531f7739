// name-tile-operands: hoists tile-valued op calls out of operand positions into named temporaries.
//
// Only operands of op calls are hoisted, through chains of op calls: they are evaluated exactly once,
// left to right, before the op, so naming them first keeps the order. A tile computed inside a
// conditional expression or a boolean operator would not always be evaluated, and stays where it is.
#include "ptodist/transforms/name_tile_operands.h"

#include "rewrite_util.h"

namespace ptodist::transforms {

using namespace ir;

namespace {

bool is_tile_call(const Expr& e) {
  return e && e->kind == ExprKind::OpCall && e->type && e->type->kind == TypeKind::Tile;
}

class Namer {
 public:
  Namer(PassContext& cx, const Program& p, const Function& f) : vars_(p, f), make_(cx.diags, p, f) {}

  Block stmt(const Stmt& s) {
    Block before;
    Stmt out = s;
    if (const auto* a = s->as<Assign>()) {
      Expr v = operands(a->value, before);
      if (v != a->value) out = with_value<Assign>(*a, v);
    } else if (const auto* x = s->as<ExprStmt>()) {
      Expr v = operands(x->value, before);
      if (v != x->value) out = with_value<ExprStmt>(*x, v);
    } else if (const auto* r = s->as<Return>()) {
      auto c = std::make_shared<Return>(*r);
      for (Expr& e : c->values) e = operands(e, before);
      out = c;
    }
    before.push_back(out);
    return before;
  }

 private:
  template <typename S>
  static Stmt with_value(const S& s, Expr value) {
    auto c = std::make_shared<S>(s);
    c->value = std::move(value);
    return c;
  }

  // `e` with the tile calls among its op-call operands replaced by fresh variables, whose assignments
  // are appended to `before`.
  Expr operands(const Expr& e, Block& before) {
    const auto* call = e ? e->as<OpCall>() : nullptr;
    if (!call) return e;
    auto copy = std::static_pointer_cast<OpCall>(detail::copy_expr(*call));
    bool changed = false;
    for (std::vector<Expr>* list : {&copy->args, &copy->varargs})
      for (Expr& arg : *list) {
        Expr named = operand(arg, before);
        changed |= named != arg;
        arg = named;
      }
    return changed ? Expr(copy) : e;
  }

  Expr operand(const Expr& arg, Block& before) {
    if (!arg || arg->kind != ExprKind::OpCall) return arg;
    Expr inner = operands(arg, before);
    if (!is_tile_call(inner)) return inner;
    Var v = vars_.make("tile", inner->type, inner->span);
    before.push_back(detail::make_assign(v, inner, inner->span));
    return make_.ref(v, inner->span);
  }

  detail::VarFactory vars_;
  detail::OpMaker make_;
};

}  // namespace

Program name_tile_operands(const Program& p, PassContext& cx) {
  return detail::map_kernels(p, [&](const Function& f) -> Function {
    Namer namer(cx, p, f);
    return detail::with_body(f, detail::map_blocks(f->body, [&](const Stmt& s) { return namer.stmt(s); }));
  });
}

}  // namespace ptodist::transforms
