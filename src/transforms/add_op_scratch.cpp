// add-op-scratch: gives each op whose tile form takes a scratch tile that tile, as PyPTO's
// ConvertTensorToTileOps does (its AppendScratchTile, and its row-reduction conversion) and its
// FlattenTileNdTo2D does for pto.ttrans: the high-precision rsqrt, whose pto.trsqrt takes a second input
// of the operand's shape and dtype; pl.row_sum / pl.row_max of a tile given no tmp_tile, whose
// pto.trowsum / pto.trowmax take one; and pl.transpose of a tile, whose scratch is of its input's type.
#include "ptodist/transforms/add_op_scratch.h"

#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"
#include "rewrite_util.h"

namespace ptodist::transforms {

using namespace ir;
using detail::given;

namespace {

// `pl.rsqrt(tile, high_precision=True)`, or `pl.row_sum(tile)` / `pl.row_max(tile)` / `pl.transpose(tile,
// ...)` without a tmp_tile (or a tensor's, converted to a tile by convert-tensor-to-tile).
bool needs_scratch(const OpCall& c) {
  if (!c.type || c.type->kind != TypeKind::Tile) return false;
  if (c.op->id == OpId::RowSum || c.op->id == OpId::RowMax || c.op->id == OpId::Transpose)
    return !given(c.arg("tmp_tile"));
  if (c.op->id != OpId::Rsqrt) return false;
  const Expr& hp = c.arg("high_precision");
  const auto* b = hp ? hp->as<BoolImm>() : nullptr;
  return b && b->value;
}

// The scratch's shape: the operand's, except a row reduction's, whose last dim is at least 128 (PyPTO's
// MakeReductionConv pads it so).
std::vector<Expr> scratch_shape(const OpCall& c, const Expr& input, Builder& b) {
  std::vector<Expr> shape = input->type->shape;
  bool row = c.op->id == OpId::RowSum || c.op->id == OpId::RowMax;
  if (row && shape.size() >= 2) {
    auto last = as_const_int(shape.back());
    if (!last || *last < 128) shape.back() = b.int_imm(128, c.span);
  }
  return shape;
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
                             {{"shape", b.list(scratch_shape(*c, input, b), c->span)},
                              {"dtype", b.dtype_imm(input->type->dtype, c->span)},
                              {"target_memory", b.enum_imm(EnumKind::Memory, "Vec", c->span)}},
                             c->span);
    if (!create) return fail(s);
    bool rsqrt = c->op->id == OpId::Rsqrt;
    const char* name = rsqrt ? "rsqrt_tmp" : c->op->id == OpId::Transpose ? "transpose_tmp" : "tmp_tile";
    Var tmp = vars_.make(name, create->type, c->span);
    out.push_back(detail::make_assign(tmp, create, c->span));
    std::vector<Expr> slots = c->args;
    if (!rsqrt)
      slots[static_cast<size_t>(op_info(c->op->id).param_index("tmp_tile"))] = make_.ref(tmp, c->span);
    Expr call = rsqrt ? b.op_call_slots(*find_op("pl.tile.rsqrt"), {input, nullptr, make_.ref(tmp, c->span)},
                                        {}, make_.scope(), c->span)
                      : b.op_call_slots(op_info(c->op->id), std::move(slots), {}, make_.scope(), c->span);
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

// An op left where no statement can precede it (inside a conditional expression or a boolean operator,
// which name-tile-operands leaves in place) has nowhere for its scratch: an error.
struct Leftovers : Walker {
  DiagnosticEngine& diags;
  bool found = false;
  explicit Leftovers(DiagnosticEngine& d) : diags(d) {}
  void visit_expr(const Expr& e) override {
    const auto* c = e ? e->as<OpCall>() : nullptr;
    if (c && needs_scratch(*c)) {
      diags.error(c->span, c->op->spelling +
                               ": a tile op that takes a scratch tile (a high-precision rsqrt, a row "
                               "reduction without tmp_tile) inside a conditional expression or boolean "
                               "operator has no place for it; assign it to a variable first");
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
