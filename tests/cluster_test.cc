// kedb cluster: unknown errors grouped into templates with a checked regex.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "logs/cluster.h"
#include "regex/pcre2_regex.h"
#include "test_util.h"

namespace kedb::logs {
namespace {

TEST(Cluster, MasksVariableParts) {
  EXPECT_EQ(MaskLine("CUDA error at 0x7f3a9c in /src/kernels/k.cu:12 (device 3)"),
            "CUDA error at <HEX> in <PATH> (device <NUM>)");
  EXPECT_EQ(MaskLine("job 3f2b7c1e-9a4d-4e2b-8c1f-0a1b2c3d4e5f failed on 10.0.12.7:8080"),
            "job <UUID> failed on <IP>");
  EXPECT_EQ(MaskLine("KeyError: 'learning rate' in config \"train.yaml\""), "KeyError: <STR> in config <STR>");
  EXPECT_EQ(MaskLine("timeout after 30.5s"), "timeout after 30.5s");  // units keep the token
}

TEST(Cluster, GroupsLinesAndChecksTheRegex) {
  Clusterer c;
  c.Add("ERROR shard 12 lost lease after 3 retries on node-a", 2);
  c.Add("ERROR shard 7 lost lease after 5 retries on node-b");
  c.Add("ERROR shard 9 lost lease after 1 retries on node-c");
  c.Add("Segmentation fault (core dumped)");
  auto templates = c.Finish();
  ASSERT_EQ(templates.size(), 2u);
  const Template& t = templates[0];
  EXPECT_EQ(t.count, 4u);
  EXPECT_EQ(t.text, "ERROR shard <NUM> lost lease after <NUM> retries on <*>");
  EXPECT_EQ(t.example, "ERROR shard 12 lost lease after 3 retries on node-a");
  EXPECT_EQ(t.members.size(), 3u);
  EXPECT_EQ(t.verified, 3u);
  // The proposal is a Python pattern that finds new members and not others.
  auto re = regex::CompilePython(t.regex);
  ASSERT_TRUE(re.ok());
  EXPECT_TRUE((*re).Search("ERROR shard 40 lost lease after 9 retries on node-z"));
  EXPECT_FALSE((*re).Search("ERROR shard 40 kept lease"));
  EXPECT_EQ(templates[1].verified, 1u);
}

TEST(Cluster, Cli) {
  testing::TempDir dir;
  std::string log;
  // Five failures: repeats of one line (counted by the block segmenter) and
  // two distinct buckets (merged by the clusterer).
  const char* buckets[] = {"ckpt-a", "ckpt-a", "ckpt-a", "logs-b", "logs-b"};
  for (int i = 0; i < 5; ++i) {
    log += "2026-03-14T10:00:0" + std::to_string(i) + "Z ERROR storage: bucket '" + buckets[i] +
           "' quota exceeded by " + std::to_string(100 + i) + " MB\n";
    log += "INFO retrying\n\n\n\n";
  }
  log += "RuntimeError: CUDA error: an illegal memory access was encountered\n";  // known: not clustered
  testing::WriteFile(dir.path() / "ci.log", log);
  std::string kb = "--kb '" + (testing::SourceDir() / "kb").string() + "'";
  auto r = testing::RunKedb("cluster --json " + kb + " '" + (dir.path() / "ci.log").string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["templates"].size(), 1u);
  EXPECT_EQ(j["templates"][0]["template"], "ERROR storage: bucket <STR> quota exceeded by <NUM> MB");
  EXPECT_EQ(j["templates"][0]["count"], 5);
  EXPECT_EQ(j["templates"][0]["members"], 2);
  EXPECT_EQ(j["templates"][0]["verified"], 2);
  auto none = testing::RunKedb("cluster " + kb + " -", "RuntimeError: CUDA error: an illegal memory access was encountered\n");
  EXPECT_EQ(none.exit_code, 1);
}

}  // namespace
}  // namespace kedb::logs
