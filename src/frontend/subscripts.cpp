// Slices in subscripts, desugared as PyPTO's parser does: a read `x[a:b, c:d]` is
// `pl.slice(x, [b - a, d - c], [a, c])` (`b - a` folded when b is `a + n`) and a write `dst[a:b, c:d] = src`
// rebinds `dst = pl.assemble(dst, src, [a, c])`; an omitted bound is 0 or the dim's size.
#include "parser_impl.h"
#include "ptodist/ir/printer.h"

namespace ptodist::frontend {

namespace {

std::vector<const SynExpr*> index_parts(const SynExpr& subscript) {
  const SynExpr& index = *subscript.items[1];
  std::vector<const SynExpr*> parts;
  if (index.kind == SynKind::Tuple && !index.parenthesized)
    for (const SynExprP& it : index.items) parts.push_back(it.get());
  else
    parts.push_back(&index);
  return parts;
}

bool has_slice(const std::vector<const SynExpr*>& parts) {
  for (const SynExpr* p : parts)
    if (p->kind == SynKind::Slice) return true;
  return false;
}

bool is_shaped(const ir::Type& t) {
  return t && (t->kind == ir::TypeKind::Tensor || t->kind == ir::TypeKind::DistTensor ||
               t->kind == ir::TypeKind::Tile);
}

// `stop - start`, folded when stop is `start + n` (or `n + start`): `x[t0:t0 + T]` has extent T, as
// PyPTO's simplifier gives it, so a slice of a constant width keeps a static shape.
ir::Expr slice_extent(ir::Builder& b, const ir::Expr& stop, const ir::Expr& start, const SourceSpan& span) {
  if (const auto* add = stop->as<ir::Binary>(); add && add->op == ir::BinaryOpKind::Add) {
    std::string from = ir::print_expr(start);
    if (ir::print_expr(add->lhs) == from) return add->rhs;
    if (ir::print_expr(add->rhs) == from) return add->lhs;
  }
  return b.binary(ir::BinaryOpKind::Sub, stop, start, span);
}

}  // namespace

bool Parser::is_slice_subscript(const SynExpr& e) const {
  return e.kind == SynKind::Subscript && has_slice(index_parts(e));
}

// The offsets and extents a slice subscript selects from `base`; nullopt after a located error.
std::optional<Parser::SliceWindow> Parser::lower_window(const SynExpr& subscript, const ir::Expr& base,
                                                        LowerCtx& cx) {
  std::vector<const SynExpr*> parts = index_parts(subscript);
  const ir::Type& t = base->type;
  if (!is_shaped(t)) {
    error(subscript.items[0]->span, "slicing needs a tensor or a tile, got " + ir::type_str(t));
    return std::nullopt;
  }
  if (parts.size() > t->shape.size()) {
    error(subscript.span, std::to_string(parts.size()) + " indices for a value of " +
                              std::to_string(t->shape.size()) + " dims");
    return std::nullopt;
  }
  SliceWindow w;
  bool ok = true;
  for (size_t i = 0; i < t->shape.size(); ++i) {
    const SynExpr* p = i < parts.size() ? parts[i] : nullptr;
    if (p && p->kind != SynKind::Slice) {
      error(p->span,
            "a single index among slices drops a dim, which is not supported yet; slice it "
            "instead (i:i + 1)");
      ok = false;
      continue;
    }
    auto bound = [&](size_t k) -> const SynExpr* {
      return p && k < p->items.size() && p->items[k]->kind != SynKind::None ? p->items[k].get() : nullptr;
    };
    if (p && (p->items.size() > 3 || bound(2))) {
      error(p->span, "slice steps are not supported; write start:stop");
      ok = false;
      continue;
    }
    ir::Expr start = bound(0) ? lower(*bound(0), cx) : b_->int_imm(0, subscript.span);
    ir::Expr stop = bound(1) ? lower(*bound(1), cx) : t->shape[i];
    if (!start || !stop) {
      ok = false;
      continue;
    }
    w.offsets.push_back(start);
    w.extents.push_back(bound(0) ? slice_extent(*b_, stop, start, p->span) : stop);
  }
  if (!ok) return std::nullopt;
  return w;
}

ir::Expr Parser::lower_slice_read(const SynExpr& e, LowerCtx& cx) {
  ir::Expr base = lower(*e.items[0], cx);
  if (!base) return nullptr;
  std::optional<SliceWindow> w = lower_window(e, base, cx);
  if (!w) return nullptr;
  const ir::OpInfo* op = ir::find_op("pl.slice");
  if (!op) {
    error(e.span,
          "a slice read lowers to pl.slice(x, shape, offset) as in PyPTO, which ptodist does not "
          "have yet");
    return nullptr;
  }
  std::vector<ir::CallArg> args{{"", base, e.items[0]->span},
                                {"", b_->list(w->extents, e.span), e.span},
                                {"", b_->list(w->offsets, e.span), e.span}};
  return b_->op_call(*op, args, cx.build, e.span);
}

// `dst[a:b, c:d] = src`: rebinds dst to `pl.assemble(dst, src, [a, c])`.
void Parser::parse_slice_assignment(ir::Block& out, const SynExpr& target, const SynExpr& value,
                                    LowerCtx& cx) {
  const SynExpr& base_syn = *target.items[0];
  if (base_syn.kind != SynKind::Name) {
    error(base_syn.span, "the target of a slice assignment must be a name: 'dst[a:b, c:d] = src'");
    return;
  }
  ir::Expr base = lower(base_syn, cx);
  ir::Expr src = lower(value, cx);
  if (!base || !src) return;
  std::optional<SliceWindow> w = lower_window(target, base, cx);
  if (!w) return;
  const ir::OpInfo* op = ir::find_op("pl.assemble");
  if (!op) {
    error(target.span,
          "a slice assignment lowers to dst = pl.assemble(dst, src, offset) as in PyPTO, which "
          "ptodist does not have yet");
    return;
  }
  std::vector<ir::CallArg> args{
      {"", base, base_syn.span}, {"", src, value.span}, {"", b_->list(w->offsets, target.span), target.span}};
  ir::Expr call = b_->op_call(*op, args, cx.build, target.span);
  if (!call) return;
  ir::Var v = bind_local(base_syn.text, call->type, base_syn.span, cx);
  if (!v) return;
  auto s = std::make_shared<ir::Assign>();
  s->span = target.span;
  s->targets.push_back(v);
  s->value = call;
  out.push_back(s);
}

}  // namespace ptodist::frontend
