// Helpers for pass unit tests: parse a kernel file from a string, run named passes, and find
// statements and diagnostics in the result.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ptodist/frontend/parser.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/ir/printer.h"
#include "ptodist/transforms/pass.h"

namespace ptodist::transforms::testing {

// The imports every test kernel starts with.
inline const char* kHeader =
    "import pypto.language as pl\n"
    "import pypto.language.distributed as pld\n\n\n";

class PassTest : public ::testing::Test {
 protected:
  SourceManager sources;
  DiagnosticEngine diags;
  ir::Module module;
  std::map<std::string, long long> bindings;
  ChipProfile profile;
  bool verify = true;  // run the verifier after every pass

  // Parses kHeader + text; the program is the file's first one.
  ir::Program parse(const std::string& text) {
    const SourceFile* f = sources.add("test.py", kHeader + text);
    module = frontend::parse_module(*f, diags);
    EXPECT_FALSE(diags.has_errors()) << all_diagnostics();
    if (!module || module->programs.empty()) return nullptr;
    return module->programs.front();
  }

  PassContext context() {
    PassContext cx{diags};
    cx.profile = profile;
    cx.bindings = bindings;
    cx.module = module;
    cx.verify_each = verify;
    return cx;
  }

  // Runs the named passes on the parsed text; null after errors.
  ir::Program run(const std::string& text, const std::vector<std::string>& passes) {
    ir::Program p = parse(text);
    if (!p) return nullptr;
    PassContext cx = context();
    return run_passes(p, passes, cx);
  }

  std::string all_diagnostics() const {
    std::string out;
    for (const Diagnostic& d : diags.diagnostics()) out += format_diagnostic(d);
    return out;
  }

  std::string first_error() const {
    for (const Diagnostic& d : diags.diagnostics())
      if (d.severity == Severity::Error) return d.message;
    return "";
  }
};

// The kernel called `name` (or the first function).
inline ir::Function kernel(const ir::Program& p, const std::string& name = "kernel") {
  if (!p) return nullptr;
  ir::Function f = p->find(name);
  return f ? f : (p->functions.empty() ? nullptr : p->functions.front());
}

// Every statement of a block and its nested blocks, in program order.
inline void flatten(const ir::Block& b, std::vector<ir::Stmt>& out) {
  for (const ir::Stmt& s : b) {
    out.push_back(s);
    if (auto* f = s->as<ir::For>()) flatten(f->body, out);
    if (auto* i = s->as<ir::If>()) {
      flatten(i->then_body, out);
      flatten(i->else_body, out);
    }
    if (auto* m = s->as<ir::ManualScope>()) flatten(m->body, out);
  }
}

inline const ir::OpCall* top_call(const ir::Stmt& s) {
  ir::Expr v = s->isa<ir::Assign>()     ? s->as<ir::Assign>()->value
               : s->isa<ir::ExprStmt>() ? s->as<ir::ExprStmt>()->value
                                        : nullptr;
  return v ? v->as<ir::OpCall>() : nullptr;
}

// The op spellings of a block's top-level calls, in order ("for"/"if" for compound statements).
inline std::vector<std::string> op_sequence(const ir::Block& b) {
  std::vector<std::string> out;
  for (const ir::Stmt& s : b) {
    if (s->isa<ir::For>())
      out.push_back("for");
    else if (s->isa<ir::If>())
      out.push_back("if");
    else if (const ir::OpCall* c = top_call(s))
      out.push_back(c->op->spelling);
    else if (s->isa<ir::Return>())
      out.push_back("return");
    else
      out.push_back("other");
  }
  return out;
}

// The variable a statement defines when it is `name = ...`.
inline ir::Var defined_var(const ir::Function& f, const std::string& name) {
  std::vector<ir::Stmt> all;
  flatten(f->body, all);
  for (const ir::Stmt& s : all)
    if (auto* a = s->as<ir::Assign>())
      for (const ir::Var& v : a->targets)
        if (v && v->name == name) return v;
  return nullptr;
}

}  // namespace ptodist::transforms::testing
