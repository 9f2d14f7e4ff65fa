// Deliberately broken inputs: each gets a precise finding (file, line,
// column, field, rule), and none stops the good records beside it from
// loading.
#include <algorithm>

#include <gtest/gtest.h>

#include "kedb/knowledge_base.h"
#include "kedb/lint.h"
#include "test_util.h"

namespace kedb {
namespace {

using testing::TempDir;
using testing::TestData;
using testing::WriteFile;

struct Expected {
  std::string file;  // file name in tests/data/broken
  std::string rule;
  int line, column;
  std::string field;
  std::string message_part;
};

class BrokenInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    auto kb = KnowledgeBase::Load((TestData() / "broken").string(), LoadOptions{}, &load_);
    ASSERT_TRUE(kb.ok()) << kb.status().message();
    kb_ = std::move(kb).value();
    report_ = Lint(kb_, load_, LintOptions{.today = *Date::Parse("2026-01-01")});
  }
  const Diagnostic* Find(const Expected& e) const {
    for (const auto& d : report_.diagnostics) {
      if (std::filesystem::path(d.file).filename() == e.file && d.rule == e.rule && d.field == e.field) return &d;
    }
    return nullptr;
  }

  LoadReport load_;
  KnowledgeBase kb_;
  LintReport report_;
};

TEST_F(BrokenInputs, EachGetsItsPreciseError) {
  const Expected cases[] = {
      {"bad_json.json", "json-syntax", 4, 3, "signature", "unexpected string literal"},
      {"binary.json", "json-syntax", 1, 1, "", "invalid literal"},
      {"truncated.json", "json-syntax", 30, 7, "versions[2]", "missing closing quote"},
      {"not_an_object.json", "schema", 1, 1, "", "expected a record object"},
      {"wrong_types.json", "schema", 7, 87, "workarounds[0].success_rate", "found a string"},
      {"wrong_types.json", "schema", 9, 11, "tags", "expected an array of strings"},
      {"wrong_types.json", "schema", 10, 17, "resolvable", "is not one of \"true\", \"partial\", \"false\""},
      {"wrong_types.json", "schema", 11, 21, "evidence_count", "whole number >= 0"},
      {"rate_range.json", "schema", 8, 88, "dead_ends[1].fail_rate", "1.7 is not in [0,1]"},
      {"rate_range.json", "schema", 10, 17, "confidence", "-0.2 is not in [0,1]"},
      {"bad_dates.json", "schema", 6, 17, "first_seen", "\"2024-13-01\" is not a date"},
      {"bad_dates.json", "schema", 7, 21, "last_confirmed", "\"yesterday\" is not a date"},
      {"missing_fields.json", "schema", 1, 1, "regex", "required field is missing"},
      {"missing_fields.json", "schema", 3, 16, "signature", "must not be empty"},
      {"missing_fields.json", "schema", 4, 17, "dead_ends[0].fail_rate", "required field is missing"},
      {"bad_id.json", "schema", 2, 9, "id", "is not a valid id"},
      {"dup_b.json", "duplicate-id", 2, 9, "id", "already defined in"},
      {"bad_regex.json", "regex-compile", 4, 12, "regex", "missing ), unterminated subpattern"},
      {"unknown_field.json", "unknown-field", 6, 17, "workaround", "unknown field"},
  };
  for (const auto& e : cases) {
    SCOPED_TRACE(e.file + " " + e.field);
    const Diagnostic* d = Find(e);
    ASSERT_NE(d, nullptr) << "no " << e.rule << " finding";
    EXPECT_EQ(d->line, e.line);
    EXPECT_EQ(d->column, e.column);
    EXPECT_NE(d->message.find(e.message_part), std::string::npos) << d->message;
    EXPECT_EQ(d->severity, e.rule == "unknown-field" ? Severity::kWarning : Severity::kError);
  }
}

TEST_F(BrokenInputs, GoodRecordsStillLoad) {
  // good.json, dup_a.json (first of the duplicates), unknown_field.json
  // (warnings only) and bad_regex.json (valid JSON; its regex is a lint error).
  EXPECT_EQ(kb_.size(), 4u);
  EXPECT_NE(kb_.Find("test/good-neighbour"), nullptr);
  EXPECT_EQ(kb_.Find("test/duplicate")->signature, "cudaErrorLaunchTimeout");
  EXPECT_NE(kb_.Find("test/unknown-field"), nullptr);
  EXPECT_EQ(load_.documents, 14u);
  EXPECT_EQ(load_.rejected, 10u);
}

TEST_F(BrokenInputs, StrictModeRefusesTheWholeKnowledgeBase) {
  auto kb = KnowledgeBase::Load((TestData() / "broken").string(), LoadOptions{.strict = true});
  ASSERT_FALSE(kb.ok());
  EXPECT_NE(kb.status().message().find("refusing the knowledge base"), std::string::npos);
  EXPECT_NE(kb.status().message().find("bad_dates.json:6:17"), std::string::npos) << kb.status().message();
}

