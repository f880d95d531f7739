// plan-memory: placement of every tile in its on-chip memory, as PyPTO's MemoryReuse and
// AllocateMemoryAddr passes plan it.
//
// Per kernel and per memory, tiles are packed into buffers first-fit-decreasing (largest first, ties in
// program order): a tile joins the first buffer none of whose tiles it interferes with, where a tile
// whose last use is the statement that defines another does not interfere with it (the statement reads
// its operands before it writes its result), unless the defining op cannot run in place on that operand.
// A buffer is as large as its largest tile; buffers then get consecutive aligned offsets, so the memory a
// kernel needs is the sum of its buffers, and that sum is what is checked against the profile's capacity
// (PyPTO: "Vec buffer usage (N bytes) exceeds platform limit (M bytes)"). Tiles sharing a buffer share
// its offset exactly, never part of it, so an in-place op reads and writes the same elements. The offsets
// are recorded on the variables' types (TypeNode::addr).
#include "ptodist/transforms/plan_memory.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "ptodist/analysis/liveness.h"
#include "ptodist/ir/elementwise_ops.h"
#include "ptodist/ir/expand_ops.h"
#include "ptodist/ir/functor.h"
#include "ptodist/ir/printer.h"
#include "ptodist/ir/unary_ops.h"
#include "rewrite_util.h"

namespace ptodist::transforms {

using namespace ir;
using analysis::LiveRange;

namespace {

long long align_up(long long v, long long a) {
  return a <= 1 ? v : (v + a - 1) / a * a;
}

long long capacity(const ChipProfile& p, Memory m) {
  switch (m) {
    case Memory::Vec:
      return p.ub_bytes;
    case Memory::Mat:
      return p.l1_bytes;
    case Memory::Left:
      return p.l0a_bytes;
    case Memory::Right:
      return p.l0b_bytes;
    case Memory::Acc:
      return p.l0c_bytes;
    case Memory::Bias:
      return p.bias_bytes;
  }
  return 0;
}

std::string memory_label(Memory m) {
  switch (m) {
    case Memory::Vec:
      return "Vec (UB)";
    case Memory::Mat:
      return "Mat (L1)";
    case Memory::Left:
      return "Left (L0A)";
    case Memory::Right:
      return "Right (L0B)";
    case Memory::Acc:
      return "Acc (L0C)";
    case Memory::Bias:
      return "Bias (BT)";
  }
  return "?";
}

bool is_tile_var(const Var& v) {
  return v && v->type && v->type->kind == TypeKind::Tile;
}

// The tile variables an expression reads.
class TileReads : public Walker {
 public:
  std::set<const VarNode*> vars;
  void visit_expr(const Expr& e) override {
    if (!e) return;
    if (const auto* r = e->as<VarRef>(); r && is_tile_var(r->var)) vars.insert(r->var.get());
    Walker::visit_expr(e);
  }
};

// Ops whose kernels compute element i of the result from element i of the operands only, reading it
// before writing it, so the result may take an operand's buffer. Every other op (moves, reductions,
// matmuls, ops added later) keeps its result apart from its operands, as PyPTO's not_inplace_safe ops
// (tile.move, tile.row_sum, tile.row_max, ...) do.
bool runs_in_place(const OpCall& c) {
  // pto.tfmod overwrites src0 with src0 / src1 before its last read of src0 (PyPTO: not_inplace_safe).
  if (c.op->id == OpId::Fmod || c.op->id == OpId::Fmods) return false;
  if (is_elementwise_arith(c.op->id)) return true;
  switch (c.op->id) {
    case OpId::Cast: {
      // A widening cast writes element i past where element i+1 is still to be read (PyPTO forbids it).
      const Expr& in = c.arg("input");
      return c.type && in && in->type && dtype_bytes(c.type->dtype) <= dtype_bytes(in->type->dtype);
    }
    default: {
      const UnaryOpInfo* u = unary_op_info(c.op->id);
      return u && u->in_place;
    }
  }
}

// The tile whose buffer an op's result is, by definition (PyPTO: the result reuses the input's memory):
// pl.set_validshape only narrows the valid region, pl.tile.fillpad_inplace pads in place, an assemble
// into a tile writes the target, pl.tile.write sets one element of its tile, pl.tile.transpose_view
// reads its tile's bytes in the transposed layout.
const VarNode* aliased_operand(const Expr& value) {
  const auto* c = value->as<OpCall>();
  if (!c) return nullptr;
  const char* slot = c->op->id == OpId::SetValidShape    ? "input"
                     : c->op->id == OpId::FillPadInplace ? "tile"
                     : c->op->id == OpId::TileWrite      ? "tile"
                     : c->op->id == OpId::TransposeView  ? "tile"
                     : c->op->id == OpId::Assemble       ? "target"
                                                         : nullptr;
  if (!slot) return nullptr;
  const auto* r = c->arg(slot)->as<VarRef>();
  return r && is_tile_var(r->var) ? r->var.get() : nullptr;
}

// What the assignments of a kernel tell the planner: the tiles each tile variable's defining ops may
// not share bytes with, and the plain copies `x = y` (x names y's tile at run time: one buffer).
struct Definitions : Walker {
  std::map<const VarNode*, std::set<const VarNode*>> no_alias;
  std::vector<std::pair<const VarNode*, const VarNode*>> copies;
  // (slice, parent): a pl.tile.slice of a tile variable. An in-place write into the slice (matmul_acc)
  // lands in the parent's bytes too, as the device's subview shares them, so the parent's buffer stays
  // its own while the slice is live.
  std::vector<std::pair<const VarNode*, const VarNode*>> windows;

