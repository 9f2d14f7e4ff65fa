// Knowledge base snapshots: a load from a snapshot gives exactly what a
// load from the files gives, and a changed or damaged source is never
// served from a stale snapshot.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "kb/snapshot.h"
#include "kedb/engine.h"
#include "test_util.h"

namespace kedb {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

void ExpectSameLoad(const std::string& path) {
  LoadReport from_files;
  auto kb = KnowledgeBase::Load(path, LoadOptions{}, &from_files);
  ASSERT_TRUE(kb.ok()) << kb.status().message();
  TempDir cache;
  auto key = SnapshotKey(path, LoadOptions{});
  ASSERT_TRUE(key.has_value());
  std::string file = SnapshotPath(cache.path().string(), path, *key);
  ASSERT_TRUE(SaveSnapshot(file, *key, *kb, from_files));
  LoadReport from_snapshot;
  auto again = LoadSnapshot(file, *key, &from_snapshot);
  ASSERT_TRUE(again.has_value());
  ASSERT_EQ(again->size(), kb->size());
  for (std::size_t i = 0; i < kb->size(); ++i) {
    EXPECT_TRUE(again->records()[i] == kb->records()[i]) << kb->records()[i].id;
  }
  // Read in place, it answers by id and has the content key of the source.
  for (const Record& r : kb->records()) {
    const Record* found = again->Find(r.id);
    ASSERT_NE(found, nullptr) << r.id;
    EXPECT_EQ(found->id, r.id);
  }
  EXPECT_EQ(again->Find("no/such-record"), nullptr);
  EXPECT_EQ(again->content_key(), kb->content_key());
  // Each regex is kept apart, readable without decoding its record.
  for (std::size_t i = 0; i < kb->size(); ++i) {
    EXPECT_EQ(again->pattern(i), kb->record(i).regex);
    EXPECT_EQ(again->pattern_hash(i), kb->pattern_hash(i));
  }
  EXPECT_EQ(from_snapshot.diagnostics, from_files.diagnostics);
  EXPECT_EQ(from_snapshot.documents, from_files.documents);
  EXPECT_EQ(from_snapshot.rejected, from_files.rejected);
  // Another key never reads this snapshot.
  EXPECT_FALSE(LoadSnapshot(file, *key + 1, nullptr).has_value());
}

TEST(Snapshot, GivesTheSameRecordsAndDiagnostics) {
  ExpectSameLoad((testing::SourceDir() / "kb").string());
  // Broken inputs: the snapshot must carry their diagnostics too.
  ExpectSameLoad(testing::TestData().string() + "/broken");
}

TEST(Snapshot, GivesTheSameCorpus) {
  KEDB_REQUIRE_SHARED(shared);
  ExpectSameLoad((shared / "corpora/deadends/canons").string());
}

TEST(Snapshot, ChangedOrDamagedSourceIsReloaded) {
  TempDir kb, cache;
  fs::create_directories(kb.path() / "t");
  // Files are dated a minute back: a snapshot is only written for files
  // that have settled (see SourceSettled).
  auto age = [](const fs::path& p, int seconds_ago) {
    fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::seconds(seconds_ago));
  };
  auto write = [&](const std::string& regex) {
    testing::WriteFile(kb.path() / "t" / "a.json",
                       R"({"id": "t/a", "signature": "widget exploded", "regex": ")" + regex + R"(", "domain": "t"})");
    age(kb.path() / "t" / "a.json", regex == "widget exploded" ? 120 : 60);
  };
  write("widget exploded");
  OpenOptions options{.cache_dir = cache.path().string()};
  auto first = Engine::Open(kb.path().string(), options);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_FALSE((*first)->Match("the widget exploded", {}).matches.empty());
  // The snapshot just written is the one read early on the next start.
  auto latest = LatestSnapshot(cache.path().string(), kb.path().string());
  ASSERT_TRUE(latest.has_value());
  EXPECT_EQ(latest->second, SnapshotKey(kb.path().string(), LoadOptions{}));
  EXPECT_EQ(latest->first, SnapshotPath(cache.path().string(), kb.path().string(), latest->second));

