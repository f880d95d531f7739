// lower-collectives: rewrites pld.tensor collectives into put / notify / wait (and tile adds).
//
// Every collective synchronises through its INT32 `signal` cell with counting notifies: each rank adds 1
// to the cell of every rank it sent to, and a receiver waits until the cell reaches the number of
// senders. A count cannot tell two rounds apart, so a late notify of one collective could stand in for
// a missing one of the next: a signal serves one data collective per kernel (barriers, which carry no
// data, may share one and wait for the running total), and collectives are not lowered inside loops.
#include "ptodist/transforms/lower_collectives.h"

#include <set>

#include "ptodist/ir/op_table.h"
#include "rewrite_util.h"

namespace ptodist::transforms {

using namespace ir;

namespace {

// Rows per chunk of a local reduction are chosen so one chunk tile stays under this many bytes.
constexpr long long kReduceChunkBytes = 32 * 1024;

class Lowerer {
 public:
  Lowerer(PassContext& cx, const Program& p, const Function& f)
      : cx_(cx), make_(cx.diags, p, f), vars_(p, f) {
    auto ws = cx.bindings.find("world_size");
    if (ws != cx.bindings.end()) world_size_ = ws->second;
    collect_in_loops(f->body, false);
  }

  bool failed() const { return failed_; }

  Block lower(const Stmt& s) {
    const OpCall* c = detail::stmt_op_call(s);
    if (!c) return {s};
    if (c->op->has(kNotify) && c->op->has(kWait) && !allowed(s, *c)) return fail();
    switch (c->op->id) {
      case OpId::Barrier:
        return with_prologue(*c, [&](Block& out) { barrier(*c, out); });
      case OpId::Broadcast:
        return with_prologue(*c, [&](Block& out) { broadcast(*c, out); });
      case OpId::AllGather:
        return with_prologue(*c, [&](Block& out) { allgather(*c, out); });
      case OpId::ReduceScatter:
        return with_prologue(*c, [&](Block& out) { reduce_scatter(*c, out); });
      case OpId::AllReduce:
        return with_prologue(*c, [&](Block& out) { allreduce(*c, out); });
      case OpId::AllToAll:
        return with_prologue(*c, [&](Block& out) { all_to_all(*c, out); });
      default:
        return {s};
    }
  }

 private:
  // ctx / rank / nranks of the signal's window, then the collective's own statements.
  template <typename F>
  Block with_prologue(const OpCall& c, F&& body) {
    span_ = c.span;
    Block out;
    Expr signal = c.arg("signal");
    Var ctx = assign(out, "coll_ctx", make_.call(OpId::GetCommCtx, {{"tensor", signal}}, span_));
    if (!ctx) return fail();
    me_ = assign(out, "coll_rank", make_.call(OpId::Rank, {{"ctx", ref(ctx)}}, span_));
    Var n = world_size_ ? nullptr
                        : assign(out, "coll_nranks", make_.call(OpId::NRanks, {{"ctx", ref(ctx)}}, span_));
    if (!me_ || (!world_size_ && !n)) return fail();
    nranks_ = world_size_ ? make_.i(*world_size_, span_) : ref(n);
    signal_ = detail::as_var(signal).get();
    body(out);
    return failed_ ? Block{} : out;
  }

  Block fail() {
    failed_ = true;
    return {};
  }

  Expr ref(const Var& v) { return make_.ref(v, span_); }
  Expr i(long long v) { return make_.i(v, span_); }
  Expr mul(Expr a, Expr b) {
    return make_.builder().binary(BinaryOpKind::Mul, std::move(a), std::move(b), span_);
  }
  Expr add(Expr a, Expr b) {
    return make_.builder().binary(BinaryOpKind::Add, std::move(a), std::move(b), span_);
  }
  Expr list(std::vector<Expr> es) { return make_.builder().list(std::move(es), span_); }

  Var assign(Block& out, const std::string& name, Expr value) {
    if (!value) return nullptr;
    Var v = vars_.make(name, value->type, span_);
    out.push_back(detail::make_assign(v, value, span_));
    return v;
  }
  void emit(Block& out, Expr value) {
    if (!value)
      failed_ = true;
    else
      out.push_back(detail::make_expr_stmt(value, span_));
  }

