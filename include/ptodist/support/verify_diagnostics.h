// Expected-diagnostic comments (`# expected-error@+1 {{text}}`) and the check that a compilation
// produced exactly the diagnostics a test file expects (`ptodist check --verify-diagnostics`).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "ptodist/support/diagnostics.h"

namespace ptodist {

// One `{{text}}` of an expected-diagnostic comment, located at the line it refers to.
struct ExpectedDiagnostic {
  Severity severity = Severity::Error;
  int line = 0;          // the line the diagnostic must be reported on (after @+N / @-N)
  int comment_line = 0;  // where the comment is written, for messages about the expectation itself
  std::string text;      // must be a substring of the diagnostic's message
};

// Reads every expected-diagnostic comment of `file`. A comment that cannot be read (no `{{...}}`, an
// unterminated `{{`, a bad `@` offset, a target line outside the file) is reported to `problems` as
// "<file>:<line>: error: ..." and skipped.
std::vector<ExpectedDiagnostic> parse_expected_diagnostics(const SourceFile& file,
                                                           std::vector<std::string>* problems);

// Matches the diagnostics of `produced` (and their notes, against expected-note) with the expectations
// of `file`: same file and line, the expected text a substring of the message, each used once. Prints one
// line per unmatched expectation and per unexpected diagnostic to `os`; returns true when everything
// matched and every comment could be read.
bool verify_diagnostics(const SourceFile& file, const DiagnosticEngine& produced, std::ostream& os);

}  // namespace ptodist
