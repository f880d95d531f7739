// The per-kernel PTO emitter: one object per kernel, so no state survives from one kernel to the next.
// Its members are defined by topic across src/codegen/pto/*.cpp (function, values, peer views, comm,
// async, compute); the manifest reads the KernelInfo it leaves behind.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gm_pipe_layout.h"
#include "ptodist/ir/expand_ops.h"
#include "ptodist/ir/function.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/ir/reduce_ops.h"
#include "ptodist/ir/unary_ops.h"
#include "ptodist/support/diagnostics.h"
#include "ptodist/support/profile.h"

namespace ptodist::codegen::pto {

// The runtime adapter a pld.system.defer_wait registers its condition through (PyPTO's name and ABI:
// raw dispatch args, signal base, flat element offset, threshold).
inline constexpr const char* kDeferredAdapter = "pypto_register_counter_completion";
inline constexpr const char* kDeferredAdapterArgs = "!pto.ptr<i64>, !pto.ptr<i32>, i64, i64";

// An SSA value of the emitted text and its MLIR type ("index", "i32", "!pto.ptr<f16>", ...).
struct Value {
  std::string ssa;
  std::string type;
  bool valid() const { return !ssa.empty(); }
};

// A GM tensor parameter: its pointer argument, its local tensor view, and for a DistributedTensor the
// CommContext pointer that follows it in the signature.
// The extent of a transfer region: the static size of each dim (-1 where it is known only at run time,
// printed `?` in the view type) and the index value holding each size.
struct RegionExtent {
  std::vector<long long> dims;
  std::vector<std::string> sizes;
};

struct TensorRef {
  std::string name;
  ir::Type type;
  std::string ptr;
  Value view;
  std::vector<std::string> dims, strides;  // index values of the view, defined in the prologue
  std::string ctx;                         // empty unless the tensor is window-backed
  bool dense = true;  // its elements are one row-major run over its own dims (false for a strided slice)
  bool dn = false;    // a transposed view: column-major (PTO's DN layout)
};

// A tile: the handle of its `pto.alloc_tile` and the tile_buf type.
struct TileRef {
  std::string ssa;
  std::string type;
  ir::Type ir_type;
  long long addr = -1;  // the byte offset plan-memory gave it; -1 when the assembler places it
  int pad = 0;          // PTOAS's pad code of its type (tile_buf_type)
};

// What the kernel's statements ask of a tile variable's pto.alloc_tile beyond its IR type
// (tile_regions.cpp).
struct TileForm {
  int pad = 0;                 // defined by pl.fillpad(_expand): the pad value its type carries
  bool dynamic_valid = false;  // the operand of pl.set_validshape, which resets its valid extents
};

// One kernel parameter as the runtime passes it (manifest).
struct ParamInfo {
  std::string name;
  std::string kind;  // Tensor, DistributedTensor, CommContext, Scalar, Dim, SdmaWorkspace, GMPipeBuffer
  std::string mlir_type;
  std::string direction;  // In, Out, InOut; empty for hidden parameters
  std::string dtype;
  std::vector<long long> shape;  // -1 for a dynamic dim
  std::string of;                // the tensor a CommContext belongs to
};

// One tile of the memory plan (manifest).
struct TileInfo {
  std::string name;
  std::string memory;
  std::string dtype;
  std::vector<long long> shape;
  long long bytes = 0;
  std::optional<long long> address;  // empty when plan-memory left no address
};

// What the manifest records about one emitted kernel.
struct KernelInfo {
  std::string name;
  std::string kind;  // InCore, AIC, AIV
  std::string core;  // vector or cube
  std::vector<ParamInfo> params;
  std::vector<TileInfo> tiles;
  bool enable_sdma = false;
  bool deferred_completion = false;  // registers pld.system.defer_wait conditions
  long long sync_id = 0;
  long long block_bytes = 0;
};

// An issued put_async/get_async: the session that issued it and the written region whose invalidate
// is deferred to the event's wait.
struct PendingAsync {
  std::string session;  // SSA of the issuing session
  Value written_view;
};

// Where an op call stands: its assignment targets (may be empty) and the statements after it in the same
// block ([next, end)), so an op can see whether the fence pass already placed the marker it needs.
struct CallSite {
  const ir::OpCall& call;
  const std::vector<ir::Var>* targets = nullptr;
  const ir::Stmt* next = nullptr;
  const ir::Stmt* end = nullptr;
  ir::Var result() const { return targets && targets->size() == 1 ? (*targets)[0] : nullptr; }
  // The op call of the statement right after this one, or null.
  const ir::OpCall* next_call() const;
  // Whether one of the markers (fences, cache invalidates) right after this statement is a fence.
  bool fence_follows() const;
};

// Calls fn(assign) for every assignment of a block, nested blocks included, in program order.
template <typename Fn>
void for_each_assign(const ir::Block& block, const Fn& fn) {
  for (const ir::Stmt& s : block) {
    if (auto a = s->as<ir::Assign>())
      fn(*a);
    else if (auto f = s->as<ir::For>())
      for_each_assign(f->body, fn);
    else if (auto w = s->as<ir::While>())
      for_each_assign(w->body, fn);
    else if (auto i = s->as<ir::If>()) {
      for_each_assign(i->then_body, fn);
      for_each_assign(i->else_body, fn);
    } else if (auto m = s->as<ir::ManualScope>())
      for_each_assign(m->body, fn);
  }
}

// Members are public: this is the emitter's internal state, shared by its topic files only.
class FunctionEmitter {
 public:
  FunctionEmitter(const ir::FunctionNode& fn, const ChipProfile& profile, DiagnosticEngine& diags);