  // [lead, 0, 0, ...] for a tensor of `rank` dims.
  Expr offsets(Expr lead, size_t rank) {
    std::vector<Expr> es{std::move(lead)};
    while (es.size() < rank) es.push_back(i(0));
    return list(std::move(es));
  }
  Expr zeros(const Expr& tensor) { return offsets(i(0), tensor->type->shape.size()); }

  // `for p in pl.range(nranks): <body(p)>`
  template <typename F>
  void for_each_peer(Block& out, F&& body) {
    Var p = vars_.make("peer", scalar_type(DType::INT64), span_);
    Block inner;
    body(inner, ref(p));
    out.push_back(detail::make_for(p, i(0), nranks_, i(1), std::move(inner), span_));
  }

  void notify(Block& out, const Expr& signal, Expr peer) {
    emit(out, make_.call(OpId::Notify,
                         {{"target", signal},
                          {"peer", std::move(peer)},
                          {"offsets", zeros(signal)},
                          {"value", i(1)},
                          {"op", make_.builder().enum_imm(EnumKind::NotifyOp, "AtomicAdd", span_)}},
                         span_));
  }
  // Waits until the signal has counted `senders` more notifies than the collectives before it on the
  // same signal (only barriers share one).
  void wait(Block& out, const Expr& signal, Expr senders) {
    Expr expected = total(signal_, senders);
    emit(out, make_.call(OpId::Wait,
                         {{"signal", signal},
                          {"offsets", zeros(signal)},
                          {"expected", expected},
                          {"cmp", make_.builder().enum_imm(EnumKind::WaitCmp, "Ge", span_)}},
                         span_));
  }
  Expr total(const VarNode* signal, Expr senders) {
    Expr& base = totals_[signal];
    auto a = base ? as_const_int(base) : std::optional<long long>(0), b = as_const_int(senders);
    base = (a && b) ? i(*a + *b) : (base ? add(base, senders) : senders);
    return base;
  }

  // A data collective needs a signal of its own and no enclosing loop (see the file comment).
  bool allowed(const Stmt& s, const OpCall& c) {
    if (in_loops_.count(s.get())) {
      cx_.diags.error(c.span, c.op->spelling +
                                  ": a collective inside a loop cannot be lowered: its counting signal "
                                  "cannot tell the iterations apart; run the kernel once per round");
      return false;
    }
    const VarNode* signal = detail::as_var(c.arg("signal")).get();
    auto prev = users_.find(signal);
    bool barrier = c.op->id == OpId::Barrier;
    if (prev != users_.end() && !(barrier && prev->second.barrier_only)) {
      Diagnostic& d =
          cx_.diags.error(c.arg("signal")->span.valid() ? c.arg("signal")->span : c.span,
                          c.op->spelling + ": signal '" + (signal ? signal->name : "?") +
                              "' is already used by another collective; a counting signal cannot tell "
                              "their notifies apart: give each data collective its own signal window");
      DiagnosticEngine::note(d, prev->second.span, "the signal's first collective is here");
      return false;
    }
    if (prev == users_.end()) users_[signal] = {c.span, barrier};
    return true;
  }

  void collect_in_loops(const Block& b, bool inside) {
    for (const Stmt& s : b) {
      if (inside) in_loops_.insert(s.get());
      if (auto* f = s->as<For>())
        collect_in_loops(f->body, true);
      else if (auto* i = s->as<If>()) {
        collect_in_loops(i->then_body, inside);
        collect_in_loops(i->else_body, inside);
      } else if (auto* m = s->as<ManualScope>()) {
        collect_in_loops(m->body, inside);
      }
    }
  }

  void put(Block& out, const Expr& dst, Expr peer, const Expr& src, Expr dst_off, Expr src_off, Expr shape) {
    emit(out, make_.call(OpId::Put,
                         {{"dst", dst},
                          {"peer", std::move(peer)},
                          {"src", src},
                          {"dst_offsets", dst_off},
                          {"src_offsets", src_off},
                          {"shape", shape}},
                         span_));
  }

