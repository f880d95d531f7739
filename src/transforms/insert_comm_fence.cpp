// insert-comm-fence: the cache-invalidate and fence markers that publish and consume window data.
//
// The memory model (docs/passes.md): a core's GM writes sit in its data cache until invalidated and are
// ordered before later signals only by a fence. So a write a peer will read (a publishing write) is
// followed by an invalidate of the region it wrote (local window stores) and a fence; a remote write is
// followed by a fence (the codegen adds the peer-region invalidate, which the IR cannot address); an
// async put is ordered at its wait, which gets the fence; and after a wait on a signal (or a run of
// them) the core drops stale lines with a whole-GM invalidate before it reads what the peer published.
#include "ptodist/transforms/insert_comm_fence.h"

#include "ptodist/ir/op_table.h"
#include "ptodist/ir/printer.h"
#include "rewrite_util.h"

namespace ptodist::transforms {

using namespace ir;

namespace {

enum class WaitClass { None, Signal, Async };

bool is_window(const Expr& e) {
  return e && e->type && e->type->kind == TypeKind::DistTensor;
}

bool is_marker(const Stmt& s) {
  const OpCall* c = s->isa<ExprStmt>() ? detail::stmt_op_call(s) : nullptr;
  return c && (c->op->id == OpId::Fence || c->op->id == OpId::CacheInvalid);
}

WaitClass wait_class(const Stmt& s) {
  const OpCall* c = detail::stmt_op_call(s);
  if (!c) return WaitClass::None;
  if (c->op->has(kAsyncWait)) return WaitClass::Async;
  if (c->op->id == OpId::Wait) return WaitClass::Signal;
  return WaitClass::None;
}

bool passes_window(const std::vector<Expr>& args) {
  for (const Expr& a : args)
    if (is_window(a)) return true;
  return false;
}

class FenceInserter {
 public:
  FenceInserter(PassContext& cx, const Program& p, const Function& f) : vars_(p, f), make_(cx.diags, p, f) {}

  bool failed() const { return failed_; }

  Block block(const Block& b) {
    Block in;
    for (const Stmt& s : b) {
      if (const auto* r = s->as<Return>(); r && returns_write(*r)) {
        split_return(*r, in);
        continue;
      }
      in.push_back(nested(s));
    }
    Block out;
    for (size_t i = 0; i < in.size(); ++i) {
      out.push_back(in[i]);
      std::vector<Expr> need = required(in, i);
      // Markers already right after the statement (from the user or an earlier run) count.
      std::vector<std::string> present;
      for (size_t j = i + 1; j < in.size() && is_marker(in[j]); ++j)
        present.push_back(print_expr(static_cast<const ExprStmt&>(*in[j]).value));
      for (const Expr& m : need) {
        if (!m) {
          failed_ = true;
          continue;
        }
        bool have = false;
        for (const std::string& p : present) have = have || p == print_expr(m);
        if (!have) out.push_back(detail::make_expr_stmt(m, in[i]->span));
      }
    }
    return out;
  }

 private:
  Stmt nested(const Stmt& s) {
    if (auto* f = s->as<For>()) {
      auto c = std::make_shared<For>(*f);
      c->body = block(f->body);
      return c;
    }
    if (auto* w = s->as<While>()) {
      auto c = std::make_shared<While>(*w);
      c->body = block(w->body);
      return c;
    }
    if (auto* i = s->as<If>()) {
      auto c = std::make_shared<If>(*i);
      c->then_body = block(i->then_body);
      c->else_body = block(i->else_body);
      return c;
    }
    if (auto* m = s->as<ManualScope>()) {
      auto c = std::make_shared<ManualScope>(*m);
      c->body = block(m->body);
      return c;
    }
    return s;
  }

