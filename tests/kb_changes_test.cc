// Reloading a JSONL knowledge base by its changed lines: which lines
// changed (kb/jsonl_changes.h), the records laid over the old ones
// (KnowledgeBase::WithChanges), an engine answering from both
// (Engine::WithChanges) and a server slot that serves it and compiles the
// whole file behind it (serve/engine_slot.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "../bench/scale_kb.h"
#include "kb/jsonl_changes.h"
#include "kedb/engine.h"
#include "kedb/knowledge_base.h"
#include "record/json_text.h"
#include "serve/engine_slot.h"
#include "test_util.h"

namespace kedb {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::WriteFile;

std::string Line(const std::string& id, const std::string& signature, const std::string& regex) {
  Json j{{"id", id}, {"signature", signature}, {"regex", regex}, {"domain", "t"}, {"root_cause", "cause of " + id}};
  return j.dump() + "\n";
}

std::string Numbered(int i) { return Line("t/r" + std::to_string(i), "Widget " + std::to_string(i) + " failed to start",
                                          "Widget " + std::to_string(i) + " failed to start"); }

std::string File(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) text += Numbered(i);
  return text;
}

// The text with line `i` (0-based) replaced.
std::string WithLine(std::string text, int i, const std::string& line) {
  std::size_t begin = 0;
  for (int k = 0; k < i; ++k) begin = text.find('\n', begin) + 1;
  const std::size_t end = text.find('\n', begin) + 1;
  return text.replace(begin, end - begin, line);
}

LoadOptions Strict() {
  LoadOptions o;
  o.strict = true;
  return o;
}

std::shared_ptr<const KnowledgeBase> LoadShared(const fs::path& file) {
  auto kb = KnowledgeBase::Load(file.string(), Strict());
  EXPECT_TRUE(kb.ok()) << kb.status().message();
  return std::make_shared<const KnowledgeBase>(std::move(kb).value());
}

TEST(JsonlChanges, AnEditedLineIsAReplacementInPlace) {
  TempDir tmp;
  const fs::path file = tmp.path() / "kb.jsonl";
  WriteFile(file, File(50));
  auto base = LoadShared(file);
  WriteFile(file, WithLine(File(50), 17, Line("t/r17", "Widget 17 failed to start", "Widget 17 (failed|refused)")));
  auto changes = FindJsonlChanges(*base, file.string(), Strict(), 10);
  ASSERT_TRUE(changes.ok()) << changes.status().message();
  ASSERT_TRUE(changes->has_value());
  const KnowledgeBase::Changes& c = **changes;
  ASSERT_EQ(c.replaced.size(), 1u);
  EXPECT_EQ(c.replaced[0].first, 17u);
  EXPECT_EQ(c.replaced[0].second.regex, "Widget 17 (failed|refused)");
  EXPECT_EQ(c.replaced[0].second.origin.line, 18) << "the record knows its line in the file as it is now";
  EXPECT_TRUE(c.added.empty());
}

TEST(JsonlChanges, NewLinesAreAdditionsAndMovedLinesAreNoChange) {
  TempDir tmp;
  const fs::path file = tmp.path() / "kb.jsonl";
  WriteFile(file, File(20));
  auto base = LoadShared(file);
  // The same lines in another order, and two new ones among them.
  std::string text = Numbered(19) + Line("t/new1", "Gadget jammed", "Gadget jammed");
  for (int i = 0; i < 19; ++i) text += Numbered(i);
  text += Line("t/new2", "Gizmo overheated", "Gizmo overheated");
  WriteFile(file, text);
  auto changes = FindJsonlChanges(*base, file.string(), Strict(), 10);
  ASSERT_TRUE(changes.ok() && changes->has_value());
  EXPECT_TRUE((*changes)->replaced.empty());
  ASSERT_EQ((*changes)->added.size(), 2u);
  EXPECT_EQ((*changes)->added[0].id, "t/new1");
  EXPECT_EQ((*changes)->added[1].id, "t/new2");

  WriteFile(file, File(20));
  changes = FindJsonlChanges(*base, file.string(), Strict(), 10);
  ASSERT_TRUE(changes.ok() && changes->has_value());
  EXPECT_TRUE((*changes)->empty());
}

