// Located diagnostics: "file:line:col: error: message", the source line, and a caret under the span.
#pragma once

#include <deque>
#include <iosfwd>
#include <string>
#include <vector>

#include "ptodist/support/source.h"

namespace ptodist {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceSpan span;
  std::string message;
  std::vector<Diagnostic> notes;  // other lines involved (the issue of an event, the earlier write)
};

// Collects diagnostics of one compilation. Errors never throw: passes report and return failure.
class DiagnosticEngine {
 public:
  // Adds an error and returns it so the caller can attach notes with note(); the reference stays valid.
  Diagnostic& error(const SourceSpan& span, std::string message);
  Diagnostic& warning(const SourceSpan& span, std::string message);
  static void note(Diagnostic& d, const SourceSpan& span, std::string message);

  bool has_errors() const { return error_count_ > 0; }
  int error_count() const { return error_count_; }
  const std::deque<Diagnostic>& diagnostics() const { return diags_; }
  void clear();

  // Stops recording after this many errors so a badly broken file cannot flood the output.
  void set_error_limit(int limit) { error_limit_ = limit; }

  // Prints every diagnostic in the order reported.
  void print(std::ostream& os) const;

 private:
  std::deque<Diagnostic> diags_;
  int error_count_ = 0;
  int error_limit_ = 50;
};

// Formats one diagnostic (and its notes) as the CLI prints it.
std::string format_diagnostic(const Diagnostic& d);

// Reports an internal compiler bug (not a user error) with file and line, then aborts.
[[noreturn]] void internal_error(const char* file, int line, const std::string& message);

}  // namespace ptodist

#define PTODIST_INTERNAL_ASSERT(cond, msg)                             \
  do {                                                                 \
    if (!(cond)) ::ptodist::internal_error(__FILE__, __LINE__, (msg)); \
  } while (0)
