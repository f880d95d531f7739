// Expected-diagnostic comments and their matching against the diagnostics a compilation produced.
#include "ptodist/support/verify_diagnostics.h"

#include <cctype>
#include <ostream>
#include <string_view>

namespace ptodist {

namespace {

struct Keyword {
  std::string_view text;
  Severity severity;
};

constexpr Keyword kKeywords[] = {
    {"expected-error", Severity::Error},
    {"expected-warning", Severity::Warning},
    {"expected-note", Severity::Note},
};

const char* severity_word(Severity s) {
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

// The earliest keyword at or after `from`, or npos.
size_t find_keyword(std::string_view line, size_t from, const Keyword** which) {
  size_t best = std::string_view::npos;
  for (const Keyword& k : kKeywords) {
    size_t at = line.find(k.text, from);
    if (at < best) {
      best = at;
      *which = &k;
    }
  }
  return best;
}

void skip_spaces(std::string_view line, size_t& i) {
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
}

// Reads the optional "@+N" / "@-N" after a keyword; returns false on a malformed offset.
bool read_offset(std::string_view line, size_t& i, int& offset) {
  offset = 0;
  if (i >= line.size() || line[i] != '@') return true;
  ++i;
  if (i >= line.size() || (line[i] != '+' && line[i] != '-')) return false;
  int sign = line[i] == '-' ? -1 : 1;
  ++i;
  size_t digits = i;
  long value = 0;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])) && value < 1000000)
    value = value * 10 + (line[i++] - '0');
  if (i == digits) return false;
  offset = sign * static_cast<int>(value);
  return true;
}

class CommentReader {
 public:
  CommentReader(const SourceFile& file, std::vector<std::string>* problems)
      : file_(file), problems_(problems) {}

  void read_line(int line_no, std::vector<ExpectedDiagnostic>& out) {
    std::string_view line = file_.line(line_no);
    size_t hash = line.find('#');
    if (hash == std::string_view::npos) return;
    const Keyword* k = nullptr;
    size_t at = find_keyword(line, hash, &k);
    while (at != std::string_view::npos) {
      size_t i = at + k->text.size();
      size_t next = read_one(line_no, line, i, *k, out);
      at = find_keyword(line, next, &k);
    }
  }

 private:
  // Reads "@offset {{a}} {{b}}" from `i`; returns where scanning for the next keyword resumes.
  size_t read_one(int line_no, std::string_view line, size_t i, const Keyword& k,
                  std::vector<ExpectedDiagnostic>& out) {
    int offset = 0;
    if (!read_offset(line, i, offset))
      return problem(line_no, "malformed '@' offset, expected @+N or @-N", i);
    int target = line_no + offset;
    if (target < 1 || target > file_.line_count())
      return problem(line_no, "expected-diagnostic offset points outside the file", i);
    skip_spaces(line, i);
    if (line.substr(i, 2) != "{{")
      return problem(line_no, "expected '{{text}}' after " + std::string(k.text), i);
    while (line.substr(i, 2) == "{{") {
      size_t close = line.find("}}", i + 2);
      if (close == std::string_view::npos)
        return problem(line_no, "unterminated '{{' in expected diagnostic", i);
      out.push_back(
          ExpectedDiagnostic{k.severity, target, line_no, std::string(line.substr(i + 2, close - i - 2))});
      i = close + 2;
      skip_spaces(line, i);
    }
    return i;
  }

  size_t problem(int line_no, const std::string& message, size_t resume) {
    if (problems_) problems_->push_back(file_.path() + ":" + std::to_string(line_no) + ": error: " + message);
    return resume;
  }

  const SourceFile& file_;
  std::vector<std::string>* problems_;
};

struct Produced {
  const Diagnostic* diag;
  bool matched = false;
};

void collect(const Diagnostic& d, std::vector<Produced>& out) {
  out.push_back(Produced{&d});
  for (const Diagnostic& n : d.notes) collect(n, out);
}

bool matches(const ExpectedDiagnostic& e, const Diagnostic& d, const SourceFile& file) {
  if (e.severity != d.severity || !d.span.valid()) return false;
  // Files are compared by path so a file loaded twice still matches.
  if (d.span.file != &file && d.span.file->path() != file.path()) return false;
  return d.span.line == e.line && d.message.find(e.text) != std::string::npos;
}

std::string location_of(const Diagnostic& d) {
  if (!d.span.valid()) return "<unknown>";
  return d.span.file->path() + ":" + std::to_string(d.span.line);
}

}  // namespace

std::vector<ExpectedDiagnostic> parse_expected_diagnostics(const SourceFile& file,
                                                           std::vector<std::string>* problems) {
  std::vector<ExpectedDiagnostic> out;
  CommentReader reader(file, problems);
  for (int line = 1; line <= file.line_count(); ++line) reader.read_line(line, out);
  return out;
}

bool verify_diagnostics(const SourceFile& file, const DiagnosticEngine& produced, std::ostream& os) {
  std::vector<std::string> problems;
  std::vector<ExpectedDiagnostic> expected = parse_expected_diagnostics(file, &problems);
  for (const std::string& p : problems) os << p << "\n";

  std::vector<Produced> diags;
  for (const Diagnostic& d : produced.diagnostics()) collect(d, diags);

  bool ok = problems.empty();
  // Expectations are matched in file order, each against the first unused diagnostic that fits.
  for (const ExpectedDiagnostic& e : expected) {
    bool found = false;
    for (Produced& p : diags) {
      if (p.matched || !matches(e, *p.diag, file)) continue;
      p.matched = found = true;
      break;
    }
    if (found) continue;
    ok = false;
    os << file.path() << ":" << e.line << ": error: expected " << severity_word(e.severity)
       << " not produced: " << e.text << "\n";
  }
  for (const Produced& p : diags) {
    if (p.matched) continue;
    ok = false;
    os << location_of(*p.diag) << ": error: unexpected " << severity_word(p.diag->severity) << ": "
       << p.diag->message << "\n";
  }
  return ok;
}

}  // namespace ptodist