// Whatever is not an edit in place or an addition needs a full load, which
// also reports a duplicate where it is.
TEST(JsonlChanges, RemovalsMovedIdsDuplicatesAndTooManyNeedAFullLoad) {
  TempDir tmp;
  const fs::path file = tmp.path() / "kb.jsonl";
  const std::string original = File(30);
  WriteFile(file, original);
  auto base = LoadShared(file);
  auto needs_full_load = [&](const std::string& text, std::size_t max_changes, const char* what) {
    WriteFile(file, text);
    auto changes = FindJsonlChanges(*base, file.string(), Strict(), max_changes);
    ASSERT_TRUE(changes.ok()) << what << ": " << changes.status().message();
    EXPECT_FALSE(changes->has_value()) << what;
  };
  needs_full_load(WithLine(original, 4, ""), 10, "a line removed");
  needs_full_load(WithLine(original, 4, Line("t/renamed", "Widget 4 failed to start", "Widget 4 failed")), 10,
                  "an id changed");
  needs_full_load(original + Line("t/r3", "Widget 3 again", "Widget 3 again"), 10, "an id taken twice");
  needs_full_load(original + Numbered(3), 10, "a line repeated");
  std::string many = original;
  for (int i = 0; i < 5; ++i) many += Line("t/more" + std::to_string(i), "More " + std::to_string(i), "More");
  needs_full_load(many, 4, "more changes than allowed");

  // A folder is not a JSONL file.
  WriteFile(tmp.path() / "tree" / "a.json", Line("t/a", "A", "A"));
  auto changes = FindJsonlChanges(*base, (tmp.path() / "tree").string(), Strict(), 10);
  ASSERT_TRUE(changes.ok());
  EXPECT_FALSE(changes->has_value());
}

// A file past 1 MB is read in two halves at once: lines keep their numbers
// and offsets across the split, and a line repeated across it is caught.
TEST(JsonlChanges, ALargeFileReadInHalvesKeepsLineNumbers) {
  TempDir tmp;
  const fs::path file = tmp.path() / "kb.jsonl";
  std::string text = File(12000);
  ASSERT_GT(text.size(), std::size_t{1} << 20);
  WriteFile(file, text);
  auto base = LoadShared(file);
  // Blank lines on either side of the middle, an edit near the end and a
  // record added after it.
  std::string changed = WithLine(text, 11000, Line("t/r11000", "Widget 11000 melted", "Widget 11000 melted"));
  changed = WithLine(changed, 100, "  \n" + Numbered(100));
  changed = WithLine(changed, 7000, "\n" + Numbered(6999));
  changed += Line("t/last", "Gadget jammed", "Gadget jammed");
  WriteFile(file, changed);
  auto changes = FindJsonlChanges(*base, file.string(), Strict(), 10);
  ASSERT_TRUE(changes.ok() && changes->has_value());
  ASSERT_EQ((*changes)->replaced.size(), 1u);
  EXPECT_EQ((*changes)->replaced[0].first, 11000u);
  EXPECT_EQ((*changes)->replaced[0].second.origin.line, 11003) << "two blank lines before it";
  EXPECT_EQ((*changes)->replaced[0].second.origin.offset,
            static_cast<int64_t>(changed.rfind('\n', changed.find("\"t/r11000\"")) + 1));
  ASSERT_EQ((*changes)->added.size(), 1u);
  EXPECT_EQ((*changes)->added[0].origin.line, 12003);
  // And the whole file loaded afresh agrees on both.
  auto fresh = KnowledgeBase::Load(file.string(), Strict());
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(fresh->Find("t/r11000")->origin, (*changes)->replaced[0].second.origin);
  EXPECT_EQ(fresh->Find("t/last")->origin, (*changes)->added[0].origin);

  WriteFile(file, text + Numbered(5));
  changes = FindJsonlChanges(*base, file.string(), Strict(), 10);
  ASSERT_TRUE(changes.ok());
  EXPECT_FALSE(changes->has_value()) << "a line of the first half repeated in the second";
}

