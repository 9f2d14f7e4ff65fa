// Importing the deadends.dev corpus: every record converts, nothing is lost,
// and importing or round-tripping the output changes nothing.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "kb/deadends_import.h"
#include "kedb/knowledge_base.h"
#include "test_util.h"

namespace kedb {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::TempDir;

std::map<std::string, std::string> ReadTree(const fs::path& root) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file()) files[fs::relative(e.path(), root).string()] = ReadFile(e.path());
  }
  return files;
}

TEST(DeadendsImport, MapsEveryFieldOfOneRecord) {
  const std::string canon_text = R"({
    "schema_version": "1.0.0",
    "id": "cuda/example/cuda12-linux",
    "url": "https://example.invalid/cuda/example",
    "error": {"signature": "CUDA error: example", "regex": "example", "domain": "cuda",
              "category": "runtime_error", "first_seen": "2023-01-01", "last_confirmed": "2026-02-12"},
    "environment": {"runtime": {"name": "cuda", "version_range": ">=12.0,<13.0"}, "os": "linux",
                    "hardware": {"gpu": "A100", "vram_gb": 80}},
    "verdict": {"resolvable": "partial", "fix_success_rate": 0.6, "confidence": 0.7,
                "last_updated": "2026-02-12", "summary": "Why it happens."},
    "dead_ends": [{"action": "Reinstall", "why_fails": "Not the cause", "fail_rate": 0.9, "sources": [],
                   "condition": "", "common_misconception": "It is a driver bug"}],
    "workarounds": [{"action": "Retry", "success_rate": 0.8, "how": "Loop", "sources": [], "condition": "",
                     "tradeoff": "Slower start"}],
    "transition_graph": {"leads_to": [{"error_id": "cuda/next/cuda12-linux", "probability": 0.25,
                                       "condition": "if ignored", "typical_delay": "minutes"}],
                         "preceded_by": [], "frequently_confused_with": [
                           {"error_id": "cuda/other/cuda12-linux", "distinction": "Different cause"}]},
    "metadata": {"generated_by": "manual", "generation_date": "2026-02-12", "review_status": "human_reviewed",
                 "evidence_count": 40, "last_verification": "2026-02-12"}
  })";
  Json canon = Json::parse(canon_text);
  ASSERT_TRUE(IsDeadendsCanon(canon));
  Json native = ConvertDeadendsCanon(canon);
  EXPECT_FALSE(IsDeadendsCanon(native));
  EXPECT_EQ(native["id"], "cuda/example/cuda12-linux");
  EXPECT_EQ(native["signature"], "CUDA error: example");
  EXPECT_EQ(native["regex"], "example");
  EXPECT_EQ(native["domain"], "cuda");
  EXPECT_EQ(native["category"], "runtime_error");
  EXPECT_EQ(native["root_cause"], "Why it happens.");
  EXPECT_EQ(native["versions"][0]["version"], "cuda >=12.0,<13.0");
  EXPECT_EQ(native["os_specific"], Json::parse(R"({"linux": null})"));
  EXPECT_EQ(native["verification_tier"], "human_reviewed");
  EXPECT_EQ(native["evidence_count"], 40);
  EXPECT_EQ(native["resolvable"], "partial");
  EXPECT_EQ(native["fix_success_rate"], 0.6);
  EXPECT_EQ(native["confidence"], 0.7);
  EXPECT_EQ(native["first_seen"], "2023-01-01");
  EXPECT_EQ(native["last_confirmed"], "2026-02-12");
  EXPECT_EQ(native["last_updated"], "2026-02-12");
  EXPECT_EQ(native["workarounds"][0]["tradeoff"], "Slower start");
  EXPECT_EQ(native["dead_ends"][0]["common_misconception"], "It is a driver bug");
  EXPECT_EQ(native["transition_graph"]["leads_to"][0]["typical_delay"], "minutes");
  // What has no native home is kept, nested as in the canon.
  EXPECT_EQ(native["x_deadends"]["url"], "https://example.invalid/cuda/example");
  EXPECT_EQ(native["x_deadends"]["environment"]["hardware"]["gpu"], "A100");
  EXPECT_EQ(native["x_deadends"]["metadata"]["generated_by"], "manual");
  EXPECT_FALSE(native["x_deadends"].contains("error"));
  EXPECT_FALSE(native["x_deadends"].contains("verdict"));
  // And the way back gives the same document.
  EXPECT_EQ(nlohmann::json::parse(ConvertNativeToDeadends(native).dump()), nlohmann::json::parse(canon_text));
}

