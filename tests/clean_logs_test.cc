// `kedb lint --clean-logs`: patterns that fire on logs of runs that passed
// are flagged, loose ones and only them.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace kedb {
namespace {

using testing::RunKedb;
using testing::TempDir;

std::string CleanLogs() { return "'" + (testing::TestData() / "clean-logs").string() + "'"; }

TEST(CleanLogs, ALoosePatternIsFlaggedAndATightOneIsNot) {
  TempDir tmp;
  // "tests failed" is in every passing ctest summary ("0 tests failed").
  testing::WriteFile(tmp.path() / "loose.json",
                     R"({"id": "t/loose", "signature": "3 tests failed out of 10", "regex": "tests failed",
                         "domain": "t", "root_cause": "r", "workarounds": [], "dead_ends": []})");
  testing::WriteFile(tmp.path() / "tight.json",
                     R"({"id": "t/tight", "signature": "The following tests FAILED:", "regex": "The following tests FAILED:",
                         "domain": "t", "root_cause": "r", "workarounds": [], "dead_ends": []})");
  const std::string kb = "--kb '" + tmp.path().string() + "' --no-shadowing --clean-logs " + CleanLogs();
  auto r = RunKedb("lint " + kb);
  EXPECT_EQ(r.exit_code, 0) << r.err;  // warnings
  EXPECT_NE(r.out.find("warning[fires-on-clean-log] t/loose: regex: fired on 1 line(s) in 1 of 1 clean log(s)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("kedb-ci-passed.log:82: 100% tests passed, 0 tests failed out of 274"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("warning[fires-on-clean-log] t/tight"), std::string::npos) << r.out;
  EXPECT_EQ(RunKedb("lint --strict " + kb).exit_code, 2);
  auto j = nlohmann::json::parse(RunKedb("lint --json " + kb).out);
  EXPECT_EQ(j["clean_logs"]["logs"], 1);
  EXPECT_EQ(j["clean_logs"]["lines"], 91);
  EXPECT_EQ(j["clean_logs"]["fired"], 1);
}

TEST(CleanLogs, AMissingFolderIsAnError) {
  auto r = RunKedb("lint --clean-logs /no/such/folder --kb '" + (testing::SourceDir() / "kb").string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--clean-logs /no/such/folder: no such file or folder"), std::string::npos) << r.err;
}

TEST(CleanLogs, TheBundledKbIsQuietOnAPassingJob) {
  auto r = RunKedb("lint --no-shadowing --clean-logs " + CleanLogs() + " --kb '" + (testing::SourceDir() / "kb").string() + "'");
  EXPECT_EQ(r.out.find("fires-on-clean-log"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("clean logs: 1 read (91 lines); 0 record(s) fired on them"), std::string::npos) << r.out;
}

TEST(CleanLogs, TheCorpusHasAVersionPatternThatAnswersOnAPassingConfigure) {
  auto shared = testing::SharedDir();
  if (!shared) GTEST_SKIP() << "needs ../shared (the deadends corpus)";
  auto r = RunKedb("lint --no-shadowing --clean-logs " + CleanLogs() + " --kb '" +
                   (*shared / "corpora" / "deadends" / "canons").string() + "'");
  // CMake's "found suitable version ..., minimum required is ..." on a
  // configure that succeeded is taken for a version mismatch.
  EXPECT_NE(r.out.find("cmake/cmake-version-mismatch/cmake3-linux: regex: fired on 2 line(s) in 1 of 1 clean log(s), "
                       "reported as the answer on 2"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace kedb