TEST(JsonlChanges, ABrokenChangedLineIsRefusedWithItsPlace) {
  TempDir tmp;
  const fs::path file = tmp.path() / "kb.jsonl";
  WriteFile(file, File(10));
  auto base = LoadShared(file);
  Json bad{{"id", "t/r6"}, {"signature", "Widget 6"}, {"regex", "Widget 6"}, {"domain", "t"}, {"confidence", 3}};
  WriteFile(file, WithLine(File(10), 6, bad.dump() + "\n"));
  LoadReport report;
  auto changes = FindJsonlChanges(*base, file.string(), Strict(), 10, &report);
  ASSERT_FALSE(changes.ok());
  EXPECT_NE(changes.status().message().find("kb.jsonl"), std::string::npos) << changes.status().message();
  ASSERT_FALSE(report.diagnostics.empty());
  EXPECT_EQ(report.diagnostics[0].line, 7);
  EXPECT_EQ(report.diagnostics[0].field, "confidence");
}

TEST(JsonlChanges, FoundAgainstASnapshot) {
  TempDir tmp;
  const fs::path file = tmp.path() / "kb.jsonl";
  WriteFile(file, File(40));
  // Old enough for a snapshot to be written, then read in place.
  fs::last_write_time(file, fs::file_time_type::clock::now() - std::chrono::minutes(1));
  const std::string cache = (tmp.path() / "cache").string();
  ASSERT_TRUE(KnowledgeBase::LoadCached(file.string(), Strict(), cache).ok());
  auto mapped = KnowledgeBase::LoadCached(file.string(), Strict(), cache);
  ASSERT_TRUE(mapped.ok());
  WriteFile(file, WithLine(File(40), 33, Line("t/r33", "Widget 33 broke", "Widget 33 broke")));
  auto changes = FindJsonlChanges(*mapped, file.string(), Strict(), 10);
  ASSERT_TRUE(changes.ok() && changes->has_value());
  ASSERT_EQ((*changes)->replaced.size(), 1u);
  EXPECT_EQ((*changes)->replaced[0].first, 33u);
}

TEST(KnowledgeBaseWithChanges, ReadsAsTheChangedFile) {
  TempDir tmp;
  const fs::path file = tmp.path() / "kb.jsonl";
  WriteFile(file, File(10));
  auto base = LoadShared(file);
  KnowledgeBase::Changes changes;
  changes.replaced.emplace_back(3, testing::MakeRecord("t/r3", "Widget 3 broke", "Widget 3 broke"));
  changes.added.push_back(testing::MakeRecord("t/added", "Gadget jammed", "Gadget jammed"));
  KnowledgeBase kb = KnowledgeBase::WithChanges(base, changes);
  ASSERT_EQ(kb.size(), 11u);
  EXPECT_EQ(kb.record(3).signature, "Widget 3 broke");
  EXPECT_EQ(kb.record(4).signature, "Widget 4 failed to start");
  EXPECT_EQ(kb.record(10).id, "t/added");
  EXPECT_EQ(kb.pattern(3), "Widget 3 broke");
  EXPECT_EQ(kb.pattern_hash(3), KnowledgeBase::PatternHash("Widget 3 broke"));
  EXPECT_EQ(kb.pattern(10), "Gadget jammed");
  EXPECT_EQ(kb.IndexOf("t/added"), 10u);
  ASSERT_NE(kb.Find("t/r3"), nullptr);
  EXPECT_EQ(kb.Find("t/r3")->signature, "Widget 3 broke");
  EXPECT_EQ(kb.Find("t/missing"), nullptr);
  std::vector<std::string> walked;
  kb.ForEachRecord([&](std::size_t i, const Record& r) { walked.push_back(std::to_string(i) + ":" + r.signature); });
  ASSERT_EQ(walked.size(), 11u);
  EXPECT_EQ(walked[3], "3:Widget 3 broke");
  EXPECT_EQ(walked[10], "10:Gadget jammed");
  EXPECT_NE(kb.content_key(), base->content_key());
  EXPECT_NE(kb.content_key(), KnowledgeBase::WithChanges(base, {}).content_key());
  EXPECT_EQ(base->record(3).signature, "Widget 3 failed to start") << "base is left as it was";
}

