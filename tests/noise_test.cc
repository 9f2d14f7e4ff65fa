// Less noise in a scan's report: what build tools and CI runners print
// around an error is read as part of it, or as its context, never as more
// errors to read (tests/data/ci-noise/README.md says where the logs come
// from).
#include <gtest/gtest.h>

#include "scan_util.h"
#include "test_util.h"

namespace kedb {
namespace {

std::string NoiseLog(const std::string& name) {
  return testing::ReadFile(testing::SourceDir() / "tests" / "data" / "ci-noise" / name);
}
std::string Example(const std::string& name) { return testing::ReadFile(testing::SourceDir() / "examples" / name); }

// Each line of `log` after a GitHub Actions time stamp, as a runner's raw
// log has it.
std::string Stamped(const std::string& log) {
  std::string out;
  std::size_t at = 0;
  while (at < log.size()) {
    const std::size_t end = log.find('\n', at);
    out += "2026-03-14T10:01:45.6306223Z " + log.substr(at, end - at) + "\n";
    at = end == std::string::npos ? log.size() : end + 1;
  }
  return out;
}

class NoiseTest : public ::testing::Test {
 protected:
  void SetUp() override { engine_ = testing::Bundled(cache_); }
  ScanResult Scan(const std::string& log) { return testing::ScanText(*engine_, log); }
  testing::TempDir cache_;
  std::shared_ptr<const Engine> engine_;
};

TEST_F(NoiseTest, AFailedMavenBuildIsOneBlockAtItsFirstCompilerError) {
  for (const std::string& log : {NoiseLog("maven-compile.log"), Stamped(NoiseLog("maven-compile.log"))}) {
    const ScanResult r = Scan(log);
    ASSERT_EQ(r.blocks.size(), 1u);  // was 9: the section, the goal, and 7 lines of boilerplate
    const ErrorBlock& b = r.blocks[0];
    EXPECT_EQ(b.kind, BlockKind::kCompiler);
    EXPECT_EQ(b.first_line, 14u);  // [ERROR] COMPILATION ERROR :
    EXPECT_EQ(b.last_line, 34u);   // [ERROR] [Help 1] http://cwiki.apache.org/...
    EXPECT_EQ(b.decisive_line, 16u);
    EXPECT_NE(b.decisive.find("Pipeline.java:[42,41] error: cannot find symbol"), std::string::npos) << b.decisive;
  }
  const ScanResult three = Scan(NoiseLog("maven3-compile.log"));
  ASSERT_EQ(three.blocks.size(), 1u);  // was 11
  EXPECT_EQ(three.blocks[0].decisive_line, 7u);
  ASSERT_EQ(three.blocks[0].frames.size(), 1u);  // the other error, once, though Maven prints it twice
  EXPECT_NE(three.blocks[0].frames[0].find("EmailData.java:[1208,16]"), std::string::npos);
}

TEST_F(NoiseTest, AMavenGoalThatFailedWithoutACompilerErrorIsOneBlockAtTheGoal) {
  const ScanResult r = Scan(NoiseLog("maven-exec.log"));
  std::size_t at_goal = 0;
  for (const ErrorBlock& b : r.blocks) {
    EXPECT_EQ(b.decisive.find("[ERROR] To see"), std::string::npos) << b.decisive;
    EXPECT_NE(b.decisive, "[ERROR]");
    at_goal += b.decisive_line == 10;
    if (b.decisive_line == 10) {
      EXPECT_EQ(b.last_line, 16u);
    }
  }
  EXPECT_EQ(at_goal, 1u);
  // "Test failure: test4", which the job printed itself, may stand alone;
  // nothing else does.
  EXPECT_LE(r.blocks.size(), 2u);
}

TEST_F(NoiseTest, APytestSummaryLineIsTheFailureItsSectionShowed) {
  const ScanResult r = Scan(Example("pytest-cuda.log"));
  ASSERT_EQ(r.blocks.size(), 1u);  // was 2: the section and "FAILED ... - RuntimeError: ..."
  EXPECT_EQ(r.blocks[0].kind, BlockKind::kPytest);
  EXPECT_EQ(r.blocks[0].count, 1u);
  ASSERT_FALSE(r.blocks[0].matches.empty());
  EXPECT_EQ(r.blocks[0].matches[0].record->id, "cuda/device-side-assert");
  // A test in a class: the header says "TestLoss.test_void", the summary
  // "TestLoss::test_void". A failure no section showed keeps its line.
  const std::string log =
      "____________________________ TestLoss.test_void ____________________________\n"
      "\n"
      ">       assert loss.isfinite()\n"
      "E       AssertionError: assert False\n"
      "\n"
      "tests/test_losses.py:12: AssertionError\n"
      "=========================== short test summary info ============================\n"
      "FAILED tests/test_losses.py::TestLoss::test_void - AssertionError: assert False\n"
      "FAILED tests/test_io.py::test_read - FileNotFoundError: [Errno 2] No such file or directory: 'x.csv'\n"
      "========================= 2 failed, 40 passed in 3.21s =========================\n";
  const ScanResult two = Scan(log);
  ASSERT_EQ(two.blocks.size(), 2u);
  std::vector<std::size_t> lines;
  for (const ErrorBlock& b : two.blocks) lines.push_back(b.decisive_line);
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::size_t>{4, 9}));
}

TEST_F(NoiseTest, ARunnersEpilogueIsContextNotAnError) {
  const std::string train = Example("train-cudnn.log");
  for (const std::string epilogue :
       {"##[error]Process completed with exit code 1.", "\x1b[31;1mERROR: Job failed: exit code 1\x1b[0;m"}) {
    const ScanResult r = Scan(train + epilogue + "\n");
    // The traceback, alone: neither the launcher's "worker 0 exited with
    // code 1" nor the runner's line is one more error to read.
    ASSERT_EQ(r.blocks.size(), 1u) << epilogue;
    EXPECT_EQ(r.blocks[0].decisive_line, 3018u);
    EXPECT_EQ(r.blocks[0].matches[0].record->id, "cuda/cudnn-bn-epsilon-nan");
  }
  // A failed step whose error kedb cannot point at still says it failed,
  // with no record claimed for it.
  const ScanResult alone = Scan("npm run build\n##[error]Process completed with exit code 1.\n");
  ASSERT_EQ(alone.blocks.size(), 1u);
  EXPECT_TRUE(alone.blocks[0].matches.empty());
}

}  // namespace
}  // namespace kedb
