// Valid regions and windows of tiles in PTO text, as PyPTO's backend lowers them: pl.fillpad is
// pto.tfillpad into a tile whose type carries the pad value, pl.set_validshape narrows its operand's
// buffer in place (pto.set_validshape), pl.tile.assemble into a tile moves the source into a pto.subview
// window of the target, and a slice of a tile is a pto.subview window of it, copied.
#include "emitter.h"
#include "ptodist/ir/functor.h"

namespace ptodist::codegen::pto {

using namespace ir;

namespace {

// PTOAS's pad code of a pl.PadValue (PyPTO's enum order: null, zero, max, min); a literal 0 is zero.
int pad_code(const Expr& pad_value) {
  std::string v = enum_value(pad_value, "zero");
  return v == "max" ? 2 : v == "min" ? 3 : v == "null" ? 0 : 1;
}

const OpCall* defining_call(const Assign& a) {
  if (a.targets.size() != 1 || !a.targets[0] || !a.value) return nullptr;
  return a.value->as<OpCall>();
}

// The statements of a kernel numbered in program order, with where each variable is read or written and
// each loop and each branch of an if begins and ends: enough to see whether a tile is used after
// pl.set_validshape narrowed it.
struct TileReads : Walker {
  using Range = std::pair<int, int>;  // [first, last] statement
  int pos = 0;
  std::map<int, std::vector<std::pair<int, SourceSpan>>> accesses;  // variable id -> (statement, span)
  std::vector<Range> loops;                                         // the body of each loop
  std::vector<std::pair<Range, Range>> branches;                    // the then and else body of each if
  std::map<int, int> defined;                                       // variable id -> its first definition
  std::map<const OpCall*, int> set_validshape_at;

  // Whether statements `a` and `b` are in the two branches of one if, so one never runs after the other
  // unless a loop around the if (whose body starts after `def`) runs it again.
  bool exclusive(int a, int b, int def) const {
    for (const auto& [first, last] : loops)
      if (first <= a && a <= last && first <= b && b <= last && def < first) return false;
    auto in = [](int p, const Range& r) { return r.first <= p && p <= r.second; };
    for (const auto& [then_r, else_r] : branches)
      if ((in(a, then_r) && in(b, else_r)) || (in(a, else_r) && in(b, then_r))) return true;
    return false;
  }