// The patterns (with the default top and confidence floor as a user gets
// them) of every record that fires on `text`.
std::set<std::string> PatternHits(const Engine& engine, const std::string& text) {
  MatchOptions options;
  options.top = 50;
  options.min_confidence = 0;
  std::set<std::string> ids;
  for (const Match& m : engine.Match(text, options).matches) {
    if (m.kind != MatchKind::kFuzzy) ids.insert(m.record->id);
  }
  return ids;
}

// A layered engine answers as one compiled from the changed file: the
// same patterns fire, the same record comes first, with a confidence
// within 0.05. The knowledge base at `source` is written as JSONL, then
// three regexes are edited (a new alternative each) and two records added;
// texts are the edited records' new and old wordings, the added ones' and
// the signatures of every `stride`-th record.
void ExpectLayeredAnswersAsAFullCompile(const fs::path& source, std::size_t stride) {
  TempDir tmp;
  auto original = KnowledgeBase::Load(source.string(), LoadOptions{});
  ASSERT_TRUE(original.ok());
  std::vector<std::string> lines;
  for (const Record& r : original->records()) lines.push_back(Json::parse(r.json).dump());
  const fs::path file = tmp.path() / "kb.jsonl";
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& l : v) s += l + "\n";
    return s;
  };
  WriteFile(file, join(lines));
  OpenOptions options;
  options.load = Strict();
  options.cache_dir = "-";
  auto base = Engine::Open(file.string(), options);
  ASSERT_TRUE(base.ok()) << base.status().message();

  std::vector<std::string> texts;
  for (std::size_t i : {lines.size() / 9, lines.size() / 2, lines.size() - 3}) {
    Json j = Json::parse(lines[i]);
    texts.push_back(j["signature"].get<std::string>());
    j["regex"] = j["regex"].get<std::string>() + "|kedb marker " + std::to_string(i);
    texts.push_back("RuntimeError: kedb marker " + std::to_string(i));
    lines[i] = j.dump();
  }
  for (const auto& [id, signature, regex] :
       {std::tuple{"t/added-one", "FrobnicatorError: the frobnicator seized", "FrobnicatorError: .*seized"},
        std::tuple{"t/added-two", "Quux daemon lost its lease", "Quux daemon lost its lease"}}) {
    lines.push_back(Line(id, signature, regex));
    lines.back().pop_back();
  }
  texts.push_back("FrobnicatorError: the frobnicator seized at 3 am");
  texts.push_back("ERROR Quux daemon lost its lease (after 30s)");
  for (std::size_t i = 0; i < original->size(); i += stride) texts.push_back(original->record(i).signature);
  WriteFile(file, join(lines));

  auto changes = FindJsonlChanges((*base)->kb(), file.string(), Strict(), 100);
  ASSERT_TRUE(changes.ok() && changes->has_value());
  EXPECT_EQ((*changes)->replaced.size(), 3u);
  EXPECT_EQ((*changes)->added.size(), 2u);
  auto layered = Engine::WithChanges(*base, std::move(**changes));
  ASSERT_TRUE(layered.ok()) << layered.status().message();
  EXPECT_TRUE((*layered)->layered());
  auto full = Engine::Open(file.string(), options);
  ASSERT_TRUE(full.ok());
  EXPECT_EQ((*layered)->kb().size(), (*full)->kb().size());

  for (const std::string& text : texts) {
    EXPECT_EQ(PatternHits(**layered, text), PatternHits(**full, text)) << text;
    MatchResult a = (*layered)->Match(text, MatchOptions{}), b = (*full)->Match(text, MatchOptions{});
    ASSERT_EQ(a.matches.empty(), b.matches.empty()) << text;
    if (a.matches.empty()) continue;
    EXPECT_EQ(a.matches[0].record->id, b.matches[0].record->id) << text;
    EXPECT_NEAR(a.matches[0].confidence, b.matches[0].confidence, 0.05) << text;
  }
  EXPECT_EQ(PatternHits(**layered, "FrobnicatorError: the frobnicator seized at 3 am").count("t/added-one"), 1u);
  const std::string marker = "RuntimeError: kedb marker " + std::to_string(lines.size() / 2);
  EXPECT_EQ(PatternHits(**base, marker).size(), 0u) << "base is left as it was";
  // Search finds an added record by its words.
  auto found = (*layered)->Search("frobnicator seized", SearchOptions{});
  ASSERT_FALSE(found.hits.empty());
  EXPECT_EQ(found.hits[0].record->id, "t/added-one");
  // Layers are laid over a compiled engine only.
  EXPECT_FALSE(Engine::WithChanges(*layered, {}).ok());
}