  // An edit (the file's size and time change) is seen at once.
  write("gadget exploded");
  // The stale snapshot is still the latest, and is read early: it must be
  // thrown away once the listing gives the new key.
  EXPECT_NE(LatestSnapshot(cache.path().string(), kb.path().string())->second,
            SnapshotKey(kb.path().string(), LoadOptions{}));
  auto second = Engine::Open(kb.path().string(), options);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ((*second)->kb().records()[0].regex, "gadget exploded");

  // Damaged snapshots are ignored.
  int snapshots = 0;
  for (const auto& e : fs::directory_iterator(cache.path())) {
    if (e.path().filename().string().rfind("kb-", 0) != 0) continue;
    ++snapshots;
    std::string bytes = testing::ReadFile(e.path());
    bytes[bytes.size() / 2] ^= 0x20;
    testing::WriteFile(e.path(), bytes);
  }
  EXPECT_EQ(snapshots, 1);  // the first knowledge base's snapshot was replaced
  auto third = Engine::Open(kb.path().string(), options);
  ASSERT_TRUE(third.ok());
  EXPECT_EQ((*third)->kb().records()[0].regex, "gadget exploded");

  // A new file is seen too, and a file just written is never snapshotted.
  testing::WriteFile(kb.path() / "t" / "b.json",
                     R"({"id": "t/b", "signature": "sprocket melted", "regex": "sprocket melted", "domain": "t"})");
  EXPECT_FALSE(SourceSettled(kb.path().string()));
  auto fourth = Engine::Open(kb.path().string(), options);
  ASSERT_TRUE(fourth.ok());
  EXPECT_EQ((*fourth)->kb().size(), 2u);
  auto key = SnapshotKey(kb.path().string(), LoadOptions{});
  ASSERT_TRUE(key.has_value());
  EXPECT_FALSE(fs::exists(SnapshotPath(cache.path().string(), kb.path().string(), *key)));
}

// A JSON Lines file in `dir` of `n` records "t/r<i>", with the signature
// "widget <i> failed" and the regex `regex_form` (its "{}" is <i>),
// loaded and saved as a snapshot in `cache` under `key`: the snapshot's
// path ("" when it could not be saved). `loaded` receives the knowledge
// base read from the file.
std::string SaveNumberedRecords(const TempDir& dir, const TempDir& cache, int n, const char* regex_form, uint64_t key,
                                KnowledgeBase* loaded = nullptr) {
  std::string jsonl;
  for (int i = 0; i < n; ++i) {
    const std::string regex = fmt::format(fmt::runtime(regex_form), i);
    jsonl += fmt::format(R"({{"id": "t/r{}", "signature": "widget {} failed", "regex": "{}", "domain": "t"}})", i, i,
                         regex) + "\n";
  }
  const std::string path = (dir.path() / "kb.jsonl").string();
  testing::WriteFile(path, jsonl);
  LoadReport report;
  auto kb = KnowledgeBase::Load(path, LoadOptions{}, &report);
  EXPECT_TRUE(kb.ok());
  if (!kb.ok()) return "";
  const std::string file = SnapshotPath(cache.path().string(), path, key);
  if (!SaveSnapshot(file, key, *kb, report)) return "";
  if (loaded) *loaded = std::move(kb).value();
  return file;
}