  // Emits the kernel; returns false after reporting the first error (the text is then unusable).
  bool emit();
  std::string text() const;
  const KernelInfo& info() const { return info_; }

  // ---- output (function.cpp) ----
  void line(const std::string& s);
  // Reports a located error once per kernel; later errors of a failed kernel are its consequences.
  void fail(const SourceSpan& span, const std::string& message);
  bool failed() const { return failed_; }
  std::string fresh(const std::string& hint);
  // The name an assignment gives the value it binds: used by the outermost op that makes the value.
  std::string take_hint(const std::string& fallback);
  std::string hint_;

  // ---- values (values.cpp) ----
  Value constant_int(long long v, const std::string& type);
  Value constant_float(double v, const std::string& type);
  Value emit_scalar(const ir::Expr& e);
  Value emit_name(const ir::Expr& e);  // a variable or a dynamic dim
  Value emit_unary(const ir::Unary& u);
  Value emit_binary(const ir::Binary& b);
  Value emit_compare(const ir::Compare& c);
  Value emit_bool_op(const ir::BoolOp& b);
  Value emit_select(const ir::IfExp& s);
  // Emits `e` converted to `type`; a constant is emitted directly in that type.
  Value emit_scalar_as(const ir::Expr& e, const std::string& type);
  Value coerce(const Value& v, const std::string& type);
  std::vector<Value> emit_index_list(const ir::Expr& list, const char* what, const ir::OpCall& call);

  // ---- tensors and views (peer_view.cpp) ----
  const TensorRef* tensor_of(const ir::Expr& e, const ir::OpCall& call, const char* operand);
  // A partition view of `view` at `offsets` (all zero when empty) with static `sizes`.
  Value partition(const Value& view, ir::DType dtype, const std::vector<Value>& offsets,
                  const std::vector<long long>& sizes, const std::string& hint);
  // The same with sizes that may be known only at run time.
  Value partition(const Value& view, ir::DType dtype, const std::vector<Value>& offsets,
                  const RegionExtent& extent, const std::string& hint);
  // The view of tensor `t` in rank `peer`'s window, computed inline from the CommContext.
  Value peer_view(const TensorRef& t, const ir::Expr& peer);
  // The (rankId, rankNum) word of a CommContext.
  Value load_rank_pair(const std::string& ctx);
  // Offsets (zeros when the slot is empty) and transfer sizes (the tensor's when empty) of a region.
  std::vector<Value> region_offsets(const ir::Expr& offsets, const TensorRef& t, const ir::OpCall& call);
  std::vector<long long> region_sizes(const ir::Expr& shape, const TensorRef& t, const ir::OpCall& call);
  // The extent of a put/get region, whose sizes may be run-time values: the staging tile bounds each
  // chunk and pto-isa reads the extent from the partition view (PyPTO's dynamic transfer extent).
  RegionExtent region_extent(const ir::Expr& shape, const TensorRef& t, const ir::OpCall& call);

