// Frontend errors: exact locations and messages, recovery that reports several errors in one run, and
// robustness against deep nesting and mangled input.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "frontend_test_util.h"

namespace ptodist::frontend {
namespace {

using test::parse_text;

std::unique_ptr<test::Parsed> parse_kernel(const std::string& body) {
  // Line 1: import, line 2: def; the body starts at line 3.
  return parse_text(
      "import pypto.language as pl\n@pl.jit.incore\ndef k(x: pl.Tensor[[8, 8], pl.FP32], n: "
      "pl.Scalar[pl.INT32]):\n" +
      body);
}

TEST(FrontendErrors, SeveralErrorsInOneRun) {
  auto p = parse_kernel(
      "    t = pl.lod(x, [0, 0], [8, 8])\n"
      "    for i in pl.range(4)\n"
      "        pass\n"
      "    u = undefined_nme + 1\n"
      "    q = 1 < n < 3\n"
      "    t = pl.load(x, [0, 0], [8, 8])\n"
      "    for j in pl.range(2): t = n\n");
  EXPECT_FALSE(p->module);
  std::vector<std::string> expected = {
      "4:9: unknown op 'pl.lod'; did you mean 'pl.load'?",
      "5:25: expected ':' after 'for' header",
      "7:9: undefined name 'undefined_nme'",
      "8:9: chained comparisons are not supported; combine two comparisons with 'and'",
      "10:27: cannot rebind 't' (pl.Tile[[8, 8], pl.FP32, pl.Mem.Vec]) to a value of type "
      "pl.Scalar[pl.INT32] outside the block that bound it (its value may flow around a loop or out "
      "of a branch); use a new name",
  };
  EXPECT_EQ(p->errors(), expected);
}

TEST(FrontendErrors, UndefinedNameSuggestion) {
  auto p = parse_kernel("    count = 1\n    m = coutn + 1\n");
  EXPECT_EQ(p->errors().at(0), "5:9: undefined name 'coutn'; did you mean 'count'?");
}

TEST(FrontendErrors, UnexpectedIndent) {
  auto p = parse_kernel("    a = 1\n        b = 2\n    c = 3\n    d = e\n");
  std::vector<std::string> expected = {"5:9: unexpected indent", "7:9: undefined name 'e'"};
  EXPECT_EQ(p->errors(), expected);
}

TEST(FrontendErrors, ExpectedIndentedBlock) {
  auto p = parse_kernel("    if n > 0:\n    a = 1\n");
  EXPECT_EQ(p->errors().at(0), "5:5: expected an indented block after 'if' header");
}

TEST(FrontendErrors, SyntaxErrorsInExpressions) {
  auto p = parse_kernel("    a = (1 + \n    b = [1, 2\n");
  EXPECT_FALSE(p->module);
  EXPECT_FALSE(p->errors().empty());
  auto q = parse_kernel("    a = n +\n    b = n *\n    c = )\n");
  // Lexer errors come first (the whole file is tokenized before parsing); the parser stays quiet on
  // line 6, whose problem the lexer already reported.
  std::vector<std::string> expected = {"6:9: unmatched ')'",
                                       "4:12: expected an expression, found end of line",
                                       "5:12: expected an expression, found end of line"};
  EXPECT_EQ(q->errors(), expected);
}

TEST(FrontendErrors, NoCascadeAfterALexerErrorOrABadHeader) {
  auto p = parse_kernel("    a = 1 $ 2\n    if n > 0\n        pass\n    else:\n        pass\n    b = nope\n");
  std::vector<std::string> expected = {"4:11: unexpected character '$'",
                                       "5:13: expected ':' after 'if' condition",
                                       "9:9: undefined name 'nope'"};
  EXPECT_EQ(p->errors(), expected);
}

TEST(FrontendErrors, UnsupportedStatements) {
  auto p = parse_kernel("    del n\n    pass\n    x[0] = 1\n    lambda: 1\n");
  std::vector<std::string> expected = {
      "4:5: 'del' statements are not supported in kernel functions",
      "6:5: assignment to a subscript is not supported; use pl.store(...) or pl.write(...)",
      "7:5: 'lambda' statements are not supported in kernel functions"};
  EXPECT_EQ(p->errors(), expected);
}

TEST(FrontendErrors, BadLoopIterable) {
  auto p = parse_kernel("    for i in range(4):\n        pass\n    for i in [1, 2]:\n        pass\n");
  std::vector<std::string> expected = {
      "6:14: expected pl.range(...), pl.parallel(...), pl.unroll(...) or pl.pipeline(...) as the loop "
      "iterable"};
  EXPECT_EQ(p->errors(), expected);
}

TEST(FrontendErrors, BadWith) {
  auto p = parse_kernel("    with open(x):\n        pass\n");
  EXPECT_EQ(p->errors().at(0),
            "4:10: unsupported 'with' statement; expected 'with pl.manual_scope():', "
            "'with pl.scope(mode=pl.ScopeMode.MANUAL|AUTO):' or 'with pl.at(level=...):'");
}

TEST(FrontendErrors, TypeAnnotationErrors) {
  auto p = parse_text(
      "import pypto.language as pl\n@pl.jit.incore\n"
      "def k(a: pl.Tensor[[8, 8]], b: pl.Tensor[[8, 8], pl.FP61], c, d: pl.Tensr[[8], pl.FP32]):\n    "
      "pass\n");
  std::vector<std::string> expected = {
      "3:10: pl.Tensor takes a shape and a dtype: pl.Tensor[[M, K], pl.FP16]",
      "3:50: expected a dtype such as pl.FP16 in pl.Tensor[...]",
      "3:60: parameter 'c' of 'k' needs a type annotation, e.g. pl.Tensor[[M, K], pl.FP16]",
      "3:66: unknown type 'pl.Tensr'; expected pl.Tensor[[M, K], pl.FP16], pld.DistributedTensor[[M, K], "
      "pl.FP16], "
      "pl.Scalar[pl.INT32] or pl.Tile[[M, K], pl.FP16, pl.Mem.Vec]"};
  EXPECT_EQ(p->errors(), expected);
}

TEST(FrontendErrors, MethodNeedsSelfAndKnownMethods) {
  auto p = parse_text(R"(import pypto.language as pl
@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(x: pl.Tensor[[8], pl.FP32]):
        pass
    @pl.function(type=pl.FunctionType.Orchestration)
    def o(self, x: pl.Tensor[[8], pl.FP32]):
        self.kernl(x)
    @pl.function(type=pl.FunctionType.Bogus)
    def q(self):
        pass
    x = 1
)");
  std::vector<std::string> expected = {
      "13:5: unsupported statement in @pl.program class 'P'; expected methods decorated with @pl.function",
      "5:11: the first parameter of method 'k' must be 'self'",
      "10:6: cannot tell the level of 'q': use "
      "@pl.function(type=pl.FunctionType.InCore|AIC|AIV|Orchestration) or "
      "@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)",
      "9:9: program has no function 'kernl'"};
  EXPECT_EQ(p->errors(), expected);
}

TEST(FrontendErrors, UnknownEnumMember) {
  auto p = parse_kernel("    t = pl.load(x, [0, 0], [8, 8], target_memory=pl.Mem.UB)\n");
  EXPECT_EQ(p->errors().at(0),
            "4:50: unknown member 'UB' of pl.Mem; expected one of Vec, Mat, Left, Right, Acc, Bias");
}

TEST(FrontendErrors, DeepNestingIsALocatedError) {
  std::string deep(5000, '(');
  auto p = parse_kernel("    a = " + deep + "1" + std::string(5000, ')') +
                        "\n    b = " + std::string(3000, '-') + "1\n");
  ASSERT_GE(p->errors().size(), 2u);
  EXPECT_NE(p->errors()[0].find("nested too deeply"), std::string::npos);
  std::string chain = "    c = n";
  for (int i = 0; i < 2000; ++i) chain += " + n";
  auto q = parse_kernel(chain + "\n");
  ASSERT_FALSE(q->errors().empty());
  EXPECT_NE(q->errors()[0].find("nested too deeply"), std::string::npos);
  std::string blocks;
  for (int i = 0; i < 150; ++i) blocks += std::string(4 * (i + 1), ' ') + "if n:\n";
  auto r = parse_kernel(blocks + std::string(604, ' ') + "pass\n");
  EXPECT_FALSE(r->module);
}

TEST(FrontendErrors, ErrorLimitStopsRecording) {
  std::string body;
  for (int i = 0; i < 80; ++i) body += "    v" + std::to_string(i) + " = nope\n";
  auto p = parse_kernel(body);
  EXPECT_EQ(p->diags.error_count(), 80);
  EXPECT_EQ(p->errors().size(), 50u);
}

// Truncations and small random edits of the examples must never crash or hang the frontend.
TEST(FrontendErrors, MangledExamplesNeverCrash) {
  const char* files[] = {"examples/allgather_gemm.py", "examples/ring_shuffle_put_async.py"};
  unsigned seed = 12345;
  auto next = [&seed] { return seed = seed * 1103515245u + 12345u, (seed >> 16) & 0x7fff; };
  for (const char* name : files) {
    std::ifstream in(std::string(PTODIST_SOURCE_DIR) + "/" + name);
    if (!in) continue;  // the examples are optional here
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    for (size_t cut = 0; cut < text.size(); cut += 211) parse_text(text.substr(0, cut));
    const std::string junk = "()[]:,=\n \t\"'#\\@.+-*xy0";
    for (int i = 0; i < 120; ++i) {
      std::string t = text;
      size_t p = next() % t.size();
      switch (next() % 3) {
        case 0:
          t.erase(p, 1 + next() % 4);
          break;
        case 1:
          t.insert(p, 1, junk[next() % junk.size()]);
          break;
        default:
          t[p] = junk[next() % junk.size()];
          break;
      }
      parse_text(t);
    }
  }
  SUCCEED();
}

}  // namespace
}  // namespace ptodist::frontend