// A record is decoded only when touched, at a stable address; records
// whose bytes change under a running process are refused, not served: the
// process names the file, removes it and stops.
// A knowledge base of a million records takes minutes to compile: naming
// it another way ("./kb", "kb/../kb", a symbolic link) must not compile
// it again beside the first snapshot.
TEST(Snapshot, AnotherSpellingOfThePathKeepsTheSnapshot) {
  TempDir kb, cache, links;
  fs::create_directories(kb.path() / "t");
  testing::WriteFile(kb.path() / "t" / "a.json",
                     R"({"id": "t/a", "signature": "widget exploded", "regex": "widget exploded", "domain": "t"})");
  fs::last_write_time(kb.path() / "t" / "a.json", fs::file_time_type::clock::now() - std::chrono::seconds(120));
  const std::string plain = kb.path().string();
  const std::string dotted = (kb.path() / "t" / ".." / ".").string();
  fs::create_directory_symlink(kb.path(), links.path() / "kb-link");
  const std::string linked = (links.path() / "kb-link").string();
  const auto key = SnapshotKey(plain, LoadOptions{});
  ASSERT_TRUE(key.has_value());
  for (const std::string& other : {dotted, linked}) {
    EXPECT_EQ(SnapshotKey(other, LoadOptions{}), key) << other;
    EXPECT_EQ(SnapshotPath(cache.path().string(), other, *key), SnapshotPath(cache.path().string(), plain, *key))
        << other;
  }
  // Opened three ways, one snapshot is written and then read.
  OpenOptions options{.cache_dir = cache.path().string()};
  for (const std::string& where : {plain, dotted, linked}) {
    auto engine = Engine::Open(where, options);
    ASSERT_TRUE(engine.ok()) << engine.status().message();
    EXPECT_FALSE((*engine)->Match("the widget exploded", {}).matches.empty());
  }
  int snapshots = 0;
  for (const auto& e : fs::directory_iterator(cache.path())) snapshots += e.path().filename().string().starts_with("kb-");
  EXPECT_EQ(snapshots, 1);
}

TEST(Snapshot, RecordsAreDecodedInPlaceAndCheckedWhenTouched) {
  TempDir dir, cache;
  const std::string file = SaveNumberedRecords(dir, cache, 50, "widget {} failed", 7);
  ASSERT_FALSE(file.empty());
  auto mapped = LoadSnapshot(file, 7, nullptr);
  ASSERT_TRUE(mapped.has_value());
  const Record* r7 = mapped->Find("t/r7");
  ASSERT_NE(r7, nullptr);
  EXPECT_EQ(r7->signature, "widget 7 failed");
  EXPECT_EQ(&mapped->records()[7], r7);  // decoded once, kept
  EXPECT_EQ(mapped->Find("t/r49")->regex, "widget 49 failed");

  // The file is changed in place after it was opened (not through a
  // rename, which would leave the mapping alone).
  std::string bytes = testing::ReadFile(file);
  const std::size_t at = bytes.find("widget 30 failed");
  ASSERT_NE(at, std::string::npos);
  {
    std::FILE* f = std::fopen(file.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, static_cast<long>(at), SEEK_SET);
    std::fputc('W', f);
    std::fclose(f);
  }
  EXPECT_EXIT(mapped->Find("t/r30"), ::testing::ExitedWithCode(70), "snapshot .* is damaged");
  // The process that found the damage removed the file; the next load
  // builds it again from the source.
  EXPECT_FALSE(fs::exists(file));
}

// A regex read in place is checked as a record is: one changed under a
// running process stops it, and the file is removed.
TEST(Snapshot, PatternsAreReadInPlaceAndCheckedWhenFetched) {
  TempDir dir, cache;
  KnowledgeBase kb;
  const std::string file = SaveNumberedRecords(dir, cache, 50, "gadget {} broke", 9, &kb);
  ASSERT_FALSE(file.empty());
  auto mapped = LoadSnapshot(file, 9, nullptr);
  ASSERT_TRUE(mapped.has_value());
  EXPECT_EQ(mapped->pattern(40), "gadget 40 broke");
  // A record edited without touching its regex keeps its pattern hash (so
  // no pattern database is compiled again); a changed regex does not.
  auto edited = kb.records();
  std::vector<Record> copy(edited.begin(), edited.end());
  copy[3].root_cause = "a cause written later";
  EXPECT_EQ(KnowledgeBase::FromRecords(copy).pattern_hash(3), mapped->pattern_hash(3));
  EXPECT_NE(KnowledgeBase::FromRecords(copy).content_key(), kb.content_key());
  copy[3].regex = "gadget 3 broke badly";
  EXPECT_NE(KnowledgeBase::FromRecords(copy).pattern_hash(3), mapped->pattern_hash(3));

  // The last copy of the text is the regex, kept after the records.
  const std::size_t at = testing::ReadFile(file).rfind("gadget 41 broke");
  ASSERT_NE(at, std::string::npos);
  {
    std::FILE* f = std::fopen(file.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, static_cast<long>(at), SEEK_SET);
    std::fputc('G', f);
    std::fclose(f);
  }
  EXPECT_EQ(mapped->pattern(40), "gadget 40 broke");  // its neighbour is intact
  EXPECT_EXIT(mapped->pattern(41), ::testing::ExitedWithCode(70), "snapshot .* is damaged \\(the pattern of record 41");
  EXPECT_FALSE(fs::exists(file));
}

