// The call graph of a program must be acyclic: a kernel or orchestrator that calls itself, directly or
// through others, would recurse without bound at run time (each call runs the callee to completion).
#include "ptodist/ir/functor.h"
#include "verifier_internal.h"

namespace ptodist::ir::detail {
namespace {

// Every call of a program function in a body, in program order: `f(...)`, `self.f(...)` and the
// function references that submissions launch (`pl.spmd_submit(self.kernel, ...)`).
class CallCollector : public Walker {
 public:
  void visit_expr(const Expr& e) override {
    if (!e) return;
    if (const auto* c = e->as<FuncCall>()) calls.push_back({c->callee, e->span});
    if (const auto* r = e->as<FuncRef>()) calls.push_back({r->callee, e->span});
    Walker::visit_expr(e);
  }
  std::vector<std::pair<std::string, SourceSpan>> calls;
};

class CycleFinder {
 public:
  CycleFinder(const ProgramNode& p, DiagnosticEngine& diags) : diags_(diags) {
    for (const Function& f : p.functions) {
      if (!f) continue;
      CallCollector c;
      c.visit_function(f);
      calls_[f->name] = std::move(c.calls);
    }
  }

  // Depth-first from every function; the first call that reaches a function on the current path is
  // reported with the path that closes the cycle.
  void run() {
    for (const auto& [name, _] : calls_) visit(name);
  }

 private:
  void visit(const std::string& fn) {
    if (done_.count(fn)) return;
    path_.push_back(fn);
    on_path_.insert(fn);
    for (const auto& [callee, span] : calls_[fn]) {
      if (!calls_.count(callee)) continue;  // not a program function: the verifier reports it
      if (on_path_.count(callee)) {
        report(callee, span);
        continue;
      }
      visit(callee);
    }
    on_path_.erase(fn);
    path_.pop_back();
    done_.insert(fn);
  }

  void report(const std::string& callee, const SourceSpan& span) {
    std::string cycle;
    bool in_cycle = false;
    for (const std::string& f : path_) {
      in_cycle |= f == callee;
      if (in_cycle) cycle += "'" + f + "' -> ";
    }
    diags_.error(span, "recursive call: " + cycle + "'" + callee +
                           "'; a kernel or orchestrator runs each call to completion, so a call cycle "
                           "never ends");
  }

  DiagnosticEngine& diags_;
  std::map<std::string, std::vector<std::pair<std::string, SourceSpan>>> calls_;
  std::vector<std::string> path_;
  std::set<std::string> on_path_, done_;
};

}  // namespace

void check_call_cycles(const ProgramNode& p, DiagnosticEngine& diags) {
  CycleFinder(p, diags).run();
}

}  // namespace ptodist::ir::detail
