// Structured control flow in PTO text: counted loops as scf.for, while loops as scf.while and branches
// as scf.if. Scalars that a body rebinds travel as iter_args / scf.yield results, since SSA values do
// not escape a region.
#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

namespace {

void collect_assigned(const Block& block, std::map<int, Var>& out) {
  for (const Stmt& s : block) {
    if (auto a = s->as<Assign>()) {
      for (const Var& v : a->targets)
        if (v && v->type && v->type->kind == TypeKind::Scalar) out[v->id] = v;
    } else if (auto f = s->as<For>()) {
      collect_assigned(f->body, out);
    } else if (auto w = s->as<While>()) {
      collect_assigned(w->body, out);
    } else if (auto i = s->as<If>()) {
      collect_assigned(i->then_body, out);
      collect_assigned(i->else_body, out);
    } else if (auto m = s->as<ManualScope>()) {
      collect_assigned(m->body, out);
    }
  }
}

// "%r" for one result, "%r:3" to define three (used as %r#0, %r#1, %r#2).
std::string result_def(const std::string& base, size_t n) {
  return n > 1 ? base + ":" + std::to_string(n) : base;
}
std::string result_use(const std::string& base, size_t n, size_t i) {
  return n > 1 ? base + "#" + std::to_string(i) : base;
}

std::string join(const std::vector<std::string>& xs) {
  std::string s;
  for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + xs[i];
  return s;
}

}  // namespace

// Scalars a region rebinds and the code after it may read: those bound before it, and (for a branch)
// those every body defines.
std::vector<Var> FunctionEmitter::carried_vars(const std::vector<const Block*>& bodies, bool need_all) const {
  std::map<int, Var> any;
  std::vector<std::map<int, Var>> each(bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) {
    collect_assigned(*bodies[i], each[i]);
    any.insert(each[i].begin(), each[i].end());
  }
  std::vector<Var> out;
  for (const auto& [id, v] : any) {
    bool in_all = need_all;
    for (const auto& m : each) in_all = in_all && m.count(id);
    if (scalars_.count(id) || in_all) out.push_back(v);
  }
  return out;
}

// `scf.yield v, ... : t, ...` (a bare `scf.yield` when nothing is carried).
void FunctionEmitter::emit_carried_yield(const std::vector<Var>& carried,
                                         const std::vector<std::string>& types) {
  std::vector<std::string> outs;
  for (size_t i = 0; i < carried.size(); ++i) outs.push_back(coerce(scalars_[carried[i]->id], types[i]).ssa);
  line(carried.empty() ? std::string("scf.yield") : "scf.yield " + join(outs) + " : " + join(types));
}

void FunctionEmitter::bind_region_results(const std::string& res, const std::vector<Var>& carried,
                                          const std::vector<std::string>& types,
                                          std::map<int, Value> before) {
  scalars_ = std::move(before);
  for (size_t i = 0; i < carried.size(); ++i)
    scalars_[carried[i]->id] = {result_use(res, carried.size(), i), types[i]};
}

void FunctionEmitter::emit_for(const For& f) {
  // A pl.split_aiv region is the body both vector lanes run (PyPTO binds its variable to
  // tile.get_subblock_idx and erases the region): emitted in place, the variable the lane index.
  if (f.loop_kind == LoopKind::SplitAiv) {
    std::string lane = fresh(f.iv ? f.iv->name : "aiv_id");
    line(lane + " = pto.get_subblock_idx");
    if (f.iv) scalars_[f.iv->id] = {lane, "i64"};
    emit_block(f.body);
    return;
  }
  Value lb = f.start ? emit_scalar_as(f.start, "index") : constant_int(0, "index");
  Value ub = emit_scalar_as(f.stop, "index");
  Value st = f.step ? emit_scalar_as(f.step, "index") : constant_int(1, "index");
  if (failed_) return;
  std::vector<Var> carried = carried_vars({&f.body}, false);
  std::vector<Value> inits;
  std::vector<std::string> types, args;
  for (const Var& v : carried) {
    inits.push_back(scalars_[v->id]);
    types.push_back(inits.back().type);
  }
  std::string iv = fresh(f.iv ? f.iv->name : "iv");
  std::string head = "scf.for " + iv + " = " + lb.ssa + " to " + ub.ssa + " step " + st.ssa;
  std::string res = carried.empty() ? "" : fresh(carried.size() == 1 ? carried[0]->name : "loop");
  std::map<int, Value> saved = scalars_;
  if (!carried.empty()) {
    std::vector<std::string> iters;
    for (size_t i = 0; i < carried.size(); ++i) {
      args.push_back(fresh(carried[i]->name));
      iters.push_back(args[i] + " = " + inits[i].ssa);
    }
    head = result_def(res, carried.size()) + " = " + head + " iter_args(" + join(iters) + ") -> (" +
           join(types) + ")";
  }
  line(head + " {");
  ++indent_;
  if (f.iv) scalars_[f.iv->id] = {iv, "index"};
  for (size_t i = 0; i < carried.size(); ++i) scalars_[carried[i]->id] = {args[i], types[i]};
  emit_block(f.body);
  drop_body_tiles();
  if (!carried.empty() && !failed_) emit_carried_yield(carried, types);
  --indent_;
  line("}");
  bind_region_results(res, carried, types, std::move(saved));
}