  void visit_stmt(const Stmt& s) override {
    if (const auto* a = s->as<Assign>(); a && a->targets.size() == 1 && is_tile_var(a->targets[0])) {
      const VarNode* target = a->targets[0].get();
      if (const auto* c = a->value->as<OpCall>(); c && c->op->id == OpId::Slice)
        if (const auto* r = c->arg("input")->as<VarRef>(); r && is_tile_var(r->var))
          windows.push_back({target, r->var.get()});
      if (const auto* r = a->value->as<VarRef>(); r && is_tile_var(r->var)) {
        copies.push_back({target, r->var.get()});
      } else if (const VarNode* same = aliased_operand(a->value)) {
        copies.push_back({target, same});
      } else if (const auto* c = a->value->as<OpCall>(); !c || !runs_in_place(*c)) {
        TileReads reads;
        if (c && expand_op_info(c->op->id)) {
          // An expand op re-reads its row/column vector (and a scratch) for every row or column but
          // reads each element of its first operand once, before writing it (PyPTO: forbid_output_alias
          // of the vector only): the result may take the first operand's buffer.
          for (size_t i = 1; i < c->args.size(); ++i) reads.visit_expr(c->args[i]);
          for (const Expr& v : c->varargs) reads.visit_expr(v);
        } else {
          reads.visit_expr(a->value);
        }
        reads.vars.erase(target);  // `acc = op(acc, ...)` rebinds one variable, which has one buffer
        no_alias[target].insert(reads.vars.begin(), reads.vars.end());
      }
    }
    Walker::visit_stmt(s);
  }
};

// Tiles that must share one buffer (a copy and its source), with their joint live range.
struct Unit {
  std::vector<LiveRange> members;
  LiveRange range;
  long long bytes = 0;
  Memory memory = Memory::Vec;
  int order = 0;  // program order of the first member
};

struct Buffer {
  Memory memory = Memory::Vec;
  long long bytes = 0;
  long long addr = 0;
  std::vector<const Unit*> units;  // units[0] is the largest, which sized the buffer
};

class Planner {
 public:
  Planner(PassContext& cx, const Function& f) : cx_(cx), f_(f) {}

  // Offsets per tile variable; false after a reported error.
  bool run(std::map<const VarNode*, long long>& addrs) {
    defs_.visit_function(f_);
    if (!make_units()) return false;
    pack();
    bool ok = true;
    std::map<Memory, long long> used;
    for (Buffer& b : buffers_) {
      b.addr = used[b.memory];
      used[b.memory] = align_up(b.addr + b.bytes, cx_.profile.alignment);
      for (const Unit* u : b.units)
        for (const LiveRange& m : u->members) addrs[m.var.get()] = b.addr;
    }
    for (const auto& [mem, bytes] : used) ok = check_capacity(mem, bytes) && ok;
    return ok;
  }

