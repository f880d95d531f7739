// Tile compute in PTO text (DPS form: `ins(...) outs(...)` on the tiles' planned buffers): loads and
// stores through partition views, cube matmuls, vector elementwise ops, casts, moves and fills.
#include <cctype>

#include "emitter.h"
#include "ptodist/ir/cast_mode.h"
#include "ptodist/ir/elementwise_ops.h"
#include "ptodist/ir/expand_ops.h"
#include "ptodist/ir/reduce_ops.h"
#include "ptodist/ir/unary_ops.h"

namespace ptodist::codegen::pto {

using namespace ir;

namespace {

const char* binary_tile_op(OpId id) {
  switch (id) {
    case OpId::Add:
      return "pto.tadd";
    case OpId::Sub:
      return "pto.tsub";
    case OpId::Mul:
      return "pto.tmul";
    case OpId::Div:
      return "pto.tdiv";
    case OpId::Maximum:
      return "pto.tmax";
    case OpId::Minimum:
      return "pto.tmin";
    case OpId::Fmod:
      return "pto.tfmod";
    case OpId::PartAdd:
      return "pto.tpartadd";
    case OpId::PartMul:
      return "pto.tpartmul";
    case OpId::PartMax:
      return "pto.tpartmax";
    case OpId::PartMin:
      return "pto.tpartmin";
    case OpId::Matmul:
      return "pto.tmatmul";
    default:
      return nullptr;
  }
}

const char* unary_tile_op(OpId id) {
  switch (id) {
    case OpId::Exp:
      return "pto.texp";
    case OpId::RowSum:
      return "pto.trowsum";
    case OpId::RowMax:
      return "pto.trowmax";
    default:
      return nullptr;
  }
}

}  // namespace

std::vector<long long> tile_region(const Type& tile, size_t rank) {
  std::vector<long long> d = dims_of(tile);
  long long cols = d.empty() ? 1 : d.back();
  long long rows = 1;
  for (size_t i = 0; i + 1 < d.size(); ++i) rows *= d[i];
  if (rank <= 1) return {rows * cols};
  std::vector<long long> sizes(rank, 1);
  sizes[rank - 1] = cols;
  sizes[rank - 2] = rows;
  return sizes;
}

const TileRef* FunctionEmitter::tile_of(const Expr& e, const OpCall& call, const char* operand) {
  if (auto ref = e ? e->as<VarRef>() : nullptr) {
    auto it = tiles_.find(ref->var->id);
    if (it != tiles_.end()) return &it->second;
    if (scoped_out_.count(ref->var->id) || body_allocs_.count(ref->var->id)) {
      fail(e->span, call.op->spelling + ": tile '" + ref->var->name +
                        "' has a valid region computed in a loop or branch, so PTO allocates it there; it "
                        "cannot be used outside that block or before its definition");
      return nullptr;
    }
  }
  fail(e ? e->span : call.span, call.op->spelling + ": " + operand + " must be a tile variable");
  return nullptr;
}

const TileRef* FunctionEmitter::result_tile(const CallSite& site) {
  if (Var r = site.result()) {
    auto it = tiles_.find(r->id);
    if (it != tiles_.end()) return &it->second;
  }
  fail(site.call.span, site.call.op->spelling + ": its tile must be assigned to a variable");
  return nullptr;
}

std::string FunctionEmitter::ins_outs(const std::vector<const TileRef*>& ins, const std::string& extra_in,
                                      const std::string& extra_type, const TileRef& out) {
  std::string names, types;
  for (const TileRef* t : ins) {
    names += (names.empty() ? "" : ", ") + t->ssa;
    types += (types.empty() ? "" : ", ") + t->type;
  }
  if (!extra_in.empty()) {
    names += ", " + extra_in;
    types += ", " + extra_type;
  }
  return "ins(" + names + " : " + types + ") outs(" + out.ssa + " : " + out.type + ")";
}

RegionExtent FunctionEmitter::stored_region(const TileRef& t, size_t rank) {
  const std::vector<Expr>& valid = t.ir_type->valid_shape;
  RegionExtent extent;
  if (valid.empty()) {
    extent.dims = tile_region(t.ir_type, rank);
    for (long long d : extent.dims) extent.sizes.push_back(constant_int(d, "index").ssa);
    return extent;
  }
  // The valid rows and columns on the innermost dims (declare_tiles allowed 1-D and 2-D tiles only).
  Expr rows = valid.size() == 2 ? valid[0] : nullptr;
  std::vector<Expr> dims(rank > 1 ? rank : 1, nullptr);
  dims.back() = valid.back();
  if (rank > 1) dims[rank - 2] = rows;
  for (const Expr& d : dims) {
    auto k = d ? as_const_int(d) : std::optional<long long>(1);
    extent.dims.push_back(k.value_or(-1));
    extent.sizes.push_back(d ? emit_scalar_as(d, "index").ssa : constant_int(1, "index").ssa);
  }
  return extent;
}

// The region a load reads is the tile's valid region (its shape when the whole tile is valid), as
// PyPTO partitions by valid_shape; the rest of the tile is left as it was.
void FunctionEmitter::emit_load(const CallSite& site) {
  const OpCall& c = site.call;
  const TensorRef* t = tensor_of(c.arg("tensor"), c, "tensor");
  const TileRef* out = result_tile(site);
  if (!t || !out) return;
  std::vector<Value> offs = region_offsets(c.arg("offsets"), *t, c);
  std::vector<long long> sizes = region_sizes(c.arg("shapes"), *t, c);
  if (failed_) return;
  const std::vector<Expr>& valid = c.type ? c.type->valid_shape : std::vector<Expr>{};
  if (valid.empty()) {
    Value pv = partition(t->view, t->type->dtype, offs, sizes, t->name + "_pview");
    line("pto.tload ins(" + pv.ssa + " : " + pv.type + ") outs(" + out->ssa + " : " + out->type + ")");
    return;
  }
  RegionExtent extent;
  for (const Expr& d : valid) {
    extent.dims.push_back(as_const_int(d).value_or(-1));
    extent.sizes.push_back(emit_scalar_as(d, "index").ssa);
  }
  if (failed_) return;
  Value pv = partition(t->view, t->type->dtype, offs, extent, t->name + "_pview");
  line("pto.tload ins(" + pv.ssa + " : " + pv.type + ") outs(" + out->ssa + " : " + out->type + ")");
}

// pto.tstore of the tile's valid region; an atomic-add store carries PTOAS's attribute, as PyPTO's
// tile.store does (split-K accumulation into GM).
void FunctionEmitter::emit_store(const CallSite& site) {
  const OpCall& c = site.call;
  const TileRef* src = tile_of(c.arg("tile"), c, "tile");
  const TensorRef* t = tensor_of(c.arg("output_tensor"), c, "output_tensor");
  if (!src || !t) return;
  std::vector<Value> offs = region_offsets(c.arg("offsets"), *t, c);
  RegionExtent extent = stored_region(*src, t->type->shape.size());
  if (failed_) return;
  Value pv = partition(t->view, t->type->dtype, offs, extent, t->name + "_pview");
  line("pto.tstore ins(" + src->ssa + " : " + src->type + ") outs(" + pv.ssa + " : " + pv.type + ")" +
       atomic_store_attr(c.arg("atomic")));
  if (Var r = site.result()) tensors_[r->id] = *t;  // `dst = pl.store(t, offs, dst)` rebinds the same tensor
}

std::string atomic_store_attr(const Expr& atomic) {
  return enum_value(atomic, "None_") == "Add" ? " {atomicType = #pto<atomic_type atomic_add>}" : "";
}

// clamp=True cuts the loaded region at the tensor's edge: the contract writes that cut into the tile's
// valid_shape when the offsets and the tensor's dims are constants. With run-time ones the cut is a
// run-time min the emitter does not write yet: reported.
bool FunctionEmitter::valid_region_unsupported(const CallSite& site) {
  const OpCall& c = site.call;
  if (c.op->id != OpId::Load) return false;
  const auto* clamp = c.arg("clamp") ? c.arg("clamp")->as<BoolImm>() : nullptr;
  if (!clamp || !clamp->value) return false;
  bool known = c.arg("tensor")->type && c.arg("tensor")->type->shape_is_static();
  if (const std::vector<Expr>* offs = as_list(c.arg("offsets")))
    for (const Expr& o : *offs) known = known && as_const_int(o).has_value();
  if (known) return false;
  fail(c.arg("clamp")->span.valid() ? c.arg("clamp")->span : c.span,
       c.op->spelling +
           ": clamp=True with a run-time offset or tensor dim has no PTO lowering yet (the cut at the "
           "tensor's edge is known only at run time); pass valid_shape= instead");
  return true;
}

// adds/muls and fills take a scalar in the tile's element type.
void FunctionEmitter::emit_tile_scalar(const CallSite& site, const char* op, const Expr& tile,
                                       const Expr& scalar) {
  const OpCall& c = site.call;
  const TileRef* out = result_tile(site);
  const TileRef* in = tile ? tile_of(tile, c, "tile") : nullptr;
  if (!out || (tile && !in)) return;
  std::string ty = value_type(out->ir_type->dtype);
  Value s = scalar ? emit_scalar_as(scalar, ty)
                   : (ty[0] == 'f' || ty == "bf16" ? constant_float(0, ty) : constant_int(0, ty));
  if (!s.valid()) return;
  std::vector<const TileRef*> ins;
  if (in) ins.push_back(in);
  if (ins.empty()) {
    line(std::string(op) + " ins(" + s.ssa + " : " + ty + ") outs(" + out->ssa + " : " + out->type + ")");
  } else {
    line(std::string(op) + " " + ins_outs(ins, s.ssa, ty, *out));
  }
}

// A unary op of the table; high_precision=True adds PTOAS's precision attribute, as PyPTO's
// MakePrecisionCodegenPTO does (`{precisionType = #pto<recip_precision high_precision>}`). rsqrt's
// high-precision form is its scratch tile instead, a second input (PyPTO's tile.rsqrt codegen).
void FunctionEmitter::emit_unary(const CallSite& site, const UnaryOpInfo& u) {
  const OpCall& c = site.call;
  const std::string& operand = op_info(u.id).params[0].name;
  std::vector<const TileRef*> ins{tile_of(c.arg(operand), c, operand.c_str())};
  const Expr& tmp = c.arg("tmp");
  if (tmp && !tmp->isa<NoneImm>()) ins.push_back(tile_of(tmp, c, "tmp"));
  const TileRef* out = result_tile(site);
  for (const TileRef* t : ins)
    if (!t) return;
  if (!out) return;
  if (!*u.pto) {
    fail(c.span, c.op->spelling + " has no PTO form: PyPTO's backend emits no instruction for it");
    return;
  }
  const auto* hp = c.arg("high_precision") ? c.arg("high_precision")->as<BoolImm>() : nullptr;
  if (hp && hp->value && u.id == OpId::Rsqrt) {
    fail(c.span, c.op->spelling +
                     ": high_precision=True reached the emitter without its scratch tile; "
                     "the default pipeline gives it one (add-op-scratch)");
    return;
  }
  std::string attr =
      hp && hp->value ? " {precisionType = #pto<" + std::string(u.name) + "_precision high_precision>}" : "";
  line(std::string(u.pto) + " " + ins_outs(ins, "", "", *out) + attr);
}

// A broadcast op of the table: ins(lhs, vector[, tmp]) as PyPTO's backend emits it; row_expand and
// col_expand read only the vector (lhs gives the shape), as PyPTO's MakeSingleOperandCodegenPTO does.
void FunctionEmitter::emit_expand(const CallSite& site, const ExpandOpInfo& x) {
  const OpCall& c = site.call;
  std::vector<const TileRef*> ins;
  if (x.combine != ExpandCombine::kCopy) ins.push_back(tile_of(c.arg("lhs"), c, "lhs"));
  ins.push_back(tile_of(c.arg("rhs"), c, "rhs"));
  const Expr& tmp = c.arg("tmp");
  if (tmp && !tmp->isa<NoneImm>()) ins.push_back(tile_of(tmp, c, "tmp"));
  const TileRef* out = result_tile(site);
  for (const TileRef* t : ins)
    if (!t) return;
  if (out) line(std::string(x.pto) + " " + ins_outs(ins, "", "", *out));
}

// An axis reduction of the table: ins(input[, tmp_tile]) as PyPTO's backend emits it; col_sum with a
// tmp_tile is its binary-tree form, marked {isBinary = true} after the operands (PyPTO's
// GenerateInsOutsClause places it there).
void FunctionEmitter::emit_reduce(const CallSite& site, const ReduceOpInfo& r) {
  const OpCall& c = site.call;
  std::vector<const TileRef*> ins{tile_of(c.arg("input"), c, "input")};
  const Expr& tmp = c.arg("tmp_tile");
  if (tmp && !tmp->isa<NoneImm>()) ins.push_back(tile_of(tmp, c, "tmp_tile"));
  const TileRef* out = result_tile(site);
  for (const TileRef* t : ins)
    if (!t) return;
  if (!out) return;
  std::string io = ins_outs(ins, "", "", *out);
  if (r.id == OpId::ColSum && ins.size() == 2) io.insert(io.find(" : "), " {isBinary = true}");
  line(std::string(r.pto) + " " + io);
}

// The tensor-level forms of the compute ops (pl.tensor.add, pl.add on tensors): ptodist runs them on GM
// tensors; convert-tensor-to-tile turns those whose values only flow into stores into tile ops
// (tile_values.cpp), and one that reaches the emitter had no tile form there.
static bool is_tensor_form(const OpCall& c) {
  if (is_elementwise_arith(c.op->id)) return c.type && c.type->is_tensor_like();
  switch (c.op->id) {
    case OpId::Cast:
    case OpId::FillPad:
    case OpId::SetValidShape:
    case OpId::Gather:
    case OpId::Scatter:
    case OpId::ScatterUpdate:
    case OpId::Arange:
    case OpId::Cmp:
    case OpId::RowSum:
    case OpId::RowMax:
    case OpId::Matmul:
    case OpId::MatmulAcc:
    case OpId::Sort32:
    case OpId::MrgSort:
    case OpId::Transpose:
      return c.type && c.type->is_tensor_like();
    default:
      return (unary_op_info(c.op->id) || expand_op_info(c.op->id) || reduce_op_info(c.op->id)) && c.type &&
             c.type->is_tensor_like();
  }
}

bool FunctionEmitter::emit_compute_op(const CallSite& site) {
  const OpCall& c = site.call;
  OpId id = c.op->id;
  if (c.type && c.type->kind == TypeKind::Scalar) return false;  // a scalar form (pl.cast of a scalar)
  if (id == OpId::Transpose && c.type && c.type->is_tensor_like()) return false;  // a view of a GM tensor
  if (is_tensor_form(c)) {
    fail(c.span, c.op->spelling +
                     ": the tensor-level form (GM tensors in, a new tensor out) has no PTO "
                     "lowering yet; load the operands into tiles with pl.load and compute on tiles");
    return true;
  }
  if (valid_region_unsupported(site)) return true;
  if (emit_sort_gather_op(site)) return true;
  if (const char* op = binary_tile_op(id)) {
    const TileRef* a = tile_of(c.arg("lhs"), c, "lhs");
    const TileRef* b = tile_of(c.arg("rhs"), c, "rhs");
    const TileRef* out = result_tile(site);
    // high_precision=True: PyPTO's MakePrecisionCodegenPTO attribute on pto.tdiv.
    const auto* hp =
        id == OpId::Div && c.arg("high_precision") ? c.arg("high_precision")->as<BoolImm>() : nullptr;
    std::string attr = hp && hp->value ? " {precisionType = #pto<div_precision high_precision>}" : "";
    if (a && b && out) line(std::string(op) + " " + ins_outs({a, b}, "", "", *out) + attr);
    return true;
  }
  if (const ExpandOpInfo* x = expand_op_info(id)) {
    emit_expand(site, *x);
    return true;
  }
  if (const ReduceOpInfo* r = reduce_op_info(id)) {
    emit_reduce(site, *r);
    return true;
  }
  if (const UnaryOpInfo* u = unary_op_info(id)) {
    emit_unary(site, *u);
    return true;
  }
  if (const char* op = unary_tile_op(id)) {
    const TileRef* a = tile_of(c.arg("input"), c, "input");
    const TileRef* out = result_tile(site);
    // A reduction's scratch, when the program gives one, is its second input (PyPTO's trowsum(src, tmp)).
    const Expr& tmp = c.arg("tmp_tile");
    const TileRef* t = tmp && !tmp->isa<NoneImm>() ? tile_of(tmp, c, "tmp_tile") : nullptr;
    std::vector<const TileRef*> ins{a};
    if (t) ins.push_back(t);
    if (a && out) line(std::string(op) + " " + ins_outs(ins, "", "", *out));
    return true;
  }
  switch (id) {
    case OpId::MatmulAcc: {
      const TileRef* acc = tile_of(c.arg("acc"), c, "acc");
      const TileRef* a = tile_of(c.arg("lhs"), c, "lhs");
      const TileRef* b = tile_of(c.arg("rhs"), c, "rhs");
      const TileRef* out = result_tile(site);
      // init_cond: a literal picks the overwriting or the accumulating form; PyPTO branches over the
      // two for a run-time predicate, which the emitter does not write yet.
      const Expr& init = c.arg("init_cond");
      const auto* lit = init ? init->as<BoolImm>() : nullptr;
      if (init && !init->isa<NoneImm>() && !lit) {
        fail(init->span.valid() ? init->span : c.span,
             c.op->spelling +
                 ": a run-time 'init_cond' has no PTO lowering yet (a literal True or False has)");
        return true;
      }
      if (acc && a && b && out && lit && lit->value)
        line("pto.tmatmul " + ins_outs({a, b}, "", "", *out));
      else if (acc && a && b && out)
        line("pto.tmatmul.acc " + ins_outs({acc, a, b}, "", "", *out));
      return true;
    }
    case OpId::Reshape:
    case OpId::ReinterpretView: {
      if (!c.type || c.type->kind != TypeKind::Tile) return false;  // a view of a GM tensor: not yet
      // PyPTO's tile.reshape and tile.reinterpret_view are views of the same buffer (a no-op, or
      // pto.treshape, which may also change the dtype); ptodist plans the result as a tile of its own
      // (the runtime copies), so the view is copied into it.
      const char* operand = c.op->id == OpId::Reshape ? "input" : "data";
      const TileRef* a = tile_of(c.arg(operand), c, operand);
      const TileRef* out = result_tile(site);
      if (!a || !out) return true;
      // The view's valid dims are static (pto.treshape takes no valid operands, so a `?` would leave its
      // extent at zero, PyPTO's GetViewTileBufTypeStringFromTileType), also when the result itself is
      // allocated with dynamic ones (a set_validshape operand).
      std::string view_type =
          out->ir_type->valid_shape.empty() ? tile_buf_type(out->ir_type, out->pad) : out->type;
      std::string view = fresh(out->ssa.substr(1) + "_view");
      line(view + " = pto.treshape " + a->ssa + " : " + a->type + " -> " + view_type);
      line("pto.tmov ins(" + view + " : " + view_type + ") outs(" + out->ssa + " : " + out->type + ")");
      return true;
    }
    case OpId::Transpose: {
      // PyPTO's MakeTileTransposeCodegenPTO: pto.ttrans ins(src, tmp) with both typed as the source; the
      // scratch is the tmp_tile add-op-scratch gave it (PyPTO's FlattenTileNdTo2D allocates it).
      const TileRef* a = tile_of(c.arg("input"), c, "input");
      const Expr& tmp = c.arg("tmp_tile");
      const TileRef* t = tmp && !tmp->isa<NoneImm>() ? tile_of(tmp, c, "tmp_tile") : nullptr;
      const TileRef* out = result_tile(site);
      if (!a || !out) return true;
      if (!t) {
        fail(c.span, c.op->spelling +
                         ": reached the emitter without its scratch tile; the default pipeline " +
                         "gives it one (add-op-scratch)");
        return true;
      }
      if (a->ir_type->shape.size() != 2) {
        fail(c.span, c.op->spelling + ": pto.ttrans transposes 2-D tiles; a tile of " +
                         std::to_string(a->ir_type->shape.size()) + " dims has no PTO lowering yet");
        return true;
      }
      line("pto.ttrans ins(" + a->ssa + ", " + t->ssa + " : " + a->type + ", " + a->type + ") outs(" +
           out->ssa + " : " + out->type + ")");
      return true;
    }
    case OpId::FillPad:
    case OpId::FillPadInplace:
      emit_fillpad(site);
      return true;
    case OpId::SetValidShape:
      emit_set_validshape(site);
      return true;
    case OpId::Cmp:
    case OpId::Cmps: {
      // PyPTO's MakeModalCodegenPTO: pto.tcmp / pto.tcmps with the mode after the operands,
      // {cmpMode = #pto<cmp lt>}; the scalar rhs (pl.cmps, or pl.cmp of a scalar) in lhs's element type.
      static const char* kModes[] = {"eq", "ne", "lt", "le", "gt", "ge"};
      const TileRef* a = tile_of(c.arg("lhs"), c, "lhs");
      const TileRef* out = result_tile(site);
      if (!a || !out) return true;
      long long mode = c.arg("cmp_type") ? as_const_int(c.arg("cmp_type")).value_or(0) : 0;
      std::string attr = std::string(" {cmpMode = #pto<cmp ") + kModes[mode] + ">}";
      const Expr& rhs = c.arg("rhs");
      if (rhs->type && rhs->type->kind == TypeKind::Tile) {
        const TileRef* b = tile_of(rhs, c, "rhs");
        if (b)
          line("pto.tcmp ins(" + a->ssa + ", " + b->ssa + attr + " : " + a->type + ", " + b->type +
               ") outs(" + out->ssa + " : " + out->type + ")");
        return true;
      }
      std::string ty = value_type(a->ir_type->dtype);
      Value s = emit_scalar_as(rhs, ty);
      if (s.valid())
        line("pto.tcmps ins(" + a->ssa + ", " + s.ssa + attr + " : " + a->type + ", " + ty + ") outs(" +
             out->ssa + " : " + out->type + ")");
      return true;
    }
    case OpId::Sel: {
      // PyPTO's MakeTileSelCodegenPTO: pto.tsel ins(mask, lhs, rhs, tmp) outs(dst).
      const TileRef* m = tile_of(c.arg("mask"), c, "mask");
      const TileRef* a = tile_of(c.arg("lhs"), c, "lhs");
      const TileRef* b = tile_of(c.arg("rhs"), c, "rhs");
      const TileRef* tmp = tile_of(c.arg("tmp"), c, "tmp");
      const TileRef* out = result_tile(site);
      if (m && a && b && tmp && out) line("pto.tsel " + ins_outs({m, a, b, tmp}, "", "", *out));
      return true;
    }
    case OpId::Concat: {
      const TileRef* a = tile_of(c.arg("src0"), c, "src0");
      const TileRef* b = tile_of(c.arg("src1"), c, "src1");
      const TileRef* out = result_tile(site);
      if (a && b && out) line("pto.tconcat " + ins_outs({a, b}, "", "", *out));
      return true;
    }
    case OpId::Extract: {
      // PyPTO's tile.extract codegen: pto.textract ins(src, row, col : src type, index, index) outs(dst).
      const TileRef* a = tile_of(c.arg("src"), c, "src");
      const TileRef* out = result_tile(site);
      Value row = emit_scalar_as(c.arg("index_row"), "index");
      Value col = emit_scalar_as(c.arg("index_col"), "index");
      if (a && out && row.valid() && col.valid())
        line("pto.textract " + ins_outs({a}, row.ssa + ", " + col.ssa, "index, index", *out));
      return true;
    }
    case OpId::Move: {
      const TileRef* a = tile_of(c.arg("tile"), c, "tile");
      const TileRef* out = result_tile(site);
      // A transposed Mat tile (ZN) has Right's layout; as Left (NZ) it would need a transposing move.
      const auto* src = c.arg("tile") ? c.arg("tile")->as<VarRef>() : nullptr;
      // On a2a3 the cube and vector units are separate cores: a tile crosses between their memories only
      // through a cross-core pipe. expand-mixed-kernel builds one for an InCore kernel; an AIC or AIV
      // kernel must push and pop itself.
      if (a && out && (a->ir_type->memory == Memory::Vec) != (out->ir_type->memory == Memory::Vec)) {
        fail(c.span, c.op->spelling + ": moving a tile from " + std::string(memory_name(a->ir_type->memory)) +
                         " to " + std::string(memory_name(out->ir_type->memory)) +
                         " crosses between the cube and vector cores, which one " +
                         std::string(ir::function_kind_name(fn_.kind)) +
                         " kernel cannot do: hand it over with pl.tpush_to_aiv / pl.tpop_from_aic (or "
                         "pl.tpush_to_aic / pl.tpop_from_aiv) in a Group, or write it in an InCore kernel, "
                         "which ptodist splits");
        return true;
      }
      if (src && transposed_mats_.count(src->var->id) && out && out->ir_type->memory == Memory::Left) {
        fail(c.span, c.op->spelling +
                         ": a transposed Mat tile (an a_trans matmul operand) moved to Left has no PTO "
                         "lowering yet; transpose the lhs in GM first");
        return true;
      }
      if (a && out) line("pto.tmov " + ins_outs({a}, "", "", *out));
      return true;
    }
    case OpId::Cast: {
      const TileRef* a = tile_of(c.arg("input"), c, "input");
      const TileRef* out = result_tile(site);
      // The rounding mode by PyPTO's name for it (NONE, RINT, ROUND, ...; its backend's round_modes), after
      // the operand as its backend places the attribute.
      std::string mode = ir::kCastModeNames[ir::cast_mode_code(c.arg("mode")).value_or(ir::kCastModeRound)];
      for (char& ch : mode) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      if (a && out)
        line("pto.tcvt ins(" + a->ssa + " {rmode = #pto<round_mode " + mode + ">} : " + a->type + ") outs(" +
             out->ssa + " : " + out->type + ")");
      return true;
    }
    case OpId::Adds:
      emit_tile_scalar(site, "pto.tadds", c.arg("tile"), c.arg("scalar"));
      return true;
    case OpId::Muls:
      emit_tile_scalar(site, "pto.tmuls", c.arg("tile"), c.arg("scalar"));
      return true;
    case OpId::Subs:
      emit_tile_scalar(site, "pto.tsubs", c.arg("tile"), c.arg("scalar"));
      return true;
    case OpId::Divs:
      emit_tile_scalar(site, "pto.tdivs", c.arg("tile"), c.arg("scalar"));
      return true;
    case OpId::Maximums:
      emit_tile_scalar(site, "pto.tmaxs", c.arg("lhs"), c.arg("rhs"));
      return true;
    case OpId::Minimums:
      emit_tile_scalar(site, "pto.tmins", c.arg("lhs"), c.arg("rhs"));
      return true;
    case OpId::Fmods:
      emit_tile_scalar(site, "pto.tfmods", c.arg("lhs"), c.arg("rhs"));
      return true;
    case OpId::Full:
      emit_tile_scalar(site, "pto.texpands", nullptr, c.arg("value"));
      return true;
    case OpId::Zeros:
      emit_tile_scalar(site, "pto.texpands", nullptr, nullptr);
      return true;
    case OpId::CreateTile:
      result_tile(site);
      return true;  // the tile is its alloc_tile
    case OpId::Load:
      emit_load(site);
      return true;
    case OpId::Store:
      emit_store(site);
      return true;
    case OpId::Write:
      emit_write(site);
      return true;
    case OpId::TileWrite:
      emit_tile_write(site);
      return true;
    default:
      return false;
  }
}

}  // namespace ptodist::codegen::pto