  // The shape with dim 0 replaced by `rows`, as a list expression.
  Expr slot_shape(const Expr& tensor, Expr rows) {
    std::vector<Expr> dims{std::move(rows)};
    const auto& shape = tensor->type->shape;
    for (size_t k = 1; k < shape.size(); ++k) dims.push_back(shape[k]);
    return list(std::move(dims));
  }

  std::optional<long long> static_dim0(const Expr& tensor, const char* what, const OpCall& c) {
    auto d = tensor->type->shape.empty() ? std::nullopt : as_const_int(tensor->type->shape[0]);
    if (!d) {
      cx_.diags.error(c.span, c.op->spelling + ": the leading dim of '" + what +
                                  "' must be a constant to split it into per-rank slots");
      failed_ = true;
    }
    return d;
  }

  void barrier(const OpCall& c, Block& out) {
    Expr signal = c.arg("signal");
    for_each_peer(out, [&](Block& b, Expr p) { notify(b, signal, p); });
    wait(out, signal, nranks_);
  }

  // The root puts its buf into every other rank's buf; it notifies every rank, itself included, so each
  // rank's cell counts exactly one notify per broadcast.
  void broadcast(const OpCall& c, Block& out) {
    Expr buf = c.arg("buf"), signal = c.arg("signal"), root = c.arg("root");
    Block send, recv;
    for_each_peer(send, [&](Block& b, Expr p) {
      Block one;
      put(one, buf, p, buf, nullptr, nullptr, nullptr);
      b.push_back(detail::make_if(make_.builder().compare(CompareOpKind::Ne, p, root, span_), std::move(one),
                                  {}, span_));
      notify(b, signal, p);
    });
    wait(recv, signal, i(1));
    out.push_back(detail::make_if(make_.builder().compare(CompareOpKind::Eq, ref(me_), root, span_),
                                  std::move(send), std::move(recv), span_));
  }

  // Concatenated form only: dst is src's shape with dim 0 nranks times longer (same rank, so a put).
  void allgather(const OpCall& c, Block& out) {
    Expr dst = c.arg("dst"), src = c.arg("src"), signal = c.arg("signal");
    if (dst->type->shape.size() != src->type->shape.size()) {
      cx_.diags.error(c.span,
                      "pld.tensor.allgather: the stacked form (dst [nranks, *src.shape]) is not lowered; "
                      "declare dst with src's shape and dim 0 scaled by nranks");
      failed_ = true;
      return;
    }
    auto m = static_dim0(src, "src", c);
    if (!m) return;
    for_each_peer(out, [&](Block& b, Expr p) {
      put(b, dst, p, src, offsets(mul(ref(me_), i(*m)), dst->type->shape.size()), zeros(src),
          slot_shape(src, i(*m)));
      notify(b, signal, p);
    });
    wait(out, signal, nranks_);
  }

  void all_to_all(const OpCall& c, Block& out) {
    Expr dst = c.arg("dst"), src = c.arg("src"), signal = c.arg("signal");
    auto rows = static_dim0(src, "src", c);
    if (!rows) return;
    if (!world_size_) {
      cx_.diags.error(c.span,
                      "pld.tensor.all_to_all: the slot size needs the rank count at compile time; pass "
                      "--ranks N (or -D world_size=N)");
      failed_ = true;
      return;
    }
    long long m = *rows / *world_size_;
    size_t rank = src->type->shape.size();
    for_each_peer(out, [&](Block& b, Expr p) {
      put(b, dst, p, src, offsets(mul(ref(me_), i(m)), rank), offsets(mul(p, i(m)), rank),
          slot_shape(src, i(m)));
      notify(b, signal, p);
    });
    wait(out, signal, nranks_);
  }

  // Every rank's `part(p)` rows of src land in slot `me` of peer p's scratch; then `dst` = the sum of
  // the nranks slots of the local scratch.
  void reduce_scatter(const OpCall& c, Block& out) {
    Expr dst = c.arg("dst"), src = c.arg("src"), scratch = c.arg("scratch"), signal = c.arg("signal");
    auto m = static_dim0(dst, "dst", c);
    if (!m) return;
    size_t rank = src->type->shape.size();
    for_each_peer(out, [&](Block& b, Expr p) {
      put(b, scratch, p, src, offsets(mul(ref(me_), i(*m)), rank), offsets(mul(p, i(*m)), rank),
          slot_shape(src, i(*m)));
      notify(b, signal, p);
    });
    wait(out, signal, nranks_);
    sum_slots(out, dst, scratch, *m, c);
  }

