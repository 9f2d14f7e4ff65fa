// Loading knowledge bases from every supported source.
#include <gtest/gtest.h>

#include "kedb/knowledge_base.h"
#include "test_util.h"

namespace kedb {
namespace {

using testing::TempDir;
using testing::WriteFile;

TEST(KbLoad, JsonlFileWithLineNumbers) {
  TempDir tmp;
  WriteFile(tmp.path() / "kb.jsonl",
            R"({"id": "t/a", "signature": "A failed", "regex": "A failed", "domain": "t"})"
            "\n"
            R"({"id": "t/b", "signature": "B failed", "regex": "B failed", "domain": "t", "confidence": 2})"
            "\n");
  LoadReport report;
  auto kb = KnowledgeBase::Load((tmp.path() / "kb.jsonl").string(), LoadOptions{}, &report);
  ASSERT_TRUE(kb.ok());
  EXPECT_EQ(kb->size(), 1u);
  ASSERT_EQ(report.diagnostics.size(), 1u);
  EXPECT_EQ(report.diagnostics[0].line, 2);
  EXPECT_EQ(report.diagnostics[0].column, 90);
  EXPECT_EQ(report.diagnostics[0].field, "confidence");
  EXPECT_EQ(kb->records()[0].origin.format, Origin::Format::kJsonl);
}

TEST(KbLoad, DirectoryMixesNativeAndCanonRecords) {
  TempDir tmp;
  WriteFile(tmp.path() / "native" / "a.json",
            R"({"id": "t/a", "signature": "A failed", "regex": "A failed", "domain": "t"})");
  WriteFile(tmp.path() / "canon" / "b.json",
            R"({"id": "t/b/env", "error": {"signature": "B failed", "regex": "B", "domain": "t"},
                "verdict": {"summary": "why", "fix_success_rate": 1.5}})");
  WriteFile(tmp.path() / ".hidden" / "c.json", "not json at all");
  WriteFile(tmp.path() / "notes.txt", "not a record");
  LoadReport report;
  auto kb = KnowledgeBase::Load(tmp.path().string(), LoadOptions{}, &report);
  ASSERT_TRUE(kb.ok());
  EXPECT_EQ(report.documents, 2u);  // hidden folders and non-.json files are skipped
  EXPECT_EQ(kb->size(), 1u);
  ASSERT_EQ(report.diagnostics.size(), 1u);
  // The finding names the native field and points into the canon file.
  EXPECT_EQ(report.diagnostics[0].field, "fix_success_rate");
  EXPECT_EQ(report.diagnostics[0].line, 2);
  EXPECT_EQ(report.diagnostics[0].column, 67);
}

TEST(KbLoad, BundledKnowledgeBaseIsClean) {
  LoadReport report;
  auto kb = KnowledgeBase::Load((testing::SourceDir() / "kb").string(), LoadOptions{.strict = true}, &report);
  ASSERT_TRUE(kb.ok()) << kb.status().message();
  EXPECT_GE(kb->size(), 3u);
  EXPECT_NE(kb->Find("cuda/cudnn-bn-epsilon-nan"), nullptr);
  EXPECT_NE(kb->Find("cuda/cudnn-batch-norm-bad-param"), nullptr);
  EXPECT_NE(kb->Find("cuda/cudnn-rnn-double-backward"), nullptr);
  EXPECT_EQ(kb->Find("no/such-id"), nullptr);
}

}  // namespace
}  // namespace kedb
