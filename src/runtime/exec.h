// Internal to the runtime: the interpreter's frames and contexts, shared by the executor's files
// (expressions, ops, control flow, orchestration).
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "cross_core_pipes.h"
#include "decoded.h"
#include "ptodist/ir/expand_ops.h"
#include "ptodist/ir/function.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/kernels/cast.h"
#include "ptodist/kernels/elementwise.h"
#include "ptodist/kernels/reduce.h"
#include "ptodist/runtime/events.h"
#include "ptodist/runtime/runtime.h"
#include "ptodist/runtime/value.h"
#include "ptodist/runtime/world.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::runtime {

struct DmaTransfer;

// Pooled, aligned storage for tiles whose address the memory planner did not fix: a freed buffer is
// reused by the next tile of the same size, so an inner loop does not hit malloc.
class TilePool : public std::enable_shared_from_this<TilePool> {
 public:
  ~TilePool();
  std::shared_ptr<void> take(long long bytes);

 private:
  std::mutex mu_;
  std::map<long long, std::vector<void*>> free_;
};

// A pool of threads that run jobs (a rank's core threads; the runtime's rank threads): a thread is
// made when none is idle and kept, so a round does not pay for creating threads.
class WorkerPool {
 public:
  WorkerPool();
  ~WorkerPool();
  void run(std::function<void()> job);

 private:
  struct Worker;
  void loop(Worker* w);
  std::mutex mu_;
  std::vector<std::unique_ptr<Worker>> workers_;
  bool stop_ = false;
};

// A submitted kernel: its blocks, dependencies and completion.
struct TaskState {
  const ir::FunctionNode* kernel = nullptr;  // owned by the program
  int cores = 1;
  bool cube = false;
  SourceSpan span;
  std::vector<std::shared_ptr<TaskState>> deps;
  std::atomic<int> remaining{0};
  std::atomic<bool> done{false};
  std::vector<Value> results;     // block 0's return values, valid once done
  std::vector<int> block_actors;  // check mode: the check::ActorId of each block, in block order
  uint64_t event_id = 0;          // its id in the op-event stream (0 when nobody observes)
  // The pipes of the Group call that launched it (null for a kernel called on its own).
  std::shared_ptr<CrossCorePipes> pipes;
};

// One on-chip buffer of a core: zeroed bytes from a 64-byte-aligned base, as a device buffer is, so a
// planned address is as aligned as plan-memory meant it and tile rows do not straddle cache lines
// needlessly (a row copy from GM measured ~15% slower when the base was off by 16 bytes).
class CoreBuffer {
 public:
  // The base of at least `bytes` bytes; growing keeps the contents.
  std::byte* reserve(long long bytes);

 private:
  // 63 bytes more than the aligned part; zero pages from calloc, so the bytes a run (or `ptodist
  // predict`, which copies no tile data) never touches are never paged in.
  HostBytes storage_;
  std::byte* base_ = nullptr;
  long long size_ = 0;
};

// The on-chip buffers of one core, indexed by ir::Memory (Vec, Mat, Left, Right, Acc); sized from the
// profile on first use of a planned tile.
struct CoreBuffers {
  CoreBuffer memory[5];
};

// Per rank and kept across rounds: the core thread pool, which cores are busy, and their buffers.
struct RankExec {
  int rank = 0;
  WorkerPool pool;
  std::mutex mu;
  std::vector<bool> vector_busy, cube_busy;
  std::vector<std::unique_ptr<CoreBuffers>> vector_buffers, cube_buffers;
  std::vector<std::shared_ptr<TilePool>> vector_pools, cube_pools;
  int acquire_core(bool cube);  // -1 when every core of that kind is busy
  bool has_free_core(bool cube);
  void release_core(bool cube, int id);
};

// A chip orchestration the host orchestrator queued for a rank with `device=`: run after it, in order.
struct DeviceCall {
  const ir::FunctionNode* fn = nullptr;
  std::vector<Value> args;
};