// A large snapshot is opened without reading its tables through: each
// 4 KB block of them is checked when a read first reaches it, and one
// changed under the process stops it, as a changed record does.
TEST(Snapshot, ALargeSnapshotChecksItsTablesByBlockWhenRead) {
  TempDir dir, cache;
  // 3,000 records make about 190 KB of tables: some fifty blocks.
  const std::string file = SaveNumberedRecords(dir, cache, 3000, "widget {} failed", 11);
  ASSERT_FALSE(file.empty());
  // Damage the last bytes of the tables (the regex places) before opening:
  // a small snapshot is refused on open...
  const std::string bytes = testing::ReadFile(file);
  // The block sums follow the tables; where they start is the header's
  // last field but one (Header in snapshot.cc).
  uint64_t sums = 0;
  std::memcpy(&sums, bytes.data() + 104, sizeof sums);
  ASSERT_GT((bytes.size() - sums) / sizeof(uint64_t), 40u);
  {
    std::FILE* f = std::fopen(file.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, static_cast<long>(sums - 5), SEEK_SET);
    std::fputc(bytes[sums - 5] ^ 0x21, f);
    std::fclose(f);
  }
  EXPECT_FALSE(LoadSnapshot(file, 11, nullptr).has_value());
  // ...while a large one opens, answers from the intact blocks, and stops
  // at the damaged one.
  auto large = LoadSnapshot(file, 11, nullptr, /*check_whole_below=*/0);
  ASSERT_TRUE(large.has_value());
  ASSERT_EQ(large->size(), 3000u);
  EXPECT_EQ(large->record(5).signature, "widget 5 failed");
  EXPECT_EQ(large->pattern(5), "widget 5 failed");
  EXPECT_EXIT(large->pattern(2999), ::testing::ExitedWithCode(70), "cache file .* is damaged");
  EXPECT_FALSE(fs::exists(file));
}

// An engine opened for reading records builds its indexes only when text
// is first matched, and then answers as one built at open.
TEST(Snapshot, DeferredIndexesAreBuiltOnFirstMatch) {
  TempDir cache;
  OpenOptions options;
  options.cache_dir = cache.path().string();
  options.defer_indexes = true;
  const std::string kb = (testing::SourceDir() / "kb").string();
  auto deferred = Engine::Open(kb, options);
  ASSERT_TRUE(deferred.ok());
  ASSERT_NE((*deferred)->kb().Find("cuda/cudnn-bn-epsilon-nan"), nullptr);
  // Nothing compiled yet: only the snapshot is in the cache folder.
  for (const auto& e : fs::directory_iterator(cache.path())) {
    EXPECT_EQ(e.path().filename().string().rfind("kb-", 0), 0u) << e.path();
  }
  const std::string text = "RuntimeError: CUDA error: an illegal memory access was encountered";
  MatchResult lazy = (*deferred)->Match(text, MatchOptions{});
  EXPECT_TRUE((*deferred)->Prepare().ok());
  options.defer_indexes = false;
  auto eager = Engine::Open(kb, options);
  ASSERT_TRUE(eager.ok());
  MatchResult built = (*eager)->Match(text, MatchOptions{});
  ASSERT_FALSE(lazy.matches.empty());
  ASSERT_EQ(lazy.matches.size(), built.matches.size());
  for (std::size_t i = 0; i < lazy.matches.size(); ++i) {
    EXPECT_EQ(lazy.matches[i].record->id, built.matches[i].record->id);
  }
}

}  // namespace
}  // namespace kedb
