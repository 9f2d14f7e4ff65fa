// The record model: seeds load with every field typed, load-then-save is
// lossless, and a record built in code writes a native document that reads
// back to the same record.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kedb/knowledge_base.h"
#include "kedb/record.h"
#include "record/json_text.h"
#include "record/record_parse.h"
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

// The evidence fields are typed like the rest: each problem names its field,
// and a record with one is refused while the others still load.
TEST(Record, EvidenceFieldsAreChecked) {
  const std::string text = R"({"id": "t/evidence", "signature": "boom", "regex": "boom", "domain": "t",
    "sources": ["https://example.invalid/a", "see the wiki"],
    "occurrences": [{"text": "boom", "source": "https://example.invalid/a"}, {"text": "boom"},
                    {"text": "", "source": "ftp://example.invalid/b", "belongs_to": "t/x"}],
    "counterexamples": [{"text": "bang", "source": "https://example.invalid/c", "belongs_to": "t/bang"}, "bang"],
    "verification_note": 7})";
  Json doc;
  ASSERT_TRUE(ParseJson(text, JsonLimits{}, &doc).ok());
  Record r;
  std::vector<FieldIssue> issues;
  EXPECT_FALSE(RecordFromJson(doc, &r, &issues));
  std::vector<std::string> found;
  for (const FieldIssue& i : issues) found.push_back(FormatPath(i.path) + ": " + i.message);
  EXPECT_EQ(found, (std::vector<std::string>{
                       "sources[1]: \"see the wiki\" is not an http(s) URL",
                       "occurrences[1].source: required field is missing",
                       "occurrences[2].text: must not be empty",
                       "occurrences[2].source: \"ftp://example.invalid/b\" is not an http(s) URL",
                       "occurrences[2].belongs_to: unknown field (prefix extensions with x_ to keep them without a "
                       "warning)",
                       "counterexamples[1]: expected an object, found a string",
                       "verification_note: expected a string or null, found an integer",
                   }));
  ASSERT_EQ(r.counterexamples.size(), 2u);
  EXPECT_EQ(r.counterexamples[0].belongs_to, "t/bang");
}

// --- writing records built in code ------------------------------------------

// Reads `text` the way the loader reads a native file (ParseJson, then
// RecordFromJson), failing the test on any finding, warnings included.
Record ReadRecordText(const std::string& text) {
  Json doc;
  Status err = ParseJson(text, JsonLimits{}, &doc);
  EXPECT_TRUE(err.ok()) << err.message() << "\n" << text;
  Record r;
  std::vector<FieldIssue> issues;
  EXPECT_TRUE(RecordFromJson(doc, &r, &issues)) << text;
  for (const FieldIssue& i : issues) ADD_FAILURE() << FormatPath(i.path) << ": " << i.message << "\n" << text;
  return r;
}

std::string DateText(const std::optional<Date>& d) { return d ? d->ToString() : "(none)"; }

void ExpectSameEdges(const std::vector<Edge>& a, const std::vector<Edge>& b, const char* what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(a[i].error_id, b[i].error_id);
    EXPECT_EQ(a[i].plain, b[i].plain);
    EXPECT_EQ(a[i].probability, b[i].probability);
    EXPECT_EQ(a[i].condition, b[i].condition);
    EXPECT_EQ(a[i].distinction, b[i].distinction);
    EXPECT_EQ(a[i].typical_delay, b[i].typical_delay);
  }
}

