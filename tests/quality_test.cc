// Quality on the deadends corpus, measured with tools/eval as a user would
// run it. Thresholds are the targets the matcher is held to.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace kedb {
namespace {

nlohmann::json RunEval(const std::string& args) {
  testing::TempDir tmp;
  std::string out = (tmp.path() / "out.json").string();
  std::string cmd = std::string("'") + KEDB_EVAL + "' --json --cache '" + KEDB_TEST_CACHE + "' " + args + " > '" + out + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return nlohmann::json::parse(testing::ReadFile(out));
}

// Every code record's own signature should find it (or a variant of it:
// same domain/slug). The 600 country-scoped records are not error messages.
TEST(Quality, SelfRetrieval) {
  KEDB_REQUIRE_SHARED(shared);
  auto j = RunEval("--kb '" + (shared / "corpora/deadends/canons").string() +
                   "' --self-retrieval --level slug --exclude-domains "
                   "culture,visa,emergency,medical,legal,safety,banking,communication,food-safety,mental-health,"
                   "disaster,policy,pet-safety");
  EXPECT_EQ(j["known"], 1922);
  EXPECT_GE(j["p_at_1"].get<double>(), 0.9739);  // 1872 of 1922, as before the rank model
  EXPECT_GE(j["mrr"].get<double>(), 0.985);
}

// The corpus's own 20 scenarios, scored by domain as its authors score them
// (they report P@1 0.90, MRR 0.935). Two are short paraphrases no record's
// pattern matches ("CUDA error: out of memory", "PHP Fatal error: Allowed
// memory size exhausted" without its numbers and its bracketed detail);
// both must still be answered, through their fuzzy candidates.
TEST(Quality, Scenarios) {
  KEDB_REQUIRE_SHARED(shared);
  auto j = RunEval("--kb '" + (shared / "corpora/deadends/canons").string() + "' --scenarios '" +
                   (shared / "corpora/deadends/error_scenarios.json").string() + "'");
  EXPECT_EQ(j["known"], 20);
  EXPECT_GE(j["p_at_1"].get<double>(), 1.0);
}

constexpr char kNonCodeDomains[] =
    "culture,visa,emergency,medical,legal,safety,banking,communication,food-safety,mental-health,disaster,policy,"
    "pet-safety";

// The same signatures inside 20-80 lines of log noise, in five log styles
// (training traceback, GitHub Actions, Docker BuildKit, pytest, Jenkins with
// colours), answered by `scan`: the root block's record must be the one.
TEST(Quality, WrappedInLogs) {
  KEDB_REQUIRE_SHARED(shared);
  auto j = RunEval("--kb '" + (shared / "corpora/deadends/canons").string() +
                   "' --self-retrieval --level slug --wrap all --exclude-domains " + kNonCodeDomains);
  EXPECT_EQ(j["known"], 1922);
  EXPECT_GE(j["p_at_1"].get<double>(), 0.967);  // the figure before the rank model
}

// Real errors from tools the corpus has no record of: kedb should say it
// does not know (tools/eval/data/uncovered.jsonl).
TEST(Quality, AbstainsOnUncoveredErrors) {
  KEDB_REQUIRE_SHARED(shared);
  auto j = RunEval("--kb '" + (shared / "corpora/deadends/canons").string() + "' --cases '" +
                   (testing::SourceDir() / "tools/eval/data/uncovered.jsonl").string() + "'");
  EXPECT_EQ(j["unknown"], 150);
  EXPECT_GE(j["abstention_on_unknown"].get<double>(), 0.9);
}

// Real errors as people pasted them in issue threads
// (tools/eval/data/real/cases.jsonl), the half the rank model was never
// fitted on. The floors sit just under the figures the README reports.
std::string RealCases() { return (testing::SourceDir() / "tools/eval/data/real/cases.jsonl").string(); }

TEST(Quality, RealErrorsCheckHalf) {
  KEDB_REQUIRE_SHARED(shared);
  auto j = RunEval("--kb '" + (shared / "corpora/deadends/canons").string() + "' --cases '" + RealCases() +
                   "' --split check");
  EXPECT_EQ(j["known"], 174);
  EXPECT_EQ(j["unknown"], 95);
  EXPECT_GE(j["p_at_1"].get<double>(), 0.855);
  EXPECT_GE(j["mrr"].get<double>(), 0.885);
  // 79 of 95: a TypeScript TS2688 report is answered with a Node record
  // whose fix names the node_modules its paths go through (fix_quoted).
  EXPECT_GE(j["abstention_on_unknown"].get<double>(), 0.83);
  EXPECT_LE(j["abstained_on_known"].get<int>(), 15);
}

// The same cases inside 4,000-16,000-line CI and job logs: the root block's
// first match must be the right record.
TEST(Quality, RealErrorsCheckHalfInLongLogs) {
  KEDB_REQUIRE_SHARED(shared);
  auto j = RunEval("--kb '" + (shared / "corpora/deadends/canons").string() + "' --cases '" + RealCases() +
                   "' --split check --long-logs");
  EXPECT_EQ(j["known"], 174);
  EXPECT_GE(j["p_at_1"].get<double>(), 0.80);  // 0.805 (140 of 174)
  EXPECT_GE(j["abstention_on_unknown"].get<double>(), 0.84);  // 0.842 (80 of 95)
}

// The bundled knowledge base against the same check half, with its own
// labels: GPU and deep-learning errors it knows, and everything else, which
// it must not claim. Needs nothing from ../shared. (Measured with 307
// records: P@1 0.974 on 38 known, abstention 0.991 on 231 others.)
TEST(Quality, RealErrorsCheckHalfBundledKb) {
  auto j = RunEval("--kb '" + (testing::SourceDir() / "kb").string() + "' --cases '" + RealCases() +
                   "' --split check --labels kb");
  EXPECT_EQ(j["known"], 38);
  EXPECT_GE(j["p_at_1"].get<double>(), 0.97);
  EXPECT_GE(j["abstention_on_unknown"].get<double>(), 0.985);
}

}  // namespace
}  // namespace kedb