// Everything one round shares.
struct RunEnv {
  World* world = nullptr;
  const ir::ProgramNode* program = nullptr;
  const DecodedProgram* decoded = nullptr;  // decoded.h
  std::map<std::string, long long> dyn;     // pl.dynamic dims bound from host shapes
  std::vector<RankExec*> ranks;
  std::vector<double> rank_seconds;
  // Fast mode, under live_mu: rank orchestrations still running on other threads; whether a rank
  // thread bound for the round waited for its CPU (rank_placement.h).
  int live_ranks = 0;
  bool rank_contended = false;
  // Chip orchestrations queued by the host's `device=` calls, run one thread per rank afterwards.
  std::vector<std::vector<DeviceCall>> rank_calls;
  int unpinned_calls = 0;  // host calls without device= so far this round (they go round-robin)
  // A host callback's call (orchestration.cpp) first runs the chip work queued before it: this.
  std::function<void()> run_queued;
  const HostCallback* host_callback = nullptr;  // RunOptions::host_callback, when set
  std::vector<int> rank_actor;  // check mode: the actor of each rank's orchestrator (-1: none)
  // Communication groups (groups.cpp): per window segment, its devices in group-rank order; empty
  // (or past the end) for a segment that every rank uses.
  std::vector<std::vector<int>> window_groups;
  // Blocks still running on core threads; a round ends only when this is zero, even after an abort.
  std::mutex live_mu;
  std::condition_variable live_cv;
  int live_blocks = 0;

  // Ready for the next round: no dynamic dims, queued calls or actors, zero times (runtime.cpp).
  void begin_round();
};

// A frame's variables by ir::VarNode::frame_slot (frame_layout.h). A slot holds no Value until its
// variable is bound: sized once per call, without constructing (zeroing) a Value per slot, and only
// the bound ones are destroyed.
class FrameSlots {
 public:
  FrameSlots() = default;
  FrameSlots(const FrameSlots&) = delete;
  FrameSlots& operator=(const FrameSlots&) = delete;
  ~FrameSlots() { clear(); }

  // Empties the frame and makes room for `n` slots.
  void reset(size_t n);
  // The value in `slot`, or null while it is unbound.
  const Value* get(size_t slot) const {
    return slot < size_ && bound_[slot] ? std::launder(reinterpret_cast<const Value*>(&storage_[slot]))
                                        : nullptr;
  }
  // Binds `slot` (growing the frame if a slot lies past its size: only a program laid out after the
  // frame was sized could do that), moving from `v`: taken by reference, so an assignment moves its
  // value once instead of twice (each move of a Value is a visit of its alternatives).
  void set(size_t slot, Value&& v);

 private:
  struct alignas(Value) Raw {
    unsigned char bytes[sizeof(Value)];
  };
  Value* at(size_t slot) { return std::launder(reinterpret_cast<Value*>(&storage_[slot])); }
  void clear();
  // One allocation per frame: `size_` raw slots, then as many bound flags after them.
  void allocate(size_t n);
  std::unique_ptr<Raw[]> storage_;
  bool* bound_ = nullptr;  // inside storage_
  size_t size_ = 0;
};

// A pld.system.defer_wait registration: the block's task completes only once the cell holds at least
// `expected` (compared unsigned, as PyPTO's runtime polls it). Resolved after the block's body ends
// and its core is free (orchestration.cpp).
struct DeferredCondition {
  const int32_t* cell = nullptr;
  uint32_t expected = 0;
  SourceSpan span;
  std::string cell_name;  // "signal[0, 0]", for reports
  int rank = 0;           // the window's rank and address, for check mode's acquire
  WindowAddr addr;
};

