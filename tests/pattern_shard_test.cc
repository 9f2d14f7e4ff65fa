// The prefilter shard's two ways of finding literals, and the literal
// checks it keeps: each must give what the other, or the regex, gives.
#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "kedb/knowledge_base.h"
#include "logs/line_chunker.h"
#include "match/literal_check.h"
#include "match/pattern_set.h"
#include "match/pattern_shard.h"
#include "regex/pcre2_regex.h"
#include "regex/python_regex.h"
#include "test_util.h"

namespace kedb {
namespace {

namespace fs = std::filesystem;
using match::PatternShard;
using Hit = std::pair<uint32_t, std::size_t>;  // literal, end offset

std::vector<Hit> Find(const PatternShard& shard, PatternShard::Literals kind, std::string_view text,
                      PatternShard::Route route) {
  std::vector<Hit> hits;
  shard.FindLiterals(kind, text, [&](uint32_t lit, std::size_t end) { hits.emplace_back(lit, end); }, route);
  std::sort(hits.begin(), hits.end());
  return hits;
}

// Each text's literals of both kinds, found through the table and through
// the database: the same hits; returns how many.
std::size_t ExpectTableFindsWhatTheDatabaseFinds(const PatternShard& shard, const std::vector<std::string>& texts) {
  std::size_t total = 0;
  for (const std::string& text : texts) {
    for (auto kind : {PatternShard::Literals::kAnyLine, PatternShard::Literals::kMarkedLine}) {
      auto table = Find(shard, kind, text, PatternShard::Route::kTable);
      auto database = Find(shard, kind, text, PatternShard::Route::kDatabase);
      EXPECT_EQ(table, database) << text;
      total += table.size();
    }
  }
  return total;
}

// One shard of all `patterns` (which must outlive it), and the plan that
// holds its members.
struct OneShard {
  std::unique_ptr<match::ShardPlan> plan;
  std::optional<PatternShard> shard;
};
OneShard BuildShard(const std::vector<std::string>& patterns) {
  match::PatternSource source{patterns.size(), [&patterns](uint32_t p) { return std::string_view(patterns[p]); },
                              [&patterns](uint32_t p) { return KnowledgeBase::PatternHash(patterns[p]); }};
  OneShard out;
  out.plan = match::ShardPlan::Open(source, patterns.size() + 1, "");
  if (!out.plan || out.plan->shards() != 1) return out;
  auto built = PatternShard::Build(out.plan->members(0), source.pattern, out.plan->key(0), 1);
  if (built.ok()) out.shard = std::move(built).value();
  return out;
}

// Literals of every length around the table's key length (8), sharing
// starts, in either case, with repeats and overlaps in the text.
TEST(PatternShard, TableFindsWhatTheDatabaseFinds) {
  const std::vector<std::string> patterns = {
      "CUDNN_STATUS_BAD_PARAM",           // long, one key
      "CUDNN_STATUS_NOT_SUPPORTED",       // the same first 8 bytes
      "cudnn_status_internal_error",      // and again, lower case
      "ERESOLVE unable to resolve",       // distinctive
      "segfault_1",                       // short and marked
      "(?i)ack",                          // broad
      "mode",                             // broad
      "Killed process \\d+ \\(python\\)",  // long literal before a class
      "12345678",                         // exactly the key length
      "abcdefgh.*ijk",
  };
  auto built = BuildShard(patterns);
  ASSERT_TRUE(built.shard.has_value());
  const auto& shard = built.shard;
  ASSERT_TRUE(shard->has_literals(PatternShard::Literals::kAnyLine));
  ASSERT_TRUE(shard->has_literals(PatternShard::Literals::kMarkedLine));
  const char kBinary[] = "bytes \xff\xfe CUDNN_STATUS_BAD_PARAM \x80";
  std::vector<std::string> texts = {
      "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM",
      "cudnn_status_not_supported and CUDNN_STATUS_INTERNAL_ERROR in one line",
      "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree",
      "ACK ack Ack mode MODE segfault_1segfault_1",
      "Out of memory: Killed process 4242 (python) total-vm:1234kB",
      "1234567812345678 abcdefghabcdefgh ijk",
      "",
      "no literal here at all",
  };
  texts.push_back(std::string(kBinary, sizeof kBinary - 1));
  const std::size_t total = ExpectTableFindsWhatTheDatabaseFinds(*shard, texts);
  EXPECT_GE(total, 15u);
}

// Many literals behind one key (their first 8 bytes), some beginning
// others, and a chain of 20 each one byte longer than the last: the table
// finds each where the database does.
TEST(PatternShard, TableFindsLiteralsSharingAKey) {
  std::vector<std::string> patterns;
  const std::vector<std::string> objects = {"trigger", "socket", "block", "ledger", "parent", "quota"};
  for (int i = 0; i < 300; ++i) {
    patterns.push_back(fmt::format("failed to read {} {}", objects[i % objects.size()], i));
  }
  for (const char* p : {"failed to read", "failed to read ", "failed to read parent", "failed to read parent 4",
                        "failed to read parent 40", "failed to read parent 4000", "failed to"}) {
    patterns.emplace_back(p);
  }
  for (int n = 9; n < 29; ++n) patterns.push_back("Q" + std::string(static_cast<std::size_t>(n - 1), 'q'));
  auto built = BuildShard(patterns);
  ASSERT_TRUE(built.shard.has_value());
  const auto& shard = built.shard;
  const std::vector<std::string> texts = {
      "error: failed to read parent 40 (retry)",
      "failed to read parent 4000failed to read quota 299 and failed to read ledger 3",
      "FAILED TO READ TRIGGER 0 / failed to rea / failed to read socket 1000",
      std::string(40, 'q'),
      "qqqqqqqqqqqqqqq failed",
  };
  const std::size_t total = ExpectTableFindsWhatTheDatabaseFinds(*shard, texts);
  EXPECT_GE(total, 20u * 12u);  // the q chain alone, at each start that leaves room
}

// Many patterns behind one factor are grouped by a second literal they
// need (their gate): a line lacking the gate skips the group whole. The
// groups hold every pattern once, and a scan finds what PCRE2 finds.
TEST(PatternShard, PatternsSharingAFactorAreGroupedByGate) {
  const std::vector<std::string> objects = {"trigger", "socket", "block", "ledger"};
  std::vector<std::string> patterns;
  for (int i = 0; i < 24; ++i) {
    patterns.push_back(fmt::format("(?:unable|failed) to read (?:the )?\\w+ {}", objects[i % objects.size()]));
  }
  patterns.push_back("failed to read config");  // the same factor, no gate but its own
  auto built = BuildShard(patterns);
  ASSERT_TRUE(built.shard.has_value());
  const PatternShard& shard = *built.shard;
  std::vector<PatternShard::LiteralGroup> groups;
  std::set<uint32_t> seen;
  std::set<std::string> gates;
  std::size_t grouped_literals = 0;
  // "failed to read " holds a problem word: it is in the marked-line index.
  const std::size_t any_line = shard.counts().literals - shard.counts().broad_literals;
  for (auto kind : {PatternShard::Literals::kAnyLine, PatternShard::Literals::kMarkedLine}) {
    const std::size_t count = kind == PatternShard::Literals::kAnyLine ? any_line : shard.counts().broad_literals;
    for (uint32_t lit = 0; lit < count; ++lit) {
      shard.Groups(kind, lit, &groups);
      std::size_t in_groups = 0;
      for (const auto& g : groups) {
        in_groups += g.patterns.size();
        if (!g.gate_text.empty()) gates.insert(std::string(g.gate_text));
        seen.insert(g.patterns.begin(), g.patterns.end());
      }
      EXPECT_EQ(in_groups, shard.LiteralPatterns(kind, lit).size());
      grouped_literals += groups.size() > 1;
    }
  }
  EXPECT_EQ(seen.size(), patterns.size());
  EXPECT_GE(grouped_literals, 1u);
  for (const std::string& o : objects) EXPECT_EQ(gates.count(" " + o), 1u) << o;

  std::vector<std::string> source = patterns;
  auto set = match::PatternSet::Build(source, "");
  ASSERT_TRUE(set.ok());
  const std::string text = "unable to read the parent socket\nfailed to read config\nfailed to read a ledgerx\n";
  std::vector<match::LineHit> hits;
  (*set)->Scan(text, {0, 33, 55}, &hits);
  std::set<std::pair<uint32_t, uint32_t>> got, want;
  for (const auto& h : hits) got.insert({h.line, h.pattern});
  for (uint32_t p = 0; p < patterns.size(); ++p) {
    auto re = regex::CompilePython(patterns[p]);
    ASSERT_TRUE(re.ok());
    for (uint32_t line = 0; line < 3; ++line) {
      if (re->Search(logs::LineText(text, {0, 33, 55}, line))) want.insert({line, p});
    }
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(want.size(), 6u + 1u + 6u);
}

// Every literal the table holds is found in the corpus's own texts as the
// database finds it: each signature, each alias, and all of them at once.
TEST(PatternShard, TableFindsWhatTheDatabaseFindsOnTheCorpus) {
  KEDB_REQUIRE_SHARED(shared);
  auto kb = KnowledgeBase::Load((shared / "corpora/deadends/canons").string(), {});
  ASSERT_TRUE(kb.ok());
  std::vector<std::string> patterns;
  std::string all;
  for (const Record& r : kb->records()) {
    patterns.push_back(r.regex);
    all += r.signature + "\n";
    for (const auto& a : r.aliases) all += a + "\n";
  }
  auto built = BuildShard(patterns);
  ASSERT_TRUE(built.shard.has_value());
  const auto& shard = built.shard;
  std::size_t total = 0;
  for (auto kind : {PatternShard::Literals::kAnyLine, PatternShard::Literals::kMarkedLine}) {
    auto table = Find(*shard, kind, all, PatternShard::Route::kTable);
    auto database = Find(*shard, kind, all, PatternShard::Route::kDatabase);
    EXPECT_EQ(table.size(), database.size());
    EXPECT_TRUE(table == database);
    total += table.size();
  }
  EXPECT_GT(total, 5000u);
}

// The check kept in the file says what the check made from the parsed
// regex says, on lines that hold and lack its literals.
TEST(LiteralCheck, KeptInBytesItSaysTheSame) {
  std::vector<std::string> patterns = {
      "session.*fixation", "(cache.*full|eviction.*behind)", "CUDA out of memory",
      "(?:unable|failed) to read (?:the )?\\w+ trigger", "x{0,3}", "(a|b)(c|d)e",
  };
  std::vector<std::string> lines = {
      "session fixation",      "session only",         "cache is full",       "eviction fell behind",
      "cache behind",          "cuda out of memory",   "failed to read the parent trigger",
      "unable to read trigger", "", "ace", "bde", "abe",
  };
  // A literal longer than the 255 bytes a kept literal holds.
  const std::string long_literal(300, 'q');
  patterns.push_back(long_literal + "z");
  lines.push_back(long_literal + "z");
  lines.push_back(long_literal.substr(1) + "z");
  match::LiteralIds ids;
  match::LineLiterals memo;
  std::size_t said_no = 0;
  for (const std::string& p : patterns) {
    auto info = regex::ParsePythonRegex(p);
    ASSERT_TRUE(info.ok()) << p;
    const match::LiteralCheck parsed(*info, &ids);
    const std::string bytes = parsed.Encode();
    EXPECT_EQ(bytes.empty(), parsed.empty()) << p;
    const match::LiteralCheck kept = match::LiteralCheck::Decode(bytes, &ids);
    EXPECT_EQ(kept.Encode(), bytes) << p;
    auto re = regex::Pcre2Regex::Compile(info->pcre2);
    ASSERT_TRUE(re.ok());
    for (const std::string& line : lines) {
      std::string folded;
      match::FoldLine(line, &folded);
      memo.Reset(folded);
      const bool a = parsed.MayMatch(&memo);
      memo.Reset(folded);
      const bool b = kept.MayMatch(&memo);
      // A literal cut to 255 bytes may let a line through that the whole
      // one turns away; never the other way round.
      if (a != b) {
        EXPECT_TRUE(b && !a) << p << " on " << line;
      }
      if (re->Find(line)) {
        EXPECT_TRUE(b) << p << " turns away its own match " << line;
      }
      said_no += !b;
    }
  }
  EXPECT_GE(said_no, 40u);
  // Bytes that do not parse give a check that never says no.
  const char kShort[] = "\x01\x01\x05" "ab";       // a literal longer than the bytes left
  const char kNoChoices[] = "\x02";                  // two sets, none there
  const char kTrailing[] = "\x01\x01\x01\x03" "abcd";  // a byte too many
  for (std::string_view bad : {std::string_view(kShort), std::string_view(kNoChoices), std::string_view(kTrailing)}) {
    EXPECT_TRUE(match::LiteralCheck::Decode(bad, &ids).empty()) << bad;
  }
}

// Short texts are looked up in the tables, long ones scanned with the
// database: on the corpus both give, line for line, what PCRE2 gives.
TEST(PatternShard, ShortTextsMatchLikeTheRegexes) {
  KEDB_REQUIRE_SHARED(shared);
  auto kb = KnowledgeBase::Load((shared / "corpora/deadends/canons").string(), {});
  ASSERT_TRUE(kb.ok());
  std::vector<std::string> patterns;
  for (const Record& r : kb->records()) patterns.push_back(r.regex);
  testing::TempDir cache;
  auto set = match::PatternSet::Build(patterns, cache.path().string());
  ASSERT_TRUE(set.ok());
  std::vector<std::optional<regex::Pcre2Regex>> regexes;
  for (const std::string& p : patterns) {
    auto re = regex::CompilePython(p);
    ASSERT_TRUE(re.ok()) << p;
    regexes.emplace_back(std::move(re).value());
  }
  std::size_t found = 0;
  // A few records' texts at a time: each text is far below the table's limit.
  for (std::size_t first = 0; first < kb->records().size(); first += 40) {
    std::string text;
    std::vector<std::size_t> starts;
    for (std::size_t i = first; i < std::min(first + 40, kb->records().size()); ++i) {
      starts.push_back(text.size());
      text += kb->records()[i].signature + "\n";
    }
    ASSERT_LT(text.size(), PatternShard::kShortText);
    std::vector<match::LineHit> hits;
    (*set)->Scan(text, starts, &hits);
    std::set<std::pair<uint32_t, uint32_t>> got;
    for (const auto& h : hits) got.insert({h.line, h.pattern});
    // Every fourth pattern against every line, by PCRE2 alone.
    for (uint32_t p = static_cast<uint32_t>(first % 4); p < patterns.size(); p += 4) {
      for (uint32_t line = 0; line < starts.size(); ++line) {
        const bool want = regexes[p]->Search(logs::LineText(text, starts, line));
        EXPECT_EQ(want, got.count({line, p}) > 0) << patterns[p] << " on " << logs::LineText(text, starts, line);
        found += want;
      }
    }
  }
  EXPECT_GT(found, 500u);
}

// Editing a knowledge base again and again never prunes a shard still in
// use, however long ago it was compiled: each edit compiles only the shards
// its pattern left and joined, and the set as it then stands is read whole
// from the cache.
TEST(PatternSetCache, EditsNeverPruneAShardInUse) {
  testing::TempDir cache;
  std::vector<std::string> patterns;
  for (int i = 0; i < 64; ++i) patterns.push_back(fmt::format("Widget{} failed to start", i));
  auto build = [&](std::size_t* compiled) {
    match::PatternSource source{patterns.size(), [&patterns](uint32_t p) { return std::string_view(patterns[p]); },
                                [&patterns](uint32_t p) { return KnowledgeBase::PatternHash(patterns[p]); }, 0};
    auto set = match::PatternSet::Build(source, cache.path().string(), 4);
    ASSERT_TRUE(set.ok());
    *compiled = (*set)->stats().shards_compiled;
  };
  std::size_t compiled = 0;
  build(&compiled);
  EXPECT_EQ(compiled, 16u);
  // Every shard compiled an hour ago.
  for (const auto& e : fs::directory_iterator(cache.path())) {
    fs::last_write_time(e.path(), fs::file_time_type::clock::now() - std::chrono::hours(1));
  }
  // One record edited again and again: its pattern moves between a few
  // shards, and the others stay as they were an hour ago.
  for (int edit = 0; edit < 14; ++edit) {
    patterns[0] = fmt::format("Widget0 failed to start (edit {})", edit);
    build(&compiled);
    EXPECT_GE(compiled, 1u);
    EXPECT_LE(compiled, 2u) << "edit " << edit << ": only the shards its pattern left and joined";
  }
  build(&compiled);
  EXPECT_EQ(compiled, 0u) << "every shard in use was still in the cache";
}

}  // namespace
}  // namespace kedb
