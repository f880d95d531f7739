// The statement builder the collective lowerings share: the communicator prologue, PyPTO's
// self-clearing credit barrier, per-peer loops, column-chunk plans and the ordinary ops (put, get,
// remote_load, load, store, reductions) a collective is made of.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "../rewrite_util.h"
#include "ptodist/transforms/pass.h"

namespace ptodist::transforms::collectives {

// The put_async rule's threshold: the a2a3 timing model puts the crossover of one staged put and one
// put_async + wait at about 220 KiB (docs/collectives.md); from 256 KiB the DMA form is faster.
inline constexpr long long kAsyncPutMinBytes = 256 * 1024;

// One chunk of a [rows, cols] region, sized so a tile of it stays within a byte budget.
struct Chunk {
  ir::Expr row, col;     // offsets
  long long rows, cols;  // static extent
  ir::Expr index;        // 0-based chunk number, in the order the chunks run
};

// How a [rows, cols] region is cut: `tile_rows` divides rows; full column chunks then one tail.
struct ChunkPlan {
  long long rows = 1, cols = 1, tile_rows = 1, tile_cols = 1, tail_cols = 0;
  long long full_per_row_block() const { return cols / tile_cols; }
  long long per_row_block() const { return full_per_row_block() + (tail_cols ? 1 : 0); }
  long long count() const { return (rows / tile_rows) * per_row_block(); }
};
ChunkPlan plan_chunks(long long rows, long long cols, int elem_bytes, long long budget_bytes);

class Emitter {
 public:
  Emitter(PassContext& cx, const ir::Program& p, const ir::Function& f);

  bool failed() const { return failed_; }
  void fail() { failed_ = true; }
  // Reports "<op>: message" at the collective's call and marks the lowering failed.
  void error(const std::string& message);
  // Points errors and generated statements at the collective call `c`.
  void at(const ir::OpCall& c);
  ir::Builder& b() { return make_.builder(); }

  // Starts one collective: binds its call's span and op, and emits `ctx = get_comm_ctx(window)`,
  // `me = rank(ctx)`, `n = nranks(ctx)`.
  void begin(const ir::OpCall& c, const ir::Expr& window, ir::Block& out);
  ir::Expr me() { return ref(me_); }
  ir::Expr nranks() { return ref(n_); }

  ir::Expr i(long long v) { return make_.i(v, span_); }
  ir::Expr ref(const ir::Var& v) { return make_.ref(v, span_); }
  ir::Expr bin(ir::BinaryOpKind k, ir::Expr a, ir::Expr b);
  ir::Expr list(std::vector<ir::Expr> es) { return b().list(std::move(es), span_); }
  ir::Expr ints(const std::vector<long long>& vs) { return make_.ints(vs, span_); }
  ir::Expr call(ir::OpId id, std::initializer_list<std::pair<const char*, ir::Expr>> args);
  ir::Var assign(ir::Block& out, const std::string& name, ir::Expr value);
  void emit(ir::Block& out, ir::Expr value);

  // `for v in pl.range(start, stop): body(v)`.
  void loop(ir::Block& out, const std::string& name, ir::Expr start, ir::Expr stop,
            const std::function<void(ir::Block&, ir::Expr)>& body);
  // `if cond: then` (no else).
  void when(ir::Block& out, ir::Expr cond, ir::Block then_body);
  // For every peer other than me, in the order me+1, me+2, ... (mod n): body(peer).
  void for_other_peers(ir::Block& out, const std::function<void(ir::Block&, ir::Expr)>& body);
  // Every chunk of `plan`, in order; the chunk's `row`/`col` include the given base offsets.
  void for_chunks(ir::Block& out, const ChunkPlan& plan, ir::Expr base_row,
                  const std::function<void(ir::Block&, const Chunk&)>& body);

  // The signal cell that counts rank `src`'s credits: [src], [src, 0], or [row, src] on a ring signal.
  ir::Expr cell(const ir::Expr& signal, ir::Expr src, ir::Expr row = nullptr);
  // One barrier generation (docs/collectives.md, "Barrier"). Mesh (a ring signal's row, or a signal of
  // at most 2 cells): +1 into my cell of every peer's signal, then wait until every peer's cell of mine
  // reaches `generation` (>=: a fast peer may already be one call ahead). Central (a mesh signal of a
  // constant NR > 2 cells): every rank but 0 adds 1 into its cell of rank 0's signal and waits until
  // rank 0's cell of its own reaches `generation`; rank 0 waits for every rank's cell, then adds 1
  // into its cell of every rank's signal: 2 (NR-1) credits a generation instead of NR (NR-1).
  void barrier(ir::Block& out, const ir::Expr& signal, ir::Expr generation, ir::Expr row = nullptr);
  // The self-clearing epilogue: take the `total` credits each peer gave this call back out of my
  // cells (the cells the barrier's form credits), so the signal is all zero once every rank has
  // finished the call.
  void epilogue(ir::Block& out, const ir::Expr& signal, ir::Expr total, ir::Expr row = nullptr);
  // Whether barrier and epilogue take the central form on this signal (and ring row).
  bool central(const ir::Expr& signal, const ir::Expr& row) const;