TEST(EngineWithChanges, AnswersAsAFullCompileOnTheBundledKnowledgeBase) {
  ExpectLayeredAnswersAsAFullCompile(testing::SourceDir() / "kb", 3);
}

TEST(EngineWithChanges, AnswersAsAFullCompileOnTheCorpus) {
  KEDB_REQUIRE_SHARED(shared);
  ExpectLayeredAnswersAsAFullCompile(shared / "corpora" / "deadends" / "canons", 5);
}

// The factor named `name` of a match's score.
double Factor(const Match& m, std::string_view name) {
  for (const ScoreFactor& f : m.why) {
    if (f.name == name) return f.value;
  }
  return -1;
}

// Words several changed records share, across domains, some of them known
// to the base already: a text is split between base's domains and the
// changed records' as a full compile splits it. On 3,000 generated records
// (bench/scale_kb.h), two records get a marker and are compiled as the
// base; three more get one of the same words, laid over it.
TEST(EngineWithChanges, WordsSharedAcrossDomainsWeighAsInAFullCompile) {
  TempDir tmp;
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < 3000; ++i) lines.push_back(bench::ScaleRecordJson(i, 20261127));
  const fs::path file = tmp.path() / "kb.jsonl";
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& l : v) s += l + "\n";
    return s;
  };
  std::vector<std::string> texts;
  auto mark = [&](std::size_t i, int n) {
    Json j = Json::parse(lines[i]);
    j["regex"] = j["regex"].get<std::string>() + "|kedb reload probe 777-" + std::to_string(n);
    texts.push_back("RuntimeError: kedb reload probe 777-" + std::to_string(n));
    lines[i] = j.dump();
  };
  mark(101, 11);
  mark(1202, 12);
  WriteFile(file, join(lines));
  OpenOptions options;
  options.load = Strict();
  options.cache_dir = (tmp.path() / "cache").string();
  auto base = Engine::Open(file.string(), options);
  ASSERT_TRUE(base.ok()) << base.status().message();
  std::set<std::string> domains;
  for (std::size_t i : {1803u, 2404u, 2905u}) {
    mark(i, static_cast<int>(i % 7));
    domains.insert(Json::parse(lines[i])["domain"].get<std::string>());
  }
  EXPECT_EQ(domains.size(), 3u);
  WriteFile(file, join(lines));
  auto changes = FindJsonlChanges((*base)->kb(), file.string(), Strict(), 100);
  ASSERT_TRUE(changes.ok() && changes->has_value());
  auto layered = Engine::WithChanges(*base, std::move(**changes));
  ASSERT_TRUE(layered.ok());
  auto full = Engine::Open(file.string(), options);
  ASSERT_TRUE(full.ok());
  MatchOptions all;
  all.min_confidence = 0;
  all.list_confidence = 0;
  for (const std::string& text : texts) {
    MatchResult a = (*layered)->Match(text, all), b = (*full)->Match(text, all);
    ASSERT_FALSE(a.matches.empty() || b.matches.empty()) << text;
    EXPECT_EQ(a.matches[0].record->id, b.matches[0].record->id) << text;
    EXPECT_NEAR(Factor(a.matches[0], "domain"), Factor(b.matches[0], "domain"), 0.02) << text;
    EXPECT_NEAR(a.matches[0].confidence, b.matches[0].confidence, 0.03) << text;
  }
}

