// add-op-scratch: gives each op whose tile form takes a scratch tile that tile, as PyPTO's
// ConvertTensorToTileOps does (its AppendScratchTile): today the high-precision rsqrt, whose pto.trsqrt
// takes a second input of the operand's shape and dtype.
#include "ptodist/transforms/add_op_scratch.h"

#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"
#include "rewrite_util.h"

namespace ptodist::transforms {

using namespace ir;

namespace {

// `pl.rsqrt(tile, high_precision=True)` (or a tensor's, converted to a tile by convert-tensor-to-tile).
bool needs_scratch(const OpCall& c) {
  if (c.op->id != OpId::Rsqrt || !c.type || c.type->kind != TypeKind::Tile) return false;
  const Expr& hp = c.arg("high_precision");
  const auto* b = hp ? hp->as<BoolImm>() : nullptr;
  return b && b->value;
}

class ScratchAdder {
 public:
  ScratchAdder(PassContext& cx, const Program& p, const Function& f) : make_(cx.diags, p, f), vars_(p, f) {}

  Block stmt(const Stmt& s) {
    const OpCall* c = detail::stmt_op_call(s);
    if (!c || !needs_scratch(*c)) return {s};
    Block out;
    const Expr& input = c->arg("input");
    Builder& b = make_.builder();
    Expr create = make_.call(OpId::CreateTile,
                             {{"shape", b.list(input->type->shape, c->span)},
                              {"dtype", b.dtype_imm(input->type->dtype, c->span)},
                              {"target_memory", b.enum_imm(EnumKind::Memory, "Vec", c->span)}},
                             c->span);
    if (!create) return fail(s);
    Var tmp = vars_.make("rsqrt_tmp", create->type, c->span);
    out.push_back(detail::make_assign(tmp, create, c->span));
    Expr call = b.op_call_slots(*find_op("pl.tile.rsqrt"), {input, nullptr, make_.ref(tmp, c->span)}, {},
                                make_.scope(), c->span);
    if (!call) return fail(s);
    auto copy = detail::copy_stmt(*s);
    if (auto* a = dynamic_cast<Assign*>(copy.get()))
      a->value = call;
    else
      static_cast<ExprStmt*>(copy.get())->value = call;
    out.push_back(copy);
    return out;
  }

  bool failed() const { return failed_; }

 private:
  Block fail(const Stmt& s) {
    failed_ = true;
    return {s};
  }

  detail::OpMaker make_;
  detail::VarFactory vars_;
  bool failed_ = false;
};

// A high-precision rsqrt left where no statement can precede it (inside a conditional expression or a
// boolean operator, which name-tile-operands leaves in place) has nowhere for its scratch: an error.
struct Leftovers : Walker {
  DiagnosticEngine& diags;
  bool found = false;
  explicit Leftovers(DiagnosticEngine& d) : diags(d) {}
  void visit_expr(const Expr& e) override {
    const auto* c = e ? e->as<OpCall>() : nullptr;
    if (c && needs_scratch(*c)) {
      diags.error(c->span, c->op->spelling +
                               ": a high-precision rsqrt of a tile inside a conditional expression or "
                               "boolean operator has no place for its scratch tile; assign it to a "
                               "variable first");
      found = true;
    }
    Walker::visit_expr(e);
  }
};

}  // namespace

Program add_op_scratch(const Program& p, PassContext& cx) {
  return detail::map_kernels(p, [&](const Function& f) -> Function {
    ScratchAdder adder(cx, p, f);
    Block body = detail::map_blocks(f->body, [&](const Stmt& s) { return adder.stmt(s); });
    if (adder.failed()) return nullptr;
    Function out = detail::with_body(f, std::move(body));
    Leftovers left(cx.diags);
    left.visit_function(out);
    return left.found ? nullptr : out;
  });
}

}  // namespace ptodist::transforms
