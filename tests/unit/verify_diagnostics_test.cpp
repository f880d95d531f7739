// Tests of expected-diagnostic comments and their matching (`ptodist check --verify-diagnostics`).
#include "ptodist/support/verify_diagnostics.h"

#include <gtest/gtest.h>

#include <sstream>

namespace ptodist {
namespace {

SourceSpan at(const SourceFile* f, int line) {
  return SourceSpan{f, line, 1, 2};
}

TEST(VerifyDiagnostics, ParsesSameLineOffsetsAndSeveralTexts) {
  SourceManager sm;
  const SourceFile* f = sm.add("t.py",
                               "x = 1  # expected-error {{bad x}}\n"
                               "# expected-warning@+1 {{w1}} {{w2}}\n"
                               "y = 2\n"
                               "# expected-note@-3 {{see here}}\n");
  std::vector<std::string> problems;
  auto e = parse_expected_diagnostics(*f, &problems);
  EXPECT_TRUE(problems.empty());
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].severity, Severity::Error);
  EXPECT_EQ(e[0].line, 1);
  EXPECT_EQ(e[0].text, "bad x");
  EXPECT_EQ(e[1].severity, Severity::Warning);
  EXPECT_EQ(e[1].line, 3);
  EXPECT_EQ(e[2].text, "w2");
  EXPECT_EQ(e[2].line, 3);
  EXPECT_EQ(e[3].severity, Severity::Note);
  EXPECT_EQ(e[3].line, 1);
}

TEST(VerifyDiagnostics, ReportsMalformedComments) {
  SourceManager sm;
  const SourceFile* f = sm.add("t.py",
                               "# expected-error no braces\n"
                               "# expected-error@+9 {{outside}}\n"
                               "# expected-error@x {{bad}}\n"
                               "# expected-error {{unterminated\n");
  std::vector<std::string> problems;
  auto e = parse_expected_diagnostics(*f, &problems);
  EXPECT_TRUE(e.empty());
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_EQ(problems[0].rfind("t.py:1: error: ", 0), 0u) << problems[0];
}

TEST(VerifyDiagnostics, AllMatchingSucceeds) {
  SourceManager sm;
  const SourceFile* f = sm.add("t.py",
                               "# expected-error@+1 {{notify while async event}}\n"
                               "pld.system.notify(s, 1, [0], 1, op=pld.NotifyOp.AtomicAdd)\n"
                               "e = put()  # expected-note {{issued here}}\n");
  DiagnosticEngine diags;
  Diagnostic& d = diags.error(at(f, 2), "pld.system.notify: notify while async event 'e' may be outstanding");
  DiagnosticEngine::note(d, at(f, 3), "event issued here");
  std::ostringstream os;
  EXPECT_TRUE(verify_diagnostics(*f, diags, os)) << os.str();
  EXPECT_EQ(os.str(), "");
}

TEST(VerifyDiagnostics, ReportsMissingAndUnexpected) {
  SourceManager sm;
  const SourceFile* f = sm.add("t.py",
                               "a = 1  # expected-error {{first}}\n"
                               "b = 2\n");
  DiagnosticEngine diags;
  diags.error(at(f, 2), "first problem");  // right text, wrong line
  std::ostringstream os;
  EXPECT_FALSE(verify_diagnostics(*f, diags, os));
  EXPECT_EQ(os.str(),
            "t.py:1: error: expected error not produced: first\n"
            "t.py:2: error: unexpected error: first problem\n");
}

TEST(VerifyDiagnostics, EachExpectationMatchesOnce) {
  SourceManager sm;
  const SourceFile* f = sm.add("t.py", "a = 1  # expected-error {{dup}}\n");
  DiagnosticEngine diags;
  diags.error(at(f, 1), "dup one");
  diags.error(at(f, 1), "dup two");
  std::ostringstream os;
  EXPECT_FALSE(verify_diagnostics(*f, diags, os));
  EXPECT_EQ(os.str(), "t.py:1: error: unexpected error: dup two\n");
}

TEST(VerifyDiagnostics, SeverityMustMatch) {
  SourceManager sm;
  const SourceFile* f = sm.add("t.py", "a = 1  # expected-warning {{w}}\n");
  DiagnosticEngine diags;
  diags.error(at(f, 1), "w");
  std::ostringstream os;
  EXPECT_FALSE(verify_diagnostics(*f, diags, os));
  EXPECT_NE(os.str().find("expected warning not produced: w"), std::string::npos);
  EXPECT_NE(os.str().find("unexpected error: w"), std::string::npos);
}

}  // namespace
}  // namespace ptodist