TEST(DeadendsImport, OsAnyMeansNoOsSpecificEntry) {
  Json canon = Json::parse(R"({"id": "a/b/c", "error": {"signature": "s"}, "environment": {"os": "any"}})");
  Json native = ConvertDeadendsCanon(canon);
  EXPECT_EQ(native["os_specific"], Json::object());
  EXPECT_EQ(ConvertNativeToDeadends(native)["environment"]["os"], "any");
}

// All 2,522 corpus records load, and each converts back to exactly the
// canon document it came from: the mapping loses nothing.
TEST(DeadendsImport, WholeCorpusIsLossless) {
  KEDB_REQUIRE_SHARED(shared);
  const fs::path canons = shared / "corpora" / "deadends" / "canons";
  LoadReport report;
  auto kb = KnowledgeBase::Load(canons.string(), LoadOptions{}, &report);
  ASSERT_TRUE(kb.ok()) << kb.status().message();
  EXPECT_EQ(report.documents, 2522u);
  EXPECT_EQ(report.rejected, 0u);
  EXPECT_EQ(report.deadends, 2522u);
  EXPECT_EQ(kb->size(), 2522u);
  EXPECT_EQ(report.errors(), 0u);
  EXPECT_EQ(report.warnings(), 0u) << (report.diagnostics.empty() ? "" : report.diagnostics[0].ToString());
  std::size_t checked = 0;
  for (const Record& r : kb->records()) {
    nlohmann::json original = nlohmann::json::parse(ReadFile(r.origin.file));
    nlohmann::json back = nlohmann::json::parse(ConvertNativeToDeadends(Json::parse(r.json)).dump());
    ASSERT_EQ(back, original) << r.origin.file;
    EXPECT_EQ(r.attribution, "deadends.dev (CC BY 4.0)");
    ++checked;
  }
  EXPECT_EQ(checked, 2522u);
}

// import -> files; import again -> the same bytes; import the output
// (native) -> the same bytes again.
TEST(DeadendsImport, ReimportAndRoundTripChangeNothing) {
  KEDB_REQUIRE_SHARED(shared);
  const fs::path canons = shared / "corpora" / "deadends" / "canons";
  TempDir tmp;
  auto first = KnowledgeBase::Load(canons.string(), LoadOptions{});
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(WriteNativeTree(*first, (tmp.path() / "a").string()).ok());
  auto again = KnowledgeBase::Load(canons.string(), LoadOptions{});
  ASSERT_TRUE(WriteNativeTree(*again, (tmp.path() / "b").string()).ok());
  LoadReport native_report;
  auto native = KnowledgeBase::Load((tmp.path() / "a").string(), LoadOptions{.strict = true}, &native_report);
  ASSERT_TRUE(native.ok()) << native.status().message();
  EXPECT_EQ(native_report.native, 2522u);
  ASSERT_TRUE(WriteNativeTree(*native, (tmp.path() / "c").string()).ok());

  auto a = ReadTree(tmp.path() / "a");
  EXPECT_EQ(a.size(), 2522u);
  EXPECT_TRUE(a.count("cuda/cuda-system-not-ready/cuda12-linux.json"));
  EXPECT_EQ(a, ReadTree(tmp.path() / "b"));
  EXPECT_EQ(a, ReadTree(tmp.path() / "c"));
}

}  // namespace
}  // namespace kedb
