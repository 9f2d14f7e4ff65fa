// The command line as users and scripts call it: output, JSON, exit codes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace kedb {
namespace {

using testing::RunKedb;
using testing::SourceDir;

std::string Kb() { return "--kb '" + (SourceDir() / "kb").string() + "'"; }

TEST(Cli, ShowPrintsWhatAPersonNeeds) {
  auto r = RunKedb("show cuda/cudnn-bn-epsilon-nan " + Kb());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Root cause"), std::string::npos);
  EXPECT_NE(r.out.find("requires a positive epsilon"), std::string::npos);
  // Workarounds by success rate, then dead ends by fail rate.
  auto w95 = r.out.find(" 95% Set epsilon"), w90 = r.out.find(" 90% If epsilon");
  ASSERT_NE(w95, std::string::npos);
  ASSERT_NE(w90, std::string::npos);
  EXPECT_LT(w95, w90);
  auto d80 = r.out.find(" 80% "), d50 = r.out.find(" 50% ");
  EXPECT_LT(w90, d80);
  EXPECT_LT(d80, d50);
  EXPECT_NE(r.out.find("cuDNN 8.9"), std::string::npos);
  EXPECT_NE(r.out.find("Error code: CUDNN_STATUS_BAD_PARAM"), std::string::npos);
}

TEST(Cli, ShowInChinese) {
  auto r = RunKedb("show cuda/cudnn-bn-epsilon-nan --lang zh " + Kb());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("根本原因"), std::string::npos);
  EXPECT_NE(r.out.find("运行时错误"), std::string::npos);
  EXPECT_NE(r.out.find("cuDNN 批量归一化需要正 epsilon 值"), std::string::npos);
}

TEST(Cli, ShowJsonIsTheNativeRecord) {
  auto r = RunKedb("show cuda/cudnn-rnn-double-backward --json " + Kb());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto file = testing::ReadFile(SourceDir() / "kb" / "cuda" / "cudnn-rnn-double-backward.json");
  EXPECT_EQ(nlohmann::ordered_json::parse(r.out), nlohmann::ordered_json::parse(file));
}

TEST(Cli, ShowUnknownIdExitsOne) {
  auto r = RunKedb("show no/such-record " + Kb());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no record has the id \"no/such-record\""), std::string::npos);
}

TEST(Cli, StatsJson) {
  auto r = RunKedb("stats --json " + Kb());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_GE(j["records"].get<int>(), 3);
  EXPECT_EQ(j["by_resolvable"]["partial"], 1);
  EXPECT_NEAR(j["mean_confidence"].get<double>(), 0.85, 0.05);
}

TEST(Cli, LintExitCodes) {
  auto clean = RunKedb("lint " + Kb());
  EXPECT_EQ(clean.exit_code, 0) << clean.out;  // warnings only
  auto strict = RunKedb("lint --strict " + Kb());
  EXPECT_EQ(strict.exit_code, 2);
  auto broken = RunKedb("lint --json --kb '" + (testing::TestData() / "broken").string() + "'");
  EXPECT_EQ(broken.exit_code, 2);
  auto j = nlohmann::json::parse(broken.out);
  EXPECT_GT(j["errors"].get<int>(), 10);
  bool saw_rate = false;
  for (const auto& d : j["diagnostics"]) {
    if (d["field"] == "dead_ends[1].fail_rate") {
      saw_rate = true;
      EXPECT_EQ(d["line"], 8);
      EXPECT_EQ(d["column"], 88);
      EXPECT_EQ(d["rule"], "schema");
    }
  }
  EXPECT_TRUE(saw_rate);
}

TEST(Cli, MissingKbIsAnError) {
  auto r = RunKedb("stats --kb /nonexistent/kb");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such file or directory"), std::string::npos);
}

TEST(Cli, BadUsageExitsTwo) {
  EXPECT_EQ(RunKedb("show").exit_code, 2);
  EXPECT_EQ(RunKedb("frobnicate").exit_code, 2);
  EXPECT_EQ(RunKedb("show x --lang fr " + Kb()).exit_code, 2);
}

TEST(Cli, EveryCommandHasHelpWithAnExample) {
  for (const char* cmd : {"show", "stats", "lint", "import"}) {
    auto r = RunKedb(std::string(cmd) + " --help");
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_NE(r.out.find("Example"), std::string::npos) << cmd;
  }
}

TEST(Cli, ImportDeadendsWritesOneFilePerRecord) {
  KEDB_REQUIRE_SHARED(shared);
  testing::TempDir tmp;
  auto r = RunKedb("import deadends '" + (shared / "corpora/deadends/canons").string() + "' --out '" +
                   tmp.path().string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("imported 2522 records"), std::string::npos) << r.out;
  auto shown = RunKedb("show cuda/cuda-system-not-ready/cuda12-linux --kb '" + tmp.path().string() + "'");
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.out.find("cudaErrorSystemNotReady"), std::string::npos);
  EXPECT_NE(shown.out.find("Source: deadends.dev"), std::string::npos);
  EXPECT_NE(shown.out.find("cuda >=12.0,<13.0"), std::string::npos);
}

}  // namespace
}  // namespace kedb
