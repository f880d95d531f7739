// Kernel-local scratch tensors and the sort / gather values as Vec tiles: what PyPTO's
// ConvertTensorToTileOps does with tensor.create (tile.create in Vec), tensor.sort32 / tensor.mrgsort
// (their tile ops on loaded operands), tensor.gather (the mask form tile.gather_mask; the index form
// along the last dim, on a2a3, a loop of single-row tile.gathers assembled into the result) and
// tensor.ci. pypto-lib's router (gate.py's route kernels) is the case that matters:
//
//   idx = pl.create_tensor([T, 8], dtype=pl.INT32)
//   for t in pl.range(T):
//       srt = pl.mrgsort(pl.sort32(scores[t : t + 1, :], pl.arange(0, [1, 256], dtype=pl.UINT32)), ...)
//       idx[t : t + 1, :] = pl.gather(srt[:, 0:16], mask_pattern=pl.tile.MaskPattern.P1010, ...)
//   vals = pl.gather(local, dim=-1, index=idx)          # local: another scratch, loaded from GM
//   ... pl.read(idx, [t, k]) ...
//
// Each candidate is tried in program order with those accepted before it (and the candidates its
// definitions read, which must convert with it: a sort of a tile and a tensor has no form); a trial
// that does not type-check (a use with no tile form, a shape past the UB) keeps the tensor form, which
// the CPU runtime still runs and the PTO emitter names.
#include "tile_scratch.h"

#include <algorithm>

#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/transforms/add_op_scratch.h"
#include "ptodist/transforms/name_tile_operands.h"
#include "ptodist/transforms/plan_memory.h"
#include "tile_retyper.h"

namespace ptodist::transforms::detail {

using namespace ir;

namespace {

bool tensor_typed(const Expr& e) {
  return e && e->type && e->type->is_tensor_like();
}

bool is_tile(const Expr& e) {
  return e && e->type && e->type->kind == TypeKind::Tile;
}

// The sort and gather ops (and the index ramp they start from) in their tensor form.
bool is_sort_value(const OpCall& c) {
  switch (c.op->id) {
    case OpId::Sort32:
    case OpId::MrgSort:
    case OpId::Gather:
    case OpId::Arange:
      return c.type && c.type->is_tensor_like();
    default:
      return false;
  }
}

bool is_scratch(const OpCall& c) {
  return c.op->id == OpId::CreateTensor && !given(c.arg("init_value"));
}

// A definition a candidate may have: a scratch, a sort value, or an assemble into the variable itself
// (`idx[t : t + 1, :] = row`).
bool candidate_def(const VarNode* v, const OpCall* c) {
  if (!c) return false;
  if (is_scratch(*c) || is_sort_value(*c)) return true;
  Var target = c->op->id == OpId::Assemble ? as_var(c->arg("target")) : nullptr;
  return target && target.get() == v;
}

class ScratchRetyper : public TileRetyper {
 public:
  ScratchRetyper(DiagnosticEngine& scratch, const Program& p, const Function& f,
                 const std::set<const VarNode*>& trial, const VarTypes& types, long long ub_bytes)
      : TileRetyper(scratch, p, f, types), trial_(trial), ub_bytes_(ub_bytes) {}

 protected:
  Expr define(const Var& target, const Expr& value, Block& out) override {
    const OpCall& c = *value->as<OpCall>();
    if (!trial_.count(target.get())) return TileRetyper::define(target, value, out);
    if (is_scratch(c))
      return fits(c.type) ? make_.vec_tile(*c.type->static_shape(), c.type->dtype, c.span) : nullptr;
    if (is_sort_value(c)) return tile_form(c, rewrite_exprs(c.args), rewrite_exprs(c.varargs));
    return TileRetyper::define(target, value, out);
  }

  Expr rebuild(const OpCall& c, std::vector<Expr> args, std::vector<Expr> varargs) override {
    if (c.op->id == OpId::Sort32 || c.op->id == OpId::MrgSort || c.op->id == OpId::Gather)
      return tile_form(c, std::move(args), std::move(varargs));
    if (c.op->id == OpId::Load && is_tile(args[0])) return load_of_tile(c, args);
    if (c.op->id == OpId::Assemble && is_tile(args[0]) && tensor_typed(args[1])) {
      args[1] = as_tile(args[1]);
      if (!args[1]) return nullptr;
    }
    return TileRetyper::rebuild(c, std::move(args), std::move(varargs));
  }

 private:
  bool fits(const Type& t) const { return fits_in(t, ub_bytes_); }

  // `e` as a Vec tile: itself, the load of a slice's region, or the load of a whole static tensor.
  Expr as_tile(const Expr& e) {
    if (!e || is_tile(e)) return e;
    if (!tensor_typed(e) || !fits(e->type)) return nullptr;
    const OpCall* s = as_op_call(e);
    if (s && s->op->id == OpId::Slice && !given(s->arg("drop_dims")) && !given(s->arg("pad_value")))
      return make_.call(OpId::Load,
                        {{"tensor", s->args[0]},
                         {"offsets", s->arg("offset")},
                         {"shapes", s->arg("shape")},
                         {"valid_shape", given(s->arg("valid_shape")) ? s->arg("valid_shape") : nullptr}},
                        e->span);
    return make_.load_whole(e, e->type->valid_shape, e->span);
  }

