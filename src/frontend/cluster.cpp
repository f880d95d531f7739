// `with pl.cluster([name_hint=...]):`, as PyPTO's parser reads it: a region whose AIC and AIV kernels
// are co-scheduled on one physical cluster, outlined by PyPTO into one Group function dispatched as one
// task. What the body computes is what its statements compute in order, so ptodist runs the body in
// place; what PyPTO rejects because a Group task cannot carry it is rejected here too: an `as` name, a
// nested `pl.spmd(..., allow_early_resolve=True)` or `... as tid`, and task-level metadata (`deps=`,
// `core_num=`, `sync_start=`, `allow_early_resolve=`, `predicate=`) on a submit in the body.
#include "parser_impl.h"

namespace ptodist::frontend {

void Parser::parse_cluster(ir::Block& out, const SynExpr& call, const Token* as_name, const SourceSpan& span,
                           LowerCtx& cx) {
  bool ok = true;
  for (size_t i = 1; i < call.items.size(); ++i) {
    const SynExpr& a = *call.items[i];
    if (a.keyword.empty() || a.kind == SynKind::Star) {
      error(a.span, "pl.cluster() does not accept positional arguments; use 'with pl.cluster():'");
      ok = false;
    } else if (a.keyword != "name_hint") {
      error(a.span, "pl.cluster() got unexpected keyword argument '" + a.keyword +
                        "'; supported keyword: 'name_hint' (for a block launch, use pl.spmd(n))");
      ok = false;
    } else if (a.kind != SynKind::String) {
      error(a.span, "pl.cluster(): 'name_hint' must be a string literal");
      ok = false;
    }
  }
  if (as_name) {
    error(as_name->span,
          "'with pl.cluster() as ...' binds nothing; the 'as' clause belongs to "
          "'with pl.at(...) as tid:' and 'with pl.spmd(...) as tid:'");
    ok = false;
  }
  if (!ok) {
    poison_assigned_names(skip_suite_from(pos_), cx);
    parse_suite_unlowered();
    return;
  }
  ++cluster_depth_;
  ir::Block body = parse_suite("'with' header", cx);
  --cluster_depth_;
  if (body.empty()) {  // an empty cluster still leaves its statement in the IR
    auto p = std::make_shared<ir::Pass>();
    p->span = span;
    body.push_back(p);
  }
  out.insert(out.end(), body.begin(), body.end());
}

bool Parser::check_dispatch_in_cluster(const ir::OpInfo& op, const std::vector<ir::CallArg>& args,
                                       const SourceSpan& span) {
  if (op.id != ir::OpId::Submit && op.id != ir::OpId::SpmdSubmit) return true;
  std::string carried;
  for (const ir::CallArg& a : args) {
    const std::string& k = a.keyword;
    bool given = a.value && !a.value->isa<ir::NoneImm>();
    if (k == "sync_start" || k == "allow_early_resolve")
      given = a.value && a.value->isa<ir::BoolImm>() && a.value->as<ir::BoolImm>()->value;
    if ((k == "deps" || k == "core_num" || k == "sync_start" || k == "allow_early_resolve" ||
         k == "predicate") &&
        given)
      carried += (carried.empty() ? "" : ", ") + k;
  }
  if (carried.empty()) return true;
  error(span,
        op.spelling + "(...) inside pl.cluster() cannot carry per-task dispatch metadata (" + carried +
            "): the cluster is dispatched as one group task; move it to the dispatch around the cluster");
  return false;
}

}  // namespace ptodist::frontend