TEST(BrokenInput, TenMegabyteStringIsRefusedWithItsField) {
  TempDir tmp;
  std::string big(10u << 20, 'a');
  WriteFile(tmp.path() / "big.json",
            "{\n  \"id\": \"t/big\",\n  \"signature\": \"x\",\n  \"root_cause\": \"" + big + "\",\n  \"regex\": \"x\"\n}\n");
  WriteFile(tmp.path() / "ok.json", R"({"id": "t/ok", "signature": "s", "regex": "s", "domain": "d"})");
  LoadReport report;
  auto kb = KnowledgeBase::Load(tmp.path().string(), LoadOptions{}, &report);
  ASSERT_TRUE(kb.ok());
  EXPECT_EQ(kb->size(), 1u);
  ASSERT_EQ(report.diagnostics.size(), 1u);
  const Diagnostic& d = report.diagnostics[0];
  EXPECT_EQ(d.rule, "json-syntax");
  EXPECT_EQ(d.field, "root_cause");
  EXPECT_EQ(d.line, 4);
  EXPECT_NE(d.message.find("longer than the 1048576-byte limit"), std::string::npos) << d.message;
}

TEST(BrokenInput, DeepNestingIsRefusedNotRecursed) {
  TempDir tmp;
  std::string deep = "{\"id\": \"t/deep\", \"x_nest\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  WriteFile(tmp.path() / "deep.json", deep);
  LoadReport report;
  auto kb = KnowledgeBase::Load(tmp.path().string(), LoadOptions{}, &report);
  ASSERT_TRUE(kb.ok());
  ASSERT_EQ(report.diagnostics.size(), 1u);
  EXPECT_EQ(report.diagnostics[0].rule, "json-syntax");
  EXPECT_NE(report.diagnostics[0].message.find("nesting deeper than 64 levels"), std::string::npos);
  EXPECT_EQ(report.diagnostics[0].line, 1);
  EXPECT_EQ(report.diagnostics[0].column, 28 + 63);  // the 64th '[' opens level 65
}

// A JSONL file with an over-long line in the middle: the line is reported
// with its number and skipped in bounded memory; the lines around it load.
TEST(BrokenInput, OverlongJsonlLineIsSkipped) {
  TempDir tmp;
  std::string line1 = R"({"id": "t/one", "signature": "s", "regex": "s", "domain": "d"})";
  std::string line3 = R"({"id": "t/three", "signature": "s", "regex": "s", "domain": "d"})";
  std::string huge = "{\"id\": \"t/huge\", \"signature\": \"" + std::string(3u << 20, 'z') + "\"}";
  WriteFile(tmp.path() / "kb.jsonl", line1 + "\n" + huge + "\n" + line3 + "\n\n{\"id\": 5}\n");
  LoadReport report;
  LoadOptions options;
  options.max_line_bytes = 1u << 20;
  auto kb = KnowledgeBase::Load((tmp.path() / "kb.jsonl").string(), options, &report);
  ASSERT_TRUE(kb.ok());
  EXPECT_EQ(kb->size(), 2u);
  ASSERT_GE(report.diagnostics.size(), 2u);
  EXPECT_EQ(report.diagnostics[0].rule, "read");
  EXPECT_EQ(report.diagnostics[0].line, 2);
  EXPECT_NE(report.diagnostics[0].message.find("longer than the 1048576-byte limit"), std::string::npos);
  // Line 5 (after a blank line) has a bad id type, located on its own line.
  auto it = std::find_if(report.diagnostics.begin(), report.diagnostics.end(),
                         [](const Diagnostic& d) { return d.field == "id"; });
  ASSERT_NE(it, report.diagnostics.end());
  const Diagnostic& bad = *it;
  EXPECT_EQ(bad.line, 5);
  EXPECT_EQ(bad.column, 8);
  EXPECT_EQ(bad.field, "id");
}

TEST(BrokenInput, OversizedRecordFileIsRefusedBeforeReading) {
  TempDir tmp;
  WriteFile(tmp.path() / "huge.json", std::string(2048, ' '));
  LoadOptions options;
  options.max_file_bytes = 1024;
  LoadReport report;
  auto kb = KnowledgeBase::Load(tmp.path().string(), options, &report);
  ASSERT_TRUE(kb.ok());
  ASSERT_EQ(report.diagnostics.size(), 1u);
  EXPECT_EQ(report.diagnostics[0].rule, "read");
  EXPECT_NE(report.diagnostics[0].message.find("over the 1024-byte limit"), std::string::npos);
}

TEST(BrokenInput, MissingPathIsAnError) {
  auto kb = KnowledgeBase::Load("/nonexistent/kedb/kb", LoadOptions{});
  ASSERT_FALSE(kb.ok());
  EXPECT_EQ(kb.status().code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace kedb
