// The indentation-aware lexer: turns a kernel file into Python-shaped tokens with located errors.
#include "ptodist/frontend/lexer.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace ptodist::frontend {

namespace {

// Python's own limit on nested indentation levels; deeper input is an error, not a stack risk.
constexpr int kMaxIndentLevels = 100;

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_ident_char(char c) {
  return is_ident_start(c) || (c >= '0' && c <= '9');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// The length of the well-formed UTF-8 sequence at s[p] (RFC 3629: no overlongs, no surrogates, at
// most U+10FFFF), or 0 when the bytes there are not UTF-8.
size_t utf8_length(const std::string& s, size_t p) {
  auto byte = [&](size_t k) { return p + k < s.size() ? static_cast<unsigned char>(s[p + k]) : 0u; };
  auto cont = [&](size_t k) { return (byte(k) & 0xC0) == 0x80; };
  unsigned c = byte(0);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return byte(1) >= lo && byte(1) <= hi && cont(2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return byte(1) >= lo && byte(1) <= hi && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

// Operators, longest first so the first match is the longest.
const char* const kOperators[] = {
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", ">>", "<<", "<=", ">=", "==", "!=", "+=",
    "-=",  "*=",  "/=",  "%=",  "&=",  "|=", "^=", "@=", "+",  "-",  "*",  "/",  "%",  "&",  "|",  "^",
    "~",   "<",   ">",   "(",   ")",   "[",  "]",  "{",  "}",  ",",  ":",  ".",  ";",  "@",  "=",
};

class Lexer {
 public:
  Lexer(const SourceFile& file, DiagnosticEngine& diags) : file_(file), src_(file.text()), diags_(diags) {}

  std::vector<Token> run() {
    indents_.push_back(0);
    // Python reads source as UTF-8 and rejects a file that is not: a stray byte would otherwise reach
    // names and, later, the JSON of --emit=pto.
    if (size_t bad = first_bad_utf8(); bad != std::string::npos) {
      report_bad_utf8(bad);
      finish();
      return std::move(tokens_);
    }
    while (pos_ < src_.size()) {
      if (at_line_start_ && brackets_.empty()) {
        if (!handle_indentation()) continue;
      }
      lex_one();
    }
    finish();
    return std::move(tokens_);
  }

 private:
  const SourceFile& file_;
  const std::string& src_;
  DiagnosticEngine& diags_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
  bool at_line_start_ = true;
  std::vector<int> indents_;
  std::vector<Token> brackets_;  // open brackets, for matching and for "unclosed '('" errors

  char peek(size_t k = 0) const { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; }
  size_t first_bad_utf8() const {
    for (size_t p = 0; p < src_.size();) {
      size_t n = utf8_length(src_, p);
      if (n == 0) return p;
      p += n;
    }
    return std::string::npos;
  }

  void report_bad_utf8(size_t bad) {
    size_t line_begin = src_.rfind('\n', bad == 0 ? 0 : bad - 1);
    line_begin = (line_begin == std::string::npos || bad == 0) ? 0 : line_begin + 1;
    int line = 1;
    for (size_t p = 0; p < line_begin; ++p) line += src_[p] == '\n';
    int col = static_cast<int>(bad - line_begin) + 1;
    diags_.error(SourceSpan{&file_, line, col, col + 1}, "invalid UTF-8 byte 0x" +
                                                             hex(static_cast<unsigned char>(src_[bad])) +
                                                             "; a source file is UTF-8, as Python reads it");
  }

  int col_of(size_t p) const { return static_cast<int>(p - line_start_) + 1; }

  SourceSpan span_at(size_t begin, size_t end) const {
    return SourceSpan{&file_, line_, col_of(begin), col_of(end)};
  }

  void newline_at(size_t p) {  // the character at p is '\n'
    ++line_;
    line_start_ = p + 1;
  }

  Token& push(TokenKind kind, std::string text, SourceSpan span) {
    Token t;
    t.kind = kind;
    t.text = std::move(text);
    t.span = span;
    tokens_.push_back(std::move(t));
    return tokens_.back();
  }

  bool last_is_line_end() const {
    if (tokens_.empty()) return true;
    TokenKind k = tokens_.back().kind;
    return k == TokenKind::Newline || k == TokenKind::Indent || k == TokenKind::Dedent;
  }

  // Measures the indentation of a new logical line and emits Indent/Dedent. Returns false when the
  // line was blank or a comment (consumed), true when tokens follow on it.
  bool handle_indentation() {
    int width = 0;
    size_t begin = pos_;
    bool tab_reported = false;
    while (pos_ < src_.size() && (peek() == ' ' || peek() == '\t' || peek() == '\f')) {
      if (peek() == '\t') {
        if (!tab_reported)
          diags_.error(span_at(pos_, pos_ + 1), "tab in indentation; indent with spaces only");
        tab_reported = true;
        width = (width / 8 + 1) * 8;
      } else if (peek() == ' ') {
        ++width;
      }
      ++pos_;
    }
    char c = peek();
    if (pos_ >= src_.size()) return false;
    if (c == '#' || c == '\n' || (c == '\r' && peek(1) == '\n')) {
      while (pos_ < src_.size() && peek() != '\n') ++pos_;
      if (pos_ < src_.size()) {
        newline_at(pos_);
        ++pos_;
      }
      return false;
    }
    at_line_start_ = false;
    SourceSpan span = span_at(begin, pos_ + 1);
    span.col = width + 1;
    if (width > indents_.back()) {
      if (static_cast<int>(indents_.size()) > kMaxIndentLevels) {
        diags_.error(span,
                     "too many indentation levels (more than " + std::to_string(kMaxIndentLevels) + ")");
        return true;
      }
      indents_.push_back(width);
      push(TokenKind::Indent, "", span);
      return true;
    }
    while (width < indents_.back()) {
      indents_.pop_back();
      push(TokenKind::Dedent, "", span);
    }
    if (width != indents_.back()) diags_.error(span, "unindent does not match any outer indentation level");
    return true;
  }

  void lex_one() {
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
      ++pos_;
    } else if (c == '#') {
      while (pos_ < src_.size() && peek() != '\n') ++pos_;
    } else if (c == '\\') {
      lex_continuation();
    } else if (c == '\n') {
      if (brackets_.empty() && !last_is_line_end()) push(TokenKind::Newline, "", span_at(pos_, pos_ + 1));
      newline_at(pos_);
      ++pos_;
      at_line_start_ = brackets_.empty();  // inside brackets, lines join implicitly
    } else if (is_ident_start(c)) {
      lex_name_or_prefixed_string();
    } else if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
      lex_number();
    } else if (c == '"' || c == '\'') {
      lex_string(pos_, "");
    } else {
      lex_operator();
    }
  }

  void lex_continuation() {
    size_t p = pos_ + 1;
    if (p < src_.size() && src_[p] == '\r') ++p;
    if (p < src_.size() && src_[p] == '\n') {
      newline_at(p);
      pos_ = p + 1;
      return;
    }
    if (p >= src_.size()) {
      diags_.error(span_at(pos_, pos_ + 1), "unexpected end of file after line continuation");
      pos_ = p;
      return;
    }
    diags_.error(span_at(pos_, pos_ + 1), "unexpected character after line continuation '\\'");
    ++pos_;
  }

  void lex_name_or_prefixed_string() {
    size_t begin = pos_;
    while (pos_ < src_.size() && is_ident_char(peek())) ++pos_;
    std::string word = src_.substr(begin, pos_ - begin);
    if ((peek() == '"' || peek() == '\'') && word.size() <= 2) {
      std::string lower;
      for (char ch : word) lower += static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
      static const char* const kPrefixes[] = {"r", "b", "f", "u", "rb", "br", "fr", "rf"};
      for (const char* p : kPrefixes)
        if (lower == p) return lex_string(begin, lower);
    }
    push(TokenKind::Name, std::move(word), span_at(begin, pos_));
  }

  void lex_number() {
    size_t begin = pos_;
    bool is_float = false;
    int base = 10;
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'o' || peek(1) == 'O' ||
                          peek(1) == 'b' || peek(1) == 'B')) {
      char b = peek(1);
      base = (b == 'x' || b == 'X') ? 16 : (b == 'o' || b == 'O') ? 8 : 2;
      pos_ += 2;
      while (pos_ < src_.size() && (std::isxdigit(static_cast<unsigned char>(peek())) || peek() == '_'))
        ++pos_;
    } else {
      while (pos_ < src_.size() && (is_digit(peek()) || peek() == '_')) ++pos_;
      if (peek() == '.' && peek(1) != '.') {
        is_float = true;
        ++pos_;
        while (pos_ < src_.size() && (is_digit(peek()) || peek() == '_')) ++pos_;
      }
      if ((peek() == 'e' || peek() == 'E') &&
          (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
        is_float = true;
        pos_ += 2;
        while (pos_ < src_.size() && is_digit(peek())) ++pos_;
      }
    }
    SourceSpan span = span_at(begin, pos_);
    if (is_ident_char(peek())) {
      while (pos_ < src_.size() && is_ident_char(peek())) ++pos_;
      span = span_at(begin, pos_);
      diags_.error(span, "invalid number literal '" + src_.substr(begin, pos_ - begin) + "'");
      push(TokenKind::Int, src_.substr(begin, pos_ - begin), span);
      return;
    }
    std::string text = src_.substr(begin, pos_ - begin);
    std::string digits;
    for (size_t i = (base == 10 ? 0 : 2); i < text.size(); ++i)
      if (text[i] != '_') digits += text[i];
    Token& t = push(is_float ? TokenKind::Float : TokenKind::Int, text, span);
    errno = 0;
    if (is_float) {
      t.float_value = std::strtod(digits.c_str(), nullptr);
    } else {
      t.int_value = digits.empty() ? 0 : std::strtoll(digits.c_str(), nullptr, base);
      if (digits.empty()) diags_.error(span, "invalid number literal '" + text + "'");
      if (base == 10 && digits.size() > 1 && digits[0] == '0' &&
          digits.find_first_not_of('0') != std::string::npos)
        diags_.error(span, "leading zeros in decimal integer literal '" + text +
                               "' are not permitted (Python); use an 0o prefix for octal integers");
    }
    if (errno == ERANGE) diags_.error(span, "number literal '" + text + "' is out of range");
  }

  static void decode_escape(char c, std::string& out) {
    switch (c) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case '0':
        out += '\0';
        break;
      case '\\':
        out += '\\';
        break;
      case '\'':
        out += '\'';
        break;
      case '"':
        out += '"';
        break;
      default:
        out += '\\';
        out += c;
        break;
    }
  }

