// print(parse(print(p))) == print(p) for every example kernel and every parsable golden test file, and
// the reparsed IR equals the first structurally.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "ptodist/frontend/parser.h"
#include "ptodist/ir/printer.h"
#include "ptodist/ir/structural_equal.h"

namespace ptodist::ir {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> python_files(const std::string& subdir) {
  std::vector<fs::path> out;
  fs::path dir = fs::path(PTODIST_SOURCE_DIR) / subdir;
  if (!fs::is_directory(dir)) return out;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.path().extension() == ".py") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The program with its functions in name order. The reparse may order them differently from the first
// parse: an outlined deferred waiter prints back as its pl.at scope, and the parser places the function
// it outlines again right after its caller, before the kernels the first parse outlined beside it (which
// print as declared kernels). Calls name their callee, so the order carries no meaning.
Program by_name(const Program& p) {
  auto copy = std::make_shared<ProgramNode>(*p);
  std::stable_sort(copy->functions.begin(), copy->functions.end(), [](const Function& a, const Function& b) {
    return (a ? a->name : std::string()) < (b ? b->name : std::string());
  });
  return copy;
}

std::string diagnostics_text(const DiagnosticEngine& d) {
  std::ostringstream os;
  d.print(os);
  return os.str();
}

// ASSERTs end only this file's check, so every file is reported. With `must_parse` false, a file the
// parser rejects (a negative test) is skipped.
void check_round_trip(const fs::path& path, bool must_parse = true) {
  SourceManager sm;
  std::string error;
  const SourceFile* file = sm.load(path.string(), &error);
  ASSERT_NE(file, nullptr) << error;
  DiagnosticEngine d1;
  Module m1 = frontend::parse_module(*file, d1);
  if (!m1 && !must_parse) return;
  ASSERT_NE(m1, nullptr) << diagnostics_text(d1);
  std::string t1 = print_module(m1);

  const SourceFile* printed = sm.add(path.filename().string() + ".printed", t1);
  DiagnosticEngine d2;
  Module m2 = frontend::parse_module(*printed, d2);
  ASSERT_NE(m2, nullptr) << "the printed module does not parse:\n" << diagnostics_text(d2) << "\n" << t1;
  EXPECT_EQ(print_module(m2), t1);

  ASSERT_EQ(m1->programs.size(), m2->programs.size());
  for (size_t i = 0; i < m1->programs.size(); ++i) {
    std::string why;
    EXPECT_TRUE(structural_equal(by_name(m1->programs[i]), by_name(m2->programs[i]), &why)) << why;
  }
}

TEST(PrinterRoundTrip, EveryExampleIsStable) {
  auto files = python_files("examples");
  if (files.empty()) GTEST_SKIP() << "no examples/*.py";
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.string());
    check_round_trip(path);
  }
}

// The golden test files are a wider corpus: every one that parses must round-trip too.
TEST(PrinterRoundTrip, EveryParsableLitFileIsStable) {
  for (const fs::path& path : python_files("tests/lit")) {
    SCOPED_TRACE(path.string());
    check_round_trip(path, /*must_parse=*/false);
  }
}

}  // namespace
}  // namespace ptodist::ir