  // ---- ops (ops.cpp: dispatch and scalar ops) ----
  void emit_op(const CallSite& site);
  Value emit_scalar_op(const ir::OpCall& call);
  std::string any_context() const;
  bool emit_array_op(const CallSite& site);

  // ---- GM tensors as values (tensor_views.cpp) ----
  bool emit_tensor_view_op(const CallSite& site);
  void emit_slice(const CallSite& site);
  // The view of the slice `c` of a GM tensor, named after `name`; nullopt after a reported error.
  std::optional<TensorRef> slice_view(const ir::OpCall& c, const std::string& name);
  void emit_assemble(const CallSite& site);
  void emit_tensor_reshape(const CallSite& site);
  void emit_tensor_transpose(const CallSite& site);
  void find_transposed_tiles();
  // A session, event or context variable's value.
  Value handle_of(const ir::Expr& e, const ir::OpCall& call, const char* operand);

  // ---- communication (comm_ops.cpp) ----
  bool emit_comm_op(const CallSite& site);
  void emit_notify(const CallSite& site);
  void emit_wait(const CallSite& site);
  void emit_defer_wait(const CallSite& site);
  void emit_cache_invalid(const CallSite& site);
  void emit_remote_load(const CallSite& site);
  void emit_remote_store(const CallSite& site);
  void emit_staged_transfer(const CallSite& site, bool is_put);
  // Emits the GM fence unless the next statement is the fence the fence pass placed.
  void ensure_fence(const CallSite& site);
  void barrier_all();

  // ---- asynchronous transfers (async_ops.cpp) ----
  bool emit_async_op(const CallSite& site);
  void emit_session(const CallSite& site);
  void emit_async_transfer(const CallSite& site, bool is_put);
  void emit_async_wait(const CallSite& site, bool is_test);

  // ---- views, masks and padding (view_mask_ops.cpp) ----
  bool emit_view_mask_op(const CallSite& site);
  void emit_transpose_view(const CallSite& site);

  // ---- activations and a scalar select: lrelu, prelu, sels (activation_ops.cpp) ----
  bool emit_activation_op(const CallSite& site);

  // ---- matmul variants: pl.matmul_bias, pl.batch_matmul (matmul_variants.cpp) ----
  bool emit_matmul_variant_op(const CallSite& site);

  // ---- cross-core pipes: setup, slot buffers, tpush / tpop / tfree (pipe_ops.cpp) ----
  bool emit_pipe_op(const CallSite& site);
  bool place_reserved_buffer(const ir::OpCall& c, ir::Memory mem, long long& base);

