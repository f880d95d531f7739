// Source files and locations: every IR node carries a SourceSpan so diagnostics can point at it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ptodist {

// A loaded source file with a line table, owned by a SourceManager.
class SourceFile {
 public:
  SourceFile(std::string path, std::string text);
  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  // 1-based line; returns the line without its newline, or "" when out of range.
  std::string_view line(int line) const;
  int line_count() const { return static_cast<int>(line_starts_.size()); }

 private:
  std::string path_;
  std::string text_;
  std::vector<size_t> line_starts_;
};

// A location: file, 1-based line and column of the first character, and the end column on that line
// (exclusive) for carets that underline a range. file == nullptr means "no location" (synthesized).
struct SourceSpan {
  const SourceFile* file = nullptr;
  int line = 0;
  int col = 0;
  int end_col = 0;

  bool valid() const { return file != nullptr && line > 0; }
  // "path:line:col" or "<unknown>".
  std::string str() const;
};

// Owns source files for the lifetime of a compilation; spans point into it.
class SourceManager {
 public:
  // Reads a file; returns nullptr and sets `error` to a one-line reason when it cannot be read.
  const SourceFile* load(const std::string& path, std::string* error);
  const SourceFile* add(std::string path, std::string text);

 private:
  std::vector<std::unique_ptr<SourceFile>> files_;
};

}  // namespace ptodist