  // A string starting at `begin` (its prefix, if any, already scanned up to the quote at pos_).
  void lex_string(size_t begin, const std::string& prefix) {
    char quote = peek();
    bool triple = peek(1) == quote && peek(2) == quote;
    bool raw = prefix.find('r') != std::string::npos || prefix.find('f') != std::string::npos;
    int start_line = line_;
    size_t start_line_start = line_start_;
    pos_ += triple ? 3 : 1;
    std::string value;
    bool closed = false;
    while (pos_ < src_.size()) {
      char c = peek();
      if (c == '\\' && pos_ + 1 < src_.size()) {
        char n = peek(1);
        if (n == '\n') newline_at(pos_ + 1);
        if (raw) {
          value += c;
          value += n;
        } else if (n != '\n') {
          decode_escape(n, value);
        }
        pos_ += 2;
        continue;
      }
      if (c == quote && (!triple || (peek(1) == quote && peek(2) == quote))) {
        pos_ += triple ? 3 : 1;
        closed = true;
        break;
      }
      if (c == '\n') {
        if (!triple) break;
        newline_at(pos_);
      }
      value += c;
      ++pos_;
    }
    int first_line_end = static_cast<int>(file_.line(start_line).size()) + 1;
    int col = static_cast<int>(begin - start_line_start) + 1;
    int end_col = line_ == start_line ? col_of(pos_) : first_line_end;
    SourceSpan span{&file_, start_line, col, end_col};
    if (!closed) diags_.error(span, triple ? "unterminated triple-quoted string" : "unterminated string");
    Token& t = push(TokenKind::String, std::move(value), span);
    t.is_fstring = prefix.find('f') != std::string::npos;
  }

