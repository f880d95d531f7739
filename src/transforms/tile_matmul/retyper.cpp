// try_convert (plan.h): one trial of the conversion, rewritten round by round (the Retyper) until the
// variables it retypes stop growing.
#include <string>

#include "../tile_retyper.h"
#include "plan.h"
#include "ptodist/ir/elementwise_ops.h"
#include "ptodist/ir/expand_ops.h"
#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/ir/reduce_ops.h"
#include "ptodist/ir/unary_ops.h"

namespace ptodist::transforms::detail::tile_matmul {

using namespace ir;

namespace {

// One round of the rewrite: the planned variables as tiles (`types`), each converted matmul on Mat
// loads moved to Left / Right (TileRetyper rebuilds the rest).
class Retyper : public TileRetyper {
 public:
  Retyper(DiagnosticEngine& scratch, const Program& p, const Function& f, const Plan& plan,
          const VarTypes& types)
      : TileRetyper(scratch, p, f, types), plan_(plan) {}

  // An operand read in K chunks is bound chunk by chunk where the slice was.
  Block rewrite_stmt(const Stmt& s) override {
    const auto* a = s->as<Assign>();
    const OpCall* c = a && a->value ? a->value->as<OpCall>() : nullptr;
    if (c && a->targets.size() == 1 && a->targets[0]) {
      auto operand = plan_.operands.find(a->targets[0].get());
      auto parts = plan_.operand_chunks.find(a->targets[0].get());
      if (operand != plan_.operands.end() && parts->second > 1) {
        Block out;
        bind_chunks(a->targets[0], *c, operand->second, parts->second, out);
        return out;
      }
    }
    return TileRetyper::rewrite_stmt(s);
  }

 protected:
  Expr define(const Var& target, const Expr& value, Block& out) override {
    const OpCall& c = *value->as<OpCall>();
    auto operand = plan_.operands.find(target.get());
    if (plan_.accs.count(target.get()) && c.op->id == OpId::CreateTensor)
      return create_acc(c, types_.at(target.get()));
    if (plan_.accs.count(target.get())) return tile_matmul(c, target, out);
    if (operand != plan_.operands.end()) return load_slice(c, operand->second.transposed, out);
    return TileRetyper::define(target, value, out);
  }

 private:
  // The Acc tile of the accumulator's type `acc` (a batch of one is its 2-D matrix).
  Expr create_acc(const OpCall& c, const Type& acc) {
    if (given(c.arg("init_value"))) return nullptr;
    return make_.call(OpId::CreateTile,
                      {{"shape", make_.builder().list(acc->shape, c.span)},
                       {"dtype", c.arg("dtype")},
                       {"target_memory", memory(Memory::Acc, c.span)}},
                      c.span);
  }

  // The tile form of a tensor-level matmul defining accumulator `target`: one tile matmul, or, when the
  // operands exceed L0 with the whole K extent, one per K chunk, accumulating (the last is the value,
  // the others statements before it).
  Expr tile_matmul(const OpCall& c, const Var& target, Block& prelude) {
    auto parts = plan_.chunks.find(&c);
    if (!is_tensor_matmul(c) || parts == plan_.chunks.end() || parts->second == 0) return nullptr;
    Expr value;
    for (long long j = 0; j < parts->second; ++j) {
      if (value) prelude.push_back(make_assign(map_var(target), value, c.span));
      Expr lhs = operand(c, "lhs", j, parts->second, prelude);
      Expr rhs = operand(c, "rhs", j, parts->second, prelude);
      if (!lhs || !rhs) return nullptr;
      if (j == 0 && c.op->id == OpId::Matmul)
        value =
            make_.call(OpId::Matmul,
                       {{"lhs", lhs}, {"rhs", rhs}, {"out_dtype", rewrite_opt(c.arg("out_dtype"))}}, c.span);
      else
        value = make_.call(OpId::MatmulAcc,
                           {{"acc", j == 0 ? rewrite_expr(c.arg("acc")) : make_.ref(map_var(target), c.span)},
                            {"lhs", lhs},
                            {"rhs", rhs},
                            {"init_cond", j == 0 ? rewrite_opt(c.arg("init_cond")) : nullptr}},
                           c.span);
      if (!value) return nullptr;
    }
    return value;
  }

