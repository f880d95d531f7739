// Diagnostic collection and the "file:line:col: error: ..." + source line + caret format.
#include "ptodist/support/diagnostics.h"

#include <cstdio>
#include <cstdlib>
#include <ostream>

namespace ptodist {

namespace {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "error";
}

void append_one(std::string& out, const Diagnostic& d) {
  out += d.span.valid() ? d.span.str() : std::string("<unknown>");
  out += ": ";
  out += severity_name(d.severity);
  out += ": ";
  out += d.message;
  out += "\n";
  if (!d.span.valid()) return;
  std::string_view line = d.span.file->line(d.span.line);
  out += line;
  out += "\n";
  // Tabs in the prefix are kept so the caret lines up under the same columns.
  int col = d.span.col < 1 ? 1 : d.span.col;
  for (int i = 1; i < col; ++i)
    out += (i - 1 < static_cast<int>(line.size()) && line[i - 1] == '\t') ? '\t' : ' ';
  out += '^';
  int end = d.span.end_col;
  int limit = static_cast<int>(line.size()) + 1;
  if (end > limit) end = limit;
  for (int i = col + 1; i < end; ++i) out += '~';
  out += "\n";
}

}  // namespace

Diagnostic& DiagnosticEngine::error(const SourceSpan& span, std::string message) {
  ++error_count_;
  // Past the limit the diagnostic is still counted but kept in a scratch slot, not printed.
  if (error_count_ > error_limit_) {
    static thread_local Diagnostic overflow;
    overflow = Diagnostic{Severity::Error, span, std::move(message), {}};
    return overflow;
  }
  diags_.push_back(Diagnostic{Severity::Error, span, std::move(message), {}});
  return diags_.back();
}

Diagnostic& DiagnosticEngine::warning(const SourceSpan& span, std::string message) {
  diags_.push_back(Diagnostic{Severity::Warning, span, std::move(message), {}});
  return diags_.back();
}

void DiagnosticEngine::note(Diagnostic& d, const SourceSpan& span, std::string message) {
  d.notes.push_back(Diagnostic{Severity::Note, span, std::move(message), {}});
}

void DiagnosticEngine::clear() {
  diags_.clear();
  error_count_ = 0;
}

std::string format_diagnostic(const Diagnostic& d) {
  std::string out;
  append_one(out, d);
  for (const Diagnostic& n : d.notes) append_one(out, n);
  return out;
}

void DiagnosticEngine::print(std::ostream& os) const {
  for (const Diagnostic& d : diags_) os << format_diagnostic(d);
  if (error_count_ > error_limit_)
    os << "note: " << (error_count_ - error_limit_) << " more errors not shown\n";
}

void internal_error(const char* file, int line, const std::string& message) {
  std::fprintf(stderr, "%s:%d: internal error: %s\n", file, line, message.c_str());
  std::abort();
}

}  // namespace ptodist
