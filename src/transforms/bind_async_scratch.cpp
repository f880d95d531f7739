// bind-async-scratch: threads each session's scratch tile into every wait/test on that session.
#include "ptodist/transforms/bind_async_scratch.h"

#include "ptodist/ir/op_table.h"
#include "rewrite_util.h"

namespace ptodist::transforms {

using namespace ir;

namespace {

// How a session variable is known at a program point.
struct SessionBinding {
  enum Kind { Known, Joined, LoopCarried } kind = Known;
  Var scratch;       // Known
  SourceSpan where;  // Joined / LoopCarried: the if or for that makes it unknowable
};
using Env = std::map<const VarNode*, SessionBinding>;

bool is_session(const Var& v) {
  return v && v->type && v->type->kind == TypeKind::AsyncSession;
}

// Session variables assigned anywhere inside a block (they are loop-carried around an enclosing loop).
void assigned_sessions(const Block& b, std::vector<const VarNode*>& out) {
  for (const Stmt& s : b) {
    if (auto* a = s->as<Assign>()) {
      for (const Var& v : a->targets)
        if (is_session(v)) out.push_back(v.get());
    } else if (auto* f = s->as<For>()) {
      assigned_sessions(f->body, out);
    } else if (auto* w = s->as<While>()) {
      assigned_sessions(w->body, out);
    } else if (auto* i = s->as<If>()) {
      assigned_sessions(i->then_body, out);
      assigned_sessions(i->else_body, out);
    } else if (auto* m = s->as<ManualScope>()) {
      assigned_sessions(m->body, out);
    }
  }
}

class Binder;

// Rewrites the wait/test calls inside one expression, reading the session bindings of the point.
class CallBinder : public detail::DeepRewriter {
 public:
  CallBinder(Binder& b, const Env& env) : b_(b), env_(env) {}
  Expr rewrite_expr(const Expr& e) override;

 private:
  Binder& b_;
  const Env& env_;
};

class Binder {
 public:
  Binder(PassContext& cx, const Program& p, const Function& f) : cx_(cx), make_(cx.diags, p, f) {}

  bool failed() const { return failed_; }

  Block block(const Block& b, Env& env) {
    Block out;
    for (const Stmt& s : b)
      for (Stmt& r : stmt(s, env)) out.push_back(std::move(r));
    return out;
  }

  // The tile-level wait/test with the session's scratch, or the call unchanged after an error.
  Expr bind_call(const OpCall& c, const Expr& self, const Env& env) {
    OpId tile_op = c.op->id == OpId::WaitAsyncEvent ? OpId::TileWaitAsyncEvent : OpId::TileTestAsyncEvent;
    std::string user_op =
        c.op->id == OpId::WaitAsyncEvent ? "pld.system.wait_async_event" : "pld.system.test_async_event";
    Var session = detail::as_var(c.arg("session"));
    auto it = session ? env.find(session.get()) : env.end();
    if (it == env.end()) {
      report(c.span,
             user_op +
                 ": its session is not a variable built by pld.system.async_session in this kernel, "
                 "so its scratch tile is unknown; pass the session variable itself",
             {}, "");
      return self;
    }
    const SessionBinding& sb = it->second;
    if (sb.kind == SessionBinding::Joined) {
      report(c.span,
             user_op + ": session '" + session->name +
                 "' reaches this wait through an if/else join, so "
                 "its scratch tile cannot stay bound; build the session once, before the branches",
             sb.where, "the branches join here");
      return self;
    }
    if (sb.kind == SessionBinding::LoopCarried) {
      report(c.span,
             user_op + ": session '" + session->name +
                 "' reaches this wait as a value carried around a "
                 "loop, so its scratch tile cannot stay bound; build the session once, before the loop",
             sb.where, "the loop that carries it");
      return self;
    }
    Expr out = make_.call(tile_op,
                          {{"event", c.arg("event")},
                           {"session", c.arg("session")},
                           {"scratch", make_.ref(sb.scratch, c.span)}},
                          c.span);
    if (!out) failed_ = true;
    return out ? out : self;
  }

 private:
  void report(SourceSpan at, const std::string& msg, SourceSpan note_at, const std::string& note) {
    failed_ = true;
    Diagnostic& d = cx_.diags.error(at, msg);
    if (note_at.valid()) DiagnosticEngine::note(d, note_at, note);
  }

  Expr bind(const Expr& e, const Env& env) {
    if (!e) return e;
    CallBinder cb(*this, env);
    return cb.rewrite_expr(e);
  }

