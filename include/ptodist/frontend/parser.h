// The frontend: parses a kernel file written in PyPTO's Python DSL into IR.
#pragma once

#include <map>
#include <set>
#include <string>

#include "ptodist/ir/function.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::frontend {

// Parses every program the file defines. Parts of the file that define no program (imports of other
// modules, helper functions, host test code, `if __name__ == "__main__":`) are skipped by indentation
// without parsing their bodies. Factory parameters stay unbound (the specialize pass binds them).
// Reports located errors and recovers where it can; returns null when any error was reported.
// With `sources`, `from module import NAME` of a kernel file beside this one loads it (into `sources`)
// and imports its constants and @pl.jit functions; without, such names are host Python.
//
// `defines` binds factory parameters to enum members or dtypes (`-D reduce_op=pld.ReduceOp.Max`,
// `-D dtype=pl.FP16`): such a value selects types and op attributes, so it is bound while parsing,
// as a Python caller's keyword argument would be. Each name bound is added to `defines->used`.
struct ConstantDefines {
  std::map<std::string, std::string> values;  // parameter name -> spelled value
  std::set<std::string> used;
  // Filled by the parser for the CLI's one-line errors: a -D whose value does not fit its parameter
  // (`-D size=pl.FP16` on an integer parameter), and what each dtype- or enum-valued parameter takes
  // ("parameter 'cmp' of factory 'make' takes a pld.WaitCmp member (Eq, ...)"), for an integer -D.
  std::string error;
  std::map<std::string, std::string> non_integer;
  std::set<std::string> integer;  // parameters that take an integer (in some factory of the file)
  // The CLI's --program NAME: when a @pl.program class of that name exists, the file's other classes
  // are not built. They may belong to factories whose dtype or enum parameters only a Python caller
  // binds (a PyPTO test file's module-level class beside a `_build(dtype, ...)` factory).
  std::string only_program;
};
ir::Module parse_module(const SourceFile& file, DiagnosticEngine& diags, SourceManager* sources = nullptr,
                        ConstantDefines* defines = nullptr);

}  // namespace ptodist::frontend