  // The K chunks of operand variable `v` (bound by slice `c`), each loaded where `v` was bound.
  void bind_chunks(const Var& v, const OpCall& c, const Role& role, long long parts, Block& out) {
    std::vector<Var>& chunks = chunk_vars_[v.get()];
    chunks.clear();
    for (long long j = 0; j < parts; ++j) {
      Expr slice = chunk_slice(c, role, j, parts);
      Expr load = slice ? load_slice(*slice->as<OpCall>(), role.transposed, out) : nullptr;
      if (!load) {
        failed_ = true;
        return;
      }
      chunks.push_back(vars_.make(v->name + "_k" + std::to_string(j), load->type, c.span));
      out.push_back(make_assign(chunks.back(), load, c.span));
    }
  }

  // Chunk `j` of `parts` of slice `c` along its K axis (the region's K extent must be valid whole).
  Expr chunk_slice(const OpCall& c, const Role& role, long long j, long long parts) {
    const std::vector<Expr>* shape = as_list(c.arg("shape"));
    const std::vector<Expr>* offset = as_list(c.arg("offset"));
    const std::vector<Expr>* valid = given(c.arg("valid_shape")) ? as_list(c.arg("valid_shape")) : nullptr;
    size_t axis = shape ? k_axis(role, shape->size()) : 0;
    auto k = shape && shape->size() >= 2 ? as_const_int((*shape)[axis]) : std::nullopt;
    if (!k || !offset || (valid && as_const_int((*valid)[axis]) != k)) return nullptr;
    long long kc = *k / parts;
    Builder& b = make_.builder();
    std::vector<Expr> sh = *shape, off = *offset, va = valid ? *valid : std::vector<Expr>{};
    sh[axis] = make_.i(kc, c.span);
    if (j > 0) off[axis] = b.binary(BinaryOpKind::Add, off[axis], make_.i(j * kc, c.span), c.span);
    if (valid) va[axis] = sh[axis];
    return make_.call(OpId::Slice,
                      {{"input", rewrite_expr(c.args[0])},
                       {"shape", b.list(sh, c.span)},
                       {"offset", b.list(off, c.span)},
                       {"valid_shape", valid ? b.list(va, c.span) : nullptr}},
                      c.span);
  }

  // The whole of 2-D tensor `e` as a slice of itself, for chunking.
  Expr whole_slice(const Expr& e) {
    auto dims = e->type ? e->type->static_shape() : std::nullopt;
    if (!dims || dims->size() != 2) return nullptr;
    return make_.call(
        OpId::Slice,
        {{"input", e}, {"shape", make_.ints(*dims, e->span)}, {"offset", make_.ints({0, 0}, e->span)}},
        e->span);
  }

  // Chunk `j` of `parts` of operand `slot` of matmul `c` in Left / Right: a planned Mat variable (or
  // its chunk), or a load of the slice or whole 2-D tensor it names (or of that region's chunk).
  Expr operand(const OpCall& c, const char* slot, long long j, long long parts, Block& prelude) {
    auto role = role_of(c, slot);
    const Expr& arg = c.arg(slot);
    if (!role || !arg) return nullptr;
    Expr mat;
    Var v = as_var(arg);
    const OpCall* s = as_op_call(arg);
    auto chunks = v ? chunk_vars_.find(v.get()) : chunk_vars_.end();
    if (v && plan_.operands.count(v.get()) && parts > 1) {
      if (chunks != chunk_vars_.end() && static_cast<long long>(chunks->second.size()) == parts)
        mat = make_.ref(chunks->second[static_cast<size_t>(j)], arg->span);
    } else if (v && plan_.operands.count(v.get())) {
      mat = make_.ref(map_var(v), arg->span);
    } else if (s && is_matrix_slice(*s)) {
      Expr chunk = parts > 1 ? chunk_slice(*s, *role, j, parts) : nullptr;
      if (parts == 1 || chunk) mat = load_slice(chunk ? *chunk->as<OpCall>() : *s, role->transposed, prelude);
    } else if (v && !plan_.partial_slices.count(v.get()) && static_matrix(arg->type, plan_.l1_bytes)) {
      Expr whole = parts > 1 ? whole_slice(rewrite_expr(arg)) : nullptr;
      Expr chunk = whole ? chunk_slice(*whole->as<OpCall>(), *role, j, parts) : nullptr;
      if (parts == 1)
        mat = load_mat(rewrite_expr(arg), nullptr, role->transposed, prelude, arg->span);
      else if (chunk)
        mat = load_slice(*chunk->as<OpCall>(), role->transposed, prelude);
    }
    // k_chunks sized the chunks for L0; a partially valid tile is no larger than its shape.
    long long l0 = role->memory == Memory::Left ? plan_.l0a_bytes : plan_.l0b_bytes;
    if (!mat || !static_matrix(mat->type, l0)) return nullptr;
    return make_.call(OpId::Move, {{"tile", mat}, {"target_memory", memory(role->memory, arg->span)}},
                      arg->span);
  }

