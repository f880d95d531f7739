// Lexer tests: token kinds and values, indentation, implicit and explicit line joining, located errors.
#include <gtest/gtest.h>

#include "ptodist/frontend/lexer.h"

namespace ptodist::frontend {
namespace {

struct Lexed {
  std::unique_ptr<SourceFile> file;
  DiagnosticEngine diags;
  std::vector<Token> tokens;
};

std::unique_ptr<Lexed> lex_text(const std::string& text) {
  auto l = std::make_unique<Lexed>();
  l->file = std::make_unique<SourceFile>("t.py", text);
  l->tokens = lex(*l->file, l->diags);
  return l;
}

// A compact rendering: names and ops as written, others by kind.
std::string render(const std::vector<Token>& tokens) {
  std::string out;
  for (const Token& t : tokens) {
    if (!out.empty()) out += ' ';
    switch (t.kind) {
      case TokenKind::Name:
      case TokenKind::Op:
      case TokenKind::Int:
      case TokenKind::Float:
        out += t.text;
        break;
      case TokenKind::String:
        out += "STR(" + t.text + ")";
        break;
      case TokenKind::Newline:
        out += "NL";
        break;
      case TokenKind::Indent:
        out += "IN";
        break;
      case TokenKind::Dedent:
        out += "DE";
        break;
      case TokenKind::End:
        out += "END";
        break;
    }
  }
  return out;
}

std::string first_error(const Lexed& l) {
  if (l.diags.diagnostics().empty()) return "";
  const Diagnostic& d = l.diags.diagnostics().front();
  return std::to_string(d.span.line) + ":" + std::to_string(d.span.col) + ": " + d.message;
}

TEST(FrontendLexer, OperatorsAndNames) {
  auto l = lex_text("a **= b // c >> 2 -> x != y ... @ :=\n");
  EXPECT_EQ(render(l->tokens), "a **= b // c >> 2 -> x != y ... @ := NL END");
  EXPECT_FALSE(l->diags.has_errors());
}

TEST(FrontendLexer, Numbers) {
  auto l = lex_text("1_000 0x1F 0o17 0b101 1.5 1e-3 .25 7.\n");
  ASSERT_GE(l->tokens.size(), 8u);
  EXPECT_EQ(l->tokens[0].int_value, 1000);
  EXPECT_EQ(l->tokens[1].int_value, 31);
  EXPECT_EQ(l->tokens[2].int_value, 15);
  EXPECT_EQ(l->tokens[3].int_value, 5);
  EXPECT_EQ(l->tokens[4].kind, TokenKind::Float);
  EXPECT_DOUBLE_EQ(l->tokens[4].float_value, 1.5);
  EXPECT_DOUBLE_EQ(l->tokens[5].float_value, 1e-3);
  EXPECT_DOUBLE_EQ(l->tokens[6].float_value, 0.25);
  EXPECT_DOUBLE_EQ(l->tokens[7].float_value, 7.0);
  EXPECT_FALSE(l->diags.has_errors());
}

TEST(FrontendLexer, BadNumbers) {
  EXPECT_EQ(first_error(*lex_text("x = 12ab\n")), "1:5: invalid number literal '12ab'");
  EXPECT_EQ(first_error(*lex_text("x = 99999999999999999999\n")),
            "1:5: number literal '99999999999999999999' is out of range");
}

TEST(FrontendLexer, Strings) {
  auto l = lex_text("'a\\nb' \"q\\\"\" r'\\d' f\"{x}\" b'z'\n\"\"\"doc\nline\"\"\" x\n");
  ASSERT_GE(l->tokens.size(), 8u);
  EXPECT_EQ(l->tokens[0].text, "a\nb");
  EXPECT_EQ(l->tokens[1].text, "q\"");
  EXPECT_EQ(l->tokens[2].text, "\\d");
  EXPECT_EQ(l->tokens[3].text, "{x}");
  EXPECT_TRUE(l->tokens[3].is_fstring);
  EXPECT_EQ(l->tokens[4].text, "z");
  EXPECT_EQ(l->tokens[5].kind, TokenKind::Newline);
  EXPECT_EQ(l->tokens[6].text, "doc\nline");
  EXPECT_EQ(l->tokens[6].span.line, 2);
  EXPECT_EQ(l->tokens[7].text, "x");
  EXPECT_EQ(l->tokens[7].span.line, 3);
  EXPECT_FALSE(l->diags.has_errors());
}

TEST(FrontendLexer, UnterminatedStrings) {
  auto l = lex_text("x = 'abc\ny = 1\n");
  EXPECT_EQ(first_error(*l), "1:5: unterminated string");
  EXPECT_EQ(l->diags.error_count(), 1);  // recovers at the end of the line
  EXPECT_EQ(first_error(*lex_text("x = 1\ns = \"\"\"never closed\n\n")),
            "2:5: unterminated triple-quoted string");
}

TEST(FrontendLexer, IndentAndDedent) {
  auto l = lex_text("if a:\n    b\n    if c:\n        d\ne\n");
  EXPECT_EQ(render(l->tokens), "if a : NL IN b NL if c : NL IN d NL DE DE e NL END");
}

TEST(FrontendLexer, BlankLinesAndCommentsDoNotIndent) {
  auto l = lex_text("def f():\n\n        # comment at odd depth\n    x = 1  # trailing\n\n  \ny\n");
  EXPECT_EQ(render(l->tokens), "def f ( ) : NL IN x = 1 NL DE y NL END");
}

TEST(FrontendLexer, ImplicitJoiningInsideBrackets) {
  auto l = lex_text("f(a,\n        b,\n  c)\nx = [1,\n2]\n");
  EXPECT_EQ(render(l->tokens), "f ( a , b , c ) NL x = [ 1 , 2 ] NL END");
}

TEST(FrontendLexer, BackslashContinuation) {
  auto l = lex_text("x = 1 + \\\n      2\ny\n");
  EXPECT_EQ(render(l->tokens), "x = 1 + 2 NL y NL END");
  EXPECT_EQ(l->tokens[4].span.line, 2);
}

TEST(FrontendLexer, ClosesBlocksAtEndOfFile) {
  auto l = lex_text("def f():\n    if x:\n        y");
  EXPECT_EQ(render(l->tokens), "def f ( ) : NL IN if x : NL IN y NL DE DE END");
}

TEST(FrontendLexer, TabInIndentation) {
  auto l = lex_text("if a:\n\tb\n");
  EXPECT_EQ(first_error(*l), "2:1: tab in indentation; indent with spaces only");
}

TEST(FrontendLexer, InconsistentDedent) {
  auto l = lex_text("if a:\n    b\n  c\n");
  EXPECT_EQ(first_error(*l), "3:3: unindent does not match any outer indentation level");
}

TEST(FrontendLexer, BracketErrors) {
  EXPECT_EQ(first_error(*lex_text("x = (1, 2]\n")), "1:10: closing ']' does not match '(' at line 1");
  EXPECT_EQ(first_error(*lex_text("x = 1)\n")), "1:6: unmatched ')'");
  EXPECT_EQ(first_error(*lex_text("x = f(1,\n")), "1:6: '(' was never closed");
}

TEST(FrontendLexer, UnexpectedCharacter) {
  auto l = lex_text("x = 1 $ 2\ny = a ? b\n");
  EXPECT_EQ(first_error(*l), "1:7: unexpected character '$'");
  EXPECT_EQ(l->diags.error_count(), 2);
}

TEST(FrontendLexer, SpansPointAtFirstCharacter) {
  auto l = lex_text("    foo = bar.baz\n");
  // IN foo = bar . baz
  EXPECT_EQ(l->tokens[1].span.col, 5);
  EXPECT_EQ(l->tokens[1].span.end_col, 8);
  EXPECT_EQ(l->tokens[5].text, "baz");
  EXPECT_EQ(l->tokens[5].span.col, 15);
}

}  // namespace
}  // namespace ptodist::frontend
