// Source files, line tables and span formatting.
#include "ptodist/support/source.h"

#include <fstream>
#include <sstream>

namespace ptodist {

SourceFile::SourceFile(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n' && i + 1 < text_.size()) line_starts_.push_back(i + 1);
}

std::string_view SourceFile::line(int line) const {
  if (line < 1 || line > line_count()) return {};
  size_t begin = line_starts_[line - 1];
  size_t end = text_.find('\n', begin);
  if (end == std::string::npos) end = text_.size();
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

std::string SourceSpan::str() const {
  if (!valid()) return "<unknown>";
  return file->path() + ":" + std::to_string(line) + ":" + std::to_string(col);
}

const SourceFile* SourceManager::load(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error) *error = "cannot open '" + path + "'";
    return nullptr;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    if (error) *error = "cannot read '" + path + "'";
    return nullptr;
  }
  return add(path, ss.str());
}

const SourceFile* SourceManager::add(std::string path, std::string text) {
  files_.push_back(std::make_unique<SourceFile>(std::move(path), std::move(text)));
  return files_.back().get();
}

}  // namespace ptodist
