// Helpers of the frontend tests: parse a source string, read its diagnostics as "line:col: message".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ptodist/frontend/parser.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::frontend::test {

struct Parsed {
  std::unique_ptr<SourceFile> file;
  DiagnosticEngine diags;
  ir::Module module;

  // Every error as "line:col: message", in report order.
  std::vector<std::string> errors() const {
    std::vector<std::string> out;
    for (const Diagnostic& d : diags.diagnostics())
      if (d.severity == Severity::Error)
        out.push_back(std::to_string(d.span.line) + ":" + std::to_string(d.span.col) + ": " + d.message);
    return out;
  }
  std::string all_errors() const {
    std::string s;
    for (const std::string& e : errors()) s += e + "\n";
    return s;
  }
};

inline std::unique_ptr<Parsed> parse_text(const std::string& text) {
  auto p = std::make_unique<Parsed>();
  p->file = std::make_unique<SourceFile>("t.py", text);
  p->module = parse_module(*p->file, p->diags);
  return p;
}

// The standard header of a kernel file.
inline const char* kImports = "import pypto.language as pl\nimport pypto.language.distributed as pld\n";

}  // namespace ptodist::frontend::test
