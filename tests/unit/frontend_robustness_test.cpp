// Robustness of the frontend: truncated and byte-mutated versions of every example never crash or hang
// the parser, and every error it reports carries a usable source location.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ptodist/frontend/parser.h"

namespace ptodist {
namespace {

namespace fs = std::filesystem;

// Bytes that stress the lexer and parser most: brackets and colons start nested structures, tabs
// break indentation, NUL and 0xFF are not text at all.
constexpr char kNastyBytes[] = {'(', ')',  '[', ']',  ':', '\t', '\0', '\xff', '\n', ' ',
                                '"', '\'', '#', '\\', '=', ',',  '.',  '@',    '-',  '*'};
// How many variants to parse. A Debug parse of an example costs a few milliseconds, so the default
// samples to keep the suite near 10 s; PTODIST_ROBUSTNESS_FULL=1 runs the exhaustive sweep (every 7th
// byte, both sides of every newline, 300 mutations per file) for sanitizer or nightly runs.
struct Budget {
  size_t truncations_per_file;  // byte cuts, at a prime stride of at least 7
  int before_newline_every;     // also cut just before every k-th newline (after-newline cuts: all)
  int mutations_per_file;
};

Budget budget() {
  const char* full = std::getenv("PTODIST_ROBUSTNESS_FULL");
  if (full && std::string(full) == "1") return {~size_t{0}, 1, 300};
  return {120, 4, 100};
}

bool is_prime(size_t n) {
  if (n < 2) return false;
  for (size_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

// The stride that spreads `cuts` cuts over `size` bytes; prime so cuts land on every column class.
size_t truncation_stride(size_t size, size_t cuts) {
  size_t stride = std::max<size_t>(7, cuts == 0 ? size : size / cuts);
  while (!is_prime(stride)) ++stride;
  return stride;
}

// One parse of a few-KiB file takes milliseconds; anything this slow is a hang.
constexpr auto kParseDeadline = std::chrono::seconds(20);

// SplitMix64: a tiny deterministic generator, so a failing mutation is reproducible everywhere.
class Prng {
 public:
  explicit Prng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }

 private:
  uint64_t state_;
};

// Aborts the process with the name of the input when one parse runs past the deadline: a hang must
// fail the test run with a reproducible name instead of blocking it forever.
class Watchdog {
 public:
  Watchdog() : thread_([this] { watch(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void arm(const std::string& what) {
    std::lock_guard<std::mutex> lock(mu_);
    what_ = what;
    deadline_ = std::chrono::steady_clock::now() + kParseDeadline;
    armed_ = true;
    cv_.notify_all();
  }
  void disarm() {
    std::lock_guard<std::mutex> lock(mu_);
    armed_ = false;
  }

 private:
  void watch() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stop_) {
      if (!armed_) {
        cv_.wait(lock);
        continue;
      }
      if (std::chrono::steady_clock::now() >= deadline_) {
        std::fprintf(stderr, "frontend robustness: parse of %s did not finish within %llds\n", what_.c_str(),
                     static_cast<long long>(kParseDeadline.count()));
        std::abort();
      }
      cv_.wait_until(lock, deadline_);
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::string what_;
  std::chrono::steady_clock::time_point deadline_;
  bool armed_ = false;
  bool stop_ = false;
  std::thread thread_;
};

struct Example {
  std::string path;
  std::string text;
};

std::vector<Example> load_examples() {
  std::vector<Example> out;
  fs::path dir = fs::path(PTODIST_SOURCE_DIR) / "examples";
  if (!fs::exists(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".py") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    out.push_back({entry.path().string(), ss.str()});
  }
  // Directory order is unspecified; sort so failures and seeds are reproducible.
  std::sort(out.begin(), out.end(), [](const Example& a, const Example& b) { return a.path < b.path; });
  return out;
}

// A printable name for a variant, with the bytes around the edit for a quick look.
std::string describe(const std::string& path, const std::string& edit) {
  return path + " [" + edit + "]";
}

// Parses one variant and checks the frontend's promises: a null result comes with at least one error,
// a non-null one with none, and every error points into the file at a real line and column. Returns
// whether the variant was rejected.
bool parse_and_check(Watchdog& dog, const std::string& name, std::string text) {
  SourceFile file(name, std::move(text));
  DiagnosticEngine diags;
  dog.arm(name);
  ir::Module m = frontend::parse_module(file, diags);
  dog.disarm();

  if (m) {
    EXPECT_FALSE(diags.has_errors()) << name << ": a module was returned although errors were reported";
    return false;
  }
  EXPECT_TRUE(diags.has_errors()) << name << ": parse failed without reporting an error";
  for (const Diagnostic& d : diags.diagnostics()) {
    if (d.severity != Severity::Error) continue;
    // The end of file may be reported on the line after the last one.
    const int max_line = file.line_count() + 1;
    EXPECT_EQ(d.span.file, &file) << name << ": error without a file: " << d.message;
    EXPECT_GE(d.span.line, 1) << name << ": error without a line: " << d.message;
    EXPECT_LE(d.span.line, max_line) << name << ": error past the end of the file: " << d.message;
    EXPECT_GE(d.span.col, 1) << name << ": error without a column: " << d.message;
    EXPECT_FALSE(d.message.empty()) << name << ": error with an empty message";
    // Formatting must not crash either (it reads the source line under the span).
    EXPECT_FALSE(format_diagnostic(d).empty());
  }
  return true;
}

class FrontendRobustness : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { examples_ = new std::vector<Example>(load_examples()); }
  static void TearDownTestSuite() {
    delete examples_;
    examples_ = nullptr;
  }
  static const std::vector<Example>& examples() { return *examples_; }

  Watchdog dog_;

 private:
  static std::vector<Example>* examples_;
};

std::vector<Example>* FrontendRobustness::examples_ = nullptr;

// The unmodified examples are the baseline: they must parse with no diagnostic at all.
TEST_F(FrontendRobustness, ExamplesParseCleanly) {
  ASSERT_FALSE(examples().empty()) << "no examples/*.py under " << PTODIST_SOURCE_DIR;
  for (const Example& ex : examples()) {
    SourceFile file(ex.path, ex.text);
    DiagnosticEngine diags;
    dog_.arm(ex.path);
    ir::Module m = frontend::parse_module(file, diags);
    dog_.disarm();
    std::ostringstream os;
    diags.print(os);
    EXPECT_NE(m, nullptr) << ex.path << " does not parse:\n" << os.str();
    EXPECT_TRUE(diags.diagnostics().empty()) << ex.path << ":\n" << os.str();
  }
}

// Prefixes at a stride of bytes, every prefix ending just after a newline, and prefixes ending just
// before one.
TEST_F(FrontendRobustness, TruncatedExamples) {
  int rejected = 0;
  for (const Example& ex : examples()) {
    const std::string& t = ex.text;
    const Budget b = budget();
    const size_t stride = truncation_stride(t.size(), b.truncations_per_file);
    for (size_t cut = 0; cut < t.size(); cut += stride)
      rejected += parse_and_check(dog_, describe(ex.path, "truncated at byte " + std::to_string(cut)),
                                  t.substr(0, cut));
    int newline = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] != '\n') continue;
      // Before the newline: the file ends mid-statement with no final newline.
      if (newline++ % b.before_newline_every == 0)
        rejected += parse_and_check(
            dog_, describe(ex.path, "truncated before newline at " + std::to_string(i)), t.substr(0, i));
      rejected += parse_and_check(dog_, describe(ex.path, "truncated after newline at " + std::to_string(i)),
                                  t.substr(0, i + 1));
    }
  }
  // Most prefixes cut a program in half; if none is rejected the sweep exercised no error path.
  EXPECT_GT(rejected, 0);
}

// One byte replaced, inserted or deleted at a time, at positions and with bytes a seeded PRNG picks.
TEST_F(FrontendRobustness, MutatedExamples) {
  int rejected = 0;
  for (const Example& ex : examples()) {
    if (ex.text.empty()) continue;
    Prng rng(0x70746f64697374ull ^ std::hash<std::string>{}(fs::path(ex.path).filename().string()));
    for (int i = 0; i < budget().mutations_per_file; ++i) {
      std::string t = ex.text;
      const size_t pos = rng.below(t.size());
      const char byte = kNastyBytes[rng.below(sizeof(kNastyBytes))];
      const char* what = nullptr;
      switch (rng.below(3)) {
        case 0:
          t[pos] = byte;
          what = "replaced";
          break;
        case 1:
          t.insert(t.begin() + static_cast<std::ptrdiff_t>(pos), byte);
          what = "inserted";
          break;
        default:
          t.erase(pos, 1);
          what = "deleted";
          break;
      }
      char code[8];
      std::snprintf(code, sizeof code, "0x%02x", static_cast<unsigned char>(byte));
      rejected += parse_and_check(
          dog_, describe(ex.path, std::string(what) + " " + code + " at byte " + std::to_string(pos)),
          std::move(t));
    }
  }
  EXPECT_GT(rejected, 0);
}

// Inputs no example contains: empty files, lone indentation, unbalanced brackets, binary noise.
TEST_F(FrontendRobustness, DegenerateInputs) {
  const std::vector<std::string> inputs = {
      "",
      "\n",
      "\t",
      "   \n\t\n",
      std::string("\0\0\0", 3),
      "\xff\xfe\xfd",
      "import pypto.language as pl\n@pl.program\n",
      "import pypto.language as pl\n@pl.program\nclass P:\n",
      "import pypto.language as pl\n@pl.program\nclass P:\n    @pl.function(\n",
      "import pypto.language as pl\nX = (((((((((\n",
      "import pypto.language as pl\nX = ]]]]\n",
      "import pypto.language as pl\nX = \"unterminated\n",
      "import pypto.language as pl\nX = '''never closed\n",
      "def make_program(world_size\n",
      "def make_program(world_size):\n    @pl.program\n    class P:\n        pass\n    return\n",
      "if __name__ == \"__main__\":\n\tprint('tab indented host code')\n",
  };
  for (size_t i = 0; i < inputs.size(); ++i)
    parse_and_check(dog_, "degenerate#" + std::to_string(i), inputs[i]);
}

// Deep nesting must be an error (or a parse), not a stack overflow.
TEST_F(FrontendRobustness, DeepNesting) {
  const std::string open(2000, '(');
  const std::string close(2000, ')');
  parse_and_check(dog_, "nested-open", "import pypto.language as pl\nX = " + open + "1\n");
  parse_and_check(dog_, "nested-balanced", "import pypto.language as pl\nX = " + open + "1" + close + "\n");
  std::string lists = "import pypto.language as pl\nX = ";
  for (int i = 0; i < 2000; ++i) lists += "[";
  parse_and_check(dog_, "nested-lists", lists + "\n");
}

}  // namespace
}  // namespace ptodist