  // A sort / gather / ramp on tiles (tensor operands loaded): the tile spelling of pl.arange, the
  // unified sorts on tiles, pl.tile.gather_mask, or the row loop of the index-form gather.
  Expr tile_form(const OpCall& c, std::vector<Expr> args, std::vector<Expr> varargs) {
    const OpInfo& op = op_info(c.op->id);
    if (c.op->id == OpId::Arange)
      return make_.builder().op_call_slots(*find_op("pl.tile.arange"), std::move(args), std::move(varargs),
                                           make_.scope(), c.span);
    if (c.op->id == OpId::Gather && given(args[op.param_index("index")]))
      return gather_rows(c, as_tile(args[0]), as_tile(args[op.param_index("index")]));
    for (size_t i = 0; i < args.size(); ++i)
      if (tensor_typed(args[i]) && !(args[i] = as_tile(args[i]))) return nullptr;
    if (c.op->id == OpId::Gather) {
      if (!given(args[op.param_index("mask_pattern")])) return nullptr;
      return make_.call(OpId::TileGatherMask,
                        {{"src", args[0]},
                         {"mask_pattern", args[op.param_index("mask_pattern")]},
                         {"output_dtype", args[op.param_index("output_dtype")]}},
                        c.span);
    }
    // The merge of 2 to 4 sorted runs writes a destination tile the tensor form does not name: PyPTO's
    // conversion makes it (the sources' rows, their columns summed).
    size_t tmp = op.param_index("tmp");
    if (c.op->id == OpId::MrgSort && !given(args[op.param_index("block_len")]) && !given(args[tmp])) {
      long long cols = 0;
      for (const char* slot : {"src0", "src1", "src2", "src3"}) {
        const Expr& s = args[op.param_index(slot)];
        auto dims = given(s) ? s->type->static_shape() : std::nullopt;
        if (given(s) && !dims) return nullptr;
        if (dims) cols += dims->back();
      }
      auto rows = args[0]->type->static_shape();
      if (!rows) return nullptr;
      Var t = bind("mrgsort_tmp", make_.vec_tile({(*rows)[0], cols}, args[0]->type->dtype, c.span), c.span);
      if (!t) return nullptr;
      args[tmp] = make_.ref(t, c.span);
    }
    return make_.builder().op_call_slots(op, std::move(args), std::move(varargs), make_.scope(), c.span);
  }

  // out[r, k] = input[r, index[r, k]] of 2-D tiles, as PyPTO lowers it on a2a3: per row r, the
  // single-row pl.tile.gather of input's row r by index's (a flat index into a one-row source is its
  // column), assembled into the result.
  Expr gather_rows(const OpCall& c, const Expr& input, const Expr& index) {
    const OpInfo& op = op_info(OpId::Gather);
    auto dim = as_const_int(c.args[op.param_index("dim")]);
    if (!input || !index || input->type->shape.size() != 2 || !dim || (*dim != -1 && *dim != 1))
      return nullptr;
    auto in_dims = input->type->static_shape();
    auto idx_dims = index->type->static_shape();
    if (!in_dims || !idx_dims) return nullptr;
    long long rows = (*idx_dims)[0], cols = (*idx_dims)[1];
    SourceSpan span = c.span;
    Var src = bind("gather_src", input, span), idx = bind("gather_index", index, span);
    Var acc = bind("gathered", make_.vec_tile({rows, cols}, input->type->dtype, span), span);
    Var tmp = bind("gather_tmp", make_.vec_tile({1, cols}, DType::INT32, span), span);
    if (!src || !idx || !acc || !tmp) return nullptr;
    Var r = vars_.make("gather_row", scalar_type(DType::INT64), span);
    auto row_of = [&](const Var& t, long long width) {
      return make_.call(OpId::Slice,
                        {{"input", make_.ref(t, span)},
                         {"shape", make_.ints({1, width}, span)},
                         {"offset", make_.builder().list({make_.ref(r, span), make_.i(0, span)}, span)}},
                        span);
    };
    Expr row = make_.call(
        OpId::TileGather,
        {{"src", row_of(src, (*in_dims)[1])}, {"indices", row_of(idx, cols)}, {"tmp", make_.ref(tmp, span)}},
        span);
    Expr put = make_.call(OpId::Assemble,
                          {{"target", make_.ref(acc, span)},
                           {"source", row},
                           {"offset", make_.builder().list({make_.ref(r, span), make_.i(0, span)}, span)}},
                          span);
    if (!row || !put) return nullptr;
    prelude_.push_back(make_for(r, make_.i(0, span), make_.i(rows, span), make_.i(1, span),
                                {make_assign(acc, put, span)}, span));
    return make_.ref(acc, span);
  }