void ExpectSameRemedies(const Record& a, const Record& b) {
  ASSERT_EQ(a.versions.size(), b.versions.size());
  for (std::size_t i = 0; i < a.versions.size(); ++i) {
    const VersionEntry &x = a.versions[i], &y = b.versions[i];
    EXPECT_EQ(x.version, y.version);
    EXPECT_EQ(x.introduced, y.introduced);
    EXPECT_EQ(x.deprecated, y.deprecated);
    EXPECT_EQ(x.removed, y.removed);
    EXPECT_EQ(x.behavior_change, y.behavior_change);
    EXPECT_EQ(x.status, y.status);
  }
  EXPECT_EQ(a.os_specific, b.os_specific);
  ASSERT_EQ(a.dead_ends.size(), b.dead_ends.size());
  for (std::size_t i = 0; i < a.dead_ends.size(); ++i) {
    const DeadEnd &x = a.dead_ends[i], &y = b.dead_ends[i];
    EXPECT_EQ(x.action, y.action);
    EXPECT_EQ(x.why_fails, y.why_fails);
    EXPECT_EQ(x.fail_rate, y.fail_rate);  // exact: rates are written in full precision
    EXPECT_EQ(x.condition, y.condition);
    EXPECT_EQ(x.sources, y.sources);
    EXPECT_EQ(x.common_misconception, y.common_misconception);
    EXPECT_EQ(x.tradeoff, y.tradeoff);
  }
  ASSERT_EQ(a.workarounds.size(), b.workarounds.size());
  for (std::size_t i = 0; i < a.workarounds.size(); ++i) {
    const Workaround &x = a.workarounds[i], &y = b.workarounds[i];
    EXPECT_EQ(x.action, y.action);
    EXPECT_EQ(x.success_rate, y.success_rate);
    EXPECT_EQ(x.how, y.how);
    EXPECT_EQ(x.condition, y.condition);
    EXPECT_EQ(x.sources, y.sources);
    EXPECT_EQ(x.tradeoff, y.tradeoff);
  }
  EXPECT_EQ(a.workarounds_zh, b.workarounds_zh);
  ExpectSameEdges(a.transition_graph.leads_to, b.transition_graph.leads_to, "leads_to");
  ExpectSameEdges(a.transition_graph.preceded_by, b.transition_graph.preceded_by, "preceded_by");
  ExpectSameEdges(a.transition_graph.frequently_confused_with, b.transition_graph.frequently_confused_with,
                  "frequently_confused_with");
}

// Every field that a native document carries. json and origin are not in
// the document: the loader sets them from the file, so they are left out.
void ExpectSameFields(const Record& a, const Record& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.signature, b.signature);
  EXPECT_EQ(a.signature_zh, b.signature_zh);
  EXPECT_EQ(a.regex, b.regex);
  EXPECT_EQ(a.domain, b.domain);
  EXPECT_EQ(a.category, b.category);
  EXPECT_EQ(a.subcategory, b.subcategory);
  EXPECT_EQ(a.root_cause, b.root_cause);
  EXPECT_EQ(a.root_cause_type, b.root_cause_type);
  EXPECT_EQ(a.root_cause_zh, b.root_cause_zh);
  ExpectSameRemedies(a, b);
  EXPECT_EQ(a.official_doc_url, b.official_doc_url);
  EXPECT_EQ(a.official_doc_section, b.official_doc_section);
  EXPECT_EQ(a.error_code, b.error_code);
  EXPECT_EQ(a.verification_tier, b.verification_tier);
  EXPECT_EQ(a.confidence, b.confidence);
  EXPECT_EQ(a.fix_success_rate, b.fix_success_rate);
  EXPECT_STREQ(ResolvableName(a.resolvable), ResolvableName(b.resolvable));
  EXPECT_EQ(DateText(a.first_seen), DateText(b.first_seen));
  EXPECT_EQ(DateText(a.last_confirmed), DateText(b.last_confirmed));
  EXPECT_EQ(DateText(a.last_updated), DateText(b.last_updated));
  EXPECT_EQ(a.evidence_count, b.evidence_count);
  EXPECT_EQ(a.tags, b.tags);
  EXPECT_EQ(a.locale, b.locale);
  EXPECT_EQ(a.aliases, b.aliases);
  EXPECT_EQ(a.verification_note, b.verification_note);
  EXPECT_EQ(a.sources, b.sources);
  EXPECT_EQ(a.occurrences, b.occurrences);
  EXPECT_EQ(a.counterexamples, b.counterexamples);
  EXPECT_EQ(a.attribution, b.attribution);
  // The whole record too (Record::operator== is defaulted), so that a member
  // added later and missed by the writer and by the lines above still fails.
  Record x = a, y = b;
  x.json = y.json = "";
  x.origin = y.origin = Origin{};
  EXPECT_TRUE(x == y) << "the records differ in a field not compared above";
}

Edge MakeEdge(std::string id, bool plain = false) {
  Edge e;
  e.error_id = std::move(id);
  e.plain = plain;
  return e;
}