  void visit_stmt(const Stmt& s) override {
    ++pos;
    if (const auto* a = s->as<Assign>()) {
      for (const Var& v : a->targets) {
        if (!v) continue;
        defined.try_emplace(v->id, pos);
        accesses[v->id].push_back({pos, a->span});
      }
      if (const OpCall* c = defining_call(*a); c && c->op->id == OpId::SetValidShape)
        set_validshape_at[c] = pos;
    }
    if (s->isa<For>() || s->isa<While>()) {
      int first = pos + 1;
      Walker::visit_stmt(s);
      loops.push_back({first, pos});
      return;
    }
    if (const auto* i = s->as<If>()) {
      visit_expr(i->cond);
      Range then_r{pos + 1, 0}, else_r{0, 0};
      for (const Stmt& t : i->then_body) visit_stmt(t);
      then_r.second = pos;
      else_r.first = pos + 1;
      for (const Stmt& e : i->else_body) visit_stmt(e);
      else_r.second = pos;
      branches.push_back({then_r, else_r});
      return;
    }
    Walker::visit_stmt(s);
  }
  void visit_expr(const Expr& e) override {
    if (const auto* r = e ? e->as<VarRef>() : nullptr) accesses[r->var->id].push_back({pos, e->span});
    Walker::visit_expr(e);
  }
};

// Whether some op of `body` writes tile variable `v` in place: a matmul_acc or gemv_acc accumulating into it,
// an assemble into it, a tile write or an in-place fillpad of it.
bool written_in_place(const Block& body, int v) {
  struct Finder : Walker {
    int v = 0;
    bool found = false;
    void visit_expr(const Expr& e) override {
      const auto* c = e ? e->as<OpCall>() : nullptr;
      const char* slot = !c                                  ? nullptr
                         : c->op->id == OpId::MatmulAcc      ? "acc"
                         : c->op->id == OpId::GemvAcc        ? "acc"
                         : c->op->id == OpId::Assemble       ? "target"
                         : c->op->id == OpId::TileWrite      ? "tile"
                         : c->op->id == OpId::FillPadInplace ? "tile"
                                                             : nullptr;
      const auto* r = slot && c->arg(slot) ? c->arg(slot)->as<VarRef>() : nullptr;
      if (r && r->var->id == v) found = true;
      Walker::visit_expr(e);
    }
  } finder;
  finder.v = v;
  for (const Stmt& s : body) finder.visit_stmt(s);
  return finder.found;
}

}  // namespace

// What the statements ask of each tile variable's allocation (TileForm), and the variables that
// pl.set_validshape defines: they name their operand's buffer and get no pto.alloc_tile of their own.
// PyPTO's pto.set_validshape narrows the operand's buffer itself, where ptodist's runtime leaves the
// operand as it was; the two agree only while nothing reads the operand after it, which is checked.
void FunctionEmitter::collect_tile_forms() {
  TileReads reads;
  for (const Stmt& s : fn_.body) reads.visit_stmt(s);
  std::map<int, int> alias_of;  // set_validshape result -> its operand
  for_each_assign(fn_.body, [&](const Assign& a) {
    const OpCall* c = defining_call(a);
    if (!c) return;
    const Var& v = a.targets[0];
    if (c->op->id == OpId::FillPad || c->op->id == OpId::FillPadInplace || c->op->id == OpId::FillPadExpand) {
      int pad = pad_code(c->arg("pad_value"));
      auto [it, fresh_form] = forms_.try_emplace(v->id, TileForm{pad, false});
      if (!fresh_form && it->second.pad != 0 && it->second.pad != pad)
        fail(c->span, c->op->spelling + ": '" + v->name +
                          "' is padded with two different values; PTO's pad value is part of its tile type "
                          "(one per buffer): pad into a new variable");
      it->second.pad = pad;
      return;
    }
    if (c->op->id != OpId::SetValidShape) return;
    const auto* operand = c->arg("input")->as<VarRef>();
    if (!operand) return;  // name-tile-operands names every tile operand; the emitter reports it
    int root = operand->var->id;
    while (alias_of.count(root)) root = alias_of[root];
    if (!alias_of.count(v->id) && !forms_.count(v->id)) set_validshape_results_.insert(v->id);
    alias_of[v->id] = operand->var->id;
    forms_[root].dynamic_valid = true;
    auto def = reads.defined.find(operand->var->id);
    int at = reads.set_validshape_at[c], first_def = def == reads.defined.end() ? 0 : def->second;
    std::vector<std::pair<int, SourceSpan>> reachable;  // the accesses not in the if's other branch
    for (const auto& access : reads.accesses[operand->var->id])
      if (!reads.exclusive(at, access.first, first_def)) reachable.push_back(access);
    check_not_read_after(*operand, at, first_def, reachable, reads.loops);
  });
}

// A read or write of `operand` (first defined at statement `def`) after the set_validshape at statement
// `at`, or anywhere in a loop around it that the operand was defined before (the next iteration uses the
// narrowed buffer), is a located error.
void FunctionEmitter::check_not_read_after(const VarRef& operand, int at, int def,
                                           const std::vector<std::pair<int, SourceSpan>>& accesses,
                                           const std::vector<std::pair<int, int>>& loops) {
  for (const auto& [p, span] : accesses) {
    bool later = p > at;
    for (const auto& [first, last] : loops)
      later = later || (p != at && first <= at && at <= last && first <= p && p <= last && def < first);
    if (!later) continue;
    fail(span, "'" + operand.var->name +
                   "' is used after pl.set_validshape narrowed it: PTO narrows the valid region of the "
                   "operand's own buffer (pto.set_validshape, as PyPTO lowers it), so use the result of "
                   "pl.set_validshape instead, or narrow a copy (pl.move)");
    return;
  }
}

// `r = pl.set_validshape(t, rows, cols)`: t's buffer gets the new valid extents and r names it.
void FunctionEmitter::emit_set_validshape(const CallSite& site) {
  const OpCall& c = site.call;
  const TileRef* t = tile_of(c.arg("input"), c, "input");
  if (!t) return;
  Value rows = emit_scalar_as(c.arg("valid_rows"), "index");
  Value cols = emit_scalar_as(c.arg("valid_cols"), "index");
  if (!rows.valid() || !cols.valid()) return;
  line("pto.set_validshape " + t->ssa + ", " + rows.ssa + ", " + cols.ssa + " : " + t->type);
  if (Var r = site.result()) {
    TileRef narrowed = *t;
    narrowed.ir_type = c.type;
    tiles_[r->id] = narrowed;
    // The name lives as long as the handle: to the end of the block that allocated it.
    auto depth = alloc_depth_.find(c.arg("input")->as<VarRef>()->var->id);
    if (depth != alloc_depth_.end()) alloc_depth_[r->id] = depth->second;
  }
}

// pl.fillpad: the operand's valid region, and the pad everywhere else, into the result tile, whose type
// carries the pad value (PyPTO's tile.fillpad: pto.tfillpad ins(src) outs(dst)).
void FunctionEmitter::emit_fillpad(const CallSite& site) {
  const OpCall& c = site.call;
  const char* slot = c.op->id == OpId::FillPad ? "value" : "tile";
  const TileRef* in = tile_of(c.arg(slot), c, slot);
  const TileRef* out = result_tile(site);
  if (in && out) line("pto.tfillpad " + ins_outs({in}, "", "", *out));
}

// `r = pl.tile.assemble(target, src, [row, col])` (PyPTO's MakeTileAssembleCodegenPTO): r's buffer is the
// target's (plan-memory gives it the target's address; otherwise the target is first copied into it), and
// the source's valid region moves into a pto.subview window of it at the offset.
void FunctionEmitter::emit_tile_assemble(const CallSite& site) {
  const OpCall& c = site.call;
  const TileRef* target = tile_of(c.arg("target"), c, "target");
  const TileRef* src = tile_of(c.arg("source"), c, "source");
  const TileRef* dst = site.result() ? result_tile(site) : target;
  if (!target || !src || !dst) return;
  if (src->ir_type->shape.size() != 2 || dst->ir_type->shape.size() != 2) {
    fail(c.span, c.op->spelling +
                     ": assembling into a tile has a PTO lowering for 2-D tiles only (pto.subview " +
                     "takes a row and a column offset)");
    return;
  }
  std::vector<Value> offs = emit_index_list(c.arg("offset"), "offset", c);
  const std::vector<Expr>& valid =
      src->ir_type->valid_shape.empty() ? src->ir_type->shape : src->ir_type->valid_shape;
  Value rows = emit_scalar_as(valid[0], "index"), cols = emit_scalar_as(valid[1], "index");
  if (failed_) return;
  if (dst->ssa != target->ssa && !(dst->addr >= 0 && dst->addr == target->addr))
    line("pto.tmov " + ins_outs({target}, "", "", *dst));
  std::vector<long long> shape = dims_of(src->ir_type);
  std::string view_type = tile_view_type(
      src->ir_type, {as_const_int(valid[0]).value_or(-1), as_const_int(valid[1]).value_or(-1)}, dst->pad);
  std::string view = fresh("assemble_view");
  line(view + " = pto.subview " + dst->ssa + "[" + offs[0].ssa + ", " + offs[1].ssa + "] sizes [" +
       std::to_string(shape[0]) + ", " + std::to_string(shape[1]) + "] valid [" + rows.ssa + ", " + cols.ssa +
       "] : " + dst->type + " -> " + view_type);
  line("pto.tmov ins(" + src->ssa + " : " + src->type + ") outs(" + view + " : " + view_type + ")");
}

// `r = pl.slice(t, [R, C], [row, col][, valid_shape=[vr, vc]])` of a tile: PyPTO's tile.slice is the
// window `pto.subview %t[row, col] sizes [R, C]`; ptodist plans r as a tile of its own (the runtime
// copies), so the window is copied into it, as a reshape's view is.
void FunctionEmitter::emit_tile_slice(const CallSite& site) {
  const OpCall& c = site.call;
  const TileRef* src = tile_of(c.arg("input"), c, "input");
  const TileRef* out = result_tile(site);
  if (!src || !out) return;
  if (src->ir_type->shape.size() != 2 || out->ir_type->shape.size() != 2) {
    fail(c.span, c.op->spelling +
                     ": slicing a tile has a PTO lowering for 2-D tiles only (pto.subview takes a " +
                     "row and a column offset)");
    return;
  }
  // The device's slice is a window of the source's bytes; here it is a copy (pto.tmov), so a slice
  // written in place (ptodist's runtime writes it back to the source) would leave the source as it was.
  Var r = site.result();
  if (src->ir_type->memory == Memory::Acc || (r && written_in_place(fn_.body, r->id))) {
    fail(c.span, c.op->spelling +
                     ": a slice of a tile that is written in place afterwards (pl.matmul_acc into it, an "
                     "assemble into it), or of an Acc tile, has no PTO lowering yet: PTO copies the "
                     "window with pto.tmov, which has no Acc-to-Acc form and leaves the source unwritten");
    return;
  }
  std::vector<Value> offs = emit_index_list(c.arg("offset"), "offset", c);
  std::vector<long long> shape = dims_of(out->ir_type);
  const std::vector<Expr>& valid = out->ir_type->valid_shape;
  std::string valid_clause;
  std::vector<long long> view_valid = shape;
  if (valid.size() == 2) {
    Value rows = emit_scalar_as(valid[0], "index"), cols = emit_scalar_as(valid[1], "index");
    valid_clause = " valid [" + rows.ssa + ", " + cols.ssa + "]";
    view_valid = {as_const_int(valid[0]).value_or(-1), as_const_int(valid[1]).value_or(-1)};
  }
  if (failed_) return;
  std::string view_type = tile_view_type(out->ir_type, view_valid, src->pad);
  std::string view = fresh("slice_view");
  line(view + " = pto.subview " + src->ssa + "[" + offs[0].ssa + ", " + offs[1].ssa + "] sizes [" +
       std::to_string(shape[0]) + ", " + std::to_string(shape[1]) + "]" + valid_clause + " : " + src->type +
       " -> " + view_type);
  line("pto.tmov ins(" + view + " : " + view_type + ") outs(" + out->ssa + " : " + out->type + ")");
}

}  // namespace ptodist::codegen::pto