// A layered engine no longer fires a replaced record's old regex.
TEST(EngineWithChanges, AReplacedRegexNoLongerFires) {
  TempDir tmp;
  const fs::path file = tmp.path() / "kb.jsonl";
  WriteFile(file, File(30));
  OpenOptions options;
  options.load = Strict();
  options.cache_dir = "-";
  auto base = Engine::Open(file.string(), options);
  ASSERT_TRUE(base.ok());
  EXPECT_EQ(PatternHits(**base, "Widget 12 failed to start").count("t/r12"), 1u);
  WriteFile(file, WithLine(File(30), 12, Line("t/r12", "Widget 12 melted", "Widget 12 melted")));
  auto changes = FindJsonlChanges((*base)->kb(), file.string(), Strict(), 10);
  ASSERT_TRUE(changes.ok() && changes->has_value());
  auto layered = Engine::WithChanges(*base, std::move(**changes));
  ASSERT_TRUE(layered.ok());
  EXPECT_EQ(PatternHits(**layered, "Widget 12 failed to start").count("t/r12"), 0u);
  EXPECT_EQ(PatternHits(**layered, "Widget 12 melted").count("t/r12"), 1u);
  EXPECT_EQ(PatternHits(**layered, "Widget 13 failed to start").count("t/r13"), 1u);
  // A log scan sees the change too.
  std::istringstream log("starting\nERROR Widget 12 melted\nWidget 13 failed to start\ndone\n");
  ScanResult scanned;
  ASSERT_TRUE((*layered)->Scan(log, ScanOptions{}, &scanned).ok());
  std::set<std::string> ids;
  for (const auto& block : scanned.blocks) {
    for (const Match& m : block.matches) ids.insert(m.record->id);
  }
  EXPECT_EQ(ids.count("t/r12"), 1u);
  EXPECT_EQ(ids.count("t/r13"), 1u);
}

TEST(EngineSlotChanges, AnEditServesAtOnceAndIsCompiledInFullBehind) {
  TempDir tmp;
  const fs::path file = tmp.path() / "kb.jsonl";
  WriteFile(file, File(30));
  serve::EngineSlot slot(file.string(), (tmp.path() / "cache").string());
  ASSERT_TRUE(slot.Reload().ok());
  EXPECT_FALSE(slot.Get()->layered());

  WriteFile(file, WithLine(File(30), 8, Line("t/r8", "Widget 8 melted", "Widget 8 melted")));
  // Settled, so the full compile behind starts at once and keeps a snapshot.
  fs::last_write_time(file, fs::file_time_type::clock::now() - std::chrono::minutes(1));
  ASSERT_TRUE(slot.Reload().ok());
  EXPECT_TRUE(slot.Get()->layered());
  EXPECT_EQ(slot.info().layered_changes, 1u);
  EXPECT_EQ(PatternHits(*slot.Get(), "Widget 8 melted").count("t/r8"), 1u);
  slot.WaitForFullCompile();
  EXPECT_FALSE(slot.Get()->layered()) << "the full compile replaced the layered engine";
  EXPECT_EQ(slot.info().layered_changes, 0u);
  EXPECT_FALSE(slot.info().full_compile_running);
  EXPECT_EQ(PatternHits(*slot.Get(), "Widget 8 melted").count("t/r8"), 1u);

  // A broken edit is refused and the engine serving stays.
  const auto serving = slot.Get();
  WriteFile(file, WithLine(File(30), 8, "{\"id\": \"t/r8\", \"signature\": \n"));
  Status st = slot.Reload();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("kb.jsonl:9:"), std::string::npos) << st.message();
  EXPECT_EQ(slot.Get(), serving);

  // A removal reloads in full.
  WriteFile(file, File(29));
  ASSERT_TRUE(slot.Reload().ok());
  EXPECT_FALSE(slot.Get()->layered());
  EXPECT_EQ(slot.info().records, 29u);
}

}  // namespace
}  // namespace kedb
