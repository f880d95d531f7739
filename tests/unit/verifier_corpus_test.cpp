// The verifier over the example kernels and the golden test files: correct programs verify clean (no
// false positives) and no parsed program makes it crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "ptodist/frontend/parser.h"
#include "ptodist/ir/verifier.h"

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

// Parses `path` and verifies every program; returns the verifier's diagnostics, or nullopt when the
// file does not parse.
std::optional<std::string> verify_file(const fs::path& path) {
  SourceManager sm;
  std::string error;
  const SourceFile* file = sm.load(path.string(), &error);
  if (!file) return std::nullopt;
  DiagnosticEngine diags;
  Module m = frontend::parse_module(*file, diags);
  if (!m) return std::nullopt;
  for (const Program& p : m->programs) verify_program(p, diags);
  std::ostringstream os;
  diags.print(os);
  return os.str();
}

TEST(VerifierCorpus, CorrectProgramsVerifyClean) {
  for (const std::string dir : {"examples", "tests/lit/accept"}) {
    for (const fs::path& path : python_files(dir)) {
      SCOPED_TRACE(path.string());
      auto result = verify_file(path);
      ASSERT_TRUE(result.has_value()) << "does not parse";
      EXPECT_EQ(*result, "");
    }
  }
}

TEST(VerifierCorpus, EveryParsedGoldenFileIsVerifiedWithoutCrashing) {
  for (const fs::path& path : python_files("tests/lit")) {
    SCOPED_TRACE(path.string());
    EXPECT_NO_FATAL_FAILURE(verify_file(path));
  }
}

}  // namespace
}  // namespace ptodist::ir
