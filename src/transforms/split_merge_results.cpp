// split_merge_results (tile_scratch.h): a merge sort's result gets a variable of its own.
#include <map>
#include <vector>

#include "ptodist/ir/functor.h"
#include "rewrite_util.h"
#include "tile_scratch.h"

namespace ptodist::transforms::detail {

using namespace ir;

namespace {

// A block by its first statement: a rewriter's copy of a statement holds the same statements in its body.
const StmtNode* block_key(const Block& b) {
  return b.empty() ? nullptr : b.front().get();
}

// For each variable, the blocks enclosing every one of its occurrences (the intersection over them).
class EnclosingBlocks : public Walker {
 public:
  std::map<const VarNode*, std::set<const StmtNode*>> common;

  void visit_block(const Block& b) override {
    stack_.push_back(block_key(b));
    Walker::visit_block(b);
    stack_.pop_back();
  }
  void visit_stmt(const Stmt& s) override {
    if (const auto* a = s->as<Assign>())
      for (const Var& v : a->targets) note(v);
    if (const auto* f = s->as<For>()) note(f->iv);
    Walker::visit_stmt(s);
  }
  void visit_expr(const Expr& e) override {
    if (Var v = as_var(e)) note(v);
    Walker::visit_expr(e);
  }

 private:
  void note(const Var& v) {
    if (!v) return;
    std::set<const StmtNode*> here(stack_.begin(), stack_.end());
    auto [it, first] = common.emplace(v.get(), here);
    if (first) return;
    std::set<const StmtNode*> both;
    for (const StmtNode* b : it->second)
      if (here.count(b)) both.insert(b);
    it->second = std::move(both);
  }
  std::vector<const StmtNode*> stack_;
};

// Renames, from the statement on, a variable that `x = pl.mrgsort(x ...)` redefines, when the variable
// lives in one block (every occurrence in it or nested in it) and that block's first occurrence defines
// it without reading it: no value of it crosses the block's edges (a loop's back edge among them).
class SplitMergeResults : public DeepRewriter {
 public:
  SplitMergeResults(const Program& p, const Function& f) : vars_(p, f) {
    EnclosingBlocks blocks;
    blocks.visit_function(f);
    common_ = std::move(blocks.common);
  }

  Block rewrite_block(const Block& b) override {
    std::set<const VarNode*> defined_here;  // defined by an earlier statement of `b`, before any read
    std::set<const VarNode*> read_first;    // read by a statement of `b` before any definition there
    Block out;
    for (const Stmt& s : b) {
      const auto* a = s->as<Assign>();
      const OpCall* c = a && a->value ? a->value->as<OpCall>() : nullptr;
      Var old = c && a->targets.size() == 1 ? a->targets[0] : nullptr;
      bool merge = old && c->op->id == OpId::MrgSort && c->type && c->type->kind == TypeKind::Tile;
      bool split = merge && defined_here.count(old.get()) && !read_first.count(old.get()) &&
                   confined_to(old.get(), block_key(b));
      // A variable read before the block defines it holds a value from before the block (or from the
      // previous iteration): it is never split.
      for (const VarNode* v : vars_read(s))
        if (!defined_here.count(v)) read_first.insert(v);
      if (old && !read_first.count(old.get())) defined_here.insert(old.get());
      Block r = rewrite_stmt(s);  // its value still reads the old variable
      if (split && r.size() == 1) {
        auto renamed = std::static_pointer_cast<Assign>(copy_stmt(*r[0]));
        renamed->targets[0] = vars_.make(old->name, renamed->targets[0]->type, old->span);
        var_map_[old.get()] = renamed->targets[0];
        r[0] = renamed;
      }
      for (Stmt& x : r) out.push_back(std::move(x));
    }
    return out;
  }

 private:
  bool confined_to(const VarNode* v, const StmtNode* b) const {
    auto it = common_.find(v);
    return it != common_.end() && it->second.count(b);
  }

  VarFactory vars_;
  std::map<const VarNode*, std::set<const StmtNode*>> common_;
};

}  // namespace

Function split_merge_results(const Program& p, const Function& f) {
  return SplitMergeResults(p, f).rewrite_function(f);
}

}  // namespace ptodist::transforms::detail