  // A slice as a Mat load of its region (partially valid with valid_shape, whose tail PyPTO's load
  // leaves zero, as ptodist's does).
  Expr load_slice(const OpCall& c, bool transposed, Block& prelude) {
    if (!is_matrix_slice(c) || !static_matrix(c.type, plan_.l1_bytes)) return nullptr;
    Expr src = rewrite_expr(c.args[0]);
    Expr offset = rewrite_expr(c.arg("offset")), shape = rewrite_expr(c.arg("shape"));
    Expr valid = given(c.arg("valid_shape")) ? rewrite_expr(c.arg("valid_shape")) : nullptr;
    Expr natural = make_.call(OpId::Load,
                              {{"tensor", src},
                               {"offsets", offset},
                               {"shapes", shape},
                               {"valid_shape", valid},
                               {"target_memory", memory(Memory::Mat, c.span)}},
                              c.span);
    if (!transposed || !natural) return natural;
    // A batch of one ([1, N, K] of a 3-D weight): the natural load of its region, read transposed
    // through a zero-copy view of the Mat tile, as PyPTO's ConvertTensorToTileOps realises a transposed
    // batch_matmul operand (FlattenTileNdTo2D then makes the tiles 2-D: the PTO tiles are [N, K]).
    if (c.args[0]->type->shape.size() > 2) {
      Var loaded = vars_.make(name_of(c.args[0]) + "_mat", natural->type, c.span);
      prelude.push_back(make_assign(loaded, natural, c.span));
      return make_.call(OpId::TransposeView, {{"tile", make_.ref(loaded, c.span)}}, c.span);
    }
    // Transposed: a view of the valid region swapped (the region must be static: it is a tensor's
    // shape), loaded into the swapped tile. pl.transpose of a slice is a DN view in PTO; the runtime
    // copies the region.
    const std::vector<Expr>* region = as_list(valid ? valid : shape);
    if (!region || !as_const_int((*region)[0]) || !as_const_int((*region)[1])) return nullptr;
    Expr view = make_.call(OpId::Slice,
                           {{"input", src}, {"shape", valid ? valid : shape}, {"offset", offset}}, c.span);
    if (!view) return nullptr;
    Var region_var = vars_.make(name_of(c.args[0]) + "_region", view->type, c.span);
    prelude.push_back(make_assign(region_var, view, c.span));
    return load_mat(make_.ref(region_var, c.span), c.type, true, prelude, c.span);
  }

  // A Mat load of the whole 2-D tensor `src`, transposed through a pl.transpose view; `tile_shape` (the
  // untransposed slice type) sizes the tile when the region is smaller (a partially valid slice).
  Expr load_mat(Expr src, const Type& tile_shape, bool transposed, Block& prelude, SourceSpan span) {
    if (!src || !src->type) return nullptr;
    if (transposed) {
      Expr view = make_.call(
          OpId::Transpose, {{"input", src}, {"axis1", make_.i(0, span)}, {"axis2", make_.i(1, span)}}, span);
      if (!view) return nullptr;
      Var t = vars_.make(name_of(src) + "_t", view->type, span);
      prelude.push_back(make_assign(t, view, span));
      src = make_.ref(t, span);
    }
    auto region = src->type->static_shape();
    if (!region) return nullptr;
    std::vector<long long> shape = *region;
    if (tile_shape) {
      shape = *tile_shape->static_shape();
      if (transposed) std::swap(shape[0], shape[1]);
    }
    return make_.call(OpId::Load,
                      {{"tensor", src},
                       {"offsets", make_.ints({0, 0}, span)},
                       {"shapes", make_.ints(shape, span)},
                       {"valid_shape", shape == *region ? nullptr : make_.ints(*region, span)},
                       {"target_memory", memory(Memory::Mat, span)}},
                      span);
  }

  static std::string name_of(const Expr& e) {
    Var v = as_var(e);
    return v ? v->name : "operand";
  }

  const Plan& plan_;
  std::map<const VarNode*, std::vector<Var>> chunk_vars_;  // bind_chunks
};

}  // namespace

Function try_convert(const Program& p, const Function& f, const std::set<const VarNode*>& accs,
                     const Definitions& defs, const ChipProfile& profile) {
  Plan plan = make_plan(f, accs, defs, profile);
  return retype_to_fixpoint(plan.types, [&](const VarTypes& types, VarTypes& found) -> Function {
    DiagnosticEngine scratch;
    Retyper r(scratch, p, f, plan, types);
    Function out = r.run(f);
    found = r.found();
    return out;
  });
}

}  // namespace ptodist::transforms::detail::tile_matmul
