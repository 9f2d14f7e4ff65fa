// The record model: seeds load with every field typed, and load-then-save is
// lossless.
#include <gtest/gtest.h>

#include "kedb/knowledge_base.h"
#include "kedb/record.h"
#include "record/json_text.h"
#include "test_util.h"

namespace kedb {
namespace {

using testing::SourceDir;

KnowledgeBase LoadBundled() {
  LoadReport report;
  auto kb = KnowledgeBase::Load((SourceDir() / "kb").string(), LoadOptions{}, &report);
  EXPECT_TRUE(kb.ok()) << kb.status().message();
  EXPECT_EQ(report.errors(), 0u);
  return std::move(kb).value();
}

TEST(Date, ParsesRealDatesOnly) {
  auto d = Date::Parse("2024-02-29");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->ToString(), "2024-02-29");
  EXPECT_FALSE(Date::Parse("2023-02-29"));
  EXPECT_FALSE(Date::Parse("2024-13-01"));
  EXPECT_FALSE(Date::Parse("2024-1-01"));
  EXPECT_FALSE(Date::Parse("yesterday"));
  EXPECT_EQ(Date::Parse("1970-01-02")->DaysSinceEpoch(), 1);
  EXPECT_EQ(Date::Parse("2024-06-01")->DaysSinceEpoch() - Date::Parse("2023-06-01")->DaysSinceEpoch(), 366);
  EXPECT_LT(*Date::Parse("2023-06-20"), *Date::Parse("2024-06-01"));
}

TEST(Record, SeedFieldsAreTyped) {
  KnowledgeBase kb = LoadBundled();
  ASSERT_GE(kb.size(), 80u);
  const Record* r = kb.Find("cuda/cudnn-bn-epsilon-nan");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->signature, "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0");
  EXPECT_EQ(r->regex, "CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon");
  EXPECT_EQ(r->domain, "cuda");
  EXPECT_EQ(r->category, "type_error");
  EXPECT_TRUE(r->subcategory.empty());
  EXPECT_EQ(r->root_cause_type, "generic");
  ASSERT_EQ(r->versions.size(), 4u);
  EXPECT_EQ(r->versions[0].version, "cuDNN 8.6");
  EXPECT_EQ(r->versions[0].status, "active");
  ASSERT_EQ(r->dead_ends.size(), 2u);
  EXPECT_DOUBLE_EQ(r->dead_ends[1].fail_rate, 0.8);
  ASSERT_EQ(r->workarounds.size(), 2u);
  EXPECT_DOUBLE_EQ(r->workarounds[0].success_rate, 0.95);
  EXPECT_EQ(r->workarounds_zh.size(), 2u);
  EXPECT_EQ(r->error_code, "CUDNN_STATUS_BAD_PARAM");
  EXPECT_EQ(r->verification_tier, "ai_generated");
  EXPECT_DOUBLE_EQ(*r->confidence, 0.9);
  EXPECT_DOUBLE_EQ(*r->fix_success_rate, 0.95);
  EXPECT_EQ(r->resolvable, Resolvable::kTrue);
  EXPECT_EQ(r->first_seen->ToString(), "2023-06-20");
  EXPECT_EQ(r->last_confirmed->ToString(), "2024-06-01");
  EXPECT_EQ(r->evidence_count, 1);
  EXPECT_EQ(r->locale, "en");
  EXPECT_EQ(kb.Find("cuda/cudnn-rnn-double-backward")->resolvable, Resolvable::kPartial);
  EXPECT_EQ(kb.Find("cuda/cudnn-rnn-double-backward")->error_code, "CUDNN_STATUS_NOT_SUPPORTED (5)");
  EXPECT_TRUE(r->attribution.empty());
}

