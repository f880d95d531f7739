// The frontend: parses a kernel file written in PyPTO's Python DSL into IR.
#pragma once

#include "ptodist/ir/function.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::frontend {

// Parses every program the file defines. Parts of the file that define no program (imports of other
// modules, helper functions, host test code, `if __name__ == "__main__":`) are skipped by indentation
// without parsing their bodies. Factory parameters stay unbound (the specialize pass binds them).
// Reports located errors and recovers where it can; returns null when any error was reported.
ir::Module parse_module(const SourceFile& file, DiagnosticEngine& diags);

}  // namespace ptodist::frontend