  void allreduce(const OpCall& c, Block& out) {
    Expr buf = c.arg("buf"), scratch = c.arg("scratch"), signal = c.arg("signal");
    auto m = static_dim0(buf, "buf", c);
    if (!m) return;
    size_t rank = buf->type->shape.size();
    for_each_peer(out, [&](Block& b, Expr p) {
      put(b, scratch, p, buf, offsets(mul(ref(me_), i(*m)), rank), zeros(buf), slot_shape(buf, i(*m)));
      notify(b, signal, p);
    });
    wait(out, signal, nranks_);
    sum_slots(out, buf, scratch, *m, c);
  }

  // for r0 in range(0, m, rows): acc = load slot 0; acc += load slot q for q in 1..n; store acc to dst.
  void sum_slots(Block& out, const Expr& dst, const Expr& scratch, long long m, const OpCall& c) {
    auto dims = dst->type->static_shape();
    if (!dims || dims->empty()) {
      cx_.diags.error(c.span,
                      c.op->spelling + ": the reduced operand's shape must be static to sum it in tiles");
      failed_ = true;
      return;
    }
    long long row_bytes = dtype_bytes(dst->type->dtype);
    for (size_t k = 1; k < dims->size(); ++k) row_bytes *= (*dims)[k];
    long long rows = 1;
    for (long long r = 1; r <= m; ++r)
      if (m % r == 0 && r * row_bytes <= kReduceChunkBytes) rows = r;
    std::vector<long long> tile_dims = *dims;
    tile_dims[0] = rows;
    size_t rank = dims->size();
    Var r0 = vars_.make("row", scalar_type(DType::INT64), span_);
    Block chunk;
    Var acc = assign(chunk, "acc",
                     make_.call(OpId::Load,
                                {{"tensor", scratch},
                                 {"offsets", offsets(ref(r0), rank)},
                                 {"shapes", make_.ints(tile_dims, span_)}},
                                span_));
    if (!acc) return (void)fail();
    Var q = vars_.make("slot", scalar_type(DType::INT64), span_);
    Block inner;
    Var part = assign(inner, "part",
                      make_.call(OpId::Load,
                                 {{"tensor", scratch},
                                  {"offsets", offsets(add(mul(ref(q), i(m)), ref(r0)), rank)},
                                  {"shapes", make_.ints(tile_dims, span_)}},
                                 span_));
    if (!part) return (void)fail();
    Expr sum = make_.call(OpId::Add, {{"lhs", ref(acc)}, {"rhs", ref(part)}}, span_);
    if (!sum) return (void)fail();
    inner.push_back(detail::make_assign(acc, sum, span_));
    chunk.push_back(detail::make_for(q, i(1), nranks_, i(1), std::move(inner), span_));
    emit(chunk, make_.call(OpId::Store,
                           {{"tile", ref(acc)}, {"offsets", offsets(ref(r0), rank)}, {"output_tensor", dst}},
                           span_));
    out.push_back(detail::make_for(r0, i(0), i(m), i(rows), std::move(chunk), span_));
  }

  PassContext& cx_;
  detail::OpMaker make_;
  detail::VarFactory vars_;
  std::optional<long long> world_size_;
  struct SignalUse {
    SourceSpan span;
    bool barrier_only = true;
  };
  std::map<const VarNode*, SignalUse> users_;
  std::map<const VarNode*, Expr> totals_;
  std::set<const StmtNode*> in_loops_;
  const VarNode* signal_ = nullptr;
  SourceSpan span_;
  Var me_;
  Expr nranks_;
  bool failed_ = false;
};

}  // namespace

Program lower_collectives(const Program& p, PassContext& cx) {
  return detail::map_kernels(p, [&](const Function& f) -> Function {
    Lowerer low(cx, p, f);
    Block body = detail::map_blocks(f->body, [&](const Stmt& s) { return low.lower(s); });
    return low.failed() ? nullptr : detail::with_body(f, std::move(body));
  });
}

}  // namespace ptodist::transforms