  // A variable of the prelude holding `value` (null when value is).
  Var bind(const std::string& name, const Expr& value, SourceSpan span) {
    if (!value) return nullptr;
    if (Var v = as_var(value)) return v;
    Var v = vars_.make(name, value->type, span);
    prelude_.push_back(make_assign(v, value, span));
    return v;
  }

  // pl.load of a tile that was a tensor: the tile itself when the region is all of it, else its slice.
  Expr load_of_tile(const OpCall& c, const std::vector<Expr>& args) {
    const OpInfo& op = op_info(OpId::Load);
    const Expr& memory_arg = args[op.param_index("target_memory")];
    const auto* m = memory_arg ? memory_arg->as<EnumImm>() : nullptr;
    if ((m && m->value != "Vec") || literal_true(args[op.param_index("clamp")])) return nullptr;
    const Expr& tile = args[0];
    const Expr& offsets = args[op.param_index("offsets")];
    const Expr& shapes = args[op.param_index("shapes")];
    const Expr& valid = args[op.param_index("valid_shape")];
    const std::vector<Expr>* offs = as_list(offsets);
    bool at_origin = offs && std::all_of(offs->begin(), offs->end(), [](const Expr& o) {
                       return as_const_int(o) == std::optional<long long>(0);
                     });
    if (at_origin && !given(valid) && same_dims(tile->type->shape, shapes)) return tile;
    return make_.call(OpId::Slice,
                      {{"input", tile},
                       {"shape", shapes},
                       {"offset", offsets},
                       {"valid_shape", given(valid) ? valid : nullptr}},
                      c.span);
  }

  const std::set<const VarNode*>& trial_;
  long long ub_bytes_;
};

// The candidates, in program order (variable ids are), and for each the candidates its definitions read.
struct Candidates {
  std::vector<const VarNode*> order;
  std::map<const VarNode*, std::set<const VarNode*>> reads;
};

Candidates find_candidates(const Function& f) {
  Definitions defs;
  collect_defs(f->body, defs);
  for (const Param& prm : f->params) defs[prm.var.get()].push_back(nullptr);
  Candidates out;
  for (const auto& [v, ds] : defs) {
    bool seeded = false, all = v->type && v->type->is_tensor_like();
    for (const OpCall* c : ds) {
      all = all && candidate_def(v, c);
      seeded = seeded || (c && (is_scratch(*c) || is_sort_value(*c)));
    }
    if (all && seeded) out.order.push_back(v);
  }
  std::sort(out.order.begin(), out.order.end(),
            [](const VarNode* a, const VarNode* b) { return a->id < b->id; });
  std::set<const VarNode*> is_candidate(out.order.begin(), out.order.end());
  for (const VarNode* v : out.order)
    for (const OpCall* c : defs[v]) {
      for (const Expr& a : c->args)
        for (const VarNode* r : vars_read(a))
          if (r != v && is_candidate.count(r)) out.reads[v].insert(r);
    }
  return out;
}

// `v` with the candidates its definitions read, transitively.
std::set<const VarNode*> with_inputs(const VarNode* v, const Candidates& cands) {
  std::set<const VarNode*> out{v};
  std::vector<const VarNode*> todo{v};
  while (!todo.empty()) {
    const VarNode* x = todo.back();
    todo.pop_back();
    auto it = cands.reads.find(x);
    if (it == cands.reads.end()) continue;
    for (const VarNode* r : it->second)
      if (out.insert(r).second) todo.push_back(r);
  }
  return out;
}

// Whether kernel `f` of `p` keeps its tiles within the chip's memories once the pipeline has named its
// inline tile operands and given ops their scratch tiles, as it does before plan-memory.
bool fits_on_chip(const Program& p, const Function& f, const ChipProfile& profile) {
  auto alone = std::make_shared<ProgramNode>(*p);
  alone->functions = {f};
  DiagnosticEngine scratch;
  PassContext cx{scratch, profile};
  Program named = name_tile_operands(alone, cx);
  Program full = named ? add_op_scratch(named, cx) : nullptr;
  return full && tiles_fit_on_chip(full->functions[0], profile);
}

}  // namespace

Function convert_tile_scratch(const Program& p, const Function& f, PassContext& cx) {
  Candidates cands = find_candidates(f);
  std::set<const VarNode*> accepted;
  Function best;
  for (const VarNode* v : cands.order) {
    if (accepted.count(v)) continue;
    std::set<const VarNode*> trial = accepted;
    for (const VarNode* x : with_inputs(v, cands)) trial.insert(x);
    Function out = retype_to_fixpoint({}, [&](const VarTypes& types, VarTypes& found) -> Function {
      DiagnosticEngine scratch;
      ScratchRetyper r(scratch, p, f, trial, types, cx.profile.ub_bytes);
      Function round = r.run(f);
      found = r.found();
      return round;
    });
    // A scratch the CPU runtime keeps in GM must not become a tile that overflows UB: the program ran.
    if (out && fits_on_chip(p, out, cx.profile)) {
      accepted = std::move(trial);
      best = out;
    }
  }
  return best ? split_merge_results(p, best) : f;
}

}  // namespace ptodist::transforms::detail
