// The frontend: parses a kernel file written in PyPTO's Python DSL into IR.
#pragma once

#include "ptodist/ir/function.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::frontend {

// Parses every program the file defines. Parts of the file that define no program (imports of other
// modules, helper functions, host test code, `if __name__ == "__main__":`) are skipped by indentation
// without parsing their bodies. Factory parameters stay unbound (the specialize pass binds them).
// Reports located errors and recovers where it can; returns null when any error was reported.
// With `sources`, `from module import NAME` of a kernel file beside this one loads it (into `sources`)
// and imports its constants and @pl.jit functions; without, such names are host Python.
ir::Module parse_module(const SourceFile& file, DiagnosticEngine& diags, SourceManager* sources = nullptr);

}  // namespace ptodist::frontend