 private:
  std::optional<long long> tile_bytes(const LiveRange& r) {
    std::optional<long long> bytes = detail::static_bytes(r.var->type);
    if (!bytes) {
      cx_.diags.error(r.var->span, "tile '" + r.var->name + "' of kernel '" + f_->name + "' has shape " +
                                       shape_str(r.var->type->shape) +
                                       ", which is not static, so it cannot be placed in on-chip memory; use "
                                       "constant dims (or bind the factory parameters it uses)");
      return std::nullopt;
    }
    return align_up(*bytes, cx_.profile.alignment);
  }

  // Joins each copy with its source (union-find over the copies) and sizes every unit.
  bool make_units() {
    std::vector<LiveRange> ranges = analysis::tile_live_ranges(f_);
    std::map<const VarNode*, int> index;
    for (size_t i = 0; i < ranges.size(); ++i) index[ranges[i].var.get()] = static_cast<int>(i);
    std::vector<int> parent(ranges.size());
    std::iota(parent.begin(), parent.end(), 0);
    auto root = [&](int i) {
      while (parent[i] != i) i = parent[i] = parent[parent[i]];
      return i;
    };
    for (auto [x, y] : defs_.copies)
      if (index.count(x) && index.count(y)) parent[root(index[x])] = root(index[y]);
    std::map<int, Unit> by_root;
    bool ok = true;
    for (size_t i = 0; i < ranges.size(); ++i) {
      auto bytes = tile_bytes(ranges[i]);
      ok = bytes.has_value() && ok;
      Unit& u = by_root[root(static_cast<int>(i))];
      if (u.members.empty()) {
        u.range = ranges[i];
        u.memory = ranges[i].var->type->memory;
        u.order = static_cast<int>(i);
      }
      u.members.push_back(ranges[i]);
      u.range.start = std::min(u.range.start, ranges[i].start);
      u.range.end = std::max(u.range.end, ranges[i].end);
      u.bytes = std::max(u.bytes, bytes.value_or(0));
    }
    for (auto [slice, parent] : defs_.windows) {
      if (!index.count(slice) || !index.count(parent)) continue;
      Unit& p = by_root[root(index[parent])];
      p.range.end = std::max(p.range.end, by_root[root(index[slice])].range.end);
    }
    for (auto& [r, u] : by_root) units_.push_back(std::move(u));
    return ok;
  }

  // `u`'s defining ops forbid it the bytes of a tile of `v`.
  bool forbids(const Unit& u, const Unit& v) const {
    for (const LiveRange& m : u.members) {
      auto it = defs_.no_alias.find(m.var.get());
      if (it == defs_.no_alias.end()) continue;
      for (const LiveRange& n : v.members)
        if (it->second.count(n.var.get())) return true;
    }
    return false;
  }

  bool can_join(const Unit& u, const Buffer& b) const {
    if (b.memory != u.memory) return false;
    for (const Unit* v : b.units)
      if (analysis::interferes(u.range, v->range) || forbids(u, *v) || forbids(*v, u)) return false;
    return true;
  }

  // First fit decreasing; buffers are then ordered by their first live point, for offsets that follow
  // the program.
  void pack() {
    std::vector<const Unit*> order;
    for (const Unit& u : units_) order.push_back(&u);
    std::sort(order.begin(), order.end(), [](const Unit* a, const Unit* b) {
      if (a->bytes != b->bytes) return a->bytes > b->bytes;
      if (a->range.start != b->range.start) return a->range.start < b->range.start;
      return a->order < b->order;
    });
    for (const Unit* u : order) {
      auto fit =
          std::find_if(buffers_.begin(), buffers_.end(), [&](const Buffer& b) { return can_join(*u, b); });
      if (fit == buffers_.end()) {
        buffers_.push_back({u->memory, u->bytes, 0, {u}});
      } else {
        fit->units.push_back(u);
      }
    }
    auto first_start = [](const Buffer& b) {
      int s = b.units[0]->range.start;
      for (const Unit* u : b.units) s = std::min(s, u->range.start);
      return s;
    };
    std::stable_sort(buffers_.begin(), buffers_.end(),
                     [&](const Buffer& a, const Buffer& b) { return first_start(a) < first_start(b); });
  }