// A record with every field set, built the way code (not a file) builds one.
Record FullRecord() {
  Record r = testing::MakeRecord("t/full-record", "FooError: the widget \"w\" broke", "FooError: the widget .* broke");
  r.signature_zh = "FooError：部件 \"w\" 损坏";
  r.category = "runtime_error";
  r.subcategory = "allocator";
  r.root_cause = "The widget pool is sized at import time.\nLater growth is refused.";
  r.root_cause_type = "configuration";
  r.root_cause_zh = "部件池在导入时确定大小。";
  r.versions = {{"cuda >=12.0,<13.0", "12.0", "12.4", "13.0", "checks are strict", "active"},
                {"PyTorch 2.2", "", "", "", "", ""}};
  r.os_specific = {{"linux", "needs libwidget"}, {"windows", ""}, {"macos", "not affected"}};
  r.dead_ends = {{"reinstall the driver", "the pool size is not the driver's", 0.8, "conda installs",
                  {"https://example.invalid/a", "https://example.invalid/b"}, "the driver is at fault", "an hour lost"},
                 {"", "text only", 0.0, "", {}, "", ""}};
  r.workarounds = {{"pin widget 1.2", 0.95, "pip install widget==1.2", "pip installs", {"https://example.invalid/c"},
                    "loses 1.3 features"},
                   {"restart", 1.0, "", "", {}, ""}};
  r.workarounds_zh = {"固定 widget 1.2", "重新启动"};
  Edge next = MakeEdge("t/next");
  next.probability = 1.0 / 3;
  next.condition = "under load";
  next.typical_delay = "minutes";
  r.transition_graph.leads_to = {MakeEdge("t/plain-next", /*plain=*/true), next};
  Edge before = MakeEdge("t/before");
  before.probability = 0.0;  // present, unlike an absent probability
  r.transition_graph.preceded_by = {before};
  Edge lookalike = MakeEdge("t/lookalike");
  lookalike.distinction = "says gadget";
  r.transition_graph.frequently_confused_with = {lookalike};
  r.official_doc_url = "https://example.invalid/docs#pool";
  r.official_doc_section = "3.2 Limits";
  r.error_code = "WIDGET_E42 (5)";
  r.verification_tier = "community_verified";
  r.confidence = 0.1 + 0.2;  // 0.30000000000000004: needs all 17 digits
  r.fix_success_rate = 0.75;
  r.resolvable = Resolvable::kPartial;
  r.first_seen = Date{2023, 1, 31};
  r.last_confirmed = Date{2024, 2, 29};
  r.last_updated = Date{2024, 6, 1};
  r.evidence_count = 12;
  r.tags = {"gpu", "memory"};
  r.locale = "zh";
  r.aliases = {"t/old-name"};
  r.verification_note = "Checked against the widget's manual.";
  r.sources = {"https://example.invalid/issues/1"};
  r.occurrences = {{"FooError: the widget \"w\" broke\n  at pool.c:12", "https://example.invalid/issues/1", "", "as pasted"}};
  r.counterexamples = {{"FooError: the gadget broke", "https://example.invalid/issues/2", "t/lookalike", ""}};
  // The only attribution the native format can carry (see record_write.cc).
  r.attribution = "deadends.dev (CC BY 4.0)";
  return r;
}

std::vector<std::string> Keys(const Json& obj) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : obj.items()) keys.push_back(k);
  return keys;
}

TEST(RecordWrite, EveryFieldRoundTrips) {
  const Record original = FullRecord();
  ASSERT_TRUE(original.json.empty());
  const std::string text = FormatRecordFile(original);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  ExpectSameFields(ReadRecordText(text), original);
  // The seeds' key order, then the extension that carries the attribution.
  EXPECT_EQ(Keys(Json::parse(text)),
            (std::vector<std::string>{"id", "signature", "signature_zh", "regex", "domain", "category",
                                      "subcategory", "root_cause", "root_cause_type", "root_cause_zh", "versions",
                                      "os_specific", "dead_ends", "workarounds", "workarounds_zh",
                                      "transition_graph", "official_doc_url", "official_doc_section", "error_code",
                                      "verification_tier", "verification_note", "confidence", "fix_success_rate",
                                      "resolvable", "first_seen", "last_confirmed", "last_updated", "evidence_count",
                                      "tags", "locale", "aliases", "sources", "occurrences", "counterexamples",
                                      "x_deadends"}));
  EXPECT_NE(text.find("部件池"), std::string::npos) << "non-ASCII text is written as is, not \\u-escaped";
  EXPECT_EQ(FormatRecordFile(original), text) << "the same record always gives the same bytes";
}

TEST(RecordWrite, EveryResolvableValueRoundTrips) {
  for (Resolvable v : {Resolvable::kUnknown, Resolvable::kTrue, Resolvable::kPartial, Resolvable::kFalse}) {
    Record r = testing::MakeRecord("t/r", "boom", "boom");
    r.resolvable = v;
    EXPECT_EQ(ReadRecordText(FormatRecordFile(r)).resolvable, v) << ResolvableName(v);
  }
}

// True when some object or array under `v` (or `v` itself) is empty.
bool HasEmptyContainer(const Json& v) {
  if (!v.is_structured()) return false;
  if (v.empty()) return true;
  for (const auto& [k, child] : v.items()) {
    if (HasEmptyContainer(child)) return true;
  }
  return false;
}

