// The lexer of the kernel language: Python's token structure (INDENT/DEDENT, implicit line joining
// inside brackets, backslash continuation), so the parser sees statements, not characters.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ptodist/support/diagnostics.h"

namespace ptodist::frontend {

enum class TokenKind {
  Name,     // identifiers and keywords alike; the parser tells them apart
  Int,      // 42, 1_000, 0x10
  Float,    // 1.5, 1e-3
  String,   // any string literal; f-strings are kept opaque
  Op,       // operators and delimiters: "+", "**=", "(", "->", ...
  Newline,  // end of a logical line
  Indent,
  Dedent,
  End,
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;         // Name/Op: the spelling; String: the decoded value; Int/Float: the source text
  long long int_value = 0;  // Int
  double float_value = 0;   // Float
  bool is_fstring = false;  // String written with an f prefix (its value is the raw text)
  SourceSpan span;          // first character; end_col is on the first line for multi-line strings
};

// Splits the whole file into tokens, reporting located errors (tab in indentation, inconsistent
// dedent, unterminated string, unexpected character) and recovering so every error of a run is
// reported. The result always ends with Newline (when any token precedes), the closing Dedents and End.
std::vector<Token> lex(const SourceFile& file, DiagnosticEngine& diags);

std::string_view token_kind_name(TokenKind k);
// How a token is named in a message: "'for'", "end of line", "indentation".
std::string describe_token(const Token& t);

}  // namespace ptodist::frontend
