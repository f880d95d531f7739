// The shared statement builder of lower-collectives (see emitter.h).
#include "emitter.h"

#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::transforms::collectives {

using namespace ir;

ChunkPlan plan_chunks(long long rows, long long cols, int elem_bytes, long long budget_bytes) {
  ChunkPlan p;
  p.rows = rows;
  p.cols = cols;
  long long row_bytes = cols * elem_bytes;
  if (row_bytes <= budget_bytes) {
    p.tile_cols = cols;
    for (long long r = 1; r <= rows; ++r)
      if (rows % r == 0 && r * row_bytes <= budget_bytes) p.tile_rows = r;
    return p;
  }
  p.tile_rows = 1;
  p.tile_cols = std::max<long long>(1, budget_bytes / elem_bytes);
  p.tail_cols = cols % p.tile_cols;
  return p;
}

namespace {

// A kernel may build the collectives' DMA session only if it builds none itself and prefetches
// nothing (one session per kernel, none beside a prefetch: DESIGN.md section 4), on a vector core.
bool dma_allowed(const Function& f) {
  if (f->kind != FunctionKind::InCore && f->kind != FunctionKind::AIV) return false;
  struct Finder : Walker {
    bool found = false;
    void visit_expr(const Expr& e) override {
      if (const auto* c = e ? e->as<OpCall>() : nullptr; c && (c->op->has(kSession) || c->op->has(kPrefetch)))
        found = true;
      Walker::visit_expr(e);
    }
  } finder;
  finder.visit_function(f);
  return !finder.found;
}

}  // namespace

Emitter::Emitter(PassContext& cx, const Program& p, const Function& f)
    : cx_(cx), make_(cx.diags, p, f), vars_(p, f), dma_allowed_(dma_allowed(f)) {}

void Emitter::error(const std::string& message) {
  cx_.diags.error(span_, op_name_ + ": " + message);
  failed_ = true;
}

void Emitter::at(const OpCall& c) {
  span_ = c.span;
  op_name_ = c.op->spelling;
}

void Emitter::begin(const OpCall& c, const Expr& window, Block& out) {
  at(c);
  Var ctx = assign(out, "comm_ctx", call(OpId::GetCommCtx, {{"dist_tensor", window}}));
  me_ = ctx ? assign(out, "my_rank", call(OpId::Rank, {{"ctx", ref(ctx)}})) : nullptr;
  n_ = ctx ? assign(out, "nranks", call(OpId::NRanks, {{"ctx", ref(ctx)}})) : nullptr;
  if (!me_ || !n_) failed_ = true;
}

Expr Emitter::bin(BinaryOpKind k, Expr a, Expr b) {
  auto x = as_const_int(a), y = as_const_int(b);
  if (x && y && k == BinaryOpKind::Add) return i(*x + *y);
  if (x && y && k == BinaryOpKind::Mul) return i(*x * *y);
  if (y && *y == 0 && k == BinaryOpKind::Add) return a;
  if (y && *y == 1 && k == BinaryOpKind::Mul) return a;
  return make_.builder().binary(k, std::move(a), std::move(b), span_);
}

Expr Emitter::call(OpId id, std::initializer_list<std::pair<const char*, Expr>> args) {
  Expr e = make_.call(id, args, span_);
  if (!e) failed_ = true;
  return e;
}

Var Emitter::assign(Block& out, const std::string& name, Expr value) {
  if (!value) {
    failed_ = true;
    return nullptr;
  }
  Var v = vars_.make(name, value->type, span_);
  out.push_back(detail::make_assign(v, value, span_));
  return v;
}

void Emitter::emit(Block& out, Expr value) {
  if (!value)
    failed_ = true;
  else
    out.push_back(detail::make_expr_stmt(value, span_));
}

void Emitter::loop(Block& out, const std::string& name, Expr start, Expr stop,
                   const std::function<void(Block&, Expr)>& body) {
  Var v = vars_.make(name, scalar_type(DType::INT64), span_);
  Block inner;
  body(inner, ref(v));
  out.push_back(detail::make_for(v, std::move(start), std::move(stop), i(1), std::move(inner), span_));
}

void Emitter::when(Block& out, Expr cond, Block then_body) {
  out.push_back(detail::make_if(std::move(cond), std::move(then_body), {}, span_));
}

void Emitter::for_other_peers(Block& out, const std::function<void(Block&, Expr)>& body) {
  loop(out, "step", i(1), nranks(), [&](Block& b, Expr k) {
    Var peer = assign(b, "peer", bin(BinaryOpKind::Mod, bin(BinaryOpKind::Add, me(), k), nranks()));
    if (peer) body(b, ref(peer));
  });
}