  void lex_operator() {
    for (const char* op : kOperators) {
      std::string_view o(op);
      if (src_.compare(pos_, o.size(), o) != 0) continue;
      SourceSpan span = span_at(pos_, pos_ + o.size());
      pos_ += o.size();
      push(TokenKind::Op, std::string(o), span);
      track_bracket(tokens_.back());
      return;
    }
    unsigned char c = static_cast<unsigned char>(peek());
    std::string shown = c >= 0x20 && c < 0x7f ? std::string(1, static_cast<char>(c)) : "\\x" + hex(c);
    diags_.error(span_at(pos_, pos_ + 1), "unexpected character '" + shown + "'");
    ++pos_;
  }

  static std::string hex(unsigned char c) {
    const char* d = "0123456789abcdef";
    return std::string{d[c >> 4], d[c & 15]};
  }

  void track_bracket(const Token& t) {
    const std::string& s = t.text;
    if (s == "(" || s == "[" || s == "{") {
      brackets_.push_back(t);
      return;
    }
    if (s != ")" && s != "]" && s != "}") return;
    const char* open = s == ")" ? "(" : s == "]" ? "[" : "{";
    if (brackets_.empty()) {
      diags_.error(t.span, "unmatched '" + s + "'");
      return;
    }
    if (brackets_.back().text != open)
      diags_.error(t.span, "closing '" + s + "' does not match '" + brackets_.back().text + "' at line " +
                               std::to_string(brackets_.back().span.line));
    brackets_.pop_back();
  }