// One function activation on one core (or orchestrator thread).
struct Frame {
  RunEnv* env = nullptr;
  const ir::FunctionNode* fn = nullptr;
  const DecodedFunction* code = nullptr;  // fn, decoded
  // The decoded op call running now, while its operands are read (null between ops).
  const DecodedOp* site = nullptr;
  int rank = -1;  // -1 in the host orchestrator
  CoreState* core = nullptr;
  int block_idx = 0;
  int block_num = 1;
  FrameSlots vars;
  std::shared_ptr<TilePool> tiles;
  CoreBuffers* buffers = nullptr;
  // plan-memory records a tile's address on its variable's type: while the op call assigned to such a
  // variable runs, its result goes to that address.
  const ir::OpCall* planned_call = nullptr;
  long long planned_addr = -1;
  // Orchestration: tasks of the innermost manual scope (null outside one).
  std::vector<std::shared_ptr<TaskState>>* scope_tasks = nullptr;
  // A kernel block's deferred completion conditions (null outside a block).
  std::vector<DeferredCondition>* deferred = nullptr;
  // A kernel block launched by a Group call: the Group's cross-core pipes (null otherwise).
  CrossCorePipes* pipes = nullptr;
  // A Group's body: the pipes its kernel calls share, and their tasks, launched together on
  // `group_cores` blocks each after `group_deps` and joined when the body ends (null outside a Group).
  std::shared_ptr<CrossCorePipes> group_pipes;
  std::vector<std::shared_ptr<TaskState>>* group_tasks = nullptr;
  long long group_cores = 1;
  std::vector<std::shared_ptr<TaskState>> group_deps;
  // A kernel block: the explicit cross-core events of its cluster (the Group's when launched by one).
  CrossCoreEvents* events = nullptr;
  // Inside a pl.split_aiv region: the vector lane running now and the region's SplitMode; -1 outside.
  int split_lane = -1;
  int split_mode = 0;
  // pl.aic_gather in a region: the cube tile each gather site fills, lane by lane.
  std::map<const ir::OpCall*, TileValue> gathers;
  bool returned = false;
  std::vector<Value> results;
  // Observed runs: accesses and transfers the frame's ops reported (observed_op checks that an op
  // with a memory effect reported one).
  uint32_t accesses_reported = 0;
};

// Where an op keeps an operand it had to evaluate (one that is not a variable read in place). Empty
// until then, and its storage is left unwritten: GCC zeroes the whole storage of a default-constructed
// Value, or of an empty std::optional<Value> (a `rep stos` of 224 bytes), which every op paid for each
// of its holders before any was needed.
class OperandHolder {
 public:
  OperandHolder() {}  // NOLINT: the storage stays uninitialised on purpose
  OperandHolder(const OperandHolder&) = delete;
  OperandHolder& operator=(const OperandHolder&) = delete;
  ~OperandHolder() { reset(); }

  const Value& emplace(Value v) {
    reset();
    new (storage_) Value(std::move(v));
    engaged_ = true;
    return *get();
  }

 private:
  Value* get() { return std::launder(reinterpret_cast<Value*>(storage_)); }
  void reset() {
    if (engaged_) get()->~Value();
    engaged_ = false;
  }
  alignas(Value) unsigned char storage_[sizeof(Value)];
  bool engaged_ = false;
};

class Interp {
 public:
  explicit Interp(Frame& frame) : f(frame) {}

  // Runs `fn` with `args` bound to its parameters; returns the values of its `return`.
  std::vector<Value> run_function(const ir::FunctionNode& fn, std::vector<Value> args);
  // Runs the decoded statements [begin, end) of the frame's function.
  void exec_range(uint32_t begin, uint32_t end);