void Emitter::for_chunks(Block& out, const ChunkPlan& plan, Expr base_row,
                         const std::function<void(Block&, const Chunk&)>& body) {
  long long blocks = plan.rows / plan.tile_rows, full = plan.full_per_row_block();
  auto per_block = [&](Block& b, Expr rb) {
    Expr row = bin(BinaryOpKind::Add, base_row, bin(BinaryOpKind::Mul, rb, i(plan.tile_rows)));
    Expr first = bin(BinaryOpKind::Mul, rb, i(plan.per_row_block()));
    auto full_chunk = [&](Block& cb, Expr c) {
      body(cb, Chunk{row, bin(BinaryOpKind::Mul, c, i(plan.tile_cols)), plan.tile_rows, plan.tile_cols,
                     bin(BinaryOpKind::Add, first, c)});
    };
    if (full == 1)
      full_chunk(b, i(0));
    else if (full > 1)
      loop(b, "chunk", i(0), i(full), full_chunk);
    if (plan.tail_cols)
      body(b, Chunk{row, i(full * plan.tile_cols), plan.tile_rows, plan.tail_cols,
                    bin(BinaryOpKind::Add, first, i(full))});
  };
  if (blocks == 1)
    per_block(out, i(0));
  else
    loop(out, "row_block", i(0), i(blocks), per_block);
}

Expr Emitter::cell(const Expr& signal, Expr src, Expr row) {
  if (row) return list({std::move(row), std::move(src)});
  if (signal->type->shape.size() == 1) return list({std::move(src)});
  return list({std::move(src), i(0)});
}

Expr Emitter::add_to_cell(const Expr& signal, Expr peer, Expr offsets, Expr value) {
  return call(OpId::Notify, {{"target", signal},
                             {"peer", std::move(peer)},
                             {"offsets", std::move(offsets)},
                             {"value", std::move(value)},
                             {"op", b().enum_imm(EnumKind::NotifyOp, "AtomicAdd", span_)}});
}

Expr Emitter::wait_cell(const Expr& signal, Expr offsets, Expr generation) {
  return call(OpId::Wait, {{"signal", signal},
                           {"offsets", std::move(offsets)},
                           {"expected", std::move(generation)},
                           {"cmp", b().enum_imm(EnumKind::WaitCmp, "Ge", span_)}});
}

bool Emitter::central(const Expr& signal, const Expr& row) const {
  auto nr = row ? std::nullopt : as_const_int(signal->type->shape[0]);
  return nr && *nr > 2;
}

void Emitter::barrier(Block& out, const Expr& signal, Expr generation, Expr row) {
  if (central(signal, row)) {
    // Rank 0 waits for every rank's credit, then gives each one its own; every other rank gives rank 0
    // a credit and waits for rank 0's.
    Block root, leaf;
    for_other_ranks_than_0(
        root, [&](Block& b, Expr src) { emit(b, wait_cell(signal, cell(signal, src), generation)); });
    for_other_ranks_than_0(
        root, [&](Block& b, Expr peer) { emit(b, add_to_cell(signal, peer, cell(signal, i(0)), i(1))); });
    emit(leaf, add_to_cell(signal, i(0), cell(signal, me()), i(1)));
    emit(leaf, wait_cell(signal, cell(signal, i(0)), generation));
    out.push_back(detail::make_if(is_rank_0(), std::move(root), std::move(leaf), span_));
    return;
  }
  for_other_peers(out, [&](Block& body, Expr peer) {
    emit(body, add_to_cell(signal, peer, cell(signal, me(), row), i(1)));
  });
  for_other_peers(
      out, [&](Block& body, Expr src) { emit(body, wait_cell(signal, cell(signal, src, row), generation)); });
}

void Emitter::epilogue(Block& out, const Expr& signal, Expr total, Expr row) {
  auto t = as_const_int(total);
  Expr neg = t ? i(-*t) : make_.builder().unary(UnaryOpKind::Neg, std::move(total), span_);
  if (central(signal, row)) {
    Block root, leaf;
    for_other_ranks_than_0(
        root, [&](Block& b, Expr src) { emit(b, add_to_cell(signal, me(), cell(signal, src), neg)); });
    emit(leaf, add_to_cell(signal, me(), cell(signal, i(0)), neg));
    out.push_back(detail::make_if(is_rank_0(), std::move(root), std::move(leaf), span_));
    return;
  }
  for_other_peers(out, [&](Block& body, Expr src) {
    emit(body, add_to_cell(signal, me(), cell(signal, src, row), neg));
  });
}