  Block stmt(const Stmt& s, Env& env) {
    auto c = detail::copy_stmt(*s);
    switch (c->kind) {
      case StmtKind::Assign: {
        auto* a = static_cast<Assign*>(c.get());
        a->value = bind(a->value, env);
        define(*a, env);
        break;
      }
      case StmtKind::ExprStmt: {
        auto* x = static_cast<ExprStmt*>(c.get());
        x->value = bind(x->value, env);
        break;
      }
      case StmtKind::If:
        if_stmt(*static_cast<If*>(c.get()), env);
        break;
      case StmtKind::For:
        for_stmt(*static_cast<For*>(c.get()), env);
        break;
      case StmtKind::While:
        while_stmt(*static_cast<While*>(c.get()), env);
        break;
      case StmtKind::ManualScope: {
        auto* m = static_cast<ManualScope*>(c.get());
        m->body = block(m->body, env);
        break;
      }
      case StmtKind::Return: {
        auto* r = static_cast<Return*>(c.get());
        for (Expr& v : r->values) v = bind(v, env);
        break;
      }
      case StmtKind::Pass:
        break;
    }
    return {c};
  }

  // `s = pld.tile.async_session(scratch, ...)` binds s; `t = s` copies the binding.
  void define(const Assign& a, Env& env) {
    if (a.targets.size() != 1 || !is_session(a.targets[0])) return;
    const VarNode* target = a.targets[0].get();
    const OpCall* call = detail::as_op_call(a.value);
    if (call && call->op->id == OpId::TileAsyncSession) {
      env[target] = SessionBinding{SessionBinding::Known, detail::as_var(call->arg("scratch")), {}};
      return;
    }
    Var src = detail::as_var(a.value);
    auto it = src ? env.find(src.get()) : env.end();
    if (it != env.end())
      env[target] = it->second;
    else
      env.erase(target);
  }

  void if_stmt(If& i, Env& env) {
    i.cond = bind(i.cond, env);
    Env t = env, e = env;
    i.then_body = block(i.then_body, t);
    i.else_body = block(i.else_body, e);
    Env joined;
    for (const Env* side : {&t, &e})
      for (const auto& [v, b] : *side) {
        const Env& other = side == &t ? e : t;
        auto it = other.find(v);
        bool same = it != other.end() && it->second.kind == SessionBinding::Known &&
                    b.kind == SessionBinding::Known && it->second.scratch == b.scratch;
        joined[v] =
            same ? b
                 : (b.kind == SessionBinding::Known ? SessionBinding{SessionBinding::Joined, nullptr, i.span}
                                                    : b);
      }
    env = std::move(joined);
  }

  void for_stmt(For& f, Env& env) {
    f.start = bind(f.start, env);
    f.stop = bind(f.stop, env);
    f.step = bind(f.step, env);
    std::vector<const VarNode*> carried;
    assigned_sessions(f.body, carried);
    // At the head of a later iteration these hold the previous iteration's value.
    Env head = env;
    for (const VarNode* v : carried) head[v] = SessionBinding{SessionBinding::LoopCarried, nullptr, f.span};
    f.body = block(f.body, head);
    for (const VarNode* v : carried) env[v] = SessionBinding{SessionBinding::LoopCarried, nullptr, f.span};
  }

  // As a counted loop; the condition is read at the head of every iteration.
  void while_stmt(While& w, Env& env) {
    std::vector<const VarNode*> carried;
    assigned_sessions(w.body, carried);
    Env head = env;
    for (const VarNode* v : carried) head[v] = SessionBinding{SessionBinding::LoopCarried, nullptr, w.span};
    w.cond = bind(w.cond, head);
    w.body = block(w.body, head);
    for (const VarNode* v : carried) env[v] = SessionBinding{SessionBinding::LoopCarried, nullptr, w.span};
  }

  PassContext& cx_;
  detail::OpMaker make_;
  bool failed_ = false;
};

Expr CallBinder::rewrite_expr(const Expr& e) {
  Expr rebuilt = rebuild_expr(e);
  const OpCall* c = detail::as_op_call(rebuilt);
  if (c && (c->op->id == OpId::WaitAsyncEvent || c->op->id == OpId::TestAsyncEvent))
    return b_.bind_call(*c, rebuilt, env_);
  return rebuilt;
}

}  // namespace

Program bind_async_scratch(const Program& p, PassContext& cx) {
  return detail::map_kernels(p, [&](const Function& f) -> Function {
    Binder b(cx, p, f);
    Env env;
    Block body = b.block(f->body, env);
    return b.failed() ? nullptr : detail::with_body(f, std::move(body));
  });
}

}  // namespace ptodist::transforms
