// `kedb scan --format github|gitlab|sarif|junit` and `--fail-on`: what a CI
// step gets, on the bundled example logs.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace kedb {
namespace {

using testing::RunKedb;

// The training log: its root error is cuda/cudnn-bn-epsilon-nan at line
// 3018; the launcher's exit line after it only reports that failure. Line
// 3020, added, is an error no record knows.
std::string TrainLog() {
  static const std::string path = [] {
    const auto file = std::filesystem::temp_directory_path() / ("kedb-ci-format-" + std::to_string(getpid()) + ".log");
    testing::WriteFile(file, testing::ReadFile(testing::SourceDir() / "examples" / "train-cudnn.log") +
                                 "ValueError: could not convert string to float: 'n/a'\n");
    return file.string();
  }();
  return "'" + path + "'";
}
std::string Kb() { return " --kb '" + (testing::SourceDir() / "kb").string() + "'"; }

TEST(CiFormat, GithubAnnotatesEachBlockOnOneLineAndWritesTheJobSummary) {
  testing::TempDir tmp;
  const auto summary = tmp.path() / "summary.md";
  setenv("GITHUB_STEP_SUMMARY", summary.c_str(), 1);
  auto r = RunKedb("scan " + TrainLog() + " --format github" + Kb());
  unsetenv("GITHUB_STEP_SUMMARY");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<std::string> commands;
  for (std::string line; std::getline(lines, line);) commands.push_back(line);
  ASSERT_EQ(commands.size(), 2u) << r.out;  // a message's line breaks are escaped, never raw
  EXPECT_EQ(commands[0].rfind("::error file=", 0), 0u) << commands[0];
  EXPECT_NE(commands[0].find(",line=3018,"), std::string::npos) << commands[0];
  EXPECT_NE(commands[0].find("title=kedb%3A cuda/cudnn-bn-epsilon-nan (root error)::RuntimeError: cuDNN error"),
            std::string::npos)
      << commands[0];
  EXPECT_NE(commands[0].find("%0AFix (95%25 success): Set epsilon"), std::string::npos) << commands[0];
  EXPECT_EQ(commands[1].rfind("::warning file=", 0), 0u) << commands[1];
  EXPECT_NE(r.err.find("kedb: 2 error block(s): 1 known, 1 kedb does not know"), std::string::npos) << r.err;
  const std::string md = testing::ReadFile(summary);
  EXPECT_NE(md.find("| 3018 (root) | `cuda/cudnn-bn-epsilon-nan`"), std::string::npos) << md;
}

TEST(CiFormat, SarifHasOneRulePerRecordAndARegionPerResult) {
  auto r = RunKedb("scan " + TrainLog() + " --format sarif" + Kb());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["version"], "2.1.0");
  const auto& run = j["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "kedb");
  const auto& rules = run["tool"]["driver"]["rules"];
  const auto& results = run["results"];
  ASSERT_EQ(results.size(), 2u);
  for (const auto& res : results) {
    const auto index = res["ruleIndex"].get<std::size_t>();
    ASSERT_LT(index, rules.size());
    EXPECT_EQ(rules[index]["id"], res["ruleId"]);  // the index names the rule the id does
    EXPECT_GE(res["locations"][0]["physicalLocation"]["region"]["startLine"].get<int>(), 1);
  }
  EXPECT_EQ(results[0]["ruleId"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_EQ(results[0]["level"], "error");
  EXPECT_EQ(results[0]["locations"][0]["physicalLocation"]["region"]["startLine"], 3018);
  EXPECT_EQ(results[1]["ruleId"], "kedb/unknown");
  EXPECT_EQ(results[1]["level"], "warning");
}

TEST(CiFormat, GitlabFingerprintsAreStableAndDistinct) {
  auto first = RunKedb("scan " + TrainLog() + " --format gitlab" + Kb());
  auto second = RunKedb("scan " + TrainLog() + " --format gitlab" + Kb());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out, second.out);
  auto issues = nlohmann::json::parse(first.out);
  ASSERT_EQ(issues.size(), 2u);
  std::set<std::string> prints;
  for (const auto& i : issues) prints.insert(i["fingerprint"].get<std::string>());
  EXPECT_EQ(prints.size(), 2u);
  EXPECT_EQ(issues[0]["check_name"], "cuda/cudnn-bn-epsilon-nan");
  EXPECT_EQ(issues[0]["severity"], "critical");  // the root error
  EXPECT_EQ(issues[0]["location"]["lines"]["begin"], 3018);
}

// The job log gets a section per block: the root open, the others folded,
// each closed with the name it was opened with; the report stays JSON.
TEST(CiFormat, GitlabJobLogGetsACollapsibleSectionPerBlock) {
  auto r = RunKedb("scan " + TrainLog() + " --format gitlab" + Kb());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out;  // the report stays whole on stdout
  const std::regex start("\x1b\\[0Ksection_start:(\\d+):(kedb_block_\\d+)(\\[collapsed=true\\])?\r\x1b\\[0K(.*)");
  std::istringstream lines(r.err);
  std::vector<std::string> kept;
  for (std::string line; std::getline(lines, line);) kept.push_back(line);
  std::size_t opened = 0, closed = 0;
  for (const std::string& line : kept) {
    std::smatch m;
    if (std::regex_match(line, m, start)) {
      ++opened;
      if (opened == 1) {
        EXPECT_FALSE(m[3].matched) << "the root error is folded";
        EXPECT_NE(m[4].str().find(":3018 cuda/cudnn-bn-epsilon-nan (root error)"), std::string::npos) << line;
      } else {
        EXPECT_TRUE(m[3].matched) << "a block after the root is open: " << line;
      }
      const std::string end = "\x1b[0Ksection_end:" + m[1].str() + ":" + m[2].str() + "\r\x1b[0K";
      EXPECT_NE(r.err.find(end), std::string::npos) << "no end for " << m[2];
    }
    closed += line.find("section_end:") != std::string::npos;
  }
  EXPECT_EQ(opened, 2u) << r.err;
  EXPECT_EQ(closed, opened);
}

TEST(CiFormat, JunitEscapesWhatALogHolds) {
  const std::string log =
      "step 1\nRuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0\n"
      "ERROR launcher: worker <b id=\"x\"> & friends exited\n";
  auto r = RunKedb("scan - --format junit" + Kb(), log);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("<testsuites tests=\"2\" failures=\"2\">"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("name=\"-:2 cuda/cudnn-bn-epsilon-nan\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("worker &lt;b id=&quot;x&quot;&gt; &amp; friends"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("<b id"), std::string::npos);
}

TEST(CiFormat, FailOnSaysWhatFailsAStep) {
  EXPECT_EQ(RunKedb("scan " + TrainLog() + " --fail-on known" + Kb()).exit_code, 1);
  EXPECT_EQ(RunKedb("scan " + TrainLog() + " --fail-on unknown" + Kb()).exit_code, 1);
  EXPECT_EQ(RunKedb("scan " + TrainLog() + " --fail-on never" + Kb()).exit_code, 0);
  const std::string known_only =
      "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0\n";
  EXPECT_EQ(RunKedb("scan - --fail-on unknown" + Kb(), known_only).exit_code, 0);
  auto clean = RunKedb("scan - --fail-on any --format github" + Kb(), "step 1 ok\nstep 2 ok\nall 12 tests passed\n");
  EXPECT_EQ(clean.exit_code, 0);
  EXPECT_EQ(clean.out, "");
  EXPECT_NE(clean.err.find("kedb: clean: no error blocks"), std::string::npos) << clean.err;
  // Without --fail-on, grep's meaning stays: 1 when nothing known was found.
  EXPECT_EQ(RunKedb("scan -" + Kb(), "all 12 tests passed\n").exit_code, 1);
}

}  // namespace
}  // namespace kedb