  // The decoded expression `tree` of the frame's function, evaluated (exec_expr.cpp): every
  // expression the executor evaluates is decoded (decoded.h); nothing evaluates the IR.
  Value eval(uint32_t tree);
  long long eval_int(uint32_t tree);
  double eval_double(uint32_t tree);
  Dims eval_ints(uint32_t tree);
  const DecodedExpr& expr_at(uint32_t tree) const { return f.code->exprs[tree]; }
  // A decoded operand's value: a variable's in place or its fast form, else its tree evaluated.
  Value value_of(const DecodedOperand& o);
  long long int_of(const DecodedOperand& o);
  double double_of(const DecodedOperand& o);
  // Operand `slot` of `c` as a list of integers (offsets, shapes).
  Dims ints_arg(const ir::OpCall& c, OperandName slot);
  // Operand `slot` of `c` as an integer or a number (a located error when it is not one).
  long long int_arg(const ir::OpCall& c, OperandName slot) { return int_of(operand_of(c, slot)); }
  double double_arg(const ir::OpCall& c, OperandName slot) { return double_of(operand_of(c, slot)); }
  // Whether operand `slot` of `c` was written; and written as something other than None.
  bool has_arg(const ir::OpCall& c, OperandName slot) const {
    const DecodedOperand* o = decoded_operand(c, slot);
    return o && o->kind != DecodedOperand::Kind::Missing;
  }
  bool given_arg(const ir::OpCall& c, OperandName slot) const {
    const DecodedOperand* o = decoded_operand(c, slot);
    return o && o->kind != DecodedOperand::Kind::Missing && o->kind != DecodedOperand::Kind::None;
  }
  // Whether operand `slot` of `c` is written as the literal True (a flag such as `clamp=True`).
  bool literal_true(const ir::OpCall& c, OperandName slot) const {
    const DecodedOperand* o = decoded_operand(c, slot);
    if (!o || o->kind != DecodedOperand::Kind::Tree) return false;
    const DecodedExpr& e = expr_at(o->tree);
    return e.kind == ir::ExprKind::BoolImm && e.constant.i != 0;
  }
  // What operand `slot` of `c` writes as a static attribute of the call (an enum such as pl.Mem.Vec,
  // a dtype, a string), from its decoded node; null when the operand is missing or of another kind.
  template <typename Node>
  const Node* attribute(const ir::OpCall& c, OperandName slot) const {
    const DecodedOperand* o = decoded_operand(c, slot);
    if (!o || o->kind != DecodedOperand::Kind::Tree) return nullptr;
    const DecodedExpr& e = expr_at(o->tree);
    return e.kind == Node::kKind ? static_cast<const Node*>(e.node) : nullptr;
  }
  // The variadic arguments of `c` (pl.spmd_submit's kernel arguments).
  std::span<const DecodedOperand> varargs_of(const ir::OpCall& c) const {
    const DecodedOp& op = site_of(c);
    return {f.code->operands.data() + op.varargs, op.n_varargs};
  }
  // A decoded entry (a constant, a variable, or scalar steps) as a scalar; false when a variable it
  // reads is unbound or not a scalar (the caller then evaluates the entry's tree, which reports that).
  // Inline: every offset and shape list and every scalar step reads entries.
  bool entry_of(const IntEntry& e, Scalar& out) {
    if (e.slot == IntEntry::kConstant) {
      out = Scalar::of_int(e.value);
      return true;
    }
    if (e.slot == IntEntry::kScalar) return run_steps(static_cast<uint32_t>(e.value), e.steps, out);
    const Value* v = lookup_slot(e.slot);
    const Scalar* s = v ? std::get_if<Scalar>(v) : nullptr;
    if (s) out = *s;
    return s != nullptr;
  }
  // Operand `slot` of `c`: a variable in place, else evaluated into `holder`.
  // Inline, with everything but a decoded variable out of line (operand_slow): ops read several
  // operands each, and the slow path's strings would otherwise make every read set up a large frame.
  const Value& operand_arg(const ir::OpCall& c, OperandName slot, OperandHolder& holder) {
    const DecodedOperand* o = decoded_operand(c, slot);
    if (o && o->kind == DecodedOperand::Kind::Var) {
      if (const Value* v = lookup_slot(o->slot)) return *v;
    }
    return operand_slow(c, slot, o, holder);
  }
  const TensorView& tensor_arg(const ir::OpCall& c, OperandName slot, OperandHolder& holder) {
    const auto* t = std::get_if<TensorView>(&operand_arg(c, slot, holder));
    if (!t || !t->data) [[unlikely]]
      not_a_bound_tensor(c, slot, t);
    return *t;
  }
  const TileValue& tile_arg(const ir::OpCall& c, OperandName slot, OperandHolder& holder) {
    const auto* t = std::get_if<TileValue>(&operand_arg(c, slot, holder));
    if (!t) [[unlikely]]
      not_a_tile(c, slot);
    return *t;
  }