  // `return pl.store(t, [0, 0], win)`: the write happens in the return, so its markers would have no
  // statement to follow. Such a return becomes `ret = pl.store(...)`, the markers, `return ret`.
  static bool returns_write(const Return& r) {
    for (const Expr& v : r.values) {
      const auto* c = v ? v->as<OpCall>() : nullptr;
      if (c && (c->op->has(kWritesGM) || c->op->has(kWritesRemote))) return true;
    }
    return false;
  }
  void split_return(const Return& r, Block& in) {
    auto ret = std::make_shared<Return>(r);
    for (Expr& v : ret->values) {
      if (!v || !v->isa<OpCall>()) continue;
      Var named = vars_.make("ret", v->type, v->span);
      in.push_back(detail::make_assign(named, v, v->span));
      v = make_.ref(named, v->span);
    }
    in.push_back(ret);
  }

  Expr fence(SourceSpan at) { return make_.call(OpId::Fence, {}, at); }
  Expr invalidate_all(SourceSpan at) { return make_.call(OpId::CacheInvalid, {}, at); }
  Expr invalidate(const Expr& target, const Expr& offsets, const Expr& shape, SourceSpan at) {
    return make_.call(OpId::CacheInvalid, {{"tensor", target}, {"shapes", shape}, {"offsets", offsets}}, at);
  }

  // The markers statement i of `b` needs after it, in order.
  std::vector<Expr> required(const Block& b, size_t i) {
    const Stmt& s = b[i];
    WaitClass w = wait_class(s);
    if (w != WaitClass::None) {
      // One marker closes a run of waits of the same kind.
      if (i + 1 < b.size() && wait_class(b[i + 1]) == w) return {};
      return {w == WaitClass::Async ? fence(s->span) : invalidate_all(s->span)};
    }
    if (const FuncCall* fc = call_of(s))
      return passes_window(fc->args) ? opaque(s->span) : std::vector<Expr>{};
    const OpCall* c = detail::stmt_op_call(s);
    if (!c || c->op->has(kAsyncIssue) || c->op->has(kNotify)) return {};
    if (c->op->id == OpId::Store && is_window(c->arg("output_tensor")))
      return region_store(c->arg("output_tensor"), c->arg("offsets"), c->arg("tile"), s->span);
    if (c->op->id == OpId::Write && is_window(c->arg("dst"))) {
      size_t rank = c->arg("dst")->type->shape.size();
      return {invalidate(c->arg("dst"), c->arg("offset"),
                         make_.ints(std::vector<long long>(rank, 1), s->span), s->span),
              fence(s->span)};
    }
    if (c->op->has(kWritesRemote)) return {fence(s->span)};
    if (c->op->has(kWritesGM) && passes_window(c->args)) return opaque(s->span);
    return {};
  }

  // A store of a whole tile into a window: invalidate exactly the stored region, then fence.
  std::vector<Expr> region_store(const Expr& target, const Expr& offsets, const Expr& tile, SourceSpan at) {
    auto dims = tile && tile->type ? tile->type->static_shape() : std::nullopt;
    if (tile && tile->type && !tile->type->valid_shape.empty()) return opaque(at);  // a partially valid tile
    if (!dims || !offsets || as_list(offsets) == nullptr || as_list(offsets)->size() != dims->size())
      return opaque(at);
    return {invalidate(target, offsets, make_.ints(*dims, at), at), fence(at)};
  }

  // A write whose region the IR does not know (a call that is handed a window, a get into a window).
  std::vector<Expr> opaque(SourceSpan at) { return {invalidate_all(at), fence(at)}; }

  static const FuncCall* call_of(const Stmt& s) {
    Expr v = s->isa<Assign>()     ? s->as<Assign>()->value
             : s->isa<ExprStmt>() ? s->as<ExprStmt>()->value
                                  : nullptr;
    return v ? v->as<FuncCall>() : nullptr;
  }

  detail::VarFactory vars_;
  detail::OpMaker make_;
  bool failed_ = false;
};

}  // namespace

Program insert_comm_fence(const Program& p, PassContext& cx) {
  return detail::map_kernels(p, [&](const Function& f) -> Function {
    FenceInserter fi(cx, p, f);
    Block body = fi.block(f->body);
    return fi.failed() ? nullptr : detail::with_body(f, std::move(body));
  });
}

}  // namespace ptodist::transforms