  void finish() {
    for (const Token& open : brackets_) diags_.error(open.span, "'" + open.text + "' was never closed");
    SourceSpan end{&file_, line_, col_of(pos_), col_of(pos_) + 1};
    if (!last_is_line_end()) push(TokenKind::Newline, "", end);
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(TokenKind::Dedent, "", end);
    }
    push(TokenKind::End, "", end);
  }
};

}  // namespace

std::vector<Token> lex(const SourceFile& file, DiagnosticEngine& diags) {
  return Lexer(file, diags).run();
}

std::string_view token_kind_name(TokenKind k) {
  switch (k) {
    case TokenKind::Name:
      return "name";
    case TokenKind::Int:
      return "integer";
    case TokenKind::Float:
      return "float";
    case TokenKind::String:
      return "string";
    case TokenKind::Op:
      return "operator";
    case TokenKind::Newline:
      return "end of line";
    case TokenKind::Indent:
      return "indent";
    case TokenKind::Dedent:
      return "dedent";
    case TokenKind::End:
      return "end of file";
  }
  return "token";
}

std::string describe_token(const Token& t) {
  switch (t.kind) {
    case TokenKind::Name:
    case TokenKind::Op:
    case TokenKind::Int:
    case TokenKind::Float:
      return "'" + t.text + "'";
    case TokenKind::String:
      return "string";
    case TokenKind::Newline:
      return "end of line";
    case TokenKind::Indent:
      return "indentation";
    case TokenKind::Dedent:
      return "end of block";
    case TokenKind::End:
      return "end of file";
  }
  return "token";
}

}  // namespace ptodist::frontend