TEST(RecordWrite, RequiredFieldsOnlyWriteNoEmptyValues) {
  const Record original = testing::MakeRecord("t/minimal", "boom", "bo+m");
  const std::string text = FormatRecordFile(original);
  EXPECT_EQ(text, "{\n  \"id\": \"t/minimal\",\n  \"signature\": \"boom\",\n  \"regex\": \"bo+m\",\n"
                  "  \"domain\": \"t\"\n}\n");
  ExpectSameFields(ReadRecordText(text), original);
}

TEST(RecordWrite, NestedEntriesWithRequiredFieldsOnlyWriteNoEmptyValues) {
  Record original = testing::MakeRecord("t/nested", "boom", "boom");
  original.versions.emplace_back().version = "widget 1.0";
  DeadEnd& dead_end = original.dead_ends.emplace_back();
  dead_end.action = "retry";
  dead_end.why_fails = "it is not transient";
  dead_end.fail_rate = 1.0;
  Workaround& workaround = original.workarounds.emplace_back();
  workaround.action = "upgrade";
  workaround.success_rate = 0.5;
  original.transition_graph.leads_to = {MakeEdge("t/plain", /*plain=*/true)};
  original.transition_graph.preceded_by = {MakeEdge("t/object")};  // not plain: an object
  const std::string text = FormatRecordFile(original);
  Json doc = Json::parse(text);
  EXPECT_FALSE(HasEmptyContainer(doc)) << text;
  EXPECT_EQ(doc["versions"], Json::parse(R"([{"version": "widget 1.0"}])"));
  EXPECT_EQ(doc["dead_ends"], Json::parse(R"([{"action": "retry", "why_fails": "it is not transient",
                                               "fail_rate": 1.0}])"));
  EXPECT_EQ(doc["workarounds"], Json::parse(R"([{"action": "upgrade", "success_rate": 0.5}])"));
  EXPECT_EQ(doc["transition_graph"],
            Json::parse(R"({"leads_to": ["t/plain"], "preceded_by": [{"error_id": "t/object"}]})"));
  ExpectSameFields(ReadRecordText(text), original);
}

// A loaded record is written from its own text, not from its typed fields:
// what only the text holds (x_ fields, unknown fields, key order) survives,
// and text already in the canonical layout comes back unchanged.
TEST(RecordWrite, LoadedRecordKeepsItsText) {
  testing::TempDir tmp;
  const std::string text =
      "{\n  \"x_first\": {\n    \"b\": 1,\n    \"a\": [\n      \"kept\"\n    ]\n  },\n  \"id\": \"t/loaded\",\n"
      "  \"regex\": \"boom\",\n  \"signature\": \"boom\",\n  \"signature_zh\": \"爆炸\",\n  \"domain\": \"t\",\n"
      "  \"subcategory\": null,\n  \"tags\": [],\n  \"confidence\": 0.5\n}\n";
  testing::WriteFile(tmp.path() / "r.json", text);
  auto kb = KnowledgeBase::Load((tmp.path() / "r.json").string(), LoadOptions{.strict = true});
  ASSERT_TRUE(kb.ok()) << kb.status().message();
  ASSERT_EQ(kb->size(), 1u);
  EXPECT_EQ(FormatRecordFile(kb->records()[0]), text);
}

// The seed records: read as the loader reads them, written from the typed
// fields alone, read again. The written documents differ from the seeds
// (empty values are left out) but must read back to the same record.
TEST(RecordWrite, SeedsRoundTripThroughTypedFields) {
  const std::filesystem::path seeds = std::filesystem::path(KEDB_SHARED_DIR) / "seeds";
  if (!std::filesystem::is_directory(seeds)) {
    GTEST_SKIP() << seeds.string() << " is absent: seed round-trip test skipped";
  }
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(seeds)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("000", 0) != 0 && name.rfind("001", 0) != 0 && name.rfind("002", 0) != 0) continue;
    SCOPED_TRACE(name);
    auto kb = KnowledgeBase::Load(entry.path().string(), LoadOptions{.strict = true});
    ASSERT_TRUE(kb.ok()) << kb.status().message();
    ASSERT_EQ(kb->size(), 1u);
    Record loaded = kb->records()[0];
    loaded.json.clear();
    const std::string written = FormatRecordFile(loaded);
    EXPECT_FALSE(HasEmptyContainer(Json::parse(written))) << written;
    ExpectSameFields(ReadRecordText(written), loaded);
    ++checked;
  }
  EXPECT_EQ(checked, 3);
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