  // Ordinary ops.
  void put(ir::Block& out, const ir::Expr& dst, ir::Expr peer, const ir::Expr& src, ir::Expr dst_off,
           ir::Expr src_off, ir::Expr shape);
  // The put_async rule (docs/collectives.md): a one-row push of at least kAsyncPutMinBytes goes on the
  // DMA engine, `e = put_async(...)` and later `wait_async_event(e, sess)`, when the kernel may build
  // the session (an InCore/AIV kernel with no session or async prefetch of its own).
  bool use_async_put(long long rows, long long bytes) const;
  // The same rule for a pull of `bytes` (broadcast): the whole region on the DMA engine.
  bool use_async_get(long long bytes) const { return use_async_put(1, bytes); }
  // `e = put_async(...)` on the collectives' session: the caller waits for `e` (wait_event) before any
  // notify.
  ir::Var issue_put_async(ir::Block& out, const ir::Expr& dst, ir::Expr peer, const ir::Expr& src,
                          ir::Expr dst_off, ir::Expr src_off, ir::Expr shape);
  // `e = get_async(window, peer, window, sess)`: the whole of peer's copy of `window` into mine, window
  // to window with no stage tile (a whole-tensor transfer is contiguous whatever its shape).
  ir::Var issue_whole_get_async(ir::Block& out, const ir::Expr& window, ir::Expr peer);
  // `wait_async_event(e, sess)`.
  void wait_event(ir::Block& out, const ir::Var& event);
  // `sess = pld.system.async_session()` when a put_async was emitted (the caller puts it first in the
  // kernel), else null.
  ir::Stmt session_stmt() const { return session_stmt_; }
  void get(ir::Block& out, const ir::Expr& dst, ir::Expr peer, const ir::Expr& src, ir::Expr off,
           ir::Expr shape);
  ir::Var load(ir::Block& out, const std::string& name, const ir::Expr& t, ir::Expr off, ir::Expr shape);
  ir::Var remote_load(ir::Block& out, const std::string& name, const ir::Expr& t, ir::Expr peer, ir::Expr off,
                      ir::Expr shape);
  void store(ir::Block& out, const ir::Var& tile, ir::Expr off, const ir::Expr& t);
  // `pld.tile.remote_store(tile, target, peer, off)`: the tile into peer's window.
  void remote_store(ir::Block& out, const ir::Var& tile, const ir::Expr& t, ir::Expr peer, ir::Expr off);
  // `acc = <op>(acc, x)` for a pld.ReduceOp member.
  void reduce_into(ir::Block& out, const ir::Var& acc, const ir::Var& x, const std::string& reduce_op);

 private:
  // `notify(signal, peer, offsets, value, op=AtomicAdd)` and `wait(signal, offsets, generation, cmp=Ge)`.
  ir::Expr add_to_cell(const ir::Expr& signal, ir::Expr peer, ir::Expr offsets, ir::Expr value);
  ir::Expr wait_cell(const ir::Expr& signal, ir::Expr offsets, ir::Expr generation);
  // For ranks 1 .. n-1: body(rank).
  void for_other_ranks_than_0(ir::Block& out, const std::function<void(ir::Block&, ir::Expr)>& body);
  ir::Expr is_rank_0();

  PassContext& cx_;
  detail::OpMaker make_;
  detail::VarFactory vars_;
  SourceSpan span_;
  std::string op_name_;
  ir::Var me_, n_;
  bool failed_ = false;
  bool dma_allowed_ = false;
  ir::Var session_;
  ir::Stmt session_stmt_;

  // The collectives' session, made on first use; null if it could not be built.
  ir::Var session();
};

// The per-collective lowerings: each appends the collective's statements to `out` and returns the
// expression of the window holding the result (what the call's target variable is rebound to).
ir::Expr lower_barrier(Emitter& e, const ir::OpCall& c, ir::Block& out);
ir::Expr lower_broadcast(Emitter& e, const ir::OpCall& c, ir::Block& out);
ir::Expr lower_allgather(Emitter& e, const ir::OpCall& c, ir::Block& out);
ir::Expr lower_all_to_all(Emitter& e, const ir::OpCall& c, ir::Block& out);
ir::Expr lower_all_to_all_v(Emitter& e, const ir::OpCall& c, ir::Block& out);
ir::Expr lower_reduce_scatter(Emitter& e, const ir::OpCall& c, ir::Block& out);
ir::Expr lower_allreduce(Emitter& e, const ir::OpCall& c, ir::Block& out);
// mode="ring" (ring.cpp), for a [rows, cols] target.
ir::Expr lower_ring_allreduce(Emitter& e, const ir::OpCall& c, ir::Block& out, long long rows,
                              long long cols);

}  // namespace ptodist::transforms::collectives