// scf.while as PyPTO writes it: the condition in the "before" region, which hands the carried scalars on
// with scf.condition, and the body in the "do" region, whose block arguments receive them. A while loop
// that carries nothing is `scf.while : () -> ()`.
void FunctionEmitter::emit_while(const While& w) {
  std::vector<Var> carried = carried_vars({&w.body}, false);
  std::vector<std::string> types, inits, before, after;
  for (const Var& v : carried) {
    inits.push_back(scalars_[v->id].ssa);
    types.push_back(scalars_[v->id].type);
    before.push_back(fresh(v->name));
    after.push_back(fresh(v->name));
  }
  std::string res = carried.empty() ? "" : fresh(carried.size() == 1 ? carried[0]->name : "loop");
  std::map<int, Value> saved = scalars_;
  if (carried.empty()) {
    line("scf.while : () -> () {");
  } else {
    std::vector<std::string> args;
    for (size_t i = 0; i < carried.size(); ++i) args.push_back(before[i] + " = " + inits[i]);
    std::string sig = "(" + join(types) + ")";
    line(result_def(res, carried.size()) + " = scf.while (" + join(args) + ") : " + sig + " -> " + sig +
         " {");
  }
  ++indent_;
  for (size_t i = 0; i < carried.size(); ++i) scalars_[carried[i]->id] = {before[i], types[i]};
  Value cond = emit_scalar_as(w.cond, "i1");
  if (failed_) return;
  line("scf.condition(" + cond.ssa + ")" + (carried.empty() ? "" : " " + join(before) + " : " + join(types)));
  --indent_;
  line("} do {");
  if (!carried.empty()) {
    std::vector<std::string> params;
    for (size_t i = 0; i < carried.size(); ++i) params.push_back(after[i] + " : " + types[i]);
    line("^bb0(" + join(params) + "):");
  }
  ++indent_;
  for (size_t i = 0; i < carried.size(); ++i) scalars_[carried[i]->id] = {after[i], types[i]};
  emit_block(w.body);
  drop_body_tiles();
  if (!failed_) emit_carried_yield(carried, types);
  --indent_;
  line("}");
  bind_region_results(res, carried, types, std::move(saved));
}

void FunctionEmitter::emit_if(const If& s) {
  Value cond = emit_scalar_as(s.cond, "i1");
  if (failed_) return;
  std::vector<Var> carried = carried_vars({&s.then_body, &s.else_body}, true);
  std::vector<std::string> types;
  for (const Var& v : carried)
    types.push_back(scalars_.count(v->id) ? scalars_[v->id].type : value_type(v->type->dtype));
  std::string res = carried.empty() ? "" : fresh(carried.size() == 1 ? carried[0]->name : "br");
  std::string head = "scf.if " + cond.ssa;
  if (!carried.empty()) head = result_def(res, carried.size()) + " = " + head + " -> (" + join(types) + ")";
  std::map<int, Value> saved = scalars_;
  std::map<int, PendingAsync> pending_before = pending_;
  std::set<int> waited;
  auto branch = [&](const Block& body) {
    ++indent_;
    scalars_ = saved;
    pending_ = pending_before;
    emit_block(body);
    drop_body_tiles();
    for (const auto& [id, p] : pending_before)
      if (!pending_.count(id)) waited.insert(id);
    if (!carried.empty() && !failed_) emit_carried_yield(carried, types);
    --indent_;
  };
  line(head + " {");
  branch(s.then_body);
  if (!s.else_body.empty() || !carried.empty()) {
    line("} else {");
    branch(s.else_body);
  }
  line("}");
  pending_ = pending_before;
  for (int id : waited) pending_.erase(id);
  bind_region_results(res, carried, types, std::move(saved));
}

}  // namespace ptodist::codegen::pto