  // ---- tile compute (compute_ops.cpp) ----
  bool emit_compute_op(const CallSite& site);
  // pl.sort32, pl.mrgsort, the tile gathers and pl.arange on tiles (sort_gather_ops.cpp); false for others.
  bool emit_sort_gather_op(const CallSite& site);
  bool valid_region_unsupported(const CallSite& site);
  const TileRef* tile_of(const ir::Expr& e, const ir::OpCall& call, const char* operand);
  const TileRef* result_tile(const CallSite& site);
  std::string ins_outs(const std::vector<const TileRef*>& ins, const std::string& extra_in,
                       const std::string& extra_type, const TileRef& out);
  // The region of a tensor of `rank` dims that storing tile `t` writes: its valid rows and columns.
  RegionExtent stored_region(const TileRef& t, size_t rank);
  void emit_load(const CallSite& site);
  void emit_store(const CallSite& site);
  void emit_unary(const CallSite& site, const ir::UnaryOpInfo& u);
  void emit_expand(const CallSite& site, const ir::ExpandOpInfo& x);
  void emit_reduce(const CallSite& site, const ir::ReduceOpInfo& r);
  void emit_mrgsort(const CallSite& site);
  bool merge_in_place(const ir::OpCall& c, const TileRef& src, const TileRef& out, const char* operand);
  void emit_tile_scalar(const CallSite& site, const char* op, const ir::Expr& tile, const ir::Expr& scalar);
  void emit_write(const CallSite& site);
  Value emit_read(const ir::OpCall& call);
  Value linear_index(const TensorRef& t, const ir::Expr& offsets, const ir::OpCall& call);
  void emit_tile_write(const CallSite& site);
  Value emit_tile_read(const ir::OpCall& call);
  Value tile_index(const TileRef& t, const ir::OpCall& call);

  // ---- valid regions and windows of tiles (tile_regions.cpp) ----
  void collect_tile_forms();
  void check_not_read_after(const ir::VarRef& operand, int at, int def,
                            const std::vector<std::pair<int, SourceSpan>>& accesses,
                            const std::vector<std::pair<int, int>>& loops);
  void emit_set_validshape(const CallSite& site);
  void emit_fillpad(const CallSite& site);
  void emit_tile_assemble(const CallSite& site);
  void emit_tile_slice(const CallSite& site);

  // ---- the function (function.cpp, control_flow.cpp) ----
  void declare_signature();
  void declare_dims(const ir::Expr& d);
  void declare_param(const ir::Param& p);
  // Appends `%argN: type` to the signature and its manifest entry; returns `%argN`.
  std::string add_arg(const std::string& type, ParamInfo info);
  void declare_views();
  void declare_tiles();
  bool known_at_entry(const ir::Expr& e) const;
  std::string valid_operands(const ir::Assign& a, const ir::Type& tile);
  // The handle and type of tile variable `v` at planned byte offset `addr` (-1: none).
  TileRef tile_ref(const ir::Var& v, long long addr);
  void alloc_in_body(const ir::Assign& a);
  void drop_body_tiles();
  void emit_block(const ir::Block& block);
  void emit_stmt(const ir::Stmt& s, const ir::Stmt* next, const ir::Stmt* end);
  void emit_assign(const ir::Assign& a, const ir::Stmt* next, const ir::Stmt* end);
  void emit_tuple_assign(const ir::Assign& a, const ir::Tuple& values);
  void emit_for(const ir::For& f);
  void emit_while(const ir::While& w);
  void emit_if(const ir::If& s);
  std::vector<ir::Var> carried_vars(const std::vector<const ir::Block*>& bodies, bool need_all) const;
  // The region's closing scf.yield of the carried scalars' current values, each as its type.
  void emit_carried_yield(const std::vector<ir::Var>& carried, const std::vector<std::string>& types);
  // After the region: the carried scalars are its results `res` (restores the scalars seen before it).
  void bind_region_results(const std::string& res, const std::vector<ir::Var>& carried,
                           const std::vector<std::string>& types, std::map<int, Value> before);

  const ir::FunctionNode& fn_;
  const ChipProfile& profile_;
  DiagnosticEngine& diags_;
  KernelInfo info_;