  static std::string buffer_names(const Buffer& b) {
    std::string names;
    for (const Unit* u : b.units)
      for (const LiveRange& m : u->members) names += (names.empty() ? "" : "/") + m.var->name;
    return names;
  }

  bool check_capacity(Memory mem, long long used) {
    long long cap = capacity(cx_.profile, mem);
    if (used <= cap) return true;
    std::string list;
    int count = 0;
    for (const Buffer& b : buffers_) {
      if (b.memory != mem) continue;
      ++count;
      list += (list.empty() ? "" : ", ") + buffer_names(b) + " (" + std::to_string(b.bytes) + " B)";
    }
    Diagnostic& d = cx_.diags.error(
        f_->span, "kernel '" + f_->name + "' needs " + std::to_string(used) + " bytes of " +
                      memory_label(mem) + " memory but the " + cx_.profile.name + " profile has " +
                      std::to_string(cap) + "; its " + std::to_string(count) + " buffers: " + list +
                      "; tiles live at the same time cannot share a buffer: use smaller tiles or end some "
                      "tiles' use sooner");
    for (const Buffer& b : buffers_) {
      if (b.memory != mem) continue;
      const LiveRange& rep = b.units[0]->members[0];
      std::string note = "buffer of " + std::to_string(b.bytes) + " bytes at offset " +
                         std::to_string(b.addr) + " for '" + rep.var->name + "' (" + type_str(rep.var->type) +
                         ")";
      if (buffer_names(b) != rep.var->name) note += ", shared by " + buffer_names(b);
      DiagnosticEngine::note(d, rep.var->span, note);
    }
    return false;
  }

  PassContext& cx_;
  const Function& f_;
  Definitions defs_;
  std::vector<Unit> units_;
  std::vector<Buffer> buffers_;
};

// Copies the function with each planned tile's type carrying its offset; the first definition of each
// tile gets the type as its annotation so the printed IR shows the placement.
class AddrWriter : public detail::DeepRewriter {
 public:
  AddrWriter(const std::map<const VarNode*, long long>& addrs,
             std::map<const StmtNode*, const VarNode*> first_defs)
      : addrs_(addrs), first_defs_(std::move(first_defs)) {}

  Var map_var(const Var& v) override {
    if (!v) return v;
    auto done = var_map_.find(v.get());
    if (done != var_map_.end()) return done->second;
    auto it = addrs_.find(v.get());
    if (it == addrs_.end()) return DeepRewriter::map_var(v);
    auto t = std::make_shared<TypeNode>(*v->type);
    t->addr = it->second;
    auto c = std::make_shared<VarNode>(*v);
    c->type = t;
    var_map_[v.get()] = c;
    return c;
  }

  Block rewrite_stmt(const Stmt& s) override {
    Block out = DeepRewriter::rewrite_stmt(s);
    auto it = first_defs_.find(s.get());
    if (it != first_defs_.end() && out.size() == 1) {
      auto a = std::static_pointer_cast<Assign>(std::const_pointer_cast<StmtNode>(out[0]));
      a->annotation = var_map_.at(it->second)->type;
    }
    return out;
  }

 private:
  const std::map<const VarNode*, long long>& addrs_;
  std::map<const StmtNode*, const VarNode*> first_defs_;
};

}  // namespace

bool tiles_fit_on_chip(const Function& f, const ChipProfile& profile) {
  DiagnosticEngine scratch;
  PassContext cx{scratch, profile};
  std::map<const VarNode*, long long> addrs;
  return Planner(cx, f).run(addrs);
}

Program plan_memory(const Program& p, PassContext& cx) {
  return detail::map_kernels(p, [&](const Function& f) -> Function {
    std::map<const VarNode*, long long> addrs;
    if (!Planner(cx, f).run(addrs)) return nullptr;
    std::map<const StmtNode*, const VarNode*> first_defs;
    for (const LiveRange& r : analysis::tile_live_ranges(f)) first_defs[r.first_def] = r.var.get();
    return AddrWriter(addrs, std::move(first_defs)).rewrite_function(f);
  });
}

}  // namespace ptodist::transforms
