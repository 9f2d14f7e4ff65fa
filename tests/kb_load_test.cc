// Loading knowledge bases from every supported source.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

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

// Records are read on both cores in batches: a large file loads as if
// read in one pass. Records keep their order, every problem is reported
// at its own line and in line order, and of two records with one id the
// first is kept, across batches.
TEST(KbLoad, ALargeFileLoadsAsInOnePass) {
  TempDir tmp;
  std::string text;
  std::vector<int> broken, duplicate, bad_field;
  for (int i = 1; i <= 10000; ++i) {
    if (i % 997 == 0) {
      text += "{\"id\": \"t/broken\", \"signature\": \n";  // malformed JSON
      broken.push_back(i);
    } else if (i % 1409 == 0) {
      text += "{\"id\": \"t/r" + std::to_string(i - 1000) + "\", \"signature\": \"late copy\", \"regex\": \"x\", \"domain\": \"t\"}\n";
      duplicate.push_back(i);
    } else if (i % 1201 == 0) {
      text += "{\"id\": \"t/r" + std::to_string(i) + "\", \"signature\": \"S\", \"regex\": \"S\", \"domain\": \"t\", \"confidence\": 7}\n";
      bad_field.push_back(i);
    } else {
      text += "{\"id\": \"t/r" + std::to_string(i) + "\", \"signature\": \"record " + std::to_string(i) +
              " failed\", \"regex\": \"record " + std::to_string(i) + " failed\", \"domain\": \"t\"}\n";
    }
  }
  WriteFile(tmp.path() / "kb.jsonl", text);
  LoadReport report;
  auto kb = KnowledgeBase::Load((tmp.path() / "kb.jsonl").string(), LoadOptions{}, &report);
  ASSERT_TRUE(kb.ok());
  EXPECT_EQ(report.documents, 10000u);
  // Every kept record in file order, each the first of its id.
  int last = 0;
  for (const Record& r : kb->records()) {
    EXPECT_GT(r.origin.line, last) << r.id;
    last = r.origin.line;
    EXPECT_EQ(r.id, "t/r" + std::to_string(r.origin.line));
    EXPECT_NE(r.signature, "late copy");
  }
  // One diagnostic per bad line, in line order, each at its own line.
  std::vector<int> lines;
  for (const Diagnostic& d : report.diagnostics) lines.push_back(d.line);
  EXPECT_TRUE(std::is_sorted(lines.begin(), lines.end()));
  for (int line : broken) EXPECT_EQ(std::count(lines.begin(), lines.end(), line), 1) << line;
  for (int line : duplicate) EXPECT_EQ(std::count(lines.begin(), lines.end(), line), 1) << line;
  for (int line : bad_field) EXPECT_EQ(std::count(lines.begin(), lines.end(), line), 1) << line;
  EXPECT_EQ(kb->size(), 10000u - broken.size() - duplicate.size() - bad_field.size());
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

// The diagnostics of one rule, "path: message" each, paths below `root`.
std::vector<std::string> Findings(const LoadReport& report, const std::string& rule, const std::filesystem::path& root) {
  std::vector<std::string> out;
  for (const auto& d : report.diagnostics) {
    if (d.rule == rule) out.push_back(d.file.substr(root.string().size() + 1) + ": " + d.message);
  }
  return out;
}

// Symlinks that lead back up the tree made the walk grow without end (two
// of them doubled it at every level); a loop of file links stopped the
// whole load. Each folder is now read once, and each link that is not
// followed is reported on its own path while the records still load.
TEST(KbLoad, SymlinkLoopsAreReportedAndTheRestLoads) {
  namespace fs = std::filesystem;
  TempDir tmp;
  const fs::path root = tmp.path() / "kb";
  WriteFile(root / "a" / "a.json", R"({"id": "t/a", "signature": "A failed", "regex": "A failed", "domain": "t"})");
  WriteFile(root / "b.json", R"({"id": "t/b", "signature": "B failed", "regex": "B failed", "domain": "t"})");
  WriteFile(tmp.path() / "outside" / "c.json",
            R"({"id": "t/c", "signature": "C failed", "regex": "C failed", "domain": "t"})");
  fs::create_directories(root / "a" / "deep");
  fs::create_directory_symlink("..", root / "a" / "deep" / "up1");
  fs::create_directory_symlink("../..", root / "a" / "deep" / "up2");
  fs::create_symlink("loop2.json", root / "loop1.json");
  fs::create_symlink("loop1.json", root / "loop2.json");
  fs::create_directory_symlink("a", root / "same-as-a");
  fs::create_directory_symlink(tmp.path() / "outside", root / "outside");
  fs::create_symlink("missing.json", root / "dangling.json");

  LoadReport report;
  auto kb = KnowledgeBase::Load(root.string(), LoadOptions{}, &report);
  ASSERT_TRUE(kb.ok()) << kb.status().message();
  ASSERT_EQ(kb->size(), 2u);  // t/a once, t/b; nothing from outside the tree
  EXPECT_EQ(kb->records()[0].id, "t/a");
  EXPECT_EQ(kb->records()[1].id, "t/b");
  const std::vector<std::string> want = {
      "a/deep/up1: a symlink loop: leads back to " + (root / "a").string() + ", which holds it; not followed",
      "a/deep/up2: a symlink loop: leads back to " + root.string() + ", which holds it; not followed",
      "dangling.json: a broken symlink: No such file or directory",
      "loop1.json: a symlink loop; not followed",
      "loop2.json: a symlink loop; not followed",
      "outside: a symlink that leads out of the knowledge base (to " +
          fs::canonical(tmp.path() / "outside").string() + "); not followed",
      "same-as-a: leads to " + (root / "a").string() + ", already read; not read twice",
  };
  EXPECT_EQ(Findings(report, "tree", root), want);
  for (const auto& d : report.diagnostics) {
    if (d.rule == "tree") {
      EXPECT_EQ(d.severity, d.file.ends_with("same-as-a") ? Severity::kWarning : Severity::kError) << d.file;
    }
  }
  EXPECT_EQ(report.rejected, 6u);  // the paths that are errors; the second path to a/ is only a warning

  // The cached load sees the same tree, and a new link changes its key.
  TempDir cache;
  LoadReport cached;
  auto again = KnowledgeBase::LoadCached(root.string(), LoadOptions{}, cache.path().string(), &cached);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->size(), 2u);
  EXPECT_EQ(Findings(cached, "tree", root), want);
  fs::create_directory_symlink(".", root / "a" / "self");
  LoadReport changed;
  again = KnowledgeBase::LoadCached(root.string(), LoadOptions{}, cache.path().string(), &changed);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(Findings(changed, "tree", root).size(), want.size() + 1);
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