  // Per-kernel bindings, keyed by variable id so iteration order is program order, never pointers.
  std::map<int, Value> scalars_;  // Scalar variables, and handles: sessions, events, contexts
  std::map<int, TensorRef> tensors_;
  std::map<int, TileRef> tiles_;
  std::map<int, std::pair<long long, std::string>> body_allocs_;  // tiles allocated at their definition
                                                                  // -> (addr, "addr = %c " or "")
  std::map<int, TileForm> forms_;  // tile variable -> what its alloc_tile carries beyond its IR type
  std::map<int, const ir::OpCall*> pop_calls_;  // tiles popped from a cross-core pipe -> their tpop
  std::set<int> set_validshape_results_;     // tile variables that name their set_validshape operand's buffer
  std::map<int, int> alloc_depth_;           // such a tile, while allocated -> the depth of its block
  std::set<int> scoped_out_;                 // such tiles used after the block that allocated them
  std::set<int> transposed_mats_;            // tiles in their memory's transposed layout (ZN for Mat)
  std::map<int, PendingAsync> pending_;      // event variable -> its issue
  std::map<std::string, std::string> dims_;  // dynamic dim name -> its index argument
  std::string workspace_;                    // SDMA workspace argument when the kernel builds a session
  std::string raw_args_;  // the dispatch arguments a kernel that defers its completion registers through
  // The program's GM slot buffer layout (set before emit()); a kernel that initialises a pipe takes the
  // buffer as its `__gm_pipe_buffer` argument.
  const GmPipeLayout* gm_pipes = nullptr;
  std::string gm_pipe_buffer_;  // that argument, when the kernel has one
  std::map<std::pair<long long, long long>, Value> gm_pipe_regions_;  // (pipe id, dir_mask) -> its region
  Value gm_pipe_region(long long id, long long dir_mask);

  bool failed_ = false;
  int indent_ = 2;
  std::vector<std::string> signature_;
  std::vector<std::string> constants_;
  std::vector<std::string> prologue_;
  std::vector<std::string> body_;
  std::map<std::string, std::string> constant_names_;  // "value : type" -> ssa
  std::set<std::string> used_names_;
  std::map<std::string, int> name_counters_;
  bool in_prologue_ = false;
};

// Emission into the prologue (tensor views, tile allocations) rather than the body.
struct PrologueScope {
  explicit PrologueScope(FunctionEmitter& e) : e_(e) { e_.in_prologue_ = true; }
  ~PrologueScope() { e_.in_prologue_ = false; }
  FunctionEmitter& e_;
};

// The cross-core pipe ops (pipe_ops.cpp).
bool is_pipe_op(ir::OpId id);

// ---- type spellings (values.cpp) ----
std::string element_type(ir::DType t);  // f16, bf16, f32, i32, ...
std::string value_type(ir::DType t);    // INT64 scalars are `index`
// !pto.tile_buf<loc=vec, dtype=f16, ...>: `pad` is PTOAS's pad code (0 none, 1 zero, 2 max, 3 min) that
// pto.tfillpad writes; `dynamic_valid` writes v_row=?, v_col=? for a whole tile (pto.set_validshape's
// operand must have them); `transposed` gives a Mat tile the ZN layout.
std::string tile_buf_type(const ir::Type& tile, int pad = 0, bool dynamic_valid = false,
                          bool transposed = false);
// The type of a window of `tile`'s config whose valid rows and columns are `valid` (-1: known at run time).
std::string tile_view_type(const ir::Type& tile, const std::vector<long long>& valid, int pad);
std::string tensor_view_type(const ir::Type& tensor);  // !pto.tensor_view<?x?xf16>
std::string partition_type(const std::vector<long long>& sizes, ir::DType t);
// Static dims of a shaped type, -1 for a dim that is not a constant.
std::vector<long long> dims_of(const ir::Type& t);
long long tile_bytes(const ir::Type& tile);
// Sizes of the region a tile fills in a tensor of `rank` dims: rows and columns on the innermost dims.
std::vector<long long> tile_region(const ir::Type& tile, size_t rank);

// ` {atomicType = #pto<atomic_type atomic_add>}` for an atomic=Add store, else empty.
std::string atomic_store_attr(const ir::Expr& atomic);

// The spelling of an enum argument ("AtomicAdd"), or `fallback` when the slot is empty.
std::string enum_value(const ir::Expr& e, const std::string& fallback);

}  // namespace ptodist::codegen::pto
