// The parser's entry point and token cursor: lookahead, expectations with located messages, and the
// skipping that error recovery and the "skip by indentation" rule both rely on.
#include "ptodist/frontend/parser.h"

#include <algorithm>

#include "parser_impl.h"

namespace ptodist::frontend {

Parser::Parser(const SourceFile& file, std::vector<Token> tokens, DiagnosticEngine& diags,
               std::set<int> lexer_error_lines, SourceManager* sources)
    : file_(file),
      tokens_(std::move(tokens)),
      diags_(&diags),
      builder_(diags),
      b_(&builder_),
      lexer_error_lines_(std::move(lexer_error_lines)),
      sources_(sources) {
  if (tokens_.empty() || tokens_.back().kind != TokenKind::End) {
    Token end;
    end.kind = TokenKind::End;
    end.span = SourceSpan{&file_, file_.line_count(), 1, 2};
    tokens_.push_back(end);
  }
}

DepthGuard::DepthGuard(Parser& parser, const SourceSpan& span) : p(parser) {
  if (++p.depth_ > kMaxNesting) {
    --p.depth_;
    p.fail(span, "expression is nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)");
  }
}

// End is sticky: the tokens of imported modules follow the file's own End (imports.cpp), and neither
// lookahead nor advancing may run into them.
const Token& Parser::peek(size_t k) const {
  size_t i = pos_;
  for (; k > 0 && tokens_[i].kind != TokenKind::End && i + 1 < tokens_.size(); --k) ++i;
  return tokens_[i];
}

const Token& Parser::advance() {
  const Token& t = tokens_[pos_];
  if (t.kind != TokenKind::End && pos_ + 1 < tokens_.size()) ++pos_;
  return t;
}

bool Parser::at_op(std::string_view op, size_t k) const {
  const Token& t = peek(k);
  return t.kind == TokenKind::Op && t.text == op;
}

bool Parser::at_keyword(std::string_view kw, size_t k) const {
  const Token& t = peek(k);
  return t.kind == TokenKind::Name && t.text == kw;
}

bool Parser::at_line_end() const {
  TokenKind k = peek().kind;
  return k == TokenKind::Newline || k == TokenKind::End || k == TokenKind::Dedent || k == TokenKind::Indent;
}

bool Parser::accept_op(std::string_view op) {
  if (!at_op(op)) return false;
  advance();
  return true;
}

void Parser::expect_op(std::string_view op, const std::string& message) {
  if (!accept_op(op)) fail(peek().span, message);
}

const Token& Parser::expect_name(const std::string& message) {
  if (peek().kind != TokenKind::Name || is_keyword(peek().text)) fail(peek().span, message);
  return advance();
}

void Parser::expect_line_end(const std::string& after) {
  if (peek().kind == TokenKind::Newline) {
    advance();
    return;
  }
  if (peek().kind == TokenKind::End || peek().kind == TokenKind::Dedent) return;
  fail(peek().span, "unexpected " + describe_token(peek()) + " after " + after + "; expected end of line");
}

void Parser::error(const SourceSpan& span, const std::string& message) {
  if (lexer_error_lines_.count(span.line))
    ++suppressed_errors_;
  else
    diags_->error(span, message);
}

int Parser::problems_reported() const {
  return diags_->error_count() + suppressed_errors_ + poisoned_uses_;
}

void Parser::fail(const SourceSpan& span, const std::string& message) {
  error(span, message);
  throw SyntaxAbort{};
}

// Skips to the start of the next statement at the current level: the rest of this logical line, the
// block it opens, and the clauses that continue it (elif/else/except/finally).
void Parser::skip_statement() {
  for (;;) {
    while (peek().kind != TokenKind::Newline && peek().kind != TokenKind::End) {
      if (peek().kind == TokenKind::Indent) {
        skip_block();
        continue;
      }
      if (peek().kind == TokenKind::Dedent) return;
      advance();
    }
    if (peek().kind == TokenKind::Newline) advance();
    if (peek().kind == TokenKind::Indent) skip_block();
    if (!(at_keyword("elif") || at_keyword("else") || at_keyword("except") || at_keyword("finally"))) return;
  }
}

// At an Indent: skips past its matching Dedent.
void Parser::skip_block() {
  int depth = 0;
  while (peek().kind != TokenKind::End) {
    TokenKind k = advance().kind;
    if (k == TokenKind::Indent) ++depth;
    if (k == TokenKind::Dedent && --depth <= 0) return;
  }
}

size_t Parser::skip_suite_from(size_t pos) const {
  size_t n = tokens_.size();
  size_t i = pos;
  while (i < n && tokens_[i].kind != TokenKind::Newline && tokens_[i].kind != TokenKind::End) ++i;
  if (i < n && tokens_[i].kind == TokenKind::Newline) ++i;
  if (i < n && tokens_[i].kind == TokenKind::Indent) {
    int depth = 0;
    for (; i < n && tokens_[i].kind != TokenKind::End; ++i) {
      if (tokens_[i].kind == TokenKind::Indent) ++depth;
      if (tokens_[i].kind == TokenKind::Dedent && --depth == 0) return i + 1;
    }
  }
  return std::min(i, n - 1);
}

SourceSpan Parser::span_to_prev(const SourceSpan& begin) const {
  SourceSpan s = begin;
  if (pos_ == 0) return s;
  const SourceSpan& last = tokens_[pos_ - 1].span;
  if (last.line == begin.line && last.end_col > s.end_col) s.end_col = last.end_col;
  if (last.line != begin.line)
    s.end_col =
        std::max(s.end_col, static_cast<int>((begin.file ? *begin.file : file_).line(begin.line).size()) + 1);
  return s;
}

ir::Module Parser::run() {
  try {
    scan_module();
  } catch (const SyntaxAbort&) {
    // Reported already; the module scan recovers per statement, so this is only a last resort.
  }
  if (constant_defines_ && !constant_defines_->only_program.empty())
    for (const auto& c : containers_)
      for (const ClassDecl& cls : c->classes)
        if (!c->imported && cls.name == constant_defines_->only_program) selected_class_ = cls.name;
  for (const auto& c : containers_)
    if (!c->imported) build_programs(*c);
  std::stable_sort(programs_.begin(), programs_.end(), [](const auto& a, const auto& b) {
    return a.first.line != b.first.line ? a.first.line < b.first.line : a.first.col < b.first.col;
  });
  auto m = std::make_shared<ir::ModuleNode>();
  m->imports = imports_;
  m->constants = containers_.front()->constants;
  for (auto& [span, p] : programs_) m->programs.push_back(p);
  return m;
}

ir::Module parse_module(const SourceFile& file, DiagnosticEngine& diags, SourceManager* sources,
                        ConstantDefines* defines) {
  int before = diags.error_count();
  size_t first_new = diags.diagnostics().size();
  std::vector<Token> tokens = lex(file, diags);
  std::set<int> lexer_error_lines;
  for (size_t i = first_new; i < diags.diagnostics().size(); ++i)
    lexer_error_lines.insert(diags.diagnostics()[i].span.line);
  // An unclosed bracket swallows the rest of the file; what the parser finds at its end is a consequence.
  if (!lexer_error_lines.empty() && !tokens.empty()) lexer_error_lines.insert(tokens.back().span.line);
  Parser parser(file, std::move(tokens), diags, std::move(lexer_error_lines), sources);
  parser.set_constant_defines(defines);
  ir::Module m = parser.run();
  if (diags.error_count() > before) return nullptr;
  return m;
}

}  // namespace ptodist::frontend