// Every seed .txt loads as it is and saves to the same JSON value, byte for
// byte apart from the final newline.
TEST(Record, SeedsRoundTripLosslessly) {
  KEDB_REQUIRE_SHARED(shared);
  for (const auto& entry : std::filesystem::directory_iterator(shared / "seeds")) {
    std::string name = entry.path().filename().string();
    if (name.rfind("003", 0) == 0) continue;  // an issue thread, not a record
    SCOPED_TRACE(name);
    auto kb = KnowledgeBase::Load(entry.path().string(), LoadOptions{.strict = true});
    ASSERT_TRUE(kb.ok()) << kb.status().message();
    ASSERT_EQ(kb->size(), 1u);
    std::string original = testing::ReadFile(entry.path());
    std::string saved = FormatRecordFile(kb->records()[0]);
    EXPECT_EQ(Json::parse(saved), Json::parse(original));
    EXPECT_EQ(saved, original + (original.back() == '\n' ? "" : "\n"));
  }
}

TEST(Record, UnknownFieldsKeepTheirOrder) {
  testing::TempDir tmp;
  const std::string text = R"({"x_first": 1, "id": "t/order", "zeta": {"b": 1, "a": 2}, "signature": "boom",
    "regex": "boom", "domain": "t", "alpha": [3, 2, 1], "transition_graph": {"leads_to": ["t/other",
    {"error_id": "t/next", "probability": 0.25, "condition": "when ignored", "x_note": "kept"}]}})";
  testing::WriteFile(tmp.path() / "r.json", text);
  LoadReport report;
  auto kb = KnowledgeBase::Load((tmp.path() / "r.json").string(), LoadOptions{}, &report);
  ASSERT_TRUE(kb.ok());
  ASSERT_EQ(kb->size(), 1u);
  const Record& r = kb->records()[0];
  Json saved = Json::parse(FormatRecordFile(r));
  EXPECT_EQ(saved, Json::parse(text));  // ordered comparison: key order kept
  std::vector<std::string> keys;
  for (const auto& [k, v] : saved.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"x_first", "id", "zeta", "signature", "regex", "domain", "alpha",
                                            "transition_graph"}));
  ASSERT_EQ(r.transition_graph.leads_to.size(), 2u);
  EXPECT_TRUE(r.transition_graph.leads_to[0].plain);
  EXPECT_EQ(r.transition_graph.leads_to[0].error_id, "t/other");
  EXPECT_FALSE(r.transition_graph.leads_to[1].plain);
  EXPECT_DOUBLE_EQ(*r.transition_graph.leads_to[1].probability, 0.25);
  EXPECT_EQ(r.transition_graph.leads_to[1].condition, "when ignored");
  // zeta and alpha are unknown: warned about, never dropped.
  EXPECT_EQ(report.warnings(), 2u);
}

TEST(JsonText, LocatesFieldPaths) {
  const std::string text = "{\n  \"a\": 1,\n  \"list\": [\n    {\"x\": 2},\n    {\"x\": 3.5, \"y\": \"s\"}\n  ]\n}";
  auto at = [&](const JsonPath& p) {
    auto off = LocateJsonPath(text, p);
    if (!off) return std::string("none");
    auto lc = OffsetToLineColumn(text, *off);
    return std::to_string(lc.line) + ":" + std::to_string(lc.column);
  };
  EXPECT_EQ(at({std::string("a")}), "2:8");
  EXPECT_EQ(at({std::string("list")}), "3:11");
  EXPECT_EQ(at({std::string("list"), std::size_t{1}}), "5:5");
  EXPECT_EQ(at({std::string("list"), std::size_t{1}, std::string("x")}), "5:11");
  EXPECT_EQ(at({std::string("list"), std::size_t{1}, std::string("y")}), "5:21");
  EXPECT_EQ(at({std::string("missing")}), "none");
  EXPECT_EQ(FormatPath({std::string("dead_ends"), std::size_t{1}, std::string("fail_rate")}), "dead_ends[1].fail_rate");
}

}  // namespace
}  // namespace kedb