void Emitter::for_other_ranks_than_0(Block& out, const std::function<void(Block&, Expr)>& body) {
  loop(out, "rank", i(1), nranks(), body);
}

Expr Emitter::is_rank_0() {
  return b().compare(CompareOpKind::Eq, me(), i(0), span_);
}

void Emitter::put(Block& out, const Expr& dst, Expr peer, const Expr& src, Expr dst_off, Expr src_off,
                  Expr shape) {
  emit(out, call(OpId::Put, {{"dst", dst},
                             {"peer", std::move(peer)},
                             {"src", src},
                             {"dst_offsets", std::move(dst_off)},
                             {"src_offsets", std::move(src_off)},
                             {"shape", std::move(shape)}}));
}

bool Emitter::use_async_put(long long rows, long long bytes) const {
  return dma_allowed_ && rows == 1 && bytes >= kAsyncPutMinBytes;
}

Var Emitter::session() {
  if (!session_) {
    session_ = vars_.make("coll_session", simple_type(TypeKind::AsyncSession), span_);
    Expr s = call(OpId::AsyncSession, {});
    if (!s) return nullptr;
    session_stmt_ = detail::make_assign(session_, s, span_);
  }
  return session_stmt_ ? session_ : nullptr;
}

Var Emitter::issue_put_async(Block& out, const Expr& dst, Expr peer, const Expr& src, Expr dst_off,
                             Expr src_off, Expr shape) {
  Var sess = session();
  if (!sess) return nullptr;
  return assign(out, "coll_event",
                call(OpId::PutAsync, {{"dst", dst},
                                      {"peer", std::move(peer)},
                                      {"src", src},
                                      {"session", ref(sess)},
                                      {"dst_offsets", std::move(dst_off)},
                                      {"src_offsets", std::move(src_off)},
                                      {"shape", std::move(shape)}}));
}

Var Emitter::issue_whole_get_async(Block& out, const Expr& window, Expr peer) {
  Var sess = session();
  if (!sess) return nullptr;
  return assign(out, "coll_event",
                call(OpId::GetAsync,
                     {{"dst", window}, {"peer", std::move(peer)}, {"src", window}, {"session", ref(sess)}}));
}

void Emitter::wait_event(Block& out, const Var& event) {
  emit(out, call(OpId::WaitAsyncEvent, {{"event", ref(event)}, {"session", ref(session_)}}));
}

void Emitter::get(Block& out, const Expr& dst, Expr peer, const Expr& src, Expr off, Expr shape) {
  emit(out, call(OpId::Get, {{"dst", dst},
                             {"peer", std::move(peer)},
                             {"src", src},
                             {"dst_offsets", off},
                             {"src_offsets", off},
                             {"shape", std::move(shape)}}));
}

Var Emitter::load(Block& out, const std::string& name, const Expr& t, Expr off, Expr shape) {
  return assign(out, name,
                call(OpId::Load, {{"tensor", t}, {"offsets", std::move(off)}, {"shapes", std::move(shape)}}));
}

Var Emitter::remote_load(Block& out, const std::string& name, const Expr& t, Expr peer, Expr off,
                         Expr shape) {
  return assign(out, name,
                call(OpId::RemoteLoad, {{"target", t},
                                        {"peer", std::move(peer)},
                                        {"offsets", std::move(off)},
                                        {"shape", std::move(shape)}}));
}

void Emitter::store(Block& out, const Var& tile, Expr off, const Expr& t) {
  emit(out, call(OpId::Store, {{"tile", ref(tile)}, {"offsets", std::move(off)}, {"output_tensor", t}}));
}

void Emitter::remote_store(Block& out, const Var& tile, const Expr& t, Expr peer, Expr off) {
  emit(
      out,
      call(OpId::RemoteStore,
           {{"src_tile", ref(tile)}, {"target", t}, {"peer", std::move(peer)}, {"offsets", std::move(off)}}));
}

void Emitter::reduce_into(Block& out, const Var& acc, const Var& x, const std::string& reduce_op) {
  OpId id = reduce_op == "Max"    ? OpId::Maximum
            : reduce_op == "Min"  ? OpId::Minimum
            : reduce_op == "Prod" ? OpId::Mul
                                  : OpId::Add;
  Expr v = call(id, {{"lhs", ref(acc)}, {"rhs", ref(x)}});
  if (v) out.push_back(detail::make_assign(acc, v, span_));
}

}  // namespace ptodist::transforms::collectives