  // A fresh tile for the result of `c` (at the planned address when there is one).
  TileValue new_tile(const ir::OpCall& c, const Dims& shape, ir::DType dtype, ir::Memory memory);
  // A fresh tile in pooled storage, whatever address plan-memory gave the result: for a view that the
  // plan places on its source's bytes but the executor holds in a layout of its own.
  TileValue new_unplaced_tile(const ir::OpCall& c, const Dims& shape, ir::DType dtype, ir::Memory memory);

  void bind(const ir::Var& v, Value value);
  const Value* lookup_slot(int slot) const { return f.vars.get(static_cast<size_t>(slot)); }
  // The decoded form of `c`, the op running now: every op runs from its DecodedOp (run_op), a nested
  // one too, so an op's operands are always its site's.
  const DecodedOp& site_of([[maybe_unused]] const ir::OpCall& c) const {
    PTODIST_INTERNAL_ASSERT(f.site && f.site->call == &c, "an op's operands read outside its decoded site");
    return *f.site;
  }
  // The decoded operand `slot` of `c`, or null when the op has no such parameter.
  const DecodedOperand* decoded_operand(const ir::OpCall& c, OperandName slot) const {
    const DecodedOp& op = site_of(c);
    const DecodedOperand* operands = f.code->operands.data() + op.first;
    for (uint8_t i = 0; i < op.count; ++i)
      if (operands[i].key == slot.key()) return &operands[i];
    return nullptr;
  }
  // The dtype of the checked result type of `c`, `otherwise` when the call has none.
  ir::DType result_dtype(const ir::OpCall& c, ir::DType otherwise) const {
    const DecodedOp& op = site_of(c);
    return op.typed ? op.dtype : otherwise;
  }
  // The same for an operand the op cannot run without: a located error when it is missing.
  const DecodedOperand& operand_of(const ir::OpCall& c, OperandName slot) const {
    const DecodedOperand* o = decoded_operand(c, slot);
    if (!o || o->kind == DecodedOperand::Kind::Missing) [[unlikely]]
      missing_operand(c, slot);
    return *o;
  }
  // Runs a decoded op; its tile result goes to `planned_addr` when that is not -1.
  Value run_op(const DecodedOp& op, long long planned_addr = -1);
  [[noreturn]] void fail(const SourceSpan& span, const std::string& message) const;
  // The program's function called `name`; an error at `span` when there is none.
  const ir::FunctionNode& function_named(const std::string& name, const SourceSpan& span) const;
  World& world() const { return *f.env->world; }
  // Only the core's own thread writes its counter (the watchdog reads it), so a plain load and store
  // do: no locked read-modify-write on every op.
  void tick() const {
    if (f.core)
      f.core->progress.store(f.core->progress.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

  Frame& f;

 private:
  // operand_arg's other cases: a decoded constant or None, an operand evaluated from its tree, a
  // missing one.
  const Value& operand_slow(const ir::OpCall& c, OperandName slot, const DecodedOperand* decoded,
                            OperandHolder& holder);
  // The errors of operand_of, tensor_arg (`t`: the operand when it is a tensor without data) and
  // tile_arg.
  [[noreturn]] void missing_operand(const ir::OpCall& c, OperandName slot) const;
  [[noreturn]] void not_a_bound_tensor(const ir::OpCall& c, OperandName slot, const TensorView* t) const;
  [[noreturn]] void not_a_tile(const ir::OpCall& c, OperandName slot) const;
  // The value of tree `tree`: a bound variable's in place (no copy of it on every use), anything
  // else evaluated into `holder`.
  const Value& value_in_place(uint32_t tree, OperandHolder& holder);
  // A variable node's value as a scalar in place, or null (unbound, or not a scalar).
  const Scalar* scalar_in_place(const DecodedExpr& e) const;
  Scalar scalar_operand(uint32_t tree, const SourceSpan& span);
  Value eval_binary(const DecodedExpr& e);
  Value eval_compare(const DecodedExpr& e);
  Value eval_subscript(const DecodedExpr& e);
  Value eval_call(const DecodedExpr& e);
  // Python semantics of `b` / `c` on operands already evaluated.
  Scalar binary_of(const ir::Binary& b, const Scalar& x, const Scalar& y);
  Scalar compare_of(const ir::Compare& c, const Scalar& x, const Scalar& y);
  // `o` as a scalar when it is a constant, a bound scalar variable or a decoded scalar expression of
  // those; false otherwise (the caller evaluates its tree, which also reports what is wrong).
  bool scalar_of(const DecodedOperand& o, Scalar& out);
  // Runs decoded scalar steps (ScalarStep) into `out`; false as for entry_of.
  bool run_steps(uint32_t first, uint32_t count, Scalar& out);
  void exec_assign(const DecodedStmt& s);
  void exec_for(const DecodedStmt& loop, uint32_t at);
  void exec_split_aiv(const DecodedStmt& loop, uint32_t at, const ir::For& node);
  void exec_while(const DecodedStmt& loop, uint32_t at);
  void exec_manual_scope(const DecodedStmt& scope, uint32_t at);
};

// Op dispatch generated from ops.def: one function per op, so a new op cannot be skipped silently.
#define PTODIST_OP(Id, spelling, signature, effects, where) Value op_##Id(Interp& in, const ir::OpCall& c);
#include "ptodist/ir/ops.def"
#undef PTODIST_OP
// The same with the op's id and effects given (decoded ones, read without touching the op table).
Value dispatch_op(Interp& in, const ir::OpCall& c, ir::OpId id, uint32_t effects);
// The op itself, without reporting it (dispatch_op reports through observed_op when observed).
Value dispatch_unobserved(Interp& in, const ir::OpCall& c, ir::OpId id, uint32_t effects);

// The op-event stream's executor side (events/op_events.cpp): the op seen by check mode and with its
// start and end reported, and the task boundaries (submit, block start/end with kind
// BlockStart/BlockEnd or a chip orchestration's ActorStart/ActorEnd, join). All do nothing when
// nobody observes.
Value observed_op(Interp& in, const ir::OpCall& c, ir::OpId id, uint32_t effects);
// Whether ops reported to `ev` skip their tile data (events/shape_only.cpp, `ptodist predict`), and
// the scope that says so to the op running on this thread (skips_copy_of()).
bool skips_tile_data(const events::EventStream& ev);
class TileDataScope {
 public:
  explicit TileDataScope(bool skip);
  ~TileDataScope();
  TileDataScope(const TileDataScope&) = delete;
  TileDataScope& operator=(const TileDataScope&) = delete;

 private:
  bool previous_;
};
// Calls of program functions: kernels, orchestrators and `device=` calls (orchestration.cpp): `fn`,
// the callee, with the arguments evaluated; `device` is the decoded tree of the call's `device=` when it has
// one.
Value call_function(Interp& in, const ir::FuncCall& call, const ir::FunctionNode& fn, std::vector<Value> args,
                    std::optional<uint32_t> device);
// Runs a chip orchestration the host queued for `rank` (its arguments are moved into its frame).
void run_device_call(RunEnv& env, int rank, DeviceCall& call);

// Communication groups (groups.cpp). After the host orchestrator ran: group each window segment by the
// devices it was dispatched to.
void assign_window_groups(RunEnv& env, int ranks);
// The devices of `window`'s group, or null when it spans the world.
const std::vector<int>* window_group(const RunEnv& env, const TensorView& window);
// The op's `peer` (a rank of `window`'s group) as a world rank; a located error when out of range.
int global_peer(Interp& in, const ir::OpCall& c, const TensorView& window);
// pld.get_comm_ctx(window): this rank's group-local rank and the group's size.
CommCtxValue comm_ctx_of(Interp& in, const ir::OpCall& c, const TensorView& window);
// " (group of devices {1, 2})" for a grouped window, "" otherwise: for reports.
std::string group_note(const RunEnv& env, const TensorView& window);
// Waits for every task the frame submitted (end of a manual scope or of an orchestrator).
// `what` names the wait in a watchdog report ("end of pl.manual_scope", "kernel call").
void join_tasks(Interp& in, std::vector<std::shared_ptr<TaskState>>& tasks, const SourceSpan& span,
                const char* what);

// Check mode: the running core's actor (check::ActorId), -1 for the host orchestrator and in fast mode.
inline int actor_of(const Interp& in) {
  return in.f.core ? in.f.core->actor : -1;
}
// Check mode: a switch point of the running core (other cores may run first, transfers may land);
// nothing in fast mode. Throws RunAborted when the run is torn down.
void check_switch_point(Interp& in);

// Helpers shared by the op files.
inline const ir::EnumImm* enum_arg(const Interp& in, const ir::OpCall& c, OperandName slot) {
  return in.attribute<ir::EnumImm>(c, slot);
}
std::string dims_str(std::span<const long long> dims);  // "[2, 3]"
std::string describe_cell(const TensorView& t, const Dims& offsets);
long long region_offset_bytes(Interp& in, const ir::OpCall& c, const TensorView& t, const Dims& offsets,
                              const Dims& shape);
// A GM or window access of the running op: [offsets, offsets + shape) of `t` in `rank`'s copy of the
// window (the running rank's local GM when `t` is no window), read, written, or atomically added to.
struct MemoryAccess {
  const TensorView& t;
  const Dims& offsets;
  const Dims& shape;
  int rank = -1;
  bool write = false;
  bool atomic_add = false;
};
// The op reports its GM and window accesses on the op-event stream where it makes them (only the op
// knows its region: a load's valid_shape, a put's offsets); nothing in fast mode. Observed ops with a
// memory effect in ops.def must report (observed_op checks it), so a new op cannot skip check mode.
void observed_accesses(Interp& in, const ir::OpCall& c, std::span<const MemoryAccess> accesses);
inline void report_accesses(Interp& in, const ir::OpCall& c, std::initializer_list<MemoryAccess> accesses) {
  if (in.world().observed()) [[unlikely]]
    observed_accesses(in, c, std::span<const MemoryAccess>(accesses.begin(), accesses.size()));
}
// A core's load or store of its rank's GM (a window or local GM).
inline void report_access(Interp& in, const ir::OpCall& c, const TensorView& t, const Dims& offsets,
                          const Dims& shape, bool write) {
  report_accesses(in, c, {MemoryAccess{t, offsets, shape, t.rank, write, false}});
}
// An async transfer issued by the running op, reported on the stream: check mode's observer takes it
// (its scheduler lands it where the seed says) and returns its event; otherwise nullopt, and the op
// hands it to the rank's DMA engine.
std::optional<EventValue> report_transfer(Interp& in, const ir::OpCall& c, DmaTransfer& t,
                                          const TensorView& local, const std::string& remote_name);
// Writes the valid region of `tile` into `t` at `offsets` (added atomically with atomic=Add).
void store_tile(Interp& in, const ir::OpCall& c, const TileValue& tile, const TensorView& t,
                const Dims& offsets);

// Tensor-level compute (exec_ops_tensor.cpp): the forms of the elementwise ops on GM tensors, each
// giving a new tensor. `tensor_unary` is pl.exp, or pl.cast when `cast`.
Value tensor_binary(Interp& in, const ir::OpCall& c, kernels::BinaryOp op);
Value tensor_scalar(Interp& in, const ir::OpCall& c, kernels::ScalarOp op, OperandName tile,
                    OperandName scalar);
Value tensor_unary(Interp& in, const ir::OpCall& c, bool cast);
// pl.cast's rounding `mode` (checked by its contract) as the kernels' RoundMode.
kernels::RoundMode round_mode(const Interp& in, const ir::OpCall& c);
// The broadcast family (ir/expand_ops.def): a runtime check that the vector fits lhs (a failure when
// not), `row` computed into `out` from lhs and the vector, and its tensor-level form.
void check_expand_vector(Interp& in, const ir::OpCall& c, const ir::ExpandOpInfo& row, const Dims& lhs,
                         const Dims& vec);
void expand_into(const ir::ExpandOpInfo& row, const kernels::TileView& out, const kernels::TileView& lhs,
                 const kernels::TileView& vec);
Value tensor_expand_op(Interp& in, const ir::OpCall& c, const ir::ExpandOpInfo& row);
// A new zero-filled dense tensor the running kernel owns, the result of `c` (exec_ops_tensor.cpp).
TensorView new_owned_tensor(Interp& in, const ir::OpCall& c, const Dims& shape, ir::DType dtype);
// The GM tensor in operand `slot`, densely packed into a new tensor (its read reported).
TensorView dense_tensor(Interp& in, const ir::OpCall& c, OperandName slot, OperandHolder& h);
// The axis reductions (exec_ops_reduce.cpp): a tile's valid region reduced along its rows (per_row) or
// columns into a new tile of `out_dtype`; the tensor-level form (exec_ops_tensor.cpp) into a new tensor.
TileValue reduce_tile(Interp& in, const ir::OpCall& c, const TileValue& a, kernels::AxisReduce kind,
                      bool per_row, ir::DType out_dtype);
Value tensor_reduce(Interp& in, const ir::OpCall& c, kernels::AxisReduce kind, bool per_row,
                    ir::DType out_dtype);
// pl.fillpad of a GM tensor (exec_ops_tensor.cpp): a new dense tensor, `pad` (a pl.PadValue member)
// outside the operand's valid region; and the padding itself on a dense buffer (exec_ops_valid.cpp).
Value tensor_fillpad(Interp& in, const ir::OpCall& c, const std::string& pad);
// After an op wrote tile `t` in place: when `t` is a slice, its bytes are written to the parent region
// it views (and on up, for a slice of a slice), as the device's subview shares them.
void write_back_window(const TileValue& t);
void pad_dense_outside(std::byte* data, ir::DType t, const Dims& shape, const Dims& valid,
                       const std::string& pad);
// A unary op of ir/unary_ops.def on the GM tensor in operand `slot`.
Value tensor_unary_op(Interp& in, const ir::OpCall& c, kernels::UnaryOp op, OperandName slot);
// The matmul forms beside the float tile kernel (exec_ops_matmul.cpp): c[M, N] (+)= a[M, K] @ b[K, N]
// of dense INT8 matrices into INT32 (wrapping), and pl.matmul / pl.matmul_acc on GM tensors.
void int8_matmul(const std::byte* a, const std::byte* b, std::byte* c, long long m, long long k, long long n,
                 bool add);
Value tensor_matmul(Interp& in, const ir::OpCall& c, bool accumulate);

}  // namespace ptodist::runtime
